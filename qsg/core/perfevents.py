"""Performance events: queue depth and queue service interval events, as IBM decides
them, and their event messages on SYSTEM.ADMIN.PERFM.EVENT.

Only while the queue manager's PERFMEV is ENABLED does it count, per queue, what the
event data reports (IBM: "Performance event statistics": TimeSinceReset, HighQDepth,
MsgEnqCount, MsgDeqCount, since the statistics were last reset); with it DISABLED a put
or get pays nothing here. The depth is the queue's, uncommitted puts included, and
MQPUT and MQGET in a unit of work generate events whether it commits or not (IBM:
"Performance events").

Queue depth events (IBM: "Enabling queue depth events"; "Queue depth events: example 2",
whose table of enabled events is the test): a put that brings the depth to QDEPTHHI per
cent of MAXDEPTH or more, with QDPHIEV enabled, is a Queue Depth High event, which
disables itself and enables Queue Depth Low and Queue Full; a get (on z/OS also a get
that finds its message expired) that brings it to QDEPTHLO per cent or less, with
QDPLOEV enabled, is a Queue Depth Low event, which disables itself and enables Queue
Depth High and Queue Full; a put refused with MQRC_Q_FULL, with QDPMAXEV enabled, is a
Queue Full event, which disables itself and enables Queue Depth Low. The switches are
the queue's attributes: the queue manager changes the definition.

Shared queues (IBM: "Shared queues and queue depth events on z/OS"): the member that
detected the event updates the shared definition and becomes the coordinating queue
manager; it issues its event message with a new CorrelId, and every other member of the
group with PERFMEV enabled issues one with the same CorrelId and its own statistics for
the queue (zero where it did nothing: a "null event message"). Service interval events
are not supported on shared queues, as on z/OS.

Queue service interval events (IBM: "Rules for queue service interval events"): the
service timer starts at a put to an empty queue and restarts at a get that leaves the
queue not empty; a get that empties it turns the timer off. With QSVCIEV(HIGH), a put or
get that finds the timer running longer than QSVCINT is a Queue Service Interval High
event, which switches QSVCIEV to OK; with QSVCIEV(OK), a get within QSVCINT is a Queue
Service Interval OK event, which switches it to HIGH.

Every event resets the statistics of the queue manager that issued it (IBM: "statistics
are reset on all active queue managers").
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Protocol

from qsg import CMQC, CMQCFC
from qsg.core import eventmsg
from qsg.core.engine import QMgrRules
from qsg.core.errors import MQMIError
from qsg.core.events import Event, EventMessagePut
from qsg.core.queue import QueueDefinition
from qsg.core.repository import Repository
from qsg.core.structs import MD

_ON, _OFF = CMQCFC.MQEVR_ENABLED, CMQCFC.MQEVR_DISABLED


@dataclass(slots=True)
class QueueStatistics:
    """What one queue manager has counted for one queue since its statistics were last
    reset, and the queue's service timer (None: OFF)."""

    reset_at: float
    high_depth: int = 0
    enqueued: int = 0  # MsgEnqCount
    dequeued: int = 0  # MsgDeqCount
    service_timer: float | None = None

    def reset(self, now: float, depth: int) -> None:
        self.reset_at, self.high_depth, self.enqueued, self.dequeued = now, depth, 0, 0


class PerformanceQueueManager(Protocol):
    """What the performance event rules use of a queue manager (``QMgr``): its name and
    rules (platform, MsgId generator), its PERFMEV switch and statistics, and its own
    put, by which event messages go to the event queue."""

    @property
    def name(self) -> str: ...
    @property
    def rules(self) -> QMgrRules: ...

    performance_event: int
    queue_statistics: dict[str, QueueStatistics]
    #: When its statistics began: the queue manager's start.
    statistics_since: float

    def put_system(self, queue: str, md: MD, body: bytes, now: float) -> str: ...
    def emit(self, event: Event) -> None: ...


class EventGroup(Protocol):
    """The queue-sharing group as the coordinating queue manager sees it: the members
    that issue their own event message for a shared queue's depth event."""

    @property
    def event_members(self) -> dict[str, PerformanceQueueManager]: ...


def statistics(qm: PerformanceQueueManager, queue: str) -> QueueStatistics:
    """The statistics ``qm`` keeps for ``queue``: from its start, if none were reset."""
    found = qm.queue_statistics.get(queue)
    if found is None:
        found = qm.queue_statistics[queue] = QueueStatistics(qm.statistics_since)
    return found


def after_put(
    qm: PerformanceQueueManager,
    repo: Repository,
    qdef: QueueDefinition,
    now: float,
    group: EventGroup | None = None,
) -> None:
    """A message was put to ``qdef`` (in a unit of work or not)."""
    if qdef.name in eventmsg.EVENT_QUEUES:
        return
    depth = repo.store.depth(qdef.name)
    stats = statistics(qm, qdef.name)
    stats.enqueued += 1
    stats.high_depth = max(stats.high_depth, depth)
    if qdef.q_depth_high_event == _ON and depth * 100 >= qdef.q_depth_high_limit * qdef.max_depth:
        _fire(
            qm,
            repo,
            qdef,
            CMQC.MQRC_Q_DEPTH_HIGH,
            {"q_depth_high_event": _OFF, "q_depth_low_event": _ON, "q_depth_max_event": _ON},
            depth,
            now,
            group,
        )
        qdef = repo.local(qdef.name)
    if not qdef.is_shared:
        if (
            qdef.q_service_interval_event == CMQCFC.MQQSIE_HIGH
            and stats.service_timer is not None
            and _elapsed_ms(stats.service_timer, now) > qdef.q_service_interval
        ):
            _service_event(qm, repo, qdef, CMQC.MQRC_Q_SERVICE_INTERVAL_HIGH, depth, now)
        if depth == 1:  # a put to an empty queue starts the service timer
            stats.service_timer = now


def put_refused(
    qm: PerformanceQueueManager,
    repo: Repository,
    qdef: QueueDefinition,
    error: MQMIError,
    now: float,
    group: EventGroup | None = None,
) -> None:
    """A put to ``qdef`` ended with ``error``: a warning still stored its message; a
    full queue may be a Queue Full event."""
    if error.comp == CMQC.MQCC_WARNING:
        after_put(qm, repo, qdef, now, group)
    elif (
        error.reason == CMQC.MQRC_Q_FULL
        and qdef.q_depth_max_event == _ON
        and qdef.name not in eventmsg.EVENT_QUEUES
    ):
        depth = repo.store.depth(qdef.name)
        _fire(
            qm,
            repo,
            qdef,
            CMQC.MQRC_Q_FULL,
            {"q_depth_max_event": _OFF, "q_depth_low_event": _ON},
            depth,
            now,
            group,
        )


def after_get(
    qm: PerformanceQueueManager,
    repo: Repository,
    qdef: QueueDefinition,
    got: bool,
    now: float,
    group: EventGroup | None = None,
) -> None:
    """A get removed a message from ``qdef`` (``got``), or only discarded expired ones
    on its way: on z/OS either lowers the depth a Queue Depth Low event watches."""
    if qdef.name in eventmsg.EVENT_QUEUES:
        return
    depth = repo.store.depth(qdef.name)
    stats = statistics(qm, qdef.name)
    if got:
        stats.dequeued += 1
    if qdef.q_depth_low_event == _ON and depth * 100 <= qdef.q_depth_low_limit * qdef.max_depth:
        _fire(
            qm,
            repo,
            qdef,
            CMQC.MQRC_Q_DEPTH_LOW,
            {"q_depth_low_event": _OFF, "q_depth_high_event": _ON, "q_depth_max_event": _ON},
            depth,
            now,
            group,
        )
        qdef = repo.local(qdef.name)
    if qdef.is_shared or not got:
        return
    timer = stats.service_timer
    if timer is not None:
        late = _elapsed_ms(timer, now) > qdef.q_service_interval
        wanted = qdef.q_service_interval_event
        if wanted == CMQCFC.MQQSIE_HIGH and late:
            _service_event(qm, repo, qdef, CMQC.MQRC_Q_SERVICE_INTERVAL_HIGH, depth, now)
        elif wanted == CMQCFC.MQQSIE_OK and not late:
            _service_event(qm, repo, qdef, CMQC.MQRC_Q_SERVICE_INTERVAL_OK, depth, now)
    stats.service_timer = now if depth else None


def _elapsed_ms(since: float, now: float) -> float:
    return (now - since) * 1000.0


def _service_event(
    qm: PerformanceQueueManager,
    repo: Repository,
    qdef: QueueDefinition,
    reason: int,
    depth: int,
    now: float,
) -> None:
    """A service interval event: High switches QSVCIEV to OK, OK to HIGH."""
    other = CMQCFC.MQQSIE_OK if reason == CMQC.MQRC_Q_SERVICE_INTERVAL_HIGH else CMQCFC.MQQSIE_HIGH
    _fire(qm, repo, qdef, reason, {"q_service_interval_event": other}, depth, now, None)


def _fire(
    qm: PerformanceQueueManager,
    repo: Repository,
    qdef: QueueDefinition,
    reason: int,
    switches: dict[str, int],
    depth: int,
    now: float,
    group: EventGroup | None,
) -> None:
    """An event: the queue's switches changed in its definition (the shared one, for a
    shared queue), then the event message of ``qm`` and, for a shared queue, of every
    other member with PERFMEV enabled, under one CorrelId."""
    repo.add_queue(dataclasses.replace(qdef, **switches), replace=True)  # type: ignore[arg-type]
    if not qdef.is_shared or group is None:
        issue(qm, qdef.name, reason, depth, now)
        return
    correl_id = qm.rules.new_msg_id()
    issue(qm, qdef.name, reason, depth, now, correl_id)
    for name, member in group.event_members.items():
        if name != qm.name and member.performance_event == _ON:
            issue(member, qdef.name, reason, depth, now, correl_id)


def issue(
    qm: PerformanceQueueManager,
    queue: str,
    reason: int,
    depth: int,
    now: float,
    correl_id: bytes = CMQC.MQCI_NONE,
) -> None:
    """Put ``qm``'s event message for ``queue`` on SYSTEM.ADMIN.PERFM.EVENT and reset its
    statistics. An event queue that is not there, or refuses the put, loses the message:
    no other event comes of it (IBM: "Performance events")."""
    stats = statistics(qm, queue)
    platform = qm.rules.platform
    data = eventmsg.body(
        CMQCFC.MQCMD_PERFM_EVENT,
        reason,
        [
            (CMQC.MQCA_Q_MGR_NAME, qm.name, 48),
            (CMQC.MQCA_BASE_Q_NAME, queue, 48),
            (CMQC.MQIA_TIME_SINCE_RESET, int(now - stats.reset_at)),
            (CMQC.MQIA_HIGH_Q_DEPTH, stats.high_depth),
            (CMQC.MQIA_MSG_ENQ_COUNT, stats.enqueued),
            (CMQC.MQIA_MSG_DEQ_COUNT, stats.dequeued),
        ],
        platform,
    )
    stats.reset(now, depth)
    md = eventmsg.descriptor(qm.name, platform, correl_id)
    try:
        put = qm.put_system(eventmsg.PERFM_EVENT_QUEUE, md, data, now)
    except MQMIError:
        return
    qm.emit(EventMessagePut(now, qm.name, put, md.MsgId, reason, queue))


__all__ = [
    "EventGroup",
    "PerformanceQueueManager",
    "QueueStatistics",
    "after_get",
    "after_put",
    "issue",
    "put_refused",
    "statistics",
]
