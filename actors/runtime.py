"""``qsg.start`` and ``qsg.run``: a world of queue managers, in simulated time.

``qsg.run(main)`` is ``trio.run`` with the virtual clock: ``trio.sleep(3600)`` inside it
is an hour of simulated time that costs no wall time. ``wall_clock=True`` runs the same
code in real time, its clock reading 0 at the start as the virtual one does.
``qsg.start(topology)`` starts the topology's queue managers for an ``async with``
block (see ``actors.world.open_world``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import trio

from actors.clock import VirtualClock, WallClock
from actors.world import open_world

T = TypeVar("T")

start = open_world


def run(
    main: Callable[..., Awaitable[T]],
    *args: Any,
    wall_clock: bool = False,
    clock: VirtualClock | None = None,
) -> T:
    """Run ``main(*args)`` under trio with the virtual clock (or the wall clock)."""
    if wall_clock:
        return trio.run(main, *args, clock=WallClock())
    return trio.run(main, *args, clock=clock if clock is not None else VirtualClock())


__all__ = ["run", "start"]
