"""The game configuration (docs/rules.md, "Configuration"): deck, payouts, bet sizes, interpretations.

A configuration is a frozen dataclass; variants are data, never copied code.
It loads from a TOML file with four tables, each key documented below::

    [deck]             decks, suits, ranks, copies, jokers
    [payouts]          tian_hu ... ting_hu_flush, and the bet sizes
    [bonus]            the six bonus payouts and the stacking options
    [interpretations]  the choices docs/rules.md marks [interpretation]

Any key may be omitted (the default of docs/rules.md applies). An unknown key or
an unplayable value raises :class:`ConfigError` naming ``table.key``.
"""

from __future__ import annotations

import hashlib
import json
import math
import tomllib
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from solver.errors import ConfigError
from solver.game.cards import DeckGeometry

#: A player sees at most 6 dealt, 2 drawn and 6 community cards, all of which
#: may be suited, so a playable deck holds at least this many suited cards.
CARDS_SEEN_AT_MOST = 14


@dataclass(frozen=True)
class GameConfig:
    """Every rule the solver can vary. Money is in units of the tian-hu bet T = 1."""

    # [deck]
    decks: int = 1
    """Number of decks shuffled together (docs/rules.md, "Cards")."""
    suits: int = 3
    """Suits per deck: 3 in the real game (m, p, s); fewer for test geometries."""
    ranks: int = 9
    """Ranks per suit: 9 in the real game; at least 3 so that a run exists."""
    copies: int = 3
    """Copies of each suited card per deck."""
    jokers: int = 1
    """Jokers per deck."""

    # [payouts]
    tian_hu: float = 5.0
    """Step 3: net win for a claimed tian-hu."""
    tian_hu_flush: float = 5.5
    """Step 3: net win for a claimed flush tian-hu."""
    di_hu: float = 2.0
    """Step 6: net win per (1 + DD) for a claimed di-hu."""
    di_hu_flush: float = 2.5
    """Step 6: net win per (1 + DD) for a claimed flush di-hu."""
    double_down: float = 1.0
    """Step 4: size of the double-down (cha-hua) bet, lost unless di-hu is claimed."""
    fa_hu_bets: tuple[float, ...] = (1.0, 2.0)
    """Step 8: the fa-hu bet sizes F allowed."""
    fa_hu_ante: float = 1.0
    """Step 11: what T wins (per unit) on a hu of the eight cards."""
    fa_hu: float = 1.0
    """Step 11: what F wins (per unit) on a hu of the eight cards."""
    fa_hu_flush: float = 1.5
    """Step 11: what F wins (per unit) on a flush hu of the eight cards."""
    ting_hu_multiples: tuple[float, ...] = (1.0, 2.0, 3.0)
    """Step 12: the ting-hu bet sizes G allowed, as multiples of F."""
    ting_hu_ante: float = 1.0
    """Step 14: what T wins (per unit) on a hu of the ten cards."""
    ting_hu_fa: float = 1.0
    """Step 14: what F wins (per unit) on a hu of the ten cards, flush or not."""
    ting_hu: float = 1.0
    """Step 14: what G wins (per unit) on a hu of the ten cards."""
    ting_hu_flush: float = 1.5
    """Step 14: what G wins (per unit) on a flush hu of the ten cards."""

    # [bonus]
    bonus_straight_flush: float = 1000.0
    """Six consecutive ranks of one suit."""
    bonus_three_pairs: float = 60.0
    """The six cards split into three pairs of identical cards."""
    bonus_two_triplets: float = 60.0
    """The six cards split into two triplets of identical cards."""
    bonus_one_triplet: float = 30.0
    """Three identical cards among the six."""
    bonus_hu: float = 15.0
    """Some five of the six form a hu."""
    bonus_flush: float = 5.0
    """All six cards of one suit."""
    bonus_hu_flush_add: bool = True
    """Stacking: hu and flush are paid on top of the highest of the four
    ranked combinations and of each other (docs/rules.md, "The bonus bet"). When false only the
    single highest-paying combination is paid."""

    # [interpretations]
    joker_any_card: bool = True
    """[interpretation] A joker may stand for any suited card, whatever
    other copies are visible. Only ``true`` is implemented: the alternative
    makes a hu depend on dead and community cards outside the group."""
    straight_flush_adds_flush: bool = False
    """[interpretation] Whether a six-card straight flush also collects the
    flush bonus (default: it pays 1000 alone)."""

    @property
    def geometry(self) -> DeckGeometry:
        """The deck in play, totals over all decks."""
        return DeckGeometry(
            suits=self.suits,
            ranks=self.ranks,
            copies_in_play=self.copies * self.decks,
            jokers_in_play=self.jokers * self.decks,
        )

    def fingerprint(self) -> str:
        """Stable hash of every field: tables made for one configuration are never used for another."""
        canonical = json.dumps(asdict(self), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()[:16]

    def holds_fingerprint(self) -> str:
        """Hash of the fields the solve's stage A (every hold's fa-hu and ting values) reads: all but
        :data:`DEAL_PAYOUTS`, so configurations that differ only in those share stage A."""
        return self._fingerprint_without(DEAL_PAYOUTS)

    def ting_fingerprint(self) -> str:
        """Hash of the fields stage A's walk reads (the step-11 counts and the ting gains) that pricing its
        rows cannot change: all but :data:`DEAL_PAYOUTS` and :data:`STEP11_PAYOUTS`, and of the ting
        multiples only the smallest where there are two or more and the walk's sums are exact
        (:func:`solver.game.payouts.sums_exact`): the largest then moves each ting gain by exactly
        ``F dm Z+``, which the rows give (docs/algorithm.md). Configurations with the same ting
        fingerprint share the walk, each pricing it with its own payouts."""
        from solver.game.payouts import TingConstants, sums_exact  # here: numpy, which a table query never needs

        multiples: list[Any] = list(self.ting_hu_multiples)
        if len(set(multiples)) > 1 and sums_exact(TingConstants.of(self), self.geometry):
            multiples = [min(multiples), "largest priced"]
        return self._fingerprint_without(DEAL_PAYOUTS + STEP11_PAYOUTS, ting_hu_multiples=multiples)

    def columns_fingerprint(self) -> str:
        """Hash of the fields that decide which completions win (the deck and the hu rules): all but the
        payouts and the bonus bet's, so every paytable variant of a game shares stage A's payout-free
        columns (:mod:`solver.staged.column_store`)."""
        return self._fingerprint_without(PAYOUT_KEYS + BONUS_KEYS)

    def _fingerprint_without(self, keys: tuple[str, ...], **instead: Any) -> str:
        data = {k: instead.get(k, v) for k, v in asdict(self).items() if k not in keys}
        canonical = json.dumps(data, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()[:16]

    def to_toml(self) -> str:
        """The configuration as a TOML file that :func:`load_config` reads back."""
        lines: list[str] = []
        for table, keys in _TABLES.items():
            lines.append(f"[{table}]")
            for key in keys:
                lines.append(f"{key} = {_toml_value(getattr(self, key))}")
            lines.append("")
        return "\n".join(lines)


_TABLES: dict[str, tuple[str, ...]] = {
    "deck": ("decks", "suits", "ranks", "copies", "jokers"),
    "payouts": (
        "tian_hu", "tian_hu_flush", "di_hu", "di_hu_flush", "double_down", "fa_hu_bets",
        "fa_hu_ante", "fa_hu", "fa_hu_flush", "ting_hu_multiples", "ting_hu_ante",
        "ting_hu_fa", "ting_hu", "ting_hu_flush",
    ),
    "bonus": (
        "bonus_straight_flush", "bonus_three_pairs", "bonus_two_triplets", "bonus_one_triplet",
        "bonus_hu", "bonus_flush", "bonus_hu_flush_add",
    ),
    "interpretations": ("joker_any_card", "straight_flush_adds_flush"),
}
assert sorted(k for keys in _TABLES.values() for k in keys) == sorted(f.name for f in fields(GameConfig))

DEFAULT_CONFIG = GameConfig()

#: The keys of the ``[payouts]`` table.
PAYOUT_KEYS: tuple[str, ...] = _TABLES["payouts"]
#: What decides the bonus bet alone: its paytable and its interpretation.
BONUS_KEYS: tuple[str, ...] = _TABLES["bonus"] + ("straight_flush_adds_flush",)
#: Payouts settled before the fa-hu bet (steps 3-6): the values of a kept hold do not depend on them.
DEAL_PAYOUTS = ("tian_hu", "tian_hu_flush", "di_hu", "di_hu_flush", "double_down")
#: What a hu at step 11 pays: stage A's values are linear in these, with coefficients (the step-11
#: counts, the ting gains) that do not depend on them.
STEP11_PAYOUTS = ("fa_hu_ante", "fa_hu", "fa_hu_flush")


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return repr(value)


def _coerce(key: str, value: Any, default: Any) -> Any:
    """Convert a TOML value to the type of the field's default, or refuse it naming the key."""
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"{key} must be true or false, got {value!r}")
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{key} must be an integer, got {value!r}")
        return value
    if isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ConfigError(f"{key} must be a number, got {value!r}")
        return float(value)
    if isinstance(default, tuple):
        if not isinstance(value, list) or not value:
            raise ConfigError(f"{key} must be a non-empty list of numbers, got {value!r}")
        return tuple(_coerce(key, v, 1.0) for v in value)
    raise AssertionError(f"no coercion for {key}")


def validate(config: GameConfig) -> GameConfig:
    """Refuse an unplayable configuration with a message naming the key."""
    checks = [
        ("deck.decks", config.decks >= 1, "at least 1"),
        ("deck.suits", 1 <= config.suits <= 3, "between 1 and 3"),
        ("deck.ranks", 3 <= config.ranks <= 9, "between 3 and 9"),
        ("deck.copies", config.copies >= 1, "at least 1"),
        ("deck.jokers", config.jokers >= 0, "at least 0"),
    ]
    for key, ok, what in checks:
        if not ok:
            raise ConfigError(f"{key} must be {what}, got {getattr(config, key.split('.')[1])}")
    suited = config.geometry.n_suited * config.geometry.copies_in_play
    if suited < CARDS_SEEN_AT_MOST:
        raise ConfigError(
            f"deck.copies: the deck holds {suited} suited cards, too few for a hand "
            f"(a player may see {CARDS_SEEN_AT_MOST})"
        )
    if math.comb(suited, 4) * math.comb(suited - 4, 2) >= 2**53:
        # the kernels hold counts of six-card community sequences exactly in floats
        raise ConfigError(f"deck.decks: the deck holds {suited} suited cards, too many for exact counts")
    for table in ("payouts", "bonus"):
        for key in _TABLES[table]:
            value = getattr(config, key)
            for v in value if isinstance(value, tuple) else (value,):
                if isinstance(v, float) and not math.isfinite(v):
                    raise ConfigError(f"{table}.{key} must be a finite number, got {v}")
                if isinstance(v, float) and v < 0:
                    raise ConfigError(f"{table}.{key} must not be negative, got {v}")
    if config.double_down <= 0:
        raise ConfigError(
            f"payouts.double_down must be positive (the DD bet is 0 or this size), got {config.double_down}"
        )
    for key in ("fa_hu_bets", "ting_hu_multiples"):
        values = getattr(config, key)
        if any(v <= 0 for v in values) or list(values) != sorted(set(values)):
            raise ConfigError(f"payouts.{key} must be positive and strictly increasing, got {list(values)}")
    if not config.joker_any_card:
        raise ConfigError(
            "interpretations.joker_any_card = false is not supported: a joker that may not copy "
            "visible cards makes a hu depend on cards outside the group"
        )
    return config


def _not_a_table(name: str, content: Any) -> str:
    """What is wrong with a top-level TOML entry that is not a table."""
    if isinstance(content, list) and name in _TABLES:
        return f"[[{name}]] is an array of tables: write [{name}] once"
    home = [t for t, keys in _TABLES.items() if name in keys]
    if home:
        return f"{name} = ... is outside a table: it belongs in [{home[0]}]"
    return f"{name} = ... is outside a table, and [{name}] is not a known table; known tables: {', '.join(_TABLES)}"


def config_from_dict(data: dict[str, Any]) -> GameConfig:
    """Build and validate a configuration from a parsed TOML document."""
    values: dict[str, Any] = {}
    for table, content in data.items():
        if not isinstance(content, dict):
            raise ConfigError(_not_a_table(table, content))
        if table not in _TABLES:
            raise ConfigError(f"unknown table [{table}]; known tables: {', '.join(_TABLES)}")
        for key, value in content.items():
            if key not in _TABLES[table]:
                raise ConfigError(f"unknown key {table}.{key}")
            values[key] = _coerce(f"{table}.{key}", value, getattr(DEFAULT_CONFIG, key))
    return validate(GameConfig(**values))


def load_config(path: str | Path | None) -> GameConfig:
    """Load a TOML configuration file; ``None`` gives the defaults of docs/rules.md."""
    if path is None:
        return DEFAULT_CONFIG
    try:
        text = Path(path).read_bytes().decode("utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read configuration {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"configuration {path} is not UTF-8 text (byte {exc.start + 1} cannot be decoded): "
                          "TOML files are UTF-8") from None
    if text.startswith("\ufeff"):
        raise ConfigError(f"configuration {path} begins with a byte-order mark, which TOML does not allow: "
                          "save it as UTF-8 without one")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"configuration {path} is not valid TOML: {exc}") from None
    return config_from_dict(data)
