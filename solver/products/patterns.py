"""Hold patterns and chart rules: what a person's strategy says, and which options it plays.

A **hold pattern** names kept cards in card-pattern words that do not
depend on the suits' names or the direction of the ranks, so a rule written
with them means the same for a hand and for every relabelling of it (the
solve works on canonical forms). A **ranked list** of rules, each a pattern
with its bet or an action (claim the hu, fold), plays the first rule the
hand allows; where several discards keep the rule's pattern it plays each
of them with equal probability (a person told only the pattern could take
any, unless dead cards tell them apart: see below). :class:`ChartRules` is
such a strategy for the deal and the draw, in a form the solve can follow
(see :mod:`solver.staged.objective`).

**Dead cards touching the hold.** What a kept group is worth depends on
the cards it still needs, and a card the player has thrown (earlier, or
with this very discard) is one the deck no longer holds. A chart says so in
a way a person can count: a dead card *touches* the kept cards when it is a
copy of a kept card, or of the same suit one rank away from one (jokers
neither touch nor are touched). A line may
be limited to holds with no such card, or at most one, and wherever several
discards keep a line's pattern the player keeps the one with the fewest
dead cards touching (each of those equally likely).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from solver.game.cards import DeckGeometry
from solver.game.combinatorics import remove_cards
from solver.game.options import Option

CLAIM = "claim the hu"
FOLD = "fold"
PSEUDO = (CLAIM, FOLD)
"""Entries of a ranked list that are actions rather than hold patterns."""


WORDS = ("four of a kind", "triplet", "pair", "end pair", "suited run", "suited open connector",
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
    # Suited relations among the single cards, each card used once: runs, then connectors, then one-gaps.
    left = {t for t, n in counts.items() if n == 1}
    step = 1 if upward else -1
    for name, gaps in (("suited run", (1, 1)), ("suited connector", (1,)), ("suited one-gap", (2,))):
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
    """Card-pattern words for a group of kept cards, e.g. ``pair + suited open connector + joker``.

    The words do not depend on the suits' names or on the direction of the
    ranks: triplets and pairs (an *end* pair is of the lowest or highest
    rank), suited runs, suited connectors (*open*: two ranks complete a
    run; *edge*: one), suited one-gaps, jokers, and the odd cards left
    (*end* or *middle* rank; *suited* when another kept card has its suit).
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
    return " + ".join(w if n == 1 else f"{n} {w}s" for w, n in counted) if counted else "nothing"


TOUCHING_LIMITS = (0, 1)
"""The limits a chart line may put on the dead cards touching its hold (besides none)."""


def dead_touching(kept: tuple[int, ...], dead: tuple[int, ...], geometry: DeckGeometry) -> int:
    """How many of the ``dead`` cards touch the ``kept`` ones: a copy of a kept suited card, or a card
    of its suit one rank away (jokers touch nothing). Relabelling suits or reversing ranks keeps it."""
    kept_suited = [c for c in kept if c != geometry.joker]
    return sum(1 for d in dead if d != geometry.joker and any(
        geometry.suit_of(d) == geometry.suit_of(k) and abs(geometry.rank_of(d) - geometry.rank_of(k)) <= 1
        for k in kept_suited))


def line_text(entry: str, max_touching: int | None) -> str:
    """A chart line as a person reads it: the pattern and its limit on dead cards touching."""
    if max_touching is None:
        return entry
    return entry + (", no dead card touching" if max_touching == 0 else
                    f", at most {max_touching} dead card{'s' if max_touching > 1 else ''} touching")


def option_entry(option: Option, hand: tuple[int, ...], geometry: DeckGeometry) -> str:
    """The entry of a ranked list that plays ``option``: its kept cards' pattern, or the action."""
    if option.action == "claim":
        return CLAIM
    if option.action == "fold":
        return FOLD
    return hold_pattern(remove_cards(hand, option.discard), geometry)


Line = tuple[str, float, int | None]
"""One line of a ranked list: entry (a hold pattern, or an action), bet, and the most dead cards
touching the hold it allows (``None``: any)."""


@dataclass(frozen=True)
class ChartRules:
    """A learnable strategy for the deal and the draw: each a ranked list of lines."""

    deal: tuple[Line, ...]
    draw: tuple[Line, ...]

    def to_json(self) -> dict[str, Any]:
        """The rules as plain data (read back by :meth:`from_json`)."""
        return {"deal": [list(r) for r in self.deal], "draw": [list(r) for r in self.draw]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ChartRules:
        """Rules from :meth:`to_json`'s data."""
        def lines(rows: list[list[Any]]) -> tuple[Line, ...]:
            return tuple((str(r[0]), float(r[1]), None if len(r) < 3 or r[2] is None else int(r[2])) for r in rows)
        return cls(lines(data["deal"]), lines(data["draw"]))

    def choices(self, stage: str, options: list[Option], hand: tuple[int, ...],
                geometry: DeckGeometry, dead: tuple[int, ...] = ()) -> list[int]:
        """Indices of the options the rules play at ``stage`` (each equally likely); empty when no rule
        applies (a hand whose patterns the chart never lists). ``dead``: the cards thrown before
        (none at the deal); each discard adds its own."""
        entries = [option_entry(o, hand, geometry) for o in options]
        touching = [0 if e in PSEUDO else dead_touching(remove_cards(hand, o.discard), dead + o.discard, geometry)
                    for e, o in zip(entries, options)]
        for entry, bet, limit in (self.deal if stage == "deal" else self.draw):
            picked = [i for i, (e, o) in enumerate(zip(entries, options))
                      if e == entry and (entry in PSEUDO or (o.bet == bet and (limit is None or touching[i] <= limit)))]
            if picked:
                fewest = min(touching[i] for i in picked)
                return [i for i in picked if touching[i] == fewest]
        return []
