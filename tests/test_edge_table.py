"""The par sheet's table section (``edge --seats``): its rows are ``simulate --seats N``'s, its intervals hold
their estimates, one seat is checked against the exact lone figures, every form renders it, and bad input is
refused before anything is simulated."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import solver.products.table
from solver.cli import main
from solver.game.config import load_config
from solver.products.edge import ParSheet, par_sheet, par_sheet_document
from solver.render.document import to_html, to_markdown, to_text

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "configs" / "reduced-3x4.toml"
REDUCED = load_config(CONFIG)
REDUCED_TABLES = ROOT / "strategy_tables" / "reduced-3x4"
ARGS = ["--config", str(CONFIG), "--tables", str(REDUCED_TABLES), "--jobs", "1"]
TIMING = ("seconds", "seat_hands_per_second")  # the only figures that differ between two runs


@pytest.fixture(scope="module")
def sheet() -> ParSheet:
    return par_sheet(REDUCED, REDUCED_TABLES, n_jobs=1, quiet=True, seats=range(1, 3), table_hands=2000, seed=1)


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _untimed(row: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k not in TIMING}


def test_edge_seats_json_rows_are_the_simulators(capsys: pytest.CaptureFixture[str], sheet: ParSheet) -> None:
    """``edge --seats 1-2 --json``: a row per number of seats, each with its figures and intervals; one
    seat's row is ``simulate --seats 1``'s for the same seed and hands, number for number."""
    code, out, err = _run(capsys, "edge", *ARGS, "--seats", "1-2", "--hands", "2000", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    table = data["table"]
    assert (table["hands"], table["seed"], table["method"]) == (2000, 1, "simulated")
    rows = table["rows"]
    assert [r["seats"] for r in rows] == [1, 2] and [r["seat_hands"] for r in rows] == [2000, 4000]
    for r in rows:
        for value, interval in (("ev_per_seat", "ci99"), ("shown_cards_value", "shown_cards_ci99"),
                                ("bonus_net_per_bet_placed", "bonus_ci99")):
            assert r[interval][0] <= r[value] <= r[interval][1], (r["seats"], value)
        aware = r["bonus_aware_seat"]
        assert aware["seat"] == r["seats"] and aware["bonus_bet"] == 1.0
        assert aware["gain_ci99"][0] <= aware["gain"] <= aware["gain_ci99"][1] and aware["gain"] >= 0
        assert 0 < r["bonus_settled_share"] < 1
    assert rows[1]["ci99"][0] < rows[1]["ci99"][1]  # two seats: real intervals, not points
    assert rows[1]["bonus_settled_share"] > rows[0]["bonus_settled_share"]  # a second seat settles more bonuses
    code, out, _ = _run(capsys, "simulate", *ARGS, "--seats", "1", "--hands", "2000", "--seed", "1", "--json")
    assert code == 0 and _untimed(json.loads(out)) == _untimed(rows[0])
    assert [_untimed(r) for r in rows] == [_untimed(r) for r in sheet.to_json()["table"]["rows"]]


def test_one_seat_is_checked_against_the_exact_lone_figures(sheet: ParSheet) -> None:
    data = sheet.to_json()
    check, one = data["table"]["lone_player_check"], data["table"]["rows"][0]
    assert check["exact_ev"] == data["ev"]
    assert check["exact_bonus_per_bet_placed"] == data["bonus_per_bet_placed"]["ev"]
    assert check["ev_ci99_covers_exact"] == (one["ci99"][0] <= data["ev"] <= one["ci99"][1])
    assert check["ev_ci99_covers_exact"] and check["bonus_ci99_covers_exact"]  # seed 1: both inside
    two_only = replace(sheet, table=sheet.table[1:]).to_json()["table"]
    assert "lone_player_check" not in two_only  # no lone row, nothing to check against


def test_every_form_renders_the_section(sheet: ParSheet) -> None:
    """Text, Markdown and HTML carry the heading, a row per number of seats and the paragraph on how the
    figures were obtained; a sheet without a table (the default) has no section and no JSON key."""
    blocks = par_sheet_document(sheet)
    markdown, html, text = to_markdown(blocks), to_html(blocks, "par sheet"), to_text(blocks)
    assert "### At a table of 1 to 2 seats" in markdown
    assert '<h3 id="table">At a table of 1 to 2 seats</h3>' in html
    assert "At a table of 1 to 2 seats" in text
    assert "| 1 | " in markdown and "| 2 | " in markdown and "0 (nothing shown)" in markdown
    for words in ("seed 1", "2,000 hands", "covers the exact EV", "A bonus-aware seat", "after N hands"):
        assert words in markdown, words
    rows = sheet.to_json()["table"]["rows"]
    aware = rows[1]["bonus_aware_seat"]
    assert f"| 2 | {100 * aware['bonus_settled_share']:.2f}% | {aware['bonus_net_per_bet_placed']:+.4f} [" in markdown
    ten_thousand = rows[0]["ranges"][2]
    assert f"{ten_thousand['mean']:+,.0f}: [{ten_thousand['range90'][0]:+,.0f}, " in markdown
    one = replace(sheet, table=sheet.table[1:])
    assert "At a table of 2 seats" in to_markdown(par_sheet_document(one))
    bare = replace(sheet, table=None)
    assert "table" not in bare.to_json() and "At a table" not in to_markdown(par_sheet_document(bare))


def test_progress_goes_to_stderr_unless_json_or_quiet(capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # progress is drawn on a terminal only
    edge = ["edge", *ARGS, "--seats", "1", "--hands", "200"]
    code, out, err = _run(capsys, *edge)
    assert code == 0 and "1 seats: hands: 200/200" in err and "At a table of 1 seats" in out
    for flag in ("--quiet", "--json"):
        code, _, err = _run(capsys, *edge, flag)
        assert code == 0 and err == "", flag


@pytest.mark.parametrize("seats", ["0", "7", "5-2", "1-2-3", "x", "3", "1-3"])
def test_bad_seats_exit_2_with_one_line_before_any_play(seats: str, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Out of 1 to 6, a range the wrong way round, or more seats than the reduced deck deals (2): exit 2,
    one line naming the input, and no row simulated first."""
    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("simulated before the input was checked")

    monkeypatch.setattr(solver.products.table, "simulate_table", refuse)
    code, out, err = _run(capsys, "edge", *ARGS, f"--seats={seats}", "--hands", "200", "--json")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "seats" in err and seats.split("-")[-1] in err, err
