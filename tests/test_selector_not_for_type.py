"""MQRC_SELECTOR_NOT_FOR_TYPE (2068) as IBM gives it: "On the MQINQ call, one or more
selectors in the Selectors array is not applicable to the type of the queue ... The call
completes with MQCC_WARNING" ("2068 (0814) (RC2068): MQRC_SELECTOR_NOT_FOR_TYPE"). A
selector not applicable to the type of object set, or to an object that is not a queue,
is MQRC_SELECTOR_ERROR (2067: "The selector is not applicable to the type of object with
attributes that are being inquired upon or set"), MQCC_FAILED."""

from __future__ import annotations

import pytest

from qsg import CMQC, MQMIError, QMgr
from qsg.core.handle import Handle
from qsg.mqsc import load
from qsg.pymqi.qmgr_attributes import qmgr_attribute
from tests.claims import keeps


def _alias() -> Handle:
    qm = QMgr("QM1")
    load(qm, "DEFINE QLOCAL(Q) BOTHRESH(3)\nDEFINE QALIAS(A) TARGET(Q)")
    return qm.connect().open("A", CMQC.MQOO_INQUIRE | CMQC.MQOO_SET)


@keeps("docs/reason-codes.md", "MQRC_SELECTOR_NOT_FOR_TYPE | a selector of another queue type")
def test_mqinq_of_a_selector_of_another_queue_type_completes_with_mqcc_warning_2068() -> None:
    alias = _alias()
    with pytest.raises(MQMIError) as caught:
        alias.inquire(CMQC.MQIA_BACKOUT_THRESHOLD)
    assert (caught.value.comp, caught.value.reason) == (
        CMQC.MQCC_WARNING,
        CMQC.MQRC_SELECTOR_NOT_FOR_TYPE,
    )


def test_mqset_of_a_selector_of_another_queue_type_is_mqrc_selector_error_2067() -> None:
    alias = _alias()
    with pytest.raises(MQMIError) as caught:
        alias.set(CMQC.MQIA_TRIGGER_CONTROL, CMQC.MQTC_ON)
    assert (caught.value.comp, caught.value.reason) == (
        CMQC.MQCC_FAILED,
        CMQC.MQRC_SELECTOR_ERROR,
    )
    assert alias.inquire(CMQC.MQIA_Q_TYPE) == CMQC.MQQT_ALIAS


def test_mqinq_of_the_queue_manager_with_a_queue_selector_is_mqrc_selector_error_2067() -> None:
    with pytest.raises(MQMIError) as caught:
        qmgr_attribute(QMgr("QM1"), CMQC.MQIA_CURRENT_Q_DEPTH)
    assert (caught.value.comp, caught.value.reason) == (
        CMQC.MQCC_FAILED,
        CMQC.MQRC_SELECTOR_ERROR,
    )
