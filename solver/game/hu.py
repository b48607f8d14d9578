"""Hu detection (docs/rules.md, "The hu"), with jokers wild.

A group of cards can form a hu when a pair and a set (triplet or run) fit
in it, jokers filling the gaps. Since jokers are wild, this reduces to a
joker *deficit*: for a chosen pair and set, the number of their cards the
group lacks. The group forms a hu when the smallest deficit is at most its
number of jokers.

The pair and the set are either in one suit or in two different suits, so
three numbers per suit decide everything: the jokers needed to complete a
pair there, a set there, and a pair plus a set there. Then

* hu       <=> min(min_s both[s], min_{a != b} pair[a] + set[b]) <= jokers
* flush hu <=> min_s both[s] <= jokers

(a joker takes the suit of the card it stands for, so a pair made of two
jokers can sit in any suit, hence ``pair = 2`` in an empty suit).

Step 14 counts only a hu that uses at least one hand card. A hand joker is
a hand card and can replace any card of any hu, so with a joker in hand the
rule is the plain one; without, the kernels track which pairs and sets touch
a card type held in hand.

The kernels here are compiled with numba; they take ready count vectors
(see :mod:`solver.game.cards`) and never validate.
"""

from __future__ import annotations

from enum import IntEnum
from functools import lru_cache

import numpy as np

from solver.game.cards import DeckGeometry, counts_of
from solver.game.config import GameConfig
from solver.runtime.jit import kernel

#: Deficits larger than any real one.
_NEVER = 99


class HuLevel(IntEnum):
    """What a group of cards can form: nothing, a hu, or a flush hu (which is the one paid)."""

    NONE = 0
    HU = 1
    FLUSH = 2


@kernel
def _suit_needs(counts, start, ranks):
    """Jokers needed in one suit for (a pair, a set, a pair plus a set).

    A pair on rank p goes with a triplet on p (five cards), a triplet on
    another rank, a run through p (p three times) or a run elsewhere. The
    best triplet elsewhere is the smallest triplet need, or the second
    smallest where p holds the smallest; the best run elsewhere is the
    smallest run need before p - 2 or after p. So the work is linear in
    the ranks, which matters when the kernels run as plain Python.
    """
    pair_need = 2
    low3 = 3  # the two smallest triplet needs
    next3 = 3
    for t in range(ranks):
        c = int(counts[start + t])  # int(): plain Python arithmetic when interpreted, free when compiled
        pair_need = min(pair_need, max(0, 2 - c))
        need3 = max(0, 3 - c)
        if need3 < low3:
            next3 = low3
            low3 = need3
        elif need3 < next3:
            next3 = need3
    n_runs = max(0, ranks - 2)
    runs = np.empty(n_runs, np.int64)
    for a in range(n_runs):
        runs[a] = (int(counts[start + a] == 0) + int(counts[start + a + 1] == 0)
                   + int(counts[start + a + 2] == 0))
    # smallest run need among runs starting at or before a (before[a]) and at or after a (after[a])
    before = runs.copy()
    after = runs.copy()
    for a in range(1, n_runs):
        before[a] = min(before[a], before[a - 1])
        after[n_runs - 1 - a] = min(after[n_runs - 1 - a], after[n_runs - a])
    set_need = low3
    for a in range(n_runs):
        set_need = min(set_need, runs[a])
    both_need = 5
    for p in range(ranks):
        cp = int(counts[start + p])
        pair_p = max(0, 2 - cp)
        elsewhere = next3 if max(0, 3 - cp) == low3 else low3
        need = min(max(0, 5 - cp), pair_p + elsewhere)
        if p >= 3:
            need = min(need, pair_p + before[p - 3])
        if p + 1 < n_runs:
            need = min(need, pair_p + after[p + 1])
        for a in range(max(0, p - 2), min(p, n_runs - 1) + 1):
            need = min(need, runs[a] - int(cp == 0) + max(0, 3 - cp))
        both_need = min(both_need, need)
    return pair_need, set_need, both_need


@kernel
def _hu_level(counts, suits, ranks):
    """0 (no hu), 1 (hu) or 2 (flush hu) for a count vector whose last entry is jokers."""
    jokers = counts[suits * ranks]
    if jokers == 0:
        # Without jokers only whole pairs and sets fit: the hand-card flags say which, every
        # card counting as a hand card. Far fewer steps than the joker needs.
        return _flags_level(counts, np.zeros_like(counts), suits, ranks)
    pair_needs = np.empty(suits, np.int64)
    set_needs = np.empty(suits, np.int64)
    best_flush = _NEVER
    for s in range(suits):
        pair_need, set_need, both_need = _suit_needs(counts, s * ranks, ranks)
        pair_needs[s] = pair_need
        set_needs[s] = set_need
        best_flush = min(best_flush, both_need)
    if best_flush <= jokers:
        return 2
    for a in range(suits):
        for b in range(suits):
            if a != b and pair_needs[a] + set_needs[b] <= jokers:
                return 1
    return 0


# Bits of one suit's hand-card flags (no jokers): a pair, a pair touching a hand card, a set,
# a set touching a hand card, a pair plus a set touching a hand card.
PAIR_ANY, PAIR_HAND, SET_ANY, SET_HAND, BOTH_HAND = 1, 2, 4, 8, 16


@kernel
def _suit_flags_with_hand(hand, community, start, ranks):
    """One suit's hand-card flags (bits ``PAIR_ANY`` ... ``BOTH_HAND``), with no jokers."""
    flags = 0
    for p in range(ranks):
        cp = hand[start + p] + community[start + p]
        hp = hand[start + p] > 0
        if cp >= 2:
            flags |= PAIR_ANY | (PAIR_HAND if hp else 0)
        if cp >= 3:
            flags |= SET_ANY | (SET_HAND if hp else 0)
    for a in range(ranks - 2):
        if (hand[start + a] + community[start + a] >= 1 and hand[start + a + 1] + community[start + a + 1] >= 1
                and hand[start + a + 2] + community[start + a + 2] >= 1):
            flags |= SET_ANY
            if hand[start + a] > 0 or hand[start + a + 1] > 0 or hand[start + a + 2] > 0:
                flags |= SET_HAND
    if not (flags & PAIR_ANY and flags & SET_ANY):
        return flags
    for p in range(ranks):
        cp = hand[start + p] + community[start + p]
        if cp < 2:
            continue
        hp = hand[start + p] > 0
        for t in range(ranks):
            fits = cp >= 5 if t == p else hand[start + t] + community[start + t] >= 3
            if fits and (hp or hand[start + t] > 0):
                return flags | BOTH_HAND
        for a in range(ranks - 2):
            fits = True
            touches = hp
            for i in range(a, a + 3):
                want = 3 if i == p else 1
                if hand[start + i] + community[start + i] < want:
                    fits = False
                if hand[start + i] > 0:
                    touches = True
            if fits and touches:
                return flags | BOTH_HAND
    return flags


@kernel(inline="always")
def _new_flags_memo(cap, ranks, jokers):
    """A hold's memo of suits' hand-card flags (:func:`_suit_flags_with_hand`) by suit and suit key, -1 until
    found: (cap + 1)^ranks bytes a suit (0.8 MB for the real deck), none with a joker in hand (the rule is
    then the plain test). Looked up by key directly: a hashed memo measured slower per lookup (the
    evaluator's passes twice as long, stage A's columns 6% longer)."""
    return np.full((3, (cap + 1) ** ranks if jokers == 0 else 1), -1, np.int8)


@kernel(inline="always")
def _level_from_flags(f0, f1, f2):
    """Hand-card hu level from three suits' flags (a missing suit has none): a flush hu when
    one suit has a pair plus a set touching the hand, else a hu when a pair and a set of two
    suits fit with one of them touching it."""
    if (f0 | f1 | f2) & BOTH_HAND:
        return 2
    f = (f0, f1, f2)
    for a in range(3):
        for b in range(3):
            if a != b and ((f[a] & PAIR_HAND and f[b] & SET_ANY) or (f[a] & PAIR_ANY and f[b] & SET_HAND)):
                return 1
    return 0


@kernel
def _hu_level_with_hand(hand, community, suits, ranks):
    """Like :func:`_hu_level` for hand + community, counting only hus that use a hand card."""
    if hand[suits * ranks] > 0:
        return _hu_level(hand + community, suits, ranks)
    return _flags_level(hand, community, suits, ranks)


@kernel
def _flags_level(hand, community, suits, ranks):
    """The hand-card hu level of hand + community, neither holding a joker."""
    f0 = _suit_flags_with_hand(hand, community, 0, ranks)
    f1 = _suit_flags_with_hand(hand, community, ranks, ranks) if suits > 1 else 0
    f2 = _suit_flags_with_hand(hand, community, 2 * ranks, ranks) if suits > 2 else 0
    return _level_from_flags(f0, f1, f2)


@kernel
def _hu_levels(counts_rows, suits, ranks, out):
    """Hu level of every row of a 2-D count array, written into ``out``."""
    for i in range(counts_rows.shape[0]):
        out[i] = _hu_level(counts_rows[i], suits, ranks)


def hu_level(counts: np.ndarray, geometry: DeckGeometry) -> HuLevel:
    """What the group ``counts`` (length ``n_types``, jokers last) can form."""
    counts = np.ascontiguousarray(counts, dtype=np.int64)
    return HuLevel(_hu_level(counts, geometry.suits, geometry.ranks))


def claim_value(hand: tuple[int, ...], config: GameConfig, multiplier: float, flush_pays: float,
                pays: float) -> float | None:
    """Payout of claiming a hu of ``hand`` (``None`` if it has none)."""
    level = hu_level(counts_of(hand, config.geometry), config.geometry)
    if level == 0:
        return None
    return multiplier * (flush_pays if level == 2 else pays)


def hu_level_with_hand(hand_counts: np.ndarray, community_counts: np.ndarray, geometry: DeckGeometry) -> HuLevel:
    """What hand + community can form with a hu that uses at least one hand card (step 14)."""
    hand = np.ascontiguousarray(hand_counts, dtype=np.int64)
    community = np.ascontiguousarray(community_counts, dtype=np.int64)
    return HuLevel(_hu_level_with_hand(hand, community, geometry.suits, geometry.ranks))


def hu_levels(counts_rows: np.ndarray, geometry: DeckGeometry) -> np.ndarray:
    """Hu level (0, 1, 2) of every row of a 2-D count array."""
    rows = np.ascontiguousarray(counts_rows, dtype=np.int64)
    out = np.empty(rows.shape[0], dtype=np.int8)
    _hu_levels(rows, geometry.suits, geometry.ranks, out)
    return out


# ---------------------------------------------------------------------------
# Table-driven hu detection for hot loops.
#
# A suit's counts are packed into a key, one digit of base ``cap + 1`` per
# rank (``cap = min(copies_in_play, 5)``: a pair plus a triplet of one card needs
# five copies, so larger counts change nothing). ``suit_table[key]`` holds
# the suit's three joker needs packed in a byte: pair (bits 0-1), set
# (bits 2-3), pair + set (bits 4-6). A missing suit (geometries with fewer
# than three suits) reads as an empty one, ``EMPTY_SUIT``, which changes no
# answer: an empty suit only offers joker-made pairs and sets, and those
# fit in any real suit too.
# ---------------------------------------------------------------------------

EMPTY_SUIT = 2 | (3 << 2) | (5 << 4)


def digit_cap(geometry: DeckGeometry) -> int:
    """Largest count a suit key distinguishes."""
    return min(geometry.copies_in_play, 5)


@kernel
def _fill_suit_table(ranks, cap, out):
    counts = np.zeros(ranks, np.int64)
    base = cap + 1
    for key in range(out.shape[0]):
        k = key
        for r in range(ranks):
            counts[r] = k % base
            k //= base
        pair_need, set_need, both_need = _suit_needs(counts, 0, ranks)
        out[key] = pair_need | (set_need << 2) | (both_need << 4)


@lru_cache(maxsize=4)
def suit_table(geometry: DeckGeometry) -> np.ndarray:
    """Packed joker needs for every suit key of the geometry (262,144 entries for the real deck).

    Built once per geometry and shared: callers must not write to it."""
    cap = digit_cap(geometry)
    out = np.empty((cap + 1) ** geometry.ranks, dtype=np.uint8)
    _fill_suit_table(geometry.ranks, cap, out)
    return out


@kernel(inline="always")
def _level_packed(n0, n1, n2, jokers):
    """Hu level from the packed needs of three suits and the number of jokers."""
    if min(n0 >> 4, min(n1 >> 4, n2 >> 4)) <= jokers:
        return 2
    p0, p1, p2 = n0 & 3, n1 & 3, n2 & 3
    s0, s1, s2 = (n0 >> 2) & 3, (n1 >> 2) & 3, (n2 >> 2) & 3
    cross = min(min(p0 + s1, p0 + s2), min(min(p1 + s0, p1 + s2), min(p2 + s0, p2 + s1)))
    return 1 if cross <= jokers else 0


@kernel
def _suit_keys(counts, suits, ranks, cap, keys):
    """Per-suit keys of a count vector (three entries; missing suits get key -1)."""
    base = cap + 1
    for s in range(3):
        keys[s] = -1
    for s in range(suits):
        key = 0
        power = 1
        for r in range(ranks):
            key += min(counts[s * ranks + r], cap) * power
            power *= base
        keys[s] = key


@kernel(inline="always")
def _needs_of_key(table, key):
    return EMPTY_SUIT if key < 0 else np.int64(table[key])


@kernel
def _levels_of_rows(rows, table, suits, ranks, cap, out):
    """Plain hu level of each sorted row of suited types (no jokers), from suit keys."""
    powers = np.ones(ranks, np.int64)
    for r in range(1, ranks):
        powers[r] = powers[r - 1] * (cap + 1)
    keys = np.empty(3, np.int64)
    for i in range(rows.shape[0]):
        for s in range(3):
            keys[s] = -1 if s >= suits else 0
        run = 0
        for c in range(rows.shape[1]):
            t = rows[i, c]
            run = run + 1 if c > 0 and rows[i, c - 1] == t else 1
            if run <= cap:
                s = t // ranks
                keys[s] += powers[t - s * ranks]
        out[i] = _level_packed(
            _needs_of_key(table, keys[0]), _needs_of_key(table, keys[1]), _needs_of_key(table, keys[2]), 0
        )


def levels_of_rows(rows: np.ndarray, geometry: DeckGeometry) -> np.ndarray:
    """Plain hu level (0, 1, 2) of each sorted row of suited types, e.g. every six-card community."""
    out = np.empty(len(rows), np.int8)
    _levels_of_rows(rows, suit_table(geometry), geometry.suits, geometry.ranks, digit_cap(geometry), out)
    return out
