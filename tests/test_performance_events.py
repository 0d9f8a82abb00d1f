"""Performance events in the rules layer: IBM's queue depth and service interval rules
played as IBM's own examples play them, and the event messages read byte by byte.

IBM: "Enabling queue depth events", "Queue depth events: example 2" (its Table 13 of
enabled events is the first test), "Queue service interval events: example 3" (its
Table 8 of statistics), "Shared queues and queue depth events on z/OS", "Event message
MQMD (message descriptor)", "Event message MQCFH (PCF header)", "Queue Depth High".
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import pytest

from qsg import CMQC, CMQCFC, MD, QMgr
from qsg.core.errors import MQMIError
from qsg.core.handle import Handle
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc import load
from tests.claims import keeps
from tests.helpers import get, get_or_none, open_queue, put

EVENTS = "SYSTEM.ADMIN.PERFM.EVENT"
ON, OFF = CMQCFC.MQEVR_ENABLED, CMQCFC.MQEVR_DISABLED


@dataclass(frozen=True)
class Event:
    """An event message as a monitor reads it."""

    md: MD
    command: int
    reason: int
    comp_code: int
    parameters: dict[int, int | str]


def decode(md: MD, data: bytes) -> Event:
    """MQCFH then its MQCFST and MQCFIN structures, read by offset in the message's own
    Encoding and character set (not with qsg's PCF reader: an independent check)."""
    order = ">" if md.Encoding & 0xF == CMQC.MQENC_INTEGER_NORMAL else "<"
    kind, length, version, command, seq, control, comp, reason, count = struct.unpack_from(
        order + "9i", data
    )
    assert (kind, length, version, seq, control) == (CMQCFC.MQCFT_EVENT, 36, 1, 1, 1)
    at, parameters = 36, {}
    for _ in range(count):
        ptype, plength, parameter = struct.unpack_from(order + "3i", data, at)
        if ptype == CMQCFC.MQCFT_INTEGER:
            assert plength == 16
            parameters[parameter] = struct.unpack_from(order + "i", data, at + 12)[0]
        else:
            assert ptype == CMQCFC.MQCFT_STRING
            ccsid, size = struct.unpack_from(order + "2i", data, at + 12)
            codec = {500: "cp500", 819: "latin-1"}[ccsid]
            parameters[parameter] = data[at + 20 : at + 20 + size].decode(codec).rstrip()
        at += plength
    assert at == len(data)
    return Event(md, command, reason, comp, parameters)


def events(qm: QMgr, queue: str = EVENTS) -> list[Event]:
    handle = open_queue(qm, queue, CMQC.MQOO_INPUT_SHARED)
    found = []
    while (got := get_or_none(handle, 0.0)) is not None:
        found.append(decode(got[1], got[0]))
    handle.close()
    return found


def watched_qmgr(definition: str, name: str = "QM1", **kwargs: object) -> QMgr:
    qm = QMgr(name, **kwargs)  # type: ignore[arg-type]
    load(qm, f"ALTER QMGR PERFMEV(ENABLED)\nDEFINE QLOCAL({EVENTS})\n{definition}")
    return qm


def switches(qm: QMgr, queue: str) -> tuple[str, str, str]:
    qdef = qm.queue(queue)
    shown = {ON: "ENABLED", OFF: "-"}
    return (
        shown[qdef.q_depth_high_event],
        shown[qdef.q_depth_low_event],
        shown[qdef.q_depth_max_event],
    )


def fill_to(handle: Handle, qm: QMgr, depth: int, now: float) -> None:
    while qm.depth(handle.queue) < depth:
        put(handle, b"m", now)


def drain_to(handle: Handle, qm: QMgr, depth: int, now: float) -> None:
    while qm.depth(handle.queue) > depth:
        get(handle, now)


# MYQUEUE1 of IBM's examples, a hundredth of its depth: MAXDEPTH 10, high 80%, low 20%.
MYQUEUE1 = (
    "DEFINE QLOCAL(MYQUEUE1) MAXDEPTH(10) QDPMAXEV(DISABLED) QDEPTHHI(80) "
    "QDPHIEV(ENABLED) QDEPTHLO(20) QDPLOEV(DISABLED)"
)


@keeps(
    "docs/mq-events.md",
    "a put brings the depth (uncommitted puts included) to QDEPTHHI per cent of MAXDEPTH or "
    "more. It disables itself and enables Queue Depth Low and Queue Full.",
)
@keeps(
    "docs/mq-events.md",
    "brings the depth to QDEPTHLO per cent or less. It disables itself and enables Queue Depth "
    "High and Queue Full.",
)
@keeps(
    "docs/mq-events.md",
    "a put refused because the queue is at MAXDEPTH. It disables itself and enables Queue Depth "
    "Low.",
)
def test_queue_depth_events_enable_and_disable_each_other_as_ibms_example_2_table_13() -> None:
    qm = watched_qmgr(MYQUEUE1)
    q = open_queue(qm, "MYQUEUE1")
    seen = [("T0", switches(qm, "MYQUEUE1"))]
    fill_to(q, qm, 4, 1.0)  # T1..T3: through the low limit, rising: no event
    drain_to(q, qm, 1, 2.0)
    fill_to(q, qm, 8, 4.0)  # T4: the high limit
    seen.append(("T4", switches(qm, "MYQUEUE1")))
    drain_to(q, qm, 2, 6.0)  # T6: the low limit
    seen.append(("T6", switches(qm, "MYQUEUE1")))
    fill_to(q, qm, 8, 8.0)  # T8: the high limit again
    seen.append(("T8", switches(qm, "MYQUEUE1")))
    fill_to(q, qm, 10, 8.5)
    for at in (9.0, 10.0):  # T9: the first put refused; T10: still full, no event
        with pytest.raises(MQMIError) as full:
            put(q, b"m", at)
        assert full.value.reason == CMQC.MQRC_Q_FULL
    seen.append(("T9", switches(qm, "MYQUEUE1")))
    drain_to(q, qm, 2, 12.0)  # T12: the low limit
    seen.append(("T12", switches(qm, "MYQUEUE1")))
    assert seen == [  # Table 13: High, Low, Full
        ("T0", ("ENABLED", "-", "-")),
        ("T4", ("-", "ENABLED", "ENABLED")),
        ("T6", ("ENABLED", "-", "ENABLED")),
        ("T8", ("-", "ENABLED", "ENABLED")),
        ("T9", ("-", "ENABLED", "-")),
        ("T12", ("ENABLED", "-", "ENABLED")),
    ]
    got = events(qm)
    assert [e.reason for e in got] == [
        CMQC.MQRC_Q_DEPTH_HIGH,
        CMQC.MQRC_Q_DEPTH_LOW,
        CMQC.MQRC_Q_DEPTH_HIGH,
        CMQC.MQRC_Q_FULL,
        CMQC.MQRC_Q_DEPTH_LOW,
    ]
    # Table 12's rows, for this run: the statistics since the event before.
    stats = [
        (
            e.parameters[CMQC.MQIA_TIME_SINCE_RESET],
            e.parameters[CMQC.MQIA_HIGH_Q_DEPTH],
            e.parameters[CMQC.MQIA_MSG_ENQ_COUNT],
            e.parameters[CMQC.MQIA_MSG_DEQ_COUNT],
        )
        for e in got
    ]
    assert stats == [(4, 8, 11, 3), (2, 8, 0, 6), (2, 8, 6, 0), (1, 10, 2, 0), (3, 10, 0, 8)]


@keeps(
    "docs/mq-events.md",
    "on z/OS Encoding 785 (big-endian integers) and strings in EBCDIC, CCSID 500",
)
@keeps(
    "docs/mq-events.md",
    "the MQMD has MsgType MQMT_DATAGRAM, Format `MQEVENT ` (MQFMT_EVENT), PutApplType MQAT_QMGR "
    "and the queue manager's name as PutApplName",
)
def test_an_event_message_is_ibms_pcf_event_in_the_z_os_encoding() -> None:
    qm = watched_qmgr(MYQUEUE1)
    q = open_queue(qm, "MYQUEUE1")
    fill_to(q, qm, 8, 3.0)
    handle = open_queue(qm, EVENTS, CMQC.MQOO_INPUT_SHARED)
    data, md = get(handle, 3.0)
    assert md.Format == CMQC.MQFMT_EVENT and md.MsgType == CMQC.MQMT_DATAGRAM
    assert md.Encoding == 785 and md.CodedCharSetId == 500  # z/OS: big-endian, EBCDIC
    assert md.PutApplType == CMQC.MQAT_QMGR and md.PutApplName.rstrip() == b"QM1"
    assert md.CorrelId == CMQC.MQCI_NONE and md.Expiry == CMQC.MQEI_UNLIMITED
    # MQCFH: Type 7 (MQCFT_EVENT), StrucLength 36, Version 1, Command 45
    # (MQCMD_PERFM_EVENT), MsgSeqNumber 1, Control 1 (MQCFC_LAST), CompCode 1
    # (MQCC_WARNING), Reason 2224 (MQRC_Q_DEPTH_HIGH), ParameterCount 6.
    assert data[:36] == struct.pack(">9i", 7, 36, 1, 45, 1, 1, 1, 2224, 6)
    # The first parameter: MQCFST of MQCA_Q_MGR_NAME (2015), CCSID 500, 48 characters.
    assert data[36:56] == struct.pack(">5i", 4, 68, 2015, 500, 48)
    assert data[56:104] == "QM1".ljust(48).encode("cp500")
    event = decode(md, data)
    assert event.command == CMQCFC.MQCMD_PERFM_EVENT and event.comp_code == CMQC.MQCC_WARNING
    assert event.parameters == {
        CMQC.MQCA_Q_MGR_NAME: "QM1",
        CMQC.MQCA_BASE_Q_NAME: "MYQUEUE1",
        CMQC.MQIA_TIME_SINCE_RESET: 3,
        CMQC.MQIA_HIGH_Q_DEPTH: 8,
        CMQC.MQIA_MSG_ENQ_COUNT: 8,
        CMQC.MQIA_MSG_DEQ_COUNT: 0,
    }


@keeps("docs/mq-events.md", "on a distributed platform Encoding 546 and CCSID 819")
def test_a_distributed_queue_manager_writes_its_events_little_endian_in_iso_8859_1() -> None:
    qm = watched_qmgr(MYQUEUE1, platform=CMQC.MQPL_UNIX)
    fill_to(open_queue(qm, "MYQUEUE1"), qm, 8, 1.0)
    (event,) = events(qm)
    assert (event.md.Encoding, event.md.CodedCharSetId) == (CMQC.MQENC_NATIVE, 819)
    assert event.parameters[CMQC.MQCA_BASE_Q_NAME] == "MYQUEUE1"


@keeps(
    "docs/mq-events.md",
    "the service timer starts at a put to an empty queue, restarts at a get that leaves "
    "messages, stops at a get that empties the queue; a put or get that finds it running longer "
    "than QSVCINT is High (QSVCIEV becomes OK), a get within QSVCINT is OK (QSVCIEV becomes "
    "HIGH).",
)
def test_queue_service_interval_events_follow_ibms_example_3_table_8() -> None:
    qm = watched_qmgr("DEFINE QLOCAL(SERVICED) QSVCINT(1000) QSVCIEV(HIGH)")
    q = open_queue(qm, "SERVICED")
    put(q, b"P1", 0.0)  # starts the service timer
    put(q, b"P2", 0.5)  # within the interval: no event
    put(q, b"P3", 1.5)  # the timer has run 1.5 s > 1 s: High, and OK enabled
    assert qm.queue("SERVICED").q_service_interval_event == CMQCFC.MQQSIE_OK
    get(q, 2.5)  # 2.5 s since P1: late, no OK event; the timer restarts
    get(q, 4.0)  # 1.5 s: late again; restarts
    get(q, 5.0)  # exactly the interval, and the queue empty: OK, High enabled
    assert qm.queue("SERVICED").q_service_interval_event == CMQCFC.MQQSIE_HIGH
    got = events(qm)
    assert [e.reason for e in got] == [
        CMQC.MQRC_Q_SERVICE_INTERVAL_HIGH,
        CMQC.MQRC_Q_SERVICE_INTERVAL_OK,
    ]
    table_8 = [
        tuple(e.parameters[p] for p in (35, 36, 37, 38))  # TimeSinceReset .. MsgDeqCount
        for e in got
    ]
    assert table_8 == [(1, 3, 3, 0), (3, 3, 0, 3)]
    put(q, b"P4", 10.0)  # an empty queue's timer was OFF: a put to it starts it afresh
    get(q, 10.5)
    assert [e.reason for e in events(qm)] == []  # High enabled, and serviced in time


@keeps(
    "docs/mq-events.md",
    "Calls in a unit of work cause events whether it commits or backs out, and the switches "
    "stay changed",
)
def test_events_come_of_calls_in_a_unit_of_work_even_when_it_is_backed_out() -> None:
    qm = watched_qmgr(MYQUEUE1)
    conn = qm.connect()
    q = open_queue(qm, "MYQUEUE1", conn=conn)
    for _ in range(8):
        put(q, b"m", 1.0, CMQC.MQPMO_SYNCPOINT)
    conn.backout()
    assert qm.depth("MYQUEUE1") == 0
    assert [e.reason for e in events(qm)] == [CMQC.MQRC_Q_DEPTH_HIGH]
    assert switches(qm, "MYQUEUE1") == ("-", "ENABLED", "ENABLED")  # not undone either


@keeps(
    "docs/mq-events.md",
    "| `PERFMEV(ENABLED\\|DISABLED)` | QMGR | DISABLED | every performance event of "
    "the queue manager; while DISABLED nothing is counted |",
)
def test_with_perfmev_disabled_nothing_is_counted_and_no_event_is_put() -> None:
    qm = QMgr("QM1")
    load(qm, f"DEFINE QLOCAL({EVENTS})\n{MYQUEUE1}")
    fill_to(open_queue(qm, "MYQUEUE1"), qm, 10, 1.0)
    assert qm.queue_statistics == {} and qm.depth(EVENTS) == 0
    assert switches(qm, "MYQUEUE1") == ("ENABLED", "-", "-")


@keeps(
    "docs/mq-events.md", "an event is lost, and the application whose call caused it never notices."
)
def test_no_event_queue_loses_the_event_and_the_application_never_notices() -> None:
    qm = QMgr("QM1")
    load(qm, f"ALTER QMGR PERFMEV(ENABLED)\n{MYQUEUE1}")
    fill_to(open_queue(qm, "MYQUEUE1"), qm, 9, 1.0)  # High fired: no queue to put it on
    assert qm.depth("MYQUEUE1") == 9 and qm.find(EVENTS) is None
    assert switches(qm, "MYQUEUE1") == ("-", "ENABLED", "ENABLED")


@keeps(
    "docs/mq-events.md",
    "it writes its event message with a new CorrelId, and every other member of the group with "
    "PERFMEV enabled writes one with the same CorrelId and its own statistics for the queue, "
    "zeros if it did nothing there",
)
def test_a_shared_queues_depth_event_is_issued_by_every_member_under_one_correl_id() -> None:
    group = QueueSharingGroup("QSG1")
    qm1, qm2 = QMgr("QM1", qsg=group), QMgr("QM2", qsg=group)
    for qm in (qm1, qm2):
        load(qm, f"ALTER QMGR PERFMEV(ENABLED)\nDEFINE QLOCAL({EVENTS})")
    load(
        qm1,
        "DEFINE CFSTRUCT(APP1)\nDEFINE QLOCAL(ORDERS) QSGDISP(SHARED) CFSTRUCT(APP1) "
        "MAXDEPTH(10) QDPHIEV(ENABLED) QDPLOEV(DISABLED) QDPMAXEV(DISABLED)",
    )
    fill_to(open_queue(qm1, "ORDERS"), qm1, 8, 2.0)  # QM1 detects it: the coordinator
    # The shared definition changed for the whole group.
    assert switches(qm2, "ORDERS") == ("-", "ENABLED", "ENABLED")
    (mine,), (theirs,) = events(qm1), events(qm2)
    assert mine.reason == theirs.reason == CMQC.MQRC_Q_DEPTH_HIGH
    assert mine.md.CorrelId == theirs.md.CorrelId != CMQC.MQCI_NONE
    assert mine.parameters[CMQC.MQCA_Q_MGR_NAME] == "QM1"
    assert mine.parameters[CMQC.MQIA_MSG_ENQ_COUNT] == 8
    # QM2 did nothing on the queue: a null event message, its own statistics at zero.
    assert theirs.parameters[CMQC.MQCA_Q_MGR_NAME] == "QM2"
    assert [theirs.parameters[p] for p in (36, 37, 38)] == [0, 0, 0]
    drain_to(open_queue(qm2, "ORDERS"), qm2, 2, 3.0)  # now QM2 detects, and coordinates
    (mine,), (theirs,) = events(qm1), events(qm2)
    assert mine.reason == theirs.reason == CMQC.MQRC_Q_DEPTH_LOW
    assert mine.md.CorrelId == theirs.md.CorrelId
    assert theirs.parameters[CMQC.MQIA_MSG_DEQ_COUNT] == 6
    assert mine.parameters[CMQC.MQIA_MSG_DEQ_COUNT] == 0


@keeps(
    "docs/mq-events.md", "Service interval events are not generated for shared queues, as on z/OS."
)
def test_a_shared_queue_has_no_service_interval_events_as_on_z_os() -> None:
    group = QueueSharingGroup("QSG1")
    qm = QMgr("QM1", qsg=group)
    load(
        qm,
        f"ALTER QMGR PERFMEV(ENABLED)\nDEFINE QLOCAL({EVENTS})\nDEFINE CFSTRUCT(APP1)\n"
        "DEFINE QLOCAL(ORDERS) QSGDISP(SHARED) CFSTRUCT(APP1) QSVCINT(10) QSVCIEV(HIGH)",
    )
    q = open_queue(qm, "ORDERS")
    put(q, b"a", 0.0)
    put(q, b"b", 5.0)
    get(q, 9.0)
    assert events(qm) == []
