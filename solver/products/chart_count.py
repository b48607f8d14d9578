"""Fitting a point count (:mod:`solver.products.point_count`) to a solve's exact EVs, and its cost against its length.

The count is fitted on the situations the lists are searched on (every deal
class; a weighted sample of the real deck's draws), from the same records
(:class:`solver.products.chart_lines.StageLines`: per situation and pattern,
the fewest dead cards touching and the EV of the holds a chart keeps):

1. **Start**: a least-squares fit of each hold's EV (at its best bet) to its
   features, within each situation (what matters is how one hand's holds
   compare), scaled so that the largest weight is each of :data:`SCALES` points, and rounded.
2. **Descent**: one weight at a time moves by a point or two while the
   chart's total on the searched situations rises; every trial takes the best
   thresholds for the holds the count picks, found exactly (``_thresholds``:
   a pass over the counts in order, the actions rising with the count).
3. **Shortening**: features are dropped one at a time, the cheapest first,
   each time followed by a descent, so that every length has a count.

Each count kept is then priced exactly over every situation (``exact_loss``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.products.chart import _records_of
from solver.products.chart_lines import StageLines
from solver.products.patterns import CLAIM, FOLD
from solver.products.point_count import FEATURES, TOUCHING_CAP, Count, entries_features
from solver.runtime.jit import kernel

SCALES = (15, 40, 60)
"""Points of the largest weight of the first fit, one path each (the descent ends at a local optimum that
depends on it: on the real deck's deal a 9-line count loses 0.019 from 25 and 0.0134 from 40-100); the
best count found at each length is kept. Descents and shortening move the weights from there, so a count's
largest weight can end anywhere up to about this."""

STEPS = (1, -1, 2, -2)
"""The moves of one weight tried by the descent."""


@dataclass(frozen=True)
class Records:
    """The hold records of some situations (sorted by situation, then pattern) and each situation's
    claim and fold values (NaN where it has none), weight and EV under optimal play."""

    situation: np.ndarray
    entry: np.ndarray
    touching: np.ndarray
    """The fewest dead cards touching, capped at :data:`TOUCHING_CAP`."""
    values: np.ndarray
    starts: np.ndarray
    claim: np.ndarray
    fold: np.ndarray
    weights: np.ndarray
    best_ev: np.ndarray

    @classmethod
    def of(cls, lines: StageLines, situations: np.ndarray, weights: np.ndarray) -> Records:
        """The records of ``situations`` (sorted, repeats allowed) of ``lines``, each weighing ``weights``."""
        place, record = _records_of(lines, situations)
        entry = lines.entry[record]
        claim_id, fold_id = lines.entries.index(CLAIM), lines.entries.index(FOLD)
        claim, fold = np.full(len(situations), np.nan), np.full(len(situations), np.nan)
        for target, pseudo in ((claim, claim_id), (fold, fold_id)):
            at = entry == pseudo
            target[place[at]] = lines.values[record[at], 0]
        hold = entry < min(claim_id, fold_id)
        place, record = place[hold], record[hold]
        return cls(place, lines.entry[record], np.minimum(lines.fewest[record], TOUCHING_CAP),
                   lines.values[record].astype(np.float64), np.searchsorted(place, np.arange(len(situations))),
                   claim, fold, weights, lines.best_ev[situations])


class Fitter:
    """Totals of counts on some situations' records, for one decision."""

    def __init__(self, stage: str, records: Records, entries: tuple[str, ...], bet_sizes: tuple[float, ...]) -> None:
        self.stage, self.r, self.bet_sizes = stage, records, bet_sizes
        self.features = entries_features(entries)
        self.jokers = self.features[:, FEATURES.index("joker")]
        self.claimed = ~np.isnan(records.claim)
        # each record's action values (the deal's bets; the draw's fold then its bets) times its situation's
        # weight, an action it lacks at -1e9: what a level's totals add up when the count picks the record
        actions = records.values if stage == "deal" else np.column_stack([records.fold[records.situation],
                                                                          records.values])
        self.weighted = records.weights[records.situation][:, None] * np.nan_to_num(actions, nan=-1e9)
        self.n_actions = actions.shape[1]

    def picks(self, points: np.ndarray, touching: int) -> tuple[np.ndarray, np.ndarray]:
        """Each situation's record under the count and its count: the first by ``tie_order`` (the most
        points, the fewest dead cards touching, the most jokers), then the first record (pattern order)."""
        r = self.r
        first, score, _, _ = _count_picks(r.entry, r.touching, r.starts, self.features @ points, self.jokers,
                                          touching, len(self.features), -1, -1)
        return first, score

    def fit_thresholds(self, points: np.ndarray, touching: int) -> tuple[tuple[int | None, ...], float]:
        """The thresholds that maximise the total for these points, and that total (claims included)."""
        first, count = self.picks(points, touching)
        free = ~self.claimed
        levels, level_of = _levels(count[free])
        chosen = self.weighted[first[free]]
        sums = np.stack([np.bincount(level_of, chosen[:, a], len(levels)) for a in range(self.n_actions)], axis=1)
        taken, best = _rising_actions(sums)
        thresholds = tuple(int(levels[np.argmax(taken >= a)]) if (taken >= a).any() else None
                           for a in range(1, self.n_actions))
        claims = float(self.r.weights[self.claimed] @ self.r.claim[self.claimed])
        return thresholds, best + claims

    def count(self, points: np.ndarray, touching: int) -> tuple[Count, float]:
        """The count of these points with its best thresholds, and its total."""
        thresholds, total = self.fit_thresholds(points, touching)
        return Count(self.stage, tuple(int(p) for p in points), int(touching), thresholds, self.bet_sizes), total

    def start(self, scale: int) -> np.ndarray:
        """The first points: least squares within situations, the largest ``scale`` points, rounded; the
        touching weight last."""
        r = self.r
        y = np.nanmax(r.values, axis=1)
        x = np.column_stack([self.features[r.entry], -r.touching]).astype(np.float64)
        w = r.weights[r.situation]
        mass = np.bincount(r.situation, w, len(r.starts))
        for column in [y, *x.T]:  # within-situation means out (weighted)
            column -= (np.bincount(r.situation, w * column, len(r.starts)) / mass)[r.situation]
        sw = np.sqrt(w)
        coef = np.linalg.lstsq(x * sw[:, None], y * sw, rcond=None)[0]
        return np.round(coef * scale / np.abs(coef).max()).astype(np.int64)

    def descend(self, params: np.ndarray, free: np.ndarray, total: float, sweeps: int = 8
                ) -> tuple[np.ndarray, float]:
        """Move one free weight at a time by :data:`STEPS` while the total rises."""
        for _ in range(sweeps):
            improved = False
            for j in np.flatnonzero(free):
                for step in STEPS:
                    trial = params.copy()
                    trial[j] += step
                    if j == len(FEATURES) and trial[j] < 0:
                        continue
                    t = self.count(trial[:-1], int(trial[-1]))[1]
                    if t > total + 1e-12 * max(1.0, abs(total)):
                        params, total, improved = trial, t, True
                        break
            if not improved:
                break
        return params, total


def count_path(fitter: Fitter) -> dict[int, tuple[Count, float]]:
    """The best count found at each length, with its total, over one path per start of :data:`SCALES`."""
    best: dict[int, tuple[Count, float]] = {}
    for scale in SCALES:
        for size, (count, total) in _path(fitter, scale).items():
            if size not in best or total > best[size][1]:
                best[size] = (count, total)
    return best


def _path(fitter: Fitter, scale: int) -> dict[int, tuple[Count, float]]:
    """The full fit from ``scale``, then one feature dropped at a time: the first count of each length."""
    params = fitter.start(scale)
    params[-1] = max(params[-1], 0)
    free = np.ones(len(params), bool)
    params, _ = fitter.descend(params, free, fitter.count(params[:-1], int(params[-1]))[1])
    path: dict[int, tuple[Count, float]] = {}
    while True:
        count, total = fitter.count(params[:-1], int(params[-1]))
        path.setdefault(count.lines, (count, total))
        live = np.flatnonzero(params != 0)
        if len(live) <= 1:
            return path
        trials = []
        for j in live:
            trial = params.copy()
            trial[j] = 0
            trials.append((fitter.count(trial[:-1], int(trial[-1]))[1], int(j)))
        total, j = max(trials)
        params[j] = 0
        params, _ = fitter.descend(params, params != 0, total, sweeps=2)


def _levels(count: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct counts, rising, and each count's place among them (``np.unique``'s answer, by a
    bincount over the counts' range where that is not much longer than the counts)."""
    if len(count) == 0 or int(count.max()) - int(count.min()) > 4 * len(count) + 1024:
        return np.unique(count, return_inverse=True)
    low = int(count.min())
    present = np.bincount(count - low) > 0
    return np.flatnonzero(present) + low, (np.cumsum(present) - 1)[count - low]


@kernel(nogil=True)
def _rising_actions(sums):
    """The action of each level (row of ``sums``: each action's total there) that maximise the sum of the
    levels' totals with the actions rising with the level, and that sum (ties: the smaller action at the
    highest level, then at the next, and so on)."""
    n_levels, n_actions = sums.shape
    best = np.zeros(n_actions)  # the best total so far with the last level taking each action
    came = np.zeros((n_levels, n_actions), np.int64)
    for k in range(n_levels):
        running, arg = best[0], 0
        for a in range(n_actions):
            if best[a] > running:
                running, arg = best[a], a
            came[k, a] = arg
            best[a] = running + sums[k, a]
    action = 0
    for a in range(n_actions):
        if best[a] > best[action]:
            action = a
    total = best[action]
    taken = np.empty(n_levels, np.int64)
    for k in range(n_levels - 1, -1, -1):
        taken[k] = action
        action = came[k, action]
    return taken, total


def exact_loss(lines: StageLines, count: Count, per_hand: int, chunk: int = 1 << 20) -> float:
    """The count's exact loss per hand dealt over every situation of ``lines`` (this decision by the count,
    every other one optimal)."""
    features = entries_features(lines.entries)
    claim_id, fold_id = lines.entries.index(CLAIM), lines.entries.index(FOLD)
    first, score, claim, fold = _count_picks(
        lines.entry, lines.fewest, lines.starts, features @ np.array(count.points, np.int64),
        features[:, FEATURES.index("joker")], count.touching, min(claim_id, fold_id), claim_id, fold_id)
    assert (first >= 0).all(), "every situation has a hold"
    held = lines.values[first].astype(np.float64)
    fold_value = np.where(fold >= 0, lines.values[fold, 0], np.nan)
    if count.stage == "draw":
        held = np.column_stack([fold_value, held])
    value = held[np.arange(len(first)), count.action(score)]
    claim_value = np.where(claim >= 0, lines.values[claim, 0], np.nan)
    value = np.where(np.isnan(claim_value), value, claim_value)
    loss = 0.0
    for start in range(0, len(first), chunk):  # chunk by chunk: its size fixes the rounding
        part = slice(start, start + chunk)
        loss += float(lines.weights[part].copy() @ (lines.best_ev[part] - value[part]))
    return loss / per_hand


@kernel(nogil=True)
def _count_picks(entry, touching, starts, entry_points, jokers, touching_points, holds_below, claim_id, fold_id):
    """For each situation (records ``starts[s]`` on): the hold record a count picks (entries below
    ``holds_below``; the most points, then the fewest dead cards touching capped at
    :data:`TOUCHING_CAP`, then the most jokers, then the first) and its count; and its claim's and
    fold's records (-1 where it has none)."""
    n = len(starts)
    first = np.full(n, -1, np.int64)
    score = np.zeros(n, np.int64)
    claim = np.full(n, -1, np.int64)
    fold = np.full(n, -1, np.int64)
    for s in range(n):
        end = starts[s + 1] if s + 1 < n else len(entry)
        best = np.iinfo(np.int64).min
        for r in range(starts[s], end):
            e = entry[r]
            if e == claim_id:
                claim[s] = r
            elif e == fold_id:
                fold[s] = r
            elif e < holds_below:
                cap = min(touching[r], TOUCHING_CAP)
                points = entry_points[e] - touching_points * cap
                rank = (points * (TOUCHING_CAP + 1) + TOUCHING_CAP - cap) * 8 + jokers[e]
                if rank > best:
                    best, first[s], score[s] = rank, r, points
    return first, score, claim, fold
