"""The game's symmetries: relabelling suits, and reversing the ranks of any suit, change no EV.

Every rule treats the suits alike, and every rule that sees ranks sees them
within one suit: a run read backwards (9-8-7) is a run, so is a six-card
straight flush, and pairs, triplets and flushes do not see rank order at
all. So any permutation of the suits, combined with reversing the ranks
(r -> R + 1 - r) of any set of suits, each on its own, maps a state to one
with exactly the same options and EVs (the joker is fixed). That group has
``suits! * 2 ** suits`` elements: 48 for the real deck.

**The canonical form** of a state (groups of cards: hand, dead, community)
is found suit by suit, in time linear in the ranks. A suit's *pattern* is,
group by group, its count of each rank read from rank 1 up, compared as a
sequence (the first group first, then rank by rank; a higher count first
ranks higher). Each suit is read in the direction (as it is, or reversed)
that gives the higher pattern, and the suits are put in order of their
patterns, highest first. Two states related by a symmetry have the same
suit patterns, so the same canonical form; suits with equal patterns, or
a pattern that reads the same both ways, make the choice of relabelling
free but not the image. In words: cards sit at the lowest ranks they can,
and the fullest suit comes first (``9m 9m 7s`` is ``11m 3p``).

The solve stores canonical states only, keyed by :func:`encode`; a query
maps the player's cards onto the canonical state and maps the answer back
with the inverse relabelling. The compiled kernels here do the same for
the solve's hot loops (:mod:`solver.game.symmetry_kernels`), and give the same forms.
"""

from __future__ import annotations

from functools import cache
from itertools import permutations, product
from typing import TYPE_CHECKING

from solver.game.cards import DeckGeometry
from solver.game.combinatorics import multisets

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
    for reversed_suits in product((False, True), repeat=geometry.suits):
        for perm in permutations(range(geometry.suits)):
            image = [perm[t // ranks] * ranks + (ranks - 1 - t % ranks if reversed_suits[t // ranks] else t % ranks)
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


def canonical_mapping(geometry: DeckGeometry, *groups: tuple[int, ...]) -> Relabelling:
    """The relabelling that takes a state (its groups of cards) to its canonical form."""
    ranks = geometry.ranks
    counts = [[0] * geometry.n_types for _ in groups]
    for g, group in enumerate(groups):
        for card in group:
            counts[g][card] += 1
    patterns = []
    for s in range(geometry.suits):
        up = tuple(c[s * ranks + r] for c in counts for r in range(ranks))
        down = tuple(c[s * ranks + ranks - 1 - r] for c in counts for r in range(ranks))
        patterns.append((max(up, down), down > up, s))
    order = sorted(patterns, key=lambda p: p[0], reverse=True)  # stable: equal patterns keep suit order
    image = [0] * geometry.n_types
    for new_suit, (_, reverse, s) in enumerate(order):
        for r in range(ranks):
            image[s * ranks + r] = new_suit * ranks + (ranks - 1 - r if reverse else r)
    image[geometry.joker] = geometry.joker
    return tuple(image)


def canonical(geometry: DeckGeometry, *groups: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], Relabelling]:
    """Canonical form of a state given as groups of cards (hand, dead, community...).

    Returns the canonical groups (each sorted) and the relabelling that maps
    the given groups onto them.
    """
    mapping = canonical_mapping(geometry, *groups)
    return tuple(apply(mapping, g) for g in groups), mapping


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


def decode(geometry: DeckGeometry, key: int, *sizes: int) -> tuple[tuple[int, ...], ...]:
    """The groups of cards (of the given sizes) that :func:`encode` made ``key`` from."""
    digits = []
    for _ in range(sum(sizes)):
        key, digit = divmod(key, geometry.n_types)
        digits.append(digit)
    digits.reverse()
    groups, start = [], 0
    for size in sizes:
        groups.append(tuple(digits[start:start + size]))
        start += size
    return tuple(groups)


def deal_classes(geometry: DeckGeometry) -> tuple[np.ndarray, np.ndarray]:
    """Every six-card deal up to symmetry: ``(hands, weights)``.

    ``hands`` is an ``(n_classes, 6)`` array of canonical hands (sorted type
    indices), in increasing order of their keys; ``weights[i]`` counts the
    physical six-card deals (combinations of cards) whose hand is in class
    ``i``: each multiset of card types is drawn ``prod C(copies_in_play, taken)``
    ways (:func:`solver.game.combinatorics.multisets`), and the classes partition
    the multisets, so the weights sum to C(deck size, 6). Built once per geometry, then read from the
    disk cache (3 s for the real deck, which the solve would otherwise spend with a core idle).
    """
    from solver.runtime.diskcache import cached_arrays

    arrays = cached_arrays("deals", geometry, lambda: _build_deal_classes(geometry))
    return arrays["hands"], arrays["weights"]


def _build_deal_classes(geometry: DeckGeometry) -> dict[str, np.ndarray]:
    import numpy as np  # here, not at the top: a table query needs only canonical and encode

    from solver.game.symmetry_kernels import canonical_keys

    rows, weights = multisets(geometry.full_counts(), 6)
    # each row's types, each as many times as the row counts it: the sorted hand (every row sums to 6)
    types = np.broadcast_to(np.arange(geometry.n_types, dtype=np.int64), rows.shape)
    hands = np.repeat(types.ravel(), rows.ravel().astype(np.int64)).reshape(len(rows), 6)
    codes = canonical_keys(geometry, hands)
    classes, index = np.unique(codes, return_inverse=True)
    class_weights = np.zeros(len(classes), dtype=np.int64)
    np.add.at(class_weights, index, weights)
    return {"hands": _decode(classes, geometry.n_types, 6), "weights": class_weights}


def _decode(codes: np.ndarray, base: int, size: int) -> np.ndarray:
    import numpy as np

    out = np.empty((len(codes), size), dtype=np.int64)
    rest = codes.copy()
    for i in range(size - 1, -1, -1):
        out[:, i] = rest % base
        rest //= base
    return out
