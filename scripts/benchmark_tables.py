"""Benchmark what a solve's tables serve: `best --tables` queries and the simulator.

    python scripts/benchmark_tables.py --config configs/reduced-3x4.toml --tables strategy_tables/reduced-3x4
    python scripts/benchmark_tables.py --tables strategy_tables/7981a1455f0f2315 --hands 1000000 --repeats 3

Reports medians over ``--repeats`` runs: the wall-clock time of a whole
``mahjong-poker best --tables`` process (start-up included) for a deal and a
draw query, and the simulator's hands per second on all cores and on one
(a fresh process each time; numba's compiled kernels come from its on-disk
cache, so compilation is not counted).
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

import pyarrow.parquet as pq


def _wall(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(args, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", help="the tables' configuration (default: the real deck)")
    parser.add_argument("--tables", required=True, help="a finished solve's directory")
    parser.add_argument("--hands", type=int, default=4_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    cli = [sys.executable, "-m", "solver.cli"]
    config = ["--config", args.config] if args.config else []
    deals = pq.read_table(f"{args.tables}/deals.parquet", columns=["hand"])
    draws = pq.read_table(f"{args.tables}/draws.parquet", columns=["hand", "dead"])
    deal = deals.slice(deals.num_rows // 2, 1).to_pylist()[0]["hand"]
    draw = draws.slice(draws.num_rows // 2, 1).to_pylist()[0]
    queries = {
        "best --tables, deal": cli + ["best", deal, *config, "--tables", args.tables],
        "best --tables, draw": cli + ["best", draw["hand"], "--dead", draw["dead"], *config, "--tables", args.tables],
    }
    _wall(queries["best --tables, deal"])  # warm the file cache
    result: dict = {"machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"}
    for name, command in queries.items():
        result[name + " (s)"] = statistics.median(_wall(command) for _ in range(args.repeats))
    for jobs in (os.cpu_count() or 1, 1):
        rates = []
        for _ in range(args.repeats):
            out = subprocess.run(cli + ["simulate", *config, "--tables", args.tables, "--hands",
                                        str(args.hands), "--jobs", str(jobs), "--json"],
                                 check=True, capture_output=True, text=True).stdout
            rates.append(json.loads(out)["hands_per_second"])
        result[f"simulate, {jobs} job(s) (hands/s)"] = statistics.median(rates)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
