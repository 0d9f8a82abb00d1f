"""Intra-group queuing in a running world, in process and on the coupling facility's
server: messages cross the group with no channel defined, wait for a member that is
down, take the group's queue from a channel agent's put too, and an open from before
ALTER QMGR IGQ(ENABLED) gets MQRC_OBJECT_CHANGED (IBM MQ for z/OS, "Getting started
with intra-group queuing", "Undelivered/unprocessed messages", "Specific properties of
intra-group queuing")."""

from __future__ import annotations

import pytest
import trio

import qsg
from actors.admin import command
from actors.clock import VirtualClock
from actors.events import ChannelDelivered
from actors.topology import Topology
from qsg import CMQC, GMO, MD, OD, PMO, MQMIError
from qsg.core import igq
from tests.claims import keeps

NO_SYNC = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
IGQ_GROUP = """
    DEFINE CFSTRUCT(CSQSYSAPPL) CFLEVEL(5) RECOVER(YES)
    DEFINE QLOCAL(SYSTEM.QSG.TRANSMIT.QUEUE) QSGDISP(SHARED) CFSTRUCT(CSQSYSAPPL) +
           USAGE(XMITQ) INDXTYPE(CORRELID)
    ALTER QMGR IGQ(ENABLED)
"""


def waiting(ms: int) -> GMO:
    return GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, WaitInterval=ms)


def igq_group(*, qm1_enabled: bool = True) -> Topology:
    """QSG1 of QM1 and QM2, no channel between them; APP.IN is QM2's own queue; QM3,
    outside the group, sends to QM1, which forwards to QM2."""
    topology = Topology()
    topology.add_qsg("QSG1", members=["QM1", "QM2"])
    topology.add_qmgr("QM3")
    group = IGQ_GROUP if qm1_enabled else IGQ_GROUP.replace("ALTER QMGR IGQ(ENABLED)", "")
    topology.mqsc("QM1", group + "\nDEFINE CHANNEL(QM3.TO.QM1) CHLTYPE(RCVR)", source="qm1")
    topology.mqsc("QM2", "DEFINE QLOCAL(APP.IN)", source="qm2")
    topology.mqsc(
        "QM3",
        """
        DEFINE QLOCAL(QM1) USAGE(XMITQ)
        DEFINE QREMOTE(VIA.QM1) RNAME(APP.IN) RQMNAME(QM2) XMITQ(QM1)
        DEFINE CHANNEL(QM3.TO.QM1) CHLTYPE(SDR) CONNAME('QM1') XMITQ(QM1)
        """,
        source="qm3",
    )
    return topology


TO_QM2 = OD(ObjectName=b"APP.IN", ObjectQMgrName=b"QM2")


@keeps("docs/channels.md", "No channel or transmission queue between the members is needed.")
async def test_igq_delivers_between_members_with_no_channel_defined(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    async with qsg.start(igq_group(), **cf_mode) as world:  # type: ignore[arg-type]
        qm1 = await world.connect("QM1")
        out = await qm1.open(TO_QM2, CMQC.MQOO_OUTPUT)
        await out.put(b"np", MD(Persistence=CMQC.MQPER_NOT_PERSISTENT), NO_SYNC)
        await out.put(b"p", MD(Persistence=CMQC.MQPER_PERSISTENT), NO_SYNC)
        qm2 = await world.connect("QM2")
        app_in = await qm2.open("APP.IN", CMQC.MQOO_INPUT_SHARED)
        got = [await app_in.get(None, MD(), waiting(1000)) for _ in range(2)]
        assert sorted(got) == [b"np", b"p"]
        delivered = world.events.of(ChannelDelivered)
        assert {(e.q_mgr, e.channel, e.queue) for e in delivered} == {
            ("QM2", igq.IGQ_XMITQ, "APP.IN")
        }


@keeps(
    "docs/channels.md",
    "its messages stay on SYSTEM.QSG.TRANSMIT.QUEUE until it restarts and its own agent "
    "delivers them; no other member takes them.",
)
async def test_messages_for_a_member_that_is_down_wait_for_its_own_agent(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    # "Undelivered/unprocessed messages": they stay on SYSTEM.QSG.TRANSMIT.QUEUE until
    # that member restarts; no other member's agent delivers them.
    async with qsg.start(igq_group(), **cf_mode) as world:  # type: ignore[arg-type]
        await world.kill("QM2")
        qm1 = await world.connect("QM1")
        out = await qm1.open(TO_QM2, CMQC.MQOO_OUTPUT)
        await out.put(b"while down", MD(Persistence=CMQC.MQPER_PERSISTENT), NO_SYNC)
        await trio.sleep(600)
        assert world.events.of(ChannelDelivered) == []
        browse = await qm1.open(igq.IGQ_XMITQ, CMQC.MQOO_INQUIRE)
        assert await browse.inquire(CMQC.MQIA_CURRENT_Q_DEPTH) == 1
        await world.restart("QM2")
        qm2 = await world.connect("QM2")
        app_in = await qm2.open("APP.IN", CMQC.MQOO_INPUT_SHARED)
        assert await app_in.get(None, MD(), waiting(1000)) == b"while down"


@keeps(
    "docs/channels.md",
    "so a message arriving over a channel for another member is forwarded by IGQ",
)
async def test_a_channel_agents_put_for_another_member_goes_by_igq(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    # "MCAs' puts count too": a message arriving at QM1 for QM2 is forwarded by IGQ.
    async with qsg.start(igq_group(), **cf_mode) as world:  # type: ignore[arg-type]
        qm3 = await world.connect("QM3")
        out = await qm3.open("VIA.QM1", CMQC.MQOO_OUTPUT)
        await out.put(b"two hops", MD(), NO_SYNC)
        qm2 = await world.connect("QM2")
        app_in = await qm2.open("APP.IN", CMQC.MQOO_INPUT_SHARED)
        assert await app_in.get(None, MD(), waiting(30_000)) == b"two hops"
        hops = [(e.q_mgr, e.channel) for e in world.events.of(ChannelDelivered)]
        assert hops == [("QM1", "QM3.TO.QM1"), ("QM2", igq.IGQ_XMITQ)]


async def test_alter_qmgr_igq_enabled_gives_2041_to_a_handle_opened_before(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    async with qsg.start(igq_group(qm1_enabled=False), **cf_mode) as world:  # type: ignore[arg-type]
        qm1 = await world.connect("QM1")
        with pytest.raises(MQMIError, match=r"2087"):  # no route to QM2 without IGQ
            await qm1.open(TO_QM2, CMQC.MQOO_OUTPUT)
        await command(world, "QM1", "DEFINE QLOCAL(QM2) USAGE(XMITQ)")
        before = await qm1.open(TO_QM2, CMQC.MQOO_OUTPUT)
        await command(world, "QM1", "ALTER QMGR IGQ(ENABLED)")
        with pytest.raises(MQMIError, match=r"MQRC_OBJECT_CHANGED \(2041\)"):
            await before.put(b"stale", MD(), NO_SYNC)
        await before.close()
        after = await qm1.open(TO_QM2, CMQC.MQOO_OUTPUT)
        await after.put(b"fresh", MD(), NO_SYNC)
        qm2 = await world.connect("QM2")
        app_in = await qm2.open("APP.IN", CMQC.MQOO_INPUT_SHARED)
        assert await app_in.get(None, MD(), waiting(1000)) == b"fresh"


@pytest.mark.slow
def test_the_shipped_igq_scenario_crosses_the_group_and_waits_for_the_member_that_is_down(
    cf_url: str,
) -> None:
    # scenarios/igq.toml: what its header says to look for.
    from pathlib import Path

    from actors.events import MessagePut
    from qsg.scenario import load_scenario
    from qsg.scenario.play import run_scenario

    scenario = load_scenario(Path(__file__).parent.parent / "scenarios" / "igq.toml")
    result = run_scenario(scenario, redis_url=cf_url)
    delivered = [e for e in result.events if isinstance(e, ChannelDelivered)]
    assert {(e.q_mgr, e.channel, e.queue) for e in delivered} == {("QM2", igq.IGQ_XMITQ, "APP.IN")}
    assert not [e for e in delivered if 40 <= e.time < 70]  # QM2 was down
    after = [e for e in delivered if e.time >= 70]
    put = {e.msg_id: e.time for e in result.events if isinstance(e, MessagePut)}
    assert any(put[e.msg_id] < 70 for e in after)  # some had waited for QM2's agent
    sent = result.summary.queue("QSG1", igq.IGQ_XMITQ)["put"]
    assert sent > 1000 and sent - 5 <= len(delivered) <= sent
    assert result.summary.queue("QM2", "APP.IN")["got"] == len(delivered)


@keeps(
    "docs/channels.md",
    "A SYSTEM.QSG.TRANSMIT.QUEUE defined while the members run is served at once",
)
async def test_a_group_queue_defined_while_the_members_run_is_served_at_once(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    # "Getting started with intra-group queuing": every member's agent serves the
    # group's queue; one defined after the members started needs no restart here.
    topology = Topology()
    topology.add_qsg("QSG1", members=["QM1", "QM2"])
    topology.mqsc("QM1", "DEFINE CFSTRUCT(CSQSYSAPPL) CFLEVEL(5) RECOVER(YES)", source="qm1")
    topology.mqsc("QM2", "DEFINE QLOCAL(APP.IN)", source="qm2")
    async with qsg.start(topology, **cf_mode) as world:  # type: ignore[arg-type]
        define = (
            "DEFINE QLOCAL(SYSTEM.QSG.TRANSMIT.QUEUE) QSGDISP(SHARED) CFSTRUCT(CSQSYSAPPL) "
            "USAGE(XMITQ) INDXTYPE(CORRELID)"
        )
        for text in (define, "ALTER QMGR IGQ(ENABLED)"):
            reply = await command(world, "QM1", text)
            assert not reply.failed, reply.lines
        qm1 = await world.connect("QM1")
        out = await qm1.open(TO_QM2, CMQC.MQOO_OUTPUT)
        await out.put(b"late", MD(Persistence=CMQC.MQPER_PERSISTENT), NO_SYNC)
        qm2 = await world.connect("QM2")
        app_in = await qm2.open("APP.IN", CMQC.MQOO_INPUT_SHARED)
        assert await app_in.get(None, MD(), waiting(1000)) == b"late"


@keeps(
    "docs/channels.md",
    "So a run that never uses intra-group queuing plays exactly as it would without "
    "SYSTEM.QSG.TRANSMIT.QUEUE, to the order of simultaneous events.",
)
def test_a_run_that_never_uses_igq_plays_event_for_event_as_without_the_group_queue() -> None:
    # shared-queue-expiry.toml has ties (costed steps due at one instant, decided by the
    # order of trio's ready tasks): an agent parked as a task, woken by every commit on
    # the group's structures, reordered them and the run parted ways at 60 s or so.
    import dataclasses
    from pathlib import Path

    from actors.events import ChannelStateChanged
    from qsg.scenario import load_scenario
    from qsg.scenario.model import Scenario
    from qsg.scenario.play import run_scenario

    shipped = load_scenario(Path(__file__).parent.parent / "scenarios" / "shared-queue-expiry.toml")
    assert isinstance(shipped, Scenario)
    played = dataclasses.replace(
        shipped, run=dataclasses.replace(shipped.run, duration=120.0, in_process=True)
    )
    without = dataclasses.replace(
        played, qsgs=tuple(dataclasses.replace(q, system_objects=False) for q in played.qsgs)
    )
    with_igq = [
        e
        for e in run_scenario(played).events
        if not (isinstance(e, ChannelStateChanged) and e.channel == igq.IGQ_XMITQ)
    ]
    assert with_igq == list(run_scenario(without).events)
    assert len(with_igq) > 1000
