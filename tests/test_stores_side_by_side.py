"""The in-process store and the coupling facility's, driven side by side by hypothesis.

Two queue managers alike in everything but their store (a ``MemoryStore`` and a
``RedisStore`` on the real server) get the same MQ calls: puts of any priority, size,
expiry, persistence and identifiers, in or out of syncpoint, whole and partial groups;
gets plain, by MsgId or CorrelId, in logical order, ALL_MSGS_AVAILABLE, syncpoint if
persistent; browses with and without MQGMO_LOCK; commits, backouts, clock advances and
expiry scans, on two queues of their own and on a shared queue of a CF structure whose
offload rules apply once it is 5% full, of a size and CFLEVEL that hypothesis picks:
small enough to fill in a few puts (MQRC_STORAGE_MEDIUM_FULL), or below CFLEVEL(4)
(MQRC_WRONG_CF_LEVEL for a message over 63 KB). Every answer must be the same on both: the
message (body and descriptor) or the reason code, the discards and reports (the events),
and after every step the depth, uncommitted count and contents of every queue (issue 5:
"identical answers and identical depths"), the structure's entries and elements in use (issue 41:
one geometry), and each store's audit of its own derived state must find nothing.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import partial
from typing import Any, ClassVar

from hypothesis import HealthCheck, event, example, given, settings
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
from qsg.core.message import Message
from qsg.core.objects import CFStructure
from qsg.core.offload import rules
from qsg.core.sharing import QueueSharingGroup
from qsg.core.store import SELECT_ANY, MessageStore, Ordering, Syncpoint

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
    #: The reason codes both sides answered, over every example: what the run exercised.
    reasons: ClassVar[Counter[int]] = Counter()

    @initialize(
        # From 2 KB (two entries: full at once) to 512 KB (never full in 40 steps), at
        # each CFLEVEL that decides something: 3 refuses a message over 63 KB (2366), 4
        # offloads it, 5 also offloads by OFFLD1TH(5) OFFLD1SZ(1K).
        size_kb=st.sampled_from((2, 4, 8, 16, 32, 512)),
        cf_level=st.sampled_from((3, 4, 5, 5)),
    )
    def setup(self, size_kb: int, cf_level: int) -> None:
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
            qm.define_structure(
                CFStructure(
                    "APP1",
                    size_kb=size_kb,
                    cf_level=cf_level,
                    offload_threshold1=5,
                    offload_size1=1,
                )
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
        if answers[0][0] == "failed":
            self.reasons[answers[0][1]] += 1

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
    SideBySide.reasons = Counter()
    run_state_machine_as_test(
        SideBySide,
        settings=settings(
            max_examples=150,
            stateful_step_count=40,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
            # The same examples every run: the check below, that some example filled a
            # structure, is then a fact of the examples, not a chance (random ones missed
            # it about one run in ten under a loaded full suite).
            derandomize=True,
        ),
    )
    # The structure filled and refused a put in some example: the two stores were
    # compared where they can differ. (A message over 63 KB meets CFLEVEL(3) in some runs
    # and not others; the next test has an example of it every run.)
    assert SideBySide.reasons[CMQC.MQRC_STORAGE_MEDIUM_FULL] > 0, SideBySide.reasons


# ---- filling a structure, put by put ---------------------------------------------------
KB = 1024
#: Data lengths: around an element's edge, around a 1 KB message's, past the offload
#: sizes hypothesis gives the rules, and on each side of the 63 KB entry limit.
DATA = st.one_of(
    st.integers(0, 2 * KB),
    st.sampled_from((55, 56, 57, 312, 313, 4 * KB + 1, 32 * KB + 1, 63 * KB, 63 * KB + 1)),
    st.integers(0, 70 * KB),
)
#: A step: put a message of that many bytes (in a unit of work when True), get the
#: head, or end the unit of work ("commit" or "backout").
STEP = st.one_of(
    st.tuples(st.just("put"), DATA, st.booleans()),
    st.tuples(st.sampled_from(("get", "commit", "backout"))),
)


def _step(store: MessageStore, n: int, step: tuple[Any, ...]) -> bytes | None:
    """Step number ``n`` on ``store``: what it answered (a got message's body)."""
    if step[0] == "put":
        body = (b"%d." % n).ljust(step[1], b"x")
        message = Message(MD(MsgId=b"%24d" % n).get(), body, 0.0, None, 0)
        store.put("Q", message, "uow" if step[2] else None, 100_000)
    elif step[0] == "get":
        taken = store.get("Q", SELECT_ANY, 0.0, None, Syncpoint.NO, None, False)
        return None if taken.message is None else taken.message.body
    elif step[0] == "commit":
        store.commit("uow")
    else:
        store.backout("uow")
    return None


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Every run: the 64 KB structure at CFLEVEL(5) with IBM's default rules, fed
# 1 KB messages past full and then emptied by one; and CFLEVEL(3) refusing 63 KB + 1.
@example(
    size_kb=64,
    cf_level=5,
    thresholds=(70, 80, 90),
    sizes_kb=(32, 4, 0),
    steps=[("put", KB, False)] * 66 + [("get",), ("put", KB, True), ("backout",)],
)
@example(
    size_kb=64,  # 256 elements: 63 KB takes 253
    cf_level=3,
    thresholds=(70, 80, 90),
    sizes_kb=(32, 4, 0),
    steps=[("put", 63 * KB, False), ("put", 63 * KB + 1, False), ("get",)],
)
@given(
    size_kb=st.integers(1, 48),
    cf_level=st.integers(1, 5),
    thresholds=st.tuples(*[st.integers(0, 100)] * 3),
    sizes_kb=st.tuples(*[st.sampled_from((0, 1, 4, 32, 64))] * 3),
    steps=st.lists(STEP, min_size=1, max_size=90),
)
def test_both_stores_fill_a_structure_alike_put_by_put(
    cf_transport: BlockingTransport,
    size_kb: int,
    cf_level: int,
    thresholds: tuple[int, int, int],
    sizes_kb: tuple[int, int, int],
    steps: list[tuple[Any, ...]],
) -> None:
    # "2192 (0890) (RC2192): MQRC_STORAGE_MEDIUM_FULL": a structure is full when all its
    # entries or all its elements are in use; "DEFINE CFSTRUCT": over 63 KB needs
    # CFLEVEL(4), OFFLDnTH/OFFLDnSZ apply at CFLEVEL(5). Structures of any size up to
    # 48 KB (they fill within the steps), messages of any length up to 70 KB, in and out
    # of a unit of work: each put is taken or refused alike (and with the same reason),
    # and after each step the usage, the depth and the SMDS writes agree.
    applied = rules(cf_level, thresholds, sizes_kb)
    redis = RedisStore(cf_transport, f"FILL{next(_namespaces)}")
    stores: tuple[MessageStore, MessageStore] = (MemoryStore(), redis)
    try:
        for store in stores:
            store.define_structure("APP1", size_kb=size_kb, cf_level=cf_level, offload=applied)
            store.create_queue("Q", Ordering.FIFO, "APP1")
        for n, step in enumerate(steps):
            answers = [_answer(partial(_step, store, n, step)) for store in stores]
            assert answers[0] == answers[1], (n, step, answers)
            if answers[0][0] == "failed":
                event(f"a put refused with {answers[0][1]}")  # --hypothesis-show-statistics
            usage = [store.structure_usage("APP1") for store in stores]
            assert usage[0] == usage[1], (n, step, usage)
            assert usage[0]["entries"] <= usage[0]["max_entries"]
            assert usage[0]["elements"] <= usage[0]["max_elements"]
            assert [store.depth("Q") for store in stores] == [redis.depth("Q")] * 2
            assert stores[0].smds_writes == redis.smds_writes, (n, step)
        assert [store.audit() for store in stores] == [[], []]
    finally:
        delete_group(cf_transport, redis.qsg)
