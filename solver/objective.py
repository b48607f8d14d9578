"""What a solved strategy maximises: the main game, optionally plus a bonus bet, optionally restricted.

Optimal play maximises the main game's EV (RULES.md section 4). Two kinds of
variation are solved with the same machinery and kept apart in the tables:

- a **bonus bet** of B: maximise main game plus B times the bonus bet's net
  (RULES.md section 5; the bonus pushes unless the player bets ting-hu);
- a **restriction**: a simple fixed rule a player might follow, with optimal
  play everywhere else, so its exact EV can be set beside the optimal one:

  ``no-double-down``       never double down;
  ``always-claim-tian-hu`` claim every tian-hu offered;
  ``minimum-bets``         raise only the smallest F and G (folding stays open).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .config import GameConfig
from .errors import InputError
from .options import Option

RESTRICTIONS = {
    "optimal": "optimal play",
    "no-double-down": "never double down, otherwise optimal",
    "always-claim-tian-hu": "claim every tian-hu offered, otherwise optimal",
    "minimum-bets": "raise only the smallest F and G, otherwise optimal",
}


@dataclass(frozen=True)
class Objective:
    """A bonus bet B (0: main game only) and a restriction of play (``optimal``: none)."""

    bonus: float = 0.0
    restriction: str = "optimal"

    def __post_init__(self) -> None:
        if self.restriction not in RESTRICTIONS:
            raise InputError(f"unknown strategy restriction {self.restriction!r}; "
                             f"known: {', '.join(RESTRICTIONS)}")
        if not self.bonus >= 0:
            raise InputError(f"the bonus bet must not be negative, got {self.bonus:g}")

    def describe(self) -> dict[str, Any]:
        return {"bonus": self.bonus, "restriction": self.restriction}

    def suffix(self) -> str:
        """Tail of the default table directory name: ``-bonus5.0``, ``-no-double-down`` or nothing
        (the bonus written in full, so that two bonus bets never share a directory)."""
        return (f"-bonus{self.bonus!r}" if self.bonus else "") + (
            "" if self.restriction == "optimal" else f"-{self.restriction}")

    def playing_config(self, config: GameConfig) -> GameConfig:
        """The configuration the evaluator values decisions with: the bet sizes allowed by the restriction."""
        if self.restriction == "minimum-bets":
            return replace(config, fa_hu_bets=config.fa_hu_bets[:1], ting_hu_multiples=config.ting_hu_multiples[:1])
        return config

    def allowed_deal_options(self, options: list[Option]) -> list[int]:
        """Indices of the deal options the restriction leaves open."""
        indices = list(range(len(options)))
        if self.restriction == "no-double-down":
            return [i for i in indices if not (options[i].action == "discard" and options[i].bet > 0)]
        if self.restriction == "always-claim-tian-hu" and options[0].action == "claim":
            return [0]
        return indices
