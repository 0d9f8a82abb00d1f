"""The group's address over TCP (``actors.groupaddress``): a real listening port for a
queue-sharing group that hands each connection to a member by the policy the world
uses in process (``qsg.core.groupaddress``), and, across OS processes, an inbound
channel through it that survives its member's SIGKILL (IBM MQ for z/OS, "Group
listener", "Defining a TCP connection for a queue sharing group")."""

from __future__ import annotations

import random
import textwrap
from collections import Counter
from functools import partial
from pathlib import Path

import pytest
import trio

import qsg
from actors import wire
from actors.admin import command
from actors.cflink import OnServer
from actors.clock import VirtualClock
from actors.events import ChannelStateChanged, MessageGot, OpCompleted
from actors.groupaddress import serve_address
from actors.topology import Topology
from actors.wire import real_io
from coupling import keys
from coupling.server import free_port
from qsg.chaos import processes
from qsg.core import groupaddress
from qsg.core.conname import parse_conname
from qsg.scenario import load_scenario
from tests.claims import keeps

MEMBERS = ("QM1", "QM2", "QM3")


def three_listeners() -> Topology:
    topology = Topology()
    topology.add_qsg("QSG1", members=list(MEMBERS))
    topology.mqsc(
        "QM1",
        """
        DEFINE CFSTRUCT(CSQSYSAPPL) CFLEVEL(5) RECOVER(YES)
        DEFINE QLOCAL(SYSTEM.QSG.CHANNEL.SYNCQ) QSGDISP(SHARED) CFSTRUCT(CSQSYSAPPL) +
               INDXTYPE(MSGID)
        """,
        source="qm1",
    )
    return topology


async def in_process_choices(seed: int, count: int) -> list[str]:
    """The members ``count`` connects to QSG1 reach in process, the world's random
    seeded with ``seed``."""
    async with qsg.start(three_listeners(), in_process=True) as world:
        for member in MEMBERS:
            reply = await command(world, member, "START LISTENER TRPTYPE(TCP) INDISP(GROUP)")
            assert not reply.failed, reply.lines
        world.random.seed(seed)
        chosen = []
        for _ in range(count):
            partner = world.group_partner("QSG1")
            assert partner is not None
            chosen.append(partner.name)
        return chosen


async def tcp_choices(seed: int, count: int, *, dead: str = "") -> list[str]:
    """The members ``count`` connects to a group's address over TCP reach, its random
    seeded with ``seed``: each member a port that says its name; ``dead``'s port is
    closed though the member is still published (killed, its lease not yet lapsed)."""
    async with trio.open_nursery() as nursery:
        published = {}
        for member in MEMBERS:
            if member == dead:  # a port nothing listens on
                published[member] = f"127.0.0.1({free_port()})"
                continue

            async def say(stream: trio.SocketStream, name: str = member) -> None:
                await stream.send_all(name.encode())

            listeners = await nursery.start(partial(trio.serve_tcp, say, 0, host="127.0.0.1"))
            port = listeners[0].socket.getsockname()[1]
            published[member] = f"127.0.0.1({port})"

        async def listening() -> dict[str, str]:
            return published

        rng = random.Random(seed)
        serve = partial(serve_address, "QSG1", "127.0.0.1", 0, listening, rng)
        port = await nursery.start(serve)
        chosen = []
        for _ in range(count):
            stream = await trio.open_tcp_stream("127.0.0.1", port)
            async with stream:
                chosen.append((await stream.receive_some(16)).decode())
        nursery.cancel_scope.cancel()
    return chosen


@keeps(
    "docs/channels.md",
    "Each member whose group listener runs (its channel initiator too) opens a group port "
    "of its own and publishes it in the coupling facility",
)
async def test_a_members_group_port_is_open_and_published_while_it_takes_group_connections(
    virtual_clock: VirtualClock, cf_url: str
) -> None:
    # The address hands connections only to the members the world would take in process
    # (QueueManager.takes_group_connections): START and STOP LISTENER, STOP and START
    # CHINIT open and close the port and publish it or take it back.
    topology = three_listeners()
    for member in MEMBERS:
        topology.qmgrs[member].group_host = "127.0.0.1"
    async with qsg.start(topology, redis_url=cf_url) as world:
        assert isinstance(world.link, OnServer)
        transport = world.link.transport

        async def published() -> dict[str, str]:
            raw = await transport.acommand("HGETALL", keys.group_listeners_key("QSG1"))
            return {raw[i].decode(): raw[i + 1].decode() for i in range(0, len(raw), 2)}

        for member in ("QM1", "QM2"):
            reply = await command(world, member, "START LISTENER TRPTYPE(TCP) INDISP(GROUP)")
            assert not reply.failed, reply.lines
        ports = await published()
        assert set(ports) == {"QM1", "QM2"}
        with real_io():
            stream = await trio.open_tcp_stream(*parse_conname(ports["QM1"]))
        await stream.aclose()
        await world.stop_chinit("QM2")
        assert set(await published()) == {"QM1"}
        await world.start_chinit("QM2")
        assert set(await published()) == {"QM1", "QM2"}
        reply = await command(world, "QM1", "STOP LISTENER TRPTYPE(TCP) INDISP(GROUP)")
        assert not reply.failed, reply.lines
        assert set(await published()) == {"QM2"}
        with real_io(), pytest.raises(OSError, match=r"[Cc]onnect"):
            await trio.open_tcp_stream(*parse_conname(ports["QM1"]))


@keeps(
    "docs/channels.md",
    "The choice of member is one piece of code (`qsg/core/groupaddress.py`), in process "
    "and over TCP",
)
async def test_the_group_address_over_tcp_hands_each_connection_to_the_member_the_world_would() -> (
    None
):
    # One behaviour, one place: the same seed gives the same members in both.
    for seed in (1, 7, 2024):
        over_tcp = await tcp_choices(seed, 12)
        assert over_tcp == await in_process_choices(seed, 12)
        assert set(over_tcp) == set(MEMBERS)


async def test_a_connection_the_chosen_members_port_refuses_goes_to_another_member() -> None:
    # "a connection to a member that dies moves to a survivor at the next connect"
    chosen = await tcp_choices(3, 12, dead="QM2")
    assert "QM2" not in chosen and set(chosen) == {"QM1", "QM3"}


async def test_a_group_address_no_member_takes_tells_the_sender_amq9202e() -> None:
    async def nobody() -> dict[str, str]:
        return {}

    async with trio.open_nursery() as nursery:
        serve = partial(serve_address, "QSG1", "127.0.0.1", 0, nobody, random.Random(1))
        port = await nursery.start(serve)
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        frames = wire.Frames(stream, remote=True, timeout=5.0)
        await frames.send({"t": "hello", "channel": "QM3.TO.QSG1", "from": "QM3", "seq": 0})
        with pytest.raises(wire.ChannelBrokenError) as refused:
            wire.status(await frames.receive())
        assert str(refused.value) == groupaddress.nobody_listens("QSG1", "QSG1")
        await stream.aclose()
        nursery.cancel_scope.cancel()


SCENARIO = """
description = "inbound through the group's address across processes, a member killed"

[run]
duration = 16
seed = 1
clock = "wall"

[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = '''
DEFINE QLOCAL(SYSTEM.QSG.CHANNEL.SYNCQ) QSGDISP(SHARED) CFSTRUCT(CSQSYSAPPL) INDXTYPE(MSGID)
DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(CSQSYSAPPL) DEFPSIST(YES) MAXDEPTH(100000)
'''

[qsg.QSG1.structures.CSQSYSAPPL]
recover = true

[qmgr.QM1]
mqsc = "DEFINE CHANNEL(QM3.TO.QSG1) CHLTYPE(RCVR)"

[qmgr.QM2]
mqsc = "DEFINE CHANNEL(QM3.TO.QSG1) CHLTYPE(RCVR)"

[qmgr.QM3]
mqsc = '''
DEFINE QLOCAL(QSG1) USAGE(XMITQ)
DEFINE QREMOTE(TO.QSG1) RNAME(APP.SHARED) RQMNAME(QSG1) XMITQ(QSG1)
DEFINE CHANNEL(QM3.TO.QSG1) CHLTYPE(SDR) CONNAME('QSG1') XMITQ(QSG1) BATCHSZ(5) +
       SHORTTMR(1) SHORTRTY(100)
'''

[[workload]]
name = "orders"
type = "putter"
qmgr = "QM3"
queue = "TO.QSG1"
rate = 20
persistence = "persistent"

[[workload]]
name = "workers"
type = "getter"
qmgr = "QM2"
queue = "APP.SHARED"
syncpoint = 1

[[at]]
at = 0
qmgr = "QM1"
mqsc = "START LISTENER TRPTYPE(TCP) INDISP(GROUP)"

[[at]]
at = 4
qmgr = "QM2"
mqsc = "START LISTENER TRPTYPE(TCP) INDISP(GROUP)"
"""


@pytest.mark.slow
@keeps(
    "docs/channels.md",
    "a connection to a member that dies goes to a survivor at the sender's next retry, "
    "and every persistent message arrives once",
)
def test_inbound_through_the_group_address_across_processes_survives_a_members_sigkill(
    tmp_path: Path, cf_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # QM1 alone listens for the group at first, so the channel starts there; QM2
    # listens from 4 s; QM1 is SIGKILLed at 8 s, and the sender's next connect lands
    # on QM2 (QM1's port is gone with its process); QM1's next life starts its group
    # listener again. Member processes may take 12 s to come up on a loaded machine:
    # time 0 is 15 s after they start, so that QM1 listens alone first.
    monkeypatch.setattr(processes, "STARTUP", 15.0)
    path = tmp_path / "group-address.toml"
    path.write_text(textwrap.dedent(SCENARIO))
    scenario = load_scenario(path)
    kills = [processes.Kill(8.0, "QM1", downtime=2.0)]
    # On a loaded machine QM1's group port may be published after QM2's (from 4 s):
    # the sender's first connect then lands on QM2, and the kill of QM1 shows nothing.
    # Such a run does not count (the setup failed, not the rule); up to three are played.
    placements = []
    for _ in range(3):
        outcome, run = processes.run_one(path, scenario, 1, redis_url=cf_url, kills=kills)
        assert outcome.ok, outcome.failed()
        running = [
            e.q_mgr
            for e in run.events
            if isinstance(e, ChannelStateChanged)
            and e.channel == "QM3.TO.QSG1"
            and e.state == "RUNNING"
            and e.q_mgr != "QM3"
        ]
        placements.append(running)
        if running[:1] == ["QM1"]:
            break
    assert running[:1] == ["QM1"], f"the channel never ran on QM1 first: {placements}"
    assert running[1:2] == ["QM2"], running  # QM1 killed: the next connect, the survivor
    put = [e for e in run.events if isinstance(e, OpCompleted) and e.app.startswith("orders")]
    got = Counter(
        e.msg_id for e in run.events if isinstance(e, MessageGot) and e.queue == "APP.SHARED"
    )
    assert len(put) > 100 and got and max(got.values()) == 1
