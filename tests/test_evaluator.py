"""The fast evaluator against the plain game-tree enumerator on mini decks, at every stage and for a whole game."""

import os
import random
from collections import Counter

import numpy as np
import pytest

from solver.evaluator.api import Stage, State, evaluate
from solver.evaluator.deal import evaluate_deal
from solver.evaluator.hold import (
    SharedCounts,
    bonus_evs,
    fa_upper_bounds_removing,
    fa_upper_bounds_sharing,
    fa_values,
    fa_values_removing,
    fa_values_sharing,
)
from solver.game.cards import counts_of
from solver.game.combinatorics import multisets, remove_cards, submultisets
from solver.game.config import GameConfig
from solver.game.hu import hu_level
from solver.game.options import best_index
from solver.game.state import unseen_suited
from tests.plain_game import PlainGame
from tests.reference import naive_hold_values, naive_removal_bounds

TWO_SUITS = GameConfig(suits=2, ranks=4, copies=2, jokers=1)  # 17 cards
ONE_SUIT = GameConfig(suits=1, ranks=5, copies=3, jokers=1)  # 16 cards, every hu a flush
# A variant with other payouts and bet sizes, so no payout is right by accident.
ODD_PAYS = GameConfig(suits=2, ranks=4, copies=2, jokers=1, tian_hu=4.0, tian_hu_flush=7.0, di_hu=1.5,
                      di_hu_flush=3.0, fa_hu_bets=(1.0, 3.0), fa_hu_ante=0.7, fa_hu=1.3, fa_hu_flush=2.0,
                      ting_hu_multiples=(1.0, 2.5), ting_hu_ante=0.6, ting_hu=1.2, ting_hu_flush=1.7,
                      ting_hu_fa=0.9, double_down=0.5)

# Three decks of a mini geometry: three jokers, so a hand can hold them all (21 cards).
THREE_DECKS = GameConfig(decks=3, suits=2, ranks=3, copies=1, jokers=1)

PLAIN = {id(c): PlainGame(c) for c in (TWO_SUITS, ONE_SUIT, ODD_PAYS, THREE_DECKS)}
# The committed reduced deck's geometry (configs/reduced-3x4.toml): 25 cards.
REDUCED = GameConfig(suits=3, ranks=4, copies=2, jokers=1)
# Seven ranks, so six-card straight flushes occur in the community.
LONG_SUIT = GameConfig(suits=1, ranks=7, copies=2, jokers=1)


def keyed(options) -> dict:
    return {(o.action, tuple(o.discard), o.bet): o.ev for o in options}


def assert_same_options(fast, plain) -> None:
    fast_keys = [(o.action, tuple(o.discard), o.bet) for o in fast]
    plain_keys = [(a, tuple(d), b) for a, d, b, _ in plain]
    assert fast_keys == plain_keys
    for o, (_, _, _, ev) in zip(fast, plain):
        assert o.ev == pytest.approx(ev, abs=1e-12, rel=0)


def random_states(config: GameConfig, stage: Stage, n: int, seed: int):
    """Random reachable states: cards dealt from a shuffled deck as the game would."""
    g = config.geometry
    rng = random.Random(seed)
    deck = g.cards()
    made = 0
    while made < n:
        cards = deck[:]
        rng.shuffle(cards)
        if stage == Stage.DEAL:
            yield State(stage, tuple(sorted(cards[:6])))
        elif stage == Stage.DRAW:
            dd = rng.choice([0.0, config.double_down])
            yield State(stage, tuple(sorted(cards[:6])), tuple(sorted(cards[6:8])), double_down=dd)
        else:
            suited = [c for c in cards[8:] if c != g.joker]
            hand, dead, community = cards[:4], cards[4:8], suited[:4]
            if hu_level(counts_of(hand + community, g), g):
                continue
            yield State(stage, tuple(sorted(hand)), tuple(sorted(dead)), tuple(sorted(community)),
                        double_down=rng.choice([0.0, config.double_down]), fa_bet=rng.choice(config.fa_hu_bets))
        made += 1


@pytest.mark.parametrize("config", [TWO_SUITS, ODD_PAYS, ONE_SUIT, THREE_DECKS],
                         ids=["two-suits", "odd-pays", "one-suit", "three-decks"])
def test_ting_stage(config: GameConfig) -> None:
    plain = PLAIN[id(config)]
    for state in random_states(config, Stage.TING, 200, seed=1):
        fast = evaluate(state, config)
        evs = plain.ting_evs(state.hand, state.dead, state.community, state.fa_bet)
        expected = [("fold", (), 0.0, evs[0] - state.double_down)] + [
            ("bet", (), m * state.fa_bet, ev - state.double_down) for m, ev in zip(config.ting_hu_multiples, evs[1:])
        ]
        assert_same_options(fast, expected)


def test_ting_stage_with_nine_copies_of_a_card() -> None:
    """The geometry of issue 55's three-deck check (75 cards: nine copies of each card, three jokers), at
    ting states whose hand and dead cards come from two or three card types, so that they share copies
    (four of a kind, up to six identical among the ten cards): against the plain enumerator."""
    config = GameConfig(decks=3, suits=2, ranks=4, copies=3, jokers=1)
    g = config.geometry
    plain = PlainGame(config)
    rng = random.Random(11)
    deck = g.cards()
    checked = 0
    while checked < 40:
        types = rng.sample(range(g.n_suited), rng.choice([2, 3]))
        few = [c for c in deck if c in types or c == g.joker]
        rng.shuffle(few)
        hand, dead = few[:4], few[4:8]
        suited = [c for c in few[8:] if c != g.joker] + [c for c in deck if c not in types and c != g.joker]
        rng.shuffle(suited)
        community = suited[:4]
        if hu_level(counts_of(hand + community, g), g):
            continue
        state = State(Stage.TING, tuple(sorted(hand)), tuple(sorted(dead)), tuple(sorted(community)), fa_bet=2.0)
        evs = plain.ting_evs(state.hand, state.dead, state.community, state.fa_bet)
        assert [o.ev for o in evaluate(state, config)] == pytest.approx(evs, abs=1e-12, rel=0)
        checked += 1


@pytest.mark.parametrize("config", [TWO_SUITS, ODD_PAYS, ONE_SUIT, THREE_DECKS],
                         ids=["two-suits", "odd-pays", "one-suit", "three-decks"])
def test_draw_stage(config: GameConfig) -> None:
    plain = PLAIN[id(config)]
    for state in random_states(config, Stage.DRAW, 100, seed=2):
        assert_same_options(evaluate(state, config), plain.draw_options(state.hand, state.dead, state.double_down))


@pytest.mark.parametrize("config, n", [(ONE_SUIT, 100), (TWO_SUITS, 6), (THREE_DECKS, 6),
                                       pytest.param(ODD_PAYS, 4, marks=pytest.mark.slow)],
                         ids=["one-suit", "two-suits", "three-decks", "odd-pays"])
def test_deal_stage(config: GameConfig, n: int) -> None:
    plain = PLAIN[id(config)]
    for state in random_states(config, Stage.DEAL, n, seed=3):
        assert_same_options(evaluate(state, config), plain.deal_options(state.hand))


@pytest.mark.parametrize("config", [TWO_SUITS, THREE_DECKS], ids=["two-suits", "three-decks"])
def test_cards_other_seats_showed_at_the_deal_and_the_draw(config: GameConfig) -> None:
    """A claim shows cards to the table (six; two here, so that a mini deck still deals the community):
    dead to the player from the deal on. The evaluator's deal and draw options with them equal the plain
    game's (draws and community from the cards left, every combination)."""
    plain = PLAIN[id(config)]
    g = config.geometry
    rng = random.Random(7)
    for _ in range(4):
        cards = g.cards()
        rng.shuffle(cards)
        hand, shown, dead = tuple(sorted(cards[:6])), tuple(sorted(cards[6:8])), tuple(sorted(cards[8:10]))
        deal = evaluate(State(Stage.DEAL, hand, shown=shown), config)
        assert_same_options(deal, plain.deal_options(hand, shown))
        assert keyed(deal) != keyed(evaluate(State(Stage.DEAL, hand), config))  # the shown cards count
        draw = evaluate(State(Stage.DRAW, hand, dead, shown=shown), config)
        assert_same_options(draw, plain.draw_options(hand, tuple(sorted(dead + shown)), 0.0))


def test_whole_game_of_a_mini_deck() -> None:
    """Exact EV of optimal play over every deal: fast (weighted deal multisets) vs plain (every card combination)."""
    g = ONE_SUIT.geometry
    rows, weights = multisets(g.full_counts(), 6)
    total = 0.0
    for row, weight in zip(rows, weights):
        hand = tuple(int(t) for t in np.repeat(np.arange(g.n_types), row))
        options = evaluate(State(Stage.DEAL, hand), ONE_SUIT)
        total += weight * options[best_index(options)].ev
    fast_ev = total / weights.sum()
    assert fast_ev == pytest.approx(PLAIN[id(ONE_SUIT)].game_ev(), abs=1e-12, rel=0)


@pytest.mark.parametrize("config, bonus", [pytest.param(TWO_SUITS, 1.0, marks=pytest.mark.slow),
                                           pytest.param(TWO_SUITS, 5.0, marks=pytest.mark.slow), (LONG_SUIT, 5.0),
                                           (ODD_PAYS, 2.0)],
                         ids=["two-suits-B1", "two-suits-B5", "long-suit-B5", "odd-pays-B2"])
def test_bonus_objective_at_every_stage(config: GameConfig, bonus: float) -> None:
    """Main game plus a bonus bet B: the bonus settles only if the player bets ting-hu."""
    plain = PlainGame(config, bonus=bonus)
    for state in random_states(config, Stage.TING, 60, seed=4):
        fast = evaluate(State(**{**state.__dict__, "bonus": bonus}), config)
        evs = plain.ting_evs(state.hand, state.dead, state.community, state.fa_bet)
        expected = [("fold", (), 0.0, evs[0] - state.double_down)] + [
            ("bet", (), m * state.fa_bet, ev - state.double_down) for m, ev in zip(config.ting_hu_multiples, evs[1:])
        ]
        assert_same_options(fast, expected)
    for state in random_states(config, Stage.DRAW, 30, seed=5):
        fast = evaluate(State(**{**state.__dict__, "bonus": bonus}), config)
        assert_same_options(fast, plain.draw_options(state.hand, state.dead, state.double_down))
    for state in random_states(config, Stage.DEAL, 2, seed=6):
        fast = evaluate(State(**{**state.__dict__, "bonus": bonus}), config)
        assert_same_options(fast, plain.deal_options(state.hand))


@pytest.mark.parametrize("decks", [2, 3])
def test_hold_values_with_several_decks_of_a_mini_geometry(decks: int) -> None:
    """Six or nine copies of each card (beyond the suit keys' cap of five) and two or three jokers: hold
    values against a naive sum over every four-card community multiset, recomputing the ting decision;
    the first holds have every joker, the next four copies of one card."""
    config = GameConfig(suits=2, ranks=3, copies=3, jokers=1, decks=decks)
    g = config.geometry
    rng = random.Random(8)
    deck = g.cards()
    for trial in range(12):
        cards = deck[:]
        rng.shuffle(cards)
        suited = next(c for c in cards if c != g.joker)
        front = [g.joker] * decks if trial < 4 else [suited] * 4 if trial < 8 else []
        for card in front:
            cards.remove(card)
        cards = front + cards
        hold, dead = tuple(sorted(cards[:4])), tuple(cards[4:8])
        unseen = unseen_suited(hold + dead, config)
        expected = naive_hold_values(hold, unseen, config)
        got = fa_values(counts_of(hold, g), unseen, config)
        np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)


@pytest.mark.parametrize("config, bonus", [(TWO_SUITS, 0.0), (ODD_PAYS, 0.0), (LONG_SUIT, 5.0),
                                           (REDUCED, 0.0)],
                         ids=["two-suits", "odd-pays", "long-suit-B5", "reduced"])
def test_hold_kernel_counts_outcomes_like_a_naive_enumeration(config: GameConfig, bonus: float) -> None:
    """The hold kernel's tracked outcome counts (used by the solve's forward pass) against every
    community multiset with its ting decision recomputed naively, for random holds and stubs."""
    from solver.evaluator.hold import hold_outcomes
    from tests.reference import naive_hold_outcomes

    rng = np.random.default_rng(8)
    g = config.geometry
    deck = [t for t in range(g.n_types) for _ in range(int(g.full_counts()[t]))]
    for _ in range(12):
        cards = [deck[i] for i in rng.choice(len(deck), 8, replace=False)]
        hold = tuple(sorted(cards[:4]))  # the other four cards are dead
        unseen = (g.full_counts() - np.bincount(cards, minlength=g.n_types))[: g.n_suited]
        for fa in config.fa_hu_bets:
            fast, fast_bonus = hold_outcomes(np.bincount(hold, minlength=g.n_types), unseen, fa, 0.0, config, bonus)
            naive, naive_bonus = naive_hold_outcomes(hold, unseen, fa, config, bonus)
            assert {(o.kind, o.ting_bet): n for o, n in fast.items()} == naive
            assert fast_bonus == pytest.approx(naive_bonus, rel=1e-12, abs=1e-9)


@pytest.mark.parametrize("config", [TWO_SUITS, LONG_SUIT, GameConfig(suits=2, ranks=3, copies=3, jokers=1, decks=2),
                                    REDUCED, GameConfig()],
                         ids=["two-suits", "long-suit", "two-decks", "reduced", "full-deck"])
def test_hold_kernel_removing_cards_matches_separate_passes(config: GameConfig) -> None:
    """One pass valuing a hold against many unseen sets (cards removed by inclusion-exclusion) gives
    bit for bit what a separate pass per set gives: no removal, each single card, pairs of
    different cards and of the same card, for random holds with and without jokers."""
    from solver.evaluator.hold import fa_values_removing

    g = config.geometry
    rng = random.Random(11)
    deck = [t for t in range(g.n_types) for _ in range(int(g.full_counts()[t]))]
    for trial in range(4):
        cards = deck[:]
        rng.shuffle(cards)
        if trial == 0:  # a hold with a joker
            cards.remove(g.joker)
            cards.insert(0, g.joker)
        hold = tuple(sorted(cards[:4]))
        unseen = unseen_suited(hold + tuple(cards[4:6]), config)
        present = [t for t in range(g.n_suited) if unseen[t] > 0]
        removals = [(), *[(t,) for t in present[:12]]]
        removals += [tuple(sorted(rng.sample(present, 2))) for _ in range(8)]
        removals += [(t, t) for t in present if unseen[t] >= 2][:4]
        got = fa_values_removing(counts_of(hold, g), unseen, removals, config)
        for removed, row in zip(removals, got):
            left = unseen.copy()
            for t in removed:
                left[t] -= 1
            expected = fa_values(counts_of(hold, g), left, config)
            assert np.array_equal(row, expected), (hold, removed)


@pytest.mark.slow
def test_deal_stage_is_the_same_for_any_number_of_jobs() -> None:
    """Deal-stage EVs are bit for bit the same with one process or two, and progress ends at its total."""
    config = REDUCED
    for state in random_states(config, Stage.DEAL, 2, seed=12):
        seen: list[tuple[int, int]] = []
        one = evaluate(state, config, n_jobs=1)
        two = evaluate(state, config, progress=lambda done, total, seen=seen: seen.append((done, total)), n_jobs=2)
        assert [o.ev for o in one] == [o.ev for o in two]
        assert seen[-1][0] == seen[-1][1] and all(a <= b for (a, _), (b, _) in zip(seen, seen[1:]))


@pytest.mark.parametrize("config", [GameConfig(), GameConfig(ting_hu=1.5, ting_hu_multiples=(1.0, 2.0, 4.0)), ODD_PAYS])
def test_ting_decision_from_summed_nets_is_the_first_best_ev(config: GameConfig) -> None:
    """The hold kernel's ting decision (summed nets against folding's, the smallest or the largest multiple)
    is the first best EV of every option (``_ting_choice``) at every win count of several completion totals:
    the same choice where the payouts are halves; with others (``ODD_PAYS``), an option worth as much."""
    from solver.evaluator.hold import _ting_pick
    from solver.evaluator.ting import _ting_bet_ev, _ting_choice, payout_vector

    pays, multiples = payout_vector(config), np.array(config.ting_hu_multiples)
    exact = config is not ODD_PAYS
    chosen = set()
    for total in (1.0, 2.0, 15.0, 66.0, 190.0):
        for n_hu in range(int(total) + 1):
            for n_flush in range(int(total) - n_hu + 1):
                for fa in config.fa_hu_bets:
                    pick = _ting_pick(float(n_hu), float(n_flush), total, fa, multiples, pays, 0.0)
                    first, best = _ting_choice(float(n_hu), float(n_flush), total, fa, multiples, pays, 0.0)
                    chosen.add(pick)
                    if exact:
                        assert pick == first, (total, n_hu, n_flush, fa)
                    elif pick != first:
                        ev = -1.0 - fa if pick == 0 else _ting_bet_ev(n_hu, n_flush, total, fa,
                                                                       multiples[pick - 1] * fa, pays)
                        assert abs(ev - best) <= 1e-12
    assert chosen == {0, 1, len(multiples)}  # folds, the smallest and the largest multiple all occur


def _case_bonus_evs(unseen: np.ndarray, cases: list[tuple[int, ...]], config: GameConfig, bonus: float
                    ) -> np.ndarray | None:
    """Each case's bonus EVs (``unseen`` less the case's cards), a row a case, for a bonus bet; else None."""
    if not bonus:
        return None
    return np.stack([bonus_evs(unseen - np.bincount(np.array(c, np.int64), minlength=len(unseen)), config)
                     for c in cases])


@pytest.mark.parametrize("bonus", [0.0, 2.0], ids=["no-bonus", "bonus-2"])
def test_upper_bounds_of_a_group_are_the_values_without_the_hand_card_rule(bonus: float) -> None:
    """The deal stage's bound on a hold of two dealt cards and two drawn ones (``fa_upper_bounds_sharing``)
    is its value without the hand-card rule (the naive sum, to 1e-12): at least its exact value, above it
    where the rule bites, equal to it with a joker in hand (where the rule is the plain test). Values read
    after the group's bounds are bit for bit those of a group that made none, and both are the same for a
    group that keeps no completion counts. On the reduced deck, where the rule bites (with two suits of
    four ranks it seldom does). With a bonus bet, each with the hold's own bonus EVs."""
    config = REDUCED
    g = config.geometry
    rng = random.Random(9)
    bites = 0
    for trial in range(4):
        cards = g.cards()
        rng.shuffle(cards)
        if trial == 3:  # a joker among the dealt cards the holds keep
            cards.remove(g.joker)
            cards.insert(0, g.joker)
        hand, base = tuple(sorted(cards[:6])), tuple(sorted(cards[:2]))
        unseen = unseen_suited(hand, config)
        bounded = SharedCounts(counts_of(base, g), unseen, g)
        plain = SharedCounts(counts_of(base, g), unseen, g)
        unpacked = SharedCounts(counts_of(base, g), unseen, g)  # as when counts are too large to pack (4+ decks)
        unpacked.cache = np.zeros(0, np.int32)
        draws, _ = multisets(unseen, 2)
        for row in draws[::3]:
            draw = tuple(int(t) for t in np.repeat(np.arange(g.n_suited), row))
            hold = tuple(sorted(base + draw))
            b = bonus, _case_bonus_evs(unseen - row, [()], config, bonus)
            bound = fa_upper_bounds_sharing(counts_of(hold, g), bounded, config, None, *b)
            exact = fa_values_sharing(counts_of(hold, g), bounded, config, None, *b)
            assert np.array_equal(exact, fa_values_sharing(counts_of(hold, g), plain, config, None, *b))
            assert np.array_equal(bound, fa_upper_bounds_sharing(counts_of(hold, g), unpacked, config, None, *b))
            assert np.array_equal(exact, fa_values_sharing(counts_of(hold, g), unpacked, config, None, *b))
            assert exact == pytest.approx(naive_hold_values(hold, unseen - row, config, bonus=bonus), abs=1e-12,
                                          rel=0)
            assert bound == pytest.approx(naive_hold_values(hold, unseen - row, config, hand_card_rule=False,
                                                            bonus=bonus), abs=1e-12, rel=0)
            assert (bound >= exact - 1e-12).all()
            if g.joker in base:
                assert bound == pytest.approx(exact, abs=1e-12, rel=0)
            bites += bool((bound > exact + 1e-9).any())
    assert bites > 0


@pytest.mark.parametrize("bonus", [0.0, 2.0], ids=["no-bonus", "bonus-2"])
def test_upper_bounds_of_a_group_with_removal_cases(bonus: float) -> None:
    """A hold of three dealt cards and a drawn one, valued for every draw with the draw's other card removed:
    each case's bound is what its definition gives (a naive sum), at least its value without the hand-card
    rule (naive, which is at least the exact value), and values read after the bounds are bit for bit
    those of a group that made none (and of one that keeps no completion counts). With a bonus bet, each
    case with its own bonus EVs."""
    config = REDUCED
    g = config.geometry
    rng = random.Random(10)
    for trial in range(3):
        cards = [c for c in g.cards() if c != g.joker] if trial < 2 else g.cards()
        rng.shuffle(cards)
        hand, base = tuple(sorted(cards[:6])), tuple(sorted(cards[:3]))
        unseen = unseen_suited(hand, config)
        groups = [SharedCounts(counts_of(base, g), unseen, g, removing=True) for _ in range(3)]
        groups[2].cache = np.zeros(0, np.int32)
        groups[2].removal_cache = np.zeros((0, g.n_suited), np.int32)
        for x in sorted(set(cards[6:12]) - {g.joker}):
            hold = tuple(sorted(base + (x,)))
            left = unseen.copy()
            left[x] -= 1
            cases = [()] + [(t,) for t in range(g.n_suited) if left[t] > 0]
            b = bonus, _case_bonus_evs(left, cases, config, bonus)
            bounds = fa_upper_bounds_sharing(counts_of(hold, g), groups[0], config, cases, *b)
            exact = fa_values_sharing(counts_of(hold, g), groups[0], config, cases, *b)
            assert np.array_equal(exact, fa_values_sharing(counts_of(hold, g), groups[1], config, cases, *b))
            assert np.array_equal(bounds, fa_upper_bounds_sharing(counts_of(hold, g), groups[2], config, cases, *b))
            assert np.array_equal(exact, fa_values_sharing(counts_of(hold, g), groups[2], config, cases, *b))
            for case, bound, value in zip(cases, bounds, exact):
                unseen_case = left.copy()
                for t in case:
                    unseen_case[t] -= 1
                free = naive_hold_values(hold, unseen_case, config, hand_card_rule=False, bonus=bonus)
                assert value == pytest.approx(naive_hold_values(hold, unseen_case, config, bonus=bonus), abs=1e-12,
                                              rel=0)
                assert (bound >= free - 1e-12).all() and (free >= value - 1e-12).all()
                assert bound == pytest.approx(naive_removal_bounds(hold, left, case, config, bonus=bonus),
                                              abs=1e-12, rel=0)


@pytest.mark.parametrize("bonus", [0.0, 2.0], ids=["no-bonus", "bonus-2"])
def test_upper_bounds_of_a_hold_of_dealt_cards(bonus: float) -> None:
    """A hold of four dealt cards, valued for every draw with both drawn cards removed: each case's bound is
    what its definition gives over the completions two removals leave (a naive sum), and at least the
    case's value without the hand-card rule, which is at least its exact value (each case with its own
    bonus EVs, with a bonus bet)."""
    config = REDUCED
    g = config.geometry
    rng = random.Random(11)
    for _ in range(3):
        cards = g.cards()
        rng.shuffle(cards)
        hold, unseen = tuple(sorted(cards[:4])), unseen_suited(tuple(cards[:6]), config)
        suited = [t for t in range(g.n_suited) if unseen[t] > 0]
        cases = [(), (suited[0],), (suited[0], suited[-1])] + [tuple(sorted(rng.sample(suited, 2))) for _ in range(4)]
        b = bonus, _case_bonus_evs(unseen, cases, config, bonus)
        bounds = fa_upper_bounds_removing(counts_of(hold, g), unseen, cases, config, *b)
        exact = fa_values_removing(counts_of(hold, g), unseen, cases, config, *b)
        for case, bound, value in zip(cases, bounds, exact):
            unseen_case = unseen.copy()
            for t in case:
                unseen_case[t] -= 1
            free = naive_hold_values(hold, unseen_case, config, hand_card_rule=False, bonus=bonus)
            assert value == pytest.approx(naive_hold_values(hold, unseen_case, config, bonus=bonus), abs=1e-12,
                                          rel=0)
            assert (bound >= free - 1e-12).all() and (free >= value - 1e-12).all()
            assert bound == pytest.approx(naive_removal_bounds(hold, unseen, case, config, most=2, bonus=bonus),
                                          abs=1e-12, rel=0)


def test_deal_stage_values_exactly_the_pairs_whose_bound_reaches_their_limit() -> None:
    """The deal stage's bounded jobs, of each kind (a hold of dealt cards, a group of one drawn card, one of
    two), given limits about each (hold, draw) pair's bound: a pair is valued, bit for bit as alone, exactly
    when its bound plus the margin reaches its limit."""
    from solver.evaluator.deal import _jobs, _value_bounded

    config = REDUCED
    g = config.geometry
    hand = next(random_states(config, Stage.DEAL, 1, seed=14)).hand
    rows, _ = multisets(g.full_counts() - counts_of(hand, g), 2)
    draws = [tuple(int(t) for t in np.repeat(np.arange(g.n_types), row)) for row in rows]
    jobs = _jobs(hand, draws, config)
    kinds = [next(j for j in jobs if j.base is None and j.removals is not None),
             next(j for j in jobs if j.base is not None and j.removals is not None),
             next(j for j in jobs if j.base is not None and j.removals is None)]
    for job in kinds:
        counts = [counts_of(hold, g) for hold in job.holds]
        if job.base is None:
            bounds = [fa_upper_bounds_removing(c, job.unseen, list(r), config) for c, r in zip(counts, job.removals)]
            exact = [fa_values_removing(c, job.unseen, list(r), config) for c, r in zip(counts, job.removals)]
        else:
            shared = SharedCounts(counts_of(job.base, g), job.unseen, g, job.removals is not None)
            cases = [list(r) for r in job.removals] if job.removals is not None else [None] * len(counts)
            bounds = [np.atleast_2d(fa_upper_bounds_sharing(c, shared, config, r)) for c, r in zip(counts, cases)]
            plain = SharedCounts(counts_of(job.base, g), job.unseen, g, job.removals is not None)
            exact = [np.atleast_2d(fa_values_sharing(c, plain, config, r)) for c, r in zip(counts, cases)]
        steps = np.array([-2e-8, 0.5e-8, 2e-8])  # the margin is 1e-8
        limits = [b.max(axis=1) + steps[np.arange(len(b)) % 3] for b in bounds]
        got = _value_bounded([job], [limits], config)[0]
        expected = [row if step < 1e-8 else None for b, e in zip(bounds, exact)
                    for row, step in zip(e, steps[np.arange(len(b)) % 3])]
        assert len(got) == len(expected) > 1
        for value, want in zip(got, expected):
            assert (value is None) == (want is None)
            assert value is None or np.array_equal(value, want)


def test_deal_stage_leaves_out_only_holds_that_cannot_be_best() -> None:
    """The deal stage values a hold only when its bound reaches the best of the other holds of some
    discard keeping it (or folding's -1): every discard's best hold after every draw is still among the
    holds valued (each value bit for bit the kernel's), and some holds of no drawn card, of one and of two
    are left out. Three suits of six ranks (37 cards): on the reduced deck no hold of dealt cards is worth
    less than folding."""
    config = GameConfig(suits=3, ranks=6, copies=2, jokers=1)
    g = config.geometry
    left_out: set[int] = set()
    for state in random_states(config, Stage.DEAL, 2, seed=13):
        hand = state.hand
        evaluation = evaluate_deal(hand, config)
        for draw, values in zip(evaluation.draws, evaluation.hold_values):
            unseen = unseen_suited(hand + draw, config)
            seen = submultisets(tuple(sorted(hand + draw)), 4)
            exact = {h: fa_values(counts_of(h, g), unseen, config) for h in seen}
            assert all(np.array_equal(v, exact[h]) for h, v in values.items())
            left_out |= {sum((Counter(h) - Counter(hand)).values()) for h in seen if h not in values}  # drawn
            for discard in submultisets(hand, 2):
                holds = submultisets(tuple(sorted(remove_cards(hand, discard) + draw)), 4)
                best = max([-1.0] + [exact[h].max() for h in holds])
                assert best == max([-1.0] + [exact[h].max() for h in holds if h in values])
    assert left_out >= {0, 1, 2}


@pytest.mark.parametrize("config, bonus", [(GameConfig(suits=3, ranks=6, copies=2, jokers=1), 1.0),
                                           (GameConfig(suits=2, ranks=4, copies=2, jokers=2), 2.0)],
                         ids=["three-suits-B1", "two-jokers-B2"])
def test_deal_stage_with_a_bonus_values_the_holds_that_can_be_best_as_alone(config: GameConfig,
                                                                           bonus: float) -> None:
    """With a bonus bet the deal stage shares the holds' work across draws (removal cases, groups sharing
    their counts), each draw's bonus EVs worked out once, and bounds the holds with each case's bonus EVs
    (the nets of betting kept, the best of folding and betting taken case by case): every value is bit for
    bit the hold's valued alone against that draw's unseen cards, every discard's best hold after every
    draw is among those valued, and the options are what the exact values of every hold make."""
    from solver.evaluator.deal import _discard_values

    g = config.geometry
    n_values = n_valued = 0
    for state in random_states(config, Stage.DEAL, 2, seed=21):
        hand = state.hand
        discards = submultisets(hand, 2)
        evaluation = evaluate_deal(hand, config, n_jobs=2, bonus_bet=bonus)
        totals = np.zeros((2, len(discards)))
        for draw, weight, values in zip(evaluation.draws, evaluation.draw_weights, evaluation.hold_values):
            unseen = unseen_suited(hand + draw, config)
            bonus_ev = bonus_evs(unseen, config)
            seen = submultisets(tuple(sorted(hand + draw)), 4)
            exact = {h: fa_values(counts_of(h, g), unseen, config, bonus, bonus_ev) for h in seen}
            assert all(np.array_equal(v, exact[h]) for h, v in values.items())
            for discard in discards:
                holds = submultisets(tuple(sorted(remove_cards(hand, discard) + draw)), 4)
                best = max([-1.0] + [exact[h].max() for h in holds])
                assert best == max([-1.0] + [exact[h].max() for h in holds if h in values])
            totals += weight * _discard_values(hand, draw, {h: float(v.max()) for h, v in exact.items()}, discards,
                                               config)
            n_values += len(seen)
            n_valued += len(values)
        options = [o for o in evaluation.options if o.action == "discard"]
        assert [o.ev for o in options] == list((totals / evaluation.draw_weights.sum()).ravel())
    assert 0 < n_valued < n_values


def test_bonus_evs_of_every_draw_at_once_are_each_draws_own() -> None:
    """The bonus EVs of many unseen sets, each the same one less a case's cards (none, one, two alike or
    not, the last copy of a card), from one pass: bit for bit :func:`bonus_evs` of each; and None
    where the nets' sums would not be exact (a payout of 0.1)."""
    from dataclasses import replace

    from solver.evaluator.hold import bonus_evs_removing

    config = REDUCED
    unseen = unseen_suited((0, 0, 5, 9), config)
    cases = [(), (1,), (1, 1), (2, 7), (3, 3), (5,), (5, 11), (9, 11)]  # 5 and 9: one copy left
    rows = bonus_evs_removing(unseen, cases, config)
    for case, row in zip(cases, rows):
        less = unseen - np.bincount(np.array(case, np.int64), minlength=len(unseen))
        assert np.array_equal(row, bonus_evs(less, config))
    assert (rows == 0.0).any() and (rows != 0.0).any() and len({r.tobytes() for r in rows}) == len(cases)
    assert bonus_evs_removing(unseen, cases, replace(config, bonus_hu=0.1)) is None


def test_a_bonus_deal_query_removes_the_folders_killed_ones_left(tmp_path, monkeypatch) -> None:
    """A deal query with a bonus bet keeps each draw's bonus EVs in a temporary folder named by its process,
    removed when it ends; one killed (SIGTERM, SIGKILL) leaves it, so the next removes those whose process
    is gone, and no other, and leaves none of its own."""
    import subprocess
    import sys
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    stale = tmp_path / f"mahjong-poker-bonus-{gone.pid}-abc"
    live = tmp_path / f"mahjong-poker-bonus-{os.getppid()}-abc"
    other = tmp_path / "mahjong-poker-bonus-notes"
    for folder in (stale, live, other):
        folder.mkdir()
        (folder / "bonus-evs.npy").write_bytes(b"0" * 10)
    config = TWO_SUITS
    hand = next(random_states(config, Stage.DEAL, 1, seed=3)).hand
    evaluate_deal(hand, config, bonus_bet=1.0)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([live.name, other.name])
