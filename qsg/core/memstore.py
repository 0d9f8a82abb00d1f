"""The in-process message store: the store primitives over Python structures.

A queue keeps its visible messages as sorted integer keys. The key orders the queue
(``geometry.message_key``: priority first on a priority queue, then arrival; the same
score the coupling facility uses for its sorted sets). Getting the head is O(log n)
however deep the queue. Uncommitted puts and messages held by uncommitted gets are kept
out of the visible order, so a get never walks over them.

Grouped messages are also indexed by (GroupId, MsgSeqNumber, Offset), so the next item
of a group is one lookup. The expiry index is a heap of ``(expires_at, key)`` with lazy
deletion, so a scan costs what expired, not the depth.
"""

from __future__ import annotations

import copy
import dataclasses
import heapq
from collections.abc import Callable, Collection, Hashable, Iterable
from dataclasses import dataclass, field
from typing import cast

from qsg import CMQC
from qsg.core import bugs, cfstate
from qsg.core.cflog import StructureLog, member_of
from qsg.core.conntag import TagUse, TagUses
from qsg.core.errors import MQMIError
from qsg.core.expiry import is_expired
from qsg.core.geometry import (
    below_priority,
    elements,
    has_room,
    max_elements,
    max_entries,
    message_key,
    percent_full,
)
from qsg.core.lease import Held, LocalLease
from qsg.core.message import Message, joined
from qsg.core.offload import (
    ALWAYS_OFFLOADED,
    LARGE_MESSAGE_CF_LEVEL,
    Rule,
    first_reached,
    offloaded,
)
from qsg.core.order import Order
from qsg.core.reports import wants_expiration_report
from qsg.core.store import (
    SELECT_ANY,
    Expired,
    Fence,
    MessageStore,
    Ordering,
    Recovery,
    Select,
    StaleFenceError,
    Syncpoint,
    Taken,
    UowId,
)

_PUT, _GET = 0, 1
#: A message as a backup or the log keeps it: a copy of the message, whether its data
#: was offloaded, and the elements it takes in its structure.
_Kept = tuple[Message, bool, int]
#: A message's place in a structure: (queue, key).
_Place = tuple[str, int]
#: A structure's members' logs (``qsg.core.cflog``), kept by the store, not the structure.
_Log = StructureLog[_Place, _Kept]
_NO_GROUP = CMQC.MQGI_NONE
_SEGMENTED = CMQC.MQMF_SEGMENT | CMQC.MQMF_LAST_SEGMENT


@dataclass(slots=True)
class _Structure:
    """A CF structure's accounting: its entries and elements in use, kept as messages
    come and go, so that a put knows how full it is (its offload rules need that) and
    whether it has room (``geometry.has_room``).

    A structure no ``define_structure`` named (``size_kb`` 0: a queue created on it by
    a test of the store alone) has no limits: a queue manager defines every structure
    before a queue on it (MQSC's CFSTRUCT must name one), as the coupling facility's
    store needs."""

    name: str
    size_kb: int = 0
    cf_level: int = 5
    rules: tuple[Rule, ...] = ()
    entries: int = 0
    elements: int = 0
    #: The entries and the elements SIZE holds (``define``).
    most: int = 0
    room: int = 0
    #: The entries and the elements in use at which the first rule applies
    #: (``offload.first_reached``): below both, a put skips the rules.
    calm: tuple[float, float] = (0, 0)
    # Failure, backup and recovery (qsg.core.cfstate): when it failed (None: active),
    # the nonpersistent messages its last failure lost, its last backup (None: never),
    # and its queues' orderings and arrival counters while it is failed. (The members'
    # logs since the backup are the store's: ``MemoryStore._logs``.)
    failed_at: float | None = None
    lost: int = 0
    backup: dict[_Place, _Kept] | None = None
    backup_at: float | None = None
    saved: dict[str, tuple[Ordering, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.define(self.size_kb, self.cf_level, self.rules)

    def define(self, size_kb: int, cf_level: int, rules: tuple[Rule, ...]) -> None:
        self.size_kb, self.cf_level, self.rules = size_kb, cf_level, rules
        self.most, self.room = max_entries(size_kb), max_elements(size_kb)
        self.calm = first_reached(rules, self.most, self.room)

    def full(self) -> float:
        return percent_full(self.entries, self.elements, self.most, self.room)

    def rules_may_apply(self) -> bool:
        """Whether the structure is full enough for one of its offload rules to apply."""
        fewest_entries, fewest_elements = self.calm
        return self.entries >= fewest_entries or self.elements >= fewest_elements

    def admit(self, queue: str, size: int) -> tuple[bool, int]:
        """Decide a put to ``queue`` of a message with ``size`` bytes of data as the
        coupling facility's put script does, before anything changes: refuse it, or
        answer whether its data is offloaded and the elements it takes.

        MQRC_WRONG_CF_LEVEL (2366) for a message over 63 KB below CFLEVEL(4);
        MQRC_STORAGE_MEDIUM_FULL (2192) when the structure has no room for it, counted
        after the offload rules decided (``geometry.has_room``)."""
        always = size > ALWAYS_OFFLOADED
        if always and self.cf_level < LARGE_MESSAGE_CF_LEVEL:
            raise MQMIError.failed(
                CMQC.MQRC_WRONG_CF_LEVEL,
                f"a message of {size} bytes is over 63 KB: CF structure {self.name} of "
                f"{queue} is CFLEVEL({self.cf_level}), {LARGE_MESSAGE_CF_LEVEL} or more "
                "is needed",
            )
        # The rules need how full the structure is: worked out only when it has some.
        off = always or (self.rules_may_apply() and offloaded(size, self.full(), self.rules))
        used = elements(0 if off else size)
        if self.size_kb and not has_room(self.entries, self.elements, used, self.most, self.room):
            raise MQMIError.failed(
                CMQC.MQRC_STORAGE_MEDIUM_FULL,
                f"CF structure {self.name} is full (all its entries or elements are in "
                f"use); putting to {queue}",
            )
        return off, used


@dataclass(slots=True)
class _Queue:
    ordering: Ordering
    order: Order = field(default_factory=Order)  # visible keys
    msgs: dict[int, Message] = field(default_factory=dict)  # every message, by key
    pending: dict[int, Hashable] = field(default_factory=dict)  # uncommitted puts
    held: dict[int, Hashable] = field(default_factory=dict)  # uncommitted gets
    locks: dict[int, Hashable] = field(default_factory=dict)  # key -> locking handle
    groups: dict[bytes, dict[tuple[int, int], int]] = field(default_factory=dict)
    expiry: list[tuple[float, int]] = field(default_factory=list)  # heap
    depth: int = 0  # CURDEPTH: + put, + get backout, - get, - put backout, - discard
    next_seq: int = 0
    structure: _Structure | None = None  # a shared queue's CF structure
    charged: dict[int, int] = field(default_factory=dict)  # key -> its elements in it
    offloaded: set[int] = field(default_factory=set)  # keys whose data is offloaded
    #: A shared queue's name and its structure's members' logs (``qsg.core.cflog``).
    name: str = ""
    log: _Log | None = None

    def forget(self, key: int) -> Message:
        """Remove a message for good (it is already out of the visible order)."""
        msg = self.msgs.pop(key)
        self.locks.pop(key, None)
        structure = self.structure
        if structure is not None:
            structure.entries -= 1
            structure.elements -= self.charged.pop(key)
            self.offloaded.discard(key)
        group_id = msg.desc["GroupId"]
        if group_id != _NO_GROUP:
            members = self.groups[group_id]
            del members[(msg.desc["MsgSeqNumber"], msg.desc["Offset"])]
            if not members:
                del self.groups[group_id]
        return msg

    def discard(self, key: int) -> Message:
        """Remove a committed, visible message that expired (or, at a restart, a
        nonpersistent one): a persistent one's put record leaves the log with it."""
        self.order.remove(key)
        self.depth -= 1
        msg = self.forget(key)
        if self.log is not None and msg.persistent:
            self.log.expired((self.name, key))
        return msg

    def discard_head(self) -> Message:
        return self.discard(self.order[0])

    def log_get(self, member: str, key: int, msg: Message) -> None:
        """``member`` committed a get of the message at ``key``: logged if persistent."""
        log = self.log
        if log is not None and msg.persistent:
            backup = self.structure.backup if self.structure is not None else None
            log.got(member, (self.name, key), backup is not None and (self.name, key) in backup)

    def log_put(self, member: str, key: int, msg: Message) -> None:
        """``member`` committed a put of the message at ``key``: logged if persistent
        (the message itself, not a copy: recovery copies it)."""
        if self.log is not None and msg.persistent:
            self.log.put(member, (self.name, key), (msg, key in self.offloaded, self.charged[key]))

    def visible_to(self, key: int, handle: Hashable | None) -> bool:
        owner = self.locks.get(key)
        return owner is None or owner == handle


class _Queues(dict[str, _Queue]):
    """The store's queues by name. A queue of a failed CF structure is out of it, in
    ``failed``, and asking for one is MQRC_CF_STRUC_FAILED (``cfstate.failed_error``):
    ``__missing__`` runs only for a name the dict lacks, so the common lookup pays
    nothing for the rule."""

    def __init__(self) -> None:
        super().__init__()
        self.failed: dict[str, str] = {}  # queue -> its failed structure

    def __missing__(self, queue: str) -> _Queue:
        structure = self.failed.get(queue)
        if structure is None:
            raise KeyError(queue)
        raise cfstate.failed_error(structure, queue)


class MemoryStore:
    """The store primitives, in process. One instance per queue manager."""

    #: A unit of work learns a failure under it here before any store commits
    #: (``backed_out``): this store's commit never refuses.
    commit_may_refuse = False

    def __init__(self) -> None:
        self._queues = _Queues()
        #: Units of work a structure's failure took work from, and why they cannot commit.
        self._lost_uows: dict[Hashable, str] = {}
        self._uows: dict[Hashable, list[tuple[str, int, int]]] = {}
        self._recovered: dict[tuple[str, int], str] = {}  # (failed, incarnation) -> by
        self._structures: dict[str, _Structure] = {}  # CF structure name -> accounting
        self._leases: dict[str, Held] = {}  # role -> its lease (a QSG's shared store)
        #: Connection tags: each tag's uses by (queue manager, life, connection), and its
        #: version (never reset, so that a claim on a stale reading is always refused).
        self._tag_uses: dict[bytes, dict[tuple[str, int, int], TagUse]] = {}
        self._tag_versions: dict[bytes, int] = {}
        #: Each structure's members' logs since its backup, by structure: the store's,
        #: so that a structure's failure leaves them whole (``qsg.core.cflog``).
        self._logs: dict[str, _Log] = {}
        #: Accesses to shared message data sets: offloaded messages written (put) and
        #: read (got or browsed), for the model's SMDS costs and statistics.
        self.smds_writes = self.smds_reads = 0

    # ---- queues ---------------------------------------------------------------
    def define_structure(
        self, name: str, *, size_kb: int, cf_level: int, offload: tuple[Rule, ...] = ()
    ) -> None:
        """A CF structure as the coupling facility keeps one: what SIZE holds
        (``qsg.core.geometry``), the CFLEVEL a message over 63 KB needs, and the offload
        rules its puts apply. Redefining keeps what it holds and its usage (a smaller SIZE
        than in use refuses every put until messages go)."""
        known = self._structures.get(name)
        if known is None:
            self._structures[name] = _Structure(name, size_kb, cf_level, offload)
        else:
            known.define(size_kb, cf_level, offload)

    @property
    def failed_queues(self) -> dict[str, str]:
        """The queues of failed structures, each with its structure's name."""
        return self._queues.failed

    def create_queue(self, queue: str, ordering: Ordering, structure: str | None = None) -> None:
        if queue in self._queues or queue in self._queues.failed:
            raise ValueError(f"queue {queue!r} already exists in this store")
        q = self._queues[queue] = _Queue(ordering)
        if structure:
            q.structure = self._structures.setdefault(structure, _Structure(structure))
            q.name, q.log = queue, self._logs.setdefault(structure, StructureLog())

    def structure_usage(self, name: str) -> dict[str, int]:
        """A structure's entries and elements in use and their maxima, counted as the
        coupling facility counts them (``qsg.core.geometry``: an entry a message, and
        the elements of its data and control storage; an offloaded message's data is not
        in the structure)."""
        structure = self._structures.get(name) or _Structure(name)
        return {
            "entries": structure.entries,
            "elements": structure.elements,
            "max_entries": max_entries(structure.size_kb),
            "max_elements": max_elements(structure.size_kb),
        }

    def delete_queue(self, queue: str) -> None:
        q = self._queues[queue]  # MQRC_CF_STRUC_FAILED while its structure has failed
        del self._queues[queue]
        if q.structure is not None:
            q.structure.entries -= len(q.charged)
            q.structure.elements -= sum(q.charged.values())
        if q.log is not None:  # its messages' put records go with it, as expired ones do
            for key in q.msgs:
                q.log.expired((queue, key))

    def depth(self, queue: str) -> int:
        return self._queues[queue].depth

    def depth_at_least(self, queue: str, lowest_priority: int, committed_only: bool) -> int:
        q = self._queues[queue]
        if not lowest_priority:
            return len(q.order) if committed_only else q.depth
        if q.ordering is Ordering.PRIORITY:  # the key orders by priority first
            count: int = q.order.bisect_left(below_priority(lowest_priority))
        else:
            count = sum(1 for key in q.order if q.msgs[key].priority >= lowest_priority)
        if not committed_only:
            count += sum(1 for key in q.pending if q.msgs[key].priority >= lowest_priority)
        return count

    def uncommitted(self, queue: str) -> int:
        q = self._queues[queue]
        return len(q.pending) + len(q.held)

    def contents(self, queue: str) -> list[bytes]:
        q = self._queues[queue]
        return [msg.desc["MsgId"] for key, msg in q.msgs.items() if key not in q.pending]

    # ---- put and get ----------------------------------------------------------
    def put(
        self, queue: str, msg: Message, uow: UowId | None, max_depth: int, member: str = ""
    ) -> None:
        q = self._queues[queue]
        if q.depth >= max_depth:
            raise MQMIError.failed(
                CMQC.MQRC_Q_FULL, f"queue {queue} is at its MAXDEPTH of {max_depth}"
            )
        structure = q.structure
        if structure is not None:
            # A refused put changes nothing (as the coupling facility's): decided first.
            off, used = structure.admit(queue, len(msg.body))
        q.next_seq += 1
        msg.seq = q.next_seq
        key = message_key(msg.seq, msg.priority, q.ordering is not Ordering.FIFO)
        q.msgs[key] = msg
        q.depth += 1
        if structure is not None:
            if off:
                q.offloaded.add(key)
                self.smds_writes += 1
            q.charged[key] = used
            structure.entries += 1
            structure.elements += used
        group_id = msg.desc["GroupId"]
        if group_id != _NO_GROUP:
            item = (msg.desc["MsgSeqNumber"], msg.desc["Offset"])
            q.groups.setdefault(group_id, {})[item] = key
        if msg.expires_at is not None:
            heapq.heappush(q.expiry, (msg.expires_at, key))
            if len(q.expiry) > 2 * len(q.msgs) + 64:
                self._compact_expiry(q)
        if uow is None:
            q.order.add(key)
            if q.log is not None:
                q.log_put(member, key, msg)
        else:
            q.pending[key] = uow
            self._uows.setdefault(uow, []).append((queue, key, _PUT))

    def get(
        self,
        queue: str,
        select: Select,
        now: float,
        uow: UowId | None,
        syncpoint: Syncpoint,
        max_length: int | None,
        accept_truncated: bool,
        member: str = "",
    ) -> Taken:
        q = self._queues[queue]
        # The common get, with no lock to look past: what _first_live finds is the head.
        head = select is SELECT_ANY and not q.locks
        found, discarded = self._first_live(q, None, select, now)
        if found is None:
            return Taken(None, discarded)
        key, msg = found
        keys = [key]
        if select.complete and msg.desc["MsgFlags"] & _SEGMENTED:
            keys = self._segments(q, msg, select.handle) or keys
            msg = joined([q.msgs[k] for k in keys])
        if max_length is not None and len(msg.body) > max_length and not accept_truncated:
            return Taken(msg, discarded, True, key)
        in_uow = uow is not None and (
            syncpoint is Syncpoint.YES or (syncpoint is Syncpoint.IF_PERSISTENT and msg.persistent)
        )
        if q.offloaded:
            self.smds_reads += sum(1 for item in keys if item in q.offloaded)
        for item in keys:
            if head:
                q.order.pop(0)
            else:
                q.order.remove(item)
            q.depth -= 1
            q.locks.pop(item, None)
            if in_uow:
                q.held[item] = uow
                self._uows.setdefault(uow, []).append((queue, item, _GET))
            else:
                gone = q.forget(item)
                if q.log is not None:
                    q.log_get(member, item, gone)
        return Taken(msg, discarded, False, key)

    def browse(self, queue: str, after: int | None, select: Select, now: float) -> Taken:
        q = self._queues[queue]
        found, discarded = self._first_live(q, after, select, now)
        if found is None:
            return Taken(None, discarded, False, after)
        key, msg = found
        if select.complete and msg.desc["MsgFlags"] & _SEGMENTED:
            keys = self._segments(q, msg, select.handle) or [key]
            msg = joined([q.msgs[k] for k in keys])
            if q.offloaded:
                self.smds_reads += sum(1 for item in keys if item in q.offloaded)
        elif key in q.offloaded:
            self.smds_reads += 1
        return Taken(msg, discarded, False, key)

    def _first_live(
        self, q: _Queue, after: int | None, select: Select, now: float
    ) -> tuple[tuple[int, Message] | None, list[Message]]:
        """The first visible selected unexpired message after ``after`` in queue order.

        Expired selected messages met on the way are discarded: a get or browse discards
        exactly the expired messages it would have returned ("Expiry (MQLONG)"), so on a
        FIFO queue every expired message before the first live one, and on a priority
        queue those of higher priority and of equal priority that arrived earlier.
        """
        order, msgs = q.order, q.msgs
        if select is SELECT_ANY and after is None and not q.locks:
            # The common get: the head of the queue, discarding expired heads.
            gone: list[Message] = []
            while order:
                key = order[0]
                msg = msgs[key]
                if msg.expires_at is None or msg.expires_at > now:  # expiry.is_expired, inlined
                    return (key, msg), gone
                if bugs.DELIVER_EXPIRED in bugs.ACTIVE:
                    return (key, msg), gone
                gone.append(q.discard_head())
            return None, gone
        expired: list[int] = []
        found: tuple[int, Message] | None = None
        for key in self._candidates(q, after, select):
            msg = msgs[key]
            if not q.visible_to(key, select.handle) or not select.match(msg):
                continue
            desc = msg.desc
            if select.first_items and (desc["MsgSeqNumber"] != 1 or desc["Offset"] != 0):
                continue
            if select.whole_group and not self._whole_group_here(q, msg, select.handle):
                continue
            if (select.whole_message or select.complete) and desc["MsgFlags"] & _SEGMENTED:
                if select.complete and desc["Offset"] != 0:
                    continue  # a whole logical message starts at its first segment
                if not self._segments(q, msg, select.handle):
                    continue
            if is_expired(msg.expires_at, now) and bugs.DELIVER_EXPIRED not in bugs.ACTIVE:
                expired.append(key)
                continue
            found = (key, msg)
            break
        return found, [q.discard(key) for key in expired]

    @staticmethod
    def _candidates(q: _Queue, after: int | None, select: Select) -> Iterable[int]:
        """Keys to consider, in queue order: one when a cursor or the group index knows."""
        if select.key is not None:
            return (select.key,) if select.key in q.order else ()
        match = select.match
        if (
            match.group_id is not None
            and match.msg_seq_number is not None
            and (match.offset is not None)
        ):
            members = q.groups.get(match.group_id, {})
            key = members.get((match.msg_seq_number, match.offset))
            return (key,) if key is not None and key in q.order else ()
        start = 0 if after is None else q.order.bisect_right(after)
        keys: Iterable[int] = q.order.islice(start)
        return keys

    @staticmethod
    def _whole_group_here(q: _Queue, first: Message, handle: Hashable | None) -> bool:
        """Whether every logical message of ``first``'s group is visible (by its first
        segment); a message not in a group is whole by itself."""
        if not first.desc["MsgFlags"] & (CMQC.MQMF_MSG_IN_GROUP | CMQC.MQMF_LAST_MSG_IN_GROUP):
            return True
        members = q.groups.get(first.desc["GroupId"], {})
        last = None
        for (seq, _), key in members.items():
            if q.msgs[key].desc["MsgFlags"] & CMQC.MQMF_LAST_MSG_IN_GROUP:
                last = seq
                break
        if last is None:
            return False
        for seq in range(1, last + 1):
            item = members.get((seq, 0))
            if item is None or item not in q.order or not q.visible_to(item, handle):
                return False
        return True

    @staticmethod
    def _segments(q: _Queue, segment: Message, handle: Hashable | None) -> list[int]:
        """The keys of every segment of ``segment``'s logical message, in offset order, or
        [] if one is missing or not visible."""
        desc = segment.desc
        members = q.groups.get(desc["GroupId"], {})
        seq, offset, keys = desc["MsgSeqNumber"], 0, []
        while True:
            key = members.get((seq, offset))
            if key is None or key not in q.order or not q.visible_to(key, handle):
                return []
            keys.append(key)
            part = q.msgs[key]
            if part.desc["MsgFlags"] & CMQC.MQMF_LAST_SEGMENT:
                return keys
            offset += len(part.body)

    # ---- browse locks -----------------------------------------------------------
    def lock(self, queue: str, key: int, handle: Hashable) -> None:
        q = self._queues[queue]
        self.unlock(queue, handle)
        if key in q.msgs:
            q.locks[key] = handle

    def unlock(self, queue: str, handle: Hashable) -> None:
        q = self._queues[queue]
        for key in [k for k, owner in q.locks.items() if owner == handle]:
            del q.locks[key]

    # ---- units of work --------------------------------------------------------
    def commit(self, uow: UowId) -> None:
        drop = bugs.DROP_ON_COMMIT in bugs.ACTIVE
        for queue, key, kind in self._uows.pop(uow, ()):
            q = self._queues.get(queue)
            if q is None:
                continue
            if kind == _PUT:
                del q.pending[key]
                if drop:  # the known bug a chaos checker must catch (tests only)
                    drop = False
                    q.forget(key)
                    q.depth -= 1
                    continue
                q.order.add(key)
                if q.log is not None:
                    q.log_put(member_of(uow), key, q.msgs[key])
            else:
                del q.held[key]
                msg = q.forget(key)
                if q.log is not None:
                    q.log_get(member_of(uow), key, msg)

    def backout(self, uow: UowId) -> None:
        if self._lost_uows:  # MQBACK ends it: the connection's next unit is a new one
            self._lost_uows.pop(uow, None)
        for queue, key, kind in reversed(self._uows.pop(uow, ())):
            q = self._queues.get(queue)
            if q is not None:
                self._back_out_entry(q, key, kind)

    @staticmethod
    def _back_out_entry(q: _Queue, key: int, kind: int) -> None:
        if kind == _PUT:
            del q.pending[key]
            q.forget(key)
            q.depth -= 1
        else:
            del q.held[key]
            q.msgs[key].backout_count += 1
            q.order.add(key)  # back at its own place: the key keeps arrival order
            q.depth += 1

    def recover(self, failed: str, incarnation: int, by: str) -> Recovery:
        """Peer recovery, as the coupling facility's: back out every unit of work of
        queue manager ``failed`` (units are named ``(queue manager, connection)``) and
        release its handles' locks. Once per failed life; later callers learn who ran it."""
        done = self._recovered.get((failed, incarnation))
        if done is not None:
            return Recovery(failed, done, False)
        self._recovered[(failed, incarnation)] = by
        units = [u for u in self._uows if isinstance(u, tuple) and u[0] == failed]
        entries = sum(len(self._uows[u]) for u in units)
        for uow in units:
            self.backout(uow)
        prefix = f"{failed}/"
        locks = 0
        for q in self._queues.values():
            for key, owner in list(q.locks.items()):
                if str(getattr(owner, "store_token", "")).startswith(prefix):
                    del q.locks[key]
                    locks += 1
        return Recovery(failed, by, True, len(units), entries, locks)

    def disconnect_structure(self, member: str, name: str) -> tuple[int, int]:
        """``member`` lost connectivity to CF structure ``name`` and tolerates it: as
        the peers' recovery of its connection to the structure, each of its units of
        work gives back its work on the structure's queues (newest first: puts vanish,
        gets return with BackoutCount + 1) and can no longer commit (``backed_out``);
        its handles' locks there are released. Answers the units and entries."""
        structure = self._structure(name)
        mine = {n for n, q in self._queues.items() if q.structure is structure}
        units = entries = 0
        for uow, held in list(self._uows.items()):
            if not (isinstance(uow, tuple) and uow[0] == member):
                continue
            there = [entry for entry in held if entry[0] in mine]
            if not there:
                continue
            self._uows[uow] = [entry for entry in held if entry[0] not in mine]
            for queue, key, kind in reversed(there):
                self._back_out_entry(self._queues[queue], key, kind)
            units, entries = units + 1, entries + len(there)
            self._lost_uows[uow] = (
                f"{member} lost connectivity to CF structure {name} while the unit of work "
                "had work on it: peer recovery backed that work out"
            )
        prefix = f"{member}/"
        for queue in mine:
            q = self._queues[queue]
            for key, owner in list(q.locks.items()):
                if str(getattr(owner, "store_token", "")).startswith(prefix):
                    del q.locks[key]
        return units, entries

    def lose_nonpersistent(self) -> int:
        """A queue-manager restart: the nonpersistent messages are gone (MQ keeps only
        persistent ones in its page sets and logs). Call after backing out units of work.
        Returns how many were lost."""
        lost = 0
        for q in self._queues.values():
            for key in [k for k in q.order if not q.msgs[k].persistent]:
                q.discard(key)
                lost += 1
        return lost

    def forget_backout_counts(self, queue: str) -> None:
        for msg in self._queues[queue].msgs.values():
            msg.backout_count = 0

    def failed(self) -> None:
        """Nothing to do: an in-process store has no server to lose (a fault that fails
        the coupling facility needs the Redis one)."""

    def backed_out(self, uow: UowId) -> str | None:
        """Why ``uow`` cannot commit: a CF structure it had work on failed (its work
        there went with the structure); None otherwise."""
        if not self._lost_uows:
            return None
        return self._lost_uows.pop(uow, None)

    def prepare(self, uow: UowId) -> str | None:
        """``backed_out``'s answer, kept for the backout that follows."""
        return self._lost_uows.get(uow) if self._lost_uows else None

    # ---- one structure's failure, backup and recovery (qsg.core.cfstate) -----------
    def fail_structure(self, name: str, now: float) -> int:
        structure = self._structure(name)
        queues = {n: q for n, q in self._queues.items() if q.structure is structure}
        # The persistent messages are in the backup or the members' logs, which the
        # failure leaves whole; the nonpersistent ones are lost.
        lost = sum(
            1
            for q in queues.values()
            for key, msg in q.msgs.items()
            if key not in q.pending and not msg.persistent
        )
        self._lose_uows(name, queues.keys())
        structure.failed_at, structure.lost = now, lost
        for queue, q in queues.items():
            structure.saved[queue] = (q.ordering, q.next_seq)
            del self._queues[queue]
            self._queues.failed[queue] = name
        structure.entries = structure.elements = 0
        return lost

    def _lose_uows(self, name: str, queues: Collection[str]) -> None:
        """Every unit of work loses its entries on ``queues`` (structure ``name``'s),
        and cannot commit: it is backed out at MQCMIT."""
        for uow, entries in list(self._uows.items()):
            kept = [entry for entry in entries if entry[0] not in queues]
            if len(kept) != len(entries):
                self._uows[uow] = kept
                self._lost_uows[uow] = (
                    f"CF structure {name} failed while the unit of work had work on it"
                )

    def backup_structure(self, name: str, now: float, exclint: float) -> cfstate.StructureStatus:
        structure = self._structure(name)
        backup: dict[_Place, _Kept] = {}
        for queue, q in self._queues.items():
            if q.structure is not structure:
                continue
            for key, msg in q.msgs.items():
                if key not in q.pending and msg.persistent and msg.put_time <= now - exclint:
                    backup[(queue, key)] = _kept(q, key, msg)
        structure.backup, structure.backup_at = backup, now
        self._log(name).truncate(backup.keys())
        return self.structure_status(name)

    def recover_structure(self, name: str, purge: bool) -> tuple[int, int, int]:
        structure = self._structure(name)
        backup = structure.backup or {}
        log = self._log(name)
        records = log.records
        # A put record holds the message as put (BackoutCount 0), as the server's does.
        puts = {p: (_as_put(msg), off, used) for p, (msg, off, used) in log.kept_puts().items()}
        content = {} if purge else cfstate.replay(backup, puts, set(log.gets))
        for queue, (ordering, next_seq) in structure.saved.items():
            del self._queues.failed[queue]
            self._queues[queue] = _Queue(
                ordering, next_seq=next_seq, structure=structure, name=queue, log=log
            )
        for (queue, key), (msg, off, used) in sorted(content.items()):
            self._restore(self._queues[queue], key, dataclasses.replace(msg), off, used)
        from_log = sum(1 for place in content if place not in backup)
        structure.saved, structure.failed_at = {}, None
        # TYPE(NORMAL) leaves backup and log as they were: a second failure before the
        # next BACKUP replays them again. TYPE(PURGE) forgets both.
        if purge:
            structure.backup, structure.backup_at = None, None
            self._logs[name] = log = StructureLog()
            for q in self._queues.values():
                if q.structure is structure:
                    q.log = log
        return len(content) - from_log, from_log, 0 if purge else records

    def export_structure(self, name: str) -> object:
        """A copy of everything the structure holds (``MessageStore.export_structure``):
        failed, its backup and queues' counters; active, its queues' messages; and the
        members' logs since its backup."""
        structure = self._structure(name)
        queues = {n: q for n, q in self._queues.items() if q.structure is structure}
        # The handles holding locks are the queue managers' objects, not the structure's:
        # the copy names the same ones.
        memo: dict[int, object] = {id(h): h for q in queues.values() for h in q.locks.values()}
        # The members' logs travel with it: a rebuild elsewhere recovers from them.
        return copy.deepcopy((structure, queues, self._log(name)), memo)

    def import_structure(self, name: str, image: object) -> None:
        """Hold what ``image`` (``export_structure``'s, of a store of this kind) holds,
        in place of whatever this store held of the structure."""
        structure, queues, log = cast(tuple[_Structure, dict[str, _Queue], _Log], image)
        old = self._structures.get(name)
        # The instance replaced takes with it every unit of work's entries on it (a
        # duplexed structure's second instance rebuilt into holds the units' mirrored
        # work): those units lost it, as in the structure's failure.
        # (No instance here before: none of this store's queues is the structure's, not
        # even those on no structure, whose ``structure`` is None too.)
        replaced = [n for n, q in self._queues.items() if old is not None and q.structure is old]
        self._lose_uows(name, {*replaced, *queues})
        for queue in replaced:
            del self._queues[queue]
        for queue in [n for n, s in self._queues.failed.items() if s == name]:
            del self._queues.failed[queue]
        self._structures[name] = structure
        self._logs[name] = log
        for queue, q in queues.items():
            q.structure = structure
            self._queues[queue] = q
        for queue in structure.saved:
            self._queues.failed[queue] = name

    def _restore(self, q: _Queue, key: int, msg: Message, off: bool, used: int) -> None:
        """Put back a committed message a recovery rebuilt, at its own key."""
        q.msgs[key] = msg
        q.order.add(key)
        q.depth += 1
        structure = q.structure
        assert structure is not None
        q.charged[key] = used
        structure.entries += 1
        structure.elements += used
        if off:
            q.offloaded.add(key)
        group_id = msg.desc["GroupId"]
        if group_id != _NO_GROUP:
            q.groups.setdefault(group_id, {})[(msg.desc["MsgSeqNumber"], msg.desc["Offset"])] = key
        if msg.expires_at is not None:
            heapq.heappush(q.expiry, (msg.expires_at, key))

    def structure_status(self, name: str) -> cfstate.StructureStatus:
        structure = self._structure(name)
        backup = structure.backup
        failed = structure.failed_at is not None
        return cfstate.StructureStatus(
            name,
            cfstate.FAILED if failed else cfstate.ACTIVE,
            structure.failed_at,
            structure.backup_at,
            len(backup or ()),
            sum(len(msg.body) for msg, _, _ in (backup or {}).values()),
            self._log(name).records,
            structure.lost,
            self._log(name).members,
        )

    def _log(self, name: str) -> _Log:
        """The members' logs of structure ``name`` since its backup."""
        return self._logs.setdefault(name, StructureLog())

    def _structure(self, name: str) -> _Structure:
        structure = self._structures.get(name)
        if structure is None:
            raise ValueError(f"no CF structure {name} in this store")
        return structure

    # ---- leases ---------------------------------------------------------------
    def lease(
        self,
        role: str,
        member: str,
        length: float,
        on_token: Callable[[str, int], None] | None = None,
    ) -> LocalLease:
        """``member``'s lease on ``role``, kept here. ``on_token`` is not told: the
        tokens are there to restart above after a facility lost its state, which an
        in-process store never does."""
        return LocalLease(self._leases.setdefault(role, Held()), role, member, length)

    def check_fence(self, fence: Fence, now: float) -> None:
        held = self._leases.get(fence.role, Held())
        if not held.fence_holds(fence, now):
            raise StaleFenceError(fence, held.token or None)

    # ---- connection tags (qsg.core.conntag) ------------------------------------
    def conn_tags(self, tag: bytes) -> TagUses:
        uses = self._tag_uses.get(tag, {})
        return TagUses(self._tag_versions.get(tag, 0), tuple(uses.values()))

    def claim_conn_tag(self, use: TagUse, version: int) -> bool:
        if self._tag_versions.get(use.tag, 0) != version:
            return False
        self._tag_versions[use.tag] = version + 1
        self._tag_uses.setdefault(use.tag, {})[(use.q_mgr, use.life, use.connection)] = use
        return True

    def release_conn_tag(self, use: TagUse) -> None:
        uses = self._tag_uses.get(use.tag, {})
        if uses.pop((use.q_mgr, use.life, use.connection), None) is not None:
            self._tag_versions[use.tag] += 1

    def release_conn_tags(self, q_mgr: str, before: int) -> int:
        released = 0
        for tag, uses in self._tag_uses.items():
            ended = [k for k in uses if k[0] == q_mgr and k[1] < before]
            for k in ended:
                del uses[k]
            if ended:
                self._tag_versions[tag] += 1
                released += len(ended)
        return released

    # ---- expiry scan ----------------------------------------------------------
    def worth_scanning(self, queue: str, now: float) -> bool:
        q = self._queues[queue]
        heap = q.expiry
        while heap and heap[0][1] not in q.msgs:
            heapq.heappop(heap)
        return bool(heap) and heap[0][0] <= now

    def scan(self, queue: str, now: float, fence: Fence | None = None) -> list[Expired]:
        """Discard every committed, visible message whose expiry has passed.

        Messages in a unit of work (uncommitted puts, held gets) are left for later: an
        uncommitted put is discarded after its commit, a held get after its backout.
        ``fence`` is not checked again here: its holder checks it first
        (``check_fence``) in the same synchronous call, and in one process no other
        member can take the lease over in between.
        """
        q = self._queues[queue]
        heap = q.expiry
        discarded: list[Expired] = []
        deferred: list[tuple[float, int]] = []
        while heap and heap[0][0] <= now:
            entry = heapq.heappop(heap)
            key = entry[1]
            if key not in q.msgs:
                continue
            if key in q.pending or key in q.held:
                deferred.append(entry)
                continue
            msg = q.discard(key)
            wanted = wants_expiration_report(msg.desc["Report"])
            discarded.append(Expired(msg.msg_id, msg if wanted else None))
        for entry in deferred:
            heapq.heappush(heap, entry)
        return discarded

    # ---- invariants -------------------------------------------------------------
    def audit(self) -> list[str]:
        """What is wrong with the store's derived state, recounted from its messages (none:
        nothing); see ``MessageStore.audit``. Reads every message: for tests and a world's
        end, not for a hot path."""
        wrong: list[str] = []
        # Invariant: each message held for a unit of work is one entry of exactly one.
        entries: dict[tuple[str, int], tuple[Hashable, int]] = {}
        for uow, held in self._uows.items():
            for queue, key, kind in held:
                if (queue, key) in entries:
                    wrong.append(f"queue {queue}: message {key} is in two unit-of-work entries")
                entries[(queue, key)] = (uow, kind)
        counted: dict[int, tuple[int, int]] = {}  # id(structure) -> entries, elements
        for name, q in self._queues.items():
            wrong += [f"queue {name}: {problem}" for problem in _audit_queue(name, q, entries)]
            if q.structure is not None:
                was = counted.get(id(q.structure), (0, 0))
                counted[id(q.structure)] = (
                    was[0] + len(q.charged),
                    was[1] + sum(q.charged.values()),
                )
        for (queue, key), (uow, kind) in entries.items():
            on = self._queues.get(queue)
            if on is None:
                continue  # a deleted queue's entries: commit and backout pass them by
            holder = (on.pending if kind == _PUT else on.held).get(key)
            if holder != uow:
                what = "put" if kind == _PUT else "get"
                wrong.append(
                    f"queue {queue}: unit of work {uow!r} has message {key} as its {what}, "
                    f"which the queue holds for {holder!r}"
                )
        for name, structure in self._structures.items():
            in_use = counted.get(id(structure), (0, 0))
            if (structure.entries, structure.elements) != in_use:
                wrong.append(
                    f"CF structure {name}: {structure.entries} entries and "
                    f"{structure.elements} elements in use, but its queues' messages take "
                    f"{in_use[0]} and {in_use[1]}"
                )
            size = structure.size_kb
            if structure.calm != first_reached(
                structure.rules, max_entries(size), max_elements(size)
            ):
                wrong.append(f"CF structure {name}: its offload rules' first threshold is stale")
        return wrong

    @staticmethod
    def _compact_expiry(q: _Queue) -> None:
        # Entries of messages already got stay in the heap until they surface; rebuild
        # when they outnumber the live ones, so memory follows the depth.
        q.expiry = [(m.expires_at, k) for k, m in q.msgs.items() if m.expires_at is not None]
        heapq.heapify(q.expiry)


def _as_put(msg: Message) -> Message:
    """A copy of ``msg`` as its put record holds it: BackoutCount 0."""
    return dataclasses.replace(msg, backout_count=0)


def _kept(q: _Queue, key: int, msg: Message) -> _Kept:
    """A committed message as a backup or the log keeps it (a copy: BackoutCount moves)."""
    return dataclasses.replace(msg), key in q.offloaded, q.charged.get(key, 0)


def _audit_queue(
    name: str, q: _Queue, entries: dict[tuple[str, int], tuple[Hashable, int]]
) -> list[str]:
    """What is wrong with one queue's derived state (``MemoryStore.audit``); ``entries``
    are the units of work's, by (queue, key)."""
    wrong = [f"its visible order {problem}" for problem in q.order.audit()]
    order = list(q.order)
    visible, pending, held, keys = set(order), set(q.pending), set(q.held), set(q.msgs)
    if len(visible) != len(order):
        wrong.append(f"its visible order holds a key twice: {sorted(order)}")
    for what, both in (
        ("visible and an uncommitted put", visible & pending),
        ("visible and an uncommitted get", visible & held),
        ("an uncommitted put and get", pending & held),
    ):
        wrong += [f"message {key} is {what}" for key in sorted(both)]
    wrong += [
        f"message {key} is listed but not stored"
        for key in sorted((visible | pending | held) - keys)
    ]
    wrong += [
        f"message {key} is neither visible nor in a unit of work"
        for key in sorted(keys - visible - pending - held)
    ]
    if q.depth != len(visible) + len(pending):
        wrong.append(
            f"depth {q.depth}, but {len(visible)} visible messages and {len(pending)} "
            "uncommitted puts"
        )
    for kind, uncommitted in ((_PUT, q.pending), (_GET, q.held)):
        for key, uow in uncommitted.items():
            if entries.get((name, key)) != (uow, kind):
                wrong.append(
                    f"message {key} is held for unit of work {uow!r}, which has no entry for it"
                )
    wrong += [
        f"a lock names message {key}, which is not stored" for key in sorted(set(q.locks) - keys)
    ]
    by_priority = q.ordering is not Ordering.FIFO
    expiring = set(q.expiry)
    for key, msg in q.msgs.items():
        if message_key(msg.seq, msg.priority, by_priority) != key:
            wrong.append(
                f"message {key} is keyed apart from its priority {msg.priority} and "
                f"number {msg.seq}"
            )
        if msg.seq > q.next_seq:
            wrong.append(f"message {key} is numbered {msg.seq}, past the last number {q.next_seq}")
        if msg.expires_at is not None and (msg.expires_at, key) not in expiring:
            wrong.append(f"message {key} expires at {msg.expires_at}, which the expiry index lacks")
        desc = msg.desc
        if desc["GroupId"] != _NO_GROUP:
            item = (desc["MsgSeqNumber"], desc["Offset"])
            if q.groups.get(desc["GroupId"], {}).get(item) != key:
                wrong.append(f"message {key} of a group is not in the group index")
    for group_id, members in q.groups.items():
        if not members:
            wrong.append(f"group {group_id.hex()} is indexed with no message")
        for item, key in members.items():
            found = q.msgs.get(key)
            if found is None or found.desc["GroupId"] != group_id:
                wrong.append(
                    f"the group index has {item} of {group_id.hex()} at message {key}, not of it"
                )
    if q.structure is None:
        if q.charged or q.offloaded:
            wrong.append("charges messages to a CF structure it is not on")
        return wrong
    if set(q.charged) != keys:
        wrong.append(
            f"charges {len(q.charged)} messages to its CF structure, and stores {len(keys)}"
        )
    wrong += [f"message {key} is offloaded but not stored" for key in sorted(q.offloaded - keys)]
    for key, used in q.charged.items():
        charged = q.msgs.get(key)
        if charged is None:
            continue
        takes = elements(0 if key in q.offloaded else len(charged.body))
        if used != takes:
            wrong.append(f"message {key} is charged {used} elements, and takes {takes}")
    return wrong


def _conforms(store: MemoryStore) -> MessageStore:
    return store  # mypy --strict checks here that MemoryStore is a MessageStore
