"""Loss of connectivity and more than one coupling facility (a part of ``World``).

A member that loses connectivity to a structure (or to a whole facility) ends or
tolerates it as its CFCONLOS says (``qsg.core.conlos``); a tolerating member reconnects
into the other instance of a duplexed structure, or by a rebuild into a facility it
still reaches, and otherwise gets MQRC_CF_NOT_AVAILABLE (2345) on the structure's
queues until its link is back (``actors.reach``). A facility lost to every member moves
its structures as ``qsg.core.facilities.Placement`` says: a duplexed one carries on in
its other instance with nothing lost; another is rebuilt into the next facility of its
preference list (persistent messages recovered from the log, nonpersistent lost, units
of work in flight on it backed out); with none left, it has failed until its facility
is back. The group's router (``qsg.core.router``) holds each facility's store and
moves the structures' content; a rebuild ends here in an immediate RECOVER of the
structure in its new facility, and a facility's loss kills its server, if it has one.
"""

from __future__ import annotations

import trio

from actors.events import CFRecovered
from actors.world_cf import CFRecovery
from coupling.store import RedisStore
from coupling.transport import BlockingTransport
from qsg.core import bugs, cfstate, conlos
from qsg.core.facilities import FAILED, KEPT, REBUILT, Move, Placement
from qsg.core.queue import QueueDefinition
from qsg.core.sharing import QueueSharingGroup


class Connectivity(CFRecovery):
    """Loss of connectivity and the facilities; see the module's docstring."""

    def placement(self, qsg: str) -> Placement:
        """Where ``qsg``'s structures are allocated now (every structure the group has
        defined so far allocated, in the facilities the topology names)."""
        placement = self.routers[qsg].placement
        for definition in self.qsgs[qsg].shared.structures.values():
            if definition.name not in placement.preference:
                placement.allocate(definition)
        return placement

    def _lose_connectivity(self, q_mgr: str, structure: str, facility: str) -> tuple[bool, str]:
        """``q_mgr`` loses connectivity to ``structure`` (or every structure of
        ``facility``, or, with neither, its group's whole facility): whether its CFCONLOS
        ends it, and what became of the structures if not (for the fault's event)."""
        if self.reach is None:
            raise ValueError(
                "a loss of connectivity needs a world started with faults=True "
                "(a scenario or chaos run with CF faults has one)"
            )
        qm = self._running(q_mgr)
        group = qm.rules.qsg
        if group is None:
            raise ValueError(f"queue manager {q_mgr} is in no queue-sharing group")
        qsg = group.name
        placement = self.placement(qsg)
        lost_facility = facility or ("" if structure else placement.facilities[0])
        if lost_facility and lost_facility not in placement.facilities:
            raise ValueError(f"QSG {qsg} has no coupling facility {lost_facility}")
        names = _affected(group, placement, structure, lost_facility)
        definitions = [group.shared.structures[n] for n in names]
        # The administration structure is in the group's first facility.
        admin = lost_facility == placement.facilities[0]
        if conlos.terminates(definitions, qm.rules.cf_conlos, admin):
            return True, ""
        unreachable = self._cut_facilities.setdefault(q_mgr, set())
        if lost_facility:
            unreachable.add(lost_facility)
        router = self.routers[qsg]
        done = router.reconnect(names, unreachable, trio.current_time())
        stranded = {m.structure for m, _ in done if m.outcome == FAILED}
        self.reach.lose_structures(q_mgr, stranded, trio.current_time())
        # IBM ("Shared queue recovery"): a lost link is an abnormal end of the member's
        # connection to the structure, and its peers recover that connection's units
        # of work there: their work on it backed out now, their MQCMIT refused (2003).
        units = sum(router.disconnect_structure(q_mgr, s)[0] for s in sorted(stranded))
        self._act_on(qsg, group, done)
        told = _told([m for m, _ in done])
        if units:
            told += f"; {units} unit{'s' if units > 1 else ''} of work backed out there"
        return False, told

    def _regain_connectivity(self, q_mgr: str, structure: str, facility: str) -> bool:
        """``q_mgr``'s link is back (to ``structure``, ``facility``, or everything):
        True if it was ended by the loss (the caller restarts it)."""
        if q_mgr in self._conlos_ended:
            self._conlos_ended.discard(q_mgr)
            return not self._qm(q_mgr).alive
        if self.reach is None:
            raise ValueError("a loss of connectivity needs a world started with faults=True")
        qm = self._qm(q_mgr)
        group = qm.rules.qsg
        unreachable = self._cut_facilities.get(q_mgr, set())
        if group is not None and (facility or not structure):
            placement = self.placement(group.name)
            names = set(_affected(group, placement, structure, facility))
            if facility:
                unreachable.discard(facility)
            else:
                unreachable.clear()
            self.reach.regain_structures(q_mgr, names if facility else None)
        else:
            self.reach.regain_structures(q_mgr, {structure})
        if group is not None and not self._cut_facilities.get(q_mgr):
            self.placement(group.name)
            self.routers[group.name].reduplex()  # duplex established again
        self.signals.notify_all()
        return False

    async def facility_fail(self, facility: str, q_mgr: str = "") -> str:
        """``facility`` of ``qsg`` is lost to every member: its structures move as
        ``Placement.lose`` says (a duplexed one carries on, another is rebuilt into the
        next facility, or fails with none)."""
        qsg, group = self._group(q_mgr)
        placement = self.placement(qsg)
        if facility not in placement.facilities:
            raise ValueError(f"QSG {qsg} has no coupling facility {facility}")
        if facility not in placement.alive:
            raise ValueError(f"coupling facility {facility} of QSG {qsg} has already failed")
        if (qsg, facility) in self._crashed:
            raise ValueError(f"coupling facility {facility} of QSG {qsg} has already failed")
        self._group_server_up(qsg, f"losing {facility}")
        done = self.routers[qsg].lose(facility, trio.current_time())
        if len(placement.facilities) > 1:
            self.link.lose_facility(qsg, facility)  # its server dies (after the log)
        self._act_on(qsg, group, done)
        self.signals.notify_all()
        return _told([m for m, _ in done]) or "no structure in it"

    async def facility_crash(self, facility: str, q_mgr: str = "") -> str:
        """``cf_fail`` of one facility of several: its own server is killed (SIGKILL)
        and nothing rebuilds its structures elsewhere (``Router.crash``): a duplexed
        one carries on in its other instance, any other fails there (2373) until
        ``facility_back``. The group's own server stays up."""
        qsg, _ = self._group(q_mgr)
        placement = self.placement(qsg)
        if facility not in placement.facilities:
            raise ValueError(f"QSG {qsg} has no coupling facility {facility}")
        if len(placement.facilities) < 2:
            raise ValueError(
                f"QSG {qsg} has one coupling facility, on the group's server: "
                "cf_fail names no facility then"
            )
        if facility not in placement.alive:
            raise ValueError(f"coupling facility {facility} of QSG {qsg} has already failed")
        self.link.crash_facility(qsg, facility)
        moves = self.routers[qsg].crash(facility)
        self._crashed.add((qsg, facility))
        self._cf_failed_by_fault = True
        self.signals.notify_all()
        await trio.lowlevel.checkpoint()
        return _told(moves) or "no structure in it"

    async def facility_back(self, facility: str, q_mgr: str = "") -> str:
        """``cf_restart`` of a facility ``facility_crash`` failed: its server starts
        again and, before any member uses it, the structures that failed there are
        recovered from what the server kept (``_recover_facility``: persistent messages
        of RECOVER(YES) structures, with ``cf_persistent``); duplexing is established
        again with it."""
        qsg, group = self._group(q_mgr)
        if (qsg, facility) not in self._crashed:
            raise ValueError(f"coupling facility {facility} of QSG {qsg} has not failed")
        placement = self.placement(qsg)
        url, kept = self.link.restart_facility(qsg, facility)
        self._crashed.discard((qsg, facility))
        there = {s for s, f in placement.primary.items() if f == facility}
        # Blocking on purpose: no member runs between the restart and the recovery.
        transport = BlockingTransport(url)
        try:
            store = RedisStore(transport, qsg)
            self._recover_facility(qsg, group, store, kept, only=there, leases=False)
        finally:
            transport.close()
        back = self.routers[qsg].restore(facility)
        if not self._crashed and (self.server is None or self.server.running):
            self._cf_failed_by_fault = False
            self.watch.ended()
        await self._recover_left_undone()
        self.signals.notify_all()
        return f"{facility} holds {', '.join(sorted(there | set(back))) or 'nothing'} again"

    async def facility_restore(self, facility: str, q_mgr: str = "") -> str:
        """``facility`` of ``qsg`` is back: duplexing established again with it, and a
        structure that had no facility left is reallocated in it and recovered (its
        persistent messages from the log, for RECOVER(YES); empty otherwise). A
        facility ``cf_fail`` failed comes back as ``cf_restart`` brings it."""
        qsg, group = self._group(q_mgr)
        placement = self.placement(qsg)
        if facility not in placement.facilities:
            raise ValueError(f"QSG {qsg} has no coupling facility {facility}")
        if (qsg, facility) in self._crashed:
            return await self.facility_back(facility, q_mgr)
        self._group_server_up(qsg, f"restoring {facility}")
        router = self.routers[qsg]
        # The facility comes back empty: a new store (the same one while the group's
        # facilities share one).
        fresh = None
        if len(placement.facilities) > 1 and facility not in placement.alive:
            fresh = self.link.facility_store(qsg, facility, router.admin, self.watch.failed)
        back = router.restore(facility, fresh)
        members = len(group.members)
        for name in back:
            if router.structure_status(name).failed:
                purge = not group.shared.structures[name].recover
                cfstate.recover(group.shared, name, purge, members)
                self._rebuilt(qsg, group, name, not purge, 0)
        self.signals.notify_all()
        return f"{facility} holds {', '.join(back) or 'nothing'} again"

    async def restore_connectivity(self) -> list[str]:
        """Every member's links back and every facility restored (a chaos run's heal):
        what was lifted, one word each ("QM1", "QSG1 CF02"). A member its CFCONLOS
        ended stays down for the heal's restart."""
        lifted = (
            sorted(self._cut_facilities)
            if self.reach is None
            else sorted(set(self._cut_facilities) | set(self.reach.structures))
        )
        if self.reach is not None:
            self.reach.regain_structures(None, None)
        self._cut_facilities.clear()
        lifted += sorted(self._conlos_ended)
        self._conlos_ended.clear()
        for qsg, placement in sorted(self.placements.items()):
            for facility in placement.facilities:
                if facility not in placement.alive:
                    q_mgr = self.qsgs[qsg].members[0]
                    await self.facility_restore(facility, q_mgr)
                    lifted.append(f"{qsg} {facility}")
        self.signals.notify_all()
        return lifted

    def _act_on(self, qsg: str, group: QueueSharingGroup, done: list[tuple[Move, int]]) -> None:
        """Recover each structure the router rebuilt (it failed it where it was,
        nonpersistent messages lost and units of work on it backed out, and moved its
        backup and log into its new facility) at once, there."""
        now = trio.current_time()
        store = self.routers[qsg]
        for move, lost in done:
            if move.outcome == KEPT and bugs.DUPLEX_FAILS_OVER_EMPTY in bugs.ACTIVE:
                # The known bug a chaos checker must catch: the survivor comes up empty,
                # and nothing says so.
                if not store.structure_status(move.structure).failed:
                    store.fail_structure(move.structure, now)
                store.recover_structure(move.structure, purge=True)
            if move.outcome != REBUILT:
                continue
            definition = group.shared.structures[move.structure]
            store.recover_structure(move.structure, purge=not definition.recover)
            self._rebuilt(qsg, group, move.structure, definition.recover, lost)
        self.signals.notify_all()

    def _group_server_up(self, qsg: str, doing: str) -> None:
        """A structure that loses its last facility waits, failed, in the group's own
        server, and comes back out of it (``Router.lose``, ``Router.restore``): while
        that server is down or cut off, ``doing`` is refused whole (a ValueError)
        rather than left half done."""
        down = self.server is not None and not self.server.running
        if down or self.link.cut_off:
            raise ValueError(
                f"{doing} of QSG {qsg} needs the group's own server, where a structure with "
                "no facility left waits: the group's own server is down or cut off"
            )

    def _rebuilt(
        self, qsg: str, group: QueueSharingGroup, structure: str, recovered: bool, lost: int
    ) -> None:
        queues = sorted(
            q.name
            for q in group.shared.queues.values()
            if isinstance(q, QueueDefinition) and q.cf_struct == structure
        )
        now = trio.current_time()
        self.events.emit(CFRecovered(now, "", qsg, structure, ",".join(queues), recovered, lost, 0))

    def _group(self, q_mgr: str) -> tuple[str, QueueSharingGroup]:
        """The QSG of member ``q_mgr`` (or, none named, the run's only QSG)."""
        if q_mgr:
            group = self._qm(q_mgr).rules.qsg
            if group is None:
                raise ValueError(f"queue manager {q_mgr} is in no queue-sharing group")
            return group.name, group
        if len(self.qsgs) != 1:
            raise ValueError("name a member ('qmgr') to say which QSG's facility this is")
        return next(iter(self.qsgs.items()))

    def duplexed(self, qsg: str, structure: str) -> bool:
        """Whether ``structure`` of ``qsg`` has two instances now (a call on one of its
        queues writes to both: two CF accesses in the model's costs)."""
        placement = self.placements.get(qsg)
        return placement is not None and structure in placement.secondary


def _affected(
    group: QueueSharingGroup, placement: Placement, structure: str, facility: str
) -> list[str]:
    if structure:
        if structure not in group.shared.structures:
            raise ValueError(f"QSG {group.name} has no CF structure {structure}")
        return [structure]
    return placement.structures_in(facility)


def _told(moves: list[Move]) -> str:
    return "; ".join(f"{m.structure} {m.outcome}" + (f" in {m.to}" if m.to else "") for m in moves)


__all__ = ["Connectivity"]
