"""The running world end to end, in virtual time: shared queues across members, waits,
kills and restarts, peer recovery, dynamic queues after restart, reproducible seeds.

Each test runs on the virtual clock (the ``virtual_clock`` fixture, what ``qsg.run``
uses); ``cf_mode`` runs a test once with shared queues in process and once on Redis.
"""

from __future__ import annotations

import contextlib

import pytest
import trio

import qsg
from actors.clock import VirtualClock
from actors.costs import Costs
from actors.events import (
    MessageGot,
    MessagePut,
    PeerRecovered,
    QMgrKilled,
    QMgrRestarted,
)
from actors.world import World
from qsg import CMQC, GMO, MD, OD, PMO, MQMIError
from tests.claims import keeps
from tests.worlds import qsg_and_qm3

NO_SYNC = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)


def wait_gmo(ms: int, options: int = CMQC.MQGMO_NO_SYNCPOINT) -> GMO:
    return GMO(Options=CMQC.MQGMO_WAIT | options, WaitInterval=ms)


async def test_a_message_put_on_qm1_to_a_shared_queue_is_got_on_qm2_with_its_expiry_counted_down(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    # "Expiry (MQLONG)": "decremented by time on the destination queue"; shared
    # queues visible from every member.
    async with qsg.start(qsg_and_qm3(), **cf_mode) as world:  # type: ignore[arg-type]
        qm1 = await world.connect("QM1")
        q = await qm1.open("APP.SHARED", CMQC.MQOO_OUTPUT)
        await q.put(b"hello", MD(Expiry=600, Priority=4), PMO(Options=CMQC.MQPMO_SYNCPOINT))
        await qm1.commit()
        await trio.sleep(12.5)
        qm2 = await world.connect("QM2")
        q2 = await qm2.open("APP.SHARED", CMQC.MQOO_INPUT_AS_Q_DEF)
        md = MD()
        body = await q2.get(None, md, wait_gmo(5000))
        assert (body, md.Expiry, md.Priority) == (b"hello", 475, 4)
        assert trio.current_time() == 12.5
        puts, gets = world.events.of(MessagePut), world.events.of(MessageGot)
        assert [(e.q_mgr, e.queue) for e in puts + gets] == [
            ("QM1", "APP.SHARED"),
            ("QM2", "APP.SHARED"),
        ]


async def test_a_waiting_get_is_woken_by_a_put_from_another_member_at_that_simulated_moment(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    async with qsg.start(qsg_and_qm3(), **cf_mode) as world:  # type: ignore[arg-type]
        got: list[tuple[bytes, float]] = []

        async def consumer() -> None:
            conn = await world.connect("QM2")
            q = await conn.open("APP.SHARED", CMQC.MQOO_INPUT_SHARED)
            got.append(
                (await q.get(None, MD(), wait_gmo(CMQC.MQWI_UNLIMITED)), trio.current_time())
            )

        async with trio.open_nursery() as nursery:
            nursery.start_soon(consumer)
            await trio.sleep(7)
            conn = await world.connect("QM1")
            q = await conn.open("APP.SHARED", CMQC.MQOO_OUTPUT)
            await q.put(b"late", MD(), NO_SYNC)
        assert got == [(b"late", 7.0)]


@keeps("docs/world.md", "`get` (with `MQGMO_WAIT` and `WaitInterval` in simulated milliseconds)")
@keeps(
    "docs/reason-codes.md",
    "MQRC_NO_MSG_AVAILABLE | MQGET found no message that may be returned (after WaitInterval)",
)
async def test_a_get_that_waits_in_vain_fails_with_2033_after_its_wait_interval(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        conn = await world.connect("QM3")
        q = await conn.open("APP.IN", CMQC.MQOO_INPUT_SHARED)
        with pytest.raises(MQMIError, match=r"MQRC_NO_MSG_AVAILABLE \(2033\)"):
            await q.get(None, MD(), wait_gmo(2500))
        assert trio.current_time() == 2.5


async def test_a_message_put_in_syncpoint_wakes_a_waiting_getter_only_when_committed(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        conn = await world.connect("QM1")
        out = await conn.open("APP.SHARED", CMQC.MQOO_OUTPUT)
        reader = await (await world.connect("QM2")).open("APP.SHARED", CMQC.MQOO_INPUT_SHARED)
        times: list[float] = []

        async def consumer() -> None:
            await reader.get(None, MD(), wait_gmo(60_000))
            times.append(trio.current_time())

        async with trio.open_nursery() as nursery:
            nursery.start_soon(consumer)
            await out.put(b"x", MD(), PMO(Options=CMQC.MQPMO_SYNCPOINT))
            await trio.sleep(3)
            await conn.commit()
        assert times == [3.0]


@keeps(
    "docs/world.md",
    "a surviving member of its QSG runs peer recovery of its shared units of work at once.",
)
@keeps(
    "docs/scenarios.md",
    "a surviving member backs out its units of work on shared queues (peer recovery)",
)
async def test_a_killed_members_uncommitted_get_is_backed_out_by_a_peer_with_backout_count_raised(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    # IBM, "Peer recovery": a unit of work of a failed member is recovered by a peer (its
    # uncommitted gets return to the queue, its uncommitted puts vanish).
    async with qsg.start(qsg_and_qm3(), **cf_mode) as world:  # type: ignore[arg-type]
        qm1 = await world.connect("QM1")
        out = await qm1.open("APP.SHARED", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
        await out.put(b"committed", MD(), NO_SYNC)
        await out.get(None, MD(), GMO(Options=CMQC.MQGMO_SYNCPOINT))  # held by QM1
        await out.put(b"in flight", MD(), PMO(Options=CMQC.MQPMO_SYNCPOINT))
        await trio.sleep(1)
        await world.kill("QM1")
        assert [type(e) for e in world.events.of(QMgrKilled, PeerRecovered)] == [
            QMgrKilled,
            PeerRecovered,
        ]
        recovered = world.events.of(PeerRecovered)[0]
        assert (recovered.q_mgr, recovered.failed, recovered.units) == ("QM2", "QM1", 1)
        q2 = await (await world.connect("QM2")).open("APP.SHARED", CMQC.MQOO_INPUT_SHARED)
        md = MD()
        assert await q2.get(None, md, GMO(Options=CMQC.MQGMO_NO_SYNCPOINT)) == b"committed"
        assert md.BackoutCount == 1
        with pytest.raises(MQMIError, match=r"2033"):
            await q2.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT))


@keeps(
    "docs/world.md",
    "a kill is abrupt: the queue manager's tasks stop, its connections get "
    "`MQRC_CONNECTION_BROKEN` (2009, a waiting get too) and new ones `MQRC_Q_MGR_NOT_AVAILABLE` "
    "(2059)",
)
@keeps(
    "docs/scenarios.md",
    "The queue manager's tasks stop, its connections get MQRC_CONNECTION_BROKEN",
)
async def test_a_connection_to_a_killed_queue_manager_is_broken_and_a_new_one_refused(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        conn = await world.connect("QM3")
        q = await conn.open("APP.IN", CMQC.MQOO_INPUT_SHARED)
        async with trio.open_nursery() as nursery:

            async def waiting_get() -> None:
                with pytest.raises(MQMIError, match=r"MQRC_CONNECTION_BROKEN \(2009\)"):
                    await q.get(None, MD(), wait_gmo(CMQC.MQWI_UNLIMITED))

            nursery.start_soon(waiting_get)
            await trio.sleep(1)
            await world.kill("QM3")
        with pytest.raises(MQMIError, match=r"MQRC_Q_MGR_NOT_AVAILABLE \(2059\)"):
            await world.connect("QM3")
        await world.restart("QM3")
        with pytest.raises(MQMIError, match=r"2009"):
            await q.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT))
        assert (await world.connect("QM3")).q_mgr_name == "QM3"


@keeps(
    "docs/world.md",
    "A restart backs out its local units of work, loses its nonpersistent local messages "
    "(persistent ones stay)",
)
@keeps(
    "docs/scenarios.md",
    "nonpersistent local messages wait for its restart (which loses the nonpersistent ones)",
)
async def test_a_restart_keeps_persistent_local_messages_and_loses_nonpersistent_ones(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        conn = await world.connect("QM3")
        q = await conn.open("APP.IN", CMQC.MQOO_OUTPUT)
        await q.put(b"kept", MD(Persistence=CMQC.MQPER_PERSISTENT), NO_SYNC)
        await q.put(b"lost", MD(Persistence=CMQC.MQPER_NOT_PERSISTENT), NO_SYNC)
        await q.put(b"uncommitted", MD(Persistence=CMQC.MQPER_PERSISTENT), PMO())
        await world.kill("QM3")
        await world.restart("QM3")
        restarted = world.events.of(QMgrRestarted)
        assert [(e.q_mgr, e.incarnation) for e in restarted] == [("QM3", 1)]
        q = await (await world.connect("QM3")).open("APP.IN", CMQC.MQOO_INPUT_SHARED)
        assert await q.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT)) == b"kept"
        with pytest.raises(MQMIError, match=r"2033"):
            await q.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT))


@keeps("docs/world.md", "deletes its temporary dynamic queues")
@keeps("docs/scenarios.md", "temporary dynamic queues gone")
async def test_temporary_dynamic_queues_are_gone_after_a_restart(
    virtual_clock: VirtualClock,
) -> None:
    # "Dynamic queues": a temporary dynamic queue is "deleted when the queue manager
    # is started"; a permanent one survives.
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        conn = await world.connect("QM3")
        od = OD(ObjectName=b"SYSTEM.DEFAULT.MODEL.QUEUE", DynamicQName=b"REPLY.*")
        temporary = await conn.open(od, CMQC.MQOO_INPUT_EXCLUSIVE)
        assert temporary.name.startswith("REPLY.")
        await world.kill("QM3")
        await world.restart("QM3")
        conn = await world.connect("QM3")
        with pytest.raises(MQMIError, match=r"MQRC_UNKNOWN_OBJECT_NAME \(2085\)"):
            await conn.open(temporary.name, CMQC.MQOO_INPUT_SHARED)
        again = await conn.open(
            OD(ObjectName=b"SYSTEM.DEFAULT.MODEL.QUEUE", DynamicQName=b"REPLY.*"),
            CMQC.MQOO_INPUT_EXCLUSIVE,
        )
        assert again.name != temporary.name  # a new life names its queues afresh


@keeps(
    "docs/world.md",
    "CPU per MQ call (with `cpus` processors per queue manager, so calls queue), CF access time",
)
@keeps("docs/scenarios.md", "processors per queue manager: calls beyond that queue for one")
async def test_the_cpu_cost_of_a_call_is_simulated_time_and_calls_queue_for_the_processor(
    virtual_clock: VirtualClock,
) -> None:
    costs = Costs(cpu_per_call=0.01, cf_access=0.005)
    async with qsg.start(qsg_and_qm3(costs), in_process=True) as world:
        conn = await world.connect("QM1")  # 0.01
        q = await conn.open("APP.SHARED", CMQC.MQOO_OUTPUT)  # 0.01
        start = trio.current_time()
        await q.put(b"x", MD(), NO_SYNC)  # a shared queue: 0.01 + 0.005
        assert trio.current_time() - start == pytest.approx(0.015)
        start = trio.current_time()
        async with trio.open_nursery() as nursery:
            for _ in range(3):
                nursery.start_soon(q.put, b"y", MD(), NO_SYNC)
        assert trio.current_time() - start == pytest.approx(0.045)  # one processor


@keeps(
    "docs/coupling-facility.md",
    "keeps shared queues in process instead: faster, and the same seed then repeats the run "
    "exactly.",
)
@keeps(
    "docs/world.md",
    "`qsg.start(..., in_process=True)` keeps them in process: faster, and then **the same seed "
    "gives the same event sequence**",
)
def test_the_same_seed_gives_the_same_event_sequence_with_the_in_process_store() -> None:
    def play(seed: int) -> list[object]:
        async def main() -> list[object]:
            async with qsg.start(qsg_and_qm3(), in_process=True, seed=seed) as world:
                async with trio.open_nursery() as nursery:
                    for member in ("QM1", "QM2"):
                        nursery.start_soon(_busy_member, world, member)
                return list(world.events)

        return qsg.run(main)

    first = play(7)
    assert len(first) > 100
    assert play(7) == first
    assert play(8) != first


async def _busy_member(world: World, member: str) -> None:
    """Producers and consumers racing at the same simulated instants."""
    conn = await world.connect(member)
    q = await conn.open("APP.SHARED", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
    for i in range(30):
        await q.put(f"{member}-{i}".encode(), MD(Expiry=20), NO_SYNC)
        await trio.sleep(world.random.choice([0.0, 0.5, 1.0]))
        with contextlib.suppress(MQMIError):  # nothing left within the wait: fine
            await q.get(None, MD(), wait_gmo(500))


@keeps("docs/world.md", "`world.events.subscribe()` is a trio channel of them.")
async def test_a_subscriber_sees_every_event_from_its_subscription_on(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        seen = world.events.subscribe()
        conn = await world.connect("QM3")
        q = await conn.open("APP.IN", CMQC.MQOO_OUTPUT)
        await q.put(b"watched", MD(), NO_SYNC)
        event = seen.receive_nowait()
        while not isinstance(event, MessagePut):
            event = seen.receive_nowait()
        assert (event.q_mgr, event.queue, event.size, event.kind) == ("QM3", "APP.IN", 7, "put")


async def test_put1_puts_one_message_and_reports_where_it_went(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        conn = await world.connect("QM1")
        md = MD()
        await conn.put1("TO.QM3", b"one", md, NO_SYNC)  # a remote queue: its xmitq
        puts = world.events.of(MessagePut)
        assert [(e.queue, e.msg_id, e.syncpoint) for e in puts] == [("QM3", md.MsgId, False)]
        q3 = await (await world.connect("QM3")).open("APP.IN", CMQC.MQOO_INPUT_SHARED)
        assert await q3.get(None, MD(), wait_gmo(1000)) == b"one"


async def test_consecutive_waiting_gets_find_every_message_of_a_burst_at_once(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    # A waiting get may skip an attempt the world knows must fail (actors/signals.py):
    # it must never skip one that would find a message.
    async with qsg.start(qsg_and_qm3(), **cf_mode) as world:  # type: ignore[arg-type]
        consumer = await (await world.connect("QM2")).open("APP.SHARED", CMQC.MQOO_INPUT_SHARED)
        producer = await (await world.connect("QM1")).open("APP.SHARED", CMQC.MQOO_OUTPUT)
        got: list[tuple[float, bytes]] = []

        async def consume() -> None:
            for _ in range(5):
                body = await consumer.get(None, MD(), wait_gmo(60_000))
                got.append((trio.current_time(), body))

        async with trio.open_nursery() as nursery:
            nursery.start_soon(consume)
            await trio.sleep(5)
            for n in range(3):  # a burst: three messages at the same instant
                await producer.put(b"burst %d" % n, MD(), NO_SYNC)
            await trio.sleep(5)
            committer = await world.connect("QM1")
            q = await committer.open("APP.SHARED", CMQC.MQOO_OUTPUT)
            await q.put(b"in a unit of work 1", MD(), PMO(Options=CMQC.MQPMO_SYNCPOINT))
            await q.put(b"in a unit of work 2", MD(), PMO(Options=CMQC.MQPMO_SYNCPOINT))
            await trio.sleep(5)
            await committer.commit()  # two messages at once, through a commit
    assert got == [
        (5.0, b"burst 0"),
        (5.0, b"burst 1"),
        (5.0, b"burst 2"),
        (15.0, b"in a unit of work 1"),
        (15.0, b"in a unit of work 2"),
    ]


async def test_a_waiting_get_after_an_empty_one_still_fails_at_once_when_gets_are_inhibited(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        conn = await world.connect("QM1")
        q = await conn.open("APP.SHARED", CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_SET)
        with pytest.raises(MQMIError) as empty:
            await q.get(None, MD(), wait_gmo(1000))
        assert empty.value.reason == CMQC.MQRC_NO_MSG_AVAILABLE
        await q.set(CMQC.MQIA_INHIBIT_GET, CMQC.MQQA_GET_INHIBITED)
        with pytest.raises(MQMIError) as inhibited:
            await q.get(None, MD(), wait_gmo(1000))
        assert inhibited.value.reason == CMQC.MQRC_GET_INHIBITED
        assert trio.current_time() == 1.0  # the second get did not wait


async def test_a_redis_url_that_names_no_server_fails_qsg_start_with_a_plain_value_error(
    virtual_clock: VirtualClock,
) -> None:
    # Not wrapped in a nursery's exception group: the caller catches ValueError.
    with pytest.raises(ValueError, match="a coupling-facility URL is redis://"):
        async with qsg.start(qsg_and_qm3(), redis_url="bogus://qsg:s3cret@h/0"):
            pass
