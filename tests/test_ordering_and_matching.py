"""Retrieval order and matching (IBM: "The order in which messages are retrieved from a
queue", "Priority"; pymqi's defaults)."""

from __future__ import annotations

import pytest

from qsg import CMQC, GMO, MD, PMO, MQMIError, QMgr
from qsg.core.structs import CCSID_UTF8
from tests.claims import keeps
from tests.helpers import drain, get, open_queue, put

# The contract suite: each test runs on the in-process store and on the coupling facility's.
pytestmark = pytest.mark.usefixtures("each_store")


@pytest.fixture
def qm() -> QMgr:
    qm = QMgr("QM1")
    qm.define_queue("PRIO", def_priority=4)
    qm.define_queue("FIFO", msg_delivery_sequence=CMQC.MQMDS_FIFO)
    return qm


@keeps(
    "docs/mq-rules.md",
    (
        "A priority queue returns higher priority first and equal priority in arrival order; a "
        "FIFO queue ignores priority."
    ),
)
def test_a_priority_queue_returns_higher_priority_first_and_equal_priority_in_arrival_order(
    qm: QMgr,
) -> None:
    # Seed: "FIFO within priority sequence ... inserted immediately following the last
    # message that has the same priority."
    h = open_queue(qm, "PRIO")
    for body, priority in [(b"a5", 5), (b"b1", 1), (b"c5", 5), (b"d9", 9), (b"e1", 1)]:
        put(h, body, 0.0, Priority=priority)
    assert drain(h, 1.0) == [b"d9", b"a5", b"c5", b"b1", b"e1"]


@keeps(
    "docs/mq-rules.md",
    (
        "A priority queue returns higher priority first and equal priority in arrival order; a "
        "FIFO queue ignores priority."
    ),
)
def test_a_fifo_queue_ignores_priority(qm: QMgr) -> None:
    # Seed: "The queue manager maintains queues either in strict FIFO ... or in FIFO
    # within priority sequence", by MsgDeliverySequence.
    h = open_queue(qm, "FIFO")
    for body, priority in [(b"a", 1), (b"b", 9), (b"c", 5)]:
        put(h, body, 0.0, Priority=priority)
    assert drain(h, 1.0) == [b"a", b"b", b"c"]


@keeps("docs/rules.md", "equal priority in arrival order, not commit order")
def test_equal_priorities_come_out_in_arrival_order_not_commit_order(qm: QMgr) -> None:
    # Seed: "Messages of equal priority are stored in a queue in order of arrival, not
    # the order in which they are committed."
    early, late = qm.connect(), qm.connect()
    h_early, h_late = early.open("PRIO", CMQC.MQOO_OUTPUT), late.open("PRIO", CMQC.MQOO_OUTPUT)
    put(h_early, b"first-put", 0.0, CMQC.MQPMO_SYNCPOINT)
    put(h_late, b"second-put", 1.0, CMQC.MQPMO_SYNCPOINT)
    late.commit()
    early.commit()
    assert drain(open_queue(qm, "PRIO"), 2.0) == [b"first-put", b"second-put"]


@keeps("docs/rules.md", "`MQPRI_PRIORITY_AS_Q_DEF`/`MQPER_PERSISTENCE_AS_Q_DEF`")
def test_priority_and_persistence_as_q_def_take_the_queue_defaults(qm: QMgr) -> None:
    qm.define_queue("DEFS", def_priority=7, def_persistence=CMQC.MQPER_PERSISTENT)
    h = open_queue(qm, "DEFS")
    put(h, b"x", 0.0)  # MD defaults: MQPRI_PRIORITY_AS_Q_DEF, MQPER_PERSISTENCE_AS_Q_DEF
    _, md = get(h, 1.0)
    assert (md.Priority, md.Persistence) == (7, CMQC.MQPER_PERSISTENT)


@keeps("docs/reason-codes.md", "MQRC_PRIORITY_ERROR | Priority below -1")
def test_a_priority_below_minus_one_is_refused_with_priority_error(qm: QMgr) -> None:
    h = open_queue(qm, "PRIO")
    with pytest.raises(MQMIError, match=r"MQRC_PRIORITY_ERROR \(2050\)") as info:
        put(h, b"x", 0.0, Priority=-2)
    assert info.value.comp == CMQC.MQCC_FAILED
    assert h.inquire(CMQC.MQIA_CURRENT_Q_DEPTH) == 0


@keeps(
    "docs/rules.md",
    (
        "Priority above 9 is queued at 9 with `MQRC_PRIORITY_EXCEEDS_MAXIMUM` (a warning) and kept "
        "in the MD."
    ),
)
@keeps(
    "docs/reason-codes.md",
    "MQRC_PRIORITY_EXCEEDS_MAXIMUM | (warning) Priority above 9: put at 9",
)
def test_a_priority_above_nine_is_queued_at_nine_with_a_warning_and_kept_in_the_md(
    qm: QMgr,
) -> None:
    h = open_queue(qm, "PRIO")
    put(h, b"nine", 0.0, Priority=9)
    with pytest.raises(MQMIError, match=r"MQRC_PRIORITY_EXCEEDS_MAXIMUM \(2049\)") as info:
        put(h, b"twelve", 0.0, Priority=12)
    assert info.value.comp == CMQC.MQCC_WARNING
    put(h, b"eight", 0.0, Priority=8)
    bodies = []
    for _ in range(3):
        body, md = get(h, 1.0)
        bodies.append((body, md.Priority))
    assert bodies == [(b"nine", 9), (b"twelve", 12), (b"eight", 8)]


@keeps("docs/rules.md", "generated 24-byte MsgIds")
def test_put_generates_a_unique_24_byte_msgid_and_writes_it_back(qm: QMgr) -> None:
    h = open_queue(qm, "PRIO")
    ids = {put(h, b"x", 0.0).MsgId for _ in range(100)}
    assert len(ids) == 100 and all(len(i) == 24 and i != CMQC.MQMI_NONE for i in ids)


def test_a_msgid_given_is_kept_unless_new_msg_id_is_asked_for(qm: QMgr) -> None:
    h = open_queue(qm, "PRIO")
    mine = b"MY-ID".ljust(24, b"\0")
    assert put(h, b"x", 0.0, MsgId=mine).MsgId == mine
    fresh = put(h, b"y", 0.0, CMQC.MQPMO_NO_SYNCPOINT | CMQC.MQPMO_NEW_MSG_ID, MsgId=mine)
    assert fresh.MsgId != mine
    both = put(h, b"z", 0.0, CMQC.MQPMO_NO_SYNCPOINT | CMQC.MQPMO_NEW_CORREL_ID)
    assert len(both.CorrelId) == 24 and both.CorrelId != CMQC.MQCI_NONE


@keeps("docs/rules.md", "**Matching** by MsgId, CorrelId (and GroupId, MsgSeqNumber, Offset)")
def test_get_matches_by_msgid_and_by_correlid(qm: QMgr) -> None:
    h = open_queue(qm, "PRIO")
    put(h, b"a", 0.0, CorrelId=b"A".ljust(24, b"\0"))
    target = put(h, b"b", 0.0, CorrelId=b"B".ljust(24, b"\0"))
    body, _ = get(h, 1.0, md=MD(MsgId=target.MsgId))
    assert body == b"b"
    put(h, b"c", 0.0, CorrelId=b"C".ljust(24, b"\0"))
    gmo = GMO(
        Version=CMQC.MQGMO_VERSION_2,
        MatchOptions=CMQC.MQMO_MATCH_CORREL_ID,
        Options=CMQC.MQGMO_NO_SYNCPOINT,
    )
    assert h.get(None, MD(CorrelId=b"C"), gmo, now=1.0) == b"c"


@keeps("docs/rules.md", "a version-1 GMO matches non-null ids, as pymqi users rely on")
def test_reusing_an_md_after_a_get_matches_the_old_msgid_as_in_mq(qm: QMgr) -> None:
    # pymqi's examples: reset MsgId/CorrelId to MQMI_NONE/MQCI_NONE before reusing an MD.
    h = open_queue(qm, "PRIO")
    put(h, b"one", 0.0)
    put(h, b"two", 0.0)
    md = MD()
    assert get(h, 1.0, md=md)[0] == b"one"
    with pytest.raises(MQMIError, match=r"MQRC_NO_MSG_AVAILABLE \(2033\)"):
        get(h, 1.0, md=md)
    md.MsgId, md.CorrelId = CMQC.MQMI_NONE, CMQC.MQCI_NONE
    assert get(h, 1.0, md=md)[0] == b"two"


def test_match_options_of_a_version_2_gmo_are_obeyed_and_mqmo_none_matches_anything(
    qm: QMgr,
) -> None:
    h = open_queue(qm, "PRIO")
    put(h, b"a", 0.0)
    stale = MD(MsgId=b"NOT-THERE".ljust(24, b"\0"))
    gmo = GMO(Version=2, MatchOptions=CMQC.MQMO_NONE, Options=CMQC.MQGMO_NO_SYNCPOINT)
    assert h.get(None, stale, gmo, now=1.0) == b"a"
    with pytest.raises(MQMIError, match=r"MQRC_MATCH_OPTIONS_ERROR \(2247\)"):
        h.get(None, MD(), GMO(Version=2, MatchOptions=0x4000), now=1.0)


def test_a_str_body_is_sent_as_utf8_with_format_string_as_pymqi_does(qm: QMgr) -> None:
    h = open_queue(qm, "PRIO")
    h.put("héllo", MD(), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    body, md = get(h, 1.0)
    assert body == "héllo".encode() and md.Format == CMQC.MQFMT_STRING
    assert md.CodedCharSetId == CCSID_UTF8 == 1208


@keeps(
    "docs/rules.md",
    (
        "Character fields (ReplyToQ, PutApplName, ...) come back as they were put, not "
        "blank-padded to their C length"
    ),
)
def test_get_returns_the_descriptor_as_put_with_context_filled_in(qm: QMgr) -> None:
    qm_conn = qm.connect(user="alice", appl_name="payments")
    h = qm_conn.open("PRIO", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_AS_Q_DEF)
    put(h, b"x", 3723.5, ReplyToQ=b"REPLY", MsgType=CMQC.MQMT_REQUEST, Feedback=0)
    _, md = get(h, 3724.0)
    assert md.ReplyToQ == b"REPLY" and md.MsgType == CMQC.MQMT_REQUEST
    assert md.UserIdentifier == b"alice" and md.PutApplName == b"payments"
    assert (md.PutDate, md.PutTime) == (b"20260101", b"01020350")


@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_TRUNCATED_MSG_ACCEPTED | (warning) a longer message with ACCEPT_TRUNCATED_MSG: "
        "removed, data cut to the buffer"
    ),
)
@keeps(
    "docs/reason-codes.md",
    "MQRC_TRUNCATED_MSG_FAILED | a longer message without ACCEPT_TRUNCATED_MSG: left on the queue",
)
def test_truncation_fails_and_leaves_the_message_unless_accepted(qm: QMgr) -> None:
    h = open_queue(qm, "PRIO")
    put(h, b"0123456789", 0.0)
    with pytest.raises(MQMIError, match=r"MQRC_TRUNCATED_MSG_FAILED \(2080\)") as info:
        get(h, 1.0, max_length=4)
    assert info.value.original_length == 10
    assert h.inquire(CMQC.MQIA_CURRENT_Q_DEPTH) == 1
    with pytest.raises(MQMIError, match=r"MQRC_TRUNCATED_MSG_ACCEPTED \(2079\)") as accepted:
        get(h, 1.0, CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_ACCEPT_TRUNCATED_MSG, max_length=4)
    assert accepted.value.comp == CMQC.MQCC_WARNING and accepted.value.message == b"0123"
    assert h.inquire(CMQC.MQIA_CURRENT_Q_DEPTH) == 0
