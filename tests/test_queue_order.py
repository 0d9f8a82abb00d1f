"""A queue's visible keys (qsg/core/order.py) answer every question exactly as a sorted
list of them does, whatever order keys come and go in: "messages are retrieved in
priority order, and in arrival order within a priority" (MSGDLVSQ) rests on it."""

from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from sortedcontainers import SortedList

from qsg.core.order import Order
from tests.claims import keeps

pytestmark = keeps(
    "docs/speed.md",
    "A stateful property test (`tests/test_queue_order.py`) runs it against `SortedList` itself.",
)


class OrderAgainstSortedList(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.order = Order()
        self.model: SortedList = SortedList()
        self.next = 1000

    @rule(step=st.integers(1, 3))
    def add_behind_every_key(self, step: int) -> None:
        """The common put: a key larger than any yet."""
        self.next += step
        self.order.add(self.next)
        self.model.add(self.next)

    @rule(key=st.integers(0, 1200))
    def add_anywhere(self, key: int) -> None:
        """A higher priority, a commit after a later put, a backed-out get."""
        if key in self.model:
            return
        self.order.add(key)
        self.model.add(key)

    @precondition(lambda self: len(self.model) > 0)
    @rule()
    def pop_the_head(self) -> None:
        assert self.order.pop(0) == self.model.pop(0)

    @precondition(lambda self: len(self.model) > 0)
    @rule(data=st.data())
    def remove_one(self, data: st.DataObject) -> None:
        key = data.draw(st.sampled_from(list(self.model)))
        self.order.remove(key)
        self.model.remove(key)

    @rule(key=st.integers(0, 1300))
    def ask(self, key: int) -> None:
        assert (key in self.order) == (key in self.model)
        assert self.order.bisect_left(key) == self.model.bisect_left(key)
        assert self.order.bisect_right(key) == self.model.bisect_right(key)

    @rule(data=st.data())
    def look_at(self, data: st.DataObject) -> None:
        """Any position, not only the head: ``[i]`` answers as SortedList's."""
        if self.model:
            index = data.draw(st.integers(0, len(self.model) - 1))
            assert self.order[index] == self.model[index]

    @rule(start=st.integers(0, 20))
    def slice_from(self, start: int) -> None:
        assert list(self.order.islice(start)) == list(self.model.islice(start))

    @invariant()
    def same_keys_in_the_same_order(self) -> None:
        assert len(self.order) == len(self.model)
        assert bool(self.order) == bool(self.model)
        if self.model:
            assert self.order[0] == self.model[0]

    @rule()
    def iterate(self) -> None:
        assert list(self.order) == list(self.model)


TestOrderAgainstSortedList = OrderAgainstSortedList.TestCase
TestOrderAgainstSortedList.settings = settings(
    max_examples=300, stateful_step_count=60, deadline=None
)


def test_an_absent_key_cannot_be_removed_and_only_the_head_can_be_popped() -> None:
    order = Order()
    for key in (5, 6, 7):
        order.add(key)
    with pytest.raises(ValueError, match="4"):
        order.remove(4)
    with pytest.raises(IndexError, match=r"^Order\.pop takes only the head \(index 0\)$"):
        order.pop(1)
    assert [order.pop(0), order.pop(0), order.pop(0)] == [5, 6, 7]
    assert not order


def _in_both_parts() -> Order:
    """Keys 10, 11, 12 joined behind every other (the tail) and 5 before them (sorted)."""
    order = Order()
    for key in (10, 11, 12, 5):
        order.add(key)
    return order


def test_any_position_reads_as_in_a_sorted_list_while_keys_wait_in_both_parts() -> None:
    # [i] answers as SortedList's for every i, the first question to a fresh Order
    # included (the state machine finds this only by search; this pins it every run).
    assert [_in_both_parts()[index] for index in range(4)] == [5, 10, 11, 12]
