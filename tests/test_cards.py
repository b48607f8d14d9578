import numpy as np
import pytest

from solver.errors import InputError
from solver.game.cards import DeckGeometry, cards_of, check_available, check_count, counts_of, format_cards, parse_cards
from solver.game.config import GameConfig

G = GameConfig().geometry


def test_parse_and_format_round_trip() -> None:
    cards = parse_cards("112m 34p J", G)
    assert cards == (0, 0, 1, 11, 12, 27)
    assert format_cards(cards, G) == "112m 34p J"
    assert parse_cards("J34p211m", G) == cards  # order and spaces do not matter
    assert format_cards(parse_cards("9s", G), G) == "9s"


def test_counts_round_trip() -> None:
    cards = parse_cards("555s 19m J", G)
    counts = counts_of(cards, G)
    assert counts.sum() == 6 and counts[G.joker] == 1 and len(counts) == 28
    assert cards_of(counts) == cards


def test_deck_sizes() -> None:
    assert G.size == 82 and G.n_types == 28
    two = GameConfig(decks=2).geometry
    assert two.size == 164
    assert DeckGeometry(suits=2, ranks=4, copies_in_play=2, jokers_in_play=1).size == 17
    assert np.array_equal(G.full_counts(), [3] * 27 + [1])


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("12x", "unknown character 'x'"),
        ("123", "have no suit"),
        ("12J", "before 'J'"),
        ("m", "has no ranks"),
        ("05m", "rank 0"),
        ("1111m", "1m appears 4 times"),
        ("JJ", "J appears 2 times"),
        ("\u00b2m", "unknown character '\u00b2'"),  # superscript two: str.isdigit admits it, int() does not
        ("\uff11m", "unknown character '\uff11'"),  # fullwidth one
    ],
)
def test_parse_refuses_bad_input(text: str, fragment: str) -> None:
    with pytest.raises(InputError, match=fragment):
        parse_cards(text, G)


def test_rank_and_suit_out_of_range_for_a_mini_deck() -> None:
    mini = DeckGeometry(suits=2, ranks=4, copies_in_play=2, jokers_in_play=1)
    with pytest.raises(InputError, match="rank 5m .* out of range"):
        parse_cards("5m", mini)
    with pytest.raises(InputError, match="unknown character 's'"):
        parse_cards("1s", mini)


def test_overlap_between_groups() -> None:
    hand = parse_cards("11m 234p", G)
    dead = parse_cards("1m 9s", G)
    check_available({"hand": hand, "dead": dead}, G)
    with pytest.raises(InputError, match="1m appears 4 times in hand and dead"):
        check_available({"hand": hand, "dead": dead + parse_cards("1m", G)}, G)


def test_wrong_count() -> None:
    with pytest.raises(InputError, match="hand must hold 6 cards, got 5"):
        check_count(parse_cards("12345m", G), 6, "hand")
