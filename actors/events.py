"""The event stream: what happened in a running world, a closed set of tagged records.

Every record is frozen and carries the simulated ``time`` and the queue manager it
happened at; its ``kind`` (a class constant) is the tag a log or a Parquet column keeps.
The rules layer's own records (discards, reports, dead-lettering) are part of the set.
``EventLog`` keeps the history of a run and hands every event to each subscriber.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import ClassVar

import trio

from qsg.core.events import (
    DeadLettered,
    Discarded,
    EventMessagePut,
    ReportLost,
    ReportPut,
    TriggerMessagePut,
)


@dataclass(frozen=True, slots=True)
class MessagePut:
    """MQPUT or MQPUT1 succeeded (in syncpoint, the put is visible once committed)."""

    kind: ClassVar[str] = "put"
    time: float
    q_mgr: str
    queue: str  # the resolved local queue (a transmission queue for a remote one)
    msg_id: bytes
    size: int
    persistent: bool  # as the rules decided it (MQPER_PERSISTENCE_AS_Q_DEF resolved)
    syncpoint: bool  # put in the unit of work (as the rules decided it)
    expiry: int  # the Expiry put, in tenths (-1 unlimited)
    app: str = ""  # the putting application: its connection's user (a workload's name)


@dataclass(frozen=True, slots=True)
class MessageGot:
    """MQGET returned a message (``browse``: a browse did, and it stays on the queue)."""

    kind: ClassVar[str] = "get"
    time: float
    q_mgr: str
    queue: str
    msg_id: bytes
    size: int
    syncpoint: bool  # got in the unit of work (as the rules decided it)
    browse: bool
    expiry: int  # the remaining Expiry returned
    persistent: bool = False  # the message's Persistence was MQPER_PERSISTENT
    app: str = ""  # the getting application: its connection's user (a workload's name)


@dataclass(frozen=True, slots=True)
class UnitOfWorkEnded:
    """MQCMIT or MQBACK of a connection's unit of work (``committed`` says which)."""

    kind: ClassVar[str] = "uow"
    time: float
    q_mgr: str
    connection: int
    committed: bool


@dataclass(frozen=True, slots=True)
class ChannelBatch:
    """A channel committed a batch on both sides: ``messages`` moved, ``size`` bytes;
    ``busy``: the seconds the sending MCA spent on it, from its first MQGET of the
    transmission queue to its commit (the batch's trip and confirmation included)."""

    kind: ClassVar[str] = "batch"
    time: float
    q_mgr: str  # the sending queue manager
    channel: str
    sequence: int
    messages: int
    size: int
    busy: float = 0.0


@dataclass(frozen=True, slots=True)
class ChannelDelivered:
    """A receiving channel agent put a message to its target queue."""

    kind: ClassVar[str] = "delivered"
    time: float
    q_mgr: str  # the receiving queue manager
    channel: str
    queue: str
    msg_id: bytes
    size: int
    expiry: int  # the remaining Expiry it was put with


@dataclass(frozen=True, slots=True)
class ExpiredInTransit:
    """A message's lifetime ran out on the channel: discarded at the receiver."""

    kind: ClassVar[str] = "expired-in-transit"
    time: float
    q_mgr: str
    channel: str
    msg_id: bytes


@dataclass(frozen=True, slots=True)
class ChannelStateChanged:
    """A channel agent's state: INACTIVE, BINDING, RUNNING, RETRYING or STOPPED."""

    kind: ClassVar[str] = "channel-state"
    time: float
    q_mgr: str
    channel: str
    state: str
    detail: str = ""  # why: the error, or STOP CHANNEL


@dataclass(frozen=True, slots=True)
class LeaseChanged:
    """A member took a lease (``previous``: who held it before, or None)."""

    kind: ClassVar[str] = "lease"
    time: float
    q_mgr: str  # the new holder
    role: str
    token: int
    previous: str | None


@dataclass(frozen=True, slots=True)
class ExpiryScanned:
    """An expiry scan ran: EXPRYINT's, a REFRESH QMGR TYPE(EXPIRY), or at restart."""

    kind: ClassVar[str] = "scan"
    time: float
    q_mgr: str
    shared: bool  # the QSG's shared queues (by the lease holder; REFRESH: by its issuer)
    pattern: str
    discarded: int
    cause: str  # "EXPRYINT", "REFRESH" or "restart"
    token: int = 0  # a shared EXPRYINT scan: the fencing token of its lease (REFRESH: 0)


@dataclass(frozen=True, slots=True)
class QMgrKilled:
    kind: ClassVar[str] = "kill"
    time: float
    q_mgr: str


@dataclass(frozen=True, slots=True)
class QMgrRestarted:
    kind: ClassVar[str] = "restart"
    time: float
    q_mgr: str
    incarnation: int


@dataclass(frozen=True, slots=True)
class PeerRecovered:
    """A member (``q_mgr``) backed out a failed member's units of work on shared queues."""

    kind: ClassVar[str] = "peer-recovery"
    time: float
    q_mgr: str
    failed: str
    units: int


@dataclass(frozen=True, slots=True)
class ChannelRecovered:
    """Peer channel recovery: a member (``q_mgr``) looked for the shared channels a
    failed member (``failed``) ran, ``found`` of them, ``fixshared`` left for that
    member (FIXSHARED), ``restarted`` in the group (CSQM052I's "r recovered", named
    apart from ``CFRecovered.recovered``, a flag); ``line`` is CSQM052I."""

    kind: ClassVar[str] = "channel-recovery"
    time: float
    q_mgr: str
    failed: str
    found: int
    fixshared: int
    restarted: int
    line: str


@dataclass(frozen=True, slots=True)
class CFFailed:
    """The coupling facility of ``qsg`` failed as a member's call met it: ``reason`` is
    the reason code the call got (MQRC_CF_STRUC_FAILED: gone, silent or without its
    structures; MQRC_STORAGE_MEDIUM_FULL: the server is at its maxmemory;
    MQRC_CF_STRUC_IN_USE: still loading its data), ``detail`` why. ``scheduled``: a
    fault of the run (``cf_fail``, ``cf_unavailable``) explains it. One event per
    failure, not per call that met it."""

    kind: ClassVar[str] = "cf-failure"
    time: float
    q_mgr: str
    qsg: str
    reason: int
    detail: str
    scheduled: bool


@dataclass(frozen=True, slots=True)
class CFRecovered:
    """The coupling facility came back after a failure and ``structure`` of ``qsg`` was
    recovered (RECOVER CFSTRUCT): its ``queues`` (comma-separated) kept their persistent
    messages if ``recovered`` (RECOVER(YES) and a server that kept its state), nothing
    otherwise; ``lost`` messages went; ``units`` units of work in flight were backed out."""

    kind: ClassVar[str] = "cf-recovery"
    time: float
    q_mgr: str
    qsg: str
    structure: str
    queues: str
    recovered: bool
    lost: int
    units: int


@dataclass(frozen=True, slots=True)
class DepthSampled:
    """CURDEPTH of a queue, sampled by a scenario run (``shared``: a shared queue,
    sampled once for its QSG through ``q_mgr``)."""

    kind: ClassVar[str] = "depth"
    time: float
    q_mgr: str
    queue: str
    depth: int
    shared: bool


@dataclass(frozen=True, slots=True)
class QMgrStatistics:
    """A queue manager's work over the last ``interval`` seconds, as its SMF 115 message
    manager statistics record it at each STATIME interval (here each sample interval):
    MQI calls by verb (``other``: MQCONN, MQDISC), the processor seconds they cost
    (``cpu_per_call`` each, plus ``cf_access`` for a call on a shared queue) on its
    ``cpus`` processors, the accesses to the coupling facility, and those to shared
    message data sets: offloaded messages written (put) and read (got or browsed)."""

    kind: ClassVar[str] = "qmgr-statistics"
    time: float
    q_mgr: str
    interval: float
    cpus: int
    cpu_seconds: float
    mqopen: int
    mqclose: int
    mqget: int
    mqput: int
    mqput1: int
    mqinq: int
    mqset: int
    mqcmit: int
    mqback: int
    other: int
    cf_accesses: int
    smds_writes: int = 0
    smds_reads: int = 0


@dataclass(frozen=True, slots=True)
class ApplicationError:
    """An MQI call of a scenario's application failed with ``reason`` (MQRC_*)."""

    kind: ClassVar[str] = "app-error"
    time: float
    q_mgr: str
    app: str
    queue: str
    reason: int


@dataclass(frozen=True, slots=True)
class ReplyReceived:
    """A requester got the reply to its request ``msg_id`` after ``round_trip`` seconds
    (``round_trip`` None: no reply within its timeout)."""

    kind: ClassVar[str] = "reply"
    time: float
    q_mgr: str
    app: str
    queue: str  # the reply queue
    msg_id: bytes
    round_trip: float | None


@dataclass(frozen=True, slots=True)
class FaultInjected:
    """A scheduled fault: ``action`` on ``target`` (a queue manager, a channel, the CF)."""

    kind: ClassVar[str] = "fault"
    time: float
    q_mgr: str
    action: str
    target: str
    detail: str = ""  # why it could not be done, if it could not (or what it did)
    refused: bool = False  # the world refused it: ``detail`` says why


@dataclass(frozen=True, slots=True)
class OpInvoked:
    """A client operation began (the history of a chaos run): ``op`` is "put", "get",
    "commit" or "backout". A put names the MsgId the client chose, and its persistence,
    expiry and report options as put; ``syncpoint``: inside a unit of work."""

    kind: ClassVar[str] = "invoke"
    time: float
    q_mgr: str
    app: str
    op: str
    queue: str
    msg_id: bytes = b""
    persistent: bool = False
    expiry: int = -1
    report: int = 0
    syncpoint: bool = False


@dataclass(frozen=True, slots=True)
class OpCompleted:
    """A client operation ended: ``outcome`` "ok", "fail" (MQ said no: ``reason``) or
    "unknown" (the call was cut off by a fault: it may or may not have happened). A get
    that returned a message names it, with the remaining ``expiry``, its group and
    sequence number and its BackoutCount."""

    kind: ClassVar[str] = "complete"
    time: float
    q_mgr: str
    app: str
    op: str
    queue: str
    outcome: str
    reason: int = 0
    msg_id: bytes = b""
    expiry: int = -1
    group_id: bytes = b""
    seq: int = 0
    backout_count: int = 0


@dataclass(frozen=True, slots=True)
class CommandRun:
    """An MQSC command a scenario's ``[[at]]`` ran on a queue manager, and its reply
    (the reply's lines joined by newlines); ``completed`` False when it failed (as
    runmqsc counts failures)."""

    kind: ClassVar[str] = "mqsc"
    time: float
    q_mgr: str
    command: str
    response: str
    completed: bool


@dataclass(frozen=True, slots=True)
class CommandFailed:
    """A command, from any console, ``[[at]]`` or the command server, failed inside
    the queue manager with an unexpected error (a defect of the simulator, not a refusal
    MQ would give): it was answered CSQ9023E (PCF: MQRCCF_COMMAND_FAILED) and the run
    went on. ``command`` is the MQSC text, or ``PCF MQCMD_<name> (<number>)``;
    ``detail`` the traceback."""

    kind: ClassVar[str] = "command-failed"
    time: float
    q_mgr: str
    command: str
    detail: str


WorldEvent = (
    Discarded
    | ReportPut
    | DeadLettered
    | ReportLost
    | TriggerMessagePut
    | EventMessagePut
    | MessagePut
    | MessageGot
    | UnitOfWorkEnded
    | ChannelBatch
    | ChannelDelivered
    | ExpiredInTransit
    | ChannelStateChanged
    | LeaseChanged
    | ExpiryScanned
    | QMgrKilled
    | QMgrRestarted
    | PeerRecovered
    | ChannelRecovered
    | CFRecovered
    | CFFailed
    | DepthSampled
    | QMgrStatistics
    | ApplicationError
    | ReplyReceived
    | FaultInjected
    | OpInvoked
    | OpCompleted
    | CommandRun
    | CommandFailed
)


def kind_of(event: WorldEvent) -> str:
    """The tag of any event, the rules layer's included."""
    return getattr(event, "kind", type(event).__name__.lower())


_NO_QUEUE: frozenset[str] = frozenset()


class EventLog:
    """The events of one run, in the order they happened.

    ``keep`` False keeps no history (long runs that only subscribers watch).
    Subscribers get every event from their subscription on; a subscriber that stopped
    listening (closed its end) is dropped.
    """

    def __init__(
        self, *, keep: bool = True, sink: Callable[[WorldEvent], None] | None = None
    ) -> None:
        self.keep = keep
        self.history: list[WorldEvent] = []
        self._subscribers: list[trio.MemorySendChannel[WorldEvent]] = []
        #: Called with every event as it is emitted, before anything else can run: a
        #: process that may be killed at any moment writes its history there.
        self.sink = sink
        #: Called with every event, as the sink is: the world's own books (the channel
        #: status board DISPLAY CHSTATUS reads) keep up this way, with no task.
        self.listeners: list[Callable[[WorldEvent], None]] = []
        #: Listeners of some kinds of event only, by the event's class, each with the
        #: one queue it reads those events of, or None for all (``listen``).
        self._listeners_of: dict[type, list[tuple[Callable[[WorldEvent], None], str | None]]] = {}
        #: The queues whose events of a class some listener hears (None: every queue).
        self._heard: dict[type, frozenset[str] | None] = {}

    def listen(
        self, listener: Callable[[WorldEvent], None], *kinds: type, queue: str | None = None
    ) -> None:
        """Call ``listener`` with every event of exactly these classes (of ``queue`` only,
        when named: the events must have a ``queue``), as ``listeners`` are called: a
        book that reads two kinds of event is not called for every message put and got
        (the world's events have no subclasses)."""
        for kind in kinds:
            self._listeners_of.setdefault(kind, []).append((listener, queue))
            heard = self._heard.get(kind, frozenset())
            self._heard[kind] = None if heard is None or queue is None else heard | {queue}

    def wanted(self, kind: type, queue: str) -> bool:
        """Whether an event of class ``kind`` about ``queue`` would reach anyone: kept in
        the history, written to the sink, or heard by a listener or a subscriber. A
        world that keeps no history and that nobody watches makes no record of each
        message put and got (a tenth of a message's cost in process)."""
        if self.keep or self.sink is not None or self.listeners or self._subscribers:
            return True
        heard = self._heard.get(kind, _NO_QUEUE)
        return heard is None or queue in heard

    def emit(self, event: WorldEvent) -> None:
        if self.sink is not None:
            self.sink(event)
        for listener in self.listeners:
            listener(event)
        chosen = self._listeners_of.get(type(event))
        if chosen is not None:
            for listener, queue in chosen:
                if queue is None or queue == getattr(event, "queue", None):
                    listener(event)
        if self.keep:
            self.history.append(event)
        if not self._subscribers:
            return
        for send in list(self._subscribers):  # a copy: a closed one is taken off
            try:
                send.send_nowait(event)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                self._subscribers.remove(send)

    def subscribe(self) -> trio.MemoryReceiveChannel[WorldEvent]:
        """A channel of the events from now on; it ends when the world stops. Unbounded:
        the simulation never waits for a slow subscriber."""
        send, receive = trio.open_memory_channel[WorldEvent](math.inf)
        self._subscribers.append(send)
        return receive

    def close(self) -> None:
        for send in self._subscribers:
            send.close()
        self._subscribers.clear()

    def of(self, *kinds: type) -> list[WorldEvent]:
        """The history's events of these types."""
        return [e for e in self.history if isinstance(e, kinds)]

    def __iter__(self) -> Iterator[WorldEvent]:
        return iter(self.history)

    def __len__(self) -> int:
        return len(self.history)


__all__ = [
    "ApplicationError",
    "CFFailed",
    "CFRecovered",
    "ChannelBatch",
    "ChannelDelivered",
    "ChannelStateChanged",
    "CommandFailed",
    "CommandRun",
    "DepthSampled",
    "EventLog",
    "ExpiredInTransit",
    "ExpiryScanned",
    "FaultInjected",
    "LeaseChanged",
    "MessageGot",
    "MessagePut",
    "OpCompleted",
    "OpInvoked",
    "PeerRecovered",
    "QMgrKilled",
    "QMgrRestarted",
    "QMgrStatistics",
    "ReplyReceived",
    "UnitOfWorkEnded",
    "WorldEvent",
    "kind_of",
]
