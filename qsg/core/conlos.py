"""A member's loss of connectivity to a CF structure: the rules (CFCONLOS).

IBM MQ for z/OS ("DEFINE CFSTRUCT", "ALTER QMGR", MQRC_CF_NOT_AVAILABLE; IBM's
developer article "How should you set CFCONLOS and RECAUTO?"): a member that loses
connectivity to the coupling facility holding a structure

- ends, with CFCONLOS(TERMINATE) on the structure (or ASQMGR and the queue manager's
  CFCONLOS(TERMINATE)): its peers then recover its units of work, and its applications
  and channels move to members that still reach the structure;
- carries on, with TOLERATE: its private queues and the structures it still reaches
  work, every call on the lost structure's queues gets MQRC_CF_NOT_AVAILABLE (2345),
  and when the link is back it reconnects (or, if another facility of the structure's
  preference list is there, the structure is rebuilt into it: ``qsg.core.facilities``).

A structure below CFLEVEL(5) has no CFCONLOS behaviour: losing it ends the member, as
it did before MQ brought in TOLERATE. The queue manager's own CFCONLOS also governs a
loss of the administration structure, which a loss of the whole facility includes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from qsg import CMQC
from qsg.core.errors import MQMIError

if TYPE_CHECKING:  # annotations only: cfstate imports this module below objects
    from qsg.core.objects import CFStructure

#: The lowest CFLEVEL with CFCONLOS behaviour (IBM: CFCONLOS needs CFLEVEL(5)).
CONLOS_CF_LEVEL = 5

#: The MQSC words of each MQCFCONLOS_* value.
WORDS = {
    CMQC.MQCFCONLOS_TERMINATE: "TERMINATE",
    CMQC.MQCFCONLOS_TOLERATE: "TOLERATE",
    CMQC.MQCFCONLOS_ASQMGR: "ASQMGR",
}


def action(structure: CFStructure, q_mgr_cfconlos: int) -> int:
    """What a member whose own CFCONLOS is ``q_mgr_cfconlos`` does on losing
    connectivity to ``structure``: MQCFCONLOS_TERMINATE or MQCFCONLOS_TOLERATE."""
    if structure.cf_level < CONLOS_CF_LEVEL:
        return CMQC.MQCFCONLOS_TERMINATE
    if structure.cf_conlos == CMQC.MQCFCONLOS_ASQMGR:
        return q_mgr_cfconlos
    return structure.cf_conlos


def terminates(
    structures: Iterable[CFStructure], q_mgr_cfconlos: int, admin_structure: bool
) -> bool:
    """Whether losing ``structures`` (and the administration structure, if
    ``admin_structure``: the whole facility) ends the member."""
    if admin_structure and q_mgr_cfconlos == CMQC.MQCFCONLOS_TERMINATE:
        return True
    return any(action(s, q_mgr_cfconlos) == CMQC.MQCFCONLOS_TERMINATE for s in structures)


def not_available_error(structure: str, queue: str, member: str) -> MQMIError:
    """What a call on ``queue`` of ``structure`` gets from ``member`` while it has lost
    connectivity to the structure (MQRC_CF_NOT_AVAILABLE, 2345)."""
    return MQMIError.failed(
        CMQC.MQRC_CF_NOT_AVAILABLE,
        f"{member} has lost connectivity to CF structure {structure} of queue {queue} "
        "(CFCONLOS TOLERATE): it reconnects when the link is back",
    )


__all__ = ["CONLOS_CF_LEVEL", "WORDS", "action", "not_available_error", "terminates"]
