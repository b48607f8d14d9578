"""The strategy chart: hold patterns, each stage's exact price, the ting decision by thresholds and by outs."""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from solver.cards import parse_cards
from solver.chart import StageChart, build_chart, ting_outs_table, ting_thresholds
from solver.cli import main
from solver.combinatorics import remove_cards
from solver.config import GameConfig
from solver.patterns import PSEUDO, hold_pattern
from solver.symmetry import apply, relabellings
from solver.ting import ting_bet_ev
from tests.conftest import TWO_SUITS_TOML

TWO_SUITS = GameConfig(suits=2, ranks=4, copies=2, jokers=1)


@pytest.mark.parametrize("cards, pattern", [
    ("11m 23p", "end pair + suited open connector"),
    ("22m 55p", "2 pairs"),
    ("89s 5p J", "suited edge connector + joker + odd middle card"),
    ("24m 56p", "suited open connector + suited one-gap"),
    ("123m J", "suited run + joker"),
    ("13m 5p 9s", "suited one-gap + odd middle card + odd end card"),
    ("111m 7s", "triplet + odd middle card"),
    ("11m 99s", "2 end pairs"),
    ("19m 5p 5s", "2 suited odd end cards + 2 odd middle cards"),
    ("14m 6p 7s", "suited odd middle card + suited odd end card + 2 odd middle cards"),
    ("1112m", "triplet + suited odd middle card"),
])
def test_hold_patterns(cards: str, pattern: str) -> None:
    geometry = GameConfig().geometry
    held = parse_cards(cards, geometry)
    assert hold_pattern(held, geometry) == pattern
    for mapping in relabellings(geometry):  # suits' names and rank direction do not matter
        assert hold_pattern(apply(mapping, held), geometry) == pattern


@pytest.fixture(scope="module")
def chart(two_suit_tables: Path):
    return build_chart(TWO_SUITS, two_suit_tables)


def _replay(stage: StageChart, config: GameConfig, tables: Path) -> float:
    """The stage's loss per hand dealt, recomputed row by row from the parquet table with plain Python:
    the first rule whose pattern the hand can keep (or claim / fold where offered) is played, at the
    rule's bet, and a pattern kept by several discards is priced at their mean EV."""
    geometry = config.geometry
    name, weight_column = ("deals.parquet", "weight") if stage.stage == "deal" else ("draws.parquet", "reach")
    loss = Fraction(0)
    for row in pq.read_table(tables / name).to_pylist():
        hand = parse_cards(row["hand"], geometry)
        for rule in stage.rules:
            if rule.entry in ("claim the hu", "fold"):
                evs = [e for a, e in zip(row["actions"], row["evs"]) if a == rule.entry.split()[0]]
            else:
                evs = [e for a, d, b, e in zip(row["actions"], row["discards"], row["bets"], row["evs"])
                       if a in ("discard", "bet") and b == rule.bet
                       and hold_pattern(remove_cards(hand, parse_cards(d, geometry)), geometry) == rule.entry]
            if evs:
                break
        else:
            raise AssertionError(f"no rule applies to {row['hand']}")
        loss += row[weight_column] * (Fraction(row["best_ev"]) - Fraction(sum(evs)) / len(evs))
    per_hand = comb(geometry.size, 6) * (1 if stage.stage == "deal" else comb(geometry.size - 6, 2))
    return float(loss / per_hand)


@pytest.mark.parametrize("stage", ["deal", "draw"])
def test_chart_is_priced_exactly_and_never_beats_optimal(chart, stage: str, two_suit_tables: Path) -> None:
    """Each stage's loss, recomputed independently from the tables, agrees to 1e-12 and is not negative;
    the rules' shares add up to every hand; the chart's EV is the optimal EV less the loss."""
    from solver.solve import load_summary

    part = getattr(chart, stage)
    assert part.loss == pytest.approx(_replay(part, TWO_SUITS, two_suit_tables), abs=1e-12)
    assert part.loss >= 0 and part.chart_ev <= part.optimal_ev
    assert part.optimal_ev == pytest.approx(load_summary(two_suit_tables, TWO_SUITS).ev, abs=1e-12)
    assert sum(r.coverage for r in part.rules) == pytest.approx(1.0, abs=1e-12)
    assert [r.rank for r in part.rules] == list(range(1, len(part.rules) + 1))
    assert all(r.coverage > 0 for r in part.rules)


def test_local_search_only_improves(two_suit_tables: Path) -> None:
    """The refined chart loses no more than its starting point (optimal play's own ranking)."""
    from solver import chart as chart_module

    refined = build_chart(TWO_SUITS, two_suit_tables)
    original = chart_module._search
    try:
        chart_module._search = lambda values, weights, order, bets, pseudo: (order, bets)
        unrefined = build_chart(TWO_SUITS, two_suit_tables)
    finally:
        chart_module._search = original
    assert refined.deal.loss <= unrefined.deal.loss + 1e-15
    assert refined.draw.loss <= unrefined.draw.loss + 1e-15


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


def test_ting_outs_table_follows_the_thresholds() -> None:
    config = GameConfig()
    n = 82 - 1 - 12
    for row in ting_outs_table(config):
        assert row["unseen"] == n
        p = 1 - Fraction(comb(n - row["outs"], 2), comb(n, 2))
        assert row["probability"] == pytest.approx(float(p), abs=1e-15)
        # the option is the best of ting_bet_ev at that probability (ties go to the smaller bet)
        evs = {"fold": -(1.0 + row["fa_bet"])}
        for m in config.ting_hu_multiples:
            evs[f"bet G = {m:g} F"] = ting_bet_ev(p.numerator, 0, p.denominator, row["fa_bet"], m * row["fa_bet"],
                                                  config)
        assert evs[row["option"]] == pytest.approx(max(evs.values()), abs=1e-12)
    by_fa = {r["outs"]: r["option"] for r in ting_outs_table(config) if r["fa_bet"] == 1.0}
    assert by_fa[0] == "fold" and by_fa[30] == "bet G = 3 F"


def test_cli(two_suit_tables: Path, tmp_path: Path, capsys) -> None:
    config = tmp_path / "two.toml"
    config.write_text(TWO_SUITS_TOML)
    args = ["chart", "--config", str(config), "--tables", str(two_suit_tables)]
    assert main(args + ["--out", str(tmp_path / "out"), "--format", "md"]) == 0
    out = capsys.readouterr().out
    assert "## The deal" in out and "## The draw" in out and "## The ting decision" in out
    assert "keep" in (tmp_path / "out" / "chart.md").read_text()
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["chart.json", "chart.md"]
    assert main(args + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["deal"]["loss"] >= 0 and data["deal"]["rules"] and data["draw"]["rules"] and data["ting_outs"]
    assert main(args + ["--out", str(tmp_path / "x"), "--format", "png,gif"]) == 2
    assert "gif" in capsys.readouterr().err


def test_whole_chart_is_priced_exactly(chart, two_suit_tables: Path) -> None:
    """The solve that follows a chart (a mixed strategy: counts scaled to stay integers) agrees with the
    table pricing of each stage alone, to 1e-12, when the other stage is left to optimal play; the whole
    chart is no better than optimal play, and its return table is exact."""
    from solver.chart import chart_exact
    from solver.patterns import ChartRules
    from solver.solve import load_summary

    optimal = load_summary(two_suit_tables, TWO_SUITS)
    rules = chart.rules()
    deal_only = chart_exact(TWO_SUITS, two_suit_tables, ChartRules(rules.deal, ()), n_jobs=2)
    assert float(optimal.ev_exact - deal_only.ev_exact) == pytest.approx(chart.deal.loss, abs=1e-12)
    assert deal_only.ev == pytest.approx(optimal.ev - chart.deal.loss, abs=1e-12)  # chart deal, optimal after
    draw_only = chart_exact(TWO_SUITS, two_suit_tables, ChartRules((), rules.draw), n_jobs=2)
    assert float(optimal.ev_exact - draw_only.ev_exact) == pytest.approx(chart.draw.loss, abs=1e-12)
    whole = build_chart(TWO_SUITS, two_suit_tables, exact=True, n_jobs=2).exact
    assert whole is not None
    assert Fraction(whole["ev_exact"]) <= optimal.ev_exact
    assert Fraction(whole["loss_exact"]) == optimal.ev_exact - Fraction(whole["ev_exact"])
    summary = load_summary(whole["tables"], TWO_SUITS)
    assert sum((r.probability for r in summary.outcomes), Fraction(0)) == 1
    # the chart doubles down exactly when one of its deal lines says so (every line covers some deal)
    assert (summary.decisions()["double_down"] > 0) == any(b for e, b in rules.deal if e not in PSEUDO)


def test_chart_restriction_needs_its_rules() -> None:
    from solver.errors import InputError
    from solver.objective import Objective

    with pytest.raises(InputError, match="chart"):
        Objective(restriction="chart")
