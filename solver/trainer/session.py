"""A training session: whole hands or drills on one decision, every decision graded, a score, a review queue.

Decks are reproducible: the k-th whole hand of a session with seed S is
dealt from the deck seeded ``"S/hands/k"``, whatever the player did before,
and the k-th drill situation at a stage from ``"S/<stage>/k/<attempt>"``. A
drill at the draw or the ting reaches its decision with the best play at
the decisions before it (a deal whose best play claims, or a draw whose best
play claims or folds or wins at step 11, is dealt again from the next attempt's
deck). A situation the player got wrong comes back in that stage's drill a
few hands later (:class:`ReviewQueue`).

Nothing about a session changes unless a request succeeds: every check is
made before the first change.
"""

from __future__ import annotations

import copy
import math
import secrets
import threading
from collections import Counter, OrderedDict
from dataclasses import dataclass, field

from solver.errors import InputError
from solver.game.options import Stage
from solver.game.state import State
from solver.products.query import BestPlay
from solver.trainer.grading import (
    ChartVerdict,
    Grader,
    Thresholds,
    chart_verdict,
    matching_option,
    option_json,
    option_label,
    options_best_first,
    why,
)
from solver.trainer.hand import DONE, WHOLE_HANDS, Choice, Hand, shuffled_deck

MODES = (WHOLE_HANDS, Stage.DEAL.value, Stage.DRAW.value, Stage.TING.value)
"""Whole hands, or a drill on one decision."""

#: Hands after which a missed situation comes back, then (answered right once) comes back again.
REVIEW_GAPS = (3, 6)
#: Situations kept for review at most (the oldest go first).
REVIEW_LIMIT = 500
#: Drill deals tried before giving up on reaching the decision (each one rarely fails).
DRILL_ATTEMPTS = 200
#: The costliest decisions a session lists.
COSTLIEST = 10


class NotFound(InputError):
    """An unknown session or hand (HTTP 404)."""


class Conflict(InputError):
    """A decision out of turn, replayed, or on a hand that is over (HTTP 409)."""


@dataclass(frozen=True)
class Grade:
    """A decision graded: the answer of ``best_play`` for its state and the option the player chose."""

    hand: int
    play: BestPlay
    chosen: int
    hinted: bool = False
    review: bool = False
    chart: ChartVerdict | None = None
    """What the grader's chart plays here, when it has a line for the decision."""

    @property
    def cost(self) -> float:
        """What the choice gave up against the best option, in units of T (0 for a tie)."""
        return max(0.0, self.play.options[self.play.best].ev - self.play.options[self.chosen].ev)

    def to_json(self, grader: Grader, thresholds: Thresholds) -> dict:
        """The grade as the page shows it: the choice, the best, every option best first, the cost."""
        play, geometry = self.play, grader.config.geometry
        state = play.state
        severity = thresholds.severity(self.cost)
        return {
            "hand": self.hand, "stage": state.stage.value, "hinted": self.hinted, "review": self.review,
            "state": {"hand": _names(state.hand, grader), "dead": _names(state.dead, grader),
                      "community": _names(state.community, grader), "double_down": state.double_down,
                      "fa_bet": state.fa_bet},
            "command": grader.command(state), "source": play.source,
            "choice": option_json(play, self.chosen, geometry), "best": option_json(play, play.best, geometry),
            "options": [option_json(play, i, geometry) for i in options_best_first(play)],
            "cost": self.cost, "severity": severity, "right": severity == "exact", "why": why(play, geometry),
            "chart": None if self.chart is None else self.chart.to_json(),
        }


def _names(cards: tuple[int, ...], grader: Grader) -> list[str]:
    return [grader.config.geometry.card_name(c) for c in cards]


@dataclass
class _Review:
    state: State
    due: int
    box: int = 0


@dataclass
class ReviewQueue:
    """Situations the player got wrong, each due again a few hands later: a miss puts it in the first
    box (back after ``REVIEW_GAPS[0]`` hands), a right answer moves it up a box, and past the last box
    it is retired."""

    items: OrderedDict[State, _Review] = field(default_factory=OrderedDict)

    def missed(self, state: State, now: int) -> None:
        """``state`` was answered wrong at hand ``now``: back to the first box."""
        self.items.pop(state, None)
        self.items[state] = _Review(state, now + REVIEW_GAPS[0])
        while len(self.items) > REVIEW_LIMIT:
            self.items.popitem(last=False)

    def answered(self, state: State, right: bool, now: int) -> None:
        """A review of ``state`` was answered at hand ``now``."""
        item = self.items.get(state)
        if item is None:
            return
        if not right:
            self.missed(state, now)
        elif item.box + 1 >= len(REVIEW_GAPS):
            del self.items[state]
        else:
            item.box += 1
            item.due = now + REVIEW_GAPS[item.box]

    def due(self, stage: Stage, now: int) -> State | None:
        """The situation of ``stage`` due longest ago at hand ``now``, if any."""
        ready = [r for r in self.items.values() if r.state.stage == stage and r.due <= now]
        return min(ready, key=lambda r: r.due).state if ready else None

    def counts(self) -> dict[str, int]:
        """Situations waiting per stage."""
        found = Counter(r.state.stage.value for r in self.items.values())
        return {stage.value: found.get(stage.value, 0) for stage in Stage}


class Session:
    """One player's session: its hands, its graded decisions, its score and its review queue."""

    def __init__(self, ident: str, grader: Grader, seed: int, mode: str = WHOLE_HANDS,
                 thresholds: Thresholds | None = None) -> None:
        self.ident = ident
        self.grader = grader
        self.config = grader.config
        self.seed = seed
        self.mode = check_mode(mode)
        self.thresholds = thresholds or Thresholds()
        self.chip_value = 10.0
        """Chips per T, for the settlement in chips (the rule card's examples bet T = 10)."""
        self.hands: dict[int, Hand] = {}
        self.grades: list[Grade] = []
        self.hinted: set[tuple[int, str]] = set()
        self.reviews = ReviewQueue()
        self.dealt: Counter[str] = Counter()  # situations dealt per mode: the next deck's number
        self.lock = threading.Lock()

    def hand(self, number: int) -> Hand:
        """Hand ``number`` of this session (NotFound when there is none)."""
        if number not in self.hands:
            raise NotFound(f"session {self.ident} has no hand {number}")
        return self.hands[number]

    def new_hand(self, mode: str | None = None, bonus: float = 0.0) -> Hand:
        """The next hand of ``mode`` (default: the session's; it becomes the session's); earlier hands left
        unfinished are abandoned."""
        mode = check_mode(mode or self.mode)
        number = len(self.hands) + 1
        if mode == WHOLE_HANDS:
            hand = Hand.deal(number, self.config, self._deck(WHOLE_HANDS, self.dealt[mode]), bonus)
        else:
            hand = self._drill(Stage(mode), number)
        self.mode = mode
        self.dealt[mode] += 1
        self.hands[number] = hand
        self.grader.start(hand.situation())
        if mode == WHOLE_HANDS and self.grader.instant(Stage.DEAL):  # the next deal too, while it is free
            self.grader.start(Hand.deal(0, self.config, self._deck(mode, self.dealt[mode])).situation())
        return hand

    def _deck(self, mode: str, k: int, attempt: int | None = None) -> list[int]:
        return shuffled_deck(self.config, f"{self.seed}/{mode}/{k}" + ("" if attempt is None else f"/{attempt}"))

    def _drill(self, stage: Stage, number: int) -> Hand:
        """A drill situation at ``stage``: one the player got wrong and is due, or a fresh one."""
        due = self.reviews.due(stage, number)
        if due is not None:
            return Hand.drill(number, self.config, due, True, ["a situation you got wrong before"])
        for attempt in range(DRILL_ATTEMPTS):
            hand = self._played_to(stage, self._deck(stage.value, self.dealt[stage.value], attempt))
            if hand is not None:
                hand.number = number
                return hand
        raise RuntimeError(f"no {stage.value} decision reached in {DRILL_ATTEMPTS} deals")

    def _played_to(self, stage: Stage, deck: list[int]) -> Hand | None:
        """A hand dealt from ``deck`` and played the best way up to ``stage``'s decision (None when the best
        play ends it before)."""
        hand = Hand.deal(0, self.config, deck)
        while hand.phase != stage:
            play = self.grader.play(hand.situation())
            best = play.options[play.best]
            if best.action in ("claim", "fold"):
                return None
            hand.events.append(f"played for you at the {hand.phase}: "
                               f"{option_label(best, play.state.stage, self.config.geometry)}")
            hand.play(Choice(best.action, best.discard, best.bet))
            if hand.phase == DONE:
                return None
        hand.mode, hand.deck = stage.value, []
        return hand

    def decide(self, number: int, stage: str, choice: Choice) -> Grade:
        """Grade ``choice`` at hand ``number``'s ``stage`` decision and play it; refused, it changes nothing."""
        hand = self.hand(number)
        if stage not in {s.value for s in Stage}:
            raise InputError(f"unknown decision {stage!r}: one of {', '.join(s.value for s in Stage)}")
        if any(g.hand == number and g.play.state.stage == stage for g in self.grades):
            raise Conflict(f"the {stage} decision of hand {number} was already made")
        if hand.phase == DONE:
            raise Conflict(f"hand {number} is over")
        if number != len(self.hands):
            raise Conflict(f"hand {number} was left for hand {len(self.hands)}: decide there")
        if stage != hand.phase:
            raise Conflict(f"hand {number} is at the {hand.phase} decision, not the {stage} decision")
        hand.check(choice)
        state = hand.situation()
        play = self.grader.play(state)
        grade = Grade(number, play, matching_option(play, choice), (number, stage) in self.hinted, hand.review,
                      chart_verdict(self.grader.chart, play, self.config.geometry))
        played = copy.deepcopy(hand)
        played.play(choice)
        self.hands[number] = played
        self.grades.append(grade)
        self._schedule(grade)
        if played.phase != DONE:
            self.grader.start(played.situation())
        return grade

    def _schedule(self, grade: Grade) -> None:
        """The review queue after a graded decision: a miss comes back, a review answered moves on."""
        right = self.thresholds.severity(grade.cost) == "exact"
        now = len(self.hands)
        if grade.review:
            self.reviews.answered(grade.play.state, right, now)
        elif not right and not grade.hinted:
            self.reviews.missed(grade.play.state, now)

    def hint(self, number: int) -> BestPlay:
        """The answer at hand ``number``'s decision, not graded: that decision then counts as hinted."""
        hand = self.hand(number)
        if hand.phase == DONE or number != len(self.hands):
            raise Conflict(f"hand {number} is " + ("over" if hand.phase == DONE else "left for a newer hand")
                           + ": it has no decision to hint")
        play = self.grader.play(hand.situation())
        self.hinted.add((number, hand.phase))
        return play

    def hand_json(self, hand: Hand, chip_value: float, thresholds: Thresholds) -> dict:
        """A hand as the page shows it, with the grades of its decisions so far."""
        data = hand.to_json(chip_value)
        data["grades"] = [g.to_json(self.grader, thresholds) for g in self.grades if g.hand == hand.number]
        data["hinted"] = (hand.number, hand.phase) in self.hinted
        data["current"] = hand.number == len(self.hands)
        return data

    def score(self, thresholds: Thresholds) -> dict:
        """The session's score: decisions right, total cost, cost per hand and per decision, the grades by
        size, and the costliest decisions (hinted decisions are not counted)."""
        counted = [g for g in self.grades if not g.hinted]
        cost = sum((g.cost for g in counted), 0.0)
        hands = len({g.hand for g in counted})
        severities = Counter(thresholds.severity(g.cost) for g in counted)
        costliest = sorted((g for g in counted if g.cost > thresholds.exact), key=lambda g: -g.cost)[:COSTLIEST]
        by_stage = {s.value: {"decisions": sum(g.play.state.stage == s for g in counted),
                              "right": sum(g.play.state.stage == s and g.cost <= thresholds.exact for g in counted),
                              "cost": sum((g.cost for g in counted if g.play.state.stage == s), 0.0)} for s in Stage}
        return {
            "decisions": len(counted), "right": severities["exact"], "total_cost": cost, "hands": hands,
            "cost_per_hand": cost / hands if hands else 0.0, "error_rate": cost / len(counted) if counted else 0.0,
            "severity": {k: severities[k] for k in ("exact", "minor", "major", "blunder")},
            "by_stage": by_stage, "hinted": len(self.grades) - len(counted), "reviews": self.reviews.counts(),
            "costliest": [g.to_json(self.grader, thresholds) for g in costliest],
            "chart": self._chart_score(counted),
        }

    def _chart_score(self, counted: list[Grade]) -> dict | None:
        """The chart against the player on the deal and draw decisions the player answered (None without a
        chart). Where no line covers a hand the chart costs nothing: it leaves the hand to the best play,
        as its exact price assumes."""
        chart = self.grader.chart
        if chart is None:
            return None
        faced = [g for g in counted if g.play.state.stage != Stage.TING]
        cost = math.fsum(g.chart.loss for g in faced if g.chart is not None)
        own = math.fsum(g.cost for g in faced)
        n = len(faced)
        return {"lines": chart.lines, "loss_per_hand": chart.loss, "decisions": n,
                "covered": sum(g.chart is not None for g in faced), "total_cost": cost,
                "error_rate": cost / n if n else 0.0, "player_cost": own, "player_error_rate": own / n if n else 0.0}

    def to_json(self, thresholds: Thresholds) -> dict:
        """The session: its seed and mode, the current hand's number, the score and the review queue."""
        return {"session": self.ident, "seed": self.seed, "mode": self.mode, "hands": len(self.hands),
                "current_hand": len(self.hands) or None, "thresholds": thresholds.to_json(),
                "score": self.score(thresholds)}


def check_mode(mode: str) -> str:
    """``mode`` when it is one of :data:`MODES`."""
    if mode not in MODES:
        raise InputError(f"unknown mode {mode!r}: one of {', '.join(MODES)}")
    return mode


class SessionStore:
    """The sessions of one server, the least recently used dropped beyond ``limit``."""

    def __init__(self, grader: Grader, default_seed: int | None, limit: int = 64) -> None:
        self.grader = grader
        self.default_seed = default_seed
        self.limit = limit
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def create(self, seed: int | None = None, mode: str = WHOLE_HANDS, thresholds: Thresholds | None = None
               ) -> Session:
        """A new session; its seed is ``seed``, else the server's, else a random one."""
        seed = seed if seed is not None else self.default_seed
        seed = seed if seed is not None else secrets.randbelow(10**9)
        session = Session(secrets.token_hex(8), self.grader, seed, mode, thresholds)
        with self._lock:
            self._sessions[session.ident] = session
            while len(self._sessions) > self.limit:
                self._sessions.popitem(last=False)
        return session

    def get(self, ident: str) -> Session:
        """Session ``ident`` (NotFound when unknown or dropped)."""
        with self._lock:
            session = self._sessions.get(ident)
            if session is None:
                raise NotFound(f"no session {ident!r} (unknown, or dropped after {self.limit} newer ones)")
            self._sessions.move_to_end(ident)
            return session
