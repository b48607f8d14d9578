"""A Monte Carlo check of the solve: real shuffled decks, card by card, the solved strategy from the tables.

Independent of the evaluator's counting: the simulator shuffles physical
cards (a partial Fisher-Yates shuffle), deals the six cards, the draw and
the community (a joker dealt to the community is set aside and the next
card taken), decides each hu with its own brute-force test (every pair and
every set, jokers filling the gaps) and settles every bet. Deal and draw
decisions are looked up in the solve's tables (the hand is mapped onto its
canonical form and the decision mapped back); the ting decision, which the
tables do not store, is made from the simulator's own count of the winning
two-card completions among the unseen cards, with the EV rule of docs/rules.md
section 4. So a mistake in the evaluator's counting, in the tables or in
the outcome bookkeeping shows up as an analytic EV outside the interval.

Hands run in fixed batches, each with its own seed derived from the run's
seed, so the result does not depend on the number of jobs.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from math import sqrt
from pathlib import Path
from typing import Any

import numpy as np
from joblib import Parallel, delayed

from solver.errors import InputError
from solver.game.cards import parse_cards
from solver.game.config import GameConfig
from solver.game.outcomes import KINDS, Outcome
from solver.game.symmetry_kernels import _canonical_key, pattern_base
from solver.runtime.jit import kernel
from solver.runtime.parallel import mark_parent, watch_parent, work_processes
from solver.staged.run import load_summary
from solver.tables.files import read_table

BATCH = 20_000
Z99 = 2.5758293035489004  # two-sided 99% normal quantile

CLAIM, FOLD, BET, DISCARD = 0, 1, 2, 3
_ACTIONS = {"claim": CLAIM, "fold": FOLD, "bet": BET, "discard": DISCARD}


@dataclass(frozen=True)
class Strategy:
    """The deal and draw decisions of a solve, as sorted arrays a compiled loop can search."""

    deal_keys: np.ndarray  # canonical hand key, sorted
    deal_action: np.ndarray  # CLAIM or DISCARD
    deal_discard: np.ndarray  # (n, 2) canonical type indices thrown
    deal_dd: np.ndarray  # 0 or 1: doubled down
    draw_keys: np.ndarray  # canonical (hand, dead) key * 2 + doubled down, sorted
    draw_action: np.ndarray  # CLAIM, FOLD or BET
    draw_discard: np.ndarray  # (n, 2)
    draw_fa: np.ndarray  # index of F in the configuration's fa_hu_bets


def load_strategy(directory: Path, config: GameConfig) -> Strategy:
    """Read the decisions of a finished solve into arrays."""
    geometry = config.geometry

    def discards(column: Any) -> np.ndarray:
        texts, codes = _distinct(column)
        table = np.full((len(texts), 2), -1, dtype=np.int8)
        for i, text in enumerate(texts):
            if text:
                table[i] = parse_cards(text, geometry)
        return table[codes]

    def actions(column: Any) -> np.ndarray:
        texts, codes = _distinct(column)
        return np.array([_ACTIONS[a] for a in texts], dtype=np.int8)[codes]

    deals = read_table(directory / "deals.parquet", columns=["key", "best_action", "best_discard", "best_bet"])
    draws = read_table(directory / "draws.parquet",
                       columns=["key", "double_down", "best_action", "best_discard", "best_bet"])
    draw_keys = _numbers(draws["key"], np.int64) * 2 + (_numbers(draws["double_down"], np.float64) > 0)
    order = np.argsort(draw_keys, kind="stable")
    draw_action = actions(draws["best_action"])
    bets = _numbers(draws["best_bet"], np.float64)
    fa_index = np.full(len(bets), -1, dtype=np.int8)
    for i, bet in enumerate(config.fa_hu_bets):
        fa_index[(draw_action == BET) & (bets == bet)] = i
    return Strategy(
        deal_keys=_numbers(deals["key"], np.int64),
        deal_action=actions(deals["best_action"]),
        deal_discard=discards(deals["best_discard"]),
        deal_dd=(_numbers(deals["best_bet"], np.float64) > 0).astype(np.int64),
        draw_keys=draw_keys[order],
        draw_action=draw_action[order],
        draw_discard=discards(draws["best_discard"])[order],
        draw_fa=fa_index[order],
    )


def _distinct(column: Any) -> tuple[list, np.ndarray]:
    """A table column's distinct values and, per row, the index of its own: the few distinct texts of millions
    of rows are parsed once each (row by row, reading the real deck's draws took 25 s)."""
    import pyarrow.compute as pc

    encoded = pc.dictionary_encode(column, null_encoding="encode").combine_chunks()
    return encoded.dictionary.to_pylist(), encoded.indices.to_numpy(zero_copy_only=False)


def _numbers(column: Any, dtype: type) -> np.ndarray:
    """A numeric table column as an array (no nulls in a solve's tables)."""
    return np.asarray(column.to_numpy(), dtype=dtype)


# ---------------------------------------------------------------------------------------------
# The simulator's own hu test: every pair, every triplet and run, jokers filling what is missing.


@kernel(inline="always")
def _short(count, need):
    return need - count if need > count else 0


@kernel
def _level(counts, hand, hand_rule, suits, ranks):
    """0, 1 (hu) or 2 (flush hu) for the group ``counts`` (jokers last): some pair and some set
    (triplet or run) whose missing cards the jokers can fill. With ``hand_rule`` the hu must use a
    card of ``hand`` (step 14): a joker (every joker is a hand card then), or a card type the hand
    holds (its copy can stand in for an identical community card)."""
    n_suited = suits * ranks
    jokers = counts[n_suited]
    any_hand = hand[n_suited] > 0 or not hand_rule
    best = 0
    for p in range(n_suited):
        cp = counts[p]
        pair_short = _short(cp, 2)
        if pair_short > jokers:
            continue
        p_suit = p // ranks
        for t in range(n_suited):  # triplets
            if t == p:
                missing = _short(cp, 5)
            else:
                missing = pair_short + _short(counts[t], 3)
            if missing > jokers:
                continue
            if not (any_hand or missing > 0 or hand[p] > 0 or hand[t] > 0):
                continue
            level = 2 if t // ranks == p_suit else 1
            if level == 2:
                return 2
            best = 1
        for suit in range(suits):  # runs
            for start in range(suit * ranks, suit * ranks + ranks - 2):
                missing = 0
                touches = False
                for x in range(start, start + 3):
                    missing += _short(counts[x], 3 if x == p else 1)
                    if hand[x] > 0:
                        touches = True
                if p < start or p > start + 2:
                    missing += pair_short
                if missing > jokers:
                    continue
                if not (any_hand or missing > 0 or touches or hand[p] > 0):
                    continue
                if suit == p_suit:
                    return 2
                best = 1
    return best


@kernel(inline="always")
def _canonical(first, second, suits, ranks, base, image, back, scratch):
    """Key of the canonical form of the state (count vectors ``first``, ``second``); ``image`` receives
    the relabelling onto it and ``back`` its inverse."""
    key = _canonical_key(first, second, suits, ranks, base, image, scratch)
    for t in range(image.shape[0]):
        back[image[t]] = t
    return key


@kernel
def _find(keys, key):
    i = np.searchsorted(keys, key)
    if i < len(keys) and keys[i] == key:
        return i
    return -1


@kernel
def _next_card(deck, pos):
    """Partial Fisher-Yates step: a uniformly random card of ``deck[pos:]`` moves to ``pos``."""
    j = pos + np.random.randint(len(deck) - pos)
    deck[pos], deck[j] = deck[j], deck[pos]
    return deck[pos]


@kernel
def _outcome_index(kind, dd_index, f_choice, g_choice, n_fa, n_g):
    """Flat index of (kind, DD placed, F choice (0: none, i + 1: fa_bets[i]), G choice (likewise))."""
    return ((kind * 2 + dd_index) * (n_fa + 1) + f_choice) * (n_g + 1) + g_choice


@kernel(inline="always")
def _add_missing(missing, m, card, n):
    """Append ``n`` copies of ``card`` to the missing cards ``missing[:m]``; the new length (a pair and a
    set lack at most five cards, the room ``missing`` has)."""
    for _ in range(n):
        missing[m] = card
        m += 1
    return m


@kernel(inline="always")
def _mark(level, missing, m, jokers, everywhere, row_level, pair_level):
    """A pair and set that lack the ``m`` cards ``missing`` make a hu of ``level`` with a completion
    that brings all but ``jokers`` of them: every completion (``m <= jokers``), those holding one of
    them (one short), or those that are two of them (two short). Returns the new ``everywhere``."""
    need = m - jokers
    if need <= 0:
        return max(everywhere, level)
    if need == 1:
        for k in range(m):
            row_level[missing[k]] = max(row_level[missing[k]], level)
    else:
        for k1 in range(m):
            for k2 in range(k1 + 1, m):
                a, b = min(missing[k1], missing[k2]), max(missing[k1], missing[k2])
                pair_level[a, b] = max(pair_level[a, b], level)
    return everywhere


@kernel(inline="always")
def _set_short(counts, s, n_suited, ranks, runs_per_suit):
    """Cards set ``s`` (a triplet of type s below ``n_suited``, else a run) lacks in ``counts``."""
    if s < n_suited:
        return _short(counts[s], 3)
    start = (s - n_suited) // runs_per_suit * ranks + (s - n_suited) % runs_per_suit
    return _short(counts[start], 1) + _short(counts[start + 1], 1) + _short(counts[start + 2], 1)


@kernel(inline="always")
def _in_set(p, s, n_suited, ranks, runs_per_suit):
    """Whether card type ``p`` is one of set ``s``'s."""
    if s < n_suited:
        return p == s
    start = (s - n_suited) // runs_per_suit * ranks + (s - n_suited) % runs_per_suit
    return start <= p <= start + 2


@kernel(inline="always")
def _ting_counts(counts, hold, full, seen, suits, ranks, missing, set_short, row_level, pair_level):
    """Winning two-card completions (hu, flush hu) of hold + community ``counts``, and all of them,
    out of the unseen cards ``full - seen`` (:func:`_ting_marks` then :func:`_weigh_completions`)."""
    everywhere = _ting_marks(counts, hold, suits, ranks, missing, set_short, row_level, pair_level)
    return _weigh_completions(full, seen, suits * ranks, everywhere, row_level, pair_level)


@kernel(inline="always")
def _ting_marks(counts, hold, suits, ranks, missing, set_short, row_level, pair_level):
    """Mark the winning two-card completions of hold + community ``counts``: returns the level every
    completion reaches, and fills ``row_level`` and ``pair_level`` (the level reached with a given card,
    with a given two).

    The simulator's own count, straight from the rules and sharing no code with the solve: every
    pair p and set (triplet or run) that may use a hand card (a joker or a card type the hold has)
    lacks some cards of hold + community; jokers fill all but at most two, which the completion
    must bring. So one pass over the pair-and-set choices marks the completions that win (all,
    those holding a given card, or a given two cards) with the best level each reaches; the marks
    are then weighted by how many unseen pairs of cards each completion is."""
    n_suited = suits * ranks
    jokers = counts[n_suited]
    any_hand = hold[n_suited] > 0
    runs_per_suit = ranks - 2
    everywhere = 0
    row_level[:] = 0
    pair_level[:, :] = 0
    n_sets = n_suited + suits * runs_per_suit
    for s in range(n_sets):
        set_short[s] = _set_short(counts, s, n_suited, ranks, runs_per_suit)
    for p in range(n_suited):
        p_suit = p // ranks
        pair_short = _short(counts[p], 2)
        for s in range(n_sets):
            if pair_short + set_short[s] > jokers + 2 and not _in_set(p, s, n_suited, ranks, runs_per_suit):
                continue  # too short even with both completion cards (p outside the set: shorts add up)
            m = 0
            touches = hold[p] > 0
            if s < n_suited:  # a triplet of s (with s == p: five of one card)
                if s == p:
                    m = _add_missing(missing, m, p, _short(counts[p], 5))
                else:
                    m = _add_missing(missing, m, p, _short(counts[p], 2))
                    m = _add_missing(missing, m, s, _short(counts[s], 3))
                    touches = touches or hold[s] > 0
                flush = s // ranks == p_suit
            else:  # a run
                suit = (s - n_suited) // runs_per_suit
                start = suit * ranks + (s - n_suited) % runs_per_suit
                for x in range(start, start + 3):
                    m = _add_missing(missing, m, x, _short(counts[x], 3 if x == p else 1))
                    touches = touches or hold[x] > 0
                if p < start or p > start + 2:
                    m = _add_missing(missing, m, p, _short(counts[p], 2))
                flush = suit == p_suit
            if m - jokers > 2 or not (any_hand or touches):
                continue
            everywhere = _mark(2 if flush else 1, missing, m, jokers, everywhere, row_level, pair_level)
    return everywhere


@kernel(inline="always")
def _weigh_completions(full, seen, n_suited, everywhere, row_level, pair_level):
    """(hu, flush hu, all) two-card completions out of the unseen cards (``full - seen``), each at
    the best level marked for it: everywhere, by one of its cards, or by the two."""
    n_hu = 0
    n_flush = 0
    n_left = 0
    for t1 in range(n_suited):
        u1 = full[t1] - seen[t1]
        n_left += u1
        for t2 in range(t1, n_suited):
            u2 = full[t2] - seen[t2]
            w = u1 * (u1 - 1) // 2 if t2 == t1 else u1 * u2
            if w <= 0:
                continue
            level = max(everywhere, row_level[t1], row_level[t2], pair_level[t1, t2])
            if level == 1:
                n_hu += w
            elif level == 2:
                n_flush += w
    return n_hu, n_flush, n_left * (n_left - 1) // 2


@kernel(inline="always")
def _deal_community(deck, pos, n, counts, seen, n_suited):
    """Deal ``n`` community cards from ``deck[pos:]`` into ``counts`` and ``seen``: a joker is set aside
    and the next card taken. Returns the new position in the deck."""
    dealt = 0
    while dealt < n:
        c = _next_card(deck, pos)
        pos += 1
        if c != n_suited:
            counts[c] += 1
            seen[c] += 1
            dealt += 1
    return pos


@kernel(inline="always")
def _ting_decision(n_hu, n_flush, total, fa, multiples, ting_pays, evs):
    """The ting decision of docs/rules.md from the winning completions: 0 folds, k bets multiples[k - 1]
    (ties to less money at risk); ``evs`` receives each option's EV."""
    evs[0] = -1.0 - fa
    win = ting_pays[0] + fa * ting_pays[1]
    for k in range(multiples.shape[0]):
        g = multiples[k] * fa
        evs[k + 1] = (n_hu * (win + g * ting_pays[2]) + n_flush * (win + g * ting_pays[3])
                      - (total - n_hu - n_flush) * (1.0 + fa + g)) / total
    top = evs.max()
    g_choice = 0
    while evs[g_choice] < top - 1e-12:
        g_choice += 1
    return g_choice


@kernel(inline="always")
def _discard_and_draw(deck, pos, counts, dead_counts, dead, back, discard):
    """The first discard: throw the two cards ``discard`` names (canonical labels, mapped back through
    ``back``) into ``dead`` and ``dead_counts``, and draw two from ``deck`` at ``pos``; the new ``pos``."""
    dead_counts[:] = 0
    for k in range(2):
        dead[k] = back[discard[k]]
        counts[dead[k]] -= 1
        dead_counts[dead[k]] += 1
    for _k in range(2):
        counts[_next_card(deck, pos)] += 1
        pos += 1
    return pos


@kernel(inline="always")
def _keep(counts, seen, hold, dead, back, discard):
    """The second discard: ``hold`` the hand less the two cards ``discard`` names, ``seen`` every card out
    of the stub (the hand and the first two discards), and ``counts`` the hold, to which the community
    is dealt."""
    seen[:] = counts
    for k in range(2):
        seen[dead[k]] += 1
    hold[:] = counts
    for k in range(2):
        hold[back[discard[k]]] -= 1
    counts[:] = hold


@kernel
def _play(seed, n_hands, deck, base, suits, ranks, deal, draw, pays, out):
    """Play ``n_hands`` hands; ``out[outcome index]`` counts how each ended. Returns -1, or the
    number of a hand whose state the tables lack (which would be a bug).

    ``deal``: (keys, action, discard, double down) and ``draw``: (keys, action, discard, F index),
    the :class:`Strategy`'s arrays; ``pays``: (fa_bets, ting multiples, ting payouts)."""
    np.random.seed(seed)
    deck = deck.copy()
    cards, keying, ting = _workspace(deck, suits, ranks, len(pays[1]))
    for h in range(n_hands):
        index = _play_hand(deck, base, suits, ranks, deal, draw, pays, cards, keying, ting)
        if index < 0:
            return h
        out[index] += 1
    return -1


@kernel(inline="always")
def _workspace(deck, suits, ranks, n_g):
    """The arrays one hand works in, made once per batch: its cards (the deck's full counts, the hand,
    the hold, the cards seen, none, the first discards' counts and types), the canonical keying's
    scratch, and the ting count's (each option's EV, the missing cards, the sets' shortfalls, the
    completion levels)."""
    n_suited = suits * ranks
    n_types = n_suited + 1
    full = np.zeros(n_types, np.int64)
    for c in deck:
        full[c] += 1
    cards = (full, np.zeros(n_types, np.int64), np.zeros(n_types, np.int64), np.zeros(n_types, np.int64),
             np.zeros(n_types, np.int64), np.zeros(n_types, np.int64), np.empty(2, np.int64))
    keying = (np.empty(n_types, np.int64), np.empty(n_types, np.int64), np.empty(n_types, np.int64))
    ting = (np.empty(n_g + 1), np.empty(5, np.int64),  # a pair and a set lack at most five cards
            np.zeros(n_suited + suits * (ranks - 2), np.int64), np.zeros(n_suited, np.int64),
            np.zeros((n_suited, n_suited), np.int64))
    return cards, keying, ting


@kernel(inline="always")
def _play_hand(deck, base, suits, ranks, deal, draw, pays, cards, keying, ting):
    """Deal and play one hand to the fa-hu decision; the outcome's index, or -1 for a state the
    tables lack."""
    deal_keys, deal_action, deal_discard, deal_dd = deal
    draw_keys, draw_action, draw_discard, draw_fa = draw
    n_fa = len(pays[0])
    n_g = len(pays[1])
    _, counts, hold, seen, none, dead_counts, dead = cards
    image, back, scratch = keying
    counts[:] = 0
    for i in range(6):
        counts[_next_card(deck, i)] += 1
    key = _canonical(counts, none, suits, ranks, base, image, back, scratch)
    row = _find(deal_keys, key)
    if row < 0:
        return -1
    if deal_action[row] == CLAIM:
        kind = 1 if _level(counts, none, False, suits, ranks) == 2 else 0  # tian_hu(_flush)
        return _outcome_index(kind, 0, 0, 0, n_fa, n_g)
    dd = deal_dd[row]
    pos = _discard_and_draw(deck, 6, counts, dead_counts, dead, back, deal_discard[row])
    key = _canonical(counts, dead_counts, suits, ranks, base, image, back, scratch)
    row = _find(draw_keys, key * 2 + dd)
    if row < 0:
        return -1
    action = draw_action[row]
    if action == CLAIM:
        kind = 3 if _level(counts, none, False, suits, ranks) == 2 else 2  # di_hu(_flush)
        return _outcome_index(kind, dd, 0, 0, n_fa, n_g)
    if action == FOLD:
        return _outcome_index(4, dd, 0, 0, n_fa, n_g)
    _keep(counts, seen, hold, dead, back, draw_discard[row])
    return _play_community(deck, pos, suits, ranks, dd, draw_fa[row] + 1, pays, cards, ting)


@kernel(inline="always")
def _play_community(deck, pos, suits, ranks, dd, f_choice, pays, cards, ting):
    """Steps 9-13 after a fa-hu bet of ``fa_bets[f_choice - 1]`` on the hold: four community cards,
    the ting decision, two more; the outcome's index."""
    fa_bets, multiples, ting_pays = pays
    n_fa = len(fa_bets)
    n_g = len(multiples)
    full, counts, hold, seen, none, _, _ = cards
    evs, missing, set_short, row_level, pair_level = ting
    n_suited = suits * ranks
    pos = _deal_community(deck, pos, 4, counts, seen, n_suited)
    level = _level(counts, none, False, suits, ranks)
    if level > 0:
        return _outcome_index(6 if level == 2 else 5, dd, f_choice, 0, n_fa, n_g)
    n_hu, n_flush, total = _ting_counts(counts, hold, full, seen, suits, ranks, missing, set_short,
                                        row_level, pair_level)
    g_choice = _ting_decision(n_hu, n_flush, total, fa_bets[f_choice - 1], multiples, ting_pays, evs)
    if g_choice == 0:
        return _outcome_index(7, dd, f_choice, 0, n_fa, n_g)
    pos = _deal_community(deck, pos, 2, counts, seen, n_suited)
    level = _level(counts, hold, True, suits, ranks)
    kind = 9 if level == 2 else (8 if level == 1 else 10)
    return _outcome_index(kind, dd, f_choice, g_choice, n_fa, n_g)


def _outcomes(config: GameConfig) -> list[Outcome]:
    """Every outcome in the flat order of ``_outcome_index``."""
    fa = [0.0] + list(config.fa_hu_bets)
    out = []
    for kind in KINDS:
        for dd in (0.0, config.double_down):
            for f in fa:
                for g in [0.0] + list(config.ting_hu_multiples):
                    out.append(Outcome(kind, dd, f, g * f))
    return out


@dataclass(frozen=True)
class Simulation:
    """Result of a simulation: observed outcomes, the mean with its error, and the analytic EV."""

    hands: int
    seed: int
    counts: dict[Outcome, int]
    mean: float
    std_error: float
    analytic_ev: float
    analytic: dict[Outcome, float]
    seconds: float

    @property
    def interval(self) -> tuple[float, float]:
        """99% confidence interval of the mean."""
        return self.mean - Z99 * self.std_error, self.mean + Z99 * self.std_error

    @property
    def agrees(self) -> bool:
        """Whether the exact EV lies inside the 99% confidence interval."""
        low, high = self.interval
        return low <= self.analytic_ev <= high

    def to_json(self) -> dict[str, Any]:
        """The result as plain data for ``--json``."""
        low, high = self.interval
        return {
            "hands": self.hands, "seed": self.seed, "mean": self.mean, "std_error": self.std_error,
            "ci99": [low, high], "analytic_ev": self.analytic_ev, "analytic_ev_inside": self.agrees,
            "hands_per_second": self.hands / self.seconds if self.seconds else None, "seconds": self.seconds,
            "outcomes": [{"outcome": o.label(), "count": self.counts.get(o, 0),
                          "frequency": self.counts.get(o, 0) / self.hands, "probability": self.analytic.get(o, 0.0)}
                         for o in self.outcomes()],
        }

    def outcomes(self) -> list[Outcome]:
        """Every outcome seen or of positive exact probability (one not seen in the hands played still counts
        against the solve), the most often seen first, then the likeliest."""
        possible = set(self.counts) | {o for o, p in self.analytic.items() if p > 0}
        return sorted(possible, key=lambda o: (-self.counts.get(o, 0), -self.analytic.get(o, 0.0), o.label()))


def _batch(seed: int, index: int, n_hands: int, config: GameConfig, strategy: Strategy) -> np.ndarray:
    watch_parent()
    geometry = config.geometry
    deck = np.repeat(np.arange(geometry.n_types), geometry.full_counts())
    out = np.zeros(len(_outcomes(config)), np.int64)
    batch_seed = int(np.random.SeedSequence([seed, index]).generate_state(1)[0] % (2**31 - 1))
    deal = (strategy.deal_keys, strategy.deal_action, strategy.deal_discard, strategy.deal_dd)
    draw = (strategy.draw_keys, strategy.draw_action, strategy.draw_discard, strategy.draw_fa)
    pays = (np.array(config.fa_hu_bets, np.float64), np.array(config.ting_hu_multiples, np.float64),
            np.array([config.ting_hu_ante, config.ting_hu_fa, config.ting_hu, config.ting_hu_flush], np.float64))
    bad = _play(batch_seed, n_hands, deck, pattern_base(geometry), geometry.suits, geometry.ranks, deal, draw, pays,
                out)
    if bad >= 0:
        raise RuntimeError(f"batch {index}: hand {bad} reached a state missing from the tables")
    return out


def simulate(config: GameConfig, tables: Path | str, hands: int, seed: int = 1, n_jobs: int = 1,
             progress: Callable[[int, int], None] | None = None) -> Simulation:
    """Play ``hands`` hands with the strategy of the solve in ``tables``; compare with its exact EV."""
    directory = Path(tables)
    summary = load_summary(directory, config)
    if summary.bonus_bet or summary.restriction != "optimal":
        raise InputError("simulate plays the optimal main-game strategy: give the tables of a solve "
                         "without --bonus or --restriction")
    if hands < 2:  # one hand has no standard error, so no interval to check the exact EV against
        raise InputError(f"--hands must be at least 2, got {hands}")
    if not 0 <= seed < 2**63:
        raise InputError(f"--seed must be a whole number from 0 to 2^63 - 1, got {seed}")
    strategy = load_strategy(directory, config)
    sizes = [min(BATCH, hands - start) for start in range(0, hands, BATCH)]
    start = time.perf_counter()
    total = np.zeros(len(_outcomes(config)), np.int64)
    done = 0
    mark_parent()
    results = Parallel(n_jobs=work_processes(n_jobs, len(sizes)), return_as="generator")(
        delayed(_batch)(seed, i, n, config, strategy) for i, n in enumerate(sizes))
    for n, counts in zip(sizes, results):
        total += counts  # integer counts: the order of batches cannot change them
        done += n
        if progress is not None:
            progress(done, hands)
    seconds = time.perf_counter() - start
    outcomes = _outcomes(config)
    observed = {o: int(n) for o, n in zip(outcomes, total) if n}
    nets = np.array([o.net(config) for o in outcomes])
    mean = float((total * nets).sum() / hands)
    variance = float((total * nets**2).sum() / hands) - mean**2
    std_error = sqrt(max(variance, 0.0) * hands / max(hands - 1, 1) / hands)
    analytic = {r.outcome: float(r.probability) for r in summary.outcomes}
    return Simulation(hands, seed, observed, mean, std_error, float(summary.ev_exact), analytic, seconds)
