"""Rules of qsg/core's newer modules (event messages, performance, queue manager and
channel events, IGQ, CF structure state, connection tags, the attribute table) pinned
one by one, each test named by the rule it keeps and citing IBM's documentation: the
survivors of ``./dev mutate`` on those modules showed each of these rules unpinned."""

from __future__ import annotations

import struct

import pytest

from qsg import CMQC, CMQCFC, MD, OD, QMgr
from qsg.core import cfstate, chlevents, conntag, eventmsg, igq
from qsg.core.conntag import ConnectOptions
from qsg.core.errors import MQMIError
from qsg.core.events import Discarded, EventMessagePut
from qsg.core.events import Event as WorldEvent
from qsg.core.igq_agent import Agent, Batch
from qsg.core.objects import CFStructure
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc import load
from tests.helpers import get, open_queue, put
from tests.test_performance_events import EVENTS, events, fill_to, watched_qmgr


# ---- performance events (qsg/core/perfevents.py) ---------------------------------------
def test_queue_depth_high_fires_at_qdepthhi_per_cent_of_maxdepth_not_a_message_before() -> None:
    # IBM, "Queue Depth High": "the queue depth is greater than or equal to the value set
    # for QDEPTHHI" -- a percentage of MAXDEPTH: 80% of 1000 is 800 messages, not 793.
    qm = watched_qmgr(
        "DEFINE QLOCAL(BIG) MAXDEPTH(1000) QDEPTHHI(80) QDPHIEV(ENABLED) QDPMAXEV(DISABLED)"
    )
    q = open_queue(qm, "BIG")
    fill_to(q, qm, 799, 1.0)
    assert events(qm) == []
    put(q, b"m", 2.0)
    (high,) = events(qm)
    assert high.reason == CMQC.MQRC_Q_DEPTH_HIGH
    assert high.parameters[CMQC.MQIA_HIGH_Q_DEPTH] == 800


def test_service_interval_high_needs_more_than_qsvcint_since_the_timer_started() -> None:
    # IBM, "Rules for queue service interval events": High when "the elapsed time is
    # greater than the service interval"; exactly QSVCINT is not late.
    qm = watched_qmgr("DEFINE QLOCAL(SERVICED) QSVCINT(1000) QSVCIEV(HIGH)")
    q = open_queue(qm, "SERVICED")
    put(q, b"P1", 0.0)  # starts the timer
    put(q, b"P2", 1.0)  # exactly 1000 ms: not late
    assert events(qm) == []
    put(q, b"P3", 1.001)
    assert [e.reason for e in events(qm)] == [CMQC.MQRC_Q_SERVICE_INTERVAL_HIGH]


def test_a_get_that_finds_the_service_timer_late_is_a_service_interval_high_event() -> None:
    # IBM, "Rules for queue service interval events": with QSVCIEV(HIGH) "a get or put"
    # after more than QSVCINT since the timer started is Queue Service Interval High; the
    # event resets the statistics to the depth at the event.
    qm = watched_qmgr("DEFINE QLOCAL(SERVICED) QSVCINT(1000) QSVCIEV(HIGH)")
    q = open_queue(qm, "SERVICED")
    put(q, b"P1", 0.0)
    put(q, b"P2", 0.5)
    put(q, b"P3", 0.6)
    get(q, 2.0)  # 2 s since the timer started: late; two messages stay
    (high,) = events(qm)
    assert high.reason == CMQC.MQRC_Q_SERVICE_INTERVAL_HIGH
    assert high.parameters[CMQC.MQCA_BASE_Q_NAME] == "SERVICED"
    assert high.parameters[CMQC.MQIA_TIME_SINCE_RESET] == 2
    assert high.parameters[CMQC.MQIA_MSG_DEQ_COUNT] == 1
    assert qm.queue("SERVICED").q_service_interval_event == CMQCFC.MQQSIE_OK
    get(q, 2.5)  # within the interval of the restarted timer: OK
    (ok,) = events(qm)
    assert ok.reason == CMQC.MQRC_Q_SERVICE_INTERVAL_OK
    # The statistics were reset at the High event, to the depth then (2).
    assert ok.parameters[CMQC.MQIA_HIGH_Q_DEPTH] == 2
    assert ok.parameters[CMQC.MQIA_MSG_DEQ_COUNT] == 1


def test_a_put_stored_with_a_warning_still_counts_and_can_be_a_depth_high_event() -> None:
    # IBM, MQPUT: MQRC_PRIORITY_EXCEEDS_MAXIMUM (2049) is a warning: "the message was put
    # with the maximum priority" -- it is on the queue, so it counts for the depth events.
    qm = watched_qmgr(
        "DEFINE QLOCAL(WARNED) MAXDEPTH(10) QDEPTHHI(80) QDPHIEV(ENABLED) QDPMAXEV(DISABLED)"
    )
    q = open_queue(qm, "WARNED")
    for _ in range(8):
        with pytest.raises(MQMIError) as warned:
            put(q, b"m", 3.0, Priority=20)
        assert warned.value.reason == CMQC.MQRC_PRIORITY_EXCEEDS_MAXIMUM
    (high,) = events(qm)
    assert high.reason == CMQC.MQRC_Q_DEPTH_HIGH
    assert high.parameters[CMQC.MQIA_MSG_ENQ_COUNT] == 8
    assert high.parameters[CMQC.MQIA_TIME_SINCE_RESET] == 3


def group_of_two(definition: str) -> tuple[QMgr, QMgr]:
    """QM1 and QM2 of QSG1, both with PERFMEV(ENABLED) and an event queue; QM1 also
    has ``definition``."""
    group = QueueSharingGroup("QSG1")
    qm1, qm2 = QMgr("QM1", qsg=group), QMgr("QM2", qsg=group)
    for qm in (qm1, qm2):
        load(qm, f"ALTER QMGR PERFMEV(ENABLED)\nDEFINE QLOCAL({EVENTS})")
    load(qm1, f"DEFINE CFSTRUCT(APP1)\n{definition}")
    return qm1, qm2


def test_a_private_queues_event_on_a_group_member_is_that_members_alone() -> None:
    # IBM, "Shared queues and queue depth events on z/OS": the coordinated event messages
    # are for shared queues; a private queue's event is its queue manager's, no CorrelId.
    qm1, qm2 = group_of_two("DEFINE QLOCAL(MINE) MAXDEPTH(10) QDPHIEV(ENABLED) QDPMAXEV(DISABLED)")
    fill_to(open_queue(qm1, "MINE"), qm1, 8, 1.0)
    (mine,) = events(qm1)
    assert mine.reason == CMQC.MQRC_Q_DEPTH_HIGH
    assert mine.md.CorrelId == CMQC.MQCI_NONE
    assert events(qm2) == []


def test_a_shared_queue_full_event_is_issued_by_every_member_under_one_correl_id() -> None:
    # IBM, "Shared queues and queue depth events on z/OS": Queue Full as the others.
    qm1, qm2 = group_of_two(
        "DEFINE QLOCAL(ORDERS) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(2) QDPMAXEV(ENABLED)"
    )
    q = open_queue(qm1, "ORDERS")
    fill_to(q, qm1, 2, 1.0)
    with pytest.raises(MQMIError) as full:
        put(q, b"m", 2.0)
    assert full.value.reason == CMQC.MQRC_Q_FULL
    (mine,), (theirs,) = events(qm1), events(qm2)
    assert mine.reason == theirs.reason == CMQC.MQRC_Q_FULL
    assert mine.md.CorrelId == theirs.md.CorrelId != CMQC.MQCI_NONE


def test_a_shared_queues_depth_event_from_a_put_with_a_warning_is_the_whole_groups() -> None:
    # A put stored with MQRC_PRIORITY_EXCEEDS_MAXIMUM counts as any put: on a shared
    # queue its depth event is coordinated, every member issuing one under one CorrelId.
    qm1, qm2 = group_of_two(
        "DEFINE QLOCAL(ORDERS) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(10) QDPHIEV(ENABLED) "
        "QDPMAXEV(DISABLED)"
    )
    q = open_queue(qm1, "ORDERS")
    for _ in range(8):
        with pytest.raises(MQMIError):
            put(q, b"m", 1.0, Priority=20)
    (mine,), (theirs,) = events(qm1), events(qm2)
    assert mine.reason == theirs.reason == CMQC.MQRC_Q_DEPTH_HIGH
    assert mine.md.CorrelId == theirs.md.CorrelId != CMQC.MQCI_NONE


def test_a_shared_queue_keeps_no_service_timer_on_its_gets_either() -> None:
    # IBM, "Queue service interval events": not generated for shared queues (z/OS); a
    # get must not start a timer a later get would find late.
    group = QueueSharingGroup("QSG1")
    qm = QMgr("QM1", qsg=group)
    load(
        qm,
        f"ALTER QMGR PERFMEV(ENABLED)\nDEFINE QLOCAL({EVENTS})\nDEFINE CFSTRUCT(APP1)\n"
        "DEFINE QLOCAL(ORDERS) QSGDISP(SHARED) CFSTRUCT(APP1) QSVCINT(10) QSVCIEV(HIGH)",
    )
    q = open_queue(qm, "ORDERS")
    for body in (b"a", b"b", b"c"):
        put(q, body, 0.0)
    get(q, 1.0)
    get(q, 9.0)
    assert events(qm) == []


def test_a_get_that_only_discards_expired_messages_does_not_touch_the_service_timer() -> None:
    # On z/OS a get that finds its message expired lowers the depth (a depth low event
    # may come of it), but it serviced nothing: the service timer stays as it was.
    qm = watched_qmgr("DEFINE QLOCAL(SERVICED) QSVCINT(1000) QSVCIEV(OK)")
    q = open_queue(qm, "SERVICED")
    put(q, b"lasting", 0.0)  # starts the timer
    brief = put(q, b"brief", 0.0, Expiry=1)  # a tenth of a second
    with pytest.raises(MQMIError) as nothing:  # the expired message is discarded
        get(q, 5.0, md=MD(MsgId=brief.MsgId), MatchOptions=CMQC.MQMO_MATCH_MSG_ID)
    assert nothing.value.reason == CMQC.MQRC_NO_MSG_AVAILABLE
    assert qm.depth("SERVICED") == 1
    get(q, 5.2)  # 5.2 s after the timer started: late, so no OK event
    assert events(qm) == []


def raw_parameters(data: bytes) -> dict[int, tuple[int, int]]:
    """Each MQCFST parameter of a big-endian event: (its StringLength, StrucLength)."""
    (count,) = struct.unpack_from(">i", data, 32)
    at, found = 36, {}
    for _ in range(count):
        ptype, plength, parameter = struct.unpack_from(">3i", data, at)
        if ptype == CMQCFC.MQCFT_STRING:
            found[parameter] = (struct.unpack_from(">i", data, at + 16)[0], plength)
        at += plength
    return found


def test_a_performance_events_queue_name_is_an_mqcfst_of_mq_q_name_length() -> None:
    # IBM, "Queue Depth High": BaseObjectName, "Maximum length: MQ_Q_NAME_LENGTH" (48).
    qm = watched_qmgr("DEFINE QLOCAL(Q) MAXDEPTH(10) QDPHIEV(ENABLED) QDPMAXEV(DISABLED)")
    fill_to(open_queue(qm, "Q"), qm, 8, 1.0)
    data, _ = get(open_queue(qm, EVENTS, CMQC.MQOO_INPUT_SHARED), 1.0)
    assert raw_parameters(data)[CMQC.MQCA_BASE_Q_NAME] == (48, 68)


def test_each_performance_event_put_is_in_the_rules_events_with_its_message_and_reason() -> None:
    # The event stream (kind mq-event) records each event message put: when, by which
    # queue manager, to which queue, its MsgId, its reason and the queue it is about.
    seen: list[WorldEvent] = []
    qm = watched_qmgr("DEFINE QLOCAL(Q) MAXDEPTH(10) QDPHIEV(ENABLED) QDPMAXEV(DISABLED)")
    qm.on_event = seen.append
    fill_to(open_queue(qm, "Q"), qm, 8, 4.0)
    (put_event,) = [e for e in seen if isinstance(e, EventMessagePut)]
    _, md = get(open_queue(qm, EVENTS, CMQC.MQOO_INPUT_SHARED), 4.0)
    assert put_event == EventMessagePut(4.0, "QM1", EVENTS, md.MsgId, CMQC.MQRC_Q_DEPTH_HIGH, "Q")


# ---- queue manager events (qsg/core/qmgrevents.py) -------------------------------------
QMGR_EVENTS = "SYSTEM.ADMIN.QMGR.EVENT"


def inhibited_qmgr(appl_name: str = "APP1") -> tuple[QMgr, list[WorldEvent]]:
    """QM1 with INHIBTEV(ENABLED), its event queue, APP.STOPPED with puts disabled, and
    one refused put by an application named ``appl_name``; the rules' events."""
    seen: list[WorldEvent] = []
    qm = QMgr("QM1")
    qm.on_event = seen.append
    load(
        qm,
        f"ALTER QMGR INHIBTEV(ENABLED)\nDEFINE QLOCAL({QMGR_EVENTS})\n"
        "DEFINE QLOCAL(APP.STOPPED) PUT(DISABLED)",
    )
    handle = qm.connect("ALICE", appl_name).open("APP.STOPPED", CMQC.MQOO_OUTPUT)
    with pytest.raises(MQMIError) as refused:
        put(handle, b"m", 6.0)
    assert refused.value.reason == CMQC.MQRC_PUT_INHIBITED
    return qm, seen


def test_a_queue_manager_events_names_are_mqcfst_of_ibms_lengths() -> None:
    # IBM, "Put Inhibited": QMgrName MQ_Q_MGR_NAME_LENGTH (48), QName MQ_Q_NAME_LENGTH
    # (48), ApplName MQ_APPL_NAME_LENGTH (28).
    qm, _ = inhibited_qmgr()
    data, _ = get(open_queue(qm, QMGR_EVENTS, CMQC.MQOO_INPUT_SHARED), 6.0)
    lengths = raw_parameters(data)
    assert lengths[CMQC.MQCA_Q_MGR_NAME] == (48, 68)
    assert lengths[CMQC.MQCA_Q_NAME] == (48, 68)
    assert lengths[CMQCFC.MQCACF_APPL_NAME] == (28, 48)


def test_an_application_name_cut_inside_a_character_is_still_reported() -> None:
    # The MQMD's PutApplName keeps 28 bytes: a UTF-8 name cut inside a character is
    # reported with the character replaced, not refused.
    qm, _ = inhibited_qmgr("A" * 27 + "\u00e9")
    (event,) = events(qm, QMGR_EVENTS)
    assert event.reason == CMQC.MQRC_PUT_INHIBITED
    assert str(event.parameters[CMQCFC.MQCACF_APPL_NAME]).startswith("A" * 27)


def test_each_queue_manager_event_put_is_in_the_rules_events() -> None:
    qm, seen = inhibited_qmgr()
    (record,) = [e for e in seen if isinstance(e, EventMessagePut)]
    _, md = get(open_queue(qm, QMGR_EVENTS, CMQC.MQOO_INPUT_SHARED), 6.0)
    assert record == EventMessagePut(
        6.0, "QM1", QMGR_EVENTS, md.MsgId, CMQC.MQRC_PUT_INHIBITED, "APP.STOPPED"
    )


# ---- channel events (qsg/core/chlevents.py) ---------------------------------------------
CHANNEL_EVENTS = "SYSTEM.ADMIN.CHANNEL.EVENT"


def channel_qmgr(chlev: str = "ENABLED") -> tuple[QMgr, list[WorldEvent]]:
    seen: list[WorldEvent] = []
    qm = QMgr("QM1")
    qm.on_event = seen.append
    load(
        qm,
        f"ALTER QMGR CHLEV({chlev})\nDEFINE QLOCAL({CHANNEL_EVENTS})\n"
        "DEFINE QLOCAL(QM3) USAGE(XMITQ)\nDEFINE QLOCAL(QM4) USAGE(XMITQ)\n"
        "DEFINE CHANNEL(TO.QM3) CHLTYPE(SDR) CONNAME('qm3.example(1414)') XMITQ(QM3)\n"
        "DEFINE CHANNEL(TO.QM4) CHLTYPE(SDR) CONNAME('qm4.example(1414)') XMITQ(QM4)",
    )
    return qm, seen


def channel(qm: QMgr, name: str, state: str, detail: str = "", now: float = 1.0) -> None:
    chlevents.state_changed(qm, qm.local.channels[name], state, detail, now)


def channel_reasons(qm: QMgr) -> list[tuple[int, object]]:
    return [
        (e.reason, e.parameters.get(CMQCFC.MQIACF_REASON_QUALIFIER))
        for e in events(qm, CHANNEL_EVENTS)
    ]


def test_channel_stopped_is_only_for_the_instance_that_started_not_another_channel() -> None:
    # IBM, "Channel Stopped": "only issued if the channel instance previously issued a
    # channel started event" -- TO.QM3's start says nothing of TO.QM4.
    qm, _ = channel_qmgr()
    channel(qm, "TO.QM3", "RUNNING")
    channel(qm, "TO.QM4", "RETRYING", "AMQ9202E: the partner is not there")
    assert channel_reasons(qm) == [(CMQC.MQRC_CHANNEL_STARTED, None)]


def test_a_channel_that_stopped_and_retried_without_starting_puts_no_second_stop() -> None:
    # The instance that started ended at the retry; the retries that never start again
    # issue no Channel Stopped when they are exhausted.
    qm, _ = channel_qmgr()
    channel(qm, "TO.QM3", "RUNNING")
    channel(qm, "TO.QM3", "RETRYING", "AMQ9213E: the link broke")
    channel(qm, "TO.QM3", "STOPPED", "retries exhausted")
    assert channel_reasons(qm) == [
        (CMQC.MQRC_CHANNEL_STARTED, None),
        (CMQC.MQRC_CHANNEL_STOPPED, CMQCFC.MQRQ_CHANNEL_STOPPED_RETRY),
    ]


def test_binding_is_no_channel_event_and_does_not_end_the_started_instance() -> None:
    # BINDING is the agent's way to RUNNING: neither Started nor Stopped.
    qm, _ = channel_qmgr()
    channel(qm, "TO.QM3", "RUNNING")
    channel(qm, "TO.QM3", "BINDING")
    assert channel_reasons(qm) == [(CMQC.MQRC_CHANNEL_STARTED, None)]
    channel(qm, "TO.QM3", "INACTIVE")
    assert channel_reasons(qm) == [(CMQC.MQRC_CHANNEL_STOPPED, CMQCFC.MQRQ_CHANNEL_STOPPED_OK)]


def test_a_channel_events_strings_are_mqcfst_of_ibms_lengths_in_z_os_encoding() -> None:
    # IBM, "Channel Started": QMgrName MQ_Q_MGR_NAME_LENGTH (48), ChannelName
    # MQ_CHANNEL_NAME_LENGTH (20), XmitQName MQ_Q_NAME_LENGTH (48), ConnectionName
    # MQ_CONN_NAME_LENGTH (264); on z/OS big-endian (785) and EBCDIC (500).
    qm, _ = channel_qmgr()
    channel(qm, "TO.QM3", "RUNNING")
    data, md = get(open_queue(qm, CHANNEL_EVENTS, CMQC.MQOO_INPUT_SHARED), 1.0)
    assert (md.Encoding, md.CodedCharSetId) == (785, 500)
    lengths = raw_parameters(data)
    assert lengths[CMQC.MQCA_Q_MGR_NAME] == (48, 68)
    assert lengths[CMQCFC.MQCACH_CHANNEL_NAME] == (20, 40)
    assert lengths[CMQCFC.MQCACH_XMIT_Q_NAME] == (48, 68)
    assert lengths[CMQCFC.MQCACH_CONNECTION_NAME] == (264, 284)


def test_each_channel_event_put_is_in_the_rules_events() -> None:
    qm, seen = channel_qmgr()
    channel(qm, "TO.QM3", "RUNNING", now=7.0)
    (record,) = [e for e in seen if isinstance(e, EventMessagePut)]
    _, md = get(open_queue(qm, CHANNEL_EVENTS, CMQC.MQOO_INPUT_SHARED), 7.0)
    assert record == EventMessagePut(
        7.0, "QM1", CHANNEL_EVENTS, md.MsgId, CMQC.MQRC_CHANNEL_STARTED, "TO.QM3"
    )


# ---- the event message layout (qsg/core/eventmsg.py) ------------------------------------
def test_an_event_integer_may_be_negative_as_an_mqlong_is() -> None:
    # IBM, "MQCFIN": Value is an MQLONG (signed): MQAT_UNKNOWN is -1.
    data = eventmsg.body(
        CMQCFC.MQCMD_Q_MGR_EVENT,
        CMQC.MQRC_PUT_INHIBITED,
        [(CMQC.MQIA_APPL_TYPE, CMQC.MQAT_UNKNOWN)],
        CMQC.MQPL_ZOS,
    )
    assert data[36:] == struct.pack(">4i", CMQCFC.MQCFT_INTEGER, 16, CMQC.MQIA_APPL_TYPE, -1)


def test_an_event_string_is_padded_to_a_multiple_of_four_with_nulls() -> None:
    # IBM, "MQCFST": StrucLength "must be a multiple of four"; StringLength counts the
    # string alone, and what pads it is not part of it.
    data = eventmsg.body(
        CMQCFC.MQCMD_Q_MGR_EVENT, CMQC.MQRC_PUT_INHIBITED, [(3001, "ABCDE", 5)], CMQC.MQPL_UNIX
    )
    ptype, plength, identifier, ccsid, length = struct.unpack_from("<5i", data, 36)
    assert (ptype, plength, identifier, ccsid, length) == (CMQCFC.MQCFT_STRING, 28, 3001, 819, 5)
    assert data[56:] == b"ABCDE\x00\x00\x00"


def test_a_character_the_event_character_set_lacks_is_replaced_not_refused() -> None:
    # An application name in any script still makes its event: in CCSID 500 or 819 a
    # character they lack is written as a substitute.
    data = eventmsg.body(
        CMQCFC.MQCMD_Q_MGR_EVENT,
        CMQC.MQRC_PUT_INHIBITED,
        [(CMQCFC.MQCACF_APPL_NAME, "PAY\u20ac", 4)],
        CMQC.MQPL_UNIX,
    )
    assert data[56:60] == b"PAY?"


def test_an_event_messages_put_appl_name_is_the_first_28_bytes_of_the_qmgr_name() -> None:
    # IBM, "Event message MQMD": PutApplName is "the queue manager name" in the MQMD's
    # 28-byte field (MQ_PUT_APPL_NAME_LENGTH).
    md = eventmsg.descriptor("Q" * 30, CMQC.MQPL_ZOS)
    assert md.PutApplName.rstrip(b" \x00") == b"Q" * 28


# ---- serialized applications (qsg/core/conntag.py) -------------------------------------
S_QMGR, S_QSG = CMQC.MQCNO_SERIALIZE_CONN_TAG_Q_MGR, CMQC.MQCNO_SERIALIZE_CONN_TAG_QSG
R_QMGR, R_QSG = CMQC.MQCNO_RESTRICT_CONN_TAG_Q_MGR, CMQC.MQCNO_RESTRICT_CONN_TAG_QSG


def refused_request(cno: ConnectOptions, platform: int = CMQC.MQPL_ZOS) -> MQMIError:
    with pytest.raises(MQMIError) as refused:
        conntag.requested(cno, "QM1", 0, 7, platform)
    return refused.value


def test_two_connection_tag_options_are_2046_naming_both() -> None:
    # IBM, "MQCNO Options": the four ConnTag options are mutually exclusive.
    error = refused_request(ConnectOptions(S_QMGR | R_QSG, b"ORDERS"))
    assert error.reason == CMQC.MQRC_OPTIONS_ERROR
    assert error.detail == (
        "one connection-tag option at most, not MQCNO_SERIALIZE_CONN_TAG_Q_MGR and "
        "MQCNO_RESTRICT_CONN_TAG_QSG"
    )


def test_a_connection_tag_option_off_z_os_and_restrict_from_a_client_say_why() -> None:
    # IBM: the serialization options are "valid only on z/OS"; RESTRICT "is not
    # supported" for a client connection.
    off = refused_request(ConnectOptions(S_QSG, b"ORDERS"), CMQC.MQPL_UNIX)
    assert off.detail == "MQCNO_SERIALIZE_CONN_TAG_QSG is for z/OS queue managers only"
    client = refused_request(ConnectOptions(R_QMGR, b"ORDERS", client=True))
    assert client.detail == "MQCNO_RESTRICT_CONN_TAG_Q_MGR is not allowed for a client application"


def test_a_reserved_connection_tag_names_its_first_16_bytes() -> None:
    error = refused_request(ConnectOptions(S_QMGR, b"MQSERIES.TAG.LONGER.STILL"))
    assert error.reason == CMQC.MQRC_CNO_ERROR
    assert error.detail == (
        "ConnTag b'MQSERIES.TAG.LON' begins with MQ: connection tags beginning with MQ (in any "
        "case, ASCII or EBCDIC) are reserved for IBM products"
    )


def test_a_tag_use_records_the_connection_that_asked_for_it() -> None:
    cno = ConnectOptions(R_QSG, b"ORDERS", space="JOB1")
    use = conntag.requested(cno, "QM1", 3, 7, CMQC.MQPL_ZOS)
    assert use == conntag.TagUse(b"ORDERS", "QM1", 3, 7, R_QSG, "JOB1")


def test_a_connection_tag_keeps_its_leading_zeros_and_its_other_bytes() -> None:
    # Only trailing zeros are padding of the MQBYTE128: b"\\0A" is its own tag.
    assert conntag.normal_tag(b"\x00TAX\x00\x00") == b"\x00TAX"


def use_of(q_mgr: str, option: int = S_QMGR, life: int = 0, space: str = "") -> conntag.TagUse:
    return conntag.TagUse(b"ORDERS", q_mgr, life, 1, option, space)


def test_a_queue_manager_scoped_request_looks_past_other_members_uses_to_its_own() -> None:
    # IBM: SERIALIZE_CONN_TAG_Q_MGR is "not affected by use of the connection tag
    # elsewhere in the QSG" -- but a use on its own queue manager after one elsewhere
    # still refuses it.
    request = use_of("QM1")
    refused = conntag.refusal(request, [use_of("QM2"), use_of("QM1")], ())
    assert refused is not None and refused.reason == CMQC.MQRC_CONN_TAG_IN_USE
    assert refused.detail == (
        "connection tag b'ORDERS' is in use on QM1 (MQCNO_SERIALIZE_CONN_TAG_Q_MGR), or a unit "
        "of work of it is unresolved"
    )


def test_a_tag_held_by_a_recovery_waiting_for_the_cf_is_2350_saying_so() -> None:
    refused = conntag.refusal(use_of("QM1", S_QSG), [use_of("QM2")], {("QM2", 0)})
    assert refused is not None and refused.reason == CMQC.MQRC_CONN_TAG_NOT_USABLE
    assert refused.detail == (
        "connection tag b'ORDERS' is held by the recovery of QM2, which waits for the "
        "coupling facility"
    )


class FakeRegistry:
    """A registry whose reads and claims answer as told."""

    def __init__(self, error: MQMIError | None = None, claims: bool = True) -> None:
        self.error, self.claims, self.claimed = error, claims, 0

    def conn_tags(self, tag: bytes) -> conntag.TagUses:
        if self.error is not None:
            raise self.error
        return conntag.TagUses(self.claimed, ())

    def claim_conn_tag(self, use: conntag.TagUse, version: int) -> bool:
        self.claimed += 1
        return self.claims


def test_a_facility_out_of_reach_makes_the_tag_not_usable_other_errors_pass() -> None:
    # IBM, MQRC_CONN_TAG_NOT_USABLE (2350): the tag "cannot be used because it is being
    # used by ... or the coupling facility ... is not available".
    lost = MQMIError.failed(CMQC.MQRC_CF_STRUC_FAILED, "the structure failed")
    with pytest.raises(MQMIError) as refused:
        conntag.claim(FakeRegistry(lost), use_of("QM1"), ())
    assert refused.value.reason == CMQC.MQRC_CONN_TAG_NOT_USABLE
    assert refused.value.detail.startswith("connection tag b'ORDERS' cannot be serialized: ")
    other = MQMIError.failed(CMQC.MQRC_UNEXPECTED_ERROR, "something else")
    with pytest.raises(MQMIError) as passed:
        conntag.claim(FakeRegistry(other), use_of("QM1"), ())
    assert passed.value is other


def test_a_tag_that_keeps_changing_while_it_is_claimed_is_in_use_at_last() -> None:
    registry = FakeRegistry(claims=False)
    with pytest.raises(MQMIError) as refused:
        conntag.claim(registry, use_of("QM1"), ())
    assert refused.value.reason == CMQC.MQRC_CONN_TAG_IN_USE
    assert refused.value.detail == "connection tag b'ORDERS' changed 100 times while it was claimed"
    assert registry.claimed == 100


# ---- MQ's own agents on shared queues (QMgr.connect_agent, conntag.NotSerializedError) ---
def agent_group() -> tuple[QMgr, QMgr]:
    qsg = QueueSharingGroup("QSG1")
    return QMgr("QM1", qsg=qsg), QMgr("QM2", qsg=qsg)


def test_an_agent_connects_as_told_holding_its_own_tag_in_its_address_space() -> None:
    # IBM, "Channels and serialization": the MCA serializes "by issuing the MQCONNX API
    # call"; qsg's tag is MQ<kind>.<name> in the member's ssidCHIN (ssidMSTR for IGQ).
    qm1, _ = agent_group()
    mca = qm1.connect_agent("CHL", "TO.QM3", appl_name="CSQXCHIN")
    assert (mca.user, mca.identity.user, mca.identity.appl_name) == ("qsg", b"qsg", b"CSQXCHIN")
    assert mca.tag_use is not None
    assert (mca.tag_use.tag, mca.tag_use.q_mgr, mca.tag_use.space) == (
        b"MQCHL.TO.QM3",
        "QM1",
        "QM1CHIN",
    )
    assert mca.tag_use.option == CMQC.MQCNO_RESTRICT_CONN_TAG_QSG
    assert qm1.connections[mca.number] is mca
    igq_agent = qm1.connect_agent("IGQ", "QM1", appl_name="CSQIGQ", user="QM1")
    assert igq_agent.user == "QM1" and igq_agent.tag_use is not None
    assert (igq_agent.tag_use.tag, igq_agent.tag_use.space) == (b"MQIGQ.QM1", "QM1MSTR")


def test_an_agent_off_z_os_connects_without_a_tag() -> None:
    # Connection tags are z/OS's: a distributed queue manager's agent takes none.
    qm = QMgr("QM9", platform=CMQC.MQPL_UNIX)
    assert qm.connect_agent("CHL", "TO.QM3", appl_name="AMQRMPPA").tag_use is None


def test_a_shared_channels_agent_refused_by_its_tag_raises_the_line_it_logs_2271() -> None:
    # The same shared channel started on QM2 while QM1's MCA holds its tag: 2271, kept
    # by NotSerializedError with IBM's "error message indicating that recovery is in
    # progress" for the channel's log.
    qm1, qm2 = agent_group()
    qm1.connect_agent("CHL", "TO.QM3", appl_name="CSQXCHIN")
    with pytest.raises(conntag.NotSerializedError) as refused:
        qm2.connect_agent("CHL", "TO.QM3", appl_name="CSQXCHIN")
    error = refused.value
    assert (error.comp, error.reason) == (CMQC.MQCC_FAILED, CMQC.MQRC_CONN_TAG_IN_USE)
    assert error.detail.startswith("connection tag b'MQCHL.TO.QM3' is in use")
    assert error.line == (
        "channel TO.QM3 cannot serialize its access to shared queues: shared queue peer "
        f"recovery is in progress ({MQMIError(error.comp, error.reason, error.detail)})"
    )
    assert len(qm2.connections) == 0  # nothing of the refused connection is kept


def test_an_igq_agent_whose_tag_is_not_usable_says_so_in_its_line_2350() -> None:
    refusal = MQMIError(CMQC.MQCC_FAILED, CMQC.MQRC_CONN_TAG_NOT_USABLE, "held by a recovery")
    error = conntag.NotSerializedError("IGQ", "QM2", refusal)
    assert (error.comp, error.reason, error.detail) == (
        CMQC.MQCC_FAILED,
        CMQC.MQRC_CONN_TAG_NOT_USABLE,
        "held by a recovery",
    )
    assert error.line == (
        "the IGQ agent of QM2 cannot serialize its access to shared queues: its connection "
        f"tag is not usable now ({refusal})"
    )


@pytest.mark.parametrize("reason", sorted(conntag.NOT_YET))
def test_only_a_tags_refusals_make_an_agent_retry_other_errors_pass(
    monkeypatch: pytest.MonkeyPatch, reason: int
) -> None:
    qm1, _ = agent_group()

    def refusing(*args: object, **kwargs: object) -> None:
        raise MQMIError(CMQC.MQCC_FAILED, reason, "refused")

    monkeypatch.setattr(qm1, "connect", refusing)
    with pytest.raises(conntag.NotSerializedError) as refused:
        qm1.connect_agent("IGQ", "QM1", appl_name="CSQIGQ")
    assert refused.value.reason == reason
    other = MQMIError(CMQC.MQCC_FAILED, CMQC.MQRC_CF_STRUC_FAILED, "the structure failed")

    def failing(*args: object, **kwargs: object) -> None:
        raise other

    monkeypatch.setattr(qm1, "connect", failing)
    with pytest.raises(MQMIError) as passed:
        qm1.connect_agent("IGQ", "QM1", appl_name="CSQIGQ")
    assert passed.value is other


OUT = CMQC.MQOO_OUTPUT
GROUP_QUEUE = (
    "DEFINE QLOCAL(SYSTEM.QSG.TRANSMIT.QUEUE) QSGDISP(SHARED) CFSTRUCT(CSQSYSAPPL) "
    "USAGE(XMITQ) INDXTYPE(CORRELID)"
)


# ---- intra-group queuing (qsg/core/igq.py, igq_agent.py) --------------------------------
def test_the_igq_agent_stops_after_its_last_long_retry_not_before() -> None:
    # The IGQ agent retries a minute apart SHORT_RETRY_COUNT times, then 20 minutes
    # apart LONG_RETRY_COUNT times, then stops (CSQM051I): the last long retry counts.
    last = igq.SHORT_RETRY_COUNT + igq.LONG_RETRY_COUNT
    assert igq.retry_interval(last) == igq.LONG_RETRY_INTERVAL
    assert igq.retry_interval(last + 1) is None


def test_igqaut_alternate_without_a_message_user_checks_none_for_it() -> None:
    # "User IDs used by the intra-group queuing agent": ALT is the message's
    # UserIdentifier; a blank one adds no check.
    assert igq.checked_users(CMQC.MQIGQPA_CONTEXT, "QM1", "", "") == ["QM1"]
    assert igq.checked_users(CMQC.MQIGQPA_CONTEXT, "QM1", "", "ALICE") == ["QM1", "ALICE"]


def test_an_agent_without_a_usable_group_queue_says_why_it_retries() -> None:
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1"))
    assert Agent(qm).batch(1.0) == Batch([], retry="SYSTEM.QSG.TRANSMIT.QUEUE is not defined")
    load(qm, "DEFINE QLOCAL(SYSTEM.QSG.TRANSMIT.QUEUE)")  # private, not USAGE(XMITQ)
    assert Agent(qm).batch(1.0) == Batch(
        [],
        retry="SYSTEM.QSG.TRANSMIT.QUEUE is not a shared USAGE(XMITQ) queue with "
        "INDXTYPE(CORRELID)",
    )


def test_a_message_the_agent_discards_is_in_the_rules_events_as_an_igq_discard() -> None:
    # IBM, "Undelivered/unprocessed messages": MQRO_DISCARD_MSG discards it; a
    # nonpersistent message neither put nor dead-lettered is discarded too.
    group = QueueSharingGroup("QSG1")
    qm1, qm2 = QMgr("QM1", qsg=group), QMgr("QM2", qsg=group)
    qm1.define_structure(CFStructure("CSQSYSAPPL", recover=True))
    load(
        qm1,
        "DEFINE QLOCAL(SYSTEM.QSG.TRANSMIT.QUEUE) QSGDISP(SHARED) CFSTRUCT(CSQSYSAPPL) "
        "USAGE(XMITQ) INDXTYPE(CORRELID)\nALTER QMGR IGQ(ENABLED)",
    )
    load(qm2, "ALTER QLOCAL(SYSTEM.DEAD.LETTER.QUEUE) PUT(DISABLED)")
    seen: list[WorldEvent] = []
    qm2.on_event = seen.append
    handle = qm1.connect().open(OD(ObjectName=b"NO.SUCH.Q", ObjectQMgrName=b"QM2"), OUT)
    asked = put(handle, b"x", 1.0, Report=CMQC.MQRO_DISCARD_MSG)
    dropped = put(handle, b"y", 1.0, Persistence=CMQC.MQPER_NOT_PERSISTENT)
    Agent(qm2).batch(2.0)
    assert [e for e in seen if isinstance(e, Discarded)] == [
        Discarded(2.0, "QM2", "NO.SUCH.Q", asked.MsgId, "igq"),
        Discarded(2.0, "QM2", "NO.SUCH.Q", dropped.MsgId, "igq"),
    ]


# ---- a CF structure's state (qsg/core/cfstate.py) ---------------------------------------
FAILED = cfstate.StructureStatus("APP1", cfstate.FAILED, failed_at=1.0)
ACTIVE = cfstate.StructureStatus("APP1")


def structure_error(check: object) -> cfstate.StructureError:
    with pytest.raises(cfstate.StructureError) as refused:
        check()  # type: ignore[operator]
    return refused.value


def test_a_failed_structures_queues_say_how_it_comes_back() -> None:
    # IBM, MQRC_CF_STRUC_FAILED (2373): "RECOVER CFSTRUCT"; a RECOVER(NO) structure is
    # "automatically reallocated (empty) by the next MQOPEN".
    error = cfstate.failed_error("APP1", "ORDERS")
    assert error.reason == CMQC.MQRC_CF_STRUC_FAILED
    assert error.detail == (
        "CF structure APP1 of queue ORDERS has failed: RECOVER CFSTRUCT(APP1) (or, for "
        "RECOVER(NO), the next MQOPEN) brings it back"
    )


def test_backup_cfstruct_takes_cflevel_3_and_says_what_it_refuses() -> None:
    # IBM, "BACKUP CFSTRUCT": the structure must be CFLEVEL(3) or higher, RECOVER(YES).
    cfstate.check_backup(CFStructure("APP1", cf_level=3, recover=True), ACTIVE)
    low = structure_error(
        lambda: cfstate.check_backup(CFStructure("APP1", cf_level=2, recover=True), ACTIVE)
    )
    assert (
        str(low) == "CF structure APP1 cannot be backed up: it is CFLEVEL(2), 3 or more is needed"
    )
    unkept = structure_error(lambda: cfstate.check_backup(CFStructure("APP1"), ACTIVE))
    assert str(unkept) == "CF structure APP1 cannot be backed up: it is RECOVER(NO)"
    failed = structure_error(
        lambda: cfstate.check_backup(CFStructure("APP1", recover=True), FAILED)
    )
    assert (failed.reason, failed.status) == (
        CMQCFC.MQRCCF_CF_STRUC_ERROR,
        CMQCFC.MQCFSTATUS_FAILED,
    )
    assert str(failed) == "CF structure APP1 has failed: RECOVER it before a BACKUP"


def test_recover_type_purge_takes_a_recover_no_structure_type_normal_does_not() -> None:
    # IBM, "RECOVER CFSTRUCT": TYPE(PURGE) empties the structure; TYPE(NORMAL) rebuilds
    # from a backup and the logs, which a RECOVER(NO) structure does not have.
    unkept = CFStructure("APP1")
    cfstate.check_recover(unkept, FAILED, purge=True)
    normal = structure_error(lambda: cfstate.check_recover(unkept, FAILED, purge=False))
    assert (normal.reason, normal.status) == (
        CMQCFC.MQRCCF_CF_STRUC_ERROR,
        CMQCFC.MQCFSTATUS_NOT_RECOVERABLE,
    )
    assert str(normal) == (
        "CF structure APP1 is RECOVER(NO): TYPE(PURGE), or an MQOPEN, reallocates it"
    )


def igq_candidate(definition: str) -> object:
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1"))
    qm.define_structure(CFStructure("CSQSYSAPPL", recover=True))
    load(qm, definition)
    found = qm.find(igq.IGQ_XMITQ)
    return None if found is None else found[1]


@pytest.mark.parametrize(
    ("definition", "usable"),
    [
        (GROUP_QUEUE, True),
        ("DEFINE QLOCAL(SYSTEM.QSG.TRANSMIT.QUEUE) USAGE(XMITQ) INDXTYPE(CORRELID)", False),
        (GROUP_QUEUE.replace(" USAGE(XMITQ)", ""), False),
        (GROUP_QUEUE.replace(" INDXTYPE(CORRELID)", ""), False),
        ("DEFINE QALIAS(SYSTEM.QSG.TRANSMIT.QUEUE) TARGET(ELSEWHERE)", False),
    ],
)
def test_igq_uses_only_a_shared_local_xmitq_indexed_by_correl_id(
    definition: str, usable: bool
) -> None:
    # IBM, "Getting started with intra-group queuing": SYSTEM.QSG.TRANSMIT.QUEUE is a
    # shared transmission queue with INDXTYPE(CORRELID).
    assert igq.usable(igq_candidate(definition)) is usable  # type: ignore[arg-type]


def test_the_agents_key_and_the_senders_user_id_are_padded_with_blanks_and_cut() -> None:
    # The outer CorrelId is the member's name in 24 bytes; UserIdentifier 12 (MQMD).
    assert igq.correl_id("QM2") == b"QM2" + b" " * 21
    assert igq.correl_id("Q" * 30) == b"Q" * 24
    desc: dict[str, object] = {}
    igq.address(desc, "QM2", "SENDER.QMGR.NAME")
    assert desc == {"CorrelId": igq.correl_id("QM2"), "UserIdentifier": b"SENDER.QMGR."}
    igq.address(desc, "QM2", "QM1")
    assert desc["UserIdentifier"] == b"QM1" + b" " * 9


def test_an_open_remembers_igq_enabled_and_the_group_queues_definition() -> None:
    # "Specific properties of intra-group queuing": MQRC_OBJECT_CHANGED (2041) when
    # IGQ or the queue's definition changed between open and put.
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1"))
    assert igq.path_state(qm) == (False, None)
    load(qm, "ALTER QMGR IGQ(ENABLED)")
    assert igq.path_state(qm) == (True, None)


def test_igq_takes_no_route_without_a_usable_group_queue() -> None:
    # "Getting started with intra-group queuing": without a usable
    # SYSTEM.QSG.TRANSMIT.QUEUE the ordinary route is taken (None here).
    group = QueueSharingGroup("QSG1")
    qm1, _ = QMgr("QM1", qsg=group), QMgr("QM2", qsg=group)
    load(qm1, "ALTER QMGR IGQ(ENABLED)")
    assert igq.route(qm1, "QM2") is None
    load(qm1, "DEFINE QLOCAL(SYSTEM.QSG.TRANSMIT.QUEUE) USAGE(XMITQ) INDXTYPE(CORRELID)")
    assert igq.route(qm1, "QM2") is None


def test_the_igq_agent_keeps_one_connection_named_for_it_across_batches() -> None:
    # DISPLAY CONN shows the agent's connection by its name (APPLTAG); it is made once
    # and made again only when it ended.
    group = QueueSharingGroup("QSG1")
    qm = QMgr("QM1", qsg=group)
    qm.define_structure(CFStructure("CSQSYSAPPL", recover=True))
    load(qm, GROUP_QUEUE)
    agent = Agent(qm)
    agent.batch(1.0)
    first = agent.conn
    assert first is not None and first.identity.appl_name.rstrip() == b"IGQ AGENT"
    agent.batch(2.0)
    assert agent.conn is first
    first.disconnect()
    agent.batch(3.0)
    assert agent.conn is not first and agent.conn is not None and agent.conn.connected


# ---- a connection's unit of work (qsg/core/uow.py) --------------------------------------
def test_each_put_and_get_in_syncpoint_counts_once_toward_maxumsgs() -> None:
    # IBM, "MAXUMSGS": "the maximum number of uncommitted messages under any one
    # syncpoint"; one more is MQRC_SYNCPOINT_LIMIT_REACHED (2024).
    qm = QMgr("QM1", max_uncommitted_msgs=3)
    load(qm, "DEFINE QLOCAL(WORK)")
    handle = qm.connect().open("WORK", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
    put(handle, b"1", 1.0, CMQC.MQPMO_SYNCPOINT)
    put(handle, b"2", 1.0, CMQC.MQPMO_SYNCPOINT)
    assert handle.conn.uow.count == 2
    put(handle, b"3", 1.0)  # outside syncpoint: not counted
    get(handle, 2.0, CMQC.MQGMO_SYNCPOINT)
    assert handle.conn.uow.count == 3
    with pytest.raises(MQMIError) as limit:
        put(handle, b"4", 3.0, CMQC.MQPMO_SYNCPOINT)
    assert limit.value.reason == CMQC.MQRC_SYNCPOINT_LIMIT_REACHED


def test_backup_of_a_cflevel_3_recover_no_structure_names_recover_no() -> None:
    # CFLEVEL(3) is enough: what BACKUP refuses in it is RECOVER(NO).
    refused = structure_error(lambda: cfstate.check_backup(CFStructure("APP1", cf_level=3), ACTIVE))
    assert str(refused) == "CF structure APP1 cannot be backed up: it is RECOVER(NO)"


def test_recovery_time_is_its_start_each_log_opened_each_message_restored_each_record() -> None:
    # docs/coupling-facility.md: 2 s to start, 0.5 s a member's log opened, 0.1 ms a
    # message restored, 0.5 ms a log record applied -- each part adds.
    base = cfstate.recovery_seconds(0, 0, 0)
    assert base == cfstate.RECOVERY_START
    assert cfstate.recovery_seconds(0, 0, 4) == base + 4 * cfstate.LOG_OPEN
    assert cfstate.recovery_seconds(1000, 0, 0) == base + 1000 * cfstate.RESTORE_MESSAGE
    assert cfstate.recovery_seconds(0, 200, 0) == base + 200 * cfstate.LOG_RECORD


def failed_structure() -> QMgr:
    """QM1 of QSG1 with APP1 (RECOVER(YES)) backed up holding 3 persistent messages,
    then 2 more put, then failed."""
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1"))
    qm.define_structure(CFStructure("APP1", recover=True))
    load(qm, "DEFINE QLOCAL(ORDERS) QSGDISP(SHARED) CFSTRUCT(APP1)")
    q = open_queue(qm, "ORDERS")
    for n in range(5):
        put(q, b"order %d" % n, 1.0, Persistence=CMQC.MQPER_PERSISTENT)
        if n == 2:
            assert qm.qsg is not None
            cfstate.backup(qm.qsg.shared, "APP1", 1.0, 0.0)
    assert qm.qsg is not None
    cfstate.reset(qm.qsg.shared, "APP1", 2.0)
    return qm


def test_recover_type_normal_restores_the_backup_and_replays_each_members_log() -> None:
    # IBM, "RECOVER CFSTRUCT": TYPE(NORMAL) "performs a true recovery by restoring from
    # a backup and reapplying the log"; TYPE(PURGE) empties the structure.
    qm = failed_structure()
    assert qm.qsg is not None
    got = cfstate.recover(qm.qsg.shared, "APP1", False, 2)
    assert (got.name, got.from_backup, got.from_log, got.purged) == ("APP1", 3, 2, False)
    assert got.log_records >= 2
    assert got.seconds == cfstate.recovery_seconds(3, got.log_records, 2)
    assert qm.depth("ORDERS") == 5


def test_recover_type_purge_reads_neither_backup_nor_logs_and_empties_the_structure() -> None:
    qm = failed_structure()
    assert qm.qsg is not None
    got = cfstate.recover(qm.qsg.shared, "APP1", True, 2)
    assert (got.name, got.from_backup, got.from_log, got.purged) == ("APP1", 0, 0, True)
    assert got.seconds == cfstate.recovery_seconds(0, got.log_records, 0)
    assert qm.depth("ORDERS") == 0


def test_a_command_on_a_structure_not_defined_is_3236_with_status_not_found() -> None:
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1"))
    assert qm.qsg is not None
    shared = qm.qsg.shared
    missing = structure_error(lambda: cfstate.recover(shared, "NOPE", False, 1))
    assert (missing.reason, missing.status) == (
        CMQCFC.MQRCCF_CF_STRUC_ERROR,
        CMQCFC.MQCFSTATUS_NOT_FOUND,
    )
    assert str(missing) == "CF structure NOPE is not defined"


def igq_pair() -> tuple[QMgr, QMgr]:
    """QM1 and QM2 of QSG1 with the group's transmission queue, IGQ(ENABLED) on QM1 and
    APP.IN on QM2."""
    group = QueueSharingGroup("QSG1")
    qm1, qm2 = QMgr("QM1", qsg=group), QMgr("QM2", qsg=group)
    qm1.define_structure(CFStructure("CSQSYSAPPL", recover=True))
    load(qm1, f"{GROUP_QUEUE}\nALTER QMGR IGQ(ENABLED)")
    qm2.define_queue("APP.IN")
    return qm1, qm2


def test_the_agent_says_what_it_delivered_and_where() -> None:
    qm1, qm2 = igq_pair()
    handle = qm1.connect().open(OD(ObjectName=b"APP.IN", ObjectQMgrName=b"QM2"), OUT)
    sent = put(handle, b"twelve bytes", 1.0, Persistence=CMQC.MQPER_PERSISTENT, Expiry=600)
    (done,) = Agent(qm2).batch(2.0).delivered
    assert (done.queue, done.msg_id, done.length, done.persistent) == (
        "APP.IN",
        sent.MsgId,
        12,
        True,
    )
    assert 0 < done.expiry <= 600  # what was left of it when it was put again
    assert done.store is qm2.local.store


def test_a_persistent_message_neither_put_nor_dead_lettered_says_so_in_the_retry() -> None:
    qm1, qm2 = igq_pair()
    load(qm2, "ALTER QLOCAL(SYSTEM.DEAD.LETTER.QUEUE) PUT(DISABLED)")
    handle = qm1.connect().open(OD(ObjectName=b"NO.SUCH.Q", ObjectQMgrName=b"QM2"), OUT)
    put(handle, b"kept", 1.0, Persistence=CMQC.MQPER_PERSISTENT)
    assert Agent(qm2).batch(2.0).retry == (
        "MQCC_FAILED: MQRC_UNKNOWN_OBJECT_NAME (2085): a persistent message for NO.SUCH.Q "
        "could be neither put nor dead-lettered (its persistent messages backed out)"
    )


def test_an_agent_that_ends_ends_its_connection() -> None:
    _, qm2 = igq_pair()
    agent = Agent(qm2)
    agent.end()  # before any batch: nothing to end
    assert agent.conn is None
    agent.batch(1.0)
    conn = agent.conn
    assert conn is not None
    agent.end()
    assert agent.conn is None and not conn.connected
