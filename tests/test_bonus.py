"""The bonus return table: hand-derived counts, the brute-force reference's counts, and invariants."""

from fractions import Fraction
from math import comb

import numpy as np
import pytest

from solver.game.bonus import FLUSH, HU, STRAIGHT_FLUSH, bonus_payout, bonus_table, payout_by_mask
from solver.game.cards import counts_of, parse_cards
from solver.game.config import GameConfig
from tests.naive import naive_bonus_net

ONE_DECK = GameConfig()
TWO_DECKS = GameConfig(decks=2)


def rows_with(table, *words: str) -> int:
    """Combinations of the rows whose label contains every word."""
    return sum(r.combinations for r in table.rows if all(w in r.combination for w in words))


def pays(text: str, config: GameConfig = ONE_DECK) -> float:
    return bonus_payout(counts_of(parse_cards(text, config.geometry), config.geometry), config)


def test_rule_text_example() -> None:
    assert pays("333s 888s") == 80  # two triplets 60 + hu 15 + flush 5


@pytest.mark.parametrize(
    "text, expected",
    [
        ("234567p", 1000),  # straight flush alone: no flush added
        ("113355m", 65),  # three pairs + flush
        ("11m 33p 55s", 60),
        ("111m 22p 9s", 45),  # one triplet + hu (111 + 22)
        ("111m 25p 9s", 30),
        ("11m 234p 9s", 15),
        ("13579m 2m", 5),
        ("13579m 2p", -1),
    ],
)
def test_payouts(text: str, expected: float) -> None:
    assert pays(text) == expected


def test_straight_flush_interpretation() -> None:
    assert payout_by_mask(GameConfig(straight_flush_adds_flush=True))[STRAIGHT_FLUSH | FLUSH] == 1005
    assert payout_by_mask(GameConfig(bonus_hu_flush_add=False))[HU | FLUSH] == 15


def test_one_deck_counts_derived_by_hand() -> None:
    table = bonus_table(ONE_DECK)
    assert table.total_combinations == comb(81, 6)
    # 3 suits x 4 lowest ranks x 3^6 copies
    assert rows_with(table, "straight flush") == 3 * 4 * 3**6
    # three distinct cards, two of three copies each
    assert rows_with(table, "three pairs") == comb(27, 3) * 3**3
    assert rows_with(table, "two triplets") == comb(27, 2)
    # one card three times, three more cards out of the other 78 that are not a triplet
    assert rows_with(table, "one triplet") == 27 * (comb(78, 3) - 26)
    # six of the 27 cards of one suit (straight flushes included)
    assert sum(r.combinations for r in table.rows if r.combination.endswith("flush")) == 3 * comb(27, 6)


@pytest.mark.parametrize("config", [ONE_DECK, TWO_DECKS], ids=["1deck", "2decks"])
def test_table_is_consistent(config: GameConfig) -> None:
    table = bonus_table(config)
    geometry = config.geometry
    assert table.total_combinations == comb(geometry.n_suited * geometry.copies_in_play, 6)
    assert sum(r.combinations for r in table.rows) == table.total_combinations
    assert sum(r.probability for r in table.rows) == pytest.approx(1.0, abs=1e-14)
    exact_ev = sum(r.pays * r.combinations for r in table.rows) / table.total_combinations
    assert table.ev == pytest.approx(exact_ev, abs=1e-14)
    assert table.house_edge == -table.ev
    assert all(np.isclose(r.probability, r.combinations / table.total_combinations, rtol=1e-15) for r in table.rows)


# Counts per paid combination from a separate brute-force program (every
# 6-card multiset, every pairing / triplet split / 5-card subset tried; no
# solver code), for one and two decks.
REFERENCE = {
    ONE_DECK: {
        "straight flush": 8748, "two triplets + hu + flush": 108, "two triplets + hu": 243,
        "three pairs + flush": 6804, "three pairs": 72171, "one triplet + hu + flush": 25272,
        "one triplet + hu": 185166, "one triplet + flush": 29160, "one triplet": 1813752,
        "hu + flush": 160380, "hu": 2676888, "flush": 657558, "no combination (bet lost)": 318903966,
    },
    TWO_DECKS: {
        "straight flush": 559872, "three pairs / two triplets + hu + flush": 27,
        "three pairs + hu + flush": 48600, "two triplets + hu + flush": 43200, "three pairs + hu": 109350,
        "two triplets + hu": 97200, "three pairs + flush": 850500, "three pairs": 9021375,
        "one triplet + hu + flush": 4629636, "one triplet + hu": 35417736, "one triplet + flush": 5039820,
        "one triplet": 294530580, "hu + flush": 13413600, "hu": 215988120, "flush": 52896240,
        "no combination (bet lost)": 22227670728,
    },
}
REFERENCE_EV = {ONE_DECK: Fraction(-551791, 924616), TWO_DECKS: Fraction(-119226487, 423339196)}


@pytest.mark.parametrize("config", [ONE_DECK, TWO_DECKS], ids=["1deck", "2decks"])
def test_counts_match_the_brute_force(config: GameConfig) -> None:
    table = bonus_table(config)
    assert {r.combination: r.combinations for r in table.rows} == REFERENCE[config]
    exact = Fraction(sum(int(r.pays) * r.combinations for r in table.rows), table.total_combinations)
    assert exact == REFERENCE_EV[config]
    assert table.ev == pytest.approx(float(exact), abs=1e-15)


@pytest.mark.parametrize("config", [ONE_DECK, TWO_DECKS, GameConfig(straight_flush_adds_flush=True),
                                    GameConfig(bonus_hu_flush_add=False)],
                         ids=["1deck", "2decks", "sf-adds-flush", "no-stacking"])
def test_random_communities_against_the_naive_rule(config: GameConfig) -> None:
    g = config.geometry
    rng = np.random.default_rng(7)
    deck = [t for t in range(g.n_suited) for _ in range(g.copies_in_play)]
    samples = [sorted(int(c) for c in rng.choice(deck, 6, replace=False)) for _ in range(1500)]
    # make sure rare categories are exercised
    samples += [list(parse_cards(text, g)) for text in ("234567p", "113355m", "333s 888s", "111m 22p 9s", "456789s")]
    for cards in samples:
        assert bonus_payout(counts_of(cards, g), config) == naive_bonus_net(cards, config), cards


@pytest.mark.slow
def test_paytable_changes_meet_their_targets() -> None:
    """Each change makes the house edge of a bet settled on six random cards the target (checked through the
    return table, an independent path); the whole payout is the largest keeping the edge at least the target."""
    from dataclasses import replace

    from solver.game.bonus import SCALE_ALL, _payouts, paytable_changes, random_settled_house_edge

    config = GameConfig()
    assert random_settled_house_edge(config) == pytest.approx(bonus_table(config).house_edge, abs=1e-15)
    changes = paytable_changes(config, (0.02, 0.1))
    assert {c.key for c in changes} == {"bonus_straight_flush", "bonus_three_pairs", "bonus_two_triplets",
                                        "bonus_one_triplet", "bonus_hu", "bonus_flush", SCALE_ALL}
    for c in changes:
        assert bonus_table(_payouts(config, c.key, c.exact)).house_edge == pytest.approx(c.target, abs=1e-8)
        step = 0.01 if c.key == SCALE_ALL else 1.0
        assert c.whole_edge >= c.target > random_settled_house_edge(_payouts(config, c.key, c.whole + step))
    hu = next(c for c in changes if c.key == "bonus_hu" and c.target == 0.02)
    assert bonus_table(replace(config, bonus_hu=hu.whole)).house_edge == pytest.approx(hu.whole_edge, abs=1e-15)


def test_a_target_no_payout_reaches_is_a_note() -> None:
    """A house edge of 70% is out of reach of the straight flush's payout alone (paying nothing for it leaves
    the edge at 62%), not of every payout scaled down; a target given twice is met once."""
    from solver.game.bonus import SCALE_ALL, paytable_changes

    changes = paytable_changes(GameConfig(), (0.7, 0.7))
    assert len(changes) == 7
    flush = next(c for c in changes if c.key == "bonus_straight_flush")
    assert flush.exact is flush.whole is flush.whole_edge is None and flush.note.startswith("unreachable")
    scaled = next(c for c in changes if c.key == SCALE_ALL)
    assert scaled.note == "" and 0 < scaled.exact < 1 and scaled.whole_edge >= 0.7


def test_a_target_met_exactly_shows_no_negative_zero() -> None:
    """Paying 551,851 for two triplets makes the settled bet exactly fair: its house edge is 0, never -0."""
    import math

    from solver.game.bonus import payout_for_edge

    change = payout_for_edge(GameConfig(), "bonus_two_triplets", 0.0)
    assert change.whole == 551851 and change.whole_edge == 0.0 and math.copysign(1.0, change.whole_edge) == 1.0


def test_a_payout_that_moves_nothing_is_a_note() -> None:
    """The reduced deck (ranks 1-4, two copies) makes no straight flush: no payout for it meets a target,
    and the search says so rather than doubling its bound forever."""
    from pathlib import Path

    from solver.game.bonus import payout_for_edge
    from solver.game.config import load_config

    reduced = load_config(Path(__file__).parent.parent / "configs" / "reduced-3x4.toml")
    change = payout_for_edge(reduced, "bonus_straight_flush", -0.1)
    assert change.exact is None and change.note.startswith("unreachable: no payout moves the house edge")
