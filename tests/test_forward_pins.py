"""The staged backward solve gives the forward solve's results, pinned before it was replaced.

``tests/data/forward_solve_pins.json.gz`` (made by ``scripts/pin_forward_solve.py`` at commit 497a1c8,
with the forward solve that valued each deal class's every (hold, draw) on its own) holds, for ten
configurations: the exact EV, the return table's exact counts, every deal class's options and, on the
smaller decks, every reached post-draw state's. The new solve must give the same exact EV and return
table, and through its tables the same options (EVs to 1e-12: sums run in another order) and the same
choices.
"""

from __future__ import annotations

import gzip
import json
from fractions import Fraction
from pathlib import Path

import pytest

from solver.game.config import GameConfig
from solver.products.query import best_play
from solver.staged.run import solve

PINS = json.loads(gzip.decompress((Path(__file__).parent / "data" / "forward_solve_pins.json.gz").read_bytes()))
ONE_SUIT = GameConfig(suits=1, ranks=5, copies=3, jokers=1)
TWO_SUITS = GameConfig(suits=2, ranks=4, copies=2, jokers=1)
CASES = {
    "one-suit": (ONE_SUIT, {}),
    "one-suit-bonus5": (ONE_SUIT, {"bonus": 5.0}),
    "one-suit-no-double-down": (ONE_SUIT, {"restriction": "no-double-down"}),
    "one-suit-always-claim-tian-hu": (ONE_SUIT, {"restriction": "always-claim-tian-hu"}),
    "one-suit-minimum-bets": (ONE_SUIT, {"restriction": "minimum-bets"}),
    "one-suit-odd-bets": (GameConfig(suits=1, ranks=5, copies=3, jokers=1, fa_hu_bets=(0.7,),
                                     ting_hu_multiples=(1.0, 3.0)), {}),
    "two-suits": (TWO_SUITS, {}),
    "two-suits-bonus5": (TWO_SUITS, {"bonus": 5.0}),
    "two-decks": (GameConfig(decks=2, suits=2, ranks=4, copies=1, jokers=1), {}),
    "three-copies-3x4": (GameConfig(suits=3, ranks=4, copies=3, jokers=1), {}),
}


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> dict:
    """Each configuration solved once for the module, keyed by name: (summary, directory)."""
    out = {}
    for name, (config, options) in CASES.items():
        directory = tmp_path_factory.mktemp("pins") / name
        out[name] = (solve(config, directory, n_jobs=2, quiet=True, **options), directory)
    return out


def test_the_pins_cover_every_case() -> None:
    assert set(PINS["cases"]) == set(CASES)
    assert "497a1c8" in PINS["source"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_exact_ev_and_return_table(name: str, solved: dict) -> None:
    pin = PINS["cases"][name]
    summary, _ = solved[name]
    assert str(summary.ev_exact) == pin["ev_exact"]
    assert summary.ev == pytest.approx(pin["ev"], abs=1e-12, rel=0)
    denominator = int(pin["denominator"])
    expected = {(k, dd, f, g): Fraction(int(n), denominator) for k, dd, f, g, n in pin["outcomes"]}
    found = {(r.outcome.kind, r.outcome.double_down, r.outcome.fa_bet, r.outcome.ting_bet): r.probability
             for r in summary.outcomes}
    assert found == expected
    assert summary.bonus_net_settled == pytest.approx(pin["bonus_net_settled"], abs=1e-12)
    assert str(summary.tian_hu_declined) == pin["tian_hu_declined"]
    assert str(summary.di_hu_declined) == pin["di_hu_declined"]


def _same(found, pinned_options, pinned_best: int, best: int) -> None:
    """Same options and EVs; the best the same, or an exact tie with it at the same stake: ties go to the
    first option in the canonical form's order, and the 48 symmetries make other canonical forms than the
    forward solve's 12 (two discards that reversing one suit swaps tie exactly)."""
    assert [(o.action, o.bet) for o in found] == [(a, b) for a, _, b, _ in pinned_options]
    assert [o.ev for o in found] == pytest.approx([e for *_, e in pinned_options], abs=1e-12, rel=0)
    assert best == pinned_best or (found[best].ev == pytest.approx(pinned_options[pinned_best][3], abs=1e-12)
                                   and found[best].bet == pinned_options[pinned_best][2]
                                   and found[best].action == pinned_options[pinned_best][0])


@pytest.mark.parametrize("name", ["one-suit", "one-suit-bonus5", "two-suits", "two-decks", "three-copies-3x4"])
def test_every_deal_class_s_options(name: str, solved: dict) -> None:
    """The pinned deal classes (the forward solve's canonical hands, other labels than today's) through
    the new tables: the same options, EVs and best option."""
    config, options = CASES[name]
    _, directory = solved[name]
    for hand, _, best, pinned in PINS["cases"][name]["deals"]:
        play = best_play(hand, config, tables=directory, bonus=options.get("bonus", 0.0))
        _same(play.options, pinned, best, play.best)


@pytest.mark.parametrize("name", ["one-suit", "one-suit-bonus5", "two-suits", "two-decks"])
def test_reached_post_draw_states(name: str, solved: dict) -> None:
    """Every post-draw state the forward solve reached: the same best option (and on the one-suit decks
    every option) through the new tables, and the same total reach."""
    config, options = CASES[name]
    summary, directory = solved[name]
    draws = PINS["cases"][name]["draws"]
    for hand, dead, dd, _, best, pinned in draws:
        play = best_play(hand, config, dead=dead, double_down=dd, tables=directory, bonus=options.get("bonus", 0.0))
        if len(pinned) == 1:  # only the best option kept
            chosen = play.options[play.best]
            assert (chosen.action, chosen.bet) == (pinned[0][0], pinned[0][2])
            assert chosen.ev == pytest.approx(pinned[0][3], abs=1e-12, rel=0)
        else:
            _same(play.options, pinned, best, play.best)
    import pyarrow.parquet as pq

    assert sum(pq.read_table(directory / "draws.parquet")["reach"].to_pylist()) == sum(r for *_, r, _, _ in draws)
