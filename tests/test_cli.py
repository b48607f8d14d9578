"""The command line: every command has help, JSON output follows its schema, bad input exits 2."""

import json
import subprocess
import sys

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
    assert set(data) == {"total_deals", "tian_hu", "flush_tian_hu"}
    assert data["total_deals"] == 350161812
    assert all(isinstance(v, int) for v in data.values())


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
    assert result.stderr == "mahjong-poker: error: bonus: argument --targets: expected one argument\n"


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
    assert looked_up["best"] == direct["best"]
    assert [o["ev"] for o in looked_up["options"]] == pytest.approx([o["ev"] for o in direct["options"]], abs=1e-12)
    assert main(common) == 0
    assert f"EVs from the tables in strategy_tables/{config.fingerprint()}" in capsys.readouterr().out
    assert main(common + ["--no-tables"]) == 0
    assert "EVs computed by the evaluator (--no-tables)" in capsys.readouterr().out
