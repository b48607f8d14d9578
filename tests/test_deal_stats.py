"""Tian-hu figures: exact counts, pinned from an independent brute force, and a mini-deck enumeration."""

from itertools import combinations
from math import comb

from solver.game.cards import DeckGeometry
from solver.game.config import GameConfig
from solver.products.deal_stats import deal_stats
from tests.naive import naive_level


def test_one_deck_counts() -> None:
    stats = deal_stats(GameConfig())
    # Brute force over every 5-card sub-multiset and joker substitution
    # (a separate script, no solver code): 6,680,097 and 2,012,067.
    assert stats.total_deals == comb(82, 6)
    assert stats.tian_hu == 6680097
    assert stats.flush_tian_hu == 2012067


def test_two_deck_counts() -> None:
    stats = deal_stats(GameConfig(decks=2))
    assert stats.total_deals == comb(164, 6)
    assert stats.tian_hu == 569440341
    assert stats.flush_tian_hu == 175764060
    assert 0 < stats.flush_tian_hu < stats.tian_hu < stats.total_deals


def test_mini_deck_against_every_card_combination() -> None:
    """Every 6-card combination of a 17-card deck, dealt as distinct cards, checked naively."""
    config = GameConfig(suits=2, ranks=4, copies=2, jokers=1)
    geometry: DeckGeometry = config.geometry
    deck = [t for t in range(geometry.n_types) for _ in range(int(geometry.full_counts()[t]))]
    hu = flush = total = 0
    for deal in combinations(deck, 6):
        level = naive_level(list(deal), geometry)
        total += 1
        hu += level >= 1
        flush += level == 2
    stats = deal_stats(config)
    assert (stats.total_deals, stats.tian_hu, stats.flush_tian_hu) == (total, hu, flush)
