"""The command line: every command has help, JSON output follows its schema, bad input exits 2."""

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from solver.cli import COMMANDS, main


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "solver.cli", *args], capture_output=True, text=True)


def test_help_for_every_command() -> None:
    assert "usage: mahjong-poker" in run("--help").stdout
    for name in COMMANDS:
        result = run(name, "--help")
        assert result.returncode == 0 and f"mahjong-poker {name}" in result.stdout


def test_deal_stats_json(capsys) -> None:
    assert main(["deal-stats", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    counts = {"cards", "jokers", "total_deals", "tian_hu", "flush_tian_hu"}
    assert set(data) == counts | {"tian_hu_probability", "flush_tian_hu_probability"}
    assert data["total_deals"] == 350161812 and data["cards"] == 82  # C(82, 6)
    assert all(isinstance(data[k], int) for k in counts)
    assert data["tian_hu_probability"] == data["tian_hu"] / data["total_deals"]


def test_bonus_json_and_table(capsys) -> None:
    assert main(["bonus", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"total_combinations", "rows", "house_edge", "paytables"} and data["paytables"] == []
    assert sum(r["combinations"] for r in data["rows"]) == data["total_combinations"]
    assert set(data["rows"][0]) == {"combination", "pays", "combinations", "probability", "return"}
    assert data["house_edge"] == pytest.approx(-sum(r["return"] for r in data["rows"]), abs=1e-15)
    assert main(["bonus"]) == 0
    out = capsys.readouterr().out
    assert "straight flush" in out and "house edge" in out


def test_target_lists_may_be_negative_but_not_have_gaps(capsys) -> None:
    """`--targets -0.1,-0.2` is a list of house edges, not an option; an empty item is refused."""
    assert main(["bonus", "--targets", "-0.1,-0.2", "--json"]) == 0
    assert {p["target"] for p in json.loads(capsys.readouterr().out)["paytables"]} == {-0.1, -0.2}
    assert main(["bonus", "--targets", "0.02,,0.05"]) == 2
    assert "'0.02,,0.05'" in capsys.readouterr().err


@pytest.mark.parametrize("command, spellings, dest", [
    ("bonus", ("--targets", "--target"), "targets"), ("paytable", ("--target", "--targets"), "target"),
    ("edge", ("--hands", "--table-hands"), "hands"), ("chart", ("--table-hands", "--hands"), "table_hands")])
def test_an_option_two_commands_spell_differently_takes_either_spelling(command: str, spellings: tuple[str, str],
                                                                        dest: str) -> None:
    """bonus --targets and paytable --target, edge --hands and chart --table-hands: each command takes the
    other's spelling too, for the same value."""
    from solver.cli import build_parser

    parsed = [vars(build_parser().parse_args([command, spelling, "1000" if "hands" in dest else "0.02"]))[dest]
              for spelling in spellings]
    assert parsed[0] == parsed[1] and parsed[0] is not None


def test_two_deck_config(tmp_path, capsys) -> None:
    path = tmp_path / "two.toml"
    path.write_text("[deck]\ndecks = 2\n")
    assert main(["deal-stats", "--json", "--config", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["total_deals"] == 24635248848  # C(164, 6)


@pytest.mark.parametrize(
    "content, fragment",
    [("[deck]\ndekcs = 2\n", "unknown key deck.dekcs"), ("[payouts]\ndi_hu = -2\n", "payouts.di_hu"),
     ("[payouts]\nting_hu = nan\n", "payouts.ting_hu must be a"),
     ("[payouts]\nting_hu = inf\n", "payouts.ting_hu must be a")],
)
def test_bad_config_exits_2_without_traceback(tmp_path, content: str, fragment: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(content)
    result = run("bonus", "--config", str(path))
    assert result.returncode == 2
    assert fragment in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("content, fragment", [(b"\xff\xfe[deck]\n", "is not UTF-8 text"),
                                               (b"\xef\xbb\xbf[deck]\ndecks = 2\n", "byte-order mark")])
def test_a_config_file_that_is_not_plain_utf8_exits_2(tmp_path, content: bytes, fragment: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_bytes(content)
    result = run("deal-stats", "--config", str(path))
    assert result.returncode == 2 and fragment in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("args, fragment", [
    (["cache", "--config", "missing.toml"], "missing.toml"),
    (["best", "11m 23p 57s", "--no-tables", "--tables", "strategy_tables/7981a1455f0f2315"],
     "--no-tables and --tables ask for opposite things"),
    (["best", "11m 23p", "--dead", "57s 9m 9p", "--community", "4s 6s 8p 9s", "--fa", "0"],
     "a fa-hu bet placed: a positive multiple of T (1 or 2 under the rules), got '0'"),
    (["train", "--chart", "no-such-chart.json"], "no such chart file: no-such-chart.json"),
    (["paytable", "--vary", "ting_hu"], "--vary ting_hu: give its values, ting_hu=a,b,c or ting_hu=start:stop:step"),
])
def test_contradictory_or_missing_inputs_exit_2(capsys, args: list[str], fragment: str) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert fragment in err and len(err.strip().splitlines()) == 1


def test_a_trainer_port_in_use_exits_2(tmp_path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run("train", "--port", str(port), "--config", "configs/reduced-3x4.toml", "--tables",
                     "strategy_tables/reduced-3x4")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr


def test_a_reader_that_stops_early_gives_no_traceback() -> None:
    """`mahjong-poker bonus | head -1`: the pipe is closed before the table is written."""
    process = subprocess.Popen([sys.executable, "-m", "solver.cli", "bonus"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    process.stdout.close()
    stderr = process.stderr.read()
    assert process.wait(timeout=60) == 1
    assert stderr == ""


def test_argument_errors_name_the_program_once() -> None:
    result = run("bonus", "--bogus")
    assert result.returncode == 2 and result.stderr == "mahjong-poker: error: unrecognized arguments: --bogus\n"
    result = run("bonus", "--targets")  # the sub-command's own parser: its name follows
    assert result.returncode == 2
    assert result.stderr == "mahjong-poker: error: bonus: argument --targets/--target: expected one argument\n"


def test_a_dask_scheduler_that_is_not_there_exits_2(tmp_path) -> None:
    pytest.importorskip("distributed")
    result = run("solve", "--config", "configs/reduced-3x4.toml", "--backend", "dask", "--scheduler", "notanaddress",
                 "--out", str(tmp_path / "out"), "--quiet")
    assert result.returncode == 2 and "--scheduler notanaddress" in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_best_says_when_options_tie(capsys) -> None:
    """Two discards of equal EV (to 1e-12) are called a tie, not a margin of +0.000000."""
    from pathlib import Path

    root = Path(__file__).parent.parent
    assert main(["best", "11m 23p 4s J", "--config", str(root / "configs" / "reduced-3x4.toml"),
                 "--tables", str(root / "strategy_tables" / "reduced-3x4")]) == 0
    out = capsys.readouterr().out
    assert "tied with the next option" in out and " tie\n" in out and "better than the next" not in out


def test_best_reads_the_configurations_own_tables_by_default(tmp_path, monkeypatch, capsys) -> None:
    """With no --tables, `best` answers from strategy_tables/<fingerprint> in the working folder when a solve
    is there (the same EVs as the evaluator), says where from, and --no-tables forces the evaluator."""
    from pathlib import Path

    from solver.game.config import load_config
    from solver.staged.run import solve

    config_file = tmp_path / "one-suit.toml"
    config_file.write_text("[deck]\nsuits = 1\nranks = 5\ncopies = 3\njokers = 1\n")
    config = load_config(config_file)
    monkeypatch.chdir(tmp_path)
    common = ["best", "11235m J", "--dead", "44m", "--config", str(config_file), "--jobs", "1"]
    assert main(common + ["--json"]) == 0
    direct = json.loads(capsys.readouterr().out)
    assert main(common) == 0
    assert "no finished solve of this configuration: mahjong-poker solve --config" in capsys.readouterr().out
    solve(config, Path("strategy_tables") / config.fingerprint(), n_jobs=1, quiet=True)
    assert main(common + ["--json"]) == 0
    looked_up = json.loads(capsys.readouterr().out)
    assert looked_up["options"][0]["index"] == direct["options"][0]["index"]
    assert (looked_up["tables"], "tables" in direct) == (str(Path("strategy_tables") / config.fingerprint()), False)
    assert (direct["source"], looked_up["source"]) == ("evaluator", "tables") and looked_up["aim"] == direct["aim"]
    assert [o["ev"] for o in looked_up["options"]] == pytest.approx([o["ev"] for o in direct["options"]], abs=1e-12)
    assert main(common) == 0
    assert f"EVs from the tables in strategy_tables/{config.fingerprint()}" in capsys.readouterr().out
    assert main(common + ["--no-tables"]) == 0
    assert "EVs computed by the evaluator (--no-tables)" in capsys.readouterr().out


def test_committed_tables_are_found_by_their_manifest(capsys) -> None:
    """strategy_tables/reduced-3x4 is not named by its fingerprint: --config alone finds it; --tables alone plays
    its manifest's configuration (as a paytable variant's tables, which have no file of their own); a --config
    of another game is refused with a hint."""
    assert main(["best", "13m 22p 23s", "--config", "configs/reduced-3x4.toml", "--json"]) == 0
    by_config = json.loads(capsys.readouterr().out)
    assert by_config["source"] == "tables"
    assert main(["best", "13m 22p 23s", "--tables", "strategy_tables/reduced-3x4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == by_config
    assert main(["best", "13m 22p 23s", "--tables", "strategy_tables/reduced-3x4", "--config",
                 "configs/two-decks.toml"]) == 2
    assert "leave --config out to play the configuration they were solved for" in capsys.readouterr().err


def test_best_names_the_solve_it_lacks(tmp_path, monkeypatch, capsys) -> None:
    """With a bonus bet and no solve of that objective, the hint is `solve --bonus B`; the ting never hints."""
    config = tmp_path / "c.toml"
    config.write_text((Path(__file__).parent.parent / "configs" / "reduced-3x4.toml").read_text())
    monkeypatch.chdir(tmp_path)
    assert main(["best", "13m 22p 23s", "--dead", "1p 2s", "--config", str(config), "--bonus", "1"]) == 0
    assert (f"no finished solve of this configuration with a bonus bet of 1: mahjong-poker solve --config {config} "
            "--bonus 1 makes one") in capsys.readouterr().out
    assert main(["best", "13m 2p 3s", "--dead", "1p 2s 4m 3p", "--community", "1s 4s 2m 4p", "--fa", "1", "--config",
                 str(config), "--bonus", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == ("EVs computed by the evaluator (the tables hold no ting "
                                                        "decision: it is always computed)")


@pytest.mark.parametrize("args", [["edge", "--hands", "10"], ["edge", "--seed", "3"],
                                  ["chart", "--table-hands", "10", "--config", "configs/reduced-3x4.toml"]])
def test_table_options_without_seats_are_refused(capsys, args: list[str]) -> None:
    assert main(args) == 2
    assert "for the table of seats: give --seats N too" in capsys.readouterr().err


def test_tied_options_are_listed_in_their_own_order() -> None:
    """EVs tied to 1e-12 (the tables' and the evaluator's differ in the last bits) keep the options' order."""
    from solver.game.options import Option
    from solver.products.query import BestPlay

    def order(evs: list[float], best: int) -> list[int]:
        return BestPlay(None, [Option("bet", (), i, ev, i) for i, ev in enumerate(evs)], best, "").listing_order()

    assert order([1.0, 2.0, 2.0 + 1e-15, 0.5, 2.0 - 1e-15], best=2) == [2, 1, 4, 0, 3]
    assert order([1.0, 2.0 - 1e-15, 2.0 + 1e-15, 0.5, 2.0], best=2) == [2, 1, 4, 0, 3]
    assert order([1.0, 3.0, 2.0], best=1) == [1, 2, 0]


def test_a_payout_value_given_twice_is_one_variant() -> None:
    from solver.cli import _paytable_grid

    assert _paytable_grid(["ting_hu=1,1.5,1", "tian_hu=4:4.5:0.5"], False, 10) == (
        ["ting_hu", "tian_hu"], {"ting_hu": [1.0, 1.5], "tian_hu": [4.0, 4.5]})
