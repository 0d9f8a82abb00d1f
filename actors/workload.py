"""A scenario's applications: putters, getters, requesters and servers.

Each application is one MQ client of the running world: it connects, opens its queue
and works through the MQI like a real program, drawing sizes, priorities, service
and inter-arrival times from the run's one ``random.Random``. An MQI call that fails is
an ``ApplicationError`` event; an application whose queue manager went away (killed,
restarted: MQRC_CONNECTION_BROKEN, MQRC_Q_MGR_NOT_AVAILABLE) or whose coupling
facility is unreachable (MQRC_CF_STRUC_FAILED) waits ``RECONNECT`` seconds, connects
again and carries on, as a well-written MQ application does. A message put in a unit of
work that a kill backed out is gone: that is MQ's behaviour, not the application's.

Each kind's behaviour is written once, as a program (``actors.program``): the
application's trio task runs it, and hands it to the virtual clock's timers while
nothing can make its calls wait (``actors.drive``).
"""

from __future__ import annotations

import enum
import math
import random
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Protocol, TypeVar

import trio

from actors import arrivals, clock, drive, program
from actors.config import Workload
from actors.events import ApplicationError, EventLog, ReplyReceived
from actors.history import recorded, recording
from actors.mqi import Commit, Connection, MQICall, Put, Put1, Queue
from actors.program import Delay, Next, Program, Rest, awaiting
from qsg import CMQC
from qsg.core.errors import MQMIError
from qsg.core.queue import MAX_MSG_LENGTH
from qsg.core.structs import GMO, MD, OD, PMO

T = TypeVar("T")


class ApplicationHost(Protocol):
    """What an application uses of the world it runs in (``World``): MQCONN, the run's
    one random number generator, the event stream, and the history a chaos run keeps
    (with the MsgIds its clients choose)."""

    @property
    def random(self) -> random.Random: ...
    @property
    def events(self) -> EventLog: ...
    @property
    def history(self) -> bool: ...

    async def connect(self, q_mgr: str, user: str | None = None) -> Connection: ...
    def new_msg_id(self) -> bytes: ...


class _Failed(enum.Enum):
    FAILED = "failed"


#: What ``Application.attempt`` returns when the MQI call failed.
FAILED = _Failed.FAILED
NO_MSG = frozenset({CMQC.MQRC_NO_MSG_AVAILABLE})
#: A getter's next MQGET is due at once (one instruction for every get).
NEXT_NOW = Next(None)
#: Seconds an application waits before connecting again after losing its queue manager.
RECONNECT = 1.0
#: Reasons after which an application reconnects rather than carrying on.
LOST = frozenset(
    {
        CMQC.MQRC_CONNECTION_BROKEN,
        CMQC.MQRC_Q_MGR_NOT_AVAILABLE,
        CMQC.MQRC_CF_STRUC_FAILED,
        CMQC.MQRC_CF_NOT_AVAILABLE,
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
    """A putter's and requester's open is for output; a getter's and server's for shared
    input, said explicitly: a workload's instances (and other members' instances, on a
    shared queue) get from one queue together, and MQOO_INPUT_AS_Q_DEF would take z/OS's
    default DEFSOPT(EXCL) and refuse the second with MQRC_OBJECT_IN_USE (2042). A
    NOSHARE queue still makes the open exclusive."""
    if w.kind in ("putter", "requester"):
        return CMQC.MQOO_OUTPUT | CMQC.MQOO_FAIL_IF_QUIESCING
    return CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_FAIL_IF_QUIESCING


class Application:
    """One instance (``index``) of a workload, with its connection and open queue.

    Each kind's behaviour is a program (``actors.program``): the putter's, the getter's,
    the requester's and the server's loop, written once. The application's task runs it,
    and hands it to the virtual clock while the clock can make its calls (``drive``)."""

    def __init__(
        self,
        world: ApplicationHost,
        w: Workload,
        index: int,
        origin: float = 0.0,
        end: float = math.inf,
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
        options = put_options(w)
        if w.group_size > 1:
            options |= CMQC.MQPMO_LOGICAL_ORDER
        #: The putter's PMO, as an MQ program keeps one: only its output fields change
        #: from put to put.
        self.pmo = PMO(Options=options)
        #: The getter's GMO (``get_options``), kept from get to get while it serves.
        self.gmo: GMO | None = None
        #: The clock's side of the application, which runs its program while it can.
        self.drive = drive.Drive(self)

    async def run(self) -> None:
        w = self.w
        await clock.sleep_until(self.origin + w.start)
        programs = {
            "putter": self.putter,
            "getter": self.getter,
            "requester": self.requester,
            "server": self.server,
        }
        with trio.move_on_at(self.stop):
            await program.run(programs[w.kind](), self.drive)
        # A syncpoint application commits what it holds, a get not yet counted included.
        if self.conn is not None and self.w.syncpoint:
            commit = self.attempt(Commit(self.conn), op="commit")
            await program.run(commit)

    # ---- the four kinds ---------------------------------------------------------------
    def putter(self) -> Program[None]:
        w = self.w
        while w.count is None or self.sent < w.count:
            yield Next(self.gap())  # the next arrival
            queue = self.queue
            if queue is None:
                queue = yield from self.ensure_open()
                if queue is None:
                    continue
            body, md = self.message()
            put = yield from self.attempt(
                Put(queue, body, md, self.pmo), op="put", md=md, syncpoint=bool(w.syncpoint)
            )
            if put is not FAILED:
                self.sent += 1
                if w.syncpoint:
                    yield from self.counted()

    def getter(self) -> Program[None]:
        w = self.w
        while True:
            now: float = yield NEXT_NOW  # the next MQGET, at once
            queue = self.queue
            if queue is None:
                queue = yield from self.ensure_open()
                if queue is None:
                    continue
                now = program.now()
            got = yield from self.get(queue, MD(), now)
            if got is not FAILED:
                yield Delay(w.service.draw(self.rng))
                if w.syncpoint:
                    yield from self.counted()

    def server(self) -> Program[None]:
        w = self.w
        while True:
            yield NEXT_NOW  # the next request's MQGET, at once
            queue = yield from self.ensure_open()
            if queue is None:
                continue
            request = MD()
            body = yield from self.get(queue, request, program.now())
            if body is FAILED or self.conn is None:
                continue
            yield Delay(w.service.draw(self.rng))
            if request.MsgType == CMQC.MQMT_REQUEST and request.ReplyToQ.strip(b" \0"):
                put1, md = self.reply(request, body)
                queue_name = request.ReplyToQ.decode().strip()
                yield from self.attempt(
                    put1, op="put", md=md, syncpoint=bool(w.syncpoint), queue=queue_name
                )
            yield from self.counted()

    def requester(self) -> Program[None]:
        w, rng = self.w, self.rng
        sent = 0
        reply_queue: Queue | None = None
        while w.count is None or sent < w.count:
            began = program.now()
            queue = yield from self.ensure_open()
            if queue is None:
                continue
            if reply_queue is None or reply_queue.connection is not self.conn:
                reply_queue = yield from self.open_reply_queue()
                if reply_queue is None:
                    continue
            body, md = descriptor(w, rng)
            md.MsgType = CMQC.MQMT_REQUEST
            md.ReplyToQ = reply_queue.name.encode()
            pmo = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
            if self.world.history:
                md.MsgId = self.world.new_msg_id()
            put = yield from self.attempt(Put(queue, body, md, pmo), op="put", md=md)
            if put is not FAILED:
                sent += 1
                yield from self.await_reply(reply_queue, md.MsgId, began)
            # Paced from when the request began: the next is due a gap after it (at once
            # if the reply took longer).
            yield Next(max(0.0, began + self.gap(began) - program.now()))

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
            at = program.now() if since is None else since
            return arrivals.gap(self.w.profile, arrival, at - self.origin, self.rng)
        if arrival == "constant":
            return 1.0 / rate
        if arrival == "uniform":
            return self.rng.uniform(0.0, 2.0 / rate)
        return self.rng.expovariate(rate)

    def ensure_open(self) -> Program[Queue | None]:
        """The open queue, connecting (again) first if need be; None after a failure
        (the application has waited RECONNECT seconds)."""
        if self.queue is not None:
            return self.queue
        if (yield from self.attempt(awaiting(self._connect), pause=True)) is FAILED:
            self.conn = self.queue = None
        return self.queue

    async def _connect(self) -> None:
        w = self.w
        await self.abandon()
        self.conn = await self.world.connect(w.qmgr, user=w.label)
        self.in_uow = 0
        self.queue = await self.conn.open(w.queue, open_options(w))

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

    def open_reply_queue(self) -> Program[Queue | None]:
        """The requester's own temporary dynamic reply queue, from its model queue."""
        assert self.conn is not None
        conn, w = self.conn, self.w
        od = OD(ObjectName=w.reply_model.encode(), DynamicQName=w.reply_name.encode())
        open_it = partial(conn.open, od, CMQC.MQOO_INPUT_EXCLUSIVE)
        opened = yield from self.attempt(awaiting(open_it), pause=True)
        return None if opened is FAILED else opened

    def get_options(self, md: MD, now: float) -> GMO:
        """The GMO of a waiting MQGET starting ``now``, not waiting past the workload's
        stop; ``md`` is made ready for it."""
        w = self.w
        left_ms = (self.stop - now) * 1000
        # At least a millisecond: a get that cannot wait would spin in simulated time.
        wait = max(1, min(w.wait, math.ceil(left_ms)))
        gmo = self.gmo
        if gmo is not None and gmo.WaitInterval == wait:
            # The application's GMO, as an MQ program keeps one: MQGET writes only its
            # output fields (ResolvedQName, ReturnedLength, GroupStatus, SegmentStatus),
            # which no get reads, so it serves every get with the same WaitInterval.
            return gmo
        gmo = GMO(Options=get_options(w), WaitInterval=wait)
        if w.logical_order:  # a version-2 GMO, whose input fields MQGET may write
            md.Version = CMQC.MQMD_VERSION_2
            gmo.Version = CMQC.MQGMO_VERSION_2
        else:
            self.gmo = gmo
        return gmo

    def get(self, queue: Queue, md: MD, now: float) -> Program[bytes | _Failed]:
        """One waiting MQGET starting ``now`` (not past the workload's stop); FAILED if
        nothing came. (It hands back the attempt's program itself: a generator less a
        message.)"""
        gmo = self.get_options(md, now)
        return self.attempt(
            queue.getting(None, md, gmo, now),
            quiet=NO_MSG,
            pause=True,
            op="get",
            md=md,
            syncpoint=bool(self.w.syncpoint),
        )

    def reply(self, request: MD, body: bytes) -> tuple[Put1, MD]:
        """The server's reply, an MQPUT1 to ReplyToQ at ReplyToQMgr, and its MQMD:
        CorrelId as the request's report options say (MQRO_COPY_MSG_ID_TO_CORREL_ID
        unless MQRO_PASS_CORREL_ID)."""
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
        return Put1(self.conn, od, body, md, PMO(Options=options)), md

    def await_reply(self, reply_queue: Queue, msg_id: bytes, began: float) -> Program[None]:
        w = self.w
        md = MD(CorrelId=msg_id)
        gmo = GMO(
            Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT,
            WaitInterval=w.timeout,
            MatchOptions=CMQC.MQMO_MATCH_CORREL_ID,
        )
        got = yield from self.attempt(
            reply_queue.getting(None, md, gmo), quiet=NO_MSG, op="get", md=md
        )
        now = program.now()
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

    def counted(self) -> Program[None]:
        """One more message in the unit of work: commit every ``syncpoint`` of them."""
        if not self.w.syncpoint or self.conn is None:
            return
        self.in_uow += 1
        if self.in_uow < self.w.syncpoint:
            return
        if (yield from self.attempt(Commit(self.conn), op="commit")) is not FAILED:
            self.in_uow = 0

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

    def attempt(
        self,
        work: MQICall[T] | Program[T],
        *,
        quiet: frozenset[int] = frozenset(),
        pause: bool = False,
        op: str = "",
        md: MD | None = None,
        syncpoint: bool = False,
        queue: str | None = None,
    ) -> Program[T | _Failed]:
        """One MQI step (a call, or a program of them); on MQMIError note it (unless
        ``quiet``) and, if the queue manager or the CF is lost, drop the connection and
        wait RECONNECT seconds before the next try (with ``pause``, after any failure: a
        loop that is not paced by its arrivals must not retry in the same simulated
        instant). A step with an ``op`` is part of the history (``md``: the put's or
        get's descriptor; ``queue``: the queue it is recorded on, the workload's if None),
        recorded around it (``actors.history.recording``), by the clock or the task,
        whichever makes it."""
        try:
            if op and self.world.history:
                recorded_result: T = yield from recording(
                    self.world,
                    work,
                    q_mgr=self.w.qmgr,
                    app=self.name,
                    op=op,
                    queue=self.w.queue if queue is None else queue,
                    md=md,
                    syncpoint=syncpoint,
                )
                return recorded_result
            if isinstance(work, MQICall):
                result: T = yield work
                return result
            return (yield from work)
        except MQMIError as error:
            if self.failed(error, quiet, pause):
                yield Rest(RECONNECT)
            return FAILED

    def failed(
        self, error: MQMIError, quiet: frozenset[int] = frozenset(), pause: bool = False
    ) -> bool:
        """Note a failed MQI call (see ``attempt``); True if the application is now to
        wait RECONNECT seconds."""
        if error.reason in quiet:
            return False
        w, now = self.w, program.now()
        self.world.events.emit(ApplicationError(now, w.qmgr, self.name, w.queue, error.reason))
        if error.reason in LOST:
            if self.w.syncpoint and self.conn is not None:
                self.stale = self.conn
            self.conn = self.queue = None
            self.in_uow = 0
        return pause or error.reason in LOST


async def run_workloads(
    world: ApplicationHost,
    workloads: tuple[Workload, ...],
    origin: float = 0.0,
    end: float = math.inf,
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
