"""The bonus bet (docs/rules.md, "The bonus bet"): payout of six community cards and its exact return table.

The six community cards are never jokers. Each 6-card multiset of suited
cards is classified into a bit mask of the categories that apply; a
configuration turns a mask into a payout (``payout_by_mask``), so the hot
loops of later stages price a community with one table lookup.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from math import comb

import numpy as np

from solver.errors import InputError
from solver.game.cards import DeckGeometry
from solver.game.combinatorics import multisets
from solver.game.community import community_index
from solver.game.config import GameConfig
from solver.game.hu import _hu_level
from solver.runtime.jit import kernel

STRAIGHT_FLUSH = 1
THREE_PAIRS = 2
TWO_TRIPLETS = 4
ONE_TRIPLET = 8
HU = 16
FLUSH = 32
N_MASKS = 64

#: The ranked categories: only the highest-paying one that applies is paid.
RANKED = (
    (STRAIGHT_FLUSH, "straight flush", "bonus_straight_flush"),
    (THREE_PAIRS, "three pairs", "bonus_three_pairs"),
    (TWO_TRIPLETS, "two triplets", "bonus_two_triplets"),
    (ONE_TRIPLET, "one triplet", "bonus_one_triplet"),
)
#: Paid on top of the ranked category and of each other (when stacking is on).
ADDED = ((HU, "hu", "bonus_hu"), (FLUSH, "flush", "bonus_flush"))

NO_COMBINATION = "no combination (bet lost)"


@kernel
def _bonus_mask(counts, suits, ranks):
    """Bit mask of the bonus categories that six community cards (no jokers) meet."""
    mask = 0
    all_even = True
    all_triples = True
    top = 0
    for t in range(suits * ranks):
        c = counts[t]
        if c % 2 != 0:
            all_even = False
        if c % 3 != 0:
            all_triples = False
        top = max(top, c)
    if all_even:
        mask |= THREE_PAIRS
    if all_triples:
        mask |= TWO_TRIPLETS
    if top >= 3:
        mask |= ONE_TRIPLET
    for s in range(suits):
        in_suit = 0
        for r in range(ranks):
            in_suit += counts[s * ranks + r]
        if in_suit == 6:
            mask |= FLUSH
            for a in range(ranks - 5):
                run = True
                for r in range(a, a + 6):
                    if counts[s * ranks + r] != 1:
                        run = False
                if run:
                    mask |= STRAIGHT_FLUSH
    if _hu_level(counts, suits, ranks) > 0:
        mask |= HU
    return mask


@kernel
def _bonus_masks(counts_rows, suits, ranks, out):
    for i in range(counts_rows.shape[0]):
        out[i] = _bonus_mask(counts_rows[i], suits, ranks)


def paid_parts(mask: int, config: GameConfig) -> tuple[list[str], float]:
    """Names of the categories paid for a mask and the total payout to 1 (no names: bet lost).

    Of the ranked categories only the highest-paying is paid (several tied
    at that payout are named together, e.g. six identical cards with two
    decks); hu and flush are added, except the flush of a straight flush
    unless ``straight_flush_adds_flush``. Without stacking, only the single
    highest-paying category is paid.
    """
    ranked = [(getattr(config, key), name) for bit, name, key in RANKED if mask & bit]
    added = [(getattr(config, key), name) for bit, name, key in ADDED if mask & bit]
    if mask & STRAIGHT_FLUSH and not config.straight_flush_adds_flush:
        added = [(pay, name) for pay, name in added if name != "flush"]
    if not config.bonus_hu_flush_add:
        ranked, added = ranked + added, []
    names: list[str] = []
    total = 0.0
    if ranked:
        total = max(pay for pay, _ in ranked)
        names.append(" / ".join(name for pay, name in ranked if pay == total))
    for pay, name in added:
        names.append(name)
        total += pay
    return names, total


@lru_cache(maxsize=16)
def payout_by_mask(config: GameConfig) -> np.ndarray:
    """Net result of a unit bonus bet for each category mask: the payout, or -1 when nothing is paid.

    Cached per configuration and read-only."""
    table = np.empty(N_MASKS, dtype=np.float64)
    for mask in range(N_MASKS):
        names, total = paid_parts(mask, config)
        table[mask] = total if names else -1.0
    table.flags.writeable = False
    return table


def bonus_mask(counts: np.ndarray, geometry: DeckGeometry) -> int:
    """Category mask of six community cards given as a count vector (no jokers)."""
    return int(_bonus_mask(np.ascontiguousarray(counts, dtype=np.int64), geometry.suits, geometry.ranks))


def bonus_payout(counts: np.ndarray, config: GameConfig) -> float:
    """Net result of a unit bonus bet on six community cards: the payout to 1, or -1."""
    return float(payout_by_mask(config)[bonus_mask(counts, config.geometry)])


@dataclass(frozen=True)
class BonusRow:
    """One line of the return table: a paid combination and how often it occurs."""

    combination: str
    pays: float
    combinations: int
    probability: float
    contribution: float


@dataclass(frozen=True)
class BonusTable:
    """The exact return table of a bonus bet settled on six random community cards."""

    total_combinations: int
    rows: list[BonusRow]

    @property
    def ev(self) -> float:
        """Expected net result of a unit bonus bet so settled."""
        return sum(row.contribution for row in self.rows)

    @property
    def house_edge(self) -> float:
        """Player's expected loss per unit bet so settled (positive when the house wins)."""
        return -self.ev


def community_mask_counts(geometry: DeckGeometry) -> np.ndarray:
    """Number of six-card communities (out of C(suited cards, 6)) for each category mask."""
    avail = geometry.full_counts()
    avail[geometry.joker] = 0
    rows, weights = multisets(avail, 6)
    masks = np.empty(len(rows), dtype=np.int64)
    _bonus_masks(rows.astype(np.int64), geometry.suits, geometry.ranks, masks)
    by_mask = np.zeros(N_MASKS, dtype=np.int64)
    np.add.at(by_mask, masks, weights)
    return by_mask


def bonus_table(config: GameConfig) -> BonusTable:
    """Exact return table of a unit bonus bet settled on six random community cards: every paid combination
    with its count."""
    geometry = config.geometry
    total = comb(geometry.n_suited * geometry.copies_in_play, 6)
    by_mask = community_mask_counts(geometry)
    assert int(by_mask.sum()) == total
    grouped: dict[str, tuple[float, int]] = {}
    for mask in range(N_MASKS):
        if by_mask[mask] == 0:
            continue
        names, pays = paid_parts(mask, config)
        label = " + ".join(names) if names else NO_COMBINATION
        net = pays if names else -1.0
        old = grouped.get(label, (net, 0))
        grouped[label] = (net, old[1] + int(by_mask[mask]))
    rows = [
        BonusRow(label, net, n, n / total, net * n / total)
        for label, (net, n) in sorted(grouped.items(), key=lambda kv: (-kv[1][0], -kv[1][1], kv[0]))
    ]
    return BonusTable(total, rows)


@kernel
def _sorted_rows_masks(rows, n_types, suits, ranks, out):
    counts = np.zeros(n_types, np.int64)
    for i in range(rows.shape[0]):
        for c in range(rows.shape[1]):
            counts[rows[i, c]] += 1
        out[i] = _bonus_mask(counts, suits, ranks)
        counts[:] = 0


@lru_cache(maxsize=4)
def community_bonus_net(config: GameConfig) -> np.ndarray:
    """Net result of a unit bonus bet for every six-card community multiset
    (rows of :func:`solver.game.community.community_index`'s ``m6_types``)."""
    geometry = config.geometry
    rows = community_index(geometry).m6_types
    masks = np.empty(len(rows), np.int64)
    _sorted_rows_masks(rows, geometry.n_types, geometry.suits, geometry.ranks, masks)
    net = payout_by_mask(config)[masks]
    net.flags.writeable = False  # cached and shared
    return net


PAYOUT_KEYS = tuple(key for _, _, key in RANKED + ADDED)
"""The bonus payouts a paytable can change, best paid first."""
SCALE_ALL = "all"
"""The change that multiplies every bonus payout by one factor."""


@lru_cache(maxsize=8)
def _mask_counts(geometry: DeckGeometry) -> tuple[int, ...]:
    return tuple(int(n) for n in community_mask_counts(geometry))


def _payouts(config: GameConfig, key: str, value: float) -> GameConfig:
    """``config`` with one bonus payout set to ``value``, or (``SCALE_ALL``) every one multiplied by it."""
    if key == SCALE_ALL:
        return replace(config, **{k: getattr(config, k) * value for k in PAYOUT_KEYS})
    return replace(config, **{key: value})


@lru_cache(maxsize=4 * N_MASKS)
def _mask_parts(mask: int, stacking: bool, straight_adds_flush: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The payout keys a mask is paid from: the ranked ones (the highest is paid) and the added ones
    (the same rules as :func:`paid_parts`, by key rather than by value)."""
    ranked = tuple(key for bit, _, key in RANKED if mask & bit)
    added = tuple(key for bit, name, key in ADDED if mask & bit
                  and not (name == "flush" and mask & STRAIGHT_FLUSH and not straight_adds_flush))
    return (ranked, added) if stacking else (ranked + added, ())


def random_settled_house_edge(config: GameConfig) -> float:
    """House edge of a unit bonus bet settled on six random community cards under ``config``'s bonus payouts."""
    counts = _mask_counts(config.geometry)
    pays = {key: getattr(config, key) for key in PAYOUT_KEYS}
    net = 0
    for mask, n in enumerate(counts):
        if n:
            ranked, added = _mask_parts(mask, config.bonus_hu_flush_add, config.straight_flush_adds_flush)
            paid = (max(pays[k] for k in ranked) if ranked else 0.0) + sum(pays[k] for k in added)
            net += n * (paid if ranked or added else -1.0)
    return -net / sum(counts)


@dataclass(frozen=True)
class PaytableChange:
    """A single change of the bonus paytable that makes the house edge of a bet settled on six random cards
    meet a target."""

    key: str
    """The payout changed (a configuration key), or ``all``: every payout multiplied by one factor."""
    current: float
    """Its value now (for ``all``: the factor 1)."""
    target: float
    exact: float | None
    """The value (payout to 1, or factor) giving the target house edge exactly, to 1e-9; None when no
    value does (``note`` says why)."""
    whole: float | None
    """The largest whole payout (or factor in hundredths) whose house edge is at least the target."""
    whole_edge: float | None
    note: str = ""


def payout_for_edge(config: GameConfig, key: str, target: float) -> PaytableChange:
    """The value of one bonus payout (or the factor on all of them) that makes the settled bet's house
    edge ``target``: the edge falls as any payout rises (a ranked category pays the highest that
    applies, so the edge is continuous and piecewise linear in it), found by bisection; none (a note
    instead) when paying nothing leaves the edge below the target."""
    def edge(value: float) -> float:
        return random_settled_house_edge(_payouts(config, key, value))

    if not -1.0 < target < 1.0:
        raise InputError(f"a house edge target must lie between -1 and 1, got {target:g}")
    current = 1.0 if key == SCALE_ALL else getattr(config, key)
    low, high = 0.0, max(1.0, current)
    if edge(low) < target:
        return PaytableChange(key, current, target, None, None, None,
                              f"unreachable: paying nothing leaves the house edge at {edge(low):.4%}")
    while edge(high) > target:
        if edge(high) == edge(low) or high > 1e15:  # the payout moves nothing (no six cards make it here)
            return PaytableChange(key, current, target, None, None, None,
                                  f"unreachable: no payout moves the house edge from {edge(low):.4%}")
        high *= 2.0
    while high - low > 1e-9:
        middle = (low + high) / 2.0
        low, high = (middle, high) if edge(middle) > target else (low, middle)
    step = 0.01 if key == SCALE_ALL else 1.0
    whole = round(low // step * step, 2)
    while edge(round(whole + step, 2)) >= target:
        whole = round(whole + step, 2)
    while whole > 0 and edge(whole) < target:
        whole = round(whole - step, 2)
    return PaytableChange(key, current, target, (low + high) / 2.0, whole, edge(whole) + 0.0)  # + 0.0: never -0.0


def paytable_changes(config: GameConfig, targets: tuple[float, ...]) -> list[PaytableChange]:
    """For each bonus payout, and for all of them scaled together, the change that meets each target (each
    target once, in the order given)."""
    targets = tuple(dict.fromkeys(targets))
    return [payout_for_edge(config, key, target) for key in (*PAYOUT_KEYS, SCALE_ALL) for target in targets]
