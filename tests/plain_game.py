"""A plain game-tree enumerator: card by card, straight from docs/rules.md, no symmetry, no cleverness.

Every draw is a combination of physical cards (``itertools.combinations``
over the cards left in the deck); every hu is decided by the naive
enumerator of :mod:`tests.naive` (every 5-card subset, every joker
substitution). The only help is memoisation of values by the sorted cards
of a state, which changes no number. Slow on purpose: for mini decks.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations

from solver.game.config import GameConfig
from solver.game.symmetry import canonical
from tests.naive import naive_bonus_net, naive_level


class PlainGame:
    """Values of every decision of one configuration, by brute force."""

    def __init__(self, config: GameConfig, bonus: float = 0.0, exact: bool = False) -> None:
        self.config = config
        self.bonus = bonus
        # exact=True: every value a Fraction (payouts and bets as the binary floats they are), so a
        # figure can be compared with the solve's exact EV to the last digit; floats are faster.
        self.number = Fraction if exact else float
        self.geometry = config.geometry
        g = self.geometry
        self.deck = g.cards()
        self.level = lru_cache(maxsize=None)(self._level)
        self.fa_value = lru_cache(maxsize=None)(self._fa_value)
        self.draw_options = lru_cache(maxsize=None)(self._draw_options)
        self.deal_options = lru_cache(maxsize=None)(self._deal_options)
        self._deal_outcomes = lru_cache(maxsize=None)(self._deal_outcomes)
        self._draw_outcomes = lru_cache(maxsize=None)(self._draw_outcomes)

    # -- helpers --------------------------------------------------------
    def _level(self, cards: tuple[int, ...], hand_size: int) -> int:
        return naive_level(list(cards), self.geometry, hand_size)

    def rest(self, seen: tuple[int, ...], suited_only: bool) -> list[int]:
        """The physical cards not seen, one entry per card."""
        left = list(self.deck)
        for card in seen:
            left.remove(card)
        return [c for c in left if not (suited_only and c == self.geometry.joker)]

    @staticmethod
    def without(cards: tuple[int, ...], removed: tuple[int, ...]) -> tuple[int, ...]:
        left = list(cards)
        for card in removed:
            left.remove(card)
        return tuple(left)

    # -- step 12: the ting decision -------------------------------------
    def ting_evs(self, hand: tuple[int, ...], dead: tuple[int, ...], community: tuple[int, ...],
                 fa_bet: float) -> list[float]:
        """[fold, G = m F for each multiple], counting T and F (not DD); a ting bet
        also settles the bonus bet (if any), which folding pushes."""
        c, x = self.config, self.number
        outcomes = []
        bonus = x(0)
        for last_two in combinations(self.rest(hand + dead + community, True), 2):
            ordered = tuple(sorted(hand)) + tuple(sorted(community + last_two))
            outcomes.append(self.level(ordered, 4))
            if self.bonus:
                bonus += x(self.bonus) * x(naive_bonus_net(list(community + last_two), c))
        fa_bet = x(fa_bet)
        evs = [-(1 + fa_bet)]
        for m in c.ting_hu_multiples:
            g = x(m) * fa_bet
            total = x(0)
            for level in outcomes:
                if level == 2:
                    total += x(c.ting_hu_ante) + fa_bet * x(c.ting_hu_fa) + g * x(c.ting_hu_flush)
                elif level == 1:
                    total += x(c.ting_hu_ante) + fa_bet * x(c.ting_hu_fa) + g * x(c.ting_hu)
                else:
                    total -= 1 + fa_bet + g
            evs.append((total + bonus) / len(outcomes))
        return evs

    # -- steps 8-14 for a kept hold ---------------------------------------
    def _fa_value(self, hold: tuple[int, ...], dead: tuple[int, ...], fa_bet: float) -> float:
        c, x = self.config, self.number
        total = x(0)
        n = 0
        for first_four in combinations(self.rest(hold + dead, True), 4):
            n += 1
            community = tuple(sorted(first_four))
            level = self.level(hold + community, 0)
            if level:
                total += x(c.fa_hu_ante) + x(fa_bet) * x(c.fa_hu_flush if level == 2 else c.fa_hu)
            else:
                total += max(self.ting_evs(hold, dead, community, fa_bet))
        return total / n

    # -- steps 6-9 ---------------------------------------------------------
    def _draw_options(self, hand: tuple[int, ...], dead: tuple[int, ...],
                      dd: float) -> list[tuple[str, tuple, float, float]]:
        """[(action, discard, bet, ev)] in the solver's canonical order."""
        c, x = self.config, self.number
        options = []
        level = self.level(hand, 0)
        if level:
            options.append(("claim", (), 0.0, (1 + x(dd)) * x(c.di_hu_flush if level == 2 else c.di_hu)))
        options.append(("fold", (), 0.0, -1 - x(dd)))
        holds = sorted(set(combinations(hand, 4)))
        for fa_bet in c.fa_hu_bets:
            for hold in holds:
                discard = self.without(hand, hold)
                value = self.fa_value(hold, tuple(sorted(dead + discard)), fa_bet)
                options.append(("bet", discard, fa_bet, value - x(dd)))
        return options

    # -- steps 3-5 ---------------------------------------------------------
    def _deal_options(self, hand: tuple[int, ...],
                      shown: tuple[int, ...] = ()) -> list[tuple[str, tuple, float, float]]:
        """[(action, discard, bet, ev)]; ``shown``: cards other seats showed, dead to the player."""
        c, x = self.config, self.number
        options = []
        level = self.level(hand, 0)
        if level:
            options.append(("claim", (), 0.0, x(c.tian_hu_flush if level == 2 else c.tian_hu)))
        discards = sorted(set(combinations(hand, 2)))
        draws = list(combinations(self.rest(hand + shown, False), 2))
        for dd in (0.0, c.double_down):
            for discard in discards:
                kept = self.without(hand, discard)
                total = x(0)
                for draw in draws:
                    after = tuple(sorted(kept + draw))
                    dead = tuple(sorted(discard + shown))
                    total += max(ev for _, _, _, ev in self.draw_options(after, dead, dd))
                options.append(("discard", discard, dd, total / len(draws)))
        return options

    def game_ev(self) -> float | Fraction:
        """Expected net result of a whole hand under optimal play (a Fraction when exact)."""
        total = self.number(0)
        n = 0
        for deal in combinations(self.deck, 6):
            n += 1
            total += max(ev for _, _, _, ev in self.deal_options(tuple(sorted(deal))))
        return total / n

    # -- outcome frequencies of this enumerator's own optimal strategy ----
    def choose(self, options: list[tuple], risks: list[float], hand: tuple[int, ...],
               dead: tuple[int, ...] = ()) -> int:
        """docs/rules.md, "Information and optimal play": best EV; ties within 1e-12 to less money at risk, then to
        the first in the canonical order of the state's symmetry representative (as the solver documents:
        the order must not depend on how the suits happen to be labelled)."""
        evs = [o[3] for o in options]
        top = max(evs)
        tied = [i for i, ev in enumerate(evs) if ev >= top - 1e-12]
        (c_hand, _), mapping = canonical(self.geometry, hand, dead)

        def order(option: tuple) -> tuple:
            action, discard, bet, _ = option
            thrown = tuple(sorted(int(mapping[c]) for c in discard))
            cards = thrown if not dead else self.without(c_hand, thrown)
            return ({"claim": 0, "fold": 1}.get(action, 2), bet, cards)

        return min(tied, key=lambda i: (risks[i], order(options[i])))

    def outcome_probabilities(self) -> Counter:
        """Exact probability of every final outcome (kind, DD, F, G) under optimal play,
        counting physical card combinations at every step."""
        deals = list(combinations(self.deck, 6))
        total: Counter = Counter()
        for deal in deals:
            for outcome, p in self._deal_outcomes(tuple(sorted(deal))).items():
                total[outcome] += p / len(deals)
        return total

    def _deal_outcomes(self, hand: tuple[int, ...]) -> Counter:
        options = self.deal_options(hand)
        kind, discard, dd, _ = options[self.choose(options, [1.0 if o[0] == "claim" else 1.0 + o[2] for o in options],
                                                   hand)]
        if kind == "claim":
            return Counter({("tian_hu_flush" if self.level(hand, 0) == 2 else "tian_hu", 0.0, 0.0, 0.0): Fraction(1)})
        kept = self.without(hand, discard)
        draws = list(combinations(self.rest(hand, False), 2))
        out: Counter = Counter()
        for draw in draws:
            for outcome, p in self._draw_outcomes(tuple(sorted(kept + draw)), discard, dd).items():
                out[outcome] += p / len(draws)
        return out

    def _draw_outcomes(self, hand: tuple[int, ...], dead: tuple[int, ...], dd: float) -> Counter:
        options = self.draw_options(hand, dead, dd)
        kind, discard, fa, _ = options[self.choose(options, [1.0 + dd + o[2] for o in options], hand, dead)]
        if kind == "claim":
            return Counter({("di_hu_flush" if self.level(hand, 0) == 2 else "di_hu", dd, 0.0, 0.0): Fraction(1)})
        if kind == "fold":
            return Counter({("fold_fa", dd, 0.0, 0.0): Fraction(1)})
        hold = self.without(hand, discard)
        dead = tuple(sorted(dead + discard))
        fours = list(combinations(self.rest(hold + dead, True), 4))
        out: Counter = Counter()
        for four in fours:
            community = tuple(sorted(four))
            level = self.level(hold + community, 0)
            if level:
                out[("fa_hu_flush" if level == 2 else "fa_hu", dd, fa, 0.0)] += Fraction(1, len(fours))
                continue
            bets = [0.0] + [m * fa for m in self.config.ting_hu_multiples]
            ting = [("bet", (), b, ev) for b, ev in zip(bets, self.ting_evs(hold, dead, community, fa))]
            g = bets[self.choose(ting, [1.0 + dd + fa + b for b in bets], hold)]
            if g == 0.0:
                out[("fold_ting", dd, fa, 0.0)] += Fraction(1, len(fours))
                continue
            twos = list(combinations(self.rest(hold + dead + community, True), 2))
            for two in twos:
                level = self.level(tuple(sorted(hold)) + tuple(sorted(community + two)), 4)
                kind = {0: "ting_lose", 1: "ting_hu", 2: "ting_hu_flush"}[level]
                out[(kind, dd, fa, g)] += Fraction(1, len(fours) * len(twos))
        return out
