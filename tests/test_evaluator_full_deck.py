"""The evaluator on the real deck: against naive per-state enumeration and against Monte Carlo."""

from itertools import combinations

import numpy as np
import pytest

from solver.evaluator.api import Stage, State, evaluate
from solver.evaluator.hold import SharedCounts, fa_values, fa_values_removing, fa_values_sharing
from solver.evaluator.ting import ting_outcomes
from solver.game.cards import counts_of, parse_cards
from solver.game.community import alone_six_types
from solver.game.config import GameConfig
from solver.game.hu import hu_level
from solver.game.options import best_index
from solver.game.state import unseen_suited
from solver.game.symmetry import apply, relabellings
from tests.naive import naive_level
from tests.reference import naive_hold_values

CONFIG = GameConfig()
G = CONFIG.geometry


def cards(text: str) -> tuple[int, ...]:
    return parse_cards(text, G)


TING_STATES = [
    ("11m 23p", "57s 9m 9p", "4s 6s 8p 9s"),
    ("45m 5p J", "1m 9p 2s 3s", "7m 8p 9p 1s"),
    ("2468s", "1m 1p 5m 9s", "1s 3m 5p 7p"),
    ("11p 99p", "1s 2s 3s J", "5m 6m 8m 7p"),
]


@pytest.mark.parametrize("hand, dead, community", TING_STATES)
def test_ting_counts_against_every_card_pair(hand: str, dead: str, community: str) -> None:
    """Every pair of physical unseen cards, each ten-card group tested by the naive 5-subset enumerator."""
    h, d, c = cards(hand), cards(dead), cards(community)
    unseen = unseen_suited(h + d + c, CONFIG)
    physical = [t for t in range(G.n_suited) for _ in range(int(unseen[t]))]
    n_hu = n_flush = total = 0
    for pair in combinations(physical, 2):
        level = naive_level(list(h) + list(c) + list(pair), G, hand_size=4)
        total += 1
        n_hu += level == 1
        n_flush += level == 2
    got = ting_outcomes(counts_of(h, G), counts_of(c, G), unseen, CONFIG)
    assert (got[0], got[1], got[3]) == (n_hu, n_flush, total)


HOLD_STATES = [
    ("11m 23p", "57s 9m 9p"), ("45m 5p J", "1m 9p 2s 3s"), ("2468s", "1m 1p 5m 9s"), ("19m 5p 7s", "J 3s 3s 4m"),
]


@pytest.mark.parametrize("hold, dead", HOLD_STATES[:1] + [pytest.param(*state, marks=pytest.mark.slow)
                                                          for state in HOLD_STATES[1:]])
def test_hold_value_against_naive_enumeration(hold: str, dead: str) -> None:
    """Every four-card community multiset with its multiplicity, the ting decision recomputed per state."""
    h, d = cards(hold), cards(dead)
    unseen = unseen_suited(h + d, CONFIG)
    expected = naive_hold_values(h, unseen, CONFIG)
    got = fa_values(counts_of(h, G), unseen, CONFIG)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)


@pytest.mark.parametrize("hold, dead", HOLD_STATES)
def test_hold_value_does_not_depend_on_labels(hold: str, dead: str) -> None:
    """Relabelled suits and ranks give a hold's values bit for bit, although they visit the
    communities in another order (the kernel sums exact counts); so do removal cases. This is
    what lets the solve reuse the deal stage's hold values for canonical post-draw states."""
    h, d = cards(hold), cards(dead)
    removals = [(), (cards("5m")[0],), tuple(sorted(cards("6p 6s")))]
    expected = fa_values_removing(counts_of(h, G), unseen_suited(h + d, CONFIG), list(removals), CONFIG)
    for mapping in relabellings(G):
        moved = fa_values_removing(counts_of(apply(mapping, h), G), unseen_suited(apply(mapping, h + d), CONFIG),
                                   [apply(mapping, r) for r in removals], CONFIG)
        np.testing.assert_array_equal(moved, expected)
        np.testing.assert_array_equal(fa_values(counts_of(apply(mapping, h), G),
                                                unseen_suited(apply(mapping, h + d), CONFIG), CONFIG), expected[0])


@pytest.mark.parametrize("base, extras", [
    ("1m 3p", ["5s 9m", "5s 5s", "3p 4p", "1m 2m", "4p 5s", "2m 9s", "5s 6s", "9m 9s"]),
    ("2p 8s J", ["5s", "9m", "2p", "7s", "8s"]),
])
def test_holds_sharing_completion_counts_match_holds_valued_alone(base: str, extras: list[str]) -> None:
    """A group of holds (one base plus cards of their own, each against the unseen cards less its own)
    valued one after another with shared completion counts: each bit for bit its own pass, and a
    second round, read wholly from the shared counts, the same again."""
    b = cards(base)
    dealt = b + cards("6m 6m 7p")  # the rest of the deal, gone from the unseen cards
    unseen = unseen_suited(dealt, CONFIG)
    shared = SharedCounts(counts_of(b, G), unseen, G)
    alone = [fa_values(counts_of(b + cards(e), G), unseen_suited(dealt + cards(e), CONFIG), CONFIG) for e in extras]
    for _ in range(2):
        for e, expected in zip(extras, alone):
            np.testing.assert_array_equal(fa_values_sharing(counts_of(b + cards(e), G), shared, CONFIG), expected)
    assert (shared.cache >= 0).sum() > 0
    with pytest.raises(ValueError, match="base"):
        fa_values_sharing(counts_of(cards("2m 3m 4m 5m"), G), shared, CONFIG)
    four_decks = GameConfig(decks=4)  # too many completions to pack two counts in an int32: nothing shared
    alone4 = SharedCounts(counts_of(b, four_decks.geometry), unseen_suited(dealt, four_decks), four_decks.geometry)
    assert len(alone4.cache) == 0
    hold4 = counts_of(b + cards(extras[0]), four_decks.geometry)
    np.testing.assert_array_equal(fa_values_sharing(hold4, alone4, four_decks), fa_values(
        hold4, unseen_suited(dealt + cards(extras[0]), four_decks), four_decks))
    gone = SharedCounts(counts_of(cards("1m 3p"), G), unseen_suited(cards("1m 3p 5s 5s 5s"), CONFIG), G)
    with pytest.raises(ValueError, match="unseen"):
        fa_values_sharing(counts_of(cards("1m 3p 5s 9m"), G), gone, CONFIG)


@pytest.mark.parametrize("base, extras", [("1m 3p 7s", ["5s", "9m", "3p", "2m", "7s"]), ("2p 8s J", ["9s", "2p"])])
def test_holds_sharing_removal_counts_match_holds_valued_alone(base: str, extras: list[str]) -> None:
    """Holds of three dealt cards and one drawn, each with removal cases (the draw's other card),
    valued one after another sharing their counts and R(t): each bit for bit its own pass of
    removals and, for a case, a plain pass; twice, the second round read from the shared counts."""
    b = cards(base)
    dealt = b + cards("6m 6m 7p")[: 6 - len(b)]
    unseen = unseen_suited(dealt, CONFIG)
    removals = [(), (cards("4p")[0],), (cards("5s")[0],), (cards("9m")[0],), (cards("7s")[0],)]
    shared = SharedCounts(counts_of(b, G), unseen, G, removing=True)
    alone = [fa_values_removing(counts_of(b + cards(e), G), unseen_suited(dealt + cards(e), CONFIG), removals, CONFIG)
             for e in extras]
    np.testing.assert_array_equal(alone[0][2], fa_values(counts_of(b + cards(extras[0]), G),
                                                         unseen_suited(dealt + cards(extras[0] + " 5s"), CONFIG),
                                                         CONFIG))
    for _ in range(2):
        for e, expected in zip(extras, alone):
            got = fa_values_sharing(counts_of(b + cards(e), G), shared, CONFIG, removals)
            np.testing.assert_array_equal(got, expected)
    assert (shared.removal_cache != 0).any()
    hold = counts_of(b + cards(extras[0]), G)
    with pytest.raises(ValueError, match="one card a case"):
        fa_values_sharing(hold, shared, CONFIG, [(cards("4p")[0], cards("5s")[0])])
    with pytest.raises(ValueError, match="removal cases"):
        fa_values_sharing(hold, shared, CONFIG)
    with pytest.raises(ValueError, match="one card a case"):
        fa_values_sharing(hold, SharedCounts(counts_of(b, G), unseen, G), CONFIG, removals)


@pytest.mark.parametrize("base", ["1m 1m", "1m 3p", "1m 3p 7s"])
def test_safe_sixes_match_the_naive_hand_card_rule(base: str) -> None:
    """A group's safe six-card communities (forming a hu alone) are those where a hu using a base card is as
    good as the community's own (naive enumeration, on a spread of them), and on them every hold holding
    the base has its hand-card level equal to its plain one."""
    b = list(cards(base))
    shared = SharedCounts(counts_of(b, G), unseen_suited(tuple(b), CONFIG), G)
    types = alone_six_types(G)
    assert len(shared.safe_sixes) == len(types)
    checked = 0
    for q in range(0, len(types), 97):
        six = [int(t) for t in types[q]]
        if max(np.bincount(b + six)) > 3:  # never dealt beside this base
            assert shared.safe_sixes[q] == 0
            continue
        own = naive_level(six, G)
        assert own > 0
        assert shared.safe_sixes[q] == (naive_level(b + six, G, hand_size=len(b)) >= own), six
        if shared.safe_sixes[q] and checked < 12:
            for extra in ([0, 26], [13, 14], [9, 9])[: 4 - len(b)]:
                hold = b + extra[: 4 - len(b)]
                if max(np.bincount(hold + six)) <= 3:
                    assert naive_level(hold + six, G, hand_size=4) == naive_level(hold + six, G)
                    checked += 1
    assert 0 < shared.safe_sixes.sum() < len(types)


def test_draw_stage_against_monte_carlo() -> None:
    """Deal the community from real shuffled stubs and play the evaluator's ting decisions: within 4 SE."""
    hand, dead = cards("11m 23p 57s"), cards("9m 9p")
    options = evaluate(State(Stage.DRAW, hand, dead), CONFIG)
    best = options[best_index(options)]
    assert best.action == "bet"
    hold = list(hand)
    for card in best.discard:
        hold.remove(card)
    seen_dead = dead + best.discard
    f = best.bet
    stub = []
    unseen = unseen_suited(tuple(hold) + seen_dead, CONFIG)
    for t in range(G.n_suited):
        stub += [t] * int(unseen[t])
    stub += [G.joker] * G.jokers_in_play  # jokers are in the stub, and replaced when dealt to the community
    rng = np.random.default_rng(2024)
    results = []
    for _ in range(4000):
        order = [c for c in rng.permutation(stub) if c != G.joker]
        first, last = order[:4], order[4:6]
        level = hu_level(counts_of(hold + first, G), G)
        if level:
            results.append(CONFIG.fa_hu_ante + f * (CONFIG.fa_hu_flush if level == 2 else CONFIG.fa_hu))
            continue
        ting = evaluate(State(Stage.TING, tuple(hold), tuple(seen_dead), tuple(sorted(first)), fa_bet=f), CONFIG)
        choice = ting[best_index(ting)]
        if choice.action == "fold":
            results.append(-(1 + f))
            continue
        final = naive_level(hold + first + last, G, hand_size=4)
        g = choice.bet
        if final == 2:
            results.append(CONFIG.ting_hu_ante + f * CONFIG.ting_hu_fa + g * CONFIG.ting_hu_flush)
        elif final == 1:
            results.append(CONFIG.ting_hu_ante + f * CONFIG.ting_hu_fa + g * CONFIG.ting_hu)
        else:
            results.append(-(1 + f + g))
    mean = float(np.mean(results))
    se = float(np.std(results, ddof=1) / np.sqrt(len(results)))
    assert abs(mean - best.ev) < 4 * se, (mean, se, best.ev)
