"""``qsg exec SCENARIO -- python app.py [ARGS]``: a pymqi program run inside a scenario.

The scenario is loaded and played as ``qsg run`` plays it; the program runs as one more
task of the same run (``qsg.commands.exec.runner``), its ``import pymqi`` and ``import ibmmq``
resolving to ``qsg.pymqi``. The run ends when the program does (or at the scenario's
duration). Standard output is the program's: qsg's headline, summary and notes go to
standard error. The exit status is the program's; 2 when the scenario or the command
has a problem (nothing was started); 1 when the run itself failed (its coupling facility
among it, with no fault scheduled), or with ``--check`` when a checker found a violation;
130 and 143 when interrupted by SIGINT and SIGTERM (Ctrl-C that the program does not
catch among them). ``--out`` is written as the run goes, as ``qsg run``'s: run.json's
status is the program's (``ok`` only when it ended with 0), with its ``exit_status``.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape

from actors.events import EventLog
from actors.runtime import run as run_trio
from actors.world import World
from qsg.chaos import checkers, history
from qsg.commands import interrupts
from qsg.commands.exec.program import CommandError, Program, parse_command
from qsg.commands.exec.runner import Outcome, run_program
from qsg.commands.options import SECONDS, redis_option, seed_option
from qsg.scenario.errors import ScenarioError
from qsg.scenario.model import Scenario
from qsg.scenario.play import RunResult, ScriptScenario, play


@click.command("exec", context_settings={"ignore_unknown_options": True})
@click.argument("scenario", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
@click.option(
    "--virtual",
    is_flag=True,
    help="Run on the simulated clock: the program's time.sleep, time.time, "
    "time.monotonic and datetime.now follow simulated time (default: the "
    "wall clock, real seconds).",
)
@seed_option()
@click.option(
    "--duration",
    type=SECONDS,
    default=None,
    help="Seconds the run may last at most (default: the scenario's [run] "
    "duration); the program is stopped then if it has not ended.",
)
@click.option(
    "--out",
    "out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write the run here, as qsg run --out does.",
)
@redis_option()
@click.option(
    "--check",
    is_flag=True,
    help="Record the history and judge it with qsg chaos's checkers at the end "
    "(exit 1 if one finds a violation).",
)
@click.option("--quiet", is_flag=True, help="No summary at the end.")
def exec_command(
    scenario: Path,
    command: tuple[str, ...],
    virtual: bool,
    seed: int | None,
    duration: float | None,
    out: Path | None,
    redis_url: str | None,
    check: bool,
    quiet: bool,
) -> None:
    """Run a pymqi program inside SCENARIO: qsg exec SCENARIO -- python app.py [ARGS].

    The program runs unchanged: `import pymqi` and `import ibmmq` are qsg's pymqi,
    connect() reaches the scenario's queue managers (by name, by a QSG's name as
    group attach, or by a listener's CONNAME), and the scenario's workloads, faults
    and channels run around it. Also: python -m MODULE [ARGS], python -c CODE [ARGS].
    """
    from qsg.commands.helpers import causes as _causes
    from qsg.commands.helpers import load, open_recording, print_summary
    from qsg.commands.helpers import print_problems as _problems

    err = Console(stderr=True, highlight=False, soft_wrap=True)
    try:
        program = parse_command(command)
    except CommandError as error:
        err.print(f"[bold red]error[/] {escape(str(error))}")
        sys.exit(2)
    try:
        loaded = load(scenario)
    except ScenarioError as error:
        _problems(error)
        sys.exit(2)
    settings = dataclasses.replace(loaded.run, clock="virtual" if virtual else "wall")
    if duration is not None:
        settings = dataclasses.replace(settings, duration=duration)
    loaded = dataclasses.replace(loaded, run=settings)
    recording = None if out is None else open_recording(out, scenario, loaded, seed)
    try:
        outcome, result = run_exec(
            loaded,
            program,
            virtual=virtual,
            redis_url=redis_url,
            seed=seed,
            check=check,
            events=None if recording is None else recording.events,
        )
    except Exception as error:
        causes = [f"{type(cause).__name__}: {cause}" for cause in _causes(error)]
        for cause in causes:
            err.print(f"[bold red]the run failed:[/] {escape(cause)}")
        if recording is not None:
            recording.failed(causes)
            err.print(f"what the run did before it failed is in {escape(str(out))}/")
        raise SystemExit(1) from error
    except BaseException as error:  # interrupted (SIGINT, SIGTERM; the program's Ctrl-C)
        if recording is None or not interrupts.of(error):
            raise
        recording.failed([f"interrupted ({interrupts.received().name})"], status="interrupted")
        interrupts.end(f"what the run did until then is in {out}/")
    if outcome.stopped:
        err.print(f"the program was stopped at the scenario's end ({settings.duration:g} s)")
    status = outcome.exit_status
    if not quiet:
        print_summary(_console(), result)
    if check and not _judge(err, result) and status == 0:
        status = 1
    failure = result.failure()
    if failure is not None:  # it ran to its end, but its coupling facility failed
        err.print(f"[bold red]the run failed:[/] {escape(failure)}")
        status = status or 1
    if recording is not None:
        recording.finished(result, exit_status=outcome.exit_status)
        err.print(f"run written to {out}/")
    sys.exit(status)


def _console() -> Console:
    console = Console(highlight=False, stderr=True)
    return console if console.is_terminal else Console(highlight=False, stderr=True, width=150)


def run_exec(
    scenario: Scenario | ScriptScenario,
    program: Program,
    *,
    virtual: bool = False,
    redis_url: str | None = None,
    seed: int | None = None,
    check: bool = False,
    events: EventLog | None = None,
) -> tuple[Outcome, RunResult]:
    """Play ``scenario`` with ``program`` inside it (``qsg exec`` without the printing):
    how the program ended, and the run. ``check`` records the history the chaos
    checkers judge; ``events`` is the log to use (``--out``'s, written as it goes)."""
    outcome = Outcome()

    async def the_program(world: World) -> None:
        await run_program(world, program, outcome, virtual=virtual)

    async def main() -> RunResult:
        return await play(
            scenario,
            redis_url=redis_url,
            seed=seed,
            history=check,
            program=the_program,
            events=events,
        )

    return outcome, run_trio(main, wall_clock=not virtual)


#: How a verdict's status is shown.
_MARKS = {
    "ok": "[green]ok[/]",
    checkers.VIOLATION: f"[bold red]{checkers.VIOLATION}[/]",
    checkers.NOT_EXERCISED: f"[yellow]{checkers.NOT_EXERCISED}[/]",
}
#: The MsgIds (or other names) shown under a violation, at most.
_SHOWN = 10


def _judge(err: Console, result: RunResult) -> bool:
    """The chaos checkers' verdicts on the run's history (with what its queues held at
    the end), printed: each one's status, counts and notes (what became of each
    scheduled fault...), and under a violation what it involved. Whether none found
    one."""
    verdicts = checkers.check(history.of_run(result))
    for verdict in verdicts:
        mark = _MARKS[verdict.status]
        err.print(f"check {verdict.name:<14} {mark}  {escape(verdict.summary())}")
        shown = list(verdict.notes)
        if not verdict.ok:
            shown += verdict.involved[:_SHOWN]
            if len(verdict.involved) > _SHOWN:
                shown.append(f"... and {len(verdict.involved) - _SHOWN} more")
        for line in shown:
            err.print(f"  {escape(line)}")
    return all(v.ok for v in verdicts)


__all__ = ["exec_command", "run_exec"]
