"""Time the kernels of stages B and C on real-deck states, warm, and print the medians: looking each row
up (a solve's own) and gathering values from rows kept (a variant reading the column store).

Usage: python scripts/benchmark_later_stages.py --tables DIR [--hands N] [--holds N] [--repeats N] [--json]

``DIR`` is a solved real-deck table directory (``mahjong-poker solve``):
stage B looks each hold of a post-draw state up among its stage-A keys
(``holds.parquet``, 25 million), stage C each draw of a first hold among
the post-draw keys of ``draws.parquet`` (the states optimal play reaches,
not every class: the lookups cost about the same). Stage B runs on the
post-draw classes of ``--hands`` six-card classes from the middle of their
list (400: about 119,000 states), stage C on the thrown-card classes of
``--holds`` four-card classes (microseconds per state, or per first hold).
Looking rows up is keying states canonically and searching sorted keys; a variant that reads the rows
from the column store only gathers the values.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

from solver.game.config import DEFAULT_CONFIG
from solver.game.symmetry_kernels import pattern_powers
from solver.staged.classes import extensions, group_classes
from solver.staged.stages import _draw_values, _first_rows, _first_values, state_holds


def _states(k: int, second: int, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows (group of ``k`` cards, ``second`` more) of the classes of ``count`` canonical k-card groups
    from the middle of their list."""
    geometry = DEFAULT_CONFIG.geometry
    classes = group_classes(geometry, k)
    groups = classes[len(classes) // 2: len(classes) // 2 + count]
    more = [extensions(geometry, tuple(int(c) for c in g), second) for g in groups]
    return np.repeat(groups, [len(m) for m in more], axis=0).astype(np.int64), np.concatenate(more)


def _median_us(call, n: int, repeats: int) -> float:
    call()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) / n * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", required=True, type=Path)
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--holds", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    config = DEFAULT_CONFIG
    geometry = config.geometry
    powers = pattern_powers(geometry)
    a_keys = pq.read_table(args.tables / "holds.parquet", columns=["key"])["key"].to_numpy()
    a_values = np.zeros((len(a_keys), 3))  # as wide as the solve's: two bets and the minimum-bets value
    bets = np.arange(2, dtype=np.int64)
    hands, deads = _states(6, 2, args.hands)
    n = len(hands)
    held = state_holds(hands, deads, a_keys, geometry, cards=False)
    rows_b, n_holds = held.rows.astype(np.int32), held.n_holds.astype(np.int8)
    out_b = np.empty(n), np.empty(n, np.int16)

    def stage_b_keyed() -> None:
        looked_up = state_holds(hands, deads, a_keys, geometry, cards=False)
        _draw_values(looked_up.rows.astype(np.int32), looked_up.n_holds.astype(np.int8), a_values, bets, *out_b)

    stage_b = _median_us(stage_b_keyed, n, args.repeats)
    stage_b_rows = _median_us(lambda: _draw_values(rows_b, n_holds, a_values, bets, *out_b), n,
                              args.repeats)
    b_keys = np.sort(pq.read_table(args.tables / "draws.parquet", columns=["key"])["key"].to_numpy())
    b_level, b_play_on = np.zeros(len(b_keys), np.int8), np.zeros(len(b_keys))
    holds, thrown = _states(4, 2, args.holds)
    full = geometry.full_counts()
    n_types = geometry.n_types
    rows_c = np.empty((len(holds), n_types * (n_types + 1) // 2), np.int32)
    out_c = np.empty((len(holds), 2))

    def stage_c_values() -> None:
        _first_values(holds, thrown, full, rows_c, b_level, b_play_on, config.double_down, config.di_hu,
                      config.di_hu_flush, out_c)

    def stage_c_keyed() -> None:
        _first_rows(holds, thrown, full, b_keys, geometry.suits, geometry.ranks, powers, rows_c)
        stage_c_values()

    stage_c = _median_us(stage_c_keyed, len(holds), args.repeats)
    stage_c_rows = _median_us(stage_c_values, len(holds), args.repeats)
    result = {"stage_b_states": n, "stage_b_us_per_state": stage_b, "stage_b_us_per_state_from_rows": stage_b_rows,
              "stage_c_holds": len(holds), "stage_c_us_per_hold": stage_c,
              "stage_c_us_per_hold_from_rows": stage_c_rows}
    if args.json:
        print(json.dumps(result))
        return
    print(f"stage B: {n} post-draw states, {stage_b:.2f} us each looked up, {stage_b_rows:.3f} from rows; "
          f"stage C: {len(holds)} first holds, {stage_c:.1f} us each looked up, {stage_c_rows:.1f} from rows "
          f"(medians of {args.repeats})")


if __name__ == "__main__":
    main()
