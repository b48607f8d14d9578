"""The exact evaluator's API: the EV of every option at any decision.

``evaluate(state, config)`` validates the state once and dispatches to the
stage modules (:mod:`solver.evaluator.deal`, :mod:`solver.evaluator.draw`, :mod:`solver.evaluator.ting`),
whose kernels never validate.
"""

from __future__ import annotations

from collections.abc import Callable

from solver.evaluator.deal import deal_options
from solver.evaluator.draw import draw_options
from solver.evaluator.ting import ting_bet_ev, ting_outcomes
from solver.game.cards import counts_of
from solver.game.config import DEFAULT_CONFIG, GameConfig
from solver.game.options import Option, Stage, best_index
from solver.game.state import State, unseen_suited, validate_state

__all__ = ["State", "best_option", "evaluate", "ting_options", "validate_state"]


def ting_state_outcomes(state: State, config: GameConfig) -> tuple[int, int, float, int]:
    """:func:`solver.evaluator.ting.ting_outcomes` at a ting state, the bonus's expected net counted only
    when the state bets one."""
    geometry = config.geometry
    seen = state.hand + state.dead + state.shown + state.community
    return ting_outcomes(counts_of(state.hand, geometry), counts_of(state.community, geometry),
                         unseen_suited(seen, config), config, with_bonus=state.bonus > 0)


def ting_options(state: State, config: GameConfig,
                 outcomes: tuple[int, int, float, int] | None = None) -> list[Option]:
    """Fold, then each ting bet G = m F, with exact EVs (DD counted as lost); ``outcomes``,
    when given, are the state's :func:`ting_state_outcomes`."""
    n_hu, n_flush, bonus_net, total = outcomes if outcomes is not None else ting_state_outcomes(state, config)
    f, dd, b = state.fa_bet, state.double_down, state.bonus
    options = [Option("fold", (), 0.0, -dd - 1.0 - f, 1.0 + dd + f)]
    for m in config.ting_hu_multiples:
        g = m * f
        ev = -dd + ting_bet_ev(n_hu, n_flush, total, f, g, config) + b * bonus_net
        options.append(Option("bet", (), g, ev, 1.0 + dd + f + g))
    return options


def evaluate(state: State, config: GameConfig = DEFAULT_CONFIG,
             progress: Callable[[int, int], None] | None = None, n_jobs: int = 1) -> list[Option]:
    """Every option open to the player at ``state``, in canonical order, with exact EVs.

    Use :func:`solver.game.options.best_index` for the optimal one. The deal
    stage reports ``progress(done, total)`` over its draws and can spread
    them over ``n_jobs`` processes (same result for any ``n_jobs``).
    """
    state = validate_state(state, config)
    if state.stage == Stage.DEAL:
        return deal_options(state.hand, config, progress, n_jobs, state.bonus, state.shown)
    if state.stage == Stage.DRAW:
        return draw_options(state.hand, state.dead + state.shown, state.double_down, config, state.bonus)
    return ting_options(state, config)


def best_option(state: State, config: GameConfig = DEFAULT_CONFIG) -> Option:
    """The optimal option at ``state``."""
    options = evaluate(state, config)
    return options[best_index(options)]

