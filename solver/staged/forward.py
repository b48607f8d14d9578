"""The forward count: how often a strategy reaches each state and how each hand ends, exactly.

The backward stages give every decision; this follows them from the deal.
Each deal class's chosen discard is met by every two-card draw, which
lands in a post-draw state (stage B's canonical key) with a number of
card combinations: summed over deals, a state's *reach*. Each reached
state then claims, folds, or bets F with a hold, which lands in stage A's
(hold, dead) class; the walk of :mod:`solver.staged.holds` in tracking mode
counts, for that class, how its communities end. The outcome counts are
products of these integers, kept per *slot* (jokers among the eight cards
seen before the community; :mod:`solver.game.outcomes`), in Python integers:
they outgrow 64 bits.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import comb, fsum

import numpy as np

from solver.game.config import GameConfig
from solver.game.objective import Objective
from solver.game.options import TIE_TOLERANCE, Option
from solver.game.outcomes import Outcome, slot_scale
from solver.game.symmetry_kernels import pattern_powers
from solver.staged.stages import _draw_keys, _hold_keys, draw_keys_work
from solver.tables.files import rows_in_threads

#: Actions of a post-draw state, as the draw table stores them.
CLAIM, FOLD, BET = 0, 1, 2


@dataclass(frozen=True)
class DealChoice:
    """A deal class as the strategy plays it: its options, the ones played (a chart may mix several),
    and its weight."""

    hand: tuple[int, ...]
    weight: int
    options: list[Option]
    chosen: list[int]
    level: int
    """The hand's hu level (a tian-hu to claim)."""


@dataclass(frozen=True)
class DrawStage:
    """Stage B's arrays: sorted keys, the hand's hu level, the best betting value and the first best bet
    option (bet index times holds plus hold index), and the number of distinct holds."""

    keys: np.ndarray
    level: np.ndarray
    play_on: np.ndarray
    best: np.ndarray
    holds: np.ndarray


def exact_dot(a: np.ndarray, b: np.ndarray) -> int:
    """``sum(a * b)`` of non-negative integer arrays, exactly (the sum outgrows 64 bits). Each int64
    array is split into as many 21-bit limbs as its largest entry needs (three at most); products of
    limbs are below 2^42 and summed in blocks of 2^19, below 2^61. Python integers are summed as such."""
    if a.dtype == object or b.dtype == object:
        return sum(int(x) * int(y) for x, y in zip(a, b))
    a = np.asarray(a, np.int64)
    b = np.asarray(b, np.int64)
    if not len(a):
        return 0
    assert (a >= 0).all() and (b >= 0).all()
    limbs_a, limbs_b = _limbs(a), _limbs(b)
    total = 0
    for start in range(0, len(a), 1 << 19):
        block = slice(start, start + (1 << 19))
        for i, x in enumerate(limbs_a):
            for j, y in enumerate(limbs_b):
                total += int(np.dot(x[block], y[block])) << (21 * (i + j))
    return total


def _limbs(values: np.ndarray) -> list[np.ndarray]:
    """Non-negative int64 values as 21-bit limbs, least significant first, as many as the largest needs."""
    count = max(1, -(-int(values.max()).bit_length() // 21))
    return [(values >> (21 * i)) & ((1 << 21) - 1) for i in range(count)]


def draw_reach(deals: Sequence[DealChoice], config: GameConfig, objective: Objective
               ) -> tuple[np.ndarray, np.ndarray, Counter]:
    """Sum, over the deal classes' chosen discards and every draw, the combinations reaching each
    post-draw state: (sorted keys times 2 plus 1 when doubled down, their reach, tian-hu claim counts)."""
    geometry = config.geometry
    full = geometry.full_counts()
    unit = objective.mix_unit
    n_draws = comb(geometry.size - 6, 2)
    k4, k2 = slot_scale(geometry, 0)
    claims: Counter = Counter()
    parts_keys, parts_reach = [], []
    keys = np.empty(comb(geometry.n_types + 1, 2), np.int64)
    paths = np.empty_like(keys)
    work = draw_keys_work(geometry.n_types)
    for deal in deals:
        share = deal.weight * (unit // len(deal.chosen))
        for index in deal.chosen:
            option = deal.options[index]
            if option.action == "claim":
                kind = "tian_hu_flush" if deal.level == 2 else "tian_hu"
                claims[(0, Outcome(kind))] += share * n_draws * k4 * k2 * unit
                continue
            kept = np.array(_minus(deal.hand, option.discard), np.int64)
            n = _draw_keys(kept, np.array(option.discard, np.int64), full, geometry.suits, geometry.ranks,
                           pattern_powers(geometry), keys, paths, work)
            parts_keys.append(keys[:n] * 2 + (option.bet > 0))
            parts_reach.append(paths[:n] * share)
    if not parts_keys:
        return np.empty(0, np.int64), np.empty(0, np.int64), claims
    all_keys = np.concatenate(parts_keys)
    all_reach = np.concatenate(parts_reach)
    order = np.argsort(all_keys)  # integer sums: the order within a key changes nothing
    all_keys, all_reach = all_keys[order], all_reach[order]
    starts = np.flatnonzero(np.r_[True, all_keys[1:] != all_keys[:-1]])
    return all_keys[starts], np.add.reduceat(all_reach, starts), claims


def _minus(cards: tuple[int, ...], removed: tuple[int, ...]) -> tuple[int, ...]:
    left = list(cards)
    for card in removed:
        left.remove(card)
    return tuple(left)


def decode_rows(keys: np.ndarray, base: int, sizes: tuple[int, ...]) -> list[np.ndarray]:
    """The card groups (rows of type indices) that canonical keys of groups of ``sizes`` encode."""
    digits = np.empty((len(keys), sum(sizes)), np.int64)
    rest = keys.copy()
    for c in range(sum(sizes) - 1, -1, -1):
        digits[:, c] = rest % base
        rest //= base
    out, start = [], 0
    for size in sizes:
        out.append(digits[:, start:start + size])
        start += size
    return out


def sum_exact(values: np.ndarray) -> int:
    """The sum of non-negative integer counts as a Python integer, exactly (int64 counts of any size, as
    a chart's mixed counts can be; Python integers summed as such)."""
    if values.dtype == object:
        return sum(int(v) for v in values)
    return exact_dot(values, np.ones(len(values), np.int64))


def _groups(rows: np.ndarray):
    """The distinct rows of a 2-D array, each with the mask of the rows equal to it."""
    if not len(rows):
        return []
    unique, inverse = np.unique(rows, axis=0, return_inverse=True)
    return [(tuple(u), inverse.ravel() == k) for k, u in enumerate(unique)]


def di_hu_claims(level: np.ndarray, double_down: np.ndarray, config: GameConfig) -> np.ndarray:
    """What claiming a di-hu of each hu ``level`` (1 plain, 2 flush) wins, the DD placed included."""
    return np.where(level == 2, config.di_hu_flush, config.di_hu) * (1.0 + double_down)


def draw_decisions(draws: DrawStage, keys: np.ndarray, double_down: np.ndarray, config: GameConfig
                   ) -> tuple[np.ndarray, np.ndarray]:
    """The option each reached post-draw state plays under optimal play (claim, fold or the first best
    bet, ties to less money at risk: docs/rules.md, "Information and optimal play"), as an index into its
    canonical option list, and the states' rows in stage B; ``draws`` must hold every key."""
    rows = np.searchsorted(draws.keys, keys)
    assert (draws.keys[rows] == keys).all(), "every reached post-draw state is in stage B"
    level = draws.level[rows]
    claim = np.where(level > 0, di_hu_claims(level, double_down, config), -np.inf)
    fold = -1.0 - double_down
    bet = draws.play_on[rows] - double_down
    top = np.maximum(np.maximum(claim, fold), bet)
    n_claims = (level > 0).astype(np.int64)
    index = np.where(claim >= top - TIE_TOLERANCE, 0,
                     np.where(fold >= top - TIE_TOLERANCE, n_claims, 1 + n_claims + draws.best[rows]))
    return index, rows


@dataclass(frozen=True)
class Plays:
    """What the reached post-draw states play: per play, the state (row in the reached arrays), the
    option played (index in its canonical option list) and its share of the state's reach."""

    state: np.ndarray
    option: np.ndarray
    share: np.ndarray


@dataclass(frozen=True)
class HoldReach:
    """The (hold, dead) classes reached by betting, with the bet (its index, and whether only the smallest
    ting multiple is allowed), the DD placed, the reach and the slot (jokers among the eight cards)."""

    keys: np.ndarray
    bet: np.ndarray
    minimum: np.ndarray
    double_down: np.ndarray
    reach: np.ndarray
    slot: np.ndarray


def hold_reach(plays: Plays, hands: np.ndarray, deads: np.ndarray, level: np.ndarray, n_holds: np.ndarray,
               double_down: np.ndarray, config: GameConfig, objective: Objective) -> tuple[HoldReach, Counter]:
    """The bets the plays place (as stage A classes), and the counts of the plays that end before the
    community (di-hu claims and folds); ``hands``, ``deads``, ``level``, ``n_holds`` and ``double_down``
    describe the reached states."""
    geometry = config.geometry
    state, option, share = plays.state, plays.option, plays.share
    n_claims = (level[state] > 0).astype(np.int64)
    claim = (n_claims == 1) & (option == 0)
    fold = option == n_claims
    slots = (hands == geometry.joker).sum(axis=1) + (deads == geometry.joker).sum(axis=1)
    counts: Counter = Counter()
    flush = level[state] == 2
    for mask, kind in ((claim & ~flush, "di_hu"), (claim & flush, "di_hu_flush"), (fold, "fold_fa")):
        groups = np.stack([slots[state[mask]], double_down[state[mask]]], axis=1)
        for (slot, dd), in_group in _groups(groups):
            k4, k2 = slot_scale(geometry, int(slot))
            counts[(int(slot), Outcome(kind, float(dd)))] += sum_exact(share[mask][in_group]) * k4 * k2
    bets = ~(claim | fold)
    s, bet_option = state[bets], option[bets] - 1 - n_claims[bets]
    restricted = objective.restriction == "minimum-bets"
    hold_keys = np.empty(len(s), np.int64)
    if len(s):
        rows_in_threads(_hold_keys, (hands[s], deads[s], bet_option % n_holds[s]),
                        (geometry.suits, geometry.ranks, pattern_powers(geometry)), hold_keys)
    return HoldReach(hold_keys, bet_option // n_holds[s], np.full(len(s), restricted), double_down[s],
                     share[bets], slots[s]), counts


def outcome_counts(reach: HoldReach, tracked: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray],
                   config: GameConfig) -> tuple[Counter, Counter]:
    """The outcome counts (per slot) and summed bonus net of the bets ``reach`` places, from the tracking
    walk's columns (``tracked(keys, bets, minimum)``: one row of :data:`solver.staged.holds.TRACK_COLUMNS`
    per distinct (key, bet, minimum))."""
    counts: Counter = Counter()
    bonus_net: Counter = Counter()
    if not len(reach.keys):
        return counts, bonus_net
    n_bets = len(config.fa_hu_bets)
    # one sortable number per (key, bet, minimum): np.unique of rows is many times slower
    triple = (reach.keys * n_bets + reach.bet) * 2 + reach.minimum
    unique, inverse = np.unique(triple, return_inverse=True)
    sums = tracked(unique // 2 // n_bets, unique // 2 % n_bets, (unique % 2).astype(bool))
    assert (sums[:, :9] == np.round(sums[:, :9])).all() and (sums[:, :9] >= 0).all()
    multiples = config.ting_hu_multiples
    dds, dd_index = np.unique(reach.double_down, return_inverse=True)
    group = ((reach.slot * n_bets + reach.bet) * 2 + reach.minimum) * len(dds) + dd_index.ravel()
    # the rows of each group together, once (the sums within a group are exact: no order changes them)
    order = np.argsort(group)
    group, row_of, reach_of = group[order], inverse.ravel()[order], reach.reach[order]
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    for start, end in zip(starts, np.r_[starts[1:], len(group)]):
        index, dd_at = divmod(int(group[start]), len(dds))
        slot, bet, minimum, dd = index // 2 // n_bets, index // 2 % n_bets, index % 2, dds[dd_at]
        fa = config.fa_hu_bets[bet]
        small, large = multiples[0] * fa, (multiples[0] if minimum else multiples[-1]) * fa
        columns = sums[row_of[start:end]]
        c = columns.astype(np.int64)
        r = reach_of[start:end]
        named = [  # a list, not a dict: with one ting multiple the small and large G are one
            (Outcome("fa_hu", dd, fa), c[:, 0]), (Outcome("fa_hu_flush", dd, fa), c[:, 1]),
            (Outcome("fold_ting", dd, fa), c[:, 2]),
            (Outcome("ting_hu", dd, fa, small), c[:, 4]), (Outcome("ting_hu_flush", dd, fa, small), c[:, 5]),
            (Outcome("ting_lose", dd, fa, small), c[:, 3] - c[:, 4] - c[:, 5]),
            (Outcome("ting_hu", dd, fa, large), c[:, 7]), (Outcome("ting_hu_flush", dd, fa, large), c[:, 8]),
            (Outcome("ting_lose", dd, fa, large), c[:, 6] - c[:, 7] - c[:, 8]),
        ]
        for outcome, column in named:
            n = exact_dot(r, column)
            if n:
                counts[(int(slot), outcome)] += n
        # fsum, not np.dot: BLAS sums in an order that depends on its threads (one in a worker process,
        # every core in a command), and a variant solved in a worker must give a plain solve's figure (fsum's
        # is the exact sum rounded once, whatever the order of its terms)
        bonus_net[int(slot)] += fsum((r.astype(np.float64) * columns[:, 9]).tolist())
    return counts, bonus_net
