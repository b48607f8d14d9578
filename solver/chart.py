"""A strategy a person can learn, derived from a solve's tables, and what following it costs.

First cut (issue 7): the deal decision as a ranked list of hold patterns
with a double-down rule and a claim rule, and the ting decision as win
probability thresholds. Everything is derived by code from the tables:

- A **hold pattern** names the kept cards in card-pattern words that do not
  depend on suits' names or exact ranks: triplets, pairs, suited runs,
  suited connectors (two consecutive ranks) and one-gaps (ranks two apart),
  jokers, and odd cards.
- **Ranking**: each pattern is scored by the weighted mean EV of the deals
  whose optimal hold has it; the chart says "keep the highest-ranked pattern
  your six cards contain". It does not say which discard when several keep
  that pattern, so a player is priced as taking any of them (their mean EV).
- **Double down** when the kept pattern is one for which optimal play
  doubles down on most deals (by weight).
- **Claim** a tian-hu when optimal play claims most of those offered.
- **Cost**: the chart's deal decision is priced with the EVs stored in the
  deal table (which assume optimal play afterwards), so its EV, and its
  loss against optimal play, are exact for "chart at the deal, optimal
  after". The deals where the chart loses most are listed as exceptions.
- **Ting**: the bets are linear in G, so the decision depends on the win
  probability alone (flushes aside): the thresholds follow from the
  payouts exactly.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from .cards import DeckGeometry, format_cards, parse_cards
from .combinatorics import remove_cards
from .config import GameConfig
from .objective import Objective
from .tables import check_tables


def hold_pattern(cards: tuple[int, ...], geometry: DeckGeometry) -> str:
    """Card-pattern words for a group of kept cards, e.g. ``pair + suited connector + joker``."""
    suited = sorted(c for c in cards if c != geometry.joker)
    jokers = len(cards) - len(suited)
    parts: list[str] = []
    counts = {t: suited.count(t) for t in sorted(set(suited))}
    for n in counts.values():
        if n >= 3:
            parts.append("triplet" if n == 3 else "four of a kind")
        elif n == 2:
            parts.append("pair")
    singles = [t for t, n in counts.items() if n == 1]
    # Suited relations among the single cards, each card used once: runs, then connectors, then one-gaps.
    relations: list[str] = []
    left = set(singles)
    for name, gaps in (("suited run", (1, 1)), ("suited connector", (1,)), ("suited one-gap", (2,))):
        for t in sorted(left):
            chain = [t]
            for gap in gaps:
                nxt = chain[-1] + gap
                if nxt in left and geometry.suit_of(nxt) == geometry.suit_of(t):
                    chain.append(nxt)
            if len(chain) == len(gaps) + 1 and set(chain) <= left:
                if name == "suited connector":  # open-ended (two ranks complete it) or at an edge (one)
                    low, high = geometry.rank_of(chain[0]), geometry.rank_of(chain[-1])
                    name_here = "open connector" if low > 1 and high < geometry.ranks else "edge connector"
                    relations.append(f"suited {name_here}")
                else:
                    relations.append(name)
                left -= set(chain)
    parts += sorted(relations, key=lambda r: (["suited run", "suited open connector", "suited edge connector",
                                               "suited one-gap"].index(r)))
    pairs = parts.count("pair")
    if pairs > 1:
        parts = [p for p in parts if p != "pair"]
        parts.insert(0, f"{pairs} pairs")
    if jokers:
        parts.append("joker" if jokers == 1 else f"{jokers} jokers")
    if left:
        parts.append("odd card" if len(left) == 1 else f"{len(left)} odd cards")
    return " + ".join(parts) if parts else "nothing"


@dataclass(frozen=True)
class PatternRule:
    """One line of the deal chart."""

    rank: int
    pattern: str
    mean_ev: float
    share: float
    """Share of all deals whose optimal hold has this pattern."""
    double_down: bool
    example: str


@dataclass(frozen=True)
class Chart:
    """The human strategy and its exact cost."""

    claim_tian_hu: bool
    claim_rate: float
    rules: list[PatternRule]
    optimal_ev: float
    chart_ev: float
    exceptions: list[dict[str, Any]]
    ting_thresholds: list[dict[str, Any]]

    @property
    def loss(self) -> float:
        return self.optimal_ev - self.chart_ev

    def to_json(self) -> dict[str, Any]:
        return {
            "claim_tian_hu": self.claim_tian_hu, "claim_rate": self.claim_rate,
            "rules": [r.__dict__ for r in self.rules], "optimal_deal_ev": self.optimal_ev,
            "chart_deal_ev": self.chart_ev, "loss": self.loss, "exceptions": self.exceptions,
            "ting_thresholds": self.ting_thresholds,
        }


def ting_thresholds(config: GameConfig) -> list[dict[str, Any]]:
    """For each F: the win probability above which each ting option is best, flushes counted as plain wins.

    With a win probability p the bet G returns p * (ante + F * fa + G * pays) - (1 - p) * (1 + F + G),
    folding -(1 + F); each comparison is linear in p, so the thresholds are exact fractions.
    """
    out = []
    for fa in config.fa_hu_bets:
        f = Fraction(fa)
        win = Fraction(config.ting_hu_ante) + f * Fraction(config.ting_hu_fa)
        options = [("fold", (Fraction(0), -(1 + f)))]  # (name, (a, b)): EV = a * p + b
        for m in config.ting_hu_multiples:
            g = Fraction(m) * f
            options.append((f"bet G = {m:g} F", (win + g * Fraction(config.ting_hu) + 1 + f + g, -(1 + f + g))))
        # Walk p from 0 to 1: the best option changes where lines cross (upper envelope).
        steps = []
        p = Fraction(0)
        current = max(range(len(options)), key=lambda i: (options[i][1][0] * p + options[i][1][1], -i))
        steps.append({"from_probability": 0.0, "option": options[current][0]})
        while True:
            a0, b0 = options[current][1]
            crossings = [((b0 - b) / (a - a0), i) for i, (_, (a, b)) in enumerate(options)
                         if a > a0 and (b0 - b) / (a - a0) >= p]
            if not crossings:
                break
            p, current = min(crossings, key=lambda x: (x[0], -options[x[1]][1][0]))
            if p > 1:
                break
            steps.append({"from_probability": float(p), "exact": str(p), "option": options[current][0]})
        out.append({"fa_bet": fa, "steps": steps})
    return out


@dataclass
class _Deal:
    """One deal class as the chart sees it: its options grouped by the pattern they keep."""

    hand: str
    weight: int
    best_ev: float
    best_label: str
    claim_ev: float | None
    by_pattern: dict[str, tuple[float, float, str]]
    """pattern -> (mean EV without DD, mean EV with DD, the discards) over the distinct discards keeping
    it: the chart names a pattern, not which of its discards, so a player is priced as taking any."""


def _deals(config: GameConfig, directory: Path) -> list[_Deal]:
    geometry = config.geometry
    out = []
    for row in pq.read_table(directory / "deals.parquet").to_pylist():
        hand = parse_cards(row["hand"], geometry)
        evs: dict[tuple[tuple[int, ...], float], float] = {}
        claim_ev = None
        for a, d, b, e in zip(row["actions"], row["discards"], row["bets"], row["evs"]):
            if a == "claim":
                claim_ev = e
            else:
                evs[(parse_cards(d, geometry), b)] = e
        groups: dict[str, list[tuple[float, float, str]]] = defaultdict(list)
        for (discard, bet), ev in evs.items():
            if bet == 0:
                with_dd = next(e for (d, b), e in evs.items() if d == discard and b > 0)
                groups[hold_pattern(remove_cards(hand, discard), geometry)].append(
                    (ev, with_dd, format_cards(discard, geometry)))
        by_pattern = {p: (sum(g[0] for g in group) / len(group), sum(g[1] for g in group) / len(group),
                          " or ".join(g[2] for g in group)) for p, group in groups.items()}
        best = "claim" if row["best_action"] == "claim" else (
            f"discard {row['best_discard']}" + (", double down" if row["best_bet"] else ""))
        out.append(_Deal(row["hand"], row["weight"], row["best_ev"], best, claim_ev, by_pattern))
    return out


def _choice(deal: _Deal, rank: dict[str, int], doubles: set[str], claim: bool) -> tuple[float, str]:
    """EV and description of what the chart does with a deal."""
    if claim and deal.claim_ev is not None:
        return deal.claim_ev, "claim"
    pattern = min(deal.by_pattern, key=lambda p: rank.get(p, len(rank)))
    plain, doubled, discards = deal.by_pattern[pattern]
    if pattern in doubles:
        return doubled, f"keep {pattern} (discard {discards}), double down"
    return plain, f"keep {pattern} (discard {discards})"


def _total(deals: list[_Deal], rank: dict[str, int], doubles: set[str], claim: bool) -> float:
    return sum(d.weight * _choice(d, rank, doubles, claim)[0] for d in deals)


def build_chart(config: GameConfig, tables: Path | str, exceptions: int = 10) -> Chart:
    """Derive the deal chart from a finished main-game solve, refine it, and price it exactly.

    The first ranking scores each pattern by the weighted mean EV of the deals
    whose optimal hold has it; then patterns are moved up or down the list,
    and the double-down and claim rules flipped, while that raises the
    chart's exact EV (a local search; each step is priced with the table).
    """
    directory = Path(tables)
    check_tables(directory, config, Objective())
    total = comb(config.geometry.size, 6)
    deals = _deals(config, directory)
    ev_sum: dict[str, float] = defaultdict(float)
    weight_of: dict[str, int] = defaultdict(int)
    dd_weight: dict[str, int] = defaultdict(int)
    example: dict[str, str] = {}
    offered = claimed = 0
    for d in deals:
        if d.claim_ev is not None:
            offered += d.weight
            claimed += d.weight if d.best_label == "claim" else 0
        if d.best_label == "claim":
            continue
        discard = d.best_label.split(", ")[0].removeprefix("discard ")
        hand = parse_cards(d.hand, config.geometry)
        pattern = hold_pattern(remove_cards(hand, parse_cards(discard, config.geometry)), config.geometry)
        ev_sum[pattern] += d.weight * d.best_ev
        weight_of[pattern] += d.weight
        dd_weight[pattern] += d.weight if d.best_label.endswith("double down") else 0
        example.setdefault(pattern, f"{d.hand}: {d.best_label}")
    order = sorted(weight_of, key=lambda p: -ev_sum[p] / weight_of[p])
    doubles = {p for p in order if 2 * dd_weight[p] > weight_of[p]}
    claim = 2 * claimed >= offered
    best = _total(deals, {p: i for i, p in enumerate(order)}, doubles, claim)
    improved = True
    while improved:  # local search over the ranking, the DD set and the claim rule
        improved = False
        for i in range(len(order)):
            for j in range(len(order)):
                if i == j:
                    continue
                trial = order[:i] + order[i + 1:]
                trial.insert(j, order[i])
                value = _total(deals, {p: k for k, p in enumerate(trial)}, doubles, claim)
                if value > best + 1e-9:
                    order, best, improved = trial, value, True
        rank = {p: k for k, p in enumerate(order)}
        for p in order:
            trial_dd = doubles ^ {p}
            value = _total(deals, rank, trial_dd, claim)
            if value > best + 1e-9:
                doubles, best, improved = trial_dd, value, True
        value = _total(deals, rank, doubles, not claim)
        if value > best + 1e-9:
            claim, best, improved = not claim, value, True
    rank = {p: k for k, p in enumerate(order)}
    rules = [PatternRule(i + 1, p, ev_sum[p] / weight_of[p], weight_of[p] / total, p in doubles, example[p])
             for i, p in enumerate(order)]
    optimal = sum(d.weight * d.best_ev for d in deals)
    chart = 0.0
    losses = []
    for d in deals:
        ev, label = _choice(d, rank, doubles, claim)
        chart += d.weight * ev
        if d.best_ev - ev > 1e-12:
            losses.append({"hand": d.hand, "weight": d.weight, "loss": d.best_ev - ev,
                           "weighted_loss": d.weight * (d.best_ev - ev) / total, "chart": label,
                           "optimal": d.best_label})
    losses.sort(key=lambda x: -x["weighted_loss"])
    return Chart(claim, claimed / offered if offered else 0.0, rules, optimal / total, chart / total,
                 losses[:exceptions], ting_thresholds(config))


def chart_markdown(chart: Chart, geometry: DeckGeometry) -> str:
    """The chart as a Markdown document."""
    lines = ["# Strategy chart", "", "## The deal", ""]
    lines.append(f"- **Tian-hu**: {'claim it' if chart.claim_tian_hu else 'decline it'} "
                 f"(optimal play claims {100 * chart.claim_rate:.1f}% of those offered).")
    lines.append("- **Discard**: keep the highest-ranked pattern your six cards contain; "
                 "**double down** where the table says so.")
    lines += ["", "| rank | keep | double down | mean EV | share of deals | example |", "|---|---|---|---|---|---|"]
    for r in chart.rules:
        lines.append(f"| {r.rank} | {r.pattern} | {'yes' if r.double_down else 'no'} | {r.mean_ev:+.4f} | "
                     f"{100 * r.share:.2f}% | {r.example} |")
    lines += ["", f"Following this chart at the deal (and playing optimally afterwards) is worth "
              f"{chart.chart_ev:+.6f} per hand against {chart.optimal_ev:+.6f} for optimal play: "
              f"a loss of {chart.loss:.6f} ({100 * chart.loss:.3f}% of the tian-hu bet).", "",
              "### Exceptions that cost the most", "",
              "| hand | chart | optimal | loss when dealt | share of the total loss |", "|---|---|---|---|---|"]
    for e in chart.exceptions:
        share = e["weighted_loss"] / chart.loss if chart.loss else 0.0
        lines.append(f"| {e['hand']} | {e['chart']} | {e['optimal']} | {e['loss']:.4f} | {100 * share:.1f}% |")
    lines += ["", "## The ting decision", "",
              "Bet sizes depend only on the probability that the last two cards complete a hu "
              "(winning pairs of unseen cards over all pairs; flushes counted as plain wins):", ""]
    for t in chart.ting_thresholds:
        steps = "; ".join(f"from {s['from_probability']:.4f}: {s['option']}" for s in t["steps"])
        lines.append(f"- F = {t['fa_bet']:g}: {steps}")
    return "\n".join(lines) + "\n"
