"""The fault injector: a scenario's fault schedule played against the running world.

At each fault's time it kills or restarts a queue manager, stops or starts a channel,
or makes the coupling facility unavailable (and available again). A fault with a
``duration`` is undone after it (a killed queue manager restarts, the facility comes
back). Every fault is a ``FaultInjected`` event; one that the world refuses (the queue
manager was already down, the facility is still unreachable for a restart's recovery)
is reported in that event's ``detail`` rather than ending the run: chaos is expected.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import trio

from actors.events import FaultInjected
from qsg.core.errors import MQMIError
from qsg.scenario.model import UNDO

if TYPE_CHECKING:
    from actors.world import World
    from qsg.scenario.model import Fault


def channel_owner(world: World, fault: Fault) -> str:
    """The queue manager whose sender channel ``fault`` names (its ``qmgr`` if given)."""
    if fault.qmgr:
        return fault.qmgr
    for name, qm in world.qmgrs.items():
        if fault.channel in qm.rules.local.channels:
            return name
    raise ValueError(f"no queue manager has channel {fault.channel}")


async def inject(world: World, action: str, fault: Fault) -> None:
    """Do ``action`` (the fault's own, or its undoing) now, and say so in an event."""
    target = fault.channel or fault.qmgr or "CF"
    q_mgr = channel_owner(world, fault) if fault.channel else fault.qmgr
    detail = ""
    try:
        if action == "kill":
            await world.kill(fault.qmgr)
        elif action == "restart":
            await world.restart(fault.qmgr)
        elif action == "stop_channel":
            await world.stop_channel(q_mgr, fault.channel)
        elif action == "start_channel":
            await world.start_channel(q_mgr, fault.channel)
        elif action == "cf_unavailable":
            await world.cf_unavailable()
        elif action == "cf_available":
            await world.cf_available()
        else:
            raise AssertionError(action)
    except (MQMIError, ValueError) as error:
        detail = str(error)
    world.events.emit(FaultInjected(trio.current_time(), q_mgr, action, target, detail))


async def play_faults(world: World, faults: tuple[Fault, ...], origin: float = 0.0) -> None:
    """Every fault at its time from ``origin`` (and its undoing after its duration)."""
    async with trio.open_nursery() as nursery:
        for fault in sorted(faults, key=lambda f: f.at):
            await trio.sleep_until(origin + fault.at)
            await inject(world, fault.action, fault)
            if fault.duration is not None:
                nursery.start_soon(_undo, world, fault, origin)


async def _undo(world: World, fault: Fault, origin: float) -> None:
    assert fault.duration is not None
    await trio.sleep_until(origin + fault.at + fault.duration)
    await inject(world, UNDO[fault.action], fault)


__all__ = ["channel_owner", "inject", "play_faults"]
