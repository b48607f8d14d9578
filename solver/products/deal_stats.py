"""Figures of the six-card deal: how many deals can claim a tian-hu (docs/rules.md, "A hand, step by step", step 3)."""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

from solver.game.combinatorics import multisets
from solver.game.config import GameConfig
from solver.game.hu import hu_levels


@dataclass(frozen=True)
class DealStats:
    """Exact counts of six-card deals, jokers included and wild."""

    total_deals: int
    tian_hu: int
    """Deals that can claim a tian-hu, flush ones included."""
    flush_tian_hu: int
    """Deals that can claim a flush tian-hu."""


def deal_stats(config: GameConfig) -> DealStats:
    """Count the six-card deals that can form a hu and a flush hu, exactly."""
    geometry = config.geometry
    rows, weights = multisets(geometry.full_counts(), 6)
    levels = hu_levels(rows, geometry)
    total = comb(geometry.size, 6)
    assert int(weights.sum()) == total
    return DealStats(
        total_deals=total,
        tian_hu=int(weights[levels >= 1].sum()),
        flush_tian_hu=int(weights[levels == 2].sum()),
    )
