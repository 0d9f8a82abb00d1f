"""Triggering: trigger events, trigger messages and their MQTM (qsg/core/trigger.py's
conditions 1-10; "Expiry (MQLONG)" note 2 on depth triggering and note 8 on the expiry of
trigger messages)."""

from __future__ import annotations

import struct

import pytest

from qsg import CMQC, MQMIError, QMgr, mqsc
from qsg.core.events import Event, TriggerMessagePut
from qsg.core.handle import Handle
from qsg.core.layouts import DLH, TM
from qsg.core.objects import CFStructure, ProcessDefinition
from qsg.core.sharing import QueueSharingGroup
from qsg.core.store import Ordering
from qsg.core.structs import MD
from tests.claims import keeps
from tests.helpers import SYNC_PUT, drain, get, get_or_none, open_queue, put

# The contract suite: each test runs on the in-process store and on the coupling facility's.
pytestmark = pytest.mark.usefixtures("each_store")

IN = CMQC.MQOO_INPUT_SHARED
OUT = CMQC.MQOO_OUTPUT


def triggered_qm(events: list[Event] | None = None, **queue: object) -> QMgr:
    """QM1 with process APP.PROC, initiation queue APP.INITQ (DEFPRTY 4) and APP.Q
    triggered as asked (TRIGTYPE FIRST unless told)."""
    qm = QMgr("QM1", on_event=None if events is None else events.append)
    process = ProcessDefinition(
        "APP.PROC",
        appl_type=CMQC.MQAT_UNIX,
        appl_id="/opt/app/server",
        env_data="ENV=1",
        user_data="user data",
    )
    qm.define_process(process)
    qm.define_queue("APP.INITQ", def_priority=4)
    attributes: dict[str, object] = {
        "trigger_control": CMQC.MQTC_ON,
        "process_name": "APP.PROC",
        "initiation_q_name": "APP.INITQ",
        "trigger_data": "some trigger data",
        **queue,
    }
    qm.define_queue("APP.Q", **attributes)
    return qm


def monitor(qm: QMgr) -> Handle:
    """A trigger monitor: the initiation queue open for input."""
    return open_queue(qm, "APP.INITQ", IN)


def trigger_messages(initq: Handle, now: float = 0.0) -> list[tuple[MD, TM]]:
    found = []
    while (got := get_or_none(initq, now)) is not None:
        body, md = got
        found.append((md, TM.unpack(body)))
    return found


@keeps(
    "docs/triggering.md",
    "A queue with `TRIGGER`, a `PROCESS` and an `INITQ` makes the queue manager write a "
    "trigger message (an MQTM, `qsg.core.layouts.TM`) to the initiation queue when a trigger "
    "event happens",
)
@keeps(
    "docs/triggering.md",
    "`FIRST` (the queue's count of messages of `TRIGMPRI` or more goes from 0 to 1",
)
@keeps("docs/triggering.md", "**The trigger message**: nonpersistent, `MQFMT_TRIGGER`")
@keeps("docs/triggering.md", "at the initiation queue's default priority")
@keeps(
    "docs/mq-rules.md",
    "TRIGTYPE(FIRST), EVERY and DEPTH fire as their conditions say; DEPTH turns triggering off.",
)
def test_a_first_message_on_an_empty_queue_writes_one_trigger_message_with_its_mqtm() -> None:
    qm = triggered_qm()
    initq = monitor(qm)
    app = open_queue(qm, "APP.Q", OUT)
    put(app, b"first", 1.0)
    put(app, b"second", 2.0)  # the queue was not empty: FIRST does not fire again
    [(md, tm)] = trigger_messages(initq)
    assert md.Format == CMQC.MQFMT_TRIGGER
    assert md.MsgType == CMQC.MQMT_DATAGRAM
    assert md.Persistence == CMQC.MQPER_NOT_PERSISTENT
    assert md.Priority == 4  # the initiation queue's default priority
    assert md.PutApplType == CMQC.MQAT_QMGR
    assert tm.StrucId == CMQC.MQTM_STRUC_ID and tm.Version == CMQC.MQTM_VERSION_1
    assert tm.QName.rstrip() == b"APP.Q"
    assert tm.ProcessName.rstrip() == b"APP.PROC"
    assert tm.TriggerData.rstrip() == b"some trigger data"
    assert tm.ApplType == CMQC.MQAT_UNIX
    assert tm.ApplId.rstrip() == b"/opt/app/server"
    assert tm.EnvData.rstrip() == b"ENV=1"
    assert tm.UserData.rstrip() == b"user data"


@keeps("docs/triggering.md", "always `MQEI_UNLIMITED`")
@keeps("docs/mq-rules.md", "Trigger messages always have MQEI_UNLIMITED (note 8).")
def test_trigger_messages_are_always_generated_with_unlimited_expiry() -> None:
    """ "Expiry (MQLONG)" note 8, even when the message that caused it expires."""
    qm = triggered_qm()
    initq = monitor(qm)
    put(open_queue(qm, "APP.Q", OUT), b"short-lived", 0.0, Expiry=5)
    [(md, _)] = trigger_messages(initq, now=1000.0)
    assert md.Expiry == CMQC.MQEI_UNLIMITED


@keeps("docs/mq-rules.md", "The MQTM is 684 bytes in IBM's layout.")
def test_the_mqtm_is_684_bytes_in_ibm_layout() -> None:
    tm = TM(b"Q", b"P", b"D", 6, b"A", b"E", b"U")
    data = tm.pack(CMQC.MQENC_NATIVE)
    assert len(data) == CMQC.MQTM_LENGTH_1 == 684
    assert data[:4] == b"TM  " and struct.unpack_from("<i", data, 4)[0] == 1
    assert data[8:9] == b"Q" and data[56:57] == b"P" and data[104:105] == b"D"
    assert struct.unpack_from("<i", data, 168)[0] == 6
    assert data[172:173] == b"A" and data[428:429] == b"E" and data[556:557] == b"U"
    assert TM.unpack(data) == TM(
        b"Q".ljust(48),
        b"P".ljust(48),
        b"D".ljust(64),
        6,
        b"A".ljust(256),
        b"E".ljust(128),
        b"U".ljust(128),
    )


@keeps("docs/triggering.md", "`EVERY` (each such message)")
@keeps(
    "docs/mq-rules.md",
    "TRIGTYPE(FIRST), EVERY and DEPTH fire as their conditions say; DEPTH turns triggering off.",
)
def test_every_writes_a_trigger_message_for_each_message() -> None:
    qm = triggered_qm(trigger_type=CMQC.MQTT_EVERY)
    initq = monitor(qm)
    app = open_queue(qm, "APP.Q", OUT)
    for n in range(3):
        put(app, b"m%d" % n, float(n))
    assert len(trigger_messages(initq)) == 3


@keeps(
    "docs/triggering.md",
    "`DEPTH` (the count reaches `TRIGDPTH`; then the queue manager sets `NOTRIGGER` until "
    "someone turns it on again)",
)
@keeps(
    "docs/mq-rules.md",
    "TRIGTYPE(FIRST), EVERY and DEPTH fire as their conditions say; DEPTH turns triggering off.",
)
def test_depth_fires_at_trigdpth_and_then_turns_triggering_off() -> None:
    qm = triggered_qm(trigger_type=CMQC.MQTT_DEPTH, trigger_depth=3)
    initq = monitor(qm)
    app = open_queue(qm, "APP.Q", OUT | CMQC.MQOO_INQUIRE)
    put(app, b"1", 0.0)
    put(app, b"2", 0.0)
    assert trigger_messages(initq) == []
    put(app, b"3", 0.0)
    assert len(trigger_messages(initq)) == 1
    assert app.inquire(CMQC.MQIA_TRIGGER_CONTROL) == CMQC.MQTC_OFF  # NOTRIGGER now
    put(app, b"4", 0.0)
    assert trigger_messages(initq) == []


@keeps("docs/triggering.md", "expired messages not yet discarded count, as for every purpose")
@keeps(
    "docs/mq-rules.md",
    (
        "Expired messages not yet discarded count in the queue's depth for every purpose, MAXDEPTH "
        "and depth triggering included (note 2)."
    ),
)
def test_expired_messages_not_yet_discarded_count_for_depth_triggering() -> None:
    """ "Expiry (MQLONG)" note 2: they count "for all purposes, including depth triggering"."""
    qm = triggered_qm(trigger_type=CMQC.MQTT_DEPTH, trigger_depth=3)
    initq = monitor(qm)
    app = open_queue(qm, "APP.Q", OUT)
    put(app, b"gone soon", 0.0, Expiry=10)
    put(app, b"gone soon too", 0.0, Expiry=10)
    put(app, b"third", 60.0)  # both have expired (1 s), neither is discarded yet
    assert len(trigger_messages(initq)) == 1
    assert qm.depth("APP.Q") == 3


@keeps("docs/triggering.md", "the queue's count of messages of `TRIGMPRI` or more")
def test_messages_below_trigmpri_neither_trigger_nor_count() -> None:
    qm = triggered_qm(trigger_msg_priority=5)
    initq = monitor(qm)
    app = open_queue(qm, "APP.Q", OUT)
    put(app, b"low", 0.0, Priority=1)
    assert trigger_messages(initq) == []
    put(app, b"high", 0.0, Priority=6)  # the first of priority 5 or more: FIRST fires
    assert len(trigger_messages(initq)) == 1


@pytest.mark.parametrize("ordering", [CMQC.MQMDS_PRIORITY, CMQC.MQMDS_FIFO])
@keeps("docs/triggering.md", "on a local queue committed and uncommitted messages")
def test_uncommitted_puts_count_on_a_local_queue_by_priority(ordering: int) -> None:
    """Condition 3 on a local queue: committed and uncommitted messages count."""
    qm = triggered_qm(
        trigger_type=CMQC.MQTT_DEPTH,
        trigger_depth=3,
        trigger_msg_priority=5,
        msg_delivery_sequence=ordering,
    )
    initq = monitor(qm)
    app = open_queue(qm, "APP.Q", OUT)
    put(app, b"uncommitted, high", 0.0, options=SYNC_PUT, Priority=7)
    put(open_queue(qm, "APP.Q", OUT), b"low", 0.0, Priority=2)
    put(open_queue(qm, "APP.Q", OUT), b"committed, high", 0.0, Priority=5)
    assert trigger_messages(initq) == []
    put(open_queue(qm, "APP.Q", OUT), b"third high", 0.0, Priority=9)
    assert len(trigger_messages(initq)) == 1


@keeps("docs/triggering.md", "FIRST and DEPTH do not fire while the queue is open for input")
def test_first_and_depth_do_not_fire_while_the_queue_is_open_for_input() -> None:
    """Condition 4; EVERY is not bound by it."""
    qm = triggered_qm()
    initq = monitor(qm)
    server = open_queue(qm, "APP.Q", IN)
    put(open_queue(qm, "APP.Q", OUT), b"served already", 0.0)
    assert trigger_messages(initq) == []
    qm.alter_queue("APP.Q", trigger_type=CMQC.MQTT_EVERY)
    put(open_queue(qm, "APP.Q", OUT), b"every", 0.0)
    assert len(trigger_messages(initq)) == 1
    server.close()


@keeps(
    "docs/triggering.md",
    "when the last handle that had the queue open for input closes with messages waiting",
)
def test_the_last_server_closing_with_messages_waiting_writes_a_trigger_message() -> None:
    qm = triggered_qm()
    initq = monitor(qm)
    server = open_queue(qm, "APP.Q", IN)
    put(open_queue(qm, "APP.Q", OUT), b"arrived before the close", 0.0)
    assert trigger_messages(initq) == []
    server.close()
    assert len(trigger_messages(initq)) == 1


def test_closing_a_handle_that_only_put_writes_no_trigger_message() -> None:
    # Only the last handle open for input leaving messages behind is an occasion (the
    # test above); a writer's close changes no condition.
    qm = triggered_qm()
    initq = monitor(qm)
    writer = open_queue(qm, "APP.Q", OUT)
    put(writer, b"first", 0.0)
    assert len(trigger_messages(initq)) == 1
    writer.close()
    assert trigger_messages(initq) == []


@keeps("docs/triggering.md", "and when a trigger monitor opens the initiation queue")
@keeps("docs/triggering.md", "is open for input (a trigger monitor)")
def test_no_trigger_message_without_a_trigger_monitor_and_one_when_it_opens_the_initq() -> None:
    """Condition 8; a trigger monitor opening the initiation queue finds what waits."""
    qm = triggered_qm()
    put(open_queue(qm, "APP.Q", OUT), b"nobody watching", 0.0)
    assert qm.depth("APP.INITQ") == 0
    initq = monitor(qm)
    assert len(trigger_messages(initq)) == 1


@pytest.mark.parametrize(
    "queue",
    [
        {"process_name": ""},  # condition 5: no process
        {"process_name": "NO.SUCH.PROCESS"},  # condition 5: not defined
        {"initiation_q_name": "NO.SUCH.QUEUE"},  # condition 6
        {"trigger_control": CMQC.MQTC_OFF},  # condition 9
        {"trigger_type": CMQC.MQTT_NONE},  # condition 10
    ],
    ids=["no-process", "undefined-process", "undefined-initq", "notrigger", "trigtype-none"],
)
@keeps("docs/triggering.md", "no trigger message without a defined process")
@keeps("docs/triggering.md", "an initiation queue that exists")
def test_no_trigger_message_when_a_condition_fails(queue: dict[str, object]) -> None:
    qm = triggered_qm(**queue)
    monitor(qm)
    put(open_queue(qm, "APP.Q", OUT), b"m", 0.0)
    assert qm.depth("APP.INITQ") == 0


@keeps("docs/triggering.md", "allows gets and is open for input")
def test_no_trigger_message_when_the_initiation_queue_inhibits_gets() -> None:
    """Condition 7."""
    qm = triggered_qm()
    monitor(qm)
    qm.alter_queue("APP.INITQ", inhibit_get=CMQC.MQQA_GET_INHIBITED)
    put(open_queue(qm, "APP.Q", OUT), b"m", 0.0)
    assert qm.depth("APP.INITQ") == 0


@keeps("docs/triggering.md", "(a transmission queue may have none)")
def test_a_transmission_queue_triggers_without_a_process() -> None:
    qm = triggered_qm(process_name="", usage=CMQC.MQUS_TRANSMISSION, trigger_data="TO.QM3")
    initq = monitor(qm)
    h = open_queue(qm, "APP.Q", OUT)
    from qsg.core.layouts import XQH

    xqh = XQH(b"Q", b"QM3", MD(Expiry=CMQC.MQEI_UNLIMITED)).pack()
    put(h, xqh + b"data", 0.0, Format=CMQC.MQFMT_XMIT_Q_HEADER)
    [(_, tm)] = trigger_messages(initq)
    assert tm.ProcessName.strip() == b"" and tm.TriggerData.rstrip() == b"TO.QM3"


@pytest.mark.parametrize("end", ["commit", "backout"])
@keeps(
    "docs/triggering.md",
    "Caused by a put in syncpoint it belongs to that unit of work (it counts towards MAXUMSGS) "
    "and is made available when the unit of work ends, committed or backed out.",
)
def test_a_trigger_message_from_a_syncpoint_put_waits_for_the_unit_of_work_to_end(
    end: str,
) -> None:
    """It is made available when the unit of work ends, committed or backed out."""
    qm = triggered_qm()
    initq = monitor(qm)
    conn = qm.connect()
    app = conn.open("APP.Q", OUT)
    put(app, b"in a unit of work", 0.0, options=SYNC_PUT)
    assert trigger_messages(initq) == []
    assert conn.uow.count == 2  # the put and its trigger message (MAXUMSGS counts both)
    conn.commit() if end == "commit" else conn.backout()
    assert len(trigger_messages(initq)) == 1


@keeps(
    "docs/triggering.md",
    "when triggering is turned on (MQSET of `MQIA_TRIGGER_CONTROL` and the other trigger selectors",
)
def test_triggering_turned_on_with_messages_waiting_writes_a_trigger_message() -> None:
    """MQSET of MQIA_TRIGGER_CONTROL, when the conditions already stand."""
    qm = triggered_qm(trigger_control=CMQC.MQTC_OFF)
    initq = monitor(qm)
    put(open_queue(qm, "APP.Q", OUT), b"waiting", 0.0)
    assert trigger_messages(initq) == []
    setter = open_queue(qm, "APP.Q", CMQC.MQOO_SET | CMQC.MQOO_INQUIRE)
    setter.set(CMQC.MQIA_TRIGGER_CONTROL, CMQC.MQTC_ON)
    assert len(trigger_messages(initq)) == 1
    assert setter.inquire(CMQC.MQIA_TRIGGER_CONTROL) == CMQC.MQTC_ON


@keeps("docs/triggering.md", "or `ALTER QLOCAL ... TRIGGER`)")
def test_alter_qlocal_trigger_with_messages_waiting_writes_a_trigger_message() -> None:
    qm = triggered_qm(trigger_control=CMQC.MQTC_OFF)
    initq = monitor(qm)
    put(open_queue(qm, "APP.Q", OUT), b"waiting", 0.0)
    mqsc.load(qm, "ALTER QLOCAL(APP.Q) TRIGGER")
    assert len(trigger_messages(initq)) == 1


@pytest.mark.parametrize(
    ("selector", "value", "reason"),
    [
        (CMQC.MQIA_TRIGGER_CONTROL, 2, CMQC.MQRC_TRIGGER_CONTROL_ERROR),
        (CMQC.MQIA_TRIGGER_TYPE, 4, CMQC.MQRC_TRIGGER_TYPE_ERROR),
        (CMQC.MQIA_TRIGGER_DEPTH, 0, CMQC.MQRC_TRIGGER_DEPTH_ERROR),
        (CMQC.MQIA_TRIGGER_MSG_PRIORITY, 10, CMQC.MQRC_TRIGGER_MSG_PRIORITY_ERR),
        (CMQC.MQCA_TRIGGER_DATA, b"x" * 65, CMQC.MQRC_CHAR_ATTR_LENGTH_ERROR),
    ],
)
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_TRIGGER_CONTROL_ERROR, _DEPTH_ERROR, _MSG_PRIORITY_ERR, _TYPE_ERROR | MQSET of a "
        "triggering attribute out of range"
    ),
)
def test_mqset_refuses_a_triggering_value_with_its_reason_code(
    selector: int, value: int | bytes, reason: int
) -> None:
    qm = triggered_qm()
    h = open_queue(qm, "APP.Q", CMQC.MQOO_SET)
    with pytest.raises(MQMIError) as refused:
        h.set(selector, value)
    assert refused.value.reason == reason


def test_mqset_changes_the_trigger_data_and_mqinq_reads_every_trigger_attribute() -> None:
    qm = triggered_qm(trigger_type=CMQC.MQTT_DEPTH, trigger_depth=7, trigger_msg_priority=3)
    h = open_queue(qm, "APP.Q", CMQC.MQOO_SET | CMQC.MQOO_INQUIRE)
    h.set(CMQC.MQCA_TRIGGER_DATA, b"new data")
    assert h.inquire(CMQC.MQCA_TRIGGER_DATA) == b"new data".ljust(64)
    assert h.inquire(CMQC.MQIA_TRIGGER_TYPE) == CMQC.MQTT_DEPTH
    assert h.inquire(CMQC.MQIA_TRIGGER_DEPTH) == 7
    assert h.inquire(CMQC.MQIA_TRIGGER_MSG_PRIORITY) == 3
    assert h.inquire(CMQC.MQCA_PROCESS_NAME) == b"APP.PROC".ljust(48)
    assert h.inquire(CMQC.MQCA_INITIATION_Q_NAME) == b"APP.INITQ".ljust(48)


@keeps("docs/triggering.md", "or `TRIGINT` milliseconds")
def test_first_fires_again_on_a_non_empty_queue_once_trigint_has_passed() -> None:
    qm = triggered_qm()
    qm.trigger_interval = 5_000  # TRIGINT(5000) milliseconds
    initq = monitor(qm)
    app = open_queue(qm, "APP.Q", OUT)
    put(app, b"1", 0.0)
    put(app, b"2", 4.0)  # not empty, 4 s since the last trigger message
    assert len(trigger_messages(initq)) == 1
    put(app, b"3", 5.0)  # not empty, 5 s: TRIGINT has passed
    assert len(trigger_messages(initq)) == 1


@keeps("docs/triggering.md", "One that cannot be put goes to the dead-letter queue.")
def test_a_trigger_message_that_cannot_be_put_goes_to_the_dead_letter_queue() -> None:
    events: list[Event] = []
    qm = triggered_qm(events)
    monitor(qm)
    qm.alter_queue("APP.INITQ", max_depth=0)
    put(open_queue(qm, "APP.Q", OUT), b"m", 0.0)
    body, _ = get(open_queue(qm, "SYSTEM.DEAD.LETTER.QUEUE"), 0.0)
    header = DLH.unpack(body)
    assert header.Reason == CMQC.MQRC_Q_FULL
    assert header.DestQName.rstrip() == b"APP.INITQ"
    assert header.Format == CMQC.MQFMT_TRIGGER
    assert TM.unpack(body[CMQC.MQDLH_LENGTH_1 :]).QName.rstrip() == b"APP.Q"
    assert not [e for e in events if isinstance(e, TriggerMessagePut)]


@keeps("docs/triggering.md", "Each is a `TriggerMessagePut` event.")
@keeps("docs/events.md", "trigger message put to the initiation queue `queue` for `app_queue`")
def test_every_trigger_message_is_an_event_naming_the_application_queue() -> None:
    events: list[Event] = []
    qm = triggered_qm(events, trigger_type=CMQC.MQTT_EVERY)
    monitor(qm)
    put(open_queue(qm, "APP.Q", OUT), b"m", 3.0)
    [event] = [e for e in events if isinstance(e, TriggerMessagePut)]
    assert (event.time, event.q_mgr, event.queue, event.app_queue) == (
        3.0,
        "QM1",
        "APP.INITQ",
        "APP.Q",
    )
    assert event.trigger_type == CMQC.MQTT_EVERY


# ---- shared queues -------------------------------------------------------------------
def shared_member() -> QMgr:
    group = QueueSharingGroup("QSG1")
    member = QMgr("QM1", qsg=group)
    member.define_structure(CFStructure("APP1"))
    member.define_process(ProcessDefinition("APP.PROC"))
    member.define_queue("APP.INITQ")
    member.define_queue(
        "APP.SHARED",
        qsg_disp=CMQC.MQQSGD_SHARED,
        cf_struct="APP1",
        trigger_control=CMQC.MQTC_ON,
        process_name="APP.PROC",
        initiation_q_name="APP.INITQ",
    )
    return member


@keeps(
    "docs/triggering.md",
    "on a shared queue committed ones only (so its trigger check happens at commit)",
)
@keeps("docs/mq-rules.md", "A shared queue counts committed messages only and triggers at commit.")
def test_a_shared_queue_counts_committed_messages_only_and_triggers_at_commit() -> None:
    qm = shared_member()
    initq = open_queue(qm, "APP.INITQ", IN)
    conn = qm.connect()
    app = conn.open("APP.SHARED", OUT)
    put(app, b"one", 0.0, options=SYNC_PUT)
    put(app, b"two", 0.0, options=SYNC_PUT)
    assert trigger_messages(initq) == []
    conn.commit()  # 0 -> 2 committed messages: one FIRST trigger message
    assert len(trigger_messages(initq)) == 1


@keeps("docs/triggering.md", "on a shared queue committed ones only")
def test_a_backed_out_put_to_a_shared_queue_triggers_nothing() -> None:
    qm = shared_member()
    initq = open_queue(qm, "APP.INITQ", IN)
    conn = qm.connect()
    put(conn.open("APP.SHARED", OUT), b"never committed", 0.0, options=SYNC_PUT)
    conn.backout()
    assert trigger_messages(initq) == []


@keeps(
    "docs/triggering.md",
    "For a shared queue only the member that put (or committed) the message writes a "
    "trigger message, to its own initiation queue",
)
def test_only_the_member_that_put_to_a_shared_queue_writes_its_trigger_message() -> None:
    # MQ would have QM2, whose trigger monitor also watches its own APP.INITQ, write one
    # too; qsg does not simulate that (docs/triggering.md, "Not simulated").
    group = QueueSharingGroup("QSG1")
    members = [QMgr(name, qsg=group) for name in ("QM1", "QM2")]
    for member in members:
        member.define_process(ProcessDefinition("APP.PROC"))
        member.define_queue("APP.INITQ")
    members[0].define_structure(CFStructure("APP1"))
    members[0].define_queue(
        "APP.SHARED",
        qsg_disp=CMQC.MQQSGD_SHARED,
        cf_struct="APP1",
        trigger_control=CMQC.MQTC_ON,
        trigger_type=CMQC.MQTT_EVERY,
        process_name="APP.PROC",
        initiation_q_name="APP.INITQ",
    )
    initqs = [open_queue(member, "APP.INITQ", IN) for member in members]
    put(open_queue(members[0], "APP.SHARED", OUT), b"on QM1", 0.0)
    put(open_queue(members[1], "APP.SHARED", OUT), b"on QM2", 0.0)
    written = [[tm.QName.rstrip() for _, tm in trigger_messages(initq)] for initq in initqs]
    assert written == [[b"APP.SHARED"], [b"APP.SHARED"]]  # one each: its own put's


# ---- MQSC ----------------------------------------------------------------------------
@keeps("docs/triggering.md", "`ALTER QMGR TRIGINT(n)`")
def test_mqsc_defines_processes_and_triggered_queues() -> None:
    qm = QMgr("QM1")
    mqsc.load(
        qm,
        """
        DEFINE PROCESS(APP.PROC) APPLTYPE(CICS) APPLICID('TRN1') +
               ENVRDATA('env') USERDATA('user') DESCR('the server')
        DEFINE QLOCAL(APP.INITQ)
        DEFINE QLOCAL(APP.Q) TRIGGER TRIGTYPE(DEPTH) TRIGDPTH(5) TRIGMPRI(2) +
               TRIGDATA('data') PROCESS(APP.PROC) INITQ(APP.INITQ)
        ALTER QMGR TRIGINT(60000)
        """,
    )
    process = qm.local.processes["APP.PROC"]
    assert (process.appl_type, process.appl_id, process.env_data, process.user_data) == (
        CMQC.MQAT_CICS,
        "TRN1",
        "env",
        "user",
    )
    q = qm.queue("APP.Q")
    assert (q.trigger_control, q.trigger_type, q.trigger_depth, q.trigger_msg_priority) == (
        CMQC.MQTC_ON,
        CMQC.MQTT_DEPTH,
        5,
        2,
    )
    assert (q.trigger_data, q.process_name, q.initiation_q_name) == (
        "data",
        "APP.PROC",
        "APP.INITQ",
    )
    assert qm.trigger_interval == 60_000
    mqsc.load(qm, "ALTER QLOCAL(APP.Q) NOTRIGGER")
    assert qm.queue("APP.Q").trigger_control == CMQC.MQTC_OFF


def test_mqsc_names_a_bad_trigger_value_with_file_and_line() -> None:
    with pytest.raises(mqsc.MQSCError) as bad:
        mqsc.parse("DEFINE QLOCAL(A)\nDEFINE QLOCAL(B) TRIGDPTH(0) TRIGTYPE(SOMETIMES)\n", "t.mqsc")
    text = str(bad.value)
    assert "t.mqsc:2" in text and "TRIGDPTH(0)" in text and "TRIGTYPE(SOMETIMES)" in text


# ---- the store primitive -------------------------------------------------------------
@pytest.mark.parametrize("ordering", [Ordering.PRIORITY, Ordering.FIFO])
def test_depth_at_least_counts_by_priority_committed_and_uncommitted(ordering: Ordering) -> None:
    qm = QMgr("QM1")
    qm.define_queue("Q", msg_delivery_sequence=CMQC.MQMDS_FIFO if ordering is Ordering.FIFO else 0)
    store = qm.local.store
    h = open_queue(qm, "Q")
    for priority in (0, 3, 5, 9):
        put(h, b"committed", 0.0, Priority=priority)
    other = qm.connect().open("Q", OUT)
    put(other, b"uncommitted", 0.0, options=SYNC_PUT, Priority=6)
    taker = qm.connect().open("Q", IN)
    # An uncommitted get holds the 9 (PRIORITY) or the 0 (FIFO): it counts no more.
    get(taker, 0.0, CMQC.MQGMO_SYNCPOINT)
    high = 1 if ordering is Ordering.PRIORITY else 2  # committed, of priority 5 or more
    assert store.depth_at_least("Q", 0, False) == qm.depth("Q") == 4
    assert store.depth_at_least("Q", 5, False) == high + 1  # and the uncommitted 6
    assert store.depth_at_least("Q", 5, True) == high
    assert store.depth_at_least("Q", 0, True) == 3
    assert drain(open_queue(qm, "Q"), 0.0)  # the rest are there to get
