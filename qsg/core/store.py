"""The store primitives: the few atomic operations a message store offers.

The queue engine (``qsg.core.engine``) builds MQ behaviour on these and nothing else,
so the in-process store (``qsg.core.memstore``) and the coupling facility on Redis
(``coupling``) are interchangeable. Each primitive is atomic: on Redis it is one Lua
script, and the common put and get are one round trip each. That is why ``get`` both
discards the expired messages it passes and takes the first live one: the two must not
be split by another member's get.

A primitive never makes an MQ decision the engine could make (reports, descriptors,
validation); it keeps order, visibility, depth and units of work consistent.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from qsg.core.cfstate import StructureStatus
from qsg.core.conntag import TagUse, TagUses
from qsg.core.errors import QSGError
from qsg.core.lease import Fence as Fence  # re-exported: the stores' callers name it here
from qsg.core.lease import MemberLease
from qsg.core.message import Message
from qsg.core.offload import Rule

#: A unit of work's identity in a store: (queue manager, connection number).
UowId = Hashable


class Ordering(enum.Enum):
    """MsgDeliverySequence: FIFO within priority, or FIFO regardless of priority."""

    PRIORITY = 0  # MQMDS_PRIORITY
    FIFO = 1  # MQMDS_FIFO


class Syncpoint(enum.Enum):
    """Whether a get is part of the caller's unit of work."""

    NO = 0
    YES = 1
    IF_PERSISTENT = 2  # MQGMO_SYNCPOINT_IF_PERSISTENT: decided per message


@dataclass(frozen=True, slots=True)
class Match:
    """What a get or browse selects on; None means "any"."""

    msg_id: bytes | None = None
    correl_id: bytes | None = None
    group_id: bytes | None = None
    msg_seq_number: int | None = None
    offset: int | None = None

    def __call__(self, msg: Message) -> bool:
        desc = msg.desc
        return (
            (self.msg_id is None or desc["MsgId"] == self.msg_id)
            and (self.correl_id is None or desc["CorrelId"] == self.correl_id)
            and (self.group_id is None or desc["GroupId"] == self.group_id)
            and (self.msg_seq_number is None or desc["MsgSeqNumber"] == self.msg_seq_number)
            and (self.offset is None or desc["Offset"] == self.offset)
        )


MATCH_ANY = Match()


@dataclass(frozen=True, slots=True)
class Select:
    """Which messages a get or browse may return, beyond the match fields.

    ``first_items``: only a message that starts a logical unit (MsgSeqNumber 1, Offset 0),
    as MQGMO_LOGICAL_ORDER outside a group; ``whole_group``: a group's first item only
    when every logical message of the group is there (MQGMO_ALL_MSGS_AVAILABLE);
    ``key``: exactly the message under a browse cursor; ``handle``: who asks, so that a
    message another handle locked is invisible to it. ``whole_message``: a segment only
    when every segment of its logical message is there (MQGMO_ALL_SEGMENTS_AVAILABLE);
    ``complete``: a segmented logical message is taken whole, its segments joined
    (MQGMO_COMPLETE_MSG), and is eligible only when all of it is there.
    """

    match: Match = MATCH_ANY
    first_items: bool = False
    whole_group: bool = False
    whole_message: bool = False
    complete: bool = False
    key: int | None = None
    handle: Hashable | None = None


SELECT_ANY = Select()


class Taken(NamedTuple):
    """What ``get`` and ``browse`` return.

    ``message`` is the first live matching message (None: none available);
    ``discarded`` the expired matching messages passed on the way, already removed;
    ``too_long`` is True when the message was longer than ``max_length`` and, truncation
    not being accepted, was left where it was. ``position`` is where a browse cursor
    now stands (its key in queue order).
    """

    message: Message | None
    discarded: Sequence[Message]
    too_long: bool = False
    position: int | None = None


class Expired(NamedTuple):
    """One message an expiry scan discarded: its MsgId, and the message itself only when
    its Report asks for an expiration report (``reports.wants_expiration_report``).

    The discard event needs only the MsgId; a scan of a deep shared queue then reads
    back, transfers and decodes just the messages that owe a report.
    """

    msg_id: bytes
    message: Message | None


@dataclass(frozen=True, slots=True)
class Recovery:
    """The outcome of a peer-recovery attempt: ``ran`` is True for the one member that
    ran it, and ``by`` names that member in every answer."""

    failed: str
    by: str
    ran: bool
    units: int = 0
    entries: int = 0
    locks: int = 0


class StaleFenceError(QSGError, PermissionError):
    """The store refused a stale fencing token: the caller no longer holds the lease.

    ``discarded`` holds what the same scan had discarded before the refusal (a scan goes
    in batches, each proving the lease): those messages are gone from the queue, and
    their discard and expiration reports are still owed."""

    def __init__(
        self, fence: Fence, current: int | None, discarded: Sequence[Expired] = ()
    ) -> None:
        self.fence, self.current, self.discarded = fence, current, list(discarded)
        super().__init__(
            f"lease {fence.role}: token {fence.token} is stale (current token: {current})"
        )


class MessageStore(Protocol):
    """The primitives; see the module docstring. ``now`` is the simulator's time."""

    #: Accesses to shared message data sets through this store: offloaded messages
    #: put (written) and got or browsed (read); the model charges SMDS costs by them.
    smds_writes: int
    smds_reads: int
    #: Whether ``commit`` may refuse (MQRC_BACKED_OUT, having backed the unit out): the
    #: coupling facility's store learns there, at no extra round trip, that a CF
    #: structure failed under the unit (another member may have failed it). A unit of
    #: work commits such a store before the others; with more than one, it asks each
    #: ``prepare`` first.
    commit_may_refuse: bool

    @property
    def failed_queues(self) -> Mapping[str, str]:
        """The queues of the failed CF structures this store knows of, each with its
        structure's name: empty while none failed, so that MQOPEN, which looks here
        first (``qsg.core.cfstate.reallocated_by_open``), pays nothing for the rule."""

    def define_structure(
        self, name: str, *, size_kb: int, cf_level: int, offload: tuple[Rule, ...] = ()
    ) -> None:
        """A CF structure queues can be created on, with the offload rules its puts
        apply (``qsg.core.offload``: a message over 63 KB is offloaded whatever they say)."""

    def create_queue(self, queue: str, ordering: Ordering, structure: str | None = None) -> None:
        """A new empty queue (on ``structure``, for a shared queue)."""

    def delete_queue(self, queue: str) -> None: ...

    def put(
        self, queue: str, msg: Message, uow: UowId | None, max_depth: int, member: str = ""
    ) -> None:
        """Add ``msg`` (hidden until commit when ``uow`` is given); MQRC_Q_FULL at depth.
        ``member`` is the queue manager putting: a committed persistent put on a CF
        structure's queue goes into its log (``qsg.core.cflog``; at MQCMIT, the unit of
        work's queue manager's)."""

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
        """Take the first selected message (``member``, the queue manager getting, logs
        a committed get of a persistent one, as ``put``)."""
        ...

    def browse(self, queue: str, after: int | None, select: Select, now: float) -> Taken: ...

    def lock(self, queue: str, key: int, handle: Hashable) -> None:
        """MQGMO_LOCK: hide the message from every other handle."""

    def unlock(self, queue: str, handle: Hashable) -> None:
        """Release whatever ``handle`` holds locked on ``queue``."""

    def commit(self, uow: UowId) -> None:
        """Commit ``uow``'s work here; a ``commit_may_refuse`` store may instead back it
        out and raise MQRC_BACKED_OUT."""

    def backout(self, uow: UowId) -> None: ...

    def depth(self, queue: str) -> int: ...

    def depth_at_least(self, queue: str, lowest_priority: int, committed_only: bool) -> int:
        """How many messages of priority ``lowest_priority`` or more are on the queue,
        expired ones not yet discarded included: committed and uncommitted puts, or
        (``committed_only``) committed messages only, as triggering counts them on a
        local and on a shared queue."""

    def uncommitted(self, queue: str) -> int:
        """How many uncommitted puts and gets are outstanding against ``queue``."""

    def contents(self, queue: str) -> list[bytes]:
        """The MsgIds of the messages on ``queue`` that backing out every unit of work in
        flight would leave there, in no particular order: the committed ones (visible,
        locked, or expired and not yet discarded) and those an uncommitted get holds;
        not uncommitted puts. It only reads (nothing is discarded, locked or counted):
        a run's final state, by which the chaos checkers judge what was lost
        (``actors.history.final_state``), not a hot path."""

    def worth_scanning(self, queue: str, now: float) -> bool: ...

    def scan(self, queue: str, now: float, fence: Fence | None = None) -> list[Expired]:
        """Discard the committed expired messages, each handed back as ``Expired``;
        ``fence`` proves the scan lease."""

    # ---- the coupling facility's part -----------------------------------------------
    # Every store has these, so that nothing above asks which store it holds: the
    # in-process store answers them as a facility that never fails would.

    def structure_usage(self, name: str) -> dict[str, int]:
        """CF structure ``name``'s entries and elements in use and their maxima
        (``entries``, ``elements``, ``max_entries``, ``max_elements``)."""

    # ---- one structure's failure, backup and recovery (``qsg.core.cfstate``) --------

    def fail_structure(self, name: str, now: float) -> int:
        """The structure fails (RESET CFSTRUCT ACTION(FAIL)): its nonpersistent messages
        are lost (their number is returned), the structure itself is emptied (its backup
        and the members' logs since, kept outside it, stay whole), and every call on
        its queues gets MQRC_CF_STRUC_FAILED until it is recovered. Units of work with
        work on it can no longer commit (``backed_out``)."""

    def disconnect_structure(self, member: str, name: str) -> tuple[int, int]:
        """``member`` lost connectivity to CF structure ``name`` and tolerates it
        (CFCONLOS TOLERATE): as the peers' recovery of its connection to the structure,
        its units of work give back their work on the structure's queues (puts vanish,
        gets return) and can no longer commit (``backed_out``, or a refusing commit);
        its handles' locks there are released. Answers the units and entries backed out."""

    def backup_structure(self, name: str, now: float, exclint: float) -> StructureStatus:
        """BACKUP CFSTRUCT: record its committed persistent messages older than
        ``exclint`` seconds (the younger ones the log covers) and truncate every member's
        log to the records after it (``cflog.StructureLog.truncate``); the status after."""

    def recover_structure(self, name: str, purge: bool) -> tuple[int, int, int]:
        """RECOVER CFSTRUCT of a failed structure: rebuilt from the backup plus every
        member's log (``cfstate.replay``), both left for a second failure, or empty and
        both forgotten (``purge``, and a RECOVER(NO) structure's reallocation), and its
        queues usable again. Answers the messages restored from the backup and from the
        log, and the log records read."""

    def structure_status(self, name: str) -> StructureStatus:
        """The structure's status, failure, last backup and the members' logs since
        (DISPLAY CFSTATUS: LOGRECS and LOGQMGRS, active or failed)."""

    def export_structure(self, name: str) -> object:
        """A copy of everything this store holds of CF structure ``name``, for a store of
        the same kind to ``import_structure``: a rebuild into another facility, or the
        second instance of a duplexed one (``qsg.core.router``). A failed structure's
        image is its backup and its queues' orderings and counters; an active one's is
        its queues and their messages (with nothing uncommitted on them: the router
        copies a live structure only while no unit of work has work there); both carry
        the members' logs since the backup."""

    def import_structure(self, name: str, image: object) -> None:
        """Hold what ``image`` holds of CF structure ``name`` in place of whatever this
        store held of it (its queues failed or usable as they were in the image)."""

    def recover(self, failed: str, incarnation: int, by: str) -> Recovery:
        """Peer recovery of queue manager ``failed`` (in its life ``incarnation``), run by
        member ``by``: its units of work backed out, its handles' locks released. Once
        per failed life; later callers learn who ran it (``Recovery.by``)."""

    def lose_nonpersistent(self) -> int:
        """The owning queue manager restarts: its nonpersistent messages are gone from
        its own queues (a coupling facility keeps those of shared queues: 0). Returns
        how many were lost."""

    def forget_backout_counts(self, queue: str) -> None:
        """The owning queue manager restarts and ``queue`` is NOHARDENBO: the BackoutCount
        of its messages was never hardened, and is 0 again (IBM: "Messages that are
        backed out"). Nothing else of the messages changes."""

    def failed(self) -> None:
        """The facility behind the store failed (its server is gone): units of work in
        flight can no longer commit (``backed_out``)."""

    def backed_out(self, uow: UowId) -> str | None:
        """Why ``uow`` can no longer commit, if it cannot (the facility failed while it
        was in flight, and its recovery backed it out); None if it can. A unit of work
        asks every store it touched before any of them commits."""

    def prepare(self, uow: UowId) -> str | None:
        """The first phase of a commit across several stores that may each refuse: why
        ``uow`` can no longer commit here (``backed_out``, or a CF structure's failure
        under it that a ``commit_may_refuse`` store learns only at its commit), None if
        its commit will not refuse. It only reads: the commit or backout that follows
        ends the unit of work. A unit of work with more than one refusing store asks
        each before any commits (``UnitOfWork.commit``)."""

    def lease(
        self,
        role: str,
        member: str,
        length: float,
        on_token: Callable[[str, int], None] | None = None,
    ) -> MemberLease:
        """``member``'s view of the lease on ``role`` (``qsg.core.lease``): a grant or
        renewal lasts ``length`` simulated seconds; ``on_token`` hears each token seen,
        with the lease's name in the store."""

    def check_fence(self, fence: Fence, now: float) -> None:
        """Refuse ``fence`` (``StaleFenceError``) unless it still holds its lease
        (``qsg.core.lease.fence_holds``): for holder-only work that may reach no scan at
        all (a scan that finds nothing worth scanning must not pass for one made under a
        stale token)."""

    # ---- connection tags (serialized applications, ``qsg.core.conntag``) -------------
    # The group's uses of each connection tag, where every member sees them; the rule of
    # which use excludes which is ``conntag.refusal``'s, decided on what ``conn_tags``
    # read and written by ``claim_conn_tag`` only if nothing changed meanwhile.

    def conn_tags(self, tag: bytes) -> TagUses:
        """The uses of connection tag ``tag`` (``conntag.normal_tag``) and its version."""

    def claim_conn_tag(self, use: TagUse, version: int) -> bool:
        """Add ``use`` if its tag's version is still ``version`` (and so its uses those
        read with it); False, with nothing changed, otherwise."""

    def release_conn_tag(self, use: TagUse) -> None:
        """``use`` ended (MQDISC, or the application's end); nothing if it is not kept."""

    def release_conn_tags(self, q_mgr: str, before: int) -> int:
        """Peer recovery or the restart of ``q_mgr`` resolved its lives before ``before``:
        their uses end. Returns how many there were."""

    # ---- invariants ---------------------------------------------------------------

    def audit(self) -> list[str]:
        """What is wrong with the store's derived state, recounted from the messages it
        holds: one line per disagreement, naming the queue or CF structure and both
        figures (none: the state is consistent). Each queue's depth against its visible
        messages and uncommitted puts; each message visible or held for a unit of work,
        not both, and its key made of its priority and arrival number; the units of work
        against the messages they hold; locks against the messages they name; the
        expiry and group indexes against the messages' attributes; each CF structure's
        entries and elements in use against what its queues' messages take
        (``qsg.core.geometry``). It reads every message: the side-by-side state machine
        runs it after every step, and every test world at its end."""
