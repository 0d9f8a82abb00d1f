"""The pymqi facade's cost, as a ratio measured in one invocation (issue 25).

A put and a get of a 1 KB message on a shared queue (outside syncpoint), over and over,
in one task of one world: through the async API (``await q.put(...)``, ``await
q.get(...)``), and through ``qsg.pymqi`` (``queue.put(...)``, ``queue.get(...)``: a
synchronous call that awaits the world through greenback, pymqi's structures packed
for the call as pymqi packs them). Batches of each alternate (interleaved repetitions,
the order flipped every time), and the medians of the per-round-trip times are
compared: facade round trips per second / async round trips per second. In process the
times are the process's CPU time (all the work is ours; the machine may be shared with
other work that wall time would count); on Redis, wall time.
Target: >= 0.7.

Run in process (the shared queue in memory) and on Redis (the embedded Valkey server
the world starts), where a round trip is two trips to the server.

    ./dev bench facade                 # both stores
    ./dev bench facade --reps 41 --batch 300 --only memory
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Awaitable, Callable

import qsg
from actors.world import World
from qsg import CMQC, GMO, MD, PMO
from qsg import pymqi as facade
from qsg.commands.exec.runner import facade_bound

BODY = b"x" * 1024
QUEUE = "APP.BENCH"
TARGET = 0.7


def topology() -> qsg.Topology:
    top = qsg.Topology()
    top.add_qsg("BNCH", members=["QM1", "QM2"])
    top.mqsc("QM1", f"DEFINE CFSTRUCT(APP1)\nDEFINE QLOCAL({QUEUE}) QSGDISP(SHARED) CFSTRUCT(APP1)")
    return top


async def measure(in_process: bool, reps: int, batch: int) -> tuple[list[float], list[float]]:
    """Seconds per round trip of each batch: (async API, facade). In process, the
    process's CPU seconds (the work is all ours, and the machine may be shared); on
    Redis, wall seconds (the server's work and the trips to it count too)."""
    clock = time.process_time if in_process else time.perf_counter
    async with qsg.start(topology(), in_process=in_process) as world, facade_bound(world):
        async_trip = await _async_round_trip(world)
        facade_trip = _facade_round_trip()
        for _ in range(3):  # warm both paths
            await async_trip()
            facade_trip()
        times: dict[str, list[float]] = {"async": [], "facade": []}
        for rep in range(reps):
            order = ("async", "facade") if rep % 2 == 0 else ("facade", "async")
            for which in order:
                began = clock()
                if which == "async":
                    for _ in range(batch):
                        await async_trip()
                else:
                    for _ in range(batch):
                        facade_trip()
                times[which].append((clock() - began) / batch)
    return times["async"], times["facade"]


async def _async_round_trip(world: World) -> Callable[[], Awaitable[None]]:
    conn = await world.connect("QM1")
    putq = await conn.open(QUEUE, CMQC.MQOO_OUTPUT)
    getq = await conn.open(QUEUE, CMQC.MQOO_INPUT_SHARED)
    pmo = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
    gmo = GMO(Options=CMQC.MQGMO_NO_SYNCPOINT)

    async def trip() -> None:
        await putq.put(BODY, MD(), pmo)
        await getq.get(None, MD(), gmo)

    return trip


def _facade_round_trip() -> Callable[[], None]:
    qmgr = facade.connect("QM1")
    putq = facade.Queue(qmgr, QUEUE, facade.CMQC.MQOO_OUTPUT)
    getq = facade.Queue(qmgr, QUEUE, facade.CMQC.MQOO_INPUT_SHARED)
    pmo = facade.PMO(Options=facade.CMQC.MQPMO_NO_SYNCPOINT)
    gmo = facade.GMO(Options=facade.CMQC.MQGMO_NO_SYNCPOINT)

    def trip() -> None:
        putq.put(BODY, facade.MD(), pmo)
        getq.get(None, facade.MD(), gmo)

    return trip


def report(label: str, async_times: list[float], facade_times: list[float]) -> float:
    a, f = statistics.median(async_times), statistics.median(facade_times)
    ratio = a / f
    verdict = "ok" if ratio >= TARGET else "BELOW TARGET"
    print(
        f"{label}: async API {a * 1e6:8.1f} us a round trip ({1 / a:9,.0f}/s); "
        f"facade {f * 1e6:8.1f} us ({1 / f:9,.0f}/s); facade / async {ratio:.2f} "
        f"(target >= {TARGET}) {verdict}"
    )
    return ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=31, help="batches of each (default 31)")
    parser.add_argument("--batch", type=int, default=200, help="round trips a batch (200)")
    parser.add_argument("--only", choices=("memory", "redis"), help="one store only")
    args = parser.parse_args()
    print(
        f"put + get of {len(BODY)} bytes on a shared queue, {args.reps} interleaved "
        f"batches of {args.batch} round trips each; medians"
    )
    for label, in_process in (("in process", True), ("on Redis  ", False)):
        if args.only and (args.only == "memory") != in_process:
            continue
        async_times, facade_times = qsg.run(measure, in_process, args.reps, args.batch)
        report(label, async_times, facade_times)


if __name__ == "__main__":
    main()
