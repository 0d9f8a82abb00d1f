"""A queue-sharing group in the rules layer: its shared repository and its members.

Shared queues (QSGDISP(SHARED)) and CF structures are defined once for the group and
seen by every member, and their messages are in the coupling facility's store. In
process the store is a ``MemoryStore`` the members share; the coupling facility on
Redis implements the same primitives for members in other processes.
"""

from __future__ import annotations

from qsg.core.memstore import MemoryStore
from qsg.core.perfevents import PerformanceQueueManager
from qsg.core.queue import check_name
from qsg.core.repository import Repository
from qsg.core.sharedchl import MemoryChannelStatus, SharedChannelStatus
from qsg.core.store import MessageStore


class QueueSharingGroup:
    """A QSG: a name (1 to 4 characters) and the repository its members share."""

    def __init__(
        self,
        name: str,
        *,
        store: MessageStore | None = None,
        channel_status: SharedChannelStatus | None = None,
    ) -> None:
        check_name(name, "queue-sharing group", longest=4)
        self.name = name
        self.shared = Repository(store if store is not None else MemoryStore())
        self.members: list[str] = []
        #: Who runs which shared channel (``qsg.core.sharedchl``); with the group's
        #: objects in IBM's Db2, beside its shared queues here.
        self.channel_status: SharedChannelStatus = (
            channel_status if channel_status is not None else MemoryChannelStatus()
        )
        #: The members' rules, by name: the queue managers that issue their own event
        #: message when a shared queue's depth event fires (``qsg.core.perfevents``).
        self.event_members: dict[str, PerformanceQueueManager] = {}

    def join(self, q_mgr_name: str) -> None:
        if q_mgr_name in self.members:
            raise ValueError(f"{q_mgr_name} is already a member of {self.name}")
        self.members.append(q_mgr_name)


__all__ = ["QueueSharingGroup"]
