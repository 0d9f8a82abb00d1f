"""What every request handler reaches: the world, the server's security, the clock's
speed, and the limits on a request."""

from __future__ import annotations

import math
from dataclasses import dataclass

from actors.qmgr import QueueManager
from actors.world import World
from qsg.commands.serve.errors import refuse
from qsg.commands.serve.security import Security

#: The largest request body read (bytes): MQ's default MAXMSGL, 4 MB. A larger body is
#: refused (413) before it is read whole, so a huge upload costs no memory.
MAX_BODY = 4 * 1024 * 1024
#: The largest MQLONG: WaitInterval and Expiry are MQLONGs.
MQLONG_MAX = 2**31 - 1


@dataclass(slots=True)
class Service:
    """The running server's state, shared by its handlers (one trio run: no locks)."""

    world: World
    security: Security
    speed: float = 1.0
    host: str = "localhost"

    def qmgr(self, name: str) -> QueueManager:
        """The scenario's queue manager ``name``; 404 (MQWB0009E) if it has none."""
        qm = self.world.qmgrs.get(name)
        if qm is None:
            raise refuse(404, "MQWB0009E", name)
        return qm

    def simulated_ms(self, real_ms: float) -> int:
        """``real_ms`` real milliseconds as the world's (simulated) milliseconds: a REST
        client's times are real ones, the world runs ``speed`` times faster."""
        return min(MQLONG_MAX, math.ceil(real_ms * self.speed))

    def real_ms(self, simulated_ms: float) -> int:
        return math.floor(simulated_ms / self.speed)


__all__ = ["MAX_BODY", "MQLONG_MAX", "Service"]
