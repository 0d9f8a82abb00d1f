"""The administrator's view of a running world: snapshots and MQSC commands.

A command runs at the simulated moment it is entered and costs no simulated time (it is
the queue manager's own work, dispatched as ``system``). ``snapshot`` takes one queue
manager's ``qsg.mqsc.status.Snapshot``: the rules layer's objects and depths, with what
only the actors know: each channel agent's state (``ChannelBoard``, kept from the event
stream), which members of the QSG are up, how full each CF structure is. ``command``
runs one MQSC command on a queue manager, spreading a command with CMDSCOPE(*) or
CMDSCOPE(name) over the QSG's active members, each answering for itself as z/OS does.

No command ends the world: what the queue manager cannot do is an error reply, and an
unexpected failure inside a command (a defect of the simulator) is answered CSQ9023E,
logged with its traceback (logger ``qsg.commands``) and recorded as a ``CommandFailed``
event (``failed``, which the command server uses for PCF too).
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import Protocol

import trio

from actors.events import (
    CFRecovered,
    ChannelBatch,
    ChannelStateChanged,
    CommandFailed,
    EventLog,
    WorldEvent,
)
from actors.qmgr import QueueManager
from actors.reach import Reach
from qsg import CMQC, CMQCFC
from qsg.core import chltypes, sharedchl
from qsg.core.errors import MQMIError
from qsg.core.objects import ChannelDefinition
from qsg.core.queue import QueueDefinition
from qsg.core.sharedchl import DispositionError, SharedInstance
from qsg.mqsc import commands
from qsg.mqsc.commands import Parsed, Reply
from qsg.mqsc.status import ChannelView, Snapshot, Usage, take

log = logging.getLogger("qsg.commands")


class ChannelBoard:
    """Each channel agent's latest state and traffic, by (queue manager, channel): what
    DISPLAY CHSTATUS shows. It listens to the event stream (``EventLog.listen``)."""

    def __init__(self) -> None:
        self._state: dict[tuple[str, str], tuple[str, str]] = {}
        self._traffic: dict[tuple[str, str], tuple[int, int]] = {}

    def saw(self, event: WorldEvent) -> None:
        if isinstance(event, ChannelStateChanged):
            key = (event.q_mgr, event.channel)
            self._state[key] = (event.state, event.detail)
            if event.state == "STOPPED":
                self._traffic.pop(key, None)  # MSGS and BATCHES count from the start
        elif isinstance(event, ChannelBatch):
            key = (event.q_mgr, event.channel)
            messages, batches = self._traffic.get(key, (0, 0))
            self._traffic[key] = (messages + event.messages, batches + 1)

    def state(self, q_mgr: str, channel: str) -> str:
        """The latest state of ``q_mgr``'s agent of ``channel`` (INACTIVE if none ran)."""
        return self._state.get((q_mgr, channel), ("INACTIVE", ""))[0]

    def view(
        self, q_mgr: str, definition: ChannelDefinition, shared: SharedInstance | None = None
    ) -> ChannelView:
        """``q_mgr``'s channel ``definition``; a ``shared`` one's instance as its owner
        runs it, with its disposition and owner (QMNAME)."""
        owner = q_mgr if shared is None else shared.owner
        key = (owner, definition.name)
        state, detail = self._state.get(key, ("INACTIVE", ""))
        messages, batches = self._traffic.get(key, (0, 0))
        if shared is None:
            return ChannelView(definition, state, messages, batches, detail)
        disposition = sharedchl.NAMES.get(shared.disposition, "SHARED")
        return ChannelView(definition, state, messages, batches, detail, disposition, owner)


class Administered(Protocol):
    """What the administrator's view uses of the world: its queue managers, the
    channel board, the event stream a failed command is recorded in, and START and STOP
    CHANNEL."""

    @property
    def qmgrs(self) -> Mapping[str, QueueManager]: ...
    @property
    def channel_board(self) -> ChannelBoard: ...
    @property
    def events(self) -> EventLog: ...
    @property
    def reach(self) -> Reach | None: ...

    async def start_channel(
        self, q_mgr: str, channel: str, *, chldisp: str = "DEFAULT", cmdscope: str = ""
    ) -> list[str]: ...
    async def stop_channel(
        self, q_mgr: str, channel: str, *, chldisp: str = "DEFAULT", cmdscope: str = ""
    ) -> None: ...
    async def ping_channel(
        self, q_mgr: str, channel: str, *, chldisp: str = "DEFAULT", cmdscope: str = ""
    ) -> list[str]: ...
    async def reset_channel(
        self,
        q_mgr: str,
        channel: str,
        *,
        seqnum: int = 1,
        chldisp: str = "DEFAULT",
        cmdscope: str = "",
    ) -> list[str]: ...
    async def resolve_channel(
        self,
        q_mgr: str,
        channel: str,
        *,
        commit: bool,
        chldisp: str = "DEFAULT",
        cmdscope: str = "",
    ) -> list[str]: ...
    async def stop_chinit(self, q_mgr: str, *, restart: bool = True) -> None: ...
    async def start_chinit(self, q_mgr: str) -> None: ...
    async def start_listener(
        self, q_mgr: str, *, indisp: str = "GROUP", address: str = ""
    ) -> None: ...
    async def stop_listener(self, q_mgr: str) -> None: ...
    def shared_instances(self, q_mgr: str) -> dict[str, SharedInstance]: ...
    async def recover_automatically(self, qsg: str, structure: str) -> None: ...
    def structure_changed(self) -> None: ...


def responding(qm: QueueManager) -> bool:
    """Whether ``qm`` can answer a command now: running and not paused."""
    return qm.alive and qm.paused is None


async def snapshot(world: Administered, q_mgr: str) -> Snapshot:
    """``q_mgr``'s snapshot at the current simulated time."""
    qm = world.qmgrs[q_mgr]
    rules = qm.rules
    board = world.channel_board
    shared = await qm.dispatch(lambda now: world.shared_instances(q_mgr), system=True)
    channels = {
        name: board.view(q_mgr, d, shared.get(name)) for name, d in rules.local.channels.items()
    }
    members: dict[str, str] = {}
    usage: Usage | None = None
    if rules.qsg is not None:
        for member in rules.qsg.members:
            peer = world.qmgrs.get(member)
            members[member] = "ACTIVE" if peer is None or peer.alive else "FAILED"
        usage = rules.qsg.shared.store.structure_usage
    # The members that tolerate a loss of connectivity, by structure: each of their
    # connections FAILED in DISPLAY CFSTATUS TYPE(CONNECT), the structure not.
    lost = world.reach.connections_lost() if world.reach is not None else {}
    make = partial(
        take, rules, channels=channels, members=members, usage=usage, connections_lost=lost
    )
    return await qm.dispatch(make, system=True)


async def command(world: Administered, q_mgr: str, text: str | Parsed) -> Reply:
    """Run one MQSC command on ``q_mgr``, as its console would: its reply, an error
    reply at worst (see the module's docstring). ``text`` is the command as MQSC text,
    or already made as data (``commands.parse_words``: a REST request's)."""
    try:
        return await _command(world, q_mgr, text)
    except Exception as error:  # a defect: answered and recorded, the run goes on
        shown = text if isinstance(text, str) else text.verb
        failed(world, q_mgr, shown, error)
        verb = _verb(text) if isinstance(text, str) else text.verb or "COMMAND"
        return commands.failure(q_mgr, verb, error)


def failed(world: Administered, q_mgr: str, command: str, error: Exception) -> None:
    """Record a command that failed inside ``q_mgr`` with an unexpected ``error``: its
    traceback logged at ERROR and kept in a ``CommandFailed`` event."""
    log.error("%s: the command %r failed inside the queue manager", q_mgr, command, exc_info=error)
    detail = "".join(traceback.format_exception(error))
    world.events.emit(CommandFailed(trio.current_time(), q_mgr, command, detail))


def _verb(text: str) -> str:
    """What CSQ9023E quotes for ``text``: its verb and object, as parsing found them."""
    try:
        return commands.parse(text).verb or "COMMAND"
    except Exception:  # the parser is what failed: its first word, then
        return (text.split() or ["COMMAND"])[0].upper()[:16]


async def _command(world: Administered, q_mgr: str, text: str | Parsed) -> Reply:
    parsed = commands.parse(text) if isinstance(text, str) else text
    cmdscope = commands.scope(parsed)
    qm = world.qmgrs[q_mgr]
    if not cmdscope or parsed.error is not None:
        return await _run(world, qm, parsed)
    if parsed.channel and (
        parsed.chldisp in ("SHARED", "FIXSHARED") or parsed.verb.split()[0] in _SCOPED_BY_WORLD
    ):
        # IBM's CHLDISP x CMDSCOPE table says where a shared channel runs (the most
        # suitable member, or the one named), and what it refuses: not sent to members.
        return await _run(world, qm, parsed)
    group = qm.rules.qsg
    members = list(group.members) if group is not None else []
    active = [m for m in members if m in world.qmgrs and responding(world.qmgrs[m])]
    refused = commands.scope_refused(parsed, q_mgr, group.name if group else "", active)
    if refused is not None:
        return refused
    if cmdscope == q_mgr and group is None:
        return await _run(world, qm, parsed)
    # CMDSCOPE(*): "the command runs on the local queue manager and is also passed to
    # every active queue manager in the queue sharing group" (IBM); one that is not
    # active is not sent to, and not counted in CSQN137I's "SENT TO n".
    targets = active if cmdscope == "*" else [cmdscope]
    # Each member runs it as its own (a private START or STOP CHANNEL on itself).
    replies = {
        member: await _run(
            world,
            world.qmgrs[member],
            replace(parsed, cmdscope=member) if parsed.channel else parsed,
        )
        for member in targets
    }
    return commands.scoped(q_mgr, parsed.verb, cmdscope, replies)


#: The channel commands whose CMDSCOPE the world's tables place whatever CHLDISP:
#: RESET and RESOLVE refuse CMDSCOPE(*) even for a private channel.
_SCOPED_BY_WORLD = frozenset({"RESET", "RESOLVE"})


async def _run(world: Administered, qm: QueueManager, parsed: Parsed) -> Reply:
    if not responding(qm):
        me = commands.prefix(qm.name)
        return Reply((f"CSQN127E {me} QUEUE MANAGER {qm.name} IS NOT ACTIVE",), failed=True)
    if parsed.request is not None:
        return commands.answer(parsed.request, await snapshot(world, qm.name))
    if parsed.channel:
        return await _channel(world, qm, parsed)
    if parsed.chinit:
        return await _chinit(world, qm, parsed)
    if parsed.listener:
        return await _listener(world, qm, parsed)
    if parsed.structures:
        return await _structure(world, qm, parsed)
    # A DEFINE, ALTER, DELETE or CLEAR changes the rules layer's objects in place.
    reply = await qm.dispatch(
        lambda now: commands.run(parsed, qm.rules, partial(take, qm.rules, now)), system=True
    )
    defined(world)
    return reply


def defined(world: Administered) -> None:
    """After a command that may have defined SYSTEM.QSG.TRANSMIT.QUEUE: every running
    member of its group starts its intra-group queuing agent, if it runs none yet
    (IBM's agent starts with the queue manager; one defined later is served at once)."""
    for qm in world.qmgrs.values():
        qm.start_igq_agent()


async def _structure(world: Administered, qm: QueueManager, parsed: Parsed) -> Reply:
    """RESET, BACKUP or RECOVER CFSTRUCT at the command's simulated time. A RESET goes
    through the world, which recovers a RECOVER(YES) RECAUTO(YES) structure itself after
    the recovery's modelled time (``World.structure_fail``)."""
    reply = await qm.dispatch(
        lambda now: commands.structure_command(qm.rules, parsed, now), system=True
    )
    if not reply.failed:
        verb = parsed.verb.split()[0]
        purge = parsed.option == "PURGE"
        await structure_commanded(world, qm, verb, parsed.structures, purge)
    return reply


async def structure_commanded(
    world: Administered, qm: QueueManager, verb: str, names: Sequence[str], purge: bool = False
) -> None:
    """What the world does after a RESET, BACKUP or RECOVER CFSTRUCT that succeeded (in
    MQSC or PCF): after a RESET or RECOVER the getters waiting on the structures' queues
    learn of it; a RESET of a RECOVER(YES) RECAUTO(YES) structure is recovered by the
    members after the recovery's modelled time (``World.structure_fail``); a RECOVER is
    a ``CFRecovered`` event per structure, as the fault's and RECAUTO's recoveries are
    (IBM's console says it with CSQE messages: "Recovering shared queues")."""
    if verb == "BACKUP":
        return
    world.structure_changed()
    group = qm.rules.qsg
    if group is None:
        return
    if verb == "RECOVER":
        now = trio.current_time()
        for name in names:
            definition = group.shared.structures.get(name)
            kept = definition is not None and definition.recover and not purge
            queues = sorted(
                q.name
                for q in group.shared.queues.values()
                if isinstance(q, QueueDefinition) and q.cf_struct == name
            )
            world.events.emit(
                CFRecovered(now, qm.name, group.name, name, ",".join(queues), kept, 0, 0)
            )
        return
    if verb != "RESET":
        return
    for name in names:
        definition = group.shared.structures.get(name)
        if definition is not None and definition.recover and definition.recauto:
            await world.recover_automatically(qm.rules.qsg_name, name)


async def _channel(world: Administered, qm: QueueManager, parsed: Parsed) -> Reply:
    """START or STOP CHANNEL, with CHLDISP and CMDSCOPE (``channel_outcome``): accepted,
    or refused in one line naming IBM's reason or message."""
    refused, _ = await channel_outcome(world, qm, parsed)
    return commands.channel_reply(qm.name, parsed, refused)


async def channel_outcome(world: Administered, qm: QueueManager, parsed: Parsed) -> tuple[str, int]:
    """Run START or STOP CHANNEL, with CHLDISP and CMDSCOPE, entered on ``qm``: the
    sender's agent starts (on the member IBM's CHLDISP x CMDSCOPE table gives,
    ``actors.world_channels``), or ends (STOPPED). ("", 0) when done, else why not and
    the PCF reason code that says it (MQSC prints the first, PCF answers the second)."""
    name = parsed.channel
    definition = qm.rules.local.channels.get(name)
    if definition is None:
        return "was not found", CMQCFC.MQRCCF_CHANNEL_NOT_FOUND
    verb = parsed.verb.split()[0]
    kinds = (CMQC.MQCHT_REQUESTER,) if verb in ("START", "STOP", "RESET") else ()
    if not chltypes.sending(definition.channel_type) and definition.channel_type not in kinds:
        refused = chltypes.not_for_type(verb, definition.channel_type)
        if refused is not None:
            return refused
        if parsed.chldisp and parsed.chldisp not in ("DEFAULT", "PRIVATE"):
            try:  # IBM's table first: which CHLDISP the type takes (3211)
                sharedchl.placement(
                    name,
                    definition.channel_type,
                    definition.conn_name,
                    sharedchl.DISPOSITIONS[parsed.chldisp],
                    parsed.cmdscope,
                    qm.name,
                    None,
                )
            except DispositionError as error:
                return error.detail, error.reason
        return "is not a sender channel", CMQCFC.MQRCCF_CHANNEL_TYPE_ERROR
    if parsed.verb.startswith("START") and chltypes.sending(definition.channel_type):
        unusable = commands.xmitq_problem(qm.rules, definition)
        if unusable:
            not_xmitq = "MQRCCF_NOT_XMIT_Q" in unusable
            return (
                unusable,
                CMQCFC.MQRCCF_NOT_XMIT_Q if not_xmitq else CMQC.MQRC_UNKNOWN_OBJECT_NAME,
            )
    chldisp, scope = parsed.chldisp or "DEFAULT", parsed.cmdscope
    try:
        if verb == "STOP":
            await world.stop_channel(qm.name, name, chldisp=chldisp, cmdscope=scope)
        elif verb == "PING":
            await world.ping_channel(qm.name, name, chldisp=chldisp, cmdscope=scope)
        elif verb == "RESET":
            seqnum = int(parsed.option or 1)
            await world.reset_channel(qm.name, name, seqnum=seqnum, chldisp=chldisp, cmdscope=scope)
        elif verb == "RESOLVE":
            commit = parsed.option == "COMMIT"
            await world.resolve_channel(
                qm.name, name, commit=commit, chldisp=chldisp, cmdscope=scope
            )
        else:
            await world.start_channel(qm.name, name, chldisp=chldisp, cmdscope=scope)
    except DispositionError as error:
        return error.detail, error.reason
    except MQMIError as error:  # the member named by CMDSCOPE is not running, say
        return str(error), error.reason
    except chltypes.ChannelInUseError as error:  # it runs (AMQ9514E, CSQX477E)
        return str(error).split(" is ", 1)[-1], CMQCFC.MQRCCF_CHANNEL_IN_USE
    except ValueError as error:  # not running, say
        return str(error).split(" is ", 1)[-1], CMQCFC.MQRCCF_COMMAND_FAILED
    return "", 0


async def _listener(world: Administered, qm: QueueManager, parsed: Parsed) -> Reply:
    """START LISTENER INDISP(GROUP), STOP LISTENER (``World.start_listener``)."""
    me = commands.prefix(qm.name)
    try:
        if parsed.verb.startswith("STOP"):
            await world.stop_listener(qm.name)
        else:
            await world.start_listener(qm.name, indisp=parsed.option, address=parsed.address)
    except DispositionError as error:
        return Reply((f"CSQM090E {me} CSQXCRPS {error.detail.upper()}",), failed=True)
    except ValueError as error:
        return Reply((f"CSQM090E {me} CSQXCRPS {str(error).upper()}",), failed=True)
    return Reply((f"CSQM134I {me} CSQXCRPS {parsed.verb} COMMAND ACCEPTED",))


async def _chinit(world: Administered, qm: QueueManager, parsed: Parsed) -> Reply:
    """START CHINIT; STOP CHINIT SHARED(RESTART | STOP) (``World.stop_chinit``)."""
    me = commands.prefix(qm.name)
    try:
        if parsed.verb.startswith("STOP"):
            await world.stop_chinit(qm.name, restart=parsed.option != "STOP")
        else:
            await world.start_chinit(qm.name)
    except ValueError as error:
        return Reply((f"CSQM090E {me} CSQXCRPS {str(error).upper()}",), failed=True)
    return Reply((f"CSQM134I {me} CSQXCRPS {parsed.verb} COMMAND ACCEPTED",))


__all__ = [
    "Administered",
    "ChannelBoard",
    "channel_outcome",
    "command",
    "failed",
    "responding",
    "snapshot",
]
