"""The model costs: how much simulated time MQ work takes, for capacity planning.

Results are in simulated seconds, so they do not depend on how busy the host is. Every
cost is zero unless a scenario sets it; a nonzero cost is a timer per call.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Costs:
    """Simulated seconds (and bytes per second) that MQ work costs.

    ``cpu_per_call``: a queue manager's processor time per MQI call; each queue
    manager has ``cpus`` processors, so calls beyond that queue for one. ``cf_access``:
    one access to the coupling facility (added to a call on a shared queue).
    ``channel_latency`` and ``channel_bandwidth``: a batch's one-way trip on a channel
    takes the latency plus its size over the bandwidth. ``smds_write`` and ``smds_read``:
    one access to a shared message data set, writing an offloaded message's data (its
    MQPUT) or reading it back (MQGET or browse); added to the call that made it, after
    the call (``qsg.core.offload`` says which messages are offloaded).
    """

    cpu_per_call: float = 0.0
    cpus: int = 1
    cf_access: float = 0.0
    channel_latency: float = 0.0
    channel_bandwidth: float = math.inf
    smds_write: float = 0.0
    smds_read: float = 0.0
    #: Whether an MQI call may cost simulated time (so it cannot run at once): asked
    #: on every call, so worked out once.
    per_call: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        per_call = bool(self.cpu_per_call or self.cf_access or self.smds_write or self.smds_read)
        object.__setattr__(self, "per_call", per_call)
        for name in ("cpu_per_call", "cf_access", "channel_latency", "smds_write", "smds_read"):
            if getattr(self, name) < 0:
                raise ValueError(f"cost {name} must not be negative: {getattr(self, name)}")
        if self.channel_bandwidth <= 0:
            raise ValueError(f"channel_bandwidth must be positive: {self.channel_bandwidth}")
        if self.cpus < 1:
            raise ValueError(f"cpus must be at least 1: {self.cpus}")

    def transit(self, size: int) -> float:
        """The one-way time of ``size`` bytes on a channel."""
        return self.channel_latency + size / self.channel_bandwidth


__all__ = ["Costs"]
