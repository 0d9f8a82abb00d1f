"""A connection's unit of work: its identity, its size, and the stores it touched."""

from __future__ import annotations

from collections.abc import Callable, Hashable

from qsg import CMQC
from qsg.core.errors import MQMIError
from qsg.core.store import MessageStore, UowId


class UnitOfWork:
    """The uncommitted MQPUT/MQGET calls of one connection.

    ``count`` is what MAXUMSGS limits: syncpoint puts and gets, and the trigger messages
    they caused (expiration reports and discards are never counted: they are never part
    of the unit of work). ``at_end`` holds what the queue manager does when the unit of
    work ends: each action with whether it is done on backout too (a trigger message is
    made available whether the unit of work is committed or backed out) or at commit
    only (a shared queue's trigger check, which counts committed messages). ``notes``
    is what those actions keep about the unit of work until then.

    What DISPLAY CONN shows of it (IBM: "DISPLAY CONN", UOWSTDA/UOWSTTI, UOWLOGDA/UOWLOGTI,
    QMURID): ``started_at``, the simulated time of its first MQPUT or MQGET;
    ``logged_at``, of its first persistent one (only persistent messages are logged);
    ``recovery_id``, the queue manager's unit-of-recovery identifier, drawn from
    ``numbering`` when it starts. All three are cleared (None, None, 0) when it ends.
    """

    __slots__ = (
        "_numbering",
        "at_end",
        "count",
        "id",
        "logged_at",
        "notes",
        "recovery_id",
        "started_at",
        "stores",
    )

    def __init__(self, uow_id: UowId, numbering: Callable[[], int]) -> None:
        self.id = uow_id
        self.count = 0
        self.stores: list[MessageStore] = []
        self.at_end: list[tuple[bool, Callable[[], None]]] = []
        self.notes: dict[Hashable, list[int]] = {}
        self.started_at: float | None = None
        self.logged_at: float | None = None
        self.recovery_id = 0
        self._numbering = numbering

    def add(self, store: MessageStore, now: float, persistent: bool) -> None:
        """One more MQPUT or MQGET in the unit of work, made at ``now`` on ``store``: the
        first starts the unit of work (its time and identifier), the first persistent
        one is its first log write."""
        self.enlist(store)
        self.count += 1
        if self.started_at is None:
            self.started_at = now
            self.recovery_id = self._numbering()
        if persistent and self.logged_at is None:
            self.logged_at = now

    def enlist(self, store: MessageStore) -> None:
        if store not in self.stores:
            if store.commit_may_refuse:  # committed first: its refusal backs out all
                self.stores.insert(0, store)
            else:
                self.stores.append(store)

    def commit(self) -> None:
        """Commit in every store, unless a store has already lost the unit of work (the
        coupling facility failed while it was in flight): then it is backed out in all
        of them, and MQRC_BACKED_OUT says so. Asked first, so no store commits alone."""
        why = prepare(self.stores, self.id)
        if why is not None:
            self.backout()
            raise MQMIError.failed(CMQC.MQRC_BACKED_OUT, why)
        for n, store in enumerate(self.stores):
            try:
                store.commit(self.id)
            except MQMIError as error:
                # Only the first store may refuse (``commit_may_refuse``; the others'
                # refusals were asked for by ``prepare``): nothing has committed, and
                # the other stores back out with it.
                if n or error.reason != CMQC.MQRC_BACKED_OUT:
                    raise
                self.backout()
                raise
        self._end(committed=True)

    def backout(self) -> None:
        for store in self.stores:
            store.backout(self.id)
        self._end(committed=False)

    def _end(self, *, committed: bool) -> None:
        actions = self.at_end
        self.count = 0
        self.stores = []
        self.at_end = []
        self.notes = {}
        self.started_at = self.logged_at = None
        self.recovery_id = 0
        for on_backout, action in actions:
            if committed or on_backout:
                action()


def prepare(stores: list[MessageStore], uow: UowId) -> str | None:
    """Why ``uow`` cannot commit in ``stores`` (each asked before any commits), None if
    it can. The first store may refuse at its commit, which backs everything out with
    nothing committed, so it is only asked ``backed_out`` (no extra round trip); every
    later store that may refuse is asked ``prepare``, since its refusal would come
    after the first store had committed."""
    for n, store in enumerate(stores):
        why = store.prepare(uow) if n and store.commit_may_refuse else store.backed_out(uow)
        if why is not None:
            return why
    return None
