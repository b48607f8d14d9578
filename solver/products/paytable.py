"""The main game's figures under the payouts a casino might choose, each variant solved exactly.

A *variant* is the base configuration with some payouts replaced. Each one
is a whole solve (:func:`solver.staged.run.solve`) into its own table
directory, ``strategy_tables/<fingerprint>`` as for ``solve --config``, so
its tables answer ``best --tables`` too and a variant solved once is never
solved again. Variants that differ only in the payouts settled before the
fa-hu bet (:data:`solver.game.config.DEAL_PAYOUTS`: tian-hu, di-hu, the
double-down) share stage A, the values of every kept hold against every
dead set, which is most of a solve's time: the first of them solves it and
the others read it. Variants that also differ in what a hu at step 11 pays
(:data:`solver.game.config.STEP11_PAYOUTS`) share its walk, the step-11
counts and ting gains those values are linear combinations of: the others
price it again (:func:`solver.staged.holds.price`). Every variant reads the
outcome counts it shares with the solve it takes stage A from. A variant of
the ting payouts or bet sizes walks stage A again, but reads each hold's
payout-free columns from the store the first such variant filled
(:mod:`solver.staged.column_store`). Every variant reads from that store the
rows stages B and C look up, which depend on the deck alone. A finished
solve an earlier run left in the folder is shared like one of this run's
(:meth:`VariantSolver.share_beside`).

Under a fixed strategy the EV is linear in each payout, and optimal play
takes the best strategy at each value, so the EV is a convex, non-decreasing,
piecewise-linear function of any one payout. :func:`solve_for_target`
finds the payout that gives a target house edge by Newton's method with the
exact slope (the probability-weighted amount that payout multiplies under
the optimal strategy at the current value): on a convex increasing function
the iterates never pass the root after the first step, and on a piecewise-
linear one they reach it exactly once they are on its piece.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import os
import sys
import tomllib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from solver.errors import InputError
from solver.game.config import PAYOUT_KEYS, STEP11_PAYOUTS, GameConfig, config_from_dict, validate
from solver.game.objective import Objective
from solver.game.payouts import TingConstants, sums_exact
from solver.runtime.parallel import work_processes
from solver.staged.bounds import (
    above_fold_bounds,
    find_bounds,
    near,
    recorded_bounds,
    sizes_near,
    whole_stage_a,
)
from solver.staged.summary import Summary
from solver.tables.files import (
    bound_below_folding,
    bounded_stage_a,
    default_directory,
    holds_file,
    read_manifest,
    read_metadata,
    recorded_source,
)

#: The most variants whose stage A is walked together: a leaf's cost per variant falls with each one
#: added up to about eight, and little further (docs/performance.md, "Ting-payout variants walked together").
WALKED_TOGETHER = 8
#: A variant bounded by solves beside it (:mod:`solver.staged.bounds`) walks only the rows they leave, about
#: that share of a walk's time; one that would walk more than this share of stage A walks with the others
#: instead, where eight walked together take about 0.54 of a walk each (docs/performance.md).
BOUNDED_SHARE = 0.5
#: Memory to allow each variant solved beside others: a real-deck variant's solve in one process peaks at
#: 3.2-3.4 GB (docs/performance.md); no more variants run at once than the machine's memory holds so.
VARIANT_MEMORY = 5 * 2**30
#: The payouts that are lists (bet sizes) rather than single numbers.
LIST_KEYS = ("fa_hu_bets", "ting_hu_multiples")


@dataclass(frozen=True)
class VariantRow:
    """One variant's payouts and its exact figures under optimal play."""

    payouts: dict[str, Any]
    """The varied payouts' values in this variant."""
    summary: Summary

    def to_json(self) -> dict[str, Any]:
        """The row as plain data for ``--json``, JSON and CSV files."""
        s = self.summary
        decisions = s.decisions()
        return {
            **{k: list(v) if isinstance(v, tuple) else v for k, v in self.payouts.items()},
            "house_edge": s.house_edge, "house_edge_exact": str(-s.ev_exact), "element_of_risk": s.element_of_risk,
            "average_total_bet": float(s.average_total_bet), "std_dev": s.std_dev,
            "hit_frequency": s.hit_frequency, "fold_fa_hu": decisions["fold_fa_hu"],
            "fold_ting_hu": decisions["fold_ting_hu"], "tables": s.directory,
        }


@dataclass(frozen=True)
class TargetRow:
    """The value of one payout (the others as in the base) that gives a target house edge."""

    key: str
    target: float
    value: float | None
    """None when no non-negative value reaches the target."""
    house_edge: float | None
    """The house edge solved at ``value``."""
    solves: int
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        """The row as plain data for ``--json``, JSON and CSV files."""
        return {"payout": self.key, "target": self.target, "value": self.value, "house_edge": self.house_edge,
                "solves": self.solves, "note": self.note}


def parse_values(key: str, text: str, most: int | None = None) -> list[Any]:
    """The values ``--vary KEY=TEXT`` gives: ``a,b,c``, or ``start:stop:step`` (both ends included);
    for a list payout, alternatives separated by commas and their sizes by ``/`` (``1/2,1/3``). A range
    of more than ``most`` values is refused before any is made."""
    if key not in PAYOUT_KEYS:
        raise InputError(f"--vary: unknown payout {key!r}; payouts: {', '.join(PAYOUT_KEYS)}")
    try:
        if key in LIST_KEYS:
            return [tuple(float(v) for v in part.split("/")) for part in text.split(",")]
        if ":" in text:
            start, stop, step = (Fraction(v) for v in text.split(":"))
            if step <= 0 or stop < start:
                raise InputError(f"--vary {key}={text}: a range needs a positive step and a stop not below its "
                                 "start (start:stop:step)")
            count = int((stop - start) / step) + 1
            if most is not None and count > most:
                raise InputError(f"--vary {key}={text} gives {count:,} values, each a solve, more than "
                                 f"--max-variants {most}: take a coarser step, or raise --max-variants")
            return [float(start + i * step) for i in range(count)]
        return [float(v) for v in text.split(",")]
    except InputError:
        raise
    except ValueError:
        raise InputError(f"--vary {key}: cannot read {text!r} (a,b,c or start:stop:step"
                         + (", list sizes separated by /" if key in LIST_KEYS else "") + ")") from None


def variants(base: GameConfig, grid: dict[str, Sequence[Any]]) -> list[tuple[dict[str, Any], GameConfig]]:
    """Every combination of the grid's values, each applied to ``base`` and checked (exit 2 on a bad one)."""
    keys = list(grid)
    out = []
    for values in itertools.product(*(grid[k] for k in keys)):
        payouts = dict(zip(keys, values))
        try:
            out.append((payouts, validate(replace(base, **payouts))))
        except InputError as error:
            raise InputError(f"--vary {', '.join(f'{k}={v}' for k, v in payouts.items())}: {error}") from None
    return out


class VariantSolver:
    """Solves variants of one base configuration, each once, sharing stage A where the payouts allow, and
    several side by side where the processes allow (:meth:`solve_all`)."""

    def __init__(self, n_jobs: int = -1, quiet: bool = True, backend: str = "loky", scheduler: str | None = None,
                 root: Path | None = None, column_store: bool | Path = True) -> None:
        self.n_jobs, self.quiet, self.backend, self.scheduler, self.root = n_jobs, quiet, backend, scheduler, root
        self.column_store = column_store
        """Whether a variant that walks stage A reads the holds' payout-free columns from the store (and
        stores those it builds), so that the next variant of a ting payout or bet size builds none; a
        folder: the store's root instead of the cache folder (see :func:`solver.staged.run.solve`)."""
        self._stage_a: dict[str, Path] = {}  # by holds fingerprint: the same stage A, read as it is
        self._walks: dict[str, Path] = {}  # by ting fingerprint: the same walk, priced again
        self._covered: dict[str, Path] = {}  # by holds fingerprint: a bounded walk that took its rows in
        self._pending: dict[Path, GameConfig] = {}  # solves offered whose stage A left rows out (:meth:`ready`)
        self.solves = 0

    def directory(self, config: GameConfig) -> Path:
        """Where a variant's tables go: ``root/<fingerprint>``, or the default of ``solve --config``; absolute,
        because the worker processes that solve variants side by side are kept between calls and may have
        been started in another folder (a relative path would send them to solve it again there)."""
        if self.root is not None:
            return (self.root / config.fingerprint()).absolute()
        return default_directory(config, Objective()).absolute()

    def __call__(self, config: GameConfig, for_pricing: bool = False) -> Summary:
        """The variant's summary, solving it (reading a shared stage A when one is there) if need be.
        ``for_pricing``: variants of other step-11 payouts will follow (a target's search over one), so a
        variant that walks stage A walks it whole rather than bounded, for them to price: a priced variant
        takes about a fifth of a walk, a bounded one a third or more (docs/performance.md)."""
        from solver.staged.run import solve

        self.ready([config])
        directory, holds_from, store = self._plan(config)
        bounds = self._bounds(config, directory, holds_from)
        if for_pricing and holds_from is None and not recorded_source(directory)[0]:  # begun: as it began
            bounds = None
        summary = solve(config, directory, n_jobs=self.n_jobs, backend=self.backend, scheduler=self.scheduler,
                        quiet=self.quiet, holds_from=holds_from, column_store=store, index=False, bounds=bounds,
                        whole=self._whole(directory), keep_rows=store is not False)
        return self._solved(config, summary)

    def _whole(self, directory: Path) -> bool:
        """Whether a variant's solve into ``directory`` walks every stage-A row (for later variants' bounds and
        pricing): all but a finished solve offered with the rows below folding left out, which :meth:`ready`
        makes whole only when a variant reads them (a search for a house edge starts at the base's payouts)."""
        return directory.absolute() not in self._pending

    def _plan(self, config: GameConfig) -> tuple[Path, Path | None, bool | Path]:
        """Where the variant's tables go, the solve whose stage A it reads (None: it walks its own), and
        the column store (False: none): its walk's columns, and stages B and C's rows."""
        directory = self.directory(config)
        prepared, source = recorded_source(directory)  # a solve begun (or stage A walked) reads what it chose
        if not prepared and not (directory / "holds.parquet").exists():
            source = self._stage_a.get(config.holds_fingerprint()) or self._walks.get(config.ting_fingerprint()) \
                or self._covered.get(config.holds_fingerprint())
        return directory, source, self.column_store

    def _bounds(self, config: GameConfig, directory: Path, source: Path | None) -> tuple[Path, ...] | None:
        """Finished solves beside ``directory`` that bound a variant walking its own stage A (with a
        column store, which keeps stage B's rows): it then walks only the rows they leave
        (:mod:`solver.staged.bounds`); a solve begun keeps the bounds it began with."""
        if source is not None:  # a bounded walk's rows are read or priced under the bounds it was walked by
            return recorded_bounds(read_metadata(source / "holds.parquet")["bounded_by"]) \
                if bounded_stage_a(source) else None
        if self.column_store is False:
            return None
        if bounded_stage_a(directory):  # solved bounded (or reading a bounded sibling), or stopped after stage A
            return recorded_bounds(read_metadata(holds_file(directory))["bounded_by"])
        note = directory / "chunks" / "holds-needed.json"
        if recorded_source(directory)[0]:
            return recorded_bounds(note.read_text()) if note.exists() else None
        return find_bounds(config, directory.parent, exclude=directory)

    def _solved(self, config: GameConfig, summary: Summary) -> Summary:
        self.solves += 0 if summary.reused else 1
        self.share(self.directory(config), config)
        return summary

    def solve_all(self, configs: Sequence[GameConfig], progress: Callable[[str], None] | None = None,
                  labels: Sequence[str] | None = None) -> list[Summary]:
        """Each variant's summary, in order: solved in rounds, each round the variants whose stage A is
        there to read or is their own to walk (the others of a ting fingerprint wait for the first, to read
        its stage A). A round's variants run side by side (:meth:`_side_by_side`), each in a process of
        its own, when the local backend has more than one process for them: a variant's solve has long
        stretches in one process (merging stage A, the forward count's reach), which the others fill."""
        self.ready(configs)
        labels = list(labels) if labels is not None else [config.fingerprint() for config in configs]
        pending = list({self.directory(c): (n, c) for n, c in enumerate(configs)}.values())
        done: dict[Path, Summary] = {}
        while pending:
            ready, pending = self._round(pending)
            lanes, each = self._side_by_side(len(ready))
            if lanes == 1:
                for n, config in ready:
                    if progress:
                        progress(f"variant {n + 1}/{len(configs)}: {labels[n]}")
                    done[self.directory(config)] = self(config)
                continue
            if progress:
                progress(f"variants {', '.join(str(n + 1) for n, _ in ready)} of {len(configs)}: {lanes} at once, "
                         f"{each} process(es) each")
            for n, config, summary in self._solved_beside(ready, lanes, each):
                if progress:
                    progress(f"variant {n + 1}/{len(configs)} solved: {labels[n]}")
                done[self.directory(config)] = self._solved(config, summary)
        return [done[self.directory(c)] for c in configs]

    def _round(self, pending: list[tuple[int, GameConfig]]
               ) -> tuple[list[tuple[int, GameConfig]], list[tuple[int, GameConfig]]]:
        """The variants of ``pending`` that can be solved now, and those that wait: one whose stage A comes
        from a variant of ``pending`` not yet solved (a walk it reads or prices), or that would walk a stage A
        another ready variant walks for it: a whole walk serves its ting fingerprint, a bounded one its holds
        fingerprint (the variants of other step-11 payouts it walks for have it as their source already)."""
        waiting = {self.directory(c).absolute() for _, c in pending}  # a manifest records absolute paths
        ready, later, walked = [], [], set()
        for n, config in pending:
            directory, source, _ = self._plan(config)
            served = {("holds", config.holds_fingerprint()), ("ting", config.ting_fingerprint())}
            if source is not None and source.absolute() in waiting or source is None and served & walked:
                later.append((n, config))
                continue
            if source is None:
                bounded = self._bounds(config, directory, None) is not None
                walked.add(("holds", config.holds_fingerprint()) if bounded else ("ting", config.ting_fingerprint()))
            ready.append((n, config))
        return ready, later

    def _side_by_side(self, n_ready: int) -> tuple[int, int]:
        """How many of ``n_ready`` variants to solve at once, and the processes each gets: one at a time on a
        Dask cluster (each solve's chunks already spread over it), else as many as there are processes,
        variants, and memory for."""
        from joblib import effective_n_jobs

        if self.backend != "loky" or n_ready < 2:
            return 1, self.n_jobs
        try:
            room = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // VARIANT_MEMORY
        except (AttributeError, ValueError, OSError):  # no sysconf (Windows) or no such name: trust --jobs
            room = n_ready
        lanes = max(1, min(work_processes(self.n_jobs, n_ready), room))
        return lanes, max(1, effective_n_jobs(self.n_jobs) // lanes)

    def _solved_beside(self, ready: list[tuple[int, GameConfig]], lanes: int, each: int
                       ) -> Iterator[tuple[int, GameConfig, Summary]]:
        """Solve ``ready`` ``lanes`` at a time, each in a worker process with ``each`` processes of its own;
        yields each as it finishes."""
        from joblib import Parallel, delayed

        tasks = [(n, config, *self._plan(config)) for n, config in ready]
        results = Parallel(n_jobs=lanes, backend="loky", return_as="generator_unordered")(
            delayed(_solve_variant)(n, config, directory, source, store, each, self._bounds(config, directory, source),
                                    self._whole(directory))
            for n, config, directory, source, store in tasks)
        by_number = dict(ready)
        for n, summary in results:
            yield n, by_number[n], summary

    def walk_together(self, configs: Sequence[GameConfig], progress: Callable[[str], None] | None = None,
                      labels: Sequence[str] | None = None) -> None:
        """Walk stage A of the variants among ``configs`` that will walk it: the first of each ting fingerprint
        that has no stage A to share, for the others of that fingerprint (other step-11 or deal payouts) to
        read or price. Where solves beside it bound it and leave at most :data:`BOUNDED_SHARE` of the rows
        that any of those can need (:meth:`_walk_share`), it walks those alone, bounded, in its solve; the
        others walk together, in groups of at most :data:`WALKED_TOGETHER` that
        :func:`solver.staged.run.walk_together` allows: each leaf's weights and win counts computed once for
        the group. Their solves then find stage A done. ``progress`` hears, by ``labels``, what bounds leave each."""
        from solver.staged.run import walk_together

        self.ready(configs)
        walkers: dict[str, GameConfig] = {}
        bounded: dict[str, list[GameConfig]] = {}  # walkers a bound leaves more than BOUNDED_SHARE: their pricers
        unsolved = [c for c in configs if not (self.directory(c) / "summary.parquet").exists()]
        for n, config in enumerate(configs):
            ting, holds = config.ting_fingerprint(), config.holds_fingerprint()
            if holds in self._stage_a or ting in self._walks or ting in walkers or holds in self._covered \
                    or not sums_exact(TingConstants.of(config), config.geometry):
                continue  # a walker's other variants read or price its walk
            label = f"variant {n + 1}/{len(configs)}: {labels[n] if labels else config.fingerprint()}"
            others = self._pricers(config, unsolved)
            share = self._walk_share(config, others, label, progress)
            if share is None or share > BOUNDED_SHARE:
                walkers[ting] = config
                if share is not None:
                    bounded[ting] = others
            else:
                self._cover(config, others)
        groups: dict[tuple[str, int], list[GameConfig]] = {}
        for config in walkers.values():
            groups.setdefault((config.columns_fingerprint(), len(config.fa_hu_bets)), []).append(config)
        for group in groups.values():
            for start in range(0, len(group), WALKED_TOGETHER):
                batch = group[start:start + WALKED_TOGETHER]
                if len(batch) == 1 and batch[0].ting_fingerprint() in bounded:  # alone: it walks bounded after all
                    self._cover(batch[0], bounded[batch[0].ting_fingerprint()])
                    continue
                walk_together(batch, [self.directory(c) for c in batch], n_jobs=self.n_jobs, backend=self.backend,
                              scheduler=self.scheduler, quiet=self.quiet, column_store=self.column_store,
                              progress=progress,
                              unbound=[self.directory(c) for c in batch if c.ting_fingerprint() in bounded])

    def _cover(self, walker: GameConfig, others: Sequence[GameConfig]) -> None:
        """Let the variants of ``walker``'s holds fingerprint and of ``others``' read or price its bounded walk."""
        self._covered.update((c.holds_fingerprint(), self.directory(walker)) for c in [walker, *others])

    def _pricers(self, config: GameConfig, unsolved: Sequence[GameConfig]) -> list[GameConfig]:
        """One variant of each other step-11 payouts among ``unsolved`` that shares ``config``'s walk and would
        price it: none has a stage A to read or a solve begun (which keeps the stage A it chose), and the solves
        that bound ``config`` bound it (the rows it needs are found under them)."""
        bounds = self._bounds(config, self.directory(config), None)
        found: dict[str, GameConfig] = {}
        for other in unsolved:
            holds, directory = other.holds_fingerprint(), self.directory(other)
            if bounds is not None and other.ting_fingerprint() == config.ting_fingerprint() \
                    and holds != config.holds_fingerprint() and holds not in self._stage_a \
                    and not recorded_source(directory)[0] and self._bounds(other, directory, None) == bounds:
                found.setdefault(holds, other)
        return list(found.values())

    def _walk_share(self, config: GameConfig, others: Sequence[GameConfig], label: str,
                    progress: Callable[[str], None] | None) -> float | None:
        """The share of stage A a variant's bounds leave it to walk, for itself and for ``others`` (variants of
        other step-11 payouts, which price the rows it walks), or None where it has no bounds."""
        share = self._bounded_share(config, others)
        if progress and share is not None:
            progress(f"{label}: bounds leave {share:.1%} of stage A to walk"
                     + (f", with the rows {len(others)} more of other fa-hu payouts need, to price" if others else ""))
        return share

    def _bounded_share(self, config: GameConfig, others: Sequence[GameConfig] = ()) -> float | None:
        """The share of stage A a variant's bounds leave it to walk, with the rows ``others`` need (the rows
        found are kept for its solve), or None when it has none or has begun its solve."""
        from solver.staged.run import bounded_share

        directory = self.directory(config)
        bounds = self._bounds(config, directory, None)
        if bounds is None or bounded_stage_a(directory) or (directory / "summary.parquet").exists():
            return None
        return bounded_share(config, directory, bounds, self.column_store, n_jobs=self.n_jobs, backend=self.backend,
                             scheduler=self.scheduler, quiet=self.quiet, also=others)

    def share_beside(self, root: Path) -> None:
        """Offer every finished solve in ``root`` (``strategy_tables/`` beside the variants) whose stage A is
        whole and of this code's version (:func:`solver.staged.bounds.whole_stage_a`), or left out only the
        rows below folding (made whole when a variant reads every row, :meth:`ready`): a variant of its
        holds fingerprint reads it and one of its ting fingerprint prices it, so that a later run, or a
        target's search, never walks again what an earlier one walked."""
        for manifest in sorted(root.glob("*/manifest.json")):
            if self._left_rows_out(manifest.parent):
                self.share(manifest.parent, config_from_dict(tomllib.loads(read_manifest(manifest.parent)["config"])))
                continue
            found = whole_stage_a(manifest.parent)
            if found is not None:
                self.share(manifest.parent, found)

    @staticmethod
    def _left_rows_out(directory: Path) -> bool:
        """Whether ``directory`` holds a finished solve of optimal play whose stage A left out the rows below
        folding (a plain ``solve`` does)."""
        manifest = read_manifest(directory)
        return bool(manifest and manifest.get("restriction") == "optimal" and not manifest.get("bonus")
                    and (directory / "summary.parquet").exists() and bound_below_folding(directory))

    def ready(self, configs: Sequence[GameConfig]) -> None:
        """Walk the rows that the solves offered (:meth:`share`) left out below folding where a variant of
        ``configs`` reads every row (:func:`_reads_every_row`), so that their stage A is whole. Once per solve,
        about 3 minutes on the real deck; before the first such variant is solved, after every variant has been
        checked."""
        from solver.staged.run import solve

        for directory, config in list(self._pending.items()):
            if not any(_reads_every_row(config, variant) for variant in configs):
                continue
            if not self.quiet:
                print(f"{directory}: walking the stage-A rows its solve left out below folding, for the "
                      "variants' bounds (once)", file=sys.stderr)
            solve(config, directory, n_jobs=self.n_jobs, backend=self.backend, scheduler=self.scheduler,
                  quiet=self.quiet, index=False, whole=True)
            del self._pending[directory]
            self.share(directory, config)

    def share(self, directory: Path, config: GameConfig) -> None:
        """Offer a finished solve's stage A (for example the base's) to the variants that can read it: a
        bounded one, which has only the rows its bounds left, to those of other deal payouts alone (bounded
        alike, they need the same rows), and only until a whole one is there."""
        holds = directory / "holds.parquet"
        if not holds.exists():
            return
        if self._left_rows_out(directory):  # made whole once a variant that reads every row is near (:meth:`ready`)
            self._pending[directory] = config
            self._stage_a.setdefault(config.holds_fingerprint(), directory)  # each state's best is there
            return
        key, bounded = config.holds_fingerprint(), bounded_stage_a(directory)
        if bounded and self.column_store is False:  # read only with the bounds, which need the store's rows
            return
        if key not in self._stage_a or not bounded and bounded_stage_a(self._stage_a[key]):
            self._stage_a[key] = directory
        if not bounded and "ting_wins" in pq.read_schema(holds).names:  # tables before the wins lack them
            self._walks.setdefault(config.ting_fingerprint(), directory)


def _reads_every_row(solved: GameConfig, config: GameConfig) -> bool:
    """Whether a variant ``config`` reads every stage-A row of a solve of ``solved`` (not only each post-draw
    state's best, which a solve that left out the rows below folding has): to price it (other step-11 payouts
    of the same walk), or to be bounded by it where the rows left out bound nothing
    (:func:`solver.staged.bounds.above_fold_bounds`: other fa-hu bets or ting multiples)."""
    if config.holds_fingerprint() == solved.holds_fingerprint():
        return False
    if config.ting_fingerprint() == solved.ting_fingerprint():
        return True
    return (near(solved, config) or sizes_near(solved, config)) and not above_fold_bounds(solved, config)


def paytable_rows(base: GameConfig, grid: dict[str, Sequence[Any]], solver: VariantSolver,
                  progress: Callable[[str], None] | None = None) -> list[VariantRow]:
    """Each variant of the grid, solved, in grid order; the ones that share stage A with the base
    or with each other read it instead of solving it again, and those that walk it walk it together
    where they can (:meth:`VariantSolver.walk_together`)."""
    chosen = variants(base, grid)
    configs = [config for _, config in chosen]
    labels = [_describe(payouts) for payouts, _ in chosen]
    solver.walk_together(configs, progress, labels)
    summaries = solver.solve_all(configs, progress, labels)
    return [VariantRow(payouts, summary) for (payouts, _), summary in zip(chosen, summaries)]


def _solve_variant(n: int, config: GameConfig, directory: Path, holds_from: Path | None, store: bool | Path,
                   n_jobs: int, bounds: tuple[Path, ...] | None, whole: bool) -> tuple[int, Summary]:
    """One variant's solve in a worker process (:meth:`VariantSolver.solve_all`), quietly."""
    import threading

    from tqdm import tqdm

    from solver.runtime.parallel import watch_parent
    from solver.staged.run import solve

    watch_parent()
    # tqdm's default lock is a multiprocessing semaphore, registered with the command's resource tracker: a
    # worker killed by Ctrl-C would leave it "leaked", and the tracker would warn of it as the command ends
    tqdm.set_lock(threading.RLock())
    return n, solve(config, directory, n_jobs=n_jobs, quiet=True, holds_from=holds_from, column_store=store,
                    index=False, bounds=bounds, whole=whole, keep_rows=store is not False)


def _describe(payouts: dict[str, Any]) -> str:
    return ", ".join(f"{k}={'/'.join(f'{x:g}' for x in v) if isinstance(v, tuple) else f'{v:g}'}"
                     for k, v in payouts.items())


def payout_slope(summary: Summary, config: GameConfig, key: str) -> Fraction:
    """d EV / d payout ``key`` with the strategy fixed: each outcome's probability times how much
    its net grows per unit of the payout (the net is linear in every payout)."""
    low, high = replace(config, **{key: 0.0}), replace(config, **{key: 1.0})
    return sum((r.probability * (r.outcome.exact_net(high) - r.outcome.exact_net(low)) for r in summary.outcomes),
               Fraction(0))


def solve_targets(base: GameConfig, keys: Sequence[str], targets: Sequence[float], solver: VariantSolver,
                  progress: Callable[[str], None] | None = None) -> list[TargetRow]:
    """:func:`solve_for_target` for each payout of ``keys`` and each house edge of ``targets``, in that
    order. The targets of one payout are solved from the lowest house edge up, each search starting from
    the nearest value an earlier one found on the root's high side, where Newton's iterates never pass
    the root: fewer solves than starting every search from ``base``."""
    rows = {}
    for key in dict.fromkeys(keys):
        found: list[TargetRow] = []
        for target in sorted(set(targets)):
            start = _warm_start(found, target)
            found.append(solve_for_target(base, key, target, solver, progress=progress, start=start))
            rows[key, target] = found[-1]
    return [rows[key, target] for key in dict.fromkeys(keys) for target in targets]


def _warm_start(found: Sequence[TargetRow], target: float) -> float | None:
    """Where to start the search for ``target`` given the rows ``found`` for the same payout: the lowest
    value whose house edge is at most the target (on the root's high side, the EV being non-decreasing),
    else the highest value found; None without any."""
    solved = [(row.value, row.house_edge) for row in found if row.value is not None and row.house_edge is not None]
    high_side = [value for value, edge in solved if edge <= target]
    if high_side:
        return min(high_side)
    return max((value for value, _ in solved), default=None)


def solve_for_target(base: GameConfig, key: str, target: float, solver: VariantSolver,
                     max_solves: int = 12, progress: Callable[[str], None] | None = None,
                     start: float | None = None) -> TargetRow:
    """The value of payout ``key`` (the others as in ``base``) at which the house edge is ``target``,
    by Newton's method on the EV with exact slopes (see the module's docstring), from ``start`` (default:
    the value in ``base``)."""
    if key in LIST_KEYS or key not in PAYOUT_KEYS:
        raise InputError(f"--target: {key} is not a single payout; payouts: "
                         + ", ".join(k for k in PAYOUT_KEYS if k not in LIST_KEYS))
    value = float(getattr(base, key)) if start is None else float(start)
    tried: set[float] = set()
    for n in range(1, max_solves + 1):
        config = validate(replace(base, **{key: value}))
        if progress:
            progress(f"{key} for house edge {target:g}: solve {n} at {value:.12g}")
        summary = solver(config, for_pricing=key in STEP11_PAYOUTS)  # the next iterates price its walk
        gap = summary.ev_exact + Fraction(target)  # EV minus the EV the target asks for
        if abs(gap) < 1e-13 or value in tried:
            return TargetRow(key, target, value, summary.house_edge, n)
        tried.add(value)
        slope = payout_slope(summary, config, key)
        if slope <= 0 and gap > 0:  # flat here, so flat at every lower value too (the EV is convex)
            return TargetRow(key, target, None, None, n,
                             f"unreachable: the house edge is {100 * summary.house_edge:.4f}% at {key} = {value:.6g} "
                             f"and no lower value raises it")
        step = float(Fraction(value) - gap / slope) if slope > 0 else 2 * value + 1  # flat: look higher up
        if step < 0:
            if value == 0.0:
                return TargetRow(key, target, None, None, n,
                                 f"even {key} = 0 leaves the house edge at {100 * summary.house_edge:.4f}%")
            step = 0.0
        value = step
    return TargetRow(key, target, value, summary.house_edge, max_solves, "stopped after the most solves allowed")


def to_csv(rows: Sequence[VariantRow] | Sequence[TargetRow]) -> str:
    """The rows as CSV, a header first (list payouts written with ``/`` between sizes)."""
    out = io.StringIO()
    data = [r.to_json() for r in rows]
    if data:
        writer = csv.DictWriter(out, fieldnames=list(data[0]), lineterminator="\n")
        writer.writeheader()
        for row in data:
            writer.writerow({k: "/".join(f"{x:g}" for x in v) if isinstance(v, list) else v for k, v in row.items()})
    return out.getvalue()


def write_outputs(out: Path, rows: Sequence[VariantRow], targets: Sequence[TargetRow], base: GameConfig) -> list[Path]:
    """``paytable.json`` (everything), ``paytable.csv`` (the variants, when there are some),
    ``paytable-targets.csv`` (the targets, when there are some) and, per payout given two or more values,
    a plot of the house edge against it (``paytable-<payout>.png`` and ``.svg``), into ``out``, deleting
    those an earlier run left there. Returns the files written."""
    from solver.runtime.files import written_atomically

    out.mkdir(parents=True, exist_ok=True)
    written = []
    data = {"base": base.to_toml(), "variants": [r.to_json() for r in rows], "targets": [t.to_json() for t in targets]}
    files = [("paytable.json", json.dumps(data, indent=1))]
    files += [("paytable.csv", to_csv(rows))] if rows else []
    files += [("paytable-targets.csv", to_csv(targets))] if targets else []
    for name, text in files:
        with written_atomically(out / name) as path:
            path.write_text(text)
        written.append(out / name)
    for key in _plottable(rows):
        written += _plot(out, key, rows, targets, base)
    for stale in [out / "paytable.csv", out / "paytable-targets.csv", *out.glob("paytable-*.png"),
                  *out.glob("paytable-*.svg")]:
        if stale not in written:  # an earlier run's, which these figures would seem to go with
            stale.unlink(missing_ok=True)
    return written


def _plottable(rows: Sequence[VariantRow]) -> list[str]:
    keys = list(rows[0].payouts) if rows else []
    return [k for k in keys if k not in LIST_KEYS and len({r.payouts[k] for r in rows}) >= 2]


def _plot(out: Path, key: str, rows: Sequence[VariantRow], targets: Sequence[TargetRow],
          base: GameConfig) -> list[Path]:
    """House edge against payout ``key``, the other varied payouts at their base values."""
    from solver.products.plots import plt, save_figure

    others = [k for k in rows[0].payouts if k != key]
    points = sorted((r.payouts[key], r.summary.house_edge) for r in rows
                    if all(r.payouts[k] == getattr(base, k) for k in others))
    if len(points) < 2:
        return []
    fig, ax = plt.subplots(figsize=(7, 4.2))
    ax.plot([p for p, _ in points], [100 * e for _, e in points], marker="o", color="#4c72b0",
            label="optimal play, each point an exact solve")
    for t in targets:
        if t.key == key and t.value is not None:
            ax.plot([t.value], [100 * t.house_edge], marker="x", color="#c44e52", markersize=9)
            ax.annotate(f"{t.value:.4g}", (t.value, 100 * t.house_edge), textcoords="offset points", xytext=(6, 6))
    ax.axhline(0, color="#999999", linewidth=0.8)
    ax.set_xlabel(f"{key} (net win per unit)")
    ax.set_ylabel("house edge (%)")
    ax.set_title(f"House edge against the {key} payout")
    ax.legend()
    return save_figure(fig, out / f"paytable-{key}")
