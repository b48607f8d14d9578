"""A table of 1 to 6 seats dealt from one shuffled deck, each seat playing the solved strategy on what it has seen.

The rules (docs/rules.md; ../shared/RULES.md section 4) are written for a
table: all seats draw from one stub and share one board of community
cards, and three rules depend on the other seats. This simulator plays them
with real cards, card by card, reusing the lone-player simulator's pieces
(:mod:`solver.products.simulate`: the shuffle, the hu test, the ting count):

- Deal: six cards to seat 1, then six to seat 2, and so on; each seat then
  decides at steps 3-9 in seat order, draws coming from the stub in that
  order. A tian-hu or di-hu claim shows the claimer's six cards, but the deal
  and draw decisions of the other seats are the lone player's (the solve's
  tables, which know only the seat's own cards): the shown cards are ignored
  there, a simplification.
- Step 11: every seat that bet the fa-hu shows its four cards (a seat that
  wins there shows them too). The ting decision (step 12) is then made
  exactly on what the seat has seen: its outs are counted among the cards it
  has not seen (its own hand and discards, the community, the four cards of
  every other seat that showed, the six of every claimer are seen). The same
  deals are also played with the lone player's ting decision (own cards
  only), paired, so the value of the shown cards has a tight interval.
- The bonus bet (one unit per seat) is settled iff some seat bets the ting;
  otherwise every seat's bonus pushes.
- The last seat is also played bonus-aware at step 12 (:func:`_aware_choice`):
  deciding after the others, when none bet it settles or pushes the bonus
  on the bonus's exact expected net. Where that changes its choice, the
  exact expected change is added instead of dealing cards the main game did
  not need, so the deals stay the same and its gain is paired.

With one seat the random stream and every decision are those of
:func:`solver.products.simulate.simulate`, so the same seed plays the same
hands. Hands run in the lone simulator's fixed batches with the same seeds.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from math import sqrt
from pathlib import Path
from typing import Any

import numpy as np
from joblib import Parallel, delayed

from solver.errors import InputError
from solver.game.bonus import _bonus_mask, payout_by_mask
from solver.game.config import GameConfig
from solver.game.symmetry_kernels import pattern_base
from solver.products.simulate import (
    BATCH,
    CLAIM,
    FOLD,
    Z99,
    Strategy,
    _canonical,
    _deal_community,
    _discard_and_draw,
    _find,
    _keep,
    _level,
    _next_card,
    _outcome_index,
    _outcomes,
    _ting_decision,
    _ting_marks,
    _weigh_completions,
    _workspace,
    load_strategy,
)
from solver.runtime.jit import kernel
from solver.runtime.parallel import mark_parent, watch_parent, work_processes
from solver.staged.run import load_summary

MAX_SEATS = 6
Z90 = 1.6448536269514722  # two-sided 90% normal quantile
Z95 = 1.959963984540054  # two-sided 95% normal quantile

# Sums a batch returns (float64). The first eleven are exact (every result is a multiple of 1/2, far below
# 2^52); the bonus-aware seat's (AWARE_...) add exact conditional expectations, rounded.
(TABLE_SUM, TABLE_SQ, SEAT_SQ, DIFF_SUM, DIFF_SQ, SETTLED, BONUS_SUM, BONUS_SQ, CHANGED, TING_BETS,
 LONE_TING_BETS, AWARE_SETTLED, AWARE_CHANGED, AWARE_MAIN_SUM, AWARE_MAIN_SQ, AWARE_BONUS_SUM, AWARE_BONUS_SQ,
 AWARE_GAIN_SUM, AWARE_GAIN_SQ, N_SUMS) = range(20)


@kernel
def _seats_state(n_seats, n_types):
    """Per-seat arrays of one hand: its cards (hand, hold, seen, first discards' counts, their types) and
    its bets and results (DD, F choice, outcome with the shown cards, outcome without)."""
    cards = (np.zeros((n_seats, n_types), np.int64), np.zeros((n_seats, n_types), np.int64),
             np.zeros((n_seats, n_types), np.int64), np.zeros((n_seats, n_types), np.int64),
             np.zeros((n_seats, 2), np.int64))
    bets = (np.zeros(n_seats, np.int64), np.zeros(n_seats, np.int64), np.zeros(n_seats, np.int64),
            np.zeros(n_seats, np.int64))
    return cards, bets


@kernel(inline="always")
def _seat_to_fa(s, deck, pos, base, suits, ranks, deal, draw, n_pays, work, seats, shown):
    """Steps 3-9 for seat ``s`` on the lone player's tables: sets its DD, F choice (0: out) and, when it is
    out, its outcome (-2: a state the tables lack); a claimer's six cards go into ``shown``. The new ``pos``."""
    deal_keys, deal_action, deal_discard, deal_dd = deal
    draw_keys, draw_action, draw_discard, draw_fa = draw
    n_fa, n_g = n_pays
    (_, _, _, _, none, _, _), (image, back, scratch) = work
    (hand, hold, seen, dead_counts, dead), (dd, fa, result, lone) = seats
    fa[s] = 0
    key = _canonical(hand[s], none, suits, ranks, base, image, back, scratch)
    row = _find(deal_keys, key)
    if row < 0:
        result[s] = -2
        return pos
    if deal_action[row] == CLAIM:
        result[s] = _outcome_index(1 if _level(hand[s], none, False, suits, ranks) == 2 else 0, 0, 0, 0, n_fa, n_g)
        shown += hand[s]
        return pos
    dd[s] = deal_dd[row]
    pos = _discard_and_draw(deck, pos, hand[s], dead_counts[s], dead[s], back, deal_discard[row])
    key = _canonical(hand[s], dead_counts[s], suits, ranks, base, image, back, scratch)
    row = _find(draw_keys, key * 2 + dd[s])
    if row < 0:
        result[s] = -2
        return pos
    if draw_action[row] == CLAIM:
        result[s] = _outcome_index(3 if _level(hand[s], none, False, suits, ranks) == 2 else 2, dd[s], 0, 0,
                                   n_fa, n_g)
        shown += hand[s]
    elif draw_action[row] == FOLD:
        result[s] = _outcome_index(4, dd[s], 0, 0, n_fa, n_g)
    else:
        _keep(hand[s], seen[s], hold[s], dead[s], back, draw_discard[row])
        fa[s] = draw_fa[row] + 1
    return pos


@kernel(inline="always")
def _step11(n_seats, comm, suits, ranks, n_pays, none, seats, shown):
    """Steps 10-11 after the first four community cards ``comm``: every seat in shows its hold (into
    ``shown``), and one that holds a hu wins. The number of seats still in for the ting."""
    n_fa, n_g = n_pays
    hand, hold, _, _, _ = seats[0]
    dd, fa, result, lone = seats[1]
    left = 0
    for s in range(n_seats):
        if fa[s] == 0:
            continue
        shown += hold[s]
        hand[s] = hold[s] + comm
        level = _level(hand[s], none, False, suits, ranks)
        if level > 0:
            result[s] = _outcome_index(6 if level == 2 else 5, dd[s], fa[s], 0, n_fa, n_g)
            lone[s] = result[s]
            fa[s] = 0
        else:
            left += 1
    return left


@kernel(inline="always")
def _decide_ting(full, seen, n_suited, everywhere, f, pays, ting):
    """The ting choice of a seat whose completions are marked (``everywhere`` and ``ting``'s levels), out
    of the cards not in ``seen``; ``ting``'s ``evs`` receives each option's EV."""
    _, multiples, ting_pays = pays
    evs, _, _, row_level, pair_level = ting
    n_hu, n_flush, total = _weigh_completions(full, seen, n_suited, everywhere, row_level, pair_level)
    return _ting_decision(n_hu, n_flush, total, f, multiples, ting_pays, evs)


@kernel(inline="always")
def _ting_choices(n_seats, comm, suits, ranks, pays, full, table_seen, ting, seats, shown, g_table, g_lone):
    """Step 12 for every seat still in: its ting choice on what it has seen (own cards, the community,
    ``shown``) into ``g_table``, and the lone player's (own cards and community only) into ``g_lone``.
    The last seat comes last: when it is in, ``ting``'s EVs and completion marks and ``table_seen`` are
    still its own afterwards, and its level marked everywhere is returned (for :func:`_aware_choice`)."""
    _, missing, set_short, row_level, pair_level = ting
    hand, hold, seen, _, _ = seats[0]
    fa = seats[1][1]
    n_suited = suits * ranks
    everywhere = 0
    for s in range(n_seats):
        g_table[s] = 0
        g_lone[s] = 0
        if fa[s] == 0:
            continue
        everywhere = _ting_marks(hand[s], hold[s], suits, ranks, missing, set_short, row_level, pair_level)
        f = pays[0][fa[s] - 1]
        seen[s] += comm
        g_lone[s] = _decide_ting(full, seen[s], n_suited, everywhere, f, pays, ting)
        others = 0  # cards other seats showed: its own hold is in ``shown`` and in ``seen``
        for t in range(n_suited + 1):
            table_seen[t] = seen[s, t] + shown[t] - hold[s, t]
            others += shown[t] - hold[s, t]
        if others == 0:  # nothing else shown: the lone decision
            g_table[s] = g_lone[s]
            continue
        g_table[s] = _decide_ting(full, table_seen, n_suited, everywhere, f, pays, ting)
    return everywhere


@kernel(inline="always")
def _bonus_expectation(comm, seen, full, suits, ranks, bonus_net, six):
    """Expected net of a unit bonus bet once settled, given the four community cards ``comm`` and the cards
    ``seen`` (the community among them): the last two come from the unseen non-joker cards. Every paying
    category needs two identical cards or six of one suit, so when the four have neither, two cards that
    bring neither lose the bet without a test."""
    n_suited = suits * ranks
    paired = False
    suit = -1  # the suit of all four so far: -1 before the first, -2 once two suits are seen
    for t in range(n_suited):
        if comm[t] > 0:
            paired = paired or comm[t] > 1
            suit = t // ranks if suit == -1 or suit == t // ranks else -2
    six[:] = comm
    total = 0
    value = 0.0  # a sum of integer payouts times integer weights: exact
    for t1 in range(n_suited):
        u1 = full[t1] - seen[t1]
        if u1 <= 0:
            continue
        six[t1] += 1
        for t2 in range(t1, n_suited):
            w = u1 * (u1 - 1) // 2 if t2 == t1 else u1 * (full[t2] - seen[t2])
            if w <= 0:
                continue
            total += w
            if not (paired or t2 == t1 or comm[t1] > 0 or comm[t2] > 0
                    or t1 // ranks == suit and t2 // ranks == suit):
                value -= w
                continue
            six[t2] += 1
            value += w * bonus_net[_bonus_mask(six, suits, ranks)]
            six[t2] -= 1
        six[t1] -= 1
    return value / total


@kernel(inline="always")
def _aware_choice(n_seats, comm, suits, ranks, pays, full, table_seen, ting, seats, everywhere, g_table, bonus,
                  aware, six, stub):
    """Step 12 for the bonus-aware seat, the last, which decides after the others. When no other seat bet the
    ting its choice also settles or pushes the bonus, so it maximises its main game's EV plus ``bonus[1]``
    times the settled bonus's expected net (``bonus[0]``: a unit bet's net by category mask), on
    everything it has seen (ties to less money at risk). ``aware`` receives its choice, the expected
    change this makes (against its main-game choice in ``g_table``) in its main game's and in a unit
    bonus's net, and whether the bonus is then settled. The change is the expectation over the last two
    community cards as they will come: from the real stub (``stub``: the deck and the position of its first
    card not yet dealt), which other seats' hidden cards make differ from what the seat can see. Called
    right after :func:`_ting_choices`: its last seat's EVs, marks (``everywhere``) and ``table_seen``."""
    s = n_seats - 1
    others_bet = False
    for t in range(s):
        others_bet = others_bet or g_table[t] > 0
    aware[0] = g_table[s]
    aware[1] = 0.0
    aware[2] = 0.0
    aware[3] = 1.0 if others_bet or g_table[s] > 0 else 0.0
    fa = seats[1][1]
    if fa[s] == 0 or others_bet:
        return
    evs = ting[0]
    n_suited = suits * ranks
    bonus_net, aware_bet = bonus
    top = evs[1:].max()  # the bonus adds the same to every bet: the best bet is the main game's
    g = 1
    while evs[g] < top - 1e-12:
        g += 1
    if evs[g] - aware_bet > evs[0] + 1e-12:
        return  # a unit bonus loses at most 1: the bet stays, as in the main game
    unit = _bonus_expectation(comm, table_seen, full, suits, ranks, bonus_net, six)
    if evs[g] + aware_bet * unit <= evs[0] + 1e-12:
        g = 0  # ties go to the fold, less money at risk
    aware[0] = g
    aware[3] = 1.0 if g > 0 else 0.0
    if g == g_table[s]:
        return
    deck, pos = stub
    table_seen[:] = full  # the stub's view: every card dealt so far is out
    for i in range(pos, deck.shape[0]):
        table_seen[deck[i]] -= 1
    _decide_ting(full, table_seen, n_suited, everywhere, pays[0][fa[s] - 1], pays, ting)
    aware[1] = evs[g] - evs[g_table[s]]
    aware[2] = ((1.0 if g > 0 else 0.0) - (1.0 if g_table[s] > 0 else 0.0)) * _bonus_expectation(
        comm, table_seen, full, suits, ranks, bonus_net, six)


@kernel(inline="always")
def _settle_ting(n_seats, comm, suits, ranks, n_pays, seats, g_table, g_lone):
    """Steps 13-14 once the last two community cards are in ``comm``: each seat's outcome with its table
    ting choice and with its lone one."""
    n_fa, n_g = n_pays
    hand, hold, _, _, _ = seats[0]
    dd, fa, result, lone = seats[1]
    for s in range(n_seats):
        if fa[s] == 0:
            continue
        kind = 7
        if g_table[s] > 0 or g_lone[s] > 0:
            hand[s] = hold[s] + comm
            level = _level(hand[s], hold[s], True, suits, ranks)
            kind = 9 if level == 2 else (8 if level == 1 else 10)
        result[s] = _outcome_index(kind if g_table[s] > 0 else 7, dd[s], fa[s], g_table[s], n_fa, n_g)
        lone[s] = _outcome_index(kind if g_lone[s] > 0 else 7, dd[s], fa[s], g_lone[s], n_fa, n_g)


@kernel(inline="always")
def _play_round(n_seats, deck, base, suits, ranks, deal, draw, pays, work, ting, seats, table, bonus):
    """Deal and play one hand at the table; each seat's outcome (with the shown cards and without) is
    left in ``seats``, the bonus-aware last seat's step 12 in ``table``'s ``aware`` (:func:`_aware_choice`).
    Returns whether the bonus is settled (some seat bets the ting), or -1 for a state the tables lack."""
    n_pays = (len(pays[0]), len(pays[1]))
    cards = work[0]
    full, none = cards[0], cards[4]
    comm, shown, table_seen, scratch_seen, g_table, g_lone, aware, six = table
    hand = seats[0][0]
    result, lone = seats[1][2], seats[1][3]
    hand[:, :] = 0
    g_table[:] = 0
    g_lone[:] = 0
    aware[:] = 0.0
    for s in range(n_seats):
        for i in range(6):
            hand[s, _next_card(deck, 6 * s + i)] += 1
    shown[:] = 0
    pos = 6 * n_seats
    for s in range(n_seats):
        pos = _seat_to_fa(s, deck, pos, base, suits, ranks, deal, draw, n_pays, work, seats, shown)
        if result[s] == -2:
            return -1
        lone[s] = result[s]
    if seats[1][1].max() == 0:
        return 0
    comm[:] = 0
    pos = _deal_community(deck, pos, 4, comm, scratch_seen, suits * ranks)
    if _step11(n_seats, comm, suits, ranks, n_pays, none, seats, shown) == 0:
        return 0
    everywhere = _ting_choices(n_seats, comm, suits, ranks, pays, full, table_seen, ting, seats, shown, g_table,
                               g_lone)
    _aware_choice(n_seats, comm, suits, ranks, pays, full, table_seen, ting, seats, everywhere, g_table, bonus,
                  aware, six, (deck, pos))
    if g_table.max() == 0 and g_lone.max() == 0:
        _settle_ting(n_seats, comm, suits, ranks, n_pays, seats, g_table, g_lone)
        return 0
    pos = _deal_community(deck, pos, 2, comm, scratch_seen, suits * ranks)
    _settle_ting(n_seats, comm, suits, ranks, n_pays, seats, g_table, g_lone)
    return 1 if g_table.max() > 0 else 0


@kernel(inline="always")
def _add_hand(n_seats, settled, bonus_b, nets, seats, table, aware_bet, out, sums):
    """Add one hand's results to the outcome counts ``out`` and the figures' sums ``sums``; ``bonus_b`` is
    a unit bonus bet's net on this hand's six community cards (used when ``settled``)."""
    result, lone = seats[1][2], seats[1][3]
    g_table, g_lone, aware = table[4], table[5], table[6]
    total = 0.0
    diff = 0.0
    for s in range(n_seats):
        out[result[s]] += 1
        r = nets[result[s]]
        total += r
        sums[SEAT_SQ] += r * r
        diff += r - nets[lone[s]]
        sums[CHANGED] += 1 if result[s] != lone[s] else 0
        sums[TING_BETS] += 1 if g_table[s] > 0 else 0
        sums[LONE_TING_BETS] += 1 if g_lone[s] > 0 else 0
    sums[TABLE_SUM] += total
    sums[TABLE_SQ] += total * total
    sums[DIFF_SUM] += diff
    sums[DIFF_SQ] += diff * diff
    b = bonus_b if settled else 0.0
    sums[SETTLED] += settled
    sums[BONUS_SUM] += b
    sums[BONUS_SQ] += b * b
    # the bonus-aware last seat: its realized results plus the exact expected change its choice makes
    main = nets[result[n_seats - 1]] + aware[1]
    unit = b + aware[2]
    gain = aware[1] + aware_bet * aware[2]
    sums[AWARE_SETTLED] += aware[3]
    sums[AWARE_CHANGED] += 1 if aware[0] != g_table[n_seats - 1] else 0
    sums[AWARE_MAIN_SUM] += main
    sums[AWARE_MAIN_SQ] += main * main
    sums[AWARE_BONUS_SUM] += unit
    sums[AWARE_BONUS_SQ] += unit * unit
    sums[AWARE_GAIN_SUM] += gain
    sums[AWARE_GAIN_SQ] += gain * gain


@kernel
def _play_table(seed, n_hands, n_seats, deck, base, suits, ranks, deal, draw, pays, nets, bonus, out, sums, trace):
    """Play ``n_hands`` hands at a table of ``n_seats``; ``out[outcome index]`` counts every seat-hand's
    outcome (with the shown cards) and ``sums`` the figures' sums (``TABLE_SUM`` ...); ``bonus`` is (a unit
    bonus bet's net by category mask, the bonus-aware seat's bonus bet). A ``trace`` with rows receives, per
    hand, whether the bonus was settled, each seat's outcome index, each seat's ting choice, and the
    bonus-aware seat's ting choice and whether the bonus is settled with it. Returns -1, or the number of a
    hand whose state the tables lack (which would be a bug)."""
    np.random.seed(seed)
    deck = deck.copy()
    cards, keying, ting = _workspace(deck, suits, ranks, len(pays[1]))
    work = (cards, keying)
    n_types = suits * ranks + 1
    seats = _seats_state(n_seats, n_types)
    table = (np.zeros(n_types, np.int64), np.zeros(n_types, np.int64), np.zeros(n_types, np.int64),
             np.zeros(n_types, np.int64), np.zeros(n_seats, np.int64), np.zeros(n_seats, np.int64),
             np.zeros(4, np.float64), np.zeros(n_types, np.int64))
    result = seats[1][2]
    comm, g_table, aware = table[0], table[4], table[6]
    for h in range(n_hands):
        settled = _play_round(n_seats, deck, base, suits, ranks, deal, draw, pays, work, ting, seats, table, bonus)
        if settled < 0:
            return h
        if h < trace.shape[0]:
            trace[h, 0] = settled
            trace[h, 1:1 + n_seats] = result
            trace[h, 1 + n_seats:1 + 2 * n_seats] = g_table
            trace[h, 1 + 2 * n_seats] = int(aware[0])
            trace[h, 2 + 2 * n_seats] = int(aware[3])
        bonus_b = bonus[0][_bonus_mask(comm, suits, ranks)] if settled else 0.0
        _add_hand(n_seats, settled, bonus_b, nets, seats, table, bonus[1], out, sums)
    return -1


def max_seats(config: GameConfig) -> int:
    """How many seats (at most 6) one deck can always deal: each seat takes six cards and draws two, and the
    community needs six suited cards with every joker in the stub possibly turned up and replaced."""
    geometry = config.geometry
    size = int(geometry.full_counts().sum())
    jokers = int(geometry.full_counts()[geometry.joker])
    return max(0, min(MAX_SEATS, (size - 6 - jokers) // 8))


def check_seats(config: GameConfig, seats: int) -> None:
    """Refuse (``InputError``, one line) a number of seats outside 1 to 6 or more than ``config``'s deck deals."""
    if not 1 <= seats <= MAX_SEATS:
        raise InputError(f"--seats must be 1 to {MAX_SEATS}, got {seats}")
    fit = max_seats(config)
    if seats > fit:
        raise InputError(f"--seats {seats}: this deck deals at most {fit} seats (each takes 8 cards, the "
                         f"community 6 plus the jokers it may turn up)")


@dataclass(frozen=True)
class TableResult:
    """What a table of ``seats`` seats did over ``hands`` hands (``seats * hands`` seat-hands)."""

    seats: int
    hands: int
    seed: int
    counts: dict[Any, int]
    sums: tuple[float, ...]
    analytic_ev: float
    seconds: float
    aware_bet: float = 1.0
    """The bonus-aware seat's bonus bet (in T)."""

    def _mean_se(self, total: int, square: int, per: int) -> tuple[float, float]:
        """Mean per seat of a per-hand table total and its standard error (from the hands' spread)."""
        mean = self.sums[total] / self.hands
        variance = max(self.sums[square] / self.hands - mean**2, 0.0) * self.hands / (self.hands - 1)
        return mean / per, sqrt(variance / self.hands) / per

    @property
    def ev(self) -> tuple[float, float]:
        """Main game's mean result per seat-hand, and its standard error (seats of one hand correlate:
        the error comes from the hands' table totals)."""
        return self._mean_se(TABLE_SUM, TABLE_SQ, self.seats)

    @property
    def seat_sd(self) -> float:
        """Standard deviation of one seat's result per hand."""
        mean = self.ev[0]
        return sqrt(max(self.sums[SEAT_SQ] / (self.hands * self.seats) - mean**2, 0.0))

    @property
    def shown_value(self) -> tuple[float, float]:
        """What the shown cards add per seat-hand (table ting decision less the lone one, same deals)."""
        return self._mean_se(DIFF_SUM, DIFF_SQ, self.seats)

    @property
    def bonus(self) -> tuple[float, float]:
        """Net result per unit bonus bet placed (one per seat, all alike: one board), and its error."""
        return self._mean_se(BONUS_SUM, BONUS_SQ, 1)

    @property
    def aware(self) -> dict[str, Any]:
        """The bonus-aware last seat: its main game's EV, a unit bonus bet's net per bet placed, and its
        gain in T a hand over main-game-optimal play (main game plus ``aware_bet`` bonus), each with its
        standard error; the share of all hands its bonus is settled, and the share its ting choice differs."""
        main, main_se = self._mean_se(AWARE_MAIN_SUM, AWARE_MAIN_SQ, 1)
        bonus, bonus_se = self._mean_se(AWARE_BONUS_SUM, AWARE_BONUS_SQ, 1)
        gain, gain_se = self._mean_se(AWARE_GAIN_SUM, AWARE_GAIN_SQ, 1)
        return {"bonus_bet": self.aware_bet, "seat": self.seats,
                "main_ev": main, "main_ci99": [main - Z99 * main_se, main + Z99 * main_se],
                "bonus_net_per_bet_placed": bonus, "bonus_ci99": [bonus - Z99 * bonus_se, bonus + Z99 * bonus_se],
                "gain": gain, "gain_ci99": [gain - Z99 * gain_se, gain + Z99 * gain_se],
                "bonus_settled_share": self.sums[AWARE_SETTLED] / self.hands,
                "ting_decisions_changed_share": self.sums[AWARE_CHANGED] / self.hands}

    def range_after(self, n: int, z: float) -> tuple[float, float]:
        """A seat's total result after ``n`` hands, the central range at normal quantile ``z`` (normal
        approximation from the per-hand mean and SD)."""
        mean = self.ev[0]
        half = z * self.seat_sd * sqrt(n)
        return n * mean - half, n * mean + half

    def to_json(self) -> dict[str, Any]:
        """The figures as plain data for ``--json``."""
        ev, se = self.ev
        value, value_se = self.shown_value
        bonus, bonus_se = self.bonus
        settled = self.sums[SETTLED] / self.hands
        seat_hands = self.seats * self.hands
        return {
            "seats": self.seats, "hands": self.hands, "seat_hands": seat_hands, "seed": self.seed,
            "seconds": self.seconds, "seat_hands_per_second": seat_hands / self.seconds if self.seconds else None,
            "ev_per_seat": ev, "std_error": se, "ci99": [ev - Z99 * se, ev + Z99 * se],
            "seat_sd": self.seat_sd, "analytic_lone_ev": self.analytic_ev,
            "shown_cards_value": value, "shown_cards_std_error": value_se,
            "shown_cards_ci99": [value - Z99 * value_se, value + Z99 * value_se],
            "ting_decisions_changed_share": self.sums[CHANGED] / seat_hands,
            "ting_bet_share": self.sums[TING_BETS] / seat_hands,
            "lone_ting_bet_share": self.sums[LONE_TING_BETS] / seat_hands,
            "bonus_settled_share": settled, "bonus_net_per_bet_placed": bonus, "bonus_std_error": bonus_se,
            "bonus_ci99": [bonus - Z99 * bonus_se, bonus + Z99 * bonus_se],
            "bonus_net_per_bet_settled": bonus / settled if settled else None,
            "bonus_aware_seat": self.aware,
            "ranges": [{"hands": n, "mean": n * ev, "range90": list(self.range_after(n, Z90)),
                        "range95": list(self.range_after(n, Z95))} for n in (100, 1_000, 10_000)],
            "range_method": "normal approximation from the per-hand mean and SD of one seat",
            "outcomes": [{"outcome": o.label(), "count": n, "frequency": n / seat_hands}
                         for o, n in sorted(self.counts.items(), key=lambda kv: -kv[1])],
        }


def _table_batches(seed: int, first: int, sizes: list[int], seats: int, config: GameConfig,
                   strategy: Strategy, aware_bet: float) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Batches ``first``, ``first + 1``, ... of ``sizes`` hands, each with its own seed, in one task (the
    strategy is shipped to a worker once per task, not once per batch)."""
    watch_parent()
    return [_table_batch(seed, first + i, n, seats, config, strategy, aware_bet=aware_bet)
            for i, n in enumerate(sizes)]


def _table_batch(seed: int, index: int, n_hands: int, seats: int, config: GameConfig, strategy: Strategy,
                 traced: int = 0, aware_bet: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One batch: its outcome counts, its sums, and the trace of its first ``traced`` hands (rows of: the
    bonus settled, each seat's outcome index, each seat's ting choice, the bonus-aware seat's ting choice
    and whether the bonus is settled with it)."""
    geometry = config.geometry
    deck = np.repeat(np.arange(geometry.n_types), geometry.full_counts())
    outcomes = _outcomes(config)
    out = np.zeros(len(outcomes), np.int64)
    sums = np.zeros(N_SUMS, np.float64)
    batch_seed = int(np.random.SeedSequence([seed, index]).generate_state(1)[0] % (2**31 - 1))
    deal = (strategy.deal_keys, strategy.deal_action, strategy.deal_discard, strategy.deal_dd)
    draw = (strategy.draw_keys, strategy.draw_action, strategy.draw_discard, strategy.draw_fa)
    pays = (np.array(config.fa_hu_bets, np.float64), np.array(config.ting_hu_multiples, np.float64),
            np.array([config.ting_hu_ante, config.ting_hu_fa, config.ting_hu, config.ting_hu_flush], np.float64))
    nets = np.array([o.net(config) for o in outcomes], np.float64)
    bonus_net = np.array(payout_by_mask(config), np.float64)
    trace = np.zeros((min(traced, n_hands), 3 + 2 * seats), np.int64)
    bad = _play_table(batch_seed, n_hands, seats, deck, pattern_base(geometry), geometry.suits, geometry.ranks,
                      deal, draw, pays, nets, (bonus_net, float(aware_bet)), out, sums, trace)
    if bad >= 0:
        raise RuntimeError(f"batch {index}: hand {bad} reached a state missing from the tables")
    return out, sums, trace


def simulate_table(config: GameConfig, tables: Path | str, seats: int, hands: int, seed: int = 1, n_jobs: int = 1,
                   progress: Callable[[int, int], None] | None = None, aware_bet: float = 1.0) -> TableResult:
    """Play ``hands`` hands at a table of ``seats`` seats with the strategy of the solve in ``tables``; the
    last seat is also played bonus-aware at step 12 with a bonus bet of ``aware_bet`` (> 0) T."""
    directory = Path(tables)
    check_seats(config, seats)
    summary = load_summary(directory, config)
    if summary.bonus_bet or summary.restriction != "optimal":
        raise InputError("simulate plays the optimal main-game strategy: give the tables of a solve "
                         "without --bonus or --restriction")
    if hands < 2:
        raise InputError(f"--hands must be at least 2, got {hands}")
    if not (math.isfinite(aware_bet) and aware_bet > 0):
        raise InputError(f"--bonus must be a positive, finite bet, got {aware_bet}")
    strategy = load_strategy(directory, config)
    sizes = [min(BATCH, hands - start) for start in range(0, hands, BATCH)]
    outcomes = _outcomes(config)
    total = np.zeros(len(outcomes), np.int64)
    sums = np.zeros(N_SUMS, np.float64)
    done = 0
    start = time.perf_counter()
    mark_parent()
    processes = work_processes(n_jobs, len(sizes))
    per_task = -(-len(sizes) // (4 * processes))
    tasks = [(first, sizes[first:first + per_task]) for first in range(0, len(sizes), per_task)]
    results = Parallel(n_jobs=processes, return_as="generator")(
        delayed(_table_batches)(seed, first, part, seats, config, strategy, aware_bet) for first, part in tasks)
    for (_, part), batches in zip(tasks, results):
        for n, (counts, batch_sums, _) in zip(part, batches):
            total += counts
            sums += batch_sums  # batch sums are exact; added in batch order whatever the jobs
            done += n
        if progress is not None:
            progress(done, hands)
    seconds = time.perf_counter() - start
    observed = {o: int(n) for o, n in zip(outcomes, total) if n}
    return TableResult(seats, hands, seed, observed, tuple(float(x) for x in sums), float(summary.ev_exact), seconds,
                       aware_bet)
