"""Benchmark the full solve: wall clock per stage and the peak memory of all its processes.

    python scripts/benchmark_solve.py                 # the real deck (about 10 minutes on 2 cores)
    python scripts/benchmark_solve.py --config configs/reduced-3x4.toml --repeats 3

Solves from scratch in a temporary directory (numba's compiled kernels are
kept in the cache folder, so compiling is left out once they exist: run it
twice after a change to the source), and reports the median wall clock of
each stage over the repeats (machines are noisy), the peak resident memory
of the solve's processes together (the parent and its workers, sampled
every 0.2 s from /proc), the exact EV and the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import tempfile
import threading
import time
from pathlib import Path

from solver.game.config import load_config
from solver.staged.run import solve


def machine() -> str:
    return f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def _tree_rss_mb(root: int) -> float:
    """Resident memory of ``root`` and its descendants, from /proc (Linux)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            parents[int(entry)] = int(fields[1])
            rss[int(entry)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError, ValueError):
            continue
    tree, frontier = {root}, [root]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in tree:
                tree.add(pid)
                frontier.append(pid)
    return sum(rss.get(pid, 0) for pid in tree) / 2**20


def one_solve(config_path: str | None, jobs: int) -> dict:
    config = load_config(config_path)
    peak = [0.0]
    running = [True]

    def sample() -> None:
        while running[0]:
            peak[0] = max(peak[0], _tree_rss_mb(os.getpid()))
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    with tempfile.TemporaryDirectory() as directory:
        start = time.perf_counter()
        summary = solve(config, Path(directory) / "t", n_jobs=jobs, quiet=True)
        seconds = time.perf_counter() - start
        stages = json.loads((Path(directory) / "t" / "summary.json").read_text())["stage_seconds"]
    running[0] = False
    sampler.join()
    return {"seconds": seconds, "stages": stages, "peak_rss_mb": peak[0], "ev_exact": str(summary.ev_exact),
            "house_edge": summary.house_edge, "deal_classes": summary.deal_classes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", help="configuration to solve (default: the real deck)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    runs = [one_solve(args.config, args.jobs) for _ in range(args.repeats)]
    stages = {name: statistics.median(r["stages"][name] for r in runs) for name in runs[0]["stages"]}
    print(json.dumps({"machine": machine(), "config": args.config or "real deck", "jobs": args.jobs,
                      "repeats": args.repeats, "median_seconds": statistics.median(r["seconds"] for r in runs),
                      "median_stage_seconds": stages, "peak_rss_mb": max(r["peak_rss_mb"] for r in runs),
                      "ev_exact": runs[0]["ev_exact"], "house_edge": runs[0]["house_edge"],
                      "all_seconds": [r["seconds"] for r in runs]}, indent=2))


if __name__ == "__main__":
    main()
