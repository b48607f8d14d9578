"""Faults and bad input: every failure is one clear line, nothing is orphaned, nothing is lost.

On the two-suit mini deck, so that each case runs in seconds: a solve killed (SIGKILL) or
interrupted (SIGINT) at several moments, damaged table files under every reading command, bad
output directories, a full disk, two solves into one directory, and bad values of every flag.
docs/correctness.md keeps the table of these cases.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from joblib import Parallel, delayed

from solver.cli import main
from solver.errors import InputError
from solver.game.config import GameConfig
from solver.staged.run import solve
from solver.tables.files import TABLE_FILES, solve_lock
from tests.conftest import TWO_SUITS_TOML

ROOT = Path(__file__).parent.parent
TWO_SUITS = GameConfig(suits=2, ranks=4, copies=2, jokers=1)
CONFIG_ARG = "GameConfig(suits=2, ranks=4, copies=2, jokers=1)"


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> Path:
    """An uninterrupted solve, to compare the others with."""
    directory = tmp_path_factory.mktemp("faults") / "whole"
    solve(TWO_SUITS, directory, n_jobs=2, quiet=True)
    return directory


@pytest.fixture
def config_file(tmp_path: Path) -> str:
    path = tmp_path / "two.toml"
    path.write_text(TWO_SUITS_TOML)
    return str(path)


def same_tables(a: Path, b: Path) -> None:
    """Every table equal row for row and column for column (metadata aside: it holds the date)."""
    for name in TABLE_FILES:
        left, right = pq.read_table(a / name), pq.read_table(b / name)
        if name == "summary.parquet":
            left, right = left.drop_columns(["seconds"]), right.drop_columns(["seconds"])
        assert left.replace_schema_metadata(None).equals(right.replace_schema_metadata(None)), name


def one_line(stderr: str) -> str:
    """The single line a failure prints: no traceback, no second line."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


# ---------------------------------------------------------------------------------------------
# A solve killed or interrupted at several moments.

#: Where a solve is stopped: a function of the package replaced by one that does its work, or part of it,
#: then sends the signal to the solve's own process.
MOMENTS = {
    "before the first chunk": ("solver.staged.run", "_stage_holds", "pass"),
    "mid-chunk, a temporary file written": ("solver.tables.files", "write_table",
                                            "original(path.with_name(path.name + '.tmp'), *a, **k)"),
    "during a merge": ("solver.staged.chunks", "save_stage_arrays", "original(*a, **k)"),
    "during the index build": ("solver.tables.index", "build_index", "pass"),
    "with the tables written, the chunks not yet dropped": ("solver.staged.run", "_drop_chunks", "pass"),
}


def _interruptible() -> None:
    """Let the child take SIGINT as a user's Ctrl-C, even where the tests run in the background of a
    non-interactive shell (which starts them with SIGINT ignored, and Python keeps it so)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _stopped_solve(directory: Path, moment: str, signal_name: str) -> tuple[int, str, list[str]]:
    """Run a solve in a process of its own session, stopped at ``moment`` by ``signal_name``: its exit
    status, its standard error, and the processes of its session still running 3 seconds later."""
    module, name, work = MOMENTS[moment]
    path_arg = "path, *a, **k" if name == "write_table" else "*a, **k"
    script = textwrap.dedent(f"""
        import os, signal, sys
        import {module} as target
        from solver.cli import main
        original = target.{name}
        calls = [0]
        def stop({path_arg}):
            calls[0] += 1
            if calls[0] < 3 and {name!r} in ("write_table", "save_stage_arrays"):  # let some work finish first
                return original({'path, ' if name == 'write_table' else ''}*a, **k)
            {work}
            os.killpg(os.getpid(), signal.{signal_name})
        target.{name} = stop
        import solver.staged.run
        setattr(solver.staged.run, {name!r}, stop) if hasattr(solver.staged.run, {name!r}) else None
        sys.exit(main(sys.argv[1:]))
    """)
    config = directory.parent / "two.toml"
    config.write_text(TWO_SUITS_TOML)
    process = subprocess.Popen([sys.executable, "-c", script, "solve", "--config", str(config), "--out",
                                str(directory), "--jobs", "2", "--quiet"], stderr=subprocess.PIPE, text=True, cwd=ROOT,
                               start_new_session=True, preexec_fn=_interruptible)
    _, stderr = process.communicate(timeout=300)
    time.sleep(3)
    session = subprocess.run(["pgrep", "-s", str(process.pid)], capture_output=True, text=True).stdout.split()
    return process.returncode, stderr, [pid for pid in session if _running(pid)]


def _running(pid: str) -> bool:
    """Whether a process exists and is not a zombie (dead, waiting for its parent, here init, to reap it)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("moment", [m if m.startswith("mid-chunk") else pytest.param(m, marks=pytest.mark.slow)
                                    for m in MOMENTS])  # the fast loop keeps one moment
@pytest.mark.parametrize("signal_name", [pytest.param("SIGKILL", marks=pytest.mark.slow), "SIGINT"])
def test_a_stopped_solve_leaves_no_process_and_resumes(whole: Path, tmp_path: Path, moment: str,
                                                       signal_name: str) -> None:
    directory = tmp_path / "stopped"
    code, stderr, alive = _stopped_solve(directory, moment, signal_name)
    if signal_name == "SIGKILL":
        assert code == -signal.SIGKILL
    else:
        assert code == 130
        assert one_line(stderr).startswith("mahjong-poker: interrupted")
    assert alive == []
    solve(TWO_SUITS, directory, n_jobs=2, quiet=True)
    same_tables(whole, directory)
    assert not list(directory.rglob("*.tmp")) and not (directory / "chunks").exists()


def test_a_semaphore_left_registered_by_a_killed_worker_does_not_add_to_the_one_line(tmp_path: Path) -> None:
    """Ctrl-C kills the workers at once, and one killed mid-task can leave a queue's semaphore registered with
    loky's resource tracker, which warns of it as the command ends (the moments above hit this only under
    load). Here a semaphore is left registered on purpose: the tracker cleans it up without a word."""
    script = textwrap.dedent("""
        import os, signal, sys
        import solver.staged.run as run
        from joblib.externals.loky.backend import resource_tracker
        from solver.cli import main
        def stop(*a, **k):
            resource_tracker.register("/loky-0-left-by-a-killed-worker", "semlock")
            os.kill(os.getpid(), signal.SIGINT)
        run._stage_holds = stop
        sys.exit(main(sys.argv[1:]))
    """)
    config = tmp_path / "two.toml"
    config.write_text(TWO_SUITS_TOML)
    process = subprocess.run([sys.executable, "-c", script, "solve", "--config", str(config), "--out",
                              str(tmp_path / "stopped"), "--jobs", "2", "--quiet"], capture_output=True, text=True,
                             cwd=ROOT, timeout=300, preexec_fn=_interruptible,
                             env={k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"})  # the CLI sets it
    assert process.returncode == 130
    assert one_line(process.stderr).startswith("mahjong-poker: interrupted")


def test_a_finished_command_ends_its_workers_itself_and_a_ctrl_c_meanwhile_is_ignored(tmp_path: Path) -> None:
    """A command that has printed its figures ends its workers before it returns, rather than leave them to
    loky's exit hook (where a Ctrl-C printed a traceback), with Ctrl-C ignored meanwhile (an interrupt inside
    loky's shutdown leaves a lock held, and the process hangs as it exits). Here a SIGINT lands just as the
    workers are being ended: the command still exits 0, in silence, its workers gone."""
    script = textwrap.dedent("""
        import os, signal, sys, time
        import solver.cli as cli
        from joblib.externals.loky import reusable_executor
        original = cli.stop_workers
        def stop():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.2)
            original()
        cli.stop_workers = stop
        sys.argv = ["mahjong-poker", *sys.argv[1:]]
        code = cli.main()  # as the console script calls it
        executor = reusable_executor._executor
        assert executor is None or executor._flags.shutdown, "the workers outlive the command"
        print("after main:", code)
    """)
    config = tmp_path / "two.toml"
    config.write_text(TWO_SUITS_TOML)
    process = subprocess.run([sys.executable, "-c", script, "solve", "--config", str(config), "--out",
                              str(tmp_path / "solved"), "--jobs", "2", "--quiet"], capture_output=True, text=True,
                             cwd=ROOT, timeout=300, preexec_fn=_interruptible)
    assert process.returncode == 0, process.stderr
    assert "after main: 0" in process.stdout and "house edge" in process.stdout
    assert process.stderr == ""


def test_a_paytable_stopped_while_variants_run_side_by_side_leaves_no_process_and_resumes(tmp_path: Path, capsys,
                                                                                          monkeypatch) -> None:
    """Ctrl-C while a paytable's variants are solved side by side in worker processes: one line, exit 130,
    no process left; run again, it solves only what was left and every variant is a plain solve."""
    script = textwrap.dedent("""
        import os, signal, sys
        from solver.cli import main
        from solver.products.paytable import VariantSolver
        original = VariantSolver._solved
        calls = [0]
        def stop(self, *a, **k):
            calls[0] += 1
            if calls[0] == 3:  # the first of the second round: the other is still being solved
                os.killpg(os.getpid(), signal.SIGINT)
            return original(self, *a, **k)
        VariantSolver._solved = stop
        sys.exit(main(sys.argv[1:]))
    """)
    (tmp_path / "two.toml").write_text(TWO_SUITS_TOML)
    arguments = ["paytable", "--config", "two.toml", "--vary", "ting_hu=1,1.25", "--vary", "di_hu=2,3,4", "--jobs",
                 "2", "--json"]
    process = subprocess.Popen([sys.executable, "-c", script, *arguments], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=tmp_path, start_new_session=True,
                               preexec_fn=_interruptible, env={**os.environ, "PYTHONPATH": str(ROOT)})
    _, stderr = process.communicate(timeout=300)
    time.sleep(3)
    session = subprocess.run(["pgrep", "-s", str(process.pid)], capture_output=True, text=True).stdout.split()
    assert process.returncode == 130 and one_line(stderr).startswith("mahjong-poker: interrupted")
    assert [pid for pid in session if _running(pid)] == []
    finished = [d for d in (tmp_path / "strategy_tables").iterdir() if (d / "summary.parquet").exists()]
    assert 3 <= len(finished) < 6
    # the pool's worker processes, started from another folder and kept for the next call, must still
    # find the variants' folders (they were handed relative paths, and solved all six again elsewhere);
    # the stop leaves 2 or 3 variants as a rule, which the resumed run solves side by side in that pool
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    Parallel(n_jobs=2, backend="loky")(delayed(os.getpid)() for _ in range(4))
    monkeypatch.chdir(tmp_path)
    assert main(arguments) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows["solves"] == 6 - len(finished)
    for row in rows["variants"]:
        config = GameConfig(suits=2, ranks=4, copies=2, jokers=1, ting_hu=row["ting_hu"], di_hu=row["di_hu"])
        plain = solve(config, tmp_path / "plain" / config.fingerprint(), n_jobs=1, quiet=True)
        assert row["house_edge_exact"] == str(-plain.ev_exact)


# ---------------------------------------------------------------------------------------------
# Damaged table files, under every command that reads them.

DAMAGE = {
    "truncated": lambda data: data[: len(data) // 2],
    "empty": lambda data: b"",
    "garbage": lambda data: b"\x00garbage" * 100,
}


def _readers(tables: Path, config: str) -> dict[str, list[str]]:
    draw = pq.read_table(tables / "draws.parquet", columns=["hand", "dead"]).slice(5, 1).to_pylist()[0]
    deal = pq.read_table(tables / "deals.parquet", columns=["hand"]).slice(7, 1).to_pylist()[0]["hand"]
    common = ["--config", config, "--tables", str(tables)]
    return {
        "edge": ["edge", *common],
        "simulate": ["simulate", *common, "--hands", "2000", "--jobs", "1"],
        "chart": ["chart", *common],
        "best, deal": ["best", deal, *common],
        "best, draw": ["best", draw["hand"], "--dead", draw["dead"], *common],
    }


def _run(args: list[str], capsys) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("damage", [d if d == "truncated" else pytest.param(d, marks=pytest.mark.slow)
                                    for d in DAMAGE])  # the fast loop keeps one kind of damage
@pytest.mark.parametrize("name", TABLE_FILES)
def test_damaged_tables_give_one_line_or_the_same_answer(whole: Path, tmp_path: Path, config_file: str, capsys,
                                                         name: str, damage: str, monkeypatch) -> None:
    """Each reader either refuses (exit 2, one line naming the file) or, not needing the damaged file,
    answers exactly as from whole tables. A reader that reads the file always refuses."""
    monkeypatch.setenv("MAHJONG_POKER_CACHE", str(tmp_path / "cache"))  # indexes of the damaged copy stay here
    copy = tmp_path / "tables"
    shutil.copytree(whole, copy)
    readers = _readers(whole, config_file)
    clean = {reader: _run(args, capsys) for reader, args in readers.items()}
    path = copy / name
    path.write_bytes(DAMAGE[damage](path.read_bytes()))
    needs = {"summary.parquet": set(readers), "outcomes.parquet": {"edge", "simulate", "chart"},
             "deals.parquet": {"edge", "simulate", "chart"}, "draws.parquet": {"edge", "simulate", "chart"},
             "firsts.parquet": {"edge", "simulate", "chart", "best, deal"},
             "holds.parquet": {"edge", "simulate", "chart", "best, draw"}}[name]
    for reader, args in _readers(whole, config_file).items():
        args = [str(copy) if a == str(whole) else a for a in args]
        code, out, err = _run(args, capsys)
        if code == 2:
            assert name in one_line(err), (reader, err)
        else:
            same = out.replace(str(copy), str(whole)) == clean[reader][1]  # the output names its tables
            assert reader not in needs and code == 0 and same, (reader, code, err)


@pytest.mark.parametrize("manifest", ["{garbage", "[1]", '{"fingerprint": "0123456789abcdef"}'])
def test_a_damaged_manifest_is_refused_by_every_reader(whole: Path, tmp_path: Path, config_file: str, capsys,
                                                       manifest: str, monkeypatch) -> None:
    """manifest.json says what the tables were made for (a resumed solve trusts it): cut, garbage or
    another solve's, every reader refuses with one line naming it, rather than read on without a word."""
    monkeypatch.setenv("MAHJONG_POKER_CACHE", str(tmp_path / "cache"))
    copy = tmp_path / "tables"
    shutil.copytree(whole, copy)
    (copy / "manifest.json").write_text(manifest)
    for reader, args in _readers(whole, config_file).items():
        args = [str(copy) if a == str(whole) else a for a in args]
        code, _, err = _run(args, capsys)
        assert code == 2 and "manifest.json" in one_line(err), (reader, err)


# ---------------------------------------------------------------------------------------------
# Where a solve writes: bad directories, a full disk, two solves at once.


@pytest.mark.parametrize("out, fragment", [("README.md", "is a file, not a directory"),
                                           ("/proc/mahjong-poker", "cannot make the directory")])
def test_a_bad_out_is_one_line(out: str, fragment: str, config_file: str, capsys) -> None:
    for command in (["solve", "--config", config_file, "--out", out],
                    ["chart", "--config", config_file, "--tables", "strategy_tables/reduced-3x4", "--out", out]):
        assert main(command) == 2
        assert fragment in one_line(capsys.readouterr().err)


def test_an_unwritable_out_is_one_line(tmp_path: Path, config_file: str, capsys) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes anywhere: no directory is unwritable to it")
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    assert main(["solve", "--config", config_file, "--out", str(locked / "t")]) == 2
    assert "locked" in one_line(capsys.readouterr().err)


def test_a_full_disk_is_one_line_and_leaves_nothing_as_if_valid(whole: Path, tmp_path: Path, config_file: str,
                                                               capsys, monkeypatch) -> None:
    """A write failing with ENOSPC midway: exit 1 and one line; no finished table is left behind, and
    the rerun gives the whole solve's tables."""
    import solver.tables.files

    original = solver.tables.files.write_table
    calls = [0]

    def full(path, *args, **kwargs):
        calls[0] += 1
        if calls[0] == 12:
            path.with_name(path.name + ".tmp").write_bytes(b"half")
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return original(path, *args, **kwargs)

    monkeypatch.setattr(solver.tables.files, "write_table", full)
    for module in ("run", "chunks", "tracking"):
        monkeypatch.setattr(f"solver.staged.{module}.write_table", full)
    directory = tmp_path / "full"
    assert main(["solve", "--config", config_file, "--out", str(directory), "--jobs", "1", "--quiet"]) == 1
    assert "No space left on device" in one_line(capsys.readouterr().err)
    assert not (directory / "summary.parquet").exists()
    monkeypatch.undo()
    solve(TWO_SUITS, directory, n_jobs=1, quiet=True)
    same_tables(whole, directory)


def test_a_table_written_in_parts_keeps_their_order_and_an_error_leaves_no_file(tmp_path: Path) -> None:
    """Each part of a table is made (read, priced) while the one before is written: the file holds the parts
    in order, and a part that fails to be made leaves neither the file nor its temporary."""
    import pyarrow as pa

    from solver.tables.files import write_parts

    def parts(fail_at: int | None = None):
        for n in range(5):
            if n == fail_at:
                raise ValueError(f"part {n} could not be made")
            time.sleep(0.05)  # long enough for the writer to be at work on the part before
            yield pa.table({"n": list(range(10 * n, 10 * n + 10))})

    written = tmp_path / "parts.parquet"
    write_parts(written, parts(), {})
    assert pq.read_table(written)["n"].to_pylist() == list(range(50))
    failed = tmp_path / "failed.parquet"
    with pytest.raises(ValueError, match="part 3 could not be made"):
        write_parts(failed, parts(fail_at=3), {})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["parts.parquet"]


def test_a_second_solve_into_a_busy_directory_is_refused(tmp_path: Path, config_file: str, capsys) -> None:
    directory = tmp_path / "busy"
    directory.mkdir()
    with solve_lock(directory):
        assert main(["solve", "--config", config_file, "--out", str(directory)]) == 2
        message = one_line(capsys.readouterr().err)
        assert str(directory) in message and f"pid {os.getpid()}" in message
    assert main(["solve", "--config", config_file, "--out", str(directory), "--quiet", "--jobs", "1"]) == 0


def test_reading_commands_never_solve(tmp_path: Path, config_file: str, capsys) -> None:
    """A missing table directory is an error naming the solve to run, and nothing is made there."""
    missing = tmp_path / "nope"
    solve_it = f"mahjong-poker solve --config {config_file} --out {missing}"  # the configuration given, repeated
    for command, hint in ((["edge", "--tables", str(missing)], solve_it),
                          (["simulate", "--tables", str(missing)], solve_it),
                          (["chart", "--tables", str(missing)], solve_it),
                          (["best", "12m 34p 1m J", "--tables", str(missing)], solve_it),
                          (["best", "12m 34p 1m J", "--bonus", "1", "--tables", str(missing)],
                           solve_it.replace(" --out", " --bonus 1.0 --out"))):
        assert main([*command, "--config", config_file]) == 2
        assert hint in one_line(capsys.readouterr().err)
        assert not missing.exists()


@pytest.mark.parametrize("manifest, hint", [
    ('{"bonus": 1.23456789, "restriction": "minimum-bets"}',
     "mahjong-poker solve --config 'my deck.toml' --bonus 1.23456789 --restriction minimum-bets --out {d}"),
    ('{"bonus": 0, "restriction": "chart"}', "mahjong-poker chart --config 'my deck.toml' --exact --tables {main}"),
    ("[1]", "mahjong-poker solve --config 'my deck.toml' --out {d}"),  # not what a solve writes: read as none
    ('{"bonus": "x"}', "mahjong-poker solve --config 'my deck.toml' --out {d}"),
])
def test_the_hint_to_solve_follows_the_manifest(tmp_path: Path, manifest: str, hint: str, monkeypatch) -> None:
    """The solve to run names the bonus in full, the restriction, the --config given (quoted for a shell);
    a chart's solve is made by chart --exact on the main tables; a manifest that says nothing usable is none."""
    from solver.tables import files

    monkeypatch.setattr(files, "_CONFIG_FILE", ["my deck.toml"])
    directory = tmp_path / "main-chart-0123abcd"
    directory.mkdir()
    (directory / "manifest.json").write_text(manifest)
    assert files.solve_command(directory) == hint.format(d=directory, main=tmp_path / "main")


def test_a_chart_of_a_restricted_solve_is_refused_as_such(whole: Path, tmp_path: Path, config_file: str,
                                                          capsys) -> None:
    """A chart reads the optimal strategy: a restricted solve's directory is named as made for another solve."""
    restricted = tmp_path / "minimum-bets"
    solve(TWO_SUITS, restricted, restriction="minimum-bets", holds_from=whole, n_jobs=1, quiet=True)
    assert main(["chart", "--config", config_file, "--tables", str(restricted)]) == 2
    assert "made for another solve: restriction 'minimum-bets'" in one_line(capsys.readouterr().err)


# ---------------------------------------------------------------------------------------------
# Bad values of every flag.

BAD_FLAGS = [
    ("solve", "--jobs", ["0", "-2", "two", "1.5"]),
    ("solve", "--bonus", ["-1", "nan", "inf", "x"]),
    ("edge", "--bonus", ["-1", "nan", "1e400"]),
    ("edge", "--jobs", ["0", "-3"]),
    ("simulate", "--hands", ["0", "1", "-5", "1e3", "10000000000000", "many"]),
    ("simulate", "--seed", ["-1", "9223372036854775808", "1.5", "x"]),
    ("simulate", "--jobs", ["0", "nan"]),
    ("best", "--fa", ["0", "-1", "nan", "x"]),
    ("best", "--bonus", ["-1", "nan"]),
    ("best", "--jobs", ["0"]),
    ("chart", "--jobs", ["0"]),
    ("chart", "--format", ["gif", "", "md,,png"]),
    ("paytable", "--max-variants", ["0", "-1", "x"]),
    ("paytable", "--target", ["0.02,,0.04", "2", "--"]),
    ("bonus", "--targets", ["", "-1.5", "x"]),
]


@pytest.mark.parametrize("command, flag, values", BAD_FLAGS)
def test_bad_flag_values_are_one_line(command: str, flag: str, values: list[str], config_file: str, capsys,
                                      tmp_path: Path) -> None:
    heads = {"best": ["best", "11m 23p 57s"], "chart": ["chart", "--out", str(tmp_path / "chart")]}
    head = heads.get(command, [command])
    for value in values:
        assert main([*head, "--config", config_file, flag, value]) == 2, (flag, value)
        assert flag in one_line(capsys.readouterr().err)


def test_a_ting_query_without_its_bet_says_so(capsys) -> None:
    assert main(["best", "11m 23p", "--dead", "57s 9m 9p", "--community", "4s 6s 8p 9s"]) == 2
    assert "--fa" in one_line(capsys.readouterr().err)


def test_simulate_starts_no_more_processes_than_batches(two_suit_tables: Path, capsys) -> None:
    """--jobs 16 for one batch of hands: one process does it (joblib would start all 16)."""
    from solver.runtime.parallel import work_processes

    assert work_processes(16, 1) == 1 and work_processes(-1, 1) == 1 and work_processes(2, 10) == 2
    assert main(["simulate", "--config", str(ROOT / "configs" / "reduced-3x4.toml"), "--tables",
                 str(ROOT / "strategy_tables" / "reduced-3x4"), "--hands", "1000", "--jobs", "16", "--json"]) == 0


def test_a_directory_left_while_being_prepared_is_taken_as_fresh(tmp_path: Path) -> None:
    """A run stopped while making a table directory leaves at most its lock, an empty chunks/ and a manifest
    being written: the next run prepares it; a directory with anything else and no manifest is refused."""
    from solver.game.objective import Objective
    from solver.tables.files import LOCK, prepare_directory, read_manifest

    left = tmp_path / "left"
    (left / "chunks").mkdir(parents=True)
    (left / LOCK).write_text("")
    (left / "manifest.json.tmp").write_text("{")
    prepare_directory(left, TWO_SUITS, Objective(), {"holds_from": None}, False)
    assert read_manifest(left)["fingerprint"] == TWO_SUITS.fingerprint()
    other = tmp_path / "other"
    (other / "chunks").mkdir(parents=True)
    (other / "chunks" / "holds-00000.parquet").write_text("")
    with pytest.raises(InputError, match="no readable manifest"):
        prepare_directory(other, TWO_SUITS, Objective(), {"holds_from": None}, False)
