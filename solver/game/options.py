"""What a decision offers: options with their exact EVs, and the rule that picks the best."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

#: EVs closer than this are ties (docs/rules.md, "Information and optimal play").
TIE_TOLERANCE = 1e-12


class Stage(StrEnum):
    """The three points where the player decides."""

    DEAL = "deal"
    DRAW = "draw"
    TING = "ting"


@dataclass(frozen=True)
class Option:
    """One choice at a decision and its exact expected value.

    ``ev`` is the expected net result of the whole hand in units of the
    tian-hu bet, counting every bet already placed and optimal play later,
    so the options of one decision compare directly.
    """

    action: str
    """``claim``, ``fold``, ``bet`` (fa-hu F or ting-hu G) or ``discard`` (the first discard)."""
    discard: tuple[int, ...]
    """Cards discarded with this option (type indices), empty if none."""
    bet: float
    """The new bet: DD at the deal (0 or the double-down), F at the draw, G at the ting; 0 otherwise."""
    ev: float
    risk: float
    """Total money at stake once the option is taken (T + DD + F + G); ties go to less."""


def best_index(options: list[Option]) -> int:
    """Index of the best option: highest EV; within 1e-12, least money at risk, then first listed."""
    top = max(o.ev for o in options)
    tied = [i for i, o in enumerate(options) if o.ev >= top - TIE_TOLERANCE]
    return min(tied, key=lambda i: (options[i].risk, i))
