"""The query index of a table directory: the parquet files' values bit for bit, never stale, and a
table query that loads neither pyarrow nor numpy."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from solver.errors import InputError
from solver.game.config import GameConfig, load_config
from solver.products.query import best_play
from solver.tables.files import read_metadata, write_table
from solver.tables.index import index_path, open_index

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
    holds = pq.read_table(TABLES / "holds.parquet", columns=["key", "evs"]).to_pylist()
    for row in holds:
        assert index.lookup("holds", row["key"]) == tuple(row["evs"])
    firsts = pq.read_table(TABLES / "firsts.parquet", columns=["key", "ev", "ev_dd"]).to_pylist()
    for row in firsts:
        assert index.lookup("firsts", row["key"]) == (row["ev"], row["ev_dd"])
    assert index.lookup("holds", -1) is None and index.lookup("firsts", holds[0]["key"] + 1) is None
    assert index.lookup("deals", firsts[0]["key"]) is None  # not a table the index holds


def test_a_changed_table_gets_a_new_index(tmp_path: Path) -> None:
    copy = _copy_tables(tmp_path)
    before = index_path(copy)
    assert before == index_path(TABLES)  # named by content, not by place
    _rewrite(copy / "summary.parquet", lambda table, metadata: (table, {**metadata, b"edited": b"yes"}))
    assert index_path(copy) != before


def test_a_damaged_index_is_deleted_and_built_again() -> None:
    assert open_index(TABLES) is not None
    index_path(TABLES).write_bytes(b"not an index")
    assert open_index(TABLES, build=False) is None and not index_path(TABLES).exists()
    assert open_index(TABLES) is not None


def test_tables_with_a_repeated_row_are_answered_from_parquet(tmp_path: Path) -> None:
    """The solve writes one row per state; a file with two is not indexed, and the parquet lookup
    answers with the first."""
    copy = _copy_tables(tmp_path)
    first = pq.read_table(copy / "firsts.parquet").slice(0, 1)
    altered = first.set_column(first.schema.get_field_index("ev"), "ev", pa.array([9.0]))
    _rewrite(copy / "firsts.parquet", lambda table, metadata: (pa.concat_tables([first, altered, table.slice(1)]),
                                                                metadata))
    assert open_index(copy) is None
    hand = pq.read_table(copy / "deals.parquet", columns=["hand"]).slice(0, 1).to_pylist()[0]["hand"]
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
    """The same options, bit for bit, for deals and for draws with and without double-down."""
    copy = _copy_tables(tmp_path)
    deals = pq.read_table(copy / "deals.parquet", columns=["hand"]).to_pylist()
    draws = pq.read_table(copy / "draws.parquet", columns=["hand", "dead"]).to_pylist()
    queries = ([((d["hand"],), {}) for d in deals[::57]]
               + [((d["hand"],), {"dead": d["dead"], "double_down": dd}) for d in draws[::997] for dd in (0.0, 1.0)])
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("MAHJONG_POKER_CACHE", str(blocker))
    assert open_index(copy) is None
    from_parquet = [best_play(*args, CONFIG, tables=copy, **kw) for args, kw in queries]
    monkeypatch.undo()
    assert open_index(copy) is not None
    from_index = [best_play(*args, CONFIG, tables=copy, **kw) for args, kw in queries]
    for a, b in zip(from_parquet, from_index):
        assert a.source == b.source == "tables"
        assert a.options == b.options


@pytest.mark.parametrize("stage", ["deal", "draw"])
def test_a_table_query_loads_neither_pyarrow_nor_numpy(stage: str) -> None:
    open_index(TABLES)  # built once; a query then reads it
    if stage == "deal":
        query = [pq.read_table(TABLES / "deals.parquet", columns=["hand"]).slice(300, 1).to_pylist()[0]["hand"]]
    else:
        row = pq.read_table(TABLES / "draws.parquet", columns=["hand", "dead"]).slice(1000, 1).to_pylist()[0]
        query = [row["hand"], "--dead", row["dead"]]
    code = ("import sys; from solver.cli import main; "
            f"code = main(['best', *{query!r}, '--config', {str(CONFIG_PATH)!r}, '--tables', {str(TABLES)!r}]); "
            "heavy = sorted(m for m in ('numpy', 'pyarrow', 'numba') if m in sys.modules); "
            "assert code == 0 and not heavy, heavy")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"EVs from the tables in {TABLES}" in done.stdout


def test_a_damaged_index_is_answered_from_parquet() -> None:
    """An index cut short after it was opened: the lookup fails, the index is deleted, parquet answers."""
    hand = pq.read_table(TABLES / "deals.parquet", columns=["hand"]).slice(200, 1).to_pylist()[0]["hand"]
    expected = best_play(hand, CONFIG, tables=TABLES).options
    path = index_path(TABLES)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])
    again = best_play(hand, CONFIG, tables=TABLES)
    assert again.source == "tables" and again.options == expected
    assert not path.exists() or path.stat().st_size == len(data)  # deleted, or built again whole


def test_a_clone_without_the_large_table_answers_deals(tmp_path: Path, capsys) -> None:
    """The committed real-deck tables lack stage A: deal queries read stage C; a draw query is answered by the
    evaluator, the same EVs as stage A's to 1e-12, and says what would add the table."""
    from solver.cli import main

    copy = _copy_tables(tmp_path)
    (copy / "holds.parquet").unlink()
    hand = pq.read_table(TABLES / "deals.parquet", columns=["hand"]).slice(100, 1).to_pylist()[0]["hand"]
    assert best_play(hand, CONFIG, tables=copy).options == best_play(hand, CONFIG, tables=TABLES).options
    evaluated = best_play("1234m 12p", CONFIG, dead="3p 4s", tables=copy)
    read = best_play("1234m 12p", CONFIG, dead="3p 4s", tables=TABLES)
    assert (evaluated.source, read.source) == ("evaluator", "tables")
    assert [o.ev for o in evaluated.options] == pytest.approx([o.ev for o in read.options], abs=1e-12)
    assert main(["best", "1234m 12p", "--dead", "3p 4s", "--config", str(CONFIG_PATH), "--tables", str(copy)]) == 0
    assert f"lacks holds.parquet, which mahjong-poker solve --config {CONFIG_PATH} --out" in capsys.readouterr().out


def test_damaged_tables_are_refused_with_a_message(tmp_path: Path, capsys) -> None:
    from solver.cli import main

    copy = _copy_tables(tmp_path)
    data = (copy / "firsts.parquet").read_bytes()
    (copy / "firsts.parquet").write_bytes(data[: len(data) // 2])
    hand = pq.read_table(TABLES / "deals.parquet", columns=["hand"]).slice(200, 1).to_pylist()[0]["hand"]
    assert main(["best", hand, "--config", str(CONFIG_PATH), "--tables", str(copy)]) == 2
    assert "firsts.parquet cannot be read" in capsys.readouterr().err
