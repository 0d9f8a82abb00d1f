"""Wake-ups for MQGET with MQGMO_WAIT: a waiter sleeps until its queue may have a message.

A waiter registers on (store, queue) and sleeps until its WaitInterval runs out or
something that can make a message available happens there. One new message (a put
outside syncpoint, a delivery) wakes the longest-waiting *plain* waiter (one that takes
any message: no selection, no group options) and every selective waiter: plain waiters
would all find the same message, so waking more than one only makes the others fail and
wait again, while a selective waiter must look for itself. Anything that can make several
messages available at once (a commit or backout, an unlock, peer recovery, a queue
manager's death) wakes every waiter.

A waiter is a parked task (``wait``) or, for an application the virtual clock drives
(``actors.drive``), a function the clock calls when the wait ends (``wait_call``).

Signals also keep, per queue, how many messages *may* be available to a plain get, when
that is known: 0 once a plain get found none, one more for each notification, one less
for each message got, unknown again after a commit, backout or recovery. Every way a
message becomes available in a world notifies, so a count of 0 is certain and a plain
waiting get skips an attempt that could only fail (``surely_empty``); a count too high
costs only an attempt.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import trio

from actors.clock import Alarm, Timer, VirtualClock, Wakeup
from qsg.core.store import MessageStore

_Key = tuple[int, str]


class _Waiter(Wakeup):
    """A waiting MQGET: parked on the virtual clock, or on a trio Event on the wall clock."""

    __slots__ = ("event", "notified", "plain")

    def __init__(self, plain: bool) -> None:
        # Wakeup's fields, set here: one frame less for every waiting MQGET.
        self.pending = False
        self.task = None
        self.woken = False
        self.event: trio.Event | None = None
        self.plain = plain
        self.notified = False  # taken off the waiting list by a notification

    def set(self) -> None:
        self.notified = True
        if self.event is not None:
            self.event.set()
        else:
            self.wake()

    def is_set(self) -> bool:
        return self.notified


class _Call(Alarm):
    """A waiting MQGET of a clock-driven application (``Signals.wait_call``): the clock's
    alarm itself, at its deadline or, once notified, at the instant of the notification
    (one object a wait, not a waiter and two timers)."""

    __slots__ = ("clock", "deadline", "key", "late", "notified", "plain", "signals", "then")

    def __init__(
        self,
        key: _Key,
        plain: bool,
        then: Callable[[], None],
        signals: Signals,
        clock: VirtualClock,
        deadline: float,
    ) -> None:
        self.pending = False  # Alarm's, set here: one frame less for every wait
        self.key = key
        self.plain = plain
        self.then = then
        self.signals = signals
        self.clock = clock
        self.deadline = deadline
        self.notified = False
        #: The wake-up's own timer, when its deadline was due at the notification's
        #: instant (rare: see ``set``).
        self.late: Timer | None = None

    def fire(self) -> None:
        if not self.notified:  # the deadline came first
            self.signals._drop(self.key, self)
        self.then()

    def set(self) -> None:
        self.notified = True
        clock = self.clock
        if self.pending and self.deadline <= clock._time:
            # Its deadline's entry is due at this very instant, ahead of the one armed
            # now: dropped, and the wake-up armed on a timer of its own, in its turn.
            self.pending = False
            self.late = clock.call_at(clock._time, Timer(self.then))
        else:
            # The deadline's entry, if any, is later: once this alarm has fired at the
            # notification's instant, it is no longer pending and is skipped.
            clock.call_at(clock._time, self)

    def is_set(self) -> bool:
        return self.notified

    def cancel(self) -> None:
        self.pending = False
        if self.late is not None:
            self.late.cancel()
        if not self.notified:
            self.signals._drop(self.key, self)


class Signals:
    """The waiters of one world's queues, first come first woken."""

    def __init__(self) -> None:
        self._waiters: dict[_Key, list[_Waiter | _Call]] = {}
        #: How many of a key's waiters are selective (keys with none are absent): with
        #: none, a notification wakes the first waiter and looks at no other.
        self._selective: dict[_Key, int] = {}
        self._available: dict[_Key, int] = {}  # where known: see the module docstring
        #: ``on_notify``'s functions, by key: each called once, at the next notification.
        self._hooks: dict[_Key, list[Callable[[], None]]] = {}

    def found_empty(self, store: MessageStore, queue: str) -> None:
        """A plain get found no message on ``queue``."""
        self._available[id(store), queue] = 0

    def took(self, store: MessageStore, queue: str) -> None:
        """A get took a message from ``queue``."""
        key = (id(store), queue)
        count = self._available.get(key)
        if count:
            self._available[key] = count - 1

    def surely_empty(self, store: MessageStore, queue: str) -> bool:
        """Whether a plain get on ``queue`` is certain to find nothing."""
        return self._available.get((id(store), queue)) == 0

    async def wait(
        self, store: MessageStore, queue: str, deadline: float, *, plain: bool = False
    ) -> None:
        """Sleep until ``queue`` of ``store`` is notified or ``deadline`` passes."""
        key = (id(store), queue)
        waiter = _Waiter(plain)
        self._join(key, waiter)
        try:
            clock = trio.lowlevel.current_clock()
            if type(clock) is VirtualClock:  # the clock's own wake-up: no cancel scope
                await clock.park(waiter, deadline)
            else:
                waiter.event = trio.Event()
                if deadline == math.inf:  # MQWI_UNLIMITED: no timer to set
                    await waiter.event.wait()
                else:
                    with trio.move_on_at(deadline):
                        await waiter.event.wait()
        finally:
            if not waiter.is_set():
                self._drop(key, waiter)

    def wait_call(
        self,
        store: MessageStore,
        queue: str,
        deadline: float,
        then: Callable[[], None],
        *,
        plain: bool,
        clock: VirtualClock,
    ) -> Callable[[], None]:
        """``wait`` for a timer of the virtual clock rather than a task: ``then()`` is
        called by the clock when ``queue`` is notified (at that instant, after what is
        already due) or at ``deadline``. Returns the function that cancels the wait."""
        waiter = _Call((id(store), queue), plain, then, self, clock, deadline)
        self._join(waiter.key, waiter)
        if deadline != math.inf:
            clock.call_at(deadline, waiter)
        return waiter.cancel

    def on_notify(self, store: MessageStore, queue: str, then: Callable[[], None]) -> None:
        """Call ``then()`` once, at the next notification of ``queue`` (or of its store,
        or of every queue): what wakes a selective waiter. For work that would otherwise
        be a task parked on the queue until something happens there (the IGQ agent of a
        member whose group's queue is empty): a task, even parked, is one more in the run
        queue's shuffled batches at its start, which reorders the other tasks' ties."""
        self._hooks.setdefault((id(store), queue), []).append(then)

    def _call_hooks(self, hooks: list[Callable[[], None]] | None) -> None:
        """Call hooks already taken off their key, so that one that sets a new hook (for
        the next notification) sets it for the next, not this one."""
        if hooks:
            for then in hooks:
                then()

    def _join(self, key: _Key, waiter: _Waiter | _Call) -> None:
        self._waiters.setdefault(key, []).append(waiter)
        if not waiter.plain:
            self._selective[key] = self._selective.get(key, 0) + 1

    def _drop(self, key: _Key, waiter: _Waiter | _Call) -> None:
        """Take a waiter that timed out or was cancelled off the waiting list. (The list
        of the key as it is now: a notification may have replaced the one it joined.)"""
        waiting = self._waiters.get(key)
        if waiting is not None and waiter in waiting:
            waiting.remove(waiter)
            if not waiting:
                del self._waiters[key]
            if not waiter.plain:
                left = self._selective[key] - 1
                if left:
                    self._selective[key] = left
                else:
                    del self._selective[key]

    def notify(self, store: MessageStore, queue: str) -> None:
        """One message may have become available on ``queue``."""
        key = (id(store), queue)
        if key in self._available:
            self._available[key] += 1
        if self._hooks:
            self._call_hooks(self._hooks.pop(key, None))
        waiting = self._waiters.get(key)
        if not waiting:
            return
        if key not in self._selective:  # plain waiters only: the longest-waiting one
            waiter = waiting.pop(0)
            if not waiting:
                del self._waiters[key]
            waiter.set()
            return
        del self._selective[key]  # every selective waiter is woken
        kept: list[_Waiter | _Call] = []
        plain_woken = False
        for waiter in waiting:
            if waiter.plain and plain_woken:
                kept.append(waiter)
                continue
            waiter.set()
            plain_woken = plain_woken or waiter.plain
        if kept:
            self._waiters[key] = kept
        else:
            del self._waiters[key]

    def notify_store(self, store: MessageStore) -> None:
        """Wake every waiter of ``store``'s queues (a commit, backout or recovery there)."""
        wanted = id(store)
        for key in [key for key in self._available if key[0] == wanted]:
            del self._available[key]
        for key in [key for key in self._waiters if key[0] == wanted]:
            self._selective.pop(key, None)
            for waiter in self._waiters.pop(key):
                waiter.set()
        for key in [key for key in self._hooks if key[0] == wanted]:
            self._call_hooks(self._hooks.pop(key))

    def notify_all(self) -> None:
        self._available.clear()
        self._selective.clear()
        for waiting in self._waiters.values():
            for waiter in waiting:
                waiter.set()
        self._waiters.clear()
        hooks, self._hooks = self._hooks, {}
        for each in hooks.values():
            self._call_hooks(each)


__all__ = ["Signals"]
