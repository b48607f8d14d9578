"""The fa-hu value of a kept four-card hold (RULES.md steps 8-14).

After the second discard the player keeps a hold ``H`` and has seen eight
cards; the community comes from the unseen suited cards ``U``. The value of
betting F sums, over every four-card community ``A`` weighted by
``prod C(U_t, a_t)``, either the step-11 payout (when ``H + A`` forms a hu)
or the best of folding and each ting bet, whose win chances are exact counts
over every two-card completion ``B``.

The count over ``B`` is where the time goes, so it works on suit keys (see
:mod:`solver.hu`): with ``X = H + A``, a completion changes one suit (both
cards in it) or two (one card each). What one or two unseen cards of suit
``s`` do to that suit's joker needs depends only on the suit's part of
``A``, so it is tabulated once per distinct part as two small histograms
(a *suit profile*: packed needs after one card, after two, each weighted
by its number of card combinations). Per community the hu test then runs
once per histogram entry (same-suit completions) and once per pair of
entries of two suits (two-suit completions), instead of once per pair of
cards.

The hu test on keys is the plain one; step 14 wants a hu that uses a hand
card. They differ only when the six community cards form a hu on their own
(then every hu of the ten cards could be a community one), so those
completions, listed once per geometry in :func:`solver.community.alone_index`,
are re-tested exactly (once per six-card community: the result is cached).
A community with no hu even with two extra jokers is folded without
counting (or bet for the bonus alone, when a bonus bet is on).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from .bonus import community_bonus_net
from .cards import DeckGeometry
from .community import alone_index, community_index, sorted_multisets
from .config import GameConfig
from .hu import EMPTY_SUIT, _hu_level_with_hand, _level_packed, _suit_keys, digit_cap, suit_table
from .options import TIE_TOLERANCE
from .ting import FA_ANTE, FA_FLUSH, FA_PAYS, _ting_bet_ev, _ting_value, payout_vector


@njit(cache=True, inline="always")
def _level_with(needs, s, state, jokers):
    """Hu level of three suits' needs with suit ``s`` replaced by ``state``."""
    n0 = state if s == 0 else needs[0]
    n1 = state if s == 1 else needs[1]
    n2 = state if s == 2 else needs[2]
    return _level_packed(n0, n1, n2, jokers)


@njit(cache=True, inline="always")
def _add_mass(states, masses, n, state, mass):
    """Add ``mass`` to ``state`` in a small histogram of ``n`` entries; return the new size."""
    for q in range(n):
        if states[q] == state:
            masses[q] += mass
            return n
    states[n] = state
    masses[n] = mass
    return n + 1


@njit(cache=True, nogil=True)
def _suit_profile(s, key, x, left, table, ranks, cap, powers, h1_state, h1_mass, h2_state, h2_mass):
    """One suit of X (suit key ``key``): histograms of the suit's packed needs after one
    unseen card of the suit (``h1``) and after two (``h2``), weighted by how many
    card combinations give each. Returns the two histograms' sizes."""
    base = s * ranks
    n1 = 0
    n2 = 0
    for r1 in range(ranks):
        t1 = base + r1
        u1 = left[t1]
        if u1 == 0:
            continue
        k1 = key + (powers[r1] if x[t1] + 1 <= cap else 0)
        n1 = _add_mass(h1_state, h1_mass, n1, np.int64(table[k1]), u1 * 1.0)
        if u1 >= 2:
            k2 = k1 + (powers[r1] if x[t1] + 2 <= cap else 0)
            n2 = _add_mass(h2_state, h2_mass, n2, np.int64(table[k2]), u1 * (u1 - 1) / 2.0)
        for r2 in range(r1 + 1, ranks):
            t2 = base + r2
            u2 = left[t2]
            if u2 == 0:
                continue
            k2 = k1 + (powers[r2] if x[t2] + 1 <= cap else 0)
            n2 = _add_mass(h2_state, h2_mass, n2, np.int64(table[k2]), u1 * u2 * 1.0)
    return n1, n2


# Layout of the outcome counts ``_fa_values`` can track for one bet (see :mod:`solver.outcomes`):
# step-11 wins, ting folds, then (hu, flush hu, loss) for each ting multiple, and last the summed
# bonus net of the paths that settle the bonus. Counts are card combinations of the six community
# cards (a step-11 win or a ting fold counts all its last-two completions).
TRACK_FA_HU, TRACK_FA_HU_FLUSH, TRACK_FOLD_TING, TRACK_TING_FIRST = 0, 1, 2, 3


def track_size(n_multiples: int) -> int:
    """Length of the tracked-outcome vector for ``n_multiples`` ting bet sizes."""
    return TRACK_TING_FIRST + 3 * n_multiples + 1


@njit(cache=True, inline="always")
def _track_ting(n_hu, n_flush, total2, weight, fa_bet, multiples, pays, bonus, bonus_net, tracked):
    """Count the outcomes of the ting decision RULES.md section 4 takes: best EV, ties within 1e-12
    to less money at risk (fold, then smaller G)."""
    n = multiples.shape[0]
    evs = np.empty(n + 1)
    evs[0] = -(1.0 + fa_bet)
    for m in range(n):
        evs[m + 1] = _ting_bet_ev(n_hu, n_flush, total2, fa_bet, multiples[m] * fa_bet, pays) + bonus
    top = evs.max()
    choice = 0
    while evs[choice] < top - TIE_TOLERANCE:
        choice += 1
    if choice == 0:
        tracked[TRACK_FOLD_TING] += weight * total2
    else:
        base = TRACK_TING_FIRST + 3 * (choice - 1)
        tracked[base] += weight * n_hu
        tracked[base + 1] += weight * n_flush
        tracked[base + 2] += weight * (total2 - n_hu - n_flush)
        tracked[tracked.shape[0] - 1] += weight * total2 * bonus_net


@njit(cache=True, nogil=True)
def _fa_values(hold, m4, alone_offsets, alone_pairs, alone_rows6, exact_cache, table, suits, ranks, cap, unseen,
               bets, multiples, pays, n_profiles, bonus_bet, bonus_ev, out, track, tracked):
    """Expected net result (T and F counted) of each fa-hu bet size in ``bets`` for one hold.

    ``hold``: count vector with jokers last; ``unseen``: unseen suited
    counts; ``exact_cache``: one int8 per six-card community, all -1 (the
    plain and hand-card levels found, ``4 * plain + exact``, are stored
    there: a six-card community recurs for each of its four-card parts);
    ``n_profiles``: room for the suit profiles (``suit_profiles_max``);
    ``bonus_bet``: B, and ``bonus_ev[i]``: the expected net of a unit bonus
    bet given four-card community ``i`` (read only when B > 0 or tracking).
    ``track``: -1, or the index of the bet whose outcomes are counted into
    ``tracked`` (layout: ``TRACK_*``; counts are exact integers held in floats).
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
    # Suit profiles, built on first use and keyed by the suit part of A
    # (base ``a_base`` digits: a four-card community holds a card at most 4 times).
    a_base = min(cap, 4) + 1
    a_powers = np.ones(ranks, np.int64)
    for r in range(1, ranks):
        a_powers[r] = a_powers[r - 1] * a_base
    profile_of = np.full((3, a_powers[ranks - 1] * a_base), -1, np.int16)
    n_built = np.zeros(3, np.int64)
    pairs_max = ranks * (ranks + 1) // 2
    h1_state = np.empty((3, n_profiles, ranks), np.int64)
    h1_mass = np.empty((3, n_profiles, ranks), np.float64)
    h1_n = np.empty((3, n_profiles), np.int64)
    h2_state = np.empty((3, n_profiles, pairs_max), np.int64)
    h2_mass = np.empty((3, n_profiles, pairs_max), np.float64)
    h2_n = np.empty((3, n_profiles), np.int64)
    a_keys = np.empty(3, np.int64)
    used = np.empty(3, np.int64)
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
            if track >= 0:
                tracked[TRACK_FA_HU_FLUSH if level == 2 else TRACK_FA_HU] += weight * total2
        elif _level_packed(needs[0], needs[1], needs[2], jokers + 2) == 0:
            # no completion wins: fold, unless the bonus alone pays for a ting bet
            bonus = bonus_bet * bonus_ev[i] if bonus_bet > 0 else 0.0
            for b in range(bets.shape[0]):
                out[b] += weight * _ting_value(0.0, 0.0, total2, bets[b], multiples, pays, bonus)
            if track >= 0:
                _track_ting(0.0, 0.0, total2, weight, bets[track], multiples, pays, bonus, bonus_ev[i], tracked)
        else:
            for su in range(suits):
                a_keys[su] = 0
            for c in range(4):
                t = m4[i, c]
                su = t // ranks
                a_keys[su] += a_powers[t - su * ranks]
            for su in range(suits):
                p = profile_of[su, a_keys[su]]
                if p < 0:
                    p = n_built[su]
                    n_built[su] += 1
                    profile_of[su, a_keys[su]] = p
                    h1_n[su, p], h2_n[su, p] = _suit_profile(
                        su, keys[su], x, left, table, ranks, cap, powers,
                        h1_state[su, p], h1_mass[su, p], h2_state[su, p], h2_mass[su, p])
                used[su] = p
            n_hu = 0.0
            n_flush = 0.0
            # both cards in one suit
            for su in range(suits):
                p = used[su]
                for q in range(h2_n[su, p]):
                    level = _level_with(needs, su, h2_state[su, p, q], jokers)
                    if level == 1:
                        n_hu += h2_mass[su, p, q]
                    elif level == 2:
                        n_flush += h2_mass[su, p, q]
            # one card in each of two suits
            for s1 in range(suits):
                p1 = used[s1]
                for s2 in range(s1 + 1, suits):
                    p2 = used[s2]
                    for a in range(h1_n[s1, p1]):
                        state_a = h1_state[s1, p1, a]
                        for b in range(h1_n[s2, p2]):
                            state_b = h1_state[s2, p2, b]
                            n0 = state_a if s1 == 0 else needs[0]
                            n1 = state_a if s1 == 1 else (state_b if s2 == 1 else needs[1])
                            n2 = state_b if s2 == 2 else needs[2]
                            level = _level_packed(n0, n1, n2, jokers)
                            if level == 1:
                                n_hu += h1_mass[s1, p1, a] * h1_mass[s2, p2, b]
                            elif level == 2:
                                n_flush += h1_mass[s1, p1, a] * h1_mass[s2, p2, b]
            if jokers == 0:
                # completions where the community alone forms a hu: re-test with the hand-card rule
                for e in range(alone_offsets[i], alone_offsets[i + 1]):
                    t1 = alone_pairs[e, 0]
                    t2 = alone_pairs[e, 1]
                    w = left[t1] * (left[t1] - 1) / 2.0 if t1 == t2 else left[t1] * left[t2] * 1.0
                    if w == 0.0:
                        continue
                    # plain and exact levels depend on the six community cards only: cached per row
                    code = exact_cache[alone_rows6[e]]
                    if code < 0:
                        s1 = t1 // ranks
                        s2 = t2 // ranks
                        if s1 == s2:
                            k = keys[s1] + (powers[t1 - s1 * ranks] if x[t1] + 1 <= cap else 0)
                            x[t1] += 1
                            k += powers[t2 - s2 * ranks] if x[t2] + 1 <= cap else 0
                            x[t1] -= 1
                            plain = _level_with(needs, s1, np.int64(table[k]), 0)
                        else:
                            one1 = np.int64(table[keys[s1] + (powers[t1 - s1 * ranks] if x[t1] + 1 <= cap else 0)])
                            one2 = np.int64(table[keys[s2] + (powers[t2 - s2 * ranks] if x[t2] + 1 <= cap else 0)])
                            n0 = one1 if s1 == 0 else needs[0]
                            n1 = one1 if s1 == 1 else (one2 if s2 == 1 else needs[1])
                            n2 = one2 if s2 == 2 else needs[2]
                            plain = _level_packed(n0, n1, n2, 0)
                        for c in range(4):
                            community[m4[i, c]] += 1
                        community[t1] += 1
                        community[t2] += 1
                        exact = _hu_level_with_hand(hold, community, suits, ranks)
                        community[:] = 0
                        code = plain * 4 + exact
                        exact_cache[alone_rows6[e]] = code
                    plain = code // 4
                    exact = code % 4
                    if plain != exact:
                        if plain == 1:
                            n_hu -= w
                        elif plain == 2:
                            n_flush -= w
                        if exact == 1:
                            n_hu += w
                        elif exact == 2:
                            n_flush += w
            bonus = bonus_bet * bonus_ev[i] if bonus_bet > 0 else 0.0
            for b in range(bets.shape[0]):
                out[b] += weight * _ting_value(n_hu, n_flush, total2, bets[b], multiples, pays, bonus)
            if track >= 0:
                _track_ting(n_hu, n_flush, total2, weight, bets[track], multiples, pays, bonus, bonus_ev[i], tracked)
        for c in range(4):
            x[m4[i, c]] -= 1
        left[:] = unseen
    for b in range(bets.shape[0]):
        out[b] /= total4


def prepare_tables(geometry: DeckGeometry) -> None:
    """Build the per-geometry tables the hold kernel reads (once; later calls are free)."""
    community_index(geometry)
    alone_index(geometry)
    suit_table(geometry)


@njit(cache=True, nogil=True)
def _bonus_evs(m4, succ4, succ5, m6_net, unseen, out):
    """Expected net of a unit bonus bet for each four-card community, over every completion."""
    n_types = unseen.shape[0]
    left = unseen.copy()
    n_unseen = unseen.sum()
    total2 = (n_unseen - 4) * (n_unseen - 5) / 2.0
    for i in range(m4.shape[0]):
        possible = True
        for c in range(4):
            t = m4[i, c]
            if left[t] == 0:
                possible = False
            left[t] -= 1
        out[i] = 0.0
        if possible:
            total = 0.0
            for t1 in range(n_types):
                u1 = left[t1]
                if u1 <= 0:
                    continue
                row5 = succ4[i, t1]
                if u1 >= 2:
                    total += u1 * (u1 - 1) / 2.0 * m6_net[succ5[row5, t1]]
                for t2 in range(t1 + 1, n_types):
                    if left[t2] > 0:
                        total += u1 * left[t2] * m6_net[succ5[row5, t2]]
            out[i] = total / total2
        left[:] = unseen


def bonus_evs(unseen_suited: np.ndarray, config: GameConfig) -> np.ndarray:
    """Expected net of a unit bonus bet given each four-card community, for these unseen cards."""
    index = community_index(config.geometry)
    out = np.empty(len(index.m4_types), np.float64)
    _bonus_evs(index.m4_types, index.succ4, index.succ5, community_bonus_net(config),
               np.ascontiguousarray(unseen_suited, dtype=np.int64), out)
    return out


def new_level_cache(geometry: DeckGeometry) -> np.ndarray:
    """An empty cache of a hold's hand-card levels, one int8 per six-card community."""
    return np.full(len(community_index(geometry).m6_types), -1, np.int8)


def fa_values(hold_counts: np.ndarray, unseen_suited: np.ndarray, config: GameConfig,
              bonus_bet: float = 0.0, bonus_ev: np.ndarray | None = None,
              level_cache: np.ndarray | None = None, track: int = -1,
              tracked: np.ndarray | None = None) -> np.ndarray:
    """Value of each fa-hu bet size of ``config`` for a hold, given the unseen suited counts.

    Values count T and F (not DD), with optimal ting decisions; in units of
    T. With a bonus bet B > 0 they include the bonus, which pushes unless
    the player bets ting-hu; ``bonus_ev`` (from :func:`bonus_evs` for the
    same unseen cards) can be passed in when several holds share it.
    ``level_cache`` (from :func:`new_level_cache`) keeps the hold's exact
    hand-card levels between calls for the same hold: they do not depend on
    the unseen cards, so a hold valued with many draws computes them once.
    With ``track`` = the index of a bet, the outcome counts of betting it are
    added into ``tracked`` (length :func:`track_size`; see ``TRACK_*``).
    """
    if (bonus_bet > 0 or track >= 0) and bonus_ev is None:
        bonus_ev = bonus_evs(unseen_suited, config)
    if bonus_ev is None:
        bonus_ev = np.zeros(1)
    geometry = config.geometry
    index = community_index(geometry)
    alone = alone_index(geometry)
    out = np.empty(len(config.fa_hu_bets), np.float64)
    _fa_values(
        np.ascontiguousarray(hold_counts, dtype=np.int64), index.m4_types, alone.offsets, alone.pairs, alone.rows6,
        new_level_cache(geometry) if level_cache is None else level_cache, suit_table(geometry), geometry.suits,
        geometry.ranks,
        digit_cap(geometry), np.ascontiguousarray(unseen_suited, dtype=np.int64),
        np.array(config.fa_hu_bets, np.float64), np.array(config.ting_hu_multiples, np.float64),
        payout_vector(config), suit_profiles_max(geometry), float(bonus_bet), bonus_ev, out,
        track, np.zeros(1) if tracked is None else tracked,
    )
    return out


@lru_cache(maxsize=4)
def suit_profiles_max(geometry: DeckGeometry) -> int:
    """How many distinct suit parts (at most four cards of one suit) a four-card community can have."""
    cap = min(geometry.copies, 4)
    return sum(len(sorted_multisets(geometry.ranks, cap, k)) for k in range(1, 5)) + 1
