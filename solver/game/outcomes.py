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

from solver.game.cards import DeckGeometry
from solver.game.config import GameConfig

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
    suited_left = geometry.n_suited * geometry.copies_in_play - (8 - slot)
    return comb(geometry.size, 6) * comb(geometry.size - 6, 2) * comb(suited_left, 4) * comb(suited_left - 4, 2)


def slot_scale(geometry: DeckGeometry, slot: int) -> tuple[int, int]:
    """(C(suited left, 4), C(suited left - 4, 2)): what a path ending before the community,
    or before the last two cards, is multiplied by to share its slot's denominator."""
    suited_left = geometry.n_suited * geometry.copies_in_play - (8 - slot)
    return comb(suited_left, 4), comb(suited_left - 4, 2)
