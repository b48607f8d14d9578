"""Count what a payout-free stage A would save a paytable variant, on real-deck hold classes.

Usage: python scripts/benchmark_variant_structure.py [--holds N] [--leaves N] [--json]

A variant that changes a payout read at or after the fa-hu bet re-solves
stage A. Of each hold's work, only the *columns* (which completions win, per
community: ``holds.hold_columns``) are free of payouts; the walk over dead
sets (``holds.walk``) applies the payouts at every leaf. This measures, on
``--holds`` hold classes spread over the list (one core, warm):

* the seconds per hold of building the columns and of walking them;
* the live communities under the rules' payouts, and under any payouts (every
  community with a winning completion: what a cache shared by all variants
  must keep), and the walk's time over the latter;
* the cache's size per hold (those columns, zlib level 1) and the time to
  read it back;
* at ``--leaves`` random leaves (dead sets) per hold, the share of live
  communities whose ting bet beats folding: what pruning communities at a
  node of the walk could save at most;
* the live communities whose ting decision is the same under every dead set
  (from bounds on W and Wf: dead cards only lower them, each by at most its
  type's column at no dead card): on those the decision's value is linear in
  (weight, W, Wf), so a walk would need only their sums per dead set, which
  inclusion-exclusion over the dead cards gives from per-hold tables; and what
  building such tables would cost: the (community, winning completion) pairs,
  their distinct six-card multisets, and the sub-multisets of at most four
  cards of each, one table update apiece.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import zlib
from dataclasses import replace
from itertools import product
from math import comb

import numpy as np

from solver.game.cards import counts_of
from solver.game.config import DEFAULT_CONFIG
from solver.staged.classes import extensions, group_classes
from solver.staged.holds import HoldColumns, TingConstants, hold_columns, walk

CACHED = ("acount", "w0", "q0", "lin", "pair_level")


def _timed(work, *args):
    start = time.perf_counter()
    result = work(*args)
    return result, time.perf_counter() - start


def _wins(columns: HoldColumns, dead: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """W and Wf of every live community under the dead counts ``dead``, from the pair levels (plainly)."""
    left = columns.pool[:, None] - columns.acount.astype(np.int64) - dead[:, None]
    out = []
    for level in (1, 2):
        v = columns.pair_level == level
        v = v | v.transpose(1, 0, 2)  # the columns keep v(a, b) for a <= b only
        out.append((np.einsum("an,abn,bn->n", left, v, left) - np.einsum("an,aan->n", left, v)) / 2)
    return out[0], out[1]


def _bet_share(columns: HoldColumns, dead_row: np.ndarray, constants: TingConstants) -> float:
    """The share of live communities whose best ting bet beats folding at one leaf (four suited dead cards)."""
    n_suited = len(columns.pool)
    win, flush = _wins(columns, np.bincount(dead_row, minlength=n_suited))
    t2 = comb(int(columns.pool.sum()) - 8, 2)
    z = win * constants.p1 + flush * constants.pf1 - t2
    y = z * np.where(z > 0, constants.m_max, constants.m_min)
    bet = np.zeros(len(win), bool)
    for f, c in zip(constants.fa_bets, constants.c):
        bet |= c * (win + flush) + f * y > 0
    return float(bet.mean())


def _worst_drop(columns: HoldColumns, per_card: np.ndarray) -> np.ndarray:
    """Per live community, the most four dead cards can lower a sum whose drop per dead card of type t is
    at most ``per_card[t]`` (each type as often as the pool left after the community holds it)."""
    room = np.minimum(columns.pool[:, None] - columns.acount.astype(np.int64), 4)
    repeated = np.concatenate([np.where(room > k, per_card, -np.inf) for k in range(4)])
    return np.sort(repeated, axis=0)[::-1][:4].clip(min=0).sum(axis=0)


def _fixed_decisions(columns: HoldColumns, constants: TingConstants, t2_range: tuple[int, int]) -> tuple[int, int]:
    """Live communities that bet the largest G under every dead set (z > 0 throughout), and those that
    bet the smallest G under every dead set for every F (z < 0 and the bet beats folding throughout)."""
    win, flush = columns.q0
    hu_col, flush_col = columns.lin.astype(np.float64)
    z_high = constants.p1 * win + constants.pf1 * flush - t2_range[0]
    z_low = z_high - _worst_drop(columns, constants.p1 * hu_col + constants.pf1 * flush_col) - (
        t2_range[1] - t2_range[0])
    smallest = z_high < 0
    for f, c in zip(constants.fa_bets, constants.c):
        a, b = c + f * constants.m_min * constants.p1, c + f * constants.m_min * constants.pf1
        gain_low = a * win + b * flush - _worst_drop(columns, a * hu_col + b * flush_col) - f * constants.m_min * (
            t2_range[1])
        smallest &= gain_low > 0
    return int((z_low > 0).sum()), int(smallest.sum())


def _table_updates(columns: HoldColumns) -> tuple[int, int, float]:
    """(live community, winning completion type pair) count, their distinct six-card multisets, and the
    mean number of sub-multisets of at most four cards of those (sampled)."""
    upper = np.triu_indices(len(columns.pool))
    a_idx, j_idx = np.nonzero(columns.pair_level[upper[0], upper[1], :] > 0)
    six = columns.acount[:, j_idx].T.astype(np.int64)
    np.add.at(six, (np.arange(len(j_idx)), upper[0][a_idx]), 1)
    np.add.at(six, (np.arange(len(j_idx)), upper[1][a_idx]), 1)
    distinct = np.unique(six, axis=0)
    sample = distinct[np.random.default_rng(0).choice(len(distinct), min(200, len(distinct)), replace=False)]
    subsets = [sum(1 for part in product(*(range(c + 1) for c in row[row > 0])) if sum(part) <= 4)
               for row in sample]
    return len(j_idx), len(distinct), float(np.mean(subsets))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--holds", type=int, default=12)
    parser.add_argument("--leaves", type=int, default=4)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    config, geometry = DEFAULT_CONFIG, DEFAULT_CONFIG.geometry
    rules = TingConstants.of(config)
    # payouts so high that every community with a winning completion may bet: the set all variants share
    any_payouts = TingConstants.of(replace(config, ting_hu=1e6, ting_hu_flush=1e6))
    classes = group_classes(geometry, 4)
    holds = [tuple(int(c) for c in h) for h in classes[:: max(1, len(classes) // args.holds)][: args.holds]]
    walk(hold_columns(counts_of(holds[0], geometry), config, rules), extensions(geometry, holds[0], 4)[:8], config,
         rules)
    rng = np.random.default_rng(0)
    rows = []
    for hold in holds:
        dead = extensions(geometry, hold, 4)
        counts = counts_of(hold, geometry)
        columns, t_columns = _timed(hold_columns, counts, config, rules)
        _, t_walk = _timed(walk, columns, dead, config, rules)
        wide = hold_columns(counts, config, any_payouts)
        _, t_walk_wide = _timed(walk, wide, dead, config, rules)
        raw = [np.ascontiguousarray(getattr(wide, name)).tobytes() for name in CACHED]
        packed = [zlib.compress(b, 1) for b in raw]
        _, t_read = _timed(lambda blobs: [zlib.decompress(b) for b in blobs], packed)
        suited = dead[(dead < geometry.n_suited).all(axis=1)]
        leaves = suited[rng.choice(len(suited), min(args.leaves, len(suited)), replace=False)]
        n_pool = int(columns.pool.sum())
        jokers_left = geometry.jokers_in_play - int(counts[-1])
        t2_range = (comb(n_pool - 8, 2), comb(n_pool - 8 + min(jokers_left, 4), 2))
        largest, smallest = _fixed_decisions(columns, rules, t2_range)
        pairs, sixes, subsets = _table_updates(columns)
        rows.append({"fixed_largest": largest, "fixed_smallest": smallest,
                     "winning_pairs": pairs, "six_card_multisets": sixes, "subsets_per_multiset": subsets,
                     "columns_s": t_columns, "walk_s": t_walk, "walk_any_payouts_s": t_walk_wide,
                     "live": columns.n_live, "live_any_payouts": wide.n_live,
                     "cache_mb": sum(map(len, packed)) / 1e6, "raw_mb": sum(map(len, raw)) / 1e6, "read_s": t_read,
                     "bet_share": statistics.mean(_bet_share(columns, leaf, rules) for leaf in leaves)})
    result = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
    result["holds"] = len(rows)
    result["bet_share_min"] = min(r["bet_share"] for r in rows)
    for key in ("fixed_largest", "fixed_smallest"):  # shares of all the holds' live communities: of the walk's work
        result[key] = sum(r[key] for r in rows) / sum(r["live"] for r in rows)
    if args.json:
        print(json.dumps(result))
        return
    print(f"{len(rows)} hold classes, medians per hold (one core):")
    print(f"  columns {result['columns_s']:.3f} s, walk {result['walk_s']:.3f} s "
          f"(over the columns of any payouts: {result['walk_any_payouts_s']:.3f} s)")
    print(f"  live communities {result['live']:.0f}, under any payouts {result['live_any_payouts']:.0f}")
    print(f"  cache {result['cache_mb']:.2f} MB ({result['raw_mb']:.1f} MB raw), read back in {result['read_s']:.3f} s")
    print(f"  live communities betting at a leaf: {result['bet_share']:.0%} "
          f"(lowest hold {result['bet_share_min']:.0%})")
    fixed = result["fixed_largest"] + result["fixed_smallest"]
    print(f"  live communities whose ting decision no dead set changes: {fixed:.0%} of all the holds' "
          f"(largest G {result['fixed_largest']:.0%}, smallest G {result['fixed_smallest']:.0%})")
    print(f"  tables for their sums: {result['winning_pairs']:,.0f} winning (community, completion) pairs, "
          f"{result['six_card_multisets']:,.0f} six-card multisets, {result['subsets_per_multiset']:.1f} "
          f"sub-multisets each: {result['six_card_multisets'] * result['subsets_per_multiset']:,.0f} updates")


if __name__ == "__main__":
    main()
