"""The real game dealt from one, two and three 82-card decks, side by side (the README's table).

Reads each configuration's solve (strategy_tables/<fingerprint>: the summaries are committed) and, with
--solve, solves those that are missing first (4-8 minutes each on 2 cores). Prints a Markdown table, or
--json. The par sheet (``mahjong-poker edge``, and the report) shows the same rows
(``solver.products.decks``).

    python scripts/decks.py [--solve] [--json]
"""

from __future__ import annotations

import argparse
import json

from solver.game.config import DEFAULT_CONFIG
from solver.products.decks import deck_rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--solve", action="store_true", help="solve the configurations that have no tables yet")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a Markdown table")
    args = parser.parse_args()
    found, missing = deck_rows(DEFAULT_CONFIG, solve_missing=args.solve, quiet=False)
    if missing:
        raise SystemExit(f"no solve of {', '.join(map(str, missing))} deck(s) found: rerun with --solve")
    rows = [r.to_json() for r in found]
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
