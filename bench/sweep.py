"""A sweep as one Spark job against the same points one after another (issue 33).

A 48-point sweep of ``scenarios/sweep-base.toml`` (4 loads x 3 member counts x 4
seeds, ``--duration`` simulated seconds each) two ways, in one process:

1. in sequence: each point played and its metrics tables computed, one after another
   (``qsg.commands.pipeline.sweep.play_point`` and ``run_tables``: a point's whole work, no
   Spark);
2. the sweep: ``qsg.commands.pipeline.sweep.run_sweep`` on ``--master`` (``local[2]``): the
   points dealt to tasks by expected cost, played and measured on the executors, the
   tables, ``points`` and ``knee`` written through Spark.

Each runs once first to warm up (Spark's Python workers; the imports). Then they take
turns, ``--repeats`` times each, and the speed-up is the ratio of their medians
(target: at least 1.6x on 2 cores).

    ./dev bench sweep
    ./dev bench sweep --duration 2 --repeats 1   # a quicker look
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from qsg.commands.pipeline.frames import deal
from qsg.commands.pipeline.run_tables import run_tables
from qsg.commands.pipeline.runs import EVENTS, read_log
from qsg.commands.pipeline.spark import spark_session
from qsg.commands.pipeline.sweep import expected_cost, play_point, run_sweep
from qsg.commands.pipeline.sweep_file import Sweep, load_sweep

BASE = Path(__file__).resolve().parent.parent / "scenarios" / "sweep-base.toml"


def sweep_file(where: Path, duration: float) -> Sweep:
    path = where / "bench-sweep.toml"
    path.write_text(
        f'scenario = "{BASE}"\nduration = {duration}\nseeds = [1, 2, 3, 4]\n'
        'objective = { p99 = 0.1, queue = "APP.ORDERS" }\n[vary]\n'
        '"workload.*.rate" = [20, 40, 60, 80]\n'
        '"qsg.QSG1.members" = [2, 3, 4]\n'
    )
    sweep = load_sweep(path)
    assert len(sweep.points) == 48, len(sweep.points)
    return sweep


def in_sequence(sweep: Sweep, out: Path) -> float:
    began = time.perf_counter()
    for point in sweep.points:
        run_dir = out / "runs" / point.run
        result = play_point(point, run_dir)
        assert not result.error, result.error
        run_tables(read_log(point.run, run_dir / EVENTS))
    return time.perf_counter() - began


def as_spark_job(
    spark: object, sweep: Sweep, out: Path, tasks: int, shares: list[dict[str, float]]
) -> float:
    """The sweep's wall time; in ``shares``, where it went: the points' own wall time
    in the tasks (summed, and the busiest task's, dealt as ``run_sweep`` deals them)
    and the rest (Spark's start of the job, the tables' reads and writes)."""
    began = time.perf_counter()
    swept = run_sweep(spark, sweep, out)
    took = time.perf_counter() - began
    assert not [r for r in swept.results if r.error]
    walls = [r.wall_seconds for r in swept.results]
    hands = deal([expected_cost(p) for p in sweep.points], tasks)
    busiest = max(sum(walls[i] for i in hand) for hand in hands)
    shares.append({"points": sum(walls), "busiest": busiest, "rest": took - busiest})
    return took


def _spread(times: list[float]) -> str:
    return ", ".join(f"{t:.1f}" for t in times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--duration", type=float, default=5.0)
    parser.add_argument("--repeats", type=int, default=2, help="timed runs of each")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="qsg-bench-sweep-"))
    try:
        sweep = sweep_file(work, args.duration)
        spark = spark_session(args.master)
        cores = spark.sparkContext.defaultParallelism
        made = iter(range(10**6))

        def fresh() -> Path:
            return work / f"out{next(made)}"

        shares: list[dict[str, float]] = []
        as_spark_job(spark, sweep, fresh(), cores, shares)  # warm-up
        in_sequence(sweep, fresh())
        alone, job = [], []
        del shares[:]
        for _ in range(args.repeats):
            alone.append(in_sequence(sweep, fresh()))
            job.append(as_spark_job(spark, sweep, fresh(), cores, shares))
        a, j = statistics.median(alone), statistics.median(job)
        print(f"48 points of {args.duration:g} simulated s, {args.repeats} timed runs each")
        print(f"one after another in one process: median {a:.1f} s ({_spread(alone)})")
        print(f"one Spark job on {args.master} ({cores} cores): median {j:.1f} s ({_spread(job)})")
        share = {k: statistics.median(s[k] for s in shares) for k in shares[0]}
        print(
            f"where the Spark job's time went, medians: the points played in its tasks "
            f"{share['points']:.1f} s summed ({share['points'] / a:.2f}x their time in "
            f"sequence), the busiest task's {share['busiest']:.1f} s; the rest (Spark, "
            f"the tables) {share['rest']:.1f} s"
        )
        print(f"speed-up, medians: {a / j:.2f}x (target: >= 1.6x on 2 cores)")
        spark.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
