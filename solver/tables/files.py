"""Strategy tables on disk: parquet files with their configuration in the metadata.

A table directory holds the output of one solve (one configuration, one
objective, one code version):

    manifest.json      what the directory was made for (checked before any reuse)
    chunks/            while solving: one file per finished chunk of a stage, and the merged arrays
    holds.parquet      stage A: every (hold, four dead cards) class, the value of each fa-hu bet
    firsts.parquet     stage C: every (first hold, two thrown) class, its value without and with DD
    deals.parquet      every deal class: canonical hand, weight, every option's EV, the best
    draws.parquet      every post-draw state the strategy reaches: its reach and the option played
    outcomes.parquet   the return table: every final outcome, exact counts and probabilities
    summary.parquet    one row: EV, house edge, element of risk, standard deviation, decision rates

Every file is written to a temporary name and renamed, so a killed process
never leaves a half-written table. The schema is documented in
``strategy_tables/README.md``; tables sort by an integer ``key`` (the
canonical cards in base ``n_types``) and are cut into row groups, so a
lookup reads one row group, not the file.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import time
import tomllib
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from solver import __version__
from solver.errors import ConfigError, InputError
from solver.game.cards import DeckGeometry, parse_cards
from solver.game.config import GameConfig, config_from_dict
from solver.game.options import Option
from solver.runtime.files import written_atomically

if TYPE_CHECKING:
    import pyarrow as pa

    from solver.game.objective import Objective

#: Bump when the tables' layout or meaning changes, or when a code change can change any number in
#: them: tables and chunks of another format are never reused.
FORMAT = 3
METADATA_KEY = b"mahjong_poker"
ROW_GROUP_SIZE = 4096
T = TypeVar("T")
U = TypeVar("U")


def describe(config: GameConfig, objective: Objective) -> dict[str, Any]:
    """What a table directory is made for; two directories are interchangeable iff these match."""
    return {"format": FORMAT, "version": __version__, "fingerprint": config.fingerprint(), **objective.describe()}


def default_directory(config: GameConfig, objective: Objective) -> Path:
    """``strategy_tables/<fingerprint>``, with ``-bonus<B>`` or ``-<restriction>`` for other objectives."""
    return Path("strategy_tables") / (config.fingerprint() + objective.suffix())


#: The project's own table folder: the one committed beside the package (an editable install or a clone).
PROJECT_TABLES = Path(__file__).resolve().parent.parent.parent / "strategy_tables"


def tables_for(config: GameConfig, objective: Objective) -> Path | None:
    """The finished tables of ``config`` a command uses by default: ``strategy_tables/<fingerprint>`` in the
    working folder, else the project's own (committed, or solved there), else any other folder of either
    whose manifest says it was made for this configuration and objective (``strategy_tables/reduced-3x4``,
    or a user's ``solve --out strategy_tables/NAME``), else None.

    Finished means its ``summary.parquet`` is there: a solve writes it last."""
    name = default_directory(config, objective).name
    roots = (Path("strategy_tables"), PROJECT_TABLES)
    for root in roots:
        if (root / name / "summary.parquet").is_file():
            return root / name
    wanted = describe(config, objective)
    for root in roots:
        for directory in sorted(root.iterdir()) if root.is_dir() else ():
            manifest = read_manifest(directory) if (directory / "summary.parquet").is_file() else None
            if manifest is not None and all(manifest.get(k) == v for k, v in wanted.items()):
                return directory
    return None


LOCK = ".lock"
"""The file a solve holds locked in its table directory (``flock``: the kernel drops it when the
process ends, however it ends)."""


def usable_directory(directory: Path, option: str = "--out") -> Path:
    """``directory``, made if missing; refuses a path that is a file or cannot be made or written."""
    if directory.exists() and not directory.is_dir():
        raise InputError(f"{option} {directory} is a file, not a directory")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(f"{option} {directory}: cannot make the directory ({error.strerror})") from None
    if not os.access(directory, os.W_OK | os.X_OK):
        raise InputError(f"{option} {directory}: the directory is not writable")
    return directory


@contextmanager
def solve_lock(directory: Path) -> Iterator[None]:
    """Hold ``directory``'s lock while solving into it; refuse at once when another process holds it."""
    import fcntl

    handle = open(directory / LOCK, "a+")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip()
        handle.close()
        raise InputError(f"{directory} is being solved by another process" + (f" (pid {holder})" if holder else "")
                         + ": wait for it to finish, or use another --out") from None
    try:
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        yield
    finally:
        handle.close()


def prepare_directory(directory: Path, config: GameConfig, objective: Objective, extra: dict[str, Any],
                      force: bool) -> None:
    """Make ``directory`` ready for a solve (its manifest, and ``chunks/``), or check that an existing
    one was made for the same solve.

    A directory made for another configuration, objective or code version
    is refused (``InputError`` naming the difference), or with ``force``
    moved aside to ``<directory>.replaced-<time>``.
    """
    wanted = {**describe(config, objective), **extra}
    if directory.exists() and not _holds_nothing(directory):
        problem = None
        found = read_manifest(directory)
        if found is None:
            problem = "it has no readable manifest.json"
        elif differing := sorted(k for k in wanted if found.get(k) != wanted[k]):
            problem = ", ".join(f"{k} {found.get(k)!r} (wanted {wanted[k]!r})" for k in differing)
        if problem is None:
            (directory / "chunks").mkdir(exist_ok=True)
            return
        if not force:
            raise InputError(f"table directory {directory} was made for another solve: {problem}; "
                             "use another --out, or --force to move it aside")
        shutil.move(str(directory), f"{directory}.replaced-{time.strftime('%Y%m%d-%H%M%S')}")
    # the manifest first: a run stopped between the two leaves a directory the next run recognises
    directory.mkdir(parents=True, exist_ok=True)
    write_json(directory / "manifest.json", {**wanted, "config": config.to_toml()})
    (directory / "chunks").mkdir(exist_ok=True)


def _holds_nothing(directory: Path) -> bool:
    """Whether ``directory`` holds nothing a solve made but its lock, an empty ``chunks/`` and a manifest
    being written: what a run stopped while preparing it leaves, taken as a fresh directory."""
    return all(p.name in (LOCK, "manifest.json.tmp") or (p.name == "chunks" and p.is_dir() and not any(p.iterdir()))
               for p in directory.iterdir())


def read_manifest(directory: Path) -> dict[str, Any] | None:
    """What ``directory`` was made for (its ``manifest.json``), or None when it has no readable one."""
    try:
        found = json.loads((Path(directory) / "manifest.json").read_text())
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def manifest_config(directory: Path) -> GameConfig | None:
    """The configuration ``directory``'s tables were solved for (its manifest's), or None where no readable
    manifest names one: what a command given ``--tables`` and no ``--config`` plays."""
    found = read_manifest(directory)
    text = found.get("config") if found else None
    if not isinstance(text, str):
        return None
    try:
        return config_from_dict(tomllib.loads(text))
    except (tomllib.TOMLDecodeError, ConfigError):
        return None  # a damaged manifest: the tables' check names it


def recorded_source(directory: Path) -> tuple[bool, Path | None]:
    """Whether ``directory`` was made for a solve (it has a manifest), and the directory whose stage A that
    solve reads (``holds_from``; None: its own): a solve resumed, or made again, must read the same."""
    found = read_manifest(directory)
    source = found.get("holds_from") if found else None
    return found is not None, Path(source) if source else None


#: What a solve writes again without changing a result: the time it took, and when the file was made.
TIMING_FIELDS = ("seconds", "stage_seconds", "created")
#: Tables up to this size are compared with the file they replace (the committed ones are a few MB).
KEEP_SAME_BYTES = 64 << 20


def write_json(path: Path, data: dict[str, Any], keep_same: bool = False) -> None:
    """Write a JSON file atomically; with ``keep_same``, keep the old file where only the timing fields differ."""
    with written_atomically(path, same=_same_json if keep_same else None) as tmp:
        tmp.write_text(json.dumps(data, indent=2, sort_keys=True))


def _same_json(old: Path, new: Path) -> bool:
    """Whether two JSON files differ at most in :data:`TIMING_FIELDS` (so a solve again into a clone leaves
    the committed summary as it was: git sees no change, and a pull no conflict)."""
    try:
        before, after = json.loads(old.read_text()), json.loads(new.read_text())
    except (OSError, ValueError):
        return False
    if not (isinstance(before, dict) and isinstance(after, dict)):
        return before == after
    return {k: v for k, v in before.items() if k not in TIMING_FIELDS} == \
        {k: v for k, v in after.items() if k not in TIMING_FIELDS}


def _same_table(old: Path, new: Path) -> bool:
    """Whether two small parquet files hold the same values and metadata, timing aside (see :func:`_same_json`)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    if old.stat().st_size > KEEP_SAME_BYTES:
        return False
    try:
        metadata = []
        for path in (old, new):
            raw = dict(pq.read_schema(path).metadata or {})
            ours = json.loads(raw.pop(METADATA_KEY, b"{}"))
            metadata.append((raw, {k: v for k, v in ours.items() if k not in TIMING_FIELDS}))
        return metadata[0] == metadata[1] and content_digest(old) == content_digest(new)
    except (InputError, OSError, TypeError, ValueError, pa.ArrowException):
        return False


def file_metadata(config: GameConfig, objective: Objective,
                  extra: dict[str, Any] | None = None) -> dict[bytes, bytes]:
    """Parquet file metadata: the configuration (TOML), its fingerprint, code version, date, objective."""
    data = {**describe(config, objective), "config": config.to_toml(),
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), **(extra or {})}
    return {METADATA_KEY: json.dumps(data, sort_keys=True).encode()}


def write_table(path: Path, table: pa.Table, metadata: dict[bytes, bytes], keep_same: bool = False) -> None:
    """Write a parquet file atomically (temporary file, then rename); with ``keep_same``, keep the old file
    where only timing differs (:func:`_same_table`: for the tables a clone has committed)."""
    write_parts(path, [table], metadata, keep_same)


def write_parts(path: Path, parts: Iterable[pa.Table], metadata: dict[bytes, bytes], keep_same: bool = False) -> None:
    """Write tables of one schema, in order, as one parquet file, atomically, holding one at a time (stage
    A's 25 million rows would take gigabytes at once)."""
    import pyarrow.parquet as pq  # here and below, not at the top: a query reads the index (table_index)

    with written_atomically(path, same=_same_table if keep_same else None) as tmp:
        writer = None
        try:
            for part in one_ahead(parts):
                part = part.replace_schema_metadata({**(part.schema.metadata or {}), **metadata})
                if writer is None:
                    writer = pq.ParquetWriter(tmp, part.schema, compression="zstd",
                                              use_dictionary=_dictionary_columns(part.schema),
                                              use_byte_stream_split=_split_columns(part.schema))
                writer.write_table(part, row_group_size=ROW_GROUP_SIZE)
        finally:
            if writer is not None:
                writer.close()
        if writer is None:
            raise ValueError(f"{path}: no table to write")


def one_ahead(items: Iterable[T]) -> Iterator[T]:
    """``items`` in order, the next one made in a thread while the caller works on this one: a part of a
    table is read or priced while the one before is compressed and written (numpy and Arrow release the
    interpreter's lock for both, so they overlap). An error in making an item is raised here."""
    from concurrent.futures import ThreadPoolExecutor

    iterator, end = iter(items), object()
    with ThreadPoolExecutor(1, thread_name_prefix="mahjong-poker-ahead") as pool:
        coming = pool.submit(next, iterator, end)
        while (item := coming.result()) is not end:
            coming = pool.submit(next, iterator, end)
            yield item


def in_threads(work: Callable[[T], U], items: Iterable[T], threads: int | None = None) -> Iterator[U]:
    """``work(item)`` of each of ``items``, in order, on up to ``threads`` threads at once (default: the
    cores, at most four), the items drawn in the caller's thread as the threads take them, so that no more
    than ``threads`` are held at once. For work in numpy, Arrow and kernels, which release the interpreter's
    lock."""
    from collections import deque
    from concurrent.futures import ThreadPoolExecutor

    threads = threads or min(4, os.cpu_count() or 1)
    with ThreadPoolExecutor(threads, thread_name_prefix="mahjong-poker-work") as pool:
        pending: deque = deque()
        for item in items:
            pending.append(pool.submit(work, item))
            if len(pending) >= threads:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def rows_in_threads(kernel: Callable[..., Any], rows: Sequence[Any], fixed: Sequence[Any], out: Any,
                    threads: int | None = None) -> None:
    """``kernel(*rows, *fixed, out)`` over slices of the rows (of every array of ``rows`` and of ``out`` alike),
    on up to ``threads`` threads (default as :func:`in_threads`): for a kernel that treats each row apart and
    releases the interpreter's lock."""
    threads = threads or min(4, os.cpu_count() or 1)
    ends = [len(out) * i // threads for i in range(threads + 1)]
    parts = [slice(a, b) for a, b in zip(ends[:-1], ends[1:]) if b > a]
    for _ in in_threads(lambda part: kernel(*(r[part] for r in rows), *fixed, out[part]), parts, threads):
        pass


def _dictionary_columns(schema: Any) -> list[str]:
    """The parquet columns worth dictionary encoding: text (card names, actions), which repeats. Numbers,
    mostly distinct, are not: stage A's 25 million rows write in about half the time, and smaller."""
    import pyarrow as pa

    return _columns_of(schema, lambda kind: pa.types.is_string(kind) or pa.types.is_large_string(kind))


def _split_columns(schema: Any) -> list[str]:
    """The parquet columns to write byte-stream-split: floating-point numbers, whose bytes then compress
    apart (exponents with exponents). Stage A's rows write a fifth faster, read faster, and take a seventh
    less room (docs/performance.md, "Parquet writes")."""
    import pyarrow as pa

    return _columns_of(schema, pa.types.is_floating)


def _columns_of(schema: Any, kind_is: Callable[[Any], bool]) -> list[str]:
    """The parquet column paths of ``schema``'s fields, and of its list fields' elements, whose (element)
    type passes ``kind_is``."""
    import pyarrow as pa

    columns = [field.name for field in schema if kind_is(field.type)]
    return columns + [f"{field.name}.list.element" for field in schema
                      if (pa.types.is_list(field.type) or pa.types.is_fixed_size_list(field.type))
                      and kind_is(field.type.value_type)]


_CONFIG_FILE: list[str] = []  # the --config FILE of the running command, repeated in the hints below


def note_config_file(path: str | None) -> None:
    """Record the configuration file the command line was given, so that a hint to solve names it too."""
    _CONFIG_FILE[:] = [] if path is None else [path]


def solve_command(directory: Path, objective: Objective | None = None) -> str:
    """The command that makes ``directory``'s tables: ``mahjong-poker solve`` with the command line's
    ``--config`` and the objective's ``--bonus`` and ``--restriction`` (by default those ``directory``'s
    manifest records, when it has a readable one); for a chart's solve, ``chart --exact``."""
    bonus, restriction = 0.0, "optimal"
    if objective is not None:
        bonus, restriction = objective.bonus, objective.restriction
    else:
        found = read_manifest(directory) or {}
        try:
            bonus, restriction = float(found.get("bonus") or 0.0), str(found.get("restriction") or "optimal")
        except (TypeError, ValueError):
            pass  # a manifest that says nothing usable: the plain solve
    config = [word for path in _CONFIG_FILE for word in ("--config", path)]
    if restriction == "chart":  # <main tables>-chart-<digest>: made by chart --exact on the main tables
        main = directory.with_name(directory.name.rsplit("-chart-", 1)[0])
        words = ["mahjong-poker", "chart", *config, "--exact", "--tables", str(main)]
    else:
        words = ["mahjong-poker", "solve", *config] + (["--bonus", repr(float(bonus))] if bonus else [])
        words += [] if restriction == "optimal" else ["--restriction", restriction]
        words += ["--out", str(directory)]
    return " ".join(shlex.quote(w) for w in words)


def holds_file(directory: Path) -> Path:
    """The stage-A table ``directory``'s solve reads: its own ``holds.parquet``, or that of the solve it took
    stage A from (its manifest's ``holds_from``)."""
    own = Path(directory) / "holds.parquet"
    if own.exists():
        return own
    source = recorded_source(Path(directory))[1]
    return source / "holds.parquet" if source is not None else own


def bounded_stage_a(directory: Path) -> bool:
    """Whether the stage A ``directory``'s solve reads (:func:`holds_file`) is a bounded variant's, holding
    only the rows it walked (:mod:`solver.staged.bounds`)."""
    path = holds_file(directory)
    try:
        return path.exists() and bool(read_metadata(path).get("bounded_by"))
    except InputError:
        return False  # damaged: whoever reads it says so


BOUND_COLUMN = "bound"
"""In the ``holds.parquet`` of a solve that left out the rows that cannot beat folding: which rows hold upper
bounds (every bet below folding) instead of values."""

BOUND_BELOW_FOLDING = "bound_below_folding"
"""Metadata of a ``holds.parquet`` whose walk left out the rows that cannot beat folding: those hold upper bounds,
marked in its ``bound`` column (:attr:`solver.staged.chunks.SolveJob.above_fold`)."""


def bound_below_folding(directory: Path) -> bool:
    """Whether the stage A ``directory``'s solve reads (:func:`holds_file`) left out the rows that cannot beat
    folding, holding upper bounds for them: what the solve's own later stages read is exact, but a chart, a
    variant's bounds or a solve that prices it need it whole (``mahjong-poker solve --whole``)."""
    path = holds_file(directory)
    try:
        return path.exists() and bool(read_metadata(path).get(BOUND_BELOW_FOLDING))
    except InputError:
        return False  # damaged: whoever reads it says so


def read_metadata(path: Path) -> dict[str, Any]:
    """The ``mahjong_poker`` metadata of a parquet file written here (``InputError`` when the file is
    missing, damaged or not one of ours)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    if not path.exists():
        raise InputError(f"{path} is missing: run {solve_command(path.parent)} to make it")
    try:
        raw = pq.read_schema(path).metadata or {}
    except (OSError, pa.ArrowException, ValueError) as error:
        raise damaged(path, error) from None
    if METADATA_KEY not in raw:
        raise InputError(f"{path} is not a mahjong-poker table")
    return json.loads(raw[METADATA_KEY])


TABLE_FILES = ("summary.parquet", "outcomes.parquet", "deals.parquet", "draws.parquet", "firsts.parquet",
               "holds.parquet")
"""A finished solve's tables (``holds`` and ``draws`` are absent from the committed real-deck tables)."""


def damaged(path: Path, error: Exception) -> InputError:
    """The error a reader gives for a table file it cannot read."""
    reason = str(error).splitlines()[0] if str(error) else type(error).__name__
    return InputError(f"{path} cannot be read ({reason}): the file is damaged; delete it and run "
                      f"{solve_command(path.parent)} to make it again")


def read_table(path: Path, columns: list[str] | None = None) -> pa.Table:
    """A table file of a solve, or ``InputError`` naming it when it is missing or damaged."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    if not path.exists():
        raise InputError(f"{path} is missing: run {solve_command(path.parent)} to make it")
    try:
        return pq.read_table(path, columns=columns)
    except (OSError, pa.ArrowException, ValueError) as error:
        raise damaged(path, error) from None


def content_digest(path: Path, ignore: tuple[str, ...] = ("seconds",)) -> str:
    """A digest of a table's contents: its column names, types and values, in order.

    Unlike the file's bytes it ignores what a re-solve changes without
    changing a number (the writer's version, the creation time in the
    metadata, and the columns in ``ignore``: the solve's duration), so a
    test can pin the committed tables and any change in a value fails it."""
    import hashlib

    import numpy as np
    import pyarrow as pa

    digest = hashlib.sha256()

    def feed(array: pa.Array) -> None:
        if pa.types.is_list(array.type):
            offsets = array.offsets.to_numpy()
            digest.update((offsets - offsets[0]).astype("<i8").tobytes())
            feed(array.flatten())
        elif pa.types.is_fixed_size_list(array.type):
            feed(array.flatten())
        elif pa.types.is_string(array.type):
            digest.update("\0".join(array.to_pylist()).encode())
        else:
            values = array.to_numpy(zero_copy_only=False)
            if values.dtype == object:
                raise TypeError(f"no digest for a column of {array.type}")
            digest.update(np.ascontiguousarray(values, values.dtype.newbyteorder("<")).tobytes())

    table = read_table(path)
    for name in table.column_names:
        if name in ignore:
            continue
        column = table[name].combine_chunks()
        if column.null_count:
            raise damaged(path, ValueError(f"column {name} holds nulls"))
        digest.update(f"{name}:{column.type};".encode())
        feed(column)
    return digest.hexdigest()[:16]


def check_tables(directory: Path, config: GameConfig, objective: Objective,
                 metadata: dict[str, Any] | None = None) -> None:
    """Refuse tables that are missing, unfinished, damaged or made for another configuration or objective.

    Every table file present must have a readable footer with this solve's metadata (a file cut short
    or overwritten fails here). ``metadata`` is the summary file's, when already at hand (a query
    reads its index's copy, and checks no other file).
    """
    summary = directory / "summary.parquet"
    if directory.exists() and not directory.is_dir():
        raise InputError(f"{directory} is a file, not a table directory: name a finished solve's with --tables")
    if not directory.is_dir():
        raise InputError(f"no table directory {directory}: run {solve_command(directory, objective)} to make "
                         f"one, or name a finished solve's with --tables")
    if not summary.exists():
        raise InputError(f"no finished solve in {directory} (no summary.parquet): "
                         f"run {solve_command(directory, objective)}")
    wanted = describe(config, objective)
    files = [summary] if metadata is not None else [directory / n for n in TABLE_FILES if (directory / n).exists()]
    found_in = [(path.name, metadata if metadata is not None else read_metadata(path)) for path in files]
    if (directory / "manifest.json").exists():  # what a resumed or repeated solve trusts: damaged is refused too
        manifest = read_manifest(directory)
        if manifest is None:
            raise InputError(f"{directory / 'manifest.json'} is damaged (not a JSON object), so the tables cannot "
                             f"be trusted: {solve_command(directory, objective)} --force solves again, moving "
                             "them aside")
        found_in.append(("manifest.json", manifest))
    for name, found in found_in:
        differing = sorted(k for k in wanted if found.get(k) != wanted[k])
        if differing:
            problem = ", ".join(f"{k} {found.get(k)!r} (wanted {wanted[k]!r})" for k in differing)
            hint = ("; leave --config out to play the configuration they were solved for (their manifest.json's), "
                    "or name that one" if "fingerprint" in differing else "")
            raise InputError(f"tables in {directory} were made for another solve: {problem} (its {name}){hint}")


def lookup(path: Path, key: int, extra: list[tuple[str, Any]] | None = None) -> dict[str, Any] | None:
    """The first row of a table with this ``key`` (and equal ``extra`` column values), or None.

    Only the row groups whose ``key`` statistics can hold the key are read,
    and with the plain parquet reader: the dataset and compute modules are
    slow to import, and a query should not pay for them.
    """
    import pyarrow.parquet as pq

    handle = pq.ParquetFile(path)
    column = handle.schema_arrow.get_field_index("key")
    wanted = dict(extra or [])
    for group in range(handle.num_row_groups):
        stats = handle.metadata.row_group(group).column(column).statistics
        if stats is not None and stats.has_min_max and not stats.min <= key <= stats.max:
            continue
        rows = handle.read_row_group(group)
        keys = rows.column("key").to_pylist()
        columns = {name: rows.column(name).to_pylist() for name in wanted}
        for i in range(bisect_left(keys, key), len(keys)):
            if keys[i] != key:
                break
            if all(columns[name][i] == value for name, value in wanted.items()):
                return rows.slice(i, 1).to_pylist()[0]
    return None


def options_from_row(row: dict[str, Any], geometry: DeckGeometry) -> list[Option]:
    """The options stored in a deal or draw table row."""
    return [Option(a, parse_cards(d, geometry) if d else (), b, e, r)
            for a, d, b, e, r in zip(row["actions"], row["discards"], row["bets"], row["evs"], row["risks"])]


def sort_by_key(table: pa.Table, *columns: str) -> pa.Table:
    """Rows in increasing order of ``columns`` (the lookup order)."""
    import pyarrow.compute as pc  # slow to import, and a lookup does not need it

    return table.take(pc.sort_indices(table, sort_keys=[(c, "ascending") for c in columns]))
