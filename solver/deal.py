"""The deal decision (RULES.md steps 3-5): claim tian-hu, or double down (or not) and discard two.

Every two-card draw (jokers included: a joker drawn here stays in hand) is
enumerated as a multiset with its multiplicity. For one draw the eight seen
cards are fixed, so every hold the player could keep after it (any four of
the eight) is valued once against the same unseen cards, and each discard
then takes the best of its own holds. Double down changes only the di-hu
payout and the lost DD bet, so both DD choices share all the work.

Draws are independent, so they are split into chunks run in parallel with
joblib; each draw's contribution is returned separately and summed in draw
order, so the result is bit-for-bit the same for any number of jobs.
"""

from __future__ import annotations

from collections.abc import Callable
from math import comb

import numpy as np
from joblib import Parallel, delayed

from .cards import counts_of
from .combinatorics import multisets, remove_cards, submultisets
from .config import GameConfig
from .draw import claim_value, hold_values, unseen_suited
from .hold import bonus_evs, new_level_cache
from .options import Option


def _draw_contributions(hand: tuple[int, ...], draws: list[tuple[int, ...]], config: GameConfig,
                        bonus_bet: float) -> np.ndarray:
    """Value of each (DD, discard) after each draw: array (draws, 2, discards).

    A hold with no drawn card recurs with every draw, and one whose only
    drawn card is the draw's first card recurs with the next draws (they
    come in lexicographic order): their hand-card level caches are kept.
    """
    discards = submultisets(hand, 2)
    dd_sizes = (0.0, config.double_down)
    out = np.empty((len(draws), len(dd_sizes), len(discards)))
    caches: dict[tuple[int, ...], np.ndarray] = {}
    for n, draw in enumerate(draws):
        seen = tuple(sorted(hand + draw))
        community_source = unseen_suited(seen, config)
        bonus_ev = bonus_evs(community_source, config) if bonus_bet > 0 else None
        recurs = ([], [draw[0]])  # the drawn part of a hold that comes again with the next draws
        caches = {h: c for h, c in caches.items() if _drawn(h, hand) in recurs}
        best_by_hold = {}
        for hold in submultisets(seen, 4):
            if hold not in caches and _drawn(hold, hand) in recurs:
                caches[hold] = new_level_cache(config.geometry)
            values = hold_values(hold, community_source, config, bonus_bet, bonus_ev, caches.get(hold))
            best_by_hold[hold] = float(values.max())
        for d, discard in enumerate(discards):
            kept = tuple(sorted(remove_cards(hand, discard) + draw))
            play_on = max([-1.0] + [best_by_hold[h] for h in submultisets(kept, 4)])
            di_hu = claim_value(kept, config, 1.0, config.di_hu_flush, config.di_hu)
            for k, dd in enumerate(dd_sizes):
                value = -dd + play_on
                if di_hu is not None and (1.0 + dd) * di_hu > value:
                    value = (1.0 + dd) * di_hu
                out[n, k, d] = value
    return out


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


def deal_options(hand: tuple[int, ...], config: GameConfig,
                 progress: Callable[[int, int], None] | None = None, n_jobs: int = 1,
                 bonus_bet: float = 0.0) -> list[Option]:
    """Every option on the first six cards, in canonical order.

    Order: claim (if a tian-hu is possible), then each discard without
    double-down, then each discard with it (discards in lexicographic order
    of the cards thrown). ``progress(done, total)`` is called as draws finish;
    ``n_jobs`` processes share the draws. With a bonus bet B > 0 the EVs
    include it (it pushes unless the player reaches a ting bet).
    """
    geometry = config.geometry
    options: list[Option] = []
    claim = claim_value(hand, config, 1.0, config.tian_hu_flush, config.tian_hu)
    if claim is not None:
        options.append(Option("claim", (), 0.0, claim, 1.0))
    unseen = geometry.full_counts() - counts_of(hand, geometry)
    rows, weights = multisets(unseen, 2)
    draws = [tuple(int(t) for t in np.repeat(np.arange(geometry.n_types), row)) for row in rows]
    chunk = max(1, min(16, len(draws) // (4 * max(n_jobs, 1)) or 1))
    chunks = [draws[i:i + chunk] for i in range(0, len(draws), chunk)]
    results = Parallel(n_jobs=n_jobs, return_as="generator")(
        delayed(_draw_contributions)(hand, part, config, bonus_bet) for part in chunks
    )
    values = []
    done = 0
    for part in results:
        values.append(part)
        done += len(part)
        if progress is not None:
            progress(done, len(draws))
    per_draw = np.concatenate(values)
    totals = np.zeros(per_draw.shape[1:])
    for n in range(len(draws)):  # fixed order: identical sums for any n_jobs
        totals += weights[n] * per_draw[n]
    n_draws = comb(int(unseen.sum()), 2)
    assert int(weights.sum()) == n_draws
    for k, dd in enumerate((0.0, config.double_down)):
        for d, discard in enumerate(submultisets(hand, 2)):
            options.append(Option("discard", discard, dd, float(totals[k, d] / n_draws), 1.0 + dd))
    return options
