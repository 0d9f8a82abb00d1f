"""The virtual clock's heap under a busy queue (actors/clock.py, actors/signals.py): a wait
ended by a notification leaves its deadline's entry behind, and those entries must neither
pile up nor change which alarm comes up next. docs/speed.md, "Simulated time: the virtual
clock's own heap": "equal times wake in the order they were asked for"; a wait's wake-up
comes "at that instant, after what is already due"."""

from __future__ import annotations

import trio
import trio.testing

from actors.clock import Timer, VirtualClock
from actors.signals import Signals
from qsg.core.memstore import MemoryStore
from tests.claims import keeps


@keeps(
    "docs/speed.md",
    "The clock now drops the entries of alarms no longer pending whenever the heap has "
    "doubled since it last did",
)
async def test_ten_thousand_cancelled_timers_leave_the_heap_small_and_the_rest_fire_in_order(
    virtual_clock: VirtualClock,
) -> None:
    fired: list[int] = []
    kept: list[int] = []

    def firing(n: int) -> Timer:
        return Timer(lambda: fired.append(n))

    for n in range(10_000):
        # Every hundredth timer is kept; the others are cancelled at once, as a wait's
        # deadline is when a notification ends the wait. Times repeat, so the order they
        # were armed in decides among equal ones.
        timer = virtual_clock.call_at(1.0 + (n % 7), firing(n))
        if n % 100:
            timer.cancel()
        else:
            kept.append(n)
        # Never more than twice what was pending when it was last cleared (the timer
        # just armed included) and the slack: 266 entries at most, not 10,000.
        assert len(virtual_clock._alarms) <= 2 * (len(kept) + 1) + 64
    await trio.sleep(10)
    assert fired == sorted(kept, key=lambda n: (n % 7, n))


@keeps(
    "docs/speed.md",
    "When the deadline falls due at the very instant of the notification, its entry would "
    "come first, so the wake-up takes a timer of its own, in its turn, as before.",
)
async def test_a_clock_driven_wait_notified_as_its_deadline_falls_due_wakes_once_in_its_turn(
    virtual_clock: VirtualClock,
) -> None:
    signals, store, order = Signals(), MemoryStore(), []
    # Armed before the wait, so due ahead of its deadline at 1.0: it notifies the queue.
    virtual_clock.call_at(1.0, Timer(lambda: signals.notify(store, "Q")))
    signals.wait_call(
        store, "Q", 1.0, lambda: order.append("woken"), plain=True, clock=virtual_clock
    )
    # Armed after the wait but before the notification: it is already due when the
    # notification comes, so it goes first.
    virtual_clock.call_at(1.0, Timer(lambda: order.append("already due")))
    await trio.sleep(2)
    assert order == ["already due", "woken"]


async def test_a_clock_driven_wait_notified_before_its_deadline_wakes_then_and_not_again(
    virtual_clock: VirtualClock,
) -> None:
    signals, store, woken = Signals(), MemoryStore(), []
    virtual_clock.call_at(0.5, Timer(lambda: signals.notify(store, "Q")))
    signals.wait_call(
        store,
        "Q",
        1.0,
        lambda: woken.append(trio.current_time()),
        plain=True,
        clock=virtual_clock,
    )
    await trio.sleep(2)
    assert woken == [0.5]
    signals.notify(store, "Q")  # no one waits any more
    await trio.testing.wait_all_tasks_blocked()
    assert woken == [0.5]
