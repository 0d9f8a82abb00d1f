"""Queue manager events on SYSTEM.ADMIN.QMGR.EVENT: inhibit events with INHIBTEV and
local events with LOCALEV (IBM: "Queue manager events", "Put Inhibited", "Get
Inhibited", "Unknown Object Name"), read byte by byte as a monitor reads them."""

from __future__ import annotations

import pytest

from qsg import CMQC, CMQCFC, QMgr
from qsg.core.authority import Authority
from qsg.core.errors import MQMIError
from qsg.mqsc import load
from tests.claims import keeps
from tests.helpers import get, open_queue, put
from tests.test_performance_events import Event, events

QMGR_EVENTS = "SYSTEM.ADMIN.QMGR.EVENT"
SETUP = f"""
DEFINE QLOCAL({QMGR_EVENTS})
DEFINE QLOCAL(APP.STOPPED) PUT(DISABLED) GET(DISABLED)
DEFINE QALIAS(APP.VIA) TARGET(APP.STOPPED)
"""


def refused(call: object) -> int:
    with pytest.raises(MQMIError) as error:
        call()  # type: ignore[operator]
    return error.value.reason


def qmgr(switches: str) -> QMgr:
    qm = QMgr("QM1")
    load(qm, SETUP + switches)
    return qm


@keeps(
    "docs/mq-events.md",
    "`INHIBTEV(ENABLED)` an MQPUT or MQPUT1 refused with MQRC_PUT_INHIBITED (2051) and an MQGET "
    "refused with MQRC_GET_INHIBITED (2016) each put an event of that reason",
)
@keeps("docs/mq-events.md", "QName (as the application named it, an alias's name)")
def test_put_and_get_inhibited_are_inhibit_events_naming_the_queue_the_application_opened() -> None:
    qm = qmgr("ALTER QMGR INHIBTEV(ENABLED)")
    conn = qm.connect(appl_name="orders")
    via = conn.open("APP.VIA", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
    assert refused(lambda: put(via, b"x", 1.0)) == CMQC.MQRC_PUT_INHIBITED
    assert refused(lambda: get(via, 2.0)) == CMQC.MQRC_GET_INHIBITED
    assert refused(lambda: conn.put1("APP.STOPPED", b"x", None, None, now=3.0)) == 2051
    got: list[Event] = events(qm, QMGR_EVENTS)
    assert [e.reason for e in got] == [2051, 2016, 2051]
    first = got[0]
    assert first.command == CMQCFC.MQCMD_Q_MGR_EVENT and first.comp_code == CMQC.MQCC_WARNING
    assert first.md.Format == CMQC.MQFMT_EVENT and first.md.Encoding == 785
    assert first.parameters == {
        CMQC.MQCA_Q_MGR_NAME: "QM1",
        CMQC.MQCA_Q_NAME: "APP.VIA",
        CMQC.MQIA_APPL_TYPE: CMQC.MQAT_UNIX,
        CMQCFC.MQCACF_APPL_NAME: "orders",
    }
    assert got[2].parameters[CMQC.MQCA_Q_NAME] == "APP.STOPPED"


@keeps(
    "docs/mq-events.md",
    "`LOCALEV(ENABLED)` an MQOPEN or MQPUT1 of an unknown queue (MQRC_UNKNOWN_OBJECT_NAME, "
    "2085) puts one.",
)
def test_an_unknown_queue_is_a_local_event_on_mqopen_and_mqput1() -> None:
    qm = qmgr("ALTER QMGR LOCALEV(ENABLED)")
    conn = qm.connect(appl_name="typo")
    assert refused(lambda: conn.open("APP.NOWHERE", CMQC.MQOO_OUTPUT)) == 2085
    assert refused(lambda: conn.put1("APP.NOWHERE2", b"x", None, None, now=1.0)) == 2085
    got = events(qm, QMGR_EVENTS)
    assert [(e.reason, e.parameters[CMQC.MQCA_Q_NAME]) for e in got] == [
        (CMQC.MQRC_UNKNOWN_OBJECT_NAME, "APP.NOWHERE"),
        (CMQC.MQRC_UNKNOWN_OBJECT_NAME, "APP.NOWHERE2"),
    ]


def test_each_switch_governs_its_own_events_and_disabled_is_the_default() -> None:
    qm = qmgr("ALTER QMGR LOCALEV(ENABLED)")  # inhibit events stay off
    q = open_queue(qm, "APP.STOPPED", CMQC.MQOO_OUTPUT)
    assert refused(lambda: put(q, b"x", 1.0)) == CMQC.MQRC_PUT_INHIBITED
    assert events(qm, QMGR_EVENTS) == []
    quiet = qmgr("")
    assert refused(lambda: quiet.connect().open("APP.NOWHERE", CMQC.MQOO_OUTPUT)) == 2085
    assert events(quiet, QMGR_EVENTS) == []


@keeps(
    "docs/mq-events.md",
    "`AUTHOREV` is shown only, DISABLED (z/OS refuses AUTHOREV(ENABLED)): IBM generates "
    'authority events on the distributed platforms alone ("Authority (on Multiplatforms '
    'only)").',
)
def test_authorev_is_shown_but_a_refused_open_puts_no_authority_event_as_on_z_os() -> None:
    authority = Authority()
    authority.grant("qsg", "*", "all")  # the monitor reading the event queue below
    qm = QMgr("QM1", authority=authority)
    load(qm, SETUP + "ALTER QMGR AUTHOREV(DISABLED) INHIBTEV(ENABLED) LOCALEV(ENABLED)")
    assert qm.authority_event == CMQCFC.MQEVR_DISABLED  # DISPLAY QMGR shows it
    outsider = qm.connect(user="eve")
    assert refused(lambda: outsider.open("APP.STOPPED", CMQC.MQOO_OUTPUT)) == 2035
    assert events(qm, QMGR_EVENTS) == []  # no MQRC_NOT_AUTHORIZED event on z/OS
