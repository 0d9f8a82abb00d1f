"""Rules-level tests of the paths a message takes through qsg/core (the router over the
coupling facilities' stores, the intra-group queuing agent, name resolution, the MQPUT
and MQGET engine, MQINQ on a handle): synchronous and fast, so that `./dev mutate`
(tests in `[tool.mutmut]`'s selection) can tell their mutants apart (issue 45). Each
names the MQ rule or the doc sentence it pins.
"""

from __future__ import annotations

import pytest

from qsg import CMQC, MD, OD, MQMIError, QMgr
from qsg.core import conntag, igq
from qsg.core.events import Event, ReportPut
from qsg.core.facilities import FAILED, KEPT, Move, Placement
from qsg.core.igq_agent import Agent, Batch
from qsg.core.layouts import DLH, XQH
from qsg.core.memstore import MemoryStore
from qsg.core.message import Message
from qsg.core.objects import CFStructure, RemoteQueue
from qsg.core.router import Router
from qsg.core.sharing import QueueSharingGroup
from qsg.core.store import SELECT_ANY, Ordering, Recovery, Syncpoint
from qsg.mqsc import load
from tests.helpers import drain, get, open_queue, put, refusal_detail


def _msg(body: bytes = b"m") -> Message:
    desc = MD(Persistence=1, MsgId=body[:24].ljust(24, b"\0")).get()
    return Message(desc, body, 0.0, None, 0)


def _router(*structures: CFStructure) -> Router:
    facilities = ("CF01", "CF02", "CF03")
    definitions = {s.name: s for s in structures}
    router = Router(
        Placement(facilities),
        {f: MemoryStore() for f in facilities},
        MemoryStore(),
        definitions.get,
    )
    for s in structures:
        router.define_structure(s.name, size_kb=1024, cf_level=5)
        router.create_queue(f"Q.{s.name}", Ordering.FIFO, s.name)
    return router


# ---- router: a coupling facility's server dies ----------------------------------------
def test_a_crashed_facility_fails_the_units_of_work_with_work_on_a_structure_left_there() -> None:
    # "Handling failure of a coupling facility": a duplexed structure carries on in its
    # other instance; any other structure stays in the failed facility, and a unit of
    # work with work on it can no longer commit (it is backed out, MQRC_BACKED_OUT).
    plain = CFStructure("APP1", recover=True, preference=("CF01", "CF02"))
    duplex = CFStructure("DUP1", recover=True, duplex=True, preference=("CF01", "CF02"))
    router = _router(plain, duplex)
    assert router.placement.secondary == {"DUP1": "CF02"}
    router.put("Q.APP1", _msg(b"plain"), "u1", 10)
    router.put("Q.DUP1", _msg(b"dup"), "u2", 10)
    moves = router.crash("CF01")
    assert sorted(moves, key=lambda m: m.structure) == [
        Move("APP1", FAILED, "CF01"),
        Move("DUP1", KEPT, "CF02"),
    ]
    assert router.placement.primary == {"APP1": "CF01", "DUP1": "CF02"}
    assert "CF01" not in router.placement.alive
    assert router.backed_out("u1") == (
        "coupling facility CF01 failed while the unit of work had work in it"
    )
    assert router.backed_out("u2") is None
    # The duplexed structure's unit of work lives on in its survivor only.
    assert router.prepare("u2") is None
    router.commit("u2")
    assert router.store_of("CF02").depth("Q.DUP1") == 1
    assert router.store_of("CF01").uncommitted("Q.DUP1") == 1  # the dead one, untouched


# ---- igq_agent: the intra-group queuing agent's batch --------------------------------
OUT = CMQC.MQOO_OUTPUT
P, NP = CMQC.MQPER_PERSISTENT, CMQC.MQPER_NOT_PERSISTENT


def _igq_group(events: list[Event] | None = None) -> tuple[QMgr, QMgr]:
    """QSG1 of QM1 and QM2 with the group's transmission queue, IGQ(ENABLED) on QM1;
    APP.IN and REPLIES on QM2 (its events into ``events``)."""
    qsg = QueueSharingGroup("QSG1")
    qm1 = QMgr("QM1", qsg=qsg)
    qm2 = QMgr("QM2", qsg=qsg, on_event=None if events is None else events.append)
    qm1.define_structure(CFStructure("CSQSYSAPPL", recover=True))
    load(
        qm1,
        "DEFINE QLOCAL(SYSTEM.QSG.TRANSMIT.QUEUE) QSGDISP(SHARED) CFSTRUCT(CSQSYSAPPL)"
        " USAGE(XMITQ) INDXTYPE(CORRELID)\nALTER QMGR IGQ(ENABLED)",
    )
    qm2.define_queue("APP.IN")
    qm2.define_queue("REPLIES")
    return qm1, qm2


def _to_qm2(qm1: QMgr, queue: bytes) -> object:
    return qm1.connect().open(OD(ObjectName=queue, ObjectQMgrName=b"QM2"), OUT)


def test_an_igq_agent_refused_its_connection_tag_delivers_nothing_and_retries_saying_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # "The intra-group queuing agent and Serialization": while peer recovery of an
    # earlier life of the member holds the tag, the agent cannot connect; it retries.
    _, qm2 = _igq_group()
    refusal = MQMIError(CMQC.MQCC_FAILED, CMQC.MQRC_CONN_TAG_NOT_USABLE, "held by a recovery")
    error = conntag.NotSerializedError("IGQ", "QM2", refusal)

    def refusing(*args: object, **kwargs: object) -> None:
        raise error

    monkeypatch.setattr(qm2, "connect_agent", refusing)
    outcome = Agent(qm2).batch(2.0)
    assert outcome == Batch([], retry=error.line, refused=True)
    assert outcome.delivered == [] and outcome.refused is True


def test_an_igq_agent_that_cannot_open_the_group_queue_delivers_nothing_and_retries() -> None:
    # A failed CSQSYSAPPL fails the agent's MQOPEN of SYSTEM.QSG.TRANSMIT.QUEUE
    # (MQRC_CF_STRUC_FAILED): "the IGQ agent enters retry state".
    qm1, qm2 = _igq_group()
    assert qm1.qsg is not None
    qm1.qsg.shared.store.fail_structure("CSQSYSAPPL", 2.0)
    outcome = Agent(qm2).batch(3.0)
    assert outcome.delivered == [] and outcome.delivered is not None
    assert outcome.retry.startswith("SYSTEM.QSG.TRANSMIT.QUEUE cannot be opened: ")
    assert "2373" in outcome.retry and outcome.refused is False


def test_the_igq_agent_puts_with_the_senders_context_not_its_own() -> None:
    # "Intra-group queuing messages": the agent puts the message with the context of
    # the original put (MQPMO_SET_ALL_CONTEXT), as a receiving MCA does.
    qm1, qm2 = _igq_group()
    sent = put(_to_qm2(qm1, b"APP.IN"), b"ctx", 1.0, Persistence=P)  # type: ignore[arg-type]
    assert Agent(qm2).batch(2.0).delivered[0].queue == "APP.IN"
    body, md = get(open_queue(qm2, "APP.IN"), 3.0)
    assert body == b"ctx"
    # The application's user and program on QM1, not the agent's (QM2, "IGQ AGENT").
    assert (md.PutApplName.rstrip(), md.UserIdentifier.rstrip()) == (b"qsg", b"qsg")
    assert (md.PutDate, md.PutTime) == (sent.PutDate, sent.PutTime)


def test_an_igq_put_returns_the_applications_own_descriptor_not_the_transmission_ones() -> None:
    # MQPUT's MsgDesc is input/output: the queue manager gives back the identifiers and
    # context it put the message with ("MQPUT - Put message"). Through IGQ the stored
    # message is wrapped, its outer descriptor addressed to the destination member's
    # agent (CorrelId that member's name, UserIdentifier the sending member's): none of
    # that is the application's (fails before the fix: CorrelId b"QM2", user b"QM1").
    qm1, qm2 = _igq_group()
    handle = qm1.connect("alice", "PAYAPP").open(
        OD(ObjectName=b"APP.IN", ObjectQMgrName=b"QM2"), OUT
    )
    sent = put(handle, b"req", 1.0, CorrelId=b"MY.CORREL".ljust(24, b"\0"))
    assert sent.CorrelId == b"MY.CORREL".ljust(24, b"\0")
    assert (sent.UserIdentifier, sent.PutApplName) == (b"alice", b"PAYAPP")
    xmitq = qm1.connect().open(igq.IGQ_XMITQ, CMQC.MQOO_BROWSE)
    _, outer = get(xmitq, 1.5, CMQC.MQGMO_BROWSE_FIRST)
    assert (outer.CorrelId, outer.UserIdentifier.rstrip()) == (igq.correl_id("QM2"), b"QM1")
    Agent(qm2).batch(2.0)
    _, md = get(open_queue(qm2, "APP.IN"), 3.0)
    assert (md.CorrelId, md.MsgId) == (sent.CorrelId, sent.MsgId)
    assert md.UserIdentifier.rstrip() == b"alice"


def test_a_backed_out_igq_batch_keeps_nonpersistent_deliveries_and_takes_back_persistent_ones() -> (
    None
):
    # "Intra-group queuing messages": nonpersistent messages are got and put outside
    # syncpoint, persistent ones inside the batch's unit of work; a persistent message
    # neither put nor dead-lettered backs the batch out: the persistent ones delivered
    # before it go back to SYSTEM.QSG.TRANSMIT.QUEUE, the nonpersistent one stays put.
    qm1, qm2 = _igq_group()
    load(qm2, "ALTER QLOCAL(SYSTEM.DEAD.LETTER.QUEUE) PUT(DISABLED)")
    put(_to_qm2(qm1, b"APP.IN"), b"np", 1.0, Persistence=NP)  # type: ignore[arg-type]
    put(_to_qm2(qm1, b"APP.IN"), b"p", 1.0, Persistence=P)  # type: ignore[arg-type]
    put(_to_qm2(qm1, b"NO.SUCH.Q"), b"stuck", 1.0, Persistence=P)  # type: ignore[arg-type]
    outcome = Agent(qm2).batch(2.0)
    assert outcome.retry and outcome.delivered == []
    assert qm1.depth(igq.IGQ_XMITQ) == 2
    assert drain(open_queue(qm2, "APP.IN"), 3.0) == [b"np"]


def test_a_put_the_destination_refuses_dead_letters_the_message_for_this_member() -> None:
    # "Undelivered/unprocessed messages": a message the agent cannot put goes to the
    # destination member's dead-letter queue behind an MQDLH naming the destination
    # (DestQName, DestQMgrName) and the put's reason; it is not delivered.
    qm1, qm2 = _igq_group()
    load(qm2, "ALTER QLOCAL(APP.IN) PUT(DISABLED)")
    put(_to_qm2(qm1, b"APP.IN"), b"refused", 1.0, Persistence=P)  # type: ignore[arg-type]
    assert Agent(qm2).batch(2.0).delivered == []
    body, md = get(open_queue(qm2, "SYSTEM.DEAD.LETTER.QUEUE"), 3.0)
    dlh = DLH.unpack(body, md.Encoding)
    assert (dlh.Reason, dlh.DestQName, dlh.DestQMgrName) == (
        CMQC.MQRC_PUT_INHIBITED,
        b"APP.IN".ljust(48),
        b"QM2".ljust(48),
    )
    assert body.endswith(b"refused")


def test_an_igq_exception_report_names_the_message_it_reports_on_in_its_event() -> None:
    # "Report messages - Intra Group Queuing": the agent's exception report; the
    # world's ReportPut event names the undelivered message's MsgId.
    events: list[Event] = []
    qm1, qm2 = _igq_group(events)
    sent = put(
        _to_qm2(qm1, b"NO.SUCH.Q"),  # type: ignore[arg-type]
        b"x",
        1.0,
        Report=CMQC.MQRO_EXCEPTION,
        ReplyToQ=b"REPLIES",
        ReplyToQMgr=b"QM2",
    )
    Agent(qm2).batch(2.0)
    [report] = [e for e in events if isinstance(e, ReportPut)]
    assert (report.queue, report.original_msg_id) == ("REPLIES", sent.MsgId)
    assert report.feedback == CMQC.MQRC_UNKNOWN_OBJECT_NAME


def test_the_igq_agent_reads_the_mqxqh_in_the_encoding_its_message_descriptor_gives() -> None:
    # MQXQH: "the numeric fields are in the encoding given by the Encoding field of the
    # message descriptor" of the message on the transmission queue.
    qm1, qm2 = _igq_group()
    other = (
        CMQC.MQENC_INTEGER_NORMAL
        if CMQC.MQENC_NATIVE & CMQC.MQENC_INTEGER_REVERSED
        else (CMQC.MQENC_INTEGER_REVERSED)
    )
    inner = MD(Persistence=P, Priority=3, Encoding=CMQC.MQENC_NATIVE)
    header = XQH(b"APP.IN", b"QM2", inner).pack(other)
    xmitq = open_queue(qm1, igq.IGQ_XMITQ, OUT)
    put(
        xmitq,
        header + b"by hand",
        1.0,
        Encoding=other,
        Format=CMQC.MQFMT_XMIT_Q_HEADER,
        CorrelId=igq.correl_id("QM2"),
    )
    [delivered] = Agent(qm2).batch(2.0).delivered
    assert (delivered.queue, delivered.persistent) == ("APP.IN", True)
    body, md = get(open_queue(qm2, "APP.IN"), 3.0)
    assert (body, md.Persistence, md.Priority) == (b"by hand", P, 3)


# ---- resolve: MQOPEN's name resolution ---------------------------------------------------
def test_a_private_queue_named_like_a_shared_one_makes_mqopen_object_not_unique_2343() -> None:
    # "DEFINE queues": a shared queue defined while a member has a private queue of the
    # name; an MQOPEN of it on that member fails with MQRC_OBJECT_NOT_UNIQUE until one
    # of them is deleted.
    qsg = QueueSharingGroup("QSG1")
    qm1, qm2 = QMgr("QM1", qsg=qsg), QMgr("QM2", qsg=qsg)
    qm1.define_structure(CFStructure("APP1"))
    qm2.define_queue("APP.Q")
    qm1.define_queue("APP.Q", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")
    detail = refusal_detail(
        CMQC.MQCC_FAILED, CMQC.MQRC_OBJECT_NOT_UNIQUE, qm2.connect().open, "APP.Q", OUT
    )
    assert detail == "APP.Q is both a queue of QM2 and a shared queue of its group"
    assert qm1.connect().open("APP.Q", OUT).queue == "APP.Q"  # QM1 has no private one


def test_sqqmname_ignore_opens_locally_only_a_shared_queue_not_a_private_one_of_the_name() -> None:
    # "SharedQMgrName": with IGNORE, a shared queue named at another member of the group
    # is opened here; any other queue named at that member goes there (by IGQ here).
    qm1, _ = _igq_group()
    load(qm1, "ALTER QMGR SQQMNAME(IGNORE)")
    qm1.define_queue("APP.IN")  # QM1's own APP.IN, not the one at QM2
    handle = qm1.connect().open(OD(ObjectName=b"APP.IN", ObjectQMgrName=b"QM2"), OUT)
    assert handle.queue == igq.IGQ_XMITQ
    other = qm1.connect().open(OD(ObjectName=b"NOT.HERE", ObjectQMgrName=b"QM2"), OUT)
    assert other.queue == igq.IGQ_XMITQ


def test_a_message_too_long_for_igq_goes_by_the_xmitq_its_remote_definition_names() -> None:
    # "Limitations of intra-group queuing": a message too long for the group queue
    # takes the ordinary route: for a remote queue definition, its XMITQ.
    qm1, _ = _igq_group()
    load(qm1, "ALTER QLOCAL(SYSTEM.QSG.TRANSMIT.QUEUE) MAXMSGL(1000)")
    qm1.define_queue("TO.QM2.XMITQ", usage=CMQC.MQUS_TRANSMISSION)
    qm1.define(
        RemoteQueue(
            "TO.QM2", remote_name="APP.IN", remote_q_mgr_name="QM2", xmit_q_name="TO.QM2.XMITQ"
        )
    )
    handle = qm1.connect().open("TO.QM2", OUT)
    assert handle.queue == igq.IGQ_XMITQ
    put(handle, b"l" * (1001 - CMQC.MQXQH_LENGTH_1), 1.0)
    assert (qm1.depth(igq.IGQ_XMITQ), qm1.depth("TO.QM2.XMITQ")) == (0, 1)


def test_a_message_too_long_for_igq_with_no_ordinary_route_is_too_big_for_the_group_queue() -> None:
    # With no ordinary route (no XMITQ, no queue named QM2, no DEFXMITQ) the message
    # stays on IGQ's path, whose queue refuses it: MQRC_MSG_TOO_BIG_FOR_Q (2030).
    qm1, _ = _igq_group()
    load(qm1, "ALTER QLOCAL(SYSTEM.QSG.TRANSMIT.QUEUE) MAXMSGL(1000)")
    handle = _to_qm2(qm1, b"APP.IN")
    with pytest.raises(MQMIError) as caught:
        put(handle, b"l" * (1001 - CMQC.MQXQH_LENGTH_1), 1.0)  # type: ignore[arg-type]
    assert (caught.value.comp, caught.value.reason) == (
        CMQC.MQCC_FAILED,
        CMQC.MQRC_MSG_TOO_BIG_FOR_Q,
    )


# ---- handle: MQINQ ---------------------------------------------------------------------
def test_mqinq_of_a_selector_of_another_queue_type_warns_2068_naming_selector_and_queue() -> None:
    # "2068 (0814) (RC2068): MQRC_SELECTOR_NOT_FOR_TYPE": "the call completes with
    # MQCC_WARNING"; qsg's detail names the selector and the object.
    qm = QMgr("QM1")
    load(qm, "DEFINE QLOCAL(Q)\nDEFINE QALIAS(A) TARGET(Q)")
    alias = qm.connect().open("A", CMQC.MQOO_INQUIRE)
    with pytest.raises(MQMIError) as caught:
        alias.inquire(CMQC.MQIA_BACKOUT_THRESHOLD)
    assert (caught.value.comp, caught.value.reason, caught.value.detail) == (
        CMQC.MQCC_WARNING,
        CMQC.MQRC_SELECTOR_NOT_FOR_TYPE,
        f"selector {CMQC.MQIA_BACKOUT_THRESHOLD} on A",
    )


# ---- router: members' log records, peer recovery, a joining member -----------------------
def test_the_router_logs_each_put_and_get_under_its_member_in_both_duplexed_instances() -> None:
    # "Recovery of shared queues": each member logs its persistent puts and gets of a
    # recoverable structure (LOGQMGRS lists them); a duplexed structure's instances
    # each keep the log of every write they take. A call naming no member logs as "",
    # as a store's own calls do.
    router = _router(CFStructure("DUP1", recover=True, duplex=True))
    router.put("Q.DUP1", _msg(b"one"), None, 10, "QM1")
    for facility in ("CF01", "CF02"):
        assert router.store_of(facility)._logs["DUP1"].members == ("QM1",)
    taken = router.get("Q.DUP1", SELECT_ANY, 1.0, None, Syncpoint.NO, None, False, "QM2")
    assert taken.message is not None and taken.message.body == b"one"
    for facility in ("CF01", "CF02"):
        log = router.store_of(facility)._logs["DUP1"]
        assert (log.members, log.written) == (("QM1", "QM2"), {"QM1": 1, "QM2": 1})
    plain = _router(CFStructure("APP1", recover=True, preference=("CF01",)))
    plain.put("Q.APP1", _msg(b"two"), None, 10)
    plain.get("Q.APP1", SELECT_ANY, 1.0, None, Syncpoint.NO, None, False)
    assert plain.store_of("CF01")._logs["APP1"].written == {"": 2}


def _recovering() -> tuple[Router, MemoryStore]:
    """A router whose administration store's part of QM1's recovery QM3 already ran."""
    router = _router(CFStructure("APP1", recover=True, preference=("CF01",)))
    assert router.admin.recover("QM1", 1, "QM3") == Recovery("QM1", "QM3", True)
    return router, router.store_of("CF01")


def test_peer_recovery_by_a_later_caller_is_its_own_when_a_facilitys_part_had_work() -> None:
    # Peer recovery ("Shared queue recovery"): the call that backs out the failed
    # member's work ran it, even when another member ran the administration part.
    router, cf01 = _recovering()
    router.put("Q.APP1", _msg(b"u"), ("QM1", 5), 10, "QM1")
    assert router.recover("QM1", 1, "QM2") == Recovery("QM1", "QM2", True, 1, 1, 0)
    assert cf01.depth("Q.APP1") == 0 and cf01.uncommitted("Q.APP1") == 0


def test_peer_recovery_that_only_releases_a_lock_or_ends_an_empty_unit_is_the_callers() -> None:
    router, _ = _recovering()
    router.put("Q.APP1", _msg(b"l"), None, 10)
    taken = router.browse("Q.APP1", None, SELECT_ANY, 1.0)
    assert taken.position is not None

    class Holder:
        store_token = "QM1/7/abc"

    router.lock("Q.APP1", taken.position, Holder())
    assert router.recover("QM1", 1, "QM2") == Recovery("QM1", "QM2", True, 0, 0, 1)
    # A unit of work left with no entries (its member lost the structure and tolerated
    # it) still makes the recovery the caller's.
    router2, cf = _recovering()
    router2.put("Q.APP1", _msg(b"e"), ("QM1", 5), 10, "QM1")
    assert cf.disconnect_structure("QM1", "APP1") == (1, 1)
    assert router2.recover("QM1", 1, "QM2") == Recovery("QM1", "QM2", True, 1, 0, 0)


def test_peer_recovery_nobody_left_work_for_answers_who_ran_it_first() -> None:
    router, _ = _recovering()
    assert router.recover("QM1", 1, "QM2") == Recovery("QM1", "QM3", False, 0, 0, 0)


def test_a_joining_member_takes_a_duplexed_structures_instances_as_they_are() -> None:
    # A member joining a group other processes run: both instances are alike already,
    # so allocating the structure copies nothing (a copy would overwrite the other
    # members' writes made meanwhile).
    stores = {f: MemoryStore() for f in ("CF01", "CF02", "CF03")}
    for store in stores.values():
        store.define_structure("DUP1", size_kb=1024, cf_level=5)
        store.create_queue("Q.DUP1", Ordering.FIFO, "DUP1")
    stores["CF02"].put("Q.DUP1", _msg(b"theirs"), None, 10)
    duplex = CFStructure("DUP1", recover=True, duplex=True)
    joining = Router(
        Placement(("CF01", "CF02", "CF03")),
        stores,
        MemoryStore(),
        {"DUP1": duplex}.get,
        joining=True,
    )
    assert joining.joining is True
    joining.define_structure("DUP1", size_kb=1024, cf_level=5)
    assert stores["CF02"].depth("Q.DUP1") == 1
    first = Router(Placement(("CF01", "CF02", "CF03")), stores, MemoryStore(), {"DUP1": duplex}.get)
    assert first.joining is False
    first.define_structure("DUP1", size_kb=1024, cf_level=5)
    assert stores["CF02"].depth("Q.DUP1") == 0  # the first member's copy of CF01's
