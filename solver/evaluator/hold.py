"""The fa-hu value of a kept four-card hold (docs/rules.md, steps 8-14).

After the second discard the player keeps a hold ``H`` and has seen eight
cards; the community comes from the unseen suited cards ``U``. The value of
betting F sums, over every four-card community ``A`` weighted by
``prod C(U_t, a_t)``, either the step-11 payout (when ``H + A`` forms a hu)
or the best of folding and each ting bet, whose win chances are exact counts
over every two-card completion ``B``. The sum is kept by decision (step-11
hu or flush hu, fold, each ting bet), as integer counts of card
combinations, and priced once at the end: no rounding depends on the order
of the communities, so relabelled suits or ranks give a hold's value bit
for bit (the solve relies on it to reuse the deal stage's values).

The count over ``B`` is where the time goes, so it works on suit keys (see
:mod:`solver.game.hu`): with ``X = H + A``, a completion changes one suit (both
cards in it) or two (one card each). What one or two unseen cards of suit
``s`` do to that suit's joker needs depends only on the suit's part of
``A``, so it is tabulated once per distinct part as two small histograms
(a *suit profile*: need buckets after one card, after two, each weighted
by its number of card combinations). A bucket keeps of a suit's needs only
what decides the hu level with the hold's jokers, so the histograms are
short and the level of three buckets is a table lookup. Per community the
lookup then runs once per histogram entry (same-suit completions) and once
per pair of entries of two suits (two-suit completions), instead of once
per pair of cards.

One pass can value the hold against several sets of unseen cards that
differ by one or two removed cards (the deal stage needs a hold under
every draw that leaves it intact): removing a card of type ``e`` from the
completions' source removes exactly the winning completions holding it,
``R(e) = sum_t (L_t - [t = e]) hu(X + e + t)`` with ``L = U - A``, and two
removed cards add back the one completion they form together. All counts
are integers, so the values are bit for bit those of separate passes.

Holds valued one after another can share their completion counts
(:class:`SharedCounts`): when each is a common base plus cards of its own,
valued against the unseen cards less those, a hold and a community see the
same cards in all as another hold and community of the group do whenever
their own cards plus the community are the same multiset, and then meet
the same completions (their plain counts, and the removal counts R(t);
the hand-card re-test below, which depends on which cards are the
hold's, is made per hold). The deal stage's holds of dealt cards and one
or two drawn ones come in such groups; the counts, exact integers, are
kept by the multiset's rank and read back bit for bit.

The hu test on keys is the plain one; step 14 wants a hu that uses a hand
card. They differ only when the six community cards form a hu on their own
(then every hu of the ten cards could be a community one), so those
completions, listed once per geometry in :func:`solver.game.community.alone_index`,
are re-tested with the hand-card rule, from per-suit flags (see
:func:`solver.game.hu._suit_flags_with_hand`) found once per suit key.
A community with no hu even with two extra jokers is folded without
counting (or bet for the bonus alone, when a bonus bet is on).
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

import numpy as np

from solver.evaluator.ting import (
    FA_ANTE,
    FA_FLUSH,
    FA_PAYS,
    TING_FLUSH,
    TING_PAYS,
    _ting_bet_ev,
    _ting_bet_net,
    _ting_choice,
    payout_vector,
)
from solver.game.bonus import community_bonus_net
from solver.game.cards import DeckGeometry, counts_of
from solver.game.community import alone_index, alone_six_types, community_index, sorted_multisets
from solver.game.config import GameConfig
from solver.game.hu import (
    _level_from_flags,
    _level_packed,
    _needs_of_key,
    _new_flags_memo,
    _suit_flags_with_hand,
    _suit_keys,
    digit_cap,
    suit_table,
)
from solver.game.options import TIE_TOLERANCE
from solver.game.outcomes import Outcome
from solver.runtime.jit import kernel, unowned


@kernel(inline="always")
def _bucket_caps(jokers):
    """The largest pair and set needs a bucket tells apart with ``jokers`` jokers (a need above
    ``jokers`` fails whatever it is; a pair never needs more than 2, a set more than 3)."""
    return min(jokers + 1, 2), min(jokers + 1, 3)


@kernel(inline="always")
def _n_buckets(jokers):
    """How many need buckets :func:`_bucket` uses with ``jokers`` jokers."""
    cap_p, cap_s = _bucket_caps(jokers)
    return 1 + (cap_p + 1) * (cap_s + 1)


@kernel(inline="always")
def _bucket(state, jokers):
    """The class of a suit's packed needs that decides every hu level with ``jokers`` jokers:
    0 when the suit alone makes a flush hu, else its pair and set needs capped at
    ``jokers + 1`` (a larger need fails the same way). See :func:`_bucket_levels`."""
    if (state >> 4) <= jokers:
        return 0
    cap_p, cap_s = _bucket_caps(jokers)
    return 1 + min(state & 3, cap_p) * (cap_s + 1) + min((state >> 2) & 3, cap_s)


@kernel
def _bucket_levels(jokers):
    """Hu level of every triple of suit buckets, as two 0/1 float tables (hu, flush hu)
    indexed ``(b0 * n + b1) * n + b2``, so counting by buckets needs no branch."""
    cap_p, cap_s = _bucket_caps(jokers)
    n = _n_buckets(jokers)
    representative = np.zeros(n, np.int64)  # bucket 0: a suit that needs nothing
    for p in range(cap_p + 1):
        for s in range(cap_s + 1):
            representative[1 + p * (cap_s + 1) + s] = p | (s << 2) | (min(jokers + 1, 7) << 4)
    hu = np.zeros(n * n * n)
    flush = np.zeros(n * n * n)
    for b0 in range(n):
        for b1 in range(n):
            for b2 in range(n):
                level = _level_packed(representative[b0], representative[b1], representative[b2], jokers)
                hu[(b0 * n + b1) * n + b2] = 1.0 if level == 1 else 0.0
                flush[(b0 * n + b1) * n + b2] = 1.0 if level == 2 else 0.0
    return hu, flush


@kernel(inline="always")
def _add_mass(buckets, masses, n, bucket, mass):
    """Add ``mass`` to ``bucket`` in a small histogram of ``n`` entries; return the new size."""
    for q in range(n):
        if buckets[q] == bucket:
            masses[q] += mass
            return n
    buckets[n] = bucket
    masses[n] = mass
    return n + 1


@kernel(nogil=True)
def _suit_profile(s, key, x, left, table, ranks, cap, powers, jokers, h1_bucket, h1_mass, h2_bucket, h2_mass,
                  per_rank, one_b, r_bucket, r_mass, r_n):
    """One suit of X (suit key ``key``): histograms of the suit's need bucket after one
    unseen card of the suit (``h1``) and after two (``h2``), weighted by how many
    card combinations give each. Returns the two histograms' sizes. With ``per_rank``
    also, for each rank r of the suit with a card left, the bucket after one card of
    rank r (``one_b[r]``) and the histogram of buckets after that card and each other
    left card of the suit (``r_bucket[r]``, ``r_mass[r]``, ``r_n[r]`` entries): the
    same-suit part of the removal counts R."""
    base = s * ranks
    n1 = 0
    n2 = 0
    if per_rank:
        for r1 in range(ranks):
            t1 = base + r1
            r_n[r1] = 0
            if left[t1] == 0:
                continue
            k1 = key + (powers[r1] if x[t1] + 1 <= cap else 0)
            one_b[r1] = _bucket(np.int64(table[k1]), jokers)
            for r2 in range(ranks):
                t2 = base + r2
                same = 1 if t2 == t1 else 0
                mass = left[t2] - same
                if mass <= 0:
                    continue
                k2 = k1 + (powers[r2] if x[t2] + 1 + same <= cap else 0)
                r_n[r1] = _add_mass(r_bucket[r1], r_mass[r1], r_n[r1], _bucket(np.int64(table[k2]), jokers),
                                    mass * 1.0)
    for r1 in range(ranks):
        t1 = base + r1
        u1 = left[t1]
        if u1 == 0:
            continue
        k1 = key + (powers[r1] if x[t1] + 1 <= cap else 0)
        n1 = _add_mass(h1_bucket, h1_mass, n1, _bucket(np.int64(table[k1]), jokers), u1 * 1.0)
        if u1 >= 2:
            k2 = k1 + (powers[r1] if x[t1] + 2 <= cap else 0)
            n2 = _add_mass(h2_bucket, h2_mass, n2, _bucket(np.int64(table[k2]), jokers), u1 * (u1 - 1) / 2.0)
        for r2 in range(r1 + 1, ranks):
            t2 = base + r2
            u2 = left[t2]
            if u2 == 0:
                continue
            k2 = k1 + (powers[r2] if x[t2] + 1 <= cap else 0)
            n2 = _add_mass(h2_bucket, h2_mass, n2, _bucket(np.int64(table[k2]), jokers), u1 * u2 * 1.0)
    return n1, n2


# Layout of the outcome counts ``_fa_values`` can track for one bet (see :mod:`solver.game.outcomes`):
# step-11 wins, ting folds, then (hu, flush hu, loss) for each ting multiple, and last the summed
# bonus net of the paths that settle the bonus. Counts are card combinations of the six community
# cards (a step-11 win or a ting fold counts all its last-two completions).
TRACK_FA_HU, TRACK_FA_HU_FLUSH, TRACK_FOLD_TING, TRACK_TING_FIRST = 0, 1, 2, 3


def track_size(n_multiples: int) -> int:
    """Length of the tracked-outcome vector for ``n_multiples`` ting bet sizes."""
    return TRACK_TING_FIRST + 3 * n_multiples + 1


@kernel(inline="always")
def _tracked_choice(n_hu, n_flush, total2, fa_bet, multiples, pays, bonus):
    """The ting decision of docs/rules.md ("Information and optimal play"): best EV, ties within 1e-12 to less
    money at risk (fold, then smaller G); 0 folds, ``m + 1`` bets ``multiples[m]``."""
    _, top = _ting_choice(n_hu, n_flush, total2, fa_bet, multiples, pays, bonus)
    if -(1.0 + fa_bet) >= top - TIE_TOLERANCE:
        return 0
    for m in range(multiples.shape[0]):
        if _ting_bet_ev(n_hu, n_flush, total2, fa_bet, multiples[m] * fa_bet, pays) + bonus >= top - TIE_TOLERANCE:
            return m + 1
    return multiples.shape[0]  # not reached: the best option is within the tolerance of itself


@kernel(inline="always")
def _track_ting(choice, n_hu, n_flush, total2, weight, bonus_net, tracked):
    """Count the outcomes of ting decision ``choice`` (see :func:`_tracked_choice`); ``bonus_net``:
    the expected bonus net, settled by a ting bet (read only then)."""
    if choice == 0:
        tracked[TRACK_FOLD_TING] += weight * total2
    else:
        base = TRACK_TING_FIRST + 3 * (choice - 1)
        tracked[base] += weight * n_hu
        tracked[base + 1] += weight * n_flush
        tracked[base + 2] += weight * (total2 - n_hu - n_flush)
        tracked[tracked.shape[0] - 1] += weight * total2 * bonus_net


@kernel
def _key_flags(key, s, hold, ranks, cap, scratch):
    """Hand-card flags of suit ``s`` of hold plus community, from the suit's key (the hold's
    part of the suit is known, so the key gives the community's); ``scratch``: zeros."""
    base = cap + 1
    for r in range(ranks):
        scratch[s * ranks + r] = key % base - hold[s * ranks + r]
        key //= base
    flags = _suit_flags_with_hand(hold, scratch, s * ranks, ranks)
    for r in range(ranks):
        scratch[s * ranks + r] = 0
    return flags


@kernel(inline="always")
def _hand_card_level(keys, hold, suits, ranks, cap, flags_of, suit_flags, scratch):
    """Hu level, counting only hus that use a card of ``hold``, of the cards with suit keys ``keys``
    (the hold's among them), from each suit's hand-card flags, found once per key (``flags_of``)."""
    for su in range(suits):
        f = flags_of[su, keys[su]]
        if f < 0:
            f = _key_flags(keys[su], su, hold, ranks, cap, scratch)
            flags_of[su, keys[su]] = f
        suit_flags[su] = f
    return _level_from_flags(suit_flags[0], suit_flags[1], suit_flags[2])


@kernel(inline="always")
def _removed_weight(m4, i, before, runs, r1, r2):
    """Weight prod C(U_t - E_t, a_t) of four-card community ``i`` once the cards ``r1``, ``r2``
    (-1: none) are removed too, from ``before[c]`` (unseen count of card c's type before c
    is taken) and ``runs[c]``: the same operations, in the same order, as the plain weight."""
    weight = 1.0
    for c in range(4):
        t = m4[i, c]
        f = before[c] - (1 if t == r1 else 0) - (1 if t == r2 else 0)
        if f <= 0:
            return 0.0
        weight *= f
        if runs[c] > 1:  # as the plain weight: a division by one changes nothing
            weight /= runs[c]
    return weight


@kernel(nogil=True)
def _fa_values(hold, unseen, removals, deck, payouts, bonus, out, track, tracked, shared):
    """Expected net result (T and F counted) of each fa-hu bet size for one hold, against several
    sets of unseen cards at once.

    ``hold``: count vector with jokers last; ``unseen``: unseen suited
    counts; ``removals[e]``: up to two suited card types (-1: none, sorted
    otherwise) also seen in case ``e``, whose values go to ``out[e]``. The
    two-card completions of ``unseen - A - E`` are counted by
    inclusion-exclusion from those of ``L = unseen - A``: removing a card of
    type ``e`` removes the ``R(e) = sum_t (L_t - [t = e]) hu(X + e + t)``
    winning completions that hold it, and two removed cards add back the
    completion they make together. Counts are exact integers, so each
    ``out[e]`` is bit for bit what a separate call with ``unseen - E`` gives.

    ``deck``: the geometry's tables (:func:`_deck_tables`); ``payouts``:
    (bet sizes F, ting multiples, payout vector); ``bonus``: (B,
    ``bonus_ev``, ``succ4``, ``succ5``, ``m6_net``), where ``bonus_ev[e, i]`` is
    the expected net of a unit bonus bet given four-card community ``i`` in
    case ``e`` (read only when B > 0 or tracking). With one row it serves a
    single case, its NaN entries computed when first needed (see
    :func:`_bonus_evs`, so tracking counts only the communities bet on);
    with removal cases each case has a row of its own, given whole.
    ``track``: -1, or the index of the bet whose outcomes are counted into
    ``tracked`` (layout: ``TRACK_*``; counts are exact integers held in floats).
    ``shared``: (``extra``, ``binom``, ``cache``, ``removal_cache``, ``flags``, ``flags_part``,
    ``safe_sixes``, ``upper``), completion counts (and R(t), with removals), hand-card flags and the
    six-card communities no hold of the group can fail the hand-card rule on, shared by a group of holds
    (:class:`SharedCounts`); arrays of no rows when the hold is valued alone. With rows in ``upper``
    (no tracking), ``out`` gets upper bounds instead (:func:`fa_upper_bounds_sharing`).
    """
    m4, alone, table, suits, ranks, cap, n_profiles = deck
    n_suited = unseen.shape[0]
    jokers = hold[n_suited]
    n_cases = removals.shape[0]
    n_bets = payouts[0].shape[0]
    hold_keys = np.empty(3, np.int64)
    _suit_keys(hold, suits, ranks, cap, hold_keys)
    total2, needs_r, removing = _cases(removals, unseen)
    if removing and shared[2].shape[0] > 0:
        needs_r[:] = True  # the shared R(t) serve holds with other removed cards
    hu_of, flush_of = _bucket_levels(jokers)
    # the work arrays, all made here: the loop unowns every array it is handed
    work = (_powers(ranks, cap + 1), hold_keys, np.empty(3, np.int64), np.empty(3, np.int64), hold.copy(),
            unseen.copy(), np.empty(n_cases), np.zeros(n_suited, np.bool_), np.zeros(n_cases), np.empty(4, np.int64),
            np.empty(4, np.int64), np.zeros((n_cases, n_bets, SUM_TING_FIRST + 3 * payouts[1].shape[0])),
            np.zeros((n_cases, n_bets)), total2, needs_r, hu_of, flush_of, np.zeros((n_cases, n_bets)))
    _fa_values_loop(hold, unseen, removals, deck, payouts, bonus, out, track, tracked, removing, shared,
                    _new_profiles(n_profiles, ranks, cap, jokers), _new_counts(n_suited, jokers),
                    _new_hand_rule(hold, alone, cap, ranks, jokers, hold_keys, shared[4], shared[5], shared[6]),
                    work)


@kernel(nogil=True)
def _fa_values_loop(hold, unseen, removals, deck, payouts, bonus, out, track, tracked, removing, shared, profiles,
                    counts, hand_rule, work):
    """:func:`_fa_values`' loop over the communities, handed every array it reads or writes (``profiles``,
    ``counts``, ``hand_rule``: :func:`_new_profiles`, :func:`_new_counts`, :func:`_new_hand_rule`; ``work``:
    the rest). It hands its helpers unowned arrays (:func:`solver.runtime.jit.unowned`): with their
    reference counts, numba's atomic counting took half the kernel's time. Never inlined: the arrays
    :func:`_fa_values` made stay alive only because this is a call of its own."""
    m4, alone, table, suits, ranks, cap, n_profiles = deck
    m4, table = unowned((m4, table))
    alone_offsets, alone_pairs, alone_sixes = unowned(alone)
    bets, multiples, pays = unowned(payouts)
    bonus_bet, bonus_ev, succ4, succ5, m6_net = bonus
    bonus_ev, succ4, succ5, m6_net = unowned((bonus_ev, succ4, succ5, m6_net))
    hold, unseen, removals, out, tracked = unowned((hold, unseen, removals, out, tracked))
    powers, hold_keys, keys, needs, x, left, weights, in_a, total4, before, runs, sums, bonus_sums, total2, needs_r, \
        hu_of, flush_of, upper_sums = unowned(work)
    a_rank, profile_of, n_built, h1_bucket, h1_mass, h1_n, h2_bucket, h2_mass, h2_n, one_b, r_bucket, r_mass, \
        r_n, a_keys, used, a_n = unowned(profiles)
    bucket, cross_hu, cross_flush, r_hu, r_flush, one_bucket, pair_fix, after = unowned(counts)
    flags_of, suit_flags, six_levels, scratch = unowned(hand_rule)
    extra, binom, cache, r_cache, _, _, _, upper = unowned(shared)
    sharing = cache.shape[0] > 0
    bounding = upper.shape[0] > 0
    bound_total2 = 0.0
    if bounding:
        # the completions a bound's nets are taken over, as few as any case has, and the same for every
        # hold of a group: with one card removed in a group made for removal cases, whatever a hold's cases
        most = 1 if r_cache.shape[1] > 0 else 0
        for e in range(removals.shape[0]):
            most = max(most, (1 if removals[e, 0] >= 0 else 0) + (1 if removals[e, 1] >= 0 else 0))
        n_left = unseen.sum() - 4 - most
        bound_total2 = n_left * (n_left - 1) / 2.0
    n_suited = unseen.shape[0]
    jokers = hold[n_suited]
    nb = _n_buckets(jokers)
    n_cases = removals.shape[0]
    # The values are summed by the decision each community takes (see :func:`_add_outcome`), as
    # integer counts of card combinations, exact in any order: a hold's value does not depend on
    # the order of the communities, so relabelled suits or ranks give it bit for bit.
    for i in range(m4.shape[0]):
        weight = _community_weight(m4, i, left, before, runs)
        if weight == 0.0:
            continue
        _case_weights(m4, i, weight, removals, removing, in_a, before, runs, weights, total4)
        at = -1
        if bounding:  # a community's net depends on the group's multiset E + A alone: read it if known
            at = _shared_index(m4, i, extra, binom, n_suited)
            if upper[at, 0] == upper[at, 0]:  # not NaN
                _add_bounds(upper, at, upper_sums, weights, i, bets, bonus_bet, bonus_ev)
                for c in range(4):
                    left[m4[i, c]] += 1
                continue
        _community_keys(m4, i, hold_keys, x, keys, powers, ranks, cap)
        for s in range(3):
            needs[s] = _needs_of_key(table, keys[s])
        level = _level_packed(needs[0], needs[1], needs[2], jokers)
        if bounding and (level > 0 or _level_packed(needs[0], needs[1], needs[2], jokers + 2) == 0):
            # the step-11 payout, or a fold with no completion winning: the sums below are not read
            _bound_community(upper, at, level, 0.0, 0.0, bound_total2, bets, multiples, pays, bonus_bet > 0)
            _add_bounds(upper, at, upper_sums, weights, i, bets, bonus_bet, bonus_ev)
        elif level > 0:
            for e in range(n_cases):
                for b in range(bets.shape[0]):
                    sums[e, b, SUM_FA_FLUSH if level == 2 else SUM_FA_HU] += weights[e]
            if track >= 0:
                tracked[TRACK_FA_HU_FLUSH if level == 2 else TRACK_FA_HU] += weight * total2[0]
        elif _level_packed(needs[0], needs[1], needs[2], jokers + 2) == 0:
            # no completion wins: fold, unless the bonus alone pays for a ting bet
            for e in range(n_cases):
                _add_outcome(sums, bonus_sums, e, weights[e], 0.0, 0.0, total2[e], bets, multiples, pays,
                             _case_bonus(i, e, bonus_bet, bonus_ev, succ4, succ5, m6_net, left, total2))
            if track >= 0:
                ting_bonus = _case_bonus(i, 0, bonus_bet, bonus_ev, succ4, succ5, m6_net, left, total2)
                choice = _tracked_choice(0.0, 0.0, total2[0], bets[track], multiples, pays, ting_bonus)
                net = _bonus_ev_of(i, bonus_ev[0], succ4, succ5, m6_net, left, total2[0]) if choice > 0 else 0.0
                _track_ting(choice, 0.0, 0.0, total2[0], weight, net, tracked)
        else:
            if not bounding:  # (bounding, the rank is known: counts too large to pack are not kept)
                at = _shared_index(m4, i, extra, binom, n_suited) if sharing else -1
            packed = cache[at] if sharing and at >= 0 else -1
            if packed < 0 or removing:  # read by the counts, and by the removal cases' pair levels
                for su in range(3):
                    bucket[su] = _bucket(needs[su], jokers)
            if packed >= 0:
                n_hu = float(packed & 0xFFFF)
                n_flush = float(packed >> 16)
                if removing:
                    for t in range(n_suited):
                        r_hu[t] = float(r_cache[at, t] & 0xFFFF)
                        r_flush[t] = float(r_cache[at, t] >> 16)
            else:
                # the suit profiles of A's suit parts, built on first use (here, not in a helper: one
                # measured slower, docs/performance.md)
                for su in range(suits):
                    a_keys[su] = 0
                    a_n[su] = 0
                for c in range(4):  # a suit's cards come in rising rank: its part's rank (see _new_profiles)
                    t = m4[i, c]
                    su = t // ranks
                    a_keys[su] += a_rank[a_n[su], t - su * ranks]
                    a_n[su] += 1
                for su in range(suits):
                    a_keys[su] += a_rank[4, a_n[su]]
                    p = profile_of[su, a_keys[su]]
                    if p < 0:
                        p = n_built[su]
                        n_built[su] += 1
                        profile_of[su, a_keys[su]] = p
                        h1_n[su, p], h2_n[su, p] = _suit_profile(
                            su, keys[su], x, left, table, ranks, cap, powers, jokers,
                            h1_bucket[su, p], h1_mass[su, p], h2_bucket[su, p], h2_mass[su, p],
                            removing, one_b[su, p], r_bucket[su, p], r_mass[su, p], r_n[su, p])
                    used[su] = p
                n_hu, n_flush = _completion_counts(h1_bucket, h1_mass, h1_n, h2_bucket, h2_mass, h2_n, used, bucket,
                                                   suits, hu_of, flush_of, nb)
                if removing and not bounding:  # a bound takes the counts before any removal
                    _removal_counts(h1_bucket, h1_mass, h1_n, one_b, r_bucket, r_mass, r_n, used, bucket, suits,
                                    ranks, hu_of, flush_of, nb, needs_r, left, cross_hu, cross_flush, r_hu, r_flush,
                                    one_bucket)
                if sharing and at >= 0 and not (bounding and removing):  # kept with their R(t) only
                    cache[at] = np.int32(n_hu) | (np.int32(n_flush) << 16)
                    if removing:
                        for t in range(n_suited):
                            r_cache[at, t] = np.int32(r_hu[t]) | (np.int32(r_flush[t]) << 16) if left[t] > 0 else 0
            if bounding:  # without the hand-card rule, which only lowers a completion's payout
                _bound_community(upper, at, 0, n_hu, n_flush, bound_total2, bets, multiples, pays, bonus_bet > 0)
                _add_bounds(upper, at, upper_sums, weights, i, bets, bonus_bet, bonus_ev)
                for c in range(4):
                    x[m4[i, c]] -= 1
                    left[m4[i, c]] += 1
                continue
            if jokers == 0:
                d_hu, d_flush = _hand_rule_fix(i, keys, x, left, hold, alone_offsets, alone_pairs, alone_sixes, table,
                                               suits, ranks, cap, powers, removing, flags_of, suit_flags, six_levels,
                                               scratch, r_hu, r_flush, pair_fix, after)
                n_hu += d_hu
                n_flush += d_flush
            for e in range(n_cases):
                if weights[e] == 0.0:
                    continue
                case_hu = n_hu
                case_flush = n_flush
                t1 = removals[e, 0]
                t2 = removals[e, 1]
                if t1 >= 0:
                    case_hu -= r_hu[t1]
                    case_flush -= r_flush[t1]
                if t2 >= 0:
                    case_hu -= r_hu[t2]
                    case_flush -= r_flush[t2]
                    pair = _pair_level(keys, bucket, x, table, powers, ranks, cap, jokers, one_bucket, t1, t2,
                                       hu_of, flush_of, nb, pair_fix, after)
                    if pair == 1:
                        case_hu += 1.0
                    elif pair == 2:
                        case_flush += 1.0
                _add_outcome(sums, bonus_sums, e, weights[e], case_hu, case_flush, total2[e], bets, multiples, pays,
                             _case_bonus(i, e, bonus_bet, bonus_ev, succ4, succ5, m6_net, left, total2))
            if track >= 0:
                ting_bonus = _case_bonus(i, 0, bonus_bet, bonus_ev, succ4, succ5, m6_net, left, total2)
                choice = _tracked_choice(n_hu, n_flush, total2[0], bets[track], multiples, pays, ting_bonus)
                net = _bonus_ev_of(i, bonus_ev[0], succ4, succ5, m6_net, left, total2[0]) if choice > 0 else 0.0
                _track_ting(choice, n_hu, n_flush, total2[0], weight, net, tracked)
            if removing and jokers == 0:
                for e in range(alone_offsets[i], alone_offsets[i + 1]):
                    pair_fix[alone_pairs[e, 0], alone_pairs[e, 1]] = 0
        for c in range(4):  # the hold's counts and the unseen cards back as they were
            x[m4[i, c]] -= 1
            left[m4[i, c]] += 1
    for e in range(n_cases):
        for b in range(bets.shape[0]):
            if bounding:
                out[e, b] = upper_sums[e, b] / total4[e]
            else:
                out[e, b] = _summed_value(sums[e, b], bonus_sums[e, b], bets[b], multiples, pays, total2[e]) / total4[e]


@kernel(inline="always")
def _bound_community(upper, at, level, n_hu, n_flush, total2, bets, multiples, pays, with_bonus):
    """Each bet's net per combination of a community that ends at step 11 with hu ``level`` (1, 2), or else
    reaches the ting decision with ``n_hu`` and ``n_flush`` winning completions of ``total2`` (taken as
    :func:`_add_outcome` does), kept for the group's multiset at ``at``: the best of folding and betting,
    or, ``with_bonus``, betting's (the bonus bet's EV is the case's, :func:`_add_bounds`), the level in the
    last column. A removed card only takes completions away, winning ones among them, so with the counts
    before any removal and the fewest completions of any case the net bounds every case's."""
    n_lose = total2 - n_hu - n_flush
    m = _best_multiple(n_hu, n_flush, n_lose, multiples, pays)
    for b in range(bets.shape[0]):
        fa_bet = bets[b]
        if level == 2:
            net = pays[FA_ANTE] + fa_bet * pays[FA_FLUSH]
        elif level == 1:
            net = pays[FA_ANTE] + fa_bet * pays[FA_PAYS]
        elif not with_bonus and _ting_decision(n_hu, n_flush, n_lose, total2, fa_bet, m, multiples, pays, 0.0) == 0:
            net = -(1.0 + fa_bet)
        else:
            net = _ting_bet_net(n_hu, n_flush, n_lose, fa_bet, multiples[m] * fa_bet, pays) / total2
        upper[at, b] = net
    if with_bonus:
        upper[at, bets.shape[0]] = level


@kernel(inline="always")
def _add_bounds(upper, at, upper_sums, weights, i, bets, bonus_bet, bonus_ev):
    """Add community ``i``'s kept nets (:func:`_bound_community`) ``weights[e]`` times to each case's sums;
    with a bonus bet, one reaching the ting decision nets the best of folding (the bonus pushes) and betting
    with the case's bonus EV (``bonus_ev[e, i]``), which a ting bet settles."""
    n_bets = bets.shape[0]
    ting = bonus_bet > 0.0 and upper[at, n_bets] == 0.0
    for e in range(weights.shape[0]):
        bonus = bonus_bet * bonus_ev[e, i] if ting else 0.0
        for b in range(n_bets):
            net = max(upper[at, b] + bonus, -(1.0 + bets[b])) if ting else upper[at, b]
            upper_sums[e, b] += weights[e] * net


@kernel(inline="always")
def _shared_index(m4, i, extra, binom, n_types):
    """Rank of the multiset ``extra`` + community ``i`` (both sorted card types) among the multisets
    of its size, in the communities' (lexicographic) order, so that one hold's lookups come close
    together in memory: with the types taken from the largest down as u = n_types - 1 - t, the
    numbers c_j = u_j + j increase strictly, and the rank is sum_j C(c_j, j + 1)."""
    rank = 0
    a = 3
    b = extra.shape[0] - 1
    for j in range(4 + extra.shape[0]):
        if b < 0 or (a >= 0 and m4[i, a] >= extra[b]):
            t = m4[i, a]
            a -= 1
        else:
            t = extra[b]
            b -= 1
        rank += binom[n_types - 1 - t + j, j + 1]
    return rank


@kernel(inline="always")
def _powers(ranks, base):
    """``base ** r`` for each rank r: the digit weights of a suit key."""
    powers = np.ones(ranks, np.int64)
    for r in range(1, ranks):
        powers[r] = powers[r - 1] * base
    return powers


@kernel(inline="always")
def _cases(removals, unseen):
    """Per case: its number of two-card completions; which card types need R(t); whether any case removes."""
    n_unseen = unseen.sum()
    n_cases = removals.shape[0]
    total2 = np.empty(n_cases)
    needs_r = np.zeros(unseen.shape[0], np.bool_)
    # typed bool from the start: a literal False would have numba compile the loop it is handed twice, once
    # for the literal and once for bool (half a minute more on a first run)
    removing = n_cases < 0
    for e in range(n_cases):
        n_left = n_unseen - (1 if removals[e, 0] >= 0 else 0) - (1 if removals[e, 1] >= 0 else 0)
        total2[e] = (n_left - 4) * (n_left - 5) / 2.0
        for k in range(2):
            if removals[e, k] >= 0:
                needs_r[removals[e, k]] = True
                removing = True
    return total2, needs_r, removing


@kernel(inline="always")
def _community_weight(m4, i, left, before, runs):
    """Weight prod C(U_t, a_t) of four-card community ``i`` (ordered falling product, divided by run
    lengths), taking its cards out of ``left``; ``before`` and ``runs`` keep the factors for
    :func:`_removed_weight`. Zero, ``left`` as it was, when the community cannot be dealt."""
    weight = 1.0
    run = 1
    for c in range(4):
        t = m4[i, c]
        if left[t] == 0:
            for d in range(c):
                left[m4[i, d]] += 1
            return 0.0
        before[c] = left[t]
        weight *= left[t]
        left[t] -= 1
        run = run + 1 if c > 0 and m4[i, c - 1] == t else 1
        runs[c] = run
        if run > 1:  # a division by one changes nothing and costs as much as one by two
            weight /= run
    return weight


@kernel(inline="always")
def _case_weights(m4, i, weight, removals, removing, in_a, before, runs, weights, total4):
    """Each case's weight of community ``i``: the plain one unless a removed card is one it takes (never
    without ``removing``)."""
    if not removing:
        for e in range(removals.shape[0]):
            weights[e] = weight
            total4[e] += weight
        return
    for c in range(4):
        in_a[m4[i, c]] = True
    for e in range(removals.shape[0]):
        r1 = removals[e, 0]
        r2 = removals[e, 1]
        if (r1 < 0 or not in_a[r1]) and (r2 < 0 or not in_a[r2]):
            weights[e] = weight
        else:
            weights[e] = _removed_weight(m4, i, before, runs, r1, r2)
        total4[e] += weights[e]
    for c in range(4):
        in_a[m4[i, c]] = False


@kernel(inline="always")
def _community_keys(m4, i, hold_keys, x, keys, powers, ranks, cap):
    """Add community ``i`` to ``x`` (the hold's counts) and set ``keys`` to the suit keys of the result."""
    for s in range(3):
        keys[s] = hold_keys[s]
    for c in range(4):
        t = m4[i, c]
        x[t] += 1
        if x[t] <= cap:
            s = t // ranks
            keys[s] += powers[t - s * ranks]


@kernel(inline="always")
def _new_profiles(n_profiles, ranks, cap, jokers):
    """Room for the suit profiles, built on first use and keyed by the suit part of A: the rank of
    the multiset of its ranks r_0 <= ... <= r_{k-1} among those of k cards, sum_j C(r_j + j, j + 1)
    (``a_rank[j, r]``), after those of fewer cards (``a_rank[4, k]``). A small key, so the table
    of profiles found stays in the processor's nearest caches."""
    nb = _n_buckets(jokers)
    a_rank = np.zeros((5, max(ranks, 5)), np.int64)
    for j in range(4):
        for r in range(ranks):
            a_rank[j, r] = _binomial(r + j, j + 1)
    for k in range(1, 5):
        a_rank[4, k] = a_rank[4, k - 1] + _binomial(ranks + k - 2, k - 1)
    profile_of = np.full((3, a_rank[4, 4] + _binomial(ranks + 3, 4)), -1, np.int16)
    return (a_rank, profile_of, np.zeros(3, np.int64),
            np.empty((3, n_profiles, nb), np.int64), np.empty((3, n_profiles, nb), np.float64),
            np.empty((3, n_profiles), np.int64),
            np.empty((3, n_profiles, nb), np.int64), np.empty((3, n_profiles, nb), np.float64),
            np.empty((3, n_profiles), np.int64),
            np.empty((3, n_profiles, ranks), np.int64), np.empty((3, n_profiles, ranks, nb), np.int64),
            np.empty((3, n_profiles, ranks, nb), np.float64), np.empty((3, n_profiles, ranks), np.int64),
            np.empty(3, np.int64), np.empty(3, np.int64), np.empty(3, np.int64))


@kernel(inline="always")
def _binomial(n, k):
    """C(n, k) for small n and k (exact in int64)."""
    if k < 0 or k > n:
        return 0
    out = 1
    for j in range(k):
        out = out * (n - j) // (j + 1)
    return out


@kernel(inline="always")
def _new_counts(n_suited, jokers):
    """Scratch for one community's completion counts: the suits' buckets, cross sums per suit and
    bucket, R(t) for hu and flush hu, each type's one-card bucket, and the hand-card fixes of pairs."""
    nb = _n_buckets(jokers)
    return (np.empty(3, np.int64), np.empty((3, nb)), np.empty((3, nb)), np.zeros(n_suited), np.zeros(n_suited),
            np.empty(n_suited, np.int64), np.zeros((n_suited, n_suited), np.int64), np.empty(3, np.int64))


@kernel(inline="always")
def _new_hand_rule(hold, alone, cap, ranks, jokers, hold_keys, flags_memo, flags_part, safe_sixes):
    """Memos for the hand-card re-test: hand-card flags of a suit by its key
    (:func:`solver.game.hu._new_flags_memo`), and both levels of each six-card community that forms a hu
    alone (plain | hand-card level << 2). A suit's flags depend on the hold's part of the suit alone, so
    a group's memo (``flags_memo``, of three rows, each valid for the hold's part of the suit with key
    ``flags_part``) is kept for the suits where this hold's part is the last one's. Six-card communities
    marked in a group's ``safe_sixes`` pass the hand-card rule whatever the hold (two equal levels)."""
    _, _, sixes = alone
    n_sixes = sixes.max() + 1 if sixes.shape[0] > 0 else 0
    six_levels = np.full(n_sixes if jokers == 0 else 0, -1, np.int8)
    if safe_sixes.shape[0] == six_levels.shape[0]:
        for q in range(six_levels.shape[0]):
            if safe_sixes[q]:
                six_levels[q] = 1 | 1 << 2
    if flags_memo.shape[0] == 3 and jokers == 0:
        for su in range(3):
            if flags_part[su] != hold_keys[su]:
                flags_memo[su, :] = -1
                flags_part[su] = hold_keys[su]
        flags_of = flags_memo
    else:
        flags_of = _new_flags_memo(cap, ranks, jokers)
    return flags_of, np.zeros(3, np.int64), six_levels, np.zeros(hold.shape[0], np.int64)


@kernel(inline="always")
def _completion_counts(h1_bucket, h1_mass, h1_n, h2_bucket, h2_mass, h2_n, used, bucket, suits, hu_of, flush_of, nb):
    """Plain hu and flush-hu completions, from the suit profiles in use."""
    n_hu = 0.0
    n_flush = 0.0
    # both cards in one suit: that suit's bucket changes
    for su in range(suits):
        p = used[su]
        for q in range(h2_n[su, p]):
            at = _bucket_at(bucket, su, h2_bucket[su, p, q], -1, 0, nb)
            n_hu += h2_mass[su, p, q] * hu_of[at]
            n_flush += h2_mass[su, p, q] * flush_of[at]
    # one card in each of two suits
    for s1 in range(suits):
        p1 = used[s1]
        for s2 in range(s1 + 1, suits):
            p2 = used[s2]
            for a in range(h1_n[s1, p1]):
                mass_a = h1_mass[s1, p1, a]
                for b in range(h1_n[s2, p2]):
                    at = _bucket_at(bucket, s1, h1_bucket[s1, p1, a], s2, h1_bucket[s2, p2, b], nb)
                    mass = mass_a * h1_mass[s2, p2, b]
                    n_hu += mass * hu_of[at]
                    n_flush += mass * flush_of[at]
    return n_hu, n_flush


@kernel(inline="always")
def _removal_counts(h1_bucket, h1_mass, h1_n, one_b, r_bucket, r_mass, r_n, used, bucket, suits, ranks, hu_of,
                    flush_of, nb, needs_r, left, cross_hu, cross_flush, r_hu, r_flush, one_bucket):
    """R(t) for each removed type t, into ``r_hu`` and ``r_flush``: completions holding a card of
    type t. With the other card in another suit it depends on t only through t's one-card bucket."""
    for su in range(suits):
        for k in range(nb):
            hu_sum = 0.0
            flush_sum = 0.0
            for s2 in range(suits):
                if s2 == su:
                    continue
                p2 = used[s2]
                for b in range(h1_n[s2, p2]):
                    at = _bucket_at(bucket, su, k, s2, h1_bucket[s2, p2, b], nb)
                    hu_sum += h1_mass[s2, p2, b] * hu_of[at]
                    flush_sum += h1_mass[s2, p2, b] * flush_of[at]
            cross_hu[su, k] = hu_sum
            cross_flush[su, k] = flush_sum
    for t in range(needs_r.shape[0]):
        if not needs_r[t] or left[t] == 0:
            continue
        s = t // ranks
        r = t - s * ranks
        p = used[s]
        one_bucket[t] = one_b[s, p, r]
        hu_sum = cross_hu[s, one_bucket[t]]
        flush_sum = cross_flush[s, one_bucket[t]]
        for q in range(r_n[s, p, r]):
            at = _bucket_at(bucket, s, r_bucket[s, p, r, q], -1, 0, nb)
            hu_sum += r_mass[s, p, r, q] * hu_of[at]
            flush_sum += r_mass[s, p, r, q] * flush_of[at]
        r_hu[t] = hu_sum
        r_flush[t] = flush_sum


# The change in a completion's (hu, flush hu) count when its levels (plain | hand-card level << 2) differ.
_DELTA_HU = np.array([float((lv >> 2 == 1) - (lv & 3 == 1)) for lv in range(16)])
_DELTA_FLUSH = np.array([float((lv >> 2 == 2) - (lv & 3 == 2)) for lv in range(16)])


@kernel(inline="always")
def _hand_rule_fix(i, keys, x, left, hold, offsets, pairs, sixes, table, suits, ranks, cap, powers, removing,
                   flags_of, suit_flags, six_levels, scratch, r_hu, r_flush, pair_fix, after):
    """Completions where the community alone forms a hu, re-tested with the hand-card rule: the change
    in (hu, flush hu) counts; with ``removing``, R(t) and the pair fixes follow it (memos: see
    :func:`_new_hand_rule`)."""
    d_hu_all = 0.0
    d_flush_all = 0.0
    for e in range(offsets[i], offsets[i + 1]):
        t1 = pairs[e, 0]
        t2 = pairs[e, 1]
        w = left[t1] * (left[t1] - 1) / 2.0 if t1 == t2 else left[t1] * left[t2] * 1.0
        # X plus the completion is the hold plus six community cards, which come back under up
        # to 15 A's: both levels are worked out once per six-card community
        levels = six_levels[sixes[e]]
        if levels < 0:
            if w == 0.0:
                continue
            _completion_keys(keys, x, t1, t2, ranks, powers, cap, after)
            levels = _level_packed(_needs_of_key(table, after[0]), _needs_of_key(table, after[1]),
                                   _needs_of_key(table, after[2]), 0)
            levels |= _hand_card_level(after, hold, suits, ranks, cap, flags_of, suit_flags, scratch) << 2
            six_levels[sixes[e]] = levels
        # no branch on whether the levels differ (about a third do, unpredictably): add the change
        d_hu = _DELTA_HU[levels]
        d_flush = _DELTA_FLUSH[levels]
        d_hu_all += w * d_hu
        d_flush_all += w * d_flush
        if removing and levels & 3 != levels >> 2:
            pair_fix[t1, t2] = 1 + (levels >> 2)
            _fix_removal(t1, t2, left, d_hu, d_flush, r_hu, r_flush)
    return d_hu_all, d_flush_all


@kernel(inline="always")
def _fix_removal(t1, t2, left, d_hu, d_flush, r_hu, r_flush):
    """Carry a hand-card fix of completion (t1, t2) into R(t1) and R(t2)."""
    if t1 == t2:
        r_hu[t1] += (left[t1] - 1) * d_hu
        r_flush[t1] += (left[t1] - 1) * d_flush
    else:
        r_hu[t1] += left[t2] * d_hu
        r_flush[t1] += left[t2] * d_flush
        r_hu[t2] += left[t1] * d_hu
        r_flush[t2] += left[t1] * d_flush


# Layout of the sums ``_fa_values`` keeps per case and bet: card combinations (weights) of the
# four-card communities ending at step 11 (hu, flush hu) and folded at the ting, then per ting
# multiple the weights betting it and those weights times the completions' hu and flush hu counts.
SUM_FA_HU, SUM_FA_FLUSH, SUM_FOLD, SUM_TING_FIRST = 0, 1, 2, 3


@kernel(inline="always")
def _ting_pick(n_hu, n_flush, total2, fa_bet, multiples, pays, bonus):
    """The ting decision of :func:`solver.evaluator.ting._ting_choice`, without its division per option
    when no bonus is at stake: the summed net over the ``total2`` completions against folding's,
    ``-(1 + F) total2``. The nets are sums of products of counts and payouts, exact for payouts of a few
    bits (the rules' are halves), so they order as the EVs do; and linear in G, so the first best of the
    (strictly increasing) multiples is the smallest unless a unit of G nets more than nothing."""
    n_lose = total2 - n_hu - n_flush
    m = _best_multiple(n_hu, n_flush, n_lose, multiples, pays)
    return _ting_decision(n_hu, n_flush, n_lose, total2, fa_bet, m, multiples, pays, bonus)


@kernel(inline="always")
def _best_multiple(n_hu, n_flush, n_lose, multiples, pays):
    """The index of the multiple a ting bet takes (:func:`_ting_pick`), whatever F."""
    per_g = n_hu * pays[TING_PAYS] + n_flush * pays[TING_FLUSH] - n_lose
    return multiples.shape[0] - 1 if per_g > 0.0 else 0


@kernel(inline="always")
def _ting_decision(n_hu, n_flush, n_lose, total2, fa_bet, m, multiples, pays, bonus):
    """:func:`_ting_pick` for bet ``fa_bet``, given the multiple ``m`` a bet takes: 0 to fold, else
    ``m + 1`` when the bet nets more than folding (by the EVs of every option when a bonus is at stake)."""
    if bonus != 0.0:
        choice, _ = _ting_choice(n_hu, n_flush, total2, fa_bet, multiples, pays, bonus)
        return choice
    net = _ting_bet_net(n_hu, n_flush, n_lose, fa_bet, multiples[m] * fa_bet, pays)
    return m + 1 if net > -(1.0 + fa_bet) * total2 else 0


@kernel(inline="always")
def _add_outcome(sums, bonus_sums, e, weight, n_hu, n_flush, total2, bets, multiples, pays, bonus):
    """Add a community of ``weight`` combinations that reaches the ting decision, with ``n_hu`` and
    ``n_flush`` winning completions of ``total2``, to the sums of case ``e`` for every bet, each deciding
    as :func:`_ting_pick` (the multiple a bet takes found once for all of them)."""
    n_lose = total2 - n_hu - n_flush
    m = _best_multiple(n_hu, n_flush, n_lose, multiples, pays)
    for b in range(bets.shape[0]):
        choice = _ting_decision(n_hu, n_flush, n_lose, total2, bets[b], m, multiples, pays, bonus)
        if choice == 0:
            sums[e, b, SUM_FOLD] += weight
        else:
            k = SUM_TING_FIRST + 3 * (choice - 1)
            sums[e, b, k] += weight
            sums[e, b, k + 1] += weight * n_hu
            sums[e, b, k + 2] += weight * n_flush
            bonus_sums[e, b] += weight * bonus


@kernel(inline="always")
def _summed_value(sums, bonus_sum, fa_bet, multiples, pays, total2):
    """The summed net result (times the communities' combinations) of one bet from its sums."""
    value = (sums[SUM_FA_HU] * (pays[FA_ANTE] + fa_bet * pays[FA_PAYS])
             + sums[SUM_FA_FLUSH] * (pays[FA_ANTE] + fa_bet * pays[FA_FLUSH]) - sums[SUM_FOLD] * (1.0 + fa_bet))
    for m in range(multiples.shape[0]):
        k = SUM_TING_FIRST + 3 * m
        if sums[k] > 0:
            n_lose = sums[k] * total2 - sums[k + 1] - sums[k + 2]
            value += _ting_bet_net(sums[k + 1], sums[k + 2], n_lose, fa_bet, multiples[m] * fa_bet, pays) / total2
    return value + bonus_sum


@kernel(inline="always")
def _completion_keys(keys, x, t1, t2, ranks, powers, cap, after):
    """Fill ``after`` with the three suit keys of X (keys ``keys``, counts ``x``) plus one card
    of type ``t1`` and one of ``t2``."""
    s1 = t1 // ranks
    s2 = t2 // ranks
    for su in range(3):
        after[su] = keys[su]
    after[s1] += powers[t1 - s1 * ranks] if x[t1] + 1 <= cap else 0
    after[s2] += powers[t2 - s2 * ranks] if x[t2] + 1 + (1 if t2 == t1 else 0) <= cap else 0


@kernel(inline="always")
def _bucket_at(bucket, s1, b1, s2, b2, nb):
    """Index into the bucket level tables of the three suits' buckets with suit ``s1`` set to
    ``b1`` and (when ``s2 >= 0``) suit ``s2`` set to ``b2``."""
    k0 = b1 if s1 == 0 else (b2 if s2 == 0 else bucket[0])
    k1 = b1 if s1 == 1 else (b2 if s2 == 1 else bucket[1])
    k2 = b1 if s1 == 2 else (b2 if s2 == 2 else bucket[2])
    return (k0 * nb + k1) * nb + k2


@kernel(inline="always")
def _pair_level(keys, bucket, x, table, powers, ranks, cap, jokers, one_bucket, t1, t2, hu_of, flush_of, nb,
                pair_fix, after):
    """Hu level (hand-card rule applied) of X plus one card of type ``t1`` and one of ``t2``
    (``t1 <= t2``; ``one_bucket`` holds the buckets of X plus one card of each; ``pair_fix``
    the hand-card levels, plus one, of the completions where they differ from the plain ones;
    ``after``: scratch for three suit keys)."""
    if pair_fix[t1, t2] > 0:
        return pair_fix[t1, t2] - 1
    s1 = t1 // ranks
    s2 = t2 // ranks
    if s1 == s2:
        _completion_keys(keys, x, t1, t2, ranks, powers, cap, after)
        at = _bucket_at(bucket, s1, _bucket(np.int64(table[after[s1]]), jokers), -1, 0, nb)
    else:
        at = _bucket_at(bucket, s1, one_bucket[t1], s2, one_bucket[t2], nb)
    return 2 if flush_of[at] > 0 else (1 if hu_of[at] > 0 else 0)


def prepare_tables(geometry: DeckGeometry) -> None:
    """Build the per-geometry tables the hold kernel reads (once; later calls are free)."""
    community_index(geometry)
    alone_index(geometry)
    suit_table(geometry)


@kernel(inline="always")
def _bonus_ev_at(i, succ4, succ5, m6_net, left, total2):
    """Expected net of a unit bonus bet given four-card community ``i``, over every completion from
    ``left`` (the unseen suited cards less the community's four) of the ``total2`` pairs."""
    n_types = left.shape[0]
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
    return total / total2


@kernel(inline="always")
def _bonus_ev_of(i, bonus_ev, succ4, succ5, m6_net, left, total2):
    """``bonus_ev[i]``, computed by :func:`_bonus_ev_at` first if it is NaN (not known yet)."""
    if np.isnan(bonus_ev[i]):
        bonus_ev[i] = _bonus_ev_at(i, succ4, succ5, m6_net, left, total2)
    return bonus_ev[i]


@kernel(inline="always")
def _case_bonus(i, e, bonus_bet, bonus_ev, succ4, succ5, m6_net, left, total2):
    """B times the expected bonus net of community ``i`` in case ``e``: from the case's own row of ``bonus_ev``
    when each case has one, else from its one row, computed on first use (see :func:`_fa_values`)."""
    if bonus_bet <= 0.0:
        return 0.0
    if bonus_ev.shape[0] > 1:
        return bonus_bet * bonus_ev[e, i]
    return bonus_bet * _bonus_ev_of(i, bonus_ev[0], succ4, succ5, m6_net, left, total2[0])


@kernel(inline="always")
def _community_out(m4, i, left):
    """Take four-card community ``i`` out of the counts ``left``; whether they held every card of it."""
    possible = True
    for c in range(4):
        t = m4[i, c]
        if left[t] == 0:
            possible = False
        left[t] -= 1
    return possible


@kernel(nogil=True)
def _bonus_evs(m4, succ4, succ5, m6_net, unseen, out):
    """Expected net of a unit bonus bet for each four-card community, over every completion."""
    left = unseen.copy()
    n_unseen = unseen.sum()
    total2 = (n_unseen - 4) * (n_unseen - 5) / 2.0
    for i in range(m4.shape[0]):
        out[i] = _bonus_ev_at(i, succ4, succ5, m6_net, left, total2) if _community_out(m4, i, left) else 0.0
        left[:] = unseen


@kernel(inline="always")
def _removed_nets(i, succ4, succ5, m6_net, left, removed):
    """Community ``i``'s summed bonus net over the completions of ``left`` (the unseen cards less it), and
    into ``removed[t]`` the nets of those holding one given card of type t (where ``left`` has one):
    ``R(t) = sum_u (L_u - [u = t]) net(A + t + u)``."""
    n_types = left.shape[0]
    total = 0.0
    for t1 in range(n_types):
        removed[t1] = 0.0
        if left[t1] > 0:
            row5 = succ4[i, t1]
            for t2 in range(n_types):
                copies = left[t2] - (t1 == t2)
                if copies > 0:
                    removed[t1] += copies * m6_net[succ5[row5, t2]]
            total += left[t1] * removed[t1]
    return total / 2.0  # each completion counted from both of its cards


@kernel(nogil=True)
def _bonus_evs_removing(m4, succ4, succ5, m6_net, unseen, removals, out):
    """:func:`_bonus_evs` of ``unseen`` less each row of ``removals`` (up to two suited card types, -1 for
    none) at once, into ``out[i, e]``: each community's summed net over the completions of ``unseen - A``,
    less those holding a removed card (:func:`_removed_nets`), plus the one the two removed cards make
    (taken away twice). Exact integer sums (nets in 64ths: :func:`bonus_evs_removing`), so bit for bit what
    :func:`_bonus_evs` gives for each case."""
    left = unseen.copy()
    removed = np.empty(unseen.shape[0])
    n_unseen = unseen.sum()
    for i in range(m4.shape[0]):
        if not _community_out(m4, i, left):
            out[i, :] = 0.0
            left[:] = unseen
            continue
        total = _removed_nets(i, succ4, succ5, m6_net, left, removed)
        for e in range(removals.shape[0]):
            t1, t2 = removals[e, 0], removals[e, 1]
            case = total
            n_case = n_unseen
            for t in (t1, t2):
                if t >= 0:
                    case -= removed[t]
                    n_case -= 1
                    left[t] -= 1
            if (t1 >= 0 and left[t1] < 0) or (t2 >= 0 and left[t2] < 0):
                out[i, e] = 0.0
            else:
                if t2 >= 0:
                    case += m6_net[succ5[succ4[i, t1], t2]]
                out[i, e] = case / ((n_case - 4) * (n_case - 5) / 2.0)
            for t in (t1, t2):
                if t >= 0:
                    left[t] += 1
        left[:] = unseen


def bonus_evs_removing(unseen_suited: np.ndarray, removals: list[tuple[int, ...]], config: GameConfig
                       ) -> np.ndarray | None:
    """:func:`bonus_evs` of ``unseen_suited`` less each case of ``removals`` (up to two suited card types), a
    row a case, bit for bit, in one pass over the communities; None where that is not assured, which needs
    the nets' sums exact: every net a multiple of 1/64, and every sum below 2^53 units of that."""
    net = community_bonus_net(config)
    scaled = net * 64.0
    n = int(unseen_suited.sum())
    if not (np.all(scaled == np.round(scaled)) and float(np.abs(scaled).max()) * n * n < 2.0 ** 53):
        return None
    index = community_index(config.geometry)
    out = np.empty((len(index.m4_types), len(removals)))
    _bonus_evs_removing(index.m4_types, index.succ4, index.succ5, net,
                        np.ascontiguousarray(unseen_suited, dtype=np.int64), _removal_rows(removals), out)
    return np.ascontiguousarray(out.T)


def bonus_evs(unseen_suited: np.ndarray, config: GameConfig) -> np.ndarray:
    """Expected net of a unit bonus bet given each four-card community, for these unseen cards."""
    index = community_index(config.geometry)
    out = np.empty(len(index.m4_types), np.float64)
    _bonus_evs(index.m4_types, index.succ4, index.succ5, community_bonus_net(config),
               np.ascontiguousarray(unseen_suited, dtype=np.int64), out)
    return out


def fa_values(hold_counts: np.ndarray, unseen_suited: np.ndarray, config: GameConfig,
              bonus_bet: float = 0.0, bonus_ev: np.ndarray | None = None, track: int = -1,
              tracked: np.ndarray | None = None) -> np.ndarray:
    """Value of each fa-hu bet size of ``config`` for a hold, given the unseen suited counts.

    Values count T and F (not DD), with optimal ting decisions; in units of
    T. With a bonus bet B > 0 they include the bonus, which pushes unless
    the player bets ting-hu; ``bonus_ev`` (from :func:`bonus_evs` for the
    same unseen cards) can be passed in when several holds share it.
    With ``track`` = the index of a bet, the outcome counts of betting it are
    added into ``tracked`` (length :func:`track_size`; see ``TRACK_*``).
    """
    if (bonus_bet > 0 or track >= 0) and bonus_ev is None:
        bonus_ev = np.full(len(community_index(config.geometry).m4_types), np.nan)  # computed where needed
    return _run_kernel(hold_counts, unseen_suited, np.full((1, 2), -1, np.int64), config, bonus_bet, bonus_ev,
                       track, tracked)[0]


def fa_values_removing(hold_counts: np.ndarray, unseen_suited: np.ndarray, removals: list[tuple[int, ...]],
                       config: GameConfig, bonus_bet: float = 0.0, bonus_ev: np.ndarray | None = None) -> np.ndarray:
    """:func:`fa_values` of one hold for each case of ``removals``, in one pass.

    Case ``e`` removes the suited card types ``removals[e]`` (none, one or
    two cards, seen elsewhere) from ``unseen_suited``; row ``e`` of the
    result is bit for bit ``fa_values(hold_counts, unseen_suited - E_e)``.
    One pass over the communities serves every case, which is what makes a
    hold shared by many draws cheap (see :mod:`solver.evaluator.deal`).
    With a bonus bet B > 0, ``bonus_ev[e]`` is :func:`bonus_evs` of case
    ``e``'s unseen cards.
    """
    return _run_kernel(hold_counts, unseen_suited, _removal_rows(removals), config, bonus_bet,
                       _case_bonus_evs(bonus_bet, bonus_ev, len(removals)), -1, None)


def _case_bonus_evs(bonus_bet: float, bonus_ev: np.ndarray | None, n_cases: int) -> np.ndarray | None:
    """The bonus EVs of each case, given whole (no NaN to fill in) when a bonus bet is on: a row a case."""
    if bonus_bet <= 0:
        return None
    if bonus_ev is None or np.ndim(bonus_ev) != 2 or np.shape(bonus_ev)[0] != n_cases:
        raise ValueError("a bonus bet needs each case's bonus EVs (bonus_evs of its unseen cards)")
    return np.ascontiguousarray(bonus_ev, dtype=np.float64)


def _removal_rows(removals: list[tuple[int, ...]]) -> np.ndarray:
    """The kernel's removal cases: up to two sorted card types per row, -1 for none."""
    rows = np.full((len(removals), 2), -1, np.int64)
    for e, removed in enumerate(removals):
        rows[e, : len(removed)] = sorted(removed)
    return rows


class SharedCounts:
    """Completion counts shared by a group of holds valued one after another (:func:`fa_values_sharing`).

    Every hold of the group is ``base`` plus suited cards ``E`` (its own), valued against
    ``unseen_suited - E``. For a hold and a four-card community A the two-card completions
    are counted for X = hold + A from L = unseen - A, so both depend only on the multiset
    E + A: holds of the group that meet the same E + A share the count, which is kept
    here, indexed by the multiset's rank, the first time it is made. With ``removing``, the
    holds have removal cases of one card each (:func:`fa_values_removing`), and the removal
    counts R(t) of every card type t, which depend on E + A alone too, are kept beside.
    """

    def __init__(self, base: np.ndarray, unseen_suited: np.ndarray, geometry: DeckGeometry,
                 removing: bool = False) -> None:
        n_suited = geometry.n_types - 1
        self.base = np.asarray(base, np.int64)
        self.unseen = np.asarray(unseen_suited, np.int64)
        self.n_extra = 4 - int(self.base.sum())  # a hold has four cards
        self.removing = removing
        size = 4 + self.n_extra
        self.binom = _rank_binomials(n_suited, size)
        # n_hu | n_flush << 16 in an int32 (-1: not counted yet), half the memory of two floats: the lookups
        # go wherever the communities send them, and a smaller table misses the processor's caches less
        packs = comb(int(self.unseen.sum()), 2) < 1 << 15
        self.n_multisets = comb(n_suited + size - 1, size)
        self.cache = np.full(self.n_multisets if packs else 0, -1, np.int32)
        # R(t) packed the same way (each at most the unseen cards, so it fits where the counts do)
        self.removal_cache = np.zeros((len(self.cache), n_suited) if removing else (0, 0), np.int32)
        # the hand-card flags memo, kept from hold to hold for each suit where the hold's part stays, and the
        # safe six-card communities; none with a joker in hand, where the hand-card rule is the plain test
        self.flags = np.zeros((0, 0), np.int8)
        self.flags_part = np.full(3, -1, np.int64)
        self.safe_sixes = np.zeros(0, np.int8)
        # each bet's net per combination by the multiset's rank, for upper bounds (fa_upper_bounds_sharing)
        self.upper = np.zeros((0, 1))
        if self.base[n_suited:].sum() == 0:
            self.flags = np.full((3, (digit_cap(geometry) + 1) ** geometry.ranks), -1, np.int8)
            types = alone_six_types(geometry)
            self.safe_sixes = np.empty(len(types), np.int8)
            _safe_sixes(self.base, types, suit_table(geometry), geometry.suits, geometry.ranks, digit_cap(geometry),
                        self.safe_sixes)


@kernel(nogil=True)
def _safe_sixes(base, six_types, table, suits, ranks, cap, out):
    """``out[q]``: 1 where six-card community q (``six_types[q]``, forming a hu alone) and the cards of
    ``base`` (jokerless) hold a hu that uses a base card, of q's own level or better. Every hold holding
    the base then meets the hand-card rule on q's completions as the plain test does: a hu of the ten
    cards is q's own or uses a hand card, and one using a hand card is as good as q's own. 0 elsewhere,
    or where the base and q hold more copies of a card than the suit keys count."""
    powers = _powers(ranks, cap + 1)
    base_keys = np.empty(3, np.int64)
    _suit_keys(base, suits, ranks, cap, base_keys)
    flags_of = _new_flags_memo(cap, ranks, 0)
    suit_flags = np.zeros(3, np.int64)
    scratch = np.zeros(base.shape[0], np.int64)
    keys = np.empty(3, np.int64)
    alone = np.empty(3, np.int64)
    for q in range(six_types.shape[0]):
        for su in range(3):
            keys[su] = base_keys[su]
            alone[su] = 0 if su < suits else -1
        counted = True
        run = 0
        for j in range(6):
            t = six_types[q, j]
            run = run + 1 if j > 0 and six_types[q, j - 1] == t else 1
            s = t // ranks
            if base[t] + run > cap:
                counted = False
                break
            keys[s] += powers[t - s * ranks]
            alone[s] += powers[t - s * ranks]
        out[q] = 0
        if not counted:
            continue
        own = _level_packed(_needs_of_key(table, alone[0]), _needs_of_key(table, alone[1]),
                            _needs_of_key(table, alone[2]), 0)
        if _hand_card_level(keys, base, suits, ranks, cap, flags_of, suit_flags, scratch) >= own:
            out[q] = 1


def fa_values_sharing(hold_counts: np.ndarray, shared: SharedCounts, config: GameConfig,
                      removals: list[tuple[int, ...]] | None = None, bonus_bet: float = 0.0,
                      bonus_ev: np.ndarray | None = None) -> np.ndarray:
    """:func:`fa_values` of ``hold_counts`` against ``shared.unseen`` less the hold's own cards (those
    beyond ``shared.base``), bit for bit, reusing the counts of the group's holds before it.

    With ``removals`` (``shared`` made ``removing``; at most one card a case), the values of
    each case as :func:`fa_values_removing` gives them, as (cases, bets); else those of the one
    case with nothing removed, as (bets,). With a bonus bet B > 0, ``bonus_ev`` holds each case's
    :func:`bonus_evs` (a row a case; one row, or a vector, for the one case)."""
    extra = np.asarray(hold_counts, np.int64) - shared.base
    n_suited = config.geometry.n_types - 1
    if extra.min() < 0 or extra[n_suited:].any() or extra.sum() != shared.n_extra:
        raise ValueError("a shared hold is the group's base plus its own suited cards")
    if (shared.unseen < extra[:n_suited]).any():
        raise ValueError("a shared hold's own cards come from the group's unseen cards")
    if removals is not None and (not shared.removing or any(len(r) > 1 for r in removals)):
        raise ValueError("shared removal counts need a group made for them and one card a case")
    if removals is None and shared.removing:
        raise ValueError("a group made for removal cases values holds with them")
    return _run_sharing(hold_counts, extra, shared, config, removals, bonus_bet, bonus_ev, _NO_BOUNDS)


def _run_sharing(hold_counts: np.ndarray, extra: np.ndarray, shared: SharedCounts, config: GameConfig,
                 removals: list[tuple[int, ...]] | None, bonus_bet: float, bonus_ev: np.ndarray | None,
                 upper: np.ndarray) -> np.ndarray:
    """:func:`_run_kernel` for a hold of a group (its own cards ``extra``), values or, with rows in ``upper``,
    bounds: as (cases, bets) with ``removals``, else (bets,)."""
    n_suited = config.geometry.n_types - 1
    own = np.repeat(np.arange(n_suited), extra[:n_suited])
    cases = _removal_rows(removals or [()])
    if bonus_ev is not None and removals is None:
        bonus_ev = np.reshape(bonus_ev, (1, -1))
    out = _run_kernel(hold_counts, shared.unseen - extra[:n_suited], cases, config, bonus_bet,
                      _case_bonus_evs(bonus_bet, bonus_ev, len(cases)), -1, None,
                      (own, shared.binom, shared.cache, shared.removal_cache, shared.flags, shared.flags_part,
                       shared.safe_sixes, upper))
    return out if removals is not None else out[0]


def fa_upper_bounds_sharing(hold_counts: np.ndarray, shared: SharedCounts, config: GameConfig,
                            removals: list[tuple[int, ...]] | None = None, bonus_bet: float = 0.0,
                            bonus_ev: np.ndarray | None = None) -> np.ndarray:
    """An upper bound on each fa-hu bet's value (:func:`fa_values_sharing`) that costs a fraction of it: the
    value without the hand-card rule (step 14), which only lowers a completion's payout, summed from each
    community's net per combination, kept by the group's multiset E + A (on which alone it then depends).
    In a group made for removal cases, each case's bound, from the nets with the counts before any removal
    over the completions left by one (which bound every case's: a removed card only takes completions
    away), weighted by the case's communities. With a bonus bet B > 0 (each case's bonus EVs in ``bonus_ev``,
    as for :func:`fa_values_sharing`) the nets kept are betting's, and each case takes the best of folding
    and betting with its own bonus EV. Sums of floating-point nets: within 1e-10 of the exact sums, so a bound
    for comparisons with a margin above that (:data:`BOUND_MARGIN`). Shaped as :func:`fa_values_sharing`'s
    values."""
    extra = np.asarray(hold_counts, np.int64) - shared.base
    n_suited = config.geometry.n_types - 1
    if extra.min() < 0 or extra[n_suited:].any() or extra.sum() != shared.n_extra:
        raise ValueError("a bounded hold is the group's base plus its own suited cards")
    if (removals is not None) != shared.removing or any(len(r) > 1 for r in removals or []):
        raise ValueError("a group made for removal cases bounds holds with them, one card a case")
    columns = len(config.fa_hu_bets) + (bonus_bet > 0)  # with a bonus, the community's level last
    if shared.upper.shape != (shared.n_multisets, columns):
        shared.upper = np.full((shared.n_multisets, columns), np.nan)
    return _run_sharing(hold_counts, extra, shared, config, removals, bonus_bet, bonus_ev, shared.upper)


def fa_upper_bounds_removing(hold_counts: np.ndarray, unseen_suited: np.ndarray, removals: list[tuple[int, ...]],
                             config: GameConfig, bonus_bet: float = 0.0, bonus_ev: np.ndarray | None = None
                             ) -> np.ndarray:
    """:func:`fa_upper_bounds_sharing` for a hold valued alone with removal cases of up to two cards each
    (:func:`fa_values_removing`, whose bonus arguments these are): each case's bound, from the nets over the
    completions the case removing most leaves."""
    n_suited = config.geometry.n_types - 1
    upper = np.full((comb(n_suited + 3, 4), len(config.fa_hu_bets) + (bonus_bet > 0)), np.nan)  # by A's rank
    rows = _removal_rows(removals)
    return _run_kernel(hold_counts, unseen_suited, rows, config, bonus_bet,
                       _case_bonus_evs(bonus_bet, bonus_ev, len(rows)), -1, None,
                       (np.zeros(0, np.int64), _rank_binomials(n_suited, 4), *_NOT_SHARED[2:7], upper))


def _rank_binomials(n_suited: int, size: int) -> np.ndarray:
    """C(n, k) for the ranks of multisets of ``size`` card types (:func:`_shared_index`)."""
    return np.array([[comb(n, k) for k in range(size + 1)] for n in range(n_suited + size)], np.int64)


#: How far below another value an upper bound (:func:`fa_upper_bounds_sharing`) must be to rule a hold out.
BOUND_MARGIN = 1e-8
_NO_BOUNDS = np.zeros((0, 1))


_NOT_SHARED = (np.zeros(0, np.int64), np.zeros((1, 1), np.int64), np.zeros(0, np.int32), np.zeros((0, 0), np.int32),
               np.zeros((0, 0), np.int8), np.zeros(0, np.int64), np.zeros(0, np.int8), _NO_BOUNDS)


def _run_kernel(hold_counts: np.ndarray, unseen_suited: np.ndarray, removals: np.ndarray, config: GameConfig,
                bonus_bet: float, bonus_ev: np.ndarray | None, track: int, tracked: np.ndarray | None,
                shared: tuple[np.ndarray, ...] = _NOT_SHARED) -> np.ndarray:
    """Call :func:`_fa_values` with the geometry's tables; values as (cases, bets)."""
    geometry = config.geometry
    index = community_index(geometry)
    alone = alone_index(geometry)
    out = np.empty((len(removals), len(config.fa_hu_bets)), np.float64)
    deck = (index.m4_types, (alone.offsets, alone.pairs, alone.sixes), suit_table(geometry), geometry.suits,
            geometry.ranks, digit_cap(geometry), suit_profiles_max(geometry))
    payouts = (np.array(config.fa_hu_bets, np.float64), np.array(config.ting_hu_multiples, np.float64),
               payout_vector(config))
    bonus_rows = np.zeros((1, 1)) if bonus_ev is None else bonus_ev.reshape(-1, len(index.m4_types))
    if len(bonus_rows) not in (1, len(removals)):
        raise ValueError("bonus EVs come in one row, or one row per removal case")
    bonus = (float(bonus_bet), bonus_rows, index.succ4, index.succ5,
             np.zeros(1) if bonus_ev is None else community_bonus_net(config))  # built only when read
    _fa_values(np.ascontiguousarray(hold_counts, dtype=np.int64), np.ascontiguousarray(unseen_suited, dtype=np.int64),
               removals, deck, payouts, bonus, out, track, np.zeros(1) if tracked is None else tracked, shared)
    return out


@lru_cache(maxsize=4)
def suit_profiles_max(geometry: DeckGeometry) -> int:
    """How many distinct suit parts (at most four cards of one suit) a four-card community can have."""
    cap = min(geometry.copies_in_play, 4)
    return sum(len(sorted_multisets(geometry.ranks, cap, k)) for k in range(1, 5)) + 1


def hold_outcomes(hold_counts: np.ndarray, unseen_suited: np.ndarray, fa_bet: float, double_down: float,
                  config: GameConfig, bonus_bet: float = 0.0) -> tuple[dict[Outcome, int], float]:
    """Outcome counts (per C(left, 4) * C(left - 4, 2) community sequences) of betting F on a hold
    and playing the ting decision optimally (docs/rules.md, "Information and optimal play", ties to less money at risk).

    The hold kernel counts them while it values the hold (:func:`solver.evaluator.hold.fa_values` with
    ``track``). Returns the counts of every outcome reached and the summed bonus net of the
    paths that settle the bonus.
    """
    tracked = np.zeros(track_size(len(config.ting_hu_multiples)))
    fa_values(hold_counts, unseen_suited, config, bonus_bet, track=config.fa_hu_bets.index(fa_bet), tracked=tracked)
    names = [Outcome("fa_hu", double_down, fa_bet), Outcome("fa_hu_flush", double_down, fa_bet),
             Outcome("fold_ting", double_down, fa_bet)]
    for m in config.ting_hu_multiples:
        names += [Outcome(k, double_down, fa_bet, m * fa_bet) for k in ("ting_hu", "ting_hu_flush", "ting_lose")]
    counts: dict[Outcome, int] = {}
    for name, n in zip(names, tracked[:-1]):
        assert n == round(n) and n < 2.0**53, "outcome counts are exact integers"
        if n:
            counts[name] = int(n)
    return counts, float(tracked[-1])


def hold_values(hold: tuple[int, ...], unseen: np.ndarray, config: GameConfig, bonus_bet: float = 0.0,
                bonus_ev: np.ndarray | None = None) -> np.ndarray:
    """Value of each fa-hu bet for a hold (T and F counted, DD not; the bonus when B > 0)."""
    return fa_values(counts_of(hold, config.geometry), unseen, config, bonus_bet, bonus_ev)
