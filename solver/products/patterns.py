"""Hold patterns and chart rules: what a person's strategy says, and which options it plays.

A **hold pattern** names kept cards in card-pattern words
(:func:`hold_pattern`) or by their rank shapes (:func:`shape_pattern`), in
either case without the suits' names or the direction of the ranks, so a rule written
with them means the same for a hand and for every relabelling of it (the
solve works on canonical forms). A **ranked list** of rules, each a pattern
with its bet or an action (claim the hu, fold), plays the first rule the
hand allows; where several discards keep the rule's pattern it plays each
of them with equal probability (a person told only the pattern could take
any, unless dead cards tell them apart: see below). :class:`ChartRules` is
such a strategy for the deal and the draw, in a form the solve can follow
(see :mod:`solver.game.objective`).

**Dead cards touching the hold.** What a kept group is worth depends on
the cards it still needs, and a card the player has thrown (earlier, or
with this very discard) is one the deck no longer holds. A chart says so in
a way a person can count: a dead card *touches* the kept cards when it is a
copy of a kept card, or of the same suit one rank away from one (jokers
neither touch nor are touched). A line may
be limited to holds with no such card, or at most one, and wherever several
discards keep a line's pattern the player keeps the one with the fewest
dead cards touching.

**Nearest the middle.** Where that still leaves several discards, the
player keeps the cards nearest the middle rank: the smallest *spread*, the
sum of each kept suited card's distance from the middle rank (jokers count
nothing). A middle card joins runs in more ways than an end card, so this
is the better hold far more often than not: on the real deck it cuts what
the charts lose to discards they cannot tell apart by half or more. Each of
the discards left is equally likely.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import combinations_with_replacement
from typing import Any

import numpy as np

from solver.game.cards import DeckGeometry
from solver.game.combinatorics import remove_cards
from solver.game.options import Option

CLAIM = "claim the hu"
FOLD = "fold"
PSEUDO = (CLAIM, FOLD)
"""Entries of a ranked list that are actions rather than hold patterns."""


WORDS = ("four of a kind", "triplet", "pair", "end pair", "suited four-run", "suited run", "suited open connector",
         "suited edge connector", "suited one-gap", "joker", "suited odd middle card", "suited odd end card",
         "odd middle card", "odd end card")
"""Every word of a hold pattern, in the order a pattern lists them."""


def _words(suited: list[int], jokers: int, geometry: DeckGeometry, upward: bool) -> list[str]:
    """One reading of the kept cards: relations among single cards are taken greedily, scanning the
    ranks up (``upward``) or down."""

    def at_end(t: int) -> bool:
        return geometry.rank_of(t) in (1, geometry.ranks)

    words: list[str] = []
    counts = {t: suited.count(t) for t in sorted(set(suited))}
    for t, n in counts.items():
        if n >= 3:
            words.append("triplet" if n == 3 else "four of a kind")
        elif n == 2:
            words.append("end pair" if at_end(t) else "pair")
    # Suited relations among the single cards, each card used once: four-card runs, runs, connectors, one-gaps.
    left = {t for t, n in counts.items() if n == 1}
    step = 1 if upward else -1
    for name, gaps in (("suited four-run", (1, 1, 1)), ("suited run", (1, 1)), ("suited connector", (1,)),
                       ("suited one-gap", (2,))):
        for t in sorted(left, reverse=not upward):
            chain = [t]
            for gap in gaps:
                nxt = chain[-1] + step * gap
                if nxt in left and geometry.suit_of(nxt) == geometry.suit_of(t):
                    chain.append(nxt)
            if len(chain) == len(gaps) + 1 and set(chain) <= left:
                if name == "suited connector":  # open-ended (two ranks complete it) or at an edge (one)
                    open_ended = not at_end(chain[0]) and not at_end(chain[-1])
                    words.append("suited open connector" if open_ended else "suited edge connector")
                else:
                    words.append(name)
                left -= set(chain)
    words += ["joker"] * jokers
    suits_kept = [geometry.suit_of(t) for t in suited]
    for t in sorted(left):
        word = "odd end card" if at_end(t) else "odd middle card"
        words.append("suited " + word if suits_kept.count(geometry.suit_of(t)) > 1 else word)
    return sorted(words, key=WORDS.index)


@lru_cache(maxsize=1 << 16)
def hold_pattern(cards: tuple[int, ...], geometry: DeckGeometry) -> str:
    """Card-pattern words for a group of kept cards, e.g. ``pair + suited open connector, in two suits``.

    The words do not depend on the suits' names or on the direction of the
    ranks: triplets and pairs (an *end* pair is of the lowest or highest
    rank), suited four-card runs and runs, suited connectors (*open*: two
    ranks complete a run; *edge*: one), suited one-gaps, jokers, and the odd
    cards left (*end* or *middle* rank; *suited* when another kept card has
    its suit). With three or more suited cards kept, the pattern ends with
    the number of suits they span (``in one suit``): a pair of the suit of a
    connector joins runs a pair of another suit cannot, and on the real
    deck this nearly halves what the draw list loses.
    Repeated words are counted: ``2 pairs``. Where reading the ranks up and
    down groups the cards differently (``1234m``: run 123 and odd 4, or run
    234 and odd 1), the reading that lists the earlier words of
    :data:`WORDS` is taken, so a hand and its rank reversal read alike.
    """
    suited = sorted(c for c in cards if c != geometry.joker)
    jokers = len(cards) - len(suited)
    readings = [_words(suited, jokers, geometry, upward) for upward in (True, False)]
    words = min(readings, key=lambda w: [WORDS.index(x) for x in w])
    counted = [(w, words.count(w)) for w in WORDS if w in words]
    text = " + ".join(w if n == 1 else f"{n} {w}s" for w, n in counted) if counted else "nothing"
    if len(suited) >= 3:
        spanned = len({geometry.suit_of(c) for c in suited})
        text += f", in {SUIT_COUNTS[spanned]} suit{'s' if spanned > 1 else ''}"
    return text


SUIT_COUNTS = {1: "one", 2: "two", 3: "three", 4: "four"}


END_CLASSES = 2
"""How near an end a shape's lowest and highest cards are told apart: at an end rank, next to one, or
further (capped here)."""


def _suit_shape(ranks: list[int], n_ranks: int) -> str:
    """One suit's kept ranks as a shape: the digits of the placement, read upwards or downwards, that
    is lowest while keeping how near the ends (up to :data:`END_CLASSES`) its lowest and highest
    cards lie; of the two directions the one with its nearer end first, then the larger groups first."""
    best: tuple | None = None
    for placed in (ranks, sorted(n_ranks + 1 - r for r in ranks)):
        low, high = min(placed[0] - 1, END_CLASSES), min(n_ranks - placed[-1], END_CLASSES)
        distinct = sorted(set(placed))
        key = (low, high, tuple(-placed.count(r) for r in distinct),
               tuple(b - a for a, b in zip(distinct, distinct[1:])), placed)
        if best is None or key < best:
            best = key
    assert best is not None
    low, high, placed = best[0], best[1], best[-1]
    span = placed[-1] - placed[0]
    start = low + 1 if low < END_CLASSES else (n_ranks - high - span if high < END_CLASSES else END_CLASSES + 1)
    return "".join(str(r - placed[0] + start) for r in placed)


@lru_cache(maxsize=1 << 16)
def shape_pattern(cards: tuple[int, ...], geometry: DeckGeometry) -> str:
    """Rank shapes for a group of kept cards, one per suit, e.g. ``2234 + 3 + J``.

    Each suit's kept cards are written as digits (``+`` between suits, ``J``
    for each joker), placed as low as they can go while keeping how near
    the ends their lowest and highest cards are: at an end rank, next to
    one, or further. So ``1`` is a 1 or a 9, ``2`` a 2 or an 8, a lone ``3``
    any rank from 3 to 7, ``345`` any run from 345 to 567; and a shape may
    be read downwards (``2234`` is also ``6788``). The shape says every
    rank distance within a suit, which the words of :func:`hold_pattern`
    do not: on the real deck it cuts what the deal list loses from 0.0040
    to 0.0007 per hand and the draw list from 0.0083 to 0.0025
    (``docs/performance.md``), at the cost of many more lines.
    Relabelling suits, or reversing the ranks of any suit, keeps it.
    """
    suited = [c for c in cards if c != geometry.joker]
    shapes = sorted((_suit_shape(sorted(geometry.rank_of(c) for c in suited if geometry.suit_of(c) == s),
                                 geometry.ranks) for s in {geometry.suit_of(c) for c in suited}),
                    key=lambda text: (-len(text), text))
    jokers = len(cards) - len(suited)
    return " + ".join(shapes + (["J" * jokers] if jokers else []))


WORDINGS = {"patterns": hold_pattern, "shapes": shape_pattern}
"""How a chart names a hold: card-pattern words (few lines, easy to learn) or rank shapes (many
lines, far nearer optimal play)."""


DEFAULT_WORDS = "shapes"
"""What a chart uses unless told otherwise: the one that comes within the issue's bound on the real deck."""


def hold_words(cards: tuple[int, ...], geometry: DeckGeometry, words: str) -> str:
    """The name of a group of kept cards in the chart's ``words`` (a key of :data:`WORDINGS`)."""
    return WORDINGS[words](cards, geometry)


TOUCHING_LIMITS = (0, 1)
"""The limits a chart line may put on the dead cards touching its hold (besides none)."""


def dead_touching(kept: tuple[int, ...], dead: tuple[int, ...], geometry: DeckGeometry) -> int:
    """How many of the ``dead`` cards touch the ``kept`` ones: a copy of a kept suited card, or a card
    of its suit one rank away (jokers touch nothing). Relabelling suits or reversing ranks keeps it."""
    kept_suited = [c for c in kept if c != geometry.joker]
    return sum(1 for d in dead if d != geometry.joker and any(
        geometry.suit_of(d) == geometry.suit_of(k) and abs(geometry.rank_of(d) - geometry.rank_of(k)) <= 1
        for k in kept_suited))


def hold_spread(kept: tuple[int, ...], geometry: DeckGeometry) -> int:
    """Twice the summed distance of the kept suited cards from the middle rank (jokers: 0), so that
    it is an integer for an even number of ranks too; the smaller, the nearer the middle."""
    return sum(abs(2 * geometry.rank_of(c) - geometry.ranks - 1) for c in kept if c != geometry.joker)


def preferred(picked: list[int], touching: list[int], spread: list[int]) -> list[int]:
    """Of the options ``picked``, those with the fewest dead cards touching, and of those the ones
    nearest the middle (smallest spread)."""
    fewest = min(touching[i] for i in picked)
    picked = [i for i in picked if touching[i] == fewest]
    nearest = min(spread[i] for i in picked)
    return [i for i in picked if spread[i] == nearest]


def line_text(entry: str, max_touching: int | None) -> str:
    """A chart line as a person reads it: the pattern and its limit on dead cards touching."""
    if max_touching is None:
        return entry
    return entry + (", no dead card touching" if max_touching == 0 else
                    f", at most {max_touching} dead card{'s' if max_touching > 1 else ''} touching")


def option_entry(option: Option, hand: tuple[int, ...], geometry: DeckGeometry, words: str) -> str:
    """The entry of a ranked list that plays ``option``: its kept cards' name in ``words``, or the action."""
    if option.action == "claim":
        return CLAIM
    if option.action == "fold":
        return FOLD
    return hold_words(remove_cards(hand, option.discard), geometry, words)


PREFER = "fewest dead cards touching, then nearest the middle"
"""How a line chooses among the discards that keep its pattern (recorded with the rules, so that
tables made under another choice are never taken for these)."""

Line = tuple[str, float, int | None]
"""One line of a ranked list: entry (a hold pattern, or an action), bet, and the most dead cards
touching the hold it allows (``None``: any)."""


@dataclass(frozen=True)
class ChartRules:
    """A learnable strategy for the deal and the draw: each a ranked list of lines."""

    deal: tuple[Line, ...]
    draw: tuple[Line, ...]
    words: str = "patterns"
    """How the lines name holds (a key of :data:`WORDINGS`)."""

    def to_json(self) -> dict[str, Any]:
        """The rules as plain data (read back by :meth:`from_json`)."""
        data = {"deal": [list(r) for r in self.deal], "draw": [list(r) for r in self.draw], "prefer": PREFER}
        return data | ({"words": self.words} if self.words != "patterns" else {})  # pattern charts' digests stay

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ChartRules:
        """Rules from :meth:`to_json`'s data."""
        def lines(rows: list[list[Any]]) -> tuple[Line, ...]:
            return tuple((str(r[0]), float(r[1]), None if len(r) < 3 or r[2] is None else int(r[2])) for r in rows)
        return cls(lines(data["deal"]), lines(data["draw"]), data.get("words", "patterns"))

    def choices(self, stage: str, options: list[Option], hand: tuple[int, ...],
                geometry: DeckGeometry, dead: tuple[int, ...] = ()) -> list[int]:
        """Indices of the options the rules play at ``stage`` (each equally likely); empty when no rule
        applies (a hand whose patterns the chart never lists). ``dead``: the cards thrown before
        (none at the deal); each discard adds its own."""
        entries = [option_entry(o, hand, geometry, self.words) for o in options]
        touching = [0 if e in PSEUDO else dead_touching(remove_cards(hand, o.discard), dead + o.discard, geometry)
                    for e, o in zip(entries, options)]
        spread = [0 if e in PSEUDO else hold_spread(remove_cards(hand, o.discard), geometry)
                  for e, o in zip(entries, options)]
        lines = self._indexed[stage]
        none = len(self.deal if stage == "deal" else self.draw)
        # each option's first line (the lines of its entry and bet, in order), then the options of the first
        ranks = [next((place for place, limit in lines.get((e, None if e in PSEUDO else o.bet), ())
                       if limit is None or e in PSEUDO or touching[i] <= limit), none)
                 for i, (e, o) in enumerate(zip(entries, options))]
        first = min(ranks, default=none)
        return preferred([i for i, r in enumerate(ranks) if r == first], touching, spread) if first < none else []

    @cached_property
    def _indexed(self) -> dict[str, dict[tuple[str, float | None], list[tuple[int, int | None]]]]:
        """Per stage, (entry, bet; ``None`` for an action) -> the places and touching limits of its lines,
        in order: a chart in rank shapes has hundreds of lines, and the deal asks for every deal class."""
        out: dict[str, dict[tuple[str, float | None], list[tuple[int, int | None]]]] = {}
        for stage, lines in (("deal", self.deal), ("draw", self.draw)):
            out[stage] = {}
            for place, (entry, bet, limit) in enumerate(lines):
                out[stage].setdefault((entry, None if entry in PSEUDO else bet), []).append((place, limit))
        return out

    def draw_choices(self, holds: np.ndarray, thrown: np.ndarray, deads: np.ndarray, n_holds: np.ndarray,
                     level: np.ndarray, bets: tuple[float, ...], geometry: DeckGeometry
                     ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`choices` at the draw for many post-draw states at once, as (state, option) pairs in
        order of state, then option (the options in the canonical order: claim when ``level`` > 0, fold,
        then each bet of ``bets`` with each distinct hold); a state no line covers has no pair.

        ``holds`` (states, 15, 4) and ``thrown`` (states, 15, 2) are each state's distinct holds in
        lexicographic order (``n_holds`` of them; the rest of the rows are ignored) and the cards each
        throws; ``deads`` (states, 2) the cards thrown at the first discard.
        """
        table = pattern_table(geometry, self.words)
        n_claims = (np.asarray(level) > 0).astype(np.int64)
        n_holds = np.asarray(n_holds, np.int64)
        width = holds.shape[1]
        valid = np.arange(width)[None, :] < n_holds[:, None]
        dead = np.concatenate([thrown, np.repeat(deads[:, None, :], width, axis=1)], axis=2)
        touching = table.touching(holds, dead)
        rank, column = table.rank_table(self.draw, bets, dead.shape[2])
        none = len(self.draw)
        hold_rank = np.where(valid, rank[np.where(valid, table.pattern_ids(holds), 0), touching], none)
        claim_rank = np.where(n_claims == 1, rank[table.entry_id(CLAIM), 0], none)
        fold_rank = np.full(len(holds), rank[table.entry_id(FOLD), 0])
        first = np.minimum(np.minimum(hold_rank.min(axis=1), claim_rank), fold_rank)
        pseudo = (first < none) & ((first == claim_rank) | (first == fold_rank))
        candidates = (hold_rank == first[:, None]) & ~pseudo[:, None] & (first < none)[:, None]
        big = np.iinfo(np.int64).max
        fewest = np.where(candidates, touching, big).min(axis=1)
        candidates &= touching == fewest[:, None]
        spread = table.spreads(holds)
        nearest = np.where(candidates, spread, big).min(axis=1)
        s, h = np.nonzero(candidates & (spread == nearest[:, None]))
        states = np.concatenate([np.flatnonzero(pseudo), s])
        options = np.concatenate([np.where(first[pseudo] == claim_rank[pseudo], 0, n_claims[pseudo]),
                                  n_claims[s] + 1 + column[first[s]] * n_holds[s] + h])
        order = np.lexsort((options, states))
        return states[order], options[order]


HOLD_CARDS = 4
"""Cards a hold keeps, at the deal and at the draw."""


@dataclass(frozen=True)
class PatternTable:
    """The chart's words as arrays, to read millions of holds at once: each four-card hold's pattern
    as an entry id, and which dead cards touch which kept ones."""

    entries: tuple[str, ...]
    """Every hold pattern (sorted), then :data:`CLAIM` and :data:`FOLD`: an entry's id is its place here."""
    ids: np.ndarray
    """Entry id of each sorted hold, indexed by its cards as a base-``n_types`` number."""
    touch: np.ndarray
    """``touch[kept, dead]``: a dead card of type ``dead`` touches a kept card of type ``kept``."""
    distance: np.ndarray
    """Each type's part of :func:`hold_spread` (twice its distance from the middle rank; the joker 0)."""

    def entry_id(self, entry: str) -> int:
        """The id of a hold pattern or action (``len(entries)`` for a pattern no hold has)."""
        return self.entries.index(entry) if entry in self.entries else len(self.entries)

    def pattern_ids(self, holds: np.ndarray) -> np.ndarray:
        """Entry ids of sorted holds (the last axis: the four kept cards' types)."""
        n_types = self.touch.shape[0]
        codes = np.zeros(holds.shape[:-1], np.int64)
        for c in range(holds.shape[-1]):
            codes = codes * n_types + holds[..., c]
        return self.ids[codes]

    def touching(self, holds: np.ndarray, dead: np.ndarray) -> np.ndarray:
        """:func:`dead_touching` of each hold (last axis: kept cards) with its dead cards (last axis)."""
        return self.touch[holds[..., :, None], dead[..., None, :]].any(axis=-2).sum(axis=-1)

    def spreads(self, holds: np.ndarray) -> np.ndarray:
        """:func:`hold_spread` of each hold (last axis: the kept cards)."""
        return self.distance[holds].sum(axis=-1)

    def rank_table(self, lines: tuple[Line, ...], bets: tuple[float, ...], most_touching: int
                   ) -> tuple[np.ndarray, np.ndarray]:
        """For a ranked list: ``rank[entry id, touching]``, the place of the first line that plays a hold
        of that entry with that many dead cards touching (an action: touching 0), ``len(lines)`` where
        none does; and each line's place in ``bets`` (a line whose bet is not offered plays nothing)."""
        rank = np.full((len(self.entries) + 1, most_touching + 1), len(lines), np.int64)
        column = np.zeros(len(lines) + 1, np.int64)
        for place in range(len(lines) - 1, -1, -1):  # backwards: the first line covering a cell wins
            entry, bet, limit = lines[place]
            if entry not in PSEUDO:
                if bet not in bets:
                    continue
                column[place] = bets.index(bet)
            top = most_touching if limit is None or entry in PSEUDO else min(limit, most_touching)
            rank[self.entry_id(entry), : top + 1] = place
        return rank, column


@lru_cache(maxsize=4)
def pattern_table(geometry: DeckGeometry, words: str) -> PatternTable:
    """The :class:`PatternTable` of a deck in some ``words``: every sorted four-card group of its types,
    named once."""
    n_types = geometry.n_types
    groups = list(combinations_with_replacement(range(n_types), HOLD_CARDS))
    names = [hold_words(g, geometry, words) for g in groups]
    entries = tuple(sorted(set(names))) + PSEUDO
    index = {name: i for i, name in enumerate(entries)}
    ids = np.full(n_types ** HOLD_CARDS, -1, np.int16)
    codes = np.zeros(len(groups), np.int64)
    for c in range(HOLD_CARDS):
        codes = codes * n_types + np.array([g[c] for g in groups], np.int64)
    ids[codes] = [index[name] for name in names]
    types = np.arange(n_types)
    suited = types != geometry.joker
    touch = ((types[:, None] // geometry.ranks == types[None, :] // geometry.ranks)
             & (np.abs(types[:, None] % geometry.ranks - types[None, :] % geometry.ranks) <= 1)
             & suited[:, None] & suited[None, :])
    distance = np.where(suited, np.abs(2 * (types % geometry.ranks + 1) - geometry.ranks - 1), 0)
    return PatternTable(entries, ids, touch, distance)
