"""The plain-Python hu test that table queries use agrees with the compiled one."""

from __future__ import annotations

import random

import pytest

from solver.game.cards import counts_of
from solver.game.config import GameConfig
from solver.game.hu import hu_level
from solver.game.hu_plain import hu_level_plain


@pytest.mark.parametrize("config", [GameConfig(), GameConfig(decks=2), GameConfig(suits=2, ranks=4, copies=2)])
def test_plain_and_compiled_hu_levels_agree(config: GameConfig) -> None:
    g = config.geometry
    deck = g.cards()
    rng = random.Random(3)
    for _ in range(3000):
        cards = tuple(sorted(rng.sample(deck, rng.choice([5, 6]))))
        assert hu_level_plain(cards, g) == int(hu_level(counts_of(cards, g), g)), cards


def test_hand_computed_cases() -> None:
    g = GameConfig().geometry
    assert hu_level_plain((0, 0, 1, 2, 3), g) == 2  # 11234m: flush hu
    assert hu_level_plain((0, 0, 10, 11, 12), g) == 1  # 11m 234p: hu
    assert hu_level_plain((0, 0, 10, 11, 27), g) == 1  # 11m 23p J: the joker completes the run
    assert hu_level_plain((0, 2, 4, 10, 12, 27), g) == 0  # 135m 24p J: one joker is too few
