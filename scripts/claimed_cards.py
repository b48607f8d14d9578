"""What a seat leaves on the table by ignoring a claimer's cards at the deal and the draw (docs/table.md).

A tian-hu claim shows the claimer's six cards before the other seats double down and discard, a di-hu
claim its six before the fa-hu decisions. The table's seats (``simulate --seats``) play the solve's
tables there, which know only the seat's own cards. This script samples the situations, each with one
claimer, and prices the seat's two choices exactly with the claimer's cards dead (``best --shown``): the
best play with them, and the tables' play without them. Its loss is the difference (zero where the
choice is the same). Three kinds of situation:

- ``deal``: a tian-hu claimer; the seat's deal decision (each one an exact deal evaluation: under a minute
  on 2 cores, so few samples);
- ``draw-after-tian-hu``: a tian-hu claimer; the seat's deal played from the tables, then its draw decision;
- ``draw-after-di-hu``: a di-hu claimer (dealt, drawn and claiming as the tables play); the seat's deal
  from the tables, then its draw decision.

The deal loss assumes the draw played with the shown cards, so a seat ignoring them at both decisions loses
the deal's and the draw's losses added. Per seat-hand at a table of N seats, to first order in the claim
rates p (per seat, from the solve's summary; a table with two claimers counts twice), every claim being
shown before the other seats' next decision as the rules order the steps: (N - 1) x (p_tian x (deal + draw
after tian-hu) + p_di x draw after di-hu). Intervals: 99%, Student's t (the per-seat-hand one with the
fewest samples' degrees of freedom).

    python scripts/claimed_cards.py --deal-samples 10 --draw-samples 300 --seed 1 [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

from scipy.stats import t as student

from solver.game.cards import format_cards
from solver.game.combinatorics import remove_cards
from solver.game.config import GameConfig
from solver.game.objective import Objective
from solver.products.query import best_play
from solver.staged.run import load_summary
from solver.tables.files import default_directory

Z99 = 2.5758293035489004


class Table:
    """The seats' cards from one shuffled deck, and the tables' choices."""

    def __init__(self, config: GameConfig, tables: Path, rng: random.Random) -> None:
        self.config, self.tables, self.rng = config, tables, rng
        self.geometry = config.geometry

    def text(self, cards: tuple[int, ...]) -> str:
        return format_cards(tuple(sorted(cards)), self.geometry)

    def deal_choice(self, hand: tuple[int, ...]):
        """The tables' option at the deal (the player's own cards only)."""
        play = best_play(self.text(hand), self.config, tables=self.tables)
        return play.options[play.best]

    def after_draw(self, hand: tuple[int, ...],
                   deck: list[int]) -> tuple[tuple[int, ...], tuple[int, ...], float] | None:
        """The tables' deal play and the first draw from ``deck``: (six cards, discards, DD), or None (a claim)."""
        option = self.deal_choice(hand)
        if option.action == "claim":
            return None
        kept = remove_cards(hand, option.discard)
        return tuple(sorted(kept + (deck.pop(), deck.pop()))), option.discard, option.bet

    def draw_choice(self, hand: tuple[int, ...], dead: tuple[int, ...], dd: float):
        play = best_play(self.text(hand), self.config, dead=self.text(dead), double_down=dd, tables=self.tables)
        return play.options[play.best]

    def deck(self) -> list[int]:
        cards = self.geometry.cards()
        self.rng.shuffle(cards)
        return cards

    def claimer(self, kind: str) -> tuple[tuple[int, ...], list[int]]:
        """A claimer's six shown cards and the rest of the deck, drawn until the tables claim ``kind``."""
        while True:
            deck = self.deck()
            hand = tuple(sorted(deck.pop() for _ in range(6)))
            if kind == "tian-hu":
                if self.deal_choice(hand).action == "claim":
                    return hand, deck
                continue
            drawn = self.after_draw(hand, deck)
            if drawn is not None and self.draw_choice(drawn[0], drawn[1], drawn[2]).action == "claim":
                return drawn[0], deck

    def loss(self, kind: str, n_jobs: int) -> float:
        """One situation's loss: the best play's EV with the claimer's cards dead, less the tables' play's."""
        shown, deck = self.claimer("tian-hu" if kind != "draw-after-di-hu" else "di-hu")
        hand = tuple(sorted(deck.pop() for _ in range(6)))
        if kind == "deal":
            play = best_play(self.text(hand), self.config, tables=self.tables, shown=self.text(shown), n_jobs=n_jobs)
        else:
            drawn = self.after_draw(hand, deck)
            if drawn is None:
                return 0.0  # the seat claims a tian-hu itself: no draw decision
            after, dead, dd = drawn
            play = best_play(self.text(after), self.config, dead=self.text(dead), double_down=dd,
                             tables=self.tables, shown=self.text(shown))
        return play.options[play.best].ev - play.options[play.best_unshown].ev


def _figures(losses: list[float]) -> dict[str, object]:
    """Mean loss with its standard error and 99% interval (Student's t: few deal samples, skewed)."""
    n = len(losses)
    mean = statistics.fmean(losses) if n else 0.0
    se = statistics.stdev(losses) / n**0.5 if n > 1 else 0.0
    half = float(student.ppf(0.995, n - 1)) * se if n > 1 else 0.0
    return {"samples": n, "mean_loss": mean, "std_error": se, "ci99": [mean - half, mean + half],
            "changed_share": sum(x > 1e-12 for x in losses) / n if n else 0.0,
            "largest": max(losses, default=0.0)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deal-samples", type=int, default=10)
    parser.add_argument("--draw-samples", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="processes for each deal evaluation")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if 1 in (args.deal_samples, args.draw_samples):
        parser.error("samples: 0 (not measured) or at least 2, for a standard error")
    config = GameConfig()
    tables = default_directory(config, Objective())
    table = Table(config, tables, random.Random(args.seed))
    start = time.perf_counter()
    result: dict[str, object] = {"seed": args.seed, "tables": str(tables)}
    for kind, n in (("draw-after-tian-hu", args.draw_samples), ("draw-after-di-hu", args.draw_samples),
                    ("deal", args.deal_samples)):
        losses = []  # none asked for: counted as no loss, with no error
        for i in range(n):
            losses.append(table.loss(kind, args.jobs))
            print(f"\r{kind}: {i + 1}/{n}, {time.perf_counter() - start:.0f} s", end="", file=sys.stderr)
        print(file=sys.stderr)
        result[kind] = _figures(losses)
    decisions = load_summary(tables, config).decisions()
    p_tian, p_di = decisions["claim_tian_hu"], decisions["claim_di_hu"]
    per_claim = {"tian-hu": result["deal"]["mean_loss"] + result["draw-after-tian-hu"]["mean_loss"],
                 "di-hu": result["draw-after-di-hu"]["mean_loss"]}
    result["claim_rates"] = {"tian-hu": p_tian, "di-hu": p_di}
    # the three samples are independent; the quantile is the fewest samples' (t, conservative)
    kinds = ("deal", "draw-after-tian-hu", "draw-after-di-hu")
    se = {kind: result[kind]["std_error"] for kind in kinds}
    fewest = min(result[kind]["samples"] for kind in kinds)
    q99 = float(student.ppf(0.995, fewest - 1)) if fewest > 1 else Z99
    se_seat = (p_tian**2 * (se["deal"] ** 2 + se["draw-after-tian-hu"] ** 2)
               + p_di**2 * se["draw-after-di-hu"] ** 2) ** 0.5
    result["per_seat_hand"] = {}
    for n in range(1, 7):
        mean = (n - 1) * (p_tian * per_claim["tian-hu"] + p_di * per_claim["di-hu"])
        result["per_seat_hand"][n] = {"mean": mean, "ci99": [mean - q99 * (n - 1) * se_seat,
                                                             mean + q99 * (n - 1) * se_seat]}
    result["seconds"] = time.perf_counter() - start
    if args.json:
        print(json.dumps(result))
        return
    for kind in ("deal", "draw-after-tian-hu", "draw-after-di-hu"):
        f = result[kind]
        print(f"{kind}: {f['samples']} situations, mean loss {f['mean_loss']:.5f} T "
              f"[{f['ci99'][0]:+.5f}, {f['ci99'][1]:+.5f}], decision changed in {f['changed_share']:.1%}, "
              f"largest {f['largest']:.4f}")
    print("per seat-hand, 99%: " + ", ".join(f"{n} seats {v['mean']:.5f} [{v['ci99'][0]:.5f}, {v['ci99'][1]:.5f}]"
                                            for n, v in result["per_seat_hand"].items()))


if __name__ == "__main__":
    main()
