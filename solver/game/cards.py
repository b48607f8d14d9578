"""Cards, the deck geometry and MPSZ notation (docs/rules.md, "Cards").

Encoding: a suited card of suit ``s`` (0 = m, 1 = p, 2 = s) and rank ``r``
(1-based) has type index ``s * ranks + (r - 1)``; the joker has the last type
index, ``n_suited``. A group of cards is held as a count vector ``counts``
of length ``n_types = n_suited + 1`` (``counts_28`` for the real deck): the
order of cards never matters to the game, only their multiset.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.errors import InputError

if TYPE_CHECKING:
    import numpy as np

SUIT_LETTERS = "mps"
JOKER_LETTER = "J"


@dataclass(frozen=True)
class DeckGeometry:
    """Shape of the deck in play, as a configuration's :attr:`~solver.game.config.GameConfig.geometry`
    derives it (the configuration declares the deck: the real game's is 3 suits x 9 ranks x 3 copies + 1
    joker, per deck). The deck in play may be several decks shuffled together: ``copies_in_play`` and
    ``jokers_in_play`` count over all of them, where the configuration's ``copies`` and ``jokers`` are per
    deck. Tests shrink it (e.g. 2 suits x 4 ranks) so that a plain game-tree enumeration is feasible.
    """

    suits: int
    ranks: int
    copies_in_play: int
    jokers_in_play: int

    @property
    def n_suited(self) -> int:
        """Number of distinct suited cards (27 for the real deck)."""
        return self.suits * self.ranks

    @property
    def n_types(self) -> int:
        """Length of a count vector: suited types plus the joker."""
        return self.n_suited + 1

    @property
    def joker(self) -> int:
        """Type index of the joker."""
        return self.n_suited

    @property
    def size(self) -> int:
        """Number of cards in the deck (82 for one real deck)."""
        return self.n_suited * self.copies_in_play + self.jokers_in_play

    def cards(self) -> list[int]:
        """Every card of the deck in play, as type indices, in type order."""
        suited = [t for t in range(self.n_suited) for _ in range(self.copies_in_play)]
        return suited + [self.joker] * self.jokers_in_play

    def full_counts(self) -> np.ndarray:
        """Count vector of the whole deck."""
        import numpy as np  # here, not at the top: a table query needs no arrays and starts faster without numpy

        counts = np.full(self.n_types, self.copies_in_play, dtype=np.int64)
        counts[self.joker] = self.jokers_in_play
        return counts

    def suit_of(self, card: int) -> int:
        """Suit index of a suited type index."""
        return card // self.ranks

    def rank_of(self, card: int) -> int:
        """1-based rank of a suited type index."""
        return card % self.ranks + 1

    def card_name(self, card: int) -> str:
        """Notation of one card: ``5p`` or ``J``."""
        if card == self.joker:
            return JOKER_LETTER
        return f"{self.rank_of(card)}{SUIT_LETTERS[self.suit_of(card)]}"


def parse_cards(text: str, geometry: DeckGeometry) -> tuple[int, ...]:
    """Parse MPSZ notation (``"112m 34p J"``) into sorted type indices.

    Spaces are ignored. Refuses unknown characters, digits with no suit, a
    suit letter with no digits, rank 0 and ranks beyond the geometry, and
    more copies of a card than the deck holds.
    """
    cards: list[int] = []
    pending: list[int] = []
    for pos, ch in enumerate(text):
        if ch.isspace():
            continue
        if ch in "0123456789":  # not str.isdigit: it admits superscripts, circled and other scripts' digits
            pending.append(int(ch))
        elif ch in SUIT_LETTERS[: geometry.suits]:
            if not pending:
                raise InputError(f"suit letter '{ch}' at position {pos + 1} of '{text}' has no ranks before it")
            suit = SUIT_LETTERS.index(ch)
            for rank in pending:
                if rank == 0:
                    raise InputError(f"rank 0 in '{text}': ranks run from 1 to {geometry.ranks}")
                if rank > geometry.ranks:
                    raise InputError(
                        f"rank {rank}{ch} in '{text}' is out of range: ranks run from 1 to {geometry.ranks}"
                    )
                cards.append(suit * geometry.ranks + rank - 1)
            pending = []
        elif ch == JOKER_LETTER:
            if pending:
                raise InputError(f"digits {''.join(map(str, pending))} before 'J' in '{text}' have no suit letter")
            cards.append(geometry.joker)
        else:
            raise InputError(f"unknown character '{ch}' at position {pos + 1} of '{text}'")
    if pending:
        raise InputError(f"digits {''.join(map(str, pending))} at the end of '{text}' have no suit letter")
    check_available({"cards": cards}, geometry)
    return tuple(sorted(cards))


def format_cards(cards: Iterable[int], geometry: DeckGeometry) -> str:
    """MPSZ notation of a group of cards, sorted: ``112m 34p J``."""
    joker, ranks = geometry.joker, geometry.ranks  # read once: the solve's tables name millions of groups
    by_suit: list[list[str]] = [[] for _ in range(geometry.suits)]
    jokers = 0
    for card in sorted(cards):
        if card == joker:
            jokers += 1
        else:
            by_suit[card // ranks].append(str(card % ranks + 1))
    parts = ["".join(ranks_) + letter for ranks_, letter in zip(by_suit, SUIT_LETTERS) if ranks_]
    return " ".join(parts + [JOKER_LETTER] * jokers)


def counts_of(cards: Iterable[int], geometry: DeckGeometry) -> np.ndarray:
    """Count vector (length ``n_types``) of a group of type indices."""
    import numpy as np

    counts = np.zeros(geometry.n_types, dtype=np.int64)
    for card in cards:
        counts[card] += 1
    return counts


def cards_of(counts: np.ndarray) -> tuple[int, ...]:
    """Sorted type indices of a count vector (inverse of :func:`counts_of`)."""
    if any(n < 0 for n in counts):
        raise ValueError(f"a count vector has no negative counts: {list(counts)}")
    return tuple(t for t, n in enumerate(counts) for _ in range(int(n)))


def check_count(cards: tuple[int, ...], expected: int, what: str) -> None:
    """Refuse a group that does not hold exactly ``expected`` cards."""
    if len(cards) != expected:
        raise InputError(f"{what} must hold {expected} cards, got {len(cards)}")


def check_available(groups: Mapping[str, Iterable[int]], geometry: DeckGeometry) -> None:
    """Refuse groups that together use more copies of a card than the deck holds.

    ``groups`` maps a name ("hand", "dead", "community") to its cards, so
    the message can say where the excess copies are.
    """
    seen: Counter[int] = Counter()
    where: dict[int, list[str]] = {}
    for name, cards in groups.items():
        for card in cards:
            seen[card] += 1
            if name not in where.setdefault(card, []):
                where[card].append(name)
    for card, n in sorted(seen.items()):
        limit = geometry.jokers_in_play if card == geometry.joker else geometry.copies_in_play
        if n > limit:
            places = " and ".join(where[card])
            raise InputError(
                f"{geometry.card_name(card)} appears {n} times in {places}, "
                f"but the deck holds only {limit}"
            )
