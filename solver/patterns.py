"""Hold patterns and chart rules: what a person's strategy says, and which options it plays.

A **hold pattern** names kept cards in card-pattern words that do not
depend on the suits' names or the direction of the ranks, so a rule written
with them means the same for a hand and for every relabelling of it (the
solve works on canonical forms). A **ranked list** of rules, each a pattern
with its bet or an action (claim the hu, fold), plays the first rule the
hand allows; where several discards keep the rule's pattern it plays each
of them with equal probability (a person told only the pattern could take
any). :class:`ChartRules` is such a strategy for the deal and the draw, in
a form the solve can follow (see :mod:`solver.objective`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import DeckGeometry
from .combinatorics import remove_cards
from .options import Option

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


def option_entry(option: Option, hand: tuple[int, ...], geometry: DeckGeometry) -> str:
    """The entry of a ranked list that plays ``option``: its kept cards' pattern, or the action."""
    if option.action == "claim":
        return CLAIM
    if option.action == "fold":
        return FOLD
    return hold_pattern(remove_cards(hand, option.discard), geometry)


@dataclass(frozen=True)
class ChartRules:
    """A learnable strategy for the deal and the draw: each a ranked list of (entry, bet)."""

    deal: tuple[tuple[str, float], ...]
    draw: tuple[tuple[str, float], ...]

    def to_json(self) -> dict[str, Any]:
        return {"deal": [list(r) for r in self.deal], "draw": [list(r) for r in self.draw]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ChartRules:
        return cls(tuple((e, float(b)) for e, b in data["deal"]), tuple((e, float(b)) for e, b in data["draw"]))

    def choices(self, stage: str, options: list[Option], hand: tuple[int, ...],
                geometry: DeckGeometry) -> list[int]:
        """Indices of the options the rules play at ``stage`` (each equally likely); empty when no rule
        applies (a hand whose patterns the chart never lists)."""
        entries = [option_entry(o, hand, geometry) for o in options]
        for entry, bet in (self.deal if stage == "deal" else self.draw):
            picked = [i for i, (e, o) in enumerate(zip(entries, options))
                      if e == entry and (entry in PSEUDO or o.bet == bet)]
            if picked:
                return picked
        return []
