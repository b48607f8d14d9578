"""The ting-hu decision (docs/rules.md, steps 12-14): fold, or bet G = F, 2F or 3F.

With four hand cards and four community cards known, the last two
community cards come from the unseen suited cards; every two-card
completion is counted with its multiplicity and tested directly (a hu
must use a hand card). Bets are linear in G, so the win counts decide all.
With a bonus bet B on (docs/rules.md, "The bonus bet"), betting G also settles the
bonus on the six community cards, while folding pushes it: each bet
option gains B times the expected bonus net.
"""

from __future__ import annotations

from math import comb

import numpy as np

from solver.game.bonus import _bonus_mask, payout_by_mask
from solver.game.config import GameConfig
from solver.game.hu import _hu_level_with_hand
from solver.runtime.jit import kernel


@kernel
def _ting_counts(hand, community, unseen, suits, ranks, bonus_net, with_bonus):
    """(non-flush wins, flush wins, summed bonus net) over all two-card completions,
    counted as card combinations; ``bonus_net`` maps a bonus mask to its net result
    (summed only ``with_bonus``: the bonus mask costs more than the hu test)."""
    n_types = unseen.shape[0]
    n_hu = 0
    n_flush = 0
    bonus = 0.0
    full = community.copy()
    for t1 in range(n_types):
        if unseen[t1] == 0:
            continue
        for t2 in range(t1, n_types):
            if t2 == t1:
                weight = unseen[t1] * (unseen[t1] - 1) // 2
            else:
                weight = unseen[t1] * unseen[t2]
            if weight == 0:
                continue
            full[t1] += 1
            full[t2] += 1
            level = _hu_level_with_hand(hand, full, suits, ranks)
            if with_bonus:
                bonus += weight * bonus_net[_bonus_mask(full, suits, ranks)]
            full[t1] -= 1
            full[t2] -= 1
            if level == 1:
                n_hu += weight
            elif level == 2:
                n_flush += weight
    return n_hu, n_flush, bonus


def ting_outcomes(hand: np.ndarray, community: np.ndarray, unseen_suited: np.ndarray,
                  config: GameConfig, with_bonus: bool = True) -> tuple[int, int, float, int]:
    """(non-flush wins, flush wins, expected bonus net of a unit bet, all completions);
    the bonus net is 0.0 unless ``with_bonus``."""
    geometry = config.geometry
    unseen = np.zeros(geometry.n_types, np.int64)
    unseen[: geometry.n_suited] = unseen_suited
    n_hu, n_flush, bonus = _ting_counts(
        np.ascontiguousarray(hand, dtype=np.int64), np.ascontiguousarray(community, dtype=np.int64),
        unseen, geometry.suits, geometry.ranks, payout_by_mask(config), with_bonus,
    )
    total = comb(int(unseen.sum()), 2)
    return int(n_hu), int(n_flush), float(bonus) / total, total


# Indices into the payout vector the kernels read (see ``payout_vector``).
FA_ANTE, FA_PAYS, FA_FLUSH, TING_ANTE, TING_FA, TING_PAYS, TING_FLUSH = range(7)


def payout_vector(config: GameConfig) -> np.ndarray:
    """The step-11 and step-14 payouts as a float vector for the kernels."""
    return np.array([
        config.fa_hu_ante, config.fa_hu, config.fa_hu_flush,
        config.ting_hu_ante, config.ting_hu_fa, config.ting_hu, config.ting_hu_flush,
    ], dtype=np.float64)


@kernel(inline="always")
def _ting_bet_net(n_hu, n_flush, n_lose, fa_bet, ting_bet, pays):
    """Summed net result of T, F and G over completions: ``n_hu`` winning, ``n_flush`` winning with
    a flush hu, ``n_lose`` losing (counts, or count-weighted sums of them)."""
    base = pays[TING_ANTE] + fa_bet * pays[TING_FA]
    return (n_hu * (base + ting_bet * pays[TING_PAYS]) + n_flush * (base + ting_bet * pays[TING_FLUSH])
            - n_lose * (1.0 + fa_bet + ting_bet))


@kernel
def _ting_bet_ev(n_hu, n_flush, total, fa_bet, ting_bet, pays):
    """Expected net result of T, F and G from the ting bet on, given win counts out of ``total``."""
    return _ting_bet_net(n_hu, n_flush, total - n_hu - n_flush, fa_bet, ting_bet, pays) / total


@kernel(inline="always")
def _ting_choice(n_hu, n_flush, total, fa_bet, multiples, pays, bonus):
    """The ting decision taken and its value: 0 to fold, ``m + 1`` to bet G = ``multiples[m]`` F
    (the first best); a ting bet also settles the bonus bet, worth ``bonus`` (its expected net),
    which folding pushes."""
    best = -(1.0 + fa_bet)
    choice = 0
    for m in range(multiples.shape[0]):
        ev = _ting_bet_ev(n_hu, n_flush, total, fa_bet, multiples[m] * fa_bet, pays) + bonus
        if ev > best:
            best = ev
            choice = m + 1
    return choice, best


def ting_bet_ev(n_hu: int, n_flush: int, total: int, fa_bet: float, ting_bet: float, config: GameConfig) -> float:
    """Expected net result of T, F and G from the ting bet on (DD not included)."""
    return float(_ting_bet_ev(float(n_hu), float(n_flush), float(total), fa_bet, ting_bet, payout_vector(config)))
