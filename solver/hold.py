"""The fa-hu value of a kept four-card hold (RULES.md steps 8-14).

After the second discard the player keeps a hold ``H`` and has seen eight
cards; the community comes from the unseen suited cards ``U``. The value of
betting F sums, over every four-card community ``A`` weighted by
``prod C(U_t, a_t)``, either the step-11 payout (when ``H + A`` forms a hu)
or the best of folding and each ting bet, whose win chances are exact counts
over every two-card completion ``B``.

The count over ``B`` is where the time goes, so it works on suit keys (see
:mod:`solver.hu`): with ``X = H + A``, a completion changes one suit (both
cards in it: one table read) or two (each card's one-card state, read once
per type). Two-suit completions are grouped by the states their cards lead
to, so the level test runs once per pair of states, weighted by the product
of their card counts, instead of once per pair of cards.

The hu test on keys is the plain one; step 14 wants a hu that uses a hand
card. They differ only when the six community cards form a hu on their own
(then every hu of the ten cards could be a community one), so those
completions, listed once per geometry in :func:`solver.community.alone_index`,
are re-tested exactly. A hopeless community (no hu even with two more
jokers) is folded without counting.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .community import alone_index, community_index
from .config import GameConfig
from .hu import EMPTY_SUIT, _hu_level_with_hand, _level_packed, _suit_keys, digit_cap, suit_table
from .ting import FA_ANTE, FA_FLUSH, FA_PAYS, _ting_value, payout_vector


@njit(cache=True, inline="always")
def _level_with(needs, s, state, jokers):
    """Hu level of three suits' needs with suit ``s`` replaced by ``state``."""
    n0 = state if s == 0 else needs[0]
    n1 = state if s == 1 else needs[1]
    n2 = state if s == 2 else needs[2]
    return _level_packed(n0, n1, n2, jokers)


@njit(cache=True)
def _completion_counts(keys, x, left, table, suits, ranks, cap, powers, needs, jokers, one_card, states, masses):
    """(non-flush, flush) counts of two-card completions B of X, by the plain hu test.

    ``keys``/``needs``: X's suit keys and packed needs; ``x``: X's counts;
    ``left``: unseen counts after A. Scratch arrays: ``one_card`` (per
    type), ``states``/``masses`` (per suit, per distinct one-card state).
    """
    n_hu = 0.0
    n_flush = 0.0
    n_states = np.zeros(3, np.int64)
    for s in range(suits):
        base = s * ranks
        for r1 in range(ranks):
            t1 = base + r1
            k1 = keys[s] + (powers[r1] if x[t1] + 1 <= cap else 0)
            state = np.int64(table[k1])
            one_card[t1] = state
            u1 = left[t1]
            if u1 == 0:
                continue
            # group the one-card states of this suit, weighted by cards left
            found = False
            for q in range(n_states[s]):
                if states[s, q] == state:
                    masses[s, q] += u1
                    found = True
                    break
            if not found:
                states[s, n_states[s]] = state
                masses[s, n_states[s]] = u1
                n_states[s] += 1
            # both cards in this suit
            if u1 >= 2:
                k2 = k1 + (powers[r1] if x[t1] + 2 <= cap else 0)
                level = _level_with(needs, s, np.int64(table[k2]), jokers)
                if level == 1:
                    n_hu += u1 * (u1 - 1) / 2.0
                elif level == 2:
                    n_flush += u1 * (u1 - 1) / 2.0
            for r2 in range(r1 + 1, ranks):
                t2 = base + r2
                u2 = left[t2]
                if u2 == 0:
                    continue
                k2 = k1 + (powers[r2] if x[t2] + 1 <= cap else 0)
                level = _level_with(needs, s, np.int64(table[k2]), jokers)
                if level == 1:
                    n_hu += u1 * u2
                elif level == 2:
                    n_flush += u1 * u2
    # one card in each of two suits
    for s1 in range(suits):
        for s2 in range(s1 + 1, suits):
            for a in range(n_states[s1]):
                for b in range(n_states[s2]):
                    n0 = states[s1, a] if s1 == 0 else needs[0]
                    n1 = states[s1, a] if s1 == 1 else (states[s2, b] if s2 == 1 else needs[1])
                    n2 = states[s2, b] if s2 == 2 else needs[2]
                    level = _level_packed(n0, n1, n2, jokers)
                    if level == 1:
                        n_hu += masses[s1, a] * masses[s2, b]
                    elif level == 2:
                        n_flush += masses[s1, a] * masses[s2, b]
    return n_hu, n_flush


@njit(cache=True)
def _fa_values(hold, m4, alone_offsets, alone_pairs, alone_rows6, exact_cache, table, suits, ranks, cap, unseen,
               bets, multiples, pays, out):
    """Expected net result (T and F counted) of each fa-hu bet size in ``bets`` for one hold.

    ``hold``: count vector with jokers last; ``unseen``: unseen suited
    counts; ``exact_cache``: one int8 per six-card community, all -1 (the
    hand-card levels found are stored there: a six-card community recurs
    for each of its four-card parts).
    """
    n_suited = unseen.shape[0]
    jokers = hold[n_suited]
    powers = np.ones(ranks, np.int64)
    for r in range(1, ranks):
        powers[r] = powers[r - 1] * (cap + 1)
    hold_keys = np.empty(3, np.int64)
    _suit_keys(hold, suits, ranks, cap, hold_keys)
    keys = np.empty(3, np.int64)
    needs = np.empty(3, np.int64)
    x = hold.copy()
    left = unseen.copy()
    one_card = np.empty(n_suited, np.int64)
    states = np.empty((3, ranks + 1), np.int64)
    masses = np.empty((3, ranks + 1), np.float64)
    community = np.zeros(hold.shape[0], np.int64)
    n_unseen = unseen.sum()
    total2 = (n_unseen - 4) * (n_unseen - 5) / 2.0
    for b in range(bets.shape[0]):
        out[b] = 0.0
    total4 = 0.0
    for i in range(m4.shape[0]):
        # weight prod C(U_t, a_t): ordered falling product, divided by run lengths
        weight = 1.0
        run = 1
        for c in range(4):
            t = m4[i, c]
            if left[t] == 0:
                weight = 0.0
                break
            weight *= left[t]
            left[t] -= 1
            run = run + 1 if c > 0 and m4[i, c - 1] == t else 1
            weight /= run
        if weight == 0.0:
            left[:] = unseen
            continue
        total4 += weight
        for s in range(3):
            keys[s] = hold_keys[s]
        for c in range(4):
            t = m4[i, c]
            x[t] += 1
            if x[t] <= cap:
                s = t // ranks
                keys[s] += powers[t - s * ranks]
        for s in range(3):
            needs[s] = EMPTY_SUIT if keys[s] < 0 else np.int64(table[keys[s]])
        level = _level_packed(needs[0], needs[1], needs[2], jokers)
        if level > 0:
            per_f = pays[FA_FLUSH] if level == 2 else pays[FA_PAYS]
            for b in range(bets.shape[0]):
                out[b] += weight * (pays[FA_ANTE] + bets[b] * per_f)
        elif _level_packed(needs[0], needs[1], needs[2], jokers + 2) == 0:
            for b in range(bets.shape[0]):
                out[b] -= weight * (1.0 + bets[b])
        else:
            n_hu, n_flush = _completion_counts(keys, x, left, table, suits, ranks, cap, powers, needs, jokers,
                                               one_card, states, masses)
            if jokers == 0:
                # completions where the community alone forms a hu: re-test with the hand-card rule
                for e in range(alone_offsets[i], alone_offsets[i + 1]):
                    t1 = alone_pairs[e, 0]
                    t2 = alone_pairs[e, 1]
                    w = left[t1] * (left[t1] - 1) / 2.0 if t1 == t2 else left[t1] * left[t2] * 1.0
                    if w == 0.0:
                        continue
                    s1 = t1 // ranks
                    s2 = t2 // ranks
                    if s1 == s2:
                        k = keys[s1] + (powers[t1 - s1 * ranks] if x[t1] + 1 <= cap else 0)
                        x[t1] += 1
                        k += powers[t2 - s2 * ranks] if x[t2] + 1 <= cap else 0
                        x[t1] -= 1
                        plain = _level_with(needs, s1, np.int64(table[k]), 0)
                    else:
                        n0 = one_card[t1] if s1 == 0 else needs[0]
                        n1 = one_card[t1] if s1 == 1 else (one_card[t2] if s2 == 1 else needs[1])
                        n2 = one_card[t2] if s2 == 2 else needs[2]
                        plain = _level_packed(n0, n1, n2, 0)
                    exact = exact_cache[alone_rows6[e]]
                    if exact < 0:
                        for c in range(4):
                            community[m4[i, c]] += 1
                        community[t1] += 1
                        community[t2] += 1
                        exact = _hu_level_with_hand(hold, community, suits, ranks)
                        community[:] = 0
                        exact_cache[alone_rows6[e]] = exact
                    if plain != exact:
                        if plain == 1:
                            n_hu -= w
                        elif plain == 2:
                            n_flush -= w
                        if exact == 1:
                            n_hu += w
                        elif exact == 2:
                            n_flush += w
            for b in range(bets.shape[0]):
                out[b] += weight * _ting_value(n_hu, n_flush, total2, bets[b], multiples, pays)
        for c in range(4):
            x[m4[i, c]] -= 1
        left[:] = unseen
    for b in range(bets.shape[0]):
        out[b] /= total4


def fa_values(hold_counts: np.ndarray, unseen_suited: np.ndarray, config: GameConfig) -> np.ndarray:
    """Value of each fa-hu bet size of ``config`` for a hold, given the unseen suited counts.

    Values count T and F (not DD), with optimal ting decisions; in units of T.
    """
    geometry = config.geometry
    index = community_index(geometry)
    alone = alone_index(geometry)
    out = np.empty(len(config.fa_hu_bets), np.float64)
    _fa_values(
        np.ascontiguousarray(hold_counts, dtype=np.int64), index.m4_types, alone.offsets, alone.pairs, alone.rows6,
        np.full(len(index.m6_types), -1, np.int8), suit_table(geometry), geometry.suits, geometry.ranks, digit_cap(geometry),
        np.ascontiguousarray(unseen_suited, dtype=np.int64),
        np.array(config.fa_hu_bets, np.float64), np.array(config.ting_hu_multiples, np.float64),
        payout_vector(config), out,
    )
    return out
