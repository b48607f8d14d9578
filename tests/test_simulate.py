"""The simulator against the solve's exact figures, reproducibility, and the CLI."""

from __future__ import annotations

import json
from math import sqrt
from pathlib import Path

import pytest

from solver.cli import main
from solver.errors import InputError
from solver.game.config import GameConfig
from solver.products.simulate import simulate
from solver.staged.run import load_summary
from tests.conftest import TWO_SUITS_TOML

TWO_SUITS = GameConfig(suits=2, ranks=4, copies=2, jokers=1)


def test_simulation_agrees_with_the_exact_solve(two_suit_tables: Path) -> None:
    """200,000 real shuffled hands: the exact EV inside the 99% interval, and every outcome's count within
    4.5 binomial standard deviations of its exact probability (fixed seed: the check is deterministic)."""
    result = simulate(TWO_SUITS, two_suit_tables, 200_000, seed=11, n_jobs=2)
    assert result.agrees, result.to_json()
    summary = load_summary(two_suit_tables, TWO_SUITS)
    assert result.analytic_ev == float(summary.ev_exact)
    for row in summary.outcomes:
        p = float(row.probability)
        expected = p * result.hands
        assert abs(result.counts.get(row.outcome, 0) - expected) <= 4.5 * sqrt(expected * (1 - p)) + 1, row.outcome
    assert set(result.counts) <= {row.outcome for row in summary.outcomes}  # nothing the solve calls impossible


def test_the_strategy_is_the_tables_decisions_read_row_by_row(two_suit_tables: Path) -> None:
    """load_strategy reads each distinct text once: the same arrays as reading every row of the tables."""
    import numpy as np
    import pyarrow.parquet as pq

    from solver.game.cards import parse_cards
    from solver.products.simulate import _ACTIONS, load_strategy

    strategy = load_strategy(two_suit_tables, TWO_SUITS)
    g = TWO_SUITS.geometry
    deals = pq.read_table(two_suit_tables / "deals.parquet").to_pylist()
    draws = sorted(pq.read_table(two_suit_tables / "draws.parquet").to_pylist(),
                   key=lambda r: r["key"] * 2 + (r["double_down"] > 0))

    def thrown(text: str | None) -> list[int]:
        return list(parse_cards(text, g)) if text else [-1, -1]

    assert strategy.deal_keys.tolist() == [r["key"] for r in deals]
    assert strategy.deal_action.tolist() == [_ACTIONS[r["best_action"]] for r in deals]
    assert strategy.deal_discard.tolist() == [thrown(r["best_discard"]) for r in deals]
    assert strategy.deal_dd.tolist() == [int(r["best_bet"] > 0) for r in deals]
    assert strategy.draw_keys.tolist() == [r["key"] * 2 + (r["double_down"] > 0) for r in draws]
    assert strategy.draw_action.tolist() == [_ACTIONS[r["best_action"]] for r in draws]
    assert strategy.draw_discard.tolist() == [thrown(r["best_discard"]) for r in draws]
    assert strategy.draw_fa.tolist() == [TWO_SUITS.fa_hu_bets.index(r["best_bet"]) if r["best_action"] == "bet"
                                         else -1 for r in draws]
    assert {np.int8, np.int64} >= {a.dtype.type for a in vars(strategy).values()}
    assert "bet" in {r["best_action"] for r in draws} and any(r["best_discard"] for r in draws)


def test_same_seed_same_result_whatever_the_jobs(two_suit_tables: Path) -> None:
    one = simulate(TWO_SUITS, two_suit_tables, 45_000, seed=3, n_jobs=1)
    two = simulate(TWO_SUITS, two_suit_tables, 45_000, seed=3, n_jobs=2)
    other = simulate(TWO_SUITS, two_suit_tables, 45_000, seed=4, n_jobs=2)
    assert one.counts == two.counts and one.mean == two.mean
    assert other.counts != one.counts


def test_cli(two_suit_tables: Path, tmp_path: Path, capsys) -> None:
    config = tmp_path / "two.toml"
    config.write_text(TWO_SUITS_TOML)
    args = ["simulate", "--config", str(config), "--tables", str(two_suit_tables), "--hands", "20000", "--jobs", "1"]
    assert main(args + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hands"] == 20000 and len(data["ci99"]) == 2 and isinstance(data["analytic_ev_inside"], bool)
    assert sum(o["count"] for o in data["outcomes"]) == 20000
    assert main(args) == 0
    assert "99% confidence interval" in capsys.readouterr().out
    assert main(args[:-4] + ["--hands", "0"]) == 2
    assert "--hands" in capsys.readouterr().err
    with pytest.raises(InputError, match="no finished solve"):
        simulate(TWO_SUITS, tmp_path, 10)


@pytest.mark.parametrize("config", [GameConfig(), TWO_SUITS, GameConfig(decks=2)], ids=["real", "two-suits", "2decks"])
def test_ting_count_is_every_completion_tested_one_by_one(config: GameConfig) -> None:
    """The simulator's one-pass count of winning completions (marks per pair and set) against its own
    hu test run on every two-card completion, on random holds, communities and discards."""
    import numpy as np

    from solver.products.simulate import _level, _ting_counts

    g = config.geometry
    n_suited, rng = g.n_suited, np.random.default_rng(7)
    suited = [c for c in g.cards() if c != g.joker]
    full = g.full_counts()
    scratch = (np.empty(5, np.int64), np.zeros(n_suited + g.suits * (g.ranks - 2), np.int64),
               np.zeros(n_suited, np.int64), np.zeros((n_suited, n_suited), np.int64))
    checked = 0
    for trial in range(60):
        cards = [int(c) for c in rng.choice(g.cards(), 8, replace=False)]
        hold = np.bincount(cards[:4], minlength=g.n_types)
        community = [int(c) for c in rng.choice(suited, 4, replace=False)] if trial % 3 else []
        dead = np.bincount(cards[4:], minlength=g.n_types)
        counts = hold + np.bincount(community, minlength=g.n_types)
        seen = counts + dead
        if (seen[:n_suited] > full[:n_suited]).any():
            continue
        expected = [0, 0, 0]
        for t1 in range(n_suited):
            for t2 in range(t1, n_suited):
                u1, u2 = full[t1] - seen[t1], full[t2] - seen[t2]
                w = u1 * (u1 - 1) // 2 if t1 == t2 else u1 * u2
                if w > 0:
                    counts[t1] += 1
                    counts[t2] += 1
                    expected[_level(counts, hold, True, g.suits, g.ranks)] += w
                    counts[t1] -= 1
                    counts[t2] -= 1
        n_hu, n_flush, total = _ting_counts(counts, hold, full, seen, g.suits, g.ranks, *scratch)
        assert (n_hu, n_flush, total) == (expected[1], expected[2], sum(expected)), (cards, community)
        checked += 1 if expected[1] + expected[2] else 0
    assert checked >= 20  # enough states with winning completions to mean something
