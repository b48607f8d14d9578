"""The full solve: every state of every stage, backward by stage, then the exact count forward.

Backward, each stage reads the next through canonical keys (:mod:`solver.staged.classes` lists the classes):

* **A, the holds** (:mod:`solver.staged.holds`): every (hold, four dead cards) class's value of each
  fa-hu bet, one walk over all its dead sets per hold;
* **B, the draws** (:mod:`solver.staged.stages`): every post-draw class's best bet, from A;
* **C, the first holds**: every (first hold, two thrown) class's value, for each DD, from B;
* **D, the deals**: every deal class's options, from C.

Then forward (:mod:`solver.staged.forward`): the deal classes' choices met by every draw give each
post-draw state's reach; their choices give each (hold, dead) class's, which the hold walk in
tracking mode turns into exact outcome counts, hence the return table and every figure of the
summary (:mod:`solver.staged.summary`).

**Chunks and resumption** (:mod:`solver.staged.chunks`). Stages A, B, C and the tracking walk
(:mod:`solver.staged.tracking`) are cut into chunks, solved in parallel with joblib (any backend,
Dask included) and written one parquet file per chunk as they finish, so a killed solve resumes
where it stopped; a stage's chunks are merged in chunk order into arrays the next stage reads, so
the tables do not depend on the number of jobs. A finished solve keeps its tables and drops the
chunks.

**Objectives.** A bonus bet changes stage A (its objective) and everything after; a restriction
changes only B to D: ``minimum-bets`` reads stage A's minimum-bets value, ``no-double-down`` and
``always-claim-tian-hu`` only the deal stage, and a chart only the forward count. So a restricted
solve can take stage A from the main solve's directory (``holds_from``), and so can a paytable
variant whose payouts stage A does not read, or reads only linearly (the step-11 payouts).
"""

from __future__ import annotations

import json
import sys
import time
import tomllib
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache, partial
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from joblib import parallel_config

from solver.errors import ConfigError, InputError
from solver.game.cards import DeckGeometry, format_cards
from solver.game.config import GameConfig, config_from_dict
from solver.game.hu import hu_levels
from solver.game.objective import Objective, Policy
from solver.game.options import Option
from solver.game.payouts import TingConstants, sums_exact
from solver.game.symmetry import deal_classes
from solver.game.symmetry_kernels import canonical_keys, pattern_powers
from solver.runtime.files import written_atomically
from solver.runtime.parallel import mark_parent
from solver.staged.bounds import (
    FOLD,
    best_rows_path,
    bets_near,
    bounding_stage_a,
    describe_bounds,
    exact_values,
    find_refiners,
    needed_keys,
    not_bounding,
    read_best_rows,
    recorded_bounds,
    tangent_helps,
    whole_stage_a,
)
from solver.staged.chunks import (
    STAGE_NAMES,
    SolveJob,
    as_array,
    chunk_array_path,
    list_column,
    load_stage_arrays,
    read_chunks,
    run_stage,
    save_stage_arrays,
    stage_arrays_ready,
)
from solver.staged.classes import extensions, group_classes
from solver.staged.column_store import columns_stored, store_folder, store_rows, stored_columns, stored_rows
from solver.staged.forward import (
    DealChoice,
    DrawStage,
    Plays,
    decode_rows,
    di_hu_claims,
    draw_decisions,
    draw_reach,
    hold_reach,
    outcome_counts,
    sum_exact,
)
from solver.staged.holds import (
    WIDE_BETS,
    WINS_COLUMNS,
    largest_move,
    largest_shift,
    price,
    walk,
    walk_above,
    walk_variants,
)
from solver.staged.stages import StateHolds, _draw_values, _first_rows, _first_values, state_holds
from solver.staged.summary import Summary, load_summary, summarise, write_summary
from solver.staged.tracking import count_best_rows, tracked
from solver.tables.files import (
    BOUND_BELOW_FOLDING,
    BOUND_COLUMN,
    TABLE_FILES,
    bound_below_folding,
    bounded_stage_a,
    default_directory,
    describe,
    file_metadata,
    prepare_directory,
    read_metadata,
    recorded_source,
    rows_in_threads,
    solve_lock,
    sort_by_key,
    usable_directory,
    write_parts,
    write_table,
)
from solver.tables.index import index_path, open_index

# ---------------------------------------------------------------------------------------------
# Stage A: the holds.


def _group_keys(first: np.ndarray, second: np.ndarray, base: int) -> np.ndarray:
    """Keys of the states (``first`` repeated, each row of ``second``): digits in ``base``."""
    key = 0
    for card in first:
        key = key * base + int(card)
    keys = np.full(len(second), key, np.int64)
    for column in second.T:
        keys = keys * base + column
    return keys


def _holds_work(solve: SolveJob | list[SolveJob], holds: np.ndarray) -> pa.Table | list[pa.Table]:
    """Stage A for a chunk of hold classes: every canonical dead set's values (of a bounded variant, only
    the rows it walks: :func:`_stage_holds` spreads them over every key); for a list of variants walked
    together (:func:`walk_together`), a table for each."""
    single = isinstance(solve, SolveJob)
    solves = [solve] if single else solve
    config = solves[0].config
    geometry = config.geometry
    variants = [TingConstants.of(s.config, s.objective.bonus) for s in solves]
    listed = "needed" if solves[0].bounds else "bound" if solves[0].completes else None
    needed = np.load(solves[0].directory / "chunks" / f"holds-{listed}.npy", mmap_mode="r") if listed else None
    above = single and solve.above_fold
    keys, values, bound = [], [], []
    for hold in holds:
        if needed is None:
            dead = extensions(geometry, tuple(int(c) for c in hold), 4)
            key = _group_keys(hold, dead, geometry.n_types)
        else:  # only the rows listed, in key order (the walk's), the hold's columns only if any
            first = _group_keys(hold, np.zeros((1, 0), np.int64), geometry.n_types)[0] * geometry.n_types ** 4
            key = np.asarray(needed[slice(*np.searchsorted(needed, [first, first + geometry.n_types ** 4]))])
            if not len(key):
                continue
            (dead,) = decode_rows(key % geometry.n_types ** 4, geometry.n_types, (4,))
        columns = solves[0].columns(hold, variants[0], also=tuple(variants[1:]))
        if above:
            walked, below = walk_above(columns, dead, config, variants[0], FOLD)
            values.append(walked[None])
            bound.append(below)
        else:
            values.append(walk(columns, dead, config, variants[0])[None] if single else
                          walk_variants(columns, dead, config, variants))
        keys.append(key)
    n_out = 2 * len(config.fa_hu_bets) + 4 + WINS_COLUMNS
    key = np.concatenate(keys) if keys else np.empty(0, np.int64)
    tables = [_holds_table(key, np.concatenate([v[k] for v in values]) if values else np.empty((0, n_out)),
                           len(config.fa_hu_bets), np.concatenate(bound) if above and bound else
                           np.zeros(0, bool) if above else None) for k in range(len(solves))]
    return tables[0] if single else tables


def _holds_table(keys: np.ndarray, rows: np.ndarray, n_bets: int, bound: np.ndarray | None = None) -> pa.Table:
    """Stage A's rows (the walk's values output, see :data:`solver.staged.holds.TRACK_COLUMNS`) as a table:
    the EVs, and what they are priced from; with ``bound``, which rows hold upper bounds below folding rather
    than values (:attr:`solver.staged.chunks.SolveJob.above_fold`)."""
    columns = {"key": keys, "evs": list_column(rows[:, :n_bets]), "ev_minimum_bets": rows[:, n_bets],
               "step11": list_column(rows[:, n_bets + 1:n_bets + 3]),
               "ting_gains": list_column(rows[:, n_bets + 3:2 * n_bets + 4]),
               "ting_wins": list_column(rows[:, 2 * n_bets + 4:])}
    return pa.table(columns if bound is None else {**columns, BOUND_COLUMN: bound})


def _stage_holds(solve: SolveJob, holds_from: Path | None, quiet: bool) -> Future | None:
    """Stage A, unless its arrays and table are there: solved, read from ``holds_from`` (the same stage A),
    or priced again from it (the same walk, other step-11 payouts); its keys and values saved to the arrays
    ``chunks/holds-*.npy`` (:func:`_save_holds_arrays`), then its rows to ``holds.parquet`` (unless read).
    A walked stage A's table is written from its chunk files in a thread while the later stages run (their
    serial parts leave a core free for it): that write is returned, to be waited for before the summary."""
    directory = solve.directory
    path = directory / "holds.parquet"
    ready = stage_arrays_ready(directory, "holds", ("key", "values"))
    if ready and (holds_from is not None or (path.exists() and bounded_stage_a(directory) == bool(solve.bounds))):
        return None
    if path.exists() and (ready or bounded_stage_a(directory)):
        path.unlink()  # a bounded table lacks rows the arrays need, or is not this solve's kind: again from chunks
    columns = ["key", "evs", "ev_minimum_bets"]
    if path.exists() or (holds_from is not None and _same_stage_a(holds_from, solve.config)):
        _save_holds_arrays(solve, [_holds_arrays(pq.read_table(path if path.exists() else holds_from / "holds.parquet",
                                                               columns=columns))], holds_from, path)
        return None
    extra = {"bounded_by": solve.bounds, "walked_for": _walking_for(solve)} if solve.bounds else None
    metadata = file_metadata(solve.config, solve.objective, extra)
    if holds_from is not None:
        kept: list[pa.Table] = []  # those columns of the parts written, rather than reading them back
        write_parts(path, (_walked_rows(_kept_columns(part, columns, kept)) for part in
                           _repriced(solve, holds_from / "holds.parquet")), metadata)
        if not ready:
            _save_holds_arrays(solve, [_holds_arrays(t) for t in kept] if kept else
                               [_holds_arrays(pq.read_table(path, columns=columns))], holds_from, path)
        return None
    made: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # each chunk's arrays as it comes, not read back
    paths = run_stage(solve, "holds", group_classes(solve.config.geometry, 4), _holds_work, (), quiet,
                      tag=_holds_tag(solve.bounds, solve.above_fold),
                      keep=None if ready else lambda index, table: made.__setitem__(index, _holds_arrays(table)))
    if not ready:  # else stopped after its arrays, before its table: the table alone
        _save_holds_arrays(solve, [made.pop(i) if i in made else _holds_arrays(pq.read_table(p, columns=columns))
                                   for i, p in enumerate(paths)], holds_from, path)
    bound = solve.above_fold and _any_bound(paths)
    if bound:
        metadata = file_metadata(solve.config, solve.objective, {BOUND_BELOW_FOLDING: "true"})
    return _written_later(path, paths, metadata, bound)


def _any_bound(paths: list[Path]) -> bool:
    """Whether a stage A walked above folding left out any row (its chunks' ``bound`` column): where none was,
    its table is a whole walk's, without the column."""
    return any(pq.read_table(p, columns=[BOUND_COLUMN])[BOUND_COLUMN].to_numpy().any() for p in paths)


def make_whole(solve: SolveJob, parallel: tuple[str, str | None, int], quiet: bool) -> None:
    """Walk the rows a finished solve's stage A left out below folding (``holds.parquet``'s ``bound``) and write
    that table whole, in place: nothing else changes, since no later stage read those rows. What a chart, the
    bounds of a paytable variant or a solve that prices this stage A need."""
    path = solve.directory / "holds.parquet"
    part = pq.read_table(path, columns=["key", BOUND_COLUMN])
    listed = as_array(part["key"])[as_array(part[BOUND_COLUMN])]
    del part
    if not quiet:
        print(f"walking the {len(listed):,} stage-A rows left out below folding, to make {path} whole",
              file=sys.stderr)
    (solve.directory / "chunks").mkdir(exist_ok=True)
    save_stage_arrays(solve.directory, "holds", {"bound": listed})
    with _backend(*parallel):
        paths = run_stage(replace(solve, above_fold=False, completes=True), "whole",
                          group_classes(solve.config.geometry, 4), _holds_work, (), quiet, tag=_holds_tag(""))
    walked = (pq.read_table(p) for p in paths)  # in key order, one chunk at a time
    write_parts(path, _with_walked(pq.ParquetFile(path), walked, solve.n_bets),
                file_metadata(solve.config, solve.objective))
    _drop_chunks(solve.directory)


def _with_walked(source: pq.ParquetFile, walked: Iterator[pa.Table], n_bets: int) -> Iterator[pa.Table]:
    """The rows of ``source`` (a stage A above folding), in order, its bound rows replaced by those ``walked``
    (the same rows in the same order, in parts), without the ``bound`` column."""
    keys, rows = np.empty(0, np.int64), np.empty((0, 2 * n_bets + 4 + WINS_COLUMNS))
    for batch in source.iter_batches(REPRICE_ROWS):
        part = pa.Table.from_batches([batch])
        table_rows = _table_rows(part, n_bets)
        bound = as_array(part[BOUND_COLUMN])
        n = int(bound.sum())
        while len(keys) < n:
            more = next(walked, None)
            if more is None:
                break
            keys = np.concatenate([keys, as_array(more["key"])])
            rows = np.concatenate([rows, _table_rows(more, n_bets)])
        if not np.array_equal(keys[:n], as_array(part["key"])[bound]):
            raise RuntimeError("the rows walked are not those stage A left out below folding")
        table_rows[bound] = rows[:n]
        keys, rows = keys[n:], rows[n:]
        yield _holds_table(as_array(part["key"]), table_rows, n_bets)
    if len(keys) or sum(more.num_rows for more in walked):  # chunks of holds with none left out are empty
        raise RuntimeError("more rows walked than stage A left out below folding")


def _table_rows(part: pa.Table, n_bets: int) -> np.ndarray:
    """Stage A's rows as the walk writes them, from a table of them (:func:`_holds_table`'s inverse)."""
    rows = np.empty((part.num_rows, 2 * n_bets + 4 + WINS_COLUMNS))
    rows[:, :n_bets] = as_array(part["evs"])
    rows[:, n_bets] = as_array(part["ev_minimum_bets"])
    rows[:, n_bets + 1:n_bets + 3] = as_array(part["step11"])
    rows[:, n_bets + 3:2 * n_bets + 4] = as_array(part["ting_gains"])
    rows[:, 2 * n_bets + 4:] = as_array(part["ting_wins"])
    return rows


def _holds_arrays(table: pa.Table) -> tuple[np.ndarray, np.ndarray]:
    """The keys and values (each fa-hu bet's EV, then the minimum bets') of a part of stage A's rows, those
    walked only (:func:`_walked_rows`). Part by part: one array of 25 million rows is several times slower
    to take from Arrow."""
    table = _walked_rows(table)
    return as_array(table["key"]), np.column_stack([as_array(table["evs"]), as_array(table["ev_minimum_bets"])])


def _save_holds_arrays(solve: SolveJob, parts: list[tuple[np.ndarray, np.ndarray]], holds_from: Path | None,
                       path: Path) -> None:
    """Stage A's keys and values (``parts``, in key order, of :func:`_holds_arrays`: every row, or a bounded
    variant's walked ones, then spread over every key) into the arrays ``chunks/holds-*.npy`` that the later
    stages read. ``parts`` is emptied once concatenated, so that its arrays are freed before the save."""
    keys = np.concatenate([k for k, _ in parts])
    values = np.concatenate([v for _, v in parts])
    del parts[:]
    if solve.bounds:  # the rows walked (its own, or a bounded sibling's, read or priced), spread over every key
        keys, values = _every_row(solve, keys, values, holds_from / "holds.parquet" if holds_from else path)
        _exact_rows(solve, keys, values)
    values[np.isnan(values)] = -np.inf  # rows a bounded variant did not walk: never a state's best
    save_stage_arrays(solve.directory, "holds", {"key": keys, "values": values})


def _written_later(path: Path, chunks: list[Path], metadata: dict[bytes, bytes], keep_bound: bool = False) -> Future:
    """``holds.parquet`` written from stage A's ``chunks`` (their walked rows) in a thread of its own; their
    ``bound`` column (a walk above folding's) kept only where ``keep_bound``."""
    def part(chunk: Path) -> pa.Table:
        table = pq.read_table(chunk).replace_schema_metadata(None)
        if BOUND_COLUMN in table.column_names and not keep_bound:
            table = table.drop_columns([BOUND_COLUMN])
        return _walked_rows(table)

    parts = (part(p) for p in chunks)
    pool = ThreadPoolExecutor(1, thread_name_prefix="mahjong-poker-holds")
    writing = pool.submit(write_parts, path, parts, metadata, True)  # keep_same: a committed stage A stays
    pool.shutdown(wait=False)  # the write goes on; the interpreter waits for it before it exits
    return writing


def _every_row(solve: SolveJob, keys: np.ndarray, values: np.ndarray, path: Path) -> tuple[np.ndarray, np.ndarray]:
    """A bounded variant's stage-A rows (``keys``, ``values``: those it walked, or a bounded sibling's, read or
    priced from ``path``) spread over every row of stage A (the bounding solve's keys: stages B and C index
    them), NaN where not walked; refused where a row this solve's bounds need is not among them."""
    every = as_array(pq.read_table(recorded_bounds(solve.bounds)[0] / "holds.parquet", columns=["key"])["key"])
    needed = np.load(solve.directory / "chunks" / "holds-needed.npy")
    place = np.minimum(np.searchsorted(keys, needed), max(len(keys) - 1, 0))
    if len(needed) and not (len(keys) and np.array_equal(keys[place], needed)):
        raise InputError(f"{path} lacks stage-A rows this solve's bounds need: it was bounded otherwise")
    spread = np.full((len(every), values.shape[1]), np.nan)
    spread[np.searchsorted(every, keys)] = values
    return every, spread


def _exact_rows(solve: SolveJob, keys: np.ndarray, values: np.ndarray) -> None:
    """Into a bounded variant's stage-A ``values`` (of every row ``keys``, those not walked NaN), the rows
    whose values at their best bets the solve of other fa-hu bets bounding it gives exactly
    (:func:`solver.staged.bounds.needed_keys` saved their keys): those bets' values; the others stay NaN,
    never the row's best."""
    exact = np.load(solve.directory / "chunks" / "holds-exact.npy")
    if len(exact):  # only a solve of other fa-hu bets gives rows exactly
        place = np.searchsorted(keys, exact)
        known = exact_values(solve.config, _bets_bound(recorded_bounds(solve.bounds), solve.config)[0], exact)
        values[place, :known.shape[1]] = np.where(np.isnan(known), values[place, :known.shape[1]], known)


def _holds_tag(bounds: str, above_fold: bool = False) -> str:
    """Stage A's chunk tag: the bounds (empty when whole), after the columns its chunks hold, so that chunks
    written before the ting wins are walked again rather than merged with newer ones; and whether the rows
    below folding were left out."""
    return f"ting_wins;{bounds}" + (";above folding" if above_fold else "")


def _walked_rows(part: pa.Table) -> pa.Table:
    """The rows of a part of stage A that were walked (a bounded variant leaves the others NaN)."""
    walked = ~np.isnan(as_array(part["ev_minimum_bets"]))
    return part if walked.all() else part.filter(pa.array(walked))


def _kept_columns(part: pa.Table, columns: list[str], kept: list[pa.Table]) -> pa.Table:
    """``part``, its ``columns`` appended to ``kept``."""
    kept.append(part.select(columns))
    return part


def _same_stage_a(source: Path, config: GameConfig) -> bool:
    """Whether ``source``'s stage A (checked by :func:`_check_holds_source`) has this solve's very values,
    rather than only its walk."""
    found = read_metadata(source / "holds.parquet")
    return found.get("fingerprint") == config.fingerprint() or \
        _recorded_fingerprint(found, GameConfig.holds_fingerprint) == config.holds_fingerprint()


REPRICE_ROWS = 1 << 20
"""Stage-A rows priced at once when a variant prices another's walk (about 100 bytes each)."""


def _repriced(solve: SolveJob, path: Path) -> Iterator[pa.Table]:
    """The stage A of ``path`` (the same walk: its step-11 counts and ting gains; the same ting fingerprint)
    priced for this solve's payouts, through the walk's own pricing (:func:`solver.staged.holds.price`), so
    bit for bit what solving it would give; ``REPRICE_ROWS`` rows at a time."""
    source = pq.ParquetFile(path)
    geometry, n_bets = solve.config.geometry, solve.n_bets
    constants = TingConstants.of(solve.config, solve.objective.bonus)
    pool = int(geometry.full_counts()[:geometry.n_suited].sum())
    move = largest_move(config_from_dict(tomllib.loads(read_metadata(path)["config"])), solve.config)
    return (_priced_part(pa.Table.from_batches([batch]), pool, geometry, n_bets, constants, move)
            for batch in source.iter_batches(REPRICE_ROWS, columns=["key", "step11", "ting_gains", "ting_wins"]))


def _priced_part(part: pa.Table, pool: int, geometry: DeckGeometry, n_bets: int, constants: TingConstants,
                 move: tuple[np.ndarray, float] | None = None) -> pa.Table:
    """Rows of a stage-A table (``pool``: the deck's suited cards) priced for ``constants``, their ting gains
    moved by ``move`` (:func:`solver.staged.holds.largest_move`): every product and sum exact, as the walk's."""
    keys = as_array(part["key"])
    hold, dead = decode_rows(keys, geometry.n_types, (4, 4))
    left = pool - (hold < geometry.n_suited).sum(axis=1) - (dead < geometry.n_suited).sum(axis=1)
    rows = np.empty((len(keys), 2 * n_bets + 4 + WINS_COLUMNS))
    rows[:, n_bets + 1:n_bets + 3] = as_array(part["step11"])
    gains = rows[:, n_bets + 3:2 * n_bets + 4]
    gains[:] = as_array(part["ting_gains"])
    if move is not None:
        gains[:, :n_bets] += largest_shift(gains, move)
    rows[:, 2 * n_bets + 4:] = as_array(part["ting_wins"])
    price(rows, left, constants)
    return _holds_table(keys, rows, n_bets)


# ---------------------------------------------------------------------------------------------
# Stage B: the draws. Stage C: the first holds.


def _bet_columns(solve: SolveJob) -> np.ndarray:
    """Stage A's columns the strategy may bet: every F, or the minimum-bets value alone."""
    if solve.objective.restriction == "minimum-bets":
        return np.array([solve.n_bets], np.int64)
    return np.arange(solve.n_bets, dtype=np.int64)


def _draws_work(solve: SolveJob, hands: np.ndarray) -> pa.Table:
    """Stage B for the post-draw classes of a chunk of canonical six-card hands, with each class's stage-A
    rows (:func:`_stage_draws` stores them)."""
    a = load_stage_arrays(solve.directory, "holds", ("key", "values"))
    keys, level, n_holds, rows = _draw_rows(solve.config.geometry, hands, a["key"])
    play_on, best = _draw_play(solve, rows, n_holds, a["values"])
    return pa.table({"key": keys, "level": level, "play_on": play_on, "best": best, "holds": n_holds,
                     "rows": list_column(rows)})


def _draw_rows(geometry: DeckGeometry, hands: np.ndarray, a_keys: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The post-draw classes of canonical six-card ``hands``: their keys, hu levels, numbers of distinct holds
    and stage-A rows (indices into the sorted stage-A keys ``a_keys``, 15 a class)."""
    deads = [extensions(geometry, tuple(int(c) for c in hand), 2) for hand in hands]
    hand_rows = np.repeat(hands, [len(d) for d in deads], axis=0).astype(np.int64)
    held = state_holds(hand_rows, np.concatenate(deads), a_keys, geometry, cards=False)
    keys = np.concatenate([_group_keys(h, d, geometry.n_types) for h, d in zip(hands, deads)])
    return keys, held.level, held.n_holds.astype(np.int8), held.rows.astype(np.int32)


def _draw_play(solve: SolveJob, rows: np.ndarray, n_holds: np.ndarray, a_values: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
    """Stage B's best betting value and first best bet option of post-draw classes, from their stage-A
    ``rows`` (int32, 15 a class) and ``n_holds`` (int8)."""
    play_on, best = np.empty(len(rows)), np.empty(len(rows), np.int16)
    _draw_values(rows, n_holds, a_values, _bet_columns(solve), play_on, best)
    assert not np.isnan(play_on).any(), "every hold of a post-draw class is in stage A"
    return play_on, best


def _stage_draws(solve: SolveJob, quiet: bool) -> None:
    """Stage B into the arrays ``chunks/draws-*.npy``: from the rows the store keeps when it has them
    (:attr:`SolveJob.rows_store`), otherwise in chunks, whose rows then go to the store."""
    names = ("key", "level", "play_on", "best", "holds")
    if stage_arrays_ready(solve.directory, "draws", names):
        return
    kept = stored_rows(solve.rows_store, "draws") if solve.rows_store is not None else None
    a = load_stage_arrays(solve.directory, "holds", ("key", "values"))
    if kept is not None and _rows_fit(kept, len(kept["key"]), len(a["values"])):
        play_on, best = _draw_play(solve, kept["rows"], kept["holds"], a["values"])
        arrays = {"key": kept["key"], "level": kept["level"], "play_on": play_on, "best": best,
                  "holds": kept["holds"]}
    else:
        paths = run_stage(solve, "draws", group_classes(solve.config.geometry, 6), _draws_work, (), quiet,
                          tag=ROWS_TAG, arrays=("rows",))
        arrays = read_chunks(paths, list(names))
        _store_rows(solve, "draws", paths, {name: arrays[name] for name in ("key", "level", "holds")})
    save_stage_arrays(solve.directory, "draws", arrays)


ROWS_TAG = "rows beside"
"""What stage B's and C's chunks are made with: their rows in files beside them (chunks of an older version
held them in the file, or not at all, and are made again)."""


def _store_rows(solve: SolveJob, stage: str, paths: list[Path], arrays: dict[str, np.ndarray]) -> None:
    """Keep the rows of stage ``stage`` (``draws`` or ``firsts``), in the files beside its chunk files ``paths``,
    in the store with ``arrays`` (the other arrays the store keeps of the stage), when each post-draw class
    found a stage-A row for each of its holds: rows over every stage-A key, which serve any solve of the deck
    (every one's stage A is keyed so); nothing for a solve that keeps none (:attr:`SolveJob.rows_store`)."""
    rows = [chunk_array_path(path, "rows") for path in paths]
    if solve.rows_store is None or stage == "draws" and not _every_hold_found(rows, arrays["holds"]):
        return
    store_rows(solve.rows_store, stage, {**arrays, "rows": rows})


def _every_hold_found(rows: list[Path], n_holds: np.ndarray) -> bool:
    """Whether each post-draw class found a stage-A row for each of its ``n_holds`` holds (``rows``: the
    chunks' ``.npy`` files of them, -1 where none): only rows over stage A's every key serve another solve."""
    start = 0
    for path in rows:
        part = np.load(path, mmap_mode="r")
        if not ((part >= 0).sum(axis=1) == n_holds[start:start + len(part)]).all():
            return False
        start += len(part)
    return start == len(n_holds)


def _rows_fit(kept: dict[str, np.ndarray], n_items: int, n_targets: int) -> bool:
    """Whether rows kept in the column store fit this solve: every array one entry per item (``n_items``) and
    every row an index below ``n_targets`` (-1 where there is none). The store's folder names the deck, so
    only a damaged or doctored store fails this: its rows are made again rather than read out of bounds."""
    rows = kept["rows"]
    return all(len(array) == n_items for array in kept.values()) and rows.ndim == 2 and \
        (not rows.size or (int(rows.min()) >= -1 and int(rows.max()) < n_targets))


def _first_classes(geometry: DeckGeometry, holds: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The (first hold, thrown) classes of canonical holds: the kept cards, the two thrown, the keys."""
    thrown = [extensions(geometry, tuple(int(c) for c in hold), 2) for hold in holds]
    hold_rows = np.repeat(holds, [len(t) for t in thrown], axis=0).astype(np.int64)
    dead_rows = np.concatenate(thrown) if thrown else np.empty((0, 2), np.int64)
    keys = np.concatenate([_group_keys(h, t, geometry.n_types) for h, t in zip(holds, thrown)])
    return hold_rows, dead_rows, keys


def _firsts_table(solve: SolveJob, hold_rows: np.ndarray, dead_rows: np.ndarray, keys: np.ndarray,
                  rows: np.ndarray) -> pa.Table:
    """Stage C's table of (first hold, thrown) classes, from the stage-B ``rows`` of their draws."""
    config = solve.config
    geometry = config.geometry
    b = load_stage_arrays(solve.directory, "draws", ("key", "level", "play_on"))
    out = np.empty((len(hold_rows), 2))
    _first_values(hold_rows, dead_rows, geometry.full_counts(), rows, b["level"], b["play_on"], config.double_down,
                  config.di_hu, config.di_hu_flush, out)
    return pa.table({"key": keys, "hold": _card_names(hold_rows, geometry), "thrown": _card_names(dead_rows, geometry),
                     "ev": out[:, 0], "ev_dd": out[:, 1]})


def _firsts_work(solve: SolveJob, holds: np.ndarray) -> pa.Table:
    """Stage C for the (first hold, thrown) classes of a chunk of canonical holds, with each class's
    stage-B rows (:func:`_stage_firsts` stores them)."""
    geometry = solve.config.geometry
    hold_rows, dead_rows, keys = _first_classes(geometry, holds)
    b_keys = load_stage_arrays(solve.directory, "draws", ("key", "level", "play_on"))["key"]
    n_types = geometry.n_types
    rows = np.empty((len(hold_rows), n_types * (n_types + 1) // 2), np.int32)
    _first_rows(hold_rows, dead_rows, geometry.full_counts(), b_keys, geometry.suits, geometry.ranks,
                pattern_powers(geometry), rows)
    return _firsts_table(solve, hold_rows, dead_rows, keys, rows).append_column("rows", list_column(rows))


def _stage_firsts(solve: SolveJob, quiet: bool) -> None:
    """Stage C into ``firsts.parquet`` and the arrays ``chunks/firsts-*.npy``: from the rows the store keeps
    when it has them (:attr:`SolveJob.rows_store`), otherwise in chunks, whose rows then go to the store."""
    if stage_arrays_ready(solve.directory, "firsts", ("key", "ev")):
        return
    geometry = solve.config.geometry
    kept = stored_rows(solve.rows_store, "firsts") if solve.rows_store is not None else None
    if kept is not None:
        classes = _first_classes(geometry, group_classes(geometry, 4))
        n_draws = len(load_stage_arrays(solve.directory, "draws", ("key", "level", "play_on"))["key"])
        kept = kept if _rows_fit(kept, len(classes[0]), n_draws) else None
    if kept is not None:
        table = _firsts_table(solve, *classes, kept["rows"])
    else:
        paths = run_stage(solve, "firsts", group_classes(geometry, 4), _firsts_work, (), quiet, tag=ROWS_TAG,
                          arrays=("rows",))
        table = pa.concat_tables(pq.read_table(p).replace_schema_metadata(None) for p in paths)
        _store_rows(solve, "firsts", paths, {})
    # keep_same: the tables a clone has committed stay as they were when a solve makes them again
    write_table(solve.directory / "firsts.parquet", table, file_metadata(solve.config, solve.objective), keep_same=True)
    evs = np.column_stack([as_array(table["ev"]), as_array(table["ev_dd"])])
    save_stage_arrays(solve.directory, "firsts", {"key": as_array(table["key"]), "ev": evs})


# ---------------------------------------------------------------------------------------------
# Stage D: the deals.


def _deal_choices(solve: SolveJob) -> list[DealChoice]:
    """Every deal class's options (claim, then each discard without and with DD, from stage C) and the
    options the strategy plays."""
    config = solve.config
    geometry = config.geometry
    c = load_stage_arrays(solve.directory, "firsts", ("key", "ev"), mmap=False)
    hands, weights = deal_classes(geometry)
    kept, thrown, ends = deal_discards(hands, geometry.n_types)
    keys = canonical_keys(geometry, kept, thrown)
    rows = np.searchsorted(c["key"], keys)
    assert (c["key"][rows] == keys).all(), "every discard of a deal class is in stage C"
    evs = c["ev"][rows]
    thrown_cards = list(map(tuple, thrown.tolist()))
    counts = np.zeros((len(hands), geometry.n_types), np.int64)
    np.add.at(counts, (np.arange(len(hands))[:, None], hands), 1)
    choices, start = [], 0
    for hand, weight, end, level in zip(hands.tolist(), weights.tolist(), ends.tolist(),
                                        hu_levels(counts, geometry).tolist()):
        ds = thrown_cards[start:end]
        cards = tuple(hand)
        options = []
        if level:
            options.append(Option("claim", (), 0.0, config.tian_hu_flush if level == 2 else config.tian_hu, 1.0))
        for k, dd in enumerate((0.0, config.double_down)):
            options += [Option("discard", d, dd, float(evs[start + j, k]), 1.0 + dd) for j, d in enumerate(ds)]
        start += len(ds)
        choices.append(DealChoice(cards, int(weight), options,
                                  solve.objective.choices("deal", options, cards, geometry), level))
    return choices


#: The two-card discards of a six-card hand, as positions in it (lexicographic), and the four positions
#: each keeps.
_THROWN_AT = np.array(list(combinations(range(6), 2)), np.int64)
_KEPT_AT = np.array([[i for i in range(6) if i not in pair] for pair in _THROWN_AT], np.int64)


def deal_discards(hands: np.ndarray, n_types: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each hand's distinct two-card discards (rows of sorted six-card ``hands``) in lexicographic order,
    as :func:`solver.game.combinatorics.submultisets` lists them, all hands' one after the other: the four
    cards kept and the two thrown of each, and where each hand's end (cumulative counts)."""
    thrown = hands[:, _THROWN_AT]  # (hands, 15, 2), each pair sorted: the hand is
    code = thrown[:, :, 0] * n_types + thrown[:, :, 1]
    order = np.argsort(code, axis=1, kind="stable")
    code = np.take_along_axis(code, order, axis=1)
    first = np.ones(code.shape, bool)
    first[:, 1:] = code[:, 1:] != code[:, :-1]  # a repeated pair of cards is one discard
    hand, position = np.nonzero(first)
    at = order[hand, position]
    kept = hands[hand[:, None], _KEPT_AT[at]]
    return kept, hands[hand[:, None], _THROWN_AT[at]], np.cumsum(first.sum(axis=1))


def _option_columns(options: list[Option], chosen: list[int], cards_of: Callable[[tuple[int, ...]], str]
                    ) -> dict[str, Any]:
    """Every option's columns, with ``best_*`` the first option played and ``best_ev`` the mean EV of
    those played (a chart's mix; the one option's EV otherwise)."""
    first = options[chosen[0]]
    return {"best": chosen[0], "best_action": first.action, "best_discard": cards_of(first.discard),
            "best_bet": first.bet, "best_ev": sum(options[i].ev for i in chosen) / len(chosen),
            "actions": [o.action for o in options], "discards": [cards_of(o.discard) for o in options],
            "bets": [o.bet for o in options], "evs": [o.ev for o in options], "risks": [o.risk for o in options]}


_OPTION_FIELDS = [
    ("best", pa.int32()), ("best_action", pa.string()), ("best_discard", pa.string()), ("best_bet", pa.float64()),
    ("best_ev", pa.float64()), ("actions", pa.list_(pa.string())), ("discards", pa.list_(pa.string())),
    ("bets", pa.list_(pa.float64())), ("evs", pa.list_(pa.float64())), ("risks", pa.list_(pa.float64())),
]
DEAL_SCHEMA = pa.schema([("key", pa.int64()), ("hand", pa.string()), ("weight", pa.int64()),
                         ("tian_hu", pa.int8())] + _OPTION_FIELDS)


def _deal_table(deals: list[DealChoice], config: GameConfig) -> pa.Table:
    geometry = config.geometry
    from solver.game.symmetry import encode

    # a million options name a few hundred discards
    discard_name = lru_cache(maxsize=None)(partial(format_cards, geometry=geometry))
    return pa.Table.from_pylist([
        {"key": encode(geometry, d.hand), "hand": format_cards(d.hand, geometry), "weight": d.weight,
         "tian_hu": d.level, **_option_columns(d.options, d.chosen, discard_name)}
        for d in deals], schema=DEAL_SCHEMA)


# ---------------------------------------------------------------------------------------------
# Forward: reach, decisions, the tracking walk, the outcome counts and the draw table.


CHART_CHUNK = 1 << 18
"""Post-draw states a chart's draw play is read for at once (their holds take about 200 bytes each)."""


def _chart_plays(solve: SolveJob, hands: np.ndarray, deads: np.ndarray, level: np.ndarray, dd: np.ndarray,
                 reach: np.ndarray, optimal: np.ndarray) -> tuple[Plays, np.ndarray]:
    """The plays of a chart at the reached post-draw states (several discards mixed where its line
    leaves several; ``optimal``, the option optimal play takes, where no line covers the state), and the
    mean EV of each state's plays."""
    config = solve.config
    a = load_stage_arrays(solve.directory, "holds", ("key", "values"))
    unit = solve.objective.mix_unit
    states, options, mean = [], [], np.empty(len(hands))
    for start in range(0, len(hands), CHART_CHUNK):
        part = slice(start, start + CHART_CHUNK)
        held = state_holds(hands[part], deads[part], a["key"], config.geometry)
        state, option = solve.objective.chart.draw_choices(
            held.holds, held.thrown, deads[part], held.n_holds, level[part], tuple(config.fa_hu_bets),
            config.geometry)
        silent = np.flatnonzero(np.bincount(state, minlength=len(held.n_holds)) == 0)
        state, option = np.concatenate([state, silent]), np.concatenate([option, optimal[part][silent]])
        order = np.lexsort((option, state))
        state, option = state[order], option[order]
        evs = _option_evs(held, state, option, dd[part], a["values"], config)
        mean[part] = np.bincount(state, evs, len(held.n_holds)) / np.bincount(state, minlength=len(held.n_holds))
        states.append(state + start)
        options.append(option)
    state, option = np.concatenate(states), np.concatenate(options)
    mixed = np.bincount(state, minlength=len(hands))[state]
    scale = unit // mixed
    if len(reach) and int(reach.max()) > (2**63 - 1) // unit:  # counts beyond int64: Python integers
        return Plays(state, option, reach.astype(object)[state] * scale), mean
    return Plays(state, option, reach[state] * scale), mean


def _option_evs(held: StateHolds, state: np.ndarray, option: np.ndarray, dd: np.ndarray, a_values: np.ndarray,
                config: GameConfig) -> np.ndarray:
    """The EV of each (state, option) pair: a di-hu claimed, a fold, or a bet F with a hold from stage A."""
    level = held.level[state]
    n_claims = (level > 0).astype(np.int64)
    n_holds = held.n_holds[state]
    bet = np.maximum(option - 1 - n_claims, 0)
    row = held.rows[state, bet % n_holds]
    on = a_values[np.maximum(row, 0), bet // n_holds] - dd[state]
    claim = di_hu_claims(level, dd[state], config)
    return np.where((n_claims == 1) & (option == 0), claim, np.where(option == n_claims, -1.0 - dd[state], on))


def _forward(solve: SolveJob, deals: list[DealChoice], source: Path | None, quiet: bool
             ) -> tuple[Counter, Counter, int, int]:
    """The outcome counts and bonus net per slot of the strategy, the number of reached post-draw states
    and the reach of the di-hus it declines; outcome counts already in ``source``'s tracking table are read
    from it. The deal and draw tables are written meanwhile (:func:`_tables_beside`)."""
    config = solve.config
    geometry = config.geometry
    keys2, reach, counts = draw_reach(deals, config, solve.objective)
    keys = keys2 >> 1
    dd = np.where(keys2 & 1, config.double_down, 0.0)
    b = load_stage_arrays(solve.directory, "draws", ("key", "level", "play_on", "best", "holds"), mmap=False)
    draws = DrawStage(b["key"], b["level"], b["play_on"], b["best"], b["holds"])
    hands, deads = decode_rows(keys, geometry.n_types, (6, 2))
    option, rows = draw_decisions(draws, keys, dd, config)
    level, n_holds = draws.level[rows].astype(np.int64), draws.holds[rows].astype(np.int64)
    if solve.objective.chart is None:
        plays = Plays(np.arange(len(keys)), option, reach)
        claim = di_hu_claims(level, dd, config)
        best_ev = np.maximum(np.maximum(np.where(level > 0, claim, -np.inf), -1.0 - dd), draws.play_on[rows] - dd)
    else:
        plays, best_ev = _chart_plays(solve, hands, deads, level, dd, reach, option)
    first = np.searchsorted(plays.state, np.arange(len(keys)))  # each state's first play
    declined = sum_exact(reach[(level > 0) & (plays.option[first] != 0)])
    holds, more = hold_reach(plays, hands, deads, level, n_holds, dd, config, solve.objective)
    counts.update(more)
    # once the reach is known: the tables' thread beside hold_reach would take turns with it (both hold the
    # interpreter's lock in turn; together 12.5 s against 2.7 + 5.6 one after the other)
    writing = _tables_beside(solve, deals, keys, hands, deads, dd, reach, plays.option[first], level, n_holds,
                             best_ev)
    source_bets = None
    if source is None and solve.bounds:  # a solve of other fa-hu bets: its counts of the bets both have
        source, source_bets = _bets_bound(recorded_bounds(solve.bounds), solve.config)
    outcomes, bonus_net = outcome_counts(holds, tracked(solve, source, quiet, source_bets), config)
    counts.update(outcomes)
    return counts, bonus_net, writing.result(), declined


def _tables_beside(solve: SolveJob, deals: list[DealChoice], *draw_columns: np.ndarray) -> Future:
    """Write the deal table and the draw table (:func:`_draw_table` of ``draw_columns``) in a thread of their
    own, while the tracking walk keeps the workers busy and the parent waits for them: the number of draw
    rows, when written."""
    def write() -> int:
        metadata = file_metadata(solve.config, solve.objective)
        write_table(solve.directory / "deals.parquet", _deal_table(deals, solve.config), metadata, keep_same=True)
        draws = _draw_table(solve, *draw_columns)
        write_table(solve.directory / "draws.parquet", sort_by_key(draws, "key", "double_down"), metadata,
                    keep_same=True)
        return draws.num_rows

    pool = ThreadPoolExecutor(1, thread_name_prefix="mahjong-poker-tables")
    writing = pool.submit(write)
    pool.shutdown(wait=False)
    return writing


def _bets_bound(bounds: Sequence[Path], config: GameConfig) -> tuple[Path | None, tuple[float, ...] | None]:
    """The solve of other fa-hu bets among ``bounds`` that bounds ``config`` (:func:`solver.staged.bounds.bets_near`)
    and gives some of its rows exactly, and its bets; or Nones."""
    (first, *_) = bounds
    found = whole_stage_a(first)
    return (first, found.fa_hu_bets) if found is not None and bets_near(found, config) else (None, None)


DRAW_SCHEMA = pa.schema([
    ("key", pa.int64()), ("hand", pa.string()), ("dead", pa.string()), ("double_down", pa.float64()),
    ("reach", pa.int64()), ("best", pa.int32()), ("best_action", pa.string()), ("best_discard", pa.string()),
    ("best_bet", pa.float64()), ("best_ev", pa.float64())])


def _draw_table(solve: SolveJob, keys: np.ndarray, hands: np.ndarray, deads: np.ndarray, dd: np.ndarray,
                reach: np.ndarray, option: np.ndarray, level: np.ndarray, n_holds: np.ndarray,
                best_ev: np.ndarray) -> pa.Table:
    """One row per reached post-draw state: its cards, DD, reach and the (first) option played."""
    from solver.staged.stages import _thrown_by

    config = solve.config
    geometry = config.geometry
    n_claims = (level > 0).astype(np.int64)
    bet_option = np.maximum(option - 1 - n_claims, 0)
    thrown = np.empty((len(keys), 2), np.int64)
    rows_in_threads(_thrown_by, (hands, bet_option % np.maximum(n_holds, 1)), (geometry.n_types,), thrown)
    is_bet = option > n_claims
    action = np.where(is_bet, "bet", np.where((n_claims == 1) & (option == 0), "claim", "fold"))
    fa = np.array(config.fa_hu_bets)[np.minimum(bet_option // np.maximum(n_holds, 1), solve.n_bets - 1)]
    return pa.table({
        "key": keys, "hand": _card_names(hands, geometry), "dead": _card_names(deads, geometry), "double_down": dd,
        "reach": reach.astype(np.int64), "best": option.astype(np.int32), "best_action": action,
        "best_discard": [text if bet else "" for text, bet in zip(_card_names(thrown, geometry), is_bet)],
        "best_bet": np.where(is_bet, fa, 0.0), "best_ev": best_ev}, schema=DRAW_SCHEMA)


def _card_names(rows: np.ndarray, geometry: DeckGeometry) -> list[str]:
    """MPSZ notation of many rows of cards, each distinct row written once."""
    rows = np.ascontiguousarray(rows, np.int64)
    if not len(rows):
        return []
    packed = rows @ geometry.n_types ** np.arange(rows.shape[1], dtype=np.int64)
    _, first, inverse = np.unique(packed, return_index=True, return_inverse=True)
    texts = np.array([format_cards(rows[i].tolist(), geometry) for i in first], dtype=object)
    return texts[inverse.ravel()].tolist()


# ---------------------------------------------------------------------------------------------
# The solve.


def solve(config: GameConfig, directory: Path | str | None = None, *, bonus: float = 0.0,
          restriction: str = "optimal", chart: Policy | None = None, n_jobs: int = -1,
          backend: str = "loky", scheduler: str | None = None, quiet: bool = False, force: bool = False,
          holds_from: Path | str | None = None, column_store: bool | Path = False, index: bool = True,
          bounds: Sequence[Path] | None = None, whole: bool = False, keep_rows: bool = True) -> Summary:
    """Solve ``config`` into the table directory (default ``strategy_tables/<fingerprint>``).

    Finished chunks already in the directory are kept (a killed solve
    resumes); a directory made for another solve is refused unless
    ``force`` moves it aside. ``backend`` is any joblib backend; ``"dask"``
    connects to the Dask scheduler at ``scheduler`` (or starts a local
    cluster when it is None). ``holds_from``: a finished solve of the same
    configuration and bonus bet (or one that differs only in the payouts
    settled before the fa-hu bet, :data:`solver.game.config.DEAL_PAYOUTS`)
    whose stage A (``holds.parquet``) this solve reads instead of solving it
    again: a restricted strategy, or a paytable variant; or one that also
    differs in what a hu at step 11 pays (:data:`solver.game.config.STEP11_PAYOUTS`),
    whose stage A this solve prices again; or a variant bounded by the same
    ``bounds`` that differs only in the deal payouts, whose partial stage A holds
    the very rows this one needs (with a column store). ``column_store``: read each hold's
    payout-free columns from a store in the cache folder (or in the folder
    given), storing those not there (:mod:`solver.staged.column_store`): the
    same tables, and a later solve of the same deck (a paytable variant of the
    ting payouts or bet sizes) builds none. ``index``: build the index that
    ``best --tables`` reads now (otherwise the first such query builds it).
    ``bounds``: one or two finished solves that differ from this one only in
    the ting win payouts and multiples, the fa-hu bets, or both
    (:func:`solver.staged.bounds.find_bounds`); with a column store that keeps
    stage B's rows, stage A walks only the rows that can be a state's best
    (:mod:`solver.staged.bounds`): the same figures, a partial ``holds.parquet``.
    Without ``whole``, a solve that walks its own stage A with neither a bonus bet, bounds nor a column store
    leaves out the rows that cannot beat folding (:attr:`solver.staged.chunks.SolveJob.above_fold`): the same
    figures and tables, but for those rows of ``holds.parquet``. ``whole`` walks every row, and walks those left
    out of a finished solve in ``directory`` (:func:`make_whole`): what a chart, a variant's bounds or a solve
    that prices this stage A read. ``keep_rows``: without a column store, keep the rows stages B and C look up
    (which depend on the deck alone) in the cache folder's store of the deck all the same, and read them from
    there when a solve of the deck kept them (:attr:`solver.staged.chunks.SolveJob.rows_store`): a later solve
    (a paytable variant) then finds none.
    Returns the game's summary, also written to ``summary.parquet``.
    """
    start = time.monotonic()
    objective = Objective(bonus, restriction, chart)
    # absolute: worker processes started earlier may have another working folder, and a manifest's
    # holds_from must name the same directory whichever folder a later reader starts in
    directory = usable_directory(Path(directory) if directory is not None else default_directory(config, objective))
    directory = directory.absolute()
    source = Path(holds_from).absolute() if holds_from is not None else None
    if source is not None:
        _check_holds_source(source, config, objective, bounds if column_store is not False else None)
    with solve_lock(directory):
        prepare_directory(directory, config, objective, {"holds_from": str(source) if source else None}, force)
        if _complete(directory, source, quiet, bounded_ok=bounds is not None):
            _drop_chunks(directory)  # a solve stopped after its last table leaves its chunks behind
            if whole and source is None and bound_below_folding(directory):
                make_whole(SolveJob(config, objective, directory), (backend, scheduler, n_jobs), quiet)
            return load_summary(directory, config)
        store = _store(config, column_store)
        # only the optimal strategy reads nothing but each state's best (a restriction or a chart reads others)
        bounded = _bounded(config, directory, bounds, store, (backend, scheduler, n_jobs), quiet, source) \
            if (source is None or bounded_stage_a(source)) and objective == Objective() else ""
        above = not (whole or bounded or store is not None or objective.bonus or objective.chart is not None
                     or len(config.fa_hu_bets) > WIDE_BETS)
        job = SolveJob(config, objective, directory, store, bounded, above_fold=above, keeps_rows=keep_rows)
        summary = _solve(job, source, start, n_jobs, backend, scheduler, quiet)
        if whole and source is None and bound_below_folding(directory):  # resumed from a stage A above folding
            make_whole(job, (backend, scheduler, n_jobs), quiet)
        if index:
            if not quiet:
                print(f"indexing the tables for best --tables into {index_path(directory).parent}", file=sys.stderr)
            open_index(directory, say=False)  # built now rather than by the first query (solve's time excludes it)
        return summary


def _store(config: GameConfig, column_store: bool | Path) -> Path | None:
    """The column store a solve reads (``column_store``: False for none, True for the cache folder's, or the
    store's root folder)."""
    return None if column_store is False else store_folder(config, None if column_store is True else column_store)


def _bounded(config: GameConfig, directory: Path, bounds: Sequence[Path] | None, store: Path | None,
             parallel: tuple[str, str | None, int] = ("loky", None, -1), quiet: bool = True,
             source: Path | None = None, also: Sequence[GameConfig] = ()) -> str:
    """The bounds as recorded, with the keys stage A must walk saved in ``chunks/holds-needed.npy`` (kept
    from an earlier run with the same bounds, also one stopped after stage A: its forward count reads the
    bounds too; :func:`_needed_rows`), or "" when stage A walks every row: no bounds, no column store, or a
    whole stage A's table already written."""
    if bounds is None or store is None or \
            ((directory / "holds.parquet").exists() and not bounded_stage_a(directory)):  # stage A is whole there
        return ""
    bounds = [Path(b).absolute() for b in bounds]
    recorded = describe_bounds(bounds)
    path, note = directory / "chunks" / "holds-needed.npy", directory / "chunks" / "holds-needed.json"
    if not (path.exists() and all(path.with_name(f"holds-{name}.npy").exists() for name in ("exact", "total"))
            and note.exists() and note.read_text() == recorded):
        note.unlink(missing_ok=True)
        keys, exact = _needed_rows(config, directory, bounds, store, source, parallel, quiet, also)
        total = pq.ParquetFile(bounds[0] / "holds.parquet").metadata.num_rows
        save_stage_arrays(directory, "holds", {"needed": keys, "exact": exact, "total": np.array([total])})
        with written_atomically(directory / "chunks" / WALKED_FOR) as tmp:
            tmp.write_text(json.dumps(sorted({c.holds_fingerprint() for c in [config, *also]})))
        with written_atomically(note) as tmp:
            tmp.write_text(recorded)
    return recorded


WALKED_FOR = "holds-for.json"
"""In a bounded solve's chunks, and as ``walked_for`` in its ``holds.parquet``: the holds fingerprints of the
variants (its own, and the others of its walk it found rows for) whose rows its walk holds, each of them."""


def _walking_for(solve: SolveJob) -> str:
    """What a bounded solve's ``holds.parquet`` records as ``walked_for`` (:data:`WALKED_FOR`): its own holds
    fingerprint alone where its chunks do not say (rows found before they did)."""
    path = solve.directory / "chunks" / WALKED_FOR
    return path.read_text() if path.exists() else json.dumps([solve.config.holds_fingerprint()])


def _walked_for(source: Path) -> list[str]:
    """The holds fingerprints whose every needed row a bounded solve's stage A holds (:data:`WALKED_FOR`)."""
    return json.loads(read_metadata(source / "holds.parquet").get("walked_for") or "[]")


def _needed_rows(config: GameConfig, directory: Path, bounds: Sequence[Path], store: Path, source: Path | None,
                 parallel: tuple[str, str | None, int], quiet: bool, also: Sequence[GameConfig] = ()
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The sorted stage-A keys a variant bounded by ``bounds`` must walk, with those the variants ``also`` (of
    the same walk, other step-11 payouts) need, and those a solve of other fa-hu bets among them gives the
    variant exactly (:func:`solver.staged.bounds.needed_keys`). Those a bounded sibling ``source`` (the same
    bounds) walked for it (:func:`_walked_for`: of its holds fingerprint, other deal payouts alone, or one whose
    rows its walk took in), when no such solve is among the bounds: those rows, not found again. Bounded
    variants beside it tighten the bounds on the rows they walked (:func:`solver.staged.bounds.find_refiners`).
    A store without every hold's columns or stage B's rows is filled first (:func:`_fill_store`, on the
    ``parallel`` backend, scheduler and processes)."""
    if source is not None and config.holds_fingerprint() in _walked_for(source) \
            and _bets_bound(bounds, config)[0] is None:
        return as_array(pq.read_table(source / "holds.parquet", columns=["key"])["key"]), np.empty(0, np.int64)
    rows = stored_rows(store, "draws")
    if rows is None or not columns_stored(store, group_classes(config.geometry, 4)):
        with _backend(*parallel):
            rows = _fill_store(SolveJob(config, Objective(), directory, store), bounds[0], quiet)
    for bound in bounds:  # the lower bounds of its strategy at a variant's payouts, once per bounding solve
        solved = bounding_stage_a(bound, config)
        if solved is not None and tangent_helps(solved, config) \
                and read_best_rows(best_rows_path(store, solved)) is None:
            with _backend(*parallel):
                count_best_rows(SolveJob(solved, Objective(), directory, store), bound, rows["holds"],
                                rows["rows"], quiet)
    refiners = find_refiners(config, directory.parent, bounds, exclude=directory)
    if refiners and not quiet:
        print(f"tightening the bounds on the rows walked by {', '.join(str(r) for r in refiners)}", file=sys.stderr)
    keys, exact = needed_keys(config, bounds, rows["holds"], rows["rows"], store, refiners)
    for other in also:  # variants of other step-11 payouts that will price this walk: their rows too
        keys = np.union1d(keys, needed_keys(other, bounds, rows["holds"], rows["rows"], store, refiners)[0])
    return keys, exact


def _fill_store(solve: SolveJob, whole: Path, quiet: bool) -> dict[str, np.ndarray]:
    """Every hold's payout-free columns, and stage B's rows (without its values: the rows depend on the deck
    alone) where a solve of the deck has not kept them, into the column store: what bounding a variant reads,
    when the solve that bounds it (``whole``, whose stage A's keys are every row's, walked or bound below
    folding) was made without the store. Returns the rows."""
    geometry = solve.config.geometry
    if bounding_stage_a(whole, solve.config) is None:  # its keys would not be every row's: rows into them stored
        raise not_bounding(whole)
    rows = stored_rows(solve.column_store, "draws")
    if not quiet:
        print(f"filling the column store {solve.column_store} (once for this deck): every hold's columns"
              + ("" if rows is not None else ", stage B's rows"), file=sys.stderr)
    run_stage(solve, "store", group_classes(geometry, 4), _store_work, (), quiet)
    if rows is not None:
        return rows
    if not stage_arrays_ready(solve.directory, "every", ("key",)):
        save_stage_arrays(solve.directory, "every", {"key": as_array(pq.read_table(whole / "holds.parquet",
                                                                                   columns=["key"])["key"])})
    paths = run_stage(solve, "rows", group_classes(geometry, 6), _rows_work, (), quiet, tag=ROWS_TAG,
                      arrays=("rows",))
    arrays = read_chunks(paths, ["key", "level", "holds"])
    _store_rows(solve, "draws", paths, arrays)
    kept = stored_rows(solve.column_store, "draws")
    if kept is None:  # a store that cannot be written: the rows from the chunks
        kept = {**arrays, "rows": np.concatenate([np.load(chunk_array_path(path, "rows")) for path in paths])}
    return kept


def _store_work(solve: SolveJob, holds: np.ndarray) -> pa.Table:
    """Build and store the payout-free columns of a chunk of hold classes, where the store lacks them."""
    constants = TingConstants.of(solve.config)
    for hold in holds:
        if not columns_stored(solve.column_store, hold[None]):
            stored_columns(tuple(int(c) for c in hold), solve.config, constants, solve.column_store, free=True)
    return pa.table({"hold": pa.array([], pa.int64())})


def _rows_work(solve: SolveJob, hands: np.ndarray) -> pa.Table:
    """Stage B's rows of the post-draw classes of a chunk of canonical six-card hands, over every stage-A key
    (:func:`_fill_store` saved them)."""
    a_keys = load_stage_arrays(solve.directory, "every", ("key",))["key"]
    keys, level, n_holds, rows = _draw_rows(solve.config.geometry, hands, a_keys)
    return pa.table({"key": keys, "level": level, "holds": n_holds, "rows": list_column(rows)})


def bounded_share(config: GameConfig, directory: Path, bounds: Sequence[Path], column_store: bool | Path = True,
                  n_jobs: int = -1, backend: str = "loky", scheduler: str | None = None, quiet: bool = True,
                  also: Sequence[GameConfig] = ()) -> float | None:
    """Prepare a variant's directory and find the stage-A rows that ``bounds`` leave it to walk, with those
    the variants ``also`` (other step-11 payouts, to price its walk) need (saved in its chunks, where its
    solve with the same bounds reads them): their share of stage A's rows, or None when there is no column
    store to bound with (nothing saved). Filling the store, when it lacks stage B's rows,
    runs on ``n_jobs`` processes of ``backend``, with progress bars unless ``quiet``."""
    directory = usable_directory(Path(directory)).absolute()
    store = _store(config, column_store)
    with solve_lock(directory):
        prepare_directory(directory, config, Objective(), {"holds_from": None}, False)
        if not _bounded(config, directory, bounds, store, (backend, scheduler, n_jobs), quiet, also=also):
            return None
    chunks = directory / "chunks"
    return len(np.load(chunks / "holds-needed.npy", mmap_mode="r")) / int(np.load(chunks / "holds-total.npy")[0])


def forget_bounds(directory: Path) -> None:
    """Drop the rows :func:`bounded_share` saved: the variant's solve then walks stage A whole."""
    for name in ("holds-needed.json", "holds-needed.npy", "holds-exact.npy", "holds-total.npy", WALKED_FOR):
        (Path(directory) / "chunks" / name).unlink(missing_ok=True)


def walk_together(configs: list[GameConfig], directories: list[Path], *, n_jobs: int = -1, backend: str = "loky",
                  scheduler: str | None = None, quiet: bool = False, column_store: bool | Path = False,
                  progress: Callable[[str], None] | None = None, unbound: Sequence[Path] = ()) -> None:
    """Walk stage A of several paytable variants at once: each leaf's weights, W and Wf are computed once
    and priced for every variant (:func:`solver.staged.holds.walk_variants`). Each directory is left its
    stage A's chunk files, the same as its own solve writes; :func:`solve` into it then finds stage A
    done, merges it and goes on. The variants must differ only in payouts (one deck, the same columns),
    have as many fa-hu bets, and each keep the walk's sums exact (:func:`solver.staged.holds.sums_exact`),
    so that each one's values are bit for bit its own walk's. Those already past stage A, or made to read
    another's, are left out; ``progress`` hears how many are walked. Those of ``unbound`` that are walked
    forget the rows :func:`bounded_share` found them (their solves then take stage A as walked)."""
    configs, directories = _still_walking(configs, directories)
    if len(configs) < 2:
        return
    forgotten = {usable_directory(Path(d)).absolute() for d in unbound}
    for directory in directories:
        if directory in forgotten:
            forget_bounds(directory)
    lead = configs[0]
    if any(c.columns_fingerprint() != lead.columns_fingerprint() or len(c.fa_hu_bets) != len(lead.fa_hu_bets)
           or not sums_exact(TingConstants.of(c), c.geometry) for c in configs):
        raise InputError("variants walked together need the same deck, as many fa-hu bets, and sums the "
                         "walk keeps exact (payouts in quarters)")
    if progress:
        progress(f"stage A of {len(configs)} variants, walked together")
    store = _store(lead, column_store)
    with ExitStack() as locks:
        solves = []
        for config, directory in zip(configs, directories):
            locks.enter_context(solve_lock(directory))
            prepare_directory(directory, config, Objective(), {"holds_from": None}, False)
            solves.append(SolveJob(config, Objective(), directory, store))
        with _backend(backend, scheduler, n_jobs):
            run_stage(solves, "holds", group_classes(lead.geometry, 4), _holds_work, (), quiet, tag=_holds_tag(""))


def _still_walking(configs: list[GameConfig], directories: list[Path]) -> tuple[list[GameConfig], list[Path]]:
    """Of the variants given, those whose directory still needs its own stage A walked: not finished, not
    made to read another's stage A, and without its own yet (made and made absolute)."""
    kept: tuple[list[GameConfig], list[Path]] = ([], [])
    for config, directory in zip(configs, directories):
        directory = usable_directory(Path(directory)).absolute()
        if (directory / "summary.parquet").exists() or recorded_source(directory)[1] is not None \
                or (directory / "holds.parquet").exists() or stage_arrays_ready(directory, "holds", ("key", "values")):
            continue
        kept[0].append(config)
        kept[1].append(directory)
    return kept


def _solve(solve: SolveJob, source: Path | None, start: float, n_jobs: int, backend: str, scheduler: str | None,
           quiet: bool) -> Summary:
    """The stages, the forward count and the tables, into a prepared and locked directory."""
    directory = solve.directory
    if not quiet:
        print(f"solving into {directory}", file=sys.stderr)
    timings: dict[str, float] = {}
    with _backend(backend, scheduler, n_jobs):
        with _timed(timings, "holds", quiet):
            writing = _stage_holds(solve, source, quiet)
        try:
            with _timed(timings, "draws", quiet):
                _stage_draws(solve, quiet)
            with _timed(timings, "firsts", quiet):
                _stage_firsts(solve, quiet)
            with _timed(timings, "deals", quiet):
                deals = _deal_choices(solve)
            with _timed(timings, "outcomes", quiet):
                counts, bonus_net, n_draws, declined = _forward(solve, deals, source, quiet)
        finally:
            if writing is not None:
                writing.result()  # holds.parquet, before the summary marks the solve finished (or the error)
    summary = _finish(solve, deals, counts, bonus_net, n_draws, declined, time.monotonic() - start, timings)
    _drop_chunks(directory)
    return summary


def _complete(directory: Path, holds_from: Path | None, quiet: bool, bounded_ok: bool = False) -> bool:
    """Whether ``directory`` holds a finished solve's every table. A table file that cannot be read (cut
    short, overwritten) is deleted, to be made again. The committed tables of the real deck lack the
    large ones (``holds.parquet``, ``draws.parquet``): a solve into their directory makes them. A bounded
    variant's partial ``holds.parquet`` counts only for a solve given bounds (``bounded_ok``); any other
    makes stage A whole."""
    import pyarrow as pa

    for name in TABLE_FILES:
        path = directory / name
        if path.exists():
            try:
                read_metadata(path)
            except (OSError, pa.ArrowException, ValueError, InputError):
                if not quiet:
                    print(f"{path} cannot be read: made again", file=sys.stderr)
                path.unlink()
                (directory / "summary.parquet").unlink(missing_ok=True)  # a summary over a damaged table is not final
    needed = [n for n in TABLE_FILES if not (n == "holds.parquet" and holds_from is not None)]
    return all((directory / name).exists() for name in needed) and (bounded_ok or not bounded_stage_a(directory))


def _check_holds_source(source: Path, config: GameConfig, objective: Objective,
                        bounds: Sequence[Path] | None = None) -> None:
    """Refuse a ``holds_from`` directory whose stage A was made for another configuration or bonus bet, or
    is bounded (holds only the rows a variant needed), unless this solve is bounded alike (the same
    ``bounds``): a variant of other deal payouts needs those very rows, and one of other step-11 payouts
    prices them, where its walk took this one's rows in (:func:`_stage_holds` checks that it finds each)."""
    try:
        found = read_metadata(source / "holds.parquet")
    except (OSError, ValueError, InputError) as error:
        raise InputError(f"no stage A to read in {source}: {error}") from None
    if found.get("bounded_by") and not (
            bounds is not None and objective == Objective()
            and found["bounded_by"] == describe_bounds([Path(b).absolute() for b in bounds])):
        raise InputError(f"the holds table in {source} is bounded: it holds only the rows a variant bounded by "
                         f"other solves needed, so only a variant bounded alike can read it as its stage A")
    if "ting_wins" not in pq.read_schema(source / "holds.parquet").names:
        raise InputError(f"the holds table in {source} predates the ting wins a stage A keeps: solve it again")
    wanted = describe(config, Objective(objective.bonus))
    same_rows = found.get("fingerprint") == wanted["fingerprint"] or \
        _recorded_fingerprint(found, GameConfig.holds_fingerprint) == config.holds_fingerprint()
    if found.get(BOUND_BELOW_FOLDING) and (objective.chart is not None or not same_rows):
        raise InputError(f"the holds table in {source} leaves out the rows that cannot beat folding, which this "
                         f"solve reads: make it whole first (mahjong-poker solve --whole --out {source})")
    differing = sorted(k for k in ("format", "version", "bonus") if found.get(k) != wanted[k])
    if found.get("fingerprint") != wanted["fingerprint"] and (
            _recorded_fingerprint(found, GameConfig.ting_fingerprint) != config.ting_fingerprint()
            # with a bonus bet in every gain, the largest multiple no longer moves them by F dm Z+
            or objective.bonus and _recorded_fingerprint(found, lambda c: max(c.ting_hu_multiples)) !=
            max(config.ting_hu_multiples)):
        differing.append("fingerprint")
    if differing:
        raise InputError(f"the holds table in {source} was made for another solve: {', '.join(differing)} differ")


def _recorded_fingerprint(metadata: dict[str, Any], fingerprint: Callable[[GameConfig], str]) -> str | None:
    """``fingerprint`` (for example :meth:`GameConfig.holds_fingerprint`) of the configuration a table's
    metadata records (None if unreadable)."""
    try:
        config = config_from_dict(tomllib.loads(metadata["config"]))
    except (KeyError, TypeError, tomllib.TOMLDecodeError, ConfigError):
        return None
    return fingerprint(config)


@contextmanager
def _timed(timings: dict[str, float], stage: str, quiet: bool) -> Iterator[None]:
    """Time a stage of this run (a resumed run times only what it does), and say so on standard error."""
    start = time.monotonic()
    yield
    timings[stage] = time.monotonic() - start
    if not quiet:
        print(f"{STAGE_NAMES.get(stage, stage)}: {timings[stage]:.1f} s", file=sys.stderr)


def _finish(solve: SolveJob, deals: list[DealChoice], counts: Counter, bonus_net: Counter, n_draws: int,
            declined: int, seconds: float, timings: dict[str, float]) -> Summary:
    """Write the outcomes and the summary, after the deal and draw tables (the summary last: its presence
    marks a finished solve); ``n_draws``: the draw table's rows."""
    config, objective, directory = solve.config, solve.objective, solve.directory
    geometry = config.geometry
    metadata = file_metadata(config, objective)
    size = geometry.size
    ev_sum = 0.0
    for deal in deals:  # class order: any chunking
        ev_sum += deal.weight * sum(deal.options[i].ev for i in deal.chosen) / len(deal.chosen)
    declined_deals = sum(d.weight for d in deals if d.level and d.options[d.chosen[0]].action != "claim")
    fields = {
        "tian_hu_declined": Fraction(declined_deals, comb(size, 6)),
        "di_hu_declined": Fraction(declined, comb(size, 6) * comb(size - 6, 2) * objective.mix_unit),
    }
    summary = summarise(config, objective, counts, bonus_net, ev_sum, len(deals), n_draws, seconds,
                        directory=str(directory), **fields)
    write_summary(directory, summary, metadata, {"stage_seconds": timings})
    return summary


def _drop_chunks(directory: Path) -> None:
    """Remove the chunk files and working arrays of a finished solve."""
    chunks = directory / "chunks"
    if chunks.exists():
        for path in chunks.iterdir():
            path.unlink()
        chunks.rmdir()


class _backend:
    """joblib's parallel configuration, with a Dask client connected for the ``dask`` backend."""

    def __init__(self, backend: str, scheduler: str | None, n_jobs: int) -> None:
        self.backend, self.scheduler, self.n_jobs = backend, scheduler, n_jobs
        self.client = None
        self.config = None

    def __enter__(self) -> None:
        mark_parent()
        if self.backend == "dask":
            try:
                from distributed import Client
            except ImportError:
                raise InputError("--backend dask needs Dask: pip install 'mahjong-poker[dask]'") from None
            try:
                self.client = Client(self.scheduler) if self.scheduler else Client(processes=False)
            except (ValueError, OSError, TimeoutError) as error:
                raise InputError(f"--scheduler {self.scheduler}: no Dask scheduler to connect to ({error})") from None
        # loky's workers are kept through the whole solve: they would otherwise time out while the parent
        # merges a stage (minutes on the real deck), and each fresh one maps the arrays and tables again
        # (and arguments are small: no memory-mapped copies in /dev/shm to leave behind when killed)
        params = {"idle_worker_timeout": 3600, "max_nbytes": None} if self.backend == "loky" else {}
        self.config = parallel_config(backend=self.backend, n_jobs=self.n_jobs, **params)
        self.config.__enter__()

    def __exit__(self, *exc: object) -> None:
        assert self.config is not None
        self.config.__exit__(*exc)
        if self.client is not None:
            self.client.close()
