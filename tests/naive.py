"""Obviously-correct reference implementations, slow on purpose: no shared code with solver kernels."""

from __future__ import annotations

from functools import cache
from itertools import combinations, product

from solver.game.cards import DeckGeometry


def _is_set(cards: tuple[int, ...], geometry: DeckGeometry) -> bool:
    a, b, c = sorted(cards)
    if a == b == c:
        return True
    same_suit = geometry.suit_of(a) == geometry.suit_of(b) == geometry.suit_of(c)
    return same_suit and b == a + 1 and c == b + 1


def _five_level(cards: tuple[int, ...], geometry: DeckGeometry) -> int:
    """0/1/2 for five suited cards: no hu / hu / flush hu, trying every pair."""
    for i, j in combinations(range(5), 2):
        if cards[i] != cards[j]:
            continue
        rest = tuple(cards[k] for k in range(5) if k not in (i, j))
        if _is_set(rest, geometry):
            suits = {geometry.suit_of(c) for c in cards}
            return 2 if len(suits) == 1 else 1
    return 0


@cache
def naive_five(cards: tuple[int, ...], geometry: DeckGeometry) -> int:
    """Best level of five cards, each joker replaced by every suited card in turn."""
    suited = tuple(c for c in cards if c != geometry.joker)
    n_jokers = len(cards) - len(suited)
    best = 0
    for fill in product(range(geometry.n_suited), repeat=n_jokers):
        best = max(best, _five_level(suited + fill, geometry))
        if best == 2:
            break
    return best


def naive_suit_needs(counts: list[int]) -> tuple[int, int, int]:
    """Jokers one suit (its counts by rank) lacks for a pair, a set, and a pair plus a set:
    the smallest shortfall over every pair, every set and every pair with every set."""
    ranks = len(counts)
    pairs = [{p: 2} for p in range(ranks)]
    sets = [{t: 3} for t in range(ranks)] + [{a: 1, a + 1: 1, a + 2: 1} for a in range(ranks - 2)]

    def shortfall(*groups: dict[int, int]) -> int:
        wanted: dict[int, int] = {}
        for group in groups:
            for rank, n in group.items():
                wanted[rank] = wanted.get(rank, 0) + n
        return sum(max(0, n - counts[rank]) for rank, n in wanted.items())

    return (min(shortfall(p) for p in pairs), min(shortfall(s) for s in sets),
            min(shortfall(p, s) for p in pairs for s in sets))


def naive_level(cards: list[int], geometry: DeckGeometry, hand_size: int = 0) -> int:
    """Best level over every 5-card subset; with ``hand_size``, the first that many
    cards are the hand and a subset counts only if it holds one of them (a subset
    holding a card of a type the hand has can always take the hand's copy)."""
    hand = set(cards[:hand_size])
    best = 0
    for subset in set(combinations(sorted(cards), 5)):
        if hand_size and not hand.intersection(subset):
            continue
        best = max(best, naive_five(subset, geometry))
        if best == 2:
            break
    return best


def naive_bonus_net(cards: list[int], config) -> float:
    """Net result of a unit bonus bet on six community cards, straight from docs/rules.md, "The bonus bet"."""
    return _naive_bonus_net(tuple(sorted(cards)), config)


@cache
def _naive_bonus_net(cards: tuple[int, ...], config) -> float:
    g = config.geometry
    suits = {g.suit_of(c) for c in cards}
    ranks = sorted(g.rank_of(c) for c in cards)
    straight_flush = len(suits) == 1 and ranks == list(range(ranks[0], ranks[0] + 6))

    def splits_into(size: int) -> bool:
        def rec(rest: tuple[int, ...]) -> bool:
            if not rest:
                return True
            first = rest[0]
            for others in combinations(range(1, len(rest)), size - 1):
                if all(rest[i] == first for i in others):
                    left = tuple(rest[i] for i in range(1, len(rest)) if i not in others)
                    if rec(left):
                        return True
            return False
        return rec(tuple(sorted(cards)))

    ranked = []
    if straight_flush:
        ranked.append(config.bonus_straight_flush)
    if splits_into(2):
        ranked.append(config.bonus_three_pairs)
    if splits_into(3):
        ranked.append(config.bonus_two_triplets)
    if any(cards.count(c) >= 3 for c in cards):
        ranked.append(config.bonus_one_triplet)
    added = []
    if naive_level(list(cards), g) > 0:
        added.append(config.bonus_hu)
    if len(suits) == 1 and not (straight_flush and not config.straight_flush_adds_flush):
        added.append(config.bonus_flush)
    if not ranked and not added:
        return -1.0
    if not config.bonus_hu_flush_add:
        return max(ranked + added)
    return (max(ranked) if ranked else 0.0) + sum(added)
