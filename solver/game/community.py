"""Index of community-card multisets, shared by every hot loop after the deal.

Community cards are never jokers, so the four and six community cards are
multisets of suited types. They are listed once per geometry as sorted type
tuples (``m4_types``, ``m6_types``) with successor tables: ``succ4[i, t]``
is the row of ``m4_types[i] + t`` among the five-card multisets and
``succ5[j, t]`` the row of five-card multiset ``j`` plus ``t`` among the
six-card ones (-1 where a card would exceed the deck's copies). A loop over
"four community cards, then two more" is then two table reads per pair,
with no hashing. For the real deck: 27,378 four-card, 169,182 five-card and
895,986 six-card multisets (no card more than three times; the tests derive these).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from solver.game.cards import DeckGeometry
from solver.game.hu import levels_of_rows
from solver.runtime.diskcache import cached_arrays
from solver.runtime.jit import kernel

_BITS = 5  # a suited type index fits in 5 bits (at most 27 types)


@kernel
def _sorted_multisets(n_types, cap, k, out):
    """Write every k-multiset of ``n_types`` types (each at most ``cap`` times) as a
    sorted row into ``out`` in lexicographic order; return how many there are."""
    row = np.zeros(k, np.int64)
    n = 0
    while True:
        ok = True
        run = 1
        for i in range(1, k):
            run = run + 1 if row[i] == row[i - 1] else 1
            if run > cap:
                ok = False
                break
        if ok:
            if out.shape[0] > 0:
                out[n, :] = row
            n += 1
        # next non-decreasing row
        i = k - 1
        while i >= 0 and row[i] == n_types - 1:
            i -= 1
        if i < 0:
            return n
        row[i] += 1
        for j in range(i + 1, k):
            row[j] = row[i]


def sorted_multisets(n_types: int, cap: int, k: int) -> np.ndarray:
    """All k-multisets of types, each type at most ``cap`` times, as sorted rows (lexicographic)."""
    n = _sorted_multisets(n_types, cap, k, np.empty((0, k), np.int64))
    out = np.empty((n, k), np.int64)
    _sorted_multisets(n_types, cap, k, out)
    return out.astype(np.int8)


def _packed(rows: np.ndarray) -> np.ndarray:
    """Integer key of sorted rows, increasing with lexicographic order."""
    key = np.zeros(len(rows), dtype=np.int64)
    for i in range(rows.shape[1]):
        key = (key << _BITS) | rows[:, i].astype(np.int64)
    return key


@kernel
def _fill_successors(smaller, larger_keys, n_types, bits, out):
    k = smaller.shape[1]
    grown = np.empty(k + 1, np.int64)
    for i in range(smaller.shape[0]):
        for t in range(n_types):
            # insert t into the sorted row, then pack
            pos = 0
            while pos < k and smaller[i, pos] <= t:
                grown[pos] = smaller[i, pos]
                pos += 1
            grown[pos] = t
            for c in range(pos, k):
                grown[c + 1] = smaller[i, c]
            key = 0
            for c in range(k + 1):
                key = (key << bits) | grown[c]
            row = np.searchsorted(larger_keys, key)
            out[i, t] = row if row < larger_keys.shape[0] and larger_keys[row] == key else -1


def _successors(smaller: np.ndarray, larger_keys: np.ndarray, n_types: int) -> np.ndarray:
    """``out[i, t]`` = row of ``smaller[i] + t`` in the larger list, or -1."""
    out = np.empty((len(smaller), n_types), np.int32)
    _fill_successors(smaller, larger_keys, n_types, _BITS, out)
    return out


@dataclass(frozen=True)
class CommunityIndex:
    """Four-, five- and six-card community multisets of one geometry, with successor tables."""

    geometry: DeckGeometry
    m4_types: np.ndarray
    m5_types: np.ndarray
    m6_types: np.ndarray
    succ4: np.ndarray
    succ5: np.ndarray

    def row6(self, types: tuple[int, ...]) -> int:
        """Row of a sorted six-card community in ``m6_types``."""
        key = _packed(np.array([sorted(types)], dtype=np.int8))
        return int(np.searchsorted(_packed(self.m6_types), key)[0])


def _build_community_index(geometry: DeckGeometry) -> dict[str, np.ndarray]:
    n = geometry.n_suited
    cap = geometry.copies_in_play
    m4, m5, m6 = (sorted_multisets(n, cap, k) for k in (4, 5, 6))
    return {"m4_types": m4, "m5_types": m5, "m6_types": m6,
            "succ4": _successors(m4, _packed(m5), n), "succ5": _successors(m5, _packed(m6), n)}


@lru_cache(maxsize=4)
def community_index(geometry: DeckGeometry) -> CommunityIndex:
    """The community multiset index of a geometry (built once, then read from the disk cache)."""
    arrays = cached_arrays("community", geometry, lambda: _build_community_index(geometry))
    return CommunityIndex(geometry, **arrays)


@kernel
def _alone_pairs(m4, succ4, succ5, m6_alone, n_types, offsets, pairs, rows):
    """CSR lists, per four-card community, of the two-card completions making a hu on their own
    (``pairs``), with the six-card community each makes (``rows``, in ``m6_types``).

    With ``pairs.shape[0] == 0`` only counts (fills ``offsets``)."""
    n = 0
    for i in range(m4.shape[0]):
        offsets[i] = n
        for t1 in range(n_types):
            row5 = succ4[i, t1]
            if row5 < 0:
                continue
            for t2 in range(t1, n_types):
                row6 = succ5[row5, t2]
                if row6 >= 0 and m6_alone[row6] > 0:
                    if pairs.shape[0] > 0:
                        pairs[n, 0] = t1
                        pairs[n, 1] = t2
                        rows[n] = row6
                    n += 1
    offsets[m4.shape[0]] = n
    return n


@dataclass(frozen=True)
class AloneIndex:
    """For each four-card community ``i``, the completions ``pairs[offsets[i]:offsets[i+1]]``
    whose six community cards form a hu by themselves; ``sixes`` numbers those six-card
    communities (the same six cards, from whichever four, have the same number) from 0 to
    ``n_sixes - 1``, so a pass can work out each one's hand-card level once."""

    offsets: np.ndarray
    pairs: np.ndarray
    sixes: np.ndarray

    @property
    def n_sixes(self) -> int:
        """How many six-card communities form a hu by themselves."""
        return int(self.sixes.max()) + 1 if len(self.sixes) else 0


@lru_cache(maxsize=4)
def alone_index(geometry: DeckGeometry) -> AloneIndex:
    """Completions where the community alone forms a hu: the only ones where the
    step-14 hand-card rule can differ from the plain hu test."""
    return AloneIndex(**cached_arrays("alone", geometry, lambda: _build_alone_index(geometry)))


@lru_cache(maxsize=4)
def alone_six_types(geometry: DeckGeometry) -> np.ndarray:
    """The card types (rising) of each six-card community of :func:`alone_index`, by its number."""
    alone = alone_index(geometry)
    m4 = community_index(geometry).m4_types
    community = np.repeat(np.arange(len(m4)), np.diff(alone.offsets))
    first = np.zeros(alone.n_sixes, np.int64)  # a completion that makes each six-card community
    first[alone.sixes[::-1]] = np.arange(len(alone.sixes))[::-1]
    types = np.concatenate([m4[community[first]], alone.pairs[first].astype(np.int64)], axis=1)
    return np.ascontiguousarray(np.sort(types, axis=1), np.int64)


def _build_alone_index(geometry: DeckGeometry) -> dict[str, np.ndarray]:
    index = community_index(geometry)
    m6_alone = levels_of_rows(index.m6_types, geometry)
    offsets = np.empty(len(index.m4_types) + 1, np.int64)
    empty = np.empty((0, 2), np.int8)
    n = _alone_pairs(index.m4_types, index.succ4, index.succ5, m6_alone, geometry.n_suited, offsets, empty,
                     np.empty(0, np.int64))
    pairs = np.empty((n, 2), np.int8)
    rows = np.empty(n, np.int64)
    _alone_pairs(index.m4_types, index.succ4, index.succ5, m6_alone, geometry.n_suited, offsets, pairs, rows)
    sixes = np.unique(rows, return_inverse=True)[1].astype(np.int32)
    return {"offsets": offsets, "pairs": pairs, "sixes": sixes}
