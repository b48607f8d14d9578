"""The query index of a table directory: the parquet files' rows bit for bit, never stale, and a
table query that loads neither pyarrow nor numpy."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from solver.config import load_config
from solver.query import best_play
from solver.table_index import OPTION_COLUMNS, index_path, open_index
from solver.tables import read_metadata, write_table

ROOT = Path(__file__).parent.parent
TABLES = ROOT / "strategy_tables" / "reduced-3x4"
CONFIG_PATH = ROOT / "configs" / "reduced-3x4.toml"
CONFIG = load_config(CONFIG_PATH)


def test_the_index_holds_every_row_of_the_tables() -> None:
    index = open_index(TABLES)
    assert index is not None
    assert index.metadata() == read_metadata(TABLES / "summary.parquet")
    deals = pq.read_table(TABLES / "deals.parquet", columns=["key", *OPTION_COLUMNS]).to_pylist()
    for row in deals:
        assert index.deal(row.pop("key")) == row
    draws = pq.read_table(TABLES / "draws.parquet", columns=["key", "double_down", *OPTION_COLUMNS]).to_pylist()
    assert len({(r["key"], r["double_down"]) for r in draws}) == len(draws) > 20_000
    some_key = draws[0]["key"]
    for row in draws:
        assert index.draw(row.pop("key"), row.pop("double_down")) == row
    assert index.deal(-1) is None and index.draw(some_key, 0.5) is None


def test_a_changed_table_gets_a_new_index(tmp_path: Path) -> None:
    copy = tmp_path / "tables"
    shutil.copytree(TABLES, copy)
    before = index_path(copy)
    assert before == index_path(TABLES)  # named by content, not by place
    summary = pq.read_table(copy / "summary.parquet")
    metadata = {k: v for k, v in summary.schema.metadata.items()}
    metadata[b"edited"] = b"yes"
    write_table(copy / "summary.parquet", summary, metadata)
    assert index_path(copy) != before


def test_without_a_writable_cache_the_parquet_files_answer(tmp_path: Path, monkeypatch) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("MAHJONG_POKER_CACHE", str(blocker))
    assert open_index(TABLES) is None
    hand = pq.read_table(TABLES / "deals.parquet", columns=["hand"]).slice(300, 1).to_pylist()[0]["hand"]
    from_parquet = best_play(hand, CONFIG, tables=TABLES)
    monkeypatch.delenv("MAHJONG_POKER_CACHE")
    from_index = best_play(hand, CONFIG, tables=TABLES)
    assert from_parquet.source == from_index.source == "tables"
    assert from_parquet.options == from_index.options


@pytest.mark.parametrize("stage", ["deal", "draw"])
def test_a_table_query_loads_neither_pyarrow_nor_numpy(stage: str) -> None:
    open_index(TABLES)  # built once; a query then reads it
    if stage == "deal":
        query = [pq.read_table(TABLES / "deals.parquet", columns=["hand"]).slice(500, 1).to_pylist()[0]["hand"]]
    else:
        row = pq.read_table(TABLES / "draws.parquet", columns=["hand", "dead"]).slice(1000, 1).to_pylist()[0]
        query = [row["hand"], "--dead", row["dead"]]
    code = ("import sys; from solver.cli import main; "
            f"code = main(['best', *{query!r}, '--config', {str(CONFIG_PATH)!r}, '--tables', {str(TABLES)!r}]); "
            "heavy = sorted(m for m in ('numpy', 'pyarrow', 'numba') if m in sys.modules); "
            "assert code == 0 and not heavy, heavy")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "EVs from the solve's tables" in done.stdout
