"""Final outcomes of a hand and their exact frequencies under a fixed strategy.

An *outcome* is how a hand ends together with the bets that were placed
(e.g. "ting-hu flush win, DD 1, F 2, G 6"): its net result and the total
amount bet follow from the configuration. The solve counts how many card
combinations end in each outcome when the player follows the optimal
strategy; those integer counts give the return table, the house edge as an
exact fraction, the element of risk, the variance and every decision rate.

Counting is exact: a path through the hand is a product of integer
combination counts (deal, draw, first four community cards, last two), and
its probability is that product over the product of the stage totals. The
totals depend only on how many jokers are among the eight cards seen before
the community (jokers never reach the community, so fewer suited cards are
left when the player holds or threw one): each outcome count is kept per
joker count, a *slot*, with the slot's own denominator.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np
from numba import njit

from .cards import DeckGeometry
from .config import GameConfig
from .hu import _hu_level
from .options import TIE_TOLERANCE
from .ting import _ting_bet_ev, _ting_counts

#: Ways a hand ends, in the order of play.
KINDS = (
    "tian_hu", "tian_hu_flush", "di_hu", "di_hu_flush", "fold_fa", "fa_hu", "fa_hu_flush",
    "fold_ting", "ting_hu", "ting_hu_flush", "ting_lose",
)


@dataclass(frozen=True, order=True)
class Outcome:
    """How a hand ended and the bets placed: DD, F and G (0 when not placed)."""

    kind: str
    double_down: float = 0.0
    fa_bet: float = 0.0
    ting_bet: float = 0.0

    def label(self) -> str:
        """Readable name, e.g. ``ting_hu_flush DD=1 F=2 G=6``."""
        bets = [(name, v) for name, v in (("DD", self.double_down), ("F", self.fa_bet), ("G", self.ting_bet)) if v]
        return " ".join([self.kind] + [f"{name}={v:g}" for name, v in bets])

    @staticmethod
    def from_label(label: str) -> Outcome:
        """Inverse of :meth:`label`."""
        kind, *bets = label.split()
        values = {name: float(v) for name, v in (b.split("=") for b in bets)}
        return Outcome(kind, values.get("DD", 0.0), values.get("F", 0.0), values.get("G", 0.0))

    def total_bet(self) -> float:
        """T + DD + F + G placed in this outcome."""
        return 1.0 + self.double_down + self.fa_bet + self.ting_bet

    def net(self, config: GameConfig) -> float:
        """Net result for the player in units of T."""
        return _net(self, {k: getattr(config, k) for k in _PAYS}, float)

    def exact_net(self, config: GameConfig) -> Fraction:
        """:meth:`net` as an exact fraction (payouts are read as the binary floats they are)."""
        return _net(self, {k: Fraction(getattr(config, k)) for k in _PAYS}, Fraction)


_PAYS = ("tian_hu", "tian_hu_flush", "di_hu", "di_hu_flush", "fa_hu_ante", "fa_hu", "fa_hu_flush",
         "ting_hu_ante", "ting_hu_fa", "ting_hu", "ting_hu_flush")


def _net(outcome: Outcome, pays: dict, number: type):
    """Net result of an outcome with payouts and bets of type ``number`` (float or Fraction)."""
    dd, f, g = number(outcome.double_down), number(outcome.fa_bet), number(outcome.ting_bet)
    return {
        "tian_hu": lambda: pays["tian_hu"],
        "tian_hu_flush": lambda: pays["tian_hu_flush"],
        "di_hu": lambda: (1 + dd) * pays["di_hu"],
        "di_hu_flush": lambda: (1 + dd) * pays["di_hu_flush"],
        "fold_fa": lambda: -1 - dd,
        "fa_hu": lambda: -dd + pays["fa_hu_ante"] + f * pays["fa_hu"],
        "fa_hu_flush": lambda: -dd + pays["fa_hu_ante"] + f * pays["fa_hu_flush"],
        "fold_ting": lambda: -dd - 1 - f,
        "ting_hu": lambda: -dd + pays["ting_hu_ante"] + f * pays["ting_hu_fa"] + g * pays["ting_hu"],
        "ting_hu_flush": lambda: -dd + pays["ting_hu_ante"] + f * pays["ting_hu_fa"] + g * pays["ting_hu_flush"],
        "ting_lose": lambda: -dd - 1 - f - g,
    }[outcome.kind]()


def slot_denominator(geometry: DeckGeometry, slot: int) -> int:
    """Number of equally likely (deal, draw, four community, two community) paths when ``slot``
    jokers are among the eight cards seen before the community."""
    suited_left = geometry.n_suited * geometry.copies - (8 - slot)
    return comb(geometry.size, 6) * comb(geometry.size - 6, 2) * comb(suited_left, 4) * comb(suited_left - 4, 2)


def slot_scale(geometry: DeckGeometry, slot: int) -> tuple[int, int]:
    """(C(suited left, 4), C(suited left - 4, 2)): what a path ending before the community,
    or before the last two cards, is multiplied by to share its slot's denominator."""
    suited_left = geometry.n_suited * geometry.copies - (8 - slot)
    return comb(suited_left, 4), comb(suited_left - 4, 2)


# Layout of the per-hold outcome counts written by ``_hold_outcomes``.
FA_HU, FA_HU_FLUSH, FOLD_TING = 0, 1, 2
TING_FIRST = 3  # then (hu, flush, lose) for each ting multiple


@njit(cache=True)
def _hold_outcomes(hold, unseen, fa_bet, double_down, multiples, pays, bonus_bet, bonus_net, suits, ranks, out):
    """Outcome counts of betting F on a four-card hold and playing the ting decision optimally.

    ``unseen``: suited counts the community comes from (length n_types, joker
    entry 0). Counts are card combinations of the six community cards in
    order of dealing, so fa-hu wins and ting folds are scaled by the number
    of last-two completions. The ting decision follows RULES.md section 4
    (best EV; within the tie tolerance, less money at risk). Returns the
    summed bonus net of the hands that settle the bonus (a ting bet).
    """
    n_types = unseen.shape[0]
    n_suited = n_types - 1
    left = 0
    for t in range(n_suited):
        left += unseen[t]
    last_two = (left - 4) * (left - 5) // 2
    community = np.zeros(n_types, np.int64)
    rest = unseen.copy()
    full = hold.copy()
    evs = np.empty(len(multiples) + 1)
    bonus_total = 0.0
    for t1 in range(n_suited):
        for t2 in range(t1, n_suited):
            for t3 in range(t2, n_suited):
                for t4 in range(t3, n_suited):
                    community[t1] += 1
                    community[t2] += 1
                    community[t3] += 1
                    community[t4] += 1
                    weight = 1
                    ok = True
                    for t in (t1, t2, t3, t4):
                        if community[t] > unseen[t]:
                            ok = False
                    if ok:
                        # Product of C(unseen_t, k_t) over the distinct types drawn.
                        for t in (t1, t2, t3, t4):
                            if community[t] > 0 and rest[t] == unseen[t]:
                                k = community[t]
                                u = unseen[t]
                                c = 1
                                for i in range(k):
                                    c = c * (u - i) // (i + 1)
                                weight *= c
                                rest[t] -= k
                        for t in range(n_types):
                            full[t] = hold[t] + community[t]
                        level = _hu_level(full, suits, ranks)
                        if level == 1:
                            out[FA_HU] += weight * last_two
                        elif level == 2:
                            out[FA_HU_FLUSH] += weight * last_two
                        else:
                            n_hu, n_flush, bonus = _ting_counts(hold, community, rest, suits, ranks, bonus_net)
                            evs[0] = -double_down - 1.0 - fa_bet
                            for m in range(len(multiples)):
                                evs[m + 1] = (-double_down
                                              + _ting_bet_ev(float(n_hu), float(n_flush), float(last_two), fa_bet,
                                                             multiples[m] * fa_bet, pays)
                                              + bonus_bet * (bonus / last_two))
                            top = evs.max()
                            choice = 0
                            while evs[choice] < top - TIE_TOLERANCE:
                                choice += 1
                            if choice == 0:
                                out[FOLD_TING] += weight * last_two
                            else:
                                base = TING_FIRST + 3 * (choice - 1)
                                out[base] += weight * n_hu
                                out[base + 1] += weight * n_flush
                                out[base + 2] += weight * (last_two - n_hu - n_flush)
                                bonus_total += weight * bonus
                        for t in (t1, t2, t3, t4):
                            rest[t] = unseen[t]
                    community[t1] -= 1
                    community[t2] -= 1
                    community[t3] -= 1
                    community[t4] -= 1
    return bonus_total


def hold_outcomes(hold_counts: np.ndarray, unseen_suited: np.ndarray, fa_bet: float, double_down: float,
                  config: GameConfig, bonus_bet: float = 0.0) -> tuple[dict[Outcome, int], float]:
    """Outcome counts (per C(left, 4) * C(left - 4, 2) community sequences) of betting F on a hold.

    Returns the counts of every outcome reached and the summed bonus net of
    the paths that settle the bonus.
    """
    from .bonus import payout_by_mask
    from .ting import payout_vector

    geometry = config.geometry
    unseen = np.zeros(geometry.n_types, np.int64)
    unseen[: geometry.n_suited] = unseen_suited
    multiples = np.array(config.ting_hu_multiples, dtype=np.float64)
    out = np.zeros(TING_FIRST + 3 * len(multiples), np.int64)
    bonus = _hold_outcomes(np.ascontiguousarray(hold_counts, dtype=np.int64), unseen, float(fa_bet),
                           float(double_down), multiples, payout_vector(config), float(bonus_bet),
                           payout_by_mask(config), geometry.suits, geometry.ranks, out)
    counts: dict[Outcome, int] = {}
    names = [Outcome("fa_hu", double_down, fa_bet), Outcome("fa_hu_flush", double_down, fa_bet),
             Outcome("fold_ting", double_down, fa_bet)]
    for m in config.ting_hu_multiples:
        g = m * fa_bet
        names += [Outcome(k, double_down, fa_bet, g) for k in ("ting_hu", "ting_hu_flush", "ting_lose")]
    for name, n in zip(names, out):
        if n:
            counts[name] = int(n)
    return counts, float(bonus)
