"""MQINQ of a queue manager (pymqi's ``QueueManager.inquire``): every row of the
attribute table's QMGR that IBM lets MQINQ read (``qsg.core.attributes``: DESCR, DEADQ,
MAXUMSGS, ACTCHL, ...), and the few values read from the queue manager's rules here.
MQIA_* selectors give an int, MQCA_* ones blank-padded bytes of the attribute's length,
as MQ returns them; a selector a queue manager does not have (another object's, or one
MQ does not have) is MQRC_SELECTOR_ERROR: MQRC_SELECTOR_NOT_FOR_TYPE is for queues."""

from __future__ import annotations

from collections.abc import Callable

from qsg.core import attributes
from qsg.core.errors import MQMIError
from qsg.core.qmgr import QMgr
from qsg.pymqi import CMQC

#: MQ 9.4's command level, what a current queue manager answers for MQIA_COMMAND_LEVEL.
COMMAND_LEVEL = 940


def _chars(value: str, length: int) -> bytes:
    return value.encode()[:length].ljust(length)


_ATTRIBUTES: dict[int, Callable[[QMgr], int | bytes]] = {
    CMQC.MQCA_Q_MGR_NAME: lambda qm: _chars(qm.name, CMQC.MQ_Q_MGR_NAME_LENGTH),
    CMQC.MQCA_QSG_NAME: lambda qm: _chars(qm.qsg_name, CMQC.MQ_QSG_NAME_LENGTH),
    CMQC.MQCA_Q_MGR_DESC: lambda qm: _chars(qm.description, CMQC.MQ_Q_MGR_DESC_LENGTH),
    CMQC.MQCA_DEAD_LETTER_Q_NAME: lambda qm: _chars(
        qm.dead_letter_queue or "", CMQC.MQ_Q_NAME_LENGTH
    ),
    CMQC.MQCA_DEF_XMIT_Q_NAME: lambda qm: _chars(qm.def_xmit_q_name, CMQC.MQ_Q_NAME_LENGTH),
    CMQC.MQIA_PLATFORM: lambda qm: qm.rules.platform,
    CMQC.MQIA_COMMAND_LEVEL: lambda qm: COMMAND_LEVEL,
    CMQC.MQIA_MAX_UNCOMMITTED_MSGS: lambda qm: qm.rules.max_uncommitted_msgs,
    CMQC.MQIA_MAX_MSG_LENGTH: lambda qm: qm.rules.max_msg_length,
    CMQC.MQIA_MAX_PRIORITY: lambda qm: 9,
    CMQC.MQIA_SYNCPOINT: lambda qm: CMQC.MQSP_AVAILABLE,
    CMQC.MQIA_CODED_CHAR_SET_ID: lambda qm: 500 if qm.rules.platform == CMQC.MQPL_ZOS else 1208,
    CMQC.MQIA_TRIGGER_INTERVAL: lambda qm: qm.trigger_interval,
    # EXPRYINT: seconds; OFF is 0.
    CMQC.MQIA_EXPIRY_INTERVAL: lambda qm: qm.expiry_interval or 0,
}


def qmgr_attribute(qm: QMgr, selector: int) -> int | bytes:
    """The value of ``selector`` for ``qm``; see the module's docstring."""
    found = _ATTRIBUTES.get(selector)
    if found is not None:
        return found(qm)
    table = attributes.inquired(qm, "QMGR", {})
    if selector in table:
        value: int | bytes = table[selector]
        return value
    if type(selector) is not int or not (
        CMQC.MQIA_FIRST <= selector <= CMQC.MQIA_LAST
        or CMQC.MQCA_FIRST <= selector <= CMQC.MQCA_LAST
    ):
        raise MQMIError.failed(CMQC.MQRC_SELECTOR_ERROR, f"selector {selector!r}")
    # 2068 is for a queue of another type; an object that is no queue answers 2067.
    raise MQMIError.failed(
        CMQC.MQRC_SELECTOR_ERROR, f"selector {selector} on queue manager {qm.name}"
    )


__all__ = ["COMMAND_LEVEL", "qmgr_attribute"]
