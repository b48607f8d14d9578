"""Count the stage-A rows a ting-payout variant would need if its neighbours bounded the rest.

Usage: python scripts/count_prunable_rows.py [--config FILE] [--ting-hu LO,MID,HI] [--root DIR]
                                           [--time-walk N] [--json]
       python scripts/count_prunable_rows.py --from DIR [--vary KEY=V,V,... ...] [--store FOLDER] [--json]

A stage-A row's value (the best fa-hu bet of a hold against its dead cards) is
non-decreasing in ting_hu: every ting bet pays more. So with variants LO < MID <
HI solved, ``V_LO <= V_MID <= V_HI`` row by row, and stage B, which takes each
post-draw state's best hold, needs MID's exact value only of the rows whose
``V_HI`` reaches the state's best ``V_LO`` (or folding): the others cannot be
its best. A walk that skipped the rest would do only that share of its leaves
(at best: the walk's inner nodes stay). This solves the three variants
(``paytable``'s solver, into ``--root``, the column store in its ``cache``
folder, which keeps each post-draw state's stage-A rows) and counts:

* **needed**: rows some post-draw state cannot rule out from the bounds;
* **optimal**: rows that are some state's best at MID (what exact foresight
  would keep: no bound does better).

With ``--time-walk N`` it also times stage A's walk of N hold classes over
every dead set against the needed ones only (the walk takes any sorted subset
of a hold's dead sets, building only the nodes above them), checking that
those rows' values are the same bit for bit.

Seconds on the reduced decks; a real-deck run is three variant solves (the
first fills the column store), then the count.

With ``--from DIR`` it counts instead the rows that one finished solve (the
main solve, say) leaves each variant of the ``--vary`` grid (repeatable, as
``paytable``'s: ting win payouts, multiples, bet sizes), by the bounds a
bounded variant uses (``solver.staged.bounds.needed_keys``: the solve's values
and ting wins, the columns of the communities a variant makes live), and how
long finding them takes (a variant of the fa-hu bets also takes the rows whose
best bet is one of the solve's exactly from it). Nothing is solved; the column store must hold the
post-draw rows (a solve with ``--column-store`` keeps them).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from solver.game.cards import counts_of
from solver.game.config import DEFAULT_CONFIG, GameConfig, load_config
from solver.products.paytable import VariantSolver
from solver.staged.chunks import as_array
from solver.staged.classes import extensions, group_classes
from solver.staged.column_store import store_folder, stored_rows
from solver.staged.holds import TingConstants, hold_columns, walk

FOLD = -1.0  # folding at the fa-hu decision loses T (stage A's values count T and F, not DD)


def _row_values(directory: Path) -> np.ndarray:
    """Each stage-A row's value at its best fa-hu bet."""
    import pyarrow.parquet as pq

    return as_array(pq.read_table(directory / "holds.parquet", columns=["evs"]).column("evs")).max(axis=1)


def _present(holds: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which of each post-draw state's 15 row slots hold a row, and the rows (0 where none)."""
    present = np.arange(rows.shape[1])[None, :] < holds[:, None]
    return present, np.where(present, rows, 0)


def needed_rows(holds: np.ndarray, rows: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Per stage-A row, whether some post-draw state cannot rule it out: its ``high`` reaches the
    state's best ``low`` (or folding)."""
    present, read = _present(holds, rows)
    floor = np.maximum(np.where(present, low[read], -np.inf).max(axis=1), FOLD)
    needed = np.zeros(len(low), bool)
    needed[read[present & (high[read] >= floor[:, None] - 1e-9)]] = True
    return needed


def count(holds: np.ndarray, rows: np.ndarray, low: np.ndarray, mid: np.ndarray, high: np.ndarray) -> dict:
    """The rows (and (state, hold) pairs) the bounds ``low <= mid <= high`` leave, and the rows optimal at ``mid``."""
    present, read = _present(holds, rows)
    floor = np.maximum(np.where(present, low[read], -np.inf).max(axis=1), FOLD)
    pairs_needed = int((present & (high[read] >= floor[:, None] - 1e-9)).sum())
    best = np.maximum(np.where(present, mid[read], -np.inf).max(axis=1), FOLD)
    optimal = np.zeros(len(mid), bool)
    optimal[read[present & (mid[read] >= best[:, None] - 1e-12)]] = True
    return {"rows": len(mid), "needed": int(needed_rows(holds, rows, low, high).sum()),
            "optimal": int(optimal.sum()), "pairs": int(present.sum()), "pairs_needed": pairs_needed}


def time_walks(config: GameConfig, needed: np.ndarray, n_holds: int, repeats: int) -> dict:
    """Stage A's walk of ``n_holds`` hold classes spread over the list, over every dead set and over the
    needed ones only (one core, columns built beforehand), medians per hold; the needed rows' values
    must be the same bit for bit."""
    geometry = config.geometry
    constants = TingConstants.of(config)
    classes = group_classes(geometry, 4)
    starts = np.cumsum([0] + [len(extensions(geometry, tuple(int(c) for c in h), 4)) for h in classes])
    if starts[-1] != len(needed):
        raise SystemExit("the hold classes' dead sets do not add up to stage A's rows")
    picked = range(0, len(classes), max(1, len(classes) // n_holds))
    work = []
    for i in list(picked)[:n_holds]:
        hold = tuple(int(c) for c in classes[i])
        dead = extensions(geometry, hold, 4)
        work.append((hold_columns(counts_of(hold, geometry), config, constants), dead,
                     needed[starts[i]:starts[i + 1]]))
    walk(work[0][0], work[0][1][:8], config, constants)  # compile or load the kernels
    every, some = [], []
    for _ in range(repeats):
        t_every = t_some = 0.0
        for columns, dead, keep in work:
            start = time.perf_counter()
            whole = walk(columns, dead, config, constants)
            middle = time.perf_counter()
            part = walk(columns, np.ascontiguousarray(dead[keep]), config, constants)
            t_every += middle - start
            t_some += time.perf_counter() - middle
            assert np.array_equal(whole[keep], part), "the needed rows' values differ"
        every.append(t_every / len(work))
        some.append(t_some / len(work))
    return {"holds": len(work), "every_s_per_hold": statistics.median(every),
            "needed_s_per_hold": statistics.median(some),
            "needed_share_of_timed": float(np.mean(np.concatenate([k for _, _, k in work])))}


def _stored_draws(own: Path) -> dict:
    """The post-draw rows kept in the store ``own``, or in one of another version of the source (the rows
    depend on the deck alone), the newest first."""
    others = sorted(own.parent.glob(own.name.rsplit("-", 1)[0] + "-*"), key=lambda p: -p.stat().st_mtime)
    stored = next((rows for rows in (stored_rows(f, "draws") for f in [own, *others]) if rows is not None), None)
    if stored is None:
        raise SystemExit(f"no post-draw rows stored under {own.parent}: solve with --column-store there")
    return stored


def count_from_solve(directory: Path, store: Path, chosen: list[tuple[dict, GameConfig]]) -> list[dict]:
    """The rows the solve in ``directory`` leaves each variant ``chosen`` (its payouts, its configuration), and
    the seconds finding them took."""
    import pyarrow.parquet as pq

    from solver.staged.bounds import needed_keys

    stored, found = _stored_draws(store), []
    n_rows = pq.ParquetFile(directory / "holds.parquet").metadata.num_rows
    for payouts, config in chosen:
        start = time.perf_counter()
        keys, exact = needed_keys(config, [directory], stored["holds"], stored["rows"], store)
        found.append({**payouts, "needed": len(keys), "rows": n_rows, "share": len(keys) / n_rows,
                      "exact": len(exact), "seconds": time.perf_counter() - start})
    return found


def _from_solve(args: argparse.Namespace, base: GameConfig) -> None:
    """``--from``: count and print."""
    from solver.products.paytable import parse_values, variants

    grid = {}
    for item in args.vary or ["ting_hu=0.75,1.25,1.5,2,3"]:
        key, _, text = item.partition("=")
        grid[key] = parse_values(key, text)
    store = Path(args.store) if args.store else store_folder(base)
    found = count_from_solve(Path(args.solved), store, variants(base, grid))
    if args.json:
        print(json.dumps(found))
        return
    print(f"stage-A rows each variant needs, bounded by the solve in {args.solved} alone:")
    for row in found:
        exact = f"; {row['exact']:,} more given exactly by the solve (its bets)" if row["exact"] else ""
        payouts = ", ".join(f"{k} = {row[k]}" for k in grid)
        print(f"  {payouts}: {row['needed']:,} of {row['rows']:,} ({row['share']:.3f}){exact}, "
              f"found in {row['seconds']:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", help="TOML configuration (default: the real deck)")
    parser.add_argument("--ting-hu", default="1.25,1.5,1.75", help="LO,MID,HI (default 1.25,1.5,1.75)")
    parser.add_argument("--root", default="count-prunable", help="folder for the variants' tables and the store")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--time-walk", type=int, default=0, metavar="N",
                        help="also time the walk of N hold classes over every dead set and over the needed ones")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--from", dest="solved", metavar="DIR",
                        help="count the rows a finished solve in DIR leaves each variant of --vary")
    parser.add_argument("--vary", action="append", metavar="KEY=V,V,...",
                        help="with --from, repeatable: the grid (default ting_hu=0.75,1.25,1.5,2,3)")
    parser.add_argument("--store", help="the column store (with --from; default: the cache folder's)")
    args = parser.parse_args()
    base = load_config(args.config) if args.config else DEFAULT_CONFIG
    if args.solved:
        _from_solve(args, base)
        return
    values = [float(v) for v in args.ting_hu.split(",")]
    if len(values) != 3 or not values[0] < values[1] < values[2]:
        raise SystemExit("--ting-hu takes three increasing values LO,MID,HI")
    root = Path(args.root)
    solver = VariantSolver(n_jobs=args.jobs, root=root / "tables", column_store=root / "cache")
    configs = [replace(base, ting_hu=v) for v in values]
    for config in configs:
        solver(config)
    stored = _stored_draws(store_folder(base, root / "cache"))
    low, mid, high = (_row_values(solver.directory(c)) for c in configs)
    if not ((low <= mid + 1e-12).all() and (mid <= high + 1e-12).all()):
        raise SystemExit("the rows' values are not monotone in ting_hu: the bounds do not hold")
    result = {"ting_hu": values, **count(stored["holds"], stored["rows"], low, mid, high)}
    if args.time_walk:
        needed = needed_rows(stored["holds"], stored["rows"], low, high)
        result["walk"] = time_walks(configs[1], needed, args.time_walk, args.repeats)
    if args.json:
        print(json.dumps(result))
        return
    print(f"ting_hu {values[0]:g} < {values[1]:g} < {values[2]:g}: {result['rows']:,} stage-A rows")
    print(f"  needed at {values[1]:g} (not ruled out by the bounds): {result['needed']:,} "
          f"({result['needed'] / result['rows']:.3f}); (state, hold) pairs {result['pairs_needed']:,} of "
          f"{result['pairs']:,} ({result['pairs_needed'] / result['pairs']:.3f})")
    print(f"  optimal somewhere at {values[1]:g}: {result['optimal']:,} ({result['optimal'] / result['rows']:.3f})")
    if "walk" in result:
        w = result["walk"]
        print(f"  the walk of {w['holds']} hold classes (one core, medians of {args.repeats}): every dead set "
              f"{w['every_s_per_hold']:.4f} s per hold, the needed ones ({w['needed_share_of_timed']:.3f} of "
              f"theirs) {w['needed_s_per_hold']:.4f} s ({w['needed_s_per_hold'] / w['every_s_per_hold']:.2f}); "
              f"their values the same bit for bit")


if __name__ == "__main__":
    main()
