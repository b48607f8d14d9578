"""The table of 1 to 6 seats on one deck (solver.products.table): one seat is the lone simulator hand for
hand, shown cards are dead to the other seats' ting decisions, the bonus pushes only when every seat is out,
and bad input is refused."""

from __future__ import annotations

import json
from itertools import combinations_with_replacement
from pathlib import Path

import numpy as np
import pytest

from solver.cli import main
from solver.errors import InputError
from solver.game.bonus import payout_by_mask
from solver.game.cards import parse_cards
from solver.game.config import GameConfig, load_config
from solver.products.query import best_play
from solver.products.simulate import _batch, _level, _workspace, load_strategy, simulate
from solver.products.table import (
    AWARE_CHANGED,
    AWARE_SETTLED,
    BONUS_SUM,
    SETTLED,
    _aware_choice,
    _seats_state,
    _table_batch,
    _ting_choices,
    max_seats,
    simulate_table,
)

ROOT = Path(__file__).resolve().parent.parent
REDUCED = load_config(ROOT / "configs" / "reduced-3x4.toml")
REDUCED_TABLES = ROOT / "strategy_tables" / "reduced-3x4"
REAL = GameConfig()


def test_one_seat_plays_the_lone_simulators_hands() -> None:
    """Hand for hand: after every prefix of a batch, one seat's outcome counts equal ``simulate``'s (so each
    hand ended the same), and a whole run of several batches gives the same counts and mean."""
    strategy = load_strategy(REDUCED_TABLES, REDUCED)
    for k in range(1, 81):
        lone = _batch(5, 2, k, REDUCED, strategy)
        table, _, trace = _table_batch(5, 2, k, 1, REDUCED, strategy, traced=k)
        assert (lone == table).all(), k
    assert trace.shape == (80, 5)
    one = simulate(REDUCED, REDUCED_TABLES, 45_000, seed=3, n_jobs=2)
    seat = simulate_table(REDUCED, REDUCED_TABLES, 1, 45_000, seed=3, n_jobs=1)
    assert seat.counts == one.counts and seat.ev[0] == pytest.approx(one.mean, abs=1e-12)
    figures = seat.to_json()
    assert figures["shown_cards_value"] == 0.0 and figures["ting_decisions_changed_share"] == 0.0
    assert figures["bonus_settled_share"] == figures["ting_bet_share"]  # alone: settled iff he bets the ting


def _counts(text: str) -> np.ndarray:
    return np.bincount(np.array(parse_cards(text, REAL.geometry), np.int64), minlength=REAL.geometry.n_types)


def _pays(config: GameConfig) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return (np.array(config.fa_hu_bets, np.float64), np.array(config.ting_hu_multiples, np.float64),
            np.array([config.ting_hu_ante, config.ting_hu_fa, config.ting_hu, config.ting_hu_flush], np.float64))


def _two_seats(seated: list[tuple[str, str]], community: str):
    """A two-seat table at step 12 on the real deck, both seats in with F = fa_hu_bets[0]: each seat's
    (hold, discards) in ``seated``. Returns (pays, the full counts, the ting workspace, the seats, the board)."""
    g = REAL.geometry
    pays = _pays(REAL)
    cards, _, ting = _workspace(np.repeat(np.arange(g.n_types), g.full_counts()), g.suits, g.ranks, len(pays[1]))
    seats = _seats_state(2, g.n_types)
    hand, held, seen, _, _ = seats[0]
    comm = _counts(community)
    for s, (h, d) in enumerate(seated):
        held[s] = _counts(h)
        hand[s] = held[s] + comm
        seen[s] = held[s] + _counts(d)
    seats[1][1][:] = 1
    return pays, cards[0], ting, seats, comm


def _table_ting(hold: str, dead: str, community: str, other: str) -> tuple[int, int]:
    """Seat 1's ting choice at a two-seat table (F = 1) where seat 2 shows ``other``: (with it, without)."""
    g = REAL.geometry
    pays, full, ting, seats, comm = _two_seats([(hold, dead), (other, "5p 6p 7p 8p")], community)
    held = seats[0][1]
    g_table, g_lone = np.zeros(2, np.int64), np.zeros(2, np.int64)
    _ting_choices(2, comm, g.suits, g.ranks, pays, full, np.zeros(g.n_types, np.int64), ting, seats,
                  held[0] + held[1], g_table, g_lone)
    return int(g_table[0]), int(g_lone[0])


def _reference_ting(hold: str, seen_text: str, community: str) -> int:
    """The ting rule of docs/rules.md by brute force: every two-card completion out of the cards not in
    ``seen_text``, tested one by one with the hu test; the best option (ties to less money at risk)."""
    g = REAL.geometry
    held, comm, seen = _counts(hold), _counts(community), _counts(seen_text)
    unseen = g.full_counts() - seen
    wins = [0, 0, 0]
    for t1, t2 in combinations_with_replacement(range(g.n_suited), 2):
        w = unseen[t1] * (unseen[t1] - 1) // 2 if t1 == t2 else unseen[t1] * unseen[t2]
        if w > 0:
            counts = held + comm
            counts[t1] += 1
            counts[t2] += 1
            wins[_level(counts, held, True, g.suits, g.ranks)] += w
    total, f = sum(wins), REAL.fa_hu_bets[0]
    evs = [-1.0 - f]
    for m in REAL.ting_hu_multiples:
        gain = REAL.ting_hu_ante + f * REAL.ting_hu_fa
        evs.append((wins[1] * (gain + m * f * REAL.ting_hu) + wins[2] * (gain + m * f * REAL.ting_hu_flush)
                    - wins[0] * (1.0 + f + m * f)) / total)
    return next(i for i, ev in enumerate(evs) if ev >= max(evs) - 1e-12)


def test_shown_cards_are_dead_to_the_ting_decision() -> None:
    """Seat 1 holds 3m 5m 1p 7p with 2m 1p 4s 9s on the board: 1m (2m-3m run, 1p pair) and 4m are its
    one-card outs, and alone it bets G = F (as ``best`` says). When seat 2 shows a 1m, or all three, the
    seat counts them as gone and folds; when seat 2 shows none of its outs, it still bets. Each table
    decision is the brute-force rule on the cards the seat has seen, the shown ones among them, and what
    ``best`` says given them after the seat's discards (``--dead``)."""
    hold, dead, community = "35m 17p", "4m 4s 5s 8s", "2m 1p 4s 9s"
    alone = best_play(hold, REAL, dead=dead, community=community, fa_bet=REAL.fa_hu_bets[0])
    assert alone.options[alone.best].action == "bet" and alone.best == 1
    for other, expected in [("1m 9m 2s 8s", 0), ("111m 2s", 0), ("9m 2s 7s 8s", 1)]:
        with_shown, lone = _table_ting(hold, dead, community, other)
        assert lone == alone.best
        assert with_shown == expected == _reference_ting(hold, f"{hold} {dead} {community} {other}", community)
        # best takes what other seats showed after the seat's own discards: the same decision
        told = best_play(hold, REAL, dead=f"{dead} {other}", community=community, fa_bet=REAL.fa_hu_bets[0])
        assert told.best == expected
        shown = best_play(hold, REAL, dead=dead, community=community, fa_bet=REAL.fa_hu_bets[0], shown=other)
        assert (shown.best, shown.best_unshown) == (expected, alone.best)
        assert [o.ev for o in shown.options] == [o.ev for o in told.options]


def test_best_says_what_a_claimers_cards_change_at_the_draw(capsys) -> None:
    """After a first draw to 11m 23p 57s (4m 4s thrown) a seat alone keeps the pair and the 2p-3p run; when
    another seat has claimed a hu showing 111p 234s, every 1p is gone and the run has half its outs: the
    evaluator, told the shown cards, keeps 57s instead, and ``best`` says what ignoring them costs."""
    code = main(["best", "11m 23p 57s", "--dead", "4m 4s", "--shown", "111p 234s"])
    out = capsys.readouterr().out
    assert code == 0
    assert "best: bet F = 1, discard 23p, EV -0.535767" in out
    assert ("the shown cards change the best play: a player who ignored them would bet F = 1, discard 57s "
            "(EV -0.779398 given them), 0.243631 worse") in out
    alone = best_play("11m 23p 57s", REAL, dead="4m 4s")
    assert alone.options[alone.best].discard == parse_cards("57s", REAL.geometry)
    assert main(["best", "11m 23p 57s", "--dead", "4m 4s", "--shown", "111p 234s", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)  # options best first: the choice without them, by its place there
    ignored = data["options"][data["best_without_shown"]]
    assert (data["shown"], ignored["discard"], ignored["ev"]) == (["1p", "1p", "1p", "2s", "3s", "4s"], ["5s", "7s"],
                                                                  pytest.approx(-0.779398, abs=1e-6))
    assert data["options"][0]["discard"] == ["2p", "3p"]


def _aware_ting(hold: str, dead: str, community: str, other: str, other_bets: int, bonus_bet: float,
                hidden: str = "") -> tuple[int, list[float]]:
    """The bonus-aware seat 2's ting at a two-seat table (F = 1) where seat 1 shows ``other`` and bets
    ``other_bets``, and seat 2's main-game choice is the table's: (its choice, ``aware`` as the kernel
    leaves it). The stub holds every card but these and the ``hidden`` ones (seat 1's discards, say)."""
    g = REAL.geometry
    pays, full, ting, seats, comm = _two_seats([(other, "5p 6p 7p 8p"), (hold, dead)], community)
    held = seats[0][1]
    g_table, table_seen = np.zeros(2, np.int64), np.zeros(g.n_types, np.int64)
    everywhere = _ting_choices(2, comm, g.suits, g.ranks, pays, full, table_seen, ting, seats, held[0] + held[1],
                               g_table, np.zeros(2, np.int64))
    main = best_play(hold, REAL, dead=f"{dead} {other}", community=community, fa_bet=REAL.fa_hu_bets[0]).best
    assert g_table[1] == main  # the table's main-game choice, as best gives it
    g_table[0] = other_bets
    aware = np.zeros(4)
    stub = np.repeat(np.arange(g.n_types), full - _counts(f"{hold} {dead} {community} {other} {hidden}"))
    _aware_choice(2, comm, g.suits, g.ranks, pays, full, table_seen, ting, seats, everywhere, g_table,
                  (payout_by_mask(REAL), bonus_bet), aware, np.zeros(g.n_types, np.int64), (stub, 0))
    return int(g_table[1]), list(aware)


def test_the_bonus_aware_seat_decides_as_best_with_a_bonus_bet() -> None:
    """The last seat, bonus-aware: when no other seat bet the ting, its choice is ``best --bonus B`` on
    everything it has seen (the shown cards dead), and the change it makes in its main game's and in a unit
    bonus's expected net are the evaluator's; when another seat bet, the bonus is settled whatever it does,
    and it plays the main game. 1m 9m 1s 9s has no pair to build on: the main game folds on a board of
    7m 7m 3p 4s, whose pair of 7m promises the bonus's triplet (30 to 1). The bonus of a bet of 1 does not
    pay for the ting; one of 5 or 50 does."""
    hold, dead, community, other = "19m 19s", "5m 5s 2p 8p", "7m 7m 3p 4s", "2p 4p 6s 8s"
    f = REAL.fa_hu_bets[0]
    main = best_play(hold, REAL, dead=f"{dead} {other}", community=community, fa_bet=f)
    assert main.options[main.best].action == "fold"
    for bonus_bet in (1.0, 5.0, 50.0):
        told = best_play(hold, REAL, dead=f"{dead} {other}", community=community, fa_bet=f, bonus=bonus_bet)
        main_choice, aware = _aware_ting(hold, dead, community, other, 0, bonus_bet)
        assert main_choice == main.best and aware[0] == told.best
        expected_main = main.options[told.best].ev - main.options[main.best].ev
        unit = (told.options[1].ev - main.options[1].ev) / bonus_bet  # the settled bonus's expected net
        assert aware[1] == pytest.approx(expected_main, abs=1e-12)
        assert aware[2] == pytest.approx((1.0 if told.best > 0 else 0.0) * unit, abs=1e-12)
        assert aware[3] == (1.0 if told.best > 0 else 0.0)
    assert _aware_ting(hold, dead, community, other, 0, 1.0)[1][0] == 0
    assert _aware_ting(hold, dead, community, other, 0, 5.0)[1][0] > 0  # a bigger bonus keeps the hand alive
    main_choice, aware = _aware_ting(hold, dead, community, other, 1, 50.0)  # seat 1 bet: settled anyway
    assert aware == [main_choice, 0.0, 0.0, 1.0]


def test_the_aware_seats_change_is_expected_over_the_real_stub() -> None:
    """The aware seat decides on what it has seen, but the change its choice makes is the expectation over
    the last two cards as they will come: from the stub, without the cards other seats hold hidden (seat 1's
    four discards here). That is ``best`` told the hidden cards too, while the choice is still ``best``'s on
    the seat's own view."""
    hold, dead, community, other, hidden = "19m 19s", "5m 5s 2p 8p", "7m 7m 3p 4s", "2p 4p 6s 8s", "7m 6p 7p 8p"
    f = REAL.fa_hu_bets[0]
    view = best_play(hold, REAL, dead=dead, community=community, fa_bet=f, bonus=5.0, shown=other)
    main = best_play(hold, REAL, dead=dead, community=community, fa_bet=f, shown=f"{other} {hidden}")
    told = best_play(hold, REAL, dead=dead, community=community, fa_bet=f, bonus=5.0, shown=f"{other} {hidden}")
    main_choice, aware = _aware_ting(hold, dead, community, other, 0, 5.0, hidden)
    assert aware[0] == view.best == 1 and main_choice == 0
    unit = (told.options[1].ev - main.options[1].ev) / 5.0  # the bonus over the real stub: the last 7m is gone
    assert aware[1] == pytest.approx(main.options[1].ev - main.options[0].ev, abs=1e-12)
    assert aware[2] == pytest.approx(unit, abs=1e-12)
    assert unit < (view.options[1].ev - best_play(hold, REAL, dead=dead, community=community, fa_bet=f,
                                                  shown=other).options[1].ev) / 5.0


def test_the_bonus_aware_seat_settles_only_when_no_one_else_bets() -> None:
    """Two seats on the reduced deck, every hand traced: the aware seat's bonus is settled iff seat 1 or the
    aware seat (its own choice) bets the ting, and its choice differs from the main game's only where seat 1
    did not bet."""
    strategy = load_strategy(REDUCED_TABLES, REDUCED)
    hands = 4000
    _, sums, trace = _table_batch(9, 0, hands, 2, REDUCED, strategy, traced=hands, aware_bet=20.0)
    g_choice, g_aware, settled_aware = trace[:, 3:5], trace[:, 5], trace[:, 6]
    assert (((g_choice[:, 0] > 0) | (g_aware > 0)) == (settled_aware == 1)).all()
    changed = g_aware != g_choice[:, 1]
    assert changed.sum() > 10 and (g_choice[changed, 0] == 0).all()
    assert sums[AWARE_SETTLED] == settled_aware.sum() and sums[AWARE_CHANGED] == changed.sum()


def test_bonus_settles_iff_some_seat_bets_the_ting() -> None:
    """Two seats on the reduced deck, every hand traced: the bonus is settled exactly when some seat bets
    the ting; the deals include hands where every seat is out (the bonus pushes) and hands where seat 1
    is out and seat 2 bets (seat 1's bonus is settled all the same)."""
    strategy = load_strategy(REDUCED_TABLES, REDUCED)
    hands = 4000
    _, sums, trace = _table_batch(9, 0, hands, 2, REDUCED, strategy, traced=hands)
    settled, g_choice = trace[:, 0], trace[:, 3:5]
    assert ((g_choice > 0).any(axis=1) == (settled == 1)).all()
    assert ((g_choice == 0).all(axis=1)).sum() > 100  # every seat out: pushes
    assert ((g_choice[:, 0] == 0) & (g_choice[:, 1] > 0)).sum() > 100  # seat 1 out, seat 2 bets: settled
    assert sums[SETTLED] == settled.sum()
    n_g = len(REDUCED.ting_hu_multiples) + 1
    assert ((trace[:, 1:3] % n_g) == g_choice).all()  # each outcome carries the seat's own ting choice
    assert sums[BONUS_SUM] != 0.0


def test_table_cli_and_bad_input(tmp_path: Path, capsys) -> None:
    args = ["simulate", "--config", str(ROOT / "configs" / "reduced-3x4.toml"), "--tables", str(REDUCED_TABLES),
            "--hands", "3000", "--jobs", "1"]
    assert main(args + ["--seats", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seats"] == 2 and data["seat_hands"] == 6000 and len(data["ranges"]) == 3
    assert sum(o["count"] for o in data["outcomes"]) == 6000
    assert main(args + ["--seats", "2"]) == 0
    assert "value of the cards shown" in capsys.readouterr().out
    assert max_seats(REDUCED) == 2 and max_seats(REAL) == 6
    for seats in ("0", "7", "3"):
        assert main(args + ["--seats", seats]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "seats" in err, err
    with pytest.raises(InputError, match="at most 2 seats"):
        simulate_table(REDUCED, REDUCED_TABLES, 3, 100)
