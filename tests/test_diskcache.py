import numpy as np

from solver.cards import DeckGeometry
from solver.community import _build_community_index
from solver.diskcache import cached_arrays

MINI = DeckGeometry(suits=2, ranks=4, copies=2, jokers=1)


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
