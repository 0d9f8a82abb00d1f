"""The world's watch on its coupling facility: failures no fault scheduled, and what
follows from them.

Every store call that meets a failed facility tells the watch (``failed``: the reason
code the call got and why). The watch keeps one ``CFFailed`` event per failure, not per
call (a failure ends when the transport connects again, or the facility is recovered),
marks it ``scheduled`` when a fault of the run explains it, and wakes its task for what
an unscheduled one needs, by the same paths a scheduled ``cf_fail`` and ``cf_restart``
take:

- the embedded server died under the run (no ``cf_fail`` killed it): the facility has
  failed, as after ``cf_fail``: units of work in flight can no longer commit, and the
  link is dropped;
- the facility no longer holds its structures (its server restarted without its data):
  they are recovered at once, as MQ does for a structure with automatic recovery (the
  MQRC_CF_STRUC_FAILED text: "use the MQSC command RECOVER CFSTRUCT ... unless automatic
  recovery has been enabled for the structure"): queues redefined empty, units of work
  in flight backed out, leases' tokens kept rising. A ``CFRecovered`` event per
  structure says so.

``unscheduled`` lists the failures a run should answer for: a run with one is not a
success (``qsg run`` exits 1 and says why in one line).
"""

from __future__ import annotations

from typing import Protocol

import trio

from actors.cflink import CFLink
from actors.events import CFFailed, EventLog
from coupling.server import EmbeddedServer
from qsg import CMQC


class FacilityRecovery(Protocol):
    """What the watch uses of the world (``CFRecovery``): the link and the server it
    watches, whether a fault of the run has the facility down, the event stream, and
    the recovery it starts."""

    @property
    def link(self) -> CFLink: ...
    @property
    def server(self) -> EmbeddedServer | None: ...
    @property
    def cf_fault_active(self) -> bool: ...
    @property
    def events(self) -> EventLog: ...

    async def cf_died(self) -> None: ...
    async def recover_lost_structures(self) -> bool: ...


def failure_line(failures: list[CFFailed]) -> str | None:
    """Why a run whose facility failed unscheduled is not a success, in one line (None
    if no failure is given): the first failure, and how many came after it."""
    if not failures:
        return None
    first, more = failures[0], len(failures) - 1
    also = f" ({more} more failure{'s' if more != 1 else ''} after it)" if more else ""
    return (
        f"the coupling facility failed at {first.time:.3f} s and no fault was "
        f"scheduled: reason {first.reason}: {first.detail}{also}"
    )


class FacilityWatch:
    """See the module's docstring; one per world with a coupling facility on a server."""

    def __init__(self, world: FacilityRecovery) -> None:
        self.world = world
        #: Every failure met, in order (one event each).
        self.failures: list[CFFailed] = []
        self._open: CFFailed | None = None  # the failure going on, if one is
        self._since_connects = 0  # the transport's connections when it began
        self._structures_lost = False
        self._server_died = False
        self._wake = trio.Event()

    @property
    def unscheduled(self) -> list[CFFailed]:
        """The failures no fault of the run explains."""
        return [f for f in self.failures if not f.scheduled]

    @property
    def whole(self) -> bool:
        """No failure met since the facility was last whole (``ended``), or ever."""
        return self._open is None

    def failed(self, qsg: str, reason: int, why: str, structures_lost: bool) -> None:
        """A store call of ``qsg`` met a failed facility (from the store; synchronous)."""
        world = self.world
        connects = world.link.connections
        same_link = connects == self._since_connects
        if (
            self._open is not None
            and same_link
            and reason == self._open.reason
            and (not structures_lost)
        ):
            return  # the same failure, met again
        if self._open is not None and structures_lost and self._structures_lost:
            return
        scheduled = world.cf_fault_active
        event = CFFailed(trio.current_time(), "", qsg, reason, why, scheduled)
        self.failures.append(event)
        world.events.emit(event)
        self._open, self._since_connects = event, connects
        if scheduled:
            return
        server = world.server
        if reason == CMQC.MQRC_CF_STRUC_FAILED and server is not None and not server.running:
            self._server_died = True
            self._wake.set()
        if structures_lost:
            self._structures_lost = True
            self._wake.set()

    def ended(self) -> None:
        """The facility is whole again (restarted and recovered, or available)."""
        self._open = None
        self._structures_lost = False

    async def run(self, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """The watch's task (in the world's nursery): does what a failure needs."""
        task_status.started()
        while True:
            await self._wake.wait()
            self._wake = trio.Event()
            if self._server_died:
                self._server_died = False
                await self.world.cf_died()
            if self._structures_lost:
                if await self.world.recover_lost_structures():
                    self.ended()
                else:  # it failed again meanwhile: the next call that finds it out retries
                    self._structures_lost = False


__all__ = ["FacilityRecovery", "FacilityWatch", "failure_line"]
