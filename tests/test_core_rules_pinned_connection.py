"""Rules-level tests of qsg/core/connection.py (MQOPEN of queues and of other objects,
MQDISC and the end of a connection): synchronous and fast, so that `./dev mutate` (tests
in `[tool.mutmut]`'s selection) can tell its mutants apart (issue 45). Each names the MQ
rule or the doc sentence it pins.
"""

from __future__ import annotations

import pytest

from qsg import CMQC, MD, OD, PMO, QMgr
from qsg.core.authority import Authority
from qsg.core.connection import Connection
from qsg.core.conntag import ConnectOptions
from qsg.core.handle import Handle
from qsg.core.objects import CFStructure
from qsg.core.queue import QueueDefinition
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc import load
from tests.helpers import get, refusal_detail

TAG = b"PAYROLL.INSTANCE.1"
ALL = CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_OUTPUT | CMQC.MQOO_INQUIRE


def _namelist(alternate_user: bytes = b"") -> OD:
    return OD(ObjectType=CMQC.MQOT_NAMELIST, ObjectName=b"APP.NL", AlternateUserId=alternate_user)


def _put(conn: Connection, queue: str, body: bytes, options: int, persistence: int = 0) -> Handle:
    h = conn.open(queue, CMQC.MQOO_OUTPUT)
    h.put(body, MD(Persistence=persistence), PMO(Options=options), now=0.0)
    return h


def _depth(qm: QMgr, queue: str) -> int:
    return qm.connect().open(queue, CMQC.MQOO_INQUIRE).inquire(CMQC.MQIA_CURRENT_Q_DEPTH)


# ---- MQOPEN of a namelist, a process or the queue manager (open_object) --------------
def _objects(auth: Authority | None = None) -> QMgr:
    qm = QMgr("QM1", authority=auth)
    load(qm, "DEFINE NAMELIST(APP.NL) NAMES(A.Q,B.Q)")
    return qm


def test_mqopen_of_a_namelist_for_inquire_gives_a_handle_that_inquires_it() -> None:
    # "MQOPEN - Open object": ObjectType MQOT_NAMELIST, opened with MQOO_INQUIRE; the
    # handle answers MQINQ of that namelist ("MQINQ - Inquire object attributes").
    auth = Authority()
    auth.grant("bob", "APP.NL", "inq")
    h = _objects(auth).connect("bob").open_object(_namelist(), CMQC.MQOO_INQUIRE)
    assert (h.name, h.options) == ("APP.NL", CMQC.MQOO_INQUIRE)
    assert h.inquire(CMQC.MQIA_NAME_COUNT) == 2
    assert h.inquire(CMQC.MQCA_NAMELIST_NAME) == b"APP.NL".ljust(48)


def test_mqopen_of_a_namelist_the_user_may_not_inquire_is_2035_naming_user_and_object() -> None:
    # "MQOPEN": MQRC_NOT_AUTHORIZED (2035), "the user is not authorized to perform the
    # operation"; inquire authority on the object itself is what MQOO_INQUIRE needs.
    auth = Authority()
    auth.grant("bob", "OTHER.NL", "inq")
    auth.grant("bob", "APP.NL", "put")
    detail = refusal_detail(
        CMQC.MQCC_FAILED,
        CMQC.MQRC_NOT_AUTHORIZED,
        _objects(auth).connect("bob").open_object,
        _namelist(),
        CMQC.MQOO_INQUIRE,
    )
    assert detail == "user bob may not inq APP.NL"


def test_mqopen_of_a_namelist_checks_the_alternate_user_with_alternate_user_authority() -> None:
    # "MQOPEN": MQOO_ALTERNATE_USER_AUTHORITY, the check is made for OD.AlternateUserId
    # (which the connection's user needs +altusr to use), not for the connection's user.
    auth = Authority()
    auth.grant("bob", "QM1", "altusr")
    auth.grant("carol", "APP.NL", "inq")
    qm = _objects(auth)
    od = _namelist(b"carol")
    options = CMQC.MQOO_INQUIRE | CMQC.MQOO_ALTERNATE_USER_AUTHORITY
    assert qm.connect("bob").open_object(od, options).name == "APP.NL"
    detail = refusal_detail(
        CMQC.MQCC_FAILED,
        CMQC.MQRC_NOT_AUTHORIZED,
        qm.connect("bob").open_object,
        _namelist(),
        CMQC.MQOO_INQUIRE,
    )
    assert detail == "user bob may not inq APP.NL"


def test_mqopen_of_an_object_whose_name_is_no_text_is_2085() -> None:
    # "MQOPEN": MQRC_UNKNOWN_OBJECT_NAME (2085), no object of that name can exist.
    od = OD(ObjectType=CMQC.MQOT_NAMELIST, ObjectName=b"APP.\xff")
    refusal_detail(
        CMQC.MQCC_FAILED,
        CMQC.MQRC_UNKNOWN_OBJECT_NAME,
        _objects().connect().open_object,
        od,
        CMQC.MQOO_INQUIRE,
    )


def test_an_alternate_user_id_that_is_no_text_is_not_authorized() -> None:
    # "MQOPEN": MQRC_NOT_AUTHORIZED (2035); bytes that are no text are no user the
    # queue manager knows.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    od = OD(ObjectName=b"Q", AlternateUserId=b"\xff\xfe")
    options = CMQC.MQOO_OUTPUT | CMQC.MQOO_ALTERNATE_USER_AUTHORITY
    refusal_detail(CMQC.MQCC_FAILED, CMQC.MQRC_NOT_AUTHORIZED, qm.connect().open, od, options)


# ---- a connection's beginning -----------------------------------------------------------
def test_a_connection_begins_with_no_tag_no_syncpoint_manager_and_nothing_unresolved() -> None:
    # "MQCONN": a plain connection serializes by no connection tag and commits its own
    # units of work (MQCONNX's MQCNO_*_CONN_TAG_* and a syncpoint manager say otherwise).
    conn = Connection(QMgr("QM1"), 7, "bob", "app")
    assert (conn.tag_use, conn.syncpoint_manager, conn.unresolved) == (None, False, False)
    assert conn.tag_use is None
    assert conn.syncpoint_manager is False and conn.unresolved is False
    with pytest.raises(ValueError, match=r"^this connection left no unit of work to resolve$"):
        conn.resolve(commit=True)


# ---- MQDISC with a syncpoint manager's unit of work (2344) ------------------------------
def _group() -> tuple[QMgr, QMgr]:
    qsg = QueueSharingGroup("QSG1")
    qm1, qm2 = QMgr("QM1", qsg=qsg), QMgr("QM2", qsg=qsg)
    qm1.define_structure(CFStructure("APP1", size_kb=1000))
    qm1.define_structure(CFStructure("APP2", size_kb=1000))
    qm1.define_queue("Q", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")
    qm1.define_queue("Q2", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP2")
    return qm1, qm2


def _rrs(syncpoint_manager: bool = True) -> ConnectOptions:
    return ConnectOptions(
        options=CMQC.MQCNO_SERIALIZE_CONN_TAG_QSG,
        tag=TAG,
        space="JOB1",
        syncpoint_manager=syncpoint_manager,
    )


def test_mqdisc_with_the_syncpoint_managers_unit_active_is_the_warning_2344() -> None:
    # "MQDISC", MQRC_CONN_TAG_NOT_RELEASED (2344): "in a CICS, IMS or RRS application
    # with an active unit of recovery associated with the tag, MQDISC cannot release
    # it" (a warning); the connection is gone for MQI calls, its unit left unresolved.
    qm1, _ = _group()
    conn = qm1.connect(cno=_rrs())
    h = _put(conn, "Q", b"in the unit", CMQC.MQPMO_SYNCPOINT)
    detail = refusal_detail(CMQC.MQCC_WARNING, CMQC.MQRC_CONN_TAG_NOT_RELEASED, conn.disconnect)
    assert detail == (
        "MQDISC with a unit of recovery of the syncpoint manager active: the "
        "connection tag stays in use until it is committed or backed out"
    )
    assert (conn.connected, conn.unresolved, h.open, conn.handles) == (False, True, False, [])
    refusal_detail(CMQC.MQCC_FAILED, CMQC.MQRC_HCONN_ERROR, conn.open, "Q", CMQC.MQOO_OUTPUT)
    reader = qm1.connect().open("Q", CMQC.MQOO_INPUT_SHARED)
    refusal_detail(CMQC.MQCC_FAILED, CMQC.MQRC_NO_MSG_AVAILABLE, get, reader, 1.0)
    conn.resolve(commit=True)
    assert (conn.unresolved, get(reader, 2.0)[0]) == (False, b"in the unit")


def test_mqdisc_of_a_syncpoint_managers_connection_with_no_unit_active_ends_it() -> None:
    # "MQDISC": no unit of recovery active, nothing to keep the tag for: no warning.
    qm1, qm2 = _group()
    qm1.connect(cno=_rrs()).disconnect()
    qm2.connect(cno=_rrs()).disconnect()


def test_mqdisc_of_a_batch_connection_with_a_tag_commits_its_unit() -> None:
    # "MQDISC": a batch application's normal end commits; the tag is released at once.
    qm1, qm2 = _group()
    conn = qm1.connect(cno=_rrs(syncpoint_manager=False))
    _put(conn, "Q", b"committed by MQDISC", CMQC.MQPMO_SYNCPOINT)
    conn.disconnect()
    assert (conn.connected, conn.unresolved, _depth(qm1, "Q")) == (False, False, 1)
    qm2.connect(cno=_rrs()).disconnect()


def test_mqdisc_whose_commit_backs_out_ends_the_connection_with_the_warning_2003() -> None:
    # "MQDISC": MQRC_BACKED_OUT (2003) as a warning, "the unit of work has been backed
    # out"; the connection ends all the same.
    qm1, _ = _group()
    conn = qm1.connect()
    _put(conn, "Q", b"lost", CMQC.MQPMO_SYNCPOINT)
    qm1.qsg.shared.store.fail_structure("APP1", 1.0)
    detail = refusal_detail(CMQC.MQCC_WARNING, CMQC.MQRC_BACKED_OUT, conn.disconnect)
    assert detail == "CF structure APP1 failed while the unit of work had work on it"
    assert conn.connected is False and conn not in qm1.connections.values()


# ---- the end of a connection: terminate, sever, resolve ---------------------------------
def test_an_abnormal_end_after_an_unresolved_mqdisc_backs_the_unit_out_once() -> None:
    # "Dynamic queues": when the application terminates its unit of work is backed out.
    qm1, qm2 = _group()
    conn = qm1.connect(cno=_rrs())
    _put(conn, "Q", b"backed out", CMQC.MQPMO_SYNCPOINT)
    refusal_detail(CMQC.MQCC_WARNING, CMQC.MQRC_CONN_TAG_NOT_RELEASED, conn.disconnect)
    conn.terminate()
    assert (conn.unresolved, conn.connected, _depth(qm1, "Q")) == (False, False, 0)
    qm2.connect(cno=_rrs()).disconnect()
    with pytest.raises(ValueError, match=r"^this connection left no unit of work to resolve$"):
        conn.resolve(commit=True)


def test_a_queue_manager_failing_under_an_unresolved_mqdisc_leaves_nothing_to_resolve() -> None:
    # The queue manager's failure backs the unit out (peer recovery frees the tag).
    qm1, _ = _group()
    conn = qm1.connect(cno=_rrs())
    _put(conn, "Q", b"backed out", CMQC.MQPMO_SYNCPOINT)
    refusal_detail(CMQC.MQCC_WARNING, CMQC.MQRC_CONN_TAG_NOT_RELEASED, conn.disconnect)
    conn.sever()
    assert (conn.unresolved, conn.connected, _depth(qm1, "Q")) == (False, False, 0)
    with pytest.raises(ValueError, match=r"^this connection left no unit of work to resolve$"):
        conn.resolve(commit=False)


# ---- MQOPEN of a queue on a failed CF structure -----------------------------------------
def test_mqopen_of_a_queue_on_a_failed_recover_yes_structure_is_2373_naming_both() -> None:
    # "MQOPEN": MQRC_CF_STRUC_FAILED (2373) until RECOVER CFSTRUCT; a queue of another
    # structure opens as ever.
    qm1, _ = _group()
    qm1.define_structure(CFStructure("APP1", size_kb=1000, recover=True), replace=True)
    qm1.qsg.shared.store.fail_structure("APP1", 1.0)
    detail = refusal_detail(
        CMQC.MQCC_FAILED, CMQC.MQRC_CF_STRUC_FAILED, qm1.connect().open, "Q", CMQC.MQOO_OUTPUT
    )
    assert detail == (
        "CF structure APP1 of queue Q has failed: RECOVER CFSTRUCT(APP1) "
        "(or, for RECOVER(NO), the next MQOPEN) brings it back"
    )
    assert qm1.connect().open("Q2", CMQC.MQOO_OUTPUT).open


def test_mqopen_of_a_queue_on_a_failed_recover_no_structure_reallocates_it_empty() -> None:
    # "DEFINE CFSTRUCT", RECOVER(NO): the structure is "automatically reallocated
    # (empty) by the next MQOPEN": even its persistent messages are gone.
    qm1, _ = _group()
    qm1.define_structure(CFStructure("APP1", size_kb=1000, recover=True), replace=True)
    _put(qm1.connect(), "Q", b"logged", CMQC.MQPMO_NO_SYNCPOINT, CMQC.MQPER_PERSISTENT)
    qm1.define_structure(CFStructure("APP1", size_kb=1000), replace=True)
    qm1.qsg.shared.store.fail_structure("APP1", 1.0)
    assert qm1.connect().open("Q", CMQC.MQOO_OUTPUT).open
    assert _depth(qm1, "Q") == 0


# ---- MQOPEN of a model queue ---------------------------------------------------------------
def test_a_dynamic_queue_is_created_when_opened_not_when_its_model_was() -> None:
    # "DISPLAY QUEUE": CRDATE and CRTIME, "the date/time on which the queue was
    # defined"; a dynamic queue is defined by the MQOPEN of its model.
    qm = QMgr("QM1")
    qm.define(
        QueueDefinition(
            "MODEL", q_type=CMQC.MQQT_MODEL, definition_type=CMQC.MQQDT_PERMANENT_DYNAMIC
        )
    )
    qm.time = 3661.0
    od = OD(ObjectName=b"MODEL", DynamicQName=b"APP.*")
    h = qm.connect().open(od, CMQC.MQOO_OUTPUT)
    found = qm.find(h.queue)
    assert found is not None
    kept = dict(found[1].kept)
    assert (kept["CRTIME"], kept["ALTTIME"]) == ("01.01.01", "01.01.01")
