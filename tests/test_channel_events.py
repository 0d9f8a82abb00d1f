"""Channel events on SYSTEM.ADMIN.CHANNEL.EVENT with CHLEV (IBM: "Channel events",
"Channel Started", "Channel Stopped", "Channel Stopped By User", "ChannelEvent
(MQLONG)"): with CHLEV(ENABLED) a channel instance that starts puts MQRC_CHANNEL_STARTED
(2282); one that had started and stops puts MQRC_CHANNEL_STOPPED (2283) with a
ReasonQualifier saying how (OK, ERROR, RETRY, DISABLED); STOP CHANNEL puts
MQRC_CHANNEL_STOPPED_BY_USER (2279). CHLEV(EXCEPTION) keeps only the exceptions: no
started event, no stop with MQRQ_CHANNEL_STOPPED_OK. Read byte by byte as a monitor
reads them."""

from __future__ import annotations

import trio

import qsg
from actors.clock import VirtualClock
from qsg import CMQC, CMQCFC, GMO, MD, QMgr
from qsg.core import chlevents
from qsg.core.events import EventMessagePut
from qsg.mqsc import commands, load, status
from tests.claims import keeps
from tests.test_performance_events import Event, decode, events
from tests.worlds import qsg_and_qm3

CHANNEL_EVENTS = "SYSTEM.ADMIN.CHANNEL.EVENT"


def qmgr(chlev: str) -> QMgr:
    qm = QMgr("QM1")
    load(
        qm,
        f"""
        ALTER QMGR CHLEV({chlev})
        DEFINE QLOCAL({CHANNEL_EVENTS})
        DEFINE QLOCAL(QM3) USAGE(XMITQ)
        DEFINE CHANNEL(QM1.TO.QM3) CHLTYPE(SDR) CONNAME('qm3.example(1414)') XMITQ(QM3)
        DEFINE CHANNEL(QM3.TO.QM1) CHLTYPE(RCVR)
        """,
    )
    return qm


def change(qm: QMgr, channel: str, state: str, detail: str = "", now: float = 1.0) -> None:
    chlevents.state_changed(qm, qm.local.channels[channel], state, detail, now)


@keeps(
    "docs/mq-events.md",
    "with `CHLEV(ENABLED)` a channel instance that starts puts MQRC_CHANNEL_STARTED (2282: "
    "QMgrName, ChannelName, XmitQName for a sender, ConnectionName when the definition has one)",
)
def test_a_sender_that_starts_puts_channel_started_with_its_xmitq_and_conname() -> None:
    qm = qmgr("ENABLED")
    change(qm, "QM1.TO.QM3", "BINDING")
    change(qm, "QM1.TO.QM3", "RUNNING")
    (started,) = events(qm, CHANNEL_EVENTS)
    assert (started.command, started.reason) == (CMQCFC.MQCMD_CHANNEL_EVENT, 2282)
    assert started.comp_code == CMQC.MQCC_WARNING and started.md.Format == CMQC.MQFMT_EVENT
    assert started.parameters == {
        CMQC.MQCA_Q_MGR_NAME: "QM1",
        CMQCFC.MQCACH_CHANNEL_NAME: "QM1.TO.QM3",
        CMQCFC.MQCACH_XMIT_Q_NAME: "QM3",
        CMQCFC.MQCACH_CONNECTION_NAME: "qm3.example(1414)",
    }


def test_a_receiver_that_starts_names_no_transmission_queue() -> None:
    qm = qmgr("ENABLED")
    change(qm, "QM3.TO.QM1", "RUNNING")
    (started,) = events(qm, CHANNEL_EVENTS)
    assert CMQCFC.MQCACH_XMIT_Q_NAME not in started.parameters


def reasons(got: list[Event]) -> list[tuple[int, int | None]]:
    return [(e.reason, e.parameters.get(CMQCFC.MQIACF_REASON_QUALIFIER)) for e in got]  # type: ignore[misc]


@keeps(
    "docs/mq-events.md",
    "one that had started and stops puts MQRC_CHANNEL_STOPPED (2283) with QMgrName, "
    "ReasonQualifier, ChannelName",
)
def test_a_started_channel_that_stops_says_how_in_its_reason_qualifier() -> None:
    qm = qmgr("ENABLED")
    for state, detail in [
        ("RUNNING", ""),
        ("RETRYING", "AMQ9213E: the link broke"),
        ("RUNNING", ""),
        ("STOPPED", "retries exhausted"),
        ("RUNNING", ""),
        ("INACTIVE", "AMQ9509E: a message could not be put"),
        ("RUNNING", ""),
        ("INACTIVE", ""),
    ]:
        change(qm, "QM1.TO.QM3", state, detail)
    started = (CMQC.MQRC_CHANNEL_STARTED, None)
    assert reasons(events(qm, CHANNEL_EVENTS)) == [
        started,
        (CMQC.MQRC_CHANNEL_STOPPED, CMQCFC.MQRQ_CHANNEL_STOPPED_RETRY),
        started,
        (CMQC.MQRC_CHANNEL_STOPPED, CMQCFC.MQRQ_CHANNEL_STOPPED_DISABLED),
        started,
        (CMQC.MQRC_CHANNEL_STOPPED, CMQCFC.MQRQ_CHANNEL_STOPPED_ERROR),
        started,
        (CMQC.MQRC_CHANNEL_STOPPED, CMQCFC.MQRQ_CHANNEL_STOPPED_OK),
    ]


@keeps(
    "docs/mq-events.md",
    "`STOP CHANNEL` puts MQRC_CHANNEL_STOPPED_BY_USER (2279) with MQRQ_CHANNEL_STOPPED_DISABLED.",
)
def test_stop_channel_is_channel_stopped_by_user_with_stopped_disabled() -> None:
    qm = qmgr("ENABLED")
    change(qm, "QM1.TO.QM3", "RUNNING")
    change(qm, "QM1.TO.QM3", "STOPPED", chlevents.STOP_CHANNEL)
    got = events(qm, CHANNEL_EVENTS)
    assert reasons(got)[1] == (
        CMQC.MQRC_CHANNEL_STOPPED_BY_USER,
        CMQCFC.MQRQ_CHANNEL_STOPPED_DISABLED,
    )
    assert got[1].parameters[CMQCFC.MQCACH_CHANNEL_NAME] == "QM1.TO.QM3"


def test_a_channel_that_never_started_puts_no_channel_stopped() -> None:
    qm = qmgr("ENABLED")
    change(qm, "QM1.TO.QM3", "BINDING")
    change(qm, "QM1.TO.QM3", "RETRYING", "AMQ9202E: the partner is not there")
    assert events(qm, CHANNEL_EVENTS) == []


@keeps(
    "docs/mq-events.md",
    "`CHLEV(EXCEPTION)` puts all but Channel Started and the stop with MQRQ_CHANNEL_STOPPED_OK",
)
def test_chlev_exception_keeps_the_exceptions_only() -> None:
    qm = qmgr("EXCEPTION")
    for state in ("RUNNING", "INACTIVE", "RUNNING", "RETRYING"):
        change(qm, "QM1.TO.QM3", state)
    assert reasons(events(qm, CHANNEL_EVENTS)) == [
        (CMQC.MQRC_CHANNEL_STOPPED, CMQCFC.MQRQ_CHANNEL_STOPPED_RETRY)
    ]


@keeps("docs/mq-events.md", "`DISABLED`, the default, none.")
def test_chlev_disabled_the_default_puts_no_channel_event() -> None:
    qm = qmgr("DISABLED")
    for state in ("RUNNING", "RETRYING", "RUNNING", "STOPPED"):
        change(qm, "QM1.TO.QM3", state)
    assert events(qm, CHANNEL_EVENTS) == []


EVENTING = f"ALTER QMGR CHLEV(ENABLED)\nDEFINE QLOCAL({CHANNEL_EVENTS})"


@keeps("docs/mq-events.md", "at each end of a message channel, when its agent's state changes")
async def test_a_world_puts_started_at_both_ends_and_a_stop_at_each(
    virtual_clock: VirtualClock,
) -> None:
    topology = qsg_and_qm3()
    topology.mqsc("QM1", EVENTING)
    topology.mqsc("QM3", EVENTING)
    async with qsg.start(topology, in_process=True) as world:
        await trio.sleep(5)
        await world.stop_channel("QM1", "QM1.TO.QM3")
        await trio.sleep(5)
        put = [
            (e.q_mgr, e.reason, e.object_name)
            for e in world.events.of(EventMessagePut)
            if e.queue == CHANNEL_EVENTS
        ]
        conn = await world.connect("QM1")
        queue = await conn.open(CHANNEL_EVENTS, CMQC.MQOO_INPUT_SHARED)
        md = MD()
        data = await queue.get(None, md, GMO(Options=CMQC.MQGMO_NO_SYNCPOINT))
    assert sorted(put) == [
        ("QM1", CMQC.MQRC_CHANNEL_STOPPED_BY_USER, "QM1.TO.QM3"),
        ("QM1", CMQC.MQRC_CHANNEL_STARTED, "QM1.TO.QM3"),
        ("QM3", CMQC.MQRC_CHANNEL_STARTED, "QM1.TO.QM3"),
        ("QM3", CMQC.MQRC_CHANNEL_STOPPED, "QM1.TO.QM3"),
    ]
    first = decode(md, data)  # the sender's start, as a monitor reads it
    assert first.reason == CMQC.MQRC_CHANNEL_STARTED
    assert first.parameters[CMQCFC.MQCACH_XMIT_Q_NAME] == "QM3"


async def receiving_end_events(
    virtual_clock: VirtualClock, chlev: str, end: str
) -> tuple[list[Event], str]:
    """QM1's sender QM1.TO.QM3 runs to QM3 (whose CHLEV is ``chlev``), then ends by
    ``end`` ("stop": STOP CHANNEL at QM1; "break": its link drops): the channel events
    QM3, the receiving end, put, as a monitor reads them, and DISPLAY CHSTATUS's state
    of QM3's receiver afterwards."""
    topology = qsg_and_qm3()
    topology.mqsc("QM3", f"ALTER QMGR CHLEV({chlev})\nDEFINE QLOCAL({CHANNEL_EVENTS})")
    async with qsg.start(topology, in_process=True) as world:
        await trio.sleep(5)
        if end == "stop":
            await world.stop_channel("QM1", "QM1.TO.QM3")
        else:
            await world.break_channel("QM1", "QM1.TO.QM3")
        await trio.sleep(1)
        receiver = world.qmgrs["QM3"].rules.local.channels["QM1.TO.QM3"]
        state = world.channel_board.view("QM3", receiver).status
        conn = await world.connect("QM3")
        queue = await conn.open(CHANNEL_EVENTS, CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_INQUIRE)
        got = []
        while await queue.inquire(CMQC.MQIA_CURRENT_Q_DEPTH):
            md = MD()
            data = await queue.get(None, md, GMO(Options=CMQC.MQGMO_NO_SYNCPOINT))
            got.append(decode(md, data))
    return got, state


@keeps(
    "docs/mq-events.md",
    "The receiving end of a channel whose sender ends it (`STOP CHANNEL`) ends too, and "
    "puts Channel Stopped with MQRQ_CHANNEL_STOPPED_OK",
)
async def test_the_receiving_end_puts_channel_stopped_ok_when_its_sender_ends_the_channel(
    virtual_clock: VirtualClock,
) -> None:
    # IBM, "Channel Stopped": "issued when a channel instance stops. It will only be
    # issued if the channel instance previously issued a channel started event" -- the
    # receiving instance issued one when it started.
    got, state = await receiving_end_events(virtual_clock, "ENABLED", "stop")
    assert reasons(got) == [
        (CMQC.MQRC_CHANNEL_STARTED, None),
        (CMQC.MQRC_CHANNEL_STOPPED, CMQCFC.MQRQ_CHANNEL_STOPPED_OK),
    ]
    stopped = got[1].parameters
    assert stopped[CMQC.MQCA_Q_MGR_NAME] == "QM3"
    assert stopped[CMQCFC.MQCACH_CHANNEL_NAME] == "QM1.TO.QM3"
    assert CMQCFC.MQCACH_XMIT_Q_NAME not in stopped  # a receiver's names none
    assert state == "INACTIVE"


@keeps(
    "docs/mq-events.md",
    "one whose link breaks ends with an error (AMQ9209E) and puts it with "
    "MQRQ_CHANNEL_STOPPED_ERROR; either way its DISPLAY CHSTATUS shows INACTIVE until the "
    "next start.",
)
async def test_the_receiving_end_puts_channel_stopped_error_when_the_link_breaks(
    virtual_clock: VirtualClock,
) -> None:
    # CHLEV(EXCEPTION): no Channel Started, but the stop on an error is an exception.
    got, state = await receiving_end_events(virtual_clock, "EXCEPTION", "break")
    assert reasons(got) == [(CMQC.MQRC_CHANNEL_STOPPED, CMQCFC.MQRQ_CHANNEL_STOPPED_ERROR)]
    assert state == "INACTIVE"


async def test_chlev_exception_puts_nothing_at_the_receiving_end_of_a_channel_ended_cleanly(
    virtual_clock: VirtualClock,
) -> None:
    got, _ = await receiving_end_events(virtual_clock, "EXCEPTION", "stop")
    assert got == []


def test_chlev_takes_exception_as_ibm_alter_qmgr_does_and_display_shows_it() -> None:
    # IBM: "ALTER QMGR": CHLEV(DISABLED|ENABLED|EXCEPTION); the other event switches
    # have no EXCEPTION.
    qm = QMgr("QM1")

    def run(text: str) -> tuple[str, ...]:
        return commands.run(commands.parse(text), qm, lambda: status.take(qm, 0.0)).lines

    run("ALTER QMGR CHLEV(EXCEPTION)")
    assert qm.channel_event == CMQCFC.MQEVR_EXCEPTION
    assert run("DISPLAY QMGR CHLEV")[1] == "CSQM409I !QM1 QMNAME(QM1) CHLEV(EXCEPTION)"
    refused = run("ALTER QMGR PERFMEV(EXCEPTION)")
    assert refused[0].startswith("CSQ9017E !QM1") and "'EXCEPTION' is not one of" in refused[0]
    assert qm.performance_event == CMQCFC.MQEVR_DISABLED


@keeps("docs/mq-events.md", "`DISABLED`, the default, none.")
def test_a_queue_manager_that_never_set_chlev_puts_no_channel_event() -> None:
    # "ALTER QMGR": CHLEV's default is DISABLED: not even STOP CHANNEL's exception.
    qm = QMgr("QM1")
    load(qm, f"DEFINE QLOCAL({CHANNEL_EVENTS})\nDEFINE CHANNEL(QM3.TO.QM1) CHLTYPE(RCVR)")
    change(qm, "QM3.TO.QM1", "RUNNING")
    change(qm, "QM3.TO.QM1", "STOPPED", chlevents.STOP_CHANNEL)
    assert events(qm, CHANNEL_EVENTS) == []
