"""Kernels run as plain Python give the compiled numbers, and a ting query never loads numba."""

import ast
import json
import subprocess
import sys

import numpy as np
import pytest

from solver.evaluator.ting import ting_outcomes
from solver.game.cards import counts_of
from solver.game.config import GameConfig
from solver.game.hu import hu_level
from solver.game.state import unseen_suited
from solver.runtime.jit import Kernel, interpreted, kernel, unowned

CONFIG = GameConfig()
TWO_DECKS = GameConfig(copies=6, jokers=2)


def _ting_states(config: GameConfig, n: int, seed: int, hand_jokers: int):
    """Random ting states (hand, dead, community) with ``hand_jokers`` jokers in hand, no hu yet."""
    g = config.geometry
    rng = np.random.default_rng(seed)
    suited = np.repeat(np.arange(g.n_suited), g.copies_in_play)
    found = 0
    while found < n:
        cards = [int(c) for c in rng.choice(suited, 12 - hand_jokers, replace=False)]
        hand = tuple(sorted(cards[:4 - hand_jokers] + [g.joker] * hand_jokers))
        dead, community = tuple(cards[4 - hand_jokers:8 - hand_jokers]), tuple(cards[8 - hand_jokers:])
        if hu_level(counts_of(hand + community, g), g):
            continue
        found += 1
        yield hand, dead, community


# Run in a fresh process: once numba has compiled a kernel here, the package's kernels are bound to their
# dispatchers, and even "interpreted" calls would reach compiled code.
INTERPRETED = """
import json, sys
from solver.game.cards import counts_of
from solver.game.config import GameConfig
from solver.game.state import unseen_suited
from solver.runtime.jit import interpreted
from solver.evaluator.ting import ting_outcomes
copies, jokers, states = json.loads(sys.stdin.read())
config = GameConfig(copies=copies, jokers=jokers)
g = config.geometry
with interpreted():
    out = [ting_outcomes(counts_of(h, g), counts_of(c, g), unseen_suited(h + d + c, config), config)
           for h, d, c in states]
assert "numba" not in sys.modules
print(repr([tuple(float(x) if isinstance(x, float) else int(x) for x in o) for o in out]))
"""


@pytest.mark.parametrize("config", [CONFIG, TWO_DECKS], ids=["1deck", "2decks"])
def test_interpreted_ting_counts_equal_the_compiled_ones(config: GameConfig) -> None:
    """Win counts as integers and the bonus's expected net to the last bit, hands with and without a joker."""
    g = config.geometry
    states = [s for jokers in (0, 1) for s in _ting_states(config, 5, seed=jokers, hand_jokers=jokers)]
    compiled = [ting_outcomes(counts_of(h, g), counts_of(c, g), unseen_suited(h + d + c, config), config)
                for h, d, c in states]
    sent = json.dumps([g.copies_in_play, g.jokers_in_play, states])
    done = subprocess.run([sys.executable, "-c", INTERPRETED], input=sent,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    plain = ast.literal_eval(done.stdout)  # tuples of ints and floats printed with repr: exact
    assert plain == [tuple(o) for o in compiled]
    assert all(o[2] != 0.0 for o in compiled)  # the bonus was counted
    assert sum(o[0] + o[1] > 0 for o in compiled) >= 4  # and the sample has winning tings


def test_kernels_calling_kernels_compile_and_interpret() -> None:
    @kernel
    def square(x):
        return x * x

    @kernel(inline="always")
    def inner(x):
        return x + 1

    def outer_py(x):
        return inner(x) * 2

    outer = kernel(outer_py, cache=False)
    assert isinstance(outer, Kernel) and outer.__name__ == "outer_py"
    with interpreted():
        assert outer(np.int64(3)) == 8 and square(4) == 16
    assert outer(np.int64(3)) == 8 and square(4) == 16
    assert outer.options == {"cache": False} and inner.options == {"inline": "always", "cache": True}


@kernel(cache=False)
def _add_rows(table, rows, out):
    for i in range(rows.shape[0]):
        out[i] += table[rows[i]]


@kernel(cache=False)
def _unowned_sums(table, rows, out, scratch):
    table, rows, out = unowned((table, rows, out))
    (twice,) = unowned(scratch)
    for _ in range(2):
        _add_rows(table, rows, twice)  # helpers handed unowned arrays and views of them read and write the originals
    _add_rows(table[1:], rows[1:], out[:2])
    return twice.sum()


def test_unowned_arrays_read_and_write_the_originals_compiled_and_interpreted() -> None:
    def run() -> tuple[float, np.ndarray, np.ndarray]:
        table, rows, out, twice = np.arange(5.0), np.array([4, 0, 2]), np.zeros(3), np.zeros(3)
        total = _unowned_sums(table, rows, out, (twice,))
        return total, out, twice

    with interpreted():
        expected = run()
    for found in (run(), run()):  # the arrays are the caller's: nothing freed or counted twice between calls
        assert found[0] == expected[0] == 12.0
        np.testing.assert_array_equal(found[1], [1.0, 3.0, 0.0])
        np.testing.assert_array_equal(found[2], [8.0, 0.0, 4.0])
    table = np.arange(5.0)
    before = sys.getrefcount(table)
    _unowned_sums(table, np.array([0]), np.zeros(1), (np.zeros(1),))
    assert sys.getrefcount(table) == before


def test_unowned_takes_only_arrays() -> None:
    from numba.core.errors import TypingError

    @kernel(cache=False)
    def mixed(a):
        b, n = unowned((a, 3))
        return b[0] + n

    with pytest.raises(TypingError):
        mixed(np.zeros(2))


def test_a_ting_query_does_not_load_numba() -> None:
    """numba's import and cache loading take about 1.5 s; a ting query answers in plain Python."""
    code = ("import sys; from solver.cli import main; "
            "main(['best', '11m 2p J', '--dead', '57s 8m 6s', '--community', '3m 8p 4s 9s', '--fa', '1']); "
            "assert 'numba' not in sys.modules, 'numba was imported'")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "best: bet G" in done.stdout or "best: fold" in done.stdout


def test_the_kernel_cache_is_named_by_every_source_file(tmp_path, monkeypatch) -> None:
    """numba does not see a change in a file other than the kernel's own: any source change must
    give another cache folder."""
    import shutil
    from pathlib import Path

    import solver
    from solver.runtime.jit import kernel_cache_folder, source_digest

    copy = tmp_path / "solver"
    shutil.copytree(Path(solver.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert source_digest(copy) == source_digest()
    edited = copy / "render" / "textfmt.py"  # a subpackage's file, far from any kernel
    edited.write_text(edited.read_text() + "\n# a change elsewhere\n")
    assert source_digest(copy) != source_digest()
    edited.rename(copy / "render" / "textfmt2.py")  # a renamed file counts too
    assert source_digest(copy) != source_digest()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    assert kernel_cache_folder() == str(tmp_path / "numba" / f"mahjong-poker-{source_digest()}")
    assert kernel_cache_folder("/elsewhere") == f"/elsewhere/mahjong-poker-{source_digest()}"


COMPILE_ONE = """
import sys
from solver.game.cards import counts_of, parse_cards
from solver.game.config import GameConfig
from solver.game.hu import hu_level
g = GameConfig().geometry
assert hu_level(counts_of(parse_cards("11m 123p", g), g), g) == 1
"""


@pytest.mark.slow
def test_kernels_are_cached_in_the_digest_folder_or_not_at_all(tmp_path) -> None:
    """A compiled kernel lands in <cache>/numba/mahjong-poker-<digest>; with no writable folder
    anywhere, nothing is written next to the sources (where numba keys a cache by one file)."""
    import os
    from pathlib import Path

    import solver
    from solver.runtime.jit import source_digest

    env = {**os.environ, "MAHJONG_POKER_CACHE": str(tmp_path / "cache")}
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run([sys.executable, "-c", COMPILE_ONE], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "cache" / "numba" / f"mahjong-poker-{source_digest()}"
    assert any(folder.rglob("*.nbi")), list(folder.rglob("*"))

    in_tree = Path(solver.__file__).parent / "__pycache__"
    before = sorted(in_tree.glob("*.nbi")) if in_tree.exists() else []
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    env = {**env, "MAHJONG_POKER_CACHE": str(blocker), "TMPDIR": str(blocker)}
    done = subprocess.run([sys.executable, "-c", COMPILE_ONE], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert (sorted(in_tree.glob("*.nbi")) if in_tree.exists() else []) == before


def test_a_command_that_compiles_says_so_once_and_a_second_run_does_not(tmp_path) -> None:
    """The first run of a version compiles for up to a minute or two: the command says so on stderr, once
    whatever its processes, and the run after it, which loads the kernels from the cache, says nothing. (At a
    terminal the command names its own marker file; here, captured, the test names it.)"""
    import os

    from solver.runtime.jit import COMPILE_NOTICE, COMPILE_NOTICE_ENV

    env = {**os.environ, "MAHJONG_POKER_CACHE": str(tmp_path / "cache")}
    env.pop("NUMBA_CACHE_DIR", None)
    command = [sys.executable, "-m", "solver.cli", "deal-stats", "--config", "configs/reduced-3x4.toml", "--json"]
    runs = [subprocess.run(command, env={**env, COMPILE_NOTICE_ENV: str(tmp_path / f"marker-{run}")},
                           capture_output=True, text=True, timeout=300) for run in range(2)]
    assert [r.returncode for r in runs] == [0, 0], runs[0].stderr
    assert runs[0].stderr.count(COMPILE_NOTICE) == 1 and COMPILE_NOTICE not in runs[1].stderr
    assert json.loads(runs[0].stdout) == json.loads(runs[1].stdout)
    assert (tmp_path / "marker-0").exists() and not (tmp_path / "marker-1").exists()


def test_kernels_use_512_bit_vectors_where_the_processor_has_them(monkeypatch) -> None:
    """With AVX-512F, numba is told the host's processor and features less LLVM's preference for 256-bit
    vectors (stage A's walk runs a fifth faster so); without it, nothing is set."""
    import os

    import llvmlite.binding as llvm

    from solver.runtime import jit

    environment: dict[str, str] = {}
    monkeypatch.setattr(os, "environ", environment)
    jit._prefer_wide_vectors()
    features = llvm.get_host_cpu_features().flatten()
    if "+avx512f" in features.split(","):
        assert environment == {"NUMBA_CPU_NAME": llvm.get_host_cpu_name(),
                               "NUMBA_CPU_FEATURES": features + ",-prefer-256-bit"}
    else:
        assert environment == {}


@pytest.mark.parametrize("name", ["NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES"])
def test_a_users_processor_settings_for_numba_are_left_alone(monkeypatch, name: str) -> None:
    import os

    from solver.runtime import jit

    environment = {name: "generic"}
    monkeypatch.setattr(os, "environ", environment)
    jit._prefer_wide_vectors()
    assert environment == {name: "generic"}


def test_a_killed_commands_compile_marker_is_swept_by_the_next(tmp_path, monkeypatch) -> None:
    """SIGKILL leaves a command no time to remove its marker file: the next command at a terminal removes the
    markers whose process is gone, and leaves a running one's (and any other file) alone."""
    import os
    import tempfile

    from solver.cli import COMPILE_MARKER_PREFIX, compile_notice

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    left = tmp_path / f"{COMPILE_MARKER_PREFIX}{int(gone.stdout)}-abc"
    running = tmp_path / f"{COMPILE_MARKER_PREFIX}{os.getpid()}-def"
    other = tmp_path / "mahjong-poker-other"
    for path in (left, running, other):
        path.write_text("")

    class Terminal:
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(sys, "stderr", Terminal())
    monkeypatch.delenv("MAHJONG_POKER_COMPILE_NOTICE", raising=False)
    with compile_notice():
        pass
    assert not left.exists() and running.exists() and other.exists()
