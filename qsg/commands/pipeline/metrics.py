"""Metrics from runs' event logs: every table of docs/pipeline.md, as one Spark job.

``Events.load(spark, DIR)`` finds every run's ``events.parquet`` below DIR (a path or
any URI Spark reaches: only the listing, on the driver). ``store`` computes every
table and writes it through Spark's ``DataFrameWriter`` (``OUT/NAME/run=RUN/``:
Parquet, partitioned by run), as ``qsg metrics`` does; ``compute`` gives the tables to
the driver instead, as Arrow tables by name, and ``write`` stores tables the driver
holds.

No table mixes runs: each is per run. So the job is one Spark job (``qsg.commands.pipeline
.frames``): the runs, as a DataFrame, are dealt to as many tasks as Spark runs at once,
largest first (a task costs Spark about 30 ms of its own, a tenth of a run of a
million events), and ``mapInArrow`` computes all of each run's tables at once
(``qsg.commands.pipeline.run_tables``: one read of the log, Arrow's vectorised kernels, no
shuffle). What a task hands on is aggregates (per bucket, per queue, per sample),
never the events; the driver sees one row a run unless a run fails. Tables that pool
runs (a sweep's points and knee) are Spark SQL over these (``qsg.commands.pipeline.sweep``).

Definitions are the run summary's (``qsg.scenario.summary``), so a table and ``qsg
run``'s summary agree: latency is from a message's first MQPUT anywhere (put or
channel delivery) to each MQGET that returned it (browses not counted); percentiles are
exact nearest-rank.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from qsg.commands.pipeline import frames
from qsg.commands.pipeline.frames import ERROR, JobError, Rows, deal
from qsg.commands.pipeline.run_tables import CDF_POINTS, HOLDER_LOST, SCHEMAS, run_tables
from qsg.commands.pipeline.runs import RunFile, list_runs, read_log
from qsg.commands.pipeline.staging import (
    PART,
    PARTITION,
    Stage,
    TableExistsError,
    partition_dir,
    write_part,
)
from qsg.commands.pipeline.where import arrow_opens, to_uri

#: Every table, by the name it is written under (each one's columns and types).
TABLES: dict[str, pa.Schema] = SCHEMAS
#: The runs' DataFrame: a row a run.
RUNS = pa.schema([("run", pa.string()), ("uri", pa.string()), ("size", pa.int64())])


@dataclass(frozen=True)
class Events:
    """Some runs' event logs (``runs``: found, with their sizes) and the time bucket of
    the time series, with the Spark session that computes their tables."""

    runs: list[RunFile]
    spark: Any
    interval: float = 1.0
    #: The logs read by Spark (``binaryFile``), not by pyarrow where each task runs:
    #: for a filesystem pyarrow cannot open here (``viewfs://``; ``hdfs://`` without
    #: libhdfs; ``abfss://`` in a pyarrow without Azure's filesystem).
    through_spark: bool = False

    @classmethod
    def load(cls, spark: Any, root: str | Path, *, interval: float = 1.0) -> Events:
        """The runs under ``root``, a path or URI (ValueError if there are none)."""
        if interval <= 0:
            raise ValueError(f"the time bucket must be above 0 s, not {interval}")
        runs = list_runs(spark, root)
        return cls(runs, spark, interval, through_spark=not arrow_opens(runs[0].uri))

    def packed(self, stage: str | None = None) -> Any:
        """The job, not yet run: every run's tables, packed (``frames.packed``), or
        written by the tasks below ``stage`` (``qsg.commands.pipeline.staging``)."""
        if self.through_spark:
            return frames.packed_rows(self._files(), self._file_task(), TABLES, stage=stage)
        rows = [{"run": r.run, "uri": r.uri, "size": r.size} for r in self.runs]
        dealt = frames.dealt(self.spark, rows, RUNS, [r.size for r in self.runs])
        return frames.packed(dealt, tables_task(self.interval), TABLES, stage=stage)

    def _files(self) -> Any:
        """The logs as Spark reads them: a row a file, its ``path`` and ``content``
        (Spark's file partitions group them by size, as ``deal`` would)."""
        files = self.spark.read.format("binaryFile").load([r.uri for r in self.runs])
        return files.select("path", "content")

    def _file_task(self) -> Callable[[dict[str, Any]], Rows]:
        """``tables_task`` of a file's row: its run found by its path, as Spark spells it."""
        names = {r.uri: r.run for r in self.runs}
        each_run = tables_task(self.interval)

        def task(row: dict[str, Any]) -> Rows:
            uri = to_uri(row["path"])
            yield from each_run({"run": names[uri], "uri": uri, "content": row["content"]})

        return task


def tables_task(interval: float) -> Callable[[dict[str, Any]], Rows]:
    """What a task does with one run (a row of ``RUNS``, or one with the log's
    ``content`` read by Spark): every table; or one ``ERROR`` row saying why it could
    not."""

    def task(row: dict[str, Any]) -> Rows:
        try:
            log = read_log(row["run"], row["uri"], row.get("content"))
            made = run_tables(log, interval)
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
    cannot be read fails the job before any table is touched (JobError naming it).

    One Spark job: its tasks write the tables' parts, the driver commits them
    (``qsg.commands.pipeline.staging``); where pyarrow cannot reach ``out``, the tables' rows
    go to Spark's writers instead (``frames.write_tables``)."""
    target = to_uri(out)
    try:
        stage = Stage.begin(target, TABLES, mode)
    except TableExistsError as error:
        raise JobError(str(error)) from None
    if stage is None:
        return _store_through_spark(ev, target, mode)
    try:
        _, marked = frames.settle(ev.packed(stage.uri), persist=False)
        failed(marked)
        stage.commit()
    finally:
        stage.discard()
    return target


def _store_through_spark(ev: Events, target: str, mode: str) -> str:
    """``store`` by Spark's ``DataFrameWriter``: a persisted wide frame, a write a table."""
    job, marked = frames.settle(ev.packed())
    try:
        failed(marked)
        tables = {name: frames.unpacked(job, name, schema) for name, schema in TABLES.items()}
        frames.write_tables(ev.spark, tables, target, mode, partitioned=TABLES)
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
    """Each table as Parquet under ``out``, replacing what was there: a table of
    ``TABLES`` partitioned by run (``out/NAME/run=RUN/part-00000.parquet``), any other
    as ``out/NAME/part-00000.parquet``; each with ``_SUCCESS``, as Spark lays them out."""
    out = Path(out)
    for name, table in tables.items():
        where = out / name
        shutil.rmtree(where, ignore_errors=True)
        where.mkdir(parents=True)
        if name in TABLES:
            for run in pc.unique(table[PARTITION]).to_pylist():
                mine = table.filter(pc.equal(table[PARTITION], run)).drop_columns([PARTITION])
                (where / partition_dir(run)).mkdir()
                write_part(mine, str(where / partition_dir(run) / PART))
        else:
            write_part(table, str(where / PART))
        (where / "_SUCCESS").touch()
    return out


def partition_of(directory: str) -> str:
    """The run whose partition ``directory`` (``run=NAME``) holds: NAME unescaped."""
    return re.sub(
        r"%([0-9A-Fa-f]{2})", lambda m: chr(int(m[1], 16)), directory.removeprefix(PARTITION + "=")
    )


def read(out: str | Path) -> dict[str, pa.Table]:
    """The tables ``store`` or ``write`` (or a sweep) stored under the local directory
    ``out``, by name, in run order (each run's rows in the order they were made)."""
    return {
        p.name: read_table(p, TABLES.get(p.name))
        for p in sorted(Path(out).iterdir())
        if p.is_dir() and not p.name.startswith(("_", "."))  # a job's staging: not a table
    }


def read_table(where: Path, schema: pa.Schema | None = None) -> pa.Table:
    """One table ``store``, ``write`` or a sweep stored in the local directory
    ``where`` (partitioned by run or not), in run order, in ``schema`` if given
    (which a table with no rows needs: Spark writes no part of it)."""
    parts: list[tuple[str | None, Path]] = [(None, p) for p in sorted(where.glob("part-*.parquet"))]
    runs = sorted((partition_of(d.name), d) for d in where.glob(PARTITION + "=*") if d.is_dir())
    parts += [(run, p) for run, d in runs for p in sorted(d.glob("part-*.parquet"))]
    if not parts:
        if schema is not None and (where / "_SUCCESS").exists():
            return schema.empty_table()
        raise ValueError(f"{where}: no part-*.parquet in it (not a table qsg wrote)")
    tables = []
    for run, path in parts:
        table = pq.read_table(str(path)).replace_schema_metadata(None)
        if run is not None:
            table = table.add_column(0, PARTITION, pa.repeat(pa.scalar(run), table.num_rows))
        tables.append(table if schema is None else table.select(schema.names).cast(schema))
    table = pa.concat_tables(tables)
    if PARTITION not in table.column_names:
        return table
    return table.take(pc.sort_indices(table[PARTITION]))  # a stable sort: runs' rows in order


def load(spark: Any, location: str, schema: pa.Schema) -> Any:
    """A stored table (a URI, partitioned by run or not) as a DataFrame of ``schema``,
    its columns in order: the schema given, so that ``run`` is a string whatever the
    runs are named, and a table with no rows (no part) reads as empty."""
    return spark.read.schema(frames.ddl(schema)).parquet(location).select(*schema.names)


__all__ = [
    "CDF_POINTS",
    "HOLDER_LOST",
    "PART",
    "PARTITION",
    "RUNS",
    "TABLES",
    "Events",
    "JobError",
    "compute",
    "deal",
    "failed",
    "load",
    "partition_dir",
    "partition_of",
    "read",
    "read_table",
    "store",
    "tables_task",
    "write",
    "write_part",
]
