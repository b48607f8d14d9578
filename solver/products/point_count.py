"""A point count: a strategy for the deal or the draw that a person applies without a lookup.

Each way of keeping four cards scores points for what its card-pattern words
name (a pair, a suited run, a joker, the suits its suited cards span:
:data:`FEATURES`), less some points for each dead card touching the kept
cards (at most :data:`TOUCHING_CAP` of them counted). The player keeps the
four with the most points and bets by thresholds on the count: at the deal,
double down from some count; at the draw, fold below one count, bet the
smallest F from it and each larger F from a higher count. A hu is always
claimed. Ties go to the hold with the fewest dead cards touching, then to the
one with more jokers, then (the same pattern) nearest the middle, as in the
ranked lists (:mod:`solver.products.patterns`); two different patterns still
level are priced with the one whose words come first alphabetically.

A count is a ranked list in disguise: every (pattern, touching limit) ordered
by its points. :meth:`Count.compile` writes that list, so a count is priced,
exactly, by the same machinery as the lists (a solve that follows it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from solver.products.patterns import CLAIM, FOLD, PSEUDO, SUIT_COUNTS, TOUCHING_LIMITS, WORDS, Line

SUITS_SPANNED = ("in one suit", "in two suits")
"""Features for three or more suited cards kept within one suit or two (three suits: no points)."""

FEATURES = WORDS + SUITS_SPANNED
"""What a hold scores points for: each word of its pattern (counted), and the suits it spans."""

TOUCHING_CAP = len(TOUCHING_LIMITS)
"""The most dead cards touching a count takes points off for: the lists' limits (0, 1, any) read as 0, 1, 2+."""


def tie_order(count: int, touching: int, jokers: int) -> tuple[int, int, int]:
    """How a count ranks holds, as a key to sort by (the least first): the most points, then the fewest dead
    cards touching, then the most jokers."""
    return -count, touching, -jokers


def pattern_features(entry: str) -> np.ndarray:
    """How many times a hold pattern (``2 pairs, in one suit``) has each of :data:`FEATURES`."""
    counts = np.zeros(len(FEATURES), np.int64)
    if entry in PSEUDO:
        return counts
    words, _, suits = entry.partition(", in ")
    if suits:
        spanned = {f"{name} suit{'s' if n > 1 else ''}": n for n, name in SUIT_COUNTS.items()}[suits]
        if spanned <= len(SUITS_SPANNED):
            counts[FEATURES.index(SUITS_SPANNED[spanned - 1])] = 1
    for token in ([] if words == "nothing" else words.split(" + ")):
        number, _, rest = token.partition(" ")
        n, word = (int(number), rest[:-1]) if number.isdigit() else (1, token)  # "2 pairs" -> 2 x pair
        counts[WORDS.index(word)] += n
    return counts


def entries_features(entries: tuple[str, ...]) -> np.ndarray:
    """(entries, :data:`FEATURES`): :func:`pattern_features` of each entry (an action: none)."""
    return np.array([pattern_features(e) for e in entries])


@dataclass(frozen=True)
class Count:
    """A point count for one decision: points per feature, per dead card touching, and bet thresholds."""

    stage: str
    points: tuple[int, ...]
    """Points for each of :data:`FEATURES` (0: not counted)."""
    touching: int
    """Points taken off per dead card touching the kept cards (up to :data:`TOUCHING_CAP` cards)."""
    thresholds: tuple[int | None, ...]
    """The least count for each action above the first (``None``: never taken): at the deal, doubling
    down; at the draw, each bet F in order (below the first: fold)."""
    bet_sizes: tuple[float, ...]
    compiled: tuple[Line, ...] = field(default=(), compare=False, repr=False)
    """The ranked list the count plays (:meth:`compile`), for the solve that prices it."""

    @property
    def lines(self) -> int:
        """What a person learns: the features with points, the touching rule, each threshold some count
        reaches first (:meth:`_bands`)."""
        return sum(p != 0 for p in self.points) + (self.touching != 0) + len(self._bands())

    def _bands(self) -> list[tuple[int, int]]:
        """(threshold, action) of each action some count takes: a threshold equal to the next one leaves its
        action an empty band (the fit skipped it: the counts go from the action below to the one above)."""
        used = [(t, i) for i, t in enumerate(self.thresholds) if t is not None]
        return [(t, i) for k, (t, i) in enumerate(used) if k + 1 == len(used) or used[k + 1][0] != t]

    def action(self, count: np.ndarray) -> np.ndarray:
        """The action index each count takes: 0 below the first threshold, 1 from it, and so on."""
        used = np.array([t for t in self.thresholds if t is not None], np.int64)
        return np.searchsorted(np.sort(used), count, side="right")

    def compile(self, entries: tuple[str, ...]) -> Count:
        """This count with its ranked list: a claim first, then every (pattern, touching limit) by
        :func:`tie_order` of its count (then the order of ``entries``), each with its bet; at the draw,
        fold where the counts fall below the first threshold."""
        features = entries_features(entries)
        base = features @ np.array(self.points, np.int64)
        jokers = features[:, FEATURES.index("joker")]
        limits: tuple[int | None, ...] = (*TOUCHING_LIMITS, None)
        keys = [(int(base[i] - self.touching * j), i, j)  # j: the limit's place, the touching it stands for
                for i, e in enumerate(entries) if e not in PSEUDO for j in range(len(limits))]
        keys.sort(key=lambda k: (*tie_order(k[0], k[2], int(jokers[k[1]])), k[1]))
        lines: list[Line] = [(CLAIM, 0.0, None)]
        for count, i, j in keys:
            action = int(self.action(np.array([count]))[0])
            if self.stage == "draw" and action == 0:
                break  # fold catches every hand from here down
            bet = self.bet_sizes[action - 1 if self.stage == "draw" else action]
            lines.append((entries[i], bet, limits[j]))
        if self.stage == "draw":
            lines.append((FOLD, 0.0, None))
        return Count(self.stage, self.points, self.touching, self.thresholds, self.bet_sizes, tuple(lines))

    def to_json(self) -> dict[str, Any]:
        """The count as plain data (the compiled list left out: it follows from these)."""
        return {"stage": self.stage, "lines": self.lines,
                "points": {f: p for f, p in zip(FEATURES, self.points) if p},
                "touching": self.touching, "thresholds": list(self.thresholds), "bet_sizes": list(self.bet_sizes)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Count:
        """A count from :meth:`to_json`'s data (compile it to play it)."""
        return cls(data["stage"], tuple(int(data["points"].get(f, 0)) for f in FEATURES), int(data["touching"]),
                   tuple(data["thresholds"]), tuple(data["bet_sizes"]))

    def rules_text(self) -> list[str]:
        """The count as a person reads it, one line each."""
        def signed(p: int) -> str:
            return f"{p:+d}"

        rows = [f"{signed(p)} for each {f}" if f in WORDS else f"{signed(p)} with three or more suited cards {f}"
                for f, p in zip(FEATURES, self.points) if p]
        if self.touching:
            rows.append(f"{signed(-self.touching)} for each dead card touching the kept cards "
                        f"(at most {TOUCHING_CAP} counted)")
        return rows

    def bets_text(self) -> list[str]:
        """The thresholds as a person reads them."""
        used = self._bands()
        if self.stage == "deal":
            return [f"double down with {t} points or more" for t, _ in used] or ["never double down"]
        if not used:
            return ["fold every hand"]
        text = [f"fold below {used[0][0]} points"]
        text += [f"bet F = {self.bet_sizes[i]:g} from {t} points" for t, i in used]
        return text
