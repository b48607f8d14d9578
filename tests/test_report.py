"""The report: pictures (PNG, SVG), the Markdown chart, and index.html rendered in headless Chromium."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from solver.cli import main
from tests.conftest import TWO_SUITS_TOML

FIGURES = ("ev_distribution", "ting_heatmap", "fold_raise_regions", "outcome_returns")


@pytest.fixture(scope="module")
def report(two_suit_tables: Path, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("report")
    config = out / "two.toml"
    config.write_text(TWO_SUITS_TOML)
    assert main(["chart", "--config", str(config), "--tables", str(two_suit_tables), "--out", str(out / "r")]) == 0
    return out / "r"


def test_every_format_is_written(report: Path) -> None:
    for name in FIGURES:
        assert (report / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        root = ET.parse(report / f"{name}.svg").getroot()
        assert root.tag.endswith("svg")
    text = (report / "chart.md").read_text()
    assert "## The deal" in text and "## The draw" in text and "![" in text


def test_page_shows_no_markdown_marks(report: Path) -> None:
    """The chart's text carries Markdown's inline marks; the page renders them rather than showing them."""
    page = (report / "index.html").read_text()
    text = re.sub(r"<svg.*?</svg>|<script.*?</script>|<style.*?</style>", "", page, flags=re.S)
    assert "<em>touches</em>" in text and "<code>" in text
    assert not re.search(r"\*\w[^*<]*\*|`", text)


def test_page_keeps_bets_and_hands_whole_and_names_decisions_as_the_rules_do(report: Path) -> None:
    """In the page's tables a bet (F = 2) and a hand's card groups never wrap inside (no-break spaces), and the
    par sheet's decisions are spelt as the rules spell them (claim tian-hu, fold fa-hu)."""
    from solver.products.edge import decision_name

    page = (report / "index.html").read_text()
    cells = re.findall(r"<td[^>]*>(.*?)</td>", page, flags=re.S)
    assert any(re.fullmatch(r"F\u00a0=\u00a0\d", c) for c in cells)
    assert not any(re.search(r"\w = \w", c) for c in cells)
    assert not any(re.search(r"\d[mps] (\d+[mps]|J)\b", c) for c in cells)
    assert any(re.search(r"\d[mps]\u00a0(\d+[mps]|J)\b", c) for c in cells)
    assert "claim tian-hu" in cells and "decline di-hu" in cells and "fold fa-hu" in cells
    assert [decision_name(k) for k in ("won_at_fa_hu", "ting_hu_bet", "double_down")] == [
        "won at fa-hu", "ting-hu bet", "double down"]


def test_page_is_self_contained(report: Path) -> None:
    page = (report / "index.html").read_text()
    assert page.count("<svg") == len(FIGURES)
    # nothing is fetched: no external scripts, styles, images or fonts (SVG namespaces are not fetches)
    assert not re.search(r"""(src|href)\s*=\s*["'](https?:|//|file:)""", page)
    assert "<link" not in page and "@import" not in page
    # the inlined pictures do not share ids, and every reference inside them resolves
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids))
    references = set(re.findall(r'(?:href="|url\()#([^")]+)', page))
    assert references and references <= set(ids)


def test_page_renders_in_a_headless_browser(report: Path, tmp_path: Path) -> None:
    """Chromium loads the page offline; its script builds the contents from the sections, so the
    dumped DOM has them only if the page really rendered and ran."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        if os.environ.get("CI"):
            pytest.fail("Chromium is needed for this test in CI: .ci/run installs it (scripts/ensure-chromium)")
        pytest.skip("no Chromium here: scripts/ensure-chromium installs it (CI always runs this test)")
    result = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", (report / "index.html").as_uri()],
        capture_output=True, text=True, timeout=120, check=True)
    dom = result.stdout
    contents = re.search(r'<nav id="contents">(.*?)</nav>', dom, re.S)
    assert contents, "the page's script did not run"
    titles = re.findall(r'<a href="#([\w-]+)">([^<]+)</a>', contents.group(1))
    assert [anchor for anchor, _ in titles] == ["deal", "draw", "ting", "par-sheet", "pictures"]  # the chart leads
    assert dom.count("<svg") == len(FIGURES) and "house edge" in dom


def test_seats_the_deck_cannot_deal_are_refused_before_anything_is_written(tmp_path: Path, capsys) -> None:
    """The reduced deck deals at most two seats: `chart --seats 3` stops at once, as `edge` does, and leaves
    the report's folder empty rather than write the chart and its pictures first."""
    out = tmp_path / "report"
    assert main(["chart", "--config", "configs/reduced-3x4.toml", "--out", str(out), "--seats", "3",
                 "--table-hands", "100", "--quiet"]) == 2
    assert "this deck deals at most 2 seats" in capsys.readouterr().err
    assert not out.exists() or not any(out.iterdir())


def test_seats_without_the_page_they_go_on_are_refused(tmp_path: Path, capsys) -> None:
    assert main(["chart", "--config", "configs/reduced-3x4.toml", "--out", str(tmp_path / "r"), "--seats", "1-2",
                 "--format", "md", "--quiet"]) == 2
    assert "--seats adds a section to the report's page, which --format md leaves out" in capsys.readouterr().err
