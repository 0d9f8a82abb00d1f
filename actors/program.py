"""An application's program: its logic written once, as instructions, run by a task or
by the virtual clock.

A built-in application (``actors.workload``) and MQGET with MQGMO_WAIT (``actors.mqi``)
are generators that yield what they need done and are sent its result:

- an MQI call (``Call``: ``actors.mqi``'s ``Put``, ``Get``, ``Commit``, ...): its
  result is sent back, or the MQMIError it raised is thrown in at the ``yield``;
- ``Delay(seconds)``: simulated time to pass (a service time);
- ``Wait(...)``: a wait on a queue's signals, until it is notified or a deadline passes
  (MQGET with MQGMO_WAIT);
- ``Next(after)``: the application's next step (a putter's arrival, a getter's next
  MQGET) is due ``after`` seconds from now (None: now, without a wait): where its task
  may hand it to the clock;
- ``Rest(seconds)``: the wait after a failed call before the next try, in the task;
- ``Await(function)``: anything else, which only a task can do (connect and open, a call
  recorded in a chaos run's history).

Two interpreters run them. ``run`` is a task's: it awaits each instruction, the MQI call
through its queue manager's dispatcher, which may wait (a pause, the model's costs).
The clock's (``actors.drive``) makes at once the calls that nothing can make wait, arms
a timer for a delay and a signals' call for a wait, and hands the program back to its
task at the very instruction it cannot make (a call that could wait, a rest, an
``Await``), or when a delay or wait ends and it could no longer go on. The generator
holds the program's state (where it is, its local variables), so the two can pass it
between them at any ``yield`` for nothing; either way the program makes the same calls
in the same order with the same random draws.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, final

from trio._core._run import GLOBAL_RUN_CONTEXT as _RUN_CONTEXT

from actors import clock
from actors.clock import VirtualClock
from actors.signals import Signals
from qsg.core.store import MessageStore

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


#: How an MQI call can be made now (``Admission.admission``): only by a task, through
#: the dispatcher (which may wait for something other than time); by the virtual clock,
#: its model costs times the clock keeps; or at once, nothing being able to make it wait.
TASK, CLOCKED, IMMEDIATE = 0, 1, 2


class Admission(Protocol):
    """Who admits an MQI call (``actors.mqi.Connection``)."""

    def admission(self) -> int:
        """``IMMEDIATE`` when ``immediate``, else ``CLOCKED`` when ``clocked``, else
        ``TASK``: the two questions in one call (the clock asks them of every call)."""
        ...

    def immediate(self) -> bool:
        """Whether a call would be made at once: nothing could make it wait."""
        ...

    def clocked(self) -> bool:
        """Whether the virtual clock can make a call: what could make it wait is a
        simulated time (its model costs), not another task."""
        ...


class Call(Generic[T_co]):
    """An MQI call as an instruction (``actors.mqi.MQICall``): made by a task, admitted
    by the dispatcher (``perform``), or at once (``perform_now``) when its
    ``connection`` says nothing could make it wait (``Admission.immediate``)."""

    __slots__ = ()
    connection: Admission

    async def perform(self) -> T_co:
        raise NotImplementedError

    def perform_now(self, now: float) -> T_co:
        raise NotImplementedError

    def admit(self, now: float) -> float:
        """Let in by the clock at ``now``: when its step is due."""
        raise NotImplementedError

    def step(self, now: float) -> float:
        """Its step, made by the clock at ``now``: when it is done."""
        raise NotImplementedError

    def done(self, now: float) -> T_co:
        """What follows the step, at ``now``: the call's result."""
        raise NotImplementedError


@final
@dataclass(slots=True)
class Delay:
    """Let ``seconds`` of simulated time pass (a service time)."""

    seconds: float


@final
@dataclass(slots=True)
class Next:
    """The application's next step is due ``after`` seconds from now (None: now, with
    no wait at all): a putter's next arrival, a getter's next MQGET. Where the task
    hands the program to the clock, when it could make what follows
    (``Driver.possible``). The program is sent the time the step is made."""

    after: float | None


@final
@dataclass(slots=True)
class Rest:
    """Wait ``seconds`` after a failed MQI call, before trying again (RECONNECT): a
    failure is the task's to recover from, so the clock hands the program back here."""

    seconds: float


@final
@dataclass(slots=True)
class Wait:
    """Wait until ``queue`` of ``store`` is notified (``Signals``) or ``deadline``
    passes; ``plain``: the waiting get takes any message."""

    signals: Signals
    store: MessageStore
    queue: str
    deadline: float
    plain: bool


@final
@dataclass(slots=True)
class Await:
    """``await function()``: work only a task can do; its result is sent back."""

    function: Callable[[], Awaitable[Any]]


Instruction = Delay | Wait | Next | Rest | Await | Call[Any]
#: A program that returns a ``T``: it yields instructions and is sent their results.
Program = Generator[Instruction, Any, T]


def now() -> float:
    """``trio.current_time()`` in one call: the virtual clock's time read directly, as
    ``actors.clock`` reads trio's run queue (a program asks for the time a few times a
    message, and trio's function is three calls deep)."""
    running = _RUN_CONTEXT.runner.clock
    return running._time if type(running) is VirtualClock else running.current_time()


def awaiting(function: Callable[[], Awaitable[T]]) -> Program[T]:
    """The program of one ``Await``: ``function()``'s result."""
    result: T = yield Await(function)
    return result


class Handback(Protocol):
    """How the clock gave a program back to its task: ``finished`` (with the program's
    ``value``); or at an instruction it could not make (``due``, for the task to make);
    or (neither) at a delay or wait that ended when the clock could no longer go on."""

    @property
    def finished(self) -> bool: ...
    @property
    def value(self) -> Any: ...
    @property
    def due(self) -> Instruction | None: ...


class Driver(Protocol):
    """The virtual clock's side of an application (``actors.drive.Drive``)."""

    def possible(self) -> bool:
        """Whether the clock could make the program's next calls now."""
        ...

    async def drive(self, program: Program[Any], step: Next) -> Handback:
        """Run ``program`` from its next ``step`` by the clock's timers, the task
        parked, until the clock hands it back."""
        ...


async def run(program: Program[T], driver: Driver | None = None) -> T:
    """Run ``program`` in the calling task: each instruction awaited, its result or
    error sent back. With a ``driver``, the program is handed to the clock at each
    ``Next`` that the clock could take over (``Driver.possible``), until it hands it
    back."""
    send = program.send
    value: Any = None
    due: Instruction | None = None  # what the clock handed back, to make before going on
    while True:
        try:
            instruction = send(value) if due is None else due
            value = due = None
            try:
                if isinstance(instruction, Call):  # the commonest: checked first
                    if instruction.connection.immediate():  # nothing could make it wait
                        value = instruction.perform_now(now())
                    else:
                        value = await instruction.perform()
                elif type(instruction) is Wait:
                    wait = instruction
                    await wait.signals.wait(wait.store, wait.queue, wait.deadline, plain=wait.plain)
                elif type(instruction) is Next:
                    if driver is not None and driver.possible():
                        back = await driver.drive(program, instruction)
                        if back.finished:
                            result: T = back.value
                            return result
                        due = back.due  # None: the program goes on from where it is
                    elif instruction.after is not None:
                        await clock.sleep(instruction.after)
                    value = now()  # a Next is answered with the time
                elif type(instruction) is Delay or type(instruction) is Rest:
                    await clock.sleep(instruction.seconds)
                else:
                    value = await instruction.function()
            except BaseException as raised:  # the program's to handle: a cancellation too
                due = program.throw(raised)  # (what it makes next, if it goes on)
        except StopIteration as stop:
            result = stop.value
            return result


__all__ = [
    "CLOCKED",
    "IMMEDIATE",
    "TASK",
    "Admission",
    "Await",
    "Call",
    "Delay",
    "Driver",
    "Handback",
    "Instruction",
    "Next",
    "Program",
    "Rest",
    "Wait",
    "awaiting",
    "now",
    "run",
]
