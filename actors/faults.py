"""The fault injector: a scenario's fault schedule played against the running world.

At each fault's time it kills, pauses or restarts a queue manager, stops, starts or
breaks a channel, makes the coupling facility unavailable to one member or to all (and
available again), fails the facility's server process and restarts it, slows the
facility or the channels, skews a member's clock, or stalls the expiry-scan lease
holder in the middle of a scan (``stall_scan``: the fault that tests fencing), or
starts a channel at its receiving end as a rogue partner would (``rogue_partner``: a
second instance, its batch numbered out of sequence; the event's ``detail`` is the
receiver's answer). A fault
with a ``duration`` is undone after it (a killed queue manager restarts, the facility
comes back). ``heal`` lifts every fault at once, as a chaos run's end does. Every fault is a
``FaultInjected`` event; one that the world refuses (the queue manager was already
down, the facility is still unreachable for a restart's recovery) is reported in that
event's ``detail`` rather than ending the run, and handed to the player's ``on_refused``
(``qsg run`` warns, and fails the run unless the fault was marked ``expected``).

A channel fault acts on the queue manager that owns the channel, the one with its
sender (STOP CHANNEL, START CHANNEL are commands of the sending end); the scenario check
uses the same ``channel_owners`` so that what validates is what runs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Protocol

import greenback
import trio

from actors import clock, expiry
from actors.cflink import CFLink
from actors.config import UNDO, Fault
from actors.costs import Costs
from actors.events import EventLog, FaultInjected
from actors.qmgr import QueueManager
from actors.reach import Reach
from coupling.lease import Grant
from coupling.server import EmbeddedServer
from qsg import CMQC
from qsg.core.errors import MQMIError
from qsg.core.qmgr import QMgr
from qsg.core.sharedchl import SharedChannelStatus, SharedInstance
from qsg.core.sharing import QueueSharingGroup

#: Told of a fault the world refused (its event, and the fault): ``qsg run`` warns.
OnRefused = Callable[[FaultInjected, Fault], None]


class FaultTarget(Protocol):
    """What the fault injector acts on (``World``): its queue managers, coupling
    facility and costs, each fault's action and its undoing, and the event stream
    each fault is recorded in."""

    @property
    def qmgrs(self) -> Mapping[str, QueueManager]: ...
    @property
    def events(self) -> EventLog: ...
    @property
    def costs(self) -> Costs: ...
    @property
    def base_costs(self) -> Costs: ...
    @property
    def reach(self) -> Reach | None: ...
    @property
    def server(self) -> EmbeddedServer | None: ...
    @property
    def link(self) -> CFLink: ...
    @property
    def qsgs(self) -> Mapping[str, QueueSharingGroup]: ...

    async def kill(self, q_mgr: str) -> None: ...
    async def restart(self, q_mgr: str) -> None: ...
    async def pause(self, q_mgr: str) -> None: ...
    async def resume(self, q_mgr: str) -> None: ...
    def skew(self, q_mgr: str, seconds: float) -> None: ...
    async def refresh_expiry(self, q_mgr: str) -> int: ...
    async def start_channel(
        self, q_mgr: str, channel: str, *, chldisp: str = "DEFAULT", cmdscope: str = ""
    ) -> list[str]: ...
    async def stop_channel(
        self, q_mgr: str, channel: str, *, chldisp: str = "DEFAULT", cmdscope: str = ""
    ) -> None: ...
    async def stop_chinit(self, q_mgr: str, *, restart: bool = True) -> None: ...
    async def kill_chinit(self, q_mgr: str) -> None: ...
    async def start_chinit(self, q_mgr: str) -> None: ...
    async def start_listener(
        self, q_mgr: str, *, indisp: str = "GROUP", address: str = ""
    ) -> None: ...
    async def stop_listener(self, q_mgr: str) -> None: ...
    async def break_channel(self, q_mgr: str, channel: str) -> None: ...
    async def rogue_partner(self, q_mgr: str, channel: str, offset: int) -> str: ...
    async def cf_unavailable(self, q_mgr: str | None = None) -> None: ...
    async def cf_available(self, q_mgr: str | None = None) -> None: ...
    async def cf_fail(self, facility: str = "", q_mgr: str = "") -> str: ...
    def repository_unavailable(self) -> None: ...
    def repository_available(self) -> None: ...
    async def cf_restart(self, facility: str = "", q_mgr: str = "") -> str: ...
    async def structure_fail(self, structure: str) -> str: ...
    async def structure_recover(self, structure: str) -> str: ...
    async def cf_connectivity_loss(
        self, q_mgr: str, structure: str = "", facility: str = ""
    ) -> str: ...
    async def cf_connectivity_restored(
        self, q_mgr: str, structure: str = "", facility: str = ""
    ) -> bool: ...
    async def facility_fail(self, facility: str, q_mgr: str = "") -> str: ...
    async def facility_restore(self, facility: str, q_mgr: str = "") -> str: ...
    async def restore_connectivity(self) -> list[str]: ...
    def slow(
        self, *, cf_access: float | None = None, channel_latency: float | None = None
    ) -> None: ...


def channel_owners(qmgrs: Mapping[str, QMgr], channel: str) -> list[str]:
    """The queue managers (rules layer) that define ``channel`` as a sender: the ends a
    STOP, START or break of it acts on."""
    owners = []
    for name, qm in qmgrs.items():
        found = qm.local.channels.get(channel)
        if found is not None and found.channel_type == CMQC.MQCHT_SENDER:
            owners.append(name)
    return owners


def channel_owner(world: FaultTarget, fault: Fault) -> str:
    """The queue manager whose sender channel ``fault`` names (its ``qmgr`` if given)."""
    if fault.qmgr:
        return fault.qmgr
    owners = channel_owners({n: qm.rules for n, qm in world.qmgrs.items()}, fault.channel)
    if len(owners) != 1:
        what = "no queue manager has" if not owners else "several queue managers have"
        raise ValueError(f"{what} a sender channel {fault.channel}")
    return owners[0]


def target_of(fault: Fault) -> str:
    """What ``fault`` acts on, as its ``FaultInjected`` event names it: its channel, its
    queue manager, else the coupling facility ("CF")."""
    return fault.channel or fault.qmgr or fault.structure or fault.facility or "CF"


async def inject(world: FaultTarget, action: str, fault: Fault) -> FaultInjected:
    """Do ``action`` (the fault's own, or its undoing) now, and say so in an event (which
    is returned: a ``detail`` says why the world refused it)."""
    target = target_of(fault)
    q_mgr, detail, refused = fault.qmgr, "", False
    if world.link.bridged and not greenback.has_portal():
        # A fault on the facilities (a facility's loss moves structures between their
        # servers) makes the rules layer's synchronous store calls, which the trio
        # transport answers through greenback.
        await greenback.ensure_portal()
    try:
        if fault.channel:
            q_mgr = channel_owner(world, fault)
        detail = await _do(world, action, fault, q_mgr) or ""
    except (MQMIError, ValueError) as error:
        detail, refused = str(error), True
    event = FaultInjected(trio.current_time(), q_mgr, action, target, detail, refused)
    world.events.emit(event)
    return event


async def _do(world: FaultTarget, action: str, fault: Fault, q_mgr: str) -> str | None:
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
    elif action == "stop_chinit":
        await world.stop_chinit(q_mgr)
    elif action == "kill_chinit":
        await world.kill_chinit(q_mgr)
    elif action == "start_chinit":
        await world.start_chinit(q_mgr)
    elif action == "stop_listener":
        await world.stop_listener(q_mgr)
    elif action == "start_listener":
        await world.start_listener(q_mgr)
    elif action == "break_channel":
        await world.break_channel(q_mgr, fault.channel)
    elif action == "rogue_partner":
        return await world.rogue_partner(q_mgr, fault.channel, int(fault.amount))
    elif action == "cf_unavailable":
        await world.cf_unavailable(member)
    elif action == "cf_available":
        await world.cf_available(member)
    elif action == "repository_unavailable":
        world.repository_unavailable()
    elif action == "repository_available":
        world.repository_available()
    elif action == "cf_fail":
        return await world.cf_fail(fault.facility, fault.qmgr)
    elif action == "cf_restart":
        return await world.cf_restart(fault.facility, fault.qmgr)
    elif action == "structure_fail":
        return await world.structure_fail(fault.structure)
    elif action == "structure_recover":
        return await world.structure_recover(fault.structure)
    elif action == "cf_connectivity_loss":
        return await world.cf_connectivity_loss(q_mgr, fault.structure, fault.facility)
    elif action == "cf_connectivity_restored":
        if await world.cf_connectivity_restored(q_mgr, fault.structure, fault.facility):
            await world.restart(q_mgr)  # ended by its CFCONLOS: started again (ARM)
            return f"{q_mgr} restarted"
    elif action == "facility_fail":
        return await world.facility_fail(fault.facility, q_mgr)
    elif action == "facility_restore":
        return await world.facility_restore(fault.facility, q_mgr)
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


async def stall_scan(world: FaultTarget, q_mgr: str, seconds: float) -> str:
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


def _scan_holder(world: FaultTarget) -> QueueManager | None:
    """A running member that believes it holds its QSG's expiry-scan lease."""
    for qm in world.qmgrs.values():
        if qm.alive and qm.expiry_grant is not None and qm.paused is None:
            return qm
    return None


async def _stalled_scan(world: FaultTarget, qm: QueueManager, grant: Grant, seconds: float) -> None:
    """The stalled holder's scan (it waits in ``dispatch`` until the holder wakes), and
    the wake-up after ``seconds`` (unless something else woke it first)."""
    async with trio.open_nursery() as nursery:
        nursery.start_soon(expiry.scan_shared, qm, grant, "*", "EXPRYINT")
        await clock.sleep(seconds)
        if qm.paused is not None:
            await inject(world, "resume", Fault(trio.current_time(), "resume", qmgr=qm.name))


async def heal(world: FaultTarget) -> None:
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
    if any(group.repository.unavailable for group in world.qsgs.values()):
        world.repository_available()
        note("repository_available", "", "CF")
    if (reach is not None and (reach.everyone or reach.lost)) or world.link.cut_off:
        await world.cf_available()
        note("cf_available", "", "CF")
    for lifted in await world.restore_connectivity():
        note("cf_connectivity_restored", "", lifted)
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
        if not qm.chinit:
            await world.start_chinit(name)
            note("start_chinit", name, name)
    shared_started: set[str] = set()
    for name, qm in world.qmgrs.items():
        for channel, definition in qm.rules.local.channels.items():
            if definition.channel_type != CMQC.MQCHT_SENDER:
                continue
            if qm.xmitq_shared(definition):  # one instance in the group: any member's
                group = qm.rules.qsg
                assert group is not None
                status = group.channel_status
                try:
                    held = await qm.dispatch(partial(_holder, status, channel), system=True)
                except MQMIError:  # the shared status out of reach: nothing to start by
                    continue
                if channel in shared_started or held is not None:
                    continue
                shared_started.add(channel)
                try:
                    started = await world.start_channel(name, channel, chldisp="SHARED")
                except MQMIError:  # its status out of reach, or no channel initiator
                    continue
                note("start_channel", started[0], channel)
                continue
            agent = qm.channels.get(channel)
            if agent is None or agent.scope.cancel_called or agent.ended.is_set():
                await world.start_channel(name, channel)
                note("start_channel", name, channel)


def _holder(status: SharedChannelStatus, channel: str, now: float) -> SharedInstance | None:
    return status.holder(channel)


async def play_faults(
    world: FaultTarget,
    faults: tuple[Fault, ...],
    origin: float = 0.0,
    on_refused: OnRefused | None = None,
) -> None:
    """Every fault at its time from ``origin`` (and its undoing after its duration);
    ``on_refused`` hears of each one the world refused, as it happens.

    Each is its own task: one that waits (a REFRESH QMGR on a paused queue manager) holds
    up none of the others, the heal included."""
    async with trio.open_nursery() as nursery:
        for fault in sorted(faults, key=lambda f: f.at):
            await clock.sleep_until(origin + fault.at)
            nursery.start_soon(_inject, world, fault.action, fault, on_refused)
            await trio.lowlevel.checkpoint()  # in schedule order, as far as trio allows
            if fault.duration is not None:
                nursery.start_soon(_undo, world, fault, origin, on_refused)


async def _inject(
    world: FaultTarget, action: str, fault: Fault, on_refused: OnRefused | None
) -> None:
    event = await inject(world, action, fault)
    if event.refused and on_refused is not None:
        on_refused(event, fault)


async def _undo(
    world: FaultTarget, fault: Fault, origin: float, on_refused: OnRefused | None
) -> None:
    assert fault.duration is not None
    await clock.sleep_until(origin + fault.at + fault.duration)
    await _inject(world, UNDO[fault.action], fault, on_refused)


__all__ = [
    "FaultTarget",
    "OnRefused",
    "channel_owner",
    "channel_owners",
    "heal",
    "inject",
    "play_faults",
    "stall_scan",
    "target_of",
]
