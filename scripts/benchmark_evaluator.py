"""Time the exact evaluator per stage, cold (a fresh process) and warm, and print medians.

Usage: python scripts/benchmark_evaluator.py [--repeats N] [--deal] [--deal-parts] [--json]

Cold: a new Python process imports the package and evaluates one state
(numba's on-disk cache loaded, per-geometry tables built). Warm: the same
process evaluates again. The deal stage takes minutes, so it runs only
with ``--deal`` (once, cold, with two processes). Then the whole
``mahjong-poker best`` command, process start included, for ting queries
(which run the kernels as plain Python) and a draw query. ``--deal-parts``
times the deal stage's kernel work on one core by kind of hold (four dealt
cards, three and one drawn, two and both drawn), after a warm-up.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

STATES = {
    "ting": "State(Stage.TING, P('11m 23p'), P('57s 9m 9p'), P('4s 6s 8p 9s'), fa_bet=1.0)",
    "draw": "State(Stage.DRAW, P('11m 23p 57s'), P('9m 9p'))",
    "deal": "State(Stage.DEAL, P('11m 23p 57s'))",
}

QUERIES = {
    "best, ting": ["11m 23p", "--dead", "57s 8m 6s", "--community", "3m 8p 4s 9s", "--fa", "1"],
    "best, ting, joker in hand": ["11m 2p J", "--dead", "57s 8m 6s", "--community", "3m 8p 4s 9s", "--fa", "1"],
    "best, ting, bonus bet": ["11m 23p", "--dead", "57s 8m 6s", "--community", "3m 8p 4s 9s", "--fa", "1",
                              "--bonus", "1"],
    "best, draw": ["11m 23p 8m 6s", "--dead", "57s"],
}

SETUP = """
import time
t0 = time.perf_counter()
from solver.game.cards import parse_cards
from solver.game.config import DEFAULT_CONFIG
from solver.evaluator.api import Stage, State, evaluate
P = lambda text: parse_cards(text, DEFAULT_CONFIG.geometry)
"""


def cold(stage: str) -> float:
    """Seconds for a fresh process to import and evaluate one state."""
    code = SETUP + f"evaluate({STATES[stage]})\nprint(time.perf_counter() - t0)\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def warm(stage: str, repeats: int) -> list[float]:
    """Seconds per evaluation once the process has evaluated the state before."""
    code = SETUP + (
        f"state = {STATES[stage]}\nevaluate(state)\n"
        f"for _ in range({repeats}):\n    t = time.perf_counter(); evaluate(state); print(time.perf_counter() - t)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return [float(x) for x in out.stdout.split()]


def command(args: list[str]) -> float:
    """Seconds for a whole ``mahjong-poker best`` process."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "solver.cli", "best", *args], capture_output=True, check=True)
    return time.perf_counter() - start


def deal_parts() -> dict:
    """Kernel time on one core of the benchmark deal's (hold, draw) values, by kind of hold."""
    import numpy as np

    from solver.evaluator.deal import _drawn, _jobs, _value_jobs
    from solver.game.cards import parse_cards
    from solver.game.combinatorics import multisets
    from solver.game.config import DEFAULT_CONFIG as config

    geometry = config.geometry
    hand = parse_cards("11m 23p 57s", geometry)
    rows, _ = multisets(geometry.full_counts() - np.bincount(hand, minlength=geometry.n_types), 2)
    draws = [tuple(int(t) for t in np.repeat(np.arange(geometry.n_types), row)) for row in rows]
    jobs = _jobs(hand, draws, config, 0.0)
    _value_jobs(jobs[:1], config, 0.0)  # compile or load the kernels
    parts: dict[str, dict] = {}
    for job in jobs:
        drawn = len(_drawn(job.holds[0], hand))
        name = ("four dealt cards", "three dealt cards and one drawn", "two dealt cards and both drawn")[drawn]
        start = time.perf_counter()
        _value_jobs([job], config, 0.0)
        part = parts.setdefault(name, {"passes": 0, "values": 0, "seconds": 0.0})
        part["passes"] += 1 if job.removals else len(job.holds)
        part["values"] += len(job.pairs)
        part["seconds"] += time.perf_counter() - start
    return parts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--deal", action="store_true", help="also time one deal-stage evaluation (minutes)")
    parser.add_argument("--deal-parts", action="store_true",
                        help="only time the deal stage's kernel work by kind of hold (about 2 minutes)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.deal_parts:
        print(json.dumps(deal_parts(), indent=2))
        return
    cpu = platform.processor() or platform.machine()
    machine = f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"
    results = {"machine": machine}
    for stage in ("ting", "draw"):
        colds = [cold(stage) for _ in range(args.repeats)]
        warms = warm(stage, args.repeats)
        results[stage] = {"cold_median_s": statistics.median(colds), "warm_median_s": statistics.median(warms)}
    if args.deal:
        code = SETUP + f"evaluate({STATES['deal']}, n_jobs=2)\nprint(time.perf_counter() - t0)\n"
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        results["deal"] = {"cold_jobs2_s": float(out.stdout.strip())}
    for name, query in QUERIES.items():
        command(query)  # warm the file cache
        results[name] = {"command_median_s": statistics.median(command(query) for _ in range(args.repeats))}
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(f"machine: {machine}")
    for stage in ("ting", "draw", "deal", *QUERIES):
        if stage in results:
            print(stage, ", ".join(f"{k} = {v:.4f}" for k, v in results[stage].items()))


if __name__ == "__main__":
    main()
