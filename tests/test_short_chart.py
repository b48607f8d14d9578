"""The short chart (``chart --max-lines N``): within N lines, priced exactly, its curve of loss against length."""

from __future__ import annotations

import itertools
import json
import shutil
from fractions import Fraction
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from solver.cli import main
from solver.game.cards import parse_cards
from solver.game.combinatorics import remove_cards
from solver.game.config import load_config
from solver.products.chart import _per_hand
from solver.products.chart_count import _levels, _rising_actions
from solver.products.chart_lines import stage_lines
from solver.products.chart_short import CURVE_SIZES, build_short_chart, count_form
from solver.products.patterns import PSEUDO, dead_touching, hold_pattern, pattern_table
from solver.products.point_count import FEATURES, TOUCHING_CAP, Count, pattern_features
from solver.tables.reader import draw_rows
from tests.test_chart import _replay

ROOT = Path(__file__).parent.parent
TABLES = ROOT / "strategy_tables" / "reduced-3x4"
CONFIG = load_config(ROOT / "configs" / "reduced-3x4.toml")


@pytest.fixture(scope="module")
def short() -> dict:
    """The reduced deck's charts within 40 and 60 lines."""
    return {n: build_short_chart(CONFIG, TABLES, n) for n in (40, 60)}


def _lines(chart) -> int:
    """What a person learns: a list's lines (actions aside), or a point count's."""
    return sum(s.count.lines if s.count else sum(r.entry not in PSEUDO for r in s.rules)
               for s in (chart.deal, chart.draw))


@pytest.mark.parametrize("n", [40, 60])
def test_short_chart_has_at_most_n_lines_and_is_priced_like_a_plain_replay(short: dict, n: int) -> None:
    """At most N deal and draw lines (claims and fold aside); each stage's loss is the row-by-row replay's."""
    chart = short[n]
    assert _lines(chart) <= n and chart.to_json()["lines"] == _lines(chart)
    for stage in (chart.deal, chart.draw):
        replay = _replay_count(stage.count) if stage.count else _replay(stage, CONFIG, TABLES)
        assert stage.loss == pytest.approx(replay, abs=1e-12)
        assert stage.loss >= 0


def test_curve_never_rises_with_more_lines(short: dict) -> None:
    """The least loss found does not rise as the lines allowed grow, for each list and the whole chart;
    the whole chart's point at N is the two lists' exact losses at its split, within N lines."""
    chart = short[40]
    lists, counts, both = chart.curve
    assert [c["form"] for c in chart.curve] == ["ranked lists in card-pattern words", "point counts",
                                                "each decision's better form"]
    for form in (counts, both):
        for p in form["points"]:
            if p["chart"] is not None and p["lines"] != "full":
                assert p["deal_lines"] + p["draw_lines"] <= p["lines"]
    for a, b in zip(lists["points"], both["points"]):  # the better form is never worse than lists alone
        assert b["chart"] is not None and (a["chart"] is None or b["chart"] <= a["chart"] + 1e-12)
    points = both["points"]
    assert [p["lines"] for p in points] == [*CURVE_SIZES, "full"]
    for part in ("deal", "draw", "chart"):
        found = [p[part] for p in points if p[part] is not None]
        assert found and all(b <= a + 1e-12 for a, b in zip(found, found[1:]))
    for p in points:
        if p["chart"] is not None and p["lines"] != "full":
            assert p["deal_lines"] + p["draw_lines"] <= p["lines"]
    at_40 = next(p for p in points if p["lines"] == 40)
    assert chart.deal.loss + chart.draw.loss == pytest.approx(at_40["chart"], abs=1e-12)


def test_reference_lists_are_the_curves_full_point(short: dict) -> None:
    """The full lists printed for reference are the ranked lists of the curve's "full" row, the same lines and
    the same exact losses (on the reduced deck a 65-line draw list searched again loses less than the 66-line
    list it was shortened from: the reference is the better one)."""
    chart = short[40]
    full = chart.curve[0]["points"][-1]
    deal, draw = chart.reference
    assert (deal.lines, draw.lines) == (full["deal_lines"], full["draw_lines"])
    assert deal.loss == pytest.approx(full["deal"], abs=1e-12)
    assert draw.loss == pytest.approx(full["draw"], abs=1e-12)
    assert deal.loss + draw.loss == pytest.approx(full["chart"], abs=1e-12)


@pytest.mark.slow
def test_cli_max_lines_exact(tmp_path: Path, capsys) -> None:
    """``chart --max-lines N --exact --json``: its lines and the exact loss of a solve that follows it (made in
    a copy of the tables), no better than optimal play and no better than the lists' own losses allow."""
    tables = tmp_path / TABLES.name
    shutil.copytree(TABLES, tables)
    assert main(["chart", "--config", str(ROOT / "configs" / "reduced-3x4.toml"), "--tables", str(tables),
                 "--max-lines", "40", "--exact", "--json", "--jobs", "2"]) in (0, None)
    out = json.loads(capsys.readouterr().out)
    assert out["lines"] <= 40 and out["max_lines"] == 40
    exact = out["exact"]
    assert Fraction(exact["loss_exact"]) >= 0 and exact["loss"] == pytest.approx(float(Fraction(exact["loss_exact"])))
    assert exact["loss"] >= max(out["deal"]["loss"], out["draw"]["loss"]) - 1e-12


def test_cli_refuses_max_lines_below_one(capsys) -> None:
    assert main(["chart", "--config", str(ROOT / "configs" / "reduced-3x4.toml"), "--tables", str(TABLES),
                 "--max-lines", "0"]) == 2
    err = capsys.readouterr().err
    assert "--max-lines: must be a whole number of lines, at least 1" in err and len(err.strip().splitlines()) == 1


def test_a_chart_asked_for_fewer_lines_than_the_deal_list_can_keep_says_so(short: dict, capsys) -> None:
    """The deal has no line that covers every hand: asked for fewer lines than its list can drop to, a chart of
    lists alone (rank shapes: no point count) is the shortest found and says that no chart fits, rather than
    claim to be within the bound; in card-pattern words the point count at the deal makes a chart that fits."""
    from solver.products.chart import chart_markdown

    fits = chart_markdown(short[40])
    assert "within the 40 asked" in fits and "No chart" not in fits
    counted = build_short_chart(CONFIG, TABLES, 5)
    assert _lines(counted) <= 5 and counted.deal.count is not None and "within the 5 asked" in chart_markdown(counted)
    shortest = build_short_chart(CONFIG, TABLES, 5, words="shapes")
    assert _lines(shortest) > 5
    assert "**No chart found fits in 5 lines**" in chart_markdown(shortest)
    # past the limit the deal is as short as it goes, and the draw keeps the lines asked for: not none at all,
    # which would fold every hand that reaches it
    assert shortest.deal.lines == shortest.curve[0]["shortest"]["deal"] and 0 < shortest.draw.lines <= 5
    assert main(["chart", "--config", str(ROOT / "configs" / "reduced-3x4.toml"), "--tables", str(TABLES),
                 "--max-lines", "5", "--words", "shapes", "--quiet"]) in (0, None)
    assert ("no chart found fits in 5 lines: the deal's shortest has "
            f"{shortest.deal.lines}; with the draw's best within 5 lines of its own") in capsys.readouterr().err


def test_a_bet_the_fit_skips_is_neither_printed_nor_counted() -> None:
    """Thresholds (-23, -23) at the draw: from -23 points the count bets F = 2 and never F = 1 (the fit went
    from folding straight to the larger bet), so the F = 1 band is empty: not printed, not a line to learn."""
    points = tuple(int(k == 0) for k in range(len(FEATURES)))
    skipped = Count("draw", points, 0, (-23, -23), (1.0, 2.0))
    assert skipped.bets_text() == ["fold below -23 points", "bet F = 2 from -23 points"]
    assert skipped.lines == 2  # one feature scored and one threshold
    assert list(skipped.action(np.array([-24, -23, 0]))) == [0, 2, 2]
    both = Count("draw", points, 0, (-23, -20), (1.0, 2.0))
    assert both.bets_text() == ["fold below -23 points", "bet F = 1 from -23 points", "bet F = 2 from -20 points"]
    assert both.lines == 3


def _replay_count(count: Count) -> float:
    """A point count's loss per hand dealt, replayed row by row with plain Python: claim a hu; else score
    every discard's kept cards (their words' points, less the points per dead card touching, at most
    TOUCHING_CAP), keep the most points (ties: the fewest dead cards touching, counted up to TOUCHING_CAP,
    then the most jokers, then the pattern first in alphabetical order, then the fewest dead cards touching
    and the smallest spread; the rest equally likely) and bet by the thresholds."""
    geometry = CONFIG.geometry
    stage = count.stage
    rows = pq.read_table(TABLES / "deals.parquet").to_pylist() if stage == "deal" else draw_rows(TABLES, CONFIG)
    loss = 0.0
    for row in rows:
        hand = parse_cards(row["hand"], geometry)
        dead = parse_cards(row["dead"], geometry) if stage == "draw" else ()
        options = list(zip(row["actions"], row["discards"], row["bets"], row["evs"]))
        claims = [e for a, _, _, e in options if a == "claim"]
        if claims:
            value = claims[0]
        else:
            scored = {}
            for a, d, b, e in options:
                if a in ("discard", "bet"):
                    thrown = parse_cards(d, geometry)
                    kept = remove_cards(hand, thrown)
                    touching = dead_touching(kept, dead + thrown, geometry)
                    entry = hold_pattern(kept, geometry)
                    points = int(pattern_features(entry) @ np.array(count.points)) - count.touching * min(
                        touching, TOUCHING_CAP)
                    spread = sum(abs(2 * geometry.rank_of(c) - geometry.ranks - 1) for c in kept if c != geometry.joker)
                    jokers = kept.count(geometry.joker)
                    scored.setdefault(d, (-points, min(touching, TOUCHING_CAP), -jokers, entry, touching, spread,
                                          {}))[6][b] = e
            best = min(v[:6] for v in scored.values())
            taken = [v[6] for v in scored.values() if v[:6] == best]
            action = int(count.action(np.array([-best[0]]))[0])
            if stage == "draw" and action == 0:
                value = next(e for a, _, _, e in options if a == "fold")
            else:
                bet = count.bet_sizes[action - (stage == "draw")]
                value = sum(t[bet] for t in taken) / len(taken)
        loss += row["weight" if stage == "deal" else "reach"] * (row["best_ev"] - value)
    return loss / _per_hand(stage, CONFIG)


@pytest.mark.parametrize("stage", ["deal", "draw"])
def test_point_counts_are_priced_like_a_plain_replay_and_their_compiled_list(stage: str) -> None:
    """Every count on the path: its exact loss over every situation equals a plain replay of its points and
    the price of its compiled ranked list (two other computations)."""
    form = count_form(stage, CONFIG, stage_lines(stage, CONFIG, TABLES, "patterns"))
    assert len(form.counts) >= 5
    for size in sorted(form.counts)[::3]:
        loss = form.exact_loss(CONFIG, size)
        assert loss == pytest.approx(_replay_count(form.counts[size]), abs=1e-12)
        assert loss == pytest.approx(form.stage_chart(CONFIG, TABLES, size, 3, "patterns").loss, abs=1e-12)
        assert form.counts[size].lines == size


def test_pattern_features_and_a_compiled_count() -> None:
    """Words are counted from a pattern's name; a count compiles to a claim, its patterns by points (each
    at 0, 1 and any dead cards touching), and at the draw a fold below its first threshold."""
    features = dict(zip(FEATURES, pattern_features("2 pairs, in one suit")))
    assert features["pair"] == 2 and features["in one suit"] == 1 and sum(features.values()) == 3
    assert pattern_features("joker + suited odd middle card + 2 odd end cards, in three suits").tolist() == [
        int(f in ("joker", "suited odd middle card")) + 2 * (f == "odd end card") for f in FEATURES]
    entries = pattern_table(CONFIG.geometry, "patterns").entries
    points = tuple(5 if f == "pair" else 0 for f in FEATURES)
    count = Count("draw", points, 2, (0, 5), (1.0, 2.0)).compile(entries)
    assert count.lines == 4 and count.compiled[0][0] == "claim the hu" and count.compiled[-1][0] == "fold"
    held = count.compiled[1:-1]
    assert held[0] == ("2 pairs, in one suit", 2.0, 0)  # 10 points: the most, and the first pattern of them
    assert all(b == (2.0 if pattern_features(e)[FEATURES.index("pair")] * 5 - 2 * (2 if t is None else t) >= 5
                     else 1.0) for e, b, t in held)
    assert ("pair + 2 odd end cards, in three suits", 1.0, 1) in held  # 5 - 2 = 3 points: bet 1
    assert all(e != "nothing" for e, _, _ in held) and len(held) == sum(
        1 for e in entries if e not in PSEUDO for t in (0, 1, None)
        if pattern_features(e)[FEATURES.index("pair")] * 5 - 2 * (2 if t is None else t) >= 0)


@pytest.mark.parametrize("seed", range(12))
def test_thresholds_rise_with_the_count_as_every_rising_assignment_says(seed: int) -> None:
    """The thresholds' pass over the levels finds the best of every rising assignment of actions to levels
    (enumerated); on ties the smaller action at the highest level, then at the next, and so on; and the
    levels are ``np.unique``'s."""
    rng = np.random.default_rng(seed)
    n_levels, n_actions = int(rng.integers(1, 7)), int(rng.integers(1, 4))
    sums = rng.integers(-3, 4, (n_levels, n_actions)).astype(np.float64)  # small integers: many ties
    taken, total = _rising_actions(sums)
    rising = [a for a in itertools.product(range(n_actions), repeat=n_levels) if list(a) == sorted(a)]
    best = max(sum(sums[k, a[k]] for k in range(n_levels)) for a in rising)
    assert total == best
    ties = [a for a in rising if sum(sums[k, a[k]] for k in range(n_levels)) == best]
    assert tuple(taken) == min(ties, key=lambda a: a[::-1])
    counts = rng.integers(-50, 50, 40) * (10 ** 6 if seed % 4 == 3 else 1)  # seeds 3, 7, 11: too wide for a bincount
    for got, want in zip(_levels(counts), np.unique(counts, return_inverse=True)):
        assert np.array_equal(got, want)
