"""The states of each stage of the solve, one per class of the game's symmetries.

Every state the solve stores is a pair of card groups (a first group held,
a second one seen: the hand and the dead cards) in canonical form
(:mod:`solver.game.symmetry`). The canonical form orders suits and ranks by the
first group before the second, so the pairs whose first group is a given
canonical group ``F`` are exactly ``(F, G)`` for the groups ``G`` that make
the pair canonical: enumerating ``G`` over every multiset of the cards ``F``
leaves and keeping the canonical pairs lists each class once.

For the real deck (pinned in the tests):

=====================================================  =========  ==============
states                                                   classes  all (labelled)
=====================================================  =========  ==============
six-card deals                                            38,454       1,065,168
four-card holds                                            1,620          31,032
(hold, four dead cards): stage A                      25,378,646     939,978,000
(six cards after the draw, two dead): stage B         11,641,881
(first hold, two first discards): stage C                406,468
=====================================================  =========  ==============
"""

from __future__ import annotations

from math import comb

import numpy as np

from solver.game.cards import DeckGeometry
from solver.game.combinatorics import multisets
from solver.game.symmetry_kernels import _canonical_key_of_cards, canonical_keys, pattern_powers
from solver.runtime.jit import kernel


@kernel
def _extensions(first, avail, k, suits, ranks, powers, out):
    """The sorted k-card groups G (rows of type indices, ``G_t <= avail[t]``) for which (``first``, G)
    is canonical, in increasing order, written to ``out`` while it has room; returns how many."""
    n_types = first.shape[0]
    second = np.zeros(n_types, np.int64)
    cards = np.empty(first.sum(), np.int64)
    scratch = np.empty(max(cards.shape[0], k), np.int64)
    row = np.zeros(k, np.int64)
    first_key = 0
    n_first = 0
    for t in range(n_types):
        for _ in range(first[t]):
            first_key = first_key * n_types + t
            cards[n_first] = t
            n_first += 1
    found = 0
    # non-decreasing rows in lexicographic order, each type at most avail[t] times
    depth = 0
    row[0] = 0
    while depth >= 0:
        t = row[depth]
        if t >= n_types:
            depth -= 1
            if depth >= 0:
                second[row[depth]] -= 1
                row[depth] += 1
            continue
        if second[t] >= avail[t]:
            row[depth] += 1
            continue
        second[t] += 1
        if depth < k - 1:
            depth += 1
            row[depth] = t
            continue
        key = first_key
        for c in range(k):
            key = key * n_types + row[c]
        if _canonical_key_of_cards(cards, n_first, row, k, suits, ranks, powers, scratch) == key:
            if found < out.shape[0]:
                out[found] = row
            found += 1
        second[t] -= 1
        row[depth] += 1
    return found


def extensions(geometry: DeckGeometry, first: tuple[int, ...], k: int) -> np.ndarray:
    """Every k-card group G (rows of sorted type indices, increasing) that makes (``first``, G) a canonical
    state, given the canonical group ``first``: one G per class of states whose first group is it."""
    counts = np.zeros(geometry.n_types, np.int64)
    for card in first:
        counts[card] += 1
    avail = geometry.full_counts() - counts
    out = np.empty((comb(geometry.n_types + k - 1, k), k), np.int64)  # room for every k-card multiset
    n = _extensions(counts, avail, k, geometry.suits, geometry.ranks, pattern_powers(geometry), out)
    return out[:n].copy()


def group_classes(geometry: DeckGeometry, size: int) -> np.ndarray:
    """Every group of ``size`` cards up to symmetry, canonical, as sorted rows in increasing key order."""
    rows, _ = multisets(geometry.full_counts(), size)
    counts = np.asarray(rows, np.int64)
    types = np.broadcast_to(np.arange(geometry.n_types, dtype=np.int64), counts.shape)
    groups = np.repeat(types.ravel(), counts.ravel()).reshape(len(counts), size)  # each row's types, sorted
    keys = canonical_keys(geometry, groups)
    mine = keys == _direct_keys(groups, geometry.n_types)
    order = np.argsort(keys[mine])
    return groups[mine][order]


def _direct_keys(groups: np.ndarray, base: int) -> np.ndarray:
    keys = np.zeros(len(groups), np.int64)
    for column in groups.T:
        keys = keys * base + column
    return keys
