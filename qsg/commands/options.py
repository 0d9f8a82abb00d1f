"""The options and parameter types the commands share, each defined once."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TypeVar

import click
from click.core import ParameterSource

from qsg.scenario.model import MAX_DURATION

F = TypeVar("F", bound=Callable[..., object])

#: Where ``--redis`` is read from when it is not given.
REDIS_URL_VARIABLE = "QSG_REDIS_URL"


# Generic in newer click only: not subscripted, so that click 8.1 (the lower pin) imports it.
class Seconds(click.ParamType):  # type: ignore[type-arg]
    """A finite number of seconds above 0 (click's FloatRange lets nan and inf through,
    and the run would fail deep inside), ``maximum`` at most."""

    name = "seconds"

    def __init__(self, maximum: float = math.inf) -> None:
        self.maximum = maximum

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        try:
            number = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not (math.isfinite(number) and number > 0):
            self.fail(f"must be a number of seconds above 0, not {value}", param, ctx)
        if number > self.maximum:
            self.fail(f"must be at most {self.maximum:g} seconds, not {value}", param, ctx)
        return number


#: Seconds of a run (``--duration``): at most the longest run a scenario may ask for.
SECONDS = Seconds(MAX_DURATION)


def _checked_redis_url(ctx: click.Context, param: click.Parameter, url: str | None) -> str | None:
    """``--redis`` (or its environment variable), if given, must name a server: checked
    as the command line is read, before anything starts. A password in a URL given on
    the command line gets a one-line warning: any user of the machine can read a command
    line (``ps``), as redis-cli warns for ``-a``; the environment variable the option
    also reads is named."""
    if url is None:
        return None
    from coupling.server import url_options  # (the server module only when it is used)

    envvar = param.envvar if isinstance(param.envvar, str) else REDIS_URL_VARIABLE
    try:
        options = url_options(url)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint=f"--redis / {envvar}") from None
    if options.get("password") and (
        ctx.get_parameter_source("redis_url") is ParameterSource.COMMANDLINE
    ):
        click.echo(
            "warning: --redis gives a password on the command line, where any user of "
            f"this machine can read it (ps); give the URL in {envvar} instead",
            err=True,
        )
    return url


def redis_option(
    help: str = "The coupling facility: a Redis server's redis://, rediss:// or unix:// "
    "URL (default: $QSG_REDIS_URL, else a private server started for the run).",
    envvar: str = REDIS_URL_VARIABLE,
) -> Callable[[F], F]:
    """``--redis URL`` (the parameter ``redis_url``), read from ``envvar`` when not
    given, and checked as the command line is read."""
    return click.option(
        "--redis",
        "redis_url",
        metavar="URL",
        envvar=envvar,
        default=None,
        callback=_checked_redis_url,
        help=help,
    )


def seed_option(
    help: str = "The run's seed (default: the scenario's [run] seed).",
) -> Callable[[F], F]:
    """``--seed N`` of a run (None: the scenario's own)."""
    return click.option("--seed", type=int, default=None, help=help)


__all__ = ["REDIS_URL_VARIABLE", "SECONDS", "Seconds", "redis_option", "seed_option"]
