"""The virtual clock: simulated time that jumps to the next timer when nothing is running.

trio asks its clock how long to wait for I/O whenever no task can run
(``deadline_to_sleep_time``). This clock answers "no time at all" and moves itself to the
next deadline, so ``trio.sleep(3600)`` costs no wall time. It refuses to jump while real
I/O the simulator started is in flight (a request to Redis): simulated time stands still
until the reply is read, so a remote call costs no simulated time and a timer can never
fire "during" it. trio's own ``MockClock(autojump_threshold=0)`` jumps while a socket
read is pending, which is why the simulator has its own (docs/architecture.md, "Time").

Sources of real I/O register with ``watch``: anything with a ``busy`` property (the
trio transport to the coupling facility is one).

The clock also keeps sleepers of its own. ``trio.sleep`` is a cancel scope with a
deadline: when it expires, trio throws ``Cancelled`` into the task and the scope catches
it, seven to nine checkpoints' worth of work for every simulated wait. The simulator's
actors sleep through ``sleep`` / ``sleep_until`` / ``park`` here instead: the task is
parked with ``wait_task_rescheduled`` and its wake-up goes on the clock's own heap; when
trio is idle and asks the clock how long to wait, the clock moves to the earliest wake-up
and reschedules the tasks due then. Cancellation keeps trio's semantics (a cancelled
sleeper is aborted and its entry dropped), and at equal times trio's own deadlines go
first, so a ``move_on_at(stop)`` still ends a loop whose next wake-up is ``stop``. Under
any other clock (the wall clock) the same functions are trio's.

Besides tasks, the heap holds ``Timer``s: a function the clock calls itself at its time,
outside any task. The built-in applications use them to run MQI calls that nothing can
make wait (``actors.drive``): an arrival then costs no task switch at all. A timer's
function must not raise (it hands its failures to a task) and must not block. While no
task is ready and no real I/O is in flight, the clock goes on from one instant to the
next in the same call, up to ``_BATCH`` instants, instead of a pass of trio's loop each.
"""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Callable
from itertools import count
from typing import Protocol, TypeVar

import trio
from trio._core._run import GLOBAL_RUN_CONTEXT as _RUN_CONTEXT
from trio.lowlevel import Abort, RaiseCancelT, Task, current_task, reschedule

#: How long trio may wait in real time while real I/O is in flight: the reply wakes it
#: sooner. Bounded so a stuck source is looked at again.
_REAL_WAIT = 60.0
#: How many instants of timers the clock runs in one call before trio's loop looks at
#: its I/O and signals again.
_BATCH = 1000
#: The heap is cleared of cancelled entries once it is this much longer than twice what
#: was left the last time (``VirtualClock._compact``).
_COMPACT_SLACK = 64


class IOSource(Protocol):
    """Something that does real I/O: ``busy`` while a request awaits its reply."""

    @property
    def busy(self) -> bool: ...


class Alarm:
    """An entry of the clock's heap: ``fire`` is called at its time while ``pending``."""

    __slots__ = ("pending",)

    def __init__(self) -> None:
        self.pending = False

    def fire(self) -> None:
        raise NotImplementedError


A = TypeVar("A", bound=Alarm)


class Timer(Alarm):
    """``function()`` called by the clock at a simulated time, outside any task; set
    ``pending`` False (``cancel``) to drop it."""

    __slots__ = ("function",)

    def __init__(self, function: Callable[[], None]) -> None:
        super().__init__()
        self.function = function

    def cancel(self) -> None:
        self.pending = False

    def fire(self) -> None:
        self.function()


class Wakeup(Alarm):
    """A parked task that is woken once: by ``wake`` or by the clock at its deadline.

    ``woken`` says which: True when ``wake`` came first, False when the deadline did.
    """

    __slots__ = ("task", "woken")

    def __init__(self) -> None:
        self.pending = False  # Alarm's, set here: one frame less for every wait
        self.task: Task | None = None
        self.woken = False

    def fire(self) -> None:  # the deadline came first
        assert self.task is not None
        reschedule(self.task)

    def wake(self) -> None:
        """Wake the parked task now (nothing if it is not parked)."""
        if self.pending:
            self.pending = False
            self.woken = True
            assert self.task is not None
            reschedule(self.task)

    def _abort(self, raise_cancel: RaiseCancelT) -> Abort:
        self.pending = False  # the heap entry, if any, is dropped when it comes up
        return Abort.SUCCEEDED


class VirtualClock(trio.abc.Clock):
    """Simulated seconds, starting at ``start``; see the module's docstring."""

    def __init__(self, start: float = 0.0) -> None:
        self._time = start
        self._sources: list[IOSource] = []
        # Invariant: every entry (when, order, wakeup) whose wakeup is pending is a task
        # parked until ``when``; entries of woken or cancelled wakeups are skipped.
        self._alarms: list[tuple[float, int, Alarm]] = []
        #: Wake-ups at the end of their instant (``sleep_until(..., late=True)``): due
        #: only once no other wake-up of the same time is left and no task can run.
        self._late: list[tuple[float, int, Alarm]] = []
        self._order = count()  # equal times wake in the order they were asked for
        self.jumps = 0  # how many times time moved: statistics for the benchmarks
        #: The heap's length above which its cancelled entries are dropped (``_compact``).
        self._compact_above = _COMPACT_SLACK

    async def sleep_until(self, deadline: float, *, late: bool = False) -> None:
        """Park the calling task until simulated time ``deadline``. ``late``: at the end
        of that instant, once everything else due then has run (an operator's command at
        t sees the puts of t)."""
        if late and deadline >= self._time:
            wakeup = Wakeup()
            heapq.heappush(self._late, (deadline, next(self._order), wakeup))
            await self.park(wakeup)
            return
        if deadline <= self._time:
            await trio.lowlevel.checkpoint()  # as trio.sleep_until(past): a checkpoint
            return
        await self.park(Wakeup(), deadline)

    async def park(self, wakeup: Wakeup, deadline: float = math.inf) -> bool:
        """Park the calling task until ``wakeup.wake()`` or ``deadline``, whichever comes
        first; True if it was woken. Cancellable like any trio wait."""
        wakeup.task = current_task()
        wakeup.pending = True
        wakeup.woken = False
        if deadline != math.inf:
            heapq.heappush(self._alarms, (deadline, next(self._order), wakeup))
        await trio.lowlevel.wait_task_rescheduled(wakeup._abort)
        return wakeup.woken

    def call_at(self, when: float, timer: A) -> A:
        """Have the clock call ``timer`` at simulated time ``when`` (now if it is past:
        after what is already due now)."""
        timer.pending = True
        alarms = self._alarms
        entry: tuple[float, int, Alarm] = (max(when, self._time), next(self._order), timer)
        heapq.heappush(alarms, entry)
        if len(alarms) > self._compact_above:
            self._compact()
        return timer

    def _compact(self) -> None:
        """Drop the heap's entries of alarms no longer pending. A wait that ends by a
        notification leaves its deadline's entry behind (cancelled, skipped when it
        comes up): a getter waiting WaitInterval 5 s on a queue 2,000 messages a second
        pass through leaves 10,000 of them, and every timer's push and pop went 14
        levels deep instead of 6. Dropped only when the heap has doubled since the last
        time, so that each entry is looked at about once; the list stays the same object
        (the loop of ``deadline_to_sleep_time`` holds it). Which entry comes up next is
        the same: the heap's order is that of (time, order) alone."""
        alarms = self._alarms
        alarms[:] = [entry for entry in alarms if entry[2].pending]
        heapq.heapify(alarms)
        self._compact_above = 2 * len(alarms) + _COMPACT_SLACK

    def watch(self, source: IOSource) -> None:
        """Freeze time while ``source`` is busy."""
        self._sources.append(source)

    def unwatch(self, source: IOSource) -> None:
        self._sources.remove(source)

    def start_clock(self) -> None:
        pass

    def current_time(self) -> float:
        return self._time

    def deadline_to_sleep_time(self, deadline: float) -> float:
        # trio asks only when no task can run: the moment to move time.
        for source in self._sources:
            if source.busy:
                return _REAL_WAIT  # the reply ends the wait; time stands still meanwhile
        alarms, late, sources = self._alarms, self._late, self._sources
        # trio's run queue, read directly: ``_tasks_ready`` once per instant was a
        # tenth of a clock-driven message's Python calls.
        runq = getattr(getattr(_RUN_CONTEXT, "runner", None), "runq", None)
        for _ in range(_BATCH):
            while alarms and not alarms[0][2].pending:
                heapq.heappop(alarms)  # woken or cancelled meanwhile
            while late and not late[0][2].pending:
                heapq.heappop(late)
            when = first = alarms[0][0] if alarms else math.inf
            if late and late[0][0] < when:
                when = late[0][0]
            if when >= deadline:
                break
            if when > self._time:
                self._time = when
                self.jumps += 1
            due = late if first > when else alarms  # late ones once the instant's are done
            while due and due[0][0] <= when:
                alarm = heapq.heappop(due)[2]
                if alarm.pending:
                    alarm.pending = False
                    alarm.fire()
            # Timers alone ran (no task is ready, no I/O started): on to the next instant.
            if (runq if runq is not None else _tasks_ready()) or (
                sources and any(source.busy for source in sources)
            ):
                return 0.0
        else:
            return 0.0  # a batch done: trio looks at its I/O, then asks again
        if math.isinf(deadline):
            return math.inf  # nothing will ever happen: as a real program would, wait
        if deadline > self._time:
            self._time = deadline
            self.jumps += 1
        return 0.0


def _tasks_ready() -> bool:
    """Whether a task is ready to run: trio's run queue, read directly (the public
    ``current_statistics`` builds a record of the I/O manager's state as well, which
    costs more than a simulated instant of timers); trio's statistics if the run queue
    is not where this trio keeps it."""
    runq = getattr(getattr(_RUN_CONTEXT, "runner", None), "runq", None)
    if runq is None:
        return trio.lowlevel.current_statistics().tasks_runnable > 0
    return bool(runq)


class WallClock(trio.abc.Clock):
    """Real seconds since the clock was made: a wall-clock run's times count from its
    start, as a virtual run's do (trio's own clock counts from an arbitrary origin)."""

    def __init__(self) -> None:
        self._origin = time.monotonic()

    def start_clock(self) -> None:
        pass

    def current_time(self) -> float:
        return time.monotonic() - self._origin

    def deadline_to_sleep_time(self, deadline: float) -> float:
        return max(0.0, deadline - self.current_time())


class SharedClock(trio.abc.Clock):
    """Wall-clock seconds since ``epoch`` (a ``time.time()``): queue managers in separate
    processes of one machine read the same time, so an Expiry set in one and a lease
    granted in another mean the same thing in all of them."""

    def __init__(self, epoch: float) -> None:
        self.epoch = epoch

    def start_clock(self) -> None:
        pass

    def current_time(self) -> float:
        return time.time() - self.epoch

    def deadline_to_sleep_time(self, deadline: float) -> float:
        return max(0.0, deadline - self.current_time())


def current_virtual_clock() -> VirtualClock | None:
    """The running loop's clock if it is a ``VirtualClock`` (None in wall-clock mode)."""
    clock = trio.lowlevel.current_clock()
    return clock if isinstance(clock, VirtualClock) else None


async def sleep_until(deadline: float, *, late: bool = False) -> None:
    """``trio.sleep_until``, kept by the virtual clock when it runs the loop (``late``:
    see ``VirtualClock.sleep_until``; on the wall clock instants do not repeat)."""
    clock = trio.lowlevel.current_clock()
    if type(clock) is VirtualClock:
        await clock.sleep_until(deadline, late=late)
    else:
        await trio.sleep_until(deadline)


async def sleep(seconds: float) -> None:
    """``trio.sleep``, kept by the virtual clock when it runs the loop."""
    if seconds < 0:
        raise ValueError("sleep length must be non-negative")
    clock = trio.lowlevel.current_clock()
    if type(clock) is VirtualClock:
        await clock.sleep_until(clock._time + seconds)
    else:
        await trio.sleep(seconds)


__all__ = [
    "Alarm",
    "IOSource",
    "SharedClock",
    "Timer",
    "VirtualClock",
    "Wakeup",
    "WallClock",
    "current_virtual_clock",
    "sleep",
    "sleep_until",
]
