"""A short chart: the best ranked lists found within a number of lines, and the loss against the length.

From the searched lists (:func:`solver.products.chart.search_sample`) lines are
dropped one at a time, each time the one whose hands lose least by falling back
on their next line (``_shorten``), until no line can go without leaving a hand
with none (the claims and ``fold`` are never dropped and do not count as lines;
at the draw ``fold`` catches every hand, at the deal the last lines standing are
the catch-all). Every list size on the way is kept, so the deal's and the draw's
sizes are split to minimise the two losses' sum (``_split``), and the curve of the
loss against the number of lines comes from the same path. Each list kept is
priced exactly over every situation (``stage_chart_of``), as the long lists are.
"""

from __future__ import annotations

from dataclasses import dataclass
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
    check_inputs,
    price_exactly,
    search_sample,
    stage_chart_of,
    ting_outs_table,
    ting_thresholds,
)
from solver.products.chart_lines import StageLines, stage_lines
from solver.products.patterns import DEFAULT_WORDS, PSEUDO

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

    def exact_loss(self, config: GameConfig, size: int) -> float:
        """The exact loss per hand dealt of the list of ``size`` lines, over every situation (kept once found)."""
        if size not in self.priced:
            s = self.snapshots[size]
            _, chart_values = _apply(self.lines, self.keys, s.order, s.bets, s.active)
            self.priced[size] = float(self.lines.weights @ (self.lines.best_ev - chart_values)) / _per_hand(
                self.stage, config)
        return self.priced[size]


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
        had, two.holders[e] = two.holders[e], two.holders[e][:0]
        two.present[had, e] = False
        two.update(had)


def stage_path(stage: str, config: GameConfig, tables: Path, words: str) -> _Path:
    """A stage's lists searched as for the long chart, then shortened line by line (``_shorten``)."""
    lines = stage_lines(stage, config, tables, words)
    keys, order, bets, active, (values, weights, best_ev) = search_sample(stage, config, lines)
    pseudo = np.array([k[0] in PSEUDO for k in keys.keys])
    snapshots = _shorten(values, weights, best_ev, order, bets, active, pseudo, _per_hand(stage, config))
    return _Path(stage, lines, keys, snapshots, {})


def _split(deal: _Path, draw: _Path, max_lines: int) -> tuple[int, int] | None:
    """The deal's and the draw's sizes within ``max_lines`` together with the least sum of sample losses
    (``None`` where even the shortest lists are longer)."""
    best: tuple[float, int, int] | None = None
    for a, d in deal.snapshots.items():
        fits = [b for b in draw.snapshots if a + b <= max_lines]
        if fits:
            b = max(fits, key=lambda b: (-draw.snapshots[b].sample_loss, -b))
            total = d.sample_loss + draw.snapshots[b].sample_loss
            if best is None or total < best[0]:
                best = (total, a, b)
    return None if best is None else best[1:]


def curve(config: GameConfig, deal: _Path, draw: _Path, form: str) -> dict[str, Any]:
    """The least exact loss found at each of :data:`CURVE_SIZES` lines and the full lists, for the deal list,
    the draw list and the whole chart (the sum of the two lists' exact losses, at the best split)."""
    points = []
    for size in (*CURVE_SIZES, None):
        point: dict[str, Any] = {"lines": size if size is not None else "full"}
        for path in (deal, draw):
            fits = [n for n in path.snapshots if size is None or n <= size]
            point[path.stage] = path.exact_loss(config, max(fits)) if fits else None
        split = _split(deal, draw, size if size is not None else 10 ** 9)
        if split is not None:
            point["chart"] = deal.exact_loss(config, split[0]) + draw.exact_loss(config, split[1])
            point["deal_lines"], point["draw_lines"] = split
        else:
            point["chart"] = None
        points.append(point)
    return {"form": form, "points": points,
            "shortest": {"deal": min(deal.snapshots), "draw": min(draw.snapshots)}}


def build_short_chart(config: GameConfig, tables: Path | str, max_lines: int, exceptions: int = 10,
                      exact: bool = False, n_jobs: int = -1, quiet: bool = True, words: str = DEFAULT_WORDS
                      ) -> Chart:
    """The best chart found within ``max_lines`` deal and draw lines together (the claims, ``fold`` and the
    ting by outs aside), its curve of loss against length (``Chart.curve``), and with ``exact`` its exact
    price from a solve that follows it. Where no lists are that short, the shortest found are taken
    (their sizes are in the curve's ``shortest``)."""
    directory = Path(tables)
    check_inputs(config, directory)
    deal = stage_path("deal", config, directory, words)
    draw = stage_path("draw", config, directory, words)
    split = _split(deal, draw, max_lines) or (min(deal.snapshots), min(draw.snapshots))
    stages: list[StageChart] = []
    for path, size in zip((deal, draw), split):
        s = path.snapshots[size]
        stages.append(stage_chart_of(path.stage, config, directory, path.lines, path.keys, s.order, s.bets,
                                     s.active, exceptions, words))
    form = f"ranked lists in {'rank shapes' if words == 'shapes' else 'card-pattern words'}"
    chart = Chart(stages[0], stages[1], ting_thresholds(config), ting_outs_table(config),
                  curve=[curve(config, deal, draw, form)], max_lines=max_lines)
    return price_exactly(chart, config, directory, n_jobs, quiet) if exact else chart
