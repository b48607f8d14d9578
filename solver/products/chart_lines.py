"""What every situation of a stage can play under each line of a chart, read from a solve's tables.

A chart line names a hold pattern (or an action) and a bet; where several
discards keep the pattern, the player keeps those with the fewest dead cards
touching, each equally likely (:mod:`solver.products.patterns`). So for a
situation (a deal class, or a reached post-draw state) and an entry, all a
chart needs is the fewest dead cards touching among the entry's holds and the
mean EV at each bet size of the holds the chart prefers (that few touching,
then nearest the middle): one *record*. A line limited to at
most L dead cards touching is available exactly when that fewest is at most L.

The records are built for all situations at once: patterns and touching
counts are table lookups (:class:`solver.products.patterns.PatternTable`), a
post-draw state's holds and their stage-A rows come from a compiled loop
(:func:`solver.staged.stages.state_holds`), and the reduction is a sort. The
real deck's 4.78 million post-draw states give about 60 million records.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from solver.game.cards import parse_cards
from solver.game.combinatorics import remove_cards
from solver.game.config import GameConfig
from solver.products.patterns import CLAIM, FOLD, PatternTable, pattern_table
from solver.staged.forward import decode_rows, di_hu_claims
from solver.staged.stages import StateHolds, state_holds
from solver.tables.files import holds_file, read_table
from solver.tables.reader import hold_values

CHUNK = 1 << 18
"""Post-draw states read at once (their option arrays take about 1 kB each)."""


@dataclass(frozen=True)
class StageLines:
    """One record per (situation, entry it can play), sorted by situation then entry.

    Situations are the rows of the stage's table (``deals.parquet`` or ``draws.parquet``), in order.
    """

    stage: str
    entries: tuple[str, ...]
    """Entry names by id (:attr:`solver.products.patterns.PatternTable.entries`)."""
    bet_sizes: tuple[float, ...]
    weights: np.ndarray
    """Each situation's weight: deals of its class, or the post-draw state's reach under optimal play."""
    best_ev: np.ndarray
    """Each situation's EV under optimal play."""
    situation: np.ndarray
    entry: np.ndarray
    fewest: np.ndarray
    """The fewest dead cards touching among the entry's holds (0 for an action)."""
    values: np.ndarray
    """(records, bet sizes): the mean EV of the entry's holds with the fewest dead cards touching, at each
    bet size (an action: its EV at the first size); NaN where the entry has no such bet."""

    @cached_property
    def starts(self) -> np.ndarray:
        """Each situation's first record (every situation has at least one)."""
        return np.searchsorted(self.situation, np.arange(len(self.weights)))


def bet_sizes(stage: str, config: GameConfig) -> tuple[float, ...]:
    """The bets a line can make: double down or not at the deal, each F at the draw."""
    return (0.0, config.double_down) if stage == "deal" else tuple(config.fa_hu_bets)


def stage_lines(stage: str, config: GameConfig, directory: Path, words: str) -> StageLines:
    """Every situation's records at the ``deal`` or the ``draw``, from a main-game solve's tables, with
    holds named in ``words`` (:data:`solver.products.patterns.WORDINGS`)."""
    table = pattern_table(config.geometry, words)
    if stage == "deal":
        weights, best_ev, parts = _deal_options(config, directory, table)
    else:
        weights, best_ev, parts = _draw_options(config, directory, table)
    n_bets = len(bet_sizes(stage, config))
    reduced = [_reduce(*part, n_bets) for part in parts]
    situation, entry, fewest, values = (np.concatenate([r[i] for r in reduced]) for i in range(4))
    return StageLines(stage, table.entries, bet_sizes(stage, config), weights, best_ev, situation, entry, fewest,
                      values)


Options = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""Per option: its situation, entry id, dead cards touching its hold, its hold's spread, bet size index
and EV."""


def _reduce(situation: np.ndarray, entry: np.ndarray, touching: np.ndarray, spread: np.ndarray, bet: np.ndarray,
            ev: np.ndarray, n_bets: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Options to records: per (situation, entry), the fewest touching and the mean EV at each bet size
    of the options the chart prefers (that few touching, then the smallest spread), summed in their order."""
    order = _stable_order(situation, entry, touching, spread)
    situation, entry, touching, spread = situation[order], entry[order], touching[order], spread[order]
    bet, ev = bet[order], ev[order]
    head = np.r_[True, (situation[1:] != situation[:-1]) | (entry[1:] != entry[:-1])]
    group = np.cumsum(head) - 1
    fewest = touching[head]
    keep = (touching == fewest[group]) & (spread == spread[head][group])
    cell = group[keep] * n_bets + bet[keep]
    size = int(head.sum()) * n_bets
    totals = np.bincount(cell, ev[keep], size)
    counts = np.bincount(cell, minlength=size)
    values = np.where(counts > 0, totals / np.maximum(counts, 1), np.nan).reshape(-1, n_bets)
    return situation[head], entry[head], fewest, values


def _stable_order(*columns: np.ndarray) -> np.ndarray:
    """The order that sorts rows by ``columns`` (the first the most significant), ties kept in their order:
    ``np.lexsort`` of them reversed, as one stable sort of the columns packed into one integer (a tenth of
    the time on the real deck's draw) where they are non-negative and fit in 63 bits."""
    widths = [int(c.max()).bit_length() if len(c) else 0 for c in columns]
    if sum(widths) > 63 or any(len(c) and c.min() < 0 for c in columns):
        return np.lexsort(columns[::-1])
    key = np.zeros(len(columns[0]), np.int64)
    for column, width in zip(columns, widths):
        key = (key << width) | column.astype(np.int64, copy=False)
    return np.argsort(key, kind="stable")


def _deal_options(config: GameConfig, directory: Path, table: PatternTable
                  ) -> tuple[np.ndarray, np.ndarray, Iterable[Options]]:
    """The deal classes' options from ``deals.parquet`` (about 30 per class)."""
    geometry = config.geometry
    rows = read_table(directory / "deals.parquet", columns=["hand", "weight", "best_ev", "actions", "discards",
                                                            "bets", "evs"]).to_pylist()
    sizes = bet_sizes("deal", config)
    situation, claims, kept, thrown, bet, ev = [], [], [], [], [], []
    for i, row in enumerate(rows):
        hand = parse_cards(row["hand"], geometry)
        for action, discard, b, e in zip(row["actions"], row["discards"], row["bets"], row["evs"]):
            situation.append(i)
            bet.append(sizes.index(b) if action != "claim" else 0)
            ev.append(e)
            claims.append(action == "claim")
            cards = parse_cards(discard, geometry) if action != "claim" else (0, 0)
            kept.append(remove_cards(hand, cards) if action != "claim" else (0, 0, 0, 0))
            thrown.append(cards)
    claim = np.array(claims)
    kept_rows, thrown_rows = np.array(kept, np.int64), np.array(thrown, np.int64)
    entry = np.where(claim, table.entry_id(CLAIM), table.pattern_ids(kept_rows))
    touching = np.where(claim, 0, table.touching(kept_rows, thrown_rows))
    spread = np.where(claim, 0, table.spreads(kept_rows))
    weights = np.array([float(r["weight"]) for r in rows])
    best_ev = np.array([r["best_ev"] for r in rows])
    return weights, best_ev, [(np.array(situation), entry, touching, spread, np.array(bet), np.array(ev))]


def _draw_options(config: GameConfig, directory: Path, table: PatternTable
                  ) -> tuple[np.ndarray, np.ndarray, Iterable[Options]]:
    """The reached post-draw states' options: claim, fold, and each F with each distinct hold, valued
    from stage A, a chunk of states at a time."""
    draws = read_table(directory / "draws.parquet", columns=["key", "double_down", "reach", "best_ev"])
    keys, dd = draws["key"].to_numpy(), draws["double_down"].to_numpy()
    return (draws["reach"].to_numpy().astype(np.float64), draws["best_ev"].to_numpy(),
            _draw_parts(config, directory, table, keys, dd))


def _draw_parts(config: GameConfig, directory: Path, table: PatternTable, keys: np.ndarray, dd: np.ndarray
                ) -> Iterator[Options]:
    """The options of :func:`_draw_options`, a chunk of states at a time (so that only records are kept)."""
    a_keys, a_values = hold_values(holds_file(directory))
    n_bets = len(config.fa_hu_bets)
    for start, deads, held, valid in _held_states(config, a_keys, keys):
        n = len(deads)
        s, h = np.nonzero(valid)
        dead = np.concatenate([held.thrown[s, h], deads[s]], axis=1)
        entry = table.pattern_ids(held.holds[s, h])
        touching = table.touching(held.holds[s, h], dead)
        spread = table.spreads(held.holds[s, h])
        on = a_values[held.rows[s, h]][:, :n_bets] - dd[start + s][:, None]
        level = held.level.astype(np.int64)
        claimed = np.flatnonzero(level > 0)
        claim = di_hu_claims(level[claimed], dd[start + claimed], config)
        every = np.arange(n)
        yield (
            start + np.concatenate([np.repeat(s, n_bets), claimed, every]),
            np.concatenate([np.repeat(entry, n_bets), np.full(len(claimed), table.entry_id(CLAIM)),
                            np.full(n, table.entry_id(FOLD))]),
            np.concatenate([np.repeat(touching, n_bets), np.zeros(len(claimed) + n, np.int64)]),
            np.concatenate([np.repeat(spread, n_bets), np.zeros(len(claimed) + n, np.int64)]),
            np.concatenate([np.tile(np.arange(n_bets), len(s)), np.zeros(len(claimed) + n, np.int64)]),
            np.concatenate([on.ravel(), claim, -1.0 - dd[start:start + n]]))


def situation_rows(stage: str, config: GameConfig, directory: Path, indices: np.ndarray) -> list[dict[str, Any]]:
    """The table rows of some situations, each with its option lists (for a chart's examples)."""
    from solver.tables.reader import with_options

    name = "deals.parquet" if stage == "deal" else "draws.parquet"
    rows = read_table(directory / name).take(np.asarray(indices, np.int64)).to_pylist()
    return rows if stage == "deal" else [with_options(row, directory, config) for row in rows]


def _held_states(config: GameConfig, a_keys: np.ndarray, keys: np.ndarray
                 ) -> Iterator[tuple[int, np.ndarray, StateHolds, np.ndarray]]:
    """Post-draw states (their ``draws.parquet`` keys) a chunk at a time: the chunk's first index, its dead
    cards, its holds with their rows in stage A (sorted keys ``a_keys``: :func:`solver.staged.stages.state_holds`)
    and which of those are real (a state has up to 15)."""
    for start in range(0, len(keys), CHUNK):
        hands, deads = decode_rows(keys[start:start + CHUNK], config.geometry.n_types, (6, 2))
        held = state_holds(hands, deads, a_keys, config.geometry)
        valid = np.arange(held.rows.shape[1])[None, :] < held.n_holds[:, None]
        assert (held.rows[valid] >= 0).all(), "every hold of a reached post-draw state is in stage A"
        yield start, deads, held, valid


def best_hold_values(config: GameConfig, directory: Path) -> np.ndarray:
    """(reached post-draw states, fa-hu bets): the EV of each state's best hold at each F (its DD
    counted as lost), in the draw table's order."""
    draws = read_table(directory / "draws.parquet", columns=["key", "double_down"])
    keys, dd = draws["key"].to_numpy(), draws["double_down"].to_numpy()
    a_keys, a_values = hold_values(holds_file(directory))
    best = np.empty((len(keys), len(config.fa_hu_bets)))
    for start, deads, held, valid in _held_states(config, a_keys, keys):
        values = np.where(valid[:, :, None], a_values[np.maximum(held.rows, 0), :best.shape[1]], -np.inf)
        best[start:start + len(deads)] = values.max(axis=1) - dd[start:start + len(deads), None]
    return best
