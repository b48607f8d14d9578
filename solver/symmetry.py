"""The game's symmetries: relabelling suits and reversing ranks change no EV.

Every rule treats the suits alike, and a run read backwards (9-8-7) is still
a run, as is a six-card straight flush; pairs, triplets and flushes do not
see rank order at all. So any permutation of the suits, combined or not with
the rank reversal r -> R + 1 - r, maps a state to one with exactly the same
options and EVs (the joker is fixed). That group has ``suits! * 2`` elements
(12 for the real deck).

A state's *canonical form* is its image with the smallest (hand, dead,
community) tuple of sorted type indices. The solve evaluates canonical
states only; a query maps the player's cards onto the canonical state and
maps the answer back with the inverse relabelling.
"""

from __future__ import annotations

from functools import cache
from itertools import permutations
from typing import TYPE_CHECKING

from .cards import DeckGeometry
from .combinatorics import multisets

if TYPE_CHECKING:
    import numpy as np

#: A relabelling: the image of each type index, joker last (fixed).
Relabelling = tuple[int, ...]


@cache
def relabellings(geometry: DeckGeometry) -> tuple[Relabelling, ...]:
    """All symmetries, each mapping every type index to its image (``numpy.array`` of it is the
    ``(n_symmetries, n_types)`` table). The first is the identity.

    Plain tuples, so that a table query maps cards without importing numpy.
    """
    maps = []
    ranks = geometry.ranks
    for reverse in (False, True):
        for perm in permutations(range(geometry.suits)):
            image = [perm[t // ranks] * ranks + (ranks - 1 - t % ranks if reverse else t % ranks)
                     for t in range(geometry.n_suited)]
            maps.append((*image, geometry.joker))
    return tuple(maps)


def apply(mapping: Relabelling, cards: tuple[int, ...]) -> tuple[int, ...]:
    """Image of a group of cards under one relabelling, sorted."""
    return tuple(sorted(mapping[c] for c in cards))


def inverse(mapping: Relabelling) -> Relabelling:
    """The relabelling that undoes ``mapping``."""
    back = [0] * len(mapping)
    for t, image in enumerate(mapping):
        back[image] = t
    return tuple(back)


def canonical(geometry: DeckGeometry, *groups: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], Relabelling]:
    """Canonical form of a state given as groups of cards (hand, dead, community...).

    Returns the canonical groups and the relabelling that maps the given
    groups onto them (ties between relabellings go to the first, so the
    result is deterministic).
    """
    best: tuple[tuple[int, ...], ...] | None = None
    best_map = None
    for mapping in relabellings(geometry):
        image = tuple(apply(mapping, g) for g in groups)
        if best is None or image < best:
            best, best_map = image, mapping
    assert best is not None and best_map is not None
    return best, best_map


def canonical_keys(geometry: DeckGeometry, *groups: np.ndarray) -> np.ndarray:
    """:func:`encode` of the canonical form of many states at once: ``groups`` are arrays of
    shape (states, cards of the group), each row sorted or not; one key per state."""
    import numpy as np

    maps = np.array(relabellings(geometry), dtype=np.int64)
    keys = np.zeros((len(maps), len(groups[0])), dtype=np.int64)
    for group in groups:
        images = np.sort(maps[:, np.asarray(group, dtype=np.int64)], axis=2)  # (symmetries, states, cards)
        for c in range(images.shape[2]):
            keys = keys * geometry.n_types + images[:, :, c]
    return keys.min(axis=0)


def encode(geometry: DeckGeometry, *groups: tuple[int, ...]) -> int:
    """Integer key of canonical card groups: their cards as digits in base ``n_types``.

    Groups have fixed sizes at a given stage, so the key is unique and its
    order is the lexicographic order of the groups.
    """
    key = 0
    for group in groups:
        for card in group:
            key = key * geometry.n_types + card
    return key


def deal_classes(geometry: DeckGeometry) -> tuple[np.ndarray, np.ndarray]:
    """Every six-card deal up to symmetry: ``(hands, weights)``.

    ``hands`` is an ``(n_classes, 6)`` array of canonical hands (sorted type
    indices), in increasing lexicographic order; ``weights[i]`` counts the
    physical six-card deals (combinations of cards) whose hand is in class
    ``i``. The weights sum to C(deck size, 6).
    """
    import numpy as np  # here, not at the top: a table query needs only canonical and encode

    rows, weights = multisets(geometry.full_counts(), 6)
    types = np.arange(geometry.n_types)
    hands = np.array([np.repeat(types, row) for row in rows], dtype=np.int64)
    base = geometry.n_types
    codes = np.full(len(hands), np.iinfo(np.int64).max)
    for mapping in np.array(relabellings(geometry)):
        image = np.sort(mapping[hands], axis=1)
        codes = np.minimum(codes, _encode(image, base))
    classes, index = np.unique(codes, return_inverse=True)
    class_weights = np.zeros(len(classes), dtype=np.int64)
    np.add.at(class_weights, index, weights)
    return _decode(classes, base, 6), class_weights


def _encode(hands: np.ndarray, base: int) -> np.ndarray:
    """Sorted hands as integers whose order is the lexicographic order of the hands."""
    import numpy as np

    code = np.zeros(len(hands), dtype=np.int64)
    for column in hands.T:
        code = code * base + column
    return code


def _decode(codes: np.ndarray, base: int, size: int) -> np.ndarray:
    import numpy as np

    out = np.empty((len(codes), size), dtype=np.int64)
    rest = codes.copy()
    for i in range(size - 1, -1, -1):
        out[:, i] = rest % base
        rest //= base
    return out
