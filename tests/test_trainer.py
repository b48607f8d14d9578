"""The trainer (``mahjong-poker train``): hands walked by the rules and settled, grades equal to ``best``,
seeds, drills and reviews, and the JSON API with its bad inputs."""

from __future__ import annotations

import io
import json
import shlex
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from solver.cli import main
from solver.errors import InputError
from solver.game.cards import parse_cards
from solver.game.config import GameConfig, load_config
from solver.game.options import Stage
from solver.products.chart_play import load_chart
from solver.products.query import best_play
from solver.trainer.grading import Grader, Thresholds, option_label, trainer_chart
from solver.trainer.hand import DONE, Choice, Hand, bonus_settlement, shuffled_deck
from solver.trainer.server import TrainerServer, make_server

SMALL_TOML = "[deck]\nsuits = 3\nranks = 4\ncopies = 2\njokers = 1\n"
SMALL = GameConfig(suits=3, ranks=4, copies=2, jokers=1)


@pytest.fixture(scope="module")
def small_config_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("trainer") / "small.toml"
    path.write_text(SMALL_TOML)
    assert load_config(str(path)) == SMALL
    return path


@pytest.fixture(scope="module")
def server(small_config_file: Path) -> Iterator[TrainerServer]:
    """A trainer on the small deck (no tables: the evaluator answers), serving on a free port."""
    running = make_server(SMALL, None, port=0, seed=5, config_file=str(small_config_file))
    thread = threading.Thread(target=running.serve_forever, daemon=True)
    thread.start()
    yield running
    running.shutdown()
    running.server_close()


def call(server: TrainerServer, method: str, path: str, body: object = None, raw: bytes | None = None
         ) -> tuple[int, dict]:
    """One request; the status and the JSON answer (errors included)."""
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.url.rstrip("/") + path, data=data, method=method)
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def new_session(server: TrainerServer, **body: object) -> str:
    status, data = call(server, "POST", "/api/sessions", body)
    assert status == 201, data
    return data["session"]


def new_hand(server: TrainerServer, session: str, **body: object) -> dict:
    status, data = call(server, "POST", f"/api/sessions/{session}/hands", body)
    assert status == 201, data
    return data


def decide(server: TrainerServer, session: str, hand: dict, **body: object) -> tuple[int, dict]:
    return call(server, "POST", f"/api/sessions/{session}/hands/{hand['hand']}/decisions",
                {"stage": hand["phase"], **body})


def playing_on(hand: dict) -> dict:
    """A legal choice that keeps the hand going: throw the first two cards, the smallest bet."""
    if hand["phase"] == "ting":
        return {"action": "bet", "bet": hand["bet_sizes"][0]}
    return {"action": "discard" if hand["phase"] == "deal" else "bet", "discard": hand["cards"][:2],
            "bet": hand["bet_sizes"][0] if hand["phase"] == "deal" else hand["bet_sizes"][-1]}


def crafted_deck(config: GameConfig, first: str) -> list[int]:
    """A deck that deals the cards named in ``first`` (one name per card, in order), then the rest."""
    geometry = config.geometry
    order = [parse_cards(name, geometry)[0] for name in first.split()]
    rest = geometry.cards()
    for card in order:
        rest.remove(card)
    return order + rest


# --- a hand walked by the rules, and settled --------------------------------------------------------------


def test_claiming_a_tian_hu_settles_at_once() -> None:
    hand = Hand.deal(1, SMALL, crafted_deck(SMALL, "1m 1m 2m 3m 4m 4p"))
    assert hand.can_claim()
    hand.check(Choice("claim"))
    hand.play(Choice("claim"))
    assert hand.phase == DONE and hand.outcome.kind == "tian_hu_flush"  # 2m 3m 4m + 1m 1m, all m
    assert hand.result()["net"] == SMALL.tian_hu_flush


def test_the_rule_cards_fa_hu_check() -> None:
    """Rule card: T = 10, F = 20 and a flush hu at step 11 win 40 chips."""
    deck = crafted_deck(SMALL, "1m 2m 4p 4s 3s 3p  1p 2s  J 3m 1m 2p 4m")
    hand = Hand.deal(1, SMALL, deck)
    hand.play(Choice("discard", parse_cards("4p 4s", SMALL.geometry), 0.0))
    assert hand.phase == Stage.DRAW and hand.cards == parse_cards("12m 13p 23s", SMALL.geometry)
    hand.play(Choice("bet", parse_cards("1p 3p", SMALL.geometry), 2.0))
    # the joker turned up is set aside, visibly, and the next card takes its place
    assert hand.turned_up[0] == SMALL.geometry.joker and SMALL.geometry.joker not in hand.community
    assert any("joker" in event for event in hand.events)
    assert hand.phase == DONE and hand.outcome.kind == "fa_hu_flush"  # 1m 1m + 2m 3m 4m with the community
    result = hand.result(chip_value=10)
    assert result["net"] == 1 + 1.5 * 2 and result["total_chips"] == 40
    assert result["bonus"]["text"] == "no bonus bet"


def test_the_rule_cards_ting_hu_check() -> None:
    """Rule card: T = 10, F = 20, G = 60 and a flush hu at step 14 win 120 chips; a bonus bet is settled."""
    deck = crafted_deck(SMALL, "1m 2m 4p 4s 3s 3p  1p 2s  3p 4p 2p 4m  1m 3m")
    hand = Hand.deal(1, SMALL, deck, bonus=1.0)
    hand.play(Choice("discard", parse_cards("4p 4s", SMALL.geometry), 0.0))
    hand.play(Choice("bet", parse_cards("1p 3p", SMALL.geometry), 2.0))
    assert hand.phase == Stage.TING
    hand.check(Choice("bet", (), 6.0))
    with pytest.raises(ValueError, match="one of 2, 4, 6"):
        hand.check(Choice("bet", (), 3.0))
    hand.play(Choice("bet", (), 6.0))
    assert hand.outcome.kind == "ting_hu_flush"
    result = hand.result(chip_value=10)
    assert result["net"] * 10 == 120
    assert result["bonus"]["settled"] and result["bonus"]["net"] == -1.0  # 234p 134m: no bonus combination
    assert result["total_chips"] == 110


def test_the_bonus_pushes_without_a_ting_bet() -> None:
    deck = crafted_deck(SMALL, "1m 2m 4p 4s 3s 3p  1p 2s  3p 4p 2p 4m  1m 3m")
    hand = Hand.deal(1, SMALL, deck, bonus=2.0)
    hand.play(Choice("discard", parse_cards("4p 4s", SMALL.geometry), 0.0))
    hand.play(Choice("bet", parse_cards("1p 3p", SMALL.geometry), 1.0))
    hand.play(Choice("fold"))
    result = hand.result()
    assert result["kind"] == "fold_ting" and result["net"] == -2.0
    assert not result["bonus"]["settled"] and result["bonus"]["net"] == 0.0 and "pushed" in result["bonus"]["text"]


def test_bonus_settlement_is_the_paytables() -> None:
    config = GameConfig()
    net, text = bonus_settlement(parse_cards("333888s", config.geometry), 1.0, config)
    assert net == 80 and "two triplets" in text  # docs/rules.md: 60 + 15 + 5


@pytest.mark.parametrize(("choice", "fragment"), [
    (Choice("fold"), "one of claim, discard"),
    (Choice("claim"), "forms no hu"),
    (Choice("discard", parse_cards("1m", SMALL.geometry)), "exactly two"),
    (Choice("discard", parse_cards("4s 4s", SMALL.geometry)), "holds 1 4s, fewer than thrown"),
    (Choice("discard", parse_cards("2m 2p", SMALL.geometry)), "^2p is not in the hand"),
    (Choice("discard", parse_cards("1m 2m", SMALL.geometry), 2.0), "one of 0, 1"),
])
def test_illegal_choices_are_refused(choice: Choice, fragment: str) -> None:
    hand = Hand.deal(1, SMALL, crafted_deck(SMALL, "1m 2m 4p 4s 3s 3p"))
    with pytest.raises(ValueError, match=fragment):
        hand.check(choice)


def test_a_seed_deals_the_same_deck() -> None:
    assert shuffled_deck(SMALL, "5/hands/0") == shuffled_deck(SMALL, "5/hands/0")
    assert shuffled_deck(SMALL, "5/hands/0") != shuffled_deck(SMALL, "5/hands/1")
    assert sorted(shuffled_deck(SMALL, "x")) == SMALL.geometry.cards()


def test_thresholds() -> None:
    thresholds = Thresholds()
    assert [thresholds.severity(c) for c in (0.0, 1e-13, 0.01, 0.05, 0.5)] == \
        ["exact", "exact", "minor", "major", "blunder"]
    assert Thresholds().with_values({"minor": "0.001"}).severity(0.01) == "major"
    for bad in ({"minor": 0.5}, {"exact": -1}, {"huge": 1}, {"major": "x"}):
        with pytest.raises(ValueError):
            Thresholds().with_values(bad)


# --- the API ----------------------------------------------------------------------------------------------


def test_info_and_page(server: TrainerServer) -> None:
    status, info = call(server, "GET", "/api/info")
    assert status == 200 and info["deck"]["cards"] == SMALL.geometry.size
    assert "mahjong-poker solve" in info["note"] and info["instant"] == {"deal": False, "draw": False, "ting": True}
    with urllib.request.urlopen(server.url, timeout=30) as response:
        page = response.read().decode()
    assert response.headers["Content-Type"].startswith("text/html")
    assert "<svg" in page or "tileSVG" in page
    assert "http://" not in page and "https://" not in page and "<link" not in page  # nothing fetched from outside


def test_the_same_seed_deals_the_same_hands_whatever_the_play(server: TrainerServer) -> None:
    first, second, other = new_session(server, seed=11), new_session(server, seed=11), new_session(server, seed=12)
    dealt = {s: [] for s in (first, second, other)}
    for _ in range(3):
        for session in dealt:
            hand = new_hand(server, session)
            dealt[session].append(hand["cards"])
            if session == first:  # one session plays on, the others leave each hand at once
                decide(server, session, hand, **playing_on(hand))
    assert dealt[first] == dealt[second] and dealt[first] != dealt[other]
    expected = Hand.deal(1, SMALL, shuffled_deck(SMALL, "11/hands/0")).cards
    assert dealt[first][0] == [SMALL.geometry.card_name(c) for c in expected]


def test_grades_equal_best_for_every_decision(server: TrainerServer, small_config_file: Path) -> None:
    """A few whole hands played to the end: every grade is best_play's answer for the state (same options,
    same EVs to 1e-12), and the command it names prints the same with --json."""
    session = new_session(server, seed=3)
    grades = []
    for _ in range(4):
        hand = new_hand(server, session, bonus=1)
        while hand["phase"] != DONE:
            status, answer = decide(server, session, hand, **playing_on(hand))
            assert status == 200, answer
            grades.append(answer["grade"])
            hand = answer["hand"]
        assert hand["result"]["total"] == hand["result"]["net"] + hand["result"]["bonus"]["net"]
    assert {g["stage"] for g in grades} == {"deal", "draw", "ting"}
    for grade in grades:
        state = grade["state"]
        play = best_play(" ".join(state["hand"]), SMALL, stage=grade["stage"], dead=" ".join(state["dead"]),
                         community=" ".join(state["community"]), double_down=state["double_down"],
                         fa_bet=state["fa_bet"])
        assert len(grade["options"]) == len(play.options)
        for shown in grade["options"]:
            option = play.options[shown["index"]]
            assert (shown["action"], shown["bet"]) == (option.action, option.bet)
            assert parse_cards(" ".join(shown["discard"]), SMALL.geometry) == option.discard
            assert abs(shown["ev"] - option.ev) <= 1e-12
        assert grade["best"]["index"] == play.best
        assert grade["cost"] == pytest.approx(play.options[play.best].ev - grade["choice"]["ev"], abs=1e-12)
    for grade in grades[:3]:  # the command shown answers the same through the command line
        words = shlex.split(grade["command"])[1:]
        out = io.StringIO()
        with redirect_stdout(out):
            assert main([*words, "--json"]) == 0
        printed = json.loads(out.getvalue())
        by_index = sorted(printed["options"], key=lambda o: o["index"])
        assert [o["ev"] for o in by_index] == pytest.approx(
            [o["ev"] for o in sorted(grade["options"], key=lambda o: o["index"])], abs=1e-12)
        assert printed["options"][printed["best"]]["index"] == grade["best"]["index"]


def test_score_cost_and_costliest(server: TrainerServer) -> None:
    session = new_session(server, seed=8, thresholds={"minor": 0.001, "major": 0.002})
    hand = new_hand(server, session)
    play = best_play(" ".join(hand["cards"]), SMALL)
    worst = min(range(len(play.options)), key=lambda i: play.options[i].ev)
    option = play.options[worst]
    body = {"action": option.action, "discard": [SMALL.geometry.card_name(c) for c in option.discard],
            "bet": option.bet}
    status, answer = decide(server, session, hand, **body)
    assert status == 200
    grade, score = answer["grade"], answer["score"]
    cost = play.options[play.best].ev - option.ev
    assert grade["cost"] == pytest.approx(cost, abs=1e-12) and grade["severity"] == "blunder" and not grade["right"]
    assert grade["options"][0]["index"] == play.best and grade["why"].startswith(("keep", "claim"))
    assert score["decisions"] == 1 and score["right"] == 0 and score["total_cost"] == pytest.approx(cost)
    assert score["cost_per_hand"] == pytest.approx(cost) and score["error_rate"] == pytest.approx(cost)
    assert score["costliest"][0]["hand"] == hand["hand"]
    # thresholds from the query string regrade without changing the session
    status, data = call(server, "GET", f"/api/sessions/{session}?minor=100&major=200")
    assert data["score"]["severity"]["minor"] == 1
    status, data = call(server, "GET", f"/api/sessions/{session}")
    assert data["score"]["severity"]["blunder"] == 1


def test_a_hint_shows_the_best_and_the_decision_is_not_scored(server: TrainerServer) -> None:
    session = new_session(server, seed=9)
    hand = new_hand(server, session)
    status, hint = call(server, "POST", f"/api/sessions/{session}/hands/{hand['hand']}/hint")
    play = best_play(" ".join(hand["cards"]), SMALL)
    assert status == 200 and hint["best"]["index"] == play.best and hint["best"]["ev"] == play.options[play.best].ev
    status, answer = decide(server, session, hand, **playing_on(hand))
    assert answer["grade"]["hinted"] and answer["score"]["decisions"] == 0 and answer["score"]["hinted"] == 1


def test_a_drill_brings_back_what_was_missed(server: TrainerServer) -> None:
    session = new_session(server, seed=4, mode="deal")
    missed = None
    for _ in range(6):  # a deal whose first option is a mistake
        hand = new_hand(server, session)
        play = best_play(" ".join(hand["cards"]), SMALL)
        wrong = next((o for o in play.options if play.options[play.best].ev - o.ev > 1e-9), None)
        if wrong is not None:
            body = {"action": wrong.action, "discard": [SMALL.geometry.card_name(c) for c in wrong.discard],
                    "bet": wrong.bet}
            assert decide(server, session, hand, **body)[0] == 200
            missed = hand
            break
    assert missed is not None
    _, data = call(server, "GET", f"/api/sessions/{session}")
    assert data["score"]["reviews"]["deal"] == 1
    later = [new_hand(server, session) for _ in range(3)]
    assert [h["review"] for h in later] == [False, False, True]
    assert later[-1]["cards"] == missed["cards"] and later[-1]["phase"] == "deal"
    best = best_play(" ".join(missed["cards"]), SMALL)
    option = best.options[best.best]
    status, answer = decide(server, session, later[-1], action=option.action, bet=option.bet,
                            discard=[SMALL.geometry.card_name(c) for c in option.discard])
    assert answer["grade"]["right"] and answer["grade"]["review"] and answer["hand"]["phase"] == DONE


@pytest.mark.parametrize("stage", ["draw", "ting"])
def test_drills_reach_their_decision_by_the_best_play(server: TrainerServer, stage: str) -> None:
    session = new_session(server, seed=2, mode=stage)
    hand = new_hand(server, session)
    assert hand["phase"] == stage and hand["mode"] == stage
    assert any(e.startswith("played for you at the deal") for e in hand["events"])
    status, answer = decide(server, session, hand, **playing_on(hand))
    assert status == 200 and answer["hand"]["phase"] == DONE and answer["grade"]["stage"] == stage


def _snapshot(server: TrainerServer, session: str, number: int) -> tuple[dict, dict]:
    return call(server, "GET", f"/api/sessions/{session}/hands/{number}")[1], call(server, "GET",
                                                                                   f"/api/sessions/{session}")[1]


def test_bad_input_gets_a_4xx_and_changes_nothing(server: TrainerServer) -> None:
    session = new_session(server, seed=6)
    hand = new_hand(server, session)
    path = f"/api/sessions/{session}/hands/{hand['hand']}/decisions"
    before = _snapshot(server, session, hand["hand"])
    cases = [
        (call(server, "POST", "/api/sessions/ffff/hands", {}), 404),
        (call(server, "GET", f"/api/sessions/{session}/hands/99"), 404),
        (call(server, "POST", f"/api/sessions/{session}/hands/99/decisions", {"stage": "deal", "action": "fold"}),
         404),
        (call(server, "POST", path, raw=b"{not json"), 400),
        (call(server, "POST", path, raw=b"[1, 2]"), 400),
        (call(server, "POST", path, {"stage": "deal", "action": "discard", "discard": ["4s", "4s", "4s"]}), 400),
        (call(server, "POST", path, {"stage": "deal", "action": "discard", "discard": ["9m", "1m"]}), 400),
        (call(server, "POST", path, {"stage": "deal", "action": "discard", "discard": hand["cards"][:2],
                                     "bet": 7}), 400),
        (call(server, "POST", path, {"stage": "deal", "action": "discard", "discard": "1m"}), 400),
        (call(server, "POST", path, {"stage": "deal", "action": "fold"}), 400),
        (call(server, "POST", path, {"stage": "deal", "action": "bet", "bet": True}), 400),
        (call(server, "POST", path, {"stage": "deal", "action": "claim", "typo": 1}), 400),
        (call(server, "POST", path, {"stage": "river", "action": "fold"}), 400),
        (call(server, "POST", path, {"stage": "ting", "action": "fold"}), 409),  # out of turn
        (call(server, "POST", path, {"action": "fold"}), 400),
        (call(server, "POST", "/api/sessions", {"seed": -1}), 400),
        (call(server, "POST", "/api/sessions", {"mode": "poker"}), 400),
        (call(server, "POST", "/api/sessions", {"thresholds": {"minor": 1, "major": 0.5}}), 400),
        (call(server, "POST", f"/api/sessions/{session}/hands", {"bonus": -1}), 400),
        (call(server, "GET", f"/api/sessions/{session}?minor=abc"), 400),
        (call(server, "GET", "/api/nothing"), 404),
        (call(server, "DELETE", f"/api/sessions/{session}"), 405),
        (call(server, "POST", path, raw=b" " * (70 * 1024)), 413),
    ]
    for (status, data), expected in cases:
        assert status == expected, data
        assert isinstance(data["error"], str) and data["error"]
    assert _snapshot(server, session, hand["hand"]) == before
    # a decision made, then replayed: 409, and the hand stays where the first left it
    status, answer = call(server, "POST", path, {"stage": "deal", **playing_on(hand)})
    assert status == 200
    after = _snapshot(server, session, hand["hand"])
    status, data = call(server, "POST", path, {"stage": "deal", **playing_on(hand)})
    assert status == 409 and "already made" in data["error"]
    assert _snapshot(server, session, hand["hand"]) == after
    # a hand left for a newer one takes no decision
    new_hand(server, session)
    status, data = call(server, "POST", path, {"stage": "draw", **playing_on(answer["hand"])})
    assert status == 409
    assert call(server, "GET", "/api/info")[0] == 200  # and the server lives on


def test_the_real_decks_deal_comes_from_the_committed_tables() -> None:
    """Right after installation: the real deck's deal decision is a lookup in the project's tables."""
    from solver.game.objective import Objective
    from solver.tables.files import tables_for

    config = GameConfig()
    tables = tables_for(config, Objective())
    if tables is None or not (tables / "firsts.parquet").exists():
        pytest.skip("no finished real-deck tables here")
    grader = Grader(config, tables)
    try:
        hand = Hand.deal(1, config, shuffled_deck(config, "1/hands/0"))
        state = hand.situation()
        play = grader.play(state)
        assert play.source == "tables" and grader.instant(Stage.DEAL)
        direct = best_play(hand.names(hand.cards), config, tables=tables)
        assert [(o.action, o.discard, o.bet) for o in play.options] == \
            [(o.action, o.discard, o.bet) for o in direct.options]
        assert all(abs(a.ev - b.ev) <= 1e-12 for a, b in zip(play.options, direct.options))
        assert grader.command(state).endswith(f"--tables {tables}")
    finally:
        grader.close()


def test_the_command_line(tmp_path: Path, capsys) -> None:
    assert main(["train", "--port", "70000"]) == 2
    assert main(["train", "--port", "0", "--tables", str(tmp_path / "none")]) == 2
    assert "no table directory" in capsys.readouterr().err


# --- the chart beside the grades --------------------------------------------------------------------------

ROOT = Path(__file__).parent.parent
REDUCED_TABLES = ROOT / "strategy_tables" / "reduced-3x4"
REDUCED_CONFIG = ROOT / "configs" / "reduced-3x4.toml"


@pytest.fixture(scope="module")
def chart_file(tmp_path_factory) -> Path:
    """A short chart of the reduced deck (20 lines), as ``mahjong-poker chart --json`` writes it."""
    from solver.products.chart_short import build_short_chart

    chart = build_short_chart(load_config(str(REDUCED_CONFIG)), str(REDUCED_TABLES), 20)
    path = tmp_path_factory.mktemp("chart") / "chart.json"
    path.write_text(json.dumps(chart.to_json()))
    return path


@pytest.fixture(scope="module")
def chart_server(chart_file: Path) -> Iterator[TrainerServer]:
    """A trainer on the reduced deck's committed tables with the chart, serving on a free port."""
    config = load_config(str(REDUCED_CONFIG))
    chart = trainer_chart(chart_file, REDUCED_TABLES, config.geometry)
    running = make_server(config, REDUCED_TABLES, port=0, seed=5, config_file=str(REDUCED_CONFIG), chart=chart)
    thread = threading.Thread(target=running.serve_forever, daemon=True)
    thread.start()
    yield running
    running.shutdown()
    running.server_close()


def test_the_chart_beside_each_grade_is_best_plays_price_of_its_play(chart_server: TrainerServer,
                                                                      chart_file: Path) -> None:
    """Whole hands of several seeds: each deal and draw grade's chart field is the chart's play (as
    ChartPlayer.advise gives it) priced by best_play on the same state; the score sums those."""
    config = chart_server.config
    player = load_chart(chart_file, config.geometry)
    grades = []
    for seed in (1, 2, 7):
        session, faced = new_session(chart_server, seed=seed), []
        for _ in range(4):  # seed 7's fourth deal: a line of two discards of different EVs
            hand = new_hand(chart_server, session)
            while hand["phase"] != DONE:
                status, answer = decide(chart_server, session, hand, **playing_on(hand))
                assert status == 200, answer
                grades.append(answer["grade"])
                faced += [answer["grade"]] if answer["grade"]["stage"] != "ting" else []
                hand = answer["hand"]
        score = answer["score"]["chart"]  # the chart against the player on this session's deals and draws
        assert score["lines"] == player.lines == 20 and score["decisions"] == len(faced)
        assert score["total_cost"] == pytest.approx(sum(g["chart"]["loss"] for g in faced if g["chart"]), abs=1e-12)
        assert score["player_cost"] == pytest.approx(sum(g["cost"] for g in faced), abs=1e-12)
    shown = [g for g in grades if g["chart"] is not None]
    assert all(g["chart"] is None for g in grades if g["stage"] == "ting")
    assert {g["stage"] for g in shown} == {"deal", "draw"}
    assert any(g["chart"]["agrees"] for g in shown) and not all(g["chart"]["agrees"] for g in shown)
    assert any(g["chart"]["ways"] > 1 and not g["chart"]["agrees"] for g in shown)  # priced at the mean
    for grade in shown:
        state = grade["state"]
        play = best_play(" ".join(state["hand"]), config, stage=grade["stage"], dead=" ".join(state["dead"]),
                         double_down=state["double_down"], tables=REDUCED_TABLES)
        hand, dead = (parse_cards(" ".join(state[k]), config.geometry) for k in ("hand", "dead"))
        advice = player.advise(grade["stage"], play.options, hand, config.geometry, dead)
        evs = [play.options[i].ev for i in advice.options]
        loss = play.options[play.best].ev - sum(evs) / len(evs)
        assert grade["chart"]["ev"] == pytest.approx(sum(evs) / len(evs), abs=1e-12)
        assert grade["chart"]["loss"] == pytest.approx(loss, abs=1e-12) and grade["chart"]["loss"] >= 0
        assert grade["chart"]["agrees"] == (loss <= 1e-12)
        assert grade["chart"]["line"] == advice.line and grade["chart"]["ways"] == len(advice.options)
        assert grade["chart"]["label"] == option_label(play.options[advice.options[0]], play.state.stage,
                                                       config.geometry)


def test_without_a_chart_the_field_is_null(server: TrainerServer, chart_file: Path, tmp_path: Path) -> None:
    session = new_session(server, seed=8)
    hand = new_hand(server, session)
    status, answer = decide(server, session, hand, **playing_on(hand))
    assert status == 200 and answer["grade"]["chart"] is None and answer["score"]["chart"] is None
    assert call(server, "GET", "/api/info")[1]["chart"] is None
    # the default: chart.json in the tables directory when there is one, else no chart
    assert trainer_chart(None, tmp_path, SMALL.geometry) is None and trainer_chart(None, None, SMALL.geometry) is None
    (tmp_path / "chart.json").write_text(chart_file.read_text())
    assert trainer_chart(None, tmp_path, SMALL.geometry).lines == 20


def test_a_bad_chart_exits_2_with_one_line(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "chart.json"
    bad.write_text('{"deal": {}}')
    for path in (bad, tmp_path / "missing.json"):
        assert main(["train", "--port", "0", "--config", str(REDUCED_CONFIG), "--tables", str(REDUCED_TABLES),
                     "--chart", str(path)]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and str(path) in err
    with pytest.raises(InputError, match="is not a chart"):  # a bad default is reported, not dropped
        trainer_chart(None, tmp_path, SMALL.geometry)
