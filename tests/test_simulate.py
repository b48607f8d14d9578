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
