"""The paytable designer: each variant is exactly a plain solve of its payouts, the house edge moves the
way the rules say it must, and the payout found for a target house edge gives it."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from solver.cli import main
from solver.errors import InputError
from solver.game.config import GameConfig, load_config
from solver.products import paytable
from solver.products.paytable import (
    VariantSolver,
    parse_values,
    payout_slope,
    paytable_rows,
    solve_for_target,
    solve_targets,
)
from solver.staged import run
from solver.staged.classes import group_classes
from solver.staged.run import solve
from solver.staged.summary import load_summary
from solver.tables.files import bounded_stage_a, content_digest, holds_file
from solver.tables.index import index_path
from tests.conftest import TWO_SUITS_TOML

TWO_SUITS = GameConfig(suits=2, ranks=4, copies=2, jokers=1)


@pytest.fixture(scope="module")
def variant_solver(tmp_path_factory) -> VariantSolver:
    return VariantSolver(n_jobs=2, quiet=True, root=tmp_path_factory.mktemp("variants"),
                         column_store=tmp_path_factory.mktemp("store"))


def _same_tables(a: Path, b: Path, names: tuple[str, ...]) -> None:
    for name in names:
        assert content_digest(a / name) == content_digest(b / name), name


ROOT = Path(__file__).parent.parent


@pytest.mark.slow
@pytest.mark.parametrize("base", [TWO_SUITS, load_config(ROOT / "configs" / "reduced-3x4.toml"),
                                  load_config(ROOT / "configs" / "three-copies-3x4.toml")],
                         ids=["two-suits", "reduced-3x4", "three-copies-3x4"])
def test_a_variant_is_bit_for_bit_a_plain_solve(base: GameConfig, tmp_path: Path, monkeypatch) -> None:
    """A variant that reads another's stage A (di-hu changed) and one that cannot (ting-hu changed)
    give the tables and the exact figures of a solve from scratch of the same payouts. The two that walk
    their own stage A are solved side by side in worker processes, then the two that read theirs (a solver of
    its own: one that solved some of them before would read them at once)."""
    monkeypatch.setattr(paytable, "VARIANT_MEMORY", 1)  # side by side whatever this machine's memory
    variant_solver = VariantSolver(n_jobs=2, quiet=True, root=tmp_path / "variants", column_store=tmp_path / "store")
    heard: list[str] = []
    rows = paytable_rows(base, {"di_hu": [2.0, 3.0], "ting_hu": [1.0, 1.25]}, variant_solver, heard.append)
    assert [line for line in heard if "at once" in line] == [
        "variants 1, 2 of 4: 2 at once, 1 process(es) each", "variants 3, 4 of 4: 2 at once, 1 process(es) each"]
    assert [r.payouts for r in rows] == [{"di_hu": d, "ting_hu": t} for d in (2.0, 3.0) for t in (1.0, 1.25)]
    for reader, source in ((rows[2], rows[0]), (rows[3], rows[1])):  # di_hu 3 reads di_hu 2's stage A
        manifest = json.loads((Path(reader.summary.directory) / "manifest.json").read_text())
        assert manifest["holds_from"] == source.summary.directory
    for row in (rows[2], rows[3]):
        config = replace(base, **row.payouts)
        plain = solve(config, tmp_path / config.fingerprint(), n_jobs=1, quiet=True)
        assert row.summary.ev_exact == plain.ev_exact and row.summary.outcomes == plain.outcomes
        _same_tables(Path(row.summary.directory), Path(plain.directory),
                     ("deals.parquet", "firsts.parquet", "draws.parquet", "outcomes.parquet"))
    assert (Path(rows[1].summary.directory) / "holds.parquet").exists()  # ting-hu changes stage A: solved anew


@pytest.mark.slow
@pytest.mark.parametrize("base", [TWO_SUITS, load_config(ROOT / "configs" / "reduced-3x4.toml"),
                                  load_config(ROOT / "configs" / "three-copies-3x4.toml")],
                         ids=["two-suits", "reduced-3x4", "three-copies-3x4"])
def test_a_variant_of_the_step11_payouts_prices_the_walk_bit_for_bit(base: GameConfig, tmp_path: Path) -> None:
    """Variants of what a hu at step 11 pays price the first one's walk again instead of solving stage A,
    and give every table (stage A's included) and the exact figures of a solve from scratch; payouts that
    are not multiples of 1/2 (whose sums are rounded) included."""
    variants = VariantSolver(n_jobs=2, quiet=True, root=tmp_path / "variants", column_store=tmp_path / "store")
    rows = paytable_rows(base, {"fa_hu": [base.fa_hu, 1.37], "fa_hu_flush": [base.fa_hu_flush, 7.3]}, variants)
    assert variants.solves == 4
    for row in rows[1:]:
        directory = Path(row.summary.directory)
        manifest = json.loads((directory / "manifest.json").read_text())
        assert manifest["holds_from"] == rows[0].summary.directory and (directory / "holds.parquet").exists()
        config = replace(base, **row.payouts)
        plain = solve(config, tmp_path / config.fingerprint(), n_jobs=1, quiet=True)
        assert row.summary.ev_exact == plain.ev_exact and row.summary.outcomes == plain.outcomes
        _same_tables(directory, Path(plain.directory), ("holds.parquet", "deals.parquet", "firsts.parquet",
                                                        "draws.parquet", "outcomes.parquet"))
    assert rows[3].summary.ev_exact > rows[0].summary.ev_exact


@pytest.mark.parametrize("base", [TWO_SUITS, pytest.param(load_config(ROOT / "configs" / "three-copies-3x4.toml"),
                                                         marks=pytest.mark.slow)],
                         ids=["two-suits", "three-copies-3x4"])
def test_a_variant_of_the_largest_ting_multiple_prices_the_walk_bit_for_bit(base: GameConfig, tmp_path: Path) -> None:
    """The largest ting multiple moves each ting gain by exactly F dm Z+, which the walk's rows give (their
    gain at the first bet less that with the smallest multiple alone), where the sums are exact: its
    variants, with a step-11 payout or not, price the first one's walk and read its outcome counts, and
    give every table (stage A's and the outcome counts' included) of a solve from scratch. Where the sums
    are rounded, a variant of it walks."""
    variants = VariantSolver(n_jobs=2, quiet=True, root=tmp_path / "variants", column_store=tmp_path / "store")
    grid = {"ting_hu_multiples": [(1.0, 2.0, 3.0), (1.0, 2.0, 4.0), (1.0, 1.5)], "fa_hu": [base.fa_hu, 1.25]}
    rows = paytable_rows(base, grid, variants)
    assert len({Path(r.summary.directory) for r in rows}) == 6
    for row in rows[1:]:
        directory = Path(row.summary.directory)
        manifest = json.loads((directory / "manifest.json").read_text())
        assert manifest["holds_from"] == rows[0].summary.directory
        config = replace(base, **row.payouts)
        plain = solve(config, tmp_path / config.fingerprint(), n_jobs=1, quiet=True)
        assert row.summary.ev_exact == plain.ev_exact and row.summary.outcomes == plain.outcomes
        _same_tables(directory, Path(plain.directory), ("holds.parquet", "tracking.parquet", "deals.parquet",
                                                        "firsts.parquet", "draws.parquet", "outcomes.parquet"))
    assert rows[2].summary.ev_exact > rows[0].summary.ev_exact > rows[4].summary.ev_exact  # 4 > 3 > 1.5
    rounded = replace(base, ting_hu=0.17323)
    assert rounded.ting_fingerprint() != replace(rounded, ting_hu_multiples=(1.0, 2.0, 4.0)).ting_fingerprint()
    with pytest.raises(InputError, match="fingerprint"):
        solve(replace(rounded, ting_hu_multiples=(1.0, 2.0, 4.0)), tmp_path / "rounded", quiet=True,
              holds_from=solve(rounded, tmp_path / "rounded-walk", n_jobs=1, quiet=True).directory)


@pytest.mark.slow
@pytest.mark.parametrize("base", [load_config(ROOT / "configs" / "reduced-3x4.toml"),
                                  load_config(ROOT / "configs" / "three-copies-3x4.toml")],
                         ids=["reduced-3x4", "three-copies-3x4"])
def test_variants_of_the_ting_payouts_read_the_column_store_bit_for_bit(base: GameConfig, tmp_path: Path,
                                                                        monkeypatch) -> None:
    """The first variant that walks stage A stores every hold's payout-free columns, and stages B and C's
    rows; the next ones (a ting payout that sums inexactly, other bet sizes) read them and build none, and
    every table, stage A's and the outcome counts' included, is a plain solve's, bit for bit (walked whole:
    the first would bound them, and a bounded variant keeps only some of stage A, tests/test_bounds.py)."""
    monkeypatch.setattr(paytable, "find_bounds", lambda *args, **kwargs: None)
    variants = VariantSolver(n_jobs=2, quiet=True, root=tmp_path / "variants", column_store=tmp_path / "store")
    first = variants(base)
    (store,) = (tmp_path / "store").iterdir()
    files = {path: path.stat().st_mtime_ns for path in store.iterdir()}
    assert len(list(store.glob("*.npz"))) == len(group_classes(base.geometry, 4))
    assert {"draws-rows.npy", "firsts-rows.npy"} <= {path.name for path in files}
    for payouts in ({"ting_hu": 0.17323}, {"ting_hu_multiples": (1.0, 4.0), "ting_hu_flush": 2.5}):
        config = replace(base, **payouts)
        row = variants(config)
        assert {path: path.stat().st_mtime_ns for path in store.iterdir()} == files  # read, not built
        plain = solve(config, tmp_path / config.fingerprint(), n_jobs=1, quiet=True)
        assert row.ev_exact == plain.ev_exact and row.outcomes == plain.outcomes != first.outcomes
        _same_tables(Path(row.directory), Path(plain.directory), ("holds.parquet", "tracking.parquet", "deals.parquet",
                                                                  "firsts.parquet", "draws.parquet",
                                                                  "outcomes.parquet"))


@pytest.mark.slow
@pytest.mark.parametrize("base", [TWO_SUITS, load_config(ROOT / "configs" / "three-copies-3x4.toml")],
                         ids=["two-suits", "three-copies-3x4"])
def test_variants_walked_together_are_bit_for_bit_plain_solves(base: GameConfig, tmp_path: Path,
                                                               monkeypatch) -> None:
    """The variants that walk stage A walk it together where their sums are exact (a ting payout in
    quarters, other bet multiples) and alone where not (a ting payout of 0.17323): each one's every table,
    stage A's included, is a plain solve's, bit for bit, and the solves walk no hold the walk together did.
    Walking together again redoes only the chunks some variant lacks. (Nothing bounded: the solved ones would
    bound the one walked alone, tests/test_bounds.py.)"""
    monkeypatch.setattr(paytable, "find_bounds", lambda *args, **kwargs: None)
    variants = VariantSolver(n_jobs=1, quiet=True, root=tmp_path / "variants", column_store=tmp_path / "store")
    grid = [{"ting_hu": 1.25}, {"ting_hu": 0.17323}, {"ting_hu": 1.5, "ting_hu_multiples": (1.0, 4.0)}, {}]
    configs = [replace(base, **payouts) for payouts in grid]
    variants.walk_together(configs)
    together = [variants.directory(c) for c in configs if c.ting_hu != 0.17323]
    for directory in together:
        assert len(list((directory / "chunks").glob("holds-*.parquet"))) > 1
    assert not variants.directory(configs[1]).exists()
    chunk = sorted((together[0] / "chunks").glob("holds-*.parquet"))[1]
    times = {p: p.stat().st_mtime_ns for d in together for p in (d / "chunks").iterdir()}
    chunk.unlink()
    variants.walk_together(configs)
    redone = {p for d in together for p in (d / "chunks").iterdir() if p.stat().st_mtime_ns != times.get(p)}
    assert redone == {d / "chunks" / chunk.name for d in together}
    walked_alone = set()  # the directories whose solve walks stage A on its own (n_jobs=1: in this process)
    work = run._holds_work

    def spied(solve, chunk):
        walked_alone.add(solve.directory)
        return work(solve, chunk)

    monkeypatch.setattr(run, "_holds_work", spied)
    for config in configs:
        row = variants(config)
        assert not index_path(Path(row.directory)).exists()  # a variant's query index waits for its first query
        plain = solve(config, tmp_path / "plain" / config.fingerprint(), n_jobs=1, quiet=True)
        assert row.ev_exact == plain.ev_exact and row.outcomes == plain.outcomes
        _same_tables(Path(row.directory), Path(plain.directory), ("holds.parquet", "tracking.parquet", "deals.parquet",
                                                                  "firsts.parquet", "draws.parquet",
                                                                  "outcomes.parquet"))
    assert {d for d in walked_alone if d.parent == variants.root} == {variants.directory(configs[1]).absolute()}


@pytest.mark.slow
def test_variants_keep_the_stage_a_their_directory_was_made_for(tmp_path: Path, monkeypatch) -> None:
    """A run stopped after walking its variants together, and finished variants that read another's stage
    A, are solved or read again under another grid: each reads the stage A its directory was made for,
    whatever the new run would have shared, and gives a plain solve's figures."""
    monkeypatch.setattr(paytable, "BOUNDED_SHARE", 0.0)  # walked whole, for others to read
    def variant_solver() -> VariantSolver:
        return VariantSolver(n_jobs=2, quiet=True, root=tmp_path / "variants", column_store=tmp_path / "store")

    variant_solver().walk_together([replace(TWO_SUITS, ting_hu=t, fa_hu=f) for t in (1.25, 1.5) for f in (3.0, 4.0)])
    rows = paytable_rows(TWO_SUITS, {"ting_hu": [1.25, 1.5], "fa_hu": [2.0, 3.0]}, variant_solver())
    paytable_rows(TWO_SUITS, {"ting_hu": [1.25, 1.5], "tian_hu": [4.0, 5.0]}, variant_solver())
    rows += paytable_rows(TWO_SUITS, {"ting_hu": [1.25, 1.5], "tian_hu": [5.0, 6.0]}, variant_solver())
    stopped = next(r for r in rows if r.payouts == {"ting_hu": 1.25, "fa_hu": 3.0})  # walked before it stopped
    sharing = next(r for r in rows if r.payouts == {"ting_hu": 1.25, "tian_hu": 5.0})  # read (1.25, 4)'s stage A
    assert json.loads((Path(sharing.summary.directory) / "manifest.json").read_text())["holds_from"]
    for row in (stopped, sharing):
        config = replace(TWO_SUITS, **row.payouts)
        plain = solve(config, tmp_path / "plain" / config.fingerprint(), n_jobs=1, quiet=True)
        assert row.summary.ev_exact == plain.ev_exact and row.summary.outcomes == plain.outcomes


def test_a_variant_stopped_after_pricing_stage_a_resumes_reading_the_same(tmp_path: Path, monkeypatch) -> None:
    """A step-11 variant stopped once its stage A (priced from another's walk) is written is solved again,
    by a run that knows nothing of the other: it reads the stage A its directory was made for, and gives a
    plain solve's figures."""
    variants = VariantSolver(n_jobs=1, quiet=True, root=tmp_path / "variants")
    base = variants(TWO_SUITS)
    config = replace(TWO_SUITS, fa_hu=1.37)

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(run, "_stage_draws", stopped)
    with pytest.raises(KeyboardInterrupt):
        variants(config)
    directory = variants.directory(config)
    assert (directory / "holds.parquet").exists() and not (directory / "summary.parquet").exists()
    monkeypatch.undo()
    row = VariantSolver(n_jobs=1, quiet=True, root=tmp_path / "variants")(config)
    assert json.loads((directory / "manifest.json").read_text())["holds_from"] == base.directory
    plain = solve(config, tmp_path / "plain", n_jobs=1, quiet=True)
    assert row.ev_exact == plain.ev_exact and row.outcomes == plain.outcomes


def _holds_from(directory: Path) -> str | None:
    return json.loads((directory / "manifest.json").read_text()).get("holds_from")


def test_a_later_run_reads_or_prices_every_whole_solve_beside_it(tmp_path: Path) -> None:
    """Solves an earlier run left in the folder (not the configuration's own) share their stage A with a later
    run's variants: one of other deal payouts reads it, one of other fa-hu payouts prices it, instead of
    walking (bounded by it); each gives every table of a plain solve."""
    def variant_solver() -> VariantSolver:
        return VariantSolver(n_jobs=2, quiet=True, root=tmp_path / "variants", column_store=tmp_path / "store")

    base = replace(TWO_SUITS, ting_hu=1.5)
    earlier = variant_solver()(replace(base, fa_hu=2.5))
    later = variant_solver()
    later.share_beside(tmp_path / "variants")
    rows = paytable_rows(base, {"fa_hu": [2.0, 3.0], "tian_hu": [base.tian_hu, 6.0]}, later)
    assert later.solves == 4
    for row in rows:
        directory = Path(row.summary.directory)
        assert _holds_from(directory) == earlier.directory, row.payouts
        config = replace(base, **row.payouts)
        plain = solve(config, tmp_path / "plain" / config.fingerprint(), n_jobs=1, quiet=True)
        assert row.summary.ev_exact == plain.ev_exact
        assert content_digest(holds_file(directory)) == content_digest(Path(plain.directory) / "holds.parquet")
        _same_tables(directory, Path(plain.directory), ("tracking.parquet", "deals.parquet", "firsts.parquet",
                                                        "draws.parquet", "outcomes.parquet"))


def test_a_target_of_a_fa_hu_payout_walks_once_whole_and_prices_the_walk(tmp_path: Path) -> None:
    """A search over a step-11 payout beside a solve that bounds it walks stage A whole once, then prices that
    walk at each further value, rather than walking each value's bounded rows; the value found is exactly a
    plain solve's."""
    variants = VariantSolver(n_jobs=2, quiet=True, root=tmp_path / "variants", column_store=tmp_path / "store")
    variants(TWO_SUITS)  # beside the base: it bounds every variant of ting_hu 1.5
    base = replace(TWO_SUITS, ting_hu=1.5)
    edges = [solve(replace(base, fa_hu=v), tmp_path / "plain" / str(v), n_jobs=1, quiet=True).house_edge
             for v in (1.0, 3.0)]
    found = solve_for_target(base, "fa_hu", (edges[0] + edges[1]) / 2, variants)
    assert found.value is not None and 1.0 < found.value < 3.0 and found.solves >= 2
    iterates = [d for d in (tmp_path / "variants").iterdir() if d.name != variants.directory(TWO_SUITS).name]
    walked = [d for d in iterates if _holds_from(d) is None]
    assert len(walked) == 1 and not bounded_stage_a(walked[0]) and len(iterates) == found.solves
    assert all(_holds_from(d) == str(walked[0]) for d in iterates if d != walked[0])
    config = replace(base, fa_hu=found.value)
    plain = solve(config, tmp_path / "plain" / "found", n_jobs=1, quiet=True)
    assert load_summary(variants.directory(config), config).ev_exact == plain.ev_exact
    assert plain.house_edge == pytest.approx(found.target, abs=1e-12)


def test_house_edge_is_monotone_in_each_payout(variant_solver: VariantSolver) -> None:
    """A higher payout can only help the player: under the old strategy the EV already rises, and optimal
    play does at least as well. Checked on a deal-stage payout and on a ting payout."""
    for key, values in (("tian_hu", [3.0, 5.0, 7.0]), ("ting_hu_flush", [1.0, 1.5, 3.0])):
        edges = [r.summary.house_edge for r in paytable_rows(TWO_SUITS, {key: values}, variant_solver)]
        assert edges[0] >= edges[1] >= edges[2] and edges[0] > edges[2], (key, edges)


def test_slope_is_the_exact_derivative_of_a_fixed_strategy(variant_solver: VariantSolver) -> None:
    """EV(p) >= EV(p0) + slope (p - p0) (the EV is convex), with equality while the strategy holds."""
    base = variant_solver(TWO_SUITS)
    slope = payout_slope(base, TWO_SUITS, "ting_hu")
    assert slope > 0
    for value in (0.5, 2.0):
        moved = variant_solver(replace(TWO_SUITS, ting_hu=value))
        assert moved.ev_exact >= base.ev_exact + slope * (Fraction(value) - 1) - Fraction(1, 10**12)


def test_target_payout_gives_the_target_house_edge(variant_solver: VariantSolver) -> None:
    at = {v: variant_solver(replace(TWO_SUITS, tian_hu=v)).house_edge for v in (4.0, 8.0)}
    target = (at[4.0] + at[8.0]) / 2
    found = solve_for_target(TWO_SUITS, "tian_hu", target, variant_solver)
    assert found.value is not None and 4.0 < found.value < 8.0
    assert found.house_edge == pytest.approx(target, abs=1e-12) and found.solves <= 6
    variant = replace(TWO_SUITS, tian_hu=found.value)
    check = load_summary(variant_solver.directory(variant), variant)
    assert check.house_edge == pytest.approx(target, abs=1e-12)
    unreachable = solve_for_target(TWO_SUITS, "tian_hu", at[4.0] + 0.5, variant_solver)
    assert unreachable.value is None and "unreachable" in unreachable.note


@pytest.mark.slow
def test_targets_of_one_payout_start_from_each_other(variant_solver: VariantSolver) -> None:
    """Several targets of one payout give the values of searches started from the base, in fewer Newton
    steps, and come back in the order asked."""
    for key, values in (("tian_hu", (4.0, 8.0)), ("ting_hu", (1.0, 2.0))):
        at = {v: variant_solver(replace(TWO_SUITS, **{key: v})).house_edge for v in values}
        low, high = min(at.values()), max(at.values())
        targets = [low + (high - low) * f for f in (0.7, 0.2, 0.45)]
        rows = solve_targets(TWO_SUITS, [key], targets, variant_solver)
        assert [(r.key, r.target) for r in rows] == [(key, t) for t in targets]
        cold = [solve_for_target(TWO_SUITS, key, t, variant_solver) for t in targets]
        for warm, plain in zip(rows, cold):
            assert warm.value == pytest.approx(plain.value, abs=1e-12)
            assert warm.house_edge == pytest.approx(warm.target, abs=1e-12)
        assert sum(r.solves for r in rows) < sum(r.solves for r in cold)


def test_parse_values() -> None:
    assert parse_values("tian_hu", "4:5:0.25") == [4.0, 4.25, 4.5, 4.75, 5.0]
    assert parse_values("ting_hu", "1,1.5") == [1.0, 1.5]
    assert parse_values("ting_hu_multiples", "1/2/3,1/2") == [(1.0, 2.0, 3.0), (1.0, 2.0)]


@pytest.mark.parametrize("arguments, message", [
    (["--vary", "tian_hux=5"], "unknown payout 'tian_hux'"),
    (["--vary", "tian_hu=5:4:1"], "tian_hu=5:4:1: a range needs a positive step and a stop not below its start"),
    (["--vary", "tian_hu=4:5:0"], "tian_hu=4:5:0: a range needs a positive step"),
    (["--vary", "tian_hu=4:x:1"], "cannot read '4:x:1'"),
    (["--vary", "ting_hu=-1"], "must not be negative"),
    (["--vary", "fa_hu_bets=2/1"], "strictly increasing"),
    ([], "at least one --vary"),
    (["--vary", "fa_hu_bets", "--target", "0.02"], "not a single payout"),
    (["--vary", "tian_hu=4", "--vary", "tian_hu=5"], "--vary tian_hu is given twice"),
    (["--vary", "ting_hu=nan,1"], "payouts.ting_hu must be a finite number"),
    (["--vary", "tian_hu=4", "--out", "/dev/null"], "is a file, not a directory"),  # before any solve
    (["--vary", "tian_hu=4:6:0.0001"], "--vary tian_hu=4:6:0.0001 gives 20,001 values, each a solve, more than"),
    (["--vary", "tian_hu=4:6:1e-12"], "gives 2,000,000,000,001 values"),  # refused before they are made
    (["--vary", "tian_hu=4,5,6", "--vary", "di_hu=1,2", "--max-variants", "5"], "gives 6 variants"),
])
def test_bad_variants_are_one_line_errors(arguments: list[str], message: str, tmp_path: Path, capsys) -> None:
    config = tmp_path / "two.toml"
    config.write_text(TWO_SUITS_TOML)
    assert main(["paytable", "--config", str(config), *arguments]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_cli_writes_json_csv_and_plot(tmp_path: Path, capsys, monkeypatch) -> None:
    config = tmp_path / "two.toml"
    config.write_text(TWO_SUITS_TOML)
    monkeypatch.chdir(tmp_path)  # variants go to strategy_tables/<fingerprint> under the working folder
    out = tmp_path / "report"
    assert main(["paytable", "--config", str(config), "--vary", "di_hu=2,3", "--jobs", "2", "--json",
                 "--out", str(out)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [v["di_hu"] for v in data["variants"]] == [2.0, 3.0]
    assert {"house_edge", "element_of_risk", "std_dev", "hit_frequency", "fold_fa_hu"} <= set(data["variants"][0])
    assert (out / "paytable.csv").read_text().splitlines()[0].startswith("di_hu,house_edge")
    assert (out / "paytable-di_hu.svg").exists() and (out / "paytable-di_hu.png").exists()
    assert main(["paytable", "--config", str(config), "--vary", "di_hu=2,3", "--jobs", "2"]) == 0
    text = capsys.readouterr().out
    assert "0 solve(s) run" in text  # solved once, read afterwards
    for variant in data["variants"]:  # the tables column names what --tables takes to query the variant
        assert f"  {Path(variant['tables']).name}\n" in text
    assert main(["paytable", "--config", str(config), "--vary", "di_hu", "--target", "0.02", "--jobs", "2",
                 "--quiet", "--out", str(tmp_path / "targets")]) == 0
    lines = (tmp_path / "targets" / "paytable-targets.csv").read_text().splitlines()
    assert lines[0] == "payout,target,value,house_edge,solves,note" and lines[1].startswith("di_hu,0.02,")
    assert not (tmp_path / "targets" / "paytable.csv").exists()  # no variants listed, no empty file
    assert main(["paytable", "--config", str(config), "--vary", "di_hu", "--target", "0.02", "--jobs", "2",
                 "--quiet", "--out", str(out)]) == 0  # into the first run's folder: its variants' files go
    assert sorted(p.name for p in out.iterdir()) == ["paytable-targets.csv", "paytable.json"]


def test_solve_column_store_keeps_every_holds_columns(tmp_path: Path, monkeypatch, capsys) -> None:
    """`solve --column-store` stores each hold class's payout-free columns in the cache folder, in a folder
    of the deck's columns fingerprint; `paytable --no-column-store` stores none."""
    monkeypatch.setattr("solver.staged.column_store.cache_dir", lambda: tmp_path / "cache")
    config = tmp_path / "two.toml"
    config.write_text(TWO_SUITS_TOML)
    assert main(["solve", "--config", str(config), "--out", str(tmp_path / "tables"), "--column-store", "--jobs", "2",
                 "--quiet"]) == 0
    (store,) = (tmp_path / "cache").iterdir()
    assert store.name.startswith(f"columns-{TWO_SUITS.columns_fingerprint()}-")
    assert len(list(store.glob("*.npz"))) == len(group_classes(TWO_SUITS.geometry, 4))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("solver.staged.column_store.cache_dir", lambda: tmp_path / "other")
    assert main(["paytable", "--config", str(config), "--vary", "ting_hu=1.5", "--jobs", "2", "--quiet",
                 "--no-column-store"]) == 0
    assert "1 solve(s) run" in capsys.readouterr().out and not (tmp_path / "other").exists()
