"""An application's program: its logic written once, as instructions, run by a task or
by the virtual clock.

A built-in application (``actors.workload``) and MQGET with MQGMO_WAIT (``actors.mqi``)
are generators that yield what they need done and are sent its result:

- an MQI call (``Call``: ``actors.mqi``'s ``Put``, ``GetAttempt``, ``Commit``, ...): its
  result is sent back, or the MQMIError it raised is thrown in at the ``yield``;
- ``Delay(until)``: simulated time to pass;
- ``Wait(...)``: a wait on a queue's signals, until it is notified or a deadline passes
  (MQGET with MQGMO_WAIT);
- ``Await(function)``: anything else, which only a task can do (connect and open, a call
  recorded in a chaos run's history).

Two interpreters run them. ``run`` is a task's: it awaits each instruction, the MQI call
through its queue manager's dispatcher, which may wait (a pause, the model's costs).
The clock's (``actors.drive``) makes at once the calls that nothing can make wait, arms
a timer for a delay and a signals' call for a wait, and hands the program back to its
task at the very instruction it cannot make. The generator holds the program's state
(where it is, its local variables), so the two can pass it between them at any
``yield`` for nothing; either way the program makes the same calls in the same order
with the same random draws.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, final

from actors import clock
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


Instruction = Delay | Wait | Await | Call[Any]
#: A program that returns a ``T``: it yields instructions and is sent their results.
Program = Generator[Instruction, Any, T]


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

    async def drive(self, program: Program[Any], delay: Delay) -> Handback:
        """Run ``program`` from ``delay`` by the clock's timers, the task parked, until
        the clock hands it back."""
        ...


async def run(program: Program[T], driver: Driver | None = None) -> T:
    """Run ``program`` in the calling task: each instruction awaited, its result or
    error sent back. With a ``driver``, each ``Delay`` that the clock could take over
    (``Driver.possible``) is handed to it with the program, until it hands it back."""
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
            if type(instruction) is Delay:
                if driver is not None and driver.possible():
                    back = await driver.drive(program, instruction)
                    if back.finished:
                        result = back.value
                        return result
                    pending = back.due  # None: the program goes on from the delay
                else:
                    await clock.sleep_until(instruction.until)
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
    "Program",
    "Wait",
    "awaiting",
    "run",
]
