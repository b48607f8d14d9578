"""The strategy chart (first cut): hold patterns, the chart's exact price, the ting thresholds."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from solver.cards import parse_cards
from solver.chart import build_chart, hold_pattern, ting_thresholds
from solver.cli import main
from solver.config import GameConfig
from solver.symmetry import apply, relabellings
from solver.ting import ting_bet_ev
from tests.conftest import TWO_SUITS_TOML

TWO_SUITS = GameConfig(suits=2, ranks=4, copies=2, jokers=1)


@pytest.mark.parametrize("cards, pattern", [
    ("11m 23p", "pair + suited open connector"),
    ("89s 5p J", "suited edge connector + joker + odd card"),
    ("24m 56p", "suited open connector + suited one-gap"),
    ("123m J", "suited run + joker"),
    ("13m 5p 9s", "suited one-gap + 2 odd cards"),
    ("111m 7s", "triplet + odd card"),
    ("11m 99s", "2 pairs"),
    ("19m 5p 5s", "4 odd cards"),
])
def test_hold_patterns(cards: str, pattern: str) -> None:
    geometry = GameConfig().geometry
    held = parse_cards(cards, geometry)
    assert hold_pattern(held, geometry) == pattern
    for mapping in relabellings(geometry):  # suits' names and rank direction do not matter
        assert hold_pattern(apply(mapping, held), geometry) == pattern


def test_chart_is_priced_exactly_and_never_beats_optimal(two_suit_tables: Path) -> None:
    chart = build_chart(TWO_SUITS, two_suit_tables)
    assert chart.chart_ev <= chart.optimal_ev + 1e-12
    assert chart.loss == pytest.approx(chart.optimal_ev - chart.chart_ev, abs=1e-15)
    from solver.solve import load_summary

    assert chart.optimal_ev == pytest.approx(load_summary(two_suit_tables, TWO_SUITS).ev, abs=1e-12)
    assert sum(r.share for r in chart.rules) <= 1.0 + 1e-12
    assert [r.rank for r in chart.rules] == list(range(1, len(chart.rules) + 1))


@pytest.mark.parametrize("config", [GameConfig(), GameConfig(ting_hu=2.0, ting_hu_multiples=(1.0, 2.0, 4.0))])
def test_ting_thresholds_are_the_indifference_points(config: GameConfig) -> None:
    """At each threshold the options on either side have the same EV (the evaluator's own formula)."""
    def ev(option: str, p: Fraction, fa: float) -> float:
        if option == "fold":
            return -(1.0 + fa)
        m = float(option.split("= ")[1].split(" F")[0])
        total = p.denominator * 10**6  # win counts out of a total that makes p exact
        return ting_bet_ev(int(p * total), 0, total, fa, m * fa, config)

    for entry in ting_thresholds(config):
        fa = entry["fa_bet"]
        steps = entry["steps"]
        assert steps[0]["option"] == "fold"
        for before, after in zip(steps, steps[1:]):
            p = Fraction(after["exact"])
            assert ev(before["option"], p, fa) == pytest.approx(ev(after["option"], p, fa), abs=1e-9)
            later = p + Fraction(1, 1000)
            assert ev(after["option"], later, fa) > ev(before["option"], later, fa)


def test_cli(two_suit_tables: Path, tmp_path: Path, capsys) -> None:
    config = tmp_path / "two.toml"
    config.write_text(TWO_SUITS_TOML)
    args = ["chart", "--config", str(config), "--tables", str(two_suit_tables)]
    assert main(args + ["--out", str(tmp_path / "out")]) == 0
    assert "## The deal" in capsys.readouterr().out
    assert "keep" in (tmp_path / "out" / "chart.md").read_text()
    assert main(args + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["loss"] >= 0 and data["rules"]
