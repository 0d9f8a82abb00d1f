"""SHARE/NOSHARE and DEFSOPT at MQOPEN; GET/PUT(DISABLED), triggering and RETINTVL
through MQSET, MQINQ and MQSC alike.

IBM: "MQOPEN - Open object" (MQOO_INPUT_AS_Q_DEF: "the queue is opened for use with
subsequent MQGET calls ... with the access determined by the value of the
DefInputOpenOption queue attribute"; MQOO_INPUT_SHARED on a queue whose Shareability is
MQQA_NOT_SHAREABLE is treated as MQOO_INPUT_EXCLUSIVE; a second input open of a queue
open exclusively fails with MQRC_OBJECT_IN_USE, 2042), "Setting queue attributes" (MQSET
sets InhibitGet, InhibitPut and the trigger attributes only), "RetentionInterval
(MQLONG)" (the queue manager takes no action on it), "2016 (07E0) (RC2016):
MQRC_GET_INHIBITED" and "2051 (0803) (RC2051): MQRC_PUT_INHIBITED".
"""

from __future__ import annotations

import pytest

from qsg import CMQC, MQMIError, QMgr
from qsg.core.objects import CFStructure
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc import MQSCError, commands, load, status
from tests.helpers import get, put

IN_USE = r"^MQCC_FAILED: MQRC_OBJECT_IN_USE \(2042\): "
SHARED, EXCL, AS_Q_DEF = (
    CMQC.MQOO_INPUT_SHARED,
    CMQC.MQOO_INPUT_EXCLUSIVE,
    CMQC.MQOO_INPUT_AS_Q_DEF,
)


def run(qm: QMgr, text: str) -> str:
    return commands.run(commands.parse(text), qm, lambda: status.take(qm, 0.0)).text


def group() -> tuple[QMgr, QMgr]:
    qsg = QueueSharingGroup("QSG1")
    qm1, qm2 = QMgr("QM1", qsg=qsg), QMgr("QM2", qsg=qsg)
    qm1.define_structure(CFStructure("APP1"))
    return qm1, qm2


# ---- SHARE/NOSHARE and DEFSOPT ---------------------------------------------------------
def test_input_as_q_def_follows_defsopt_as_altered_at_the_next_open() -> None:
    qm = QMgr("QM1")
    load(qm, "DEFINE QLOCAL(APP.WORK) DEFSOPT(SHARED)")
    first = qm.connect().open("APP.WORK", AS_Q_DEF)
    second = qm.connect().open("APP.WORK", AS_Q_DEF)  # two shared opens
    assert first.options & SHARED and second.options & SHARED
    load(qm, "ALTER QLOCAL(APP.WORK) DEFSOPT(EXCL)")  # open handles keep their access
    with pytest.raises(MQMIError, match=IN_USE + r"APP\.WORK is open for input by another"):
        qm.connect().open("APP.WORK", AS_Q_DEF)  # now exclusive: refused while others hold it
    first.close()
    second.close()
    exclusive = qm.connect().open("APP.WORK", AS_Q_DEF)
    assert exclusive.options & EXCL
    with pytest.raises(MQMIError, match=IN_USE + r"APP\.WORK is open for input exclusively$"):
        qm.connect().open("APP.WORK", SHARED)
    inq = qm.connect().open("APP.WORK", CMQC.MQOO_INQUIRE)
    assert inq.inquire(CMQC.MQIA_DEF_INPUT_OPEN_OPTION) == EXCL
    assert "DEFSOPT(EXCL)" in run(qm, "DISPLAY QLOCAL(APP.WORK) DEFSOPT")


def test_input_shared_on_a_noshare_queue_is_exclusive_and_shown_so() -> None:
    qm = QMgr("QM1")
    load(qm, "DEFINE QLOCAL(APP.WORK) NOSHARE DEFSOPT(SHARED)")
    h = qm.connect().open("APP.WORK", SHARED)
    assert h.options & EXCL and not h.options & SHARED
    for options in (SHARED, AS_Q_DEF, EXCL):
        with pytest.raises(MQMIError, match=IN_USE):
            qm.connect().open("APP.WORK", options)
    qm.connect().open("APP.WORK", CMQC.MQOO_OUTPUT | CMQC.MQOO_BROWSE)  # not input: free
    shown = run(qm, "DISPLAY QSTATUS(APP.WORK) TYPE(HANDLE) INPUT")
    assert "INPUT(EXCL)" in shown and "INPUT(SHARED)" not in shown
    inq = qm.connect().open("APP.WORK", CMQC.MQOO_INQUIRE)
    assert inq.inquire(CMQC.MQIA_SHAREABILITY) == CMQC.MQQA_NOT_SHAREABLE
    h.close()
    load(qm, "ALTER QLOCAL(APP.WORK) SHARE")
    qm.connect().open("APP.WORK", SHARED)
    qm.connect().open("APP.WORK", SHARED)


def test_a_noshare_shared_queue_is_exclusive_across_the_group() -> None:
    qm1, qm2 = group()
    load(qm1, "DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1) NOSHARE")
    qm1.connect().open("APP.SHARED", SHARED)
    with pytest.raises(MQMIError, match=IN_USE):
        qm2.connect().open("APP.SHARED", SHARED)


# ---- MQSET of GET and PUT, as ALTER ----------------------------------------------------
def test_mqset_inhibits_gets_and_puts_for_every_handle_as_alter_does() -> None:
    qm = QMgr("QM1")
    load(qm, "DEFINE QLOCAL(APP.WORK)")
    setter = qm.connect().open("APP.WORK", CMQC.MQOO_SET | CMQC.MQOO_INQUIRE)
    reader = qm.connect().open("APP.WORK", SHARED)
    writer = qm.connect().open("APP.WORK", CMQC.MQOO_OUTPUT)
    put(writer, b"before", 0.0)
    setter.set(CMQC.MQIA_INHIBIT_GET, CMQC.MQQA_GET_INHIBITED)
    with pytest.raises(MQMIError, match=r"MQRC_GET_INHIBITED \(2016\)"):
        get(reader, 1.0)
    assert "GET(DISABLED)" in run(qm, "DISPLAY QLOCAL(APP.WORK) GET")
    setter.set(CMQC.MQIA_INHIBIT_PUT, CMQC.MQQA_PUT_INHIBITED)
    with pytest.raises(MQMIError, match=r"MQRC_PUT_INHIBITED \(2051\)"):
        put(writer, b"refused", 2.0)
    assert "PUT(DISABLED)" in run(qm, "DISPLAY QLOCAL(APP.WORK) PUT")
    load(qm, "ALTER QLOCAL(APP.WORK) GET(ENABLED) PUT(ENABLED)")
    assert setter.inquire(CMQC.MQIA_INHIBIT_GET) == CMQC.MQQA_GET_ALLOWED
    assert setter.inquire(CMQC.MQIA_INHIBIT_PUT) == CMQC.MQQA_PUT_ALLOWED
    put(writer, b"after", 3.0)
    assert [get(reader, 4.0)[0], get(reader, 4.0)[0]] == [b"before", b"after"]


def test_mqset_of_a_shared_queue_inhibits_it_at_every_member() -> None:
    qm1, qm2 = group()
    load(qm1, "DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1)")
    qm1.connect().open("APP.SHARED", CMQC.MQOO_SET).set(CMQC.MQIA_INHIBIT_PUT, 1)
    with pytest.raises(MQMIError, match=r"MQRC_PUT_INHIBITED \(2051\)"):
        put(qm2.connect().open("APP.SHARED", CMQC.MQOO_OUTPUT), b"x", 0.0)
    on_qm2 = qm2.connect().open("APP.SHARED", CMQC.MQOO_SET | CMQC.MQOO_INQUIRE)
    on_qm2.set(CMQC.MQIA_TRIGGER_CONTROL, CMQC.MQTC_ON)
    assert (
        qm1.connect().open("APP.SHARED", CMQC.MQOO_INQUIRE).inquire(CMQC.MQIA_TRIGGER_CONTROL)
        == CMQC.MQTC_ON
    )


def test_mqset_of_an_inhibit_refused_leaves_the_queue_as_it_was() -> None:
    qm = QMgr("QM1")
    load(qm, "DEFINE QLOCAL(APP.WORK) GET(DISABLED)")
    h = qm.connect().open("APP.WORK", CMQC.MQOO_SET | CMQC.MQOO_INQUIRE)
    with pytest.raises(MQMIError, match=r"^MQCC_FAILED: MQRC_INHIBIT_VALUE_ERROR \(2020\)"):
        h.set(CMQC.MQIA_INHIBIT_GET, 7)
    assert h.inquire(CMQC.MQIA_INHIBIT_GET) == CMQC.MQQA_GET_INHIBITED


# ---- RETINTVL: kept, shown and inquired, never set by MQSET ----------------------------
def test_retintvl_is_defined_in_mqsc_read_by_mqinq_and_not_set_by_mqset() -> None:
    qm = QMgr("QM1")
    load(qm, "DEFINE QLOCAL(APP.WORK) RETINTVL(24)\nDEFINE QLOCAL(APP.PLAIN)")
    h = qm.connect().open("APP.WORK", CMQC.MQOO_INQUIRE | CMQC.MQOO_SET)
    assert h.inquire(CMQC.MQIA_RETENTION_INTERVAL) == 24
    plain = qm.connect().open("APP.PLAIN", CMQC.MQOO_INQUIRE)
    assert plain.inquire(CMQC.MQIA_RETENTION_INTERVAL) == 999_999_999  # DEFINE's default
    with pytest.raises(MQMIError, match=r"^MQCC_FAILED: MQRC_SELECTOR_ERROR \(2067\)"):
        h.set(CMQC.MQIA_RETENTION_INTERVAL, 1)
    assert h.inquire(CMQC.MQIA_RETENTION_INTERVAL) == 24
    assert "RETINTVL(24)" in run(qm, "DISPLAY QLOCAL(APP.WORK) RETINTVL")
    load(qm, "ALTER QLOCAL(APP.WORK) RETINTVL(0)")
    assert h.inquire(CMQC.MQIA_RETENTION_INTERVAL) == 0
    # "the queue manager takes no action": a queue past its retention interval stays.
    put(qm.connect().open("APP.WORK", CMQC.MQOO_OUTPUT), b"kept", 0.0)
    assert qm.scan_expired(10_000_000.0) == 0 and qm.depth("APP.WORK") == 1


def test_a_retintvl_out_of_range_is_refused_and_the_queue_is_unchanged() -> None:
    qm = QMgr("QM1")
    load(qm, "DEFINE QLOCAL(APP.WORK) RETINTVL(5)")
    with pytest.raises(MQSCError, match=r"RETINTVL.*1000000000 is not in 0\.\.999999999"):
        load(qm, "ALTER QLOCAL(APP.WORK) RETINTVL(1000000000)")
    assert qm.queue("APP.WORK").retention_interval == 5
