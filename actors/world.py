"""The running world: the queue managers of a topology as actors, under one supervisor.

``open_world`` (``qsg.start``) builds every queue manager from the topology, applies its
MQSC, connects the queue-sharing groups to their coupling facility (the Redis server, or
in process), starts each queue manager's life in the supervisor's nursery, and stops
them all at the end. A failure in any actor's task reaches the supervisor and ends the
world with it: nothing fails quietly.

One run has one clock (trio's: the virtual clock under ``qsg.run``), one seeded
``random.Random`` and one event log. trio runs the tasks that are ready at the same
moment in an order it picks at random; the world switches on trio's deterministic
scheduling (the mode its hypothesis plugin uses) and seeds it from the run's seed, so
the same seed gives the same interleaving and the same events.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from functools import partial

import trio

from actors import command_server, determinism
from actors.admin import ChannelBoard
from actors.clock import VirtualClock, current_virtual_clock
from actors.costs import Costs
from actors.events import CFRecovered, EventLog, ExpiryScanned
from actors.facility import FacilityWatch
from actors.mqi import Connection
from actors.qmgr import QueueManager
from actors.reach import Reach, guard
from actors.signals import Signals
from coupling import keys
from coupling.cleanup import adelete_group
from coupling.errors import FACILITY_REASONS
from coupling.lease import Lease, LeaseBoard, LocalLease, check_held
from coupling.server import EmbeddedServer, configured_url, url_options
from coupling.store import RedisStore
from coupling.transport import BlockingTransport, CFConnectionError
from coupling.trio_transport import TrioTransport
from qsg import CMQC
from qsg.core import bugs
from qsg.core.errors import MQMIError
from qsg.core.events import DeadLettered, Event, ReportPut, TriggerMessagePut
from qsg.core.memstore import MemoryStore
from qsg.core.queue import QueueDefinition
from qsg.core.sharing import QueueSharingGroup
from qsg.core.store import Fence, MessageStore, StaleFenceError
from qsg.topology import Topology


class World:
    """Queue managers at work; see the module's docstring."""

    def __init__(
        self, topology: Topology, *, seed: int, events: EventLog,
        transport: TrioTransport | None, faults: bool = False, history: bool = False,
        server: EmbeddedServer | None = None,
    ) -> None:  # fmt: skip
        self.topology = topology
        #: The model costs now (a latency spike raises them for a while) and as set.
        self.costs: Costs = topology.costs
        self.base_costs: Costs = topology.costs
        #: Who can reach the coupling facility, when the world takes CF outage faults.
        self.reach: Reach | None = Reach() if faults else None
        #: Applications record every operation as invoke and completion (chaos runs).
        self.history = history
        self._msg_ids = itertools.count(1)
        #: The first 6 bytes of the MsgIds clients choose (unique per process and life
        #: when queue managers run in separate processes).
        self.msg_id_stem = b"QSGMSG"
        self._extra = {"cf_access": 0.0, "channel_latency": 0.0}
        self.seed = seed
        self.random = random.Random(seed)
        self.events = events
        self.signals = Signals()
        self.transport = transport
        self.remote = transport is not None  # shared queues on a Redis server
        #: The coupling facility's server, when the world started it (it can fail it).
        self.server = server
        #: The highest fencing token seen per lease key: a facility that comes back
        #: without its state restarts its tokens above these.
        self.tokens: dict[str, int] = {}
        self.board = LeaseBoard()
        self.stopping = False
        self.qsgs: dict[str, QueueSharingGroup] = {}
        self.qmgrs: dict[str, QueueManager] = {}
        self._nursery: trio.Nursery | None = None
        #: Failed lives whose peer recovery could not reach the coupling facility.
        self._unrecovered: set[tuple[str, int]] = set()
        #: The facility's failures, scheduled or not (with shared queues on a server).
        self.watch: FacilityWatch | None = FacilityWatch(self) if transport is not None else None
        self._cf_failed_by_fault = False  # cf_fail killed the server; cf_restart not yet
        #: Each channel agent's state and traffic, for DISPLAY CHSTATUS.
        self.channel_board = ChannelBoard()
        events.listeners.append(self.channel_board.saw)
        #: Starts a queue manager's command server when a command first arrives.
        self.command_servers = command_server.Starter(self)
        events.listeners.append(self.command_servers.saw)

    # ---- the public API ---------------------------------------------------------------
    async def connect(self, q_mgr: str, user: str | None = None) -> Connection:
        """MQCONN to ``q_mgr`` as ``user`` (the identity authority checks use)."""
        qm = self._qm(q_mgr)
        if not qm.alive:
            raise qm.unavailable()
        conn = await qm.dispatch(lambda now: qm.rules.connect(user=user or "qsg"))
        return Connection(qm, conn)

    async def kill(self, q_mgr: str) -> None:
        """The queue manager fails: its tasks stop at once, its connections are broken,
        its units of work on shared queues are recovered by a peer, and its local
        in-flight work and nonpersistent messages wait for its restart."""
        qm = self._qm(q_mgr)
        qm.kill()
        await trio.lowlevel.checkpoint()  # let the cancelled tasks go
        await self._recover(qm.name, qm.incarnation)

    async def _recover(self, failed: str, incarnation: int) -> None:
        """Peer recovery of ``failed``'s life by a surviving member; left for later (when
        the coupling facility is back, or the member restarts) if the facility cannot be
        reached."""
        alive = [p for p in self._peers(self._qm(failed)) if p.alive]
        for peer in alive:
            if peer.paused is not None:
                continue  # it does the recovery when it wakes, if nobody has by then
            try:
                await peer.request(partial(peer.recover_peer, failed, incarnation))
            except MQMIError as error:
                if error.reason not in FACILITY_REASONS:
                    raise
                continue  # this peer has lost the facility: the next one tries
            self._unrecovered.discard((failed, incarnation))
            return
        if alive:
            self._unrecovered.add((failed, incarnation))

    async def _recover_left_undone(self) -> None:
        """Peer recovery that no member could run before (the facility was unreachable,
        the peers paused), for failed members still down in the same life."""
        for failed, incarnation in sorted(self._unrecovered):
            if self._qm(failed).incarnation == incarnation and not self._qm(failed).alive:
                await self._recover(failed, incarnation)
            else:
                self._unrecovered.discard((failed, incarnation))

    async def cf_unavailable(self, q_mgr: str | None = None) -> None:
        """The coupling facility becomes unreachable, to ``q_mgr`` alone (its CF link
        failed) or to every member: their calls on shared queues fail with
        MQRC_CF_STRUC_FAILED (2373), and nothing of them reaches the facility, until
        ``cf_available``. Committed messages stay in the facility."""
        if q_mgr is None and self.transport is not None:
            self.transport.unavailable = "the coupling facility is unavailable"
        elif self.reach is None:
            raise ValueError("this outage needs a world started with faults=True "
                             "(a scenario or chaos run with CF faults has one)")  # fmt: skip
        else:
            if q_mgr is not None:
                self._qm(q_mgr)
            where = f" to {q_mgr}" if q_mgr else ""
            self.reach.lose(q_mgr, f"the coupling facility is unavailable{where}")
        await trio.lowlevel.checkpoint()

    async def cf_available(self, q_mgr: str | None = None) -> None:
        """The coupling facility is back (for ``q_mgr``, or for all); peer recovery left
        undone meanwhile runs now."""
        if q_mgr is None and self.transport is not None:
            self.transport.unavailable = ""
        if self.watch is not None:
            self.watch.ended()
        if self.reach is not None:
            self.reach.regain(q_mgr)
        elif q_mgr is not None or self.transport is None:
            raise ValueError("this outage needs a world started with faults=True")
        await self._recover_left_undone()
        self.signals.notify_all()

    async def cf_fail(self) -> None:
        """The coupling facility fails: its server process is killed (SIGKILL). Every
        call on shared queues fails with MQRC_CF_STRUC_FAILED, and a unit of work in
        flight can no longer commit (MQRC_BACKED_OUT), until ``cf_restart``."""
        server = self._own_server()
        if not server.running:
            raise ValueError("the coupling facility has already failed")
        server.kill()
        self._cf_failed_by_fault = True
        await self.cf_died()

    async def cf_died(self) -> None:
        """The facility's server is gone (``cf_fail`` killed it, or it died unscheduled):
        units of work in flight can no longer commit, and the link is dropped."""
        for group in self.qsgs.values():
            store = group.shared.store
            failed = getattr(store, "failed", None)
            if failed is not None:
                failed()
        if self.transport is not None:
            # The link dies with the server. Dropped here, not when the reader task next
            # runs and meets the closed socket: a call made before that would go to
            # the dead link after a restart, where it should connect again.
            await self.transport.aclose()
        await trio.lowlevel.checkpoint()

    @property
    def cf_fault_active(self) -> bool:
        """A fault of the run keeps the facility from the members now (``cf_fail`` not
        yet restarted, or ``cf_unavailable`` to all or some)."""
        reach = self.reach
        unavailable = self.transport is not None and bool(self.transport.unavailable)
        lost = reach is not None and bool(reach.everyone or reach.lost)
        return self._cf_failed_by_fault or unavailable or lost

    async def cf_restart(self) -> None:
        """The failed coupling facility's server starts again, and the facility is
        recovered (RECOVER CFSTRUCT) before any member uses it: units of work in flight
        at the failure backed out, locks released, and each shared queue keeps its
        persistent messages if its structure is RECOVER(YES) and the server kept its
        state (``persistent``: an append-only file), nothing otherwise. Nonpersistent
        messages are always lost. One ``CFRecovered`` event per structure says what."""
        server = self._own_server()
        if server.running:
            raise ValueError("the coupling facility has not failed")
        # Blocking on purpose: no member runs between the restart and the recovery.
        server.restart()
        transport = BlockingTransport(server.url)
        try:
            for name, group in self.qsgs.items():
                self._recover_facility(name, group, RedisStore(transport, name), server.persistent)
        finally:
            transport.close()
        self._cf_failed_by_fault = False
        if self.watch is not None:
            self.watch.ended()
        await self._recover_left_undone()
        self.signals.notify_all()

    async def recover_lost_structures(self) -> bool:
        """The facility is back without its structures (its server restarted empty, no
        ``cf_restart`` of the run's): they are recovered now, as ``cf_restart`` does,
        with nothing kept. False if the facility failed again meanwhile."""
        assert self.transport is not None
        transport = BlockingTransport(self.transport.url)
        try:
            for name, group in self.qsgs.items():
                failed = getattr(group.shared.store, "failed", None)
                if failed is not None:
                    failed()  # its units of work in flight went with the structures
                self._recover_facility(name, group, RedisStore(transport, name), False)
        except MQMIError:
            return False
        finally:
            transport.close()
        await self._recover_left_undone()
        self.signals.notify_all()
        return True

    def _recover_facility(
        self, name: str, group: QueueSharingGroup, store: RedisStore, kept_state: bool
    ) -> None:
        """Redefine the group's structures and queues (their definitions are the
        group's, not the facility's), then RECOVER CFSTRUCT them all."""
        repo = group.shared
        for structure in repo.structures.values():
            store.define_structure(
                structure.name, size_kb=structure.size_kb, cf_level=structure.cf_level
            )
        queues = [q for q in repo.queues.values()
                  if isinstance(q, QueueDefinition) and q.q_type == CMQC.MQQT_LOCAL]  # fmt: skip
        for queue in queues:
            store.create_queue(queue.name, queue.ordering, queue.cf_struct or None)
        keep = {q.name: kept_state and q.cf_struct in repo.structures
                and repo.structures[q.cf_struct].recover for q in queues}  # fmt: skip
        floors = {key: token for key, token in self.tokens.items()
                  if key.startswith(keys.group_prefix(name))}  # fmt: skip
        if bugs.LOSE_ON_CF_RECOVERY in bugs.ACTIVE:  # the known bug a checker must catch
            units, lost = store.recover_failure(group.members, dict.fromkeys(keep, False), floors)
        else:
            units, lost = store.recover_failure(group.members, keep, floors)
        now = trio.current_time()
        by_structure: dict[str, list[str]] = {}
        for queue in queues:
            by_structure.setdefault(queue.cf_struct, []).append(queue.name)
        for struc, names in sorted(by_structure.items()):
            recovered = all(keep[q] for q in names)
            self.events.emit(CFRecovered(
                now, "", name, struc, ",".join(sorted(names)), recovered,
                sum(lost[q] for q in names), units,
            ))  # fmt: skip
            units = 0  # counted once, with the first structure

    def _own_server(self) -> EmbeddedServer:
        if self.server is None:
            raise ValueError("failing the coupling facility needs the embedded server the "
                             "run starts itself (not in process, not QSG_REDIS_URL)")  # fmt: skip
        return self.server

    def note_token(self, key: str, token: int) -> None:
        """A fencing token a member saw (see ``tokens``)."""
        if token > self.tokens.get(key, 0):
            self.tokens[key] = token

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
            base, cf_access=base.cf_access + extra["cf_access"],
            channel_latency=base.channel_latency + extra["channel_latency"],
        )  # fmt: skip

    async def break_channel(self, q_mgr: str, channel: str) -> None:
        """The network link of ``q_mgr``'s sender ``channel`` drops, mid-batch if a batch
        is on its way: both agents see it broken, the sender retries (RETRYING) and
        resynchronises the batch in doubt."""
        qm = self._running(q_mgr)
        link = qm.links.get(channel)
        if link is None:
            raise ValueError(f"channel {channel} of {q_mgr} has no link up")
        await trio.aclose_forcefully(link)

    def new_msg_id(self) -> bytes:
        """A MsgId for a client to choose (24 bytes, unique in the run, deterministic):
        a history names a put's message before the put, whatever its outcome."""
        return self.msg_id_stem + b"%018d" % next(self._msg_ids)

    async def restart(self, q_mgr: str) -> None:
        """Start a killed queue manager again (a new incarnation)."""
        qm = self._qm(q_mgr)
        await qm.recover_and_restart()
        assert self._nursery is not None
        await self._nursery.start(qm.run)
        qm.start_channels()
        self.command_servers.restarted(qm)

    async def refresh_expiry(self, q_mgr: str, pattern: str = "*") -> int:
        """REFRESH QMGR TYPE(EXPIRY) NAME(pattern), issued on ``q_mgr``: scan the matching
        local queues now, and the matching shared queues of its QSG, "regardless of the
        setting of EXPRYINT" (IBM MQ, "REFRESH QMGR") and of who holds the expiry-scan
        lease, which allots the periodic scan only. A member that believes it holds the
        lease scans under its fencing token, as its periodic scan does (so a stale token
        is still refused); any other member, or one whose token proves stale, scans
        without one. Returns how many expired messages were discarded."""
        from actors import expiry

        qm = self._qm(q_mgr)

        async def refresh() -> int:
            found = await qm.dispatch(lambda now: qm.rules.scan_expired(now, pattern), system=True)
            self.note_scan(qm, shared=False, pattern=pattern, discarded=found, cause="REFRESH")
            if qm.rules.qsg is None:
                return found
            grant = qm.expiry_grant
            # The member judges its grant by its own clock (skewed, if it is).
            if grant is not None and grant.expires > trio.current_time() + qm.skew:
                fenced = await expiry.scan_shared(qm, grant, pattern, "REFRESH")
                if fenced is not None:
                    return found + fenced
            try:
                shared = await qm.dispatch(
                    lambda now: qm.rules.scan_expired(now, pattern, shared=True), system=True
                )
            except MQMIError as error:
                if error.reason != CMQC.MQRC_CF_STRUC_FAILED:
                    raise
                return found  # the coupling facility is unreachable: nothing scanned there
            self.note_scan(qm, shared=True, pattern=pattern, discarded=shared, cause="REFRESH")
            return found + shared

        result: int = await qm.request(refresh)
        return result

    async def start_channel(self, q_mgr: str, channel: str) -> None:
        """START CHANNEL(channel) on ``q_mgr`` (a sender channel)."""
        qm = self._running(q_mgr)
        await qm.channel_ended(channel)  # a stopped agent finishes its clean-up first
        qm.start_channel(channel)

    def conname(self, q_mgr: str) -> str:
        """The CONNAME a sender in another process uses to reach ``q_mgr``'s listener."""
        listener = self._qm(q_mgr).listener
        if listener is None:
            raise ValueError(f"{q_mgr} has no channel listener (Topology.add_qmgr listener=)")
        return f"{listener[0]}({listener[1]})"

    async def stop_channel(self, q_mgr: str, channel: str) -> None:
        """STOP CHANNEL(channel) on ``q_mgr``: the agent ends and the channel is STOPPED."""
        self._running(q_mgr).stop_channel(channel)
        await trio.lowlevel.checkpoint()

    # ---- for the actors ---------------------------------------------------------------
    def rules_event(self, event: Event) -> None:
        """What a queue manager's rules report: into the event stream; and a message the
        queue manager put itself (a report, a dead letter, a trigger message) wakes the
        getters waiting on its queue, such as a trigger monitor."""
        self.events.emit(event)
        if isinstance(event, ReportPut | DeadLettered | TriggerMessagePut):
            found = self.qmgrs[event.q_mgr].rules.find(event.queue)
            if found is not None:
                self.signals.notify(found[0].store, event.queue)

    def lease(self, qm: QueueManager, role: str, length: float) -> Lease | LocalLease:
        """``qm``'s view of the lease on ``role`` in its QSG."""
        qsg = qm.rules.qsg_name
        if self.transport is not None:
            lease: Lease | LocalLease = Lease(
                self.transport, qsg, role, qm.name, length, on_token=self.note_token
            )
        else:
            lease = LocalLease(self.board, qsg, role, qm.name, length)
        return guard(lease, self.reach)  # type: ignore[no-any-return]

    def check_fence(self, qsg: str, fence: Fence, now: float) -> Fence:
        """Refuse a stale fence before a fenced scan: in process on the lease board; on
        Redis in the facility (whose scan script checks each batch again), so that a
        stale holder that finds nothing worth scanning is refused too, not taken for a
        scan under its old token."""
        if bugs.SKIP_FENCING in bugs.ACTIVE:  # the known bug a checker must catch (tests)
            return fence
        if self.transport is None:
            if not self.board.current(qsg, fence, now):
                raise StaleFenceError(fence, None)
            return fence
        if self.reach is not None:
            self.reach.check()  # a member without its CF link reaches nothing
        try:
            check_held(self.transport, qsg, fence, now)
        except CFConnectionError as error:
            raise MQMIError.failed(CMQC.MQRC_CF_STRUC_FAILED, str(error)) from None
        return fence

    def note_scan(
        self, qm: QueueManager, *, shared: bool, pattern: str, discarded: int, cause: str,
        token: int = 0,
    ) -> None:  # fmt: skip
        now = trio.current_time()
        self.events.emit(ExpiryScanned(now, qm.name, shared, pattern, discarded, cause, token))

    def _qm(self, name: str) -> QueueManager:
        qm = self.qmgrs.get(name)
        if qm is None:
            raise MQMIError.failed(
                CMQC.MQRC_Q_MGR_NAME_ERROR, f"no queue manager {name} in this world"
            )
        return qm

    def _running(self, name: str) -> QueueManager:
        qm = self._qm(name)
        if not qm.alive:
            raise qm.unavailable()
        return qm

    def _peers(self, qm: QueueManager) -> list[QueueManager]:
        group = qm.rules.qsg
        if group is None:
            return []
        return [self.qmgrs[m] for m in group.members if m != qm.name]


@asynccontextmanager
async def open_world(
    topology: Topology, *, redis_url: str | None = None, seed: int = 0,
    in_process: bool = False, keep_events: bool = True, faults: bool = False,
    history: bool = False, cf_persistent: bool = False, only: str | None = None,
    events: EventLog | None = None,
) -> AsyncIterator[World]:  # fmt: skip
    """Start ``topology``'s world for the block (``qsg.start``).

    Shared queues live on a Redis server: ``redis_url``, else ``QSG_REDIS_URL``'s, else a
    private server started for the block. ``in_process`` keeps them in process instead
    (faster, and the same seed then gives the same events). ``keep_events`` False keeps
    no event history (subscribers still get every event). ``faults`` lets the world take
    coupling-facility outages of one member (or, in process, of all); ``history`` makes
    the scenario's applications record each operation as invoke and completion.
    ``cf_persistent`` gives the private server an append-only file, so that after
    ``cf_fail`` and ``cf_restart`` the recoverable structures get their persistent
    messages back. ``only`` runs just that queue manager of the topology, joining a
    coupling facility that other processes share (it is not emptied first): one
    process of a multi-process run. ``events`` is the log to use (a new one by default).
    """
    async with AsyncExitStack() as stack:
        stack.enter_context(determinism.seeded_scheduling(seed))
        transport, server = None, None
        if topology.qsgs and not in_process:
            url = redis_url or configured_url()
            if url is None:
                server = EmbeddedServer(persistent=cf_persistent)
                server.start()
                stack.callback(server.stop)
                url = server.url
            else:
                url_options(url)  # a URL naming no server: a plain ValueError, here
            clock = current_virtual_clock()
            watch = None
            if clock is not None:  # watched from before it connects; unwatched after
                watch = partial(_watch_clock, clock, stack)
            transport = await stack.enter_async_context(TrioTransport.open(url, watch=watch))
        if events is None:
            events = EventLog(keep=keep_events)
        stack.callback(events.close)
        world = World(topology, seed=seed, events=events, transport=transport, faults=faults,
                      history=history, server=server)  # fmt: skip
        await _build(world, only)
        async with trio.open_nursery() as nursery:
            world._nursery = nursery
            if world.watch is not None:
                await nursery.start(world.watch.run)
            for qm in world.qmgrs.values():
                await nursery.start(qm.run)
            for qm in world.qmgrs.values():  # every partner is up: channels start
                qm.start_channels()
            try:
                yield world
            finally:
                world.stopping = True  # a clean stop: the scanners give their leases up
                nursery.cancel_scope.cancel()


def _watch_clock(clock: VirtualClock, stack: AsyncExitStack, transport: TrioTransport) -> None:
    """Freeze ``clock`` while ``transport`` is busy, until ``stack`` closes."""
    clock.watch(transport)
    stack.callback(clock.unwatch, transport)


async def _build(world: World, only: str | None = None) -> None:
    """The queue managers of the topology (or ``only`` one), their QSGs and their MQSC
    definitions."""
    topology = world.topology
    if only is not None and only not in topology.qmgrs:
        raise ValueError(f"no queue manager {only} in the topology")
    if world.transport is not None:
        import greenback

        await greenback.ensure_portal()
        for name in topology.qsgs if only is None else ():
            await _clear_namespace(world.transport, name)
    for name in topology.qsgs:
        transport = world.transport
        store: MessageStore = MemoryStore()
        if transport is not None:
            store = remote = RedisStore(transport, name)
            assert world.watch is not None
            remote.on_failure = partial(world.watch.failed, name)
        world.qsgs[name] = QueueSharingGroup(name, store=guard(store, world.reach))
    for name, rules in topology.build(world.qsgs, world.rules_event).items():
        if only is not None and name != only:
            continue  # another process runs it
        spec = topology.qmgrs[name]
        command_server.define_queues(rules)
        world.qmgrs[name] = QueueManager(world, rules, listener=spec.listener,
                                         connect_timeout=spec.connect_timeout)  # fmt: skip


async def _clear_namespace(transport: TrioTransport, qsg: str) -> None:
    """A run starts with an empty coupling facility for its QSGs (their keys only)."""
    await adelete_group(transport, qsg)


__all__ = ["World", "open_world"]
