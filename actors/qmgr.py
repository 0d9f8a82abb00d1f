"""The queue-manager actor: one simulated queue manager's life, its work and its mailbox.

The MQ rules are the rules layer's ``QMgr`` (synchronous, taking ``now``); this actor
gives it a life in trio. Its nursery holds the queue manager's own tasks: the mailbox
(commands from the world: REFRESH QMGR, peer recovery), the expiry scanner, the
channel agents and, in a group that defines SYSTEM.QSG.TRANSMIT.QUEUE, the
intra-group queuing agent (``actors/igq.py``). A kill cancels them all at once; a
restart starts a new life.

MQI calls run in the calling application's task, not in the mailbox's, as on z/OS,
where an MQ call runs under the caller's TCB in the queue manager's address space.
``dispatch`` is that entry: it checks the queue manager is up, charges the model's CPU
(and CF access) cost in simulated time, and runs the rules. With the coupling facility
on Redis through the trio transport (under the wall clock) a rules call can wait for the
server while other tasks run, so calls of one queue manager are taken one at a time (the
dispatcher lock) and shielded: a kill lands between MQ calls, never inside one, as a
store primitive is atomic anyway. Under the virtual clock the facility's calls block the
trio thread (``coupling.direct``): a rules call then runs whole, as in process.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol, TypeVar

import greenback
import trio

from actors import channel, clock, expiry, igq, wire
from actors.cflink import CFLink
from actors.channel import ChannelNetwork, ChannelSync
from actors.events import ChannelStateChanged, PeerRecovered, QMgrKilled, QMgrRestarted
from actors.expiry import ScanCoordinator
from actors.mqi import ApplicationWorld
from actors.processors import Processors
from actors.program import CLOCKED, IMMEDIATE, TASK
from actors.reach import CALLER, Reach
from actors.statistics import MessageManagerStatistics
from coupling.lease import Grant
from qsg import CMQC
from qsg.core import chlevents, chltypes
from qsg.core.errors import MQMIError
from qsg.core.objects import ChannelDefinition
from qsg.core.qmgr import QMgr

T = TypeVar("T")


class Host(ChannelNetwork, ScanCoordinator, ApplicationWorld, Protocol):
    """What a queue manager, and the MQI calls it dispatches, use of the world it runs in
    (``World``): what its channels, its expiry scanner and the MQI use
    (``ChannelNetwork``, ``ScanCoordinator``, ``ApplicationWorld``), and the link to the
    coupling facility, whose reach a fault can cut."""

    @property
    def link(self) -> CFLink: ...
    @property
    def reach(self) -> Reach | None: ...


@dataclass(slots=True)
class _Request:
    command: Callable[[], Awaitable[Any]]
    done: trio.Event = field(default_factory=trio.Event)
    result: Any = None
    error: BaseException | None = None


@dataclass(slots=True)
class _Agent:
    """A running sender channel agent: its cancel scope, whether it has ended, and
    whether it is a shared channel's instance (its status in the group's)."""

    scope: trio.CancelScope = field(default_factory=trio.CancelScope)
    ended: trio.Event = field(default_factory=trio.Event)
    shared: bool = False


class QueueManager:
    """A queue manager of a running world (``rules`` is its rules-layer ``QMgr``)."""

    def __init__(
        self,
        world: Host,
        rules: QMgr,
        *,
        listener: tuple[str, int] | None = None,
        connect_timeout: float | None = None,
        group_host: str | None = None,
    ) -> None:
        self.world = world
        #: Where its channel listener accepts TCP connections from senders in other
        #: processes: (host, port), port 0 until the first life binds one.
        self.listener = listener
        #: Seconds a channel may take to connect and start, either end (docs/channels.md).
        self.connect_timeout = wire.CONNECT_TIMEOUT if connect_timeout is None else connect_timeout
        self.rules = rules
        self.name = rules.name
        self.alive = False
        #: Its rules' calls reach the coupling facility through the trio transport, and
        #: so may wait for it (``CFLink.bridged``; the world's link is fixed for its life).
        self.bridged = world.link.bridged
        self.lock = trio.Lock()
        #: Its processors, on which each MQI call's model cost is charged (a new life
        #: starts with them idle).
        self.processors = Processors(world.costs.cpus)
        #: Its MQI calls by verb and their cost, taken at each sample interval.
        self.statistics = MessageManagerStatistics()
        self.syncq: dict[str, ChannelSync] = {}
        self.expiry_grant: Grant | None = None  # the expiry-scan lease, while held
        self.channels: dict[str, _Agent] = {}  # the sender agents of this life
        #: The network link of each running sender channel (a fault can break it).
        self.links: dict[str, trio.abc.Stream] = {}
        #: The running receiving agent of each channel, by name, with its partner's
        #: address: one instance of a channel at a time (AMQ9514E for a second).
        self.receivers: dict[str, str] = {}
        #: The cancel scopes of the running receiving agents: a channel initiator that
        #: stops or fails ends them.
        self.inbound: set[trio.CancelScope] = set()
        #: Whether its channel initiator runs (STOP CHINIT, or its failure, stops it;
        #: START CHINIT and a restart of the queue manager start it).
        self.chinit = True
        #: Whether it runs a group listener (START LISTENER INDISP(GROUP)): it takes
        #: connections to its group's address. Kept across its lives, as the start
        #: commands of its CSQINPX would start it again; down while it or its channel
        #: initiator is.
        self.group_listener = False
        #: Where its group listener takes TCP connections, in a run of members in
        #: separate processes (``actors.groupaddress``): the host its group port binds
        #: (any free port); None in process, where the group's address is the world's.
        self.group_host = group_host
        #: While this life serves its group port: the port's scope and its address.
        self.group_port: tuple[trio.CancelScope, str] | None = None
        #: Whether this life runs its intra-group queuing agent (``start_igq_agent``).
        self.igq_agent = False
        #: The model cost of the SMDS accesses of the last step on a shared queue, for
        #: ``dispatch`` to charge after it.
        self.smds_owed = 0.0
        #: Set while the queue manager is paused; set() wakes it.
        self.paused: trio.Event | None = None
        #: Seconds its clock runs ahead of the others' (for its lease).
        self.skew = 0.0
        self._scope: trio.CancelScope | None = None
        self._mailbox: trio.MemorySendChannel[_Request] | None = None
        self._nursery: trio.Nursery | None = None
        self._life_over = trio.Event()

    @property
    def incarnation(self) -> int:
        return self.rules.incarnation

    @property
    def takes_group_connections(self) -> bool:
        """Whether a connection to its group's address may be handed to it: its group
        listener runs, and so do it and its channel initiator, unpaused."""
        return self.group_listener and self.alive and self.chinit and self.paused is None

    @property
    def nursery(self) -> trio.Nursery:
        """The nursery of this life: the queue manager's tasks (its channel agents too)."""
        if self._nursery is None:
            raise self.unavailable()
        return self._nursery

    # ---- a life -----------------------------------------------------------------------
    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """One life of the queue manager, until it is killed or the world stops."""
        send, receive = trio.open_memory_channel[_Request](64)
        over = self._life_over = trio.Event()
        with trio.CancelScope() as scope:
            self._scope = scope
            async with trio.open_nursery() as nursery:
                self._nursery, self._mailbox = nursery, send
                self.channels = {}  # the agents of an earlier life went with it
                self.inbound = set()
                self.group_port = None  # an earlier life's port went with its nursery
                self.chinit = True
                self.processors = Processors(self.world.costs.cpus)
                self.alive = True
                nursery.start_soon(self._serve, receive)
                await nursery.start(expiry.scan_periodically, self)
                self.igq_agent = False
                self.start_igq_agent()  # if its group defines SYSTEM.QSG.TRANSMIT.QUEUE
                if self.listener is not None:
                    await self._listen(nursery)
                task_status.started()
        if self._nursery is nursery:  # not already replaced by a later life
            self._nursery = self._mailbox = None
        over.set()

    async def _listen(self, nursery: trio.Nursery) -> None:
        """The channel listener (START LISTENER TRPTYPE(TCP)): a receiving agent for each
        sender that connects. A restart listens on the port the first life bound."""
        assert self.listener is not None
        host, port = self.listener
        serve = partial(trio.serve_tcp, partial(channel.run_receiver, self), port, host=host)
        listeners = await nursery.start(serve)
        self.listener = (host, listeners[0].socket.getsockname()[1])

    def start_igq_agent(self) -> bool:
        """Start this life's intra-group queuing agent (``actors/igq.py``) if its group
        defines SYSTEM.QSG.TRANSMIT.QUEUE and none runs yet: at the life's start, and
        when the queue is defined while the member runs (a DEFINE on any member:
        ``actors.admin`` and the command server call every member). Whether it did."""
        if not self.alive or self.igq_agent or not igq.wanted(self.rules):
            return False
        self.igq_agent = True
        igq.start(self, self.nursery)
        return True

    # ---- channels ---------------------------------------------------------------------
    def start_channels(self) -> None:
        """Start every private sender channel (the world does, once partners are up;
        a shared one, whose transmission queue is shared, the world starts once in the
        group, ``actors.world_channels``)."""
        for definition in self.rules.local.channels.values():
            if self.starts_at_once(definition) and not self.xmitq_shared(definition):
                self.start_channel(definition.name)

    @staticmethod
    def starts_at_once(definition: ChannelDefinition) -> bool:
        """Whether the world starts ``definition`` with the queue manager, as it starts
        its senders: a sender, or a server with a CONNAME ("fully qualified": it calls
        its requester as a sender calls). A requester, and a server only a requester
        can start, wait for START CHANNEL and for their requester."""
        kind = definition.channel_type
        return chltypes.sending(kind) and chltypes.callers(kind, definition.conn_name)

    def xmitq_shared(self, definition: ChannelDefinition) -> bool:
        """Whether ``definition``'s transmission queue is a shared queue of the group:
        then the channel is a shared channel."""
        group = self.rules.qsg
        return group is not None and definition.xmit_q_name in group.shared.queues

    def active_channels(self) -> int:
        """How many channels its channel initiator runs now (senders and receivers):
        its channel load's numerator."""
        running = sum(1 for a in self.channels.values() if not a.ended.is_set())
        return running + len(self.receivers)

    def start_channel(
        self,
        name: str,
        *,
        shared: bool = False,
        recovering: bool = False,
        link: wire.Frames | None = None,
    ) -> None:
        """START CHANNEL(name): run its sending agent in this life's nursery. One
        instance at a time: a channel whose agent runs (RUNNING, BINDING, RETRYING) is
        refused, as runmqsc answers, with AMQ9514E "Channel is in use"; one that
        stopped (STOP CHANNEL, or its retries exhausted) starts again. A ``shared``
        instance was claimed in the group's shared channel status by the caller
        (``actors.world_channels``); it gives its claim up when it ends, unless the
        queue manager or its channel initiator failed (then peer channel recovery
        takes it over). A server, a sender or a requester: a server a requester started
        sends on ``link``, the requester's connection (``channel.run_sender``); a
        requester asks its partner to start (``channel.run_requester``)."""
        definition = self.rules.local.channels.get(name)
        kinds = (CMQC.MQCHT_SENDER, CMQC.MQCHT_SERVER, CMQC.MQCHT_REQUESTER)
        if definition is None or definition.channel_type not in kinds:
            raise ValueError(f"{self.name} has no sender, server or requester channel {name}")
        if not self.chinit:
            raise ValueError(f"channel {name} of {self.name} cannot start: {self.chinit_down()}")
        running = self.channels.get(name)
        if running is not None and not running.scope.cancel_called and not running.ended.is_set():
            why = channel.in_use_line(name, "its sending agent runs")
            raise chltypes.ChannelInUseError(f"channel {name} of {self.name} is in use ({why})")
        agent = self.channels[name] = _Agent(shared=shared)

        async def sending() -> None:
            try:
                with agent.scope:
                    if definition.channel_type == CMQC.MQCHT_REQUESTER:
                        await channel.run_requester(self, definition)
                    else:
                        await channel.run_sender(
                            self, definition, shared=shared, recovering=recovering, link=link
                        )
            except MQMIError as error:
                # An MQ error the agent does not handle (its transmission queue gone, say:
                # a start no command checked) ends the channel as an MCA ends on one,
                # "ended abnormally" and STOPPED; the queue manager goes on.
                self._channel_ended_abnormally(definition, error)
            finally:
                agent.ended.set()
                if shared and self.alive and self.chinit and self.rules.qsg is not None:
                    # Ended here (stopped, retries exhausted): the group may start it
                    # anywhere again. Its failure keeps the claim for the recovery; a
                    # status out of reach keeps it too (this member's next start of it
                    # takes its own claim back, ``actors.world_channels``).
                    with contextlib.suppress(MQMIError):
                        self.rules.qsg.channel_status.release(name, self.name)

        self.nursery.start_soon(sending)

    def chinit_down(self) -> str:
        """Why no channel starts here while the channel initiator is down (CSQX...)."""
        return f"the channel initiator of {self.name} is not active"

    def _channel_ended_abnormally(self, definition: ChannelDefinition, error: MQMIError) -> None:
        why = (
            f"AMQ9999E: Channel '{definition.name}' to host '{definition.conn_name}' "
            f"ended abnormally: {error}"
        )
        wire.log.error("%s: %s", self.name, why)
        now = trio.current_time()
        self.world.events.emit(ChannelStateChanged(now, self.name, definition.name, "STOPPED", why))

    async def channel_ended(self, name: str) -> None:
        """Wait until the agent of ``name`` (if any) has ended."""
        agent = self.channels.get(name)
        if agent is not None and agent.scope.cancel_called:
            await agent.ended.wait()

    def stop_channel(self, name: str) -> None:
        """STOP CHANNEL(name): its agent ends; a batch not yet sent for good goes back
        to the transmission queue."""
        agent = self.channels.get(name)
        if agent is None or agent.scope.cancel_called:
            raise ValueError(f"channel {name} of {self.name} is not running")
        agent.scope.cancel()
        now = trio.current_time()
        self.world.events.emit(
            ChannelStateChanged(now, self.name, name, "STOPPED", chlevents.STOP_CHANNEL)
        )

    def kill(self) -> None:
        """Abrupt end: every task of this life stops at once; nothing is cleaned up."""
        if not self.alive:
            raise ValueError(f"queue manager {self.name} is not running")
        self.alive = False
        if self.rules.qsg is not None:  # GROUP commands send it no COPY command now
            self.rules.qsg.active.pop(self.name, None)
        self.wake()  # a paused queue manager can be killed: its waiting calls then fail
        assert self._scope is not None
        self._scope.cancel()
        self._nursery = self._mailbox = None
        self.world.events.emit(QMgrKilled(trio.current_time(), self.name))
        self.world.signals.notify_all()  # waiting gets learn their connection broke

    async def recover_and_restart(self) -> None:
        """Queue-manager start after a kill: its own shared units of work recovered if no
        peer did, local units backed out, nonpersistent local messages gone, temporary
        dynamic queues deleted, and expiry processed for every queue."""
        if self.alive:
            raise ValueError(f"queue manager {self.name} is already running")
        await self._life_over.wait()  # the tasks of the killed life have all ended
        rules, old = self.rules, self.rules.incarnation
        shared = rules.qsg.shared.store if rules.qsg is not None else None

        def restart(now: float) -> int:
            if shared is not None:
                shared.recover(self.name, old, self.name)
            rules.restart(incarnation=old + 1)
            rules.store.lose_nonpersistent()
            try:
                # Its COPY objects made again from the group's repository, as z/OS does
                # at start ("Managing group objects"; qsg.core.copies has the skip rules).
                rules.refresh_copies()
            except MQMIError as error:
                if error.reason != CMQC.MQRC_DB2_NOT_AVAILABLE:
                    raise
                # Db2 down: the copies stay as they were, refreshed at the next start.
            return rules.scan_expired(now)

        discarded = await self.dispatch(restart, system=True)
        now = trio.current_time()
        self.world.events.emit(QMgrRestarted(now, self.name, self.incarnation))
        self.world.note_scan(self, shared=False, pattern="*", discarded=discarded, cause="restart")
        if shared is not None:
            self.world.signals.notify_store(shared)

    # ---- the mailbox ------------------------------------------------------------------
    async def request(self, command: Callable[[], Awaitable[Any]]) -> Any:
        """Run ``command`` in the actor's own task, after what is already queued."""
        if self._mailbox is None:
            raise self.unavailable()
        request = _Request(command)
        await self._mailbox.send(request)
        await request.done.wait()
        if request.error is not None:
            raise request.error
        return request.result

    async def _serve(self, receive: trio.MemoryReceiveChannel[_Request]) -> None:
        if self.bridged:
            await greenback.ensure_portal()
        async for request in receive:
            try:
                request.result = await request.command()
            except MQMIError as error:  # an MQ failure goes back to the requester
                request.error = error
            finally:
                request.done.set()

    async def recover_peer(self, failed: str, incarnation: int) -> None:
        """Peer recovery of a failed member's units of work on the QSG's shared queues."""
        assert self.rules.qsg is not None
        store = self.rules.qsg.shared.store
        outcome = await self.dispatch(
            lambda now: self.rules.recover_peer(failed, incarnation), system=True
        )
        if outcome.ran:
            now = trio.current_time()
            self.world.events.emit(PeerRecovered(now, self.name, failed, outcome.units))
        self.world.signals.notify_store(store)

    # ---- the dispatcher ---------------------------------------------------------------
    # An MQI call is an admission, a step and, after it, the charge of its SMDS accesses.
    # ``dispatch`` admits it (it may wait), then makes the step (``dispatch_now``); when
    # ``immediate`` says the admission has nothing to wait for, ``dispatch_now`` is the
    # whole call.
    async def dispatch(
        self,
        call: Callable[[float], T],
        *,
        system: bool = False,
        shared: int = 0,
        verb: str = "other",
    ) -> T:
        """Run a rules-layer ``call(now)`` for this queue manager; see the module's
        docstring. ``system`` work (scans, recovery, restart) is charged nothing. While
        the queue manager is paused, every call waits here."""
        while self.paused is not None:
            await self.paused.wait()
        if not system:
            await self._admit(verb, shared)
        if self.bridged:
            result = await self._bridged(call, shared)
        else:
            result = self.dispatch_now(call, trio.current_time(), shared, None)
        if shared and self.smds_owed:
            await self._charge_smds()
        return result

    async def _admit(self, verb: str, shared: int) -> None:
        """An application's call let in (``admit``): the task sleeps until its model cost
        has been charged on one of the queue manager's processors, then the queue manager
        must still be up (``admitted``)."""
        now = trio.current_time()
        at = self.admit(now, verb, shared)
        if at != now:
            await clock.sleep_until(at)
            self.admitted()

    def admit(self, now: float, verb: str, shared: int) -> float:
        """An application's call let in at ``now``: the queue manager must be up; the
        call is counted, and its model cost (CPU, and CF access on a shared queue)
        charged on the processor free soonest (``Processors``). Returns when the cost
        has been paid, the time its step is made (``now`` when it costs nothing). The
        same for a task's call (``dispatch``) and the clock's (``actors.drive``)."""
        if not self.alive:
            raise MQMIError.failed(
                CMQC.MQRC_CONNECTION_BROKEN, f"queue manager {self.name} is not running"
            )
        costs = self.world.costs
        cost = costs.cpu_per_call + (costs.cf_access * shared if shared else 0.0)
        self.statistics.count(verb, cost, shared)
        return self.processors.reserve(now, cost) if cost else now

    def admitted(self) -> None:
        """A call's cost paid: the queue manager must still be up for its step (a kill
        while the call held a processor breaks the connection)."""
        if not self.alive:
            raise MQMIError.failed(
                CMQC.MQRC_CONNECTION_BROKEN, f"queue manager {self.name} stopped"
            )

    def dispatch_now(
        self, call: Callable[[float], T], now: float, shared: int, verb: str | None
    ) -> T:
        """The step of an MQI call, ``call(now)``: made at once, from a task or a timer
        of the virtual clock, when ``immediate`` says its admission has nothing to wait
        for (it is then counted as ``verb``, with nothing to charge), or by ``dispatch``
        once admitted (``verb`` None). The rules' time is set to ``now``, ``CALLER`` set
        when a coupling facility link can be lost, and the shared message data set
        accesses it made counted (``shared``: a call on a shared queue; only shared
        messages are offloaded), their model cost owed (``smds_owed``, set by every
        step on a shared queue; ``dispatch`` charges it after a step that returned)."""
        if verb is not None:  # ``Statistics.count(verb, 0.0, shared)``, unrolled (issue 41)
            statistics = self.statistics
            statistics.calls[verb] += 1
            statistics.cf_accesses += shared
        self.rules.time = now
        world = self.world
        reach = world.reach
        # Only a lost coupling facility link reads CALLER (``Reach.check``). A call that
        # runs to its end without a checkpoint cannot see a link lost during it, so
        # CALLER is set only while some member has lost its link, or when the call may
        # wait for the facility (bridged): its set and reset were a twentieth of a
        # driven message.
        caller = (
            CALLER.set(self.name)
            if self.bridged or (reach is not None and reach.any_lost)
            else None
        )
        group = self.rules.qsg if shared else None
        if group is None:
            if caller is None:
                return call(now)
            try:
                return call(now)
            finally:
                CALLER.reset(caller)
        store = group.shared.store
        writes, reads = store.smds_writes, store.smds_reads
        try:
            return call(now)
        finally:
            if caller is not None:
                CALLER.reset(caller)
            writes, reads = store.smds_writes - writes, store.smds_reads - reads
            if writes or reads:
                self.statistics.smds(writes, reads)
                costs = world.costs
                self.smds_owed = writes * costs.smds_write + reads * costs.smds_read
            else:
                self.smds_owed = 0.0

    async def _charge_smds(self) -> None:
        """The model's SMDS costs of the step just made: an I/O wait after the call, not
        processor time. (Taken with no checkpoint between the step and here: no other
        call's accesses can be among them.)"""
        owed, self.smds_owed = self.smds_owed, 0.0
        await clock.sleep(owed)

    async def _bridged(self, call: Callable[[float], T], shared: int) -> T:
        """The step (``dispatch_now``) through the trio transport, whose store calls
        wait for the server while other tasks run: through greenback's portal, one call
        of this queue manager at a time (the dispatcher lock), shielded (a kill lands
        between MQ calls, never inside one)."""
        if not greenback.has_portal():  # ensure_portal checkpoints even when it has one
            await greenback.ensure_portal()
        with trio.CancelScope(shield=True):
            lock = self.lock
            # Free (and so with no one queued: trio hands it to a waiter on release),
            # it is taken without a checkpoint, which would cost a pass of the loop.
            if lock.locked():
                await lock.acquire()
            else:
                lock.acquire_nowait()
            try:
                result = self.dispatch_now(call, trio.current_time(), shared, None)
            finally:
                lock.release()
        return result

    def clocked(self) -> bool:
        """Whether an MQI call can be made by the virtual clock's timers rather than a
        task (``actors.drive``): the queue manager is up and not paused, and its coupling
        facility is in process or called by blocking calls (simulated time stands still
        during a call, as no other task runs). Its model costs are times the clock
        keeps: the call's step is made when they have been paid (``admit``)."""
        return self.alive and self.paused is None and not self.bridged

    def immediate(self) -> bool:
        """Whether an MQI call would run at once, without a checkpoint: ``clocked``, and
        its calls cost no simulated time (``dispatch`` has nothing to wait for)."""
        return (
            self.alive
            and self.paused is None
            and not self.bridged
            and not self.world.costs.per_call  # CPU, CF access or SMDS costs
        )

    def admission(self) -> int:
        """``immediate`` and ``clocked`` in one call: ``IMMEDIATE``, ``CLOCKED`` or
        ``TASK`` (``actors.program``)."""
        if not self.alive or self.paused is not None or self.bridged:
            return TASK
        return CLOCKED if self.world.costs.per_call else IMMEDIATE

    def wake(self) -> None:
        """End a pause: the calls waiting in ``dispatch`` go on."""
        paused, self.paused = self.paused, None
        if paused is not None:
            paused.set()

    def unavailable(self) -> MQMIError:
        return MQMIError.failed(
            CMQC.MQRC_Q_MGR_NOT_AVAILABLE, f"queue manager {self.name} is not running"
        )


__all__ = ["ChannelSync", "QueueManager"]
