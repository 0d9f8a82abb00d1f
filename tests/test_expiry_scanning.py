"""EXPRYINT in a running world: each queue manager scans its own queues; the shared
queues are scanned by the holder of the QSG's expiry-scan lease only, and a survivor
takes the lease over when the holder dies (IBM, "Expired messages on z/OS"; docs/mq-rules.md:
a shared queue is scanned by exactly one queue manager of the QSG, the lease holder; on
its failure another takes over)."""

from __future__ import annotations

import trio

import qsg
from actors.clock import VirtualClock
from actors.events import ExpiryScanned, LeaseChanged, QMgrKilled, WorldEvent
from actors.expiry import LEASE_INTERVALS
from actors.topology import Topology
from qsg import CMQC, MD, PMO
from qsg.core.events import Discarded
from tests.claims import keeps
from tests.worlds import qsg_and_qm3

NO_SYNC = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
EXPRYINT = 5
LEASE = LEASE_INTERVALS * EXPRYINT


def holders_over_time(events: list[WorldEvent]) -> list[tuple[float, str]]:
    return [(e.time, e.q_mgr) for e in events if isinstance(e, LeaseChanged)]


def assert_one_scanner_at_a_time(events: list[WorldEvent]) -> None:
    """Every scan of shared queues is by the lease holder of that moment, and no two
    members scan shared queues at the same simulated instant."""
    holders = holders_over_time(events)
    by_instant: dict[float, set[str]] = {}
    for event in events:
        if isinstance(event, ExpiryScanned) and event.shared:
            holder = [who for since, who in holders if since <= event.time][-1]
            assert event.q_mgr == holder, f"{event.q_mgr} scanned at {event.time}, {holder} holds"
            by_instant.setdefault(event.time, set()).add(event.q_mgr)
    assert all(len(scanners) == 1 for scanners in by_instant.values())


@keeps(
    "docs/world.md",
    "the shared queues only the holder of the QSG's expiry-scan lease (the first member with "
    "EXPRYINT to start; the lease lasts 2 x EXPRYINT, renewed at each scan; a survivor takes it "
    "over when it runs out, and the scan carries its fencing token).",
)
@keeps(
    "docs/mq-rules.md",
    (
        "Shared queues are scanned by one queue manager of the group at a time; when it ends, "
        "another takes over. qsg holds that role with a lease and fences the scan with its token."
    ),
)
async def test_the_lease_moves_from_a_killed_holder_to_a_survivor_within_one_lease_period(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    async with qsg.start(qsg_and_qm3(), **cf_mode) as world:  # type: ignore[arg-type]
        conn = await world.connect("QM2")
        q = await conn.open("APP.SHARED", CMQC.MQOO_OUTPUT | CMQC.MQOO_INQUIRE)
        for expiry in (10, 150, 250, -1):  # 1 s, 15 s and 25 s of life; one unlimited
            await q.put(b"x", MD(Expiry=expiry), NO_SYNC)
        await trio.sleep(12)
        await world.kill("QM1")  # QM1 started first, so it held the lease
        killed = world.events.of(QMgrKilled)[0].time
        await trio.sleep(40)
        events = list(world.events)
        assert [who for _, who in holders_over_time(events)] == ["QM1", "QM2"]
        takeover = holders_over_time(events)[1][0]
        assert 0 < takeover - killed <= LEASE
        tokens = [e.token for e in world.events.of(LeaseChanged)]  # type: ignore[union-attr]
        assert tokens == [1, 2]
        assert_one_scanner_at_a_time(events)
        discards = [(e.q_mgr, e.time) for e in world.events.of(Discarded)]
        assert takeover == 20.0  # QM1 last renewed at 10
        assert discards == [("QM1", 5.0), ("QM2", 20.0), ("QM2", 25.0)]
        assert await q.inquire(CMQC.MQIA_CURRENT_Q_DEPTH) == 1


@keeps("docs/world.md", "each queue manager scans its own queues")
@keeps(
    "docs/mq-rules.md",
    "Every EXPRYINT seconds a queue manager scans its own queues worth scanning.",
)
async def test_each_queue_manager_scans_its_own_local_queues_every_expryint(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        conn = await world.connect("QM1")
        q = await conn.open("APP.REPLIES", CMQC.MQOO_OUTPUT | CMQC.MQOO_INQUIRE)
        await q.put(b"x", MD(Expiry=70), NO_SYNC)  # 7 s
        await trio.sleep(11)
        local = [
            (e.q_mgr, e.time, e.discarded)
            for e in world.events.of(ExpiryScanned)
            if not e.shared  # type: ignore[union-attr]
        ]
        assert sorted(local, key=lambda s: (s[1], s[0])) == [
            ("QM1", 5.0, 0),
            ("QM2", 5.0, 0),
            ("QM1", 10.0, 1),
            ("QM2", 10.0, 0),
        ]
        assert await q.inquire(CMQC.MQIA_CURRENT_Q_DEPTH) == 0


@keeps("docs/scenarios.md", "REFRESH QMGR TYPE(EXPIRY) NAME(*) on the queue manager")
@keeps("docs/world.md", "`refresh_expiry(qm, pattern)` (REFRESH QMGR TYPE(EXPIRY) NAME(pattern))")
@keeps("docs/mq-rules.md", "REFRESH QMGR TYPE(EXPIRY) scans the matching queues at once.")
async def test_refresh_qmgr_type_expiry_scans_the_matching_queues_at_once(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        conn = await world.connect("QM3")  # EXPRYINT is OFF on QM3
        q = await conn.open("APP.IN", CMQC.MQOO_OUTPUT | CMQC.MQOO_INQUIRE)
        await q.put(b"x", MD(Expiry=10), NO_SYNC)
        await trio.sleep(60)
        assert await q.inquire(CMQC.MQIA_CURRENT_Q_DEPTH) == 1  # no scan: it still counts
        assert await world.refresh_expiry("QM3", "OTHER.*") == 0
        assert await world.refresh_expiry("QM3", "APP.*") == 1
        assert await q.inquire(CMQC.MQIA_CURRENT_Q_DEPTH) == 0
        scans = [
            (e.pattern, e.discarded, e.cause)
            for e in world.events.of(ExpiryScanned)
            if e.q_mgr == "QM3"
        ]  # type: ignore[union-attr]
        assert scans == [("OTHER.*", 0, "REFRESH"), ("APP.*", 1, "REFRESH")]


@keeps("docs/scenarios.md", "expiry processed on every queue")
@keeps("docs/world.md", "and processes expiry on every queue.")
@keeps("docs/mq-rules.md", "Every queue is expiry-processed at restart, whatever EXPRYINT says.")
async def test_expiry_is_processed_for_every_queue_at_restart(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        conn = await world.connect("QM3")
        q = await conn.open("APP.IN", CMQC.MQOO_OUTPUT)
        await q.put(b"x", MD(Expiry=10, Persistence=CMQC.MQPER_PERSISTENT), NO_SYNC)
        await trio.sleep(5)
        await world.kill("QM3")
        await world.restart("QM3")
        restart_scans = [e for e in world.events.of(ExpiryScanned) if e.cause == "restart"]  # type: ignore[union-attr]
        assert [(e.q_mgr, e.discarded) for e in restart_scans] == [("QM3", 1)]  # type: ignore[union-attr]


async def test_refresh_qmgr_type_expiry_scans_a_shared_queue_from_a_member_without_the_lease(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    # REFRESH QMGR TYPE(EXPIRY) is an explicit request: it scans "regardless of the
    # setting of EXPRYINT", and the scan lease allots the periodic scan only. QM1 holds
    # the lease (EXPRYINT 5); QM2 (EXPRYINT OFF) asks at t=2, before QM1's next scan.
    async with qsg.start(qsg_and_qm3(qm2_expiry=None), **cf_mode) as world:  # type: ignore[arg-type]
        conn = await world.connect("QM2")
        q = await conn.open("APP.SHARED", CMQC.MQOO_OUTPUT | CMQC.MQOO_INQUIRE)
        await q.put(b"x", MD(Expiry=10), NO_SYNC)  # 1 s
        await trio.sleep(2)
        assert world.qmgrs["QM2"].expiry_grant is None
        assert await world.refresh_expiry("QM2", "APP.*") == 1
        assert await q.inquire(CMQC.MQIA_CURRENT_Q_DEPTH) == 0
        shared = [
            (e.q_mgr, e.discarded, e.cause, e.token)
            for e in world.events.of(ExpiryScanned)
            if e.shared
        ]  # type: ignore[union-attr]
        assert shared == [("QM1", 0, "EXPRYINT", 1), ("QM2", 1, "REFRESH", 0)]
        assert [(e.q_mgr, e.by) for e in world.events.of(Discarded)] == [("QM2", "scan")]  # type: ignore[union-attr]


async def test_refresh_qmgr_type_expiry_scans_shared_queues_when_no_member_has_expryint(
    virtual_clock: VirtualClock,
) -> None:
    topology = Topology()
    topology.add_qsg("QSG1", members=["QM1", "QM2"])
    topology.mqsc(
        "QM1",
        """
        DEFINE CFSTRUCT(APP1)
        DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1)
    """,
    )
    async with qsg.start(topology, in_process=True) as world:
        conn = await world.connect("QM2")
        q = await conn.open("APP.SHARED", CMQC.MQOO_OUTPUT | CMQC.MQOO_INQUIRE)
        await q.put(b"x", MD(Expiry=10), NO_SYNC)
        await trio.sleep(60)
        assert await q.inquire(CMQC.MQIA_CURRENT_Q_DEPTH) == 1  # nobody scans periodically
        assert await world.refresh_expiry("QM2", "OTHER.*") == 0
        assert await q.inquire(CMQC.MQIA_CURRENT_Q_DEPTH) == 1
        assert await world.refresh_expiry("QM2") == 1
        assert await q.inquire(CMQC.MQIA_CURRENT_Q_DEPTH) == 0
