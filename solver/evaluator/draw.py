"""The draw decision (docs/rules.md, steps 6-9): claim di-hu, fold, or bet F with a four-card hold.

After the first draw the player holds six cards and has discarded two
(dead). Whatever is kept, the community comes from the same unseen suited
cards (the eight seen cards are known), so each hold is valued by
:func:`solver.evaluator.hold.fa_values` against one ``unseen`` vector (or, in the
solve, read from the deal stage, which valued every hold already).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from solver.evaluator.hold import bonus_evs, hold_values, prepare_tables
from solver.game.combinatorics import remove_cards, submultisets
from solver.game.config import GameConfig
from solver.game.hu import claim_value
from solver.game.options import Option
from solver.game.state import unseen_suited


def draw_options(hand: tuple[int, ...], dead: tuple[int, ...], double_down: float, config: GameConfig,
                 bonus_bet: float = 0.0, threads: int | None = None,
                 known: Callable[[tuple[int, ...]], np.ndarray] | None = None) -> list[Option]:
    """Every option after the first draw, in canonical order: claim, fold, then each bet F and hold.

    With a bonus bet B > 0 the EVs include it (it pushes unless the player
    reaches a ting bet, so claim and fold values are unchanged). Holds are
    valued in ``threads`` threads (default: one per core; the solve, whose
    processes already fill the cores, uses 1), or, with ``known``, read
    from it: ``known(hold)`` gives what :func:`hold_values` would, already
    computed (the solve has them from the deal stage)."""
    options: list[Option] = []
    claim = claim_value(hand, config, 1.0 + double_down, config.di_hu_flush, config.di_hu)
    if claim is not None:
        options.append(Option("claim", (), 0.0, claim, 1.0 + double_down))
    options.append(Option("fold", (), 0.0, -1.0 - double_down, 1.0 + double_down))
    holds = submultisets(hand, 4)
    if known is not None:
        values = [known(hold) for hold in holds]
    else:
        values = _value_holds(holds, unseen_suited(hand + dead, config), config, bonus_bet, threads)
    for b, fa_bet in enumerate(config.fa_hu_bets):
        for hold, value in zip(holds, values):
            options.append(Option("bet", remove_cards(hand, hold), fa_bet, float(value[b]) - double_down,
                                  1.0 + double_down + fa_bet))
    return options


def _value_holds(holds: list[tuple[int, ...]], unseen: np.ndarray, config: GameConfig, bonus_bet: float,
                 threads: int | None) -> list[np.ndarray]:
    """:func:`hold_values` of each hold against the same unseen cards, in ``threads`` threads."""
    # The hold kernel releases the GIL: threads value the holds side by side.
    prepare_tables(config.geometry)
    bonus_ev = bonus_evs(unseen, config) if bonus_bet > 0 else None
    value_of = lambda hold: hold_values(hold, unseen, config, bonus_bet, bonus_ev)  # noqa: E731
    if threads == 1:
        return [value_of(hold) for hold in holds]
    with ThreadPoolExecutor(max_workers=threads or os.cpu_count()) as pool:
        return list(pool.map(value_of, holds))
