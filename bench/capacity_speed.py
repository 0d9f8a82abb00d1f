"""The capacity scenario's simulated seconds per wall second, in process (issue 30).

scenarios/capacity.toml (four members, a shared queue, 135 msg/s of puts in units of
work, model costs for CPU and the CF) played in process three ways, interleaved, medians:
as shipped (its model costs make every MQI call wait in the dispatcher, so its
applications run as tasks), and without the model costs, once with its putters and
getters driven by the virtual clock (``actors.drive``) and once with a task each. The
first figure is what a planner running the shipped scenario gets; the other two show
what the clock-driven applications bring when nothing makes the calls wait.

    ./dev bench capacity_speed                 # 3 repetitions of 180 simulated seconds
    ./dev bench capacity_speed --seconds 60 --repeat 5
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time
from pathlib import Path

from actors import drive
from actors.costs import Costs
from qsg.scenario import load_scenario
from qsg.scenario.model import Scenario
from qsg.scenario.play import run_scenario

CAPACITY = Path(__file__).resolve().parent.parent / "scenarios" / "capacity.toml"


def played(scenario: Scenario, *, driven: bool) -> float:
    """Simulated seconds per wall second of one run."""
    kinds = drive.KINDS
    if not driven:
        drive.KINDS = frozenset()
    try:
        began = time.perf_counter()
        run_scenario(scenario)
        return scenario.run.duration / (time.perf_counter() - began)
    finally:
        drive.KINDS = kinds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=None, help="simulated seconds a run")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
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


if __name__ == "__main__":
    main()
