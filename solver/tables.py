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
import shutil
import time
from bisect import bisect_left
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import __version__
from .cards import DeckGeometry, parse_cards
from .config import GameConfig
from .errors import InputError
from .objective import Objective
from .options import Option

if TYPE_CHECKING:
    import pyarrow as pa

#: Bump when the tables' layout or meaning changes, or when a code change can change any number in
#: them: tables and chunks of another format are never reused.
FORMAT = 3
METADATA_KEY = b"mahjong_poker"
ROW_GROUP_SIZE = 4096


def describe(config: GameConfig, objective: Objective) -> dict[str, Any]:
    """What a table directory is made for; two directories are interchangeable iff these match."""
    return {"format": FORMAT, "version": __version__, "fingerprint": config.fingerprint(), **objective.describe()}


def default_directory(config: GameConfig, objective: Objective) -> Path:
    """``strategy_tables/<fingerprint>``, with ``-bonus<B>`` or ``-<restriction>`` for other objectives."""
    return Path("strategy_tables") / (config.fingerprint() + objective.suffix())


def prepare_directory(directory: Path, config: GameConfig, objective: Objective, extra: dict[str, Any],
                      force: bool) -> None:
    """Create ``directory`` for a solve, or check that an existing one was made for the same solve.

    A directory made for another configuration, objective or code version
    is refused (``InputError`` naming the difference), or with ``force``
    moved aside to ``<directory>.replaced-<time>``.
    """
    manifest = directory / "manifest.json"
    wanted = {**describe(config, objective), **extra}
    if directory.exists() and any(directory.iterdir()):
        problem = None
        try:
            found = json.loads(manifest.read_text())
            differing = sorted(k for k in wanted if found.get(k) != wanted[k])
            if differing:
                problem = ", ".join(f"{k} {found.get(k)!r} (wanted {wanted[k]!r})" for k in differing)
        except (OSError, ValueError):
            problem = "it has no readable manifest.json"
        if problem is None:
            return
        if not force:
            raise InputError(f"table directory {directory} was made for another solve: {problem}; "
                             "use another --out, or --force to move it aside")
        shutil.move(str(directory), f"{directory}.replaced-{time.strftime('%Y%m%d-%H%M%S')}")
    (directory / "chunks").mkdir(parents=True, exist_ok=True)
    write_json(manifest, {**wanted, "config": config.to_toml()})


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Write a JSON file atomically."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True))
    os.replace(tmp, path)


def file_metadata(config: GameConfig, objective: Objective,
                  extra: dict[str, Any] | None = None) -> dict[bytes, bytes]:
    """Parquet file metadata: the configuration (TOML), its fingerprint, code version, date, objective."""
    data = {**describe(config, objective), "config": config.to_toml(),
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), **(extra or {})}
    return {METADATA_KEY: json.dumps(data, sort_keys=True).encode()}


def write_table(path: Path, table: pa.Table, metadata: dict[bytes, bytes]) -> None:
    """Write a parquet file atomically (temporary file, then rename)."""
    import pyarrow.parquet as pq  # here and below, not at the top: a query reads the index (table_index)

    table = table.replace_schema_metadata({**(table.schema.metadata or {}), **metadata})
    tmp = path.with_name(path.name + ".tmp")
    pq.write_table(table, tmp, row_group_size=ROW_GROUP_SIZE, compression="zstd")
    os.replace(tmp, path)


def read_metadata(path: Path) -> dict[str, Any]:
    """The ``mahjong_poker`` metadata of a parquet file written here."""
    import pyarrow.parquet as pq

    raw = pq.read_schema(path).metadata or {}
    if METADATA_KEY not in raw:
        raise InputError(f"{path} is not a mahjong-poker table")
    return json.loads(raw[METADATA_KEY])


def check_tables(directory: Path, config: GameConfig, objective: Objective,
                 metadata: dict[str, Any] | None = None) -> None:
    """Refuse tables that are missing, unfinished or made for another configuration or objective.

    ``metadata`` is the summary file's, when already at hand (a query reads its index's copy).
    """
    summary = directory / "summary.parquet"
    if not summary.exists():
        raise InputError(f"no finished solve in {directory} (no summary.parquet); run mahjong-poker solve")
    found = read_metadata(summary) if metadata is None else metadata
    wanted = describe(config, objective)
    differing = sorted(k for k in wanted if found.get(k) != wanted[k])
    if differing:
        problem = ", ".join(f"{k} {found.get(k)!r} (wanted {wanted[k]!r})" for k in differing)
        raise InputError(f"tables in {directory} were made for another solve: {problem}")


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
