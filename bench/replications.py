"""What ``qsg run --replications N`` costs against N separate ``qsg run``s (issue 32).

Both play the same N seeds of one scenario as fresh processes would: the reference is
N ``qsg run --seed S --json`` commands, as many at once as the machine has cores (what
a planner would script by hand); the measured one is a single ``qsg run
--replications N --json``, which plays them in a process pool on the same cores and
combines the summaries. Interleaved repetitions, medians of wall time; the ratio is
replications over separate runs. Target: at most 1.1.

    ./dev bench replications           # capacity-day.toml, 2 simulated hours, N = 10, 3 reps
    ./dev bench replications --scenario scenarios/mmc-erlang-c.toml --duration 300 --repeat 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QSG = [sys.executable, "-m", "qsg.commands.cli"]


def replicated(scenario: str, duration: str, count: int, seed: int) -> float:
    began = time.perf_counter()
    subprocess.run(
        [
            *QSG,
            "run",
            scenario,
            "--duration",
            duration,
            "--seed",
            str(seed),
            "--replications",
            str(count),
            "--json",
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - began


def separate(scenario: str, duration: str, count: int, seed: int, cores: int) -> float:
    began = time.perf_counter()
    pending = list(range(seed, seed + count))
    running: list[subprocess.Popen[bytes]] = []
    while pending or running:
        while pending and len(running) < cores:
            s = pending.pop(0)
            running.append(
                subprocess.Popen(
                    [
                        *QSG,
                        "run",
                        scenario,
                        "--duration",
                        duration,
                        "--seed",
                        str(s),
                        "--json",
                        "--no-progress",
                    ],
                    cwd=ROOT,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        done = running.pop(0)
        if done.wait() != 0:
            raise SystemExit(f"qsg run exited {done.returncode}")
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="scenarios/capacity-day.toml")
    parser.add_argument("--duration", default="7200")
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    ours: list[float] = []
    theirs: list[float] = []
    for rep in range(args.repeat):
        seed = 1000 * (rep + 1)
        theirs.append(separate(args.scenario, args.duration, args.count, seed, cores))
        ours.append(replicated(args.scenario, args.duration, args.count, seed))
    mine, ref = statistics.median(ours), statistics.median(theirs)
    print(
        f"{args.count} seeds of {args.scenario} ({args.duration} s), {cores} cores, median "
        f"of {args.repeat}: --replications {mine:.1f} s, separate runs {ref:.1f} s; "
        f"ratio {mine / ref:.3f} (target <= 1.1)"
    )


if __name__ == "__main__":
    main()
