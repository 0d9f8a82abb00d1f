"""The summary of a run, computed from its events alone (so a run's Parquet event log,
read back, gives the same summary).

Per queue (a shared queue once for its QSG, a local queue per queue manager) and per
queue manager: messages put (by applications, delivered by channel agents, and, for a
queue, the reports that arrived on it), got (MQGETs that returned a message, browses not
counted: a get backed out and got again counts twice), expired and discarded, expiration
reports, dead-lettered, errors, the peak of the sampled depth, and the latency from the
message's first MQPUT anywhere to its MQGET, as the mean, p50 and p99 in simulated
seconds (nearest-rank percentiles); a queue's row adds its throughput: MQGETs a second
over the seconds counted (``totals.seconds``: from the warm-up's end, or the run's
start, to the last event; ``totals.throughput`` is the run's). A queue where nothing
happened (no message, no depth, no error) has no row. A queue manager's peak depth is of
its local queues (``peak_local_depth``): a shared queue's depth is the QSG's, in its own
row. Errors are counted and, in ``error_reasons``, broken down by reason code with IBM's
name, per queue (the queue the application's calls name), per queue manager and per
application (``applications``: each workload that had errors). Then the channels
(batches, messages, bytes, deliveries, expiries in transit, how many messages the
receiver had delivered whose batch the sender had not yet seen confirmed when the run
ended, and how much the Expiry of delivered messages counted down against the time that
passed), the lease holders in order, the requesters' round trips, the faults
(``refused``: the world said no), and each CF structure's peak usage, time to full and
how long it lasts in an outage (``structures``: ``qsg.scenario.sizing``), and each
workload's own figures on each queue it put to or got from, for queues several classes
of application share (``classes``: ``qsg.scenario.classes``).

A warm-up (``[run] warmup``: ``since``, the trio time it ends) keeps the start-up
transient out of every statistic: a put, get, expiry, report, error, depth sample,
channel batch or reply before it is not counted, and a latency counts only for a
message put after it (the steady state's waits, not the empty queue's). The events
are still in the run's event log, at their times; the lease holders and the faults are
listed whenever they happened (they are the run's record, not statistics), and
``totals.warmup`` says how many seconds were left out.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from actors.events import (
    ApplicationError,
    CFFailed,
    ChannelBatch,
    ChannelDelivered,
    CommandRun,
    DepthSampled,
    ExpiredInTransit,
    FaultInjected,
    LeaseChanged,
    MessageGot,
    MessagePut,
    QMgrKilled,
    QMgrRestarted,
    QMgrStatistics,
    ReplyReceived,
    WorldEvent,
)
from actors.statistics import VERBS
from qsg.core.errors import reason_name
from qsg.core.events import DeadLettered, Discarded, ReportPut
from qsg.scenario.classes import tally
from qsg.scenario.sizing import sized


@dataclass(frozen=True, slots=True)
class Scopes:
    """Which queue manager is in which QSG (``members``) and each QSG's shared queues:
    a shared queue's events at any member are one queue's. ``structures`` gives each
    QSG's CF structures: their SIZE (``size_kb``) and the shared queues in each
    (``queues``), for the pipeline's structure usage."""

    members: dict[str, str] = field(default_factory=dict)
    shared: dict[str, list[str]] = field(default_factory=dict)
    structures: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)

    def scope(self, q_mgr: str, queue: str) -> str:
        """The QSG for a shared queue, else the queue manager."""
        qsg = self.members.get(q_mgr)
        if qsg is not None and queue in self.shared.get(qsg, ()):
            return qsg
        return q_mgr

    def scoper(self) -> dict[tuple[str, str], str]:
        """``scope`` by ``(q_mgr, queue)``, each answer remembered: a summary asks for
        every message's put and get, of a handful of queues (the shared lists are
        searched once each, and a known answer is a dict lookup, not a call)."""
        return _Scoped(self)


class _Scoped(dict[tuple[str, str], str]):
    """``Scopes.scoper``'s memory: a key not yet asked is answered by ``scope``."""

    def __init__(self, scopes: Scopes) -> None:
        super().__init__()
        self.scopes = scopes

    def __missing__(self, key: tuple[str, str]) -> str:
        where = self[key] = self.scopes.scope(*key)
        return where


def rank(p: float, n: int) -> int:
    """The nearest rank (1-based) of the ``p`` quantile (0 < p <= 1) among ``n`` values."""
    return max(1, math.ceil(p * n))


def percentile(values: list[float], p: float) -> float | None:
    """The nearest-rank ``p``-th percentile of ``values`` (None if there are none)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[rank(p / 100, len(ordered)) - 1]


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _counts(row: _Row | _Channel, skip: tuple[str, ...]) -> dict[str, Any]:
    """A row's fields but those in ``skip`` (``asdict`` would deep-copy the lists of
    samples, a float at a time: a twentieth of a long run's wall time)."""
    return {f.name: getattr(row, f.name) for f in fields(row) if f.name not in skip}


def error_reasons(reasons: Counter[int]) -> list[dict[str, Any]]:
    """Counts of errors by reason code, most frequent first, each with IBM's name."""
    return [
        {"reason": reason, "name": reason_name(reason), "count": count}
        for reason, count in sorted(reasons.items(), key=lambda rc: (-rc[1], rc[0]))
    ]


#: Events that are the run's record, listed whenever they happened (a warm-up or not).
_RECORDS = (LeaseChanged, FaultInjected, CFFailed, QMgrKilled, QMgrRestarted)
#: Their kinds in the event log: what a warm-up leaves in (the run's record, not statistics).
RECORD_KINDS: tuple[str, ...] = tuple(c.kind for c in _RECORDS)

#: The counts that make a queue's row worth having.
_ACTIVITY = ("put", "got", "expired", "reports", "dead_lettered", "errors", "peak_depth")


@dataclass(slots=True)
class _Row:
    put: int = 0
    got: int = 0
    expired: int = 0
    reports: int = 0
    dead_lettered: int = 0
    errors: int = 0
    peak_depth: int = 0
    latencies: list[float] = field(default_factory=list)
    reasons: Counter[int] = field(default_factory=Counter)

    def active(self) -> bool:
        return any(getattr(self, name) for name in _ACTIVITY)

    def out(self, **names: Any) -> dict[str, Any]:
        row = {**names, **_counts(self, ("latencies", "reasons"))}
        row["latency_mean"] = _mean(self.latencies)
        row["latency_p50"] = percentile(self.latencies, 50)
        row["latency_p99"] = percentile(self.latencies, 99)
        row["error_reasons"] = error_reasons(self.reasons)
        return row


@dataclass(slots=True)
class _Channel:
    sender: str = ""
    batches: int = 0
    messages: int = 0
    bytes: int = 0
    delivered: int = 0
    expired_in_transit: int = 0
    #: Seconds the sending MCA spent on its batches (first MQGET to commit).
    busy_seconds: float = 0.0
    #: Per delivered message with an Expiry: seconds its Expiry counted down between
    #: its MQPUT and its delivery, and the simulated seconds that passed meanwhile.
    counted: list[float] = field(default_factory=list)
    elapsed: list[float] = field(default_factory=list)

    def out(self, name: str, seconds: float) -> dict[str, Any]:
        """The channel's row; ``seconds``: the run's length counted (after a warm-up)."""
        row = _counts(self, ("counted", "elapsed"))
        row = {"channel": name, **row}
        # AverageBatchSize, as MQ's channel statistics name it; the sender's busy
        # fraction: its batches' time over the run's (MQ has no one field for it).
        row["average_batch_size"] = self.messages / self.batches if self.batches else None
        row["busy"] = self.busy_seconds / seconds if seconds > 0 else None
        # The receiver emits its deliveries when it commits a batch; the sender counts
        # the batch's messages only when the receiver's confirmation is back. What the
        # run's end caught in between was delivered but not yet confirmed.
        row["in_flight_at_end"] = max(0, self.delivered + self.expired_in_transit - self.messages)
        row["expiry_counted_mean"] = _mean(self.counted)
        row["elapsed_mean"] = _mean(self.elapsed)
        return row


@dataclass(slots=True)
class Summary:
    """Tables of plain values (JSON as it is): ``queues``, ``qmgrs``, ``channels``,
    ``leases``, ``requesters``, ``faults``, and ``totals``; ``commands``: the MQSC
    commands ``[[at]]`` ran, with their replies."""

    queues: list[dict[str, Any]]
    qmgrs: list[dict[str, Any]]
    channels: list[dict[str, Any]]
    leases: list[dict[str, Any]]
    requesters: list[dict[str, Any]]
    faults: list[dict[str, Any]]
    totals: dict[str, Any]
    applications: list[dict[str, Any]] = field(default_factory=list)
    commands: list[dict[str, Any]] = field(default_factory=list)
    #: Each CF structure's peak usage, time to full and outages (``qsg.scenario.sizing``).
    structures: list[dict[str, Any]] = field(default_factory=list)
    #: Each workload's own figures on each queue it put to or got from
    #: (``qsg.scenario.classes``).
    classes: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Summary:
        return cls(**data)

    def queue(self, scope: str, name: str) -> dict[str, Any]:
        """The row of one queue (KeyError if the run never saw it)."""
        for row in self.queues:
            if row["scope"] == scope and row["queue"] == name:
                return row
        raise KeyError(f"{scope}/{name}")

    def qmgr(self, name: str) -> dict[str, Any]:
        for row in self.qmgrs:
            if row["q_mgr"] == name:
                return row
        raise KeyError(name)


def summarise(
    events: Iterable[WorldEvent], scopes: Scopes, since: float = -math.inf, warmup: float = 0.0
) -> Summary:
    """The summary of a run's ``events`` (in the order they happened), counting only
    what happened from ``since`` on (the end of a ``warmup`` of that many seconds)."""
    queues: dict[tuple[str, str], _Row] = defaultdict(_Row)
    qmgrs: dict[str, _Row] = defaultdict(_Row)
    first_put: dict[bytes, float] = {}
    put_expiry: dict[bytes, int] = {}
    channels: dict[str, _Channel] = defaultdict(_Channel)
    discarded_from: dict[bytes, tuple[str, str]] = {}
    leases: list[dict[str, Any]] = []
    faults: list[dict[str, Any]] = []
    commands: list[dict[str, Any]] = []
    trips: dict[str, list[float | None]] = defaultdict(list)
    apps: dict[tuple[str, str, str], Counter[int]] = defaultdict(Counter)
    totals: dict[str, Any] = defaultdict(int)
    work: dict[str, Counter[str]] = defaultdict(Counter)  # the QMgrStatistics, summed
    cpus: dict[str, int] = {}
    last = 0.0
    events = list(events)
    scope = scopes.scoper()
    for e in events:
        if e.time > last:
            last = e.time
        if e.time < since and not isinstance(e, _RECORDS):
            # Its time is kept: a latency is counted only from a put after the warm-up.
            if isinstance(e, MessagePut | ChannelDelivered):
                first_put.setdefault(e.msg_id, e.time)
            if isinstance(e, MessagePut):
                put_expiry.setdefault(e.msg_id, e.expiry)
            continue
        if isinstance(e, MessagePut | ChannelDelivered):
            key = (scope[e.q_mgr, e.queue], e.queue)
            queues[key].put += 1
            qmgrs[e.q_mgr].put += 1
            first_put.setdefault(e.msg_id, e.time)
            if isinstance(e, MessagePut):
                totals["put"] += 1
                put_expiry.setdefault(e.msg_id, e.expiry)
            else:
                totals["delivered"] += 1
                channel = channels[e.channel]
                channel.delivered += 1
                began, expiry = first_put.get(e.msg_id), put_expiry.get(e.msg_id, -1)
                if began is not None and expiry > 0:  # Expiry counted down on the way
                    channel.counted.append((expiry - e.expiry) / 10)
                    channel.elapsed.append(e.time - began)
        elif isinstance(e, ChannelBatch):
            channel = channels[e.channel]
            channel.sender = e.q_mgr
            channel.batches += 1
            channel.messages += e.messages
            channel.bytes += e.size
            channel.busy_seconds += e.busy
        elif isinstance(e, MessageGot):
            if e.browse:
                continue
            key = (scope[e.q_mgr, e.queue], e.queue)
            queues[key].got += 1
            qmgrs[e.q_mgr].got += 1
            totals["got"] += 1
            began = first_put.get(e.msg_id)
            if began is not None and began >= since:
                queues[key].latencies.append(e.time - began)
                qmgrs[e.q_mgr].latencies.append(e.time - began)
        elif isinstance(e, Discarded):
            key = (scope[e.q_mgr, e.queue], e.queue)
            queues[key].expired += 1
            qmgrs[e.q_mgr].expired += 1
            discarded_from[e.msg_id] = key
            totals["expired"] += 1
        elif isinstance(e, ExpiredInTransit):
            channels[e.channel].expired_in_transit += 1
            qmgrs[e.q_mgr].expired += 1
            totals["expired_in_transit"] += 1
        elif isinstance(e, ReportPut):
            queues[(scope[e.q_mgr, e.queue], e.queue)].put += 1  # it arrives there
            qmgrs[e.q_mgr].reports += 1
            origin = discarded_from.get(e.original_msg_id)
            if origin is not None:
                queues[origin].reports += 1
            totals["reports"] += 1
        elif isinstance(e, DeadLettered):
            queues[(scope[e.q_mgr, e.queue], e.queue)].dead_lettered += 1
            qmgrs[e.q_mgr].dead_lettered += 1
            totals["dead_lettered"] += 1
        elif isinstance(e, ApplicationError):
            # On the queue the failing call named (its QSG's row for a shared queue), as
            # on its queue manager and its application.
            for row in (queues[(scope[e.q_mgr, e.queue], e.queue)], qmgrs[e.q_mgr]):
                row.errors += 1
                row.reasons[e.reason] += 1
            apps[(e.app.rsplit("#", 1)[0], e.q_mgr, e.queue)][e.reason] += 1
            totals["errors"] += 1
        elif isinstance(e, DepthSampled):
            key = (e.q_mgr if not e.shared else scopes.members.get(e.q_mgr, e.q_mgr), e.queue)
            row = queues[key]
            row.peak_depth = max(row.peak_depth, e.depth)
            if not e.shared:
                qmgrs[e.q_mgr].peak_depth = max(qmgrs[e.q_mgr].peak_depth, e.depth)
        elif isinstance(e, LeaseChanged):
            leases.append(
                {
                    "time": e.time,
                    "role": e.role,
                    "holder": e.q_mgr,
                    "token": e.token,
                    "previous": e.previous,
                }
            )
        elif isinstance(e, ReplyReceived):
            trips[e.app.rsplit("#", 1)[0]].append(e.round_trip)
        elif isinstance(e, FaultInjected):
            faults.append(
                {
                    "time": e.time,
                    "action": e.action,
                    "target": e.target,
                    "q_mgr": e.q_mgr,
                    "detail": e.detail,
                    "refused": e.refused,
                }
            )
        elif isinstance(e, CFFailed):
            totals["cf_failures"] += 1
            if not e.scheduled:  # a scheduled one is its fault's doing, already a row
                faults.append(
                    {
                        "time": e.time,
                        "action": "cf_failed",
                        "target": e.qsg,
                        "q_mgr": e.q_mgr,
                        "detail": f"not scheduled: {e.reason} {e.detail}",
                        "refused": False,
                    }
                )
        elif isinstance(e, CommandRun):
            commands.append(
                {
                    "time": e.time,
                    "q_mgr": e.q_mgr,
                    "command": e.command,
                    "completed": e.completed,
                    "response": e.response,
                }
            )
        elif isinstance(e, QMgrStatistics):
            cpus[e.q_mgr] = e.cpus
            for name in _STATISTICS:
                work[e.q_mgr][name] += getattr(e, name)
        elif isinstance(e, QMgrKilled):
            totals["kills"] += 1
        elif isinstance(e, QMgrRestarted):
            totals["restarts"] += 1
    totals["end"] = last
    if warmup:
        totals["warmup"] = warmup
    # The seconds the figures cover: from the warm-up's end (else the run's start, 0 on
    # either clock) to the last event; throughput is the MQGETs counted over them.
    seconds = last - max(since, 0.0)
    totals["seconds"] = seconds
    totals["throughput"] = totals["got"] / seconds if seconds > 0 else None
    requesters = []
    for app, values in sorted(trips.items()):
        done = [v for v in values if v is not None]
        requesters.append(
            {
                "workload": app,
                "requests": len(values),
                "replies": len(done),
                "timeouts": len(values) - len(done),
                "round_trip_p50": percentile(done, 50),
                "round_trip_p99": percentile(done, 99),
            }
        )
    applications = [
        {
            "workload": app,
            "q_mgr": q_mgr,
            "queue": queue,
            "errors": sum(reasons.values()),
            "error_reasons": error_reasons(reasons),
        }
        for (app, q_mgr, queue), reasons in sorted(apps.items())
    ]
    return Summary(
        queues=[
            {
                **row.out(scope=s, queue=q, shared=s in scopes.shared),
                "throughput": row.got / seconds if seconds > 0 else None,
            }
            for (s, q), row in sorted(queues.items())
            if row.active()
        ],
        qmgrs=[
            _utilisation(_local_depth(row.out(q_mgr=name)), work.get(name), cpus.get(name))
            for name, row in sorted(qmgrs.items())
        ],
        channels=[c.out(name, seconds) for name, c in sorted(channels.items())],
        leases=leases,
        requesters=requesters,
        faults=faults,
        totals=dict(sorted(totals.items())),
        applications=applications,
        commands=commands,
        structures=sized([e for e in events if e.time >= since or isinstance(e, _RECORDS)], scopes),
        classes=[
            {
                "scope": where,
                "queue": queue,
                "role": role,
                "workload": app,
                "messages": c.messages,
                "size_mean": c.bytes / c.messages if c.messages else None,
                "persistent": c.persistent / c.messages if c.messages else None,
                "latency_mean": _mean(c.latencies),
                "latency_p50": percentile(c.latencies, 50),
                "latency_p99": percentile(c.latencies, 99),
            }
            for (role, app, where, queue), c in tally(events, scope, since).items()
        ],
    )


#: The fields of QMgrStatistics that are summed over a run's intervals.
_STATISTICS = ("interval", "cpu_seconds", *VERBS, "cf_accesses", "smds_writes", "smds_reads")


def _utilisation(
    row: dict[str, Any],
    work: Counter[str] | None,
    cpus: int | None,
) -> dict[str, Any]:
    """A queue manager's row with its utilisation: ``cpu_busy``, the fraction of its
    processors' time the calls cost (cpu_seconds / (seconds x cpus)), calls a second by
    verb (``mqput_per_second``...), CF accesses a second and SMDS accesses a second
    (offloaded messages written and read)."""
    if not work or not work["interval"] or not cpus:
        return row
    seconds = work["interval"]
    row["cpu_busy"] = work["cpu_seconds"] / (seconds * cpus)
    for verb in VERBS:
        row[f"{verb}_per_second"] = work[verb] / seconds
    row["cf_accesses_per_second"] = work["cf_accesses"] / seconds
    row["smds_writes_per_second"] = work["smds_writes"] / seconds
    row["smds_reads_per_second"] = work["smds_reads"] / seconds
    return row


def _local_depth(row: dict[str, Any]) -> dict[str, Any]:
    """A queue manager's row: its peak depth is of its local queues, and says so."""
    return {("peak_local_depth" if k == "peak_depth" else k): v for k, v in row.items()}


__all__ = ["RECORD_KINDS", "Scopes", "Summary", "error_reasons", "percentile", "rank", "summarise"]
