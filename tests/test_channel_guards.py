"""Channels guarded as MQ guards them (issue 43).

A peer that connects to a listener as a channel that is already running is refused
(AMQ9514E "Channel is in use"); a batch whose first message does not carry the next
sequence number ends the channel (AMQ9526E "Message sequence number error for channel")
and nothing is put or lost; the receiving MCA takes a put that completes with a warning
as the successful put it is; a message that can be neither put nor dead-lettered stops
the channel with the message left on the transmission queue ("Dead-letter queues": "If
you do not [define one], and the MCA is unable to put a message, it is left on the
transmission queue and the channel is stopped"), never a loop of backouts.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import msgpack
import pytest
import trio
import trio.testing
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import qsg
from actors import admin
from actors.channel import run_receiver
from actors.clock import VirtualClock
from actors.events import ChannelStateChanged
from actors.world import World
from coupling.server import free_port
from qsg import CMQC, DLH, GMO, MD, PMO, XQH, MQMIError
from qsg.core.channels import DEFAULT_SEQWRAP, QMgrMap, UserSource
from qsg.core.events import DeadLettered
from tests.claims import keeps
from tests.worlds import qsg_and_qm3

NO_SYNC = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
PERSISTENT = CMQC.MQPER_PERSISTENT


def tcp_pair(port: int, *, dead_letter_queue: str | None = "SYSTEM.DEAD.LETTER.QUEUE") -> Any:
    """QM1 sends to QM3's TCP listener at 127.0.0.1(port), in the same world."""
    top = qsg.Topology()
    top.add_qmgr("QM1")
    top.add_qmgr("QM3", listener=port, dead_letter_queue=dead_letter_queue)
    top.mqsc(
        "QM1",
        f"""
        DEFINE QLOCAL(QM3) USAGE(XMITQ)
        DEFINE QREMOTE(TO.QM3) RNAME(APP.IN) RQMNAME(QM3) XMITQ(QM3)
        DEFINE CHANNEL(QM1.TO.QM3) CHLTYPE(SDR) TRPTYPE(TCP) CONNAME('127.0.0.1({port})') +
               XMITQ(QM3) SHORTRTY(50) SHORTTMR(1)
        """,
    )
    top.mqsc(
        "QM3",
        """
        DEFINE QLOCAL(APP.IN)
        DEFINE CHANNEL(QM1.TO.QM3) CHLTYPE(RCVR) TRPTYPE(TCP)
        """,
    )
    return top


def frame(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)  # type: ignore[no-any-return]


def hello(channel: str = "QM1.TO.QM3", **extra: Any) -> bytes:
    return frame({"t": "hello", "channel": channel, "from": "QM1", **extra})


def batch(seq: int, body: bytes = b"forged", queue: bytes = b"APP.IN") -> bytes:
    data = XQH(queue, b"QM3", MD(Persistence=PERSISTENT)).pack() + body
    return frame({"t": "batch", "seq": seq, "messages": [{"md": {}, "data": data, "age": 0}]})


async def hostile(conname: str, payload: bytes, seconds: float = 2.0) -> list[dict[str, Any]]:
    """Connect to a listener as a peer would, send ``payload`` and return every frame
    the listener answered before it closed the connection (or ``seconds`` passed)."""
    host, port = conname.rstrip(")").split("(")
    unpacker = msgpack.Unpacker(raw=False)
    async with await trio.open_tcp_stream(host, int(port)) as stream:
        with contextlib.suppress(trio.BrokenResourceError):  # closed on us mid-send
            await stream.send_all(payload)
        with trio.move_on_after(seconds):
            try:
                while chunk := await stream.receive_some(1 << 16):
                    unpacker.feed(chunk)
            except trio.BrokenResourceError:
                pass
    return list(unpacker)


@pytest.fixture
async def world() -> AsyncIterator[World]:
    async with qsg.start(tcp_pair(free_port()), in_process=True) as world:
        yield world


async def _put(world: World, bodies: list[bytes], **md: Any) -> None:
    remote = await (await world.connect("QM1")).open("TO.QM3", CMQC.MQOO_OUTPUT)
    for body in bodies:
        try:
            await remote.put(body, MD(Persistence=PERSISTENT, **md), NO_SYNC)
        except MQMIError as error:
            if error.comp != CMQC.MQCC_WARNING:
                raise


async def _get(world: World, count: int, queue: str = "APP.IN", wait_ms: int = 10_000) -> list[Any]:
    """Up to ``count`` messages (body, MD) from ``queue`` of QM3, each waited for."""
    q = await (await world.connect("QM3")).open(queue, CMQC.MQOO_INPUT_SHARED)
    got = []
    for _ in range(count):
        md = MD()
        gmo = GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, WaitInterval=wait_ms)
        try:
            got.append((await q.get(None, md, gmo), md))
        except MQMIError as error:
            if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
                raise
            break
    return got


# ---- one instance of a channel at a time ----------------------------------------------
@keeps("docs/edges.md", 'a hello for a channel already running (AMQ9514E, "Channel is in use")')
@keeps(
    "docs/channels.md",
    "A hello for a channel whose agent is running is refused, and the agent that runs goes on",
)
@keeps(
    "docs/channels.md",
    "a hijacker that says hello as `QM1.TO.QM3` while the channel runs is refused with "
    "AMQ9514E and never confirmed, and 30 persistent messages put after it all arrive",
)
@keeps(
    "docs/mq-rules.md",
    (
        "One instance of a channel at a time: a second is refused with AMQ9514E, at the listener "
        "and at START CHANNEL."
    ),
)
@keeps(
    "docs/security.md",
    (
        "one instance of a channel at a time: a hello for a channel already running is refused "
        '(AMQ9514E, "Channel is in use"), whoever sends it'
    ),
)
async def test_a_second_instance_of_a_running_channel_is_refused_with_amq9514e_and_nothing_is_lost(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    # AMQ9514E "Channel is in use": "the requested operation failed because channel
    # ... is currently active". The hijacker's batch is never read, let alone confirmed.
    caplog.set_level(logging.ERROR, logger="qsg.channels")
    with trio.fail_after(60):
        await _put(world, [b"first"])
        assert [body for body, _ in await _get(world, 1)] == [b"first"]
        answers = await hostile(world.conname("QM3"), hello(seq=1) + batch(2**62))
        assert [a["t"] for a in answers] == ["refused"]
        assert "AMQ9514E" in answers[0]["reason"]
        bodies = [b"m%d" % n for n in range(30)]
        await _put(world, bodies)
        assert [body for body, _ in await _get(world, 30)] == bodies
    lines = [r.getMessage() for r in caplog.records]
    assert any(line.startswith("QM3: AMQ9514E") and "'QM1.TO.QM3'" in line for line in lines)


@keeps(
    "docs/scenarios.md",
    'START of a channel that is running is refused (AMQ9514E, "Channel is in use")',
)
@keeps(
    "docs/channels.md",
    "`World.start_channel` raises a `ValueError`, and the console answers `CSQM090E ... "
    "CHANNEL(QM1.TO.QM3) IN USE (AMQ9514E: ...)`",
)
@keeps("docs/channels.md", "START CHANNEL of a running channel is refused")
@keeps(
    "docs/mq-rules.md",
    (
        "One instance of a channel at a time: a second is refused with AMQ9514E, at the listener "
        "and at START CHANNEL."
    ),
)
async def test_start_channel_of_a_running_channel_is_refused_with_amq9514e(world: World) -> None:
    # runmqsc answers START CHANNEL of a channel that is running with AMQ9514E.
    with trio.fail_after(30):
        await _put(world, [b"first"])
        await _get(world, 1)
        with pytest.raises(ValueError, match=r"^channel QM1\.TO\.QM3 of QM1 is in use \(AMQ9514E"):
            await world.start_channel("QM1", "QM1.TO.QM3")
        reply = await admin.command(world, "QM1", "START CHANNEL(QM1.TO.QM3)")
        assert reply.failed and "IN USE (AMQ9514E" in reply.text


# ---- sequence numbers checked at every batch -------------------------------------------
@pytest.mark.parametrize(
    ("why", "first"),
    [("skips ahead to 2**62", 2**62), ("replays the last committed", 1), ("goes back to 0", 0)],
)
@keeps(
    "docs/edges.md",
    "a batch whose first message is not the next (AMQ9526E): nothing of it is put or confirmed.",
)
@keeps(
    "docs/channels.md", "mid-channel the batch is not put and not confirmed, and the channel ends"
)
@keeps("docs/channels.md", "Nothing is lost or put twice.")
@keeps(
    "docs/channels.md",
    "batches numbered 2**62, a replay of the last, and 0 each end the channel with AMQ9526E, "
    "and the real sender then delivers in order",
)
@keeps(
    "docs/mq-rules.md",
    (
        "Channel sequence numbers count messages and wrap after SEQWRAP; at the start both ends "
        "agree, or a batch in doubt is settled; a batch that is not the next ends the channel with "
        "AMQ9526E, nothing put or lost."
    ),
)
@keeps(
    "docs/security.md",
    (
        'a batch whose first message is not the next, end the channel with AMQ9526E ("Message '
        'sequence number error for channel") and nothing of the batch is put'
    ),
)
async def test_a_batch_out_of_sequence_ends_the_channel_with_amq9526e_and_nothing_is_lost(
    world: World, caplog: pytest.LogCaptureFixture, why: str, first: int
) -> None:
    # AMQ9526E: "The local and remote queue managers do not agree on the next message
    # sequence number. A message with sequence number X has been sent when sequence
    # number Y was expected." The batch is not put, not confirmed; the receiver's
    # sequence number stays where it was, and the real sender carries on from it.
    caplog.set_level(logging.ERROR, logger="qsg.channels")
    with trio.fail_after(60):
        await _put(world, [b"first"])
        assert [body for body, _ in await _get(world, 1)] == [b"first"]
        await world.stop_channel("QM1", "QM1.TO.QM3")
        for _ in range(1000):  # its receiving agent ends when it hears the link close
            if "QM1.TO.QM3" not in world.qmgrs["QM3"].receivers:
                break
            await trio.sleep(0.01)
        await _put(world, [b"held"])  # on QM1's transmission queue while it is stopped
        answers = await hostile(world.conname("QM3"), hello(seq=1) + batch(first, b"forged"))
        assert "ok" not in [a["t"] for a in answers], why
        await world.start_channel("QM1", "QM1.TO.QM3")
        assert [body for body, _ in await _get(world, 2, wait_ms=5_000)] == [b"held"]
    lines = [r.getMessage() for r in caplog.records if "AMQ9526E" in r.getMessage()]
    assert len(lines) == 1 and lines[0].startswith("QM3: AMQ9526E")
    assert f"sequence number {first} has been sent when sequence number 2 was expected" in lines[0]


# ---- the receiving MCA and each completion code ----------------------------------------
@keeps(
    "docs/channels.md",
    "a put that completes with **MQCC_WARNING** stored its message, and is delivered like any "
    "other",
)
@keeps("docs/channels.md", "keeps Priority 20 in its descriptor")
@keeps("docs/channels.md", "Priority 20 crosses the channel and the channel stays RUNNING")
@keeps(
    "docs/mq-rules.md",
    (
        "A put that completes with a warning (2049) is delivered by the receiving MCA, and put to "
        "the dead-letter queue once when it goes there."
    ),
)
async def test_a_put_that_completes_with_a_warning_is_delivered_and_the_channel_runs_on(
    virtual_clock: VirtualClock, caplog: pytest.LogCaptureFixture
) -> None:
    # MQPUT "Priority": above the maximum, "the message is accepted ... but placed on the
    # queue at the queue manager's maximum priority ... MQCC_WARNING with reason code
    # MQRC_PRIORITY_EXCEEDS_MAXIMUM" and "the Priority field retains the value specified".
    # A warning is a successful put, at the receiving MCA as anywhere.
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        await _put(world, [b"urgent"], Priority=20)
        await _put(world, [b"after"])
        got = await _get(world, 2)
        assert [(body, md.Priority) for body, md in got] == [(b"urgent", 20), (b"after", 0)]
        states = [e.state for e in world.events.of(ChannelStateChanged) if e.q_mgr == "QM1"]
        assert states == ["BINDING", "RUNNING"]
    assert not [r for r in caplog.records if "AMQ95" in r.getMessage()]


@keeps(
    "docs/channels.md",
    "a put that **fails** sends the message to the dead-letter queue behind an MQDLH whose "
    "Reason is the put's reason code",
)
@keeps("docs/channels.md", "a warning from that put is a success too")
@keeps(
    "docs/channels.md",
    "a Priority-20 message to a queue that does not exist is dead-lettered once, with Reason 2085",
)
@keeps(
    "docs/mq-rules.md",
    (
        "A put that completes with a warning (2049) is delivered by the receiving MCA, and put to "
        "the dead-letter queue once when it goes there."
    ),
)
async def test_a_message_put_to_the_dead_letter_queue_with_a_warning_is_dead_lettered_once(
    virtual_clock: VirtualClock,
) -> None:
    # The put to the dead-letter queue completes with the same warning: the message is
    # there, behind an MQDLH whose Reason is why the destination refused it (2085), once.
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        remote = await (await world.connect("QM1")).open("TO.NOWHERE", CMQC.MQOO_OUTPUT)
        with pytest.raises(MQMIError, match=r"2049"):
            await remote.put(b"lost?", MD(Priority=20, Persistence=PERSISTENT), NO_SYNC)
        await _put(world, [b"after"])
        assert [body for body, _ in await _get(world, 1)] == [b"after"]
        dead = await _get(world, 5, queue="SYSTEM.DEAD.LETTER.QUEUE", wait_ms=0)
        assert len(dead) == 1
        data, md = dead[0]
        header = DLH.unpack(data, md.Encoding)
        assert (header.Reason, header.DestQName.rstrip()) == (2085, b"NO.SUCH.QUEUE")
        assert data.endswith(b"lost?") and md.Priority == 20
        assert [e.reason for e in world.events.of(DeadLettered)] == [2085]


@keeps("docs/edges.md", "the message left on the sender's transmission queue")
@keeps(
    "docs/channels.md",
    "a message that can be neither put nor dead-lettered **stops the channel**: its batch is "
    "backed out at both ends, the message stays on the sender's transmission queue, and the "
    "sender goes to STOPPED, not RETRYING",
)
@keeps(
    "docs/channels.md",
    'The line is modelled on AMQ9565E ("No dead-letter queue defined") when there is none',
)
@keeps(
    "docs/channels.md",
    "with no dead-letter queue the channel stops with the message on the transmission queue",
)
@keeps(
    "docs/events.md",
    "a sender the receiver stopped for such a message is STOPPED with that line",
)
@keeps(
    "docs/mq-rules.md",
    (
        "A message neither put nor dead-lettered is left on the transmission queue and the channel "
        "stopped."
    ),
)
async def test_a_message_neither_put_nor_dead_lettered_stops_the_channel_and_stays_on_the_xmitq(
    virtual_clock: VirtualClock, caplog: pytest.LogCaptureFixture
) -> None:
    # "Dead-letter queues": with none, "the MCA is unable to put a message, it is left on
    # the transmission queue and the channel is stopped". Not retried for ever.
    caplog.set_level(logging.ERROR, logger="qsg.channels")
    topology = qsg_and_qm3()
    topology.qmgrs["QM3"].options["dead_letter_queue"] = None
    async with qsg.start(topology, in_process=True) as world:
        remote = await (await world.connect("QM1")).open("TO.NOWHERE", CMQC.MQOO_OUTPUT)
        await remote.put(b"stuck", MD(Persistence=PERSISTENT), NO_SYNC)
        await trio.sleep(3600)
        changes = [e for e in world.events.of(ChannelStateChanged) if e.q_mgr == "QM1"]
        assert [e.state for e in changes] == ["BINDING", "RUNNING", "STOPPED"]
        assert "AMQ9565E" in changes[-1].detail and "2085" in changes[-1].detail
        assert world.qmgrs["QM1"].rules.depth("QM3") == 1
        assert world.qmgrs["QM3"].rules.depth("APP.IN") == 0
    lines = [r.getMessage() for r in caplog.records]
    assert len([line for line in lines if line.startswith("QM3: AMQ9565E")]) == 1


@keeps("docs/channels.md", "START CHANNEL after the cause is mended sends it again.")
async def test_start_channel_once_the_cause_is_mended_sends_the_stopped_message_again(
    virtual_clock: VirtualClock,
) -> None:
    # The channel stopped with the message on QM1's transmission queue (as above); the
    # queue it was going to is defined on QM3, START CHANNEL, and it arrives, once.
    topology = qsg_and_qm3()
    topology.qmgrs["QM3"].options["dead_letter_queue"] = None
    async with qsg.start(topology, in_process=True) as world:
        remote = await (await world.connect("QM1")).open("TO.NOWHERE", CMQC.MQOO_OUTPUT)
        await remote.put(b"stuck", MD(Persistence=PERSISTENT), NO_SYNC)
        await trio.sleep(60)
        last = [e for e in world.events.of(ChannelStateChanged) if e.q_mgr == "QM1"][-1]
        assert last.state == "STOPPED" and world.qmgrs["QM1"].rules.depth("QM3") == 1
        reply = await admin.command(world, "QM3", "DEFINE QLOCAL(NO.SUCH.QUEUE)")
        assert not reply.failed, reply.text
        await world.start_channel("QM1", "QM1.TO.QM3")
        got = await _get(world, 2, queue="NO.SUCH.QUEUE")
        assert [body for body, _ in got] == [b"stuck"]
        assert world.qmgrs["QM1"].rules.depth("QM3") == 0


@keeps(
    "docs/channels.md",
    "A channel that is STOPPED (by STOP CHANNEL, or its retries exhausted) starts again.",
)
async def test_start_channel_of_a_channel_stopped_after_its_retries_starts_it_again(
    virtual_clock: VirtualClock,
) -> None:
    # "STOP CHANNEL" and retries exhausted both leave a channel STOPPED; START CHANNEL
    # starts a stopped channel. (It was a silent no-op after retries ran out.)
    topology = qsg_and_qm3()
    topology.mqsc(
        "QM1", "ALTER CHANNEL(QM1.TO.QM3) CHLTYPE(SDR) SHORTRTY(1) SHORTTMR(5) LONGRTY(0)"
    )
    async with qsg.start(topology, in_process=True) as world:
        await world.stop_channel("QM1", "QM1.TO.QM3")
        await world.kill("QM3")
        await world.start_channel("QM1", "QM1.TO.QM3")
        await trio.sleep(60)
        last = [e for e in world.events.of(ChannelStateChanged) if e.q_mgr == "QM1"][-1]
        assert last.state == "STOPPED" and last.detail.startswith("retries exhausted")
        await world.restart("QM3")
        await world.start_channel("QM1", "QM1.TO.QM3")
        await _put(world, [b"again"])
        assert [body for body, _ in await _get(world, 1)] == [b"again"]


# ---- channel authentication: the partner's queue manager name ------------------------
@keeps("docs/edges.md", "from a partner channel authentication blocks (AMQ9777E)")
@keeps(
    "docs/channels.md",
    "A receiving queue manager checks the partner queue manager's name its hello gives against "
    "its channel authentication records of TYPE(QMGRMAP)",
)
@keeps("docs/channels.md", "NOACCESS refuses the start with a line modelled on AMQ9777E")
@keeps("docs/channels.md", "a partner a QMGRMAP record blocks is refused with AMQ9777E")
@keeps(
    "docs/mq-rules.md",
    (
        "A QMGRMAP record with USERSRC(NOACCESS) blocks a partner queue manager (AMQ9777E); the "
        "most specific record decides."
    ),
)
@keeps("docs/security.md", "a NOACCESS match refuses the start with a line modelled on AMQ9777E")
async def test_a_partner_queue_manager_a_qmgrmap_record_blocks_is_refused_with_amq9777e(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # "Blocking access from a remote queue manager": SET CHLAUTH(channel) TYPE(QMGRMAP)
    # QMNAME(generic) USERSRC(NOACCESS), with a more specific record letting QM1 in.
    caplog.set_level(logging.ERROR, logger="qsg.channels")
    topology = tcp_pair(free_port())
    topology.qmgrs["QM3"].options["channel_auth"] = [
        QMgrMap("QM1.TO.*", "*", UserSource.NOACCESS),
        QMgrMap("QM1.TO.QM3", "QM1", UserSource.CHANNEL),
    ]
    async with qsg.start(topology, in_process=True) as world:
        with trio.fail_after(30):
            await _put(world, [b"from QM1"])
            assert [body for body, _ in await _get(world, 1)] == [b"from QM1"]
            await world.stop_channel("QM1", "QM1.TO.QM3")
            for _ in range(1000):
                if "QM1.TO.QM3" not in world.qmgrs["QM3"].receivers:
                    break
                await trio.sleep(0.01)
            conname = world.conname("QM3")
            wrong = frame({"t": "hello", "channel": "QM1.TO.QM3", "from": "QM9", "seq": 1})
            answers = await hostile(conname, wrong + batch(2))
            assert [a["t"] for a in answers] == ["refused"]
            assert answers[0]["reason"].startswith("AMQ9777E: Channel was blocked")
            assert world.qmgrs["QM3"].syncq["QM1.TO.QM3"].committed == 1
    (line,) = [r.getMessage() for r in caplog.records if "AMQ9777E" in r.getMessage()]
    assert "'QMNAME(QM9)'" in line and "inbound channel 'QM1.TO.QM3'" in line


# ---- a rogue peer, at random ------------------------------------------------------------
async def _rogue(qm: Any, payload: bytes) -> list[dict[str, Any]]:
    """A peer of ``qm``'s receiving agent over an in-process stream: its answers."""
    ours, theirs = trio.testing.memory_stream_pair()
    unpacker = msgpack.Unpacker(raw=False)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(run_receiver, qm, theirs)  # its failure fails the test
        await ours.send_all(payload)
        with trio.move_on_after(5):
            with contextlib.suppress(trio.BrokenResourceError):
                while chunk := await ours.receive_some(1 << 16):
                    unpacker.feed(chunk)
        await ours.aclose()
    return list(unpacker)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    numbers=st.lists(
        st.one_of(st.integers(-2, 6), st.sampled_from([2**62, DEFAULT_SEQWRAP, 2**63])),
        min_size=1,
        max_size=4,
    ),
    lying=st.booleans(),
)
def test_a_rogue_peer_replaying_or_skipping_sequence_numbers_loses_no_message(
    numbers: list[int], lying: bool
) -> None:
    # Between two runs of the real channel a peer starts QM1.TO.QM3 (saying the receiver's
    # own sequence number, or a wrong one: ``lying``) and sends batches numbered at
    # random. A batch is put only when its number is the next (the peer then knew it, as
    # any partner can); any other is refused with nothing put. Whatever it did, each
    # message the real sender held is delivered once or is still on its transmission
    # queue, the channel refused (AMQ9526E) until the numbers agree: never lost, never
    # twice.
    async def main() -> None:
        async with qsg.start(qsg_and_qm3(), in_process=True) as world:
            qm3 = world.qmgrs["QM3"]
            await _put(world, [b"real-0", b"real-1"])
            await trio.sleep(5)
            await world.stop_channel("QM1", "QM1.TO.QM3")
            await _put(world, [b"held-0", b"held-1", b"held-2"])
            forged = 0
            for number in numbers:
                committed = qm3.syncq["QM1.TO.QM3"].committed
                said = committed + 7 if lying else committed
                answers = await _rogue(qm3, hello(seq=said) + batch(number, b"forged"))
                kinds = [a["t"] for a in answers]
                if not lying and number == committed + 1:
                    assert kinds == ["status", "ok"]
                    forged += 1
                else:
                    assert "ok" not in kinds
            await world.start_channel("QM1", "QM1.TO.QM3")
            await trio.sleep(120)
            bodies = [body for body, _ in await _get(world, 20, wait_ms=0)]
            assert bodies.count(b"forged") == forged
            assert bodies[:2] == [b"real-0", b"real-1"]
            held = [b for b in bodies if b.startswith(b"held")]
            assert held in ([b"held-0", b"held-1", b"held-2"], [])
            assert world.qmgrs["QM1"].rules.depth("QM3") == 3 - len(held)
            assert bool(held) == (forged == 0)

    qsg.run(main)
