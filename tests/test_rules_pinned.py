"""Rules that surviving mutants showed no test pinned (issue 27): each named by the rule
and the IBM documentation it comes from; each fails when the rule is broken."""

from __future__ import annotations

import pytest

from qsg import CMQC, GMO, MD, PMO, MQMIError, QMgr
from qsg.core import expiry, reports
from qsg.core.handle import Handle
from qsg.core.memstore import MemoryStore
from qsg.core.message import Message
from qsg.core.objects import CFStructure, ProcessDefinition
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc import load
from tests.claims import keeps
from tests.helpers import ALL

IN, LAST = CMQC.MQMF_MSG_IN_GROUP, CMQC.MQMF_LAST_MSG_IN_GROUP
SEG, LAST_SEG = CMQC.MQMF_SEGMENT, CMQC.MQMF_LAST_SEGMENT
NO_SYNC_PUT, SYNC_PUT = CMQC.MQPMO_NO_SYNCPOINT, CMQC.MQPMO_SYNCPOINT


def queue(**qmgr: object) -> Handle:
    qm = QMgr("QM1", **qmgr)  # type: ignore[arg-type]
    qm.define_queue("Q", msg_delivery_sequence=CMQC.MQMDS_FIFO)
    return qm.connect().open("Q", ALL)


def put(h: Handle, body: bytes = b"m", options: int = NO_SYNC_PUT, **md: object) -> MD:
    desc = MD(Version=2, **md)
    h.put(body, desc, PMO(Options=options), now=0.0)
    return desc


def get(h: Handle, options: int, max_length: int | None = None) -> tuple[bytes, GMO]:
    gmo = GMO(Version=2, Options=options)
    return h.get(max_length, MD(Version=2), gmo, now=0.0), gmo


# ---- MAXUMSGS ---------------------------------------------------------------------
@keeps(
    "docs/mq-rules.md",
    (
        "MAXUMSGS limits a unit of work's puts and gets (MQRC_SYNCPOINT_LIMIT_REACHED, 2024), "
        "counted afresh in each."
    ),
)
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_SYNCPOINT_LIMIT_REACHED | a put or get in the unit of work beyond MAXUMSGS (counted "
        "per unit of work, from 0 again after MQCMIT or MQBACK; gets outside syncpoint do not "
        "count)"
    ),
)
def test_maxumsgs_counts_afresh_in_each_unit_of_work_after_commit_and_after_backout() -> None:
    # MaxUncommittedMsgs: "the maximum number of uncommitted messages ... under any one
    # syncpoint": the count is per unit of work, so MQCMIT and MQBACK reset it.
    h = queue(max_uncommitted_msgs=2)
    for end in (h.conn.commit, h.conn.backout, h.conn.commit):
        put(h, options=SYNC_PUT)
        put(h, options=SYNC_PUT)
        with pytest.raises(MQMIError, match=r"MQRC_SYNCPOINT_LIMIT_REACHED \(2024\)"):
            put(h, options=SYNC_PUT)
        end()


@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_SYNCPOINT_LIMIT_REACHED | a put or get in the unit of work beyond MAXUMSGS (counted "
        "per unit of work, from 0 again after MQCMIT or MQBACK; gets outside syncpoint do not "
        "count)"
    ),
)
def test_a_get_outside_syncpoint_does_not_count_against_maxumsgs() -> None:
    # Only messages within the unit of work count: a get with MQGMO_NO_SYNCPOINT is not.
    h = queue(max_uncommitted_msgs=1)
    put(h)
    put(h)
    get(h, CMQC.MQGMO_NO_SYNCPOINT)
    assert h.conn.uow.count == 0
    put(h, options=SYNC_PUT)  # the one message the unit of work may hold
    get(h, CMQC.MQGMO_NO_SYNCPOINT)
    assert h.conn.uow.count == 1


def test_mqinq_of_maxumsgs_answers_the_queue_managers_value() -> None:
    # MQIA_MAX_UNCOMMITTED_MSGS: MaxUncommittedMsgs, a queue-manager attribute.
    assert queue(max_uncommitted_msgs=37).inquire(CMQC.MQIA_MAX_UNCOMMITTED_MSGS) == 37


# ---- browse with the group options -------------------------------------------------
def test_browse_with_all_msgs_available_skips_a_group_not_yet_complete() -> None:
    # MQGMO_ALL_MSGS_AVAILABLE: "Messages in a group become available for retrieval only
    # when all messages in the group are available" (browsing too).
    h = queue()
    put(h, b"alone")
    first = put(h, b"g1", MsgFlags=IN)
    options = CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_ALL_MSGS_AVAILABLE
    assert get(h, options)[0] == b"alone"
    with pytest.raises(MQMIError, match="MQRC_NO_MSG_AVAILABLE"):
        get(h, CMQC.MQGMO_BROWSE_NEXT | CMQC.MQGMO_ALL_MSGS_AVAILABLE)
    put(h, b"g2", MsgFlags=LAST, GroupId=first.GroupId, MsgSeqNumber=2)
    assert get(h, options)[0] == b"alone"
    assert get(h, CMQC.MQGMO_BROWSE_NEXT | CMQC.MQGMO_ALL_MSGS_AVAILABLE)[0] == b"g1"


def test_browse_with_all_segments_available_skips_a_logical_message_not_yet_complete() -> None:
    # MQGMO_ALL_SEGMENTS_AVAILABLE: segments become available only when all the segments
    # of the logical message are.
    h = queue()
    first = put(h, b"s1", MsgFlags=SEG)
    options = CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_ALL_SEGMENTS_AVAILABLE
    with pytest.raises(MQMIError, match="MQRC_NO_MSG_AVAILABLE"):
        get(h, options)
    put(h, b"s2", MsgFlags=LAST_SEG, GroupId=first.GroupId, Offset=2)
    assert get(h, options)[0] == b"s1"


def test_browse_with_complete_msg_returns_the_whole_logical_message_and_leaves_it() -> None:
    # MQGMO_COMPLETE_MSG: "Only a complete logical message can be returned"; a browse
    # removes nothing.
    h = queue()
    first = put(h, b"ab", MsgFlags=SEG)
    options = CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_COMPLETE_MSG
    with pytest.raises(MQMIError, match="MQRC_NO_MSG_AVAILABLE"):
        get(h, options)
    put(h, b"cd", MsgFlags=LAST_SEG, GroupId=first.GroupId, Offset=2)
    assert get(h, options)[0] == b"abcd"
    assert h.inquire(CMQC.MQIA_CURRENT_Q_DEPTH) == 2


# ---- groups and segments -------------------------------------------------------------
def test_a_segment_of_a_message_in_a_group_keeps_the_group_state() -> None:
    # MQRC_INCOMPLETE_GROUP (2241): a put in logical order of a message not in the group
    # while the handle's group is incomplete fails, mid-segment too.
    h = queue()
    put(h, b"s1", SYNC_PUT | CMQC.MQPMO_LOGICAL_ORDER, MsgFlags=IN | SEG)
    with pytest.raises(MQMIError, match=r"MQRC_INCOMPLETE_GROUP \(2241\)"):
        put(h, b"s2", SYNC_PUT | CMQC.MQPMO_LOGICAL_ORDER, MsgFlags=LAST_SEG)


@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_INCOMPLETE_MSG | MQPUT with LOGICAL_ORDER of a message that is not the next segment; "
        "(warning) MQCLOSE with a logical message not completed, in preference to 2241"
    ),
)
def test_closing_mid_segment_warns_incomplete_msg_in_preference_to_incomplete_group() -> None:
    # 2241: "If there is an incomplete logical message as well as an incomplete message
    # group, reason code MQRC_INCOMPLETE_MSG is returned in preference".
    h = queue()
    put(h, b"s1", NO_SYNC_PUT | CMQC.MQPMO_LOGICAL_ORDER, MsgFlags=IN | SEG)
    with pytest.raises(MQMIError) as warned:
        h.close()
    assert (warned.value.comp, warned.value.reason) == (CMQC.MQCC_WARNING, 2242)
    h = queue()
    put(h, b"s1", NO_SYNC_PUT | CMQC.MQPMO_LOGICAL_ORDER, MsgFlags=IN | LAST_SEG)
    with pytest.raises(MQMIError) as warned:
        h.close()
    assert (warned.value.comp, warned.value.reason) == (CMQC.MQCC_WARNING, 2241)


def test_the_group_status_of_a_segment_not_in_a_group_is_not_in_group() -> None:
    # MQGMO.GroupStatus: MQGS_NOT_IN_GROUP for "a message that is not in a group"; its
    # SegmentStatus still says segment.
    h = queue()
    first = put(h, b"s1", MsgFlags=SEG)
    put(h, b"s2", MsgFlags=LAST_SEG, GroupId=first.GroupId, Offset=2)
    _, gmo = get(h, CMQC.MQGMO_NO_SYNCPOINT)
    assert (gmo.GroupStatus, gmo.SegmentStatus) == (CMQC.MQGS_NOT_IN_GROUP, CMQC.MQSS_SEGMENT)
    _, gmo = get(h, CMQC.MQGMO_NO_SYNCPOINT)
    assert (gmo.GroupStatus, gmo.SegmentStatus) == (CMQC.MQGS_NOT_IN_GROUP, CMQC.MQSS_LAST_SEGMENT)


# ---- handles -------------------------------------------------------------------------
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_PUT_INHIBITED | MQPUT to a queue (or through an alias or remote definition) with "
        "PUT(DISABLED), as altered since the open"
    ),
)
def test_an_alter_of_an_alias_or_remote_queue_reaches_handles_already_open_through_it() -> None:
    # ALTER takes effect for handles open through the definition: PUT(DISABLED) on an
    # alias makes the next MQPUT fail with MQRC_PUT_INHIBITED; DEFPSIST(YES) on a remote
    # queue definition makes the next AS_Q_DEF put persistent.
    qm = QMgr("QM1")
    load(
        qm,
        """
        DEFINE QLOCAL(Q)
        DEFINE QALIAS(A) TARGET(Q)
        DEFINE QLOCAL(QM2) USAGE(XMITQ)
        DEFINE QREMOTE(R) RNAME(IN) RQMNAME(QM2) XMITQ(QM2)
    """,
    )
    conn = qm.connect()
    alias, remote = conn.open("A", CMQC.MQOO_OUTPUT), conn.open("R", CMQC.MQOO_OUTPUT)
    load(qm, "ALTER QALIAS(A) PUT(DISABLED)")
    with pytest.raises(MQMIError, match="MQRC_PUT_INHIBITED"):
        alias.put(b"m", MD(), PMO(Options=NO_SYNC_PUT), now=0.0)
    load(qm, "ALTER QREMOTE(R) DEFPSIST(YES)")
    done = remote.put(b"m", MD(), PMO(Options=NO_SYNC_PUT), now=0.0)
    assert done.persistent


@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_BUFFER_LENGTH_ERROR | MQGET with a buffer length below 0 or not a whole number (0 is "
        "valid)"
    ),
)
def test_mqget_with_a_zero_length_buffer_is_valid() -> None:
    # BufferLength "can be zero": a zero-length message is returned whole, a longer one
    # is truncated (MQRC_TRUNCATED_MSG_FAILED, or ACCEPTED with the option), never
    # MQRC_BUFFER_LENGTH_ERROR.
    h = queue()
    put(h, b"")
    put(h, b"data")
    assert get(h, CMQC.MQGMO_NO_SYNCPOINT, max_length=0)[0] == b""
    with pytest.raises(MQMIError, match=r"MQRC_TRUNCATED_MSG_FAILED \(2080\)"):
        get(h, CMQC.MQGMO_NO_SYNCPOINT, max_length=0)
    accept = CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_ACCEPT_TRUNCATED_MSG
    with pytest.raises(MQMIError, match=r"MQRC_TRUNCATED_MSG_ACCEPTED \(2079\)") as warned:
        get(h, accept, max_length=0)
    assert warned.value.message == b"" and warned.value.original_length == 4


@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_OPTIONS_ERROR | options not valid or not valid together (MQOPEN, MQPUT, MQGET, "
        "MQCLOSE); LOGICAL_ORDER on MQPUT1"
    ),
)
def test_invalid_mqclose_options_fail_with_options_error_and_leave_the_handle_open() -> None:
    # MQCLOSE: MQRC_OPTIONS_ERROR (2046) for options not valid, and for MQCO_DELETE
    # with MQCO_DELETE_PURGE.
    h = queue()
    for options in (0x1000, CMQC.MQCO_DELETE | CMQC.MQCO_DELETE_PURGE):
        with pytest.raises(MQMIError, match=r"MQRC_OPTIONS_ERROR \(2046\)"):
            h.close(options)
        assert h.open
    h.close(CMQC.MQCO_NONE)
    assert not h.open


# ---- expiry and the expiration report --------------------------------------------------
def test_one_tenth_of_a_second_left_is_reported_as_one_tenth() -> None:
    # MQMD.Expiry on MQGET: the lifetime left, in tenths of a second, rounded up; 0 only
    # once it has passed.
    assert expiry.remaining(10.1, 10.0) == 1
    assert expiry.remaining(10.05, 10.0) == 1
    assert expiry.remaining(10.004, 10.0) == 1  # a twenty-fifth of a tenth: still 1
    # Rounded to a millionth of a tenth first (float error is far smaller), then up.
    assert expiry.remaining(0.1000000051, 0.0) == 1
    assert expiry.remaining(0.100000051, 0.0) == 2
    assert expiry.remaining(10.0, 10.0) == 0
    assert expiry.remaining(9.0, 10.0) == 0
    assert expiry.remaining(None, 10.0) == CMQC.MQEI_UNLIMITED


def expired(options: int, body: bytes = b"x" * 150) -> Message:
    desc = MD(
        Version=2,
        Report=options,
        Encoding=785,
        CodedCharSetId=500,
        Format=b"MYFMT   ",
        ReplyToQ=b"REPLIES",
        ReplyToQMgr=b"QM9",
        PutApplName=b"the putter",
        Priority=3,
        Persistence=CMQC.MQPER_PERSISTENT,
        GroupId=b"G" * 24,
        MsgSeqNumber=4,
        Offset=8,
        MsgFlags=IN | SEG,
        MsgId=b"M" * 24,
        CorrelId=b"C" * 24,
    ).__dict__.copy()
    return Message(desc=desc, body=body, put_time=0.0, expires_at=1.0, priority=3)


@keeps(
    "docs/mq-rules.md",
    (
        "A report only when asked for; it carries none, the first 100 bytes or all of the data, as "
        "the option says, with MQFB_EXPIRATION."
    ),
)
def test_every_field_of_an_expiration_report_is_as_ibm_describes() -> None:
    # "Report messages" (IBM MQ): the report's MQMD copies Priority, Persistence,
    # Encoding, CodedCharSetId and the group fields of the original, has Format of the
    # data it carries (MQFMT_NONE with none), OriginalLength the original's length, and
    # the queue manager's name as PutApplName and ReplyToQMgr.
    msg = expired(CMQC.MQRO_EXPIRATION_WITH_DATA)
    report = reports.expiration_report(msg, q_mgr_name="QMX", new_msg_id=lambda: b"N" * 24)
    assert report is not None
    md = report.md
    assert (report.reply_to_q, report.reply_to_q_mgr) == ("REPLIES", "QM9")
    assert report.body == b"x" * reports.WITH_DATA_LENGTH
    assert (md.MsgType, md.Feedback, md.Expiry) == (
        CMQC.MQMT_REPORT,
        CMQC.MQFB_EXPIRATION,
        CMQC.MQEI_UNLIMITED,
    )
    assert (md.Priority, md.Persistence) == (3, CMQC.MQPER_PERSISTENT)
    assert (md.Encoding, md.CodedCharSetId, md.Format) == (785, 500, b"MYFMT   ")
    assert (md.MsgId, md.CorrelId) == (b"N" * 24, b"M" * 24)
    assert md.ReplyToQMgr.rstrip(b" \x00") == b"QMX"
    assert (md.PutApplType, md.PutApplName.rstrip(b" \x00")) == (CMQC.MQAT_QMGR, b"QMX")
    assert (md.GroupId, md.MsgSeqNumber, md.Offset, md.MsgFlags) == (b"G" * 24, 4, 8, IN | SEG)
    assert md.OriginalLength == 150
    full = reports.expiration_report(
        expired(CMQC.MQRO_EXPIRATION_WITH_FULL_DATA),
        q_mgr_name="QMX",
        new_msg_id=lambda: b"N" * 24,
    )
    assert full is not None and full.body == b"x" * 150 and full.md.Format == b"MYFMT   "
    bare = reports.expiration_report(
        expired(CMQC.MQRO_EXPIRATION | CMQC.MQRO_PASS_MSG_ID | CMQC.MQRO_PASS_CORREL_ID),
        q_mgr_name="QMX",
        new_msg_id=lambda: b"N" * 24,
    )
    assert bare is not None and bare.body == b"" and bare.md.Format == CMQC.MQFMT_NONE
    assert (bare.md.MsgId, bare.md.CorrelId) == (b"M" * 24, b"C" * 24)
    assert bare.md.OriginalLength == 150
    assert reports.expiration_report(expired(0), q_mgr_name="QMX", new_msg_id=bytes) is None


def test_a_long_queue_manager_name_is_cut_to_putapplname_s_28_characters() -> None:
    msg = expired(CMQC.MQRO_EXPIRATION)
    name = "Q" * 48
    report = reports.expiration_report(msg, q_mgr_name=name, new_msg_id=lambda: b"N" * 24)
    assert report is not None and report.md.PutApplName.rstrip(b" \x00") == b"Q" * 28


# ---- the end of a unit of work ---------------------------------------------------------
class LosingStore(MemoryStore):
    """An in-process store that can lose a unit of work, as the coupling facility's does
    when it fails while the unit of work is in flight (its ``backed_out``)."""

    def __init__(self) -> None:
        super().__init__()
        self.lost: dict[object, str] = {}

    def backed_out(self, uow: object) -> str | None:
        return self.lost.get(uow)


@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_BACKED_OUT | MQCMIT of a unit of work that the coupling facility lost (it failed "
        "while the unit of work was in flight): backed out in every store"
    ),
)
def test_mqcmit_of_a_unit_of_work_a_store_lost_backs_it_out_everywhere_with_2003() -> None:
    # MQCMIT: MQRC_BACKED_OUT (2003) "the unit of work has been backed out": no store
    # commits alone, the other stores' part is backed out too.
    lost = LosingStore()
    group = QueueSharingGroup("QSG1", store=lost)
    qm = QMgr("QM1", qsg=group)
    qm.define_structure(CFStructure("APP1"))
    qm.define_queue("APP.SHARED", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")
    qm.define_queue("LOCAL")
    conn = qm.connect()
    shared, local = conn.open("APP.SHARED", ALL), conn.open("LOCAL", ALL)
    put(shared, options=SYNC_PUT)
    put(local, options=SYNC_PUT)
    lost.lost[conn.uow.id] = "the facility failed"
    with pytest.raises(MQMIError, match=r"MQRC_BACKED_OUT \(2003\): the facility failed"):
        conn.commit()
    assert qm.depth("APP.SHARED") == qm.depth("LOCAL") == 0
    assert conn.uow.count == 0 and conn.uow.stores == []
    put(local, options=SYNC_PUT)  # a new unit of work, which commits
    conn.commit()
    assert qm.depth("LOCAL") == 1


def test_a_shared_queue_triggers_again_in_the_next_unit_of_work() -> None:
    # A shared queue's trigger check counts committed messages: each unit of work keeps
    # its own count of arrivals, from nothing (TRIGTYPE EVERY: one trigger each).
    group = QueueSharingGroup("QSG1")
    qm = QMgr("QM1", qsg=group)
    qm.define_structure(CFStructure("APP1"))
    qm.define_process(ProcessDefinition("APP.PROC", appl_id="/opt/app"))
    qm.define_queue("APP.INITQ")
    qm.define_queue(
        "APP.SHARED",
        qsg_disp=CMQC.MQQSGD_SHARED,
        cf_struct="APP1",
        trigger_control=CMQC.MQTC_ON,
        trigger_type=CMQC.MQTT_EVERY,
        process_name="APP.PROC",
        initiation_q_name="APP.INITQ",
    )
    conn = qm.connect()
    initq = conn.open("APP.INITQ", CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_INQUIRE)
    h = conn.open("APP.SHARED", CMQC.MQOO_OUTPUT)
    for n in (1, 2):
        put(h, options=SYNC_PUT)
        conn.commit()
        assert initq.inquire(CMQC.MQIA_CURRENT_Q_DEPTH) == n


def test_logical_order_puts_number_the_segments_and_messages_of_a_group() -> None:
    # MQPMO_LOGICAL_ORDER: the queue manager sets GroupId, MsgSeqNumber and Offset
    # itself: one GroupId for the group, segments of one logical message at growing
    # offsets, the next logical message at MsgSeqNumber + 1 and Offset 0.
    h = queue()
    options = NO_SYNC_PUT | CMQC.MQPMO_LOGICAL_ORDER
    items = [(b"ab", IN | SEG), (b"cde", IN | LAST_SEG), (b"f", LAST)]
    mds = [put(h, body, options, MsgFlags=flags) for body, flags in items]
    assert mds[0].GroupId != CMQC.MQGI_NONE
    assert {md.GroupId for md in mds} == {mds[0].GroupId}
    assert [(md.MsgSeqNumber, md.Offset) for md in mds] == [(1, 0), (1, 2), (2, 0)]
