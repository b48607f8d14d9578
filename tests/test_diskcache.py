import os
from pathlib import Path

import numpy as np

from solver.game.cards import DeckGeometry
from solver.game.community import _build_community_index
from solver.runtime.diskcache import cached_arrays

MINI = DeckGeometry(suits=2, ranks=4, copies_in_play=2, jokers_in_play=1)


def test_tables_round_trip_through_the_cache(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("MAHJONG_POKER_CACHE", str(tmp_path))
    calls = []

    def build():
        calls.append(1)
        return _build_community_index(MINI)

    first = cached_arrays("community", MINI, build)
    second = cached_arrays("community", MINI, build)
    assert len(calls) == 1 and len(list(tmp_path.glob("community-2x4x2j1-*.npz"))) == 1
    assert not list(tmp_path.glob("*.tmp"))
    for key in first:
        assert np.array_equal(first[key], second[key]) and first[key].dtype == second[key].dtype


def test_a_corrupt_file_is_rebuilt(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("MAHJONG_POKER_CACHE", str(tmp_path))
    cached_arrays("community", MINI, lambda: _build_community_index(MINI))
    path = next(tmp_path.glob("community-*.npz"))
    path.write_bytes(b"not a table")
    rebuilt = cached_arrays("community", MINI, lambda: _build_community_index(MINI))
    assert np.array_equal(rebuilt["succ5"], _build_community_index(MINI)["succ5"])


def test_unwritable_cache_still_builds(tmp_path, monkeypatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("MAHJONG_POKER_CACHE", str(blocker / "sub"))
    arrays = cached_arrays("community", MINI, lambda: _build_community_index(MINI))
    assert len(arrays["m4_types"]) > 0


FOLDERS = ("numba/", "columns-")  # entries that are folders: compiled kernels, column stores


def test_cache_command_shows_prunes_and_clears(tmp_path, monkeypatch, capsys) -> None:
    """`mahjong-poker cache` sorts the folder into current and stale entries by this code's version,
    table format, source digest and index format; --prune deletes only the stale, --clear the rest;
    files the package does not write, and a temporary file young enough to be in use, are left alone."""
    import json
    import os
    import time

    from solver import __version__
    from solver.cli import main
    from solver.runtime.diskcache import FORMAT
    from solver.runtime.jit import SOURCE_DIGEST
    from solver.tables.index import INDEX_FORMAT

    monkeypatch.setenv("MAHJONG_POKER_CACHE", str(tmp_path))
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    assert main(["cache"]) == 0 and "(empty)" in capsys.readouterr().out
    current = [f"alone-3x4x2j1-v{__version__}-f{FORMAT}.npz", f"tables-{'a' * 40}-i{INDEX_FORMAT}.idx",
               f"numba/mahjong-poker-{SOURCE_DIGEST}", f"columns-{'d' * 16}-{SOURCE_DIGEST}"]
    stale = ["alone-3x4x2j1-v0.0.1-f1.npz", f"community-3x4x2j1-v{__version__}-f{FORMAT + 1}.npz",
             f"tables-{'b' * 40}-i{INDEX_FORMAT + 1}.idx", f"tables-{'c' * 40}-i1.sqlite", "tmpabc.tmp",
             "numba/mahjong-poker-0123456789abcdef0123", f"columns-{'d' * 16}-{'0' * 20}"]
    foreign = ["notes.txt", "data.npz", "tables-mine.sqlite", "tmpyoung.tmp", "numba/other-project"]
    for name in current + stale + foreign:
        path = tmp_path / name
        if name.startswith(FOLDERS):
            path.mkdir(parents=True)
            (path / "kernel.nbi").write_bytes(b"x" * 10)
        else:
            path.write_bytes(b"x" * 100)
    two_hours_ago = time.time() - 7200
    os.utime(tmp_path / "tmpabc.tmp", (two_hours_ago, two_hours_ago))

    assert main(["cache", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    flags = {e["path"][len(str(tmp_path)) + 1:]: e["current"] for e in data["entries"]}
    assert flags == {**{n: True for n in current}, **{n: False for n in stale}}
    kinds = {e["kind"] for e in data["entries"]}
    assert kinds == {"table", "query index", "kernels", "columns", "leftover"}
    assert main(["cache"]) == 0
    assert "--prune" in capsys.readouterr().out

    assert main(["cache", "--prune", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["freed_bytes"] == 5 * 100 + 2 * 10
    assert sum(e["removed"] for e in data["entries"]) == len(stale)

    def left() -> set[str]:
        return {str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file()}

    assert left() == {n + "/kernel.nbi" if n.startswith(FOLDERS) else n for n in current + foreign}
    assert main(["cache", "--clear"]) == 0
    assert "deleted 4 entries" in capsys.readouterr().out
    assert left() == {n + "/kernel.nbi" if n.startswith(FOLDERS) else n for n in foreign}
    assert main(["cache", "--prune", "--clear"]) == 2


def test_a_cache_folder_that_is_a_file_is_one_line(tmp_path, monkeypatch, capsys) -> None:
    """A $MAHJONG_POKER_CACHE naming a file is reported, not listed as an empty folder."""
    from solver.cli import main

    (tmp_path / "file").write_text("")
    monkeypatch.setenv("MAHJONG_POKER_CACHE", str(tmp_path / "file"))
    assert main(["cache"]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err


def test_a_relative_cache_folder_is_pinned_for_the_workers(tmp_path: Path, monkeypatch) -> None:
    """A relative $MAHJONG_POKER_CACHE names the folder under the working one when the command starts, for
    the worker processes too (they inherit the environment and may work elsewhere)."""
    from solver.runtime.diskcache import cache_dir, pin_cache_dir

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MAHJONG_POKER_CACHE", "cache")
    pin_cache_dir()
    monkeypatch.chdir(tmp_path.parent)
    assert cache_dir() == tmp_path / "cache"
    assert os.environ["MAHJONG_POKER_CACHE"] == str(tmp_path / "cache")
