"""Stage A: one walk per hold over every dead set, against the per-hold evaluator valued set by set.

The evaluator (:func:`solver.evaluator.hold.fa_values`) sums over communities with its own kernel (suit
profiles, no dead-card algebra); the walk updates quadratic forms card by card and counts step-11
wins by inclusion-exclusion. Values must agree to 1e-12, and the tracked outcome counts exactly.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import fields, replace
from pathlib import Path

import numpy as np
import pytest

from solver.evaluator.hold import fa_values, hold_outcomes
from solver.game.cards import counts_of
from solver.game.config import GameConfig
from solver.game.outcomes import Outcome
from solver.game.payouts import TingConstants
from solver.staged import column_store
from solver.staged.classes import extensions
from solver.staged.column_store import store_folder, stored_columns
from solver.staged.holds import (
    HoldColumns,
    _pair_bonus_table,
    hold_columns,
    live_columns,
    price,
    walk,
    walk_variants,
    with_bonus_columns,
)

# bonus payouts single precision cannot hold: the walk keeps the pair nets in double precision for them
ODD = GameConfig(suits=2, ranks=4, copies=2, jokers=1, fa_hu_bets=(1.0, 3.0), fa_hu_ante=0.7, fa_hu=1.3,
                 fa_hu_flush=2.0, ting_hu_multiples=(1.0, 2.5), ting_hu_ante=0.6, ting_hu=1.2, ting_hu_flush=1.7,
                 bonus_hu=15.1, bonus_flush=4.3)
CONFIGS = {
    "one-suit": GameConfig(suits=1, ranks=5, copies=3, jokers=1),
    "two-suits": GameConfig(suits=2, ranks=4, copies=2, jokers=1),
    "two-decks": GameConfig(decks=2, suits=2, ranks=4, copies=1, jokers=1),
    "odd-payouts": ODD,
    "reduced": GameConfig(suits=3, ranks=4, copies=2, jokers=1),
    "three-bets": GameConfig(suits=2, ranks=4, copies=2, jokers=1, fa_hu_bets=(0.5, 1.0, 2.0)),
    # a full wide pass of the fused leaf, and more bets than it takes (walked from a buffer)
    "four-bets": GameConfig(suits=2, ranks=4, copies=2, jokers=1, fa_hu_bets=(0.5, 1.0, 2.0, 3.0),
                            ting_hu_multiples=(1.0, 3.0)),
    "five-bets": GameConfig(suits=2, ranks=4, copies=2, jokers=1, fa_hu_bets=(1.0, 2.0, 3.0, 4.0, 5.0)),
}


def _random_cases(config: GameConfig, holds: int, deads: int, seed: int):
    """Random holds, each with random sorted dead sets (rows in increasing order, jokers last)."""
    g = config.geometry
    rng = random.Random(seed)
    deck = g.cards()
    for _ in range(holds):
        hold = tuple(sorted(rng.sample(deck, 4)))
        rest = list(deck)
        for card in hold:
            rest.remove(card)
        yield hold, np.array(sorted({tuple(sorted(rng.sample(rest, 4))) for _ in range(deads)}), np.int64)


def _unseen(config: GameConfig, hold: tuple[int, ...], dead: np.ndarray) -> np.ndarray:
    g = config.geometry
    return (g.full_counts() - counts_of(hold, g) - counts_of(tuple(int(c) for c in dead), g))[: g.n_suited]


@pytest.mark.parametrize("name", sorted(CONFIGS))
@pytest.mark.parametrize("bonus", [0.0, 5.0])
def test_walk_values_equal_the_evaluator(name: str, bonus: float) -> None:
    config = CONFIGS[name]
    constants = TingConstants.of(config, bonus)
    # a seed of the name's own (str's hash() is salted per process: each run drew other holds)
    for hold, dead in _random_cases(config, 12, 25, seed=zlib.crc32(name.encode()) % 1000):
        columns = hold_columns(counts_of(hold, config.geometry), config, constants)
        values = walk(columns, dead, config, constants)
        minimum = replace(config, fa_hu_bets=config.fa_hu_bets[:1], ting_hu_multiples=config.ting_hu_multiples[:1])
        n = len(config.fa_hu_bets)
        for row, value in zip(dead, values):
            unseen = _unseen(config, hold, row)
            expected = fa_values(counts_of(hold, config.geometry), unseen, config, bonus)
            np.testing.assert_allclose(value[:n], expected, atol=1e-12, rtol=0)
            assert value[n] == pytest.approx(fa_values(counts_of(hold, config.geometry), unseen, minimum, bonus)[0],
                                             abs=1e-12)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_pricing_again_for_other_step11_payouts_is_bit_for_bit_a_walk(name: str) -> None:
    """Stage A's values are priced from the walk's step-11 counts and ting gains (which do not read the
    step-11 payouts): priced again for other step-11 payouts they are exactly what a walk with those
    payouts gives, and priced for the same ones they do not move."""
    config = CONFIGS[name]
    other = replace(config, fa_hu_ante=config.fa_hu_ante + 0.5, fa_hu=config.fa_hu * 1.7 + 0.1,
                    fa_hu_flush=config.fa_hu_flush + 3.0)
    assert other.ting_fingerprint() == config.ting_fingerprint() != replace(config, ting_hu=2.5).ting_fingerprint()
    g = config.geometry
    for hold, dead in _random_cases(config, 6, 25, seed=17):
        counts = counts_of(hold, g)
        values = walk(hold_columns(counts, config, TingConstants.of(config)), dead, config, TingConstants.of(config))
        walked = walk(hold_columns(counts, other, TingConstants.of(other)), dead, other, TingConstants.of(other))
        n = len(config.fa_hu_bets)
        assert (values[:, n + 1:] == walked[:, n + 1:]).all()  # the walk's counts and gains: the same
        assert not np.allclose(values[:, :n + 1], walked[:, :n + 1])
        left = int(g.full_counts()[:g.n_suited].sum()) - sum(c < g.n_suited for c in hold) \
            - (dead < g.n_suited).sum(axis=1)
        for payouts, expected in ((other, walked), (config, values)):
            priced = values.copy()
            priced[:, :n + 1] = np.nan
            price(priced, left, TingConstants.of(payouts))
            assert (priced == expected).all()


def test_walk_over_every_dead_set_of_real_holds() -> None:
    """Real deck: whole walks (every canonical dead set) for a jokerless hold and one with a joker, a
    sample of their rows checked against the evaluator."""
    config = GameConfig()
    g = config.geometry
    constants = TingConstants.of(config)
    rng = random.Random(3)
    for text in ((0, 0, 10, 11), (0, 1, 9, 27)):  # 11m 23p, 12m 1p J (canonical holds)
        dead = extensions(g, text, 4)
        values = walk(hold_columns(counts_of(text, g), config, constants), dead, config, constants)
        for r in rng.sample(range(len(dead)), 6):
            expected = fa_values(counts_of(text, g), _unseen(config, text, dead[r]), config)
            np.testing.assert_allclose(values[r, :len(config.fa_hu_bets)], expected, atol=1e-12, rtol=0)


@pytest.mark.parametrize("tracking", [False, True])
def test_a_walk_over_some_dead_sets_gives_those_rows_of_the_whole_walk(tracking: bool) -> None:
    """A bounded variant's rows and the tracking walk's are sparse, so each node builds only the columns
    that the rows below it read: any share of a hold's dead sets must give exactly those rows of the whole
    walk, bit for bit (a column left unbuilt would be read stale from an earlier node). Real deck, a hold
    with a joker, values and tracked outcome counts with the bonus net."""
    config = GameConfig()
    g = config.geometry
    constants = TingConstants.of(config, 5.0 if tracking else 0.0)
    hold = (0, 1, 9, 27)  # 12m 1p J
    dead = extensions(g, hold, 4)
    columns = hold_columns(counts_of(hold, g), config, constants, bonus_sums=tracking)
    bets = np.arange(len(dead)) % len(config.fa_hu_bets)
    minimum = np.arange(len(dead)) % 3 == 0

    def walked(rows: np.ndarray) -> np.ndarray:
        if not tracking:
            return walk(columns, dead[rows], config, constants)
        return walk(columns, dead[rows], config, constants, bets[rows], minimum[rows])

    whole = walked(np.arange(len(dead)))
    rng = np.random.default_rng(7)
    for share in (0.01, 0.1, 0.5):
        rows = np.flatnonzero(rng.random(len(dead)) < share)
        assert (walked(rows) == whole[rows]).all()


def _expected_counts(config: GameConfig, hold, row, bet: int, minimum: bool, bonus: float):
    play = replace(config, fa_hu_bets=config.fa_hu_bets[:1], ting_hu_multiples=config.ting_hu_multiples[:1]) \
        if minimum else config
    fa = play.fa_hu_bets[bet]
    return hold_outcomes(counts_of(hold, config.geometry), _unseen(config, hold, row), fa, 0.0, play, bonus), fa, play


@pytest.mark.parametrize("name", ["two-suits", "two-decks", "odd-payouts", "reduced"])
@pytest.mark.parametrize("bonus, minimum", [(0.0, False), (5.0, False), (0.0, True)])
def test_tracked_outcome_counts_equal_the_evaluator_s(name: str, bonus: float, minimum: bool) -> None:
    """The tracking walk's counts of each outcome, exact integers, and the settled bonus net."""
    config = CONFIGS[name]
    constants = TingConstants.of(config, bonus)
    rng = random.Random(11)
    for hold, dead in _random_cases(config, 8, 20, seed=5):
        columns = hold_columns(counts_of(hold, config.geometry), config, constants, bonus_sums=True)
        bets = np.array([0 if minimum else rng.randrange(len(config.fa_hu_bets)) for _ in dead])
        out = walk(columns, dead, config, constants, bets, np.full(len(dead), minimum))
        for row, bet, o in zip(dead, bets, out):
            (expected, bonus_net), fa, play = _expected_counts(config, hold, row, int(bet), minimum, bonus)
            small, large = play.ting_hu_multiples[0] * fa, play.ting_hu_multiples[-1] * fa
            found: dict[Outcome, int] = {}
            for outcome, n in ((Outcome("fa_hu", 0.0, fa), o[0]), (Outcome("fa_hu_flush", 0.0, fa), o[1]),
                               (Outcome("fold_ting", 0.0, fa), o[2]), (Outcome("ting_hu", 0.0, fa, small), o[4]),
                               (Outcome("ting_hu_flush", 0.0, fa, small), o[5]),
                               (Outcome("ting_lose", 0.0, fa, small), o[3] - o[4] - o[5]),
                               (Outcome("ting_hu", 0.0, fa, large), o[7]),
                               (Outcome("ting_hu_flush", 0.0, fa, large), o[8]),
                               (Outcome("ting_lose", 0.0, fa, large), o[6] - o[7] - o[8])):
                assert n == int(n)
                if n:
                    found[outcome] = found.get(outcome, 0) + int(n)
            assert found == expected
            assert o[9] == pytest.approx(bonus_net, rel=1e-12, abs=1e-9)


@pytest.mark.parametrize("name", ["two-suits", "two-decks", "odd-payouts", "reduced"])
def test_ting_wins_are_the_evaluator_s_ting_win_counts_where_every_community_bets(name: str) -> None:
    """The walk's ting wins (``sum w W``, ``sum w Wf`` over the live communities) against the evaluator's
    counts of ting-hu and flush ting-hu wins under payouts so large that every community with a winning
    completion bets (and is live); under the rules' payouts, over fewer communities, they are at most those."""
    config = CONFIGS[name]
    rich = replace(config, ting_hu=1000.0, ting_hu_flush=1000.0)
    n = len(config.fa_hu_bets)
    for hold, dead in _random_cases(config, 6, 12, seed=23):
        counts = counts_of(hold, config.geometry)
        wins = walk(hold_columns(counts, rich, TingConstants.of(rich)), dead, rich, TingConstants.of(rich))
        fewer = walk(hold_columns(counts, config, TingConstants.of(config)), dead, config, TingConstants.of(config))
        for row, walked, pruned in zip(dead, wins[:, 2 * n + 4:], fewer[:, 2 * n + 4:]):
            outcomes, _ = hold_outcomes(counts, _unseen(config, hold, row), rich.fa_hu_bets[0], 0.0, rich)
            expected = [sum(c for o, c in outcomes.items() if o.kind == kind) for kind in ("ting_hu", "ting_hu_flush")]
            assert walked.tolist() == expected
            assert (pruned <= walked).all()


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_the_leaf_without_bonus_terms_equals_the_leaf_with_a_zero_bonus(name: str) -> None:
    """The walk's leaf is compiled once with the bonus terms and once without (which a solve without a
    bonus bet runs): with the bonus columns present and no bonus bet, the first must give the second's
    values, bit for bit where the payouts keep every sum exact (all but the odd payouts)."""
    config = CONFIGS[name]
    constants = TingConstants.of(config)
    for hold, dead in _random_cases(config, 6, 25, seed=29):
        counts = counts_of(hold, config.geometry)
        plain = walk(hold_columns(counts, config, constants), dead, config, constants)
        with_terms = walk(hold_columns(counts, config, constants, bonus_sums=True), dead, config, constants)
        if config is ODD:
            np.testing.assert_allclose(with_terms, plain, atol=1e-12, rtol=0)
        else:
            assert (with_terms == plain).all()


@pytest.mark.parametrize("name", ["two-suits", "three-bets", "four-bets", "five-bets"])
def test_the_fused_leaf_equals_the_buffered_leaf(name: str) -> None:
    """A walk values each leaf in one pass over the communities (two fa-hu bets a pass, or four when there
    are more); variants walked together keep each community's weight, W and Wf in a buffer and apply each
    variant's payouts to it. Under payouts that keep every sum exact the two agree bit for bit. Five bets
    are more than one pass takes, so there the walk takes the buffer too: that case checks only that a
    variant walked beside another gets its own walk's values."""
    config = CONFIGS[name]
    constants = TingConstants.of(config)
    for hold, dead in _random_cases(config, 6, 25, seed=37):
        columns = hold_columns(counts_of(hold, config.geometry), config, constants)
        fused = walk(columns, dead, config, constants)
        for buffered in walk_variants(columns, dead, config, [constants, constants]):
            assert (buffered == fused).all()


def test_pair_nets_are_single_precision_only_when_that_is_exact() -> None:
    hold = counts_of((0, 1, 2, 5), ODD.geometry)
    for config, dtype in ((CONFIGS["two-suits"], np.float32), (ODD, np.float64)):
        assert hold_columns(hold, config, TingConstants.of(config), bonus_sums=True).pair_bonus.dtype == dtype


def test_the_pair_nets_are_symmetric_in_the_last_two_cards() -> None:
    """The bonus net's columns gather the net of last cards a and b once for both orders (one six-card
    community): the table they gather from must say so, on decks of odd bonus payouts too."""
    for config in (*CONFIGS.values(), ODD):
        table = _pair_bonus_table(config)
        assert np.array_equal(table, table.transpose(1, 0, 2))
        assert table.any()


def _assert_same_columns(a: HoldColumns, b: HoldColumns) -> None:
    for field in fields(HoldColumns):
        x, y = getattr(a, field.name), getattr(b, field.name)
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and x.shape == y.shape and (x == y).all(), field.name
            assert y.flags.c_contiguous and y.flags.writeable, field.name
        else:
            assert x == y, field.name


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_a_variant_narrows_the_payout_free_columns_to_the_columns_it_builds(name: str, tmp_path: Path) -> None:
    """A ting-payout or bet-size variant keeps, of a hold's payout-free columns, the communities its
    payouts leave live (and adds the bonus net's): the same arrays, in the same order, as building them
    for its payouts, so its walk is bit for bit a plain solve's. Likewise read back from the store, whose
    file for the hold is written by the first variant; a file that cannot be read, or of another layout, is
    built again."""
    base = CONFIGS[name]
    variants = [base, replace(base, ting_hu=0.17323), replace(base, ting_hu_flush=0.3, ting_hu_multiples=(1.0, 4.0)),
                replace(base, ting_hu=9.0, fa_hu_bets=(1.0, 5.0)), 
                replace(base, ting_hu=0.0, ting_hu_flush=0.0, ting_hu_ante=0.0, ting_hu_fa=0.0)]
    for hold, _ in _random_cases(base, 8, 1, seed=31):
        counts = counts_of(hold, base.geometry)
        free = hold_columns(counts, base, TingConstants.of(base), prune=False)
        path = store_folder(base, tmp_path) / f"{'-'.join(map(str, hold))}.npz"
        for variant in variants:
            assert store_folder(variant, tmp_path) == path.parent  # one store for every paytable
            for bonus in (0.0, 5.0):
                constants = TingConstants.of(variant, bonus)
                for bonus_sums in (False, True):
                    built = hold_columns(counts, variant, constants, bonus_sums)
                    narrowed = live_columns(free, constants)
                    if bonus or bonus_sums:
                        narrowed = with_bonus_columns(narrowed, variant)
                    _assert_same_columns(built, narrowed)
                    _assert_same_columns(built, stored_columns(hold, variant, constants, path.parent, bonus_sums))
                    assert path.exists()
        stored = path.read_bytes()
        constants = TingConstants.of(base, 5.0)
        for damaged in (b"not a store file", stored[:len(stored) // 2]):
            path.write_bytes(damaged)
            _assert_same_columns(hold_columns(counts, base, constants),
                                 stored_columns(hold, base, constants, path.parent))
            assert path.stat().st_size == len(stored)  # stored again (the zip entries carry the time)
        n_suited = base.geometry.n_suited
        square = np.zeros((n_suited * n_suited, free.n_live), np.int8)  # a row for every pair: another layout
        column_store._write(path, replace(free, pair_level=square))
        with np.load(path) as data:
            assert data["pair_level_shape"][0] == n_suited ** 2
        _assert_same_columns(hold_columns(counts, base, constants), stored_columns(hold, base, constants, path.parent))
        with np.load(path) as data:  # stored again, as the store keeps it
            assert data["pair_level_shape"][0] == n_suited * (n_suited + 1) // 2


def test_on_the_real_deck_a_variant_keeps_fewer_communities_than_the_store() -> None:
    """On the real deck most of a hold's communities can never bet under the rules' payouts (on the small
    decks above nearly all can): narrowing the payout-free columns drops those, as building does."""
    config = GameConfig()
    for hold in ((0, 4, 9, 26), (0, 0, 9, 18)):  # 1m 5m 1p 9s: 10,285 of 26,145 live; 1m 1m 1p 1s
        counts = counts_of(hold, config.geometry)
        constants = TingConstants.of(config)
        free = hold_columns(counts, config, constants, prune=False)
        built = hold_columns(counts, config, constants)
        assert built.n_live < 0.7 * free.n_live
        _assert_same_columns(built, live_columns(free, constants))


@pytest.mark.parametrize("block", [1, 7, 2047])
def test_the_columns_do_not_depend_on_how_many_communities_are_found_together(block: int) -> None:
    """Real deck: the columns found in blocks of ``block`` communities (one, a few, one short of the default,
    so that every block boundary falls elsewhere) are bit for bit the default's, pruned and not, for a
    jokerless hold (the hand-card rule applies) and one with a joker."""
    config = GameConfig()
    constants = TingConstants.of(config)
    for text in ((0, 0, 10, 11), (0, 1, 9, 27)):
        counts = counts_of(text, config.geometry)
        for prune in (True, False):
            _assert_same_columns(hold_columns(counts, config, constants, prune=prune, block=block),
                                 hold_columns(counts, config, constants, prune=prune))
