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
from actors.events import ChannelStateChanged
from qsg import CMQC, OD, MQMIError, QMgr
from qsg.core import conntag, igq
from qsg.core.igq_agent import Agent
from qsg.core.objects import CFStructure
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc.reader import load
from tests.claims import keeps
from tests.helpers import put
from tests.test_shared_channels import drain, owner, put_persistent, shared_sender

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
