"""Per-hold tables and the fa-hu value of a kept four-card hold (RULES.md steps 8-14).

After the second discard the player keeps a hold ``H`` of four cards and
has seen eight cards in all; the community comes from the unseen suited
cards ``U``. Everything that depends on ``H`` alone is tabulated once:

* ``f8[i]``: the level of ``H`` plus four-card community ``m4_types[i]``
  (step 11 pays any hu of the eight cards: each uses a hand card);
* ``f6[j]``: the level of ``H`` plus six-card community ``m6_types[j]``
  counting only hus that use a hand card (step 14).

``f6`` is filled with the table-driven plain test and falls back to the
exact hand-card test only when the six community cards form a hu on their
own: when they do not, every hu of the ten cards uses a hand card.

The fa-hu value then sums, over every four-card community ``A`` weighted by
``prod C(U_t, a_t)``, either the step-11 payout or the best of folding and
each ting bet, whose win chances are exact counts over every two-card
completion ``B`` (``f6`` at ``succ5[succ4[A, t1], t2]``). The dead cards
enter only through ``U``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from .cards import DeckGeometry
from .community import CommunityIndex, community_index
from .config import GameConfig
from .hu import _hu_level_with_hand, _level_packed, _needs_of_key, _suit_keys, digit_cap, suit_table
from .ting import FA_ANTE, FA_FLUSH, FA_PAYS, _ting_value, payout_vector


@njit(cache=True)
def _level_of_rows(base_counts, rows, table, suits, ranks, cap, copies, check_hand, out):
    """Level of ``base_counts`` plus each sorted row of suited types.

    With ``check_hand``, ``base_counts`` is the hand and only hus using a
    hand card count. Rows that would exceed the deck's copies get 0 (they
    can never be dealt with this hand).
    """
    jokers = base_counts[suits * ranks]
    base_keys = np.empty(3, np.int64)
    _suit_keys(base_counts, suits, ranks, cap, base_keys)
    powers = np.ones(ranks, np.int64)
    for r in range(1, ranks):
        powers[r] = powers[r - 1] * (cap + 1)
    keys = np.empty(3, np.int64)
    comm_keys = np.empty(3, np.int64)
    combined = np.empty(base_counts.shape[0], np.int64)
    community = np.zeros(base_counts.shape[0], np.int64)
    k = rows.shape[1]
    for i in range(rows.shape[0]):
        for s in range(3):
            keys[s] = base_keys[s]
            comm_keys[s] = -1 if s >= suits else 0
        valid = True
        run = 0
        for c in range(k):
            t = rows[i, c]
            run = run + 1 if c > 0 and rows[i, c - 1] == t else 1
            total = base_counts[t] + run
            if total > copies:
                valid = False
                break
            s = t // ranks
            r = t - s * ranks
            if total <= cap:
                keys[s] += powers[r]
            if run <= cap:
                comm_keys[s] += powers[r]
        if not valid:
            out[i] = 0
            continue
        level = _level_packed(
            _needs_of_key(table, keys[0]), _needs_of_key(table, keys[1]), _needs_of_key(table, keys[2]), jokers
        )
        if check_hand and level > 0 and jokers == 0:
            alone = _level_packed(
                _needs_of_key(table, comm_keys[0]), _needs_of_key(table, comm_keys[1]),
                _needs_of_key(table, comm_keys[2]), 0,
            )
            if alone > 0:
                community[:] = 0
                for c in range(k):
                    community[rows[i, c]] += 1
                level = _hu_level_with_hand(base_counts, community, suits, ranks)
        out[i] = level


@dataclass(frozen=True)
class HoldTables:
    """``f8`` and ``f6`` of one hold (see the module docstring)."""

    hold: tuple[int, ...]
    f8: np.ndarray
    f6: np.ndarray


def hold_tables(hold_counts: np.ndarray, geometry: DeckGeometry) -> HoldTables:
    """Tabulate the step-11 and step-14 levels of a hold against every community."""
    index = community_index(geometry)
    table = suit_table(geometry)
    hold = np.ascontiguousarray(hold_counts, dtype=np.int64)
    f8 = np.empty(len(index.m4_types), np.int8)
    f6 = np.empty(len(index.m6_types), np.int8)
    args = (table, geometry.suits, geometry.ranks, digit_cap(geometry), geometry.copies)
    _level_of_rows(hold, index.m4_types, *args, False, f8)
    _level_of_rows(hold, index.m6_types, *args, True, f6)
    return HoldTables(tuple(int(c) for c in np.repeat(np.arange(len(hold)), hold)), f8, f6)


@njit(cache=True)
def _fa_values(f8, f6, m4, succ4, succ5, unseen, bets, multiples, pays, out):
    """Expected net result of each fa-hu bet size in ``bets`` for one hold.

    ``unseen`` holds the unseen suited counts (the community's source);
    ``out[b]`` receives the value of betting ``bets[b]`` and playing the
    ting decision optimally, in units of T, counting T and F.
    """
    n_types = unseen.shape[0]
    n_unseen = unseen.sum()
    for b in range(bets.shape[0]):
        out[b] = 0.0
    total4 = 0.0
    total2 = (n_unseen - 4) * (n_unseen - 5) / 2.0
    left = unseen.copy()
    for i in range(m4.shape[0]):
        weight = 1.0
        for c in range(4):
            t = m4[i, c]
            if left[t] == 0:
                weight = 0.0
                break
            weight *= left[t]
            left[t] -= 1
        # restore ``left`` and turn the ordered falling product into C(U_t, a_t) products
        run = 1
        for c in range(4):
            t = m4[i, c]
            if c > 0 and m4[i, c - 1] == t:
                run += 1
                weight /= run
            else:
                run = 1
        if weight == 0.0:
            left[:] = unseen
            continue
        total4 += weight
        level = f8[i]
        if level > 0:
            per_f = pays[FA_FLUSH] if level == 2 else pays[FA_PAYS]
            for b in range(bets.shape[0]):
                out[b] += weight * (pays[FA_ANTE] + bets[b] * per_f)
        else:
            n_hu = 0.0
            n_flush = 0.0
            for t1 in range(n_types):
                u1 = left[t1]
                if u1 == 0:
                    continue
                row5 = succ4[i, t1]
                if u1 >= 2:
                    lvl = f6[succ5[row5, t1]]
                    if lvl == 1:
                        n_hu += u1 * (u1 - 1) / 2.0
                    elif lvl == 2:
                        n_flush += u1 * (u1 - 1) / 2.0
                for t2 in range(t1 + 1, n_types):
                    u2 = left[t2]
                    if u2 == 0:
                        continue
                    lvl = f6[succ5[row5, t2]]
                    if lvl == 1:
                        n_hu += u1 * u2
                    elif lvl == 2:
                        n_flush += u1 * u2
            for b in range(bets.shape[0]):
                out[b] += weight * _ting_value(n_hu, n_flush, total2, bets[b], multiples, pays)
        left[:] = unseen
    for b in range(bets.shape[0]):
        out[b] /= total4


def fa_values(tables: HoldTables, unseen_suited: np.ndarray, config: GameConfig) -> np.ndarray:
    """Value of each fa-hu bet size of ``config`` for a hold, given the unseen suited counts."""
    index: CommunityIndex = community_index(config.geometry)
    out = np.empty(len(config.fa_hu_bets), np.float64)
    _fa_values(
        tables.f8, tables.f6, index.m4_types, index.succ4, index.succ5,
        np.ascontiguousarray(unseen_suited, dtype=np.int64),
        np.array(config.fa_hu_bets, np.float64), np.array(config.ting_hu_multiples, np.float64),
        payout_vector(config), out,
    )
    return out
