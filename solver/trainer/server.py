"""The trainer's local web server: one self-contained page and the JSON API under it (docs/trainer.md).

Standard library only (:class:`http.server.ThreadingHTTPServer`): each
request has its own thread, so a decision being graded never holds up the
others. Bad input gets a 4xx with a JSON ``{"error": ...}`` and changes
nothing; any other failure a 500, and the server goes on.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib.resources import files
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from solver import __version__
from solver.errors import InputError
from solver.game.cards import parse_cards
from solver.game.config import GameConfig
from solver.game.options import Stage
from solver.products.chart_play import ChartPlayer
from solver.trainer.grading import Grader, Thresholds, option_json, why
from solver.trainer.hand import WHOLE_HANDS, Choice, Hand, shuffled_deck
from solver.trainer.session import MODES, Conflict, NotFound, Session, SessionStore

#: The largest request body read (a decision is a few dozen bytes).
MAX_BODY = 64 * 1024
#: The most of a larger body read and dropped before answering 413.
MAX_DRAINED = 1024 * 1024

_SESSION = r"/api/sessions/(?P<session>[0-9a-f]+)"
_HAND = _SESSION + r"/hands/(?P<hand>[0-9]+)"


class TrainerServer(ThreadingHTTPServer):
    """The HTTP server, holding the sessions and the grader they share."""

    daemon_threads = True  # a request still being answered does not keep the process alive at Ctrl-C

    def __init__(self, address: tuple[str, int], config: GameConfig, tables: Path | None, seed: int | None,
                 config_file: str | None = None, chart: ChartPlayer | None = None) -> None:
        # bound by hand: socketserver's own binding calls server_close on failure, before the grader exists
        super().__init__(address, TrainerHandler, bind_and_activate=False)
        try:
            self.server_bind()
            self.server_activate()
        except OSError:
            self.socket.close()
            raise
        self.config = config
        self.grader = Grader(config, tables, config_file, chart)
        self.store = SessionStore(self.grader, seed)
        self.page = files("solver.trainer").joinpath("page.html").read_bytes()

    @property
    def url(self) -> str:
        """Where the page is served."""
        host, port = self.server_address[:2]
        return f"http://{host if ':' not in str(host) else f'[{host}]'}:{port}/"

    def info(self) -> dict:
        """What the page needs to know of the game and of how fast decisions are answered."""
        config, grader = self.config, self.grader
        instant = {stage.value: grader.instant(stage) for stage in Stage}
        slow = [s for s, fast in instant.items() if not fast]
        note = (f"Every decision is answered from the solve's tables in {grader.tables}." if not slow else
                f"The {' and '.join(slow)} decisions are computed by the evaluator while you look at the cards"
                + (" (about a second each on the real deck, more for the first)" if slow == ["draw"] else "")
                + ": `mahjong-poker solve` makes every decision instant.")
        return {"version": __version__, "deck": {"suits": config.suits, "ranks": config.ranks,
                                                 "copies": config.geometry.copies_in_play,
                                                 "jokers": config.geometry.jokers_in_play,
                                                 "cards": config.geometry.size},
                "double_down": config.double_down, "fa_hu_bets": list(config.fa_hu_bets),
                "ting_hu_multiples": list(config.ting_hu_multiples), "modes": list(MODES),
                "tables": None if grader.tables is None else str(grader.tables), "instant": instant, "note": note,
                "seed": self.store.default_seed, "thresholds": Thresholds().to_json(),
                "chart": None if grader.chart is None else {"lines": grader.chart.lines, "loss": grader.chart.loss}}

    def warm_up(self) -> None:
        """Answer a draw and a ting decision in the background, so that the start-up of what answers them (the
        evaluator's kernels, or the walk of the holds a solve left out) is paid before the player's first hand
        gets there."""
        hand = Hand.deal(0, self.config, shuffled_deck(self.config, "warm-up"))
        hand.play(Choice("discard", hand.cards[:2], 0.0))
        self.grader.warm_up(hand.situation())
        hand.play(Choice("bet", hand.cards[:2], self.config.fa_hu_bets[0]))
        if hand.phase == Stage.TING:
            self.grader.warm_up(hand.situation())

    def server_close(self) -> None:
        """Close the socket and stop the grader's thread."""
        super().server_close()
        self.grader.close()


class TrainerHandler(BaseHTTPRequestHandler):
    """Routes a request to its handler; answers JSON (the page excepted), errors included."""

    server: TrainerServer
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        """A GET request."""
        self._dispatch("GET")

    def do_POST(self) -> None:  # noqa: N802
        """A POST request."""
        self._dispatch("POST")

    def do_PUT(self) -> None:  # noqa: N802
        """Not used: 405."""
        self._dispatch("PUT")

    def do_DELETE(self) -> None:  # noqa: N802
        """Not used: 405."""
        self._dispatch("DELETE")

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (http.server's signature)
        """Quiet: the terminal shows the URL and errors only."""

    def _dispatch(self, method: str) -> None:
        url = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        try:
            route, match = _route(method, url.path)
            if route is None:
                self.close_connection = True
                self._send_json(HTTPStatus.NOT_FOUND if match is None else HTTPStatus.METHOD_NOT_ALLOWED,
                                {"error": f"no {method} {url.path}" if match is None else
                                 f"{url.path} does not answer {method}"})
                return
            body = self._body() if method == "POST" else {}
            status, data = route(self.server, match.groupdict(), query, body)
            if isinstance(data, bytes):
                self._send(status, data, "text/html; charset=utf-8")
            else:
                self._send_json(status, data)
        except (NotFound, Conflict, InputError, _TooLarge) as error:
            self.close_connection = True  # a body may be left unread: the connection is not reused
            self._send_json(_ERROR_STATUS.get(type(error), HTTPStatus.BAD_REQUEST), {"error": str(error)})
        except Exception as error:  # noqa: BLE001 (the server must outlive any request)
            self.close_connection = True
            print(f"mahjong-poker train: {method} {url.path} failed: {error!r}", file=sys.stderr)
            self._send_json(HTTPStatus.INTERNAL_SERVER_ERROR, {"error": f"internal error: {error}"})

    def _body(self) -> dict:
        """The request's JSON object (empty when there is no body)."""
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            raise InputError("Content-Length is not a number") from None
        if length > MAX_BODY:
            # Read what a client may send before it reads the answer (else it could see the connection reset
            # instead of this 413); beyond that the connection closes on the rest.
            left = min(length, MAX_DRAINED)
            while left > 0 and (chunk := self.rfile.read(min(left, 65536))):
                left -= len(chunk)
            raise _TooLarge(f"a request body holds at most {MAX_BODY} bytes, not {length}")
        raw = self.rfile.read(length) if length > 0 else b""
        if not raw.strip():
            return {}
        try:
            data = json.loads(raw)
        except (UnicodeDecodeError, ValueError) as error:
            raise InputError(f"the body is not JSON: {error}") from None
        if not isinstance(data, dict):
            raise InputError("the body must be a JSON object")
        return data

    def _send_json(self, status: int, data: Any) -> None:
        self._send(status, json.dumps(data, allow_nan=False).encode(), "application/json")

    def _send(self, status: int, payload: bytes, kind: str) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(payload)))
            self.send_header("Cache-Control", "no-store")
            if self.close_connection:
                self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(payload)
        except OSError:
            self.close_connection = True  # the client went away: nothing to answer


class _TooLarge(Exception):
    """A request body over :data:`MAX_BODY` (HTTP 413)."""


_ERROR_STATUS = {NotFound: HTTPStatus.NOT_FOUND, Conflict: HTTPStatus.CONFLICT,
                 _TooLarge: HTTPStatus.REQUEST_ENTITY_TOO_LARGE}


Route = Callable[[TrainerServer, dict, dict, dict], tuple[int, Any]]


def _route(method: str, path: str) -> tuple[Route | None, re.Match | None]:
    """The handler of ``method`` at ``path``; (None, match) when the path is known but not the method,
    (None, None) when it is unknown."""
    known = None
    for pattern, handlers in ROUTES:
        match = re.fullmatch(pattern, path)
        if match:
            known = match
            if method in handlers:
                return handlers[method], match
    return None, known


def _page(server: TrainerServer, params: dict, query: dict, body: dict) -> tuple[int, Any]:
    return HTTPStatus.OK, server.page


def _info(server: TrainerServer, params: dict, query: dict, body: dict) -> tuple[int, Any]:
    return HTTPStatus.OK, server.info()


def _create_session(server: TrainerServer, params: dict, query: dict, body: dict) -> tuple[int, Any]:
    _only(body, {"seed", "mode", "thresholds", "chip_value"})
    seed = body.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63):
        raise InputError(f"the seed is a whole number from 0 to 2^63 - 1, not {seed!r}")
    thresholds = body.get("thresholds") or {}
    if not isinstance(thresholds, dict):
        raise InputError("thresholds must be a JSON object: {\"minor\": 0.02, \"major\": 0.1}")
    chips = _chip_value(body.get("chip_value", 10.0))
    mode = body.get("mode", WHOLE_HANDS)
    if mode not in MODES:
        raise InputError(f"unknown mode {mode!r}: one of {', '.join(MODES)}")
    session = server.store.create(seed, mode, Thresholds().with_values(thresholds))
    session.chip_value = chips
    return HTTPStatus.CREATED, session.to_json(session.thresholds)


def _get_session(server: TrainerServer, params: dict, query: dict, body: dict) -> tuple[int, Any]:
    session = server.store.get(params["session"])
    with session.lock:
        return HTTPStatus.OK, session.to_json(_thresholds(session, query))


def _new_hand(server: TrainerServer, params: dict, query: dict, body: dict) -> tuple[int, Any]:
    _only(body, {"mode", "bonus", "chip_value"})
    session = server.store.get(params["session"])
    bonus = body.get("bonus", 0.0)
    if isinstance(bonus, bool) or not isinstance(bonus, int | float) or not math.isfinite(bonus) or bonus < 0:
        raise InputError(f"the bonus bet is a finite number of units of T, not negative, not {bonus!r}")
    mode = body.get("mode")
    if mode is not None and mode not in MODES:
        raise InputError(f"unknown mode {mode!r}: one of {', '.join(MODES)}")
    chips = _chip_value(body.get("chip_value", session.chip_value))
    with session.lock:
        hand = session.new_hand(mode, float(bonus))
        session.chip_value = chips
        return HTTPStatus.CREATED, session.hand_json(hand, chips, _thresholds(session, query))


def _get_hand(server: TrainerServer, params: dict, query: dict, body: dict) -> tuple[int, Any]:
    session = server.store.get(params["session"])
    with session.lock:
        hand = session.hand(int(params["hand"]))
        return HTTPStatus.OK, session.hand_json(hand, session.chip_value, _thresholds(session, query))


def _decide(server: TrainerServer, params: dict, query: dict, body: dict) -> tuple[int, Any]:
    _only(body, {"stage", "action", "discard", "bet"})
    session = server.store.get(params["session"])
    stage, choice = _choice(body, session)
    with session.lock:
        grade = session.decide(int(params["hand"]), stage, choice)
        thresholds = _thresholds(session, query)
        hand = session.hand(grade.hand)
        return HTTPStatus.OK, {"grade": grade.to_json(session.grader, thresholds),
                               "hand": session.hand_json(hand, session.chip_value, thresholds),
                               "score": session.score(thresholds)}


def _hint(server: TrainerServer, params: dict, query: dict, body: dict) -> tuple[int, Any]:
    session = server.store.get(params["session"])
    with session.lock:
        play = session.hint(int(params["hand"]))
        geometry = session.config.geometry
        return HTTPStatus.OK, {"hand": int(params["hand"]), "stage": play.state.stage.value,
                               "best": option_json(play, play.best, geometry), "why": why(play, geometry)}


def _choice(body: dict, session: Session) -> tuple[str, Choice]:
    """The decision a request body names: its stage and the choice (checked against the hand later)."""
    stage, action = body.get("stage"), body.get("action")
    if not isinstance(stage, str) or not isinstance(action, str):
        raise InputError('a decision names its "stage" (deal, draw or ting) and its "action" '
                         "(claim, discard, fold or bet)")
    discard = body.get("discard", [])
    if not isinstance(discard, list) or not all(isinstance(c, str) for c in discard):
        raise InputError('"discard" is a list of card names, e.g. ["1m", "J"]')
    bet = body.get("bet", 0.0)
    if isinstance(bet, bool) or not isinstance(bet, int | float) or not math.isfinite(bet):
        raise InputError(f'"bet" is a number, not {bet!r}')
    cards = parse_cards(" ".join(discard), session.config.geometry) if discard else ()
    return stage, Choice(action, cards, float(bet))


def _thresholds(session: Session, query: dict) -> Thresholds:
    """The session's thresholds, with those the query string gives put in."""
    return session.thresholds.with_values({k: v for k, v in query.items() if k in ("exact", "minor", "major")})


def _chip_value(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value <= 0:
        raise InputError(f"chip_value (chips per T) is a positive number, not {value!r}")
    return float(value)


def _only(body: dict, keys: set[str]) -> None:
    """Refuse a body naming a field this request does not read (a typo would otherwise pass unseen)."""
    unknown = sorted(set(body) - keys)
    if unknown:
        raise InputError(f"unknown field {unknown[0]!r}: this request reads {', '.join(sorted(keys))}")


ROUTES: list[tuple[str, dict[str, Route]]] = [
    (r"/", {"GET": _page}),
    (r"/api/info", {"GET": _info}),
    (r"/api/sessions", {"POST": _create_session}),
    (_SESSION, {"GET": _get_session}),
    (_SESSION + r"/hands", {"POST": _new_hand}),
    (_HAND, {"GET": _get_hand}),
    (_HAND + r"/decisions", {"POST": _decide}),
    (_HAND + r"/hint", {"POST": _hint}),
]


def make_server(config: GameConfig, tables: Path | None, host: str = "127.0.0.1", port: int = 0,
                seed: int | None = None, config_file: str | None = None, chart: ChartPlayer | None = None
                ) -> TrainerServer:
    """A trainer server bound to ``host``:``port`` (0: a free port), not yet serving; ``chart``: the chart
    shown beside each deal and draw grade."""
    try:
        return TrainerServer((host, port), config, tables, seed, config_file, chart)
    except OSError as error:
        raise InputError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
