"""Message groups and segments: where a handle stands inside a group or logical message.

IBM, "The order in which messages are retrieved from a queue": a group is identified
by GroupId; its logical messages by
MsgSeqNumber (from 1); a logical message's segments by Offset (from 0). The queue
manager keeps, per queue handle, the position reached by puts and by gets, and apart
from those the position reached by browsing. ``GroupPosition`` is that state; ``after``
computes the next one from the item just put or returned.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from qsg import CMQC

IN_GROUP = CMQC.MQMF_MSG_IN_GROUP | CMQC.MQMF_LAST_MSG_IN_GROUP
SEGMENTED = CMQC.MQMF_SEGMENT | CMQC.MQMF_LAST_SEGMENT
#: MsgFlags that make a message part of a group or a logical message (GroupId needed).
GROUPING = IN_GROUP | SEGMENTED | CMQC.MQMF_SEGMENTATION_ALLOWED
KNOWN_FLAGS = IN_GROUP | SEGMENTED | CMQC.MQMF_SEGMENTATION_ALLOWED


@dataclass(frozen=True, slots=True)
class GroupPosition:
    """The item a handle expects next: this group, this logical message, this offset.

    ``in_group`` is False for a segmented logical message that is not in a group.
    ``syncpoint`` records whether the item was put or got in the unit of work, and
    ``persistent`` whether it was persistent: every item of a group or logical message
    must agree on both (MQRC_INCONSISTENT_UOW, MQRC_INCONSISTENT_PERSISTENCE).
    """

    group_id: bytes
    msg_seq_number: int
    offset: int
    in_group: bool
    in_logical_message: bool
    syncpoint: bool = False
    persistent: bool = False


def is_first_item(desc: dict[str, Any]) -> bool:
    """A message that starts a logical unit: a standalone message, or a group's first item."""
    return bool(desc["MsgSeqNumber"] == 1 and desc["Offset"] == 0)


def after(desc: dict[str, Any], length: int, syncpoint: bool = False) -> GroupPosition | None:
    """The position after the item ``desc`` (of ``length`` bytes); None when the group,
    or the logical message not in a group, is complete."""
    flags = desc["MsgFlags"]
    group_id, seq, offset = desc["GroupId"], desc["MsgSeqNumber"], desc["Offset"]
    in_group = bool(flags & IN_GROUP)
    persistent = desc["Persistence"] == CMQC.MQPER_PERSISTENT
    if flags & CMQC.MQMF_SEGMENT and not flags & CMQC.MQMF_LAST_SEGMENT:
        return GroupPosition(group_id, seq, offset + length, in_group, True, syncpoint, persistent)
    if flags & CMQC.MQMF_MSG_IN_GROUP and not flags & CMQC.MQMF_LAST_MSG_IN_GROUP:
        return GroupPosition(group_id, seq + 1, 0, True, False, syncpoint, persistent)
    return None


def group_status(flags: int) -> int:
    """MQGMO.GroupStatus for an item with these MsgFlags."""
    if flags & CMQC.MQMF_LAST_MSG_IN_GROUP:
        return CMQC.MQGS_LAST_MSG_IN_GROUP
    if flags & CMQC.MQMF_MSG_IN_GROUP:
        return CMQC.MQGS_MSG_IN_GROUP
    return CMQC.MQGS_NOT_IN_GROUP


def segment_status(flags: int) -> int:
    """MQGMO.SegmentStatus for an item with these MsgFlags."""
    if flags & CMQC.MQMF_LAST_SEGMENT:
        return CMQC.MQSS_LAST_SEGMENT
    if flags & CMQC.MQMF_SEGMENT:
        return CMQC.MQSS_SEGMENT
    return CMQC.MQSS_NOT_A_SEGMENT


@dataclass(slots=True)
class HandleState:
    """What the queue manager remembers per queue handle between calls.

    Destructive gets, puts and browses each have their own group position (IBM:
    "The group and segment information that the queue manager retains for MQGET calls
    that browse messages ... is separate from [that] for MQGET calls that remove").
    """

    put_group: GroupPosition | None = None
    get_group: GroupPosition | None = None
    #: Whether the last MQPUT, and the last destructive MQGET, on the handle had
    #: LOGICAL_ORDER: a call without it right after one with it completes with a warning
    #: where the two disagree (MQRC_INCONSISTENT_UOW, MQRC_INCONSISTENT_PERSISTENCE).
    put_logical: bool = False
    get_logical: bool = False
    browse_position: int | None = None  # the key under the browse cursor
    browse_logical: bool | None = None  # LOGICAL_ORDER of the last BROWSE_FIRST
    browse_group: GroupPosition | None = None
    browse_anchor: int | None = None  # key of the first item of the group being browsed
    locked: int | None = None  # the key this handle holds locked (MQGMO_LOCK)
