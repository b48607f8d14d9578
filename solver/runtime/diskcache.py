"""On-disk cache of per-geometry tables, so a fresh process does not rebuild them.

Tables are pure functions of the deck geometry and of this code's version;
both are in the file name, so a stale file is never read. Files are written
to a temporary name and renamed, so an interrupted write never leaves a
corrupt table. The folder is ``$MAHJONG_POKER_CACHE`` or
``~/.cache/mahjong-poker``; if it cannot be written, tables are simply built.

The same folder holds numba's compiled kernels (one folder per version of
the source, :mod:`solver.runtime.jit`) and the query indexes of solves
(:mod:`solver.tables.index`). Nothing there is needed: all of it is rebuilt
on demand. ``mahjong-poker cache`` shows it and deletes what this version
of the code can no longer read (:mod:`solver.products.cache`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from solver import __version__
from solver.runtime.files import written_atomically

if TYPE_CHECKING:
    import numpy as np

#: Bump when a cached table's layout or meaning changes without a version change.
FORMAT = 4


def cache_dir() -> Path:
    """Folder of the cached tables, absolute: worker processes kept from an earlier call may work in
    another folder."""
    return Path(os.environ.get("MAHJONG_POKER_CACHE", Path.home() / ".cache" / "mahjong-poker")).absolute()


def pin_cache_dir() -> None:
    """Write a relative ``$MAHJONG_POKER_CACHE`` as the absolute folder it names now, so that the worker
    processes started from here, and kept working in a folder of their own, use the same cache."""
    if "MAHJONG_POKER_CACHE" in os.environ:
        os.environ["MAHJONG_POKER_CACHE"] = str(cache_dir())


class Geometry(Protocol):
    """What a cached table's name reads of its deck (a :class:`solver.game.cards.DeckGeometry`; the runtime
    layer names no game type)."""

    @property
    def suits(self) -> int: ...

    @property
    def ranks(self) -> int: ...

    @property
    def copies_in_play(self) -> int: ...

    @property
    def jokers_in_play(self) -> int: ...


def cached_arrays(
    name: str, geometry: Geometry, build: Callable[[], dict[str, np.ndarray]]
) -> dict[str, np.ndarray]:
    """The arrays ``build()`` returns, read from the cache when a file for this geometry and version exists."""
    import numpy as np  # here, not at the top: a table query uses only cache_dir

    tag = f"{geometry.suits}x{geometry.ranks}x{geometry.copies_in_play}j{geometry.jokers_in_play}"
    path = cache_dir() / f"{name}-{tag}-v{__version__}-f{FORMAT}.npz"
    try:
        with np.load(path) as data:
            return {key: data[key] for key in data.files}
    except (OSError, ValueError, KeyError):
        pass
    arrays = build()
    save_arrays(path, arrays)
    return arrays


def save_arrays(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write ``arrays`` to the ``.npz`` file ``path`` (its folder made if need be) under a temporary name of
    its own, renamed when complete; nothing when it cannot be written (the cache is never needed)."""
    import numpy as np

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with written_atomically(path, unique=True) as tmp, open(tmp, "wb") as handle:
            np.savez(handle, **arrays)
    except OSError:
        pass
