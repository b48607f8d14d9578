"""``mahjong-poker best`` and its API: every stage, JSON schema, bad input."""

import json
from pathlib import Path

import numpy as np
import pytest

from solver.cli import main
from solver.evaluator.api import Stage, State, evaluate
from solver.game.cards import format_cards, parse_cards
from solver.game.config import GameConfig
from solver.game.options import best_index
from solver.game.state import unseen_suited
from solver.products.query import best_play, describe_hold, unseen_copies

MINI_TOML = "[deck]\nsuits = 2\nranks = 4\ncopies = 2\n"
MINI = GameConfig(suits=2, ranks=4, copies=2)


@pytest.fixture
def mini_config(tmp_path) -> str:
    path = tmp_path / "mini.toml"
    path.write_text(MINI_TOML)
    return str(path)


def run_json(capsys, *args: str) -> dict:
    assert main(["best", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def check_schema(data: dict, stage: str) -> None:
    state = {"stage", "hand", "dead", "community", "double_down", "fa_bet", "bonus"}
    assert set(data) == state | {"options", "best", "source", "aim"} | ({"ting"} if stage == "ting" else set()) | (
        {"tables"} if data["source"] == "tables" else set())
    assert data["stage"] == stage and data["source"] in {"tables", "evaluator"} and data["aim"]
    if stage == "ting":
        assert set(data["ting"]) == {"outs", "unseen", "pairs", "winning", "flush"}
    for option in data["options"]:
        assert set(option) == {"action", "discard", "bet", "ev", "index"}
        assert option["action"] in {"claim", "decline", "fold", "bet", "discard"}
    # listed best first, as the table prints them; "index" is the option's place in the API's fixed order
    assert data["best"] == 0 and sorted(o["index"] for o in data["options"]) == list(range(len(data["options"])))
    evs = [o["ev"] for o in data["options"]]
    assert all(later <= earlier + 1e-12 for earlier, later in zip(evs, evs[1:])) and evs[0] == max(evs)


def in_api_order(data: dict) -> list[dict]:
    return sorted(data["options"], key=lambda o: o["index"])


def test_ting_stage(capsys) -> None:
    data = run_json(capsys, "11m 23p", "--dead", "57s 9m 9p", "--community", "4s 6s 8p 9s", "--fa", "1")
    check_schema(data, "ting")
    assert [o["action"] for o in in_api_order(data)] == ["fold", "bet", "bet", "bet"]
    assert [o["bet"] for o in in_api_order(data)] == [0, 1, 2, 3]
    assert (data["hand"], data["community"], data["fa_bet"]) == (["1m", "1m", "2p", "3p"], ["8p", "4s", "6s", "9s"], 1)


def test_draw_stage_matches_the_api(capsys) -> None:
    data = run_json(capsys, "11m 23p 57s", "--dead", "9m 9p", "--dd", "--no-tables")  # the evaluator, as the API
    check_schema(data, "draw")
    g = GameConfig().geometry
    options = evaluate(State(Stage.DRAW, parse_cards("11m 23p 57s", g), parse_cards("9m 9p", g), double_down=1.0))
    assert [o["ev"] for o in in_api_order(data)] == [o.ev for o in options]
    assert data["options"][0]["index"] == best_index(options) and data["options"][0]["discard"] == ["5s", "7s"]
    assert (data["dead"], data["double_down"]) == (["9m", "9p"], 1.0)


def test_a_draw_from_tables_without_stage_a_is_evaluated(capsys, tmp_path: Path) -> None:
    """The committed real-deck tables leave out holds.parquet: a draw query given them is answered by the
    evaluator, which says why. (A copy of the committed files: a solve may have added holds.parquet beside them.)"""
    import shutil

    committed = Path(__file__).parent.parent / "strategy_tables" / "7981a1455f0f2315"
    tables = tmp_path / committed.name
    tables.mkdir()
    for name in ("manifest.json", "summary.parquet", "outcomes.parquet", "deals.parquet", "firsts.parquet"):
        shutil.copy(committed / name, tables / name)
    assert main(["best", "11m 23p 57s", "--dead", "9m 9p", "--dd", "--tables", str(tables)]) == 0
    out = capsys.readouterr().out
    assert "EVs computed by the evaluator" in out and "lacks holds.parquet" in out


def test_deal_stage_on_a_mini_deck(capsys, mini_config: str) -> None:
    data = run_json(capsys, "11m 23p 4m J", "--config", mini_config)
    check_schema(data, "deal")
    assert {o["bet"] for o in data["options"] if o["action"] == "discard"} == {0.0, 1.0}
    assert main(["best", "11m 23p 4m J", "--config", mini_config]) == 0
    assert "best: " in capsys.readouterr().out


def test_human_output(capsys) -> None:
    assert main(["best", "1m 123p 55s", "--dead", "9m 9p"]) == 0
    out = capsys.readouterr().out
    assert "best: claim the hu" in out and "vs best" in out


def test_bonus_objective(capsys) -> None:
    """A bonus bet is settled only by a ting bet: bets carry its expected net, folding pushes it."""
    args = ["11m 23p", "--dead", "57s 9m 9p", "--community", "4s 6s 8p 9s", "--fa", "1"]
    plain = run_json(capsys, *args)
    with_bonus = run_json(capsys, *args, "--bonus", "2")
    plain, with_bonus = in_api_order(plain), in_api_order(with_bonus)
    assert with_bonus[0] == plain[0] and plain[0]["action"] == "fold"
    shifts = {round(b["ev"] - a["ev"], 12) for a, b in zip(plain[1:], with_bonus[1:])}
    assert len(shifts) == 1 and shifts.pop() < 0  # the same expected bonus net on every bet


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["11m 23p"], "cannot tell the stage from 4 hand cards"),
        (["11m 23p 5x"], "unknown character 'x'"),
        (["11m 23p 57s", "--dead", "1m 1m"], "1m appears 4 times in hand and dead"),
        (["11m 23p", "--dead", "57s 9m 9p", "--community", "4s 6s 8p 9s", "--fa", "3"], "F must be one of 1, 2"),
        (["11m 23p", "--dead", "57s 9m 9p", "--community", "4s 5s 6s 9s", "--fa", "1"], "already forms a hu"),
        (["11m 23p", "--dead", "57s 9m 9p", "--community", "4s 6s 8p J", "--fa", "1"], "never jokers"),
        (["11m 23p 57s", "--dead", "9m"], "dead cards at the draw stage must hold 2 cards"),
        (["11m 23p 57s", "--stage", "ting"], "make a deal-stage hand, not ting"),
        (["11m 23p 57s", "--dd"], "no double-down is placed before the deal decision"),
        (["11m 23p 57s", "--dead", "9m 9p", "--bonus", "-1"], "--bonus: must be a finite number, not negative"),
        (["11m 23p 57s", "--dead", "9m 9p", "--bonus", "nan"], "--bonus: must be a finite number"),
        (["11m 23p 57s", "--jobs", "0"], "--jobs: must be a positive number"),
    ],
)
def test_bad_input_exits_2(capsys, args: list[str], fragment: str) -> None:
    assert main(["best", *args]) == 2
    err = capsys.readouterr().err
    assert fragment in err and len(err.strip().splitlines()) == 1


def test_api_and_aim() -> None:
    result = best_play("11m 23p 57s", GameConfig(), dead="9m 9p")
    assert result.options[result.best].discard == parse_cards("57s", GameConfig().geometry)
    assert result.aim == "pair 1m, run 23p needs 1p or 4p"
    g = GameConfig().geometry
    assert describe_hold(parse_cards("345s J", g), g) == "run 345s, joker"
    unseen = np.full(g.n_suited, 3)
    unseen[parse_cards("1p", g)[0]] = 0
    assert describe_hold(parse_cards("11m 23p", g), g, unseen) == "pair 1m, run 23p needs 4p (1p all seen)"
    unseen[parse_cards("4p", g)[0]] = 0
    assert describe_hold(parse_cards("23p", g), g, unseen) == "run 23p is dead (1p and 4p all seen)"
    for config in (GameConfig(), GameConfig(decks=2)):  # the aim's copies left, counted without numpy
        seen = parse_cards("11m 23p 57s J 999m", config.geometry)
        assert unseen_copies(seen, config.geometry) == unseen_suited(seen, config).tolist()
    shown = best_play("11m 23p 8m 6s", GameConfig(), dead="57s", shown="111p")
    assert shown.aim == "pair 1m, run 23p needs 4p (1p all seen)"


def test_ting_outs_against_a_naive_count() -> None:
    """The ting answer's outs: unseen copies of each card that, with the hand and the four community cards,
    makes a hu using a hand card (tested naively: every five of the nine cards)."""
    import random

    from solver.game.combinatorics import remove_cards
    from tests.naive import naive_level

    config = GameConfig()
    g = config.geometry
    rng = random.Random(7)
    deck = g.cards()
    checked, with_outs = 0, 0
    while checked < 12:
        cards = rng.sample(deck, 12)
        hand, dead, community = tuple(sorted(cards[:4])), tuple(sorted(cards[4:8])), tuple(sorted(cards[8:]))
        if g.joker in community or naive_level(list(hand + community), g, hand_size=4):
            continue  # community cards are never jokers; a hu of the eight cards wins at once
        result = best_play(format_cards(hand, g), config,
                           dead=format_cards(dead, g), community=format_cards(community, g), fa_bet=1.0)
        unseen = remove_cards(tuple(sorted(deck)), tuple(sorted(cards)))
        outs = sum(1 for x in unseen if x != g.joker and naive_level(list(hand + community + (x,)), g, hand_size=4))
        assert result.aim.startswith(f"{outs} outs among {sum(1 for x in unseen if x != g.joker)} unseen cards")
        assert result.odds["outs"] == outs and result.to_json(g)["ting"] == result.odds
        checked += 1
        with_outs += outs > 0
    assert with_outs >= 3  # the sample is not all dead hands


def test_progress_eta_runs_at_the_rate_after_starting_up(monkeypatch, capsys) -> None:
    """The first report comes after the workers start (20 s here); the hands after it come at 1,000 a second:
    the ETA is at that rate (80 s for the 80,000 left at 20%), not the start's (80 s elapsed for 20,000: 320)."""
    import sys

    from solver.products import query

    clock = iter([0.0, 20.0, 30.0, 40.0])
    monkeypatch.setattr(query.time, "monotonic", lambda: next(clock))
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    report = query.stderr_progress("hands")
    report(10_000, 100_000)  # at 20 s: no rate yet
    report(20_000, 100_000)  # at 30 s
    report(100_000, 100_000)  # at 40 s
    lines = capsys.readouterr().err.split("\r")[1:]
    assert lines == ["hands: 10000/100000 (10%), 20 s\x1b[K", "hands: 20000/100000 (20%), 30 s, ETA 80 s\x1b[K",
                     "hands: 100000/100000 (100%), 40 s, ETA 0 s\x1b[K\n"]
