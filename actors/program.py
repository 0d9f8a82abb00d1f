"""An application's program: its logic written once, as instructions, run by a task or
by the virtual clock.

A built-in application (``actors.workload``) and MQGET with MQGMO_WAIT (``actors.mqi``)
are generators that yield what they need done and are sent its result:

- an MQI call (``Call``: ``actors.mqi``'s ``Put``, ``GetAttempt``, ``Commit``, ...): its
  result is sent back, or the MQMIError it raised is thrown in at the ``yield``;
- ``Delay(until)``: simulated time to pass (a service time, a requester's pacing);
- ``Wait(...)``: a wait on a queue's signals, until it is notified or a deadline passes
  (MQGET with MQGMO_WAIT);
- ``Next(at)``: the application's next step (a putter's arrival, a getter's next MQGET)
  is due at ``at`` (None: now): where its task may hand it to the clock;
- ``Rest(until)``: the wait after a failed call before the next try, in the task;
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
from typing import Any, Protocol, TypeVar, final

from trio._core._run import GLOBAL_RUN_CONTEXT as _RUN_CONTEXT

from actors import clock
from actors.clock import VirtualClock
from actors.signals import Signals
from qsg.core.store import MessageStore

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class Call(Protocol[T_co]):
    """An MQI call as an instruction (``actors.mqi.MQICall``): made by a task, admitted
    by the dispatcher (``perform``), or at once (``perform_now``) when ``immediate``
    says nothing could make it wait."""

    def immediate(self) -> bool: ...
    async def perform(self) -> T_co: ...
    def perform_now(self, now: float) -> T_co: ...


@final
@dataclass(slots=True)
class Delay:
    """Let simulated time pass until ``until`` (a service time, an inter-arrival gap,
    the wait before reconnecting)."""

    until: float


@final
@dataclass(slots=True)
class Next:
    """The application's next step is due at ``at`` (None: now, with no wait): a
    putter's next arrival, a getter's next MQGET. Where the task hands the program to
    the clock, when it could make what follows (``Driver.possible``)."""

    at: float | None


@final
@dataclass(slots=True)
class Rest:
    """Wait until ``until`` after a failed MQI call, before trying again (RECONNECT
    seconds): a failure is the task's to recover from, so the clock hands the program
    back here."""

    until: float


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
    value: Any = None
    error: BaseException | None = None
    pending: Instruction | None = None
    while True:
        if pending is None:
            try:
                pending = program.send(value) if error is None else program.throw(error)
            except StopIteration as stop:
                result: T = stop.value
                return result
        instruction, pending = pending, None
        value = error = None
        try:
            if type(instruction) is Delay or type(instruction) is Rest:
                await clock.sleep_until(instruction.until)
            elif type(instruction) is Next:
                if driver is not None and driver.possible():
                    back = await driver.drive(program, instruction)
                    if back.finished:
                        result = back.value
                        return result
                    pending = back.due  # None: the program goes on from where it is
                elif instruction.at is not None:
                    await clock.sleep_until(instruction.at)
            elif type(instruction) is Wait:
                await instruction.signals.wait(
                    instruction.store,
                    instruction.queue,
                    instruction.deadline,
                    plain=instruction.plain,
                )
            elif type(instruction) is Await:
                value = await instruction.function()
            else:
                value = await instruction.perform()
        except BaseException as raised:  # the program's to handle: a cancellation too
            error = raised


__all__ = [
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
