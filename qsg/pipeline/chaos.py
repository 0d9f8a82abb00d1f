"""``qsg chaos --master/--remote``: a chaos campaign's seeded runs as one Spark job.

The job is ``spark.range(chunks).mapInArrow(...)``: partition ``i`` is chunk ``i`` of
the seeds (consecutive ones), and the seeds and the scenario travel in the function's
closure, so no DataFrame of seeds is made or shipped. The chunks shrink (guided
self-scheduling, ``chunks``): the first are large, the last a seed or two, and Spark
hands them out in order as cores come free, so the cores finish together however the
runs' costs fall. A task plays its runs one after another exactly as a local campaign
does (``qsg.chaos.campaign.run_one``: in process, or with its own embedded CF server
on the executor under ``--on-redis``), judges each history there, and hands back only
each run's ``Outcome`` (its faults and verdicts; the history stays on the executor),
or the error of a run that could not be played. The driver puts them in seed order and
prints the same table and replay commands as a local campaign: a replay is local and
in process, as any run of a seed repeats.

While Spark starts, the driver's own core plays the first seeds (``head_started``,
``qsg.pipeline.head_start``); the job plays the rest.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

import pyarrow as pa

from qsg.chaos.campaign import Outcome, Plan, run_one
from qsg.pipeline.frames import JobError, one_line
from qsg.pipeline.head_start import HeadStart
from qsg.pipeline.spark import parallelism
from qsg.scenario.model import Scenario

T = TypeVar("T")
#: A row of the job: a seed's index in the campaign, its Outcome pickled, or why not.
PLAYED = pa.schema([("index", pa.int64()), ("outcome", pa.binary()), ("error", pa.string())])


def chunks(count: int, cores: int) -> list[range]:
    """``range(count)`` cut into consecutive chunks that shrink: each about what remains
    over twice the cores (at least 1), so that the last tasks are short and no core
    waits long for another at the end (guided self-scheduling, Polychronopoulos and
    Kuck, 1987). 2,000 seeds on 2 cores: 500, 375, 282, ... 1: 24 chunks."""
    cut: list[range] = []
    start = 0
    while start < count:
        size = max(1, -(-(count - start) // (2 * max(1, cores))))
        cut.append(range(start, start + size))
        start += size
    return cut


def campaign_on_spark(
    spark: Any,
    scenario: Scenario,
    seeds: Sequence[int],
    mode: str,
    plan: Plan,
    *,
    redis_url: str | None = None,
    in_process: bool = True,
) -> list[Outcome]:
    """Every seed's run on Spark's executors; their outcomes, in seed order (JobError
    naming the first seed whose run could not be played)."""
    seeds = list(seeds)
    if not seeds:
        return []
    parts = chunks(len(seeds), parallelism(spark))

    def play(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            for chunk in batch.column(0).to_pylist():
                rows: list[dict[str, Any]] = []
                for index in parts[chunk]:
                    try:
                        outcome = run_one(
                            scenario,
                            seeds[index],
                            mode,
                            plan=plan,
                            redis_url=redis_url,
                            in_process=in_process,
                        )
                    except Exception as error:  # a run that could not be played: named
                        rows.append({"index": index, "error": f"{type(error).__name__}: {error}"})
                    else:
                        rows.append({"index": index, "outcome": pickle.dumps(outcome)})
                yield pa.RecordBatch.from_pylist(rows, schema=PLAYED)

    job = spark.range(0, len(parts), 1, len(parts)).mapInArrow(
        play, "index bigint, outcome binary, error string"
    )
    try:
        table = job.toArrow()
    except Exception as error:
        raise JobError(one_line(error)) from None
    return outcomes(seeds, table.to_pylist())


def outcomes(seeds: Sequence[int], rows: list[dict[str, Any]]) -> list[Outcome]:
    """The job's rows as the seeds' outcomes in seed order; JobError naming the first
    seed whose run raised (and how many more did)."""
    errors = sorted((r["index"], r["error"]) for r in rows if r["error"] is not None)
    if errors:
        more = f" (and {len(errors) - 1} more runs failed)" if len(errors) > 1 else ""
        raise JobError(f"seed {seeds[errors[0][0]]}: {errors[0][1]}{more}")
    # Outcomes pickled by this same qsg on the executors: a Spark job of our own making.
    done = {r["index"]: pickle.loads(r["outcome"]) for r in rows}
    if sorted(done) != list(range(len(seeds))):
        raise JobError(f"the job gave {len(done)} of {len(seeds)} runs' outcomes")
    return [done[i] for i in range(len(seeds))]


def head_started(
    seeds: Sequence[int],
    play: Callable[[int], T],
    start: Callable[[], Any],
    rest: Callable[[Any, list[int]], list[T]],
) -> list[T]:
    """Every seed's outcome, in seed order: a child process ``play``s the first seeds
    while ``start()`` starts Spark; then ``rest(spark, seeds)`` plays those the child
    did not finish (at least the last half: a campaign on Spark is one, even a small one
    that the child could finish alone). A child that fails leaves its seeds to ``rest``.
    """
    seeds = list(seeds)
    head = HeadStart(play, seeds[: len(seeds) // 2])
    head.start()
    try:
        spark = start()
    finally:
        done = head.stop()
    later = seeds[len(done) :]
    return done + (rest(spark, later) if later else [])


__all__ = ["PLAYED", "campaign_on_spark", "chunks", "head_started", "outcomes"]
