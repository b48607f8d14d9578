"""mahjong-poker: exact optimal strategy for the casino table game Mahjong Poker.

The public API re-exported here is what the CLI uses; see README.md.
"""

__version__ = "0.1.0"

from .bonus import BonusTable, bonus_payout, bonus_table
from .cards import DeckGeometry, counts_of, format_cards, parse_cards
from .config import DEFAULT_CONFIG, GameConfig, load_config
from .deal_stats import DealStats, deal_stats
from .errors import ConfigError, InputError
from .evaluate import State, best_option, evaluate
from .hu import HuLevel, hu_level, hu_level_with_hand
from .options import Option, Stage, best_index
from .query import BestPlay, best_play

__all__ = [
    "BestPlay", "BonusTable", "ConfigError", "DEFAULT_CONFIG", "DealStats", "DeckGeometry", "GameConfig", "HuLevel",
    "InputError", "Option", "Stage", "State", "best_index", "best_option", "best_play", "bonus_payout",
    "bonus_table", "counts_of", "deal_stats", "evaluate", "format_cards", "hu_level", "hu_level_with_hand",
    "load_config", "parse_cards", "__version__",
]
