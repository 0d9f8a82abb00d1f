"""The async MQI of a running world: connections and object handles, as pymqi names them.

Each call goes through its queue manager's dispatcher (``QueueManager.dispatch``), runs
the rules layer at the simulated ``now``, reports what happened to the event stream, and
wakes the getters that may now find a message. MQGET with MQGMO_WAIT waits in simulated
time for WaitInterval milliseconds (MQWI_UNLIMITED: for ever). A connection whose queue
manager was killed, or restarted since, fails with MQRC_CONNECTION_BROKEN.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

import trio

from actors.events import MessageGot, MessagePut, UnitOfWorkEnded
from actors.reach import CALLER
from qsg import CMQC
from qsg.core import engine
from qsg.core.connection import Connection as RulesConnection
from qsg.core.errors import MQMIError
from qsg.core.handle import Handle
from qsg.core.outcome import Done
from qsg.core.queue import QueueDefinition
from qsg.core.store import MATCH_ANY, MessageStore
from qsg.core.structs import GMO, MD, OD, PMO

if TYPE_CHECKING:
    from actors.qmgr import QueueManager

T = TypeVar("T")
_BROWSE = CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_BROWSE_NEXT | CMQC.MQGMO_BROWSE_MSG_UNDER_CURSOR
# A waiting get with any of these looks for particular messages (it is not "plain").
_SELECTIVE = (
    _BROWSE
    | CMQC.MQGMO_LOGICAL_ORDER
    | CMQC.MQGMO_ALL_MSGS_AVAILABLE
    | CMQC.MQGMO_ALL_SEGMENTS_AVAILABLE
    | CMQC.MQGMO_COMPLETE_MSG
    | CMQC.MQGMO_LOCK
)


@dataclass(slots=True)
class GetPlan:
    """An MQGET under way: whether it waits and until when, whether it takes any message
    (``plain``), and the options its attempts are checked with."""

    waits: bool
    deadline: float
    plain: bool
    checked: tuple[int, int, bool]


class Connection:
    """MQCONN's connection to a queue manager of the world."""

    def __init__(self, qm: QueueManager, conn: RulesConnection) -> None:
        self.qm = qm
        self.conn = conn
        self.incarnation = qm.incarnation

    @property
    def q_mgr_name(self) -> str:
        return self.qm.name

    async def open(self, target: str | bytes | OD, options: int) -> Queue:
        """MQOPEN: a queue by name or OD, with MQOO_* options."""
        handle = await self._call(lambda now: self.conn.open(target, options), verb="mqopen")
        return Queue(self, handle)

    async def put1(
        self,
        target: str | bytes | OD,
        body: bytes | str,
        md: MD | None = None,
        pmo: PMO | None = None,
    ) -> None:
        """MQPUT1: open, put one message, close."""
        md = MD() if md is None else md
        pmo = PMO() if pmo is None else pmo
        handle = await self._call(
            lambda now: self.conn.put1(target, body, md, pmo, now=now), verb="mqput1"
        )
        assert handle.done is not None  # the put completed
        self._put_done(handle, body, md, handle.done)

    async def commit(self) -> None:
        """MQCMIT."""
        await self._end_uow(committed=True)

    async def backout(self) -> None:
        """MQBACK."""
        await self._end_uow(committed=False)

    async def disconnect(self) -> None:
        """MQDISC: commits the unit of work and closes the handles still open."""
        stores = list(self.conn.uow.stores)
        await self._call(lambda now: self.conn.disconnect())
        self._wake(stores)

    async def _end_uow(self, *, committed: bool) -> None:
        stores = list(self.conn.uow.stores)
        end = self.conn.commit if committed else self.conn.backout
        await self._call(
            lambda now: end(),
            shared=any(s is not self.qm.rules.store for s in stores),
            verb="mqcmit" if committed else "mqback",
        )
        self._uow_ended(stores, committed=committed)

    def _uow_ended(self, stores: list[MessageStore], *, committed: bool) -> None:
        now = trio.current_time()
        self.qm.world.events.emit(UnitOfWorkEnded(now, self.qm.name, self.conn.number, committed))
        self._wake(stores)

    def _wake(self, stores: list[MessageStore]) -> None:
        signals = self.qm.world.signals
        for store in stores:
            signals.notify_store(store)

    def _put_done(
        self, handle: Handle, body: bytes | str, md: MD, done: Done, now: float | None = None
    ) -> None:
        """A put completed: its event, with what the rules decided (``done``), and the
        getters woken when the message is already visible (``now``: the time, if the
        caller has it)."""
        qm = self.qm
        events = qm.world.events
        if events.wanted(MessagePut, handle.queue):
            size = len(body.encode()) if isinstance(body, str) else len(body)
            events.emit(
                MessagePut(
                    trio.current_time() if now is None else now,
                    qm.name,
                    handle.queue,
                    md.MsgId,
                    size,
                    done.persistent,
                    done.in_uow,
                    md.Expiry,
                    self.conn.user,
                )
            )
        if not done.in_uow:
            qm.world.signals.notify(handle.repository.store, handle.queue)

    async def _call(
        self, call: Callable[[float], T], *, shared: bool = False, verb: str = "other"
    ) -> T:
        self._check_life()
        return await self.qm.dispatch(call, shared=shared, verb=verb)

    def _check_life(self) -> None:
        if self.incarnation != self.qm.incarnation:
            raise MQMIError.failed(
                CMQC.MQRC_CONNECTION_BROKEN, f"queue manager {self.qm.name} was restarted"
            )

    def immediate(self) -> bool:
        """Whether an MQI call of this connection would run at once: nothing in the
        dispatcher can make it wait (see ``QueueManager.immediate``) and the queue
        manager is the life it connected to."""
        qm = self.qm
        return self.incarnation == qm.rules.incarnation and qm.immediate()

    def _call_now(
        self, call: Callable[[float], T], *, shared: bool = False, verb: str = "other"
    ) -> T:
        """``_call`` without the dispatcher's waits, when ``immediate`` said so."""
        self._check_life()
        return self.qm.run_now(call, shared=shared, verb=verb)

    def commit_now(self) -> None:
        """MQCMIT run at once: only when the connection is ``immediate``."""
        stores = list(self.conn.uow.stores)
        shared = any(s is not self.qm.rules.store for s in stores)
        self._call_now(lambda now: self.conn.commit(), shared=shared, verb="mqcmit")
        self._uow_ended(stores, committed=True)


class Queue:
    """An open queue (MQOPEN's object handle). ``name`` is the resolved name."""

    def __init__(self, connection: Connection, handle: Handle) -> None:
        self.connection = connection
        self.handle = handle
        self._shared = handle.repository is not connection.qm.rules.local
        #: The get options (and version) a call on this handle last got past checking
        #: with: a waiting get with the same ones may skip an attempt that must fail.
        self._checked: tuple[int, int, bool] | None = None

    @property
    def name(self) -> str:
        return self.handle.name

    async def put(self, body: bytes | str, md: MD | None = None, pmo: PMO | None = None) -> None:
        """MQPUT; output fields are written back into ``md`` and ``pmo``."""
        md = MD() if md is None else md
        pmo = PMO() if pmo is None else pmo
        connection = self.connection
        if connection.immediate():
            # Nothing in the dispatcher could make the call wait: it runs here and now,
            # as the dispatcher would run it, without a closure and its frames.
            self.put_now(body, md, pmo, trio.current_time())
            return
        handle = self.handle
        try:
            done = await self.connection._call(
                lambda now: handle.put(body, md, pmo, now=now), shared=self._shared, verb="mqput"
            )
        except MQMIError as warning:
            if warning.done is not None:  # MQCC_WARNING: the message was put all the same
                self.connection._put_done(handle, body, md, warning.done)
            raise
        self.connection._put_done(handle, body, md, done)

    def put_now(self, body: bytes | str, md: MD, pmo: PMO, now: float) -> None:
        """MQPUT run at once at ``now`` by the virtual clock (the connection is
        ``immediate``): ``put`` without the dispatcher, and without a closure per call."""
        handle, connection = self.handle, self.connection
        qm = connection.qm
        if connection.incarnation != qm.rules.incarnation:
            connection._check_life()
        # qm.smds_mark and qm.smds_count, inlined: the shared store's SMDS accesses.
        smds = handle.repository.store if self._shared else None
        if smds is not None:
            writes, reads = smds.smds_writes, smds.smds_reads
        caller = qm.enter_now("mqput", self._shared, now)
        try:
            done: Done | None = handle.put(body, md, pmo, now=now)
            warning = None
        except MQMIError as error:
            done, warning = error.done, error  # MQCC_WARNING: the message was put all the same
        finally:
            if caller is not None:
                CALLER.reset(caller)
            if smds is not None and (smds.smds_writes != writes or smds.smds_reads != reads):
                qm.statistics.smds(smds.smds_writes - writes, smds.smds_reads - reads)
        if done is not None:
            connection._put_done(handle, body, md, done, now)
        if warning is not None:
            raise warning

    async def get(
        self, max_length: int | None = None, md: MD | None = None, gmo: GMO | None = None
    ) -> bytes:
        """MQGET (a browse with MQGMO_BROWSE_*); with MQGMO_WAIT it waits WaitInterval
        milliseconds of simulated time for a message to arrive."""
        md = MD() if md is None else md
        gmo = GMO() if gmo is None else gmo
        handle, connection = self.handle, self.connection
        signals, store = connection.qm.world.signals, handle.repository.store
        plan = self.plan(md, gmo)
        while True:
            if self.may_skip(plan):
                # An attempt that could only fail, with these options already checked.
                await signals.wait(store, handle.queue, plan.deadline, plain=True)
                continue
            try:
                if connection.immediate():  # as in ``put``: the dispatcher has no wait
                    return self.get_now(plan, md, gmo, trio.current_time(), max_length)
                body, done = await connection._call(
                    lambda now: handle.receive(max_length, md, gmo, now=now),
                    shared=self._shared,
                    verb="mqget",
                )
            except MQMIError as error:
                if not self.missed(plan, md, gmo, error):
                    raise
                await signals.wait(store, handle.queue, plan.deadline, plain=plan.plain)
                continue
            self.got(plan, md, gmo, body, done)
            return body

    def get_now(
        self, plan: GetPlan, md: MD, gmo: GMO, now: float, max_length: int | None = None
    ) -> bytes:
        """One attempt, at ``now``, of the MQGET ``plan`` was made for, run at once by
        the virtual clock (``immediate``), without a closure per call; it raises what the
        attempt raised (``missed`` says whether to wait)."""
        handle, connection = self.handle, self.connection
        qm = connection.qm
        if connection.incarnation != qm.rules.incarnation:
            connection._check_life()
        smds = handle.repository.store if self._shared else None  # as in ``put_now``
        if smds is not None:
            writes, reads = smds.smds_writes, smds.smds_reads
        caller = qm.enter_now("mqget", self._shared, now)
        try:
            body, done = handle.receive(max_length, md, gmo, now=now)
        finally:
            if caller is not None:
                CALLER.reset(caller)
            if smds is not None and (smds.smds_writes != writes or smds.smds_reads != reads):
                qm.statistics.smds(smds.smds_writes - writes, smds.smds_reads - reads)
        self.got(plan, md, gmo, body, done, now)
        return body

    # The pieces of MQGET with MQGMO_WAIT, shared by the task's call and the clock's.
    def plan(self, md: MD, gmo: GMO, now: float | None = None) -> GetPlan:
        """What an MQGET with ``md`` and ``gmo`` starting ``now`` (None: the current
        time) waits for, and until when."""
        options = gmo.Options
        waits = bool(options & CMQC.MQGMO_WAIT)
        deadline = math.inf
        if waits and gmo.WaitInterval != CMQC.MQWI_UNLIMITED:
            if now is None:
                now = trio.current_time()
            wait = gmo.WaitInterval
            deadline = now + (wait if wait > 0 else 0) / 1000
        # The rules hand back MATCH_ANY itself in the common case: ``is`` spares the
        # dataclass's ``__eq__``.
        plain = (
            not options & (_SELECTIVE | CMQC.MQGMO_UNLOCK)
            and self.handle.state.locked is None
            and ((match := engine.match_of(md, gmo)) is MATCH_ANY or match == MATCH_ANY)
        )
        checked = (options, gmo.Version, gmo.WaitInterval == CMQC.MQWI_UNLIMITED)
        return GetPlan(waits, deadline, plain, checked)

    def may_skip(self, plan: GetPlan) -> bool:
        """Whether the next attempt could only fail, with these options already checked:
        the get then waits without making it."""
        return (
            plan.plain
            and plan.waits
            and plan.checked == self._checked
            and self.connection.qm.world.signals.surely_empty(
                self.handle.repository.store, self.handle.queue
            )
            and (plan.deadline == math.inf or trio.current_time() < plan.deadline)
            and self._skippable()
        )

    def missed(self, plan: GetPlan, md: MD, gmo: GMO, error: MQMIError) -> bool:
        """An attempt raised ``error``: True if the get is to wait and try again (else
        the error is the call's). A warning that came with a message is its event."""
        if error.done is not None:  # MQCC_WARNING: a message came back all the same
            self._got(error.message or b"", md, gmo, error.done)
        if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
            return False
        self._checked = plan.checked
        if plan.plain:
            self.connection.qm.world.signals.found_empty(
                self.handle.repository.store, self.handle.queue
            )
        return plan.waits and trio.current_time() < plan.deadline

    def got(
        self,
        plan: GetPlan,
        md: MD,
        gmo: GMO,
        body: bytes,
        done: Done | None,
        now: float | None = None,
    ) -> None:
        """An attempt returned: the signals told, the event of the message got (``now``:
        the time, if the caller has it)."""
        self._checked = plan.checked
        if gmo.Options & (CMQC.MQGMO_LOCK | CMQC.MQGMO_UNLOCK):
            handle = self.handle
            self.connection.qm.world.signals.notify(handle.repository.store, handle.queue)
        if done is not None:
            self._got(body, md, gmo, done, now)

    def _got(self, body: bytes, md: MD, gmo: GMO, done: Done, now: float | None = None) -> None:
        """A get returned a message: its event, with what the rules decided (``done``)."""
        handle, qm = self.handle, self.connection.qm
        world = qm.world
        browse = bool(gmo.Options & _BROWSE)
        if not browse:
            world.signals.took(handle.repository.store, handle.queue)
        if not world.events.wanted(MessageGot, handle.queue):
            return
        world.events.emit(
            MessageGot(
                trio.current_time() if now is None else now,
                qm.name,
                handle.queue,
                md.MsgId,
                len(body),
                done.in_uow,
                browse,
                md.Expiry,
                done.persistent,
                self.connection.conn.user,
            )
        )

    def _skippable(self) -> bool:
        """Whether a get attempt may be skipped: costs nothing in the model (so skipping
        it changes no simulated time) and nothing would refuse it rather than answer
        MQRC_NO_MSG_AVAILABLE (queue manager down, handle closed, gets inhibited)."""
        handle, connection = self.handle, self.connection
        qm = connection.qm
        costs = qm.world.costs
        if costs.cpu_per_call or (costs.cf_access and self._shared):
            return False
        qdef = handle.repository.queues.get(handle.queue)
        return (
            qm.alive
            and connection.incarnation == qm.rules.incarnation
            and handle.open
            and handle.conn.connected
            and handle.via is None
            and not handle.status.logically_deleted
            and isinstance(qdef, QueueDefinition)
            and qdef.inhibit_get == CMQC.MQQA_GET_ALLOWED
        )

    async def inquire(self, selector: int) -> int | bytes:
        """MQINQ of one attribute (MQIA_CURRENT_Q_DEPTH, MQIA_MAX_Q_DEPTH, ...)."""
        handle = self.handle
        value = await self.connection._call(
            lambda now: handle.inquire(selector), shared=self._shared, verb="mqinq"
        )
        return value

    async def set(self, selector: int, value: int) -> None:
        """MQSET of MQIA_INHIBIT_PUT or MQIA_INHIBIT_GET."""
        handle = self.handle
        await self.connection._call(lambda now: handle.set(selector, value), verb="mqset")

    async def close(self, options: int = CMQC.MQCO_NONE) -> None:
        """MQCLOSE (MQCO_DELETE / MQCO_DELETE_PURGE for a permanent dynamic queue)."""
        handle = self.handle
        await self.connection._call(lambda now: handle.close(options), verb="mqclose")
        self.connection.qm.world.signals.notify(handle.repository.store, handle.queue)


__all__ = ["Connection", "GetPlan", "Queue"]
