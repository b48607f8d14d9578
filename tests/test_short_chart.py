"""The short chart (``chart --max-lines N``): within N lines, priced exactly, its curve of loss against length."""

from __future__ import annotations

import json
import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from solver.cli import main
from solver.game.config import load_config
from solver.products.chart_short import CURVE_SIZES, build_short_chart
from solver.products.patterns import PSEUDO
from tests.test_chart import _replay

ROOT = Path(__file__).parent.parent
TABLES = ROOT / "strategy_tables" / "reduced-3x4"
CONFIG = load_config(ROOT / "configs" / "reduced-3x4.toml")


@pytest.fixture(scope="module")
def short() -> dict:
    """The reduced deck's charts within 40 and 60 lines."""
    return {n: build_short_chart(CONFIG, TABLES, n) for n in (40, 60)}


def _lines(chart) -> int:
    return sum(r.entry not in PSEUDO for r in chart.deal.rules + chart.draw.rules)


@pytest.mark.parametrize("n", [40, 60])
def test_short_chart_has_at_most_n_lines_and_is_priced_like_a_plain_replay(short: dict, n: int) -> None:
    """At most N deal and draw lines (claims and fold aside); each stage's loss is the row-by-row replay's."""
    chart = short[n]
    assert _lines(chart) <= n and chart.to_json()["lines"] == _lines(chart)
    for stage in (chart.deal, chart.draw):
        assert stage.loss == pytest.approx(_replay(stage, CONFIG, TABLES), abs=1e-12)
        assert stage.loss >= 0


def test_curve_never_rises_with_more_lines(short: dict) -> None:
    """The least loss found does not rise as the lines allowed grow, for each list and the whole chart;
    the whole chart's point at N is the two lists' exact losses at its split, within N lines."""
    chart = short[40]
    (form,) = chart.curve
    points = form["points"]
    assert [p["lines"] for p in points] == [*CURVE_SIZES, "full"]
    for part in ("deal", "draw", "chart"):
        found = [p[part] for p in points if p[part] is not None]
        assert found and all(b <= a + 1e-12 for a, b in zip(found, found[1:]))
    for p in points:
        if p["chart"] is not None and p["lines"] != "full":
            assert p["deal_lines"] + p["draw_lines"] <= p["lines"]
    at_40 = next(p for p in points if p["lines"] == 40)
    assert chart.deal.loss + chart.draw.loss == pytest.approx(at_40["chart"], abs=1e-12)


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


def test_a_chart_asked_for_fewer_lines_than_the_deal_list_can_keep_says_so(short: dict) -> None:
    """The deal has no line that covers every hand: asked for fewer lines than its list can drop to, the
    chart is the shortest found and says that no chart fits, rather than claim to be within the bound."""
    from solver.products.chart import chart_markdown

    fits = chart_markdown(short[40])
    assert "within the 40 asked" in fits and "No chart" not in fits
    shortest = build_short_chart(CONFIG, TABLES, 5)
    assert _lines(shortest) > 5
    assert "**No chart of ranked lists fits in 5 lines**" in chart_markdown(shortest)
