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

import itertools
import json
import time
from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from qsg.pipeline import metrics
from qsg.pipeline.run_tables import latencies_of, nearest_rank
from qsg.pipeline.runs import RunLog
from qsg.pipeline.sweep_file import Point, Sweep

#: At most this many points at once on one shared Redis (its databases 0..15).
REDIS_DATABASES = 16
_S, _D, _L, _B = pa.string(), pa.float64(), pa.int64(), pa.bool_()
#: The ``points`` table's columns.
POINTS = pa.schema([("run", _S), ("params", _S), ("group", _S), ("seed", _L),
                    ("offered_load", _D), ("members", _L), ("got", _L), ("throughput", _D),
                    ("latency_p50", _D), ("latency_p99", _D)])  # fmt: skip
#: The ``knee`` table's columns.
KNEE = pa.schema([("group", _S), ("offered_load", _D), ("got", _L), ("latency_p99", _D),
                  ("objective_p99", _D), ("meets", _B), ("knee", _B)])  # fmt: skip


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
    from qsg.command_helpers import write_run
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


def objective_latencies(run: RunLog, queue: str) -> pa.Array:
    """The latencies of a run's gets from ``queue`` (all gets if it is empty), in
    ascending order (one Spark task's work)."""
    lat = latencies_of(run)
    if queue:
        lat = lat.filter(pc.equal(lat["queue"], queue))
    return lat["latency"].combine_chunks()


def points_table(sweep: Sweep, runs: pa.Table, lat: dict[str, pa.Array]) -> pa.Table:
    """A row per point: parameters (as JSON and as ``group``), seed, offered load,
    throughput, and latency p50/p99 of the objective's queue (all gets if none).
    ``runs`` is the metrics' runs table (each run's end); ``lat`` each run's
    ``objective_latencies``."""
    ends = dict(zip(runs["run"].to_pylist(), runs["end"].to_pylist(), strict=True))
    rows: list[dict[str, Any]] = []
    for p in sorted(sweep.points, key=lambda p: p.run):
        values, end = lat.get(p.run, pa.array([], pa.float64())), ends.get(p.run)
        rows.append({
            "run": p.run, "params": json.dumps(p.params, sort_keys=True), "group": p.group,
            "seed": p.seed, "offered_load": p.offered_load, "members": p.members,
            "got": len(values), "throughput": len(values) / end if end else None,
            "latency_p50": nearest_rank(values, 0.5), "latency_p99": nearest_rank(values, 0.99),
        })  # fmt: skip
    return pa.Table.from_pylist(rows, schema=POINTS)


def knee_table(sweep: Sweep, lat: dict[str, pa.Array]) -> pa.Table:
    """Per group and offered load: p99 pooled over the seeds, whether it meets the
    objective, and ``knee`` true on the highest load where it and every lower load do."""
    pooled: dict[tuple[str, float], list[pa.Array]] = defaultdict(list)
    for p in sweep.points:
        pooled[(p.group, p.offered_load)].append(lat.get(p.run, pa.array([], pa.float64())))
    objective = sweep.objective.p99
    rows: list[dict[str, Any]] = []
    for (group, load), parts in sorted(pooled.items()):
        both = pa.concat_arrays(parts)
        ordered = pc.take(both, pc.sort_indices(both))
        p99 = nearest_rank(ordered, 0.99)
        # Nothing got at a load is not a load that meets the objective.
        meets = p99 is not None and p99 <= objective
        rows.append({"group": group, "offered_load": load, "got": len(ordered),
                     "latency_p99": p99, "objective_p99": objective, "meets": meets,
                     "knee": False})  # fmt: skip
    for group in {r["group"] for r in rows}:
        # The knee: the last load of the run of loads from the lowest that all meet it.
        meeting = list(itertools.takewhile(lambda r: r["meets"],
                                           (r for r in rows if r["group"] == group)))  # fmt: skip
        if meeting:
            meeting[-1]["knee"] = True
    return pa.Table.from_pylist(rows, schema=KNEE)


def aggregate(spark: Any, sweep: Sweep, out: Path, *, interval: float = 1.0) -> dict[str, Any]:
    """The metrics of every point (``OUT/metrics/``), plus ``points`` and ``knee``."""
    ev = metrics.Events.load(spark, out / "runs", interval=interval)
    tables = metrics.compute(ev)
    queue = sweep.objective.queue or ""
    found = ev.per_run(lambda run: (run.run, objective_latencies(run, queue)))
    lat = dict(found)
    tables["points"] = points_table(sweep, tables["runs"], lat)
    tables["knee"] = knee_table(sweep, lat)
    metrics.write(tables, out / "metrics")
    (out / "sweep.json").write_text(json.dumps({
        "sweep": str(sweep.path), "scenario": str(sweep.base), "seeds": sweep.seeds,
        "vary": sweep.vary, "objective": asdict(sweep.objective),
        "points": len(sweep.points),
    }, indent=2) + "\n")  # fmt: skip
    return tables


__all__ = ["KNEE", "POINTS", "REDIS_DATABASES", "PointResult", "aggregate", "knee_table",
           "objective_latencies", "play_point", "points_table", "run_points"]  # fmt: skip
