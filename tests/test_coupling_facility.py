"""The coupling facility on a real Redis-protocol server: members sharing queues, peer
recovery, CF structure limits, connection loss (issue 5; docs/mq-rules.md).

Each member here has its own ``RedisStore`` and its own connection, over one QSG
namespace on the server, as members in separate processes would.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from coupling import keys, scripts
from coupling.cleanup import delete_group
from coupling.server import EmbeddedServer, url_options
from coupling.store import RedisStore
from coupling.transport import Arg, BlockingTransport, CFConnectionError
from qsg import CMQC, GMO, MD, MQMIError, QMgr
from qsg.core.geometry import MAX_SIZE_KB
from qsg.core.objects import CFStructure
from qsg.core.sharing import QueueSharingGroup
from qsg.core.store import Ordering
from tests.claims import keeps
from tests.helpers import ALL, drain, get, put

SHARED = {"qsg_disp": CMQC.MQQSGD_SHARED, "cf_struct": "APP1"}


@pytest.fixture
def members(cf_url: str, redis_store: Callable[[], RedisStore]) -> Iterator[Callable[..., QMgr]]:
    """Makes members of one QSG, each with its own connection to the facility; every
    member defines CF structure APP1 (size and level as asked) and shared queue Q."""
    namespace = redis_store().qsg  # a fresh namespace, cleaned up afterwards
    transports: list[BlockingTransport] = []

    def member(name: str, size_kb: int = 1024, cf_level: int = 5, **rules: int) -> QMgr:
        transport = BlockingTransport(cf_url)
        transports.append(transport)
        group = QueueSharingGroup("QSG1", store=RedisStore(transport, namespace))
        qm = QMgr(name, qsg=group)
        qm.define_structure(CFStructure("APP1", size_kb=size_kb, cf_level=cf_level, **rules))
        qm.define_queue("Q", max_depth=100_000, **SHARED)
        return qm

    yield member
    for transport in transports:
        transport.close()


def store_of(qm: QMgr) -> RedisStore:
    assert qm.qsg is not None
    store = qm.qsg.shared.store
    assert isinstance(store, RedisStore)
    return store


# ---- sharing -------------------------------------------------------------------------
@keeps(
    "docs/mq-rules.md",
    (
        "Every member sees the same shared queue; an uncommitted put is invisible to the others "
        "until commit."
    ),
)
def test_every_member_sees_the_same_shared_queue(members: Callable[..., QMgr]) -> None:
    qm1, qm2 = members("QM1"), members("QM2")
    h1 = qm1.connect().open("Q", ALL)
    h2 = qm2.connect().open("Q", ALL)
    put(h1, b"from QM1", 0.0)
    put(h2, b"from QM2", 0.0)
    assert qm1.depth("Q") == qm2.depth("Q") == 2
    assert drain(h2, 0.0) == [b"from QM1", b"from QM2"]
    assert qm1.depth("Q") == 0


@keeps(
    "docs/coupling-facility.md",
    "uncommitted puts are invisible to every member (CURDEPTH counts them, as MQ does)",
)
@keeps(
    "docs/mq-rules.md",
    (
        "Every member sees the same shared queue; an uncommitted put is invisible to the others "
        "until commit."
    ),
)
def test_an_uncommitted_put_is_invisible_to_other_members_until_commit(
    members: Callable[..., QMgr],
) -> None:
    qm1, qm2 = members("QM1"), members("QM2")
    conn = qm1.connect()
    put(conn.open("Q", ALL), b"pending", 0.0, CMQC.MQPMO_SYNCPOINT)
    h2 = qm2.connect().open("Q", ALL)
    assert drain(h2, 0.0) == []
    assert qm2.depth("Q") == 1  # CURDEPTH counts it, as MQ does
    conn.commit()
    assert drain(h2, 0.0) == [b"pending"]


@keeps("docs/speed.md", "a get outside syncpoint names no unit of work to the GET script")
def test_a_get_outside_syncpoint_is_no_part_of_the_unit_of_work_so_its_script_names_none(
    members: Callable[..., QMgr],
) -> None:
    """MQGMO_NO_SYNCPOINT: "The request is to operate outside the normal unit-of-work
    protocols", even on a connection with a unit of work in flight: the GET script is
    handed no unit of work (the queue's prefix its only key, an empty token: fewer
    strings for the server to make), and a backout leaves the message got."""
    qm1 = members("QM1")
    conn = qm1.connect()
    h = conn.open("Q", ALL)
    put(h, b"outside", 0.0)
    put(h, b"inside", 0.0, CMQC.MQPMO_SYNCPOINT)  # the unit of work in flight
    store = store_of(qm1)
    run = store.transport.run
    calls: list[tuple[list[str], list[Arg]]] = []

    def recording(script: scripts.Script, keys: Sequence[str], args: Sequence[Arg]) -> Any:
        if script is scripts.GET:
            calls.append((list(keys), list(args)))
        return run(script, keys, args)

    store.transport.run = recording  # type: ignore[method-assign]
    try:
        assert get(h, 0.0)[0] == b"outside"
    finally:
        store.transport.run = run  # type: ignore[method-assign]
    [(names, args)] = calls
    assert names == [store._prefix("Q")]
    assert args[1] == ""  # ARGV[2]: no unit-of-work token
    conn.backout()
    assert qm1.depth("Q") == 0  # the get stays done; the put in syncpoint is backed out


# ---- peer recovery -------------------------------------------------------------------
def _fail_with_work_in_flight(qm1: QMgr) -> None:
    """QM1 commits two messages, then, in one unit of work, gets one and puts another,
    and fails before it ends the unit of work."""
    conn = qm1.connect()
    h = conn.open("Q", ALL)
    put(h, b"committed 1", 0.0)
    put(h, b"committed 2", 0.0)
    assert get(h, 0.0, CMQC.MQGMO_SYNCPOINT)[0] == b"committed 1"
    put(h, b"in flight", 0.0, CMQC.MQPMO_SYNCPOINT)
    # QM1 fails here: nothing of it runs again in this life.


@keeps(
    "docs/coupling-facility.md",
    "it backs out the failed member's in-flight units of work (gets come back with BackoutCount "
    "raised, puts vanish)",
)
@keeps(
    "docs/mq-rules.md",
    (
        "Peer recovery: a surviving member backs out a failed member's units of work (exactly one "
        "succeeds); a restarted member recovers its own if no peer did."
    ),
)
def test_a_surviving_member_backs_out_a_failed_members_units_of_work(
    members: Callable[..., QMgr],
) -> None:
    # "Surviving connected queue managers all attempt to initiate peer recovery ...
    # only one ... initiates successfully" (IBM, "Peer recovery").
    qm1, qm2, qm3 = members("QM1"), members("QM2"), members("QM3")
    _fail_with_work_in_flight(qm1)
    assert store_of(qm2).in_flight("QM1") == 1
    first = store_of(qm2).recover("QM1", qm1.incarnation, by="QM2")
    second = store_of(qm3).recover("QM1", qm1.incarnation, by="QM3")
    assert first.ran and (first.units, first.entries) == (1, 2)
    assert not second.ran and second.by == "QM2"  # exactly one member ran it
    assert store_of(qm3).in_flight("QM1") == 0
    h3 = qm3.connect().open("Q", ALL)
    md = MD()
    assert get(h3, 0.0, md=md)[0] == b"committed 1"
    assert md.BackoutCount == 1  # the get came back, its BackoutCount raised
    assert drain(h3, 0.0) == [b"committed 2"]  # the put vanished; nothing lost or doubled


@keeps("docs/coupling-facility.md", "A restarted member calls it for itself")
@keeps(
    "docs/mq-rules.md",
    (
        "Peer recovery: a surviving member backs out a failed member's units of work (exactly one "
        "succeeds); a restarted member recovers its own if no peer did."
    ),
)
def test_a_restarted_member_recovers_its_own_units_of_work_if_no_peer_did(
    members: Callable[..., QMgr],
) -> None:
    # "With no peers connected, recovery happens ... when the failed one restarts."
    qm1 = members("QM1")
    _fail_with_work_in_flight(qm1)
    again = members("QM1")  # the same queue manager, started again
    recovery = store_of(again).recover("QM1", qm1.incarnation, by="QM1")
    assert recovery.ran and recovery.units == 1
    h = again.connect().open("Q", ALL)
    assert drain(h, 0.0) == [b"committed 1", b"committed 2"]


@keeps(
    "docs/coupling-facility.md",
    "A restarted member calls it for itself and finds nothing left if a peer was first.",
)
def test_a_restarted_member_finds_nothing_left_when_a_peer_recovered_it(
    members: Callable[..., QMgr],
) -> None:
    qm1, qm2 = members("QM1"), members("QM2")
    _fail_with_work_in_flight(qm1)
    assert store_of(qm2).recover("QM1", qm1.incarnation, by="QM2").ran
    again = members("QM1")
    assert store_of(again).recover("QM1", qm1.incarnation, by="QM1").by == "QM2"
    assert drain(again.connect().open("Q", ALL), 0.0) == [b"committed 1", b"committed 2"]


@keeps("docs/coupling-facility.md", "and releases its browse locks")
def test_peer_recovery_releases_the_failed_members_browse_locks(
    members: Callable[..., QMgr],
) -> None:
    qm1, qm2 = members("QM1"), members("QM2")
    h1 = qm1.connect().open("Q", ALL)
    put(h1, b"locked", 0.0)
    get(h1, 0.0, CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_LOCK)
    h2 = qm2.connect().open("Q", ALL)
    assert drain(h2, 0.0) == []  # hidden by QM1's lock
    assert store_of(qm2).recover("QM1", qm1.incarnation, by="QM2").locks == 1
    assert drain(h2, 0.0) == [b"locked"]


def test_another_members_unit_of_work_is_untouched_by_peer_recovery(
    members: Callable[..., QMgr],
) -> None:
    qm1, qm2 = members("QM1"), members("QM2")
    conn2 = qm2.connect()
    put(conn2.open("Q", ALL), b"QM2's", 0.0, CMQC.MQPMO_SYNCPOINT)
    _fail_with_work_in_flight(qm1)
    store_of(qm2).recover("QM1", qm1.incarnation, by="QM2")
    conn2.commit()
    # Arrival order, not commit order: QM2's put came first.
    assert drain(qm2.connect().open("Q", ALL), 0.0) == [b"QM2's", b"committed 1", b"committed 2"]


# ---- CF structure limits -------------------------------------------------------------
@keeps(
    "docs/coupling-facility.md",
    "When either runs out, any put to any queue of the structure gets MQRC_STORAGE_MEDIUM_FULL "
    "naming the structure",
)
@keeps(
    "docs/mq-rules.md",
    "A full structure gives MQRC_STORAGE_MEDIUM_FULL, whichever queue filled it.",
)
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_STORAGE_MEDIUM_FULL (z/OS: MQRC_PAGESET_FULL) | a put to a shared queue whose CF "
        "structure has all its entries or elements in use"
    ),
)
def test_a_full_structure_gives_storage_medium_full_naming_it_whichever_queue_filled_it(
    members: Callable[..., QMgr],
) -> None:
    # 2192: "A coupling-facility structure is full ... if either all ENTRYs or all
    # ELEMENTs are in use"; "the failing call's queue need not be the one that filled it".
    # 8 entries, 32 elements; no offload rules (OFFLD3SZ(0K) would offload the 7th
    # message, put at 94% full, and it would fit: tests/test_offload_rules.py)
    qm = members("QM1", size_kb=8, offload_size3=64)
    qm.define_queue("OTHER", **SHARED)
    h = qm.connect().open("Q", ALL)
    for _ in range(6):  # a 1 KB message takes one entry and five elements
        put(h, b"x" * 1024, 0.0)
    other = qm.connect().open("OTHER", ALL)
    with pytest.raises(MQMIError) as full:
        put(other, b"y" * 1024, 0.0)
    assert full.value.reason == CMQC.MQRC_STORAGE_MEDIUM_FULL
    assert "APP1" in str(full.value) and "OTHER" in str(full.value)
    assert qm.depth("OTHER") == 0  # the refused put left nothing behind
    get(h, 0.0)
    put(other, b"y" * 1024, 0.0)  # room again once a message is gone


@keeps(
    "docs/coupling-facility.md",
    "so at CFLEVEL(5) with IBM's default OFFLD3SZ(0K) a structure of small messages runs out of "
    "entries first",
)
def test_small_messages_run_out_of_entries_before_elements(
    members: Callable[..., QMgr],
) -> None:
    qm = members("QM1", size_kb=4)  # 4 entries, 16 elements
    h = qm.connect().open("Q", ALL)
    for _ in range(4):
        put(h, b"s", 0.0)
    with pytest.raises(MQMIError) as full:
        put(h, b"s", 0.0)
    assert full.value.reason == CMQC.MQRC_STORAGE_MEDIUM_FULL
    usage = store_of(qm).structure_usage("APP1")
    assert usage["entries"] == 4 and usage["elements"] < usage["max_elements"]


@keeps("docs/coupling-facility.md", "the put that takes the last entry or element succeeds")
@keeps(
    "docs/speed.md",
    "the put that takes a structure's last element succeeds and the next is refused "
    "(`MQRC_STORAGE_MEDIUM_FULL`)",
)
def test_a_structure_takes_messages_until_its_last_element_and_not_one_more(
    members: Callable[..., QMgr],
) -> None:
    # 2192: full "if either all ENTRYs or all ELEMENTs are in use": the put that uses the
    # last element succeeds, the next one is refused (the usage counter is exact).
    qm = members("QM1", size_kb=4)  # 4 entries, 16 elements of 256 bytes
    h = qm.connect().open("Q", ALL)
    put(h, b"x" * 256 * 14, 0.0)  # 3.5 KB and its descriptor: 15 elements
    assert store_of(qm).structure_usage("APP1")["elements"] == 15
    put(h, b"s", 0.0)  # the 16th element, the second of 4 entries
    with pytest.raises(MQMIError) as full:
        put(h, b"s", 0.0)
    assert full.value.reason == CMQC.MQRC_STORAGE_MEDIUM_FULL
    usage = store_of(qm).structure_usage("APP1")
    assert (usage["entries"], usage["elements"]) == (2, 16)
    get(h, 0.0)  # the 15 elements come back: room again
    put(h, b"s", 0.0)
    usage = store_of(qm).structure_usage("APP1")
    assert (usage["entries"], usage["elements"]) == (2, 2)


@keeps(
    "docs/speed.md",
    "a structure of the largest SIZE with its counter set just below the top takes its "
    "last 1 KB message exactly",
)
def test_the_largest_structure_counts_its_last_entry_and_element_exactly(
    members: Callable[..., QMgr],
) -> None:
    # The usage counter (entries x 10^10 + elements, one 64-bit integer) near its top:
    # a structure of the largest SIZE with all but one entry and five elements in use
    # (set directly: nobody puts 900 million messages in a test) takes a 1 KB message
    # (one entry, five elements) and refuses the next; a get gives them back. No offload
    # rules: OFFLD3SZ(0K) would offload the message at 99% full and it would take one.
    qm = members("QM1", size_kb=MAX_SIZE_KB, offload_size3=64)
    store = store_of(qm)
    top = MAX_SIZE_KB * scripts.USAGE_BASE + 4 * MAX_SIZE_KB
    store.transport.command(
        "HSET", keys.structure_key(store.qsg, "APP1"), "use", top - scripts.USAGE_BASE - 5
    )
    h = qm.connect().open("Q", ALL)
    put(h, b"x" * 1024, 0.0)
    usage = store.structure_usage("APP1")
    assert (usage["entries"], usage["elements"]) == (MAX_SIZE_KB, 4 * MAX_SIZE_KB)
    with pytest.raises(MQMIError) as full:
        put(h, b"s", 0.0)
    assert full.value.reason == CMQC.MQRC_STORAGE_MEDIUM_FULL
    get(h, 0.0)
    usage = store.structure_usage("APP1")
    assert (usage["entries"], usage["elements"]) == (MAX_SIZE_KB - 1, 4 * MAX_SIZE_KB - 5)


def test_the_largest_structure_99_percent_full_offloads_by_rule_into_the_offload_hash(
    members: Callable[..., QMgr],
) -> None:
    # "OFFLD3TH(90) OFFLD3SZ(0K)" (IBM's defaults, DEFINE CFSTRUCT): once the structure is
    # 90% full every message is offloaded and keeps only its control information. The
    # per cent full is read from the one usage counter split at its tenth digit, so a
    # structure of the largest SIZE, 99% full in entries, still decides exactly; the data
    # goes where any offloaded body goes (the f hash, flagged in the record's head).
    qm = members("QM1", size_kb=MAX_SIZE_KB)
    store = store_of(qm)
    entries = MAX_SIZE_KB * 99 // 100
    key = keys.structure_key(store.qsg, "APP1")
    store.transport.command("HSET", key, "use", entries * scripts.USAGE_BASE + entries)
    h = qm.connect().open("Q", ALL)
    data = b"d" * 20 * 1024  # 80 elements if it stayed in the structure
    put(h, data, 0.0)
    usage = store.structure_usage("APP1")
    assert usage["entries"] == entries + 1 and usage["elements"] - entries <= 2
    prefix = keys.queue_prefix(store.qsg, "APP1", "Q")
    (field,) = store.transport.command("HKEYS", prefix + "f")
    assert store.transport.command("HGET", prefix + "f", field) == data
    assert store.transport.command("HGET", prefix + "m", field).startswith(b"#")
    assert get(h, 0.0)[0] == data
    usage = store.structure_usage("APP1")
    assert (usage["entries"], usage["elements"]) == (entries, entries)
    assert store.transport.command("HLEN", prefix + "f") == 0


@keeps(
    "docs/coupling-facility.md",
    "A message over 63 KB needs CFLEVEL(4) or more (else MQRC_WRONG_CF_LEVEL)",
)
@keeps(
    "docs/mq-rules.md",
    "Messages over 63 KB need CFLEVEL(4) (else MQRC_WRONG_CF_LEVEL) and are offloaded.",
)
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_WRONG_CF_LEVEL | a message over 63 KB to a shared queue whose CF structure is below "
        "CFLEVEL(4)"
    ),
)
def test_messages_over_63_kb_need_cflevel_4(members: Callable[..., QMgr]) -> None:
    # "Putting a message over 63 KB to a queue whose structure is below CFLEVEL 4 fails
    # with MQRC_WRONG_CF_LEVEL 2366."
    qm = members("QM1", cf_level=3)
    h = qm.connect().open("Q", ALL)
    put(h, b"x" * 63 * 1024, 0.0)  # 63 KB exactly still fits a CF entry
    with pytest.raises(MQMIError) as wrong:
        put(h, b"x" * (63 * 1024 + 1), 0.0)
    assert wrong.value.reason == CMQC.MQRC_WRONG_CF_LEVEL
    assert qm.depth("Q") == 1


@keeps(
    "docs/coupling-facility.md",
    "and is offloaded: only its control information counts against the structure.",
)
@keeps(
    "docs/mq-rules.md",
    "Messages over 63 KB need CFLEVEL(4) (else MQRC_WRONG_CF_LEVEL) and are offloaded.",
)
def test_a_message_over_63_kb_is_offloaded_and_comes_back_whole(
    members: Callable[..., QMgr],
) -> None:
    # "For messages larger than the coupling facility entry size of 63 KB", the CF entry
    # "holds only control information and references".
    qm = members("QM1", cf_level=5)
    h = qm.connect().open("Q", ALL)
    big = bytes(range(256)) * 1024  # 256 KB
    put(h, big, 0.0)
    usage = store_of(qm).structure_usage("APP1")
    assert usage["entries"] == 1 and usage["elements"] <= 2  # control information only
    assert get(h, 0.0)[0] == big
    assert store_of(qm).structure_usage("APP1")["elements"] == 0


def test_messages_a_scan_discards_give_their_structure_space_back(
    members: Callable[..., QMgr],
) -> None:
    qm = members("QM1")
    h = qm.connect().open("Q", ALL)
    for _ in range(100):
        put(h, b"x" * 700, 0.0)
    before = store_of(qm).structure_usage("APP1")
    for _ in range(300):  # more than one batch of the scan script's index walk
        put(h, b"x" * 700, 0.0, Expiry=10)
    assert qm.scan_expired(5.0, shared=True) == 300
    assert store_of(qm).structure_usage("APP1") == before
    assert len(drain(h, 5.0)) == 100
    assert store_of(qm).structure_usage("APP1")["entries"] == 0


# ---- connection loss -----------------------------------------------------------------
@keeps(
    "docs/coupling-facility.md",
    "Committed messages are on the server (with `EmbeddedServer(persistent=True)`, in its "
    "append-only file across a restart).",
)
@keeps(
    "docs/mq-rules.md",
    (
        "Losing the facility is MQRC_CF_STRUC_FAILED at the API; committed messages survive; a "
        "unit of work in flight is backed out. Only RECOVER(YES) structures keep persistent "
        "messages through a failure."
    ),
)
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_CF_STRUC_FAILED | a call on shared queues while the coupling facility is unreachable "
        "or failed"
    ),
)
def test_losing_the_facility_gives_cf_struc_failed_and_loses_nothing_committed() -> None:
    server = EmbeddedServer(persistent=True)
    server.start()
    try:
        group = QueueSharingGroup("QSG1", store=RedisStore(BlockingTransport(server.url), "L"))
        qm = QMgr("QM1", qsg=group)
        qm.define_structure(CFStructure("APP1"))
        qm.define_queue("Q", **SHARED)
        h = qm.connect().open("Q", ALL)
        for n in range(3):
            put(h, b"kept %d" % n, 0.0)
        server.kill()
        with pytest.raises(MQMIError) as lost:
            put(h, b"during the outage", 0.0)
        assert lost.value.reason == CMQC.MQRC_CF_STRUC_FAILED
        assert "APP1" in str(lost.value)
        with pytest.raises(MQMIError) as lost:
            h.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0)
        assert lost.value.reason == CMQC.MQRC_CF_STRUC_FAILED
        server.start()  # the facility comes back, from its append-only file
        assert drain(h, 0.0) == [b"kept 0", b"kept 1", b"kept 2"]
    finally:
        server.stop()


class _RecoveredMeanwhile(BlockingTransport):
    """A member's link on which, after the facility lost everything, a script's "no such
    queue" is followed by the facility's recovery before the store's next question, as
    the watch's recovery may run while a call through the trio transport waits."""

    def __init__(self, url: str, recover: Callable[[], None]) -> None:
        super().__init__(url)
        self.recover: Callable[[], None] | None = recover

    def command(self, *args: Arg) -> Any:
        if self.recover is not None:
            recover, self.recover = self.recover, None
            recover()
        return super().command(*args)


def test_a_call_that_meets_a_structure_lost_and_recovered_meanwhile_gets_2373_not_keyerror(
    cf_url: str, cf_transport: BlockingTransport, redis_store: Callable[[], RedisStore]
) -> None:
    # CI, stop 52: the IGQ agent's get met SYSTEM.QSG.TRANSMIT.QUEUE gone, the structure
    # was recovered, and the store took the queue for deleted: the run ended on KeyError.
    namespace = redis_store().qsg
    admin = RedisStore(cf_transport, namespace)
    admin.define_structure("APP1", size_kb=1024, cf_level=5)
    admin.create_queue("Q", Ordering.FIFO, "APP1")

    def recover() -> None:
        admin.define_structure("APP1", size_kb=1024, cf_level=5)
        admin.create_queue("Q", Ordering.FIFO, "APP1")

    transport = _RecoveredMeanwhile(cf_url, recover)
    member = RedisStore(transport, namespace)
    member.create_queue("Q", Ordering.FIFO, "APP1")
    delete_group(cf_transport, namespace)  # the server restarted without its data
    try:
        with pytest.raises(MQMIError) as met:
            member.depth_at_least("Q", 0, committed_only=True)
        assert met.value.reason == CMQC.MQRC_CF_STRUC_FAILED
        assert member.depth_at_least("Q", 0, committed_only=True) == 0  # in use again
    finally:
        transport.close()


@keeps("docs/coupling-facility.md", "the next call connects again.")
def test_a_link_broken_between_calls_is_made_again_by_the_next_call(
    members: Callable[..., QMgr], cf_transport: BlockingTransport
) -> None:
    qm = members("QM1")
    h = qm.connect().open("Q", ALL)
    put(h, b"before", 0.0)
    killed = cf_transport.command("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes")
    assert killed >= 1  # the member's link is gone
    put(h, b"after", 0.0)  # nothing was in flight: the next call connects again
    assert drain(h, 0.0) == [b"before", b"after"]


def test_a_wrong_password_in_the_url_is_refused() -> None:
    server = EmbeddedServer()
    server.start()
    try:
        wrong = BlockingTransport(server.url.replace(server.password, "wrong"))
        with pytest.raises(CFConnectionError, match="invalid username-password"):
            wrong.command("PING")
        assert BlockingTransport(server.url).command("PING")
    finally:
        server.stop()


@pytest.mark.parametrize("url", ["bogus://qsg:s3cret@host:6379/0", "localhost:6379", "http://x/"])
@keeps(
    "docs/security.md",
    (
        "qsg never echoes the URL: errors name the server as `host:port` or the socket's path, "
        "never the password."
    ),
)
def test_a_url_that_names_no_server_is_refused_naming_the_schemes_not_the_password(
    url: str,
) -> None:
    # QSG_REDIS_URL accepts redis://, rediss:// and unix:// with credentials (issue 5).
    for connect in (url_options, BlockingTransport):
        with pytest.raises(ValueError, match=r"redis://.*rediss://.*unix://") as refused:
            connect(url)
        assert "s3cret" not in str(refused.value)


@keeps(
    "docs/coupling-facility.md",
    "`redis://user:password@host:6379/0`, `rediss://...` for TLS, or "
    "`unix://user:password@/path/to.sock?db=0`.",
)
def test_the_three_url_schemes_name_a_server() -> None:
    assert url_options("redis://qsg:pw@127.0.0.1:6380/2")["port"] == 6380
    assert url_options("rediss://qsg:pw@cf.example:6380/0")["host"] == "cf.example"
    assert url_options("unix://qsg:pw@/tmp/cf.sock?db=0")["path"] == "/tmp/cf.sock"


# ---- what a scan hands back ------------------------------------------------------------
@keeps(
    "docs/coupling-facility.md",
    "A scan hands back each discarded message as `qsg.core.store.Expired(msg_id, message)`: "
    "the whole message only when its Report asks for an expiration report, otherwise its "
    "MsgId alone",
)
def test_a_scan_hands_back_the_whole_message_only_when_it_owes_an_expiration_report(
    each_store: str,
) -> None:
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1"))
    qm.define_structure(CFStructure("APP1"))
    qm.define_queue("Q", **SHARED)
    h = qm.connect().open("Q", ALL)
    owed = put(h, b"report me", 0.0, Expiry=10, Report=CMQC.MQRO_EXPIRATION, ReplyToQ=b"R")
    quiet = put(h, b"quietly", 0.0, Expiry=10)
    assert qm.qsg is not None
    gone = {e.msg_id: e.message for e in qm.qsg.shared.store.scan("Q", 5.0)}
    assert gone.keys() == {owed.MsgId, quiet.MsgId}
    whole = gone[owed.MsgId]
    assert whole is not None and whole.body == b"report me"
    assert gone[quiet.MsgId] is None


# ---- a server qsg did not start ----------------------------------------------------------
@keeps(
    "docs/coupling-facility.md",
    "It touches only its own keys, all under `qsg:{QSGNAME}:`. A run empties its groups' "
    "keys first with SCAN (a batch per call; never KEYS, which blocks a server while it "
    "walks every key) and UNLINK.",
)
@keeps("docs/coupling-facility.md", "A run empties its QSGs' keys (`qsg:{QSGNAME}:*`) first.")
@keeps(
    "docs/world.md",
    "a run starts with its QSGs' keys in the facility emptied",
)
def test_a_run_empties_its_groups_keys_first_and_touches_no_other_key(
    cf_url: str, cf_transport: BlockingTransport
) -> None:
    import qsg
    from coupling.cleanup import SCAN_COUNT
    from tests.worlds import qsg_and_qm3

    # More keys of the group than one SCAN call looks at, one of a group the run does not
    # play (QSG10, whose prefix QSG1's would match without the braces), and someone else's.
    left = [keys.group_prefix("QSG1") + f"left-over:{n}" for n in range(SCAN_COUNT + 5)]
    others = [keys.group_prefix("QSG10") + "theirs", "someone:else:key"]
    for key in left + others:
        cf_transport.command("SET", key, "x")

    async def main() -> None:
        async with qsg.start(qsg_and_qm3(), redis_url=cf_url):
            pass

    try:
        qsg.run(main)
        assert [k for k in left if cf_transport.command("EXISTS", k)] == []
        assert [k for k in others if not cf_transport.command("EXISTS", k)] == []
    finally:
        cf_transport.command("DEL", *others)
        delete_group(cf_transport, "QSG1")


@keeps(
    "docs/coupling-facility.md",
    "No command, benchmark or test helper sends FLUSHALL or FLUSHDB.",
)
def test_nothing_of_qsgs_sends_a_command_that_empties_a_whole_server() -> None:
    # The server may be the user's own: FLUSHALL or FLUSHDB would take everyone's keys.
    root = Path(__file__).resolve().parent.parent
    sent = re.compile(r"""["']FLUSH(?:ALL|DB)["']|\.flush(?:all|db)\(""", re.IGNORECASE)
    sources = [root / "dev"] + [
        path
        for folder in ("qsg", "actors", "coupling", "bench", "tests")
        for path in (root / folder).rglob("*.py")
    ]
    found = [
        f"{path.relative_to(root)}:{n}"
        for path in sources
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if sent.search(line)
    ]
    assert found == []
