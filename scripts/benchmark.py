"""The project's benchmarks, one named case each: what docs/performance.md reports and how to measure it again.

    python scripts/benchmark.py CASE [options]        # python scripts/benchmark.py CASE --help for its options

Cases (the real deck unless a case takes ``--config``; numba's compiled kernels come from its on-disk
cache, so run a case twice after changing the source: the first run compiles):

  solve             a whole solve from scratch: wall clock per stage, peak memory of all its processes
  hold-kernel       stage A's kernels (a hold's columns, the walk over its dead sets), or the tracking walk
  evaluator-kernel  the evaluator's hold kernel (``fa_values``), alone and for four removal cases
  evaluator         the evaluator per stage, cold and warm, and whole ``mahjong-poker best`` commands
  tables            what a solve's tables serve: ``best --tables`` queries and the simulator's rate
  later-stages      stages B and C's kernels: rows looked up (a solve) and gathered from stored rows (a variant)
  column-store      a hold's columns built, stored, and read back from the column store
  walk-together     several ting-payout variants' stage A walked together against each alone
  bounded-rows      the stage-A rows a finished solve leaves each paytable variant to walk
  regimes           what a walk of only the communities away from their usual ting decision would walk
  table-write       writing and reading a large table, floating-point columns byte-stream-split or not
  chunk-rows        stage B's rows passed through a stage's chunks: a parquet list column, or .npy files beside
  chart             the strategy chart's two lists: time, peak memory, loss and floor

Machines are noisy: compare versions in alternating runs within minutes, and report medians.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def _timed(work: Callable, *args, **kwargs) -> tuple[object, float]:
    start = time.perf_counter()
    result = work(*args, **kwargs)
    return result, time.perf_counter() - start


def _spread_holds(geometry, count: int) -> list[tuple[int, ...]]:
    """``count`` hold classes spread over the list of four-card classes (every ``len // count``-th)."""
    from solver.staged.classes import group_classes

    classes = group_classes(geometry, 4)
    return [tuple(int(c) for c in h) for h in classes[:: max(1, len(classes) // count)][:count]]


# ---------------------------------------------------------------------------------------------------------
# solve


def _tree_rss_mb(root: int) -> float:
    """Resident memory of ``root`` and its descendants, from /proc (Linux)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            parents[int(entry)] = int(fields[1])
            rss[int(entry)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError, ValueError):
            continue
    tree, frontier = {root}, [root]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in tree:
                tree.add(pid)
                frontier.append(pid)
    return sum(rss.get(pid, 0) for pid in tree) / 2**20


def _one_solve(config_path: str | None, jobs: int) -> dict:
    from solver.game.config import load_config
    from solver.staged.run import solve

    config = load_config(config_path)
    peak = [0.0]
    running = [True]

    def sample() -> None:
        while running[0]:
            peak[0] = max(peak[0], _tree_rss_mb(os.getpid()))
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    with tempfile.TemporaryDirectory() as directory:
        start = time.perf_counter()
        summary = solve(config, Path(directory) / "t", n_jobs=jobs, quiet=True)
        seconds = time.perf_counter() - start
        stages = json.loads((Path(directory) / "t" / "summary.json").read_text())["stage_seconds"]
    running[0] = False
    sampler.join()
    return {"seconds": seconds, "stages": stages, "peak_rss_mb": peak[0], "ev_exact": str(summary.ev_exact),
            "house_edge": summary.house_edge, "deal_classes": summary.deal_classes}


def case_solve(args: argparse.Namespace) -> None:
    """Solves from scratch in a temporary directory and prints the median wall clock of each stage over the
    repeats, the peak resident memory of the solve's processes together (the parent and its workers, sampled
    every 0.2 s from /proc), the exact EV and the machine. The real deck takes 4-8 minutes on 2 cores."""
    runs = [_one_solve(args.config, args.jobs) for _ in range(args.repeats)]
    stages = {name: statistics.median(r["stages"][name] for r in runs) for name in runs[0]["stages"]}
    print(json.dumps({"machine": machine(), "config": args.config or "real deck", "jobs": args.jobs,
                      "repeats": args.repeats, "median_seconds": statistics.median(r["seconds"] for r in runs),
                      "median_stage_seconds": stages, "peak_rss_mb": max(r["peak_rss_mb"] for r in runs),
                      "ev_exact": runs[0]["ev_exact"], "house_edge": runs[0]["house_edge"],
                      "all_seconds": [r["seconds"] for r in runs]}, indent=2))


# ---------------------------------------------------------------------------------------------------------
# hold-kernel


def _sample(dead: np.ndarray, density: float, seed: int) -> np.ndarray:
    """A random share ``density`` of the rows of ``dead``, in their order (the walk needs them sorted)."""
    if density >= 1.0:
        return dead
    keep = np.random.default_rng(seed).random(len(dead)) < density
    return dead[keep]


def case_hold_kernel(args: argparse.Namespace) -> None:
    """Stage A's kernels on ``--holds`` hold classes spread over the list (the first hold of each), one core,
    warm: each hold's columns built (``hold_columns``) and walked over all its dead sets (``walk``), medians
    per hold and per (dead set, live community). ``--tracking`` walks as the forward count does instead
    (the columns with the bonus net's, every dead set's outcome counts at the first fa-hu bet);
    ``--density D`` walks a random share D of each hold's dead sets (the same ones in every run), as a
    bounded variant's stage A and the tracking walk do; ``--above-fold`` leaves out the rows that an upper
    bound puts below folding, as a solve does (the share it leaves out is printed); ``--config`` names other
    payouts of the real deck (more fa-hu bets, say); ``--save FILE`` writes the values (.npy), to compare two
    versions bit for bit."""
    from solver.game.cards import counts_of
    from solver.game.config import DEFAULT_CONFIG, load_config
    from solver.game.payouts import TingConstants
    from solver.staged.bounds import FOLD
    from solver.staged.classes import extensions
    from solver.staged.holds import HoldColumns, hold_columns, walk, walk_above, with_bonus_columns

    config = load_config(args.config) if args.config else DEFAULT_CONFIG
    geometry = config.geometry
    constants = TingConstants.of(config)
    holds = _spread_holds(geometry, args.holds)
    deads = [_sample(extensions(geometry, h, 4), args.density, seed) for seed, h in enumerate(holds)]

    def columns_of(hold: tuple[int, ...]) -> HoldColumns:
        columns = hold_columns(counts_of(hold, geometry), config, constants)
        return with_bonus_columns(columns, config) if args.tracking else columns

    left_out = []

    def walked_values(columns: HoldColumns, dead: np.ndarray) -> np.ndarray:
        if args.above_fold:
            values, below = walk_above(columns, dead, config, constants, FOLD)
            left_out.append(below.mean())
            return values
        if not args.tracking:
            return walk(columns, dead, config, constants)
        first_bet = np.zeros(len(dead), np.int64)
        return walk(columns, dead, config, constants, track_bet=first_bet, track_min=np.zeros(len(dead), bool))

    walked_values(columns_of(holds[0]), deads[0])
    build, walked, per_community, values = [], [], [], []
    for _ in range(args.repeats):
        t_build = t_walk = 0.0
        leaves = 0
        values = []
        for hold, dead in zip(holds, deads):
            start = time.perf_counter()
            columns = columns_of(hold)
            middle = time.perf_counter()
            values.append(walked_values(columns, dead))
            t_build += middle - start
            t_walk += time.perf_counter() - middle
            leaves += len(dead) * columns.n_live
        build.append(t_build / len(holds))
        walked.append(t_walk / len(holds))
        per_community.append(t_walk / leaves * 1e9)
    if args.save:
        np.save(args.save, np.concatenate(values))
    result = {"holds": len(holds), "tracking": args.tracking, "density": args.density,
              "columns_s_per_hold": statistics.median(build), "walk_s_per_hold": statistics.median(walked),
              "walk_ns_per_community": statistics.median(per_community)}
    if args.above_fold:
        result["rows_left_out"] = float(np.mean(left_out[-len(holds):]))
    print(json.dumps(result) if args.json else f"{len(holds)} holds: columns {result['columns_s_per_hold']:.4f} s, "
          f"walk {result['walk_s_per_hold']:.4f} s per hold, {result['walk_ns_per_community']:.3f} ns per (dead set, "
          f"live community) (medians of {args.repeats})" + (
              f"; {result['rows_left_out']:.1%} of each hold's rows left out below folding, on average"
              if args.above_fold else ""))


# ---------------------------------------------------------------------------------------------------------
# evaluator-kernel


def case_evaluator_kernel(args: argparse.Namespace) -> None:
    """The evaluator's hold kernel on ``--holds`` random (hold, dead cards) states of the real deck, one
    core, warm: each valued once alone (``fa_values``) and once for four removal cases in one pass
    (``fa_values_removing``, as the deal stage does); the median seconds per round. ``--save FILE`` writes
    the values, also with a bonus bet and counting outcomes, to compare two versions bit for bit."""
    from solver.evaluator.hold import fa_values, fa_values_removing, track_size
    from solver.game.cards import counts_of
    from solver.game.config import DEFAULT_CONFIG
    from solver.game.state import unseen_suited

    geometry = DEFAULT_CONFIG.geometry
    rng = np.random.default_rng(1)
    states = []
    for _ in range(args.holds):
        cards = [int(c) for c in rng.choice(geometry.cards(), 8, replace=False)]
        hold, dead = tuple(sorted(cards[:4])), tuple(cards[4:])
        states.append((counts_of(hold, geometry), unseen_suited(hold + dead, DEFAULT_CONFIG)))
    removals = [(), (1,), (2, 5), (0, 0)]
    fa_values(*states[0], DEFAULT_CONFIG)
    fa_values_removing(states[0][0], states[0][1], removals, DEFAULT_CONFIG)
    times = []
    values: list[np.ndarray] = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        values = []
        for hold, unseen in states:
            values.append(fa_values(hold, unseen, DEFAULT_CONFIG))
            values.append(fa_values_removing(hold, unseen, removals, DEFAULT_CONFIG).ravel())
        times.append(time.perf_counter() - start)
    if args.save:
        for hold, unseen in states:  # the kernel's other two modes: a bonus bet, and the second bet's outcomes
            values.append(fa_values(hold, unseen, DEFAULT_CONFIG, bonus_bet=2.0))
            tracked = np.zeros(track_size(len(DEFAULT_CONFIG.ting_hu_multiples)))
            values.append(fa_values(hold, unseen, DEFAULT_CONFIG, track=1, tracked=tracked))
            values.append(tracked)
        np.save(args.save, np.concatenate(values))
    result = {"holds": args.holds, "repeats": args.repeats, "median_s": statistics.median(times),
              "per_hold_ms": 1000 * statistics.median(times) / args.holds}
    print(json.dumps(result) if args.json else
          f"{args.holds} holds, median {result['median_s']:.3f} s per round ({result['per_hold_ms']:.1f} ms per hold)")


# ---------------------------------------------------------------------------------------------------------
# evaluator

EVALUATOR_STATES = {
    "ting": "State(Stage.TING, P('11m 23p'), P('57s 9m 9p'), P('4s 6s 8p 9s'), fa_bet=1.0)",
    "draw": "State(Stage.DRAW, P('11m 23p 57s'), P('9m 9p'))",
    "deal": "State(Stage.DEAL, P('11m 23p 57s'))",
}

BEST_QUERIES = {
    "best, ting": ["11m 23p", "--dead", "57s 8m 6s", "--community", "3m 8p 4s 9s", "--fa", "1"],
    "best, ting, joker in hand": ["11m 2p J", "--dead", "57s 8m 6s", "--community", "3m 8p 4s 9s", "--fa", "1"],
    "best, ting, bonus bet": ["11m 23p", "--dead", "57s 8m 6s", "--community", "3m 8p 4s 9s", "--fa", "1",
                              "--bonus", "1"],
    "best, draw": ["11m 23p 8m 6s", "--dead", "57s"],
}

EVALUATOR_SETUP = """
import time
t0 = time.perf_counter()
from solver.game.cards import parse_cards
from solver.game.config import DEFAULT_CONFIG
from solver.evaluator.api import Stage, State, evaluate
P = lambda text: parse_cards(text, DEFAULT_CONFIG.geometry)
"""


def _python(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout


def _deal_parts() -> dict:
    """Kernel time on one core of the benchmark deal's (hold, draw) values, by kind of hold, each bounded
    against the values known before it as the deal stage does (``values``: those valued)."""
    from solver.evaluator.deal import _drawn, _jobs, _limits, _phases, _value_bounded
    from solver.game.cards import parse_cards
    from solver.game.combinatorics import multisets, submultisets
    from solver.game.config import DEFAULT_CONFIG as config

    geometry = config.geometry
    hand = tuple(sorted(parse_cards("11m 23p 57s", geometry)))
    rows, _ = multisets(geometry.full_counts() - np.bincount(hand, minlength=geometry.n_types), 2)
    draws = [tuple(int(t) for t in np.repeat(np.arange(geometry.n_types), row)) for row in rows]
    jobs = _jobs(hand, draws, config)
    _value_bounded(jobs[:1], [[np.full(len(ns), -np.inf) for ns in jobs[0].draws]], config)  # load the kernels
    values_by_hold: list[dict] = [{} for _ in draws]
    parts: dict[str, dict] = {}
    for phase in _phases(jobs):  # the rounds the deal stage runs
        limits = _limits(hand, draws, phase, values_by_hold, submultisets(hand, 2))
        for k, job in enumerate(phase):
            drawn = len(_drawn(job.holds[0], hand))
            name = ("four dealt cards", "three dealt cards and one drawn", "two dealt cards and both drawn")[drawn]
            start = time.perf_counter()
            values = _value_bounded([job], limits[k:k + 1], config)[0]
            part = parts.setdefault(name, {"passes": 0, "values": 0, "seconds": 0.0})
            part["seconds"] += time.perf_counter() - start
            part["passes"] += len(job.holds)
            for (hold, n), value in zip(job.pairs, values):
                if value is not None:
                    values_by_hold[n][hold] = value
                    part["values"] += 1
    return parts


def case_evaluator(args: argparse.Namespace) -> None:
    """The exact evaluator per stage, medians: cold (a fresh process imports the package and evaluates one
    state: numba's on-disk cache loaded, per-geometry tables built) and warm (the same process evaluates
    again); then whole ``mahjong-poker best`` commands, process start included, for ting queries (which run
    the kernels as plain Python) and a draw query. The deal stage takes about 7 s on 2 cores, so it runs
    only with ``--deal`` (once, cold, two processes; ``--bonus B`` also with a bonus bet of B).
    ``--deal-parts`` only times the deal stage's kernel work on one core by kind of hold (four dealt cards,
    three and one drawn, two and both drawn)."""
    if args.deal_parts:
        print(json.dumps(_deal_parts(), indent=2))
        return
    results: dict = {"machine": machine()}
    for stage in ("ting", "draw"):
        colds = [float(_python(EVALUATOR_SETUP + f"evaluate({EVALUATOR_STATES[stage]})\n"
                               "print(time.perf_counter() - t0)\n")) for _ in range(args.repeats)]
        warms = [float(x) for x in _python(EVALUATOR_SETUP + (
            f"state = {EVALUATOR_STATES[stage]}\nevaluate(state)\n"
            f"for _ in range({args.repeats}):\n"
            "    t = time.perf_counter(); evaluate(state); print(time.perf_counter() - t)\n")).split()]
        results[stage] = {"cold_median_s": statistics.median(colds), "warm_median_s": statistics.median(warms)}
    if args.deal:
        code = EVALUATOR_SETUP + f"evaluate({EVALUATOR_STATES['deal']}, n_jobs=2)\nprint(time.perf_counter() - t0)\n"
        results["deal"] = {"cold_jobs2_s": float(_python(code))}
        if args.bonus > 0:
            state = EVALUATOR_STATES["deal"].replace(")", f"), bonus={args.bonus}", 1)
            code = EVALUATOR_SETUP + f"evaluate({state}, n_jobs=2)\nprint(time.perf_counter() - t0)\n"
            results[f"deal, bonus bet {args.bonus:g}"] = {"cold_jobs2_s": float(_python(code))}

    def command(query: list[str]) -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "solver.cli", "best", *query], capture_output=True, check=True)
        return time.perf_counter() - start

    for name, query in BEST_QUERIES.items():
        command(query)  # warm the file cache
        results[name] = {"command_median_s": statistics.median(command(query) for _ in range(args.repeats))}
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(f"machine: {results['machine']}")
    for stage in ("ting", "draw", "deal", f"deal, bonus bet {args.bonus:g}", *BEST_QUERIES):
        if stage in results:
            print(stage, ", ".join(f"{k} = {v:.4f}" for k, v in results[stage].items()))


# ---------------------------------------------------------------------------------------------------------
# tables


def case_tables(args: argparse.Namespace) -> None:
    """What a solve's tables serve, medians over ``--repeats`` runs: the wall clock of a whole
    ``mahjong-poker best --tables`` process (start-up included) for a deal and a draw query (the middle
    row of each table), and the simulator's hands per second on all cores and on one (a fresh process each
    time; loading the strategy is not counted)."""
    import pyarrow.parquet as pq

    def wall(command: list[str]) -> float:
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        return time.perf_counter() - start

    cli = [sys.executable, "-m", "solver.cli"]
    config = ["--config", args.config] if args.config else []
    deals = pq.read_table(f"{args.tables}/deals.parquet", columns=["hand"])
    draws = pq.read_table(f"{args.tables}/draws.parquet", columns=["hand", "dead"])
    deal = deals.slice(deals.num_rows // 2, 1).to_pylist()[0]["hand"]
    draw = draws.slice(draws.num_rows // 2, 1).to_pylist()[0]
    queries = {
        "best --tables, deal": cli + ["best", deal, *config, "--tables", str(args.tables)],
        "best --tables, draw": cli + ["best", draw["hand"], "--dead", draw["dead"], *config,
                                      "--tables", str(args.tables)],
    }
    wall(queries["best --tables, deal"])  # warm the file cache
    result: dict = {"machine": machine()}
    for name, command in queries.items():
        result[name + " (s)"] = statistics.median(wall(command) for _ in range(args.repeats))
    for jobs in (os.cpu_count() or 1, 1):
        rates = []
        for _ in range(args.repeats):
            out = subprocess.run(cli + ["simulate", *config, "--tables", str(args.tables), "--hands",
                                        str(args.hands), "--jobs", str(jobs), "--json"],
                                 check=True, capture_output=True, text=True).stdout
            rates.append(json.loads(out)["hands_per_second"])
        result[f"simulate, {jobs} job(s) (hands/s)"] = statistics.median(rates)
    print(json.dumps(result, indent=2))


# ---------------------------------------------------------------------------------------------------------
# later-stages


def _median_us(call: Callable[[], None], n: int, repeats: int) -> float:
    call()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) / n * 1e6


def case_later_stages(args: argparse.Namespace) -> None:
    """Stages B and C's kernels on real-deck states, one core, warm, medians: looking each row up (a solve's
    own: keying states canonically and searching sorted keys) against gathering values from rows kept (a
    variant reading the column store). ``--tables`` is a solved real-deck table directory: stage B looks each
    hold of a post-draw state up among its stage-A keys (``holds.parquet``), stage C each draw of a first
    hold among the post-draw keys of ``draws.parquet``. Stage B runs on the post-draw classes of ``--hands``
    six-card classes from the middle of their list (400: about 119,000 states), stage C on the thrown-card
    classes of ``--holds`` four-card classes (microseconds per state, or per first hold)."""
    import pyarrow.parquet as pq

    from solver.game.config import DEFAULT_CONFIG as config
    from solver.game.symmetry_kernels import pattern_powers
    from solver.staged.classes import extensions, group_classes
    from solver.staged.stages import _draw_values, _first_rows, _first_values, state_holds

    geometry = config.geometry

    def states(k: int, second: int, count: int) -> tuple[np.ndarray, np.ndarray]:
        classes = group_classes(geometry, k)
        groups = classes[len(classes) // 2: len(classes) // 2 + count]
        more = [extensions(geometry, tuple(int(c) for c in g), second) for g in groups]
        return np.repeat(groups, [len(m) for m in more], axis=0).astype(np.int64), np.concatenate(more)

    powers = pattern_powers(geometry)
    a_keys = pq.read_table(args.tables / "holds.parquet", columns=["key"])["key"].to_numpy()
    a_values = np.zeros((len(a_keys), 3))  # as wide as the solve's: two bets and the minimum-bets value
    bets = np.arange(2, dtype=np.int64)
    hands, deads = states(6, 2, args.hands)
    n = len(hands)
    held = state_holds(hands, deads, a_keys, geometry, cards=False)
    rows_b, n_holds = held.rows.astype(np.int32), held.n_holds.astype(np.int8)
    out_b = np.empty(n), np.empty(n, np.int16)

    def stage_b_keyed() -> None:
        looked_up = state_holds(hands, deads, a_keys, geometry, cards=False)
        _draw_values(looked_up.rows.astype(np.int32), looked_up.n_holds.astype(np.int8), a_values, bets, *out_b)

    stage_b = _median_us(stage_b_keyed, n, args.repeats)
    stage_b_rows = _median_us(lambda: _draw_values(rows_b, n_holds, a_values, bets, *out_b), n, args.repeats)
    b_keys = np.sort(pq.read_table(args.tables / "draws.parquet", columns=["key"])["key"].to_numpy())
    b_level, b_play_on = np.zeros(len(b_keys), np.int8), np.zeros(len(b_keys))
    holds, thrown = states(4, 2, args.holds)
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


# ---------------------------------------------------------------------------------------------------------
# column-store


def case_column_store(args: argparse.Namespace) -> None:
    """A hold's payout-free columns and the column store (``solver.staged.column_store``), on ``--holds`` real
    hold classes spread over the list (one core, warm, a temporary store), medians per hold: the columns built
    as a solve without the store does (for stage A's walk, and with the bonus net's for the tracking walk);
    the first variant with the store (built and stored); the next ones (read back and narrowed to the
    communities the payouts leave live, without and with the bonus net's columns); the stored file's size
    and the live communities of each kind."""
    from solver.game.cards import counts_of
    from solver.game.config import DEFAULT_CONFIG as config
    from solver.game.payouts import TingConstants
    from solver.staged.column_store import store_folder, stored_columns
    from solver.staged.holds import hold_columns

    geometry = config.geometry
    constants = TingConstants.of(config)
    holds = _spread_holds(geometry, args.holds)
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


# ---------------------------------------------------------------------------------------------------------
# walk-together


def case_walk_together(args: argparse.Namespace) -> None:
    """Stage A's walk of the ``--ting-hu`` variants together (``holds.walk_variants``, as ``paytable`` walks the
    variants whose sums are exact) against each variant's own walk over its own live communities, on
    ``--holds`` real hold classes spread over the list (one core, warm, columns built beforehand and not
    timed), in alternating rounds; each variant's values are checked bit for bit; medians per hold class."""
    from solver.game.cards import counts_of
    from solver.game.config import DEFAULT_CONFIG
    from solver.game.payouts import TingConstants, sums_exact
    from solver.staged.classes import extensions
    from solver.staged.holds import hold_columns, live_columns, walk, walk_variants

    geometry = DEFAULT_CONFIG.geometry
    configs = [replace(DEFAULT_CONFIG, ting_hu=float(v)) for v in args.ting_hu.split(",")]
    variants = [TingConstants.of(c) for c in configs]
    if not all(sums_exact(k, geometry) for k in variants):
        raise SystemExit("variants walk together only where their sums are exact (payouts in quarters)")
    holds = _spread_holds(geometry, args.holds)
    work = []
    for hold in holds:
        counts = counts_of(hold, geometry)
        own = [hold_columns(counts, c, k) for c, k in zip(configs, variants)]
        union = live_columns(hold_columns(counts, configs[0], variants[0], prune=False), *variants)
        work.append((extensions(geometry, hold, 4), own, union))
    walk_variants(work[0][2], work[0][0][:8], DEFAULT_CONFIG, variants)  # compile or load the kernels
    alone, together = [], []
    for _ in range(args.repeats):
        t_alone = t_together = 0.0
        for dead, own, union in work:
            start = time.perf_counter()
            singles = [walk(columns, dead, c, k) for columns, c, k in zip(own, configs, variants)]
            middle = time.perf_counter()
            batch = walk_variants(union, dead, DEFAULT_CONFIG, variants)
            t_alone += middle - start
            t_together += time.perf_counter() - middle
            if not all(np.array_equal(s, b) for s, b in zip(singles, batch)):
                raise SystemExit("the variants walked together differ from their own walks")
        alone.append(t_alone / len(holds))
        together.append(t_together / len(holds))
    result = {"holds": len(holds), "variants": len(configs), "alone_s_per_hold": statistics.median(alone),
              "together_s_per_hold": statistics.median(together),
              "live_per_hold": [statistics.mean(own[i].n_live for _, own, _ in work) for i in range(len(configs))],
              "union_per_hold": statistics.mean(union.n_live for _, _, union in work)}
    if args.json:
        print(json.dumps(result))
        return
    ratio = result["together_s_per_hold"] / result["alone_s_per_hold"]
    print(f"{len(holds)} hold classes, {len(configs)} variants (ting_hu {args.ting_hu}), medians of {args.repeats}:")
    print(f"  each alone: {result['alone_s_per_hold']:.4f} s per hold for all; together: "
          f"{result['together_s_per_hold']:.4f} s ({ratio:.2f} of alone); values the same bit for bit")
    print(f"  live communities per hold: {', '.join(f'{n:.0f}' for n in result['live_per_hold'])}; "
          f"any of them: {result['union_per_hold']:.0f}")


# ---------------------------------------------------------------------------------------------------------
# bounded-rows


def _stored_draws(own: Path) -> dict:
    """The post-draw rows kept in the store ``own``, or in one of another version of the source (the rows
    depend on the deck alone), the newest first."""
    from solver.staged.column_store import stored_rows

    others = sorted(own.parent.glob(own.name.rsplit("-", 1)[0] + "-*"), key=lambda p: -p.stat().st_mtime)
    stored = next((rows for rows in (stored_rows(f, "draws") for f in [own, *others]) if rows is not None), None)
    if stored is None:
        raise SystemExit(f"no post-draw rows stored under {own.parent}: solve with --column-store there")
    return stored


def case_bounded_rows(args: argparse.Namespace) -> None:
    """The stage-A rows the finished solve ``--from`` leaves each variant of the ``--vary`` grid (repeatable,
    as ``paytable``'s: ting win payouts, multiples, bet sizes) by the bounds a bounded variant uses
    (``solver.staged.bounds.needed_keys``), and how long finding them takes, one core; a variant of the fa-hu
    bets also takes the rows whose best bet is one of the solve's exactly from it. With ``--refine``, the
    bounded variants beside the solve tighten the bounds on the rows they walked, as a variant's solve does
    (``solver.staged.bounds.find_refiners``). With ``--walked DIR`` (the grid's one variant solved there), also
    the rows those upper bounds would leave were each state's floor its exact best, and the best rows. Nothing
    is solved: the column store must hold the post-draw rows (a solve with ``--column-store`` keeps them, and
    so does the first bounded variant beside a solve made without it)."""
    import pyarrow.parquet as pq

    from solver.game.config import DEFAULT_CONFIG, load_config
    from solver.products.paytable import parse_values, variants
    from solver.staged.bounds import find_refiners, needed_keys
    from solver.staged.column_store import store_folder

    base = load_config(args.config) if args.config else DEFAULT_CONFIG
    grid = {}
    for item in args.vary or ["ting_hu=0.75,1.25,1.5,2,3"]:
        key, _, text = item.partition("=")
        grid[key] = parse_values(key, text)
    directory = Path(args.solved)
    store = Path(args.store) if args.store else store_folder(base)
    stored = _stored_draws(store)
    n_rows = pq.ParquetFile(directory / "holds.parquet").metadata.num_rows
    found = []
    for payouts, config in variants(base, grid):
        start = time.perf_counter()
        refiners = find_refiners(config, directory.parent, [directory]) if args.refine else ()
        keys, exact = needed_keys(config, [directory], stored["holds"], stored["rows"], store, refiners)
        found.append({**payouts, "needed": len(keys), "rows": n_rows, "share": len(keys) / n_rows,
                      "exact": len(exact), "seconds": time.perf_counter() - start,
                      "refiners": [str(r) for r in refiners]})
    if args.walked:
        if len(found) != 1:
            raise SystemExit("--walked needs a grid of one variant, the one solved there")
        found[0].update(_exact_floor_rows(config, directory, Path(args.walked), store, stored))
    if args.json:
        print(json.dumps(found))
        return
    if args.walked:
        row = found[0]
        print(f"with every state's floor its exact best (from {args.walked}): {row['exact_floors']:,} rows "
              f"({row['exact_floors'] / n_rows:.3f}); each state's best rows themselves: {row['best']:,} "
              f"({row['best'] / n_rows:.3f})")
    print(f"stage-A rows each variant needs, bounded by the solve in {directory}"
          + (" and the bounded variants beside it:" if args.refine else " alone:"))
    for row in found:
        exact = f"; {row['exact']:,} more given exactly by the solve (its bets)" if row["exact"] else ""
        payouts = ", ".join(f"{k} = {row[k]}" for k in grid)
        refined = f" (tightened by {', '.join(Path(r).name for r in row['refiners'])})" if row["refiners"] else ""
        print(f"  {payouts}: {row['needed']:,} of {row['rows']:,} ({row['share']:.3f}){exact}, "
              f"found in {row['seconds']:.1f} s{refined}")


def _exact_floor_rows(config, directory: Path, walked: Path, store: Path, stored: dict) -> dict:
    """Of the rows a variant of ``config`` bounded by the solve in ``directory`` walked (its finished solve in
    ``walked``), how many the same upper bounds would leave were each post-draw state's floor its exact best
    value (the least any walk pruned by these bounds could walk), and how many are some state's best."""
    import numba
    import pyarrow.parquet as pq

    from solver.staged.bounds import FOLD, TOLERANCE, _row_bounds
    from solver.staged.chunks import as_array

    @numba.njit
    def mark(n_holds, rows, high, exact, fold, tolerance, needed, best):
        for s in range(n_holds.shape[0]):
            floor = fold
            for j in range(n_holds[s]):
                floor = max(floor, exact[rows[s, j]])
            for j in range(n_holds[s]):
                row = rows[s, j]
                needed[row] |= high[row] >= floor - tolerance
                best[row] |= exact[row] >= floor - tolerance and exact[row] > fold - tolerance

    keys, _, high, _ = _row_bounds(config, [directory], store)
    table = pq.read_table(walked / "holds.parquet", columns=["key", "evs"])
    at = np.searchsorted(keys, as_array(table["key"]))
    exact = np.full(len(keys), -np.inf)  # a row not walked is below its every state's floor
    exact[at] = as_array(table["evs"]).max(axis=1)
    needed, best = np.zeros(len(keys), bool), np.zeros(len(keys), bool)
    mark(np.asarray(stored["holds"]), np.asarray(stored["rows"]), high, exact, FOLD, TOLERANCE, needed, best)
    return {"exact_floors": int(needed.sum()), "best": int(best.sum())}


# ---------------------------------------------------------------------------------------------------------
# regimes


def _regime_kernels():
    """The counting kernels of ``regimes``, compiled on first use (plain numba: nothing here is the product's)."""
    import numba

    @numba.njit(inline="always")
    def pair_row(a, b, n_suited):
        a, b = min(a, b), max(a, b)
        return a * n_suited - a * (a - 1) // 2 + (b - a)

    @numba.njit(inline="always")
    def regime(win, flush, t2, p1, pf1, c, f, m_min, m_max):
        """The ting decision of every fa-hu bet (fold, smallest or largest multiple) and of the minimum-bets
        play (fold or bet), as one code."""
        z = win * p1 + flush * pf1 - t2
        code = 0
        for b in range(c.shape[0]):
            gain = c[b] * (win + flush) + f[b] * z * (m_max if z > 0 else m_min)
            code = code * 3 + (0 if gain <= 0 else (2 if z > 0 else 1))
        return code * 2 + (c[0] * (win + flush) + f[0] * m_min * z > 0)

    @numba.njit(inline="always")
    def after(q0, lin, pair_level, dead, r, depth, i, n_suited):
        """Community i's W and Wf with row r's first ``depth`` dead cards out of the pool."""
        win, flush = q0[0, i], q0[1, i]
        for j in range(depth):
            card = dead[r, j]
            if card < n_suited:
                win -= lin[0, card, i]
                flush -= lin[1, card, i]
                for k in range(j):
                    level = pair_level[pair_row(dead[r, k], card, n_suited), i]
                    win += level == 1
                    flush += level == 2
        return win, flush

    @numba.njit(inline="always")
    def column(lin, pair_level, dead, r, depth, card, i, n_suited):
        """Community i's columns L_card (W's and Wf's) below row r's first ``depth`` dead cards."""
        hu, fl = lin[0, card, i], lin[1, card, i]
        for k in range(depth):
            if dead[r, k] < n_suited:
                level = pair_level[pair_row(dead[r, k], card, n_suited), i]
                hu -= level == 1
                fl -= level == 2
        return hu, fl

    @numba.njit(inline="always")
    def left_pairs(dead, r, n_pool, n_suited):
        """C(left, 2), the last two cards' combinations once row r's suited dead cards and the community are out."""
        k = 0
        for j in range(4):
            k += dead[r, j] < n_suited
        return (n_pool - k - 4) * (n_pool - k - 5) / 2.0

    @numba.njit
    def regime_counts(q0, lin, pair_level, n_pool, dead, n_suited, p1, pf1, c, f, m_min, m_max):
        """How many of the rows put each community at each regime code."""
        out = np.zeros((q0.shape[1], 2 * 3 ** c.shape[0]), np.int64)
        for r in range(dead.shape[0]):
            t2 = left_pairs(dead, r, n_pool, n_suited)
            for i in range(q0.shape[1]):
                win, flush = after(q0, lin, pair_level, dead, r, 4, i, n_suited)
                out[i, regime(win, flush, t2, p1, pf1, c, f, m_min, m_max)] += 1
        return out

    @numba.njit
    def candidates(q0, lin, pair_level, n_pool, dead, depth, base, n_suited, p1, pf1, c, f, m_min, m_max):
        """(row, community) pairs whose node of ``depth`` dead cards cannot prove the community's regime the
        ``base`` one at every row below it: its W and Wf in the box from the node's (no more dead card lowers
        them) down to the node's less twice (once, for a node of three) its largest column over the cards
        the rows below add, t2 at the ends of the suited dead cards those rows hold."""
        total = 0
        r = 0
        while r < dead.shape[0]:
            end = r
            while end < dead.shape[0] and (dead[end, :depth] == dead[r, :depth]).all():
                end += 1
            needed = np.zeros(n_suited, np.bool_)
            most = 0
            for s in range(r, end):
                k = 0
                for j in range(depth, 4):
                    if dead[s, j] < n_suited:
                        needed[dead[s, j]] = True
                        k += 1
                most = max(most, k)
            k_node = 0
            for j in range(depth):
                k_node += dead[r, j] < n_suited
            t2_high = (n_pool - k_node - 4) * (n_pool - k_node - 5) / 2.0
            t2_low = (n_pool - k_node - most - 4) * (n_pool - k_node - most - 5) / 2.0
            for i in range(q0.shape[1]):
                win, flush = after(q0, lin, pair_level, dead, r, depth, i, n_suited)
                top_hu, top_fl = 0.0, 0.0
                for t in range(n_suited):
                    if needed[t]:
                        hu, fl = column(lin, pair_level, dead, r, depth, t, i, n_suited)
                        top_hu, top_fl = max(top_hu, hu), max(top_fl, fl)
                low = regime(win - most * top_hu, flush - most * top_fl, t2_high, p1, pf1, c, f, m_min, m_max)
                high = regime(win, flush, t2_low, p1, pf1, c, f, m_min, m_max)
                if low != base[i] or high != base[i]:
                    total += end - r
            r = end
        return total

    @numba.njit
    def switching(q0, lin, pair_level, n_pool, dead, n_suited, p1, pf1, c, f, m_min, m_max, other_p1, other_pf1,
                  other_c, other_f, other_m_min, other_m_max):
        """(row, community) pairs whose regime differs between two sets of payouts; and the pairs whose node of
        two dead cards holds a row where the community's does (rows sorted: a node's rows are consecutive)."""
        differ, in_node = 0, 0
        seen = np.zeros(q0.shape[1], np.bool_)
        r = 0
        while r < dead.shape[0]:
            end = r
            while end < dead.shape[0] and dead[end, 0] == dead[r, 0] and dead[end, 1] == dead[r, 1]:
                end += 1
            seen[:] = False
            for s in range(r, end):
                t2 = left_pairs(dead, s, n_pool, n_suited)
                for i in range(q0.shape[1]):
                    win, flush = after(q0, lin, pair_level, dead, s, 4, i, n_suited)
                    if regime(win, flush, t2, p1, pf1, c, f, m_min, m_max) != regime(
                            win, flush, t2, other_p1, other_pf1, other_c, other_f, other_m_min, other_m_max):
                        differ += 1
                        seen[i] = True
            in_node += seen.sum() * (end - r)
            r = end
        return differ, in_node

    return regime_counts, candidates, switching


def case_regimes(args: argparse.Namespace) -> None:
    """What a walk that sums each community at its usual ting decision by tables, and walks only the
    exceptions, would still walk (counted, not built): on ``--holds`` real hold classes, each live community's
    most common regime over the hold's dead sets (every fa-hu bet's fold, smallest or largest ting multiple,
    and the minimum-bets play's fold or bet), the share of (dead set, live community) pairs at another regime,
    and the share that the bounds of a node of two, or of three, dead cards leave to walk (a community whose
    regime the node's bounds cannot prove to be its usual one at every row below). With ``--against KEY=V``
    (a ting payout), what a variant's walk of only the communities whose regime V changes would visit: the
    share of the pairs it changes, and of those whose node of two dead cards holds a row where it does (the
    live communities then those of the more generous payouts)."""
    from solver.game.cards import counts_of
    from solver.game.config import DEFAULT_CONFIG as config
    from solver.game.payouts import TingConstants
    from solver.staged.classes import extensions
    from solver.staged.holds import hold_columns

    geometry = config.geometry
    constants = TingConstants.of(config)
    regime_counts, candidates, switching = _regime_kernels()
    other = None
    if args.against:
        from solver.products.paytable import parse_values

        key, _, text = args.against.partition("=")
        (value,) = parse_values(key, text)
        other = TingConstants.of(replace(config, **{key: value}))
        live_for = replace(constants, p1=max(constants.p1, other.p1), pf1=max(constants.pf1, other.pf1),
                           c=np.maximum(constants.c, other.c), m_min=min(constants.m_min, other.m_min),
                           m_max=max(constants.m_max, other.m_max))
    rows = []
    for hold in _spread_holds(geometry, args.holds):
        columns = hold_columns(counts_of(hold, geometry), config, constants if other is None else live_for)
        dead = extensions(geometry, hold, 4)
        n_pool = int(columns.pool.sum())
        consts = (geometry.n_suited, constants.p1, constants.pf1, constants.c, constants.fa_bets, constants.m_min,
                  constants.m_max)
        counts = regime_counts(columns.q0, columns.lin, columns.pair_level, n_pool, dead, *consts)
        base = counts.argmax(axis=1)
        pairs = counts.sum()
        rows.append({"hold": hold, "live": columns.n_live, "dead_sets": len(dead), "pairs": int(pairs),
                     "fixed": float((counts.max(axis=1) == len(dead)).mean()),
                     "exceptions": float(1 - counts.max(axis=1).sum() / pairs),
                     **{f"node{depth}": candidates(columns.q0, columns.lin, columns.pair_level, n_pool, dead, depth,
                                                   base, *consts) / pairs for depth in (2, 3)}})
        if other is not None:
            differ, in_node = switching(columns.q0, columns.lin, columns.pair_level, n_pool, dead, *consts,
                                        other.p1, other.pf1, other.c, other.fa_bets, other.m_min, other.m_max)
            rows[-1].update(switching=differ / pairs, switching_node2=in_node / pairs)
    keys = ("exceptions", "node2", "node3", *(("switching", "switching_node2") if other is not None else ()))
    pairs = sum(r["pairs"] for r in rows)
    total = {key: sum(r[key] * r["pairs"] for r in rows) / pairs for key in keys}
    total["fixed"] = statistics.median(r["fixed"] for r in rows)
    if args.json:
        print(json.dumps({"holds": rows, "all": total}))
        return
    _print_regimes(rows, total, other is not None)


def _print_regimes(rows: list[dict], total: dict, switching: bool) -> None:
    """``regimes``' table: a line per hold, then the shares over every (dead set, live community) pair."""
    more = f" {'switching':>9} {'its nodes':>9}" if switching else ""
    print(f"{'hold':>16} {'live':>6} {'dead sets':>9} {'fixed':>6} {'exceptions':>10} {'node of 2':>9} "
          f"{'node of 3':>9}{more}")
    for r in [*rows, {"hold": "all (pairs)", "live": "", "dead_sets": "", **total}]:
        more = f" {r['switching']:>9.3f} {r['switching_node2']:>9.3f}" if switching else ""
        print(f"{str(r['hold']):>16} {r['live']:>6} {r['dead_sets']:>9} {r['fixed']:>6.3f} {r['exceptions']:>10.3f} "
              f"{r['node2']:>9.3f} {r['node3']:>9.3f}{more}")
    print("(fixed: of live communities, the median hold's share in the all line"
          + ("; switching: the pairs whose regime the --against payouts change; its nodes: the pairs whose node of "
             "two dead cards holds a row where it changes)" if switching else ")"))


# ---------------------------------------------------------------------------------------------------------
# table-write


def case_table_write(args: argparse.Namespace) -> None:
    """Reads the first ``--rows`` rows of a table (stage A's ``holds.parquet`` is the largest a solve writes),
    then, ``--repeats`` times in alternation, writes them as a solve does (``solver.tables.files.write_parts``:
    zstd, floating-point columns byte-stream-split, in parts of 50,000 rows) and with plain encoding instead,
    and reads each file back whole; the median seconds and the files' sizes. The tables read back are
    checked equal to the one written."""
    from unittest import mock

    import pyarrow.parquet as pq

    from solver.tables import files

    table = pq.read_table(args.table).slice(0, args.rows).replace_schema_metadata(None)
    parts = [table.slice(start, 50_000) for start in range(0, table.num_rows, 50_000)]
    times: dict[str, dict[str, list[float]]] = {"split": {"write": [], "read": []}, "plain": {"write": [], "read": []}}
    sizes = {}
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.repeats):
            for name in times:
                path = Path(folder) / f"{name}.parquet"
                with mock.patch.object(files, "_split_columns", files._split_columns if name == "split"
                                       else lambda schema: []):
                    start = time.perf_counter()
                    files.write_parts(path, parts, {})
                    times[name]["write"].append(time.perf_counter() - start)
                start = time.perf_counter()
                back = pq.read_table(path)
                times[name]["read"].append(time.perf_counter() - start)
                if not back.replace_schema_metadata(None).equals(table):
                    raise SystemExit(f"{name}: the table read back differs")
                sizes[name] = path.stat().st_size
    result = {name: {"write_s": statistics.median(t["write"]), "read_s": statistics.median(t["read"]),
                     "megabytes": sizes[name] / 1e6} for name, t in times.items()}
    if args.json:
        print(json.dumps({"rows": table.num_rows, **result}))
        return
    print(f"{table.num_rows} rows of {args.table}, medians of {args.repeats}:")
    for name, r in result.items():
        print(f"  {name:5}  write {r['write_s']:.2f} s  read {r['read_s']:.2f} s  {r['megabytes']:.0f} MB")


# ---------------------------------------------------------------------------------------------------------
# chunk-rows


def case_chunk_rows(args: argparse.Namespace) -> None:
    """Stage B's rows (``--rows``: a store's ``draws-rows.npy``, default random rows of its shape, 11,641,881
    by 15 int32) cut into ``--chunks`` chunks, passed through them both ways, ``--repeats`` times in
    alternation: as a parquet list column of each chunk file (written as ``run_stage`` writes chunks, then
    read back and concatenated as ``read_chunks`` does, then saved to one ``.npy``), and as ``.npy`` files
    beside the chunk files (``run_stage``'s ``arrays``) copied into one file as the store does
    (``column_store._save_concatenated``). Median seconds of each part; each result checked equal."""
    import pyarrow as pa

    from solver.staged.chunks import list_column, read_chunks
    from solver.staged.column_store import _save_concatenated
    from solver.tables.files import write_table

    rows = np.load(args.rows) if args.rows else \
        np.random.default_rng(0).integers(-1, 25_378_646, size=(11_641_881, 15), dtype=np.int32)
    parts = np.array_split(rows, args.chunks)
    times: dict[str, list[float]] = {k: [] for k in ("list_write", "list_read", "list_save", "npy_write", "npy_copy")}
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for _ in range(args.repeats):
            paths = [root / f"c{i}.parquet" for i in range(len(parts))]
            start = time.perf_counter()
            for path, part in zip(paths, parts):
                write_table(path, pa.table({"rows": list_column(part)}), {})
            times["list_write"].append(time.perf_counter() - start)
            back, took = _timed(read_chunks, paths, ["rows"])
            times["list_read"].append(took)
            _, took = _timed(np.save, root / "list.npy", back["rows"])
            times["list_save"].append(took)
            if not np.array_equal(np.load(root / "list.npy", mmap_mode="r"), rows):
                raise SystemExit("the rows read back from the list column differ")
            files = [root / f"c{i}-rows.npy" for i in range(len(parts))]
            start = time.perf_counter()
            for file, part in zip(files, parts):
                np.save(file, part)
            times["npy_write"].append(time.perf_counter() - start)
            _, took = _timed(_save_concatenated, root / "beside.npy", files)
            times["npy_copy"].append(took)
            if not np.array_equal(np.load(root / "beside.npy", mmap_mode="r"), rows):
                raise SystemExit("the rows copied from the files beside differ")
            for path in [*paths, *files]:
                path.unlink()
    result = {k: round(statistics.median(v), 2) for k, v in times.items()}
    if args.json:
        print(json.dumps({"rows": len(rows), "chunks": args.chunks, **result}))
        return
    print(f"{len(rows):,} rows in {args.chunks} chunks, medians of {args.repeats} (seconds):")
    print(f"  list column: write {result['list_write']}, read back {result['list_read']}, save {result['list_save']}")
    print(f"  .npy beside: write {result['npy_write']}, copy into one file {result['npy_copy']}")


# ---------------------------------------------------------------------------------------------------------
# chart


def case_chart(args: argparse.Namespace) -> None:
    """The strategy chart's lists on a solve's tables (one process, one core), per stage: the time to read
    every situation's records (``stage_lines``) and to build the list (``build_stage_chart``, which reads
    them again), the process's peak memory, the list's exact loss per hand dealt, and its *floor*: the loss
    if every situation played its own best line and bet (what the chart's words and its choice among
    discards lose, whatever the order). The gap between loss and floor is what one ranked list costs."""
    from solver.game.config import load_config
    from solver.products.chart import _per_hand, build_stage_chart, check_inputs
    from solver.products.chart_lines import stage_lines
    from solver.products.patterns import DEFAULT_WORDS, WORDINGS

    config = load_config(args.config)
    args.words = args.words or DEFAULT_WORDS
    if args.words not in WORDINGS:
        raise SystemExit(f"--words takes one of {', '.join(WORDINGS)}")
    stages = args.stage or ("deal", "draw")
    if "draw" in stages:  # as `mahjong-poker chart`: a solve's rows left out below folding walked first, untimed
        check_inputs(config, Path(args.tables), quiet=False)
    for stage in stages:
        start = time.perf_counter()
        lines = stage_lines(stage, config, args.tables, args.words)
        read = time.perf_counter() - start
        best = np.full(len(lines.weights), -np.inf)
        np.maximum.at(best, lines.situation, np.nanmax(lines.values, axis=1))
        floor = float(lines.weights @ (lines.best_ev - best)) / _per_hand(stage, config)
        situations, records = len(lines.weights), len(lines.situation)
        del lines
        start = time.perf_counter()
        chart = build_stage_chart(stage, config, args.tables, words=args.words)
        row = {"stage": stage, "situations": situations, "records": records, "read_seconds": round(read, 1),
               "chart_seconds": round(time.perf_counter() - start, 1), "lines": len(chart.rules),
               "loss": chart.loss, "floor": floor,
               "peak_memory_gb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6, 2)}
        print(json.dumps(row) if args.json else
              f"{stage}: {row['situations']:,} situations, {row['records']:,} records read in {row['read_seconds']} s; "
              f"list of {row['lines']} lines in {row['chart_seconds']} s; loss {row['loss']:.6f} per hand "
              f"(floor {row['floor']:.6f}); peak memory {row['peak_memory_gb']} GB", flush=True)


# ---------------------------------------------------------------------------------------------------------


#: Each case's line in ``--help``, as the module's docstring lists them.
SUMMARIES = dict(line.split(maxsplit=1) for line in __doc__.splitlines() if line.startswith("  ") and "  " in line[2:])


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    cases = parser.add_subparsers(dest="case", required=True, metavar="CASE")

    def case(name: str, run: Callable[[argparse.Namespace], None], json_flag: bool = True) -> argparse.ArgumentParser:
        sub = cases.add_parser(name, help=SUMMARIES[name], description=" ".join(run.__doc__.split()))
        sub.set_defaults(run=run)
        if json_flag:
            sub.add_argument("--json", action="store_true", help="print JSON")
        return sub

    sub = case("solve", case_solve, json_flag=False)
    sub.add_argument("--config", help="configuration to solve (default: the real deck)")
    sub.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    sub.add_argument("--repeats", type=int, default=1)

    sub = case("hold-kernel", case_hold_kernel)
    sub.add_argument("--holds", type=int, default=12)
    sub.add_argument("--repeats", type=int, default=5)
    sub.add_argument("--tracking", action="store_true", help="the forward count's tracking walk")
    sub.add_argument("--density", type=float, default=1.0, help="the share of each hold's dead sets walked")
    sub.add_argument("--config", help="a TOML configuration of the real deck (default: the rules')")
    sub.add_argument("--above-fold", action="store_true",
                     help="leave out the rows an upper bound puts below folding, as a solve does")
    sub.add_argument("--save", metavar="FILE", help="save the values (.npy), to compare two versions")

    sub = case("evaluator-kernel", case_evaluator_kernel)
    sub.add_argument("--holds", type=int, default=12)
    sub.add_argument("--repeats", type=int, default=5)
    sub.add_argument("--save", metavar="FILE", help="save the values (.npy), to compare two versions")

    sub = case("evaluator", case_evaluator)
    sub.add_argument("--repeats", type=int, default=5)
    sub.add_argument("--deal", action="store_true", help="also time one deal-stage evaluation (about 7 s)")
    sub.add_argument("--bonus", type=float, default=0.0, metavar="B",
                     help="with --deal, also time the deal with a bonus bet of B (about 12 s for B = 1)")
    sub.add_argument("--deal-parts", action="store_true",
                     help="only time the deal stage's kernel work by kind of hold (about 2 minutes)")

    sub = case("tables", case_tables, json_flag=False)
    sub.add_argument("--tables", required=True, type=Path, help="a finished solve's directory")
    sub.add_argument("--config", help="the tables' configuration (default: the real deck)")
    sub.add_argument("--hands", type=int, default=4_000_000)
    sub.add_argument("--repeats", type=int, default=5)

    sub = case("later-stages", case_later_stages)
    sub.add_argument("--tables", required=True, type=Path, help="a solved real-deck table directory")
    sub.add_argument("--hands", type=int, default=400)
    sub.add_argument("--holds", type=int, default=40)
    sub.add_argument("--repeats", type=int, default=5)

    sub = case("column-store", case_column_store)
    sub.add_argument("--holds", type=int, default=24, help="hold classes, spread over the list (default 24)")

    sub = case("walk-together", case_walk_together)
    sub.add_argument("--holds", type=int, default=12)
    sub.add_argument("--ting-hu", default="1.25,1.5,1.75,2", help="the variants' ting-hu payouts")
    sub.add_argument("--repeats", type=int, default=3)

    sub = case("bounded-rows", case_bounded_rows)
    sub.add_argument("--from", dest="solved", required=True, metavar="DIR", help="a finished whole solve")
    sub.add_argument("--vary", action="append", metavar="KEY=V,V,...",
                     help="repeatable, as paytable's (default ting_hu=0.75,1.25,1.5,2,3)")
    sub.add_argument("--config", help="the solve's configuration (default: the real deck)")
    sub.add_argument("--store", help="the column store (default: the cache folder's)")
    sub.add_argument("--refine", action="store_true",
                     help="tighten the bounds by the bounded variants beside the solve, as a variant's solve does")
    sub.add_argument("--walked", metavar="DIR",
                     help="the grid's one variant solved there: also count the rows exact floors would leave")

    sub = case("regimes", case_regimes)
    sub.add_argument("--holds", type=int, default=12)
    sub.add_argument("--against", metavar="KEY=V", help="a ting payout's other value, e.g. ting_hu=1.5")

    sub = case("table-write", case_table_write)
    sub.add_argument("table", type=Path, help="a table, e.g. a solve's holds.parquet")
    sub.add_argument("--rows", type=int, default=4_000_000)
    sub.add_argument("--repeats", type=int, default=3)

    sub = case("chunk-rows", case_chunk_rows)
    sub.add_argument("--rows", type=Path, help="a store's draws-rows.npy (default: random rows of its shape)")
    sub.add_argument("--chunks", type=int, default=40)
    sub.add_argument("--repeats", type=int, default=3)

    sub = case("chart", case_chart)
    sub.add_argument("--tables", required=True, type=Path)
    sub.add_argument("--config", help="game configuration (TOML); default: the real game")
    sub.add_argument("--stage", choices=("deal", "draw"), action="append")
    sub.add_argument("--words", help="the chart's words: shapes (its default) or patterns")
    return parser


def main(argv: list[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    args.run(args)


if __name__ == "__main__":
    main()
