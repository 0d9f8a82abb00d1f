"""``qsg metrics``, ``qsg sweep`` and ``qsg report``: the data pipeline's commands.

``metrics DIR`` turns the runs under DIR into the tables of docs/pipeline.md;
``sweep SWEEP.toml`` plays a sweep's points as one Spark job, computes their tables
and finds the knee; ``report DIR`` renders a run's, runs' or sweep's tables as one
HTML file. Spark is ``local[*]``, ``--master URL`` or ``--remote sc://...`` (Spark
Connect; ``SPARK_REMOTE``), with ``--conf KEY=VALUE``; every DIR and ``--out`` is a
path or a URI (``file://``, ``s3a://``, ``hdfs://``, ``abfss://``), a relative path
being the driver's. Exit codes: 0 done, 1 a point or the job failed (one line saying
which and why), 2 the sweep file has problems.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from qsg.commands import interrupts
from qsg.commands.display import duration
from qsg.commands.options import SECONDS, redis_option
from qsg.commands.pipeline.frames import MODES
from qsg.commands.pipeline.spark import DEFAULT_MASTER
from qsg.commands.pipeline.where import is_glob, is_local, local_path, to_uri
from qsg.scenario.errors import ScenarioError, ScenarioProblem

F = TypeVar("F", bound=Callable[..., Any])


def on_spark(command: F) -> F:
    """``--master``, ``--remote`` and ``--conf``: the options every pipeline command takes."""
    command = click.option(
        "--conf",
        "conf",
        multiple=True,
        metavar="KEY=VALUE",
        help="A Spark setting (repeatable), over spark-defaults.conf and qsg's own.",
    )(command)
    command = click.option(
        "--remote",
        default=None,
        metavar="sc://HOST:PORT",
        callback=_remote_url,
        help="A Spark Connect server instead of a master (default: $SPARK_REMOTE if set).",
    )(command)
    command = click.option(
        "--master",
        default=None,
        metavar="URL",
        callback=_master_url,
        help=f"The Spark master: local[N], spark://host:7077, yarn, k8s://... (metrics, "
        f"sweep and report default to {DEFAULT_MASTER}, unless --remote or $SPARK_REMOTE).",
    )(command)
    return command


def _master_url(_context: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    """``--master`` as Spark takes it, or a usage error naming it (before anything starts)."""
    from qsg.commands.pipeline.spark import check_master

    if value is not None:
        try:
            check_master(value)
        except ValueError as error:
            raise click.BadParameter(str(error).removeprefix("--master ")) from None
    return value


def _remote_url(_context: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    """``--remote`` an ``sc://`` URL, or a usage error naming it (its server is reached
    when the session starts: ``check_remote``)."""
    from qsg.commands.pipeline.spark import check_remote_url

    if value is not None:
        try:
            check_remote_url(value)
        except ValueError as error:
            raise click.BadParameter(str(error).removeprefix("--remote ")) from None
    return value


_interval = click.option(
    "--interval",
    type=SECONDS,
    default=1.0,
    show_default=True,
    help="Seconds per bucket of the time series.",
)
_mode = click.option(
    "--mode",
    type=click.Choice(MODES),
    default="overwrite",
    show_default=True,
    help="Tables already at the output: replace them, or refuse (nothing written).",
)


class Location(click.ParamType):  # type: ignore[type-arg]
    """A path or a URI (``scheme://...``): a local path must exist if ``exists``."""

    name = "location"

    def __init__(self, *, exists: bool = False) -> None:
        self.exists = exists

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> str:
        text = str(value)
        if self.exists and is_local(text) and not is_glob(text) and not local_path(text).is_dir():
            self.fail(f"{text}: no such directory", param, ctx)
        return text


def _console() -> Console:
    """``qsg run``'s console (wide enough for the tables when not a terminal)."""
    from qsg.commands.helpers import console

    return console()


def _fail(message: str) -> NoReturn:
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    err.print(f"[bold red]error[/] {escape(message)}")
    sys.exit(1)


#: What ``pip install 'qsg[spark]'`` adds (pyproject.toml's ``spark`` extra): Spark's
#: Python side, and the report's frames and plots.
SPARK_EXTRA = ("pyspark", "pandas", "plotly")


def require_spark_extra() -> None:
    """Exit 1 in one line, naming the extra, when what the Spark pipeline needs is not
    installed (qsg without ``[spark]`` plays scenarios, programs and campaigns only)."""
    missing = []
    for name in SPARK_EXTRA:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    if missing:
        _fail(
            f"the Spark pipeline needs {', '.join(missing)}, not installed here: "
            "pip install 'qsg[spark]' (and Java 17 or newer)"
        )


def start_spark(
    master: str | None, remote: str | None, conf: tuple[str, ...], java_options: str = ""
) -> Any:
    """The Spark session (``java_options``: for the driver's JVM, ``spark_session``); exit 1
    in one line if Spark cannot start (no Java, a bad --conf, no Connect server at
    --remote)."""
    require_spark_extra()
    from qsg.commands.pipeline.frames import one_line
    from qsg.commands.pipeline.spark import JavaMissingError, parse_conf, spark_session

    if master is not None and remote is not None:
        _fail("--master and --remote name two Sparks: give one")
    try:
        settings = parse_conf(conf)
        return spark_session(master, remote=remote, conf=settings, java_options=java_options)
    except (JavaMissingError, ValueError) as error:
        _fail(str(error))
    except Exception as error:  # PySpark's and gRPC's errors: the first line says it
        _fail(f"Spark did not start ({remote or master or DEFAULT_MASTER}): {one_line(error)}")


def _where(spark: Any) -> str:
    from qsg.commands.pipeline.spark import is_connect

    return "Spark Connect" if is_connect(spark) else str(spark.sparkContext.master)


def _check_runs(directory: str, *, stored: bool = False) -> None:
    """Fail at once, before Spark starts (seconds, and its log), if a local directory
    holds no run (a URI is listed by Spark); given ``stored``, tables a sweep or ``qsg
    metrics`` wrote (``DIR/metrics/runs``, what ``qsg report`` reads first) do too."""
    from qsg.commands.pipeline.runs import list_runs

    if not is_local(directory):
        return
    if stored and not is_glob(directory) and (local_path(directory) / "metrics" / "runs").is_dir():
        return
    try:
        list_runs(None, directory)  # a walk: the logs themselves are the executors' to read
    except ValueError as error:
        _fail(str(error))


def _is_sweep(directory: Path) -> bool:
    """Whether ``directory`` is a sweep's OUT (``sweep.json`` and ``runs/``)."""
    return (directory / "sweep.json").is_file() and (directory / "runs").is_dir()


def run_job(action: Callable[[], Any]) -> Any:
    """``action()``, a Spark job: its failure as one line (exit 1), not a traceback."""
    from qsg.commands.pipeline.frames import JobError, one_line

    try:
        return action()
    except Exception as error:
        if interrupts.of(error):  # the JVM's link, closed by an interrupt: the interrupt
            raise
        if isinstance(error, (JobError, ValueError)):
            _fail(str(error))
        _fail(one_line(error))  # PySpark's own (a worker without qsg, a lost executor)


@click.command()
@click.argument("directory", type=Location(exists=True))
@click.option(
    "--out",
    type=Location(),
    default=None,
    help="Where the tables go, a path or URI (default: DIRECTORY/metrics; needed when "
    "DIRECTORY is a pattern).",
)
@on_spark
@_interval
@_mode
def metrics(
    directory: str,
    out: str | None,
    master: str | None,
    remote: str | None,
    conf: tuple[str, ...],
    interval: float,
    mode: str,
) -> None:
    """Compute the metrics tables of every run under DIRECTORY (a path or URI; each run
    a directory with an events.parquet, as `qsg run --out` writes) and write them as
    Parquet through Spark."""
    require_spark_extra()
    from qsg.commands.pipeline import metrics as m
    from qsg.commands.pipeline.where import child

    _check_runs(directory)
    source = to_uri(directory)
    if out is None and is_glob(directory):
        _fail(f"{directory} is a pattern: say where the tables go (--out DIR)")
    target = to_uri(out) if out is not None else child(source, "metrics")
    if is_local(target) and local_path(target).is_file():
        named = f"--out {out}" if out is not None else target  # DIR/metrics, a file
        _fail(f"{named}: a file, not a directory for the tables")
    if is_local(directory) and not is_glob(directory) and _is_sweep(local_path(directory)):
        # A sweep's own directory: its runs named as its points (p001-s1, not
        # runs/p001-s1), so that the tables still match its points and knee.
        source = child(source, "runs")
    spark = start_spark(master, remote, conf)
    ev = run_job(lambda: m.Events.load(spark, source, interval=interval))
    written = run_job(lambda: m.store(ev, target, mode=mode))
    _console().print(f"{len(ev.runs)} run(s); {len(m.TABLES)} tables written to {written}/")


@click.command()
@click.argument("sweep_file", metavar="SWEEP", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--out",
    type=Location(),
    required=True,
    help="The sweep's directory, a path or URI: runs/POINT/ per point, metrics/, sweep.json.",
)
@on_spark
@redis_option(
    envvar="QSG_SWEEP_REDIS_URL",
    help="Play every point on this Redis server (a database per concurrent task) "
    "instead of an embedded server per point (default: $QSG_SWEEP_REDIS_URL, where a "
    "password is out of sight of ps).",
)
@_interval
@_mode
@click.option(
    "--report/--no-report",
    default=True,
    show_default=True,
    help="Also write OUT/report.html (OUT local) or ./report.html (OUT a URI).",
)
@click.option(
    "--replications",
    type=click.IntRange(1, 1000),
    default=None,
    metavar="N",
    help="Play each point with N seeds (from the sweep's first seed) instead of its "
    "seeds, and give each point's figures as mean ± 95% half-width.",
)
def sweep(
    sweep_file: Path,
    out: str,
    master: str | None,
    remote: str | None,
    conf: tuple[str, ...],
    redis_url: str | None,
    interval: float,
    mode: str,
    report: bool,
    replications: int | None,
) -> None:
    """Play the points of SWEEP (a base scenario and the parameters to vary, see
    docs/pipeline.md) as one Spark job, each point one simulation in virtual time on an
    executor; compute the metrics of all of them and find the knee: per group of points,
    the highest offered load whose p99 latency stays within the objective."""
    require_spark_extra()
    from qsg.commands.helpers import is_scenario as _is_scenario
    from qsg.commands.helpers import print_problems as _problems
    from qsg.commands.pipeline.sweep import check_out, run_sweep
    from qsg.commands.pipeline.sweep_file import load_sweep

    try:
        if _is_scenario(sweep_file):
            raise ScenarioError(
                [
                    ScenarioProblem(
                        str(sweep_file),
                        1,
                        "",
                        f"a scenario, not a sweep file: play it with `qsg run {sweep_file}`;"
                        " a sweep file names its base `scenario` and has a [vary] table"
                        " (docs/pipeline.md)",
                    )
                ]
            )
        loaded = load_sweep(sweep_file, replications)
    except ScenarioError as error:
        _problems(error)
        sys.exit(2)
    target = to_uri(out)
    try:
        check_out(target)  # before Spark starts: seconds, and its log
    except ValueError as error:
        _fail(str(error))
    console = _console()
    spark = start_spark(master, remote, conf)
    console.print(f"[bold]{sweep_file}[/]: {len(loaded.points)} points on {_where(spark)}")
    swept = run_job(
        lambda: run_sweep(spark, loaded, target, redis_url, interval=interval, mode=mode)
    )
    failed = [r for r in swept.results if r.error]
    for r in failed:
        console.print(f"[bold red]point {r.run} failed:[/] {escape(str(r.error))}")
    if len(failed) == len(swept.results):
        _fail("every point failed; nothing to aggregate")
    if len(loaded.seeds) > 1:
        _print_intervals(console, swept.points.to_pylist(), len(loaded.seeds))
    else:
        _print_points(console, swept.points.to_pylist())
    _print_knee(console, swept.knee.to_pylist(), loaded.objective.p99)
    if report:
        from qsg.commands.pipeline.report import write_report

        page = Path("report.html") if not is_local(target) else None
        console.print(f"report: {run_job(lambda: write_report(spark, target, page))}")
    console.print(f"metrics written to {target}/metrics/")
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
        table.add_row(
            *(duration(row[c]) if c.startswith("latency") else _fmt(row[c]) for c in columns)
        )
    console.print(table)


def _print_intervals(console: Console, rows: list[dict[str, Any]], seeds: int) -> None:
    from qsg.commands.pipeline.answer import POINT_FIGURES, point_intervals

    table = Table(
        title=f"Points (mean ± 95% half-width over {seeds} seeds)",
        title_justify="left",
        title_style="bold",
    )
    for c in ("parameters", "offered load", *[c.replace("_", " ") for c in POINT_FIGURES]):
        table.add_column(c, justify="left" if c == "parameters" else "right")
    for row in point_intervals(rows):
        shown = [", ".join(f"{k}={v}" for k, v in row["params"].items()), _fmt(row["offered_load"])]
        for name in POINT_FIGURES:
            ci = row[name]
            value = duration if name.startswith("latency") else _fmt
            figure = "-" if ci["mean"] is None else value(ci["mean"])
            if ci["half_width"] is not None:
                figure += f" ± {value(ci['half_width'])}"
            shown.append(f"{figure} (n={ci['n']})")
        table.add_row(*shown)
    console.print(table)


def _print_knee(console: Console, rows: list[dict[str, Any]], objective: float) -> None:
    table = Table(
        title=f"Knee (objective: p99 <= {objective:g} s)", title_justify="left", title_style="bold"
    )
    for c in ("group", "offered load", "p99", "meets", "knee"):
        table.add_column(c, justify="left" if c == "group" else "right")
    for row in rows:
        table.add_row(
            row["group"] or "(all)",
            _fmt(row["offered_load"]),
            duration(row["latency_p99"]),
            "yes" if row["meets"] else "no",
            "◀ knee" if row["knee"] else "",
        )
    console.print(table)


@click.command()
@click.argument("directory", type=Location(exists=True))
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The HTML file, local (default: DIRECTORY/report.html, or ./report.html "
    "when DIRECTORY is a URI).",
)
@on_spark
@_interval
def report(
    directory: str,
    out: Path | None,
    master: str | None,
    remote: str | None,
    conf: tuple[str, ...],
    interval: float,
) -> None:
    """Render the runs (or sweep) under DIRECTORY (a path or URI) as one self-contained
    HTML file: depth over time, latency CDFs, throughput against offered load with the
    knee, a timeline of faults and lease holders, and the summary tables."""
    require_spark_extra()
    from qsg.commands.pipeline.report import write_report

    _check_runs(directory, stored=True)
    if out is not None and not out.parent.is_dir():  # before the job, not after it
        _fail(f"--out {out}: no directory {out.parent}")
    spark = start_spark(master, remote, conf)
    if out is None and (not is_local(directory) or is_glob(directory)):
        out = Path("report.html")
    path = run_job(lambda: write_report(spark, to_uri(directory), out, interval=interval))
    _console().print(f"report written to {path}")


COMMANDS = (metrics, sweep, report)

__all__ = [
    "COMMANDS",
    "Location",
    "metrics",
    "on_spark",
    "report",
    "run_job",
    "start_spark",
    "sweep",
]
