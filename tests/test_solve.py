"""The full solve on mini decks: against the plain game tree, invariants, parallelism, resumption, refusal."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from fractions import Fraction
from math import comb
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from solver.cli import main
from solver.errors import InputError
from solver.game.config import GameConfig
from solver.game.symmetry import deal_classes
from solver.products.query import best_play
from solver.staged.run import load_summary, solve
from tests.plain_game import PlainGame

ONE_SUIT = GameConfig(suits=1, ranks=5, copies=3, jokers=1)  # 16 cards, 124 deal classes
ONE_SUIT_TOML = "[deck]\nsuits = 1\nranks = 5\ncopies = 3\njokers = 1\n"
TABLES = ("holds.parquet", "firsts.parquet", "deals.parquet", "draws.parquet", "outcomes.parquet", "summary.parquet",
          "tracking.parquet")


@pytest.fixture(scope="module")
def plain() -> PlainGame:
    return PlainGame(ONE_SUIT)


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("solve") / "one-suit"
    solve(ONE_SUIT, directory, n_jobs=1, quiet=True)
    return directory


def outcome_key(row) -> tuple:
    o = row.outcome
    return (o.kind, o.double_down, o.fa_bet, o.ting_bet)


def tables_equal(a: Path, b: Path) -> None:
    """Same rows, same columns, same values; file metadata may differ only in the creation date."""
    for name in TABLES:
        left, right = pq.read_table(a / name), pq.read_table(b / name)
        if name == "summary.parquet":
            left, right = left.drop_columns(["seconds"]), right.drop_columns(["seconds"])
        assert left.replace_schema_metadata(None).equals(right.replace_schema_metadata(None)), name
        meta = [json.loads(t.schema.metadata[b"mahjong_poker"]) for t in (left, right)]
        for m in meta:
            m.pop("created")
        assert meta[0] == meta[1]


def test_solve_agrees_with_the_plain_game_tree(solved: Path, plain: PlainGame) -> None:
    """Whole-game EV to 1e-12, and every outcome's probability exactly: the plain enumerator follows
    its own optimal strategy card combination by card combination."""
    summary = load_summary(solved, ONE_SUIT)
    assert summary.ev == pytest.approx(plain.game_ev(), abs=1e-12, rel=0)
    assert float(summary.ev_exact) == pytest.approx(plain.game_ev(), abs=1e-12, rel=0)
    assert {outcome_key(r): r.probability for r in summary.outcomes} == dict(plain.outcome_probabilities())


def test_bonus_objective_agrees_with_the_plain_game_tree(tmp_path: Path) -> None:
    summary = solve(ONE_SUIT, tmp_path / "bonus", bonus=5.0, n_jobs=1, quiet=True)
    plain = PlainGame(ONE_SUIT, bonus=5.0)
    assert summary.ev == pytest.approx(plain.game_ev(), abs=1e-12, rel=0)
    assert {outcome_key(r): r.probability for r in summary.outcomes} == dict(plain.outcome_probabilities())
    # Main-game EV of this strategy plus B times the bonus net per hand (pushes count 0) is the objective.
    assert float(summary.ev_exact) + 5.0 * summary.bonus_net_settled == pytest.approx(summary.ev, abs=1e-12)


def test_weights_and_return_table_invariants(solved: Path) -> None:
    deals = pq.read_table(solved / "deals.parquet")
    assert sum(deals["weight"].to_pylist()) == comb(ONE_SUIT.geometry.size, 6) == 8008
    assert deals.num_rows == len(deal_classes(ONE_SUIT.geometry)[0]) == 124
    summary = load_summary(solved, ONE_SUIT)
    assert sum((r.probability for r in summary.outcomes), Fraction(0)) == 1
    assert sum(r.contribution for r in summary.outcomes) == pytest.approx(summary.ev, abs=1e-12)
    assert summary.element_of_risk == pytest.approx(-summary.ev / float(summary.average_total_bet), abs=1e-12)
    assert summary.std_dev ** 2 == pytest.approx(
        sum(float(r.probability) * r.net**2 for r in summary.outcomes) - summary.ev**2, abs=1e-12)
    meta = json.loads(pq.read_schema(solved / "draws.parquet").metadata[b"mahjong_poker"])
    assert meta["fingerprint"] == ONE_SUIT.fingerprint() and "[deck]" in meta["config"] and meta["created"]


def same_options(found: list, expected: list) -> None:
    """The same options in the same order, EVs to 1e-12 (the tables' sums run in another order)."""
    def shape(options: list) -> list:
        return [(o.action, o.discard, o.bet, o.risk) for o in options]

    assert shape(found) == shape(expected)
    assert [o.ev for o in found] == pytest.approx([o.ev for o in expected], abs=1e-12, rel=0)


def test_tables_answer_queries_as_the_evaluator(solved: Path) -> None:
    """Every ninth deal class, and a post-draw state, through the tables (15 lookups) and from scratch."""
    g = ONE_SUIT.geometry
    from solver.game.cards import format_cards

    hands, _ = deal_classes(g)
    for hand in hands[::9]:
        text = format_cards(hand, g)
        from_tables = best_play(text, ONE_SUIT, tables=solved)
        direct = best_play(text, ONE_SUIT)
        assert from_tables.source == "tables" and direct.source == "evaluator"
        same_options(from_tables.options, direct.options)
        assert from_tables.best == direct.best
    draw = pq.read_table(solved / "draws.parquet").slice(3, 1).to_pylist()[0]
    dd = draw["double_down"]
    from_tables = best_play(draw["hand"], ONE_SUIT, dead=draw["dead"], double_down=dd, tables=solved)
    direct = best_play(draw["hand"], ONE_SUIT, dead=draw["dead"], double_down=dd)
    assert from_tables.source == "tables"
    same_options(from_tables.options, direct.options)
    # A relabelled hand (ranks reversed) maps onto the same class and gets the mapped answer.
    same_options(best_play("12345m J", ONE_SUIT, tables=solved).options, best_play("12345m J", ONE_SUIT).options)


@pytest.mark.parametrize("jobs, backend", [(2, "loky"), (2, "dask")])
def test_jobs_and_backends_give_identical_tables(solved: Path, tmp_path: Path, jobs: int, backend: str) -> None:
    scheduler = None
    cluster = None
    if backend == "dask":
        distributed = pytest.importorskip("distributed")
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=None)
        scheduler = cluster.scheduler_address
    try:
        solve(ONE_SUIT, tmp_path / "t", n_jobs=jobs, backend=backend, scheduler=scheduler, quiet=True)
    finally:
        if cluster is not None:
            cluster.close()
    tables_equal(solved, tmp_path / "t")


@pytest.mark.parametrize("stop_after", ["holds-00002", "draws-00000", "firsts-00003", "tracking-00000"])
def test_a_killed_solve_resumes_to_identical_tables(tmp_path: Path, stop_after: str, monkeypatch) -> None:
    """kill -9 once a given chunk file is written (in stage A, B, C or the tracking walk), with a
    half-written file left behind: the rerun gives the same tables as an uninterrupted solve. Both runs keep
    stages B and C's rows in a cache folder of their own (the other solve's rows would leave them no chunk
    to make), with the kernels compiled already."""
    from solver.runtime.jit import kernel_cache_folder

    config = "GameConfig(suits=2, ranks=4, copies=2, jokers=1)"
    whole = tmp_path / "whole"
    solve(GameConfig(suits=2, ranks=4, copies=2, jokers=1), whole, n_jobs=1, quiet=True)
    target = tmp_path / "killed"
    script = ("from solver.game.config import GameConfig; from solver.staged.run import solve; "
              f"solve({config}, {str(target)!r}, n_jobs=1, quiet=True)")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(Path(kernel_cache_folder()).parent))
    monkeypatch.setenv("MAHJONG_POKER_CACHE", str(tmp_path / "cache"))
    process = subprocess.Popen([sys.executable, "-c", script], cwd=Path(__file__).parent.parent)
    marker = target / "chunks" / f"{stop_after}.parquet"
    deadline = time.monotonic() + 120
    while not marker.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert marker.exists() and not (target / "summary.parquet").exists()
    (target / "chunks" / "holds-00001.parquet.tmp").write_bytes(b"half a file")  # as if killed mid-write
    solve(GameConfig(suits=2, ranks=4, copies=2, jokers=1), target, n_jobs=1, quiet=True)
    tables_equal(whole, target)
    assert not (target / "chunks").exists()


def test_a_directory_made_for_another_solve_is_refused(solved: Path, tmp_path: Path, capsys) -> None:
    config = tmp_path / "odd.toml"
    config.write_text(ONE_SUIT_TOML + "\n[payouts]\ntian_hu = 4.0\n")
    args = ["solve", "--config", str(config), "--out", str(solved), "--quiet"]
    assert main(args) == 2
    assert "fingerprint" in capsys.readouterr().err
    with pytest.raises(InputError, match="bonus"):
        solve(ONE_SUIT, solved, bonus=1.0, n_jobs=1, quiet=True)
    copy = tmp_path / "copy"
    copy.mkdir()
    (copy / "manifest.json").write_text((solved / "manifest.json").read_text())
    assert main(["solve", "--config", str(config), "--out", str(copy), "--quiet", "--force", "--jobs", "1"]) == 0
    assert "house edge" in capsys.readouterr().out
    assert list(tmp_path.glob("copy.replaced-*"))
    assert load_summary(copy, GameConfig(suits=1, ranks=5, copies=3, jokers=1, tian_hu=4.0)).deal_classes == 124


def test_cli_prints_the_summary_and_reuses_finished_tables(solved: Path, tmp_path: Path, capsys) -> None:
    config = tmp_path / "one.toml"
    config.write_text(ONE_SUIT_TOML)
    assert main(["solve", "--config", str(config), "--out", str(solved), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ev"] == load_summary(solved, ONE_SUIT).ev
    assert sum(o["probability"] for o in data["outcomes"]) == pytest.approx(1.0, abs=1e-12)
    assert main(["solve", "--config", str(config), "--out", str(solved), "--jobs", "0"]) == 2
    assert "--jobs" in capsys.readouterr().err


def assert_agrees_with_pinned_plain_game(summary, name: str) -> None:
    """The solve's EV and return table against the plain enumerator's figures pinned in tests/data/NAME
    (scripts/pin_plain_game.py): outcome by outcome exactly, and the exact EV where the pin has it."""
    pinned = json.loads((Path(__file__).parent / "data" / name).read_text())
    assert summary.ev == pytest.approx(pinned["game_ev"], abs=1e-12, rel=0)
    if "game_ev_exact" in pinned:
        assert summary.ev_exact == Fraction(pinned["game_ev_exact"])
    expected = {(o["kind"], o["double_down"], o["fa_bet"], o["ting_bet"]): Fraction(o["probability"])
                for o in pinned["outcomes"]}
    assert {outcome_key(r): r.probability for r in summary.outcomes} == expected


def test_two_suit_deck_agrees_with_the_pinned_plain_game_tree(two_suit_tables: Path) -> None:
    """A deck with non-flush hus and ting bets of two sizes: the plain enumerator's figures (187 s, so
    pinned in tests/data) against the solve, outcome by outcome, exactly."""
    summary = load_summary(two_suit_tables, GameConfig(suits=2, ranks=4, copies=2, jokers=1))
    assert_agrees_with_pinned_plain_game(summary, "two_suits_plain_game.json")


def test_two_deck_configuration_agrees_with_the_pinned_plain_game_tree(tmp_path: Path) -> None:
    """Two decks of a two-suit geometry: two copies of each card and two jokers, so hands see 0, 1 or 2
    jokers before the community (three outcome denominators). Exact against the plain enumerator's
    figures (400 s, pinned), and the simulator agrees with the exact EV."""
    from solver.products.simulate import simulate

    config = GameConfig(decks=2, suits=2, ranks=4, copies=1, jokers=1)
    summary = solve(config, tmp_path / "two-decks", n_jobs=2, quiet=True)
    assert_agrees_with_pinned_plain_game(summary, "two_decks_plain_game.json")
    assert simulate(config, tmp_path / "two-decks", 100_000, seed=5, n_jobs=2).agrees


THREE_DECKS = {
    # three jokers (a hand can hold all three) and two suits: 21 cards, the plain tree 561 s
    "three_decks_plain_game.json": GameConfig(decks=3, suits=2, ranks=3, copies=1, jokers=1),
    # nine copies of each card and three jokers in one suit: 39 cards
    "three_decks_one_suit_plain_game.json": GameConfig(decks=3, suits=1, ranks=4, copies=3, jokers=1),
}


@pytest.mark.parametrize("name", sorted(THREE_DECKS))
def test_three_deck_configurations_agree_with_the_pinned_plain_game_tree(name: str, tmp_path: Path) -> None:
    """Three decks reach states one and two never do (three jokers in a hand, nine copies of a card): the
    exact EV fraction and every outcome's probability against the plain enumerator's (issue 55)."""
    summary = solve(THREE_DECKS[name], tmp_path / "three-decks", n_jobs=1, quiet=True)
    assert_agrees_with_pinned_plain_game(summary, name)


def test_bets_that_are_not_short_decimals_survive_the_tables(tmp_path: Path) -> None:
    """F = 0.7 makes G = 3 F = 2.0999999999999996: outcomes are stored by their numbers, not by
    rounded labels, so the reloaded return table and exact EV are the solved ones."""
    config = GameConfig(suits=1, ranks=5, copies=3, jokers=1, fa_hu_bets=(0.7,), ting_hu_multiples=(1.0, 3.0))
    summary = solve(config, tmp_path / "odd-bets", n_jobs=1, quiet=True)
    again = load_summary(tmp_path / "odd-bets", config)
    assert again.outcomes == summary.outcomes and again.ev_exact == summary.ev_exact
    assert float(summary.ev_exact) == pytest.approx(summary.ev, abs=1e-12)


def test_chunks_of_another_solve_are_redone(solved: Path, tmp_path: Path, monkeypatch) -> None:
    """A chunk file that belongs to another configuration (copied in by mistake) is not reused (neither solve
    keeps or reads stages B and C's rows in the store, so that both make their chunks)."""
    import solver.staged.run

    other = tmp_path / "other"
    monkeypatch.setattr(solver.staged.run, "_drop_chunks", lambda directory: None)  # keep the other solve's chunks
    solve(GameConfig(suits=1, ranks=5, copies=3, jokers=1, tian_hu=4.0), other, n_jobs=1, quiet=True, keep_rows=False)
    monkeypatch.undo()
    mixed = tmp_path / "mixed"
    (mixed / "chunks").mkdir(parents=True)
    (mixed / "manifest.json").write_text((solved / "manifest.json").read_text())
    for name in ("holds-00000.parquet", "draws-00000.parquet", "firsts-00000.parquet"):
        (mixed / "chunks" / name).write_bytes((other / "chunks" / name).read_bytes())
    solve(ONE_SUIT, mixed, n_jobs=1, quiet=True, keep_rows=False)
    tables_equal(solved, mixed)


def test_a_restricted_strategy_reads_stage_a_from_the_main_solve(solved: Path, tmp_path: Path) -> None:
    """Restrictions change only the later stages: reading the main solve's stage A gives the tables and
    figures of a restricted solve made from scratch."""
    for restriction in ("minimum-bets", "no-double-down"):
        alone = solve(ONE_SUIT, tmp_path / f"{restriction}-alone", restriction=restriction, n_jobs=1, quiet=True)
        shared = solve(ONE_SUIT, tmp_path / restriction, restriction=restriction, n_jobs=1, quiet=True,
                       holds_from=solved)
        assert shared.ev_exact == alone.ev_exact and shared.outcomes == alone.outcomes
        assert not (tmp_path / restriction / "holds.parquet").exists()
    with pytest.raises(InputError, match="another solve"):
        solve(ONE_SUIT, tmp_path / "bonus", bonus=1.0, restriction="minimum-bets", holds_from=solved, quiet=True)


def test_a_later_solve_of_the_same_walk_reads_the_outcome_counts_it_shares(solved: Path, tmp_path: Path) -> None:
    """A solve reading another's stage A reads the outcome counts of the (hold, dead, F) both reach from
    that one's tracking table instead of walking them again: a doctored table shows through (so the
    figures equal to a solve from scratch above are read, not walked), and its own table lists every
    triple it reaches."""
    import shutil

    import pyarrow as pa

    source = tmp_path / "source"
    shutil.copytree(solved, source)
    tracking = pq.read_table(source / "tracking.parquet")
    width = tracking.schema.field("sums").type.list_size
    sums = tracking["sums"].combine_chunks().flatten().to_numpy().reshape(-1, width).copy()
    sums[:, [0, 1]] = sums[:, [1, 0]]  # step-11 hus counted as flush hus and back: the total unchanged
    doctored = pa.FixedSizeListArray.from_arrays(sums.ravel(), width)
    pq.write_table(tracking.set_column(tracking.column_names.index("sums"), "sums", doctored),
                   source / "tracking.parquet")
    alone = solve(ONE_SUIT, tmp_path / "alone", restriction="no-double-down", n_jobs=1, quiet=True)
    shared = solve(ONE_SUIT, tmp_path / "shared", restriction="no-double-down", n_jobs=1, quiet=True,
                   holds_from=source)
    assert shared.outcomes != alone.outcomes
    own = pq.read_table(tmp_path / "alone" / "tracking.parquet", columns=["key", "bet", "minimum"])
    assert own.equals(pq.read_table(tmp_path / "shared" / "tracking.parquet", columns=["key", "bet", "minimum"]))
    assert len(own) > 0


def test_stages_b_and_c_read_their_rows_from_the_column_store(solved: Path, tmp_path: Path) -> None:
    """A solve with the column store keeps stages B and C's rows (which stage-A row each hold of a
    post-draw class reads, which stage-B row each draw of a first hold reads) there; the next solve of
    the deck gathers its values from them: a doctored array shows through (so they are read, not looked
    up again), a damaged one or one that does not fit is made again, and the tables are a plain solve's."""
    import numpy as np

    from solver.staged.column_store import ROW_ARRAYS, store_folder

    store = store_folder(ONE_SUIT, tmp_path / "cache")
    solve(ONE_SUIT, tmp_path / "first", n_jobs=1, quiet=True, column_store=tmp_path / "cache")
    tables_equal(solved, tmp_path / "first")
    files = {f"{stage}-{name}.npy" for stage, names in ROW_ARRAYS.items() for name in names}
    assert files <= {path.name for path in store.iterdir()}
    level = np.load(store / "draws-level.npy")
    assert level.any()
    np.save(store / "draws-level.npy", np.zeros_like(level))  # no di-hu to claim: the strategy changes
    doctored = solve(ONE_SUIT, tmp_path / "doctored", n_jobs=1, quiet=True, column_store=tmp_path / "cache")
    assert doctored.ev_exact != load_summary(solved, ONE_SUIT).ev_exact
    (store / "draws-level.npy").write_bytes(b"not an array")
    (store / "firsts-rows.npy").write_bytes((store / "firsts-rows.npy").read_bytes()[:200])
    solve(ONE_SUIT, tmp_path / "again", n_jobs=1, quiet=True, column_store=tmp_path / "cache")
    tables_equal(solved, tmp_path / "again")
    assert (np.load(store / "draws-level.npy") == level).all()
    solve(ONE_SUIT, tmp_path / "read", n_jobs=1, quiet=True, column_store=tmp_path / "cache")
    tables_equal(solved, tmp_path / "read")
    # rows that do not fit (past the end of the stage they index, one row short: another deck's) are made again,
    # rather than read out of bounds
    rows, firsts = np.load(store / "draws-rows.npy"), np.load(store / "firsts-rows.npy")
    np.save(store / "draws-rows.npy", rows + rows.max() + 1)
    np.save(store / "firsts-rows.npy", firsts[1:])
    solve(ONE_SUIT, tmp_path / "refit", n_jobs=1, quiet=True, column_store=tmp_path / "cache")
    tables_equal(solved, tmp_path / "refit")
    assert np.array_equal(np.load(store / "draws-rows.npy"), rows)
    assert np.array_equal(np.load(store / "firsts-rows.npy"), firsts)


def test_a_plain_solve_keeps_its_rows_for_the_next_solve_of_the_deck(solved: Path, tmp_path: Path,
                                                                    monkeypatch) -> None:
    """A solve without a column store keeps stages B and C's rows in the cache folder's store of its deck too
    (the same arrays a store solve keeps), where the next solve of the deck reads them (a doctored array
    shows through) and a paytable variant's store finds them."""
    import numpy as np

    from solver.staged.column_store import ROW_ARRAYS, store_folder

    monkeypatch.setenv("MAHJONG_POKER_CACHE", str(tmp_path / "cache"))
    solve(ONE_SUIT, tmp_path / "plain", n_jobs=1, quiet=True)
    solve(ONE_SUIT, tmp_path / "stored", n_jobs=1, quiet=True, column_store=tmp_path / "own")
    tables_equal(solved, tmp_path / "plain")
    kept, own = store_folder(ONE_SUIT), store_folder(ONE_SUIT, tmp_path / "own")
    assert kept.parent == tmp_path / "cache"
    for stage, names in ROW_ARRAYS.items():
        for name in names:
            assert np.array_equal(np.load(kept / f"{stage}-{name}.npy"), np.load(own / f"{stage}-{name}.npy"))
    level = np.load(kept / "draws-level.npy")
    np.save(kept / "draws-level.npy", np.zeros_like(level))  # no di-hu to claim: the strategy changes
    doctored = solve(ONE_SUIT, tmp_path / "doctored", n_jobs=1, quiet=True)
    assert doctored.ev_exact != load_summary(solved, ONE_SUIT).ev_exact
    assert not (tmp_path / "plain" / "chunks").exists()  # the rows' files went with the chunks


def test_stage_b_rows_that_miss_a_hold_are_not_for_the_store(tmp_path: Path) -> None:
    """Stage B's rows go to the store only when every hold of every post-draw class found its stage-A row: rows
    found over a partial stage A would mislead every later solve of the deck."""
    import numpy as np

    from solver.staged.run import _every_hold_found

    n_holds = np.array([2, 1, 3], np.int8)
    rows = np.array([[0, 1, -1], [2, -1, -1], [3, 4, 5]], np.int32)
    files = [tmp_path / "a.npy", tmp_path / "b.npy"]  # the rows of two chunks

    def chunks(rows: np.ndarray, at: int) -> list[Path]:
        np.save(files[0], rows[:at])
        np.save(files[1], rows[at:])
        return files

    assert _every_hold_found(chunks(rows, 1), n_holds) and _every_hold_found(chunks(rows, 2), n_holds)
    assert not _every_hold_found(chunks(rows[:2], 1), n_holds)  # a chunk short
    rows[2, 1] = -1
    assert not _every_hold_found(chunks(rows, 1), n_holds) and not _every_hold_found(chunks(rows, 2), n_holds)


