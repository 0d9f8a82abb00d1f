"""A group's store over its coupling facilities: each call to the facility holding it.

A group with several coupling facilities (CF01, CF02, ...) keeps each facility's
structures in that facility's own store (its own ``MemoryStore``, or its own server's
``RedisStore``), and what is no structure's (connection tags, leases, a structure that
has no facility left) in the group's administration store. ``Router`` is one
``MessageStore`` in front of them: the only place that knows which facility holds a
structure now (its ``placement``, ``qsg.core.facilities``), so every call on a queue
goes to the store of the facility holding the queue's structure, and a duplexed
structure's writes go to both instances (system-managed duplexing: "every write goes to
both").

A facility's loss moves its structures as ``Placement.lose`` says, and the router moves
what they hold: a structure rebuilt into another facility is failed where it was (its
nonpersistent messages lost, as for RESET CFSTRUCT ACTION(FAIL)) and its image (backup,
the members' logs since, queues) imported into the target's store, where RECOVER
CFSTRUCT rebuilds it; a
structure with no facility left waits, failed, in the administration store until a
facility is back. A duplexed structure's survivor already holds everything. The router
does no I/O of its own: its stores do.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Iterable, Mapping, Set
from typing import TypeVar

from qsg import CMQC
from qsg.core import cfstate
from qsg.core.conntag import TagUse, TagUses
from qsg.core.errors import MQMIError
from qsg.core.facilities import FAILED, KEPT, REBUILT, Move, Placement
from qsg.core.lease import MemberLease
from qsg.core.message import Message
from qsg.core.objects import CFStructure
from qsg.core.offload import Rule
from qsg.core.store import (
    Expired,
    Fence,
    MessageStore,
    Ordering,
    Recovery,
    Select,
    Syncpoint,
    Taken,
    UowId,
)
from qsg.core.uow import prepare

T = TypeVar("T")


class Router:
    """The group's store over its facilities' stores; see the module docstring."""

    def __init__(
        self,
        placement: Placement,
        stores: Mapping[str, MessageStore],
        admin: MessageStore,
        definition: Callable[[str], CFStructure | None] = lambda name: None,
        *,
        joining: bool = False,
    ) -> None:
        self.placement = placement
        #: A member joining a group other processes run: a duplexed structure's two
        #: instances are alike already (both were empty at the run's start, and every
        #: member has written both since), so allocating it copies nothing; a copy
        #: would overwrite the other members' writes made meanwhile.
        self.joining = joining
        self._stores = dict(stores)
        self.admin = admin
        #: The structure's definition (its preference list and DUPLEX), by name.
        self.definition = definition
        self.commit_may_refuse = admin.commit_may_refuse or any(
            s.commit_may_refuse for s in stores.values()
        )
        self.smds_writes = self.smds_reads = 0
        self._queues: dict[str, str] = {}  # queue -> its structure
        self._defined: dict[str, tuple[int, int, tuple[Rule, ...]]] = {}
        #: Each unit of work's (store, structure) pairs, in the order first met: where
        #: its entries are; and the stores by their ids.
        self._touched: dict[Hashable, dict[tuple[int, str], None]] = {}
        self._members: dict[int, MessageStore] = {}
        #: Units of work whose work went with a facility, and why they cannot commit.
        self._lost: dict[Hashable, str] = {}
        #: Duplexed structures whose second instance is not yet a copy of the first,
        #: and the facility it is to be in: the copy is taken once no unit of work has
        #: work on them, and only then is it an instance (``placement.secondary``).
        self._unsynced: dict[str, str] = {}

    # ---- where things are ---------------------------------------------------------
    def store_of(self, facility: str) -> MessageStore:
        """``facility``'s store."""
        return self._stores[facility]

    def _home(self, structure: str) -> MessageStore:
        facility = self.placement.primary.get(structure, "")
        return self._stores[facility] if facility else self.admin

    def _twin(self, structure: str) -> MessageStore | None:
        facility = self.placement.secondary.get(structure, "")
        if not facility:
            return None
        twin = self._stores[facility]
        return None if twin is self._home(structure) else twin

    def _alive(self) -> list[MessageStore]:
        """The administration store, then each facility's that is there, each once."""
        found: list[MessageStore] = [self.admin]
        for facility in self.placement.facilities:
            store = self._stores[facility]
            if facility in self.placement.alive and all(store is not s for s in found):
                found.append(store)
        return found

    def _instances(self, queue: str) -> tuple[str, MessageStore, MessageStore | None]:
        structure = self._queues.get(queue, "")
        if not structure:
            return "", self.admin, None
        return structure, self._home(structure), self._twin(structure)

    def _enlist(self, uow: UowId | None, store: MessageStore, structure: str) -> None:
        if uow is not None:
            self._touched.setdefault(uow, {})[(id(store), structure)] = None
            self._members[id(store)] = store

    def _uow_stores(self, uow: UowId) -> list[MessageStore]:
        """The stores ``uow`` has entries in, those that may refuse its commit first."""
        ids = dict.fromkeys(store for store, _ in self._touched.get(uow, ()))
        stores = [self._members[i] for i in ids]
        return sorted(stores, key=lambda s: not s.commit_may_refuse)

    # ---- structures and queues ----------------------------------------------------
    def define_structure(
        self, name: str, *, size_kb: int, cf_level: int, offload: tuple[Rule, ...] = ()
    ) -> None:
        """Defined in every facility's store (and the administration store, which holds
        it while no facility does), and allocated in its facilities."""
        self._defined[name] = (size_kb, cf_level, offload)
        for store in self._alive():
            store.define_structure(name, size_kb=size_kb, cf_level=cf_level, offload=offload)
        had = self.placement.secondary.get(name)
        self.placement.allocate(self.definition(name) or CFStructure(name))
        if self.placement.secondary.get(name) not in (None, had) and not self.joining:
            self._to_copy([name])

    @property
    def failed_queues(self) -> dict[str, str]:
        """The queues of failed structures, each from the store that holds it now."""
        failed: dict[str, str] = {}
        for store in self._alive():
            for queue, structure in store.failed_queues.items():
                if self._home(structure) is store:
                    failed[queue] = structure
        return failed

    def create_queue(self, queue: str, ordering: Ordering, structure: str | None = None) -> None:
        self._queues[queue] = structure or ""
        _, home, twin = self._instances(queue)
        home.create_queue(queue, ordering, structure)
        if twin is not None:
            twin.create_queue(queue, ordering, structure)

    def delete_queue(self, queue: str) -> None:
        _, home, twin = self._instances(queue)
        home.delete_queue(queue)
        if twin is not None:
            twin.delete_queue(queue)
        self._queues.pop(queue, None)

    # ---- put, get and browse --------------------------------------------------------
    def put(
        self, queue: str, msg: Message, uow: UowId | None, max_depth: int, member: str = ""
    ) -> None:
        structure, home, twin = self._instances(queue)
        copy = _copy(msg) if twin is not None else None
        self._counted(home, lambda: home.put(queue, msg, uow, max_depth, member))
        self._enlist(uow, home, structure)
        if twin is not None and copy is not None:
            twin.put(queue, copy, uow, max_depth, member)
            self._enlist(uow, twin, structure)

    def get(
        self,
        queue: str,
        select: Select,
        now: float,
        uow: UowId | None,
        syncpoint: Syncpoint,
        max_length: int | None,
        accept_truncated: bool,
        member: str = "",
    ) -> Taken:
        structure, home, twin = self._instances(queue)
        taken = self._counted(
            home,
            lambda: home.get(
                queue, select, now, uow, syncpoint, max_length, accept_truncated, member
            ),
        )
        self._enlist(uow, home, structure)
        if twin is not None:
            twin.get(queue, select, now, uow, syncpoint, max_length, accept_truncated, member)
            self._enlist(uow, twin, structure)
        return taken

    def browse(self, queue: str, after: int | None, select: Select, now: float) -> Taken:
        _, home, twin = self._instances(queue)
        taken = self._counted(home, lambda: home.browse(queue, after, select, now))
        if twin is not None:  # it discards the expired messages it passes: both do
            twin.browse(queue, after, select, now)
        return taken

    def _counted(self, store: MessageStore, call: Callable[[], T]) -> T:
        """``call`` on ``store``, its SMDS accesses counted as the group's."""
        writes, reads = store.smds_writes, store.smds_reads
        try:
            return call()
        finally:
            self.smds_writes += store.smds_writes - writes
            self.smds_reads += store.smds_reads - reads

    def lock(self, queue: str, key: int, handle: Hashable) -> None:
        _, home, twin = self._instances(queue)
        home.lock(queue, key, handle)
        if twin is not None:
            twin.lock(queue, key, handle)

    def unlock(self, queue: str, handle: Hashable) -> None:
        _, home, twin = self._instances(queue)
        home.unlock(queue, handle)
        if twin is not None:
            twin.unlock(queue, handle)

    # ---- units of work ----------------------------------------------------------------
    def commit(self, uow: UowId) -> None:
        """Commit in every store the unit of work has entries in: in two phases when
        more than one may refuse (``qsg.core.uow.prepare``)."""
        why = self._lost.get(uow)
        stores = self._uow_stores(uow)
        if why is None and len(stores) > 1:
            why = prepare(stores, uow)
        if why is not None:
            self.backout(uow)
            raise MQMIError.failed(CMQC.MQRC_BACKED_OUT, why)
        for n, store in enumerate(stores):
            try:
                store.commit(uow)
            except MQMIError as error:
                if n or error.reason != CMQC.MQRC_BACKED_OUT:
                    raise
                self.backout(uow)
                raise
        self._touched.pop(uow, None)
        self._sync()

    def backout(self, uow: UowId) -> None:
        for store in self._uow_stores(uow):
            store.backout(uow)
        self._touched.pop(uow, None)
        self._lost.pop(uow, None)
        self._sync()

    def backed_out(self, uow: UowId) -> str | None:
        why = self._lost.get(uow)
        if why is None:
            for store in self._uow_stores(uow):
                why = store.backed_out(uow)
                if why is not None:
                    self._lost[uow] = why  # kept for the backout that follows
                    break
        return why

    def prepare(self, uow: UowId) -> str | None:
        why = self._lost.get(uow)
        if why is None:
            for store in self._uow_stores(uow):
                why = store.prepare(uow)
                if why is not None:
                    break
        return why

    def failed(self) -> None:
        for store in self._alive():
            store.failed()

    def recover(self, failed: str, incarnation: int, by: str) -> Recovery:
        """Peer recovery in every store that is there, each store's part claimed there
        once (on z/OS each structure's part is its own). The answer says this call ran
        it when it ran the administration store's part or any other part with work in
        it (an earlier attempt that a facility's failure cut short left the rest to it),
        with the counts of the parts it ran; else who did."""
        answers = [store.recover(failed, incarnation, by) for store in self._alive()]
        for uow in [u for u in self._touched if isinstance(u, tuple) and u[0] == failed]:
            self._touched.pop(uow, None)
            self._lost.pop(uow, None)
        ran = [a for a in answers if a.ran]
        # A part that backed nothing out (a facility's new store, which never held the
        # failed life's work) makes no recovery of this call's.
        did = [a for a in ran if a is answers[0] or a.units or a.entries or a.locks]
        self._sync()
        return dataclasses.replace(
            did[0] if did else answers[0],
            units=sum(a.units for a in ran),
            entries=sum(a.entries for a in ran),
            locks=sum(a.locks for a in ran),
        )

    def lose_nonpersistent(self) -> int:
        return sum(store.lose_nonpersistent() for store in self._alive())

    def forget_backout_counts(self, queue: str) -> None:
        _, home, twin = self._instances(queue)
        home.forget_backout_counts(queue)
        if twin is not None:
            twin.forget_backout_counts(queue)

    # ---- what a queue holds -----------------------------------------------------------
    def depth(self, queue: str) -> int:
        return self._instances(queue)[1].depth(queue)

    def depth_at_least(self, queue: str, lowest_priority: int, committed_only: bool) -> int:
        return self._instances(queue)[1].depth_at_least(queue, lowest_priority, committed_only)

    def uncommitted(self, queue: str) -> int:
        return self._instances(queue)[1].uncommitted(queue)

    def contents(self, queue: str) -> list[bytes]:
        return self._instances(queue)[1].contents(queue)

    def worth_scanning(self, queue: str, now: float) -> bool:
        return self._instances(queue)[1].worth_scanning(queue, now)

    def scan(self, queue: str, now: float, fence: Fence | None = None) -> list[Expired]:
        """The lease is in the administration store, not in the facility's: its fence
        is proved there, then the facility's store scans (a lease cannot be proved
        atomically with a scan on another server)."""
        _, home, twin = self._instances(queue)
        if fence is not None and home is not self.admin:
            self.admin.check_fence(fence, now)
            fence = None
        found = home.scan(queue, now, fence)
        if twin is not None:
            twin.scan(queue, now, fence)
        return found

    # ---- the structures -----------------------------------------------------------------
    def structure_usage(self, name: str) -> dict[str, int]:
        return self._home(name).structure_usage(name)

    def fail_structure(self, name: str, now: float) -> int:
        twin = self._twin(name)
        lost = self._home(name).fail_structure(name, now)
        if twin is not None:
            twin.fail_structure(name, now)
        return lost

    def disconnect_structure(self, member: str, name: str) -> tuple[int, int]:
        twin = self._twin(name)
        done = self._home(name).disconnect_structure(member, name)
        if twin is not None:
            twin.disconnect_structure(member, name)
        return done

    def backup_structure(self, name: str, now: float, exclint: float) -> cfstate.StructureStatus:
        twin = self._twin(name)
        status = self._home(name).backup_structure(name, now, exclint)
        if twin is not None:
            twin.backup_structure(name, now, exclint)
        return status

    def recover_structure(self, name: str, purge: bool) -> tuple[int, int, int]:
        twin = self._twin(name)
        done = self._home(name).recover_structure(name, purge)
        if twin is not None:
            twin.recover_structure(name, purge)
        self._sync()  # a rebuilt duplexed structure's second instance: copied now
        return done

    def structure_status(self, name: str) -> cfstate.StructureStatus:
        return self._home(name).structure_status(name)

    def export_structure(self, name: str) -> object:
        return self._home(name).export_structure(name)

    def import_structure(self, name: str, image: object) -> None:
        self._home(name).import_structure(name, image)

    # ---- what is no structure's: the administration store -------------------------------
    def lease(
        self,
        role: str,
        member: str,
        length: float,
        on_token: Callable[[str, int], None] | None = None,
    ) -> MemberLease:
        return self.admin.lease(role, member, length, on_token)

    def check_fence(self, fence: Fence, now: float) -> None:
        self.admin.check_fence(fence, now)

    def conn_tags(self, tag: bytes) -> TagUses:
        return self.admin.conn_tags(tag)

    def claim_conn_tag(self, use: TagUse, version: int) -> bool:
        return self.admin.claim_conn_tag(use, version)

    def release_conn_tag(self, use: TagUse) -> None:
        self.admin.release_conn_tag(use)

    def release_conn_tags(self, q_mgr: str, before: int) -> int:
        return self.admin.release_conn_tags(q_mgr, before)

    def audit(self) -> list[str]:
        """Each store's audit, a line naming the facility when there are several."""
        wrong = list(self.admin.audit())
        for facility in self.placement.facilities:
            store = self._stores[facility]
            if (
                store is not self.admin
                and facility in self.placement.alive
                and all(store is not self._stores[f] for f in self._earlier(facility))
            ):
                wrong += [f"{facility}: {line}" for line in store.audit()]
        return wrong

    def _earlier(self, facility: str) -> Iterable[str]:
        names = self.placement.facilities
        return names[: names.index(facility)]

    # ---- a facility's loss and return ---------------------------------------------------
    def lose(self, facility: str, now: float) -> list[tuple[Move, int]]:
        """``facility`` is gone for every member: its structures moved as
        ``Placement.lose`` says, each with the nonpersistent messages it lost."""
        dead = self._stores[facility]
        before, seconds = dict(self.placement.primary), dict(self.placement.secondary)
        moves = self.placement.lose(facility)
        done = [(m, self._act(m, before, now)) for m in moves]
        if all(dead is not s for s in self._alive()):
            self._forget_store(dead, {m.structure for m in moves if m.outcome != KEPT}, facility)
        self._to_copy(self._new_seconds(seconds))
        return done

    def crash(self, facility: str) -> list[Move]:
        """``facility``'s server died, its structures left in it (``Placement.crash``):
        a duplexed one carries on in its other instance, any other stays there, failed
        (its calls meet the dead server), and the units of work with work on those can
        no longer commit."""
        dead = self._stores[facility]
        moves = self.placement.crash(facility)
        stayed = {m.structure for m in moves if m.outcome == FAILED}
        self._forget_store(dead, stayed, facility)
        return moves

    def reconnect(
        self, structures: Iterable[str], unreachable: Set[str], now: float
    ) -> list[tuple[Move, int]]:
        """A tolerating member reconnects to ``structures`` (``Placement.reconnect``):
        a rebuild moves the structure for every member."""
        before, seconds = dict(self.placement.primary), dict(self.placement.secondary)
        moves = self.placement.reconnect(structures, unreachable)
        done = [(m, self._act(m, before, now)) for m in moves]
        self._to_copy(self._new_seconds(seconds))
        return done

    def _new_seconds(self, before: Mapping[str, str]) -> list[str]:
        """The structures ``Placement`` gave a second instance elsewhere than ``before``
        (duplexing established again in a third facility): empty there until copied."""
        return [n for n, f in self.placement.secondary.items() if before.get(n) != f]

    def restore(self, facility: str, store: MessageStore | None = None) -> list[str]:
        """``facility`` is back (empty: with ``store``, its new store): the structures it
        holds again. One that had no facility left comes back failed, for RECOVER
        CFSTRUCT; a duplexed one is copied into it once no unit of work has work on it."""
        if store is not None and facility not in self.placement.alive:
            self._stores[facility] = store
            for name, (size_kb, cf_level, offload) in self._defined.items():
                store.define_structure(name, size_kb=size_kb, cf_level=cf_level, offload=offload)
        parked = {n for n in self.placement.preference if not self.placement.primary.get(n)}
        back = self.placement.restore(facility)
        for name in back:
            if name in parked:
                target = self._home(name)
                if target is not self.admin:
                    target.import_structure(name, self.admin.export_structure(name))
            else:
                self._to_copy([name])
        return back

    def reduplex(self) -> list[str]:
        """Duplexing established again wherever it can be (``Placement.reduplex``)."""
        again = self.placement.reduplex()
        self._to_copy(again)
        return again

    def _act(self, move: Move, before: Mapping[str, str], now: float) -> int:
        name = move.structure
        was = before.get(name, "")
        source = self._stores[was] if was else self.admin
        if move.outcome == REBUILT:
            return self._rebuild(name, source, self._stores[move.to], now)
        if move.outcome == FAILED and not self.placement.primary.get(name):
            return self._rebuild(name, source, self.admin, now)  # it waits here, failed
        return 0

    def _rebuild(self, name: str, source: MessageStore, target: MessageStore, now: float) -> int:
        """``name`` failed where it was (nonpersistent messages lost) and its image
        (with its backup and the members' logs) moved into ``target``, for RECOVER
        CFSTRUCT there."""
        lost = 0
        if not source.structure_status(name).failed:
            lost = source.fail_structure(name, now)
        if target is not source:
            target.import_structure(name, source.export_structure(name))
        return lost

    def _forget_store(self, dead: MessageStore, moved: set[str], facility: str) -> None:
        """``dead`` is gone: the units of work with entries of a moved structure there
        can no longer commit; its entries of a duplexed one live on in the survivor."""
        gone = id(dead)
        for uow, pairs in list(self._touched.items()):
            there = [p for p in pairs if p[0] == gone]
            if not there:
                continue
            for pair in there:
                del pairs[pair]
            if any(structure in moved for _, structure in there):
                self._lost.setdefault(
                    uow,
                    f"coupling facility {facility} failed while the unit of work had work in it",
                )

    def _to_copy(self, names: Iterable[str]) -> None:
        """The second instances ``Placement`` just gave ``names``: not instances until
        copied (``_sync``), so that no failover lands in an empty one."""
        for name in names:
            facility = self.placement.secondary.pop(name, "")
            if facility:
                self._unsynced[name] = facility
        self._sync()

    def _sync(self) -> None:
        """Copy each duplexed structure whose second instance is not yet a copy, once no
        unit of work has work on its queues (the copy holds committed messages only)."""
        if not self._unsynced:
            return
        for name, facility in sorted(self._unsynced.items()):
            primary = self.placement.primary.get(name, "")
            if (
                not primary
                or primary == facility
                or facility not in self.placement.alive
                or name in self.placement.secondary
            ):
                del self._unsynced[name]
                continue
            home = self._home(name)
            queues = [q for q, s in self._queues.items() if s == name]
            if home.structure_status(name).failed or any(home.uncommitted(q) for q in queues):
                continue
            twin = self._stores[facility]
            if twin is not home:
                twin.import_structure(name, home.export_structure(name))
            self.placement.secondary[name] = facility
            del self._unsynced[name]


def _copy(msg: Message) -> Message:
    """A message for the second instance: its own descriptor, so that neither store's
    changes reach the other's."""
    return dataclasses.replace(msg, desc=dict(msg.desc))


def _conforms(router: Router) -> MessageStore:
    return router  # mypy --strict checks here that the router is a MessageStore


__all__ = ["Router"]
