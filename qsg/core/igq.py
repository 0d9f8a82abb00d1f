"""Intra-group queuing (IGQ): the group's transmission queue in name resolution.

IBM MQ for z/OS, "Intra-group queuing" and its pages: every member of a queue-sharing
group runs an IGQ agent that delivers the messages other members put for it on the
shared transmission queue SYSTEM.QSG.TRANSMIT.QUEUE, whatever its own IGQ attribute
says; ``ALTER QMGR IGQ(ENABLED)`` switches on *outbound* use, after which name
resolution puts a message for another member of the same group on that queue "in
preference to any other transmission queue", a channel agent's puts included. These
are the rules resolution and the handle need; the agent's batch is ``igq_agent.py``.

What qsg decides where IBM's text leaves it open (docs/channels.md says so too): the
queue must be a shared USAGE(XMITQ) queue indexed by CorrelId, and each message on it
carries its destination member's name as its outer CorrelId, by which that member's
agent gets it ("UNVERIFIED" in IBM's sample CSQ4INSS as we read it); the sending
member's user ID, which IGQAUT's checks use, is its name, carried in the outer
descriptor's UserIdentifier.
"""

from __future__ import annotations

from typing import Any, Protocol

from qsg import CMQC
from qsg.core.objects import QueueObject
from qsg.core.queue import MAX_MSG_LENGTH, QueueDefinition
from qsg.core.repository import Repository

IGQ_XMITQ = "SYSTEM.QSG.TRANSMIT.QUEUE"
#: "Intra-group queuing messages": a persistent batch is committed every 50 messages,
#: or when the queue has no more messages for the agent.
BATCH_SIZE = 50
#: "Specific properties of intra-group queuing": the agent's fixed retry counts and
#: intervals (seconds), which nothing can change.
SHORT_RETRY_COUNT, SHORT_RETRY_INTERVAL = 10, 60.0
LONG_RETRY_COUNT, LONG_RETRY_INTERVAL = 999_999_999, 1200.0


class GroupDirectory(Protocol):
    """What IGQ's rules ask of a queue manager (``QMgr``): its name, whether IGQ is
    ENABLED, its group's members and its objects."""

    @property
    def name(self) -> str: ...
    @property
    def intra_group_queuing(self) -> bool: ...

    def group_member(self, q_mgr_name: str) -> bool: ...
    def find(self, name: str) -> tuple[Repository, QueueObject] | None: ...


def usable(obj: QueueObject | None) -> bool:
    """Whether ``obj`` is a SYSTEM.QSG.TRANSMIT.QUEUE IGQ can use: a shared local
    queue, USAGE(XMITQ), INDXTYPE(CORRELID) (its agent gets by CorrelId)."""
    return (
        isinstance(obj, QueueDefinition)
        and obj.q_type == CMQC.MQQT_LOCAL
        and obj.is_shared
        and obj.is_transmission_queue
        and obj.index_type == CMQC.MQIT_CORREL_ID
    )


def route(qm: GroupDirectory, target: str) -> tuple[Repository, QueueDefinition] | None:
    """The group's transmission queue toward ``target``, when IGQ takes the message:
    IGQ(ENABLED), ``target`` another member of this queue manager's group, and a
    usable SYSTEM.QSG.TRANSMIT.QUEUE defined; else None (ordinary resolution)."""
    if not qm.intra_group_queuing or target == qm.name or not qm.group_member(target):
        return None
    found = qm.find(IGQ_XMITQ)
    if found is None or not usable(found[1]):
        return None
    repo, obj = found
    assert isinstance(obj, QueueDefinition)  # usable() said so
    return repo, obj


def path_state(qm: GroupDirectory) -> tuple[bool, QueueObject | None]:
    """What an open toward another member remembers, so that its put can tell
    MQRC_OBJECT_CHANGED (2041): whether IGQ was ENABLED, and then the definition of
    SYSTEM.QSG.TRANSMIT.QUEUE ("Specific properties of intra-group queuing":
    enabled at open but disabled at put, disabled at open but enabled at put, or the
    queue's definition changed between them)."""
    if not qm.intra_group_queuing:
        return False, None
    found = qm.find(IGQ_XMITQ)
    return True, found[1] if found is not None else None


def fits(length: int, xmitq: QueueDefinition) -> bool:
    """ "Limitations of intra-group queuing": IGQ takes messages up to the longest a
    shared queue holds less an MQXQH; here also the group's transmission queue's own
    MAXMSGL (a larger message goes by the ordinary route, as IBM's older text says)."""
    return length + CMQC.MQXQH_LENGTH_1 <= min(MAX_MSG_LENGTH, xmitq.max_msg_length)


def correl_id(q_mgr_name: str) -> bytes:
    """The outer CorrelId of a message for member ``q_mgr_name``: its agent's key."""
    return q_mgr_name.encode()[:24].ljust(24, b" ")


def address(desc: dict[str, Any], target: str, sender: str) -> None:
    """Mark a message just wrapped for SYSTEM.QSG.TRANSMIT.QUEUE (its outer descriptor):
    for ``target``'s agent, put by ``sender`` (whose user ID, its name, IGQAUT checks)."""
    desc["CorrelId"] = correl_id(target)
    desc["UserIdentifier"] = sender.encode()[:12].ljust(12, b" ")


def retry_interval(attempt: int) -> float | None:
    """Seconds before the agent's ``attempt``-th retry (1 is the first); None once
    the long retries are spent and the agent stops (CSQM051I)."""
    if attempt <= SHORT_RETRY_COUNT:
        return SHORT_RETRY_INTERVAL
    if attempt <= SHORT_RETRY_COUNT + LONG_RETRY_COUNT:
        return LONG_RETRY_INTERVAL
    return None


def checked_users(put_authority: int, sender: str, igq_user: str, alternate: str) -> list[str]:
    """The user IDs whose authority to put to the destination the receiving agent
    checks ("User IDs used by the intra-group queuing agent", the resource column,
    two checks): DEF SND+IGQ, CTX SND+ALT, ONLYIGQ IGQ, ALTIGQ IGQ+ALT. SND is the
    sending member's user ID, IGQ is IGQUSER (blank: the receiving queue manager's own
    ID, which is never checked) and ALT the message's UserIdentifier."""
    igq = [igq_user] if igq_user else []
    alt = [alternate] if alternate else []
    if put_authority == CMQC.MQIGQPA_CONTEXT:
        return [sender, *alt]
    if put_authority == CMQC.MQIGQPA_ONLY_IGQ:
        return igq
    if put_authority == CMQC.MQIGQPA_ALTERNATE_OR_IGQ:
        return [*igq, *alt]
    return [sender, *igq]


__all__ = [
    "BATCH_SIZE",
    "IGQ_XMITQ",
    "GroupDirectory",
    "address",
    "checked_users",
    "correl_id",
    "fits",
    "path_state",
    "retry_interval",
    "route",
    "usable",
]
