"""Time the evaluator's hold kernel (solver.evaluator.hold) on the real deck, warm, and print the median.

Usage: python scripts/benchmark_hold_kernel.py [--repeats N] [--holds N] [--json]

Twelve random (hold, dead cards) states by default, each valued once alone
(``fa_values``) and once for four removal cases in one pass
(``fa_values_removing``, as the evaluator's deal stage does), after one
warm-up call that compiles or loads the kernel. Run it before and after a
change to the kernel (on a quiet machine: report medians and their ratio).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np

from solver.evaluator.hold import fa_values, fa_values_removing
from solver.game.cards import counts_of
from solver.game.config import DEFAULT_CONFIG
from solver.game.state import unseen_suited


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--holds", type=int, default=12)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    geometry = DEFAULT_CONFIG.geometry
    rng = np.random.default_rng(1)
    states = []
    for _ in range(args.holds):
        cards = [int(c) for c in rng.choice(geometry.cards(), 8, replace=False)]
        hold, dead = tuple(sorted(cards[:4])), tuple(cards[4:])
        states.append((counts_of(hold, geometry), unseen_suited(hold + dead, DEFAULT_CONFIG)))
    removals = [(), (1,), (2, 5), (0, 0)]
    fa_values(*states[0], DEFAULT_CONFIG)
    fa_values_removing(states[0][0], states[0][1], removals, DEFAULT_CONFIG)
    times = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        for hold, unseen in states:
            fa_values(hold, unseen, DEFAULT_CONFIG)
            fa_values_removing(hold, unseen, removals, DEFAULT_CONFIG)
        times.append(time.perf_counter() - start)
    result = {"holds": args.holds, "repeats": args.repeats, "median_s": statistics.median(times),
              "per_hold_ms": 1000 * statistics.median(times) / args.holds}
    print(json.dumps(result) if args.json else
          f"{args.holds} holds, median {result['median_s']:.3f} s per round ({result['per_hold_ms']:.1f} ms per hold)")


if __name__ == "__main__":
    main()
