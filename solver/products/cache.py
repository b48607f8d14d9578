"""What the cache folder holds, current or stale for this version of the code: ``mahjong-poker cache``.

The folder (:func:`solver.runtime.diskcache.cache_dir`) holds per-geometry
tables, numba's compiled kernels (one folder per version of the source),
stage A's payout-free columns for paytable variants and the query indexes
of solves; all of it is rebuilt on demand, so what this
code can no longer read can be deleted.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from solver import __version__
from solver.runtime.diskcache import FORMAT, cache_dir


@dataclass(frozen=True)
class CacheEntry:
    """One thing in the cache folder: a file or a folder of compiled kernels."""

    path: Path
    kind: str
    """``table`` (per-geometry arrays), ``kernels`` (numba's compiled code for one version of the
    source), ``columns`` (stage A's payout-free columns of one deck and version of the source,
    :mod:`solver.staged.column_store`), ``query index`` (a solve's tables for ``best --tables``) or
    ``leftover`` (an interrupted write's temporary file)."""
    size: int
    """Bytes on disk (a folder: all its files)."""
    current: bool
    """Whether this version of the code can read it; the rest can be deleted (``prune``)."""


LEFTOVER_AGE = 3600.0
"""Seconds after which an interrupted write's temporary file counts as left over (a younger one may
still be being written)."""


def _size(path: Path) -> int:
    try:
        if path.is_dir():
            return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
        return path.stat().st_size
    except OSError:  # removed meanwhile (numba writing, a temporary file renamed)
        return 0


def cache_entries() -> list[CacheEntry]:
    """What the cache folder holds, with what this code can still read marked ``current``.

    Only names this package writes are listed (anything else in the folder is
    left alone), and the compiled kernels wherever numba keeps them
    (``$NUMBA_CACHE_DIR`` or the folder's ``numba``). Kernels of another
    version of the source, another checkout's included, are stale. Query
    indexes are current when of this index format: each belongs to the
    tables it was built from (named by their digest), which may live
    anywhere, so whether those tables still exist cannot be told from here.
    """
    import re
    import time

    from solver.runtime.jit import SOURCE_DIGEST, kernel_cache_folder
    from solver.tables.index import INDEX_FORMAT

    folder = cache_dir()
    table = re.compile(r"[a-z_]+-\d+x\d+x\d+j\d+-v[0-9A-Za-z.+]+-f\d+\.npz")
    index = re.compile(r"tables-[0-9a-f]{40}-i\d+\.(idx|sqlite)")  # .sqlite: the format before 2
    entries = []
    columns = re.compile(r"columns-[0-9a-f]{16}-[0-9a-f]{20}")
    for path in sorted(folder.iterdir()) if folder.is_dir() else []:
        name = path.name
        if path.is_dir() and columns.fullmatch(name):
            entries.append(CacheEntry(path, "columns", _size(path), name.endswith(f"-{SOURCE_DIGEST}")))
        if not path.is_file():
            continue
        if table.fullmatch(name):
            entries.append(CacheEntry(path, "table", _size(path), name.endswith(f"-v{__version__}-f{FORMAT}.npz")))
        elif index.fullmatch(name):
            entries.append(CacheEntry(path, "query index", _size(path), name.endswith(f"-i{INDEX_FORMAT}.idx")))
        elif name.endswith(".tmp"):
            try:
                old = time.time() - path.stat().st_mtime > LEFTOVER_AGE
            except OSError:
                continue
            if old:
                entries.append(CacheEntry(path, "leftover", _size(path), False))
    ours = Path(kernel_cache_folder())
    for kernels in sorted(ours.parent.iterdir()) if ours.parent.is_dir() else []:
        if kernels.is_dir() and re.fullmatch(r"mahjong-poker-[0-9a-f]{20}", kernels.name):
            entries.append(CacheEntry(kernels, "kernels", _size(kernels), kernels == ours))
    return entries


def remove_entries(entries: list[CacheEntry]) -> list[CacheEntry]:
    """Delete ``entries`` (everything in them is rebuilt on demand); returns those deleted. An entry
    that another process removes or holds meanwhile is skipped."""
    import shutil

    removed = []
    for entry in entries:
        try:
            if entry.path.is_dir():
                shutil.rmtree(entry.path)
            else:
                entry.path.unlink()
            removed.append(entry)
        except OSError:
            continue
    return removed
