"""Real-time bounds for a trio program whose clock may be virtual.

Under the simulator's virtual clock (``actors.clock``) trio's own timeouts are in
simulated seconds, and simulated time stands still while a call to the coupling
facility awaits its reply: ``trio.fail_after`` around such a call would never fire. The
bounds here are kept in wall seconds instead, by a worker thread that sleeps for them
(``threading.Event.wait``) and wakes trio when they run out, whatever trio's clock says.
A thread is only used while something waits: when nothing is in flight, nothing sleeps.
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable
from typing import TypeVar

import trio

from qsg.core.errors import QSGError

T = TypeVar("T")


class WallTimeoutError(QSGError, TimeoutError):
    """A wall-clock bound ran out."""


async def sleep_wall(seconds: float, stop: threading.Event | None = None) -> bool:
    """Sleep ``seconds`` of real time (less if ``stop`` is set meanwhile: True then).

    Cancellable: a cancelled sleep leaves its thread to finish alone (set ``stop`` to end
    it at once)."""
    stop = stop or threading.Event()
    woken: bool = await trio.to_thread.run_sync(stop.wait, seconds, abandon_on_cancel=True)
    return woken


async def within(seconds: float, work: Callable[[], Awaitable[T]]) -> T:
    """``await work()``, cancelled and WallTimeoutError raised if it takes more than
    ``seconds`` of real time. ``work``'s own exceptions come out as they are."""
    stop = threading.Event()
    outcome: list[T] = []
    failure: list[Exception] = []
    timed_out = False

    async def run() -> None:
        try:
            outcome.append(await work())
        except Exception as error:  # handed to the caller below, unwrapped
            failure.append(error)
        finally:
            stop.set()

    async def watch(scope: trio.CancelScope) -> None:
        nonlocal timed_out
        if not await sleep_wall(seconds, stop):
            timed_out = True
            scope.cancel()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(run)
        nursery.start_soon(watch, nursery.cancel_scope)
    if failure:
        raise failure[0]
    if outcome:
        return outcome[0]
    assert timed_out
    raise WallTimeoutError(f"no answer within {seconds:g} s")


__all__ = ["WallTimeoutError", "sleep_wall", "within"]
