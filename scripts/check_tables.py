"""Check a solve's tables against the per-hand evaluator, state by state.

Draws random deal classes and random post-draw states (uniformly among
their classes, with a seed), answers each from the tables
(``best --tables``: 15 lookups) and from the evaluator (computed from
scratch, sharing no table with the solve), and reports the largest
difference of any option's EV and whether the best options agree.

    python scripts/check_tables.py --tables strategy_tables/<fingerprint> --deals 20 --draws 200

With no ``--config`` the real deck; exit status 1 if any EV differs by more
than ``--tolerance`` (default 1e-12) or a best option differs.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from solver.game.cards import format_cards
from solver.game.config import load_config
from solver.game.symmetry import deal_classes
from solver.products.query import best_play
from solver.staged.classes import extensions, group_classes


def compare(text: str, config, tables: Path, dead: str = "", n_jobs: int = -1) -> tuple[float, bool]:
    """Largest EV difference between the tables' answer and the evaluator's, and whether the best agree."""
    direct = best_play(text, config, dead=dead, n_jobs=n_jobs)
    table = best_play(text, config, dead=dead, tables=tables)
    assert table.source == "tables" and len(table.options) == len(direct.options)
    worst = 0.0
    for a, b in zip(table.options, direct.options):
        assert (a.action, a.discard, a.bet) == (b.action, b.discard, b.bet), (text, dead, a, b)
        worst = max(worst, abs(a.ev - b.ev))
    return worst, table.best == direct.best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", help="game configuration (default: the real deck)")
    parser.add_argument("--tables", required=True, help="a finished solve's table directory")
    parser.add_argument("--deals", type=int, default=20, help="random deal classes (default 20)")
    parser.add_argument("--draws", type=int, default=200, help="random post-draw states (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tolerance", type=float, default=1e-12)
    args = parser.parse_args()
    config = load_config(args.config)
    geometry = config.geometry
    rng = random.Random(args.seed)
    tables = Path(args.tables)
    failures = 0
    six = group_classes(geometry, 6)
    for n in range(args.draws):
        hand = tuple(int(c) for c in six[rng.randrange(len(six))])
        deads = extensions(geometry, hand, 2)
        dead = tuple(int(c) for c in deads[rng.randrange(len(deads))])
        worst, same = compare(format_cards(hand, geometry), config, tables, format_cards(dead, geometry))
        failures += worst > args.tolerance or not same
        print(f"draw {n + 1}: {format_cards(hand, geometry)} dead {format_cards(dead, geometry)}: "
              f"largest difference {worst:.2e}, best {'agrees' if same else 'DIFFERS'}", flush=True)
    hands, _ = deal_classes(geometry)
    for n in range(args.deals):
        hand = tuple(int(c) for c in hands[rng.randrange(len(hands))])
        start = time.monotonic()
        worst, same = compare(format_cards(hand, geometry), config, tables)
        failures += worst > args.tolerance or not same
        print(f"deal {n + 1}: {format_cards(hand, geometry)}: largest difference {worst:.2e}, "
              f"best {'agrees' if same else 'DIFFERS'} ({time.monotonic() - start:.0f} s)", flush=True)
    print(f"{failures} of {args.draws + args.deals} states differ by more than {args.tolerance:g}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
