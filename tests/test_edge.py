"""The par sheet (``mahjong-poker edge``): invariants of the return table, JSON schema, the bonus both ways."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from solver.cli import main
from solver.game.bonus import bonus_table
from solver.game.config import GameConfig
from solver.products.edge import par_sheet
from tests.conftest import TWO_SUITS_TOML

TWO_SUITS = GameConfig(suits=2, ranks=4, copies=2, jokers=1)


@pytest.fixture(scope="module")
def sheet(two_suit_tables):
    return par_sheet(TWO_SUITS, two_suit_tables, n_jobs=2, quiet=True)


def test_return_table_sums(sheet) -> None:
    """Probabilities sum to exactly 1; returns sum to the EV; the exact house edge is -EV."""
    s = sheet.summary
    assert sum((r.probability for r in s.outcomes), Fraction(0)) == 1
    assert sum(r.combinations for r in s.outcomes) == s.denominator
    assert sum(r.contribution for r in s.outcomes) == pytest.approx(float(s.ev_exact), abs=1e-12)
    data = sheet.to_json()
    assert Fraction(data["house_edge_exact"]) == -Fraction(data["ev_exact"])
    assert sum(data["average_bets"].values()) == pytest.approx(data["average_total_bet"], abs=1e-12)
    assert data["element_of_risk"] == pytest.approx(data["house_edge"] / data["average_total_bet"], abs=1e-12)
    fa = data["decisions"]["fa_hu_bet"]
    folds = data["decisions"]["fold_fa_hu"] + data["decisions"]["claim_di_hu"] + data["decisions"]["claim_tian_hu"]
    assert sum(fa.values()) + folds == pytest.approx(1.0, abs=1e-12)  # every hand ends one of these ways


def test_json_schema(sheet, tmp_path: Path, capsys) -> None:
    config = tmp_path / "two.toml"
    config.write_text(TWO_SUITS_TOML)
    assert main(["edge", "--config", str(config), "--tables", sheet.summary.directory, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for key in ("ev", "house_edge", "element_of_risk", "average_total_bet", "std_dev", "outcomes", "decisions"):
        assert key in data
    for row in data["outcomes"]:
        assert {"outcome", "net", "probability", "return"} <= set(row)
    assert sum(o["probability"] for o in data["outcomes"]) == pytest.approx(1.0, abs=1e-12)
    assert data["bonus_every_bet_settled"]["ev"] == bonus_table(TWO_SUITS).ev
    placed = data["bonus_per_bet_placed"]  # the same loss over the hands on which the bonus is settled
    assert placed["house_edge_per_bet_settled"] == pytest.approx(placed["house_edge"] / placed["settled"], rel=1e-15)
    assert main(["edge", "--config", str(config), "--tables", sheet.summary.directory]) == 0
    out = capsys.readouterr().out
    assert "element of risk" in out and "house edge" in out and "per bet placed" in out


def test_bonus_both_ways(sheet) -> None:
    """The bonus-aware strategy maximises main + B x bonus, so it does at least as well on that sum,
    and no better on the main game alone, than the main-game-optimal strategy."""
    both = par_sheet(TWO_SUITS, sheet.summary.directory, bonus=5.0, n_jobs=2, quiet=True).bonus
    assert both is not None
    data = both.to_json()
    a, b = data["main_optimal"], data["bonus_aware"]
    assert b["total_ev"] >= a["total_ev"] - 1e-12 and a["main_game_ev"] >= b["main_game_ev"] - 1e-12
    assert b["total_ev"] == pytest.approx(both.bonus_aware.ev, abs=1e-12)  # the solve's objective
    tables = Path(sheet.summary.directory)
    assert (tables.parent / f"{tables.name}-bonus5.0" / "summary.parquet").exists()  # beside the main tables


def test_simple_strategies_are_evaluated_exactly_and_never_beat_optimal(sheet, two_suit_tables) -> None:
    """Each restricted strategy is a solve of its own; optimal play is at least as good as each, and
    each obeys its rule (the rates come from its own exact outcome counts)."""
    compared = par_sheet(TWO_SUITS, two_suit_tables, n_jobs=2, quiet=True, compare=True)
    optimal = float(compared.summary.ev_exact)
    by_name = dict(compared.strategies)
    assert set(by_name) == {"no-double-down", "always-claim-tian-hu", "minimum-bets"}
    for summary in by_name.values():
        assert float(summary.ev_exact) <= optimal + 1e-12
    assert by_name["no-double-down"].decisions()["double_down"] == 0
    assert by_name["always-claim-tian-hu"].decisions()["decline_tian_hu"] == 0
    assert compared.summary.decisions()["decline_tian_hu"] > 0  # on this deck optimal play declines some
    assert float(by_name["always-claim-tian-hu"].ev_exact) < optimal - 1e-6
    minimum = by_name["minimum-bets"].decisions()
    assert set(minimum["fa_hu_bet"]) <= {"1"} and set(minimum["ting_hu_bet"]) <= {"F=1 G=1"}
    assert float(by_name["minimum-bets"].ev_exact) < optimal - 1e-6
    rows = compared.to_json()["strategies"]
    assert rows[0]["strategy"] == "optimal" and all(r["loss_vs_optimal"] >= -1e-12 for r in rows)


def test_tables_of_another_objective_are_not_reported_as_optimal(two_suit_tables) -> None:
    from solver.errors import InputError
    from solver.staged.run import solve

    restricted = two_suit_tables.parent / (two_suit_tables.name + "-no-double-down")
    if not (restricted / "summary.parquet").exists():  # the comparison test makes it when run first
        solve(TWO_SUITS, restricted, restriction="no-double-down", n_jobs=2, quiet=True)
    with pytest.raises(InputError, match="restriction"):
        par_sheet(TWO_SUITS, restricted, quiet=True)


def test_decks_section_names_the_deck_counts_not_solved(sheet) -> None:
    """With another deck count solved and one not, the section shows the solved rows and says how to solve
    the missing one; with none but the sheet's own, there is no section."""
    from dataclasses import replace as with_

    from solver.products.decks import DeckRow, decks_document
    from solver.render.document import Table, to_markdown

    own = DeckRow(1, 32, sheet.summary)
    assert decks_document([own], [2, 3], current=1) == []
    other = DeckRow(2, 64, with_(sheet.summary, ev_exact=Fraction(1, 3)))
    blocks = decks_document([own, other], [3], current=1)
    table = next(b for b in blocks if isinstance(b, Table))
    assert [row[0] for row in table.rows] == ["1 (32) (this sheet)", "2 (64)"] and table.rows[1][1] == "+0.333333333"
    assert "Not solved yet: 3 deck(s)" in to_markdown(blocks)

