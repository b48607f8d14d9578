"""Naive per-state enumeration: every community multiset with its exact multiplicity.

Slow but plain: each four-card community is weighted by ``prod C(U_t, a_t)``
and its ting decision recomputed from scratch with the exact (table-free)
hand-card hu test of :mod:`solver.ting`; no suit keys, profiles or caches.
"""

from __future__ import annotations

import numpy as np

from solver.cards import counts_of
from solver.combinatorics import multisets
from solver.config import GameConfig
from solver.hu import hu_level
from solver.ting import ting_bet_ev, ting_outcomes


def naive_hold_values(hold: tuple[int, ...], unseen: np.ndarray, config: GameConfig) -> np.ndarray:
    """Value of each fa-hu bet for a hold, given the unseen suited counts (T and F counted)."""
    g = config.geometry
    hand = counts_of(hold, g)
    rows, weights = multisets(np.append(unseen, 0), 4)
    values = np.zeros(len(config.fa_hu_bets))
    for row, weight in zip(rows, weights):
        level = hu_level(hand + row, g)
        for b, f in enumerate(config.fa_hu_bets):
            if level:
                value = config.fa_hu_ante + f * (config.fa_hu_flush if level == 2 else config.fa_hu)
            else:
                n_hu, n_flush, _, total = ting_outcomes(hand, row, unseen - row[:-1], config)
                value = max([-(1 + f)] + [ting_bet_ev(n_hu, n_flush, total, f, m * f, config)
                                          for m in config.ting_hu_multiples])
            values[b] += weight * value
    return values / weights.sum()
