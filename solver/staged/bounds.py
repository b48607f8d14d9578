"""Stage A of a ting-payout variant between two solved ones: only the rows that can be some state's best.

Every stage-A value (a hold against its dead cards, at its best fa-hu bet) is
non-decreasing in each ting payout (:data:`MONOTONE_PAYOUTS`): paying more
for a won ting bet never makes a hold worth less. So two finished solves LOW
and HIGH of the same game, LOW's ting payouts at most the variant's and HIGH's
at least, bound the variant's values row by row: ``V_LOW <= V <= V_HIGH``.
Stage B keeps each post-draw state's best hold, so a row whose ``V_HIGH`` falls
short of the state's best ``V_LOW`` (or of folding) in every state that holds
it can be no state's best, and its value is never read by stages B-D or the
forward count, which read only the best. The variant walks only the other rows
(:func:`needed_keys`): its figures are those of a whole solve, bit for bit, and
its ``holds.parquet`` keeps only the rows walked (marked ``bounded_by``), so it
serves no other solve as its stage A, and a query of another row is answered
by the evaluator. On the real deck about a quarter of the rows are needed
(docs/performance.md).
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import replace
from pathlib import Path

import numpy as np

from solver.game.config import GameConfig, config_from_dict

MONOTONE_PAYOUTS = ("ting_hu_ante", "ting_hu_fa", "ting_hu", "ting_hu_flush")
"""The payouts of a won ting bet: a stage-A value never falls as any of them rises."""

FOLD = -1.0
"""Folding at the fa-hu decision: stage A's values count T and F, not the double-down."""

STATES_AT_ONCE = 1 << 20
"""Post-draw states whose bounds are compared at once (about 300 bytes each)."""


def brackets(low: GameConfig, config: GameConfig, high: GameConfig) -> bool:
    """Whether ``low`` and ``high`` differ from ``config`` only in :data:`MONOTONE_PAYOUTS`, ``low``'s at most
    and ``high``'s at least ``config``'s."""
    same = {key: getattr(config, key) for key in MONOTONE_PAYOUTS}
    return (replace(low, **same) == config and replace(high, **same) == config
            and all(getattr(low, k) <= getattr(config, k) <= getattr(high, k) for k in MONOTONE_PAYOUTS))


def whole_stage_a(directory: Path) -> GameConfig | None:
    """The configuration of a finished main-game solve in ``directory`` whose ``holds.parquet`` has every row,
    or None."""
    from solver import __version__
    from solver.tables.files import FORMAT, bounded_stage_a, read_manifest

    found = read_manifest(directory)
    if not found or found.get("bonus") or found.get("restriction") != "optimal" or found.get("holds_from") \
            or found.get("format") != FORMAT or found.get("version") != __version__:  # another version's walk
        return None
    if not ((directory / "summary.parquet").exists() and (directory / "holds.parquet").exists()) \
            or bounded_stage_a(directory):
        return None
    try:
        return config_from_dict(tomllib.loads(found["config"]))
    except (OSError, ValueError, KeyError, TypeError):  # unreadable (InputError is a ValueError): bounds nothing
        return None


def find_bounds(config: GameConfig, root: Path, exclude: Path | None = None) -> tuple[Path, Path] | None:
    """Two finished solves among ``root``'s directories that bound ``config`` (:func:`brackets`): the highest
    below it and the lowest above it (by the sum of their ting payouts), or None."""
    lows, highs = [], []
    for manifest in sorted(root.glob("*/manifest.json")):
        directory = manifest.parent
        aside = ".replaced-" in directory.name  # moved aside by --force: another solve's, kept for the record
        found = None if directory == exclude or aside else whole_stage_a(directory)
        if found is None or found == config:
            continue
        total = sum(getattr(found, k) for k in MONOTONE_PAYOUTS)
        if brackets(found, config, config):
            lows.append((total, str(directory)))
        elif brackets(config, config, found):
            highs.append((-total, str(directory)))
    if not lows or not highs:
        return None
    return Path(max(lows)[1]), Path(max(highs)[1])


def needed_keys(low: Path, high: Path, holds: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The sorted stage-A keys a variant bounded by the solves ``low`` and ``high`` must walk, from every
    post-draw state's number of holds and stage-A rows (``holds``, ``rows``: the column store's)."""
    import pyarrow.parquet as pq

    from solver.staged.chunks import as_array

    tables = [pq.read_table(d / "holds.parquet", columns=["key", "evs"]) for d in (low, high)]
    keys = as_array(tables[0]["key"])
    if not np.array_equal(keys, as_array(tables[1]["key"])):
        raise ValueError(f"{low} and {high} hold different stage-A rows")
    v_low, v_high = (as_array(t["evs"]).max(axis=1) for t in tables)
    needed = np.zeros(len(keys), bool)
    for start in range(0, len(holds), STATES_AT_ONCE):
        n = np.asarray(holds[start:start + STATES_AT_ONCE])
        present = np.arange(rows.shape[1])[None, :] < n[:, None]
        read = np.where(present, rows[start:start + STATES_AT_ONCE], 0)
        floor = np.maximum(np.where(present, v_low[read], -np.inf).max(axis=1), FOLD)
        needed[read[present & (v_high[read] >= floor[:, None] - 1e-9)]] = True
    return keys[needed]


def describe_bounds(low: Path, high: Path) -> str:
    """The bounds as recorded in a bounded solve's chunk and table metadata."""
    return json.dumps([str(low), str(high)])


def recorded_bounds(text: str) -> tuple[Path, Path]:
    """The bounds :func:`describe_bounds` recorded."""
    low, high = json.loads(text)
    return Path(low), Path(high)
