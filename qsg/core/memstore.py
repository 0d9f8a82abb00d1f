"""The in-process message store: the store primitives over Python structures.

A queue keeps its visible messages as sorted integer keys. The key orders the queue:
for a priority queue ``(9 - priority) << 40 | seq``, for a FIFO queue ``seq`` (the same
score the coupling facility uses for its sorted sets). Getting the head is O(log n)
however deep the queue. Uncommitted puts and messages held by uncommitted gets are kept
out of the visible order, so a get never walks over them.

The expiry index is a heap of ``(expires_at, key)`` with lazy deletion, so a scan costs
what expired, not the depth.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable
from dataclasses import dataclass, field

from sortedcontainers import SortedList

from qsg import CMQC
from qsg.core.errors import MQMIError
from qsg.core.message import Message
from qsg.core.store import MATCH_ANY, Match, Ordering, Syncpoint, Taken, UowId

_PRIORITY_SHIFT = 40
_PUT, _GET = 0, 1


@dataclass(slots=True)
class _Queue:
    ordering: Ordering
    order: SortedList = field(default_factory=SortedList)  # visible keys
    msgs: dict[int, Message] = field(default_factory=dict)  # every message, by key
    pending: dict[int, Hashable] = field(default_factory=dict)  # uncommitted puts
    held: dict[int, Hashable] = field(default_factory=dict)  # uncommitted gets
    expiry: list[tuple[float, int]] = field(default_factory=list)  # heap
    depth: int = 0  # CURDEPTH: + put, + get backout, - get, - put backout, - discard
    next_seq: int = 0

    def key_of(self, msg: Message) -> int:
        if self.ordering is Ordering.FIFO:
            return msg.seq
        return ((9 - msg.priority) << _PRIORITY_SHIFT) | msg.seq

    def discard(self, key: int) -> Message:
        self.order.remove(key)
        self.depth -= 1
        return self.msgs.pop(key)

    def discard_head(self) -> Message:
        key = self.order.pop(0)
        self.depth -= 1
        return self.msgs.pop(key)


class MemoryStore:
    """The store primitives, in process. One instance per queue manager."""

    def __init__(self) -> None:
        self._queues: dict[str, _Queue] = {}
        self._uows: dict[Hashable, list[tuple[str, int, int]]] = {}

    # ---- queues ---------------------------------------------------------------
    def create_queue(self, queue: str, ordering: Ordering) -> None:
        if queue in self._queues:
            raise ValueError(f"queue {queue!r} already exists in this store")
        self._queues[queue] = _Queue(ordering)

    def delete_queue(self, queue: str) -> None:
        del self._queues[queue]

    def depth(self, queue: str) -> int:
        return self._queues[queue].depth

    # ---- put and get ----------------------------------------------------------
    def put(self, queue: str, msg: Message, uow: UowId | None, max_depth: int) -> None:
        q = self._queues[queue]
        if q.depth >= max_depth:
            raise MQMIError.failed(
                CMQC.MQRC_Q_FULL, f"queue {queue} is at its MAXDEPTH of {max_depth}"
            )
        q.next_seq += 1
        msg.seq = q.next_seq
        key = q.key_of(msg)
        q.msgs[key] = msg
        q.depth += 1
        if msg.expires_at is not None:
            heapq.heappush(q.expiry, (msg.expires_at, key))
            if len(q.expiry) > 2 * len(q.msgs) + 64:
                self._compact_expiry(q)
        if uow is None:
            q.order.add(key)
        else:
            q.pending[key] = uow
            self._uows.setdefault(uow, []).append((queue, key, _PUT))

    def get(
        self,
        queue: str,
        match: Match,
        now: float,
        uow: UowId | None,
        syncpoint: Syncpoint,
        max_length: int | None,
        accept_truncated: bool,
    ) -> Taken:
        q = self._queues[queue]
        found, discarded = self._first_live(q, 0, match, now)
        if found is None:
            return Taken(None, discarded)
        key, msg = found
        if max_length is not None and len(msg.body) > max_length and not accept_truncated:
            return Taken(msg, discarded, True, key)
        if q.order[0] == key:
            q.order.pop(0)
        else:
            q.order.remove(key)
        q.depth -= 1
        if uow is not None and (
            syncpoint is Syncpoint.YES or (syncpoint is Syncpoint.IF_PERSISTENT and msg.persistent)
        ):
            q.held[key] = uow
            self._uows.setdefault(uow, []).append((queue, key, _GET))
        else:
            del q.msgs[key]
        return Taken(msg, discarded, False, key)

    def browse(self, queue: str, after: int | None, match: Match, now: float) -> Taken:
        q = self._queues[queue]
        start = 0 if after is None else q.order.bisect_right(after)
        found, discarded = self._first_live(q, start, match, now)
        if found is None:
            return Taken(None, discarded, position=after)
        return Taken(found[1], discarded, position=found[0])

    def _first_live(
        self, q: _Queue, start: int, match: Match, now: float
    ) -> tuple[tuple[int, Message] | None, list[Message]]:
        """The first visible matching unexpired message from ``start`` in queue order.

        Expired matching messages met on the way are discarded: a get or browse discards
        exactly the expired messages it would have returned (expiry-mqmd.txt), so on a
        FIFO queue every expired message before the first live one, and on a priority
        queue those of higher priority and of equal priority that arrived earlier.
        """
        order, msgs = q.order, q.msgs
        if start == 0 and match is MATCH_ANY:
            # The common get: the head of the queue, discarding expired heads.
            gone: list[Message] = []
            while order:
                key = order[0]
                msg = msgs[key]
                if msg.expires_at is None or msg.expires_at > now:
                    return (key, msg), gone
                gone.append(q.discard_head())
            return None, gone
        expired: list[int] = []
        found: tuple[int, Message] | None = None
        for key in order.islice(start):
            msg = msgs[key]
            if not match(msg):
                continue
            if msg.expires_at is not None and msg.expires_at <= now:
                expired.append(key)
                continue
            found = (key, msg)
            break
        return found, [q.discard(key) for key in expired]

    # ---- units of work --------------------------------------------------------
    def commit(self, uow: UowId) -> None:
        for queue, key, kind in self._uows.pop(uow, ()):
            q = self._queues.get(queue)
            if q is None:
                continue
            if kind == _PUT:
                del q.pending[key]
                q.order.add(key)
            else:
                del q.held[key]
                del q.msgs[key]

    def backout(self, uow: UowId) -> None:
        for queue, key, kind in reversed(self._uows.pop(uow, ())):
            q = self._queues.get(queue)
            if q is None:
                continue
            if kind == _PUT:
                del q.pending[key]
                del q.msgs[key]
                q.depth -= 1
            else:
                del q.held[key]
                q.msgs[key].backout_count += 1
                q.order.add(key)  # back at its own place: the key keeps arrival order
                q.depth += 1

    # ---- expiry scan ----------------------------------------------------------
    def worth_scanning(self, queue: str, now: float) -> bool:
        q = self._queues[queue]
        heap = q.expiry
        while heap and heap[0][1] not in q.msgs:
            heapq.heappop(heap)
        return bool(heap) and heap[0][0] <= now

    def scan(self, queue: str, now: float) -> list[Message]:
        """Discard every committed, visible message whose expiry has passed.

        Messages in a unit of work (uncommitted puts, held gets) are left for later: an
        uncommitted put is discarded after its commit, a held get after its backout.
        """
        q = self._queues[queue]
        heap = q.expiry
        discarded: list[Message] = []
        deferred: list[tuple[float, int]] = []
        while heap and heap[0][0] <= now:
            entry = heapq.heappop(heap)
            key = entry[1]
            if key not in q.msgs:
                continue
            if key in q.pending or key in q.held:
                deferred.append(entry)
                continue
            discarded.append(q.discard(key))
        for entry in deferred:
            heapq.heappush(heap, entry)
        return discarded

    @staticmethod
    def _compact_expiry(q: _Queue) -> None:
        # Entries of messages already got stay in the heap until they surface; rebuild
        # when they outnumber the live ones, so memory follows the depth.
        q.expiry = [(m.expires_at, k) for k, m in q.msgs.items() if m.expires_at is not None]
        heapq.heapify(q.expiry)
