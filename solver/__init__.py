"""mahjong-poker: exact optimal strategy for the casino table game Mahjong Poker.

The public API re-exported here is what the CLI uses; see README.md. Names
are imported on first use, so that a table lookup does not load the
compiled kernels it does not need.
"""

from importlib import import_module
from typing import Any

__version__ = "0.3.0"

_EXPORTS = {
    "game.bonus": ("BonusTable", "bonus_payout", "bonus_table"),
    "game.cards": ("DeckGeometry", "counts_of", "format_cards", "parse_cards"),
    "game.config": ("DEFAULT_CONFIG", "GameConfig", "load_config"),
    "game.hu": ("HuLevel", "hu_level", "hu_level_with_hand"),
    "game.options": ("Option", "Stage", "best_index"),
    "game.state": ("State",),
    "errors": ("ConfigError", "InputError"),
    "evaluator.api": ("best_option", "evaluate"),
    "staged.run": ("Summary", "load_summary", "solve"),
    "products.query": ("BestPlay", "best_play"),
    "products.deal_stats": ("DealStats", "deal_stats"),
    "products.edge": ("ParSheet", "par_sheet"),
    "products.paytable": ("VariantSolver", "paytable_rows", "solve_for_target", "solve_targets"),
    "products.simulate": ("Simulation", "simulate"),
}
_MODULE_OF = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = sorted(_MODULE_OF) + ["__version__"]


def __getattr__(name: str) -> Any:
    if name not in _MODULE_OF:
        raise AttributeError(f"module 'solver' has no attribute {name!r}")
    return getattr(import_module(f".{_MODULE_OF[name]}", __name__), name)
