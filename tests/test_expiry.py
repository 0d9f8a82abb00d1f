"""Every expiry rule of IBM's "Expiry (MQLONG)" and "MDEXP (10-digit signed integer)".

Each test quotes the line it pins. Time is simulated seconds; Expiry is in tenths.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qsg import CMQC, MD, PMO, MQMIError, QMgr
from qsg.core import expiry
from qsg.core.events import Discarded, Event
from tests.claims import keeps
from tests.helpers import ALL, browse_first, drain, get, open_queue, put

# The contract suite: each test runs on the in-process store and on the coupling facility's.
pytestmark = pytest.mark.usefixtures("each_store")


REPLY = {"ReplyToQ": b"REPLIES", "Report": CMQC.MQRO_EXPIRATION}


@pytest.fixture
def qm(events: list[Event]) -> QMgr:
    qm = QMgr("QM1", on_event=events.append)
    qm.define_queue("PRIO")
    qm.define_queue("FIFO", msg_delivery_sequence=CMQC.MQMDS_FIFO)
    qm.define_queue("REPLIES")
    qm.define_queue("SMALL", max_depth=2)
    return qm


def discards(events: list[Event]) -> list[bytes]:
    return [e.msg_id for e in events if isinstance(e, Discarded)]


# ---- validation on MQPUT/MQPUT1 (note 1) ---------------------------------------------
@pytest.mark.parametrize("expiry", [0, -2, -100])
@keeps(
    "docs/mq-rules.md",
    (
        "Expiry is a lifetime in tenths of a second; MQEI_UNLIMITED (-1) never expires; 0 or below "
        "-1 at MQPUT is MQRC_EXPIRY_ERROR and no report is made."
    ),
)
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_EXPIRY_ERROR | MQPUT/MQPUT1 with Expiry 0 or negative (not MQEI_UNLIMITED), or above "
        "999 999 999 when the maximum is enforced"
    ),
)
def test_a_put_with_expiry_zero_or_negative_fails_with_expiry_error_and_no_report(
    qm: QMgr, expiry: int
) -> None:
    # Note 1: "If a message is put with an Expiry time of zero, the MQPUT or MQPUT1 call
    # fails with reason code MQRC_EXPIRY_ERROR; no report message is generated".
    h = open_queue(qm, "PRIO")
    with pytest.raises(MQMIError, match=r"^MQCC_FAILED: MQRC_EXPIRY_ERROR \(2013\)"):
        put(h, b"x", 0.0, Expiry=expiry, **REPLY)
    with pytest.raises(MQMIError, match=r"MQRC_EXPIRY_ERROR \(2013\)"):
        qm.connect().put1("PRIO", b"x", MD(Expiry=expiry, **REPLY), PMO(), now=0.0)
    assert qm.depth("PRIO") == 0 and qm.depth("REPLIES") == 0


@keeps(
    "docs/rules.md",
    (
        "Expiry above 999 999 999 is accepted unless you ask for IBM's "
        "`AMQ_ENFORCE_MAX_EXPIRY_ERROR` behaviour"
    ),
)
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_EXPIRY_ERROR | MQPUT/MQPUT1 with Expiry 0 or negative (not MQEI_UNLIMITED), or above "
        "999 999 999 when the maximum is enforced"
    ),
)
def test_expiry_above_999999999_fails_only_when_the_queue_manager_enforces_the_maximum() -> None:
    # zh note 1: "Expiry ... greater than 999 999 999 ... MQRC_EXPIRY_ERROR"; "to enable
    # reason code 2013 ... AMQ_ENFORCE_MAX_EXPIRY_ERROR must be enabled".
    lax, strict = QMgr("LAX"), QMgr("STRICT", enforce_max_expiry=True)
    for qm in (lax, strict):
        qm.define_queue("Q")
        put(open_queue(qm, "Q"), b"ok", 0.0, Expiry=999_999_999)
    put(open_queue(lax, "Q"), b"big", 0.0, Expiry=1_000_000_000)
    with pytest.raises(MQMIError, match=r"MQRC_EXPIRY_ERROR \(2013\).*above the maximum"):
        put(open_queue(strict, "Q"), b"big", 0.0, Expiry=1_000_000_000)


# ---- remaining lifetime on MQGET -------------------------------------------------------
@keeps(
    "docs/mq-rules.md",
    "MQGET returns the lifetime that remains, always greater than zero (or unlimited).",
)
def test_get_returns_the_remaining_expiry_in_tenths(qm: QMgr) -> None:
    # "When the message is retrieved by an application using the MQGET call, the Expiry
    # field represents the amount of the original expiry time that still remains."
    h = open_queue(qm, "PRIO")
    put(h, b"x", 10.0, Expiry=600)
    _, md = get(h, 35.0)
    assert md.Expiry == 350


def test_unlimited_stays_unlimited(qm: QMgr) -> None:
    h = open_queue(qm, "PRIO")
    put(h, b"x", 0.0, Expiry=CMQC.MQEI_UNLIMITED)
    _, md = get(h, 1e9)
    assert md.Expiry == CMQC.MQEI_UNLIMITED


@keeps(
    "docs/mq-rules.md",
    "MQGET returns the lifetime that remains, always greater than zero (or unlimited).",
)
def test_a_returned_expiry_is_never_zero_even_a_moment_before_it_runs_out(qm: QMgr) -> None:
    # "the value in the Expiry field ... after a successful MQGET call is either greater
    # than zero, or the special value MQEI_UNLIMITED."
    h = open_queue(qm, "PRIO")
    put(h, b"x", 0.1, Expiry=1)
    _, md = get(h, 0.1 + 0.1 - 1e-9)
    assert md.Expiry == 1


# ---- never returned; discarded by the get or browse that would have returned it ------
@keeps("docs/mq-rules.md", "An expired message is never returned, by a get or a browse.")
def test_an_expired_message_is_never_returned_by_get_or_browse(qm: QMgr) -> None:
    # "A message that has expired is never returned to an application (either by a browse
    # or a non-browse MQGET call)".
    h = open_queue(qm, "PRIO")
    put(h, b"x", 0.0, Expiry=10)
    with pytest.raises(MQMIError, match=r"MQRC_NO_MSG_AVAILABLE \(2033\)"):
        browse_first(h, 1.0)
    put(h, b"y", 0.0, Expiry=10)
    with pytest.raises(MQMIError, match=r"MQRC_NO_MSG_AVAILABLE \(2033\)"):
        get(h, 1.0)


@keeps(
    "docs/mq-rules.md",
    (
        "A get discards the expired messages it would otherwise have returned: on a FIFO queue "
        "every one up to the first live message; on a priority queue those of higher priority and "
        "the earlier ones of equal priority; with selection, only matching ones."
    ),
)
def test_a_fifo_get_discards_every_expired_message_up_to_the_first_unexpired_one(
    qm: QMgr, events: list[Event]
) -> None:
    # "a nonbrowse MQGET call with ... MQMO_NONE reading from a FIFO ordered queue discards
    # all the expired messages up to the first unexpired message."
    h = open_queue(qm, "FIFO")
    e1 = put(h, b"e1", 0.0, Expiry=10, Priority=9).MsgId
    e2 = put(h, b"e2", 0.0, Expiry=10, Priority=0).MsgId
    put(h, b"live", 0.0, Expiry=100)
    after = put(h, b"e3", 0.0, Expiry=10).MsgId  # behind the live one: not passed
    assert get(h, 5.0)[0] == b"live"
    assert discards(events) == [e1, e2]
    assert qm.depth("FIFO") == 1  # e3, expired but not discarded
    with pytest.raises(MQMIError, match=r"MQRC_NO_MSG_AVAILABLE"):
        get(h, 5.0)
    assert discards(events) == [e1, e2, after]


@keeps(
    "docs/mq-rules.md",
    (
        "A get discards the expired messages it would otherwise have returned: on a FIFO queue "
        "every one up to the first live message; on a priority queue those of higher priority and "
        "the earlier ones of equal priority; with selection, only matching ones."
    ),
)
def test_a_priority_get_discards_expired_messages_of_higher_and_earlier_equal_priority(
    qm: QMgr, events: list[Event]
) -> None:
    # "With a priority ordered queue, the same call will discard expired messages of
    # higher priority and messages of an equal priority that arrived on the queue before
    # the first unexpired message."
    h = open_queue(qm, "PRIO")
    high = put(h, b"high", 0.0, Expiry=10, Priority=8).MsgId
    early = put(h, b"early5", 0.0, Expiry=10, Priority=5).MsgId
    put(h, b"live5", 0.0, Expiry=100, Priority=5)
    late = put(h, b"late5", 0.0, Expiry=10, Priority=5).MsgId
    low = put(h, b"low", 0.0, Expiry=10, Priority=1).MsgId
    assert get(h, 5.0)[0] == b"live5"
    assert discards(events) == [high, early]
    assert qm.depth("PRIO") == 2
    assert late not in discards(events) and low not in discards(events)


@keeps(
    "docs/mq-rules.md",
    (
        "A get discards the expired messages it would otherwise have returned: on a FIFO queue "
        "every one up to the first live message; on a priority queue those of higher priority and "
        "the earlier ones of equal priority; with selection, only matching ones."
    ),
)
def test_a_matching_get_discards_only_expired_messages_it_would_have_returned(
    qm: QMgr, events: list[Event]
) -> None:
    # "The message is discarded when a browse or nonbrowse MQGET call occurs that would
    # have returned the message had it not already expired."
    h = open_queue(qm, "FIFO")
    other = put(h, b"other", 0.0, Expiry=10, CorrelId=b"B").MsgId
    mine = put(h, b"mine", 0.0, Expiry=10, CorrelId=b"A").MsgId
    put(h, b"mine-live", 0.0, CorrelId=b"A")
    body, _ = get(h, 5.0, md=MD(CorrelId=b"A"))
    assert body == b"mine-live"
    assert discards(events) == [mine]
    assert other not in discards(events) and qm.depth("FIFO") == 1


def test_a_browse_discards_the_expired_messages_it_passes(qm: QMgr, events: list[Event]) -> None:
    # "The message is discarded when a browse or nonbrowse MQGET call occurs that would
    # have returned the message".
    h = open_queue(qm, "FIFO")
    gone = put(h, b"old", 0.0, Expiry=10).MsgId
    put(h, b"new", 0.0)
    body, _ = browse_first(h, 5.0)
    assert body == b"new" and discards(events) == [gone] and qm.depth("FIFO") == 1


# ---- depth counts expired-but-not-discarded messages (note 2) ------------------------
@keeps(
    "docs/mq-rules.md",
    (
        "Expired messages not yet discarded count in the queue's depth for every purpose, MAXDEPTH "
        "and depth triggering included (note 2)."
    ),
)
@keeps("docs/pipeline.md", "CURDEPTH (expired messages not yet discarded count)")
def test_expired_messages_not_yet_discarded_count_in_depth_and_maxdepth(qm: QMgr) -> None:
    # Note 2: "These messages nevertheless count toward the number of messages on the
    # queue for all purposes, including depth triggering."
    h = open_queue(qm, "SMALL")
    put(h, b"a", 0.0, Expiry=1)
    put(h, b"b", 0.0, Expiry=1)
    assert h.inquire(CMQC.MQIA_CURRENT_Q_DEPTH) == 2
    with pytest.raises(MQMIError, match=r"MQRC_Q_FULL \(2053\)"):
        put(h, b"c", 10.0)
    with pytest.raises(MQMIError, match=r"MQRC_NO_MSG_AVAILABLE"):
        get(h, 10.0)  # discards both
    put(h, b"c", 10.0)


# ---- reports (notes 3 and 4) ------------------------------------------------------------
@keeps(
    "docs/mq-rules.md",
    (
        "An expiration report is made when the message is discarded, not when it becomes eligible "
        "(note 3); discarding and reporting are never part of the application's unit of work (note "
        "4)."
    ),
)
def test_the_expiration_report_is_made_at_discard_not_when_the_message_expires(
    qm: QMgr,
) -> None:
    # Note 3: "An expiration report is generated, if requested, when the message is
    # discarded, not when it becomes eligible for discarding."
    h = open_queue(qm, "PRIO")
    put(h, b"x", 0.0, Expiry=10, **REPLY)
    assert qm.depth("REPLIES") == 0
    qm.scan_expired(0.5)  # not expired yet
    assert qm.depth("REPLIES") == 0
    _ = qm.depth("PRIO")
    assert qm.depth("REPLIES") == 0  # expired at 1.0 but nobody looked
    drain(h, 50.0)
    assert qm.depth("REPLIES") == 1


@keeps(
    "docs/mq-rules.md",
    (
        "An expiration report is made when the message is discarded, not when it becomes eligible "
        "(note 3); discarding and reporting are never part of the application's unit of work (note "
        "4)."
    ),
)
def test_discard_and_report_are_never_part_of_the_unit_of_work(qm: QMgr) -> None:
    # Note 4: "Discarding an expired message, and generating an expiration report if
    # requested, are never part of the application's unit of work, even if the message
    # was scheduled for discarding as a result of an MQGET call operating within a unit
    # of work."
    h = open_queue(qm, "FIFO")
    put(h, b"old", 0.0, Expiry=10, **REPLY)
    put(h, b"live", 0.0)
    conn = qm.connect()
    get(conn.open("FIFO", ALL), 5.0, CMQC.MQGMO_SYNCPOINT)
    assert drain(open_queue(qm, "REPLIES"), 5.0) != []  # visible before any commit
    conn.backout()
    assert qm.depth("FIFO") == 1  # the live one came back; the discarded one did not
    assert drain(h, 5.0) == [b"live"]


# ---- syncpoint and backout (zh text, note 5) -------------------------------------------
@keeps("docs/rules.md", "expiry starts at put even in syncpoint")
def test_expiry_of_a_syncpoint_put_runs_from_the_put_not_the_commit(qm: QMgr) -> None:
    # zh: "For messages put within syncpoint, the expiry interval starts when the message
    # is put, not when the syncpoint is committed."
    conn = qm.connect()
    put(conn.open("PRIO", CMQC.MQOO_OUTPUT), b"x", 0.0, CMQC.MQPMO_SYNCPOINT, Expiry=100)
    conn.commit()
    _, md = get(open_queue(qm, "PRIO"), 6.0)
    assert md.Expiry == 40


def test_a_syncpoint_put_that_expires_before_commit_is_discarded_after_it_not_returned(
    qm: QMgr, events: list[Event]
) -> None:
    # zh: "The expiry interval can pass before the syncpoint is committed. In this case the
    # message is discarded some time after the commit operation and is not returned to an
    # application in response to an MQGET operation."
    conn = qm.connect()
    msg_id = put(
        conn.open("PRIO", CMQC.MQOO_OUTPUT), b"x", 0.0, CMQC.MQPMO_SYNCPOINT, Expiry=10
    ).MsgId
    assert qm.scan_expired(5.0) == 0  # in the unit of work: left alone
    conn.commit()
    with pytest.raises(MQMIError, match=r"MQRC_NO_MSG_AVAILABLE"):
        get(open_queue(qm, "PRIO"), 6.0)
    assert discards(events) == [msg_id]


@keeps(
    "docs/mq-rules.md",
    (
        "A nearly expired message got in a unit of work that is backed out may expire before it is "
        "got again (note 5); a locked one gives MQRC_NO_MSG_UNDER_CURSOR (note 6)."
    ),
)
def test_a_backed_out_get_can_leave_the_message_expired_and_then_discarded(
    qm: QMgr, events: list[Event]
) -> None:
    # Note 5: "If a nearly-expired message is retrieved by an MQGET call within a unit of
    # work, and the unit of work is subsequently backed out, the message might become
    # eligible to be discarded before it can be retrieved again."
    put(open_queue(qm, "PRIO"), b"x", 0.0, Expiry=10, **REPLY)
    conn = qm.connect()
    _, md = get(conn.open("PRIO", ALL), 0.9, CMQC.MQGMO_SYNCPOINT)
    assert md.Expiry == 1
    assert qm.scan_expired(2.0) == 0  # held by the unit of work: not discarded
    conn.backout()
    assert qm.depth("PRIO") == 1
    with pytest.raises(MQMIError, match=r"MQRC_NO_MSG_AVAILABLE"):
        get(open_queue(qm, "PRIO"), 2.0)
    assert len(discards(events)) == 1 and qm.depth("REPLIES") == 1


# ---- dead-letter queue keeps the remaining expiry (note 7) ------------------------------
@keeps(
    "docs/mq-rules.md",
    (
        "A message put to the dead-letter queue keeps its remaining expiry, which goes on "
        "decreasing (note 7)."
    ),
)
def test_a_dead_letter_put_keeps_the_remaining_expiry_and_it_goes_on_decrementing(
    qm: QMgr,
) -> None:
    # Note 7: "the default action for putting messages to a dead-letter (undelivered-
    # message) queue must be to preserve the remaining expiry time of the message, and to
    # continue to decrement it."
    put(open_queue(qm, "PRIO"), b"payload", 0.0, Expiry=100)
    _, md = get(open_queue(qm, "PRIO"), 3.0)
    assert md.Expiry == 70
    assert qm.dead_letter(md, b"payload", CMQC.MQRC_Q_FULL, "ELSEWHERE", "", 3.0)
    dlq = open_queue(qm, "SYSTEM.DEAD.LETTER.QUEUE")
    body, dl_md = get(dlq, 5.0)
    assert dl_md.Expiry == 50 and dl_md.Format == CMQC.MQFMT_DEAD_LETTER_HEADER
    assert body[:4] == b"DLH " and body[172:] == b"payload"
    qm.dead_letter(md, b"again", CMQC.MQRC_Q_FULL, "ELSEWHERE", "", 3.0)
    with pytest.raises(MQMIError, match=r"MQRC_NO_MSG_AVAILABLE"):
        get(dlq, 10.0)  # 7 seconds were left: gone by t=10


# ---- the periodic scan's primitive ---------------------------------------------------
@keeps("docs/rules.md", "the scan primitive behind EXPRYINT, costing what expired, not the depth")
def test_a_scan_discards_only_what_expired_and_knows_when_a_queue_is_worth_scanning(
    qm: QMgr, events: list[Event]
) -> None:
    # z/OS: "The queue manager maintains information about the expired messages on each
    # queue, and knows whether a scan for expired messages is worthwhile."
    h = open_queue(qm, "PRIO")
    soon = [put(h, b"s", 0.0, Expiry=10).MsgId for _ in range(3)]
    put(h, b"later", 0.0, Expiry=1000)
    put(h, b"never", 0.0)
    assert list(qm.worth_scanning(0.5)) == []
    assert list(qm.worth_scanning(1.0)) == ["PRIO"]
    assert qm.scan_expired(1.0, pattern="OTHER*") == 0
    assert qm.scan_expired(1.0, pattern="PR*") == 3
    assert sorted(discards(events)) == sorted(soon)
    assert qm.depth("PRIO") == 2 and list(qm.worth_scanning(1.0)) == []


@settings(max_examples=2000, deadline=None)
@given(
    expires=st.floats(0, 1e7, allow_nan=False) | st.integers(0, 10**7).map(lambda n: n / 10),
    now=st.floats(0, 1e7, allow_nan=False) | st.integers(0, 10**7).map(lambda n: n / 10),
    nudge=st.sampled_from([0.0, 1e-8, -1e-8, 4e-8, -4e-8, 6e-8, -6e-8, 1e-7, -1e-7, 2e-7]),
)
def test_the_remaining_expiry_is_the_tenths_left_rounded_up_after_rounding_to_a_millionth(
    expires: float, now: float, nudge: float
) -> None:
    """ "Expiry (MQLONG)": MQGET returns the remaining lifetime in tenths of a second. The
    tenths are rounded to 1e-6 and then up (so 60.1 - 0.1 is 600 tenths, not 601); the
    shortcut that skips the rounding away from a whole tenth gives the same answer."""
    expires += nudge
    exact = math.ceil(round((expires - now) * 10, 6))
    assert expiry.remaining(expires, now) == (exact if exact > 0 else 0)
