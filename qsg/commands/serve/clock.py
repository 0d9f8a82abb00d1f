"""``--speed X``: the wall clock, X simulated seconds to a real one.

trio reads time from its run's clock, so every deadline in the run (the scenario's
arrivals, faults and duration, an MQGET's WaitInterval, the HTTP server's own timeouts)
follows the same simulated time; the server scales its timeouts back to real seconds
(``server.config``).
"""

from __future__ import annotations

import time

import trio


class SpeedClock(trio.abc.Clock):
    """Simulated seconds since the clock was made, ``speed`` of them to a real second (1:
    the wall clock itself, as ``actors.clock.WallClock``)."""

    def __init__(self, speed: float = 1.0) -> None:
        if not speed > 0:
            raise ValueError(f"the speed must be above 0, not {speed}")
        self.speed = speed
        self._origin = time.monotonic()

    def start_clock(self) -> None:
        pass

    def current_time(self) -> float:
        return (time.monotonic() - self._origin) * self.speed

    def deadline_to_sleep_time(self, deadline: float) -> float:
        return max(0.0, (deadline - self.current_time()) / self.speed)


__all__ = ["SpeedClock"]
