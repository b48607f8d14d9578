"""Pin the results of the forward solve (the one before the staged backward solve) on small decks.

Run once, before the forward solve was replaced: it solves each configuration with that solve and
writes tests/data/forward_solve_pins.json.gz (exact EV, the return table with exact counts, every deal
class's options and, for the smaller decks, every reached post-draw state's), which the tests hold the
new solve to. It ran at commit 497a1c8 (its output names the commit); later commits do not have
that solve.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pyarrow.parquet as pq

from solver.game.config import GameConfig
from solver.staged.run import solve

CASES = {
    "one-suit": (GameConfig(suits=1, ranks=5, copies=3, jokers=1), {}),
    "one-suit-bonus5": (GameConfig(suits=1, ranks=5, copies=3, jokers=1), {"bonus": 5.0}),
    "one-suit-no-double-down": (GameConfig(suits=1, ranks=5, copies=3, jokers=1), {"restriction": "no-double-down"}),
    "one-suit-always-claim-tian-hu": (GameConfig(suits=1, ranks=5, copies=3, jokers=1),
                                      {"restriction": "always-claim-tian-hu"}),
    "one-suit-minimum-bets": (GameConfig(suits=1, ranks=5, copies=3, jokers=1), {"restriction": "minimum-bets"}),
    "one-suit-odd-bets": (GameConfig(suits=1, ranks=5, copies=3, jokers=1, fa_hu_bets=(0.7,),
                                     ting_hu_multiples=(1.0, 3.0)), {}),
    "two-suits": (GameConfig(suits=2, ranks=4, copies=2, jokers=1), {}),
    "two-suits-bonus5": (GameConfig(suits=2, ranks=4, copies=2, jokers=1), {"bonus": 5.0}),
    "two-decks": (GameConfig(decks=2, suits=2, ranks=4, copies=1, jokers=1), {}),
    "three-copies-3x4": (GameConfig(suits=3, ranks=4, copies=3, jokers=1), {}),
}
WITH_DRAWS = {"one-suit", "one-suit-bonus5", "one-suit-minimum-bets", "two-suits", "two-decks"}
BEST_DRAW_ONLY = {"two-suits", "two-decks"}  # many states: keep the best option only, to keep the file small


def pin(name: str) -> dict:
    config, options = CASES[name]
    with tempfile.TemporaryDirectory() as tmp:
        summary = solve(config, Path(tmp) / "t", n_jobs=2, quiet=True, **options)
        data = {
            "config": config.to_toml(), "options": options, "ev": summary.ev, "ev_exact": str(summary.ev_exact),
            "denominator": str(summary.denominator), "bonus_net_settled": summary.bonus_net_settled,
            "tian_hu_declined": str(summary.tian_hu_declined), "di_hu_declined": str(summary.di_hu_declined),
            "outcomes": [[r.outcome.kind, r.outcome.double_down, r.outcome.fa_bet, r.outcome.ting_bet,
                          str(r.combinations)] for r in summary.outcomes],
            "deals": [[r["hand"], r["weight"], r["best"], [[a, d, b, e] for a, d, b, e in
                       zip(r["actions"], r["discards"], r["bets"], r["evs"])]]
                      for r in pq.read_table(Path(tmp) / "t" / "deals.parquet").to_pylist()],
        }
        if name in WITH_DRAWS:
            data["draws"] = []
            for r in pq.read_table(Path(tmp) / "t" / "draws.parquet").to_pylist():
                options = [[a, d, b, e] for a, d, b, e in zip(r["actions"], r["discards"], r["bets"], r["evs"])]
                if name in BEST_DRAW_ONLY:
                    options = [options[r["best"]]]
                data["draws"].append([r["hand"], r["dead"], r["double_down"], r["reach"], r["best"], options])
    return data


if __name__ == "__main__":
    commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    out = {"source": f"scripts/pin_forward_solve.py at commit {commit}: the forward solve's results",
           "note": ("draws: the reached post-draw states [hand, dead, DD, reach, best, options]; for two-suits and "
                    "two-decks only the best option is kept (as a one-element option list)"), "cases": {}}
    for name in sys.argv[1:] or CASES:
        print(name, file=sys.stderr, flush=True)
        out["cases"][name] = pin(name)
    with gzip.GzipFile("tests/data/forward_solve_pins.json.gz", "wb", mtime=0) as handle:
        handle.write(json.dumps(out, separators=(",", ":")).encode())
