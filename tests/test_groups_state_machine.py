"""Groups and segments under hypothesis: a logical-order reader (and browser) must see
each group contiguously and in sequence, whatever the interleaving of puts, commits and
backouts (issue 3; IBM, "Logical and physical ordering")."""

from __future__ import annotations

from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from qsg import CMQC, MD, PMO, QMgr
from tests.helpers import ALL, get_or_none

IN, LAST = CMQC.MQMF_MSG_IN_GROUP, CMQC.MQMF_LAST_MSG_IN_GROUP
SEG, LAST_SEG = CMQC.MQMF_SEGMENT, CMQC.MQMF_LAST_SEGMENT
Item = tuple[bytes, int, int, int, bytes]  # GroupId, MsgSeqNumber, Offset, MsgFlags, body


def identity(md: MD) -> tuple[bytes, int, int]:
    """An item's identity: its place in its group, or its MsgId when in no group."""
    if md.GroupId == CMQC.MQGI_NONE:
        return (md.MsgId, 0, 0)
    return (md.GroupId, md.MsgSeqNumber, md.Offset)


def next_expected(item: Item) -> tuple[bytes, int, int] | None:
    """The reference rule, written apart from the engine: what must follow ``item``."""
    group_id, seq, offset, flags, body = item
    if flags & SEG and not flags & LAST_SEG:
        return group_id, seq, offset + len(body)
    if flags & IN and not flags & LAST:
        return group_id, seq + 1, 0
    return None


def check_contiguous(record: list[Item]) -> None:
    expected: tuple[bytes, int, int] | None = None
    for item in record:
        if expected is None:
            assert (item[1], item[2]) == (1, 0), f"entered a unit mid-way: {item}"
        else:
            assert item[:3] == expected, f"expected {expected}, got {item}"
        expected = next_expected(item)


class GroupMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.qm = QMgr("QM1")
        self.qm.define_queue("Q", max_depth=100_000)
        self.conns = [self.qm.connect(), self.qm.connect()]
        self.putters = [c.open("Q", CMQC.MQOO_OUTPUT) for c in self.conns]
        self.plans: list[list[tuple[int, bytes]]] = [[], []]
        self.sync = [False, False]
        self.reader = self.qm.connect().open("Q", ALL)
        self.browser = self.qm.connect().open("Q", ALL)
        self.read: list[Item] = []
        self.browsed: list[Item] = []
        self.put_items: dict[tuple[bytes, int, int], bytes] = {}
        self.counter = 0
        self.ids: dict[Item, tuple[bytes, int, int]] = {}

    def body(self) -> bytes:
        self.counter += 1
        return b"b%03d" % self.counter

    @precondition(lambda self: not self.plans[0] or not self.plans[1])
    @rule(
        p=st.integers(0, 1),
        messages=st.integers(1, 3),
        segments=st.lists(st.integers(1, 3), min_size=3, max_size=3),
        sync=st.booleans(),
    )
    def start_group(self, p: int, messages: int, segments: list[int], sync: bool) -> None:
        if self.plans[p]:
            return
        plan = []
        for m in range(1, messages + 1):
            group_flag = LAST if m == messages else IN
            parts = segments[m - 1]
            for s in range(1, parts + 1):
                seg_flag = 0 if parts == 1 else (LAST_SEG if s == parts else SEG)
                plan.append((group_flag | seg_flag, self.body()))
        self.plans[p], self.sync[p] = plan, sync

    @precondition(lambda self: bool(self.plans[0] or self.plans[1]))
    @rule(p=st.integers(0, 1))
    def put_next_item(self, p: int) -> None:
        if not self.plans[p]:
            return
        flags, body = self.plans[p].pop(0)
        md = MD(Version=2, MsgFlags=flags)
        sync = CMQC.MQPMO_SYNCPOINT if self.sync[p] else CMQC.MQPMO_NO_SYNCPOINT
        self.putters[p].put(body, md, PMO(Options=sync | CMQC.MQPMO_LOGICAL_ORDER), now=0.0)
        self.put_items[identity(md)] = body

    @rule(p=st.integers(0, 1))
    def put_plain(self, p: int) -> None:
        if self.plans[p]:
            return
        md = MD(Version=2)
        body = self.body()
        self.putters[p].put(
            body, md, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT | CMQC.MQPMO_LOGICAL_ORDER), now=0.0
        )
        self.put_items[identity(md)] = body

    @rule(p=st.integers(0, 1))
    def commit(self, p: int) -> None:
        self.conns[p].commit()

    @rule(p=st.integers(0, 1))
    def backout(self, p: int) -> None:
        if self.plans[p]:
            return  # a half-put group stays in progress; its backout is the UOW test's job
        self.conns[p].backout()

    @rule()
    def get_logical(self) -> None:
        got = get_or_none(self.reader, 1.0, CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_LOGICAL_ORDER)
        if got is not None:
            self.read.append(self.item(got))

    @rule(first=st.booleans())
    def browse_logical(self, first: bool) -> None:
        option = CMQC.MQGMO_BROWSE_FIRST if first else CMQC.MQGMO_BROWSE_NEXT
        if first:
            self.browsed.clear()
        got = get_or_none(self.browser, 1.0, option | CMQC.MQGMO_LOGICAL_ORDER)
        if got is not None:
            self.browsed.append(self.item(got))

    def item(self, got: tuple[bytes, Any]) -> Item:
        body, md = got
        self.ids[(md.GroupId, md.MsgSeqNumber, md.Offset, md.MsgFlags, body)] = identity(md)
        return (md.GroupId, md.MsgSeqNumber, md.Offset, md.MsgFlags, body)

    @invariant()
    def a_logical_reader_sees_each_group_contiguously_and_in_sequence(self) -> None:
        check_contiguous(self.read)
        keys = [self.ids[item] for item in self.read]
        assert len(set(keys)) == len(keys)  # nothing twice
        for key, item in zip(keys, self.read, strict=True):
            assert self.put_items[key] == item[4]

    @invariant()
    def a_logical_browser_sees_each_group_contiguously_and_in_sequence(self) -> None:
        # Items the reader removed meanwhile may be missing, but never out of sequence.
        expected: tuple[bytes, int, int] | None = None
        for item in self.browsed:
            if expected is not None and item[:3] != expected:
                assert item[0] == expected[0] and (item[1], item[2]) > expected[1:], item
            elif expected is None:
                assert (item[1], item[2]) == (1, 0) or item[0] != CMQC.MQGI_NONE
            expected = next_expected(item)


GroupMachine.TestCase.settings = settings(max_examples=120, stateful_step_count=50, deadline=None)
test_groups_are_read_contiguously_and_in_sequence = GroupMachine.TestCase
