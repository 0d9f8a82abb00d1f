"""The event switches and limits as MQSC takes and shows them (IBM: "DEFINE queues",
QDEPTHHI ... QSVCINT; "ALTER QMGR", PERFMEV, INHIBTEV, LOCALEV, AUTHOREV, CHLEV), with
IBM's defaults: queue full events enabled, every other switch disabled."""

from __future__ import annotations

import pytest

from qsg import CMQCFC, QMgr
from qsg.mqsc import MQSCError, commands, load, status
from tests.claims import keeps


def _display(qm: QMgr, text: str) -> str:
    return commands.run(commands.parse(text), qm, lambda: status.take(qm, 0.0)).text


@keeps(
    "docs/mq-events.md",
    "| `QSVCIEV(HIGH\\|OK\\|NONE)` | QLOCAL, QMODEL | NONE | Queue Service Interval "
    "High / OK events |",
)
@keeps(
    "docs/mq-events.md",
    "| `QSVCINT(0..999999999)` | QLOCAL, QMODEL | 999999999 | the service interval, milliseconds |",
)
@keeps("docs/mq-events.md", "| `QDPMAXEV` | QLOCAL, QMODEL | ENABLED | Queue Full events |")
@keeps(
    "docs/mq-events.md",
    "| `QDPHIEV`, `QDPLOEV` | QLOCAL, QMODEL | DISABLED | Queue Depth High / Low events |",
)
@keeps("docs/mq-events.md", "| `QDEPTHLO(0..100)` | QLOCAL, QMODEL | 20 | Queue Depth Low limit |")
@keeps(
    "docs/mq-events.md",
    "| `QDEPTHHI(0..100)` | QLOCAL, QMODEL | 80 | Queue Depth High limit, per cent of MAXDEPTH |",
)
def test_a_local_queue_takes_the_depth_and_service_interval_attributes_with_ibms_defaults() -> None:
    qm = QMgr("QM1")
    load(qm, "DEFINE QLOCAL(APP.PLAIN)")
    plain = qm.queue("APP.PLAIN")
    assert (plain.q_depth_high_limit, plain.q_depth_low_limit) == (80, 20)
    assert plain.q_depth_high_event == plain.q_depth_low_event == CMQCFC.MQEVR_DISABLED
    assert plain.q_depth_max_event == CMQCFC.MQEVR_ENABLED
    assert plain.q_service_interval == 999_999_999
    assert plain.q_service_interval_event == CMQCFC.MQQSIE_NONE
    load(
        qm,
        "DEFINE QLOCAL(APP.WATCHED) MAXDEPTH(1000) QDEPTHHI(90) QDPHIEV(ENABLED) "
        "QDEPTHLO(10) QDPLOEV(ENABLED) QDPMAXEV(DISABLED) QSVCINT(5000) QSVCIEV(HIGH)",
    )
    watched = qm.queue("APP.WATCHED")
    assert (watched.q_depth_high_limit, watched.q_depth_low_limit) == (90, 10)
    assert watched.q_depth_high_event == watched.q_depth_low_event == CMQCFC.MQEVR_ENABLED
    assert watched.q_depth_max_event == CMQCFC.MQEVR_DISABLED
    assert (watched.q_service_interval, watched.q_service_interval_event) == (
        5000,
        CMQCFC.MQQSIE_HIGH,
    )
    shown = _display(qm, "DISPLAY QLOCAL(APP.WATCHED) ALL")
    for word in (
        "QDEPTHHI(90)",
        "QDEPTHLO(10)",
        "QDPHIEV(ENABLED)",
        "QDPLOEV(ENABLED)",
        "QDPMAXEV(DISABLED)",
        "QSVCINT(5000)",
        "QSVCIEV(HIGH)",
    ):
        assert word in shown
    # A model queue takes them too, with the same defaults, and shows them.
    load(qm, "DEFINE QMODEL(APP.MODEL) QDEPTHHI(70) QDPLOEV(ENABLED) QSVCIEV(OK)")
    model = _display(qm, "DISPLAY QMODEL(APP.MODEL) ALL")
    for word in (
        "QDEPTHHI(70)",
        "QDEPTHLO(20)",
        "QDPHIEV(DISABLED)",
        "QDPLOEV(ENABLED)",
        "QDPMAXEV(ENABLED)",
        "QSVCINT(999999999)",
        "QSVCIEV(OK)",
    ):
        assert word in model


def test_alter_qmgr_turns_on_the_event_switches_and_display_qmgr_shows_them() -> None:
    qm = QMgr("QM1")
    assert "PERFMEV(DISABLED)" in _display(qm, "DISPLAY QMGR")
    load(
        qm,
        "ALTER QMGR PERFMEV(ENABLED) INHIBTEV(ENABLED) LOCALEV(ENABLED) CHLEV(ENABLED)",
    )
    assert qm.performance_event == qm.inhibit_event == qm.local_event == CMQCFC.MQEVR_ENABLED
    assert qm.channel_event == CMQCFC.MQEVR_ENABLED
    shown = _display(qm, "DISPLAY QMGR")
    for word in ("PERFMEV", "INHIBTEV", "LOCALEV", "CHLEV"):
        assert f"{word}(ENABLED)" in shown
    assert "AUTHOREV(DISABLED)" in shown  # ENABLED: "Not valid on z/OS"


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("DEFINE QLOCAL(Q) QDEPTHHI(101)", "101 is not in 0..100"),
        ("DEFINE QLOCAL(Q) QSVCIEV(LOW)", "'LOW' is not one of NONE, HIGH, OK"),
        ("ALTER QMGR PERFMEV(YES)", "'YES' is not one of ENABLED, DISABLED"),
    ],
)
def test_a_value_out_of_range_is_refused_on_one_line_and_nothing_changes(
    text: str, complaint: str
) -> None:
    qm = QMgr("QM1")
    with pytest.raises(MQSCError) as refused:
        load(qm, text)
    assert complaint in str(refused.value) and "\n" not in str(refused.value).strip()
    assert qm.find("Q") is None and qm.performance_event == CMQCFC.MQEVR_DISABLED
