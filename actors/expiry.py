"""EXPRYINT: the periodic expiry scan of a queue manager, and of its QSG's shared queues.

Every EXPRYINT seconds a queue manager scans its own local queues worth scanning. The
shared queues of a QSG are scanned by one member only, the holder of the QSG's
expiry-scan lease: a member with EXPRYINT set tries for the lease when it starts (so
generally the first member to start holds it), the holder renews it at every scan, and
when the holder stops renewing (killed, or stopped cleanly and released it) the others
take it over once it runs out. A refused member tries again exactly when the lease it
was refused runs out, so a takeover comes within one lease period of the holder's last
renewal. The lease is twice EXPRYINT long. Scans and takeovers are events.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Protocol, TypeVar

import trio

from actors import clock
from actors.events import EventLog, LeaseChanged
from coupling.errors import FACILITY_REASONS
from coupling.lease import EXPIRY_SCAN, Grant
from coupling.transport import CFConnectionError
from qsg.core.errors import MQMIError
from qsg.core.lease import MemberLease
from qsg.core.qmgr import QMgr
from qsg.core.store import Fence, StaleFenceError

T = TypeVar("T")

#: The lease on the expiry scan lasts this many scan intervals.
LEASE_INTERVALS = 2


class ScanCoordinator(Protocol):
    """What the scanner uses of the world (``World``): the lease on its QSG's shared
    scan and the check of a scan's fence, whether the world is stopping cleanly (a
    clean stop gives the lease up), and the event stream each scan is noted in."""

    @property
    def stopping(self) -> bool: ...
    @property
    def events(self) -> EventLog: ...

    def lease(self, qm: ScanningQueueManager, role: str, length: float) -> MemberLease: ...
    def check_fence(self, qsg: str, fence: Fence, now: float) -> Fence: ...
    def note_scan(
        self,
        qm: ScanningQueueManager,
        *,
        shared: bool,
        pattern: str,
        discarded: int,
        cause: str,
        token: int = 0,
    ) -> None: ...


class ScanningQueueManager(Protocol):
    """What the scanner uses of the queue manager it scans for (``QueueManager``): its
    rules (EXPRYINT, its QSG, the scan itself), its dispatcher, its clock's skew,
    whether it is alive, and the expiry-scan grant it holds (which it keeps here)."""

    expiry_grant: Grant | None

    @property
    def name(self) -> str: ...
    @property
    def rules(self) -> QMgr: ...
    @property
    def world(self) -> ScanCoordinator: ...
    @property
    def alive(self) -> bool: ...
    @property
    def skew(self) -> float: ...

    async def dispatch(self, call: Callable[[float], T], *, system: bool = False) -> T: ...


async def scan_periodically(
    qm: ScanningQueueManager, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED
) -> None:
    """The scanner of one life of ``qm``; started before the queue manager reports it is
    up, so the first member to start is the first to try for the lease."""
    interval = qm.rules.expiry_interval
    if not interval:
        task_status.started()
        return  # EXPRYINT(OFF): no periodic scan (REFRESH QMGR still scans)
    world = qm.world
    # Only a QSG member shares a scan (and so holds a lease on it).
    lease = None
    if qm.rules.qsg is not None:
        lease = world.lease(qm, EXPIRY_SCAN, LEASE_INTERVALS * interval)
    next_local = trio.current_time() + interval
    grant: Grant | None = None
    try:
        while True:
            now = trio.current_time()
            retry = next_local
            if lease is not None:
                try:
                    # The lease is judged by the member's own clock (skewed, if it is).
                    outcome = await qm.dispatch(
                        lambda now: lease.acquire(now + qm.skew), system=True
                    )
                except (CFConnectionError, MQMIError):
                    # The coupling facility is unreachable: no lease, no shared scan this
                    # round; the local queues are still this member's to scan.
                    outcome = None
                if outcome is None:
                    grant = qm.expiry_grant = None
                elif isinstance(outcome, Grant):
                    grant = qm.expiry_grant = outcome
                    if outcome.acquired:
                        world.events.emit(
                            LeaseChanged(now, qm.name, EXPIRY_SCAN, outcome.token, outcome.previous)
                        )
                    await scan_shared(qm, outcome, "*", "EXPRYINT")
                else:
                    grant = qm.expiry_grant = None
                    # The refusal's expiry, as this member's own (skewed) clock reads it.
                    retry = min(retry, outcome.expires - qm.skew)
            if now >= next_local:
                found = await qm.dispatch(lambda now: qm.rules.scan_expired(now), system=True)
                world.note_scan(qm, shared=False, pattern="*", discarded=found, cause="EXPRYINT")
                next_local = now + interval
                retry = min(retry, next_local) if grant is None else next_local
            task_status.started()
            task_status = trio.TASK_STATUS_IGNORED  # started once, after the first attempt
            # Never again in the same instant: that would spin without time passing.
            await clock.sleep_until(max(retry, now + interval / 1000))
    finally:
        # A clean stop gives the lease up; a killed member keeps it until it runs out.
        if lease is not None and grant is not None and qm.alive and world.stopping:
            held = grant
            # An unreachable facility: the lease runs out by itself.
            with trio.CancelScope(shield=True), contextlib.suppress(CFConnectionError):
                await qm.dispatch(lambda now: lease.release(held), system=True)


async def scan_shared(
    qm: ScanningQueueManager, grant: Grant, pattern: str, cause: str
) -> int | None:
    """Scan the QSG's shared queues matching ``pattern`` under the lease ``grant``; the
    facility (or, in process, the lease board) refuses a stale fence: then None."""
    world = qm.world

    def scan(now: float) -> int:
        fence = world.check_fence(qm.rules.qsg_name, grant.fence, now + qm.skew)
        return qm.rules.scan_expired(now, pattern, shared=True, fence=fence)

    try:
        found = await qm.dispatch(scan, system=True)
    except StaleFenceError:
        return None  # the lease ran out meanwhile: another member scans now
    except MQMIError as error:
        if error.reason not in FACILITY_REASONS:
            raise
        return 0  # the coupling facility failed the scan: the next scan tries again
    world.note_scan(
        qm, shared=True, pattern=pattern, discarded=found, cause=cause, token=grant.token
    )
    return found


__all__ = [
    "LEASE_INTERVALS",
    "ScanCoordinator",
    "ScanningQueueManager",
    "scan_periodically",
    "scan_shared",
]
