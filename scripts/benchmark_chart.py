"""Time the strategy chart's two lists on a solve's tables, and say what their words can reach.

Usage: python scripts/benchmark_chart.py --tables DIR [--config FILE] [--stage deal|draw] [--words shapes|patterns]
       [--json]

For each stage: the time to read every situation's records (``stage_lines``)
and to build the list (``build_stage_chart``, which reads them again), peak
memory of the process, the list's exact loss per hand dealt, and its *floor*:
the loss if every situation played its own best line and bet (what the
chart's words and its choice among discards lose, whatever the order). The
gap between loss and floor is what one ranked list costs.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path

import numpy as np

from solver.game.config import load_config
from solver.products.chart import _per_hand, build_stage_chart
from solver.products.chart_lines import stage_lines
from solver.products.patterns import DEFAULT_WORDS, WORDINGS


def measure(stage: str, config, tables: Path, words: str) -> dict:
    """One stage's timings, loss and floor."""
    start = time.perf_counter()
    lines = stage_lines(stage, config, tables, words)
    read = time.perf_counter() - start
    best = np.full(len(lines.weights), -np.inf)
    np.maximum.at(best, lines.situation, np.nanmax(lines.values, axis=1))
    floor = float(lines.weights @ (lines.best_ev - best)) / _per_hand(stage, config)
    situations, records = len(lines.weights), len(lines.situation)
    del lines
    start = time.perf_counter()
    chart = build_stage_chart(stage, config, tables, words=words)
    return {"stage": stage, "situations": situations, "records": records, "read_seconds": round(read, 1),
            "chart_seconds": round(time.perf_counter() - start, 1), "lines": len(chart.rules),
            "loss": chart.loss, "floor": floor,
            "peak_memory_gb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", required=True, type=Path)
    parser.add_argument("--config", help="game configuration (TOML); default: the real game")
    parser.add_argument("--stage", choices=("deal", "draw"), action="append")
    parser.add_argument("--words", choices=tuple(WORDINGS), default=DEFAULT_WORDS)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    config = load_config(args.config)
    for stage in args.stage or ("deal", "draw"):
        row = measure(stage, config, args.tables, args.words)
        print(json.dumps(row) if args.json else
              f"{stage}: {row['situations']:,} situations, {row['records']:,} records read in {row['read_seconds']} s; "
              f"list of {row['lines']} lines in {row['chart_seconds']} s; loss {row['loss']:.6f} per hand "
              f"(floor {row['floor']:.6f}); peak memory {row['peak_memory_gb']} GB", flush=True)


if __name__ == "__main__":
    main()
