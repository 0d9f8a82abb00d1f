"""MQ's own agents on shared queues serialize with connection tags (issue 48).

IBM MQ for z/OS, "Channels and serialization" and "The intra-group queuing agent and
Serialization": after a member's failure, shared-queue peer recovery is asynchronous,
so a channel (or the member's IGQ agent) could start again before it ends and process
committed messages ahead of the ones still being recovered. To keep the order, message
channel agents that process messages on shared queues, and the IGQ agent, "serialize
access to shared queues by issuing the MQCONNX API call"; an attempt while peer recovery
is still in progress fails, an error message is issued, and the agent goes into retry
state, to start at a retry once peer recovery is complete. qsg's agents connect with
MQCNO_RESTRICT_CONN_TAG_QSG and a tag of their own (``conntag.agent_options``), kept in
the group's connection-tag registry; the tests play it on both stores.
"""

from __future__ import annotations

import pytest
import trio

import qsg
from actors.admin import command
from actors.clock import VirtualClock
from actors.events import ChannelDelivered, ChannelStateChanged
from actors.world import World
from qsg import CMQC, GMO, MD, OD, PMO, MQMIError, QMgr
from qsg.core import conntag, igq
from qsg.core.igq_agent import Agent
from qsg.core.objects import CFStructure
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc.reader import load
from tests.claims import keeps
from tests.helpers import put
from tests.test_igq import TO_QM2, igq_group
from tests.test_shared_channels import (
    drain,
    group_listeners,
    owner,
    put_persistent,
    shared_sender,
)

CHANNEL = "QSG.TO.QM3"


def _tag(kind: str, name: str) -> bytes:
    cno = conntag.agent_options(kind, name, "QM1", CMQC.MQPL_ZOS)
    assert cno is not None
    return cno.tag


GROUP_XMITQ = (
    "DEFINE QLOCAL(SYSTEM.QSG.TRANSMIT.QUEUE) QSGDISP(SHARED) CFSTRUCT(CSQSYSAPPL)"
    " USAGE(XMITQ) INDXTYPE(CORRELID)"
)


@keeps(
    "docs/channels.md",
    "so an agent of a later life of its member is refused while peer recovery of an "
    "earlier life has not resolved the tag, and retries as above.",
)
@keeps(
    "docs/channels.md",
    "in the space IBM keeps for its products (no application can take it)",
)
@pytest.mark.usefixtures("each_store")
def test_a_members_igq_agent_waits_in_retry_for_the_peer_recovery_of_its_earlier_life() -> None:
    """ "An attempt, by the IGQ agent to serialize access to shared queues while peer
    recovery is still in progress might fail. An error message is issued and the IGQ
    agent is put into retry state. When queue manager peer recovery is complete ... the
    IGQ agent can start." QM2's agent of a life that failed holds its tag; the agent of
    QM2's next life is refused (2271) and retries, and delivers once QM1's peer recovery
    of that life has resolved it."""
    qsg = QueueSharingGroup("QSG1")
    qm1, qm2 = QMgr("QM1", qsg=qsg), QMgr("QM2", qsg=qsg)
    qm1.define_structure(CFStructure("CSQSYSAPPL", recover=True))
    load(qm1, GROUP_XMITQ + "\nALTER QMGR IGQ(ENABLED)")
    qm2.define_queue("APP.IN")
    to_qm2 = qm1.connect().open(OD(ObjectName=b"APP.IN", ObjectQMgrName=b"QM2"), CMQC.MQOO_OUTPUT)
    earlier = Agent(qm2)
    assert earlier.batch(1.0).delivered == []  # connected, its tag held: then QM2 fails
    tag = _tag("IGQ", "QM2")
    assert tag == b"MQIGQ.QM2"
    (held,) = qsg.shared.store.conn_tags(tag).uses
    assert (held.q_mgr, held.option) == ("QM2", CMQC.MQCNO_RESTRICT_CONN_TAG_QSG)
    # An application cannot take it: tags beginning "MQ" are IBM's (MQRC_CNO_ERROR).
    cno = conntag.ConnectOptions(options=CMQC.MQCNO_SERIALIZE_CONN_TAG_QSG, tag=tag)
    with pytest.raises(MQMIError) as reserved:
        qm1.connect(cno=cno)
    assert reserved.value.reason == CMQC.MQRC_CNO_ERROR
    put(to_qm2, b"after the failure", 2.0)
    qm2.incarnation += 1  # QM2's next life, started before peer recovery ends
    restarted = Agent(qm2)
    refused = restarted.batch(3.0)
    assert refused.delivered == [] and "2271" in refused.retry, refused.retry
    assert "peer recovery" in refused.retry
    assert qm1.depth(igq.IGQ_XMITQ) == 1
    qm1.recover_peer("QM2", qm2.incarnation - 1)
    assert len(restarted.batch(4.0).delivered) == 1


@keeps(
    "docs/channels.md",
    "the agent serializes its access to the shared queues exactly as a shared channel's "
    "sending agent does (one code path, `QMgr.connect_agent`).",
)
@keeps(
    "docs/channels.md",
    "Refused, it logs the line a channel's agent logs (\"the IGQ agent of QM2 cannot "
    'serialize its access to shared queues: shared queue peer recovery is in progress", '
    "with the reason code) and goes to RETRYING; after peer recovery it delivers at its "
    "next retry, each message once.",
)
async def test_a_restarted_members_igq_agent_logs_its_refusal_retries_and_delivers_each_once(
    virtual_clock: VirtualClock, cf_mode: dict[str, object], caplog: pytest.LogCaptureFixture
) -> None:
    """ "The IGQ agent ... serializes access to shared queues": a member fails, and
    restarts while peer recovery of its earlier life still holds the agent's tag (held
    by hand: in a qsg world its restart resolves that life first). Its new agent is
    refused (2271) with the error message a shared channel's agent issues, logged as
    that agent logs it, goes into retry, and delivers at the first retry after the
    recovery, each message once."""
    async with qsg.start(igq_group(), **cf_mode) as world:  # type: ignore[arg-type]
        qm1 = await world.connect("QM1")
        out = await qm1.open(TO_QM2, CMQC.MQOO_OUTPUT)
        persistent = MD(Persistence=CMQC.MQPER_PERSISTENT)
        await out.put(b"before", persistent, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT))
        await trio.sleep(1.0)
        store = world.qsgs["QSG1"].shared.store
        tag = _tag("IGQ", "QM2")
        (held,) = store.conn_tags(tag).uses
        assert (held.q_mgr, held.space) == ("QM2", "QM2MSTR")  # its agent, connected
        await world.kill("QM2")
        earlier = world.qmgrs["QM2"].rules.incarnation
        await world.restart("QM2")
        failed = conntag.TagUse(tag, "QM2", earlier, 1, held.option, held.space)
        assert store.claim_conn_tag(failed, store.conn_tags(tag).version)
        bodies = [b"after %d" % i for i in range(3)]
        for body in bodies:
            await out.put(body, persistent, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT))
        await trio.sleep(1.0)
        states = [e for e in world.events.of(ChannelStateChanged) if e.q_mgr == "QM2"]
        assert states[-1].state == "RETRYING", states[-1]
        line = (
            "the IGQ agent of QM2 cannot serialize its access to shared queues: shared "
            "queue peer recovery is in progress (MQCC_FAILED: MQRC_CONN_TAG_IN_USE (2271)"
        )
        assert states[-1].detail.startswith(line), states[-1].detail
        logged = [r.getMessage() for r in caplog.records if r.name == "qsg.channels"]
        assert f"QM2: {states[-1].detail}" in logged
        assert len(world.events.of(ChannelDelivered)) == 1  # "before" alone so far
        store.release_conn_tags("QM2", earlier + 1)  # what its peer recovery does
        await trio.sleep(igq.SHORT_RETRY_INTERVAL + 1.0)
        qm2 = await world.connect("QM2")
        app_in = await qm2.open("APP.IN", CMQC.MQOO_INPUT_SHARED)
        got = []
        while True:
            try:
                got.append(await app_in.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT)))
            except MQMIError as error:
                if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
                    raise
                break
        assert sorted(got) == sorted([b"before", *bodies])
        assert len(world.events.of(ChannelDelivered)) == 4
        states = [e for e in world.events.of(ChannelStateChanged) if e.q_mgr == "QM2"]
        assert states[-1].state == "RUNNING", states[-1]


@keeps(
    "docs/channels.md",
    "goes to RETRYING and tries again at its retry intervals; once peer recovery has "
    "resolved the tag, it starts at its next retry.",
)
@keeps(
    "docs/channels.md",
    "qsg's are MQCNO_RESTRICT_CONN_TAG_QSG from the member's channel initiator, with the "
    "tag `MQCHL.` and the channel's name",
)
async def test_a_shared_channel_started_while_peer_recovery_holds_its_tag_retries_then_runs(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    """ "An attempt to start a channel for which shared queue peer recovery is still in
    progress might result in a failure. An error message indicating that recovery is in
    progress is issued, and the channel is put into retry state. Once queue manager peer
    recovery is complete, the channel can restart at the time of the next retry." The
    sending MCA of a shared channel holds its tag while it runs and gives it up when
    stopped; started while a failed life of a member still holds it, it retries, and runs
    (its messages delivered) at the first retry after that life's peer recovery."""
    async with qsg.start(shared_sender(), seed=3, **cf_mode) as world:  # type: ignore[arg-type]
        await trio.sleep(1.0)
        running = owner(world)
        other = "QM2" if running == "QM1" else "QM1"
        store = world.qsgs["QSG1"].shared.store
        tag = _tag("CHL", CHANNEL)
        assert tag == b"MQCHL." + CHANNEL.encode()
        (held,) = store.conn_tags(tag).uses
        assert (held.q_mgr, held.option) == (running, CMQC.MQCNO_RESTRICT_CONN_TAG_QSG)
        assert held.space == f"{running}CHIN"  # its member's channel initiator
        assert not (await command(world, running, f"STOP CHANNEL({CHANNEL})")).failed
        await trio.sleep(1.0)
        assert store.conn_tags(tag).uses == ()
        # The other member's life left a unit of work under the tag, unresolved until
        # its peer recovery (the tag held as a failed life holds it).
        life = world.qmgrs[other].rules.incarnation
        failed = conntag.TagUse(tag, other, life, 1, held.option, f"{other}CHIN")
        assert store.claim_conn_tag(failed, store.conn_tags(tag).version)
        assert not (await command(world, running, f"START CHANNEL({CHANNEL})")).failed
        await trio.sleep(1.0)
        states = [e for e in world.events.of(ChannelStateChanged) if e.channel == CHANNEL]
        assert states[-1].state == "RETRYING", states[-1]
        assert "peer recovery" in states[-1].detail and "2271" in states[-1].detail
        bodies = await put_persistent(world, running, 3)
        store.release_conn_tags(other, life + 1)  # what its peer recovery does
        await trio.sleep(120.0)  # SHORTTMR (60 s) and the batch
        assert sorted(await drain(world)) == bodies


@keeps(
    "docs/channels.md",
    "An agent that ends while the facility is out of reach frees its tag once the facility "
    "is back.",
)
async def test_a_tag_whose_release_met_the_facility_out_of_reach_is_released_once_it_is_back(
    virtual_clock: VirtualClock, cf_url: str
) -> None:
    """A sending agent that ends while the facility is out of reach cannot tell the
    registry its tag is free; it keeps trying, and once the facility is back the tag is
    free, so that the channel can start elsewhere (chaos-shared.toml seed 1009883195:
    the tag stayed held by the member whose agent had ended, and the channel never ran
    again on the other)."""
    async with qsg.start(shared_sender(), seed=3, redis_url=cf_url) as world:
        await trio.sleep(1.0)
        running = owner(world)
        store = world.qsgs["QSG1"].shared.store
        tag = _tag("CHL", CHANNEL)
        assert [u.q_mgr for u in store.conn_tags(tag).uses] == [running]
        await world.cf_unavailable()
        await world.stop_chinit(running)
        await trio.sleep(2.0)
        await world.cf_available()
        await trio.sleep(3.0)
        assert store.conn_tags(tag).uses == ()


INBOUND = "QM3.TO.QSG1"


async def _shared_messages(world: World, member: str) -> list[bytes]:
    conn = await world.connect(member)
    shared = await conn.open("APP.SHARED", CMQC.MQOO_INPUT_SHARED)
    got = []
    gmo = GMO(Options=CMQC.MQGMO_NO_WAIT | CMQC.MQGMO_NO_SYNCPOINT)
    while True:
        try:
            got.append(await shared.get(None, MD(), gmo))
        except MQMIError as error:
            if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
                raise
            return got


@keeps(
    "docs/channels.md",
    "The receiving agent of a shared inbound channel serializes the same way, with the tag "
    "of its channel",
)
async def test_a_shared_inbound_channel_is_refused_on_any_member_while_peer_recovery_holds_its_tag(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    """ "Message channel agents that process messages on shared queues serialize their
    access to these queues": the receiving MCA of a channel that came through the group
    listener too. While a failed life of the member that ran it holds the channel's tag,
    the sender's next connect, on whichever member it lands, is refused with the
    recovery in progress, and the sender retries; once the tag is resolved it runs, and
    every persistent message arrives once."""
    async with qsg.start(group_listeners(), seed=4, **cf_mode) as world:  # type: ignore[arg-type]
        for member in ("QM1", "QM2"):
            reply = await command(world, member, "START LISTENER TRPTYPE(TCP) INDISP(GROUP)")
            assert not reply.failed, reply.lines
        conn = await world.connect("QM3")
        out = await conn.open("TO.QSG1", CMQC.MQOO_OUTPUT)
        persistent = MD(Persistence=CMQC.MQPER_PERSISTENT)
        for i in range(5):
            await out.put(b"a%02d" % i, persistent, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT))
        await trio.sleep(30)
        taking = "QM1" if world.qmgrs["QM1"].receivers else "QM2"
        store = world.qsgs["QSG1"].shared.store
        tag = _tag("CHL", INBOUND)
        (held,) = store.conn_tags(tag).uses
        assert (held.q_mgr, held.option) == (taking, CMQC.MQCNO_RESTRICT_CONN_TAG_QSG)
        assert held.space == f"{taking}CHIN"
        assert not (await command(world, "QM3", f"STOP CHANNEL({INBOUND})")).failed
        await trio.sleep(1.0)
        assert store.conn_tags(tag).uses == ()  # its agent ended: the tag is free
        # That member fails, its agent's unit of work under the tag unresolved until
        # its peer recovery (the tag held by hand, as the failed life holds it).
        await world.kill(taking)
        life = world.qmgrs[taking].rules.incarnation
        failed = conntag.TagUse(tag, taking, life, 1, held.option, f"{taking}CHIN")
        assert store.claim_conn_tag(failed, store.conn_tags(tag).version)
        survivor = "QM2" if taking == "QM1" else "QM1"
        assert not (await command(world, "QM3", f"START CHANNEL({INBOUND})")).failed
        for i in range(5):
            await out.put(b"b%02d" % i, persistent, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT))
        await trio.sleep(12.0)  # two connects, each refused (SHORTTMR 5)
        retries = [
            e
            for e in world.events.of(ChannelStateChanged)
            if e.q_mgr == "QM3" and e.channel == INBOUND and e.state == "RETRYING"
        ]
        assert len(retries) >= 2, retries
        assert all("peer recovery is in progress" in e.detail for e in retries[-2:])
        assert "2271" in retries[-1].detail
        assert INBOUND not in world.qmgrs[survivor].receivers
        assert await _shared_messages(world, survivor) == [b"a%02d" % i for i in range(5)]
        store.release_conn_tags(taking, life + 1)  # what its peer recovery does
        await trio.sleep(30.0)
        got = await _shared_messages(world, survivor)
        assert sorted(got) == [b"b%02d" % i for i in range(5)]


@keeps(
    "docs/channels.md",
    "PING, RESOLVE and DELETE CHANNEL of a shared channel are refused while a failed "
    "member's agent of it still holds its tag",
)
async def test_ping_resolve_and_delete_of_a_shared_channel_wait_for_its_peer_recovery(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    """ "An attempt to RESOLVE, PING, or DELETE a channel can fail for the same reason"
    (a recovery in progress). RESET is not named, and is not refused."""
    async with qsg.start(shared_sender(), seed=3, **cf_mode) as world:  # type: ignore[arg-type]
        await trio.sleep(1.0)
        running = owner(world)
        other = "QM2" if running == "QM1" else "QM1"
        assert not (await command(world, running, f"STOP CHANNEL({CHANNEL})")).failed
        await trio.sleep(1.0)
        store = world.qsgs["QSG1"].shared.store
        tag = _tag("CHL", CHANNEL)
        # The other member fails, an agent's unit of work under the tag unresolved
        # until its peer recovery (the tag held by hand, as the failed life holds it).
        await world.kill(other)
        life = world.qmgrs[other].rules.incarnation
        option = CMQC.MQCNO_RESTRICT_CONN_TAG_QSG
        failed = conntag.TagUse(tag, other, life, 1, option, f"{other}CHIN")
        assert store.claim_conn_tag(failed, store.conn_tags(tag).version)
        in_progress = f"SHARED QUEUE PEER RECOVERY OF {other} IS IN PROGRESS"
        for verb in (f"PING CHANNEL({CHANNEL})", f"RESOLVE CHANNEL({CHANNEL}) ACTION(BACKOUT)"):
            reply = await command(world, running, verb)
            assert reply.failed and in_progress in reply.text.upper(), reply.lines
            assert "MQRC_CONN_TAG_IN_USE (2271)" in reply.text.upper()
        reply = await command(world, running, f"DELETE CHANNEL({CHANNEL})")
        assert reply.failed and in_progress in reply.text.upper(), reply.lines
        assert CHANNEL in world.qmgrs[running].rules.local.channels
        reply = await command(world, running, f"RESET CHANNEL({CHANNEL}) SEQNUM(1)")
        assert not reply.failed, reply.lines
        store.release_conn_tags(other, life + 1)  # what its peer recovery does
        for verb in (f"PING CHANNEL({CHANNEL})", f"RESOLVE CHANNEL({CHANNEL}) ACTION(BACKOUT)"):
            reply = await command(world, running, verb)
            assert not reply.failed, reply.lines
        reply = await command(world, running, f"DELETE CHANNEL({CHANNEL})")
        assert not reply.failed, reply.lines
