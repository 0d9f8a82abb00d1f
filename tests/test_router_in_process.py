"""The group's router over its facilities' stores, in process (issue 48's router, issue 45).

``qsg.core.router.Router`` is the one place that knows which coupling facility holds a
structure (z/OS: the first facility of its CFRM preference list that is there; a
duplexed structure's second instance in the next, every write going to both) and moves
what a structure holds when a facility is lost ("Handling failure of a coupling
facility"). ``tests/test_cf_router.py`` plays it in worlds on the server; these tests
hold each of its calls with ``MemoryStore``s for facilities, in a few milliseconds, so
that the fast mutation selection (``[tool.mutmut]``) reaches it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

import pytest

from qsg import CMQC, MD, MQMIError
from qsg.core.conntag import TagUse
from qsg.core.facilities import FAILED, KEPT, REBUILT, Move, Placement
from qsg.core.lease import Fence, Grant, LocalLease
from qsg.core.memstore import MemoryStore
from qsg.core.message import Message
from qsg.core.objects import CFStructure
from qsg.core.router import Router
from qsg.core.store import SELECT_ANY, Expired, Ordering, StaleFenceError, Syncpoint, UowId
from tests.claims import keeps

BIG = 64 * 1024  # over 63 KB: always offloaded to the SMDS


def _msg(body: bytes = b"m", persistent: bool = True, expiry: float | None = None) -> Message:
    desc = MD(Persistence=int(persistent), MsgId=body[:24].ljust(24, b"\0")).get()
    return Message(desc, body, 0.0, expiry, 0)


class _Refusing(MemoryStore):
    """A facility whose commit may refuse (as the server's): ``refusal`` set, it backs
    the unit of work out and answers that reason (MQRC_BACKED_OUT), or answers another
    and changes nothing."""

    commit_may_refuse = True

    def __init__(self) -> None:
        super().__init__()
        self.refusal = 0
        self.commits: list[Hashable] = []

    def commit(self, uow: UowId) -> None:
        self.commits.append(uow)
        if self.refusal == CMQC.MQRC_BACKED_OUT:
            self.backout(uow)
        if self.refusal:
            raise MQMIError.failed(self.refusal, "refused")
        super().commit(uow)


def _router(
    *structures: CFStructure,
    facilities: tuple[str, ...] = ("CF01", "CF02", "CF03"),
    stores: dict[str, MemoryStore] | None = None,
) -> Router:
    """A router over a new store per facility (or ``stores``), each structure defined
    and a queue Q.<structure> on it."""
    stores = stores or {f: MemoryStore() for f in facilities}
    definitions = {s.name: s for s in structures}
    router = Router(Placement(facilities), stores, MemoryStore(), definitions.get)
    for s in structures:
        router.define_structure(s.name, size_kb=1024, cf_level=5)
        router.create_queue(f"Q.{s.name}", Ordering.FIFO, s.name)
    return router


def _depths(router: Router, queue: str) -> list[int | None]:
    """``queue``'s depth in each facility's store (None: not there), then the admin's."""
    found: list[int | None] = []
    for store in [*(router.store_of(f) for f in router.placement.facilities), router.admin]:
        try:
            found.append(store.depth(queue))
        except KeyError:
            found.append(None)
    return found


PLAIN = CFStructure("APP1", recover=True, preference=("CF02", "CF01"))
DUPLEX = CFStructure("DUP1", recover=True, duplex=True)


def test_a_structure_is_in_the_first_facility_of_its_preference_list_and_its_calls_go_there() -> (
    None
):
    # CFRM PREFLIST: the structure is allocated in the first facility listed that is there.
    router = _router(PLAIN)
    router.put("Q.APP1", _msg(b"a"), None, 10)
    router.put("Q.APP1", _msg(b"b", expiry=5.0), "u1", 10)
    assert _depths(router, "Q.APP1") == [None, 2, None, None]
    assert router.placement.facility_of("APP1") == "CF02"
    assert (router.depth("Q.APP1"), router.uncommitted("Q.APP1")) == (2, 1)
    assert router.depth_at_least("Q.APP1", 0, True) == 1
    assert router.contents("Q.APP1") == [b"a".ljust(24, b"\0")]  # committed MsgIds
    assert not router.worth_scanning("Q.APP1", 4.0) and router.worth_scanning("Q.APP1", 6.0)
    assert router.structure_usage("APP1") == router.store_of("CF02").structure_usage("APP1")
    assert router.structure_usage("APP1")["entries"] == 2
    # Defined in every store, the administration store too (it holds it while no facility
    # does): each can take the structure's image.
    for store in (router.store_of("CF01"), router.store_of("CF03"), router.admin):
        assert store.structure_status("APP1").name == "APP1"


def test_a_queue_on_no_structure_is_the_administration_stores() -> None:
    router = _router()
    router.create_queue("LOCAL", Ordering.PRIORITY)
    router.put("LOCAL", _msg(), None, 10)
    assert _depths(router, "LOCAL") == [None, None, None, 1]
    router.delete_queue("LOCAL")
    assert _depths(router, "LOCAL") == [None, None, None, None]


def test_a_duplexed_structures_every_write_goes_to_both_instances_each_its_own_copy() -> None:
    # System-managed duplexing: "every write goes to both" instances.
    router = _router(DUPLEX)
    assert (router.placement.primary, router.placement.secondary) == (
        {"DUP1": "CF01"},
        {"DUP1": "CF02"},
    )
    msg = _msg(b"two", expiry=1.0)
    router.put("Q.DUP1", msg, None, 10)
    router.put("Q.DUP1", _msg(b"one"), None, 10)
    assert _depths(router, "Q.DUP1") == [2, 2, None, None]
    msg.desc["CorrelId"] = b"c" * 24  # the second instance has its own descriptor
    first = router.store_of("CF01").contents("Q.DUP1")
    assert router.store_of("CF02").contents("Q.DUP1") == first
    twin = router.store_of("CF02").browse("Q.DUP1", None, SELECT_ANY, 0.0).message
    assert twin is not None and twin.body == b"two" and twin.desc["CorrelId"] == b"\0" * 24
    # A browse passing an expired message discards it in both.
    taken = router.browse("Q.DUP1", None, SELECT_ANY, 2.0)
    assert [m.body for m in taken.discarded] == [b"two"] and _depths(router, "Q.DUP1")[:2] == [1, 1]
    holder = object()
    assert taken.position is not None
    router.lock("Q.DUP1", taken.position, holder)
    for f in ("CF01", "CF02"):
        locked = router.store_of(f).browse("Q.DUP1", None, SELECT_ANY, 2.0).message
        assert locked is None  # another handle's lock hides it
    router.unlock("Q.DUP1", holder)
    assert router.store_of("CF02").browse("Q.DUP1", None, SELECT_ANY, 2.0).message is not None
    got = router.get("Q.DUP1", SELECT_ANY, 2.0, "u1", Syncpoint.YES, None, False)
    assert got.message is not None and got.message.body == b"one"
    router.backout("u1")
    assert [
        router.store_of(f).browse("Q.DUP1", None, SELECT_ANY, 2.0).message.backout_count  # type: ignore[union-attr]
        for f in ("CF01", "CF02")
    ] == [1, 1]
    router.forget_backout_counts("Q.DUP1")
    assert [
        router.store_of(f).browse("Q.DUP1", None, SELECT_ANY, 2.0).message.backout_count  # type: ignore[union-attr]
        for f in ("CF01", "CF02")
    ] == [0, 0]
    router.get("Q.DUP1", SELECT_ANY, 2.0, "u2", Syncpoint.YES, None, False)
    router.commit("u2")
    assert _depths(router, "Q.DUP1") == [0, 0, None, None]
    router.delete_queue("Q.DUP1")
    assert _depths(router, "Q.DUP1") == [None, None, None, None]


def _two_structures(first: MemoryStore, second: MemoryStore) -> Router:
    """APP1 in CF01's store ``first``, APP2 in CF02's ``second``."""
    return _router(
        CFStructure("APP1", preference=("CF01",)),
        CFStructure("APP2", preference=("CF02",)),
        facilities=("CF01", "CF02"),
        stores={"CF01": first, "CF02": second},
    )


def test_a_unit_of_work_over_two_facilities_commits_and_backs_out_in_both() -> None:
    # MQCMIT and MQBACK end the unit of work in every resource it touched.
    router = _two_structures(MemoryStore(), MemoryStore())
    assert not router.commit_may_refuse
    for uow in ("u1", "u2"):
        router.put("Q.APP1", _msg(), uow, 10)
        router.put("Q.APP2", _msg(), uow, 10)
    router.commit("u1")
    router.backout("u2")
    assert (router.depth("Q.APP1"), router.depth("Q.APP2")) == (1, 1)
    assert (router.uncommitted("Q.APP1"), router.uncommitted("Q.APP2")) == (0, 0)
    assert router.audit() == []


def test_a_refusing_facility_is_committed_first_and_its_refusal_backs_out_both() -> None:
    # MQCMIT: MQRC_BACKED_OUT (2003) when the unit of work cannot be committed: it is
    # backed out whole, nothing committed in the other facility.
    plain, refusing = MemoryStore(), _Refusing()
    router = _two_structures(plain, refusing)
    assert router.commit_may_refuse
    router.put("Q.APP1", _msg(), "u1", 10)
    router.put("Q.APP2", _msg(), "u1", 10)
    refusing.refusal = CMQC.MQRC_BACKED_OUT
    with pytest.raises(MQMIError) as refused:
        router.commit("u1")
    assert refused.value.reason == CMQC.MQRC_BACKED_OUT
    assert refusing.commits == ["u1"]  # asked first, before the plain store committed
    assert (router.depth("Q.APP1"), router.uncommitted("Q.APP1")) == (0, 0)
    # Another reason leaves the unit of work in flight, for a backout to end.
    router.put("Q.APP1", _msg(), "u2", 10)
    router.put("Q.APP2", _msg(), "u2", 10)
    refusing.refusal = CMQC.MQRC_CONNECTION_BROKEN
    with pytest.raises(MQMIError) as broken:
        router.commit("u2")
    assert broken.value.reason == CMQC.MQRC_CONNECTION_BROKEN
    assert router.uncommitted("Q.APP1") == 1


def test_a_second_refusing_facility_refusing_after_the_first_committed_backs_nothing_out() -> None:
    first, second = _Refusing(), _Refusing()
    router = _two_structures(first, second)
    router.put("Q.APP1", _msg(), "u1", 10)
    router.put("Q.APP2", _msg(), "u1", 10)
    second.refusal = CMQC.MQRC_BACKED_OUT
    with pytest.raises(MQMIError):
        router.commit("u1")
    assert (first.depth("Q.APP1"), first.uncommitted("Q.APP1")) == (1, 0)


def test_a_structure_failing_under_a_unit_of_work_backs_it_out_in_every_facility() -> None:
    # Two phases: each store is asked first (``prepare``) whether the unit of work can
    # commit; a structure that failed under it took its work there, so none commits.
    router = _two_structures(MemoryStore(), MemoryStore())
    router.put("Q.APP1", _msg(), "u1", 10)
    router.put("Q.APP2", _msg(), "u1", 10)
    router.fail_structure("APP2", 1.0)
    why = "CF structure APP2 failed while the unit of work had work on it"
    assert router.prepare("u1") == why
    with pytest.raises(MQMIError, match="APP2 failed") as refused:
        router.commit("u1")
    assert refused.value.reason == CMQC.MQRC_BACKED_OUT
    assert (router.depth("Q.APP1"), router.uncommitted("Q.APP1")) == (0, 0)
    assert router.prepare("u1") is None and router.backed_out("u1") is None


def test_backed_out_names_the_facility_that_lost_the_work_and_keeps_it_for_the_backout() -> None:
    router = _two_structures(MemoryStore(), MemoryStore())
    router.put("Q.APP1", _msg(), "u1", 10)
    router.put("Q.APP2", _msg(), "u1", 10)
    assert router.backed_out("u1") is None and router.prepare("u1") is None
    router.fail_structure("APP1", 1.0)
    why = "CF structure APP1 failed while the unit of work had work on it"
    assert router.backed_out("u1") == why
    assert router.backed_out("u1") == why  # kept: the store's own answer is given once
    assert router.prepare("u1") == why
    router.backout("u1")
    assert router.backed_out("u1") is None and router.uncommitted("Q.APP2") == 0


def test_a_facility_lost_moves_its_structures_as_the_preference_lists_say() -> None:
    # z/OS "Handling failure of a coupling facility": a duplexed structure carries on in
    # its other instance, nothing lost; another is rebuilt in the next facility of its
    # preference list, its persistent messages recovered, its nonpersistent ones lost.
    router = _router(PLAIN, DUPLEX, CFStructure("ONLY2", preference=("CF02",)))
    for queue in ("Q.APP1", "Q.DUP1", "Q.ONLY2"):
        router.put(queue, _msg(b"p"), None, 10)
        router.put(queue, _msg(b"n", persistent=False), None, 10)
    router.backup_structure("APP1", 0.0, 0.0)
    done = router.lose("CF02", 1.0)
    assert done == [
        (Move("APP1", REBUILT, "CF01"), 1),
        (Move("DUP1", KEPT, "CF01"), 0),
        (Move("ONLY2", FAILED), 1),
    ]
    assert router.store_of("CF01").structure_status("APP1").failed
    assert router.recover_structure("APP1", False) == (1, 0, 0)
    assert router.depth("Q.APP1") == router.store_of("CF01").depth("Q.APP1") == 1
    assert router.depth("Q.DUP1") == 2
    # With no facility left, it waits failed in the administration store.
    assert router.admin.structure_status("ONLY2").failed
    assert router.failed_queues == {"Q.ONLY2": "ONLY2"}
    # Back in CF02 (empty, a new store): it comes back failed there, for RECOVER CFSTRUCT.
    fresh = MemoryStore()
    assert router.restore("CF02", fresh) == ["ONLY2"]
    assert router.store_of("CF02") is fresh
    assert fresh.structure_status("ONLY2").failed and router.failed_queues == {"Q.ONLY2": "ONLY2"}
    assert router.recover_structure("ONLY2", False)[0] == 0
    assert router.depth("Q.ONLY2") == 1  # its persistent message, from the log


@keeps(
    "docs/coupling-facility.md",
    "it is duplexed again at once in a third facility of its list that is there (a copy, "
    "taken once no unit of work has work on it),",
)
def test_a_duplex_that_loses_its_second_instance_is_copied_into_a_third_facility() -> None:
    # DUPLEX(ENABLED): duplexing is established again in the next facility of the
    # preference list that is there; that instance is a copy of the structure (and the
    # next write goes to both) before a failover may land in it.
    router = _router(DUPLEX)
    router.put("Q.DUP1", _msg(b"a"), None, 10)
    assert router.lose("CF02", 1.0) == [(Move("DUP1", KEPT, "CF01"), 0)]
    router.put("Q.DUP1", _msg(b"b"), None, 10)
    assert _depths(router, "Q.DUP1") == [2, 1, 2, None]  # CF01 and CF03 (CF02 gone)
    assert router.lose("CF01", 2.0) == [(Move("DUP1", KEPT, "CF03"), 0)]
    assert router.depth("Q.DUP1") == 2


def test_a_duplex_that_loses_the_instance_the_members_use_is_copied_into_a_third_facility() -> None:
    # The same when the instance lost is the one the members used: the survivor carries
    # on, and a copy of it (taken once no unit of work has work on it) is the new second.
    router = _router(DUPLEX)
    router.put("Q.DUP1", _msg(b"a"), None, 10)
    router.put("Q.DUP1", _msg(b"b"), "u1", 10)
    assert router.lose("CF01", 1.0) == [(Move("DUP1", KEPT, "CF02"), 0)]
    assert not router.placement.duplexed("DUP1")  # u1 still has work on it
    router.commit("u1")
    assert router.placement.secondary == {"DUP1": "CF03"}
    router.put("Q.DUP1", _msg(b"c"), None, 10)
    assert _depths(router, "Q.DUP1") == [2, 3, 3, None]  # CF01 gone, as it was
    assert router.lose("CF02", 2.0) == [(Move("DUP1", KEPT, "CF03"), 0)]
    assert router.depth("Q.DUP1") == 3 and router.audit() == []


def test_a_duplex_rebuilt_is_copied_into_its_new_second_facility_once_recovered() -> None:
    # A duplexed structure that lost its instance before the copy of its second one was
    # taken is rebuilt (RECOVER CFSTRUCT); duplexing is then established again.
    router = _router(DUPLEX, facilities=("CF01", "CF02", "CF03", "CF04"))
    router.put("Q.DUP1", _msg(b"a"), None, 10)
    router.backup_structure("DUP1", 0.0, 0.0)
    router.put("Q.DUP1", _msg(b"b"), "u1", 10)
    router.lose("CF02", 1.0)  # its new second instance, CF03, waits for u1
    assert not router.placement.duplexed("DUP1")
    assert router.lose("CF01", 2.0) == [(Move("DUP1", REBUILT, "CF03"), 0)]
    assert router.recover_structure("DUP1", False) == (1, 0, 0)
    assert router.placement.secondary == {"DUP1": "CF04"}
    assert router.store_of("CF04").depth("Q.DUP1") == 1


def test_a_second_instance_is_copied_once_no_unit_of_work_has_work_on_the_structure() -> None:
    # A facility back: the duplexed structure's instance there is a copy of the first,
    # of committed messages only, taken once no unit of work has work on it.
    router = _router(DUPLEX, facilities=("CF01", "CF02"))
    router.lose("CF02", 1.0)
    router.put("Q.DUP1", _msg(b"a"), None, 10)
    router.put("Q.DUP1", _msg(b"b"), "u1", 10)
    fresh = MemoryStore()
    assert router.restore("CF02", fresh) == ["DUP1"]
    assert not router.placement.duplexed("DUP1")  # not an instance until copied
    assert fresh.structure_status("DUP1").name == "DUP1"  # defined there on its return
    router.put("Q.DUP1", _msg(b"c"), "u2", 10)
    router.commit("u1")
    assert not router.placement.duplexed("DUP1")  # u2 still has work on it
    router.commit("u2")
    assert router.placement.secondary == {"DUP1": "CF02"} and fresh.depth("Q.DUP1") == 3
    router.put("Q.DUP1", _msg(b"d"), None, 10)
    assert _depths(router, "Q.DUP1") == [4, 4, None]
    assert router.lose("CF01", 2.0) == [(Move("DUP1", KEPT, "CF02"), 0)]
    assert router.depth("Q.DUP1") == 4
    assert router.structure_usage("DUP1")["entries"] == 4 and router.audit() == []


def test_restoring_a_facility_that_is_there_keeps_its_store() -> None:
    router = _router(DUPLEX, facilities=("CF01", "CF02"))
    router.put("Q.DUP1", _msg(), None, 10)
    kept = router.store_of("CF02")
    assert router.restore("CF02", MemoryStore()) == []
    assert router.store_of("CF02") is kept and kept.depth("Q.DUP1") == 1


def test_a_unit_of_work_with_work_in_a_lost_facility_cannot_commit_its_duplexed_work_can() -> None:
    # MQRC_BACKED_OUT (2003): the facility took the unit of work's work on a structure
    # rebuilt elsewhere; a duplexed structure's survivor holds that work still.
    router = _router(PLAIN, DUPLEX, facilities=("CF01", "CF02"))
    router.put("Q.APP1", _msg(), "u1", 10)  # APP1 in CF02
    router.put("Q.DUP1", _msg(), "u2", 10)  # DUP1 in CF01 and CF02
    router.put("Q.DUP1", _msg(), "u3", 10)
    router.put("Q.APP1", _msg(), "u3", 10)
    router.lose("CF02", 1.0)
    why = "coupling facility CF02 failed while the unit of work had work in it"
    assert router.backed_out("u1") == why and router.prepare("u3") == why
    with pytest.raises(MQMIError, match=why) as refused:
        router.commit("u1")
    assert refused.value.reason == CMQC.MQRC_BACKED_OUT
    router.commit("u2")
    assert (router.depth("Q.DUP1"), router.uncommitted("Q.DUP1")) == (2, 1)
    with pytest.raises(MQMIError, match=why):
        router.commit("u3")
    assert (router.depth("Q.DUP1"), router.uncommitted("Q.DUP1")) == (1, 0)


def test_a_tolerating_member_reconnects_by_a_rebuild_into_a_facility_it_reaches() -> None:
    # CFCONLOS(TOLERATE): the member reconnects to the structure by a rebuild into a
    # facility it still reaches; the rebuild moves the structure for every member.
    router = _router(PLAIN, facilities=("CF01", "CF02"))
    router.put("Q.APP1", _msg(b"p"), None, 10)
    router.put("Q.APP1", _msg(b"n", persistent=False), None, 10)
    assert router.reconnect(["APP1"], {"CF02"}, 1.0) == [(Move("APP1", REBUILT, "CF01"), 1)]
    assert router.recover_structure("APP1", False) == (0, 1, 1)
    assert router.depth("Q.APP1") == router.store_of("CF01").depth("Q.APP1") == 1


def test_duplexing_is_established_again_where_it_can_be() -> None:
    router = _router(DUPLEX, facilities=("CF01", "CF02"))
    router.reconnect(["DUP1"], {"CF01"}, 1.0)
    router.put("Q.DUP1", _msg(), None, 10)
    assert router.placement.primary == {"DUP1": "CF02"} and not router.placement.duplexed("DUP1")
    assert router.reduplex() == ["DUP1"]
    assert router.placement.secondary == {"DUP1": "CF01"}
    assert router.store_of("CF01").depth("Q.DUP1") == 1


def test_peer_recovery_runs_in_every_facility_and_answers_every_stores_counts() -> None:
    # Peer recovery backs out the failed member's units of work in every structure.
    router = _two_structures(MemoryStore(), MemoryStore())
    for queue in ("Q.APP1", "Q.APP2"):
        router.put(queue, _msg(), ("QM1", 1), 10)
    router.put("Q.APP2", _msg(), ("QM1", 2), 10)
    router.put("Q.APP1", _msg(), ("QM2", 1), 10)
    answer = router.recover("QM1", 1, "QM2")
    assert (answer.failed, answer.by, answer.ran) == ("QM1", "QM2", True)
    assert (answer.units, answer.entries, answer.locks) == (3, 3, 0)
    again = router.recover("QM1", 1, "QM3")
    assert (again.by, again.ran, again.units, again.entries) == ("QM2", False, 0, 0)
    assert (router.uncommitted("Q.APP1"), router.uncommitted("Q.APP2")) == (1, 0)
    router.commit(("QM2", 1))
    assert router.depth("Q.APP1") == 1


def test_what_is_no_structures_is_in_the_administration_store() -> None:
    # Leases, fencing and connection tags are the group's, not a structure's.
    router = _router(PLAIN)
    lease = router.lease("EXPIRY", "QM1", 5.0)
    grant = lease.acquire(0.0)
    assert (
        isinstance(grant, Grant) and router.admin.lease("EXPIRY", "QM2", 5.0).acquire(1.0) != grant
    )
    fence = Fence("EXPIRY", grant.token)
    router.check_fence(fence, 1.0)
    with pytest.raises(StaleFenceError):
        router.check_fence(fence, 6.0)
    use = TagUse(b"T", "QM1", 1, 1, CMQC.MQCNO_SERIALIZE_CONN_TAG_QSG, "QSG1")
    assert router.claim_conn_tag(use, 0) and not router.claim_conn_tag(use, 0)
    assert (
        router.conn_tags(b"T") == router.admin.conn_tags(b"T")
        and router.conn_tags(b"T").version == 1
    )
    router.release_conn_tag(use)
    assert router.admin.conn_tags(b"T").version == 2
    assert router.claim_conn_tag(use, 2)
    assert router.release_conn_tags("QM1", 2) == 1 and router.admin.conn_tags(b"T").uses == ()


def test_a_fenced_scan_proves_the_lease_in_the_administration_store_then_scans() -> None:
    # The expiry scan's lease is the group's: its fence is proved where the lease is,
    # and the facility's store (which holds no lease) scans.
    router = _router(DUPLEX)
    router.create_queue("LOCAL", Ordering.FIFO)
    for queue in ("Q.DUP1", "LOCAL"):
        router.put(queue, _msg(expiry=1.0), None, 10)
    grant = router.lease("EXPIRY", "QM1", 5.0).acquire(0.0)
    assert isinstance(grant, Grant)
    found = router.scan("Q.DUP1", 2.0, Fence("EXPIRY", grant.token))
    assert len(found) == 1 and _depths(router, "Q.DUP1") == [0, 0, None, None]
    assert len(router.scan("LOCAL", 2.0, Fence("EXPIRY", grant.token))) == 1
    router.put("Q.DUP1", _msg(expiry=1.0), None, 10)
    with pytest.raises(StaleFenceError):
        router.scan("Q.DUP1", 9.0, Fence("EXPIRY", grant.token))
    assert router.depth("Q.DUP1") == 1
    assert len(router.scan("Q.DUP1", 9.0)) == 1 and _depths(router, "Q.DUP1")[:2] == [0, 0]


def test_the_smds_accesses_of_every_facility_are_counted_as_the_groups() -> None:
    # A message over 63 KB is offloaded to the shared message data set: a write at the
    # put, a read at the get, whichever facility holds the structure.
    router = _router(PLAIN, DUPLEX)
    for queue in ("Q.APP1", "Q.DUP1"):
        router.put(queue, _msg(b"x" * BIG), None, 10)
    assert (router.smds_writes, router.smds_reads) == (2, 0)
    router.browse("Q.APP1", None, SELECT_ANY, 0.0)
    got = router.get("Q.DUP1", SELECT_ANY, 0.0, None, Syncpoint.NO, None, False)
    assert got.message is not None and (router.smds_writes, router.smds_reads) == (2, 2)
    with pytest.raises(MQMIError):  # counted on the way out of a refusal too
        router.put("Q.APP1", _msg(b"y" * BIG), None, 1)
    assert (router.smds_writes, router.smds_reads) == (2, 2)


def test_a_structures_own_calls_go_to_its_instances() -> None:
    # DISPLAY CFSTATUS, BACKUP and RECOVER CFSTRUCT, a structure's failure and a member's
    # loss of connectivity to it: the instance the members use, and its duplex.
    router = _router(DUPLEX, PLAIN)
    router.put("Q.DUP1", _msg(b"p"), None, 10)
    router.put("Q.DUP1", _msg(b"n", persistent=False), None, 10)
    status = router.backup_structure("DUP1", 3.0, 0.0)
    assert (status.backup_at, status.backup_messages) == (3.0, 1)
    assert router.store_of("CF02").structure_status("DUP1").backup_at == 3.0
    assert router.structure_status("DUP1") == status
    assert router.structure_status("APP1").backup_at is None
    image = router.export_structure("DUP1")
    assert router.fail_structure("DUP1", 4.0) == 1
    assert router.store_of("CF02").structure_status("DUP1").failed
    assert router.failed_queues == {"Q.DUP1": "DUP1"}
    assert router.recover_structure("DUP1", False) == (1, 0, 0)
    assert _depths(router, "Q.DUP1") == [1, 1, None, None]
    router.import_structure("DUP1", image)
    assert router.depth("Q.DUP1") == 2 and router.store_of("CF02").depth("Q.DUP1") == 1
    router.put("Q.DUP1", _msg(), ("QM1", 1), 10)
    assert router.disconnect_structure("QM1", "DUP1") == (1, 1)
    assert router.store_of("CF02").uncommitted("Q.DUP1") == 0
    assert router.disconnect_structure("QM1", "APP1") == (0, 0)


def test_a_restart_loses_the_nonpersistent_messages_of_every_facility_once() -> None:
    router = _two_structures(MemoryStore(), MemoryStore())
    router.create_queue("LOCAL", Ordering.FIFO)
    for queue in ("Q.APP1", "Q.APP2", "LOCAL"):
        router.put(queue, _msg(persistent=False), None, 10)
        router.put(queue, _msg(), None, 10)
    router.failed()  # nothing to do in process
    assert router.lose_nonpersistent() == 3
    assert [router.depth(q) for q in ("Q.APP1", "Q.APP2", "LOCAL")] == [1, 1, 1]


def test_the_audit_names_the_facility_of_each_line_and_each_store_once() -> None:
    shared = MemoryStore()
    router = _router(
        CFStructure("APP1", preference=("CF01",)),
        CFStructure("APP3", preference=("CF03",)),
        stores={"CF01": shared, "CF02": shared, "CF03": MemoryStore()},
    )
    router.create_queue("LOCAL", Ordering.FIFO)
    for queue in ("Q.APP1", "Q.APP3", "LOCAL"):
        router.put(queue, _msg(), None, 10)
    assert router.audit() == []
    for store in (shared, router.store_of("CF03"), router.admin):
        assert isinstance(store, MemoryStore)
        store._queues[next(q for q in store._queues)].depth += 5
    wrong = "depth 6, but 1 visible messages and 0 uncommitted puts"
    assert router.audit() == [
        f"queue LOCAL: {wrong}",
        f"CF01: queue Q.APP1: {wrong}",
        f"CF03: queue Q.APP3: {wrong}",
    ]
    router.lose("CF03", 1.0)
    assert len(router.audit()) == 2


def test_facilities_sharing_one_store_have_each_call_once() -> None:
    # A group whose facilities are one store (the wall clock's shared server): a duplexed
    # structure's second instance there is the first, written once; a restart loses each
    # nonpersistent message once.
    shared = MemoryStore()
    router = _router(DUPLEX, stores={"CF01": shared, "CF02": shared, "CF03": MemoryStore()})
    router.put("Q.DUP1", _msg(persistent=False), None, 10)
    assert router.placement.secondary == {"DUP1": "CF02"} and shared.depth("Q.DUP1") == 1
    assert router.lose_nonpersistent() == 1


def test_an_administration_store_whose_commit_may_refuse_makes_the_routers_so() -> None:
    refusing = _Refusing()
    router = Router(
        Placement(("CF01", "CF02")), {"CF01": MemoryStore(), "CF02": MemoryStore()}, refusing
    )
    assert router.commit_may_refuse


class _Fencing(MemoryStore):
    """A store that checks any fence a scan carries against its own leases (the
    server's scan script does): a facility's, which holds none, refuses every fence."""

    def __init__(self) -> None:
        super().__init__()
        self.told: list[object] = []

    def scan(self, queue: str, now: float, fence: Fence | None = None) -> list[Expired]:
        if fence is not None:
            self.check_fence(fence, now)
        return super().scan(queue, now, fence)

    def lease(
        self,
        role: str,
        member: str,
        length: float,
        on_token: Callable[[str, int], None] | None = None,
    ) -> LocalLease:
        self.told.append(on_token)
        return super().lease(role, member, length, on_token)


def test_the_lease_and_its_fence_are_the_administration_stores_the_scan_the_facilitys() -> None:
    # The expiry scan's lease is in the group's administration store: a facility's scan
    # is given no fence (it holds no lease to check one against), the administration
    # store's own queues' scans theirs; the lease is asked with its token's listener.
    admin = _Fencing()
    router = Router(
        Placement(("CF01", "CF02")),
        {"CF01": _Fencing(), "CF02": _Fencing()},
        admin,
        {"DUP1": DUPLEX}.get,
    )
    router.define_structure("DUP1", size_kb=1024, cf_level=5)
    router.create_queue("Q.DUP1", Ordering.FIFO, "DUP1")
    router.create_queue("LOCAL", Ordering.FIFO)

    def listener(role: str, token: int) -> None:
        """Told of a new token (the server's lease only)."""

    grant = router.lease("EXPIRY", "QM1", 5.0, listener).acquire(0.0)
    assert admin.told == [listener] and isinstance(grant, Grant)
    for queue in ("Q.DUP1", "LOCAL"):
        router.put(queue, _msg(expiry=1.0), None, 10)
    assert len(router.scan("Q.DUP1", 2.0, Fence("EXPIRY", grant.token))) == 1
    with pytest.raises(StaleFenceError):
        router.scan("LOCAL", 2.0, Fence("EXPIRY", grant.token + 1))
    assert router.depth("LOCAL") == 1


def test_a_get_passes_its_time_length_and_truncation_to_both_instances() -> None:
    # MQGET discards the expired messages it passes (in both instances of a duplex);
    # MQRC_TRUNCATED_MSG_FAILED leaves a message too long where it is, and
    # MQGMO_ACCEPT_TRUNCATED_MSG takes it.
    router = _router(DUPLEX)
    router.put("Q.DUP1", _msg(b"old", expiry=1.0), None, 10)
    router.put("Q.DUP1", _msg(b"long message"), None, 10)
    refused = router.get("Q.DUP1", SELECT_ANY, 2.0, None, Syncpoint.NO, 4, False)
    assert refused.too_long and [m.body for m in refused.discarded] == [b"old"]
    assert _depths(router, "Q.DUP1")[:2] == [1, 1]
    taken = router.get("Q.DUP1", SELECT_ANY, 2.0, None, Syncpoint.NO, 4, True)
    assert taken.message is not None and not taken.too_long
    assert _depths(router, "Q.DUP1")[:2] == [0, 0]


def test_a_unit_of_works_get_in_a_lost_facility_cannot_commit() -> None:
    # MQRC_BACKED_OUT (2003): its get went with the facility, as a put would.
    router = _router(PLAIN, facilities=("CF01", "CF02"))
    router.put("Q.APP1", _msg(), None, 10)
    router.get("Q.APP1", SELECT_ANY, 0.0, "u1", Syncpoint.YES, None, False)
    router.lose("CF02", 1.0)
    with pytest.raises(MQMIError, match="coupling facility CF02 failed"):
        router.commit("u1")


def test_depth_at_least_counts_from_the_priority_asked() -> None:
    # Queue depth events and triggering count messages at or above a priority.
    router = _router(PLAIN)
    for priority in (0, 5):
        router.put(
            "Q.APP1", Message(MD(Priority=priority).get(), b"m", 0.0, None, priority), None, 10
        )
    assert router.depth_at_least("Q.APP1", 5, True) == 1


class _Token:
    """A lock holder as a handle is one: its connection's token names its member."""

    def __init__(self, token: str) -> None:
        self.store_token = token


def test_peer_recovery_of_a_later_life_runs_again_and_frees_the_failed_lives_work() -> None:
    # Peer recovery runs once a failed life; its units of work end there, so the next
    # life's units of the same name (queue manager, connection) start afresh even where
    # a facility took the old one's work; the locks it releases are counted in every
    # facility; who ran it is the administration store's answer.
    router = _router(PLAIN, CFStructure("APP2", preference=("CF01",)), facilities=("CF01", "CF02"))
    router.put("Q.APP1", _msg(), ("QM1", 1), 10)  # APP1 in CF02
    router.put("Q.APP2", _msg(), ("QM1", 1), 10)  # APP2 in CF01
    router.put("Q.APP2", _msg(), None, 10)
    router.put("Q.APP2", _msg(), ("QM2", 1), 10)  # another member's, in flight
    taken = router.browse("Q.APP2", None, SELECT_ANY, 0.0)
    assert taken.position is not None
    router.lock("Q.APP2", taken.position, _Token("QM1/1/a"))
    router.lose("CF02", 1.0)
    answer = router.recover("QM1", 1, "QM2")
    assert (answer.by, answer.ran, answer.units, answer.entries, answer.locks) == (
        "QM2",
        True,
        1,
        1,
        1,
    )
    router.put("Q.APP2", _msg(), ("QM1", 1), 10)  # the next life's first unit of work
    router.commit(("QM1", 1))
    router.commit(("QM2", 1))
    assert router.uncommitted("Q.APP2") == 0
    assert router.recover("QM1", 2, "QM3").ran
    router.lose("CF01", 2.0)
    router.restore("CF01", MemoryStore())  # a new store, which never saw the recovery
    again = router.recover("QM1", 2, "QM4")
    assert (again.by, again.ran) == ("QM3", False)


def test_a_deleted_queue_is_forgotten_by_the_duplex_copy() -> None:
    router = _router(DUPLEX, facilities=("CF01", "CF02"))
    router.create_queue("Q.GONE", Ordering.FIFO, "DUP1")
    router.delete_queue("Q.GONE")
    router.lose("CF02", 1.0)
    router.restore("CF02", MemoryStore())
    assert router.placement.secondary == {"DUP1": "CF02"}


def test_a_later_lifes_unit_of_work_is_not_lost_with_a_facility_the_failed_life_used() -> None:
    router = _two_structures(MemoryStore(), MemoryStore())
    router.put("Q.APP2", _msg(), ("QM1", 1), 10)  # the failed life's, in CF02
    router.recover("QM1", 1, "QM2")
    router.put("Q.APP1", _msg(), ("QM1", 1), 10)  # the next life's, in CF01 only
    router.lose("CF02", 1.0)
    router.commit(("QM1", 1))
    assert (router.depth("Q.APP1"), router.uncommitted("Q.APP1")) == (1, 0)


def test_a_unit_of_work_backed_out_leaves_nothing_for_its_next_one() -> None:
    # MQBACK ends the unit of work: the connection's next one (of the same name) has no
    # work in the facility the first one used, and loses nothing with it.
    router = _two_structures(MemoryStore(), MemoryStore())
    router.backout("never used")
    router.put("Q.APP2", _msg(), "u1", 10)  # in CF02
    router.backout("u1")
    router.put("Q.APP1", _msg(), "u1", 10)  # in CF01 only
    router.lose("CF02", 1.0)
    router.commit("u1")
    assert router.uncommitted("Q.APP1") == 0


def test_a_browse_reads_on_from_its_cursor_in_both_instances() -> None:
    # A browse after its cursor discards the expired messages it passes from there on,
    # in both instances of a duplex.
    router = _router(DUPLEX)
    router.put("Q.DUP1", _msg(b"a"), None, 10)
    router.put("Q.DUP1", _msg(b"b", expiry=1.0), None, 10)
    router.put("Q.DUP1", _msg(b"c"), None, 10)
    first = router.browse("Q.DUP1", None, SELECT_ANY, 2.0)
    assert first.message is not None and first.message.body == b"a"
    second = router.browse("Q.DUP1", first.position, SELECT_ANY, 2.0)
    assert second.message is not None and second.message.body == b"c"
    assert _depths(router, "Q.DUP1")[:2] == [2, 2]


def test_a_duplexed_structures_unit_of_work_is_lost_when_its_last_instance_goes() -> None:
    # MQRC_BACKED_OUT (2003): its work lived on in the survivor of the first loss, and
    # went with the second.
    router = _router(DUPLEX)
    router.put("Q.DUP1", _msg(), None, 10)
    router.get("Q.DUP1", SELECT_ANY, 0.0, "u1", Syncpoint.YES, None, False)
    router.put("Q.DUP1", _msg(), "u2", 10)
    router.put("Q.DUP1", _msg(), "u3", 10)
    router.backout("u3")  # in both instances
    assert [router.store_of(f).uncommitted("Q.DUP1") for f in ("CF01", "CF02")] == [2, 2]
    assert router.lose("CF01", 1.0) == [(Move("DUP1", KEPT, "CF02"), 0)]
    assert router.lose("CF02", 2.0) == [(Move("DUP1", REBUILT, "CF03"), 0)]
    for uow in ("u1", "u2"):
        with pytest.raises(MQMIError, match="coupling facility CF02 failed"):
            router.commit(uow)


def test_a_reconnect_fails_the_structure_at_its_time_and_keeps_other_duplexes() -> None:
    # RESET CFSTRUCT ACTION(FAIL) as the rebuild's first step: failed at the reconnect's
    # time; a duplexed structure the reconnect does not name stays duplexed.
    router = _router(PLAIN, DUPLEX, facilities=("CF01", "CF02", "CF03"))
    router.reconnect(["APP1"], {"CF02"}, 3.0)
    assert router.structure_status("APP1").failed_at == 3.0
    assert router.placement.secondary == {"DUP1": "CF02"}
    assert router.fail_structure("DUP1", 4.0) == 0
    assert router.structure_status("DUP1").failed_at == 4.0


def test_a_unit_of_work_lost_with_a_facility_is_refused_whatever_its_other_facilities_say() -> None:
    # MQRC_BACKED_OUT (2003): the facility took part of its work; the other facilities,
    # which lost nothing, do not make it committable.
    router = _router(
        *(CFStructure(f"APP{n}", preference=(f"CF0{n}",)) for n in (1, 2, 3)),
    )
    for n in (1, 2, 3):
        router.put(f"Q.APP{n}", _msg(), "u1", 10)
    router.lose("CF02", 1.0)
    with pytest.raises(MQMIError, match="coupling facility CF02 failed"):
        router.commit("u1")
    assert (router.depth("Q.APP1"), router.depth("Q.APP3")) == (0, 0)


def test_a_unit_of_work_committed_leaves_nothing_for_its_next_one() -> None:
    router = _two_structures(MemoryStore(), MemoryStore())
    router.commit("never used")
    router.put("Q.APP2", _msg(), "u1", 10)  # in CF02
    router.commit("u1")
    router.put("Q.APP1", _msg(), "u1", 10)  # in CF01 only
    router.lose("CF02", 1.0)
    router.commit("u1")
    assert router.uncommitted("Q.APP1") == 0


def test_a_purging_recovery_empties_both_instances() -> None:
    # RECOVER CFSTRUCT TYPE(PURGE): the structure comes back empty, in both instances.
    router = _router(DUPLEX)
    router.put("Q.DUP1", _msg(), None, 10)
    router.backup_structure("DUP1", 0.0, 0.0)
    router.fail_structure("DUP1", 1.0)
    assert router.recover_structure("DUP1", True) == (0, 0, 0)
    assert _depths(router, "Q.DUP1")[:2] == [0, 0]


def test_a_structure_failed_before_its_facility_goes_is_rebuilt_having_lost_nothing_more() -> None:
    router = _router(PLAIN, facilities=("CF01", "CF02"))
    router.put("Q.APP1", _msg(persistent=False), None, 10)
    assert router.fail_structure("APP1", 1.0) == 1
    assert router.lose("CF02", 2.0) == [(Move("APP1", REBUILT, "CF01"), 0)]


def test_a_structure_with_no_facility_left_stays_failed_for_a_member_reconnecting() -> None:
    # CFCONLOS(TOLERATE) for a structure that has no facility left: it has failed, and a
    # member's reconnect finds it so (no rebuild, nothing more lost).
    router = _router(CFStructure("ONLY2", preference=("CF02",)))
    router.lose("CF02", 1.0)
    assert router.reconnect(["ONLY2"], {"CF01"}, 2.0) == [(Move("ONLY2", FAILED), 0)]
    assert router.admin.structure_status("ONLY2").failed_at == 1.0


def test_a_facilitys_loss_marks_every_unit_of_work_it_took_work_from() -> None:
    router = _two_structures(MemoryStore(), MemoryStore())
    router.put("Q.APP1", _msg(), "u0", 10)  # CF01 only
    router.put("Q.APP2", _msg(), "u1", 10)  # CF02
    router.lose("CF02", 1.0)
    router.commit("u0")
    with pytest.raises(MQMIError, match="coupling facility CF02 failed"):
        router.commit("u1")


def test_a_facilitys_loss_leaves_the_duplexes_it_did_not_hold_duplexed() -> None:
    # A duplexed structure with no instance in the lost facility keeps both, even with
    # a unit of work's work on it (no copy to take again).
    router = _router(DUPLEX, CFStructure("APP3", preference=("CF03",)))
    router.put("Q.DUP1", _msg(), "u1", 10)
    router.lose("CF03", 1.0)
    assert router.placement.secondary == {"DUP1": "CF02"}
    router.put("Q.DUP1", _msg(), None, 10)
    assert _depths(router, "Q.DUP1")[:2] == [2, 2]


def test_a_member_that_cannot_reach_a_structures_only_facility_leaves_it_to_the_others() -> None:
    # CFCONLOS(TOLERATE) with no other facility to rebuild into: the member gets
    # MQRC_CF_NOT_AVAILABLE (2345) on it, and the structure goes on for every other
    # member, not failed, nothing lost.
    router = _router(CFStructure("ONLY2", preference=("CF02",)))
    router.put("Q.ONLY2", _msg(persistent=False), None, 10)
    assert router.reconnect(["ONLY2"], {"CF02"}, 1.0) == [(Move("ONLY2", FAILED), 0)]
    assert router.structure_status("ONLY2").failed_at is None
    assert router.depth("Q.ONLY2") == 1


def test_a_pending_copy_is_dropped_when_its_facility_goes_or_holds_the_structure() -> None:
    # A second instance not yet copied is no instance: its facility lost, or the
    # structure rebuilt into it, there is nothing to copy (no duplex in a facility that
    # is gone, nor with itself).
    router = _router(DUPLEX, facilities=("CF01", "CF02"))
    router.lose("CF02", 1.0)
    router.put("Q.DUP1", _msg(), "u1", 10)
    router.restore("CF02", MemoryStore())  # the copy waits for u1
    router.lose("CF02", 2.0)
    router.commit("u1")
    assert router.placement.secondary == {}
    router = _router(DUPLEX, facilities=("CF01", "CF02"))
    router.lose("CF02", 1.0)
    router.put("Q.DUP1", _msg(), "u2", 10)
    router.restore("CF02", MemoryStore())  # the copy waits for u2
    assert router.lose("CF01", 2.0) == [(Move("DUP1", REBUILT, "CF02"), 0)]
    router.recover_structure("DUP1", False)
    assert router.placement.secondary == {}


def test_pending_copies_are_each_decided_on_their_own() -> None:
    # One copy waiting for a unit of work, or dropped, leaves the next (by name) to be
    # taken at once.
    router = _router(
        CFStructure("DUPA", duplex=True, preference=("CF01", "CF02")),
        CFStructure("DUPB", duplex=True, preference=("CF03", "CF02", "CF01")),
    )
    router.lose("CF02", 1.0)
    assert router.placement.secondary == {"DUPB": "CF01"}
    router.put("Q.DUPA", _msg(), "u1", 10)
    router.restore("CF02", MemoryStore())  # DUPA's copy waits for u1
    # DUPA rebuilt into CF02 (its pending copy dropped), DUPB copied into CF02 at once.
    router.lose("CF01", 2.0)
    assert router.placement.secondary == {"DUPB": "CF02"}
    router = _router(DUPLEX, CFStructure("DUP2", duplex=True), facilities=("CF01", "CF02"))
    router.lose("CF02", 1.0)
    router.put("Q.DUP1", _msg(), "u1", 10)
    router.restore("CF02", MemoryStore())  # DUP1's copy waits for u1, DUP2's is taken
    assert router.placement.secondary == {"DUP2": "CF02"}


def test_redefining_a_structure_copies_only_a_new_second_instance() -> None:
    # DEFINE CFSTRUCT ... REPLACE: a structure made DUPLEX(ENABLED) gets a second
    # instance, a copy of the first; one already duplexed keeps its own, even with a
    # unit of work's work on it; the offload rules are each facility's.
    definitions = {"APP1": CFStructure("APP1")}
    router = Router(
        Placement(("CF01", "CF02")),
        {"CF01": MemoryStore(), "CF02": MemoryStore()},
        MemoryStore(),
        definitions.get,
    )
    router.define_structure("APP1", size_kb=1024, cf_level=5)
    router.create_queue("Q", Ordering.FIFO, "APP1")
    router.put("Q", _msg(), None, 10)
    definitions["APP1"] = CFStructure("APP1", duplex=True)
    router.define_structure("APP1", size_kb=1024, cf_level=5, offload=((0, 100),))
    assert router.placement.secondary == {"APP1": "CF02"} and _depths(router, "Q")[:2] == [1, 1]
    router.put("Q", _msg(b"m" * 200), "u1", 10)
    assert (router.store_of("CF01").smds_writes, router.store_of("CF02").smds_writes) == (1, 1)
    router.define_structure("APP1", size_kb=1024, cf_level=5, offload=((0, 100),))
    assert router.placement.secondary == {"APP1": "CF02"}


def test_a_structure_without_a_definition_is_allocated_by_the_groups_facilities() -> None:
    # A structure the group has no CFSTRUCT for yet (its first use): the facilities in
    # the order named, no duplex.
    router = Router(
        Placement(("CF01", "CF02")), {"CF01": MemoryStore(), "CF02": MemoryStore()}, MemoryStore()
    )
    router.define_structure("S1", size_kb=1024, cf_level=5)
    assert (router.placement.primary, router.placement.secondary) == ({"S1": "CF01"}, {})


def test_a_queue_on_no_structure_stays_in_the_administration_store_whatever_is_defined() -> None:
    router = _router(CFStructure("XXXX", preference=("CF02",)))
    router.create_queue("LOCAL", Ordering.FIFO)
    router.put("LOCAL", _msg(), None, 10)
    assert _depths(router, "LOCAL") == [None, None, None, 1]
