"""Who a new message wakes (actors/signals.py): of the MQGETs waiting on a queue, the
longest-waiting *plain* one (it takes any message) and every selective one (each must
look for its own match); plain waiters behind the first would only find the same message
gone. A commit or backout wakes them all. "MQGMO_WAIT": a waiting get "is notified" when a
suitable message arrives."""

from __future__ import annotations

import math

import trio
import trio.testing

from actors.clock import VirtualClock
from actors.signals import Signals
from qsg.core.memstore import MemoryStore


async def _waiting(
    signals: Signals,
    store: MemoryStore,
    nursery: trio.Nursery,
    woken: list[str],
    waiters: list[tuple[str, bool, float]],
) -> None:
    """Start the waiters (name, plain, deadline) one after another, in that order."""

    async def wait(name: str, plain: bool, deadline: float) -> None:
        await signals.wait(store, "Q", deadline, plain=plain)
        woken.append(name)

    for name, plain, deadline in waiters:
        nursery.start_soon(wait, name, plain, deadline)
        await trio.testing.wait_all_tasks_blocked()


async def test_a_new_message_wakes_only_the_longest_waiting_of_plain_getters(
    virtual_clock: VirtualClock,
) -> None:
    signals, store, woken = Signals(), MemoryStore(), []
    async with trio.open_nursery() as nursery:
        waiters = [("P1", True, math.inf), ("P2", True, math.inf), ("P3", True, math.inf)]
        await _waiting(signals, store, nursery, woken, waiters)
        for expected in (["P1"], ["P1", "P2"], ["P1", "P2", "P3"]):
            signals.notify(store, "Q")
            await trio.testing.wait_all_tasks_blocked()
            assert woken == expected


async def test_a_new_message_wakes_the_first_plain_getter_and_every_selective_one(
    virtual_clock: VirtualClock,
) -> None:
    signals, store, woken = Signals(), MemoryStore(), []
    async with trio.open_nursery() as nursery:
        waiters = [
            ("P1", True, math.inf),
            ("S1", False, math.inf),
            ("P2", True, math.inf),
            ("S2", False, math.inf),
            ("P3", True, math.inf),
        ]
        await _waiting(signals, store, nursery, woken, waiters)
        signals.notify(store, "Q")
        await trio.testing.wait_all_tasks_blocked()
        assert sorted(woken) == ["P1", "S1", "S2"]
        # The selective ones gone, the next message wakes the next plain one only.
        signals.notify(store, "Q")
        await trio.testing.wait_all_tasks_blocked()
        assert sorted(woken) == ["P1", "P2", "S1", "S2"]
        nursery.cancel_scope.cancel()


async def test_a_selective_getter_whose_wait_ran_out_is_not_woken_and_plain_ones_go_in_turn(
    virtual_clock: VirtualClock,
) -> None:
    signals, store, woken = Signals(), MemoryStore(), []
    async with trio.open_nursery() as nursery:
        waiters = [("S1", False, 1.0), ("P1", True, math.inf), ("P2", True, math.inf)]
        await _waiting(signals, store, nursery, woken, waiters)
        await trio.sleep(2.0)  # S1's WaitInterval runs out (MQRC_NO_MSG_AVAILABLE)
        assert woken == ["S1"]
        signals.notify(store, "Q")
        await trio.testing.wait_all_tasks_blocked()
        assert woken == ["S1", "P1"]
        # A selective getter that arrives later is woken with the next plain one.
        await _waiting(signals, store, nursery, woken, [("S2", False, math.inf)])
        signals.notify(store, "Q")
        await trio.testing.wait_all_tasks_blocked()
        assert sorted(woken[2:]) == ["P2", "S2"]


async def test_a_commit_wakes_every_getter_of_the_store(virtual_clock: VirtualClock) -> None:
    signals, store, woken = Signals(), MemoryStore(), []
    async with trio.open_nursery() as nursery:
        waiters = [("P1", True, math.inf), ("S1", False, math.inf), ("P2", True, math.inf)]
        await _waiting(signals, store, nursery, woken, waiters)
        signals.notify_store(store)
        await trio.testing.wait_all_tasks_blocked()
        assert sorted(woken) == ["P1", "P2", "S1"]
        # Afterwards a new message wakes a new plain waiter alone again.
        await _waiting(
            signals, store, nursery, woken, [("P3", True, math.inf), ("P4", True, math.inf)]
        )
        signals.notify(store, "Q")
        await trio.testing.wait_all_tasks_blocked()
        assert woken[3:] == ["P3"]
        nursery.cancel_scope.cancel()
