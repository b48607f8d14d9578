"""Kernels run as plain Python give the compiled numbers, and a ting query never loads numba."""

import subprocess
import sys

import numpy as np
import pytest

from solver.cards import counts_of
from solver.config import GameConfig
from solver.draw import unseen_suited
from solver.hu import hu_level
from solver.jit import Kernel, interpreted, kernel
from solver.ting import ting_outcomes

CONFIG = GameConfig()
TWO_DECKS = GameConfig(copies=6, jokers=2)


def _ting_states(config: GameConfig, n: int, seed: int, hand_jokers: int):
    """Random ting states (hand, dead, community) with ``hand_jokers`` jokers in hand, no hu yet."""
    g = config.geometry
    rng = np.random.default_rng(seed)
    suited = np.repeat(np.arange(g.n_suited), g.copies)
    found = 0
    while found < n:
        cards = [int(c) for c in rng.choice(suited, 12 - hand_jokers, replace=False)]
        hand = tuple(sorted(cards[:4 - hand_jokers] + [g.joker] * hand_jokers))
        dead, community = tuple(cards[4 - hand_jokers:8 - hand_jokers]), tuple(cards[8 - hand_jokers:])
        if hu_level(counts_of(hand + community, g), g):
            continue
        found += 1
        yield hand, dead, community


@pytest.mark.parametrize("config", [CONFIG, TWO_DECKS], ids=["1deck", "2decks"])
@pytest.mark.parametrize("hand_jokers", [0, 1])
def test_interpreted_ting_counts_equal_the_compiled_ones(config: GameConfig, hand_jokers: int) -> None:
    """Win counts as integers and the bonus's expected net to the last bit."""
    g = config.geometry
    winning = 0
    for hand, dead, community in _ting_states(config, 6, seed=hand_jokers, hand_jokers=hand_jokers):
        args = (counts_of(hand, g), counts_of(community, g), unseen_suited(hand + dead + community, config), config)
        compiled = ting_outcomes(*args)
        with interpreted():
            plain = ting_outcomes(*args)
        assert plain == compiled, (hand, dead, community)
        assert compiled[2] != 0.0  # the bonus was counted
        winning += compiled[0] + compiled[1] > 0
    assert winning >= 2


def test_kernels_calling_kernels_compile_and_interpret() -> None:
    @kernel
    def square(x):
        return x * x

    @kernel(inline="always")
    def inner(x):
        return x + 1

    def outer_py(x):
        return inner(x) * 2

    outer = kernel(outer_py, cache=False)
    assert isinstance(outer, Kernel) and outer.__name__ == "outer_py"
    with interpreted():
        assert outer(np.int64(3)) == 8 and square(4) == 16
    assert outer(np.int64(3)) == 8 and square(4) == 16
    assert outer.options == {"cache": False} and inner.options == {"inline": "always", "cache": True}


def test_a_ting_query_does_not_load_numba() -> None:
    """numba's import and cache loading take about 1.5 s; a ting query answers in plain Python."""
    code = ("import sys; from solver.cli import main; "
            "main(['best', '11m 2p J', '--dead', '57s 8m 6s', '--community', '3m 8p 4s 9s', '--fa', '1']); "
            "assert 'numba' not in sys.modules, 'numba was imported'")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "best: bet G" in done.stdout or "best: fold" in done.stdout
