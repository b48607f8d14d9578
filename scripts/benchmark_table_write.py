"""Time how a solve writes and reads a large table, with its floating-point columns byte-stream-split or not.

    python scripts/benchmark_table_write.py strategy_tables/7981a1455f0f2315/holds.parquet --rows 4000000

Reads the first ``--rows`` rows of a table (stage A's ``holds.parquet`` is the largest a solve writes),
then, ``--repeats`` times in alternation, writes them as a solve does (``solver.tables.files.write_parts``:
zstd, row groups of ``ROW_GROUP_SIZE``, in parts of 50,000 rows) and as it does with plain encoding
instead, and reads each file back whole. Prints the median seconds and the files' sizes; the tables read
back are checked equal to the one written.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from unittest import mock

import pyarrow.parquet as pq

from solver.tables import files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table", type=Path)
    parser.add_argument("--rows", type=int, default=4_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    table = pq.read_table(args.table).slice(0, args.rows).replace_schema_metadata(None)
    parts = [table.slice(start, 50_000) for start in range(0, table.num_rows, 50_000)]
    times: dict[str, dict[str, list[float]]] = {"split": {"write": [], "read": []}, "plain": {"write": [], "read": []}}
    sizes = {}
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.repeats):
            for name in times:
                path = Path(folder) / f"{name}.parquet"
                with mock.patch.object(files, "_split_columns", files._split_columns if name == "split"
                                       else lambda schema: []):
                    start = time.perf_counter()
                    files.write_parts(path, parts, {})
                    times[name]["write"].append(time.perf_counter() - start)
                start = time.perf_counter()
                back = pq.read_table(path)
                times[name]["read"].append(time.perf_counter() - start)
                if not back.replace_schema_metadata(None).equals(table):
                    raise SystemExit(f"{name}: the table read back differs")
                sizes[name] = path.stat().st_size
    result = {name: {"write_s": statistics.median(t["write"]), "read_s": statistics.median(t["read"]),
                     "megabytes": sizes[name] / 1e6} for name, t in times.items()}
    if args.json:
        print(json.dumps({"rows": table.num_rows, **result}))
        return
    print(f"{table.num_rows} rows of {args.table}, medians of {args.repeats}:")
    for name, r in result.items():
        print(f"  {name:5}  write {r['write_s']:.2f} s  read {r['read_s']:.2f} s  {r['megabytes']:.0f} MB")


if __name__ == "__main__":
    main()
