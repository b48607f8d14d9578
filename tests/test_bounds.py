"""A ting-payout variant near solved ones walks only the stage-A rows that can be some state's best, and its
figures and every table but holds.parquet are a whole solve's, bit for bit."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from solver.errors import InputError
from solver.game.config import DEAL_PAYOUTS, STEP11_PAYOUTS, GameConfig, load_config
from solver.staged.bounds import (
    FOLD,
    TOLERANCE,
    _left,
    _mark_needed,
    _refine,
    _row_bounds,
    bets_near,
    brackets,
    find_bounds,
    find_refiners,
    near,
    needed_keys,
    sizes_near,
)
from solver.staged.chunks import stage_arrays_ready
from solver.staged.column_store import store_folder, stored_rows
from solver.staged.forward import decode_rows
from solver.staged.run import solve
from solver.tables.files import bounded_stage_a, content_digest, read_metadata

ROOT = Path(__file__).parent.parent
THREE_COPIES = load_config(ROOT / "configs" / "three-copies-3x4.toml")
SMALL = GameConfig(suits=2, ranks=4, copies=3, jokers=1)  # three copies, as the real deck: quick to solve
MID = replace(SMALL, ting_hu=1.5)
MIXED = replace(SMALL, ting_hu=1.5, ting_hu_fa=1.25, ting_hu_flush=1.25)  # against 1.25: two up, one down
MULTIPLES = replace(SMALL, ting_hu=1.5, ting_hu_multiples=(1.0, 4.0))  # a larger ting bet: its value rises
BETS = replace(MID, fa_hu_bets=(1.0, 2.0, 3.0))  # another fa-hu bet, above MID's
SMALLEST = replace(MID, ting_hu_multiples=(2.0, 3.0))  # a larger smallest ting bet: its value falls
SIZES = replace(BETS, ting_hu=1.75)  # another fa-hu bet and a larger ting payout
WHOLE = {"low": replace(SMALL, ting_hu=1.25), "high": replace(SMALL, ting_hu=1.75), "whole": MID, "mixed": MIXED,
         "multiples": MULTIPLES, "bets": BETS, "bets-1-3": replace(MID, fa_hu_bets=(1.0, 3.0)),
         "smallest": SMALLEST, "sizes": SIZES, "bets-below": replace(MID, fa_hu_bets=(0.5, 3.0)),
         "step11": replace(MID, fa_hu=0.75, fa_hu_flush=2.5, tian_hu=4.0)}
"""The whole solves, by name."""


def test_brackets_only_a_variant_of_the_ting_win_payouts_between_them() -> None:
    low, mid, high = (replace(THREE_COPIES, ting_hu=v) for v in (1.25, 1.5, 1.75))
    assert brackets(low, mid, high) and not brackets(high, mid, low)
    assert brackets(low, replace(mid, ting_hu_flush=2.0), replace(high, ting_hu_flush=2.0))
    assert not brackets(low, replace(mid, copies=2), high)  # another deck
    assert brackets(low, replace(mid, tian_hu=4.0), high)  # a deal payout: no row, no state's best bet moves
    assert brackets(low, replace(mid, fa_hu=3.0), high)  # a step-11 payout: each row moves by exact counts
    assert not bets_near(low, replace(low, fa_hu=3.0, fa_hu_bets=(1.0, 3.0)))  # its values not given exactly
    assert bets_near(low, replace(low, tian_hu=4.0, fa_hu_bets=(1.0, 3.0)))
    assert brackets(low, replace(mid, ting_hu_multiples=(1.0, 3.0)), high)  # the middle multiple: never best
    assert not brackets(low, replace(mid, ting_hu_multiples=(1.0, 4.0)), high)  # a larger G than high's
    assert near(high, mid) and near(low, replace(mid, ting_hu_flush=1.0))  # one side, or both ways
    assert near(low, replace(mid, ting_hu_multiples=(1.0, 4.0)))
    assert near(mid, replace(mid, ting_hu_multiples=(2.0, 3.0)))  # the smallest bet, alone
    assert near(low, replace(mid, ting_hu_multiples=(2.0, 3.0)))  # with a payout too
    assert near(low, replace(mid, fa_hu=3.0)) and not near(low, replace(mid, fa_hu_bets=(1.0, 3.0)))
    assert not near(low, replace(mid, bonus_hu=20.0))  # a rule the bounds do not cover
    sized = replace(mid, fa_hu_bets=(1.0, 3.0))
    assert sizes_near(low, sized) and not bets_near(low, sized) and bets_near(mid, sized)
    assert sizes_near(low, replace(sized, fa_hu=3.0)) and sizes_near(low, replace(mid, fa_hu_bets=(0.5, 2.0)))
    assert not sizes_near(low, replace(sized, bonus_hu=20.0))
    assert sizes_near(low, replace(sized, ting_hu_multiples=(2.0, 3.0)))  # the smallest, with a payout


BOUNDED = {"bounded": (MID, ("low", "high"), "whole"), "above-low": (MID, ("low",), "whole"),
           "below-high": (MID, ("high",), "whole"), "mixed-bounded": (MIXED, ("low",), "mixed"),
           "multiples-bounded": (MULTIPLES, ("whole",), "multiples"), "bets-bounded": (BETS, ("whole",), "bets"),
           "smallest-bounded": (SMALLEST, ("whole",), "smallest"), "bets-between": (BETS, ("bets-1-3",), "bets"),
           "sizes-bounded": (SIZES, ("whole",), "sizes"),
           "smallest-mixed-bounded": (SMALLEST, ("low",), "smallest"),
           "bets-below-bounded": (WHOLE["bets-below"], ("whole",), "bets-below"),
           "step11-bounded": (WHOLE["step11"], ("low",), "step11")}
"""The bounded solves: a variant, the whole solves that bound it, and its own whole solve."""
APART = {"step11": "apart/step11", "step11-bounded": "apart/step11-bounded"}
"""Solves kept out of the others' folder, where ``find_bounds`` would take them (the step-11 solve's values move
exactly to MID's)."""


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> dict[str, Path]:
    """On a small deck with the real deck's three copies of each card: whole solves of ting_hu 1.25 and 1.75
    (the first fills the store), of 1.5 and of :data:`MIXED`; and :data:`BOUNDED`'s."""
    root = tmp_path_factory.mktemp("bounds")
    store = root / "store"
    out = {}
    for name, config in WHOLE.items():
        out[name] = root / APART.get(name, name)
        solve(config, out[name], n_jobs=2, quiet=True, column_store=store, index=False)
    for name, (config, bounds, _) in BOUNDED.items():
        out[name] = root / APART.get(name, name)
        solve(config, out[name], n_jobs=2, quiet=True, column_store=store, index=False,
              bounds=tuple(out[b] for b in bounds))
    return out


@pytest.mark.parametrize("name", BOUNDED)
def test_a_bounded_variant_is_a_whole_solve_but_for_the_rows_it_did_not_walk(solved: dict[str, Path],
                                                                            name: str) -> None:
    whole, bounded = solved[BOUNDED[name][2]], solved[name]
    walks = name != "bets-between"  # bets 1/2/3 beside 1/3: every row that can be best is read from it
    for name in ("summary.parquet", "outcomes.parquet", "deals.parquet", "firsts.parquet", "draws.parquet",
                 "tracking.parquet"):
        assert content_digest(bounded / name) == content_digest(whole / name), name
    rows = pq.read_table(bounded / "holds.parquet")
    every = pq.read_table(whole / "holds.parquet")
    keys, all_keys = rows["key"].to_numpy(), every["key"].to_numpy()
    assert (0 < len(keys)) == walks and len(keys) < len(all_keys)  # some rows ruled out
    place = np.searchsorted(all_keys, keys)
    assert np.array_equal(all_keys[place], keys)
    for column in ("evs", "ev_minimum_bets", "step11", "ting_gains", "ting_wins"):
        assert rows[column].to_pylist() == every[column].take(place).to_pylist(), column
    assert read_metadata(bounded / "holds.parquet")["bounded_by"]
    assert "bounded_by" not in read_metadata(whole / "holds.parquet")


def test_bounds_are_found_among_finished_solves_and_a_bounded_one_serves_no_other(solved: dict[str, Path]) -> None:
    root = solved["low"].parent
    mid = replace(SMALL, ting_hu=1.5)
    assert find_bounds(mid, root) == (solved["low"], solved["high"])
    assert find_bounds(replace(SMALL, ting_hu=2.0), root) == (solved["high"],)  # the nearest, all below it
    assert find_bounds(replace(SMALL, ting_hu=1.0), root) == (solved["low"],)
    assert find_bounds(replace(mid, ting_hu_flush=1.375), root) == (solved["whole"],)  # the nearest above
    assert find_bounds(replace(mid, copies=2), root) is None
    assert find_bounds(replace(mid, fa_hu=3.0), root) == (solved["whole"],)
    assert find_bounds(replace(mid, tian_hu=4.0), root) == (solved["whole"],)  # its values: once, not twice
    assert find_bounds(replace(mid, tian_hu=4.0, ting_hu=1.375), root) == (solved["low"], solved["whole"])
    assert find_bounds(replace(mid, fa_hu_bets=(1.0, 2.0, 4.0)), root) == (solved["bets"],)  # the nearest bets
    assert find_bounds(replace(mid, fa_hu_bets=(1.0, 2.5)), root) == (solved["bets"],)  # between its bets
    assert find_bounds(replace(mid, fa_hu_bets=(0.5, 2.0)), root) == (solved["bets"],)  # below its smallest
    # other bets and payouts: the nearest of those, since none has its bets or its payouts
    assert find_bounds(replace(SIZES, ting_hu=2.0, fa_hu_bets=(1.0, 2.0, 4.0)), root) == (solved["sizes"],)
    assert find_bounds(replace(SIZES, ting_hu=2.0, fa_hu_bets=(0.25, 1.0)), root) == (solved["sizes"],)
    with pytest.raises(ValueError, match="do not bound"):  # another rule differs too
        _row_bounds(replace(mid, copies=2, fa_hu_bets=(1.0, 3.0)), [solved["whole"]], root / "store")
    with pytest.raises(InputError, match="bounded"):
        solve(replace(mid, tian_hu=4.0), root / "reads-bounded", holds_from=solved["bounded"], quiet=True)


@pytest.mark.parametrize("config, exact, bounds", [
    (MID, "whole", ("low",)), (MID, "whole", ("high",)), (MID, "whole", ("low", "high")),
    (MIXED, "mixed", ("low",)), (MIXED, "mixed", ("high",)), (replace(SMALL, ting_hu=1.25), "low", ("high",)),
    (MULTIPLES, "multiples", ("whole",)), (MULTIPLES, "multiples", ("low",)), (MID, "whole", ("multiples",)),
    (BETS, "bets", ("whole",)), (WHOLE["bets-1-3"], "bets", ("whole",)), (MID, "whole", ("bets-1-3",)),
    (BETS, "bets", ("bets-1-3",)),
    (SMALLEST, "smallest", ("whole",)), (MID, "whole", ("smallest",)), (MID, "whole", ("smallest", "multiples")),
    # other bets and payouts: a new bet above (ratios, and chords beyond them) or between (chords), payouts
    # rising or falling, the largest or the smallest multiple
    (SIZES, "sizes", ("whole",)), (SIZES, "sizes", ("bets-1-3",)), (BETS, "bets", ("low",)),
    (BETS, "bets", ("high",)), (WHOLE["bets-1-3"], "bets", ("multiples",)), (BETS, "bets", ("smallest",)),
    (WHOLE["bets-1-3"], "bets", ("sizes",)),
    # the smallest multiple with a ting payout (rising with it, or against it) or other bets
    (SMALLEST, "smallest", ("low",)), (SMALLEST, "smallest", ("high",)), (WHOLE["low"], "low", ("smallest",)),
    (SMALLEST, "smallest", ("mixed",)), (SIZES, "sizes", ("smallest",)),
    # a bet below every solved one: the chord from F = 0; with other payouts too
    (WHOLE["bets-below"], "bets-below", ("whole",)), (WHOLE["bets-below"], "bets-below", ("bets",)),
    (WHOLE["bets-below"], "bets-below", ("low",)), (WHOLE["bets-below"], "bets-below", ("smallest",)),
    # other step-11 and deal payouts: each row moved by its step-11 counts; with other ting payouts, other bets
    (WHOLE["step11"], "step11", ("low",)), (WHOLE["step11"], "step11", ("high", "low")),
    (WHOLE["step11"], "step11", ("bets",)), (WHOLE["low"], "low", ("step11",))])
def test_the_bounds_hold_row_by_row(solved: dict[str, Path], config: GameConfig, exact: str,
                                    bounds: tuple[str, ...]) -> None:
    """Every stage-A row's value at its best fa-hu bet lies within the bounds the solves give (which are not
    the values themselves: the rows' values are not read from the variant's solve). ``exact``: a whole solve
    with every fa-hu bet of ``config``."""
    keys, low, high, given = _row_bounds(config, [solved[b] for b in bounds], solved["low"].parent / "store")
    table = pq.read_table(solved[exact] / "holds.parquet", columns=["key", "evs"])
    assert np.array_equal(keys, table["key"].to_numpy())
    bets = [WHOLE[exact].fa_hu_bets.index(f) for f in config.fa_hu_bets]
    value = np.array(table["evs"].to_pylist())[:, bets].max(axis=1)
    assert (low <= value + 1e-12).all() and (value <= high + 1e-12).all()
    if any(_moved_exactly(WHOLE[b], config) for b in bounds):
        assert np.abs(high - value).max() < 1e-12 and np.abs(low - value).max() < 1e-12
    else:
        assert np.isfinite(high).all() and ((high > low).any() or given.mean() > 0.9)
    # a row the solve gives exactly (its best bet one of the solve's): the variant's value, bit for bit
    assert np.array_equal(low[given], value[given]) and np.array_equal(high[given], value[given])
    solved_bets = WHOLE[bounds[0]].fa_hu_bets
    assert not given.any() or config.fa_hu_bets != solved_bets
    if set(solved_bets) < set(config.fa_hu_bets) and max(config.fa_hu_bets) == max(solved_bets) \
            and bets_near(WHOLE[bounds[0]], config):
        assert given.mean() > 0.9  # a bet between two solved ones is best only where they tie
    if len(bounds) == 2:  # each side the tighter of the two solves'
        for one in bounds:
            _, low1, high1, _ = _row_bounds(config, [solved[one]], solved["low"].parent / "store")
            assert (low >= low1).all() and (high <= high1).all()


REAL = load_config(None)


@pytest.mark.parametrize("hold", [(0, 1, 2, 3), (0, 0, 1, 2), (0, 1, 9, 10)])
@pytest.mark.parametrize("solved, config, tighter", [
    (REAL, replace(REAL, ting_hu=1.5), 0.5), (replace(REAL, ting_hu=1.5), REAL, 0.5),
    (REAL, replace(REAL, ting_hu=3.0), 0.0), (replace(REAL, ting_hu=3.0), REAL, 0.0),
    (REAL, replace(REAL, ting_hu_flush=2.5, ting_hu_multiples=(1.0, 2.0, 4.0)), 0.0)])
def test_on_the_real_deck_only_communities_that_can_win_on_average_move_at_the_largest_multiple(
        tmp_path: Path, monkeypatch, hold: tuple[int, ...], solved: GameConfig, config: GameConfig,
        tighter: float) -> None:
    """A ting payout moves a community whose ting bet loses on average under every dead set (most of them on
    the real deck; on a small one few lose so much) at the smallest multiple's rate. On real holds against
    every seventh of their dead sets, each bet's value walked under both payouts stays within the bounds, and
    they are never wider than if every live community moved at the largest multiple's rate (the winning ones'
    sums at no dead card taken as unbounded): for a payout half as large again, narrower on most rows (``tighter``;
    a payout three times as large lets nearly every community of a strong hold win on average)."""
    from solver.game.cards import counts_of
    from solver.game.payouts import TingConstants
    from solver.staged import bounds
    from solver.staged.classes import extensions
    from solver.staged.holds import hold_columns, walk

    geometry = REAL.geometry
    dead = np.ascontiguousarray(extensions(geometry, hold, 4)[::7])
    walked = {}
    for c in (solved, config):
        constants = TingConstants.of(c)
        walked[c] = walk(hold_columns(counts_of(hold, geometry), c, constants), dead, c, constants)
    n_bets = len(REAL.fa_hu_bets)
    digits = np.column_stack([np.broadcast_to(hold, (len(dead), 4)), dead])
    keys = digits @ geometry.n_types ** np.arange(7, -1, -1, dtype=np.int64)
    before, after = walked[solved][:, :n_bets], walked[config][:, :n_bets]
    gains, wins = walked[solved][:, n_bets + 3:2 * n_bets + 4], walked[solved][:, 2 * n_bets + 4:]
    fall, rise = bounds._Slopes(solved, config, tmp_path).moves(keys, wins, gains)
    assert (before - fall <= after + 1e-12).all() and (after <= before + rise + 1e-12).all()
    hold_wins = bounds._Slopes._hold_wins
    monkeypatch.setattr(bounds._Slopes, "_hold_wins",
                        lambda self, code: np.r_[hold_wins(self, code)[:2], np.inf, np.inf])
    every_fall, every_rise = bounds._Slopes(solved, config, tmp_path).moves(keys, wins, gains)
    assert (fall <= every_fall).all() and (rise <= every_rise).all()
    assert (fall + rise < every_fall + every_rise - 1e-12).mean() >= tighter


def _moved_exactly(solved: GameConfig, config: GameConfig) -> bool:
    """Whether a solve's values move to a variant's exactly: the largest multiple (by F dm Z+, from the solve's
    ting gains), the step-11 payouts (by their counts), the deal payouts (not at all) and fewer bets may differ."""
    same = {key: getattr(config, key) for key in (*STEP11_PAYOUTS, *DEAL_PAYOUTS)}
    fewer = set(config.fa_hu_bets) <= set(solved.fa_hu_bets)
    return min(config.ting_hu_multiples) == min(solved.ting_hu_multiples) and replace(
        solved, ting_hu_multiples=config.ting_hu_multiples, fa_hu_bets=config.fa_hu_bets if fewer else
        solved.fa_hu_bets, **same) == config


def test_bounded_variants_beside_tighten_the_bounds_on_the_rows_they_walked(solved: dict[str, Path],
                                                                           tmp_path: Path) -> None:
    """A variant between a whole solve (ting_hu 1.25) and bounded variants (1.5) takes the nearest bounded one's
    walked rows as bounds too: still bounds, row by row, tighter ones, so fewer rows to walk; and its figures
    are a whole solve's."""
    root = solved["low"].parent
    store = root / "store"
    config = replace(SMALL, ting_hu=1.375)
    refiners = find_refiners(config, root, [solved["low"]])
    assert refiners == (solved["above-low"],)  # MID's, bounded: the nearest above (the first of equals by name)
    assert find_refiners(config, root, [solved["bets"]]) == ()  # bounds of other bets: none
    assert find_refiners(replace(SMALL, ting_hu=1.45), root, [solved["whole"]]) == ()  # no nearer than MID's own
    assert find_refiners(replace(config, fa_hu_bets=(1.0, 3.0)), root, [solved["bets-1-3"]]) == ()  # none of its bets
    directory = root / "refined-1.375"  # beside the refiners, where a variant's solve finds them
    solve(config, directory, n_jobs=2, quiet=True, column_store=store, index=False, bounds=(solved["low"],))
    solve(config, tmp_path / "whole", n_jobs=2, quiet=True, index=False)
    for name in ("summary.parquet", "outcomes.parquet", "deals.parquet", "firsts.parquet", "draws.parquet",
                 "tracking.parquet"):
        assert content_digest(directory / name) == content_digest(tmp_path / "whole" / name), name
    folder = store_folder(config, store)  # with the solve's best rows counted: the tangent too
    keys, low, high, _ = _row_bounds(config, [solved["low"]], folder)
    tight_low, tight_high = low.copy(), high.copy()
    _refine(config, refiners[0], folder, keys, tight_low, tight_high)
    assert (tight_low >= low).all() and (tight_high <= high).all() and (tight_high - tight_low < high - low).any()
    table = pq.read_table(tmp_path / "whole" / "holds.parquet", columns=["key", "evs"])
    value = np.array(table["evs"].to_pylist()).max(axis=1)
    assert np.array_equal(keys, table["key"].to_numpy())
    assert (tight_low <= value + 1e-12).all() and (value <= tight_high + 1e-12).all()
    rows = stored_rows(folder, "draws")
    loose, _ = needed_keys(config, [solved["low"]], rows["holds"], rows["rows"], folder)
    tight, _ = needed_keys(config, [solved["low"]], rows["holds"], rows["rows"], folder, refiners)
    assert len(tight) < len(loose) and np.isin(tight, loose).all()
    walked = pq.read_table(directory / "holds.parquet", columns=["key"])["key"].to_numpy()
    assert np.array_equal(np.sort(walked), tight)


def test_paytable_bounds_a_variant_between_two_it_has_solved(solved: dict[str, Path], tmp_path: Path) -> None:
    """A paytable run solves the ends of a range whole; a later variant between them is bounded by them, and
    its figures are a whole solve's; a variant of its deal payouts reads its partial stage A, since it
    needs the same rows; a variant of its fa-hu bets is bounded by the solve of its payouts."""
    from solver.products.paytable import VariantSolver, paytable_rows

    solver = VariantSolver(n_jobs=2, quiet=True, root=tmp_path / "variants", column_store=tmp_path / "store")
    ends = paytable_rows(SMALL, {"ting_hu": [1.25, 1.75]}, solver)
    assert all("bounded_by" not in read_metadata(Path(r.summary.directory) / "holds.parquet") for r in ends)
    (middle,) = paytable_rows(SMALL, {"ting_hu": [1.5]}, solver)
    assert read_metadata(Path(middle.summary.directory) / "holds.parquet")["bounded_by"]
    assert content_digest(Path(middle.summary.directory) / "outcomes.parquet") == \
        content_digest(solved["whole"] / "outcomes.parquet")
    (dealt,) = paytable_rows(replace(SMALL, ting_hu=1.5), {"tian_hu": [4.0]}, solver)
    source = json.loads((Path(dealt.summary.directory) / "manifest.json").read_text())["holds_from"]
    assert source == middle.summary.directory and bounded_stage_a(Path(dealt.summary.directory))
    whole = solve(replace(SMALL, ting_hu=1.5, tian_hu=4.0), tmp_path / "dealt", n_jobs=2, quiet=True, index=False)
    for name in ("summary.parquet", "outcomes.parquet", "deals.parquet", "draws.parquet", "tracking.parquet"):
        assert content_digest(Path(dealt.summary.directory) / name) == content_digest(tmp_path / "dealt" / name)
    assert whole.ev_exact == dealt.summary.ev_exact
    (bets,) = paytable_rows(replace(SMALL, ting_hu=1.25), {"fa_hu_bets": [(1.0, 2.0, 3.0)]}, solver)
    (by,) = json.loads(read_metadata(Path(bets.summary.directory) / "holds.parquet")["bounded_by"])
    assert Path(by).name == Path(ends[0].summary.directory).name  # ting_hu 1.25's bets 1/2


def test_a_variant_beside_a_solve_made_without_the_store_fills_it_and_walks_bounded(solved: dict[str, Path],
                                                                                   tmp_path: Path) -> None:
    """Beside a solve made without the column store (as `mahjong-poker solve` makes the main one), a variant
    fills the store first (stage B's rows over the solve's stage-A keys, every hold's payout-free columns),
    then walks only the rows that can be best: the rows a whole solve stores, and its figures."""
    from solver.products.paytable import VariantSolver, paytable_rows
    from solver.staged.column_store import ROW_ARRAYS, store_folder

    base = WHOLE["low"]
    solver = VariantSolver(n_jobs=2, quiet=True, root=tmp_path / "variants", column_store=tmp_path / "store")
    solve(base, solver.directory(base), n_jobs=2, quiet=True, index=False)  # no column store
    said: list[str] = []
    (row,) = paytable_rows(base, {"ting_hu": [1.5]}, solver, said.append)
    share = [line for line in said if "bounds leave" in line]
    assert len(share) == 1 and share[0].startswith("variant 1/1: ting_hu=1.5: bounds leave ")
    variant = Path(row.summary.directory)
    assert json.loads(read_metadata(variant / "holds.parquet")["bounded_by"]) == [str(solver.directory(base))]
    for name in ("summary.parquet", "outcomes.parquet", "draws.parquet", "tracking.parquet"):
        assert content_digest(variant / name) == content_digest(solved["whole"] / name), name
    filled, made = store_folder(base, tmp_path / "store"), store_folder(base, solved["low"].parent / "store")
    for name in ROW_ARRAYS["draws"]:
        assert np.array_equal(np.load(filled / f"draws-{name}.npy"), np.load(made / f"draws-{name}.npy")), name
    assert {p.name for p in made.glob("[0-9]*.npz")} == {p.name for p in filled.glob("[0-9]*.npz")}  # holds'
    assert (filled / f"best-rows-{base.holds_fingerprint()}.npz").exists()  # the solve's best rows, counted
    # a bounded solve's keys are not every row's: it fills no store
    with pytest.raises(ValueError, match="bounds this variant"):
        solve(MID, tmp_path / "refused", n_jobs=1, quiet=True, index=False, column_store=tmp_path / "empty",
              bounds=(solved["bounded"],))
    assert not (store_folder(MID, tmp_path / "empty") / "draws-rows.npy").exists()


def test_a_fill_of_the_store_stopped_midway_resumes(solved: dict[str, Path], tmp_path: Path, monkeypatch) -> None:
    """A bounded solve stopped while it fills the store (every hold's columns stored, stage B's rows not yet)
    stores no rows; run again, it goes on from there and gives a whole solve's figures."""
    from solver.staged import run
    from solver.staged.column_store import store_folder

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    arguments = {"n_jobs": 1, "quiet": True, "index": False, "column_store": tmp_path / "store",
                 "bounds": (solved["low"],)}
    monkeypatch.setattr(run, "_rows_work", stopped)
    with pytest.raises(KeyboardInterrupt):
        solve(MID, tmp_path / "variant", **arguments)
    folder = store_folder(MID, tmp_path / "store")
    assert any(folder.glob("*.npz")) and not any(folder.glob("draws-*.npy"))
    monkeypatch.undo()
    solve(MID, tmp_path / "variant", **arguments)
    assert read_metadata(tmp_path / "variant" / "holds.parquet")["bounded_by"]
    for name in ("summary.parquet", "outcomes.parquet", "draws.parquet", "tracking.parquet"):
        assert content_digest(tmp_path / "variant" / name) == content_digest(solved["whole"] / name), name


@pytest.mark.parametrize("whole", [True, False])
def test_variants_that_share_a_walk_read_or_price_the_first_ones(tmp_path: Path, whole: bool) -> None:
    """Variants of one ting walk (other step-11 and deal payouts) read or price the first one's walk: whole (no
    solve beside them to bound it), or bounded by a solve beside them, its rows those that any of them can need.
    A variant alone with its ting payouts, and other step-11 and deal payouts, is bounded by the nearest solve.
    The figures are whole solves' either way."""
    from solver.products.paytable import VariantSolver, paytable_rows

    solver = VariantSolver(n_jobs=2, quiet=True, root=tmp_path / "variants", column_store=tmp_path / "store")
    if not whole:
        solve(SMALL, solver.directory(SMALL), n_jobs=2, quiet=True, index=False, column_store=tmp_path / "store")
    heard: list[str] = []
    rows = paytable_rows(SMALL, {"ting_hu": [1.5], "fa_hu": [0.75, 1.25], "tian_hu": [4.0, 5.0]}, solver,
                         heard.append)
    first, reads, second, reads_second = (Path(r.summary.directory) for r in rows)
    source = {d: json.loads((d / "manifest.json").read_text())["holds_from"] for d in (reads, second, reads_second)}
    assert source == {reads: str(first), second: str(first), reads_second: str(first)}
    assert bool(read_metadata(first / "holds.parquet").get("bounded_by")) != whole
    if not whole:
        assert "with the rows 1 more of other fa-hu payouts need, to price" in heard[0]
        walked_for = json.loads(read_metadata(first / "holds.parquet")["walked_for"])
        assert walked_for == sorted(replace(SMALL, ting_hu=1.5, fa_hu=f).holds_fingerprint() for f in (0.75, 1.25))
        for directory in (first, second):  # the second's rows: the first's, priced
            bounds = json.loads(read_metadata(directory / "holds.parquet")["bounded_by"])
            assert bounds == [str(solver.directory(SMALL))]
        assert pq.ParquetFile(first / "holds.parquet").metadata.num_rows == \
            pq.ParquetFile(second / "holds.parquet").metadata.num_rows
        assert not (reads / "holds.parquet").exists() and bounded_stage_a(reads)
    (alone,) = paytable_rows(SMALL, {"ting_hu": [1.75], "fa_hu": [0.75], "tian_hu": [4.0]}, solver)
    nearest = first if whole else solver.directory(SMALL)  # a bounded solve bounds no other
    assert json.loads(read_metadata(Path(alone.summary.directory) / "holds.parquet")["bounded_by"]) == [str(nearest)]
    for variant, config in ((alone, replace(SMALL, ting_hu=1.75, fa_hu=0.75, tian_hu=4.0)),
                            (rows[1], replace(SMALL, ting_hu=1.5, fa_hu=0.75, tian_hu=5.0)),
                            (rows[2], replace(SMALL, ting_hu=1.5, fa_hu=1.25, tian_hu=4.0)),
                            (rows[3], replace(SMALL, ting_hu=1.5, fa_hu=1.25, tian_hu=5.0))):
        whole_dir = tmp_path / "whole" / config.fingerprint()
        assert variant.summary.ev_exact == solve(config, whole_dir, n_jobs=2, quiet=True, index=False).ev_exact
        for name in ("summary.parquet", "outcomes.parquet", "deals.parquet", "draws.parquet", "tracking.parquet"):
            assert content_digest(Path(variant.summary.directory) / name) == content_digest(whole_dir / name), name


@pytest.mark.parametrize("most", [0.0, 1.0])
def test_paytable_walks_together_the_variants_bounds_leave_too_much_of(tmp_path: Path, monkeypatch,
                                                                         most: float) -> None:
    """Variants whose bounds leave them more than ``BOUNDED_SHARE`` of stage A walk it together, unbounded;
    the others walk bounded, each alone; the figures are the same either way."""
    from solver.products import paytable
    from solver.products.paytable import VariantSolver, paytable_rows

    solver = VariantSolver(n_jobs=2, quiet=True, root=tmp_path / "variants", column_store=tmp_path / "store")
    paytable_rows(SMALL, {"ting_hu": [1.25, 1.75]}, solver)
    monkeypatch.setattr(paytable, "BOUNDED_SHARE", most)
    said: list[str] = []
    rows = paytable_rows(SMALL, {"ting_hu": [1.5, 2.0]}, solver, said.append)  # in quarters: they can walk together
    together = [line for line in said if "together" in line]
    assert together == (["stage A of 2 variants, walked together"] if most == 0.0 else [])
    for row in rows:
        holds = Path(row.summary.directory) / "holds.parquet"
        assert bool(read_metadata(holds).get("bounded_by")) == (most == 1.0)
    whole = solve(replace(SMALL, ting_hu=1.5), tmp_path / "whole", n_jobs=2, quiet=True, index=False)
    assert rows[0].summary.ev_exact == whole.ev_exact and rows[0].summary.outcomes == whole.outcomes


def test_a_variant_left_alone_by_finished_ones_keeps_its_bounds(tmp_path: Path, monkeypatch) -> None:
    """A later run whose list holds finished variants: a new variant that would walk with them walks
    bounded, since nothing walks with it."""
    from solver.products import paytable
    from solver.products.paytable import VariantSolver, paytable_rows

    def variant_solver() -> VariantSolver:
        return VariantSolver(n_jobs=2, quiet=True, root=tmp_path / "variants", column_store=tmp_path / "store")

    paytable_rows(SMALL, {"ting_hu": [1.25, 1.75]}, variant_solver())
    monkeypatch.setattr(paytable, "BOUNDED_SHARE", 0.0)
    said: list[str] = []
    rows = paytable_rows(SMALL, {"ting_hu": [1.25, 1.5]}, variant_solver(), said.append)
    assert not [line for line in said if "together" in line]  # said only of variants that do walk together
    assert read_metadata(Path(rows[1].summary.directory) / "holds.parquet").get("bounded_by")


def test_a_stage_a_without_ting_wins_is_refused_as_a_source(solved: dict[str, Path], tmp_path: Path) -> None:
    """A holds table written before the ting wins is read by no other solve (its own would lack them)."""
    import shutil

    old = tmp_path / "old"
    shutil.copytree(solved["low"], old)
    table = pq.read_table(old / "holds.parquet")
    pq.write_table(table.drop_columns(["ting_wins"]), old / "holds.parquet")
    with pytest.raises(InputError, match="predates the ting wins"):
        solve(replace(SMALL, ting_hu=1.25, tian_hu=4.0), tmp_path / "reads-old", holds_from=old, quiet=True)
    assert not (tmp_path / "reads-old" / "manifest.json").exists()  # refused before the directory is made


def test_stage_a_chunks_written_before_the_ting_wins_are_walked_again(solved: dict[str, Path], tmp_path: Path,
                                                                     monkeypatch) -> None:
    """A solve stopped under the code before the ting wins (its stage-A chunks lack the column and carry the
    old tag) resumes by walking stage A again, not by merging old chunks with new ones."""
    from solver.staged import run

    real_table, real_tag, real_merge = run._holds_table, run._holds_tag, run.write_parts

    def stop(*args, **kwargs) -> None:  # every chunk written, none merged
        raise KeyboardInterrupt

    monkeypatch.setattr(run, "_holds_table", lambda *args: real_table(*args).drop_columns(["ting_wins"]))
    monkeypatch.setattr(run, "_holds_tag", lambda bounds, above_fold=False: bounds)
    monkeypatch.setattr(run, "write_parts", stop)
    with pytest.raises(KeyboardInterrupt):
        solve(MID, tmp_path / "resumed", n_jobs=1, quiet=True, index=False)
    assert list((tmp_path / "resumed" / "chunks").glob("holds-*.parquet"))
    monkeypatch.setattr(run, "_holds_table", real_table)
    monkeypatch.setattr(run, "_holds_tag", real_tag)
    monkeypatch.setattr(run, "write_parts", real_merge)
    solve(MID, tmp_path / "resumed", n_jobs=1, quiet=True, index=False)
    assert content_digest(tmp_path / "resumed" / "holds.parquet") == content_digest(solved["whole"] / "holds.parquet")


def test_a_chart_of_a_bounded_variant_is_refused(solved: dict[str, Path], capsys) -> None:
    from solver.cli import main

    config = solved["bounded"].parent / "mid.toml"
    config.write_text("[deck]\nsuits = 2\nranks = 4\ncopies = 3\njokers = 1\n\n[payouts]\nting_hu = 1.5\n")
    assert main(["chart", "--config", str(config), "--tables", str(solved["bounded"])]) == 2
    assert "bounded by solves of other ting payouts" in capsys.readouterr().err


@pytest.mark.parametrize("again", ["bounded", "whole"])
@pytest.mark.parametrize("moment", ["before its arrays", "before its table", "after its table"])
def test_a_bounded_solve_stopped_around_stage_a_resumes_right(solved: dict[str, Path], tmp_path: Path,
                                                              monkeypatch, again: str, moment: str) -> None:
    """Stopped before stage A's arrays are saved, after them but before its partial holds.parquet is written
    (a thread writes it while the later stages run), or after that, a bounded solve resumes (bounded again,
    or whole) without taking a partial table for the whole stage A, nor leaving a table it did not write."""
    import time

    from solver.staged import run

    real_save = run.save_stage_arrays

    def stop_saving(directory: Path, name: str, arrays: dict) -> None:
        if name == "holds" and "values" in arrays:
            raise KeyboardInterrupt
        real_save(directory, name, arrays)

    def stop_writing(*args) -> None:
        raise KeyboardInterrupt

    def stop_after_table(solve_job, quiet) -> None:
        for _ in range(600):  # the table is written in a thread: stop once it is there
            if (solve_job.directory / "holds.parquet").exists():
                raise KeyboardInterrupt
            time.sleep(0.05)
        raise AssertionError("holds.parquet never written")

    stops = {"before its arrays": ("save_stage_arrays", stop_saving),
             "before its table": ("_written_later", stop_writing),
             "after its table": ("_stage_draws", stop_after_table)}
    bounds, store, target = (solved["low"],), solved["low"].parent / "store", tmp_path / "stopped"
    monkeypatch.setattr(run, *stops[moment])
    with pytest.raises(KeyboardInterrupt):
        solve(replace(SMALL, ting_hu=1.5), target, n_jobs=1, quiet=True, column_store=store, index=False,
              bounds=bounds)
    arrays = stage_arrays_ready(target, "holds", ("key", "values"))
    assert arrays == (moment != "before its arrays")
    assert (target / "holds.parquet").exists() == (moment == "after its table")
    assert not (target / "summary.parquet").exists()
    monkeypatch.undo()
    solve(replace(SMALL, ting_hu=1.5), target, n_jobs=1, quiet=True, column_store=store, index=False,
          bounds=bounds if again == "bounded" else None)
    names = ["summary.parquet", "outcomes.parquet", "deals.parquet", "firsts.parquet", "tracking.parquet",
             "holds.parquet"]
    same = solved["above-low" if again == "bounded" else "whole"]
    for name in names:
        assert content_digest(target / name) == content_digest(same / name), name
    assert bool(read_metadata(target / "holds.parquet").get("bounded_by")) == (again == "bounded")


@pytest.mark.parametrize("name", ["bounded", "bets-bounded"])
def test_a_variant_of_other_deal_payouts_reads_a_bounded_stage_a_bounded_alike(solved: dict[str, Path],
                                                                             tmp_path: Path, name: str) -> None:
    """A bounded variant's partial stage A is read by a variant of other deal payouts given the same bounds (it
    needs the very rows; those a solve of other bets gives exactly it reads from that solve too): a whole
    solve's figures, and its tables answer as a bounded variant's."""
    from solver.products.query import best_play

    variant, bounds, _ = BOUNDED[name]
    config, store = replace(variant, tian_hu=4.0), solved["low"].parent / "store"
    reads = tmp_path / "reads"
    summary = solve(config, reads, holds_from=solved[name], bounds=tuple(solved[b] for b in bounds),
                    column_store=store, n_jobs=2, quiet=True, index=False)
    whole = solve(config, tmp_path / "whole", n_jobs=2, quiet=True, index=False)
    assert summary.ev_exact == whole.ev_exact
    for table in ("summary.parquet", "outcomes.parquet", "deals.parquet", "firsts.parquet", "draws.parquet",
                  "tracking.parquet"):
        assert content_digest(reads / table) == content_digest(tmp_path / "whole" / table), table
    assert not (reads / "holds.parquet").exists() and bounded_stage_a(reads)
    states = pq.read_table(reads / "draws.parquet", columns=["hand", "dead"]).slice(0, 40).to_pylist()
    answers = [best_play(s["hand"], config, dead=s["dead"], tables=reads) for s in states]
    assert "evaluator" in [a.source for a in answers]  # a hold the bounded sibling did not walk


def test_a_bounded_stage_a_is_read_only_by_a_variant_bounded_alike_that_finds_its_rows(solved: dict[str, Path],
                                                                                       tmp_path: Path,
                                                                                       capsys) -> None:
    """Other bounds, or a bounded stage A that lacks a row the bounds need, are refused; a chart of a variant
    that reads a bounded stage A is refused as a bounded variant's."""
    import shutil

    from solver.cli import main

    store = solved["low"].parent / "store"
    with pytest.raises(InputError, match="bounded alike"):
        solve(replace(MID, tian_hu=4.0), tmp_path / "other", holds_from=solved["bounded"], bounds=(solved["low"],),
              column_store=store, quiet=True)
    short = tmp_path / "short"  # bets 1/2/3 bounded by bets 1/2: the rows it needs are found, not taken as walked
    shutil.copytree(solved["bets-bounded"], short)
    pq.write_table(pq.read_table(short / "holds.parquet").slice(1), short / "holds.parquet")
    with pytest.raises(InputError, match="lacks stage-A rows"):
        solve(replace(BETS, tian_hu=4.0), tmp_path / "reads-short", holds_from=short, bounds=(solved["whole"],),
              column_store=store, quiet=True)
    reads = tmp_path / "reads"
    solve(replace(MID, tian_hu=4.0), reads, holds_from=solved["bounded"], bounds=(solved["low"], solved["high"]),
          column_store=store, n_jobs=2, quiet=True, index=False)
    toml = tmp_path / "dealt.toml"
    toml.write_text("[deck]\nsuits = 2\nranks = 4\ncopies = 3\njokers = 1\n\n[payouts]\nting_hu = 1.5\ntian_hu = 4.0\n")
    assert main(["chart", "--config", str(toml), "--tables", str(reads)]) == 2
    assert "bounded by solves of other ting payouts" in capsys.readouterr().err


def test_a_query_of_a_hold_not_walked_walks_it_as_the_whole_solve_does(solved: dict[str, Path]) -> None:
    from solver.products.query import best_play

    config = replace(SMALL, ting_hu=1.5)
    states = pq.read_table(solved["whole"] / "draws.parquet", columns=["hand", "dead"]).slice(0, 40).to_pylist()
    walked = []
    for state in states:
        bounded = best_play(state["hand"], config, dead=state["dead"], tables=solved["bounded"])
        whole = best_play(state["hand"], config, dead=state["dead"], tables=solved["whole"])
        assert [o.ev for o in bounded.options] == [o.ev for o in whole.options]  # bit for bit
        assert bounded.source == whole.source == "tables" and whole.walked == 0
        walked.append(bounded.walked)
    assert max(walked) > 0  # a state with a hold not walked


def test_only_a_whole_optimal_solve_uses_bounds_or_takes_a_bounded_stage_a_as_done(solved: dict[str, Path],
                                                                                   tmp_path: Path) -> None:
    """A restricted solve given bounds walks stage A whole (it reads more than each state's best); a solve
    without bounds into a finished bounded directory makes stage A whole; another version's solve bounds
    nothing."""
    import shutil

    config, store, bounds = replace(SMALL, ting_hu=1.5), solved["low"].parent / "store", (solved["low"], solved["high"])
    given = solve(config, tmp_path / "given", restriction="minimum-bets", bounds=bounds, column_store=store,
                  n_jobs=1, quiet=True, index=False)
    plain = solve(config, tmp_path / "plain", restriction="minimum-bets", n_jobs=1, quiet=True, index=False)
    assert given.ev_exact == plain.ev_exact and given.outcomes == plain.outcomes
    copy = tmp_path / "copy"
    shutil.copytree(solved["bounded"], copy)
    solve(config, copy, column_store=store, n_jobs=1, quiet=True, index=False)
    assert content_digest(copy / "holds.parquet") == content_digest(solved["whole"] / "holds.parquet")
    manifest = solved["low"] / "manifest.json"
    found = json.loads(manifest.read_text())
    manifest.write_text(json.dumps({**found, "version": "0.0.0"}))
    try:
        assert solved["low"] not in find_bounds(config, solved["low"].parent)  # not the other version's
    finally:
        manifest.write_text(json.dumps(found))


@pytest.mark.parametrize("variant, source", [("bets", "bets-1-3"), ("bets-1-3", "bets")])  # both reach F 3
def test_outcome_counts_of_a_bet_both_solves_have_are_read_from_the_other(solved: dict[str, Path], variant: str,
                                                                          source: str) -> None:
    """A variant bounded by a solve of other fa-hu bets reads that solve's tracking rows of the bets both have
    (renumbered): each is the variant's own walk's row, and some are read."""
    from solver.staged.tracking import _known_tracking, _tracking_index

    bets = WHOLE[variant].fa_hu_bets
    index, sums = _known_tracking(solved[source], bets, WHOLE[source].fa_hu_bets)
    own = pq.read_table(solved[variant] / "tracking.parquet")
    own_index = _tracking_index(own["key"].to_numpy(), own["bet"].to_numpy().astype(np.int64),
                                own["minimum"].to_numpy().astype(np.int64), len(bets))
    common, at_read, at_own = np.intersect1d(index, own_index, return_indices=True)
    assert len(common) > 0 and np.all(np.diff(index) > 0)
    assert np.array_equal(sums[at_read], np.array(own["sums"].to_pylist())[at_own])


def test_exact_values_are_the_solves_read_batch_by_batch(solved: dict[str, Path], monkeypatch) -> None:
    """The rows a solve of other fa-hu bets gives exactly: its values at the bets both have, NaN at the
    others, the same whichever batches its table is read in; a row it lacks is refused."""
    from solver.staged import bounds

    every = pq.read_table(solved["bets"] / "holds.parquet", columns=["key"])["key"].to_numpy()
    keys = every[::7]
    whole = bounds.exact_values(BETS, solved["whole"], keys)
    monkeypatch.setattr(bounds, "ROWS_AT_ONCE", 1000)
    assert np.array_equal(bounds.exact_values(BETS, solved["whole"], keys), whole, equal_nan=True)
    evs = np.array(pq.read_table(solved["bets"] / "holds.parquet", columns=["evs"])["evs"].to_pylist())[::7]
    assert np.array_equal(whole[:, :2], evs[:, :2]) and np.isnan(whole[:, 2]).all()
    with pytest.raises(ValueError, match="lacks"):
        bounds.exact_values(BETS, solved["whole"], np.append(keys, every[-1] + 1))


def test_suited_cards_left_match_the_decoded_keys() -> None:
    """The kernel counting each stage-A key's suited cards against decoding its eight digits."""
    geometry = load_config(None).geometry
    rng = np.random.default_rng(7)
    digits = rng.integers(0, geometry.n_types, size=(5000, 8))
    digits[:50] = geometry.n_types - 1  # jokers everywhere
    keys = digits @ geometry.n_types ** np.arange(7, -1, -1, dtype=np.int64)
    hold, dead = decode_rows(keys, geometry.n_types, (4, 4))
    pool = int(geometry.full_counts()[:geometry.n_suited].sum())
    plain = pool - (hold < geometry.n_suited).sum(axis=1) - (dead < geometry.n_suited).sum(axis=1)
    assert np.array_equal(_left(keys, geometry), plain.astype(float))


def test_rows_marked_needed_match_the_plain_rule() -> None:
    """A state can take a row whose upper bound reaches the best lower bound of its rows and folding: the
    kernel against that rule written state by state."""
    rng = np.random.default_rng(11)
    n_rows, n_states, width = 400, 300, 15
    low = rng.normal(-0.8, 0.5, n_rows)
    high = low + rng.exponential(0.2, n_rows)
    n_holds = rng.integers(1, width + 1, n_states)
    rows = rng.integers(0, n_rows, (n_states, width))
    needed = np.zeros(n_rows, bool)
    _mark_needed(n_holds, rows, low, high, FOLD, TOLERANCE, needed)
    plain = np.zeros(n_rows, bool)
    for s in range(n_states):
        mine = rows[s, :n_holds[s]]
        floor = max(FOLD, low[mine].max())
        plain[mine[high[mine] >= floor - TOLERANCE]] = True
    assert np.array_equal(needed, plain) and 0 < needed.sum() < n_rows


def test_best_rows_are_each_states_best_and_their_counts_price_the_solve(solved: dict[str, Path]) -> None:
    """The rows a variant above a solve took that solve's lower bound from: each post-draw state's row of
    highest value where it beats folding (against a plain loop over the states), whose outcome counts, kept
    once in the store by the variant's bounded solve, give the solve's own values at its payouts and, at the
    variant's, the worth of the solve's decisions: at most the variant's values, and above the solve's."""
    from solver.game.payouts import TingConstants
    from solver.staged.bounds import best_rows, best_rows_path, read_best_rows, strategy_values
    from solver.staged.column_store import store_folder, stored_rows

    store = store_folder(SMALL, solved["low"].parent / "store")
    rows = stored_rows(store, "draws")
    keys, bets = best_rows(solved["low"], rows["holds"], rows["rows"])
    table = pq.read_table(solved["low"] / "holds.parquet", columns=["key", "evs"])
    every, evs = table["key"].to_numpy(), np.array(table["evs"].to_pylist())
    plain = set()
    for n, mine in zip(rows["holds"], rows["rows"]):
        values = evs[mine[:n]].max(axis=1)
        if values.max() > FOLD:
            plain.add(int(mine[:n][np.argmax(values)]))
    at = np.searchsorted(every, keys)
    assert np.array_equal(np.sort(list(plain)), at) and np.array_equal(bets, evs[at].argmax(axis=1))

    found = read_best_rows(best_rows_path(store, WHOLE["low"]))
    assert found is not None and np.array_equal(found[0], keys) and np.array_equal(found[1], bets)
    geometry = SMALL.geometry
    own = strategy_values(keys, bets, found[2], TingConstants.of(WHOLE["low"]), geometry)
    assert np.abs(own - evs[at, bets]).max() < 1e-12
    above = strategy_values(keys, bets, found[2], TingConstants.of(MID), geometry)
    exact = pq.read_table(solved["whole"] / "holds.parquet", columns=["key", "evs"])
    assert np.array_equal(exact["key"].to_numpy(), every)
    assert (above <= np.array(exact["evs"].to_pylist())[at, bets] + 1e-12).all()
    assert (above > own + 1e-9).mean() > 0.5


def test_the_best_rows_counts_read_from_the_solves_tracking_are_those_walked(solved: dict[str, Path],
                                                                            tmp_path: Path, monkeypatch) -> None:
    """The best rows' outcome counts are read from the solve's tracking table where it holds them (the rows its
    strategy reaches), the others walked: the same counts, bit for bit, as walking every one."""
    from solver.game.objective import Objective
    from solver.staged import tracking
    from solver.staged.bounds import best_rows_path, read_best_rows
    from solver.staged.chunks import SolveJob

    store = store_folder(SMALL, solved["low"].parent / "store")
    rows = stored_rows(store, "draws")
    found = read_best_rows(best_rows_path(store, WHOLE["low"]))  # counted by the bounded variants' solves
    assert found is not None and tracking._tracked_for(solved["low"], WHOLE["low"])
    known = tracking._known_tracking(solved["low"], WHOLE["low"].fa_hu_bets)
    wanted = tracking._tracking_index(found[0], found[1].astype(np.int64), np.zeros(len(found[0]), np.int64),
                                      len(WHOLE["low"].fa_hu_bets))
    assert 0 < np.isin(wanted, known[0]).sum() < len(wanted)  # some read, some walked
    assert not tracking._tracked_for(solved["low"], MID)  # another solve's counts are never read
    monkeypatch.setattr(tracking, "_tracked_for", lambda directory, config: False)
    job = SolveJob(WHOLE["low"], Objective(), tmp_path / "walked", store_folder(SMALL, tmp_path / "store"))
    (job.directory / "chunks").mkdir(parents=True)
    tracking.count_best_rows(job, solved["low"], rows["holds"], rows["rows"], quiet=True)
    walked = read_best_rows(best_rows_path(job.column_store, WHOLE["low"]))
    assert all(np.array_equal(a, b) for a, b in zip(found, walked))


def test_the_solves_decisions_leave_a_variant_above_it_fewer_rows(solved: dict[str, Path], monkeypatch) -> None:
    """Of a variant above a solve, the rows the tangent lower bounds leave are fewer than the other bounds leave,
    and include every row that is some state's best (the rows its whole solve holds there)."""
    from solver.staged import bounds
    from solver.staged.column_store import store_folder, stored_rows

    store = store_folder(SMALL, solved["low"].parent / "store")
    rows = stored_rows(store, "draws")
    with_tangent, _ = bounds.needed_keys(MID, [solved["low"]], rows["holds"], rows["rows"], store)
    monkeypatch.setattr(bounds, "read_best_rows", lambda path: None)
    without, _ = bounds.needed_keys(MID, [solved["low"]], rows["holds"], rows["rows"], store)
    assert len(with_tangent) < len(without) and np.isin(with_tangent, without).all()
    best, _ = bounds.best_rows(solved["whole"], rows["holds"], rows["rows"])
    assert np.isin(best, with_tangent).all()
