"""The answers a capacity planner reads first in ``qsg report``, from the metrics tables.

- **The knee** per group of a sweep's points (the points that differ only in load):
  the offered load at which p99 latency reaches the objective, interpolated linearly
  between the highest tested load that meets it (with every lower one) and the next,
  on the p99 pooled over the seeds; and the same for each seed alone, whose knees give
  the 95% confidence interval (Student t, as ``qsg run --replications``). A seed
  whose p99 never reaches the objective, or is past it at the lowest load, has no
  knee within the tested loads: it is named, and the interval left out.
- **The CF structures**: each one's peak percent full (the fuller of entries and
  elements), when, and its time to full over every run: the soonest time a run
  filled it, else the soonest a run's trend reaches full within its horizon
  (``qsg.scenario.sizing.projection``, as the run's summary gives it).
- **The busiest member** of each configuration: the queue manager with the highest
  processor busy fraction over its runs, with the interval across seeds and the
  busiest full statistics interval seen (a partial one, as the end's of a fraction of
  a millisecond, is left out: its few calls make no rate).

A configuration is a sweep point's parameters (its seeds are its runs) or, outside a
sweep, one run.
"""

from __future__ import annotations

import json
import math
import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from qsg.commands.replicate import interval
from qsg.scenario.sizing import Projection, projection


def rows(table: pa.Table | None) -> list[dict[str, Any]]:
    """A table's rows (none for a table the directory does not have)."""
    return [] if table is None else list(table.to_pylist())


def _shown(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def configurations(tables: dict[str, pa.Table]) -> dict[str, list[str]]:
    """Each configuration's label and its runs, in the order to show them: a sweep's
    points by group and load (their seeds its runs), else a configuration a run."""
    runs = sorted(r["run"] for r in rows(tables.get("runs")))
    points = [p for p in rows(tables.get("points")) if p["run"] in set(runs)]
    if not points:
        return {run: [run] for run in runs}
    found: dict[tuple[str, float, str], list[str]] = defaultdict(list)
    keys = {k for p in points for k in (json.loads(p["params"]) if p["params"] else {})}
    short = _short(keys)
    for p in points:
        params = json.loads(p["params"]) if p["params"] else {}
        label = ", ".join(f"{short[k]}={_shown(v)}" for k, v in params.items()) or "all points"
        found[(p["group"] or "", p["offered_load"] or 0.0, label)].append(p["run"])
    out = {label: sorted(runs_) for (_, _, label), runs_ in sorted(found.items())}
    placed = {r for runs_ in out.values() for r in runs_}
    out.update({run: [run] for run in runs if run not in placed})
    return out


def _short(keys: set[str]) -> dict[str, str]:
    """Each sweep parameter by its last part (``workload.*.rate``: ``rate``), or whole
    where two would share it: a panel's title has little room."""
    last = {k: k.rsplit(".", 1)[-1] for k in keys}
    clash = {v for v in last.values() if list(last.values()).count(v) > 1}
    return {k: k if v in clash else v for k, v in last.items()}


def crossing(
    loads: Sequence[tuple[float, float | None]],
    objective: float,
) -> tuple[float | None, str]:
    """The load at which p99 reaches ``objective``, interpolated between the highest
    load meeting it (every lower load meeting it too) and the next: ``(load, "")``; or
    ``(None, "below")`` if the lowest load is past it already, ``(highest, "above")``
    if every load meets it (the knee is beyond the loads tested). A load without a p99
    (nothing got) does not meet it, and the knee is then put at the load below it."""
    ordered = sorted(loads)
    if not ordered:
        return None, "below"
    for i, (load, p99) in enumerate(ordered):
        if p99 is not None and p99 <= objective:
            continue
        if i == 0:
            return None, "below"
        low, p_low = ordered[i - 1]
        assert p_low is not None
        if p99 is None:  # nothing got there: the knee is known only to be above ``low``
            return low, ""
        return low + (objective - p_low) * (load - low) / (p99 - p_low), ""
    return ordered[-1][0], "above"


@dataclass(frozen=True)
class Knee:
    """A group's knee: interpolated on the pooled p99 (``load``, or beyond the tested
    loads: ``bound`` "above" or "below"), each seed's, and their interval."""

    group: str
    objective: float
    load: float | None
    bound: str
    highest_met: float | None
    tested: tuple[float, float]
    seeds: dict[int, float] = field(default_factory=dict)
    censored: dict[int, str] = field(default_factory=dict)

    @property
    def interval(self) -> dict[str, Any]:
        """Mean and 95% half-width of the seeds' knees (none if some seed has none)."""
        if self.censored or len(self.seeds) < 2:
            return {"mean": None, "half_width": None, "n": len(self.seeds)}
        return interval(list(self.seeds.values()))


def knees(tables: dict[str, pa.Table]) -> list[Knee]:
    """Each group's knee (a sweep's ``points`` and ``knee`` tables; none otherwise)."""
    knee = rows(tables.get("knee"))
    points = [p for p in rows(tables.get("points")) if not p.get("error")]
    out = []
    for group in sorted({k["group"] for k in knee}):
        mine = [k for k in knee if k["group"] == group]
        objective = mine[0]["objective_p99"]
        pooled = [(k["offered_load"], k["latency_p99"]) for k in mine]
        load, bound = crossing(pooled, objective)
        met = [k["offered_load"] for k in mine if k["knee"]]
        per_seed: dict[int, list[tuple[float, float | None]]] = defaultdict(list)
        for p in points:
            if p["group"] == group:
                per_seed[p["seed"]].append((p["offered_load"], p["latency_p99"]))
        seeds, censored = {}, {}
        for seed, loads in sorted(per_seed.items()):
            found, beyond = crossing(loads, objective)
            if beyond or found is None:
                censored[seed] = beyond
            else:
                seeds[seed] = found
        tested = (min(k["offered_load"] for k in mine), max(k["offered_load"] for k in mine))
        out.append(
            Knee(group, objective, load, bound, met[0] if met else None, tested, seeds, censored)
        )
    return out


#: The figures of a sweep's point given as intervals over its seeds.
POINT_FIGURES = ("throughput", "latency_p50", "latency_p99")


def point_intervals(points: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each point of a sweep (its parameters: its seeds pooled) with its offered load
    and each of ``POINT_FIGURES`` as ``{"mean", "half_width", "n"}`` over the seeds
    that played it (95%, Student t: ``qsg run --replications``' intervals); points
    that failed are left out of their point's figures."""
    by: dict[tuple[str, float, str], list[dict[str, Any]]] = defaultdict(list)
    for p in points:
        if not p.get("error"):
            by[(p["group"] or "", p["offered_load"] or 0.0, p["params"])].append(p)
    out = []
    for (group, load, params), mine in sorted(by.items()):
        row: dict[str, Any] = {
            "params": json.loads(params) if params else {},
            "group": group,
            "offered_load": load,
            "seeds": sorted(p["seed"] for p in mine),
        }
        for name in POINT_FIGURES:
            row[name] = interval([p[name] for p in mine if p[name] is not None])
        out.append(row)
    return out


@dataclass(frozen=True)
class StructurePeak:
    """A CF structure's fullest moment over the runs, and its soonest time to full:
    the run that filled it first (``full_at``), else the run whose trend reaches full
    soonest within its horizon (``time_to_full`` from ``time_to_full_at``, at
    ``fill_rate``), else none (``fill_rate``: the steepest run's trend)."""

    qsg: str
    structure: str
    size_kb: int
    peak_percent_full: float
    peak_run: str
    high_water_time: float
    peak_entries: int
    peak_elements: int
    median_peak: float
    runs: int
    fill_rate: float | None
    time_to_full: float | None
    time_to_full_at: float | None
    full_at: float | None
    #: The run ``fill_rate``, ``time_to_full`` and ``full_at`` are of.
    projected_run: str | None


def structures(tables: dict[str, pa.Table]) -> list[StructurePeak]:
    """Each structure's peak over every run (``cf_usage``): the worst run's, and the
    median of the runs' peaks; and its time to full: each run's projection
    (``qsg.scenario.sizing.projection``: the summary's), the soonest of them."""
    by: dict[tuple[str, str], dict[str, list[dict[str, Any]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for r in rows(tables.get("cf_usage")):
        by[(r["qsg"], r["structure"])][r["run"]].append(r)
    out = []
    for (qsg, name), per_run in sorted(by.items()):
        peaks: list[tuple[float, str, dict[str, Any]]] = []
        ahead: list[tuple[Projection, str]] = []
        for run, samples in sorted(per_run.items()):
            samples.sort(key=lambda r: r["time"])
            peaks.extend((_full(s), run, s) for s in samples)
            made = projection([s["time"] for s in samples], [_full(s) for s in samples])
            ahead.append((made, run))
        full, run, at = max(peaks, key=lambda p: p[0])
        per_peak = [max(_full(s) for s in samples) for samples in per_run.values()]
        soonest, projected = min(ahead, key=_sooner)
        out.append(
            StructurePeak(
                qsg,
                name,
                at["size_kb"],
                full,
                run,
                at["time"],
                at["entries"],
                at.get("elements") or 0,
                statistics.median(per_peak),
                len(per_run),
                soonest.fill_rate,
                soonest.time_to_full,
                soonest.time_to_full_at,
                soonest.full_at,
                projected,
            )
        )
    return out


def _sooner(made: tuple[Projection, str]) -> tuple[int, float]:
    """Runs in the order their structure is (or would be) full soonest: those that
    filled, by when; then those whose trend reaches full in the horizon, by how soon;
    then the others, the steepest trend first."""
    p = made[0]
    if p.full_at is not None:
        return 0, p.full_at
    if p.time_to_full is not None:
        return 1, p.time_to_full
    return 2, -(p.fill_rate if p.fill_rate is not None else -math.inf)


def _full(sample: dict[str, Any]) -> float:
    """Percent full (a table written before ``percent_full`` was: entries alone)."""
    value = sample.get("percent_full")
    return float(value if value is not None else 100 * sample["used"])


def full_intervals(stats: pa.Table) -> pa.ChunkedArray:
    """Which ``qmgr_statistics`` rows are of a full statistics interval: at least as
    long as the run's statistics interval, the length most of its intervals have
    (``[run] sample_interval``, as every SMF 115 record is one STATIME interval; the
    longest of those most common, at a tie). The others are partial: the last before
    the run's end, and the end's own, of the calls in flight when the applications
    stopped (a fraction of a millisecond, whose one commit reads as 100% busy)."""
    # Lengths to the nanosecond: a sum of floats may differ from another in its last bits.
    length = pc.round(stats["interval"], 9)
    run = pc.cast(stats["run"], pa.string())  # read back partitioned: a dictionary
    counted = (
        pa.table({"run": run, "length": length})
        .group_by(["run", "length"], use_threads=False)
        .aggregate([([], "count_all")])
        .sort_by([("count_all", "descending"), ("length", "descending")])
        .to_pylist()
    )
    usual: dict[str, float] = {}
    for r in counted:
        usual.setdefault(r["run"], r["length"])
    runs = list(usual)
    each = pc.take(
        pa.array([usual[r] for r in runs], pa.float64()),
        pc.index_in(run, value_set=pa.array(runs, pa.string())),
    )
    return pc.greater_equal(length, each)


@dataclass(frozen=True)
class Busiest:
    """A configuration's busiest queue manager: its busy fraction (each run's, over the
    run: processor seconds / (seconds x CPUs)) and the busiest full statistics
    interval of any run (``full_intervals``)."""

    configuration: str
    q_mgr: str
    busy: dict[str, Any]
    peak: float
    peak_at: float
    peak_run: str


def busiest(tables: dict[str, pa.Table], configs: dict[str, list[str]]) -> list[Busiest]:
    """Each configuration's busiest member (``qmgr_statistics``; none without it).
    Summed in Arrow: a long sweep's statistics are a row per member per interval."""
    stats = tables.get("qmgr_statistics")
    if stats is None or not stats.num_rows:
        return []
    capacity = pc.multiply(stats["interval"], pc.cast(stats["cpus"], pa.float64()))
    frame = pa.table(
        {
            "run": stats["run"],
            "q_mgr": stats["q_mgr"],
            "time": stats["time"],
            "cpu_seconds": stats["cpu_seconds"],
            "capacity": capacity,
            # The busiest interval is of the full ones; the sums count every one.
            "cpu_busy": pc.if_else(
                full_intervals(stats), stats["cpu_busy"], pa.scalar(None, pa.float64())
            ),
        }
    )
    sums = (
        frame.select(["run", "q_mgr", "cpu_seconds", "capacity", "cpu_busy"])
        .group_by(["run", "q_mgr"], use_threads=False)
        .aggregate([("cpu_seconds", "sum"), ("capacity", "sum"), ("cpu_busy", "max")])
        .to_pylist()
    )
    out = []
    for label, runs in configs.items():
        mine = [r for r in sums if r["run"] in set(runs) and r["capacity_sum"] > 0]
        per: dict[str, list[float]] = defaultdict(list)
        for r in mine:
            per[r["q_mgr"]].append(r["cpu_seconds_sum"] / r["capacity_sum"])
        if not per:
            continue
        q_mgr = max(sorted(per), key=lambda m: statistics.fmean(per[m]))
        top = max(
            (r for r in mine if r["q_mgr"] == q_mgr),
            key=lambda r: (r["cpu_busy_max"] or 0.0, r["run"]),
        )
        peak = top["cpu_busy_max"] or 0.0
        at = frame.filter(
            pc.and_(pc.equal(frame["run"], top["run"]), pc.equal(frame["q_mgr"], q_mgr))
        )
        at = at.filter(pc.equal(at["cpu_busy"], peak))
        when = at["time"][0].as_py() if at.num_rows else 0.0
        out.append(Busiest(label, q_mgr, interval(per[q_mgr]), peak, when, top["run"]))
    return out


__all__ = [
    "POINT_FIGURES",
    "Busiest",
    "Knee",
    "StructurePeak",
    "busiest",
    "configurations",
    "crossing",
    "full_intervals",
    "knees",
    "point_intervals",
    "rows",
    "structures",
]
