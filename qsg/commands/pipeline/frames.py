"""The pipeline's Spark jobs as DataFrames: work dealt to tasks, tables packed, written.

Both jobs (``qsg metrics``: a task per hand of runs; ``qsg sweep``: a task per hand of
points) have one shape, built here from DataFrame operations alone, so that they run
the same on ``local[*]``, a cluster, or over Spark Connect (which has no RDDs):

1. ``dealt``: the work items, each in the hand ``deal`` gives it (by expected cost).
2. ``packed``: ``mapInArrow`` over ``spark.range(hands)``, split a hand per partition,
   with the hands in the function's closure: task ``h`` takes hand ``h``. (The items
   are small: a run's name and location, a point's scenario text. PySpark ships a
   closure over 1 MB as a broadcast, and Spark Connect sends it once with the plan.
   An earlier shape, the items as a DataFrame broadcast-joined to the range and sorted
   within partitions, cost a broadcast job and a sort: 0.39 s a job against 0.18 s on
   ``local[2]``, a tenth of the metrics job at 10 million events.) The task runs a
   Python function on each item, which yields each
   of its tables (aggregates: per bucket, per queue, per sample, never events). They
   travel as one wide DataFrame (``wide``): a ``table`` column naming each row's
   table, then every column of every table (no two tables give one name two types),
   null where a row's table has no such column. An item that fails yields an
   ``ERROR`` row with its message in ``part`` instead; a sweep point also yields a
   ``RESULT`` row (its JSON). The job's result is persisted, and the rows whose table
   starts with ``!`` (one or two per item) are all the driver sees.
   Given a staging directory (``packed(..., stage=URI)``, ``qsg.commands.pipeline.staging``),
   the tasks write the tables' parts there themselves and only the ``!`` rows travel:
   no persist, no write job, the driver commits by renaming. What follows is the
   path for a URI pyarrow cannot open.
3. ``unpacked``: one table's rows and columns of it, a plain ``where`` and ``select``
   in the JVM, and ``write_tables``: each table through ``DataFrameWriter.parquet``
   (Spark's output committer: a table is all there or not at all; ``mode`` overwrite
   or errorifexists), the tables written side by side from threads of the driver; a
   per-run table ``partitionBy("run")``, a directory ``run=NAME`` a run.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from qsg.commands.pipeline import staging
from qsg.commands.pipeline.spark import parallelism
from qsg.commands.pipeline.where import child
from qsg.core.errors import QSGError

#: The ``table`` of a row saying that an item failed (``part``: the message, UTF-8).
ERROR = "!error"
#: The ``table`` of a sweep point's result row (``part``: its JSON).
RESULT = "!result"
#: How a job's output may meet existing tables: Spark's save modes.
MODES = staging.MODES
_DDL = {
    pa.string(): "string",
    pa.int64(): "bigint",
    pa.float64(): "double",
    pa.bool_(): "boolean",
    pa.binary(): "binary",
}


class JobError(QSGError, RuntimeError):
    """A run or point (or the job) failed on an executor: one line, naming which and why."""


def deal(sizes: Sequence[int], hands: int) -> list[list[int]]:
    """The indices of ``sizes`` dealt into at most ``hands`` hands of about the same
    total: the largest first, each to the hand holding least so far (in index order
    within a hand)."""
    hands = max(1, min(hands, len(sizes)))
    dealt: list[list[int]] = [[] for _ in range(hands)]
    held = [(0, 0, h) for h in range(hands)]  # (total, items, hand): ties to the emptier
    for i in sorted(range(len(sizes)), key=lambda i: (-sizes[i], i)):
        total, count, h = heapq.heappop(held)
        dealt[h].append(i)
        heapq.heappush(held, (total + sizes[i], count + 1, h))
    return [sorted(hand) for hand in dealt if hand]


def ddl(schema: pa.Schema) -> str:
    """``schema`` as Spark's DDL (names quoted: ``group``, ``end`` are SQL words)."""
    return ", ".join(f"`{f.name}` {_DDL[f.type]}" for f in schema)


@dataclass(frozen=True)
class Dealt:
    """Work items dealt into hands (``dealt``): ``hands[h]`` is task ``h``'s rows."""

    spark: Any
    hands: list[list[dict[str, Any]]]


def dealt(
    spark: Any,
    rows: list[dict[str, Any]],
    schema: pa.Schema,
    costs: Sequence[int],
    *,
    hands: int | None = None,
) -> Dealt:
    """``rows`` (of ``schema``: their values checked and made its types) dealt into the
    hands ``deal(costs, hands)`` gives (default: as many hands as Spark runs tasks at
    once), each hand's rows in their order in ``rows``, each row with its ``hand``."""
    split = deal(costs, hands or parallelism(spark))
    typed = pa.Table.from_pylist(rows, schema=schema).to_pylist()
    return Dealt(spark, [[{**typed[i], "hand": h} for i in hand] for h, hand in enumerate(split)])


def wide(schemas: Mapping[str, pa.Schema]) -> pa.Schema:
    """The packed job's rows: ``table``, ``run``, every column of ``schemas`` (the first
    type a name has: ValueError if another table gives it another), and ``part``."""
    fields: dict[str, pa.DataType] = {"table": pa.string(), "run": pa.string()}
    for name, schema in schemas.items():
        for f in schema:
            if fields.setdefault(f.name, f.type) != f.type:
                raise ValueError(f"{name}.{f.name} is {f.type}, elsewhere {fields[f.name]}")
    fields["part"] = pa.binary()
    return pa.schema(list(fields.items()))


Rows = Iterator[tuple[str, str, "pa.Table | bytes"]]


def packed(
    work: Dealt,
    task: Callable[[dict[str, Any]], Rows],
    schemas: Mapping[str, pa.Schema],
    *,
    stage: str | None = None,
) -> Any:
    """``task`` of every row of every hand of ``work``, a task a hand (``mapInArrow``
    over ``spark.range(hands)``, a partition a hand): each yields ``(table, run,
    rows)``, ``rows`` a table of ``schemas[table]`` or, for a ``!`` table, bytes.
    Given ``stage`` (a staging directory, ``qsg.commands.pipeline.staging``), the tables' rows
    are written there by the task and only the ``!`` rows travel."""
    schema = wide(schemas if stage is None else {})
    hands = work.hands

    def each(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            for h in batch.column(0).to_pylist():
                yield from _tasks(hands[h], task, schema, stage)

    n = len(hands)
    return work.spark.range(0, n, 1, max(n, 1)).mapInArrow(each, ddl(schema))


def packed_rows(
    frame: Any,
    task: Callable[[dict[str, Any]], Rows],
    schemas: Mapping[str, pa.Schema],
    *,
    stage: str | None = None,
) -> Any:
    """``packed``, of the rows of a DataFrame ``frame`` in its own partitions (rows read
    by Spark: ``binaryFile``'s files, say) rather than of hands in the job's function."""
    schema = wide(schemas if stage is None else {})

    def each(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            yield from _tasks(batch.to_pylist(), task, schema, stage)

    return frame.mapInArrow(each, ddl(schema))


def _tasks(
    rows: list[dict[str, Any]],
    task: Callable[[dict[str, Any]], Rows],
    schema: pa.Schema,
    stage: str | None,
) -> Iterator[pa.RecordBatch]:
    """``task`` of each row: its tables staged (given ``stage``) or widened, in order."""
    for row in rows:
        for table, run, made in task(row):
            if stage is not None and isinstance(made, pa.Table):
                staging.put(stage, table, run, made)
            else:
                yield _widened(schema, table, run, made)


def _widened(schema: pa.Schema, table: str, run: str, rows: pa.Table | bytes) -> pa.RecordBatch:
    if isinstance(rows, bytes):
        marked = {
            "table": pa.array([table]),
            "run": pa.array([run]),
            "part": pa.array([rows], pa.binary()),
        }
        return pa.RecordBatch.from_arrays(
            [marked.get(f.name, pa.nulls(1, f.type)) for f in schema], schema=schema
        )
    n = rows.num_rows
    have = set(rows.column_names)
    columns = [
        pa.repeat(pa.scalar(table), n)
        if f.name == "table"
        else rows[f.name].combine_chunks().cast(f.type)
        if f.name in have
        else pa.nulls(n, f.type)
        for f in schema
    ]
    return pa.RecordBatch.from_arrays(columns, schema=schema)


def settle(frame: Any, *, persist: bool = True) -> tuple[Any, list[tuple[str, str, bytes]]]:
    """Run the packed job once (persisting its rows unless told not to: a staged job's
    rows are all ``!`` rows) and bring back only its ``!`` rows (errors and results:
    one or two per item). The persisted frame is for ``unpacked``; ``unpersist`` it
    when its tables are written."""
    from pyspark.sql import functions as F

    if persist:
        frame = frame.persist()
    try:
        marked = (
            frame.where(F.col("table").startswith("!")).select("table", "run", "part").collect()
        )
    except Exception as error:
        frame.unpersist()
        raise JobError(one_line(error)) from None
    return frame, [(r["table"], r["run"], bytes(r["part"])) for r in marked]


def unpacked(frame: Any, name: str, schema: pa.Schema) -> Any:
    """Table ``name``'s rows of a packed frame, as a DataFrame of ``schema``."""
    from pyspark.sql import functions as F

    return frame.where(F.col("table") == name).select(*[F.col(c) for c in schema.names])


def gather(frame: Any, schemas: dict[str, pa.Schema]) -> dict[str, pa.Table]:
    """Every table of a packed frame on the driver, by name, in run order (each run's
    rows in the order its task made them)."""
    import pyarrow.compute as pc
    from pyspark.sql import functions as F

    rows = frame.where(~F.col("table").startswith("!")).toArrow()
    found = {}
    for name, schema in schemas.items():
        mine = rows.filter(pc.equal(rows["table"], name)).select(schema.names).cast(schema)
        found[name] = mine.take(pc.sort_indices(mine["run"])) if "run" in schema.names else mine
    return found


def write_tables(
    spark: Any,
    frames: dict[str, Any],
    out: str,
    mode: str = "overwrite",
    *,
    partitioned: Collection[str] = (),
) -> None:
    """Each DataFrame as table ``out/NAME`` (Parquet), side by side; a table named in
    ``partitioned`` partitioned by run (``out/NAME/run=RUN/``, ``partitionBy("run")``).
    ``errorifexists``: JobError naming the first that exists before any is written."""
    if mode not in MODES:
        raise ValueError(f"mode {mode!r}: one of {', '.join(MODES)}")
    if mode == "errorifexists":
        for name in frames:
            if exists(spark, child(out, name)):
                raise JobError(f"{child(out, name)} already exists (mode errorifexists)")

    def write(item: tuple[str, Any]) -> None:
        name, frame = item
        writer = frame.write.mode(mode)
        if name in partitioned:
            writer = writer.partitionBy("run")
        writer.parquet(child(out, name))

    try:
        with ThreadPoolExecutor(max_workers=4) as pool:
            list(pool.map(write, frames.items()))
    except JobError:
        raise
    except Exception as error:
        raise JobError(one_line(error)) from None


def exists(spark: Any, location: str) -> bool:
    """Whether ``location`` exists, as Spark's filesystem sees it."""
    try:
        spark.read.format("binaryFile").load(location).columns  # noqa: B018 (analysed)
    except Exception as error:
        if "PATH_NOT_FOUND" in str(error) or "does not exist" in str(error):
            return False
        raise
    return True


#: A "SomeError: message" line of a traceback (the name possibly dotted).
_RAISED = re.compile(r"^([\w.]+(?:Error|Exception|Exit|Interrupt)): (.+)$", re.M)
#: Exceptions that only carry another's message: Spark's and Py4J's wrappers, and any
#: JVM class (a Java package before the name).
_WRAPPERS = re.compile(
    r"^(?:org|java|javax|scala|io|py4j|pyspark)\.|^(?:PythonException|"
    r"Py4JJavaError|SparkException|AnalysisException)$"
)


def one_line(error: BaseException) -> str:
    """What went wrong in a Spark job, in one line: the last exception a Python worker
    raised (as its traceback ends), else the first line of Spark's own message."""
    text = str(error)
    python = [(k, m) for k, m in _RAISED.findall(text) if not _WRAPPERS.search(k)]
    if python:
        kind, message = python[-1]
        return f"{kind.rsplit('.', 1)[-1]}: {message.strip()}"
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if lines and (_PY4J_CALL.match(lines[0]) or lines[0].endswith(":")):
        # py4j's first line names the call, and a wrapped error's ends where its cause
        # starts: the cause is the Java exception below (the innermost "Caused by").
        causes = [found for line in lines[1:] if (found := _JAVA_CAUSE.match(line))]
        if causes:
            cause = next((c for c in reversed(causes) if c[0].startswith("Caused")), causes[0])
            return f"{cause['kind']}: {cause['message']}".rstrip(": ")[:500]
    return (lines[0] if lines else type(error).__name__)[:500]


#: py4j's first line of a Java exception: the call it was in, not what went wrong.
_PY4J_CALL = re.compile(r"^An error occurred while calling \S+$")
#: A Java exception's line in py4j's text (``: java.io.IOException: msg``, ``Caused by:
#: ...``): its class's simple name and its message.
_JAVA_CAUSE = re.compile(
    r"^(?::|Caused by:) (?:[\w$]+\.)*(?P<kind>[\w$]*(?:Exception|Error))(?::\s*(?P<message>.*))?$"
)


__all__ = [
    "ERROR",
    "MODES",
    "RESULT",
    "Dealt",
    "JobError",
    "Rows",
    "ddl",
    "deal",
    "dealt",
    "exists",
    "gather",
    "one_line",
    "packed",
    "packed_rows",
    "settle",
    "unpacked",
    "wide",
    "write_tables",
]
