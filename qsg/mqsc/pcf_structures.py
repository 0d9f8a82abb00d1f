"""The PCF commands that fail, back up and recover a CF application structure.

Reset CF Structure (MQCMD_RESET_CF_STRUC, 213: ``CFStrucName``, ``Action`` MQACT_FAIL),
Backup CF Structure (MQCMD_BACKUP_CF_STRUC, 105: ``CFStrucName``, ``ExcludeInterval``)
and Recover CF Structure (MQCMD_RECOVER_CF_STRUC, 129: ``CFStrucName``, ``Purge``
MQPO_YES / MQPO_NO) are the MQSC RESET, BACKUP and RECOVER CFSTRUCT: the same rules
(``qsg.core.cfstate``) at the simulated time of the request's snapshot. A refusal is
the reason IBM gives (MQRCCF_CF_STRUC_ERROR 3236, MQRCCF_CF_STRUC_ALREADY_FAILED 3351)
with the structure's status (MQIACF_CF_STRUC_STATUS, an MQCFSTATUS_* value), the
structure unchanged. Each answers only its header when it succeeds. Backup and
Recover take a CommandScope of a queue manager's name (not ``*``: the structure is the
group's, backed up or recovered once); Reset takes none (``qsg.mqsc.pcf_scope``).
"""

from __future__ import annotations

from qsg import CMQC
from qsg import CMQCFC as F
from qsg.core import cfstate
from qsg.core.qmgr import QMgr
from qsg.mqsc.pcf import Message, PCFError
from qsg.mqsc.pcf_parameters import Parameters, Reply, object_name, scope
from qsg.mqsc.status import Snapshot

#: The commands of this module, as the command server's world must know them: after a
#: RESET or RECOVER the getters waiting on the structure's queues learn of it.
RESET, BACKUP, RECOVER = F.MQCMD_RESET_CF_STRUC, F.MQCMD_BACKUP_CF_STRUC, F.MQCMD_RECOVER_CF_STRUC
#: The longest CF structure name (MQ_CF_STRUC_NAME_LENGTH).
NAME_LENGTH = 12
#: ExcludeInterval, MQSC's EXCLINT, in seconds: IBM's "Backup CF Structure on z/OS",
#: "The value must be in the range 30 through 600. The default value is 30."
EXCLINT_RANGE = range(30, 600 + 1)


def _structure(p: Parameters) -> str:
    value = p.string(CMQC.MQCA_CF_STRUC_NAME, required=True)
    return object_name(value, CMQC.MQCA_CF_STRUC_NAME, "CF structure", NAME_LENGTH)


def _refused(error: cfstate.StructureError) -> PCFError:
    return PCFError(error.reason, str(error), extra=((F.MQIACF_CF_STRUC_STATUS, error.status),))


def _in_qsg(qm: QMgr) -> None:
    if qm.qsg is None:
        raise PCFError(F.MQRCCF_CF_STRUC_ERROR, f"{qm.name} is not in a queue sharing group")


def reset_cf_struc(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = Parameters(message)
    name = _structure(p)
    action = p.integer(F.MQIACF_ACTION, required=True)
    p.done()  # no CommandScope: "Reset CF Structure" takes none (pcf_scope.UNSCOPED)
    if action != F.MQACT_FAIL:  # the one action IBM defines: MQACT_FAIL
        raise PCFError(F.MQRCCF_ACTION_VALUE_ERROR, f"Action {action}", F.MQIACF_ACTION)
    _in_qsg(qm)
    assert qm.qsg is not None
    try:
        cfstate.reset(qm.qsg.shared, name, snapshot.time)
    except cfstate.StructureError as error:
        raise _refused(error) from None
    return [[]]


def backup_cf_struc(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = Parameters(message)
    name = _structure(p)
    exclint = p.integer(F.MQIACF_EXCLUDE_INTERVAL)
    scope(p, qm)
    p.done()
    if exclint is not None and exclint not in EXCLINT_RANGE:
        raise PCFError(
            F.MQRCCF_PARM_VALUE_ERROR, f"ExcludeInterval {exclint}", F.MQIACF_EXCLUDE_INTERVAL
        )
    _in_qsg(qm)
    assert qm.qsg is not None
    interval = cfstate.DEFAULT_EXCLINT if exclint is None else exclint
    try:
        cfstate.backup(qm.qsg.shared, name, snapshot.time, interval)
    except cfstate.StructureError as error:
        raise _refused(error) from None
    return [[]]


def recover_cf_struc(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = Parameters(message)
    name = _structure(p)
    purge = p.integer(F.MQIACF_PURGE)
    scope(p, qm)
    p.done()
    if purge not in (None, F.MQPO_YES, F.MQPO_NO):
        raise PCFError(F.MQRCCF_PURGE_VALUE_ERROR, f"Purge {purge}", F.MQIACF_PURGE)
    _in_qsg(qm)
    assert qm.qsg is not None
    try:
        cfstate.recover(qm.qsg.shared, name, purge == F.MQPO_YES, len(qm.qsg.members))
    except cfstate.StructureError as error:
        raise _refused(error) from None
    return [[]]


__all__ = [
    "BACKUP",
    "EXCLINT_RANGE",
    "NAME_LENGTH",
    "RECOVER",
    "RESET",
    "backup_cf_struc",
    "recover_cf_struc",
    "reset_cf_struc",
]
