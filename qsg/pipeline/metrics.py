"""Metrics from runs' event logs, as Spark DataFrames (one per table of docs/pipeline.md).

``Events.load(spark, DIR)`` reads every run's ``events.parquet`` below DIR as one
DataFrame with a ``run`` column and a ``scope`` column (the QSG for a shared queue,
else the queue manager: a shared queue is one queue whichever member touched it).
Each public function below is one table; ``compute`` gives them all by name and
``write`` stores them as Parquet. Everything is DataFrame work on the executors; only
the runs' footers (their scopes) are read on the driver.

Definitions are the run summary's (``qsg.scenario.summary``), so a table and
``qsg run``'s summary agree: latency is from a message's first MQPUT anywhere (put or
channel delivery) to each MQGET that returned it (browses not counted); percentiles are
nearest-rank.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from qsg.pipeline.runs import RunLog, find_runs, structure_rows

#: percentile_approx's accuracy: exact below this many values per group, and
#: within 1/ACCURACY of the rank above.
ACCURACY = 10_000
#: The latency CDF's points: the 1st to the 100th percentile.
CDF_POINTS = [p / 100 for p in range(1, 101)]
#: Faults after which a lease holder no longer scans (the start of a failover gap).
HOLDER_LOST = ("pause", "cf_unavailable", "kill")


def _functions() -> Any:
    from pyspark.sql import functions as F

    return F


@dataclass(frozen=True)
class Events:
    """Every event of some runs (``frame``: the event log's columns, plus ``run`` and
    ``scope``), the runs themselves, and the time bucket of the time series."""

    frame: Any
    runs: list[RunLog]
    spark: Any
    interval: float = 1.0

    @classmethod
    def load(cls, spark: Any, root: str | Path, *, interval: float = 1.0) -> Events:
        """The runs under ``root`` (ValueError if there are none)."""
        if interval <= 0:
            raise ValueError(f"the time bucket must be above 0 s, not {interval}")
        F = _functions()
        runs = find_runs(root)
        # One read per run, its name and scopes as literals: no per-row join or parsing
        # of file names (the footers were read on the driver already).
        frames = [_scoped(spark.read.parquet(str(r.path)), r, F) for r in runs]
        frame = frames[0]
        for other in frames[1:]:
            frame = frame.unionByName(other)
        return cls(frame, runs, spark, interval)

    def kind(self, *kinds: str) -> Any:
        F = _functions()
        return self.frame.where(F.col("kind").isin(*kinds))

    def bucket(self) -> Any:
        """The start of the time bucket an event falls in."""
        F = _functions()
        return (F.floor(F.col("time") / self.interval) * self.interval).alias("t")


def _scoped(frame: Any, run: RunLog, F: Any) -> Any:
    """A run's events with its name (``run``) and each event's ``scope``: the QSG for
    a shared queue at one of its members, else the queue manager."""
    scope = F.col("q_mgr")
    for qsg, queues in run.scopes.shared.items():
        members = [m for m, g in run.scopes.members.items() if g == qsg]
        if members and queues:
            shared = F.col("q_mgr").isin(*members) & F.col("queue").isin(*queues)
            scope = F.when(shared, F.lit(qsg)).otherwise(scope)
    return frame.withColumn("run", F.lit(run.run)).withColumn("scope", scope)


def runs(ev: Events) -> Any:
    """One row per run: seed, events, the last event's time, puts, gets, discards."""
    F = _functions()
    seeds = ev.spark.createDataFrame([(r.run, r.seed) for r in ev.runs], "run string, seed long")
    counts = ev.frame.groupBy("run").agg(
        F.count(F.lit(1)).alias("events"),
        F.max("time").alias("end"),
        F.sum(F.when(F.col("kind") == "put", 1).otherwise(0)).alias("put"),
        F.sum(F.when((F.col("kind") == "get") & ~F.col("browse"), 1).otherwise(0)).alias("got"),
        F.sum(F.when(F.col("kind") == "discard", 1).otherwise(0)).alias("expired"),
    )
    return seeds.join(counts, "run", "left").orderBy("run")


def throughput(ev: Events) -> Any:
    """Messages put and got per time bucket, per run, queue and queue manager."""
    F = _functions()
    moves = ev.kind("put", "delivered", "get").where(~F.coalesce(F.col("browse"), F.lit(False)))
    return (
        moves.groupBy("run", "scope", "queue", "q_mgr", ev.bucket())
        .agg(
            F.sum(F.when(F.col("kind") != "get", 1).otherwise(0)).alias("put"),
            F.sum(F.when(F.col("kind") == "get", 1).otherwise(0)).alias("got"),
        )
        .withColumn("interval", F.lit(ev.interval))
    )  # fmt: skip


def latencies(ev: Events) -> Any:
    """Every MQGET that returned a message (not a browse), with its latency: the time
    since the message's first MQPUT anywhere in the run (a put, or a channel agent's
    delivery for a message that came across a channel)."""
    F = _functions()
    moves = ev.kind("put", "delivered", "get").where(~F.coalesce(F.col("browse"), F.lit(False)))
    got = F.struct("time", "scope", "queue", "q_mgr", "size")
    # One shuffle: a message's puts and gets meet in one group (gets are few per message).
    per_message = moves.groupBy("run", "msg_id").agg(
        F.min(F.when(F.col("kind") != "get", F.col("time"))).alias("put_at"),
        F.collect_list(F.when(F.col("kind") == "get", got)).alias("gets"),
    )
    return (
        per_message.where(F.col("put_at").isNotNull())
        .select("run", "put_at", F.explode("gets").alias("g"))
        .select("run", "g.scope", "g.queue", "g.q_mgr", "g.time", "g.size",
                (F.col("g.time") - F.col("put_at")).alias("latency"))
    )  # fmt: skip


def _latency_stats(F: Any) -> list[Any]:
    quantiles = F.percentile_approx("latency", [0.5, 0.9, 0.99, 1.0], ACCURACY)
    return [
        F.count(F.lit(1)).alias("messages"),
        F.mean("latency").alias("mean"),
        quantiles.getItem(0).alias("p50"),
        quantiles.getItem(1).alias("p90"),
        quantiles.getItem(2).alias("p99"),
        quantiles.getItem(3).alias("max"),
    ]


def latency(ev: Events, lat: Any | None = None) -> Any:
    """Latency per run and queue: count, mean, p50, p90, p99, max (seconds); a row per
    queue manager that got from it, and one with ``q_mgr`` ``*`` for all of them."""
    F = _functions()
    lat = latencies(ev) if lat is None else lat
    by_member = lat.groupBy("run", "scope", "queue", "q_mgr").agg(*_latency_stats(F))
    overall = (
        lat.groupBy("run", "scope", "queue").agg(*_latency_stats(F))
        .withColumn("q_mgr", F.lit("*"))
    )  # fmt: skip
    return by_member.unionByName(overall)


def latency_cdf(ev: Events, lat: Any | None = None) -> Any:
    """The latency distribution per run and queue: its 1st to 100th percentiles."""
    F = _functions()
    lat = latencies(ev) if lat is None else lat
    points = F.array(*[F.lit(p) for p in CDF_POINTS])
    quantiles = F.percentile_approx("latency", points, ACCURACY)
    return (
        lat.groupBy("run", "scope", "queue").agg(quantiles.alias("q"))
        .select("run", "scope", "queue",
                F.posexplode(F.arrays_zip(points.alias("p"), F.col("q"))).alias("i", "z"))
        .select("run", "scope", "queue", F.col("z.p").alias("p"), F.col("z.q").alias("latency"))
    )  # fmt: skip


def depth(ev: Events) -> Any:
    """The sampled CURDEPTH of every queue over time (a shared queue sampled once for
    its QSG, by whichever member sampled it)."""
    return ev.kind("depth").select("run", "scope", "queue", "q_mgr", "time", "depth", "shared")


def expiry(ev: Events) -> Any:
    """Expired messages discarded, per run and queue: how many, by whom (a get, a browse
    or the scan), their bytes, and their cost: how long past its expiry each still held
    its place (counted in depth, held storage) before it was discarded (``overdue``),
    and the storage that held (``held_byte_seconds``)."""
    F = _functions()
    is_put = F.col("kind") == "put"
    # One shuffle: a message's first put (when, size, Expiry) meets its discard.
    per_message = (
        ev.kind("put", "discard")
        .groupBy("run", "msg_id")
        .agg(
            F.min(F.when(is_put, F.col("time"))).alias("put_at"),
            F.max(F.when(is_put, F.col("size"))).alias("put_size"),
            F.max(F.when(is_put, F.col("expiry"))).alias("put_expiry"),
            F.collect_list(F.when(~is_put, F.struct("time", "scope", "queue", "by"))).alias("gone"),
        )
    )
    gone = per_message.select("run", "put_at", "put_size", "put_expiry",
                              F.explode("gone").alias("d"))  # fmt: skip
    overdue = F.greatest(
        F.lit(0.0), F.col("d.time") - (F.col("put_at") + F.col("put_expiry") / 10.0)
    )
    by = F.col("d.by")
    return gone.withColumn("overdue", overdue).groupBy(
        F.col("run"), F.col("d.scope").alias("scope"), F.col("d.queue").alias("queue")
    ).agg(
        F.count(F.lit(1)).alias("discarded"),
        F.sum(F.when(by == "get", 1).otherwise(0)).alias("by_get"),
        F.sum(F.when(by == "browse", 1).otherwise(0)).alias("by_browse"),
        F.sum(F.when(by == "scan", 1).otherwise(0)).alias("by_scan"),
        F.sum("put_size").alias("bytes"),
        F.mean("overdue").alias("overdue_mean"),
        F.max("overdue").alias("overdue_max"),
        F.sum(F.col("overdue") * F.col("put_size")).alias("held_byte_seconds"),
    )  # fmt: skip


def scans(ev: Events) -> Any:
    """Expiry scans per run, queue manager and kind (shared: of the QSG's shared queues)
    and cause: how many, and the messages they discarded."""
    F = _functions()
    return ev.kind("scan").groupBy("run", "q_mgr", "shared", "cause").agg(
        F.count(F.lit(1)).alias("scans"), F.sum("discarded").alias("discarded"),
    )  # fmt: skip


def reports(ev: Events) -> Any:
    """Report messages put, per run, the queue manager that put them, the queue they
    went to and their Feedback (MQFB_EXPIRATION: 258)."""
    F = _functions()
    return (
        ev.kind("report")
        .groupBy("run", "q_mgr", "queue", "feedback")
        .agg(F.count(F.lit(1)).alias("reports"))
    )


def channels(ev: Events) -> Any:
    """Channel throughput per run, channel and time bucket: batches, messages and bytes
    the sender committed, messages the receiver delivered, and those that expired on the
    way."""
    F = _functions()
    moved = ev.kind("batch", "delivered", "expired-in-transit")
    return (
        moved.groupBy("run", "channel", ev.bucket())
        .agg(
            F.max(F.when(F.col("kind") == "batch", F.col("q_mgr"))).alias("sender"),
            F.sum(F.when(F.col("kind") == "batch", 1).otherwise(0)).alias("batches"),
            F.sum(F.when(F.col("kind") == "batch", F.col("messages")).otherwise(0))
            .alias("messages"),
            F.sum(F.when(F.col("kind") == "batch", F.col("size")).otherwise(0)).alias("bytes"),
            F.sum(F.when(F.col("kind") == "delivered", 1).otherwise(0)).alias("delivered"),
            F.sum(F.when(F.col("kind") == "expired-in-transit", 1).otherwise(0))
            .alias("expired_in_transit"),
        )
        .withColumn("interval", F.lit(ev.interval))
    )  # fmt: skip


def cf_usage(ev: Events) -> Any:
    """CF structure usage over time: at each depth sample of a QSG, the entries (the
    messages, expired-undiscarded included) in each structure, against its SIZE (SIZE KB
    hold SIZE entries: ``used`` is the fraction of them)."""
    F = _functions()
    rows = structure_rows(ev.runs)
    if not rows:
        return ev.spark.createDataFrame(
            [], "run string, qsg string, structure string, time double, entries long, "
                "size_kb long, used double")  # fmt: skip
    structures = ev.spark.createDataFrame(
        rows, "run string, scope string, queue string, structure string, size_kb long"
    )
    sampled = ev.kind("depth").where(F.col("shared")).select("run", "scope", "queue", "time",
                                                             "depth")  # fmt: skip
    return (
        sampled.join(F.broadcast(structures), ["run", "scope", "queue"])
        .groupBy("run", F.col("scope").alias("qsg"), "structure", "time", "size_kb")
        .agg(F.sum("depth").alias("entries"))
        .withColumn("used", F.col("entries") / F.col("size_kb"))
        .select("run", "qsg", "structure", "time", "entries", "size_kb", "used")
    )  # fmt: skip


def leases(ev: Events) -> Any:
    """Every lease change: when, the role, the new holder, its fencing token, the
    previous holder."""
    F = _functions()
    return ev.kind("lease").select(
        "run", "time", "role", F.col("q_mgr").alias("holder"), "token", "previous"
    )


def faults(ev: Events) -> Any:
    """Every fault injected or lifted: when, the action, its target, and why the world
    refused it (``detail``, empty if it did not)."""
    return ev.kind("fault").select("run", "time", "action", "target", "q_mgr", "detail")


def _failures(ev: Events) -> Any:
    """When each queue manager stopped being able to work: killed, paused, or cut off
    from the coupling facility."""
    F = _functions()
    kills = ev.kind("kill").select("run", "q_mgr", "time")
    faults = ev.kind("fault").where(F.col("action").isin(*HOLDER_LOST)).select(
        "run", F.coalesce(F.nullif(F.col("target"), F.lit("")), F.col("q_mgr")).alias("q_mgr"),
        "time",
    )  # fmt: skip
    return kills.unionByName(faults).withColumnRenamed("time", "lost_at")


def failover_gaps(ev: Events) -> Any:
    """Each takeover of a lease from another holder, and the failover gap: the time
    from the previous holder's failure (kill, pause, or loss of the coupling facility,
    after it took the lease) to the takeover, with no one holding the duty. A takeover
    with no failure before it (the holder stopped cleanly) has no gap (null)."""
    F = _functions()
    from pyspark.sql import Window

    lease = leases(ev).withColumn(
        "acquired_at",
        F.lag("time").over(Window.partitionBy("run", "role").orderBy("time", "token")),
    )
    takeovers = lease.where((F.col("previous") != "") & (F.col("previous") != F.col("holder")))
    failures = _failures(ev).withColumnRenamed("q_mgr", "previous")
    joined = takeovers.join(failures, ["run", "previous"], "left").where(
        F.col("lost_at").isNull()
        | ((F.col("lost_at") <= F.col("time"))
           & (F.col("lost_at") >= F.coalesce(F.col("acquired_at"), F.lit(0.0))))
    )  # fmt: skip
    return (
        joined.groupBy("run", "role", "time", "holder", "token", "previous")
        .agg(F.max("lost_at").alias("lost_at"))
        .withColumn("gap", F.col("time") - F.col("lost_at"))
        .withColumnRenamed("time", "taken_at")
    )


def recoveries(ev: Events) -> Any:
    """Recoveries and how long after the failure each came: ``peer`` rows are a member
    backing out a failed member's units of work (``failed``, from its kill); ``cf`` rows
    are a CF structure recovered after the facility failed (from the ``cf_fail``)."""
    F = _functions()
    peer = ev.kind("peer-recovery").select(
        "run", F.lit("peer").alias("recovery"), "time", "q_mgr", "failed", "units",
        F.lit(None).cast("long").alias("lost"),
    )  # fmt: skip
    cf = ev.kind("cf-recovery").select(
        "run", F.lit("cf").alias("recovery"), "time", "q_mgr",
        F.concat_ws("/", "qsg", "structure").alias("failed"), "units", "lost",
    )  # fmt: skip
    done = peer.unionByName(cf)
    kills = ev.kind("kill").select("run", F.col("q_mgr").alias("failed"), F.col("time").alias("t"))
    cf_fails = (
        ev.kind("fault").where(F.col("action") == "cf_fail").select("run", F.col("time").alias("t"))
    )
    peers = done.where(F.col("recovery") == "peer").join(kills, ["run", "failed"], "left")
    cfs = done.where(F.col("recovery") == "cf").join(cf_fails, ["run"], "left")
    cols = ["run", "recovery", "time", "q_mgr", "failed", "units", "lost"]
    both = peers.select(*cols, "t").unionByName(cfs.select(*cols, "t"))
    return (
        both.where(F.col("t").isNull() | (F.col("t") <= F.col("time")))
        .groupBy(*cols).agg(F.max("t").alias("failed_at"))
        .withColumn("duration", F.col("time") - F.col("failed_at"))
    )  # fmt: skip


#: Every table, by the name it is written under.
TABLES: dict[str, Callable[[Events], Any]] = {
    "runs": runs,
    "throughput": throughput,
    "latency": latency,
    "latency_cdf": latency_cdf,
    "depth": depth,
    "expiry": expiry,
    "scans": scans,
    "reports": reports,
    "channels": channels,
    "cf_usage": cf_usage,
    "leases": leases,
    "faults": faults,
    "failover_gaps": failover_gaps,
    "recoveries": recoveries,
}


def compute(ev: Events, lat: Any | None = None) -> dict[str, Any]:
    """Every table of ``TABLES`` (lazily: nothing runs until one is read or written).
    The per-get latencies (``lat``, else ``latencies(ev)``) feed two tables: they are
    computed once and kept."""
    lat = (latencies(ev) if lat is None else lat).persist()
    shared = {"latency": latency(ev, lat), "latency_cdf": latency_cdf(ev, lat)}
    return {name: shared[name] if name in shared else make(ev) for name, make in TABLES.items()}


def write(tables: dict[str, Any], out: str | Path) -> Path:
    """Each table as Parquet under ``out`` (``out/NAME/``), replacing what was there."""
    out = Path(out)
    for name, frame in tables.items():
        frame.write.mode("overwrite").parquet(str(out / name))
    return out


__all__ = [
    "ACCURACY",
    "CDF_POINTS",
    "TABLES",
    "Events",
    "cf_usage",
    "channels",
    "compute",
    "depth",
    "expiry",
    "failover_gaps",
    "faults",
    "latencies",
    "latency",
    "latency_cdf",
    "leases",
    "recoveries",
    "reports",
    "runs",
    "scans",
    "throughput",
    "write",
]  # fmt: skip
