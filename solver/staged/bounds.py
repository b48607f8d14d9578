"""Stage A of a variant near solved ones: only the rows that can be some state's best.

A stage-A value (a hold against its dead cards, at a fa-hu bet F) is
``V_F = (step-11 terms + G_F) / N`` with ``G_F = sum_c w_c max(0, gain_c)``
over the communities c, ``N = C(left, 4) C(left - 4, 2)`` and, by the closed
form of :mod:`solver.staged.holds`,
``gain_c = c_F u_c + F y(z_c)``, ``u = W + Wf``, ``z = W p1 + Wf pf1 - C(left - 4, 2)``,
``c_F = ting_ante + F ting_fa + 1 + F``, ``y(z) = z m_max`` above 0 and
``z m_min`` below. Each ting win payout (:data:`MONOTONE_PAYOUTS`) moves
``gain_c`` by at most its change times the community's win counts, and the
largest ting multiple by exactly its change times ``F z`` where ``z > 0`` (only
those communities bet it, and they bet at every multiple): summed, ``F dm Z+``,
which a solve with two multiples gives (its ting gains less those with the
smallest multiple alone are ``F0 (m_max - m_min) Z+``); a solve with one multiple
bounds it, ``z+ <= (W p1 + Wf pf1) (1 - 1 / max(p1, pf1))`` (``W + Wf`` of the
``C(left - 4, 2)`` completions win). So a finished solve of other ting payouts or
a larger or smaller largest multiple bounds the variant's values row by row
(:class:`_Slopes`):

* rising payouts add at most ``dc_F (S_W + S_Wf) + F m_min (dp1 S_W + dpf1 S_Wf)``
  to ``G_F``, with ``S_W = sum_c w_c W_c`` and ``S_Wf`` the solve's ting wins
  (:data:`solver.staged.holds.WINS_COLUMNS`, over its live communities), plus
  the same of the communities the variant's payouts make live and the solve's
  did not, at their counts with no dead card (each hold's, from the column
  store): no dead set can raise a count. Only a community whose ``z`` can pass
  0 at the larger payouts (``W p1 + Wf pf1`` at no dead card above the fewest
  completions left) bets the largest multiple, so those alone add
  ``F (m_max - m_min) (dp1 X_W + dpf1 X_Wf)`` more (and ``F dm (p1 X_W + pf1 X_Wf)
  (1 - 1 / max(p1, pf1))`` for the multiple of a solve with one; the multiples,
  ``p1`` and ``pf1`` the larger of the two), ``X`` their wins at no dead card, at
  most the row's ``S``: this share is small, most ting bets losing on average;
* falling payouts take at most as much off (no community can gain from them);
* ``V`` never falls as a payout or the largest multiple rises, so a solve below
  bounds from below and one above from above;
* the solve's own ting decisions, played at the variant's payouts, are a strategy
  the variant may play: their value (its *tangent*) bounds the variant's from below,
  whichever way each payout moves. It reads the decisions' outcome counts, which
  the tracking walk gives; a pass of its own counts them, once per solve, for each
  post-draw state's best row at its best bet (:func:`best_rows`), the rows that
  decide each state's floor (:func:`strategy_values`).

The step-11 terms are the row's step-11 hu and flush counts times what those pay,
so a solve of other step-11 payouts (:data:`solver.game.config.STEP11_PAYOUTS`)
bounds too, its values first moved by those counts times each change; the deal
payouts move no row.

A solve that left out the rows below folding (as ``mahjong-poker solve`` does) keeps,
for each of those, its node's value, ting wins and ting gains, each at least the row's
own: they bound a variant of the ting win payouts from above as a row's own do, and
nothing from below (:func:`above_fold_bounds`).

With two solves, one on each side (:func:`brackets`), each side's bound is the
tighter of the two. A solve of other fa-hu bets, the same payouts, bounds a
variant's values at its other bets (:class:`_BetSizes`): ``gain_c`` is
``a_c + F b_c`` with ``a_c >= 0``, so ``G_F`` is convex in F and ``G_F / F``
never rises; at the bets both have, its values are the variant's exactly, and a
row whose other bets fall short of its best shared one is read from it, not
walked (:func:`exact_values`); a solve of other bets and other ting payouts
(:func:`sizes_near`) bounds the values of the variant's payouts at its own bets
first, and those the variant's at the others. Stage B keeps each post-draw state's best hold, so a row
whose upper bound falls short of the state's best lower bound (or of folding)
in every state that holds it can be no state's best, and its value is never
read by stages B-D or the forward count, which read only the best. The variant
walks only the other rows (:func:`needed_keys`): its figures are those of a
whole solve, bit for bit, and its ``holds.parquet`` keeps only the rows walked
(marked ``bounded_by``), so it serves no other solve as its stage A, and a
query of another row is answered by the evaluator. Its walked rows still bound
a later variant near it, on those rows (:func:`find_refiners`): every state's
best is among them, so the steps of a search for a house edge, each near the
last, walk fewer rows.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from solver.game.cards import DeckGeometry
from solver.game.config import DEAL_PAYOUTS, STEP11_PAYOUTS, GameConfig, config_from_dict
from solver.game.payouts import TingConstants
from solver.runtime.jit import kernel
from solver.staged.holds import _fewest_completions, largest_move

MONOTONE_PAYOUTS = ("ting_hu_ante", "ting_hu_fa", "ting_hu", "ting_hu_flush")
"""The payouts of a won ting bet: a stage-A value never falls as any of them rises, nor as the largest ting
multiple does (:func:`monotone`)."""

FOLD = -1.0
"""Folding at the fa-hu decision: stage A's values count T and F, not the double-down."""

STATES_AT_ONCE = 1 << 20
"""Post-draw states whose bounds are compared at once (about 300 bytes each)."""

ROWS_AT_ONCE = 1 << 21
"""Stage-A rows bounded at once (about 150 bytes each)."""

TOLERANCE = 1e-9
"""Slack for rounding in the bounds (values are of order 1; their sums are exact to about 1e-15)."""

COUNTED = 9
"""The outcome counts :func:`best_rows` keeps of each row: :data:`solver.staged.holds.TRACK_COLUMNS` but the
bonus net."""


def monotone(config: GameConfig) -> dict[str, float]:
    """What a stage-A value never falls as it rises: :data:`MONOTONE_PAYOUTS`, the largest ting multiple (the
    best bet of a community whose ting bet wins on average; the middle multiples are never best) and the
    smallest one negated (the best bet of one whose ting bet loses on average, but less than folding)."""
    return {**{key: getattr(config, key) for key in MONOTONE_PAYOUTS},
            "largest_multiple": max(config.ting_hu_multiples), "smallest_multiple": -min(config.ting_hu_multiples)}


def brackets(low: GameConfig, config: GameConfig, high: GameConfig) -> bool:
    """Whether ``low`` and ``high`` differ from ``config`` only in what is :func:`monotone`, ``low``'s at most
    and ``high``'s at least ``config``'s."""
    return near(low, config) and near(high, config) and \
        all(monotone(low)[k] <= monotone(config)[k] <= monotone(high)[k] for k in monotone(config))


def near(solved: GameConfig, config: GameConfig) -> bool:
    """Whether ``solved`` differs from ``config`` at most in what is :func:`monotone` (the ting win payouts,
    the ting multiples), in the step-11 payouts (which move a row by exactly its step-11 counts times their
    changes) and in the deal payouts (which no stage-A row and no state's best bet depend on): its values
    bound ``config``'s."""
    same = {key: getattr(config, key) for key in (*MONOTONE_PAYOUTS, "ting_hu_multiples", *STEP11_PAYOUTS,
                                                  *DEAL_PAYOUTS)}
    return replace(solved, **same) == config


def whole_stage_a(directory: Path) -> GameConfig | None:
    """The configuration of a finished main-game solve in ``directory`` whose ``holds.parquet`` has every row
    and the ting wins, or None."""
    return _solved_stage_a(directory, bounded=False)


def bounding_stage_a(directory: Path, config: GameConfig) -> GameConfig | None:
    """The configuration of a finished main-game solve in ``directory`` whose stage A bounds a variant
    ``config``'s row by row: a whole one (:func:`whole_stage_a`), or one that left out the rows below folding
    where the variant differs from it only in the payouts (:func:`above_fold_bounds`); or None."""
    found = whole_stage_a(directory)
    if found is None:
        found = _solved_stage_a(directory, bounded=False, above_fold=True)
        if found is None or not above_fold_bounds(found, config):
            return None
    return found


def not_bounding(directory: Path) -> ValueError:
    """The error for a ``directory`` given as bounds whose stage A does not bound the variant
    (:func:`bounding_stage_a`)."""
    return ValueError(f"{directory} holds no finished solve whose stage A bounds this variant: a whole one, or, for "
                      f"other ting win payouts alone, one that left out the rows below folding (mahjong-poker solve "
                      f"--whole walks those)")


def above_fold_bounds(solved: GameConfig, config: GameConfig) -> bool:
    """Whether a solve of ``solved`` whose stage A left out the rows below folding bounds ``config``'s: of other
    payouts (:func:`near`) but the same fa-hu bets and ting multiples. A row left out holds, for every bet, the
    value, ting wins and ting gains of the node of its first two dead cards, at the row's own number of cards
    left and step-11 counts (:func:`solver.staged.holds._bound_group`): each at least the row's own, so
    :class:`_Slopes` moves them to an upper bound of the variant's value, as it moves a walked row's values;
    none bounds it from below. The largest multiple's exact move (``F dm Z+``, from the gains) and the bets'
    chords (:class:`_BetSizes`, from the values) need each row's own, so those variants need it whole."""
    return near(solved, config) and solved.fa_hu_bets == config.fa_hu_bets \
        and solved.ting_hu_multiples == config.ting_hu_multiples


def partial_stage_a(directory: Path) -> GameConfig | None:
    """The configuration of a finished bounded variant in ``directory`` whose own ``holds.parquet`` has the rows
    it walked, with their ting wins, or None."""
    return _solved_stage_a(directory, bounded=True)


def _solved_stage_a(directory: Path, bounded: bool, above_fold: bool = False) -> GameConfig | None:
    """The configuration of a finished main-game solve in ``directory`` with a ``holds.parquet`` of its own,
    bounded (the rows it walked) or whole as asked (or, ``above_fold``, every row but those below folding
    walked), with the ting wins; or None."""
    import pyarrow.parquet as pq

    from solver import __version__
    from solver.tables.files import FORMAT, bound_below_folding, bounded_stage_a, read_manifest

    found = read_manifest(directory)
    if not found or found.get("bonus") or found.get("restriction") != "optimal" or found.get("holds_from") \
            or found.get("format") != FORMAT or found.get("version") != __version__:  # another version's walk
        return None
    if not ((directory / "summary.parquet").exists() and (directory / "holds.parquet").exists()) \
            or bounded_stage_a(directory) != bounded or bound_below_folding(directory) != above_fold:
        return None
    try:
        if "ting_wins" not in pq.read_schema(directory / "holds.parquet").names:  # written before the wins
            return None
        return config_from_dict(tomllib.loads(found["config"]))
    except (OSError, ValueError, KeyError, TypeError):  # unreadable (InputError is a ValueError): bounds nothing
        return None


def bets_near(solved: GameConfig, config: GameConfig) -> bool:
    """Whether ``solved`` differs from ``config`` only in the fa-hu bets (and the deal payouts, which change no
    row; not the step-11 payouts): its values and ting gains at its bets
    bound ``config``'s at the others (:class:`_BetSizes`),
    and give them exactly at the bets both have."""
    return sizes_near(solved, config) and replace(_dealt_as(solved, config), fa_hu_bets=config.fa_hu_bets) == config


def _dealt_as(solved: GameConfig, config: GameConfig) -> GameConfig:
    """``solved`` with ``config``'s deal payouts, which change no stage-A row."""
    return replace(solved, **{key: getattr(config, key) for key in DEAL_PAYOUTS})


def sizes_near(solved: GameConfig, config: GameConfig) -> bool:
    """Whether ``solved`` differs from ``config`` in the fa-hu bets, and otherwise at most as :func:`near`
    allows: its values bound those of ``config``'s payouts at ``solved``'s bets, and those bound ``config``'s
    at its own (:class:`_BetSizes`)."""
    return solved.fa_hu_bets != config.fa_hu_bets and near(solved, replace(config, fa_hu_bets=solved.fa_hu_bets))


def find_bounds(config: GameConfig, root: Path, exclude: Path | None = None) -> tuple[Path, ...] | None:
    """Finished solves among ``root``'s directories that bound ``config``: of other ting payouts (:func:`near`),
    the nearest below it and the nearest above it (:func:`brackets`) where there are such, else the nearest
    other (one of the same ting payouts alone: its values move to the variant's exactly); failing those, the
    nearest of other fa-hu bets (:func:`bets_near`), else of other bets and payouts (:func:`sizes_near`); or
    None."""
    lows, highs, others, bets, sizes = [], [], [], [], []
    for manifest in sorted(root.glob("*/manifest.json")):
        directory = manifest.parent
        aside = ".replaced-" in directory.name  # moved aside by --force: another solve's, kept for the record
        found = None if directory == exclude or aside else bounding_stage_a(directory, config)
        if found is None or found == config:
            continue
        gaps = [monotone(found)[k] - monotone(config)[k] for k in monotone(config)]
        if sizes_near(found, config):
            gap = sum(min(abs(f - s) for s in found.fa_hu_bets) for f in config.fa_hu_bets)
            (bets if bets_near(found, config) else sizes).append(
                (gap + sum(abs(g) for g in gaps), -len(found.fa_hu_bets), str(directory)))
        if not near(found, config):
            continue
        candidate = (sum(abs(g) for g in gaps), str(directory))
        (lows if max(gaps) <= 0 else highs if min(gaps) >= 0 else others).append(candidate)
    chosen = [min(side)[1] for side in (lows, highs) if side]
    if lows and min(lows)[0] == 0:  # the same ting payouts: its values move to the variant's exactly
        chosen = [min(lows)[1]]
    if not chosen and (others or bets or sizes):
        chosen = [min(others)[1] if others else min(bets or sizes)[-1]]
    return tuple(Path(d) for d in chosen) or None


def find_refiners(config: GameConfig, root: Path, bounds: Sequence[Path], exclude: Path | None = None
                  ) -> tuple[Path, ...]:
    """Finished bounded variants among ``root``'s directories whose walked rows tighten the bounds that the
    solves ``bounds`` (whole or above folding, all of ``config``'s fa-hu bets) give ``config``'s rows
    (:func:`needed_keys`): of
    other ting payouts (:func:`near`) and the same fa-hu bets, the nearest below and the nearest above, each
    nearer than the whole solves on its side (a farther one bounds no tighter, and reading it costs). A search
    for a payout's house edge solves variant after variant nearer the last: each one's walked rows, among them
    every state's best, bound the next one's closely."""
    if any((found := bounding_stage_a(b, config)) is None or found.fa_hu_bets != config.fa_hu_bets for b in bounds):
        return ()
    nearest = [(np.inf, ""), (np.inf, "")]  # below, above: (distance, directory)
    for manifest in sorted(root.glob("*/manifest.json")):
        directory = manifest.parent
        found = None if directory == exclude or ".replaced-" in directory.name else partial_stage_a(directory)
        if found is not None and found != config and near(found, config) and found.fa_hu_bets == config.fa_hu_bets \
                and (side := _side(found, config)) is not None:
            nearest[side[0]] = min(nearest[side[0]], (side[1], str(directory)))
    for bound in bounds:  # a whole solve on a side bounds that side at least as closely as any farther
        side = _side(bounding_stage_a(bound, config), config)
        if side is not None and side[1] <= nearest[side[0]][0]:
            nearest[side[0]] = (np.inf, "")
    return tuple(Path(directory) for distance, directory in nearest if distance < np.inf)


def _side(solved: GameConfig, config: GameConfig) -> tuple[int, float] | None:
    """Which side of ``config`` ``solved`` lies on, in what is :func:`monotone` (0 below, 1 above; None for
    both ways), and how far."""
    gaps = [monotone(solved)[k] - monotone(config)[k] for k in monotone(config)]
    if max(gaps) <= 0 or min(gaps) >= 0:
        return int(max(gaps) > 0), sum(abs(g) for g in gaps)
    return None


def needed_keys(config: GameConfig, bounds: Sequence[Path], holds: np.ndarray, rows: np.ndarray,
                store: Path, refiners: Sequence[Path] = ()) -> tuple[np.ndarray, np.ndarray]:
    """The sorted stage-A keys that can be the best of some post-draw state of a variant of ``config`` bounded
    by the solves ``bounds``, and on the rows they walked by the bounded variants ``refiners``
    (:func:`find_refiners`): those it must walk, and those whose values at their best bets a solve of other
    fa-hu bets gives exactly (:func:`exact_values`). From every post-draw state's number of holds and
    stage-A rows (``holds``, ``rows``: the column store's), and the payout-free columns in ``store``."""
    from solver.tables.files import in_threads

    keys, low, high, exact = _row_bounds(config, bounds, store)
    for directory in refiners:
        _refine(config, directory, store, keys, low, high)
    needed = np.zeros(len(keys), bool)

    def mark(start: int) -> None:  # in slices, the rows being memory-mapped; threads only ever set True
        part = slice(start, start + STATES_AT_ONCE)
        _mark_needed(np.asarray(holds[part]), np.asarray(rows[part]), low, high, FOLD, TOLERANCE, needed)

    for _ in in_threads(mark, range(0, len(holds), STATES_AT_ONCE)):
        pass
    return keys[needed & ~exact], keys[needed & exact]


@kernel(nogil=True)
def _mark_needed(n_holds, rows, low, high, fold, tolerance, needed):
    """Mark the stage-A rows that can be the best of some post-draw state: a state (its first ``n_holds``
    entries of ``rows``) can take a row whose upper bound ``high`` reaches the best of its rows' lower bounds
    ``low`` and folding (``fold``), within ``tolerance``."""
    for s in range(n_holds.shape[0]):
        floor = fold
        for j in range(n_holds[s]):
            floor = max(floor, low[rows[s, j]])
        for j in range(n_holds[s]):
            if high[rows[s, j]] >= floor - tolerance:
                needed[rows[s, j]] = True


def best_rows_path(store: Path, solved: GameConfig) -> Path:
    """Where the column store ``store`` keeps the outcome counts of the best rows of a whole solve of ``solved``
    (:func:`best_rows`): one file per stage A (its holds fingerprint)."""
    return store / f"best-rows-{solved.holds_fingerprint()}.npz"


def tangent_helps(solved: GameConfig, config: GameConfig) -> bool:
    """Whether the tangent of a solve of ``solved`` is worth its pass for a variant ``config``: of the same fa-hu
    bets, something :func:`monotone` rising (falling alone, the other bounds are about as tight)."""
    rising = any(monotone(config)[k] > monotone(solved)[k] for k in monotone(config))
    return rising and solved.fa_hu_bets == config.fa_hu_bets and near(solved, config)


def best_rows(directory: Path, holds: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The stage-A keys (sorted) that are some post-draw state's best in the whole solve in ``directory`` (of
    the rows ``rows`` of its ``holds`` holds, the one of highest value at its best fa-hu bet, where that beats
    folding), and the index of that bet."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from solver.staged.chunks import as_array
    from solver.tables.files import in_threads

    keys, value, bet = [], [], []
    for batch in pq.ParquetFile(directory / "holds.parquet").iter_batches(ROWS_AT_ONCE, columns=["key", "evs"]):
        evs = as_array(pa.chunked_array([batch.column(1)]))
        keys.append(batch.column(0).to_numpy())
        value.append(_row_max(evs))
        bet.append(np.argmax(evs, axis=1).astype(np.int8))
    keys, value, bet = np.concatenate(keys), np.concatenate(value), np.concatenate(bet)
    best = np.zeros(len(keys), bool)

    def mark(start: int) -> None:  # threads only ever set True
        part = slice(start, start + STATES_AT_ONCE)
        _mark_best(np.asarray(holds[part]), np.asarray(rows[part]), value, FOLD, best)

    for _ in in_threads(mark, range(0, len(holds), STATES_AT_ONCE)):
        pass
    return keys[best], bet[best]


@kernel(nogil=True)
def _mark_best(n_holds, rows, value, fold, best):
    """Mark each post-draw state's best stage-A row: of its first ``n_holds`` entries of ``rows``, the one of
    highest ``value``, where that beats ``fold``."""
    for s in range(n_holds.shape[0]):
        top = fold
        at = -1
        for j in range(n_holds[s]):
            if value[rows[s, j]] > top:
                top = value[rows[s, j]]
                at = rows[s, j]
        if at >= 0:
            best[at] = True


def read_best_rows(path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The keys, best fa-hu bets and outcome counts (:data:`COUNTED`) kept at ``path`` (:func:`best_rows_path`),
    or None when there are none or they cannot be read."""
    import zipfile

    try:
        with np.load(path) as data:
            found = data["key"], data["bet"], data["counts"]
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    keys, bets, counts = found
    if counts.shape != (len(keys), COUNTED) or len(bets) != len(keys):
        return None
    return found


def strategy_values(keys: np.ndarray, bets: np.ndarray, counts: np.ndarray, constants: TingConstants,
                    geometry: DeckGeometry) -> np.ndarray:
    """The values of the stage-A rows ``keys`` at the fa-hu bets ``bets`` (indices) under the payouts of
    ``constants``, of the ting decisions whose outcome counts are ``counts`` (:data:`COUNTED`, per
    ``C(left, 4) C(left - 4, 2)`` draws): each bet community keeps its multiple, the smallest or the largest.
    Any decisions are a strategy those payouts allow, so this is at most the rows' values there."""
    _, draws = _community_draws(keys, geometry)
    fa_hu, fa_flush, _, small_bets, small_hu, small_flush, large_bets, large_hu, large_flush = counts.T
    k = constants
    f, c = k.fa_bets[bets], k.c[bets]
    ting = c * (small_hu + small_flush + large_hu + large_flush) \
        + f * (k.m_min * (k.p1 * small_hu + k.pf1 * small_flush - small_bets)
               + k.m_max * (k.p1 * large_hu + k.pf1 * large_flush - large_bets))
    step11 = k.step11_hu[bets] * fa_hu + k.step11_flush[bets] * fa_flush - (1.0 + f) * (draws - fa_hu - fa_flush)
    return (step11 + ting) / draws


def exact_values(config: GameConfig, solved: Path, keys: np.ndarray) -> np.ndarray:
    """The values of the stage-A rows ``keys`` (sorted) at each of ``config``'s fa-hu bets that the solve in
    ``solved`` (of other fa-hu bets, :func:`bets_near`) has, exactly (its walk's, which is the variant's);
    NaN at the others, which :func:`needed_keys` found can be no row's best."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from solver.staged.chunks import as_array

    found = whole_stage_a(solved)
    if found is None or not bets_near(found, config):
        raise ValueError(f"{solved} does not give stage-A values at other fa-hu bets")
    columns = [found.fa_hu_bets.index(f) if f in found.fa_hu_bets else -1 for f in config.fa_hu_bets]
    out = np.full((len(keys), len(columns)), np.nan)
    done = 0
    for batch in pq.ParquetFile(solved / "holds.parquet").iter_batches(ROWS_AT_ONCE, columns=["key", "evs"]):
        every = batch.column(0).to_numpy()
        end = int(np.searchsorted(keys, every[-1], side="right"))
        place = np.searchsorted(every, keys[done:end])
        if not np.array_equal(every[np.minimum(place, len(every) - 1)], keys[done:end]):
            raise ValueError(f"{solved} lacks some of these stage-A rows")
        evs = as_array(pa.chunked_array([batch.column(1)]))[place]
        for j, i in enumerate(columns):
            if i >= 0:
                out[done:end, j] = evs[:, i]
        done = end
    if done != len(keys):
        raise ValueError(f"{solved} lacks some of these stage-A rows")
    return out


def _row_bounds(config: GameConfig, bounds: Sequence[Path], store: Path
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Stage A's keys and, per row, bounds on the variant's value at its best fa-hu bet, the tightest that
    the solves ``bounds`` give, and whether that value is one a solve has (its best bet one of the solve's,
    the others' upper bounds below it)."""
    keys, low, high, exact = None, None, None, None
    for directory in bounds:
        solved = bounding_stage_a(directory, config)
        if solved is None:
            raise not_bounding(directory)
        if not (near(solved, config) or sizes_near(solved, config)):
            raise ValueError(f"{directory} holds a solve of payouts that do not bound this variant's")
        solved = _dealt_as(solved, config)
        bounder = _BetSizes(solved, config, store) if solved.fa_hu_bets != config.fa_hu_bets \
            else _Slopes(solved, config, store)
        parts = _bounded_rows(directory, bounder)
        found, lows, highs, exacts = (np.concatenate([p[i] for p in parts]) for i in range(4))
        if keys is None:
            keys, low, high, exact = found, lows, highs, exacts
            continue
        if not np.array_equal(keys, found):
            raise ValueError(f"{bounds[0]} and {directory} hold different stage-A rows")
        np.maximum(low, lows, out=low)
        np.minimum(high, highs, out=high)
        exact |= exacts
    return keys, low, high, exact


def _bounded_rows(directory: Path, bounder: _Slopes | _BetSizes) -> list[tuple[np.ndarray, ...]]:
    """``bounder``'s bounds (keys, low, high, exact) of the rows of ``directory``'s ``holds.parquet``, part by
    part, in threads. A row its solve left out below folding bounds the variant's from above alone
    (:func:`above_fold_bounds`)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from solver.staged.chunks import as_array
    from solver.tables.files import BOUND_COLUMN, bound_below_folding, in_threads

    left_out = bound_below_folding(directory)
    columns = [*bounder.COLUMNS, *([BOUND_COLUMN] if left_out else [])]

    def bounded(batch: pa.RecordBatch) -> tuple[np.ndarray, ...]:
        part = pa.Table.from_batches([batch])
        keys, low, high, exact = bounder.bounds(*(as_array(part[name]) for name in bounder.COLUMNS))
        if left_out:
            low[as_array(part[BOUND_COLUMN])] = -np.inf
        return keys, low, high, exact

    batches = pq.ParquetFile(directory / "holds.parquet").iter_batches(ROWS_AT_ONCE, columns=columns)
    return list(in_threads(bounded, batches))


def _refine(config: GameConfig, directory: Path, store: Path, keys: np.ndarray, low: np.ndarray,
            high: np.ndarray) -> None:
    """Tighten the bounds ``low`` and ``high`` of the rows ``keys`` (every row, sorted) on the rows the bounded
    variant in ``directory`` walked: its values there bound ``config``'s as a whole solve's do (:class:`_Slopes`,
    without the tangent, which needs every state's best row counted); the other rows keep theirs."""
    solved = _dealt_as(partial_stage_a(directory), config)
    for found, lows, highs, _ in _bounded_rows(directory, _Slopes(solved, config, store, tangent=False)):
        at = np.minimum(np.searchsorted(keys, found), len(keys) - 1)
        if not np.array_equal(keys[at], found):
            raise ValueError(f"{directory} holds stage-A rows that the bounding solves lack")
        low[at] = np.maximum(low[at], lows)
        high[at] = np.minimum(high[at], highs)


class _Slopes:
    """How far a solve of ``solved``'s payouts can be from ``config``'s, row by row (the module's notes)."""

    def __init__(self, solved: GameConfig, config: GameConfig, store: Path, tangent: bool = True) -> None:
        self.config, self.store = config, store
        self.solved, self.variant = TingConstants.of(solved), TingConstants.of(config)
        step11 = any(getattr(solved, key) != getattr(config, key) for key in STEP11_PAYOUTS)
        self.COLUMNS = ("key", "evs", "ting_wins", "ting_gains", *(("step11",) if step11 else ()))
        """What it reads of the solve's ``holds.parquet``."""
        d = {k: monotone(config)[k] - monotone(solved)[k] for k in monotone(config)}
        # The smallest multiple with other changes: through the variant's other payouts at the solve's smallest,
        # a community can move that is live under neither's; under the most generous of each, it is live.
        self.reach = self.variant
        if d["smallest_multiple"] and any(v for k, v in d.items() if k != "smallest_multiple"):
            a, b = self.variant, self.solved
            self.reach = replace(a, p1=max(a.p1, b.p1), pf1=max(a.pf1, b.pf1), m_min=min(a.m_min, b.m_min),
                                 m_max=max(a.m_max, b.m_max), c=np.maximum(a.c, b.c))
        # the largest multiple moves each row by exactly F dm Z+, which a solve with two multiples gives
        self.move = largest_move(solved, config)
        if self.move is not None:
            d["largest_multiple"] = 0.0
        # the ting win payouts, each the larger of the two: where z is largest
        self.larger = {"ting_hu": max(self.variant.p1, self.solved.p1),
                       "ting_hu_flush": max(self.variant.pf1, self.solved.pf1)}
        up, down = ({k: max(s * v, 0.0) for k, v in d.items()} for s in (1.0, -1.0))
        self.up, self.down = self._coefficients(up), self._coefficients(down)
        self.rises = any(v > 0 for v in up.values()) or self.reach is not self.variant
        # per hold: the ting wins of communities newly live, then of those that can win on average
        self.per_hold: dict[int, np.ndarray] = {}
        # the solve's decisions on its best rows, for :meth:`bounds` (``tangent``; :meth:`moves` alone needs none)
        self.best = read_best_rows(best_rows_path(store, solved)) if tangent else None

    def _coefficients(self, change: dict[str, float]) -> tuple[np.ndarray, np.ndarray]:
        """Per fa-hu bet F, what a community's gain moves by at most per unit of W and of Wf, one side's
        ``change`` (each :func:`monotone` quantity's, that way) made: of every live community, and more of
        those whose ting bet can win on average at the larger payouts (``z > 0`` under some dead set,
        :meth:`_hold_wins`). ``c_F`` moves ``u = W + Wf``. ``y`` moves by ``m_min dz`` while ``z < 0`` and by
        ``m_max dz`` above, so by at most ``m_min dz`` plus, where ``z`` can pass 0, ``(m_max - m_min) dz +
        dm z+``, with the multiples and ``z+`` at the larger payouts; there ``W + Wf`` completions of the
        ``C(left - 4, 2)`` win, so ``z <= (W p1 + Wf pf1) (1 - 1 / max(p1, pf1))``. The smallest multiple
        moves only a community whose bet loses on average (``z < 0``) and beats folding at the smaller
        multiple ``m``, so ``F m |z| < c_F u``: by at most ``dm c_F u / m``, ``c_F`` the larger."""
        f = self.variant.fa_bets
        m = max(self.variant.m_max, self.solved.m_max)
        m_low = min(max(self.variant.m_min, self.solved.m_min), m)  # the slope of y below 0, the larger
        p = self.larger
        positive = max(0.0, 1.0 - 1.0 / max(p.values()))  # the share of W p1 + Wf pf1 that z can be
        smallest = change["smallest_multiple"] * np.maximum(self.variant.c, self.solved.c) / min(
            self.variant.m_min, self.solved.m_min)
        every = np.stack([change["ting_hu_ante"] + f * change["ting_hu_fa"] + smallest + f * m_low * change[k]
                          for k in p], axis=1)
        winning = np.stack([f * ((m - m_low) * change[k] + change["largest_multiple"] * positive * p[k]) for k in p],
                           axis=1)
        return every, winning

    def bounds(self, keys: np.ndarray, evs: np.ndarray, wins: np.ndarray, gains: np.ndarray,
               step11: np.ndarray | None = None) -> tuple[np.ndarray, ...]:
        """``keys``, the lower and upper bounds of those rows' values at their best fa-hu bet, and none exact;
        the solve's values first moved to the variant's step-11 payouts where they differ (by the rows'
        step-11 hu and flush counts ``step11`` times each change, over the four-card communities)."""
        fall, rise = self.moves(keys, wins, gains)
        if step11 is not None:
            hu = np.subtract(self.variant.step11_hu, self.solved.step11_hu)
            flush = np.subtract(self.variant.step11_flush, self.solved.step11_flush)
            four, _ = _community_draws(keys, self.config.geometry)
            evs = evs + (step11[:, :1] * hu + step11[:, 1:] * flush) / four[:, None]
        low = np.maximum(_row_max(evs - fall), self.tangent(keys))
        return keys, low, _row_max(evs + rise), np.zeros(len(keys), bool)

    def tangent(self, keys: np.ndarray) -> np.ndarray:
        """Of the rows ``keys`` (sorted), the value at the variant's payouts of the solve's ting decisions where
        it counted them (:func:`best_rows`), a lower bound on the variant's value; -inf at the others."""
        out = np.full(len(keys), -np.inf)
        if self.best is None or not len(keys):
            return out
        best_keys, bets, counts = self.best
        part = slice(*np.searchsorted(best_keys, [keys[0], keys[-1] + 1]))
        at = np.minimum(np.searchsorted(keys, best_keys[part]), len(keys) - 1)
        found = keys[at] == best_keys[part]  # every one, for the solve's keys are every row's
        values = strategy_values(best_keys[part], bets[part], counts[part], self.variant, self.config.geometry)
        out[at[found]] = values[found]
        return out

    def moves(self, keys: np.ndarray, wins: np.ndarray, gains: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """How far each of the rows ``keys`` (their ting wins ``wins``, ting gains ``gains``) can fall and rise
        at each fa-hu bet."""
        table, hold_of = _hold_table(keys, self.config, self._hold_wins)
        if not self.rises:
            table[:, :2] = 0.0
        geometry = self.config.geometry
        move_f, move_div = (np.zeros(len(self.variant.fa_bets)), 0.0) if self.move is None else self.move
        fall, rise = (np.empty((len(keys), len(self.variant.fa_bets))) for _ in range(2))
        # one pass over the rows: the whole-array form made a dozen temporaries of every batch (docs/performance.md);
        # the falling side counts the newly live communities too in the chain's middle (more live there)
        _row_moves(keys, geometry.n_types, geometry.n_suited, int(geometry.full_counts()[:geometry.n_suited].sum()),
                   hold_of, table, wins, gains, self.reach is not self.variant, *self.down, *self.up,
                   np.asarray(move_f, float), float(move_div), fall, rise)
        return fall, rise

    def _hold_wins(self, code: int) -> np.ndarray:
        """The ting wins, at no dead card, of the hold's communities the variant's payouts (or those between
        the two, :attr:`reach`) make live and the solve's did not; then those of the communities whose ting bet
        can win on average (``z > 0``) under some dead set at the larger of the two solves' payouts."""
        known = self.per_hold  # read once: threads bounding other parts replace it
        if code not in known:
            w0, q0, pool = _stored_counts(code, self.config, self.store)
            new = _live(q0, pool, self.reach) & ~_live(q0, pool, self.solved)
            p1, pf1 = self.larger.values()
            winning = q0[0] * p1 + q0[1] * pf1 > _fewest_completions(pool) * (1.0 - TOLERANCE)
            self.per_hold = known = {code: np.concatenate([(w0[new] * q0[:, new]).sum(axis=1),
                                                           (w0[winning] * q0[:, winning]).sum(axis=1)])}
        return known[code]  # rows come hold by hold


class _BetSizes:
    """How far a solve of other fa-hu bets bounds ``config``'s values, row by row.

    A row's value at bet F is ``L(F) + g(F)``: the step-11 terms ``L`` are linear in F (exact, from the row's
    step-11 counts), and the ting part ``g = G_F / N`` sums ``w max(0, a + F b)`` over the communities, with
    ``a = (ting_ante + 1) (W + Wf) >= 0``. So ``g`` is convex in F, and ``g(F) / F`` never rises as F does:

    * a chord between two solved bets lies on or above ``g`` between them, on or below it outside them;
    * ``g(F') <= g(F) F' / F`` at a bet ``F'`` above a solved ``F``, and ``>=`` below it; ``g >= 0``.

    ``g`` sums over every community (one that cannot beat folding adds 0), so the solve's sums at its bets are
    its values there. Below the solve's smallest bet, ``g(0) = (ting_ante + 1) sum w (W + Wf)`` over every
    community gives the chord from 0: the solve's ting wins, plus the wins at no dead card of the communities
    its payouts leave dead (each hold's, from the column store), bound it. A solve of
    other ting payouts too (:func:`sizes_near`) gives ``g`` at its bets only within the bounds of
    :class:`_Slopes` (of ``config``'s payouts at the solve's bets), and the chords and ratios then take the
    ends of those ranges that make them bounds.
    """

    def __init__(self, solved: GameConfig, config: GameConfig, store: Path) -> None:
        self.config, self.solved, self.store = config, np.array(solved.fa_hu_bets), store
        self.variant, self.solved_constants = TingConstants.of(config), TingConstants.of(solved)
        at_solved_bets = replace(config, fa_hu_bets=solved.fa_hu_bets)
        self.payouts = None if at_solved_bets == solved else _Slopes(solved, at_solved_bets, store, tangent=False)
        self.below = min(config.fa_hu_bets) < min(solved.fa_hu_bets)  # then F = 0 is a point too
        self.points = np.concatenate([[0.0], self.solved]) if self.below else self.solved
        self.COLUMNS = ("key", "evs", "step11", "ting_gains",
                        *(("ting_wins",) if self.payouts or self.below else ()))
        """What it reads of the solve's ``holds.parquet``."""
        self.dead: dict[int, float] = {}  # per hold: the wins at no dead card of communities the solve left dead

    def bounds(self, keys: np.ndarray, evs: np.ndarray, step11: np.ndarray, gains: np.ndarray,
               wins: np.ndarray | None = None) -> tuple[np.ndarray, ...]:
        """``keys``, the lower and upper bounds of those rows' values at their best fa-hu bet, and which are
        exact: with the solve's payouts, the best of the solve's bets the variant has, the others' upper
        bounds below it."""
        total4, norm = _community_draws(keys, self.config.geometry)
        ting = gains[:, :len(self.solved)] / norm[:, None]
        lowest, highest = ting, ting
        if self.payouts is not None:
            fall, rise = self.payouts.moves(keys, wins, gains)
            lowest, highest = ting - fall, ting + rise
        if self.below:
            dead = _per_hold(keys, self.config, self._dead_wins)
            ante = self.config.ting_hu_ante + 1.0  # c_F at F = 0
            lowest = np.column_stack([ante * wins.sum(axis=1) / norm, lowest])
            highest = np.column_stack([ante * (wins.sum(axis=1) + dead) / norm, highest])
        rest = total4 - step11[:, 0] - step11[:, 1]
        solved = np.full(len(keys), -np.inf)  # the best of the solve's bets, exactly
        low, high = [solved], [solved]
        for k, f in enumerate(self.variant.fa_bets):
            if f in self.solved and self.payouts is None:
                solved = np.maximum(solved, evs[:, int(np.flatnonzero(self.solved == f)[0])])
                continue
            linear = (self.variant.step11_hu[k] * step11[:, 0] + self.variant.step11_flush[k] * step11[:, 1]
                      - (1.0 + f) * rest) / total4
            below, above = self._ting_part(lowest, highest, f)
            low.append(linear + below)
            high.append(linear + above)
        others = np.max(high[1:], axis=0) if len(high) > 1 else np.full(len(keys), -np.inf)
        low[0] = high[0] = solved
        return keys, np.max(low, axis=0), np.max(high, axis=0), others < solved - TOLERANCE

    def _ting_part(self, lowest: np.ndarray, highest: np.ndarray, f: float) -> tuple[np.ndarray, np.ndarray]:
        """Bounds on the ting part at bet ``f`` from its ranges ``[lowest, highest]`` at the solve's bets (and at
        0, :attr:`points`): each chord or ratio is a sum of two of them with weights of either sign, which takes
        the end of each range its weight's sign asks for."""
        bets = self.points
        low, high = np.zeros(len(lowest)), np.full(len(lowest), np.inf)
        for i, s in enumerate(bets):
            if 0 < s <= f:
                high = np.minimum(high, highest[:, i] * (f / s))
            if s >= f:
                low = np.maximum(low, lowest[:, i] * (f / s))
            for j in range(i + 1, len(bets)):
                t = (f - s) / (bets[j] - s)  # the chord is (1 - t) g(s) + t g(bets[j])
                if s < f < bets[j]:
                    high = np.minimum(high, (1 - t) * highest[:, i] + t * highest[:, j])
                else:
                    low = np.maximum(low, (1 - t) * (lowest if t <= 1 else highest)[:, i]
                                     + t * (lowest if t >= 0 else highest)[:, j])
        return low, high

    def _dead_wins(self, code: int) -> float:
        """``sum w (W + Wf)`` at no dead card over the hold's communities the solve's payouts leave dead."""
        dead = self.dead  # read once: threads bounding other parts replace it
        if code not in dead:
            w0, q0, pool = _stored_counts(code, self.config, self.store)
            left = ~_live(q0, pool, self.solved_constants)
            self.dead = dead = {code: float((w0[left] * q0[:, left]).sum())}  # rows come hold by hold
        return dead[code]


def _row_max(values: np.ndarray) -> np.ndarray:
    """Each row's largest entry: column by column, since a reduction over a short last axis is slow in numpy."""
    best = values[:, 0].copy()
    for j in range(1, values.shape[1]):
        np.maximum(best, values[:, j], out=best)
    return best


def _per_hold(keys: np.ndarray, config: GameConfig, value: Callable[[int], Any]) -> np.ndarray:
    """``value`` of each stage-A row's hold (its key prefix), computed once per hold; ``keys`` sorted."""
    table, hold_of = _hold_table(keys, config, value)
    return table[hold_of]


def _hold_table(keys: np.ndarray, config: GameConfig, value: Callable[[int], Any]) -> tuple[np.ndarray, np.ndarray]:
    """``value`` of each distinct hold of the stage-A rows ``keys`` (sorted), once each, and each row's index
    among them."""
    codes = keys // config.geometry.n_types**4
    if (codes[1:] < codes[:-1]).any():
        raise ValueError("stage-A keys out of order")
    starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
    hold_of = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, len(codes)]))
    return np.array([value(int(codes[i])) for i in starts], dtype=float), hold_of


@kernel(nogil=True)
def _row_moves(keys, base, n_suited, pool, hold_of, table, wins, gains, fall_extra, down_every, down_winning,
               up_every, up_winning, move_f, move_div, fall, rise):
    """:meth:`_Slopes.moves` row by row: each row's ting wins (plus its hold's newly live ones, ``table[:, :2]``,
    on the rising side, and on the falling one with ``fall_extra``) times each side's coefficients per unit
    of W and Wf, and the wins of the communities that can win on average (at most their hold's at no dead
    card, ``table[:, 2:]``) times the extra ones, over the row's draws; then ``F dm Z+`` (``move_f``,
    ``move_div``: :func:`solver.staged.holds.largest_shift`) less on the falling side and more on the rising."""
    for r in range(keys.shape[0]):
        left = float(_left_of(keys[r], base, n_suited, pool))
        norm = left * (left - 1) * (left - 2) * (left - 3) / 24.0 * (left - 4) * (left - 5) / 2.0
        h = table[hold_of[r]]
        shift = (gains[r, 0] - gains[r, gains.shape[1] - 1]) / move_div if move_div != 0.0 else 0.0
        for side in range(2):
            extra = side == 1 or fall_extra
            w0 = wins[r, 0] + h[0] if extra else wins[r, 0]
            w1 = wins[r, 1] + h[1] if extra else wins[r, 1]
            # a row's communities that can win on average are among its live ones, and their sums at no dead
            # card bound theirs under any dead set (W, Wf and the weights only fall as cards die)
            k0, k1 = min(h[2], w0), min(h[3], w1)
            every, winning = (down_every, down_winning) if side == 0 else (up_every, up_winning)
            for f in range(fall.shape[1]):
                moved = (w0 * every[f, 0] + w1 * every[f, 1] + (k0 * winning[f, 0] + k1 * winning[f, 1])) / norm
                if side == 0:
                    fall[r, f] = moved - shift * move_f[f] / norm
                else:
                    rise[r, f] = moved + shift * move_f[f] / norm


def _stored_counts(code: int, config: GameConfig, store: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The weights, W and Wf at no dead card of the hold whose stage-A key prefix is ``code``, and its suited
    pool (:func:`solver.staged.column_store.stored_counts`)."""
    from solver.staged.column_store import stored_counts

    base = config.geometry.n_types
    return stored_counts(tuple(code // base**p % base for p in (3, 2, 1, 0)), config, store)


def _live(q0: np.ndarray, pool: np.ndarray, constants: TingConstants) -> np.ndarray:
    """Which communities (their W and Wf with no dead card, ``q0``; the hold's suited ``pool``) the payouts of
    ``constants`` leave live."""
    from solver.staged.holds import _live_mask

    mask = np.empty(q0.shape[1], np.bool_)
    _live_mask(q0, constants.p1, constants.pf1, _fewest_completions(pool), constants.m_min, constants.m_max,
               constants.fa_bets, constants.c, mask)
    return mask


def _left(keys: np.ndarray, geometry: DeckGeometry) -> np.ndarray:
    """Each stage-A row's suited cards left for the community, as floats."""
    left = np.empty(len(keys))
    _suited_left(keys, geometry.n_types, geometry.n_suited, int(geometry.full_counts()[:geometry.n_suited].sum()),
                 left)
    return left


@kernel(nogil=True)
def _suited_left(keys, base, n_suited, pool, out):
    """Each key's :func:`_left_of`."""
    for r in range(keys.shape[0]):
        out[r] = _left_of(keys[r], base, n_suited, pool)


@kernel(inline="always")
def _left_of(key, base, n_suited, pool):
    """``pool`` less the suited cards among ``key``'s eight digits in ``base`` (hold and dead set): the
    digits at ``n_suited`` and above are jokers."""
    rest = key
    left = pool
    for _ in range(8):
        left -= rest % base < n_suited
        rest //= base
    return left


def _community_draws(keys: np.ndarray, geometry: DeckGeometry) -> tuple[np.ndarray, np.ndarray]:
    """Each stage-A row's ``C(left, 4)`` (the four-card communities its step-11 terms are over) and
    ``C(left, 4) C(left - 4, 2)`` (the four- and two-card draws its values are over)."""
    left = _left(keys, geometry)
    four = left * (left - 1) * (left - 2) * (left - 3) / 24.0
    return four, four * (left - 4) * (left - 5) / 2.0


def describe_bounds(bounds: Sequence[Path]) -> str:
    """The bounds as recorded in a bounded solve's chunk and table metadata."""
    return json.dumps([str(b) for b in bounds])


def recorded_bounds(text: str) -> tuple[Path, ...]:
    """The bounds :func:`describe_bounds` recorded."""
    return tuple(Path(b) for b in json.loads(text))
