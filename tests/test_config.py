import pytest

from solver.errors import ConfigError
from solver.game.config import DEFAULT_CONFIG, GameConfig, config_from_dict, load_config


def test_defaults_follow_the_rules() -> None:
    c = DEFAULT_CONFIG
    assert (c.tian_hu, c.tian_hu_flush, c.di_hu, c.di_hu_flush) == (5.0, 5.5, 2.0, 2.5)
    assert c.fa_hu_bets == (1.0, 2.0) and c.ting_hu_multiples == (1.0, 2.0, 3.0)
    assert c.geometry.size == 82
    # rule-text checks: T = 10, F = 20, flush hu at step 11 wins 40; with G = 60 at step 14 wins 120
    assert 10 * c.fa_hu_ante + 20 * c.fa_hu_flush == 40
    assert 10 * c.ting_hu_ante + 20 * c.ting_hu_fa + 60 * c.ting_hu_flush == 120


def test_load_round_trip(tmp_path) -> None:
    variant = GameConfig(decks=2, tian_hu=4.0, fa_hu_bets=(1.0, 3.0))
    path = tmp_path / "variant.toml"
    path.write_text(variant.to_toml())
    assert load_config(path) == variant
    assert load_config(None) == DEFAULT_CONFIG


def test_fingerprint_is_stable_and_distinguishes() -> None:
    assert GameConfig().fingerprint() == DEFAULT_CONFIG.fingerprint()
    assert GameConfig(tian_hu=5.5).fingerprint() != DEFAULT_CONFIG.fingerprint()
    assert len(DEFAULT_CONFIG.fingerprint()) == 16


@pytest.mark.parametrize(
    "data, fragment",
    [
        ({"deck": {"dekcs": 2}}, "unknown key deck.dekcs"),
        ({"table": {}}, r"unknown table \[table\]"),
        ({"tian_hu": 4}, r"tian_hu = \.\.\. is outside a table: it belongs in \[payouts\]"),
        ({"foo": 1}, r"foo = \.\.\. is outside a table, and \[foo\] is not a known table"),
        ({"deck": [{"decks": 2}]}, r"\[\[deck\]\] is an array of tables: write \[deck\] once"),
        ({"deck": {"decks": 0}}, "deck.decks must be at least 1"),
        ({"deck": {"decks": 1.5}}, "deck.decks must be an integer"),
        ({"payouts": {"tian_hu": -1}}, "payouts.tian_hu must not be negative"),
        ({"payouts": {"double_down": 0}}, "payouts.double_down must be positive"),
        ({"payouts": {"tian_hu": "five"}}, "payouts.tian_hu must be a number"),
        ({"payouts": {"fa_hu_bets": [2, 1]}}, "payouts.fa_hu_bets must be positive and strictly increasing"),
        ({"deck": {"suits": 1, "ranks": 3, "copies": 1}}, "deck.copies: the deck holds 3 suited cards"),
        ({"deck": {"ranks": 2}}, "deck.ranks must be between 3 and 9"),
        ({"deck": {"decks": 11}}, "deck.decks: the deck holds 891 suited cards, too many for exact counts"),
        ({"interpretations": {"joker_any_card": False}}, "interpretations.joker_any_card"),
        ({"bonus": {"bonus_hu_flush_add": 1}}, "bonus.bonus_hu_flush_add must be true or false"),
    ],
)
def test_refuses_bad_configuration(data, fragment) -> None:
    with pytest.raises(ConfigError, match=fragment):
        config_from_dict(data)


def test_unreadable_file(tmp_path) -> None:
    with pytest.raises(ConfigError, match="cannot read configuration"):
        load_config(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[deck\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(bad)


@pytest.mark.parametrize("name, geometry", [
    ("reduced-3x4.toml", (3, 4, 2, 1, 25)),
    ("three-copies-3x4.toml", (3, 4, 3, 1, 37)),
])
def test_shipped_configurations(name: str, geometry: tuple[int, ...]) -> None:
    """The configurations in configs/ load, with the deck their comments describe and docs/rules.md's payouts."""
    from pathlib import Path

    config = load_config(Path(__file__).parent.parent / "configs" / name)
    g = config.geometry
    assert (g.suits, g.ranks, g.copies_in_play, g.jokers_in_play, g.size) == geometry
    assert config == GameConfig(suits=g.suits, ranks=g.ranks, copies=g.copies_in_play, jokers=g.jokers_in_play)
