"""The forward count's tracking walk: the outcome counts of every (hold, dead, F) the strategy reaches.

The forward count (:func:`solver.staged.forward.outcome_counts`) asks for the :data:`TRACK_COLUMNS` of
each distinct (hold, dead set, fa-hu bet, smallest ting multiple only) it reaches: the hold walk of
stage A in tracking mode (:func:`solver.staged.holds.walk`), over the requested dead sets of each hold,
in chunks of holds (:func:`tracked`).

Several variants of one deck (a paytable's) each ask for their own, of holds that are mostly the same,
and each hold's columns cost more to read (or build) than its walk. So a variant's solve can stop where
its walk would start, its requests saved (:attr:`solver.staged.chunks.SolveJob.stop_for_tracking`), and
:func:`track_together` walks the requests of several at once: each hold's payout-free columns read once,
and its bonus net's columns built once, for all of them. Each variant then walks its own communities
(:func:`solver.staged.holds.taken_columns`: the same arrays as its own solve builds), so its counts are
bit for bit its own walk's; they are saved in its directory, where its solve, run again, reads them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from solver.errors import InputError
from solver.staged.chunks import (
    SolveJob,
    as_array,
    chunk_path,
    list_column,
    load_stage_arrays,
    read_chunks,
    run_stage,
    save_stage_arrays,
    stage_arrays_ready,
)
from solver.staged.forward import decode_rows
from solver.staged.holds import (
    TRACK_COLUMNS,
    HoldColumns,
    TingConstants,
    live_mask,
    taken_columns,
    walk,
    with_bonus_columns,
)
from solver.tables.files import file_metadata, read_metadata, write_table

TRACKING_FILE = "tracking.parquet"
"""The outcome counts of every (hold, dead, F) a solve's strategy reaches: a later solve of the same walk
(``holds_from``: a restriction, a chart, a paytable variant) reads the ones it reaches too."""
#: The arrays in ``chunks/`` of the requests a solve stopped at (or walked), and of the counts walked for
#: them together with other variants' (:func:`track_together`).
REQUESTS, TRACKED = ("requests", ("key", "bet", "minimum")), ("tracked", ("index", "sums"))


class TrackingRequested(Exception):
    """A solve made to stop for its tracking walk (:attr:`SolveJob.stop_for_tracking`) got there: its
    requests are saved in its ``chunks/`` folder."""


def tracked(solve: SolveJob, source: Path | None, quiet: bool
            ) -> Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]:
    """The tracking walk over requested (key, bet, minimum) triples (sorted, distinct), by chunks of holds;
    the triples ``source``'s tracking table holds, or that were walked together with other variants
    (:func:`track_together`), are read instead. All of them are written to this solve's tracking table.
    A solve made to stop for its walk raises :class:`TrackingRequested` instead of walking."""
    def run(keys: np.ndarray, bets: np.ndarray, minimum: np.ndarray) -> np.ndarray:
        sums = np.empty((len(keys), len(TRACK_COLUMNS)))
        wanted = tracking_index(keys, bets, minimum, solve.n_bets)
        todo = np.ones(len(keys), bool)
        for known in (_known_tracking(source, solve.n_bets) if source is not None else None,
                      _walked_together(solve.directory)):
            if known is not None and len(known[0]):
                at = np.minimum(np.searchsorted(known[0], wanted), len(known[0]) - 1)
                found = todo & (known[0][at] == wanted)
                sums[found] = known[1][at[found]]
                todo &= ~found
        if todo.any():
            keys_, bets_, minimum_ = keys[todo], bets[todo], minimum[todo]
            save_stage_arrays(solve.directory, REQUESTS[0], dict(zip(REQUESTS[1], (keys_, bets_, minimum_))))
            if solve.stop_for_tracking:
                raise TrackingRequested(str(solve.directory))
            hold_keys = np.unique(keys_ // solve.config.geometry.n_types ** 4)
            paths = run_stage(solve, "tracking", hold_keys, _tracking_work, (), quiet,
                              tag=_digest(keys_, bets_, minimum_))
            sums[todo] = read_chunks(paths, ["sums"])["sums"]
        write_table(solve.directory / TRACKING_FILE,
                    pa.table({"key": keys, "bet": bets.astype(np.int8), "minimum": minimum,
                              "sums": list_column(sums)}),
                    file_metadata(solve.config, solve.objective))
        return sums
    return run


def _tracking_work(solve: SolveJob, hold_keys: np.ndarray) -> pa.Table:
    """The tracking walk for the requested (hold, dead, bet) classes of a chunk of holds."""
    config = solve.config
    geometry = config.geometry
    requests = load_stage_arrays(solve.directory, *REQUESTS)
    constants = TingConstants.of(config, solve.objective.bonus)
    div = geometry.n_types ** 4
    parts = []
    for hold_key in hold_keys:
        lo, hi = np.searchsorted(requests["key"], [hold_key * div, (hold_key + 1) * div])
        (hold,), = decode_rows(np.array([hold_key]), geometry.n_types, (4,))
        columns = solve.columns(hold, constants, bonus_sums=True)
        parts.append(_walk_requests(columns, hold_key, requests, lo, hi, solve, constants))
    return pa.table({"sums": list_column(np.concatenate(parts))})


def _walk_requests(columns: HoldColumns, hold_key: int, requests: dict[str, np.ndarray], lo: int, hi: int,
                   solve: SolveJob, constants: TingConstants) -> np.ndarray:
    """The tracking walk of one hold (its ``columns``) over the requests ``lo:hi`` (its own)."""
    geometry = solve.config.geometry
    (dead,) = decode_rows(np.asarray(requests["key"][lo:hi]) % geometry.n_types ** 4, geometry.n_types, (4,))
    return walk(columns, dead, solve.config, constants, np.asarray(requests["bet"][lo:hi]),
                np.asarray(requests["minimum"][lo:hi]))


def tracking_index(keys: np.ndarray, bets: np.ndarray, minimum: np.ndarray, n_bets: int) -> np.ndarray:
    """One sortable number per (key, bet, minimum) triple, in the triples' order."""
    return (keys * n_bets + bets) * 2 + minimum


def _digest(keys: np.ndarray, bets: np.ndarray, minimum: np.ndarray) -> str:
    """A short name of a set of requests, for the chunks walked for them (another set's are redone)."""
    return f"{len(keys)}:{int(np.bitwise_xor.reduce(keys * 31 + bets * 7 + minimum))}"


def _known_tracking(source: Path, n_bets: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The triples (as :func:`tracking_index`) and outcome counts of ``source``'s tracking table, when it
    has a row (the same walk: :func:`solver.staged.run.solve` checked its stage A)."""
    path = source / TRACKING_FILE
    try:
        read_metadata(path)
    except InputError:
        return None
    table = pq.read_table(path)
    if not len(table):
        return None
    index = tracking_index(as_array(table["key"]), as_array(table["bet"]).astype(np.int64),
                           as_array(table["minimum"]).astype(np.int64), n_bets)
    return index, as_array(table["sums"])


def _walked_together(directory: Path) -> tuple[np.ndarray, np.ndarray] | None:
    """The triples (as :func:`tracking_index`, increasing) and outcome counts :func:`track_together` left in
    ``directory``, when it did."""
    if not stage_arrays_ready(directory, *TRACKED):
        return None
    index, sums = (np.load(directory / "chunks" / f"{TRACKED[0]}-{name}.npy") for name in TRACKED[1])
    return index, sums


# ---------------------------------------------------------------------------------------------
# Several variants' walks at once.


def stopped_for_tracking(directory: Path) -> bool:
    """Whether a solve into ``directory`` stopped for its tracking walk, and no counts are there for it yet."""
    return stage_arrays_ready(directory, *REQUESTS) and not stage_arrays_ready(directory, *TRACKED)


def track_together(solves: list[SolveJob], quiet: bool) -> None:
    """The tracking walks of several solves of one deck that stopped for them (:func:`stopped_for_tracking`),
    by chunks of the holds any of them requests: each hold's payout-free columns read (or built) once, and
    the bonus net's columns of the communities any of them keeps. Each solve is left the counts of its
    requests in ``chunks/`` (:data:`TRACKED`), which its solve, run again, reads."""
    requests = [{name: np.load(s.directory / "chunks" / f"{REQUESTS[0]}-{name}.npy") for name in REQUESTS[1]}
                for s in solves]
    div = solves[0].config.geometry.n_types ** 4
    hold_keys = np.unique(np.concatenate([r["key"] // div for r in requests]))
    tag = ";".join(_digest(*(r[name] for name in REQUESTS[1])) for r in requests)
    n_chunks = len(run_stage(solves, "tracking_together", hold_keys, _together_work, (), quiet, tag=tag))
    for solve, r in zip(solves, requests):
        paths = [chunk_path(solve.directory, "tracking_together", i) for i in range(n_chunks)]
        save_stage_arrays(solve.directory, TRACKED[0], {
            "index": tracking_index(r["key"], r["bet"], r["minimum"], solve.n_bets),
            "sums": read_chunks(paths, ["sums"])["sums"]})


def _together_work(solves: list[SolveJob], hold_keys: np.ndarray) -> list[pa.Table]:
    """:func:`track_together`'s walks for a chunk of holds: a table of counts for each solve, its requests of
    those holds in order."""
    config = solves[0].config
    geometry = config.geometry
    requests = [{name: np.load(s.directory / "chunks" / f"{REQUESTS[0]}-{name}.npy", mmap_mode="r")
                 for name in REQUESTS[1]} for s in solves]
    constants = [TingConstants.of(s.config, s.objective.bonus) for s in solves]
    div = geometry.n_types ** 4
    parts: list[list[np.ndarray]] = [[np.empty((0, len(TRACK_COLUMNS)))] for _ in solves]
    for hold_key in hold_keys:
        spans = [np.searchsorted(r["key"], [hold_key * div, (hold_key + 1) * div]) for r in requests]
        wanting = [k for k, (lo, hi) in enumerate(spans) if hi > lo]
        (hold,), = decode_rows(np.array([hold_key]), geometry.n_types, (4,))
        free = solves[0].free_columns(hold, constants[0])
        union = taken_columns(free, np.flatnonzero(live_mask(free, *(constants[k] for k in wanting))))
        union = with_bonus_columns(union, config)
        for k in wanting:
            live = live_mask(union, constants[k])
            own = union if live.all() else taken_columns(union, np.flatnonzero(live))
            parts[k].append(_walk_requests(own, hold_key, requests[k], *spans[k], solves[k], constants[k]))
    return [pa.table({"sums": list_column(np.concatenate(p))}) for p in parts]
