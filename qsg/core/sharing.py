"""A queue-sharing group in the rules layer: its shared repository and its members.

Shared queues (QSGDISP(SHARED)) and CF structures are defined once for the group and
seen by every member, and their messages are in the coupling facility's store. In
process the store is a ``MemoryStore`` the members share; the coupling facility on
Redis implements the same primitives for members in other processes.
"""

from __future__ import annotations

from qsg.core.copies import CopyHolder
from qsg.core.grouprepo import GroupRepository
from qsg.core.memstore import MemoryStore
from qsg.core.perfevents import PerformanceQueueManager
from qsg.core.queue import check_name
from qsg.core.repository import Repository
from qsg.core.sharedchl import MemoryChannelStatus, SharedChannelStatus
from qsg.core.store import MessageStore


class QueueSharingGroup:
    """A QSG: a name (1 to 4 characters), the definitions its members see (``shared``:
    its shared queues and CF structures, over the coupling facility's store) and its
    shared repository (``repository``: Db2's tables, where GROUP and SHARED definitions
    are kept, ``qsg.core.grouprepo``)."""

    def __init__(
        self,
        name: str,
        *,
        store: MessageStore | None = None,
        repository: GroupRepository | None = None,
        channel_status: SharedChannelStatus | None = None,
    ) -> None:
        check_name(name, "queue-sharing group", longest=4)
        self.name = name
        self.shared = Repository(store if store is not None else MemoryStore())
        self.repository = repository if repository is not None else GroupRepository()
        self.members: list[str] = []
        #: The members running now, by name: where a GROUP command's generated COPY
        #: commands go (``qsg.core.copies``). A member leaves it when it stops and
        #: comes back when it starts, refreshing its copies.
        self.active: dict[str, CopyHolder] = {}
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
