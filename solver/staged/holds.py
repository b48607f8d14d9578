"""Stage A of the solve: the fa-hu value of every hold against every set of dead cards.

After the second discard the player keeps a hold ``H`` (four cards) and has
seen four more, dead ``D`` (the two discards of each draw; jokers among
them change nothing, since the community never holds one). The community
comes from the suited pool ``M = copies_in_play - H`` less ``D``. This module values
``H`` against every dead set ``D`` in **one pass per hold**, where valuing
each (H, D) on its own would repeat the same work some 15,000 times.

**What does not depend on D.** For a four-card community ``A``:

* whether ``H + A`` forms a hu (step 11) depends on neither D nor the rest;
* for each pair of card types (a, b), the level of ``H + A + a + b`` under
  the step-14 hand-card rule, ``v(a, b)`` (0, hu, flush hu), depends on
  neither D nor which copies the last two cards are.

**What D changes.** With ``m = M - A`` left before the dead cards and ``d``
the dead counts, the winning completions of the last two cards number

    W(d) = sum_{a<b} (m_a - d_a)(m_b - d_b) [v(a,b) = hu] + sum_a C(m_a - d_a, 2) [v(a,a) = hu]

(likewise ``Wf`` for flush hus, and with a bonus bet the summed bonus net of
the completions, with ``v`` the bonus net of ``A + a + b``). Adding one dead
card of type ``c`` to ``d`` takes ``L_c = sum_b (m_b - d_b - [b = c]) v(c, b)``
off the sum, and ``v(t, c)`` off every ``L_t``. So the dead sets are walked in
sorted order as a tree: a node one card deeper updates, per community, the
weight, W, Wf and (down to the second card) the 27 columns ``L_t``; a leaf
reads one column. The community's weight ``prod_t C(M_t - d_t, a_t)`` follows
by ``C(n - 1, a) = C(n, a) (n - a) / n`` per added card, rounded back to the
exact integer.

**The ting decision in closed form.** Betting G = g instead of folding gains,
in units of 1 / C(left, 2),

    c_F * u + g * z,  u = W + Wf,  z = W (1 + p) + Wf (1 + pf) - C(left, 2),
    c_F = ting_ante + F * ting_fa + 1 + F,

(p, pf: what G wins on a hu, a flush hu), linear in g: so the best bet is the
largest multiple of F when z > 0, else the smallest, and the ting decision
is worth ``max(0, c_F u + F y)`` with ``y = z * (m_max if z > 0 else m_min)``
(plus B times the bonus net, which a bet settles). Summed over communities,
``sum w * max(0, ...)`` is all a dead set needs: one fused loop, no branch,
which the compiler vectorises. Communities that cannot beat folding under
any dead set are left out; those that win at step 11 are counted by
inclusion-exclusion over the dead cards (``S11(d) = sum_{s <= d} (-1)^|s|
prod_t C(d_t, s_t) G(s)``, ``G(s)``: the step-11 communities' combinations
that contain a fixed set of type multiset ``s``), so the walk never visits
them.

**Exact.** Every count is an integer held in a float well below 2^53, and
with payouts that are multiples of 1/2 (all of docs/rules.md's) every product
and sum is too: the values are exact sums, whatever the order of the
communities (the loops are vectorised with reassociation, which changes
nothing on integers), and divided once at the end.

**Outcome counts.** The par sheet needs, for the (hold, dead, F) that
optimal play reaches, how often each final outcome occurs. The same walk
with a *tracking* leaf counts them: per community the decision taken (fold;
bet the smallest or the largest G, ties to less money at risk), summing the
weights and the weighted win counts of each, exact integers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from math import comb

import numpy as np

from solver.game.bonus import community_bonus_net
from solver.game.cards import DeckGeometry
from solver.game.community import alone_index, community_index
from solver.game.config import GameConfig
from solver.game.hu import (
    _flags_level,
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
from solver.game.payouts import TingConstants
from solver.runtime.jit import kernel, unowned

#: The walk's arrays per level: the dead set's first 0, 1, 2 and 3 suited cards.
LEVELS = 4
#: ``_walk`` output columns of the values mode: the value of each fa-hu bet, then the value of the
#: smallest F with only the smallest ting multiple (the ``minimum-bets`` restriction); then what they
#: are priced from (:func:`price`): the step-11 hu and flush-hu communities and the ting gains of each
#: F and of the minimum bets, none of which read the step-11 payouts; then the ting wins
#: (:data:`WINS_COLUMNS`).
#: Tracking mode columns (exact counts, per C(left, 4) four-card and C(left - 4, 2) last-two draws):
TRACK_COLUMNS = ("fa_hu", "fa_hu_flush", "fold_ting", "small_bets", "small_hu", "small_flush",
                 "large_bets", "large_hu", "large_flush", "bonus_net")
"""``fa_hu``, ``fa_hu_flush``: four-card communities (times C(left - 4, 2)) that win at step 11;
``fold_ting``: those folded at the ting (times C(left - 4, 2)); ``small_bets``: communities betting the
smallest G (times C(left - 4, 2)); ``small_hu``, ``small_flush``: their winning completions; ``large_*``
likewise for the largest G; ``bonus_net``: the summed bonus net of the paths that settle the bonus."""

#: The last two columns of a values row: ``sum w * W`` and ``sum w * Wf`` over the live communities (the
#: ones a ting bet can beat folding at under some dead set), in the units of the ting gains. How fast
#: a value can change with a ting win payout: what bounds a variant by a solve of other ting payouts
#: (:mod:`solver.staged.bounds`).
WINS_COLUMNS = 2


# ---------------------------------------------------------------------------------------------
# Per hold: the columns of every community (what does not depend on the dead cards).


def n_pairs(n_suited: int) -> int:
    """How many pairs of last cards ``a <= b`` a hold's pair arrays hold (:class:`HoldColumns`)."""
    return n_suited * (n_suited + 1) // 2


@kernel(inline="always")
def _pair_row(a, b, n_suited):
    """The row of the pair of last cards ``a <= b`` in a hold's pair arrays: the pairs in order, ``n_suited - a``
    of them for each ``a``. The rows of ``a``'s pairs are those of ``b = 0 .. n_suited - 1`` from
    ``_pair_row(a, 0, n_suited)`` on, of which the walk reads only ``b >= a`` (:func:`_pairs_of`)."""
    return a * n_suited - a * (a + 1) // 2 + b


@kernel(inline="always")
def _pairs_of(pairs, a, n_suited):
    """The rows of a pair array indexed by the second card ``b``, valid for ``b >= a``: a view, the pairs
    ``b < a`` being the rows of earlier cards (the walk, whose dead cards come sorted, never reads them)."""
    start = _pair_row(a, 0, n_suited)
    return pairs[start:start + n_suited]


@kernel(inline="always")
def _pair_index(types, n_digits, base):
    """Index of a sorted multiset of at most four types in the inclusion-exclusion tables."""
    index = 0
    for i in range(n_digits):
        index = index * base + types[i] + 1
    return index


@kernel
def _add_step11(a_types, a_counts, n_distinct, M, coef_table, base, weight_table):
    """Add community A's combinations containing each sub-multiset s of A to ``weight_table[s]``:
    ``prod_t C(M_t - s_t, a_t - s_t)`` (A given by its distinct types and counts)."""
    s = np.zeros(4, np.int64)
    sorted_s = np.zeros(4, np.int64)
    while True:
        coef = 1
        n = 0
        for k in range(n_distinct):
            t = a_types[k]
            coef *= coef_table[M[t] - s[k], a_counts[k] - s[k]]
            for _ in range(s[k]):
                sorted_s[n] = t
                n += 1
        weight_table[_pair_index(sorted_s, n, base)] += coef
        k = 0
        while k < n_distinct and s[k] == a_counts[k]:
            s[k] = 0
            k += 1
        if k == n_distinct:
            return
        s[k] += 1


@kernel(inline="always")
def _take_community(m4, i, hold, M, coef_table, n_suited, comm, x, m, a_types, a_counts):
    """Community ``i``: its counts ``comm``, hold plus it ``x``, the pool it leaves ``m``, its distinct
    types and counts, and its number of combinations. Returns (distinct types, combinations), or
    (-1, 0) when the pool ``M`` cannot deal it."""
    for t in range(hold.shape[0]):
        comm[t] = 0
    for c in range(4):
        comm[m4[i, c]] += 1
    for t in range(n_suited):
        if comm[t] > M[t]:
            return -1, 0
    for t in range(hold.shape[0]):
        x[t] = hold[t] + comm[t]
    n_distinct = 0
    weight = 1
    for t in range(n_suited):
        m[t] = M[t] - comm[t]
        if comm[t] > 0:
            a_types[n_distinct] = t
            a_counts[n_distinct] = comm[t]
            n_distinct += 1
            weight *= coef_table[M[t], comm[t]]
    return n_distinct, weight


#: Candidate communities whose pair levels and columns are found together, one per vector lane: the
#: loops over a block run over candidates, so the compiler vectorises them (the block's arrays stay in cache).
COLUMN_BLOCK = 2048


@kernel
def _block_levels(j0, j1, hold, acount, keys3, table, suits, ranks, cap, powers, jokers, needs, one, pair_level):
    """The plain hu level of hold + community + a + b for every pair of suited types ``a <= b``
    (``pair_level[_pair_row(a, b), j]``) of candidates ``j0 <= j < j1`` (their counts ``acount``, the suit
    keys of hold plus them ``keys3``), from the suits' packed joker needs (``needs``, ``one``: room for 3 and for
    the suited types, by candidate). A pair across two suits changes each by one card, so each type's one-card
    needs are looked up once; a same-suit pair needs a key of its own. The level does not depend on the suits'
    order. Every loop over candidates indexes a block's views from 0, so nothing checks for negative indices
    and the loops vectorise; a suit key is never negative here (the suit exists), hence the unsigned lookups."""
    acount, keys3, table, powers, needs, one, pair_level = unowned(
        (acount, keys3, table, powers, needs, one, pair_level))
    n_suited = suits * ranks
    nb = j1 - j0
    for s in range(3):
        key_s, needs_s = keys3[s, j0:j1], needs[s]
        for k in range(nb):
            needs_s[k] = _needs_of_key(table, key_s[k])
    for s in range(suits):
        key_s = keys3[s, j0:j1]
        for r in range(ranks):
            t = s * ranks + r
            room, power, count, one_t = cap - 1 - hold[t], powers[r], acount[t, j0:j1], one[t]
            for k in range(nb):
                one_t[k] = table[np.uint64(key_s[k] + (power if count[k] <= room else 0))]
    for sa in range(suits):
        key_s, other0, other1 = keys3[sa, j0:j1], needs[(sa + 1) % 3], needs[(sa + 2) % 3]
        for ra in range(ranks):
            a = sa * ranks + ra
            row = _pair_row(a, 0, n_suited)
            room_a, power_a, count_a, one_a = cap - 1 - hold[a], powers[ra], acount[a, j0:j1], one[a]
            for rb in range(ra, ranks):
                b = sa * ranks + rb
                room_b, power_b, count_b = cap - 1 - hold[b] - (1 if a == b else 0), powers[rb], acount[b, j0:j1]
                out = pair_level[row + b, j0:j1]
                for k in range(nb):
                    key = key_s[k] + (power_a if count_a[k] <= room_a else 0) + (power_b if count_b[k] <= room_b else 0)
                    out[k] = _level_packed(np.int64(table[np.uint64(key)]), other0[k], other1[k], jokers)
            for sb in range(sa + 1, suits):
                third = needs[3 - sa - sb]
                for rb in range(ranks):
                    one_b, out = one[sb * ranks + rb], pair_level[row + sb * ranks + rb, j0:j1]
                    for k in range(nb):
                        out[k] = _level_packed(one_a[k], one_b[k], third[k], jokers)


@kernel(inline="always")
def _hand_rule_levels(i, j, alone_offsets, alone_pairs, hold, comm, x, keys, powers, cap, suits, ranks, memo,
                      pair_level):
    """The hand-card rule differs from the plain test only where the six community cards alone form a
    hu: set those completions' levels in candidate ``j`` (community ``i``; its counts in ``comm``, hold plus it
    ``x``, whose suit keys are ``keys``). A suit's hand-card flags depend on the hold's cards in it and the suit's
    key, so the hold's ``memo`` (:func:`solver.game.hu._new_flags_memo`, as the evaluator's) keeps them:
    most completions meet a suit the hold has seen before. A completion whose key would cap a count is
    computed in full. Numba counts references to each array a call is handed, atomically, even inlined:
    the loop calls no helper that takes arrays but on a memo miss."""
    for e in range(alone_offsets[i], alone_offsets[i + 1]):
        t1 = alone_pairs[e, 0]
        t2 = alone_pairs[e, 1]
        same = 1 if t1 == t2 else 0
        comm[t1] += 1
        comm[t2] += 1
        if x[t1] + 1 + same <= cap and x[t2] + 1 + same <= cap:
            s1 = t1 // ranks
            s2 = t2 // ranks
            f0 = 0
            f1 = 0
            f2 = 0
            for s in range(suits):
                key = keys[s] + (powers[t1 - s1 * ranks] if s1 == s else 0) \
                    + (powers[t2 - s2 * ranks] if s2 == s else 0)
                flags = memo[s, key]
                if flags < 0:
                    flags = _suit_flags_with_hand(hold, comm, s * ranks, ranks)
                    memo[s, key] = flags
                if s == 0:
                    f0 = flags
                elif s == 1:
                    f1 = flags
                else:
                    f2 = flags
            level = _level_from_flags(f0, f1, f2)
        else:
            level = _flags_level(hold, comm, suits, ranks)
        comm[t1] -= 1
        comm[t2] -= 1
        pair_level[_pair_row(min(t1, t2), max(t1, t2), suits * ranks), j] = level


@kernel
def _block_sums(j0, j1, pool, acount, pair_level, n_suited, m, sums, lin, q0):
    """The columns ``L_t`` of W and Wf (``lin[k, t, j]``) and W and Wf themselves (``q0``) of candidates
    ``j0 <= j < j1``, from the pool ``m = pool - A`` each leaves (``m``, ``sums``: room by candidate). Each
    completion pair {a, b} is counted once from each end, so W = (sum_t m_t L_t) / 2. A level's bits give its
    hu (1) and flush hu (2) counts without a branch."""
    acount, pair_level, m, sums, lin, q0 = unowned((acount, pair_level, m, sums, lin, q0))
    nb = j1 - j0
    for t in range(n_suited):
        count, m_t = acount[t, j0:j1], m[t]
        for k in range(nb):
            m_t[k] = pool[t] - count[k]
    hu_t, flush_t, win2, flush2 = sums[0], sums[1], sums[2], sums[3]
    for k in range(nb):
        win2[k] = 0
        flush2[k] = 0
    for t in range(n_suited):
        for k in range(nb):
            hu_t[k] = 0
            flush_t[k] = 0
        for b in range(n_suited):
            level, m_b, same = pair_level[_pair_row(min(t, b), max(t, b), n_suited), j0:j1], m[b], np.int32(b == t)
            for k in range(nb):
                left = m_b[k] - same
                hu_t[k] += left * (np.int32(level[k]) & 1)
                flush_t[k] += left * (np.int32(level[k]) >> 1)
        m_t, lin_hu, lin_flush = m[t], lin[0, t, j0:j1], lin[1, t, j0:j1]
        for k in range(nb):
            lin_hu[k] = hu_t[k]
            lin_flush[k] = flush_t[k]
            win2[k] += m_t[k] * hu_t[k]
            flush2[k] += m_t[k] * flush_t[k]
    win, flush = q0[0, j0:j1], q0[1, j0:j1]
    for k in range(nb):
        win[k] = win2[k] // 2
        flush[k] = flush2[k] // 2


@kernel(inline="always")
def _may_bet(win, win_flush, p1, pf1, t2_least, m_min, m_max, fa_bets, c_fa):
    """Whether some dead set could make a ting bet beat folding: W and Wf as they are (dead cards only
    lower them), the fewest completions left."""
    z = win * p1 + win_flush * pf1 - t2_least
    y = z * (m_max if z > 0 else m_min)
    for f in range(fa_bets.shape[0]):
        if c_fa[f] * (win + win_flush) + fa_bets[f] * y > 0:
            return True
    return False


@kernel(inline="always")
def _compact(row, live, n_live):
    """``row[k] = row[live[k]]`` for the first ``n_live`` entries (``live`` increasing: in place)."""
    for k in range(n_live):
        row[k] = row[live[k]]


@kernel(inline="always")
def _keep_live(n, prune, q0, p1, pf1, t2_least, m_min, m_max, fa_bets, c_fa, live, alive_index, w0, acount, lin,
               pair_level):
    """Keep the candidates that may bet (all of them without ``prune``), in order, in place, row by row;
    returns how many."""
    n_live = 0
    for j in range(n):
        if not prune or _may_bet(q0[0, j], q0[1, j], p1, pf1, t2_least, m_min, m_max, fa_bets, c_fa):
            live[n_live] = j
            n_live += 1
    if n_live < n:
        _compact(alive_index, live, n_live)
        _compact(w0, live, n_live)
        _compact(q0[0], live, n_live)
        _compact(q0[1], live, n_live)
        for t in range(acount.shape[0]):
            _compact(acount[t], live, n_live)
            _compact(lin[0, t], live, n_live)
            _compact(lin[1, t], live, n_live)
        for r in range(pair_level.shape[0]):
            _compact(pair_level[r], live, n_live)
    return n_live


@kernel
def _hold_columns(hold, M, m4, alone_offsets, alone_pairs, table, suits, ranks, cap, t2_least, fa_bets, c_fa, p1,
                  pf1, m_min, m_max, prune, coef_table, base, alive_index, acount, w0, q0, lin, pair_level, g_hu,
                  g_flush, scratch):
    """Fill the columns of every live community of the hold (count vector ``hold``, jokers last; ``M``:
    the suited pool it leaves). Returns how many are live.

    Community ``i`` of ``m4`` is live unless it cannot occur, wins at step 11 (then it goes into the
    inclusion-exclusion tables ``g_hu``, ``g_flush``), or, with ``prune``, folds at the ting under every
    dead set (:func:`_may_bet`; never pruned with a bonus bet in the objective, where a bet also settles
    the bonus). For live community ``j`` (``alive_index[j] = i``): ``acount[t, j]`` its count of type t,
    ``w0[j]`` its combinations, ``q0[k, j]`` the sums W and Wf over the pool ``m = M - A`` and ``lin[k, t, j]``
    their columns ``L_t``, ``pair_level[_pair_row(c, t), j]`` the pair levels ``v(c, t)`` for ``c <= t``
    (``v(t, c)`` is the same, and the walk never reads it; the bonus net's columns come after,
    :func:`_bonus_columns`). In passes: the candidates (communities that occur and do not win at step 11)
    one by one; their pair levels and sums by blocks (as many as the scratch's block arrays hold, one per
    vector lane), between them the hand-card rule one by one; then the live ones kept in place. ``scratch``:
    the work arrays (:func:`_columns_scratch`).
    Every array is the caller's, so the loop hands its helpers unowned ones
    (:func:`solver.runtime.jit.unowned`)."""
    hold, M, m4, alone_offsets, alone_pairs, table, fa_bets, c_fa, coef_table = unowned(
        (hold, M, m4, alone_offsets, alone_pairs, table, fa_bets, c_fa, coef_table))
    alive_index, acount, w0, q0, lin, pair_level, g_hu, g_flush = unowned(
        (alive_index, acount, w0, q0, lin, pair_level, g_hu, g_flush))
    x, comm, keys, memo, m, a_types, a_counts, powers, keys3, needs, one, m_block, sums, live = unowned(scratch)
    n_suited = suits * ranks
    jokers = hold[n_suited]
    n = 0
    for i in range(m4.shape[0]):
        n_distinct, weight = _take_community(m4, i, hold, M, coef_table, n_suited, comm, x, m, a_types, a_counts)
        if n_distinct < 0:
            continue
        _suit_keys(x, suits, ranks, cap, keys)
        level11 = _level_packed(_needs_of_key(table, keys[0]), _needs_of_key(table, keys[1]),
                                _needs_of_key(table, keys[2]), jokers)
        if level11 > 0:
            _add_step11(a_types, a_counts, n_distinct, M, coef_table, base, g_flush if level11 == 2 else g_hu)
            continue
        alive_index[n] = i
        w0[n] = weight
        for t in range(n_suited):
            acount[t, n] = comm[t]
        for s in range(3):
            keys3[s, n] = keys[s]
        n += 1
    block = needs.shape[1]
    for j0 in range(0, n, block):
        _block_levels(j0, min(n, j0 + block), hold, acount, keys3, table, suits, ranks, cap, powers, jokers,
                      needs, one, pair_level)
    if jokers == 0:
        for j in range(n):
            i = alive_index[j]
            if alone_offsets[i] == alone_offsets[i + 1]:
                continue
            for t in range(n_suited):
                comm[t] = acount[t, j]
                x[t] = hold[t] + comm[t]
            for s in range(3):
                keys[s] = keys3[s, j]
            _hand_rule_levels(i, j, alone_offsets, alone_pairs, hold, comm, x, keys, powers, cap, suits, ranks, memo,
                              pair_level)
    for j0 in range(0, n, block):
        _block_sums(j0, min(n, j0 + block), M, acount, pair_level, n_suited, m_block, sums, lin, q0)
    return _keep_live(n, prune, q0, p1, pf1, t2_least, m_min, m_max, fa_bets, c_fa, live, alive_index, w0, acount,
                      lin, pair_level)


@dataclass(frozen=True)
class HoldColumns:
    """What one hold's walk reads: its live communities' columns (see :func:`_hold_columns`)."""

    hold: np.ndarray
    pool: np.ndarray
    n_live: int
    alive_index: np.ndarray
    """Each live community's index among the four-card communities."""
    acount: np.ndarray
    w0: np.ndarray
    q0: np.ndarray
    lin: np.ndarray
    qb: np.ndarray
    linb: np.ndarray
    pair_level: np.ndarray
    """``[_pair_row(a, b), j]``: the pair level ``v(a, b)`` of community j, for each pair ``a <= b``: half the
    rows of a square of pairs, the walk reading no others (``v(b, a)`` is the same)."""
    pair_bonus: np.ndarray
    """``[_pair_row(a, b), j]``: the bonus net of community j with last cards a and b, likewise."""
    g_hu: np.ndarray
    g_flush: np.ndarray


def binomial_table(n: int) -> np.ndarray:
    """``C(i, k)`` for ``0 <= k <= i <= n`` (0 elsewhere, negative i included as 0)."""
    table = np.zeros((n + 1, n + 1), np.int64)
    for i in range(n + 1):
        for k in range(i + 1):
            table[i, k] = comb(i, k)
    return table


def _fewest_completions(pool: np.ndarray) -> float:
    """C(left, 2) at its smallest over the dead sets of a hold leaving the suited ``pool``: what
    :func:`_may_bet` compares the wins with."""
    most_dead = min(4, int(pool.sum()) - 6)
    return float(comb(int(pool.sum()) - most_dead - 4, 2))


@kernel
def _pair_bonus_rows(succ4, succ5, m6_net, out):
    """``out[a, b, i]``: the bonus net of four-card community ``i`` with the cards ``a`` and ``b`` (0 where
    the six cannot occur)."""
    for i in range(out.shape[2]):
        for a in range(out.shape[0]):
            row5 = succ4[i, a]
            for b in range(out.shape[1]):
                net = 0.0
                if row5 >= 0 and succ5[row5, b] >= 0:
                    net = m6_net[succ5[row5, b]]
                out[a, b, i] = net


@lru_cache(maxsize=2)
def _pair_bonus_table(config: GameConfig) -> np.ndarray:
    """The bonus net of every four-card community with every two more cards (:func:`_pair_bonus_rows`), the
    same for every hold: a hold's pair nets are gathered from it (half the time of looking each one up), one
    pair of last cards at a time, as the hold's array is laid out (twice as fast as copying a community's
    27 x 27 nets into it at a time)."""
    index = community_index(config.geometry)
    net = community_bonus_net(config)
    # the pair nets are the columns' largest array, written once per community and read at every node: in
    # single precision when that holds every net exactly (the rules' payouts do), so the sums are unchanged
    exact_single = np.array_equal(net.astype(np.float32), net)
    n_suited = config.geometry.n_suited
    table = np.empty((n_suited, n_suited, len(index.m4_types)), np.float32 if exact_single else np.float64)
    _pair_bonus_rows(index.succ4, index.succ5, net, table)
    table.flags.writeable = False  # cached and shared
    return table


def hold_columns(hold_counts: np.ndarray, config: GameConfig, constants: TingConstants,
                 bonus_sums: bool = False, prune: bool = True, block: int = COLUMN_BLOCK) -> HoldColumns:
    """The columns of one hold (count vector with jokers last) for its walk over dead sets; with the bonus
    net's (which tracking reads, whatever the objective) when the objective has a bonus bet or
    ``bonus_sums``. ``prune=False`` keeps every community that can occur and does not win at step 11,
    whatever the payouts: the columns a paytable's variants share (:func:`live_columns`). ``block``: how many
    communities are found together (the columns do not depend on it)."""
    geometry = config.geometry
    n_suited = geometry.n_suited
    index = community_index(geometry)
    alone = alone_index(geometry)
    hold = np.ascontiguousarray(hold_counts, dtype=np.int64)
    pool = (geometry.full_counts() - hold)[:n_suited]
    n = len(index.m4_types)
    alive_index = np.empty(n, np.int64)
    acount = np.empty((n_suited, n), np.int8)
    w0 = np.empty(n)
    q0 = np.empty((2, n))
    lin = np.empty((2, n_suited, n), np.int16)
    pair_level = np.empty((n_pairs(n_suited), n), np.int8)
    base = n_suited + 1
    g_hu = np.zeros(base**4, np.int64)
    g_flush = np.zeros(base**4, np.int64)
    n_live = _hold_columns(
        hold, pool, index.m4_types, alone.offsets, alone.pairs, suit_table(geometry), geometry.suits,
        geometry.ranks, digit_cap(geometry), _fewest_completions(pool), constants.fa_bets, constants.c, constants.p1,
        constants.pf1, constants.m_min, constants.m_max, prune and constants.bonus_bet == 0,
        binomial_table(geometry.copies_in_play), base, alive_index, acount, w0, q0, lin, pair_level, g_hu, g_flush,
        _columns_scratch(hold, geometry, n, block))
    live = slice(0, n_live)
    columns = HoldColumns(hold, pool, n_live, alive_index[live].copy(), np.ascontiguousarray(acount[:, live]),
                          w0[live].copy(), np.ascontiguousarray(q0[:, live]), np.ascontiguousarray(lin[:, :, live]),
                          pair_level=np.ascontiguousarray(pair_level[:, live]), g_hu=g_hu, g_flush=g_flush,
                          **no_bonus_columns(n_suited))
    return with_bonus_columns(columns, config) if constants.bonus_bet > 0 or bonus_sums else columns


def _columns_scratch(hold: np.ndarray, geometry: DeckGeometry, n_communities: int, block: int
                     ) -> tuple[np.ndarray, ...]:
    """:func:`_hold_columns`'s work arrays, made here so that the kernel holds none of its own: the hold plus a
    community, the community, the suit keys, the hand-card flags memo, the pool a community leaves, its distinct
    types and counts, the powers of a suit key's digits; by candidate, the suit keys; by candidate of a block,
    the suits' joker needs, each type's one-card needs, the pool left, the sums; the live candidates."""
    n_suited = geometry.n_suited
    cap = digit_cap(geometry)

    def ints(*shape: int, dtype: type = np.int64) -> np.ndarray:
        return np.empty(shape, dtype)

    memo = _new_flags_memo(cap, geometry.ranks, int(hold[n_suited]))
    powers = (cap + 1) ** np.arange(geometry.ranks, dtype=np.int64)
    return (hold.copy(), np.zeros(len(hold), np.int64), ints(3), memo, ints(n_suited), ints(4), ints(4), powers,
            ints(3, n_communities), ints(3, block, dtype=np.int32), ints(n_suited, block, dtype=np.int32),
            ints(n_suited, block, dtype=np.int32), ints(4, block, dtype=np.int32), ints(n_communities))


def no_bonus_columns(n_suited: int) -> dict[str, np.ndarray]:
    """The bonus net's columns of columns without them: empty."""
    return {"qb": np.empty(0), "linb": np.empty((n_suited, 0)),
            "pair_bonus": np.empty((n_pairs(n_suited), 0), np.float32)}


@kernel
def _live_mask(q0, p1, pf1, t2_least, m_min, m_max, fa_bets, c_fa, out):
    """``out[j]``: whether community ``j`` (its W and Wf in ``q0``) may bet under some dead set."""
    for j in range(q0.shape[1]):
        out[j] = _may_bet(q0[0, j], q0[1, j], p1, pf1, t2_least, m_min, m_max, fa_bets, c_fa)


def live_columns(columns: HoldColumns, *variants: TingConstants) -> HoldColumns:
    """Of payout-free columns (``hold_columns(prune=False)``, no bonus net), those the payouts of
    a variant leave live (of several variants, any of them): for one, the same arrays, in the same order,
    as :func:`hold_columns` gives."""
    if any(k.bonus_bet > 0 for k in variants):
        return columns
    live = np.zeros(columns.n_live, np.bool_)
    for k in variants:
        mask = np.empty(columns.n_live, np.bool_)
        _live_mask(columns.q0, k.p1, k.pf1, _fewest_completions(columns.pool), k.m_min, k.m_max, k.fa_bets, k.c,
                   mask)
        live |= mask
    keep = np.flatnonzero(live)
    c = columns
    return HoldColumns(c.hold, c.pool, len(keep), c.alive_index[keep], _kept(c.acount, keep), c.w0[keep],
                       _kept(c.q0, keep), _kept(c.lin, keep), c.qb, c.linb,
                       _kept(c.pair_level, keep), c.pair_bonus, c.g_hu, c.g_flush)


def _kept(array: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """``np.take(array, keep, axis=-1)`` of a C-contiguous array, by a kernel: numpy's take along the last
    axis copies one element at a time (the narrowing took as long as reading the hold's columns back)."""
    n_rows = int(np.prod(array.shape[:-1]))
    out = np.empty((*array.shape[:-1], len(keep)), array.dtype)
    _take_last(array.reshape(n_rows, array.shape[-1]), keep, out.reshape(n_rows, len(keep)))
    return out


@kernel(nogil=True)
def _take_last(source, keep, out):
    """``out[r] = source[r, keep]`` for each row ``r``."""
    for r in range(source.shape[0]):
        row, into = source[r], out[r]
        for j in range(keep.shape[0]):
            into[j] = row[keep[j]]


@kernel
def _bonus_columns(alive_index, acount, pool, table, pair_bonus, linb, qb):
    """The bonus net's columns of the live communities (four-card community ``alive_index[j]``, counts
    ``acount[:, j]``) of a hold leaving the suited ``pool``: ``pair_bonus[_pair_row(a, b), j]`` for ``a <= b``, the net
    with the last two cards a and b (``table[a, b, alive_index[j]]``, :func:`_pair_bonus_table`); ``linb[a, j]``,
    its sum over the cards b the pool leaves after a; ``qb[j]``, its sum over the last two cards. A pass of its
    own: interleaved with the other columns' (two streams of scattered writes) it took a third longer. The net
    of a and b is that of b and a (one six-card community), and the walk, whose dead cards come in increasing
    order, reads it only for ``a <= b``: each pair is gathered once and adds to both cards' ``linb`` (each
    ``linb[a]`` still summed over b in increasing order)."""
    n_suited, n = pool.shape[0], alive_index.shape[0]
    m = np.empty((n_suited, n))
    for b in range(n_suited):
        for j in range(n):
            m[b, j] = pool[b] - acount[b, j]
    qb[:] = 0.0
    linb[:] = 0.0
    for a in range(n_suited):
        net = pair_bonus[_pair_row(a, a, n_suited)]
        _gather(table[a, a], alive_index, net)
        for j in range(n):
            linb[a, j] += (m[a, j] - 1.0) * net[j]
            qb[j] += m[a, j] * (m[a, j] - 1.0) / 2.0 * net[j]
        for b in range(a + 1, n_suited):
            net = pair_bonus[_pair_row(a, b, n_suited)]
            _gather(table[a, b], alive_index, net)
            for j in range(n):
                linb[a, j] += m[b, j] * net[j]
                linb[b, j] += m[a, j] * net[j]
                qb[j] += m[a, j] * m[b, j] * net[j]


@kernel(inline="always")
def _gather(source, at, out):
    """``out[j] = source[at[j]]``."""
    for j in range(at.shape[0]):
        out[j] = source[at[j]]


def with_bonus_columns(columns: HoldColumns, config: GameConfig) -> HoldColumns:
    """``columns`` (without the bonus net) with the bonus net's columns added: what
    ``hold_columns(bonus_sums=True)`` gives for the same live communities."""
    table = _pair_bonus_table(config)
    n, n_suited = columns.n_live, config.geometry.n_suited
    qb, linb = np.empty(n), np.empty((n_suited, n))
    pair_bonus = np.empty((n_pairs(n_suited), n), table.dtype)
    _bonus_columns(columns.alive_index, columns.acount, columns.pool, table, pair_bonus, linb, qb)
    return replace(columns, qb=qb, linb=linb, pair_bonus=pair_bonus)


# ---------------------------------------------------------------------------------------------
# The walk over dead sets: per node, the live communities' weights and sums; per leaf, one fused loop.

#: The leaves' loops are sums of integers held in floats: reassociating them (which vectorisation needs)
#: changes nothing.
_FAST = {"reassoc", "contract"}


@kernel(fastmath=_FAST, nogil=True)
def _step(w_par, q_par, lin_par, qb_par, linb_par, card, a_col, inv_n, with_lin, needed, pair_level_c,
          pair_bonus_c, w_out, q_out, lin_out, qb_out, linb_out):
    """One card deeper in the walk: the node's arrays from its parent's, a dead card of type ``card``
    added (``inv_n``: 1 / the copies of it the pool held before); with ``with_lin`` the columns
    ``L_t`` too, for the ``t >= card`` that ``needed`` marks (the cards the rows below add)."""
    n = w_par.shape[0]
    for i in range(n):
        w_out[i] = np.rint(w_par[i] - w_par[i] * a_col[i] * inv_n)
        q_out[0, i] = q_par[0, i] - lin_par[0, card, i]
        q_out[1, i] = q_par[1, i] - lin_par[1, card, i]
    for i in range(qb_out.shape[0]):
        qb_out[i] = qb_par[i] - linb_par[card, i]
    if with_lin:
        for t in range(card, lin_par.shape[1]):
            if not needed[t]:
                continue
            for i in range(n):
                level = pair_level_c[t, i]
                lin_out[0, t, i] = lin_par[0, t, i] - (level == 1)
                lin_out[1, t, i] = lin_par[1, t, i] - (level == 2)
            for i in range(linb_out.shape[1]):
                linb_out[t, i] = linb_par[t, i] - pair_bonus_c[t, i]


@kernel(inline="always")
def _at_leaf(i, w_par, q_par, qb_par, lin_hu, lin_flush, linb, corr_level, corr_bonus, a_col, inv_n, with_bonus):
    """Community ``i`` under the leaf's dead set: (weight, W, Wf, summed bonus net)."""
    w = np.rint(w_par[i] - w_par[i] * a_col[i] * inv_n)
    level = corr_level[i]
    win = q_par[0, i] - (lin_hu[i] - (level == 1))
    flush = q_par[1, i] - (lin_flush[i] - (level == 2))
    bonus = qb_par[i] - (linb[i] - corr_bonus[i]) if with_bonus else 0.0
    return w, win, flush, bonus


@kernel(inline="always")
def _last_added(i, w_node, q_hu, q_flush, qb, lin_hu, lin_flush, linb, corr_level, corr_bonus, a_col, inv_n,
                with_bonus):
    """:func:`_at_leaf` from community ``i``'s weight and sums at the leaf's parent node, for a leaf that adds
    the third dead card (:func:`_third_added`). The value walk's leaf, through this rather than :func:`_at_leaf`,
    ran twice as long on a far ting variant's columns (measured), so it keeps :func:`_at_leaf`."""
    w = np.rint(w_node - w_node * a_col[i] * inv_n)
    level = corr_level[i]
    win = q_hu - (lin_hu[i] - (level == 1))
    flush = q_flush - (lin_flush[i] - (level == 2))
    bonus = qb - (linb[i] - corr_bonus[i]) if with_bonus else 0.0
    return w, win, flush, bonus


@kernel(inline="always")
def _third_added(i, w_par, q_par, qb_par, third, with_bonus):
    """Community ``i``'s weight and sums at the node of a leaf's first three dead cards, from the node of its
    first two (``w_par`` ...) and the third's columns, as :func:`_step` builds them."""
    a_third, inv_third, lin_third_hu, lin_third_flush, linb_third = third
    w_node = np.rint(w_par[i] - w_par[i] * a_third[i] * inv_third)
    qb = qb_par[i] - linb_third[i] if with_bonus else 0.0
    return w_node, q_par[0, i] - lin_third_hu[i], q_par[1, i] - lin_third_flush[i], qb


#: The fa-hu bets the fused leaf values in one pass over the communities when there are more than two (its
#: tuples of bets hold four): each pass reads every community's arrays, and valuing three bets from a buffer
#: instead cost the walk three quarters more (docs/performance.md, "Three fa-hu bets in one pass").
WIDE_BETS = 4


@kernel(fastmath=_FAST, nogil=True)
def _leaf_values(w_par, q_par, qb_par, lin_hu, lin_flush, linb, corr_level, corr_bonus, a_col, inv_n, with_bonus,
                 wide, t2, p1, pf1, m_min, m_max, c, f, bonus_bet):
    """Summed weight times ting gain over the live communities, for the fa-hu bets of ``c`` and ``f`` (four
    each: their first two unless ``wide``) and for the first with only the smallest ting multiple; then the
    summed weight times W and times Wf (:data:`WINS_COLUMNS`)."""
    # each inlined copy sees ``with_bonus`` as a constant, so the one without drops the bonus terms (a tenth
    # of the leaf's time: docs/performance.md, "The ting leaf"); ``wide`` stays a flag the compiler lifts out of
    # the loop: passed as a constant instead, the wide loop compiled a quarter slower (docs/performance.md,
    # "Three fa-hu bets in one pass")
    if with_bonus:
        return _leaf_sums(w_par, q_par, qb_par, lin_hu, lin_flush, linb, corr_level, corr_bonus, a_col, inv_n, True,
                          wide, t2, p1, pf1, m_min, m_max, c, f, bonus_bet)
    return _leaf_sums(w_par, q_par, qb_par, lin_hu, lin_flush, linb, corr_level, corr_bonus, a_col, inv_n, False,
                      wide, t2, p1, pf1, m_min, m_max, c, f, bonus_bet)


@kernel(inline="always")
def _leaf_sums(w_par, q_par, qb_par, lin_hu, lin_flush, linb, corr_level, corr_bonus, a_col, inv_n, with_bonus, wide,
               t2, p1, pf1, m_min, m_max, c, f, bonus_bet):
    """The loop of :func:`_leaf_values`."""
    acc0 = 0.0
    acc1 = 0.0
    acc2 = 0.0
    acc3 = 0.0
    acc_min = 0.0
    acc_win = 0.0
    acc_flush = 0.0
    for i in range(w_par.shape[0]):
        w, win, flush, bonus = _at_leaf(i, w_par, q_par, qb_par, lin_hu, lin_flush, linb, corr_level, corr_bonus,
                                        a_col, inv_n, with_bonus)
        gain0, gain1, gain2, gain3, gain_min = _ting_gains(win, flush, t2, p1, pf1, m_min, m_max, c, f, wide)
        if with_bonus:
            b = bonus_bet * bonus
            gain0 += b
            gain1 += b
            gain2 += b
            gain3 += b
            gain_min += b
        acc0 += w * max(gain0, 0.0)
        acc1 += w * max(gain1, 0.0)
        if wide:
            acc2 += w * max(gain2, 0.0)
            acc3 += w * max(gain3, 0.0)
        acc_min += w * max(gain_min, 0.0)
        acc_win += w * win
        acc_flush += w * flush
    return acc0, acc1, acc2, acc3, acc_min, acc_win, acc_flush


@kernel(inline="always")
def _ting_gains(win, flush, t2, p1, pf1, m_min, m_max, c, f, wide):
    """What betting gains over folding at the ting, for the fa-hu bets of ``c`` and ``f`` (their first two
    unless ``wide``) and for the first with only the smallest ting multiple, given the winning completions
    (module notes: the closed form)."""
    u = win + flush
    z = win * p1 + flush * pf1 - t2
    y = z * (m_max if z > 0.0 else m_min)
    gain2 = c[2] * u + f[2] * y if wide else 0.0
    gain3 = c[3] * u + f[3] * y if wide else 0.0
    return c[0] * u + f[0] * y, c[1] * u + f[1] * y, gain2, gain3, c[0] * u + f[0] * m_min * z


@kernel(fastmath=_FAST, nogil=True)
def _leaf_inputs(w_par, q_par, lin_hu, lin_flush, corr_level, a_col, inv_n, out):
    """Each live community's weight, W and Wf under the leaf's dead set, into ``out``'s rows, for
    :func:`_buffered_values` to apply several variants' payouts to (no bonus bet)."""
    no_bonus = np.zeros(0)
    for i in range(w_par.shape[0]):
        out[0, i], out[1, i], out[2, i], _ = _at_leaf(i, w_par, q_par, no_bonus, lin_hu, lin_flush, no_bonus,
                                                      corr_level, no_bonus, a_col, inv_n, False)


@kernel(fastmath=_FAST, nogil=True)
def _buffered_wins(inputs):
    """The ting wins (:data:`WINS_COLUMNS`) of every community :func:`_leaf_inputs` wrote."""
    acc_win = 0.0
    acc_flush = 0.0
    for i in range(inputs.shape[1]):
        acc_win += inputs[0, i] * inputs[1, i]
        acc_flush += inputs[0, i] * inputs[2, i]
    return acc_win, acc_flush


@kernel(inline="always")
def _own_wins(inputs, union_win, union_flush, excluded, n_excluded, wins):
    """A variant's ting wins into ``wins``: those of every community written less those of the ones its
    payouts leave out (``excluded[:n_excluded]``). Exact integers: the same as summing its own."""
    for k in range(n_excluded):
        i = excluded[k]
        union_win -= inputs[0, i] * inputs[1, i]
        union_flush -= inputs[0, i] * inputs[2, i]
    wins[0] = union_win
    wins[1] = union_flush


@kernel(fastmath=_FAST, nogil=True)
def _buffered_values(inputs, wide, t2, p1, pf1, m_min, m_max, c, f):
    """:func:`_leaf_values`' ting gains (no bonus bet) from the weights, W and Wf :func:`_leaf_inputs` wrote."""
    acc0 = 0.0
    acc1 = 0.0
    acc2 = 0.0
    acc3 = 0.0
    acc_min = 0.0
    for i in range(inputs.shape[1]):
        w = inputs[0, i]
        gain0, gain1, gain2, gain3, gain_min = _ting_gains(inputs[1, i], inputs[2, i], t2, p1, pf1, m_min, m_max, c,
                                                           f, wide)
        acc0 += w * max(gain0, 0.0)
        acc1 += w * max(gain1, 0.0)
        if wide:
            acc2 += w * max(gain2, 0.0)
            acc3 += w * max(gain3, 0.0)
        acc_min += w * max(gain_min, 0.0)
    return acc0, acc1, acc2, acc3, acc_min


@kernel(fastmath=_FAST, nogil=True)
def _leaf_tracked(w_par, q_par, qb_par, lin_hu, lin_flush, linb, corr_level, corr_bonus, a_col, inv_n, with_bonus,
                  a_third, inv_third, lin_third_hu, lin_third_flush, linb_third, adds_third, t2, p1, pf1, m_lo, m_hi, c,
                  f, bonus_bet, sums):
    """The ting decisions of one fa-hu bet (``c``, ``f``; ting multiples from ``m_lo`` to ``m_hi``)
    community by community, as docs/rules.md ("Information and optimal play") takes them (ties to less money
    at risk), counted into ``sums``: bets of the smallest and of the largest G with their weighted win counts,
    and the summed bonus net of the bets. With ``adds_third`` the leaf's parent is the node of its first two
    dead cards, and it adds the third's columns (``a_third`` ...) itself (:data:`NODE_LEAVES_LEAST`)."""
    # one inlined copy per ``with_bonus`` (as in _leaf_values), and no select for the smallest G's bets: the
    # tracking walk took 1.69 ns a (dead set, live community) against 2.31 (docs/performance.md, "The tracked
    # leaf, and three house-edge targets of one payout"); likewise one per ``adds_third``: as a flag in the
    # loop, it had each array's reference count updated at every community
    leaf = (w_par, q_par, qb_par, lin_hu, lin_flush, linb, corr_level, corr_bonus, a_col, inv_n)
    third = (a_third, inv_third, lin_third_hu, lin_third_flush, linb_third)
    if with_bonus:
        if adds_third:
            _tracked_sums(leaf, True, third, True, t2, p1, pf1, m_lo, m_hi, c, f, bonus_bet, sums)
        else:
            _tracked_sums(leaf, True, third, False, t2, p1, pf1, m_lo, m_hi, c, f, bonus_bet, sums)
    elif adds_third:
        _tracked_sums(leaf, False, third, True, t2, p1, pf1, m_lo, m_hi, c, f, bonus_bet, sums)
    else:
        _tracked_sums(leaf, False, third, False, t2, p1, pf1, m_lo, m_hi, c, f, bonus_bet, sums)


@kernel(inline="always")
def _tracked_sums(leaf, with_bonus, third, adds_third, t2, p1, pf1, m_lo, m_hi, c, f, bonus_bet, sums):
    """The loop of :func:`_leaf_tracked`. It sums every bet and the bets of the largest G; those of the smallest
    are the difference, exactly: weights and win counts are integers, so are their products and sums."""
    tol = TIE_TOLERANCE * t2
    bet_w = 0.0
    bet_hu = 0.0
    bet_flush = 0.0
    large_w = 0.0
    large_hu = 0.0
    large_flush = 0.0
    bonus_sum = 0.0
    w_par, q_par, qb_par, lin_hu, lin_flush, linb, corr_level, corr_bonus, a_col, inv_n = leaf
    for i in range(w_par.shape[0]):
        if adds_third:
            w_node, q_hu, q_flush, qb = _third_added(i, w_par, q_par, qb_par, third, with_bonus)
            w, win, flush, bonus = _last_added(i, w_node, q_hu, q_flush, qb, lin_hu, lin_flush, linb, corr_level,
                                               corr_bonus, a_col, inv_n, with_bonus)
        else:
            w, win, flush, bonus = _at_leaf(i, w_par, q_par, qb_par, lin_hu, lin_flush, linb, corr_level,
                                            corr_bonus, a_col, inv_n, with_bonus)
        z = win * p1 + flush * pf1 - t2
        large = z * f * (m_hi - m_lo) > tol
        gain = c * (win + flush) + f * z * (m_hi if large else m_lo) + bonus_bet * bonus
        bet = w if gain > tol else 0.0
        big = bet if large else 0.0
        bet_w += bet
        bet_hu += bet * win
        bet_flush += bet * flush
        large_w += big
        large_hu += big * win
        large_flush += big * flush
        if with_bonus:
            bonus_sum += bet * bonus
    sums[0] = bet_w - large_w
    sums[1] = bet_hu - large_hu
    sums[2] = bet_flush - large_flush
    sums[3] = large_w
    sums[4] = large_hu
    sums[5] = large_flush
    sums[6] = bonus_sum


@kernel(inline="always")
def _step11(types, counts, n_distinct, g, coef_table, base):
    """Step-11 combinations under dead counts ``counts`` of ``types``, by inclusion-exclusion:
    ``sum_{s <= d} (-1)^|s| prod_t C(d_t, s_t) g[s]``."""
    s = np.zeros(4, np.int64)
    sorted_s = np.zeros(4, np.int64)
    total = 0
    while True:
        coef = 1
        n = 0
        for k in range(n_distinct):
            coef *= coef_table[counts[k], s[k]]
            for _ in range(s[k]):
                sorted_s[n] = types[k]
                n += 1
        total += (-coef if n % 2 else coef) * g[_pair_index(sorted_s, n, base)]
        k = 0
        while k < n_distinct and s[k] == counts[k]:
            s[k] = 0
            k += 1
        if k == n_distinct:
            return total
        s[k] += 1


@kernel(inline="always")
def _suited_dead(dead_rows, r, n_suited):
    """How many of row ``r``'s four dead cards are suited (jokers come last)."""
    k = 0
    while k < 4 and dead_rows[r, k] < n_suited:
        k += 1
    return k


@kernel(inline="always")
def _copies_before(dead_rows, r, end, card):
    """Copies of ``card`` among row ``r``'s first ``end`` dead cards."""
    before = 0
    for j in range(end):
        before += dead_rows[r, j] == card
    return before


@kernel(inline="always")
def _distinct(dead_rows, r, k, types, counts):
    """Row ``r``'s first ``k`` dead cards as distinct ``types`` with their ``counts``; how many."""
    n_distinct = 0
    for j in range(k):
        t = dead_rows[r, j]
        if n_distinct > 0 and types[n_distinct - 1] == t:
            counts[n_distinct - 1] += 1
        else:
            types[n_distinct] = t
            counts[n_distinct] = 1
            n_distinct += 1
    return n_distinct


@kernel(inline="always")
def _write_tracked(row, s11_hu, s11_flush, rest, t2, sums):
    """One dead set's :data:`TRACK_COLUMNS` from its step-11 wins and the tracked leaf sums."""
    row[0] = s11_hu * t2
    row[1] = s11_flush * t2
    row[2] = (rest - sums[0] - sums[3]) * t2
    row[3] = sums[0] * t2
    row[4] = sums[1]
    row[5] = sums[2]
    row[6] = sums[3] * t2
    row[7] = sums[4]
    row[8] = sums[5]
    row[9] = sums[6]


@kernel(nogil=True)
def _walk(acount, w0, q0, lin0, qb0, linb0, pair_level, pair_bonus, g_hu, g_flush, pool, dead_rows, track_bet,
          track_min, tracking, fa_bets, c_fa, hu_pays, flush_pays, p1, pf1, m_min, m_max, excluded, n_excluded,
          bonus_bet, coef_table, base, floor, below, out, scratch):
    """Value (or, ``tracking``, count the outcomes of) one hold against each dead set of ``dead_rows``.

    ``dead_rows``: sorted rows of four type indices, jokers (index ``n_suited``) last, in increasing
    order, so that consecutive rows share the walk's nodes. The payouts come per variant (the first axis
    of ``fa_bets`` to ``m_max``, and of ``out``: several variants of the ting payouts and bet sizes, with
    no bonus bet, share each leaf's weights, W and Wf; ``excluded[k, :n_excluded[k]]``: the communities
    variant k's payouts leave out). Values: ``out[k, r]`` as :func:`walk` returns them. Tracking (one
    variant): ``out[0, r]`` holds :data:`TRACK_COLUMNS` for bet ``track_bet[r]`` (only the smallest ting
    multiple when ``track_min[r]``). With a ``floor`` above -inf (one variant, no bonus bet, values), a row
    whose every bet an upper bound proves below ``floor`` is not walked (:func:`_bound_group`): ``below[r]``
    is set and ``out[0, r]`` holds that bound. ``scratch``: the work arrays (:func:`_walk_scratch`). Every
    array is the caller's, so the walk hands its helpers unowned ones (:func:`solver.runtime.jit.unowned`).
    """
    (acount, w0, q0, lin0, qb0, linb0, pair_level, pair_bonus, g_hu, g_flush, pool, dead_rows, track_bet, track_min,
     fa_bets, c_fa, hu_pays, flush_pays, p1, pf1, m_min, m_max, excluded, n_excluded, coef_table, below, out) = unowned(
        (acount, w0, q0, lin0, qb0, linb0, pair_level, pair_bonus, g_hu, g_flush, pool, dead_rows, track_bet,
         track_min, fa_bets, c_fa, hu_pays, flush_pays, p1, pf1, m_min, m_max, excluded, n_excluded, coef_table, below,
         out))
    (w_lv, q_lv, qb_lv, lin_lv, linb_lv, built, needed, no_level, no_bonus, no_lin, no_linb, no_a, types, counts, sums,
     inputs, bound_rows) = unowned(scratch)
    n_suited = pool.shape[0]
    with_bonus = qb0.shape[0] > 0
    w_lv[0] = w0
    q_lv[0] = q0
    qb_lv[0] = qb0
    lin_lv[0] = lin0
    linb_lv[0] = linb0
    built[:] = -2
    buffered = _buffers_leaf(out.shape[0], fa_bets.shape[1], with_bonus)
    assert inputs.shape[1] == (w0.shape[0] if buffered else 0), "the leaf's buffer as _walk_scratch made it"
    n_pool = pool.sum()
    below[:] = False
    group_end = 0
    for r in range(dead_rows.shape[0]):
        if floor > -np.inf and r >= group_end:
            group_end = _bound_group(
                dead_rows, r, floor, (built, needed, w_lv, q_lv, lin_lv, qb_lv, linb_lv, acount, pool, pair_level,
                                      pair_bonus), (no_level, no_bonus, no_lin, no_linb, no_a),
                (types, counts, g_hu, g_flush, coef_table, base),
                (p1[0], pf1[0], m_min[0], m_max[0], c_fa[0], fa_bets[0], hu_pays[0], flush_pays[0]), inputs, bound_rows,
                below, out[0])
        if below[r]:
            continue
        k = _suited_dead(dead_rows, r, n_suited)
        # the leaf: its parent node, and the last dead card added on the fly (the tracking walk's, the third too
        # where few rows share its node)
        adds_third = tracking and k == 4 and built[3] != dead_rows[r, 2] and \
            _leaves_below(dead_rows, r, n_suited) < NODE_LEAVES_LEAST
        parent = (2 if adds_third else min(k - 1, 3)) if k > 0 else 0
        _descend(dead_rows, r, parent, built, needed, w_lv, q_lv, lin_lv, qb_lv, linb_lv, acount, pool, pair_level,
                 pair_bonus, below)
        a_col, inv_n = no_a, 0.0
        lin_hu, lin_flush, linb = no_lin, no_lin, no_linb
        corr_level, corr_bonus = no_level, no_bonus
        if k > 0:
            e = dead_rows[r, k - 1]
            a_col, inv_n = acount[e], 1.0 / (pool[e] - _copies_before(dead_rows, r, k - 1, e))
            column = min(k - 1, 2)
            lin_hu, lin_flush = lin_lv[column, 0, e], lin_lv[column, 1, e]
            linb = linb_lv[column, e]
            if k == 4:
                corr_level = pair_level[_pair_row(dead_rows[r, 2], e, n_suited)]
                corr_bonus = pair_bonus[_pair_row(dead_rows[r, 2], e, n_suited)]
        n_distinct = _distinct(dead_rows, r, k, types, counts)
        s11_hu = float(_step11(types, counts, n_distinct, g_hu, coef_table, base))
        s11_flush = float(_step11(types, counts, n_distinct, g_flush, coef_table, base))
        left = n_pool - k
        t2 = (left - 4) * (left - 5) / 2.0
        if tracking:
            b = track_bet[r]
            m_hi = m_min[0] if track_min[r] else m_max[0]
            a3, inv3, lin3_hu, lin3_flush, linb3 = _third_of(dead_rows, r, adds_third, acount, pool, lin_lv, linb_lv,
                                                             no_a, no_lin, no_linb)
            _leaf_tracked(w_lv[parent], q_lv[parent], qb_lv[parent], lin_hu, lin_flush, linb, corr_level,
                          corr_bonus, a_col, inv_n, with_bonus, a3, inv3, lin3_hu, lin3_flush, linb3, adds_third, t2,
                          p1[0], pf1[0], m_min[0], m_hi, c_fa[0, b], fa_bets[0, b], bonus_bet, sums)
            rest = left * (left - 1) * (left - 2) * (left - 3) / 24.0 - s11_hu - s11_flush
            _write_tracked(out[0, r], s11_hu, s11_flush, rest, t2, sums)
            continue
        union_win, union_flush = 0.0, 0.0
        if buffered:
            _leaf_inputs(w_lv[parent], q_lv[parent], lin_hu, lin_flush, corr_level, a_col, inv_n, inputs)
            union_win, union_flush = _buffered_wins(inputs)
        for v in range(out.shape[0]):
            _leaf_row(out[v, r], w_lv[parent], q_lv[parent], qb_lv[parent], lin_hu, lin_flush, linb, corr_level,
                      corr_bonus, a_col, inv_n, with_bonus, inputs, t2, p1[v], pf1[v], m_min[v], m_max[v], c_fa[v],
                      fa_bets[v], bonus_bet)
            if buffered:
                _own_wins(inputs, union_win, union_flush, excluded[v], n_excluded[v],
                          out[v, r, 2 * fa_bets.shape[1] + 4:])
            out[v, r, fa_bets.shape[1] + 1] = s11_hu
            out[v, r, fa_bets.shape[1] + 2] = s11_flush
            _priced_row(out[v, r], left, fa_bets[v], hu_pays[v], flush_pays[v])


#: How far below the floor a row's upper bound must fall for the walk to leave the row out: far above the
#: rounding of its pricing and stage B's tie tolerance.
BELOW_MARGIN = 1e-9


@kernel(nogil=True)
def _bound_group(dead_rows, r, floor, nodes, zeros, step11, payouts, inputs, bound_rows, below, out):
    """Bound the rows from ``r`` on that share its first two dead cards (both suited, and a third): every bet's
    value at most what the node of those two cards gives at the row's number of cards left, with the row's own
    step-11 counts (:func:`_priced_row`). Each community's weight, W and Wf only fall as dead cards are added,
    and its ting gain never falls as W and Wf rise. A row whose every bet that bound puts below ``floor`` is
    marked ``below``, its bound in ``out``; the node is left unbuilt for the others, whose columns the walk then
    builds for them alone. Returns the end of the group (``r + 1`` for a row with fewer suited dead cards)."""
    built, needed, w_lv, q_lv, lin_lv, qb_lv, linb_lv, acount, pool, pair_level, pair_bonus = nodes
    no_level, no_bonus, no_lin, no_linb, no_a = zeros
    types, counts, g_hu, g_flush, coef_table, base = step11
    p1, pf1, m_min, m_max, c_fa, fa_bets, hu_pays, flush_pays = payouts
    n_suited = pool.shape[0]
    end = r + 1
    if _suited_dead(dead_rows, r, n_suited) < 3:
        return end
    first, second = dead_rows[r, 0], dead_rows[r, 1]
    while end < dead_rows.shape[0] and dead_rows[end, 0] == first and dead_rows[end, 1] == second:
        end += 1
    _descend(dead_rows, r, 1, built, needed, w_lv, q_lv, lin_lv, qb_lv, linb_lv, acount, pool, pair_level,
             pair_bonus, below)
    _step(w_lv[1], q_lv[1], lin_lv[1], qb_lv[1], linb_lv[1], second, acount[second],
          1.0 / (pool[second] - (1 if second == first else 0)), False, needed, _pairs_of(pair_level, second, n_suited),
          _pairs_of(pair_bonus, second, n_suited), w_lv[2], q_lv[2], lin_lv[2], qb_lv[2], linb_lv[2])
    built[2] = -2  # its columns are not built
    built[3] = -2
    n_bets = fa_bets.shape[0]
    n_pool = pool.sum()
    summed = np.zeros(2, np.bool_)
    for s in range(r, end):
        k = _suited_dead(dead_rows, s, n_suited)
        if k < 3:
            continue
        left = n_pool - k
        j = 4 - k
        if not summed[j]:
            _leaf_row(bound_rows[j], w_lv[2], q_lv[2], qb_lv[2], no_lin, no_lin, no_linb, no_level, no_bonus, no_a,
                      0.0, False, inputs, (left - 4) * (left - 5) / 2.0, p1, pf1, m_min, m_max, c_fa, fa_bets, 0.0)
            summed[j] = True
        row = out[s]
        row[:] = bound_rows[j]
        n_distinct = _distinct(dead_rows, s, k, types, counts)
        row[n_bets + 1] = float(_step11(types, counts, n_distinct, g_hu, coef_table, base))
        row[n_bets + 2] = float(_step11(types, counts, n_distinct, g_flush, coef_table, base))
        _priced_row(row, left, fa_bets, hu_pays, flush_pays)
        top = row[0]
        for b in range(1, n_bets):
            top = max(top, row[b])
        below[s] = top < floor - BELOW_MARGIN
    return end


@kernel(inline="always")
def _buffers_leaf(n_variants, n_bets, with_bonus):
    """Whether the walk's leaf writes each community's weight, W and Wf to a buffer, for several variants or
    more fa-hu bets than the fused leaf takes a pass to share (never with a bonus bet)."""
    return (n_variants > 1 or n_bets > WIDE_BETS) and not with_bonus


def _walk_scratch(columns: HoldColumns, n_variants: int, n_bets: int) -> tuple[np.ndarray, ...]:
    """:func:`_walk`'s work arrays, made here so that the kernel holds none of its own: each level's weights,
    W and Wf, bonus nets and columns; the cards each level was built for; the columns a node must build;
    zeros for a leaf with no dead card; a dead set's distinct types and counts; a tracked leaf's sums; the
    buffer of a leaf shared by several variants or bets (:func:`_buffers_leaf`); a bounded group's rows
    (:func:`_bound_group`)."""
    n, nb, n_suited = len(columns.w0), len(columns.qb), len(columns.pool)
    buffered = _buffers_leaf(n_variants, n_bets, nb > 0)
    return (np.empty((LEVELS, n)), np.empty((LEVELS, 2, n)), np.empty((LEVELS, nb)),
            np.empty((3, 2, n_suited, n), np.int16), np.empty((3, n_suited, nb)), np.empty(LEVELS, np.int64),
            np.empty(n_suited, np.bool_), np.zeros(n, np.int8), np.zeros(nb, columns.pair_bonus.dtype),
            np.zeros(n, np.int16), np.zeros(nb), np.zeros(n, np.int8), np.empty(4, np.int64), np.empty(4, np.int64),
            np.empty(7), np.empty((3, n if buffered else 0)), np.empty((2, 2 * n_bets + 4 + WINS_COLUMNS)))


@kernel(inline="always")
def _leaf_row(row, w_par, q_par, qb_par, lin_hu, lin_flush, linb, corr_level, corr_bonus, a_col, inv_n, with_bonus,
              inputs, t2, p1, pf1, m_min, m_max, c_fa, fa_bets, bonus_bet):
    """A values row's ting gains (``row[n_bets + 3:2 * n_bets + 4]``) at one leaf, for one variant's payouts:
    by the fused leaf, with the ting wins after them, or from the ``inputs`` :func:`_leaf_inputs` wrote when
    several variants share the leaf (the caller writes the wins). Two fa-hu bets a pass, or
    :data:`WIDE_BETS` when there are more."""
    n_bets = fa_bets.shape[0]
    gains = row[n_bets + 3:2 * n_bets + 4]
    wide = n_bets > 2
    width = WIDE_BETS if wide else 2
    for b0 in range(0, n_bets, width):
        c, f = _bets_from(c_fa, b0), _bets_from(fa_bets, b0)
        if inputs.shape[1] > 0:
            acc = _buffered_values(inputs, wide, t2, p1, pf1, m_min, m_max, c, f)
        else:
            g0, g1, g2, g3, g_min, row[2 * n_bets + 4], row[2 * n_bets + 5] = _leaf_values(
                w_par, q_par, qb_par, lin_hu, lin_flush, linb, corr_level, corr_bonus, a_col, inv_n, with_bonus,
                wide, t2, p1, pf1, m_min, m_max, c, f, bonus_bet)
            acc = (g0, g1, g2, g3, g_min)
        for j in range(width):
            gains[min(b0 + j, n_bets - 1)] = acc[j]
        if b0 == 0:
            gains[n_bets] = acc[4]


@kernel(inline="always")
def _bets_from(values, b0):
    """``values[b0:b0 + 4]`` as a tuple, its last entry repeated past the end."""
    last = values.shape[0] - 1
    return values[b0], values[min(b0 + 1, last)], values[min(b0 + 2, last)], values[min(b0 + 3, last)]


@kernel(inline="always")
def _descend(dead_rows, r, parent, built, needed, w_lv, q_lv, lin_lv, qb_lv, linb_lv, acount, pool, pair_level,
             pair_bonus, below):
    """Bring the walk's nodes down to row ``r``'s leaf's ``parent`` (the node of its first ``parent`` dead
    cards): a level is rebuilt from the one above when its card differs from the one ``built`` there."""
    n_suited = pool.shape[0]
    for lev in range(1, parent + 1):
        card = dead_rows[r, lev - 1]
        if built[lev] == card:
            continue
        if lev <= 2:
            _columns_below(dead_rows, r, lev, n_suited, needed, below)
        before = _copies_before(dead_rows, r, lev - 1, card)
        _step(w_lv[lev - 1], q_lv[lev - 1], lin_lv[min(lev - 1, 2)], qb_lv[lev - 1], linb_lv[min(lev - 1, 2)],
              card, acount[card], 1.0 / (pool[card] - before), lev <= 2, needed,
              _pairs_of(pair_level, card, n_suited), _pairs_of(pair_bonus, card, n_suited),
              w_lv[lev], q_lv[lev], lin_lv[min(lev, 2)], qb_lv[lev], linb_lv[min(lev, 2)])
        built[lev] = card
        for higher in range(lev + 1, LEVELS):
            built[higher] = -2


#: The tracking walk builds a node of three dead cards only when at least this many of its rows share it; for
#: the others the leaf adds the third card itself. Its rows are sparse, mostly one to such a node, whose build
#: cost about as much as the leaf (docs/performance.md, "Sparse walks: only the columns and nodes their rows
#: read"). The value walk, whose rows are denser, always builds them.
NODE_LEAVES_LEAST = 2


@kernel(inline="always")
def _leaves_below(dead_rows, r, n_suited):
    """How many rows from ``r`` on share its first three dead cards and have a fourth suited one, counted up
    to :data:`NODE_LEAVES_LEAST`."""
    count = 0
    for s in range(r, dead_rows.shape[0]):
        if count >= NODE_LEAVES_LEAST or dead_rows[s, 0] != dead_rows[r, 0] or dead_rows[s, 1] != dead_rows[r, 1] \
                or dead_rows[s, 2] != dead_rows[r, 2]:
            break
        count += dead_rows[s, 3] < n_suited
    return count


@kernel(inline="always")
def _third_of(dead_rows, r, adds_third, acount, pool, lin_lv, linb_lv, no_a, no_lin, no_linb):
    """What a leaf that ``adds_third`` reads of row ``r``'s third dead card (:func:`_third_added`); arrays of
    zeros for one that does not."""
    if not adds_third:
        return no_a, 0.0, no_lin, no_lin, no_linb
    third = dead_rows[r, 2]
    return (acount[third], 1.0 / (pool[third] - _copies_before(dead_rows, r, 2, third)), lin_lv[2, 0, third],
            lin_lv[2, 1, third], linb_lv[2, third])


@kernel(inline="always")
def _columns_below(dead_rows, r, lev, n_suited, needed, below):
    """Mark in ``needed`` the columns ``L_t`` that the rows from ``r`` on sharing its first ``lev`` dead cards
    read from the node of those cards or from nodes below it: their later suited dead cards (none of the rows
    ``below`` a floor, which are not walked). A bounded or tracking walk's rows are sparse, and building only
    these saves most of a node's work (docs/performance.md, "Sparse walks: only the columns and nodes their
    rows read")."""
    needed[:] = False
    for s in range(r, dead_rows.shape[0]):
        for j in range(lev):
            if dead_rows[s, j] != dead_rows[r, j]:
                return
        if below[s]:
            continue
        for j in range(lev, dead_rows.shape[1]):
            if dead_rows[s, j] < n_suited:
                needed[dead_rows[s, j]] = True


@kernel(inline="always")
def _priced_row(row, left, fa_bets, hu_pays, flush_pays):
    """A values row's EVs (its first ``n_bets + 1`` columns) from its step-11 counts and ting gains, with
    ``left`` suited cards left for the community. The walk and :func:`price` both price through here, so
    a stage A priced again for other step-11 payouts is bit for bit a walk with those payouts."""
    n_bets = fa_bets.shape[0]
    s11_hu = row[n_bets + 1]
    s11_flush = row[n_bets + 2]
    total4 = left * (left - 1) * (left - 2) * (left - 3) / 24.0
    t2 = (left - 4) * (left - 5) / 2.0
    rest = total4 - s11_hu - s11_flush
    for b in range(n_bets + 1):
        f = 0 if b == n_bets else b
        row[b] = (t2 * (hu_pays[f] * s11_hu + flush_pays[f] * s11_flush) - t2 * (1.0 + fa_bets[f]) * rest
                  + row[n_bets + 3 + b]) / (t2 * total4)


@kernel(nogil=True)
def _price(rows, left, fa_bets, hu_pays, flush_pays):
    for r in range(rows.shape[0]):
        _priced_row(rows[r], left[r], fa_bets, hu_pays, flush_pays)


def largest_move(source: GameConfig, config: GameConfig) -> tuple[np.ndarray, float] | None:
    """How ``source``'s ting gains move to ``config``'s when only the largest ting multiple differs: by
    ``F dm Z+`` (``F dm`` per fa-hu bet of ``config``, the first item), ``Z+`` the summed ``w z`` of the
    communities with ``z > 0``, which alone bet the largest multiple and bet at every multiple; a row's ting
    gain at the first bet less that with the smallest multiple alone is ``F0 (m_max - m_min) Z+`` (the
    second item the divisor). None when the largest is the same, or ``source`` has one multiple."""
    largest, smallest = max(source.ting_hu_multiples), min(source.ting_hu_multiples)
    change = max(config.ting_hu_multiples) - largest
    if change == 0 or largest == smallest:
        return None
    return np.array(config.fa_hu_bets) * change, source.fa_hu_bets[0] * (largest - smallest)


def largest_shift(gains: np.ndarray, move: tuple[np.ndarray, float]) -> np.ndarray:
    """Per row and fa-hu bet, ``F dm Z+`` (:func:`largest_move`) from the rows' ting gains (the smallest
    multiple's last); exact where the walk's sums are (:func:`sums_exact`): ``Z+`` is then representable,
    so the quotient is, and so is each product."""
    return ((gains[:, 0] - gains[:, -1]) / move[1])[:, None] * move[0]


def price(rows: np.ndarray, left: np.ndarray, constants: TingConstants) -> None:
    """Price stage-A values rows (the walk's output, see :data:`TRACK_COLUMNS`) in place for the step-11
    payouts of ``constants``; ``left``: each row's suited cards left for the community (the pool less
    the suited dead cards)."""
    _price(rows, np.ascontiguousarray(left, dtype=np.int64), constants.fa_bets, constants.step11_hu,
           constants.step11_flush)


def walk(columns: HoldColumns, dead_rows: np.ndarray, config: GameConfig, constants: TingConstants,
         track_bet: np.ndarray | None = None, track_min: np.ndarray | None = None) -> np.ndarray:
    """Values of one hold against each dead set (rows of four type indices, jokers last, sorted and in
    increasing order): one column per fa-hu bet, then the minimum-bets value, then what they are priced
    from (:func:`price`: the step-11 hu and flush counts, the ting gain of each F and of the minimum
    bets). With ``track_bet`` (a bet index per row) the :data:`TRACK_COLUMNS` of each row's bet instead
    (``track_min``: only the smallest ting multiple)."""
    return _walked(columns, dead_rows, config, [constants], track_bet, track_min)[0][0]


def walk_above(columns: HoldColumns, dead_rows: np.ndarray, config: GameConfig, constants: TingConstants,
               floor: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`walk`'s values, but for the rows that an upper bound proves below ``floor`` at every bet (a row
    that cannot beat folding, say): those are not walked, and hold that bound (:func:`_bound_group`); and which
    rows those are. One variant, no bonus bet: a bonus net can rise with dead cards, so nothing bounds it so."""
    if constants.bonus_bet != 0 or len(constants.fa_bets) > WIDE_BETS:
        raise ValueError("rows are bounded below a floor only without a bonus bet and with the fused leaf")
    out, below = _walked(columns, dead_rows, config, [constants], floor=floor)
    return out[0], below


def walk_variants(columns: HoldColumns, dead_rows: np.ndarray, config: GameConfig,
                  variants: list[TingConstants]) -> np.ndarray:
    """:func:`walk`'s values for several variants of the ting payouts and bet sizes at once (``out[k]``:
    ``variants[k]``'s), each leaf's weights, W and Wf computed once for all. ``columns``: those live under
    any of them (:func:`live_columns`). Each variant's values are bit for bit what :func:`walk` gives it on
    its own columns when :func:`sums_exact` holds for every variant; the fa-hu bets must be as many."""
    if len({len(k.fa_bets) for k in variants}) != 1 or any(k.bonus_bet != 0 for k in variants):
        raise ValueError("variants walked together need as many fa-hu bets and no bonus bet")
    return _walked(columns, dead_rows, config, variants)[0]


def _walked(columns: HoldColumns, dead_rows: np.ndarray, config: GameConfig, variants: list[TingConstants],
            track_bet: np.ndarray | None = None, track_min: np.ndarray | None = None, floor: float = -np.inf
            ) -> tuple[np.ndarray, np.ndarray]:
    """The walk's output for each variant (stacked on the first axis), tracking with ``track_bet``; and the rows
    left out below ``floor`` (:func:`walk_above`)."""
    geometry = config.geometry
    rows = np.ascontiguousarray(dead_rows, dtype=np.int64)
    tracking = track_bet is not None
    n_out = len(TRACK_COLUMNS) if tracking else 2 * len(variants[0].fa_bets) + 4 + WINS_COLUMNS
    track_bet = np.zeros(0) if track_bet is None else track_bet
    track_min = np.zeros(len(track_bet)) if track_min is None else track_min
    out = np.empty((len(variants), len(rows), n_out))
    below = np.zeros(len(rows), np.bool_)

    def stacked(name: str) -> np.ndarray:
        return np.ascontiguousarray([getattr(k, name) for k in variants], dtype=np.float64)

    c = columns
    excluded, n_excluded = _left_out(columns, variants)
    # track_bet and track_min copied (writable) whatever they were: a read-only array (the tracking walk's, read
    # from a table) is a type of its own to numba, and the kernel would be compiled a second time for it
    _walk(c.acount, c.w0, c.q0, c.lin, c.qb, c.linb, c.pair_level, c.pair_bonus, c.g_hu, c.g_flush, c.pool, rows,
          np.array(track_bet, dtype=np.int64), np.array(track_min, dtype=np.bool_), tracking,
          stacked("fa_bets"), stacked("c"), stacked("step11_hu"), stacked("step11_flush"), stacked("p1"),
          stacked("pf1"), stacked("m_min"), stacked("m_max"), excluded, n_excluded, variants[0].bonus_bet,
          binomial_table(geometry.copies_in_play), geometry.n_suited + 1, float(floor), below, out,
          _walk_scratch(columns, len(variants), len(variants[0].fa_bets)))
    return out, below


def _left_out(columns: HoldColumns, variants: list[TingConstants]) -> tuple[np.ndarray, np.ndarray]:
    """For variants walked together (columns live under any of them), the communities each one's payouts
    leave out (row k, its first ``n[k]`` entries), whose ting wins are not its own; nothing for one."""
    if len(variants) == 1:
        return np.zeros((1, 0), np.int64), np.zeros(1, np.int64)
    pool = _fewest_completions(columns.pool)
    left_out = []
    for k in variants:
        mask = np.empty(columns.n_live, np.bool_)
        _live_mask(columns.q0, k.p1, k.pf1, pool, k.m_min, k.m_max, k.fa_bets, k.c, mask)
        left_out.append(np.flatnonzero(~mask))
    excluded = np.zeros((len(variants), max(len(x) for x in left_out)), np.int64)
    for k, x in enumerate(left_out):
        excluded[k, :len(x)] = x
    return excluded, np.array([len(x) for x in left_out], np.int64)
