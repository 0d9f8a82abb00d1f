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
"""

from __future__ import annotations

import heapq
import math
import time
from itertools import count
from typing import Protocol

import trio
from trio.lowlevel import Abort, RaiseCancelT, Task, current_task, reschedule

#: How long trio may wait in real time while real I/O is in flight: the reply wakes it
#: sooner. Bounded so a stuck source is looked at again.
_REAL_WAIT = 60.0


class IOSource(Protocol):
    """Something that does real I/O: ``busy`` while a request awaits its reply."""

    @property
    def busy(self) -> bool: ...


class Wakeup:
    """A parked task that is woken once: by ``wake`` or by the clock at its deadline.

    ``woken`` says which: True when ``wake`` came first, False when the deadline did.
    """

    __slots__ = ("pending", "task", "woken")

    def __init__(self) -> None:
        self.task: Task | None = None
        self.pending = False  # parked and not yet woken, cancelled or timed out
        self.woken = False

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
        self._alarms: list[tuple[float, int, Wakeup]] = []
        #: Wake-ups at the end of their instant (``sleep_until(..., late=True)``): due
        #: only once no other wake-up of the same time is left and no task can run.
        self._late: list[tuple[float, int, Wakeup]] = []
        self._order = count()  # equal times wake in the order they were asked for
        self.jumps = 0  # how many times time moved: statistics for the benchmarks

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
        alarms, late = self._alarms, self._late
        while alarms and not alarms[0][2].pending:
            heapq.heappop(alarms)  # woken or cancelled meanwhile
        while late and not late[0][2].pending:
            heapq.heappop(late)
        first = alarms[0][0] if alarms else math.inf
        when = min(first, late[0][0] if late else math.inf)
        if when < deadline:
            if when > self._time:
                self._time = when
                self.jumps += 1
            if first > when:  # only the instant's late wake-ups are left
                alarms = late
            while alarms and alarms[0][0] <= when:
                wakeup = heapq.heappop(alarms)[2]
                if wakeup.pending:
                    wakeup.pending = False
                    assert wakeup.task is not None
                    reschedule(wakeup.task)
            return 0.0
        if math.isinf(deadline):
            return math.inf  # nothing will ever happen: as a real program would, wait
        if deadline > self._time:
            self._time = deadline
            self.jumps += 1
        return 0.0


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
    "IOSource", "SharedClock", "VirtualClock", "Wakeup", "WallClock", "current_virtual_clock",
    "sleep", "sleep_until",
]  # fmt: skip
