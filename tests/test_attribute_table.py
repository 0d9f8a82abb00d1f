"""The attribute table against IBM's own lists (issue 45): every keyword IBM MQ for z/OS
documents for an object type is accepted by DEFINE, shown by DISPLAY ... ALL, answered
by MQINQ where IBM's MQINQ takes its selector, and docs/mqsc.md lists it.

The lists below are copied by hand from IBM's MQSC reference ("DEFINE queues", "ALTER
queues": the parameters valid on z/OS) and from "MQINQ - Inquire object attributes"
(the selectors for queues), not from the table, so that the table is checked against
them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from qsg import CMQC, MQMIError, QMgr
from qsg.core import attributes
from qsg.core.objects import queue_attributes
from qsg.mqsc import commands, load, status

# A valid value for every keyword of DEFINE QLOCAL on z/OS (None: written bare).
_LOCAL_ZOS = {
    "ACCTQ": "ON",
    "BOQNAME": "APP.BACKOUT",
    "BOTHRESH": "3",
    "CAPEXPRY": "600",
    "CLCHNAME": "TO.*",
    "CLUSNL": "NL1",
    "CLUSTER": "CL1",
    "CLWLPRTY": "4",
    "CLWLRANK": "5",
    "CLWLUSEQ": "LOCAL",
    "CUSTOM": "'X(1)'",
    "DEFBIND": "NOTFIXED",
    "DEFPRESP": "ASYNC",
    "DEFPRTY": "4",
    "DEFPSIST": "YES",
    "DEFREADA": "YES",
    "DEFSOPT": "EXCL",
    "DESCR": "'work'",
    "GET": "DISABLED",
    "HARDENBO": None,
    "INDXTYPE": "MSGID",
    "INITQ": "APP.INITQ",
    "MAXDEPTH": "100",
    "MAXMSGL": "1000",
    "MONQ": "HIGH",
    "MSGDLVSQ": "FIFO",
    "PROCESS": "APP.PROC",
    "PROPCTL": "NONE",
    "PUT": "DISABLED",
    "QDEPTHHI": "90",
    "QDEPTHLO": "10",
    "QDPHIEV": "ENABLED",
    "QDPLOEV": "ENABLED",
    "QDPMAXEV": "DISABLED",
    "QSGDISP": "QMGR",
    "QSVCIEV": "HIGH",
    "QSVCINT": "5000",
    "RETINTVL": "100",
    "NOSHARE": None,
    "STATQ": "ON",
    "STGCLASS": "REMOTE",
    "STREAMQ": "APP.COPY",
    "STRMQOS": "MUSTDUP",
    "TRIGDATA": "'go'",
    "TRIGDPTH": "5",
    "TRIGGER": None,
    "TRIGMPRI": "3",
    "TRIGTYPE": "EVERY",
    "USAGE": "XMITQ",
}
_MODEL_ONLY = {"DEFTYPE": "PERMDYN"}
_NOT_ON_MODEL = {"CLCHNAME", "CLUSNL", "CLUSTER", "CLWLPRTY", "CLWLRANK", "CLWLUSEQ", "DEFBIND"}
ZOS_KEYWORDS: dict[str, dict[str, str | None]] = {
    "QLOCAL": _LOCAL_ZOS,
    "QMODEL": {
        **{k: v for k, v in _LOCAL_ZOS.items() if k not in _NOT_ON_MODEL},
        **_MODEL_ONLY,
    },
    "QALIAS": {
        "CAPEXPRY": "NOLIMIT",
        "CLUSNL": "NL1",
        "CLUSTER": "CL1",
        "CLWLPRTY": "4",
        "CLWLRANK": "5",
        "CUSTOM": "' '",
        "DEFBIND": "GROUP",
        "DEFPRESP": "ASYNC",
        "DEFPRTY": "4",
        "DEFPSIST": "YES",
        "DEFREADA": "DISABLED",
        "DESCR": "'a'",
        "GET": "DISABLED",
        "PROPCTL": "ALL",
        "PUT": "DISABLED",
        "QSGDISP": "QMGR",
        "TARGET": "APP.BASE",
        "TARGTYPE": "QUEUE",
    },
    "QREMOTE": {
        "CAPEXPRY": "60",
        "CLUSNL": "NL1",
        "CLUSTER": "CL1",
        "CLWLPRTY": "4",
        "CLWLRANK": "5",
        "CUSTOM": "' '",
        "DEFBIND": "GROUP",
        "DEFPRESP": "ASYNC",
        "DEFPRTY": "4",
        "DEFPSIST": "YES",
        "DESCR": "'r'",
        "PUT": "DISABLED",
        "QSGDISP": "QMGR",
        "RNAME": "THEIR.Q",
        "RQMNAME": "QM9",
        "XMITQ": "QM9",
    },
}
# The keywords IBM documents for the other platforms only ("Not valid on z/OS").
DISTRIBUTED_ONLY = {
    "QLOCAL": {
        "DISTL": "YES",
        "IMGRCOVQ": "YES",
        "MAXFSIZE": "100",
        "NPMCLASS": "HIGH",
        "SCOPE": "CELL",
    },
    "QALIAS": {"SCOPE": "CELL"},
    "QREMOTE": {"SCOPE": "CELL"},
}
# IBM's MQINQ selectors for queues that z/OS answers, and the keyword each stands for.
MQINQ_SELECTORS = {
    "BOQNAME": CMQC.MQCA_BACKOUT_REQ_Q_NAME,
    "TARGET": CMQC.MQCA_BASE_Q_NAME,
    "CFSTRUCT": CMQC.MQCA_CF_STRUC_NAME,
    "CLUSTER": CMQC.MQCA_CLUSTER_NAME,
    "CLUSNL": CMQC.MQCA_CLUSTER_NAMELIST,
    "CUSTOM": CMQC.MQCA_CUSTOM,
    "INITQ": CMQC.MQCA_INITIATION_Q_NAME,
    "PROCESS": CMQC.MQCA_PROCESS_NAME,
    "DESCR": CMQC.MQCA_Q_DESC,
    "RQMNAME": CMQC.MQCA_REMOTE_Q_MGR_NAME,
    "RNAME": CMQC.MQCA_REMOTE_Q_NAME,
    "STGCLASS": CMQC.MQCA_STORAGE_CLASS,
    "TRIGDATA": CMQC.MQCA_TRIGGER_DATA,
    "XMITQ": CMQC.MQCA_XMIT_Q_NAME,
    "ACCTQ": CMQC.MQIA_ACCOUNTING_Q,
    "BOTHRESH": CMQC.MQIA_BACKOUT_THRESHOLD,
    "TARGTYPE": CMQC.MQIA_BASE_TYPE,
    "CLWLPRTY": CMQC.MQIA_CLWL_Q_PRIORITY,
    "CLWLRANK": CMQC.MQIA_CLWL_Q_RANK,
    "CLWLUSEQ": CMQC.MQIA_CLWL_USEQ,
    "DEFBIND": CMQC.MQIA_DEF_BIND,
    "DEFSOPT": CMQC.MQIA_DEF_INPUT_OPEN_OPTION,
    "DEFPSIST": CMQC.MQIA_DEF_PERSISTENCE,
    "DEFPRTY": CMQC.MQIA_DEF_PRIORITY,
    "DEFPRESP": CMQC.MQIA_DEF_PUT_RESPONSE_TYPE,
    "DEFREADA": CMQC.MQIA_DEF_READ_AHEAD,
    "DEFTYPE": CMQC.MQIA_DEFINITION_TYPE,
    "HARDENBO": CMQC.MQIA_HARDEN_GET_BACKOUT,
    "INDXTYPE": CMQC.MQIA_INDEX_TYPE,
    "GET": CMQC.MQIA_INHIBIT_GET,
    "PUT": CMQC.MQIA_INHIBIT_PUT,
    "MAXMSGL": CMQC.MQIA_MAX_MSG_LENGTH,
    "MAXDEPTH": CMQC.MQIA_MAX_Q_DEPTH,
    "MSGDLVSQ": CMQC.MQIA_MSG_DELIVERY_SEQUENCE,
    "PROPCTL": CMQC.MQIA_PROPERTY_CONTROL,
    "QSGDISP": CMQC.MQIA_QSG_DISP,
    "RETINTVL": CMQC.MQIA_RETENTION_INTERVAL,
    "NOSHARE": CMQC.MQIA_SHAREABILITY,
    "TRIGGER": CMQC.MQIA_TRIGGER_CONTROL,
    "TRIGDPTH": CMQC.MQIA_TRIGGER_DEPTH,
    "TRIGMPRI": CMQC.MQIA_TRIGGER_MSG_PRIORITY,
    "TRIGTYPE": CMQC.MQIA_TRIGGER_TYPE,
    "USAGE": CMQC.MQIA_USAGE,
}
# The performance event attributes: "supported on z/OS, but the MQINQ call cannot be used
# to determine its value" (IBM: "QDepthHighEvent (MQLONG)" and its neighbours).
NOT_INQUIRED_ON_ZOS = {
    "QDPHIEV": CMQC.MQIA_Q_DEPTH_HIGH_EVENT,
    "QDEPTHHI": CMQC.MQIA_Q_DEPTH_HIGH_LIMIT,
    "QDPLOEV": CMQC.MQIA_Q_DEPTH_LOW_EVENT,
    "QDEPTHLO": CMQC.MQIA_Q_DEPTH_LOW_LIMIT,
    "QDPMAXEV": CMQC.MQIA_Q_DEPTH_MAX_EVENT,
    "QSVCINT": CMQC.MQIA_Q_SERVICE_INTERVAL,
    "QSVCIEV": CMQC.MQIA_Q_SERVICE_INTERVAL_EVENT,
}
_BARE_SHOWN = {"HARDENBO": "HARDENBO", "NOSHARE": "NOSHARE", "TRIGGER": "TRIGGER"}


def _console(qm: QMgr, text: str) -> str:
    return commands.run(commands.parse(text), qm, lambda: status.take(qm, 0.0)).text


def _define(object_type: str, keyword: str, value: str | None) -> str:
    written = keyword if value is None else f"{keyword}({value})"
    extra = " TARGET(APP.BASE)" if object_type == "QALIAS" and keyword != "TARGET" else ""
    return f"DEFINE {object_type}(T.Q){extra} {written}"


@pytest.mark.parametrize("object_type", sorted(ZOS_KEYWORDS))
def test_every_keyword_ibm_documents_for_z_os_is_accepted_and_shown_by_display_all(
    object_type: str,
) -> None:
    # "DEFINE queues": each parameter valid on z/OS is taken, and DISPLAY ... ALL shows
    # it with the value given ("ALL: display all the attributes").
    refused, unshown = [], []
    for keyword, value in ZOS_KEYWORDS[object_type].items():
        qm = QMgr("QM1")
        reply = _console(qm, _define(object_type, keyword, value))
        if "CSQ9022I" not in reply:
            refused.append(f"{keyword}: {reply.splitlines()[0]}")
            continue
        shown = _console(qm, f"DISPLAY {object_type}(T.Q) ALL")
        want = _BARE_SHOWN.get(keyword) or f"{keyword}("
        if re.search(rf"(^| ){re.escape(want)}", shown.splitlines()[1]) is None:
            unshown.append(keyword)
    assert (refused, unshown) == ([], [])


@pytest.mark.parametrize("object_type", sorted(ZOS_KEYWORDS))
def test_every_attribute_ibm_lets_mqinq_read_is_answered_with_the_value_defined(
    object_type: str,
) -> None:
    # "MQINQ - Inquire object attributes": the selectors for queues, each answered for
    # the type of queue it belongs to, with the value DEFINE gave.
    missing = []
    for keyword, value in ZOS_KEYWORDS[object_type].items():
        selector = MQINQ_SELECTORS.get(keyword)
        if selector is None:
            continue
        qm = QMgr("QM1")
        load(qm, _define(object_type, keyword, value))
        found = qm.find("T.Q")
        assert found is not None
        answers = queue_attributes(found[1], "QM1")
        if selector not in answers:
            missing.append(keyword)
    assert missing == []


def test_mqinq_reads_the_backout_threshold_and_queue_a_poison_message_consumer_needs() -> None:
    # The first case: DEFINE QLOCAL(APP.WORK) BOTHRESH(3) BOQNAME(APP.BACKOUT),
    # then MQINQ(MQIA_BACKOUT_THRESHOLD) and MQINQ(MQCA_BACKOUT_REQ_Q_NAME).
    qm = QMgr("QM1")
    load(qm, "DEFINE QLOCAL(APP.BACKOUT)\nDEFINE QLOCAL(APP.WORK) BOTHRESH(3) BOQNAME(APP.BACKOUT)")
    h = qm.connect().open("APP.WORK", CMQC.MQOO_INQUIRE)
    assert h.inquire(CMQC.MQIA_BACKOUT_THRESHOLD) == 3
    assert h.inquire(CMQC.MQCA_BACKOUT_REQ_Q_NAME) == b"APP.BACKOUT".ljust(48)
    assert h.inquire(CMQC.MQIA_HARDEN_GET_BACKOUT) in (0, 1)


@pytest.mark.parametrize(
    ("object_type", "keyword", "value"),
    [(t, k, v) for t, words in sorted(DISTRIBUTED_ONLY.items()) for k, v in words.items()],
)
def test_a_keyword_of_the_distributed_platforms_is_csq9001e_and_nothing_is_defined(
    object_type: str, keyword: str, value: str
) -> None:
    # CSQ9001E "'keyword' is invalid: the named keyword is unknown or undefined ... or
    # it might not be applicable to the command being processed".
    qm = QMgr("QM1")
    reply = _console(qm, _define(object_type, keyword, value))
    assert reply.splitlines()[0] == f"CSQ9001E !QM1 '{keyword}' IS INVALID"
    assert qm.find("T.Q") is None


def test_a_keyword_of_another_object_type_is_csq9001e_and_the_queue_is_unchanged() -> None:
    qm = QMgr("QM1")
    load(qm, "DEFINE QALIAS(T.Q) TARGET(APP.BASE)")
    before = qm.find("T.Q")
    reply = _console(qm, "ALTER QALIAS(T.Q) BOTHRESH(3)")
    assert reply.splitlines()[0] == "CSQ9001E !QM1 'BOTHRESH' IS INVALID"
    assert qm.find("T.Q") == before


def test_a_value_out_of_range_is_refused_in_one_line_and_the_queue_is_unchanged() -> None:
    qm = QMgr("QM1")
    load(qm, "DEFINE QLOCAL(T.Q) QDEPTHHI(80)")
    before = qm.find("T.Q")
    reply = _console(qm, "ALTER QLOCAL(T.Q) QDEPTHHI(101)").splitlines()
    assert len(reply) == 2 and "QDEPTHHI(101): 101 is not in 0..100" in reply[0]
    assert reply[1].startswith("CSQ9023E")
    assert qm.find("T.Q") == before


def test_every_default_is_ibms_and_the_records_fields_agree_with_the_table() -> None:
    # One source: a field's default on the record is the table's (IBM's) default.
    from qsg.core.objects import AliasQueue, CFStructure, ChannelDefinition, RemoteQueue
    from qsg.core.queue import QueueDefinition

    records = {
        "QLOCAL": QueueDefinition("X"),
        "QALIAS": AliasQueue("X", "Y"),
        "QREMOTE": RemoteQueue("X"),
        "CFSTRUCT": CFStructure("X"),
        "CHANNEL": ChannelDefinition("X", CMQC.MQCHT_RECEIVER),
    }
    wrong = [
        (kind, a.keyword)
        for kind, record in records.items()
        for a in attributes.TABLE[kind]
        if kind in a.objects and a.given and a.field and a.default is not None
        if attributes.read(record, a) != a.default
    ]
    assert wrong == []


def test_docs_mqsc_lists_each_attribute_of_the_table_once() -> None:
    # docs/mqsc.md's attribute list is the table's (python -m qsg.mqsc.doc writes it).
    from qsg.mqsc import doc

    text = Path("docs/mqsc.md").read_text()
    assert doc.section() in text


def test_mqset_of_an_attribute_mqset_never_changes_is_2067_and_the_queue_is_unchanged() -> None:
    # "MQSET - Set object attributes": only the inhibits and the triggering attributes
    # may be set; any other selector is MQRC_SELECTOR_ERROR (2067).
    qm = QMgr("QM1")
    load(qm, "DEFINE QLOCAL(T.Q) BOTHRESH(3)")
    h = qm.connect().open("T.Q", CMQC.MQOO_SET | CMQC.MQOO_INQUIRE)
    with pytest.raises(MQMIError, match=r"MQRC_SELECTOR_ERROR \(2067\)"):
        h.set(CMQC.MQIA_BACKOUT_THRESHOLD, 5)
    assert h.inquire(CMQC.MQIA_BACKOUT_THRESHOLD) == 3


@pytest.mark.parametrize("keyword", sorted(NOT_INQUIRED_ON_ZOS))
def test_mqinq_of_a_performance_event_attribute_is_2067_on_z_os_though_display_shows_it(
    keyword: str,
) -> None:
    # "QDepthHighEvent (MQLONG)" and its neighbours: "This attribute is supported on
    # z/OS, but the MQINQ call cannot be used to determine its value"; DISPLAY shows it.
    qm = QMgr("QM1")
    load(qm, f"DEFINE QLOCAL(T.Q) {keyword}({_LOCAL_ZOS[keyword]})")
    h = qm.connect().open("T.Q", CMQC.MQOO_INQUIRE)
    with pytest.raises(MQMIError, match=r"MQRC_SELECTOR_ERROR \(2067\)"):
        h.inquire(NOT_INQUIRED_ON_ZOS[keyword])
    assert f"{keyword}({_LOCAL_ZOS[keyword]})" in _console(qm, "DISPLAY QLOCAL(T.Q) ALL")


def test_pcf_change_q_sets_the_backout_threshold_by_ibms_parameter_identifier() -> None:
    # Change Queue's BackoutThreshold (MQIA_BACKOUT_THRESHOLD) is the table's row too.
    from qsg import CMQCFC
    from qsg.mqsc import pcf_changes
    from qsg.mqsc.pcf import Header, Message

    qm = QMgr("QM1")
    load(qm, "DEFINE QLOCAL(T.Q)")
    parameters = {
        CMQC.MQCA_Q_NAME: "T.Q",
        CMQC.MQIA_Q_TYPE: CMQC.MQQT_LOCAL,
        CMQC.MQIA_BACKOUT_THRESHOLD: 4,
        CMQC.MQCA_BACKOUT_REQ_Q_NAME: "APP.BACKOUT",
    }
    message = Message(Header(CMQCFC.MQCFT_COMMAND, CMQCFC.MQCMD_CHANGE_Q), parameters)
    pcf_changes.change_q(message, qm, status.take(qm, 0.0))
    found = qm.find("T.Q")
    assert found is not None
    answers = queue_attributes(found[1], "QM1")
    assert answers[CMQC.MQIA_BACKOUT_THRESHOLD] == 4
    assert answers[CMQC.MQCA_BACKOUT_REQ_Q_NAME] == b"APP.BACKOUT".ljust(48)


def test_a_new_local_queue_has_z_os_defaults_defsopt_excl_and_nohardenbo() -> None:
    # "DEFINE QLOCAL": DEFSOPT(EXCL) is the "Default for z/OS" (SHARED the Multiplatforms'),
    # and NOHARDENBO the default of HARDENBO/NOHARDENBO. So a second MQOO_INPUT_AS_Q_DEF
    # open of a queue defined with neither is MQRC_OBJECT_IN_USE (2042), and a queue
    # that says DEFSOPT(SHARED) takes both.
    qm = QMgr("QM1")
    load(qm, "DEFINE QLOCAL(T.Q)\nDEFINE QLOCAL(T.SHARED) DEFSOPT(SHARED)")
    shown = _console(qm, "DISPLAY QLOCAL(T.Q) DEFSOPT HARDENBO").splitlines()[1]
    assert "DEFSOPT(EXCL)" in shown and shown.endswith(" NOHARDENBO")
    h = qm.connect().open("T.Q", CMQC.MQOO_INQUIRE)
    assert h.inquire(CMQC.MQIA_DEF_INPUT_OPEN_OPTION) == CMQC.MQOO_INPUT_EXCLUSIVE
    assert h.inquire(CMQC.MQIA_HARDEN_GET_BACKOUT) == CMQC.MQQA_BACKOUT_NOT_HARDENED
    qm.connect().open("T.Q", CMQC.MQOO_INPUT_AS_Q_DEF)
    with pytest.raises(MQMIError, match=r"MQRC_OBJECT_IN_USE \(2042\)"):
        qm.connect().open("T.Q", CMQC.MQOO_INPUT_AS_Q_DEF)
    qm.connect().open("T.SHARED", CMQC.MQOO_INPUT_AS_Q_DEF)
    qm.connect().open("T.SHARED", CMQC.MQOO_INPUT_AS_Q_DEF)
