"""The ``qsg`` command: run and validate scenarios (and chaos-test them: ``qsg.chaos``).

Built on click (commands, options, help) and rich (the progress bar in simulated time,
the summary tables). ``qsg validate`` only checks; ``qsg run`` checks, plays and
summarises, and with ``--out`` keeps the run: the scenario, its seed, the summary as
JSON and the event log as Parquet. Exit codes: 0 done, 2 the scenario has problems
(each printed as ``file:line: key: message``; nothing was started), 1 the run failed,
130 and 143 interrupted by SIGINT and SIGTERM (``qsg.commands.interrupts``).
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Sized
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from actors.events import EventLog
from qsg.commands import interrupts
from qsg.commands.helpers import causes as _causes
from qsg.commands.helpers import console as _console
from qsg.commands.helpers import is_sweep as _is_sweep
from qsg.commands.helpers import load, open_recording, write_run
from qsg.commands.helpers import print_problems as _problems
from qsg.commands.options import SECONDS, redis_option, seed_option
from qsg.commands.run_view import print_summary, refusal_warner, refusals_line
from qsg.scenario.errors import ScenarioError
from qsg.scenario.model import Scenario
from qsg.scenario.play import Progress as RunProgress
from qsg.scenario.play import RunResult, ScriptScenario, run_scenario

#: What the progress line counts, by event kind.
SHOWN = (
    ("put", "put"),
    ("get", "got"),
    ("discard", "expired"),
    ("report", "reports"),
    ("app-error", "errors"),
)


class _Qsg(click.Group):
    """The command group: every subcommand interrupted (SIGINT, SIGTERM) ends in one line
    and its exit status (``qsg.commands.interrupts``), not in a traceback of trio's
    exception groups."""

    def invoke(self, ctx: click.Context) -> Any:
        with interrupts.taken():
            try:
                return super().invoke(ctx)
            except BaseException as error:
                if not interrupts.of(error):
                    raise
            from qsg.commands.pipeline.spark import end_driver_jvm

            end_driver_jvm()  # a Spark command's JVM writes nothing after the line
            interrupts.end()


@click.group(cls=_Qsg, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="qsg", prog_name="qsg")
def main() -> None:
    """qsg: a simulator of IBM MQ queue-sharing groups.

    A scenario file (TOML, see docs/scenarios.md; or a Python script using the qsg API)
    describes queue managers, QSGs and their coupling facility, channels, the
    applications that put and get, and a fault schedule. `qsg run` plays it in
    simulated time and summarises what happened; `qsg validate` only checks it.
    """


@main.command()
@click.argument(
    "scenarios", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path)
)
def validate(scenarios: tuple[Path, ...]) -> None:
    """Check SCENARIOS without running them.

    Every problem is printed as FILE:LINE: KEY: MESSAGE: unknown keys, wrong types,
    names that resolve to nothing, MQSC that the queue managers refuse, impossible
    topologies. Exit code 2 if any file has a problem, 0 if all are good.
    """
    failed = False
    for path in scenarios:
        if _is_sweep(path):
            from qsg.commands.pipeline.sweep_file import load_sweep

            try:
                points = len(load_sweep(path).points)
            except ScenarioError as error:
                _problems(error)
                failed = True
                continue
            click.echo(f"{path}: ok (a sweep of {points} points)")
            continue
        try:
            scenario = load(path)
        except ScenarioError as error:
            _problems(error)
            failed = True
            continue
        click.echo(f"{path}: ok ({_shape(scenario)})")
    if failed:
        sys.exit(2)


@main.command()
@click.argument("scenario", type=click.Path(dir_okay=False, path_type=Path))
@redis_option()
@click.option(
    "--out",
    "out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write the run here: the scenario, run.json (seed...), summary.json and events.parquet.",
)
@seed_option()
@click.option(
    "--duration",
    type=SECONDS,
    default=None,
    help="Simulated seconds to run (default: the scenario's [run] duration).",
)
@click.option(
    "--progress/--no-progress",
    default=True,
    show_default=True,
    help="Show the progress bar in simulated time.",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print the summary as JSON instead of tables."
)
@click.option(
    "--replications",
    type=click.IntRange(1, 10_000),
    default=None,
    help="Play N seeds (the seed, seed+1, ...) in processes, as many at once as "
    "there are cores, and give each figure as mean ± 95% half-width.",
)
@click.option(
    "--precision",
    type=click.FloatRange(0, 1, min_open=True),
    default=None,
    help="With --replications N: stop once every figure's 95% half-width is "
    "within this fraction of its mean (N at most).",
)
def run(
    scenario: Path,
    redis_url: str | None,
    out: Path | None,
    seed: int | None,
    duration: float | None,
    progress: bool,
    as_json: bool,
    replications: int | None,
    precision: float | None,
) -> None:
    """Play SCENARIO and summarise it.

    The run is in simulated time (the scenario's [run] clock): a second of the
    scenario costs what the simulation takes, not a second. At the end a table per
    queue and per queue manager gives messages put, got, expired and discarded,
    reports, peak depth, latency p50/p99 (ms or s) and errors by reason code, then
    the expiry-scan lease holders and the faults. A fault the world refuses is a
    warning when it happens, and exit code 1 unless the fault says `expected = true`.
    With --replications, every figure is a mean ± 95% half-width over the seeds.
    """
    if precision is not None and replications is None:
        raise click.UsageError("--precision needs --replications N (the most to play)")
    if replications is not None and out is not None:
        raise click.UsageError("--out keeps one run; --replications plays several")
    try:
        loaded = load(scenario)
    except ScenarioError as error:
        _problems(error)
        sys.exit(2)
    if duration is not None:
        loaded = dataclasses.replace(loaded, run=dataclasses.replace(loaded.run, duration=duration))
    console = _console(stderr=as_json)  # with --json, stdout is the JSON alone
    if replications is not None:
        from qsg.commands.replicate import run_replications

        sys.exit(
            run_replications(
                console,
                scenario,
                loaded,
                redis_url,
                seed,
                duration,
                replications,
                precision,
                as_json,
            )
        )
    recording = None if out is None else open_recording(out, scenario, loaded, seed)
    if loaded.description:
        headline = escape(loaded.description.splitlines()[0])
        console.print(f"[bold]{escape(str(scenario))}[/]: {headline}")
    events = None if recording is None else recording.events
    try:
        result = _play(loaded, redis_url, seed, console if progress else None, events)
    except Exception as error:  # the run itself failed: say what, keep its history, exit 1
        err = Console(stderr=True, highlight=False, soft_wrap=True)
        causes = [f"{type(cause).__name__}: {cause}" for cause in _causes(error)]
        for cause in causes:
            err.print(f"[bold red]the run failed:[/] {escape(cause)}")
        if recording is not None:
            recording.failed(causes)
            err.print(f"what the run did before it failed is in {escape(str(out))}/")
        raise SystemExit(1) from error
    except BaseException as error:  # interrupted (SIGINT, SIGTERM): keep its history too
        if recording is None or not interrupts.of(error):
            raise
        recording.failed([f"interrupted ({interrupts.received().name})"], status="interrupted")
        interrupts.end(f"what the run did until then is in {out}/")
    if as_json:
        click.echo(json.dumps(result.summary.to_json(), indent=2, default=_json_default))
    else:
        print_summary(console, result)
    if recording is not None:
        recording.finished(result)
        console.print(f"run written to {out}/")
    failure = result.failure()
    if failure is not None:  # it ran to its end, but its coupling facility failed
        err = Console(stderr=True, highlight=False, soft_wrap=True)
        err.print(f"[bold red]the run failed:[/] {escape(failure)}")
        sys.exit(1)
    refusals = refusals_line(result)
    if refusals is not None:  # the run did not do what its file says
        Console(stderr=True, highlight=False, soft_wrap=True).print(escape(refusals))
        sys.exit(1)


def _play(
    scenario: Scenario | ScriptScenario,
    redis_url: str | None,
    seed: int | None,
    console: Console | None,
    events: EventLog | None = None,
) -> RunResult:
    # Refused faults are told as they happen: above the progress bar, else on stderr.
    warn = refusal_warner(console or Console(stderr=True, highlight=False, soft_wrap=True))
    if console is None:
        return run_scenario(
            scenario, redis_url=redis_url, seed=seed, on_refused=warn, events=events
        )
    columns = (
        TextColumn("[bold]simulated"),
        BarColumn(),
        TextColumn("{task.completed:>9.1f} / {task.total:.0f} s"),
        TextColumn("{task.fields[counts]}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, refresh_per_second=8) as bar:
        task: TaskID = bar.add_task("run", total=scenario.run.duration or None, counts="")

        def update(p: RunProgress) -> None:
            counts = "  ".join(f"{label} {p.counts.get(kind, 0):,}" for kind, label in SHOWN)
            bar.update(task, completed=p.now, total=p.duration, counts=counts)

        return run_scenario(
            scenario,
            redis_url=redis_url,
            seed=seed,
            on_progress=update,
            on_refused=warn,
            events=events,
        )


def _json_default(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.hex()
    raise TypeError(type(value).__name__)


def _shape(scenario: Scenario | ScriptScenario) -> str:
    if isinstance(scenario, ScriptScenario):
        return f"Python scenario, {_count(scenario.topology.qmgrs, 'queue manager')}"
    parts = (
        _count(scenario.qmgrs, "queue manager"),
        _count(scenario.qsgs, "QSG"),
        _count(scenario.channels, "channel"),
        _count(scenario.workloads, "workload"),
        _count(scenario.faults, "fault"),
        f"{scenario.run.duration:g} s",
    )
    return ", ".join(parts)


def _count(things: Sized, noun: str) -> str:
    return f"{len(things)} {noun}{'' if len(things) == 1 else 's'}"


def _add_commands() -> None:
    from qsg.commands.chaos import chaos
    from qsg.commands.console import mqsc
    from qsg.commands.exec.command import exec_command
    from qsg.commands.pipeline.command import COMMANDS
    from qsg.commands.serve.command import serve_command

    main.add_command(chaos)
    main.add_command(exec_command)
    main.add_command(mqsc)
    main.add_command(serve_command)
    for command in COMMANDS:
        main.add_command(command)


_add_commands()

__all__ = ["load", "main", "print_summary", "write_run"]


if __name__ == "__main__":
    main()
