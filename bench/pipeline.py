"""The metrics job's speed on Spark, as a ratio to a bare scan in the same session (issue 9).

Writes 10 million synthetic events (10 runs of 1 million, the event log's own schema
and metadata: puts, gets, expiry discards, depth samples, channel batches, lease
changes) as Parquet, then on ``local[2]``:

1. the bare scan: ``spark.read.parquet(files).count()``;
2. the metrics job: every table of ``qsg.commands.pipeline.metrics`` computed and written as
   Parquet, partitioned by run, as ``qsg metrics`` does (``metrics.store``'s steps,
   each timed: listing the runs; the job, whose Python tasks compute every run's
   tables and write their parts into the staging directory; the driver's commit).

Prints events per second through the metrics job and its time as a multiple of the
bare scan's (target: within 5x). Each runs once first to warm up: the bare scan the
JVM, the job Spark's Python workers (imports, Arrow's first use: what a lone ``qsg
metrics`` pays, printed too). Then they take turns, ``--repeats`` times each (so that
the machine's moods fall on both), and the ratio is of their medians.

    ./dev bench pipeline                  # 10 million events
    ./dev bench pipeline --events 2000000 # a quicker look
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from qsg.commands.pipeline import frames, metrics
from qsg.commands.pipeline.spark import spark_session
from qsg.commands.pipeline.staging import Stage
from qsg.commands.pipeline.where import to_uri
from qsg.scenario import eventlog

RUNS = 10
MEMBERS = ("QM1", "QM2", "QM3")
SCOPES = {
    "members": {m: "QSG1" for m in MEMBERS},
    "shared": {"QSG1": ["APP.ORDERS"]},
    "structures": {"QSG1": {"APP1": {"size_kb": 1048576, "queues": ["APP.ORDERS"]}}},
}


def _column(name: str, values: pa.Array | None, n: int) -> pa.Array:
    kind = eventlog.COLUMNS[name]
    return values if values is not None else pa.nulls(n, kind)


def _table(columns: dict[str, pa.Array], n: int) -> pa.Table:
    arrays = [_column(name, columns.get(name), n) for name in eventlog.COLUMNS]
    return pa.Table.from_arrays(arrays, schema=eventlog.SCHEMA)


def synthetic_run(events: int, seed: int) -> pa.Table:
    """About ``events`` events of one run: per message a put, then a get (9 in 10) or an
    expiry discard, plus depth samples, channel batches and a few lease changes.
    Deterministic (hash-like arithmetic on the message number, no RNG)."""
    messages = int(events * 0.45)
    ids = pa.array(range(seed * 10**9, seed * 10**9 + messages), pa.int64())
    # MsgIds as a queue manager makes them: "AMQ ", its name in 12 bytes, a counter.
    msg_id = pa.array(
        [b"AMQ QM1         " + i.to_bytes(8, "big") for i in ids.to_pylist()],
        eventlog.COLUMNS["msg_id"],
    )
    hashed = pc.bit_wise_and(pc.multiply(ids, 2654435761), 0xFFFFFF)
    put_time = pc.divide(pc.cast(pa.array(range(messages), pa.int64()), pa.float64()), 125.0)
    wait = pc.divide(pc.cast(pc.bit_wise_and(hashed, 1023), pa.float64()), 4096.0)
    member = pc.if_else(pc.equal(pc.bit_wise_and(hashed, 1), 0), "QM1", "QM2")
    expired = pc.equal(pc.bit_wise_and(pc.shift_right(hashed, 10), 15), 0)  # ~1 in 16
    n = messages
    queue = pa.array(["APP.ORDERS"] * n)
    puts = _table(
        {
            "kind": pa.array(["put"] * n),
            "time": put_time,
            "q_mgr": member,
            "queue": queue,
            "msg_id": msg_id,
            "size": pa.array([1024] * n, pa.int64()),
            "persistent": pa.array([False] * n),
            "syncpoint": pa.array([False] * n),
            "expiry": pa.array([50] * n, pa.int64()),
        },
        n,
    )
    got_mask, gone_mask = pc.invert(expired), expired
    g = pc.sum(pc.cast(got_mask, pa.int64())).as_py()
    gets = _table(
        {
            "kind": pa.array(["get"] * g),
            "time": pc.filter(pc.add(put_time, wait), got_mask),
            "q_mgr": pa.array(["QM3"] * g),
            "queue": pa.array(["APP.ORDERS"] * g),
            "msg_id": pc.filter(msg_id, got_mask),
            "size": pa.array([1024] * g, pa.int64()),
            "syncpoint": pa.array([False] * g),
            "browse": pa.array([False] * g),
            "expiry": pa.array([40] * g, pa.int64()),
        },
        g,
    )
    d = n - g
    discards = _table(
        {
            "kind": pa.array(["discard"] * d),
            "time": pc.filter(pc.add(put_time, 5.5), gone_mask),
            "q_mgr": pa.array(["QM1"] * d),
            "queue": pa.array(["APP.ORDERS"] * d),
            "msg_id": pc.filter(msg_id, gone_mask),
            "by": pa.array(["scan"] * d),
        },
        d,
    )
    rest = events - n - g - d
    samples = max(rest // 2, 1)
    sample_time = pc.divide(pc.cast(pa.array(range(samples), pa.int64()), pa.float64()), 40.0)
    depths = _table(
        {
            "kind": pa.array(["depth"] * samples),
            "time": sample_time,
            "q_mgr": pa.array(["QM1"] * samples),
            "queue": pa.array(["APP.ORDERS"] * samples),
            "depth": pc.bit_wise_and(pc.cast(pa.array(range(samples)), pa.int64()), 63),
            "shared": pa.array([True] * samples),
        },
        samples,
    )
    b = max(rest - samples - 2, 1)
    batches = _table(
        {
            "kind": pa.array(["batch"] * b),
            "time": pc.divide(pc.cast(pa.array(range(b), pa.int64()), pa.float64()), 40.0),
            "q_mgr": pa.array(["QM1"] * b),
            "channel": pa.array(["QM1.TO.QM9"] * b),
            "sequence": pa.array(range(b), pa.int64()),
            "messages": pa.array([10] * b, pa.int64()),
            "size": pa.array([14520] * b, pa.int64()),
        },
        b,
    )
    leases = _table(
        {
            "kind": pa.array(["lease", "lease"]),
            "time": pa.array([0.0, 1000.0]),
            "q_mgr": pa.array(["QM1", "QM2"]),
            "role": pa.array(["EXPIRY.SCAN"] * 2),
            "token": pa.array([1, 2], pa.int64()),
            "previous": pa.array([None, "QM1"]),
        },
        2,
    )
    table = pa.concat_tables([puts, gets, discards, depths, batches, leases])
    metadata = {
        b"qsg.schema_version": eventlog.SCHEMA_VERSION.encode(),
        b"qsg.scopes": json.dumps(SCOPES).encode(),
        b"qsg.seed": str(seed).encode(),
    }
    return table.replace_schema_metadata(metadata)


def write_runs(root: Path, events: int) -> int:
    total = 0
    for r in range(RUNS):
        table = synthetic_run(events // RUNS, r + 1)
        (root / f"run{r:02d}").mkdir(parents=True)
        eventlog.write_table(table, root / f"run{r:02d}" / "events.parquet")
        total += table.num_rows
    return total


def _spread(times: list[float]) -> str:
    return "runs: " + ", ".join(f"{t:.2f}" for t in times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000_000)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs of each")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="qsg-bench-pipeline-"))
    try:
        began = time.perf_counter()
        total = write_runs(work / "runs", args.events)
        print(
            f"wrote {total:,} synthetic events in {RUNS} runs ({time.perf_counter() - began:.1f} s)"
        )
        spark = spark_session(args.master)
        files = [str(p) for p in sorted((work / "runs").rglob("events.parquet"))]
        spark.read.parquet(*files).count()  # warm-up

        def bare_scan() -> float:
            began = time.perf_counter()
            counted = spark.read.parquet(*files).count()
            assert counted == total, (counted, total)
            return time.perf_counter() - began

        phases: dict[str, list[float]] = {"list": [], "job": [], "commit": []}

        def metrics_job() -> float:
            # metrics.store's steps, each timed: where the job's time goes.
            began = time.perf_counter()
            ev = metrics.Events.load(spark, work / "runs")
            listed = time.perf_counter()
            stage = Stage.begin(to_uri(work / "metrics"), metrics.TABLES, "overwrite")
            assert stage is not None  # a local directory: staged by the tasks
            _, marked = frames.settle(ev.packed(stage.uri), persist=False)
            computed = time.perf_counter()  # the tasks: every run's tables, written
            metrics.failed(marked)
            stage.commit()
            stage.discard()
            done = time.perf_counter()
            for name, took in (
                ("list", listed - began),
                ("job", computed - listed),
                ("commit", done - computed),
            ):
                phases[name].append(took)
            return done - began

        cold = metrics_job()
        bare, job = [], []
        for _ in range(args.repeats):
            bare.append(bare_scan())
            job.append(metrics_job())
        b, j = statistics.median(bare), statistics.median(job)
        print(
            f"metrics job, first in the session ({len(metrics.TABLES)} tables written): "
            f"{cold:.2f} s, {total / cold:,.0f} events/s, {cold / b:.1f}x the bare scan"
        )
        print(
            f"bare scan (spark.read.parquet(...).count()), {args.repeats} times: "
            f"median {b:.2f} s ({_spread(bare)})"
        )
        print(
            f"metrics job, warm, {args.repeats} times: median {j:.2f} s ({_spread(job)}), "
            f"{total / j:,.0f} events/s"
        )
        print(
            "where the warm job's time went, medians: "
            + ", ".join(
                f"{name} {statistics.median(times[1:]):.2f} s" for name, times in phases.items()
            )
        )
        print(f"metrics job (warm) / bare scan, medians: {j / b:.1f}x (target: <= 5x)")
        spark.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
