"""The queue engine against a reference model of a queue, driven by hypothesis.

The model is a plain list with the MQ rules written as directly as possible. The
machine puts (any priority, expiry, in or out of syncpoint, from two connections), gets,
browses, commits, backs out, advances the clock and scans, and demands the engine's
answers equal the model's. Invariants (issue 2): no expired message is ever returned;
a returned Expiry is > 0 or MQEI_UNLIMITED; depth = visible + uncommitted puts +
expired-undiscarded; committed messages are conserved (put = got + discarded + on queue).
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from qsg import CMQC, MD, QMgr
from qsg.core.connection import Connection
from qsg.core.events import Discarded, Event
from qsg.core.handle import Handle
from tests.helpers import ALL, get_or_none, put


@dataclass
class Model:
    """One message as the reference model sees it."""

    body: bytes
    priority: int
    seq: int
    expires_at: float | None
    state: str  # "committed", "pending" (uncommitted put) or "held" (uncommitted get)
    owner: int = -1
    backouts: int = 0

    def expired(self, now: float) -> bool:
        return self.expires_at is not None and self.expires_at <= now


class EngineMachine(RuleBasedStateMachine):
    @initialize(fifo=st.booleans())
    def setup(self, fifo: bool) -> None:
        self.events: list[Event] = []
        self.qm = QMgr("QM1", on_event=self.events.append)
        self.fifo = fifo
        self.qm.define_queue(
            "Q", msg_delivery_sequence=CMQC.MQMDS_FIFO if fifo else 0, max_depth=10_000
        )
        self.conns: list[Connection] = [self.qm.connect(), self.qm.connect()]
        self.handles: list[Handle] = [c.open("Q", ALL) for c in self.conns]
        self.cursor: list[tuple[int, int] | None] = [None, None]
        self.model: list[Model] = []
        self.now = 0.0
        self.seq = 0
        self.committed_puts = 0
        self.committed_gets = 0

    # ---- the model's rules -----------------------------------------------------
    def key(self, m: Model) -> tuple[int, int]:
        return (0, m.seq) if self.fifo else (-min(m.priority, 9), m.seq)

    def visible(self) -> list[Model]:
        return sorted((m for m in self.model if m.state == "committed"), key=self.key)

    def take_first_live(self, after: tuple[int, int] | None) -> Model | None:
        """The seed: discard every expired message passed on the way to the first live one."""
        for m in self.visible():
            if after is not None and self.key(m) <= after:
                continue
            if m.expired(self.now):
                self.model.remove(m)
                continue
            return m
        return None

    # ---- rules ----------------------------------------------------------------
    @rule(
        conn=st.integers(0, 1),
        priority=st.integers(0, 9),
        expiry=st.one_of(st.just(CMQC.MQEI_UNLIMITED), st.integers(1, 50)),
        sync=st.booleans(),
    )
    def do_put(self, conn: int, priority: int, expiry: int, sync: bool) -> None:
        self.seq += 1
        body = b"m%d" % self.seq
        options = CMQC.MQPMO_SYNCPOINT if sync else CMQC.MQPMO_NO_SYNCPOINT
        put(self.handles[conn], body, self.now, options, Priority=priority, Expiry=expiry)
        expires = None if expiry == CMQC.MQEI_UNLIMITED else self.now + expiry / 10
        state = "pending" if sync else "committed"
        self.model.append(Model(body, priority, self.seq, expires, state, conn))
        self.committed_puts += not sync

    @rule(conn=st.integers(0, 1), sync=st.booleans())
    def do_get(self, conn: int, sync: bool) -> None:
        expected = self.take_first_live(None)
        options = CMQC.MQGMO_SYNCPOINT if sync else CMQC.MQGMO_NO_SYNCPOINT
        got = get_or_none(self.handles[conn], self.now, options)
        if got is None:
            assert expected is None
            return
        body, md = got
        assert expected is not None and body == expected.body
        assert not expected.expired(self.now)  # invariant: never an expired message
        assert md.Expiry > 0 or md.Expiry == CMQC.MQEI_UNLIMITED
        assert md.BackoutCount == expected.backouts
        if sync:
            expected.state, expected.owner = "held", conn
        else:
            self.model.remove(expected)
            self.committed_gets += 1

    @rule(conn=st.integers(0, 1), first=st.booleans())
    def do_browse(self, conn: int, first: bool) -> None:
        after = None if first else self.cursor[conn]
        expected = self.take_first_live(after)
        options = CMQC.MQGMO_BROWSE_FIRST if first else CMQC.MQGMO_BROWSE_NEXT
        got = get_or_none(self.handles[conn], self.now, options)
        if got is None:
            assert expected is None
            return
        body, md = got
        assert expected is not None and body == expected.body
        assert md.Expiry > 0 or md.Expiry == CMQC.MQEI_UNLIMITED
        self.cursor[conn] = self.key(expected)

    @rule(conn=st.integers(0, 1))
    def do_commit(self, conn: int) -> None:
        self.conns[conn].commit()
        for m in [m for m in self.model if m.owner == conn and m.state != "committed"]:
            if m.state == "pending":
                m.state = "committed"
                self.committed_puts += 1
            else:
                self.model.remove(m)
                self.committed_gets += 1

    @rule(conn=st.integers(0, 1))
    def do_backout(self, conn: int) -> None:
        self.conns[conn].backout()
        for m in [m for m in self.model if m.owner == conn and m.state != "committed"]:
            if m.state == "pending":
                self.model.remove(m)
            else:
                m.state = "committed"
                m.backouts += 1

    @rule(seconds=st.sampled_from([0.05, 0.5, 1.0, 3.0]))
    def advance(self, seconds: float) -> None:
        self.now += seconds

    @rule()
    def scan(self) -> None:
        gone = [m for m in self.model if m.state == "committed" and m.expired(self.now)]
        assert self.qm.scan_expired(self.now) == len(gone)
        for m in gone:
            self.model.remove(m)

    @rule()
    def get_by_msg_id(self) -> None:
        # A get matching one MsgId that may or may not be there: must not disturb others.
        md = MD(MsgId=b"NOT-A-REAL-ID".ljust(24, b"\0"))
        assert get_or_none(self.handles[0], self.now, md=md) is None

    # ---- invariants -------------------------------------------------------------
    @invariant()
    def depth_is_visible_plus_uncommitted_plus_expired_undiscarded(self) -> None:
        if not hasattr(self, "qm"):
            return
        expected = sum(m.state in ("committed", "pending") for m in self.model)
        assert self.qm.depth("Q") == expected

    @invariant()
    def committed_messages_are_conserved(self) -> None:
        if not hasattr(self, "qm"):
            return
        discarded = sum(isinstance(e, Discarded) for e in self.events)
        on_queue = sum(m.state != "pending" for m in self.model)
        assert self.committed_puts == self.committed_gets + discarded + on_queue


EngineMachine.TestCase.settings = settings(max_examples=150, stateful_step_count=40, deadline=None)
test_engine_agrees_with_the_reference_model = EngineMachine.TestCase
