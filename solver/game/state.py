"""What the player knows at a decision, and the check that it can occur.

Kept apart from the evaluator (and its compiled kernels) so that a table
lookup can validate a state without loading them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.errors import InputError
from solver.game.cards import check_available, check_count, counts_of, format_cards
from solver.game.config import GameConfig
from solver.game.options import Stage

if TYPE_CHECKING:
    import numpy as np  # a table lookup validates states without loading numpy


@dataclass(frozen=True)
class State:
    """Everything the player knows at a decision.

    ``hand``: 6 cards at the deal and the draw, 4 at the ting. ``dead``: the
    player's discards (2 at the draw, 4 at the ting, followed there by any cards
    other seats at the table showed). ``community``: the
    first four community cards (ting only). ``double_down``: the DD bet
    placed (0 or the configuration's size). ``fa_bet``: F (ting only).
    Cards are type indices (see :mod:`solver.game.cards`).
    """

    stage: Stage
    hand: tuple[int, ...]
    dead: tuple[int, ...] = ()
    community: tuple[int, ...] = ()
    double_down: float = 0.0
    fa_bet: float = 0.0
    bonus: float = 0.0
    """The bonus bet B (units of T): 0 values the main game alone; B > 0 values main
    game plus bonus, the bonus pushing unless the player bets ting-hu (docs/rules.md, "The bonus bet")."""
    shown: tuple[int, ...] = ()
    """Cards other seats at the table showed (a claim's six, the four each seat still in shows at step 11):
    seen, so dead to the player at any stage. A solve's tables know only the player's own cards."""


_SIZES = {Stage.DEAL: (6, 0, 0), Stage.DRAW: (6, 2, 0), Stage.TING: (4, 4, 4)}


def validate_state(state: State, config: GameConfig) -> State:
    """Refuse a state that cannot occur, with a message naming the problem."""
    geometry = config.geometry
    stage = Stage(state.stage)
    n_hand, n_dead, n_community = _SIZES[stage]
    check_count(state.hand, n_hand, f"the hand at the {stage.value} stage")
    # at the ting, the 4 discards may be followed by cards other seats showed (docs/rules.md): dead to this seat too
    if not (stage == Stage.TING and len(state.dead) > n_dead):
        check_count(state.dead, n_dead, f"the dead cards at the {stage.value} stage")
    check_count(state.community, n_community, f"the community at the {stage.value} stage")
    check_available({"hand": state.hand, "dead": state.dead, "community": state.community, "shown": state.shown},
                    geometry)
    if geometry.joker in state.community:
        raise InputError("community cards are never jokers (a joker dealt there is replaced)")
    if stage == Stage.DEAL and state.double_down:
        raise InputError("no double-down is placed before the deal decision")
    if state.double_down not in (0.0, config.double_down):
        raise InputError(f"the double-down bet is 0 or {config.double_down:g}, got {state.double_down:g}")
    if stage == Stage.TING:
        if not state.fa_bet:
            allowed = ", ".join(f"{b:g}" for b in config.fa_hu_bets)
            raise InputError(f"the ting stage needs the fa-hu bet placed (--fa): one of {allowed}")
        if state.fa_bet not in config.fa_hu_bets:
            allowed = ", ".join(f"{b:g}" for b in config.fa_hu_bets)
            raise InputError(f"the fa-hu bet F must be one of {allowed}, got {state.fa_bet:g}")
        from solver.game.hu import hu_level  # compiled kernels: imported only when a ting state needs them

        if hu_level(counts_of(state.hand + state.community, geometry), geometry):
            raise InputError(
                f"{format_cards(state.hand, geometry)} with {format_cards(state.community, geometry)} "
                "already forms a hu: the hand is won at step 11, there is no ting decision"
            )
    elif state.fa_bet:
        raise InputError("the fa-hu bet F is known only at the ting stage")
    if not math.isfinite(state.bonus) or state.bonus < 0:
        raise InputError(f"the bonus bet must be a finite number, not negative, got {state.bonus:g}")
    return State(stage, tuple(sorted(state.hand)), tuple(sorted(state.dead)), tuple(sorted(state.community)),
                 float(state.double_down), float(state.fa_bet), float(state.bonus), tuple(sorted(state.shown)))


def unseen_suited(seen: tuple[int, ...], config: GameConfig) -> np.ndarray:
    """Suited counts the community can still come from, given every card seen."""
    geometry = config.geometry
    return (geometry.full_counts() - counts_of(seen, geometry))[: geometry.n_suited]
