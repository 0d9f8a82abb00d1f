"""Shared channels in the running world (a part of ``World``): START and STOP CHANNEL
with CHLDISP, the load-balanced start, peer channel recovery, and the channel
initiator's stop, failure and start.

A sender (or a server) whose transmission queue is a shared queue is a shared channel
(``qsg.core.sharedchl``); a server's agent is the sender's, and so is its sharing. Its
one instance in the group is claimed in the group's shared channel status before its
agent starts on a member (CSQX477E for a second),
and its sync record is on SYSTEM.QSG.CHANNEL.SYNCQ (``qsg.core.sharedsync``): started
on another member it resynchronises with its partner from where the last one was.

When a member fails, shared-queue peer recovery runs first (``World.kill``: its units
of work are backed out, so the batch its agent had got is back on the transmission
queue), then peer channel recovery: the first surviving member whose channel initiator
runs restarts each SHARED instance the failed member ran on the most suitable member
(a load-balanced start), leaves each FIXSHARED one for that member's own restart, and
reports CSQM052I (a ``channel-recovery`` event). Where shared-queue peer recovery is
left for later (the coupling facility out of reach), channel recovery waits for it,
as IBM serializes the two ("Channels and serialization").
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable
from contextlib import suppress
from functools import partial
from typing import Any

import trio

from actors.channel import ChannelSync, SharedSync, _connect_tcp
from actors.events import ChannelRecovered, ChannelStateChanged
from actors.groupaddress import publish as publish_group_port
from actors.qmgr import QueueManager
from actors.wire import ChannelBrokenError, Frames
from actors.world_faults import FaultInjection
from qsg import CMQC, CMQCFC
from qsg.core import channels, chltypes, conntag, groupaddress, sharedchl, sharedsync
from qsg.core.errors import MQMIError
from qsg.core.layouts import TM
from qsg.core.objects import ChannelDefinition
from qsg.core.sharedchl import SharedInstance
from qsg.core.sharing import QueueSharingGroup
from qsg.core.structs import GMO, MD

#: The channel initiator's initiation queue: its trigger monitor serves it.
INITQ = "SYSTEM.CHANNEL.INITQ"

#: The detail of a channel's state when its channel initiator stopped or failed.
CHINIT_STOPPED = "STOP CHINIT"
CHINIT_FAILED = "the channel initiator failed"
#: The detail of a server's state when START CHANNEL enabled it (it has no CONNAME).
ENABLED = "START CHANNEL: enabled, it waits for its requester"


def _defcdisp(definition: ChannelDefinition) -> int:
    """The channel's DEFCDISP (kept among its attributes; PRIVATE by default)."""
    kept = dict(definition.kept)
    value = kept.get("DEFCDISP", CMQCFC.MQCHLD_PRIVATE)
    return int(value)


class SharedChannels(FaultInjection):
    """Shared channels; see the module's docstring."""

    #: The group's generic addresses (a group listener's IPADDR), upper case, to the
    #: QSG they reach; the QSG's own name always reaches it.
    group_addresses: dict[str, str]

    # ---- the group listener -------------------------------------------------------------
    def group_partner(self, conn_name: str) -> QueueManager | None:
        """The member a connection to ``conn_name`` reaches when it names a group: the
        QSG's name, or a generic address a group listener was started with. The
        policy (what Sysplex Distributor or a dynamic VIPA does): each connect draws
        one of the members whose group listener runs (up, channel initiator active,
        not paused), uniformly, from the run's seeded random. None when ``conn_name``
        names no group; AMQ9202E (``ChannelBrokenError``) when no member listens."""
        key = conn_name.strip().upper()
        qsg = key if key in self.qsgs else self._addresses().get(key)
        if qsg is None:
            return None
        listening = [
            member
            for member in self.qsgs[qsg].members
            if (qm := self.qmgrs.get(member)) is not None and qm.takes_group_connections
        ]
        chosen = groupaddress.choose(listening, self.random)  # the same policy over TCP
        if chosen is None:
            raise ChannelBrokenError(groupaddress.nobody_listens(conn_name, qsg))
        return self.qmgrs[chosen]

    def _addresses(self) -> dict[str, str]:
        if not hasattr(self, "group_addresses"):
            self.group_addresses = {}
        return self.group_addresses

    async def start_listener(self, q_mgr: str, *, indisp: str = "GROUP", address: str = "") -> None:
        """START LISTENER TRPTYPE(TCP) INDISP(GROUP) [IPADDR(address)] on ``q_mgr``: it
        takes connections to its group's address (the QSG's name, or ``address``).
        "Valid only in a queue sharing group", and IBM's rule: "the group listener will
        not start unless the shared queue SYSTEM.QSG.CHANNEL.SYNCQ is available"
        ("Synchronization queue for queue sharing groups"). INDISP(QMGR) listeners are
        the queue manager's own (``Topology.add_qmgr(listener=)``; in process, every
        queue manager takes connections to its own name)."""
        qm = self._running(q_mgr)
        if indisp.upper() != "GROUP":
            raise ValueError(f"{q_mgr}: only INDISP(GROUP) listeners are started by command")
        group = qm.rules.qsg
        if group is None:
            raise sharedchl.conflict(
                f"INDISP(GROUP) is valid only in a queue-sharing group; {q_mgr} is in none "
                f"(MQRCCF_DISPOSITION_CONFLICT 3211)"
            )
        if sharedsync.SYNCQ not in group.shared.queues:
            raise ValueError(
                f"the group listener of {q_mgr} cannot start: the shared queue "
                f"{sharedsync.SYNCQ} is not defined in {group.name}"
            )
        if not qm.chinit:
            raise ValueError(qm.chinit_down())
        qm.group_listener = True
        if address:
            self._addresses()[address.strip().upper()] = group.name
        await publish_group_port(self.link, qm)  # over TCP: its group port opens
        await trio.lowlevel.checkpoint()

    async def stop_listener(self, q_mgr: str) -> None:
        """STOP LISTENER INDISP(GROUP) on ``q_mgr``: it takes no more connections to
        its group's address (the channels it took go on)."""
        qm = self._running(q_mgr)
        if not qm.group_listener:
            raise ValueError(f"{q_mgr} has no group listener running")
        qm.group_listener = False
        await publish_group_port(self.link, qm)
        await trio.lowlevel.checkpoint()

    # ---- START and STOP CHANNEL ---------------------------------------------------------
    async def start_channel(
        self, q_mgr: str, channel: str, *, chldisp: str = "DEFAULT", cmdscope: str = ""
    ) -> list[str]:
        """START CHANNEL(channel) CHLDISP(chldisp) CMDSCOPE(cmdscope) entered on
        ``q_mgr``, a sender channel, by IBM's CHLDISP x CMDSCOPE table
        (``sharedchl.placement``); returns the members it started on. A refused
        disposition is ``sharedchl.DispositionError`` (3211, or 3218 when no member
        can take it); a channel that runs already, a ``ValueError`` (AMQ9514E, or
        CSQX477E for a shared channel's second instance)."""
        qm = self._running(q_mgr)
        definition = self._startable(qm, channel)
        kind = definition.channel_type
        enabling = kind == CMQC.MQCHT_SERVER  # a server without a CONNAME is enabled
        if not chltypes.callers(kind, definition.conn_name) and not enabling:
            raise chltypes.missing_conn_name(channel, kind)
        disposition = sharedchl.resolved(chldisp, _defcdisp(definition))
        shared_xmitq = qm.xmitq_shared(definition)
        place = sharedchl.placement(
            channel, kind, definition.conn_name, disposition, cmdscope, q_mgr, shared_xmitq
        )
        if not chltypes.callers(kind, definition.conn_name):
            return await self._enable(qm, definition, place)
        if place.disposition == CMQCFC.MQCHLD_PRIVATE:
            targets = self._scope(qm, place.on)
            for target in targets:
                await target.channel_ended(channel)  # a stopped agent finishes first
                target.start_channel(channel)
            return [t.name for t in targets]
        group = self._sharing_group(qm)
        suitable = place.on == "?"
        target = self._most_suitable(group, channel) if suitable else self._running(place.on)
        await self._start_shared(group, target, channel, place.disposition)
        self._stopped_shared().discard((group.name, channel))
        return [target.name]

    async def _enable(
        self, qm: QueueManager, definition: ChannelDefinition, place: sharedchl.Placement
    ) -> list[str]:
        """START CHANNEL of a server without a CONNAME: it cannot call its requester, so
        the start enables it, as START CHANNEL enables a receiver ("the only action is to
        enable the channel, not to start it"): one that is STOPPED (STOP CHANNEL, or an
        error) answers its requester again. CHLDISP(SHARED) enables it on every active
        member (IBM's CHLDISP x CMDSCOPE table); a PRIVATE start enables it on
        the member or members CMDSCOPE gives, and one STOPPED on none of them has
        nothing to enable: MQRCCF_MISSING_CONN_NAME (4061), as before."""
        channel = definition.name
        if place.disposition == CMQCFC.MQCHLD_PRIVATE:
            targets = self._scope(qm, place.on)
        else:
            group = self._sharing_group(qm)
            self._stopped_shared().discard((group.name, channel))
            targets = [t for t in self._scope(qm, "*") if channel in t.rules.local.channels]
        board = self.channel_board
        stopped = [t for t in targets if board.state(t.name, channel) == "STOPPED"]
        if place.disposition == CMQCFC.MQCHLD_PRIVATE and not stopped:
            raise chltypes.missing_conn_name(channel, definition.channel_type)
        for target in stopped:
            await target.channel_ended(channel)  # a stopped agent finishes first
            now = trio.current_time()
            self.events.emit(ChannelStateChanged(now, target.name, channel, "INACTIVE", ENABLED))
        await trio.lowlevel.checkpoint()
        return [t.name for t in targets]

    def _disabled(self, qm: QueueManager, definition: ChannelDefinition) -> bool:
        """Whether ``qm``'s server ``definition`` is STOPPED, and so refuses a
        requester's request until START CHANNEL (``chltypes.not_available_line``): a
        shared one that STOP CHANNEL stopped anywhere in the group, a private one
        whose agent here ended STOPPED. Not a sender: qsg starts every sender with its
        queue manager, so one is never INACTIVE, and STOP CHANNEL is how a requester's
        sender is kept from calling on its own (docs/channels.md)."""
        if definition.channel_type != CMQC.MQCHT_SERVER:
            return False
        group = qm.rules.qsg
        if group is not None and qm.xmitq_shared(definition):
            return (group.name, definition.name) in self._stopped_shared()
        return self.channel_board.state(qm.name, definition.name) == "STOPPED"

    async def stop_channel(
        self, q_mgr: str, channel: str, *, chldisp: str = "DEFAULT", cmdscope: str = ""
    ) -> None:
        """STOP CHANNEL(channel) on ``q_mgr``: its agent ends and the channel is
        STOPPED. A shared channel stops wherever it runs, and "can be stopped from any
        queue manager in the group, even if the channel initiator on which it was
        started is not running" (IBM, "Starting a shared channel"): its status goes."""
        qm = self._running(q_mgr)
        group = qm.rules.qsg
        held = None
        if group is not None and chldisp.upper() != "PRIVATE":
            status = group.channel_status
            held = await qm.dispatch(lambda now: status.holder(channel), system=True)
        if held is None:
            for target in self._scope(qm, cmdscope.strip() or q_mgr):
                target.stop_channel(channel)
            await trio.lowlevel.checkpoint()
            return
        assert group is not None
        self._stopped_shared().add((group.name, channel))
        owner = self.qmgrs.get(held.owner)
        agent = owner.channels.get(channel) if owner is not None and owner.alive else None
        if owner is not None and agent is not None and not agent.ended.is_set():
            owner.stop_channel(channel)  # its agent gives the claim up as it ends
            await owner.channel_ended(channel)
        else:  # its member or channel initiator is down: only the status goes
            owner_name = held.owner
            await qm.dispatch(lambda now: status.release(channel, owner_name), system=True)
            now = trio.current_time()
            self.events.emit(
                ChannelStateChanged(now, held.owner, channel, "STOPPED", "STOP CHANNEL")
            )
        await trio.lowlevel.checkpoint()

    # ---- PING, RESET and RESOLVE CHANNEL ------------------------------------------------
    async def ping_channel(
        self, q_mgr: str, channel: str, *, chldisp: str = "DEFAULT", cmdscope: str = ""
    ) -> list[str]:
        """PING CHANNEL(channel) entered on ``q_mgr``, by IBM's CHLDISP x CMDSCOPE table
        for it (START CHANNEL's for a sending channel): PRIVATE on the local, named or
        every active member, SHARED on the most suitable member, FIXSHARED on the local
        or named one. "Not valid if the channel is running" (MQRCCF_CHANNEL_IN_USE);
        a partner that cannot be reached is MQRCCF_HOST_NOT_AVAILABLE, one without the
        receiver MQRCCF_PING_ERROR. Returns the members it pinged from."""
        qm = self._running(q_mgr)
        definition = self._sender(qm, channel)
        disposition = sharedchl.resolved(chldisp, _defcdisp(definition))
        place = sharedchl.placement(
            channel,
            definition.channel_type,
            definition.conn_name,
            disposition,
            cmdscope,
            q_mgr,
            qm.xmitq_shared(definition),
        )
        if place.disposition == CMQCFC.MQCHLD_PRIVATE:
            targets = self._scope(qm, place.on)
        else:
            group = self._sharing_group(qm)
            await self._not_running_shared(qm, group, channel)
            await self._not_recovering(qm, channel)
            suitable = place.on == "?"
            targets = [self._most_suitable(group, channel) if suitable else self._running(place.on)]
        for target in targets:
            await self._ping(target, channel)
        return [t.name for t in targets]

    async def _ping(self, qm: QueueManager, channel: str) -> None:
        if not qm.chinit:
            raise ValueError(qm.chinit_down())
        definition = self._sender(qm, channel)
        agent = qm.channels.get(channel)
        state = self.channel_board.state(qm.name, channel)
        if agent is not None and not agent.ended.is_set() and state in ("RUNNING", "BINDING"):
            raise chltypes.ChannelInUseError(
                f"channel {channel} of {qm.name} is in use (it is {state})"
            )
        conn = definition.conn_name
        try:
            partner = self.qmgrs.get(conn.strip().upper()) or self.group_partner(conn)
        except ChannelBrokenError as error:
            raise _ping_failed(CMQCFC.MQRCCF_HOST_NOT_AVAILABLE, str(error)) from None
        if partner is None:  # host(port): a partner in another process
            try:
                frames = await _connect_tcp(conn, qm.connect_timeout)
            except ChannelBrokenError as error:
                raise _ping_failed(CMQCFC.MQRCCF_HOST_NOT_AVAILABLE, str(error)) from None
            await trio.aclose_forcefully(frames.stream)
            return
        if not partner.alive or partner.paused is not None or not partner.chinit:
            raise _ping_failed(
                CMQCFC.MQRCCF_HOST_NOT_AVAILABLE,
                f"AMQ9202E: Remote host '{conn}' not available, retry later",
            )
        found = partner.rules.local.channels.get(channel)
        if found is None or not chltypes.suitable(definition.channel_type, found.channel_type):
            raise _ping_failed(
                CMQCFC.MQRCCF_PING_ERROR,
                f"AMQ9520E: Channel {channel} not defined remotely (at {partner.name})",
            )
        await trio.lowlevel.checkpoint()

    async def reset_channel(
        self,
        q_mgr: str,
        channel: str,
        *,
        seqnum: int = 1,
        chldisp: str = "DEFAULT",
        cmdscope: str = "",
    ) -> list[str]:
        """RESET CHANNEL(channel) SEQNUM(seqnum) of a sending channel, by IBM's table:
        PRIVATE on the local or named member, SHARED on the group's sync record (what
        "on all active queue managers" comes to: one record on
        SYSTEM.QSG.CHANNEL.SYNCQ). The next message it sends is numbered ``seqnum``
        and the partner takes that number at the next start. Refused while the
        channel runs (MQRCCF_CHANNEL_IN_USE) or has a batch in doubt
        (MQRCCF_CHANNEL_INDOUBT: RESOLVE CHANNEL first, our reading). Of a requester,
        ``_reset_requester``."""
        requester = self._running(q_mgr).rules.local.channels.get(channel)
        if requester is not None and requester.channel_type == CMQC.MQCHT_REQUESTER:
            return await self._reset_requester(q_mgr, requester, seqnum, chldisp, cmdscope)

        def change(sync: ChannelSync) -> None:
            if sync.in_doubt:
                raise _ping_failed(
                    CMQCFC.MQRCCF_CHANNEL_INDOUBT,
                    f"channel {channel} has a batch in doubt: RESOLVE CHANNEL first "
                    f"(MQRCCF_CHANNEL_INDOUBT {CMQCFC.MQRCCF_CHANNEL_INDOUBT})",
                )
            sync.sequence = channels.following(seqnum, -1)
            sync.reset = True

        return await self._sync_command("RESET", q_mgr, channel, chldisp, cmdscope, change)

    async def _reset_requester(
        self, q_mgr: str, definition: ChannelDefinition, seqnum: int, chldisp: str, cmdscope: str
    ) -> list[str]:
        """RESET CHANNEL(channel) SEQNUM(seqnum) of a requester: the message its end
        expects next is numbered ``seqnum`` (its committed number the one before). "If
        the command is issued to a receiver, requester, or cluster-receiver channel, the
        value at the other end is not reset as well; this must be done separately if
        necessary": a server whose number is another refuses to agree at the next start
        (AMQ9526E). A requester is private: PRIVATE only, on the local or named member;
        refused while it runs (IN USE)."""
        channel = definition.name
        disposition = sharedchl.resolved(chldisp, _defcdisp(definition))
        if disposition != CMQCFC.MQCHLD_PRIVATE:
            raise sharedchl.conflict(
                f"channel {channel} is a requester, a private channel: CHLDISP("
                f"{sharedchl.NAMES.get(disposition, disposition)}) is the wrong disposition "
                f"for it (MQRCCF_DISPOSITION_CONFLICT 3211)"
            )
        place = sharedchl.group_placement("RESET", channel, disposition, cmdscope, q_mgr, False)
        target = self._running(place.on)
        found = target.rules.local.channels.get(channel)
        if found is None or found.channel_type != CMQC.MQCHT_REQUESTER:
            raise ValueError(f"{target.name} has no requester channel {channel}")
        agent = target.channels.get(channel)
        if (agent is not None and not agent.ended.is_set()) or channel in target.receivers:
            raise chltypes.ChannelInUseError(
                f"channel {channel} of {target.name} is in use (it runs)"
            )
        sync = target.syncq.setdefault(channel, ChannelSync())

        def change(now: float) -> None:
            sync.committed = channels.following(seqnum, -1)

        await target.dispatch(change, system=True)
        return [target.name]

    async def resolve_channel(
        self,
        q_mgr: str,
        channel: str,
        *,
        commit: bool,
        chldisp: str = "DEFAULT",
        cmdscope: str = "",
    ) -> list[str]:
        """RESOLVE CHANNEL(channel) ACTION(COMMIT | BACKOUT) of a sending channel, by
        IBM's table (as RESET's): its batch in doubt is committed (its messages
        "deleted from the transmission queue") or backed out ("restored to the
        transmission queue", to be sent again). "If the resolution specified is not the
        same as the resolution at the receiving end, messages can be lost or
        duplicated": the sequence numbers then disagree at the next start (AMQ9526E).
        Refused while the channel runs (MQRCCF_CHANNEL_IN_USE); nothing in doubt is
        nothing to do."""
        doubt: list[bytes] = []

        def change(sync: ChannelSync) -> None:
            doubt[:] = sync.in_doubt or []
            if sync.in_doubt and not commit:
                sync.sequence = channels.following(sync.sequence, -len(sync.in_doubt))
            sync.in_doubt = None

        return await self._sync_command(
            "RESOLVE", q_mgr, channel, chldisp, cmdscope, change, doubt if commit else None
        )

    async def _sync_command(
        self,
        verb: str,
        q_mgr: str,
        channel: str,
        chldisp: str,
        cmdscope: str,
        change: Callable[[ChannelSync], None],
        delivered: list[bytes] | None = None,
    ) -> list[str]:
        """RESET or RESOLVE (``verb``): ``change`` the sending channel's sync record
        where its disposition keeps it, on the members IBM's table gives; then take
        ``delivered`` (a committed batch's MsgIds) off its transmission queue."""
        qm = self._running(q_mgr)
        definition = self._sender(qm, channel)
        disposition = sharedchl.resolved(chldisp, _defcdisp(definition))
        shared = qm.xmitq_shared(definition)
        place = sharedchl.group_placement(verb, channel, disposition, cmdscope, q_mgr, shared)
        if place.disposition == CMQCFC.MQCHLD_PRIVATE:
            target = self._running(place.on)
            self._sender(target, channel)
            agent = target.channels.get(channel)
            if agent is not None and not agent.ended.is_set():
                raise chltypes.ChannelInUseError(
                    f"channel {channel} of {target.name} is in use (it runs)"
                )
            sync = target.syncq.setdefault(channel, ChannelSync())
            await target.dispatch(lambda now: change(sync), system=True)
            if delivered:
                await target.dispatch(
                    partial(_take_off, target, definition.xmit_q_name, list(delivered)),
                    system=True,
                )
            return [target.name]
        group = self._sharing_group(qm)
        await self._not_running_shared(qm, group, channel)
        if verb == "RESOLVE":  # IBM names RESOLVE, PING and DELETE, not RESET
            await self._not_recovering(qm, channel)

        def shared_change(now: float) -> None:
            conn = qm.rules.connect(appl_name=channel)
            try:
                handle = conn.open(sharedsync.SYNCQ, sharedsync.OPEN_OPTIONS)
                keeper = SharedSync(handle, channel)
                sync = keeper.load(now)
                change(sync)
                keeper.save(sync, now)
                if delivered:
                    _take_off(qm, definition.xmit_q_name, list(delivered), now, conn)
            finally:
                conn.disconnect()

        await qm.dispatch(shared_change, system=True)
        return [m for m in group.members if m in self.qmgrs and self.qmgrs[m].alive]

    async def _not_running_shared(
        self, qm: QueueManager, group: QueueSharingGroup, channel: str
    ) -> None:
        """A shared channel whose instance runs somewhere in the group is in use
        (CSQX477E names where)."""
        status = group.channel_status
        held = await qm.dispatch(lambda now: status.holder(channel), system=True)
        if held is None:
            return
        owner = self.qmgrs.get(held.owner)
        agent = owner.channels.get(channel) if owner is not None and owner.alive else None
        if agent is not None and not agent.ended.is_set():
            line = sharedchl.in_use_line(channel, held.xmitq, held.owner)
            raise chltypes.ChannelInUseError(f"channel {channel} of {qm.name} is in use ({line})")

    async def _not_recovering(self, qm: QueueManager, channel: str) -> None:
        """PING or RESOLVE of a shared channel whose agent on a failed member left
        units of work that peer recovery has not resolved fails, as its start would
        (IBM, "Channels and serialization": "An attempt to RESOLVE, PING, or DELETE a
        channel can fail for the same reason"; ``conntag.recovering``)."""
        cno = conntag.agent_options("CHL", channel, qm.name, qm.rules.rules.platform)
        if cno is None:
            return
        running = {(m.name, m.incarnation) for m in self.qmgrs.values() if m.alive}
        delayed = set(self._unrecovered)

        def recovering(now: float) -> MQMIError | None:
            return conntag.recovering(qm.rules.tag_registry, cno.tag, running, delayed)

        refused = await qm.dispatch(recovering, system=True)
        if refused is not None:
            raise _ping_failed(refused.reason, f"channel {channel}: {refused.detail}")

    # ---- the channel initiator's trigger monitor ----------------------------------------
    def _start_trigger_monitor(self, qm: QueueManager) -> None:
        """Start ``qm``'s channel initiator trigger monitor on SYSTEM.CHANNEL.INITQ, if
        the queue is defined there and none runs for this life and channel initiator."""
        if not qm.alive or not qm.chinit or INITQ not in qm.rules.local.queues:
            return
        monitors = self._trigger_monitors()
        running = monitors.get(qm.name)
        if running is not None and running[0] == qm.incarnation and not running[1].cancel_called:
            return
        scope = trio.CancelScope()
        monitors[qm.name] = (qm.incarnation, scope)
        qm.nursery.start_soon(self._trigger_monitor, qm, scope)

    def _trigger_monitors(self) -> dict[str, tuple[int, trio.CancelScope]]:
        if not hasattr(self, "trigger_monitors"):
            self.trigger_monitors: dict[str, tuple[int, trio.CancelScope]] = {}
        return self.trigger_monitors

    def _stopped_shared(self) -> set[tuple[str, str]]:
        """The shared channels STOP CHANNEL left STOPPED, by (QSG, channel): a trigger
        does not start them ("Transmission queues and triggering channels")."""
        if not hasattr(self, "stopped_shared"):
            self.stopped_shared: set[tuple[str, str]] = set()
        return self.stopped_shared

    async def _trigger_monitor(self, qm: QueueManager, scope: trio.CancelScope) -> None:
        """Serve ``qm``'s SYSTEM.CHANNEL.INITQ while its channel initiator runs: each
        trigger message names a transmission queue (and in TrigData its channel); the
        channel starts, a shared one by a load-balanced start, "always CHLDISP(SHARED)".
        A start that finds the channel running (another member's trigger message was
        first) "fails safely": nothing is done."""
        with scope:
            conn = await qm.dispatch(lambda now: qm.rules.connect(appl_name="CHINIT"), system=True)
            try:
                initq = await qm.dispatch(
                    lambda now: conn.open(INITQ, CMQC.MQOO_INPUT_SHARED), system=True
                )
                store = initq.repository.store
                while True:
                    md = MD()
                    gmo = GMO(Options=CMQC.MQGMO_NO_SYNCPOINT)
                    try:
                        body = await qm.dispatch(partial(_get, initq, md, gmo), system=True)
                    except MQMIError as error:
                        if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
                            raise
                        await self.signals.wait(store, INITQ, math.inf)
                        continue
                    try:
                        tm = TM.unpack(body, md.Encoding)
                    except MQMIError:
                        continue  # not a trigger message: nothing to start
                    await self._triggered(qm, tm)
            finally:
                if qm.alive:
                    with trio.CancelScope(shield=True):
                        await qm.dispatch(lambda now: conn.disconnect(), system=True)

    async def _triggered(self, qm: QueueManager, tm: TM) -> None:
        """Start the channel a trigger message is for, if it may start."""
        queue = tm.QName.decode("latin-1").strip()
        name = tm.TriggerData.decode("latin-1").strip()
        senders = [  # a sender, or a fully qualified server ("Starting a channel")
            d
            for d in qm.rules.local.channels.values()
            if qm.starts_at_once(d) and (d.name == name if name else d.xmit_q_name == queue)
        ]
        if not senders:
            return
        definition = senders[0]
        group = qm.rules.qsg
        shared = qm.xmitq_shared(definition)
        if shared and group is not None:
            if (group.name, definition.name) in self._stopped_shared():
                return
        elif self.channel_board.state(qm.name, definition.name) == "STOPPED":
            return
        chldisp = "SHARED" if shared else "PRIVATE"
        # Running already, or no channel initiator can take it: the start fails safely.
        with suppress(ValueError, MQMIError):
            await self.start_channel(qm.name, definition.name, chldisp=chldisp)

    async def start_shared_channels(self) -> None:
        """The world's start: each shared sender channel defined on a running member is
        started once in the group, by a load-balanced start (as a triggered shared
        transmission queue starts its channel: "always CHLDISP(SHARED)")."""
        for name in sorted(self.qsgs):
            group = self.qsgs[name]
            started: set[str] = set()
            for member in group.members:
                qm = self.qmgrs.get(member)
                if qm is None or not qm.alive:
                    continue
                for definition in qm.rules.local.channels.values():
                    shared = qm.xmitq_shared(definition)
                    if not qm.starts_at_once(definition) or not shared:
                        continue
                    if definition.name in started:
                        continue
                    started.add(definition.name)
                    target = self._most_suitable(group, definition.name)
                    # A member in another process (``qsg chaos --processes``) may have
                    # started it first: once in the group is what the start is for.
                    with contextlib.suppress(chltypes.ChannelInUseError):
                        await self._start_shared(
                            group, target, definition.name, CMQCFC.MQCHLD_SHARED
                        )
        for qm in self.qmgrs.values():
            self._start_trigger_monitor(qm)

    # ---- the shared channel status, as DISPLAY CHSTATUS reads it ------------------------
    def shared_instances(self, q_mgr: str) -> dict[str, SharedInstance]:
        """The shared channel instances of ``q_mgr``'s group, by channel (any member
        can display them: QMNAME names the owner). Called inside a dispatched step."""
        group = self._qm(q_mgr).rules.qsg
        if group is None:
            return {}
        try:
            return {i.channel: i for i in group.channel_status.instances()}
        except MQMIError:  # out of reach: the member shows what it runs itself
            return {}

    # ---- failures and the channel initiator ---------------------------------------------
    async def kill(self, q_mgr: str) -> None:
        """The queue manager fails (``FaultInjection.kill``: shared-queue peer
        recovery), then peer channel recovery of its shared channels, unless the
        shared-queue recovery was left for later: then after it."""
        await super().kill(q_mgr)
        qm = self._qm(q_mgr)
        if (q_mgr, qm.incarnation) in self._unrecovered:
            return  # ``_recover_left_undone`` recovers its channels after its queues
        qm.rules.forget_shared_handles()
        await self._recover_channels(qm.name)

    async def _recover_left_undone(self) -> None:
        waiting = set(self._unrecovered)
        await super()._recover_left_undone()
        for failed, incarnation in sorted(waiting - self._unrecovered):
            qm = self._qm(failed)
            if not qm.alive and qm.incarnation == incarnation:
                qm.rules.forget_shared_handles()
                await self._recover_channels(failed)

    async def stop_chinit(self, q_mgr: str, *, restart: bool = True) -> None:
        """STOP CHINIT SHARED(RESTART | STOP) on ``q_mgr``: every channel it runs ends
        (its senders' batches in doubt wait on their sync records); with RESTART
        (the default) the other members restart its SHARED sending channels by a
        load-balanced start, with STOP they become INACTIVE; FIXSHARED ones always
        become INACTIVE ("STOP CHINIT"). No channel starts here until START CHINIT."""
        qm = self._running(q_mgr)
        await self._end_chinit(qm, CHINIT_STOPPED)
        group = qm.rules.qsg
        if group is None:
            return
        try:
            held = await self._held_by(qm, group)
        except MQMIError:
            return  # the shared status out of reach: its claims stay, START CHINIT resumes
        for instance in held:
            if not restart or instance.disposition == CMQCFC.MQCHLD_FIXSHARED:
                release = partial(_release, group.channel_status, instance.channel, qm.name)
                await qm.dispatch(release, system=True)
        if restart:
            await self._recover_channels(q_mgr)

    async def kill_chinit(self, q_mgr: str) -> None:
        """``q_mgr``'s channel initiator fails (its queue manager stays up): its
        channels end at once, and the queue manager "notices and drives recovery": its
        SHARED sending channels restart on other members; its FIXSHARED ones wait for
        its channel initiator's restart (START CHINIT)."""
        qm = self._running(q_mgr)
        await self._end_chinit(qm, CHINIT_FAILED)
        if qm.rules.qsg is not None:
            await self._recover_channels(q_mgr)

    async def start_chinit(self, q_mgr: str) -> None:
        """START CHINIT on ``q_mgr``: channels start here again; its private senders
        start, and the shared instances the group's status still gives it (FIXSHARED
        ones its failure left) start again here."""
        qm = self._running(q_mgr)
        if qm.chinit:
            raise ValueError(f"the channel initiator of {q_mgr} is already running")
        qm.chinit = True
        qm.start_channels()
        await publish_group_port(self.link, qm)
        await self._resume_held(qm)

    async def _end_chinit(self, qm: QueueManager, why: str) -> None:
        if not qm.chinit:
            raise ValueError(qm.chinit_down())
        qm.chinit = False  # first: ending agents keep their shared claims
        monitor = self._trigger_monitors().pop(qm.name, None)
        if monitor is not None:
            monitor[1].cancel()
        now = trio.current_time()
        for name, agent in list(qm.channels.items()):
            if not agent.ended.is_set() and not agent.scope.cancel_called:
                agent.scope.cancel()
                self.events.emit(ChannelStateChanged(now, qm.name, name, "INACTIVE", why))
        for scope in list(qm.inbound):
            scope.cancel()
        for name in list(qm.channels):
            await qm.channel_ended(name)
        await publish_group_port(self.link, qm)  # over TCP: the address leaves it out
        await trio.lowlevel.checkpoint()

    async def _resume_held(self, qm: QueueManager) -> None:
        """Restart, on ``qm``, the shared instances the group's status says it runs
        (after its restart or its channel initiator's: FIXSHARED ones, and any SHARED
        one no survivor could take)."""
        self._start_trigger_monitor(qm)
        group = qm.rules.qsg
        if group is None or not qm.chinit:
            return
        try:
            held = await self._held_by(qm, group)
        except MQMIError:
            return  # the shared status out of reach: a later START CHANNEL or heal
        for instance in held:
            definition = qm.rules.local.channels.get(instance.channel)
            if definition is None:
                continue
            if not chltypes.callers(definition.channel_type, definition.conn_name):
                # a server only its requester starts: its claim goes, the requester asks
                release = partial(_release, group.channel_status, instance.channel, qm.name)
                await qm.dispatch(release, system=True)
                continue
            await self._start_shared(
                group, qm, instance.channel, instance.disposition, replacing=qm.name
            )

    async def _recover_channels(self, failed: str) -> None:
        """Peer channel recovery of the shared channels ``failed`` ran (see the module's
        docstring), by the first other member that can: each SHARED one restarted on
        the most suitable member, each FIXSHARED one left for ``failed`` itself. One
        ``channel-recovery`` event with CSQM052I when any were found."""
        qm = self._qm(failed)
        group = qm.rules.qsg
        if group is None:
            return
        doers = [p for p in self._peers(qm) if p.alive and p.chinit and p.paused is None]
        if not doers:
            return  # nobody to take them: the member restarts them itself (``restart``)
        await self._recover_channels_by(doers[0], group, failed)

    async def recover_channels_of(self, q_mgr: str, failed: str) -> None:
        """Peer channel recovery by ``q_mgr`` of ``failed``, a member in another OS
        process whose member lease ran out (``actors.membership.watch``, after its
        shared-queue recovery): the SHARED channels the group's status gives it are
        restarted here, if this member defines them and its channel initiator runs.
        Every watcher tries; the claim in the group's status lets one restart each."""
        doer = self._qm(q_mgr)
        group = doer.rules.qsg
        if group is None or not doer.alive or not doer.chinit or doer.paused is not None:
            return
        await self._recover_channels_by(doer, group, failed, every=False)

    async def _recover_channels_by(
        self, doer: QueueManager, group: QueueSharingGroup, failed: str, *, every: bool = True
    ) -> None:
        """``doer``'s peer channel recovery of ``failed``; its event says what it found
        (``every`` False: only if it restarted or released one, as every watcher in
        another process tries and all but one find each claim taken)."""
        try:
            mine = await doer.dispatch(
                lambda now: [i for i in group.channel_status.instances() if i.owner == failed],
                system=True,
            )
        except MQMIError:  # the shared status out of reach: the member restarts them
            return
        fixshared = [i for i in mine if i.disposition == CMQCFC.MQCHLD_FIXSHARED]
        recovered = released = 0
        for instance in mine:
            if instance.disposition == CMQCFC.MQCHLD_FIXSHARED:
                continue  # "only recovered when that same channel initiator restarts"
            if not instance.conn_name.strip():  # a server only its requester can start:
                # its claim goes, and the requester's next request starts it anywhere
                release = partial(_release, group.channel_status, instance.channel, failed)
                released += bool(await doer.dispatch(release, system=True))
                continue
            try:
                target = self._most_suitable(group, instance.channel, exclude=failed)
                await self._start_shared(
                    group,
                    target,
                    instance.channel,
                    CMQCFC.MQCHLD_SHARED,
                    replacing=failed,
                    recovering=True,
                )
            except (sharedchl.DispositionError, ValueError):
                continue  # left held: its member restarts it
            recovered += 1
        if mine and (every or recovered or released):
            now = trio.current_time()
            line = sharedchl.recovery_line(failed, len(mine), len(fixshared), recovered)
            self.events.emit(
                ChannelRecovered(now, doer.name, failed, len(mine), len(fixshared), recovered, line)
            )

    # ---- helpers ------------------------------------------------------------------------
    async def _start_shared(
        self,
        group: QueueSharingGroup,
        target: QueueManager,
        channel: str,
        disposition: int,
        *,
        replacing: str = "",
        recovering: bool = False,
        link: Frames | None = None,
    ) -> None:
        """Claim ``channel`` for ``target`` in the group's status and start its agent
        there as a shared instance (a server a requester started, on ``link``);
        CSQX477E (a ``ValueError``) when it runs already."""
        definition = self._sender(target, channel)
        if not target.xmitq_shared(definition):
            raise sharedchl.conflict(
                f"channel {channel}'s transmission queue {definition.xmit_q_name} is not a "
                f"shared queue on {target.name} (MQRCCF_DISPOSITION_CONFLICT 3211)"
            )
        instance = SharedInstance(
            channel, target.name, disposition, definition.xmit_q_name, definition.conn_name
        )
        agent = target.channels.get(channel)
        if not replacing and (agent is None or agent.ended.is_set()):
            replacing = target.name  # a claim of its own whose agent ended is its own
        status = group.channel_status
        held = await target.dispatch(lambda now: status.claim(instance, replacing), system=True)
        if held is not None:
            line = sharedchl.in_use_line(channel, held.xmitq, held.owner)
            raise chltypes.ChannelInUseError(f"channel {channel} is in use ({line})")
        await target.channel_ended(channel)
        try:
            target.start_channel(channel, shared=True, recovering=recovering, link=link)
        except ValueError:
            status.release(channel, target.name)
            raise

    def _most_suitable(
        self, group: QueueSharingGroup, channel: str, exclude: str = ""
    ) -> QueueManager:
        """The member a load-balanced start of ``channel`` goes to
        (``sharedchl.most_suitable``): of the running members whose channel initiator
        runs and which define the sender channel; 3218 when there is none."""
        loads = []
        for member in group.members:
            qm = self.qmgrs.get(member)
            if qm is None or member == exclude or not qm.alive or not qm.chinit:
                continue
            if qm.paused is not None:
                continue
            definition = qm.rules.local.channels.get(channel)
            if definition is None or not chltypes.sending(definition.channel_type):
                continue
            loads.append(sharedchl.ChinitLoad(member, qm.active_channels()))
        chosen = sharedchl.most_suitable(loads, self.random)
        if chosen is None:
            raise sharedchl.no_channel_initiator(channel)
        return self.qmgrs[chosen]

    async def _held_by(self, qm: QueueManager, group: QueueSharingGroup) -> list[SharedInstance]:
        """The shared instances the group's status gives ``qm`` (read in one of its
        steps: the status may be on the facility's server)."""
        status = group.channel_status

        def held(now: float) -> list[SharedInstance]:
            return [i for i in status.instances() if i.owner == qm.name]

        return await qm.dispatch(held, system=True)

    def _scope(self, qm: QueueManager, on: str) -> list[QueueManager]:
        """The members a PRIVATE command runs on: ``on`` one, or every active one."""
        if on != "*":
            return [self._running(on)]
        group = qm.rules.qsg
        names = group.members if group is not None else [qm.name]
        return [self.qmgrs[n] for n in names if n in self.qmgrs and self.qmgrs[n].alive]

    def _sharing_group(self, qm: QueueManager) -> QueueSharingGroup:
        if qm.rules.qsg is None:
            raise sharedchl.conflict(f"{qm.name} is not in a queue-sharing group")
        return qm.rules.qsg

    @staticmethod
    def _sender(qm: QueueManager, channel: str) -> ChannelDefinition:
        """The sending channel (a sender or a server) ``channel`` of ``qm``: its agent
        takes messages off a transmission queue, the same code for both."""
        definition = qm.rules.local.channels.get(channel)
        if definition is None or not chltypes.sending(definition.channel_type):
            raise ValueError(f"{qm.name} has no sender or server channel {channel}")
        return definition

    def _startable(self, qm: QueueManager, channel: str) -> ChannelDefinition:
        """A sending channel, or a requester: what START CHANNEL runs an agent of."""
        definition = qm.rules.local.channels.get(channel)
        if definition is not None and definition.channel_type == CMQC.MQCHT_REQUESTER:
            return definition
        return self._sender(qm, channel)

    # ---- a requester's request ----------------------------------------------------------
    async def requested(self, q_mgr: str, channel: str, link: Frames | None) -> trio.Event:
        """A requester asked ``q_mgr`` to start ``channel`` (``channel.run_receiver``):
        a server's agent starts on ``link``, a sender's (``link`` None) to call the
        requester back. Shared when its transmission queue is shared: claimed in the
        group's status for ``q_mgr``, the member the requester reached, as a SHARED
        instance (CSQX477E when it runs elsewhere); private otherwise (AMQ9514E when
        its agent runs here). The event its agent sets as it ends."""
        qm = self._running(q_mgr)
        definition = self._sender(qm, channel)
        if self._disabled(qm, definition):
            raise ValueError(chltypes.not_available_line(channel, q_mgr))
        group = qm.rules.qsg
        if group is not None and qm.xmitq_shared(definition):
            await self._start_shared(group, qm, channel, CMQCFC.MQCHLD_SHARED, link=link)
            self._stopped_shared().discard((group.name, channel))
        else:
            await qm.channel_ended(channel)
            qm.start_channel(channel, link=link)
        return qm.channels[channel].ended


def _get(handle: Any, md: MD, gmo: GMO, now: float) -> bytes:
    return handle.get(None, md, gmo, now=now)  # type: ignore[no-any-return]


def _ping_failed(reason: int, text: str) -> MQMIError:
    return MQMIError(CMQC.MQCC_FAILED, reason, text)


def _take_off(
    qm: QueueManager, xmitq: str, msg_ids: list[bytes], now: float, conn: Any = None
) -> None:
    """A committed batch's messages off the transmission queue, by MsgId (RESOLVE
    CHANNEL ACTION(COMMIT)): "deleted from the transmission queue"."""
    own = conn is None
    conn = conn or qm.rules.connect(appl_name="RESOLVE")
    try:
        handle = conn.open(xmitq, CMQC.MQOO_INPUT_SHARED)
        for msg_id in msg_ids:
            gmo = GMO(Options=CMQC.MQGMO_NO_SYNCPOINT, MatchOptions=CMQC.MQMO_MATCH_MSG_ID)
            try:
                handle.get(None, MD(MsgId=msg_id), gmo, now=now)
            except MQMIError as error:
                if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
                    raise
        handle.close()
    finally:
        if own:
            conn.disconnect()


def _release(status: sharedchl.SharedChannelStatus, channel: str, owner: str, now: float) -> bool:
    return status.release(channel, owner)


__all__ = ["CHINIT_FAILED", "CHINIT_STOPPED", "ENABLED", "SharedChannels"]
