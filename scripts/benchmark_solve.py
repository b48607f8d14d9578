"""Benchmark the full solve: wall clock and peak memory of a whole solve, and a projection for the real deck.

    python scripts/benchmark_solve.py --config configs/reduced-3x4.toml --jobs 2
    python scripts/benchmark_solve.py --project --samples 3

The first form solves a configuration from scratch (in a temporary
directory) and reports the wall-clock time and the peak resident memory of
the parent process. The second times ``solve_chunk`` on a
few deal classes of the real deck drawn at random (fixed seed) (one process,
so the figure is per core) and projects the whole solve: classes x median
time per class / cores. Machines are noisy: medians, and the machine is
printed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import tempfile
import time

import numpy as np

from solver.config import DEFAULT_CONFIG, load_config
from solver.objective import Objective
from solver.solve import solve, solve_chunk
from solver.symmetry import deal_classes


def machine() -> str:
    return f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def full_solve(config_path: str | None, jobs: int) -> dict:
    config = load_config(config_path)
    with tempfile.TemporaryDirectory() as directory:
        start = time.perf_counter()
        summary = solve(config, directory, n_jobs=jobs, quiet=True)
        seconds = time.perf_counter() - start
    return {
        "config": config_path or "default", "jobs": jobs, "seconds": seconds,
        "deal_classes": summary.deal_classes, "draw_states": summary.draw_states,
        "ev_exact": str(summary.ev_exact), "house_edge": summary.house_edge,
        "element_of_risk": summary.element_of_risk,
        # The parent holds the merged tables; each worker holds the same per-geometry tables and one chunk.
        "peak_rss_parent_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def projection(samples: int) -> dict:
    config = DEFAULT_CONFIG
    hands, weights = deal_classes(config.geometry)
    picks = sorted(int(i) for i in np.random.default_rng(2026).choice(len(hands), samples, replace=False))
    solve_chunk(hands[:0], weights[:0], config, Objective())  # imports and compiled kernels out of the timing
    times = []
    for i in picks:
        start = time.perf_counter()
        solve_chunk(hands[i:i + 1], weights[i:i + 1], config, Objective())
        times.append(time.perf_counter() - start)
        print(f"class {i}: {times[-1]:.1f} s", flush=True)
    per_class = statistics.median(times)
    cores = os.cpu_count() or 1
    return {
        "deal_classes": len(hands), "sampled": picks, "seconds": times, "median_per_class": per_class,
        "projected_core_hours": per_class * len(hands) / 3600,
        "projected_wall_hours_on_this_machine": per_class * len(hands) / cores / 3600,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", help="configuration to solve (default: configs/reduced-3x4.toml)",
                        default="configs/reduced-3x4.toml")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--project", action="store_true", help="project the real deck's solve instead")
    parser.add_argument("--samples", type=int, default=3, help="deal classes timed for --project")
    args = parser.parse_args()
    result = projection(args.samples) if args.project else full_solve(args.config, args.jobs)
    print(json.dumps({"machine": machine(), **result}, indent=2))


if __name__ == "__main__":
    main()
