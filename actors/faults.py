"""The fault injector: a scenario's fault schedule played against the running world.

At each fault's time it kills, pauses or restarts a queue manager, stops, starts or
breaks a channel, makes the coupling facility unavailable to one member or to all (and
available again), fails the facility's server process and restarts it, slows the
facility or the channels, skews a member's clock, or stalls the expiry-scan lease
holder in the middle of a scan (``stall_scan``: the fault that tests fencing). A fault
with a ``duration`` is undone after it (a killed queue manager restarts, the facility
comes back). ``heal`` lifts every fault at once, as a chaos run's end does. Every fault is a
``FaultInjected`` event; one that the world refuses (the queue manager was already
down, the facility is still unreachable for a restart's recovery) is reported in that
event's ``detail`` rather than ending the run: chaos is expected.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import trio

from actors import clock
from actors.events import FaultInjected
from qsg import CMQC
from qsg.core.errors import MQMIError
from qsg.scenario.model import UNDO, Fault

if TYPE_CHECKING:
    from actors.qmgr import QueueManager
    from actors.world import World
    from coupling.lease import Grant


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
        detail = await _do(world, action, fault, q_mgr) or ""
    except (MQMIError, ValueError) as error:
        detail = str(error)
    world.events.emit(FaultInjected(trio.current_time(), q_mgr, action, target, detail))


async def _do(world: World, action: str, fault: Fault, q_mgr: str) -> str | None:
    member = fault.qmgr or None
    if action == "stall_scan":
        return await stall_scan(world, fault.qmgr, fault.amount)
    if action == "kill":
        await world.kill(q_mgr)
    elif action == "restart":
        await world.restart(q_mgr)
    elif action == "pause":
        await world.pause(q_mgr)
    elif action == "resume":
        await world.resume(q_mgr)
    elif action == "stop_channel":
        await world.stop_channel(q_mgr, fault.channel)
    elif action == "start_channel":
        await world.start_channel(q_mgr, fault.channel)
    elif action == "break_channel":
        await world.break_channel(q_mgr, fault.channel)
    elif action == "cf_unavailable":
        await world.cf_unavailable(member)
    elif action == "cf_available":
        await world.cf_available(member)
    elif action == "cf_fail":
        await world.cf_fail()
    elif action == "cf_restart":
        await world.cf_restart()
    elif action in ("slow_cf", "normal_cf"):
        world.slow(cf_access=fault.amount if action == "slow_cf" else 0.0)
    elif action in ("slow_channels", "normal_channels"):
        world.slow(channel_latency=fault.amount if action == "slow_channels" else 0.0)
    elif action in ("skew", "unskew"):
        world.skew(q_mgr, fault.amount if action == "skew" else 0.0)
    elif action == "refresh_expiry":
        await world.refresh_expiry(q_mgr)
    elif action == "heal":
        await heal(world)
    else:
        raise AssertionError(action)
    return None


async def stall_scan(world: World, q_mgr: str, seconds: float) -> str:
    """The expiry-scan lease holder (``q_mgr``, or whichever member holds the lease)
    stalls for ``seconds`` in the middle of a shared-queue scan, as a process under
    SIGSTOP or a long garbage-collection pause would: paused with the scan begun under
    its grant's fencing token. Past its lease, a peer takes the lease over with a newer
    token; when the holder wakes its scan goes on with the old one, which the facility
    must refuse (``World.check_fence`` in process, the scan script on Redis)."""
    holder = world.qmgrs.get(q_mgr) if q_mgr else _scan_holder(world)
    grant = holder.expiry_grant if holder is not None and holder.alive else None
    if holder is None or grant is None:
        raise ValueError(f"{q_mgr or 'no member'} holds no expiry-scan lease to stall with")
    await world.pause(holder.name)
    holder.nursery.start_soon(_stalled_scan, world, holder, grant, seconds)
    return f"{holder.name} stalled mid-scan under token {grant.token} for {seconds:g} s"


def _scan_holder(world: World) -> QueueManager | None:
    """A running member that believes it holds its QSG's expiry-scan lease."""
    for qm in world.qmgrs.values():
        if qm.alive and qm.expiry_grant is not None and qm.paused is None:
            return qm
    return None


async def _stalled_scan(world: World, qm: QueueManager, grant: Grant, seconds: float) -> None:
    """The stalled holder's scan (it waits in ``dispatch`` until the holder wakes), and
    the wake-up after ``seconds`` (unless something else woke it first)."""
    from actors import expiry

    async with trio.open_nursery() as nursery:
        nursery.start_soon(expiry.scan_shared, qm, grant, "*", "EXPRYINT")
        await trio.sleep(seconds)
        if qm.paused is not None:
            await inject(world, "resume", Fault(trio.current_time(), "resume", qmgr=qm.name))


async def heal(world: World) -> None:
    """Lift every fault: the facility reachable and at its speed, clocks agreed, every
    queue manager running and awake, every sender channel started. Each lift is a
    ``FaultInjected`` event with ``detail`` "heal"."""

    def note(action: str, q_mgr: str, target: str) -> None:
        world.events.emit(FaultInjected(trio.current_time(), q_mgr, action, target, "heal"))

    if world.costs != world.base_costs:
        world.slow(cf_access=0.0, channel_latency=0.0)
        note("normal_speed", "", "CF")
    reach = world.reach
    if world.server is not None and not world.server.running:
        await world.cf_restart()
        note("cf_restart", "", "CF")
    if (reach is not None and (reach.everyone or reach.lost)) or (
        world.transport is not None and world.transport.unavailable
    ):
        await world.cf_available()
        note("cf_available", "", "CF")
    for name, qm in world.qmgrs.items():
        if qm.skew:
            world.skew(name, 0.0)
            note("unskew", name, name)
        if qm.paused is not None:
            await world.resume(name)
            note("resume", name, name)
        if not qm.alive:
            await world.restart(name)
            note("restart", name, name)
    for name, qm in world.qmgrs.items():
        for channel, definition in qm.rules.local.channels.items():
            if definition.channel_type != CMQC.MQCHT_SENDER:
                continue
            agent = qm.channels.get(channel)
            if agent is None or agent.scope.cancel_called or agent.ended.is_set():
                await world.start_channel(name, channel)
                note("start_channel", name, channel)


async def play_faults(world: World, faults: tuple[Fault, ...], origin: float = 0.0) -> None:
    """Every fault at its time from ``origin`` (and its undoing after its duration).

    Each is its own task: one that waits (a REFRESH QMGR on a paused queue manager) holds
    up none of the others, the heal included."""
    async with trio.open_nursery() as nursery:
        for fault in sorted(faults, key=lambda f: f.at):
            await clock.sleep_until(origin + fault.at)
            nursery.start_soon(inject, world, fault.action, fault)
            await trio.lowlevel.checkpoint()  # in schedule order, as far as trio allows
            if fault.duration is not None:
                nursery.start_soon(_undo, world, fault, origin)


async def _undo(world: World, fault: Fault, origin: float) -> None:
    assert fault.duration is not None
    await clock.sleep_until(origin + fault.at + fault.duration)
    await inject(world, UNDO[fault.action], fault)


__all__ = ["channel_owner", "heal", "inject", "play_faults", "stall_scan"]
