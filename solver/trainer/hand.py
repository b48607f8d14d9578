"""One hand of the trainer: dealt from a shuffled deck, walked through the rules in order, settled.

A whole hand follows docs/rules.md, "A hand, step by step": the deal decision
(claim a tian-hu, or double down or not and throw two), the draw of two, the
draw decision (claim a di-hu, fold, or bet F and throw two), four community
cards (a joker turned up is set aside and the next card takes its place), the
automatic win of step 11, the ting decision (fold or bet G), the last two
community cards and the settlement. The settlement is the simulator's:
:class:`solver.game.outcomes.Outcome` names how the hand ended and its net.

A drill hand is a single decision (a :class:`~solver.game.state.State`); it
ends when the player decides, with nothing dealt after.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from solver.errors import InputError
from solver.game.cards import counts_of, format_cards
from solver.game.combinatorics import remove_cards
from solver.game.config import GameConfig
from solver.game.hu_plain import hu_level_plain
from solver.game.options import Stage
from solver.game.outcomes import Outcome
from solver.game.state import State
from solver.runtime.jit import interpreted

DONE = "done"
"""The phase of a hand that is over."""

WHOLE_HANDS = "hands"
"""The mode of a whole hand; a drill's mode is the stage it trains."""


@dataclass(frozen=True)
class Choice:
    """A decision as the player made it: the action, the cards thrown (type indices) and the new bet
    (DD at the deal, F at the draw, G at the ting; 0 otherwise)."""

    action: str
    discard: tuple[int, ...] = ()
    bet: float = 0.0


def shuffled_deck(config: GameConfig, seed_text: str) -> list[int]:
    """The physical deck in a reproducible order: the same text, the same deck (Python's generator
    seeded with a string hashes it with SHA-512, whatever the process)."""
    deck = config.geometry.cards()
    random.Random(seed_text).shuffle(deck)
    return deck


@dataclass
class Hand:
    """A hand in play: the cards the player sees, the bets placed, and what is still to come."""

    number: int
    config: GameConfig
    mode: str
    phase: str
    """The decision in front of the player (a :class:`Stage` value), or :data:`DONE`."""
    cards: tuple[int, ...]
    """The player's cards, sorted: six, then the four kept once the fa-hu bet is placed."""
    deck: list[int] = field(default_factory=list)
    """The cards still to come, next first (a whole hand's only: a drill deals nothing after)."""
    dead: tuple[int, ...] = ()
    community: tuple[int, ...] = ()
    turned_up: list[int] = field(default_factory=list)
    """Every card turned up for the community, jokers set aside included, in order."""
    double_down: float = 0.0
    fa_bet: float = 0.0
    ting_bet: float = 0.0
    bonus: float = 0.0
    review: bool = False
    """A drill situation the player got wrong before, brought back."""
    events: list[str] = field(default_factory=list)
    outcome: Outcome | None = None
    bonus_result: tuple[float, str] | None = None
    """The bonus bet's net (units of T) and what paid it, once settled; None while unsettled or pushed."""

    @classmethod
    def deal(cls, number: int, config: GameConfig, deck: list[int], bonus: float = 0.0) -> Hand:
        """Steps 1-2 of a whole hand: T (and the bonus) bet, six cards dealt from ``deck``."""
        hand = cls(number, config, WHOLE_HANDS, Stage.DEAL.value, tuple(sorted(deck[:6])), list(deck[6:]),
                   bonus=bonus)
        hand.events.append(f"dealt {hand.names(hand.cards)}")
        return hand

    @classmethod
    def drill(cls, number: int, config: GameConfig, state: State, review: bool, story: list[str]) -> Hand:
        """A single decision to train; ``story`` tells how it was reached."""
        return cls(number, config, state.stage.value, state.stage.value, state.hand, dead=state.dead,
                   community=state.community, turned_up=list(state.community), double_down=state.double_down,
                   fa_bet=state.fa_bet, review=review, events=list(story))

    def names(self, cards: tuple[int, ...] | list[int]) -> str:
        """Cards in MPSZ notation."""
        return format_cards(cards, self.config.geometry)

    def situation(self) -> State:
        """What the player knows at the decision in front of him (main game: no bonus in the objective)."""
        if self.phase == DONE:
            raise InputError(f"hand {self.number} is over: it has no decision left")
        return State(Stage(self.phase), self.cards, self.dead, self.community, self.double_down, self.fa_bet)

    def can_claim(self) -> bool:
        """Whether the six cards in hand form a hu that may be claimed now (steps 3 and 6)."""
        return self.phase in (Stage.DEAL, Stage.DRAW) and bool(hu_level_plain(self.cards, self.config.geometry))

    def bet_sizes(self) -> tuple[float, ...]:
        """The bets the decision in front of the player allows: DD, F or G."""
        if self.phase == Stage.DEAL:
            return (0.0, self.config.double_down)
        if self.phase == Stage.DRAW:
            return tuple(self.config.fa_hu_bets)
        if self.phase == Stage.TING:
            return tuple(m * self.fa_bet for m in self.config.ting_hu_multiples)
        return ()

    def check(self, choice: Choice) -> None:
        """Refuse a choice the rules do not allow at this decision, saying why."""
        actions = {Stage.DEAL: ("claim", "discard"), Stage.DRAW: ("claim", "fold", "bet"),
                   Stage.TING: ("fold", "bet")}[Stage(self.phase)]
        if choice.action not in actions:
            raise InputError(f"the {self.phase} decision is one of {', '.join(actions)}, not {choice.action!r}")
        if choice.action == "claim" and not self.can_claim():
            raise InputError(f"{self.names(self.cards)} forms no hu: there is nothing to claim")
        throws = choice.action == "discard" or (choice.action == "bet" and self.phase == Stage.DRAW)
        if throws and len(choice.discard) != 2:
            raise InputError(f"throw exactly two cards here, not {len(choice.discard)}")
        if not throws and choice.discard:
            raise InputError(f"no card is thrown with {choice.action!r} at the {self.phase} decision")
        left = list(self.cards)
        for card in choice.discard:
            if card not in left:
                name, hand, held = self.names((card,)), self.names(self.cards), self.cards.count(card)
                raise InputError(f"the hand {hand} holds {held} {name}, fewer than thrown" if held else
                                 f"{name} is not in the hand {hand}")
            left.remove(card)
        if choice.action in ("discard", "bet") and choice.bet not in self.bet_sizes():
            sizes = ", ".join(f"{b:g}" for b in self.bet_sizes())
            raise InputError(f"the bet at the {self.phase} decision is one of {sizes}, not {choice.bet:g}")
        if choice.action in ("claim", "fold") and choice.bet:
            raise InputError(f"{choice.action!r} places no bet")

    def play(self, choice: Choice) -> None:
        """Carry out a checked choice and deal what follows, up to the next decision or the end."""
        if self.mode != WHOLE_HANDS:
            self.phase = DONE  # a drill is one decision
            return
        {Stage.DEAL: self._play_deal, Stage.DRAW: self._play_draw, Stage.TING: self._play_ting}[
            Stage(self.phase)](choice)

    def _play_deal(self, choice: Choice) -> None:
        if choice.action == "claim":  # step 3
            self._finish("tian_hu_flush" if hu_level_plain(self.cards, self.config.geometry) == 2 else "tian_hu")
            return
        self.double_down = choice.bet  # steps 4-5
        self.dead = tuple(sorted(choice.discard))
        drawn = tuple(self.deck[:2])
        del self.deck[:2]
        self.cards = tuple(sorted(remove_cards(self.cards, choice.discard) + drawn))
        self.events.append(f"threw {self.names(choice.discard)}" + (", doubled down" if self.double_down else "")
                           + f"; drew {self.names(drawn)}")
        self.phase = Stage.DRAW.value

    def _play_draw(self, choice: Choice) -> None:
        geometry = self.config.geometry
        if choice.action == "claim":  # step 6
            self._finish("di_hu_flush" if hu_level_plain(self.cards, geometry) == 2 else "di_hu")
            return
        if choice.action == "fold":  # steps 7-8
            self._finish("fold_fa")
            return
        self.fa_bet = choice.bet  # steps 8-9
        self.cards = remove_cards(self.cards, choice.discard)
        self.dead = tuple(sorted(self.dead + choice.discard))
        self.events.append(f"bet F = {choice.bet:g}, threw {self.names(choice.discard)}")
        self._turn_up(4)  # step 10
        level = hu_level_plain(self.cards + self.community, geometry)
        if level:  # step 11
            self._finish("fa_hu_flush" if level == 2 else "fa_hu")
            return
        self.phase = Stage.TING.value

    def _play_ting(self, choice: Choice) -> None:
        from solver.game.hu import hu_level_with_hand  # compiled kernels: loaded when a hand gets this far

        if choice.action == "fold":  # step 12
            self._finish("fold_ting")
            return
        self.ting_bet = choice.bet
        self.events.append(f"bet G = {choice.bet:g}")
        self._turn_up(2)  # step 13
        geometry = self.config.geometry
        with interpreted():  # one hu test: plain Python answers before numba would start
            level = hu_level_with_hand(counts_of(self.cards, geometry), counts_of(self.community, geometry),
                                       geometry)
        self._finish({2: "ting_hu_flush", 1: "ting_hu"}.get(int(level), "ting_lose"))  # step 14

    def _turn_up(self, n: int) -> None:
        """Steps 10 and 13: ``n`` community cards; a joker turned up is set aside and replaced."""
        joker = self.config.geometry.joker
        dealt: list[int] = []
        while len(dealt) < n:
            card = self.deck.pop(0)
            self.turned_up.append(card)
            if card == joker:
                self.events.append("a joker turned up for the community: set aside, the next card replaces it")
            else:
                dealt.append(card)
        self.community += tuple(dealt)
        self.events.append(f"community: {self.names(dealt)}")

    def _finish(self, kind: str) -> None:
        """The hand ends as ``kind``; the bonus bet is settled (only after a ting bet) or pushes."""
        self.outcome = Outcome(kind, self.double_down, self.fa_bet, self.ting_bet)
        self.phase = DONE
        if self.bonus and self.ting_bet:
            self.bonus_result = bonus_settlement(self.community, self.bonus, self.config)
        self.events.append(f"the hand ends: {self.outcome.label()}, net {self.outcome.net(self.config):+g} T")

    def result(self, chip_value: float = 1.0) -> dict | None:
        """The settlement in units of T and in chips (``chip_value`` chips per T); None while in play."""
        if self.outcome is None:
            return None
        net = self.outcome.net(self.config)
        bonus = {"bet": self.bonus, "settled": self.bonus_result is not None, "net": 0.0,
                 "text": "no bonus bet" if not self.bonus else "pushed (no ting bet)"}
        if self.bonus_result is not None:
            bonus["net"], bonus["text"] = self.bonus_result
        total = net + bonus["net"]
        return {"outcome": self.outcome.label(), "kind": self.outcome.kind, "net": net, "bonus": bonus,
                "total": total, "chip_value": chip_value, "total_chips": total * chip_value,
                "wagered": self.outcome.total_bet() + self.bonus}

    def to_json(self, chip_value: float = 1.0) -> dict:
        """What the page shows of the hand: never the cards still to come."""
        name = self.config.geometry.card_name
        return {
            "hand": self.number, "mode": self.mode, "review": self.review, "phase": self.phase,
            "cards": [name(c) for c in self.cards], "dead": [name(c) for c in self.dead],
            "community": [name(c) for c in self.community], "turned_up": [name(c) for c in self.turned_up],
            "bets": {"T": 1.0, "DD": self.double_down, "F": self.fa_bet, "G": self.ting_bet, "bonus": self.bonus},
            "can_claim": self.can_claim(), "bet_sizes": list(self.bet_sizes()),
            "events": list(self.events), "result": self.result(chip_value),
        }


def bonus_settlement(community: tuple[int, ...], bet: float, config: GameConfig) -> tuple[float, str]:
    """The net of a bonus bet of ``bet`` on the six community cards and what paid it (docs/rules.md,
    "The bonus bet"), from the paytable code of :mod:`solver.game.bonus`."""
    from solver.game.bonus import bonus_mask, paid_parts  # the paytable's own rule for what is paid

    with interpreted():  # one classification: plain Python answers before numba would start
        mask = bonus_mask(counts_of(community, config.geometry), config.geometry)
    names, pays = paid_parts(mask, config)
    if not names:
        return -bet, "no combination: the bonus bet is lost"
    return bet * pays, f"{' + '.join(names)}: pays {pays:g} to 1"
