"""A solve's chunks: the work of a stage cut into chunks, run in parallel, written one file each, merged.

Stages A, B, C and the tracking walk are cut into chunks of items (hold classes, six-card hands, first
holds), solved in parallel under the current joblib configuration (any backend, Dask included) and
written one parquet file per chunk as they finish (temporary name, then rename), so that a killed solve
resumes where it stopped: a chunk file records what it was made from, and one made from something else
is made again. A stage's chunks are merged in chunk order into arrays the next stage reads
(memory-mapped ``.npy`` files in ``chunks/``), so the tables do not depend on the number of jobs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from joblib import Parallel, delayed

from solver.errors import InputError
from solver.game.cards import counts_of
from solver.game.config import GameConfig
from solver.game.objective import Objective
from solver.game.payouts import TingConstants
from solver.runtime.files import written_atomically
from solver.runtime.parallel import watch_parent, work_processes
from solver.staged.column_store import store_folder, stored_columns
from solver.staged.holds import HoldColumns, hold_columns, live_columns
from solver.tables.files import describe, file_metadata, read_metadata, write_table

#: Items per chunk of each stage: holds (A, the tracking walk), six-card hands (B), first holds (C). Small
#: enough that an interruption loses little and the progress bar moves, large enough that the per-chunk cost
#: (dispatch, one file) does not matter.
CHUNK_ITEMS = {"holds": 4, "draws": 256, "firsts": 16, "tracking": 8, "store": 8, "rows": 256, "best": 8, "whole": 8}
STAGE_NAMES = {"holds": "stage A (holds)", "draws": "stage B (draws)", "firsts": "stage C (first holds)",
               "deals": "stage D (deals)", "tracking": "outcome counts", "outcomes": "forward count",
               "store": "column store (holds)", "rows": "column store (stage B's rows)",
               "best": "the bounding solve's best rows", "whole": "stage A's rows below folding"}


@dataclass(frozen=True)
class SolveJob:
    """What every chunk of one solve needs (sent to the workers)."""

    config: GameConfig
    objective: Objective
    directory: Path
    column_store: Path | None = None
    """The folder of stage A's payout-free columns, when the solve reads them from a store
    (:mod:`solver.staged.column_store`)."""
    bounds: str = ""
    """For a variant bounded by solves of other ting payouts or fa-hu bets (:mod:`solver.staged.bounds`): those, as
    recorded; stage A then walks only the keys saved in ``chunks/holds-needed.npy``."""
    above_fold: bool = False
    """Stage A leaves out the rows that cannot beat folding: an upper bound puts their every bet below it
    (:func:`solver.staged.holds.walk_above`). That bound stands in for their values (``bound`` in
    ``holds.parquet``), which no later stage of the solve reads: each state's best beats folding or is
    folding. ``completes``: stage A walks only those rows of the stage A there (its keys saved in
    ``chunks/holds-bound.npy``), to make it whole."""
    completes: bool = False
    keeps_rows: bool = False
    """Without a column store, keep stages B and C's rows in the cache folder's store of the deck all the same
    (:attr:`rows_store`)."""

    def columns(self, hold: np.ndarray, constants: TingConstants, bonus_sums: bool = False,
                also: tuple[TingConstants, ...] = ()) -> HoldColumns:
        """Stage A's columns of the hold class ``hold`` (its cards), from the store when the solve uses it;
        with ``also``, the communities those payouts leave live are kept too (:func:`walk_together`)."""
        cards = tuple(int(c) for c in hold)
        if self.column_store is not None:
            return stored_columns(cards, self.config, constants, self.column_store, bonus_sums, also)
        counts = counts_of(cards, self.config.geometry)
        if also:
            return live_columns(hold_columns(counts, self.config, constants, prune=False), constants, *also)
        return hold_columns(counts, self.config, constants, bonus_sums)

    @property
    def rows_store(self) -> Path | None:
        """Where stages B and C read and keep the rows they look up, which depend on the deck alone
        (:func:`solver.staged.column_store.stored_rows`): the solve's column store, else, where it
        :attr:`keeps_rows`, the cache folder's store of its deck, so that a later solve of the deck (a paytable
        variant) finds none; else nowhere."""
        if self.column_store is not None:
            return self.column_store
        return store_folder(self.config) if self.keeps_rows else None

    @property
    def n_bets(self) -> int:
        """How many fa-hu bet sizes F the configuration allows."""
        return len(self.config.fa_hu_bets)


# ---------------------------------------------------------------------------------------------
# Chunk files: one parquet file per finished chunk, renamed into place when complete.


def chunk_path(directory: Path, stage: str, index: int) -> Path:
    """Where chunk ``index`` of ``stage`` is written in a solve's ``directory``."""
    return directory / "chunks" / f"{stage}-{index:05d}.parquet"


def chunk_array_path(path: Path, name: str) -> Path:
    """Where the array ``name`` of the chunk file ``path`` is kept beside it (:func:`run_stage`'s ``arrays``)."""
    return path.with_name(f"{path.stem}-{name}.npy")


def _chunk_done(path: Path, wanted: dict[str, Any], arrays: tuple[str, ...] = ()) -> bool:
    """Whether a chunk file exists, is readable and was made for the solve described by ``wanted``, with its
    ``arrays`` beside it."""
    if not path.exists() or not all(chunk_array_path(path, name).exists() for name in arrays):
        return False
    try:  # a file that cannot be read (a disk fault, a copy cut short) is redone
        found = read_metadata(path)
    except (OSError, pa.ArrowInvalid, ValueError, InputError):
        return False
    return all(found.get(k) == v for k, v in wanted.items())


def run_stage(solve: SolveJob | list[SolveJob], stage: str, items: np.ndarray, work: Callable[..., Any], extra: tuple,
               quiet: bool, tag: str = "", keep: Callable[[int, pa.Table], None] | None = None,
               arrays: tuple[str, ...] = ()) -> list[Path]:
    """Run ``work(solve, items_of_chunk, *extra)`` for every chunk of ``items`` not finished yet, in
    parallel under the current joblib configuration; returns the chunk files in chunk order. ``tag``
    names what the items were made from, when that can differ between runs (chunks of another are redone).
    With a list of solves, ``work`` returns a table for each, written to each one's chunk files (the
    first one's are returned), and a chunk is done when every one has it. ``keep(index, table)`` is handed
    each chunk this run makes (the first solve's), as it is written: what the caller needs of it need not be
    read back from its file (chunks finished by an earlier run are not handed). The columns ``arrays`` of each
    chunk's table are kept as ``.npy`` files beside its file (:func:`chunk_array_path`), written first, not in
    it: stage B's and C's rows, 0.7 GB each on the real deck, which a parquet list column takes three times
    as long to write and read back (docs/performance.md)."""
    from tqdm import tqdm

    single = isinstance(solve, SolveJob)
    group = [solve] if single else solve
    size = CHUNK_ITEMS[stage]
    n_chunks = -(-len(items) // size)
    paths = [[chunk_path(s.directory, stage, i) for i in range(n_chunks)] for s in group]
    wanted = [{**describe(s.config, s.objective), "stage": stage, "tag": tag} for s in group]
    pending = [i for i in range(n_chunks) if not all(_chunk_done(p[i], w, arrays) for p, w in zip(paths, wanted))]
    done = len(items) - sum(len(items[i * size:(i + 1) * size]) for i in pending)
    bar = tqdm(total=len(items), initial=done, unit="item", desc=STAGE_NAMES[stage], smoothing=0.05,
               disable=True if quiet else None)
    metadata = [file_metadata(s.config, s.objective, {"stage": stage, "tag": tag}) for s in group]
    # never more processes than the stage has chunks (not pending ones: the pool would be resized, its
    # workers restarted, between the stages of one run)
    results = Parallel(n_jobs=work_processes(_jobs(), n_chunks), return_as="generator_unordered")(
        delayed(_indexed)(i, work, solve, items[i * size:(i + 1) * size], *extra) for i in pending)
    for index, tables in results:
        for chunk_paths, meta, table in zip(paths, metadata, [tables] if single else tables):
            for name in arrays:
                _save_array(chunk_array_path(chunk_paths[index], name), as_array(table[name]))
            write_table(chunk_paths[index], table.drop_columns(list(arrays)), meta)
        if keep is not None:
            keep(index, tables if single else tables[0])
        bar.update(len(items[index * size:(index + 1) * size]))
    bar.close()
    return paths[0]


def _jobs() -> int:
    """The number of processes the current joblib configuration asks for."""
    from joblib.parallel import get_active_backend

    return get_active_backend()[1]


def _indexed(index: int, work: Callable[..., Any], *args: Any) -> tuple[int, Any]:
    watch_parent()
    return index, work(*args)


def read_chunks(paths: Iterable[Path], columns: list[str]) -> dict[str, np.ndarray]:
    """The named columns of chunk files, concatenated in order, as arrays (list columns as 2-D)."""
    table = pa.concat_tables(pq.read_table(p, columns=columns).replace_schema_metadata(None) for p in paths)
    return {name: as_array(table[name]) for name in columns}


def as_array(column: pa.ChunkedArray) -> np.ndarray:
    """A parquet column as one numpy array: a fixed-size list column as a 2-d array, one row per entry."""
    column = column.combine_chunks()
    if pa.types.is_fixed_size_list(column.type):
        return column.flatten().to_numpy().reshape(len(column), column.type.list_size)
    return column.to_numpy(zero_copy_only=False)


def save_stage_arrays(directory: Path, name: str, arrays: dict[str, np.ndarray]) -> None:
    """Save a stage's merged arrays as ``.npy`` files in ``chunks/`` (each atomically) for the next stage."""
    for key, array in arrays.items():
        _save_array(directory / "chunks" / f"{name}-{key}.npy", array)


def _save_array(path: Path, array: np.ndarray) -> None:
    with written_atomically(path) as tmp, open(tmp, "wb") as handle:
        np.save(handle, np.ascontiguousarray(array))


_MAPPED: dict[tuple[str, ...], dict[str, np.ndarray]] = {}


def load_stage_arrays(directory: Path, name: str, keys: tuple[str, ...], mmap: bool = True) -> dict[str, np.ndarray]:
    """A stage's merged arrays, memory-mapped (and kept per process: each worker maps them once)."""
    paths = tuple(str(directory / "chunks" / f"{name}-{key}.npy") for key in keys)
    if paths not in _MAPPED:
        _MAPPED.clear()
        _MAPPED[paths] = {key: np.load(p, mmap_mode="r" if mmap else None) for key, p in zip(keys, paths)}
    return _MAPPED[paths]


def stage_arrays_ready(directory: Path, name: str, keys: tuple[str, ...]) -> bool:
    """Whether every array ``keys`` of stage ``name`` has been saved (:func:`save_stage_arrays`)."""
    return all((directory / "chunks" / f"{name}-{key}.npy").exists() for key in keys)


def list_column(values: np.ndarray) -> pa.FixedSizeListArray:
    """A 2-d array as a fixed-size list column, one list per row (read back by :func:`as_array`)."""
    return pa.FixedSizeListArray.from_arrays(np.ascontiguousarray(values).ravel(), values.shape[1])

