"""A chaos campaign on Spark against two local campaigns side by side (issue 33).

The issue's claim: a campaign of 2,000 seeds on ``local[2]`` costs no more than two
local campaigns of 1,000 run side by side. Both sides are the commands a user types,
each timed from start to exit (so the Spark side pays its JVM's start, as a user does):

1. ``qsg chaos SCENARIO --runs 2N --seed 1 --master local[2]``: the driver's child
   plays the first seeds while Spark starts, one Spark job the rest, in chunks that
   shrink (docs/pipeline.md, "Chaos campaigns on Spark");
2. ``qsg chaos SCENARIO --runs N --seed 1`` and ``... --seed 2``, started together,
   timed until the later one ends (two processes on two cores, no Spark).

They take turns, ``--repeats`` times each (the order alternating, so that the machine's
moods fall on both), and the ratio is of the medians (target: at most 1.0x). First, an
untimed campaign of 4 runs on Spark: a user's first campaign on a local master writes
the lean JVM's class archive as it exits (once, some 15 s; ``qsg.commands.pipeline.jvm``), and
every later one starts from it; the warm-up says how long it took.

With ``--connect`` the Spark side is a campaign over Spark Connect instead
(``--remote``), on a server on ``local[2]`` that the benchmark starts once, before the
warm-up, as the tests start theirs (``tests.spark_cluster``), and stops at the end: a
Spark that is already running when the campaign starts, as a team's cluster is, so
that no campaign pays a JVM's start. ``--remote URL`` names a running server instead.

    ./dev bench campaign_cluster                       # 2 x 100 runs of chaos-lean.toml
    ./dev bench campaign_cluster --runs 1000           # the issue's 2,000 seeds
    ./dev bench campaign_cluster --runs 1000 --connect # on a Spark already running
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
QSG = [sys.executable, "-m", "qsg.commands.cli"]


def _campaign(scenario: Path, runs: int, seed: int, where: list[str]) -> list[str]:
    """``qsg chaos`` with ``where`` (``--master M``, ``--remote URL``, or nothing: local)."""
    return [*QSG, "chaos", str(scenario), "--runs", str(runs), "--seed", str(seed), *where]


def _finished(process: subprocess.Popen[bytes], command: list[str], err_file: IO[bytes]) -> None:
    process.wait()
    err_file.seek(0)
    err = err_file.read().decode(errors="replace")
    # Exit 1 is a campaign that found a violation: still a campaign played in full.
    if process.returncode not in (0, 1) or "Traceback" in err:
        raise SystemExit(f"{' '.join(command)}: exit {process.returncode}\n{err[-2000:]}")


def timed(commands: list[list[str]]) -> float:
    """Wall seconds from starting ``commands`` together until the last one exits.

    Each command writes to temporary files of its own, not pipes: a campaign of
    1,000 runs prints more than a pipe holds, and waiting for one process while the
    other is blocked on its full pipe would stall it (and the timing with it)."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with ExitStack() as files:
        outs = [
            (
                files.enter_context(tempfile.TemporaryFile()),
                files.enter_context(tempfile.TemporaryFile()),
            )
            for _ in commands
        ]
        began = time.perf_counter()
        running = [
            subprocess.Popen(c, cwd=ROOT, env=env, stdout=out, stderr=err)
            for c, (out, err) in zip(commands, outs, strict=True)
        ]
        for process, command, (_out, err) in zip(running, commands, outs, strict=True):
            _finished(process, command, err)
        return time.perf_counter() - began


def _spread(times: list[float]) -> str:
    return ", ".join(f"{t:.1f}" for t in times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", type=Path, default=ROOT / "scenarios" / "chaos-lean.toml")
    parser.add_argument("--runs", type=int, default=100, help="runs of each local campaign")
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--remote", help="a running Spark Connect server (sc://HOST:PORT)")
    parser.add_argument(
        "--connect", action="store_true", help="start a Spark Connect server on local[2]"
    )
    parser.add_argument("--repeats", type=int, default=2, help="timed runs of each")
    args = parser.parse_args()
    with ExitStack() as stack:
        if args.connect:
            from tests.spark_cluster import connect_server

            logs = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            args.remote = stack.enter_context(connect_server(logs))
        _compare(args)


def _compare(args: argparse.Namespace) -> None:
    n = args.runs
    where = ["--remote", args.remote] if args.remote else ["--master", args.master]
    spark_name = f"Spark Connect at {args.remote}" if args.remote else args.master
    on_spark = [_campaign(args.scenario, 2 * n, 1, where)]
    side_by_side = [_campaign(args.scenario, n, 1, []), _campaign(args.scenario, n, 2, [])]
    began_load = os.getloadavg()
    warm_up = timed([_campaign(args.scenario, 4, 1, where)])
    print(f"warm-up: a campaign of 4 runs on {spark_name} took {warm_up:.1f} s (untimed)")
    spark: list[float] = []
    local: list[float] = []
    for repeat in range(args.repeats):
        turns = [(on_spark, spark), (side_by_side, local)]
        for commands, times in turns if repeat % 2 == 0 else reversed(turns):
            times.append(timed(commands))
    s, b = statistics.median(spark), statistics.median(local)
    name = args.scenario.name
    print(f"{name}, {args.repeats} timed runs of each")
    print(
        f"one campaign of {2 * n} runs on {spark_name}: median {s:.1f} s ({_spread(spark)}), "
        f"{2 * n / s:.2f} runs/s"
    )
    print(
        f"two local campaigns of {n} runs side by side: median {b:.1f} s ({_spread(local)}), "
        f"{2 * n / b:.2f} runs/s"
    )
    print(f"on Spark / side by side, medians: {s / b:.2f}x (target: <= 1.0x)")
    loads = [f"{x:.2f}" for x in (*began_load, *os.getloadavg())]
    print(
        f"load average (1, 5, 15 min) before: {', '.join(loads[:3])}; after: {', '.join(loads[3:])}"
    )


if __name__ == "__main__":
    main()
