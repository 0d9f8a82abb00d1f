"""Metrics from runs' event logs: every table of docs/pipeline.md, as one Spark job.

``Events.load(spark, DIR)`` finds every run's ``events.parquet`` below DIR (reading
only their footers, on the driver). ``compute`` gives every table by name, as Arrow
tables, and ``write`` stores them as Parquet (``OUT/NAME/``).

No table mixes runs: each is per run. So the job is one Spark task per run, and the
task computes all of its run's tables at once (``qsg.pipeline.run_tables``: one read
of the log, Arrow's vectorised kernels, no shuffle). What comes back to the driver is
aggregates — per bucket, per queue, per sample — so the driver holds the tables, not
the events. Tables that pool runs (a sweep's knee, over seeds) are built from these.

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
from typing import Any, TypeVar

import pyarrow as pa
import pyarrow.parquet as pq

from qsg.pipeline.run_tables import CDF_POINTS, HOLDER_LOST, SCHEMAS, run_tables
from qsg.pipeline.runs import RunLog, find_runs

T = TypeVar("T")

#: Every table, by the name it is written under (each one's columns and types).
TABLES: dict[str, pa.Schema] = SCHEMAS
#: The file each table is written as, in its directory (readable by Spark, pyarrow...).
PART = "part-00000.parquet"


@dataclass(frozen=True)
class Events:
    """Some runs' event logs (``runs``: found, their footers read) and the time bucket
    of the time series, with the Spark session that computes their tables."""

    runs: list[RunLog]
    spark: Any
    interval: float = 1.0

    @classmethod
    def load(cls, spark: Any, root: str | Path, *, interval: float = 1.0) -> Events:
        """The runs under ``root`` (ValueError if there are none)."""
        if interval <= 0:
            raise ValueError(f"the time bucket must be above 0 s, not {interval}")
        return cls(find_runs(root), spark, interval)

    def per_run(self, task: Callable[[RunLog], T]) -> list[T]:
        """``task`` of every run, as one Spark job of a task per run (in run order)."""
        runs = self.runs
        done: list[T] = self.spark.sparkContext.parallelize(runs, len(runs)).map(task).collect()
        return done


def compute(ev: Events) -> dict[str, pa.Table]:
    """Every table of ``TABLES``, by name: one Spark job, a task per run."""
    interval = ev.interval
    parts = ev.per_run(lambda run: pack(run_tables(run, interval)))
    tables = [unpack(p) for p in parts]
    return {name: pa.concat_tables([t[name] for t in tables]) for name in TABLES}


def pack(tables: dict[str, pa.Table]) -> dict[str, bytes]:
    """Tables as compressed Arrow IPC streams: what a task sends back to the driver (a
    run's name and scope on each of many rows compress to next to nothing)."""
    options = pa.ipc.IpcWriteOptions(compression="lz4")
    packed = {}
    for name, table in tables.items():
        sink = pa.BufferOutputStream()
        with pa.ipc.new_stream(sink, table.schema, options=options) as writer:
            writer.write_table(table)
        packed[name] = sink.getvalue().to_pybytes()
    return packed


def unpack(packed: dict[str, bytes]) -> dict[str, pa.Table]:
    """The tables ``pack`` packed."""
    return {name: pa.ipc.open_stream(body).read_all() for name, body in packed.items()}


def write(tables: dict[str, pa.Table], out: str | Path) -> Path:
    """Each table as Parquet under ``out`` (``out/NAME/part-00000.parquet``), replacing
    what was there."""
    out = Path(out)
    for name, table in tables.items():
        where = out / name
        shutil.rmtree(where, ignore_errors=True)
        where.mkdir(parents=True)
        pq.write_table(table, str(where / PART))
    return out


def read(out: str | Path) -> dict[str, pa.Table]:
    """The tables ``write`` (or a sweep) stored under ``out``, by name."""
    return {p.name: pq.read_table(str(p)) for p in sorted(Path(out).iterdir()) if p.is_dir()}


__all__ = ["CDF_POINTS", "HOLDER_LOST", "PART", "TABLES", "Events", "compute", "pack", "read",
           "unpack", "write"]  # fmt: skip
