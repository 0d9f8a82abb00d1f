"""Server (SVR) and requester (RQSTR) channels in a running world (IBM MQ, "Requester-
server channel", "Channel definitions", "Message channels"): a requester started asks
its server, which sends it its transmission queue's messages; a fully qualified server
calls its requester as a sender calls; a requester's sender calls it back; a server
whose transmission queue is shared is a shared channel, moved by peer channel recovery
when its member dies; and what IBM refuses is refused in one line."""

from __future__ import annotations

import pytest
import trio

import qsg
from actors.admin import command
from actors.clock import VirtualClock
from actors.events import ChannelBatch, ChannelDelivered, ChannelRecovered, ChannelStateChanged
from actors.topology import Topology
from actors.world import World
from qsg import CMQC, GMO, MD, PMO
from tests.claims import keeps

NO_SYNC = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)

#: QM1 serves QM2: its server QM1.QM2 sends what is put to TO.QM2.
SERVING = """
    DEFINE QLOCAL(QM2.XMITQ) USAGE(XMITQ)
    DEFINE QREMOTE(TO.QM2) RNAME(APP.IN) RQMNAME(QM2) XMITQ(QM2.XMITQ)
    DEFINE CHANNEL(QM1.QM2) CHLTYPE(SVR) XMITQ(QM2.XMITQ) BATCHSZ(10) {svr}
"""
REQUESTING = """
    DEFINE QLOCAL(APP.IN)
    DEFINE CHANNEL(QM1.QM2) CHLTYPE({partner}) {rqstr}
"""


def pair(svr: str = "", rqstr: str = "CONNAME('QM1')", partner: str = "RQSTR") -> Topology:
    """QM1's server QM1.QM2 (``svr``: more of its attributes) and QM2's ``partner``
    channel of that name (a requester, ``rqstr`` its attributes)."""
    topology = Topology()
    topology.add_qmgr("QM1")
    topology.add_qmgr("QM2")
    topology.mqsc("QM1", SERVING.format(svr=svr), source="qm1")
    topology.mqsc("QM2", REQUESTING.format(partner=partner, rqstr=rqstr), source="qm2")
    return topology


async def put_persistent(world: World, q_mgr: str, count: int, queue: str = "TO.QM2") -> list[bytes]:
    conn = await world.connect(q_mgr)
    out = await conn.open(queue, CMQC.MQOO_OUTPUT)
    bodies = [b"m%03d" % i for i in range(count)]
    for body in bodies:
        await out.put(body, MD(Persistence=CMQC.MQPER_PERSISTENT), NO_SYNC)
    return bodies


async def drain(world: World, q_mgr: str = "QM2") -> list[bytes]:
    conn = await world.connect(q_mgr)
    app_in = await conn.open("APP.IN", CMQC.MQOO_INPUT_SHARED)
    got = []
    gmo = GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, WaitInterval=120_000)
    while True:
        try:
            got.append(await app_in.get(None, MD(), gmo))
        except qsg.MQMIError as error:
            if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
                raise
            return got


def states(world: World, q_mgr: str, channel: str = "QM1.QM2") -> list[str]:
    return [
        e.state
        for e in world.events.of(ChannelStateChanged)
        if e.q_mgr == q_mgr and e.channel == channel
    ]


@keeps(
    "docs/channels.md",
    "A requester started (`START CHANNEL` on its queue manager) calls its partner at "
    "CONNAME and asks it to start the channel",
)
async def test_a_started_requester_starts_its_server_which_sends_each_message_once(
    virtual_clock: VirtualClock,
) -> None:
    # "Requester-server channel": "The requester requests the server at the other end
    # of the channel to start. The server sends messages to the requester from the
    # transmission queue defined in its channel definition."
    async with qsg.start(pair(), seed=1, in_process=True) as world:
        bodies = await put_persistent(world, "QM1", 25)
        await trio.sleep(1)
        assert world.events.of(ChannelDelivered) == []  # nobody started anything yet
        reply = await command(world, "QM2", "START CHANNEL(QM1.QM2)")
        assert not reply.failed, reply.lines
        assert sorted(await drain(world)) == bodies
        assert states(world, "QM2")[:2] == ["REQUESTING", "RUNNING"]
        assert "RUNNING" in states(world, "QM1")
        batches = world.events.of(ChannelBatch)
        assert {b.q_mgr for b in batches} == {"QM1"} and sum(b.messages for b in batches) == 25
