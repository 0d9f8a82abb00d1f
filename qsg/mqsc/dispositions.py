"""QSGDISP on DEFINE, ALTER and DELETE: which object a command acts on, and where.

IBM's table (MQSC Command Reference, DEFINE/ALTER/DELETE of queues, channels,
processes, namelists, storage classes; "Managing group objects"), the same for every
object type:

- QMGR (the default): DEFINE on this member's page set 0; ALTER and DELETE act on its
  QMGR object only.
- COPY: DEFINE makes a copy of the GROUP object of the name (LIKE ignored); ALTER and
  DELETE act on this member's COPY only.
- GROUP: DEFINE and ALTER write the shared repository, then send ``DEFINE ... REPLACE
  QSGDISP(COPY)`` to every active member; DELETE deletes the repository's object, then
  sends ``DELETE ... QSGDISP(COPY)``, and stands whatever a copy's delete does.
- PRIVATE: not for DEFINE; ALTER and DELETE act on this member's QMGR or COPY object.
- SHARED (local queues only): the single definition in the repository, messages in
  the coupling facility.

A disposition a command cannot take is MQRCCF_DISPOSITION_CONFLICT (3211); GROUP, COPY
and SHARED outside a queue-sharing group are MQRCCF_Q_MGR_NOT_IN_QSG (3212). ALTER and
DELETE without QSGDISP act on the QMGR object or, when the member has no object of the
name on its page set, on the shared queue: qsg's earlier scenarios alter shared queues
so, and z/OS would answer CSQM125I ... QSGDISP(QMGR) WAS NOT FOUND (a leniency,
docs/mqsc.md says so).
"""

from __future__ import annotations

from typing import Any

from qsg import CMQC
from qsg import CMQCFC as F
from qsg.core import attributes
from qsg.core.copies import PAGE_SET_0
from qsg.core.copies import WORDS as NAMES
from qsg.core.errors import MQMIError
from qsg.core.qmgr import QMgr

#: The QSGDISP values DEFINE, ALTER and DELETE read, with their MQQSGD_* value.
WORDS = {
    "QMGR": CMQC.MQQSGD_Q_MGR,
    "COPY": CMQC.MQQSGD_COPY,
    "GROUP": CMQC.MQQSGD_GROUP,
    "PRIVATE": CMQC.MQQSGD_PRIVATE,
    "SHARED": CMQC.MQQSGD_SHARED,
}
#: The object types that take QSGDISP, by the repository's table they are kept in.
TAKING = {
    "QLOCAL": "QUEUE",
    "QMODEL": "QUEUE",
    "QALIAS": "QUEUE",
    "QREMOTE": "QUEUE",
    "CHANNEL": "CHANNEL",
    "PROCESS": "PROCESS",
    "NAMELIST": "NAMELIST",
    "STGCLASS": "STGCLASS",
}
assert set(TAKING.values()) <= set(PAGE_SET_0)  # every table a member can hold copies of


def conflict(why: str) -> MQMIError:
    return MQMIError.failed(F.MQRCCF_DISPOSITION_CONFLICT, why)


def checked(qm: QMgr, verb: str, object_type: str, word: str) -> str:
    """The disposition a command acts with: ``word`` checked against the verb, the
    object type and the queue manager; "" for an ALTER or DELETE that gave none."""
    if not word:
        return "QMGR" if verb == "DEFINE" else ""
    what = f"QSGDISP({word})"
    if word == "PRIVATE" and verb == "DEFINE":
        raise conflict(f"{what}: DEFINE takes QMGR, COPY, GROUP or SHARED")
    if word == "SHARED" and object_type != "QLOCAL":
        raise conflict(f"{what}: only a local queue can be shared, not a {object_type}")
    if word in ("COPY", "GROUP", "SHARED") and qm.qsg is None:
        raise MQMIError.failed(
            F.MQRCCF_Q_MGR_NOT_IN_QSG, f"{what}: {qm.name} is in no queue-sharing group"
        )
    return word


def on_page_set(qm: QMgr, table: str, name: str, word: str) -> Any:
    """The object of ``name`` on ``qm``'s page set 0 an ALTER or DELETE with QSGDISP
    ``word`` (QMGR, COPY, PRIVATE, or "") acts on, or None: ValueError "there is no"
    when the object there has another disposition."""
    obj = PAGE_SET_0[table].objects(qm).get(name)
    if obj is None:
        return None
    held = NAMES[obj.qsg_disp]
    if (word in ("QMGR", "") and held != "QMGR") or (word == "COPY" and held != "COPY"):
        raise ValueError(f"there is no {table}({name}) of QSGDISP({word or 'QMGR'})")
    return obj


def group_row(qm: QMgr, table: str, name: str) -> Any:
    """The GROUP object ``name`` of table ``table`` in the repository, or None (a
    SHARED queue of the name is not one). MQRC_DB2_NOT_AVAILABLE while it is down."""
    assert qm.qsg is not None
    row = qm.qsg.repository.get(table, name)
    return row if row is not None and row.qsg_disp == CMQC.MQQSGD_GROUP else None


def copy_command(verb: str, object_type: str, record: Any) -> str:
    """The command a GROUP command generates for every active member."""
    if verb == "DELETE":
        return f"DELETE {object_type}({record.name}) QSGDISP(COPY)"
    chltype = ""
    if object_type == "CHANNEL":
        chltype = f" CHLTYPE({attributes.channel_type(record)})"
    return f"DEFINE {object_type}({record.name}){chltype} REPLACE QSGDISP(COPY)"


__all__ = ["TAKING", "WORDS", "checked", "conflict", "copy_command", "group_row", "on_page_set"]
