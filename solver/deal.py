"""The deal decision (RULES.md steps 3-5): claim tian-hu, or double down (or not) and discard two.

Every two-card draw (jokers included: a joker drawn here stays in hand) is
enumerated as a multiset with its multiplicity. For one draw the eight seen
cards are fixed, so every hold the player could keep after it (any four of
the eight) is valued once against the same unseen cards, and each discard
then takes the best of its own holds. Double down changes only the di-hu
payout and the lost DD bet, so both DD choices share all the work.
"""

from __future__ import annotations

from collections.abc import Callable
from math import comb

import numpy as np

from .cards import counts_of
from .combinatorics import multisets, remove_cards, submultisets
from .config import GameConfig
from .draw import claim_value, hold_values, unseen_suited
from .options import Option


def deal_options(hand: tuple[int, ...], config: GameConfig,
                 progress: Callable[[int, int], None] | None = None) -> list[Option]:
    """Every option on the first six cards, in canonical order.

    Order: claim (if a tian-hu is possible), then each discard without
    double-down, then each discard with it (discards in lexicographic order
    of the cards thrown). ``progress(done, total)`` is called per draw.
    """
    geometry = config.geometry
    options: list[Option] = []
    claim = claim_value(hand, config, 1.0, config.tian_hu_flush, config.tian_hu)
    if claim is not None:
        options.append(Option("claim", (), 0.0, claim, 1.0))
    discards = submultisets(hand, 2)
    dd_sizes = (0.0, config.double_down)
    totals = np.zeros((len(dd_sizes), len(discards)))
    unseen = geometry.full_counts() - counts_of(hand, geometry)
    draws, weights = multisets(unseen, 2)
    for n, (draw_counts, weight) in enumerate(zip(draws, weights)):
        draw = tuple(int(t) for t in np.repeat(np.arange(geometry.n_types), draw_counts))
        seen = tuple(sorted(hand + draw))
        community_source = unseen_suited(seen, config)
        best_by_hold = {hold: float(hold_values(hold, community_source, config).max())
                        for hold in submultisets(seen, 4)}
        for d, discard in enumerate(discards):
            kept = tuple(sorted(remove_cards(hand, discard) + draw))
            play_on = max([-1.0] + [best_by_hold[h] for h in submultisets(kept, 4)])
            for k, dd in enumerate(dd_sizes):
                di_hu = claim_value(kept, config, 1.0 + dd, config.di_hu_flush, config.di_hu)
                value = -dd + play_on
                if di_hu is not None and di_hu > value:
                    value = di_hu
                totals[k, d] += weight * value
        if progress is not None:
            progress(n + 1, len(draws))
    n_draws = comb(int(unseen.sum()), 2)
    for k, dd in enumerate(dd_sizes):
        for d, discard in enumerate(discards):
            options.append(Option("discard", discard, dd, totals[k, d] / n_draws, 1.0 + dd))
    return options
