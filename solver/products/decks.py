"""The same game dealt from one, two and three decks, side by side, each from its own exact solve.

The rules allow one or more 82-card decks shuffled together (``deck.decks``). The par sheet of a
configuration (:mod:`solver.products.edge`) shows the figures of the same configuration on each number
of decks whose solve is finished (the committed ones for the rules' payouts), and ``scripts/decks.py``
prints them, solving the missing ones when asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from solver.game.config import GameConfig
from solver.game.objective import Objective
from solver.render.document import Block, Heading, Paragraph, Table
from solver.staged.run import solve
from solver.staged.summary import Summary, load_summary
from solver.tables.files import tables_for

DECKS = (1, 2, 3)
"""The deck counts shown side by side."""


@dataclass(frozen=True)
class DeckRow:
    """One number of decks: its configuration's exact summary."""

    decks: int
    cards: int
    summary: Summary

    def to_json(self) -> dict[str, Any]:
        """The figures as plain data."""
        s = self.summary
        return {"decks": self.decks, "cards": self.cards, "ev": float(s.ev_exact), "ev_exact": str(s.ev_exact),
                "house_edge": s.house_edge, "element_of_risk": s.element_of_risk, "std_dev": s.std_dev,
                "hit_frequency": s.hit_frequency, "bonus_house_edge_placed": -s.bonus_net_settled,
                "bonus_settled": float(s.bonus_settled), "solve_seconds": s.seconds, "tables": s.directory}


def deck_rows(config: GameConfig, own: Summary | None = None, decks: tuple[int, ...] = DECKS,
              solve_missing: bool = False, quiet: bool = True) -> tuple[list[DeckRow], list[int]]:
    """``config`` dealt from each number of ``decks``, every other field unchanged: the rows of those with a
    finished main-game solve (:func:`solver.tables.files.tables_for`; ``own``: ``config``'s own summary, where
    the caller has it), solving the others first with ``solve_missing``; and the deck counts left without one."""
    rows, missing = [], []
    for count in decks:
        variant = replace(config, decks=count)
        if own is not None and count == config.decks:
            summary = own
        elif (directory := tables_for(variant, Objective())) is not None:
            summary = load_summary(directory, variant)
        elif solve_missing:
            summary = solve(variant, quiet=quiet)
        else:
            missing.append(count)
            continue
        rows.append(DeckRow(count, variant.geometry.size, summary))
    return rows, missing


def compares(rows: Sequence[DeckRow], current: int) -> bool:
    """Whether ``rows`` hold another number of decks than ``current`` (the sheet's own), so a sheet shows them."""
    return any(r.decks != current for r in rows)


def decks_document(rows: Sequence[DeckRow], missing: Sequence[int], current: int) -> list[Block]:
    """The rows as a par sheet's section (``current``: the sheet's own number of decks), or nothing when no
    other number of decks is solved (:func:`compares`)."""
    if not compares(rows, current):
        return []
    table = [[f"{r.decks} ({r.cards})" + (" (this sheet)" if r.decks == current else ""),
              f"{float(r.summary.ev_exact):+.9f}", f"{100 * r.summary.house_edge:.4f}%",
              f"{100 * r.summary.element_of_risk:.4f}%", f"{r.summary.std_dev:.4f}", f"{r.summary.hit_frequency:.4f}",
              f"{-100 * r.summary.bonus_net_settled:.2f}%"] for r in rows]
    note = (f" Not solved yet: {', '.join(map(str, missing))} deck(s) (`mahjong-poker solve --config FILE`, FILE "
            "this configuration with `[deck] decks` set to that number)." if missing else "")
    per_deck = rows[0].cards // rows[0].decks
    return [
        Heading(3, "One, two and three decks", "decks"),
        Paragraph(f"The same rules and payouts dealt from several {per_deck}-card decks shuffled together, each "
                  "from its own exact solve, optimal play throughout. More copies of each card make a hu easier "
                  "to complete." + note),
        Table(["decks (cards)", "EV per hand", "house edge", "element of risk", "SD", "hit frequency",
               "bonus house edge per bet placed"], table, "lrrrrrr"),
    ]
