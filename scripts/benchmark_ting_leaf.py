"""Time stage A's leaf (the ting maximum over a hold's live communities) against two redesigns of it.

Usage: python scripts/benchmark_ting_leaf.py [--holds N] [--calls N] [--registers] [--json]

The walk spends most of its time in one loop per dead set: for every live
community, its weight, W and Wf under the dead cards, then the best ting
decision of each fa-hu bet (``solver.staged.holds._leaf_values``). This
script times that loop on the real columns of real hold classes (the leaf
of each dead card type under an empty parent, every ``--holds``-th class),
in nanoseconds per live community, against:

* **the same leaf, plain and in single precision**: without the bonus
  and the fourth dead card's pair correction, in float64 and in float32 (exact for the
  rules' payouts: every product stays below 2^24 half-units), each
  product summed in double;
* **several ting payouts per pass**: one pass computes each community's
  weight, W and Wf once, then K loops apply K ting-hu payouts (what a
  paytable of K ting variants sharing one walk would do); per variant.

Both are prototypes here, not in the solve: see docs/performance.md for
what they measured and why neither was built. ``--registers`` also prints,
for the plain leaf in each precision, how many of its compiled instructions
name 128-, 256- and 512-bit registers (xmm, ymm, zmm): the vector width the
compiler chose for it.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from collections import Counter

import numba
import numpy as np

from solver.game.cards import counts_of
from solver.game.config import DEFAULT_CONFIG
from solver.staged.classes import group_classes
from solver.staged.holds import TingConstants, _leaf_values, hold_columns

_FAST = {"reassoc", "contract"}


@numba.njit(fastmath=_FAST)
def _leaf_plain(w_par, q_par, lin_hu, lin_flush, a_col, inv_n, t2, p1, pf1, m_min, m_max, c0, f0, c1, f1):
    """``_leaf_values`` without bonus or the pair correction of a fourth dead card, in the precision of its
    inputs, products summed in double."""
    acc0 = 0.0
    acc1 = 0.0
    acc_min = 0.0
    zero = t2 - t2
    for i in range(w_par.shape[0]):
        w = np.rint(w_par[i] - w_par[i] * a_col[i] * inv_n)
        win = q_par[0, i] - lin_hu[i]
        flush = q_par[1, i] - lin_flush[i]
        u = win + flush
        z = win * p1 + flush * pf1 - t2
        y = z * (m_max if z > zero else m_min)
        acc0 += np.float64(w * max(c0 * u + f0 * y, zero))
        acc1 += np.float64(w * max(c1 * u + f1 * y, zero))
        acc_min += np.float64(w * max(c0 * u + f0 * m_min * z, zero))
    return acc0, acc1, acc_min


@numba.njit(fastmath=_FAST)
def _leaf_variants(w_par, q_par, lin_hu, lin_flush, a_col, inv_n, t2, p1, pf1, m_min, m_max, c0, f0, c1, f1, buf,
                   out):
    """The leaf for K ting payouts (``p1[k]``, ``pf1[k]``): weight, W and Wf once into ``buf``, then one
    loop per payout; ``out[k]``: its three sums."""
    n = w_par.shape[0]
    for i in range(n):
        buf[0, i] = np.rint(w_par[i] - w_par[i] * a_col[i] * inv_n)
        buf[1, i] = q_par[0, i] - lin_hu[i]
        buf[2, i] = q_par[1, i] - lin_flush[i]
    for k in range(p1.shape[0]):
        acc0 = 0.0
        acc1 = 0.0
        acc_min = 0.0
        for i in range(n):
            w = buf[0, i]
            win = buf[1, i]
            flush = buf[2, i]
            u = win + flush
            z = win * p1[k] + flush * pf1[k] - t2
            y = z * (m_max if z > 0.0 else m_min)
            acc0 += w * max(c0 * u + f0 * y, 0.0)
            acc1 += w * max(c1 * u + f1 * y, 0.0)
            acc_min += w * max(c0 * u + f0 * m_min * z, 0.0)
        out[k, 0] = acc0
        out[k, 1] = acc1
        out[k, 2] = acc_min


def _time(leaf, arguments: tuple, calls: int, n_live: int) -> float:
    """Nanoseconds per live community of ``calls`` calls of ``leaf`` (after one warm-up call)."""
    leaf(*arguments)
    start = time.perf_counter()
    for _ in range(calls):
        leaf(*arguments)
    return (time.perf_counter() - start) / calls / n_live * 1e9


def _hold_times(hold: tuple[int, ...], constants: TingConstants, ks: tuple[int, ...], calls: int) -> dict[str, float]:
    """The three leaves' times on one hold: the leaf of its most plentiful card type under no other dead card."""
    config = DEFAULT_CONFIG
    col = hold_columns(counts_of(hold, config.geometry), config, constants)
    n = col.n_live
    e = int(np.argmax(col.pool))
    left = int(col.pool.sum()) - 1
    t2 = float((left - 4) * (left - 5) // 2)
    a_col, inv_n, lin_hu, lin_flush = col.acount[e], 1.0 / col.pool[e], col.lin[0, e], col.lin[1, e]
    bets = (constants.c[0], constants.fa_bets[0], constants.c[1], constants.fa_bets[1])
    none = np.zeros(0)
    times = {"product": _time(_leaf_values, (
        col.w0, col.q0, none, lin_hu, lin_flush, none, np.zeros(n, np.int8), np.zeros(0, np.float32), a_col, inv_n,
        False, False, t2, constants.p1, constants.pf1, constants.m_min, constants.m_max, (bets[0], bets[2]) * 2,
        (bets[1], bets[3]) * 2, 0.0), calls, n)}
    for name, real in (("double", np.float64), ("single", np.float32)):
        times[name] = _time(_leaf_plain, (
            col.w0.astype(real), col.q0.astype(real), lin_hu.astype(real), lin_flush.astype(real), a_col,
            *(real(v) for v in (inv_n, t2, constants.p1, constants.pf1, constants.m_min, constants.m_max, *bets))),
            calls, n)
    for k in ks:
        p1 = np.linspace(constants.p1, constants.p1 + 1.0, k)
        times[f"variants_{k}"] = _time(_leaf_variants, (
            col.w0, col.q0, lin_hu, lin_flush, a_col, inv_n, t2, p1, p1 + 0.5, constants.m_min, constants.m_max,
            *bets, np.empty((3, n)), np.empty((k, 3))), calls, n) / k
    return times


def _registers() -> dict[str, dict[str, int]]:
    """Per precision of the plain leaf compiled above: register names in its assembly, by width."""
    found = {}
    for signature, assembly in _leaf_plain.inspect_asm().items():
        widths = Counter(re.findall(r"%([xyz]mm)\d+", assembly))
        found[str(signature[0].dtype)] = {name: widths[name] for name in ("xmm", "ymm", "zmm")}
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--holds", type=int, default=6)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--registers", action="store_true", help="also count the plain leaf's vector registers")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    constants = TingConstants.of(DEFAULT_CONFIG)
    classes = group_classes(DEFAULT_CONFIG.geometry, 4)
    holds = [tuple(int(c) for c in h) for h in classes[:: max(1, len(classes) // args.holds)][: args.holds]]
    per_hold = [_hold_times(hold, constants, (1, 2, 4, 8), args.calls) for hold in holds]
    result: dict = {name: statistics.median(t[name] for t in per_hold) for name in per_hold[0]}
    if args.registers:
        result["registers"] = _registers()
    if args.json:
        print(json.dumps(result))
        return
    print(f"{len(holds)} holds, ns per live community (per variant for variants_K), medians:")
    for name, value in result.items():
        if name != "registers":
            print(f"  {name:12s} {value:.3f}")
    for precision, widths in result.get("registers", {}).items():
        print(f"  {precision} leaf: " + ", ".join(f"{count} {name}" for name, count in widths.items()))


if __name__ == "__main__":
    main()
