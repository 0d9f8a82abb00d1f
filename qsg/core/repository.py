"""Where object definitions live, with the store that holds their queues' messages.

A queue manager has one repository for its own objects (QSGDISP(QMGR), messages in its
own store); a queue-sharing group has one for its shared queues and CF structures
(QSGDISP(SHARED), messages in the coupling facility), seen by every member. Queues of
every type share one namespace, as in MQ; CF structures, channels and processes have their own.

Besides definitions a repository knows each local queue's status: the handles that have
it open, the handle that created it (a dynamic queue), and whether it is logically
deleted, waiting for its last user to close and its last unit of work to end
(IBM: "Dynamic queues").
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

from qsg import CMQC
from qsg.core.errors import MQMIError
from qsg.core.objects import (
    CFStructure,
    ChannelDefinition,
    NamelistDefinition,
    ProcessDefinition,
    QueueObject,
    StorageClass,
)
from qsg.core.queue import QueueDefinition
from qsg.core.store import MessageStore


@dataclass(slots=True)
class QueueStatus:
    """A local queue's state beyond its definition.

    ``handles`` maps each open handle to its MQOO options (the input options decide
    sharing); ``creator`` is the handle whose MQOPEN created a dynamic queue (None once
    it closed) and ``creator_user`` the user it was created for.
    """

    handles: dict[Hashable, int] = field(default_factory=dict)
    creator: Hashable | None = None
    creator_user: str = ""
    logically_deleted: bool = False


class Repository:
    """Definitions by name, and the status of every local queue among them."""

    def __init__(self, store: MessageStore) -> None:
        self.store = store
        self.queues: dict[str, QueueObject] = {}
        self.status: dict[str, QueueStatus] = {}
        self.structures: dict[str, CFStructure] = {}
        self.channels: dict[str, ChannelDefinition] = {}
        self.processes: dict[str, ProcessDefinition] = {}
        self.namelists: dict[str, NamelistDefinition] = {}
        self.storage_classes: dict[str, StorageClass] = {}
        # Invariant: the names of logically deleted queues, so the end of a unit of work
        # only looks at them.
        self.deleting: set[str] = set()

    def add_queue(self, obj: QueueObject, *, replace: bool = False) -> None:
        """DEFINE (or DEFINE ... REPLACE) a queue object of any type."""
        old = self.queues.get(obj.name)
        if old is not None:
            if not replace:
                raise ValueError(f"queue {obj.name} is already defined")
            if old.q_type != obj.q_type:
                raise ValueError(
                    f"queue {obj.name} is already defined with another type ({old.q_type})"
                )
        if isinstance(obj, QueueDefinition) and obj.q_type == CMQC.MQQT_LOCAL:
            structure = obj.cf_struct or None
            if old is None:
                self.store.create_queue(obj.name, obj.ordering, structure)
                self.status[obj.name] = QueueStatus()
            elif isinstance(old, QueueDefinition) and old.ordering != obj.ordering:
                if self.store.depth(obj.name) or self.store.uncommitted(obj.name):
                    raise ValueError(
                        f"queue {obj.name}: MSGDLVSQ cannot change while messages are on it"
                    )
                self.store.delete_queue(obj.name)
                self.store.create_queue(obj.name, obj.ordering, structure)
        self.queues[obj.name] = obj

    def local(self, name: str) -> QueueDefinition:
        """The local queue ``name``; MQRC_UNKNOWN_OBJECT_NAME if there is none."""
        obj = self.queues.get(name)
        if isinstance(obj, QueueDefinition) and obj.q_type == CMQC.MQQT_LOCAL:
            return obj
        raise MQMIError.failed(CMQC.MQRC_UNKNOWN_OBJECT_NAME, f"no local queue {name}")

    def remove_queue(self, name: str) -> None:
        """Delete a queue physically: its definition, status and messages."""
        obj = self.queues.pop(name)
        if isinstance(obj, QueueDefinition) and obj.q_type == CMQC.MQQT_LOCAL:
            del self.status[name]
            self.store.delete_queue(name)
        self.deleting.discard(name)

    def in_use(self, name: str) -> bool:
        """Open by some handle, or with uncommitted puts or gets outstanding."""
        return bool(self.status[name].handles) or self.store.uncommitted(name) > 0

    def reap(self) -> list[str]:
        """Physically delete the logically deleted queues nobody uses any more."""
        done = [name for name in self.deleting if not self.in_use(name)]
        for name in done:
            self.remove_queue(name)
        return done
