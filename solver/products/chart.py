"""A strategy a person can learn, derived from a solve's tables, and what following it costs.

Everything is derived by code from a main-game solve's tables:

- A **hold pattern** names the kept cards in a way that does not depend on
  suits' names or the direction of the ranks: by their rank shapes, one
  group of digits per suit (``shape_pattern``: ``2234 + 3``, the default), or
  in card-pattern words (``hold_pattern``: ``pair + suited open connector``),
  which make a far shorter list that loses more (``docs/performance.md``).
- **The deal and the draw** each get a ranked list: "take the first line
  your cards allow". A line is a hold pattern with its bet (double down or
  not; F), possibly limited to holds with few dead cards touching them
  (:func:`solver.products.patterns.dead_touching`), or an action (claim the hu;
  fold). Where several discards keep a line's pattern the player keeps
  the one with the fewest dead cards touching, then the one whose cards lie
  nearest the middle rank (:func:`solver.products.patterns.hold_spread`); where
  that still leaves several, a player is priced as taking any of them (their
  mean EV).
- **Ranking**: lines start in the order of the mean EV of the hands where
  optimal play takes them; a local search then moves lines and flips bets
  while that raises the chart's exact total (``_search``), from that order
  and from ``SEARCH_RESTARTS`` seeded random ones, the best kept. A limited line
  stays only if it is worth at least ``MIN_LINE_GAIN`` per hand dealt
  (``_prune``), so the lists stay short enough to learn.
- **Cost**: the tables hold every option's EV under optimal play
  afterwards, so each stage's loss against optimal play is exact for "this
  stage by the chart, every other decision optimal". The hands where the
  chart loses most are listed as exceptions.
- **Ting**: the bets are linear in G, so the decision depends on the win
  probability alone (flushes aside): the thresholds follow from the
  payouts exactly, and are restated as a number of outs.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, replace
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import numpy as np

from solver.errors import InputError
from solver.game.cards import format_cards, parse_cards
from solver.game.combinatorics import remove_cards
from solver.game.config import GameConfig
from solver.game.objective import CHART, Objective
from solver.products.chart_lines import CHUNK, StageLines, situation_rows, stage_lines
from solver.products.patterns import (
    DEFAULT_WORDS,
    PSEUDO,
    TOUCHING_LIMITS,
    ChartRules,
    Line,
    dead_touching,
    hold_spread,
    line_text,
    option_entry,
)
from solver.products.point_count import Count
from solver.render.document import Block, Bullets, Heading, Paragraph, Table, to_markdown
from solver.runtime.jit import kernel
from solver.runtime.steps import Steps
from solver.staged.run import Summary, load_summary, solve
from solver.tables.files import (
    bound_below_folding,
    bounded_stage_a,
    check_tables,
    holds_file,
    manifest_config,
    options_from_row,
    read_table,
    solve_command,
)


@dataclass(frozen=True)
class Rule:
    """One line of a stage's ranked list: take the first line your cards allow."""

    rank: int
    entry: str
    """A hold pattern (what to keep), or ``claim the hu`` / ``fold``."""
    bet: float
    """With a hold pattern: the double-down (deal) or fa-hu bet F (draw) to make with it."""
    max_touching: int | None
    """With a hold pattern: the most dead cards touching the hold the line allows (``None``: any)."""
    mean_ev: float
    """Weighted mean EV of the hands where the chart applies this line."""
    coverage: float
    """Share of the stage's hands (by weight) where this line is the one applied."""
    example: str
    loss: float
    """Per hand dealt: what the hands where this line applies lose by it against optimal play (exact,
    every other decision optimal); the lines' losses add up to the list's."""


@dataclass(frozen=True)
class StageChart:
    """The chart of one decision (the deal or the draw) and its exact cost there.

    ``loss`` is per hand dealt, for "this stage by the chart, every other
    decision optimal": each hand's loss is exact (the tables hold every
    option's EV under optimal play afterwards).
    """

    stage: str
    rules: list[Rule]
    optimal_ev: float
    """Whole-game EV per hand dealt under optimal play."""
    loss: float
    exceptions: list[dict[str, Any]]
    words: str
    """How the lines name holds (:data:`solver.products.patterns.WORDINGS`)."""
    count: Count | None = None
    """Where the decision is played by a point count: the count (``rules`` are then the lines of its
    compiled list that some situation reaches)."""

    @property
    def lines(self) -> int:
        """What a person learns for this decision: the count's lines, or the list's lines (actions aside)."""
        return self.count.lines if self.count is not None else sum(r.entry not in PSEUDO for r in self.rules)

    def ranked_lines(self) -> tuple[Line, ...]:
        """The ranked list the solve follows: the count's whole compiled list, or the chart's lines."""
        if self.count is not None:
            return self.count.compiled
        return tuple((r.entry, r.bet, r.max_touching) for r in self.rules)

    @property
    def chart_ev(self) -> float:
        """EV per hand with this stage played by the chart and every other decision optimally."""
        return self.optimal_ev - self.loss

    def to_json(self) -> dict[str, Any]:
        """This stage's chart as plain data for ``--json``."""
        return {"stage": self.stage, "words": self.words, "form": "point count" if self.count else "ranked list",
                "lines": self.lines, "count": self.count.to_json() if self.count else None,
                "rules": [r.__dict__ for r in self.rules], "optimal_ev": self.optimal_ev, "chart_ev": self.chart_ev,
                "loss": self.loss, "exceptions": self.exceptions}


@dataclass(frozen=True)
class Chart:
    """The human strategy: a chart for the deal, one for the draw, and the ting decision by outs."""

    deal: StageChart
    draw: StageChart
    ting_thresholds: list[dict[str, Any]]
    ting_outs: list[dict[str, Any]]
    exact: dict[str, Any] | None = None
    """The whole chart's exact figures (``chart_exact``), when computed."""
    curve: list[dict[str, Any]] | None = None
    """The loss against the number of lines, one entry per form of chart tried
    (:func:`solver.products.chart_short.curve`), for a chart built within ``max_lines``."""
    max_lines: int | None = None
    """The most deal and draw lines together the chart was built within (``None``: the full lists)."""
    reference: tuple[StageChart, StageChart] | None = None
    """For a short chart: the full lists it was shortened from (deal, draw), each priced, to look up."""

    @property
    def optimal_ev(self) -> float:
        """EV per hand under optimal play, from the solve's summary."""
        return self.deal.optimal_ev

    def rules(self) -> ChartRules:
        """The deal and draw lists in the form the solve follows (for the chart's exact EV)."""
        return ChartRules(self.deal.ranked_lines(), self.draw.ranked_lines(), self.deal.words)

    def to_json(self) -> dict[str, Any]:
        """The chart as plain data for ``--json``."""
        return {"words": self.deal.words, "deal": self.deal.to_json(), "draw": self.draw.to_json(),
                "ting_thresholds": self.ting_thresholds, "ting_outs": self.ting_outs, "exact": self.exact,
                "max_lines": self.max_lines, "lines": self.lines, "curve": self.curve,
                "reference": None if self.reference is None else {s.stage: s.to_json() for s in self.reference}}

    @property
    def lines(self) -> int:
        """Deal and draw lines together, the actions (claims, fold) aside: what ``max_lines`` bounds."""
        return self.deal.lines + self.draw.lines

    @property
    def over_limit(self) -> bool:
        """Built within ``max_lines`` and longer than that: no chart found fits
        (:func:`solver.products.chart_short._past_the_limit`)."""
        return self.max_lines is not None and self.lines > self.max_lines


Key = tuple[str, int | None]
"""A line's entry and its limit on dead cards touching the hold (``None``: any)."""

MIN_LINE_GAIN = 1e-4
"""A line limited by dead cards touching stays on a list only if it is worth this much per hand
dealt (0.01% of the tian-hu bet): each is one more line to learn."""


SEARCH_RESTARTS = 4
"""Seeded random orders the local search also starts from (besides the order of mean EVs)."""


SEARCH_SITUATIONS = 200_000
"""A stage with more situations than this (the real deck's draw has 4.78 million) has its list searched
on a weight-proportional sample of this many, drawn with a fixed seed; its price is still exact, over
every situation."""

ROW_BLOCK = 1 << 14
"""Situations handled at once where a step makes a (situations x entries) array: a chart in rank shapes
has thousands of entries, and the real deck's draw list is searched on 200,000 situations."""

LIMITS = (*TOUCHING_LIMITS, None)
"""The limits a line may put on dead cards touching, in the order of a key's limit columns."""


@dataclass
class _Situation:
    """One deal class or post-draw state as a chart's text shows it."""

    label: str
    best_label: str
    discards: dict[Key, str]
    """(entry, limit) -> the discards the line plays (the fewest dead cards touching, then nearest the middle)."""


def _describe(stage: str, entry: str, bet: float, discards: str = "") -> str:
    if entry in PSEUDO:
        return entry
    cards = f" (discard {discards})" if discards else ""
    if stage == "deal":
        return f"keep {entry}{cards}" + (", double down" if bet else "")
    return f"keep {entry}{cards}, bet F = {bet:g}"


def _key_order(key: Key) -> tuple[str, int]:
    return key[0], len(TOUCHING_LIMITS) if key[1] is None else key[1]


def _situation(stage: str, row: dict[str, Any], config: GameConfig, words: str) -> _Situation:
    """A table row (with its option lists) as the chart's text names it, one option at a time."""
    geometry = config.geometry
    hand = parse_cards(row["hand"], geometry)
    dead = parse_cards(row["dead"], geometry) if stage == "draw" else ()
    fewest: dict[Key, tuple[tuple[int, int], set[str]]] = {}
    options = options_from_row(row, geometry)
    for option in options:
        entry = option_entry(option, hand, geometry, words)
        if entry in PSEUDO:
            continue
        kept = remove_cards(hand, option.discard)
        touching = dead_touching(kept, dead + option.discard, geometry)
        preference = (touching, hold_spread(kept, geometry))
        text = format_cards(option.discard, geometry)
        for limit in LIMITS:
            if limit is None or touching <= limit:
                least, texts = fewest.get((entry, limit), (preference, set()))
                if preference < least:
                    least, texts = preference, set()
                if preference == least:
                    fewest[(entry, limit)] = (least, texts | {text})
    label = row["hand"] if stage == "deal" else (
        f"{row['hand']} (dead {row['dead']}{', doubled down' if row['double_down'] else ''})")
    best = options[row["best"]]
    best_label = _describe(stage, option_entry(best, hand, geometry, words), best.bet,
                           format_cards(best.discard, geometry))
    return _Situation(label, best_label, {k: " or ".join(sorted(t)) for k, (_, t) in fewest.items()})


@dataclass(frozen=True)
class _Keys:
    """A stage's lines as columns: (entry, limit) keys in :func:`_key_order`, and where each record's
    entry and limit column (of :data:`LIMITS`) sits among them (``len(keys)`` where it is not a key)."""

    keys: list[Key]
    at: np.ndarray

    @classmethod
    def of(cls, lines: StageLines, records: np.ndarray) -> _Keys:
        found = set()
        entry, fewest = lines.entry[records], lines.fewest[records]
        for limit in LIMITS:
            ok = np.ones(len(records), bool) if limit is None else fewest <= limit
            names = [lines.entries[e] for e in np.unique(entry[ok])]
            found |= {(n, limit) for n in names if limit is None or n not in PSEUDO}
        keys = sorted(found, key=_key_order)
        at = np.full((len(lines.entries), len(LIMITS)), len(keys), np.int64)
        index = {name: i for i, name in enumerate(lines.entries)}
        for k, (name, limit) in enumerate(keys):
            at[index[name], LIMITS.index(limit)] = k
        return cls(keys, at)

    def record_keys(self, lines: StageLines, records: np.ndarray) -> np.ndarray:
        """(records, limit columns): each record's key under each limit, ``len(keys)`` where the record's
        fewest touching exceeds the limit or the key is not a column."""
        out = self.at[lines.entry[records]]
        for column, limit in enumerate(LIMITS):
            if limit is not None:
                out[lines.fewest[records] > limit, column] = len(self.keys)
        return out


def _records_of(lines: StageLines, situations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The records of some situations (repeats allowed): each record's place in ``situations`` and its index."""
    starts = lines.starts
    ends = np.r_[starts[1:], len(lines.situation)]
    counts = ends[situations] - starts[situations]
    place = np.repeat(np.arange(len(situations)), counts)
    offsets = np.arange(len(place)) - np.repeat(np.cumsum(counts) - counts, counts)
    return place, np.repeat(starts[situations], counts) + offsets


def _dense(lines: StageLines, situations: np.ndarray, keys: _Keys) -> np.ndarray:
    """values[s, key, bet] of some situations (NaN where the key is not available) for the search.

    Single precision: a chart in rank shapes has thousands of keys, and the search only compares
    totals (accumulated in double precision); the chart is priced from the double-precision records."""
    values = np.full((len(situations), len(keys.keys) + 1, len(lines.bet_sizes)), np.nan, np.float32)
    place, records = _records_of(lines, situations)
    columns = keys.record_keys(lines, records)
    for limit in range(len(LIMITS)):
        values[place, columns[:, limit]] = lines.values[records]
    return values[:, :-1]


def _apply(lines: StageLines, keys: _Keys, order: list[int], bets: np.ndarray, active: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray]:
    """Every situation's line under a chart (the first of ``order`` it has, of the ``active`` keys) and
    that line's EV at its bet: the exact price of the list over all situations."""
    n_keys = len(keys.keys)
    place = np.full(n_keys + 1, n_keys + 1)
    place[order] = np.arange(len(order))
    place[:n_keys][~active] = n_keys + 1
    first, winner = _first_lines(lines.entry, lines.fewest, keys.at, _LIMIT_CAPS, place, lines.starts)
    assert (first <= n_keys).all(), "every situation has a line of the list (fold, or a hold at the deal)"
    picks = np.asarray(order)[first]
    return picks, lines.values[winner, bets[picks]]


_LIMIT_CAPS = np.array([np.iinfo(np.int64).max if limit is None else limit for limit in LIMITS], np.int64)
""":data:`LIMITS` as the most dead cards touching each limit column allows."""


@kernel(nogil=True)
def _first_lines(entry, fewest, at, caps, place, starts):
    """For each situation: the smallest ``place`` of its records' keys (a record's key under each limit
    column its fewest touching meets: ``at[entry, column]``), and the record that has it (the first)."""
    n = len(starts)
    first = np.empty(n, np.int64)
    winner = np.empty(n, np.int64)
    for s in range(n):
        end = starts[s + 1] if s + 1 < n else len(entry)
        best, record = place[len(place) - 1], starts[s]
        for r in range(starts[s], end):
            for column in range(len(caps)):
                if fewest[r] <= caps[column] and place[at[entry[r], column]] < best:
                    best, record = place[at[entry[r], column]], r
        first[s] = best
        winner[s] = record
    return first, winner


def _first_entries(present: np.ndarray, order: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """For each situation (row of ``present``): its first available entry in ``order``, and that entry's
    place in ``order`` (``len(present[0]) + 1`` where none is available)."""
    n_entries = present.shape[1]
    rank = np.full(n_entries, n_entries + 1)
    rank[order] = np.arange(len(order))
    first = np.empty(len(present), np.int64)
    for block in range(0, len(present), ROW_BLOCK):
        rows = slice(block, block + ROW_BLOCK)
        first[rows] = np.where(present[rows], rank[None, :], n_entries + 1).argmin(axis=1)
    return first, np.where(present[np.arange(len(first)), first], rank[first], n_entries + 1)


def _played(values: np.ndarray, order: list[int], bets: np.ndarray,
            present: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The line each situation plays under a chart (its first available one in ``order``; ``present``:
    which lines are available, by default those with values) and its EV."""
    picks, _ = _first_entries(~np.isnan(values[:, :, 0]) if present is None else present, order)
    return picks, values[np.arange(values.shape[0]), picks, bets[picks]]


class _FirstTwo:
    """Each situation's first two available entries in a ranked list (``len(present[0])`` where it has
    fewer), kept up to date as entries move or go: moving or dropping entry e changes them only for
    the situations that have e, since the others' entries keep their order. The situations that have
    entry e are ``holders(e)``, in order (``holder_rows`` from ``holder_start[e]``, ``holder_count[e]``
    of them); each situation's own entries are kept too (a few of a chart's thousands in rank shapes),
    so that finding its first two reads those few, not every entry."""

    def __init__(self, present: np.ndarray, order: list[int]) -> None:
        self.none = present.shape[1]
        rows, columns = np.nonzero(present)  # row by row: each situation's entries, together
        self.row_start = np.searchsorted(rows, np.arange(len(present) + 1))
        self.entries = columns
        self.holder_rows = rows[np.argsort(columns, kind="stable")]
        self.holder_count = np.bincount(columns, minlength=self.none)
        self.holder_start = np.cumsum(self.holder_count) - self.holder_count
        self.gone = np.zeros(self.none, np.bool_)
        self.place = np.full(self.none + 1, self.none)
        self.place[order] = np.arange(len(order))
        self.first = np.full(len(present), self.none)
        self.second = np.full(len(present), self.none)
        self.update(np.arange(len(present)))

    def holders(self, entry: int) -> np.ndarray:
        """The situations that have ``entry`` (none once it is dropped), in order."""
        start = self.holder_start[entry]
        return self.holder_rows[start:start + self.holder_count[entry]]

    def update(self, rows: np.ndarray) -> None:
        """Find the first two again for ``rows``."""
        _first_two(rows, self.row_start, self.entries, self.place, self.gone, self.none, self.first, self.second)

    def drop(self, entry: int) -> np.ndarray:
        """Take ``entry`` away from every situation (a line dropped); returns the situations that had it."""
        had = self.holders(entry)
        self.holder_count[entry] = 0
        self.gone[entry] = True
        self.update(had)
        return had


@kernel(nogil=True)
def _first_two(rows, row_start, entries, place, gone, none, first, second):
    """For each of ``rows``: its two available entries (not ``gone``, placed before ``none``) of the
    smallest ``place``, by a scan of its own entries (``none`` where it has fewer)."""
    for r in rows:
        e1, p1, e2, p2 = none, none, none, none
        for k in range(row_start[r], row_start[r + 1]):
            e = entries[k]
            p = place[e]
            if gone[e] or p >= none:
                continue
            if p < p1:
                e2, p2 = e1, p1
                e1, p1 = e, p
            elif p < p2:
                e2, p2 = e, p
        first[r] = e1
        second[r] = e2


def _search(values: np.ndarray, weights: np.ndarray, order: list[int], bets: np.ndarray,
            pseudo: np.ndarray, two: _FirstTwo | None = None) -> tuple[list[int], np.ndarray]:
    """Refine a ranked list and its bet choices by local search on the chart's exact total.

    ``values[s, e, b]`` is situation s's EV with entry e and bet size b (NaN
    where e is not available; ``two``, where given, is the situations' first
    two entries under ``order``, and says which entries are gone too). Each
    sweep moves each entry in turn to its best place in the list
    (``_move_sweep``), then sets each entry's bet to the best for the hands
    where it applies (``_bet_sweep``), until neither raises the total.
    """
    two = two or _FirstTwo(~np.isnan(values[:, :, 0]), order)
    ranked = np.array(order, np.int64)
    holders = (two.holder_rows, two.holder_start, two.holder_count)
    while True:
        moved = _move_sweep(ranked, two.place, two.none, weights, values, bets, *holders, two.row_start, two.entries,
                            two.gone, two.first, two.second)
        if not (_bet_sweep(ranked, pseudo, weights, values, bets, *holders, two.first) or moved):
            return ranked.tolist(), bets


@kernel(nogil=True)
def _move_sweep(order, place, none, weights, values, bets, holder_rows, holder_start, holder_count,
                row_start, entries, gone, first, second):
    """Move each entry of ``order`` (as it stands at the start) in turn to the place in the list that
    raises the weighted total most, found for all places at once: with e taken out, every situation
    that has e falls back on its first other entry, at place q of the list without e, and e takes it
    over exactly when inserted at or above q, so inserted at place j it gains the sum of the gains at
    every q >= j. Updates ``order``, ``place``, ``first`` and ``second`` in place; True where an entry
    moved. (A gain must beat staying by a relative 1e-12.)"""
    per_q = np.zeros(values.shape[1])  # zero but at the places in touched[:n_touched]
    touched = np.empty(values.shape[1], np.int64)
    touched_by = np.full(values.shape[1], -1)  # the last entry that touched each place
    moved = False
    for e in order.copy():
        here = place[e]
        n_touched = 0
        start = holder_start[e]
        for k in range(start, start + holder_count[e]):
            r = holder_rows[k]
            base = second[r] if first[r] == e else first[r]
            if base >= none:
                continue
            q = place[base] - 1 if place[base] > here else place[base]
            if touched_by[q] != e:
                touched_by[q] = e
                touched[n_touched] = q
                n_touched += 1
            per_q[q] += weights[r] * (values[r, e, bets[e]] - values[r, base, bets[base]])
        best, best_gain, here_gain = _best_place(per_q, touched[:n_touched], here)
        if best_gain > here_gain + 1e-12 * max(1.0, abs(here_gain)):
            step = 1 if best > here else -1
            for j in range(here, best, step):
                order[j] = order[j + step]
                place[order[j]] = j
            order[best] = e
            place[e] = best
            _first_two(holder_rows[start:start + holder_count[e]], row_start, entries, place, gone, none,
                       first, second)
            moved = True
    return moved


@kernel(nogil=True)
def _best_place(per_q, touched, here):
    """The first place j of the largest suffix sum ``sum(per_q[j:])``, that sum, and the suffix sum at
    ``here``; ``per_q`` is zero but at the places ``touched`` (distinct, in any order), which it is
    again on return. The sums add from the top place down, as a
    reversed cumulative sum of every place would (the zeros between add nothing)."""
    places = np.sort(touched)
    suffix = 0.0
    best, best_gain = places[-1] + 1 if len(places) else 0, 0.0  # above every touched place the sum is 0
    here_gain = 0.0
    for i in range(len(places) - 1, -1, -1):
        suffix += per_q[places[i]]
        per_q[places[i]] = 0.0
        lowest = places[i - 1] + 1 if i > 0 else 0  # every place from here up to places[i] has this sum
        if suffix >= best_gain:
            best, best_gain = lowest, suffix
        if lowest <= here <= places[i]:
            here_gain = suffix
    return best, best_gain, here_gain


@kernel(nogil=True)
def _bet_sweep(order, pseudo, weights, values, bets, holder_rows, holder_start, holder_count, first):
    """Set each entry's bet size to the one with the largest weighted total over the situations it
    decides (the first entry they have); True where one changed (it must beat the bet held by a
    relative 1e-12). Pseudo entries (actions) keep theirs."""
    totals = np.zeros(values.shape[2])
    changed = False
    for e in order:
        if pseudo[e]:
            continue
        totals[:] = 0.0
        start = holder_start[e]
        for k in range(start, start + holder_count[e]):
            r = holder_rows[k]
            if first[r] == e:
                for b in range(values.shape[2]):
                    term = weights[r] * values[r, e, b]
                    if not np.isnan(term):
                        totals[b] += term
        best = np.argmax(totals)
        if totals[best] > totals[bets[e]] + 1e-12 * max(1.0, abs(totals[bets[e]])):
            bets[e] = best
            changed = True
    return changed


def _prune(values: np.ndarray, weights: np.ndarray, order: list[int], bets: np.ndarray, pseudo: np.ndarray,
           limited: np.ndarray, min_gain: float, two: _FirstTwo) -> tuple[list[int], np.ndarray]:
    """Drop limited lines worth less than ``min_gain`` (in weighted total) and search again, until every
    limited line left earns its place. The lines dropped are gone from ``two`` (the situations' first two
    entries under ``order``); returns the order and the bets."""
    n_entries = values.shape[1]
    while True:
        used = np.bincount(two.first, weights, n_entries + 1)[:n_entries]
        dropped = False
        # the least used first: dropping one changes what the others are worth
        for e in sorted(np.flatnonzero((used > 0) & limited).tolist(), key=lambda e: used[e]):
            holders = two.holders(e)
            taken = holders[two.first[holders] == e]
            after = two.second[taken]
            if (after == n_entries).any():  # hands that would be left without a line
                continue
            if weights[taken] @ (values[taken, e, bets[e]] - values[taken, after, bets[after]]) < min_gain:
                two.drop(e)
                dropped = True
        if not dropped:
            return order, bets
        order, bets = _search(values, weights, order, bets, pseudo, two)


def build_stage_chart(stage: str, config: GameConfig, tables: Path | str, exceptions: int = 10,
                      words: str = DEFAULT_WORDS) -> StageChart:
    """Derive the ranked list of one decision from a main-game solve, refine it, and price it exactly.

    The first ranking puts each line by the weighted mean EV of the hands
    where optimal play takes it; its bet is the one optimal play makes most
    often with it. A local search (``_search``) then raises the chart's
    exact total, limited lines that earn less than ``MIN_LINE_GAIN`` are
    dropped (``_prune``); the same runs from ``SEARCH_RESTARTS`` seeded
    random orders too, and the best chart is kept. The search reads every
    situation, or where there are more than ``SEARCH_SITUATIONS`` a sample of
    that many (from the first order only: on the real deck's draw the random
    starts found nothing better, in four times the time); the list is then
    priced over every situation. Lines that no hand ever reaches are left out.
    """
    directory = Path(tables)
    check_tables(directory, config, Objective())
    if stage == "draw" and bound_below_folding(directory):  # the draw's lines would read bounds as values
        raise InputError(f"{directory}'s stage A leaves out the rows that cannot beat folding, which the draw's "
                         f"lines may play: run mahjong-poker solve --whole --out {directory} first (build_chart "
                         f"and mahjong-poker chart walk them themselves)")
    lines = stage_lines(stage, config, directory, words)
    keys, order, bets, active = _search_chart(stage, config, lines)
    return stage_chart_of(stage, config, directory, lines, keys, order, bets, active, exceptions, words)


def stage_chart_of(stage: str, config: GameConfig, directory: Path, lines: StageLines, keys: _Keys, order: list[int],
                   bets: np.ndarray, active: np.ndarray, exceptions: int, words: str, limits_shown: bool = True
                   ) -> StageChart:
    """A ranked list (``order`` of ``keys``, each key's bet, the ``active`` keys) as a priced stage chart: every
    situation's line, the lines' shares and costs, examples and exceptions (their plays without the lines'
    touching limits unless ``limits_shown``: a point count's compiled list has them, a person's count not)."""
    picks, chart_values = _apply(lines, keys, order, bets, active)
    losses = lines.best_ev - chart_values
    per_hand = _per_hand(stage, config)
    reached = np.bincount(picks, lines.weights, len(keys.keys)) > 0
    used = [e for e in order if reached[e]]
    examples = [int(np.argmax(np.where(picks == e, lines.weights, -1.0))) for e in used]
    worst = [int(i) for i in np.argsort(-lines.weights * losses, kind="stable")[:exceptions] if losses[i] > 1e-12]
    shown = sorted(set(examples + worst))
    text = dict(zip(shown, (_situation(stage, row, config, words) for row in situation_rows(stage, config, directory,
                                                                                       np.array(shown, np.int64)))))
    rules = _chart_rules(stage, lines, keys, bets, picks, chart_values, losses, per_hand,
                         [(e, text[example]) for e, example in zip(used, examples)])
    sizes = lines.bet_sizes
    rows = [{"hand": text[i].label, "weight": int(lines.weights[i]), "loss": float(losses[i]),
             "weighted_loss": float(lines.weights[i] * losses[i]) / per_hand,
             "chart": _describe(stage, line_text(keys.keys[picks[i]][0], keys.keys[picks[i]][1] if limits_shown
                                                 else None), sizes[bets[picks[i]]],
                                text[i].discards.get(keys.keys[picks[i]], "")),
             "optimal": text[i].best_label} for i in worst]
    optimal_ev = load_summary(directory, config).ev
    return StageChart(stage, rules, optimal_ev, float(lines.weights @ losses) / per_hand, rows, words)


def _search_chart(stage: str, config: GameConfig, lines: StageLines
                  ) -> tuple[_Keys, list[int], np.ndarray, np.ndarray]:
    """The keys and the ranked list the search finds (order, each key's bet, the keys kept), over every
    situation or a weighted sample of ``SEARCH_SITUATIONS`` of them."""
    keys, order, bets, active, _ = search_sample(stage, config, lines)
    return keys, order, bets, active


def searched_situations(lines: StageLines) -> tuple[np.ndarray, np.ndarray]:
    """The situations a chart is searched or fitted on, and their weights: every one, or where there are more
    than :data:`SEARCH_SITUATIONS` a weight-proportional sample of that many (a fixed seed), equally weighted."""
    n = len(lines.weights)
    if n <= SEARCH_SITUATIONS:
        return np.arange(n), lines.weights
    rng = np.random.default_rng(0)
    searched = np.sort(rng.choice(n, SEARCH_SITUATIONS, p=lines.weights / lines.weights.sum()))
    return searched, np.full(SEARCH_SITUATIONS, lines.weights.sum() / SEARCH_SITUATIONS)


def search_sample(stage: str, config: GameConfig, lines: StageLines
                  ) -> tuple[_Keys, list[int], np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """As :func:`_search_chart`, and the searched sample: (values with the dropped keys NaN, weights, best EVs)."""
    n = len(lines.weights)
    searched, weights = searched_situations(lines)
    keys = _Keys.of(lines, _records_of(lines, searched)[1])
    values = _dense(lines, searched, keys)  # gigabytes on the real deck's draw, freed on return
    restarts = SEARCH_RESTARTS if n <= SEARCH_SITUATIONS else 0  # on the real deck's draw they found nothing better
    order, bets, active = _ranked(values, weights, keys.keys, lines.best_ev[searched], _per_hand(stage, config),
                                  restarts)
    values[:, ~active] = np.nan
    return keys, order, bets, active, (values, weights, lines.best_ev[searched])


def _chart_rules(stage: str, lines: StageLines, keys: _Keys, bets: np.ndarray, picks: np.ndarray,
                 chart_values: np.ndarray, losses: np.ndarray, per_hand: int, used: list[tuple[int, _Situation]]
                 ) -> list[Rule]:
    """The chart's lines in order, each with the mean EV and share of the situations it decides, its
    loss against optimal play per hand dealt, and its play described on an example situation."""
    n_keys = len(keys.keys)
    applied_weight = np.bincount(picks, lines.weights, n_keys)
    applied_total = np.bincount(picks, lines.weights * chart_values, n_keys)
    applied_loss = np.bincount(picks, lines.weights * losses, n_keys) / per_hand
    sizes = lines.bet_sizes
    rules = []
    for e, example in used:
        entry, limit = keys.keys[e]
        play = _describe(stage, line_text(entry, limit), sizes[bets[e]], example.discards.get(keys.keys[e], ""))
        rules.append(Rule(len(rules) + 1, entry, sizes[bets[e]] if entry not in PSEUDO else 0.0, limit,
                          float(applied_total[e] / applied_weight[e]), float(applied_weight[e] / lines.weights.sum()),
                          f"{example.label}: {play}", float(applied_loss[e])))
    return rules


def _per_hand(stage: str, config: GameConfig) -> int:
    """The total weight of a stage's situations: every deal, and at the draw every deal times every draw."""
    size = config.geometry.size
    return comb(size, 6) * (1 if stage == "deal" else comb(size - 6, 2))


def _ranked(values: np.ndarray, weights: np.ndarray, keys: list[Key], best_ev: np.ndarray, per_hand: int,
            restarts: int) -> tuple[list[int], np.ndarray, np.ndarray]:
    """The ranked list (order of keys, each key's bet, the keys kept) the search finds on ``values``,
    from the order of mean EVs under optimal play and from ``restarts`` seeded random ones."""
    n_situations, n_keys, n_sizes = values.shape
    pseudo = np.array([k[0] in PSEUDO for k in keys])
    limited = np.array([k[1] is not None for k in keys])
    # Start from optimal play: each situation's best line and bet.
    flat = np.concatenate([np.nanargmax(values[i:i + ROW_BLOCK].reshape(-1, n_keys * n_sizes), axis=1)
                           for i in range(0, n_situations, ROW_BLOCK)])
    best_key, best_bet = flat // n_sizes, flat % n_sizes
    score = np.bincount(best_key, weights * best_ev, n_keys)
    mass = np.bincount(best_key, weights, n_keys)
    bet_mass = np.zeros((n_keys, n_sizes))
    np.add.at(bet_mass, (best_key, best_bet), weights)
    total, mass_present = np.zeros(n_keys), np.zeros(n_keys)
    for i in range(0, n_situations, ROW_BLOCK):
        first_sizes, block_weights = values[i:i + ROW_BLOCK, :, 0], weights[i:i + ROW_BLOCK]
        total += block_weights @ np.nan_to_num(first_sizes)
        mass_present += block_weights @ ~np.isnan(first_sizes)
    mean_present = total / np.maximum(mass_present, 1e-300)
    order = sorted(range(n_keys), key=lambda e: (mass[e] == 0, -(score[e] / mass[e]) if mass[e] > 0
                                                 else -mean_present[e], _key_order(keys[e])))
    bets = bet_mass.argmax(axis=1)
    # The local search ends at a local optimum: start it again from seeded random orders and keep the best.
    chosen: tuple[np.ndarray, list[int], np.ndarray] | None = None
    best_total = 0.0
    starts = [order] + [list(np.random.default_rng(seed).permutation(n_keys)) for seed in range(restarts)]
    present = ~np.isnan(values[:, :, 0])
    for start in starts:
        two = _FirstTwo(present, start)
        found = _search(values, weights, [int(e) for e in start], bets.copy(), pseudo, two)
        found_order, found_bets = _prune(values, weights, *found, pseudo, limited, MIN_LINE_GAIN * per_hand, two)
        total = float(weights @ values[np.arange(n_situations), two.first, found_bets[two.first]])
        if chosen is None or total > best_total + 1e-12 * max(1.0, abs(best_total)):
            best_total, chosen = total, (two.holder_count > 0, found_order, found_bets)
    assert chosen is not None
    active, order, bets = chosen
    return order, bets, active


def ting_thresholds(config: GameConfig) -> list[dict[str, Any]]:
    """For each F: the win probability above which each ting option is best, flushes counted as plain wins.

    With a win probability p the bet G returns p * (ante + F * fa + G * pays) - (1 - p) * (1 + F + G),
    folding -(1 + F); each comparison is linear in p, so the thresholds are exact fractions.
    """
    out = []
    for fa in config.fa_hu_bets:
        f = Fraction(fa)
        win = Fraction(config.ting_hu_ante) + f * Fraction(config.ting_hu_fa)
        options = [("fold", (Fraction(0), -(1 + f)))]  # (name, (a, b)): EV = a * p + b
        for m in config.ting_hu_multiples:
            g = Fraction(m) * f
            options.append((f"bet G = {m:g} F", (win + g * Fraction(config.ting_hu) + 1 + f + g, -(1 + f + g))))
        # Walk p from 0 to 1: the best option changes where lines cross (upper envelope).
        steps = []
        p = Fraction(0)
        current = max(range(len(options)), key=lambda i: (options[i][1][0] * p + options[i][1][1], -i))
        steps.append({"from_probability": 0.0, "option": options[current][0]})
        while True:
            a0, b0 = options[current][1]
            crossings = [((b0 - b) / (a - a0), i) for i, (_, (a, b)) in enumerate(options)
                         if a > a0 and (b0 - b) / (a - a0) >= p]
            if not crossings:
                break
            p, current = min(crossings, key=lambda x: (x[0], -options[x[1]][1][0]))
            if p > 1:
                break
            steps.append({"from_probability": float(p), "exact": str(p), "option": options[current][0]})
        out.append({"fa_bet": fa, "steps": steps})
    return out


def ting_outs_table(config: GameConfig, max_outs: int = 30) -> list[dict[str, Any]]:
    """The ting decision by the number of outs: unseen card types' copies that complete a hu alone.

    With ``a`` outs among the ``n`` unseen non-joker cards (no joker among
    the player's eight cards: 12 cards seen, of them 4 community), and no
    pair of non-outs that completes together, the last two cards win with
    probability 1 - C(n - a, 2) / C(n, 2); each cell is the best option at
    that probability (``ting_thresholds``, flushes counted as plain wins).
    At a threshold the options tie, and the one with less money at risk is
    taken (docs/rules.md, "Information and optimal play").
    """
    n = config.geometry.size - config.geometry.jokers_in_play - 12
    out = []
    for fa, thresholds in zip(config.fa_hu_bets, ting_thresholds(config)):
        for a in range(min(max_outs, n) + 1):
            p = 1 - Fraction(comb(n - a, 2), comb(n, 2))
            steps = thresholds["steps"]
            option = ([steps[0]] + [s for s in steps[1:] if Fraction(s["exact"]) < p])[-1]["option"]
            out.append({"fa_bet": fa, "outs": a, "probability": float(p), "option": option, "unseen": n})
    return out


def build_chart(config: GameConfig, tables: Path | str, exceptions: int = 10, exact: bool = False,
                n_jobs: int = -1, quiet: bool = True, words: str = DEFAULT_WORDS) -> Chart:
    """The whole human strategy from a main-game solve: deal and draw charts, the ting decision by outs.

    ``words``: how the lines name holds (:data:`solver.products.patterns.WORDINGS`): rank ``shapes``
    (the chart near optimal play) or card-``patterns`` words (a short chart, easier to learn, that
    loses more). With ``exact`` the whole chart is also priced exactly (``chart_exact``: a solve of
    its own).
    """
    check_inputs(config, Path(tables), n_jobs, quiet)
    steps = Steps("chart", 2, quiet)
    stages = []
    for stage in ("deal", "draw"):
        with steps.step(f"the {stage}'s lists: reading every situation, searching"):
            stages.append(build_stage_chart(stage, config, tables, exceptions, words))
    steps.close()
    chart = Chart(*stages, ting_thresholds(config), ting_outs_table(config))
    return price_exactly(chart, config, tables, n_jobs, quiet) if exact else chart


def check_inputs(config: GameConfig, tables: Path, n_jobs: int = -1, quiet: bool = True) -> None:
    """Refuse tables a chart cannot read: not whole, not this configuration's, without the holds and
    draws tables, or a bounded paytable variant. A solve whose stage A left out the rows that cannot beat
    folding has them walked first (a chart's lines may play them): once, on ``n_jobs`` processes."""
    check_tables(Path(tables), config, Objective())  # whole, and made for this configuration's optimal play
    missing = [path.name for path in (holds_file(Path(tables)), Path(tables) / "draws.parquet") if not path.exists()]
    if missing:  # checked now: the deal's list takes minutes before the draw's would find them missing
        raise InputError(f"{tables} lacks {' and '.join(missing)}, which the draw's chart reads (committed tables "
                         f"leave them out: they are large): {solve_command(Path(tables), Objective())} adds them")
    if bounded_stage_a(Path(tables)):
        raise InputError(f"{tables} is a paytable variant bounded by solves of other ting payouts or bets: its "
                         f"holds.parquet has only the rows that could be best, and a chart reads them all; solve "
                         f"--config it into another directory to chart it")
    if bound_below_folding(Path(tables)):  # a chart's lines may play rows that cannot beat folding: walked once
        source = holds_file(Path(tables)).parent  # a paytable variant of the deal payouts reads another's
        owner = config if source == Path(tables) else manifest_config(source)
        if owner is None:
            raise InputError(f"{tables} reads the stage A of {source}, which leaves out the rows that cannot beat "
                             f"folding: run mahjong-poker solve --whole (with its --config) --out {source} first")
        solve(owner, source, n_jobs=n_jobs, quiet=quiet, index=False, whole=True)


def price_exactly(chart: Chart, config: GameConfig, tables: Path | str, n_jobs: int = -1, quiet: bool = True
                  ) -> Chart:
    """``chart`` with its exact figures: a solve that follows it (``chart_exact``)."""
    optimal = load_summary(tables, config)
    rules = chart.rules()
    summary = chart_exact(config, tables, rules, n_jobs, quiet)
    return replace(chart, exact={
        "ev": float(summary.ev_exact), "ev_exact": str(summary.ev_exact), "house_edge": summary.house_edge,
        "element_of_risk": summary.element_of_risk, "optimal_ev_exact": str(optimal.ev_exact),
        "optimal_house_edge": optimal.house_edge,
        "loss": float(optimal.ev_exact - summary.ev_exact), "loss_exact": str(optimal.ev_exact - summary.ev_exact),
        "uncovered": float(uncovered_share(config, summary.directory, rules)), "tables": _shown(summary.directory)})


def _shown(path: Path | str) -> str:
    """A path as a report shows it: relative to the working folder when inside it (no local folders)."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def uncovered_share(config: GameConfig, chart_tables: Path | str, rules: ChartRules) -> Fraction:
    """Share of hands dealt that reach, under the chart, a post-draw state none of its draw lines covers
    (the chart solve plays those optimally), read from the chart solve's draw table."""
    from solver.staged.forward import decode_rows, sum_exact
    from solver.staged.stages import state_holds

    geometry = config.geometry
    size = geometry.size
    draws = read_table(Path(chart_tables) / "draws.parquet", columns=["key", "reach"])
    keys, reach = draws["key"].to_numpy(), draws["reach"].to_numpy()
    total = 0
    for start in range(0, len(keys), CHUNK):
        hands, deads = decode_rows(keys[start:start + CHUNK], geometry.n_types, (6, 2))
        held = state_holds(hands, deads, np.empty(0, np.int64), geometry)
        state, _ = rules.draw_choices(held.holds, held.thrown, deads, held.n_holds, held.level,
                                      tuple(config.fa_hu_bets), geometry)
        silent = np.bincount(state, minlength=len(hands)) == 0
        total += sum_exact(reach[start:start + CHUNK][silent])  # counted mix_unit times per path
    return Fraction(total, comb(size, 6) * comb(size - 6, 2) * Objective(restriction=CHART, chart=rules).mix_unit)


def chart_exact(config: GameConfig, tables: Path | str, rules: ChartRules, n_jobs: int = -1,
                quiet: bool = True) -> Summary:
    """The exact figures of playing ``rules`` at the deal and the draw (the ting decision optimal).

    A solve with the chart restriction (:mod:`solver.game.objective`), written
    beside the main tables (``<tables>-chart-<digest>``) and reused when
    there. A post-draw hand that no rule covers (the chart's deal play can
    reach hands optimal play never does) is played optimally.
    """
    from solver.staged.run import solve

    directory = Path(tables)
    objective = Objective(restriction=CHART, chart=rules)
    return solve(config, directory.parent / (directory.name + objective.suffix()), restriction=CHART,
                 chart=rules, n_jobs=n_jobs, quiet=quiet, holds_from=directory)


def _stage_blocks(chart: StageChart, title: str, anchor: str, intro: str, exceptions: bool = True) -> list[Block]:
    """One decision's chart (its list, or its point count), its exact cost and (``exceptions``) its costliest
    exceptions."""
    body = (_count_blocks(chart.count) if chart.count is not None
            else [Paragraph(intro), _lines_table(chart, compact=not exceptions)])
    return [
        Heading(2, title, anchor), *body,
        Paragraph(f"Playing this decision by the chart (every other decision optimally) is worth "
                  f"{chart.chart_ev:+.6f} per hand against {chart.optimal_ev:+.6f} for optimal play: "
                  f"a loss of **{chart.loss:.6f}** per hand dealt ({100 * chart.loss:.3f}% of the tian-hu bet)."),
    ] + (_exception_blocks(chart) if exceptions else [])


def _exception_blocks(chart: StageChart) -> list[Block]:
    """The hands where one decision's chart loses most."""
    return [
        Heading(3, f"Exceptions that cost the most ({chart.stage})"),
        Table(["hand", "chart", "optimal", "loss when it happens", "share of the stage's loss"],
              [[e["hand"], e["chart"], e["optimal"], f"{e['loss']:.4f}",
                f"{100 * e['weighted_loss'] / chart.loss if chart.loss else 0.0:.1f}%"] for e in chart.exceptions],
              "lllrr"),
    ]


def _lines_table(chart: StageChart, compact: bool = False) -> Table:
    """A ranked list as a table: each line with its bet, mean EV, share of hands, cost and example; ``compact``
    (a short chart, to print on a page): each line with its bet, cost and an example hand with its discard."""
    def bet(rule: Rule) -> str:
        if rule.entry in PSEUDO:
            return ""
        return ("yes" if rule.bet else "no") if chart.stage == "deal" else f"F = {rule.bet:g}"

    def example(rule: Rule) -> str:  # "<hand>: keep <line> (discard <cards>), ..." -> "<hand>: discard <cards>"
        hand, _, play = rule.example.partition(": ")
        discard = re.search(r"\(discard ([^)]*)\)", play)
        return f"{hand}: discard {discard.group(1)}" if discard else rule.example

    cost = [f"{round(r.loss, 6) + 0.0:.6f}" for r in chart.rules]  # + 0.0: a loss that rounds to zero is not -0
    bet_header = "double down" if chart.stage == "deal" else "bet"
    if compact:
        return Table(["rank", "take the first line your cards allow", bet_header, "cost per hand", "example"],
                     [[str(r.rank), line_text(r.entry, r.max_touching), bet(r), c, example(r)]
                      for r, c in zip(chart.rules, cost)], "rllrl")
    rows = [[str(r.rank), line_text(r.entry, r.max_touching), bet(r), f"{r.mean_ev:+.4f}", f"{100 * r.coverage:.2f}%",
             c, r.example] for r, c in zip(chart.rules, cost)]
    return Table(["rank", "take the first line your cards allow", bet_header, "mean EV", "share of hands",
                  "cost per hand", "example"], rows, "rllrrrl")


def _count_blocks(count: Count) -> list[Block]:
    """A point count as a person reads it: the points, then the bets."""
    where = "your six cards" if count.stage == "deal" else "your six cards after the draw"
    return [
        Paragraph(f"**A point count** ({count.lines} line{'' if count.lines == 1 else 's'}). Claim a hu whenever "
                  "you can. Otherwise score each way "
                  f"to keep four of {where}, adding up the points of what the kept cards make (each card in one "
                  "group only, read as the card-pattern words below), and keep the four with the most points "
                  "(ties: the fewest dead cards touching, then the more jokers, then the cards nearest the middle)."),
        Table(["points", "for"], [row.split(" ", 1) for row in count.rules_text()], "rl"),
        Paragraph("Then " + "; ".join(count.bets_text()) + "."),
    ]


def _outs_ranges(rows: list[dict[str, Any]]) -> str:
    """``0-5: fold; 6-17: bet G = 1 F; 18 or more: bet G = 3 F`` for one F (rows in order of outs)."""
    runs: list[list[dict[str, Any]]] = []
    for row in rows:
        if runs and runs[-1][-1]["option"] == row["option"]:
            runs[-1].append(row)
        else:
            runs.append([row])
    parts = []
    for i, run in enumerate(runs):
        low, high = run[0]["outs"], run[-1]["outs"]
        span = f"{low} or more" if i == len(runs) - 1 else (f"{low}" if low == high else f"{low}-{high}")
        parts.append(f"{span}: {run[0]['option']}")
    return "; ".join(parts)


def chart_document(chart: Chart) -> list[Block]:
    """The chart as document blocks (``solver.render.document`` renders them as Markdown or HTML)."""
    blocks: list[Block] = [Heading(1, "Strategy chart"), *_reading_blocks(chart)]
    # a short chart keeps the deal, the draw and the ting together, to print on a page; its exceptions follow
    inline = chart.max_lines is None
    cost = ("The share of hands is the share of all deals where that line is the one applied; its cost, what "
            "those hands lose by it against optimal play" if inline else
            "A line's cost is what the hands it plays lose by it against optimal play")
    blocks += _stage_blocks(chart.deal, "The deal", "deal",
                            "Claim the tian-hu, or keep the highest-ranked pattern your six cards contain "
                            f"(discarding the other two) and double down where the line says so. {cost}, per hand "
                            "dealt (the costs add up to the list's loss).", inline)
    blocks += _stage_blocks(chart.draw, "The draw", "draw",
                            "After the first draw: claim the di-hu, fold, or keep the highest-ranked pattern "
                            "your six cards contain and bet F as the line says." + (
                                " Shares are of the hands reaching the draw under optimal play; costs as at the deal."
                                if inline else " Costs as at the deal."), inline)
    blocks += _ting_blocks(chart)
    if not inline:
        blocks += [Heading(2, "Where the chart loses most", "exceptions"),
                   *_exception_blocks(chart.deal), *_exception_blocks(chart.draw)]
    return blocks + _curve_blocks(chart) + _reference_blocks(chart)


def _reference_blocks(chart: Chart) -> list[Block]:
    """The full lists a short chart was cut from, to look a hand up in."""
    if chart.reference is None:
        return []
    deal, draw = chart.reference
    blocks: list[Block] = [
        Heading(2, "The full lists, for reference", "reference"),
        Paragraph(f"The lists the short chart was cut from, in the same words: {deal.lines} deal lines and "
                  f"{draw.lines} draw lines, costing {deal.loss:.6f} and {draw.loss:.6f} per hand (each alone, "
                  "every other decision optimal). Look a hand up here; play the short chart above at the table."),
    ]
    for stage, title in ((deal, "The deal, full list"), (draw, "The draw, full list")):
        blocks += [Heading(3, title), _lines_table(stage)]
    return blocks


def _curve_blocks(chart: Chart) -> list[Block]:
    """The loss against the number of lines, for a chart built within a number of lines."""
    if not chart.curve or chart.max_lines is None:
        return []

    def cell(x: float | None) -> str:
        return "" if x is None else f"{x:.6f}"

    def split(p: dict[str, Any]) -> str:
        if p["chart"] is None:
            return ""
        forms = f" ({p['deal_form']}, {p['draw_form']})" if "deal_form" in p else ""
        return f"{p['deal_lines']} + {p['draw_lines']}{forms}"

    rows = [[form["form"], str(p["lines"]), cell(p["deal"]), cell(p["draw"]), cell(p["chart"]), split(p)]
            for form in chart.curve for p in form["points"]]
    shortest = "; ".join(f"{form['form']}: the deal {form['shortest']['deal']}, the draw {form['shortest']['draw']}"
                         for form in chart.curve)
    lines = chart.lines
    within = (f"This chart has {lines} deal and draw lines together, within the {chart.max_lines} asked"
              if not chart.over_limit else
              f"**No chart found fits in {chart.max_lines} lines**: the deal is as short as the search found it "
              f"({chart.deal.lines} lines), the draw has at most {chart.max_lines} of its own, {lines} deal and draw "
              f"lines together")
    return [
        Heading(2, "The cost against the length", "curve"),
        Paragraph(f"{within} (the claims and the fold line aside; a point count's lines are its scored features, "
                  "the touching rule and its thresholds). Each decision's loss is exact for that decision alone "
                  "(every other decision optimal); the chart's, the sum of the two at the split of lines that "
                  "minimises it. A list's lines are dropped one at a time, the cheapest first, from the full list "
                  "(at the deal no line covers every hand, so a list cannot shorten past the lines some hand "
                  "needs); a point count's features likewise. The shortest found: " + shortest + "."),
        Table(["form", "lines", "the deal", "the draw", "the chart", "deal + draw lines"], rows, "lrrrrl"),
    ]


def _reading_blocks(chart: Chart) -> list[Block]:
    """What the chart costs, and how to read its lines: shapes, dead cards touching, the tie rule."""
    blocks: list[Block] = []
    if chart.exact is not None:
        e = chart.exact
        blocks.append(Paragraph(
            f"Following the whole chart (the deal and the draw as below, the ting decision played "
            f"optimally) is worth **{e['ev']:+.9f}** per hand exactly ({e['ev_exact']}), against "
            f"{float(Fraction(e['optimal_ev_exact'])):+.9f} for optimal play: a loss of **{e['loss']:.6f}** "
            f"({100 * e['loss']:.3f}% of the tian-hu bet){_edge_text(e)}. "
            f"A share of {e['uncovered']:.6f} of hands reach a draw that no line of the draw list covers "
            f"(the chart's deal play reaches hands optimal play never does); they are played optimally."))
    else:
        blocks.append(Paragraph(
            f"Each list's loss below is exact for that decision alone; together they cost about "
            f"{chart.deal.loss + chart.draw.loss:.6f} per hand (`--exact` solves the whole chart exactly)."))
    if chart.deal.words == "shapes":
        blocks.append(Paragraph(
            "**Shapes.** A line names the cards to keep by their ranks, one group of digits per suit (`+` "
            "between suits, `J` for a joker), written as low as they can go while keeping how near the ends "
            "the group's lowest and highest cards are: at an end, next to one, or further. So `1` is an end "
            "rank (the lowest or the highest), `2` a rank next to an end, a lone `3` any rank two or more from "
            "both ends, `345` any run as far from the ends (with nine ranks, 3-4-5 to 5-6-7), `37` a 3 and a "
            "7 of one suit; and each group may be read downwards as well (with nine ranks `2234` is also "
            "6-7-8-8). The suits themselves do not matter."))
    if chart.deal.words == "patterns":
        blocks.append(Paragraph(
            "**Words.** Lines name the cards to keep in card-pattern words: a *pair*, *triplet* or *four of a "
            "kind* (an *end pair* is of the lowest or highest rank), a *suited run* of three in sequence in one "
            "suit (a *four-run*: four), a *suited connector* of two in sequence in one suit (*open* when two "
            "ranks complete a run, *edge* at an end: one), a *suited one-gap* (two of one suit one rank apart), "
            "a *joker*, and the *odd* cards left: *end* cards are of the lowest or highest rank, *middle* the "
            "rest, *suited* when another kept card has their suit. Each card is read in one group only, the "
            "larger groups first. With three or more suited cards kept, the words end with the number of "
            "suits those cards span."))
    blocks.append(Paragraph(
        "**Dead cards touching.** The cards you have thrown, counting the two a line throws, are dead. A dead "
        "card *touches* the cards you keep when it is a copy of one of them, or of the same suit one rank "
        "away (jokers neither touch nor are touched). Some lines apply only when no dead card (or at most "
        "one) touches the kept cards; and where several discards keep a line's pattern, throw the ones that "
        "leave the fewest dead cards touching."))
    blocks.append(Paragraph(
        "**Nearest the middle.** If that still leaves a choice, keep the cards nearest the middle rank: add "
        "up how far each kept card (jokers aside) is from the middle rank, and keep the smallest total. "
        "Any of the discards still left will do."))
    return blocks


def _ting_blocks(chart: Chart) -> list[Block]:
    """The ting decision by the number of outs, and its exact thresholds."""
    n = chart.ting_outs[0]["unseen"]
    by_fa: dict[float, list[dict[str, Any]]] = defaultdict(list)
    for row in chart.ting_outs:
        by_fa[row["fa_bet"]].append(row)
    return [
        Heading(2, "The ting decision", "ting"),
        Paragraph(f"Count the outs: the unseen cards (of {n} when you hold no joker) each of which, with "
                  "any second card, completes a hu that uses a hand card. Then, by the number of outs:"),
        Bullets([f"F = {fa:g}: {_outs_ranges(rows)}" for fa, rows in by_fa.items()]),
        Paragraph(f"A pair of unseen cards that completes a hu only together counts as 1/{n - 1} of an out; "
                  "outs that complete a flush hu are worth a little more than the table assumes. The exact "
                  "rule is a win probability threshold (at a threshold exactly, the smaller bet):"),
        Bullets([f"F = {t['fa_bet']:g}: " + "; ".join(
            s["option"] if i == 0 else f"above {s['exact']} ({s['from_probability']:.4f}): {s['option']}"
            for i, s in enumerate(t["steps"]))
            for t in chart.ting_thresholds]),
    ]


def _edge_text(exact: dict[str, Any]) -> str:
    """The chart's cost against the house edge (or the player's, where optimal play has the edge)."""
    if "optimal_house_edge" not in exact:
        return f"; house edge {100 * exact['house_edge']:.4f}%"
    optimal, chart = exact["optimal_house_edge"], exact["house_edge"]
    if not optimal:
        return f"; house edge {100 * chart:.4f}%"
    share = 100 * (chart - optimal) / abs(optimal)
    return (f"; the house edge goes from {100 * optimal:.4f}% under optimal play to {100 * chart:.4f}%: "
            + (f"the chart adds {share:.1f}% to the house edge" if optimal > 0
               else f"the chart gives up {share:.1f}% of the player's edge"))


def chart_markdown(chart: Chart) -> str:
    """The chart as a Markdown document."""
    return to_markdown(chart_document(chart))
