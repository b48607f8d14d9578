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
def _suit_codes(first, second, s, suits, ranks, base):
    """Suit ``s``'s patterns (hand, dead), read in the direction that gives the higher, and whether that
    is downwards; a suit the deck lacks gets -1, below every pattern."""
    if s >= suits:
        return -1, -1, False
    up1 = _pattern(first, s * ranks, ranks, base, False)
    down1 = _pattern(first, s * ranks, ranks, base, True)
    up2 = _pattern(second, s * ranks, ranks, base, False)
    down2 = _pattern(second, s * ranks, ranks, base, True)
    flip = down1 > up1 or (down1 == up1 and down2 > up2)
    return (down1 if flip else up1), (down2 if flip else up2), flip


@kernel(inline="always")
def _ranks_before(codes1, codes2, a, b):
    """Whether suit ``a``'s patterns rank strictly before suit ``b``'s (higher first)."""
    return codes1[a] > codes1[b] or (codes1[a] == codes1[b] and codes2[a] > codes2[b])


@kernel(inline="always")
def _canonical_map(first, second, suits, ranks, base, image):
    """Fill ``image`` (one entry per type) with the relabelling that takes the state with count vectors
    ``first`` and ``second`` (its two groups: hand, then dead) to its canonical form, as
    :func:`canonical_mapping` does; ``base`` exceeds every count. Kept in scalars and tuples: small arrays
    made per call cost more than the rest of it, and the solve calls it hundreds of millions of times."""
    a1, a2, fa = _suit_codes(first, second, 0, suits, ranks, base)
    b1, b2, fb = _suit_codes(first, second, 1, suits, ranks, base)
    c1, c2, fc = _suit_codes(first, second, 2, suits, ranks, base)
    codes1, codes2, flips = (a1, b1, c1), (a2, b2, c2), (fa, fb, fc)
    # order the suits by pattern, highest first; equal patterns keep their order (insertion sort of three)
    o0, o1, o2 = 0, 1, 2
    if _ranks_before(codes1, codes2, o1, o0):
        o0, o1 = o1, o0
    if _ranks_before(codes1, codes2, o2, o1):
        o1, o2 = o2, o1
        if _ranks_before(codes1, codes2, o1, o0):
            o0, o1 = o1, o0
    order = (o0, o1, o2)
    for k in range(suits):
        s = order[k]
        for r in range(ranks):
            image[s * ranks + r] = k * ranks + (ranks - 1 - r if flips[s] else r)
    image[suits * ranks] = suits * ranks


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


@kernel
def _canonical_keys_of_rows(first_rows, second_rows, n_types, suits, ranks, base, out):
    """Canonical key of each state given as rows of type indices (first group, second group)."""
    first = np.zeros(n_types, np.int64)
    second = np.zeros(n_types, np.int64)
    image = np.empty(n_types, np.int64)
    scratch = np.empty(n_types, np.int64)
    for i in range(first_rows.shape[0]):
        first[:] = 0
        second[:] = 0
        for c in range(first_rows.shape[1]):
            first[first_rows[i, c]] += 1
        for c in range(second_rows.shape[1]):
            second[second_rows[i, c]] += 1
        out[i] = _canonical_key(first, second, suits, ranks, base, image, scratch)


def pattern_base(geometry: DeckGeometry) -> int:
    """A base for suit patterns: larger than any count of one suited card in a group."""
    return geometry.copies_in_play + 1


def canonical_keys(geometry: DeckGeometry, first: np.ndarray, second: np.ndarray | None = None) -> np.ndarray:
    """:func:`encode` of the canonical form of many states at once: ``first`` and ``second`` are arrays
    of shape (states, cards of the group) of type indices; one key per state."""
    first = np.ascontiguousarray(first, dtype=np.int64)
    second = np.zeros((len(first), 0), np.int64) if second is None else np.ascontiguousarray(second, dtype=np.int64)
    out = np.empty(len(first), np.int64)
    _canonical_keys_of_rows(first, second, geometry.n_types, geometry.suits, geometry.ranks,
                            pattern_base(geometry), out)
    return out
