"""Best play for a given hand: parse what the player typed, evaluate, explain.

The CLI's ``best`` command is a thin wrapper over :func:`best_play`.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from solver.errors import InputError
from solver.game.cards import DeckGeometry, counts_of, format_cards, parse_cards
from solver.game.combinatorics import remove_cards, submultisets
from solver.game.config import GameConfig
from solver.game.hu_plain import hu_level_plain
from solver.game.objective import Objective
from solver.game.options import TIE_TOLERANCE, Option, Stage, best_index
from solver.game.state import State, validate_state
from solver.game.symmetry import Relabelling, canonical, encode, inverse
from solver.runtime.jit import interpreted


@dataclass(frozen=True)
class BestPlay:
    """Every option at a decision, the index of the best, and what its kept cards aim at."""

    state: State
    options: list[Option]
    best: int
    aim: str
    source: str = "evaluator"
    """Where the EVs came from: ``tables`` (a solve's lookup) or ``evaluator`` (computed now)."""
    walked: int = 0
    """From ``tables``: how many holds of the state the solve had left out (:func:`_walked_now`), walked now."""
    odds: dict | None = None
    """At the ting: the outs and the last two cards' winning pairs (:func:`ting_odds`)."""
    best_unshown: int | None = None
    """With cards other seats showed (``state.shown``): the option that is best without them, as a player
    who ignores them (or a solve's tables) would choose; its EV in ``options`` counts the shown cards."""

    tables: str | None = None
    """From ``tables``: the folder of the solve's tables that gave the EVs."""

    def listing_order(self) -> list[int]:
        """The options' indexes as ``best`` lists them: the best first, then by EV, options tied with the one
        before (to 1e-12) in their own order, so that the tables and the evaluator, whose EVs of tied options
        differ in the last bits, list them alike."""
        evs = [o.ev for o in self.options]
        by_ev = sorted(range(len(evs)), key=lambda i: -evs[i])
        group, groups = 0, {}
        for before, i in zip([None, *by_ev], by_ev):
            group += before is not None and evs[before] - evs[i] > TIE_TOLERANCE
            groups[i] = group
        return sorted(range(len(evs)), key=lambda i: (i != self.best, groups[i], i))

    def to_json(self, geometry: DeckGeometry) -> dict:
        """The ``best --json`` object: the decision asked about, the options best first as the table lists them
        (action, discard, bet, ev, and ``index``, the option's place in the fixed order of the Python API and
        the trainer), ``best`` (the best's place in that list: 0), where the EVs came from, what the best
        play's kept cards aim at (at the ting: its odds, also as numbers)."""
        state, order = self.state, self.listing_order()

        def names(cards: Sequence[int]) -> list[str]:
            return [geometry.card_name(c) for c in cards]

        def option(i: int) -> dict:
            o = self.options[i]
            return {"action": o.action, "discard": names(o.discard), "bet": o.bet, "ev": o.ev, "index": i}

        return {
            "stage": state.stage.value, "hand": names(state.hand), "dead": names(state.dead),
            "community": names(state.community), "double_down": state.double_down, "fa_bet": state.fa_bet,
            "bonus": state.bonus,
            "options": [option(i) for i in order],
            "best": 0,
            "source": self.source,
            "aim": self.aim,
        } | ({"tables": self.tables} if self.tables else {}) | ({"walked": self.walked} if self.walked else {}) | (
            {} if self.odds is None else {"ting": self.odds}) | (
            {} if self.best_unshown is None else
            {"shown": names(state.shown), "best_without_shown": order.index(self.best_unshown)})


def describe_option(option: Option, stage: Stage, geometry: DeckGeometry, throw: str = "discard") -> str:
    """An option in words: 'discard 57s, double down', 'bet F = 1, discard 57s', 'bet G = 3', 'fold'
    (``throw``: the verb for the thrown cards, 'throw' on the trainer's page)."""
    cards = format_cards(option.discard, geometry)
    if option.action == "discard":
        return f"{throw} {cards}, " + ("double down" if option.bet else "no double-down")
    if option.action == "bet":
        name = "G" if stage == Stage.TING else "F"
        return f"bet {name} = {option.bet:g}" + (f", {throw} {cards}" if cards else "")
    return {"claim": "claim the hu", "fold": "fold"}[option.action]


def infer_stage(n_hand: int, has_dead: bool, has_community: bool) -> Stage:
    """The stage implied by what was given (6 cards: deal, or draw with dead cards; community: ting)."""
    if has_community:
        return Stage.TING
    if has_dead:
        return Stage.DRAW if n_hand == 6 else Stage.TING
    if n_hand == 6:
        return Stage.DEAL
    raise InputError(f"cannot tell the stage from {n_hand} hand card{'' if n_hand == 1 else 's'}: give 6 cards "
                     "(deal, or draw with --dead), or 4 with --dead and --community (ting)")


def describe_hold(cards: tuple[int, ...], geometry: DeckGeometry, unseen: Sequence[int] | None = None) -> str:
    """What a group of kept cards is aiming at, in card-pattern words; with ``unseen`` (copies left of each
    suited card), a run's needed cards of which none is left are named as gone."""
    parts: list[str] = []
    suited = [c for c in cards if c != geometry.joker]
    jokers = len(cards) - len(suited)
    for t in sorted(set(suited)):
        n = suited.count(t)
        if n >= 2:
            parts.append(f"{'triplet' if n >= 3 else 'pair'} {geometry.card_name(t)}")
    distinct = sorted(set(suited))
    in_run: set[int] = set()
    for a in distinct:
        if a + 1 in distinct and a + 2 in distinct and geometry.suit_of(a) == geometry.suit_of(a + 2):
            parts.append(f"run {format_cards((a, a + 1, a + 2), geometry)}")
            in_run.update((a, a + 1, a + 2))
    for i, a in enumerate(distinct):
        for b in distinct[i + 1:]:
            if geometry.suit_of(a) != geometry.suit_of(b) or b - a > 2 or {a, b} <= in_run:
                continue
            suit = geometry.suit_of(a)
            ends = [x for x in (a - 1, b + 1) if 0 <= x < geometry.n_suited and geometry.suit_of(x) == suit]
            needed = [a + 1] if b - a == 2 else ends
            parts.append(f"run {format_cards((a, b), geometry)} {_needs(needed, geometry, unseen)}")
    if jokers:
        parts.append("joker" if jokers == 1 else f"{jokers} jokers")
    return ", ".join(parts) if parts else "no pair or partial set"


def unseen_copies(seen: tuple[int, ...], geometry: DeckGeometry) -> list[int]:
    """The copies of each suited card not among ``seen``, without numpy (a table query imports none)."""
    left = [geometry.copies_in_play] * geometry.n_suited
    for card in seen:
        if card < geometry.n_suited:
            left[card] -= 1
    return left


def _needs(cards: list[int], geometry: DeckGeometry, unseen: Sequence[int] | None) -> str:
    """'needs 1p or 4p', leaving out (and naming) the cards of which no copy is left unseen."""
    live = [c for c in cards if unseen is None or unseen[c] > 0]
    gone = [geometry.card_name(c) for c in cards if c not in live]
    text = f"needs {' or '.join(geometry.card_name(c) for c in live)}" if live else "is dead"
    return text + (f" ({' and '.join(gone)} all seen)" if gone else "")


def best_play(hand: str, config: GameConfig, stage: str | None = None, dead: str = "", community: str = "",
              double_down: float = 0.0, fa_bet: float = 0.0, bonus: float = 0.0,
              progress: Callable[[int, int], None] | None = None, n_jobs: int = 1,
              tables: str | Path | None = None, shown: str = "") -> BestPlay:
    """Evaluate every option for a hand given in MPSZ notation (see ``mahjong-poker best --help``).

    The state is first mapped to its canonical form (:mod:`solver.game.symmetry`),
    valued there, and the options mapped back. From a solve's ``tables`` a
    deal or draw decision is 15 lookups (stage C's first holds, or stage A's
    holds); the evaluator computes the same EVs (to 1e-12) from scratch.
    Cards other seats ``shown`` are dead to the player: the evaluator values
    every option with them (the tables cannot), and ``best_unshown`` says
    which option is best without them.
    """
    geometry = config.geometry
    hand_cards = parse_cards(hand, geometry)
    dead_cards = parse_cards(dead, geometry) if dead else ()
    community_cards = parse_cards(community, geometry) if community else ()
    shown_cards = parse_cards(shown, geometry) if shown else ()
    inferred = infer_stage(len(hand_cards), bool(dead_cards), bool(community_cards))
    chosen = Stage(stage) if stage else inferred
    if stage and chosen != inferred and not (chosen == Stage.TING and len(hand_cards) == 4):
        raise InputError(f"{len(hand_cards)} hand cards with the cards given make a {inferred.value}-stage hand, "
                         f"not {chosen.value}")
    # A ting decision takes a few hundred hu tests: plain Python does them sooner than numba starts.
    with interpreted() if chosen == Stage.TING else nullcontext():
        state = State(chosen, hand_cards, dead_cards, community_cards, double_down, fa_bet, bonus, shown_cards)
        if not shown_cards:
            return _best_play(state, config, progress, n_jobs, tables)
        validate_state(state, config)  # refused before the longer evaluation starts
        unshown = _best_play(replace(state, shown=()), config, progress, n_jobs, tables)
        return replace(_best_play(state, config, progress, n_jobs, None), best_unshown=unshown.best)


def _best_play(state: State, config: GameConfig, progress: Callable[[int, int], None] | None, n_jobs: int,
               tables: str | Path | None) -> BestPlay:
    geometry = config.geometry
    state = validate_state(state, config)
    (c_hand, c_dead, c_community, c_shown), mapping = canonical(geometry, state.hand, state.dead, state.community,
                                                                 state.shown)
    c_state = replace(state, hand=c_hand, dead=c_dead, community=c_community, shown=c_shown)
    walked: list[int] = []
    options = _from_tables(Path(tables), c_state, config, walked) if tables is not None else None
    source = "tables" if options is not None else "evaluator"
    if state.stage == Stage.TING:
        from solver.evaluator.api import ting_options, ting_state_outcomes

        # counted once, for the options and for the explanation
        outcomes = ting_state_outcomes(c_state, config)
        options = ting_options(c_state, config, outcomes)
    elif options is None:
        from solver.evaluator.api import evaluate

        options = evaluate(c_state, config, progress=progress, n_jobs=n_jobs)
    # Ties go to the first option in the canonical form's order, so the choice does not depend on how
    # the suits happen to be labelled, and matches the solve's (which works on canonical states).
    options, best = _relabel(options, best_index(options), inverse(mapping), state)
    folder = str(tables) if source == "tables" else None
    if state.stage == Stage.TING:
        odds = ting_odds(c_state, config, outcomes)
        return BestPlay(state, options, best, describe_ting(odds), source, odds=odds, tables=folder)
    kept = remove_cards(state.hand, options[best].discard)
    unseen = unseen_copies(state.hand + state.dead + state.shown + state.community, geometry)
    return BestPlay(state, options, best, describe_hold(kept, geometry, unseen), source, walked=len(walked),
                    tables=folder)


def ting_odds(state: State, config: GameConfig, outcomes: tuple[int, int, float, int]) -> dict:
    """The ting decision in the chart's terms: the ``outs`` (unseen cards that complete a hu using a hand card
    with any second card) among the ``unseen`` suited cards, and of the ``pairs`` the last two cards can be,
    the ``winning`` ones and the ``flush`` wins among them (from the state's
    :func:`solver.evaluator.api.ting_state_outcomes`)."""
    from solver.game.hu import hu_level_with_hand
    from solver.game.state import unseen_suited

    geometry = config.geometry
    hand, community = counts_of(state.hand, geometry), counts_of(state.community, geometry)
    unseen = unseen_suited(state.hand + state.dead + state.shown + state.community, config)
    outs = 0
    for card in range(len(unseen)):
        if unseen[card]:
            community[card] += 1
            outs += int(unseen[card]) if hu_level_with_hand(hand, community, geometry) else 0
            community[card] -= 1
    n_hu, n_flush, _, total = outcomes
    return {"outs": outs, "unseen": int(unseen.sum()), "pairs": int(total), "winning": int(n_hu + n_flush),
            "flush": int(n_flush)}


def describe_ting(odds: dict) -> str:
    """:func:`ting_odds` in words, with the exact chance that the last two cards win."""
    return (f"{odds['outs']} outs among {odds['unseen']} unseen cards; the last two cards win with probability "
            f"{odds['winning'] / odds['pairs']:.4f} ({odds['winning']} of {odds['pairs']} pairs, {odds['flush']} "
            "with a flush hu)")


#: The table a deal or a draw decision is read from.
STAGE_TABLES = {Stage.DEAL: "firsts.parquet", Stage.DRAW: "holds.parquet"}


def _from_tables(directory: Path, state: State, config: GameConfig, walked: list[int]) -> list[Option] | None:
    """Options of a canonical deal or draw state from a solve's tables (None at the ting decision, which
    the tables do not hold, and when the stage's table is not there); the keys of the stage-A rows the solve
    left out and :func:`_walked_now` walked go to ``walked``."""
    try:
        return _read_tables(directory, state, config, walked)
    except InputError:
        raise
    except (OSError, ValueError, KeyError) as error:  # a missing or damaged parquet file (pyarrow's errors)
        raise InputError(f"cannot read the tables in {directory}: {error}") from None


def _read_tables(directory: Path, state: State, config: GameConfig, walked: list[int]) -> list[Option] | None:
    from solver.tables.files import bound_below_folding, bounded_stage_a, check_tables, lookup, solve_command
    from solver.tables.index import IndexDamaged, open_index

    # The index answers without pyarrow. It is built only for tables made for this solve (checked from
    # the parquet files first), and not for a ting decision, which the tables do not hold.
    index = open_index(directory, build=False) if (directory / "summary.parquet").exists() else None
    check_tables(directory, config, Objective(state.bonus), index.metadata() if index else None)
    if state.stage == Stage.TING:
        return None  # ting decisions are computed directly (a few hundred hu tests)
    if not (directory / STAGE_TABLES[state.stage]).exists():
        return None  # the committed real-deck tables leave out holds.parquet: the evaluator answers
    if index is None:
        index = open_index(directory)

    def from_parquet(table: str, key: int) -> tuple[float, ...] | None:
        if not (directory / f"{table}.parquet").exists():
            raise InputError(f"{directory} has no {table}.parquet (the solve's large table, not committed): "
                             f"run {solve_command(directory, Objective(state.bonus))} to make it")
        row = lookup(directory / f"{table}.parquet", key)
        if row is None or row.get("bound"):  # a row left out below folding holds a bound, not its value
            return None
        return tuple(row["evs"]) if table == "holds" else (row["ev"], row["ev_dd"])

    @cache
    def leaves_rows_out() -> bool:  # a bounded variant's stage A, or one that left out rows below folding
        return bounded_stage_a(directory) or bound_below_folding(directory)

    def values(table: str, key: int) -> tuple[float, ...]:
        found, indexed = None, False
        if index is not None:
            with contextlib.suppress(IndexDamaged):  # deleted, to be built again; the parquet files answer
                found, indexed = index.lookup(table, key), True
        left_out = found is None and table == "holds" and leaves_rows_out()  # its metadata read only then
        if found is None and not (indexed and left_out):  # the index holds every row walked
            found = from_parquet(table, key)
        if found is None and left_out:
            walked.append(key)
            return _walked_now(config, state.bonus, key)
        if found is None:
            raise InputError(f"the tables in {directory} lack a state every solve holds: they are damaged")
        return found

    return (_deal_options if state.stage == Stage.DEAL else _draw_options)(state, config, values)


def _walked_now(config: GameConfig, bonus: float, key: int) -> tuple[float, ...]:
    """The EVs (one per fa-hu bet) of a stage-A row that a solve left out, walked now by the solve's own walk
    (:func:`solver.staged.holds.walk`, whose kernels the solve compiled): what ``solve --whole`` writes for it,
    bit for bit. A solve leaves out the rows that cannot beat folding, and a bounded paytable variant those that
    can be no state's best: no decision reads them, but ``best`` lists every option with its EV."""
    import numpy as np

    from solver.game.payouts import TingConstants
    from solver.staged.forward import decode_rows
    from solver.staged.holds import hold_columns, walk

    geometry = config.geometry
    hold, dead = decode_rows(np.array([key], np.int64), geometry.n_types, (4, 4))
    constants = TingConstants.of(config, bonus)
    columns = hold_columns(counts_of(tuple(int(c) for c in hold[0]), geometry), config, constants)
    return tuple(float(v) for v in walk(columns, dead, config, constants)[0, :len(config.fa_hu_bets)])


def _deal_options(state: State, config: GameConfig, values: Callable[[str, int], tuple[float, ...]]) -> list[Option]:
    """The deal decision's options in the evaluator's order (claim, each discard without, then with DD),
    each discard read from stage C by the canonical key of (kept, thrown)."""
    geometry = config.geometry
    options = []
    level = hu_level_plain(state.hand, geometry)
    if level:
        options.append(Option("claim", (), 0.0, config.tian_hu_flush if level == 2 else config.tian_hu, 1.0))
    discards = submultisets(state.hand, 2)
    evs = [values("firsts", encode(geometry, *canonical(geometry, remove_cards(state.hand, d), d)[0]))
           for d in discards]
    for k, dd in enumerate((0.0, config.double_down)):
        options += [Option("discard", d, dd, ev[k], 1.0 + dd) for d, ev in zip(discards, evs)]
    return options


def _draw_options(state: State, config: GameConfig, values: Callable[[str, int], tuple[float, ...]]) -> list[Option]:
    """The draw decision's options in the evaluator's order (claim, fold, each bet F with each hold),
    each hold read from stage A by the canonical key of (hold, the four dead cards)."""
    geometry = config.geometry
    dd = state.double_down
    options = []
    level = hu_level_plain(state.hand, geometry)
    if level:
        options.append(Option("claim", (), 0.0, (1.0 + dd) * (config.di_hu_flush if level == 2 else config.di_hu),
                              1.0 + dd))
    options.append(Option("fold", (), 0.0, -1.0 - dd, 1.0 + dd))
    holds = submultisets(state.hand, 4)
    thrown = [remove_cards(state.hand, hold) for hold in holds]
    evs = [values("holds", encode(geometry, *canonical(geometry, hold, tuple(sorted(t + state.dead)))[0]))
           for hold, t in zip(holds, thrown)]
    for b, fa in enumerate(config.fa_hu_bets):
        options += [Option("bet", t, fa, ev[b] - dd, 1.0 + dd + fa) for t, ev in zip(thrown, evs)]
    return options


def _relabel(options: list[Option], best: int, mapping: Relabelling, state: State) -> tuple[list[Option], int]:
    """Options of a relabelled state mapped back through ``mapping``, in the canonical order of ``state``,
    and where the option ``best`` went.

    That order is the evaluator's: claim, fold, then by bet and by the
    cards discarded (deal) or kept (draw) in lexicographic order.
    """
    mapped = [replace(o, discard=tuple(sorted(mapping[c] for c in o.discard))) for o in options]
    first = {"claim": 0, "fold": 1}

    def order(option: Option) -> tuple:
        cards = option.discard if state.stage == Stage.DEAL else remove_cards(state.hand, option.discard)
        return (first.get(option.action, 2), option.bet, cards)

    positions = sorted(range(len(mapped)), key=lambda i: order(mapped[i]))
    return [mapped[i] for i in positions], positions.index(best)


def stderr_progress(label: str) -> Callable[[int, int], None] | None:
    """A one-line progress report with ETA on standard error, or None when it is not a terminal. The ETA
    is at the rate since the first report: the time before it (starting the workers, loading, compiling) is
    spent once, and counted in would put the first ETAs many times too far."""
    if not sys.stderr.isatty():
        return None
    start = time.monotonic()
    first: list[tuple[float, int]] = []  # the first report's time and count

    def report(done: int, total: int) -> None:
        now = time.monotonic()
        if not first:
            first.append((now, done))
        since, counted = first[0]
        eta = f", ETA {(now - since) / (done - counted) * (total - done):.0f} s" if done > counted else ""
        end = "\n" if done == total else ""
        # \x1b[K clears what a longer line before left at the end
        print(f"\r{label}: {done}/{total} ({100 * done / total:.0f}%), {now - start:.0f} s{eta}\x1b[K",
              end=end, file=sys.stderr, flush=True)

    return report
