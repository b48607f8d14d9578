"""The figures of a solved game: the return table, exact EV, house edge, element of risk, variance.

Built from the outcome counts of a strategy (:mod:`solver.staged.forward`): integer
counts of card sequences per *slot* (the number of jokers among the eight
cards seen before the community, which fixes the number of sequences),
brought to a common denominator. Every figure is an exact fraction.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import comb, lcm
from pathlib import Path
from typing import Any

import pyarrow as pa

from solver.game.config import GameConfig
from solver.game.objective import Objective
from solver.game.outcomes import KINDS, Outcome, slot_denominator
from solver.tables.files import check_tables, read_metadata, read_table, write_json, write_table


@dataclass(frozen=True)
class OutcomeRow:
    """One row of the return table."""

    outcome: Outcome
    net: float
    combinations: int  # over the common denominator of all outcomes
    probability: Fraction

    @property
    def contribution(self) -> float:
        """Probability times net result: this row's part of the EV."""
        return float(self.probability) * self.net

    def to_json(self, full: bool = False) -> dict[str, Any]:
        """The row as plain JSON values (the exact count as a string: it outgrows 64 bits); ``full`` adds
        the bets placed and the total bet, as the return table's file holds them."""
        o = self.outcome
        data: dict[str, Any] = {"outcome": o.label(), "net": self.net, "combinations": str(self.combinations),
                                "probability": float(self.probability), "return": self.contribution}
        if full:
            data.update(kind=o.kind, double_down=o.double_down, fa_bet=o.fa_bet, ting_bet=o.ting_bet,
                        total_bet=o.total_bet())
        return data


@dataclass(frozen=True)
class Summary:
    """The exact figures of a solved game under its optimal strategy."""

    ev: float
    """EV per hand of the solve's objective, from the evaluator (the EVs of the deal options played,
    weighted over the classes): the main game, plus B times the bonus net when solved with a bonus bet B.
    The deal options' EVs assume optimal play after the deal, so for a chart this is "chart at the deal,
    optimal after"."""
    ev_exact: Fraction
    """EV of the main game alone under this strategy, exact, from the outcome counts (= ev when B = 0 and
    play after the deal is optimal)."""
    average_total_bet: Fraction
    variance: Fraction
    outcomes: list[OutcomeRow]
    denominator: int
    deal_classes: int
    deals: int
    draw_states: int
    bonus_bet: float
    restriction: str
    """The strategy's restriction (``optimal``: none), see :mod:`solver.game.objective`."""
    bonus_settled: Fraction
    """Probability that the bonus bet is settled (the player bets ting-hu)."""
    bonus_net_settled: float
    """Expected bonus net of a unit bonus bet per hand, counting pushes as 0."""
    seconds: float
    """Wall-clock time of the run that finished the tables (a resumed run counts only itself)."""
    tian_hu_declined: Fraction = Fraction(0)
    """Probability of a deal with a tian-hu that optimal play declines."""
    di_hu_declined: Fraction = Fraction(0)
    """Probability of a post-draw hand with a di-hu that optimal play declines."""
    directory: str = ""
    reused: bool = False
    """True when the summary was read from tables already complete, not computed now."""

    @property
    def house_edge(self) -> float:
        """The main game's house edge per hand under this strategy: -EV (bonus not included)."""
        return float(-self.ev_exact)

    def average_bets(self) -> dict[str, float]:
        """The average total bet by part: T, DD, F and G (each counted when placed)."""
        rows = self.outcomes
        return {"T": 1.0,
                "DD": float(sum((r.probability * Fraction(r.outcome.double_down) for r in rows), Fraction(0))),
                "F": float(sum((r.probability * Fraction(r.outcome.fa_bet) for r in rows), Fraction(0))),
                "G": float(sum((r.probability * Fraction(r.outcome.ting_bet) for r in rows), Fraction(0)))}

    @property
    def element_of_risk(self) -> float:
        """House edge per unit of money bet: -EV / average total bet."""
        return float(-self.ev_exact / self.average_total_bet)

    @property
    def std_dev(self) -> float:
        """Standard deviation of the result per hand."""
        return float(self.variance) ** 0.5

    @property
    def hit_frequency(self) -> float:
        """Probability that the hand ends with a net win."""
        return float(sum((r.probability for r in self.outcomes if r.net > 0), Fraction(0)))

    def rate(self, predicate: Callable[[Outcome], bool]) -> Fraction:
        """Probability that a hand ends in an outcome meeting ``predicate``."""
        return sum((r.probability for r in self.outcomes if predicate(r.outcome)), Fraction(0))

    def decisions(self) -> dict[str, Any]:
        """How often each decision is taken, per hand."""
        fa_sizes = sorted({r.outcome.fa_bet for r in self.outcomes if r.outcome.fa_bet})
        ting_sizes = sorted({(r.outcome.fa_bet, r.outcome.ting_bet) for r in self.outcomes if r.outcome.ting_bet})
        return {
            "claim_tian_hu": float(self.rate(lambda o: o.kind.startswith("tian_hu"))),
            "decline_tian_hu": float(self.tian_hu_declined),
            "double_down": float(self.rate(lambda o: o.double_down > 0)),
            "claim_di_hu": float(self.rate(lambda o: o.kind.startswith("di_hu"))),
            "decline_di_hu": float(self.di_hu_declined),
            "fold_fa_hu": float(self.rate(lambda o: o.kind == "fold_fa")),
            "fa_hu_bet": {f"{f:g}": float(self.rate(lambda o, f=f: o.fa_bet == f)) for f in fa_sizes},
            "won_at_fa_hu": float(self.rate(lambda o: o.kind.startswith("fa_hu"))),
            "fold_ting_hu": float(self.rate(lambda o: o.kind == "fold_ting")),
            "ting_hu_bet": {f"F={f:g} G={g:g}": float(self.rate(lambda o, f=f, g=g: (o.fa_bet, o.ting_bet) == (f, g)))
                            for f, g in ting_sizes},
        }

    def to_json(self) -> dict[str, Any]:
        """The summary as plain JSON values (the exact EV as a fraction string)."""
        return {
            "ev": self.ev, "ev_exact": str(self.ev_exact), "house_edge": self.house_edge,
            "element_of_risk": self.element_of_risk, "average_total_bet": float(self.average_total_bet),
            "std_dev": self.std_dev, "variance": float(self.variance),
            "hit_frequency": self.hit_frequency,
            "deal_classes": self.deal_classes, "deals": self.deals, "draw_states": self.draw_states,
            "bonus_bet": self.bonus_bet, "restriction": self.restriction, "bonus_settled": float(self.bonus_settled),
            "bonus_net_per_bet_placed": self.bonus_net_settled, "seconds": self.seconds,
            "decisions": self.decisions(),
            "outcomes": [r.to_json() for r in self.outcomes],
        }


def summarise(config: GameConfig, objective: Objective, counts: Counter, bonus_net: Counter, ev_sum: float,
              deal_classes_n: int, draw_states: int, seconds: float, **fields: Any) -> Summary:
    """Turn summed outcome counts into the game's figures."""
    geometry = config.geometry
    slots = sorted({slot for slot, _ in counts})
    # A chart's mixed strategy multiplies every path's count by mix_unit at each of its two discards.
    denominators = {slot: slot_denominator(geometry, slot) * objective.mix_unit**2 for slot in slots}
    common = lcm(*denominators.values())
    by_outcome: Counter = Counter()
    for (slot, outcome), n in counts.items():
        by_outcome[outcome] += n * (common // denominators[slot])
    assert sum(by_outcome.values()) == common, "outcome probabilities must sum to 1"
    rows = [OutcomeRow(o, o.net(config), by_outcome[o], Fraction(by_outcome[o], common))
            for o in sorted(by_outcome, key=_order)]
    bonus_per_hand = sum(value / denominators[slot] for slot, value in sorted(bonus_net.items()))
    return _summary(config, rows, common, ev=ev_sum / comb(geometry.size, 6), deal_classes=deal_classes_n,
                    deals=comb(geometry.size, 6), draw_states=draw_states, bonus_bet=objective.bonus,
                    restriction=objective.restriction,
                    bonus_net_settled=bonus_per_hand, seconds=seconds, **fields)


def _summary(config: GameConfig, rows: list[OutcomeRow], denominator: int, **fields: Any) -> Summary:
    """The figures that follow from the return table, exactly."""
    ev_exact = sum((r.probability * r.outcome.exact_net(config) for r in rows), Fraction(0))
    second = sum((r.probability * r.outcome.exact_net(config) ** 2 for r in rows), Fraction(0))
    return Summary(
        ev_exact=ev_exact, variance=second - ev_exact**2, outcomes=rows, denominator=denominator,
        average_total_bet=sum((r.probability * Fraction(r.outcome.total_bet()) for r in rows), Fraction(0)),
        bonus_settled=sum((r.probability for r in rows if r.outcome.ting_bet), Fraction(0)), **fields,
    )


def _order(outcome: Outcome) -> tuple:
    """Return-table order: kinds in order of play, then bets ascending."""
    return (KINDS.index(outcome.kind), outcome.double_down, outcome.fa_bet, outcome.ting_bet)


OUTCOME_COLUMNS = ("outcome", "kind", "double_down", "fa_bet", "ting_bet", "net", "total_bet", "combinations",
                   "probability", "return")


def outcome_table(summary: Summary) -> pa.Table:
    """The return table as ``outcomes.parquet`` holds it (schema: strategy_tables/README.md)."""
    rows = [r.to_json(full=True) for r in summary.outcomes]
    return pa.Table.from_pylist([{name: row[name] for name in OUTCOME_COLUMNS} for row in rows])




def write_summary(directory: Path, summary: Summary, metadata: dict[bytes, bytes],
                  extra: dict[str, Any] | None = None) -> None:
    """``outcomes.parquet``, then ``summary.parquet`` (whose presence marks a finished solve) and
    ``summary.json`` (with ``extra``, e.g. the run's time per stage)."""
    write_table(directory / "outcomes.parquet", outcome_table(summary), metadata, keep_same=True)
    row = {k: v for k, v in summary.to_json().items() if k not in ("outcomes", "decisions")}
    row["decisions"] = json.dumps(summary.decisions())
    row["denominator"] = str(summary.denominator)
    row["tian_hu_declined"] = str(summary.tian_hu_declined)
    row["di_hu_declined"] = str(summary.di_hu_declined)
    write_table(directory / "summary.parquet", pa.Table.from_pylist([row]), metadata, keep_same=True)
    write_json(directory / "summary.json", {**summary.to_json(), **(extra or {})}, keep_same=True)


def load_summary(directory: Path | str, config: GameConfig) -> Summary:
    """The summary of a finished solve, rebuilt exactly from its files."""
    directory = Path(directory)
    if not (directory / "summary.parquet").exists():
        check_tables(directory, config, Objective())  # says what is missing
    found = read_metadata(directory / "summary.parquet")
    check_tables(directory, config, Objective.from_description(found))
    row = read_table(directory / "summary.parquet").to_pylist()[0]
    denominator = int(row["denominator"])
    rows = [OutcomeRow(Outcome(r["kind"], r["double_down"], r["fa_bet"], r["ting_bet"]), r["net"],
                       int(r["combinations"]),
                       Fraction(int(r["combinations"]), denominator))
            for r in read_table(directory / "outcomes.parquet").to_pylist()]
    return _summary(config, rows, denominator, ev=row["ev"], deal_classes=row["deal_classes"], deals=row["deals"],
                    draw_states=row["draw_states"], bonus_bet=row["bonus_bet"], restriction=row["restriction"],
                    bonus_net_settled=row["bonus_net_per_bet_placed"], seconds=row["seconds"],
                    tian_hu_declined=Fraction(row["tian_hu_declined"]), di_hu_declined=Fraction(row["di_hu_declined"]),
                    directory=str(directory), reused=True)
