"""The ``mahjong-poker`` command line: parses, calls the API, prints. No game logic lives here."""

from __future__ import annotations

import argparse
import inspect
import json
import logging
import math
import os
import re
import signal
import sys
import tempfile
import uuid
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from solver import __version__
from solver.errors import InputError
from solver.game.cards import format_cards
from solver.game.config import GameConfig, load_config
from solver.game.objective import RESTRICTIONS
from solver.game.options import TIE_TOLERANCE, Stage
from solver.products.query import best_play, describe_option, stderr_progress
from solver.render.textfmt import text_table
from solver.runtime.diskcache import pin_cache_dir
from solver.runtime.parallel import mark_parent, quiet_resource_tracker, stop_workers
from solver.tables.files import note_config_file

if TYPE_CHECKING:
    from solver.game.objective import Objective
    from solver.products.paytable import TargetRow, VariantRow

TABLE_HANDS = 1_000_000
"""Hands at the table per number of seats where --seats is given without --hands (--table-hands)."""


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="game configuration (TOML); default: docs/rules.md")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")


def _config(args: argparse.Namespace) -> GameConfig:
    """``--config``'s configuration; without it, that of the tables ``--tables`` names (their manifest's:
    a paytable variant's has no file of its own), else the rules'."""
    if args.config is None and getattr(args, "tables", None):
        from solver.tables.files import manifest_config

        found = manifest_config(Path(args.tables))
        if found is not None:
            return found
    return load_config(args.config)


def cmd_bonus(args: argparse.Namespace) -> None:
    """Print the bonus bet's exact return table, settled on six random cards, and paytables for target edges.

    The bonus is paid on the six community cards alone, so its return were
    every bet settled needs no solve (a lone player's bets settle only when he
    bets the ting: edge gives those figures). With --targets 0.02,0.05,0.10,
    for each payout (and for all of them multiplied by one factor) the value
    that gives each house edge exactly, and the largest whole payout (or
    factor in hundredths) that keeps the edge at least there.
    """
    from solver.game.bonus import bonus_table, paytable_changes

    config = _config(args)
    table = bonus_table(config)
    changes = paytable_changes(config, args.targets) if args.targets else []
    if args.json:
        print(_json_text({
            "total_combinations": table.total_combinations,
            "rows": [
                {"combination": r.combination, "pays": r.pays, "combinations": r.combinations,
                 "probability": r.probability, "return": r.contribution}
                for r in table.rows
            ],
            "house_edge": table.house_edge,
            "paytables": [{"payout": c.key, "current": c.current, "target": c.target, "exact": c.exact,
                           "whole": c.whole, "whole_house_edge": c.whole_edge, "note": c.note} for c in changes],
        }))
        return
    rows = [(r.combination, f"{r.pays:g}", r.combinations, f"{r.probability:.10f}", f"{r.contribution:+.10f}")
            for r in table.rows]
    suited = config.geometry.n_suited * config.geometry.copies_in_play
    print(f"Bonus bet, were every bet settled: six community cards out of C({suited}, 6)")
    print(text_table(["combination", "pays", "combinations", "probability", "return"], rows, "lrrrr"))
    print(f"total combinations: {table.total_combinations}")
    print(f"expected return per unit bet: {table.ev:+.10f}")
    print(f"house edge: {table.house_edge:.10f} ({100 * table.house_edge:.4f}%)")
    if changes:
        print("one change to the paytable per target house edge (a payout to 1, or every payout times a factor):"
              "\nthe exact value, and the largest whole value that keeps the edge at least the target")
        noted = any(c.note for c in changes)  # a column of notes only when some target has one
        rows = [[c.key.removeprefix("bonus_").replace("_", " ") if c.key != "all" else "all payouts x",
                 f"{c.current:g}", f"{100 * c.target:g}%", "-" if c.exact is None else f"{c.exact:.4f}",
                 "-" if c.whole is None else f"{c.whole:g}",
                 "-" if c.whole_edge is None else f"{100 * c.whole_edge:.4f}%"] + [c.note] * noted for c in changes]
        print(text_table(["payout", "now", "target", "exact", "whole", "its house edge"] + ["note"] * noted, rows,
                         "lrrrrr" + "l" * noted))


def _add_bonus_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--targets", "--target", dest="targets", type=_fractions, metavar="E,E,...",
                        help="house edges to meet by changing one payout, e.g. 0.02,0.05,0.10 (--target: the "
                             "same, as paytable spells it)")


def _fractions(text: str) -> tuple[float, ...]:
    parts = [part.strip() for part in text.split(",")]
    if not all(parts):
        raise argparse.ArgumentTypeError(f"must be house edges strictly between -1 and 1, comma-separated, got "
                                         f"{text!r}")
    return tuple(_number(part, float, "house edges strictly between -1 and 1, comma-separated", lambda v: -1 < v < 1)
                 for part in parts)


NUMBER_LISTS = ("--target", "--targets")
"""Options whose value is a list of numbers, which may begin with a minus sign."""


def _joined_number_lists(argv: Sequence[str]) -> list[str]:
    """``--target -0.5,-0.4`` as ``--target=-0.5,-0.4``: argparse reads a value that begins with '-' as
    an option unless it is one number."""
    out: list[str] = []
    for word in argv:
        if out and out[-1] in NUMBER_LISTS and re.fullmatch(r"-\s*\.?[0-9][0-9.eE+,\s-]*", word):
            out[-1] = f"{out[-1]}={word}"
        else:
            out.append(word)
    return out


def cmd_deal_stats(args: argparse.Namespace) -> None:
    """Print how many six-card deals can claim a tian-hu and a flush tian-hu."""
    from solver.products.deal_stats import deal_stats

    config = _config(args)
    stats = deal_stats(config)
    if args.json:
        total = stats.total_deals
        print(_json_text({"cards": config.geometry.size, "jokers": config.geometry.jokers_in_play,
                          "total_deals": total, "tian_hu": stats.tian_hu, "flush_tian_hu": stats.flush_tian_hu,
                          "tian_hu_probability": stats.tian_hu / total,
                          "flush_tian_hu_probability": stats.flush_tian_hu / total}))
        return
    rows = [
        ("tian-hu (any, flush included)", stats.tian_hu, f"{stats.tian_hu / stats.total_deals:.10f}"),
        ("flush tian-hu", stats.flush_tian_hu, f"{stats.flush_tian_hu / stats.total_deals:.10f}"),
        ("all deals", stats.total_deals, "1"),
    ]
    jokers = " (jokers wild)" if config.geometry.jokers_in_play else ""
    print(f"Six-card deals from {config.geometry.size} cards{jokers}")
    print(text_table(["deal", "deals", "probability"], rows, "lrr"))


def cmd_best(args: argparse.Namespace) -> None:
    """Print every option for a hand with its exact EV, best first, and say which is best and by how much.

    Deal: 6 cards. Draw: 6 cards after the first draw, --dead (the 2 first
    discards), --dd if the player doubled down. Ting: 4 hand cards, --dead
    (the 4 discards), --community (the 4 community cards), --fa (the F bet).
    Cards use MPSZ notation: 112m 34p J. With --bonus B the objective is
    main game plus a bonus bet of B, which pushes unless the player bets
    ting-hu (docs/rules.md, "The bonus bet"). At a table, --shown takes the
    cards other seats showed, at any stage (docs/table.md).
    """
    from solver.game.objective import Objective

    if args.no_tables and args.tables:
        raise InputError("--no-tables and --tables ask for opposite things: give one of them")
    config = _config(args)
    geometry = config.geometry
    tables = None if args.no_tables else _tables_or_default(args.tables, config, Objective(args.bonus))
    result = best_play(
        args.hand, config, stage=args.stage, dead=args.dead or "", community=args.community or "",
        double_down=config.double_down if args.dd else 0.0, fa_bet=args.fa or 0.0, bonus=args.bonus,
        progress=None if args.json else stderr_progress("deal stage"), n_jobs=args.jobs, tables=tables,
        shown=args.shown or "",
    )
    if args.json:
        print(_json_text(result.to_json(geometry)))
        return
    state = result.state
    best = result.options[result.best]
    print(f"{state.stage.value} stage, hand {format_cards(state.hand, geometry)}"
          + (f", dead {format_cards(state.dead, geometry)}" if state.dead else "")
          + (f", community {format_cards(state.community, geometry)}" if state.community else "")
          + (f", DD {state.double_down:g}" if state.double_down else "")
          + (f", F {state.fa_bet:g}" if state.fa_bet else "")
          + (f", bonus bet {state.bonus:g} (EVs include it)" if state.bonus else "")
          + (f", shown by other seats {format_cards(state.shown, geometry)}" if state.shown else ""))
    order = result.listing_order()
    rows = []
    for i in order:
        o = result.options[i]
        tied = abs(o.ev - best.ev) <= TIE_TOLERANCE
        rows.append((o.action, format_cards(o.discard, geometry) or "-", f"{o.bet:g}", f"{o.ev:+.6f}",
                     "best" if i == result.best else "tie" if tied else f"{o.ev - best.ev:+.6f}"))
    print(text_table(["action", "discard", "bet", "EV", "vs best"], rows, "lllrr"))
    runner_up = max((o.ev for i, o in enumerate(result.options) if i != result.best), default=None)
    margin = ("" if runner_up is None else
              ", tied with the next option (to 1e-12): less money at risk wins it, then a fixed order"
              if best.ev - runner_up <= TIE_TOLERANCE else f", {best.ev - runner_up:.6f} better than the next option")
    print(f"best: {describe_option(best, state.stage, geometry)}, EV {best.ev:+.6f}{margin}")
    if state.stage == Stage.TING:
        print(f"the ting: {result.aim}")
    elif best.action in ("bet", "discard"):
        print(f"the kept cards aim at: {result.aim}")
    if result.best_unshown is not None:
        print(_shown_effect(result, geometry))
    if state.shown:
        print("EVs computed by the evaluator (a solve's tables know only the player's own cards)")
    elif state.stage == Stage.TING:
        print("EVs computed by the evaluator (the tables hold no ting decision: it is always computed)")
    elif tables is None:
        print("EVs computed by the evaluator (" + ("--no-tables" if args.no_tables else _no_solve(args)) + ")")
    else:
        print(f"EVs from the tables in {tables}{_walked_note(result.walked)}" if result.source == "tables" else
              f"EVs computed by the evaluator ({_not_from_tables(state.stage, tables)})")


def _walked_note(walked: int) -> str:
    """What ``best`` says of the holds its tables left out and it walked now (:attr:`BestPlay.walked`)."""
    if not walked:
        return ""
    return (f"; {walked} hold{'s' if walked > 1 else ''} the solve left out (no decision reads "
            f"{'them' if walked > 1 else 'it'}) walked now, as it walks the others")


def _shown_effect(result: Any, geometry: Any) -> str:
    """Whether the cards other seats showed change the best play, and what ignoring them costs."""
    unshown = result.options[result.best_unshown]
    if result.options[result.best].ev - unshown.ev <= TIE_TOLERANCE:
        return "the shown cards do not change the best play"
    return (f"the shown cards change the best play: a player who ignored them would "
            f"{describe_option(unshown, result.state.stage, geometry)} (EV {unshown.ev:+.6f} given them), "
            f"{result.options[result.best].ev - unshown.ev:.6f} worse")


def _no_solve(args: argparse.Namespace) -> str:
    """Which solve ``best`` found missing, and the command that makes it."""
    bonus = f" --bonus {args.bonus:g}" if args.bonus else ""
    what = f"of this configuration with a bonus bet of {args.bonus:g}" if bonus else "of this configuration"
    return f"no finished solve {what}: mahjong-poker solve{_config_flag(args)}{bonus} makes one"


def _needs_seats(seats: range, **given: object) -> None:
    """Refuse options of the table of seats given without ``--seats``, which they would not change."""
    named = [f"--{k.replace('_', '-')}" for k, v in given.items() if v is not None]
    if named and not seats:
        raise InputError(f"{' and '.join(named)} {'is' if len(named) == 1 else 'are'} for the table of seats: "
                         "give --seats N too")


def _json_text(data: Any) -> str:
    """``--json``'s text: one line for a pipe or a file (what scripts read), indented at a terminal (what a
    person reads)."""
    return json.dumps(data, indent=1 if sys.stdout.isatty() else None)


def _config_flag(args: argparse.Namespace) -> str:
    return f" --config {args.config}" if args.config else ""


def _tables_or_default(given: str | None, config: GameConfig, objective: Objective) -> Path | None:
    """``--tables`` as given, else the configuration's finished tables where there are any
    (:func:`solver.tables.files.tables_for`), else None."""
    from solver.tables.files import tables_for

    return Path(given) if given else tables_for(config, objective)


def _not_from_tables(stage: Stage, tables: Path) -> str:
    """Why a query given --tables was answered by the evaluator: its stage's table is not there (a row a solve
    left out is walked from the tables, and the ting decision is said apart)."""
    from solver.products.query import STAGE_TABLES
    from solver.tables.files import solve_command

    return f"{tables} lacks {STAGE_TABLES[stage]}, which {solve_command(tables)} adds"


def cmd_solve(args: argparse.Namespace) -> None:
    """Solve the whole game exhaustively and write the strategy tables.

    Every six-card deal (up to suit relabelling and rank reversal), every
    decision after it, composition-dependent EVs. Tables go to --out
    (default strategy_tables/<configuration fingerprint>). A killed solve
    resumes from its finished chunks when rerun; a directory made for
    another configuration is refused (--force moves it aside). Prints the
    house edge, element of risk, standard deviation and time taken.
    A solve keeps the rows stages B and C look up, which depend on the deck
    alone, in the cache folder (1.3 GB for the real deck), so that a later
    solve of the deck (a paytable variant) finds none; --column-store also
    keeps every hold's payout-free columns there (1.2 GB more), so that a
    later solve under other ting payouts or bet sizes builds none.
    Stage A leaves out the (hold, dead cards) rows that an upper bound proves
    cannot beat folding (about 60% of them on the real deck): no decision
    reads their values, so the figures and tables are the same, but for
    those rows of holds.parquet. --whole walks them too; chart and paytable
    walk them once when they need them (docs/algorithm.md).
    """
    from solver.staged.run import solve

    config = _config(args)
    if args.scheduler and args.backend != "dask":
        raise InputError("--scheduler is for --backend dask")
    summary = solve(config, args.out, bonus=args.bonus, restriction=args.restriction, n_jobs=args.jobs,
                    backend=args.backend, scheduler=args.scheduler, quiet=args.quiet or args.json, force=args.force,
                    column_store=args.column_store, whole=args.whole)
    if args.json:
        print(_json_text(summary.to_json()))
        return
    print(f"{summary.deal_classes} deal classes ({summary.deals} deals), {summary.draw_states} post-draw states"
          + (f", bonus bet {summary.bonus_bet:g} in the objective" if summary.bonus_bet else "")
          + (f", restricted strategy: {summary.restriction}" if summary.restriction != "optimal" else ""))
    print(f"EV per hand:       {summary.ev:+.12f}  (exact {summary.ev_exact})")
    print(f"house edge:        {summary.house_edge:.12f} ({100 * summary.house_edge:.4f}%)")
    print(f"element of risk:   {summary.element_of_risk:.12f} ({100 * summary.element_of_risk:.4f}%)")
    print(f"average total bet: {float(summary.average_total_bet):.12f}")
    print(f"standard deviation per hand: {summary.std_dev:.6f}")
    if summary.reused:
        print(f"the tables in {summary.directory} were already complete (solved in {summary.seconds:.1f} s)")
    else:
        print(f"solve time: {summary.seconds:.1f} s wall clock; tables in {summary.directory}")


def cmd_edge(args: argparse.Namespace) -> None:
    """Print the par sheet of the main game under optimal play, and the bonus bet both ways.

    Reads a finished solve (--tables DIR, default strategy_tables/<fingerprint>;
    mahjong-poker solve makes one). The return table has one row per final
    outcome and bet sequence; then the EV (also as an exact fraction), house
    edge, element of risk, average total bet by part, standard deviation, hit
    frequency and how often each decision is taken (shares of hands dealt). The
    bonus bet is reported per bet placed by a lone player and per bet settled
    (it pushes unless the player bets ting-hu), and were every bet settled;
    with --bonus B also under the strategy that maximises main game plus a
    bonus bet of B (a second solve).

    --seats N or N-M (1 to 6) adds the section "At a table of N seats"
    (docs/table.md): for each number of seats, --hands hands at the table
    (default 10^6) with --seed, simulated as by simulate --seats N: the main
    game's EV per seat, the worth of the cards shown at step 11 (paired) and
    the bonus bet's settled share and return per bet placed, each with its
    99% interval; one seat's row is checked against the exact lone figures.
    The last seat is also played bonus-aware at the ting (bonus bet B with
    --bonus B, else 1): its bonus return and its gain, paired.
    """
    from solver.game.objective import Objective
    from solver.products.edge import par_sheet, par_sheet_document
    from solver.render.document import to_text

    config = _config(args)
    _needs_seats(args.seats, hands=args.hands, seed=args.seed)
    tables = _tables_or_default(args.tables, config, Objective())
    sheet = par_sheet(config, tables, args.bonus, n_jobs=args.jobs, quiet=args.json or args.quiet,
                      compare=args.compare, seats=args.seats, table_hands=args.hands or TABLE_HANDS,
                      seed=1 if args.seed is None else args.seed)
    data = sheet.to_json()
    if args.json:
        print(_json_text(data))
        return
    print(to_text(par_sheet_document(sheet)))


def cmd_simulate(args: argparse.Namespace) -> None:
    """Play real shuffled decks with the solved strategy and check the exact EV against the result.

    Deals physical cards (jokers set aside and replaced in the community),
    takes deal and draw decisions from a solve's tables (--tables DIR,
    default strategy_tables/<fingerprint>), makes the ting decision from its
    own count of winning completions, and settles every bet with its own hu
    test. Prints the mean result with its standard error and 99% confidence
    interval, whether the solve's exact EV lies inside, and the outcome
    frequencies beside their exact probabilities. Same --seed, same result,
    whatever --jobs.

    --seats N (1 to 6) plays a table of N seats on one deck instead
    (docs/table.md): --hands is then hands at the table, and it prints the
    main game's EV per seat, the value of the cards shown at step 11 (the
    same deals played with and without them), the bonus bet's settled share
    and return per bet placed, and the range of a seat's result after 100,
    1,000 and 10,000 hands. One seat plays the same hands as without --seats.
    The last seat is also played bonus-aware at the ting with a bonus bet of
    --bonus B (default 1): its bonus return and its gain, paired.
    """
    from solver.game.objective import Objective
    from solver.products.simulate import simulate
    from solver.tables.files import default_directory

    config = _config(args)
    tables = _tables_or_default(args.tables, config, Objective()) or default_directory(config, Objective())
    if args.seats is not None:
        _simulate_table(args, config, tables)
        return
    if args.bonus is not None:
        raise InputError("--bonus sets the bonus-aware seat's bet at a table: give --seats N too")
    result = simulate(config, tables, args.hands, args.seed, args.jobs,
                      progress=None if args.json else stderr_progress("hands"))
    data = result.to_json()
    if args.json:
        print(_json_text(data))
        return
    low, high = result.interval
    print(f"{result.hands} hands, seed {result.seed}, in {result.seconds:.1f} s: {data['hands_per_second']:.0f} "
          f"hands/s, starting the workers and loading the simulator included")
    print(f"mean result per hand: {result.mean:+.6f} (standard error {result.std_error:.6f})")
    print(f"99% confidence interval: [{low:+.6f}, {high:+.6f}]")
    print(f"exact EV from the solve: {result.analytic_ev:+.6f}: "
          + ("inside the interval" if result.agrees else "OUTSIDE the interval"))
    rows = [(o["outcome"], o["count"], f"{o['frequency']:.6f}", f"{o['probability']:.6f}") for o in data["outcomes"]]
    print(text_table(["outcome", "hands", "frequency", "exact probability"], rows, "lrrr"))


def _simulate_table(args: argparse.Namespace, config: Any, tables: Any) -> None:
    """``simulate --seats N``: play the table and print (or ``--json``) its figures."""
    from solver.products.table import simulate_table

    result = simulate_table(config, tables, args.seats, args.hands, args.seed, args.jobs,
                            progress=None if args.json else stderr_progress("hands"), aware_bet=args.bonus or 1.0)
    data = result.to_json()
    if args.json:
        print(_json_text(data))
        return
    low, high = data["ci99"]
    v_low, v_high = data["shown_cards_ci99"]
    b_low, b_high = data["bonus_ci99"]
    print(f"{result.seats} seats x {result.hands} hands = {data['seat_hands']} seat-hands, seed {result.seed}, "
          f"in {result.seconds:.1f} s: {data['seat_hands_per_second']:.0f} seat-hands/s, starting the workers included")
    print(f"main game EV per seat: {data['ev_per_seat']:+.6f}, 99% interval [{low:+.6f}, {high:+.6f}] "
          f"(lone player, exact: {data['analytic_lone_ev']:+.6f}); SD per seat-hand {data['seat_sd']:.4f}")
    print(f"value of the cards shown at step 11: {data['shown_cards_value']:+.6f} per seat-hand, "
          f"99% interval [{v_low:+.6f}, {v_high:+.6f}] (ting decision changed on "
          f"{data['ting_decisions_changed_share']:.4%} of seat-hands)")
    settled = data["bonus_net_per_bet_settled"]
    print(f"bonus: settled on {data['bonus_settled_share']:.4%} of hands; per bet placed "
          f"{data['bonus_net_per_bet_placed']:+.6f}, 99% interval [{b_low:+.6f}, {b_high:+.6f}]"
          + (f"; per bet settled {settled:+.6f}" if settled is not None else ""))
    aware = data["bonus_aware_seat"]
    print(f"a bonus-aware seat {aware['seat']} (bonus bet {aware['bonus_bet']:g}, deciding the ting last): bonus "
          f"settled on {aware['bonus_settled_share']:.4%} of hands, per bet placed "
          f"{_interval_text(aware['bonus_net_per_bet_placed'], aware['bonus_ci99'])}; its main game "
          f"{_interval_text(aware['main_ev'], aware['main_ci99'])}; it gains "
          f"{_interval_text(aware['gain'], aware['gain_ci99'])} T a hand over main-game play")
    rows = [(f"{r['hands']:,}", f"{r['mean']:+.1f}", f"[{r['range90'][0]:+.1f}, {r['range90'][1]:+.1f}]",
             f"[{r['range95'][0]:+.1f}, {r['range95'][1]:+.1f}]") for r in data["ranges"]]
    print("a seat's total after N hands (normal approximation from the per-hand mean and SD):")
    print(text_table(["hands", "mean", "90% range", "95% range"], rows, "rrrr"))


def _interval_text(value: float, interval: list[float]) -> str:
    return f"{value:+.6f} [{interval[0]:+.6f}, {interval[1]:+.6f}]"


def _no_arguments(parser: argparse.ArgumentParser) -> None:
    """Commands that take only --config and --json."""


def _number(text: str, kind: type, what: str, ok: Callable[[Any], bool]) -> Any:
    """``text`` read as an int or a finite float meeting ``ok``; argparse reports the message otherwise."""
    try:
        value = kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be {what}, got {text!r}") from None
    if (kind is float and not math.isfinite(value)) or not ok(value):
        raise argparse.ArgumentTypeError(f"must be {what}, got {text!r}")
    return value


def _jobs(text: str) -> int:
    return _number(text, int, "a positive number of processes or -1 (every core)", lambda v: v >= 1 or v == -1)


def _bonus_bet(text: str) -> float:
    return _number(text, float, "a finite number, not negative", lambda v: v >= 0)


def _fa_bet(text: str) -> float:
    # the configuration's bets are checked with the state; here, what no configuration allows
    return _number(text, float, "a fa-hu bet placed: a positive multiple of T (1 or 2 under the rules)",
                   lambda v: v > 0)


def _aware_bet(text: str) -> float:
    # the table's last seat plays bonus-aware for this bet: without one there is no such seat to play
    return _number(text, float, "the bonus-aware seat's bonus bet, a positive number", lambda v: v > 0)


def _hands(text: str) -> int:
    # two at least: one hand has no standard error, so no interval to check the exact EV against
    return _number(text, int, "a whole number of hands from 2 to 10^12", lambda v: 2 <= v <= 10**12)


def _seats(text: str) -> int:
    return _number(text, int, "a whole number of seats from 1 to 6", lambda v: 1 <= v <= 6)


def _seat_range(text: str) -> range:
    """``"6"`` -> ``range(6, 7)``, ``"1-6"`` -> ``range(1, 7)``; each end as ``_seats`` reads it, and the
    message names the whole input, whichever part is wrong."""
    try:
        ends = [_seats(part) for part in text.split("-")]
    except argparse.ArgumentTypeError:
        ends = []
    if len(ends) not in (1, 2) or ends[0] > ends[-1]:
        raise argparse.ArgumentTypeError(f"must be N or N-M seats, 1 <= N <= M <= 6, got {text!r}")
    return range(ends[0], ends[-1] + 1)


def _positive_lines(text: str) -> int:
    return _number(text, int, "a whole number of lines, at least 1", lambda v: v >= 1)


def _seed(text: str) -> int:
    return _number(text, int, "a whole number from 0 to 2^63 - 1", lambda v: 0 <= v < 2**63)


def _add_jobs(parser: argparse.ArgumentParser, default: int, what: str) -> None:
    parser.add_argument("--jobs", type=_jobs, default=default, metavar="N", help=what)


def _add_tables(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--tables", metavar="DIR",
                        help=f"{what}; without --config, the configuration they were solved for (their manifest's)")


def _add_solve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", metavar="DIR", help="table directory (default: strategy_tables/<fingerprint>)")
    _add_jobs(parser, -1, "parallel processes (default -1: all cores)")
    parser.add_argument("--bonus", type=_bonus_bet, default=0.0, metavar="B",
                        help="solve for main game plus a bonus bet of B (default 0: main game only)")
    parser.add_argument("--restriction", choices=list(RESTRICTIONS), default="optimal",
                        help="solve a simple restricted strategy instead of optimal play (see edge --compare)")
    parser.add_argument("--backend", choices=["loky", "threading", "dask"], default="loky",
                        help="joblib backend (dask needs the [dask] extra)")
    parser.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler (default: a local cluster)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--force", action="store_true", help="move aside a table directory made for another solve")
    parser.add_argument("--column-store", action="store_true",
                        help="read and keep every hold's payout-free columns in the cache too (1.2 GB more, real "
                             "deck); stage A is then walked whole")
    parser.add_argument("--whole", action="store_true",
                        help="walk every stage-A row, also those that cannot beat folding, which a solve leaves out "
                             "(its figures are the same): what chart and paytable read, and make whole themselves")


def _add_best_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("hand", metavar="HAND", help="the player's cards, e.g. '11m 23p 57s'")
    parser.add_argument("--stage", choices=[s.value for s in Stage], help="inferred from the cards when omitted")
    parser.add_argument("--dead", metavar="CARDS", help="the player's discards so far (at the ting they may be "
                        "followed by cards other seats showed, as with --shown)")
    parser.add_argument("--shown", metavar="CARDS", help="cards other seats at the table showed (a claim's six, the "
                        "four each seat still in shows at step 11): dead to the player; the evaluator answers, and "
                        "says whether they change the best play")
    parser.add_argument("--community", metavar="CARDS", help="the four community cards (ting stage)")
    parser.add_argument("--dd", action="store_true", help="the player doubled down (draw and ting stages)")
    parser.add_argument("--fa", type=_fa_bet, metavar="F", help="the fa-hu bet placed (ting stage)")
    parser.add_argument("--bonus", type=_bonus_bet, default=0.0, metavar="B",
                        help="value main game plus a bonus bet of B (it pushes unless the player bets ting-hu)")
    _add_jobs(parser, -1, "processes for a deal-stage evaluation (default -1: all cores)")
    _add_tables(parser, "answer from these tables (default: the configuration's own, strategy_tables/<fingerprint>, "
                        "when a solve or a clone has them; same numbers as the evaluator, faster)")
    parser.add_argument("--no-tables", action="store_true", help="compute every EV with the evaluator, ignoring tables")


def _add_edge_arguments(parser: argparse.ArgumentParser) -> None:
    _add_tables(parser, "a finished solve (default: strategy_tables/<fingerprint>)")
    parser.add_argument("--bonus", type=_bonus_bet, default=0.0, metavar="B",
                        help="also compare the bonus-aware strategy for a bonus bet of B (with --seats: the "
                             "table's bonus-aware seat bets B; default 1)")
    parser.add_argument("--compare", action="store_true",
                        help="also evaluate simple strategies exactly (never double down, always claim a "
                             "tian-hu, minimum bets) beside optimal play; each is a solve")
    parser.add_argument("--seats", type=_seat_range, default=range(0), metavar="N[-M]",
                        help="add a table of N (to M) seats, 1 to 6, simulated on one deck (docs/table.md)")
    parser.add_argument("--hands", "--table-hands", dest="hands", type=_hands, metavar="H",
                        help="with --seats: hands at the table per number of seats (default 10^6; "
                             "--table-hands: the same, as chart spells it)")
    parser.add_argument("--seed", type=_seed, metavar="S", help="with --seats: random seed (default 1)")
    parser.add_argument("--quiet", action="store_true", help="no progress on standard error")
    _add_jobs(parser, -1, "processes for a solve or the table (default: all cores)")


def _add_simulate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hands", type=_hands, default=1_000_000, metavar="N", help="hands to play (default 10^6)")
    parser.add_argument("--seed", type=_seed, default=1, metavar="S", help="random seed (default 1)")
    parser.add_argument("--seats", type=_seats, metavar="N",
                        help="play a table of N seats (1 to 6) on one deck; --hands counts table hands")
    parser.add_argument("--bonus", type=_aware_bet, metavar="B",
                        help="with --seats: the last seat's bonus bet, played bonus-aware at the ting (default 1)")
    _add_jobs(parser, -1, "processes (default: all cores)")
    _add_tables(parser, "a finished solve (default: strategy_tables/<fingerprint>)")


def cmd_paytable(args: argparse.Namespace) -> None:
    """Solve the game exactly under other payouts: the house edge and the figures that keep it attractive.

    Values: --vary KEY=VALUES (repeatable) names a payout of the [payouts]
    table and its values, as a,b,c or start:stop:step (both ends included);
    bet-size lists as 1/2,1/3. Every combination is a variant, solved
    exactly with optimal play into strategy_tables/<fingerprint>, as
    solve --config would (best --tables reads it), or read from there when
    already solved.

    Output: one row per variant with the payouts, the house edge (an exact
    fraction in --json), element of risk, average total bet, standard
    deviation, hit frequency and how often the player folds at the fa-hu
    and ting-hu decisions. --out DIR writes paytable.json (everything),
    paytable.csv (the variants), paytable-targets.csv (the targets) and,
    for each payout given two or more values, a plot of the house edge
    against it, the other payouts at the configuration's values.

    Targets: --target 0.02,0.04 finds, for each payout named by --vary (its
    values may then be left out), the value that gives each house edge,
    the other payouts at the configuration's values (Newton's method on
    exact solves).

    Time (real deck, 2 cores, beside a finished solve): a variant of the
    tian-hu, di-hu or double-down payouts reads that solve's first stage
    (about 1 minute); one of the fa-hu payouts or the largest ting
    multiple prices it (under 2 minutes). A variant of the ting-hu
    payouts or the bet sizes walks the first stage again, but only the
    rows that can be best (1-5 minutes by machine and payout; ting_hu
    1.5: 2 min 13 s on 2 Intel Xeon cores); the first one stores in the
    cache folder what no payout changes (2.7 GB, a little over a minute;
    --no-column-store builds it each time instead), and the first to
    raise a ting-hu payout or multiple, its fa-hu bets the solve's,
    counts how that solve plays its best rows (under a minute, once). A
    plain solve leaves out the first-stage rows that cannot beat
    folding: a variant of the ting-hu payouts is bounded by them as they
    are, while one that prices that stage or changes the bet sizes or
    multiples has them walked first (about 3 minutes, once). Variants of
    one run share what they can: those with the same ting-hu payouts and
    bets price the rows the first walked, and ting variants far from
    every solve walk together. Every finished solve in strategy_tables/
    is read or priced the same way. The variants run side by side, as
    many as --jobs and the memory allow (about 3.5 GB each).
    docs/algorithm.md, "Paytable variants", explains how.
    """
    from solver.products.paytable import (
        VariantSolver,
        paytable_rows,
        solve_targets,
        write_outputs,
    )
    from solver.tables.files import usable_directory

    config = _config(args)
    named, grid = _paytable_grid(args.vary, bool(args.target), args.max_variants)
    count = math.prod(len(values) for values in grid.values()) if grid else 0
    if count > args.max_variants:
        raise InputError(f"--vary gives {count:,} variants, each a solve, more than --max-variants "
                         f"{args.max_variants}: list fewer values, take a coarser step, or raise --max-variants")
    if args.out:
        usable_directory(Path(args.out))  # refused now, not after the solves
    progress = None if args.quiet or args.json else (lambda line: print(line, file=sys.stderr))
    if args.scheduler and args.backend != "dask":
        raise InputError("--scheduler is for --backend dask")
    solver = VariantSolver(n_jobs=args.jobs, quiet=args.quiet or args.json, backend=args.backend,
                           scheduler=args.scheduler, column_store=not args.no_column_store)
    solver.share(solver.directory(config), config)  # the configuration's own solve, when there is one
    solver.share_beside(solver.directory(config).parent)  # and every other whole one, to read or price
    rows = paytable_rows(config, grid, solver, progress) if grid else []
    targets = solve_targets(config, named, args.target or (), solver, progress)
    written = write_outputs(Path(args.out), rows, targets, config) if args.out else []
    if args.json:
        print(_json_text({"variants": [r.to_json() for r in rows], "targets": [t.to_json() for t in targets],
                          "solves": solver.solves}))
        return
    _print_paytable(rows, targets)
    tables = f"the variants' strategy tables are in {solver.directory(config).parent}/"
    print(f"{solver.solves} solve(s) run; {tables}; " + (
        f"report written: {', '.join(str(p) for p in written)}" if written
        else "no report written (--out DIR writes JSON, CSV and plots)"))


def _paytable_grid(vary: list[str], targets_asked: bool, most: int) -> tuple[list[str], dict[str, list]]:
    """The payouts named by --vary, in order, and the values listed for each (none needed with --target; a
    range of more than ``most`` is refused before its values are made)."""
    from solver.products.paytable import parse_values

    grid: dict[str, list] = {}
    named: list[str] = []
    for item in vary:
        key, _, text = item.partition("=")
        key, text = key.strip(), text.strip()
        if key in named:
            raise InputError(f"--vary {key} is given twice: list its values in one --vary {key}=a,b,c")
        named.append(key)
        if not text and not targets_asked:
            raise InputError(f"--vary {item}: give its values, {key}=a,b,c or {key}=start:stop:step (or --target "
                             f"to find one)")
        if text:
            grid[key] = list(dict.fromkeys(parse_values(key, text, most)))  # a value given twice, solved once
    if not named:
        raise InputError("paytable: give at least one --vary KEY=VALUES (see --help)")
    return named, grid


def _print_paytable(rows: Sequence[VariantRow], targets: Sequence[TargetRow]) -> None:
    """The variants' figures, then each target's payout value, as text tables."""
    if rows:
        keys = list(rows[0].payouts)
        table = [[*(_payout_text(r.payouts[k]) for k in keys), f"{100 * r.summary.house_edge:.4f}%",
                  f"{100 * r.summary.element_of_risk:.4f}%", f"{float(r.summary.average_total_bet):.4f}",
                  f"{r.summary.std_dev:.4f}", f"{r.summary.hit_frequency:.4f}",
                  f"{r.summary.decisions()['fold_fa_hu']:.4f}", f"{r.summary.decisions()['fold_ting_hu']:.4f}",
                  Path(r.summary.directory).name]  # what --tables names to query the variant
                 for r in rows]
        print(text_table([*keys, "house edge", "elem. of risk", "avg bet", "SD", "hit freq", "fold fa", "fold ting",
                          "tables"], table, "r" * (len(keys) + 7) + "l"))
    if targets:
        print("payout values for each target house edge (the other payouts as configured):")
        noted = any(t.note for t in targets)  # a column of notes only when some target has one
        print(text_table(["payout", "target", "value", "house edge there", "steps"] + ["note"] * noted,
                         [[t.key, f"{100 * t.target:.4f}%", "-" if t.value is None else f"{t.value:.10g}",
                           "-" if t.house_edge is None else f"{100 * t.house_edge:.6f}%", t.solves]
                          + [t.note] * noted for t in targets], "lrrrr" + "l" * noted))


def _payout_text(value: object) -> str:
    return "/".join(f"{v:g}" for v in value) if isinstance(value, tuple) else f"{value:g}"


MAX_VARIANTS = 100
"""The most variants a paytable grid may hold unless --max-variants says more: a real-deck variant takes
minutes, so a step mistyped (tian_hu=4:6:0.0001) would start days of solves."""


def _max_variants(text: str) -> int:
    return _number(text, int, "a positive number of variants", lambda v: v >= 1)


def _add_paytable_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--vary", action="append", default=[], metavar="KEY=VALUES",
                        help="a payout and its values, e.g. tian_hu=4:6:0.5 or ting_hu=1,1.5 (repeatable)")
    parser.add_argument("--max-variants", type=_max_variants, default=MAX_VARIANTS, metavar="N",
                        help=f"refuse a grid of more variants than N (default {MAX_VARIANTS}): each is a solve")
    parser.add_argument("--target", "--targets", dest="target", type=_fractions, metavar="E,E,...",
                        help="house edges to reach by changing each --vary payout alone, e.g. 0.02,0.04,0.06 "
                             "(--targets: the same, as bonus spells it)")
    parser.add_argument("--out", metavar="DIR",
                        help="write paytable.json, the variants' and targets' CSV files and plots here")
    _add_jobs(parser, -1, "parallel processes per solve (default -1: all cores)")
    parser.add_argument("--backend", choices=["loky", "threading", "dask"], default="loky",
                        help="joblib backend of each solve (dask spreads it over a cluster)")
    parser.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler (default: a local cluster)")
    parser.add_argument("--no-column-store", action="store_true",
                        help="build the payout-free columns and rows each time instead of keeping them in the "
                             "cache (2.7 GB)")
    parser.add_argument("--quiet", action="store_true", help="no progress output")


def cmd_chart(args: argparse.Namespace) -> None:
    """Derive a strategy chart a person can learn from a solve's tables, price it exactly, draw it.

    The deal and the draw each get a ranked list of holds (named by their
    rank shapes, or with --words patterns in card-pattern words: a shorter
    list that loses more; with an example hand each, the share of hands it
    covers and its exact cost) with their bets and the claim and fold lines, refined by a local
    search on the chart's exact EV; the hands where it loses most; the ting
    decision by number of outs. Printed as Markdown (or --json); with --out
    DIR also written there in each --format: md (chart.md, chart.json),
    png and svg (pictures), html (index.html: chart, pictures, par sheet).
    Each list's loss is exact for its decision alone; --exact prices the
    whole chart exactly, with a solve that follows it. --max-lines N builds
    the best chart found within N lines (in card-pattern words unless
    --words shapes): each decision a ranked list or a point count (points
    for what the kept cards make), with the curve of loss against length
    per form (docs/chart.md); the report then leads with it and adds the
    full lists for reference.

    Time (real deck, 2 cores, after a full solve: the draw's lists read its
    draw table): the lists in rank shapes 4 to 5.5 minutes and 9 GB of
    memory, in card-pattern words about 3.5 minutes and 6.5 GB; --exact adds
    a solve of about 4 minutes (docs/performance.md, "The strategy chart").
    The first chart of a solve walks the rows its first stage left out below
    folding (about 3 minutes, once; a chart's lines may play them).
    """
    from solver.game.objective import Objective
    from solver.products.chart import build_chart, chart_markdown
    from solver.products.report import FORMATS, parse_formats, write_report
    from solver.tables.files import default_directory, usable_directory

    config = _config(args)
    tables = _tables_or_default(args.tables, config, Objective()) or default_directory(config, Objective())
    if args.format is not None and not args.out:
        raise InputError("--format chooses what --out writes: give --out DIR too")
    if args.seats and not args.out:
        raise InputError("--seats adds a section to the report's par sheet: give --out DIR too")
    _needs_seats(args.seats, table_hands=args.table_hands)
    formats = parse_formats(",".join(FORMATS) if args.format is None else args.format)
    if args.seats and "html" not in formats:
        raise InputError(f"--seats adds a section to the report's page, which --format {args.format} leaves out: "
                         "add html")
    quiet = args.json or args.quiet
    words = args.words or ("patterns" if args.max_lines is not None else "shapes")
    if args.out:
        usable_directory(Path(args.out))
        chart, written = write_report(config, tables, args.out, formats, args.exact, args.jobs, quiet,
                                      words, args.max_lines, args.seats, args.table_hands or TABLE_HANDS)
        if not args.json:
            print("wrote " + ", ".join(str(p) for p in written), file=sys.stderr)
    elif args.max_lines is not None:
        from solver.products.chart_short import build_short_chart

        chart = build_short_chart(config, tables, args.max_lines, exact=args.exact, n_jobs=args.jobs, quiet=quiet,
                                  words=words)
    else:
        chart = build_chart(config, tables, exact=args.exact, n_jobs=args.jobs, quiet=quiet, words=words)
    if chart.over_limit:
        print(f"mahjong-poker: no chart found fits in {args.max_lines} lines: the deal's shortest has "
              f"{chart.deal.lines}; with the draw's best within {args.max_lines} lines of its own ({chart.draw.lines}) "
              f"this chart has {chart.lines}", file=sys.stderr)
    print(_json_text(chart.to_json()) if args.json else chart_markdown(chart), end="\n" if args.json else "")


def _add_chart_arguments(parser: argparse.ArgumentParser) -> None:
    _add_tables(parser, "a finished main-game solve (default: strategy_tables/<fingerprint>)")
    parser.add_argument("--out", metavar="DIR", help="also write the chart, pictures and report into DIR")
    parser.add_argument("--format", metavar="LIST",
                        help="what --out writes, comma-separated: png, svg, html, md (default: all)")
    # patterns.WORDINGS and DEFAULT_WORDS, spelt out so that building the parser loads no numpy
    parser.add_argument("--words", choices=("shapes", "patterns"),
                        help="how lines name holds: rank shapes such as 2234 + 3 (the default, near optimal "
                             "play) or card-pattern words such as 'pair + suited open connector' (a shorter "
                             "list that loses more; the default with --max-lines, where a point count is "
                             "tried too)")
    parser.add_argument("--exact", action="store_true",
                        help="also price the whole chart exactly: a solve that follows it (as long as the "
                             "main solve; kept beside the tables and reused)")
    parser.add_argument("--max-lines", type=_positive_lines, metavar="N",
                        help="the best chart found within N deal and draw lines together (the claims, the fold "
                             "line and the ting by outs do not count), with the loss against the number of lines")
    parser.add_argument("--seats", type=_seat_range, default=range(0), metavar="N[-M]",
                        help="with --out: the report's par sheet adds a table of N (to M) seats, simulated "
                             "(as edge --seats)")
    parser.add_argument("--table-hands", "--hands", dest="table_hands", type=_hands, metavar="H",
                        help="with --seats: hands at the table per number of seats (default 10^6; --hands: "
                             "the same, as edge spells it)")
    _add_jobs(parser, -1, "processes for --exact (default: all cores)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar for --exact")


def cmd_cache(args: argparse.Namespace) -> None:
    """Show what the cache folder holds, and delete what is no longer needed.

    The folder ($MAHJONG_POKER_CACHE, or ~/.cache/mahjong-poker) holds
    per-geometry tables, numba's compiled kernels (one folder per version of
    the source), stage A's payout-free columns for paytable variants (one
    folder per deck and version of the source) and the query indexes of
    solves; everything in it is rebuilt on demand, so deleting is always
    safe. --prune deletes what this version of the code can no longer read
    (tables, kernels and columns of other versions,
    another checkout's kernels included, indexes of another format,
    leftovers of interrupted writes over an hour old); --clear deletes
    everything it lists. Only names the package writes are touched. A query
    index whose tables are gone cannot be told from here; --clear removes
    those too. Kernels are looked for where numba keeps them
    ($NUMBA_CACHE_DIR, else the folder's numba/).
    """
    from solver.products.cache import cache_entries, remove_entries
    from solver.runtime.diskcache import cache_dir

    if args.config is not None:
        load_config(args.config)  # the cache holds every configuration's files; a bad --config is still refused
    if cache_dir().exists() and not cache_dir().is_dir():
        raise InputError(f"the cache folder {cache_dir()} is a file, not a folder (set $MAHJONG_POKER_CACHE to a "
                         f"folder)")
    entries = cache_entries()
    doomed = entries if args.clear else [e for e in entries if not e.current] if args.prune else []
    removed = remove_entries(doomed)
    freed = sum(e.size for e in removed)
    if args.json:
        print(_json_text({"folder": str(cache_dir()), "freed_bytes": freed,
                          "entries": [{"path": str(e.path), "kind": e.kind, "bytes": e.size, "current": e.current,
                                       "removed": e in removed} for e in entries]}))
        return
    kinds = ("table", "kernels", "columns", "query index", "leftover")
    rows = []
    for kind in kinds:
        current = [e for e in entries if e.kind == kind and e.current]
        stale = [e for e in entries if e.kind == kind and not e.current]
        if current or stale:
            rows.append((kind, len(current), f"{sum(e.size for e in current) / 1e6:.1f}", len(stale),
                         f"{sum(e.size for e in stale) / 1e6:.1f}"))
    print(f"cache folder: {cache_dir()}" + ("" if entries else " (empty)"))
    if rows:
        print(text_table(["kind", "current", "MB", "stale", "MB"], rows, "lrrrr"))
    if doomed:
        print(f"deleted {len(removed)} entries, {freed / 1e6:.1f} MB freed"
              + (f" ({len(doomed) - len(removed)} in use or gone, left)" if len(removed) < len(doomed) else ""))
    elif any(not e.current for e in entries):
        print("stale entries can be deleted with --prune (everything, with --clear)")


def _add_cache_arguments(parser: argparse.ArgumentParser) -> None:
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--prune", action="store_true", help="delete what this version of the code cannot read")
    what.add_argument("--clear", action="store_true", help="delete everything (all of it is rebuilt on demand)")


def cmd_train(args: argparse.Namespace) -> None:
    """Train in the browser: play hands, and see at once what each decision cost, exactly.

    Starts a local web server (--host, default 127.0.0.1; --port, default
    8765, 0 for a free one), prints the page's URL and serves until Ctrl-C.
    The page deals shuffled hands and walks the rules in order; after each
    decision it shows the choice, the best one, every option with its exact
    EV (the same as mahjong-poker best for that state) and the mistake's cost
    in T, and keeps a score. Drills on one decision bring back the situations
    got wrong. Deal and draw decisions come from a solve's tables (--tables
    DIR, default strategy_tables/<fingerprint>) when they hold them, else from
    the evaluator; --seed S makes the session reproducible. With a chart
    (--chart FILE from mahjong-poker chart --json, default chart.json in the
    tables directory when there is one), each deal and draw grade also says
    what the chart plays and what that costs, and the score sets the chart's
    cost beside the player's. docs/trainer.md describes the page, its keys and
    its JSON API.
    """
    from solver.game.objective import Objective
    from solver.tables.files import check_tables
    from solver.trainer.grading import trainer_chart
    from solver.trainer.server import make_server

    config = _config(args)
    tables = _tables_or_default(args.tables, config, Objective())
    if tables is not None:
        check_tables(tables, config, Objective())
    chart = trainer_chart(args.chart, tables, config.geometry)  # a bad chart stops here, before serving
    server = make_server(config, tables, args.host, args.port, args.seed, args.config, chart)
    try:
        server.warm_up()
        print(_json_text({"url": server.url}) if args.json else f"Trainer at {server.url} — Ctrl-C stops it",
              flush=True)
        server.serve_forever()
    except KeyboardInterrupt:
        print("trainer stopped", file=sys.stderr)
    finally:
        server.server_close()


def _port(text: str) -> int:
    return _number(text, int, "a port number from 0 (any free port) to 65535", lambda v: 0 <= v <= 65535)


def _add_train_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=_port, default=8765, metavar="N", help="port (default 8765; 0: any free port)")
    parser.add_argument("--host", default="127.0.0.1", metavar="H", help="address to listen on (default 127.0.0.1)")
    _add_tables(parser, "a finished solve (default: strategy_tables/<fingerprint>, else the evaluator)")
    parser.add_argument("--seed", type=_seed, metavar="S", help="seed of the sessions' decks (default: random)")
    parser.add_argument("--chart", metavar="FILE",
                        help="a chart (mahjong-poker chart --json) shown beside each deal and draw grade "
                             "(default: chart.json in the tables directory, when there is one)")


Command = tuple[Callable[[argparse.Namespace], None], str, Callable[[argparse.ArgumentParser], None]]
COMMANDS: dict[str, Command] = {
    "best": (cmd_best, "the best play for a hand, with the EV of every option", _add_best_arguments),
    "solve": (cmd_solve, "solve the whole game: strategy tables, house edge, element of risk", _add_solve_arguments),
    "edge": (cmd_edge, "par sheet: return table, house edge, element of risk, bonus both ways", _add_edge_arguments),
    "simulate": (cmd_simulate, "Monte Carlo check of the solve with real shuffled decks", _add_simulate_arguments),
    "chart": (cmd_chart, "a strategy chart a person can learn, priced exactly; pictures; an HTML report",
              _add_chart_arguments),
    "bonus": (cmd_bonus, "exact return table of the bonus bet settled on six random cards; paytables for target edges",
              _add_bonus_arguments),
    "paytable": (cmd_paytable, "solve the game under other payouts; the payout for a target house edge",
                 _add_paytable_arguments),
    "deal-stats": (cmd_deal_stats, "number of six-card deals that can claim a tian-hu", _no_arguments),
    "cache": (cmd_cache, "what the cache folder holds; --prune deletes what is no longer read", _add_cache_arguments),
    "train": (cmd_train, "a strategy trainer in the browser: every decision graded exactly", _add_train_arguments),
}


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors on one line (``mahjong-poker: error: ...``, exit code 2, no usage dump)."""

    def error(self, message: str) -> NoReturn:
        """Print the one-line error and exit with code 2."""
        where = "" if self.prog == "mahjong-poker" else f"{self.prog.removeprefix('mahjong-poker ')}: "
        self.exit(2, f"mahjong-poker: error: {where}{message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser, one sub-command per job."""
    parser = _Parser(
        prog="mahjong-poker",
        description="Exact optimal-strategy solver for the casino table game Mahjong Poker.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (func, help_text, add_arguments) in COMMANDS.items():
        command = sub.add_parser(name, help=help_text, description=inspect.cleandoc(func.__doc__ or ""),
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
        add_arguments(command)
        _add_common(command)
        command.set_defaults(func=func)
    return parser


def _stdout_closed() -> bool:
    """Whether standard output is a pipe whose reader has gone (poll reports an error on it)."""
    import select

    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLERR)
        return bool(poller.poll(0))
    except (AttributeError, OSError, ValueError):  # no poll, or no file descriptor behind stdout
        return False


COMPILE_MARKER_PREFIX = "mahjong-poker-compiling-"
"""A compile notice's marker file: this, the command's process id, a dash and a random name."""


def _sweep_compile_markers(folder: Path) -> None:
    """Remove the markers of commands that are gone: a killed one (SIGKILL) could not remove its own."""
    for left in folder.glob(f"{COMPILE_MARKER_PREFIX}*"):
        pid = left.name.removeprefix(COMPILE_MARKER_PREFIX).split("-")[0]
        if pid.isdigit() and not _running(int(pid)):
            left.unlink(missing_ok=True)


def _running(pid: int) -> bool:
    """Whether a process of that id exists (another user's counts: it may not be signalled, but it is there)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextmanager
def compile_notice() -> Iterator[None]:
    """Within the block, the first process of the command to compile a kernel says so once on stderr
    (:func:`solver.runtime.jit.watch_compiles`): its marker file, named here, is removed after. Only at a
    terminal: a pipe or a log gets stderr's messages alone, unless the environment names a marker already."""
    from solver.runtime.jit import COMPILE_NOTICE_ENV

    if COMPILE_NOTICE_ENV in os.environ or not sys.stderr.isatty():
        yield
        return
    folder = Path(tempfile.gettempdir())
    _sweep_compile_markers(folder)
    marker = folder / f"{COMPILE_MARKER_PREFIX}{os.getpid()}-{uuid.uuid4().hex}"
    os.environ[COMPILE_NOTICE_ENV] = str(marker)
    try:
        yield
    finally:
        os.environ.pop(COMPILE_NOTICE_ENV, None)
        marker.unlink(missing_ok=True)


def _stop_workers_uninterrupted() -> None:
    """End the workers with Ctrl-C ignored meanwhile: an interrupt inside loky's shutdown leaves its lock held,
    and the process then hangs as it exits (or, in loky's exit hook, prints a traceback)."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        stop_workers()
    finally:
        signal.signal(signal.SIGINT, previous)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; bad input gives exit code 2 and a one-line message."""
    parser = build_parser()
    try:
        args = parser.parse_args(_joined_number_lists(sys.argv[1:] if argv is None else argv))
    except SystemExit as stop:  # --help, --version (0) or a bad argument (2, its one line already printed)
        return int(stop.code or 0)
    mark_parent()
    pin_cache_dir()
    quiet_resource_tracker()
    note_config_file(getattr(args, "config", None))  # a hint to solve repeats the --config given
    # after an interrupt joblib would say, as the command ends, that the abandoned work went unused
    warnings.filterwarnings("ignore", message=r".*(tasks have been successfully executed|tasks which were still being)",
                            category=UserWarning)
    # and loky says so when it replaces an idle worker between two stages of a solve: nothing is lost
    warnings.filterwarnings("ignore", message=r"A worker stopped while some jobs were given", category=UserWarning)
    finished = False
    try:
        with compile_notice():
            args.func(args)
        sys.stdout.flush()
        finished = True
        if argv is None:  # the command's process ends next: its workers end here, not in loky's exit hook
            _stop_workers_uninterrupted()
    except InputError as exc:
        print(f"mahjong-poker: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        # a chunk finishing as the pool shuts down makes joblib's callback thread try to hand out the
        # next one, and log the refusal with a traceback: expected here, and nothing is lost
        logging.getLogger("concurrent.futures").disabled = True
        _stop_workers_uninterrupted()
        print("mahjong-poker: interrupted" + (" (finished chunks are kept: run the command again to resume)"
                                             if args.command == "solve" and not finished else ""), file=sys.stderr)
        return 130
    except BrokenPipeError:
        if not _stdout_closed():
            raise  # another pipe broke (a worker's, a cluster's): a real error
        # the reader went away (`mahjong-poker ... | head`): stop quietly, as the Python docs advise,
        # pointing stdout at devnull so that the flush at exit does not fail again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as exc:  # the disk, not the input: a full disk, a folder removed under us
        where = f": {exc.filename}" if exc.filename else ""
        print(f"mahjong-poker: error: {exc.strerror or exc}{where}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
