"""Reading a finished solve: stage A's values, and the option lists of post-draw states.

The draw table holds each reached post-draw state's reach and the option
played; every option's EV is 15 lookups in stage A's holds table (the hold
and its four dead cards, canonical), which :func:`draw_options` does, in
the evaluator's canonical order. :func:`draw_rows` gives the draw table's
rows with those lists, for the chart and the pictures.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from solver.game.cards import format_cards, parse_cards
from solver.game.combinatorics import remove_cards, submultisets
from solver.game.config import GameConfig
from solver.game.options import Option
from solver.game.symmetry_kernels import canonical_keys
from solver.tables.files import holds_file, read_table


@lru_cache(maxsize=2)
def hold_values(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """Stage A's sorted keys and values (each fa-hu bet, then the minimum-bets value) from a holds table."""
    table = read_table(path, columns=["key", "evs", "ev_minimum_bets"])
    evs = table["evs"].combine_chunks()
    values = np.column_stack([evs.flatten().to_numpy().reshape(len(evs), -1),
                              table["ev_minimum_bets"].to_numpy()])
    return table["key"].to_numpy(), values


def draw_options(hand: tuple[int, ...], dead: tuple[int, ...], double_down: float, level: int, keys: np.ndarray,
                 values: np.ndarray, config: GameConfig, minimum_bets: bool = False) -> list[Option]:
    """A post-draw state's options in the evaluator's canonical order (claim when ``level`` says the hand
    has a hu, fold, then each fa-hu bet with each hold), each hold's value read from stage A (``keys``,
    ``values``); with ``minimum_bets`` only the smallest F, valued with the smallest ting multiple."""
    geometry = config.geometry
    holds = submultisets(hand, 4)
    thrown = [remove_cards(hand, h) for h in holds]
    state_keys = canonical_keys(geometry, np.array(holds, np.int64),
                                np.array([tuple(sorted(t + dead)) for t in thrown], np.int64))
    rows = values[np.searchsorted(keys, state_keys)]
    options = []
    if level:
        pays = config.di_hu_flush if level == 2 else config.di_hu
        options.append(Option("claim", (), 0.0, (1.0 + double_down) * pays, 1.0 + double_down))
    options.append(Option("fold", (), 0.0, -1.0 - double_down, 1.0 + double_down))
    n_bets = len(config.fa_hu_bets)
    columns = [(n_bets, config.fa_hu_bets[0])] if minimum_bets else list(zip(range(n_bets), config.fa_hu_bets))
    for column, fa in columns:
        options += [Option("bet", t, fa, float(v[column]) - double_down, 1.0 + double_down + fa)
                    for t, v in zip(thrown, rows)]
    return options


def draw_rows(directory: Path, config: GameConfig, minimum_bets: bool = False) -> list[dict[str, Any]]:
    """The draw table's rows, each with its options' lists (``actions``, ``discards``, ``bets``, ``evs``,
    ``risks``) read from stage A."""
    rows = read_table(directory / "draws.parquet").to_pylist()
    return [with_options(row, directory, config, minimum_bets) for row in rows]


def with_options(row: dict[str, Any], directory: Path, config: GameConfig, minimum_bets: bool = False
                 ) -> dict[str, Any]:
    """A draw table row with its options' lists added (:func:`draw_rows`)."""
    from solver.game.cards import counts_of
    from solver.game.hu import hu_level

    geometry = config.geometry
    keys, values = hold_values(holds_file(directory))
    hand, dead = parse_cards(row["hand"], geometry), parse_cards(row["dead"], geometry)
    level = int(hu_level(counts_of(hand, geometry), geometry))
    options = draw_options(hand, dead, row["double_down"], level, keys, values, config, minimum_bets)
    row.update(actions=[o.action for o in options], discards=[format_cards(o.discard, geometry) for o in options],
               bets=[o.bet for o in options], evs=[o.ev for o in options], risks=[o.risk for o in options])
    return row
