"""The game's 48 symmetries, the canonical form (plain Python and compiled alike), and the class counts
of every stage of the solve, pinned for the real deck and counted by brute force on a mini deck."""

from __future__ import annotations

import random
from collections import defaultdict
from itertools import combinations_with_replacement
from math import comb

import numpy as np
import pytest

from solver.game.cards import DeckGeometry
from solver.game.combinatorics import multisets, remove_cards, submultisets
from solver.game.config import GameConfig
from solver.game.symmetry import (
    apply,
    canonical,
    canonical_mapping,
    deal_classes,
    decode,
    encode,
    inverse,
    relabellings,
)
from solver.game.symmetry_kernels import _canonical_key, canonical_keys, pattern_base
from solver.staged.classes import extensions, group_classes
from solver.staged.run import deal_discards

REAL = GameConfig().geometry
MINI = DeckGeometry(suits=2, ranks=4, copies_in_play=2, jokers_in_play=1)


def _deck(geometry: DeckGeometry) -> list[int]:
    return geometry.cards()


@pytest.mark.parametrize("geometry, size", [(REAL, 48), (MINI, 8), (GameConfig(suits=1, ranks=5).geometry, 2)])
def test_the_group(geometry: DeckGeometry, size: int) -> None:
    """suits! x 2^suits distinct relabellings, closed under composition, the joker fixed."""
    maps = relabellings(geometry)
    assert len(maps) == len(set(maps)) == size
    assert maps[0] == tuple(range(geometry.n_types))
    members = set(maps)
    for a in maps:
        assert a[geometry.joker] == geometry.joker and inverse(a) in members
        for b in maps[:5]:
            assert tuple(b[a[t]] for t in range(geometry.n_types)) in members


def test_reversing_one_suit_keeps_runs_pairs_and_flushes() -> None:
    """Reversing the ranks of one suit alone is a symmetry: 789m 5p 5p maps to 123m 55p."""
    flip_m = next(m for m in relabellings(REAL) if m[0] == 8 and m[9] == 9)
    assert apply(flip_m, (6, 7, 8, 13, 13)) == (0, 1, 2, 13, 13)


@pytest.mark.parametrize("geometry", [REAL, MINI, GameConfig(decks=2).geometry])
def test_canonical_forms_agree_and_are_invariant(geometry: DeckGeometry) -> None:
    """Every relabelling of a state has the same canonical form; the plain-Python and compiled forms
    agree; the returned relabelling maps the state onto it."""
    rng = random.Random(7)
    deck = _deck(geometry)
    maps = relabellings(geometry)
    for _ in range(400):
        cards = rng.sample(deck, 8)
        hand, dead = tuple(sorted(cards[:6])), tuple(sorted(cards[6:]))
        (c_hand, c_dead), mapping = canonical(geometry, hand, dead)
        assert (apply(mapping, hand), apply(mapping, dead)) == (c_hand, c_dead)
        assert canonical(geometry, c_hand, c_dead)[0] == (c_hand, c_dead)
        for other in rng.sample(maps, min(6, len(maps))):
            assert canonical(geometry, apply(other, hand), apply(other, dead))[0] == (c_hand, c_dead)
        key = canonical_keys(geometry, np.array([hand]), np.array([dead]))[0]
        assert key == encode(geometry, c_hand, c_dead)
        assert decode(geometry, key, 6, 2) == (c_hand, c_dead)


@pytest.mark.parametrize("geometry", [REAL, MINI, GameConfig(suits=1, ranks=5).geometry,
                                      GameConfig(decks=2).geometry])
def test_the_key_from_cards_equals_the_key_from_counts(geometry: DeckGeometry) -> None:
    """The solve keys most states from their cards, in any order (:func:`canonical_keys`, stages B and
    C), and enumerates classes from count vectors: both give every state the same key."""
    rng = random.Random(11)
    deck = _deck(geometry)
    n = geometry.n_types
    scratch = np.empty(n, np.int64), np.empty(n, np.int64)
    for n_first, n_second in ((4, 4), (6, 2), (4, 2), (6, 0)):
        rows = [rng.sample(deck, n_first + n_second) for _ in range(300)]
        first = np.array([r[:n_first] for r in rows], np.int64)
        second = np.array([r[n_first:] for r in rows], np.int64).reshape(len(rows), n_second)
        for hand, dead, key in zip(first, second, canonical_keys(geometry, first, second)):
            assert key == _canonical_key(np.bincount(hand, minlength=n), np.bincount(dead, minlength=n),
                                         geometry.suits, geometry.ranks, pattern_base(geometry), *scratch)


def test_the_canonical_form_puts_cards_low_and_the_fullest_suit_first() -> None:
    assert canonical(REAL, (8, 8, 24))[0] == ((0, 0, 11),)  # 99m 7s -> 11m 3p
    assert canonical_mapping(REAL, (0, 1)) == canonical_mapping(REAL, (0, 1), ())


def _orbits(geometry: DeckGeometry, first: int, second: int) -> set[tuple]:
    """Brute force: every (first, second) state of the deck, up to symmetry, as the smallest image."""
    deck_types = range(geometry.n_types)
    full = geometry.full_counts()
    maps = relabellings(geometry)
    seen = set()
    for a in combinations_with_replacement(deck_types, first):
        rest = full.copy()
        for c in a:
            rest[c] -= 1
        if (rest < 0).any():
            continue
        for b in combinations_with_replacement(deck_types, second):
            left = rest.copy()
            for c in b:
                left[c] -= 1
            if (left < 0).any():
                continue
            seen.add(min((apply(m, a), apply(m, b)) for m in maps))
    return seen


@pytest.mark.parametrize("first, second", [(4, 0), (6, 0), (4, 2), (6, 2), (4, 4)])
def test_class_enumeration_matches_brute_force_on_a_mini_deck(first: int, second: int) -> None:
    """Each class once: as many classes as orbits found by applying every relabelling."""
    groups = group_classes(MINI, first)
    if second:
        found = sum(len(extensions(MINI, tuple(int(c) for c in g), second)) for g in groups)
    else:
        found = len(groups)
    assert found == len(_orbits(MINI, first, second))


@pytest.mark.slow
def test_deal_class_weights_sum_to_all_deals() -> None:
    """Each multiset is drawn prod C(copies, taken) ways; the classes partition the multisets."""
    hands, weights = deal_classes(REAL)
    assert len(hands) == 38_454 and int(weights.sum()) == comb(82, 6) == 350_161_812
    rows, _ = multisets(REAL.full_counts(), 6)
    assert len(rows) == 1_065_168
    orbit_sizes = defaultdict(int)
    keys = canonical_keys(REAL, np.array([np.repeat(np.arange(REAL.n_types), r) for r in rows[::997]]))
    for key in keys:
        orbit_sizes[int(key)] += 1
    assert set(orbit_sizes) <= {encode(REAL, tuple(h)) for h in hands}


@pytest.mark.parametrize("geometry", [REAL, MINI, GameConfig(suits=1, ranks=5).geometry],
                         ids=["real", "mini", "one-suit"])
def test_deal_discards_are_each_hands_distinct_pairs_in_order(geometry: DeckGeometry) -> None:
    """Stage D's discards of every deal class, taken at once: each hand's distinct two-card sub-multisets in
    lexicographic order and what each keeps, as listed one hand at a time (the real deck: every 17th class)."""
    hands, _ = deal_classes(geometry)
    hands = hands[::17] if geometry == REAL else hands
    kept, thrown, ends = deal_discards(hands, geometry.n_types)
    listed = [submultisets(tuple(int(c) for c in hand), 2) for hand in hands]
    assert ends.tolist() == np.cumsum([len(ds) for ds in listed]).tolist()
    assert thrown.tolist() == [list(d) for ds in listed for d in ds]
    assert kept.tolist() == [list(remove_cards(tuple(int(c) for c in hand), d)) for hand, ds in zip(hands, listed)
                             for d in ds]


@pytest.mark.slow
def test_real_deck_class_counts() -> None:
    """The sizes of the solve's stages on the real deck (stage A's is pinned by the slow test below)."""
    holds = group_classes(REAL, 4)
    assert len(holds) == 1_620
    assert sum(len(extensions(REAL, tuple(int(c) for c in h), 2)) for h in holds) == 406_468
    six = group_classes(REAL, 6)
    assert len(six) == 38_454
    assert sum(len(extensions(REAL, tuple(int(c) for c in h), 2)) for h in six) == 11_641_881
    rows, _ = multisets(REAL.full_counts(), 4)
    assert len(rows) == 31_032


@pytest.mark.slow
def test_real_deck_stage_a_class_count() -> None:
    """(hold, four dead cards): 25,378,646 classes of 939,978,000 labelled states."""
    holds = group_classes(REAL, 4)
    assert sum(len(extensions(REAL, tuple(int(c) for c in h), 4)) for h in holds) == 25_378_646
    total = sum(_multiset_count(REAL.full_counts() - h, 4) for h in multisets(REAL.full_counts(), 4)[0])
    assert total == 939_978_000


def _multiset_count(avail: np.ndarray, k: int) -> int:
    """How many k-card multisets ``avail`` allows (a count over types, each taken 0..avail times)."""
    ways = [1] + [0] * k
    for cap in avail:
        ways = [sum(ways[j - i] for i in range(min(int(cap), j) + 1)) for j in range(k + 1)]
    return ways[k]
