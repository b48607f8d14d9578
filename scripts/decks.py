"""The real game dealt from one, two and three 82-card decks, side by side (the README's table).

Reads each configuration's solve (strategy_tables/<fingerprint>: the summaries are committed) and, with
--solve, solves those that are missing first (4-8 minutes each on 2 cores). Prints a Markdown table, or
--json.

    python scripts/decks.py [--solve] [--json]
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path

from solver.game.config import DEFAULT_CONFIG, GameConfig
from solver.game.objective import Objective
from solver.staged.run import load_summary, solve
from solver.tables.files import tables_for

DECKS = (1, 2, 3)


def figures(config: GameConfig, solve_missing: bool) -> dict[str, object]:
    """One configuration's figures from its tables (solved first when missing and asked to)."""
    directory = tables_for(config, Objective())
    if directory is None or not (directory / "summary.parquet").exists():
        if not solve_missing:
            raise SystemExit(f"no solve of {config.decks} deck(s) found: rerun with --solve")
        directory = Path(solve(config, quiet=False).directory)
    s = load_summary(directory, config)
    return {"decks": config.decks, "cards": config.geometry.size, "ev": float(s.ev_exact), "ev_exact": str(s.ev_exact),
            "house_edge": s.house_edge, "element_of_risk": s.element_of_risk, "std_dev": s.std_dev,
            "hit_frequency": float(sum(r.probability for r in s.outcomes if r.net > 0)),
            "bonus_house_edge_placed": -s.bonus_net_settled, "bonus_settled": float(s.bonus_settled),
            "solve_seconds": s.seconds, "tables": str(directory)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--solve", action="store_true", help="solve the configurations that have no tables yet")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a Markdown table")
    args = parser.parse_args()
    rows = [figures(replace(DEFAULT_CONFIG, decks=d), args.solve) for d in DECKS]
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print("| decks (cards) | EV per hand (exact) | house edge | element of risk | SD | hit frequency | "
          "bonus house edge per bet placed (lone player) | solve |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['decks']} ({r['cards']}) | {r['ev']:+.9f} | {100 * r['house_edge']:.4f}% | "
              f"{100 * r['element_of_risk']:.4f}% | {r['std_dev']:.4f} | {r['hit_frequency']:.4f} | "
              f"{100 * r['bonus_house_edge_placed']:.2f}% (settled {100 * r['bonus_settled']:.1f}%) | "
              f"{r['solve_seconds'] / 60:.1f} min |")


if __name__ == "__main__":
    main()
