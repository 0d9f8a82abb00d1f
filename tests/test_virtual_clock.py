"""The virtual clock: simulated time jumps to the next timer when every task is idle,
and never while a request to Redis is in flight (docs/architecture.md, "Time")."""

from __future__ import annotations

import math

import pytest
import trio

import qsg
from actors.clock import VirtualClock
from coupling.trio_transport import TrioTransport
from tests.claims import keeps


@keeps("docs/world.md", "`trio.sleep(3600)` is an hour of simulated time that costs no wall time")
async def test_a_long_sleep_costs_no_wall_time_and_lands_exactly_on_its_deadline(
    virtual_clock: VirtualClock,
) -> None:
    wall = trio.lowlevel.current_clock()
    assert wall is virtual_clock
    woke: list[float] = []

    async def sleeper(seconds: float) -> None:
        await trio.sleep(seconds)
        woke.append(trio.current_time())

    async with trio.open_nursery() as nursery:
        for seconds in (86_400.0, 0.25, 3600.0):
            nursery.start_soon(sleeper, seconds)
    assert sorted(woke) == [0.25, 3600.0, 86_400.0]


@keeps(
    "docs/world.md",
    "time never moves while a request to Redis is in flight (so a Redis round trip costs no "
    "simulated time)",
)
@keeps(
    "docs/speed.md",
    "a request to the coupling facility's server freezes simulated time until its reply",
)
async def test_virtual_time_does_not_advance_while_a_redis_request_is_in_flight(
    virtual_clock: VirtualClock, cf_url: str
) -> None:
    # BLPOP on an empty list takes 0.3 s of real time on the server. A timer due in one
    # simulated second must not fire meanwhile, and no simulated time may pass.
    woke: list[float] = []

    async def timer() -> None:
        await trio.sleep(1.0)
        woke.append(trio.current_time())

    async with TrioTransport.open(cf_url) as transport:
        virtual_clock.watch(transport)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(timer)
            await trio.sleep(0.5)
            before = trio.current_time()
            assert await transport.acommand("BLPOP", "qsg-clock-test-empty", "0.3") is None
            assert trio.current_time() == before == 0.5
            assert woke == []
        assert woke == [1.0]  # and then time moved on as usual
        virtual_clock.unwatch(transport)


def test_trios_own_autojump_clock_would_jump_during_that_request(cf_url: str) -> None:
    # Why the simulator has its own clock: MockClock(autojump_threshold=0) jumps while
    # a socket read is pending, so a timer fires "during" a round trip.
    async def main() -> tuple[float, float]:
        async with TrioTransport.open(cf_url) as transport, trio.open_nursery() as nursery:
            nursery.start_soon(trio.sleep, 1.0)
            before = trio.current_time()
            await transport.acommand("BLPOP", "qsg-clock-test-empty", "0.3")
            return before, trio.current_time()

    before, after = trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))
    assert after - before >= 1.0


@keeps("docs/world.md", "`qsg.run(main)` is `trio.run` on the **virtual clock**")
def test_qsg_run_uses_the_virtual_clock() -> None:
    async def main() -> float:
        await trio.sleep(math.pi * 1000)
        return trio.current_time()

    assert qsg.run(main) == math.pi * 1000


@keeps("docs/world.md", "`qsg.run(main, wall_clock=True)` runs the same code on real time.")
def test_the_same_world_runs_in_real_time_in_wall_clock_mode() -> None:
    # docs/architecture.md, "Time": the wall clock runs the same code.
    from qsg import CMQC, GMO, MD, MQMIError
    from tests.worlds import qsg_and_qm3

    async def main() -> float:
        async with qsg.start(qsg_and_qm3(), in_process=True) as world:
            q = await (await world.connect("QM3")).open("APP.IN", CMQC.MQOO_INPUT_SHARED)
            began = trio.current_time()
            with pytest.raises(MQMIError, match=r"2033"):
                await q.get(None, MD(), GMO(Options=CMQC.MQGMO_WAIT, WaitInterval=200))
            return trio.current_time() - began

    waited = qsg.run(main, wall_clock=True)
    assert 0.2 <= waited < 5.0  # real seconds went by


@keeps(
    "docs/speed.md",
    "Cancellation keeps trio's semantics, and trio's own deadlines go first at equal "
    "times (a `move_on_at(stop)` still ends a loop whose next wake-up is `stop`).",
)
async def test_the_clocks_own_sleepers_wake_at_their_time_and_a_late_one_after_the_instant(
    virtual_clock: VirtualClock,
) -> None:
    # A late wake-up (an operator's command at t) comes after every other wake-up due at
    # t, and after what those woke do at t; a trio deadline at t comes before the
    # clock's own sleepers (a move_on_at(stop) still ends a loop whose next wake is stop).
    from actors import clock

    order: list[tuple[str, float]] = []

    async def sleeper(name: str, seconds: float, late: bool = False) -> None:
        if late:
            await clock.sleep_until(seconds, late=True)
        else:
            await clock.sleep(seconds)
            if name == "chain":  # woken at 2.0, it does one more step at 2.0
                await clock.sleep(0)
        order.append((name, trio.current_time()))

    async def cut_off() -> None:
        with trio.move_on_at(2.0):
            await clock.sleep(2.0)
            order.append(("not cancelled", trio.current_time()))
        order.append(("cancelled", trio.current_time()))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(sleeper, "late", 2.0, True)
        nursery.start_soon(cut_off)
        nursery.start_soon(sleeper, "chain", 2.0)
        nursery.start_soon(sleeper, "early", 1.5)
    assert order[0] == ("early", 1.5)
    assert order[1] == ("cancelled", 2.0)
    assert order[2] == ("chain", 2.0)
    assert order[3] == ("late", 2.0)


@keeps(
    "docs/world.md",
    "kept on the virtual clock's own heap instead of a trio cancel scope (on the wall clock it "
    "is `trio.sleep`",
)
@keeps(
    "docs/speed.md",
    "which are the same calls kept by the virtual clock's own heap (and trio's own under "
    "the wall clock)",
)
def test_qsg_sleep_is_kept_by_the_virtual_clocks_own_heap_and_is_trios_on_the_wall_clock() -> None:
    # docs/speed.md: a program that sleeps with qsg.sleep costs the simulator no cancel
    # scope per wait; its wake-up is one entry of the virtual clock's heap.
    heap: list[int] = []

    async def main() -> float:
        clock = trio.lowlevel.current_clock()
        assert isinstance(clock, VirtualClock)

        async def watch() -> None:
            await trio.sleep(1.0)  # halfway through the other task's sleep
            heap.append(len(clock._alarms))

        async with trio.open_nursery() as nursery:
            nursery.start_soon(watch)
            await qsg.sleep(2.5)
            await qsg.sleep_until(3.0)
        return trio.current_time()

    assert qsg.run(main) == 3.0
    assert heap == [1]  # the sleeper parked on the clock's heap, not on a trio deadline

    async def on_the_wall() -> float:
        began = trio.current_time()
        await qsg.sleep(0.01)
        return trio.current_time() - began

    assert qsg.run(on_the_wall, wall_clock=True) >= 0.01
