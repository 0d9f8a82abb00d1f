"""``qsg sweep``: the points of a sweep as Spark tasks, then metrics and the knee.

Each point is one task: the worker plays the point's scenario in virtual time with its
own embedded coupling-facility server (or, given ``--redis URL``, on that server, in
a database of its own per partition, so concurrent points never share keys) and writes
the run to ``OUT/runs/POINT/`` (the scenario, run.json, summary.json, events.parquet).
A point that fails says why in its result; the others carry on. Then the pipeline
reads every point's events, writes the metrics tables to ``OUT/metrics/``, and adds:

- ``points``: a row per point: its parameters, seed, offered load (messages/s),
  throughput (gets/s), latency p50/p99 (the objective's queue, or all gets);
- ``knee``: per group of points that differ only in load, the offered loads with the
  p99 pooled over the seeds, and the knee: the highest load whose p99, and every lower
  load's, stays within the objective.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from qsg.pipeline import metrics
from qsg.pipeline.sweep_file import Point, Sweep

#: At most this many points at once on one shared Redis (its databases 0..15).
REDIS_DATABASES = 16


@dataclass(frozen=True)
class PointResult:
    """What a task reports of its point: events written, simulated and wall seconds,
    or the error that stopped it."""

    run: str
    events: int = 0
    simulated: float = 0.0
    wall_seconds: float = 0.0
    error: str = ""


def play_point(point: Point, out: str, redis_url: str | None = None) -> PointResult:
    """Play one point and write its run below ``out`` (runs on a Spark worker)."""
    from qsg.cli import write_run
    from qsg.scenario.load import parse_scenario
    from qsg.scenario.play import run_scenario

    began = time.perf_counter()
    try:
        run_dir = Path(out) / "runs" / point.run
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
        return PointResult(point.run, len(result.events), result.scenario.run.duration,
                           time.perf_counter() - began)  # fmt: skip
    except Exception as error:  # the point's failure is its result; the sweep goes on
        return PointResult(point.run, wall_seconds=time.perf_counter() - began,
                           error=f"{type(error).__name__}: {error}")  # fmt: skip


def _with_database(url: str, database: int) -> str:
    """``url`` on Redis logical database ``database``."""
    from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.scheme == "unix":
        query = dict(parse_qsl(parts.query))
        query["db"] = str(database)
        return urlunsplit(parts._replace(query=urlencode(query)))
    return urlunsplit(parts._replace(path=f"/{database}"))


def run_points(
    spark: Any, sweep: Sweep, out: Path, redis_url: str | None = None
) -> list[PointResult]:
    """Every point of ``sweep`` as a Spark task; their results, in point order."""
    points = sweep.points
    target = str(out.resolve())
    sc = spark.sparkContext
    if redis_url is None:
        rdd = sc.parallelize(points, len(points))
        results = rdd.map(lambda p: play_point(p, target)).collect()
    else:
        slices = min(len(points), REDIS_DATABASES)

        def partition(index: int, chunk: Any) -> Any:
            url = _with_database(redis_url, index)
            for p in chunk:
                yield play_point(p, target, url)

        results = sc.parallelize(points, slices).mapPartitionsWithIndex(partition).collect()
    order = {p.run: i for i, p in enumerate(points)}
    return sorted(results, key=lambda r: order[r.run])


def points_table(spark: Any, sweep: Sweep, ev: metrics.Events, lat: Any) -> Any:
    """A row per point: parameters (as JSON and as ``group``), seed, offered load,
    throughput, and latency p50/p99 of the objective's queue (all gets if none)."""
    from pyspark.sql import functions as F

    rows = [(p.run, json.dumps(p.params, sort_keys=True), p.group, p.seed, p.offered_load,
             p.members) for p in sweep.points]  # fmt: skip
    frame = spark.createDataFrame(rows, "run string, params string, group string, seed long, "
                                        "offered_load double, members long")  # fmt: skip
    stats = _objective_latencies(lat, sweep).groupBy("run").agg(
        F.count(F.lit(1)).alias("got"),
        F.percentile_approx("latency", [0.5, 0.99], metrics.ACCURACY).alias("q"),
    )
    ends = ev.frame.groupBy("run").agg(F.max("time").alias("end"))
    return (
        frame.join(stats, "run", "left").join(ends, "run", "left")
        .select("run", "params", "group", "seed", "offered_load", "members", "got",
                (F.col("got") / F.col("end")).alias("throughput"),
                F.col("q").getItem(0).alias("latency_p50"),
                F.col("q").getItem(1).alias("latency_p99"))
        .orderBy("run")
    )  # fmt: skip


def _objective_latencies(lat: Any, sweep: Sweep) -> Any:
    """``metrics.latencies`` rows of the objective's queue (all of them if it has none)."""
    from pyspark.sql import functions as F

    if sweep.objective.queue:
        lat = lat.where(F.col("queue") == sweep.objective.queue)
    return lat


def knee_table(spark: Any, sweep: Sweep, lat: Any) -> Any:
    """Per group and offered load: p99 pooled over the seeds, whether it meets the
    objective, and ``knee`` true on the highest load where it and every lower load do."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    rows = [(p.run, p.group, p.offered_load) for p in sweep.points]
    frame = spark.createDataFrame(rows, "run string, group string, offered_load double")
    lat = _objective_latencies(lat, sweep).join(F.broadcast(frame), "run")
    objective = sweep.objective.p99
    by_load = Window.partitionBy("group").orderBy("offered_load")
    pooled = (
        lat.groupBy("group", "offered_load")
        .agg(F.percentile_approx("latency", 0.99, metrics.ACCURACY).alias("latency_p99"),
             F.count(F.lit(1)).alias("got"))
        .withColumn("meets", F.col("latency_p99") <= F.lit(objective))
        # Every load up to this one meets it: the running minimum of "meets".
        .withColumn("all_below", F.min(F.col("meets").cast("int")).over(
            by_load.rowsBetween(Window.unboundedPreceding, Window.currentRow)) == 1)
    )  # fmt: skip
    best = pooled.where("all_below").groupBy("group").agg(F.max("offered_load").alias("knee_load"))
    return (
        pooled.join(best, "group", "left")
        .withColumn("knee", F.coalesce(F.col("offered_load") == F.col("knee_load"), F.lit(False)))
        .withColumn("objective_p99", F.lit(objective))
        .select("group", "offered_load", "got", "latency_p99", "objective_p99", "meets", "knee")
        .orderBy("group", "offered_load")
    )  # fmt: skip


def aggregate(spark: Any, sweep: Sweep, out: Path, *, interval: float = 1.0) -> dict[str, Any]:
    """The metrics of every point (``OUT/metrics/``), plus ``points`` and ``knee``."""
    ev = metrics.Events.load(spark, out / "runs", interval=interval)
    # The per-get latencies once, for the latency tables, the points and the knee.
    lat = metrics.latencies(ev).persist()
    tables = metrics.compute(ev, lat)
    tables["points"] = points_table(spark, sweep, ev, lat)
    tables["knee"] = knee_table(spark, sweep, lat)
    metrics.write(tables, out / "metrics")
    (out / "sweep.json").write_text(json.dumps({
        "sweep": str(sweep.path), "scenario": str(sweep.base), "seeds": sweep.seeds,
        "vary": sweep.vary, "objective": asdict(sweep.objective),
        "points": len(sweep.points),
    }, indent=2) + "\n")  # fmt: skip
    return tables


__all__ = ["REDIS_DATABASES", "PointResult", "aggregate", "knee_table", "play_point",
           "points_table", "run_points"]  # fmt: skip
