"""The members' logs of a CF structure's persistent messages: the one home of the rules.

IBM MQ for z/OS logs every persistent MQPUT and MQGET on a shared queue in the log of
the queue manager that made it, and RECOVER CFSTRUCT "replays log records from every
member that did MQPUT/MQGET on queues in the structure since the backup" ("Recovering
shared queues"). qsg keeps that log as the calls are made, outside the structure (a
structure's failure leaves it whole): in process in the ``MemoryStore``'s memory, on a
server in the server, written by the same Lua script as the put, get or commit (the
server's scripts do what ``StructureLog`` does, record for record).

The log is kept netted: a committed persistent put writes a put record; a committed get
of a message whose put record is still in some member's log removes that record (the
two records are counted, as a real log would hold them, but neither is kept); a get of
a backed-up message writes a get record naming it. So the log holds at most one record
per message in the structure or in its backup, however long the run: the planner's hour
puts 7.2 million persistent messages, which a log kept whole would hold in memory. A
message that expires is dropped from the log the same way, without a record of its own
(a backed-up one comes back at a recovery and expires again at the next get).

``BACKUP CFSTRUCT`` truncates every member's log to the records after the backup's
point: the put records of messages younger than EXCLINT stay (they are not in the
backup), and the get records go (their messages are in no backup any more).
"""

from __future__ import annotations

from collections.abc import Hashable, Set
from dataclasses import dataclass, field
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


def member_of(uow: Hashable) -> str:
    """The queue manager whose unit of work ``uow`` is (named ``(queue manager,
    connection)``, or ``QM1/7`` as the facility spells it): the log its commit writes."""
    if isinstance(uow, tuple):
        return str(uow[0])
    return str(uow).split("/", 1)[0]


@dataclass(slots=True)
class StructureLog(Generic[K, V]):
    """Every member's log of one structure since its last backup, netted: the put
    records still standing (message place -> member and the message as put), the get
    records of backed-up messages (place -> member), and how many records each member
    wrote since the backup (LOGRECS: netted records included)."""

    puts: dict[K, tuple[str, V]] = field(default_factory=dict)
    gets: dict[K, str] = field(default_factory=dict)
    written: dict[str, int] = field(default_factory=dict)

    def put(self, member: str, place: K, kept: V) -> None:
        """``member`` committed a persistent put of ``kept`` at ``place``."""
        self.puts[place] = (member, kept)
        self.written[member] = self.written.get(member, 0) + 1

    def got(self, member: str, place: K, backed_up: bool) -> None:
        """``member`` committed a get of the persistent message at ``place``
        (``backed_up``: it is in the structure's backup)."""
        if self.puts.pop(place, None) is None:
            if not backed_up:
                return  # no record of it to answer (put before the log was kept)
            self.gets[place] = member
        self.written[member] = self.written.get(member, 0) + 1

    def expired(self, place: K) -> None:
        """The message at ``place`` expired and was discarded: its put record goes."""
        self.puts.pop(place, None)

    def truncate(self, backup: Set[K]) -> None:
        """BACKUP CFSTRUCT: keep only the records after the backup's point."""
        self.puts = {p: record for p, record in self.puts.items() if p not in backup}
        self.gets = {}
        written: dict[str, int] = {}
        for member, _ in self.puts.values():
            written[member] = written.get(member, 0) + 1
        self.written = written

    @property
    def records(self) -> int:
        """The log records a recovery reads (DISPLAY CFSTATUS TYPE(BACKUP)'s LOGRECS)."""
        return sum(self.written.values())

    @property
    def members(self) -> tuple[str, ...]:
        """The members whose logs hold records since the backup (LOGQMGRS)."""
        return tuple(sorted(m for m, n in self.written.items() if n))

    def kept_puts(self) -> dict[K, V]:
        """The messages the put records hold, by place."""
        return {place: kept for place, (_, kept) in self.puts.items()}
