"""What a chart (``chart.json``, as ``mahjong-poker chart --json`` or ``--out`` writes it) plays in a situation,
and the line that says so: for the trainer, and for anyone checking a hand against a chart.

A chart's deal and draw are each a ranked list or a point count (:mod:`solver.products.point_count`); both
play through the same ranked-list rules (:class:`solver.products.patterns.ChartRules`), so what a chart
plays here is exactly what its exact price assumed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.errors import InputError
from solver.game.cards import DeckGeometry
from solver.game.combinatorics import remove_cards
from solver.game.options import Option
from solver.products.patterns import (
    PSEUDO,
    ChartRules,
    Line,
    dead_touching,
    line_text,
    option_entry,
    pattern_table,
)
from solver.products.point_count import TOUCHING_CAP, Count, pattern_features


@dataclass(frozen=True)
class ChartAdvice:
    """What the chart plays at one decision: the options (each equally likely) and the line, in words."""

    options: list[int]
    line: str


@dataclass(frozen=True)
class ChartPlayer:
    """A chart read back from its JSON, able to play it."""

    rules: ChartRules
    counts: dict[str, Count]
    """The stages played by a point count."""
    lines: int
    loss: float | None
    """The chart's exact loss per hand, when it was priced (``--exact``)."""

    @classmethod
    def from_json(cls, data: dict[str, Any], geometry: DeckGeometry) -> ChartPlayer:
        """A player for the chart ``data`` (``Chart.to_json``) on a deck of ``geometry``."""
        words = data.get("words", "patterns")
        entries = pattern_table(geometry, words).entries
        counts: dict[str, Count] = {}
        stages: dict[str, tuple[Line, ...]] = {}
        for stage in ("deal", "draw"):
            part = data[stage]
            if part.get("count"):
                count = Count.from_json(part["count"]).compile(entries)
                counts[stage], stages[stage] = count, count.compiled
            else:
                stages[stage] = tuple((r["entry"], float(r["bet"]), r["max_touching"]) for r in part["rules"])
        exact = data.get("exact") or {}
        return cls(ChartRules(stages["deal"], stages["draw"], words), counts, int(data.get("lines") or 0),
                   exact.get("loss"))

    def advise(self, stage: str, options: list[Option], hand: tuple[int, ...], geometry: DeckGeometry,
               dead: tuple[int, ...] = ()) -> ChartAdvice | None:
        """The chart's play at the ``deal`` or the ``draw`` (``dead``: the cards thrown before), or ``None``
        where no line covers the hand (a solve following the chart plays it optimally)."""
        chosen = self.rules.choices(stage, options, hand, geometry, dead)
        if not chosen:
            return None
        option = options[chosen[0]]
        entry = option_entry(option, hand, geometry, self.rules.words)
        if entry in PSEUDO:
            return ChartAdvice(chosen, entry)
        touching = dead_touching(remove_cards(hand, option.discard), dead + option.discard, geometry)
        count = self.counts.get(stage)
        if count is not None:
            points = int(pattern_features(entry) @ count.points) - count.touching * min(touching, TOUCHING_CAP)
            return ChartAdvice(chosen, f"the point count: keep {entry} ({points} points)")
        lines = self.rules.deal if stage == "deal" else self.rules.draw
        rank = next(i for i, (e, b, limit) in enumerate(lines)
                    if e == entry and b == option.bet and (limit is None or touching <= limit))
        return ChartAdvice(chosen, f"line {rank + 1}: {line_text(*lines[rank][::2])}")


def load_chart(path: Path | str, geometry: DeckGeometry) -> ChartPlayer:
    """The chart in ``path`` (a ``chart.json``); one line naming the file when it is not one."""
    try:
        text = Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError(f"no such chart file: {path} (make one with `mahjong-poker chart --json`)") from None
    except OSError as error:
        raise InputError(f"{path} cannot be read: {error.strerror or error}") from None
    try:
        return ChartPlayer.from_json(json.loads(text), geometry)
    except (ValueError, KeyError, TypeError) as error:
        raise InputError(f"{path} is not a chart made by `mahjong-poker chart --json` for this deck "
                         f"({type(error).__name__}: {error})") from None
