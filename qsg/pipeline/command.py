"""``qsg metrics``, ``qsg sweep`` and ``qsg report``: the data pipeline's commands.

``metrics DIR`` turns the runs under DIR into the tables of docs/pipeline.md;
``sweep SWEEP.toml`` plays a sweep's points as Spark tasks, then does the same and
finds the knee; ``report DIR`` renders a run's, runs' or sweep's tables as one HTML
file. Exit codes: 0 done, 1 a point or the job failed, 2 the sweep file has problems.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, NoReturn

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from qsg.display import duration
from qsg.options import SECONDS
from qsg.pipeline.spark import DEFAULT_MASTER
from qsg.scenario.errors import ScenarioError, ScenarioProblem

_master = click.option(
    "--master",
    default=DEFAULT_MASTER,
    show_default=True,
    metavar="URL",
    help="The Spark master: local[N], spark://host:7077, yarn, k8s://...",
)
_interval = click.option(
    "--interval",
    type=SECONDS,
    default=1.0,
    show_default=True,
    help="Seconds per bucket of the time series.",
)


def _console() -> Console:
    """``qsg run``'s console (wide enough for the tables when not a terminal)."""
    from qsg.command_helpers import console

    return console()


def _fail(message: str) -> NoReturn:
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    err.print(f"[bold red]error[/] {escape(message)}")
    sys.exit(1)


def _spark(master: str) -> Any:
    """The Spark session; exit 1 naming what is missing if Spark cannot start (Java)."""
    from qsg.pipeline.spark import JavaMissingError, spark_session

    try:
        return spark_session(master)
    except JavaMissingError as error:
        _fail(str(error))


def _check_runs(directory: Path) -> None:
    """Fail at once, before Spark starts (seconds, and its log), if there is no run."""
    from qsg.pipeline.runs import find_runs

    try:
        find_runs(directory)
    except ValueError as error:
        _fail(str(error))


@click.command()
@click.argument("directory", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where the tables go (default: DIRECTORY/metrics).",
)
@_master
@_interval
def metrics(directory: Path, out: Path | None, master: str, interval: float) -> None:
    """Compute the metrics tables of every run under DIRECTORY (each a directory with an
    events.parquet, as `qsg run --out` writes) and write them as Parquet."""
    from qsg.pipeline import metrics as m

    _check_runs(directory)
    spark = _spark(master)
    try:
        ev = m.Events.load(spark, directory, interval=interval)
    except ValueError as error:
        _fail(str(error))
    target = m.store(ev, out or directory / "metrics")
    _console().print(f"{len(ev.runs)} run(s); {len(m.TABLES)} tables written to {target}/")


@click.command()
@click.argument("sweep_file", metavar="SWEEP", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="The sweep's directory: runs/POINT/ per point, metrics/, sweep.json.",
)
@_master
@click.option(
    "--redis",
    "redis_url",
    metavar="URL",
    default=None,
    help="Play every point on this Redis server (a database per concurrent point) "
    "instead of an embedded server per point.",
)
@_interval
@click.option(
    "--report/--no-report", default=True, show_default=True, help="Also write OUT/report.html."
)
def sweep(sweep_file: Path, out: Path, master: str, redis_url: str | None, interval: float,
          report: bool) -> None:  # fmt: skip
    """Play the points of SWEEP (a base scenario and the parameters to vary, see
    docs/pipeline.md) as Spark tasks, each one simulation in virtual time; then compute
    the metrics of all of them and find the knee: per group of points, the highest
    offered load whose p99 latency stays within the objective."""
    from qsg.command_helpers import check_redis_url
    from qsg.command_helpers import is_scenario as _is_scenario
    from qsg.command_helpers import print_problems as _problems
    from qsg.pipeline.sweep import aggregate, run_points
    from qsg.pipeline.sweep_file import load_sweep

    check_redis_url(redis_url)
    try:
        if _is_scenario(sweep_file):
            raise ScenarioError([ScenarioProblem(
                str(sweep_file), 1, "",
                f"a scenario, not a sweep file: play it with `qsg run {sweep_file}`; a sweep"
                " file names its base `scenario` and has a [vary] table (docs/pipeline.md)",
            )])  # fmt: skip
        loaded = load_sweep(sweep_file)
    except ScenarioError as error:
        _problems(error)
        sys.exit(2)
    console = _console()
    console.print(f"[bold]{sweep_file}[/]: {len(loaded.points)} points on {master}")
    spark = _spark(master)
    results = run_points(spark, loaded, out, redis_url)
    failed = [r for r in results if r.error]
    for r in failed:
        console.print(f"[bold red]point {r.run} failed:[/] {escape(str(r.error))}")
    if len(failed) == len(results):
        _fail("every point failed; nothing to aggregate")
    tables = aggregate(spark, loaded, out, interval=interval)
    _print_points(console, tables["points"].to_pylist())
    _print_knee(console, tables["knee"].to_pylist(), loaded.objective.p99)
    if report:
        from qsg.pipeline.report import write_report

        console.print(f"report: {write_report(spark, out)}")
    console.print(f"metrics written to {out}/metrics/")
    if failed:
        sys.exit(1)


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.3f}"
    return str(value)


def _print_points(console: Console, rows: list[dict[str, Any]]) -> None:
    table = Table(title="Points", title_justify="left", title_style="bold")
    columns = ["run", "group", "seed", "offered_load", "throughput", "latency_p50", "latency_p99"]
    for c in columns:
        table.add_column(c.replace("_", " "), justify="left" if c in ("run", "group") else "right")
    for row in rows:
        table.add_row(*(duration(row[c]) if c.startswith("latency") else _fmt(row[c])
                        for c in columns))  # fmt: skip
    console.print(table)


def _print_knee(console: Console, rows: list[dict[str, Any]], objective: float) -> None:
    table = Table(title=f"Knee (objective: p99 <= {objective:g} s)", title_justify="left",
                  title_style="bold")  # fmt: skip
    for c in ("group", "offered load", "p99", "meets", "knee"):
        table.add_column(c, justify="left" if c == "group" else "right")
    for row in rows:
        table.add_row(row["group"] or "(all)", _fmt(row["offered_load"]),
                      duration(row["latency_p99"]), "yes" if row["meets"] else "no",
                      "◀ knee" if row["knee"] else "")  # fmt: skip
    console.print(table)


@click.command()
@click.argument("directory", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The HTML file (default: DIRECTORY/report.html).",
)
@_master
@_interval
def report(directory: Path, out: Path | None, master: str, interval: float) -> None:
    """Render the runs (or sweep) under DIRECTORY as one self-contained HTML file: depth
    over time, latency CDFs, throughput against offered load with the knee, a timeline
    of faults and lease holders, and the summary tables."""
    from qsg.pipeline.report import write_report

    _check_runs(directory)
    spark = _spark(master)
    try:
        path = write_report(spark, directory, out, interval=interval)
    except ValueError as error:
        _fail(str(error))
    _console().print(f"report written to {path}")


COMMANDS = (metrics, sweep, report)

__all__ = ["COMMANDS", "metrics", "report", "sweep"]
