"""``qsg chaos --master/--remote``: a chaos campaign's seeded runs as one Spark job.

The job is one task a chunk (``each_chunk``: ``spark.range(chunks).mapInArrow(...)``,
on a classic session as over Spark Connect): partition ``i`` is chunk ``i`` of the seeds
(consecutive ones), and the seeds and the scenario travel in the function's closure, so
no DataFrame of seeds is made or shipped. The chunks shrink
(guided self-scheduling, ``chunks``): the first are large, the last a seed or two, and Spark
hands them out in order as cores come free, so the cores finish together however the
runs' costs fall. A task plays its runs one after another exactly as a local campaign
does (``qsg.chaos.campaign.run_one``: in process, or with its own embedded CF server
on the executor under ``--on-redis``), judges each history there, and hands back only
each run's ``Outcome`` (its faults and verdicts; the history stays on the executor),
or the error of a run that could not be played. The driver puts them in seed order and
prints the same table and replay commands as a local campaign: a replay is local and
in process, as any run of a seed repeats.

While Spark starts, the driver's own core plays the first seeds (``head_started``,
``qsg.commands.pipeline.head_start``: on a local master, on through the job's own start, the
child and the tasks claiming each seed before they play it); the job plays the rest.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import pyarrow as pa

from qsg.chaos.campaign import Outcome, Plan, run_one
from qsg.commands.pipeline.frames import JobError, one_line
from qsg.commands.pipeline.head_start import Claims, HeadStart
from qsg.commands.pipeline.spark import parallelism
from qsg.commands.pipeline.worker_daemon import daemon_conf
from qsg.scenario.model import Scenario

T = TypeVar("T")
#: The job's plan is a range of chunk numbers and a Python function, a few dozen rows:
#: interpreted, not compiled. Spark's code generation (Java source for the plan, compiled
#: by Janino when the job starts, some 500 classes loaded from Janino's jar, the JVM's
#: quick compiler then at work on them) cost a campaign's JVM about 0.5 s of a core more
#: than it saved (2 cores, 2026-11-26: 3.9-4.4 s of JVM CPU against 4.5-4.9 s).
#: ``spark.sql.codegen.factoryMode`` is a setting Spark marks internal: NO_CODEGEN is
#: the interpreted path it otherwise falls back to when generated code fails to compile.
INTERPRETED = ("spark.sql.codegen.wholeStage=false", "spark.sql.codegen.factoryMode=NO_CODEGEN")
#: A row of the job: a seed's index in the campaign, its Outcome pickled, or why not.
PLAYED = pa.schema([("index", pa.int64()), ("outcome", pa.binary()), ("error", pa.string())])


def job_conf(master: str | None, remote: str | None, conf: Sequence[str] = ()) -> tuple[str, ...]:
    """The ``--conf`` settings of a campaign's Spark: the workers' daemon (on a local
    master, ``qsg.commands.pipeline.worker_daemon``), the plan interpreted (``INTERPRETED``), then
    the user's own ``conf``, last, so that they win."""
    return (*daemon_conf(master, remote, conf), *INTERPRETED, *conf)


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


@dataclass(frozen=True, slots=True)
class Job:
    """How each seed of a campaign is played on an executor (``run_one``'s words)."""

    scenario: Scenario
    mode: str
    plan: Plan
    redis_url: str | None = None
    in_process: bool = True

    def played(
        self,
        spark: Any,
        seeds: Sequence[int],
        indices: Sequence[int],
        claims: Claims | None = None,
    ) -> dict[int, Outcome | Raised]:
        """The runs of the seeds at ``indices`` (of ``seeds``, the campaign's), one Spark
        job; given ``claims``, only of those no other player claimed first. By index,
        each its outcome or what its run raised (JobError if the job itself failed)."""
        seeds, indices = list(seeds), list(indices)
        if not indices:
            return {}
        parts = chunks(len(indices), parallelism(spark))

        def rows_of(chunk: int) -> list[dict[str, Any]]:
            mine = [indices[i] for i in parts[chunk]]
            return [self._row(i, seeds[i]) for i in mine if claims is None or claims.claim(i)]

        try:
            rows = each_chunk(spark, len(parts), rows_of)
        except Exception as error:
            raise JobError(one_line(error)) from None
        return by_index(rows)

    def _row(self, index: int, seed: int) -> dict[str, Any]:
        try:
            outcome = run_one(
                self.scenario,
                seed,
                self.mode,
                plan=self.plan,
                redis_url=self.redis_url,
                in_process=self.in_process,
            )
        except Exception as error:  # a run that could not be played: named on the driver
            return {"index": index, "outcome": None, "error": f"{type(error).__name__}: {error}"}
        return {"index": index, "outcome": pickle.dumps(outcome), "error": None}


#: A chunk's rows: ``rows_of(chunk)``, each a row of ``PLAYED`` as a dict.
RowsOf = Callable[[int], list[dict[str, Any]]]


def each_chunk(spark: Any, count: int, rows_of: RowsOf) -> list[dict[str, Any]]:
    """The rows of chunks ``0 .. count - 1``, one Spark task a chunk, handed out in order
    as cores come free: ``spark.range(count)``, a row a partition, and ``mapInArrow``.
    (An RDD of the chunks' numbers measured about 1.5 s quicker to its first seed on 2
    cores, with no SQL plan or pandas on the workers; the pipeline keeps to DataFrames,
    which Spark Connect has too, so that one job serves every kind of session.)"""

    def play(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            for chunk in batch.column(0).to_pylist():
                yield pa.RecordBatch.from_pylist(rows_of(chunk), schema=PLAYED)

    job = spark.range(0, count, 1, count).mapInArrow(
        play, "index bigint, outcome binary, error string"
    )
    return job.toArrow().to_pylist()  # type: ignore[no-any-return]


@dataclass(frozen=True, slots=True)
class Raised:
    """A run that could not be played: what it raised, in one line."""

    message: str


def by_index(rows: list[dict[str, Any]]) -> dict[int, Any]:
    """The job's rows (``PLAYED``) by index: each an Outcome, or ``Raised``."""
    # Outcomes pickled by this same qsg on the executors: a Spark job of our own making.
    return {
        r["index"]: Raised(r["error"]) if r["error"] is not None else pickle.loads(r["outcome"])
        for r in rows
    }


def in_seed_order(seeds: Sequence[int], played: Mapping[int, T | Raised]) -> list[T]:
    """Each seed's outcome, by its index, as a list in seed order. JobError naming the
    first seed whose run raised (and how many more did), or if one is missing (no short
    table)."""
    if sorted(played) != list(range(len(seeds))):
        raise JobError(f"the job gave {len(played)} of {len(seeds)} runs' outcomes")
    ordered = [played[i] for i in range(len(seeds))]
    raised = [(seeds[i], p.message) for i, p in enumerate(ordered) if isinstance(p, Raised)]
    if raised:
        more = f" (and {len(raised) - 1} more runs failed)" if len(raised) > 1 else ""
        raise JobError(f"seed {raised[0][0]}: {raised[0][1]}{more}")
    return [p for p in ordered if not isinstance(p, Raised)]


def head_started(
    seeds: Sequence[int],
    play: Callable[[int], T],
    start: Callable[[], Any],
    rest: Callable[[Any, list[int], Claims | None], Mapping[int, T | Raised]],
    claims: Claims | None = None,
) -> list[T]:
    """Every seed's outcome, in seed order: a child process ``play``s the first seeds
    while ``start()`` starts Spark; ``rest(spark, indices, claims)`` plays those of
    ``indices`` the child does not (at least the last half: a campaign on Spark is one,
    even a small one that the child could finish alone). Without ``claims`` the child
    stops when Spark is up; with them it plays on until the job claims a seed it wants.
    A seed the child took and did not finish (a run that raised, a child that died) is
    played by a second ``rest``. JobError naming the first seed whose run raised."""
    seeds = list(seeds)
    head = HeadStart(play, seeds[: len(seeds) // 2], claims)
    head.start()
    played: dict[int, T | Raised] = {}
    try:
        spark = start()
        first = len(head.stop()) if claims is None else head.finished()
        played.update(rest(spark, list(range(first, len(seeds))), claims))
    finally:
        played.update(enumerate(head.stop()))
    missing = [i for i in range(len(seeds)) if i not in played]
    if missing:
        played.update(rest(spark, missing, None))
    return in_seed_order(seeds, played)


__all__ = [
    "INTERPRETED",
    "PLAYED",
    "Job",
    "Raised",
    "RowsOf",
    "by_index",
    "chunks",
    "each_chunk",
    "head_started",
    "in_seed_order",
    "job_conf",
]
