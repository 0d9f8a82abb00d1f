"""Rules of qsg/core's smaller modules that surviving mutants of ``./dev mutate`` showed
no test pinned (issue 27): each test is named by the rule and the IBM documentation it
comes from, and fails when the rule is broken."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import pytest

from qsg import CMQC, CMQCFC, GMO, MD, OD, PMO, XQH, MQMIError, QMgr
from qsg.core import (
    bugs,
    chltypes,
    conlos,
    engine,
    facilities,
    groupaddress,
    mqlong,
    sharedsync,
    trigger,
)
from qsg.core.authority import OPERATIONS, Authority
from qsg.core.conname import DEFAULT_PORT, parse_conname
from qsg.core.conntag import TagUse
from qsg.core.errors import completion_name, reason_name
from qsg.core.events import (
    DeadLettered,
    Discarded,
    Event,
    ReportLost,
    ReportPut,
    TriggerMessagePut,
)
from qsg.core.handle import Handle
from qsg.core.layouts import (
    DLH,
    TM,
    pack_md,
    read_inner_expiry,
    unpack_md,
    write_inner_expiry,
)
from qsg.core.memstore import MemoryStore
from qsg.core.message import Message, joined
from qsg.core.objects import (
    AliasQueue,
    CFStructure,
    ChannelDefinition,
    ProcessDefinition,
    RemoteQueue,
    queue_attributes,
)
from qsg.core.outcome import Done
from qsg.core.queue import QueueDefinition
from qsg.core.repository import Repository
from qsg.core.sharing import QueueSharingGroup
from qsg.core.stamp import PutStamp
from qsg.core.store import (
    SELECT_ANY,
    Expired,
    Fence,
    Match,
    Ordering,
    Recovery,
    Select,
    StaleFenceError,
    Syncpoint,
)
from qsg.core.structs import MQOpts, b, c, field, name_of
from qsg.mqsc import commands, load, status
from tests.claims import keeps
from tests.helpers import ALL, NO_SYNC_PUT
from tests.test_performance_events import events as qm_events

OUT = CMQC.MQOO_OUTPUT

# ---- CONNAME ----------------------------------------------------------------------


def test_a_conname_without_a_port_reaches_mq_s_default_port_1414() -> None:
    # DEFINE CHANNEL, CONNAME: "If you do not specify a port, 1414 is assumed".
    assert DEFAULT_PORT == 1414
    assert parse_conname("mvs1.example.com") == ("mvs1.example.com", 1414)


def test_a_conname_s_port_in_parentheses_is_the_port_blanks_aside() -> None:
    # DEFINE CHANNEL, CONNAME: host name or address, then (port).
    assert parse_conname("10.0.0.7(1415)") == ("10.0.0.7", 1415)
    assert parse_conname(" host ( 2414 ) ") == ("host", 2414)


@pytest.mark.parametrize("port", [0, 65535])
def test_a_conname_port_may_be_any_tcp_port_from_0_to_65535(port: int) -> None:
    assert parse_conname(f"host({port})") == ("host", port)


@pytest.mark.parametrize("conn_name", ["host(65536)", "host(99999)"])
def test_a_conname_port_beyond_65535_is_refused_naming_the_port(conn_name: str) -> None:
    with pytest.raises(ValueError, match=r"port \d+ is out of range"):
        parse_conname(conn_name)


@pytest.mark.parametrize("conn_name", ["", "host(", "host(x)", "a b", "(1414)"])
def test_a_conname_that_is_not_host_or_host_port_is_refused(conn_name: str) -> None:
    with pytest.raises(ValueError, match="is not host or host"):
        parse_conname(conn_name)


# ---- PutDate and PutTime ----------------------------------------------------------


def test_put_date_and_put_time_are_yyyymmdd_and_hhmmssth_of_the_simulated_clock() -> None:
    # MQMD PutDate "YYYYMMDD" and PutTime "HHMMSSTH" (hundredths of a second), GMT.
    stamp = PutStamp(datetime(2026, 11, 23, 10, 0, 0))
    assert stamp(3723.5) == (b"20261123", b"11020350")
    assert stamp(0.004) == (b"20261123", b"10000000")
    assert stamp(0.006) == (b"20261123", b"10000001")
    assert stamp(59.99) == (b"20261123", b"10005999")


def test_put_time_rounds_to_the_hundredth_and_repeats_within_one() -> None:
    stamp = PutStamp(datetime(2026, 1, 1, 0, 0, 0, 250_000))  # epoch at .25 s
    assert stamp(1.0) == (b"20260101", b"00000125")
    assert stamp(1.001) == (b"20260101", b"00000125")
    assert stamp(1.01) == (b"20260101", b"00000126")
    assert stamp(1.0) == (b"20260101", b"00000125")
    # Within a second only the hundredths change; a new second (or an earlier one) and
    # its hundredths are both new.
    assert stamp(8.80) == (b"20260101", b"00000905")
    assert stamp(9.74) == (b"20260101", b"00000999")
    assert stamp(9.75) == (b"20260101", b"00001000")
    assert stamp(9.70) == (b"20260101", b"00000995")
    assert stamp(3600.0) == (b"20260101", b"01000025")


def test_put_date_moves_on_at_simulated_midnight_and_back_before_it() -> None:
    stamp = PutStamp(datetime(2026, 12, 31, 23, 59, 59))
    assert stamp(0.0) == (b"20261231", b"23595900")
    assert stamp(1.0) == (b"20270101", b"00000000")
    assert stamp(86_400.0 + 3601.0) == (b"20270102", b"01000000")
    assert stamp(0.5) == (b"20261231", b"23595950")


def test_put_time_counts_from_the_epoch_s_own_midnight_to_the_hundredth() -> None:
    # The first put may fall in the first hundredth of the day; the day starts at
    # 00:00:00.00 exactly, so a time half a hundredth past rounds up.
    stamp = PutStamp(datetime(2026, 1, 1))
    assert stamp(0.01) == (b"20260101", b"00000001")
    assert stamp(0.01500005) == (b"20260101", b"00000002")


# ---- Authority ----------------------------------------------------------------------


@keeps(
    "docs/objects.md",
    (
        "with setmqaut's operation names (`put`, `get`, `browse`, `inq`, `set`, `dlt`, `altusr`, "
        "or `all`)"
    ),
)
def test_setmqaut_all_grants_every_operation_on_the_profile() -> None:
    # setmqaut +all: "all the authorizations that apply to the object type".
    auth = Authority(superusers=())
    auth.grant("app", "APP.*", "all")
    assert all(auth.allowed("app", "APP.IN", operation) for operation in OPERATIONS)
    assert not auth.allowed("app", "OTHER.IN", "put")
    assert not auth.allowed("someone", "APP.IN", "put")


def test_an_unknown_setmqaut_operation_is_refused_naming_it_and_the_known_ones() -> None:
    auth = Authority()
    known = re.escape(str(sorted(OPERATIONS)))
    with pytest.raises(ValueError, match=rf"unknown operations \['fly'\]; known: {known}$"):
        auth.grant("app", "*", "put", "fly")


# ---- Messages -----------------------------------------------------------------------


def test_mqget_keeps_the_callers_mqmd_version_while_filling_its_fields() -> None:
    # MQGET fills the descriptor's output fields; its Version is the caller's input.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    h = qm.connect().open("Q", ALL)
    h.put(b"m", MD(Version=2, Priority=4), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    md = MD(Version=1)
    h.get(None, md, GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0)
    assert md.Version == 1 and md.Priority == 4


def _segment(flags: int, body: bytes, n: int) -> Message:
    desc = MD(MsgFlags=flags, Offset=n * 10, MsgSeqNumber=1, Priority=n, MsgId=bytes([n]) * 24)
    return Message(desc.get(), body, float(n), 100.0 + n, n, seq=n, backout_count=n)


def test_a_logical_message_made_whole_is_its_first_segment_with_every_segment_s_data() -> None:
    # MQGMO_COMPLETE_MSG: the whole message is returned with the MQMD of its first
    # segment, the segment flags cleared, and MQMF_LAST_MSG_IN_GROUP if the last segment
    # is the last message of its group.
    group = CMQC.MQMF_MSG_IN_GROUP
    parts = [
        _segment(group | CMQC.MQMF_SEGMENT, b"ab", 1),
        _segment(group | CMQC.MQMF_SEGMENT, b"cd", 2),
        _segment(CMQC.MQMF_LAST_MSG_IN_GROUP | CMQC.MQMF_LAST_SEGMENT, b"e", 3),
    ]
    whole = joined(parts)
    assert whole.body == b"abcde"
    assert whole.desc["MsgFlags"] == group | CMQC.MQMF_LAST_MSG_IN_GROUP
    assert whole.desc["MsgId"] == parts[0].msg_id and whole.desc["Offset"] == 10
    assert (whole.put_time, whole.expires_at, whole.priority) == (1.0, 101.0, 1)
    assert (whole.seq, whole.backout_count) == (1, 1)


# ---- Completion and reason codes --------------------------------------------------


def test_an_error_names_its_completion_and_reason_code_by_ibm_s_mnemonic() -> None:
    error = MQMIError.failed(CMQC.MQRC_NO_MSG_AVAILABLE)
    assert str(error) == "MQCC_FAILED: MQRC_NO_MSG_AVAILABLE (2033)" and error.detail == ""
    error = MQMIError(CMQC.MQCC_WARNING, CMQC.MQRC_TRUNCATED_MSG_ACCEPTED, "12 of 20 bytes")
    assert str(error) == "MQCC_WARNING: MQRC_TRUNCATED_MSG_ACCEPTED (2079): 12 of 20 bytes"
    assert error.detail == "12 of 20 bytes"


def test_a_code_ibm_has_no_mnemonic_for_is_named_unknown_with_its_number() -> None:
    assert reason_name(1999) == "MQRC_UNKNOWN_1999"
    assert completion_name(7) == "MQCC_UNKNOWN_7"


# ---- Queue-sharing groups ---------------------------------------------------------


def test_a_queue_sharing_group_name_has_at_most_four_characters() -> None:
    # "Queue-sharing groups": a QSG name is up to 4 characters.
    assert QueueSharingGroup("QSG1").name == "QSG1"
    with pytest.raises(ValueError, match="a queue-sharing group name has 1 to 4 characters"):
        QueueSharingGroup("QSG12")


def test_a_queue_manager_joins_a_queue_sharing_group_once() -> None:
    qsg = QueueSharingGroup("QSG1")
    qsg.join("QM1")
    qsg.join("QM2")
    assert qsg.members == ["QM1", "QM2"]
    with pytest.raises(ValueError, match=r"^QM1 is already a member of QSG1$"):
        qsg.join("QM1")


# ---- MQLONG range checks ----------------------------------------------------------

BIG = 3_000_000_000  # fits the structure (< 2**32), not an MQLONG


def test_every_mqlong_field_of_the_mqmd_is_range_checked_with_its_own_reason_or_md_error() -> None:
    # "MQPUT - Put message": each MQMD field with a reason code of its own (Expiry 2013,
    # Priority 2050, ...) fails with it; the others with MQRC_MD_ERROR (2026).
    check = mqlong._Checker(MD, mqlong.MD_REASONS, CMQC.MQRC_MD_ERROR)  # as the module's
    longs = [name for name, _, kind in MD._fields if kind == "l"]
    assert check.fields == tuple(longs) and "Expiry" in longs and "MsgId" not in longs
    for name in longs:
        md = MD(**{name: BIG})
        with pytest.raises(MQMIError, match=rf"MQMD\.{name}={BIG} is outside") as raised:
            check(md)
        assert raised.value.reason == mqlong.MD_REASONS.get(name, CMQC.MQRC_MD_ERROR)
    md = MD(Expiry=BIG)
    md.Expiry, md.Feedback = mqlong.MQLONG_MAX, mqlong.MQLONG_MIN  # an MQLONG's edges
    check(md)  # back in range: no error, and the structure is usable as it is


# ---- Transmission queues ----------------------------------------------------------


def _xmit_qm(**options: object) -> tuple[QMgr, Handle]:
    qm = QMgr("QM1", **options)  # type: ignore[arg-type]
    qm.define_queue("QM3", usage=CMQC.MQUS_TRANSMISSION)
    return qm, qm.connect().open("QM3", ALL)


def _put_xmit(h: Handle, outer: int, inner: int, data: bytes = b"") -> None:
    body = XQH(b"APP.IN", b"QM3", MD(Expiry=inner)).pack() + data
    desc = MD(Format=CMQC.MQFMT_XMIT_Q_HEADER, Expiry=outer)
    h.put(body, desc, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)


def test_a_direct_put_to_a_transmission_queue_may_be_an_mqxqh_with_no_data_after_it() -> None:
    # The data must begin with an MQXQH; nothing says anything must follow it.
    qm, h = _xmit_qm()
    _put_xmit(h, 100, 100)
    assert qm.depth("QM3") == 1


def test_a_direct_put_s_inner_expiry_above_the_maximum_fails_when_the_maximum_is_enforced() -> None:
    # The queue manager "checks that the Expiry field within the MQXQH contains a valid
    # value": with AMQ_ENFORCE_MAX_EXPIRY_ERROR, above 999 999 999 is not valid.
    _, h = _xmit_qm(enforce_max_expiry=True)
    with pytest.raises(MQMIError, match=r"\(2013\): MQXQH\.MsgDesc\.Expiry=1000000000: above"):
        _put_xmit(h, 100, 1_000_000_000)


def test_an_inner_expiry_of_one_tenth_that_ran_out_reads_zero_though_the_outer_did_not() -> None:
    # "Expiry (MQLONG)" note 9: on MQGET from any queue both Expiry fields are
    # decremented; an inner Expiry that ran out while the outer did not is set to zero.
    qm = QMgr("QM1")
    qm.define_queue("NORMAL")
    h = qm.connect().open("NORMAL", ALL)
    body = XQH(b"APP.IN", b"QM3", MD(Expiry=1)).pack() + b"data"
    desc = MD(Format=CMQC.MQFMT_XMIT_Q_HEADER, Expiry=100)
    h.put(body, desc, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    md = MD()
    got = h.get(None, md, GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=1.0)
    assert md.Expiry == 90 and read_inner_expiry(got, md.Encoding) == 0


# ---- Repositories -----------------------------------------------------------------


def test_define_without_replace_of_a_queue_that_exists_fails() -> None:
    # DEFINE QLOCAL: NOREPLACE is the default; the command fails if the object exists.
    repo = Repository(MemoryStore())
    repo.add_queue(QueueDefinition("Q"))
    with pytest.raises(ValueError, match=r"^queue Q is already defined$"):
        repo.add_queue(QueueDefinition("Q"))


def test_define_replace_of_a_queue_of_another_type_fails_naming_the_type() -> None:
    # DEFINE ... REPLACE replaces an object of the same type only.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    with pytest.raises(ValueError, match=r"already defined with another type \(1\)$"):
        qm.define(AliasQueue("Q", target="OTHER"), replace=True)


def test_a_model_queue_is_a_template_with_no_messages_or_status_of_its_own() -> None:
    # "Dynamic queues": a model queue is a template; only the queues made from it hold
    # messages, and MQINQ of its depth or a get from it names no local queue.
    qm = QMgr("QM1")
    model = QueueDefinition(
        "APP.MODEL", q_type=CMQC.MQQT_MODEL, definition_type=CMQC.MQQDT_TEMPORARY_DYNAMIC
    )
    qm.define(model)
    assert "APP.MODEL" not in qm.local.status
    with pytest.raises(
        MQMIError,
        match=r"^MQCC_FAILED: MQRC_UNKNOWN_OBJECT_NAME \(2085\): "
        r"no local queue APP.MODEL$",
    ):
        qm.depth("APP.MODEL")
    qm.delete_queue("APP.MODEL")
    assert qm.find("APP.MODEL") is None


# ---- Queue definitions --------------------------------------------------------------

LOCAL = CMQC.MQQT_LOCAL
MODEL = {"q_type": CMQC.MQQT_MODEL, "definition_type": CMQC.MQQDT_PERMANENT_DYNAMIC}


@pytest.mark.parametrize(
    "attributes",
    [
        {"def_priority": 0},
        {"def_priority": 9},
        {"def_persistence": CMQC.MQPER_PERSISTENT},
        {"msg_delivery_sequence": CMQC.MQMDS_FIFO},
        {"max_depth": 0},
        {"max_depth": 999_999_999},
        {"qsg_disp": CMQC.MQQSGD_SHARED, "cf_struct": "APP1"},
        {"trigger_type": CMQC.MQTT_NONE},
        {"trigger_type": CMQC.MQTT_DEPTH},
        {"trigger_type": CMQC.MQTT_EVERY},
        {"trigger_depth": 1},
        {"trigger_depth": 999_999_999},
        {"trigger_msg_priority": 9},
        {"trigger_data": "t" * 64},
        MODEL,
        {**MODEL, "definition_type": CMQC.MQQDT_SHARED_DYNAMIC, "cf_struct": "APP1"},
    ],
)
def test_define_qlocal_accepts_every_attribute_at_the_edges_of_its_range(
    attributes: dict[str, object],
) -> None:
    # DEFINE QLOCAL/QMODEL: DEFPRTY 0-9, MAXDEPTH 0-999999999, TRIGDPTH 1-999999999,
    # TRIGMPRI 0-9, TRIGDATA up to 64 characters.
    QueueDefinition("APP.Q", **attributes)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("attributes", "error"),
    [
        ({"def_priority": -1}, "DEFPRTY must be 0..9, not -1"),
        ({"def_priority": 10}, "DEFPRTY must be 0..9, not 10"),
        ({"def_persistence": 2}, "DEFPSIST must be NO or YES"),
        ({"msg_delivery_sequence": 2}, "MSGDLVSQ must be PRIORITY or FIFO"),
        ({"max_depth": -1}, "MAXDEPTH must be 0..999999999"),
        ({"max_depth": 1_000_000_000}, "MAXDEPTH must be 0..999999999"),
        ({"qsg_disp": CMQC.MQQSGD_SHARED}, "QSGDISP(SHARED) needs a CFSTRUCT"),
        ({"trigger_type": 4}, "TRIGTYPE must be NONE, FIRST, EVERY or DEPTH"),
        ({"trigger_depth": 0}, "TRIGDPTH must be 1..999999999"),
        ({"trigger_depth": 1_000_000_000}, "TRIGDPTH must be 1..999999999"),
        ({"trigger_msg_priority": -1}, "TRIGMPRI must be 0..9"),
        ({"trigger_msg_priority": 10}, "TRIGMPRI must be 0..9"),
        ({"trigger_data": "t" * 65}, "TRIGDATA has at most 64 characters"),
    ],
)
def test_define_qlocal_refuses_an_attribute_out_of_its_range_naming_its_keyword(
    attributes: dict[str, object], error: str
) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(f'queue APP.Q: {error}')}$"):
        QueueDefinition("APP.Q", **attributes)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("attributes", "error"),
    [
        ({"definition_type": CMQC.MQQDT_PREDEFINED}, "DEFTYPE must be dynamic"),
        (
            {**MODEL, "qsg_disp": CMQC.MQQSGD_SHARED, "cf_struct": "APP1"},
            "a model is never QSGDISP(SHARED)",
        ),
        ({"definition_type": CMQC.MQQDT_SHARED_DYNAMIC}, "DEFTYPE(SHAREDYN) needs a CFSTRUCT"),
    ],
)
def test_define_qmodel_refuses_a_predefined_or_shared_model_and_sharedyn_without_cfstruct(
    attributes: dict[str, object], error: str
) -> None:
    # DEFINE QMODEL: DEFTYPE(TEMPDYN|PERMDYN|SHAREDYN), SHAREDYN on a CF structure.
    attributes = {"q_type": CMQC.MQQT_MODEL, **attributes}
    with pytest.raises(ValueError, match=f"^{re.escape(f'model queue APP.M: {error}')}$"):
        QueueDefinition("APP.M", **attributes)  # type: ignore[arg-type]


def test_an_mq_object_name_is_1_to_48_of_a_z_0_9_dot_slash_underscore_percent() -> None:
    # "Rules for naming IBM MQ objects": up to 48 characters of A-Z, a-z, 0-9, . / _ %.
    QueueDefinition("a./_%Z9" + "Q" * 41)
    too_long = r"^a queue name has 1 to 48 characters: 'Q{40}'\.\.\. \(49 characters\)$"
    with pytest.raises(ValueError, match=too_long):
        QueueDefinition("Q" * 49)
    with pytest.raises(ValueError, match=r"^a queue name has 1 to 48 characters: ''$"):
        QueueDefinition("")
    with pytest.raises(
        ValueError, match=r"^queue name 'A-B C' has characters MQ does not allow: \[' ', '-'\]$"
    ):
        QueueDefinition("A-B C")


def test_a_shared_queue_s_messages_use_its_cf_structure_also_after_msgdlvsq_changes() -> None:
    # A shared queue's messages are held in the list structure its CFSTRUCT names: each
    # takes an entry, and an element per 256 bytes of its data and 200 bytes of control
    # storage (qsg.core.geometry; DISPLAY CFSTATUS's ENTSUSED and ELEMUSED): 1 + 1 + 2.
    # ALTER QLOCAL MSGDLVSQ of an empty queue keeps it on its structure.
    group = QueueSharingGroup("QSG1")
    qm = QMgr("QM1", qsg=group)
    qm.define_structure(CFStructure("APP1", size_kb=100))
    qm.define_queue("APP.SHARED", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")
    qm.define_queue("APP.OTHER", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")
    qm.alter_queue("APP.SHARED", msg_delivery_sequence=CMQC.MQMDS_FIFO)
    h = qm.connect().open("APP.SHARED", ALL)
    no_sync = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
    h.put(b"low", MD(Priority=1), no_sync, now=0.0)
    h.put(b"high", MD(Priority=8), no_sync, now=0.0)
    qm.connect().open("APP.OTHER", OUT).put(b"x" * 300, MD(), no_sync, now=0.0)
    usage = group.shared.store.structure_usage("APP1")  # type: ignore[attr-defined]
    assert usage == {"entries": 3, "elements": 4, "max_entries": 100, "max_elements": 400}
    # MSGDLVSQ(FIFO): the first put first, whatever its priority.
    assert h.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0) == b"low"


def test_alter_msgdlvsq_of_an_empty_local_queue_orders_it_afresh() -> None:
    qm = QMgr("QM1")
    qm.define_queue("Q", msg_delivery_sequence=CMQC.MQMDS_FIFO)
    qm.alter_queue("Q", msg_delivery_sequence=CMQC.MQMDS_PRIORITY)
    h = qm.connect().open("Q", ALL)
    no_sync = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
    h.put(b"low", MD(Priority=1), no_sync, now=0.0)
    h.put(b"high", MD(Priority=8), no_sync, now=0.0)
    assert h.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0) == b"high"


# ---- Channels, processes and what MQINQ returns -------------------------------------


def test_define_channel_takes_names_of_up_to_20_characters_and_batchsz_1_to_9999() -> None:
    # DEFINE CHANNEL: a channel name has up to 20 characters; BATCHSZ is 1 through 9999.
    for batch in (1, 9999):
        ChannelDefinition("C" * 20, CMQC.MQCHT_RECEIVER, batch_size=batch)
    with pytest.raises(ValueError, match=r"^a channel name has 1 to 20 characters: 'C{21}'$"):
        ChannelDefinition("C" * 21, CMQC.MQCHT_RECEIVER)
    for batch in (0, 10_000):
        with pytest.raises(ValueError, match=r"^channel TO\.QM2: BATCHSZ must be 1\.\.9999$"):
            ChannelDefinition("TO.QM2", CMQC.MQCHT_RECEIVER, batch_size=batch)


@pytest.mark.parametrize("channel_type", [CMQC.MQCHT_SENDER, CMQC.MQCHT_SERVER])
def test_a_sender_or_server_channel_needs_an_xmitq(channel_type: int) -> None:
    # DEFINE CHANNEL: XMITQ is required for CHLTYPE(SDR) and CHLTYPE(SVR).
    with pytest.raises(
        ValueError, match=r"^channel TO\.QM2: a sender or server channel needs an XMITQ$"
    ):
        ChannelDefinition("TO.QM2", channel_type)


def test_a_channel_retries_shortrty_times_shorttmr_apart_then_longrty_times_longtmr_apart() -> None:
    # SHORTRTY/SHORTTMR, then LONGRTY/LONGTMR; then the channel stops (STATUS(STOPPED)).
    channel = ChannelDefinition(
        "TO.QM2",
        CMQC.MQCHT_SENDER,
        xmit_q_name="QM2",
        short_retry_count=2,
        short_retry_interval=5,
        long_retry_count=3,
        long_retry_interval=60,
    )
    intervals = [channel.retry_interval(attempt) for attempt in range(1, 8)]
    assert intervals == [5, 5, 60, 60, 60, None, None]


@pytest.mark.parametrize(
    ("field", "keyword", "longest"),
    [("appl_id", "APPLICID", 256), ("env_data", "ENVRDATA", 128), ("user_data", "USERDATA", 128)],
)
def test_define_process_fields_hold_ibm_s_lengths(field: str, keyword: str, longest: int) -> None:
    # DEFINE PROCESS: APPLICID up to 256 characters, ENVRDATA and USERDATA up to 128.
    ProcessDefinition("APP.PROC", **{field: "x" * longest})  # type: ignore[arg-type]
    error = f"^process APP\\.PROC: {keyword} has at most {longest} characters$"
    with pytest.raises(ValueError, match=error):
        ProcessDefinition("APP.PROC", **{field: "x" * (longest + 1)})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^a process name has 1 to 48 characters: ''$"):
        ProcessDefinition("")


def test_mqinq_character_attributes_are_blank_padded_to_their_length() -> None:
    # MQINQ: character attributes are returned padded with blanks to the attribute's
    # length (MQ_Q_DESC_LENGTH 64, MQ_Q_NAME_LENGTH 48, MQ_CF_STRUC_NAME_LENGTH 12).
    remote = RemoteQueue(
        "TO.APP",
        remote_name="APP.IN",
        remote_q_mgr_name="QM2",
        xmit_q_name="QM2.XMIT",
        description="to QM2",
    )
    values = queue_attributes(remote, "QM1")
    assert values[CMQC.MQCA_Q_DESC] == b"to QM2" + b" " * 58
    assert values[CMQC.MQCA_Q_MGR_NAME] == b"QM1" + b" " * 45
    assert values[CMQC.MQCA_REMOTE_Q_NAME] == b"APP.IN" + b" " * 42
    assert values[CMQC.MQCA_REMOTE_Q_MGR_NAME] == b"QM2" + b" " * 45
    assert values[CMQC.MQCA_XMIT_Q_NAME] == b"QM2.XMIT" + b" " * 40
    local = QueueDefinition("APP.SHARED", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")
    assert queue_attributes(local, "QM1")[CMQC.MQCA_CF_STRUC_NAME] == b"APP1" + b" " * 8


def test_a_stale_fencing_token_is_refused_naming_the_lease_and_both_tokens() -> None:
    gone = [Expired(b"m" * 24, None)]
    error = StaleFenceError(Fence("expiry-scan", 3), 5, gone)
    assert (error.fence, error.current, error.discarded) == (Fence("expiry-scan", 3), 5, gone)
    assert str(error) == "lease expiry-scan: token 3 is stale (current token: 5)"


# ---- Name resolution ----------------------------------------------------------------


def _resolving_qm(qsg: QueueSharingGroup | None = None, def_xmit_q_name: str = "") -> QMgr:
    qm = QMgr("QM1", qsg=qsg, def_xmit_q_name=def_xmit_q_name)
    qm.define_queue("APP.LOCAL")
    qm.define_queue("QM2", usage=CMQC.MQUS_TRANSMISSION)
    qm.define(AliasQueue("APP.ALIAS", target="APP.LOCAL"))
    qm.define(AliasQueue("NO.BASE", target="NOWHERE"))
    qm.define(AliasQueue("ALIAS.OF.ALIAS", target="APP.ALIAS"))
    qm.define(AliasQueue("REMOTE.ALIAS", target="TO.APP", def_priority=3))
    qm.define(RemoteQueue("QM2.ALIAS", remote_q_mgr_name="QM2", def_priority=6))
    qm.define(RemoteQueue("SELF.ALIAS"))
    qm.define(RemoteQueue("TO.APP", remote_name="APP.IN", remote_q_mgr_name="QM2"))
    qm.define(RemoteQueue("TO.NOWHERE", remote_name="APP.IN"))
    qm.define(RemoteQueue("TO.BADXMIT", "APP.IN", "QM5", xmit_q_name="NOPE"))
    qm.define(RemoteQueue("TO.NOTXMIT", "APP.IN", "QM5", xmit_q_name="APP.LOCAL"))
    qm.define(
        QueueDefinition("QM6", q_type=CMQC.MQQT_MODEL, definition_type=CMQC.MQQDT_TEMPORARY_DYNAMIC)
    )
    return qm


@pytest.mark.parametrize(
    ("name", "q_mgr_name", "options", "def_xmitq", "reason", "why"),
    [
        ("NONE", "", OUT, "", CMQC.MQRC_UNKNOWN_OBJECT_NAME, "no queue NONE on QM1"),
        (
            "NO.BASE",
            "",
            OUT,
            "",
            CMQC.MQRC_UNKNOWN_ALIAS_BASE_Q,
            "alias NO.BASE: its TARGET NOWHERE is not defined",
        ),
        (
            "ALIAS.OF.ALIAS",
            "",
            OUT,
            "",
            CMQC.MQRC_ALIAS_BASE_Q_TYPE_ERROR,
            "alias ALIAS.OF.ALIAS: its TARGET APP.ALIAS is not a local or remote queue",
        ),
        (
            "APP.IN",
            "TO.APP",
            OUT,
            "",
            CMQC.MQRC_UNKNOWN_REMOTE_Q_MGR,
            "ObjectQMgrName TO.APP is a remote queue, not a queue-manager alias",
        ),
        (
            "QM2.ALIAS",
            "",
            OUT,
            "",
            CMQC.MQRC_REMOTE_Q_NAME_ERROR,
            "QM2.ALIAS is a queue-manager alias (RNAME blank), not a queue to open",
        ),
        (
            "TO.NOWHERE",
            "",
            OUT,
            "",
            CMQC.MQRC_UNKNOWN_REMOTE_Q_MGR,
            "remote queue TO.NOWHERE: RQMNAME names no remote queue manager",
        ),
        (
            "TO.APP",
            "",
            CMQC.MQOO_INPUT_SHARED,
            "",
            CMQC.MQRC_OPTION_NOT_VALID_FOR_TYPE,
            "queue APP.IN at QM2 is remote: open it for output or inquire only",
        ),
        (
            "APP.IN",
            "QM2",
            CMQC.MQOO_INQUIRE,
            "",
            CMQC.MQRC_OPTION_NOT_VALID_FOR_TYPE,
            "queue APP.IN at QM2 has no local definition to inquire on",
        ),
        ("TO.BADXMIT", "", OUT, "", CMQC.MQRC_UNKNOWN_XMIT_Q, "XMITQ NOPE is not defined"),
        (
            "TO.NOTXMIT",
            "",
            OUT,
            "",
            CMQC.MQRC_XMIT_Q_USAGE_ERROR,
            "APP.LOCAL is not a USAGE(XMITQ) queue",
        ),
        ("APP.IN", "QM6", OUT, "", CMQC.MQRC_XMIT_Q_TYPE_ERROR, "QM6 is not a local queue"),
        (
            "APP.IN",
            "QM9",
            OUT,
            "",
            CMQC.MQRC_UNKNOWN_REMOTE_Q_MGR,
            "no route to queue manager QM9: no transmission queue of that name and no DEFXMITQ",
        ),
        (
            "APP.IN",
            "QM9",
            OUT,
            "NOPE.DEF",
            CMQC.MQRC_UNKNOWN_DEF_XMIT_Q,
            "DEFXMITQ NOPE.DEF is not defined",
        ),
        (
            "APP.IN",
            "QM9",
            OUT,
            "APP.ALIAS",
            CMQC.MQRC_DEF_XMIT_Q_TYPE_ERROR,
            "APP.ALIAS is not a local queue",
        ),
        (
            "APP.IN",
            "QM9",
            OUT,
            "APP.LOCAL",
            CMQC.MQRC_DEF_XMIT_Q_USAGE_ERROR,
            "APP.LOCAL is not a USAGE(XMITQ) queue",
        ),
    ],
)
@keeps("docs/reason-codes.md", "MQRC_UNKNOWN_REMOTE_Q_MGR | no route to the queue manager named")
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_XMIT_Q_TYPE_ERROR, MQRC_XMIT_Q_USAGE_ERROR | the transmission queue named is not "
        "local, or not USAGE(XMITQ)"
    ),
)
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_DEF_XMIT_Q_TYPE_ERROR, MQRC_DEF_XMIT_Q_USAGE_ERROR | DEFXMITQ is not local, or not "
        "USAGE(XMITQ)"
    ),
)
@keeps(
    "docs/objects.md",
    "Reason codes: 2085, 2082, 2001, 2045, 2087, 2184, 2196, 2197, 2091/2198, 2092/2199.",
)
def test_each_name_resolution_failure_gives_ibm_s_reason_and_says_why(
    name: str, q_mgr_name: str, options: int, def_xmitq: str, reason: int, why: str
) -> None:
    # "Name resolution" and the MQOPEN reason codes: 2085, 2082, 2001, 2087, 2184, 2045, 2196,
    # 2091/2092 (a transmission queue named) and 2197/2198/2199 (the default one).
    qm = _resolving_qm(def_xmit_q_name=def_xmitq)
    od = OD(ObjectName=name.encode(), ObjectQMgrName=q_mgr_name.encode())
    expected = f"MQCC_FAILED: {reason_name(reason)} ({reason}): {why}"
    with pytest.raises(MQMIError, match=f"^{re.escape(expected)}$"):
        qm.connect().open(od, options)


def _landed(qm: QMgr, od: OD) -> MD:
    """Put one message through ``od``; the descriptor it has on the QM2 xmitq."""
    h = qm.connect().open(od, OUT)
    h.put(b"m", MD(), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    md = MD()
    xmitq = qm.connect().open("QM2", ALL)
    xmitq.get(None, md, GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0)
    return md


def test_a_member_of_a_qsg_sends_to_another_queue_manager_by_its_name() -> None:
    # ObjectQMgrName is local when blank, this queue manager's name or its QSG's name;
    # any other name (here QM2) is a remote queue manager, reached by its xmitq.
    qm = _resolving_qm(qsg=QueueSharingGroup("QSG1"))
    od = OD(ObjectName=b"APP.IN", ObjectQMgrName=b"QM2")
    assert _landed(qm, od).Format == CMQC.MQFMT_XMIT_Q_HEADER
    assert od.ResolvedQMgrName == b"QM2"


def test_a_queue_manager_alias_to_this_queue_manager_resolves_the_name_here() -> None:
    # A queue-manager alias whose RQMNAME is blank names this queue manager: ObjectName
    # is then resolved locally, here to a remote queue definition.
    od = OD(ObjectName=b"TO.APP", ObjectQMgrName=b"SELF.ALIAS")
    _landed(_resolving_qm(), od)
    assert (od.ResolvedQName, od.ResolvedQMgrName) == (b"APP.IN", b"QM2")


def test_a_queue_manager_alias_reaches_rqmname_by_its_xmitq_with_the_alias_defprty() -> None:
    # A queue-manager alias with XMITQ blank: the transmission queue named as RQMNAME;
    # a put through it takes DEFPRTY from it, the first definition on the path.
    od = OD(ObjectName=b"APP.IN", ObjectQMgrName=b"QM2.ALIAS")
    assert _landed(_resolving_qm(), od).Priority == 6
    assert od.ResolvedQMgrName == b"QM2"


def test_an_alias_or_remote_queue_name_and_an_alias_target_are_mq_object_names() -> None:
    for define in (lambda name: AliasQueue(name, target="APP.Q"), RemoteQueue):
        with pytest.raises(ValueError, match=r"^a queue name has 1 to 48 characters: ''$"):
            define("")
    with pytest.raises(ValueError, match=r"^a TARGET queue name has 1 to 48 characters: ''$"):
        AliasQueue("APP.ALIAS", target="")


@keeps(
    "docs/coupling-facility.md",
    "`CFStructure(size_kb=...)` is the CFRM SIZE (default 1 GB, at most 900,000,000 KB)",
)
@keeps("docs/speed.md", "`DEFINE CFSTRUCT`'s checks refuse a larger SIZE with a message saying so")
def test_define_cfstruct_takes_12_character_names_cflevel_1_to_5_offload_smds_or_db2() -> None:
    # DEFINE CFSTRUCT: a name of up to 12 characters, CFLEVEL(1..5), OFFLOAD(SMDS|DB2);
    # the CFRM policy's SIZE is at least 1 KB (and at most what the simulator's CF
    # usage counter holds exactly).
    good: list[dict[str, Any]] = [{"cf_level": 1}, {"cf_level": 5}, {"offload": "DB2"}]
    for attributes in [*good, {"size_kb": 1}, {"size_kb": 900_000_000}]:
        CFStructure("S" * 12, **attributes)
    with pytest.raises(ValueError, match=r"^a CF structure name has 1 to 12 characters: 'S{13}'$"):
        CFStructure("S" * 13)
    bad: list[tuple[dict[str, Any], str]] = [
        ({"size_kb": 0}, "SIZE must be at least 1 KB"),
        ({"size_kb": 900_000_001}, "SIZE must be at most 900000000 KB"),
        ({"cf_level": 0}, "CFLEVEL must be 1..5"),
        ({"cf_level": 6}, "CFLEVEL must be 1..5"),
        ({"offload": "db2"}, "OFFLOAD must be SMDS or DB2"),
    ]
    for attributes, error in bad:
        with pytest.raises(ValueError, match=f"^CF structure APP1: {re.escape(error)}$"):
            CFStructure("APP1", **attributes)


@keeps("docs/objects.md", "MQINQ on an alias or a remote definition answers for that definition.")
def test_an_alias_of_a_remote_queue_sends_with_the_alias_defprty_and_inquires_the_alias() -> None:
    # An alias's TARGET may be a local definition of a remote queue: a put goes to its
    # transmission queue with the alias's defaults (the first definition on the path);
    # MQINQ answers for the alias itself.
    qm = _resolving_qm()
    od = OD(ObjectName=b"REMOTE.ALIAS")
    assert _landed(qm, od).Priority == 3
    assert (od.ResolvedQName, od.ResolvedQMgrName) == (b"APP.IN", b"QM2")
    h = qm.connect().open("REMOTE.ALIAS", CMQC.MQOO_INQUIRE)
    assert h.inquire(CMQC.MQIA_Q_TYPE) == CMQC.MQQT_ALIAS
    assert h.inquire(CMQC.MQCA_BASE_Q_NAME) == b"TO.APP".ljust(48)


# ---- Structures -----------------------------------------------------------------------


def test_a_structure_declares_ibm_fields_in_order_with_defaults_and_kinds() -> None:
    # A structure's fields are IBM's, in IBM's order, each with its MQ*_DEFAULT value: an
    # MQLONG, an MQCHARn (character) or an MQBYTEn (byte string) of n bytes.
    class Probe(MQOpts):
        StrucId: bytes = field(b"PRB ", c(4))
        Token: bytes = field(b"\0\0", b(2))
        Count: int = field(7, "l")

    assert Probe._fields == (
        ("StrucId", b"PRB ", ("c", 4)),
        ("Token", b"\0\0", ("b", 2)),
        ("Count", 7, "l"),
    )
    probe = Probe()
    assert (probe.StrucId, probe.Token, probe.Count) == (b"PRB ", b"\0\0", 7)
    with pytest.raises(TypeError, match=r"^Probe\.StrucId is a character field: give bytes"):
        probe.StrucId = "PRB "  # type: ignore[assignment]
    with pytest.raises(TypeError, match=r"^Probe\.Token is a byte field: give bytes, not str$"):
        probe.Token = "xy"  # type: ignore[assignment]
    with pytest.raises(ValueError, match=r"^Probe\.Token holds at most 2 bytes, got 3$"):
        probe.Token = b"xyz"


def test_a_structure_s_fields_are_items_too_and_an_unknown_item_is_an_attribute_error() -> None:
    # pymqi: md["MsgId"] is md.MsgId; a name that is no field of the structure is refused.
    md = MD(Priority=4)
    assert md["Priority"] == 4 and md["MsgId"] == CMQC.MQMI_NONE
    with pytest.raises(AttributeError, match=r"^MD has no field 'Priorty'$"):
        md["Priorty"]


def test_a_structure_s_repr_names_the_fields_that_differ_from_their_defaults() -> None:
    assert repr(MD()) == "MD()"
    assert repr(MD(Priority=5, Persistence=1)) == "MD(Priority=5, Persistence=1)"
    assert repr(GMO(Options=CMQC.MQGMO_WAIT)) == "GMO(Options=1)"


# ---- Triggering -----------------------------------------------------------------------
# Conditions as qsg/core/trigger.py numbers them from IBM's "Conditions for a trigger
# event"; TRIGINT from "Controlling trigger events" (trigger type FIRST).


def _trigger_qm(
    *, process: bool = True, events: list[Event] | None = None, name: str = "QM1", **queue: object
) -> QMgr:
    """``name`` with APP.INITQ (DEFPSIST YES), and APP.Q triggered as asked (FIRST unless
    told) by process APP.PROC, defined only if ``process``."""
    qm = QMgr(name, on_event=None if events is None else events.append)
    if process:
        qm.define_process(ProcessDefinition("APP.PROC"))
    qm.define_queue("APP.INITQ", def_persistence=CMQC.MQPER_PERSISTENT)
    attributes: dict[str, Any] = {
        "trigger_control": CMQC.MQTC_ON,
        "process_name": "APP.PROC",
        "initiation_q_name": "APP.INITQ",
        **queue,
    }
    qm.define_queue("APP.Q", **attributes)
    return qm


def _serve(qm: QMgr) -> Handle:
    """A trigger monitor: APP.INITQ open for input."""
    return qm.connect().open("APP.INITQ", CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_INQUIRE)


def _put_app(qm: QMgr, now: float, count: int = 1) -> None:
    h = qm.connect().open("APP.Q", OUT)
    for _ in range(count):
        h.put(b"m", MD(), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=now)


def _take(h: Handle, now: float = 0.0) -> list[MD]:
    """Every message on ``h``'s queue, got; their descriptors."""
    got = []
    while h.inquire(CMQC.MQIA_CURRENT_Q_DEPTH):
        md = MD()
        h.get(None, md, GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=now)
        got.append(md)
    return got


def test_a_trigger_message_is_nonpersistent_whatever_the_initiation_queue_s_defpsist() -> None:
    # "Format of trigger messages": MQMD Persistence MQPER_NOT_PERSISTENT.
    qm = _trigger_qm()
    initq = _serve(qm)
    _put_app(qm, 0.0)
    [md] = _take(initq)
    assert md.Persistence == CMQC.MQPER_NOT_PERSISTENT and md.Format == CMQC.MQFMT_TRIGGER


def test_first_after_trigint_fires_on_a_non_empty_queue_not_a_millisecond_before() -> None:
    # TRIGINT (milliseconds): a message arriving on a non-empty queue makes a new FIRST
    # trigger message once TRIGINT has passed since the last one.
    qm = _trigger_qm()
    qm.trigger_interval = 1000
    initq = _serve(qm)
    _put_app(qm, 10.0)
    assert len(_take(initq)) == 1
    _put_app(qm, 10.9995)
    assert _take(initq) == []
    _put_app(qm, 11.0)
    assert len(_take(initq)) == 1


def test_first_fires_again_on_an_emptied_queue_within_trigint() -> None:
    # Condition 3 for FIRST: the queue was empty; TRIGINT matters only when it was not.
    qm = _trigger_qm()
    initq = _serve(qm)
    _put_app(qm, 0.0)
    app = qm.connect().open("APP.Q", ALL)
    _take(app)
    app.close()  # no server left (condition 4)
    assert len(_take(initq)) == 1
    _put_app(qm, 1.0)
    assert len(_take(initq)) == 1


def test_first_on_a_queue_never_triggered_fires_once_its_process_is_defined() -> None:
    # Condition 5 failed for the first message (no process); the next arrival, on a queue
    # never triggered, fires: no trigger message was ever written, so TRIGINT has passed.
    qm = _trigger_qm(process=False)
    initq = _serve(qm)
    _put_app(qm, 0.0)
    assert _take(initq) == []
    qm.define_process(ProcessDefinition("APP.PROC"))
    _put_app(qm, 1.0)
    assert len(_take(initq)) == 1


def test_depth_fires_when_the_count_reaches_trigdpth_not_when_it_passes_it() -> None:
    # TRIGTYPE(DEPTH): the event is the count reaching TRIGDPTH.
    qm = _trigger_qm(process=False, trigger_type=CMQC.MQTT_DEPTH, trigger_depth=2)
    initq = _serve(qm)
    _put_app(qm, 0.0, count=2)  # reaches 2, but condition 5 fails
    qm.define_process(ProcessDefinition("APP.PROC"))
    _put_app(qm, 1.0)  # 2 -> 3: passes TRIGDPTH, does not reach it
    assert _take(initq) == []


@pytest.mark.parametrize(
    ("trigger_type", "depth", "waiting", "fires"),
    [
        (CMQC.MQTT_DEPTH, 3, 1, False),
        (CMQC.MQTT_DEPTH, 3, 3, True),
        (CMQC.MQTT_FIRST, 5, 1, True),
    ],
)
def test_a_trigger_monitor_opening_the_initq_finds_a_standing_condition_by_trigtype(
    trigger_type: int, depth: int, waiting: int, fires: bool
) -> None:
    # A trigger monitor opening the initiation queue: a trigger message for each queue
    # whose condition stands: TRIGDPTH messages for DEPTH, one for FIRST.
    qm = _trigger_qm(trigger_type=trigger_type, trigger_depth=depth)
    _put_app(qm, 0.0, count=waiting)
    assert len(_take(_serve(qm))) == int(fires)


def _shared_trigger_qm(**queue: object) -> QMgr:
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1"))
    qm.define_structure(CFStructure("APP1"))
    qm.define_process(ProcessDefinition("APP.PROC"))
    qm.define_queue("APP.INITQ")
    attributes: dict[str, Any] = {
        "qsg_disp": CMQC.MQQSGD_SHARED,
        "cf_struct": "APP1",
        "trigger_control": CMQC.MQTC_ON,
        "process_name": "APP.PROC",
        "initiation_q_name": "APP.INITQ",
        **queue,
    }
    qm.define_queue("APP.Q", **attributes)
    return qm


def _commit_puts(qm: QMgr, count: int) -> None:
    conn = qm.connect()
    h = conn.open("APP.Q", OUT)
    for _ in range(count):
        h.put(b"m", MD(), PMO(Options=CMQC.MQPMO_SYNCPOINT), now=0.0)
    conn.commit()


def test_a_shared_queue_s_standing_condition_counts_committed_messages_only() -> None:
    # Condition 3 on a shared queue counts committed messages only.
    qm = _shared_trigger_qm()
    conn = qm.connect()
    conn.open("APP.Q", OUT).put(b"m", MD(), PMO(Options=CMQC.MQPMO_SYNCPOINT), now=0.0)
    assert _take(_serve(qm)) == []


@pytest.mark.parametrize(
    ("queue", "puts", "triggers"),
    [
        ({"trigger_type": CMQC.MQTT_EVERY}, 3, 3),
        ({"trigger_type": CMQC.MQTT_DEPTH, "trigger_depth": 2}, 2, 1),
    ],
)
def test_a_commit_of_several_puts_to_a_shared_queue_triggers_as_their_arrivals_do(
    queue: dict[str, object], puts: int, triggers: int
) -> None:
    # EVERY: a trigger message per message; DEPTH: one when the count reaches TRIGDPTH.
    qm = _shared_trigger_qm(**queue)
    initq = _serve(qm)
    _commit_puts(qm, puts)
    assert len(_take(initq)) == triggers


def test_a_shared_queue_emptied_and_refilled_in_one_unit_of_work_triggers_first_again() -> None:
    # FIRST: the queue was empty before the unit of work's puts (committed count 0 -> 2),
    # though a trigger message was written for it a moment before, within TRIGINT.
    qm = _shared_trigger_qm()
    initq = _serve(qm)
    _commit_puts(qm, 1)
    app = qm.connect().open("APP.Q", ALL)
    _take(app)
    app.close()  # no server left (condition 4)
    assert len(_take(initq)) == 1
    _commit_puts(qm, 2)
    assert len(_take(initq)) == 1


def test_fire_writes_a_trigger_message_only_when_conditions_4_to_10_hold() -> None:
    qm = _trigger_qm()
    qdef, repo = qm.queue("APP.Q"), qm.local
    assert not trigger.fire(qm, repo, qdef, 0.0)  # condition 8: no trigger monitor
    initq = _serve(qm)
    server = qm.connect().open("APP.Q", CMQC.MQOO_INPUT_SHARED)
    assert not trigger.fire(qm, repo, qdef, 0.0)  # condition 4: a server is at work
    server.close()
    _take(initq)
    off = dataclasses.replace(qdef, trigger_control=CMQC.MQTC_OFF)
    assert not trigger.fire(qm, repo, off, 0.0)  # condition 9
    assert not trigger.standing(qm, repo, off, 0.0)
    assert not trigger.fire(qm, repo, dataclasses.replace(qdef, process_name="NONE"), 0.0)
    assert trigger.fire(qm, repo, qdef, 0.0)
    assert len(_take(initq)) == 1


def test_an_initq_that_is_a_model_queue_gets_no_trigger_message() -> None:
    # Condition 6: INITQ names a local queue.
    qm = _trigger_qm(initiation_q_name="APP.MODEL")
    qm.define(QueueDefinition("APP.MODEL", **MODEL))  # type: ignore[arg-type]
    _put_app(qm, 0.0)
    assert qm.depth("APP.INITQ") == 0


def test_a_trigger_message_names_its_queue_manager_in_putapplname_and_its_event() -> None:
    # "Format of trigger messages": PutApplName is the queue manager's name, cut to
    # MQ_PUT_APPL_NAME_LENGTH (28); the event carries the trigger message's MsgId.
    events: list[Event] = []
    name = "QM.WITH.A.NAME.LONGER.THAN.28.CHARS"
    qm = _trigger_qm(events=events, name=name)
    initq = _serve(qm)
    _put_app(qm, 0.0)
    [md] = _take(initq)
    assert md.PutApplName == name.encode()[:28]
    [event] = [e for e in events if isinstance(e, TriggerMessagePut)]
    assert event.msg_id == md.MsgId


def test_a_trigger_message_that_cannot_be_put_is_dead_lettered_for_this_queue_manager() -> None:
    qm = _trigger_qm()
    _serve(qm)
    qm.alter_queue("APP.INITQ", max_depth=0)
    _put_app(qm, 0.0)
    body = (
        qm.connect()
        .open("SYSTEM.DEAD.LETTER.QUEUE", ALL)
        .get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0)
    )
    header = DLH.unpack(body)
    assert (header.DestQName.rstrip(), header.DestQMgrName.rstrip()) == (b"APP.INITQ", b"QM1")


# ---- IBM's binary layouts -------------------------------------------------------------

BIG_ENDIAN = CMQC.MQENC_INTEGER_NORMAL  # "MQENC_INTEGER_NORMAL": most significant byte first


def test_an_mqdlh_reads_back_every_field_it_was_written_with_blank_padded() -> None:
    # MQDLH: character fields are blank-padded to their lengths (48, 48, 8, 28, 8, 8).
    dlh = DLH(
        CMQC.MQRC_Q_FULL,
        b"APP.Q",
        b"QM1",
        CMQC.MQENC_NATIVE,
        1208,
        b"APPFMT",
        PutApplType=CMQC.MQAT_UNIX,
        PutApplName=b"app",
        PutDate=b"2026",
        PutTime=b"1200",
        StrucId=b"DLH ",
        Version=2,
    )
    back = DLH.unpack(dlh.pack(BIG_ENDIAN), BIG_ENDIAN)
    assert back == DLH(
        CMQC.MQRC_Q_FULL,
        b"APP.Q".ljust(48),
        b"QM1".ljust(48),
        CMQC.MQENC_NATIVE,
        1208,
        b"APPFMT  ",
        CMQC.MQAT_UNIX,
        b"app".ljust(28),
        b"2026    ",
        b"1200    ",
        b"DLH ",
        2,
    )


def test_an_mqtm_reads_back_every_field_it_was_written_with_blank_padded() -> None:
    tm = TM(b"APP.Q", b"APP.PROC", b"data", CMQC.MQAT_UNIX, b"/bin/app", b"env", b"user", Version=2)
    back = TM.unpack(tm.pack(BIG_ENDIAN), BIG_ENDIAN)
    assert back == TM(
        b"APP.Q".ljust(48),
        b"APP.PROC".ljust(48),
        b"data".ljust(64),
        CMQC.MQAT_UNIX,
        b"/bin/app".ljust(256),
        b"env".ljust(128),
        b"user".ljust(128),
        b"TM  ",
        2,
    )


def test_an_mqxqh_holds_an_mqmd1_in_the_header_s_encoding_whatever_the_mqmd_s_own() -> None:
    # MQXQH.MsgDesc is an MQMD1 (324 bytes), so the header is 428 bytes; its integers are
    # in the encoding the header is written in.
    inner = MD(Version=2, Expiry=600, ReplyToQ=b"R", Encoding=CMQC.MQENC_NATIVE)
    data = XQH(b"APP.IN", b"QM2", inner, Version=2).pack(BIG_ENDIAN)
    assert len(data) == CMQC.MQXQH_LENGTH_1 == 428
    assert read_inner_expiry(data, BIG_ENDIAN) == 600
    back = XQH.unpack(data, BIG_ENDIAN)
    assert (back.StrucId, back.Version) == (CMQC.MQXQH_STRUC_ID, 2)  # as written
    assert back.RemoteQName == b"APP.IN".ljust(48) and back.MsgDesc.Expiry == 600
    assert back.MsgDesc.ReplyToQ == b"R".ljust(48) and back.MsgDesc.Version == 1


def test_an_mqmd_is_packed_at_the_version_asked_for_with_blank_padded_characters() -> None:
    md = MD(Version=2, ReplyToQ=b"R")
    assert len(pack_md(md)) == CMQC.MQMD_LENGTH_2
    assert len(pack_md(md, version=1)) == CMQC.MQMD_LENGTH_1
    assert unpack_md(pack_md(md)).ReplyToQ == b"R".ljust(48)
    with pytest.raises(ValueError, match=r"^MQMD version must be 1 or 2, not 3$"):
        pack_md(md, version=3)
    with pytest.raises(MQMIError, match=r"\(2026\): MQMD cannot be packed: "):
        pack_md(MD(Expiry=BIG))


@pytest.mark.parametrize(
    ("parse", "needed", "what"),
    [
        (unpack_md, CMQC.MQMD_LENGTH_1, "an MQMD needs at least"),
        (XQH.unpack, CMQC.MQXQH_LENGTH_1, "an MQXQH needs"),
        (DLH.unpack, CMQC.MQDLH_LENGTH_1, "an MQDLH needs"),
        (TM.unpack, CMQC.MQTM_LENGTH_1, "an MQTM needs"),
    ],
)
def test_data_short_of_a_layout_says_how_many_bytes_it_needs_and_got(
    parse: Any, needed: int, what: str
) -> None:
    with pytest.raises(MQMIError, match=rf": {what} {needed} bytes, got {needed - 1}$"):
        parse(b"\0" * (needed - 1))


def test_an_mqmd_version_is_a_signed_mqlong() -> None:
    data = bytearray(pack_md(MD(), encoding=BIG_ENDIAN))
    data[4:8] = b"\xff\xff\xff\xff"
    with pytest.raises(MQMIError, match=r"MQMD\.Version=-1: it is 1 or 2$"):
        unpack_md(bytes(data), BIG_ENDIAN)


def test_the_inner_expiry_is_read_and_written_only_when_the_data_holds_it() -> None:
    # The inner Expiry is the 4 bytes at offset 120 of an MQXQH (104 + MQMD's 16).
    data = XQH(b"Q", b"QM2", MD(Expiry=600)).pack()
    full, short = data[:124], data[:123]
    assert read_inner_expiry(full, CMQC.MQENC_NATIVE) == 600
    assert read_inner_expiry(short, CMQC.MQENC_NATIVE) is None
    assert read_inner_expiry(data[:119], CMQC.MQENC_NATIVE) is None
    assert write_inner_expiry(short, CMQC.MQENC_NATIVE, 5) == short
    assert write_inner_expiry(data[:119], CMQC.MQENC_NATIVE, 5) == data[:119]
    unlimited = write_inner_expiry(full, CMQC.MQENC_NATIVE, CMQC.MQEI_UNLIMITED)
    assert read_inner_expiry(unlimited, CMQC.MQENC_NATIVE) == CMQC.MQEI_UNLIMITED


def test_an_object_name_in_a_structure_ends_before_its_trailing_blanks_or_nuls() -> None:
    # MQCHAR48 names are blank-padded (a C program's may end in NULs): the padding is not
    # part of the name; leading characters and any X are.
    assert name_of(b"APP.BOX \x00 \x00") == b"APP.BOX"
    assert name_of(b" APP") == b" APP"
    qm = QMgr("QM1")
    qm.define_queue("APP.BOX")
    od = OD(ObjectName=b"APP.BOX\x00\x00\x00")
    assert qm.connect().open(od, OUT).name == "APP.BOX"


# ---- Connections: dynamic queue names, MQPUT1, a queue manager restarted ------------


def _model_qm() -> QMgr:
    qm = QMgr("QM1")
    qm.define(QueueDefinition("APP.MODEL", **MODEL))  # type: ignore[arg-type]
    return qm


@pytest.mark.parametrize(
    ("pattern", "prefix", "suffixed"),
    [
        (b"APP.DYNX", "APP.DYNX", False),
        (b"APP.DYNX   ", "APP.DYNX", False),
        (b"APP.*\x00x*\x00y", "APP.", True),
        (b"*", "", True),
    ],
)
def test_dynamicqname_ends_at_a_nul_or_its_trailing_blanks_and_its_last_star_takes_the_suffix(
    pattern: bytes, prefix: str, suffixed: bool
) -> None:
    # OD.DynamicQName: "If the last nonblank character in the name is an asterisk, the
    # queue manager replaces the asterisk with a string of characters"; a C string ends
    # at its NUL. Without an asterisk, the name is the queue's name as it is.
    qm = _model_qm()
    od = OD(ObjectName=b"APP.MODEL", DynamicQName=pattern)
    name = qm.connect().open(od, OUT).name
    assert name == prefix + ("0000000000000001" if suffixed else "")


@pytest.mark.parametrize(
    ("pattern", "why"),
    [
        (b"   ", "DynamicQName is blank"),
        (b"APP.*.*", "DynamicQName 'APP.*.*' has characters after its asterisk"),
        (b"*A", "DynamicQName '*A' has characters after its asterisk"),
        (b"APP.*\t", "DynamicQName 'APP.*\\t' has characters after its asterisk"),
        (
            b"APP.\xe9*",
            "dynamic queue name 'APP.\ufffd0000000000000001' has characters MQ does"
            " not allow: ['\ufffd']",
        ),
    ],
)
def test_a_dynamicqname_that_makes_no_queue_name_is_dynamic_q_name_error_saying_why(
    pattern: bytes, why: str
) -> None:
    qm = _model_qm()
    od = OD(ObjectName=b"APP.MODEL", DynamicQName=pattern)
    with pytest.raises(MQMIError, match=r"MQRC_DYNAMIC_Q_NAME_ERROR \(2011\): " + re.escape(why)):
        qm.connect().open(od, OUT)


def test_a_model_queue_opened_by_name_alone_makes_an_amq_dynamic_queue() -> None:
    # MQOD's default DynamicQName is "AMQ.*".
    name = _model_qm().connect().open("APP.MODEL", OUT).name
    assert name.startswith("AMQ.") and len(name) == 4 + 16


def test_mqput1_with_logical_order_is_options_error_saying_it_needs_an_open_handle() -> None:
    # MQPMO_LOGICAL_ORDER keeps state in the handle; MQPUT1 has none.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    pmo = PMO(Options=CMQC.MQPMO_LOGICAL_ORDER | CMQC.MQPMO_NO_SYNCPOINT)
    expected = "(2046): MQPMO_LOGICAL_ORDER needs an open handle (not MQPUT1)"
    with pytest.raises(MQMIError, match=re.escape(expected) + "$"):
        qm.connect().put1("Q", b"m", MD(Version=2), pmo, now=0.0)


def test_a_restarted_queue_manager_forgets_the_connections_and_handles_of_before() -> None:
    # The connections of before are gone: their handles are no longer valid, and the
    # queues they had open are open no longer.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    conn = qm.connect()
    h = conn.open("Q", ALL)
    qm.restart()
    with pytest.raises(MQMIError, match=r"MQRC_HOBJ_ERROR \(2019\)"):
        h.put(b"m", MD(), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    with pytest.raises(
        MQMIError, match=r"MQRC_HCONN_ERROR \(2018\): the connection is disconnected$"
    ):
        conn.open("Q", OUT)
    assert conn not in qm.connections.values()
    qm.delete_queue("Q")  # nobody has it open


@keeps(
    "docs/reason-codes.md",
    "MQRC_NOT_AUTHORIZED | the user may not open (or delete, or use an alternate user id)",
)
@keeps("docs/objects.md", "for the alternate user with `MQOO_ALTERNATE_USER_AUTHORITY`")
def test_alternate_user_authority_needs_an_alternate_user_id_and_the_altusr_authority() -> None:
    # MQOO_ALTERNATE_USER_AUTHORITY: the check is made for OD.AlternateUserId, which the
    # connection's own user must be allowed to use (setmqaut +altusr).
    auth = Authority()
    auth.grant("bob", "*", "put")
    qm = QMgr("QM1", authority=auth)
    qm.define_queue("Q")
    options = OUT | CMQC.MQOO_ALTERNATE_USER_AUTHORITY
    expected = "(2046): MQOO_ALTERNATE_USER_AUTHORITY needs OD.AlternateUserId"
    with pytest.raises(MQMIError, match=re.escape(expected) + "$"):
        qm.connect(user="bob").open("Q", options)
    od = OD(ObjectName=b"Q", AlternateUserId=b"alice")
    with pytest.raises(MQMIError, match=r"\(2035\): user bob may not use alternate user ids$"):
        qm.connect(user="bob").open(od, options)


@pytest.mark.parametrize(
    ("first", "second", "why"),
    [
        (CMQC.MQOO_INPUT_EXCLUSIVE, CMQC.MQOO_INPUT_SHARED, "exclusively"),
        (CMQC.MQOO_INPUT_SHARED, CMQC.MQOO_INPUT_EXCLUSIVE, "by another handle"),
    ],
)
def test_an_exclusive_input_open_excludes_every_other_input_open_saying_which(
    first: int, second: int, why: str
) -> None:
    # MQOO_INPUT_EXCLUSIVE: "the call fails with reason code MQRC_OBJECT_IN_USE if the
    # queue is currently open by this or another application for input of any type".
    qm = QMgr("QM1")
    qm.define_queue("Q")
    qm.connect().open("Q", first)
    with pytest.raises(MQMIError, match=rf"\(2042\): Q is open for input {why}$"):
        qm.connect().open("Q", second)


def test_mqdisc_ends_the_connection_for_the_queue_manager() -> None:
    qm = QMgr("QM1")
    conn = qm.connect()
    conn.disconnect()
    assert conn not in qm.connections.values()


@pytest.mark.parametrize(
    ("options", "why"),
    [
        (CMQC.MQOO_FAIL_IF_QUIESCING, "open needs an input, browse, output, inquire or set option"),
        (CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_INPUT_EXCLUSIVE, "more than one MQOO_INPUT_* option"),
        ("8", "open options are MQOO_* flags (an int), not '8'"),
    ],
)
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_OPTIONS_ERROR | options not valid or not valid together (MQOPEN, MQPUT, MQGET, "
        "MQCLOSE); LOGICAL_ORDER on MQPUT1"
    ),
)
def test_mqopen_options_that_open_for_nothing_or_for_input_twice_are_options_error(
    options: Any, why: str
) -> None:
    # MQOPEN: at least one of the access options; at most one of MQOO_INPUT_AS_Q_DEF,
    # MQOO_INPUT_SHARED and MQOO_INPUT_EXCLUSIVE (MQRC_OPTIONS_ERROR, 2046).
    qm = QMgr("QM1")
    qm.define_queue("Q")
    with pytest.raises(MQMIError, match=rf"\(2046\): {re.escape(why)}$"):
        qm.connect().open("Q", options)


@pytest.mark.parametrize(
    ("target", "reason"),
    [
        (OD(ObjectName=b"\xff\xfe"), CMQC.MQRC_UNKNOWN_OBJECT_NAME),
        (b"\xff\xfe", CMQC.MQRC_UNKNOWN_OBJECT_NAME),
        (OD(ObjectName=b"Q", ObjectQMgrName=b"\xff\xfe"), CMQC.MQRC_UNKNOWN_OBJECT_Q_MGR),
    ],
)
def test_an_object_or_queue_manager_name_that_is_no_text_names_nothing(
    target: Any, reason: int
) -> None:
    # 2085 MQRC_UNKNOWN_OBJECT_NAME, 2086 MQRC_UNKNOWN_OBJECT_Q_MGR.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    expected = f"({reason}): b'\\xff\\xfe' is not a name MQ knows"
    with pytest.raises(MQMIError, match=re.escape(expected) + "$"):
        qm.connect().open(target, OUT)


def test_mqopen_of_an_alias_checks_authority_on_the_alias_not_its_base() -> None:
    # "Name resolution" and the OAM: the authority checked at MQOPEN is the one for the
    # object named (an alias), not for the queue it resolves to.
    auth = Authority()
    auth.grant("bob", "APP.ALIAS", "put")
    qm = QMgr("QM1", authority=auth)
    qm.define_queue("APP.LOCAL")
    qm.define(AliasQueue("APP.ALIAS", target="APP.LOCAL"))
    qm.connect(user="bob").open("APP.ALIAS", OUT)
    with pytest.raises(MQMIError, match=r"\(2035\): user bob may not get APP\.ALIAS$"):
        qm.connect(user="bob").open("APP.ALIAS", CMQC.MQOO_INPUT_SHARED)


def test_opening_a_logically_deleted_dynamic_queue_names_it_in_the_error() -> None:
    qm = QMgr("QM1", platform=CMQC.MQPL_ZOS)
    name = b"APP.REPLY.FIXED"
    model = OD(ObjectName=b"SYSTEM.DEFAULT.MODEL.QUEUE", DynamicQName=name)
    creator = qm.connect().open(model, ALL)
    qm.connect().open(name.decode(), OUT)
    creator.close()  # logically deleted: another handle has it open
    expected = "(2052): dynamic queue APP.REPLY.FIXED is logically deleted"
    with pytest.raises(MQMIError, match=re.escape(expected) + "$"):
        qm.connect().open(name.decode(), OUT)


def test_the_context_of_a_put_cuts_the_user_to_12_and_the_application_to_28_characters() -> None:
    # MQMD UserIdentifier is MQCHAR12, PutApplName MQCHAR28.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    h = qm.connect(user="a.very.long.user", appl_name="an application name of 34 chars").open(
        "Q", ALL
    )
    h.put(b"m", MD(), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    md = MD()
    h.get(None, md, GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0)
    assert md.UserIdentifier == b"a.very.long."
    assert md.PutApplName == b"an application name of 34 chars"[:28]


def test_a_second_trigger_monitor_on_a_served_initq_writes_no_trigger_message_again() -> None:
    # The standing conditions are looked at when the initiation queue gets its first
    # server; another one opening it finds the trigger message already written.
    qm = _trigger_qm()
    _put_app(qm, 0.0)
    initq = _serve(qm)
    assert qm.depth("APP.INITQ") == 1
    _serve(qm)
    qm.connect().open("APP.INITQ", OUT)
    assert len(_take(initq)) == 1


def test_a_model_queue_s_trigger_attributes_are_a_template_and_never_trigger() -> None:
    qm = _trigger_qm()
    model = {**MODEL, "trigger_control": CMQC.MQTC_ON, "initiation_q_name": "APP.INITQ"}
    qm.define(QueueDefinition("APP.MODEL", process_name="APP.PROC", **model))  # type: ignore[arg-type]
    _put_app(qm, 0.0)
    assert len(_take(_serve(qm))) == 1  # for APP.Q only


def test_a_standing_condition_not_met_writes_no_trigger_message() -> None:
    qm = _trigger_qm(trigger_type=CMQC.MQTT_DEPTH, trigger_depth=2)
    _serve(qm)
    assert not trigger.standing(qm, qm.local, qm.queue("APP.Q"), 0.0)


# ---- The in-process store: peer recovery and a restart --------------------------------


class _Owner:
    """A handle as the store sees one: its lock token names its queue manager."""

    def __init__(self, token: str) -> None:
        self.store_token = token


def _msg(persistent: bool = False) -> Message:
    desc = MD(Persistence=int(persistent), MsgId=b"m" * 24).get()
    return Message(desc, b"x", 0.0, None, 0)


def test_peer_recovery_backs_out_the_failed_members_units_and_frees_its_locks_once() -> None:
    # "Peer recovery": a surviving member backs out the failed queue manager's units of
    # work on shared queues and releases what it held; only one member does it.
    store = MemoryStore()
    store.create_queue("Q", Ordering.FIFO)
    store.put("Q", _msg(), None, 100)
    store.put("Q", _msg(), None, 100)
    store.put("Q", _msg(), ("QM1", 1), 100)
    store.put("Q", _msg(), ("QM1", 2), 100)
    store.put("Q", _msg(), ("QM2", 1), 100)
    taken = store.get("Q", SELECT_ANY, 0.0, ("QM1", 1), Syncpoint.YES, None, False)
    assert taken.message is not None
    store.lock("Q", 2, _Owner("QM1/7"))
    assert store.depth("Q") == 4 and store.uncommitted("Q") == 4
    recovery = store.recover("QM1", 3, by="QM3")
    assert recovery == Recovery("QM1", "QM3", True, units=2, entries=3, locks=1)
    assert store.depth("Q") == 3 and store.uncommitted("Q") == 1  # QM2's put is left
    assert store.recover("QM1", 3, by="QM2") == Recovery("QM1", "QM3", False)
    assert store.recover("QM1", 4, by="QM2").ran  # the next life's failure is new
    taken = store.get("Q", SELECT_ANY, 0.0, None, Syncpoint.NO, None, False)
    assert taken.message is not None and taken.message.backout_count == 1


@keeps(
    "docs/scenarios.md",
    "its local in-flight work and nonpersistent local messages wait for its restart "
    "(which loses the nonpersistent ones)",
)
def test_a_restart_loses_the_nonpersistent_messages_of_every_queue_and_counts_them() -> None:
    # Nonpersistent messages do not survive a queue-manager restart; persistent ones do.
    store = MemoryStore()
    for queue in ("A", "B"):
        store.create_queue(queue, Ordering.PRIORITY)
        for persistent in (True, False, False):
            store.put(queue, _msg(persistent), None, 100)
    assert store.lose_nonpersistent() == 4
    assert store.depth("A") == store.depth("B") == 1


def _store(*queues: str, ordering: Ordering = Ordering.FIFO) -> MemoryStore:
    store = MemoryStore()
    for queue in queues:
        store.create_queue(queue, ordering)
    return store


def _got(store: MemoryStore, queue: str, handle: object = None) -> Message | None:
    select = Select(handle=handle) if handle is not None else SELECT_ANY
    return store.get(queue, select, 0.0, None, Syncpoint.NO, None, False).message


def test_the_known_bug_drop_on_commit_loses_exactly_the_first_put_of_the_unit() -> None:
    # The chaos checkers' proof (qsg/core/bugs.py): MQCMIT loses the first message put.
    store = _store("Q")
    msgs = [_msg() for _ in range(3)]
    for msg in msgs:
        store.put("Q", msg, "uow", 100)
    with bugs.injected(bugs.DROP_ON_COMMIT):
        store.commit("uow")
    assert store.depth("Q") == 2
    assert [_got(store, "Q"), _got(store, "Q")] == msgs[1:]


@pytest.mark.parametrize(("committed", "depth"), [(True, 2), (False, 0)])
def test_the_end_of_a_unit_of_work_passes_over_a_queue_deleted_meanwhile(
    committed: bool, depth: int
) -> None:
    store = _store("GONE", "Q")
    store.commit("none")  # a unit of work with nothing in it
    store.backout("none")
    store.put("Q", _msg(), "uow", 100)
    store.put("GONE", _msg(), "uow", 100)
    store.put("Q", _msg(), "uow", 100)
    store.delete_queue("GONE")
    (store.commit if committed else store.backout)("uow")
    assert store.depth("Q") == depth and store.uncommitted("Q") == 0


def test_uncommitted_counts_puts_and_gets_of_units_of_work() -> None:
    store = _store("Q")
    store.put("Q", _msg(), None, 100)
    store.put("Q", _msg(), "uow", 100)
    store.get("Q", SELECT_ANY, 0.0, "uow", Syncpoint.YES, None, False)
    assert store.uncommitted("Q") == 2


@pytest.mark.parametrize("committed_only", [True, False])
def test_depth_at_least_counts_messages_of_that_priority_and_above(committed_only: bool) -> None:
    store = _store("Q", ordering=Ordering.PRIORITY)
    for priority in (3, 4, 5):
        store.put("Q", Message(_msg().desc, b"", 0.0, None, priority), None, 100)
        store.put("Q", Message(_msg().desc, b"", 0.0, None, priority), "uow", 100)
    assert store.depth_at_least("Q", 4, committed_only) == (2 if committed_only else 4)


def test_a_cf_structure_counts_its_own_queues_messages_by_entry_and_256_byte_element() -> None:
    store = _store()
    store.define_structure("S1", size_kb=10, cf_level=5)
    store.create_queue("A", Ordering.FIFO, "S1")
    store.create_queue("B", Ordering.FIFO, "S2")
    store.create_queue("C", Ordering.FIFO, "S1")
    store.delete_queue("C")
    store.create_queue("C", Ordering.FIFO)  # no structure now
    for queue, size in (("A", 56), ("A", 57), ("B", 1), ("C", 1)):
        store.put(queue, Message(_msg().desc, b"x" * size, 0.0, None, 0), None, 100)
    # 56 bytes of data and 200 of control storage (qsg.core.geometry) = 256 bytes: 1
    # element; 57 + 200: 2.
    assert store.structure_usage("S1") == {
        "entries": 2,
        "elements": 3,
        "max_entries": 10,
        "max_elements": 40,
    }
    assert store.structure_usage("S2")["max_entries"] == 0  # defined nowhere


def test_a_handle_holds_one_lock_at_a_time() -> None:
    # MQGMO_LOCK: a new lock releases the one the handle held.
    store = _store("Q")
    msgs = [_msg() for _ in range(3)]
    for msg in msgs:
        store.put("Q", msg, None, 100)
    holder, other = object(), object()
    store.lock("Q", msgs[0].seq, holder)
    store.lock("Q", msgs[1].seq, holder)
    assert _got(store, "Q", other) is msgs[0]


def test_a_handle_gets_whole_a_logical_message_whose_first_segment_it_locked() -> None:
    # MQGMO_COMPLETE_MSG with MQGMO_LOCK: a message the handle locked is visible to it
    # (a lock hides a message from other handles only), so its own lock on the first
    # segment does not hide that segment when the logical message is made whole.
    store = _store("Q")
    segments = []
    for flags, offset, body in ((CMQC.MQMF_SEGMENT, 0, b"ab"), (CMQC.MQMF_LAST_SEGMENT, 2, b"cd")):
        desc = MD(Version=2, GroupId=b"G" * 24, MsgFlags=flags, Offset=offset).get()
        segments.append(Message(desc, body, 0.0, None, 0))
        store.put("Q", segments[-1], None, 100)
    holder = object()
    store.lock("Q", segments[0].seq, holder)
    select = Select(handle=holder, complete=True)
    taken = store.get("Q", select, 0.0, None, Syncpoint.NO, None, False)
    assert taken.message is not None and taken.message.body == b"abcd"
    assert store.depth("Q") == 0


def test_an_expiry_scan_passes_over_messages_already_gone_and_waits_for_uncommitted_ones() -> None:
    store = _store("Q")
    pending, gone, expired = (Message(_msg().desc, b"", 0.0, 1.0, 0) for _ in range(3))
    store.put("Q", pending, "uow", 100)
    store.put("Q", gone, None, 100)
    store.put("Q", expired, None, 100)
    assert _got(store, "Q") is gone  # got before it expired: its entry stays behind
    assert store.worth_scanning("Q", 2.0)
    assert [e.message for e in store.scan("Q", 2.0)] == [None]
    assert store.depth("Q") == 1  # the uncommitted put is left for later
    store.commit("uow")
    assert store.worth_scanning("Q", 2.0)
    assert len(store.scan("Q", 2.0)) == 1 and store.depth("Q") == 0
    assert not store.worth_scanning("Q", 3.0)


def test_the_expiry_index_is_rebuilt_once_got_messages_outnumber_the_live_ones() -> None:
    # A deep queue's got messages leave entries behind; the index is compacted, and the
    # messages still on the queue expire as before.
    store = _store("Q")
    for _ in range(70):
        store.put("Q", Message(_msg().desc, b"", 0.0, 5.0, 0), None, 100)
    for _ in range(70):
        _got(store, "Q")
    store.put("Q", Message(_msg().desc, b"", 0.0, 1.0, 0), None, 100)  # compacts
    store.put("Q", Message(_msg().desc, b"", 0.0, None, 0), None, 100)
    assert len(store.scan("Q", 2.0)) == 1 and store.depth("Q") == 1


def test_a_store_refuses_a_second_queue_of_a_name_and_a_put_beyond_maxdepth() -> None:
    store = _store("Q")
    with pytest.raises(ValueError, match=r"^queue 'Q' already exists in this store$"):
        store.create_queue("Q", Ordering.FIFO)
    with pytest.raises(MQMIError, match=r"\(2053\): queue Q is at its MAXDEPTH of 0$"):
        store.put("Q", _msg(), None, 0)


def test_peer_recovery_frees_every_lock_of_the_failed_member_and_no_other() -> None:
    store = _store("Q")
    msgs = [_msg() for _ in range(4)]
    for msg in msgs:
        store.put("Q", msg, None, 100)
    owners = [_Owner("QM1/1"), _Owner("QM1/2"), _Owner("QM2/1"), object()]
    for msg, owner in zip(msgs, owners, strict=True):
        store.lock("Q", msg.seq, owner)
    assert store.recover("QM1", 0, by="QM2").locks == 2
    assert _got(store, "Q", object()) is msgs[0]


def test_a_get_that_fails_as_too_long_still_reports_the_expired_messages_it_passed() -> None:
    # The expired messages a get passes are discarded (and reported) whatever the get's
    # outcome, MQRC_TRUNCATED_MSG_FAILED included.
    events: list[Event] = []
    qm = QMgr("QM1", on_event=events.append)
    qm.define_queue("Q", msg_delivery_sequence=CMQC.MQMDS_FIFO)
    h = qm.connect().open("Q", ALL)
    no_sync = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
    h.put(b"old", MD(Expiry=1), no_sync, now=0.0)
    h.put(b"a longer message", MD(), no_sync, now=0.0)
    with pytest.raises(MQMIError, match=r"MQRC_TRUNCATED_MSG_FAILED"):
        h.get(4, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=1.0)
    assert [e.kind for e in events] == ["discard"]


# ---- The queue manager: restarts, dead letters, definitions -----------------------------


def test_a_new_life_of_a_queue_manager_numbers_msgids_and_dynamic_queues_afresh() -> None:
    # MsgIds and dynamic-queue names stay unique across the queue manager's lives: each
    # life (incarnation) numbers from incarnation << 40, dynamic queues from 1.
    qm = _model_qm()
    qm.define_queue("Q")
    qm.connect().open("APP.MODEL", OUT)
    qm.restart(incarnation=3)
    assert qm.incarnation == 3
    name = qm.connect().open("APP.MODEL", OUT).name
    assert name == "AMQ." + f"{(3 << 40) | 1:016X}"
    md = MD()
    qm.connect().open("Q", OUT).put(b"m", md, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    assert md.MsgId[-8:] == (3 << 40).to_bytes(8, "big")


def test_a_dead_lettered_message_gets_an_mqdlh_naming_its_destination_and_an_event() -> None:
    # MQDLH: DestQName and DestQMgrName (this queue manager when none is given),
    # PutApplName the queue manager's; the event names the dead-letter queue.
    events: list[Event] = []
    qm = QMgr("QM1", on_event=events.append)
    md = MD(MsgId=b"d" * 24)
    assert qm.dead_letter(md, b"data", CMQC.MQRC_Q_FULL, "APP.Q", "", 5.0)
    assert qm.dead_letter(MD(MsgId=b"e" * 24), b"data", CMQC.MQRC_Q_FULL, "APP.Q", "QM9", 6.0)
    dlq = qm.connect().open("SYSTEM.DEAD.LETTER.QUEUE", ALL)
    headers = [DLH.unpack(body) for body in (_body(dlq), _body(dlq))]
    assert [h.DestQMgrName.rstrip() for h in headers] == [b"QM1", b"QM9"]
    assert headers[0].DestQName.rstrip() == b"APP.Q" and headers[0].PutApplName.rstrip() == b"QM1"
    assert events[0] == DeadLettered(5.0, "QM1", "SYSTEM.DEAD.LETTER.QUEUE", b"d" * 24, 2053)


def _body(h: Handle) -> bytes:
    return h.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0)


def test_without_a_dead_letter_queue_a_message_cannot_be_dead_lettered() -> None:
    qm = QMgr("QM1", dead_letter_queue=None)
    assert not qm.dead_letter(MD(), b"data", CMQC.MQRC_Q_FULL, "APP.Q", "", 0.0)


def test_delete_qlocal_refuses_an_unknown_an_open_or_a_non_empty_queue_saying_which() -> None:
    qm = QMgr("QM1")
    qm.define_queue("Q")
    with pytest.raises(MQMIError, match=r"\(2085\): no queue NONE on QM1$"):
        qm.delete_queue("NONE")
    h = qm.connect().open("Q", ALL)
    with pytest.raises(MQMIError, match=r"\(2042\): queue Q is open$"):
        qm.delete_queue("Q")
    h.put(b"m", MD(), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    h.close()
    with pytest.raises(MQMIError, match=r"\(2055\): queue Q is not empty$"):
        qm.delete_queue("Q")


def test_define_channel_without_replace_of_a_channel_that_exists_fails() -> None:
    qm = QMgr("QM1")
    channel = ChannelDefinition("TO.QM2", CMQC.MQCHT_RECEIVER)
    qm.define_channel(channel)
    with pytest.raises(ValueError, match=r"^channel TO\.QM2 is already defined$"):
        qm.define_channel(channel)
    qm.define_channel(channel, replace=True)


def test_a_name_still_held_by_a_deleted_open_queue_says_when_it_is_free() -> None:
    qm = QMgr("QM1", platform=CMQC.MQPL_ZOS)
    name = b"APP.REPLY.FIXED"
    model = OD(ObjectName=b"SYSTEM.DEFAULT.MODEL.QUEUE", DynamicQName=name)
    creator = qm.connect().open(model, ALL)
    qm.connect().open(name.decode(), OUT)
    creator.close()
    expected = (
        "(2201): APP.REPLY.FIXED is a deleted dynamic queue still open: its name is free once"
        " the last handle to it closes"
    )
    with pytest.raises(MQMIError, match=re.escape(expected) + "$"):
        qm.define_queue(name.decode())


def test_alter_of_a_queue_not_triggered_writes_no_trigger_message() -> None:
    # Triggering changed, but off: no trigger message, though the conditions stand.
    qm = _trigger_qm(trigger_control=CMQC.MQTC_OFF)
    _serve(qm)
    _put_app(qm, 0.0)
    qm.alter_queue("APP.Q", trigger_type=CMQC.MQTT_EVERY)
    assert qm.depth("APP.INITQ") == 0


def test_an_expiry_scan_of_shared_queues_leaves_the_queue_manager_s_own() -> None:
    # EXPRYINT's scan of a member's own queues, and of the shared queues (by the holder
    # of the scan lease); a member of no QSG has no shared queues to scan.
    events: list[Event] = []
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1"), on_event=events.append)
    qm.define_structure(CFStructure("APP1"))
    qm.define_queue("LOCAL")
    qm.define_queue("SHARED", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")
    no_sync = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
    for name in ("LOCAL", "SHARED"):
        qm.connect().open(name, OUT).put(b"m", MD(Expiry=10), no_sync, now=0.0)
    assert list(qm.worth_scanning(2.0, shared=True)) == ["SHARED"]
    assert qm.scan_expired(2.0, shared=True) == 1 and qm.depth("LOCAL") == 1
    assert [(e.time, e.q_mgr, e.queue, e.by) for e in events if isinstance(e, Discarded)] == [
        (2.0, "QM1", "SHARED", "scan")
    ]
    assert list(QMgr("QM2").worth_scanning(2.0, shared=True)) == []
    assert QMgr("QM2").scan_expired(2.0, shared=True) == 0


@keeps("docs/events.md", "`report` | `ReportPut` | report message put")
def test_an_expiration_report_is_an_event_naming_the_message_it_reports_on() -> None:
    events: list[Event] = []
    qm = QMgr("QM1", on_event=events.append)
    qm.define_queue("Q")
    qm.define_queue("REPLY")
    md = MD(Expiry=10, Report=CMQC.MQRO_EXPIRATION, ReplyToQ=b"REPLY")
    qm.connect().open("Q", OUT).put(b"m", md, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    qm.scan_expired(2.0)
    [report] = [e for e in events if isinstance(e, ReportPut)]
    assert (report.time, report.q_mgr, report.queue) == (2.0, "QM1", "REPLY")
    assert report.original_msg_id == md.MsgId and report.feedback == CMQC.MQFB_EXPIRATION
    reply = MD()
    qm.connect().open("REPLY", ALL).get(None, reply, GMO(), now=2.0)
    assert report.msg_id == reply.MsgId


def test_a_report_that_can_go_nowhere_is_lost_as_an_event() -> None:
    events: list[Event] = []
    qm = QMgr("QM1", on_event=events.append, dead_letter_queue=None)
    qm.define_queue("Q")
    md = MD(Expiry=10, Report=CMQC.MQRO_EXPIRATION, ReplyToQ=b"NOWHERE")
    qm.connect().open("Q", OUT).put(b"m", md, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    qm.scan_expired(2.0)
    [lost] = [e for e in events if isinstance(e, ReportLost)]
    assert lost == ReportLost(2.0, "QM1", "NOWHERE", md.MsgId, CMQC.MQRC_UNKNOWN_OBJECT_NAME)


def test_a_report_dead_lettered_names_its_destination_and_the_message_it_reports_on() -> None:
    events: list[Event] = []
    qm = QMgr("QM1", on_event=events.append)
    qm.define_queue("Q")
    md = MD(Expiry=10, Report=CMQC.MQRO_EXPIRATION, ReplyToQ=b"NOWHERE", ReplyToQMgr=b"QM1")
    qm.connect().open("Q", OUT).put(b"m", md, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    qm.scan_expired(2.0)
    [dead] = [e for e in events if isinstance(e, DeadLettered)]
    assert dead.original_msg_id == md.MsgId and dead.reason == CMQC.MQRC_UNKNOWN_OBJECT_NAME


def test_a_report_for_another_queue_manager_goes_to_its_transmission_queue() -> None:
    # A report goes to the message's ReplyToQ at its ReplyToQMgr, resolved as an MQPUT1
    # would: another queue manager's name resolves to the transmission queue of that name.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    qm.define_queue("QM2", usage=CMQC.MQUS_TRANSMISSION)
    md = MD(Expiry=10, Report=CMQC.MQRO_EXPIRATION, ReplyToQ=b"REPLY", ReplyToQMgr=b"QM2")
    qm.connect().open("Q", OUT).put(b"m", md, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    qm.scan_expired(2.0)
    assert (qm.depth("QM2"), qm.depth("SYSTEM.DEAD.LETTER.QUEUE")) == (1, 0)


def test_a_persistent_message_the_queue_manager_puts_to_a_recover_no_structure_is_2048() -> None:
    # MQRC_PERSISTENT_NOT_ALLOWED (2048) holds for the queue manager's own puts (a
    # report, a dead letter) to a shared queue whose structure is RECOVER(NO) too.
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1"))
    qm.define_structure(CFStructure("APP1"))
    qm.define_queue("SQ", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")
    with pytest.raises(MQMIError) as refused:
        qm.put_system("SQ", MD(Persistence=CMQC.MQPER_PERSISTENT), b"m", 0.0)
    assert (refused.value.reason, refused.value.detail) == (
        CMQC.MQRC_PERSISTENT_NOT_ALLOWED,
        "SQ is a shared queue on CF structure APP1, which is RECOVER(NO): it holds "
        "nonpersistent messages only",
    )
    # A private queue's CFSTRUCT names no structure it is on: persistent messages go.
    qm.define_queue("PQ", cf_struct="APP1")
    qm.put_system("PQ", MD(Persistence=CMQC.MQPER_PERSISTENT), b"m", 0.0)
    assert qm.depth("PQ") == 1


def test_a_scan_refused_between_batches_accounts_for_what_it_discarded_first() -> None:
    # A stale fence refuses the scan's next batch; the messages the earlier batches
    # discarded are gone all the same, each with its event and expiration report.
    class Fenced(MemoryStore):
        def scan(self, queue: str, now: float, fence: Fence | None = None) -> list[Expired]:
            gone = super().scan(queue, now, fence)
            raise StaleFenceError(fence or Fence("EXPIRY", 1), 2, gone)

    events: list[Event] = []
    qm = QMgr("QM1", store=Fenced(), on_event=events.append)
    qm.define_queue("Q")
    qm.define_queue("REPLY")
    md = MD(Expiry=10, Report=CMQC.MQRO_EXPIRATION, ReplyToQ=b"REPLY")
    qm.connect().open("Q", OUT).put(b"m", md, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    with pytest.raises(StaleFenceError):
        qm.scan_expired(2.0, fence=Fence("EXPIRY", 1))
    assert [(e.queue, e.time) for e in events if isinstance(e, Discarded)] == [("Q", 2.0)]
    assert qm.depth("REPLY") == 1


def test_define_process_without_replace_of_a_process_that_exists_fails() -> None:
    qm = QMgr("QM1")
    qm.define_process(ProcessDefinition("APP.PROC"))
    with pytest.raises(ValueError, match=r"^process APP\.PROC is already defined$"):
        qm.define_process(ProcessDefinition("APP.PROC"))
    qm.define_process(ProcessDefinition("APP.PROC", appl_id="x"), replace=True)


def test_a_dynamic_queue_named_like_an_existing_queue_is_object_already_exists() -> None:
    qm = _model_qm()
    qm.define_queue("APP.FIXED")
    od = OD(ObjectName=b"APP.MODEL", DynamicQName=b"APP.FIXED")
    with pytest.raises(MQMIError, match=r"\(2100\): a queue named APP\.FIXED already exists$"):
        qm.connect().open(od, OUT)
    with pytest.raises(MQMIError, match=r"\(2085\): no queue NONE on QM1$"):
        qm.depth("NONE")


def test_a_system_put_keeps_a_putdate_it_has_and_is_stamped_otherwise() -> None:
    qm = QMgr("QM1", epoch=datetime(2026, 1, 1))
    qm.define_queue("Q")
    qm.put_system("Q", MD(PutDate=b"20200101", PutTime=b"12000000"), b"old", 5.0)
    qm.put_system("Q", MD(), b"new", 5.0)
    h = qm.connect().open("Q", ALL)
    dates = []
    for _ in range(2):
        md = MD()
        h.get(None, md, GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=5.0)
        dates.append((md.PutDate, md.PutTime))
    assert dates == [(b"20200101", b"12000000"), (b"20260101", b"00000500")]


def test_a_message_the_queue_manager_puts_to_a_model_queue_names_no_queue() -> None:
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1"))
    qm.define(QueueDefinition("APP.MODEL", **MODEL))  # type: ignore[arg-type]
    with pytest.raises(MQMIError, match=r"\(2085\): no local queue APP\.MODEL$"):
        qm.put_system("APP.MODEL", MD(), b"m", 0.0)
    with pytest.raises(MQMIError, match=r"\(2085\): APP\.MODEL is a model queue$"):
        qm.put_system("APP.MODEL", MD(), b"m", 0.0, q_mgr="QSG1")


def test_a_report_arriving_on_a_triggered_queue_triggers_as_any_message() -> None:
    # Trigger conditions hold for every message put, the queue manager's own included.
    qm = _trigger_qm(trigger_type=CMQC.MQTT_EVERY)
    initq = _serve(qm)
    md = MD(Expiry=10, Report=CMQC.MQRO_EXPIRATION, ReplyToQ=b"APP.Q")
    qm.define_queue("Q")
    qm.connect().open("Q", OUT).put(b"m", md, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    qm.scan_expired(2.0)
    assert len(_take(initq)) == 1


def test_a_connection_without_a_user_puts_as_user_qsg() -> None:
    qm = QMgr("QM1")
    qm.define_queue("Q")
    h = qm.connect().open("Q", ALL)
    h.put(b"m", MD(), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    md = MD()
    h.get(None, md, GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0)
    assert md.UserIdentifier == b"qsg"


def test_a_queue_manager_s_msgids_are_amq_its_name_and_a_counter_from_its_life() -> None:
    # MQ's generated MsgId: "AMQ ", the queue manager's name (12 characters, blank
    # padded), then a unique number; here the number starts at incarnation << 40.
    ids = []
    for qm in (QMgr("QM1"), QMgr("QM.NAME.LONGER.THAN.12", incarnation=2)):
        qm.define_queue("Q")
        md = MD()
        qm.connect().open("Q", OUT).put(b"m", md, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
        ids.append(md.MsgId)
    assert ids == [
        b"AMQ QM1         " + (0).to_bytes(8, "big"),
        b"AMQ QM.NAME.LONG" + (2 << 40).to_bytes(8, "big"),
    ]


def test_a_new_queue_manager_has_mq_s_defaults_and_the_store_it_is_given() -> None:
    # TRIGINT 999999999, EXPRYINT OFF, DESCR blank; connections numbered from 1.
    store = MemoryStore()
    epoch = datetime(2026, 2, 1)
    qm = QMgr("QM1", store=store, epoch=epoch)
    assert qm.local.store is store and qm.epoch == epoch and qm.time == 0.0
    assert (qm.trigger_interval, qm.expiry_interval, qm.description) == (999_999_999, None, "")
    assert qm.connect().number == 1
    with pytest.raises(ValueError, match=r"^a queue manager name has 1 to 48 characters: ''$"):
        QMgr("")


def test_two_connections_have_units_of_work_of_their_own() -> None:
    qm = QMgr("QM1")
    qm.define_queue("Q")
    conns = [qm.connect(), qm.connect()]
    for conn in conns:
        conn.open("Q", OUT).put(b"m", MD(), PMO(Options=CMQC.MQPMO_SYNCPOINT), now=0.0)
    conns[0].commit()
    assert qm.local.store.uncommitted("Q") == 1


def test_a_connection_without_an_application_name_puts_as_application_qsg() -> None:
    qm = QMgr("QM1")
    qm.define_queue("Q")
    h = qm.connect().open("Q", ALL)
    h.put(b"m", MD(), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    md = MD()
    h.get(None, md, GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0)
    assert md.PutApplName == b"qsg"


def test_define_of_shared_objects_refuses_what_qsg_does_not_simulate_saying_why() -> None:
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1"))
    # A GROUP object is the shared repository's: on page set 0 only its COPY.
    with pytest.raises(
        ValueError, match=r"^queue Q: a GROUP object is kept in the shared repository$"
    ):
        qm.define_queue("Q", qsg_disp=CMQC.MQQSGD_GROUP)
    with pytest.raises(ValueError, match=r"^queue C: QM3 is in no queue-sharing group$"):
        QMgr("QM3").define_queue("C", qsg_disp=CMQC.MQQSGD_COPY)
    with pytest.raises(ValueError, match=r"^queue A: only a local queue can be QSGDISP\(SHARED\)$"):
        qm.define(AliasQueue("A", target="Q", qsg_disp=CMQC.MQQSGD_SHARED))
    with pytest.raises(ValueError, match=r"^CFSTRUCT\(APP1\): QM2 is in no QSG$"):
        QMgr("QM2").define_structure(CFStructure("APP1"))
    qm.define_structure(CFStructure("APP1", cf_level=3))
    with pytest.raises(ValueError, match=r"^CF structure APP1 is already defined$"):
        qm.define_structure(CFStructure("APP1"))
    qm.define_structure(CFStructure("APP1", cf_level=4), replace=True)
    qm.define_queue("Q")
    with pytest.raises(ValueError, match=r"^queue Q is already defined$"):
        qm.define(QueueDefinition("Q"))


def test_a_sharedyn_model_needs_its_queue_manager_in_a_qsg() -> None:
    model = {**MODEL, "definition_type": CMQC.MQQDT_SHARED_DYNAMIC, "cf_struct": "APP1"}
    with pytest.raises(ValueError, match=r"^queue M: QM1 is in no queue-sharing group$"):
        QMgr("QM1").define(QueueDefinition("M", **model))  # type: ignore[arg-type]


def test_a_queue_manager_s_dead_letter_queue_and_maxumsgs_have_mq_s_defaults() -> None:
    # SYSTEM.DEAD.LETTER.QUEUE with MAXDEPTH 999999999; MAXUMSGS 10000.
    qm = QMgr("QM1")
    dlq = qm.connect().open("SYSTEM.DEAD.LETTER.QUEUE", CMQC.MQOO_INQUIRE)
    assert dlq.inquire(CMQC.MQIA_MAX_Q_DEPTH) == 999_999_999
    assert dlq.inquire(CMQC.MQIA_MAX_UNCOMMITTED_MSGS) == 10_000


def test_a_dead_letter_queue_that_cannot_take_the_message_loses_it() -> None:
    qm = QMgr("QM1")
    qm.alter_queue("SYSTEM.DEAD.LETTER.QUEUE", max_depth=0)
    assert not qm.dead_letter(MD(), b"data", CMQC.MQRC_Q_FULL, "APP.Q", "", 0.0)


def test_a_dead_letter_header_cuts_a_long_queue_manager_name_to_putapplname_s_28() -> None:
    name = "QM.WITH.A.NAME.LONGER.THAN.28.CHARS"
    qm = QMgr(name)
    assert qm.dead_letter(MD(), b"data", CMQC.MQRC_Q_FULL, "APP.Q", "", 0.0)
    body = (
        qm.connect()
        .open("SYSTEM.DEAD.LETTER.QUEUE", ALL)
        .get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0)
    )
    assert DLH.unpack(body).PutApplName == name.encode()[:28]


def test_a_get_by_group_sequence_and_offset_finds_only_a_committed_item_of_a_known_group() -> None:
    # MQMO_MATCH_GROUP_ID with MQMO_MATCH_MSG_SEQ_NUMBER and MQMO_MATCH_OFFSET: one item;
    # an unknown group or an item still uncommitted matches nothing.
    store = _store("Q")
    items = []
    for seq in (1, 2, 3):
        desc = MD(GroupId=b"G" * 24, MsgSeqNumber=seq, MsgFlags=CMQC.MQMF_MSG_IN_GROUP).get()
        items.append(Message(desc, b"", 0.0, None, 0))
        store.put("Q", items[-1], "uow" if seq == 3 else None, 100)

    def find(group: bytes, seq: int) -> Message | None:
        select = Select(match=Match(group_id=group, msg_seq_number=seq, offset=0))
        return store.get("Q", select, 0.0, None, Syncpoint.NO, None, False).message

    assert find(b"H" * 24, 1) is None
    assert find(b"G" * 24, 3) is None
    assert find(b"G" * 24, 2) is items[1]


# ---- MQGET: options MQ refuses, each with its reason and what was wrong (engine) -------

_REFUSED_GETS = [
    (
        CMQC.MQGMO_SYNCPOINT | CMQC.MQGMO_NO_SYNCPOINT,
        0,
        CMQC.MQRC_OPTIONS_ERROR,
        "MQGMO_SYNCPOINT and MQGMO_NO_SYNCPOINT together",
    ),
    (
        CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_BROWSE_NEXT,
        0,
        CMQC.MQRC_OPTIONS_ERROR,
        "more than one browse option",
    ),
    (
        CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_MSG_UNDER_CURSOR,
        0,
        CMQC.MQRC_OPTIONS_ERROR,
        "more than one browse option",
    ),
    (
        CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_LOCK | CMQC.MQGMO_UNLOCK,
        0,
        CMQC.MQRC_OPTIONS_ERROR,
        "MQGMO_LOCK and MQGMO_UNLOCK together",
    ),
    (CMQC.MQGMO_LOCK, 0, CMQC.MQRC_OPTIONS_ERROR, "MQGMO_LOCK is for a browse"),
    (
        CMQC.MQGMO_LOCK | CMQC.MQGMO_MSG_UNDER_CURSOR,
        0,
        CMQC.MQRC_OPTIONS_ERROR,
        "MQGMO_LOCK is for a browse",
    ),
    (
        CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_SYNCPOINT,
        0,
        CMQC.MQRC_OPTIONS_ERROR,
        "a browse cannot be in syncpoint",
    ),
    (
        CMQC.MQGMO_BROWSE_NEXT | CMQC.MQGMO_SYNCPOINT_IF_PERSISTENT,
        0,
        CMQC.MQRC_OPTIONS_ERROR,
        "a browse cannot be in syncpoint",
    ),
    (
        CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT,
        -5,
        CMQC.MQRC_WAIT_INTERVAL_ERROR,
        "WaitInterval=-5",
    ),
    (  # the same check where the other options are checked too
        CMQC.MQGMO_WAIT | CMQC.MQGMO_SYNCPOINT,
        -2,
        CMQC.MQRC_WAIT_INTERVAL_ERROR,
        "WaitInterval=-2",
    ),
]


@pytest.mark.parametrize(("options", "wait", "reason", "detail"), _REFUSED_GETS)
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_OPTIONS_ERROR | options not valid or not valid together (MQOPEN, MQPUT, MQGET, "
        "MQCLOSE); LOGICAL_ORDER on MQPUT1"
    ),
)
def test_mqget_refuses_option_combinations_mq_refuses_with_2046_naming_them(
    options: int, wait: int, reason: int, detail: str
) -> None:
    # MQGMO Options: "MQRC_OPTIONS_ERROR (2046)" for SYNCPOINT with NO_SYNCPOINT, two
    # browse options, LOCK with UNLOCK, LOCK without a browse, a browse in syncpoint;
    # WaitInterval: a negative value other than MQWI_UNLIMITED is 2090 with MQGMO_WAIT.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    h = qm.connect().open("Q", ALL)
    h.put(b"m", MD(), NO_SYNC_PUT, now=0.0)
    with pytest.raises(MQMIError) as refused:
        h.get(None, MD(), GMO(Options=options, WaitInterval=wait), now=0.0)
    assert (refused.value.comp, refused.value.reason) == (CMQC.MQCC_FAILED, reason)
    assert refused.value.detail == detail
    assert h.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0) == b"m"


@pytest.mark.parametrize(
    ("options", "wait"),
    [
        (CMQC.MQGMO_NO_SYNCPOINT, -5),
        (CMQC.MQGMO_SYNCPOINT, -5),
        (CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, 0),
        (CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, CMQC.MQWI_UNLIMITED),
    ],
)
@keeps(
    "docs/reason-codes.md",
    "MQRC_WAIT_INTERVAL_ERROR | MQGMO_WAIT with a negative WaitInterval other than MQWI_UNLIMITED",
)
def test_wait_interval_is_checked_only_with_mqgmo_wait_and_0_or_unlimited_is_valid(
    options: int, wait: int
) -> None:
    # WaitInterval: "ignored if MQGMO_WAIT is not specified"; 0 and MQWI_UNLIMITED are
    # valid waits. The rules layer never waits: an empty queue answers 2033.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    h = qm.connect().open("Q", ALL)
    with pytest.raises(MQMIError) as missing:
        h.get(None, MD(), GMO(Options=options, WaitInterval=wait), now=0.0)
    assert missing.value.reason == CMQC.MQRC_NO_MSG_AVAILABLE


def _refusal(h: Handle, md: MD, options: int, **gmo: Any) -> tuple[int, int, str]:
    with pytest.raises(MQMIError) as refused:
        h.get(None, md, GMO(Options=options, **gmo), now=0.0)
    return refused.value.comp, refused.value.reason, refused.value.detail


@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_NO_MSG_UNDER_CURSOR | MSG_UNDER_CURSOR / BROWSE_MSG_UNDER_CURSOR with no browse "
        "cursor, or its message gone"
    ),
)
def test_a_browse_or_a_get_under_a_cursor_not_yet_set_is_2034_naming_the_cursor() -> None:
    # MQRC_NO_MSG_UNDER_CURSOR (2034): BROWSE_MSG_UNDER_CURSOR or MSG_UNDER_CURSOR
    # "without a previous successful browse"; and when the message there is gone.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    h = qm.connect().open("Q", ALL)
    h.put(b"m", MD(), NO_SYNC_PUT, now=0.0)
    no_cursor = (CMQC.MQCC_FAILED, CMQC.MQRC_NO_MSG_UNDER_CURSOR, "no browse cursor yet")
    assert _refusal(h, MD(), CMQC.MQGMO_BROWSE_MSG_UNDER_CURSOR) == no_cursor
    assert _refusal(h, MD(), CMQC.MQGMO_MSG_UNDER_CURSOR | CMQC.MQGMO_NO_SYNCPOINT) == no_cursor
    assert h.get(None, MD(), GMO(Options=CMQC.MQGMO_BROWSE_FIRST), now=0.0) == b"m"
    assert h.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0) == b"m"
    assert _refusal(h, MD(), CMQC.MQGMO_BROWSE_MSG_UNDER_CURSOR) == (
        CMQC.MQCC_FAILED,
        CMQC.MQRC_NO_MSG_UNDER_CURSOR,
        "the message under the cursor is no longer there",
    )


def test_browse_next_switching_logical_order_from_its_browse_first_is_inconsistent_browse() -> None:
    # MQRC_INCONSISTENT_BROWSE (2259): MQGMO_BROWSE_NEXT with LOGICAL_ORDER differing
    # from the preceding BROWSE_FIRST's.
    qm = QMgr("QM1")
    qm.define_queue("Q", index_type=CMQC.MQIT_GROUP_ID)
    h = qm.connect().open("Q", ALL)
    h.put(b"m", MD(), NO_SYNC_PUT, now=0.0)
    h.put(b"n", MD(), NO_SYNC_PUT, now=0.0)
    assert h.get(None, MD(), GMO(Options=CMQC.MQGMO_BROWSE_FIRST), now=0.0) == b"m"
    assert _refusal(h, MD(), CMQC.MQGMO_BROWSE_NEXT | CMQC.MQGMO_LOGICAL_ORDER) == (
        CMQC.MQCC_FAILED,
        CMQC.MQRC_INCONSISTENT_BROWSE,
        "BROWSE_NEXT must use LOGICAL_ORDER exactly when its BROWSE_FIRST did",
    )
    assert h.get(None, MD(), GMO(Options=CMQC.MQGMO_BROWSE_NEXT), now=0.0) == b"n"


@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_MATCH_OPTIONS_ERROR | MatchOptions not valid; in a group in logical order, a "
        "MsgId/CorrelId that does not match its next message"
    ),
)
def test_match_options_mq_does_not_know_or_qsg_does_not_simulate_are_2247_naming_them() -> None:
    # MQGMO MatchOptions (version 2): unknown bits are MQRC_MATCH_OPTIONS_ERROR (2247);
    # MQMO_MATCH_MSG_TOKEN (z/OS workload manager) is not simulated: refused the same.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    h = qm.connect().open("Q", ALL)
    v2 = {"Version": CMQC.MQGMO_VERSION_2}
    assert _refusal(h, MD(), CMQC.MQGMO_NO_SYNCPOINT, MatchOptions=0x4000, **v2) == (
        CMQC.MQCC_FAILED,
        CMQC.MQRC_MATCH_OPTIONS_ERROR,
        "MatchOptions=0x4000",
    )
    token = _refusal(h, MD(), CMQC.MQGMO_NO_SYNCPOINT, MatchOptions=CMQC.MQMO_MATCH_MSG_TOKEN, **v2)
    assert token == (
        CMQC.MQCC_FAILED,
        CMQC.MQRC_MATCH_OPTIONS_ERROR,
        "MQMO_MATCH_MSG_TOKEN is not supported",
    )


def test_a_version_2_mqgmo_matches_only_the_fields_its_match_options_name() -> None:
    # MatchOptions: "MQMO_MATCH_CORREL_ID ... MQMO_MATCH_GROUP_ID ... MQMO_MATCH_OFFSET":
    # a field whose option is absent is not matched, whatever the MQMD holds; one
    # option alone (GroupId, or Offset) selects on that field alone.
    qm = QMgr("QM1")
    qm.define_queue("Q", index_type=CMQC.MQIT_GROUP_ID)
    h = qm.connect().open("Q", ALL)
    h.put(b"plain", MD(MsgId=b"A" * 24, CorrelId=b"C" * 24), NO_SYNC_PUT, now=0.0)
    v2md = {"Version": CMQC.MQMD_VERSION_2}
    grouped = MD(GroupId=b"G" * 24, MsgFlags=CMQC.MQMF_MSG_IN_GROUP, **v2md)
    h.put(b"grouped", grouped, NO_SYNC_PUT, now=0.0)
    h.put(b"segment", MD(Offset=10, MsgFlags=CMQC.MQMF_SEGMENT, **v2md), NO_SYNC_PUT, now=0.0)

    def browse(md: MD, match: int) -> bytes:
        gmo = GMO(Options=CMQC.MQGMO_BROWSE_FIRST, Version=CMQC.MQGMO_VERSION_2, MatchOptions=match)
        return h.get(None, md, gmo, now=0.0)

    other = {"CorrelId": b"X" * 24, "GroupId": b"H" * 24}
    assert browse(MD(MsgId=b"A" * 24, **other), CMQC.MQMO_MATCH_MSG_ID) == b"plain"
    assert browse(MD(**other), CMQC.MQMO_NONE) == b"plain"
    assert browse(MD(GroupId=b"G" * 24), CMQC.MQMO_MATCH_GROUP_ID) == b"grouped"
    assert browse(MD(Offset=10), CMQC.MQMO_MATCH_OFFSET) == b"segment"


# ---- MQPUT: MQMD fields MQ refuses, each with its reason and the field (engine) --------

_NO_REPLY_TO = "a request, or a message asking for reports, needs MQMD.ReplyToQ"


@pytest.mark.parametrize(
    ("md", "pmo", "reason", "detail"),
    [
        (MD(Priority=-2), 0, CMQC.MQRC_PRIORITY_ERROR, "MQMD.Priority=-2"),
        (MD(Persistence=3), 0, CMQC.MQRC_PERSISTENCE_ERROR, "MQMD.Persistence=3"),
        (MD(MsgType=7), 0, CMQC.MQRC_MSG_TYPE_ERROR, "MQMD.MsgType=7"),
        (MD(MsgType=65535), 0, CMQC.MQRC_MSG_TYPE_ERROR, "MQMD.MsgType=65535"),
        (MD(MsgType=1_000_000_000), 0, CMQC.MQRC_MSG_TYPE_ERROR, "MQMD.MsgType=1000000000"),
        (MD(MsgType=CMQC.MQMT_REQUEST), 0, CMQC.MQRC_MISSING_REPLY_TO_Q, _NO_REPLY_TO),
        (
            MD(MsgType=CMQC.MQMT_REQUEST, ReplyToQ=b"\x00" * 48),
            0,
            CMQC.MQRC_MISSING_REPLY_TO_Q,
            _NO_REPLY_TO,
        ),
        (MD(Report=CMQC.MQRO_COA), 0, CMQC.MQRC_MISSING_REPLY_TO_Q, _NO_REPLY_TO),
        (
            MD(),
            CMQC.MQPMO_SYNCPOINT | CMQC.MQPMO_NO_SYNCPOINT,
            CMQC.MQRC_OPTIONS_ERROR,
            "MQPMO_SYNCPOINT and MQPMO_NO_SYNCPOINT together",
        ),
    ],
)
@keeps(
    "docs/reason-codes.md",
    "MQRC_MISSING_REPLY_TO_Q | a request, or a message asking for reports, without ReplyToQ",
)
@keeps(
    "docs/reason-codes.md",
    "MQRC_MSG_TYPE_ERROR | MsgType neither IBM's nor in the application range",
)
@keeps("docs/reason-codes.md", "MQRC_PERSISTENCE_ERROR | Persistence other than 0, 1 or 2")
def test_mqput_refuses_an_mqmd_field_out_of_range_with_its_reason_naming_the_field(
    md: MD, pmo: int, reason: int, detail: str
) -> None:
    # MQMD Priority (2050), Persistence (2047), MsgType (2029: MQMT_* or an application
    # type 65536 to 999 999 999), ReplyToQ "must not be blank" for a request or a report
    # request (2027); MQPMO SYNCPOINT with NO_SYNCPOINT (2046). Nothing is put.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    h = qm.connect().open("Q", ALL)
    with pytest.raises(MQMIError) as refused:
        h.put(b"m", md, PMO(Options=pmo or CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    assert (refused.value.comp, refused.value.reason) == (CMQC.MQCC_FAILED, reason)
    assert refused.value.detail == detail
    assert h.inquire(CMQC.MQIA_CURRENT_Q_DEPTH) == 0


@pytest.mark.parametrize(
    "md",
    [
        MD(MsgType=65536),
        MD(MsgType=999_999_999),
        MD(MsgType=CMQC.MQMT_REQUEST, ReplyToQ=b"XX"),
        MD(Report=CMQC.MQRO_COA, ReplyToQ=b"R"),
    ],
)
def test_application_message_types_at_both_ends_and_any_named_reply_queue_are_put(md: MD) -> None:
    qm = QMgr("QM1")
    qm.define_queue("Q")
    qm.connect().open("Q", ALL).put(b"m", md, NO_SYNC_PUT, now=0.0)


# ---- MQGET: the MQGMO output fields (engine.finish_get) ----------------------------------


def test_mqget_sets_group_and_segment_status_resolved_queue_and_returned_length() -> None:
    # MQGMO GroupStatus/SegmentStatus: MQGS_NOT_IN_GROUP and MQSS_NOT_A_SEGMENT for a
    # message not in a group (set again by each get, whatever the MQGMO held);
    # ResolvedQName the local queue an alias resolved to; ReturnedLength the bytes
    # returned (the buffer's length when MQGMO_ACCEPT_TRUNCATED_MSG cut the message).
    qm = QMgr("QM1")
    qm.define_queue("Q", index_type=CMQC.MQIT_GROUP_ID)
    qm.define(AliasQueue("A", "Q"))
    h = qm.connect().open("A", ALL)
    last = CMQC.MQMF_LAST_MSG_IN_GROUP | CMQC.MQMF_LAST_SEGMENT
    h.put(b"group", MD(Version=2, GroupId=b"G" * 24, MsgFlags=last), NO_SYNC_PUT, now=0.0)
    h.put(b"plain", MD(), NO_SYNC_PUT, now=0.0)
    gmo = GMO(Version=CMQC.MQGMO_VERSION_3, Options=CMQC.MQGMO_NO_SYNCPOINT)
    assert h.get(None, MD(Version=2), gmo, now=0.0) == b"group"
    assert (gmo.GroupStatus, gmo.SegmentStatus) == (
        CMQC.MQGS_LAST_MSG_IN_GROUP,
        CMQC.MQSS_LAST_SEGMENT,
    )
    assert h.get(None, MD(Version=2), gmo, now=0.0) == b"plain"
    assert (gmo.GroupStatus, gmo.SegmentStatus) == (CMQC.MQGS_NOT_IN_GROUP, CMQC.MQSS_NOT_A_SEGMENT)
    assert (gmo.ResolvedQName.rstrip(b" \x00"), gmo.ReturnedLength) == (b"Q", 5)
    h.put(b"longer", MD(), NO_SYNC_PUT, now=0.0)
    gmo.Options |= CMQC.MQGMO_ACCEPT_TRUNCATED_MSG
    with pytest.raises(MQMIError) as cut:
        h.get(2, MD(), gmo, now=0.0)
    assert (cut.value.reason, cut.value.detail) == (
        CMQC.MQRC_TRUNCATED_MSG_ACCEPTED,
        "6 bytes truncated to 2",
    )
    assert gmo.ReturnedLength == 2
    h.put(b"longest", MD(), NO_SYNC_PUT, now=0.0)
    with pytest.raises(MQMIError) as refused:
        h.get(3, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0)
    assert (refused.value.comp, refused.value.reason, refused.value.detail) == (
        CMQC.MQCC_FAILED,
        CMQC.MQRC_TRUNCATED_MSG_FAILED,
        "the message is 7 bytes, the buffer 3",
    )
    assert h.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0) == b"longest"
    with pytest.raises(MQMIError) as empty:
        h.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0)
    assert (empty.value.reason, empty.value.detail) == (
        CMQC.MQRC_NO_MSG_AVAILABLE,
        "no matching message on Q",
    )


# ---- MQPUT: group and segment fields (engine._set_group_fields) -------------------------

_IN_GROUP = CMQC.MQMF_MSG_IN_GROUP
_LOGICAL_PUT = CMQC.MQPMO_LOGICAL_ORDER | CMQC.MQPMO_NO_SYNCPOINT


def _put_refusal(h: Handle, md: MD, options: int) -> tuple[int, int, str]:
    with pytest.raises(MQMIError) as refused:
        h.put(b"m", md, PMO(Options=options), now=0.0)
    return refused.value.comp, refused.value.reason, refused.value.detail


@keeps("docs/objects.md", "`PMO.ResolvedQName`/`ResolvedQMgrName` name the destination.")
def test_resolved_names_are_the_queue_and_queue_manager_the_first_time_a_name_is_seen() -> None:
    # MQPMO ResolvedQName/ResolvedQMgrName and MQGMO ResolvedQName name the queue and
    # queue manager the call resolved to. engine keeps each name encoded once, in a table
    # that starts again when full: the answer must not depend on what the table holds,
    # so it is emptied before each call here (a name it has never seen).
    qm = QMgr("QMFIRST")
    qm.define_queue("FIRST.SEEN")
    h = qm.connect().open("FIRST.SEEN", ALL)
    pmo = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
    engine._ENCODED.clear()
    h.put(b"m", MD(), pmo, now=0.0)
    assert (pmo.ResolvedQName, pmo.ResolvedQMgrName) == (b"FIRST.SEEN", b"QMFIRST")
    gmo = GMO(Options=CMQC.MQGMO_NO_SYNCPOINT)
    engine._ENCODED.clear()
    assert h.get(None, MD(), gmo, now=0.0) == b"m"
    assert gmo.ResolvedQName.rstrip(b" \x00") == b"FIRST.SEEN"


def test_resolved_names_stay_the_queue_and_queue_manager_once_both_names_are_known() -> None:
    # The same fields on a later put, when engine's table holds both names already:
    # each field takes its own name from the table, never the other's.
    qm = QMgr("QMAGAIN")
    qm.define_queue("AGAIN.SEEN")
    h = qm.connect().open("AGAIN.SEEN", ALL)
    h.put(b"first", MD(), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    pmo = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
    h.put(b"second", MD(), pmo, now=0.0)
    assert (pmo.ResolvedQName, pmo.ResolvedQMgrName) == (b"AGAIN.SEEN", b"QMAGAIN")


def test_a_put_in_syncpoint_where_no_unit_of_work_can_be_is_mqrc_syncpoint_not_available() -> None:
    # MQRC_SYNCPOINT_NOT_AVAILABLE (2072): "Syncpoint support not available" for an
    # MQPMO_SYNCPOINT put where the environment has no unit of work; engine.put is told
    # so by a unit of work of None, and stores nothing.
    qm = QMgr("QMNOUOW")
    qm.define_queue("NO.UOW")
    h = qm.connect().open("NO.UOW", ALL)
    with pytest.raises(MQMIError) as refused:
        engine.put(
            qm.rules,
            h.repository.store,
            h.repository.queues["NO.UOW"],  # type: ignore[arg-type]
            b"m",
            MD(),
            PMO(Options=CMQC.MQPMO_SYNCPOINT),
            None,
            h.conn.identity,
            0.0,
        )
    assert (refused.value.comp, refused.value.reason) == (
        CMQC.MQCC_FAILED,
        CMQC.MQRC_SYNCPOINT_NOT_AVAILABLE,
    )
    assert h.repository.store.depth("NO.UOW") == 0


@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_INCOMPLETE_MSG | MQPUT with LOGICAL_ORDER of a message that is not the next segment; "
        "(warning) MQCLOSE with a logical message not completed, in preference to 2241"
    ),
)
@keeps(
    "docs/reason-codes.md",
    "MQRC_MSG_FLAGS_ERROR | MsgFlags with unknown bits in the reject-if-unsupported range",
)
@keeps("docs/reason-codes.md", "MQRC_MSG_SEQ_NUMBER_ERROR | MsgSeqNumber below 1")
@keeps("docs/reason-codes.md", "MQRC_OFFSET_ERROR | Offset below 0")
def test_mqput_refuses_bad_group_fields_and_a_logical_order_put_that_breaks_its_group() -> None:
    # MQMD MsgFlags (2249 for a flag in MQMF_REJECT_UNSUP_MASK it does not know),
    # MsgSeqNumber (2250, 1 or more), Offset (2251, 0 or more); with LOGICAL_ORDER,
    # MQRC_INCOMPLETE_GROUP (2241), MQRC_INCOMPLETE_MSG (2242), 2245 for the unit of work
    # and 2185 for the persistence of the group, each saying what was wrong.
    qm = QMgr("QM1")
    qm.define_queue("Q", index_type=CMQC.MQIT_GROUP_ID)
    conn = qm.connect()
    h = conn.open("Q", ALL)
    fail = CMQC.MQCC_FAILED
    v2 = {"Version": CMQC.MQMD_VERSION_2}
    assert _put_refusal(h, MD(MsgFlags=0x800, **v2), CMQC.MQPMO_NO_SYNCPOINT) == (
        fail,
        CMQC.MQRC_MSG_FLAGS_ERROR,
        "MQMD.MsgFlags=0x800",
    )
    assert _put_refusal(h, MD(MsgSeqNumber=0, **v2), CMQC.MQPMO_NO_SYNCPOINT) == (
        fail,
        CMQC.MQRC_MSG_SEQ_NUMBER_ERROR,
        "MQMD.MsgSeqNumber=0",
    )
    assert _put_refusal(h, MD(Offset=-1, **v2), CMQC.MQPMO_NO_SYNCPOINT) == (
        fail,
        CMQC.MQRC_OFFSET_ERROR,
        "MQMD.Offset=-1",
    )
    h.put(
        b"1", MD(MsgFlags=_IN_GROUP | CMQC.MQMF_SEGMENT, **v2), PMO(Options=_LOGICAL_PUT), now=0.0
    )
    assert _put_refusal(h, MD(**v2), _LOGICAL_PUT) == (
        fail,
        CMQC.MQRC_INCOMPLETE_GROUP,
        "the handle's group is not complete: put its next message",
    )
    assert _put_refusal(h, MD(MsgFlags=_IN_GROUP, **v2), _LOGICAL_PUT) == (
        fail,
        CMQC.MQRC_INCOMPLETE_MSG,
        "the logical message is not complete: put its next segment",
    )
    segment = {"MsgFlags": _IN_GROUP | CMQC.MQMF_LAST_SEGMENT, **v2}
    in_uow = CMQC.MQPMO_LOGICAL_ORDER | CMQC.MQPMO_SYNCPOINT
    assert _put_refusal(h, MD(**segment), in_uow) == (
        fail,
        CMQC.MQRC_INCONSISTENT_UOW,
        "a group put in logical order must be all in syncpoint or all outside",
    )
    persistent = MD(Persistence=CMQC.MQPER_PERSISTENT, **segment)
    assert _put_refusal(h, persistent, _LOGICAL_PUT) == (
        fail,
        CMQC.MQRC_INCONSISTENT_PERSISTENCE,
        "a group put in logical order must be all persistent or all nonpersistent",
    )
    # Without LOGICAL_ORDER right after it: the call succeeds with MQCC_WARNING.
    md = MD(**v2)
    h.get(None, md, GMO(Options=CMQC.MQGMO_BROWSE_FIRST), now=0.0)
    nxt = {"GroupId": md.GroupId, "MsgSeqNumber": 1, "Offset": 1, **segment}
    assert _put_refusal(h, MD(**nxt), CMQC.MQPMO_SYNCPOINT) == (
        CMQC.MQCC_WARNING,
        CMQC.MQRC_INCONSISTENT_UOW,
        "put in and outside the unit of work within one group or logical message",
    )
    h2 = conn.open("Q", ALL)
    h2.put(b"1", MD(MsgFlags=_IN_GROUP, **v2), PMO(Options=_LOGICAL_PUT), now=0.0)
    h2.get(None, md, GMO(Options=CMQC.MQGMO_BROWSE_FIRST), now=0.0)
    nxt = {**nxt, "GroupId": md.GroupId, "Persistence": CMQC.MQPER_PERSISTENT}
    nxt["MsgFlags"] = CMQC.MQMF_LAST_MSG_IN_GROUP
    assert _put_refusal(h2, MD(**nxt), CMQC.MQPMO_NO_SYNCPOINT) == (
        CMQC.MQCC_WARNING,
        CMQC.MQRC_INCONSISTENT_PERSISTENCE,
        "persistent and nonpersistent messages within one group or logical message",
    )


def test_a_message_not_in_a_group_gets_no_group_id_and_logical_order_numbers_it_1_at_0() -> None:
    # MQPMO_LOGICAL_ORDER: the queue manager sets GroupId, MsgSeqNumber and Offset: a
    # message not in a group has MQGI_NONE, sequence number 1 and offset 0, whatever
    # the MQMD held; without it, only a group's first item with a null GroupId gets one.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    h = qm.connect().open("Q", ALL)
    v2 = {"Version": CMQC.MQMD_VERSION_2}
    h.put(b"logical", MD(MsgSeqNumber=5, Offset=3, **v2), PMO(Options=_LOGICAL_PUT), now=0.0)
    h.put(b"plain", MD(**v2), NO_SYNC_PUT, now=0.0)
    for body in (b"logical", b"plain"):
        md = MD(**v2)
        assert h.get(None, md, GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0) == body
        assert (md.GroupId, md.MsgSeqNumber, md.Offset) == (CMQC.MQGI_NONE, 1, 0)


def test_mqput_context_default_sets_identity_and_origin_and_no_context_clears_them() -> None:
    # MQPMO_DEFAULT_CONTEXT: the queue manager sets the identity context (UserIdentifier,
    # AccountingToken, ApplIdentityData blank) and the origin context (ApplOriginData
    # blank); MQPMO_SET_IDENTITY_CONTEXT keeps the application's identity fields;
    # MQPMO_NO_CONTEXT clears every context field.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    h = qm.connect(user="alice").open("Q", ALL)
    mine = {"UserIdentifier": b"bob", "ApplIdentityData": b"id", "ApplOriginData": b"orig"}
    for options in (0, CMQC.MQPMO_SET_IDENTITY_CONTEXT, CMQC.MQPMO_NO_CONTEXT):
        h.put(b"m", MD(**mine), PMO(Options=options | CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    got = []
    for _ in range(3):
        md = MD()
        h.get(None, md, GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0)
        got.append(
            (
                md.UserIdentifier.rstrip(),
                md.ApplIdentityData.rstrip(),
                md.ApplOriginData.rstrip(),
                md.PutApplName.rstrip(),
            )
        )
    assert got[0][:3] == (b"alice", b"", b"") and got[0][3]
    assert got[1][:3] == (b"bob", b"id", b"")
    assert got[2] == (b"", b"", b"", b"")


def test_a_get_in_syncpoint_beyond_maxumsgs_is_2024_naming_the_limit() -> None:
    # MQRC_SYNCPOINT_LIMIT_REACHED (2024): "would cause the unit of work to exceed the
    # limit defined for the queue manager (see MaxUncommittedMsgs)".
    qm = QMgr("QM1", max_uncommitted_msgs=1)
    qm.define_queue("Q")
    h = qm.connect().open("Q", ALL)
    h.put(b"1", MD(), NO_SYNC_PUT, now=0.0)
    h.put(b"2", MD(), NO_SYNC_PUT, now=0.0)
    assert h.get(None, MD(), GMO(Options=CMQC.MQGMO_SYNCPOINT), now=0.0) == b"1"
    assert _refusal(h, MD(), CMQC.MQGMO_SYNCPOINT) == (
        CMQC.MQCC_FAILED,
        CMQC.MQRC_SYNCPOINT_LIMIT_REACHED,
        "the unit of work already holds MAXUMSGS=1 messages",
    )


def test_a_message_a_handle_locked_stays_visible_to_that_handle_however_it_gets() -> None:
    # MQGMO_LOCK: the locked message "is not available to other handles"; the locking
    # handle can still get it, by any selection (first available, MsgId, logical order).
    qm = QMgr("QM1")
    qm.define_queue("Q", index_type=CMQC.MQIT_GROUP_ID)
    conn = qm.connect()
    h, other = conn.open("Q", ALL), conn.open("Q", ALL)
    lock = GMO(Options=CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_LOCK)
    ways = [
        (MD(), CMQC.MQGMO_NO_SYNCPOINT),
        (MD(MsgId=b"M" * 24), CMQC.MQGMO_NO_SYNCPOINT),
        (MD(), CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_LOGICAL_ORDER),
    ]
    for md, options in ways:
        h.put(b"m", MD(MsgId=b"M" * 24), NO_SYNC_PUT, now=0.0)
        assert h.get(None, MD(), lock, now=0.0) == b"m"
        assert _refusal(other, MD(), CMQC.MQGMO_NO_SYNCPOINT)[1] == CMQC.MQRC_NO_MSG_AVAILABLE
        assert h.get(None, md, GMO(Options=options), now=0.0) == b"m"


def test_a_browse_under_the_cursor_locks_only_with_mqgmo_lock_and_sees_its_own_lock() -> None:
    # MQGMO_BROWSE_MSG_UNDER_CURSOR with MQGMO_LOCK locks the message under the cursor
    # (hidden from other handles, not from this one); without MQGMO_LOCK nothing is locked.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    conn = qm.connect()
    h, other = conn.open("Q", ALL), conn.open("Q", ALL)
    h.put(b"1", MD(Expiry=1000), NO_SYNC_PUT, now=0.0)
    h.put(b"2", MD(), NO_SYNC_PUT, now=0.0)
    under = CMQC.MQGMO_BROWSE_MSG_UNDER_CURSOR
    assert h.get(None, MD(), GMO(Options=CMQC.MQGMO_BROWSE_FIRST), now=0.0) == b"1"
    assert h.get(None, MD(), GMO(Options=under), now=0.0) == b"1"
    assert other.get(None, MD(), GMO(Options=CMQC.MQGMO_BROWSE_FIRST), now=0.0) == b"1"
    assert h.get(None, MD(), GMO(Options=under | CMQC.MQGMO_LOCK), now=0.0) == b"1"
    assert h.get(None, MD(), GMO(Options=under), now=0.0) == b"1"
    assert other.get(None, MD(), GMO(Options=CMQC.MQGMO_BROWSE_FIRST), now=0.0) == b"2"
    assert h.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0) == b"1"


def test_all_msgs_available_skips_an_incomplete_group_for_a_message_not_in_one() -> None:
    # MQGMO_ALL_MSGS_AVAILABLE: "Messages in a group are not available for retrieval
    # until all of the messages in the group are available."
    qm = QMgr("QM1")
    qm.define_queue("Q", index_type=CMQC.MQIT_GROUP_ID)
    h = qm.connect().open("Q", ALL)
    first = MD(Version=2, GroupId=b"G" * 24, MsgFlags=_IN_GROUP)
    h.put(b"group", first, NO_SYNC_PUT, now=0.0)
    h.put(b"plain", MD(), NO_SYNC_PUT, now=0.0)
    whole = GMO(Options=CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_ALL_MSGS_AVAILABLE)
    assert h.get(None, MD(), whole, now=0.0) == b"plain"


def test_mqget_refusals_of_the_queue_say_which_queue_and_why() -> None:
    # MQRC_GET_INHIBITED (2016) names the queue; MQRC_Q_INDEX_TYPE_ERROR (2394, z/OS) for
    # a group option on a shared queue not indexed by GROUPID says what it needs.
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1"))
    qm.define_structure(CFStructure("APP1"))
    qm.define_queue("SHARED", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")
    qm.define_queue("LOCAL", inhibit_get=CMQC.MQQA_GET_INHIBITED)
    conn = qm.connect()
    assert _refusal(conn.open("LOCAL", ALL), MD(), CMQC.MQGMO_NO_SYNCPOINT) == (
        CMQC.MQCC_FAILED,
        CMQC.MQRC_GET_INHIBITED,
        "gets are inhibited on LOCAL",
    )
    shared = conn.open("SHARED", ALL)
    assert _refusal(shared, MD(), CMQC.MQGMO_LOGICAL_ORDER | CMQC.MQGMO_NO_SYNCPOINT) == (
        CMQC.MQCC_FAILED,
        CMQC.MQRC_Q_INDEX_TYPE_ERROR,
        "SHARED needs INDXTYPE(GROUPID) for logical order and group options",
    )


@keeps("docs/rules.md", "a warning carries it as `error.done`")
@keeps(
    "docs/reason-codes.md",
    (
        "A warning from MQPUT or MQGET carries what the call decided as `error.done` (in the unit "
        "of work or not, persistent or not), and from MQGET the data as `error.message`."
    ),
)
def test_a_group_got_in_logical_order_must_stay_in_or_out_of_the_unit_of_work() -> None:
    # MQRC_INCONSISTENT_UOW (2245) on MQGET: with LOGICAL_ORDER the call fails; without
    # it, right after a call with it, the call succeeds with MQCC_WARNING and the message.
    qm = QMgr("QM1")
    qm.define_queue("Q", index_type=CMQC.MQIT_GROUP_ID)
    h = qm.connect().open("Q", ALL)
    for flags in (_IN_GROUP, _IN_GROUP, CMQC.MQMF_LAST_MSG_IN_GROUP):
        h.put(b"m", MD(Version=2, MsgFlags=flags), PMO(Options=_LOGICAL_PUT), now=0.0)
    logical = CMQC.MQGMO_LOGICAL_ORDER
    h.get(None, MD(Version=2), GMO(Options=logical | CMQC.MQGMO_NO_SYNCPOINT), now=0.0)
    assert _refusal(h, MD(Version=2), logical | CMQC.MQGMO_SYNCPOINT) == (
        CMQC.MQCC_FAILED,
        CMQC.MQRC_INCONSISTENT_UOW,
        "a group got in logical order must be all in syncpoint or all outside",
    )
    with pytest.raises(MQMIError) as warned:
        h.get(None, MD(Version=2), GMO(Options=CMQC.MQGMO_SYNCPOINT), now=0.0)
    assert (warned.value.comp, warned.value.reason, warned.value.detail) == (
        CMQC.MQCC_WARNING,
        CMQC.MQRC_INCONSISTENT_UOW,
        "got in and outside the unit of work within one group or logical message",
    )
    assert warned.value.message == b"m" and warned.value.done == Done(True, False)


@keeps(
    "docs/rules.md",
    (
        "A handle's `put` returns what the queue manager decided (`Done`: in the unit of work or "
        "not, persistent or not), `receive` the data with it"
    ),
)
def test_mqget_says_what_it_decided_a_browse_is_never_in_the_unit_of_work() -> None:
    # A browse takes nothing: outside any unit of work whatever the message; a get with
    # MQGMO_SYNCPOINT_IF_PERSISTENT takes a persistent message in the unit of work.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    h = qm.connect().open("Q", ALL)
    h.put(b"p", MD(Persistence=CMQC.MQPER_PERSISTENT), NO_SYNC_PUT, now=0.0)
    h.put(b"n", MD(Persistence=CMQC.MQPER_NOT_PERSISTENT), NO_SYNC_PUT, now=0.0)
    browse = GMO(Options=CMQC.MQGMO_BROWSE_FIRST)
    assert h.receive(None, MD(), browse, now=0.0) == (b"p", Done(False, True))
    if_persistent = GMO(Options=CMQC.MQGMO_SYNCPOINT_IF_PERSISTENT)
    assert h.receive(None, MD(), if_persistent, now=0.0) == (b"p", Done(True, True))
    assert h.receive(None, MD(), if_persistent, now=0.0) == (b"n", Done(False, False))


def _next_in_group(
    items: list[tuple[bytes, int, int, int]], *, lock: bool = False, logical: bool = True
) -> tuple[int, str]:
    """Put ``items`` (GroupId, MsgSeqNumber, Offset, MsgFlags), get group G's first
    message in logical order, then ask for the next with a MsgId none has."""
    qm = QMgr("QM1")
    qm.define_queue("Q", index_type=CMQC.MQIT_GROUP_ID)
    h = qm.connect().open("Q", ALL)
    for group, seq, offset, flags in items:
        md = MD(Version=2, GroupId=group * 24, MsgSeqNumber=seq, Offset=offset, MsgFlags=flags)
        md.Expiry = 10_000  # a message that can expire: the peek must be given the time
        h.put(b"m", md, NO_SYNC_PUT, now=0.0)
    first = GMO(Options=CMQC.MQGMO_LOGICAL_ORDER | CMQC.MQGMO_NO_SYNCPOINT)
    if logical:
        h.get(None, MD(Version=2), first, now=0.0)
    if lock:
        h.get(None, MD(), GMO(Options=CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_LOCK), now=0.0)
    options = CMQC.MQGMO_NO_SYNCPOINT | (CMQC.MQGMO_LOGICAL_ORDER if logical else 0)
    gmo = {"Version": CMQC.MQGMO_VERSION_2}
    if not logical:
        gmo["MatchOptions"] = CMQC.MQMO_MATCH_GROUP_ID | CMQC.MQMO_MATCH_MSG_ID
    _, reason, detail = _refusal(
        h, MD(Version=2, MsgId=b"X" * 24, GroupId=b"G" * 24), options, **gmo
    )
    return reason, detail


def test_in_logical_order_a_msgid_not_the_group_s_next_message_s_is_2247_else_2033() -> None:
    # MQGMO_LOGICAL_ORDER within a group: MsgId/CorrelId must match the group's next
    # message, MQRC_MATCH_OPTIONS_ERROR (2247) when it is there but differs; when the
    # group's next message (this group, this sequence number, this offset) is not there,
    # the call finds nothing: MQRC_NO_MSG_AVAILABLE (2033). Without LOGICAL_ORDER a
    # MsgId that matches nothing is 2033 alone.
    g, in_group = b"G", CMQC.MQMF_MSG_IN_GROUP
    mismatch = (
        CMQC.MQRC_MATCH_OPTIONS_ERROR,
        "in a group, MsgId/CorrelId must match the group's next message",
    )
    assert _next_in_group([(g, 1, 0, in_group), (g, 2, 0, in_group)]) == mismatch
    assert _next_in_group([(g, 1, 0, in_group), (g, 2, 0, in_group)], lock=True) == mismatch
    nothing = CMQC.MQRC_NO_MSG_AVAILABLE
    assert _next_in_group([(g, 1, 0, in_group), (b"H", 2, 0, in_group)])[0] == nothing
    assert _next_in_group([(g, 1, 0, in_group), (g, 3, 0, in_group)])[0] == nothing
    segment = in_group | CMQC.MQMF_SEGMENT
    assert _next_in_group([(g, 1, 0, in_group), (g, 2, 5, segment)])[0] == nothing
    assert _next_in_group([(g, 1, 0, in_group)], logical=False)[0] == nothing


def test_a_handle_s_own_lock_hides_nothing_from_its_browses_and_logical_order_gets() -> None:
    # MQGMO_LOCK hides the message from other handles only: this handle's BROWSE_FIRST
    # finds it again, and in logical order a group's first or next item it locked is
    # the one it gets; the group's first item is chosen by MsgId and CorrelId as asked.
    qm = QMgr("QM1")
    qm.define_queue("Q", index_type=CMQC.MQIT_GROUP_ID)
    h = qm.connect().open("Q", ALL)
    last = CMQC.MQMF_LAST_MSG_IN_GROUP
    items = [
        (b"G", 1, b"A", b"C", _IN_GROUP),
        (b"H", 1, b"B", b"C", _IN_GROUP),
        (b"H", 2, b"E", b"D", last),
        (b"G", 2, b"F", b"C", _IN_GROUP),
    ]
    for group, seq, msg_id, correl_id, flags in items:
        md = MD(
            Version=2,
            GroupId=group * 24,
            MsgSeqNumber=seq,
            MsgId=msg_id * 24,
            CorrelId=correl_id * 24,
            MsgFlags=flags,
        )
        h.put(group + str(seq).encode(), md, NO_SYNC_PUT, now=0.0)
    lock = GMO(Options=CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_LOCK)
    assert h.get(None, MD(), lock, now=0.0) == b"G1"
    assert h.get(None, MD(), GMO(Options=CMQC.MQGMO_BROWSE_FIRST), now=0.0) == b"G1"
    logical = GMO(Options=CMQC.MQGMO_LOGICAL_ORDER | CMQC.MQGMO_NO_SYNCPOINT)
    assert h.get(None, MD(Version=2, MsgId=b"B" * 24), logical, now=0.0) == b"H1"
    wrong_correl = MD(Version=2, CorrelId=b"C" * 24)
    assert _refusal(h, wrong_correl, logical.Options)[1] == CMQC.MQRC_MATCH_OPTIONS_ERROR
    h.get(None, MD(Version=2), logical, now=0.0)  # H2
    assert h.get(None, MD(Version=2), logical, now=0.0) == b"G1"
    assert h.get(None, MD(), lock, now=0.0) == b"G2"
    assert h.get(None, MD(Version=2), logical, now=0.0) == b"G2"


def test_a_get_of_a_message_not_in_a_group_never_warns_of_a_group_s_unit_of_work() -> None:
    # 2245 on MQGET without LOGICAL_ORDER after a call with it concerns "a message of a
    # group or a segment of a logical message": a message in neither gets no warning.
    qm = QMgr("QM1")
    qm.define_queue("Q", index_type=CMQC.MQIT_GROUP_ID)
    h = qm.connect().open("Q", ALL)
    h.put(b"g", MD(Version=2, MsgFlags=_IN_GROUP), PMO(Options=_LOGICAL_PUT), now=0.0)
    h.put(b"p", MD(MsgId=b"P" * 24), NO_SYNC_PUT, now=0.0)
    logical = GMO(Options=CMQC.MQGMO_LOGICAL_ORDER | CMQC.MQGMO_NO_SYNCPOINT)
    assert h.get(None, MD(Version=2), logical, now=0.0) == b"g"
    plain = GMO(Options=CMQC.MQGMO_SYNCPOINT)
    assert h.receive(None, MD(MsgId=b"P" * 24), plain, now=0.0) == (b"p", Done(True, False))


def test_a_logical_order_browse_follows_a_group_wherever_its_items_stand() -> None:
    # MQGMO_LOGICAL_ORDER with BROWSE_NEXT: inside a group the cursor goes to the group's
    # next item, even one that stands before the first on the queue; a browse that found
    # nothing starts from the beginning; ALL_MSGS_AVAILABLE passes an incomplete group;
    # the handle's own lock hides nothing from it.
    qm = QMgr("QM1")
    qm.define_queue("Q", index_type=CMQC.MQIT_GROUP_ID)
    h = qm.connect().open("Q", ALL)
    logical = CMQC.MQGMO_LOGICAL_ORDER

    def browse(options: int) -> bytes | None:
        try:
            return h.get(None, MD(Version=2), GMO(Options=options | logical), now=0.0)
        except MQMIError as missing:
            if missing.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
                raise
            return None

    assert browse(CMQC.MQGMO_BROWSE_FIRST) is None
    items = [(b"H", 1, _IN_GROUP), (b"G", 2, CMQC.MQMF_LAST_MSG_IN_GROUP), (b"G", 1, _IN_GROUP)]
    for group, seq, flags in items:
        md = MD(Version=2, GroupId=group * 24, MsgSeqNumber=seq, MsgFlags=flags)
        h.put(group + str(seq).encode(), md, NO_SYNC_PUT, now=0.0)
    assert browse(CMQC.MQGMO_BROWSE_NEXT) == b"H1"
    assert browse(CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_ALL_MSGS_AVAILABLE) == b"G1"
    assert browse(CMQC.MQGMO_BROWSE_NEXT) == b"G2"
    assert h.get(None, MD(), GMO(Options=CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_LOCK), now=0.0)
    assert browse(CMQC.MQGMO_BROWSE_FIRST) == b"H1"


def test_a_lock_outlives_a_get_of_another_message_by_the_locking_handle() -> None:
    # MQGMO_LOCK: the locked message "becomes invisible to any other handle open for the
    # queue" until the handle unlocks it, locks another, closes, or removes it; a
    # destructive MQGET of a different message (here by MsgId) leaves the lock alone, so
    # the message stays hidden from the other handle and the locking handle still gets it.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    conn = qm.connect()
    h, other = conn.open("Q", ALL), conn.open("Q", ALL)
    h.put(b"A", MD(MsgId=b"A" * 24), NO_SYNC_PUT, now=0.0)
    h.put(b"B", MD(MsgId=b"B" * 24), NO_SYNC_PUT, now=0.0)
    lock = GMO(Options=CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_LOCK)
    assert h.get(None, MD(), lock, now=0.0) == b"A"
    by_id = GMO(Options=CMQC.MQGMO_NO_SYNCPOINT)
    assert h.get(None, MD(MsgId=b"B" * 24), by_id, now=0.0) == b"B"
    assert _refusal(other, MD(), CMQC.MQGMO_NO_SYNCPOINT)[1] == CMQC.MQRC_NO_MSG_AVAILABLE
    assert h.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0) == b"A"


def test_a_logical_browse_matching_a_group_id_ends_after_that_group_s_last_item() -> None:
    # MQGMO_LOGICAL_ORDER with MQMO_MATCH_GROUP_ID: BROWSE_NEXT goes on from the cursor;
    # after the group's last item the next browse looks past the group for another first
    # item with that GroupId, and finding none fails with MQRC_NO_MSG_AVAILABLE (2033)
    # rather than starting the same group again.
    qm = QMgr("QM1")
    qm.define_queue("Q", index_type=CMQC.MQIT_GROUP_ID)
    h = qm.connect().open("Q", ALL)
    items = [(1, _IN_GROUP), (2, CMQC.MQMF_LAST_MSG_IN_GROUP)]
    for seq, flags in items:
        md = MD(Version=2, GroupId=b"G" * 24, MsgSeqNumber=seq, MsgFlags=flags)
        h.put(b"G" + str(seq).encode(), md, NO_SYNC_PUT, now=0.0)
    browse = CMQC.MQGMO_BROWSE_NEXT | CMQC.MQGMO_LOGICAL_ORDER

    def matched() -> tuple[MD, GMO]:
        gmo = GMO(Version=2, Options=browse, MatchOptions=CMQC.MQMO_MATCH_GROUP_ID)
        return MD(Version=2, GroupId=b"G" * 24), gmo

    assert h.get(None, *matched(), now=0.0) == b"G1"
    assert h.get(None, *matched(), now=0.0) == b"G2"
    with pytest.raises(MQMIError) as ended:
        h.get(None, *matched(), now=0.0)
    assert ended.value.reason == CMQC.MQRC_NO_MSG_AVAILABLE


# ---- MQPUT's checks and output fields (engine.put's survivors) ----------------------


def _refused_put(h: Handle, body: bytes, md: MD | None = None) -> tuple[int, int, str]:
    with pytest.raises(MQMIError) as refused:
        h.put(body, md or MD(), NO_SYNC_PUT, now=0.0)
    return refused.value.comp, refused.value.reason, refused.value.detail


def test_put_inhibited_names_the_alias_or_the_queue_whose_put_is_disabled() -> None:
    # MQRC_PUT_INHIBITED (2051): "MQPUT and MQPUT1 calls are currently inhibited for the
    # queue, or for the queue to which this queue resolves" — the detail says which.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    qm.define(AliasQueue("VIA", target="Q", inhibit_put=CMQC.MQQA_PUT_INHIBITED))
    qm.define_queue("SHUT", inhibit_put=CMQC.MQQA_PUT_INHIBITED)
    conn = qm.connect()
    assert _refused_put(conn.open("VIA", OUT), b"m") == (
        CMQC.MQCC_FAILED,
        CMQC.MQRC_PUT_INHIBITED,
        "puts are inhibited on VIA",
    )
    assert _refused_put(conn.open("SHUT", OUT), b"m") == (
        CMQC.MQCC_FAILED,
        CMQC.MQRC_PUT_INHIBITED,
        "puts are inhibited on SHUT",
    )


def test_a_persistent_put_to_a_temporary_dynamic_queue_says_it_holds_nonpersistent_only() -> None:
    # MQRC_PERSISTENT_NOT_ALLOWED (2048): a temporary dynamic queue cannot hold
    # persistent messages.
    qm = QMgr("QM1")
    qm.define(
        QueueDefinition(
            "APP.TMODEL", q_type=CMQC.MQQT_MODEL, definition_type=CMQC.MQQDT_TEMPORARY_DYNAMIC
        )
    )
    h = qm.connect().open("APP.TMODEL", OUT | CMQC.MQOO_INPUT_SHARED)
    comp, reason, detail = _refused_put(h, b"m", MD(Persistence=CMQC.MQPER_PERSISTENT))
    assert (comp, reason) == (CMQC.MQCC_FAILED, CMQC.MQRC_PERSISTENT_NOT_ALLOWED)
    assert detail == f"{h.queue} is a temporary dynamic queue: it holds nonpersistent messages only"


def test_a_message_for_a_remote_queue_counts_its_mqxqh_against_the_xmitq_s_maxmsgl() -> None:
    # A message for a remote queue is stored on the transmission queue with an MQXQH in
    # front (MQXQH_LENGTH_1, 428 bytes): body and header together must fit the
    # transmission queue's MAXMSGL, else MQRC_MSG_TOO_BIG_FOR_Q (2030).
    qm = QMgr("QM1")
    qm.define_queue("QM2", usage=CMQC.MQUS_TRANSMISSION, max_msg_length=1000)
    qm.define(RemoteQueue("TO.APP", remote_name="APP.IN", remote_q_mgr_name="QM2"))
    h = qm.connect().open("TO.APP", OUT)
    fits = 1000 - CMQC.MQXQH_LENGTH_1
    h.put(b"x" * fits, MD(), NO_SYNC_PUT, now=0.0)
    assert _refused_put(h, b"x" * (fits + 1)) == (
        CMQC.MQCC_FAILED,
        CMQC.MQRC_MSG_TOO_BIG_FOR_Q,
        "1001 bytes is over MAXMSGL 1000 of QM2",
    )
    assert qm.depth("QM2") == 1


@keeps(
    "docs/rules.md",
    "**Limits**: MAXDEPTH, MAXMSGL (queue and queue manager), put/get inhibit, MQINQ, MQSET.",
)
@keeps(
    "docs/reason-codes.md",
    "MQRC_MSG_TOO_BIG_FOR_Q_MGR | a message longer than the queue manager's MAXMSGL",
)
def test_a_message_over_the_queue_manager_s_maxmsgl_is_2031_and_one_at_it_is_put() -> None:
    # MQRC_MSG_TOO_BIG_FOR_Q_MGR (2031): the message is longer than the queue manager's
    # MaxMsgLength, though the queue's own MAXMSGL would take it.
    qm = QMgr("QM1", max_msg_length=100)
    qm.define_queue("Q", max_msg_length=1000)
    h = qm.connect().open("Q", ALL)
    h.put(b"x" * 100, MD(), NO_SYNC_PUT, now=0.0)
    assert _refused_put(h, b"x" * 101) == (
        CMQC.MQCC_FAILED,
        CMQC.MQRC_MSG_TOO_BIG_FOR_Q_MGR,
        "101 bytes is over the queue manager's MAXMSGL 100",
    )
    assert qm.depth("Q") == 1


def _round_trip(md: MD, put_options: int = CMQC.MQPMO_NO_SYNCPOINT) -> MD:
    """The MQMD an MQGET returns for a message put on QM1 with ``md``."""
    qm = QMgr("QM1")
    qm.define_queue("Q")
    h = qm.connect().open("Q", ALL)
    h.put(b"m", md, PMO(Options=put_options), now=0.0)
    got = MD(Version=md.Version)
    h.get(None, got, GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0)
    return got


@pytest.mark.parametrize(
    ("field", "short", "length"),
    [("MsgId", b"A", 24), ("GroupId", b"G", 24), ("AccountingToken", b"T", 32)],
)
@keeps("docs/rules.md", "Identifiers (MsgId, CorrelId, GroupId) are always their full 24 bytes.")
def test_a_short_identifier_is_stored_padded_with_nulls_to_its_mqmd_length(
    field: str, short: bytes, length: int
) -> None:
    # MQMD: MsgId and GroupId are MQBYTE24, AccountingToken MQBYTE32: a shorter value
    # given by the application is the leading bytes of the field, the rest nulls.
    options = CMQC.MQPMO_NO_SYNCPOINT | CMQC.MQPMO_SET_IDENTITY_CONTEXT
    md = _round_trip(MD(Version=2, **{field: short}), options)
    assert getattr(md, field) == short.ljust(length, b"\x00")


def test_mqput_sets_backout_count_to_zero_whatever_the_application_gave() -> None:
    # MQMD BackoutCount: "This is an output field for the MQGET call. It is ignored for
    # the MQPUT and MQPUT1 calls" — a message starts with no backouts.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    h = qm.connect().open("Q", ALL)
    h.put(b"m", MD(BackoutCount=5), NO_SYNC_PUT, now=0.0)
    md = MD()
    h.get(None, md, GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0)
    assert md.BackoutCount == 0
    # The MQMD a message for a remote queue carries in its MQXQH is the stored one, too.
    qm.define_queue("QM2", usage=CMQC.MQUS_TRANSMISSION)
    qm.define(RemoteQueue("TO.APP", remote_name="APP.IN", remote_q_mgr_name="QM2"))
    qm.connect().open("TO.APP", OUT).put(b"m", MD(BackoutCount=5), NO_SYNC_PUT, now=0.0)
    xmitq = qm.connect().open("QM2", ALL)
    wrapped = xmitq.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0)
    assert XQH.unpack(wrapped).MsgDesc.BackoutCount == 0


def test_a_put_without_logical_order_agreeing_with_its_group_gets_no_warning() -> None:
    # 2245/2185 on MQPUT without LOGICAL_ORDER after a put with it are for a message that
    # disagrees with the group; one agreeing in unit of work and persistence is put
    # cleanly.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    h = qm.connect().open("Q", ALL)
    first = MD(Version=2, MsgFlags=_IN_GROUP)
    h.put(b"1", first, PMO(Options=_LOGICAL_PUT), now=0.0)
    nxt = MD(
        Version=2,
        GroupId=first.GroupId,
        MsgSeqNumber=2,
        MsgFlags=CMQC.MQMF_LAST_MSG_IN_GROUP,
    )
    h.put(b"2", nxt, NO_SYNC_PUT, now=0.0)  # a warning would raise MQMIError
    assert qm.depth("Q") == 2


@pytest.mark.parametrize(
    ("reply_to_q", "reply_to_q_mgr", "expected"),
    [
        (b"\x00" * 48, b"", b""),  # no ReplyToQ (nulls): nothing to fill in
        (b"X", b"", b"QM1"),  # a ReplyToQ of one letter X is a name
        (b"REPLY", b"\x00" * 48, b"QM1"),  # ReplyToQMgr of nulls is blank
        (b"REPLY", b"X", b"X"),  # a ReplyToQMgr of one letter X is a name
    ],
)
def test_a_reply_to_queue_without_its_queue_manager_gets_the_local_queue_manager_s_name(
    reply_to_q: bytes, reply_to_q_mgr: bytes, expected: bytes
) -> None:
    # MQMD ReplyToQMgr: "If ReplyToQ is nonblank and ReplyToQMgr is blank, the queue
    # manager fills in the name of the local queue manager"; blanks and nulls alike.
    md = _round_trip(MD(ReplyToQ=reply_to_q, ReplyToQMgr=reply_to_q_mgr))
    assert md.ReplyToQMgr.strip(b" \x00") == expected


def test_mqput_writes_the_context_it_set_back_into_the_callers_mqmd() -> None:
    # MQPUT's MQMD output fields: with MQPMO_DEFAULT_CONTEXT the queue manager's identity
    # and origin context are returned in the caller's MQMD, as the message holds them.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    h = qm.connect(user="alice", appl_name="PAYROLL").open("Q", ALL)
    put = MD()
    h.put(b"m", put, NO_SYNC_PUT, now=0.0)
    got = MD()
    h.get(None, got, GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0)
    for name in ("UserIdentifier", "AccountingToken", "PutApplType", "PutApplName"):
        assert getattr(put, name) == getattr(got, name), name
    assert put.PutDate == got.PutDate and put.PutTime == got.PutTime
    assert put.UserIdentifier.rstrip() == b"alice"


def test_a_priority_above_9_warns_naming_the_priority_and_the_maximum() -> None:
    # MQRC_PRIORITY_EXCEEDS_MAXIMUM (2049, warning): "The message has been put with the
    # maximum priority supported by the queue manager".
    qm = QMgr("QM1")
    qm.define_queue("Q")
    h = qm.connect().open("Q", ALL)
    with pytest.raises(MQMIError) as warned:
        h.put(b"m", MD(Priority=12), NO_SYNC_PUT, now=0.0)
    assert (warned.value.comp, warned.value.reason) == (
        CMQC.MQCC_WARNING,
        CMQC.MQRC_PRIORITY_EXCEEDS_MAXIMUM,
    )
    assert warned.value.detail == "Priority 12 was put at the maximum, 9"


# ---- Handle: what the mutants of issue 45's run showed unpinned ----------------------


def test_a_get_through_a_get_inhibited_alias_is_an_inhibit_event_naming_the_alias() -> None:
    # "Get Inhibited": QName is the queue as the application named it, the alias whose
    # GET(DISABLED) refused the call, with the application's type and name.
    qm = QMgr("QM1")
    load(
        qm,
        "ALTER QMGR INHIBTEV(ENABLED)\nDEFINE QLOCAL(SYSTEM.ADMIN.QMGR.EVENT)\n"
        "DEFINE QLOCAL(APP.OPEN)\nDEFINE QALIAS(APP.SHUT) TARGET(APP.OPEN) GET(DISABLED)",
    )
    h = qm.connect(appl_name="reader").open("APP.SHUT", CMQC.MQOO_INPUT_SHARED)
    with pytest.raises(MQMIError, match=r"MQRC_GET_INHIBITED \(2016\): gets are inhibited on"):
        h.get(None, MD(), GMO(), now=2.0)
    (event,) = qm_events(qm, "SYSTEM.ADMIN.QMGR.EVENT")
    assert event.reason == CMQC.MQRC_GET_INHIBITED
    assert event.parameters == {
        CMQC.MQCA_Q_MGR_NAME: "QM1",
        CMQC.MQCA_Q_NAME: "APP.SHUT",
        CMQC.MQIA_APPL_TYPE: CMQC.MQAT_UNIX,
        CMQCFC.MQCACF_APPL_NAME: "reader",
    }


def test_with_perfmev_disabled_a_get_counts_nothing_and_a_browse_never_counts() -> None:
    # PERFMEV(DISABLED): no statistics are kept for RESET QSTATS or the events; with it
    # enabled a browse removes nothing, so it counts no dequeue.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    h = qm.connect().open("Q", ALL)
    h.put(b"m", MD(), NO_SYNC_PUT, now=0.0)
    h.get(None, MD(), GMO(), now=1.0)
    assert qm.queue_statistics == {}
    load(qm, "ALTER QMGR PERFMEV(ENABLED)")
    h.put(b"m", MD(), NO_SYNC_PUT, now=2.0)
    h.get(None, MD(), GMO(Options=CMQC.MQGMO_BROWSE_FIRST), now=3.0)
    assert qm.queue_statistics["Q"].dequeued == 0


def test_a_get_that_fails_for_a_short_buffer_carries_no_decision() -> None:
    # MQRC_TRUNCATED_MSG_FAILED: the message stays on the queue, so the get decided
    # nothing (the error's done is None); an accepted truncation carries its decision.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    h = qm.connect().open("Q", ALL)
    h.put(b"hello", MD(), NO_SYNC_PUT, now=0.0)
    with pytest.raises(MQMIError) as failed:
        h.receive(1, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=1.0)
    assert (failed.value.reason, failed.value.done) == (CMQC.MQRC_TRUNCATED_MSG_FAILED, None)
    options = CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_ACCEPT_TRUNCATED_MSG
    with pytest.raises(MQMIError) as accepted:
        h.receive(1, MD(), GMO(Options=options), now=2.0)
    assert accepted.value.reason == CMQC.MQRC_TRUNCATED_MSG_ACCEPTED
    assert accepted.value.done is not None


@pytest.mark.parametrize(("platform", "shown"), [(CMQC.MQPL_ZOS, 255), (CMQC.MQPL_UNIX, 300)])
def test_backout_count_is_never_more_than_255_on_z_os(platform: int, shown: int) -> None:
    # BackoutCount: "On z/OS, a value of 255 means that the message has been backed out
    # 255 or more times; the value returned is never greater than 255."
    qm = QMgr("QM1", platform=platform)
    qm.define_queue("Q")
    qm.local.store.put("Q", Message(MD().get(), b"m", 0.0, None, 0, backout_count=300), None, 9)
    md = MD()
    qm.connect().open("Q", ALL).get(None, md, GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=1.0)
    assert md.BackoutCount == shown


def test_mqset_of_a_selector_that_is_not_an_integer_is_a_selector_error() -> None:
    # MQSET's Selectors are MQLONGs: 9.0 is no selector, even though 9 would be one.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    h = qm.connect().open("Q", CMQC.MQOO_SET)
    with pytest.raises(MQMIError, match=r"MQRC_SELECTOR_ERROR \(2067\)"):
        h.set(float(CMQC.MQIA_INHIBIT_PUT), CMQC.MQQA_PUT_INHIBITED)  # type: ignore[arg-type]
    assert qm.queue("Q").inhibit_put == CMQC.MQQA_PUT_ALLOWED


def test_a_persistent_mqput_to_a_shared_queue_on_a_recover_no_structure_is_2048() -> None:
    # MQRC_PERSISTENT_NOT_ALLOWED: "On z/OS, you cannot put persistent messages to a
    # shared queue if the CFSTRUCT that the queue uses is defined with RECOVER(NO)".
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1"))
    load(
        qm,
        "DEFINE CFSTRUCT(APP1) RECOVER(NO)\nDEFINE QLOCAL(APP.SQ) QSGDISP(SHARED) CFSTRUCT(APP1)",
    )
    h = qm.connect().open("APP.SQ", OUT)
    comp, reason, _ = _refused_put(h, b"m", MD(Persistence=CMQC.MQPER_PERSISTENT))
    assert (comp, reason) == (CMQC.MQCC_FAILED, CMQC.MQRC_PERSISTENT_NOT_ALLOWED)


def test_an_idle_handle_is_hstate_inactive_in_display_conn() -> None:
    # "DISPLAY CONN": HSTATE(ACTIVE) only while "an API call from a connection is
    # currently in progress for this object" (an MQGET with MQGMO_WAIT waiting on it).
    qm = QMgr("QM1")
    qm.define_queue("Q")
    qm.connect().open("Q", CMQC.MQOO_INPUT_SHARED)
    shown = commands.run(
        commands.parse("DISPLAY CONN(*) TYPE(HANDLE) ALL"), qm, lambda: status.take(qm, 0.0)
    ).text
    assert " HSTATE(INACTIVE) OBJNAME(Q) " in shown


def test_each_handle_has_its_own_store_token_and_peer_recovery_frees_its_locks() -> None:
    # The token names the handle in a shared store, queue manager first: two handles of
    # one connection hold their locks apart, and peer recovery of QM1 releases QM1's.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    conn = qm.connect()
    h, other = conn.open("Q", ALL), conn.open("Q", ALL)
    assert h.store_token != other.store_token
    h.put(b"m", MD(), NO_SYNC_PUT, now=0.0)
    h.get(None, MD(), GMO(Options=CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_LOCK), now=1.0)
    assert qm.local.store.recover("QM1", 1, by="QM2").locks == 1


# ---- QMgr: what the mutants of issue 45's run showed unpinned ------------------------


def test_a_restart_forgets_the_backout_count_of_a_nohardenbo_queue_only() -> None:
    # "Messages that are backed out": with HARDENBO the BackoutCount survives a restart
    # of the queue manager; NOHARDENBO (z/OS's default) it is 0 again.
    qm = QMgr("QM1")
    load(qm, "DEFINE QLOCAL(APP.HARD) HARDENBO\nDEFINE QLOCAL(APP.SOFT) NOHARDENBO")
    conn = qm.connect()
    for queue in ("APP.HARD", "APP.SOFT"):
        h = conn.open(queue, ALL)
        h.put(b"m", MD(Persistence=CMQC.MQPER_PERSISTENT), NO_SYNC_PUT, now=0.0)
        h.get(None, MD(), GMO(Options=CMQC.MQGMO_SYNCPOINT), now=1.0)
        conn.backout()
    qm.restart()
    counts = []
    for queue in ("APP.HARD", "APP.SOFT"):
        md = MD()
        qm.connect().open(queue, ALL).get(None, md, GMO(), now=2.0)
        counts.append(md.BackoutCount)
    assert counts == [1, 0]


def test_recovery_ids_restart_at_one_in_each_life_above_every_earlier_lifes() -> None:
    # DISPLAY CONN's QMURID grows as z/OS's log RBA does: each life's numbers start at
    # 1 above the life's own base (incarnation << 40).
    qm = QMgr("QM1")
    assert qm.new_recovery_id() == 1
    qm.restart(incarnation=3)
    assert (qm.new_recovery_id(), qm.new_recovery_id()) == ((3 << 40) | 1, (3 << 40) | 2)
    qm.restart()
    assert qm.new_recovery_id() == (3 << 40) | 1


def test_a_restart_resets_the_performance_statistics_to_its_own_time() -> None:
    # "Performance event statistics are reset when ... a queue manager stops and restarts".
    qm = QMgr("QM1")
    qm.time = 50.0
    qm.restart()
    assert (qm.statistics_since, qm.queue_statistics) == (50.0, {})


def test_deleting_a_shared_queue_deletes_it_from_the_group_and_a_private_one_stays_apart() -> None:
    # DELETE QLOCAL of a shared queue removes the group's definition (Db2's row); a
    # private queue of a member is its own.
    qsg = QueueSharingGroup("QSG1")
    qm1, qm2 = QMgr("QM1", qsg=qsg), QMgr("QM2", qsg=qsg)
    load(qm1, "DEFINE CFSTRUCT(APP1)\nDEFINE QLOCAL(APP.SQ) QSGDISP(SHARED) CFSTRUCT(APP1)")
    qm1.define_queue("APP.MINE")
    qm1.delete_queue("APP.SQ")
    assert qsg.repository.get("QUEUE", "APP.SQ") is None
    assert qm2.find("APP.SQ") is None
    qsg.repository.unavailable = "Db2 is down"  # a private queue needs no Db2
    qm1.delete_queue("APP.MINE")
    assert qm1.find("APP.MINE") is None


def test_a_failed_members_shared_handles_are_forgotten_and_its_private_ones_kept() -> None:
    # After peer recovery a failed member's handles on shared queues keep no survivor
    # out; its private queues wait for its restart.
    qsg = QueueSharingGroup("QSG1")
    qm1 = QMgr("QM1", qsg=qsg)
    load(qm1, "DEFINE CFSTRUCT(APP1)\nDEFINE QLOCAL(APP.SQ) QSGDISP(SHARED) CFSTRUCT(APP1)")
    qm1.define_queue("APP.MINE")
    conn = qm1.connect()
    shared = conn.open("APP.SQ", CMQC.MQOO_INPUT_EXCLUSIVE)
    private = conn.open("APP.MINE", CMQC.MQOO_INPUT_EXCLUSIVE)
    qm1.forget_shared_handles()
    assert shared not in shared.status.handles
    assert private in private.status.handles
    assert QMgr("QM9").forget_shared_handles() is None  # in no group: nothing to forget


def test_a_members_start_refreshes_its_copies_and_marks_it_active() -> None:
    # "Queue sharing group objects": at its start a member makes its COPY objects again
    # from the GROUP objects in the repository.
    qsg = QueueSharingGroup("QSG1")
    qm1 = QMgr("QM1", qsg=qsg)
    load(qm1, "DEFINE QLOCAL(APP.G) QSGDISP(GROUP) MAXDEPTH(7)")
    group = qsg.repository.get("QUEUE", "APP.G")
    qsg.repository.put("QUEUE", dataclasses.replace(group, max_depth=9))  # no COPY sent
    del qsg.active["QM1"]
    assert qm1.refresh_copies() == {}
    assert qsg.active["QM1"] is qm1
    assert qm1.queue("APP.G").max_depth == 9
    assert QMgr("QM9").refresh_copies() == {}


def test_an_expiry_scan_counts_the_expired_messages_of_every_queue() -> None:
    # REFRESH QMGR TYPE(EXPIRY): how many were discarded, over all the queues scanned.
    qm = QMgr("QM1")
    for queue in ("A", "B"):
        qm.define_queue(queue)
        h = qm.connect().open(queue, OUT)
        h.put(b"m", MD(Expiry=10), NO_SYNC_PUT, now=0.0)
    assert qm.scan_expired(100.0) == 2


def test_altering_a_triggered_queue_without_changing_its_triggering_writes_no_trigger_message() -> (
    None
):
    # A trigger message on ALTER only when triggering changed with its conditions met.
    qm = QMgr("QM1")
    load(
        qm,
        "DEFINE QLOCAL(APP.INITQ)\nDEFINE PROCESS(APP.PROC)\n"
        "DEFINE QLOCAL(APP.Q) TRIGGER TRIGTYPE(FIRST) INITQ(APP.INITQ) PROCESS(APP.PROC)",
    )
    initq = qm.connect().open("APP.INITQ", CMQC.MQOO_INPUT_SHARED)
    qm.connect().open("APP.Q", OUT).put(b"m", MD(), NO_SYNC_PUT, now=0.0)
    initq.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=1.0)  # the first's
    load(qm, "ALTER QLOCAL(APP.Q) DESCR('changed')")
    assert qm.depth("APP.INITQ") == 0


def test_peer_recovery_of_one_life_runs_once_and_frees_that_lifes_connection_tags_only() -> None:
    # "Peer recovery": a surviving member recovers the failed member's life once; the
    # connection tags of that life are free after it, a later life's are not.
    qsg = QueueSharingGroup("QSG1")
    qm2 = QMgr("QM2", qsg=qsg)
    store = qsg.shared.store
    option = CMQC.MQCNO_SERIALIZE_CONN_TAG_QSG
    for life in (1, 2):
        use = TagUse(b"TAG%d" % life, "QM1", life, 1, option, "QSG1")
        assert store.claim_conn_tag(use, 0)
    outcome = qm2.recover_peer("QM1", 1)
    assert (outcome.by, outcome.ran) == ("QM2", True)
    assert not qm2.recover_peer("QM1", 1).ran
    assert store.conn_tags(b"TAG1") == (2, ())  # each claim and release a new version
    assert len(store.conn_tags(b"TAG2").uses) == 1
    later = TagUse(b"TAG2", "QM1", 2, 1, option, "QSG1")
    store.release_conn_tag(later)
    assert store.conn_tags(b"TAG2") == (2, ())
    store.release_conn_tag(later)  # not held (any more): nothing changes
    store.release_conn_tag(TagUse(b"TAG9", "QM1", 2, 1, option, "QSG1"))
    assert (store.conn_tags(b"TAG2"), store.conn_tags(b"TAG9")) == ((2, ()), (0, ()))
    assert qm2.recover_peer("QM1", 2).ran


def test_a_new_queue_manager_shows_ibms_defaults_and_its_start_as_its_alteration() -> None:
    # "ALTER QMGR": IGQAUT(DEF), IGQUSER blank, SQQMNAME(USE); INHIBTEV, AUTHOREV and
    # CHLEV DISABLED; ALTDATE and ALTTIME the run's start until an ALTER QMGR.
    qm = QMgr("QM1", epoch=datetime(2026, 1, 2, 3, 4, 5))
    shown = commands.run(
        commands.parse(
            "DISPLAY QMGR IGQAUT IGQUSER SQQMNAME INHIBTEV AUTHOREV CHLEV ALTDATE ALTTIME"
        ),
        qm,
        lambda: status.take(qm, 0.0),
    ).text.splitlines()[1]
    for word in (
        "IGQAUT(DEF)",
        "IGQUSER()",
        "SQQMNAME(USE)",
        "INHIBTEV(DISABLED)",
        "AUTHOREV(DISABLED)",
        "CHLEV(DISABLED)",
        "ALTDATE(2026-01-02)",
        "ALTTIME(03.04.05)",
    ):
        assert f" {word}" in shown, (word, shown)


@keeps(
    "docs/coupling-facility.md",
    "ASQMGR (a structure's default) takes the queue manager's CFCONLOS (TERMINATE by default).",
)
def test_a_new_queue_manager_ends_on_losing_a_structure_by_cfconlos_terminate() -> None:
    # "ALTER QMGR": CFCONLOS(TERMINATE) is the default; a structure's ASQMGR takes it,
    # and the administration structure is the queue manager's CFCONLOS alone.
    qm = QMgr("QM1")
    assert conlos.terminates([CFStructure("APP1")], qm.cf_conlos, False)
    assert conlos.terminates([], qm.cf_conlos, True)


def test_shared_definitions_are_rows_of_the_group_repository_and_private_ones_are_not() -> None:
    # A QSGDISP(SHARED) queue and a CF structure are the group's (Db2's rows); a private
    # queue of a member is not; a member of a group is active in it from its start.
    qsg = QueueSharingGroup("QSG1")
    qm = QMgr("QM1", qsg=qsg)
    assert qsg.active["QM1"] is qm
    load(qm, "DEFINE CFSTRUCT(APP1)\nDEFINE QLOCAL(APP.SQ) QSGDISP(SHARED) CFSTRUCT(APP1)")
    qm.define_queue("APP.MINE")
    assert qsg.repository.get("CFSTRUCT", "APP1") is not None
    assert qsg.repository.get("QUEUE", "APP.SQ") == qm.queue("APP.SQ")
    assert qsg.repository.get("QUEUE", "APP.MINE") is None


def test_with_no_connection_tag_waiting_release_pending_says_none_is_left() -> None:
    # The channel initiator asks until none is left; a queue manager that never missed
    # the registry has none waiting.
    assert QMgr("QM1").release_pending() is True


def test_with_db2_down_a_shared_queue_is_refused_whole_and_a_private_one_defined() -> None:
    # MQRC_DB2_NOT_AVAILABLE (2342): a shared queue's definition is Db2's, so nothing of
    # it is made; a member's private queue needs no Db2.
    qsg = QueueSharingGroup("QSG1")
    qm = QMgr("QM1", qsg=qsg)
    load(qm, "DEFINE CFSTRUCT(APP1)")
    qsg.repository.unavailable = "Db2 is down"
    shared = QueueDefinition("APP.SQ", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")
    with pytest.raises(MQMIError, match=r"\(2342\)"):
        qm.define(shared)
    assert qm.find("APP.SQ") is None
    qm.define_queue("APP.MINE")
    assert qm.find("APP.MINE") is not None


def test_a_member_losing_a_structure_gives_back_its_work_and_locks_there_only() -> None:
    # CFCONLOS(TOLERATE), "Loss of connectivity": peer recovery of the member's
    # connection to the structure backs out its units' work on the structure's queues
    # (puts vanish, gets come back with BackoutCount + 1) and frees its locks there; its
    # units cannot commit; another structure's queues and other members keep theirs.
    store = MemoryStore()
    store.define_structure("S1", size_kb=1000, cf_level=5)
    store.define_structure("S2", size_kb=1000, cf_level=5)
    store.create_queue("A", Ordering.FIFO, "S1")
    store.create_queue("B", Ordering.FIFO, "S2")
    for queue in ("A", "A", "A", "B"):
        store.put(queue, _msg(), None, 100)
    store.put("B", _msg(), ("QM1", 0), 100)  # a unit with no work on S1
    gone = ("QM1", 1)
    store.put("A", _msg(), gone, 100)
    taken = store.get("A", SELECT_ANY, 0.0, gone, Syncpoint.YES, None, False)
    assert taken.message is not None
    store.put("B", _msg(), gone, 100)
    store.put("A", _msg(), ("QM2", 1), 100)
    store.lock("A", 2, _Owner("QM1/7"))
    store.lock("A", 3, _Owner("QM10/1"))  # another queue manager, whose name begins alike
    store.lock("B", 1, _Owner("QM1/7"))
    assert store.disconnect_structure("QM1", "S1") == (1, 2)
    assert (store.depth("A"), store.uncommitted("A")) == (4, 1)  # QM2's put is left
    assert (store.depth("B"), store.uncommitted("B")) == (3, 2)  # on S2: untouched
    store.backout(("QM1", 0))  # another unit's MQBACK leaves the lost unit's reason
    assert store.backed_out(gone) == (
        "QM1 lost connectivity to CF structure S1 while the unit of work had work on "
        "it: peer recovery backed that work out"
    )
    assert store.backed_out(("QM1", 0)) is None and store.backed_out(("QM2", 1)) is None
    assert (sorted(store._queues["A"].locks), sorted(store._queues["B"].locks)) == ([3], [1])
    store.backout(gone)  # MQBACK: what is left of the unit, its put on B
    assert (store.depth("A"), store.depth("B"), store.uncommitted("B")) == (4, 1, 0)
    back = store.get("A", SELECT_ANY, 0.0, None, Syncpoint.NO, None, False).message
    assert back is not None and back.backout_count == 1
    assert store.disconnect_structure("QM9", "S1") == (0, 0)


def test_a_recovered_structure_rebuilds_each_messages_group_and_expiry_and_its_usage() -> None:
    # RECOVER CFSTRUCT: the persistent messages come back from the backup at their own
    # keys, still in their groups (MQGMO_ALL_MSGS_AVAILABLE and MQMO_MATCH_GROUP_ID find
    # them), still expiring, and counted in the structure's entries again.
    store = MemoryStore()
    store.define_structure("S1", size_kb=1000, cf_level=5)
    store.define_structure("S2", size_kb=1000, cf_level=5)
    store.create_queue("B", Ordering.FIFO, "S2")  # another structure's, listed first
    store.create_queue("A", Ordering.FIFO, "S1")
    group = b"G" * 24
    grouped = MD(Persistence=1, GroupId=group, MsgSeqNumber=2, MsgFlags=CMQC.MQMF_MSG_IN_GROUP)
    store.put("A", Message(grouped.get(), b"x", 0.0, None, 0), None, 100)
    store.put("A", Message(MD(Persistence=1).get(), b"y", 0.0, 500.0, 0), None, 100)
    before = store.structure_usage("S1")
    store.backup_structure("S1", 10.0, 0.0)
    store.fail_structure("S1", 20.0)
    assert store.recover_structure("S1", purge=False) == (2, 0, 0)
    q = store._queues["A"]
    assert (q.groups, q.expiry, store.depth("A")) == ({group: {(2, 0): 1}}, [(500.0, 2)], 2)
    assert q.offloaded == set()  # small messages: in the structure, never offloaded
    assert store.structure_usage("S1") == before
    store.put("A", Message(MD(Persistence=1).get(), b"z", 30.0, None, 0), None, 100)
    assert sorted(q.msgs) == [1, 2, 3]  # numbering goes on after the restored keys
    store.fail_structure("S1", 40.0)
    assert store.recover_structure("S1", purge=True) == (0, 0, 0)  # the log is not read
    assert store.depth("A") == 0


def test_a_stores_contents_are_its_committed_messages_not_uncommitted_puts() -> None:
    # What backing out every unit of work would leave: the chaos checkers' final state.
    store = _store("Q")
    store.put("Q", Message(MD(MsgId=b"1" * 24).get(), b"x", 0.0, None, 0), None, 100)
    store.put("Q", Message(MD(MsgId=b"2" * 24).get(), b"x", 0.0, None, 0), "uow", 100)
    assert store.contents("Q") == [b"1" * 24]


def test_the_audit_finds_a_structures_count_and_a_units_entry_gone_wrong() -> None:
    # The store's invariants, recounted from its messages: a structure's entries and
    # elements are its queues' messages; a unit of work's entry is the queue's holder.
    store = MemoryStore()
    store.define_structure("S1", size_kb=1000, cf_level=5)
    store.create_queue("A", Ordering.FIFO, "S1")
    store.put("A", _msg(), None, 100)
    store.put("A", _msg(), "uow", 100)
    taken = store.get("A", SELECT_ANY, 0.0, "uow", Syncpoint.YES, None, False)
    assert taken.message is not None and store.audit() == []
    usage = store.structure_usage("S1")
    store._structures["S1"].entries += 1
    store._queues["A"].pending[2] = "other"
    store._queues["A"].held[1] = "other"
    assert store.audit() == [
        "queue A: message 2 is held for unit of work 'other', which has no entry for it",
        "queue A: message 1 is held for unit of work 'other', which has no entry for it",
        "queue A: unit of work 'uow' has message 2 as its put, which the queue holds for 'other'",
        "queue A: unit of work 'uow' has message 1 as its get, which the queue holds for 'other'",
        f"CF structure S1: {usage['entries'] + 1} entries and {usage['elements']} elements "
        f"in use, but its queues' messages take {usage['entries']} and {usage['elements']}",
    ]


def test_the_audit_names_each_broken_invariant_of_a_queue() -> None:
    # Each of a queue's derived structures recounted from its messages: the visible
    # order, the units of work's, the depth, the locks, the numbering, the expiry and
    # group indexes, the CF structure's charges.
    store = _store("Q")
    store.put("Q", _msg(), None, 100)  # message 1
    store.put("Q", _msg(), "u", 100)  # message 2, uncommitted
    q = store._queues["Q"]
    q.order.add(2)
    q.depth += 1
    q.pending[99] = "ghost"
    q.msgs[50] = Message(MD().get(), b"x", 0.0, 9.0, 0, seq=50)
    q.locks[77] = "h"
    q.msgs[1].desc["GroupId"] = b"G" * 24
    q.groups[b"H" * 24] = {}
    q.groups[b"J" * 24] = {(1, 0): 1}
    q.charged[1] = 1
    assert store.audit() == [
        "queue Q: message 2 is visible and an uncommitted put",
        "queue Q: message 99 is listed but not stored",
        "queue Q: message 50 is neither visible nor in a unit of work",
        "queue Q: depth 3, but 2 visible messages and 2 uncommitted puts",
        "queue Q: message 99 is held for unit of work 'ghost', which has no entry for it",
        "queue Q: a lock names message 77, which is not stored",
        "queue Q: message 1 of a group is not in the group index",
        "queue Q: message 50 is numbered 50, past the last number 2",
        "queue Q: message 50 expires at 9.0, which the expiry index lacks",
        f"queue Q: group {(b'H' * 24).hex()} is indexed with no message",
        f"queue Q: the group index has (1, 0) of {(b'J' * 24).hex()} at message 1, not of it",
        "queue Q: charges messages to a CF structure it is not on",
    ]


def test_a_structure_refuses_a_large_message_below_cflevel_4_and_any_when_full() -> None:
    # MQRC_WRONG_CF_LEVEL (2366): a message over 63 KB needs CFLEVEL(4) or more;
    # MQRC_STORAGE_MEDIUM_FULL (2192): no entry or element left for the message.
    store = MemoryStore()
    store.define_structure("S3", size_kb=100_000, cf_level=3)
    store.create_queue("A", Ordering.FIFO, "S3")
    big = Message(MD().get(), b"x" * 70_000, 0.0, None, 0)
    with pytest.raises(MQMIError) as refused:
        store.put("A", big, None, 100)
    assert (refused.value.reason, refused.value.detail) == (
        CMQC.MQRC_WRONG_CF_LEVEL,
        "a message of 70000 bytes is over 63 KB: CF structure S3 of A is CFLEVEL(3), 4 or "
        "more is needed",
    )
    store.define_structure("TINY", size_kb=1, cf_level=5)
    store.create_queue("B", Ordering.FIFO, "TINY")
    full = _first_refusal(lambda: store.put("B", _msg(), None, 10_000))
    assert (full.reason, full.detail) == (
        CMQC.MQRC_STORAGE_MEDIUM_FULL,
        "CF structure TINY is full (all its entries or elements are in use); putting to B",
    )


def _first_refusal(call: Callable[[], None]) -> MQMIError:
    """The MQMIError ``call`` raises within a thousand calls."""
    for _ in range(1000):
        try:
            call()
        except MQMIError as error:
            return error
    raise AssertionError("never refused")


def test_the_audit_of_a_structures_queues_passes_them_whole_and_names_what_broke() -> None:
    # Two queues' messages on one structure, one of them in a group: nothing wrong;
    # then one message both visible and in two units of work, a charge off by one and an
    # offloaded message that is not stored.
    store = MemoryStore()
    store.define_structure("S1", size_kb=1000, cf_level=5)
    store.create_queue("A", Ordering.FIFO, "S1")
    store.create_queue("C", Ordering.FIFO, "S1")
    grouped = MD(GroupId=b"G" * 24, MsgSeqNumber=1, MsgFlags=CMQC.MQMF_MSG_IN_GROUP)
    store.put("A", Message(grouped.get(), b"x", 0.0, None, 0), None, 100)
    store.put("C", Message(MD().get(), b"y", 0.0, None, 0), None, 100)
    assert store.audit() == []
    q = store._queues["A"]
    q.held[1], q.pending[1] = "x", "y"
    q.charged[1] += 1
    q.offloaded.add(99)
    assert store.audit() == [
        "queue A: message 1 is visible and an uncommitted put",
        "queue A: message 1 is visible and an uncommitted get",
        "queue A: message 1 is an uncommitted put and get",
        "queue A: depth 1, but 1 visible messages and 1 uncommitted puts",
        "queue A: message 1 is held for unit of work 'y', which has no entry for it",
        "queue A: message 1 is held for unit of work 'x', which has no entry for it",
        "queue A: message 99 is offloaded but not stored",
        "queue A: message 1 is charged 2 elements, and takes 1",
        "CF structure S1: 2 entries and 2 elements in use, but its queues' messages take 2 and 3",
    ]


def test_the_audit_charges_an_offloaded_message_no_elements_and_names_four_more_breaks() -> None:
    # An offloaded message's data lies in the SMDS: its entry takes no data elements, a
    # message kept whole takes its body's. Then a message in two units of work, one keyed
    # apart from its priority, a charge of a message not stored and stale offload rules.
    store = MemoryStore()
    store.define_structure("S1", size_kb=100_000, cf_level=5)
    store.create_queue("A", Ordering.PRIORITY, "S1")
    store.put("A", Message(MD().get(), b"x" * 70_000, 0.0, None, 0), None, 100)
    store.put("A", Message(MD().get(), b"y" * 300, 0.0, None, 0), "u", 100)
    q = store._queues["A"]
    big, small = sorted(q.msgs)
    assert q.offloaded == {big} and store.audit() == []
    store._uows["v"] = [("A", small, 0)]
    q.msgs[big].priority = 9
    q.charged = {98: 5, **q.charged}
    q.charged[small] += 1
    store._structures["S1"].calm = (-1, -1)
    assert store.audit() == [
        f"queue A: message {small} is in two unit-of-work entries",
        f"queue A: message {small} is held for unit of work 'u', which has no entry for it",
        f"queue A: message {big} is keyed apart from its priority 9 and number 1",
        "queue A: charges 3 messages to its CF structure, and stores 2",
        f"queue A: message {small} is charged 3 elements, and takes 2",
        f"queue A: unit of work 'v' has message {small} as its put, which the queue holds for 'u'",
        "CF structure S1: 2 entries and 3 elements in use, but its queues' messages take 3 and 9",
        "CF structure S1: its offload rules' first threshold is stale",
    ]


def test_browsing_a_whole_logical_message_reads_each_offloaded_segment_from_the_smds() -> None:
    # An offloaded message's data lies in the SMDS: a browse reads it there, once a
    # message, and MQGMO_COMPLETE_MSG once per offloaded segment, the browsing handle's
    # own lock on a segment not hiding it.
    store = MemoryStore()
    store.define_structure("S1", size_kb=100_000, cf_level=5)
    store.create_queue("Q", Ordering.FIFO, "S1")
    big = b"x" * 70_000  # over 63 KB: always offloaded
    parts = ((CMQC.MQMF_SEGMENT, 0, big), (CMQC.MQMF_SEGMENT, 70_000, b"cd"))
    for flags, offset, body in (*parts, (CMQC.MQMF_LAST_SEGMENT, 70_002, big)):
        desc = MD(Version=2, GroupId=b"G" * 24, MsgFlags=flags, Offset=offset).get()
        store.put("Q", Message(desc, body, 0.0, None, 0), None, 100)
    first = store.browse("Q", None, SELECT_ANY, 0.0)
    store.browse("Q", None, SELECT_ANY, 0.0)
    assert store.smds_reads == 2 and first.position is not None
    holder = object()
    store.lock("Q", first.position, holder)
    whole = store.browse("Q", None, Select(handle=holder, complete=True), 0.0).message
    assert whole is not None and whole.body == big + b"cd" + big
    assert store.smds_reads == 4


def test_peer_recovery_counts_every_connection_tag_of_the_failed_lives_it_frees() -> None:
    # "Peer recovery" frees the connection tags of the failed member's ended lives, each
    # tag its own use: the count is of uses over every tag, a later life's kept.
    store = MemoryStore()
    option = CMQC.MQCNO_SERIALIZE_CONN_TAG_QSG
    for tag, life in ((b"A", 1), (b"B", 1), (b"C", 2)):
        assert store.claim_conn_tag(TagUse(tag, "QM1", life, 1, option, "QSG1"), 0)
    assert store.release_conn_tags("QM1", 2) == 2
    assert [len(store.conn_tags(tag).uses) for tag in (b"A", b"B", b"C")] == [0, 0, 1]


def test_a_structures_image_moves_its_queues_messages_and_failure_to_another_store() -> None:
    # A rebuild into another facility (qsg.core.router): the other store holds the
    # structure's queues as they were, in place of its own on it, the lock holders the
    # same handles; a copy, so the first store's later puts stay its own; a failed
    # structure's queues are failed there too (MQRC_CF_STRUC_FAILED), until an active
    # image comes back.
    source, target = MemoryStore(), MemoryStore()
    for store in (source, target):
        store.define_structure("S1", size_kb=1000, cf_level=5)
        store.define_structure("S2", size_kb=1000, cf_level=5)
    source.create_queue("A", Ordering.FIFO, "S1")
    target.create_queue("OLD", Ordering.FIFO, "S1")
    target.create_queue("KEEP", Ordering.FIFO, "S2")
    source.put("A", _msg(), None, 100)
    holder = object()
    source.lock("A", next(iter(source._queues["A"].msgs)), holder)
    active = source.export_structure("S1")
    target.import_structure("S1", source.export_structure("S1"))
    source.put("A", _msg(), None, 100)
    assert (source.depth("A"), target.depth("A"), target.depth("KEEP")) == (2, 1, 0)
    assert list(target._queues["A"].locks.values()) == [holder]
    with pytest.raises(KeyError, match="OLD"):
        target.depth("OLD")
    source.fail_structure("S1", 1.0)
    target.import_structure("S1", source.export_structure("S1"))
    with pytest.raises(MQMIError) as failed:
        target.depth("A")
    assert (failed.value.reason, failed.value.detail) == (
        CMQC.MQRC_CF_STRUC_FAILED,
        "CF structure S1 of queue A has failed: RECOVER CFSTRUCT(S1) (or, for RECOVER(NO), "
        "the next MQOPEN) brings it back",
    )
    target.import_structure("S1", active)
    assert target.depth("A") == 1 and target._queues.failed == {} and target.audit() == []


def test_another_handles_lock_on_a_segment_or_group_member_hides_the_whole_from_a_get() -> None:
    # MQGMO_COMPLETE_MSG and MQGMO_ALL_MSGS_AVAILABLE take a logical message or group
    # only when all of it is there; a message another handle locked is not there for
    # this one, the handle's own lock hides nothing from it.
    store = _store("S", "G")
    for queue, flags, seq, offset in (
        ("S", CMQC.MQMF_SEGMENT, 1, 0),
        ("S", CMQC.MQMF_LAST_SEGMENT, 1, 2),
        ("G", CMQC.MQMF_MSG_IN_GROUP, 1, 0),
        ("G", CMQC.MQMF_LAST_MSG_IN_GROUP, 2, 0),
    ):
        md = MD(Version=2, GroupId=b"G" * 24, MsgFlags=flags, MsgSeqNumber=seq, Offset=offset)
        store.put(queue, Message(md.get(), b"ab", 0.0, None, 0), None, 100)
    holder, other = object(), object()
    for queue in ("S", "G"):
        store.lock(queue, 2, holder)  # the second segment, the group's last message
    complete, whole_group = (
        Select(handle=other, complete=True),
        Select(handle=other, whole_group=True),
    )
    assert store.browse("S", None, complete, 0.0).message is None
    assert store.browse("G", None, whole_group, 0.0).message is None
    found = store.browse("G", None, Select(handle=holder, whole_group=True), 0.0).message
    assert found is not None and found.desc["MsgSeqNumber"] == 1


def test_a_complete_browse_passes_expired_and_later_segments_to_the_first_segment() -> None:
    # "Expiry (MQLONG)": a browse discards the expired messages it passes; MQGMO_COMPLETE_MSG
    # takes a logical message at its first segment, passing a later one met first; a
    # browse after a cursor reads on from it.
    store = _store("Q")
    for flags, offset, body, expires in (
        (0, 0, b"gone", 1.0),
        (CMQC.MQMF_LAST_SEGMENT, 2, b"cd", None),
        (CMQC.MQMF_SEGMENT, 0, b"ab", None),
        (0, 0, b"plain", None),
    ):
        md = MD(
            Version=2, GroupId=(b"G" * 24 if flags else b"\0" * 24), MsgFlags=flags, Offset=offset
        )
        store.put("Q", Message(md.get(), body, 0.0, expires, 0), None, 100)
    taken = store.browse("Q", None, Select(handle=object(), complete=True), 5.0)
    assert taken.message is not None and taken.message.body == b"abcd" and taken.position == 3
    assert [m.body for m in taken.discarded] == [b"gone"]
    after = store.browse("Q", 3, SELECT_ANY, 5.0).message
    assert after is not None and after.body == b"plain"


def test_a_recovered_structure_keeps_its_offloaded_messages_offloaded() -> None:
    # RECOVER CFSTRUCT rebuilds the structure's messages as they were: an offloaded
    # message, from the backup or from the log since, has its data in the SMDS still
    # and takes no data elements in the structure.
    store = MemoryStore()
    store.define_structure("S1", size_kb=100_000, cf_level=5)
    store.create_queue("A", Ordering.FIFO, "S1")
    big = Message(MD(Persistence=1).get(), b"x" * 70_000, 0.0, None, 0)
    store.put("A", big, None, 100)
    store.backup_structure("S1", 10.0, 0.0)
    store.put("A", dataclasses.replace(big), None, 100)
    store.fail_structure("S1", 20.0)
    store.recover_structure("S1", purge=False)
    assert store._queues["A"].offloaded == {1, 2} and store.audit() == []


def test_a_unit_of_work_with_work_on_a_failed_structure_is_told_so_before_its_backout() -> None:
    # MQRC_BACKED_OUT: a unit of work that had work on a CF structure that failed can
    # only back out; MQCMIT's prepare learns it first, and the backout after; a unit of
    # work with nothing there is told nothing.
    store = MemoryStore()
    store.define_structure("S1", size_kb=1000, cf_level=5)
    store.create_queue("A", Ordering.FIFO, "S1")
    store.put("A", _msg(persistent=True), "u", 100)
    store.fail_structure("S1", 1.0)
    lost = store.prepare("u")
    assert lost is not None and "S1" in lost
    assert (store.prepare("other"), store.backed_out("other")) == (None, None)
    assert store.backed_out("u") == lost


def test_an_offloaded_expiring_message_got_leaves_no_smds_entry_nor_expiry_to_scan() -> None:
    # A message got is gone from the structure, its SMDS data with it, and the expiry
    # scan no longer finds it worth a scan; a structure the store lacks is named.
    store = MemoryStore()
    store.define_structure("S1", size_kb=100_000, cf_level=5)
    store.create_queue("A", Ordering.FIFO, "S1")
    store.put("A", Message(MD().get(), b"x" * 70_000, 0.0, 100.0, 0), None, 100)
    assert _got(store, "A") is not None
    assert not store.worth_scanning("A", 200.0) and store.audit() == []
    with pytest.raises(ValueError, match="no CF structure NOPE in this store"):
        store.fail_structure("NOPE", 1.0)


def test_a_queue_on_a_structure_never_defined_is_counted_on_it_without_limits() -> None:
    # The store alone (a queue manager defines every structure first, as MQSC's CFSTRUCT
    # must name one): a queue's structure comes into being with the queue, unlimited.
    store = MemoryStore()
    store.create_queue("A", Ordering.FIFO, "S9")
    store.put("A", Message(MD().get(), b"x" * 70_000, 0.0, None, 0), None, 100)
    usage = store.structure_usage("S9")
    assert (usage["entries"], usage["max_entries"]) == (1, 0)  # 0: no limit


def _grouped(
    store: MemoryStore, queue: str, group: bytes, flags: int, seq: int, offset: int
) -> None:
    desc = MD(Version=2, GroupId=group, MsgFlags=flags, MsgSeqNumber=seq, Offset=offset).get()
    store.put(queue, Message(desc, b"ab", 0.0, None, 0), None, 100)


def test_a_get_matching_offset_or_sequence_without_the_group_id_scans_the_queue() -> None:
    # MQMO_MATCH_MSG_SEQ_NUMBER and MQMO_MATCH_OFFSET may be asked without
    # MQMO_MATCH_GROUP_ID (and the group with the offset only): the group index, which
    # needs all three, does not answer for them.
    store = _store("Q")
    _grouped(store, "Q", b"G" * 24, CMQC.MQMF_MSG_IN_GROUP, 2, 0)
    _grouped(store, "Q", b"G" * 24, CMQC.MQMF_LAST_MSG_IN_GROUP, 3, 0)
    for match, seq in (
        (Match(msg_seq_number=3, offset=0), 3),
        (Match(group_id=b"G" * 24, offset=0), 2),
    ):
        found = store.browse("Q", None, Select(match=match), 0.0).message
        assert found is not None and found.desc["MsgSeqNumber"] == seq, match


def test_a_group_or_logical_message_missing_a_part_is_not_whole() -> None:
    # MQGMO_ALL_MSGS_AVAILABLE: a group only when every logical message from 1 to its
    # last is there; MQGMO_ALL_SEGMENTS_AVAILABLE and COMPLETE_MSG: a logical message
    # only when every segment to its last is there. A message whose group the index does
    # not hold (GroupId MQGI_NONE with group or segment flags) is not whole either.
    store = _store("G", "S", "N")
    _grouped(store, "G", b"G" * 24, CMQC.MQMF_LAST_MSG_IN_GROUP, 2, 0)  # no message 1
    _grouped(store, "S", b"A" * 24, CMQC.MQMF_SEGMENT, 1, 0)  # no last segment
    _grouped(store, "S", b"B" * 24, CMQC.MQMF_LAST_SEGMENT, 1, 0)  # whole by itself
    _grouped(store, "N", CMQC.MQGI_NONE, CMQC.MQMF_MSG_IN_GROUP | CMQC.MQMF_SEGMENT, 1, 0)
    assert store.browse("G", None, Select(whole_group=True), 0.0).message is None
    for select in (Select(whole_message=True), Select(complete=True)):
        found = store.browse("S", None, select, 0.0).message
        assert found is not None and found.desc["GroupId"] == b"B" * 24, select
    for select in (Select(whole_group=True), Select(whole_message=True)):
        assert store.browse("N", None, select, 0.0).message is None, select


def test_a_member_losing_a_structure_gives_back_only_its_own_units_work() -> None:
    # Peer recovery of a member's connection to a structure: its units of work there,
    # whichever units of others come first; a lock held by something else than a handle
    # (no connection's token) is no member's, and stays.
    store = MemoryStore()
    store.define_structure("S1", size_kb=1000, cf_level=5)
    store.create_queue("A", Ordering.FIFO, "S1")
    store.put("A", _msg(), "batch", 100)
    store.put("A", _msg(), ("QM2", 1), 100)
    store.put("A", _msg(), ("QM1", 1), 100)
    store.put("A", _msg(), None, 100)
    holder = object()
    store.lock("A", next(iter(store._queues["A"].order)), holder)
    assert store.disconnect_structure("QM1", "S1") == (1, 1)
    assert store.uncommitted("A") == 2 and list(store._queues["A"].locks.values()) == [holder]


def test_the_audit_names_a_unit_of_works_wrong_entry_after_a_deleted_queues() -> None:
    # The audit passes the entries of a deleted queue by (commit and backout do), and
    # reads on: a later entry the queue holds for another unit of work is named.
    store = _store("GONE", "Q")
    store.put("GONE", _msg(), "u1", 100)
    store.put("Q", _msg(), "u1", 100)
    store.delete_queue("GONE")
    q = store._queues["Q"]
    key = next(iter(q.pending))
    q.pending[key] = "u2"
    assert (
        f"queue Q: unit of work 'u1' has message {key} as its put, which the queue holds for 'u2'"
        in store.audit()
    )


def test_the_audit_names_a_key_twice_in_a_queues_visible_order() -> None:
    store = _store("Q")
    store.put("Q", _msg(), None, 100)
    q = store._queues["Q"]
    key = q.order[0]
    q.order.add(key)
    assert f"queue Q: its visible order holds a key twice: {[key, key]}" in store.audit()


def test_a_structure_a_queue_named_before_its_definition_keeps_its_name() -> None:
    # DEFINE CFSTRUCT after a queue of the store named the structure: the definition's
    # CFLEVEL applies, and its 2366 names the structure.
    store = MemoryStore()
    store.create_queue("Q", Ordering.FIFO, "S1")
    store.define_structure("S1", size_kb=1000, cf_level=3)
    with pytest.raises(MQMIError, match=r"CF structure S1 of Q is CFLEVEL\(3\)") as refused:
        store.put("Q", Message(MD().get(), b"x" * 70_000, 0.0, None, 0), None, 100)
    assert refused.value.reason == CMQC.MQRC_WRONG_CF_LEVEL


def test_an_import_into_a_store_without_the_structure_leaves_its_other_queues_and_units() -> None:
    # A structure's image imported where it was never defined (the administration store
    # that holds a structure with no facility left) replaces nothing: the store's queues
    # on no structure, whose ``structure`` is None as the missing instance is, stay, with
    # their units of work. (They were deleted with the "instance replaced".)
    admin, source = MemoryStore(), MemoryStore()
    admin.create_queue("PLAIN", Ordering.FIFO)
    admin.put("PLAIN", _msg(), ("QM1", 1), 10)
    source.define_structure("S", size_kb=1024, cf_level=5)
    source.create_queue("Q", Ordering.FIFO, "S")
    admin.import_structure("S", source.export_structure("S"))
    assert (admin.depth("PLAIN"), admin.uncommitted("PLAIN"), admin.depth("Q")) == (1, 1, 0)
    assert admin.prepare(("QM1", 1)) is None


class _Chooser:
    """The run's random as ``groupaddress.choose`` sees it: records what it was offered
    and takes the last."""

    def __init__(self) -> None:
        self.offered: list[list[str]] = []

    def choice(self, seq: Sequence[str]) -> str:
        self.offered.append(list(seq))
        return seq[-1]


def test_the_group_address_draws_among_the_sorted_listeners_and_takes_one_alone() -> None:
    # "Defining a TCP connection for a queue sharing group": the network picks a member
    # whose group listener runs; qsg draws uniformly from the run's random among them,
    # sorted so that a seed draws alike whatever order they came in; one alone is taken
    # without a draw, none is None.
    rng = _Chooser()
    assert groupaddress.choose(["QM3", "QM1", "QM2", "QM1"], rng) == "QM3"
    assert rng.offered == [["QM1", "QM2", "QM3"]]
    assert groupaddress.choose(["QM2", "QM2"], rng) == "QM2" and len(rng.offered) == 1
    assert groupaddress.choose([], rng) is None and len(rng.offered) == 1
    assert groupaddress.nobody_listens("QSG1(1414)", "QSG1") == (
        "AMQ9202E: Remote host 'QSG1(1414)' not available, retry later (no member of QSG1 "
        "has a group listener running, INDISP(GROUP))"
    )


def test_cfconlos_is_the_structures_unless_asqmgr_and_below_cflevel_5_always_terminate() -> None:
    # "DEFINE CFSTRUCT" CFCONLOS: TERMINATE, TOLERATE, or ASQMGR (the queue manager's
    # CFCONLOS); below CFLEVEL(5) a loss ends the member; the administration structure's
    # loss follows the queue manager's CFCONLOS alone.
    terminate, tolerate, asqmgr = (
        CMQC.MQCFCONLOS_TERMINATE,
        CMQC.MQCFCONLOS_TOLERATE,
        CMQC.MQCFCONLOS_ASQMGR,
    )
    level5 = CFStructure("S5", cf_level=5, cf_conlos=tolerate)
    assert conlos.action(level5, terminate) == tolerate
    assert conlos.action(CFStructure("S4", cf_level=4, cf_conlos=tolerate), tolerate) == terminate
    assert conlos.action(CFStructure("SA", cf_level=5, cf_conlos=asqmgr), tolerate) == tolerate
    assert conlos.action(CFStructure("SA", cf_level=5, cf_conlos=asqmgr), terminate) == terminate
    ends = CFStructure("ST", cf_level=5, cf_conlos=terminate)
    assert conlos.terminates([level5], terminate, True)
    assert not conlos.terminates([level5], tolerate, True)
    assert not conlos.terminates([level5], terminate, False)
    assert conlos.terminates([level5, ends], tolerate, False)
    assert not conlos.terminates([], tolerate, False)
    error = conlos.not_available_error("APP1", "Q.A", "QM2")
    assert (error.comp, error.reason, str(error.detail)) == (
        CMQC.MQCC_FAILED,
        CMQC.MQRC_CF_NOT_AVAILABLE,
        "QM2 has lost connectivity to CF structure APP1 of queue Q.A (CFCONLOS TOLERATE): "
        "it reconnects when the link is back",
    )


def test_channel_types_their_pairs_refusals_and_who_calls_are_ibms() -> None:
    # "Channel types" and "Requester-server pairs": SDR and SVR send from a transmission
    # queue and call a RCVR or RQSTR; a RQSTR calls a SVR, or a SDR that calls it back;
    # AMQ9547E for any other pair; START of a SVR or RQSTR without CONNAME is 4061; a
    # STOPPED partner is AMQ9558E; PING (4030) and RESOLVE (3034) only of SDR and SVR.
    sdr, svr, rcvr, rqstr = (
        CMQC.MQCHT_SENDER,
        CMQC.MQCHT_SERVER,
        CMQC.MQCHT_RECEIVER,
        CMQC.MQCHT_REQUESTER,
    )
    assert [chltypes.word(t) for t in (sdr, svr, rcvr, rqstr, 99)] == [
        "SDR",
        "SVR",
        "RCVR",
        "RQSTR",
        "99",
    ]
    assert {"SDR": sdr, "SVR": svr, "RCVR": rcvr, "RQSTR": rqstr} == chltypes.TYPES
    assert [chltypes.sending(t) for t in (sdr, svr, rcvr, rqstr)] == [True, True, False, False]
    pairs = {(a, b) for a in (sdr, svr, rcvr, rqstr) for b in (sdr, svr, rcvr, rqstr)}
    assert {p for p in pairs if chltypes.suitable(*p)} == {
        (sdr, rcvr),
        (sdr, rqstr),
        (svr, rcvr),
        (svr, rqstr),
        (rqstr, svr),
        (rqstr, sdr),
    }
    assert chltypes.unsuitable_line("C.X", rqstr, rcvr, "QM2") == (
        "AMQ9547E: Type of remote channel not suitable for action requested: channel 'C.X' "
        "is a RCVR on QM2, and a RQSTR channel's partner must be a SDR or SVR"
    )
    assert chltypes.unsuitable_line("C.X", rcvr, rcvr, "QM2").endswith(
        "a RCVR channel's partner must be a channel of another type"
    )
    missing = [chltypes.missing_conn_name("C.X", t) for t in (svr, rqstr, sdr)]
    assert {(e.comp, e.reason) for e in missing} == {
        (CMQC.MQCC_FAILED, CMQCFC.MQRCCF_MISSING_CONN_NAME)
    }
    assert [str(e.detail) for e in missing] == [
        "server channel C.X has no CONNAME: it is not fully qualified and can only be "
        "started by its requester",
        "requester channel C.X has no CONNAME to call",
        "SDR channel C.X has no CONNAME to call",
    ]
    assert chltypes.not_available_line("C.X", "QM1") == (
        "AMQ9558E: Remote Channel is not currently available: the channel program ended "
        "because the channel 'C.X' is not currently available on the remote system (it is "
        "STOPPED on QM1; START CHANNEL there enables it)"
    )
    assert chltypes.not_for_type("PING", rcvr) == (
        "is a receiver channel: a ping can only be issued for a sender or server channel: "
        "ping it from its partner (MQRCCF_PING_ERROR 4030)",
        CMQCFC.MQRCCF_PING_ERROR,
    )
    assert chltypes.not_for_type("RESOLVE", rqstr) == (
        "is a requester channel: RESOLVE CHANNEL is only for a sender or server channel "
        "(MQRCCF_CHANNEL_TYPE_ERROR 3034)",
        CMQCFC.MQRCCF_CHANNEL_TYPE_ERROR,
    )
    assert chltypes.not_for_type("PING", 99)[0].startswith("is a 99 channel: ")  # type: ignore[index]
    assert chltypes.not_for_type("START", rcvr) is None
    assert [chltypes.callers(t, "host") for t in (sdr, svr, rcvr, rqstr)] == [
        True,
        True,
        False,
        True,
    ]
    assert [chltypes.callers(t, "  ") for t in (sdr, svr, rcvr, rqstr)] == [
        True,
        False,
        False,
        False,
    ]


def test_a_shared_channels_sync_record_is_one_persistent_message_by_msgid_on_the_syncq() -> None:
    # "Synchronization queue for queue sharing groups": a shared channel keeps its
    # sequence number and batch in doubt on SYSTEM.QSG.CHANNEL.SYNCQ, so that an
    # instance restarted on another member reads what the failed one wrote. One record
    # a channel (MsgId SYNC + name; SYNR for a receiving end), replaced outside
    # syncpoint, or inside the batch's unit of work and backed out with it.
    assert sharedsync.record_id("QSG.TO.QM3") == b"SYNCQSG.TO.QM3" + b" " * 10
    assert sharedsync.record_id("C", receiving=True) == b"SYNRC" + b" " * 19
    for record in (
        sharedsync.SyncRecord(),
        sharedsync.SyncRecord(7, (b"\x01" * 24, b"\x02" * 24), True),
        sharedsync.SyncRecord(3, (), False),
        sharedsync.SyncRecord(5, None, True),  # a RESET to tell, no batch in doubt
    ):
        assert sharedsync.SyncRecord.decode(record.encode()) == record
    assert sharedsync.SyncRecord(5, None, True).encode() == b"5;-;R"
    assert sharedsync.SyncRecord(5, (b"\xab",)).encode() == b"5;ab"
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1", store=MemoryStore()))
    qm.define_structure(CFStructure("CSQSYSAPPL", cf_level=5, recover=True))
    qm.define_queue(sharedsync.SYNCQ, qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="CSQSYSAPPL")
    conn = qm.connect()
    syncq = conn.open(sharedsync.SYNCQ, sharedsync.OPEN_OPTIONS)
    assert sharedsync.read(syncq, "C", 0.0) == sharedsync.SyncRecord()
    sharedsync.write(syncq, "C", sharedsync.SyncRecord(4), 1.0)
    sharedsync.write(syncq, "C", sharedsync.SyncRecord(9), 2.0, receiving=True)
    assert sharedsync.read(syncq, "C", 2.0) == sharedsync.SyncRecord(4)  # each end its own
    sharedsync.write(syncq, "C", sharedsync.SyncRecord(5, (b"m" * 24,)), 3.0)
    assert qm.depth(sharedsync.SYNCQ) == 2  # one record each end, replaced in place
    assert sharedsync.read(syncq, "C", 4.0) == sharedsync.SyncRecord(5, (b"m" * 24,))
    assert sharedsync.read(syncq, "C", 4.0, receiving=True) == sharedsync.SyncRecord(9)
    sharedsync.write(syncq, "C", sharedsync.SyncRecord(6), 5.0, syncpoint=True)
    conn.backout()  # the get of the old record and the put of the new, both undone
    assert qm.depth(sharedsync.SYNCQ) == 2
    assert sharedsync.read(syncq, "C", 6.0) == sharedsync.SyncRecord(5, (b"m" * 24,))
    sharedsync.write(syncq, "C", sharedsync.SyncRecord(6), 7.0, syncpoint=True)
    conn.commit()
    assert sharedsync.read(syncq, "C", 8.0) == sharedsync.SyncRecord(6)
    md = MD(MsgId=sharedsync.record_id("C"))
    gmo = GMO(Options=CMQC.MQGMO_BROWSE_FIRST, MatchOptions=CMQC.MQMO_MATCH_MSG_ID)
    syncq.get(None, md, gmo, now=9.0)
    assert md.Persistence == CMQC.MQPER_PERSISTENT
    other = conn.open(sharedsync.SYNCQ, CMQC.MQOO_OUTPUT)
    with pytest.raises(MQMIError) as refused:  # not open for input: not MQRC_NO_MSG_AVAILABLE
        sharedsync.read(other, "C", 10.0)
    assert refused.value.reason == CMQC.MQRC_NOT_OPEN_FOR_BROWSE
    with pytest.raises(MQMIError) as refused:
        sharedsync.write(other, "C", sharedsync.SyncRecord(1), 10.0)
    assert refused.value.reason == CMQC.MQRC_NOT_OPEN_FOR_INPUT


@keeps(
    "docs/coupling-facility.md",
    "whichever instance it lost (the one the members used or its second), it is duplexed "
    "again at once in a third facility of its list that is there",
)
def test_a_duplex_that_loses_either_instance_is_duplexed_again_into_a_third_facility() -> None:
    """DUPLEX(ENABLED) (z/OS "Handling failure of a coupling facility", system-managed
    duplexing): losing the facility of either instance leaves the structure simplex in
    the other, and the system establishes duplexing again in the next facility of the
    preference list that is there, whichever instance was lost; the reconnect of a
    tolerating member does the same, avoiding what it cannot reach."""
    for lost, kept in (("CF01", "CF02"), ("CF02", "CF01")):
        placement = facilities.Placement(("CF01", "CF02", "CF03", "CF04"))
        placement.allocate(CFStructure("DUP1", duplex=True, preference=("CF01", "CF02", "CF03")))
        assert (placement.primary, placement.secondary) == ({"DUP1": "CF01"}, {"DUP1": "CF02"})
        assert placement.lose(lost) == [facilities.Move("DUP1", facilities.KEPT, kept)]
        assert (placement.primary, placement.secondary) == ({"DUP1": kept}, {"DUP1": "CF03"})
        # Then losing the one it carried on in keeps it in the third: nothing failed.
        assert placement.lose(kept) == [facilities.Move("DUP1", facilities.KEPT, "CF03")]
        assert (placement.primary, placement.secondary) == ({"DUP1": "CF03"}, {})
    placement = facilities.Placement(("CF01", "CF02", "CF03", "CF04"))
    placement.allocate(CFStructure("DUP1", duplex=True))
    moves = placement.reconnect(["DUP1"], {"CF01", "CF03"})
    assert moves == [facilities.Move("DUP1", facilities.KEPT, "CF02")]
    assert placement.secondary == {"DUP1": "CF04"}  # not CF03, which it cannot reach
