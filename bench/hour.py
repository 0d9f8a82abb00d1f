"""The planner's hour (issue 44): a QSG of four members putting and getting 2,000
persistent 1 KB messages a second in all, with the model's costs on, simulated for a
stretch and projected to one simulated hour.

The shape a capacity planner runs, not the benchmarks' bare M/M/3: four members of QSG1,
each with a putter at 500 msg/s (Poisson arrivals, persistent, 1 KB, no syncpoint) to
the shared queue APP.ORDERS on a RECOVER(YES) structure, and two getters a member
(service time 1 ms); ``cpu_per_call`` 20 us on 4 processors a member, ``cf_access``
10 us. Played in process and on the embedded Valkey (a server started for the bench),
interleaved, medians. Each figure is the wall time one simulated hour would take
(the stretch's wall time times 3,600 over the stretch), against the issue's bound (10
minutes in process, 30 on the server), and as a ratio against the same shape with the
model costs off (what the costs cost, measured in the same invocation). Beside the wall
time, each run's processor time: this process's own, and on the server the server's
too (its ``INFO cpu``, read before and after the run), which the wall time of a run on
the server pays for as well: the process waits for each reply.

    ./dev bench hour                       # 3 repetitions of 20 simulated s each way
    ./dev bench hour --seconds 60 --repeat 5
    ./dev bench hour --where process       # only in process (or: server)
    ./dev bench hour --tasks               # every application on its own task (the
                                           # design before issue 44), for comparison
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import tempfile
import time
from pathlib import Path

from actors import drive
from actors.costs import Costs
from coupling.direct import DirectTransport
from coupling.server import URL_VARIABLE, open_server
from qsg.scenario import load_scenario
from qsg.scenario.model import Scenario
from qsg.scenario.play import run_scenario

HOUR = 3600.0
MEMBERS = ("QM1", "QM2", "QM3", "QM4")
RATE = 2000.0  # messages a second, all members together
#: The issue's bounds, minutes of wall time a simulated hour.
BOUNDS = {"process": 10.0, "server": 30.0}


def scenario_text(seconds: float, seed: int = 44) -> str:
    """The planner's hour as a scenario file, ``seconds`` long."""
    members = ", ".join(f'"{m}"' for m in MEMBERS)
    parts = [
        f"""description = "the planner's hour: four members, 2,000 persistent 1 KB msg/s"
[run]
duration = {seconds}
seed = {seed}
sample_interval = 5

[model]
cpu_per_call = 0.00002
cpus = 4
cf_access = 0.00001

[qsg.QSG1]
members = [{members}]
mqsc = '''DEFINE QLOCAL(APP.ORDERS) QSGDISP(SHARED) CFSTRUCT(ORDERS) +
        DEFPSIST(YES) MAXDEPTH(999999999)'''

[qsg.QSG1.structures.ORDERS]
size_kb = 1048576
cflevel = 5
recover = true
"""
    ]
    for member in MEMBERS:
        parts.append(
            f"""
[[workload]]
name = "put-{member.lower()}"
type = "putter"
qmgr = "{member}"
queue = "APP.ORDERS"
rate = {RATE / len(MEMBERS)}
size = 1024
persistence = "persistent"

[[workload]]
name = "get-{member.lower()}"
type = "getter"
qmgr = "{member}"
queue = "APP.ORDERS"
apps = 2
service = 0.001
"""
        )
    return "".join(parts)


def load(seconds: float, where: str) -> Scenario:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "hour.toml"
        path.write_text(scenario_text(seconds))
        scenario = load_scenario(path)
    assert isinstance(scenario, Scenario)
    run = dataclasses.replace(scenario.run, in_process=where == "process")
    return dataclasses.replace(scenario, run=run)


def server_processor(server: DirectTransport) -> float:
    """The server's processor seconds so far, user and system (``INFO cpu``'s
    ``used_cpu_user`` and ``used_cpu_sys``)."""
    lines = bytes(server.command("INFO", "cpu")).decode().splitlines()
    fields = dict(line.split(":", 1) for line in lines if ":" in line)
    return float(fields["used_cpu_user"]) + float(fields["used_cpu_sys"])


def played(
    scenario: Scenario, *, tasks: bool, server: DirectTransport | None = None
) -> tuple[float, float, float, int]:
    """Wall seconds and processor seconds of one run (this process's, and the server's
    when ``server`` is given, else 0), and the messages it got."""
    kinds = drive.KINDS
    if tasks:
        drive.KINDS = frozenset()
    try:
        served = server_processor(server) if server is not None else 0.0
        began, processor = time.perf_counter(), time.process_time()
        result = run_scenario(scenario)
        wall = time.perf_counter() - began
        processor = time.process_time() - processor
        if server is not None:
            served = server_processor(server) - served
    finally:
        drive.KINDS = kinds
    return wall, processor, served, sum(int(q.get("got", 0)) for q in result.summary.queues)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="simulated seconds a run")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--where", choices=("process", "server", "both"), default="both")
    parser.add_argument("--tasks", action="store_true", help="every application a task")
    args = parser.parse_args()
    wheres = ("process", "server") if args.where == "both" else (args.where,)
    with open_server() as url:
        os.environ[URL_VARIABLE] = url
        server = DirectTransport(url)
        cases: dict[str, tuple[Scenario, str]] = {}
        for where in wheres:
            costed = load(args.seconds, where)
            cases[f"{where}, model costs"] = (costed, where)
            cases[f"{where}, no model costs"] = (dataclasses.replace(costed, costs=Costs()), where)
        walls: dict[str, list[float]] = {name: [] for name in cases}
        processors: dict[str, list[float]] = {name: [] for name in cases}
        served: dict[str, list[float]] = {name: [] for name in cases}
        for rep in range(args.repeat):
            for name, (scenario, where) in cases.items():
                wall, processor, server_s, got = played(
                    scenario, tasks=args.tasks, server=server if where == "server" else None
                )
                walls[name].append(wall)
                processors[name].append(processor)
                served[name].append(server_s)
                also = f" + {server_s:.2f} s the server's" if where == "server" else ""
                print(
                    f"  rep {rep + 1} {name:<26} {wall:7.2f} s wall ({processor:.2f} s of a "
                    f"processor{also}), {got:,} got, {got / wall:8,.0f} msg/s",
                    flush=True,
                )
        server.close()
    how = "a task each" if args.tasks else "as shipped"
    print(
        f"the planner's hour ({how}): {len(MEMBERS)} members, {RATE:,.0f} persistent 1 KB msg/s,"
        f" {args.seconds:g} simulated s a run, median of {args.repeat}:"
    )
    for where in wheres:
        with_costs, without = walls[f"{where}, model costs"], walls[f"{where}, no model costs"]
        wall = statistics.median(with_costs)
        free = statistics.median(without)
        minutes = wall * HOUR / args.seconds / 60
        ratios = [c / f for c, f in zip(with_costs, without, strict=True)]
        print(
            f"  {where:<8} one simulated hour takes {minutes:6.1f} min of wall time "
            f"(bound {BOUNDS[where]:g} min: {'met' if minutes <= BOUNDS[where] else 'NOT met'}); "
            f"{RATE * args.seconds / wall:,.0f} msg/s"
        )
        cpu = statistics.median(processors[f"{where}, model costs"])
        print(
            f"           in this process's own processor time (what the load of other "
            f"processes does not count): {cpu * HOUR / args.seconds / 60:.1f} min an hour"
        )
        if where == "server":
            theirs = statistics.median(served[f"{where}, model costs"])
            print(
                f"           and the server's own processor time: "
                f"{theirs * HOUR / args.seconds / 60:.1f} min an hour"
            )
        print(
            f"           ratio with model costs / without: {statistics.median(ratios):.2f} "
            f"(without: {free * HOUR / args.seconds / 60:.1f} min an hour)"
        )


if __name__ == "__main__":
    main()
