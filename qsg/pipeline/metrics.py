"""Metrics from runs' event logs: every table of docs/pipeline.md, as one Spark job.

``Events.load(spark, DIR)`` finds every run's ``events.parquet`` below DIR (reading
only their footers, on the driver). ``store`` computes every table and writes it as
Parquet (``OUT/NAME/``, a part per run), as ``qsg metrics`` does; ``compute`` gives the
tables to the driver instead, as Arrow tables by name, and ``write`` stores tables the
driver holds.

No table mixes runs: each is per run. So the job is one Spark job, each of whose tasks
takes some runs and computes all of each run's tables at once
(``qsg.pipeline.run_tables``: one read of the log, Arrow's vectorised kernels, no
shuffle). The runs are dealt to as many tasks as Spark has cores, largest first: a task
costs Spark about 30 ms of its own, a tenth of a run of a million events. What a task
hands on — written from the task, or sent to the driver — is aggregates (per bucket,
per queue, per sample), never the events. Tables that pool runs (a sweep's knee, over
seeds) are built from these.

Definitions are the run summary's (``qsg.scenario.summary``), so a table and ``qsg
run``'s summary agree: latency is from a message's first MQPUT anywhere (put or
channel delivery) to each MQGET that returned it (browses not counted); percentiles are
exact nearest-rank.
"""

from __future__ import annotations

import heapq
import itertools
import shutil
from collections.abc import Callable, Iterable, Iterator, Sequence
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
#: The file a table is written as, in its directory, by ``write`` (``store`` writes a
#: part per run, numbered in run order: ``part-00000.parquet``, ``part-00001.parquet``...).
#: Spark and pyarrow read the directory as one table.
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
        """``task`` of every run (in run order), as one Spark job whose tasks each take
        some of the runs (``deal``)."""
        runs = self.runs
        hands = deal([_size(r) for r in runs], self.spark.sparkContext.defaultParallelism)

        def play(hand: Iterable[list[int]]) -> Iterator[tuple[int, T]]:
            for i in itertools.chain.from_iterable(hand):
                yield i, task(runs[i])

        done = self.spark.sparkContext.parallelize(hands, len(hands)).mapPartitions(play)
        return [result for _, result in sorted(done.collect(), key=lambda d: d[0])]


def _size(run: RunLog) -> int:
    try:
        return run.path.stat().st_size
    except OSError:  # gone since it was found: its task will say so
        return 0


def deal(sizes: Sequence[int], hands: int) -> list[list[int]]:
    """The indices of ``sizes`` dealt into at most ``hands`` hands of about the same
    total: the largest first, each to the hand holding least so far (in index order
    within a hand)."""
    hands = max(1, min(hands, len(sizes)))
    dealt: list[list[int]] = [[] for _ in range(hands)]
    held = [(0, 0, h) for h in range(hands)]  # (total, runs, hand): ties to the emptier
    for i in sorted(range(len(sizes)), key=lambda i: (-sizes[i], i)):
        total, count, h = heapq.heappop(held)
        dealt[h].append(i)
        heapq.heappush(held, (total + sizes[i], count + 1, h))
    return [sorted(hand) for hand in dealt if hand]


def store(ev: Events, out: str | Path) -> Path:
    """Every table of ``TABLES`` computed and written as Parquet under ``out``
    (``out/NAME/part-NNNNN.parquet``, a part per run, in run order), replacing what was
    there: one Spark job, its tasks writing their runs' tables themselves (on a
    cluster, ``out`` must be a directory every worker sees)."""
    out = Path(out)
    for name in TABLES:
        where = out / name
        shutil.rmtree(where, ignore_errors=True)
        where.mkdir(parents=True)
    interval = ev.interval
    parts = {r.run: f"part-{i:05d}.parquet" for i, r in enumerate(ev.runs)}

    def task(run: RunLog) -> None:
        for name, table in run_tables(run, interval).items():
            write_part(table, out / name / parts[run.run])

    ev.per_run(task)
    return out


def compute(ev: Events) -> dict[str, pa.Table]:
    """Every table of ``TABLES``, by name, on the driver: one Spark job."""
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
        write_part(table, where / PART)
    return out


def write_part(table: pa.Table, path: Path) -> None:
    """One table (or a run's part of it) as a Parquet file: names (strings) as
    dictionaries, numbers as they are (a dictionary of times or counts is as big as
    they are, and Arrow hashes doubles slowly: a third of the time it took to write)."""
    strings = [f.name for f in table.schema if f.type == pa.string()]
    pq.write_table(table, str(path), use_dictionary=strings)


def read(out: str | Path) -> dict[str, pa.Table]:
    """The tables ``store`` or ``write`` (or a sweep) stored under ``out``, by name
    (each one's parts in order)."""
    return {p.name: _read_parts(p) for p in sorted(Path(out).iterdir()) if p.is_dir()}


def _read_parts(where: Path) -> pa.Table:
    parts = sorted(where.glob("part-*.parquet"))
    if not parts:
        raise ValueError(f"{where}: no part-*.parquet in it (not a table qsg wrote)")
    return pa.concat_tables([pq.read_table(str(p)) for p in parts])


__all__ = ["CDF_POINTS", "HOLDER_LOST", "PART", "TABLES", "Events", "compute", "deal", "pack",
           "read", "store", "unpack", "write", "write_part"]  # fmt: skip
