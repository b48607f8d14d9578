"""The strategy chart: hold patterns, each stage's exact price, the ting decision by thresholds and by outs."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from solver.cli import main
from solver.evaluator.ting import ting_bet_ev
from solver.game.cards import parse_cards
from solver.game.combinatorics import remove_cards
from solver.game.config import GameConfig
from solver.game.symmetry import apply, relabellings
from solver.products.chart import StageChart, build_chart, ting_outs_table, ting_thresholds
from solver.products.patterns import PSEUDO, ChartRules, dead_touching, hold_pattern, hold_words, shape_pattern
from solver.tables.files import options_from_row
from solver.tables.reader import draw_rows
from tests.conftest import TWO_SUITS_TOML

TWO_SUITS = GameConfig(suits=2, ranks=4, copies=2, jokers=1)


@pytest.mark.parametrize("cards, pattern", [
    ("11m 23p", "end pair + suited open connector, in two suits"),
    ("11m 23m", "end pair + suited open connector, in one suit"),
    ("22m 55p", "2 pairs, in two suits"),
    ("89s 5p J", "suited edge connector + joker + odd middle card, in two suits"),
    ("24m 56p", "suited open connector + suited one-gap, in two suits"),
    ("123m J", "suited run + joker, in one suit"),
    ("13m 5p 9s", "suited one-gap + odd middle card + odd end card, in three suits"),
    ("111m 7s", "triplet + odd middle card, in two suits"),
    ("11m 99s", "2 end pairs, in two suits"),
    ("19m 5p 5s", "2 suited odd end cards + 2 odd middle cards, in three suits"),
    ("14m 6p 7s", "suited odd middle card + suited odd end card + 2 odd middle cards, in three suits"),
    ("1112m", "triplet + suited odd middle card, in one suit"),
    ("2345m", "suited four-run, in one suit"),
    ("1235m", "suited run + suited odd middle card, in one suit"),
    ("5m J", "joker + odd middle card"),  # fewer than three suited cards: no count of suits
    ("57p J", "suited one-gap + joker"),
])
def test_hold_patterns(cards: str, pattern: str) -> None:
    geometry = GameConfig().geometry
    held = parse_cards(cards, geometry)
    assert hold_pattern(held, geometry) == pattern
    for mapping in relabellings(geometry):  # suits' names and rank direction do not matter
        assert hold_pattern(apply(mapping, held), geometry) == pattern


@pytest.mark.parametrize("cards, shape", [
    ("2234m", "2234"), ("6788p", "2234"),  # read downwards as well
    ("4456m", "3345"), ("5567s", "3345"),  # two or more from both ends: written from 3
    ("1123m", "1123"), ("2m 3p", "2 + 3"), ("123m 9p", "123 + 1"),
    ("5m 5p 5s J", "3 + 3 + 3 + J"), ("19m 5p J", "19 + 3 + J"),
    ("37m 2p 8s", "37 + 2 + 2"), ("38m 1p 1s", "27 + 1 + 1"),  # 38 read downwards is 72: nearer end first
])
def test_shapes(cards: str, shape: str) -> None:
    geometry = GameConfig().geometry
    assert shape_pattern(parse_cards(cards, geometry), geometry) == shape


def _legal_holds(geometry):
    for hold in combinations_with_replacement(range(geometry.n_types), 4):
        limit = {c: geometry.jokers_in_play if c == geometry.joker else geometry.copies_in_play for c in set(hold)}
        if all(hold.count(c) <= limit[c] for c in set(hold)):
            yield hold


def test_shapes_keep_distances_to_the_ends_and_nothing_else() -> None:
    """Reversing the ranks of one suit keeps every hold's shape; moving one suit's cards a rank up keeps
    it exactly when that does not change how near an end (at one, next to one, or further) the suit's
    lowest and highest cards are (or, for a group that reads alike downwards, only swaps the two); so a
    shape means what the chart says it means, on all 31,032 holds of the real deck."""
    geometry = GameConfig().geometry
    n = geometry.ranks

    def end_classes(ranks: list[int]) -> tuple[int, int]:
        return min(min(ranks) - 1, 2), min(n - max(ranks), 2)

    holds = 0
    for hold in _legal_holds(geometry):
        holds += 1
        shape = shape_pattern(hold, geometry)
        for suit in {geometry.suit_of(c) for c in hold if c != geometry.joker}:
            ranks = [geometry.rank_of(c) for c in hold if c != geometry.joker and geometry.suit_of(c) == suit]
            others = [c for c in hold if c == geometry.joker or geometry.suit_of(c) != suit]
            reversed_ = tuple(sorted(others + [suit * n + (n - r) for r in ranks]))
            assert shape_pattern(reversed_, geometry) == shape, hold
            if max(ranks) < n:
                moved = tuple(sorted(others + [suit * n + r for r in ranks]))  # each card a rank up
                before, after = end_classes(ranks), end_classes([r + 1 for r in ranks])
                mirror = sorted(min(ranks) + max(ranks) - r for r in ranks) == sorted(ranks)  # e.g. 3445
                same = after == before or (mirror and after == before[::-1])
                assert (shape_pattern(moved, geometry) == shape) == same, (hold, moved)
    assert holds == 31032


@pytest.fixture(scope="module")
def charts(two_suit_tables: Path) -> dict:
    return {words: build_chart(TWO_SUITS, two_suit_tables, words=words) for words in ("shapes", "patterns")}


@pytest.fixture(scope="module")
def chart(charts: dict):
    return charts["shapes"]


def _replay(stage: StageChart, config: GameConfig, tables: Path, rules: list | None = None,
            by_line: dict | None = None) -> float:
    """The stage's loss per hand dealt, recomputed row by row from the parquet table with plain Python:
    the first rule whose pattern the hand can keep (with no more dead cards touching than the rule
    allows) or claim / fold where offered is played, at the rule's bet; of the discards it allows, those
    with the fewest dead cards touching, and of those the ones with the smallest summed distance of the
    kept suited cards from the middle rank, are each taken with equal probability (their mean EV).
    ``by_line``, when given, gets each rule's rank -> the loss of the hands it plays, per hand dealt."""
    geometry = config.geometry
    name, weight_column = ("deals.parquet", "weight") if stage.stage == "deal" else ("draws.parquet", "reach")
    loss = Fraction(0)
    lines: dict[int, Fraction] = {}
    rows = pq.read_table(tables / name).to_pylist() if stage.stage == "deal" else draw_rows(tables, config)
    for row in rows:
        hand = parse_cards(row["hand"], geometry)
        dead = parse_cards(row["dead"], geometry) if stage.stage == "draw" else ()
        for rule in stage.rules if rules is None else rules:
            if rule.entry in ("claim the hu", "fold"):
                evs = [e for a, e in zip(row["actions"], row["evs"]) if a == rule.entry.split()[0]]
            else:
                allowed = []
                for a, d, b, e in zip(row["actions"], row["discards"], row["bets"], row["evs"]):
                    thrown = parse_cards(d, geometry)
                    kept = remove_cards(hand, thrown)
                    touching = dead_touching(kept, dead + thrown, geometry)
                    named = hold_words(kept, geometry, stage.words)
                    if (a in ("discard", "bet") and b == rule.bet and named == rule.entry
                            and (rule.max_touching is None or touching <= rule.max_touching)):
                        allowed.append(((touching, sum(abs(2 * geometry.rank_of(c) - geometry.ranks - 1)
                                                       for c in kept if c != geometry.joker)), e))
                evs = [e for t, e in allowed if t == min(allowed)[0]] if allowed else []
            if evs:
                break
        else:
            raise AssertionError(f"no rule applies to {row['hand']}")
        lost = row[weight_column] * (Fraction(row["best_ev"]) - Fraction(sum(evs)) / len(evs))
        loss += lost
        lines[rule.rank] = lines.get(rule.rank, Fraction(0)) + lost
    per_hand = comb(geometry.size, 6) * (1 if stage.stage == "deal" else comb(geometry.size - 6, 2))
    if by_line is not None:
        by_line.update({rank: float(x / per_hand) for rank, x in lines.items()})
    return float(loss / per_hand)


@pytest.mark.slow  # the chart fixture builds a chart: about a minute
@pytest.mark.parametrize("words", ["shapes", "patterns"])
@pytest.mark.parametrize("stage", ["deal", "draw"])
def test_chart_is_priced_exactly_and_never_beats_optimal(charts, stage: str, words: str, two_suit_tables: Path
                                                         ) -> None:
    """Each stage's loss, recomputed independently from the tables, agrees to 1e-12 and is not negative;
    the rules' shares add up to every hand; the chart's EV is the optimal EV less the loss."""
    from solver.staged.run import load_summary

    part = getattr(charts[words], stage)
    assert part.words == words
    by_line: dict[int, float] = {}
    assert part.loss == pytest.approx(_replay(part, TWO_SUITS, two_suit_tables, by_line=by_line), abs=1e-12)
    assert [r.loss for r in part.rules] == pytest.approx([by_line.get(r.rank, 0.0) for r in part.rules], abs=1e-12)
    assert part.loss >= 0 and part.chart_ev <= part.optimal_ev
    assert part.optimal_ev == pytest.approx(float(load_summary(two_suit_tables, TWO_SUITS).ev_exact), abs=1e-12)
    assert sum(r.coverage for r in part.rules) == pytest.approx(1.0, abs=1e-12)
    assert sum(r.loss for r in part.rules) == pytest.approx(part.loss, abs=1e-12)
    assert [r.rank for r in part.rules] == list(range(1, len(part.rules) + 1))
    assert all(r.coverage > 0 for r in part.rules)


def test_best_hold_values_are_each_states_best_bet_option(two_suit_tables: Path) -> None:
    """The fold-and-raise picture's axes (``best_hold_values``: each reached post-draw state's best hold at each
    F, its DD counted as lost) equal the best ``bet`` option of each F among the state's options as a query
    lists them (``draw_rows``: ``draw_options`` one state at a time)."""
    from solver.products.chart_lines import best_hold_values

    config = TWO_SUITS
    best = best_hold_values(config, two_suit_tables)
    rows = draw_rows(two_suit_tables, config)
    assert best.shape == (len(rows), len(config.fa_hu_bets)) and len(rows) > 100
    for row, values in zip(rows, best):
        for f, value in zip(config.fa_hu_bets, values):
            assert value == max(e for a, b, e in zip(row["actions"], row["bets"], row["evs"]) if a == "bet" and b == f)


@pytest.mark.parametrize("kept, dead, touching", [
    ("11m 23p", "1m 4p 5p 9s", 2),  # 1m: a copy of a kept card; 4p: next to 3p; 5p: two ranks away
    ("11m 23p", "2m 1s 2s 3s", 1),  # 2m: next to 1m; other suits touch nothing
    ("5p J", "J 4p 6p 5p", 3),  # the joker touches nothing, nor is touched
    ("J", "1m 2m", 0),
    ("99s 19m", "8s 9m 2m 1p", 3),  # 8s next to 9s; 9m a copy; 2m next to 1m; 1p another suit
])
def test_dead_touching(kept: str, dead: str, touching: int) -> None:
    geometry = GameConfig().geometry
    k, d = parse_cards(kept, geometry), parse_cards(dead, geometry)
    assert dead_touching(k, d, geometry) == touching
    for mapping in relabellings(geometry):  # suits' names and rank direction do not matter
        assert dead_touching(apply(mapping, k), apply(mapping, d), geometry) == touching


def test_chart_rules_json_round_trip() -> None:
    rules = ChartRules((("claim the hu", 0.0, None), ("pair + suited run", 1.0, 0)),
                       (("fold", 0.0, None), ("2 pairs", 2.0, 1)))
    assert ChartRules.from_json(json.loads(json.dumps(rules.to_json()))) == rules
    # lists written before lines could be limited (two fields) read as unlimited lines
    assert ChartRules.from_json({"deal": [["2 pairs", 0]], "draw": []}).deal == (("2 pairs", 0.0, None),)


def _chart_total(values, weights, order, bets) -> float:
    """A chart's weighted total with plain loops: each situation plays the first listed entry it has."""
    total = 0.0
    for s in range(values.shape[0]):
        entry = next(e for e in order if not np.isnan(values[s, e, 0]))
        total += weights[s] * values[s, entry, bets[entry]]
    return total


@pytest.mark.parametrize("seed", range(20))
def test_local_search_ends_where_no_single_change_helps(seed: int) -> None:
    """On random instances (entries missing at random, two bet sizes, one entry a pseudo-entry with one
    bet that every situation has), no move of one entry and no change of one bet improves the result,
    checked by brute force with plain loops; and the search never made the chart worse."""
    from solver.products.chart import _search

    rng = np.random.default_rng(seed)
    n_situations, n_entries = 40, 6
    values = rng.normal(size=(n_situations, n_entries, 2))
    values[rng.random((n_situations, n_entries)) < 0.5] = np.nan
    values[:, 0, 1] = np.nan  # entry 0: a pseudo-entry (fold), always there, one bet
    values[:, 0, 0] = rng.normal(size=n_situations)
    weights = rng.integers(1, 10, size=n_situations).astype(float)
    pseudo = np.array([True] + [False] * (n_entries - 1))
    start_order = list(rng.permutation(n_entries))
    start_bets = np.zeros(n_entries, dtype=int)
    before = _chart_total(values, weights, start_order, start_bets)
    order, bets = _search(values, weights, list(start_order), start_bets.copy(), pseudo)
    best = _chart_total(values, weights, order, bets)
    assert best >= before - 1e-9
    for e in range(n_entries):
        rest = [x for x in order if x != e]
        for j in range(n_entries):
            assert _chart_total(values, weights, rest[:j] + [e] + rest[j:], bets) <= best + 1e-9
        if not pseudo[e]:
            flipped = bets.copy()
            flipped[e] = 1 - flipped[e]
            assert _chart_total(values, weights, order, flipped) <= best + 1e-9


def test_pruned_lines_each_earn_their_place() -> None:
    """On random instances where some entries are limited lines (each situation also has unlimited
    ones), after pruning every limited line that some situation still takes is worth at least the
    minimum gain: dropping it (its hands fall to their next line) costs at least that, checked with
    plain loops; pruning drops only limited lines, and on these instances it both drops and keeps some."""
    from solver.products.chart import _FirstTwo, _prune, _search

    dropped = kept = 0
    for seed in range(10):
        rng = np.random.default_rng(seed)
        n_situations, n_entries = 60, 8
        values = rng.normal(size=(n_situations, n_entries, 2))
        values[rng.random((n_situations, n_entries)) < 0.5] = np.nan
        values[:, 0] = rng.normal(size=(n_situations, 2))  # an unlimited entry every situation has
        weights = rng.integers(1, 10, size=n_situations).astype(float)
        pseudo = np.zeros(n_entries, dtype=bool)
        limited = np.array([False, False, False] + [True] * (n_entries - 3))
        order, bets = _search(values, weights, list(rng.permutation(n_entries)), np.zeros(n_entries, dtype=int),
                              pseudo)
        min_gain = 15.0
        two = _FirstTwo(~np.isnan(values[:, :, 0]), order)
        order, bets = _prune(values, weights, order, bets, pseudo, limited, min_gain, two)
        pruned = values.copy()
        pruned[:, two.gone] = np.nan
        gone = np.isnan(pruned[:, :, 0]) & ~np.isnan(values[:, :, 0])
        assert not gone[:, ~limited].any()
        dropped += int(gone.any(axis=0).sum())
        total = _chart_total(pruned, weights, order, bets)
        taken = {next(x for x in order if not np.isnan(pruned[s, x, 0])) for s in range(n_situations)}
        for e in taken:
            if limited[e]:
                kept += 1
                without = pruned.copy()
                without[:, e] = np.nan
                assert total - _chart_total(without, weights, order, bets) >= min_gain - 1e-9
    assert dropped > 0 and kept > 0


@pytest.mark.parametrize("config", [GameConfig(), GameConfig(ting_hu=2.0, ting_hu_multiples=(1.0, 2.0, 4.0))])
def test_ting_thresholds_are_the_indifference_points(config: GameConfig) -> None:
    """At each threshold the options on either side have the same EV (the evaluator's own formula)."""
    def ev(option: str, p: Fraction, fa: float) -> float:
        if option == "fold":
            return -(1.0 + fa)
        m = float(option.split("= ")[1].split(" F")[0])
        total = p.denominator * 10**6  # win counts out of a total that makes p exact
        return ting_bet_ev(int(p * total), 0, total, fa, m * fa, config)

    for entry in ting_thresholds(config):
        fa = entry["fa_bet"]
        steps = entry["steps"]
        assert steps[0]["option"] == "fold"
        for before, after in zip(steps, steps[1:]):
            p = Fraction(after["exact"])
            assert ev(before["option"], p, fa) == pytest.approx(ev(after["option"], p, fa), abs=1e-9)
            later = p + Fraction(1, 1000)
            assert ev(after["option"], later, fa) > ev(before["option"], later, fa)


@pytest.mark.parametrize("config", [GameConfig(), GameConfig(suits=3, ranks=4, copies=2, jokers=1)])
def test_ting_outs_table_follows_the_thresholds(config: GameConfig) -> None:
    """Each cell is the best option at its exact win probability; at a tie, the least money at risk
    (the reduced deck has one: with F = 1, one out of 12 gives exactly 1/6, where folding ties G = F)."""
    n = config.geometry.size - config.geometry.jokers_in_play - 12
    ties = 0
    for row in ting_outs_table(config):
        assert row["unseen"] == n
        p = 1 - Fraction(comb(n - row["outs"], 2), comb(n, 2))
        assert row["probability"] == pytest.approx(float(p), abs=1e-15)
        f = Fraction(row["fa_bet"])
        evs = {"fold": -(1 + f)}  # exact EVs at p, flushes counted as plain wins
        for m in config.ting_hu_multiples:
            g = Fraction(m) * f
            win = Fraction(config.ting_hu_ante) + f * Fraction(config.ting_hu_fa) + g * Fraction(config.ting_hu)
            evs[f"bet G = {m:g} F"] = p * win - (1 - p) * (1 + f + g)
        top = max(evs.values())
        tied = [name for name, ev in evs.items() if ev == top]  # in order of money at risk
        ties += len(tied) > 1
        assert row["option"] == tied[0]
    by_fa = {r["outs"]: r["option"] for r in ting_outs_table(config) if r["fa_bet"] == 1.0}
    assert by_fa[0] == "fold" and by_fa[max(by_fa)] == "bet G = 3 F"
    if config.geometry.size == 25:
        assert ties > 0 and by_fa[1] == "fold"


@pytest.mark.parametrize("words", ["shapes", "patterns"])
def test_patterns_read_alike_under_every_relabelling(words: str) -> None:
    """Every four-card hold of the real deck (31,032 multisets) has the same name as each of its 11
    relabellings (suits permuted, ranks reversed), so a chart means the same for a hand and its
    canonical form."""
    geometry = GameConfig().geometry
    mappings = relabellings(geometry)
    holds = 0
    for hold in _legal_holds(geometry):
        holds += 1
        name = hold_words(hold, geometry, words)
        assert all(hold_words(tuple(sorted(apply(m, hold))), geometry, words) == name for m in mappings), hold
    assert holds == 31032


def test_cli(two_suit_tables: Path, tmp_path: Path, capsys) -> None:
    config = tmp_path / "two.toml"
    config.write_text(TWO_SUITS_TOML)
    args = ["chart", "--config", str(config), "--tables", str(two_suit_tables)]
    assert main(args + ["--out", str(tmp_path / "out"), "--format", "md"]) == 0
    out = capsys.readouterr().out
    assert "## The deal" in out and "## The draw" in out and "## The ting decision" in out
    assert "keep" in (tmp_path / "out" / "chart.md").read_text()
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["chart.json", "chart.md"]
    assert main(args + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["deal"]["loss"] >= 0 and data["deal"]["rules"] and data["draw"]["rules"] and data["ting_outs"]
    assert main(args + ["--out", str(tmp_path / "x"), "--format", "png,gif"]) == 2
    assert "gif" in capsys.readouterr().err
    assert main(args + ["--format", "png"]) == 2  # nothing to write it to
    assert "give --out DIR too" in capsys.readouterr().err


def test_cli_refuses_tables_without_the_draws_before_any_work(two_suit_tables: Path, tmp_path: Path,
                                                              capsys) -> None:
    """Like the committed real-deck tables, tables without holds.parquet and draws.parquet: the chart says
    so at once, not after the deal's list."""
    config = tmp_path / "two.toml"
    config.write_text(TWO_SUITS_TOML)
    small = tmp_path / "small"
    small.mkdir()
    for path in two_suit_tables.iterdir():
        if path.is_file() and path.name not in ("holds.parquet", "draws.parquet"):
            (small / path.name).write_bytes(path.read_bytes())
    assert main(["chart", "--config", str(config), "--tables", str(small)]) == 2
    err = capsys.readouterr().err
    assert "lacks holds.parquet and draws.parquet" in err and len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_whole_chart_is_priced_exactly(chart, two_suit_tables: Path) -> None:
    """The solve that follows a chart (a mixed strategy: counts scaled to stay integers) agrees with the
    table pricing of each stage alone, to 1e-12, when the other stage is left to optimal play; the whole
    chart is no better than optimal play, and its return table is exact."""
    from solver.products.chart import chart_exact, uncovered_share
    from solver.staged.run import load_summary

    optimal = load_summary(two_suit_tables, TWO_SUITS)
    rules = chart.rules()
    deal_only = chart_exact(TWO_SUITS, two_suit_tables, ChartRules(rules.deal, (), rules.words), n_jobs=2)
    assert float(optimal.ev_exact - deal_only.ev_exact) == pytest.approx(chart.deal.loss, abs=1e-12)
    assert deal_only.ev == pytest.approx(optimal.ev - chart.deal.loss, abs=1e-12)  # chart deal, optimal after
    draw_only = chart_exact(TWO_SUITS, two_suit_tables, ChartRules((), rules.draw, rules.words), n_jobs=2)
    assert float(optimal.ev_exact - draw_only.ev_exact) == pytest.approx(chart.draw.loss, abs=1e-12)
    # after optimal deal play every post-draw state is one the draw list was made from, so all are covered
    assert uncovered_share(TWO_SUITS, draw_only.directory, ChartRules((), rules.draw, rules.words)) == 0
    assert 0 < uncovered_share(TWO_SUITS, draw_only.directory, ChartRules((), rules.draw[:1], rules.words)) < 1
    whole = build_chart(TWO_SUITS, two_suit_tables, exact=True, n_jobs=2).exact
    assert whole is not None
    assert Fraction(whole["ev_exact"]) <= optimal.ev_exact
    assert Fraction(whole["loss_exact"]) == optimal.ev_exact - Fraction(whole["ev_exact"])
    assert 0 <= whole["uncovered"] < 1
    summary = load_summary(whole["tables"], TWO_SUITS)
    assert sum((r.probability for r in summary.outcomes), Fraction(0)) == 1
    # the chart doubles down exactly when one of its deal lines says so (every line covers some deal)
    assert (summary.decisions()["double_down"] > 0) == any(b for e, b, _ in rules.deal if e not in PSEUDO)


def test_chart_restriction_needs_its_rules() -> None:
    from solver.errors import InputError
    from solver.game.objective import Objective

    with pytest.raises(InputError, match="chart"):
        Objective(restriction="chart")


def _plain_records(stage: str, row: dict, geometry, words: str) -> dict[str, tuple[int, list[float]]]:
    """A table row's records with plain Python, option by option: per entry, the fewest dead cards
    touching its holds and, per bet size, the mean EV of its holds with that few touching and the
    smallest summed distance of the kept suited cards from the middle rank."""
    hand = parse_cards(row["hand"], geometry)
    dead = parse_cards(row["dead"], geometry) if stage == "draw" else ()
    found: dict[str, list[tuple[tuple[int, int], float, float]]] = {}
    for action, discard, bet, ev in zip(row["actions"], row["discards"], row["bets"], row["evs"]):
        if action in ("claim", "fold"):
            found.setdefault("claim the hu" if action == "claim" else "fold", []).append(((0, 0), 0.0, ev))
            continue
        thrown = parse_cards(discard, geometry)
        kept = remove_cards(hand, thrown)
        spread = sum(abs(2 * geometry.rank_of(c) - geometry.ranks - 1) for c in kept if c != geometry.joker)
        found.setdefault(hold_words(kept, geometry, words), []).append(
            ((dead_touching(kept, dead + thrown, geometry), spread), bet, ev))
    out = {}
    for entry, options in found.items():
        least = min(p for p, _, _ in options)
        bets = sorted({b for _, b, _ in options})
        out[entry] = (least[0], [float(np.mean([e for p, b, e in options if p == least and b == bet])) for bet in bets])
    return out


@pytest.mark.slow
@pytest.mark.parametrize("words", ["shapes", "patterns"])
@pytest.mark.parametrize("stage", ["deal", "draw"])
def test_stage_lines_match_plain_python(stage: str, words: str, two_suit_tables: Path) -> None:
    """The records built for all situations at once (pattern and touching tables, compiled hold lists,
    a sort) equal those computed option by option with plain Python, for every situation."""
    from solver.products.chart_lines import stage_lines

    geometry = TWO_SUITS.geometry
    lines = stage_lines(stage, TWO_SUITS, two_suit_tables, words)
    rows = pq.read_table(two_suit_tables / "deals.parquet").to_pylist() if stage == "deal" else draw_rows(
        two_suit_tables, TWO_SUITS)
    assert len(rows) == len(lines.weights)
    starts = np.r_[lines.starts, len(lines.situation)]
    for i, row in enumerate(rows):
        plain = _plain_records(stage, row, geometry, words)
        records = range(starts[i], starts[i + 1])
        assert sorted(lines.entries[lines.entry[r]] for r in records) == sorted(plain)
        for r in records:
            fewest, values = plain[lines.entries[lines.entry[r]]]
            assert lines.fewest[r] == fewest
            got = lines.values[r]
            assert got[~np.isnan(got)] == pytest.approx(values, abs=1e-12)
        assert lines.weights[i] == row["weight" if stage == "deal" else "reach"]


@pytest.mark.slow
def test_draw_choices_match_the_rules_one_state_at_a_time(chart, two_suit_tables: Path) -> None:
    """The draw play of a chart read for all states at once is the play :meth:`ChartRules.choices` makes
    option by option, for every reached post-draw state, under the chart's list and under lists cut
    short or shuffled (so that some states fall to later lines and some to none)."""
    from solver.staged.forward import decode_rows
    from solver.staged.stages import state_holds
    from solver.tables.files import holds_file
    from solver.tables.reader import hold_values

    geometry = TWO_SUITS.geometry
    rows = draw_rows(two_suit_tables, TWO_SUITS)
    keys = np.array([r["key"] for r in rows])
    hands, deads = decode_rows(keys, geometry.n_types, (6, 2))
    held = state_holds(hands, deads, hold_values(holds_file(two_suit_tables))[0], geometry)
    lines = chart.rules().draw
    rng = np.random.default_rng(0)
    for draw in (lines, lines[: len(lines) // 3], tuple(lines[i] for i in rng.permutation(len(lines)))[:20]):
        rules = ChartRules((), draw, chart.deal.words)
        state, option = rules.draw_choices(held.holds, held.thrown, deads, held.n_holds, held.level,
                                           TWO_SUITS.fa_hu_bets, geometry)
        played: dict[int, list[int]] = {}
        for s, o in zip(state, option):
            played.setdefault(int(s), []).append(int(o))
        for i, row in enumerate(rows):
            hand, dead = parse_cards(row["hand"], geometry), parse_cards(row["dead"], geometry)
            options = options_from_row(row, geometry)
            assert played.get(i, []) == rules.choices("draw", options, hand, geometry, dead), row["hand"]


def test_spread_prefers_the_middle() -> None:
    """A hold's spread sums its suited cards' distances from the middle rank (twice over, so that even
    ranks count too): 2345m is nearer the middle than 1234m; jokers count nothing; relabelling keeps it."""
    from solver.products.patterns import hold_spread

    geometry = GameConfig().geometry
    assert hold_spread(parse_cards("2345m", geometry), geometry) == 2 * (3 + 2 + 1 + 0)
    assert hold_spread(parse_cards("1234m", geometry), geometry) == 2 * (4 + 3 + 2 + 1)
    assert hold_spread(parse_cards("5m 5p 5s J", geometry), geometry) == 0
    for mapping in relabellings(geometry):
        held = parse_cards("19m 3p J", geometry)
        assert hold_spread(apply(mapping, held), geometry) == hold_spread(held, geometry)
    assert hold_spread(parse_cards("14m", TWO_SUITS.geometry), TWO_SUITS.geometry) == 3 + 3


@pytest.mark.slow
def test_a_list_searched_on_a_sample_is_priced_over_every_situation(two_suit_tables: Path, monkeypatch) -> None:
    """Where a stage has more situations than the search reads (the real deck's draw), the list is found
    on a sample and its loss is still exact over every situation: it agrees with the row-by-row replay."""
    from solver.products import chart as chart_module

    monkeypatch.setattr(chart_module, "SEARCH_SITUATIONS", 200)
    part = chart_module.build_stage_chart("draw", TWO_SUITS, two_suit_tables)
    assert len(pq.read_table(two_suit_tables / "draws.parquet", columns=["key"])) > 200
    assert part.loss == pytest.approx(_replay(part, TWO_SUITS, two_suit_tables), abs=1e-12)
    assert part.loss >= 0 and sum(r.coverage for r in part.rules) == pytest.approx(1.0, abs=1e-12)


def test_each_situations_first_two_lines_follow_moves_and_drops() -> None:
    """The search's bookkeeping (``_FirstTwo``: each situation's first two available lines, updated for the
    situations a moved or dropped line touches; the list and each line's place, as ``_move_sweep`` moves
    lines) against a plain sort of each situation's lines."""
    from solver.products.chart import _FirstTwo, _move_sweep

    rng = np.random.default_rng(3)
    moves = 0
    for _ in range(20):
        n, m = int(rng.integers(1, 200)), int(rng.integers(1, 40))
        present = rng.random((n, m)) < rng.uniform(0.02, 0.5)
        values = np.where(present[:, :, None], rng.normal(size=(n, m, 2)), np.nan)
        weights, bets = rng.integers(1, 10, size=n).astype(float), rng.integers(0, 2, size=m)
        ranked = rng.permutation(m)[:int(rng.integers(1, m + 1))]
        two, gone = _FirstTwo(present, ranked.tolist()), set()
        for step in range(12):
            order = ranked.tolist()
            assert sorted(order) == sorted(set(order)) and two.place[order].tolist() == list(range(len(order)))
            plain = [sorted((order.index(e), e) for e in np.flatnonzero(row) if e in order and e not in gone)
                     for row in present]
            assert two.first.tolist() == [r[0][1] if r else m for r in plain]
            assert two.second.tolist() == [r[1][1] if len(r) > 1 else m for r in plain]
            e = int(rng.choice(order))
            if step % 3 == 2 and e not in gone:
                gone.add(e)
                assert two.drop(e).tolist() == np.flatnonzero(present[:, e]).tolist()
            else:
                before = order
                moved = _move_sweep(ranked, two.place, two.none, weights, values, bets, two.holder_rows,
                                    two.holder_start, two.holder_count, two.row_start, two.entries, two.gone,
                                    two.first, two.second)
                assert moved == (ranked.tolist() != before)
                moves += moved
    assert moves > 20


