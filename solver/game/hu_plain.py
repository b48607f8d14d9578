"""The hu level of a few cards in plain Python, for table queries that must not import numpy.

A direct reading of docs/rules.md, "The hu": some pair and some set (a triplet,
or three consecutive ranks of one suit) whose missing cards the jokers can
fill; a flush hu when the pair and the set are of one suit. Slower than
:mod:`solver.game.hu` by far, and independent of it (the tests hold the two to
each other), but a query asks it once.
"""

from __future__ import annotations

from solver.game.cards import DeckGeometry


def hu_level_plain(cards: tuple[int, ...], geometry: DeckGeometry) -> int:
    """0 (no hu), 1 (hu) or 2 (flush hu) for a group of cards (type indices, jokers included)."""
    ranks = geometry.ranks
    counts = [0] * geometry.n_types
    for card in cards:
        counts[card] += 1
    jokers = counts[geometry.joker]
    best = 0
    for pair in range(geometry.n_suited):
        for triplet in range(geometry.n_suited):
            if pair == triplet:
                missing = max(0, 5 - counts[pair])
            else:
                missing = max(0, 2 - counts[pair]) + max(0, 3 - counts[triplet])
            if missing <= jokers:
                if pair // ranks == triplet // ranks:
                    return 2
                best = 1
        for suit in range(geometry.suits):
            for start in range(suit * ranks, suit * ranks + ranks - 2):
                run = range(start, start + 3)
                missing = sum(max(0, (3 if t == pair else 1) - counts[t]) for t in run)
                if pair not in run:
                    missing += max(0, 2 - counts[pair])
                if missing <= jokers:
                    if pair // ranks == suit:
                        return 2
                    best = 1
    return best
