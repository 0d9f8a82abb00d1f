"""The world's coupling-facility recovery and leases (a part of ``World``).

Peer recovery of a failed member's units of work by a survivor, or later, when the
facility is back or the member restarts; what a failed facility's server costs the
units of work in flight; RECOVER CFSTRUCT after the facility comes back (restarted by
the run, or found empty); and each member's view of a lease and of its fence.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Set
from functools import partial

import trio

from actors.events import CFRecovered
from actors.expiry import ScanningQueueManager
from actors.reach import guard
from actors.world_base import WorldBase
from coupling import keys
from coupling.errors import FACILITY_REASONS
from coupling.store import RedisStore
from coupling.transport import BlockingTransport
from qsg import CMQC
from qsg.core import bugs
from qsg.core.errors import MQMIError
from qsg.core.lease import MemberLease
from qsg.core.queue import QueueDefinition
from qsg.core.sharing import QueueSharingGroup
from qsg.core.store import Fence


class CFRecovery(WorldBase):
    """Coupling-facility recovery and leases; see the module's docstring."""

    async def _recover(self, failed: str, incarnation: int) -> None:
        """Peer recovery of ``failed``'s life by a surviving member; left for later (when
        the coupling facility is back, or the member restarts) if the facility cannot be
        reached."""
        alive = [p for p in self._peers(self._qm(failed)) if p.alive]
        for peer in alive:
            if peer.paused is not None:
                continue  # it does the recovery when it wakes, if nobody has by then
            try:
                await peer.request(partial(peer.recover_peer, failed, incarnation))
            except MQMIError as error:
                if error.reason not in FACILITY_REASONS:
                    raise
                continue  # this peer has lost the facility: the next one tries
            self._unrecovered.discard((failed, incarnation))
            return
        if alive:
            self._unrecovered.add((failed, incarnation))

    async def _recover_left_undone(self) -> None:
        """Peer recovery that no member could run before (the facility was unreachable,
        the peers paused), for failed members still down in the same life."""
        for failed, incarnation in sorted(self._unrecovered):
            if self._qm(failed).incarnation == incarnation and not self._qm(failed).alive:
                await self._recover(failed, incarnation)
            else:
                self._unrecovered.discard((failed, incarnation))

    async def cf_died(self) -> None:
        """The facility's server is gone (``cf_fail`` killed it, or it died unscheduled):
        units of work in flight can no longer commit, and the link is dropped."""
        for group in self.qsgs.values():
            group.shared.store.failed()
        # The link dies with the server. Dropped here, not when the reader task next
        # runs and meets the closed socket: a call made before that would go to the
        # dead link after a restart, where it should connect again.
        await self.link.drop()
        await trio.lowlevel.checkpoint()

    @property
    def cf_fault_active(self) -> bool:
        """A fault of the run keeps the facility from the members now (``cf_fail`` not
        yet restarted, or ``cf_unavailable`` to all or some)."""
        reach = self.reach
        unavailable = bool(self.link.cut_off)
        lost = reach is not None and bool(reach.everyone or reach.lost)
        return self._cf_failed_by_fault or unavailable or lost

    async def recover_lost_structures(self) -> bool:
        """The facility is back without its structures (its server restarted empty, no
        ``cf_restart`` of the run's): they are recovered now, as ``cf_restart`` does,
        with nothing kept. False if the facility failed again meanwhile."""
        transport = BlockingTransport(self.link.url)  # only a server loses them
        try:
            for name, group in self.qsgs.items():
                group.shared.store.failed()  # its units of work in flight went with them
                self._recover_facility(name, group, RedisStore(transport, name), False)
        except MQMIError:
            return False
        finally:
            transport.close()
        await self._recover_left_undone()
        self.signals.notify_all()
        return True

    def _recover_facility(
        self,
        name: str,
        group: QueueSharingGroup,
        store: RedisStore,
        kept_state: bool,
        only: Set[str] | None = None,
        leases: bool = True,
    ) -> None:
        """Redefine the group's structures and queues (their definitions are the
        group's, not the facility's), then RECOVER CFSTRUCT them all: with ``only``, the
        queues of those structures alone (the server is one of several). ``leases``:
        the server holds the group's leases, whose fencing tokens must keep rising (a
        facility's own server holds none)."""
        repo = group.shared
        for structure in repo.structures.values():
            store.define_structure(
                structure.name,
                size_kb=structure.size_kb,
                cf_level=structure.cf_level,
                offload=structure.offload_rules,
            )
        queues = [
            q
            for q in repo.queues.values()
            if isinstance(q, QueueDefinition)
            and q.q_type == CMQC.MQQT_LOCAL
            and (only is None or q.cf_struct in only)
        ]
        for queue in queues:
            store.create_queue(queue.name, queue.ordering, queue.cf_struct or None)
        keep = {
            q.name: kept_state
            and q.cf_struct in repo.structures
            and repo.structures[q.cf_struct].recover
            for q in queues
        }
        floors = {
            key: token
            for key, token in self.tokens.items()
            if key.startswith(keys.group_prefix(name)) and leases
        }
        if bugs.LOSE_ON_CF_RECOVERY in bugs.ACTIVE:  # the known bug a checker must catch
            units, lost = store.recover_failure(group.members, dict.fromkeys(keep, False), floors)
        else:
            units, lost = store.recover_failure(group.members, keep, floors)
        now = trio.current_time()
        by_structure: dict[str, list[str]] = {}
        for queue in queues:
            by_structure.setdefault(queue.cf_struct, []).append(queue.name)
        for struc, names in sorted(by_structure.items()):
            recovered = all(keep[q] for q in names)
            self.events.emit(
                CFRecovered(
                    now,
                    "",
                    name,
                    struc,
                    ",".join(sorted(names)),
                    recovered,
                    sum(lost[q] for q in names),
                    units,
                )
            )
            units = 0  # counted once, with the first structure

    def note_token(self, key: str, token: int) -> None:
        """A fencing token a member saw (see ``tokens``)."""
        if token > self.tokens.get(key, 0):
            self.tokens[key] = token

    def lease(self, qm: ScanningQueueManager, role: str, length: float) -> MemberLease:
        """``qm``'s view of the lease on ``role`` in its QSG, kept by the QSG's store."""
        store = self.cf_stores[qm.rules.qsg_name]
        lease = store.lease(role, qm.name, length, on_token=self.note_token)
        return guard(lease, self.reach, qm.rules.qsg_name)

    def check_fence(self, qsg: str, fence: Fence, now: float) -> Fence:
        """Refuse a stale fence before a fenced scan, in the QSG's store (on Redis, the
        scan script checks each batch again), so that a stale holder that finds nothing
        worth scanning is refused too, not taken for a scan under its old token. A
        member without its CF link reaches nothing (the store is guarded). The fence
        comes back with ``at``, the holder's ``now`` it was judged at (its lease clock,
        which a skew moves), for the script's checks to judge the lease's expiry by."""
        if bugs.SKIP_FENCING in bugs.ACTIVE:  # the known bug a checker must catch (tests)
            return fence
        self.qsgs[qsg].shared.store.check_fence(fence, now)
        return dataclasses.replace(fence, at=now)  # judged by this clock again, per batch


__all__ = ["CFRecovery"]
