"""A channel listener never trusts its input (issue 26).

A malformed, truncated or oversized frame sent to a receiving channel ends that
connection only, with the error line a channel initiator writes, AMQ9504E "A protocol
error was detected for channel" (IBM MQ messages, AMQ9xxx); a count or length bigger
than a flow can hold is refused as it is read, not waited for; a batch with a message
that can be neither put nor dead-lettered is backed out and the channel stopped with
AMQ9565E "No dead-letter queue defined". The listener and every queue manager of the
process live on, and a real sender still delivers across the channel afterwards.

The probes start channel QM9.TO.QM3, defined on QM3 and not otherwise used: QM1.TO.QM3
runs, and a second instance of it would be refused at the hello (AMQ9514E,
tests/test_channel_guards.py) before any of the junk that follows was read.
"""

from __future__ import annotations

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
from actors import wire
from actors.channel import run_receiver
from actors.events import ChannelStateChanged
from actors.world import World
from coupling.server import free_port
from qsg import CMQC, GMO, MD, PMO, XQH
from tests.claims import keeps

RCVR_MQSC = """
DEFINE QLOCAL(APP.IN)
DEFINE CHANNEL(QM1.TO.QM3) CHLTYPE(RCVR) TRPTYPE(TCP)
DEFINE CHANNEL(QM9.TO.QM3) CHLTYPE(RCVR) TRPTYPE(TCP)
"""


def two_listeners(port: int) -> qsg.Topology:
    """QM1 sends to QM3's listener at 127.0.0.1(port); QM1 listens too, on a port of its
    own, with no receiving channel defined."""
    top = qsg.Topology()
    top.add_qmgr("QM1", listener=0)
    top.add_qmgr("QM3", listener=port)
    top.mqsc(
        "QM1",
        f"""
        DEFINE QLOCAL(QM3) USAGE(XMITQ)
        DEFINE QREMOTE(TO.QM3) RNAME(APP.IN) RQMNAME(QM3) XMITQ(QM3)
        DEFINE CHANNEL(QM1.TO.QM3) CHLTYPE(SDR) TRPTYPE(TCP) CONNAME('127.0.0.1({port})') +
               XMITQ(QM3) SHORTRTY(50) SHORTTMR(1)
    """,
    )
    top.mqsc("QM3", RCVR_MQSC)
    return top


def frame(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)  # type: ignore[no-any-return]


HELLO = frame({"t": "hello", "channel": "QM9.TO.QM3", "from": "QM9", "seq": 0})
XQH_DATA = XQH(b"APP.IN", b"QM3", MD()).pack() + b"body"


def batch_of(message: Any, seq: Any = 1) -> bytes:
    return frame({"t": "batch", "seq": seq, "messages": [message]})


#: What an unlucky network or a hostile client sends, each on a connection of its own.
GARBAGE: dict[str, bytes] = {
    "not msgpack": b"\xc1\xc1\xc1 GET / HTTP/1.1\r\n\r\n",
    "not a map": frame([1, 2, 3]),
    "a map with no flow type": frame({"channel": "QM1.TO.QM3"}),
    "a list as a map key": b"\x81\x91\x01\x02",
    "hello with a number for a channel": frame({"t": "hello", "channel": 7, "from": "QM9"}),
    "hello naming a 300-character channel": frame(
        {"t": "hello", "channel": "C" * 300, "from": "QM9"}
    ),
    "an oversized hello": frame({"t": "hello", "channel": "X" * (wire.HELLO_LIMIT + 10)}),
    "a batch before the hello": batch_of({"md": {}, "data": XQH_DATA, "age": 0}),
    "a truncated hello": HELLO[:-3],
    "a batch whose messages are not a list": HELLO + frame({"t": "batch", "seq": 1, "messages": 5}),
    "a message shorter than an MQXQH": HELLO + batch_of({"md": {}, "data": b"XQH ", "age": 0}),
    "an MQMD field MQ does not have": HELLO
    + batch_of({"md": {"Colour": 1}, "data": XQH_DATA, "age": 0}),
    "an MQLONG out of range": HELLO
    + batch_of({"md": {"Expiry": 2**40}, "data": XQH_DATA, "age": 0}),
    "a negative age": HELLO + batch_of({"md": {}, "data": XQH_DATA, "age": -5.0}),
    "a batch numbered by a string": HELLO
    + batch_of({"md": {}, "data": XQH_DATA, "age": 0}, seq="1"),
    "a batch of more messages than the batch size agreed": HELLO
    + frame({"t": "batch", "seq": 1, "messages": [{"md": {}, "data": XQH_DATA, "age": 0}] * 51}),
    # A header announcing a million messages and nothing after it: refused as it is read.
    "a batch announcing a million messages": HELLO
    + b"\x83\xa1t\xa5batch\xa3seq\x01\xa8messages\xdd\x00\x0f\x42\x40",
    "an MQXQH of version 2": HELLO
    + batch_of({"md": {}, "data": XQH_DATA[:4] + b"\x02\x00\x00\x00" + XQH_DATA[8:], "age": 0}),
    "an MQXQH whose MsgDesc is not an MQMD": HELLO
    + batch_of({"md": {}, "data": XQH_DATA[:104] + b"XX  " + XQH_DATA[108:], "age": 0}),
    "a hello without its sequence number": frame(
        {"t": "hello", "channel": "QM9.TO.QM3", "from": "QM9"}
    ),
    "a truncated batch": (HELLO + batch_of({"md": {}, "data": XQH_DATA, "age": 0}))[:-10],
}


async def _send_and_wait_for_close(conname: str, payload: bytes) -> bytes:
    """Connect to a listener, send ``payload``, and read until the listener closes (or,
    for a truncated frame, until it has read what it was given: then we close)."""
    host, port = conname.rstrip(")").split("(")
    stream = await trio.open_tcp_stream(host, int(port))
    received = b""
    async with stream:
        try:
            await stream.send_all(payload)
        except trio.BrokenResourceError:
            return received  # closed on us mid-send: what an oversized frame earns
        with trio.move_on_after(0.5):
            try:
                while chunk := await stream.receive_some(1 << 16):
                    received += chunk
            except trio.BrokenResourceError:
                pass  # reset rather than closed: the same end
            return received
    return received


@pytest.fixture
async def world() -> AsyncIterator[World]:
    async with qsg.start(two_listeners(free_port()), in_process=True) as world:
        yield world


async def _put_and_get_across(world: World, body: bytes) -> bytes:
    conn = await world.connect("QM1")
    remote = await conn.open("TO.QM3", CMQC.MQOO_OUTPUT)
    await remote.put(body, MD(), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT))
    target = await (await world.connect("QM3")).open("APP.IN", CMQC.MQOO_INPUT_SHARED)
    gmo = GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, WaitInterval=20_000)
    return await target.get(None, MD(), gmo)  # type: ignore[no-any-return]


@keeps(
    "docs/edges.md",
    "Any of these ends **that connection only**. The listener, the queue manager and every other "
    "queue manager of the process go on",
)
@keeps(
    "docs/edges.md",
    "a frame bigger than its limit: 64 KiB until the sender has named its channel",
)
@keeps(
    "docs/edges.md",
    "a list of more than 9,999 items (BATCHSZ's largest), a map of more than 64 fields, is "
    "refused as it is read, before anything is built or waited for",
)
@keeps(
    "docs/edges.md",
    "The lines go to the Python logger `qsg.channels` at ERROR (with no logging configured, to "
    "standard error), and each is also a `channel-state` event of the receiving queue manager "
    "with state `INACTIVE`",
)
@keeps(
    "docs/edges.md",
    "naming the queue manager, the channel (`?` when the sender never named one), the remote "
    "address",
)
@keeps(
    "docs/events.md",
    "a receiving agent that ended a connection for a protocol error (AMQ9504E)",
)
@keeps(
    "docs/security.md",
    (
        "every frame is bounded before it is read whole (64 KiB until the sender names its "
        "channel; then what the agreed batch size can hold) and every count in it is checked "
        "before anything is built; a flow of the wrong kind or shape ends that connection only"
    ),
)
async def test_garbage_sent_to_every_listener_ends_only_its_connection(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="qsg.channels")
    with trio.fail_after(60):
        assert await _put_and_get_across(world, b"before") == b"before"
        for name in ("QM1", "QM3"):
            for payload in GARBAGE.values():
                await _send_and_wait_for_close(world.conname(name), payload)
        assert all(qm.alive for qm in world.qmgrs.values())
        assert await _put_and_get_across(world, b"after") == b"after"
    lines = [r.getMessage() for r in caplog.records]
    protocol = [line for line in lines if "AMQ9504E" in line]
    # Every malformed payload earned its own line, naming where it came from; a truncated
    # one ends when we close, as a sender that went (no line); QM1 has no receiving
    # channel, so it refuses a hello (no line) before the junk that follows it.
    truncated = 2
    after_hello = sum(p.startswith(HELLO) for p in GARBAGE.values()) - 1
    assert sum(line.startswith("QM3: ") for line in protocol) == len(GARBAGE) - truncated
    assert sum(line.startswith("QM1: ") for line in protocol) == (
        len(GARBAGE) - after_hello - truncated
    )
    assert all("from 127.0.0.1(" in line for line in protocol)
    assert any("for channel '?' from 127.0.0.1(" in line for line in protocol)  # no hello
    assert any("a frame of more than 65536 bytes" in line for line in protocol)
    assert any("'QM9.TO.QM3'" in line and "MQXQH" in line for line in protocol)
    assert any("exceeds max_array_len(9999)" in line for line in protocol)
    ended = [e for e in world.events.of(ChannelStateChanged) if e.state == "INACTIVE"]
    assert len([e for e in ended if "AMQ9504E" in e.detail]) == len(protocol)
    # A channel whose partner went without closing it ends on an error too (AMQ9209E).
    assert all("AMQ9504E" in e.detail or "AMQ9209E" in e.detail for e in ended)


@keeps(
    "docs/edges.md",
    "A batch with a message that can be neither put nor dead-lettered (a destination that does "
    "not exist on a queue manager without a dead-letter queue) is backed out whole and the "
    "channel stops",
)
@keeps("docs/channels.md", "its batch is backed out at both ends")
@keeps(
    "docs/security.md",
    (
        "one that can be neither put nor dead-lettered stops the channel with the message left on "
        "the transmission queue"
    ),
)
async def test_a_batch_with_a_message_neither_put_nor_dead_lettered_is_backed_out_and_stops(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    # QM3 has no dead-letter queue, and no queue NO.SUCH.Q: the batch's first message
    # lands, its second cannot, and both go back (nothing of the batch stays). The
    # channel ends with AMQ9565E "No dead-letter queue defined", and its error flow says
    # it stops: a real sender goes to STOPPED with the message on its transmission queue.
    caplog.set_level(logging.ERROR, logger="qsg.channels")
    qm3 = world.qmgrs["QM3"]
    qm3.rules.dead_letter_queue = ""
    nowhere = XQH(b"NO.SUCH.Q", b"QM3", MD()).pack() + b"lost"
    payload = HELLO + frame(
        {
            "t": "batch",
            "seq": 1,
            "messages": [
                {"md": {}, "data": XQH_DATA, "age": 0},
                {"md": {}, "data": nowhere, "age": 0},
            ],
        }
    )
    with trio.fail_after(30):
        unpacker = msgpack.Unpacker(raw=False)
        unpacker.feed(await _send_and_wait_for_close(world.conname("QM3"), payload))
        answers = list(unpacker)
        assert qm3.alive and qm3.rules.depth("APP.IN") == 0
        assert await _put_and_get_across(world, b"after") == b"after"
    assert [a["t"] for a in answers] == ["status", "error"] and answers[1]["stop"] is True
    (line,) = [r.getMessage() for r in caplog.records if "AMQ9565E" in r.getMessage()]
    assert line == answers[1]["reason"].join(("QM3: ", ""))
    assert "channel 'QM9.TO.QM3' stops, its batch backed out" in line
    assert "MQRC_UNKNOWN_OBJECT_NAME (2085)" in line


# ---- random input to the receiving agent --------------------------------------------------
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63), 2**64 - 1),
    st.floats(),
    st.text(max_size=30),
    st.binary(max_size=500),
)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=12,
)
_md_fields = st.dictionaries(
    st.sampled_from(
        [
            "Expiry",
            "Priority",
            "Encoding",
            "Persistence",
            "MsgId",
            "Format",
            "MsgType",
            "Version",
            "Junk",
        ]
    ),
    _scalars,
    max_size=4,
)
_xqh_data = st.builds(
    lambda q, head, body: XQH(q, b"QM3", MD()).pack()[: len(head)] + head + body,
    st.sampled_from([b"APP.IN", b"NO.SUCH", b"\xff\xfe", b""]),
    st.binary(max_size=440),
    st.binary(max_size=20),
)
_messages = st.fixed_dictionaries(
    {
        "md": _md_fields,
        "data": st.one_of(_xqh_data, st.binary(max_size=40)),
        "age": st.one_of(st.floats(), st.integers(-5, 5)),
    }
)
_flows = st.one_of(
    st.binary(max_size=200),
    _values.map(frame),
    st.builds(
        lambda seq, ms: frame({"t": "batch", "seq": seq, "messages": ms}),
        st.integers(-3, 2**64 - 1),
        st.lists(_messages, max_size=3),
    ),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hello=st.booleans(), flows=st.lists(_flows, max_size=4))
@keeps(
    "docs/edges.md",
    "Each connection gets a receiving channel agent, which believes nothing it is sent before it "
    "has checked it",
)
@keeps("docs/security.md", "a flow of the wrong kind or shape ends that connection only")
def test_random_bytes_to_a_receiving_agent_raise_nothing_and_the_queue_manager_lives(
    hello: bool, flows: list[bytes]
) -> None:
    async def main() -> None:
        top = qsg.Topology()
        top.add_qmgr("QM3")
        top.mqsc("QM3", RCVR_MQSC)
        async with qsg.start(top, in_process=True) as world:
            qm = world.qmgrs["QM3"]
            ours, theirs = trio.testing.memory_stream_pair()
            async with trio.open_nursery() as nursery:
                nursery.start_soon(run_receiver, qm, theirs)  # its failure fails the test
                for flow in ([HELLO] if hello else []) + flows:
                    try:
                        await ours.send_all(flow)
                    except trio.BrokenResourceError:
                        break  # the agent closed the connection
                await trio.sleep(1)
                await ours.aclose()
            assert qm.alive
            conn = await world.connect("QM3")
            q = await conn.open("APP.IN", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
            await q.put(b"alive", MD(), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT))
            assert await q.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT)) == b"alive"

    qsg.run(main)


# ---- the batch size agreed bounds each batch and each frame ---------------------------
@keeps("docs/channels.md", "a batch of more messages is a protocol error (AMQ9504E)")
@keeps(
    "docs/channels.md",
    "a started channel's frame may hold no more than a batch of that size can (each message at "
    "most the queue manager's MAXMSGL), and never more than 1 GiB",
)
async def test_a_batch_past_the_agreed_size_and_a_frame_past_the_batchs_room_are_refused() -> None:
    message = {"md": {}, "data": b"", "age": 0}
    batch = {"t": "batch", "seq": 1, "messages": [message] * 3}
    with pytest.raises(wire.ProtocolError, match=r"3 messages, where 1 to 2 are agreed"):
        wire.batch(batch, 2)
    maxmsgl = 4 * 1024 * 1024
    room = wire.frame_limit(2, maxmsgl)
    assert 2 * maxmsgl < room  # two messages of MAXMSGL fit; each more adds about one
    assert maxmsgl < wire.frame_limit(3, maxmsgl) - room < 2 * maxmsgl
    assert wire.frame_limit(9999, 100 * 1024 * 1024) == wire.FRAME_LIMIT == 1 << 30
    # A receiver holding a started channel's frames to that room refuses one larger.
    ours, theirs = trio.testing.memory_stream_pair()
    frames = wire.Frames(theirs, limit=wire.frame_limit(1, 100))
    await ours.send_all(msgpack.packb({"t": "batch", "seq": 1, "messages": [b"x" * 200_000]}))
    with pytest.raises(wire.ProtocolError, match=r"a frame of more than \d+ bytes"):
        await frames.receive()


@keeps(
    "docs/edges.md",
    "The sender checks the receiver's answers the same way: a malformed answer is an AMQ9504E line "
    "of the sending queue manager, the detail of its channel's `RETRYING` state, and the channel "
    "retries.",
)
async def test_a_sender_given_a_malformed_answer_writes_amq9504e_and_retries(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # A "receiver" that answers QM1's hello with a batch confirmation instead of its
    # status: the sender refuses the answer as the receiver refuses a sender's junk.
    caplog.set_level(logging.ERROR, logger="qsg.channels")
    port = free_port()

    async def wrong_answer(stream: trio.SocketStream) -> None:
        async with stream:
            await stream.receive_some(wire.HELLO_LIMIT)
            await stream.send_all(frame({"t": "ok", "seq": 1}))
            await trio.sleep(5)

    async with trio.open_nursery() as nursery:
        await nursery.start(trio.serve_tcp, wrong_answer, port)
        top = qsg.Topology()
        top.add_qmgr("QM1")
        top.mqsc(
            "QM1",
            f"""
            DEFINE QLOCAL(QM3) USAGE(XMITQ)
            DEFINE CHANNEL(QM1.TO.QM3) CHLTYPE(SDR) TRPTYPE(TCP) +
                   CONNAME('127.0.0.1({port})') XMITQ(QM3) SHORTRTY(50) SHORTTMR(1)
            """,
        )
        with trio.fail_after(30):
            async with qsg.start(top, in_process=True) as world:
                events = world.events.subscribe()
                async for retrying in events:
                    if isinstance(retrying, ChannelStateChanged) and retrying.state == "RETRYING":
                        break
        nursery.cancel_scope.cancel()
    line = (
        "AMQ9504E: A protocol error was detected for channel 'QM1.TO.QM3' from "
        f"127.0.0.1({port}): a 'ok' flow where the channel status was due"
    )
    assert retrying.q_mgr == "QM1" and retrying.detail == line
    assert f"QM1: {line}" in [r.getMessage() for r in caplog.records]
