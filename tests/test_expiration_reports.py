"""Expiration reports: what they carry and where they go ("Expiry (MQLONG)", reports)."""

from __future__ import annotations

import pytest

from qsg import CMQC, MQMIError, QMgr
from qsg.core.events import Discarded, Event, ReportLost
from qsg.core.layouts import DLH, XQH
from tests.claims import keeps
from tests.helpers import drain, get, open_queue, put

# The contract suite: each test runs on the in-process store and on the coupling facility's.
pytestmark = pytest.mark.usefixtures("each_store")


BODY = bytes(range(256))


@pytest.fixture
def qm(events: list[Event]) -> QMgr:
    qm = QMgr("QM1", on_event=events.append)
    qm.define_queue("APP")
    qm.define_queue("REPLIES")
    return qm


def expire_with(qm: QMgr, report: int, **md: object) -> tuple[bytes, object]:
    h = open_queue(qm, "APP")
    original = put(h, BODY, 0.0, Expiry=10, ReplyToQ=b"REPLIES", Report=report, **md)
    qm.scan_expired(5.0)
    body, rmd = get(open_queue(qm, "REPLIES"), 5.0)
    return body, (original, rmd)


@pytest.mark.parametrize(
    ("option", "data"),
    [
        (CMQC.MQRO_EXPIRATION, b""),
        (CMQC.MQRO_EXPIRATION_WITH_DATA, BODY[:100]),
        (CMQC.MQRO_EXPIRATION_WITH_FULL_DATA, BODY),
    ],
)
@keeps(
    "docs/mq-rules.md",
    (
        "A report only when asked for; it carries none, the first 100 bytes or all of the data, as "
        "the option says, with MQFB_EXPIRATION."
    ),
)
def test_an_expiration_report_carries_none_the_first_100_bytes_or_all_of_the_data(
    qm: QMgr, option: int, data: bytes
) -> None:
    # "A report is generated when an expired message is discarded, if the message
    # specified one of the MQRO_EXPIRATION_* report options."
    body, _ = expire_with(qm, option)
    assert body == data


def test_an_expiration_report_is_a_report_with_expiration_feedback_correlated_by_msgid(
    qm: QMgr,
) -> None:
    _, (original, rmd) = expire_with(
        qm, CMQC.MQRO_EXPIRATION, Priority=6, Persistence=CMQC.MQPER_PERSISTENT
    )
    assert (rmd.MsgType, rmd.Feedback) == (CMQC.MQMT_REPORT, CMQC.MQFB_EXPIRATION)
    assert rmd.CorrelId == original.MsgId and rmd.MsgId != original.MsgId  # the defaults
    assert (rmd.Priority, rmd.Persistence) == (6, CMQC.MQPER_PERSISTENT)
    assert rmd.Expiry == CMQC.MQEI_UNLIMITED and rmd.PutApplType == CMQC.MQAT_QMGR
    assert rmd.ReplyToQMgr == b"QM1"


def test_pass_msg_id_and_pass_correl_id_carry_the_original_identifiers(qm: QMgr) -> None:
    options = CMQC.MQRO_EXPIRATION | CMQC.MQRO_PASS_MSG_ID | CMQC.MQRO_PASS_CORREL_ID
    _, (original, rmd) = expire_with(qm, options, CorrelId=b"C" * 24)
    assert (rmd.MsgId, rmd.CorrelId) == (original.MsgId, b"C" * 24)


@keeps(
    "docs/mq-rules.md",
    (
        "A report only when asked for; it carries none, the first 100 bytes or all of the data, as "
        "the option says, with MQFB_EXPIRATION."
    ),
)
def test_no_report_without_an_expiration_option(qm: QMgr) -> None:
    # "If none of these options is specified, no such report is generated".
    put(open_queue(qm, "APP"), BODY, 0.0, Expiry=10, ReplyToQ=b"REPLIES")
    assert qm.scan_expired(5.0) == 1 and qm.depth("REPLIES") == 0


def test_a_scan_discards_every_expired_message_and_reports_only_those_that_asked(
    qm: QMgr, events: list[Event]
) -> None:
    # The scan hands back a message whole only when its Report asks for an expiration
    # report, the others by MsgId: each is still discarded with its event, and each
    # report still reaches ReplyToQ correlated with its original.
    h = open_queue(qm, "APP")
    asking = [
        put(h, BODY, 0.0, Expiry=10, ReplyToQ=b"REPLIES", Report=option)
        for option in (CMQC.MQRO_EXPIRATION, CMQC.MQRO_EXPIRATION_WITH_FULL_DATA)
    ]
    silent = [put(h, BODY, 0.0, Expiry=10 + n, ReplyToQ=b"REPLIES") for n in range(3)]
    assert qm.scan_expired(5.0) == 5
    discarded = [e.msg_id for e in events if isinstance(e, Discarded)]
    assert sorted(discarded) == sorted(d.MsgId for d in asking + silent)
    replies = open_queue(qm, "REPLIES")
    correlated = [get(replies, 5.0)[1].CorrelId for _ in asking]
    assert sorted(correlated) == sorted(d.MsgId for d in asking)
    assert qm.depth("REPLIES") == 0 and qm.depth("APP") == 0


def test_a_stores_scan_returns_the_whole_message_only_when_a_report_is_owed(qm: QMgr) -> None:
    h = open_queue(qm, "APP")
    asking = put(h, BODY, 0.0, Expiry=10, ReplyToQ=b"REPLIES", Report=CMQC.MQRO_EXPIRATION)
    silent = put(h, b"quiet", 0.0, Expiry=10, ReplyToQ=b"REPLIES")
    gone = {e.msg_id: e.message for e in qm.local.store.scan("APP", 5.0)}
    assert gone.keys() == {asking.MsgId, silent.MsgId}
    whole = gone[asking.MsgId]
    assert whole is not None and whole.body == BODY and whole.msg_id == asking.MsgId
    assert gone[silent.MsgId] is None


@keeps(
    "docs/reason-codes.md",
    "MQRC_MISSING_REPLY_TO_Q | a request, or a message asking for reports, without ReplyToQ",
)
def test_a_message_asking_for_reports_without_a_reply_to_queue_is_refused(qm: QMgr) -> None:
    with pytest.raises(MQMIError, match=r"MQRC_MISSING_REPLY_TO_Q \(2027\)"):
        put(open_queue(qm, "APP"), b"x", 0.0, Report=CMQC.MQRO_EXPIRATION)


@keeps("docs/mq-rules.md", "A report that cannot be delivered goes to the dead-letter queue.")
def test_a_report_that_cannot_be_delivered_goes_to_the_dead_letter_queue(qm: QMgr) -> None:
    h = open_queue(qm, "APP")
    put(h, b"x", 0.0, Expiry=10, ReplyToQ=b"NO.SUCH.Q", Report=CMQC.MQRO_EXPIRATION)
    put(h, b"y", 0.0, Expiry=10, ReplyToQ=b"Q", ReplyToQMgr=b"FARAWAY", Report=CMQC.MQRO_EXPIRATION)
    qm.scan_expired(5.0)
    dlq = open_queue(qm, "SYSTEM.DEAD.LETTER.QUEUE")
    reasons = [DLH.unpack(body).Reason for body in drain(dlq, 5.0)]
    assert sorted(reasons) == [CMQC.MQRC_UNKNOWN_OBJECT_NAME, CMQC.MQRC_UNKNOWN_REMOTE_Q_MGR]


def test_a_report_with_nowhere_to_go_is_recorded_as_lost(events: list[Event]) -> None:
    qm = QMgr("QM1", dead_letter_queue=None, on_event=events.append)
    qm.define_queue("APP")
    put(open_queue(qm, "APP"), b"x", 0.0, Expiry=10, ReplyToQ=b"GONE", Report=CMQC.MQRO_EXPIRATION)
    qm.scan_expired(5.0)
    lost = [e for e in events if isinstance(e, ReportLost)]
    assert len(lost) == 1 and lost[0].reason == CMQC.MQRC_UNKNOWN_OBJECT_NAME


def test_a_report_to_another_queue_manager_goes_on_its_transmission_queue(qm: QMgr) -> None:
    # "Expiry (MQLONG)": the report goes to ReplyToQ at ReplyToQMgr; a queue manager puts
    # it as MQPUT1 would, resolving ReplyToQMgr to the transmission queue of that name.
    qm.define_queue("QM3", usage=CMQC.MQUS_TRANSMISSION)
    h = open_queue(qm, "APP")
    original = put(
        h,
        BODY,
        0.0,
        Expiry=10,
        ReplyToQ=b"REPLIES",
        ReplyToQMgr=b"QM3",
        Report=CMQC.MQRO_EXPIRATION,
    )
    qm.scan_expired(5.0)
    assert qm.depth("REPLIES") == 0 and qm.depth(qm.dead_letter_queue) == 0
    body, md = get(open_queue(qm, "QM3"), 5.0)
    header = XQH.unpack(body)
    assert (header.RemoteQName.rstrip(), header.RemoteQMgrName.rstrip()) == (b"REPLIES", b"QM3")
    assert md.Format == CMQC.MQFMT_XMIT_Q_HEADER
    assert header.MsgDesc.CorrelId == original.MsgId
    assert header.MsgDesc.Feedback == CMQC.MQFB_EXPIRATION
