"""The async MQI of a running world: connections and object handles, as pymqi names them.

Every MQI call is one ``MQICall``: its step (the rules layer's call at the simulated
``now``, which runs to its end without a checkpoint), what it counts as in the queue
manager's statistics (its verb, on a shared queue or not), and what follows it (its event,
the getters it may let find a message). A task makes it with ``perform``: the queue
manager's dispatcher admits it (``QueueManager.dispatch``: a paused queue manager waits,
a dead one refuses, the model's costs are charged), runs the step, and charges the SMDS
accesses it made. When nothing in the dispatcher could make it wait (``immediate``), the
same step runs at once (``perform_now``), as the virtual clock makes the calls of the
applications it drives (``actors.drive``). MQGET with MQGMO_WAIT is a program
(``actors.program``) of attempts and waits: it waits in simulated time for WaitInterval
milliseconds (MQWI_UNLIMITED: for ever). A connection whose queue manager was killed, or
restarted since, fails with MQRC_CONNECTION_BROKEN.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Coroutine
from typing import Any, Protocol, TypeVar

from actors import program
from actors.costs import Costs
from actors.events import EventLog, MessageGot, MessagePut, UnitOfWorkEnded
from actors.program import Program, Wait
from actors.signals import Signals
from qsg import CMQC
from qsg.core import engine
from qsg.core.connection import Connection as RulesConnection
from qsg.core.errors import MQMIError
from qsg.core.handle import Handle
from qsg.core.object_handle import ObjectHandle
from qsg.core.outcome import Done
from qsg.core.qmgr import QMgr
from qsg.core.queue import QueueDefinition
from qsg.core.store import MATCH_ANY, MessageStore
from qsg.core.structs import GMO, MD, OD, PMO

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


class ApplicationWorld(Protocol):
    """What the MQI uses of the world around a queue manager (``World``): the signals
    that wake waiting gets, the event stream, the model's costs now, whether the
    applications record a history (the pymqi facade records its calls there), and whether
    a fault of the run keeps the coupling facility from some member now."""

    @property
    def signals(self) -> Signals: ...
    @property
    def events(self) -> EventLog: ...
    @property
    def costs(self) -> Costs: ...
    @property
    def history(self) -> bool: ...
    @property
    def cf_fault_active(self) -> bool: ...

    def duplexed(self, qsg: str, structure: str) -> bool:
        """Whether ``structure`` of ``qsg`` is duplexed now (a call on it is two CF
        accesses, one per instance)."""


class ConnectedQueueManager(Protocol):
    """What the MQI uses of the queue manager a connection is to (``QueueManager``):
    its name, rules and world, whether it is up, and its dispatcher."""

    @property
    def name(self) -> str: ...
    @property
    def rules(self) -> QMgr: ...
    @property
    def world(self) -> ApplicationWorld: ...
    @property
    def alive(self) -> bool: ...
    @property
    def incarnation(self) -> int: ...
    @property
    def smds_owed(self) -> float: ...
    @smds_owed.setter
    def smds_owed(self, value: float) -> None: ...

    def immediate(self) -> bool: ...
    def clocked(self) -> bool: ...
    def admission(self) -> int: ...
    def admit(self, now: float, verb: str, shared: int) -> float: ...
    def admitted(self) -> None: ...
    async def dispatch(
        self, call: Callable[[float], T], *, shared: int = 0, verb: str = "other"
    ) -> T: ...
    def dispatch_now(
        self, call: Callable[[float], T], now: float, shared: int, verb: str | None
    ) -> T: ...


#: What an attempt that could only fail answers (``Get.surely_fails``), one error for
#: them all: it is read (``Get.missed``), never raised (a get that fails with it raises
#: its own, ``Get.no_message``), so making one per attempt (a tenth of a costed
#: getter's attempt) bought nothing.
SURELY_EMPTY = MQMIError.failed(CMQC.MQRC_NO_MSG_AVAILABLE, "no matching message")


class MQICall(program.Call[T]):
    """One MQI call of ``connection``, made once: the step (``__call__``, the rules'
    call at ``now``), what it counts as (``verb``, on a ``shared`` queue or not) and
    ``done`` (what follows it: its event, the getters woken; the call's result).

    ``perform`` makes it as a task does: the dispatcher admits it (it may wait), runs the
    step and charges its SMDS accesses, then ``done``. ``perform_now`` makes it at once,
    when ``connection.immediate()`` said nothing could make it wait: the same step,
    then ``done``. The virtual clock makes it in the same three parts, each when it is
    due, when ``connection.clocked()``: ``admit`` (its model cost charged: when its step
    is due), ``step`` (made then: when its SMDS accesses have been paid), ``done``."""

    __slots__ = ("connection", "shared", "verb")
    connection: Connection

    def __init__(self, connection: Connection, verb: str, shared: int) -> None:
        self.connection = connection
        self.verb = verb
        self.shared = shared

    def __call__(self, now: float) -> None:
        """The step: the rules' call, at ``now``."""
        raise NotImplementedError

    def done(self, now: float) -> T:
        """After the step, at ``now``: its event, its wake-ups, the call's result."""
        raise NotImplementedError

    async def perform(self) -> T:
        """The call, made by a task: admitted by the dispatcher (which may wait)."""
        connection = self.connection
        if connection.immediate():  # the dispatcher has nothing to wait for
            # ``perform_now``, unrolled: a call fewer an MQPUT (issue 41's hot path).
            now = program.now()
            connection.qm.dispatch_now(self, now, self.shared, self.verb)
            return self.done(now)
        connection._check_life()
        await connection.qm.dispatch(self, shared=self.shared, verb=self.verb)
        return self.done(program.now())

    def perform_now(self, now: float) -> T:
        """The call made at once, at ``now``: only when ``connection.immediate()``."""
        self.connection.qm.dispatch_now(self, now, self.shared, self.verb)
        return self.done(now)

    def admit(self, now: float) -> float:
        """The call let in at ``now`` by the clock (only when ``connection.clocked()``):
        counted and its model cost charged, as ``perform``'s dispatcher does; the time
        its step is due."""
        return self.connection.qm.admit(now, self.verb, self.shared)

    def step(self, now: float) -> float:
        """The step, made by the clock at ``now`` when its cost has been paid: the time
        the call is done, once the SMDS accesses it made have been paid (their model
        cost: an I/O wait after the call, as ``perform``'s dispatcher charges it)."""
        qm = self.connection.qm
        qm.admitted()
        qm.dispatch_now(self, now, self.shared, None)
        if self.shared and qm.smds_owed:
            owed, qm.smds_owed = qm.smds_owed, 0.0
            return now + owed
        return now


class Put(MQICall[None]):
    """MQPUT of ``body`` with ``md`` and ``pmo`` on ``queue``; output fields are written
    back into ``md`` and ``pmo``. A warning (MQCC_WARNING: the message was put all the
    same) is raised after the put's event."""

    __slots__ = ("body", "md", "outcome", "pmo", "queue", "warning")
    outcome: Done  # set by the step

    def __init__(self, queue: Queue, body: bytes | str, md: MD, pmo: PMO) -> None:
        self.connection = queue.connection
        self.verb = "mqput"
        self.shared = queue._shared
        self.queue = queue
        self.body = body
        self.md = md
        self.pmo = pmo
        self.warning: MQMIError | None = None

    def __call__(self, now: float) -> None:
        try:
            self.outcome = self.queue.handle.put(self.body, self.md, self.pmo, now=now)
        except MQMIError as error:
            if error.done is None:
                raise
            self.outcome, self.warning = error.done, error

    def done(self, now: float) -> None:
        queue = self.queue
        queue.connection._put_done(queue.handle, self.body, self.md, self.outcome, now)
        if self.warning is not None:
            raise self.warning


class Put1(MQICall[None]):
    """MQPUT1 of ``body`` with ``md`` and ``pmo`` to ``target``: open for output, put one
    message, close. Output fields are written back into ``md`` and ``pmo``."""

    __slots__ = ("body", "handle", "md", "pmo", "target")
    handle: Handle  # set by the step: the closed handle, which says where the message went

    def __init__(
        self, connection: Connection, target: str | bytes | OD, body: bytes | str, md: MD, pmo: PMO
    ) -> None:
        super().__init__(connection, "mqput1", False)
        self.target = target
        self.body = body
        self.md = md
        self.pmo = pmo

    def __call__(self, now: float) -> None:
        conn = self.connection.conn
        self.handle = conn.put1(self.target, self.body, self.md, self.pmo, now=now)

    def done(self, now: float) -> None:
        handle = self.handle
        assert handle.done is not None  # the put completed
        self.connection._put_done(handle, self.body, self.md, handle.done, now)


class Get(MQICall["bytes | MQMIError"]):
    """MQGET on ``queue`` into ``md`` with ``gmo``, under way since ``now`` (None: the
    current time) in ``Queue.getting``, which waits between its attempts: whether it
    waits and until when (``deadline``), whether it takes any message (``plain``), and
    the options its attempts are checked with. Each time it is made is one attempt: the
    message, or the MQMIError the rules answered with, handed back rather than raised,
    for the get to judge (``missed``: wait and try again, or fail). An error of the
    dispatcher's (the queue manager is down) is raised, as any call's."""

    __slots__ = (
        "body",
        "checked",
        "deadline",
        "error",
        "gmo",
        "max_length",
        "md",
        "outcome",
        "plain",
        "queue",
        "waits",
    )

    body: bytes  # set by each attempt's step that gets a message
    outcome: Done | None  # with ``body``

    def __init__(
        self, queue: Queue, md: MD, gmo: GMO, max_length: int | None, now: float | None = None
    ) -> None:
        self.connection = queue.connection
        self.verb = "mqget"
        self.shared = queue._shared
        self.queue = queue
        self.md = md
        self.gmo = gmo
        self.max_length = max_length
        self.error: MQMIError | None = None
        options = gmo.Options
        self.waits = waits = bool(options & CMQC.MQGMO_WAIT)
        self.deadline = math.inf
        if waits and gmo.WaitInterval != CMQC.MQWI_UNLIMITED:
            wait = gmo.WaitInterval
            start = program.now() if now is None else now
            self.deadline = start + (wait if wait > 0 else 0) / 1000
        # The rules hand back MATCH_ANY itself in the common case: ``is`` spares the
        # dataclass's ``__eq__``.
        self.plain = (
            not options & (_SELECTIVE | CMQC.MQGMO_UNLOCK)
            and queue.handle.state.locked is None
            and ((match := engine.match_of(md, gmo)) is MATCH_ANY or match == MATCH_ANY)
        )
        self.checked = (options, gmo.Version, gmo.WaitInterval == CMQC.MQWI_UNLIMITED)

    def __call__(self, now: float) -> None:
        if self.surely_fails():
            # The attempt could only answer MQRC_NO_MSG_AVAILABLE: its model cost has
            # been charged (``admit``), its answer needs no look at the queue (on a
            # server, no round trip), nor an error of its own (``SURELY_EMPTY``).
            self.error = SURELY_EMPTY
            return
        try:
            self.body, self.outcome = self.queue.handle.receive(
                self.max_length, self.md, self.gmo, now=now
            )
        except MQMIError as error:
            self.error = error

    def done(self, now: float) -> bytes | MQMIError:
        error = self.error
        if error is not None:
            self.error = None  # for the next attempt
            return error
        queue = self.queue
        queue._checked = self.checked
        if self.gmo.Options & (CMQC.MQGMO_LOCK | CMQC.MQGMO_UNLOCK):
            handle = queue.handle
            self.connection.qm.world.signals.notify(handle.repository.store, handle.queue)
        if self.outcome is not None:
            queue._got(self.body, self.md, self.gmo, self.outcome, now)
        return self.body

    def may_skip(self) -> bool:
        """Whether the next attempt could only fail, with these options already checked,
        and costs nothing in the model (so skipping it changes no simulated time): the
        get then waits without making it."""
        queue = self.queue
        handle = queue.handle
        world = self.connection.qm.world
        costs = world.costs
        return (
            self.plain
            and self.waits
            # First: a get attempt with a model cost (CPU, or CF access on a shared
            # queue) is made, whatever the queue holds: the answer for every attempt.
            and not (costs.cpu_per_call or (costs.cf_access and queue._shared))
            and self.checked == queue._checked
            and world.signals.surely_empty(handle.repository.store, handle.queue)
            and (self.deadline == math.inf or program.now() < self.deadline)
            and queue._skippable()
        )

    def surely_fails(self) -> bool:
        """At the step of an attempt the model charged (its cost paid, the attempt
        counted): whether it could only answer MQRC_NO_MSG_AVAILABLE, as ``may_skip``
        judges it, so that the rules need not look (half of a waiting getter's attempts
        on a busy shared queue; on a server, a round trip each). Not while a fault keeps
        the coupling facility from some member: such an attempt may fail with
        MQRC_CF_STRUC_FAILED, and is made to learn it."""
        queue = self.queue
        if not (self.plain and self.waits and self.checked == queue._checked):
            return False
        handle = queue.handle
        world = self.connection.qm.world
        return (
            world.signals.surely_empty(handle.repository.store, handle.queue)
            and not world.cf_fault_active
            and queue._skippable()
        )

    def no_message(self) -> MQMIError:
        """The error of a get that found no message, to raise."""
        return MQMIError.failed(
            CMQC.MQRC_NO_MSG_AVAILABLE, f"no matching message on {self.queue.handle.queue}"
        )

    def missed(self, error: MQMIError) -> bool:
        """An attempt answered ``error``: True if the get is to wait and try again (else
        the error is the call's). A warning that came with a message is its event."""
        queue = self.queue
        if error.done is not None:  # MQCC_WARNING: a message came back all the same
            queue._got(error.message or b"", self.md, self.gmo, error.done)
        if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
            return False
        queue._checked = self.checked
        if self.plain:
            handle = queue.handle
            self.connection.qm.world.signals.found_empty(handle.repository.store, handle.queue)
        return self.waits and program.now() < self.deadline


class _EndUnitOfWork(MQICall[None]):
    """MQCMIT or MQBACK of the connection's unit of work: every waiter on the queues it
    touched is woken (several messages may have become available at once)."""

    __slots__ = ("committed", "stores")

    def __init__(self, connection: Connection, *, committed: bool) -> None:
        stores = list(connection.conn.uow.stores)
        local = connection.qm.rules.store
        shared = any(s is not local for s in stores)
        super().__init__(connection, "mqcmit" if committed else "mqback", shared)
        self.stores = stores
        self.committed = committed

    def __call__(self, now: float) -> None:
        conn = self.connection.conn
        if self.committed:
            conn.commit()
        else:
            conn.backout()

    def done(self, now: float) -> None:
        connection = self.connection
        qm = connection.qm
        qm.world.events.emit(UnitOfWorkEnded(now, qm.name, connection.conn.number, self.committed))
        connection._wake(self.stores)


class Commit(_EndUnitOfWork):
    """MQCMIT."""

    __slots__ = ()

    def __init__(self, connection: Connection) -> None:
        super().__init__(connection, committed=True)


class Backout(_EndUnitOfWork):
    """MQBACK."""

    __slots__ = ()

    def __init__(self, connection: Connection) -> None:
        super().__init__(connection, committed=False)


class _RulesCall(MQICall[T]):
    """Any other MQI call: the rules' ``function(now)``, its result the call's."""

    __slots__ = ("function", "result")

    def __init__(
        self, connection: Connection, function: Callable[[float], T], verb: str, shared: int
    ) -> None:
        super().__init__(connection, verb, shared)
        self.function = function

    def __call__(self, now: float) -> None:
        self.result = self.function(now)

    def done(self, now: float) -> T:
        return self.result


class Connection:
    """MQCONN's connection to a queue manager of the world."""

    def __init__(self, qm: ConnectedQueueManager, conn: RulesConnection) -> None:
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

    async def open_object(self, od: OD, options: int) -> OpenObject:
        """MQOPEN of a namelist, a process definition or the queue manager (OD's
        ObjectType), for MQINQ (``qsg.core.object_handle``)."""
        handle = await self._call(lambda now: self.conn.open_object(od, options), verb="mqopen")
        return OpenObject(self, handle)

    async def put1(
        self,
        target: str | bytes | OD,
        body: bytes | str,
        md: MD | None = None,
        pmo: PMO | None = None,
    ) -> None:
        """MQPUT1: open, put one message, close."""
        md = MD() if md is None else md
        await Put1(self, target, body, md, PMO() if pmo is None else pmo).perform()

    async def commit(self) -> None:
        """MQCMIT."""
        await Commit(self).perform()

    async def backout(self) -> None:
        """MQBACK."""
        await Backout(self).perform()

    async def disconnect(self) -> None:
        """MQDISC: commits the unit of work and closes the handles still open."""
        stores = list(self.conn.uow.stores)
        try:
            await self._call(lambda now: self.conn.disconnect())
        finally:  # backed out (MQRC_BACKED_OUT) or committed: its gets may be back
            self._wake(stores)

    def _wake(self, stores: list[MessageStore]) -> None:
        signals = self.qm.world.signals
        for store in stores:
            signals.notify_store(store)

    def _put_done(self, handle: Handle, body: bytes | str, md: MD, done: Done, now: float) -> None:
        """A put completed at ``now``: its event, with what the rules decided (``done``),
        and the getters woken when the message is already visible."""
        qm = self.qm
        events = qm.world.events
        if events.wanted(MessagePut, handle.queue):
            size = len(body.encode()) if isinstance(body, str) else len(body)
            events.emit(
                MessagePut(
                    now,
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
        self, function: Callable[[float], T], *, shared: int = 0, verb: str = "other"
    ) -> T:
        """An MQI call whose step is the rules' ``function(now)`` and that is done when
        it returns (open, close, inquire, ...)."""
        return await _RulesCall(self, function, verb, shared).perform()

    def _check_life(self) -> None:
        if self.incarnation != self.qm.incarnation:
            raise MQMIError.failed(
                CMQC.MQRC_CONNECTION_BROKEN, f"queue manager {self.qm.name} was restarted"
            )

    def clocked(self) -> bool:
        """Whether an MQI call of this connection can be made by the virtual clock (see
        ``QueueManager.clocked``; the queue manager is the life it connected to)."""
        qm = self.qm
        return self.incarnation == qm.rules.incarnation and qm.clocked()

    def immediate(self) -> bool:
        """Whether an MQI call of this connection would run at once: nothing in the
        dispatcher can make it wait (see ``QueueManager.immediate``) and the queue
        manager is the life it connected to."""
        qm = self.qm
        return self.incarnation == qm.rules.incarnation and qm.immediate()

    def admission(self) -> int:
        """``immediate`` and ``clocked`` in one call (``actors.program.Admission``)."""
        qm = self.qm
        return qm.admission() if self.incarnation == qm.rules.incarnation else program.TASK


class Queue:
    """An open queue (MQOPEN's object handle). ``name`` is the resolved name."""

    def __init__(self, connection: Connection, handle: Handle) -> None:
        self.connection = connection
        self.handle = handle
        #: The CF accesses a call on it makes: none on a private queue, one on a shared
        #: queue, two on one of a duplexed structure (every write goes to both
        #: instances; as duplexed when it was opened).
        self._shared = self._accesses(handle, connection)
        #: The get options (and version) a call on this handle last got past checking
        #: with: a waiting get with the same ones may skip an attempt that must fail.
        self._checked: tuple[int, int, bool] | None = None

    @staticmethod
    def _accesses(handle: Handle, connection: Connection) -> int:
        rules = connection.qm.rules
        if handle.repository is rules.local:
            return 0
        definition = handle.repository.queues.get(handle.queue)
        structure = definition.cf_struct if isinstance(definition, QueueDefinition) else ""
        group = rules.qsg
        if structure and group is not None and connection.qm.world.duplexed(group.name, structure):
            return 2
        return 1

    @property
    def name(self) -> str:
        return self.handle.name

    # ``put`` and ``get`` hand back the coroutine that makes the call, to be awaited as
    # any async method's: one coroutine a call rather than two (a tenth of an MQGET).
    def put(
        self, body: bytes | str, md: MD | None = None, pmo: PMO | None = None
    ) -> Coroutine[Any, Any, None]:
        """MQPUT; output fields are written back into ``md`` and ``pmo``."""
        return Put(self, body, MD() if md is None else md, PMO() if pmo is None else pmo).perform()

    def get(
        self, max_length: int | None = None, md: MD | None = None, gmo: GMO | None = None
    ) -> Coroutine[Any, Any, bytes]:
        """MQGET (a browse with MQGMO_BROWSE_*); with MQGMO_WAIT it waits WaitInterval
        milliseconds of simulated time for a message to arrive."""
        md = MD() if md is None else md
        gmo = GMO() if gmo is None else gmo
        return program.run(self.getting(max_length, md, gmo))

    def getting(
        self, max_length: int | None, md: MD, gmo: GMO, now: float | None = None
    ) -> Program[bytes]:
        """MQGET as a program (``actors.program``), starting ``now`` (None: the current
        time): its attempts, and its waits for a message while it may wait. An attempt
        that could only fail, with these options already checked, is not made: the get
        waits instead (``Get.may_skip``)."""
        handle = self.handle
        signals = self.connection.qm.world.signals
        store, queue = handle.repository.store, handle.queue
        get = Get(self, md, gmo, max_length, now)
        waiting = False  # counted in the rules' handle while it waits: HSTATE(ACTIVE)
        try:
            while True:
                if get.may_skip():
                    if not waiting:
                        waiting, handle.waiting = True, handle.waiting + 1
                    yield Wait(signals, store, queue, get.deadline, True)
                    continue
                got: bytes | MQMIError = yield get
                if type(got) is bytes:
                    return got
                assert isinstance(got, MQMIError)
                if not get.missed(got):
                    raise got if got is not SURELY_EMPTY else get.no_message()
                if not waiting:
                    waiting, handle.waiting = True, handle.waiting + 1
                yield Wait(signals, store, queue, get.deadline, get.plain)
        finally:
            if waiting:
                handle.waiting -= 1

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
                program.now() if now is None else now,
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
        """Whether nothing would refuse a get attempt rather than answer
        MQRC_NO_MSG_AVAILABLE (queue manager down, handle closed, gets inhibited)."""
        handle, connection = self.handle, self.connection
        qm = connection.qm
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


class OpenObject:
    """An open namelist, process definition or queue manager: MQINQ, MQSET (refused)
    and MQCLOSE, each an MQI call of its connection."""

    def __init__(self, connection: Connection, handle: ObjectHandle) -> None:
        self.connection = connection
        self.handle = handle

    @property
    def name(self) -> str:
        return self.handle.name

    async def inquire(self, selector: int) -> int | bytes:
        handle = self.handle
        return await self.connection._call(lambda now: handle.inquire(selector), verb="mqinq")

    async def set(self, selector: int, value: int | bytes) -> None:
        handle = self.handle
        await self.connection._call(lambda now: handle.set(selector, value), verb="mqset")

    async def close(self, options: int = CMQC.MQCO_NONE) -> None:
        handle = self.handle
        await self.connection._call(lambda now: handle.close(options), verb="mqclose")


__all__ = [
    "ApplicationWorld",
    "Backout",
    "Commit",
    "ConnectedQueueManager",
    "Connection",
    "Get",
    "MQICall",
    "OpenObject",
    "Put",
    "Put1",
    "Queue",
]
