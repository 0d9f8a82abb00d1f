"""Units of work, depth, and the queue's limits (MAXDEPTH, MAXMSGL, MAXUMSGS, inhibit)."""

from __future__ import annotations

import pytest

from qsg import CMQC, MQMIError, QMgr
from tests.claims import keeps
from tests.helpers import ALL, drain, get, open_queue, put

# The contract suite: each test runs on the in-process store and on the coupling facility's.
pytestmark = pytest.mark.usefixtures("each_store")


@pytest.fixture
def qm() -> QMgr:
    qm = QMgr("QM1", max_uncommitted_msgs=3)
    qm.define_queue("Q", max_depth=3, max_msg_length=10)
    return qm


def depth(qm: QMgr) -> int:
    return qm.depth("Q")


@keeps(
    "docs/mq-rules.md",
    (
        "An uncommitted put is invisible to others but counts in depth; a backed-out get returns "
        "the message to its place with BackoutCount raised."
    ),
)
def test_an_uncommitted_put_is_invisible_to_others_but_counts_in_depth(qm: QMgr) -> None:
    # CurrentQDepth "includes messages that have been put on the queue within a unit of
    # work, but that have not yet been committed, even though they are not eligible".
    writer = qm.connect()
    put(writer.open("Q", CMQC.MQOO_OUTPUT), b"x", 0.0, CMQC.MQPMO_SYNCPOINT)
    reader = open_queue(qm, "Q")
    assert depth(qm) == 1
    assert drain(reader, 1.0) == []
    writer.commit()
    assert drain(reader, 1.0) == [b"x"]


def test_an_uncommitted_get_leaves_depth_and_backout_returns_it_with_backout_count(
    qm: QMgr,
) -> None:
    # CurrentQDepth "is decremented during a nonbrowse MQGET call, and [incremented]
    # during backout of an MQGET call".
    h = open_queue(qm, "Q")
    put(h, b"x", 0.0)
    reader = qm.connect()
    rh = reader.open("Q", ALL)
    body, md = get(rh, 1.0, CMQC.MQGMO_SYNCPOINT)
    assert (body, md.BackoutCount, depth(qm)) == (b"x", 0, 0)
    assert drain(h, 1.0) == []  # held by the unit of work
    reader.backout()
    assert depth(qm) == 1
    body, md = get(rh, 2.0, CMQC.MQGMO_SYNCPOINT)
    assert md.BackoutCount == 1
    reader.backout()
    _, md = get(rh, 3.0, CMQC.MQGMO_SYNCPOINT)
    assert md.BackoutCount == 2
    reader.commit()
    assert depth(qm) == 0 and drain(h, 4.0) == []


@keeps(
    "docs/mq-rules.md",
    (
        "An uncommitted put is invisible to others but counts in depth; a backed-out get returns "
        "the message to its place with BackoutCount raised."
    ),
)
def test_a_backed_out_get_returns_the_message_to_its_place_in_the_queue(qm: QMgr) -> None:
    h = open_queue(qm, "Q")
    for body in (b"a", b"b", b"c"):
        put(h, body, 0.0)
    reader = qm.connect()
    get(reader.open("Q", ALL), 1.0, CMQC.MQGMO_SYNCPOINT)
    reader.backout()
    assert drain(h, 2.0) == [b"a", b"b", b"c"]


def test_a_backed_out_put_vanishes_and_depth_drops(qm: QMgr) -> None:
    writer = qm.connect()
    put(writer.open("Q", CMQC.MQOO_OUTPUT), b"x", 0.0, CMQC.MQPMO_SYNCPOINT)
    writer.backout()
    assert depth(qm) == 0 and drain(open_queue(qm, "Q"), 1.0) == []


@keeps(
    "docs/mq-rules.md",
    "On z/OS puts and gets are in syncpoint unless told otherwise; elsewhere outside.",
)
@keeps(
    "docs/rules.md",
    (
        "A queue manager defaults to **z/OS** rules: a put or get with neither `*_SYNCPOINT` nor "
        "`*_NO_SYNCPOINT` is in syncpoint."
    ),
)
@keeps(
    "docs/reason-codes.md",
    (
        "default syncpoint | MQPUT and MQGET with neither SYNCPOINT nor NO_SYNCPOINT are in the "
        "unit of work"
    ),
)
def test_zos_puts_and_gets_are_in_syncpoint_unless_told_otherwise() -> None:
    # On z/OS the default for MQPUT and MQGET without either syncpoint option is syncpoint.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    conn = qm.connect()
    h = conn.open("Q", ALL)
    put(h, b"x", 0.0, options=CMQC.MQPMO_NONE)
    assert drain(open_queue(qm, "Q"), 1.0) == []
    conn.commit()
    get(h, 1.0, options=CMQC.MQGMO_NONE)
    conn.backout()
    assert qm.depth("Q") == 1


@keeps(
    "docs/mq-rules.md",
    "On z/OS puts and gets are in syncpoint unless told otherwise; elsewhere outside.",
)
@keeps("docs/rules.md", "Pass `QMgr(..., platform=CMQC.MQPL_UNIX)` for distributed behaviour.")
@keeps(
    "docs/reason-codes.md",
    (
        "default syncpoint | MQPUT and MQGET with neither SYNCPOINT nor NO_SYNCPOINT are in the "
        "unit of work"
    ),
)
def test_other_platforms_put_outside_syncpoint_by_default() -> None:
    qm = QMgr("QM1", platform=CMQC.MQPL_UNIX)
    qm.define_queue("Q")
    put(open_queue(qm, "Q"), b"x", 0.0, options=CMQC.MQPMO_NONE)
    assert drain(open_queue(qm, "Q"), 1.0) == [b"x"]


@keeps("docs/rules.md", "disconnect commits")
@keeps("docs/reason-codes.md", "MQRC_HCONN_ERROR | a call on a disconnected connection")
def test_disconnect_commits_the_unit_of_work(qm: QMgr) -> None:
    conn = qm.connect()
    put(conn.open("Q", CMQC.MQOO_OUTPUT), b"x", 0.0, CMQC.MQPMO_SYNCPOINT)
    conn.disconnect()
    assert drain(open_queue(qm, "Q"), 1.0) == [b"x"]
    with pytest.raises(MQMIError, match=r"MQRC_HCONN_ERROR \(2018\)"):
        conn.commit()


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
def test_maxumsgs_limits_syncpoint_puts_and_gets_with_syncpoint_limit_reached(qm: QMgr) -> None:
    qm.define_queue("BIG")
    conn = qm.connect()
    h = conn.open("BIG", ALL)
    put(h, b"a", 0.0)
    get(h, 0.0, CMQC.MQGMO_SYNCPOINT)
    put(h, b"b", 0.0, CMQC.MQPMO_SYNCPOINT)
    put(h, b"c", 0.0, CMQC.MQPMO_SYNCPOINT)
    with pytest.raises(MQMIError, match=r"MQRC_SYNCPOINT_LIMIT_REACHED \(2024\)"):
        put(h, b"d", 0.0, CMQC.MQPMO_SYNCPOINT)
    put(open_queue(qm, "BIG"), b"outside", 0.0)  # not in a unit of work: not counted
    conn.commit()
    put(h, b"e", 0.0, CMQC.MQPMO_SYNCPOINT)  # a new unit of work starts from zero


@keeps(
    "docs/mq-rules.md",
    "A put at MAXDEPTH is MQRC_Q_FULL; over MAXMSGL, MQRC_MSG_TOO_BIG_FOR_Q.",
)
@keeps("docs/reason-codes.md", "MQRC_Q_FULL | a put to a queue at its MAXDEPTH")
def test_a_put_at_maxdepth_fails_with_q_full(qm: QMgr) -> None:
    h = open_queue(qm, "Q")
    for _ in range(3):
        put(h, b"x", 0.0)
    with pytest.raises(MQMIError, match=r"^MQCC_FAILED: MQRC_Q_FULL \(2053\)"):
        put(h, b"x", 0.0)


@keeps(
    "docs/mq-rules.md",
    "A put at MAXDEPTH is MQRC_Q_FULL; over MAXMSGL, MQRC_MSG_TOO_BIG_FOR_Q.",
)
@keeps("docs/reason-codes.md", "MQRC_MSG_TOO_BIG_FOR_Q | a message longer than the queue's MAXMSGL")
def test_a_message_over_maxmsgl_fails_with_msg_too_big_for_q(qm: QMgr) -> None:
    with pytest.raises(MQMIError, match=r"MQRC_MSG_TOO_BIG_FOR_Q \(2030\)"):
        put(open_queue(qm, "Q"), b"x" * 11, 0.0)
    put(open_queue(qm, "Q"), b"x" * 10, 0.0)


@pytest.mark.parametrize("body", [123, None, ["x"], 1.5])
@keeps(
    "docs/rules.md",
    (
        "A body that is not `bytes` or `str` (a `bytearray` or `memoryview` is taken as its bytes) "
        "fails with MQRC_BUFFER_ERROR (2004)"
    ),
)
@keeps("docs/reason-codes.md", "MQRC_BUFFER_ERROR | MQPUT of a body that is not bytes or str")
def test_a_put_of_anything_but_bytes_or_str_fails_with_buffer_error(qm: QMgr, body: object) -> None:
    h = open_queue(qm, "Q")
    with pytest.raises(MQMIError, match=r"MQRC_BUFFER_ERROR \(2004\).*bytes or str, not"):
        put(h, body, 0.0)  # type: ignore[arg-type]
    assert qm.depth("Q") == 0


class _Bytes(bytes):
    pass


@keeps(
    "docs/rules.md",
    (
        "A body that is not `bytes` or `str` (a `bytearray` or `memoryview` is taken as its bytes) "
        "fails with MQRC_BUFFER_ERROR (2004)"
    ),
)
def test_a_bytearray_memoryview_or_bytes_subclass_is_put_as_its_bytes(qm: QMgr) -> None:
    h = qm.connect().open("Q", ALL)
    put(h, bytearray(b"ab"), 0.0)  # type: ignore[arg-type]
    put(h, memoryview(b"cd"), 0.0)  # type: ignore[arg-type]
    put(h, _Bytes(b"ef"), 0.0)
    assert drain(h, 0.0) == [b"ab", b"cd", b"ef"]


@pytest.mark.parametrize("max_length", [-1, -5, 2.5, "10"])
@keeps(
    "docs/rules.md",
    "a get's buffer length below 0 or not a whole number with MQRC_BUFFER_LENGTH_ERROR (2005)",
)
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_BUFFER_LENGTH_ERROR | MQGET with a buffer length below 0 or not a whole number (0 is "
        "valid)"
    ),
)
def test_a_get_with_a_buffer_length_below_0_or_not_whole_fails_with_buffer_length_error(
    qm: QMgr, max_length: object
) -> None:
    h = qm.connect().open("Q", ALL)
    put(h, b"x", 0.0)
    with pytest.raises(MQMIError, match=r"MQRC_BUFFER_LENGTH_ERROR \(2005\)"):
        get(h, 0.0, max_length=max_length)  # type: ignore[arg-type]
    assert drain(h, 0.0) == [b"x"]  # nothing was taken


@keeps(
    "docs/rules.md",
    "**Limits**: MAXDEPTH, MAXMSGL (queue and queue manager), put/get inhibit, MQINQ, MQSET.",
)
@keeps(
    "docs/reason-codes.md",
    "MQRC_GET_INHIBITED | MQGET on a queue (or through an alias) with GET(DISABLED)",
)
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_PUT_INHIBITED | MQPUT to a queue (or through an alias or remote definition) with "
        "PUT(DISABLED), as altered since the open"
    ),
)
def test_put_and_get_inhibit_refuse_with_their_reason_codes(qm: QMgr) -> None:
    h = qm.connect().open("Q", ALL | CMQC.MQOO_SET)
    put(h, b"x", 0.0)
    h.set(CMQC.MQIA_INHIBIT_PUT, CMQC.MQQA_PUT_INHIBITED)
    with pytest.raises(MQMIError, match=r"MQRC_PUT_INHIBITED \(2051\)"):
        put(h, b"y", 0.0)
    h.set(CMQC.MQIA_INHIBIT_GET, CMQC.MQQA_GET_INHIBITED)
    with pytest.raises(MQMIError, match=r"MQRC_GET_INHIBITED \(2016\)"):
        get(h, 0.0)
    assert h.inquire(CMQC.MQIA_INHIBIT_GET) == CMQC.MQQA_GET_INHIBITED


@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_NOT_OPEN_FOR_BROWSE, _INPUT, _INQUIRE, _OUTPUT, _SET | a call the handle was not "
        "opened for"
    ),
)
def test_a_handle_does_only_what_it_was_opened_for(qm: QMgr) -> None:
    out = qm.connect().open("Q", CMQC.MQOO_OUTPUT)
    with pytest.raises(MQMIError, match=r"MQRC_NOT_OPEN_FOR_INPUT \(2037\)"):
        get(out, 0.0)
    with pytest.raises(MQMIError, match=r"MQRC_NOT_OPEN_FOR_INQUIRE \(2038\)"):
        out.inquire(CMQC.MQIA_CURRENT_Q_DEPTH)
    with pytest.raises(MQMIError, match=r"MQRC_NOT_OPEN_FOR_BROWSE \(2036\)"):
        get(out, 0.0, CMQC.MQGMO_BROWSE_FIRST)
    inp = qm.connect().open("Q", CMQC.MQOO_INPUT_EXCLUSIVE)
    with pytest.raises(MQMIError, match=r"MQRC_NOT_OPEN_FOR_OUTPUT \(2039\)"):
        put(inp, b"x", 0.0)
    with pytest.raises(MQMIError, match=r"MQRC_UNKNOWN_OBJECT_NAME \(2085\)"):
        qm.connect().open("NO.SUCH.Q", CMQC.MQOO_OUTPUT)
    out.close()
    with pytest.raises(MQMIError, match=r"MQRC_HOBJ_ERROR \(2019\)"):
        put(out, b"x", 0.0)


@keeps(
    "docs/reason-codes.md",
    "MQRC_OBJECT_NAME_ERROR | MQOPEN by something other than a name or an OD",
)
def test_an_open_by_something_other_than_a_name_or_od_fails_with_object_name_error(
    qm: QMgr,
) -> None:
    with pytest.raises(MQMIError, match=r"MQRC_OBJECT_NAME_ERROR \(2152\).*not int"):
        qm.connect().open(5, CMQC.MQOO_OUTPUT)  # type: ignore[arg-type]


def test_open_options_that_are_not_an_int_fail_with_options_error(qm: QMgr) -> None:
    with pytest.raises(MQMIError, match=r"MQRC_OPTIONS_ERROR \(2046\)"):
        qm.connect().open("Q", "MQOO_OUTPUT")  # type: ignore[arg-type]


def test_inquire_reports_depth_and_the_queue_attributes(qm: QMgr) -> None:
    h = open_queue(qm, "Q")
    put(h, b"x", 0.0)
    assert h.inquire(CMQC.MQIA_CURRENT_Q_DEPTH) == 1
    assert h.inquire(CMQC.MQIA_MAX_Q_DEPTH) == 3
    assert h.inquire(CMQC.MQCA_Q_NAME) == b"Q".ljust(48)
    with pytest.raises(MQMIError, match=r"MQRC_SELECTOR_ERROR \(2067\)"):
        h.inquire(99999)


def test_conflicting_syncpoint_options_are_refused_with_options_error(qm: QMgr) -> None:
    h = open_queue(qm, "Q")
    both_put = CMQC.MQPMO_SYNCPOINT | CMQC.MQPMO_NO_SYNCPOINT
    with pytest.raises(MQMIError, match=r"MQRC_OPTIONS_ERROR \(2046\)"):
        put(h, b"x", 0.0, both_put)
    with pytest.raises(MQMIError, match=r"MQRC_OPTIONS_ERROR \(2046\)"):
        get(h, 0.0, CMQC.MQGMO_SYNCPOINT | CMQC.MQGMO_NO_SYNCPOINT)
    with pytest.raises(MQMIError, match=r"MQRC_OPTIONS_ERROR \(2046\)"):
        get(h, 0.0, CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_SYNCPOINT)
    with pytest.raises(MQMIError, match=r"MQRC_WAIT_INTERVAL_ERROR \(2090\)"):
        get(h, 0.0, CMQC.MQGMO_WAIT, WaitInterval=-5)


@keeps("docs/rules.md", "`MQGMO_SYNCPOINT_IF_PERSISTENT`")
def test_syncpoint_if_persistent_puts_only_persistent_gets_in_the_unit_of_work(
    qm: QMgr,
) -> None:
    h = open_queue(qm, "Q")
    put(h, b"np", 0.0, Persistence=CMQC.MQPER_NOT_PERSISTENT)
    put(h, b"p", 0.0, Persistence=CMQC.MQPER_PERSISTENT)
    conn = qm.connect()
    rh = conn.open("Q", ALL)
    get(rh, 1.0, CMQC.MQGMO_SYNCPOINT_IF_PERSISTENT)
    get(rh, 1.0, CMQC.MQGMO_SYNCPOINT_IF_PERSISTENT)
    conn.backout()
    assert drain(h, 2.0) == [b"p"]
