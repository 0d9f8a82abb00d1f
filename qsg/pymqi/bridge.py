"""The bridge from a synchronous pymqi program to the simulated world's trio run.

A program under ``qsg exec`` runs as one task of the world's trio run. Its calls are
synchronous, as pymqi's are; each one awaits the world's async MQI through greenback
(``greenback.await_``), so while the program computes between calls nothing else runs
and simulated time stands still, and while a call waits (an MQGET with MQGMO_WAIT, a
``time.sleep``) the world goes on. A thread the program starts is not in the trio
thread: its calls reach the world with ``trio.from_thread.run``, and the ``Threads``
record keeps simulated time still while such a thread computes between calls.

One program runs at a time in a process: ``bind`` makes a ``Binding`` current for the
run, ``unbind`` ends it. Outside a binding every MQI call of the facade fails with
MQRC_Q_MGR_NOT_AVAILABLE (there is no queue manager to reach).

A child process the program forks (``os.fork``, a ``multiprocessing`` worker) has no
world: the parent's is not its to call. In the child the binding ends (``forked``): the
program's clock and threads are Python's own again, a call on a connection the parent
made fails with MQRC_HCONN_ERROR (2018: "passing the handle between processes", IBM's
reason codes), and a new MQCONN with MQRC_Q_MGR_NOT_AVAILABLE.
"""

from __future__ import annotations

import concurrent.futures.thread
import inspect
import os
import random
import sys
import threading
import weakref
from collections.abc import Awaitable, Callable, Coroutine, Generator
from dataclasses import dataclass, field
from threading import get_ident
from types import FrameType
from typing import TYPE_CHECKING, Any, TypeVar

import greenback
import trio

from qsg.core.errors import MQMIError as CoreError
from qsg.pymqi import CMQC
from qsg.pymqi.errors import MQMIError, from_core

if TYPE_CHECKING:
    from actors.clock import VirtualClock
    from actors.mqi import Connection
    from actors.world import World

T = TypeVar("T")


def program_stopped() -> SystemExit:
    """What a program's thread gets when it calls the world after the run is over (the
    program ended, or the scenario's duration did): ``SystemExit`` itself (not a
    subclass, which ``threading``'s hook would print), so the thread ends quietly, as
    threads end when a Python program exits."""
    return SystemExit(0)


@dataclass(slots=True)
class _ThreadState:
    """A program thread that reached the world: its open connections, whether it has
    had one and closed them all (``retired``), and whether it is inside a call
    (waiting on the world) or computing between calls."""

    thread: threading.Thread
    connections: int = 0
    retired: bool = False
    in_call: bool = False


def _blocking_lines(function: Any, *calls: str) -> set[tuple[str, int]]:
    """The (file, line) pairs where ``function`` makes one of the blocking ``calls``."""
    lines, first = inspect.getsourcelines(function)
    file = inspect.getsourcefile(function) or ""
    return {(file, first + i) for i, text in enumerate(lines) if any(c in text for c in calls)}


#: Whether a thread blocked at one of its ``_WAIT_LINES`` still waits, from the locals
#: of that frame and the frames of the live threads. Standing at the line is not
#: enough: once signalled, the thread stays there until it gets the GIL again, and the
#: clock must not jump meanwhile (it would, to the next timer, before the woken thread
#: reads it).
_StillWaits = Callable[[dict[str, Any], dict[int, FrameType]], bool]


def _condition_waits(local: dict[str, Any], frames: dict[int, FrameType]) -> bool:
    # ``notify`` releases the waiter lock, then takes it off the condition's waiters:
    # either sign means the thread is woken (as for the program's task, ``Threads.waits``).
    waiter = local.get("waiter")
    condition = local.get("self")
    return (
        waiter is not None
        and condition is not None
        and waiter.locked()
        and waiter in condition._waiters
    )


def _join_waits(local: dict[str, Any], frames: dict[int, FrameType]) -> bool:
    # The joined thread's lock is released once its thread state is gone (and so its
    # frames): while they are there, it still runs and the join waits.
    joined = local.get("self")
    return joined is not None and joined.ident in frames


def _pool_worker_waits(local: dict[str, Any], frames: dict[int, FrameType]) -> bool:
    # An idle worker waits while there is no work to take.
    work_queue = local.get("work_queue")
    return work_queue is not None and work_queue.empty()


def _wait_lines(
    function: Any, call: str, still_waits: _StillWaits
) -> dict[tuple[str, int], _StillWaits]:
    return dict.fromkeys(_blocking_lines(function, call), still_waits)


#: Where a thread blocks waiting on another thread: a ``Condition`` (and so ``Event``,
#: ``queue.Queue``, ``Semaphore``, ``Barrier``, futures), a ``join``, a thread pool's
#: idle worker waiting for work. A thread whose innermost frame stands at one of these
#: lines, and has not been woken there, waits, and does not compute.
_WAIT_LINES: dict[tuple[str, int], _StillWaits] = {
    **_wait_lines(threading.Condition.wait, "waiter.acquire(", _condition_waits),
    **_wait_lines(threading.Thread._wait_for_tstate_lock, "lock.acquire(", _join_waits),  # type: ignore[attr-defined]
    **_wait_lines(concurrent.futures.thread._worker, "work_queue.get(", _pool_worker_waits),
}


def _waiting(frame: FrameType | None, frames: dict[int, FrameType]) -> bool:
    """Whether a thread whose innermost frame is ``frame`` waits on another thread (and
    has not been woken yet): it then holds no simulated time."""
    if frame is None:
        return False
    still_waits = _WAIT_LINES.get((frame.f_code.co_filename, frame.f_lineno))
    return still_waits is not None and still_waits(frame.f_locals, frames)


@dataclass(eq=False)
class Threads:
    """The program's threads that reach the world, as an ``IOSource`` of the virtual
    clock: ``busy`` while any of them computes between calls, so that simulated time
    does not move under a thread's feet while it works, as it does not for the
    program's main task. A thread counts from its start (or its first call, if the
    program did not start it) until it ends or disconnects the last of its
    connections, except while it waits on another thread (``_waiting``)."""

    _states: dict[threading.Thread, _ThreadState] = field(default_factory=dict)
    #: Threads the program started (``threading.Thread.start`` called by its code).
    started: weakref.WeakSet[threading.Thread] = field(default_factory=weakref.WeakSet)
    _scopes: set[trio.CancelScope] = field(default_factory=set)
    stopped: bool = False
    #: Called with each thread once it runs and holds simulated time (to learn when it
    #: ends, however it ends).
    on_running: Callable[[threading.Thread], None] | None = None
    #: Threads the program's main task is joining (``Thread.join``).
    joined: set[threading.Thread] = field(default_factory=set)
    #: The waits of the program's main task on a condition (``Condition.wait``): each
    #: condition with the waiter lock its ``notify`` releases.
    waits: dict[Any, Any] = field(default_factory=dict)

    @property
    def busy(self) -> bool:
        # A thread the program's task joins holds time once it no longer computes for
        # itself (retired, or ended): its last instructions run, and the join must
        # report before the clock moves on, else the clock would jump, maybe to the
        # run's end, while the join's worker thread has yet to wake the task.
        for thread in self.joined:
            state = self._states.get(thread)
            if not thread.is_alive() or (state is not None and state.retired):
                return True
        # Likewise a condition the program's task waits on, once notified: the worker
        # thread that waits for its waiter lock has yet to wake the task (Thread.start
        # waits so for the new thread, which may meanwhile go to sleep in simulated time).
        for waiter, condition in list(self.waits.items()):
            if not waiter.locked() or waiter not in condition._waiters:
                return True
        if not self._states:
            return False
        frames = sys._current_frames()
        for thread, state in list(self._states.items()):
            if thread.ident is None:
                return True  # being started: it computes from its first instruction
            if not thread.is_alive():
                del self._states[thread]  # it ended without disconnecting
            elif (
                not state.retired
                and not state.in_call
                and not _waiting(frames.get(thread.ident), frames)
            ):
                return True
        return False

    def is_program_thread(self, thread: threading.Thread) -> bool:
        return thread in self.started

    def forget(self, thread: threading.Thread) -> None:
        """``thread`` ended (or never started): it holds simulated time no longer."""
        self._states.pop(thread, None)

    async def call(
        self, thread: threading.Thread, fn: Callable[..., Awaitable[T]], *args: Any
    ) -> T:
        """``fn(*args)`` for ``thread``, in the trio thread (a system task)."""
        if self.stopped:
            raise program_stopped()
        state = self.register(thread)
        # Only the trio thread flips ``in_call``: the clock reads it there, so it can
        # never jump between a thread's request and its start.
        state.in_call = True
        scope = trio.CancelScope()
        self._scopes.add(scope)
        try:
            with scope:
                return await fn(*args)
            raise program_stopped()  # the run ended during the call
        finally:
            self._scopes.discard(scope)
            state.in_call = False

    def register(self, thread: threading.Thread) -> _ThreadState:
        """``thread`` holds simulated time from now (in the trio thread only): from
        before its start, for a thread the program starts."""
        state = self._states.get(thread)
        if state is None:
            state = self._states[thread] = _ThreadState(thread)
            if thread.ident is not None:
                self.running(thread)
        return state

    def running(self, thread: threading.Thread) -> None:
        """``thread`` (registered) now runs."""
        if self.on_running is not None:
            self.on_running(thread)

    def connected(self, thread: threading.Thread, delta: int) -> None:
        state = self._states.get(thread)
        if state is not None:
            state.connections = max(0, state.connections + delta)
            state.retired = state.connections == 0

    def stop(self) -> None:
        """The run is over: calls in flight end (``SystemExit`` in their thread),
        and later ones fail the same way."""
        self.stopped = True
        for scope in self._scopes:
            scope.cancel()
        self._states.clear()


@dataclass(eq=False)
class Binding:
    """A world a program's pymqi calls reach, for one run."""

    world: World
    token: trio.lowlevel.TrioToken
    trio_thread: int
    #: The program's main task (its synchronous code runs there, through greenback).
    task: trio.lowlevel.Task | None = None
    clock: VirtualClock | None = None  # the virtual clock, under --virtual
    threads: Threads = field(default_factory=Threads)
    #: Group attach's choice of member (seeded from the run's seed).
    random: random.Random = field(default_factory=random.Random)
    #: Depth of facade calls in progress in the trio thread: qsg's own code then runs
    #: in the program's task and must see real time, not the program's clock.
    in_facade: int = 0
    #: The program's connections still open (ended for it when it ends).
    connections: set[Connection] = field(default_factory=set)
    #: Each connection a thread made by a queue-sharing group's name, by (thread, group):
    #: the one a second connect by that name is answered with (MQRC_ALREADY_CONNECTED).
    group_attached: dict[tuple[int, str], Connection] = field(default_factory=dict)
    #: This is a child process the program forked: the binding is the parent's.
    forked: bool = False

    def program_context(self) -> bool:
        """Whether the running code is the program's own (its main task outside a
        facade call, or a thread it started), for the clock patches; never in a child
        process the program forked (its clock and threads are Python's own)."""
        if self.forked:
            return False
        if threading.get_ident() == self.trio_thread:
            try:
                task = trio.lowlevel.current_task()
            except RuntimeError:
                return False
            return task is self.task and not self.in_facade
        return self.threads.is_program_thread(threading.current_thread())


_binding: Binding | None = None
#: This process is a child the program forked (``_after_fork_in_child``).
_forked = False


def _after_fork_in_child() -> None:
    """A child process of the program: the binding is its parent's, not its own."""
    global _binding, _forked
    if _binding is not None:
        _binding.forked = True
        _binding = None
        _forked = True


os.register_at_fork(after_in_child=_after_fork_in_child)


def bind(binding: Binding) -> None:
    global _binding
    if _binding is not None:
        raise RuntimeError("a program is already bound to a world in this process")
    _binding = binding


def unbind() -> None:
    global _binding
    _binding = None


def current() -> Binding | None:
    return _binding


def binding() -> Binding:
    """The world the facade reaches; MQRC_Q_MGR_NOT_AVAILABLE outside ``qsg exec``."""
    found = _binding
    if found is None and _forked:
        raise failed(
            CMQC.MQRC_Q_MGR_NOT_AVAILABLE,
            "a child process of the program (os.fork, multiprocessing) has no simulated "
            "queue manager: connect in the program's own process",
        )
    if found is None:
        raise failed(
            CMQC.MQRC_Q_MGR_NOT_AVAILABLE,
            "no simulated queue manager here: run the program with `qsg exec SCENARIO -- "
            "python PROGRAM`",
        )
    return found


def failed(reason: int, detail: str = "") -> MQMIError:
    """pymqi's MQMIError for a failed call (``detail`` says why, for the curious)."""
    error = MQMIError(CMQC.MQCC_FAILED, reason)
    error.detail = detail
    return error


def call(fn: Callable[..., Coroutine[Any, Any, T]], *args: Any) -> T:
    """Run the async ``fn(*args)`` in the current binding's world; see ``call_on``."""
    return call_on(_binding if _binding is not None else binding(), fn, *args)


def call_on(bound: Binding, fn: Callable[..., Coroutine[Any, Any, T]], *args: Any) -> T:
    """Run the async ``fn(*args)`` in ``bound``'s world for synchronous program code:
    through greenback in the program's task, through ``trio.from_thread`` from its
    threads. An MQ failure comes out as pymqi's ``MQMIError``. A call on a binding
    whose run is over (a daemon thread of an earlier program, still going) is
    ``SystemExit``: it never reaches another run's world."""
    if bound is not _binding:
        if bound.forked:
            raise failed(
                CMQC.MQRC_HCONN_ERROR,
                "a connection of the process that forked this one: a child process of the "
                "program has no simulated queue manager",
            )
        raise program_stopped()
    try:
        if get_ident() == bound.trio_thread:
            bound.in_facade += 1
            coro = fn(*args)
            try:
                # The first step here: most calls end in it (see ``_Resumed``).
                first = coro.send(None)
            except StopIteration as done:
                result: T = done.value
                return result
            except BaseException:
                coro.close()
                raise
            else:
                resumed: T = greenback.await_(_Resumed(coro, first))
                return resumed
            finally:
                bound.in_facade -= 1
        thread = threading.current_thread()
        return trio.from_thread.run(bound.threads.call, thread, fn, *args, trio_token=bound.token)
    except CoreError as error:
        raise from_core(error) from None
    except trio.RunFinishedError:
        raise program_stopped() from None


class _Resumed:
    """The rest of a coroutine that has already yielded ``first`` to its runner: as
    ``yield from coro`` would, from that point on (values and exceptions go in).

    ``call`` runs a call's first step directly in the program's task: most calls end
    there (the in-process store never waits) and cost a coroutine step instead of a
    trip through greenback's portal. A call that suspends (an MQGET that waits, a trip
    to the coupling facility) is handed to ``greenback.await_`` as this, with what it
    suspended on, and carries on in the task."""

    def __init__(self, coro: Coroutine[Any, Any, Any], first: Any) -> None:
        self.coro, self.first = coro, first

    def __await__(self) -> Generator[Any, Any, Any]:
        coro, yielded = self.coro, self.first
        while True:
            try:
                sent = yield yielded
            except GeneratorExit:
                coro.close()
                raise
            except BaseException as error:  # (cancellation, too) thrown in by the runner
                try:
                    yielded = coro.throw(error)
                except StopIteration as done:
                    return done.value
            else:
                try:
                    yielded = coro.send(sent)
                except StopIteration as done:
                    return done.value


__all__ = [
    "Binding",
    "Threads",
    "bind",
    "binding",
    "call",
    "call_on",
    "current",
    "failed",
    "program_stopped",
    "unbind",
]
