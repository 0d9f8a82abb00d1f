"""A scenario's applications: putters, getters, requesters and servers, as trio tasks.

Each application is one MQ client of the running world: it connects, opens its queue
and works through the async MQI like a real program, drawing sizes, priorities, service
and inter-arrival times from the run's one ``random.Random``. An MQI call that fails is
an ``ApplicationError`` event; an application whose queue manager went away (killed,
restarted: MQRC_CONNECTION_BROKEN, MQRC_Q_MGR_NOT_AVAILABLE) or whose coupling
facility is unreachable (MQRC_CF_STRUC_FAILED) waits ``RECONNECT`` seconds, connects
again and carries on, as a well-written MQ application does. A message put in a unit of
work that a kill backed out is gone: that is MQ's behaviour, not the application's.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

import trio

from actors import arrivals, clock, drive
from actors.events import ApplicationError, ReplyReceived
from actors.history import recorded
from actors.mqi import Connection, Queue
from qsg import CMQC
from qsg.core.errors import MQMIError
from qsg.core.queue import MAX_MSG_LENGTH
from qsg.core.structs import GMO, MD, OD, PMO

if TYPE_CHECKING:
    import random

    from actors.config import Workload
    from actors.world import World

T = TypeVar("T")


class _Failed(enum.Enum):
    FAILED = "failed"


#: What ``Application.attempt`` returns when the MQI call failed.
FAILED = _Failed.FAILED
NO_MSG = frozenset({CMQC.MQRC_NO_MSG_AVAILABLE})
#: Seconds an application waits before connecting again after losing its queue manager.
RECONNECT = 1.0
#: Reasons after which an application reconnects rather than carrying on.
LOST = frozenset(
    {
        CMQC.MQRC_CONNECTION_BROKEN,
        CMQC.MQRC_Q_MGR_NOT_AVAILABLE,
        CMQC.MQRC_CF_STRUC_FAILED,
        CMQC.MQRC_HCONN_ERROR,
        CMQC.MQRC_HOBJ_ERROR,
    }
)
#: Reasons that say the connection is gone with its queue manager's life.
GONE = frozenset(
    {
        CMQC.MQRC_CONNECTION_BROKEN,
        CMQC.MQRC_Q_MGR_NOT_AVAILABLE,
        CMQC.MQRC_HCONN_ERROR,
    }
)


def descriptor(w: Workload, rng: random.Random) -> tuple[bytes, MD]:
    """A message body and MQMD as ``w`` puts them: size, priority, expiry, persistence,
    report options and reply-to queue drawn or taken from the workload."""
    # Drawn values are clipped to what MQ allows: sizes to 100 MB, priorities to 0..9.
    size = min(MAX_MSG_LENGTH, max(0, round(w.size.draw(rng))))
    priority = w.priority
    md = MD(
        Expiry=w.expiry,
        Persistence=w.persistence,
        Report=w.report,
        Priority=CMQC.MQPRI_PRIORITY_AS_Q_DEF
        if priority is None
        else min(9, max(0, round(priority.draw(rng)))),
    )
    if w.reply_to:
        md.ReplyToQ = w.reply_to.encode()
        md.ReplyToQMgr = w.reply_to_qmgr.encode()
    return bytes(size), md


def put_options(w: Workload) -> int:
    return CMQC.MQPMO_SYNCPOINT if w.syncpoint else CMQC.MQPMO_NO_SYNCPOINT


def get_options(w: Workload) -> int:
    options = CMQC.MQGMO_WAIT | CMQC.MQGMO_FAIL_IF_QUIESCING
    options |= CMQC.MQGMO_SYNCPOINT if w.syncpoint else CMQC.MQGMO_NO_SYNCPOINT
    if w.logical_order:
        options |= CMQC.MQGMO_LOGICAL_ORDER
    return options


def open_options(w: Workload) -> int:
    if w.kind in ("putter", "requester"):
        return CMQC.MQOO_OUTPUT | CMQC.MQOO_FAIL_IF_QUIESCING
    return CMQC.MQOO_INPUT_AS_Q_DEF | CMQC.MQOO_FAIL_IF_QUIESCING


class Application:
    """One instance (``index``) of a workload, with its connection and open queue."""

    def __init__(
        self, world: World, w: Workload, index: int, origin: float = 0.0, end: float = math.inf
    ) -> None:
        self.world = world
        #: The trio time the run began: the workload's start and stop count from it.
        self.origin = origin
        #: When the application stops: its own stop, at the latest the run's end.
        self.stop = min(end, origin + w.stop) if w.stop is not None else end
        self.w = w
        self.name = f"{w.label}#{index}"
        self.rng = world.random
        self.conn: Connection | None = None
        self.queue: Queue | None = None
        #: A connection lost with a unit of work in flight, to back out before the next.
        self.stale: Connection | None = None
        self.in_uow = 0  # messages in the current unit of work
        self.sent = 0  # messages a putter has put
        self.pmo_options = put_options(w)
        if w.group_size > 1:
            self.pmo_options |= CMQC.MQPMO_LOGICAL_ORDER
        #: A call made by the clock failed as one after which the application waits
        #: RECONNECT seconds: the task is to wait them (``attempt_now``).
        self.resting = False

    async def run(self) -> None:
        w = self.w
        await clock.sleep_until(self.origin + w.start)
        with trio.move_on_at(self.stop):
            await {
                "putter": self.putter,
                "getter": self.getter,
                "requester": self.requester,
                "server": self.server,
            }[w.kind]()
        # A syncpoint application commits what it holds, a get not yet counted included.
        if self.conn is not None and self.w.syncpoint:
            await self.attempt(self.conn.commit, op="commit")

    # ---- the four kinds ---------------------------------------------------------------
    async def putter(self) -> None:
        w = self.w
        while w.count is None or self.sent < w.count:
            if drive.possible(self):  # the clock makes the arrivals while it can
                handoff = await drive.Putter(self).go()
                if handoff is drive.Handoff.DONE:
                    break
                if handoff is drive.Handoff.PAUSE:
                    await clock.sleep(RECONNECT)
                    continue
                # DUE: this arrival is the task's to make, now
            else:
                await clock.sleep(self.gap())
            queue = await self.ensure_open()
            if queue is None:
                continue
            body, md = self.message()
            put = await self.attempt(
                queue.put,
                body,
                md,
                PMO(Options=self.pmo_options),
                op="put",
                md=md,
                syncpoint=bool(w.syncpoint),
            )
            if put is not FAILED:
                self.sent += 1
                await self.counted()

    async def getter(self) -> None:
        while True:
            if drive.possible(self):  # the clock makes the gets while it can
                handoff = await drive.Getter(self).go()
                if handoff is drive.Handoff.PAUSE:
                    await clock.sleep(RECONNECT)
                    continue
                if handoff is drive.Handoff.COUNT:
                    await self.counted()
                    continue
                # DUE: the next MQGET is the task's to make
            queue = await self.ensure_open()
            if queue is None:
                continue
            got = await self.get(queue, MD())
            if got is not None:
                await clock.sleep(self.w.service.draw(self.rng))
                await self.counted()

    async def server(self) -> None:
        w = self.w
        while True:
            queue = await self.ensure_open()
            if queue is None:
                continue
            request = MD()
            body = await self.get(queue, request)
            if body is None or self.conn is None:
                continue
            await clock.sleep(w.service.draw(self.rng))
            if request.MsgType == CMQC.MQMT_REQUEST and request.ReplyToQ.strip(b" \0"):
                await self.attempt(self.reply, request, body)
            await self.counted()

    async def requester(self) -> None:
        w, rng = self.w, self.rng
        sent = 0
        reply_queue: Queue | None = None
        while w.count is None or sent < w.count:
            began = trio.current_time()
            queue = await self.ensure_open()
            if queue is None:
                continue
            if reply_queue is None or reply_queue.connection is not self.conn:
                reply_queue = await self.open_reply_queue()
                if reply_queue is None:
                    continue
            body, md = descriptor(w, rng)
            md.MsgType = CMQC.MQMT_REQUEST
            md.ReplyToQ = reply_queue.name.encode()
            pmo = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
            if self.world.history:
                md.MsgId = self.world.new_msg_id()
            if await self.attempt(queue.put, body, md, pmo, op="put", md=md) is not FAILED:
                sent += 1
                await self.await_reply(reply_queue, md.MsgId, began)
            await clock.sleep_until(began + self.gap(began))

    # ---- pieces -----------------------------------------------------------------------
    def message(self) -> tuple[bytes, MD]:
        """The putter's next message: its body and MQMD (in its group, if it puts
        groups; with a MsgId chosen beforehand if the world keeps a history)."""
        body, md = descriptor(self.w, self.rng)
        group = self.w.group_size
        if group > 1:
            md.Version = CMQC.MQMD_VERSION_2
            last = (self.sent + 1) % group == 0
            md.MsgFlags = CMQC.MQMF_LAST_MSG_IN_GROUP if last else CMQC.MQMF_MSG_IN_GROUP
        if self.world.history:
            md.MsgId = self.world.new_msg_id()
        return body, md

    def gap(self, since: float | None = None) -> float:
        """The time to the next message (from ``since``, a trio time; now if None), from
        the workload's arrival process at its rate or its load shape."""
        rate, arrival = self.w.rate, self.w.arrival
        if self.w.profile is not None:
            at = trio.current_time() if since is None else since
            return arrivals.gap(self.w.profile, arrival, at - self.origin, self.rng)
        if arrival == "constant":
            return 1.0 / rate
        if arrival == "uniform":
            return self.rng.uniform(0.0, 2.0 / rate)
        return self.rng.expovariate(rate)

    async def ensure_open(self) -> Queue | None:
        """The open queue, connecting (again) first if need be; None after a failure
        (the application has waited RECONNECT seconds)."""
        if self.queue is not None:
            return self.queue
        w = self.w

        async def connect() -> None:
            await self.abandon()
            self.conn = await self.world.connect(w.qmgr, user=w.label)
            self.in_uow = 0
            self.queue = await self.conn.open(w.queue, open_options(w))

        if await self.attempt(connect, pause=True) is FAILED:
            self.conn = self.queue = None
        return self.queue

    async def abandon(self) -> None:
        """MQBACK and MQDISC of a connection lost to a fault, as a well-written application
        does before connecting again: its unit of work must not hold messages for ever.
        If its queue manager went away, the unit of work is the queue manager's (or a
        peer's) to recover; if the facility is still unreachable, this fails and the
        application tries again later."""
        stale, self.stale = self.stale, None
        if stale is None:
            return
        try:
            await self.record(stale.backout, "backout", self.w.queue)
            await stale.disconnect()
        except MQMIError as error:
            if error.reason not in GONE:
                self.stale = stale
                raise

    async def open_reply_queue(self) -> Queue | None:
        """The requester's own temporary dynamic reply queue, from its model queue."""
        assert self.conn is not None
        conn, w = self.conn, self.w
        od = OD(ObjectName=w.reply_model.encode(), DynamicQName=w.reply_name.encode())
        opened = await self.attempt(conn.open, od, CMQC.MQOO_INPUT_EXCLUSIVE, pause=True)
        return None if opened is FAILED else opened

    def get_options(self, md: MD, now: float | None = None) -> GMO:
        """The GMO of a waiting MQGET starting ``now`` (None: the current time), not
        waiting past the workload's stop; ``md`` is made ready for it."""
        w = self.w
        left_ms = (self.stop - (trio.current_time() if now is None else now)) * 1000
        # At least a millisecond: a get that cannot wait would spin in simulated time.
        wait = max(1, min(w.wait, math.ceil(left_ms)))
        gmo = GMO(Options=get_options(w), WaitInterval=wait)
        if w.logical_order:
            md.Version = CMQC.MQMD_VERSION_2
            gmo.Version = CMQC.MQGMO_VERSION_2
        return gmo

    async def get(self, queue: Queue, md: MD) -> bytes | None:
        """One waiting MQGET (not past the workload's stop); None if nothing came."""
        w = self.w
        gmo = self.get_options(md)
        got = await self.attempt(
            queue.get,
            None,
            md,
            gmo,
            quiet=NO_MSG,
            pause=True,
            op="get",
            md=md,
            syncpoint=bool(w.syncpoint),
        )
        return None if got is FAILED else got

    async def reply(self, request: MD, body: bytes) -> None:
        """The server's reply: to ReplyToQ at ReplyToQMgr, CorrelId as the request's
        report options say (MQRO_COPY_MSG_ID_TO_CORREL_ID unless MQRO_PASS_CORREL_ID)."""
        assert self.conn is not None
        correl = request.CorrelId if request.Report & CMQC.MQRO_PASS_CORREL_ID else request.MsgId
        md = MD(
            MsgType=CMQC.MQMT_REPLY,
            CorrelId=correl,
            Persistence=request.Persistence,
            Expiry=request.Expiry,
        )
        od = OD(ObjectName=request.ReplyToQ, ObjectQMgrName=request.ReplyToQMgr)
        options = CMQC.MQPMO_SYNCPOINT if self.w.syncpoint else CMQC.MQPMO_NO_SYNCPOINT
        if self.world.history:
            md.MsgId = self.world.new_msg_id()
        await self.record(
            partial(self.conn.put1, od, body, md, PMO(Options=options)),
            "put",
            request.ReplyToQ.decode().strip(),
            md,
            bool(self.w.syncpoint),
        )

    async def await_reply(self, reply_queue: Queue, msg_id: bytes, began: float) -> None:
        w = self.w
        md = MD(CorrelId=msg_id)
        gmo = GMO(
            Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT,
            WaitInterval=w.timeout,
            MatchOptions=CMQC.MQMO_MATCH_CORREL_ID,
        )
        got = await self.attempt(reply_queue.get, None, md, gmo, quiet=NO_MSG, op="get", md=md)
        now = trio.current_time()
        self.world.events.emit(
            ReplyReceived(
                now,
                w.qmgr,
                self.name,
                reply_queue.name,
                msg_id,
                None if got is FAILED else now - began,
            )
        )

    async def counted(self) -> None:
        """One more message in the unit of work: commit every ``syncpoint`` of them."""
        if not self.w.syncpoint or self.conn is None:
            return
        self.in_uow += 1
        if self.in_uow >= self.w.syncpoint:
            conn = self.conn
            if await self.attempt(conn.commit, op="commit") is not FAILED:
                self.in_uow = 0

    def counted_now(self) -> bool:
        """``counted`` made by the clock (the connection is immediate); False if its
        commit failed as one after which the application waits RECONNECT seconds."""
        if not self.w.syncpoint or self.conn is None:
            return True
        self.in_uow += 1
        if self.in_uow >= self.w.syncpoint:
            if self.attempt_now(self.conn.commit_now):
                self.in_uow = 0
            elif self.resting:
                return False
        return True

    async def record(
        self,
        call: Callable[[], Awaitable[T]],
        op: str,
        queue: str,
        md: MD | None = None,
        syncpoint: bool = False,
    ) -> T:
        """``call()``, recorded in the world's history if it keeps one."""
        return await recorded(
            self.world,
            call,
            q_mgr=self.w.qmgr,
            app=self.name,
            op=op,
            queue=queue,
            md=md,
            syncpoint=syncpoint,
        )

    async def attempt(
        self,
        call: Callable[..., Awaitable[T]],
        *args: Any,
        quiet: frozenset[int] = frozenset(),
        pause: bool = False,
        op: str = "",
        md: MD | None = None,
        syncpoint: bool = False,
    ) -> T | _Failed:
        """Run one MQI step; on MQMIError note it (unless ``quiet``) and, if the queue
        manager or the CF is lost, drop the connection and wait RECONNECT seconds before
        the next try (with ``pause``, after any failure: a loop that is not paced by its
        arrivals must not retry in the same simulated instant). A step with an ``op`` is
        part of the history (``md``: the put's or get's descriptor)."""
        try:
            if op and self.world.history:
                return await self.record(partial(call, *args), op, self.w.queue, md, syncpoint)
            return await call(*args)
        except MQMIError as error:
            if self.failed(error, quiet, pause):
                await clock.sleep(RECONNECT)
            return FAILED

    def attempt_now(self, call: Callable[..., object], *args: Any) -> bool:
        """``attempt`` of a call made at once by the clock (never with a history): True
        if it succeeded; a failure after which the task would wait RECONNECT seconds
        sets ``resting``."""
        self.resting = False
        try:
            call(*args)
        except MQMIError as error:
            self.resting = self.failed(error)
            return False
        return True

    def failed(
        self, error: MQMIError, quiet: frozenset[int] = frozenset(), pause: bool = False
    ) -> bool:
        """Note a failed MQI call (see ``attempt``); True if the application is now to
        wait RECONNECT seconds."""
        if error.reason in quiet:
            return False
        w, now = self.w, trio.current_time()
        self.world.events.emit(ApplicationError(now, w.qmgr, self.name, w.queue, error.reason))
        if error.reason in LOST:
            if self.w.syncpoint and self.conn is not None:
                self.stale = self.conn
            self.conn = self.queue = None
            self.in_uow = 0
        return pause or error.reason in LOST


async def run_workloads(
    world: World, workloads: tuple[Workload, ...], origin: float = 0.0, end: float = math.inf
) -> None:
    """Every application of ``workloads``, until each has reached its stop (times count
    from ``origin``, the trio time the run began; none goes on past ``end``)."""
    async with trio.open_nursery() as nursery:
        for w in workloads:
            for index in range(w.apps):
                nursery.start_soon(Application(world, w, index, origin, end).run)


__all__ = [
    "Application",
    "descriptor",
    "get_options",
    "open_options",
    "put_options",
    "run_workloads",
]
