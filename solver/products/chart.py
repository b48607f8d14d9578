"""A strategy a person can learn, derived from a solve's tables, and what following it costs.

Everything is derived by code from a main-game solve's tables:

- A **hold pattern** names the kept cards in card-pattern words that do not
  depend on suits' names or the direction of the ranks (``hold_pattern``).
- **The deal and the draw** each get a ranked list: "take the first line
  your cards allow". A line is a hold pattern with its bet (double down or
  not; F), possibly limited to holds with few dead cards touching them
  (:func:`solver.products.patterns.dead_touching`), or an action (claim the hu;
  fold). Where several discards keep a line's pattern the player keeps
  the one with the fewest dead cards touching; where that still leaves
  several, a player is priced as taking any of them (their mean EV).
- **Ranking**: lines start in the order of the mean EV of the hands where
  optimal play takes them; a local search then moves lines and flips bets
  while that raises the chart's exact total (``_search``), from that order
  and from ``SEARCH_RESTARTS`` seeded random ones, the best kept. A limited line
  stays only if it is worth at least ``MIN_LINE_GAIN`` per hand dealt
  (``_prune``), so the lists stay short enough to learn.
- **Cost**: the tables hold every option's EV under optimal play
  afterwards, so each stage's loss against optimal play is exact for "this
  stage by the chart, every other decision optimal". The hands where the
  chart loses most are listed as exceptions.
- **Ting**: the bets are linear in G, so the decision depends on the win
  probability alone (flushes aside): the thresholds follow from the
  payouts exactly, and are restated as a number of outs.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import numpy as np

from solver.game.cards import format_cards, parse_cards
from solver.game.combinatorics import remove_cards
from solver.game.config import GameConfig
from solver.products.patterns import PSEUDO, TOUCHING_LIMITS, ChartRules, dead_touching, line_text, option_entry
from solver.render.document import Block, Bullets, Heading, Paragraph, Table, to_markdown
from solver.staged.objective import CHART, Objective
from solver.staged.run import Summary, load_summary
from solver.tables.files import check_tables, options_from_row, read_table
from solver.tables.reader import draw_rows


@dataclass(frozen=True)
class Rule:
    """One line of a stage's ranked list: take the first line your cards allow."""

    rank: int
    entry: str
    """A hold pattern (what to keep), or ``claim the hu`` / ``fold``."""
    bet: float
    """With a hold pattern: the double-down (deal) or fa-hu bet F (draw) to make with it."""
    max_touching: int | None
    """With a hold pattern: the most dead cards touching the hold the line allows (``None``: any)."""
    mean_ev: float
    """Weighted mean EV of the hands where the chart applies this line."""
    coverage: float
    """Share of the stage's hands (by weight) where this line is the one applied."""
    example: str


@dataclass(frozen=True)
class StageChart:
    """The chart of one decision (the deal or the draw) and its exact cost there.

    ``loss`` is per hand dealt, for "this stage by the chart, every other
    decision optimal": each hand's loss is exact (the tables hold every
    option's EV under optimal play afterwards).
    """

    stage: str
    rules: list[Rule]
    optimal_ev: float
    """Whole-game EV per hand dealt under optimal play."""
    loss: float
    exceptions: list[dict[str, Any]]

    @property
    def chart_ev(self) -> float:
        """EV per hand with this stage played by the chart and every other decision optimally."""
        return self.optimal_ev - self.loss

    def to_json(self) -> dict[str, Any]:
        """This stage's chart as plain data for ``--json``."""
        return {"stage": self.stage, "rules": [r.__dict__ for r in self.rules], "optimal_ev": self.optimal_ev,
                "chart_ev": self.chart_ev, "loss": self.loss, "exceptions": self.exceptions}


@dataclass(frozen=True)
class Chart:
    """The human strategy: a chart for the deal, one for the draw, and the ting decision by outs."""

    deal: StageChart
    draw: StageChart
    ting_thresholds: list[dict[str, Any]]
    ting_outs: list[dict[str, Any]]
    exact: dict[str, Any] | None = None
    """The whole chart's exact figures (``chart_exact``), when computed."""

    @property
    def optimal_ev(self) -> float:
        """EV per hand under optimal play, from the solve's summary."""
        return self.deal.optimal_ev

    def rules(self) -> ChartRules:
        """The deal and draw lists in the form the solve follows (for the chart's exact EV)."""
        return ChartRules(tuple((r.entry, r.bet, r.max_touching) for r in self.deal.rules),
                          tuple((r.entry, r.bet, r.max_touching) for r in self.draw.rules))

    def to_json(self) -> dict[str, Any]:
        """The chart as plain data for ``--json``."""
        return {"deal": self.deal.to_json(), "draw": self.draw.to_json(),
                "ting_thresholds": self.ting_thresholds, "ting_outs": self.ting_outs, "exact": self.exact}


Key = tuple[str, int | None]
"""A line's entry and its limit on dead cards touching the hold (``None``: any)."""

MIN_LINE_GAIN = 5e-4
"""A line limited by dead cards touching stays on a list only if it is worth this much per hand
dealt (0.05% of the tian-hu bet): each is one more line to learn."""


SEARCH_RESTARTS = 4
"""Seeded random orders the local search also starts from (besides the order of mean EVs)."""


@dataclass
class _Situation:
    """One deal class or post-draw state as a chart sees it."""

    label: str
    weight: int
    best_ev: float
    best_label: str
    values: dict[Key, list[float]]
    """(entry, limit on dead cards touching) -> EV for each bet size (NaN where the line has no such
    bet): of the discards the line allows, those with the fewest dead cards touching, at their mean
    EV (the chart does not say which of them, so a player is priced as taking any)."""
    discards: dict[Key, str]


def _bet_sizes(stage: str, config: GameConfig) -> tuple[float, ...]:
    return (0.0, config.double_down) if stage == "deal" else tuple(config.fa_hu_bets)


def _describe(stage: str, entry: str, bet: float, discards: str = "") -> str:
    if entry in PSEUDO:
        return entry
    cards = f" (discard {discards})" if discards else ""
    if stage == "deal":
        return f"keep {entry}{cards}" + (", double down" if bet else "")
    return f"keep {entry}{cards}, bet F = {bet:g}"


def _key_order(key: Key) -> tuple[str, int]:
    return key[0], len(TOUCHING_LIMITS) if key[1] is None else key[1]


def _situations(stage: str, config: GameConfig, directory: Path) -> list[_Situation]:
    geometry = config.geometry
    sizes = _bet_sizes(stage, config)
    weight_column = "weight" if stage == "deal" else "reach"
    rows = read_table(directory / "deals.parquet").to_pylist() if stage == "deal" else draw_rows(directory, config)
    out = []
    for row in rows:
        hand = parse_cards(row["hand"], geometry)
        dead = parse_cards(row["dead"], geometry) if stage == "draw" else ()
        # (entry, limit) -> for each bet size, the (dead cards touching, EV, discard) of each option it allows
        allowed: dict[Key, list[list[tuple[int, float, str]]]] = defaultdict(lambda: [[] for _ in sizes])
        options = options_from_row(row, geometry)
        for option in options:
            entry = option_entry(option, hand, geometry)
            if entry in PSEUDO:
                allowed[(entry, None)][0].append((0, option.ev, ""))
                continue
            touching = dead_touching(remove_cards(hand, option.discard), dead + option.discard, geometry)
            for limit in (*TOUCHING_LIMITS, None):
                if limit is None or touching <= limit:
                    allowed[(entry, limit)][sizes.index(option.bet)].append(
                        (touching, option.ev, format_cards(option.discard, geometry)))
        values: dict[Key, list[float]] = {}
        discards: dict[Key, set[str]] = defaultdict(set)
        for key, per_bet in allowed.items():
            values[key] = []
            for played in per_bet:
                fewest = [p for p in played if p[0] == min(played)[0]] if played else []
                values[key].append(sum(p[1] for p in fewest) / len(fewest) if fewest else float("nan"))
                discards[key].update(p[2] for p in fewest if p[2])
        label = row["hand"] if stage == "deal" else (
            f"{row['hand']} (dead {row['dead']}{', doubled down' if row['double_down'] else ''})")
        best = options[row["best"]]
        best_entry = option_entry(best, hand, geometry)
        best_label = _describe(stage, best_entry, best.bet, format_cards(best.discard, geometry))
        out.append(_Situation(label, row[weight_column], row["best_ev"], best_label, values,
                              {e: " or ".join(sorted(d)) for e, d in discards.items()}))
    return out


def _first_entries(present: np.ndarray, order: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """For each situation (row of ``present``): its first available entry in ``order``, and that entry's
    place in ``order`` (``len(present[0]) + 1`` where none is available)."""
    n_entries = present.shape[1]
    rank = np.full(n_entries, n_entries + 1)
    rank[order] = np.arange(len(order))
    ranked = np.where(present, rank[None, :], n_entries + 1)
    first = ranked.argmin(axis=1)
    return first, ranked[np.arange(len(first)), first]


def _played(values: np.ndarray, order: list[int], bets: np.ndarray,
            present: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The line each situation plays under a chart (its first available one in ``order``; ``present``:
    which lines are available, by default those with values) and its EV."""
    picks, _ = _first_entries(~np.isnan(values[:, :, 0]) if present is None else present, order)
    return picks, values[np.arange(values.shape[0]), picks, bets[picks]]


def _search(values: np.ndarray, weights: np.ndarray, order: list[int], bets: np.ndarray,
            pseudo: np.ndarray) -> tuple[list[int], np.ndarray]:
    """Refine a ranked list and its bet choices by local search on the chart's exact total.

    ``values[s, e, b]`` is situation s's EV with entry e and bet size b (NaN
    where e is not available). Each step moves one entry to its best place
    in the list, found for all places at once: with e taken out, every
    situation falls back on its first available entry at position q, and e
    takes it over exactly when e is inserted at or above q. Then each
    entry's bet is set to the best for the hands where it applies.
    """
    n_situations, n_entries, _ = values.shape
    present = ~np.isnan(values[:, :, 0])
    rows = np.arange(n_situations)
    while True:
        improved, stale = False, True
        for e in list(order):
            if stale:  # each situation's first two available places, found again only when the list changed
                ranked = np.where(present[:, order], np.arange(n_entries)[None, :], n_entries)
                first, second = np.partition(ranked, 1, axis=1)[:, :2].T
                stale = False
            here = order.index(e)
            # with e taken out: the place (in the full list) of each situation's first available entry
            fallback = np.where(first == here, second, first)
            base = np.asarray(order)[np.minimum(fallback, n_entries - 1)]
            q = np.where(fallback > here, fallback - 1, fallback)  # the same place in the list without e
            movable = present[:, e] & (fallback < n_entries)
            delta = weights[movable] * (values[movable, e, bets[e]] - values[rows[movable], base[movable],
                                                                               bets[base[movable]]])
            per_q = np.bincount(q[movable], delta, minlength=n_entries)
            gain = np.cumsum(per_q[::-1])[::-1]  # gain[j]: e inserted at place j takes every q >= j
            best = int(np.argmax(gain))
            if gain[best] > gain[here] + 1e-12 * max(1.0, abs(gain[here])):
                without = [x for x in order if x != e]
                order = without[:best] + [e] + without[best:]
                improved = stale = True
        picks, _ = _first_entries(present, order)
        for e in order:
            if pseudo[e]:
                continue
            applied = picks == e
            totals = np.nansum(weights[applied, None] * values[applied, e, :], axis=0)
            best_bet = int(np.argmax(totals))
            if totals[best_bet] > totals[bets[e]] + 1e-12 * max(1.0, abs(totals[bets[e]])):
                bets[e] = best_bet
                improved = True
        if not improved:
            return order, bets


def _prune(values: np.ndarray, weights: np.ndarray, order: list[int], bets: np.ndarray, pseudo: np.ndarray,
           limited: np.ndarray, min_gain: float) -> tuple[np.ndarray, list[int], np.ndarray]:
    """Drop limited lines worth less than ``min_gain`` (in weighted total) and search again, until every
    limited line left earns its place. Returns the values with dropped lines' columns made NaN (no
    hand can take them), the order and the bets."""
    values = values.copy()
    while True:
        present = ~np.isnan(values[:, :, 0])
        picks, played = _played(values, order, bets, present)
        before = float(weights @ played)
        dropped = False
        # the least used first: dropping one changes what the others are worth
        for e in sorted({int(p) for p in picks if limited[p]}, key=lambda e: weights[picks == e].sum()):
            without = present.copy()
            without[:, e] = False
            after = float(weights @ _played(values, order, bets, without)[1])
            if before - after < min_gain:
                values[:, e] = np.nan
                present, before, dropped = without, after, True
        if not dropped:
            return values, order, bets
        order, bets = _search(values, weights, order, bets, pseudo)


def build_stage_chart(stage: str, config: GameConfig, tables: Path | str, exceptions: int = 10) -> StageChart:
    """Derive the ranked list of one decision from a main-game solve, refine it, and price it exactly.

    The first ranking puts each line by the weighted mean EV of the hands
    where optimal play takes it; its bet is the one optimal play makes most
    often with it. A local search (``_search``) then raises the chart's
    exact total, limited lines that earn less than ``MIN_LINE_GAIN`` are
    dropped (``_prune``); the same runs from ``SEARCH_RESTARTS`` seeded
    random orders too, and the best chart is kept. Lines that no hand ever
    reaches are left out.
    """
    directory = Path(tables)
    check_tables(directory, config, Objective())
    situations = _situations(stage, config, directory)
    sizes = _bet_sizes(stage, config)
    keys = sorted({k for s in situations for k in s.values}, key=_key_order)
    index = {k: i for i, k in enumerate(keys)}
    values = np.full((len(situations), len(keys), len(sizes)), np.nan)
    for i, s in enumerate(situations):
        for k, per_bet in s.values.items():
            values[i, index[k]] = per_bet
    weights = np.array([float(s.weight) for s in situations])
    size = config.geometry.size
    per_hand = comb(size, 6) * (1 if stage == "deal" else comb(size - 6, 2))
    pseudo = np.array([k[0] in PSEUDO for k in keys])
    limited = np.array([k[1] is not None for k in keys])
    # Start from optimal play: each situation's best line and bet.
    flat = np.nanargmax(values.reshape(len(situations), -1), axis=1)
    best = zip(flat // len(sizes), flat % len(sizes))
    score: dict[int, float] = defaultdict(float)
    mass: dict[int, float] = defaultdict(float)
    bet_mass = np.zeros((len(keys), len(sizes)))
    for s, (e, b) in zip(situations, best):
        score[e] += s.weight * s.best_ev
        mass[e] += s.weight
        bet_mass[e, b] += s.weight
    mean_present = np.nansum(weights[:, None] * values[:, :, 0], axis=0) / np.maximum(
        (weights[:, None] * ~np.isnan(values[:, :, 0])).sum(axis=0), 1e-300)
    order = sorted(range(len(keys)), key=lambda e: (e not in mass, -(score[e] / mass[e]) if e in mass
                                                    else -mean_present[e], _key_order(keys[e])))
    bets = bet_mass.argmax(axis=1)
    # The local search ends at a local optimum: start it again from seeded random orders and keep the best.
    chosen: tuple[np.ndarray, list[int], np.ndarray] | None = None
    best_total = 0.0
    starts = [order] + [list(np.random.default_rng(seed).permutation(len(keys))) for seed in range(SEARCH_RESTARTS)]
    for start in starts:
        found = _search(values, weights, [int(e) for e in start], bets.copy(), pseudo)
        kept, found_order, found_bets = _prune(values, weights, *found, pseudo, limited, MIN_LINE_GAIN * per_hand)
        total = float(weights @ _played(kept, found_order, found_bets)[1])
        if chosen is None or total > best_total + 1e-12 * max(1.0, abs(best_total)):
            best_total, chosen = total, (kept, found_order, found_bets)
    assert chosen is not None
    values, order, bets = chosen
    picks, chart_values = _played(values, order, bets)
    optimal = np.array([s.best_ev for s in situations])
    losses = optimal - chart_values
    rules = []
    for e in order:
        applied = np.flatnonzero(picks == e)
        if applied.size == 0:
            continue
        entry, limit = keys[e]
        example = situations[applied[np.argmax(weights[applied])]]
        play = _describe(stage, line_text(entry, limit), sizes[bets[e]], example.discards.get(keys[e], ""))
        rules.append(Rule(len(rules) + 1, entry, sizes[bets[e]] if not pseudo[e] else 0.0, limit,
                          float(weights[applied] @ chart_values[applied] / weights[applied].sum()),
                          float(weights[applied].sum() / weights.sum()), f"{example.label}: {play}"))
    worst = [i for i in np.argsort(-weights * losses) if losses[i] > 1e-12][:exceptions]
    total_loss = float(weights @ losses) / per_hand
    rows = [{"hand": situations[i].label, "weight": situations[i].weight, "loss": float(losses[i]),
             "weighted_loss": float(weights[i] * losses[i]) / per_hand,
             "chart": _describe(stage, line_text(*keys[picks[i]]), sizes[bets[picks[i]]],
                                situations[i].discards.get(keys[picks[i]], "")),
             "optimal": situations[i].best_label} for i in worst]
    optimal_ev = load_summary(directory, config).ev
    return StageChart(stage, rules, optimal_ev, total_loss, rows)


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


def ting_outs_table(config: GameConfig, max_outs: int = 30) -> list[dict[str, Any]]:
    """The ting decision by the number of outs: unseen card types' copies that complete a hu alone.

    With ``a`` outs among the ``n`` unseen non-joker cards (no joker among
    the player's eight cards: 12 cards seen, of them 4 community), and no
    pair of non-outs that completes together, the last two cards win with
    probability 1 - C(n - a, 2) / C(n, 2); each cell is the best option at
    that probability (``ting_thresholds``, flushes counted as plain wins).
    At a threshold the options tie, and the one with less money at risk is
    taken (docs/rules.md, "Information and optimal play").
    """
    n = config.geometry.size - config.geometry.jokers_in_play - 12
    out = []
    for fa, thresholds in zip(config.fa_hu_bets, ting_thresholds(config)):
        for a in range(min(max_outs, n) + 1):
            p = 1 - Fraction(comb(n - a, 2), comb(n, 2))
            steps = thresholds["steps"]
            option = ([steps[0]] + [s for s in steps[1:] if Fraction(s["exact"]) < p])[-1]["option"]
            out.append({"fa_bet": fa, "outs": a, "probability": float(p), "option": option, "unseen": n})
    return out


def build_chart(config: GameConfig, tables: Path | str, exceptions: int = 10, exact: bool = False,
                n_jobs: int = -1, quiet: bool = True) -> Chart:
    """The whole human strategy from a main-game solve: deal and draw charts, the ting decision by outs.

    With ``exact`` the whole chart is also priced exactly (``chart_exact``: a solve of its own).
    """
    load_summary(tables, config)  # the tables exist, are whole and were made for this configuration
    chart = Chart(build_stage_chart("deal", config, tables, exceptions),
                  build_stage_chart("draw", config, tables, exceptions),
                  ting_thresholds(config), ting_outs_table(config))
    if not exact:
        return chart
    optimal = load_summary(tables, config)
    rules = chart.rules()
    summary = chart_exact(config, tables, rules, n_jobs, quiet)
    return replace(chart, exact={
        "ev": float(summary.ev_exact), "ev_exact": str(summary.ev_exact), "house_edge": summary.house_edge,
        "element_of_risk": summary.element_of_risk, "optimal_ev_exact": str(optimal.ev_exact),
        "loss": float(optimal.ev_exact - summary.ev_exact), "loss_exact": str(optimal.ev_exact - summary.ev_exact),
        "uncovered": float(uncovered_share(config, summary.directory, rules)), "tables": summary.directory})


def uncovered_share(config: GameConfig, chart_tables: Path | str, rules: ChartRules) -> Fraction:
    """Share of hands dealt that reach, under the chart, a post-draw state none of its draw lines covers
    (the chart solve plays those optimally), read from the chart solve's draw table."""
    geometry = config.geometry
    size = geometry.size
    total = 0
    for row in draw_rows(Path(chart_tables), config):
        hand = parse_cards(row["hand"], geometry)
        dead = parse_cards(row["dead"], geometry)
        if not rules.choices("draw", options_from_row(row, geometry), hand, geometry, dead):
            total += row["reach"]  # counted mix_unit times per path (see solver.staged.objective)
    return Fraction(total, comb(size, 6) * comb(size - 6, 2) * Objective(restriction=CHART, chart=rules).mix_unit)


def chart_exact(config: GameConfig, tables: Path | str, rules: ChartRules, n_jobs: int = -1,
                quiet: bool = True) -> Summary:
    """The exact figures of playing ``rules`` at the deal and the draw (the ting decision optimal).

    A solve with the chart restriction (:mod:`solver.staged.objective`), written
    beside the main tables (``<tables>-chart-<digest>``) and reused when
    there. A post-draw hand that no rule covers (the chart's deal play can
    reach hands optimal play never does) is played optimally.
    """
    from solver.staged.run import solve

    directory = Path(tables)
    objective = Objective(restriction=CHART, chart=rules)
    return solve(config, directory.parent / (directory.name + objective.suffix()), restriction=CHART,
                 chart=rules, n_jobs=n_jobs, quiet=quiet, holds_from=directory)


def _stage_blocks(chart: StageChart, title: str, anchor: str, intro: str) -> list[Block]:
    bet_header = "double down" if chart.stage == "deal" else "bet"

    def bet(rule: Rule) -> str:
        if rule.entry in PSEUDO:
            return ""
        return ("yes" if rule.bet else "no") if chart.stage == "deal" else f"F = {rule.bet:g}"

    rows = [[str(r.rank), line_text(r.entry, r.max_touching), bet(r), f"{r.mean_ev:+.4f}", f"{100 * r.coverage:.2f}%",
             r.example]
            for r in chart.rules]
    return [
        Heading(2, title, anchor), Paragraph(intro),
        Table(["rank", "take the first line your cards allow", bet_header, "mean EV", "share of hands",
               "example"], rows, "rllrrl"),
        Paragraph(f"Playing this decision by the chart (every other decision optimally) is worth "
                  f"{chart.chart_ev:+.6f} per hand against {chart.optimal_ev:+.6f} for optimal play: "
                  f"a loss of **{chart.loss:.6f}** per hand dealt ({100 * chart.loss:.3f}% of the tian-hu bet)."),
        Heading(3, f"Exceptions that cost the most ({chart.stage})"),
        Table(["hand", "chart", "optimal", "loss when it happens", "share of the stage's loss"],
              [[e["hand"], e["chart"], e["optimal"], f"{e['loss']:.4f}",
                f"{100 * e['weighted_loss'] / chart.loss if chart.loss else 0.0:.1f}%"] for e in chart.exceptions],
              "lllrr"),
    ]


def _outs_ranges(rows: list[dict[str, Any]]) -> str:
    """``0-5: fold; 6-17: bet G = 1 F; 18 or more: bet G = 3 F`` for one F (rows in order of outs)."""
    runs: list[list[dict[str, Any]]] = []
    for row in rows:
        if runs and runs[-1][-1]["option"] == row["option"]:
            runs[-1].append(row)
        else:
            runs.append([row])
    parts = []
    for i, run in enumerate(runs):
        low, high = run[0]["outs"], run[-1]["outs"]
        span = f"{low} or more" if i == len(runs) - 1 else (f"{low}" if low == high else f"{low}-{high}")
        parts.append(f"{span}: {run[0]['option']}")
    return "; ".join(parts)


def chart_document(chart: Chart) -> list[Block]:
    """The chart as document blocks (``solver.render.document`` renders them as Markdown or HTML)."""
    blocks: list[Block] = [Heading(1, "Strategy chart")]
    if chart.exact is not None:
        e = chart.exact
        blocks.append(Paragraph(
            f"Following the whole chart (the deal and the draw by the lists below, the ting decision played "
            f"optimally) is worth **{e['ev']:+.9f}** per hand exactly ({e['ev_exact']}), against "
            f"{float(Fraction(e['optimal_ev_exact'])):+.9f} for optimal play: a loss of **{e['loss']:.6f}** "
            f"({100 * e['loss']:.3f}% of the tian-hu bet); house edge {100 * e['house_edge']:.4f}%. "
            f"A share of {e['uncovered']:.6f} of hands reach a draw that no line of the draw list covers "
            f"(the chart's deal play reaches hands optimal play never does); they are played optimally."))
    else:
        blocks.append(Paragraph(
            f"Each list's loss below is exact for that decision alone; together they cost about "
            f"{chart.deal.loss + chart.draw.loss:.6f} per hand (`--exact` solves the whole chart exactly)."))
    blocks.append(Paragraph(
        "**Dead cards touching.** The cards you have thrown, counting the two a line throws, are dead. A dead "
        "card *touches* the cards you keep when it is a copy of one of them, or of the same suit one rank "
        "away (jokers neither touch nor are touched). Some lines apply only when no dead card (or at most "
        "one) touches the kept cards; and where several discards keep a line's pattern, throw the ones that "
        "leave the fewest dead cards touching (any of them if that still leaves several)."))
    blocks += _stage_blocks(chart.deal, "The deal", "deal",
                            "Claim the tian-hu, or keep the highest-ranked pattern your six cards contain "
                            "(discarding the other two) and double down where the line says so. The share "
                            "of hands is the share of all deals where that line is the one applied.")
    blocks += _stage_blocks(chart.draw, "The draw", "draw",
                            "After the first draw: claim the di-hu, fold, or keep the highest-ranked pattern "
                            "your six cards contain and bet F as the line says. Shares are of the hands "
                            "reaching the draw under optimal play.")
    n = chart.ting_outs[0]["unseen"]
    by_fa: dict[float, list[dict[str, Any]]] = defaultdict(list)
    for row in chart.ting_outs:
        by_fa[row["fa_bet"]].append(row)
    blocks += [
        Heading(2, "The ting decision", "ting"),
        Paragraph(f"Count the outs: the unseen cards (of {n} when you hold no joker) each of which, with "
                  "any second card, completes a hu that uses a hand card. Then, by the number of outs:"),
        Bullets([f"F = {fa:g}: {_outs_ranges(rows)}" for fa, rows in by_fa.items()]),
        Paragraph(f"A pair of unseen cards that completes a hu only together counts as 1/{n - 1} of an out; "
                  "outs that complete a flush hu are worth a little more than the table assumes. The exact "
                  "rule is a win probability threshold (at a threshold exactly, the smaller bet):"),
        Bullets([f"F = {t['fa_bet']:g}: " + "; ".join(
            s["option"] if i == 0 else f"above {s['exact']} ({s['from_probability']:.4f}): {s['option']}"
            for i, s in enumerate(t["steps"]))
            for t in chart.ting_thresholds]),
    ]
    return blocks


def chart_markdown(chart: Chart) -> str:
    """The chart as a Markdown document."""
    return to_markdown(chart_document(chart))
