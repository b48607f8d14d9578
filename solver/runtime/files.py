"""Writing a file so that no reader ever sees half of it: to a temporary name beside it, then renamed.

A rename within one folder is atomic: a reader finds the old file or the
new one. A process killed while writing leaves at most the temporary file,
which the next write of the same file replaces (or, with unique names, the
cache command lists as left over).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def written_atomically(path: Path, *, unique: bool = False, sync: bool = False,
                       same: Callable[[Path, Path], bool] | None = None) -> Iterator[Path]:
    """The temporary path to write ``path``'s new content to: renamed onto ``path`` when the block ends
    without error, removed otherwise. ``unique``: a temporary name of its own, where several processes may
    write the same file (the cache); otherwise ``<name>.tmp``. ``sync``: on disk before the rename.
    ``same(old, new)``: when it holds for an existing ``path``, the old file is kept (its bytes and date)."""
    if unique:
        handle, name = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
        os.close(handle)
        tmp = Path(name)
    else:
        tmp = path.with_name(path.name + ".tmp")
    try:
        yield tmp
        if same is not None and path.is_file() and same(path, tmp):
            return
        if sync:
            with open(tmp, "rb") as written:
                os.fsync(written.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
