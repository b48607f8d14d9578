"""A lookup index of a table directory, so that a query loads neither pyarrow nor numpy.

Importing pyarrow and numpy takes about 0.35 s on a 2-core machine, more
than a whole ``best --tables`` query may take. So the first query on a
table directory copies what queries read (the summary's metadata, and the
options of every deal and draw row) into an SQLite file in the cache folder
(:func:`solver.diskcache.cache_dir`), and later queries read that with the
standard library alone. The parquet files stay the tables; the index is a
cache of them:

* its name is a digest of the footers of ``summary.parquet``,
  ``deals.parquet`` and ``draws.parquet`` (each footer holds the file's
  schema, row-group offsets and statistics, and the solve's metadata with
  its creation time), so a re-solved or changed directory gets a new index
  and a stale one is never read;
* it is written to a temporary name, synced and renamed, so a killed
  build leaves at most a temporary file, never a partial index; an index
  that cannot be read is deleted, to be built again;
* the index is a cache: whatever stops it being built or read (an
  unwritable cache folder, a damaged parquet file), queries read the
  parquet files, as they would without it.

A table directory's indexes are not removed when it is solved again; old
``tables-*.sqlite`` files in the cache folder can be deleted at any time.

Options are stored as the row's ``actions``, ``discards``, ``bets``, ``evs``
and ``risks`` lists in JSON (floats written with ``repr``, so they read back
bit for bit), zlib-compressed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import tempfile
import zlib
from pathlib import Path
from typing import Any

from .diskcache import cache_dir

#: Bump when the index's layout changes.
INDEX_FORMAT = 1
FILES = ("summary.parquet", "deals.parquet", "draws.parquet")
OPTION_COLUMNS = ("actions", "discards", "bets", "evs", "risks")


def footer_digest(path: Path) -> bytes:
    """SHA-256 of a parquet file's footer (found from its last 8 bytes: footer length, ``PAR1``)."""
    with open(path, "rb") as handle:
        handle.seek(-8, os.SEEK_END)
        tail = handle.read(8)
        if tail[4:] != b"PAR1":
            raise OSError(f"{path} is not a parquet file")
        handle.seek(-8 - int.from_bytes(tail[:4], "little"), os.SEEK_END)
        return hashlib.sha256(handle.read()).digest()  # the footer and its last 8 bytes


def index_path(directory: Path) -> Path:
    """Where the index of ``directory``'s current files lives (raises OSError if one is missing)."""
    digest = hashlib.sha256()
    for name in FILES:
        digest.update(footer_digest(directory / name))
    return cache_dir() / f"tables-{digest.hexdigest()[:40]}-i{INDEX_FORMAT}.sqlite"


class IndexDamaged(OSError):
    """An index file that cannot be read (it has been deleted, to be built again)."""


class TableIndex:
    """Read access to a built index."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._db = sqlite3.connect(path.as_uri() + "?mode=ro", uri=True)
        # sqlite3 opens lazily: read now, so that a damaged file fails here
        (value,) = self._db.execute("SELECT value FROM meta WHERE name = 'summary'").fetchone()
        self._metadata = json.loads(value)

    def metadata(self) -> dict[str, Any]:
        """The summary file's ``mahjong_poker`` metadata."""
        return self._metadata

    def deal(self, key: int) -> dict[str, Any] | None:
        """Option lists of the deal row with this key, or None."""
        return self._row("SELECT options FROM deals WHERE key = ?", (key,))

    def draw(self, key: int, double_down: float) -> dict[str, Any] | None:
        """Option lists of the draw row with this key and double-down bet, or None."""
        return self._row("SELECT options FROM draws WHERE key = ? AND double_down = ?", (key, double_down))

    def _row(self, query: str, args: tuple) -> dict[str, Any] | None:
        try:
            found = self._db.execute(query, args).fetchone()
            return None if found is None else dict(zip(OPTION_COLUMNS, json.loads(zlib.decompress(found[0]))))
        except (sqlite3.Error, zlib.error, ValueError) as error:
            self._db.close()
            _delete(self._path)
            raise IndexDamaged(f"{self._path}: {error}") from None


def open_index(directory: Path, build: bool = True) -> TableIndex | None:
    """The index of ``directory`` (built if missing and ``build``), or None when there is none or
    it cannot be built or read: then the parquet files answer."""
    try:
        path = index_path(directory)
    except OSError:
        return None
    if not path.exists():
        if not build:
            return None
        try:
            build_index(directory, path)
        except Exception:  # a cache: any failure leaves the parquet files to answer, and their own errors
            return None
    try:
        return TableIndex(path)
    except (sqlite3.Error, TypeError, ValueError):  # a damaged file (TypeError: no meta row)
        _delete(path)
        return None


def _delete(path: Path) -> None:
    """Remove a damaged index, if the cache folder allows (else it stays unused: the parquet files answer)."""
    with contextlib.suppress(OSError):
        path.unlink(missing_ok=True)


def build_index(directory: Path, path: Path) -> None:
    """Copy the summary's metadata and every deal and draw row's options into a new index at ``path``.

    The solve writes one row per key (per key and double-down for draws); a
    file with two is refused (a uniqueness error), and the parquet files
    answer, as :func:`solver.tables.lookup` does, with the first.
    """
    import pyarrow.parquet as pq

    from .tables import read_metadata

    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=path.parent, prefix="tables-", suffix=".tmp", delete=False) as handle:
        tmp = Path(handle.name)
    try:
        db = sqlite3.connect(tmp)
        db.execute("CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT)")
        db.execute("CREATE TABLE deals (key INTEGER PRIMARY KEY, options BLOB)")
        db.execute("CREATE TABLE draws (key INTEGER, double_down REAL, options BLOB, PRIMARY KEY (key, double_down))")
        db.execute("INSERT INTO meta VALUES ('summary', ?)",
                   (json.dumps(read_metadata(directory / "summary.parquet")),))
        for table, keys in (("deals", ("key",)), ("draws", ("key", "double_down"))):
            places = ", ".join("?" * (len(keys) + 1))
            for batch in pq.ParquetFile(directory / f"{table}.parquet").iter_batches(columns=[*keys, *OPTION_COLUMNS]):
                columns = batch.to_pydict()
                db.executemany(f"INSERT INTO {table} VALUES ({places})", (
                    (*(columns[k][i] for k in keys),
                     zlib.compress(json.dumps([columns[c][i] for c in OPTION_COLUMNS]).encode()))
                    for i in range(batch.num_rows)))
        db.commit()
        db.close()
        with open(tmp, "rb") as written:
            os.fsync(written.fileno())
        if index_path(directory) != path:
            raise OSError(f"the tables in {directory} changed while being indexed")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
