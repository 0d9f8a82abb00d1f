"""The capacity scenario's simulated seconds per wall second, in process and on Valkey
(issue 30).

scenarios/capacity.toml (four members, a shared queue, 135 msg/s of puts in units of
work, model costs for CPU and the CF) played in process three ways, interleaved, medians:
as shipped (its model costs make every MQI call wait in the dispatcher, so its
applications run as tasks), and without the model costs, once with its putters and
getters driven by the virtual clock (``actors.drive``) and once with a task each. The
first figure is what a planner running the shipped scenario gets; the other two show
what the clock-driven applications bring when nothing makes the calls wait.

``--valkey`` plays it on the embedded Valkey instead (a server started for the bench),
as shipped and without model costs, each through the world's transport under the
virtual clock (blocking calls from the trio thread, ``coupling.direct``) and through
the trio transport (``QSG_CF_TRANSPORT=trio``: the design before issue 30).

    ./dev bench capacity_speed                 # 3 repetitions of 180 simulated seconds
    ./dev bench capacity_speed --seconds 60 --repeat 5
    ./dev bench capacity_speed --valkey --seconds 60
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import time
from pathlib import Path

from actors import drive
from actors.costs import Costs
from actors.world import TRANSPORT_VARIABLE
from coupling.server import URL_VARIABLE, open_server
from qsg.scenario import load_scenario
from qsg.scenario.model import Scenario
from qsg.scenario.play import run_scenario

CAPACITY = Path(__file__).resolve().parent.parent / "scenarios" / "capacity.toml"


def played(scenario: Scenario, *, driven: bool, transport: str = "") -> float:
    """Simulated seconds per wall second of one run (``transport`` "trio": the trio
    transport to the coupling facility)."""
    kinds = drive.KINDS
    if not driven:
        drive.KINDS = frozenset()
    if transport:
        os.environ[TRANSPORT_VARIABLE] = transport
    try:
        began = time.perf_counter()
        run_scenario(scenario)
        return scenario.run.duration / (time.perf_counter() - began)
    finally:
        drive.KINDS = kinds
        os.environ.pop(TRANSPORT_VARIABLE, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=None, help="simulated seconds a run")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--valkey", action="store_true", help="on the embedded Valkey")
    args = parser.parse_args()
    if args.valkey:
        with open_server() as url:
            os.environ[URL_VARIABLE] = url
            on_valkey(args.seconds, args.repeat)
        return
    shipped = load_scenario(CAPACITY)
    assert isinstance(shipped, Scenario)
    run = dataclasses.replace(shipped.run, in_process=True)
    if args.seconds is not None:
        run = dataclasses.replace(run, duration=args.seconds)
    costed = dataclasses.replace(shipped, run=run)
    free = dataclasses.replace(costed, costs=Costs())
    cases = {
        "as shipped (model costs: tasks)": (costed, True),
        "no model costs, clock-driven": (free, True),
        "no model costs, a task each": (free, False),
    }
    rates: dict[str, list[float]] = {name: [] for name in cases}
    for rep in range(args.repeat):
        for name, (scenario, driven) in cases.items():
            rate = played(scenario, driven=driven)
            rates[name].append(rate)
            print(f"  rep {rep + 1} {name:<34} {rate:8.1f} simulated s per wall s")
    print(f"capacity.toml in process, {run.duration:g} simulated s, median of {args.repeat}:")
    median = {name: statistics.median(r) for name, r in rates.items()}
    for name in cases:
        print(f"  {name:<34} {median[name]:8.1f} simulated s per wall s")
    gain = median["no model costs, clock-driven"] / median["no model costs, a task each"]
    print(f"  ratio clock-driven / a task each (no model costs) {gain:.2f}")


def on_valkey(seconds: float | None, repeat: int) -> None:
    """The same scenario with its shared queues on the server ``QSG_REDIS_URL`` names."""
    shipped = load_scenario(CAPACITY)
    assert isinstance(shipped, Scenario)
    run = dataclasses.replace(shipped.run, in_process=False)
    if seconds is not None:
        run = dataclasses.replace(run, duration=seconds)
    costed = dataclasses.replace(shipped, run=run)
    free = dataclasses.replace(costed, costs=Costs())
    cases = {
        "as shipped, blocking calls": (costed, ""),
        "as shipped, trio transport": (costed, "trio"),
        "no model costs, blocking calls": (free, ""),
        "no model costs, trio transport": (free, "trio"),
    }
    rates: dict[str, list[float]] = {name: [] for name in cases}
    for rep in range(repeat):
        for name, (scenario, transport) in cases.items():
            rate = played(scenario, driven=True, transport=transport)
            rates[name].append(rate)
            print(f"  rep {rep + 1} {name:<34} {rate:8.1f} simulated s per wall s")
    print(f"capacity.toml on Valkey, {run.duration:g} simulated s, median of {repeat}:")
    median = {name: statistics.median(r) for name, r in rates.items()}
    for name in cases:
        print(f"  {name:<34} {median[name]:8.1f} simulated s per wall s")
    for kind in ("as shipped", "no model costs"):
        gain = median[f"{kind}, blocking calls"] / median[f"{kind}, trio transport"]
        print(f"  ratio blocking calls / trio transport ({kind}) {gain:.2f}")


if __name__ == "__main__":
    main()
