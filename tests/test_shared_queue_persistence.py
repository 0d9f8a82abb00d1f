"""Persistent messages on shared queues need a recoverable CF structure.

IBM: "2048 (0800) (RC2048): MQRC_PERSISTENT_NOT_ALLOWED": "On z/OS, you cannot put
persistent messages to a shared queue if the CFSTRUCT that the queue uses is defined
with RECOVER(NO)". The persistence is the MQMD's, or with MQPER_PERSISTENCE_AS_Q_DEF
the DefPersistence of the first definition on the resolution path (an alias's own).
"""

from __future__ import annotations

import pytest

from qsg import CMQC, MD, PMO, MQMIError, QMgr
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc import load
from qsg.scenario import ScenarioError, parse_scenario
from tests.helpers import get, put

REFUSED = r"^MQCC_FAILED: MQRC_PERSISTENT_NOT_ALLOWED \(2048\): "
OUT = CMQC.MQOO_OUTPUT


def group(recover: str) -> tuple[QMgr, QMgr]:
    qsg = QueueSharingGroup("QSG1")
    qm1, qm2 = QMgr("QM1", qsg=qsg), QMgr("QM2", qsg=qsg)
    load(
        qm1,
        f"""
        DEFINE CFSTRUCT(APP1) RECOVER({recover})
        DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1)
        DEFINE QLOCAL(APP.DEFAULT.YES) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)
        DEFINE QALIAS(APP.ALIAS.YES) TARGET(APP.SHARED) DEFPSIST(YES)
        DEFINE QLOCAL(APP.PRIVATE) DEFPSIST(YES)
        """,
    )
    return qm1, qm2


@pytest.mark.usefixtures("each_store")
def test_a_persistent_put_to_a_shared_queue_on_a_recover_no_structure_fails_with_2048() -> None:
    qm1, qm2 = group("NO")
    h = qm2.connect().open("APP.SHARED", OUT)
    with pytest.raises(
        MQMIError,
        match=REFUSED + r"APP\.SHARED is a shared queue on CF structure "
        r"APP1, which is RECOVER\(NO\)",
    ):
        put(h, b"order", 0.0, Persistence=CMQC.MQPER_PERSISTENT)
    put(h, b"order", 0.0, Persistence=CMQC.MQPER_NOT_PERSISTENT)
    assert qm1.depth("APP.SHARED") == 1  # the nonpersistent one only


@pytest.mark.usefixtures("each_store")
def test_persistence_as_q_def_takes_defpsist_yes_and_is_refused_the_same_way() -> None:
    qm1, _ = group("NO")
    conn = qm1.connect()
    for queue in ("APP.DEFAULT.YES", "APP.ALIAS.YES"):  # the queue's DEFPSIST, the alias's
        with pytest.raises(MQMIError, match=REFUSED):
            put(conn.open(queue, OUT), b"order", 0.0)  # MQPER_PERSISTENCE_AS_Q_DEF
        with pytest.raises(MQMIError, match=REFUSED):
            conn.put1(queue, b"order", MD(), PMO(), now=0.0)
    assert qm1.depth("APP.DEFAULT.YES") == qm1.depth("APP.SHARED") == 0
    # In syncpoint too, and the unit of work holds nothing of it.
    with pytest.raises(MQMIError, match=REFUSED):
        put(conn.open("APP.DEFAULT.YES", OUT), b"o", 0.0, CMQC.MQPMO_SYNCPOINT)
    assert conn.uow.count == 0


@pytest.mark.usefixtures("each_store")
def test_a_recover_yes_structure_and_a_private_queue_take_persistent_messages() -> None:
    qm1, qm2 = group("YES")
    put(qm1.connect().open("APP.DEFAULT.YES", OUT), b"kept", 0.0)
    _, md = get(qm2.connect().open("APP.DEFAULT.YES", CMQC.MQOO_INPUT_SHARED), 1.0)
    assert md.Persistence == CMQC.MQPER_PERSISTENT
    no, _ = group("NO")
    put(no.connect().open("APP.PRIVATE", OUT), b"kept", 0.0)  # a page set, not the CF
    assert no.depth("APP.PRIVATE") == 1


@pytest.mark.usefixtures("each_store")
def test_the_structures_recover_attribute_is_read_at_each_put() -> None:
    qm1, _ = group("NO")
    h = qm1.connect().open("APP.DEFAULT.YES", OUT)  # open before the ALTER
    with pytest.raises(MQMIError, match=REFUSED):
        put(h, b"o", 0.0)
    load(qm1, "ALTER CFSTRUCT(APP1) RECOVER(YES)")
    put(h, b"o", 1.0)
    assert qm1.depth("APP.DEFAULT.YES") == 1


def test_a_scenario_putting_persistent_messages_on_a_recover_no_structure_is_refused() -> None:
    # Checked before anything starts, at the workload's line (docs/scenarios.md).
    text = """\
[run]
duration = 10

[qsg.QSG1]
members = ["QM1"]
mqsc = "DEFINE QLOCAL(APP.WORK) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)"

[qsg.QSG1.structures.APP1]
recover = false

[[workload]]
type = "putter"
qmgr = "QM1"
queue = "APP.WORK"
rate = 1
"""
    with pytest.raises(ScenarioError) as refused:
        parse_scenario(text, "orders.toml")
    assert str(refused.value).splitlines()[0] == (
        "orders.toml:14: workload[0].queue: MQPUT to APP.WORK on QM1: MQCC_FAILED: "
        "MQRC_PERSISTENT_NOT_ALLOWED (2048): APP.WORK is a shared queue on CF structure "
        "APP1, which is RECOVER(NO): it holds nonpersistent messages only"
    )
