"""The in-process store and the coupling facility's, driven side by side by hypothesis.

Two queue managers alike in everything but their store (a ``MemoryStore`` and a
``RedisStore`` on the real server) get the same MQ calls: puts of any priority, size,
expiry, persistence and identifiers, in or out of syncpoint, whole and partial groups;
gets plain, by MsgId or CorrelId, in logical order, ALL_MSGS_AVAILABLE, syncpoint if
persistent; browses with and without MQGMO_LOCK; commits, backouts, clock advances and
expiry scans, on two queues of their own and on a shared queue of a CF structure whose
offload rules apply once it is 5% full. Every answer must be the same on both: the
message (body and descriptor) or the reason code, the discards and reports (the events),
and after every step the depth, uncommitted count and contents of every queue (issue 5:
"identical answers and identical depths"), the structure's entries and elements in use (issue 41:
one geometry), and each store's audit of its own derived state must find nothing.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from coupling.cleanup import delete_group
from coupling.store import RedisStore
from coupling.transport import BlockingTransport
from qsg import CMQC, GMO, MD, PMO, MQMIError, QMgr
from qsg.core.events import Event
from qsg.core.handle import Handle
from qsg.core.memstore import MemoryStore
from qsg.core.objects import CFStructure
from qsg.core.sharing import QueueSharingGroup
from qsg.core.store import MessageStore

QUEUES = ("PRIO", "FIFO", "SHARED")
#: Body sizes: mostly small; around an element's edge; past OFFLD1SZ(1K); over 63 KB.
SIZES = (0, 0, 0, 56, 57, 1000, 5000, 70_000)
IDS = (b"A" * 24, b"B" * 24, b"C" * 24)
GETS = (
    "plain",
    "sync",
    "sync",
    "sync",
    "if_persistent",
    "msgid",
    "correlid",
    "logical",
    "all_msgs",
)
_namespaces = itertools.count(1)
_ANSWERED = (
    "MsgId",
    "CorrelId",
    "Priority",
    "Persistence",
    "Expiry",
    "BackoutCount",
    "GroupId",
    "MsgSeqNumber",
    "Offset",
    "MsgFlags",
    "PutDate",
    "PutTime",
)


def _answer(call: Any) -> Any:
    """What an MQ call answered: its result, or its reason code."""
    try:
        return ("ok", call())
    except MQMIError as error:
        return ("failed", error.reason)


class SideBySide(RuleBasedStateMachine):
    transport: BlockingTransport

    @initialize()
    def setup(self) -> None:
        self.redis = RedisStore(self.transport, f"SBS{next(_namespaces)}")
        self.events: tuple[list[Event], list[Event]] = ([], [])
        self.qms = (
            QMgr(
                "QM1",
                store=MemoryStore(),
                qsg=QueueSharingGroup("QSG1", store=MemoryStore()),
                on_event=self.events[0].append,
            ),
            QMgr(
                "QM1",
                store=self.redis,
                qsg=QueueSharingGroup("QSG1", store=self.redis),
                on_event=self.events[1].append,
            ),
        )
        self.handles: list[list[dict[str, Handle]]] = []
        self.conns = []
        for qm in self.qms:
            qm.define_queue("PRIO", max_depth=12)
            qm.define_queue("FIFO", msg_delivery_sequence=CMQC.MQMDS_FIFO)
            # 512 entries and 2,048 elements: never full in 40 steps (the in-process
            # store refuses no put when it is), and 5% full soon enough for OFFLD1TH(5).
            qm.define_structure(
                CFStructure("APP1", size_kb=512, offload_threshold1=5, offload_size1=1)
            )
            qm.define_queue("SHARED", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")
            conns = [qm.connect(), qm.connect()]
            self.conns.append(conns)
            options = CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_OUTPUT | CMQC.MQOO_BROWSE
            self.handles.append([{q: c.open(q, options) for q in QUEUES} for c in conns])
        self.now = 0.0
        self.n = 0

    def teardown(self) -> None:
        if hasattr(self, "redis"):
            delete_group(self.transport, self.redis.qsg)

    def store_of(self, side: int, queue: str) -> MessageStore:
        qm = self.qms[side]
        assert qm.qsg is not None
        return qm.qsg.shared.store if queue == "SHARED" else qm.store

    def both(self, act: Any) -> None:
        """Do the same thing on both sides and demand the same answer."""
        answers = [_answer(lambda side=side: act(side)) for side in (0, 1)]
        assert answers[0] == answers[1], answers

    # ---- calls ------------------------------------------------------------------
    @rule(
        conn=st.integers(0, 1),
        queue=st.sampled_from(QUEUES),
        priority=st.integers(0, 9),
        size=st.sampled_from(SIZES),
        # Unlimited often, so messages live to be got again; limited ones in steps the
        # clock also takes, so that "expires exactly now" happens.
        expiry=st.sampled_from((CMQC.MQEI_UNLIMITED,) * 3 + (5, 10, 25, 50, 7)),
        sync=st.sampled_from((False, False, True)),
        persistent=st.booleans(),
        msg_id=st.sampled_from((None, *IDS)),
        correl_id=st.sampled_from((None, *IDS)),
    )
    def put(
        self,
        conn: int,
        queue: str,
        priority: int,
        size: int,
        expiry: int,
        sync: bool,
        persistent: bool,
        msg_id: bytes | None,
        correl_id: bytes | None,
    ) -> None:
        self.n += 1
        body = (b"m%d." % self.n).ljust(size, b"x")

        def act(side: int) -> Any:
            md = MD(Priority=priority, Expiry=expiry, Persistence=int(persistent))
            if msg_id is not None:
                md.MsgId = msg_id
            if correl_id is not None:
                md.CorrelId = correl_id
            options = CMQC.MQPMO_SYNCPOINT if sync else CMQC.MQPMO_NO_SYNCPOINT
            self.handles[side][conn][queue].put(body, md, PMO(Options=options), now=self.now)
            return md.MsgId

        self.both(act)

    @rule(
        conn=st.integers(0, 1),
        size=st.integers(1, 3),
        complete=st.booleans(),
        sync=st.booleans(),
    )
    def put_group(self, conn: int, size: int, complete: bool, sync: bool) -> None:
        """A group put message by message in logical order, its last one perhaps missing."""
        self.n += 1
        tag = self.n

        def act(side: int) -> Any:
            h = self.handles[side][conn]["FIFO"]
            options = CMQC.MQPMO_LOGICAL_ORDER | (
                CMQC.MQPMO_SYNCPOINT if sync else CMQC.MQPMO_NO_SYNCPOINT
            )
            for seq in range(1, size + 1):
                last = seq == size
                if last and not complete:
                    break
                flags = CMQC.MQMF_LAST_MSG_IN_GROUP if last else CMQC.MQMF_MSG_IN_GROUP
                md = MD(Version=CMQC.MQMD_VERSION_2, MsgFlags=flags)
                h.put(b"g%d.%d" % (tag, seq), md, PMO(Options=options), now=self.now)
            return None

        self.both(act)

    @rule(
        conn=st.integers(0, 1),
        queue=st.sampled_from(QUEUES),
        how=st.sampled_from(GETS),
        match=st.sampled_from(IDS),
        length=st.sampled_from((None, None, None, 1)),
    )
    def get(self, conn: int, queue: str, how: str, match: bytes, length: int | None) -> None:
        def act(side: int) -> Any:
            md = MD(Version=CMQC.MQMD_VERSION_2)
            gmo = GMO(Options=CMQC.MQGMO_NO_SYNCPOINT, MatchOptions=CMQC.MQMO_NONE)
            if how == "sync":
                gmo.Options = CMQC.MQGMO_SYNCPOINT
            elif how == "if_persistent":
                gmo.Options = CMQC.MQGMO_SYNCPOINT_IF_PERSISTENT
            elif how == "msgid":
                md.MsgId, gmo.MatchOptions = match, CMQC.MQMO_MATCH_MSG_ID
            elif how == "correlid":
                md.CorrelId, gmo.MatchOptions = match, CMQC.MQMO_MATCH_CORREL_ID
            elif how == "logical":
                gmo.Options |= CMQC.MQGMO_LOGICAL_ORDER
            elif how == "all_msgs":
                gmo.Options |= CMQC.MQGMO_ALL_MSGS_AVAILABLE
            body = self.handles[side][conn][queue].get(length, md, gmo, now=self.now)
            return body, {name: getattr(md, name) for name in _ANSWERED}

        self.both(act)

    @rule(
        conn=st.integers(0, 1),
        queue=st.sampled_from(QUEUES),
        first=st.booleans(),
        lock=st.booleans(),
    )
    def browse(self, conn: int, queue: str, first: bool, lock: bool) -> None:
        def act(side: int) -> Any:
            md = MD()
            options = CMQC.MQGMO_BROWSE_FIRST if first else CMQC.MQGMO_BROWSE_NEXT
            if lock:
                options |= CMQC.MQGMO_LOCK
            gmo = GMO(Options=options)
            body = self.handles[side][conn][queue].get(None, md, gmo, now=self.now)
            return body, md.MsgId, md.Expiry

        self.both(act)

    @rule(conn=st.integers(0, 1), queue=st.sampled_from(QUEUES))
    def unlock(self, conn: int, queue: str) -> None:
        def act(side: int) -> Any:
            gmo = GMO(Options=CMQC.MQGMO_UNLOCK)
            return self.handles[side][conn][queue].get(None, MD(), gmo, now=self.now)

        self.both(act)

    @rule(conn=st.integers(0, 1), queue=st.sampled_from(QUEUES))
    def get_and_back_out(self, conn: int, queue: str) -> None:
        """A get in syncpoint and MQBACK: the message returns with BackoutCount + 1."""

        def act(side: int) -> Any:
            md = MD()
            body = self.handles[side][conn][queue].get(
                None, md, GMO(Options=CMQC.MQGMO_SYNCPOINT), now=self.now
            )
            self.conns[side][conn].backout()
            return body, md.BackoutCount

        self.both(act)

    @rule(conn=st.integers(0, 1), commit=st.booleans())
    def end_unit_of_work(self, conn: int, commit: bool) -> None:
        def act(side: int) -> Any:
            c = self.conns[side][conn]
            return c.commit() if commit else c.backout()

        self.both(act)

    @rule(seconds=st.sampled_from((0.5, 1.0, 2.5)))
    def advance(self, seconds: float) -> None:
        self.now += seconds

    @rule(pattern=st.sampled_from(("*", "PRIO", "F*")))
    def scan(self, pattern: str) -> None:
        self.both(lambda side: self.qms[side].scan_expired(self.now, pattern))

    # ---- what must stay equal ---------------------------------------------------------
    @invariant()
    def same_depths_and_events(self) -> None:
        if not hasattr(self, "qms"):
            return
        for queue in QUEUES:
            stores = [self.store_of(side, queue) for side in (0, 1)]
            assert stores[0].depth(queue) == stores[1].depth(queue), queue
            assert stores[0].uncommitted(queue) == stores[1].uncommitted(queue), queue
            assert sorted(stores[0].contents(queue)) == sorted(stores[1].contents(queue)), queue
        # A scan may discard messages that expired at the same time in another order.
        assert Counter(map(repr, self.events[0])) == Counter(map(repr, self.events[1]))

    @invariant()
    def same_structure_usage_and_nothing_for_an_audit(self) -> None:
        if not hasattr(self, "qms"):
            return
        shared = [self.store_of(side, "SHARED") for side in (0, 1)]
        assert shared[0].structure_usage("APP1") == shared[1].structure_usage("APP1")
        for store in (self.qms[0].store, *shared):  # the Redis store holds both sides' queues
            assert store.audit() == []


def test_the_two_stores_give_the_same_answers_and_depths(cf_transport: BlockingTransport) -> None:
    SideBySide.transport = cf_transport
    run_state_machine_as_test(
        SideBySide,
        settings=settings(
            max_examples=150,
            stateful_step_count=40,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
