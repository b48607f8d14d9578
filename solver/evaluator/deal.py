"""The deal decision (docs/rules.md, steps 3-5): claim tian-hu, or double down (or not) and discard two.

Every two-card draw (jokers included: a joker drawn here stays in hand) is
enumerated as a multiset with its multiplicity. After a draw the player
can keep any four of the eight seen cards; each discard takes the best of
its own holds, valued against the unseen cards of that draw. Double down
changes only the di-hu payout and the lost DD bet, so both DD choices
share all the work.

Most holds recur across draws: one made of four dealt cards comes with
every draw, one with a single drawn card with every draw holding that
card. Such a hold is valued once for all its draws: the draws differ
only by the other cards they bring, which the hold kernel removes from
the unseen cards by inclusion-exclusion
(:func:`solver.evaluator.hold.fa_values_removing`), bit for bit as separate calls
would. Holds of two dealt and both drawn cards serve one draw each.
Holds with the same dealt cards (and the joker, if drawn) but drawn cards
of their own are valued one after another, sharing their completion
counts: a hold and a community meet the same two-card completions as any
other hold of the group that sees the same cards in all
(:class:`solver.evaluator.hold.SharedCounts`); with one drawn card, the
counts of each removed card R(t) too.
A bonus bet's expected net per community depends on the unseen cards of
the draw, not on the hold: each draw's is worked out once, first (every
draw's in one pass, :func:`solver.evaluator.hold.bonus_evs_removing`),
and each (hold, draw) pair reads its draw's.

Most holds of drawn cards are worth less than another hold of every
discard that keeps them, and most holds of dealt cards alone less than
folding, so they are never played. Every hold is bounded before it is
valued, in three rounds, each against every value known by then: the
holds of dealt cards (against folding's -1), then the groups of one drawn
card, then those of two. A hold is bounded from above by its value
without the hand-card rule; in a group that depends only on the multiset
of its drawn cards and the community, so its nets are kept per multiset
for the whole group (:func:`solver.evaluator.hold.fa_upper_bounds_sharing`,
about four tenths of a pass); with removal cases, from the counts before
any removal over the completions the largest removal leaves, which bound
every case's (:func:`solver.evaluator.hold.fa_upper_bounds_removing` for
a hold alone). With a bonus bet the nets kept are those of betting, and
each case takes a community's best of folding and betting with the
case's bonus EV. Only the (hold, draw) pairs whose bound reaches the best
known hold of some discard keeping the hold, or -1 (:func:`_limits`), are
valued. The options are bit for bit those of valuing every hold: a pair
left out is below, by more than the bound's rounding, a hold that is
valued or folding.

The work is split into chunks run in parallel with joblib; each value is
computed by the same call whatever the split, and draws are summed in
draw order, so the result is bit-for-bit the same for any number of jobs.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from math import comb
from pathlib import Path

import numpy as np

from solver.evaluator.hold import (
    BOUND_MARGIN,
    SharedCounts,
    bonus_evs,
    bonus_evs_removing,
    fa_upper_bounds_removing,
    fa_upper_bounds_sharing,
    fa_values_removing,
    fa_values_sharing,
)
from solver.game.cards import counts_of
from solver.game.combinatorics import multisets, remove_cards, submultisets
from solver.game.config import GameConfig
from solver.game.hu import claim_value
from solver.game.options import Option
from solver.game.state import unseen_suited
from solver.runtime.jit import interpreted
from solver.runtime.parallel import mark_parent, own_process_alive, watch_parent, work_processes


@dataclass(frozen=True)
class _Job:
    """Holds valued one after another in one process; hold k serves the draws ``draws[k]``.

    Without ``removals`` a hold serves one draw and is valued against ``unseen``; with them,
    hold k is valued for its draw j against ``unseen`` less ``removals[k][j]`` (the draw's
    other cards), all in one pass. With a ``base``, every hold is the base plus suited cards
    of its own, valued against ``unseen`` less those, and the holds share their completion
    counts (:class:`solver.evaluator.hold.SharedCounts`)."""

    holds: tuple[tuple[int, ...], ...]
    unseen: np.ndarray
    draws: tuple[tuple[int, ...], ...]
    removals: tuple[tuple[tuple[int, ...], ...], ...] | None = None
    base: tuple[int, ...] | None = None

    @property
    def pairs(self) -> list[tuple[tuple[int, ...], int]]:
        """The (hold, draw index) pairs the job values, in the order of its values."""
        return [(hold, n) for hold, ns in zip(self.holds, self.draws) for n in ns]

    @property
    def cost(self) -> int:
        """Work in kernel passes, about: a removal case costs a sixth of a pass; bounded, a half of that
        for holds of two drawn cards (a bound four tenths of a pass, and about one in seven valued), a
        third for one drawn card and a quarter for dealt cards (measured on the real deck), so progress and
        scheduling follow time rather than values."""
        passes = len(self.holds) if self.removals is None else sum(1 + len(c) // 6 for c in self.removals)
        share = 2 if self.removals is None else 3 if self.base is not None else 4
        return -(-passes // share)


def _jobs(hand: tuple[int, ...], draws: list[tuple[int, ...]], config: GameConfig,
          dead: tuple[int, ...] = ()) -> list[_Job]:
    """Every (hold, draw) pair to value, each exactly once, grouped into jobs (``dead``: cards other seats
    showed, out of play for the draws and the community)."""
    joker = config.geometry.joker
    # holds with at most one drawn card serve many draws, each removing the draw's other card(s):
    # by group (the dealt cards, and a drawn joker), then by hold, their (draw, removed cards) cases
    removing: dict[tuple[int, ...], dict[tuple[int, ...], list[tuple[int, tuple[int, ...]]]]] = {}
    # holds of two dealt and both drawn cards by their dealt cards (and joker): (hold, draw) pairs
    groups: dict[tuple[int, ...], list[tuple[tuple[int, ...], int]]] = {}
    for n, draw in enumerate(draws):
        for hold in submultisets(tuple(sorted(hand + draw)), 4):
            all_drawn = _drawn(hold, hand)
            drawn = tuple(c for c in all_drawn if c != joker)  # a drawn joker stays in the base
            if len(all_drawn) <= 1:
                other = tuple(c for c in remove_cards(draw, drawn) if c != joker)
                base = remove_cards(hold, drawn)
                removing.setdefault(base, {}).setdefault(hold, []).append((n, other))
            else:
                groups.setdefault(remove_cards(hold, drawn), []).append((hold, n))
    unseen = unseen_suited(hand + dead, config)
    jobs = []
    for base, by_hold in removing.items():
        cases = tuple(by_hold.values())
        # a hold of four dealt cards, or three and a drawn joker, has no card of its own to share by
        jobs.append(_Job(tuple(by_hold), unseen, tuple(tuple(n for n, _ in c) for c in cases),
                         tuple(tuple(r for _, r in c) for c in cases), base if len(base) < 4 else None))
    for base, members in groups.items():
        jobs.append(_Job(tuple(h for h, _ in members), unseen, tuple((n,) for _, n in members), base=base))
    return jobs


def _value_bounded(jobs: list[_Job], limits: list[list[np.ndarray]], config: GameConfig, bonus_bet: float = 0.0,
                   bonus_file: Path | None = None) -> list[list[np.ndarray | None]]:
    """Fa-hu values of each job's (hold, draw) pairs, job by job: ``None`` where the hold's upper bound
    (:func:`solver.evaluator.hold.fa_upper_bounds_sharing`, or ``fa_upper_bounds_removing`` for a hold
    alone) is below its limit for that draw by the bound's margin, so that it cannot be the best hold of
    any discard after the draw. With a bonus bet the bounds and values read each draw's bonus EVs from
    ``bonus_file`` (:func:`_draw_bonus`)."""
    watch_parent()
    geometry = config.geometry
    table = np.load(bonus_file, mmap_mode="c") if bonus_file is not None else None  # "c": writable, as numba types
    values = []
    for job, job_limits in zip(jobs, limits):
        bound_of, value_of = _bound_and_value(job, config, bonus_bet)
        counts = [counts_of(hold, geometry) for hold in job.holds]
        cases = [list(r) for r in job.removals] if job.removals is not None else [None] * len(counts)
        # every bound first: without removal cases they fill the group's counts, which the values then read
        bounds = [bound_of(c, r, None if table is None else _draw_rows(table, list(ns))).max(axis=1)
                  for c, r, ns in zip(counts, cases, job.draws)]
        job_values: list[np.ndarray | None] = []
        for c, r, ns, bound, limit in zip(counts, cases, job.draws, bounds, job_limits):
            reaches = bound + BOUND_MARGIN >= limit
            valued = np.flatnonzero(reaches)
            kept = None if r is None else [r[e] for e in valued]
            bonus_ev = None if table is None or not len(valued) else _draw_rows(table, [ns[e] for e in valued])
            rows = iter(value_of(c, kept, bonus_ev) if len(valued) else [])
            job_values += [next(rows) if v else None for v in reaches]
        values.append(job_values)
    return values


def _bound_and_value(job: _Job, config: GameConfig, bonus_bet: float
                     ) -> tuple[Callable[..., np.ndarray], Callable[..., np.ndarray]]:
    """The bound and the value of a job's hold (its counts, its removal cases or None, and with ``bonus_bet``
    the cases' bonus EVs), as (cases, bets): a hold of dealt cards alone, the others sharing their group's
    counts and nets."""
    if job.base is None:
        return (lambda c, r, b: fa_upper_bounds_removing(c, job.unseen, r, config, bonus_bet, b),
                lambda c, r, b: fa_values_removing(c, job.unseen, r, config, bonus_bet, b))
    shared = SharedCounts(counts_of(job.base, config.geometry), job.unseen, config.geometry, job.removals is not None)
    return (lambda c, r, b: np.atleast_2d(fa_upper_bounds_sharing(c, shared, config, r, bonus_bet, b)),
            lambda c, r, b: np.atleast_2d(fa_values_sharing(c, shared, config, r, bonus_bet, b)))


def _limits(hand: tuple[int, ...], draws: list[tuple[int, ...]], jobs: list[_Job],
            values_by_hold: list[dict[tuple[int, ...], np.ndarray]],
            discards: list[tuple[int, ...]]) -> list[list[np.ndarray]]:
    """For each bounded job's holds, after each of its draws, the value a hold must reach to be the best of
    some discard (one that keeps the hold's dealt cards): the least, over those discards, of the best of -1
    (the floor of :func:`_discard_values`) and the values of that discard's other holds known so far."""
    limit: list[dict[tuple[int, ...], float]] = [{} for _ in draws]
    for n, draw in enumerate(draws):
        known = values_by_hold[n]
        for discard in discards:
            holds = submultisets(tuple(sorted(remove_cards(hand, discard) + draw)), 4)
            best = max([-1.0] + [float(known[h].max()) for h in holds if h in known])
            for h in holds:
                if h not in known:
                    limit[n][h] = min(limit[n].get(h, np.inf), best)
    return [[np.array([limit[n][hold] for n in ns]) for hold, ns in zip(job.holds, job.draws)] for job in jobs]


def _draw_rows(table: np.ndarray, draws: list[int]) -> np.ndarray:
    """Rows ``draws`` (rising) of ``table``: a view when they follow one another, as a hold of dealt cards'
    do (every draw), else a copy."""
    if draws[-1] - draws[0] == len(draws) - 1:
        return np.asarray(table[draws[0]:draws[-1] + 1])
    return np.asarray(table[list(draws)])


@contextmanager
def _draw_bonus(hand: tuple[int, ...], draws: list[tuple[int, ...]], config: GameConfig, dead: tuple[int, ...],
                bonus_bet: float, n_jobs: int) -> Iterator[Path | None]:
    """With a bonus bet, each draw's bonus EVs (:func:`solver.evaluator.hold.bonus_evs` of its unseen cards),
    kept in a temporary file for the workers to map while the block runs; else None. A draw's bonus EVs
    serve every hold valued for it."""
    if bonus_bet <= 0:
        yield None
        return
    joker = config.geometry.joker
    # every draw at once, its cards removed from the hand's unseen cards, where that is exact
    rows = bonus_evs_removing(unseen_suited(hand + dead, config), [tuple(c for c in d if c != joker) for d in draws],
                              config)
    if rows is None:  # draw by draw, in parallel
        from joblib import Parallel, delayed

        parts = [part for part in np.array_split(np.arange(len(draws)), 4 * work_processes(n_jobs, len(draws)))
                 if len(part)]
        unseens = [unseen_suited(hand + draw + dead, config) for draw in draws]
        tasks = [delayed(_bonus_rows)([unseens[n] for n in part], config) for part in parts]
        results = Parallel(n_jobs=work_processes(n_jobs, len(tasks)))(tasks)
        rows = np.concatenate(results)
    _remove_stale_bonus_folders()
    with tempfile.TemporaryDirectory(prefix=f"{_BONUS_FOLDER}{os.getpid()}-") as folder:
        path = Path(folder) / "bonus-evs.npy"
        np.save(path, rows)
        yield path


#: The prefix of the temporary folders of :func:`_draw_bonus`, followed by the owning process's id.
_BONUS_FOLDER = "mahjong-poker-bonus-"


def _remove_stale_bonus_folders() -> None:
    """Remove the bonus EVs' folders (:func:`_draw_bonus`) that a killed query left behind: those whose owning
    process is gone (a query ended by SIGTERM or SIGKILL never leaves its block; about 90 MB each)."""
    for folder in Path(tempfile.gettempdir()).glob(f"{_BONUS_FOLDER}*-*"):
        owner = folder.name[len(_BONUS_FOLDER):].split("-", 1)[0]
        if owner.isdigit() and not own_process_alive(int(owner)):
            shutil.rmtree(folder, ignore_errors=True)


def _bonus_rows(unseens: list[np.ndarray], config: GameConfig) -> np.ndarray:
    """:func:`solver.evaluator.hold.bonus_evs` of each of these unseen cards, a row each."""
    watch_parent()
    return np.stack([bonus_evs(unseen, config) for unseen in unseens])


def _phases(jobs: list[_Job]) -> list[list[_Job]]:
    """The jobs in the rounds they run in, each round against every value known by then: the holds of dealt
    cards (bounded against folding), the groups of one drawn card, and those of two."""
    return [[job for job in jobs if job.base is None],
            [job for job in jobs if job.base is not None and job.removals is not None],
            [job for job in jobs if job.base is not None and job.removals is None]]


def _chunks(jobs: list[_Job], n_processes: int) -> list[list[_Job]]:
    """The jobs in chunks of about an eighth of a process's share, the largest jobs first, so no worker
    is left with a big one at the end."""
    chunk_cost = sum(job.cost for job in jobs) / (8 * n_processes)
    chunks: list[list[_Job]] = [[]]
    cost = 0
    for job in sorted(jobs, key=lambda job: -job.cost):
        if chunks[-1] and cost + job.cost > chunk_cost:
            chunks.append([])
            cost = 0
        chunks[-1].append(job)
        cost += job.cost
    return chunks if chunks[0] else []


def _offsets(chunks: list[list[_Job]]) -> list[tuple[int, list[_Job]]]:
    """Each chunk with the index of its first job among all the chunks' jobs."""
    starts = np.cumsum([0] + [len(part) for part in chunks])
    return [(int(k), part) for k, part in zip(starts, chunks)]


def _drawn(hold: tuple[int, ...], hand: tuple[int, ...]) -> list[int]:
    """Cards of ``hold`` that the dealt ``hand`` cannot supply (multiset difference)."""
    left = list(hand)
    drawn = []
    for card in hold:
        if card in left:
            left.remove(card)
        else:
            drawn.append(card)
    return drawn


def _discard_values(hand: tuple[int, ...], draw: tuple[int, ...], best_by_hold: dict[tuple[int, ...], float],
                    discards: list[tuple[int, ...]], config: GameConfig) -> np.ndarray:
    """Value of each (DD, discard) after one draw, from the best value of each hold: (2, discards). A hold
    left out was bounded below another of every discard keeping it, or below -1 (:func:`_limits`)."""
    dd_sizes = (0.0, config.double_down)
    out = np.empty((len(dd_sizes), len(discards)))
    for d, discard in enumerate(discards):
        kept = tuple(sorted(remove_cards(hand, discard) + draw))
        play_on = max([-1.0] + [best_by_hold[h] for h in submultisets(kept, 4) if h in best_by_hold])
        di_hu = claim_value(kept, config, 1.0, config.di_hu_flush, config.di_hu)
        for k, dd in enumerate(dd_sizes):
            value = -dd + play_on
            if di_hu is not None and (1.0 + dd) * di_hu > value:
                value = (1.0 + dd) * di_hu
            out[k, d] = value
    return out


@dataclass(frozen=True)
class DealEvaluation:
    """The deal decision's options, and the fa-hu values they were made of."""

    options: list[Option]
    """Every option, in canonical order (see :func:`deal_options`)."""
    draws: list[tuple[int, ...]]
    """Every two-card draw (as a multiset), in the order of :func:`solver.game.combinatorics.multisets`."""
    draw_weights: np.ndarray
    """How many physical draws each of ``draws`` stands for."""
    hold_values: list[dict[tuple[int, ...], np.ndarray]]
    """For each draw, every four-card hold of the eight cards seen, with its value for each fa-hu
    bet (:func:`solver.evaluator.hold.fa_values` against the unseen cards of that draw); but for holds
    bounded below every discard's best or folding (:func:`_limits`), which are left out."""


def deal_options(hand: tuple[int, ...], config: GameConfig,
                 progress: Callable[[int, int], None] | None = None, n_jobs: int = 1,
                 bonus_bet: float = 0.0, dead: tuple[int, ...] = ()) -> list[Option]:
    """Every option on the first six cards, in canonical order.

    Order: claim (if a tian-hu is possible), then each discard without
    double-down, then each discard with it (discards in lexicographic order
    of the cards thrown). ``progress(done, total)`` is called as the work
    (counted in hold-kernel passes) gets done; ``n_jobs`` processes share
    it. With a bonus bet B > 0 the EVs include it (it pushes unless the
    player reaches a ting bet). ``dead``: cards other seats at the table
    showed (a tian-hu claim), gone from the draws and the community.
    """
    return evaluate_deal(hand, config, progress, n_jobs, bonus_bet, dead).options


def evaluate_deal(hand: tuple[int, ...], config: GameConfig,
                  progress: Callable[[int, int], None] | None = None, n_jobs: int = 1,
                  bonus_bet: float = 0.0, dead: tuple[int, ...] = ()) -> DealEvaluation:
    """:func:`deal_options`, with the value of every hold after every draw that can be a discard's best."""
    geometry = config.geometry
    options: list[Option] = []
    # The claims need a few thousand hu tests in this process: as plain Python they take less time
    # than loading numba here (which the workers do anyway), and that time would come before theirs.
    with interpreted():
        claim = claim_value(hand, config, 1.0, config.tian_hu_flush, config.tian_hu)
    if claim is not None:
        options.append(Option("claim", (), 0.0, claim, 1.0))
    unseen = geometry.full_counts() - counts_of(hand + dead, geometry)
    rows, weights = multisets(unseen, 2)
    draws = [tuple(int(t) for t in np.repeat(np.arange(geometry.n_types), row)) for row in rows]
    from joblib import Parallel, delayed, effective_n_jobs  # slow to import: only this stage needs it

    jobs = _jobs(hand, draws, config, dead)
    total_work = sum(job.cost for job in jobs)  # the draws' bonus EVs, one pass, are not counted
    n_processes = effective_n_jobs(n_jobs)
    discards = submultisets(hand, 2)
    values_by_hold: list[dict[tuple[int, ...], np.ndarray]] = [{} for _ in draws]
    mark_parent()
    with _draw_bonus(hand, draws, config, dead, bonus_bet, n_jobs) as bonus_file:
        done = 0
        for phase in _phases(jobs):
            chunks = _chunks(phase, n_processes)
            limits = _limits(hand, draws, [job for part in chunks for job in part], values_by_hold, discards)
            tasks = [delayed(_value_bounded)(part, limits[k:k + len(part)], config, bonus_bet, bonus_file)
                     for k, part in _offsets(chunks)]
            results = Parallel(n_jobs=work_processes(n_jobs, len(chunks)), return_as="generator")(tasks)
            for part, part_values in zip(chunks, results):
                for job, values in zip(part, part_values):
                    for (hold, n), value in zip(job.pairs, values):
                        if value is not None:
                            values_by_hold[n][hold] = value
                    done += job.cost
                if progress is not None:
                    progress(done, total_work)
    totals = np.zeros((2, len(discards)))
    with interpreted():
        for n, draw in enumerate(draws):  # fixed order: identical sums for any n_jobs
            best_by_hold = {hold: float(value.max()) for hold, value in values_by_hold[n].items()}
            totals += weights[n] * _discard_values(hand, draw, best_by_hold, discards, config)
    n_draws = comb(int(unseen.sum()), 2)
    assert int(weights.sum()) == n_draws
    for k, dd in enumerate((0.0, config.double_down)):
        for d, discard in enumerate(discards):
            options.append(Option("discard", discard, dd, float(totals[k, d] / n_draws), 1.0 + dd))
    return DealEvaluation(options, draws, weights, values_by_hold)
