"""Pin the plain game tree's exact figures for a mini deck (tests/data/*_plain_game.json).

The plain enumerator (tests/plain_game.py) walks every physical card combination with exact fractions;
it takes minutes on decks the staged solve does in a second, so its figures are computed here once and
pinned, and the tests compare the solve with them exactly.

    python scripts/pin_plain_game.py OUT.json decks=3 suits=2 ranks=3 copies=1 jokers=1
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.game.config import GameConfig  # noqa: E402
from tests.plain_game import PlainGame  # noqa: E402


def pin(config: GameConfig) -> dict:
    """The exact whole-game EV and every outcome's exact probability under the plain tree's optimal play."""
    start = time.perf_counter()
    plain = PlainGame(config, exact=True)
    ev = plain.game_ev()
    outcomes = plain.outcome_probabilities()
    deck = ", ".join(f"{k}={getattr(config, k)}" for k in ("decks", "suits", "ranks", "copies", "jokers"))
    return {
        "source": f"scripts/pin_plain_game.py: tests/plain_game.py PlainGame(GameConfig({deck}), exact=True), "
                  f"every physical card combination, {time.perf_counter() - start:.0f} s on 2 cores",
        "game_ev_exact": f"{ev.numerator}/{ev.denominator}",
        "game_ev": float(ev),
        "outcomes": [{"kind": kind, "double_down": dd, "fa_bet": fa, "ting_bet": g,
                      "probability": f"{p.numerator}/{p.denominator}"}
                     for (kind, dd, fa, g), p in sorted(outcomes.items())],
    }


def main(argv: list[str]) -> None:
    out, *pairs = argv
    config = GameConfig(**{key: int(value) for key, value in (pair.split("=") for pair in pairs)})
    Path(out).write_text(json.dumps(pin(config), indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
