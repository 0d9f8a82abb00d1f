"""Channels over TCP to a partner queue manager in another process (the issue's "a TCP
stream when the partner runs in another process"): the same frames, batches and expiry
rules as in process ("Expiry (MQLONG)" note 9: both Expiry fields decremented at each
hop), the sender's simulated time standing still while the partner answers."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio

import qsg
from actors.channel import DEFAULT_PORT, parse_conname
from actors.clock import VirtualClock
from actors.events import ChannelBatch, ChannelStateChanged
from qsg import CMQC, MD, PMO
from tests.claims import keeps

ROOT = Path(__file__).resolve().parent.parent


def sender_topology(conname: str) -> qsg.Topology:
    top = qsg.Topology()
    top.add_qmgr("QM1")
    top.mqsc(
        "QM1",
        f"""
        DEFINE QLOCAL(QM3) USAGE(XMITQ)
        DEFINE QREMOTE(TO.QM3) RNAME(APP.IN) RQMNAME(QM3) XMITQ(QM3)
        DEFINE CHANNEL(QM1.TO.QM3) CHLTYPE(SDR) TRPTYPE(TCP) CONNAME('{conname}') +
               XMITQ(QM3) BATCHSZ(2) SHORTRTY(3) SHORTTMR(5) LONGRTY(0)
        """,
    )
    return top


@pytest.fixture
def partner() -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """QM3 in another process (tests/partner.py), waiting for three messages."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.partner", "3"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    conname = proc.stdout.readline().strip()
    if not conname:
        proc.kill()
        pytest.fail(f"the partner did not start: {proc.communicate()[1]}")
    yield conname, proc
    proc.kill()
    proc.wait()


@keeps(
    "docs/world.md",
    "the sender's stands still while it connects and while a batch awaits its confirmation, and "
    "each message travels with its age, so both Expiry fields count the time on the transmission "
    "queue correctly on the other side.",
)
@keeps(
    "docs/channels.md",
    "one in another process through its TCP listener (`Topology.add_qmgr(..., listener=PORT)`, "
    "CONNAME `host(port)`)",
)
@keeps(
    "docs/channels.md",
    "The sender's simulated time stands still while a partner in another process answers",
)
async def test_messages_cross_a_tcp_channel_to_a_partner_in_another_process(
    virtual_clock: VirtualClock, partner: tuple[str, subprocess.Popen[str]]
) -> None:
    conname, proc = partner
    async with qsg.start(sender_topology(conname), in_process=True) as world:
        await world.stop_channel("QM1", "QM1.TO.QM3")
        conn = await world.connect("QM1")
        remote = await conn.open("TO.QM3", CMQC.MQOO_OUTPUT)
        for n in range(3):
            await remote.put(b"m%d" % n, MD(Expiry=600), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT))
        await trio.sleep(20)  # twenty seconds on the transmission queue
        events = world.events.subscribe()
        await world.start_channel("QM1", "QM1.TO.QM3")
        async for event in events:  # batches of 2 and 1, the last message numbered 3
            if isinstance(event, ChannelBatch) and event.sequence == 3:
                break
        # Simulated time stood still while the partner answered: the batches went at 20 s.
        assert [e.time for e in world.events.of(ChannelBatch)] == [20.0, 20.0]
        states = [e.state for e in world.events.of(ChannelStateChanged)]
    out, _ = proc.communicate(timeout=60)
    got = [json.loads(line) for line in out.splitlines()]
    assert [(g["body"], g["expiry"]) for g in got] == [("m0", 400), ("m1", 400), ("m2", 400)]
    assert states[-1] == "RUNNING"


@keeps(
    "docs/world.md",
    "States BINDING, RUNNING, RETRYING (SHORTRTY x SHORTTMR, then LONGRTY x LONGTMR) and STOPPED.",
)
async def test_a_tcp_channel_to_a_port_nobody_listens_on_retries_then_stops(
    virtual_clock: VirtualClock,
) -> None:
    with trio.socket.socket() as sock:  # a port that was free a moment ago
        await sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    async with qsg.start(sender_topology(f"127.0.0.1({port})"), in_process=True) as world:
        await trio.sleep(60)
        changes = world.events.of(ChannelStateChanged)
    assert [c.state for c in changes] == ["BINDING", "RETRYING", "RETRYING", "RETRYING", "STOPPED"]
    assert f"127.0.0.1({port})" in changes[1].detail
    assert [c.time for c in changes[1:]] == [0.0, 5.0, 10.0, 15.0]  # SHORTTMR(5) apart


@pytest.mark.parametrize(
    ("conname", "expected"),
    [
        ("127.0.0.1(1415)", ("127.0.0.1", 1415)),
        ("mvs1.example.com", ("mvs1.example.com", DEFAULT_PORT)),
        (" host ( 2000 ) ", ("host", 2000)),
    ],
)
@keeps("docs/world.md", "connects to `host(port)` (1414 if no port)")
def test_a_conname_is_host_with_an_optional_port_in_parentheses(
    conname: str, expected: tuple[str, int]
) -> None:
    assert parse_conname(conname) == expected


@pytest.mark.parametrize("conname", ["", "host(port)", "host(70000)", "a(1)(2)"])
def test_a_malformed_conname_is_refused_by_name(conname: str) -> None:
    with pytest.raises(ValueError, match="CONNAME"):
        parse_conname(conname)


@keeps(
    "docs/world.md",
    '`topology.add_qmgr("QM3", listener=1414)` (or `listener=0` for any free port, or '
    '`"host(port)"`) gives QM3 a TCP channel listener',
)
@keeps(
    "docs/security.md",
    "listens on the loopback address only (127.0.0.1) unless it is given a host",
)
def test_a_listener_is_given_as_a_port_or_host_and_port() -> None:
    top = qsg.Topology()
    top.add_qmgr("QM3", listener=1500)
    top.add_qmgr("QM4", listener="0.0.0.0(1501)")
    assert top.qmgrs["QM3"].listener == ("127.0.0.1", 1500)
    assert top.qmgrs["QM4"].listener == ("0.0.0.0", 1501)
