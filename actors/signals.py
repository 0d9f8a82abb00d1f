"""Wake-ups for MQGET with MQGMO_WAIT: a waiter sleeps until its queue may have a message.

A waiter registers on (store, queue) and sleeps until its WaitInterval runs out or
something that can make a message available happens there: a put outside syncpoint, a
commit or backout, an unlock, peer recovery, a queue manager's death. Every waiter of the
queue is woken (each then tries its own selection), so no waiter can miss a message
another's selection did not want.
"""

from __future__ import annotations

import trio

from qsg.core.store import MessageStore

_Key = tuple[int, str]


class Signals:
    """The waiters of one world's queues."""

    def __init__(self) -> None:
        self._events: dict[_Key, trio.Event] = {}

    async def wait(self, store: MessageStore, queue: str, deadline: float) -> None:
        """Sleep until ``queue`` of ``store`` is notified or ``deadline`` passes."""
        key = (id(store), queue)
        event = self._events.get(key)
        if event is None:
            event = self._events[key] = trio.Event()
        with trio.move_on_at(deadline):
            await event.wait()

    def notify(self, store: MessageStore, queue: str) -> None:
        event = self._events.pop((id(store), queue), None)
        if event is not None:
            event.set()

    def notify_store(self, store: MessageStore) -> None:
        """Wake every waiter of ``store``'s queues (a commit, backout or recovery there)."""
        wanted = id(store)
        for key in [key for key in self._events if key[0] == wanted]:
            self._events.pop(key).set()

    def notify_all(self) -> None:
        for event in self._events.values():
            event.set()
        self._events.clear()


__all__ = ["Signals"]
