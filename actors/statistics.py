"""A queue manager's message manager statistics: its MQI calls by verb and what they cost.

Counted by the queue manager's dispatcher for every application call (system work,
scans and recovery, is not counted, as it is charged nothing) and taken, with the
counters reset, at each sample interval as a ``QMgrStatistics`` event: the interval
records of SMF 115's message manager statistics (QMSTOPEN, QMSTCLOS, QMSTGET, QMSTPUT,
QMSTPUT1, QMSTINQ, QMSTSET), with commits, backouts, the processor seconds charged,
the coupling facility accesses and the shared message data set accesses (offloaded
messages written and read) beside them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from actors.events import QMgrStatistics

#: The verbs counted, as the event's fields name them.
VERBS = (
    "mqopen",
    "mqclose",
    "mqget",
    "mqput",
    "mqput1",
    "mqinq",
    "mqset",
    "mqcmit",
    "mqback",
    "other",
)


@dataclass(slots=True)
class MessageManagerStatistics:
    """Counters since ``since`` (the last interval's end)."""

    since: float = 0.0
    cpu_seconds: float = 0.0
    cf_accesses: int = 0
    smds_writes: int = 0
    smds_reads: int = 0
    calls: dict[str, int] = field(default_factory=lambda: dict.fromkeys(VERBS, 0))

    def count(self, verb: str, cost: float, shared: int) -> None:
        """One application call of ``verb`` that cost ``cost`` processor seconds. (A call
        that costs nothing is counted by ``QueueManager.dispatch_now``, this unrolled.)"""
        self.calls[verb] += 1
        self.cpu_seconds += cost
        self.cf_accesses += shared

    def smds(self, writes: int, reads: int) -> None:
        """A call's accesses to shared message data sets."""
        self.smds_writes += writes
        self.smds_reads += reads

    def take(self, now: float, q_mgr: str, cpus: int) -> QMgrStatistics:
        """The interval's record, the counters reset for the next."""
        calls = self.calls
        record = QMgrStatistics(
            now,
            q_mgr,
            now - self.since,
            cpus,
            self.cpu_seconds,
            **calls,
            cf_accesses=self.cf_accesses,
            smds_writes=self.smds_writes,
            smds_reads=self.smds_reads,
        )
        self.since, self.cpu_seconds, self.cf_accesses = now, 0.0, 0
        self.smds_writes = self.smds_reads = 0
        self.calls = dict.fromkeys(VERBS, 0)
        return record


__all__ = ["VERBS", "MessageManagerStatistics"]
