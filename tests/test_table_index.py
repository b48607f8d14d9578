"""The query index of a table directory: the parquet files' rows bit for bit, never stale, and a
table query that loads neither pyarrow nor numpy."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from solver.cards import parse_cards
from solver.config import GameConfig, load_config
from solver.errors import InputError
from solver.query import best_play
from solver.table_index import OPTION_COLUMNS, index_path, open_index
from solver.tables import read_metadata, write_table

ROOT = Path(__file__).parent.parent
TABLES = ROOT / "strategy_tables" / "reduced-3x4"
CONFIG_PATH = ROOT / "configs" / "reduced-3x4.toml"
CONFIG = load_config(CONFIG_PATH)


@pytest.fixture(autouse=True, scope="module")
def cache(tmp_path_factory):
    """A cache folder of this module's own, so the tests build their indexes and leave the user's alone."""
    with pytest.MonkeyPatch.context() as patch:
        folder = tmp_path_factory.mktemp("cache")
        patch.setenv("MAHJONG_POKER_CACHE", str(folder))
        yield folder


def _copy_tables(tmp_path: Path) -> Path:
    copy = tmp_path / "tables"
    shutil.copytree(TABLES, copy)
    return copy


def _rewrite(path: Path, change) -> None:
    """Rewrite a parquet file with ``change(table, metadata)`` applied, keeping its metadata."""
    table = pq.read_table(path)
    metadata = dict(table.schema.metadata)
    write_table(path, *change(table, metadata))


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
    copy = _copy_tables(tmp_path)
    before = index_path(copy)
    assert before == index_path(TABLES)  # named by content, not by place
    _rewrite(copy / "summary.parquet", lambda table, metadata: (table, {**metadata, b"edited": b"yes"}))
    assert index_path(copy) != before


def test_a_damaged_index_is_deleted_and_built_again() -> None:
    assert open_index(TABLES) is not None
    index_path(TABLES).write_bytes(b"not a database")
    assert open_index(TABLES, build=False) is None and not index_path(TABLES).exists()
    assert open_index(TABLES) is not None


def test_tables_with_a_repeated_row_are_answered_from_parquet(tmp_path: Path) -> None:
    """The solve writes one row per state; a file with two is not indexed, and the parquet lookup
    answers with the first."""
    copy = _copy_tables(tmp_path)
    first = pq.read_table(copy / "deals.parquet").slice(0, 1)
    altered = first.set_column(first.schema.get_field_index("evs"), "evs", pa.array([[9.0] * len(first["evs"][0])]))
    _rewrite(copy / "deals.parquet", lambda table, metadata: (pa.concat_tables([first, altered, table.slice(1)]),
                                                               metadata))
    assert open_index(copy) is None
    hand = first["hand"][0].as_py()
    assert best_play(hand, CONFIG, tables=copy).options == best_play(hand, CONFIG, tables=TABLES).options


def test_no_index_for_other_tables_nor_for_a_ting_query() -> None:
    other = GameConfig(suits=3, ranks=4, copies=2, jokers=1, tian_hu=9.0)
    open_index(TABLES)
    index_path(TABLES).unlink()
    with pytest.raises(InputError, match="made for another solve"):
        best_play("12m 34p 1s J", other, tables=TABLES)
    best_play("12m 3p 4s", CONFIG, dead="4p 1s 2s 3s", community="3m 1p 4m 3s", fa_bet=1.0, tables=TABLES)
    assert not index_path(TABLES).exists()


def test_without_a_writable_cache_the_parquet_files_answer(tmp_path: Path, monkeypatch) -> None:
    """The same options, bit for bit, for deals and for draws with and without double-down.

    Optimal play on the committed decks never doubles down, so a copy of the
    tables marks every other draw row as doubled down (DD = 1, a float key).
    """
    copy = _copy_tables(tmp_path)
    config = CONFIG
    assert config.double_down == 1.0

    def mark(table: pa.Table, metadata: dict) -> tuple:
        dd = [float(i % 2) for i in range(table.num_rows)]
        return table.set_column(table.schema.get_field_index("double_down"), "double_down", pa.array(dd)), metadata

    _rewrite(copy / "draws.parquet", mark)
    deals = pq.read_table(copy / "deals.parquet", columns=["hand"]).to_pylist()
    draws = pq.read_table(copy / "draws.parquet", columns=["hand", "dead", "double_down"]).to_pylist()
    queries = ([((d["hand"],), {}) for d in deals[::97]]
               + [((d["hand"],), {"dead": d["dead"], "double_down": d["double_down"]}) for d in draws[::997]])
    assert {kw.get("double_down") for _, kw in queries} == {None, 0.0, 1.0}
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("MAHJONG_POKER_CACHE", str(blocker))
    assert open_index(copy) is None
    from_parquet = [best_play(*args, config, tables=copy, **kw) for args, kw in queries]
    monkeypatch.undo()
    assert open_index(copy) is not None
    from_index = [best_play(*args, config, tables=copy, **kw) for args, kw in queries]
    for a, b in zip(from_parquet, from_index):
        assert a.source == b.source == "tables"
        assert a.options == b.options


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


def test_a_damaged_row_in_the_index_is_answered_from_parquet() -> None:
    import sqlite3

    from solver.symmetry import encode

    hand = pq.read_table(TABLES / "deals.parquet", columns=["hand"]).slice(200, 1).to_pylist()[0]["hand"]
    expected = best_play(hand, CONFIG, tables=TABLES).options
    path = index_path(TABLES)
    key = encode(CONFIG.geometry, tuple(sorted(parse_cards(hand, CONFIG.geometry))))
    with sqlite3.connect(path) as db:
        assert db.execute("UPDATE deals SET options = ? WHERE key = ?", (b"junk", key)).rowcount == 1
    again = best_play(hand, CONFIG, tables=TABLES)
    assert again.source == "tables" and again.options == expected
    assert not path.exists()  # deleted, to be built again


def test_damaged_tables_are_refused_with_a_message(tmp_path: Path, capsys) -> None:
    from solver.cli import main

    copy = _copy_tables(tmp_path)
    data = (copy / "deals.parquet").read_bytes()
    (copy / "deals.parquet").write_bytes(data[: len(data) // 2])
    hand = pq.read_table(TABLES / "deals.parquet", columns=["hand"]).slice(200, 1).to_pylist()[0]["hand"]
    assert main(["best", hand, "--config", str(CONFIG_PATH), "--tables", str(copy)]) == 2
    assert "cannot read the tables in" in capsys.readouterr().err
