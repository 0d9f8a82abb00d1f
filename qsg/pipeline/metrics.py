"""Metrics from runs' event logs: every table of docs/pipeline.md, as one Spark job.

``Events.load(spark, DIR)`` finds every run's ``events.parquet`` below DIR (a path or
any URI Spark reaches: only the listing, on the driver). ``store`` computes every
table and writes it through Spark's ``DataFrameWriter`` (``OUT/NAME/``, Parquet), as
``qsg metrics`` does; ``compute`` gives the tables to the driver instead, as Arrow
tables by name, and ``write`` stores tables the driver holds.

No table mixes runs: each is per run. So the job is one Spark job (``qsg.pipeline
.frames``): the runs, as a DataFrame, are dealt to as many tasks as Spark runs at once,
largest first (a task costs Spark about 30 ms of its own, a tenth of a run of a
million events), and ``mapInArrow`` computes all of each run's tables at once
(``qsg.pipeline.run_tables``: one read of the log, Arrow's vectorised kernels, no
shuffle). What a task hands on is aggregates (per bucket, per queue, per sample),
never the events; the driver sees one row a run unless a run fails. Tables that pool
runs (a sweep's points and knee) are Spark SQL over these (``qsg.pipeline.sweep``).

Definitions are the run summary's (``qsg.scenario.summary``), so a table and ``qsg
run``'s summary agree: latency is from a message's first MQPUT anywhere (put or
channel delivery) to each MQGET that returned it (browses not counted); percentiles are
exact nearest-rank.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from qsg.pipeline import frames
from qsg.pipeline.frames import ERROR, JobError, Rows, deal
from qsg.pipeline.run_tables import CDF_POINTS, HOLDER_LOST, SCHEMAS, run_tables
from qsg.pipeline.runs import RunFile, list_runs, read_log
from qsg.pipeline.where import to_uri

#: Every table, by the name it is written under (each one's columns and types).
TABLES: dict[str, pa.Schema] = SCHEMAS
#: The file a table is written as, in its directory, by ``write``. Spark names the
#: parts it writes ``part-NNNNN-...parquet``; Spark, pyarrow and DuckDB read a
#: table's directory as one table.
PART = "part-00000.parquet"
#: The runs' DataFrame: a row a run.
RUNS = pa.schema([("run", pa.string()), ("uri", pa.string()), ("size", pa.int64())])


@dataclass(frozen=True)
class Events:
    """Some runs' event logs (``runs``: found, with their sizes) and the time bucket of
    the time series, with the Spark session that computes their tables."""

    runs: list[RunFile]
    spark: Any
    interval: float = 1.0

    @classmethod
    def load(cls, spark: Any, root: str | Path, *, interval: float = 1.0) -> Events:
        """The runs under ``root``, a path or URI (ValueError if there are none)."""
        if interval <= 0:
            raise ValueError(f"the time bucket must be above 0 s, not {interval}")
        return cls(list_runs(spark, root), spark, interval)

    def packed(self) -> Any:
        """The job, not yet run: every run's tables, packed (``frames.packed``)."""
        rows = [{"run": r.run, "uri": r.uri, "size": r.size} for r in self.runs]
        dealt = frames.dealt(self.spark, rows, RUNS, [r.size for r in self.runs])
        return frames.packed(dealt, tables_task(self.interval), TABLES)


def tables_task(interval: float) -> Callable[[dict[str, Any]], Rows]:
    """What a task does with one run (a row of ``RUNS``): every table; or one ``ERROR``
    row saying why it could not."""

    def task(row: dict[str, Any]) -> Rows:
        try:
            made = run_tables(read_log(row["run"], row["uri"]), interval)
        except Exception as error:  # the run's failure is its row: the driver names it
            yield ERROR, row["run"], f"{type(error).__name__}: {error}".encode()
            return
        for name, table in made.items():
            yield name, row["run"], table

    return task


def failed(marked: list[tuple[str, str, bytes]], noun: str = "run") -> None:
    """Raise JobError naming the first item that failed, and how many others did."""
    errors = [(run, part.decode()) for table, run, part in marked if table == ERROR]
    if errors:
        run, message = sorted(errors)[0]
        more = f" (and {len(errors) - 1} more {noun}s failed)" if len(errors) > 1 else ""
        raise JobError(f"{noun} {run}: {message}{more}")


def store(ev: Events, out: str | Path, *, mode: str = "overwrite") -> str:
    """Every table of ``TABLES`` computed and written as Parquet under ``out`` (a path
    or URI: ``out/NAME/``) through Spark's ``DataFrameWriter``, replacing what was there
    (``mode="errorifexists"``: refusing to). The URI written to is returned. A run that
    cannot be read fails the job before any table is touched (JobError naming it)."""
    target = to_uri(out)
    job, marked = frames.settle(ev.packed())
    try:
        failed(marked)
        tables = {name: frames.unpacked(job, name, schema) for name, schema in TABLES.items()}
        frames.write_tables(ev.spark, tables, target, mode)
    finally:
        job.unpersist()
    return target


def compute(ev: Events) -> dict[str, pa.Table]:
    """Every table of ``TABLES``, by name, on the driver: one Spark job."""
    job, marked = frames.settle(ev.packed())
    try:
        failed(marked)
        return frames.gather(job, TABLES)
    finally:
        job.unpersist()


def write(tables: dict[str, pa.Table], out: str | Path) -> Path:
    """Each table as Parquet under ``out`` (``out/NAME/part-00000.parquet``), replacing
    what was there."""
    out = Path(out)
    for name, table in tables.items():
        where = out / name
        shutil.rmtree(where, ignore_errors=True)
        where.mkdir(parents=True)
        write_part(table, where / PART)
    return out


def write_part(table: pa.Table, path: Path) -> None:
    """One table (or a run's part of it) as a Parquet file: names (strings) as
    dictionaries, numbers as they are (a dictionary of times or counts is as big as
    they are, and Arrow hashes doubles slowly: a third of the time it took to write)."""
    strings = [f.name for f in table.schema if f.type == pa.string()]
    pq.write_table(table, str(path), use_dictionary=strings)


def read(out: str | Path) -> dict[str, pa.Table]:
    """The tables ``store`` or ``write`` (or a sweep) stored under the local directory
    ``out``, by name, in run order (each run's rows in the order they were made)."""
    return {p.name: read_table(p) for p in sorted(Path(out).iterdir()) if p.is_dir()}


def read_table(where: Path) -> pa.Table:
    """One table ``store``, ``write`` or a sweep stored in the local directory
    ``where``, its parts in run order."""
    parts = sorted(where.glob("part-*.parquet"))
    if not parts:
        raise ValueError(f"{where}: no part-*.parquet in it (not a table qsg wrote)")
    table = pa.concat_tables([pq.read_table(str(p)).replace_schema_metadata(None)
                              for p in parts])  # fmt: skip
    if "run" not in table.column_names:
        return table
    return table.take(pc.sort_indices(table["run"]))  # a stable sort: runs' rows in order


__all__ = ["CDF_POINTS", "HOLDER_LOST", "PART", "RUNS", "TABLES", "Events", "JobError",
           "compute", "deal", "failed", "read", "read_table", "store", "tables_task", "write",
           "write_part"]  # fmt: skip
