"""A CF application structure's failure, backup and recovery: the one home of the rules.

IBM MQ for z/OS fails a coupling-facility structure at a time ("Recovering shared
queues", "Coupling Facility failure"; ``RESET CFSTRUCT ACTION(FAIL)`` simulates one):

- the structure's nonpersistent messages are lost, and every MQI call on its queues
  fails with MQRC_CF_STRUC_FAILED (2373: "the coupling-facility structure used for the
  shared queue had failed") while the group's other structures go on;
- a RECOVER(NO) structure is reallocated, empty, by the next MQOPEN of one of its
  queues (``reallocated_by_open``);
- a RECOVER(YES) structure stays failed until ``RECOVER CFSTRUCT`` (or, with
  RECAUTO(YES), the queue managers' automatic recovery): TYPE(NORMAL) rebuilds its
  persistent messages from the last ``BACKUP CFSTRUCT`` plus every member's log since;
  TYPE(PURGE) reallocates it empty.

Both stores (``qsg.core.memstore`` in process, ``coupling.store`` on a server, whose
Lua scripts do the same replay) keep a structure's status as ``Status`` says, refuse a
failed structure's calls with ``failed_error`` and rebuild with ``replay``; the MQSC and
PCF commands refuse what IBM refuses with ``StructureError`` (``check_reset``,
``check_backup``, ``check_recover``), and the world charges ``recovery_seconds``.

The log (``qsg.core.cflog``): each member logs its committed persistent puts and gets on
the structure's queues as it makes them, outside the structure, so that its failure
leaves the log whole; the log is kept netted, and a BACKUP truncates it to the records
after the backup's point (less the messages younger than EXCLINT seconds, which the log
covers). RECOVER reads the backup and every member's log, with no member needing to run.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from qsg import CMQC
from qsg import CMQCFC as F
from qsg.core import bugs, conlos
from qsg.core.errors import MQMIError, QSGError

if TYPE_CHECKING:  # the store's Protocol imports this module, and objects imports queue
    from qsg.core.objects import CFStructure
    from qsg.core.repository import Repository

#: The status words of DISPLAY CFSTATUS (MQ Explorer, "Coupling facility structure
#: status attributes").
ACTIVE, FAILED, IN_BACKUP, IN_RECOVER, NONE = "ACTIVE", "FAILED", "IN BACKUP", "IN RECOVER", "NONE"
#: The PCF value of each (MQCFSTATUS_*).
STATUS_VALUES = {
    ACTIVE: F.MQCFSTATUS_ACTIVE,
    FAILED: F.MQCFSTATUS_FAILED,
    IN_BACKUP: F.MQCFSTATUS_IN_BACKUP,
    IN_RECOVER: F.MQCFSTATUS_IN_RECOVER,
    NONE: F.MQCFSTATUS_NONE,
}

#: The lowest CFLEVEL that holds persistent messages, and so can be backed up (IBM:
#: "BACKUP CFSTRUCT ... fails for CFLEVEL < 3").
BACKUP_CF_LEVEL = 3
#: The lowest CFLEVEL at which RESET CFSTRUCT works ("RESET CFSTRUCT": CFLEVEL(5)).
RESET_CF_LEVEL = 5
#: IBM's default EXCLINT, in seconds ("Backup CF Structure on z/OS": ExcludeInterval "must be
#: in the range 30 through 600. The default value is 30.").
DEFAULT_EXCLINT = 30

#: The model's recovery costs, in simulated seconds (assumptions of this simulator, not
#: IBM figures): locating the backup and allocating the structure, opening each
#: member's log at the backup's point, restoring a backed-up message, and reading and
#: applying one log record. IBM: recovery is "I/O and CPU heavy", and frequent backups
#: bound the log it reads.
RECOVERY_START = 2.0
LOG_OPEN = 0.5
RESTORE_MESSAGE = 0.0001
LOG_RECORD = 0.0005


@dataclass(frozen=True, slots=True)
class StructureStatus:
    """One structure's state, as DISPLAY CFSTATUS shows it: ``status`` (ACTIVE or
    FAILED), when it failed, its last backup (simulated time, messages and bytes; None:
    never backed up), the log records its recovery reads (every member's since the
    backup), the nonpersistent messages the last failure lost and the members whose
    logs hold those records."""

    name: str
    status: str = ACTIVE
    failed_at: float | None = None
    backup_at: float | None = None
    backup_messages: int = 0
    backup_bytes: int = 0
    log_records: int = 0
    lost: int = 0
    log_members: tuple[str, ...] = ()

    @property
    def failed(self) -> bool:
        return self.status == FAILED


@dataclass(frozen=True, slots=True)
class Recovered:
    """What RECOVER CFSTRUCT did: messages restored from the backup and from the log,
    the log records read, and the time it took by the model (``recovery_seconds``)."""

    name: str
    from_backup: int
    from_log: int
    log_records: int
    seconds: float
    purged: bool = False


class StructureError(QSGError, ValueError):
    """A BACKUP, RECOVER or RESET CFSTRUCT the structure's state refuses: ``reason``
    is the PCF reason (MQRCCF_CF_STRUC_ERROR 3236 and friends) and ``status`` the
    MQCFSTATUS_* value IBM returns with it (MQIACF_CF_STRUC_STATUS)."""

    def __init__(self, reason: int, status: int, text: str) -> None:
        super().__init__(text)
        self.reason, self.status = reason, status


def failed_error(structure: str, queue: str) -> MQMIError:
    """What every MQI call on ``queue`` of the failed ``structure`` gets."""
    return MQMIError.failed(
        CMQC.MQRC_CF_STRUC_FAILED,
        f"CF structure {structure} of queue {queue} has failed: RECOVER CFSTRUCT({structure}) "
        "(or, for RECOVER(NO), the next MQOPEN) brings it back",
    )


def reallocated_by_open(definition: CFStructure) -> bool:
    """Whether an MQOPEN of a queue of the failed structure reallocates it empty
    (RECOVER(NO): "automatically reallocated (empty) by the next MQOPEN"); otherwise the
    open fails with ``failed_error`` until the structure is recovered."""
    return not definition.recover


def check_reset(definition: CFStructure, status: StructureStatus) -> None:
    """RESET CFSTRUCT(name) ACTION(FAIL): needs CFLEVEL(5); a failed structure cannot
    fail again (MQRCCF_CF_STRUC_ALREADY_FAILED, 3351)."""
    if definition.cf_level < RESET_CF_LEVEL:
        raise StructureError(
            F.MQRCCF_CF_STRUC_ERROR,
            STATUS_VALUES[status.status],
            f"RESET CFSTRUCT needs CFLEVEL({RESET_CF_LEVEL}): CF structure {definition.name} "
            f"is CFLEVEL({definition.cf_level})",
        )
    if status.failed:
        raise StructureError(
            F.MQRCCF_CF_STRUC_ALREADY_FAILED,
            F.MQCFSTATUS_FAILED,
            f"CF structure {definition.name} has already failed",
        )


def recoverable(definition: CFStructure) -> bool:
    """Whether the structure holds persistent messages, and so can be backed up and
    recovered: RECOVER(YES) at CFLEVEL(3) or more."""
    return definition.recover and definition.cf_level >= BACKUP_CF_LEVEL


def cflevel_conflict(definition: CFStructure) -> str | None:
    """What ``definition`` sets that its CFLEVEL does not have, or None: RECOVER(YES) needs
    CFLEVEL(3), the level that holds persistent messages ("DEFINE CFSTRUCT"); CFCONLOS
    other than ASQMGR and RECAUTO(NO) need CFLEVEL(5), whose attributes they are
    (MQRCCF_PARM_CONFLICT below it). The defaults stand at any level."""
    level = definition.cf_level
    if definition.recover and level < BACKUP_CF_LEVEL:
        return f"RECOVER(YES) needs CFLEVEL({BACKUP_CF_LEVEL}), not CFLEVEL({level})"
    if level >= conlos.CONLOS_CF_LEVEL:
        return None
    if definition.cf_conlos != CMQC.MQCFCONLOS_ASQMGR:
        word = conlos.WORDS[definition.cf_conlos]
        return f"CFCONLOS({word}) needs CFLEVEL({conlos.CONLOS_CF_LEVEL}), not CFLEVEL({level})"
    if not definition.recauto:
        return f"RECAUTO(NO) needs CFLEVEL({conlos.CONLOS_CF_LEVEL}), not CFLEVEL({level})"
    return None


def check_backup(definition: CFStructure, status: StructureStatus) -> None:
    """BACKUP CFSTRUCT: refused (MQRCCF_CF_STRUC_ERROR, 3236) for a structure that holds
    no persistent messages (RECOVER(NO), or CFLEVEL below 3) and for a failed one."""
    name = definition.name
    if not recoverable(definition):
        why = (
            f"is CFLEVEL({definition.cf_level}), {BACKUP_CF_LEVEL} or more is needed"
            if definition.cf_level < BACKUP_CF_LEVEL
            else "is RECOVER(NO)"
        )
        raise StructureError(
            F.MQRCCF_CF_STRUC_ERROR,
            F.MQCFSTATUS_NOT_RECOVERABLE,
            f"CF structure {name} cannot be backed up: it {why}",
        )
    if status.failed:
        raise StructureError(
            F.MQRCCF_CF_STRUC_ERROR,
            F.MQCFSTATUS_FAILED,
            f"CF structure {name} has failed: RECOVER it before a BACKUP",
        )


def check_recover(definition: CFStructure, status: StructureStatus, purge: bool) -> None:
    """RECOVER CFSTRUCT: TYPE(NORMAL) and TYPE(PURGE) both need a failed structure
    (MQRCCF_CF_STRUC_ERROR with MQCFSTATUS_NOT_FAILED, 23); TYPE(NORMAL) of a structure
    that keeps no persistent messages (RECOVER(NO)) has nothing to rebuild from
    (MQCFSTATUS_NOT_RECOVERABLE, 24): its next MQOPEN reallocates it."""
    name = definition.name
    if not status.failed:
        raise StructureError(
            F.MQRCCF_CF_STRUC_ERROR,
            F.MQCFSTATUS_NOT_FAILED,
            f"CF structure {name} has not failed (STATUS({status.status}))",
        )
    if not purge and not definition.recover:
        raise StructureError(
            F.MQRCCF_CF_STRUC_ERROR,
            F.MQCFSTATUS_NOT_RECOVERABLE,
            f"CF structure {name} is RECOVER(NO): TYPE(PURGE), or an MQOPEN, reallocates it",
        )


K = TypeVar("K")
V = TypeVar("V")


def replays_log() -> bool:
    """Whether RECOVER applies the log to the backup (always, unless the known bug
    ``recover-skips-log`` is switched on by a test)."""
    return bugs.RECOVER_SKIPS_LOG not in bugs.ACTIVE


def replay(backup: Mapping[K, V], puts: Mapping[K, V], gets: Set[K]) -> dict[K, V]:
    """RECOVER CFSTRUCT TYPE(NORMAL): the backup, less the messages the log got, plus
    those it put. (The server's RECOVER script does the same in Lua.)"""
    if not replays_log():  # the known bug a chaos checker must catch (tests only)
        return dict(backup)
    kept = {key: value for key, value in backup.items() if key not in gets}
    kept.update(puts)
    return kept


def recovery_seconds(backup_messages: int, log_records: int, members: int) -> float:
    """How long a RECOVER CFSTRUCT takes by the model: its start, each member's log
    opened, each backed-up message restored and each log record applied."""
    return (
        RECOVERY_START
        + LOG_OPEN * members
        + RESTORE_MESSAGE * backup_messages
        + LOG_RECORD * log_records
    )


__all__ = [
    "ACTIVE",
    "BACKUP_CF_LEVEL",
    "DEFAULT_EXCLINT",
    "FAILED",
    "IN_BACKUP",
    "IN_RECOVER",
    "NONE",
    "RESET_CF_LEVEL",
    "STATUS_VALUES",
    "Recovered",
    "StructureError",
    "StructureStatus",
    "backup",
    "cflevel_conflict",
    "check_backup",
    "check_recover",
    "check_reset",
    "failed_error",
    "reallocated_by_open",
    "recover",
    "recoverable",
    "recovery_seconds",
    "replay",
    "replays_log",
    "reset",
]


# ---- the commands: RESET, BACKUP and RECOVER CFSTRUCT on a QSG's shared repository ----


def _definition(repository: Repository, name: str) -> CFStructure:
    definition = repository.structures.get(name)
    if definition is None:
        raise StructureError(
            F.MQRCCF_CF_STRUC_ERROR, F.MQCFSTATUS_NOT_FOUND, f"CF structure {name} is not defined"
        )
    return definition


def reset(repository: Repository, name: str, now: float) -> int:
    """RESET CFSTRUCT(name) ACTION(FAIL): the structure fails (``check_reset`` first);
    answers the nonpersistent messages lost."""
    definition = _definition(repository, name)
    check_reset(definition, repository.store.structure_status(name))
    return repository.store.fail_structure(name, now)


def backup(repository: Repository, name: str, now: float, exclint: float) -> StructureStatus:
    """BACKUP CFSTRUCT(name) EXCLINT(exclint) (``check_backup`` first)."""
    definition = _definition(repository, name)
    check_backup(definition, repository.store.structure_status(name))
    return repository.store.backup_structure(name, now, exclint)


def recover(repository: Repository, name: str, purge: bool, members: int) -> Recovered:
    """RECOVER CFSTRUCT(name) TYPE(NORMAL | PURGE) (``check_recover`` first), needing no
    member to run: ``members`` is how many logs it reads, for ``recovery_seconds``."""
    definition = _definition(repository, name)
    status = repository.store.structure_status(name)
    check_recover(definition, status, purge)
    from_backup, from_log, records = repository.store.recover_structure(name, purge)
    backup_read = 0 if purge else status.backup_messages
    seconds = recovery_seconds(backup_read, records, 0 if purge else members)
    return Recovered(name, from_backup, from_log, records, seconds, purge)
