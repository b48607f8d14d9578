"""The ``mahjong-poker`` command line: parses, calls the API, prints. No game logic lives here."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

from . import __version__
from .bonus import bonus_table
from .config import GameConfig, load_config
from .deal_stats import deal_stats
from .errors import InputError
from .textfmt import text_table


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="game configuration (TOML); default: the rules of RULES.md")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")


def _config(args: argparse.Namespace) -> GameConfig:
    return load_config(args.config)


def cmd_bonus(args: argparse.Namespace) -> None:
    """Print the exact return table of a resolved bonus bet."""
    config = _config(args)
    table = bonus_table(config)
    if args.json:
        print(json.dumps({
            "total_combinations": table.total_combinations,
            "rows": [
                {"combination": r.combination, "pays": r.pays, "combinations": r.combinations,
                 "probability": r.probability, "return": r.contribution}
                for r in table.rows
            ],
            "house_edge": table.house_edge,
        }))
        return
    rows = [(r.combination, f"{r.pays:g}", r.combinations, f"{r.probability:.10f}", f"{r.contribution:+.10f}")
            for r in table.rows]
    print(f"Bonus bet, per resolved bet: six community cards out of C({config.geometry.n_suited * config.geometry.copies}, 6)")
    print(text_table(["combination", "pays", "combinations", "probability", "return"], rows, "lrrrr"))
    print(f"total combinations: {table.total_combinations}")
    print(f"expected return per unit bet: {table.ev:+.10f}")
    print(f"house edge: {table.house_edge:.10f} ({100 * table.house_edge:.4f}%)")


def cmd_deal_stats(args: argparse.Namespace) -> None:
    """Print how many six-card deals can claim a tian-hu and a flush tian-hu."""
    config = _config(args)
    stats = deal_stats(config)
    if args.json:
        print(json.dumps({"total_deals": stats.total_deals, "tian_hu": stats.tian_hu,
                          "flush_tian_hu": stats.flush_tian_hu}))
        return
    rows = [
        ("tian-hu (any, flush included)", stats.tian_hu, f"{stats.tian_hu / stats.total_deals:.10f}"),
        ("flush tian-hu", stats.flush_tian_hu, f"{stats.flush_tian_hu / stats.total_deals:.10f}"),
        ("all deals", stats.total_deals, "1"),
    ]
    print(f"Six-card deals from {config.geometry.size} cards (jokers wild)")
    print(text_table(["deal", "deals", "probability"], rows, "lrr"))


COMMANDS: dict[str, tuple[Callable[[argparse.Namespace], None], str]] = {
    "bonus": (cmd_bonus, "exact return table of the bonus bet, per resolved bet"),
    "deal-stats": (cmd_deal_stats, "number of six-card deals that can claim a tian-hu"),
}


def build_parser() -> argparse.ArgumentParser:
    """The argument parser, one sub-command per job."""
    parser = argparse.ArgumentParser(
        prog="mahjong-poker",
        description="Exact optimal-strategy solver for the casino table game Mahjong Poker.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (func, help_text) in COMMANDS.items():
        command = sub.add_parser(name, help=help_text, description=func.__doc__)
        _add_common(command)
        command.set_defaults(func=func)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; bad input gives exit code 2 and a one-line message."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        args.func(args)
    except InputError as exc:
        print(f"mahjong-poker: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
