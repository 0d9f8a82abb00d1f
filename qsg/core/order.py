"""A queue's visible keys in order: a sorted list that is quick for the way queues move.

Most messages join a queue behind every other (their key, ``seq`` or the priority and
``seq``, is the largest yet) and leave it from the head. Those two moves are a deque's
append and popleft, a tenth of what a general sorted list costs for them, and every
message of a busy queue makes both. So the keys are kept in two parts:

- ``_tail``, a deque of keys in ascending order, each larger than every key of
  ``_sorted``: where a key larger than every other is appended;
- ``_sorted``, a ``SortedList`` of the rest: a key that lands before the largest (a
  higher priority, a put committed after a later one, a get backed out) goes here.

Everything else (removing a key from the middle, membership, bisecting, iterating) first
moves the tail into the sorted list, so a key is moved at most once and every operation
costs what ``SortedList``'s costs, amortised. Only the methods the in-process store uses
are offered.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from itertools import pairwise

from sortedcontainers import SortedList


class Order:
    """Sorted integer keys: ``SortedList``'s ``add``, ``remove``, ``pop(0)``, ``[0]``,
    ``bisect_left``, ``bisect_right``, ``islice``, membership, iteration and length."""

    __slots__ = ("_in_sorted", "_sorted", "_tail")

    def __init__(self) -> None:
        self._sorted: SortedList = SortedList()
        self._tail: deque[int] = deque()
        # len(self._sorted), kept here: SortedList's own __len__ is a Python call, and
        # the head's moves ask it every time.
        self._in_sorted = 0

    def add(self, key: int) -> None:
        tail = self._tail
        if tail:
            if key > tail[-1]:
                tail.append(key)
                return
            if key > tail[0]:
                self._settle()  # inside the tail's range: keep the tail's invariant
            self._sorted.add(key)
            self._in_sorted += 1
            return
        if not self._in_sorted or key > self._sorted[-1]:
            tail.append(key)
        else:
            self._sorted.add(key)
            self._in_sorted += 1

    def pop(self, index: int) -> int:
        """Remove and return the first key (``index`` 0: the only one offered)."""
        if index != 0:
            raise IndexError("Order.pop takes only the head (index 0)")
        if self._in_sorted:
            self._in_sorted -= 1
            key: int = self._sorted.pop(0)
            return key
        return self._tail.popleft()

    def __getitem__(self, index: int) -> int:
        sorted_keys = self._sorted
        if index == 0 and not self._in_sorted:
            return self._tail[0]
        if index != 0:
            self._settle()
        key: int = sorted_keys[index]
        return key

    def remove(self, key: int) -> None:
        """Remove ``key`` (ValueError if absent)."""
        tail = self._tail
        if tail and key == tail[0]:
            tail.popleft()
            return
        self._settle()
        self._sorted.remove(key)
        self._in_sorted -= 1

    def bisect_left(self, key: int) -> int:
        self._settle()
        position: int = self._sorted.bisect_left(key)
        return position

    def bisect_right(self, key: int) -> int:
        self._settle()
        position: int = self._sorted.bisect_right(key)
        return position

    def islice(self, start: int) -> Iterator[int]:
        """The keys from position ``start`` on (do not change the order meanwhile)."""
        self._settle()
        return iter(self._sorted.islice(start))

    def __contains__(self, key: object) -> bool:
        self._settle()
        return key in self._sorted

    def __iter__(self) -> Iterator[int]:
        self._settle()
        return iter(self._sorted)

    def __len__(self) -> int:
        return self._in_sorted + len(self._tail)

    def __bool__(self) -> bool:
        return bool(self._tail) or self._in_sorted > 0

    def audit(self) -> list[str]:
        """What is wrong with the order's own bookkeeping (none: nothing): the count it
        keeps of its sorted part, and its tail ascending above every sorted key. Looks
        without moving the tail, so an audit changes nothing."""
        wrong = []
        if self._in_sorted != len(self._sorted):
            wrong.append(
                f"counts {self._in_sorted} keys in its sorted part, which holds {len(self._sorted)}"
            )
        tail = list(self._tail)
        if any(a >= b for a, b in pairwise(tail)):
            wrong.append(f"has a tail that is not ascending: {tail}")
        if tail and self._sorted and tail[0] <= self._sorted[-1]:
            wrong.append(f"has tail key {tail[0]} not above its sorted keys ({self._sorted[-1]})")
        return wrong

    def _settle(self) -> None:
        """Move the tail into the sorted list (each key is moved at most once)."""
        if self._tail:
            self._sorted.update(self._tail)
            self._in_sorted += len(self._tail)
            self._tail.clear()


__all__ = ["Order"]
