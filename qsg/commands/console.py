"""``qsg mqsc``: the runmqsc of the simulator, a console on one queue manager of a
scenario that runs.

The scenario plays in virtual time to ``--at`` seconds; there simulated time stands
still while the console waits for a command (the read happens in a worker thread and
holds the virtual clock, the way a request to Redis does), so what DISPLAY shows is the
state at that instant, whatever the administrator's pace. Each command runs at once at
that instant; ``end`` (or the end of the input) ends the run.

Commands come from the terminal, with line editing and history (prompt_toolkit), or
from a file or a pipe for scripts: each is then echoed with its number, as runmqsc
does. At the end the console counts the commands read and those that failed; the exit
status is 0 when all ran, 10 when one or more failed (runmqsc's own codes), 20 when the
console could not start (no such queue manager, a scenario in wall-clock time), 2 when
the scenario has problems.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import click
import trio

from actors import admin
from actors.clock import current_virtual_clock
from actors.world import World
from qsg.commands.options import redis_option, seed_option
from qsg.mqsc.lexer import MAX_COMMAND_LENGTH
from qsg.scenario.files import MAX_FILE_BYTES
from qsg.scenario.model import MAX_DURATION

#: runmqsc's exit statuses.
ALL_PROCESSED, SOME_FAILED, NOT_STARTED = 0, 10, 20


class _Waiting:
    """An ``IOSource`` busy while the console waits for its administrator: the virtual
    clock does not move meanwhile."""

    busy = True


@dataclass(slots=True)
class Tally:
    """What a session did: commands read, and how many of them failed."""

    read: int = 0
    failed: int = 0


class Lines:
    """Where commands come from: ``read`` gives the next line, or None at the end."""

    def __init__(self, read: Callable[[], str | None], *, echo: bool) -> None:
        self._read = read
        self.echo = echo  # a script's commands are echoed, numbered

    async def next(self) -> str | None:
        """The next line, read in a worker thread with simulated time held."""
        clock = current_virtual_clock()
        waiting = _Waiting()
        if clock is not None:
            clock.watch(waiting)
        try:
            return await trio.to_thread.run_sync(self._read, abandon_on_cancel=True)
        finally:
            if clock is not None:
                clock.unwatch(waiting)


def terminal_lines(q_mgr: str) -> Lines:
    """Lines typed at a terminal: prompt_toolkit's line editing and history."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import InMemoryHistory

    session: PromptSession[str] = PromptSession(history=InMemoryHistory())

    def read() -> str | None:
        try:
            return session.prompt(f"{q_mgr}> ")
        except (EOFError, KeyboardInterrupt):
            return None

    return Lines(read, echo=False)


def file_lines(stream: TextIO) -> Lines:
    """Lines of a file or a pipe (a script), each read up to one character more than the
    longest command (``lexer.MAX_COMMAND_LENGTH``): a longer line is given that far, so
    its command is refused (CSQ9017E), and the rest of it skipped; a line still without
    end after ``MAX_FILE_BYTES`` more (``< /dev/zero``) ends the input."""
    ended = False

    def read() -> str | None:
        nonlocal ended
        if ended:
            return None
        line = stream.readline(MAX_COMMAND_LENGTH + 1)
        if not line:
            return None
        if not line.endswith("\n") and len(line) > MAX_COMMAND_LENGTH:
            skipped = 0
            while not ended:
                rest = stream.readline(1 << 16)
                if not rest or rest.endswith("\n"):
                    break
                skipped += len(rest)
                ended = skipped > MAX_FILE_BYTES
        return line.rstrip("\n")

    return Lines(read, echo=True)


def _continues(line: str) -> bool:
    body = line.rstrip()
    return bool(body) and not body.lstrip().startswith("*") and body[-1] in "-+"


async def session(world: World, q_mgr: str, lines: Lines, out: TextIO, tally: Tally) -> None:
    """Read and run commands on ``q_mgr`` until ``end`` or the end of the input."""
    now = trio.current_time()
    out.write(f"Starting MQSC for queue manager {q_mgr} at simulated time {now:g} s.\n\n")
    pending: list[str] = []
    while True:
        line = await lines.next()
        if line is None:
            break
        pending.append(line)
        if _continues(line):
            continue
        text, pending = "\n".join(pending), []
        first = text.strip()
        if not first or first.startswith("*"):
            continue
        if first.upper() in ("END", "EXIT", "QUIT"):
            break
        tally.read += 1
        if lines.echo:
            shown = " ".join(
                part.rstrip()[:-1] if _continues(part) else part for part in text.split("\n")
            )
            echoed = " ".join(shown.split())
            if len(echoed) > 200:  # a command too long to run is not copied out whole
                echoed = f"{echoed[:200]}... ({len(echoed):,} characters)"
            out.write(f"{tally.read:>6} : {echoed}\n")
        reply = await admin.command(world, q_mgr, text)
        tally.failed += reply.failed
        out.write(reply.text + "\n")
        out.flush()
    out.write(f"{tally.read} MQSC command{'s' if tally.read != 1 else ''} read.\n")
    if tally.failed:
        out.write(
            f"{tally.failed} command{'s' if tally.failed != 1 else ''} could not be processed.\n"
        )
    else:
        out.write("All valid MQSC commands were processed.\n")
    out.flush()


def _at(ctx: click.Context, param: click.Parameter, value: float) -> float:
    if not math.isfinite(value) or value < 0:
        raise click.BadParameter(f"{value:g} is not a number of seconds from 0 on")
    if value > MAX_DURATION:  # as --duration: the scenario's own is checked once it is read
        raise click.BadParameter(f"must be at most {MAX_DURATION:g} seconds, not {value:g}")
    return value


@click.command()
@click.argument("scenario", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("q_mgr", metavar="QMNAME")
@click.option(
    "--at",
    "at",
    type=float,
    default=0.0,
    callback=_at,
    show_default=True,
    help="Run the scenario to this simulated second before the console opens.",
)
@redis_option()
@seed_option()
def mqsc(scenario: Path, q_mgr: str, at: float, redis_url: str | None, seed: int | None) -> None:
    """A runmqsc console on queue manager QMNAME of SCENARIO, running in simulated time.

    Type MQSC commands (DISPLAY QSTATUS(*), DEFINE QLOCAL(...), ...) and `end`; or
    give them on standard input (qsg mqsc S QM1 < cmds.mqsc). Time stands still at
    --at seconds while the console is open. Exit status 0: every command ran; 10: some
    failed; 20: the console could not start; 2: the scenario has problems.
    """
    from qsg.commands.helpers import load
    from qsg.commands.helpers import print_problems as _problems
    from qsg.scenario.errors import ScenarioError
    from qsg.scenario.play import run_scenario

    try:
        loaded = load(scenario)
    except ScenarioError as error:
        _problems(error)
        sys.exit(2)
    if at > loaded.run.duration:  # the world would play to it first, however long it is
        raise click.BadParameter(
            f"{at:g} s is after the scenario's end ({loaded.run.duration:g} s): the "
            "console opens during the run",
            param_hint="'--at'",
        )
    names = sorted(loaded.topology.qmgrs)
    if q_mgr not in names:
        click.echo(
            f"qsg mqsc: no queue manager {q_mgr} in {scenario} (it has {', '.join(names)})",
            err=True,
        )
        sys.exit(NOT_STARTED)
    if loaded.run.clock == "wall":
        click.echo(
            f"qsg mqsc: {scenario} runs on the wall clock, which a console cannot "
            'hold still; use [run] clock = "virtual"',
            err=True,
        )
        sys.exit(NOT_STARTED)
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    lines = terminal_lines(q_mgr) if interactive else file_lines(sys.stdin)
    tally = Tally()

    async def console(world: World) -> None:
        await session(world, q_mgr, lines, sys.stdout, tally)

    try:
        run_scenario(loaded, redis_url=redis_url, seed=seed, console=(at, console))
    except Exception as error:  # the run itself failed: one line each, as qsg run says
        from qsg.commands.helpers import causes as _causes

        for cause in _causes(error):
            click.echo(f"qsg mqsc: the run failed: {type(cause).__name__}: {cause}", err=True)
        sys.exit(NOT_STARTED)
    sys.exit(SOME_FAILED if tally.failed else ALL_PROCESSED)


__all__ = ["Lines", "Tally", "file_lines", "mqsc", "session", "terminal_lines"]
