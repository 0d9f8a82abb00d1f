"""Command-line parameter types the commands share."""

from __future__ import annotations

import math

import click


# Generic in newer click only: not subscripted, so that click 8.1 (the lower pin) imports it.
class Seconds(click.ParamType):  # type: ignore[type-arg]
    """A finite number of seconds above 0 (click's FloatRange lets nan and inf through,
    and the run would fail deep inside)."""

    name = "seconds"

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        try:
            number = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not (math.isfinite(number) and number > 0):
            self.fail(f"must be a number of seconds above 0, not {value}", param, ctx)
        return number


SECONDS = Seconds()

__all__ = ["SECONDS", "Seconds"]
