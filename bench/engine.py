"""Queue-engine throughput, as ratios measured in one invocation (issue 2).

1. put+get pairs per second through the rules layer (1 KB bodies, priority queue,
   priorities 0-9, no syncpoint), beside the same workload through SimPy's ``Store``,
   the discrete-event peer a capacity planner might use instead. Target: ratio >= 1.0.
2. The cost of one MQGET at depth 1,000,000 against depth 1,000. Target: <= 1.5.
   Printed beside them for context: the same loop with every MQ rule taken out, the
   least a put+get of an MQMD costs in this Python.
3. Logical-order MQGET throughput on a queue interleaving 1,000 groups of 10, against
   plain FIFO gets of the same messages (issue 3). Target: ratio >= 0.5.

    ./dev bench engine            # full run (about a minute; 1,000,000 messages)
    ./dev bench engine --quick    # a smoke run with small numbers
"""

from __future__ import annotations

import argparse
import gc
import heapq
import itertools
import random
import time

import simpy

from qsg import CMQC, GMO, MD, PMO, QMgr
from qsg.core.geometry import SEQ_BITS
from qsg.core.handle import Handle

BODY = b"x" * 1024


def engine_pairs(n: int, seed: int) -> float:
    """Put+get pairs per second through the engine."""
    qm = QMgr("BENCH")
    qm.define_queue("Q", max_depth=999_999_999)
    h = qm.connect().open("Q", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
    pmo = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
    gmo = GMO(Options=CMQC.MQGMO_NO_SYNCPOINT)
    priorities = [random.Random(seed).randrange(10) for _ in range(1024)]
    start = time.perf_counter()
    for i in range(n):
        now = i * 0.001
        h.put(BODY, MD(Priority=priorities[i & 1023]), pmo, now=now)
        h.get(None, MD(), gmo, now=now)
    return n / (time.perf_counter() - start)


def floor_pairs(n: int, seed: int) -> float:
    """Context for the target: the least a put+get of an MQMD costs in this Python.

    The loop of ``engine_pairs`` with every MQ rule taken out: the same structures are
    built, the descriptor is copied out at put (with a new MsgId written back) and into
    the caller's MD at get, and messages wait on a heap in priority-then-arrival order.
    Nothing is checked or applied: no validation, context, expiry, units of work,
    depth, limits, handles or output fields beyond the MsgId. If this is no faster than
    SimPy's pair, no faithful engine in pure Python can be.
    """
    heap: list[int] = []
    msgs: dict[int, tuple[dict[str, object], bytes]] = {}
    ids, arrivals = itertools.count(), itertools.count()
    prefix = b"AMQ BENCH".ljust(16)
    priorities = [random.Random(seed).randrange(10) for _ in range(1024)]
    start = time.perf_counter()
    for i in range(n):
        md = MD(Priority=priorities[i & 1023])
        desc = md.__dict__.copy()
        desc["MsgId"] = md.__dict__["MsgId"] = prefix + next(ids).to_bytes(8, "big")
        key = ((9 - desc["Priority"]) << SEQ_BITS) | next(arrivals)  # geometry.message_key
        msgs[key] = (desc, BODY)
        heapq.heappush(heap, key)
        out = MD()
        stored, _ = msgs.pop(heapq.heappop(heap))
        out.__dict__.update(stored)
    return n / (time.perf_counter() - start)


def simpy_pairs(n: int) -> float:
    """The same put+get pairs through SimPy's Store, in its own event loop."""
    env = simpy.Environment()
    store = simpy.Store(env)

    def app() -> simpy.events.ProcessGenerator:
        for _ in range(n):
            yield store.put(BODY)
            yield store.get()

    env.process(app())
    start = time.perf_counter()
    env.run()
    return n / (time.perf_counter() - start)


def simpy_modelled(n: int) -> float:
    """Context, not the target: the same traffic as a planner would model it in SimPy,
    a producer process putting every simulated millisecond and a consumer getting."""
    env = simpy.Environment()
    store = simpy.Store(env)

    def producer() -> simpy.events.ProcessGenerator:
        for _ in range(n):
            yield env.timeout(0.001)
            yield store.put(BODY)

    def consumer() -> simpy.events.ProcessGenerator:
        for _ in range(n):
            yield store.get()

    env.process(producer())
    env.process(consumer())
    start = time.perf_counter()
    env.run()
    return n / (time.perf_counter() - start)


def fill(h: Handle, depth: int, rng: random.Random) -> None:
    pmo = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
    for _ in range(depth):
        h.put(BODY, MD(Priority=rng.randrange(10)), pmo, now=0.0)


def get_cost_at(depth: int, gets: int, seed: int) -> float:
    """Mean seconds per MQGET with the queue held at ``depth`` (each get is put back)."""
    rng = random.Random(seed)
    qm = QMgr("BENCH")
    qm.define_queue("Q", max_depth=999_999_999)
    h = qm.connect().open("Q", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
    fill(h, depth, rng)
    gmo = GMO(Options=CMQC.MQGMO_NO_SYNCPOINT)
    pmo = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
    clock = time.perf_counter
    spent = 0.0
    gc.collect()
    for _ in range(gets):
        md = MD()
        t0 = clock()
        h.get(None, md, gmo, now=1.0)
        spent += clock() - t0
        h.put(BODY, MD(Priority=rng.randrange(10)), pmo, now=1.0)
    assert qm.depth("Q") == depth
    return spent / gets


def interleaved_groups(groups: int, size: int) -> tuple[QMgr, Handle]:
    """A FIFO queue holding ``groups`` groups of ``size``, round-robin: every group's
    first message, then every group's second, ..."""
    qm = QMgr("BENCH")
    qm.define_queue("Q", msg_delivery_sequence=CMQC.MQMDS_FIFO, max_depth=999_999_999)
    h = qm.connect().open("Q", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
    pmo = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
    ids = [CMQC.MQGI_NONE] * groups
    for seq in range(1, size + 1):
        flags = CMQC.MQMF_LAST_MSG_IN_GROUP if seq == size else CMQC.MQMF_MSG_IN_GROUP
        for g in range(groups):
            md = MD(Version=2, GroupId=ids[g], MsgSeqNumber=seq, MsgFlags=flags)
            h.put(BODY, md, pmo, now=0.0)
            ids[g] = md.GroupId
    return qm, h


def gets_per_second(groups: int, size: int, options: int) -> float:
    qm, h = interleaved_groups(groups, size)
    gmo = GMO(Options=options)
    start = time.perf_counter()
    for _ in range(groups * size):
        h.get(None, MD(), gmo, now=1.0)
    elapsed = time.perf_counter() - start
    assert qm.depth("Q") == 0
    return groups * size / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=200_000)
    parser.add_argument("--big-depth", type=int, default=1_000_000)
    parser.add_argument("--gets", type=int, default=50_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--groups", type=int, default=1_000)
    parser.add_argument("--quick", action="store_true", help="small numbers, for a smoke test")
    args = parser.parse_args()
    if args.quick:
        args.pairs, args.big_depth, args.gets, args.repeats = 5_000, 20_000, 2_000, 1
        args.groups = 100

    # Interleave the two so that machine noise hits both alike; keep the best of each.
    engine_rate = simpy_rate = modelled_rate = floor_rate = 0.0
    for _ in range(args.repeats):
        engine_rate = max(engine_rate, engine_pairs(args.pairs, args.seed))
        simpy_rate = max(simpy_rate, simpy_pairs(args.pairs))
        modelled_rate = max(modelled_rate, simpy_modelled(args.pairs))
        floor_rate = max(floor_rate, floor_pairs(args.pairs, args.seed))
    small = min(get_cost_at(1_000, args.gets, args.seed) for _ in range(args.repeats))
    big = min(get_cost_at(args.big_depth, args.gets, args.seed) for _ in range(args.repeats))
    fifo_rate = logical_rate = 0.0
    plain = CMQC.MQGMO_NO_SYNCPOINT
    for _ in range(args.repeats):
        fifo_rate = max(fifo_rate, gets_per_second(args.groups, 10, plain))
        logical_rate = max(
            logical_rate, gets_per_second(args.groups, 10, plain | CMQC.MQGMO_LOGICAL_ORDER)
        )

    print("qsg rules-layer engine benchmark (1 KB bodies, priority queue, no syncpoint)")
    print(f"  engine put+get pairs/s      {engine_rate:12,.0f}")
    print(f"  SimPy Store put+get pairs/s {simpy_rate:12,.0f}")
    print(f"  ratio engine / SimPy        {engine_rate / simpy_rate:12.2f}   (target >= 1.0)")
    print(
        f"  context: the same loop with no MQ rule at all {floor_rate:,.0f} pairs/s (that / SimPy"
        f" {floor_rate / simpy_rate:.2f}; engine / that {engine_rate / floor_rate:.2f})"
    )
    print(
        f"  context: SimPy producer/consumer with timeouts {modelled_rate:,.0f} msgs/s"
        f" (engine / that {engine_rate / modelled_rate:.2f})"
    )
    print(f"  MQGET at depth {1_000:>9,}    {small * 1e6:9.2f} us")
    print(f"  MQGET at depth {args.big_depth:>9,}    {big * 1e6:9.2f} us")
    print(f"  ratio big / small depth     {big / small:12.2f}   (target <= 1.5)")
    print(f"  {args.groups:,} interleaved groups of 10:")
    print(f"  FIFO gets/s                 {fifo_rate:12,.0f}")
    print(f"  logical-order gets/s        {logical_rate:12,.0f}")
    print(f"  ratio logical / FIFO        {logical_rate / fifo_rate:12.2f}   (target >= 0.5)")


if __name__ == "__main__":
    main()
