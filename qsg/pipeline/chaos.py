"""``qsg chaos --master/--remote``: a chaos campaign's seeded runs as one Spark job.

The run seeds are a DataFrame dealt evenly to as many tasks as Spark runs at once
(``qsg.pipeline.frames``); each task plays its runs one after another, exactly as a
local campaign does (``qsg.chaos.campaign.run_one``: in process, or with its own
embedded CF server on the executor under ``--on-redis``), judges each history there,
and hands back only each run's ``Outcome`` (its faults and verdicts; the history
stays on the executor). The driver prints the same table and replay commands as a
local campaign: a replay is local and in process, as any run of a seed repeats.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any

import pyarrow as pa

from qsg.chaos.campaign import Outcome, Plan, run_one
from qsg.pipeline import frames
from qsg.pipeline.frames import ERROR, RESULT, JobError, Rows
from qsg.scenario.model import Scenario

#: The seeds' DataFrame.
SEEDS = pa.schema([("run", pa.string()), ("seed", pa.int64())])


def run_task(
    scenario: Scenario, mode: str, plan: Plan, redis_url: str | None, in_process: bool
) -> Callable[[dict[str, Any]], Rows]:
    """What a task does with one seed: the run, judged; its Outcome, pickled."""

    def task(row: dict[str, Any]) -> Rows:
        try:
            outcome = run_one(
                scenario, row["seed"], mode, plan=plan, redis_url=redis_url, in_process=in_process
            )
        except Exception as error:  # a run that could not be played: named on the driver
            yield ERROR, row["run"], f"{type(error).__name__}: {error}".encode()
            return
        yield RESULT, row["run"], pickle.dumps(outcome)

    return task


def campaign_on_spark(
    spark: Any,
    scenario: Scenario,
    seeds: list[int],
    mode: str,
    plan: Plan,
    *,
    redis_url: str | None = None,
    in_process: bool = True,
) -> list[Outcome]:
    """Every seed's run on Spark's executors; their outcomes, in seed order (JobError
    naming the first seed whose run could not be played)."""
    rows: list[dict[str, Any]] = [{"run": f"seed {s}", "seed": s} for s in seeds]
    dealt = frames.dealt(spark, rows, SEEDS, [1] * len(seeds))
    task = run_task(scenario, mode, plan, redis_url, in_process)
    job, marked = frames.settle(frames.packed(dealt, task, {}))
    job.unpersist()
    errors = sorted((run, part.decode()) for table, run, part in marked if table == ERROR)
    if errors:
        more = f" (and {len(errors) - 1} more runs failed)" if len(errors) > 1 else ""
        raise JobError(f"{errors[0][0]}: {errors[0][1]}{more}")
    # Outcomes pickled by this same qsg on the executors: a Spark job of our own making.
    done = {run: pickle.loads(part) for table, run, part in marked if table == RESULT}
    return [done[f"seed {s}"] for s in seeds]


__all__ = ["SEEDS", "campaign_on_spark", "run_task"]
