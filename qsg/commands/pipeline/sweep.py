"""``qsg sweep``: a sweep's points as one Spark job, then the points table and the knee.

The points are a DataFrame, dealt to tasks by their expected cost (offered load,
members and duration: the events a point makes), a hand of points a task
(``qsg.commands.pipeline.frames``). On the executors, ``mapInArrow`` plays each point in
virtual time with its own embedded coupling-facility server (or, given ``--redis
URL``, on that server, in a database of its own per task, so concurrent points never
share keys), writes the run to ``OUT/runs/POINT/`` (the scenario, run.json,
summary.json, events.parquet: through ``pyarrow.fs`` when OUT is a URI), and computes
the point's metrics tables and its objective's latencies there and then. A point that
fails is a row with its error; the others carry on. Then, in the same job graph, with
no event on the driver:

- the metrics tables, written to ``OUT/metrics/`` through ``DataFrameWriter``, each
  partitioned by point (its run: ``OUT/metrics/NAME/run=POINT/``);
- ``points`` (Spark SQL): a row per point: its parameters, seed, offered load
  (messages/s), throughput (the MQGETs after the warm-up, on the objective's queue or
  every queue, over the seconds from the warm-up's end to the run's last event: the
  summary's), latency p50/p99 of those gets whose message was put after the warm-up
  (``percentile_disc``, which is nearest-rank), and its error if it failed;
- ``knee`` (Spark SQL, window functions): per group of points that differ only in
  load, the offered loads with the p99 pooled over the seeds, and the knee: the highest
  load whose p99, and every lower load's, stays within the objective.

The driver collects only the points' results (a row a point) and, to print them,
the ``points`` and ``knee`` tables.
"""

from __future__ import annotations

import json
import tempfile
import time
import tomllib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from coupling.server import DATABASES, on_database
from qsg.commands.pipeline import frames
from qsg.commands.pipeline.answer import point_intervals
from qsg.commands.pipeline.frames import RESULT, JobError, Rows
from qsg.commands.pipeline.metrics import TABLES, load, read_table
from qsg.commands.pipeline.run_tables import RunEvents, gets_of, read_events, tables_of
from qsg.commands.pipeline.runs import EVENTS, read_log
from qsg.commands.pipeline.spark import parallelism
from qsg.commands.pipeline.staging import Stage, TableExistsError
from qsg.commands.pipeline.sweep_file import Point, Sweep
from qsg.commands.pipeline.where import arrow_fs, child, is_local, local_path, to_uri

#: At most this many points at once on one shared Redis (its databases 0..15).
REDIS_DATABASES = DATABASES
_S, _D, _L, _B = pa.string(), pa.float64(), pa.int64(), pa.bool_()
#: The ``points`` table's columns.
POINTS = pa.schema(
    [
        ("run", _S),
        ("params", _S),
        ("group", _S),
        ("seed", _L),
        ("offered_load", _D),
        ("members", _L),
        ("got", _L),
        ("throughput", _D),
        ("latency_p50", _D),
        ("latency_p99", _D),
        ("error", _S),
    ]
)
#: The ``knee`` table's columns.
KNEE = pa.schema(
    [
        ("group", _S),
        ("offered_load", _D),
        ("got", _L),
        ("latency_p99", _D),
        ("objective_p99", _D),
        ("meets", _B),
        ("knee", _B),
    ]
)
#: The points' DataFrame: what a task needs to play one.
POINT_ROWS = pa.schema(
    [
        ("run", _S),
        ("text", _S),
        ("seed", _L),
        ("params", _S),
        ("group", _S),
        ("offered_load", _D),
        ("members", _L),
    ]
)
#: A point's MQGETs on the objective's queue after the warm-up, each with its latency
#: (null for a message put during the warm-up: counted in the throughput, not in the
#: percentiles): a packed table of its own, which stays on the executors (``points``
#: and ``knee`` are made from it there).
LATENCIES = pa.schema([("run", _S), ("latency", _D)])
_LATENCY = "objective_latency"


@dataclass(frozen=True)
class PointResult:
    """What a task reports of its point: events written, simulated and wall seconds,
    or the error that stopped it."""

    run: str
    events: int = 0
    simulated: float = 0.0
    wall_seconds: float = 0.0
    error: str = ""


@dataclass(frozen=True)
class Swept:
    """A sweep's outcome on the driver: each point's result (in point order), and the
    ``points`` and ``knee`` tables (empty if every point failed)."""

    results: list[PointResult]
    points: pa.Table
    knee: pa.Table
    out: str


def play_point(point: Point, run_dir: Path, redis_url: str | None = None) -> PointResult:
    """Play one point and write its run to ``run_dir`` (runs on an executor)."""
    from qsg.commands.helpers import write_run
    from qsg.scenario.load import parse_scenario
    from qsg.scenario.play import run_scenario

    began = time.perf_counter()
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
        source = run_dir / "point.toml"
        source.write_text(point.text, encoding="utf-8")
        scenario = parse_scenario(point.text, str(source), base=run_dir)
        result = run_scenario(scenario, redis_url=redis_url, seed=point.seed)
        write_run(run_dir, source, result)
        (run_dir / "point.json").write_text(
            json.dumps(
                {
                    "run": point.run,
                    "params": point.params,
                    "seed": point.seed,
                    "offered_load": point.offered_load,
                    "members": point.members,
                },
                indent=2,
            )
            + "\n"
        )
        # Its coupling facility failed unscheduled: its run is kept, but it measured a
        # failure, not the point's capacity, and the sweep says so (and exits 1).
        return PointResult(
            point.run,
            len(result.events),
            result.scenario.run.duration,
            time.perf_counter() - began,
            result.failure() or "",
        )
    except Exception as error:  # the point's failure is its result; the sweep goes on
        return PointResult(
            point.run,
            wall_seconds=time.perf_counter() - began,
            error=f"{type(error).__name__}: {error}",
        )


def objective_latencies(ev: RunEvents, queue: str) -> pa.Array:
    """The latency of each of a run's MQGETs from ``queue`` (every queue if it is
    empty) after its warm-up: null for a message first put during it."""
    gets = gets_of(ev)
    if queue:
        gets = gets.filter(pc.equal(gets["queue"], queue))
    return gets["latency"].combine_chunks()


def expected_cost(point: Point) -> int:
    """A point's expected cost, in events: its messages (offered load x duration) and
    its members' samples. What the points are dealt to tasks by."""
    run = tomllib.loads(point.text).get("run", {})
    duration = float(run.get("duration", 60))
    return max(1, round((point.offered_load + point.members) * duration))


def point_task(
    out: str, interval: float, queue: str, redis_url: str | None
) -> Callable[[dict[str, Any]], Rows]:
    """What a task does with one point (a row of ``POINT_ROWS``): play it, write its
    run below ``out``, and hand on its tables and latencies, packed, and its result."""

    def task(row: dict[str, Any]) -> Rows:
        point = Point(
            row["run"],
            json.loads(row["params"]),
            row["seed"],
            row["text"],
            row["offered_load"],
            row["members"],
        )
        url = on_database(redis_url, row["hand"] % REDIS_DATABASES) if redis_url else None
        with tempfile.TemporaryDirectory(prefix="qsg-point-") as scratch:
            local = is_local(out)
            run_dir = (local_path(out) if local else Path(scratch)) / "runs" / point.run
            result = play_point(point, run_dir, url)
            made: dict[str, pa.Table] = {}
            if not result.error:
                try:
                    log = read_log(point.run, run_dir / EVENTS)
                    ev = RunEvents(log, read_events(log), interval)
                    made = tables_of(ev)
                    values = objective_latencies(ev, queue)
                    made[_LATENCY] = pa.table(
                        {"run": pa.repeat(point.run, len(values)), "latency": values},
                        schema=LATENCIES,
                    )
                    if not local:
                        _upload(run_dir, child(out, "runs", point.run))
                except Exception as error:  # its run is unreadable or unwritable: say so
                    made = {}
                    result = PointResult(
                        point.run,
                        result.events,
                        result.simulated,
                        result.wall_seconds,
                        f"{type(error).__name__}: {error}",
                    )
        for name, table in made.items():
            yield name, point.run, table
        yield RESULT, point.run, json.dumps(asdict(result)).encode()

    return task


def _upload(run_dir: Path, target: str) -> None:
    """A point's run directory copied to ``target`` (a URI) through pyarrow.fs."""
    from pyarrow import fs

    filesystem, path = arrow_fs(target)
    filesystem.create_dir(path, recursive=True)
    fs.copy_files(
        str(run_dir),
        path,
        source_filesystem=fs.LocalFileSystem(),
        destination_filesystem=filesystem,
    )


def check_out(target: str) -> None:
    """ValueError naming ``target`` (a URI) if a sweep cannot write there: each task
    writes its point's run with pyarrow (Spark's writers take tables, not a run's
    files), so OUT must be a path or a URI pyarrow opens where the tasks run."""
    try:
        arrow_fs(target)
    except ValueError as error:
        raise ValueError(
            f"{error}; a sweep's tasks write each point's run with pyarrow: give --out "
            "as a path, or an s3a://, gs://, abfss:// or hdfs:// (with libhdfs) URI"
        ) from None


def run_sweep(
    spark: Any,
    sweep: Sweep,
    out: str | Path,
    redis_url: str | None = None,
    *,
    interval: float = 1.0,
    mode: str = "overwrite",
) -> Swept:
    """Every point of ``sweep`` played, their tables with ``points`` and ``knee`` written
    to ``out/metrics`` (a path or URI) and ``out/sweep.json``: one Spark job of the
    points, then the tables' writes. JobError if Spark itself failed."""
    target = to_uri(out)
    check_out(target)  # before any point is played
    points = sweep.points
    rows: list[dict[str, Any]] = [
        {
            "run": p.run,
            "text": p.text,
            "seed": p.seed,
            "params": json.dumps(p.params, sort_keys=True),
            "group": p.group,
            "offered_load": p.offered_load,
            "members": p.members,
        }
        for p in points
    ]
    hands = None
    if redis_url is not None:  # a database each: at most 16 tasks
        hands = min(REDIS_DATABASES, parallelism(spark))
    dealt = frames.dealt(spark, rows, POINT_ROWS, [expected_cost(p) for p in points], hands=hands)
    queue = sweep.objective.queue or ""
    task = point_task(target, interval, queue, redis_url)
    metrics_uri = child(target, "metrics")
    try:
        stage = Stage.begin(metrics_uri, [*TABLES, "points", "knee"], mode, scratch=[_LATENCY])
    except TableExistsError as error:
        raise JobError(str(error)) from None
    schemas = {**TABLES, _LATENCY: LATENCIES}
    job, marked = frames.settle(
        frames.packed(dealt, task, schemas, stage=stage.uri if stage else None),
        persist=stage is None,
    )
    try:
        done = {
            run: PointResult(**json.loads(part)) for table, run, part in marked if table == RESULT
        }
        results = [done[p.run] for p in points]
        if all(r.error for r in results):
            return Swept(results, POINTS.empty_table(), KNEE.empty_table(), target)
        # ``points`` and ``knee`` need two of the tables: the runs (their ends) and the
        # objective's latencies. Staged, Spark reads them where they wait (each read
        # lists a directory a point: 0.4 s a table on local[2], so only these two).
        needed = {"runs": TABLES["runs"], _LATENCY: LATENCIES}
        if stage is not None:
            tables = {name: load(spark, stage.table(name), s) for name, s in needed.items()}
        else:
            tables = {name: frames.unpacked(job, name, s) for name, s in schemas.items()}
        lat = tables.pop(_LATENCY)
        played = spark.createDataFrame(
            pa.Table.from_pylist(
                [{**row, "error": done[row["run"]].error or None} for row in rows],
                schema=POINT_ROWS.append(pa.field("error", _S)),
            ).drop_columns(["text"])
        )
        summaries = {
            "points": points_frame(played, tables["runs"], lat),
            "knee": knee_frame(played, lat, sweep.objective.p99),
        }
        if stage is not None:  # the two small tables' jobs side by side
            with ThreadPoolExecutor(max_workers=2) as pool:
                list(
                    pool.map(
                        lambda i: i[1].write.parquet(stage.table(i[0]), mode="overwrite"),
                        summaries.items(),
                    )
                )
            stage.commit()
        else:
            frames.write_tables(
                spark, {**tables, **summaries}, metrics_uri, mode, partitioned=TABLES
            )
    except JobError:
        raise
    except Exception as error:  # Spark's, reading or writing the summaries: one line
        raise JobError(frames.one_line(error)) from None
    finally:
        job.unpersist()
        if stage is not None:
            stage.discard()
    shown = {
        name: _read_back(spark, child(metrics_uri, name), schema)
        for name, schema in (("points", POINTS), ("knee", KNEE))
    }
    _write_text(
        child(target, "sweep.json"),
        json.dumps(
            {
                "sweep": str(sweep.path),
                "scenario": str(sweep.base),
                "seeds": sweep.seeds,
                "vary": sweep.vary,
                "objective": asdict(sweep.objective),
                "points": len(points),
                "intervals": point_intervals(shown["points"].to_pylist()),
            },
            indent=2,
        )
        + "\n",
    )
    return Swept(results, shown["points"], shown["knee"], target)


def points_frame(played: Any, runs: Any, lat: Any) -> Any:
    """``points`` in Spark SQL: each point (``played``: its parameters and error) with
    its gets after the warm-up, its throughput (those gets over the seconds the run's
    figures cover: ``runs.seconds``, from the warm-up's end to the last event, as the
    summary's ``totals.seconds``) and the nearest-rank p50/p99 of the gets measured
    (``lat``'s latencies that are not null), on the objective's queue."""
    from pyspark.sql import functions as F

    # percentile_disc, like every aggregate but count(*), leaves the nulls out.
    per_run = lat.groupBy("run").agg(
        F.count("*").alias("got"),
        F.expr("percentile_disc(0.5) WITHIN GROUP (ORDER BY latency)").alias("latency_p50"),
        F.expr("percentile_disc(0.99) WITHIN GROUP (ORDER BY latency)").alias("latency_p99"),
    )
    joined = played.join(per_run, "run", "left").join(runs.select("run", "seconds"), "run", "left")
    got = F.coalesce(F.col("got"), F.lit(0)).cast("bigint")
    throughput = F.when(F.col("seconds") > 0, got / F.col("seconds"))
    return joined.select(
        "run",
        "params",
        "group",
        "seed",
        "offered_load",
        "members",
        got.alias("got"),
        throughput.cast("double").alias("throughput"),
        "latency_p50",
        "latency_p99",
        "error",
    ).orderBy("run")


def knee_frame(played: Any, lat: Any, objective: float) -> Any:
    """``knee`` in Spark SQL: per group and offered load, the p99 pooled over the seeds,
    whether it meets the objective, and ``knee`` on the highest load where it and every
    lower load do (window functions over the loads of each group)."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    loads = played.select("run", "group", "offered_load")
    pooled = (
        lat.join(loads, "run")
        .groupBy("group", "offered_load")
        .agg(
            F.count("*").alias("got"),
            F.expr("percentile_disc(0.99) WITHIN GROUP (ORDER BY latency)").alias("latency_p99"),
        )
    )
    every = loads.select("group", "offered_load").distinct()
    rows = every.join(pooled, ["group", "offered_load"], "left")
    # Nothing got at a load is not a load that meets the objective.
    meets = F.coalesce(F.col("latency_p99") <= F.lit(objective), F.lit(False))
    rows = rows.withColumn("meets", meets)
    by_load = Window.partitionBy("group").orderBy("offered_load")
    so_far = by_load.rowsBetween(Window.unboundedPreceding, Window.currentRow)
    rows = rows.withColumn("all_meet", F.min(F.col("meets").cast("int")).over(so_far))
    after = F.coalesce(F.lead("all_meet").over(by_load), F.lit(0))
    knee = (F.col("all_meet") == 1) & (after == 0)
    return rows.select(
        "group",
        "offered_load",
        F.coalesce(F.col("got"), F.lit(0)).cast("bigint").alias("got"),
        "latency_p99",
        F.lit(objective).cast("double").alias("objective_p99"),
        "meets",
        knee.alias("knee"),
    ).orderBy("group", "offered_load")


def _read_back(spark: Any, location: str, schema: pa.Schema) -> pa.Table:
    """A small table just written, on the driver, in its schema."""
    if is_local(location):
        return read_table(local_path(location)).cast(schema)
    found = spark.read.parquet(location).toArrow().select(schema.names).cast(schema)
    return found.sort_by([(schema.names[0], "ascending")])


def _write_text(location: str, text: str) -> None:
    if is_local(location):
        local_path(location).parent.mkdir(parents=True, exist_ok=True)
        local_path(location).write_text(text, encoding="utf-8")
        return
    filesystem, path = arrow_fs(location)
    with filesystem.open_output_stream(path) as f:
        f.write(text.encode())


__all__ = [
    "KNEE",
    "LATENCIES",
    "POINTS",
    "POINT_ROWS",
    "REDIS_DATABASES",
    "PointResult",
    "Swept",
    "check_out",
    "expected_cost",
    "knee_frame",
    "objective_latencies",
    "play_point",
    "point_task",
    "points_frame",
    "run_sweep",
]
