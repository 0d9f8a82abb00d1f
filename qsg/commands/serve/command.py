"""``qsg serve SCENARIO``: the scenario played on the wall clock behind IBM MQ's REST
API and a live console, until Ctrl-C or the scenario's end.

Exit status: 0 when the run ended at its duration; 130 and 143 when Ctrl-C (SIGINT) or
SIGTERM ended it (once serving, the run then ends in order and is summarised first,
then one line, as every qsg command ends on them); 2 when the scenario, the users file
or an option has a problem, or the server cannot listen (nothing was started); 1 when
the run itself failed.
"""

from __future__ import annotations

import dataclasses
import signal
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape

from actors import runtime
from qsg.commands.options import SECONDS, redis_option, seed_option
from qsg.commands.serve.clock import SpeedClock
from qsg.commands.serve.security import UsersFileError, load_users
from qsg.commands.serve.server import ServeError, Settings, listen, program
from qsg.scenario.errors import ScenarioError
from qsg.scenario.model import Scenario
from qsg.scenario.play import RunResult, play


def _speed(ctx: click.Context, param: click.Parameter, value: float) -> float:
    if not (value > 0 and value < float("inf")):
        raise click.BadParameter(f"must be a number above 0, not {value:g}")
    return value


@click.command("serve")
@click.argument("scenario", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=9443,
    show_default=True,
    help="The port to listen on (0: a free one, printed at the start).",
)
@click.option(
    "--speed",
    type=float,
    default=1.0,
    show_default=True,
    callback=_speed,
    help="Simulated seconds per real second (the console shows both clocks).",
)
@click.option(
    "--users",
    "users_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A TOML file of [users.NAME] password and role (MQWebAdmin, MQWebAdminRO, "
    "MQWebUser); without it every request is the user qsg with all three roles.",
)
@click.option(
    "--tls-cert",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Serve HTTPS with this certificate (PEM).",
)
@click.option(
    "--tls-key",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The certificate's private key (PEM), with --tls-cert.",
)
@click.option(
    "--tls-ca",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Ask TLS clients for a certificate and trust those these CAs (PEM) signed: a "
    "client's certificate authenticates as the user its subject's CN names "
    "(with --tls-cert and --users).",
)
@click.option(
    "--duration",
    type=SECONDS,
    default=None,
    help="Simulated seconds to serve (default: the scenario's [run] duration).",
)
@seed_option()
@redis_option()
def serve_command(
    scenario: Path,
    host: str,
    port: int,
    speed: float,
    users_file: Path | None,
    tls_cert: Path | None,
    tls_key: Path | None,
    tls_ca: Path | None,
    duration: float | None,
    seed: int | None,
    redis_url: str | None,
) -> None:
    """Play SCENARIO on the wall clock behind IBM MQ's REST API and a live console.

    Applications in any language put, get and browse messages with the messaging REST
    API (POST, DELETE, GET /ibmmq/rest/v3/messaging/qmgr/QM/queue/Q/message) and
    administer the queue managers with MQSC (POST /ibmmq/rest/v3/admin/action/qmgr/QM/mqsc);
    the console at / shows both clocks, the members, the queues' depths and the events
    as they happen. It serves until Ctrl-C or the scenario's end, then summarises the
    run. See docs/rest.md.
    """
    from qsg.commands.helpers import causes, load, print_problems, print_summary

    err = Console(stderr=True, highlight=False, soft_wrap=True)

    def fail(message: str, status: int = 2) -> None:
        err.print(f"qsg serve: {escape(message)}")
        sys.exit(status)

    if (tls_cert is None) != (tls_key is None):
        fail("--tls-cert and --tls-key go together")
    if tls_ca is not None and (tls_cert is None or users_file is None):
        fail("--tls-ca needs --tls-cert (client certificates are TLS's) and --users (their users)")
    try:
        loaded = load(scenario)
    except ScenarioError as error:
        print_problems(error)
        sys.exit(2)
    try:
        users = None if users_file is None else load_users(users_file)
    except UsersFileError as error:
        fail(str(error))
    run = dataclasses.replace(loaded.run, clock="wall")
    if duration is not None:
        run = dataclasses.replace(run, duration=duration)
    loaded = dataclasses.replace(loaded, run=run)
    settings = Settings(host, port, speed, users, tls_cert, tls_key, tls_ca)
    try:
        listening = listen(settings)
    except ServeError as error:
        fail(str(error))

    def started(urls: list[str]) -> None:
        shown = ", ".join(urls)
        err.print(
            f"qsg serve: {escape(str(scenario))} on {shown} (REST API under /ibmmq/rest/v3/, "
            f"console at /), {speed:g} simulated s per s, until Ctrl-C or "
            f"{run.duration:g} simulated s"
        )

    interrupted: list[signal.Signals] = []
    # A Python scenario's program schedules its own faults: none to list ahead.
    faults = loaded.faults if isinstance(loaded, Scenario) else ()
    serving = program(listening, settings, run.duration, started, interrupted.append, faults)

    async def main() -> RunResult:
        return await play(loaded, redis_url=redis_url, seed=seed, program=serving)

    try:
        result = runtime.run(main, clock=SpeedClock(speed))
    except Exception as error:  # the run itself failed: one line a cause
        for cause in causes(error):
            err.print(f"[bold red]the run failed:[/] {escape(f'{type(cause).__name__}: {cause}')}")
        raise SystemExit(1) from error
    finally:
        listening.close()
    summary = Console(highlight=False, stderr=True)
    if not summary.is_terminal:  # a log's lines, not a pipe's 80 columns
        summary = Console(highlight=False, stderr=True, width=150)
    print_summary(summary, result)
    failure = result.failure()
    if failure is not None:
        fail(f"the run failed: {failure}", 1)
    if interrupted:  # stopped in order, summarised: the shells' status for the signal
        err.print(f"interrupted ({interrupted[0].name})")
        sys.exit(128 + int(interrupted[0]))


__all__ = ["serve_command"]
