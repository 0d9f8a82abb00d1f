"""A connection's unit of work: its identity, its size, and the stores it touched."""

from __future__ import annotations

from qsg.core.store import MessageStore, UowId


class UnitOfWork:
    """The uncommitted MQPUT/MQGET calls of one connection.

    ``count`` is what MAXUMSGS limits: syncpoint puts and gets (expiration reports and
    discards are never counted: they are never part of the unit of work).
    """

    __slots__ = ("count", "id", "stores")

    def __init__(self, uow_id: UowId) -> None:
        self.id = uow_id
        self.count = 0
        self.stores: list[MessageStore] = []

    def enlist(self, store: MessageStore) -> None:
        if store not in self.stores:
            self.stores.append(store)

    def commit(self) -> None:
        for store in self.stores:
            store.commit(self.id)
        self._reset()

    def backout(self) -> None:
        for store in self.stores:
            store.backout(self.id)
        self._reset()

    def _reset(self) -> None:
        self.count = 0
        self.stores = []
