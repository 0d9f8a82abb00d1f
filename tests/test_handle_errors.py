"""A handle's calls that fail say which reason code and what was wrong, in one line
(IBM MQ: MQCLOSE, MQINQ and MQSET, and their reason codes); and MQSET and MQINQ answer
as IBM documents: OPPROCS counts the handles open for output, TriggerData keeps its
leading blanks, every inhibit value 0 and 1 is accepted."""

from __future__ import annotations

import pytest

from qsg import CMQC, GMO, MD, OD, PMO, MQMIError, QMgr
from qsg.core.authority import Authority
from qsg.core.events import Discarded
from qsg.core.handle import Handle
from qsg.core.queue import QueueDefinition
from qsg.mqsc import load
from tests.claims import keeps
from tests.helpers import ALL

SET = ALL | CMQC.MQOO_SET
PERM = "APP.PERM.MODEL"


def queue() -> tuple[QMgr, Handle]:
    qm = QMgr("QM1")
    qm.define_queue("Q")
    return qm, qm.connect().open("Q", SET)


@keeps("docs/reason-codes.md", "MQRC_HOBJ_ERROR | a call on a closed handle")
def test_a_second_mqclose_fails_with_hobj_error_naming_the_queue() -> None:
    _, h = queue()
    h.close()
    with pytest.raises(
        MQMIError, match=r"^MQCC_FAILED: MQRC_HOBJ_ERROR \(2019\): Q is already closed$"
    ):
        h.close()


def test_mqclose_options_not_valid_are_named_in_hexadecimal() -> None:
    _, h = queue()
    with pytest.raises(
        MQMIError, match=r"^MQCC_FAILED: MQRC_OPTIONS_ERROR \(2046\): MQCLOSE options 0x1000$"
    ):
        h.close(0x1000)


def test_closing_mid_group_or_mid_message_says_which_is_incomplete() -> None:
    for flags, reason, what in (
        (CMQC.MQMF_MSG_IN_GROUP, r"MQRC_INCOMPLETE_GROUP \(2241\)", "message group"),
        (CMQC.MQMF_SEGMENT, r"MQRC_INCOMPLETE_MSG \(2242\)", "logical message"),
    ):
        _, h = queue()
        options = CMQC.MQPMO_LOGICAL_ORDER | CMQC.MQPMO_NO_SYNCPOINT
        h.put(b"m", MD(Version=2, MsgFlags=flags), PMO(Options=options), now=0.0)
        with pytest.raises(
            MQMIError, match=rf"^MQCC_WARNING: {reason}: Q closed with a {what} not completed$"
        ):
            h.close()


@keeps("docs/reason-codes.md", "MQRC_SELECTOR_ERROR | MQINQ/MQSET of a selector that is not valid")
def test_mqinq_of_an_unknown_selector_names_it_and_the_queue() -> None:
    _, h = queue()
    with pytest.raises(
        MQMIError, match=r"^MQCC_FAILED: MQRC_SELECTOR_ERROR \(2067\): selector 99999 on Q$"
    ):
        h.inquire(99999)


def test_mqinq_counts_the_handles_open_for_input_and_for_output() -> None:
    # MQIA_OPEN_INPUT_COUNT (IPPROCS) and MQIA_OPEN_OUTPUT_COUNT (OPPROCS).
    qm, h = queue()
    conn = qm.connect()
    conn.open("Q", CMQC.MQOO_OUTPUT)
    conn.open("Q", CMQC.MQOO_OUTPUT)
    conn.open("Q", CMQC.MQOO_BROWSE)
    assert h.inquire(CMQC.MQIA_OPEN_OUTPUT_COUNT) == 3
    assert h.inquire(CMQC.MQIA_OPEN_INPUT_COUNT) == 1


@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_NOT_OPEN_FOR_BROWSE, _INPUT, _INQUIRE, _OUTPUT, _SET | a call the handle was not "
        "opened for"
    ),
)
def test_mqset_on_a_handle_not_opened_for_set_fails_with_not_open_for_set() -> None:
    qm, _ = queue()
    h = qm.connect().open("Q", CMQC.MQOO_OUTPUT)
    with pytest.raises(
        MQMIError, match=r"^MQCC_FAILED: MQRC_NOT_OPEN_FOR_SET \(2040\): Q was not opened for that$"
    ):
        h.set(CMQC.MQIA_INHIBIT_PUT, 1)


@keeps(
    "docs/reason-codes.md",
    "MQRC_INHIBIT_VALUE_ERROR | MQSET of MQIA_INHIBIT_PUT/GET to a value other than 0 or 1",
)
def test_mqset_of_the_inhibits_accepts_0_and_1_and_refuses_other_values() -> None:
    _, h = queue()
    h.set(CMQC.MQIA_INHIBIT_PUT, 1)
    assert h.inquire(CMQC.MQIA_INHIBIT_PUT) == 1
    h.set(CMQC.MQIA_INHIBIT_PUT, 0)
    assert h.inquire(CMQC.MQIA_INHIBIT_PUT) == 0
    with pytest.raises(
        MQMIError,
        match=r"^MQCC_FAILED: MQRC_INHIBIT_VALUE_ERROR \(2020\): MQSET of selector 10 to 2$",
    ):
        h.set(CMQC.MQIA_INHIBIT_PUT, 2)


@keeps(
    "docs/reason-codes.md",
    "MQRC_CHAR_ATTR_LENGTH_ERROR | MQSET of MQCA_TRIGGER_DATA longer than 64",
)
def test_mqset_of_trigger_data_keeps_leading_blanks_and_takes_up_to_64_characters() -> None:
    _, h = queue()
    h.set(CMQC.MQCA_TRIGGER_DATA, b"  data  ")
    assert bytes(h.inquire(CMQC.MQCA_TRIGGER_DATA)).rstrip() == b"  data"
    # Trailing blanks and NULs are padding; every other character is data.
    h.set(CMQC.MQCA_TRIGGER_DATA, b"  dataX\x00 \x00")
    assert bytes(h.inquire(CMQC.MQCA_TRIGGER_DATA)).rstrip() == b"  dataX"
    h.set(CMQC.MQCA_TRIGGER_DATA, b"x" * 64)
    with pytest.raises(MQMIError, match=r"MQRC_CHAR_ATTR_LENGTH_ERROR \(2006\)"):
        h.set(CMQC.MQCA_TRIGGER_DATA, b"x" * 65)


def test_mqset_of_an_unknown_selector_or_one_not_for_the_type_names_it() -> None:
    qm, h = queue()
    with pytest.raises(
        MQMIError, match=r"^MQCC_FAILED: MQRC_SELECTOR_ERROR \(2067\): MQSET selector 12345$"
    ):
        h.set(12345, 1)
    load(qm, "DEFINE QALIAS(A) TARGET(Q)")
    alias = qm.connect().open("A", CMQC.MQOO_SET | CMQC.MQOO_INQUIRE)
    with pytest.raises(
        MQMIError,
        match=r"^MQCC_FAILED: MQRC_SELECTOR_ERROR \(2067\): selector 24 on A$",
    ):
        alias.set(CMQC.MQIA_TRIGGER_CONTROL, 1)
    alias.set(CMQC.MQIA_INHIBIT_PUT, 1)  # an alias's own inhibit
    assert alias.inquire(CMQC.MQIA_INHIBIT_PUT) == 1
    assert h.inquire(CMQC.MQIA_INHIBIT_PUT) == 0


def test_a_put_of_something_not_bytes_names_its_type() -> None:
    _, h = queue()
    with pytest.raises(
        MQMIError,
        match=r"^MQCC_FAILED: MQRC_BUFFER_ERROR \(2004\): "
        r"the message must be bytes or str, not int$",
    ):
        h.put(7, MD(), PMO(), now=0.0)  # type: ignore[arg-type]


def permanent() -> QMgr:
    auth = Authority()
    auth.grant("alice", "*", "put", "get", "browse", "inq")
    auth.grant("bob", "*", "put", "get", "browse", "inq")
    qm = QMgr("QM1", authority=auth)
    qm.define(
        QueueDefinition(PERM, q_type=CMQC.MQQT_MODEL, definition_type=CMQC.MQQDT_PERMANENT_DYNAMIC)
    )
    return qm


@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_OPTION_NOT_VALID_FOR_TYPE | MQCLOSE with DELETE of a queue that is not a permanent "
        "dynamic one; a remote queue opened for other than output or inquire"
    ),
)
def test_mqclose_with_delete_says_why_it_cannot_delete() -> None:
    # MQCLOSE: MQRC_OPTION_NOT_VALID_FOR_TYPE for a queue that is not permanent
    # dynamic; MQRC_NOT_AUTHORIZED for a user without delete authority; MQRC_Q_NOT_EMPTY
    # with messages (MQCO_DELETE) or uncommitted work (either option).
    qm = permanent()
    qm.define_queue("LOCAL")
    local = qm.connect("alice").open("LOCAL", CMQC.MQOO_OUTPUT)
    with pytest.raises(
        MQMIError,
        match=r"^MQCC_FAILED: MQRC_OPTION_NOT_VALID_FOR_TYPE \(2045\): "
        r"LOCAL is not a permanent dynamic queue this handle may delete$",
    ):
        local.close(CMQC.MQCO_DELETE)
    creator = qm.connect("alice").open(OD(ObjectName=PERM.encode(), DynamicQName=b"APP.P"), ALL)
    other = qm.connect("bob").open("APP.P", ALL)
    with pytest.raises(
        MQMIError,
        match=r"^MQCC_FAILED: MQRC_NOT_AUTHORIZED \(2035\): user bob may not delete APP.P$",
    ):
        other.close(CMQC.MQCO_DELETE)
    creator.put(b"m", MD(), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    with pytest.raises(
        MQMIError,
        match=r"^MQCC_FAILED: MQRC_Q_NOT_EMPTY \(2055\): "
        r"APP.P still holds 1 messages \(MQCO_DELETE\)$",
    ):
        creator.close(CMQC.MQCO_DELETE)
    creator.put(b"m", MD(), PMO(Options=CMQC.MQPMO_SYNCPOINT), now=0.0)
    with pytest.raises(
        MQMIError,
        match=r"^MQCC_FAILED: MQRC_Q_NOT_EMPTY \(2055\): "
        r"APP.P has uncommitted gets or puts outstanding$",
    ):
        creator.close(CMQC.MQCO_DELETE_PURGE)


def test_calls_on_a_closed_or_deleted_handle_or_one_not_opened_for_them_say_so() -> None:
    qm, h = queue()
    out = qm.connect().open("Q", CMQC.MQOO_OUTPUT)
    with pytest.raises(
        MQMIError,
        match=r"^MQCC_FAILED: MQRC_NOT_OPEN_FOR_INPUT \(2037\): Q was not opened for that$",
    ):
        out.get(None, MD(), GMO(), now=0.0)
    h.close()
    with pytest.raises(MQMIError, match=r"^MQCC_FAILED: MQRC_HOBJ_ERROR \(2019\): Q is closed$"):
        h.put(b"m", MD(), PMO(), now=0.0)
    model = OD(ObjectName=b"SYSTEM.DEFAULT.MODEL.QUEUE", DynamicQName=b"T")
    creator = qm.connect().open(model, ALL)
    other = qm.connect().open("T", CMQC.MQOO_OUTPUT)
    other.close()  # not the creator: the queue stays
    other = qm.connect().open("T", CMQC.MQOO_OUTPUT)
    creator.put(b"m", MD(), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    creator.close()  # the creator: the queue is deleted, logically while T is open
    with pytest.raises(
        MQMIError, match=r"^MQCC_FAILED: MQRC_Q_DELETED \(2052\): dynamic queue T has been deleted$"
    ):
        other.put(b"m", MD(), PMO(), now=0.0)


def test_mqget_names_a_buffer_length_not_valid_and_an_alias_that_inhibits_gets() -> None:
    qm, h = queue()
    with pytest.raises(
        MQMIError,
        match=r"^MQCC_FAILED: MQRC_BUFFER_LENGTH_ERROR \(2005\): "
        r"the buffer length must be a whole number of bytes, 0 or more: -1$",
    ):
        h.get(-1, MD(), GMO(), now=0.0)
    load(qm, "DEFINE QALIAS(A) TARGET(Q)")
    alias = qm.connect().open("A", ALL)
    alias.put(b"m", None, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)  # default MD
    alias.put(b"n", MD(), None, now=0.0)  # default PMO (z/OS: in syncpoint)
    alias.conn.commit()
    assert alias.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0) == b"m"
    load(qm, "ALTER QALIAS(A) GET(DISABLED)")
    with pytest.raises(
        MQMIError, match=r"^MQCC_FAILED: MQRC_GET_INHIBITED \(2016\): gets are inhibited on A$"
    ):
        alias.get(None, MD(), GMO(), now=0.0)


def test_a_get_that_discards_expired_messages_names_the_queue_and_how() -> None:
    # Discards on MQGET and on browse are events with the queue and `by`.
    events: list[object] = []
    qm = QMgr("QM1", on_event=events.append)
    qm.define_queue("Q")
    h = qm.connect().open("Q", ALL)
    for _ in range(2):
        h.put(b"m", MD(Expiry=1), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    with pytest.raises(MQMIError, match="MQRC_NO_MSG_AVAILABLE"):
        h.get(None, MD(), GMO(Options=CMQC.MQGMO_BROWSE_FIRST), now=0.0 + 1.0)
    discards = [(e.queue, e.by) for e in events if isinstance(e, Discarded)]  # type: ignore[attr-defined]
    assert discards == [("Q", "browse"), ("Q", "browse")]
    h.put(b"m", MD(Expiry=1), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=2.0)
    with pytest.raises(MQMIError, match="MQRC_NO_MSG_AVAILABLE"):
        h.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=3.0)
    assert [(e.queue, e.by) for e in events if isinstance(e, Discarded)][-1] == ("Q", "get")  # type: ignore[attr-defined]


def test_mqgmo_unlock_returns_no_data_and_a_truncation_warning_carries_the_decision() -> None:
    _, h = queue()
    h.put(b"data", MD(), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    h.get(None, MD(), GMO(Options=CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_LOCK), now=0.0)
    assert h.receive(None, MD(), GMO(Options=CMQC.MQGMO_UNLOCK), now=0.0) == (b"", None)
    options = CMQC.MQGMO_ACCEPT_TRUNCATED_MSG | CMQC.MQGMO_SYNCPOINT
    with pytest.raises(MQMIError, match="MQRC_TRUNCATED_MSG_ACCEPTED") as warned:
        h.get(2, MD(), GMO(Options=options), now=0.0)
    assert warned.value.done is not None and warned.value.done.in_uow


def test_mqdisc_deletes_the_temporary_dynamic_queue_its_connection_created() -> None:
    # MQDISC closes the handles still open with MQCO_NONE: the creator's close of a
    # temporary dynamic queue deletes it, at once when no other handle has it open.
    qm = QMgr("QM1")
    conn = qm.connect()
    model = OD(ObjectName=b"SYSTEM.DEFAULT.MODEL.QUEUE", DynamicQName=b"T")
    conn.open(model, ALL).put(b"m", MD(), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    conn.disconnect()
    assert qm.find("T") is None
    # With another handle open, the disconnect deletes it logically: that handle's
    # calls fail with MQRC_Q_DELETED.
    conn = qm.connect()
    conn.open(OD(ObjectName=b"SYSTEM.DEFAULT.MODEL.QUEUE", DynamicQName=b"T"), ALL)
    other = qm.connect().open("T", CMQC.MQOO_OUTPUT)
    conn.disconnect()
    with pytest.raises(MQMIError, match=r"MQRC_Q_DELETED \(2052\)"):
        other.put(b"m", MD(), PMO(), now=0.0)


def test_a_handle_is_named_by_the_queue_it_resolved_to_and_takes_default_structures() -> None:
    # A remote queue's handle names the queue at its queue manager (RNAME); a local
    # queue's its own name. MQGET with no MD or GMO uses the defaults.
    qm = QMgr("QM1")
    load(
        qm,
        """
        DEFINE QLOCAL(Q)
        DEFINE QLOCAL(QM2) USAGE(XMITQ)
        DEFINE QREMOTE(R) RNAME(APP.IN) RQMNAME(QM2) XMITQ(QM2)
    """,
    )
    conn = qm.connect()
    assert conn.open("R", CMQC.MQOO_OUTPUT).name == "APP.IN"
    h = conn.open("Q", ALL)
    assert h.name == "Q"
    h.put(b"m", None, None, now=0.0)
    conn.commit()
    assert h.get(None, None, None, now=0.0) == b"m"


def test_a_put_with_expiry_not_valid_names_the_field_and_value() -> None:
    _, h = queue()
    with pytest.raises(
        MQMIError,
        match=r"^MQCC_FAILED: MQRC_EXPIRY_ERROR \(2013\): "
        r"MQMD.Expiry=0: must be > 0 or MQEI_UNLIMITED \(-1\)$",
    ):
        h.put(b"m", MD(Expiry=0), PMO(), now=0.0)
