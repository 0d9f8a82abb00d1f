"""Replications: one scenario played with N seeds, each figure as a mean and its 95% interval.

``qsg run --replications N`` plays the scenario with seeds ``seed, seed + 1, ...`` in
processes (as many at once as the machine has cores) and ``combine`` folds their
summaries into one of the same shape in which every figure is
``{"mean", "half_width", "n"}``: the mean over the replications and the half-width of its
95% confidence interval, t(0.975, n - 1) · s / √n (Student's t, as for independent
replications of a terminating simulation; Law, *Simulation Modeling and Analysis*,
ch. 9). A figure that some replications lack (a p99 of a queue that got nothing) has
the ``n`` of those that have it. ``--precision P`` stops early (sequential stopping):
after each round of runs, once every figure's half-width is within ``P`` of its mean.

Rows are matched across replications by what names them (a queue's scope and name, a
queue manager, a channel, a workload, a reason code); the lease holders are left out
(each seed has its own succession) and the faults are the first replication's (their
schedule is the scenario's).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import os
import statistics
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from coupling import forks
from coupling.server import DATABASES, on_database
from qsg.commands.display import duration as shown_duration
from qsg.commands.run_view import refusals_line
from qsg.scenario.load import load_scenario
from qsg.scenario.model import Scenario
from qsg.scenario.play import ScriptScenario, load_script, run_scenario

#: t(0.975, df) for df = 1..30 (the two-sided 95% point of Student's t).
_T975 = (
    12.706,
    4.303,
    3.182,
    2.776,
    2.571,
    2.447,
    2.365,
    2.306,
    2.262,
    2.228,
    2.201,
    2.179,
    2.160,
    2.145,
    2.131,
    2.120,
    2.110,
    2.101,
    2.093,
    2.086,
    2.080,
    2.074,
    2.069,
    2.064,
    2.060,
    2.056,
    2.052,
    2.048,
    2.045,
    2.042,
)
#: Beyond 30: t at 40, 60, 120 and the normal's 1.960, interpolated in 1/df.
_T975_TAIL = ((40.0, 2.021), (60.0, 2.000), (120.0, 1.980), (math.inf, 1.960))
#: Replications before ``--precision`` may stop: fewer give no useful interval.
MIN_FOR_PRECISION = 3
#: Keys of a row that name it (its identity across replications), not figures.
_NAMES = (
    "scope",
    "queue",
    "q_mgr",
    "qsg",
    "structure",
    "channel",
    "sender",
    "workload",
    "name",
    "action",
    "target",
    "shared",
    "role",
)
#: The summary's tables that are combined; ``faults`` is copied, ``leases`` left out.
_TABLES = ("queues", "qmgrs", "channels", "requesters", "applications", "structures", "classes")


def t975(df: int) -> float:
    """The 97.5% point of Student's t with ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError("Student's t needs at least 1 degree of freedom")
    if df <= len(_T975):
        return _T975[df - 1]
    low, t_low = 30.0, _T975[-1]
    for high, t_high in _T975_TAIL:
        if df <= high:
            if high == math.inf:
                return t_low + (t_high - t_low) * (1 - low / df)
            return t_low + (t_high - t_low) * (1 / low - 1 / df) / (1 / low - 1 / high)
        low, t_low = high, t_high
    raise AssertionError(df)


def interval(values: Sequence[float]) -> dict[str, Any]:
    """``{"mean", "half_width", "n"}`` of ``values``: the 95% half-width is None for one."""
    n = len(values)
    if n == 0:
        return {"mean": None, "half_width": None, "n": 0}
    mean = statistics.fmean(values)
    half = t975(n - 1) * statistics.stdev(values) / math.sqrt(n) if n > 1 else None
    return {"mean": mean, "half_width": half, "n": n}


def _figure(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _combine_rows(tables: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Rows of one table across replications, matched by their names."""
    merged: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for rows in tables:
        for row in rows:
            key = tuple((k, row[k]) for k in _NAMES if k in row)
            merged.setdefault(key, []).append(row)
    return [combine_values(rows) for rows in merged.values()]


def combine_values(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """One row of the rows of the replications: names kept, figures as intervals."""
    out: dict[str, Any] = {}
    for key in dict.fromkeys(k for row in rows for k in row):
        values = [row[key] for row in rows if key in row]
        if key in _NAMES or not values:
            out[key] = values[0]
        elif all(v is None or _figure(v) for v in values):
            out[key] = interval([float(v) for v in values if v is not None])
        elif all(isinstance(v, list) for v in values):
            out[key] = _combine_rows(values)
        else:
            out[key] = values[0]
    return out


def combine(summaries: list[dict[str, Any]]) -> dict[str, Any]:
    """The summaries (``Summary.to_json()``) of replications as one, figures as intervals."""
    out: dict[str, Any] = {"replications": len(summaries)}
    for table in _TABLES:
        out[table] = _combine_rows([s.get(table, []) for s in summaries])
    out["faults"] = summaries[0].get("faults", []) if summaries else []
    out["totals"] = combine_values([s["totals"] for s in summaries])
    return out


def figures(combined: dict[str, Any]) -> Iterable[tuple[str, dict[str, Any]]]:
    """Every interval of a combined summary, with a name that says where it is."""
    for table in _TABLES:
        for row in combined[table]:
            where = "/".join(str(row[k]) for k in _NAMES if k in row and k != "shared")
            for key, value in row.items():
                if isinstance(value, dict) and "half_width" in value:
                    yield f"{table} {where} {key}", value
    for key, value in combined["totals"].items():
        if isinstance(value, dict) and "half_width" in value:
            yield f"totals {key}", value


def precise(combined: dict[str, Any], precision: float) -> bool:
    """Every figure's half-width is within ``precision`` of its mean (a figure the same
    in every replication, zero among them, has a half-width of 0). A figure no
    replication has (n = 0: a structure that filled in none has no ``full_at``) has
    nothing to estimate, and does not count."""
    for _, value in figures(combined):
        if value["n"] == 0:
            continue
        half, mean = value["half_width"], value["mean"]
        if value["n"] < MIN_FOR_PRECISION or half is None:
            return False
        if half > precision * abs(mean):
            return False
    return True


@dataclass(frozen=True, slots=True)
class Replicated:
    """What ``replicate`` leaves: the combined summary, the seeds played, the one-line
    failures of runs that ran but failed (a refused fault, an unscheduled CF failure)."""

    summary: dict[str, Any]
    seeds: list[int]
    failures: list[str]


#: One replication: (seed) -> (its summary as JSON, its failure line or None).
Play = Callable[[int], tuple[dict[str, Any], str | None]]


def replicate(
    play: Play, seed: int, count: int, *, precision: float | None = None, workers: int | None = None
) -> Replicated:
    """``count`` replications of ``play`` from ``seed`` on, ``workers`` at a time (in
    processes; 1: in this process); with ``precision``, stopped once precise enough."""
    workers = max(1, min(count, workers or os.cpu_count() or 1))
    summaries: list[dict[str, Any]] = []
    failures: list[str] = []
    seeds: list[int] = []
    step = workers if precision is None else max(workers, MIN_FOR_PRECISION)
    executor = None if workers == 1 else ProcessPoolExecutor(workers)
    try:
        while len(seeds) < count:
            batch = list(range(seed + len(seeds), seed + min(count, len(seeds) + step)))
            # In this process when there is one worker: no process to start.
            if executor is None:
                done = list(map(play, batch))
            else:
                with forks.deferred():  # workers fork as they are submitted (coupling.forks)
                    futures = executor.map(play, batch)
                done = list(futures)
            for s, (summary, failure) in zip(batch, done, strict=True):
                seeds.append(s)
                summaries.append(summary)
                if failure is not None:
                    failures.append(f"seed {s}: {failure}")
            step = workers
            if precision is not None and precise(combine(summaries), precision):
                break
    finally:
        if executor is not None:
            executor.shutdown()
    return Replicated(combine(summaries), seeds, failures)


def play_file(
    path: str,
    duration: float | None,
    redis_url: str | None,
    seed: int,
) -> tuple[dict[str, Any], str | None]:
    """One replication of the scenario file ``path`` (in a worker process): its summary
    and, if it ran but failed, why. On a named server each seed plays on a logical
    database of its own (``seed`` modulo 16): the replications played at once are
    consecutive seeds, at most 16, and a group's keys are named by the group alone."""
    loaded: Scenario | ScriptScenario = (
        load_script(path) if path.endswith(".py") else load_scenario(Path(path))
    )
    if duration is not None:
        loaded = dataclasses.replace(loaded, run=dataclasses.replace(loaded.run, duration=duration))
    url = on_database(redis_url, seed % DATABASES) if redis_url is not None else None
    result = run_scenario(loaded, redis_url=url, seed=seed)
    return result.summary.to_json(), result.failure() or refusals_line(result)


def _shown(key: str, value: float | None) -> str:
    if value is None:
        return "-"
    if "latency" in key or "round_trip" in key:
        return shown_duration(value)
    return f"{value:,.4g}"


def print_replicated(console: Console, replicated: Replicated) -> None:
    """Every figure of ``replicated`` as mean ± 95% half-width, with its n."""
    seeds = replicated.seeds
    title = (
        f"{len(seeds)} replications (seeds {seeds[0]}..{seeds[-1]}): "
        "mean ± 95% half-width (Student t)"
    )
    out = Table(title=title, title_justify="left")
    for name, justify in (
        ("figure", "left"),
        ("mean", "right"),
        ("± 95%", "right"),
        ("n", "right"),
    ):
        out.add_column(name, justify=justify)  # type: ignore[arg-type]
    for name, value in figures(replicated.summary):
        if value["mean"] is None:
            continue
        out.add_row(
            escape(name),
            _shown(name, value["mean"]),
            _shown(name, value["half_width"]),
            str(value["n"]),
        )
    console.print(out)


def run_replications(
    console: Console,
    path: Path,
    loaded: Scenario | ScriptScenario,
    redis_url: str | None,
    seed: int | None,
    duration: float | None,
    count: int,
    precision: float | None,
    as_json: bool,
) -> int:
    """``qsg run --replications``: play, print (tables or JSON), and the exit code."""
    first = loaded.run.seed if seed is None else seed
    play = functools.partial(play_file, str(path), duration, redis_url)
    cores = os.cpu_count() or 1
    at_once = min(count, cores if redis_url is None else min(cores, DATABASES))
    upto = "up to " if precision is not None else ""
    console.print(f"playing {upto}{count} replications, {at_once} at a time")
    try:
        replicated = replicate(play, first, count, precision=precision, workers=at_once)
    except Exception as error:  # a replication failed to run: one line, exit 1
        while isinstance(error, ExceptionGroup) and len(error.exceptions) == 1:
            error = error.exceptions[0]  # what went wrong, not the nursery it went wrong in
        Console(stderr=True, highlight=False, soft_wrap=True).print(
            f"[bold red]a replication failed:[/] {escape(type(error).__name__)}: "
            f"{escape(str(error))}"
        )
        return 1
    if as_json:
        print(json.dumps(replicated.summary, indent=2))
    else:
        print_replicated(console, replicated)
    if (
        precision is not None
        and len(replicated.seeds) == count
        and not precise(replicated.summary, precision)
    ):
        console.print(
            f"[yellow]note:[/] {count} replications did not reach a precision "
            f"of {precision:g} for every figure"
        )
    for failure in replicated.failures:
        Console(stderr=True, highlight=False, soft_wrap=True).print(
            f"[bold red]the run failed:[/] {escape(failure)}"
        )
    return 1 if replicated.failures else 0


__all__ = [
    "Replicated",
    "combine",
    "interval",
    "play_file",
    "precise",
    "print_replicated",
    "replicate",
    "run_replications",
    "t975",
]
