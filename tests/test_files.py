"""Helpers that run table work beside the caller: order, how far ahead, errors."""

from __future__ import annotations

import pytest

from solver.tables.files import in_threads, one_ahead, rows_in_threads, write_table


def test_one_ahead_keeps_order_and_raises_in_the_caller() -> None:
    assert list(one_ahead(iter(range(7)))) == list(range(7))

    def failing():
        yield 1
        raise ValueError("bad part")

    with pytest.raises(ValueError, match="bad part"):
        list(one_ahead(failing()))


def test_in_threads_keeps_order_and_draws_at_most_its_threads_ahead() -> None:
    drawn = []

    def items():
        for i in range(20):
            drawn.append(i)
            yield i

    for n, result in enumerate(in_threads(lambda i: i * i, items(), threads=3)):
        assert result == n * n
        assert len(drawn) <= n + 3  # never more than three drawn ahead of the one handed back
    assert len(drawn) == 20


def test_in_threads_raises_the_work_error_in_the_caller() -> None:
    def work(i: int) -> int:
        if i == 4:
            raise ValueError(f"item {i}")
        return i

    with pytest.raises(ValueError, match="item 4"):
        list(in_threads(work, range(10), threads=2))


@pytest.mark.parametrize("n_rows", [0, 1, 2, 3, 1001])
def test_rows_in_threads_gives_what_one_call_over_every_row_gives(n_rows: int) -> None:
    import numpy as np

    from solver.game.config import DEFAULT_CONFIG
    from solver.game.symmetry_kernels import pattern_powers
    from solver.staged.stages import _hold_keys

    geometry = DEFAULT_CONFIG.geometry
    rng = np.random.default_rng(n_rows)
    cards = np.array([rng.choice(geometry.n_suited, 8, replace=False) for _ in range(n_rows)], np.int64).reshape(-1, 8)
    hands, deads = np.sort(cards[:, :6], axis=1), np.sort(cards[:, 6:], axis=1)  # six distinct: 15 holds each
    choice = rng.integers(0, 15, n_rows)
    fixed = (geometry.suits, geometry.ranks, pattern_powers(geometry))
    whole, sliced = np.full(n_rows, -1, np.int64), np.full(n_rows, -2, np.int64)
    _hold_keys(hands, deads, choice, *fixed, whole)
    rows_in_threads(_hold_keys, (hands, deads, choice), fixed, sliced, threads=3)
    assert np.array_equal(whole, sliced)


def test_tables_are_written_with_each_column_kind_encoded_as_chosen(tmp_path) -> None:
    """Floating-point columns (list elements too) byte-stream-split, text dictionary-encoded, integers plain;
    the table read back is the one written."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table({"key": pa.array([3, 1, 2], pa.int64()), "ev": [0.5, -1.25, 2.0],
                      "evs": pa.array([[1.0, 2.5], [0.0, -3.0], [7.0, 8.0]], pa.list_(pa.float64(), 2)),
                      "hand": ["1m2m", "3p", "1m2m"]})
    path = tmp_path / "t.parquet"
    write_table(path, table, {b"k": b"v"})
    assert pq.read_table(path).replace_schema_metadata(None).equals(table)
    group = pq.ParquetFile(path).metadata.row_group(0)
    encodings = {group.column(i).path_in_schema: group.column(i).encodings for i in range(group.num_columns)}
    assert "BYTE_STREAM_SPLIT" in encodings["ev"] and "BYTE_STREAM_SPLIT" in encodings["evs.list.element"]
    assert any("DICTIONARY" in e for e in encodings["hand"])
    assert not any("DICTIONARY" in e or e == "BYTE_STREAM_SPLIT" for e in encodings["key"])


def test_a_table_or_summary_written_again_unchanged_keeps_the_old_file(tmp_path) -> None:
    """A solve again into a clone must leave the committed tables as they were (git sees no change, a pull no
    conflict): a file whose values and metadata differ only in timing is kept, bytes and date; any other
    difference replaces it."""
    import json
    import os

    import pyarrow as pa

    from solver.tables.files import METADATA_KEY, write_json

    def meta(created: str, version: str = "1") -> dict:
        return {METADATA_KEY: json.dumps({"created": created, "version": version}).encode()}

    path = tmp_path / "t.parquet"
    write_table(path, pa.table({"ev": [0.5, 1.5], "seconds": [10.0, 10.0]}), meta("monday"), keep_same=True)
    before = path.read_bytes()
    os.utime(path, (1, 1))
    write_table(path, pa.table({"ev": [0.5, 1.5], "seconds": [11.0, 12.0]}), meta("tuesday"), keep_same=True)
    assert path.read_bytes() == before and path.stat().st_mtime == 1 and not list(tmp_path.glob("*.tmp"))
    write_table(path, pa.table({"ev": [0.5, 1.5], "seconds": [11.0, 12.0]}), meta("tuesday"))  # no keep_same
    assert path.stat().st_mtime != 1
    for changed in (meta("monday", version="2"), {**meta("monday"), b"edited": b"yes"}):
        before = path.read_bytes()
        write_table(path, pa.table({"ev": [0.5, 1.5], "seconds": [10.0, 10.0]}), changed, keep_same=True)
        assert path.read_bytes() != before
    before = path.read_bytes()
    write_table(path, pa.table({"ev": [0.5, 1.25], "seconds": [10.0, 10.0]}), meta("monday"), keep_same=True)
    assert path.read_bytes() != before

    summary = tmp_path / "summary.json"
    write_json(summary, {"ev": 0.25, "seconds": 3.0, "stage_seconds": {"holds": 2.0}}, keep_same=True)
    write_json(summary, {"ev": 0.25, "seconds": 4.0, "stage_seconds": {"holds": 3.0}}, keep_same=True)
    assert json.loads(summary.read_text())["seconds"] == 3.0
    write_json(summary, {"ev": 0.5, "seconds": 4.0, "stage_seconds": {"holds": 3.0}}, keep_same=True)
    assert json.loads(summary.read_text()) == {"ev": 0.5, "seconds": 4.0, "stage_seconds": {"holds": 3.0}}
