"""Built-in applications driven by the virtual clock's timers, not by a task per step.

A putter's arrival or a getter's next MQGET is one MQI call that, most of the time,
nothing can make wait: the coupling facility is in process (or on a server reached by
blocking calls, ``coupling.direct``, during which nothing else runs), the model charges no CPU
or CF time, the queue manager is up and not paused, and no history is being recorded.
Such a call needs no task of its own. While that holds, the application's task parks
once and the clock's timers make its calls: the arrival at its time, the get when its
queue is notified or its WaitInterval runs out, the next get when the service time is
over. Each step is the task's own step, done in the same order with the same random
draws, so the same seed gives the same events.

The moment a step finds it could have to wait (a cost, a pause, a dead queue manager, a
lost connection), it does nothing and hands the step back to the task, which takes the
ordinary path (``actors.workload``) and comes back here when it can. The task's
cancellation (the workload's stop, the world's end) cancels whatever timer or wait is
pending. User scenarios' own Python (``qsg.scenario`` ``main``) keeps ordinary tasks.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import TYPE_CHECKING

import trio
from trio.lowlevel import Abort, RaiseCancelT

from actors.clock import Timer, VirtualClock, Wakeup
from actors.mqi import GetPlan
from qsg import CMQC
from qsg.core.errors import MQMIError
from qsg.core.structs import GMO, MD, PMO

if TYPE_CHECKING:
    from actors.workload import Application


class Handoff(enum.Enum):
    """What the task does when the clock hands an application back to it."""

    DUE = "due"  # the step due now: the putter's arrival, the getter's next MQGET
    PAUSE = "pause"  # a call failed as one that waits RECONNECT seconds before the next
    COUNT = "count"  # a getter's service is over: count the message, then the next MQGET
    DONE = "done"  # the putter has put its count of messages


#: The kinds the clock can drive (requesters and servers keep their tasks).
KINDS = frozenset({"putter", "getter"})


def possible(app: Application) -> bool:
    """Whether ``app``'s next step can be made by the clock: see the module docstring."""
    clock = trio.lowlevel.current_clock()
    conn = app.conn
    return (
        type(clock) is VirtualClock
        and app.w.kind in KINDS
        and not app.world.history
        and app.queue is not None
        and app.stale is None
        and conn is not None
        and conn.immediate()
    )


class _Drive(Wakeup):
    """One stretch of an application run by the clock, its task parked meanwhile."""

    __slots__ = ("app", "cancel", "clock", "conn", "error", "handoff", "qm", "timer", "world")

    def __init__(self, app: Application) -> None:
        super().__init__()
        clock = trio.lowlevel.current_clock()
        assert type(clock) is VirtualClock  # ``possible`` said so
        assert app.conn is not None
        self.app = app
        self.clock = clock
        self.world = app.world
        #: The connection of this stretch: a new one is made by the task.
        self.conn = app.conn
        self.qm = app.conn.qm
        self.handoff = Handoff.DUE
        self.error: BaseException | None = None
        #: Cancels the pending wait on a queue's signals (when the task is cancelled).
        self.cancel: Callable[[], None] | None = None
        #: The stretch's one timer, armed again for each step: a stretch has at most one
        #: timer or wait pending, and a timer is off the heap once it has fired, so no
        #: timer object or bound method is made per message.
        self.timer = _Step(self)

    async def run(self, first: Callable[[], None], when: float) -> Handoff:
        self._at(when, first)
        await self.clock.park(self)
        if self.error is not None:
            raise self.error
        return self.handoff

    def _abort(self, raise_cancel: RaiseCancelT) -> Abort:
        self._drop()
        return super()._abort(raise_cancel)

    def _drop(self) -> None:
        """Cancel the pending timer or wait: nothing of this stretch may run after it."""
        self.timer.pending = False
        if self.cancel is not None:
            self.cancel()
            self.cancel = None

    def _ready(self) -> bool:
        """``possible``, for what can change while the clock drives (the rest cannot:
        the kind, the clock, the history, the connection of the stretch)."""
        app, qm = self.app, self.qm
        costs = self.world.costs
        return (
            app.conn is self.conn
            and app.queue is not None
            and self.conn.incarnation == qm.rules.incarnation
            and qm.alive
            and qm.paused is None
            and not costs.per_call
        )

    def _at(self, when: float, step: Callable[[], None]) -> None:
        timer = self.timer
        timer.step = step
        self.clock.call_at(when, timer)

    def _step(self, step: Callable[[], None]) -> None:
        self.cancel = None
        try:
            step()
        except BaseException as error:  # it is the task's to raise
            self._failed(error)

    def _failed(self, error: BaseException) -> None:
        self._drop()
        self.error = error
        self.wake()

    def _back(self, handoff: Handoff) -> None:
        """Hand the application back to its task."""
        self.handoff = handoff
        self.wake()


class _Step(Timer):
    """The timer that makes a drive's steps (``step``, then the next one it arms)."""

    __slots__ = ("drive", "step")

    def __init__(self, drive: _Drive) -> None:
        self.pending = False
        self.drive = drive
        self.step: Callable[[], None] = _nothing

    def fire(self) -> None:
        try:
            self.step()
        except BaseException as error:  # it is the task's to raise
            self.drive._failed(error)


def _nothing() -> None:
    pass


class Putter(_Drive):
    """A putter: each arrival is an MQPUT made by a timer."""

    __slots__ = ("pmo",)

    def __init__(self, app: Application) -> None:
        super().__init__(app)
        # One PMO for the stretch's puts, as an MQ program keeps one: only its output
        # fields change from put to put.
        self.pmo = PMO(Options=app.pmo_options)

    async def go(self) -> Handoff:
        return await self.run(self.arrive, self.clock.current_time() + self.app.gap())

    def arrive(self) -> None:
        app = self.app
        if not self._ready():
            return self._back(Handoff.DUE)
        assert app.queue is not None
        body, md = app.message()
        now = self.clock._time
        if app.attempt_now(app.queue.put_now, body, md, self.pmo, now):
            app.sent += 1
            if app.w.syncpoint and not app.counted_now():  # (nothing to count without)
                return self._back(Handoff.PAUSE)
        elif app.resting:
            return self._back(Handoff.PAUSE)
        if app.w.count is not None and app.sent >= app.w.count:
            return self._back(Handoff.DONE)
        self._at(now + app.gap(), self.arrive)


class Getter(_Drive):
    """A getter: MQGET, a wait on the queue's signals, the service time, all timers."""

    __slots__ = ("gmo", "md", "plan")
    md: MD
    gmo: GMO
    plan: GetPlan  # of the MQGET under way

    async def go(self) -> Handoff:
        return await self.run(self.begin, self.clock.current_time())

    def begin(self) -> None:
        """A new MQGET with MQGMO_WAIT."""
        if not self._ready():
            return self._back(Handoff.DUE)
        self._begin()

    def _begin(self) -> None:
        app = self.app
        assert app.queue is not None
        now = self.clock._time
        self.md = MD()
        self.gmo = app.get_options(self.md, now)
        self.plan = app.queue.plan(self.md, self.gmo, now)
        self._try()

    def attempt(self) -> None:
        """The next attempt of the MQGET under way: its wait ended."""
        if not self._ready():
            # The rest of this get goes the task's way: a new MQGET, as the wait it was
            # in ends unseen (a get that times out is quiet).
            return self._back(Handoff.DUE)
        self._try()

    def _try(self) -> None:
        """One attempt of the MQGET under way (or its wait, if it could only fail)."""
        app, plan = self.app, self.plan
        queue = app.queue
        assert queue is not None
        if queue.may_skip(plan):
            return self._wait()
        now = self.clock._time
        try:
            queue.get_now(plan, self.md, self.gmo, now)
        except MQMIError as error:
            if queue.missed(plan, self.md, self.gmo, error):
                return self._wait()
            if error.reason == CMQC.MQRC_NO_MSG_AVAILABLE:
                return self._begin()  # the WaitInterval ran out: the getter gets again
            app.failed(error, pause=True)
            return self._back(Handoff.PAUSE)
        self._at(now + app.w.service.draw(app.rng), self.served)

    def _wait(self) -> None:
        queue, plan = self.app.queue, self.plan
        assert queue is not None
        handle = queue.handle
        signals = self.app.world.signals
        self.cancel = signals.wait_call(
            handle.repository.store,
            handle.queue,
            plan.deadline,
            lambda: self._step(self.attempt),
            plain=plan.plain,
            clock=self.clock,
        )

    def served(self) -> None:
        app = self.app
        if not self._ready():
            return self._back(Handoff.COUNT)
        if app.w.syncpoint and not app.counted_now():  # (nothing to count without)
            return self._back(Handoff.PAUSE)
        self._begin()


__all__ = ["KINDS", "Getter", "Handoff", "Putter", "possible"]
