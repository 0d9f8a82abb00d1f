"""Built-in applications' programs run by the virtual clock's timers, not by their tasks.

A putter's arrival or a getter's next MQGET is an MQI call that nothing but simulated
time can make wait: the coupling facility is in process (or on a server reached by
blocking calls, ``coupling.direct``, during which nothing else runs), the queue manager
is up and not paused, and the model's costs (CPU, CF access, SMDS) are times the clock
keeps: the call is admitted (its cost charged on the queue manager's processors,
``actors.processors``), its step made when the cost has been paid, and what follows it
when its SMDS accesses have been. Such a call needs no task of its own. While that
holds, the application's task parks once and the clock runs its program
(``actors.program``): each MQI call made at once when it costs nothing
(``MQICall.perform_now``, the same step a task's call runs) or in its timed parts
(``admit``, ``step``, ``done``), each delay a timer, each wait on a queue's signals a
call of the clock's when it ends. It is the program the task runs, so it makes the same
calls in the same order with the same random draws; a chaos run's history is recorded
around each call by the program itself (``actors.history.recording``).

The task hands its program to the clock at a delay (an arrival's gap, a service time)
when the clock could make what follows (``Drive.possible``). The moment the clock finds
it could have to wait for something other than time (a pause, a dead queue manager, a
lost connection, the trio transport to the facility), it hands the program back to the
task at that very instruction: a delay or wait that ended then is the task's to go on
from, an MQI call the task's to make (through the dispatcher: the MQI call that fails
with MQRC_CONNECTION_BROKEN or MQRC_CF_STRUC_FAILED, the call that waits while the queue
manager is paused). The task's cancellation (the workload's stop, the world's end)
cancels whatever timer or wait is pending and reaches the program where it is. Every
built-in kind is driven (putters, getters, requesters, servers); a user scenario's own
Python (``qsg.scenario`` ``main``) and a program under ``qsg exec`` keep their tasks.

Calls that fall due at one simulated instant are made in the order they were admitted
on the clock, and in an order drawn from the run's seed among tasks (trio's seeded
scheduling, ``actors.determinism``): each deterministic, not the same, so a run whose
calls tie (a constant cost after one event) may serve a waiting getter one attempt
later on one path than on the other.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import trio
from trio.lowlevel import Abort, RaiseCancelT

from actors.clock import Timer, VirtualClock, Wakeup
from actors.config import Workload
from actors.mqi import Connection, Queue
from actors.program import CLOCKED, IMMEDIATE, TASK, Call, Delay, Instruction, Next, Program, Wait

#: The kinds the clock can drive: every built-in application.
KINDS = frozenset({"putter", "getter", "requester", "server"})


class Driven(Protocol):
    """What the clock uses of an application (``actors.workload.Application``): its
    workload, and its connection and open queue as the program leaves them (``stale``:
    a connection lost with a unit of work to back out first)."""

    @property
    def w(self) -> Workload: ...
    @property
    def conn(self) -> Connection | None: ...
    @property
    def queue(self) -> Queue | None: ...
    @property
    def stale(self) -> Connection | None: ...


class Drive(Wakeup):
    """The clock's side of one application (an ``actors.program.Driver``): it runs the
    application's program while its task is parked, one stretch at a time."""

    __slots__ = (
        "app",
        "call",
        "cancel",
        "clock",
        "conn",
        "due",
        "error",
        "finished",
        "program",
        "stepped",
        "timer",
        "value",
    )

    def __init__(self, app: Driven) -> None:
        super().__init__()
        self.app = app
        self.clock: VirtualClock | None = None
        #: The program of the stretch, and the connection it began with (a new one is
        #: made by the task).
        self.program: Program[Any] | None = None
        self.conn: Connection | None = None
        #: How the stretch ended (``actors.program.Handback``).
        self.finished = False
        self.value: Any = None
        self.due: Instruction | None = None
        self.error: BaseException | None = None
        #: The call the clock is making (admitted, its step or its end due), and whether
        #: its step has been made.
        self.call: Call[Any] | None = None
        self.stepped = False
        #: Cancels the pending wait on a queue's signals (when the task is cancelled).
        self.cancel: Callable[[], None] | None = None
        #: The one timer of the application's delays, armed again for each: a stretch
        #: has at most one timer or wait pending, and a timer is off the clock's heap
        #: once it has fired, so no timer object is made per message.
        self.timer = Timer(self._resume)

    def possible(self) -> bool:
        """Whether the clock can make the application's next calls: see the module
        docstring."""
        app = self.app
        conn = app.conn
        return (
            type(trio.lowlevel.current_clock()) is VirtualClock
            and app.w.kind in KINDS
            and app.queue is not None
            and app.stale is None
            and conn is not None
            and conn.admission() != TASK
        )

    async def drive(self, program: Program[Any], step: Next) -> Drive:
        """Run ``program`` from its next ``step`` by the clock, the task parked, until
        the clock hands it back (this drive says how: ``finished``, ``value``, ``due``)."""
        clock = trio.lowlevel.current_clock()
        assert type(clock) is VirtualClock  # ``possible`` said so
        self.clock = clock
        self.program = program
        self.conn = self.app.conn
        self.finished, self.value, self.due, self.error = False, None, None, None
        self._at(clock._time if step.after is None else clock._time + step.after)
        await clock.park(self)
        if self.error is not None:
            error, self.error = self.error, None
            raise error
        return self

    # ---- the stretch ------------------------------------------------------------------
    def _resume(self) -> None:
        """A timer or wait ended: the program goes on. A call the clock made is due its
        next part (``_made``); otherwise a delay or wait ended, and the program goes on
        by the clock while it is still the clock's to go on with (the application has
        kept the connection and queue of the stretch: whether each call can be made by
        the clock is its connection's to say, ``Admission.admission``), else by its task.
        (Called by the clock: it must not raise.)"""
        self.cancel = None
        clock = self.clock
        assert clock is not None
        try:
            if self.call is not None:
                self._made(clock._time)
            elif self.app.conn is self.conn and self.app.queue is not None:
                program = self.program
                assert program is not None
                self._go(program.send, clock._time, clock._time)
            else:
                self._back(None)
        except BaseException as error:  # it is the task's to raise
            self._failed(error)

    def _made(self, now: float) -> None:
        """The next part of the call the clock is making, due at ``now``: its step once
        its model cost has been paid (``stepped`` False), then what follows it once its
        SMDS accesses have been paid. The program is sent the call's result, or has the
        MQMIError it raised thrown in, as a task's call would."""
        call, program = self.call, self.program
        assert call is not None
        assert program is not None
        try:
            if not self.stepped:
                done_at = call.step(now)
                if done_at != now:
                    self.stepped = True
                    return self._at(done_at)
            self.call, self.stepped = None, False
            result = call.done(now)
        except BaseException as raised:  # the program's to handle, as in a task
            self.call, self.stepped = None, False
            self._go(program.throw, raised, now)
        else:
            self._go(program.send, result, now)

    def _go(self, resume: Callable[[Any], Instruction], value: Any, now: float) -> None:
        """Run the program from ``resume(value)`` at ``now`` (it is sent the time, what a
        ``Next`` is answered with, or a call's result; or has an error thrown in) until
        it waits, finishes or needs its task. A call that costs nothing is made at once;
        one with a model cost is admitted and made when its cost has been paid
        (``_made``)."""
        program = self.program
        assert program is not None
        send = program.send
        try:
            instruction = resume(value)
            while True:
                if isinstance(instruction, Call):  # the commonest: checked first
                    try:
                        admission = instruction.connection.admission()
                        if admission == IMMEDIATE:
                            result = instruction.perform_now(now)
                        elif admission == CLOCKED:
                            step_at = instruction.admit(now)
                            if step_at != now:
                                self.call = instruction
                                return self._at(step_at)
                            done_at = instruction.step(now)
                            if done_at != now:
                                self.call, self.stepped = instruction, True
                                return self._at(done_at)
                            result = instruction.done(now)
                        else:
                            return self._back(instruction)  # a call that could wait: the task's
                    except BaseException as raised:  # the program's to handle, as in a task
                        instruction = program.throw(raised)
                    else:
                        instruction = send(result)
                elif type(instruction) is Next:
                    if instruction.after is not None:
                        return self._at(now + instruction.after)
                    instruction = send(now)
                elif type(instruction) is Delay:
                    return self._at(now + instruction.seconds)
                elif type(instruction) is Wait:
                    return self._wait(instruction)
                else:
                    return self._back(instruction)  # a rest, an Await: the task's
        except StopIteration as stop:
            self.finished, self.value = True, stop.value
            return self._back(None)

    def _at(self, when: float) -> None:
        assert self.clock is not None
        self.clock.call_at(when, self.timer)

    def _wait(self, wait: Wait) -> None:
        assert self.clock is not None
        self.cancel = wait.signals.wait_call(
            wait.store, wait.queue, wait.deadline, self._resume, plain=wait.plain, clock=self.clock
        )

    def _back(self, due: Instruction | None) -> None:
        """Hand the program back to its task (``due``: the instruction for it to make)."""
        self.due = due
        self.program = None
        self.wake()

    def _failed(self, error: BaseException) -> None:
        self._drop()
        self.error = error
        self.program = None
        self.wake()

    def _drop(self) -> None:
        """Cancel the pending timer or wait: nothing of this stretch may run after it (a
        call the clock was making is left where it is, as a cancelled task's would be)."""
        self.timer.pending = False
        self.call, self.stepped = None, False
        if self.cancel is not None:
            self.cancel()
            self.cancel = None

    def _abort(self, raise_cancel: RaiseCancelT) -> Abort:
        self._drop()
        self.program = None
        return super()._abort(raise_cancel)


__all__ = ["KINDS", "Drive", "Driven"]
