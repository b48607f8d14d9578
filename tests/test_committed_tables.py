"""The tables committed in strategy_tables/ still match the code: a format or version change, or a
change in any number, must come with regenerated tables (the command is in strategy_tables/README.md)."""

from __future__ import annotations

from fractions import Fraction
from math import comb
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from solver.game.config import load_config
from solver.products.query import best_play
from solver.staged.run import load_summary

ROOT = Path(__file__).parent.parent
TABLES = ROOT / "strategy_tables" / "reduced-3x4"
CONFIG = load_config(ROOT / "configs" / "reduced-3x4.toml")


def test_committed_reduced_deck_tables_load_and_are_consistent() -> None:
    # The exact EV is the solve's own figure, pinned as a regression guard (its independent checks are the
    # plain-game-tree tests on smaller decks and the simulation in the README), not an independent value.
    summary = load_summary(TABLES, CONFIG)
    assert summary.ev_exact == Fraction(36806465445697, 7730167945500)
    assert float(summary.ev_exact) == pytest.approx(summary.ev, abs=1e-12)
    assert sum(pq.read_table(TABLES / "deals.parquet")["weight"].to_pylist()) == comb(25, 6)


def test_committed_tables_answer_as_the_evaluator_does() -> None:
    hand = pq.read_table(TABLES / "deals.parquet", columns=["hand"]).slice(300, 1).to_pylist()[0]["hand"]
    from_tables = best_play(hand, CONFIG, tables=TABLES)
    direct = best_play(hand, CONFIG)
    assert from_tables.source == "tables" and from_tables.best == direct.best
    assert [o.ev for o in from_tables.options] == pytest.approx([o.ev for o in direct.options], abs=1e-12, rel=0)


REAL = ROOT / "strategy_tables" / "7981a1455f0f2315"


def test_committed_real_deck_tables() -> None:
    """The real deck's small tables: the exact EV (a regression guard: its independent checks are
    scripts/check_tables.py and the simulation, docs/correctness.md), the classes and their weights."""
    from solver.game.config import DEFAULT_CONFIG

    assert DEFAULT_CONFIG.fingerprint() == REAL.name
    summary = load_summary(REAL, DEFAULT_CONFIG)
    assert summary.ev_exact == Fraction(73828226987093998399, 776010501509611368000)
    assert sum(r.probability for r in summary.outcomes) == 1
    deals = pq.read_table(REAL / "deals.parquet", columns=["weight"])
    assert deals.num_rows == 38_454 and sum(deals["weight"].to_pylist()) == comb(82, 6)
    assert pq.read_metadata(REAL / "firsts.parquet").num_rows == 406_468


#: Two and three 82-card decks (configs/two-decks.toml, three-decks.toml): their committed summary and return
#: table. The EVs are what the solve gave (5-9 minutes each on 2 cores), pinned as regression guards: the
#: independent checks of three decks are the plain game trees on smaller decks (docs/correctness.md).
DECKS = {"b5c5681fd3bda0a3": ("two-decks.toml", 2, Fraction(63930116291978475434913151, 174000309467371896795468000)),
         "29ceb7ff00ffc814": ("three-decks.toml", 3,
                              Fraction(113448637284377238696410204131, 247412595100142504612709629500))}


@pytest.mark.parametrize("folder", sorted(DECKS))
def test_committed_two_and_three_deck_summaries(folder: str) -> None:
    """The exact EV (a regression guard), and the return table adding up to it exactly: every card
    sequence of 82 x decks cards counted once, each outcome's net times its count."""
    name, decks, ev = DECKS[folder]
    config = load_config(ROOT / "configs" / name)
    assert config.fingerprint() == folder and config.decks == decks
    summary = load_summary(ROOT / "strategy_tables" / folder, config)
    assert summary.ev_exact == ev
    assert sum(r.combinations for r in summary.outcomes) == summary.denominator
    assert sum(Fraction(r.net) * r.combinations for r in summary.outcomes) / summary.denominator == ev
    assert summary.deals == comb(82 * decks, 6)


@pytest.mark.slow
def test_committed_real_deck_deal_query_equals_the_evaluator() -> None:
    """A deal query on a clone (15 rows of stage C, no stage A) against the evaluator from scratch."""
    from solver.game.config import DEFAULT_CONFIG

    from_tables = best_play("19m 23p 5s J", DEFAULT_CONFIG, tables=REAL)
    direct = best_play("19m 23p 5s J", DEFAULT_CONFIG, n_jobs=-1)
    assert from_tables.source == "tables" and from_tables.best == direct.best
    assert [o.ev for o in from_tables.options] == pytest.approx([o.ev for o in direct.options], abs=1e-12, rel=0)


#: Digests of the committed tables' contents (solver.tables.files.content_digest: names, types and values,
#: not the writer's metadata or the solve's duration). A regenerated table that changes any value fails here:
#: update the digest in the same commit, saying why the numbers moved.
COMMITTED_DIGESTS = {
    "reduced-3x4": {"deals": "937b3b48366386f2", "draws": "91a8f7f90e5c27e3", "firsts": "5f554dffbd3d99f8",
                    "holds": "93a541adb8d4408b", "outcomes": "2c4ad041fd5e813b", "summary": "b41e2e5dbc98da16"},
    "7981a1455f0f2315": {"deals": "8347d2ff243bf529", "firsts": "89a3de7bf1bda6d8", "outcomes": "772287d9b0d2bafd",
                         "summary": "645f59caeb388091"},
    "b5c5681fd3bda0a3": {"outcomes": "225f1f1e50cfba75", "summary": "3c8129926bada1e9"},  # two decks
    "29ceb7ff00ffc814": {"outcomes": "c01f38c84b9a6b62", "summary": "fa22ebf4c2b1787e"},  # three decks
}


def committed_digests(folder: Path, names: dict[str, str]) -> dict[str, str]:
    """The content digests of the committed tables in ``folder``. Only those: a solve into the same folder
    (the README's first command) adds its large tables beside them, which are the user's, not the project's."""
    from solver.tables.files import content_digest

    return {name: content_digest(folder / f"{name}.parquet") for name in names}


@pytest.mark.parametrize("directory", sorted(COMMITTED_DIGESTS))
def test_committed_tables_contents_are_pinned(directory: str) -> None:
    pinned = COMMITTED_DIGESTS[directory]
    assert committed_digests(ROOT / "strategy_tables" / directory, pinned) == pinned


def test_the_pin_holds_beside_a_solves_large_tables(tmp_path: Path) -> None:
    """After `mahjong-poker solve` has written holds, draws and tracking beside the committed tables, the
    pin still reads the committed ones (a solve must never break the tests); a changed committed one fails."""
    import shutil

    folder = tmp_path / "tables"
    shutil.copytree(TABLES, folder)
    pinned = COMMITTED_DIGESTS["reduced-3x4"]
    shutil.copy(TABLES / "holds.parquet", folder / "tracking.parquet")  # stands for a solve's extra table
    assert committed_digests(folder, pinned) == pinned
    shutil.copy(TABLES / "deals.parquet", folder / "firsts.parquet")
    assert committed_digests(folder, pinned) != pinned


def test_content_digest_sees_a_changed_value(tmp_path: Path) -> None:
    """The pin can fail: one value changed in one cell changes the digest."""
    import pyarrow as pa

    from solver.tables.files import content_digest

    table = pq.read_table(TABLES / "firsts.parquet")
    pq.write_table(table, tmp_path / "same.parquet")
    evs = table["ev"].to_numpy().copy()
    evs[7] += 2**-40
    pq.write_table(table.set_column(table.column_names.index("ev"), "ev", pa.array(evs)), tmp_path / "moved.parquet")
    assert content_digest(tmp_path / "same.parquet") == content_digest(TABLES / "firsts.parquet")
    assert content_digest(tmp_path / "moved.parquet") != content_digest(TABLES / "firsts.parquet")


def _lines(stage: dict) -> list[tuple]:
    return [(r["entry"], r["bet"], r["max_touching"], r["example"]) for r in stage["rules"]]


@pytest.mark.slow
def test_committed_reduced_deck_report_is_reproduced(tmp_path: Path) -> None:
    """The reduced deck's committed chart is what the code derives from the committed tables: the same
    lines, losses and exact whole-chart EV (the chart's own solve, made in a copy of the tables)."""
    import json
    import shutil

    from solver.products.chart import build_chart

    tables = tmp_path / TABLES.name
    shutil.copytree(TABLES, tables)
    committed = json.loads((ROOT / "docs" / "report-reduced-3x4" / "chart.json").read_text())
    chart = build_chart(CONFIG, tables, exact=True, n_jobs=2).to_json()
    for stage in ("deal", "draw"):
        assert _lines(chart[stage]) == _lines(committed[stage])
        assert chart[stage]["loss"] == pytest.approx(committed[stage]["loss"], abs=1e-12)
    assert chart["exact"]["ev_exact"] == committed["exact"]["ev_exact"]
    assert Fraction(committed["exact"]["ev_exact"]) <= load_summary(TABLES, CONFIG).ev_exact


@pytest.mark.slow
def test_committed_real_deck_report_deal_list_is_reproduced() -> None:
    """The real deck's committed deal list is what the code derives from the committed deal table (the
    draw list needs the draw table, too large to commit: `mahjong-poker chart` on a solve remakes it);
    the committed whole chart is no better than optimal play."""
    import json

    from solver.game.config import DEFAULT_CONFIG
    from solver.products.chart import build_stage_chart

    committed = json.loads((ROOT / "docs" / "report-real" / "chart.json").read_text())
    deal = build_stage_chart("deal", DEFAULT_CONFIG, REAL)
    assert _lines({"rules": [r.__dict__ for r in deal.rules]}) == _lines(committed["deal"])
    assert deal.loss == pytest.approx(committed["deal"]["loss"], abs=1e-12)
    optimal = load_summary(REAL, DEFAULT_CONFIG).ev_exact
    assert 0 < optimal - Fraction(committed["exact"]["ev_exact"]) == Fraction(committed["exact"]["loss_exact"])


def test_real_deck_par_sheet_compares_one_two_and_three_decks(capsys) -> None:
    """The real game's par sheet (``edge``, and the report's HTML) shows the committed solves of one, two and
    three decks side by side, each row its own solve's exact EV; a configuration with no other deck count
    solved shows no such section."""
    import json

    from solver.cli import main
    from solver.game.config import DEFAULT_CONFIG
    from solver.products.edge import par_sheet, par_sheet_document
    from solver.render.document import to_html

    sheet = par_sheet(DEFAULT_CONFIG, REAL, quiet=True)
    rows = {r.decks: r.summary.ev_exact for r in sheet.decks}
    assert rows == {1: Fraction(73828226987093998399, 776010501509611368000), **{d: ev for _, d, ev in DECKS.values()}}
    assert sheet.decks_missing == () and "One, two and three decks" in to_html(par_sheet_document(sheet), "t")
    assert main(["edge", "--tables", str(REAL), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["decks"]
    assert [Fraction(r["ev_exact"]) for r in data["rows"]] == [rows[1], rows[2], rows[3]]
    assert [r["cards"] for r in data["rows"]] == [82, 164, 246] and data["not_solved"] == []
    reduced = par_sheet(CONFIG, TABLES, quiet=True)
    assert [r.decks for r in reduced.decks] == [1] and "decks" not in reduced.to_json()
    assert not any("decks" in getattr(b, "text", "") for b in par_sheet_document(reduced))
