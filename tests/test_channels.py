"""Channels between queue managers: message channel agents in batches, both Expiry fields
counted down at every hop, messages that expire on the way or cannot be delivered, and
no message lost or duplicated when a channel breaks mid-batch.
"""

from __future__ import annotations

import pytest
import trio

import qsg
from actors.clock import VirtualClock
from actors.costs import Costs
from actors.events import (
    ChannelBatch,
    ChannelDelivered,
    ChannelStateChanged,
    ExpiredInTransit,
)
from qsg import CMQC, DLH, GMO, MD, PMO, MQMIError
from qsg.core.events import DeadLettered, Discarded
from qsg.core.layouts import read_inner_expiry
from tests.claims import keeps
from tests.worlds import qsg_and_qm3

NO_SYNC = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
GET = GMO(Options=CMQC.MQGMO_NO_SYNCPOINT)
LATENCY = Costs(channel_latency=2.0)


def waiting(ms: int) -> GMO:
    return GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, WaitInterval=ms)


@keeps("docs/world.md", "Both Expiry fields count down on the transmission queue and in transit")
@keeps(
    "docs/mq-rules.md",
    (
        "Expiry also counts down on transmission queues and in transit; a message whose lifetime "
        "runs out on the way is discarded with its report."
    ),
)
async def test_both_expiry_fields_count_down_on_the_xmitq_and_in_transit_and_the_rest_on_arrival(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    # "Expiry (MQLONG)": Expiry is "decremented by time on the destination queue, on
    # transmission queues and in transit through channels"; note 9: a put to a remote
    # queue wraps the data in an MQXQH whose two Expiry fields are equal, and a get from
    # any queue decrements both.
    async with qsg.start(qsg_and_qm3(LATENCY), **cf_mode) as world:  # type: ignore[arg-type]
        await world.stop_channel("QM1", "QM1.TO.QM3")
        qm1 = await world.connect("QM1")
        remote = await qm1.open("TO.QM3", CMQC.MQOO_OUTPUT)
        await remote.put(b"payload", MD(Expiry=600), NO_SYNC)

        await trio.sleep(10)  # ten seconds on QM1's transmission queue
        xmitq = await qm1.open("QM3", CMQC.MQOO_BROWSE)
        md = MD()
        data = await xmitq.get(None, md, GMO(Options=CMQC.MQGMO_BROWSE_FIRST))
        assert (md.Expiry, read_inner_expiry(data, md.Encoding)) == (500, 500)
        await xmitq.close()

        await world.start_channel("QM1", "QM1.TO.QM3")  # two seconds in transit
        qm3 = await world.connect("QM3")
        target = await qm3.open("APP.IN", CMQC.MQOO_INPUT_SHARED)
        md = MD()
        assert await target.get(None, md, waiting(10_000)) == b"payload"
        assert trio.current_time() == 12.0
        delivered = world.events.of(ChannelDelivered)
        assert [(e.q_mgr, e.queue, e.expiry) for e in delivered] == [("QM3", "APP.IN", 480)]
        assert md.Expiry == 480
        await trio.sleep(3)
        with pytest.raises(MQMIError, match=r"2033"):
            await target.get(None, MD(), GET)


@keeps("docs/world.md", "a message that expires on the way is discarded (with its report)")
@keeps(
    "docs/mq-rules.md",
    (
        "Expiry also counts down on transmission queues and in transit; a message whose lifetime "
        "runs out on the way is discarded with its report."
    ),
)
async def test_a_message_whose_lifetime_runs_out_in_transit_is_discarded_with_its_report(
    virtual_clock: VirtualClock,
) -> None:
    # "Expiry (MQLONG)": an expired message is never delivered; the expiration report is
    # made at discard. No route back to QM1 from QM3: the report goes to QM3's
    # dead-letter queue (MQRC_UNKNOWN_REMOTE_Q_MGR).
    async with qsg.start(qsg_and_qm3(LATENCY), in_process=True) as world:
        qm1 = await world.connect("QM1")
        remote = await qm1.open("TO.QM3", CMQC.MQOO_OUTPUT)
        md = MD(Expiry=15, Report=CMQC.MQRO_EXPIRATION, ReplyToQ=b"APP.REPLIES")
        await remote.put(b"short-lived", md, NO_SYNC)
        await trio.sleep(5)
        assert [e.msg_id for e in world.events.of(ExpiredInTransit)] == [md.MsgId]
        assert [(e.q_mgr, e.by) for e in world.events.of(Discarded)] == [("QM3", "transit")]
        assert world.events.of(ChannelDelivered) == []
        dead = world.events.of(DeadLettered)
        assert [(e.q_mgr, e.reason) for e in dead] == [("QM3", CMQC.MQRC_UNKNOWN_REMOTE_Q_MGR)]
        target = await (await world.connect("QM3")).open("APP.IN", CMQC.MQOO_INPUT_SHARED)
        with pytest.raises(MQMIError, match=r"2033"):
            await target.get(None, MD(), GET)


@keeps(
    "docs/world.md",
    "one that cannot be put goes to the dead-letter queue, keeping its remaining expiry.",
)
@keeps(
    "docs/mq-rules.md",
    (
        "An undeliverable message goes to the dead-letter queue with an MQDLH, keeping its "
        "remaining expiry."
    ),
)
async def test_an_undeliverable_message_goes_to_the_dead_letter_queue_keeping_its_remaining_expiry(
    virtual_clock: VirtualClock,
) -> None:
    # "Expiry (MQLONG)" note 7: dead-letter puts keep and keep decrementing the expiry.
    async with qsg.start(qsg_and_qm3(LATENCY), in_process=True) as world:
        qm1 = await world.connect("QM1")
        nowhere = await qm1.open("TO.NOWHERE", CMQC.MQOO_OUTPUT)
        await nowhere.put(b"lost?", MD(Expiry=600), NO_SYNC)
        await trio.sleep(5)  # 2 s in transit, then 3 s on QM3's dead-letter queue
        dlq = await (await world.connect("QM3")).open(
            "SYSTEM.DEAD.LETTER.QUEUE", CMQC.MQOO_INPUT_SHARED
        )
        md = MD()
        data = await dlq.get(None, md, GET)
        header = DLH.unpack(data, md.Encoding)
        assert header.Reason == CMQC.MQRC_UNKNOWN_OBJECT_NAME
        assert header.DestQName.rstrip() == b"NO.SUCH.QUEUE"
        assert data.endswith(b"lost?")
        assert md.Expiry == 550


async def _put_numbered(world: object, count: int) -> list[bytes]:
    qm1 = await world.connect("QM1")  # type: ignore[attr-defined]
    remote = await qm1.open("TO.QM3", CMQC.MQOO_OUTPUT)
    ids = []
    for i in range(count):
        md = MD(Persistence=CMQC.MQPER_PERSISTENT)
        await remote.put(f"m{i}".encode(), md, NO_SYNC)
        ids.append(md.MsgId)
    return ids


async def _drain(world: object) -> list[bytes]:
    qm3 = await world.connect("QM3")  # type: ignore[attr-defined]
    target = await qm3.open("APP.IN", CMQC.MQOO_INPUT_SHARED)
    got = []
    while True:
        md = MD()
        try:
            await target.get(None, md, GET)
        except MQMIError:
            return got
        got.append(md.MsgId)


@keeps("docs/world.md", "a channel that breaks mid-batch loses and duplicates nothing")
@keeps(
    "docs/mq-rules.md",
    (
        "A channel that breaks mid-batch neither loses nor duplicates a message; an in-doubt batch "
        "is resolved with the partner at restart."
    ),
)
async def test_a_receiver_killed_mid_batch_loses_and_duplicates_nothing(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(qsg_and_qm3(LATENCY), in_process=True) as world:
        ids = await _put_numbered(world, 25)  # batches of 10: the first is in transit
        await trio.sleep(1)
        await world.kill("QM3")
        await trio.sleep(10)
        await world.restart("QM3")
        await trio.sleep(120)  # the sender retries after SHORTTMR(60)
        got = await _drain(world)
        assert sorted(got) == sorted(ids)
        states = [e.state for e in world.events.of(ChannelStateChanged) if e.q_mgr == "QM1"]
        assert "RETRYING" in states and states[-1] == "RUNNING"


@keeps("docs/world.md", "a batch in doubt is settled at the next start.")
@keeps(
    "docs/mq-rules.md",
    (
        "A channel that breaks mid-batch neither loses nor duplicates a message; an in-doubt batch "
        "is resolved with the partner at restart."
    ),
)
@keeps(
    "docs/scenarios.md", "a batch in doubt is settled at the next start, nothing lost or duplicated"
)
async def test_a_sender_killed_with_its_batch_in_doubt_resolves_it_without_duplicates(
    virtual_clock: VirtualClock,
) -> None:
    # The receiver committed batch 1 at t=2; its confirmation arrives at t=4. The sender
    # dies at t=3, its gets backed out at restart: the batch is back on the transmission
    # queue, and the resynchronisation must take it off rather than send it again.
    async with qsg.start(qsg_and_qm3(LATENCY), in_process=True) as world:
        ids = await _put_numbered(world, 5)
        await trio.sleep(3)
        assert [e.messages for e in world.events.of(ChannelBatch)] == []
        assert len(world.events.of(ChannelDelivered)) == 5
        await world.kill("QM1")
        await world.restart("QM1")
        await trio.sleep(10)
        got = await _drain(world)
        assert sorted(got) == sorted(ids)
        assert len(world.events.of(ChannelDelivered)) == 5


@keeps("docs/world.md", "RETRYING (SHORTRTY x SHORTTMR, then LONGRTY x LONGTMR)")
async def test_a_channel_to_a_partner_that_is_down_retries_at_shorttmr_then_delivers(
    virtual_clock: VirtualClock,
) -> None:
    topology = qsg_and_qm3()
    topology.mqsc(
        "QM1", "ALTER CHANNEL(QM1.TO.QM3) CHLTYPE(SDR) SHORTRTY(2) SHORTTMR(30) LONGTMR(300)"
    )
    async with qsg.start(topology, in_process=True) as world:
        await world.stop_channel("QM1", "QM1.TO.QM3")
        await world.kill("QM3")
        await world.start_channel("QM1", "QM1.TO.QM3")
        ids = await _put_numbered(world, 1)
        await trio.sleep(400)
        retries = [
            e.time
            for e in world.events.of(ChannelStateChanged)
            if e.q_mgr == "QM1" and e.state == "RETRYING"
        ]
        start = retries[0]
        assert [t - start for t in retries[:4]] == [0, 30, 60, 360]
        await world.restart("QM3")
        await trio.sleep(300)
        assert await _drain(world) == ids


async def test_a_receiver_killed_after_committing_a_batch_is_not_sent_it_again(
    virtual_clock: VirtualClock,
) -> None:
    # QM3 commits batch 1 at t=2 and dies at t=3, before its confirmation reaches QM1:
    # the batch is in doubt at the sender, which asks at the next start.
    async with qsg.start(qsg_and_qm3(LATENCY), in_process=True) as world:
        ids = await _put_numbered(world, 5)
        await trio.sleep(3)
        await world.kill("QM3")
        await world.restart("QM3")
        await trio.sleep(120)
        assert sorted(await _drain(world)) == sorted(ids)
        assert len(world.events.of(ChannelDelivered)) == 5
