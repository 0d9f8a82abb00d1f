"""Intra-group queuing's rules, without a running world: name resolution's preference
for SYSTEM.QSG.TRANSMIT.QUEUE, SQQMNAME, MQRC_OBJECT_CHANGED after the switch, the size
limit, IGQAUT, and the agent's batch (IBM MQ for z/OS, "Intra-group queuing" and its
pages: "Getting started with intra-group queuing", "Specific properties of intra-group
queuing", "Intra-group queuing messages", "Undelivered/unprocessed messages",
"Limitations of intra-group queuing", "User IDs used by the intra-group queuing agent")."""

from __future__ import annotations

import pytest

from qsg import CMQC, CMQCFC, MD, OD, MQMIError, QMgr
from qsg.core import igq
from qsg.core.authority import Authority
from qsg.core.igq_agent import Agent
from qsg.core.layouts import DLH
from qsg.core.objects import CFStructure, RemoteQueue
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc.errors import MQSCError
from qsg.mqsc.reader import load
from tests.claims import keeps
from tests.helpers import drain, get, open_queue, put

pytestmark = pytest.mark.usefixtures("each_store")

OUT = CMQC.MQOO_OUTPUT
GROUP_XMITQ = (
    "DEFINE QLOCAL(SYSTEM.QSG.TRANSMIT.QUEUE) QSGDISP(SHARED) CFSTRUCT(CSQSYSAPPL)"
    " USAGE(XMITQ) INDXTYPE(CORRELID)"
)


def group(*, authority: Authority | None = None) -> tuple[QMgr, QMgr]:
    """QSG1 of QM1 and QM2 with the group's transmission queue; APP.IN on QM2 only,
    no channel and no transmission queue named for QM2; IGQ(ENABLED) on QM1."""
    qsg = QueueSharingGroup("QSG1")
    qm1, qm2 = QMgr("QM1", qsg=qsg), QMgr("QM2", qsg=qsg, authority=authority)
    qm1.define_structure(CFStructure("CSQSYSAPPL", recover=True))
    qm1.define_structure(CFStructure("APP1"))
    load(qm1, GROUP_XMITQ + "\nALTER QMGR IGQ(ENABLED)")
    qm2.define_queue("APP.IN")
    return qm1, qm2


@keeps(
    "docs/channels.md",
    "then puts a message for another member of the group on SYSTEM.QSG.TRANSMIT.QUEUE in "
    "preference to any other transmission queue",
)
def test_a_message_for_another_member_goes_on_the_group_transmission_queue_with_no_channel() -> (
    None
):
    # "Getting started with intra-group queuing": with IGQ ENABLED the group's queue
    # is in the name-resolution path, "in preference to any other transmission queue".
    qm1, qm2 = group()
    qm1.define_queue("QM2", usage=CMQC.MQUS_TRANSMISSION)  # an ordinary route, not taken
    handle = qm1.connect().open(OD(ObjectName=b"APP.IN", ObjectQMgrName=b"QM2"), OUT)
    assert handle.queue == igq.IGQ_XMITQ
    put(handle, b"across the group", 1.0)
    assert qm1.depth("QM2") == 0
    assert qm2.depth(igq.IGQ_XMITQ) == 1
    assert Agent(qm2).batch(2.0).delivered[0].queue == "APP.IN"
    body, md = get(open_queue(qm2, "APP.IN"), 3.0)
    assert body == b"across the group"
    assert md.PutApplName.strip() != b""


@keeps(
    "docs/channels.md",
    "whether it was named by a remote queue definition, a queue-manager alias or ObjectQMgrName",
)
def test_a_remote_queue_definition_naming_its_xmitq_also_prefers_the_group_queue() -> None:
    qm1, _ = group()
    qm1.define_queue("TO.QM2.XMITQ", usage=CMQC.MQUS_TRANSMISSION)
    qm1.define(
        RemoteQueue(
            "TO.QM2", remote_name="APP.IN", remote_q_mgr_name="QM2", xmit_q_name="TO.QM2.XMITQ"
        )
    )
    assert qm1.connect().open("TO.QM2", OUT).queue == igq.IGQ_XMITQ


def test_with_igq_disabled_the_ordinary_route_is_taken_and_a_member_without_one_is_unknown() -> (
    None
):
    qm1, _ = group()
    load(qm1, "ALTER QMGR IGQ(DISABLED)")
    od = OD(ObjectName=b"APP.IN", ObjectQMgrName=b"QM2")
    with pytest.raises(MQMIError, match=r"2087"):  # MQRC_UNKNOWN_REMOTE_Q_MGR
        qm1.connect().open(od, OUT)


@keeps("docs/channels.md", "no other member takes them.")
def test_the_agent_takes_only_its_own_members_messages() -> None:
    # "Undelivered/unprocessed messages": a member's messages wait for its own agent.
    qsg = QueueSharingGroup("QSG1")
    qm1, qm2, qm3 = (QMgr(n, qsg=qsg) for n in ("QM1", "QM2", "QM3"))
    qm1.define_structure(CFStructure("CSQSYSAPPL", recover=True))
    load(qm1, GROUP_XMITQ + "\nALTER QMGR IGQ(ENABLED)")
    qm3.define_queue("APP.IN")
    put(qm1.connect().open(OD(ObjectName=b"APP.IN", ObjectQMgrName=b"QM3"), OUT), b"x", 0.0)
    assert Agent(qm2).batch(1.0).delivered == []
    assert qm1.depth(igq.IGQ_XMITQ) == 1
    assert len(Agent(qm3).batch(1.0).delivered) == 1


@keeps(
    "docs/channels.md",
    "an MQPUT on a handle opened toward another member before IGQ was enabled or disabled, or "
    "before SYSTEM.QSG.TRANSMIT.QUEUE was redefined, fails with MQRC_OBJECT_CHANGED (2041)",
)
def test_the_switch_gives_object_changed_to_a_handle_opened_before_it() -> None:
    # "Specific properties of intra-group queuing", object handle invalidation:
    # disabled at open but enabled at put, enabled at open but disabled at put, or the
    # queue's definition changed: MQRC_OBJECT_CHANGED (2041).
    qm1, _ = group()
    qm1.define_queue("QM2", usage=CMQC.MQUS_TRANSMISSION)
    od = OD(ObjectName=b"APP.IN", ObjectQMgrName=b"QM2")
    enabled = qm1.connect().open(od, OUT)
    load(qm1, "ALTER QMGR IGQ(DISABLED)")
    disabled = qm1.connect().open(od, OUT)
    assert disabled.queue == "QM2"
    with pytest.raises(
        MQMIError,
        match=r"MQRC_OBJECT_CHANGED \(2041\): APP\.IN: IGQ or SYSTEM\.QSG\.TRANSMIT\.QUEUE "
        r"changed since the MQOPEN; close and reopen$",
    ):
        put(enabled, b"old handle", 1.0)
    load(qm1, "ALTER QMGR IGQ(ENABLED)")
    with pytest.raises(MQMIError, match=r"MQRC_OBJECT_CHANGED \(2041\)"):
        put(disabled, b"old handle", 1.0)
    fresh = qm1.connect().open(od, OUT)
    load(qm1, "ALTER QLOCAL(SYSTEM.QSG.TRANSMIT.QUEUE) MAXDEPTH(4000)")
    with pytest.raises(MQMIError, match=r"2041"):
        put(fresh, b"redefined", 1.0)
    put(qm1.connect().open(od, OUT), b"reopened", 1.0)  # close and reopen: it goes


def test_a_handle_to_a_queue_manager_outside_the_group_is_not_invalidated() -> None:
    qm1, _ = group()
    qm1.define_queue("QM9", usage=CMQC.MQUS_TRANSMISSION)
    handle = qm1.connect().open(OD(ObjectName=b"Q", ObjectQMgrName=b"QM9"), OUT)
    load(qm1, "ALTER QMGR IGQ(DISABLED)")
    put(handle, b"unaffected", 1.0)
    assert qm1.depth("QM9") == 1


@keeps("docs/channels.md", "IGNORE opens the shared queue directly.")
def test_sqqmname_ignore_opens_a_shared_queue_named_at_another_member_locally() -> None:
    # "SharedQMgrName": USE honours the member's name (by IGQ here), IGNORE opens the
    # shared queue directly.
    qm1, _ = group()
    load(qm1, "DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1)")
    od = OD(ObjectName=b"APP.SHARED", ObjectQMgrName=b"QM2")
    assert qm1.connect().open(od, OUT).queue == igq.IGQ_XMITQ
    load(qm1, "ALTER QMGR SQQMNAME(IGNORE)")
    assert qm1.connect().open(od, OUT).queue == "APP.SHARED"


@keeps(
    "docs/channels.md",
    "a message whose data and MQXQH are longer than SYSTEM.QSG.TRANSMIT.QUEUE's MAXMSGL (or the "
    "100 MB of a shared queue) takes the ordinary route, if there is one.",
)
def test_a_message_too_long_for_the_group_queue_takes_the_ordinary_route() -> None:
    # "Limitations of intra-group queuing": IGQ takes messages up to the shared
    # queue's limit less an MQXQH; a longer one goes by the conventional route.
    qm1, _ = group()
    load(qm1, "ALTER QLOCAL(SYSTEM.QSG.TRANSMIT.QUEUE) MAXMSGL(1000)")
    qm1.define_queue("QM2", usage=CMQC.MQUS_TRANSMISSION)
    handle = qm1.connect().open(OD(ObjectName=b"APP.IN", ObjectQMgrName=b"QM2"), OUT)
    put(handle, b"s" * (1000 - CMQC.MQXQH_LENGTH_1), 1.0)
    put(handle, b"l" * (1001 - CMQC.MQXQH_LENGTH_1), 1.0)
    assert (qm1.depth(igq.IGQ_XMITQ), qm1.depth("QM2")) == (1, 1)


@keeps(
    "docs/channels.md",
    "IGQ(ENABLED) on a queue manager outside any group is refused with MQRCCF_Q_MGR_NOT_IN_QSG "
    "(3212).",
)
def test_igq_enabled_outside_a_group_is_refused_with_q_mgr_not_in_qsg() -> None:
    qm = QMgr("QM3")
    with pytest.raises(MQSCError, match=r"not in a queue-sharing group") as refused:
        load(qm, "ALTER QMGR IGQ(ENABLED)")
    assert isinstance(refused.value.__cause__, MQMIError)
    assert refused.value.__cause__.reason == CMQCFC.MQRCCF_Q_MGR_NOT_IN_QSG
    assert qm.intra_group_queuing is False
    load(qm, "ALTER QMGR IGQ(DISABLED) IGQAUT(CTX) IGQUSER(IGQUSR) SQQMNAME(IGNORE)")
    assert (qm.igq_put_authority, qm.igq_user_id, qm.shared_q_q_mgr_name) == (
        CMQC.MQIGQPA_CONTEXT,
        "IGQUSR",
        CMQC.MQSQQM_IGNORE,
    )


@keeps(
    "docs/channels.md",
    "nonpersistent messages are got outside syncpoint, persistent ones inside, committed every "
    "50 messages or when none is left for the member.",
)
def test_persistent_messages_go_in_batches_of_fifty_nonpersistent_outside_syncpoint() -> None:
    # "Intra-group queuing messages": persistent inside syncpoint, committed every 50.
    qm1, qm2 = group()
    handle = qm1.connect().open(OD(ObjectName=b"APP.IN", ObjectQMgrName=b"QM2"), OUT)
    for i in range(60):
        put(handle, b"p%d" % i, 1.0, Persistence=CMQC.MQPER_PERSISTENT)
    put(handle, b"np", 1.0, Persistence=CMQC.MQPER_NOT_PERSISTENT)
    agent = Agent(qm2)
    first = agent.batch(2.0)
    assert (len(first.delivered), first.full) == (50, True)
    second = agent.batch(2.0)
    assert (len(second.delivered), second.full) == (11, False)
    assert [d.persistent for d in second.delivered][-1] is False
    assert len(drain(open_queue(qm2, "APP.IN"), 3.0)) == 61


@keeps("docs/channels.md", "else put on the destination member's dead-letter queue behind an MQDLH")
def test_an_undeliverable_message_goes_to_the_destinations_dead_letter_queue() -> None:
    qm1, qm2 = group()
    handle = qm1.connect().open(OD(ObjectName=b"NO.SUCH.Q", ObjectQMgrName=b"QM2"), OUT)
    put(handle, b"lost?", 1.0, Persistence=CMQC.MQPER_PERSISTENT)
    assert Agent(qm2).batch(2.0).delivered == []
    body, md = get(open_queue(qm2, "SYSTEM.DEAD.LETTER.QUEUE"), 3.0)
    dlh = DLH.unpack(body, md.Encoding)
    assert (dlh.Reason, dlh.DestQName.strip()) == (CMQC.MQRC_UNKNOWN_OBJECT_NAME, b"NO.SUCH.Q")


@keeps("docs/channels.md", "with the message's persistence")
@keeps(
    "docs/channels.md",
    "A message its destination refuses is discarded if it asked for MQRO_DISCARD_MSG",
)
@keeps("docs/channels.md", "An exception report it asked for goes to its ReplyToQ")
def test_discard_msg_discards_and_an_exception_report_goes_to_the_reply_queue() -> None:
    # "Report messages - Intra Group Queuing": exception reports by the IGQ agent, with
    # the undelivered message's persistence; MQRO_DISCARD_MSG: no dead letter.
    qm1, qm2 = group()
    qm1.define_queue("REPLIES")
    handle = qm1.connect().open(OD(ObjectName=b"NO.SUCH.Q", ObjectQMgrName=b"QM2"), OUT)
    report = CMQC.MQRO_EXCEPTION | CMQC.MQRO_DISCARD_MSG
    put(handle, b"x", 1.0, Report=report, ReplyToQ=b"REPLIES")
    # QM2's IGQ is disabled and it has no route to QM1: the report goes to QM2's
    # dead-letter queue, the message itself nowhere (MQRO_DISCARD_MSG).
    Agent(qm2).batch(2.0)
    body, md = get(open_queue(qm2, "SYSTEM.DEAD.LETTER.QUEUE"), 2.5)
    assert DLH.unpack(body, md.Encoding).Reason == CMQC.MQRC_UNKNOWN_REMOTE_Q_MGR
    assert md.MsgType == CMQC.MQMT_REPORT
    # With QM2's IGQ enabled, the report goes back by IGQ, as IBM says it may.
    load(qm2, "ALTER QMGR IGQ(ENABLED)")
    put(handle, b"y", 3.0, Report=report, ReplyToQ=b"REPLIES", Persistence=CMQC.MQPER_PERSISTENT)
    Agent(qm2).batch(3.0)
    Agent(qm1).batch(4.0)
    assert qm2.depth("SYSTEM.DEAD.LETTER.QUEUE") == 0
    _, md = get(open_queue(qm1, "REPLIES"), 5.0)
    assert (md.MsgType, md.Feedback) == (CMQC.MQMT_REPORT, CMQC.MQRC_UNKNOWN_OBJECT_NAME)
    assert md.Persistence == CMQC.MQPER_PERSISTENT  # the undelivered message's


@keeps("docs/channels.md", "is tried again 10 times at 60 s, then at 1200 s, IBM's fixed counts")
@keeps("docs/channels.md", "when that fails too, a persistent message backs the batch out")
def test_a_persistent_message_neither_put_nor_dead_lettered_backs_the_batch_out_for_retry() -> None:
    qm1, qm2 = group()
    load(qm2, "ALTER QLOCAL(SYSTEM.DEAD.LETTER.QUEUE) PUT(DISABLED)")
    handle = qm1.connect().open(OD(ObjectName=b"NO.SUCH.Q", ObjectQMgrName=b"QM2"), OUT)
    put(handle, b"dropped", 1.0, Persistence=CMQC.MQPER_NOT_PERSISTENT)
    put(handle, b"kept", 1.0, Persistence=CMQC.MQPER_PERSISTENT)
    outcome = Agent(qm2).batch(2.0)
    assert outcome.retry and outcome.delivered == []
    assert qm1.depth(igq.IGQ_XMITQ) == 1  # the persistent one, backed out
    assert igq.retry_interval(1) == 60.0 and igq.retry_interval(10) == 60.0
    assert igq.retry_interval(11) == 1200.0


@keeps(
    "docs/channels.md",
    "a batch that cannot run (the queue with other attributes, GET(DISABLED), a persistent "
    "message backed out) is tried again",
)
def test_the_agent_retries_while_the_group_queue_is_get_disabled() -> None:
    qm1, qm2 = group()
    put(qm1.connect().open(OD(ObjectName=b"APP.IN", ObjectQMgrName=b"QM2"), OUT), b"m", 1.0)
    load(qm1, "ALTER QLOCAL(SYSTEM.QSG.TRANSMIT.QUEUE) GET(DISABLED)")
    assert "2016" in Agent(qm2).batch(2.0).retry  # MQRC_GET_INHIBITED
    load(qm1, "ALTER QLOCAL(SYSTEM.QSG.TRANSMIT.QUEUE) GET(ENABLED)")
    assert len(Agent(qm2).batch(3.0).delivered) == 1


@keeps(
    "docs/channels.md",
    "a blank IGQUSER is the receiving queue manager's own ID, never checked.",
)
@keeps(
    "docs/channels.md",
    "DEF the sending member and IGQUSER, CTX the sending member and the message's "
    "UserIdentifier, ONLYIGQ IGQUSER, ALTIGQ IGQUSER and the UserIdentifier",
)
def test_igqaut_decides_whose_authority_the_agent_checks() -> None:
    # "User IDs used by the intra-group queuing agent" (two checks): DEF checks the
    # sending member's user ID, ONLYIGQ only IGQUSER (blank: nobody), CTX the sender
    # and the message's UserIdentifier.
    authority = Authority()
    authority.grant("QM1", "APP.*", "put")
    qm1, qm2 = group(authority=authority)
    handle = qm1.connect(user="alice").open(OD(ObjectName=b"APP.IN", ObjectQMgrName=b"QM2"), OUT)
    put(handle, b"def", 1.0)
    assert len(Agent(qm2).batch(2.0).delivered) == 1
    load(qm2, "ALTER QMGR IGQAUT(CTX)")
    put(handle, b"ctx", 3.0)
    assert Agent(qm2).batch(4.0).delivered == []  # alice may not put to APP.IN
    assert qm2.depth("SYSTEM.DEAD.LETTER.QUEUE") == 1
    load(qm2, "ALTER QMGR IGQAUT(ONLYIGQ) IGQUSER(BOB)")
    put(handle, b"bob", 5.0)
    assert Agent(qm2).batch(6.0).delivered == []
    authority.grant("BOB", "APP.IN", "put")
    put(handle, b"bob", 7.0)
    assert len(Agent(qm2).batch(8.0).delivered) == 1
    assert qm2.depth("APP.IN") == 2
    assert igq.checked_users(CMQC.MQIGQPA_ONLY_IGQ, "QM1", "", "alice") == []
    assert igq.checked_users(CMQC.MQIGQPA_ALTERNATE_OR_IGQ, "QM1", "U", "alice") == ["U", "alice"]


def test_display_qmgr_shows_the_igq_attributes() -> None:
    from qsg.mqsc.attributes import qmgr as display_qmgr
    from qsg.mqsc.status import take

    qm1, _ = group()
    shown = dict(display_qmgr(take(qm1, 0.0)))
    assert (shown["IGQ"], shown["IGQAUT"], shown["SQQMNAME"]) == ("ENABLED", "DEF", "USE")
    assert MD().Report == 0


@keeps(
    "docs/channels.md",
    "Nonpersistent ones are lost with a failed structure as any shared queue's are.",
)
def test_igq_messages_waiting_for_a_member_lose_only_nonpersistent_ones_with_the_structure() -> (
    None
):
    # QM2's messages wait on SYSTEM.QSG.TRANSMIT.QUEUE (its agent is not running); the
    # structure CSQSYSAPPL fails and is recovered: the persistent one is there for the
    # agent, the nonpersistent one is gone.
    qm1, qm2 = group()
    handle = qm1.connect().open(OD(ObjectName=b"APP.IN", ObjectQMgrName=b"QM2"), OUT)
    put(handle, b"kept", 1.0, Persistence=CMQC.MQPER_PERSISTENT)
    put(handle, b"lost", 1.0, Persistence=CMQC.MQPER_NOT_PERSISTENT)
    store = qm1.qsg.shared.store if qm1.qsg is not None else None
    assert store is not None
    assert store.fail_structure("CSQSYSAPPL", 2.0) == 1
    store.recover_structure("CSQSYSAPPL", purge=False)
    delivered = Agent(qm2).batch(3.0).delivered
    assert [d.queue for d in delivered] == ["APP.IN"]
    assert drain(open_queue(qm2, "APP.IN"), 4.0) == [b"kept"]


def test_the_agent_retries_while_the_group_queues_structure_has_failed() -> None:
    # A failed CSQSYSAPPL fails the agent's MQOPEN of the group queue (2373): "the IGQ
    # agent enters retry state" as for any other unusable queue; it crashed the member
    # (found when every scenario's QSG got SYSTEM.QSG.TRANSMIT.QUEUE by default).
    qm1, qm2 = group()
    store = qm1.qsg.shared.store if qm1.qsg is not None else None
    assert store is not None
    store.fail_structure("CSQSYSAPPL", 2.0)
    assert "2373" in Agent(qm2).batch(3.0).retry  # MQRC_CF_STRUC_FAILED
    store.recover_structure("CSQSYSAPPL", purge=False)
    assert Agent(qm2).batch(4.0).retry == ""
