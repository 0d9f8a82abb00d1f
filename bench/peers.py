"""qsg beside the queueing simulators a capacity planner knows, on one model (issue 30).

The model is M/M/3: Poisson arrivals at 2.7 a second, three servers, exponential
service of mean 1 s (utilisation 0.9). qsg plays it as a scenario (a putter and three
getters on a local queue, in process, virtual time); SimPy as a planner would write it
(a ``Resource`` of capacity 3, a process per customer); Ciw as its documentation shows
(one node, three servers). Each is run for the same simulated time, in interleaved
repetitions, and each one's rate is customers (messages) per wall second; the medians
are compared. Each one's mean wait in the queue is printed beside Erlang C's.

qsg does far more per message (MQPUT and MQGET with their rules, events, the history a
chaos checker reads); the ratio says what that costs. qsg runs twice: as it runs a
scenario (its putter and getters driven by the virtual clock's timers, ``actors.drive``)
and with every application on a task of its own (what it did before), so the gain of
the clock-driven applications is measured in the same invocation.

The same model with a processor cost per MQI call (issue 44): the queue manager's one
processor charged ``COST`` seconds for every MQPUT and every MQGET attempt (a waiting
get's first attempt that finds nothing, and the attempt it makes when woken, as qsg's
model charges them), in qsg (``[model] cpu_per_call``, ``cpus = 1``) and in SimPy as a
planner would add it (the processor a ``Resource`` of capacity 1 each call holds, the
queue a ``Store``): customers per wall second of each, side by side.

    ./dev bench peers                  # 3 repetitions of 10,000 simulated seconds
    ./dev bench peers --seconds 4000 --repeat 5
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import ciw
import simpy

from actors import drive
from actors.events import MessageGot, MessagePut
from qsg.commands.pipeline.theory import mmc_mean_wait
from qsg.scenario.load import parse_scenario
from qsg.scenario.model import Scenario
from qsg.scenario.play import run_scenario

ARRIVALS = 2.7  # a second
SERVICE = 1.0  # mean seconds
SERVERS = 3

SCENARIO = f"""
description = "bench: M/M/3 at utilisation 0.9"
[run]
duration = {{seconds}}
seed = {{seed}}
in_process = true
sample_interval = 1000
[qmgr.QM1]
mqsc = "DEFINE QLOCAL(APP.WORK) MAXDEPTH(999999999)"
[[workload]]
name = "arrivals"
type = "putter"
qmgr = "QM1"
queue = "APP.WORK"
rate = {ARRIVALS}
arrival = "poisson"
[[workload]]
name = "servers"
type = "getter"
qmgr = "QM1"
queue = "APP.WORK"
apps = {SERVERS}
service = {{{{ dist = "exponential", mean = {SERVICE} }}}}
"""

#: A processor's seconds an MQI call costs, in the model with costs (one processor).
COST = 0.02

Result = tuple[int, float, float]  # customers served, wall seconds, mean wait


def qsg_run(seconds: float, seed: int) -> Result:
    return _played(parse_scenario(SCENARIO.format(seconds=seconds, seed=seed), "<bench>"), seed)


def _played(scenario: Scenario, seed: int) -> Result:
    began = time.perf_counter()
    result = run_scenario(scenario, seed=seed)
    wall = time.perf_counter() - began
    put = {e.msg_id: e.time for e in result.events if isinstance(e, MessagePut)}
    waits = [
        e.time - put[e.msg_id]
        for e in result.events
        if isinstance(e, MessageGot) and e.msg_id in put
    ]
    return len(waits), wall, statistics.fmean(waits)


def qsg_costed_run(seconds: float, seed: int) -> Result:
    """``qsg_run`` with a processor cost of ``COST`` a call, on one processor."""
    text = SCENARIO.format(seconds=seconds, seed=seed).replace(
        "[qmgr.QM1]", f"[model]\ncpu_per_call = {COST}\ncpus = 1\n[qmgr.QM1]"
    )
    return _played(parse_scenario(text, "<bench, costed>"), seed)


def qsg_tasks_run(seconds: float, seed: int) -> Result:
    """``qsg_run`` with no application driven by the clock: a task each."""
    kinds, drive.KINDS = drive.KINDS, frozenset()
    try:
        return qsg_run(seconds, seed)
    finally:
        drive.KINDS = kinds


def simpy_run(seconds: float, seed: int) -> Result:
    rng = random.Random(seed)
    env = simpy.Environment()
    servers = simpy.Resource(env, capacity=SERVERS)
    waits: list[float] = []

    def customer() -> simpy.events.ProcessGenerator:
        arrived = env.now
        with servers.request() as request:
            yield request
            waits.append(env.now - arrived)
            yield env.timeout(rng.expovariate(1 / SERVICE))

    def source() -> simpy.events.ProcessGenerator:
        while True:
            yield env.timeout(rng.expovariate(ARRIVALS))
            env.process(customer())

    env.process(source())
    began = time.perf_counter()
    env.run(until=seconds)
    return len(waits), time.perf_counter() - began, statistics.fmean(waits)


def simpy_costed_run(seconds: float, seed: int) -> Result:
    """The M/M/3 with a processor cost a call, as qsg's model charges it: the putter's
    MQPUT after each arrival's gap, each getter's MQGET attempt and, when it found
    nothing, its wait and the attempt it makes when a message comes."""
    rng = random.Random(seed)
    env = simpy.Environment()
    cpu = simpy.Resource(env, capacity=1)
    queue = simpy.Store(env)
    waits: list[float] = []

    def call() -> simpy.events.ProcessGenerator:
        with cpu.request() as request:
            yield request
            yield env.timeout(COST)

    def putter() -> simpy.events.ProcessGenerator:
        while True:
            yield env.timeout(rng.expovariate(ARRIVALS))
            yield env.process(call())
            queue.put(env.now)

    def getter() -> simpy.events.ProcessGenerator:
        while True:
            yield env.process(call())
            if not queue.items:
                got = queue.get()
                yield got
                queue.put(got.value)  # the woken attempt takes it, after its cost
                yield env.process(call())
                if not queue.items:
                    continue
            put_at = yield queue.get()
            waits.append(env.now - put_at)
            yield env.timeout(rng.expovariate(1 / SERVICE))

    env.process(putter())
    for _ in range(SERVERS):
        env.process(getter())
    began = time.perf_counter()
    env.run(until=seconds)
    return len(waits), time.perf_counter() - began, statistics.fmean(waits)


def ciw_run(seconds: float, seed: int) -> Result:
    ciw.seed(seed)
    network = ciw.create_network(
        arrival_distributions=[ciw.dists.Exponential(rate=ARRIVALS)],
        service_distributions=[ciw.dists.Exponential(rate=1 / SERVICE)],
        number_of_servers=[SERVERS],
    )
    began = time.perf_counter()
    sim = ciw.Simulation(network)
    sim.simulate_until_max_time(seconds)
    wall = time.perf_counter() - began
    waits = [r.waiting_time for r in sim.get_all_records()]
    return len(waits), wall, statistics.fmean(waits)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10_000.0, help="simulated seconds a run")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    runners: dict[str, Callable[[float, int], Result]] = {
        "qsg": qsg_run,
        "tasks": qsg_tasks_run,
        "SimPy": simpy_run,
        "Ciw": ciw_run,
        "qsg+cpu": qsg_costed_run,
        "SimPy+cpu": simpy_costed_run,
    }
    rates: dict[str, list[float]] = {name: [] for name in runners}
    #: Customers a processor second: this process's own time around the whole runner
    #: (qsg's scenario parsed and its world started included), which other processes'
    #: load on a shared machine does not count, as it does the wall time.
    cpu_rates: dict[str, list[float]] = {name: [] for name in runners}
    waits: dict[str, list[float]] = {name: [] for name in runners}
    for rep in range(args.repeat):  # interleaved: each repetition runs all three
        for name, runner in runners.items():
            began = time.process_time()
            served, wall, wait = runner(args.seconds, 1 + rep)
            cpu = time.process_time() - began
            rates[name].append(served / wall)
            cpu_rates[name].append(served / cpu)
            waits[name].append(wait)
            print(
                f"  rep {rep + 1} {name:<9} {served:>8,} customers in {wall:6.2f} s "
                f"= {served / wall:>9,.0f} /s ({cpu:6.2f} processor s); mean wait {wait:.3f} s"
            )
    erlang = mmc_mean_wait(SERVERS, ARRIVALS, 1 / SERVICE)
    median = {name: statistics.median(r) for name, r in rates.items()}
    print(
        f"M/M/{SERVERS} (arrivals {ARRIVALS}/s, mean service {SERVICE} s), "
        f"{args.seconds:,.0f} simulated s, median of {args.repeat}:"
    )
    for name in runners:
        print(
            f"  {name:<9} {median[name]:>9,.0f} customers per wall second; mean wait "
            f"{statistics.fmean(waits[name]):.3f} s (Erlang C {erlang:.3f} s)"
        )
    print(f"  ratio qsg / SimPy {median['qsg'] / median['SimPy']:.3f}   (target >= 0.15)")
    print(f"  ratio qsg / Ciw   {median['qsg'] / median['Ciw']:.3f}   (target >= 0.3)")
    print(f"  ratio qsg / qsg with a task per application {median['qsg'] / median['tasks']:.2f}")
    ours, theirs = statistics.fmean(waits["qsg+cpu"]), statistics.fmean(waits["SimPy+cpu"])
    print(
        f"with a processor cost of {COST * 1000:g} ms a call on one processor (+cpu; mean waits"
        f" {ours:.3f} s and {theirs:.3f} s):"
    )
    ratio = median["qsg+cpu"] / median["SimPy+cpu"]
    cpu_ratio = statistics.median(cpu_rates["qsg+cpu"]) / statistics.median(cpu_rates["SimPy+cpu"])
    print(
        f"  ratio qsg / SimPy {ratio:.3f} in wall time, {cpu_ratio:.3f} in processor time"
        "   (target >= 0.5)"
    )


if __name__ == "__main__":
    main()
