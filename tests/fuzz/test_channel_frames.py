"""Channel frames on a real TCP listener, from peers that are not the channel's sender:
a hijacker that says hello as the running channel QM1.TO.QM3, a peer that starts the
idle channel QM9.TO.QM3 and numbers its batches at random (the next, a replay, a skip,
going back, any number), and garbage after a hello; while the real sender delivers.

MQ refuses a second instance of a running channel (AMQ9514E "Channel is in use"), ends
a channel whose batch does not carry the next message sequence number (AMQ9526E
"Message sequence number error for channel") with nothing of it put, and ends a
connection that sends what is not a flow (AMQ9504E "A protocol error was detected for
channel"). So, whatever the peers send: every real message is delivered once and in
order, a forged message only when its batch was the next of the idle channel (any
partner that knows the number can send that), none through the hijacked channel, and
the listener and every queue manager live on.

The default run is short (``./dev test``); ``-m slow`` runs the long one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
import trio
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import qsg
from actors.world import World
from coupling.server import free_port
from qsg import CMQC, GMO, MD, PMO, XQH, MQMIError
from qsg.core.channels import DEFAULT_SEQWRAP, following
from tests.test_channel_guards import frame, hostile, tcp_pair

RUNNING, IDLE = "QM1.TO.QM3", "QM9.TO.QM3"
NO_SYNC = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)


@dataclass(frozen=True)
class Peer:
    channel: str  # RUNNING (a hijack) or IDLE
    q_mgr: str  # the queue manager it says it is
    hello_off: int | None  # its hello's number, from the receiver's: None, any number
    hello_any: int
    batches: tuple[tuple[str, int, int], ...]  # (how numbered, any number, messages)
    garbage: bytes  # after the batches


NUMBERING = ["next", "replay", "skip", "back", "any", "zero", "wrap"]
PEERS = st.builds(
    Peer,
    channel=st.sampled_from([RUNNING, IDLE, IDLE]),
    q_mgr=st.sampled_from(["QM1", "QM9"]),
    hello_off=st.sampled_from([0, 0, 0, 1, -1, 5, None]),
    hello_any=st.integers(0, DEFAULT_SEQWRAP),
    # Any number msgpack carries (-2**63 .. 2**64 - 1): a peer can send no other.
    batches=st.lists(
        st.tuples(st.sampled_from(NUMBERING), st.integers(-(2**63), 2**64 - 1), st.integers(1, 3)),
        max_size=4,
    ).map(tuple),
    garbage=st.one_of(st.just(b""), st.binary(max_size=64)),
)


def _number(how: str, committed: int, anything: int) -> int:
    """The first sequence number of a batch, numbered ``how`` from ``committed``."""
    return {
        "next": following(committed),
        "replay": committed,
        "skip": following(committed, 3),
        "back": max(committed - 2, 0),
        "any": anything,
        "zero": 0,
        "wrap": DEFAULT_SEQWRAP,
    }[how]


def _batch(first: Any, bodies: list[bytes]) -> bytes:
    messages = [
        {"md": {}, "data": XQH(b"APP.IN", b"QM3", MD(Persistence=1)).pack() + b, "age": 0}
        for b in bodies
    ]
    return frame({"t": "batch", "seq": first, "messages": messages})


async def _get_all(world: World, wait_ms: int, most: int = 10_000) -> list[bytes]:
    q = await (await world.connect("QM3")).open("APP.IN", CMQC.MQOO_INPUT_SHARED)
    got: list[bytes] = []
    while len(got) < most:
        gmo = GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, WaitInterval=wait_ms)
        try:
            got.append(await q.get(None, MD(), gmo))
        except MQMIError as error:
            if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
                raise
            break
    return got


async def _probe(world: World, n: int, peer: Peer) -> int:
    """Send ``peer``'s flows to QM3's listener: how many of its forged messages MQ's
    rules let in (batches of the idle channel numbered the next, from a start whose
    numbers agreed, each before the first that was not)."""
    receivers = world.qmgrs["QM3"].receivers
    for _ in range(500):  # the last peer's agent on the idle channel ends as it sees it go
        if IDLE not in receivers:
            break
        await trio.sleep(0.01)
    sync = world.qmgrs["QM3"].syncq.get(peer.channel)
    committed = sync.committed if sync is not None else 0
    said = peer.hello_any if peer.hello_off is None else committed + peer.hello_off
    said = min(max(said, 0), DEFAULT_SEQWRAP)
    payload = frame({"t": "hello", "channel": peer.channel, "from": peer.q_mgr, "seq": said})
    running = peer.channel in receivers
    accepted, taken, agreeing = 0, 0, not running and said == committed
    expected = committed
    for i, (how, anything, count) in enumerate(peer.batches):
        first = _number(how, expected, anything)
        bodies = [b"forged-%d-%d-%d" % (n, i, k) for k in range(count)]
        payload += _batch(first, bodies)
        if agreeing and first == following(expected):
            accepted += count
            taken += 1
            expected = following(expected, count)
        else:
            agreeing = False
    answers = await hostile(world.conname("QM3"), payload + peer.garbage, seconds=0.3)
    if running:
        assert [a["t"] for a in answers] == ["refused"], answers
        assert "AMQ9514E" in answers[0]["reason"]
    # Each batch taken was confirmed ("ok"), and only those.
    assert len([a for a in answers if a.get("t") == "ok"]) == taken, answers
    return accepted


def run_peers(peers: list[Peer]) -> None:
    async def main() -> None:
        async with qsg.start(_topology(), in_process=True) as world:
            with trio.fail_after(120):
                remote = await (await world.connect("QM1")).open("TO.QM3", CMQC.MQOO_OUTPUT)
                # The real channel running first (its first message across): a hello as
                # QM1.TO.QM3 from then on is a second instance.
                await remote.put(b"real-first", MD(Persistence=1), NO_SYNC)
                assert await _get_all(world, 20_000, most=1) == [b"real-first"]
                real: list[bytes] = []
                forged = 0
                for n, peer in enumerate(peers):
                    body = b"real-%d" % n
                    await remote.put(body, MD(Persistence=CMQC.MQPER_PERSISTENT), NO_SYNC)
                    real.append(body)
                    forged += await _probe(world, n, peer)
                await remote.put(b"real-last", MD(Persistence=1), NO_SYNC)
                real.append(b"real-last")
                # Everything due, then nothing more (a duplicate would be there by now).
                got = await _get_all(world, 20_000, most=len(real) + forged)
                got += await _get_all(world, 300)
                assert [b for b in got if b.startswith(b"real-")] == real
                assert len([b for b in got if b.startswith(b"forged-")]) == forged
                assert all(qm.alive for qm in world.qmgrs.values())
                assert world.qmgrs["QM3"].rules.depth("SYSTEM.DEAD.LETTER.QUEUE") == 0
                assert world.qmgrs["QM1"].rules.depth("QM3") == 0

    qsg.run(main, wall_clock=True)


def _topology() -> qsg.Topology:
    top = tcp_pair(free_port())
    top.mqsc("QM3", "DEFINE CHANNEL(QM9.TO.QM3) CHLTYPE(RCVR) TRPTYPE(TCP)")
    return top


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(peers=st.lists(PEERS, min_size=1, max_size=3))
@example(  # the hijack of issue 43: a batch numbered 2**62 on the running channel
    peers=[Peer(RUNNING, "QM1", 0, 0, (("any", 2**62, 1),), b"")]
)
@example(  # the idle channel: the next, then a replay of it, then a skip
    peers=[Peer(IDLE, "QM9", 0, 0, (("next", 0, 2), ("replay", 0, 1), ("skip", 0, 1)), b"")]
)
def test_peers_on_a_real_listener_lose_no_message_and_put_only_what_mq_accepts(
    peers: list[Peer],
) -> None:
    run_peers(peers)


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(peers=st.lists(PEERS, min_size=1, max_size=5))
def test_many_peers_on_a_real_listener_lose_no_message_and_put_only_what_mq_accepts(
    peers: list[Peer],
) -> None:
    run_peers(peers)
