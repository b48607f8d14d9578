"""A short chart: the best chart found within a number of lines, and the loss against the length.

Two forms of chart are tried for each decision:

- **Ranked lists.** From the searched lists (:func:`solver.products.chart.search_sample`)
  lines are dropped one at a time, each time the one whose hands lose least by
  falling back on their next line (``_shorten``), until no line can go without
  leaving a hand with none (the claims and ``fold`` are never dropped and do not
  count as lines; at the draw ``fold`` catches every hand, at the deal the last
  lines standing are the catch-all). Every list size on the way is kept.
- **Point counts** (in card-pattern words only: :mod:`solver.products.point_count`),
  fitted on the same situations (:mod:`solver.products.chart_count`), one per length.

The deal's and the draw's charts, of either form, are split to minimise the two
losses' sum within the lines allowed (``_split``); the curves of the loss
against the number of lines, one per form and one for the better form at each
decision, come from the same paths. Each chart kept is priced exactly over
every situation, as the long lists are.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from solver.game.config import GameConfig
from solver.products.chart import (
    Chart,
    StageChart,
    _apply,
    _FirstTwo,
    _Keys,
    _per_hand,
    _played,
    _search,
    check_inputs,
    price_exactly,
    search_sample,
    searched_situations,
    stage_chart_of,
    ting_outs_table,
    ting_thresholds,
)
from solver.products.chart_count import Fitter, Records, count_path, exact_loss
from solver.products.chart_lines import StageLines, stage_lines
from solver.products.patterns import PSEUDO
from solver.products.point_count import Count
from solver.runtime.steps import Steps

SHORT_WORDS = "patterns"
"""How a short chart names holds unless told otherwise: card-pattern words, whose lists shorten far better
than rank shapes' and in which a point count is fitted."""

CURVE_SIZES = (10, 20, 40, 80, 160, 320)
"""The numbers of lines the curve reports (besides the full lists)."""


@dataclass(frozen=True)
class _Snapshot:
    """A list on the shortening path: its order, bets and kept keys, and its loss on the searched sample."""

    order: list[int]
    bets: np.ndarray
    active: np.ndarray
    sample_loss: float


@dataclass
class _Path:
    """One stage's searched lists and every list size reached by dropping lines."""

    stage: str
    lines: StageLines
    keys: _Keys
    snapshots: dict[int, _Snapshot]
    priced: dict[int, float]

    form = "ranked list"

    @property
    def sample_losses(self) -> dict[int, float]:
        """Each size's loss per hand on the searched sample."""
        return {n: s.sample_loss for n, s in self.snapshots.items()}

    def exact_loss(self, config: GameConfig, size: int) -> float:
        """The exact loss per hand dealt of the list of ``size`` lines, over every situation (kept once found)."""
        if size not in self.priced:
            s = self.snapshots[size]
            _, chart_values = _apply(self.lines, self.keys, s.order, s.bets, s.active)
            self.priced[size] = float(self.lines.weights @ (self.lines.best_ev - chart_values)) / _per_hand(
                self.stage, config)
        return self.priced[size]

    def stage_chart(self, config: GameConfig, directory: Path, size: int, exceptions: int, words: str) -> StageChart:
        """The list of ``size`` lines, priced over every situation."""
        s = self.snapshots[size]
        return stage_chart_of(self.stage, config, directory, self.lines, self.keys, s.order, s.bets, s.active,
                              exceptions, words)


@dataclass
class _CountPath:
    """One stage's point counts (:mod:`solver.products.point_count`), the best found at each length."""

    stage: str
    lines: StageLines
    counts: dict[int, Count]
    sample_losses: dict[int, float]
    priced: dict[int, float]
    form = "point count"

    def exact_loss(self, config: GameConfig, size: int) -> float:
        """The exact loss per hand dealt of the count of ``size`` lines, over every situation."""
        if size not in self.priced:
            self.priced[size] = exact_loss(self.lines, self.counts[size], _per_hand(self.stage, config))
        return self.priced[size]

    def stage_chart(self, config: GameConfig, directory: Path, size: int, exceptions: int, words: str) -> StageChart:
        """The count of ``size`` lines as a stage chart: its compiled list priced over every situation as a
        list is (the same loss as :meth:`exact_loss`, by another computation)."""
        count = self.counts[size].compile(self.lines.entries)
        keys = _Keys.of(self.lines, np.arange(len(self.lines.situation)))
        index = {key: k for k, key in enumerate(keys.keys)}
        order, bets = [], np.zeros(len(keys.keys), np.int64)
        for entry, bet, limit in count.compiled:
            k = index.get((entry, None if entry in PSEUDO else limit))
            if k is not None:  # (a pattern no situation has at that limit plays nothing)
                order.append(k)
                bets[k] = 0 if entry in PSEUDO else self.lines.bet_sizes.index(bet)
        active = np.zeros(len(keys.keys), bool)
        active[order] = True
        chart = stage_chart_of(self.stage, config, directory, self.lines, keys, order, bets, active, exceptions,
                               words, limits_shown=False)
        return replace(chart, count=count)


_Form = _Path | _CountPath


def _shorten(values: np.ndarray, weights: np.ndarray, best_ev: np.ndarray, order: list[int], bets: np.ndarray,
             active: np.ndarray, pseudo: np.ndarray, per_hand: int) -> dict[int, _Snapshot]:
    """Drop lines one at a time, the cheapest first, until none can go; a snapshot at every size reached."""
    n_entries = values.shape[1]
    present = ~np.isnan(values[:, :, 0])
    two = _FirstTwo(present, order)
    rows = np.arange(len(weights))
    floor = float(weights @ best_ev)
    dropped = ~active.copy()
    snapshots: dict[int, _Snapshot] = {}
    while True:
        first, second = two.first, two.second
        assert (first < n_entries).all(), "every situation keeps a line"
        here = values[rows, first, bets[first]].astype(np.float64)
        falls = second < n_entries
        then = np.where(falls, values[rows, np.minimum(second, n_entries - 1),
                                      bets[np.minimum(second, n_entries - 1)]], here)
        used = np.bincount(first, weights, n_entries) > 0
        counted = used & ~pseudo
        # a line the sample never reaches is left out, so that the list over every situation is no longer
        snapshots[int(counted.sum())] = _Snapshot(list(order), bets.copy(), ~dropped & (used | pseudo),
                                                  (floor - float(weights @ here)) / per_hand)
        stuck = np.bincount(first[~falls], minlength=n_entries) > 0
        cost = np.bincount(first, weights * (here - then), n_entries)
        candidates = counted & ~stuck
        if not candidates.any():
            return snapshots
        e = int(np.argmin(np.where(candidates, cost, np.inf)))
        dropped[e] = True
        two.drop(e)


def stage_path(stage: str, config: GameConfig, tables: Path, words: str) -> _Path:
    """A stage's lists searched as for the long chart, then shortened line by line (``_shorten``)."""
    lines = stage_lines(stage, config, tables, words)
    keys, order, bets, active, (values, weights, best_ev) = search_sample(stage, config, lines)
    pseudo = np.array([k[0] in PSEUDO for k in keys.keys])
    per_hand = _per_hand(stage, config)
    snapshots = _shorten(values, weights, best_ev, order, bets, active, pseudo, per_hand)
    _research(snapshots, values, weights, float(weights @ best_ev), pseudo, per_hand)
    return _Path(stage, lines, keys, snapshots, {})


RESEARCHED_UP_TO = 80
"""Lists up to this many lines are searched again after shortening (``_research``): the sizes a short
chart is made of."""


def _research(snapshots: dict[int, _Snapshot], values: np.ndarray, weights: np.ndarray, floor: float,
              pseudo: np.ndarray, per_hand: int) -> None:
    """Search each short list again on its own lines (``_search``: the order and bets were the full list's,
    less the lines dropped), and keep what it finds where that loses less, under its own number of lines."""
    for size in sorted(n for n in snapshots if n <= RESEARCHED_UP_TO):
        s = snapshots[size]
        kept = np.flatnonzero(s.active)
        place = {int(k): i for i, k in enumerate(kept)}
        part = values[:, kept]  # the kept lines' columns only: a small copy
        order, bets = _search(part, weights, [place[k] for k in s.order if k in place], s.bets[kept].copy(),
                              pseudo[kept])
        picks, played = _played(part, order, bets)
        loss = (floor - float(weights @ played)) / per_hand
        used = np.bincount(picks, weights, len(kept)) > 0
        lines = int((used & ~pseudo[kept]).sum())
        if loss < snapshots.get(lines, s).sample_loss - 1e-12:
            full_bets = s.bets.copy()
            full_bets[kept] = bets
            active = np.zeros_like(s.active)
            active[kept[used | pseudo[kept]]] = True
            snapshots[lines] = _Snapshot([int(kept[i]) for i in order] + [k for k in s.order if k not in place],
                                         full_bets, active, loss)


Choice = tuple[_Form, int]
"""One decision's chart: a form and its size."""


def _best_within(forms: list[_Form], max_lines: int) -> list[tuple[float, Choice]]:
    """Every (form, size) of one decision within ``max_lines``, with its sample loss."""
    return [(loss, (form, n)) for form in forms for n, loss in form.sample_losses.items() if n <= max_lines]


def _split(deal: list[_Form], draw: list[_Form], max_lines: int) -> tuple[Choice, Choice] | None:
    """The deal's and the draw's charts, of any of their forms, within ``max_lines`` together with the least
    sum of sample losses (``None`` where even the shortest are longer)."""
    best: tuple[float, Choice, Choice] | None = None
    for deal_loss, a in _best_within(deal, max_lines):
        fits = _best_within(draw, max_lines - a[1])
        if fits:
            draw_loss, b = min(fits, key=lambda f: (f[0], -f[1][1]))
            if best is None or deal_loss + draw_loss < best[0]:
                best = (deal_loss + draw_loss, a, b)
    return None if best is None else best[1:]


def _past_the_limit(forms: dict[str, list[_Form]], max_lines: int) -> tuple[Choice, Choice]:
    """Where no chart fits in ``max_lines``: the deal as short as the search found it (no shorter list covers
    every hand), and the draw's best within ``max_lines`` on its own. The shortest draw, no line at all,
    would fold every hand that reaches it: a chart that gives up more than the game is worth."""
    deal = min(((n, (f, n)) for f in forms["deal"] for n in f.sample_losses), key=lambda x: x[0])[1]
    fits = _best_within(forms["draw"], max_lines)
    return deal, min(fits, key=lambda f: (f[0], -f[1][1]))[1]


def curve(config: GameConfig, deal: list[_Form], draw: list[_Form], form: str) -> dict[str, Any]:
    """The least exact loss found at each of :data:`CURVE_SIZES` lines and in full, with the forms given, for
    the deal, the draw and the whole chart (the sum of the two decisions' exact losses, at the best split)."""
    points = []
    for size in (*CURVE_SIZES, None):
        limit = size if size is not None else 10 ** 9
        point: dict[str, Any] = {"lines": size if size is not None else "full"}
        for stage, forms in (("deal", deal), ("draw", draw)):
            fits = _best_within(forms, limit)
            point[stage] = min(f.exact_loss(config, n) for _, (f, n) in fits) if fits else None
        split = _split(deal, draw, limit)
        point["chart"] = None
        if split is not None:
            (a, n), (b, m) = split
            point["chart"] = a.exact_loss(config, n) + b.exact_loss(config, m)
            point["deal_lines"], point["draw_lines"] = n, m
            point["deal_form"], point["draw_form"] = a.form, b.form
        points.append(point)
    return {"form": form, "points": points,
            "shortest": {stage: min(n for f in forms for n in f.sample_losses) for stage, forms in
                         (("deal", deal), ("draw", draw))}}


def count_form(stage: str, config: GameConfig, lines: StageLines) -> _CountPath:
    """A stage's point counts fitted on the situations the lists are searched on."""
    records = Records.of(lines, *searched_situations(lines))  # the same sample as the lists' search
    fitter = Fitter(stage, records, lines.entries, lines.bet_sizes)
    floor = float(records.weights @ records.best_ev)
    per_hand = _per_hand(stage, config)
    path = count_path(fitter)
    return _CountPath(stage, lines, {n: c for n, (c, _) in path.items()},
                      {n: (floor - total) / per_hand for n, (_, total) in path.items()}, {})


def build_short_chart(config: GameConfig, tables: Path | str, max_lines: int, exceptions: int = 10,
                      exact: bool = False, n_jobs: int = -1, quiet: bool = True, words: str = SHORT_WORDS
                      ) -> Chart:
    """The best chart found within ``max_lines`` deal and draw lines together (the claims, ``fold`` and the
    ting by outs aside), each decision a ranked list or (in card-pattern words) a point count, whichever
    the split finds better; its curves of loss against length, one per form and one for the best of both
    (``Chart.curve``); and with ``exact`` its exact price from a solve that follows it. Where nothing is
    that short, the deal is as short as the search found it and the draw has ``max_lines`` of its own
    (:func:`_past_the_limit`; the sizes are in the curves' ``shortest``)."""
    directory = Path(tables)
    check_inputs(config, directory, n_jobs, quiet)
    counts = words == "patterns"
    # per decision its lists (and counts); then each decision's chart; then the full lists
    steps = Steps(f"chart of {max_lines} lines", 2 * (1 + counts) + 2 + 1, quiet)
    forms: dict[str, list[_Form]] = {}
    for stage in ("deal", "draw"):
        with steps.step(f"the {stage}'s lists: reading every situation, searching, shortening"):
            path = stage_path(stage, config, directory, words)
        forms[stage] = [path]
        if counts:
            with steps.step(f"the {stage}'s point counts: fitting"):
                forms[stage].append(count_form(stage, config, path.lines))
    split = _split(forms["deal"], forms["draw"], max_lines) or _past_the_limit(forms, max_lines)
    stages = []
    for form, size in split:
        with steps.step(f"the {form.stage}'s chart of {size} lines: priced over every situation"):
            stages.append(form.stage_chart(config, directory, size, exceptions, words))
    wording = "rank shapes" if words == "shapes" else "card-pattern words"
    curves = [curve(config, [forms["deal"][0]], [forms["draw"][0]], f"ranked lists in {wording}")]
    if counts:
        curves += [curve(config, [forms["deal"][1]], [forms["draw"][1]], "point counts"),
                   curve(config, forms["deal"], forms["draw"], "each decision's better form")]
    # the best ranked lists at any length (the lists' curve's "full" point): the longest, or a shortened one
    # that a search again made lose less
    full = _split([forms["deal"][0]], [forms["draw"][0]], 10 ** 9)
    assert full is not None, "with no limit every decision has a list"
    with steps.step("the full lists the chart was cut from"):
        reference = tuple(f.stage_chart(config, directory, n, 0, words) for f, n in full)
    steps.close()
    chart = Chart(stages[0], stages[1], ting_thresholds(config), ting_outs_table(config), curve=curves,
                  max_lines=max_lines, reference=reference)
    return price_exactly(chart, config, directory, n_jobs, quiet) if exact else chart
