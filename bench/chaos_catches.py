"""How often a random chaos campaign catches each known bug (issue 26).

A checker proves something only if it can fail. ``qsg.core.bugs`` holds switches that
each break one guarantee; this runs the first RUNS runs of a campaign (the same run
seeds ``qsg chaos --seed SEED`` draws) once clean and once with each switch on, and
prints, per bug, in how many of the runs whose drawn kinds can expose it the checker
meant for it failed, and whether the clean runs had any violation. A bug that only a
targeted test catches shows up here as 0 caught.

The bugs and where they can show: a message dropped at commit and an expired message
delivered, in any run (in process); a stale fencing token accepted, in runs that drew
``stall_scan`` (in process: the switch is the in-process lease board's); persistent
messages lost in the CF's recovery, in runs that drew ``cf_fail`` (on the Redis server
the run starts itself, so fewer runs: ``--cf-runs``).

    ./dev bench chaos_catches                      # 20 runs of campaign seed 1
    ./dev bench chaos_catches --runs 40 --cf-runs 8 --seed 3
    ./dev bench chaos_catches --scenario scenarios/chaos-lean.toml --runs 50
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from qsg.chaos.campaign import Plan, run_one, run_seeds
from qsg.chaos.nemesis import draw
from qsg.core import bugs
from qsg.scenario import load_scenario

SCENARIO = Path(__file__).resolve().parent.parent / "scenarios" / "chaos-qsg.toml"
#: bug -> (the checker that must catch it, the kind a run must draw (None: any), in process)
BUGS = {
    bugs.DROP_ON_COMMIT: ("queue", None, True),
    bugs.DELIVER_EXPIRED: ("expiry", None, True),
    bugs.SKIP_FENCING: ("scan-lease", "stall_scan", True),
    bugs.LOSE_ON_CF_RECOVERY: ("queue", "cf_fail", False),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="runs in process")
    parser.add_argument(
        "--cf-runs",
        type=int,
        default=6,
        help="runs on Redis that drew cf_fail (each starts a server)",
    )
    parser.add_argument("--seed", type=int, default=1, help="the campaign's seed")
    parser.add_argument("--scenario", type=Path, default=SCENARIO, help="the chaos scenario")
    args = parser.parse_args()
    os.environ.pop("QSG_REDIS_URL", None)  # cf_fail needs the server the run starts
    scenario = load_scenario(args.scenario)
    print(f"{args.scenario.name}, campaign seed {args.seed}: each bug's runs, clean and broken")
    print(
        f"{'bug':<22} {'checker':<11} {'runs':>5} {'clean ok':>9} {'caught':>7} "
        f"{'caught/runs':>11} {'wall s':>7}"
    )
    for bug, (checker, kind, in_process) in BUGS.items():
        plan = Plan.of(scenario, server=not in_process)
        wanted = args.runs if in_process else args.cf_runs
        seeds = []
        for seed in run_seeds(args.seed, 20 * wanted):
            if kind is None or kind in draw(plan.targets, seed, plan.window)[0]:
                seeds.append(seed)
            if len(seeds) == wanted:
                break
        began = time.perf_counter()
        clean = caught = 0
        for seed in seeds:
            clean += run_one(scenario, seed, plan=plan, in_process=in_process).ok
            with bugs.injected(bug):
                broken = run_one(scenario, seed, plan=plan, in_process=in_process)
            caught += any(v.name == checker for v in broken.failed())
        wall = time.perf_counter() - began
        print(
            f"{bug:<22} {checker:<11} {len(seeds):>5} {clean:>9} {caught:>7} "
            f"{caught / max(1, len(seeds)):>11.2f} {wall:>7.0f}"
        )


if __name__ == "__main__":
    main()
