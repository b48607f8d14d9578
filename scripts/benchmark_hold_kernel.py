"""Time the hold kernels on the real deck, warm, and print the median: the evaluator's (default) or stage A's.

Usage: python scripts/benchmark_hold_kernel.py [--stage-a [--tracking] [--density D] [--config FILE]] [--repeats N]
       [--holds N] [--save FILE] [--json]

Twelve random (hold, dead cards) states by default, each valued once alone
(``fa_values``) and once for four removal cases in one pass
(``fa_values_removing``, as the evaluator's deal stage does), after one
warm-up call that compiles or loads the kernel. Run it before and after a
change to the kernel (on a quiet machine: report medians and their ratio).
With ``--stage-a``: the solve's stage A instead, each of the first holds of
the hold classes (every ``--holds``-th class) has its columns built
(``hold_columns``) and walked over all its dead sets (``walk``); with
``--save FILE`` the walks' values are written too, to compare two versions
bit for bit, and ``--config`` names other payouts of the real deck (more fa-hu
bets, say) (without ``--stage-a``, ``--save`` writes the evaluator's values,
also with a bonus bet and counting outcomes). ``--tracking`` walks stage A as
the forward count does instead: the columns with the bonus net's, every dead
set's outcome counts at the first fa-hu bet (its timing per hold and per (dead
set, live community)). ``--density D`` walks a random share D of each hold's
dead sets (the same ones in every run), as a bounded variant's stage A or the
tracking walk do: their rows are sparse, so fewer leaves share each node.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np

from solver.evaluator.hold import fa_values, fa_values_removing, track_size
from solver.game.cards import counts_of
from solver.game.config import DEFAULT_CONFIG
from solver.game.state import unseen_suited


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--holds", type=int, default=12)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--stage-a", action="store_true", help="time stage A's hold_columns and walk")
    parser.add_argument("--save", metavar="FILE", help="save the values computed (.npy), to compare two versions")
    parser.add_argument("--config", help="with --stage-a: a TOML configuration (default: the real deck's)")
    parser.add_argument("--tracking", action="store_true", help="with --stage-a: the forward count's tracking walk")
    parser.add_argument("--density", type=float, default=1.0,
                        help="with --stage-a: the share of each hold's dead sets walked (default: all)")
    args = parser.parse_args()
    if args.stage_a:
        stage_a(args)
        return
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
        values = []
        for hold, unseen in states:
            values.append(fa_values(hold, unseen, DEFAULT_CONFIG))
            values.append(fa_values_removing(hold, unseen, removals, DEFAULT_CONFIG).ravel())
        times.append(time.perf_counter() - start)
    if args.save:
        np.save(args.save, np.concatenate(values + _bonus_and_tracking(states)))
    result = {"holds": args.holds, "repeats": args.repeats, "median_s": statistics.median(times),
              "per_hold_ms": 1000 * statistics.median(times) / args.holds}
    print(json.dumps(result) if args.json else
          f"{args.holds} holds, median {result['median_s']:.3f} s per round ({result['per_hold_ms']:.1f} ms per hold)")


def _bonus_and_tracking(states: list[tuple[np.ndarray, np.ndarray]]) -> list[np.ndarray]:
    """The kernel's other two modes on the same states, for ``--save``: with a bonus bet, and counting the
    outcomes of the second fa-hu bet."""
    out = []
    for hold, unseen in states:
        out.append(fa_values(hold, unseen, DEFAULT_CONFIG, bonus_bet=2.0))
        tracked = np.zeros(track_size(len(DEFAULT_CONFIG.ting_hu_multiples)))
        out.append(fa_values(hold, unseen, DEFAULT_CONFIG, track=1, tracked=tracked))
        out.append(tracked)
    return out


def stage_a(args: argparse.Namespace) -> None:
    """Median time per hold of building its columns and walking its dead sets."""
    from solver.game.config import load_config
    from solver.staged.classes import extensions, group_classes
    from solver.staged.holds import HoldColumns, TingConstants, hold_columns, walk, with_bonus_columns

    config = load_config(args.config) if args.config else DEFAULT_CONFIG
    geometry = config.geometry
    constants = TingConstants.of(config)
    classes = group_classes(geometry, 4)
    holds = [tuple(int(c) for c in h) for h in classes[:: max(1, len(classes) // args.holds)][: args.holds]]
    deads = [_sample(extensions(geometry, h, 4), args.density, seed) for seed, h in enumerate(holds)]

    def columns_of(hold: tuple[int, ...]) -> HoldColumns:
        columns = hold_columns(counts_of(hold, geometry), config, constants)
        return with_bonus_columns(columns, config) if args.tracking else columns

    def walked_values(columns: HoldColumns, dead: np.ndarray) -> np.ndarray:
        if not args.tracking:
            return walk(columns, dead, config, constants)
        first_bet = np.zeros(len(dead), np.int64)
        return walk(columns, dead, config, constants, track_bet=first_bet, track_min=np.zeros(len(dead), bool))

    walked_values(columns_of(holds[0]), deads[0])
    build, walked, per_community, values = [], [], [], []
    for _ in range(args.repeats):
        t_build = t_walk = 0.0
        leaves = 0
        values = []
        for hold, dead in zip(holds, deads):
            start = time.perf_counter()
            columns = columns_of(hold)
            middle = time.perf_counter()
            values.append(walked_values(columns, dead))
            t_build += middle - start
            t_walk += time.perf_counter() - middle
            leaves += len(dead) * columns.n_live
        build.append(t_build / len(holds))
        walked.append(t_walk / len(holds))
        per_community.append(t_walk / leaves * 1e9)
    if args.save:
        np.save(args.save, np.concatenate(values))
    result = {"holds": len(holds), "tracking": args.tracking, "density": args.density,
              "columns_s_per_hold": statistics.median(build), "walk_s_per_hold": statistics.median(walked),
              "walk_ns_per_community": statistics.median(per_community)}
    print(json.dumps(result) if args.json else f"{len(holds)} holds: columns {result['columns_s_per_hold']:.4f} s, "
          f"walk {result['walk_s_per_hold']:.4f} s per hold, {result['walk_ns_per_community']:.3f} ns per (dead set, "
          f"live community) (medians of {args.repeats})")


def _sample(dead: np.ndarray, density: float, seed: int) -> np.ndarray:
    """A random share ``density`` of the rows of ``dead``, in their order (the walk needs them sorted)."""
    if density >= 1.0:
        return dead
    keep = np.random.default_rng(seed).random(len(dead)) < density
    return dead[keep]


if __name__ == "__main__":
    main()
