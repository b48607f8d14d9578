"""Naive per-state enumeration: every community multiset with its exact multiplicity.

Slow but plain: each four-card community is weighted by ``prod C(U_t, a_t)``
and its ting decision recomputed from scratch with the exact (table-free)
hand-card hu test of :mod:`solver.evaluator.ting`; no suit keys, profiles or caches.
"""

from __future__ import annotations

import numpy as np

from solver.evaluator.ting import ting_bet_ev, ting_outcomes
from solver.game.cards import counts_of
from solver.game.combinatorics import multisets
from solver.game.config import GameConfig
from solver.game.hu import hu_level


def naive_hold_values(hold: tuple[int, ...], unseen: np.ndarray, config: GameConfig,
                      hand_card_rule: bool = True, bonus: float = 0.0) -> np.ndarray:
    """Value of each fa-hu bet for a hold, given the unseen suited counts (T and F counted, and a bonus bet
    of ``bonus``, settled by a ting bet); without ``hand_card_rule``, as if any hu of the ten cards paid at
    step 14 (the four community cards counted as the hand's: two cards alone never make a hu)."""
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
                own, community = (hand, row) if hand_card_rule else (hand + row, 0 * row)
                n_hu, n_flush, _, total = ting_outcomes(own, community, unseen - row[:-1], config)
                bonus_ev = bonus * ting_outcomes(hand, row, unseen - row[:-1], config)[2] if bonus else 0.0
                value = max([-(1 + f)] + [ting_bet_ev(n_hu, n_flush, total, f, m * f, config) + bonus_ev
                                          for m in config.ting_hu_multiples])
            values[b] += weight * value
    return values / weights.sum()


def naive_removal_bounds(hold: tuple[int, ...], unseen: np.ndarray, removed: tuple[int, ...],
                         config: GameConfig, most: int = 1, bonus: float = 0.0) -> np.ndarray:
    """The deal stage's bound on a hold's value against ``unseen`` less ``removed``, as its docstring
    states it: every community of the case with its weight, valued without the hand-card rule from the
    completions of ``unseen`` (before the removal), as if ``most`` cards fewer were left; a bet with the
    case's own bonus EV for a bonus bet of ``bonus``."""
    g = config.geometry
    hand = counts_of(hold, g)
    case = unseen.copy()
    for t in removed:
        case[t] -= 1
    rows, weights = multisets(np.append(case, 0), 4)
    n_left = int(unseen.sum()) - 4 - most
    fewest = n_left * (n_left - 1) // 2
    values = np.zeros(len(config.fa_hu_bets))
    for row, weight in zip(rows, weights):
        level = hu_level(hand + row, g)
        if not level:
            n_hu, n_flush, _, _ = ting_outcomes(hand + row, 0 * row, unseen - row[:-1], config)
            bonus_ev = bonus * ting_outcomes(hand, row, case - row[:-1], config)[2] if bonus else 0.0
        for b, f in enumerate(config.fa_hu_bets):
            if level:
                value = config.fa_hu_ante + f * (config.fa_hu_flush if level == 2 else config.fa_hu)
            else:
                value = max([-(1 + f)] + [ting_bet_ev(n_hu, n_flush, fewest, f, m * f, config) + bonus_ev
                                          for m in config.ting_hu_multiples])
            values[b] += weight * value
    return values / weights.sum()


def naive_hold_outcomes(hold: tuple[int, ...], unseen: np.ndarray, fa_bet: float, config: GameConfig,
                        bonus: float = 0.0) -> tuple[dict[tuple[str, float], int], float]:
    """Outcome counts of betting F on a hold, every community multiset and its ting decision recomputed
    (best EV, ties within 1e-12 to less money at risk): {(kind, G): card combinations of the six
    community cards}, and the summed bonus net of the paths that bet G."""
    g = config.geometry
    hand = counts_of(hold, g)
    rows, weights = multisets(np.append(unseen, 0), 4)
    left = int(unseen.sum())
    last_two = (left - 4) * (left - 5) // 2
    counts: dict[tuple[str, float], int] = {}
    bonus_sum = 0.0

    def add(key: tuple[str, float], n: int) -> None:
        if n:
            counts[key] = counts.get(key, 0) + n

    for row, weight in zip(rows, weights):
        weight = int(weight)
        level = hu_level(hand + row, g)
        if level:
            add(("fa_hu_flush" if level == 2 else "fa_hu", 0.0), weight * last_two)
            continue
        n_hu, n_flush, bonus_mean, total = ting_outcomes(hand, row, unseen - row[:-1], config)
        bets = [0.0] + [m * fa_bet for m in config.ting_hu_multiples]
        evs = [-(1.0 + fa_bet)] + [ting_bet_ev(n_hu, n_flush, total, fa_bet, b, config) + bonus * bonus_mean
                                   for b in bets[1:]]
        top = max(evs)
        choice = next(i for i, ev in enumerate(evs) if ev >= top - 1e-12)
        if choice == 0:
            add(("fold_ting", 0.0), weight * total)
        else:
            add(("ting_hu", bets[choice]), weight * n_hu)
            add(("ting_hu_flush", bets[choice]), weight * n_flush)
            add(("ting_lose", bets[choice]), weight * (total - n_hu - n_flush))
            bonus_sum += weight * total * bonus_mean
    return counts, bonus_sum
