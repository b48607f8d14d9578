"""Stage A's payout-free columns of every hold, kept on disk for a paytable's variants.

Which completions win, for every hold and community (the pair levels, the win
counts W and Wf and their columns, the step-11 inclusion-exclusion tables:
:func:`solver.staged.holds.hold_columns` with ``prune=False``), depends on the
deck and the hu rules, not on any payout. A variant of a ting payout or a bet
size walks stage A again; with the store it reads each hold's columns
(decompressing them takes a small part of the time building them does) and keeps the
communities its own payouts leave live (:func:`solver.staged.holds.live_columns`):
the same arrays, so the same values, bit for bit, as building them.

The store also keeps what stages B and C look up (:mod:`solver.staged.stages`): the stage-A
row of each post-draw class's holds, and the stage-B row of each first hold's draws. Those
depend on the deck alone: every solve keeps them, one without the store too
(:attr:`solver.staged.chunks.SolveJob.rows_store`), and a later solve of the deck only gathers
values from them (:func:`stored_rows`): the same values, in the same order, as looking each
one up.

The store is a folder of the cache (:func:`solver.runtime.diskcache.cache_dir`)
named by the configuration's columns fingerprint and the digest of this
package's source, so columns made by other rules or other code are never
read. One file per hold class and one per array of the rows, each written to
a temporary name and renamed; a file that cannot be read is built again. The
real deck's store takes about 1.2 GB of columns and 1.5 GB of rows, and 0.3 GB
for each solve whose best rows' outcome counts bound a variant
(:func:`solver.staged.bounds.best_rows_path`).
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pyarrow as pa

from solver.game.cards import counts_of
from solver.game.config import GameConfig
from solver.game.payouts import TingConstants
from solver.runtime.diskcache import cache_dir, save_arrays
from solver.runtime.files import written_atomically
from solver.runtime.jit import SOURCE_DIGEST
from solver.staged.holds import (
    HoldColumns,
    hold_columns,
    live_columns,
    n_pairs,
    no_bonus_columns,
    with_bonus_columns,
)

#: The per-community arrays kept, compressed (the pair levels, one row per pair of last cards a <= b, shrink
#: about twelvefold).
_PACKED = ("alive_index", "acount", "w0", "q0", "lin", "pair_level")
#: Zstandard at level 1 (bundled with pyarrow): faster to read back and smaller than zlib's files
#: (``scripts/benchmark.py column-store``; figures in docs/performance.md, "The column store").
_CODEC = pa.Codec("zstd", 1)
#: The rows kept of stages B and C (``draws``: per post-draw class, its key, hu level, number of
#: distinct holds and their stage-A rows; ``firsts``: per first hold, its draws' stage-B rows).
ROW_ARRAYS = {"draws": ("key", "level", "holds", "rows"), "firsts": ("rows",)}
#: The prefix of the store's folders in the cache folder.
FOLDER_PREFIX = "columns-"


def store_folder(config: GameConfig, root: Path | None = None) -> Path:
    """The folder of ``config``'s columns for this version of the source, in ``root`` (default: the cache
    folder)."""
    return (root or cache_dir()) / f"{FOLDER_PREFIX}{config.columns_fingerprint()}-{SOURCE_DIGEST}"


def stored_columns(hold: tuple[int, ...], config: GameConfig, constants: TingConstants, folder: Path,
                   bonus_sums: bool = False, also: tuple[TingConstants, ...] = (), free: bool = False) -> HoldColumns:
    """``hold_columns`` of the hold class ``hold`` (its cards), from its payout-free columns in the store
    ``folder`` (:func:`store_folder`; built and stored when absent): the same arrays as
    ``hold_columns(counts_of(hold), config, constants, bonus_sums)``; with ``also``, the communities those
    payouts leave live are kept too (variants walked together); ``free``: the payout-free columns
    themselves."""
    path = _columns_path(folder, hold)
    payout_free = _read(path, hold, config)
    if payout_free is None:
        payout_free = hold_columns(counts_of(hold, config.geometry), config, constants, prune=False)
        _write(path, payout_free)
    if free:
        return payout_free
    columns = live_columns(payout_free, constants, *also)
    return with_bonus_columns(columns, config) if constants.bonus_bet > 0 or bonus_sums else columns


def _columns_path(folder: Path, hold: tuple[int, ...]) -> Path:
    """The file of the hold class ``hold``'s payout-free columns in the store ``folder``."""
    return folder / f"{'-'.join(map(str, hold))}.npz"


def columns_stored(folder: Path, holds: np.ndarray) -> bool:
    """Whether the store ``folder`` has a file of columns for every hold class of ``holds`` (rows of cards); one
    that cannot be read is built again when read."""
    return all(_columns_path(folder, tuple(int(c) for c in hold)).exists() for hold in holds)


def stored_counts(hold: tuple[int, ...], config: GameConfig, folder: Path
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Of the hold class ``hold``'s payout-free columns in the store ``folder`` (built and stored when absent),
    only each community's combinations ``w0`` and win counts ``q0``, with the hold's suited pool: a small part
    of its file."""
    try:
        with np.load(_columns_path(folder, hold)) as data:
            w0, q0 = _unpacked(data, "w0"), _unpacked(data, "q0")
        pool = (config.geometry.full_counts() - counts_of(hold, config.geometry))[:config.geometry.n_suited]
        return w0, q0, pool
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, pa.ArrowException):
        free = stored_columns(hold, config, TingConstants.of(config), folder, free=True)
        return free.w0, free.q0, free.pool


def _write(path: Path, columns: HoldColumns) -> None:
    """Store ``columns`` (payout-free, no bonus net) at ``path``; nothing when the folder cannot be written."""
    arrays = {}
    for name in _PACKED:
        array = np.ascontiguousarray(getattr(columns, name))
        arrays[name] = np.frombuffer(_CODEC.compress(array, asbytes=True), np.uint8)
        arrays[f"{name}_shape"] = np.array(array.shape, np.int64)
        arrays[f"{name}_dtype"] = np.array(array.dtype.str)
    for name in ("g_hu", "g_flush"):  # sparse: a few thousand of 28^4 entries
        table = getattr(columns, name)
        where = np.flatnonzero(table)
        arrays[f"{name}_at"], arrays[f"{name}_values"] = where, table[where]
        arrays[f"{name}_size"] = np.array(table.size, np.int64)
    save_arrays(path, arrays)


def _read(path: Path, hold: tuple[int, ...], config: GameConfig) -> HoldColumns | None:
    """The payout-free columns stored at ``path``, or None when there are none (or they cannot be read)."""
    try:
        with np.load(path) as data:
            packed = {name: _unpacked(data, name) for name in _PACKED}
            tables = {}
            for name in ("g_hu", "g_flush"):
                table = np.zeros(int(data[f"{name}_size"]), np.int64)
                table[data[f"{name}_at"]] = data[f"{name}_values"]
                tables[name] = table
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, pa.ArrowException):
        return None
    geometry = config.geometry
    counts = np.ascontiguousarray(counts_of(hold, geometry), dtype=np.int64)
    n_suited = geometry.n_suited
    pool = (geometry.full_counts() - counts)[:n_suited]
    if packed["pair_level"].shape != (n_pairs(n_suited), len(packed["w0"])):  # another layout
        return None
    return HoldColumns(counts, pool, len(packed["w0"]), **packed, **no_bonus_columns(n_suited), **tables)


def _unpacked(data: np.lib.npyio.NpzFile, name: str) -> np.ndarray:
    """The array ``name`` of a store file, decompressed into a buffer of its own: writable, like a built one
    (the kernels are compiled for those)."""
    dtype, shape = np.dtype(str(data[f"{name}_dtype"])), tuple(int(n) for n in data[f"{name}_shape"])
    size = dtype.itemsize * int(np.prod(shape))
    return np.frombuffer(_CODEC.decompress(data[name], size), dtype).reshape(shape)


def stored_rows(folder: Path, stage: str) -> dict[str, np.ndarray] | None:
    """The rows of ``stage`` (``draws`` or ``firsts``: :data:`ROW_ARRAYS`) kept in the store ``folder``,
    memory-mapped copy-on-write (writable, like arrays built in memory: the kernels are compiled for
    those), or None when some are missing or cannot be read."""
    try:
        return {name: np.load(folder / f"{stage}-{name}.npy", mmap_mode="c") for name in ROW_ARRAYS[stage]}
    except (OSError, ValueError):
        return None


def store_rows(folder: Path, stage: str, arrays: dict[str, np.ndarray | list[Path]]) -> None:
    """Keep the rows of ``stage`` (:data:`ROW_ARRAYS`) in the store ``folder``, each array under a
    temporary name of its own and renamed (variants side by side may store the same ones at once);
    nothing when the folder cannot be written (the store is never needed). An array given as ``.npy``
    files (a stage's chunks, in order) is their concatenation, copied file by file."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name in ROW_ARRAYS[stage]:
            with written_atomically(folder / f"{stage}-{name}.npy", unique=True) as tmp:
                _save_concatenated(tmp, arrays[name])
    except OSError:
        pass


def _save_concatenated(path: Path, parts: np.ndarray | list[Path]) -> None:
    """Save an array, or the concatenation of the arrays in ``.npy`` files, to ``path`` without holding the
    whole in memory."""
    if isinstance(parts, np.ndarray):
        with open(path, "wb") as handle:
            np.save(handle, np.ascontiguousarray(parts))
        return
    heads = [np.load(part, mmap_mode="r") for part in parts]  # the shapes, read from the headers
    shape = (sum(len(head) for head in heads), *heads[0].shape[1:])
    header = {"descr": np.lib.format.dtype_to_descr(heads[0].dtype), "fortran_order": False, "shape": shape}
    del heads
    with open(path, "wb") as handle:  # written, not memory-mapped: the pages never count as the process's
        np.lib.format.write_array_header_1_0(handle, header)
        for part in parts:
            handle.write(np.ascontiguousarray(np.load(part)).data)
