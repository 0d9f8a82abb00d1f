"""Server (SVR) and requester (RQSTR) channels in a running world (IBM MQ, "Requester-
server channel", "Channel definitions", "Message channels"): a requester started asks
its server, which sends it its transmission queue's messages; a fully qualified server
calls its requester as a sender calls; a requester's sender calls it back; a server
whose transmission queue is shared is a shared channel, moved by peer channel recovery
when its member dies; and what IBM refuses is refused in one line."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import trio

import qsg
from actors.admin import command
from actors.channel import ChannelSync
from actors.clock import VirtualClock
from actors.events import (
    ChannelBatch,
    ChannelDelivered,
    ChannelRecovered,
    ChannelStateChanged,
    MessageGot,
    OpCompleted,
)
from actors.topology import Topology
from actors.world import World
from coupling.server import free_port
from qsg import CMQC, GMO, MD, PMO, pymqi
from qsg.chaos import processes
from qsg.commands.exec.runner import facade_bound
from qsg.pymqi import CMQCFC
from qsg.scenario import ScenarioError, parse_scenario
from tests.claims import keeps
from tests.test_shared_channels import GROUP, kill_with_a_batch_in_doubt, owner
from tests.test_shared_channels import drain as drain_qm3
from tests.test_shared_channels import put_persistent as put_to_qm3

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


async def put_persistent(
    world: World, q_mgr: str, count: int, queue: str = "TO.QM2"
) -> list[bytes]:
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


@keeps(
    "docs/channels.md",
    'A server with a CONNAME ("fully qualified") is started as a sender is',
)
async def test_a_fully_qualified_server_calls_its_requester_as_a_sender_does(
    virtual_clock: VirtualClock,
) -> None:
    # "A server channel can also initiate the communication and send messages to a
    # requester, but this applies only to fully qualified servers".
    async with qsg.start(pair(svr="CONNAME('QM2')"), seed=1, in_process=True) as world:
        bodies = await put_persistent(world, "QM1", 12)
        assert sorted(await drain(world)) == bodies
        assert "REQUESTING" not in states(world, "QM2")  # nobody asked: the server called
        assert "RUNNING" in states(world, "QM2") and "RUNNING" in states(world, "QM1")


@keeps("docs/channels.md", "A sender answers that it will call back")
async def test_a_requester_s_sender_calls_it_back_and_sends(virtual_clock: VirtualClock) -> None:
    # "Requester-sender": "You can also use sender channels with requester channels if
    # you are implementing a 'callback' mechanism."
    topology = pair()
    topology.mqsc(  # QM1's end is a sender of that name instead of the server
        "QM1",
        "DELETE CHANNEL(QM1.QM2)\nDEFINE CHANNEL(QM1.QM2) CHLTYPE(SDR) CONNAME('QM2') "
        "XMITQ(QM2.XMITQ)",
        source="qm1-sdr",
    )
    async with qsg.start(topology, seed=1, in_process=True) as world:
        await world.stop_channel("QM1", "QM1.QM2")  # started with the world: not now
        bodies = await put_persistent(world, "QM1", 7)
        reply = await command(world, "QM2", "START CHANNEL(QM1.QM2)")
        assert not reply.failed, reply.lines
        assert sorted(await drain(world)) == bodies
        assert states(world, "QM1")[-1] == "RUNNING"  # its own start, calling back
        assert states(world, "QM2")[-2:] == ["REQUESTING", "RUNNING"]


async def test_a_sender_stopped_as_it_binds_stays_stopped(virtual_clock: VirtualClock) -> None:
    # STOP CHANNEL at the world's start, before its agent bound: the agent ends without
    # showing BINDING after the STOPPED, which DISPLAY CHSTATUS (and whether a server
    # answers its requester) go by.
    async with qsg.start(pair(svr="CONNAME('QM2')"), seed=1, in_process=True) as world:
        await world.stop_channel("QM1", "QM1.QM2")
        await trio.sleep(1)
        assert states(world, "QM1") == ["STOPPED"]
        reply = await command(world, "QM1", "DISPLAY CHSTATUS(QM1.QM2)")
        assert "STATUS(STOPPED)" in " ".join(reply.lines), reply.lines


@keeps("docs/channels.md", "DISPLAY CHSTATUS shows each end's CHLTYPE")
async def test_display_chstatus_shows_the_server_and_the_requester(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(pair(), seed=1, in_process=True) as world:
        await command(world, "QM2", "START CHANNEL(QM1.QM2)")
        await trio.sleep(1)
        for q_mgr, kind in (("QM1", "SVR"), ("QM2", "RQSTR")):
            reply = await command(world, q_mgr, "DISPLAY CHSTATUS(QM1.QM2)")
            text = " ".join(reply.lines)
            assert f"CHLTYPE({kind})" in text and "STATUS(RUNNING)" in text, text


@keeps(
    "docs/channels.md",
    "START CHANNEL of a server without a CONNAME, or of a requester without one, is "
    "refused in one line with MQRCCF_MISSING_CONN_NAME (4061)",
)
@pytest.mark.parametrize(
    ("q_mgr", "why"),
    [
        ("QM1", "SERVER CHANNEL QM1.QM2 HAS NO CONNAME: IT IS NOT FULLY QUALIFIED AND CAN ONLY"),
        ("QM2", "REQUESTER CHANNEL QM1.QM2 HAS NO CONNAME TO CALL"),
    ],
)
async def test_starting_a_server_or_a_requester_without_conname_is_4061(
    virtual_clock: VirtualClock, q_mgr: str, why: str
) -> None:
    async with qsg.start(pair(rqstr=""), seed=1, in_process=True) as world:
        reply = await command(world, q_mgr, "START CHANNEL(QM1.QM2)")
        assert reply.failed
        (line,) = [line for line in reply.lines if line.startswith("CSQM090E")]
        assert why in line and "MQRCCF_MISSING_CONN_NAME (4061)" in line, reply.lines


def reversed_pair(rqstr_partner: str) -> Topology:
    """QM1's requester QM1.QM2 to QM2, whose channel of that name is ``rqstr_partner``."""
    topology = Topology()
    topology.add_qmgr("QM1")
    topology.add_qmgr("QM2")
    topology.mqsc("QM1", "DEFINE CHANNEL(QM1.QM2) CHLTYPE(RQSTR) CONNAME('QM2')", source="1")
    topology.mqsc("QM2", f"DEFINE CHANNEL(QM1.QM2) {rqstr_partner}", source="2")
    return topology


@keeps(
    "docs/channels.md",
    "Any other pair is refused by the end that was called with a line modelled on AMQ9547E",
)
@pytest.mark.parametrize(
    ("topology", "start", "called", "caller"),
    [
        (reversed_pair("CHLTYPE(RCVR)"), True, "RCVR", "RQSTR"),
        (reversed_pair("CHLTYPE(RQSTR) CONNAME('QM1')"), True, "RQSTR", "RQSTR"),
        (pair(svr="CONNAME('QM2')", partner="RCVR", rqstr=""), False, "RCVR", None),
        (
            pair(svr="CONNAME('QM2')", partner="SVR", rqstr="XMITQ(APP.IN)"),
            False,
            "SVR",
            "SVR",
        ),
    ],
    ids=["rqstr-rcvr", "rqstr-rqstr", "svr-rcvr", "svr-svr"],
)
async def test_a_pair_ibm_does_not_allow_is_refused_with_amq9547e(
    virtual_clock: VirtualClock, topology: Topology, start: bool, called: str, caller: str | None
) -> None:
    # "Type of remote channel not suitable for action requested": "if the local channel
    # is defined as a sender the remote machine must define its channel as either a
    # receiver or requester".
    async with qsg.start(topology, seed=1, in_process=True) as world:
        if start:
            reply = await command(world, "QM1", "START CHANNEL(QM1.QM2)")
            assert not reply.failed, reply.lines
        await trio.sleep(1)
        last = [e for e in world.events.of(ChannelStateChanged) if e.q_mgr == "QM1"][-1]
        if caller is None:  # a server and a receiver: "Server - Receiver" is a pair
            assert last.state == "RUNNING", last
            return
        assert last.state == ("STOPPED" if caller == "RQSTR" else "RETRYING"), last
        assert last.detail.startswith("AMQ9547E: Type of remote channel not suitable"), last
        assert f"is a {called} on QM2, and a {caller} channel's partner" in last.detail, last


def shared_server(*, conn_name: str) -> Topology:
    """QSG1 of QM1 and QM2, each defining the server QSG.TO.QM3 (``conn_name`` its
    CONNAME, '' for none) whose transmission queue QM3.XMITQ is shared; QM3 outside the
    group has the requester QSG.TO.QM3, which calls the group's address QSG1."""
    server = (
        "DEFINE QREMOTE(TO.QM3) RNAME(APP.IN) RQMNAME(QM3) XMITQ(QM3.XMITQ)\n"
        f"DEFINE CHANNEL(QSG.TO.QM3) CHLTYPE(SVR) XMITQ(QM3.XMITQ) BATCHSZ(10) "
        f"DEFCDISP(SHARED) {conn_name}"
    )
    topology = Topology()
    topology.add_qsg("QSG1", members=["QM1", "QM2"])
    topology.add_qmgr("QM3")
    topology.mqsc("QM1", GROUP + server, source="group")
    topology.mqsc("QM2", server, source="qm2")
    topology.mqsc(
        "QM3",
        "DEFINE QLOCAL(APP.IN)\nDEFINE CHANNEL(QSG.TO.QM3) CHLTYPE(RQSTR) CONNAME('QSG1')\n"
        "DEFINE CHANNEL(QSG.PRIVATE) CHLTYPE(RCVR)",
        source="qm3",
    )
    return topology


@keeps(
    "docs/channels.md",
    "A server whose transmission queue is a shared queue is a shared channel",
)
async def test_a_shared_fully_qualified_server_moves_to_the_survivor_and_all_arrive_once(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    # "Message channel agents for queue sharing groups": a sending channel whose
    # transmission queue is shared is shared; "Shared channel recovery" restarts it on
    # a survivor, which settles the batch in doubt from SYSTEM.QSG.CHANNEL.SYNCQ.
    topology = shared_server(conn_name="CONNAME('QM3')")
    async with qsg.start(topology, seed=3, **cf_mode) as world:  # type: ignore[arg-type]
        first = owner(world)
        survivor = "QM2" if first == "QM1" else "QM1"
        bodies = await put_to_qm3(world, survivor, 30)
        assert await kill_with_a_batch_in_doubt(world) == first
        assert owner(world) == survivor
        assert sorted(await drain_qm3(world)) == bodies  # each once
        (recovery,) = world.events.of(ChannelRecovered)
        assert (recovery.failed, recovery.found, recovery.restarted) == (first, 1, 1)


@keeps(
    "docs/channels.md",
    "its requester's next START CHANNEL starts it on a member that runs",
)
async def test_a_requester_restarts_its_shared_server_on_the_survivor_and_all_arrive_once(
    virtual_clock: VirtualClock,
) -> None:
    # The requester calls the group's address (a group listener on each member); its
    # server, without a CONNAME, can only be started by it: after the kill of the
    # server's member, START CHANNEL at the requester reaches the survivor.
    async with qsg.start(shared_server(conn_name=""), seed=3, in_process=True) as world:
        for member in ("QM1", "QM2"):
            await world.start_listener(member)
        reply = await command(world, "QM3", "START CHANNEL(QSG.TO.QM3)")
        assert not reply.failed, reply.lines
        await trio.sleep(1)
        first = owner(world)
        survivor = "QM2" if first == "QM1" else "QM1"
        bodies = await put_to_qm3(world, survivor, 30)
        assert await kill_with_a_batch_in_doubt(world) == first
        (recovery,) = world.events.of(ChannelRecovered)
        assert (recovery.found, recovery.restarted) == (1, 0)  # no CONNAME: not restarted
        assert world.qsgs["QSG1"].channel_status.holder("QSG.TO.QM3") is None
        await trio.sleep(10)  # the requester's confirmation, held on the way, finds no link
        assert states(world, "QM3", "QSG.TO.QM3")[-1] == "INACTIVE"
        reply = await command(world, "QM3", "START CHANNEL(QSG.TO.QM3)")
        assert not reply.failed, reply.lines
        assert sorted(await drain_qm3(world)) == bodies  # each once
        assert owner(world) == survivor


@keeps(
    "docs/channels.md",
    "Over TCP the requester's connection reaches the partner's listener, which serves a "
    "request as it serves a hello",
)
async def test_a_requester_starts_its_server_over_tcp() -> None:
    # A listener (START LISTENER TRPTYPE(TCP)) starts whatever calls it: a sender's
    # receiver, or the server a requester asks for, on the requester's own socket.
    port = free_port()
    topology = Topology()
    topology.add_qmgr("QM1", listener=port)
    topology.add_qmgr("QM2")
    topology.mqsc("QM1", SERVING.format(svr=""), source="qm1")
    rqstr = f"CONNAME('127.0.0.1({port})')"
    topology.mqsc("QM2", REQUESTING.format(partner="RQSTR", rqstr=rqstr), source="qm2")
    async with qsg.start(topology, in_process=True) as world:
        bodies = await put_persistent(world, "QM1", 5)
        reply = await command(world, "QM2", "START CHANNEL(QM1.QM2)")
        assert not reply.failed, reply.lines
        conn = await world.connect("QM2")
        app_in = await conn.open("APP.IN", CMQC.MQOO_INPUT_SHARED)
        gmo = GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, WaitInterval=10_000)
        got = [await app_in.get(None, MD(), gmo) for _ in bodies]
        assert sorted(got) == bodies
        assert states(world, "QM1")[-1] == "RUNNING"


@keeps("docs/channels.md", "as PCF Start Channel answers it")
def test_pcf_start_channel_of_a_server_without_conname_answers_4061() -> None:
    # "Start Channel" (PCF) through the command server: the reason code is the reply's.
    async def main() -> int:
        async with (
            qsg.start(pair(), in_process=True, seed=1) as world,
            facade_bound(world, virtual=True),
        ):
            pcf = pymqi.PCFExecute(pymqi.connect("QM1"))
            with pytest.raises(pymqi.MQMIError) as raised:
                pcf.MQCMD_START_CHANNEL({CMQCFC.MQCACH_CHANNEL_NAME: b"QM1.QM2"})
            return int(raised.value.reason)

    assert qsg.run(main) == CMQCFC.MQRCCF_MISSING_CONN_NAME


async def test_a_restarted_member_leaves_its_server_without_conname_to_the_requester(
    virtual_clock: VirtualClock,
) -> None:
    # No survivor could recover it (the other channel initiator is stopped): its own
    # member, restarted, does not start a server it cannot start (no CONNAME to call);
    # the claim goes, and the requester's next request starts it.
    async with qsg.start(shared_server(conn_name=""), seed=3, in_process=True) as world:
        for member in ("QM1", "QM2"):
            await world.start_listener(member)
        await command(world, "QM3", "START CHANNEL(QSG.TO.QM3)")
        await trio.sleep(1)
        first = owner(world)
        other = "QM2" if first == "QM1" else "QM1"
        await world.stop_chinit(other, restart=False)
        await world.kill(first)
        assert owner(world) == first  # held: nobody could take it
        since = trio.current_time()
        await world.restart(first)
        await trio.sleep(5)
        assert world.qsgs["QSG1"].channel_status.holder("QSG.TO.QM3") is None
        after = [
            e
            for e in world.events.of(ChannelStateChanged)
            if e.channel == "QSG.TO.QM3" and e.q_mgr == first and e.time >= since
        ]
        assert after == [], after


@keeps("docs/channels.md", "(status REQUESTING)")
def test_a_requester_waiting_for_its_partner_shows_requesting_in_mqsc_and_pcf() -> None:
    # MQCHS_REQUESTING (7): "A local requester channel is requesting services from a
    # remote MCA". The partner here accepts the connection and never answers.
    async def silent(stream: trio.SocketStream) -> None:
        await trio.sleep_forever()

    async def main() -> tuple[str, list[dict[int, object]]]:
        async with trio.open_nursery() as nursery:
            listeners = await nursery.start(trio.serve_tcp, silent, 0)
            port = listeners[0].socket.getsockname()[1]
            topology = Topology()
            topology.add_qmgr("QM2")
            topology.mqsc(
                "QM2",
                f"DEFINE CHANNEL(QM1.QM2) CHLTYPE(RQSTR) CONNAME('127.0.0.1({port})')",
                source="qm2",
            )
            async with (
                qsg.start(topology, in_process=True) as world,
                facade_bound(world, virtual=True),
            ):
                await command(world, "QM2", "START CHANNEL(QM1.QM2)")
                for _ in range(50):  # its agent runs, and waits for the partner (no
                    await trio.lowlevel.checkpoint()  # sleep: the clock waits for it)
                mqsc = " ".join((await command(world, "QM2", "DISPLAY CHSTATUS(*)")).lines)
                pcf = pymqi.PCFExecute(pymqi.connect("QM2"))
                found = pcf.MQCMD_INQUIRE_CHANNEL_STATUS({CMQCFC.MQCACH_CHANNEL_NAME: b"*"})
            nursery.cancel_scope.cancel()
        return mqsc, [r for r in found if CMQCFC.MQCACH_CHANNEL_NAME in r]

    mqsc, found = qsg.run(main)
    assert "CHLTYPE(RQSTR)" in mqsc and "STATUS(REQUESTING)" in mqsc, mqsc
    (status,) = found
    assert status[CMQCFC.MQIACH_CHANNEL_STATUS] == CMQCFC.MQCHS_REQUESTING
    assert status[CMQCFC.MQIACH_CHANNEL_TYPE] == CMQC.MQCHT_REQUESTER


async def test_a_requester_whose_server_s_numbers_disagree_stops_with_amq9526e(
    virtual_clock: VirtualClock,
) -> None:
    # The requester's end checks the server's hello as a receiver checks a sender's
    # ("Channel message sequence numbering"); a requester does not retry: STOPPED.
    async with qsg.start(pair(), seed=1, in_process=True) as world:
        world.qmgrs["QM2"].syncq["QM1.QM2"] = ChannelSync(committed=5)
        reply = await command(world, "QM2", "START CHANNEL(QM1.QM2)")
        assert not reply.failed, reply.lines
        await trio.sleep(1)
        last = [e for e in world.events.of(ChannelStateChanged) if e.q_mgr == "QM2"][-1]
        assert last.state == "STOPPED" and last.detail.startswith("AMQ9526E"), last
        assert states(world, "QM1")[-1] == "INACTIVE"  # the server waits for it again


async def test_a_server_that_cannot_start_ends_its_requester_at_once(
    virtual_clock: VirtualClock,
) -> None:
    # The server's transmission queue is not there: its agent ends abnormally
    # (STOPPED), and the requester's connection goes with it, not at its connect
    # timeout (30 s).
    topology = pair()
    topology.mqsc("QM1", "DELETE QREMOTE(TO.QM2)\nDELETE QLOCAL(QM2.XMITQ)", source="gone")
    async with qsg.start(topology, seed=1, in_process=True) as world:
        reply = await command(world, "QM2", "START CHANNEL(QM1.QM2)")
        assert not reply.failed, reply.lines
        await trio.sleep(1)
        assert states(world, "QM1")[-1] == "STOPPED"
        last = [e for e in world.events.of(ChannelStateChanged) if e.q_mgr == "QM2"][-1]
        assert last.state == "STOPPED" and last.time < 1, last


#: QM2's requester calls QM1, whose channel of that name is {kind}.
SCENARIO = """\
description = "a requester and its partner"

[run]
duration = 5
in_process = true

[qmgr.QM1]
mqsc = '''
DEFINE QLOCAL(QM2.XMITQ) USAGE(XMITQ)
DEFINE CHANNEL(QM1.QM2) {kind}
'''

[qmgr.QM2]
mqsc = '''
DEFINE QLOCAL(APP.IN)
DEFINE CHANNEL(QM1.QM2) CHLTYPE(RQSTR) CONNAME('QM1')
'''
"""


@keeps(
    "docs/channels.md",
    "A scenario is checked before it runs: a server's XMITQ must be a transmission queue",
)
def test_validation_checks_a_requester_s_partner_and_a_server_s_xmitq() -> None:
    good = SCENARIO.format(kind="CHLTYPE(SVR) XMITQ(QM2.XMITQ)")
    parse_scenario(good, "s.toml")  # a requester and its server: nothing to say
    for kind, says in (
        ("CHLTYPE(RCVR)", "channel QM1.QM2 of QM2: QM1 has no SDR or SVR channel QM1.QM2"),
        (
            "CHLTYPE(SVR) XMITQ(APP.NONE)",
            "channel QM1.QM2 of QM1: XMITQ(APP.NONE) is not a local queue with USAGE(XMITQ)",
        ),
    ):
        with pytest.raises(ScenarioError) as caught:
            parse_scenario(SCENARIO.format(kind=kind), "s.toml")
        (problem,) = [str(p) for p in caught.value.problems]
        assert problem.startswith("s.toml:") and problem.endswith(says), problem


async def test_a_shared_server_takes_chldisp_and_stop_chinit_as_a_shared_sender_does(
    virtual_clock: VirtualClock,
) -> None:
    # The same code as a shared sender's: one instance in the group (CSQX477E for a
    # second), FIXSHARED on the member named, STOP CHINIT SHARED(RESTART) moves it.
    topology = shared_server(conn_name="CONNAME('QM3')")
    async with qsg.start(topology, seed=3, in_process=True) as world:
        first = owner(world)
        other = "QM2" if first == "QM1" else "QM1"
        reply = await command(world, other, "START CHANNEL(QSG.TO.QM3) CHLDISP(FIXSHARED)")
        assert reply.failed and "CSQX477E" in reply.lines[0], reply.lines
        await world.stop_chinit(first)  # SHARED(RESTART): the other member takes it
        assert owner(world) == other
        bodies = await put_to_qm3(world, other, 5)
        assert sorted(await drain_qm3(world)) == bodies
        await world.start_chinit(first)
        await world.stop_channel(other, "QSG.TO.QM3")
        reply = await command(
            world, other, f"START CHANNEL(QSG.TO.QM3) CHLDISP(FIXSHARED) CMDSCOPE({first})"
        )
        assert not reply.failed, reply.lines
        held = world.qsgs["QSG1"].channel_status.holder("QSG.TO.QM3")
        assert held is not None and held.owner == first
        assert held.disposition == CMQCFC.MQCHLD_FIXSHARED


#: QM1 serves QM2, which asks for it at 0 s; QM3's fully qualified server calls QM4's
#: requester. Each queue manager its own process in ``qsg chaos --processes``.
PROCESSES = """\
description = "requester-server pairs across processes"

[run]
duration = 4
seed = 1
clock = "wall"

[qmgr.QM1]
mqsc = '''
DEFINE QLOCAL(QM2.XMITQ) USAGE(XMITQ)
DEFINE QREMOTE(TO.QM2) RNAME(APP.IN) RQMNAME(QM2) XMITQ(QM2.XMITQ)
DEFINE CHANNEL(QM1.QM2) CHLTYPE(SVR) XMITQ(QM2.XMITQ)
'''
[qmgr.QM2]
mqsc = '''
DEFINE QLOCAL(APP.IN)
DEFINE CHANNEL(QM1.QM2) CHLTYPE(RQSTR) CONNAME('QM1')
'''
[qmgr.QM3]
mqsc = '''
DEFINE QLOCAL(QM4.XMITQ) USAGE(XMITQ)
DEFINE QREMOTE(TO.QM4) RNAME(APP.IN) RQMNAME(QM4) XMITQ(QM4.XMITQ)
DEFINE CHANNEL(QM3.QM4) CHLTYPE(SVR) XMITQ(QM4.XMITQ) CONNAME('QM4') SHORTTMR(1)
'''
[qmgr.QM4]
mqsc = '''
DEFINE QLOCAL(APP.IN)
DEFINE CHANNEL(QM3.QM4) CHLTYPE(RQSTR) CONNAME('QM3')
'''

[[at]]
at = 0
qmgr = "QM2"
mqsc = "START CHANNEL(QM1.QM2)"

[[workload]]
name = "to.qm2"
type = "putter"
qmgr = "QM1"
queue = "TO.QM2"
rate = 5
persistence = "persistent"

[[workload]]
name = "to.qm4"
type = "putter"
qmgr = "QM3"
queue = "TO.QM4"
rate = 5
persistence = "persistent"
"""


@keeps(
    "docs/channels.md",
    "`qsg chaos --processes` gives a TCP link to every channel whose CONNAME names a queue "
    "manager of the scenario",
)
def test_processes_mode_listens_for_every_queue_manager_a_channel_calls() -> None:
    # A requester calls its server's queue manager, a fully qualified server its
    # requester's: each called one listens on a port of its own.
    scenario = parse_scenario(PROCESSES, "pairs.toml")
    assert processes.called(scenario) == ["QM1", "QM3", "QM4"]
    assert processes.killable(scenario) == []  # not in a group: nothing to kill anyway


@pytest.mark.slow
def test_requester_server_pairs_move_every_message_across_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Over real TCP between member processes: QM2's requester started at 0 s, QM3's
    # server calling QM4's requester at its start; each message arrives once (the drain
    # at the end gets them from APP.IN). Time 0 is 15 s after the processes start: on a
    # loaded machine they may take that long to come up.
    monkeypatch.setattr(processes, "STARTUP", 15.0)
    path = tmp_path / "pairs.toml"
    path.write_text(PROCESSES)
    outcome, run = processes.run_one(path, parse_scenario(PROCESSES, str(path)), 1, kills=[])
    assert outcome.ok, outcome.failed()
    running = {
        (e.q_mgr, e.channel)
        for e in run.events
        if isinstance(e, ChannelStateChanged) and e.state == "RUNNING"
    }
    assert running >= {("QM1", "QM1.QM2"), ("QM2", "QM1.QM2"), ("QM3", "QM3.QM4")}
    delivered = Counter(e.channel for e in run.events if isinstance(e, ChannelDelivered))
    assert delivered["QM1.QM2"] > 5 and delivered["QM3.QM4"] > 5, delivered


@keeps(
    "docs/channels.md",
    "A server that is STOPPED does not answer its requester's request",
)
@keeps("docs/channels.md", "A server without a CONNAME that is STOPPED is the exception")
async def test_a_server_stop_channel_left_stopped_refuses_its_requester_with_amq9558e(
    virtual_clock: VirtualClock,
) -> None:
    # "Channel errors": "Channels that are in STOPPED state need operator intervention
    # before they can restart"; the requester's end writes AMQ9558E "Remote Channel is
    # not currently available" ("This could be because the channel is disabled").
    async with qsg.start(pair(), seed=1, in_process=True) as world:
        await command(world, "QM2", "START CHANNEL(QM1.QM2)")
        await trio.sleep(1)
        reply = await command(world, "QM1", "STOP CHANNEL(QM1.QM2)")
        assert not reply.failed, reply.lines
        await trio.sleep(1)  # its close flow ends the requester's end (INACTIVE)
        bodies = await put_persistent(world, "QM1", 3)
        reply = await command(world, "QM2", "START CHANNEL(QM1.QM2)")
        assert not reply.failed, reply.lines
        await trio.sleep(1)
        last = [e for e in world.events.of(ChannelStateChanged) if e.q_mgr == "QM2"][-1]
        assert last.state == "STOPPED" and last.detail.startswith("AMQ9558E: Remote"), last
        assert states(world, "QM1")[-1] == "STOPPED" and world.events.of(ChannelDelivered) == []
        reply = await command(world, "QM1", "START CHANNEL(QM1.QM2)")  # enabled again
        assert not reply.failed, reply.lines
        assert states(world, "QM1")[-1] == "INACTIVE"
        await command(world, "QM2", "START CHANNEL(QM1.QM2)")
        assert sorted(await drain(world)) == bodies


@keeps(
    "docs/channels.md",
    "START CHANNEL CHLDISP(SHARED) of a server without a CONNAME enables it on every active member",
)
@keeps(
    "docs/mqsc.md",
    "except a server that is STOPPED, or started CHLDISP(SHARED), which START enables",
)
@keeps(
    "docs/channels.md",
    "CMDSCOPE must be blank, and CHLDISP(FIXSHARED) is refused (MQRCCF_DISPOSITION_CONFLICT "
    "3211), as for a receiver.",
)
async def test_a_shared_start_of_a_server_without_conname_enables_it_on_every_member(
    virtual_clock: VirtualClock,
) -> None:
    # IBM's CHLDISP x CMDSCOPE table for START CHANNEL: SHARED, "RCVR, SVRCONN, SVR
    # with blank CONNAME": started (enabled) as shared on all active members; no agent
    # starts until the requester asks.
    async with qsg.start(shared_server(conn_name=""), seed=3, in_process=True) as world:
        for member in ("QM1", "QM2"):
            await world.start_listener(member)
        await command(world, "QM3", "START CHANNEL(QSG.TO.QM3)")
        await trio.sleep(1)
        first = owner(world)
        await command(world, first, "STOP CHANNEL(QSG.TO.QM3)")
        reply = await command(world, "QM3", "START CHANNEL(QSG.TO.QM3)")
        await trio.sleep(1)
        assert states(world, "QM3", "QSG.TO.QM3")[-1] == "STOPPED"  # refused: AMQ9558E
        for refused in ("CHLDISP(FIXSHARED)", "CHLDISP(SHARED) CMDSCOPE(QM2)"):
            reply = await command(world, "QM1", f"START CHANNEL(QSG.TO.QM3) {refused}")
            assert reply.failed and "CONFLICT 3211)" in reply.lines[0], reply.lines
        reply = await command(world, "QM1", "START CHANNEL(QSG.TO.QM3) CHLDISP(SHARED)")
        assert not reply.failed, reply.lines
        held = world.qsgs["QSG1"].channel_status.holder("QSG.TO.QM3")
        assert held is None  # enabled, not started: it waits for its requester
        assert {world.channel_board.state(m, "QSG.TO.QM3") for m in ("QM1", "QM2")} == {"INACTIVE"}
        bodies = await put_to_qm3(world, "QM2", 4)
        reply = await command(world, "QM3", "START CHANNEL(QSG.TO.QM3)")
        assert sorted(await drain_qm3(world)) == bodies


@keeps(
    "docs/channels.md",
    "PING CHANNEL of a requester is refused with MQRCCF_PING_ERROR (4030)",
)
@keeps(
    "docs/channels.md",
    "RESOLVE CHANNEL of a requester is refused with MQRCCF_CHANNEL_TYPE_ERROR (3034)",
)
@keeps("docs/mqsc.md", "PING of one is refused as IBM refuses it (MQRCCF_PING_ERROR 4030).")
@keeps("docs/mqsc.md", "RESET of a requester too, PING and RESOLVE of one refused (4030, 3034")
def test_ping_and_resolve_of_a_requester_are_refused_with_ibm_s_reason_codes() -> None:
    # "Ping Channel": "can only be used for channels with a ChannelType value of
    # MQCHT_SENDER, MQCHT_SERVER, or MQCHT_CLUSSDR" (4030: "A ping operation can only be
    # issued for a sender or server channel"); "RESOLVE CHANNEL": "can be used only for
    # sender (SDR), server (SVR), and cluster-sender (CLUSSDR) channels".
    topology = pair()
    topology.mqsc("QM2", "DEFINE CHANNEL(QM9.QM2) CHLTYPE(RCVR)", source="rcvr")

    async def main() -> tuple[int, int, list[str]]:
        async with qsg.start(topology, in_process=True, seed=1) as world:
            async with facade_bound(world, virtual=True):
                pcf = pymqi.PCFExecute(pymqi.connect("QM2"))
                name = {CMQCFC.MQCACH_CHANNEL_NAME: b"QM1.QM2"}
                with pytest.raises(pymqi.MQMIError) as pinged:
                    pcf.MQCMD_PING_CHANNEL(name)
                with pytest.raises(pymqi.MQMIError) as resolved:
                    pcf.MQCMD_RESOLVE_CHANNEL({**name, CMQCFC.MQIACH_IN_DOUBT: CMQCFC.MQIDO_COMMIT})
            lines = []
            for name in ("QM1.QM2", "QM9.QM2"):  # the requester, and a receiver
                reply = await command(world, "QM2", f"PING CHANNEL({name})")
                lines.append(reply.lines[0])
            return int(pinged.value.reason), int(resolved.value.reason), lines

    pinged, resolved, lines = qsg.run(main)
    assert (pinged, resolved) == (CMQCFC.MQRCCF_PING_ERROR, CMQCFC.MQRCCF_CHANNEL_TYPE_ERROR)
    for line, kind in zip(lines, ("REQUESTER", "RECEIVER"), strict=True):
        assert f"IS A {kind} CHANNEL" in line and "(MQRCCF_PING_ERROR 4030)" in line, line


@keeps(
    "docs/channels.md",
    "RESET CHANNEL of a requester sets the sequence number its end expects next",
)
@keeps(
    "docs/channels.md",
    "A server whose number is another is refused at the next start with AMQ9526E until the "
    "two agree. It is refused while the requester runs (IN USE).",
)
async def test_reset_of_a_requester_resets_its_own_end_only(virtual_clock: VirtualClock) -> None:
    # "RESET CHANNEL": "If the command is issued to a receiver, requester, or
    # cluster-receiver channel, the value at the other end is not reset as well; this
    # must be done separately if necessary."
    async with qsg.start(pair(), seed=1, in_process=True) as world:
        bodies = await put_persistent(world, "QM1", 5)
        await command(world, "QM2", "START CHANNEL(QM1.QM2)")
        assert sorted(await drain(world)) == bodies  # the server's number is 5 now
        busy = await command(world, "QM2", "RESET CHANNEL(QM1.QM2) SEQNUM(1)")
        assert busy.failed and "IN USE" in busy.lines[0], busy.lines
        await command(world, "QM2", "STOP CHANNEL(QM1.QM2)")
        await trio.sleep(400)  # the idle server finds the link gone at its heartbeat
        reply = await command(world, "QM2", "RESET CHANNEL(QM1.QM2) SEQNUM(1)")
        assert not reply.failed, reply.lines
        await command(world, "QM2", "START CHANNEL(QM1.QM2)")
        await trio.sleep(1)
        last = [e for e in world.events.of(ChannelStateChanged) if e.q_mgr == "QM2"][-1]
        assert last.state == "STOPPED" and last.detail.startswith("AMQ9526E"), last
        await command(world, "QM2", "RESET CHANNEL(QM1.QM2) SEQNUM(6)")  # the server's next
        more = await put_persistent(world, "QM1", 2)
        await command(world, "QM2", "START CHANNEL(QM1.QM2)")
        assert sorted(await drain(world)) == more


@keeps(
    "docs/channels.md",
    "It is refused while the requester runs (IN USE).",
)
def test_pcf_reset_of_a_running_requester_answers_mqrccf_channel_in_use() -> None:
    # PCF answers IN USE with MQRCCF_CHANNEL_IN_USE (4031), as for a sender; it answered
    # MQRCCF_COMMAND_FAILED (3008) for every in-use refusal without an AMQ9514E line.
    async def main() -> int:
        async with qsg.start(pair(), in_process=True, seed=1) as world:
            bodies = await put_persistent(world, "QM1", 2)
            await command(world, "QM2", "START CHANNEL(QM1.QM2)")
            assert sorted(await drain(world)) == bodies
            async with facade_bound(world, virtual=True):
                pcf = pymqi.PCFExecute(pymqi.connect("QM2"))
                with pytest.raises(pymqi.MQMIError) as refused:
                    pcf.MQCMD_RESET_CHANNEL({CMQCFC.MQCACH_CHANNEL_NAME: b"QM1.QM2"})
            return int(refused.value.reason)

    assert qsg.run(main) == CMQCFC.MQRCCF_CHANNEL_IN_USE


GROUP_PROCESSES = """\
description = "a requester calls the group's address across processes"

[run]
duration = 6
seed = 1
clock = "wall"

[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = '''
DEFINE QLOCAL(SYSTEM.QSG.CHANNEL.SYNCQ) QSGDISP(SHARED) CFSTRUCT(CSQSYSAPPL) INDXTYPE(MSGID)
DEFINE QLOCAL(QM3.XMITQ) QSGDISP(SHARED) CFSTRUCT(CSQSYSAPPL) USAGE(XMITQ)
DEFINE QREMOTE(TO.QM3) RNAME(APP.IN) RQMNAME(QM3) XMITQ(QM3.XMITQ) QSGDISP(GROUP)
DEFINE CHANNEL(QSG1.TO.QM3) CHLTYPE(SVR) XMITQ(QM3.XMITQ) QSGDISP(GROUP)
'''

[qsg.QSG1.structures.CSQSYSAPPL]
recover = true

[qmgr.QM3]
mqsc = '''
DEFINE QLOCAL(APP.IN)
DEFINE CHANNEL(QSG1.TO.QM3) CHLTYPE(RQSTR) CONNAME('QSG1')
'''

[[at]]
at = 0
qmgr = "QM2"
mqsc = "START LISTENER TRPTYPE(TCP) INDISP(GROUP)"

[[at]]
at = 1
qmgr = "QM3"
mqsc = "START CHANNEL(QSG1.TO.QM3)"

[[at]]
at = 2.5
qmgr = "QM3"
mqsc = "START CHANNEL(QSG1.TO.QM3)"

[[at]]
at = 4
qmgr = "QM3"
mqsc = "START CHANNEL(QSG1.TO.QM3)"

[[workload]]
name = "to.qm3"
type = "putter"
qmgr = "QM1"
queue = "TO.QM3"
rate = 10
persistence = "persistent"
"""


@keeps(
    "docs/channels.md",
    "A requester whose CONNAME names a group calls the group's address as a sender does",
)
def test_processes_mode_points_a_requesters_group_conname_at_the_groups_address() -> None:
    # "Defining a TCP connection for a queue sharing group": the requester's CONNAME is
    # the group's generic address; in --processes mode that address is a port of the
    # group's own, and the members that may take the call get group ports of theirs.
    scenario = parse_scenario(GROUP_PROCESSES, "group-pair.toml")
    assert processes.named_groups(scenario) == ["QSG1"]
    assert processes.called(scenario) == []  # the server answers on the requester's link
    topology = processes.process_topology(scenario, {}, {"QSG1": 5555})
    (requester,) = [c for c in topology.qmgrs["QM3"].commands if c.object_type == "CHANNEL"]
    assert requester.attributes["conn_name"] == "127.0.0.1(5555)"
    assert [topology.qmgrs[m].group_host for m in ("QM1", "QM2", "QM3")] == [
        "127.0.0.1",
        "127.0.0.1",
        None,
    ]


@pytest.mark.slow
@keeps(
    "docs/channels.md",
    "the group's port hands the requester's connection to a member whose group listener "
    "runs, and the server starts on that member and sends on that connection; each "
    "message arrives once.",
)
@keeps(
    "docs/channels.md",
    "A shared channel's sending agent in this mode looks at its transmission queue again "
    "every second while it has nothing to send",
)
def test_a_requester_reaches_its_groups_server_through_the_group_address_across_processes(
    tmp_path: Path, cf_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "Defining a TCP connection for a queue sharing group": QM3's requester calls the
    # group's address (its own port in --processes mode), which hands the connection to
    # QM2, the member whose group listener runs; QM2 starts the shared server
    # QSG1.TO.QM3 on the requester's connection and sends what QM1's process puts on
    # the shared transmission queue; each message arrives once (the drain at the end
    # gets them from APP.IN). A requester does not retry: its later
    # STARTs (refused IN USE once one took) are for a loaded machine, whose member
    # processes may come up, and start their group listeners, seconds late.
    monkeypatch.setattr(processes, "STARTUP", 20.0)
    path = tmp_path / "group-pair.toml"
    path.write_text(GROUP_PROCESSES)
    scenario = parse_scenario(GROUP_PROCESSES, str(path))
    outcome, run = processes.run_one(path, scenario, 1, redis_url=cf_url, kills=[])
    assert outcome.ok, outcome.failed()
    running = {
        e.q_mgr
        for e in run.events
        if isinstance(e, ChannelStateChanged)
        and e.channel == "QSG1.TO.QM3"
        and e.state == "RUNNING"
    }
    assert running == {"QM2", "QM3"}, running
    # QM2's server is woken by no put of QM1's process: it looks again (LOOK_AGAIN), or
    # all but the first batch would wait on the shared queue for its heartbeat (300 s).
    put = [e for e in run.events if isinstance(e, OpCompleted) and e.op == "put"]
    delivered = [e for e in run.events if isinstance(e, ChannelDelivered)]
    assert len(delivered) > len(put) // 2, (len(delivered), len(put))
    got = Counter(e.msg_id for e in run.events if isinstance(e, MessageGot) and e.queue == "APP.IN")
    assert set(got) == {e.msg_id for e in delivered} and max(got.values()) == 1, got


SHARED_SENDER_PROCESSES = """\
description = "a shared sender's member is killed across processes; a survivor restarts it"

[run]
duration = 16
seed = 1
clock = "wall"

[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = '''
DEFINE QLOCAL(SYSTEM.QSG.CHANNEL.SYNCQ) QSGDISP(SHARED) CFSTRUCT(CSQSYSAPPL) INDXTYPE(MSGID)
DEFINE QLOCAL(QM3.XMITQ) QSGDISP(SHARED) CFSTRUCT(CSQSYSAPPL) USAGE(XMITQ)
DEFINE QREMOTE(TO.QM3) RNAME(APP.IN) RQMNAME(QM3) XMITQ(QM3.XMITQ) QSGDISP(GROUP)
DEFINE CHANNEL(QSG1.TO.QM3) CHLTYPE(SDR) CONNAME('QM3') XMITQ(QM3.XMITQ) QSGDISP(GROUP)
'''

[qsg.QSG1.structures.CSQSYSAPPL]
recover = true

[qmgr.QM3]
mqsc = '''
DEFINE QLOCAL(APP.IN)
DEFINE CHANNEL(QSG1.TO.QM3) CHLTYPE(RCVR)
'''

[[at]]
at = 0
qmgr = "QM2"
mqsc = "STOP CHINIT SHARED(STOP)"

[[at]]
at = 0.5
qmgr = "QM1"
mqsc = "START CHANNEL(QSG1.TO.QM3) CHLDISP(SHARED)"

[[at]]
at = 1
qmgr = "QM2"
mqsc = "START CHINIT"

[[workload]]
name = "to.qm3"
type = "putter"
qmgr = "QM2"
queue = "TO.QM3"
rate = 10
persistence = "persistent"
"""


@pytest.mark.slow
@keeps(
    "docs/channels.md",
    "In `--processes` mode a member's watcher runs the peer channel recovery of a member "
    "whose lease ran out, after its shared-queue recovery",
)
@keeps(
    "docs/channels.md",
    "A shared sender that each member process starts at once is started once in the group: "
    "the processes that find it claimed leave it.",
)
def test_a_killed_members_shared_sender_is_restarted_by_a_survivor_across_processes(
    tmp_path: Path, cf_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "Shared channel recovery": when a member fails, another restarts its SHARED
    # channels after shared-queue peer recovery. QM1 runs QSG1.TO.QM3 (QM2's channel
    # initiator was stopped when it started), and is SIGKILLed at 4 s: QM2's member-lease
    # watcher sees QM1's lease run out, recovers its units of work, then restarts the
    # channel; QM2's puts keep arriving, each once. Across processes this did not
    # happen: the killed member's claim stayed until its own restart.
    monkeypatch.setattr(processes, "STARTUP", 20.0)
    path = tmp_path / "shared-sender.toml"
    path.write_text(SHARED_SENDER_PROCESSES)
    scenario = parse_scenario(SHARED_SENDER_PROCESSES, str(path))
    kills = [processes.Kill(4.0, "QM1", downtime=10.0)]
    for _ in range(3):
        outcome, run = processes.run_one(path, scenario, 1, redis_url=cf_url, kills=kills)
        # A loaded machine can stall a member past its 3 s member lease: it then ends
        # itself (exit 70, fenced), which says nothing of channel recovery: run again.
        fenced = [v for v in outcome.failed() if all("exit 70" in i for i in v.involved)]
        if not (fenced and len(fenced) == len(outcome.failed())):
            break
    assert outcome.ok, outcome.failed()
    recovered = [e for e in run.events if isinstance(e, ChannelRecovered)]
    assert [(e.q_mgr, e.failed, e.restarted) for e in recovered] == [("QM2", "QM1", 1)]
    running = [
        e.q_mgr
        for e in run.events
        if isinstance(e, ChannelStateChanged)
        and e.channel == "QSG1.TO.QM3"
        and e.state == "RUNNING"
    ]
    senders = [q_mgr for q_mgr in running if q_mgr != "QM3"]
    assert senders[-2:] == ["QM1", "QM2"], running  # QM1's instance, then QM2's
