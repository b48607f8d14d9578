"""The canonical form of :mod:`solver.game.symmetry`, compiled, from count vectors.

The solve canonicalises hundreds of millions of states (every hold of every
post-draw hand, every draw of every first hold), so it does so here, in
numba, with the same rule as :func:`solver.game.symmetry.canonical_mapping`
(the tests hold the two to each other). Kept apart from that module so that
a table query, which needs only the plain-Python form, imports no numpy.
"""

from __future__ import annotations

import numpy as np

from solver.game.cards import DeckGeometry
from solver.runtime.jit import kernel


@kernel(inline="always")
def _pattern(counts, start, ranks, base, reverse):
    """A suit's counts from rank 1 up (or down, ``reverse``) as one number, rank 1 the leading digit."""
    code = 0
    for r in range(ranks):
        code = code * base + counts[start + (ranks - 1 - r if reverse else r)]
    return code


@kernel(inline="always")
def _oriented(up1, down1, up2, down2):
    """A suit's patterns (hand, dead), read in the direction that gives the higher, and whether that is
    downwards."""
    flip = down1 > up1 or (down1 == up1 and down2 > up2)
    return (down1 if flip else up1), (down2 if flip else up2), flip


@kernel(inline="always")
def _suit_codes(first, second, s, suits, ranks, base):
    """Suit ``s``'s oriented patterns (:func:`_oriented`) from the count vectors; a suit the deck lacks
    gets -1, below every pattern."""
    if s >= suits:
        return -1, -1, False
    return _oriented(_pattern(first, s * ranks, ranks, base, False), _pattern(first, s * ranks, ranks, base, True),
                     _pattern(second, s * ranks, ranks, base, False), _pattern(second, s * ranks, ranks, base, True))


@kernel(inline="always")
def _ranks_before(codes1, codes2, a, b):
    """Whether suit ``a``'s patterns rank strictly before suit ``b``'s (higher first)."""
    return codes1[a] > codes1[b] or (codes1[a] == codes1[b] and codes2[a] > codes2[b])


@kernel(inline="always")
def _suit_order(codes1, codes2):
    """The three suits ordered by pattern, highest first; equal patterns keep their order (insertion sort)."""
    o0, o1, o2 = 0, 1, 2
    if _ranks_before(codes1, codes2, o1, o0):
        o0, o1 = o1, o0
    if _ranks_before(codes1, codes2, o2, o1):
        o1, o2 = o2, o1
        if _ranks_before(codes1, codes2, o1, o0):
            o0, o1 = o1, o0
    return o0, o1, o2


@kernel(inline="always")
def _canonical_map(first, second, suits, ranks, base, image):
    """Fill ``image`` (one entry per type) with the relabelling that takes the state with count vectors
    ``first`` and ``second`` (its two groups: hand, then dead) to its canonical form, as
    :func:`canonical_mapping` does; ``base`` exceeds every count. Kept in scalars and tuples: small arrays
    made per call cost more than the rest of it, and the solve calls it hundreds of millions of times."""
    a1, a2, fa = _suit_codes(first, second, 0, suits, ranks, base)
    b1, b2, fb = _suit_codes(first, second, 1, suits, ranks, base)
    c1, c2, fc = _suit_codes(first, second, 2, suits, ranks, base)
    places = _places(_suit_order((a1, b1, c1), (a2, b2, c2)))
    flips = (fa, fb, fc)
    for t in range(suits * ranks + 1):
        image[t] = _image_of(t, suits, ranks, places, flips)


@kernel(inline="always")
def _places(order):
    """Each suit's place in the canonical form, from the suits in canonical order."""
    o0, o1, _ = order
    return (0 if o0 == 0 else (1 if o1 == 0 else 2), 0 if o0 == 1 else (1 if o1 == 1 else 2),
            0 if o0 == 2 else (1 if o1 == 2 else 2))


@kernel(inline="always")
def _image_of(t, suits, ranks, places, flips):
    """Type ``t``'s image when suit s goes to place ``places[s]``, its ranks reversed where ``flips[s]``;
    the joker maps to itself."""
    if t >= suits * ranks:
        return t
    s = t // ranks
    r = t - s * ranks
    return places[s] * ranks + (ranks - 1 - r if flips[s] else r)


@kernel(inline="always")
def _image_key(counts, image, n_types, scratch, key):
    """``key`` extended by the sorted image of the group ``counts`` under ``image`` (digits base ``n_types``)."""
    for t in range(n_types):
        scratch[t] = 0
    for t in range(n_types):
        scratch[image[t]] = counts[t]
    for t in range(n_types):
        for _ in range(scratch[t]):
            key = key * n_types + t
    return key


@kernel
def _canonical_key(first, second, suits, ranks, base, image, scratch):
    """:func:`encode` of the canonical form of the state (``first``, ``second``: count vectors; the
    second may be all zeros for a one-group state); ``image`` receives the relabelling."""
    _canonical_map(first, second, suits, ranks, base, image)
    n_types = first.shape[0]
    key = _image_key(first, image, n_types, scratch, 0)
    return _image_key(second, image, n_types, scratch, key)


@kernel(inline="always")
def _card_codes(up1, down1, up2, down2, s, suits):
    """:func:`_suit_codes` of suit ``s`` from its patterns in the two groups (:func:`_canonical_key_of_cards`)."""
    if s >= suits:
        return -1, -1, False
    return _oriented(up1, down1, up2, down2)


@kernel(inline="always")
def _group_patterns(cards, n, suits, ranks, powers):
    """Each suit's pattern of ``cards[:n]``, read upwards (rank 1 the leading digit) and downwards: suit 0's
    two, then suit 1's, then suit 2's (0 for a suit the deck lacks)."""
    u0, d0, u1, d1, u2, d2 = 0, 0, 0, 0, 0, 0
    for c in range(n):
        t = cards[c]
        if t < ranks:
            u0 += powers[ranks - 1 - t]
            d0 += powers[t]
        elif t < 2 * ranks and t < suits * ranks:
            u1 += powers[2 * ranks - 1 - t]
            d1 += powers[t - ranks]
        elif t < 3 * ranks and t < suits * ranks:
            u2 += powers[3 * ranks - 1 - t]
            d2 += powers[t - 2 * ranks]
    return u0, d0, u1, d1, u2, d2


@kernel(inline="always")
def _canonical_key_of_cards(first, n_first, second, n_second, suits, ranks, powers, scratch):
    """:func:`_canonical_key` of the state whose groups are the cards ``first[:n_first]`` and
    ``second[:n_second]``: the same key from a dozen card reads instead of passes over every type
    (stage B reads a key for each of a post-draw hand's holds); ``scratch``: room for the larger group;
    ``powers[r]``: the pattern base to the r. Each suit's patterns, read upwards (rank 1 the leading
    digit) and downwards, are summed in one pass over each group rather than by a helper per suit:
    numba counts the references to every array a call is handed, atomically, even inlined, and those
    counts took a third of a key's time (stage C's lookups: 43 us a first hold against 65)."""
    u0, d0, u1, d1, u2, d2 = _group_patterns(first, n_first, suits, ranks, powers)
    v0, e0, v1, e1, v2, e2 = _group_patterns(second, n_second, suits, ranks, powers)
    a1, a2, fa = _card_codes(u0, d0, v0, e0, 0, suits)
    b1, b2, fb = _card_codes(u1, d1, v1, e1, 1, suits)
    c1, c2, fc = _card_codes(u2, d2, v2, e2, 2, suits)
    places = _places(_suit_order((a1, b1, c1), (a2, b2, c2)))
    flips = (fa, fb, fc)
    key = _sorted_images(first, n_first, suits, ranks, places, flips, scratch, 0)
    return _sorted_images(second, n_second, suits, ranks, places, flips, scratch, key)


@kernel(inline="always")
def _sorted_images(cards, n, suits, ranks, places, flips, scratch, key):
    """``key`` extended by the sorted images of ``cards[:n]`` when suit s goes to place ``places[s]``,
    reversed where ``flips[s]`` (digits base ``suits * ranks + 1``; the joker maps to itself)."""
    for c in range(n):
        image = _image_of(cards[c], suits, ranks, places, flips)
        j = c
        while j > 0 and scratch[j - 1] > image:
            scratch[j] = scratch[j - 1]
            j -= 1
        scratch[j] = image
    for c in range(n):
        key = key * (suits * ranks + 1) + scratch[c]
    return key


def pattern_powers(geometry: DeckGeometry) -> np.ndarray:
    """``pattern_base ** r`` for each rank r: the digit weights of a suit pattern."""
    return pattern_base(geometry) ** np.arange(geometry.ranks, dtype=np.int64)


@kernel
def _canonical_keys_of_rows(first_rows, second_rows, suits, ranks, powers, out):
    """Canonical key of each state given as rows of type indices (first group, second group)."""
    scratch = np.empty(max(first_rows.shape[1], second_rows.shape[1]), np.int64)
    for i in range(first_rows.shape[0]):
        out[i] = _canonical_key_of_cards(first_rows[i], first_rows.shape[1], second_rows[i], second_rows.shape[1],
                                         suits, ranks, powers, scratch)


def pattern_base(geometry: DeckGeometry) -> int:
    """A base for suit patterns: larger than any count of one suited card in a group."""
    return geometry.copies_in_play + 1


def canonical_keys(geometry: DeckGeometry, first: np.ndarray, second: np.ndarray | None = None) -> np.ndarray:
    """:func:`encode` of the canonical form of many states at once: ``first`` and ``second`` are arrays
    of shape (states, cards of the group) of type indices; one key per state."""
    first = np.ascontiguousarray(first, dtype=np.int64)
    second = np.zeros((len(first), 0), np.int64) if second is None else np.ascontiguousarray(second, dtype=np.int64)
    out = np.empty(len(first), np.int64)
    _canonical_keys_of_rows(first, second, geometry.suits, geometry.ranks, pattern_powers(geometry), out)
    return out
