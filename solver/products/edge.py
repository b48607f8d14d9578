"""The par sheet: the house edge of optimal play and everything a math report needs around it.

Built from a finished solve (:func:`solver.staged.run.load_summary`); solving
first when the tables do not exist yet. With a bonus bet B the report
compares two strategies for a lone player, both from exact solves: (a) the
main-game-optimal strategy (the bonus pushes unless the player bets
ting-hu, so the strategy decides how often it is settled) and (b) the
strategy that maximises main game plus B times the bonus. With seats the
sheet also carries a table of 1 to 6 seats on one deck, simulated
(:func:`solver.products.table.simulate_table`, docs/table.md). Where the same configuration is solved
on another number of decks, the sheet ends with one, two and three decks side by side
(:mod:`solver.products.decks`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.game.bonus import BonusTable, bonus_table
from solver.game.config import GameConfig
from solver.game.objective import RESTRICTIONS, Objective
from solver.products.decks import DeckRow, compares, deck_rows, decks_document
from solver.products.query import stderr_progress
from solver.render.document import Block, Heading, Paragraph, Table
from solver.staged.run import solve
from solver.staged.summary import Summary, load_summary
from solver.tables.files import bounded_stage_a, check_tables, default_directory, solve_command

if TYPE_CHECKING:  # the table simulator loads numba kernels: imported only when a table is played
    from solver.products.table import TableResult


@dataclass(frozen=True)
class BonusComparison:
    """The bonus bet of size B under strategies (a) main-game-optimal and (b) bonus-aware."""

    bet: float
    main_optimal: Summary
    bonus_aware: Summary

    def to_json(self) -> dict[str, Any]:
        """The figures as plain data for ``--json``."""
        def side(s: Summary) -> dict[str, Any]:
            return {"main_game_ev": float(s.ev_exact), "bonus_settled": float(s.bonus_settled),
                    "bonus_return_per_bet_placed": s.bonus_net_settled,
                    "total_ev": float(s.ev_exact) + self.bet * s.bonus_net_settled}

        a, b = side(self.main_optimal), side(self.bonus_aware)
        return {"bet": self.bet, "main_optimal": a, "bonus_aware": b,
                "main_game_ev_change": b["main_game_ev"] - a["main_game_ev"],
                "bonus_return_change": b["bonus_return_per_bet_placed"] - a["bonus_return_per_bet_placed"]}


@dataclass(frozen=True)
class ParSheet:
    """Figures of the main game under optimal play, and of the bonus bet."""

    config: GameConfig
    summary: Summary
    bonus_random: BonusTable
    bonus: BonusComparison | None = None
    strategies: tuple[tuple[str, Summary], ...] = ()
    """Simple restricted strategies (see :mod:`solver.game.objective`) with their exact summaries."""
    table: tuple[TableResult, ...] | None = None
    """A table of N seats on one deck, one simulated result per number of seats (``table_figures``)."""
    decks: tuple[DeckRow, ...] = ()
    """The same configuration on one, two and three decks, those solved (:mod:`solver.products.decks`)."""
    decks_missing: tuple[int, ...] = ()
    """The deck counts of :attr:`decks` not solved yet."""

    def shows_decks(self) -> bool:
        """Whether another number of decks than the sheet's own is solved, so the sheet compares them."""
        return compares(self.decks, self.config.decks)

    def to_json(self) -> dict[str, Any]:
        """The figures as plain data for ``--json``."""
        s = self.summary
        # the bets settled are not a random sample of communities (a strong start often ends the hand at the
        # fa-hu, and its bonus pushes), so their edge is not the paytable's alone (docs/rules.md)
        per_settled = -s.bonus_net_settled / float(s.bonus_settled) if s.bonus_settled else None
        data = {
            "ev": float(s.ev_exact), "ev_exact": str(s.ev_exact), "house_edge": s.house_edge,
            "house_edge_exact": str(-s.ev_exact), "element_of_risk": s.element_of_risk,
            "average_total_bet": float(s.average_total_bet), "average_bets": s.average_bets(),
            "std_dev": s.std_dev, "variance": float(s.variance), "hit_frequency": s.hit_frequency,
            "outcomes": [r.to_json() for r in s.outcomes],
            "denominator": str(s.denominator),
            "decisions": s.decisions(),
            "bonus_every_bet_settled": {"ev": self.bonus_random.ev, "house_edge": self.bonus_random.house_edge},
            "bonus_per_bet_placed": {"settled": float(s.bonus_settled), "ev": s.bonus_net_settled,
                                     "house_edge": -s.bonus_net_settled,
                                     "house_edge_per_bet_settled": per_settled},
            "tables": s.directory,
        }
        if self.bonus is not None:
            data["bonus_aware"] = self.bonus.to_json()
        if self.strategies:
            optimal = float(s.ev_exact)
            data["strategies"] = [
                {"strategy": name, "description": RESTRICTIONS[name], "ev": float(r.ev_exact),
                 "house_edge": r.house_edge, "element_of_risk": r.element_of_risk,
                 "loss_vs_optimal": optimal - float(r.ev_exact)}
                for name, r in (("optimal", s),) + self.strategies
            ]
        if self.table:
            data["table"] = _table_json(self.table, s)
        if self.shows_decks():
            data["decks"] = {"rows": [r.to_json() for r in self.decks], "not_solved": list(self.decks_missing)}
        return data


def _table_json(rows: tuple[TableResult, ...], lone: Summary) -> dict[str, Any]:
    """The table section as plain data: each row is ``simulate --seats N --json``'s object; one seat's row
    is the lone player, so its intervals are checked against the exact figures of the solve."""
    data: dict[str, Any] = {"hands": rows[0].hands, "seed": rows[0].seed, "method": "simulated",
                            "rows": [r.to_json() for r in rows]}
    one = next((r for r in data["rows"] if r["seats"] == 1), None)
    if one is not None:
        ev, bonus = float(lone.ev_exact), lone.bonus_net_settled
        data["lone_player_check"] = {
            "exact_ev": ev, "ev_ci99_covers_exact": one["ci99"][0] <= ev <= one["ci99"][1],
            "exact_bonus_per_bet_placed": bonus,
            "bonus_ci99_covers_exact": one["bonus_ci99"][0] <= bonus <= one["bonus_ci99"][1]}
    return data


def _solved(config: GameConfig, tables: Path | None, objective: Objective, n_jobs: int, quiet: bool) -> Summary:
    """The summary of a solve for ``objective``: its directory is ``tables`` (for the main game) or
    beside it with the objective's suffix, or by default under ``strategy_tables/``. The main game's must
    exist (``InputError`` otherwise); another objective's (``--bonus``, ``--compare``) is solved if missing.
    A restricted strategy reads stage A from the main game's solve (the restriction changes only the
    later stages)."""
    main = tables if tables is not None else default_directory(config, Objective())
    directory = main.parent / (main.name + objective.suffix())
    if objective == Objective():  # the main solve is read, never made here: solving is `mahjong-poker solve`
        check_tables(directory, config, objective)  # the optimal strategy's, not another objective's
        return load_summary(directory, config)
    if (directory / "summary.parquet").exists():
        check_tables(directory, config, objective)  # tables of another objective are never reported as these
        return load_summary(directory, config)
    restricted = objective.restriction != "optimal"
    has_stage_a = (main / "holds.parquet").exists() and not bounded_stage_a(main)
    if restricted and not has_stage_a and not quiet:
        print(f"{main} has no stage A (holds.parquet; the committed real-deck tables leave it out), so the "
              f"{objective.restriction} strategy is solved whole; {solve_command(main)} first would "
              f"make each strategy a re-run of the later stages", file=sys.stderr)
    return solve(config, directory, bonus=objective.bonus, restriction=objective.restriction, n_jobs=n_jobs,
                 quiet=quiet, holds_from=main if restricted and has_stage_a else None)


def check_table_seats(config: GameConfig, seats: Sequence[int]) -> None:
    """Refuse (``InputError``) any number of seats ``config``'s deck cannot deal, before anything runs."""
    if seats:  # the table module loads numba kernels: not for a sheet without a table
        from solver.products.table import check_seats

        for n in seats:
            check_seats(config, n)


def table_figures(config: GameConfig, tables: Path | str, seats: Sequence[int], hands: int, seed: int = 1,
                  n_jobs: int = -1, quiet: bool = False, aware_bet: float = 1.0) -> tuple[TableResult, ...]:
    """A table of N seats for each N in ``seats``, ``hands`` hands each with ``seed``, played with the
    main-game solve in ``tables`` and a bonus-aware last seat betting ``aware_bet``:
    :func:`solver.products.table.simulate_table`, so one seat's row is ``simulate --seats 1``'s. Every N is
    checked before the first is played (``InputError``)."""
    from solver.products.table import simulate_table

    check_table_seats(config, seats)
    return tuple(simulate_table(config, tables, n, hands, seed, n_jobs,
                                progress=None if quiet else stderr_progress(f"{n} seats: hands"), aware_bet=aware_bet)
                 for n in seats)


def par_sheet(config: GameConfig, tables: Path | str | None = None, bonus: float = 0.0, n_jobs: int = -1,
              quiet: bool = False, compare: bool = False, seats: Sequence[int] = (), table_hands: int = 1_000_000,
              seed: int = 1) -> ParSheet:
    """The par sheet of ``config``, from the tables in ``tables`` (default: the configuration's
    directory under ``strategy_tables/``), solving what is missing. With ``bonus`` B > 0 the
    bonus-aware strategy's solve is compared with the main-game-optimal one; with ``compare``
    each simple restricted strategy's. Those solves live beside ``tables``, named by objective.
    With ``seats`` (e.g. ``range(1, 7)``) the sheet carries a table of each number of seats,
    ``table_hands`` hands each (:func:`table_figures`), its bonus-aware seat betting B (1 without one)."""
    check_table_seats(config, seats)  # refused before any solve or simulation starts
    base = Path(tables) if tables is not None else None
    main = _solved(config, base, Objective(), n_jobs, quiet)
    comparison = None
    if bonus > 0:
        comparison = BonusComparison(bonus, main, _solved(config, base, Objective(bonus), n_jobs, quiet))
    strategies = tuple((name, _solved(config, base, Objective(restriction=name), n_jobs, quiet))
                       for name in RESTRICTIONS if compare and name != "optimal")
    table = (table_figures(config, main.directory, seats, table_hands, seed, n_jobs, quiet, bonus or 1.0)
             if seats else None)
    decks, missing = deck_rows(config, main)
    return ParSheet(config, main, bonus_table(config), comparison, strategies, table, tuple(decks), tuple(missing))


def par_sheet_document(sheet: ParSheet) -> list[Block]:
    """The par sheet as document blocks: ``solver.render.document`` renders them as text (the
    ``edge`` command), Markdown or HTML (the report), so every form says the same thing."""
    data = sheet.to_json()
    blocks: list[Block] = [
        Heading(2, "Par sheet: optimal play", "par-sheet"),
        Paragraph(f"Exact figures from the solve in {sheet.summary.directory}, per hand, in units of the "
                  f"tian-hu bet. Combinations are out of {data['denominator']}."),
        Table(["figure", "value", "exact / detail"], _figure_rows(data), "lrl"),
        Heading(3, "Return table"),
        Table(["outcome", "net", "combinations", "probability", "return"],
              [[o["outcome"], f"{o['net']:+g}", o["combinations"], f"{o['probability']:.10f}",
                f"{o['return']:+.10f}"] for o in data["outcomes"]], "lrrrr"),
        Heading(3, "Decisions (probability per hand)"),
        Table(["decision", "probability"], _decision_rows(data["decisions"]), "lr"),
    ]
    if "bonus_aware" in data:
        blocks += _bonus_aware_blocks(data["bonus_aware"])
    if "strategies" in data:
        blocks += [
            Heading(3, "Simple strategies"),
            Paragraph("Each evaluated exactly, with optimal play wherever the rule is silent."),
            Table(["strategy", "rule", "EV", "house edge", "loss vs optimal"],
                  [[r["strategy"], r["description"], f"{r['ev']:+.6f}", f"{100 * r['house_edge']:.4f}%",
                    f"{r['loss_vs_optimal']:.6f}"] for r in data["strategies"]], "llrrr"),
        ]
    if "table" in data:
        blocks += _table_blocks(data["table"])
    return blocks + decks_document(sheet.decks, sheet.decks_missing, sheet.config.decks)


def _figure_rows(data: dict[str, Any]) -> list[list[str]]:
    placed = data["bonus_per_bet_placed"]
    return [
        ["EV per hand", f"{data['ev']:+.12f}", data["ev_exact"]],
        ["house edge", f"{data['house_edge']:.12f} ({100 * data['house_edge']:.4f}%)", data["house_edge_exact"]],
        ["element of risk", f"{data['element_of_risk']:.12f} ({100 * data['element_of_risk']:.4f}%)", ""],
        ["average total bet", f"{data['average_total_bet']:.6f}",
         " + ".join(f"{k} {v:.6f}" for k, v in data["average_bets"].items())],
        ["standard deviation per hand", f"{data['std_dev']:.6f}", f"variance {data['variance']:.6f}"],
        ["hit frequency", f"{data['hit_frequency']:.6f}", ""],
        ["bonus, per bet placed (lone player)", f"EV {placed['ev']:+.6f}",
         f"house edge {100 * placed['house_edge']:.4f}%, settled on {placed['settled']:.6f} of hands"
         + ("" if placed["house_edge_per_bet_settled"] is None else
            f": {100 * placed['house_edge_per_bet_settled']:.4f}% per bet settled")],
        ["bonus, were every bet settled (six random cards)", f"EV {data['bonus_every_bet_settled']['ev']:+.6f}",
         f"house edge {100 * data['bonus_every_bet_settled']['house_edge']:.4f}%"],
    ]


def decision_name(key: str) -> str:
    """A decision's key as the rules write it: ``claim_tian_hu`` -> ``claim tian-hu``."""
    return key.replace("_hu", "-hu").replace("_", " ")


def _decision_rows(decisions: dict[str, Any]) -> list[list[str]]:
    rows = []
    for name, value in decisions.items():
        if isinstance(value, dict):
            rows += [[f"{decision_name(name)} {k}", f"{v:.6f}"] for k, v in value.items()]
        else:
            rows.append([decision_name(name), f"{value:.6f}"])
    return rows


def _bonus_aware_blocks(b: dict[str, Any]) -> list[Block]:
    rows = [[name, f"{b[k]['main_game_ev']:+.6f}", f"{b[k]['bonus_settled']:.6f}",
             f"{b[k]['bonus_return_per_bet_placed']:+.6f}", f"{b[k]['total_ev']:+.6f}"]
            for name, k in (("(a) main-game-optimal", "main_optimal"), ("(b) bonus-aware", "bonus_aware"))]
    return [
        Heading(3, f"With a bonus bet of {b['bet']:g}"),
        Table(["strategy", "main EV", "bonus settled", "bonus EV per bet", "main + B x bonus"], rows, "lrrrr"),
        Paragraph(f"The bonus-aware strategy changes the main game's EV by {b['main_game_ev_change']:+.6f} "
                  f"and the bonus's return per bet placed by {b['bonus_return_change']:+.6f}."),
    ]


def _with_interval(value: float, interval: list[float], digits: int) -> str:
    return f"{value:+.{digits}f} [{interval[0]:+.{digits}f}, {interval[1]:+.{digits}f}]"


def _table_blocks(table: dict[str, Any]) -> list[Block]:
    """The section "At a table of N seats": a row per number of seats, then how each figure was obtained."""
    rows = table["rows"]
    counts = [r["seats"] for r in rows]
    title = f"{counts[0]}" if len(counts) == 1 else f"{min(counts)} to {max(counts)}"
    lines = [[str(r["seats"]), _with_interval(r["ev_per_seat"], r["ci99"], 4),
              "0 (nothing shown)" if r["seats"] == 1 else
              _with_interval(r["shown_cards_value"], r["shown_cards_ci99"], 5),
              f"{100 * r['bonus_settled_share']:.2f}%",
              _with_interval(r["bonus_net_per_bet_placed"], r["bonus_ci99"], 4), f"{r['seat_hands']:,}"]
             for r in rows]
    aware = [r["bonus_aware_seat"] for r in rows]
    aware_lines = [[str(r["seats"]), f"{100 * a['bonus_settled_share']:.2f}%",
                    _with_interval(a["bonus_net_per_bet_placed"], a["bonus_ci99"], 4),
                    _with_interval(a["main_ev"], a["main_ci99"], 4), _with_interval(a["gain"], a["gain_ci99"], 5),
                    f"{100 * a['ting_decisions_changed_share']:.2f}%"] for r, a in zip(rows, aware)]

    def spread(r: dict[str, Any]) -> str:
        return f"{r['mean']:+,.0f}: [{r['range90'][0]:+,.0f}, {r['range90'][1]:+,.0f}] / " \
               f"[{r['range95'][0]:+,.0f}, {r['range95'][1]:+,.0f}]"

    range_lines = [[str(r["seats"])] + [spread(x) for x in r["ranges"]] for r in rows]
    bet = aware[0]["bonus_bet"]
    return [
        Heading(3, f"At a table of {title} seats", "table"),
        Table(["seats", "main game EV per seat [99%]", "shown cards' worth per seat-hand [99%]", "bonus settled",
               "bonus per bet placed [99%]", "seat-hands"], lines, "rllrlr"),
        Paragraph(_table_method(table)),
        Paragraph(f"**A bonus-aware seat** (bonus bet {bet:g} T), the last, among main-game-optimal ones. It "
                  "decides the ting after the others; when none of them bet it, its choice settles or pushes "
                  f"the bonus, so it maximises its main game plus {bet:g} times the settled bonus's expected net "
                  "on what it has seen (exact, by every two-card completion). Elsewhere it plays the main game. "
                  "Where its choice differs, its results take the exact expected change, so the deals are "
                  "those above; the gain is paired, hand by hand."),
        Table(["seats", "bonus settled", "bonus per bet placed [99%]", "its main game EV [99%]",
               f"gain in T a hand (main + {bet:g} x bonus) [99%]", "ting changed"], aware_lines, "rrllll"),
        Paragraph("**A seat's result after N hands**, in T: mean: 90% / 95% range (normal approximation from "
                  "one seat's per-hand mean and SD)."),
        Table(["seats"] + [f"{x['hands']:,} hands" for x in rows[0]["ranges"]], range_lines, "rlll"),
    ]


def _table_method(table: dict[str, Any]) -> str:
    """How the table's figures were obtained, and what the seats leave out (docs/table.md)."""
    text = (f"Simulated, not exact: {table['hands']:,} hands at the table per row (seats x hands seat-hands), "
            f"seed {table['seed']}, every seat playing the main-game-optimal strategy of this solve on one "
            "shuffled deck (`mahjong-poker simulate --seats N`). The EV per seat is the mean of the seats' "
            "results; its 99% interval comes from the spread of the hands' table totals, since the seats of one "
            "hand are correlated. The shown cards' worth is paired: the same deals played again with each "
            "seat's lone ting decision (its own cards only), the difference taken hand by hand. The bonus is "
            "one unit per seat, settled when some seat bets the ting and pushed for every seat otherwise; its "
            "return is per bet placed, with the interval from the hands. ")
    check = table.get("lone_player_check")
    if check is not None:
        def covers(yes: bool) -> str:
            return "covers" if yes else "does NOT cover"

        text += (f"One seat is the lone player: its EV interval {covers(check['ev_ci99_covers_exact'])} the exact "
                 f"EV {check['exact_ev']:+.6f} above, and its bonus interval "
                 f"{covers(check['bonus_ci99_covers_exact'])} the exact {check['exact_bonus_per_bet_placed']:+.6f} "
                 "per bet placed. ")
    return text + ("The seats use the cards shown at step 11 (and a claimer's six) only at the ting decision; at "
                   "the deal and the draw they ignore a tian-hu or di-hu claimer's shown cards and play the lone "
                   "player's tables (docs/table.md measures what that leaves on the table; `best --shown` plays "
                   "such a decision exactly).")
