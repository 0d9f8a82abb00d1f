"""The faults the world can take (a part of ``World``): the API a fault injector uses.

A queue manager killed, paused, its clock skewed; the coupling facility unreachable (to
one member or all), or its server killed and restarted; a latency spike; a channel's
link dropped; a rogue partner that starts a channel at its receiving end as if it were
the channel's sender, and replays or skips message sequence numbers. Each is what the
named fault does to a real queue-sharing group; the recovery that follows is
``actors.world_cf``'s.
"""

from __future__ import annotations

import dataclasses

import trio

from actors.channel import rogue_partner
from actors.events import CFRecovered
from actors.world_conlos import Connectivity
from coupling.errors import cut_off
from coupling.server import EmbeddedServer
from coupling.store import RedisStore
from coupling.transport import BlockingTransport
from qsg import CMQC
from qsg.core import cfstate
from qsg.core.errors import MQMIError
from qsg.core.queue import QueueDefinition
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc.commands import recovered_line

#: Seconds between the members' attempts at a RECAUTO recovery while the coupling
#: facility is out of their reach (a model choice: IBM gives no interval).
RECAUTO_RETRY = 1.0


class FaultInjection(Connectivity):
    """The faults; see the module's docstring."""

    async def kill(self, q_mgr: str) -> None:
        """The queue manager fails: its tasks stop at once, its connections are broken,
        its units of work on shared queues are recovered by a peer, and its local
        in-flight work and nonpersistent messages wait for its restart."""
        qm = self._qm(q_mgr)
        qm.kill()
        await trio.lowlevel.checkpoint()  # let the cancelled tasks go
        await self._recover(qm.name, qm.incarnation)

    async def cf_unavailable(self, q_mgr: str | None = None) -> None:
        """The coupling facility becomes unreachable, to ``q_mgr`` alone (its CF link
        failed) or to every member: their calls on shared queues fail with
        MQRC_CF_STRUC_FAILED (2373), and nothing of them reaches the facility, until
        ``cf_available``. Committed messages stay in the facility."""
        why = "the coupling facility is unavailable"
        if q_mgr is None and self.link.cut(why):
            pass  # cut off at the link: every call fails, the world's own too
        elif self.reach is None:
            raise ValueError(
                "this outage needs a world started with faults=True "
                "(a scenario or chaos run with CF faults has one)"
            )
        else:
            if q_mgr is not None:
                self._qm(q_mgr)
            where = f" to {q_mgr}" if q_mgr else ""
            self.reach.lose(q_mgr, f"{why}{where}")
        if q_mgr is None:
            # Lost to every member, the facility has failed, and this fault explains it:
            # one scheduled failure from now, in process as on a server (where each call
            # that meets the cut then finds the same failure, not a new one).
            for name in self.qsgs:
                self.watch.failed(name, CMQC.MQRC_CF_STRUC_FAILED, cut_off(name, why), False)
        await trio.lowlevel.checkpoint()

    async def cf_available(self, q_mgr: str | None = None) -> None:
        """The coupling facility is back (for ``q_mgr``, or for all); peer recovery left
        undone meanwhile runs now."""
        mended = q_mgr is None and self.link.cut("")
        if self.reach is not None:
            self.reach.regain(q_mgr)
        elif not mended:
            raise ValueError("this outage needs a world started with faults=True")
        everyone = self.link.cut_off or (self.reach is not None and self.reach.everyone)
        if not everyone and not self._cf_failed_by_fault:
            # Whole again (one member's link back while every member is still cut off,
            # or the server still down, ends no failure of the facility).
            self.watch.ended()
        await self._recover_left_undone()
        self.signals.notify_all()

    async def cf_connectivity_loss(
        self, q_mgr: str, structure: str = "", facility: str = ""
    ) -> str:
        """``q_mgr`` loses connectivity to ``structure``, to every structure of
        ``facility``, or (neither named) to its group's first facility, the one with the
        administration structure. CFCONLOS decides (``qsg.core.conlos``): TERMINATE ends
        the member and a peer recovers its units of work; TOLERATE keeps it running with
        its private queues, reconnected into a duplexed structure's other instance or a
        rebuild in another facility, or else refused every call on the structure's
        queues with MQRC_CF_NOT_AVAILABLE (2345) until ``cf_connectivity_restored``."""
        ends, moved = self._lose_connectivity(q_mgr, structure, facility)
        if ends:
            self._conlos_ended.add(q_mgr)
            await self.kill(q_mgr)
            return f"{q_mgr} ended (CFCONLOS TERMINATE)"
        self.signals.notify_all()  # its waiting getters on a lost structure learn it
        await trio.lowlevel.checkpoint()
        return f"{q_mgr} tolerates it (CFCONLOS TOLERATE)" + (f": {moved}" if moved else "")

    async def cf_connectivity_restored(
        self, q_mgr: str, structure: str = "", facility: str = ""
    ) -> bool:
        """``q_mgr``'s link is back: a tolerating member reconnects; True if the loss
        ended it (the fault injector restarts it)."""
        ended = self._regain_connectivity(q_mgr, structure, facility)
        await self._recover_left_undone()
        return ended

    def repository_unavailable(self) -> None:
        """The group's shared repository (Db2) goes down, for every QSG of the world:
        what needs it (a GROUP, COPY or SHARED definition, DISPLAY ... QSGDISP(GROUP),
        a member's refresh of its copies at start) fails with MQRC_DB2_NOT_AVAILABLE
        (2342) until ``repository_available``; work on the objects the members know goes
        on, shared queues' messages included (they are the coupling facility's)."""
        if not self.qsgs:
            raise ValueError("the shared repository needs a queue-sharing group")
        for group in self.qsgs.values():
            group.repository.unavailable = "repository_unavailable fault (Db2 down)"

    def repository_available(self) -> None:
        """The shared repository is back; a member refreshes its copies at its next start."""
        for group in self.qsgs.values():
            group.repository.unavailable = ""

    async def cf_fail(self, facility: str = "", q_mgr: str = "") -> str:
        """The coupling facility fails: its server process is killed (SIGKILL). Every
        call on shared queues fails with MQRC_CF_STRUC_FAILED, and a unit of work in
        flight can no longer commit (MQRC_BACKED_OUT), until ``cf_restart``. With a
        ``facility`` of a group that names several (``q_mgr``: a member, to say which
        group), that facility's own server alone (``facility_crash``)."""
        if facility:
            return await self.facility_crash(facility, q_mgr)
        server = self._own_server()
        if not server.running:
            raise ValueError("the coupling facility has already failed")
        server.kill()
        self._cf_failed_by_fault = True
        await self.cf_died()
        return ""

    async def cf_restart(self, facility: str = "", q_mgr: str = "") -> str:
        """The failed coupling facility's server starts again, and the facility is
        recovered (RECOVER CFSTRUCT) before any member uses it: units of work in flight
        at the failure backed out, locks released, and each shared queue keeps its
        persistent messages if its structure is RECOVER(YES) and the server kept its
        state (``persistent``: an append-only file), nothing otherwise. Nonpersistent
        messages are always lost. One ``CFRecovered`` event per structure says what.
        With a ``facility``, that facility's own server (``facility_back``)."""
        if facility:
            return await self.facility_back(facility, q_mgr)
        server = self._own_server()
        if server.running:
            raise ValueError("the coupling facility has not failed")
        # Blocking on purpose: no member runs between the restart and the recovery.
        server.restart()
        transport = BlockingTransport(server.url)
        try:
            for name, group in self.qsgs.items():
                store = RedisStore(transport, name)
                self._recover_facility(name, group, store, server.persistent, self._parked(name))
        finally:
            transport.close()
        self._cf_failed_by_fault = bool(self._crashed)
        if not self._crashed:
            self.watch.ended()
        await self._recover_left_undone()
        self.signals.notify_all()
        return ""

    async def structure_fail(self, structure: str) -> str:
        """One CF structure fails (RESET CFSTRUCT ACTION(FAIL)): its nonpersistent
        messages are lost and every call on its queues gets MQRC_CF_STRUC_FAILED; the
        other structures go on. A RECOVER(NO) structure's loss is final (a
        ``CFRecovered`` event, not recovered, says so now; its next MQOPEN reallocates
        it); a RECOVER(YES) one with RECAUTO(YES) is recovered by the members after the
        recovery's modelled time (``qsg.core.cfstate.recovery_seconds``)."""
        name, group = self._group_of(structure)
        now = trio.current_time()
        lost = cfstate.reset(group.shared, structure, now)
        self.structure_changed()
        definition = group.shared.structures[structure]
        if not definition.recover:
            self._structure_recovered(name, group, structure, False, lost)
        elif definition.recauto:
            await self.recover_automatically(name, structure)
        return f"{lost} nonpersistent messages lost"

    def structure_changed(self) -> None:
        """A structure failed or came back: its waiting getters learn it now (2373, or a
        message), and no queue is known empty any more (a get that found one empty
        before the failure must ask, and be refused)."""
        self.signals.notify_all()

    async def structure_recover(self, structure: str) -> str:
        """RECOVER CFSTRUCT of a structure a fault failed: TYPE(NORMAL) for RECOVER(YES),
        TYPE(PURGE) for a RECOVER(NO) one no MQOPEN has reallocated yet; nothing to do
        if RECAUTO or an MQOPEN already brought it back."""
        name, group = self._group_of(structure)
        if not group.shared.store.structure_status(structure).failed:
            return "already recovered"
        purge = not group.shared.structures[structure].recover
        got = cfstate.recover(group.shared, structure, purge, len(group.members))
        if not purge:
            self._structure_recovered(name, group, structure, True, 0)
        self.signals.notify_all()
        return recovered_line("", got).strip()

    async def recover_automatically(self, qsg: str, structure: str) -> None:
        """RECAUTO(YES): the members recover the failed ``structure`` themselves, after
        the modelled time of reading its backup and every member's log (a task of its
        own: this returns at once)."""
        assert self._nursery is not None
        self._nursery.start_soon(self._recover_later, qsg, structure)

    async def _recover_later(self, qsg: str, structure: str) -> None:
        group = self.qsgs[qsg]
        store, members = group.shared.store, len(group.members)
        waited = False  # the recovery's modelled time, once it could read the log
        while True:
            try:
                status = store.structure_status(structure)
                if status.failed and not waited:
                    waited = True
                    seconds = cfstate.recovery_seconds(
                        status.backup_messages, status.log_records, members
                    )
                    await trio.sleep(seconds)
                    continue
                if status.failed:
                    cfstate.recover(group.shared, structure, False, members)
                    self._structure_recovered(qsg, group, structure, True, 0)
                    self.signals.notify_all()
                return
            except MQMIError:  # the facility is out of reach: the members try again
                await trio.sleep(RECAUTO_RETRY)

    def _structure_recovered(
        self, qsg: str, group: QueueSharingGroup, structure: str, recovered: bool, lost: int
    ) -> None:
        queues = sorted(
            q.name
            for q in group.shared.queues.values()
            if isinstance(q, QueueDefinition) and q.cf_struct == structure
        )
        self.events.emit(
            CFRecovered(
                trio.current_time(), "", qsg, structure, ",".join(queues), recovered, lost, 0
            )
        )

    def _group_of(self, structure: str) -> tuple[str, QueueSharingGroup]:
        for name, group in self.qsgs.items():
            if structure in group.shared.structures:
                return name, group
        raise ValueError(f"no CF structure {structure} in the run's QSGs")

    def _parked(self, qsg: str) -> set[str] | None:
        """The structures on ``qsg``'s own server (None: every one, with one facility):
        with several facilities, those that have none left."""
        placement = self.placements[qsg]
        if len(placement.facilities) < 2:
            return None
        return {s for s in placement.preference if not placement.primary.get(s)}

    def _own_server(self) -> EmbeddedServer:
        if self.server is None:
            raise ValueError(
                "failing the coupling facility needs the embedded server the "
                "run starts itself (not in process, not QSG_REDIS_URL)"
            )
        return self.server

    async def pause(self, q_mgr: str) -> None:
        """The queue manager stops (as under SIGSTOP or a long GC pause): every call it
        would run waits, its expiry scanner stops renewing its lease, until ``resume``."""
        qm = self._running(q_mgr)
        if qm.paused is None:
            qm.paused = trio.Event()
        await trio.lowlevel.checkpoint()

    async def resume(self, q_mgr: str) -> None:
        """The paused queue manager wakes and carries on where it stopped."""
        qm = self._qm(q_mgr)
        if qm.paused is None:
            raise ValueError(f"queue manager {q_mgr} is not paused")
        qm.wake()
        await trio.lowlevel.checkpoint()
        await self._recover_left_undone()

    def skew(self, q_mgr: str, seconds: float) -> None:
        """``q_mgr``'s clock runs ``seconds`` ahead (behind, if negative) of the others'
        for its lease: it renews, judges its own grant and fences its scans by it."""
        self._qm(q_mgr).skew = seconds

    def slow(self, *, cf_access: float | None = None, channel_latency: float | None = None) -> None:
        """A latency spike: this many more seconds per CF access, or per channel trip,
        on top of the model's costs (0 ends it; None leaves that one as it is)."""
        if cf_access is not None:
            self._extra["cf_access"] = cf_access
        if channel_latency is not None:
            self._extra["channel_latency"] = channel_latency
        base, extra = self.base_costs, self._extra
        self.costs = dataclasses.replace(
            base,
            cf_access=base.cf_access + extra["cf_access"],
            channel_latency=base.channel_latency + extra["channel_latency"],
        )

    async def break_channel(self, q_mgr: str, channel: str) -> None:
        """The network link of ``q_mgr``'s sender ``channel`` drops, mid-batch if a batch
        is on its way: both agents see it broken, the sender retries (RETRYING) and
        resynchronises the batch in doubt."""
        qm = self._running(q_mgr)
        link = qm.links.get(channel)
        if link is None:
            raise ValueError(f"channel {channel} of {q_mgr} has no link up")
        await trio.aclose_forcefully(link)

    async def rogue_partner(self, q_mgr: str, channel: str, offset: int) -> str:
        """A peer connects to the receiving end of ``q_mgr``'s sender ``channel`` (at its
        listener if it has one, else as the sender reaches it) as that channel, and
        sends a batch numbered ``offset`` from the sender's last message (0 replays it,
        2 or more skips). MQ refuses a second instance of a running channel (AMQ9514E)
        and a batch that is not the next (AMQ9526E): nothing is put, nothing lost. The
        receiver's answer is returned, for the fault's event."""
        qm = self._running(q_mgr)
        definition = qm.rules.local.channels.get(channel)
        if definition is None or definition.channel_type != CMQC.MQCHT_SENDER:
            raise ValueError(f"{q_mgr} has no sender channel {channel}")
        partner = self.qmgrs.get(definition.conn_name)
        listener = partner.listener if partner is not None else None
        conn_name = f"{listener[0]}({listener[1]})" if listener is not None else ""
        return await rogue_partner(qm, definition, offset, conn_name)


__all__ = ["FaultInjection"]
