"""Time stage A's walk of several ting-payout variants together against walking each on its own.

Usage: python scripts/benchmark_walk_together.py [--holds N] [--ting-hu LIST] [--repeats N] [--json]

``paytable`` walks the stage A of the variants it must walk (those of the ting
payouts and bet sizes) together where their sums are exact: at each leaf, every
live community's weight, W and Wf are computed once and the ting maximum is
taken for each variant (``holds.walk_variants``, over the communities any of
them leaves live). This times, on ``--holds`` real hold classes spread over the
list (one core, warm, columns built beforehand and not timed), the walk of the
``--ting-hu`` variants together and each variant's own walk over its own live
communities, in alternating rounds, checks that each variant's values are the
same bit for bit, and prints the medians per hold class.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import replace

import numpy as np

from solver.game.cards import counts_of
from solver.game.config import DEFAULT_CONFIG
from solver.staged.classes import extensions, group_classes
from solver.staged.holds import TingConstants, hold_columns, live_columns, sums_exact, walk, walk_variants


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--holds", type=int, default=12)
    parser.add_argument("--ting-hu", default="1.25,1.5,1.75,2", help="the variants' ting-hu payouts")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    geometry = DEFAULT_CONFIG.geometry
    configs = [replace(DEFAULT_CONFIG, ting_hu=float(v)) for v in args.ting_hu.split(",")]
    variants = [TingConstants.of(c) for c in configs]
    assert all(sums_exact(k, geometry) for k in variants), "walked together only where the sums are exact"
    classes = group_classes(geometry, 4)
    holds = [tuple(int(c) for c in h) for h in classes[:: max(1, len(classes) // args.holds)][: args.holds]]
    work = []
    for hold in holds:
        counts = counts_of(hold, geometry)
        own = [hold_columns(counts, c, k) for c, k in zip(configs, variants)]
        union = live_columns(hold_columns(counts, configs[0], variants[0], prune=False), *variants)
        work.append((extensions(geometry, hold, 4), own, union))
    walk_variants(work[0][2], work[0][0][:8], DEFAULT_CONFIG, variants)  # compile or load the kernels
    alone, together = [], []
    for _ in range(args.repeats):
        t_alone = t_together = 0.0
        for dead, own, union in work:
            start = time.perf_counter()
            singles = [walk(columns, dead, c, k) for columns, c, k in zip(own, configs, variants)]
            middle = time.perf_counter()
            batch = walk_variants(union, dead, DEFAULT_CONFIG, variants)
            t_alone += middle - start
            t_together += time.perf_counter() - middle
            assert all(np.array_equal(s, b) for s, b in zip(singles, batch)), "not bit for bit"
        alone.append(t_alone / len(holds))
        together.append(t_together / len(holds))
    result = {"holds": len(holds), "variants": len(configs), "alone_s_per_hold": statistics.median(alone),
              "together_s_per_hold": statistics.median(together),
              "live_per_hold": [statistics.mean(own[i].n_live for _, own, _ in work) for i in range(len(configs))],
              "union_per_hold": statistics.mean(union.n_live for _, _, union in work)}
    if args.json:
        print(json.dumps(result))
        return
    ratio = result["together_s_per_hold"] / result["alone_s_per_hold"]
    print(f"{len(holds)} hold classes, {len(configs)} variants (ting_hu {args.ting_hu}), medians of {args.repeats}:")
    print(f"  each alone: {result['alone_s_per_hold']:.4f} s per hold for all; together: "
          f"{result['together_s_per_hold']:.4f} s ({ratio:.2f} of alone); values the same bit for bit")
    print(f"  live communities per hold: {', '.join(f'{n:.0f}' for n in result['live_per_hold'])}; "
          f"any of them: {result['union_per_hold']:.0f}")


if __name__ == "__main__":
    main()
