"""Time stage A's columns built, and read from the column store, on real-deck hold classes.

Usage: python scripts/benchmark_column_store.py [--holds N] [--json]

A paytable variant of a ting payout or a bet size walks stage A again. The
column store (``solver.staged.column_store``) keeps each hold's payout-free
columns, so that the variants after the first read them instead of building
them. On ``--holds`` hold classes spread over the list (one core, warm, a
temporary store), medians per hold of:

* building the columns, as a solve without the store does: for stage A's walk,
  and with the bonus net's columns for the tracking walk;
* the first variant with the store: building the payout-free columns and
  storing them (Zstandard level 1);
* the next variants: reading them back and keeping the communities the
  payouts leave live, without and with the bonus net's columns;
* the stored file's size, and the live communities of each kind.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from solver.game.cards import counts_of
from solver.game.config import DEFAULT_CONFIG
from solver.staged.classes import group_classes
from solver.staged.column_store import store_folder, stored_columns
from solver.staged.holds import TingConstants, hold_columns


def _timed(work, *args, **kwargs) -> tuple[object, float]:
    start = time.perf_counter()
    result = work(*args, **kwargs)
    return result, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--holds", type=int, default=24, help="hold classes, spread over the list (default 24)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    config, geometry = DEFAULT_CONFIG, DEFAULT_CONFIG.geometry
    constants = TingConstants.of(config)
    classes = group_classes(geometry, 4)
    holds = [tuple(int(c) for c in h) for h in classes[:: max(1, len(classes) // args.holds)][: args.holds]]
    rows = []
    with tempfile.TemporaryDirectory() as root:
        folder = store_folder(config, Path(root))
        stored_columns(holds[-1], config, constants, folder, bonus_sums=True)  # compile or load the kernels
        for hold in holds:
            counts = counts_of(hold, geometry)
            built, t_built = _timed(hold_columns, counts, config, constants)
            _, t_built_bonus = _timed(hold_columns, counts, config, constants, bonus_sums=True)
            _, t_first = _timed(stored_columns, hold, config, constants, folder)
            _, t_read = _timed(stored_columns, hold, config, constants, folder)
            _, t_read_bonus = _timed(stored_columns, hold, config, constants, folder, bonus_sums=True)
            free = hold_columns(counts, config, constants, prune=False)
            path = folder / f"{'-'.join(map(str, hold))}.npz"
            rows.append({"built_s": t_built, "built_with_bonus_s": t_built_bonus, "first_variant_s": t_first,
                         "read_s": t_read, "read_with_bonus_s": t_read_bonus, "stored_mb": path.stat().st_size / 1e6,
                         "live": built.n_live, "stored_communities": free.n_live})
    result = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
    result["holds"] = len(rows)
    if args.json:
        print(json.dumps(result))
        return
    print(f"{len(rows)} real hold classes, medians per hold, one core:")
    for key, value in result.items():
        print(f"  {key:>20}: {value:.4g}")


if __name__ == "__main__":
    main()
