"""The payouts stage A's walk reads, and which of them keep its sums exact.

:class:`TingConstants` gathers, for one objective, the numbers the walk's closed form reads
(:mod:`solver.staged.holds`, "The ting decision in closed form"); :func:`sums_exact` says whether, under
them, every sum in the walk's leaf is an exact integer count of a fixed unit, so the same in any order.
That rule decides what variants can share (a ting fingerprint, :meth:`GameConfig.ting_fingerprint`;
variants walked together, :mod:`solver.products.paytable`), so it lives with the game's numbers rather
than with the walk.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb, inf
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from solver.game.cards import DeckGeometry
    from solver.game.config import GameConfig


@dataclass(frozen=True)
class TingConstants:
    """The payouts the walk reads, for one objective (see :mod:`solver.staged.holds` on the closed form)."""

    fa_bets: np.ndarray
    """F of each fa-hu bet."""
    c: np.ndarray
    """``ting_ante + F * ting_fa + 1 + F`` for each F."""
    step11_hu: np.ndarray
    """``fa_hu_ante + F * fa_hu`` for each F: what a hu at step 11 wins."""
    step11_flush: np.ndarray
    """``fa_hu_ante + F * fa_hu_flush`` for each F."""
    p1: float
    """1 + what G wins on a hu."""
    pf1: float
    """1 + what G wins on a flush hu."""
    m_min: float
    m_max: float
    bonus_bet: float

    @classmethod
    def of(cls, config: GameConfig, bonus_bet: float = 0.0) -> TingConstants:
        """The constants of ``config`` with a bonus bet of ``bonus_bet`` in the objective."""
        f = np.array(config.fa_hu_bets, np.float64)
        return cls(f, config.ting_hu_ante + f * config.ting_hu_fa + 1.0 + f, config.fa_hu_ante + f * config.fa_hu,
                   config.fa_hu_ante + f * config.fa_hu_flush, 1.0 + config.ting_hu, 1.0 + config.ting_hu_flush,
                   min(config.ting_hu_multiples), max(config.ting_hu_multiples), float(bonus_bet))


#: :func:`sums_exact`: the payouts' unit (their products in the leaf are then multiples of its cube).
_EXACT_UNIT = 0.25


def sums_exact(constants: TingConstants, geometry: DeckGeometry) -> bool:
    """Whether stage A's leaf sums are exact under these payouts on this deck, so the same in any order
    of the communities and with any that add nothing among them: no bonus bet, every payout the leaf
    reads a multiple of 1/4, and the largest sum (every community of the deck at its largest weight and
    gain) below 2^53 units of 1/64, the unit of a gain."""
    read = (constants.p1, constants.pf1, constants.m_min, constants.m_max, *constants.c, *constants.fa_bets)
    if constants.bonus_bet != 0 or any(not 0 <= x < inf or float(x) / _EXACT_UNIT != round(float(x) / _EXACT_UNIT)
                                       for x in read):
        return False
    completions = comb(geometry.n_suited * geometry.copies_in_play, 2)  # W + Wf, and C(left, 2), at most
    z = max(constants.p1, constants.pf1) * completions + completions
    gain = max(constants.c) * completions + max(constants.fa_bets) * constants.m_max * z
    largest = comb(geometry.n_suited + 3, 4) * geometry.copies_in_play ** 4 * gain
    return largest * _EXACT_UNIT ** -3 < 2.0 ** 53
