"""A lookup index of a table directory, so that a query loads neither pyarrow nor numpy.

Importing pyarrow and numpy takes longer than a whole ``best --tables``
query may (docs/performance.md), and a query is 15 lookups.
So the solve (or the first query) copies what queries read into one
binary file in the cache folder (:func:`solver.runtime.diskcache.cache_dir`):

* a header: the summary's metadata and where each table's arrays start;
* per table (``holds``: stage A, ``firsts``: stage C), its sorted keys
  (int64) and each row's values (float64), little-endian,

which the standard library memory-maps and searches by bisection. The
parquet files stay the tables; the index is a cache of them:

* its name is a digest of the footers of ``summary.parquet``,
  ``holds.parquet`` and ``firsts.parquet`` (each footer holds the file's
  schema, row-group offsets and statistics, and the solve's metadata with
  its creation time), so a re-solved or changed directory gets a new index
  and a stale one is never read;
* it is written to a temporary name, synced and renamed, so a killed build
  leaves at most a temporary file, never a partial index; an index that
  cannot be read is deleted, to be built again;
* whatever stops it being built or read (an unwritable cache folder, a
  damaged parquet file), queries read the parquet files, as they would
  without it.

A table directory's indexes are not removed when it is solved again; old
``tables-*.idx`` files in the cache folder can be deleted at any time
(``mahjong-poker cache``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import mmap
import os
import struct
import sys
from pathlib import Path
from typing import Any

from solver.runtime.diskcache import cache_dir
from solver.runtime.files import written_atomically

#: Bump when the index's layout changes.
INDEX_FORMAT = 2
FILES = ("summary.parquet", "firsts.parquet", "holds.parquet")
"""The files an index copies from: the summary, and the tables present (a clone of the committed tables
has stage C's ``firsts`` for deal queries, not stage A's ``holds``, which the solve regenerates)."""
MAGIC = b"MJPIDX02"
#: What each table's rows hold, from its parquet file: (list column of F values, or plain columns).
TABLE_COLUMNS = {"holds": ("evs",), "firsts": ("ev", "ev_dd")}


def footer_digest(path: Path) -> bytes:
    """SHA-256 of a parquet file's footer (found from its last 8 bytes: footer length, ``PAR1``)."""
    with open(path, "rb") as handle:
        handle.seek(-8, os.SEEK_END)
        tail = handle.read(8)
        if tail[4:] != b"PAR1":
            raise OSError(f"{path} is not a parquet file")
        handle.seek(-8 - int.from_bytes(tail[:4], "little"), os.SEEK_END)
        return hashlib.sha256(handle.read()).digest()  # the footer and its last 8 bytes


def _present(directory: Path) -> list[str]:
    """The index's files that ``directory`` holds (the summary always: raises OSError if it is missing)."""
    return [name for name in FILES if name == FILES[0] or (directory / name).exists()]


def index_path(directory: Path) -> Path:
    """Where the index of ``directory``'s current files lives (raises OSError if the summary is missing)."""
    digest = hashlib.sha256()
    for name in _present(directory):
        digest.update(name.encode() + footer_digest(directory / name))
    return cache_dir() / f"tables-{digest.hexdigest()[:40]}-i{INDEX_FORMAT}.idx"


class IndexDamaged(OSError):
    """An index file that cannot be read (it has been deleted, to be built again)."""


class TableIndex:
    """Read access to a built index."""

    def __init__(self, path: Path) -> None:
        self._path = path
        with open(path, "rb") as handle:
            self._map = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        if self._map[:8] != MAGIC:
            raise ValueError(f"{path} is not a table index")
        (length,) = struct.unpack_from("<Q", self._map, 8)
        header = json.loads(self._map[16:16 + length])
        self._metadata = header["metadata"]
        self._tables = header["tables"]

    def metadata(self) -> dict[str, Any]:
        """The summary file's ``mahjong_poker`` metadata."""
        return self._metadata

    def lookup(self, table: str, key: int) -> tuple[float, ...] | None:
        """The values of the row of ``table`` with this key, or None (also when the index lacks the table)."""
        if table not in self._tables:
            return None
        try:
            spec = self._tables[table]
            keys, rows, width = spec["keys"], spec["rows"], spec["width"]
            lo, hi = 0, rows
            while lo < hi:  # bisection over the sorted keys
                mid = (lo + hi) // 2
                if struct.unpack_from("<q", self._map, keys + 8 * mid)[0] < key:
                    lo = mid + 1
                else:
                    hi = mid
            if lo == rows or struct.unpack_from("<q", self._map, keys + 8 * lo)[0] != key:
                return None
            return struct.unpack_from(f"<{width}d", self._map, spec["values"] + 8 * width * lo)
        except (KeyError, struct.error, ValueError) as error:
            self._map.close()
            _delete(self._path)
            raise IndexDamaged(f"{self._path}: {error}") from None


def open_index(directory: Path, build: bool = True, say: bool = True) -> TableIndex | None:
    """The index of ``directory`` (built if missing and ``build``, saying so on stderr where ``say`` and
    stage A is there to copy), or None when there is none or it cannot be built or read: then the parquet
    files answer."""
    try:
        path = index_path(directory)
    except OSError:
        return None
    if not path.exists():
        if not build:
            return None
        if say and (directory / "holds.parquet").exists():  # a copy of stage A: seconds, once per solve
            print(f"indexing {directory} for queries (once, about 10 s for the real deck): {path}", file=sys.stderr)
        try:
            build_index(directory, path)
        except Exception:  # a cache: any failure leaves the parquet files to answer, and their own errors
            return None
    try:
        return TableIndex(path)
    except (OSError, ValueError, KeyError):  # a damaged file
        _delete(path)
        return None


def _delete(path: Path) -> None:
    """Remove a damaged index, if the cache folder allows (else it stays unused: the parquet files answer)."""
    with contextlib.suppress(OSError):
        path.unlink(missing_ok=True)


def build_index(directory: Path, path: Path) -> None:
    """Copy the summary's metadata and the holds and firsts tables' keys and values into a new index
    at ``path``. Keys must be strictly increasing (the solve writes them so); a file that breaks this is
    refused, and the parquet files answer."""
    import numpy as np
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from solver.tables.files import read_metadata

    arrays = {}
    for table, columns in TABLE_COLUMNS.items():
        if f"{table}.parquet" not in _present(directory):
            continue
        source = directory / f"{table}.parquet"
        bound = "bound" in pq.read_schema(source).names  # rows left out below folding: not indexed, to be computed
        data = pq.read_table(source, columns=["key", *columns, *(["bound"] if bound else [])])
        if bound:
            data = data.filter(pc.invert(data["bound"])).drop_columns(["bound"])
        keys = data["key"].to_numpy()
        if len(keys) > 1 and not (np.diff(keys) > 0).all():
            raise ValueError(f"{table}.parquet: keys are not strictly increasing")
        parts = []
        for name in columns:
            column = data[name].combine_chunks()
            if hasattr(column, "flatten"):
                parts.append(column.flatten().to_numpy().reshape(len(keys), -1))
            else:
                parts.append(column.to_numpy().reshape(len(keys), 1))
        values = parts[0] if len(parts) == 1 else np.hstack(parts)  # one part: no copy of a 200 MB array
        arrays[table] = (keys.astype("<i8", copy=False), np.ascontiguousarray(values, dtype="<f8"))
    header: dict[str, Any] = {"metadata": read_metadata(directory / "summary.parquet"), "tables": {}}
    # offsets depend on the header's length, which depends on the offsets: lay out with room to spare
    text = b""
    for _ in range(3):
        offset = 16 + len(text) + 64
        offset += -offset % 8
        for table, (keys, values) in arrays.items():
            header["tables"][table] = {"rows": len(keys), "width": values.shape[1], "keys": offset,
                                       "values": offset + keys.nbytes}
            offset += keys.nbytes + values.nbytes
        text = json.dumps(header).encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    with written_atomically(path, unique=True, sync=True) as tmp:
        with open(tmp, "wb") as out:
            out.write(MAGIC + struct.pack("<Q", len(text)) + text)
            for table, (keys, values) in arrays.items():
                out.write(b"\0" * (header["tables"][table]["keys"] - out.tell()))
                out.write(memoryview(keys))  # the arrays' own bytes, not a copy of them
                out.write(memoryview(values))
        if index_path(directory) != path:
            raise OSError(f"the tables in {directory} changed while being indexed")
