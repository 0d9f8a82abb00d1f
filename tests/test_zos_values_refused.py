"""Values IBM MQ for z/OS does not take, and a capability it shows (issue 45, bad input):
AUTHOREV(ENABLED), SPLPROT's values per channel type, TARGTYPE(TOPIC) and XRCAP.

Each refusal is one line and changes nothing, on the console and through PCF. The rules
are IBM's "ALTER QMGR (alter queue manager settings)" (AUTHOREV's ENABLED value carries
the note "Not valid on z/OS"), "AMS interception on server-to-server message channels"
(SPLPROT: PASSTHRU for SDR, SVR, RCVR and RQSTR, REMOVE for the sending ends, ASPOLICY
for the receiving ends) and "DISPLAY QMGR (display queue manager settings)" (XRCAP,
with no "Not valid on z/OS" note).
"""

from __future__ import annotations

import pytest

from qsg import CMQC, CMQCFC, QMgr
from qsg.mqsc import commands, pcf_changes, pcf_inquiries, status
from qsg.mqsc.pcf import Header, Message, PCFError
from qsg.pymqi.qmgr_attributes import qmgr_attribute
from tests.claims import keeps


def _console(qm: QMgr, text: str) -> list[str]:
    return commands.run(commands.parse(text), qm, lambda: status.take(qm, 0.0)).text.splitlines()


def _pcf(command: int, parameters: dict[int, object]) -> Message:
    return Message(Header(CMQCFC.MQCFT_COMMAND, command), parameters)  # type: ignore[arg-type]


@keeps(
    "docs/mqsc.md",
    'AUTHOREV(ENABLED) is refused (IBM marks that value "Not valid on z/OS": authority '
    "events are the distributed platforms' alone); AUTHOREV(DISABLED) is taken, and "
    "DISPLAY QMGR, MQINQ and PCF answer DISABLED.",
)
def test_alter_qmgr_authorev_enabled_is_not_valid_on_z_os_and_changes_nothing() -> None:
    # "ALTER QMGR": AUTHOREV(DISABLED | ENABLED), the note "Not valid on z/OS" on ENABLED.
    qm = QMgr("QM1")
    lines = _console(qm, "ALTER QMGR AUTHOREV(ENABLED)")
    assert lines == [
        "CSQ9017E !QM1 FAILURE WHILE PROCESSING THE COMMAND: AUTHOREV(ENABLED): "
        "ENABLED is not valid on z/OS (authority events are the distributed platforms')",
        "CSQ9023E !QM1 CSQMMSGP ' ALTER QMGR' ABNORMAL COMPLETION",
    ]
    assert _console(qm, "ALTER QMGR AUTHOREV(DISABLED)")[-1].startswith("CSQ9022I")
    assert " AUTHOREV(DISABLED)" in _console(qm, "DISPLAY QMGR AUTHOREV")[1]
    assert qmgr_attribute(qm, CMQC.MQIA_AUTHORITY_EVENT) == CMQCFC.MQEVR_DISABLED
    # "Change Queue Manager": the same value by PCF is MQRCCF_ATTR_VALUE_ERROR.
    change = _pcf(CMQCFC.MQCMD_CHANGE_Q_MGR, {CMQC.MQIA_AUTHORITY_EVENT: CMQCFC.MQEVR_ENABLED})
    with pytest.raises(PCFError) as refused:
        pcf_changes.change_q_mgr(change, qm, status.take(qm, 0.0))
    assert refused.value.reason == CMQCFC.MQRCCF_ATTR_VALUE_ERROR
    inquire = _pcf(CMQCFC.MQCMD_INQUIRE_Q_MGR, {})
    (answer,) = pcf_inquiries.inquire_q_mgr(inquire, qm, status.take(qm, 0.0))
    assert dict(answer)[CMQC.MQIA_AUTHORITY_EVENT] == CMQCFC.MQEVR_DISABLED


_CHANNELS = {
    "SDR": "DEFINE CHANNEL(T.CH) CHLTYPE(SDR) XMITQ(QM2) CONNAME('partner(1414)')",
    "SVR": "DEFINE CHANNEL(T.CH) CHLTYPE(SVR) XMITQ(QM2)",
    "RCVR": "DEFINE CHANNEL(T.CH) CHLTYPE(RCVR)",
    "RQSTR": "DEFINE CHANNEL(T.CH) CHLTYPE(RQSTR) CONNAME('partner(1414)')",
}
_TAKEN = {"SDR": "REMOVE", "SVR": "REMOVE", "RCVR": "ASPOLICY", "RQSTR": "ASPOLICY"}
_REFUSED = {"SDR": "ASPOLICY", "SVR": "ASPOLICY", "RCVR": "REMOVE", "RQSTR": "REMOVE"}


@keeps(
    "docs/mqsc.md",
    "SPLPROT takes PASSTHRU on the four message channel types, REMOVE on a sender or "
    "server only and ASPOLICY on a receiver or requester only",
)
@pytest.mark.parametrize("chltype", list(_CHANNELS))
def test_splprot_takes_only_the_values_ibm_gives_the_channels_type(chltype: str) -> None:
    # "AMS interception on server-to-server message channels": REMOVE "is valid for
    # channels with a channel type (CHLTYPE) of SDR or SVR", ASPOLICY "of RCVR or RQSTR".
    qm = QMgr("QM1")
    wrong = _REFUSED[chltype]
    lines = _console(qm, f"{_CHANNELS[chltype]} SPLPROT({wrong})")
    assert len(lines) == 2 and lines[1].startswith("CSQ9023E"), lines
    assert lines[0].endswith(
        f"SPLPROT({wrong}): {wrong} is not a value of CHANNEL CHLTYPE({chltype})"
    ), lines
    assert "T.CH" not in qm.local.channels
    assert _console(qm, f"{_CHANNELS[chltype]} SPLPROT({_TAKEN[chltype]})")[-1].startswith(
        "CSQ9022I"
    )
    before = qm.local.channels["T.CH"]
    lines = _console(qm, f"ALTER CHANNEL(T.CH) SPLPROT({wrong})")
    assert len(lines) == 2 and f"SPLPROT({wrong})" in lines[0], lines
    assert qm.local.channels["T.CH"] == before
    assert _console(qm, "ALTER CHANNEL(T.CH) SPLPROT(PASSTHRU)")[-1].startswith("CSQ9022I")


@keeps(
    "docs/mqsc.md",
    "TARGTYPE(TOPIC) is refused at DEFINE and ALTER, naming that topics are not simulated",
)
def test_an_alias_of_a_topic_is_refused_at_define_because_qsg_simulates_no_topics() -> None:
    # IBM takes DEFINE QALIAS TARGTYPE(TOPIC); qsg has no topic objects for it to name, so
    # it says so at DEFINE rather than take an alias every MQOPEN of which would fail.
    qm = QMgr("QM1")
    lines = _console(qm, "DEFINE QALIAS(APP.NEWS) TARGET(SPORTS) TARGTYPE(TOPIC)")
    assert lines == [
        "CSQ9017E !QM1 FAILURE WHILE PROCESSING THE COMMAND: TARGTYPE(TOPIC): "
        "TOPIC is not simulated (qsg has no topics: an alias names a queue)",
        "CSQ9023E !QM1 CSQMMSGP ' DEFINE QALIAS' ABNORMAL COMPLETION",
    ]
    assert "APP.NEWS" not in qm.local.queues
    define = _pcf(
        CMQCFC.MQCMD_CREATE_Q,
        {
            CMQC.MQCA_Q_NAME: "APP.NEWS",
            CMQC.MQIA_Q_TYPE: CMQC.MQQT_ALIAS,
            CMQC.MQCA_BASE_OBJECT_NAME: "SPORTS",
            CMQC.MQIA_BASE_TYPE: CMQC.MQOT_TOPIC,
        },
    )
    with pytest.raises(PCFError) as refused:
        pcf_changes.create_q(define, qm, status.take(qm, 0.0))
    assert refused.value.reason == CMQCFC.MQRCCF_ATTR_VALUE_ERROR
    assert "APP.NEWS" not in qm.local.queues


@keeps(
    "docs/mqsc.md",
    "DISPLAY QMGR shows XRCAP(NO), and PCF's Inquire Queue Manager answers "
    "MQIA_XR_CAPABILITY MQCAP_NOT_SUPPORTED",
)
def test_display_qmgr_shows_xrcap_no_and_no_command_sets_it() -> None:
    # "DISPLAY QMGR": XRCAP, whether MQ Telemetry is supported, is a queue manager system
    # attribute with no "Not valid on z/OS" note; qsg simulates no telemetry (MQTT).
    qm = QMgr("QM1")
    assert _console(qm, "DISPLAY QMGR XRCAP")[1].endswith(" XRCAP(NO)")
    assert " XRCAP(NO)" in " ".join(_console(qm, "DISPLAY QMGR SYSTEM"))
    inquire = _pcf(CMQCFC.MQCMD_INQUIRE_Q_MGR, {})
    (answer,) = pcf_inquiries.inquire_q_mgr(inquire, qm, status.take(qm, 0.0))
    assert dict(answer)[CMQC.MQIA_XR_CAPABILITY] == CMQC.MQCAP_NOT_SUPPORTED
    assert _console(qm, "ALTER QMGR XRCAP(YES)")[0] == "CSQ9001E !QM1 'XRCAP' IS INVALID"
