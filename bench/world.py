"""The running world, as ratios measured in one invocation (issue 6).

1. In-process store, the reference scenario: a QSG of 3 members, one shared queue,
   200 messages/s of 1 KB (a producer per member, Poisson arrivals from the run's
   seeded RNG), 3 consumers (one per member, MQGET with MQGMO_WAIT), 1 simulated hour.
   Messages per wall second, beside the rate at which a bare trio program on the same
   virtual clock sleeps from one timer to the next (``trio.sleep``: the loop's limit).
   Target: >= 50% of the bare rate. The producers sleep with ``qsg.sleep``, the
   simulator's own (the virtual clock's wake-up heap, as every actor of the simulator
   sleeps); for context the same run with producers on ``trio.sleep`` (a cancel scope
   per wait) is printed beside it.
2. The same scenario with the shared queue on Redis: wall time per message, beside a
   blocking trivial EVALSHA round trip (valkey-py, ``return 1``) on the same server
   (issue 30). Target: <= 12x. The world's calls to the facility block the trio thread
   under the virtual clock (``coupling.direct``); for context the same scenario through
   the trio transport (``QSG_CF_TRANSPORT=trio``, the design before issue 30), and the
   bare round trip of that transport: with virtual time frozen during I/O, a put and a
   get (two round trips) were its floor (issue 6's target: <= 3x that floor).

Both print the speed-up over real time (simulated seconds per wall second), and for
context what lies outside the simulator's reach: the scenario's shape in bare trio (no MQ
at all) beside figure 1, the server's own time per script beside figure 2.

    ./dev bench world                     # full: 1 simulated hour in process, 60 s on Redis
    ./dev bench world --seconds 60        # shorter runs (both parts)
    ./dev bench world --seconds 60 --repeat 5   # 5 interleaved repetitions of each part
    ./dev bench world --part 2            # only part 2 (on Redis)

Each part runs its measures in interleaved repetitions (3 by default) and prints their
medians (the ratios as medians of each repetition's ratio): part 1 the bare jumps, the
world with ``qsg.sleep`` and the world with ``trio.sleep``; part 2 the two round trips
and the scenario. On a shared machine the load moves within seconds.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections import deque
from collections.abc import Awaitable, Callable

import trio

import qsg
from actors.clock import VirtualClock, Wakeup
from actors.world import TRANSPORT_VARIABLE, World
from coupling.server import open_server
from coupling.stats import reset_statistics, script_time
from coupling.transport import BlockingTransport
from coupling.trio_transport import TrioTransport
from qsg import CMQC, GMO, MD, PMO

RATE = 200.0  # messages per simulated second, all producers together
MEMBERS = ("QM1", "QM2", "QM3")
BODY = b"x" * 1024


def topology() -> qsg.Topology:
    top = qsg.Topology()
    top.add_qsg("BNCH", members=list(MEMBERS))
    top.mqsc(
        "QM1",
        """
        DEFINE CFSTRUCT(APP1) CFLEVEL(5)
        DEFINE QLOCAL(APP.WORK) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(999999999)
        """,
    )
    return top


Sleep = Callable[[float], Awaitable[None]]


async def producer(world: World, member: str, seconds: float, sleep: Sleep) -> None:
    conn = await world.connect(member)
    q = await conn.open("APP.WORK", CMQC.MQOO_OUTPUT)
    pmo = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
    rate = RATE / len(MEMBERS)
    rng = world.random
    while True:
        await sleep(rng.expovariate(rate))
        if trio.current_time() >= seconds:
            return
        await q.put(BODY, MD(Expiry=6000), pmo)


async def consumer(world: World, member: str, got: list[int]) -> None:
    conn = await world.connect(member)
    q = await conn.open("APP.WORK", CMQC.MQOO_INPUT_SHARED)
    gmo = GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, WaitInterval=-1)
    while True:
        await q.get(None, MD(), gmo)
        got[0] += 1


async def scenario(
    seconds: float, in_process: bool, url: str | None, sleep: Sleep = qsg.sleep
) -> tuple[int, float]:
    """Messages got, wall seconds; the producers wait with ``sleep``."""
    got = [0]
    began = time.perf_counter()
    start = qsg.start(topology(), keep_events=False, in_process=in_process, redis_url=url)
    async with start as world, trio.open_nursery() as nursery:
        for member in MEMBERS:
            nursery.start_soon(consumer, world, member, got)
        async with trio.open_nursery() as producers:
            for member in MEMBERS:
                producers.start_soon(producer, world, member, seconds, sleep)
        await trio.sleep(1)  # the last ones are got
        nursery.cancel_scope.cancel()
    return got[0], time.perf_counter() - began


def bare_jumps(jumps: int) -> float:
    """Timer-to-timer jumps per wall second of a bare trio program on the virtual clock."""

    async def main() -> None:
        for _ in range(jumps):
            await trio.sleep(0.001)

    began = time.perf_counter()
    trio.run(main, clock=VirtualClock())
    return jumps / (time.perf_counter() - began)


def bare_shape(seconds: float, seed: int = 0, *, own: bool = False) -> float:
    """Context for figure 1: the scenario's shape with no MQ in it, messages per wall
    second. The same producers (Poisson sleeps on the virtual clock) hand each message
    to the same consumers, each waiting on its own event and woken one at a time (as the
    world wakes one plain waiter per message). What trio costs before any MQ work:
    ``own`` False on trio's primitives (``trio.sleep``, ``trio.Event``), True on the
    ones the world uses (``qsg.sleep``, a consumer parked on the virtual clock's heap
    as a waiting MQGET is): the ceiling of figure 1 with MQ's work taken out."""
    got = [0]

    async def main() -> None:
        rng = random.Random(seed)
        box: deque[bytes] = deque()
        idle: deque[Callable[[], None]] = deque()
        clock = trio.lowlevel.current_clock()
        assert isinstance(clock, VirtualClock)

        async def produce() -> None:
            while True:
                pause = rng.expovariate(RATE / len(MEMBERS))
                if own:
                    await qsg.sleep(pause)
                else:
                    await trio.sleep(pause)
                if trio.current_time() >= seconds:
                    return
                box.append(BODY)
                if idle:
                    idle.popleft()()

        async def consume() -> None:
            while True:
                while not box:
                    if own:
                        wakeup = Wakeup()
                        idle.append(wakeup.wake)
                        await clock.park(wakeup)
                    else:
                        event = trio.Event()
                        idle.append(event.set)
                        await event.wait()
                box.popleft()
                got[0] += 1

        async with trio.open_nursery() as nursery:
            for _ in MEMBERS:
                nursery.start_soon(consume)
            async with trio.open_nursery() as producers:
                for _ in MEMBERS:
                    producers.start_soon(produce)
            nursery.cancel_scope.cancel()

    began = time.perf_counter()
    trio.run(main, clock=VirtualClock())
    return got[0] / (time.perf_counter() - began)


def blocking_evalsha(url: str, count: int) -> float:
    """Seconds per blocking round trip of a trivial script (EVALSHA of ``return 1``)."""
    transport = BlockingTransport(url)
    client = transport._client  # the bare client: no store, no qsg script
    try:
        sha = client.execute_command("SCRIPT", "LOAD", "return 1")  # type: ignore[no-untyped-call]
        call = ("EVALSHA", sha, 0)
        client.execute_command(*call)  # type: ignore[no-untyped-call]
        began = time.perf_counter()
        for _ in range(count):
            client.execute_command(*call)  # type: ignore[no-untyped-call]
        return (time.perf_counter() - began) / count
    finally:
        transport.close()


async def round_trip(url: str, count: int) -> float:
    """Seconds per bare round trip (PING) through the trio transport."""
    async with TrioTransport.open(url) as transport:
        began = time.perf_counter()
        for _ in range(count):
            await transport.acommand("PING")
        return (time.perf_counter() - began) / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=None, help="simulated seconds")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions of each part")
    parser.add_argument("--part", type=int, choices=(1, 2), help="only this part")
    args = parser.parse_args()
    if args.part != 2:
        in_process(args.seconds or 3600.0, args.repeat)
    if args.part != 1:
        on_redis(args.seconds or 60.0, args.repeat)


def in_process(local_seconds: float, repeat: int) -> None:
    """Part 1."""

    print(
        f"1. in process: {len(MEMBERS)} members, {RATE:.0f} msg/s of 1 KB, "
        f"{local_seconds:.0f} simulated s"
    )
    bares, rates, trio_rates = [], [], []
    for _ in range(repeat):  # interleaved, so a change of the machine's load hits all
        # As many jumps as the world has messages (twice), so each measure lasts about
        # as long as the other and a change of load falls on both alike.
        bares.append(bare_jumps(min(200_000, max(10_000, int(2 * RATE * local_seconds)))))
        got, wall = qsg.run(scenario, local_seconds, True, None)
        rates.append(got / wall)
        trio_got, trio_wall = qsg.run(scenario, local_seconds, True, None, trio.sleep)
        trio_rates.append(trio_got / trio_wall)
    bare, rate = statistics.median(bares), statistics.median(rates)
    ratio = statistics.median(r / b for r, b in zip(rates, bares, strict=True))
    wall = got / rate  # the median run's wall seconds, for the speed-up
    trio_rate = statistics.median(trio_rates)
    print(
        f"   (medians of {repeat} interleaved repetitions; world/bare each:"
        f" {', '.join(f'{r / b:.2f}' for r, b in zip(rates, bares, strict=True))})"
    )
    print(f"   bare trio timer jumps on the virtual clock: {bare:10,.0f} /s")
    print(
        f"   messages through the world:                 {rate:10,.0f} /s ({got:,} in {wall:.1f} s)"
    )
    print(
        f"   ratio: {ratio:.2f} of the bare rate (median of the repetitions; target >= 0.50); "
        f"speed-up over real time: {local_seconds / wall:,.0f}x"
    )
    print(
        f"   context: producers on trio.sleep instead of qsg.sleep: {trio_rate:,.0f}"
        f" /s ({trio_rate / bare:.2f} of the bare rate)"
    )
    shape = bare_shape(min(local_seconds, 600.0))
    own = bare_shape(min(local_seconds, 600.0), own=True)
    print(
        f"   context: the same producers and consumers with no MQ at all: {shape:,.0f} /s"
        f" ({shape / bare:.2f} of the bare rate) on trio.sleep and trio.Event, {own:,.0f} /s"
        f" ({own / bare:.2f}) on qsg.sleep and the clock's parking, as the world waits"
    )
    print(
        f"   context: a message's time: {1e6 / rate:.1f} us in the world, {1e6 / own:.1f} us"
        f" of it the shape's own waits; {2e6 / bare:.1f} us a message would be 0.50"
    )


def on_redis(redis_seconds: float, repeat: int) -> None:
    """Part 2."""
    with open_server() as url:
        print(f"2. on Redis: the same scenario, {redis_seconds:.0f} simulated s")
        floors, evalshas, pers, bridged = [], [], [], []
        scripts: tuple[int, float] | None = (0, 0.0)
        for _ in range(repeat):  # interleaved: references and scenarios, each time
            floors.append(2 * qsg.run(round_trip, url, 2000))
            evalshas.append(blocking_evalsha(url, 2000))
            counted = qsg.run(reset_statistics, url)  # the scenario's scripts only
            got, wall = qsg.run(scenario, redis_seconds, False, url)
            pers.append(wall / got)
            ran = qsg.run(script_time, url) if counted else None
            scripts = (
                None
                if ran is None or scripts is None
                else (scripts[0] + ran[0], scripts[1] + ran[1])
            )
            os.environ[TRANSPORT_VARIABLE] = "trio"  # the design before issue 30
            try:
                trio_got, trio_wall = qsg.run(scenario, redis_seconds, False, url)
            finally:
                del os.environ[TRANSPORT_VARIABLE]
            bridged.append(trio_wall / trio_got)
        floor, evalsha, per, before = (
            statistics.median(x) for x in (floors, evalshas, pers, bridged)
        )
        to_evalsha = statistics.median(p / e for p, e in zip(pers, evalshas, strict=True))
        before_evalsha = statistics.median(p / e for p, e in zip(bridged, evalshas, strict=True))
        before_floor = statistics.median(p / f for p, f in zip(bridged, floors, strict=True))
        print(
            f"   (medians of {repeat} interleaved repetitions; world/EVALSHA each:"
            f" {', '.join(f'{p / e:.1f}' for p, e in zip(pers, evalshas, strict=True))})"
        )
        print(f"   blocking trivial EVALSHA round trip:        {evalsha * 1e6:10,.0f} us")
        print(
            f"   wall time per message:                      {per * 1e6:10,.0f} us ({got:,} msgs)"
        )
        print(
            f"   ratio: {to_evalsha:.2f} x that round trip (target <= 12); "
            f"speed-up over real time: {redis_seconds / (per * got):,.1f}x"
        )
        print(
            f"   context: through the trio transport instead: {before * 1e6:,.0f} us a message"
            f" ({before_evalsha:.2f} x the EVALSHA; {per / before:.2f} of its time now)"
        )
        print(
            f"   context: the trio transport's bare round trip x 2: {floor * 1e6:,.0f} us"
            f" (its world message {before_floor:.2f} x that)"
        )
        if scripts is not None:
            server = scripts[1] / scripts[0] * 1e6
            print(
                f"   context: the server's own time per script (INFO commandstats): "
                f"{server:,.0f} us, {2 * server:,.0f} us a message"
            )


if __name__ == "__main__":
    main()
