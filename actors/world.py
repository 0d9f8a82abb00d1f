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

import os
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from functools import partial

import greenback
import trio

from actors import command_server, determinism, expiry
from actors.admin import ChannelBoard
from actors.cflink import CFLink, InProcess, OnServer
from actors.channel import channel_events
from actors.clock import VirtualClock, current_virtual_clock
from actors.events import ChannelBatch, ChannelStateChanged, EventLog, MessagePut
from actors.facility import FacilityWatch
from actors.history import FinalState
from actors.mqi import Connection
from actors.qmgr import QueueManager
from actors.reach import guard
from actors.topology import Topology
from actors.world_channels import SharedChannels
from coupling.direct import DirectTransport
from coupling.server import EmbeddedServer, configured_url, url_options
from coupling.trio_transport import TrioTransport
from qsg import CMQC
from qsg.core.conntag import ConnectOptions
from qsg.core.errors import MQMIError
from qsg.core.facilities import DEFAULT_FACILITY, Placement
from qsg.core.grouprepo import GroupRepository
from qsg.core.queue import QueueDefinition
from qsg.core.router import Router
from qsg.core.sharing import QueueSharingGroup
from qsg.core.store import MessageStore


class World(SharedChannels):
    """Queue managers at work; see the module's docstring. Its state is
    ``actors.world_base``'s, its CF recovery and leases ``actors.world_cf``'s, its
    faults ``actors.world_faults``'s, its shared channels ``actors.world_channels``'s;
    here is the API a scenario uses."""

    def __init__(
        self,
        topology: Topology,
        *,
        seed: int,
        events: EventLog,
        link: CFLink,
        faults: bool = False,
        history: bool = False,
        server: EmbeddedServer | None = None,
    ) -> None:
        super().__init__(
            topology,
            seed=seed,
            events=events,
            link=link,
            faults=faults,
            history=history,
            server=server,
        )
        self.watch = FacilityWatch(self)
        self.channel_board = ChannelBoard()
        events.listen(self.channel_board.saw, ChannelStateChanged, ChannelBatch)
        events.listen(channel_events(self.qmgrs), ChannelStateChanged)
        self.command_servers = command_server.Starter(self)
        events.listen(self.command_servers.saw, MessagePut, queue=command_server.COMMAND_INPUT)

    # ---- the public API ---------------------------------------------------------------
    async def connect(
        self, q_mgr: str, user: str | None = None, *, cno: ConnectOptions | None = None
    ) -> Connection:
        """MQCONN to ``q_mgr`` as ``user`` (the identity authority checks use); MQCONNX
        with ``cno``, whose connection tag is serialized in the group (a tag held by a
        failed member whose peer recovery waits for the facility is not usable)."""
        qm = self._qm(q_mgr)
        if not qm.alive:
            raise qm.unavailable()
        delayed = self._unrecovered
        conn = await qm.dispatch(
            lambda now: qm.rules.connect(user=user or "qsg", cno=cno, delayed=delayed)
        )
        return Connection(qm, conn)

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
        await self._resume_held(qm)
        self.command_servers.restarted(qm)

    async def refresh_expiry(self, q_mgr: str, pattern: str = "*") -> int:
        """REFRESH QMGR TYPE(EXPIRY) NAME(pattern), issued on ``q_mgr``: scan the matching
        local queues now, and the matching shared queues of its QSG, "regardless of the
        setting of EXPRYINT" (IBM MQ, "REFRESH QMGR") and of who holds the expiry-scan
        lease, which allots the periodic scan only. A member that believes it holds the
        lease scans under its fencing token, as its periodic scan does (so a stale token
        is still refused); any other member, or one whose token proves stale, scans
        without one. Returns how many expired messages were discarded."""
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

    def audit(self) -> list[str]:
        """What the world's stores find wrong with their derived state
        (``MessageStore.audit``), each line naming the store: every queue manager's own,
        then each QSG's coupling facility, unless it failed and is not whole again (its
        failure is the run's to report, ``FacilityWatch``), is cut off, or its server is
        down or cannot be reached."""
        wrong = []
        for name, qm in self.qmgrs.items():
            wrong += [f"{name}'s store: {line}" for line in qm.rules.store.audit()]
        down = self.server is not None and not self.server.running
        if not self.watch.whole or self.link.cut_off or down:
            return wrong
        for qsg, store in self.cf_stores.items():
            try:
                found = store.audit()
            except MQMIError as error:
                if error.reason != CMQC.MQRC_CF_STRUC_FAILED:
                    raise
                continue  # unreachable at the end: the watch has heard of it
            wrong += [f"{qsg}'s coupling facility: {line}" for line in found]
        return wrong

    def final_state(self) -> FinalState:
        """Every queue's messages now, read from the stores and changing nothing (no
        MQGET, no expiry, no lock): each queue manager's own queues, the living and the
        killed (a killed one's persistent messages wait on its page set for its restart;
        its units of work in flight come back then), and each QSG's shared queues, read
        from the coupling facility itself unless it failed or is cut off (then named in
        ``unread``). Called where the world's calls are made (its task's greenback
        portal, for a facility reached through the trio transport)."""
        places: dict[bytes, str] = {}
        unread: dict[str, str] = {}
        stores = [(name, qm.rules.local.status, qm.rules.store) for name, qm in self.qmgrs.items()]
        down = self.server is not None and not self.server.running
        for qsg, group in self.qsgs.items():
            why = self.link.cut_off or ("its server is down" if down else "")
            if why:
                unread[qsg] = f"{qsg}'s coupling facility: {why}"
            else:
                stores.append((qsg, group.shared.status, self.cf_stores[qsg]))
        for owner, queues, store in stores:
            try:
                for queue in sorted(queues):
                    for msg_id in store.contents(queue):
                        places.setdefault(msg_id, f"{owner} {queue}")
            except MQMIError as error:
                if error.reason != CMQC.MQRC_CF_STRUC_FAILED:
                    raise
                unread[owner] = f"{owner}'s coupling facility: {error}"
        return FinalState(trio.current_time(), places, unread)

    def conname(self, q_mgr: str) -> str:
        """The CONNAME a sender in another process uses to reach ``q_mgr``'s listener."""
        listener = self._qm(q_mgr).listener
        if listener is None:
            raise ValueError(f"{q_mgr} has no channel listener (Topology.add_qmgr listener=)")
        return f"{listener[0]}({listener[1]})"


@asynccontextmanager
async def open_world(
    topology: Topology,
    *,
    redis_url: str | None = None,
    seed: int = 0,
    in_process: bool = False,
    keep_events: bool = True,
    faults: bool = False,
    history: bool = False,
    cf_persistent: bool = False,
    only: str | None = None,
    events: EventLog | None = None,
) -> AsyncIterator[World]:
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

    With ``QSG_AUDIT_STORES`` set (``AUDIT_VARIABLE``; the test suite sets it), a world
    that ends cleanly audits its stores once its queue managers have stopped
    (``World.audit``) and fails with an AssertionError naming what it found.
    """
    async with AsyncExitStack() as stack:
        stack.enter_context(determinism.seeded_scheduling(seed))
        server = None
        link: CFLink = InProcess()
        if topology.qsgs and not in_process:
            url = redis_url or configured_url()
            if url is None:
                server = EmbeddedServer(persistent=cf_persistent)
                server.start()
                stack.callback(server.stop)
                url = server.url
            else:
                url_options(url)  # a URL naming no server: a plain ValueError, here
            link = await _link(url, stack, persistent=cf_persistent)
        if events is None:
            events = EventLog(keep=keep_events)
        stack.callback(events.close)
        world = World(
            topology,
            seed=seed,
            events=events,
            link=link,
            faults=faults,
            history=history,
            server=server,
        )
        await _build(world, only)
        async with trio.open_nursery() as nursery:
            world._nursery = nursery
            if world.link.remote:  # only a server fails on its own: in process, no watch
                await nursery.start(world.watch.run)
            for qm in world.qmgrs.values():
                await nursery.start(qm.run)
            for qm in world.qmgrs.values():  # every partner is up: channels start
                qm.start_channels()
            await world.start_shared_channels()
            ended = False
            try:
                yield world
                ended = True
            finally:
                world.stopping = True  # a clean stop: the scanners give their leases up
                nursery.cancel_scope.cancel()
                # A paused member is woken to stop, as a service manager's stop sends
                # SIGCONT after SIGTERM: its clean-ups (shielded: a lease given up, a
                # batch backed out) would otherwise wait for a resume that never comes.
                for qm in world.qmgrs.values():
                    qm.wake()
        if ended and os.environ.get(AUDIT_VARIABLE):
            if world.link.bridged:  # the facility's calls go through the trio transport
                await greenback.ensure_portal()
            wrong = world.audit()
            if wrong:
                raise AssertionError(
                    "the world's stores disagree with what they hold at its end:\n"
                    + "\n".join(wrong)
                )


async def _link(url: str, stack: AsyncExitStack, *, persistent: bool = False) -> OnServer:
    """The world's link to the facility at ``url`` (``_transport``), open until ``stack``
    closes, the facilities' own servers it starts stopped after the world. Through the
    trio transport the facilities' own transports live in a nursery of the link's, each
    watched by the virtual clock as the group's is."""
    transport = await _transport(url, stack)
    if not isinstance(transport, TrioTransport):
        link = OnServer(transport, persistent=persistent)
    else:
        nursery = await stack.enter_async_context(trio.open_nursery())
        stack.callback(nursery.cancel_scope.cancel)  # its transports' tasks, at the end
        clock = current_virtual_clock()
        watch = partial(_watch_clock, clock, stack) if clock is not None else None
        link = OnServer(transport, nursery, watch, persistent=persistent)
    stack.push_async_callback(link.aclose)
    return link


async def _transport(url: str, stack: AsyncExitStack) -> TrioTransport | DirectTransport:
    """The world's transport to the facility, open until ``stack`` closes.

    Under the virtual clock, blocking calls from the trio thread (``coupling.direct``):
    simulated time stands still during a call anyway, so nothing is lost by holding the
    thread, and the trio transport's tasks and greenback cost more than the round trip.
    Under the wall clock (multi-process runs, ``--wall-clock``) a blocking call would
    hold every other task back while the server answers (a whole ``socket_timeout``
    when it is silent): the trio transport then, whose calls suspend only their task."""
    clock = current_virtual_clock()
    if clock is not None and os.environ.get(TRANSPORT_VARIABLE, "") != "trio":
        return stack.enter_context(DirectTransport.open(url))
    watch = None
    if clock is not None:  # watched from before it connects; unwatched after
        watch = partial(_watch_clock, clock, stack)
    return await stack.enter_async_context(TrioTransport.open(url, watch=watch))


#: Set to ``trio``, the world takes the trio transport under the virtual clock too: the
#: benchmarks' reference, and the tests that pin both transports.
TRANSPORT_VARIABLE = "QSG_CF_TRANSPORT"
#: Set (to anything), every world that ends cleanly audits its stores (``open_world``).
AUDIT_VARIABLE = "QSG_AUDIT_STORES"


def _watch_clock(clock: VirtualClock, stack: AsyncExitStack, transport: TrioTransport) -> None:
    """Freeze ``clock`` while ``transport`` is busy, until ``stack`` closes."""
    clock.watch(transport)
    stack.callback(clock.unwatch, transport)


def _structure_of(world: World, qsg: str, queue: str) -> str | None:
    """The CF structure of ``qsg``'s shared queue ``queue`` (None: no such queue)."""
    definition = world.qsgs[qsg].shared.queues.get(queue)
    return definition.cf_struct if isinstance(definition, QueueDefinition) else None


async def _build(world: World, only: str | None = None) -> None:
    """The queue managers of the topology (or ``only`` one), their QSGs and their MQSC
    definitions."""
    topology = world.topology
    if only is not None and only not in topology.qmgrs:
        raise ValueError(f"no queue manager {only} in the topology")
    await world.link.open(list(topology.qsgs), clear=only is None)
    for name in topology.qsgs:
        admin = world.link.store(name, world.watch.failed)
        facilities = topology.facilities.get(name, (DEFAULT_FACILITY,))
        stores = {
            f: world.link.facility_store(name, f, admin, world.watch.failed)
            if len(facilities) > 1
            else admin
            for f in facilities
        }
        router = world.routers[name] = Router(
            Placement(facilities), stores, admin, joining=only is not None
        )
        world.placements[name] = router.placement
        # With one facility the router stands aside: the group's calls go to its store.
        store: MessageStore = router if len(facilities) > 1 else admin
        world.cf_stores[name] = store
        repository = GroupRepository(world.link.repository_store(name))
        guarded = guard(store, world.reach, name, partial(_structure_of, world, name))
        group = world.qsgs[name] = QueueSharingGroup(
            name,
            store=guarded,
            repository=repository,
            channel_status=world.link.channel_status(name),
        )
        router.definition = group.shared.structures.get
    for group in world.qsgs.values():
        group.repository.joining = only is not None
    built = topology.build(world.qsgs, world.rules_event)
    for group in world.qsgs.values():
        group.repository.joining = False
        if only is not None:  # the other members run in other processes: not here
            group.active = {m: q for m, q in group.active.items() if m == only}
    for name, rules in built.items():
        if only is not None and name != only:
            continue  # another process runs it
        spec = topology.qmgrs[name]
        command_server.define_queues(rules)
        world.qmgrs[name] = QueueManager(
            world,
            rules,
            listener=spec.listener,
            connect_timeout=spec.connect_timeout,
            group_host=spec.group_host,
        )
    for name in topology.qsgs:
        world.placement(name)  # each structure allocated in its facilities (and duplexed)


__all__ = ["AUDIT_VARIABLE", "TRANSPORT_VARIABLE", "World", "open_world"]
