"""Enumeration of card multisets with their exact multiplicities.

Drawing ``k`` cards from a stub whose type ``t`` holds ``avail[t]`` cards,
the unordered draw is a multiset ``(k_t)`` with ``sum k_t = k`` and
``k_t <= avail[t]``; the number of k-card combinations giving it is
``prod_t C(avail[t], k_t)``. Summed over all multisets this is
``C(sum avail, k)`` (Vandermonde's identity), which the tests check. This is
the whole trick that turns card-sequence enumeration into something small:
six cards from one deck are 3.7e8 combinations but under 10^6 multisets.

Weights are int64: the largest total here is C(164, 6) ~ 2.4e10 for two
decks, far below 2^63.
"""

from __future__ import annotations

from itertools import combinations
from math import comb
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


def multisets(avail: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """All k-card multisets drawable from ``avail`` with their combination counts.

    Returns ``(counts, weights)``: ``counts`` is an ``(M, n_types)`` int8
    array in lexicographic order (first type's count varying slowest, highest
    first), ``weights[i] = prod_t C(avail[t], counts[i, t])``.
    """
    import numpy as np  # here, not at the top: a table query needs only remove_cards

    avail = np.asarray(avail, dtype=np.int64)
    n_types = len(avail)
    rows = np.zeros((1, n_types), dtype=np.int8)
    used = np.zeros(1, dtype=np.int64)
    weights = np.ones(1, dtype=np.int64)
    for t in range(n_types):
        parts_rows, parts_used, parts_weights = [], [], []
        for take in range(min(int(avail[t]), k), -1, -1):
            keep = used + take <= k
            block = rows[keep].copy()
            block[:, t] = take
            parts_rows.append(block)
            parts_used.append(used[keep] + take)
            parts_weights.append(weights[keep] * comb(int(avail[t]), take))
        rows = np.concatenate(parts_rows)
        used = np.concatenate(parts_used)
        weights = np.concatenate(parts_weights)
        # Rows that cannot reach k with the remaining types are dropped early.
        remaining = int(avail[t + 1 :].clip(max=k).sum())
        keep = used + remaining >= k
        rows, used, weights = rows[keep], used[keep], weights[keep]
    order = np.lexsort(rows.T[::-1])[::-1]
    return rows[order], weights[order]


def submultisets(cards: tuple[int, ...], k: int) -> list[tuple[int, ...]]:
    """Distinct k-card sub-multisets of a sorted card tuple, in lexicographic order."""
    return sorted(set(combinations(cards, k)))


def remove_cards(cards: tuple[int, ...], removed: tuple[int, ...]) -> tuple[int, ...]:
    """``cards`` minus the multiset ``removed`` (which must be contained in it)."""
    left = list(cards)
    for card in removed:
        left.remove(card)
    return tuple(left)
