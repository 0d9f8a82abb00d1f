"""The virtual clock: simulated time that jumps to the next timer when nothing is running.

trio asks its clock how long to wait for I/O whenever no task can run
(``deadline_to_sleep_time``). This clock answers "no time at all" and moves itself to the
next deadline, so ``trio.sleep(3600)`` costs no wall time. It refuses to jump while real
I/O the simulator started is in flight (a request to Redis): simulated time stands still
until the reply is read, so a remote call costs no simulated time and a timer can never
fire "during" it. trio's own ``MockClock(autojump_threshold=0)`` jumps while a socket
read is pending, which is why the simulator has its own (simulation-notes.md).

Sources of real I/O register with ``watch``: anything with a ``busy`` property (the
trio transport to the coupling facility is one).
"""

from __future__ import annotations

import math
import time
from typing import Protocol

import trio

#: How long trio may wait in real time while real I/O is in flight: the reply wakes it
#: sooner. Bounded so a stuck source is looked at again.
_REAL_WAIT = 60.0


class IOSource(Protocol):
    """Something that does real I/O: ``busy`` while a request awaits its reply."""

    @property
    def busy(self) -> bool: ...


class VirtualClock(trio.abc.Clock):
    """Simulated seconds, starting at ``start``; see the module's docstring."""

    def __init__(self, start: float = 0.0) -> None:
        self._time = start
        self._sources: list[IOSource] = []
        self.jumps = 0  # how many times time moved: statistics for the benchmarks

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
        for source in self._sources:
            if source.busy:
                return _REAL_WAIT  # the reply ends the wait; time stands still meanwhile
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


__all__ = ["IOSource", "SharedClock", "VirtualClock", "WallClock", "current_virtual_clock"]
