"""The trainer's page in headless Chromium, played by real key events: a hand of a fixed seed dealt and
played to the end by keyboard, each grade the page shows checked against ``best`` for the state.

Chromium is driven over its DevTools protocol on a pipe (``--remote-debugging-pipe``: JSON messages
ended by a NUL byte on file descriptors 3 and 4), so no driver and no package beyond the browser."""

from __future__ import annotations

import json
import os
import re
import select
import shlex
import shutil
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from solver.cli import build_parser
from solver.game.config import GameConfig
from solver.products.query import best_play
from solver.trainer.hand import Hand, shuffled_deck
from solver.trainer.server import TrainerServer, make_server

SMALL = GameConfig(suits=3, ranks=4, copies=2, jokers=1)
SEED = 21


class Chromium:
    """A headless Chromium and one page of it, spoken to over the DevTools protocol on a pipe."""

    def __init__(self, browser: str, profile: Path) -> None:
        to_browser, self._write = os.pipe()
        self._read, from_browser = os.pipe()
        # above 9, so that placing them at 1 to 4 in the browser cannot overwrite one with another
        to_browser, from_browser = (_moved_up(fd) for fd in (to_browser, from_browser))
        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--remote-debugging-pipe",
                 f"--user-data-dir={profile}", "--window-size=1000,1200", "about:blank"]
        # the protocol's pipe is the browser's descriptors 3 (it reads) and 4 (it writes)
        quiet = _moved_up(os.open(os.devnull, os.O_WRONLY))
        self._pid = os.posix_spawn(browser, [browser, *flags], dict(os.environ), file_actions=[
            (os.POSIX_SPAWN_DUP2, quiet, 1), (os.POSIX_SPAWN_DUP2, quiet, 2),
            (os.POSIX_SPAWN_DUP2, to_browser, 3), (os.POSIX_SPAWN_DUP2, from_browser, 4)])
        os.close(quiet)
        os.close(to_browser)
        os.close(from_browser)
        self._buffer = b""
        self._next = 0
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self._session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]

    def send(self, method: str, session: bool = False, **params: Any) -> dict:
        """Call a protocol method (on the page with ``session``) and wait for its answer."""
        self._next += 1
        message = {"id": self._next, "method": method, "params": params}
        if session:
            message["sessionId"] = self._session
        os.write(self._write, json.dumps(message).encode() + b"\0")
        while True:
            answer = self._message()
            if answer.get("id") == self._next:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer["result"]

    def _message(self) -> dict:
        while b"\0" not in self._buffer:
            if not select.select([self._read], [], [], 60)[0]:
                raise RuntimeError("Chromium has not answered for a minute")
            chunk = os.read(self._read, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed the pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        result = self.send("Runtime.evaluate", session=True, expression=expression, returnByValue=True)
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 60.0) -> Any:
        """Poll until the expression is truthy; its value."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {expression}")

    def press(self, key: str) -> None:
        """A real key press (down and up) as the keyboard makes it."""
        if key == "Enter":
            down = {"key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13, "text": "\r"}
        else:
            code = f"Digit{key}" if key.isdigit() else f"Key{key.upper()}"
            down = {"key": key, "code": code, "windowsVirtualKeyCode": ord(key.upper()), "text": key}
        self.send("Input.dispatchKeyEvent", session=True, type="keyDown", **down)
        self.send("Input.dispatchKeyEvent", session=True, type="keyUp",
                  **{k: v for k, v in down.items() if k != "text"})

    def close(self) -> None:
        """Quit the browser."""
        try:
            self.send("Browser.close")
        except (RuntimeError, OSError):
            pass
        end = time.monotonic() + 20
        while os.waitpid(self._pid, os.WNOHANG) == (0, 0):
            if time.monotonic() > end:
                os.kill(self._pid, signal.SIGKILL)
                os.waitpid(self._pid, 0)
                break
            time.sleep(0.1)
        os.close(self._write)
        os.close(self._read)


def _moved_up(fd: int) -> int:
    """``fd`` moved to a descriptor number above 9."""
    import fcntl

    moved = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return moved


@pytest.fixture(scope="module")
def server() -> Iterator[TrainerServer]:
    running = make_server(SMALL, None, port=0, seed=SEED)
    threading.Thread(target=running.serve_forever, daemon=True).start()
    yield running
    running.shutdown()
    running.server_close()


@pytest.fixture
def chromium(tmp_path: Path) -> Iterator[Chromium]:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        if os.environ.get("CI"):
            pytest.fail("Chromium is needed for this test in CI: .ci/run installs it (scripts/ensure-chromium)")
        pytest.skip("no Chromium here: scripts/ensure-chromium installs it (CI always runs this test)")
    page = Chromium(browser, tmp_path / "profile")
    yield page
    page.close()


IDLE = "document.body.dataset.ready === '1' && document.body.dataset.busy !== '1'"


def shown_grade(page: Chromium) -> dict:
    """The grade on the page: the state's command, the options' labels and exact EVs in order, the cost."""
    return page.evaluate("""(() => {
        const line = document.getElementById('grade-line');
        return {stage: line.dataset.stage, cost: Number(line.dataset.cost), text: line.textContent,
                command: document.getElementById('command').textContent,
                rows: [...document.querySelectorAll('#options tbody tr')].map((tr) => ({
                    label: tr.dataset.label, ev: Number(tr.dataset.ev), text: tr.cells[1].textContent,
                    best: tr.classList.contains('best'), chosen: tr.classList.contains('chosen')}))};
    })()""")


def check_against_best(grade: dict) -> None:
    """The page's grade is ``best``'s answer for the state its command names: every option, best first."""
    args = build_parser().parse_args(shlex.split(grade["command"])[1:])
    assert args.command == "best" and args.stage is None
    play = best_play(args.hand, SMALL, dead=args.dead or "", community=args.community or "",
                     double_down=SMALL.double_down if args.dd else 0.0, fa_bet=args.fa or 0.0)
    assert play.state.stage.value == grade["stage"]
    order = sorted(range(len(play.options)), key=lambda i: (i != play.best, -play.options[i].ev, i))
    assert len(grade["rows"]) == len(order)
    assert grade["rows"][0]["best"]
    for row, i in zip(grade["rows"], order):
        assert abs(row["ev"] - play.options[i].ev) <= 1e-12
        assert row["text"].replace("−", "-") == f"{play.options[i].ev:+.6f}"
    chosen = next(row for row in grade["rows"] if row["chosen"])
    assert abs(grade["cost"] - max(0.0, play.options[play.best].ev - chosen["ev"])) <= 1e-12


def test_a_hand_played_by_keyboard_shows_bests_grades(server: TrainerServer, chromium: Chromium) -> None:
    page = chromium
    page.send("Page.enable", session=True)
    page.send("Page.navigate", session=True, url=server.url)
    page.wait_for(IDLE)
    page.wait_for("document.body.dataset.phase === 'deal'")
    # the fixed seed deals the hand the session's deck gives
    first = Hand.deal(1, SMALL, shuffled_deck(SMALL, f"{SEED}/hands/0"))
    shown = page.evaluate("[...document.querySelectorAll('#hand .tile')].map((t) => t.dataset.card)")
    assert shown == [SMALL.geometry.card_name(c) for c in first.cards]
    assert page.evaluate("document.getElementById('seed').value") == str(SEED)
    assert "mahjong-poker solve" in page.evaluate("document.getElementById('note').textContent")
    stages: list[str] = []
    for _ in range(8):  # hands until one reaches the ting (the fixed seed decides which)
        while page.evaluate("document.body.dataset.phase") != "done":
            phase = page.evaluate("document.body.dataset.phase")
            decisions = len(stages)
            keys = {"deal": ["1", "2", "d"], "draw": ["2", "3", "b"], "ting": ["2"]}[phase]
            for key in keys:
                page.press(key)
            if phase != "ting":
                assert page.evaluate("document.querySelectorAll('#hand .tile.marked').length") == 2
            page.press("Enter")
            page.wait_for(IDLE + f" && document.getElementById('grade-line') && "
                          f"document.getElementById('score-line').dataset.decisions === '{decisions + 1}'")
            grade = shown_grade(page)
            assert grade["stage"] == phase
            check_against_best(grade)
            stages.append(phase)
        assert re.search(r"Net [+−]\d", page.evaluate("document.getElementById('result').textContent"))
        if "ting" in stages:
            break
        page.press("Enter")  # the next hand
        page.wait_for(IDLE + " && document.body.dataset.phase === 'deal'")
    assert {"deal", "draw", "ting"} <= set(stages)
    score = page.evaluate("document.getElementById('score-line').dataset.decisions")
    assert score == str(len(stages))
