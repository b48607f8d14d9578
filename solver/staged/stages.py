"""Stages B, C and D of the solve, and the forward count of who reaches what: compiled loops over tables.

Each stage reads the one after it through canonical keys (:mod:`solver.game.symmetry_kernels`) and
binary search in that stage's sorted keys. Those lookups give, for stages B and C, *rows* (which row of
the next stage each hold or draw reads) that depend on the deck alone, so a paytable's variants read them
from the column store (:mod:`solver.staged.column_store`) and only gather the values:

* **B, the draw** (six cards after the first draw, two dead): the best of
  each fa-hu bet with each four-card hold, read from stage A (the hold and
  its four dead cards); claiming a di-hu and folding are added per DD;
* **C, the first hold** (four cards kept, two thrown): the mean over every
  two-card draw (jokers included, a joker drawn staying in hand) of stage
  B's value, for each DD;
* **D, the deal**: claiming the tian-hu, or each DD with each discard,
  read from stage C.

Options are listed in the evaluator's canonical order (:mod:`solver.evaluator.draw`,
:mod:`solver.evaluator.deal`): ties within 1e-12 go to less money at risk, then to
the first listed, so the tables' strategy is the evaluator's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.game.cards import DeckGeometry
from solver.game.hu import _hu_level
from solver.game.options import TIE_TOLERANCE
from solver.game.symmetry_kernels import _canonical_key_of_cards, pattern_powers
from solver.runtime.jit import kernel, unowned


@kernel(inline="always")
def _row_of(keys, key):
    """Row of ``key`` in the sorted ``keys``, or -1."""
    i = np.searchsorted(keys, key)
    return i if i < keys.shape[0] and keys[i] == key else -1


@kernel(inline="always")
def _sub_holds(hands, row, n_types, holds, discards, codes):
    """The distinct four-card holds of the sorted six-card hand ``hands[row]``, in lexicographic order, each
    with the two cards it throws; returns how many (at most 15). ``codes``: room for 15. Neither an array
    made per call nor a row's view (numba counts references to each, atomically, at every call)."""
    n = 0
    for i in range(6):
        for j in range(i + 1, 6):
            code = 0
            for c in range(6):
                if c != i and c != j:
                    code = code * n_types + hands[row, c]
            seen = False
            for k in range(n):
                if codes[k] == code:
                    seen = True
            if not seen:
                codes[n] = code
                n += 1
    codes[:n].sort()
    for k in range(n):
        code = codes[k]
        for c in range(3, -1, -1):
            holds[k, c] = code % n_types
            code //= n_types
        # the thrown cards: hand minus hold, as multisets (both sorted)
        a = 0
        t = 0
        for c in range(6):
            if a < 4 and holds[k, a] == hands[row, c]:
                a += 1
            else:
                discards[k, t] = hands[row, c]
                t += 1
    return n


@kernel(nogil=True)
def _draw_values(rows, n_holds, a_values, columns, out_play_on, out_best):
    """Stage B's values for post-draw states, from the stage-A row of each distinct hold (``rows[i, h]``,
    -1 where stage A has none: NaN) and ``n_holds[i]``: ``out_play_on[i]``, the best value of betting (F with
    a hold; T and F counted, DD not), read from ``a_values[:, columns[b]]`` for each bet b; ``out_best[i]``,
    the first bet option (in the order bet, then hold) within the tie tolerance of it."""
    values = np.empty((columns.shape[0], 15))
    for i in range(rows.shape[0]):
        n = n_holds[i]
        for h in range(n):
            row = rows[i, h]
            for b in range(columns.shape[0]):
                values[b, h] = a_values[row, columns[b]] if row >= 0 else np.nan
        top = -np.inf
        for b in range(columns.shape[0]):
            for h in range(n):
                top = max(top, values[b, h])
        best = -1
        for b in range(columns.shape[0]):
            for h in range(n):
                if best < 0 and values[b, h] >= top - TIE_TOLERANCE:
                    best = b * n + h
        out_play_on[i] = top
        out_best[i] = best


@kernel(inline="always")
def _draw_value(level, play_on, double_down, di_hu, di_hu_flush):
    """A post-draw state's value with DD placed: claim the di-hu, fold, or bet (``play_on``, DD not counted)."""
    value = max(-1.0, play_on) - double_down
    if level > 0:
        value = max(value, (1.0 + double_down) * (di_hu_flush if level == 2 else di_hu))
    return value


@kernel(inline="always")
def _draws_of(kept, thrown, full, unseen, weights, pairs):
    """Every two-card draw to a first hold ``kept`` (four cards; ``thrown``: two) that can happen, in the
    order (t1, t2), t1 <= t2: its types into ``pairs`` and its number of physical draws into ``weights``;
    returns how many draws, and leaves the unseen counts in ``unseen``."""
    n_types = full.shape[0]
    _unseen(kept, thrown, full, unseen)
    n = 0
    for t1 in range(n_types):
        for t2 in range(t1, n_types):
            weight = unseen[t1] * (unseen[t1] - 1) // 2 if t2 == t1 else unseen[t1] * unseen[t2]
            if weight > 0:
                weights[n] = weight
                pairs[n, 0] = t1
                pairs[n, 1] = t2
                n += 1
    return n


@kernel(nogil=True)
def _first_rows(holds, deads, full, b_keys, suits, ranks, powers, out_rows):
    """For each first hold (``holds[i]``: four cards, ``deads[i]``: the two thrown), stage B's row of the
    post-draw state each draw makes (:func:`_draws_of`'s order; -1 where stage B has none) into
    ``out_rows[i]``; the rest of the row is -1."""
    holds, deads, full, b_keys, powers, out_rows = unowned((holds, deads, full, b_keys, powers, out_rows))
    n_types = full.shape[0]
    keys = np.empty(n_types * (n_types + 1) // 2, np.int64)
    paths = np.empty_like(keys)
    work = draw_keys_work(n_types)
    out_rows[:] = -1
    for i in range(holds.shape[0]):
        n = _draw_keys(holds[i], deads[i], full, suits, ranks, powers, keys, paths, work)
        for k in range(n):
            out_rows[i, k] = _row_of(b_keys, keys[k])


@kernel(nogil=True)
def _first_values(holds, deads, full, rows, b_level, b_play_on, double_down, di_hu, di_hu_flush, out):
    """Stage C for each first hold (``holds[i]``, ``deads[i]``; ``rows[i]``: :func:`_first_rows`): the mean
    over every two-card draw (jokers included, a joker drawn staying in hand) of the post-draw state's
    value, ``out[i, 0]`` without double-down and ``out[i, 1]`` with it."""
    n_types = full.shape[0]
    unseen = np.empty(n_types, np.int64)
    weights = np.empty(n_types * (n_types + 1) // 2, np.int64)
    pairs = np.empty((weights.shape[0], 2), np.int64)
    for i in range(holds.shape[0]):
        n = _draws_of(holds[i], deads[i], full, unseen, weights, pairs)
        total0 = 0.0
        total1 = 0.0
        for k in range(n):
            row = rows[i, k]
            level = b_level[row] if row >= 0 else 0
            play_on = b_play_on[row] if row >= 0 else np.nan
            total0 += weights[k] * _draw_value(level, play_on, 0.0, di_hu, di_hu_flush)
            total1 += weights[k] * _draw_value(level, play_on, double_down, di_hu, di_hu_flush)
        n_unseen = unseen.sum()
        draws = n_unseen * (n_unseen - 1) / 2.0
        out[i, 0] = total0 / draws
        out[i, 1] = total1 / draws


@kernel(inline="always")
def draw_keys_work(n_types):
    """:func:`_draw_keys`' work arrays: the unseen counts, the draws' pairs of types, a post-draw hand and
    room for its key."""
    return (np.empty(n_types, np.int64), np.empty((n_types * (n_types + 1) // 2, 2), np.int64),
            np.empty(6, np.int64), np.empty(6, np.int64))


@kernel(nogil=True)
def _draw_keys(kept, thrown, full, suits, ranks, powers, keys, paths, work):
    """Every two-card draw to a first hold ``kept`` (four cards; ``thrown``: two), in :func:`_draws_of`'s
    order: the canonical key of the post-draw state it makes and its number of physical draws; returns how
    many draws. ``work``: :func:`draw_keys_work`; every array is the caller's, unowned here (numba counts
    references to the arrays each key's helpers are handed, atomically). Never inlined: a caller may hand
    it arrays it made itself, which stay alive only because this is a call of its own."""
    kept, thrown, full, powers, keys, paths = unowned((kept, thrown, full, powers, keys, paths))
    unseen, pairs, hand, scratch = unowned(work)
    n = _draws_of(kept, thrown, full, unseen, paths, pairs)
    hand[:4] = kept
    for k in range(n):
        hand[4] = pairs[k, 0]
        hand[5] = pairs[k, 1]
        keys[k] = _canonical_key_of_cards(hand, 6, thrown, 2, suits, ranks, powers, scratch)
    return n


@kernel(inline="always")
def _unseen(kept, thrown, full, unseen):
    """Fill ``unseen`` with the counts ``full`` less the cards ``kept`` and ``thrown``; return their sum."""
    unseen[:] = full
    for c in range(kept.shape[0]):
        unseen[kept[c]] -= 1
    for c in range(thrown.shape[0]):
        unseen[thrown[c]] -= 1
    return unseen.sum()


@kernel(nogil=True)
def _hold_keys(hands, deads, choice, suits, ranks, powers, out):
    """For post-draw states (``hands``, ``deads``) and the hold index ``choice[i]`` each plays (in the
    lexicographic order of its distinct holds), the canonical key of (hold, the four dead cards)."""
    n_types = suits * ranks + 1
    holds = np.empty((15, 4), np.int64)
    thrown = np.empty((15, 2), np.int64)
    codes = np.empty(15, np.int64)
    dead = np.empty(4, np.int64)
    scratch = np.empty(4, np.int64)
    for i in range(hands.shape[0]):
        _sub_holds(hands, i, n_types, holds, thrown, codes)
        h = choice[i]
        dead[:2] = thrown[h]
        dead[2:] = deads[i]
        out[i] = _canonical_key_of_cards(holds[h], 4, dead, 4, suits, ranks, powers, scratch)


@kernel(nogil=True)
def _thrown_by(hands, choice, n_types, out):
    """The two cards each post-draw hand throws to keep its ``choice[i]``-th distinct hold."""
    holds = np.empty((15, 4), np.int64)
    thrown = np.empty((15, 2), np.int64)
    codes = np.empty(15, np.int64)
    for i in range(hands.shape[0]):
        _sub_holds(hands, i, n_types, holds, thrown, codes)
        out[i, 0] = thrown[choice[i], 0]
        out[i, 1] = thrown[choice[i], 1]


@kernel(nogil=True)
def _state_holds(hands, deads, a_keys, suits, ranks, powers, out_holds, out_thrown, out_rows, out_level, out_n, work):
    """For each post-draw state: its distinct holds in lexicographic order, the cards each throws, the
    stage-A row of each (hold, four dead) class (-1 where stage A lacks it), its hu level, how many holds.
    The holds and the cards thrown are left out when ``out_holds`` has no rows (stage B needs neither).
    ``work``: :func:`_state_holds_work`; every array is the caller's, unowned here."""
    hands, deads, a_keys, powers, out_holds, out_thrown, out_rows, out_level, out_n = unowned(
        (hands, deads, a_keys, powers, out_holds, out_thrown, out_rows, out_level, out_n))
    first, dead, scratch, holds, thrown, codes, hold = unowned(work)
    n_types = suits * ranks + 1
    n_dead = 2 + deads.shape[1]
    for i in range(hands.shape[0]):
        n = _sub_holds(hands, i, n_types, holds, thrown, codes)
        out_n[i] = n
        first[:] = 0
        for c in range(6):
            first[hands[i, c]] += 1
        out_level[i] = _hu_level(first, suits, ranks)
        for c in range(n_dead - 2):  # element by element: a row's view is counted like any array
            dead[2 + c] = deads[i, c]
        for h in range(n):
            for c in range(4):
                hold[c] = holds[h, c]
                if out_holds.shape[0]:
                    out_holds[i, h, c] = holds[h, c]
            for c in range(2):
                dead[c] = thrown[h, c]
                if out_holds.shape[0]:
                    out_thrown[i, h, c] = thrown[h, c]
            out_rows[i, h] = _row_of(a_keys, _canonical_key_of_cards(hold, 4, dead, n_dead, suits, ranks, powers,
                                                                     scratch))


@dataclass(frozen=True)
class StateHolds:
    """Post-draw states' distinct holds (lexicographic, ``n_holds`` of each state's 15 rows used; the
    rest zero), the two cards each throws, each one's row in stage A's sorted keys (-1 where it has
    none, and in unused rows) and the hand's hu level."""

    holds: np.ndarray
    thrown: np.ndarray
    rows: np.ndarray
    level: np.ndarray
    n_holds: np.ndarray


def state_holds(hands: np.ndarray, deads: np.ndarray, a_keys: np.ndarray, geometry: DeckGeometry,
                cards: bool = True) -> StateHolds:
    """:class:`StateHolds` of post-draw states (``hands``: six sorted cards; ``deads``: the cards thrown
    before), their (hold, dead) classes looked up in stage A's sorted keys ``a_keys``. Without ``cards``,
    the holds and the cards thrown are left empty (no rows)."""
    n = len(hands)
    m = n if cards else 0
    out = StateHolds(np.zeros((m, 15, 4), np.int64), np.zeros((m, 15, 2), np.int64), np.full((n, 15), -1, np.int64),
                     np.empty(n, np.int8), np.empty(n, np.int64))
    _state_holds(np.ascontiguousarray(hands, np.int64), np.ascontiguousarray(deads, np.int64),
                 np.ascontiguousarray(a_keys, np.int64), geometry.suits, geometry.ranks, pattern_powers(geometry),
                 out.holds, out.thrown, out.rows, out.level, out.n_holds,
                 _state_holds_work(geometry, 2 + deads.shape[1]))
    return out


def _state_holds_work(geometry: DeckGeometry, n_dead: int) -> tuple[np.ndarray, ...]:
    """:func:`_state_holds`' work arrays: a hand's counts, the dead cards of a hold and room for its key, the
    distinct holds, the cards each throws, their codes, one hold."""
    return (np.zeros(geometry.n_types, np.int64), np.empty(n_dead, np.int64), np.empty(n_dead, np.int64),
            np.zeros((15, 4), np.int64), np.zeros((15, 2), np.int64), np.empty(15, np.int64), np.empty(4, np.int64))
