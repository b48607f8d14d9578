"""The forward count's tracking walk: the outcome counts of every (hold, dead, F) the strategy reaches.

The forward count (:func:`solver.staged.forward.outcome_counts`) asks for the :data:`TRACK_COLUMNS` of
each distinct (hold, dead set, fa-hu bet, smallest ting multiple only) it reaches: the hold walk of
stage A in tracking mode (:func:`solver.staged.holds.walk`) over the requested dead sets of each hold,
with the bonus net's columns added to the hold's, in chunks of holds (:func:`tracked`). A solve of the
same walk (``holds_from``) reads the counts its source already has. The same walk, without the bonus net,
counts the outcomes of a whole solve's best rows for the lower bounds of a variant near it
(:func:`count_best_rows`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from solver.errors import InputError
from solver.game.config import GameConfig
from solver.game.objective import Objective
from solver.game.payouts import TingConstants
from solver.staged.chunks import (
    SolveJob,
    as_array,
    list_column,
    load_stage_arrays,
    read_chunks,
    run_stage,
    save_stage_arrays,
)
from solver.staged.forward import decode_rows
from solver.staged.holds import TRACK_COLUMNS, walk
from solver.tables.files import describe, file_metadata, read_metadata, write_table

TRACKING_FILE = "tracking.parquet"
"""The outcome counts of every (hold, dead, F) a solve's strategy reaches: a later solve of the same walk
(``holds_from``: a restriction, a chart, a paytable variant) reads the ones it reaches too."""


def tracked(solve: SolveJob, source: Path | None, quiet: bool, source_bets: Sequence[float] | None = None
            ) -> Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]:
    """The tracking walk over requested (key, bet, minimum) triples (sorted, distinct), by chunks of holds;
    the triples ``source``'s tracking table holds are read from it instead (``source_bets``: its fa-hu bets,
    where they differ from this solve's, the same walk otherwise: its rows of the bets both have). All of
    them are written to this solve's tracking table."""
    def run(keys: np.ndarray, bets: np.ndarray, minimum: np.ndarray) -> np.ndarray:
        sums = _known_or_walked(solve, source, source_bets, "tracking", keys, bets, minimum, True, quiet)
        write_table(solve.directory / TRACKING_FILE,
                    pa.table({"key": keys, "bet": bets.astype(np.int8), "minimum": minimum,
                              "sums": list_column(sums)}),
                    file_metadata(solve.config, solve.objective))
        return sums
    return run


def count_best_rows(solve: SolveJob, whole: Path, holds: np.ndarray, rows: np.ndarray, quiet: bool) -> None:
    """Count the outcomes (bonus aside) of each post-draw state's best stage-A row at its best bet in the whole
    solve in ``whole`` (``solve``: of its configuration, into the column store, its chunks in its directory),
    and keep them in the store (:func:`solver.staged.bounds.best_rows_path`): what its strategy is worth at a
    variant's payouts. ``holds``, ``rows``: each post-draw state's number of holds and stage-A rows. The rows
    its strategy reaches, which its own forward count tracked, are read from its tracking table (about 1.5
    million of 3.5 on the real deck), where that table is of ``solve``'s configuration."""
    from solver.runtime.diskcache import save_arrays
    from solver.staged.bounds import COUNTED, best_rows, best_rows_path

    if not quiet:
        print(f"counting the outcomes of {whole}'s best rows (once for that solve)", file=sys.stderr)
    keys, bets = best_rows(whole, holds, rows)
    source = whole if _tracked_for(whole, solve.config) else None
    counts = _known_or_walked(solve, source, None, "best", keys, bets, np.zeros(len(keys), bool), False,
                              quiet)[:, :COUNTED]
    save_arrays(best_rows_path(solve.column_store, solve.config), {"key": keys, "bet": bets, "counts": counts})


def _known_or_walked(solve: SolveJob, source: Path | None, source_bets: Sequence[float] | None, stage: str,
                     keys: np.ndarray, bets: np.ndarray, minimum: np.ndarray, bonus: bool, quiet: bool) -> np.ndarray:
    """The :data:`TRACK_COLUMNS` of the requested (key, bet, minimum) triples (sorted, distinct): those
    ``source``'s tracking table holds read from it (:func:`_known_tracking`), the others walked (the chunks of
    ``stage``, with the bonus net's sums or without: :func:`_walked_requests`)."""
    sums = np.empty((len(keys), len(TRACK_COLUMNS)))
    known = _known_tracking(source, solve.config.fa_hu_bets, source_bets) if source is not None else None
    todo = np.ones(len(keys), bool)
    if known is not None:
        wanted = _tracking_index(keys, bets, minimum, solve.n_bets)
        at = np.minimum(np.searchsorted(known[0], wanted), len(known[0]) - 1)
        found = known[0][at] == wanted
        sums[found] = known[1][at[found]]
        todo = ~found
    if todo.any():
        sums[todo] = _walked_requests(solve, stage, keys[todo], bets[todo], minimum[todo], bonus, quiet)
    return sums


def _tracked_for(directory: Path, config: GameConfig) -> bool:
    """Whether ``directory``'s tracking table was made by the optimal solve of ``config`` (this version): its
    counts are then those the walk of ``config`` gives, the bonus net's sums aside."""
    try:
        found = read_metadata(directory / TRACKING_FILE)
    except InputError:
        return False
    return all(found.get(key) == value for key, value in describe(config, Objective()).items())


def _walked_requests(solve: SolveJob, stage: str, keys: np.ndarray, bets: np.ndarray, minimum: np.ndarray,
                     bonus: bool, quiet: bool) -> np.ndarray:
    """The :data:`TRACK_COLUMNS` of the requested (key, bet, minimum) triples (sorted, distinct), from the
    tracking walk in chunks of holds (the chunks of ``stage``), with the bonus net's sums or without (0)."""
    save_stage_arrays(solve.directory, f"{stage}-requests", {"key": keys, "bet": bets, "minimum": minimum})
    digest = f"{len(keys)}:{int(np.bitwise_xor.reduce(keys * 31 + bets * 7 + minimum))}"
    hold_keys = np.unique(keys // solve.config.geometry.n_types ** 4)
    paths = run_stage(solve, stage, hold_keys, _tracking_work, (f"{stage}-requests", bonus), quiet, tag=digest)
    return read_chunks(paths, ["sums"])["sums"]


def _tracking_work(solve: SolveJob, hold_keys: np.ndarray, requests: str, bonus: bool) -> pa.Table:
    """The tracking walk for the requested (hold, dead, bet) classes of a chunk of holds (the stage arrays
    ``requests``), with the bonus net's sums or without (0)."""
    config = solve.config
    geometry = config.geometry
    requests = load_stage_arrays(solve.directory, requests, ("key", "bet", "minimum"))
    constants = TingConstants.of(config, solve.objective.bonus)
    div = geometry.n_types ** 4
    parts = []
    for hold_key in hold_keys:
        lo, hi = np.searchsorted(requests["key"], [hold_key * div, (hold_key + 1) * div])
        (hold,), = decode_rows(np.array([hold_key]), geometry.n_types, (4,))
        (dead,) = decode_rows(np.asarray(requests["key"][lo:hi]) % div, geometry.n_types, (4,))
        columns = solve.columns(hold, constants, bonus_sums=bonus)
        parts.append(walk(columns, dead, config, constants, np.asarray(requests["bet"][lo:hi]),
                          np.asarray(requests["minimum"][lo:hi])))
    return pa.table({"sums": list_column(np.concatenate(parts))})


def _tracking_index(keys: np.ndarray, bets: np.ndarray, minimum: np.ndarray, n_bets: int) -> np.ndarray:
    """One sortable number per (key, bet, minimum) triple, in the triples' order."""
    return (keys * n_bets + bets) * 2 + minimum


def _known_tracking(source: Path, bets: Sequence[float], source_bets: Sequence[float] | None = None
                    ) -> tuple[np.ndarray, np.ndarray] | None:
    """The triples (as :func:`_tracking_index`, for fa-hu ``bets``) and outcome counts of ``source``'s
    tracking table, when it has a row (the same walk: :func:`solver.staged.run.solve` checked its stage A;
    or one of other fa-hu bets ``source_bets``, whose rows of a bet both have are the same counts)."""
    path = source / TRACKING_FILE
    try:
        read_metadata(path)
    except InputError:
        return None
    table = pq.read_table(path)
    bet = as_array(table["bet"]).astype(np.int64)
    if source_bets is not None:  # renumbered, increasing as both lists are: the index stays sorted
        renumber = np.array([bets.index(f) if f in bets else -1 for f in source_bets])
        bet = renumber[bet]
        table = table.filter(pa.array(bet >= 0))
        bet = bet[bet >= 0]
    if not len(table):
        return None
    index = _tracking_index(as_array(table["key"]), bet, as_array(table["minimum"]).astype(np.int64), len(bets))
    return index, as_array(table["sums"])
