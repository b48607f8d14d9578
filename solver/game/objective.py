"""What a solved strategy maximises: the main game, optionally plus a bonus bet, optionally restricted.

Optimal play maximises the main game's EV (docs/rules.md, "Information and optimal play"). Two kinds of
variation are solved with the same machinery and kept apart in the tables:

- a **bonus bet** of B: maximise main game plus B times the bonus bet's net
  (docs/rules.md, "The bonus bet"; the bonus pushes unless the player bets ting-hu);
- a **restriction**: a simple fixed rule a player might follow, with optimal
  play everywhere else, so its exact EV can be set beside the optimal one:

  ``no-double-down``       never double down;
  ``always-claim-tian-hu`` claim every tian-hu offered;
  ``minimum-bets``         raise only the smallest F and G (folding stays open);
  ``chart``                follow a learnable chart: a :class:`Policy` handed in (the chart's
                           :class:`solver.products.patterns.ChartRules`)
                           at the deal and the draw, optimal at the ting decision.

A chart plays a *mixed* strategy: where several discards keep the pattern
its rule names, each is played with equal probability. To keep every count
an exact integer, each path's count is multiplied by ``mix_unit / k`` at
each of the two discards (k: how many discards the rule leaves), and the
outcome denominators by ``mix_unit ** 2``; ``mix_unit`` is a multiple of
every k that can occur (1 when there is no chart).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from math import lcm
from typing import TYPE_CHECKING, Any, Protocol

from solver.errors import InputError
from solver.game.cards import DeckGeometry
from solver.game.config import GameConfig
from solver.game.options import Option, best_index

if TYPE_CHECKING:
    import numpy as np

RESTRICTIONS = {
    "optimal": "optimal play",
    "no-double-down": "never double down, otherwise optimal",
    "always-claim-tian-hu": "claim every tian-hu offered, otherwise optimal",
    "minimum-bets": "raise only the smallest F and G, otherwise optimal",
}
"""The restrictions a solve can be asked for by name (``solve --restriction``, ``edge --compare``)."""
class Policy(Protocol):
    """A strategy for the deal and the draw that a solve can follow (a learnable chart is one)."""

    def choices(self, stage: str, options: list[Option], hand: tuple[int, ...], geometry: DeckGeometry,
                dead: tuple[int, ...] = ()) -> list[int]:
        """The options played at ``stage`` (each equally likely); empty where the policy is silent."""
        ...

    def draw_choices(self, holds: np.ndarray, thrown: np.ndarray, deads: np.ndarray, n_holds: np.ndarray,
                     level: np.ndarray, bets: tuple[float, ...], geometry: DeckGeometry
                     ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`choices` at the draw for many states at once: (state, option) pairs, none where silent
        (:meth:`solver.products.patterns.ChartRules.draw_choices` says how the states are given)."""
        ...

    def to_json(self) -> Any:
        """The policy as JSON, recorded in the tables it makes."""
        ...


CANNOT_PLAY = "a policy read back from a table's metadata describes a strategy, it cannot play one"


@dataclass(frozen=True)
class RecordedPolicy:
    """A policy as a table's metadata records it: its description, to compare with (it does not play)."""

    data: Any

    def choices(self, stage: str, options: list[Option], hand: tuple[int, ...], geometry: DeckGeometry,
                dead: tuple[int, ...] = ()) -> list[int]:
        """Never: a policy read back from metadata describes a strategy and cannot play one."""
        raise InputError(CANNOT_PLAY)

    def draw_choices(self, holds: np.ndarray, thrown: np.ndarray, deads: np.ndarray, n_holds: np.ndarray,
                     level: np.ndarray, bets: tuple[float, ...], geometry: DeckGeometry
                     ) -> tuple[np.ndarray, np.ndarray]:
        """Never, as :meth:`choices`."""
        raise InputError(CANNOT_PLAY)

    def to_json(self) -> Any:
        """The recorded description, as it was read."""
        return self.data


CHART = "chart"
"""The restriction of a learnable chart, which needs the chart's rules (``chart --exact``)."""

#: A multiple of every number of discards a rule can leave (at most C(6, 2) = 15).
CHART_MIX_UNIT = lcm(*range(1, 16))


@dataclass(frozen=True)
class Objective:
    """A bonus bet B (0: main game only) and a restriction of play (``optimal``: none)."""

    bonus: float = 0.0
    restriction: str = "optimal"
    chart: Policy | None = None
    """The rules followed with the ``chart`` restriction (and only then)."""

    def __post_init__(self) -> None:
        if self.restriction not in RESTRICTIONS and self.restriction != CHART:
            raise InputError(f"unknown strategy restriction {self.restriction!r}; "
                             f"known: {', '.join(RESTRICTIONS)}")
        if not self.bonus >= 0:
            raise InputError(f"the bonus bet must not be negative, got {self.bonus:g}")
        if (self.restriction == CHART) != (self.chart is not None):
            raise InputError("the chart restriction is made by `mahjong-poker chart --exact`, with its rules")

    def describe(self) -> dict[str, Any]:
        """The objective as the manifest records it."""
        data: dict[str, Any] = {"bonus": self.bonus, "restriction": self.restriction}
        if self.chart is not None:
            data["chart"] = self.chart.to_json()
        return data

    @classmethod
    def from_description(cls, data: dict[str, Any]) -> Objective:
        """An objective from :meth:`describe`'s record."""
        chart = data.get("chart")
        return cls(data["bonus"], data.get("restriction", "optimal"),
                   RecordedPolicy(chart) if chart is not None else None)

    def suffix(self) -> str:
        """Tail of the default table directory name: ``-bonus5.0``, ``-no-double-down``,
        ``-chart-<digest of its rules>`` or nothing (the bonus written in full, so that two bonus bets
        never share a directory)."""
        tail = "" if self.restriction == "optimal" else f"-{self.restriction}"
        if self.chart is not None:
            digest = hashlib.sha256(json.dumps(self.chart.to_json()).encode()).hexdigest()[:12]
            tail += f"-{digest}"
        return (f"-bonus{self.bonus!r}" if self.bonus else "") + tail

    @property
    def mix_unit(self) -> int:
        """Counts are multiplied by this at each discard decision (see the module's docstring)."""
        return CHART_MIX_UNIT if self.chart is not None else 1

    def playing_config(self, config: GameConfig) -> GameConfig:
        """The configuration the evaluator values decisions with: the bet sizes allowed by the restriction."""
        if self.restriction == "minimum-bets":
            return replace(config, fa_hu_bets=config.fa_hu_bets[:1], ting_hu_multiples=config.ting_hu_multiples[:1])
        return config

    def _allowed_deal_options(self, options: list[Option]) -> list[int]:
        indices = list(range(len(options)))
        if self.restriction == "no-double-down":
            return [i for i in indices if not (options[i].action == "discard" and options[i].bet > 0)]
        if self.restriction == "always-claim-tian-hu" and options[0].action == "claim":
            return [0]
        return indices

    def choices(self, stage: str, options: list[Option], hand: tuple[int, ...],
                geometry: DeckGeometry, dead: tuple[int, ...] = ()) -> list[int]:
        """Indices of the options this strategy plays at the deal or the draw, each equally likely.

        One option (the best the restriction allows) except under a chart,
        which can mix several discards; a hand no chart rule covers is
        played optimally. ``dead``: the cards thrown before (a chart's lines
        can depend on them).
        """
        if self.chart is not None:
            return self.chart.choices(stage, options, hand, geometry, dead) or [best_index(options)]
        allowed = self._allowed_deal_options(options) if stage == "deal" else list(range(len(options)))
        return [allowed[best_index([options[i] for i in allowed])]]
