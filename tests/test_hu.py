"""The hu kernels against the naive enumeration of every 5-card subset and joker substitution."""

from itertools import product

import numpy as np
import pytest

from solver.game.cards import DeckGeometry, counts_of, parse_cards
from solver.game.combinatorics import multisets
from solver.game.config import GameConfig
from solver.game.hu import HuLevel, _suit_needs, hu_level, hu_level_with_hand, hu_levels
from tests.naive import naive_level, naive_suit_needs

G = GameConfig().geometry
TWO_JOKERS = GameConfig(decks=2).geometry


def level(text: str, geometry: DeckGeometry = G) -> HuLevel:
    return hu_level(counts_of(parse_cards(text, geometry), geometry), geometry)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("11m 123p", HuLevel.HU),
        ("11m 111p", HuLevel.HU),
        ("11123m", HuLevel.FLUSH),
        ("789s 99s", HuLevel.FLUSH),
        ("891s 11s", HuLevel.NONE),  # runs do not wrap
        ("11m 124p", HuLevel.NONE),
        ("12m 35p J", HuLevel.NONE),
        ("1m 123p J", HuLevel.HU),  # joker completes the pair
        ("1m 13p 5p J", HuLevel.NONE),
        ("11m 13p J", HuLevel.HU),  # joker fills the run's gap
        ("13m 5m J J", HuLevel.FLUSH, ),
    ],
)
def test_known_hands(text: str, expected: HuLevel) -> None:
    geometry = TWO_JOKERS if text.count("J") > 1 else G
    assert level(text, geometry) == expected


def test_five_identical_cards_form_a_hu_with_two_decks() -> None:
    assert level("55555p", TWO_JOKERS) == HuLevel.FLUSH


@pytest.mark.parametrize("geometry", [G, pytest.param(TWO_JOKERS, marks=pytest.mark.slow)], ids=["1deck", "2decks"])
def test_every_five_card_multiset(geometry: DeckGeometry) -> None:
    rows, _ = multisets(geometry.full_counts(), 5)
    fast = hu_levels(rows, geometry)
    for row, got in zip(rows, fast):
        cards = [int(t) for t in np.repeat(np.arange(geometry.n_types), row)]
        assert got == naive_level(cards, geometry), cards


def _random_groups(geometry: DeckGeometry, size: int, n: int, seed: int, jokers: int | None):
    rng = np.random.default_rng(seed)
    deck = np.repeat(np.arange(geometry.n_types), geometry.full_counts())
    suited = deck[deck != geometry.joker]
    for _ in range(n):
        if jokers is None:
            yield [int(c) for c in rng.choice(deck, size, replace=False)]
        else:
            yield [int(c) for c in rng.choice(suited, size - jokers, replace=False)] + [geometry.joker] * jokers


@pytest.mark.parametrize("size", [6, 8, 10])
@pytest.mark.parametrize("jokers", [0, 1, None], ids=["no-joker", "one-joker", "any"])
def test_random_groups(size: int, jokers: int | None) -> None:
    for cards in _random_groups(G, size, 600, seed=size * 10 + (jokers or 7), jokers=jokers):
        assert hu_level(counts_of(cards, G), G) == naive_level(cards, G), cards


@pytest.mark.parametrize("jokers", [0, 1, None], ids=["no-joker", "one-joker", "any"])
def test_random_ten_cards_with_a_hand_card(jokers: int | None) -> None:
    """Step 14: four hand cards (jokers only there) and six community cards, a hu must use a hand card."""
    rng = np.random.default_rng(99 + (jokers or 5))
    for cards in _random_groups(G, 10, 800, seed=int(rng.integers(1 << 30)), jokers=jokers):
        hand = sorted(cards, key=lambda c: c != G.joker)[:4]  # jokers first: they stay in hand
        community = list(cards)
        for c in hand:
            community.remove(c)
        got = hu_level_with_hand(counts_of(hand, G), counts_of(community, G), G)
        assert got == naive_level(hand + community, G, hand_size=4), (hand, community)


def test_community_alone_does_not_count() -> None:
    hand = counts_of(parse_cards("19m 19p", G), G)
    community = counts_of(parse_cards("11123s 5p", G), G)
    assert hu_level(hand + community, G) == HuLevel.FLUSH
    assert hu_level_with_hand(hand, community, G) == HuLevel.NONE
    # a flush of community cards alone does not make a hand-card hu a flush
    hand = counts_of(parse_cards("5s 9m 9p 7p", G), G)
    community = counts_of(parse_cards("5s 111s 23m", G), G)
    assert hu_level_with_hand(hand, community, G) == HuLevel.FLUSH
    hand = counts_of(parse_cards("4m 9m 9p 7p", G), G)
    community = counts_of(parse_cards("55s 111s 23m", G), G)
    assert hu_level_with_hand(hand, community, G) == HuLevel.HU


@pytest.mark.parametrize("ranks", range(3, 10))
def test_suit_needs_against_every_pair_and_set(ranks: int) -> None:
    """One suit's joker needs: every count vector up to five copies for small suits, a sample for larger."""
    if 6 ** ranks <= 10_000:
        vectors = [list(v) for v in product(range(6), repeat=ranks)]
    else:
        rng = np.random.default_rng(ranks)
        vectors = [list(v) for v in rng.integers(0, 6, (2000, ranks))]
    for vector in vectors:
        counts = np.array(vector + [0], dtype=np.int64)
        assert _suit_needs(counts, 0, ranks) == naive_suit_needs(vector), vector
