"""A queue manager's processors as the model charges them.

Each MQI call costs processor time (``Costs.cpu_per_call``, plus ``cf_access`` on a
shared queue), held on one of the queue manager's ``cpus`` processors; calls beyond that
number queue for one, first come first served. With the cost of every call known when
it is admitted, the queue needs no waiting tasks: a call admitted at ``now`` starts on
the processor that is free soonest (at once, if one is idle) and ends its cost later.
That is the time its step is made, whether a task sleeps until then or the virtual clock
makes it then (``actors.drive``): the same schedule a first-come-first-served semaphore
gives, kept as one heap of the times each processor is next free.
"""

from __future__ import annotations

import heapq


class Processors:
    """``count`` processors, each free from some simulated time on."""

    __slots__ = ("_free",)

    def __init__(self, count: int) -> None:
        if count < 1:
            raise ValueError(f"a queue manager has at least one processor, not {count}")
        self._free = [-float("inf")] * count  # a heap: the soonest free first

    def reserve(self, now: float, cost: float) -> float:
        """A call admitted at ``now`` costing ``cost`` seconds: the time it ends, on the
        processor free soonest (calls admitted earlier keep theirs: first come first
        served)."""
        free = self._free
        start = free[0]
        if start < now:
            start = now
        end = start + cost
        heapq.heapreplace(free, end)
        return end

    def busy_until(self) -> float:
        """When the last processor now busy is free (-inf if none ever was)."""
        return max(self._free)


__all__ = ["Processors"]
