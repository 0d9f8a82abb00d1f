"""``qsg.start`` and ``qsg.run``: a world of queue managers, in simulated time.

``qsg.run(main)`` is ``trio.run`` with the virtual clock: ``trio.sleep(3600)`` inside it
is an hour of simulated time that costs no wall time. ``wall_clock=True`` runs the same
code in real time, its clock reading 0 at the start as the virtual one does.
``qsg.start(topology)`` starts the topology's queue managers for an ``async with``
block (see ``actors.world.open_world``).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Awaitable, Callable
from types import FrameType
from typing import Any, TypeVar

import trio

from actors.clock import VirtualClock, WallClock
from actors.world import open_world

T = TypeVar("T")

start = open_world


#: Called when a run's SIGINT arrives, before trio's handler takes it: a command's
#: watchdog (``qsg.commands.interrupts``) learns of the interrupt there, since during a
#: run SIGINT's handler is trio's own.
interrupt_hooks: list[Callable[[], None]] = []


def run(
    main: Callable[..., Awaitable[T]],
    *args: Any,
    wall_clock: bool = False,
    clock: trio.abc.Clock | None = None,
) -> T:
    """Run ``main(*args)`` under trio with the virtual clock (or the wall clock, or
    ``clock``)."""
    if clock is None:
        clock = WallClock() if wall_clock else VirtualClock()
    return trio.run(noting_interrupts, main, *args, clock=clock)


async def noting_interrupts(main: Callable[..., Awaitable[T]], *args: Any) -> T:
    """``main(*args)`` with trio's SIGINT handler wrapped so that ``interrupt_hooks``
    hear of the signal first (when there are hooks, in the main thread)."""
    handler = signal.getsignal(signal.SIGINT)
    if (
        not interrupt_hooks
        or threading.current_thread() is not threading.main_thread()
        or not callable(handler)
        or handler is signal.default_int_handler
    ):
        return await main(*args)
    trio_handler = handler

    def noted(signum: int, frame: FrameType | None) -> None:
        for hook in interrupt_hooks:
            hook()
        trio_handler(signum, frame)  # it knows from the frame whether it may raise

    signal.signal(signal.SIGINT, noted)
    try:
        return await main(*args)
    finally:
        if signal.getsignal(signal.SIGINT) is noted:  # trio then restores its own
            signal.signal(signal.SIGINT, trio_handler)


__all__ = ["interrupt_hooks", "noting_interrupts", "run", "start"]
