"""The full solve: every deal, every decision, the optimal strategy and its exact figures.

The six-card deals are reduced by the game's symmetries (suit relabelling,
rank reversal: :mod:`solver.symmetry`) to canonical *deal classes*, each with
the exact number of physical deals it stands for. For each class the
evaluator values every option of the deal decision; then the optimal play
is followed forward through every draw: each post-draw state reached is
valued (and recorded, in its canonical form, for the draw table), and the
chosen hold is played out over every community with the optimal ting
decision, counting card combinations of each final outcome exactly
(:mod:`solver.outcomes`). So one pass yields the strategy tables, the EV
of the game both as the evaluator's float and as an exact fraction from the
outcome counts (the two agreeing is a check of each), and the return table.

Classes are cut into fixed chunks, solved in parallel with joblib (any
backend, Dask included) and written one file per chunk as they finish, so a
killed solve resumes where it stopped. Chunk results are combined in chunk
order, so the tables are the same whatever the number of jobs.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb, lcm
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from joblib import Parallel, delayed, parallel_config

from .cards import DeckGeometry, counts_of, format_cards
from .combinatorics import remove_cards
from .config import GameConfig
from .deal import evaluate_deal
from .draw import draw_options, unseen_suited
from .errors import InputError
from .hu import hu_level
from .objective import Objective
from .options import Option
from .outcomes import KINDS, Outcome, hold_outcomes, slot_denominator, slot_scale
from .patterns import ChartRules
from .symmetry import apply, canonical, deal_classes, encode, inverse
from .table_index import index_path, open_index
from .tables import (
    check_tables,
    default_directory,
    describe,
    file_metadata,
    prepare_directory,
    read_metadata,
    sort_by_key,
    write_json,
    write_table,
)

CHUNK_SIZE = 16
"""Deal classes per chunk (``solve --chunk-size`` sets another): small enough that an interruption
loses little (on the real deck a class takes about two minutes on one core) and the progress bar
moves, large enough that the per-chunk cost (dispatch, two files) does not matter and that the
chunk's neighbouring classes share many hold values (see :func:`solver.deal.evaluate_deal`)."""


@dataclass
class DrawEntry:
    """A canonical post-draw state: its options, and the outcome counts of playing on optimally."""

    options: list[Option]
    chosen: list[int]
    """The options played (one, or the discards a chart mixes with equal probability)."""
    slot: int
    counts: dict[Outcome, int]
    bonus_net: float
    reach: int = 0


@dataclass
class ChunkResult:
    """What one chunk of deal classes contributes."""

    deals: list[dict[str, Any]]
    draws: list[dict[str, Any]]
    counts: Counter = field(default_factory=Counter)  # (slot, Outcome) -> combinations
    bonus_net: Counter = field(default_factory=Counter)  # slot -> summed bonus net of settled bonus bets


def _option_columns(options: list[Option], chosen: list[int], geometry: DeckGeometry) -> dict[str, Any]:
    """Every option's columns, with ``best_*`` the first option played and ``best_ev`` the mean EV of
    those played (a chart's mix; the one option's EV otherwise)."""
    first = options[chosen[0]]
    return {
        "best": chosen[0],
        "best_action": first.action,
        "best_discard": format_cards(first.discard, geometry),
        "best_bet": first.bet,
        "best_ev": sum(options[i].ev for i in chosen) / len(chosen),
        "actions": [o.action for o in options],
        "discards": [format_cards(o.discard, geometry) for o in options],
        "bets": [o.bet for o in options],
        "evs": [o.ev for o in options],
        "risks": [o.risk for o in options],
    }


def _draw_entry(hand: tuple[int, ...], dead: tuple[int, ...], double_down: float, config: GameConfig,
                objective: Objective, known: Callable[[tuple[int, ...]], np.ndarray] | None) -> DrawEntry:
    """Value a canonical post-draw state and count the outcomes of playing it as ``objective`` does
    (counts times ``mix_unit``: see :mod:`solver.objective`); ``known``: its holds' values, when
    the deal stage has them (see :func:`solver.draw.draw_options`)."""
    geometry = config.geometry
    play = objective.playing_config(config)
    options = draw_options(hand, dead, double_down, play, objective.bonus, threads=1, known=known)
    chosen = objective.choices("draw", options, hand, geometry, dead)
    slot = sum(1 for c in hand + dead if c == geometry.joker)
    k4, k2 = slot_scale(geometry, slot)
    unit = objective.mix_unit
    counts: Counter = Counter()
    bonus_net = 0.0
    for index in chosen:
        option, share = options[index], unit // len(chosen)
        if option.action == "claim":
            flush = hu_level(counts_of(hand, geometry), geometry) == 2
            counts[Outcome("di_hu_flush" if flush else "di_hu", double_down)] += k4 * k2 * share
        elif option.action == "fold":
            counts[Outcome("fold_fa", double_down)] += k4 * k2 * share
        else:
            hold = remove_cards(hand, option.discard)
            hold_counts, hold_bonus = hold_outcomes(counts_of(hold, geometry), unseen_suited(hand + dead, config),
                                                    option.bet, double_down, play, objective.bonus)
            for outcome, n in hold_counts.items():
                counts[outcome] += n * share
            bonus_net += hold_bonus * share
    return DrawEntry(options, chosen, slot, dict(counts), bonus_net)


def _known_values(values: dict[tuple[int, ...], np.ndarray], mapping: tuple[int, ...]
                  ) -> Callable[[tuple[int, ...]], np.ndarray]:
    """The deal stage's hold values for one draw, looked up by the holds of the canonical post-draw
    state that ``mapping`` relabels it into. A hold's value does not depend on labels, bit for bit
    (the hold kernel sums exact counts), so this is what valuing the canonical holds would give.
    Not with a bonus bet: its expected net per community is summed as floats, in an order that
    relabelling changes."""
    back = inverse(mapping)
    return lambda hold: values[apply(back, hold)]


def solve_chunk(hands: np.ndarray, weights: np.ndarray, config: GameConfig, objective: Objective) -> ChunkResult:
    """Solve a chunk of canonical deal classes (rows of ``hands``, with their weights)."""
    geometry = config.geometry
    result = ChunkResult([], [])
    memo: dict[tuple, DrawEntry] = {}
    hold_memo: dict[int, np.ndarray] = {}  # hold values shared by the chunk's deals (see evaluate_deal)
    n_draws = comb(geometry.size - 6, 2)
    unit = objective.mix_unit
    for row, weight in zip(hands, weights):
        hand = tuple(int(c) for c in row)
        weight = int(weight)
        evaluation = evaluate_deal(hand, objective.playing_config(config), bonus_bet=objective.bonus, memo=hold_memo)
        options = evaluation.options
        chosen = objective.choices("deal", options, hand, geometry)
        level = int(hu_level(counts_of(hand, geometry), geometry))
        result.deals.append({"key": encode(geometry, hand), "hand": format_cards(hand, geometry), "weight": weight,
                             "tian_hu": level, **_option_columns(options, chosen, geometry)})
        for index in chosen:
            option, share = options[index], weight * (unit // len(chosen))
            if option.action == "claim":
                k4, k2 = slot_scale(geometry, 0)
                result.counts[(0, Outcome("tian_hu_flush" if level == 2 else "tian_hu"))] += (
                    share * n_draws * k4 * k2 * unit)
                continue
            kept = remove_cards(hand, option.discard)
            for n, (draw, draw_weight) in enumerate(zip(evaluation.draws, evaluation.draw_weights)):
                after = tuple(sorted(kept + draw))
                (c_hand, c_dead), mapping = canonical(geometry, after, option.discard)
                memo_key = (c_hand, c_dead, option.bet)
                entry = memo.get(memo_key)
                if entry is None:
                    known = _known_values(evaluation.hold_values[n], mapping) if objective.bonus == 0 else None
                    entry = memo[memo_key] = _draw_entry(c_hand, c_dead, option.bet, config, objective, known)
                paths = share * int(draw_weight)
                entry.reach += paths
                for outcome, count in entry.counts.items():
                    result.counts[(entry.slot, outcome)] += paths * count
                result.bonus_net[entry.slot] += paths * entry.bonus_net
    for (c_hand, c_dead, dd), entry in memo.items():
        result.draws.append({"key": encode(geometry, c_hand, c_dead), "hand": format_cards(c_hand, geometry),
                             "dead": format_cards(c_dead, geometry), "double_down": dd, "reach": entry.reach,
                             **_option_columns(entry.options, entry.chosen, geometry)})
    return result


# ---------------------------------------------------------------------------------------------
# Files: one deal file and one draw file per chunk; the deal file is renamed last, so its
# presence marks the chunk finished.

_OPTION_FIELDS = [
    ("best", pa.int32()), ("best_action", pa.string()), ("best_discard", pa.string()), ("best_bet", pa.float64()),
    ("best_ev", pa.float64()), ("actions", pa.list_(pa.string())), ("discards", pa.list_(pa.string())),
    ("bets", pa.list_(pa.float64())), ("evs", pa.list_(pa.float64())), ("risks", pa.list_(pa.float64())),
]
DEAL_SCHEMA = pa.schema([("key", pa.int64()), ("hand", pa.string()), ("weight", pa.int64()),
                         ("tian_hu", pa.int8())] + _OPTION_FIELDS)
DRAW_SCHEMA = pa.schema([("key", pa.int64()), ("hand", pa.string()), ("dead", pa.string()),
                         ("double_down", pa.float64()), ("reach", pa.int64())] + _OPTION_FIELDS)


def _chunk_paths(directory: Path, index: int) -> tuple[Path, Path]:
    return directory / "chunks" / f"deals-{index:05d}.parquet", directory / "chunks" / f"draws-{index:05d}.parquet"


def _write_chunk(directory: Path, index: int, result: ChunkResult, metadata: dict[bytes, bytes]) -> None:
    deal_path, draw_path = _chunk_paths(directory, index)
    write_table(draw_path, pa.Table.from_pylist(result.draws, schema=DRAW_SCHEMA), metadata)
    totals = {
        "counts": [[slot, o.kind, o.double_down, o.fa_bet, o.ting_bet, str(n)]
                   for (slot, o), n in sorted(result.counts.items())],
        "bonus_net": [[slot, value] for slot, value in sorted(result.bonus_net.items())],
    }
    chunk_meta = {**metadata, b"mahjong_poker_chunk": json.dumps(totals).encode()}
    write_table(deal_path, pa.Table.from_pylist(result.deals, schema=DEAL_SCHEMA), chunk_meta)


def _chunk_done(directory: Path, index: int, wanted: dict[str, Any]) -> bool:
    """Whether chunk ``index`` is finished, readable, and made for the solve described by ``wanted``."""
    deal_path, draw_path = _chunk_paths(directory, index)
    if not (deal_path.exists() and draw_path.exists()):
        return False
    try:  # a file that cannot be read (a disk fault, a copy cut short) is redone
        found = [read_metadata(path) for path in (deal_path, draw_path)]
    except (OSError, pa.ArrowInvalid, ValueError, InputError):
        return False
    return all(meta.get(k) == v for meta in found for k, v in wanted.items())


def _chunk_totals(directory: Path, index: int) -> tuple[Counter, Counter]:
    raw = pq.read_schema(_chunk_paths(directory, index)[0]).metadata[b"mahjong_poker_chunk"]
    totals = json.loads(raw)
    counts = Counter({(slot, Outcome(kind, dd, fa, g)): int(n) for slot, kind, dd, fa, g, n in totals["counts"]})
    bonus_net = Counter({slot: value for slot, value in totals["bonus_net"]})
    return counts, bonus_net


# ---------------------------------------------------------------------------------------------
# The summary: figures of the whole game from the outcome counts.


@dataclass(frozen=True)
class OutcomeRow:
    """One row of the return table."""

    outcome: Outcome
    net: float
    combinations: int  # over the common denominator of all outcomes
    probability: Fraction

    @property
    def contribution(self) -> float:
        """Probability times net result: this row's part of the EV."""
        return float(self.probability) * self.net


@dataclass(frozen=True)
class Summary:
    """The exact figures of a solved game under its optimal strategy."""

    ev: float
    """EV per hand of the solve's objective, from the evaluator (the EVs of the deal options played,
    weighted over the classes): the main game, plus B times the bonus net when solved with a bonus bet B.
    The deal options' EVs assume optimal play after the deal, so for a chart this is "chart at the deal,
    optimal after"."""
    ev_exact: Fraction
    """EV of the main game alone under this strategy, exact, from the outcome counts (= ev when B = 0 and
    play after the deal is optimal)."""
    average_total_bet: Fraction
    variance: Fraction
    outcomes: list[OutcomeRow]
    denominator: int
    deal_classes: int
    deals: int
    draw_states: int
    bonus_bet: float
    restriction: str
    """The strategy's restriction (``optimal``: none), see :mod:`solver.objective`."""
    bonus_settled: Fraction
    """Probability that the bonus bet is settled (the player bets ting-hu)."""
    bonus_net_settled: float
    """Expected bonus net of a unit bonus bet per hand, counting pushes as 0."""
    seconds: float
    """Wall-clock time of the run that finished the tables (a resumed run counts only itself)."""
    tian_hu_declined: Fraction = Fraction(0)
    """Probability of a deal with a tian-hu that optimal play declines."""
    di_hu_declined: Fraction = Fraction(0)
    """Probability of a post-draw hand with a di-hu that optimal play declines."""
    directory: str = ""
    reused: bool = False
    """True when the summary was read from tables already complete, not computed now."""

    @property
    def house_edge(self) -> float:
        """The main game's house edge per hand under this strategy: -EV (bonus not included)."""
        return float(-self.ev_exact)

    def average_bets(self) -> dict[str, float]:
        """The average total bet by part: T, DD, F and G (each counted when placed)."""
        rows = self.outcomes
        return {"T": 1.0,
                "DD": float(sum((r.probability * Fraction(r.outcome.double_down) for r in rows), Fraction(0))),
                "F": float(sum((r.probability * Fraction(r.outcome.fa_bet) for r in rows), Fraction(0))),
                "G": float(sum((r.probability * Fraction(r.outcome.ting_bet) for r in rows), Fraction(0)))}

    @property
    def element_of_risk(self) -> float:
        """House edge per unit of money bet: -EV / average total bet."""
        return float(-self.ev_exact / self.average_total_bet)

    @property
    def std_dev(self) -> float:
        return float(self.variance) ** 0.5

    @property
    def hit_frequency(self) -> float:
        """Probability that the hand ends with a net win."""
        return float(sum((r.probability for r in self.outcomes if r.net > 0), Fraction(0)))

    def rate(self, predicate: Callable[[Outcome], bool]) -> Fraction:
        """Probability that a hand ends in an outcome meeting ``predicate``."""
        return sum((r.probability for r in self.outcomes if predicate(r.outcome)), Fraction(0))

    def decisions(self) -> dict[str, Any]:
        """How often each decision is taken, per hand."""
        fa_sizes = sorted({r.outcome.fa_bet for r in self.outcomes if r.outcome.fa_bet})
        ting_sizes = sorted({(r.outcome.fa_bet, r.outcome.ting_bet) for r in self.outcomes if r.outcome.ting_bet})
        return {
            "claim_tian_hu": float(self.rate(lambda o: o.kind.startswith("tian_hu"))),
            "decline_tian_hu": float(self.tian_hu_declined),
            "double_down": float(self.rate(lambda o: o.double_down > 0)),
            "claim_di_hu": float(self.rate(lambda o: o.kind.startswith("di_hu"))),
            "decline_di_hu": float(self.di_hu_declined),
            "fold_fa_hu": float(self.rate(lambda o: o.kind == "fold_fa")),
            "fa_hu_bet": {f"{f:g}": float(self.rate(lambda o, f=f: o.fa_bet == f)) for f in fa_sizes},
            "won_at_fa_hu": float(self.rate(lambda o: o.kind.startswith("fa_hu"))),
            "fold_ting_hu": float(self.rate(lambda o: o.kind == "fold_ting")),
            "ting_hu_bet": {f"F={f:g} G={g:g}": float(self.rate(lambda o, f=f, g=g: (o.fa_bet, o.ting_bet) == (f, g)))
                            for f, g in ting_sizes},
        }

    def to_json(self) -> dict[str, Any]:
        """The summary as plain JSON values (the exact EV as a fraction string)."""
        return {
            "ev": self.ev, "ev_exact": str(self.ev_exact), "house_edge": self.house_edge,
            "element_of_risk": self.element_of_risk, "average_total_bet": float(self.average_total_bet),
            "std_dev": self.std_dev, "variance": float(self.variance),
            "hit_frequency": self.hit_frequency,
            "deal_classes": self.deal_classes, "deals": self.deals, "draw_states": self.draw_states,
            "bonus_bet": self.bonus_bet, "restriction": self.restriction, "bonus_settled": float(self.bonus_settled),
            "bonus_net_per_bet_placed": self.bonus_net_settled, "seconds": self.seconds,
            "decisions": self.decisions(),
            "outcomes": [{"outcome": r.outcome.label(), "net": r.net, "combinations": str(r.combinations),
                          "probability": float(r.probability), "return": r.contribution} for r in self.outcomes],
        }


def summarise(config: GameConfig, objective: Objective, counts: Counter, bonus_net: Counter, ev_sum: float,
              deal_classes_n: int, draw_states: int, seconds: float, **fields: Any) -> Summary:
    """Turn summed outcome counts into the game's figures."""
    geometry = config.geometry
    slots = sorted({slot for slot, _ in counts})
    # A chart's mixed strategy multiplies every path's count by mix_unit at each of its two discards.
    denominators = {slot: slot_denominator(geometry, slot) * objective.mix_unit**2 for slot in slots}
    common = lcm(*denominators.values())
    by_outcome: Counter = Counter()
    for (slot, outcome), n in counts.items():
        by_outcome[outcome] += n * (common // denominators[slot])
    assert sum(by_outcome.values()) == common, "outcome probabilities must sum to 1"
    rows = [OutcomeRow(o, o.net(config), by_outcome[o], Fraction(by_outcome[o], common))
            for o in sorted(by_outcome, key=_order)]
    bonus_per_hand = sum(value / denominators[slot] for slot, value in sorted(bonus_net.items()))
    return _summary(config, rows, common, ev=ev_sum / comb(geometry.size, 6), deal_classes=deal_classes_n,
                    deals=comb(geometry.size, 6), draw_states=draw_states, bonus_bet=objective.bonus,
                    restriction=objective.restriction,
                    bonus_net_settled=bonus_per_hand, seconds=seconds, **fields)


def _summary(config: GameConfig, rows: list[OutcomeRow], denominator: int, **fields: Any) -> Summary:
    """The figures that follow from the return table, exactly."""
    ev_exact = sum((r.probability * r.outcome.exact_net(config) for r in rows), Fraction(0))
    second = sum((r.probability * r.outcome.exact_net(config) ** 2 for r in rows), Fraction(0))
    return Summary(
        ev_exact=ev_exact, variance=second - ev_exact**2, outcomes=rows, denominator=denominator,
        average_total_bet=sum((r.probability * Fraction(r.outcome.total_bet()) for r in rows), Fraction(0)),
        bonus_settled=sum((r.probability for r in rows if r.outcome.ting_bet), Fraction(0)), **fields,
    )


def _order(outcome: Outcome) -> tuple:
    """Return-table order: kinds in order of play, then bets ascending."""
    return (KINDS.index(outcome.kind), outcome.double_down, outcome.fa_bet, outcome.ting_bet)


# ---------------------------------------------------------------------------------------------
# The solve: chunks in parallel, resumable, merged into the tables.


def _solve_indexed(index: int, hands: np.ndarray, weights: np.ndarray, config: GameConfig,
                   objective: Objective) -> tuple[int, ChunkResult]:
    return index, solve_chunk(hands, weights, config, objective)


def solve(config: GameConfig, directory: Path | str | None = None, *, bonus: float = 0.0,
          restriction: str = "optimal", chart: ChartRules | None = None, n_jobs: int = -1,
          backend: str = "loky", scheduler: str | None = None, chunk_size: int | None = None,
          quiet: bool = False, force: bool = False) -> Summary:
    """Solve ``config`` into the table directory (default ``strategy_tables/<fingerprint>``).

    Finished chunks already in the directory are kept (a killed solve
    resumes); a directory made for another solve is refused unless
    ``force`` moves it aside. ``backend`` is any joblib backend; ``"dask"``
    connects to the Dask scheduler at ``scheduler`` (or starts a local
    cluster when it is None). Returns the game's summary, also written
    to ``summary.parquet``.
    """
    from tqdm import tqdm

    start = time.monotonic()
    geometry = config.geometry
    objective = Objective(bonus, restriction, chart)
    directory = Path(directory) if directory is not None else default_directory(config, objective)
    hands, weights = deal_classes(geometry)
    chunk_size = chunk_size or CHUNK_SIZE
    n_chunks = -(-len(hands) // chunk_size)
    prepare_directory(directory, config, objective, {"chunk_size": chunk_size, "deal_classes": len(hands)}, force)
    if (directory / "summary.parquet").exists():
        return load_summary(directory, config)
    metadata = file_metadata(config, objective)
    wanted = describe(config, objective)
    pending = [i for i in range(n_chunks) if not _chunk_done(directory, i, wanted)]
    done_classes = len(hands) - sum(len(hands[i * chunk_size:(i + 1) * chunk_size]) for i in pending)
    if not quiet:
        print(f"solving {len(hands)} deal classes in {n_chunks} chunks ({n_chunks - len(pending)} already done) "
              f"into {directory}", file=sys.stderr)
    bar = tqdm(total=len(hands), initial=done_classes, unit="deal", desc="solve", disable=True if quiet else None,
               smoothing=0.05)
    with _backend(backend, scheduler, n_jobs):
        results = Parallel(return_as="generator_unordered")(
            delayed(_solve_indexed)(i, hands[i * chunk_size:(i + 1) * chunk_size],
                                    weights[i * chunk_size:(i + 1) * chunk_size], config, objective)
            for i in pending
        )
        for index, result in results:
            _write_chunk(directory, index, result, metadata)
            bar.update(len(result.deals))
    bar.close()
    summary = _merge(directory, config, objective, n_chunks, len(hands), metadata, time.monotonic() - start)
    if not quiet:
        print(f"indexing the tables for best --tables into {index_path(directory).parent}", file=sys.stderr)
    open_index(directory)  # built now rather than by the first query (solve's time excludes it)
    return summary


class _backend:
    """joblib's parallel configuration, with a Dask client connected for the ``dask`` backend."""

    def __init__(self, backend: str, scheduler: str | None, n_jobs: int) -> None:
        self.backend, self.scheduler, self.n_jobs = backend, scheduler, n_jobs
        self.client = None
        self.config = None

    def __enter__(self) -> None:
        if self.backend == "dask":
            try:
                from distributed import Client
            except ImportError:
                raise InputError("--backend dask needs Dask: pip install 'mahjong-poker[dask]'") from None
            self.client = Client(self.scheduler) if self.scheduler else Client(processes=False)
        self.config = parallel_config(backend=self.backend, n_jobs=self.n_jobs)
        self.config.__enter__()

    def __exit__(self, *exc: object) -> None:
        assert self.config is not None
        self.config.__exit__(*exc)
        if self.client is not None:
            self.client.close()


def _merge(directory: Path, config: GameConfig, objective: Objective, n_chunks: int, n_classes: int,
           metadata: dict[bytes, bytes], seconds: float) -> Summary:
    """Combine the chunk files, in chunk order, into the final tables and the summary."""
    counts: Counter = Counter()
    bonus_net: Counter = Counter()
    deal_parts, draw_parts = [], []
    for index in range(n_chunks):
        chunk_counts, chunk_bonus = _chunk_totals(directory, index)
        counts.update(chunk_counts)
        bonus_net.update(chunk_bonus)
        deal_path, draw_path = _chunk_paths(directory, index)
        deal_parts.append(pq.read_table(deal_path).replace_schema_metadata(None))
        draw_parts.append(pq.read_table(draw_path).replace_schema_metadata(None))
    deals = sort_by_key(pa.concat_tables(deal_parts), "key")
    assert sum(deals["weight"].to_pylist()) == comb(config.geometry.size, 6)
    draws = _unique_draws(pa.concat_tables(draw_parts))
    ev_sum = 0.0
    for weight, ev in zip(deals["weight"].to_pylist(), deals["best_ev"].to_pylist()):  # class order: any chunking
        ev_sum += weight * ev
    size = config.geometry.size
    deal_rows = zip(*_columns(deals, "weight", "tian_hu", "best_action"))
    draw_rows = zip(*_columns(draws, "reach", "actions", "best_action"))
    declined = {
        "tian_hu_declined": Fraction(sum(w for w, level, best in deal_rows if level and best != "claim"),
                                     comb(size, 6)),
        "di_hu_declined": Fraction(sum(r for r, actions, best in draw_rows if "claim" in actions and best != "claim"),
                                   comb(size, 6) * comb(size - 6, 2) * objective.mix_unit),
    }
    write_table(directory / "deals.parquet", deals, metadata)
    write_table(directory / "draws.parquet", draws, metadata)
    summary = summarise(config, objective, counts, bonus_net, ev_sum, n_classes, draws.num_rows, seconds,
                        directory=str(directory), **declined)
    write_table(directory / "outcomes.parquet", _outcome_table(summary), metadata)
    summary_row = {k: v for k, v in summary.to_json().items() if k not in ("outcomes", "decisions")}
    summary_row["decisions"] = json.dumps(summary.decisions())
    summary_row["denominator"] = str(summary.denominator)
    summary_row["tian_hu_declined"] = str(summary.tian_hu_declined)
    summary_row["di_hu_declined"] = str(summary.di_hu_declined)
    write_table(directory / "summary.parquet", pa.Table.from_pylist([summary_row]), metadata)
    write_json(directory / "summary.json", summary.to_json())
    return summary


def _columns(table: pa.Table, *names: str) -> list[list]:
    return [table[name].to_pylist() for name in names]


def _unique_draws(draws: pa.Table) -> pa.Table:
    """One row per (state, DD): the same canonical state reached from several chunks has its reach summed."""
    draws = draws.append_column("row", pa.array(np.arange(draws.num_rows)))
    grouped = draws.group_by(["key", "double_down"], use_threads=False).aggregate([("reach", "sum"), ("row", "min")])
    first = draws.take(grouped["row_min"]).drop_columns(["row"])
    index = first.schema.get_field_index("reach")
    first = first.set_column(index, "reach", grouped["reach_sum"])
    return sort_by_key(first, "key", "double_down")


def _outcome_table(summary: Summary) -> pa.Table:
    return pa.Table.from_pylist([
        {"outcome": r.outcome.label(), "kind": r.outcome.kind, "double_down": r.outcome.double_down,
         "fa_bet": r.outcome.fa_bet, "ting_bet": r.outcome.ting_bet, "net": r.net,
         "total_bet": r.outcome.total_bet(), "combinations": str(r.combinations),
         "probability": float(r.probability), "return": r.contribution}
        for r in summary.outcomes
    ])


def load_summary(directory: Path | str, config: GameConfig) -> Summary:
    """The summary of a finished solve, rebuilt exactly from its files."""
    directory = Path(directory)
    if not (directory / "summary.parquet").exists():
        raise InputError(f"no finished solve in {directory} (no summary.parquet); run mahjong-poker solve")
    found = read_metadata(directory / "summary.parquet")
    check_tables(directory, config, Objective.from_description(found))
    row = pq.read_table(directory / "summary.parquet").to_pylist()[0]
    denominator = int(row["denominator"])
    rows = [OutcomeRow(Outcome(r["kind"], r["double_down"], r["fa_bet"], r["ting_bet"]), r["net"],
                       int(r["combinations"]),
                       Fraction(int(r["combinations"]), denominator))
            for r in pq.read_table(directory / "outcomes.parquet").to_pylist()]
    return _summary(config, rows, denominator, ev=row["ev"], deal_classes=row["deal_classes"], deals=row["deals"],
                    draw_states=row["draw_states"], bonus_bet=row["bonus_bet"], restriction=row["restriction"],
                    bonus_net_settled=row["bonus_net_per_bet_placed"], seconds=row["seconds"],
                    tian_hu_declined=Fraction(row["tian_hu_declined"]), di_hu_declined=Fraction(row["di_hu_declined"]),
                    directory=str(directory), reused=True)
