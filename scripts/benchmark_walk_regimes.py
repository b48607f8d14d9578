"""Count, at stage A's last nodes, how many (leaf, live community) pairs a linear leaf could take.

Usage: python scripts/benchmark_walk_regimes.py [--holds N] [--ting-hu X] [--json]

Stage A's walk values each leaf (a hold's four suited dead cards) by one pass
over the live communities, taking the ting maximum of each (``holds._leaf_values``).
A community's *regime* at a leaf is which of its options win: the sign of z (the
largest or the smallest ting multiple), and for each fa-hu bet and for the
minimum bets whether betting beats folding. Where a community's regime is the
same at every leaf below a node of the walk (its first three dead cards), its
value at those leaves is linear in (weight, W, Wf): a walk could sum such
communities per leaf with a few multiply-adds instead of the maximum, if it
could tell them from the others without a pass of its own. This counts, on
``--holds`` real hold classes spread over the list:

* **fixed**: pairs whose community's regime is the same at every leaf of its
  node (exactly, computing every leaf);
* **fixed, betting**: of those, the ones that bet at every leaf (two regimes,
  by the sign of z: the only ones with one set of coefficients each);
* **fixed by the bound**: pairs a node can prove fixed without visiting its
  leaves, from W and Wf at the node and each community's largest column at no
  dead card (dead cards only lower W and Wf, each by at most that column);
* **card in the community**: pairs whose community holds the leaf's last dead
  card, so whose weight changes at the leaf.

Plain numpy, one core; minutes per hold class.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace

import numpy as np

from solver.game.cards import counts_of
from solver.game.config import DEFAULT_CONFIG, GameConfig
from solver.staged.classes import extensions, group_classes
from solver.staged.holds import HoldColumns, TingConstants, hold_columns

COUNTS = ("pairs", "fixed", "fixed_betting", "fixed_by_bound", "card_in_community")


def _regimes(win: np.ndarray, flush: np.ndarray, t2: float, k: TingConstants) -> np.ndarray:
    """Each community's regime under W = ``win``, Wf = ``flush`` as a small integer (see the module notes)."""
    u = win + flush
    z = win * k.p1 + flush * k.pf1 - t2
    y = z * np.where(z > 0, k.m_max, k.m_min)
    regime = (z > 0).astype(np.int64) << 3
    regime |= (k.c[0] * u + k.fa_bets[0] * y > 0).astype(np.int64) << 2
    regime |= (k.c[1] * u + k.fa_bets[1] * y > 0).astype(np.int64) << 1
    regime |= (k.c[0] * u + k.fa_bets[0] * k.m_min * z > 0).astype(np.int64)
    return regime


def _node(columns: HoldColumns, prefix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """W and Wf of every live community after the dead cards ``prefix``, and the columns L_t then."""
    win_flush = columns.q0.copy()
    lin = columns.lin.astype(np.int64)
    for card in prefix:
        win_flush -= lin[:, card]
        level = columns.pair_level[card]  # v(card, t) for t >= card only: every leaf's card comes after the prefix
        lin[0] -= level == 1
        lin[1] -= level == 2
    return win_flush, lin


def _hold_counts(hold: tuple[int, ...], config: GameConfig, k: TingConstants) -> dict[str, int]:
    """The counts of one hold class, over its dead sets of four suited cards."""
    geometry = config.geometry
    columns = hold_columns(counts_of(hold, geometry), config, k)
    dead = extensions(geometry, hold, 4)
    dead = dead[(dead < geometry.n_suited).all(axis=1)]
    left = int(columns.pool.sum()) - 4
    t2 = (left - 4) * (left - 5) / 2.0
    largest = columns.lin.max(axis=1).astype(np.float64)
    counts = dict.fromkeys(COUNTS, 0)
    for prefix in np.unique(dead[:, :3], axis=0):
        leaves = dead[(dead[:, :3] == prefix).all(axis=1), 3]
        (win, flush), lin = _node(columns, prefix)
        regimes = np.array([_regimes(win - lin[0, e], flush - lin[1, e], t2, k) for e in leaves])
        fixed = (regimes == regimes[0]).all(axis=0)
        bound = _regimes(win - largest[0], flush - largest[1], t2, k) == _regimes(win, flush, t2, k)
        counts["pairs"] += regimes.size
        counts["fixed"] += int(fixed.sum()) * len(leaves)
        counts["fixed_betting"] += int((fixed & ((regimes[0] & 7) == 7)).sum()) * len(leaves)
        counts["fixed_by_bound"] += int(bound.sum()) * len(leaves)
        counts["card_in_community"] += int((columns.acount[leaves] > 0).sum())
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--holds", type=int, default=4)
    parser.add_argument("--ting-hu", type=float, default=None, help="the ting-hu payout (default: the rules')")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    config = DEFAULT_CONFIG if args.ting_hu is None else replace(DEFAULT_CONFIG, ting_hu=args.ting_hu)
    k = TingConstants.of(config)
    classes = group_classes(config.geometry, 4)
    holds = [tuple(int(c) for c in h) for h in classes[:: len(classes) // args.holds][: args.holds]]
    total = dict.fromkeys(COUNTS, 0)
    for hold in holds:
        for name, value in _hold_counts(hold, config, k).items():
            total[name] += value
    shares = {name: total[name] / total["pairs"] for name in COUNTS[1:]}
    if args.json:
        print(json.dumps({"holds": len(holds), "pairs": total["pairs"], **shares}))
        return
    print(f"{len(holds)} hold classes, {total['pairs']:,} (leaf, live community) pairs; shares:")
    for name, share in shares.items():
        print(f"  {name:18s} {share:.3f}")


if __name__ == "__main__":
    main()
