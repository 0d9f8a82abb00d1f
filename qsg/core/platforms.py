"""Reason codes that IBM documents for one family of platforms only.

A queue manager on z/OS and one on a distributed platform (AIX, Linux, Windows, IBM i)
answer a few calls with different reason codes. The rules ask here, by the queue
manager's MQPL_* platform, instead of choosing a code themselves; each entry quotes the
reason code's page in IBM's documentation ("IBM MQ: reason codes", by code).
"""

from __future__ import annotations

from qsg import CMQC


def is_zos(platform: int) -> bool:
    """Whether ``platform`` (an MQPL_* value) is z/OS (MQPL_MVS is the same value)."""
    return platform == CMQC.MQPL_ZOS


def name_in_use(platform: int) -> int:
    """The reason for creating (or defining) a queue whose name still belongs to a
    logically deleted queue that has open handles.

    2201 MQRC_NAME_IN_USE: "An MQOPEN call was issued to create a dynamic queue, but a
    queue with the same name as the dynamic queue already exists. The existing queue is
    one that is logically deleted, but for which there are still one or more open
    handles ... This reason code occurs only on z/OS." Elsewhere the name is simply
    taken: 2100 MQRC_OBJECT_ALREADY_EXISTS ("a queue with the same name as the dynamic
    queue already exists").
    """
    return CMQC.MQRC_NAME_IN_USE if is_zos(platform) else CMQC.MQRC_OBJECT_ALREADY_EXISTS


def opening_deleted(platform: int) -> int:
    """The reason for MQOPEN (or MQPUT1) of a dynamic queue that is logically deleted.

    2052 MQRC_Q_DELETED: "On z/OS, this can also occur with the MQOPEN and MQPUT1 calls
    if a dynamic queue is being opened, but the queue is in a logically-deleted state."
    Elsewhere (MQCLOSE usage notes) "the deleted queue cannot be accessed by
    applications": the name opens nothing, 2085 MQRC_UNKNOWN_OBJECT_NAME.
    """
    return CMQC.MQRC_Q_DELETED if is_zos(platform) else CMQC.MQRC_UNKNOWN_OBJECT_NAME


def checks_index_type(platform: int) -> bool:
    """Whether the group options of MQGET need a queue indexed by GroupId.

    2394 MQRC_Q_INDEX_TYPE_ERROR: "An MQGET call was issued specifying one or more of
    the following options: MQGMO_ALL_MSGS_AVAILABLE, MQGMO_ALL_SEGMENTS_AVAILABLE,
    MQGMO_COMPLETE_MSG, MQGMO_LOGICAL_ORDER but the call failed because the queue is not
    indexed by group identifier ... This reason code occurs only on z/OS." (and there,
    for a shared queue: the engine asks only for those).
    """
    return is_zos(platform)


def syncpoint_by_default(platform: int) -> bool:
    """Whether MQPUT and MQGET without a syncpoint option are in the unit of work.

    IBM MQ, "Syncpoint considerations in IBM MQ applications" and the MQPMO_SYNCPOINT
    and MQGMO_SYNCPOINT options: when a call names neither SYNCPOINT nor NO_SYNCPOINT,
    the default is within a unit of work on z/OS and outside one on the other platforms.
    """
    return is_zos(platform)


__all__ = [
    "checks_index_type",
    "is_zos",
    "name_in_use",
    "opening_deleted",
    "syncpoint_by_default",
]
