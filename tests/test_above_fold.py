"""Stage A above folding: rows an upper bound proves worse than folding are not walked.

The bound (:func:`solver.staged.holds._bound_group`) takes each community's weight, W and Wf at the
node of a row's first two dead cards, where they are at their largest. Checked against the plain walk:
every row it walks is the same bit for bit, every row it leaves out is below folding at every bet and
holds a bound at least its value; and a solve that leaves rows out has every table of a whole solve but
holds.parquet, which ``whole`` (and a chart, and paytable's bounds) make the whole solve's.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from solver.errors import InputError
from solver.game.cards import counts_of, format_cards
from solver.game.config import DEFAULT_CONFIG, GameConfig
from solver.game.payouts import TingConstants
from solver.products.chart import build_stage_chart, check_inputs
from solver.products.paytable import VariantSolver
from solver.products.query import best_play
from solver.staged.bounds import FOLD, whole_stage_a
from solver.staged.classes import extensions, group_classes
from solver.staged.forward import decode_rows
from solver.staged.holds import hold_columns, walk, walk_above
from solver.staged.run import load_summary, solve
from solver.tables.files import bound_below_folding, content_digest

# a small deck whose low payouts leave many rows below folding (185,013 of its 957,174 rows)
LOW = GameConfig(suits=3, ranks=6, copies=2, jokers=1, fa_hu_ante=0.0, fa_hu=0.5, fa_hu_flush=0.5,
                 ting_hu_ante=0.0, ting_hu=0.5, ting_hu_flush=0.5)
TABLES = ("summary.parquet", "outcomes.parquet", "deals.parquet", "draws.parquet", "firsts.parquet",
          "tracking.parquet")


def _check_walk(config: GameConfig, holds: list[tuple[int, ...]]) -> int:
    """Walk each hold both ways and check what the walk above folding gives; returns how many rows it left."""
    constants = TingConstants.of(config)
    n_bets = len(config.fa_hu_bets)
    left_out = 0
    for hold in holds:
        columns = hold_columns(counts_of(hold, config.geometry), config, constants)
        dead = extensions(config.geometry, hold, 4)
        exact = walk(columns, dead, config, constants)
        values, below = walk_above(columns, dead, config, constants, FOLD)
        assert np.array_equal(values[~below], exact[~below])
        assert (exact[below, :n_bets] < FOLD).all()
        assert (values[below, :n_bets] < FOLD).all()
        priced = np.r_[0:n_bets + 1, n_bets + 3:values.shape[1]]  # values, ting gains and wins: bounds
        assert (values[below][:, priced] >= exact[below][:, priced]).all()
        assert np.array_equal(values[below, n_bets + 1:n_bets + 3], exact[below, n_bets + 1:n_bets + 3])  # step 11
        left_out += int(below.sum())
    return left_out


def test_walk_above_folding_on_the_real_deck():
    # the first hold of every 270th class: strong ones that leave nothing out, and weak ones
    holds = [tuple(int(c) for c in h) for h in group_classes(DEFAULT_CONFIG.geometry, 4)[::270]]
    assert _check_walk(DEFAULT_CONFIG, holds) > 10_000


def test_walk_above_folding_on_a_small_deck():
    holds = [tuple(int(c) for c in h) for h in group_classes(LOW.geometry, 4)[::40]]
    assert _check_walk(LOW, holds) > 0


def test_walk_above_refuses_a_bonus_bet():
    constants = TingConstants.of(LOW, bonus_bet=1.0)
    hold = (0, 1, 2, 3)
    columns = hold_columns(counts_of(hold, LOW.geometry), LOW, constants)
    with pytest.raises(ValueError, match="bonus"):
        walk_above(columns, extensions(LOW.geometry, hold, 4), LOW, constants, FOLD)


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("above")
    solve(LOW, root / "fast", n_jobs=2, quiet=True)
    solve(LOW, root / "whole", n_jobs=2, quiet=True, whole=True)
    return root / "fast", root / "whole"


def test_a_solve_above_folding_has_the_whole_solves_tables(solved):
    fast, whole = solved
    assert bound_below_folding(fast) and not bound_below_folding(whole)
    bound = pq.read_table(fast / "holds.parquet", columns=["bound"])["bound"].to_numpy()
    assert bound.sum() == 185_013 and len(bound) == 957_174
    for name in TABLES:
        assert content_digest(fast / name) == content_digest(whole / name), name
    assert whole_stage_a(fast) is None and whole_stage_a(whole) is not None  # no bounds from rows left out


def test_pricing_a_stage_a_above_folding_is_refused(solved):
    fast, _ = solved
    with pytest.raises(InputError, match="cannot beat folding"):
        solve(replace(LOW, fa_hu=0.75), fast.parent / "priced", n_jobs=1, quiet=True, holds_from=fast)


def test_whole_walks_the_rows_left_out(solved, tmp_path):
    fast, whole = solved
    copy = tmp_path / "fast"
    shutil.copytree(fast, copy)
    solve(LOW, copy, n_jobs=2, quiet=True, whole=True)
    assert not bound_below_folding(copy)
    for name in ("holds.parquet", *TABLES):
        assert content_digest(copy / name) == content_digest(whole / name), name
    assert not (copy / "chunks").exists()


@pytest.mark.parametrize("reader", ["chart", "paytable"])
def test_a_chart_and_paytable_make_the_stage_a_they_read_whole(solved, tmp_path, reader):
    fast, whole = solved
    copy = tmp_path / "tables"
    shutil.copytree(fast, copy)
    if reader == "chart":
        check_inputs(LOW, copy, n_jobs=2)
    else:
        solver = VariantSolver(n_jobs=2)
        solver.share(copy, LOW)
        assert bound_below_folding(copy)  # not before a variant is about to be solved
        solver.ready([replace(LOW, ting_hu=0.75), replace(LOW, tian_hu=4.0)])  # bounded by it, or reading its best
        assert bound_below_folding(copy)
        solver.ready([replace(LOW, fa_hu=0.75)])  # prices its walk: every row
    assert not bound_below_folding(copy)
    assert content_digest(copy / "holds.parquet") == content_digest(whole / "holds.parquet")


def test_the_draws_list_is_not_built_from_bounds(solved):
    """``build_stage_chart`` at the draw reads every hold's value, so it refuses a stage A above folding (whose
    rows left out hold bounds) rather than rank lines by them; at the deal, which reads only the later stages'
    values, the same as the whole solve's, it builds the whole solve's list."""
    fast, whole = solved
    with pytest.raises(InputError, match="cannot beat folding"):
        build_stage_chart("draw", LOW, fast)
    assert build_stage_chart("deal", LOW, fast) == build_stage_chart("deal", LOW, whole)


def test_a_restricted_strategy_reads_a_stage_a_above_folding(solved, tmp_path):
    # minimum-bets values every row by its smallest bet and multiple: a bound row's is below folding too
    fast, whole = solved
    solve(LOW, tmp_path / "from-fast", restriction="minimum-bets", n_jobs=2, quiet=True, holds_from=fast)
    solve(LOW, tmp_path / "from-whole", restriction="minimum-bets", n_jobs=2, quiet=True, holds_from=whole)
    for name in TABLES:
        assert content_digest(tmp_path / "from-fast" / name) == content_digest(tmp_path / "from-whole" / name), name


def test_best_walks_the_holds_a_solve_left_out_as_the_whole_solve_holds_them(solved, tmp_path, capsys):
    """A draw state holding rows the solve left out below folding is answered from the tables, those rows walked
    now by the solve's walk: every option's EV bit for bit the whole solve's."""
    from solver.cli import main

    fast, whole = solved
    config = tmp_path / "low.toml"
    config.write_text("[deck]\nsuits = 3\nranks = 6\ncopies = 2\njokers = 1\n\n[payouts]\nfa_hu_ante = 0.0\n"
                      "fa_hu = 0.5\nfa_hu_flush = 0.5\nting_hu_ante = 0.0\nting_hu = 0.5\nting_hu_flush = 0.5\n")
    rows = pq.read_table(fast / "holds.parquet", columns=["key", "bound"])
    for key in rows["key"].to_numpy()[rows["bound"].to_numpy()][[1000, 40_000]]:
        (hold, dead), = zip(*decode_rows(np.array([key]), LOW.geometry.n_types, (4, 4)))
        hand, before = format_cards([*hold, *dead[2:]], LOW.geometry), format_cards(list(dead[:2]), LOW.geometry)
        walked, read = (best_play(hand, LOW, dead=before, tables=t) for t in (fast, whole))
        assert walked.source == read.source == "tables" and walked.walked > 0 == read.walked
        assert [o.ev for o in walked.options] == [o.ev for o in read.options] and walked.best == read.best
    assert main(["best", hand, "--dead", before, "--tables", str(fast), "--config", str(config)]) == 0
    assert f"EVs from the tables in {fast}; {walked.walked} holds" in capsys.readouterr().out


def test_a_ting_variant_is_bounded_by_a_solve_above_folding(solved, tmp_path):
    """A variant of the ting win payouts (here one up, one down, and a step-11 payout, which moves each row by
    its exact counts) takes a solve that left rows out below folding as its bounds: a row left out is bounded
    from above by the value, wins and gains of its node of two dead cards
    (:func:`solver.staged.bounds.above_fold_bounds`), and from below by nothing. Every row's bounds hold its
    value at the variant's payouts, the solve stays as it was, and the variant's figures and tables are a whole
    solve's."""
    from solver.staged.bounds import _row_bounds, bounding_stage_a
    from solver.staged.column_store import store_folder

    fast, _ = solved
    config = replace(LOW, ting_hu=0.75, ting_hu_flush=0.25, fa_hu=0.75)
    assert bounding_stage_a(fast, config) == LOW and whole_stage_a(fast) is None
    for other in (replace(config, fa_hu_bets=(1.0, 3.0)), replace(config, ting_hu_multiples=(1.0, 4.0))):
        assert bounding_stage_a(fast, other) is None  # the bets' chords and the largest multiple's move: every row
    bounded = solve(config, tmp_path / "bounded", n_jobs=2, quiet=True, index=False, column_store=tmp_path / "store",
                    bounds=(fast,))
    whole = solve(config, tmp_path / "whole", n_jobs=2, quiet=True, index=False, whole=True)
    assert bound_below_folding(fast) and bounded.ev_exact == whole.ev_exact
    for name in TABLES:
        assert content_digest(tmp_path / "bounded" / name) == content_digest(tmp_path / "whole" / name), name
    keys, low, high, _ = _row_bounds(config, [fast], store_folder(config, tmp_path / "store"))
    table = pq.read_table(tmp_path / "whole" / "holds.parquet", columns=["key", "evs"])
    value = np.array(table["evs"].to_pylist()).max(axis=1)
    assert np.array_equal(keys, table["key"].to_numpy())
    assert (low <= value + 1e-12).all() and (value <= high + 1e-12).all()
    bound = pq.read_table(fast / "holds.parquet", columns=["bound"])["bound"].to_numpy()
    assert np.isneginf(low[bound]).all()
    walked = pq.read_table(tmp_path / "bounded" / "holds.parquet", columns=["key"])["key"].to_numpy()
    assert 0 < len(walked) < len(keys)


def test_paytable_reads_a_stage_a_above_folding_for_a_deal_payout(solved, tmp_path):
    """A variant of the deal payouts reads each post-draw state's best row alone, which a solve above folding has:
    paytable reads that stage A as it is, and the variant's figures and tables are those of a whole solve. The
    base's own payouts (where a search for a house edge starts) leave it as it is too; a chart of the variant
    has the stage A it reads made whole."""
    from solver.products.paytable import paytable_rows
    from solver.tables.files import recorded_source

    fast, _ = solved
    root = tmp_path / "tables"
    main = root / LOW.fingerprint()  # where the base's payouts are found
    shutil.copytree(fast, main)
    solver = VariantSolver(n_jobs=2, quiet=True, root=root, column_store=tmp_path / "store")
    solver.share_beside(root)
    (row,) = paytable_rows(LOW, {"tian_hu": [4.0]}, solver)
    variant = Path(row.summary.directory)
    assert recorded_source(variant)[1] == main and not (variant / "holds.parquet").exists()
    assert solver(LOW).ev_exact == load_summary(fast, LOW).ev_exact
    assert bound_below_folding(main)  # not made whole
    whole = solve(replace(LOW, tian_hu=4.0), tmp_path / "whole", n_jobs=2, quiet=True, index=False, whole=True)
    assert row.summary.ev_exact == whole.ev_exact
    for name in TABLES:
        assert content_digest(variant / name) == content_digest(tmp_path / "whole" / name), name
    check_inputs(replace(LOW, tian_hu=4.0), variant, n_jobs=2)
    assert not bound_below_folding(main) and not bound_below_folding(variant)
    assert content_digest(main / "holds.parquet") == content_digest(solved[1] / "holds.parquet")


def test_only_a_variant_that_reads_every_row_has_a_solve_above_folding_made_whole():
    from solver.products.paytable import _reads_every_row

    reads = {"ting_hu": 0.75, "ting_hu_flush": 1.0, "ting_hu_ante": 0.5}  # bounded by it as it is
    assert not any(_reads_every_row(LOW, replace(LOW, **{key: v})) for key, v in reads.items())
    assert not _reads_every_row(LOW, replace(LOW, ting_hu=0.75, fa_hu=0.75))  # a step-11 move too: exact counts
    assert not _reads_every_row(LOW, replace(LOW, tian_hu=4.0))  # reads each state's best
    assert not _reads_every_row(LOW, replace(LOW, copies=3))  # another deck: nothing of it
    for other in ({"fa_hu": 0.75}, {"ting_hu_multiples": (1.0, 4.0)}, {"ting_hu_multiples": (2.0, 3.0)},
                  {"fa_hu_bets": (1.0, 3.0)}, {"fa_hu_bets": (1.0, 3.0), "ting_hu": 0.75}):
        assert _reads_every_row(LOW, replace(LOW, **other)), other  # prices it, or bounded by every row's own
