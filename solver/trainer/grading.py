"""The grade of a decision: :func:`solver.products.query.best_play` on the same state, and the choice's cost.

The grade is ``best_play`` itself (the options, their EVs, the best and its
aim), so it equals ``mahjong-poker best`` for the same state by construction.
A :class:`Grader` starts each answer in a background thread as soon as the
decision is shown, so the player's think time hides the evaluator's. With a
chart (``mahjong-poker chart``), each deal and draw decision also says what
the chart plays there and what that costs (:func:`chart_verdict`).
"""

from __future__ import annotations

import math
import queue
import shlex
import threading
from collections import OrderedDict
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

from solver.errors import InputError
from solver.game.cards import DeckGeometry, format_cards
from solver.game.config import GameConfig
from solver.game.options import TIE_TOLERANCE, Option, Stage
from solver.game.state import State
from solver.products.chart_play import ChartPlayer, load_chart
from solver.products.query import STAGE_TABLES, BestPlay, best_play, describe_option
from solver.trainer.hand import Choice

#: Answers kept per server: enough for every decision of a long session and its reviews.
CACHED_ANSWERS = 4096


@dataclass(frozen=True)
class Thresholds:
    """How a mistake's cost (units of T) is graded: exact up to ``exact``, minor below ``minor``,
    major below ``major``, a blunder from there."""

    exact: float = TIE_TOLERANCE
    minor: float = 0.02
    major: float = 0.1

    def severity(self, cost: float) -> str:
        """``exact``, ``minor``, ``major`` or ``blunder``."""
        if cost <= self.exact:
            return "exact"
        return "minor" if cost < self.minor else "major" if cost < self.major else "blunder"

    def with_values(self, values: dict) -> Thresholds:
        """These thresholds with those of ``values`` (a JSON object or a query's fields) put in, checked."""
        unknown = sorted(set(values) - {"exact", "minor", "major"})
        if unknown:
            raise InputError(f"unknown threshold {unknown[0]!r}: the thresholds are exact, minor and major")
        merged = {"exact": self.exact, "minor": self.minor, "major": self.major}
        for key, value in values.items():
            try:
                merged[key] = float(value)
            except (TypeError, ValueError):
                raise InputError(f"the threshold {key} must be a number, got {value!r}") from None
        if not all(math.isfinite(v) for v in merged.values()) or not 0 <= merged["exact"] <= merged["minor"] \
                <= merged["major"]:
            raise InputError(f"thresholds must be finite with 0 <= exact <= minor <= major, got {merged}")
        return Thresholds(**merged)

    def to_json(self) -> dict:
        """The three thresholds by name."""
        return {"exact": self.exact, "minor": self.minor, "major": self.major}


class Grader:
    """Answers ``best_play`` for decision states, each computed once in a background thread.

    Deal and draw decisions are read from ``tables`` when the solve there holds
    them (``best_play`` falls back to the evaluator by itself otherwise); the ting
    decision is always computed (a few hundred hu tests)."""

    def __init__(self, config: GameConfig, tables: Path | None, config_file: str | None = None,
                 chart: ChartPlayer | None = None) -> None:
        self.config = config
        self.tables = tables
        self.config_file = config_file
        self.chart = chart
        """The chart shown beside each deal and draw grade, if any."""
        self._answers: OrderedDict[State, Future[BestPlay]] = OrderedDict()
        self._lock = threading.Lock()
        # Two lanes, so that a lookup never waits behind the evaluator: one for the decisions a table or a
        # few hu tests answer, one for the evaluator's. Daemon threads, not an executor's: Ctrl-C must not
        # wait for a deal the evaluator is computing.
        self._lanes: dict[bool, queue.SimpleQueue[tuple[State, Future[BestPlay]] | None]] = {}
        for fast in (True, False):
            self._lanes[fast] = queue.SimpleQueue()
            threading.Thread(target=self._work, args=(self._lanes[fast],), daemon=True,
                             name=f"mahjong-poker-grade-{'fast' if fast else 'evaluator'}").start()

    def instant(self, stage: Stage) -> bool:
        """Whether a decision at ``stage`` is answered from the tables (a lookup, and the few holds a solve left out
        walked: :func:`solver.products.query.best_play`) or fast anyway (the ting decision)."""
        if stage == Stage.TING:
            return True
        return self.tables is not None and (self.tables / STAGE_TABLES[stage]).exists()

    def start(self, state: State) -> Future[BestPlay]:
        """The answer for ``state``, started in the background unless already known or under way."""
        with self._lock:
            found = self._answers.get(state)
            if found is None:
                found = Future()
                self._lanes[self.instant(state.stage)].put((state, found))
                self._answers[state] = found
                while len(self._answers) > CACHED_ANSWERS:
                    self._answers.popitem(last=False)
            else:
                self._answers.move_to_end(state)
            return found

    def play(self, state: State) -> BestPlay:
        """The answer for ``state``, waiting for it."""
        return self.start(state).result()

    def _work(self, lane: queue.SimpleQueue) -> None:
        """A lane's thread: answers its states in the order they were started."""
        while (task := lane.get()) is not None:
            state, future = task
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(self._compute(state))
            except BaseException as error:  # noqa: BLE001 (handed to whoever waits for the answer)
                future.set_exception(error)

    def _compute(self, state: State) -> BestPlay:
        geometry = self.config.geometry
        # The ting is never in the tables: best_play would only check them, which costs a read.
        tables = None if state.stage == Stage.TING else self.tables
        return best_play(format_cards(state.hand, geometry), self.config, stage=state.stage.value,
                         dead=format_cards(state.dead, geometry), community=format_cards(state.community, geometry),
                         double_down=state.double_down, fa_bet=state.fa_bet, tables=tables)

    def warm_up(self, state: State) -> None:
        """Compute one answer in the background so that the evaluator's start-up is paid before play."""
        self.start(state)

    def close(self) -> None:
        """Stop the background threads once the answers under way are done; those not started are cancelled."""
        with self._lock:
            for future in self._answers.values():
                future.cancel()
        for lane in self._lanes.values():
            lane.put(None)

    def command(self, state: State) -> str:
        """The ``mahjong-poker best`` command that answers the same state."""
        geometry = self.config.geometry
        words = ["mahjong-poker", "best", format_cards(state.hand, geometry)]
        words += ["--dead", format_cards(state.dead, geometry)] if state.dead else []
        words += ["--community", format_cards(state.community, geometry)] if state.community else []
        words += ["--dd"] if state.double_down else []
        words += ["--fa", f"{state.fa_bet:g}"] if state.fa_bet else []
        words += ["--config", self.config_file] if self.config_file else []
        words += ["--tables", str(self.tables)] if self.tables is not None and state.stage != Stage.TING else []
        return " ".join(shlex.quote(w) for w in words)


def matching_option(play: BestPlay, choice: Choice) -> int:
    """The index of the option ``choice`` is, among ``play``'s (InputError when it is none of them)."""
    for i, option in enumerate(play.options):
        if option.action == choice.action and option.discard == choice.discard and option.bet == choice.bet:
            return i
    raise InputError(f"{choice.action} {choice.discard} {choice.bet:g} is not an option at this decision")


def option_label(option: Option, stage: Stage, geometry: DeckGeometry) -> str:
    """An option in the page's words: 'throw 57s, double down', 'bet F = 1, throw 57s', 'bet G = 3', 'fold'."""
    return describe_option(option, stage, geometry, throw="throw")


def option_json(play: BestPlay, index: int, geometry: DeckGeometry) -> dict:
    """One option of a decision: what it is, its exact EV and what it gives up against the best."""
    option = play.options[index]
    return {"index": index, "action": option.action, "discard": [geometry.card_name(c) for c in option.discard],
            "bet": option.bet, "ev": option.ev, "loss": max(0.0, play.options[play.best].ev - option.ev),
            "label": option_label(option, play.state.stage, geometry)}


def options_best_first(play: BestPlay) -> list[int]:
    """Option indices, the best first, then by EV (as ``mahjong-poker best`` lists them)."""
    return sorted(range(len(play.options)), key=lambda i: (i != play.best, -play.options[i].ev, i))


def why(play: BestPlay, geometry: DeckGeometry) -> str:
    """One line on the best option: what its kept cards aim at, or the outs at the ting."""
    best = play.options[play.best]
    state = play.state
    if state.stage == Stage.TING:
        return f"{'fold' if best.action == 'fold' else 'bet'}: {play.aim}"
    if best.action == "claim":
        return f"claim: {best.ev:+g} T now beats every way of playing on"
    if best.action == "fold":
        return f"fold: losing {-best.ev:g} T now costs less than any fa-hu bet is worth"
    kept = [c for c in state.hand]
    for card in best.discard:
        kept.remove(card)
    return f"keep {format_cards(kept, geometry)}: {play.aim}"


CHART_FILE = "chart.json"
"""The chart the trainer shows by default: this file in its tables directory."""


def trainer_chart(given: str | Path | None, tables: Path | None, geometry: DeckGeometry) -> ChartPlayer | None:
    """The chart a trainer shows: the file ``given`` (``--chart``), else :data:`CHART_FILE` in ``tables``
    where there is one, else none. A file that is not a chart is an InputError (one line), the default's
    included: a broken chart is better reported than silently dropped."""
    path = Path(given) if given is not None else None
    if path is None and tables is not None and (tables / CHART_FILE).is_file():
        path = tables / CHART_FILE
    return None if path is None else load_chart(path, geometry)


@dataclass(frozen=True)
class ChartVerdict:
    """What the chart plays at a graded decision, priced against the best play."""

    label: str
    """The chart's option in the page's words (the first, when its line allows several)."""
    line: str
    """The chart's line that plays it, in words."""
    ways: int
    """The options the line plays, each equally likely (several discards can keep its pattern)."""
    ev: float
    """The mean EV of those options."""
    loss: float
    """The best EV minus :attr:`ev`, never negative."""

    @property
    def agrees(self) -> bool:
        """Whether the chart's play is the best one (a tie counts)."""
        return self.loss <= TIE_TOLERANCE

    def to_json(self) -> dict:
        """The verdict as the page shows it."""
        return {"label": self.label, "line": self.line, "ways": self.ways, "ev": self.ev, "loss": self.loss,
                "agrees": self.agrees}


def chart_verdict(chart: ChartPlayer | None, play: BestPlay, geometry: DeckGeometry) -> ChartVerdict | None:
    """What ``chart`` plays at ``play``'s decision, or None: no chart, the ting (no chart list covers it:
    the grade explains it by outs), or a hand no line of the chart covers."""
    state = play.state
    if chart is None or state.stage == Stage.TING:
        return None
    advice = chart.advise(state.stage.value, play.options, state.hand, geometry, state.dead)
    if advice is None:
        return None
    ev = math.fsum(play.options[i].ev for i in advice.options) / len(advice.options)
    label = option_label(play.options[advice.options[0]], state.stage, geometry)
    return ChartVerdict(label, advice.line, len(advice.options), ev, max(0.0, play.options[play.best].ev - ev))
