"""The Spark pipeline's metrics, on the event log of a small real run whose every value
can be worked out by hand from its scenario (tests/data/pipeline-small.toml):

- QM1 puts one message a second from t=1 to the shared queue APP.Q (4 of them); QM2
  gets from t=10: latencies 9, 8, 7, 6 s.
- QM1 puts 3 messages with Expiry 20 (2 s) to APP.SHORT at t=1, 2, 3; the expiry scan
  (EXPRYINT 5) discards them at t=5, 2, 1 and 0 s past their expiry.
- 2 messages cross QM1.TO.QM3 at t=1 and t=2, one per batch, and are got at t=15.
- QM1, the expiry-scan lease holder, is killed at t=30 for 10 s: QM2 recovers its
  units of work at once and takes the lease at t=40 (a 10 s failover gap).

Each value is also what ``qsg run``'s summary says (the definitions are shared).
"""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from qsg.commands.cli import main, write_run
from qsg.commands.pipeline import metrics
from qsg.commands.pipeline.where import local_path, to_uri
from qsg.scenario import load_scenario
from qsg.scenario.play import run_scenario
from tests.claims import keeps

SMALL = Path(__file__).parent / "data" / "pipeline-small.toml"


@pytest.fixture(scope="module")
def runs_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("runs")
    write_run(out / "small", SMALL, run_scenario(load_scenario(SMALL)))
    return out


@pytest.fixture(scope="module")
def computed(spark: Any, runs_dir: Path) -> dict[str, Any]:
    return metrics.compute(metrics.Events.load(spark, runs_dir))


@pytest.fixture(scope="module")
def tables(computed: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    return {name: table.to_pylist() for name, table in computed.items()}


def one(rows: list[dict[str, Any]], **match: Any) -> dict[str, Any]:
    found = [r for r in rows if all(r[k] == v for k, v in match.items())]
    assert len(found) == 1, (match, found)
    return found[0]


@keeps(
    "docs/pipeline.md",
    "every directory below DIR holding an `events.parquet` is a run, named by its path below DIR",
)
def test_a_run_is_named_by_its_directory_and_counts_its_puts_gets_and_discards(tables):
    # 210 events: 168 of the run's work (the receiving end's channel states among them:
    # it ends too when its sender's queue manager is killed) and 42 qmgr-statistics
    # records (one per queue manager at each depth sample).
    assert tables["runs"] == [
        {
            "run": "small",
            "seed": 11,
            "warmup": 0.0,
            "events": 210,
            "end": 60.0,
            "seconds": 60.0,
            "put": 9,
            "got": 6,
            "expired": 3,
        }
    ]


@keeps(
    "docs/pipeline.md",
    "From a message's first MQPUT anywhere in the run (an application's put, or for a "
    "message that crossed a channel, its put to the transmission queue) to each MQGET "
    "that returned it.",
)
def test_latency_runs_from_the_first_put_to_the_get_with_nearest_rank_percentiles(tables):
    row = one(tables["latency"], queue="APP.Q", q_mgr="*")
    assert row["scope"] == "QSG1"  # a shared queue is the QSG's, whoever got from it
    assert (row["messages"], row["mean"], row["p50"], row["p90"], row["p99"], row["max"]) == (
        4,
        7.5,
        7.0,
        9.0,
        9.0,
        9.0,
    )
    assert one(tables["latency"], queue="APP.Q", q_mgr="QM2")["messages"] == 4


@keeps(
    "docs/pipeline.md",
    "From a message's first MQPUT anywhere in the run (an application's put, or for a "
    "message that crossed a channel, its put to the transmission queue) to each MQGET "
    "that returned it.",
)
def test_latency_across_a_channel_counts_from_the_put_to_the_transmission_queue(tables):
    row = one(tables["latency"], queue="APP.IN", q_mgr="*")
    assert (row["scope"], row["messages"], row["p50"], row["max"]) == ("QM3", 2, 13.0, 14.0)


def test_the_latency_cdf_has_a_point_per_percentile_ending_at_the_maximum(tables):
    cdf = sorted((r["p"], r["latency"]) for r in tables["latency_cdf"] if r["queue"] == "APP.Q")
    assert len(cdf) == 100
    assert cdf[0] == (0.01, 6.0) and cdf[49] == (0.5, 7.0) and cdf[-1] == (1.0, 9.0)


def test_throughput_counts_each_put_and_get_in_its_second(tables):
    rows = [r for r in tables["throughput"] if r["queue"] == "APP.Q"]
    assert {r["scope"] for r in rows} == {"QSG1"}  # a shared queue: its QSG's, both members
    puts = sorted((r["t"], r["put"]) for r in rows if r["q_mgr"] == "QM1")
    assert puts == [(1.0, 1), (2.0, 1), (3.0, 1), (4.0, 1)]
    assert one(rows, q_mgr="QM2")["got"] == 4 and one(rows, q_mgr="QM2")["t"] == 10.0


def test_expired_discards_and_how_long_past_their_expiry_they_held_storage(tables):
    row = one(tables["expiry"], queue="APP.SHORT")
    assert (row["discarded"], row["by_scan"], row["by_get"], row["bytes"]) == (3, 3, 0, 3072)
    assert row["overdue_mean"] == pytest.approx(1.0) and row["overdue_max"] == pytest.approx(2.0)
    assert row["held_byte_seconds"] == pytest.approx(3 * 1024)


def test_scans_are_counted_per_member_and_the_shared_ones_by_the_lease_holder(tables):
    shared = {r["q_mgr"]: (r["scans"], r["discarded"]) for r in tables["scans"] if r["shared"]}
    # QM1 scans the shared queues at 0, 5, ..., 30; QM2 from its takeover at 40 to 60.
    assert shared == {"QM1": (7, 3), "QM2": (5, 0)}


def test_channel_throughput_is_the_batches_and_deliveries_of_each_second(tables):
    rows = sorted(tables["channels"], key=lambda r: r["t"])
    assert [(r["t"], r["sender"], r["batches"], r["messages"], r["delivered"]) for r in rows] == [
        (1.0, "QM1", 1, 1, 1),
        (2.0, "QM1", 1, 1, 1),
    ]
    assert sum(r["bytes"] for r in rows) == 2904


def test_cf_structure_usage_sums_its_queues_depths_against_its_size(tables):
    row = one(tables["cf_usage"], time=5.0)
    assert (row["qsg"], row["structure"], row["entries"], row["size_kb"]) == ("QSG1", "S1", 7, 1000)
    assert row["used"] == pytest.approx(0.007)


def test_the_depth_over_time_of_a_shared_queue_is_the_qsgs(tables):
    depths = sorted((r["time"], r["depth"]) for r in tables["depth"] if r["queue"] == "APP.Q")
    assert depths[:4] == [(0.0, 0), (5.0, 4), (10.0, 4), (15.0, 0)]
    assert {r["scope"] for r in tables["depth"] if r["queue"] == "APP.Q"} == {"QSG1"}


@keeps(
    "docs/pipeline.md",
    "A takeover of a lease from another holder, and how long no one held the duty.",
)
def test_a_lease_taken_over_after_its_holder_was_killed_has_a_failover_gap(tables):
    assert [
        (r["time"], r["holder"], r["token"])
        for r in sorted(tables["leases"], key=lambda r: r["time"])
    ] == [(0.0, "QM1", 1), (40.0, "QM2", 2)]
    (gap,) = tables["failover_gaps"]
    assert (gap["previous"], gap["holder"], gap["lost_at"], gap["taken_at"], gap["gap"]) == (
        "QM1",
        "QM2",
        30.0,
        40.0,
        10.0,
    )


@keeps("docs/pipeline.md", "`peer`: a member backed out a failed member's units of work")
def test_peer_recovery_is_timed_from_the_failed_members_kill(tables):
    (row,) = tables["recoveries"]
    assert (row["recovery"], row["q_mgr"], row["failed"], row["failed_at"], row["duration"]) == (
        "peer",
        "QM2",
        "QM1",
        30.0,
        0.0,
    )


@keeps(
    "docs/pipeline.md",
    "Exact nearest-rank percentiles, the same definitions as `qsg run`'s summary.",
)
def test_the_pipeline_agrees_with_the_run_summary(tables, runs_dir: Path):
    import json

    summary = json.loads((runs_dir / "small" / "summary.json").read_text())
    for q in summary["queues"]:
        if q["latency_p50"] is None:
            continue
        row = one(tables["latency"], scope=q["scope"], queue=q["queue"], q_mgr="*")
        assert (row["p50"], row["p99"]) == (q["latency_p50"], q["latency_p99"])


def _documented() -> dict[str, list[tuple[str, str]]]:
    """docs/pipeline.md: each table's heading and its columns with their types, in order."""
    import re

    text = (Path(__file__).parent.parent / "docs" / "pipeline.md").read_text()
    tables: dict[str, list[tuple[str, str]]] = {}
    for block in re.split(r"^### ", text, flags=re.M)[1:]:
        name = re.match(r"`(\w+)`", block).group(1)
        columns: list[tuple[str, str]] = []
        for names, kind in re.findall(r"^\| (`[^|]+) \| (\w+) \|", block, flags=re.M):
            columns.extend((c, kind) for c in re.findall(r"`(\w+)`", names))
        tables[name] = columns
    return tables


#: docs/pipeline.md's type names (Spark SQL's), by Arrow type.
SQL_TYPES = {"string": "string", "int64": "bigint", "double": "double", "bool": "boolean"}


@keeps("docs/pipeline.md", "Every table has `run` (the run's path below the directory) first.")
def test_every_table_has_the_columns_and_types_docs_pipeline_md_lists(tables):
    from qsg.commands.pipeline.sweep import KNEE, POINTS

    documented = _documented()
    schemas = {**metrics.TABLES, "points": POINTS, "knee": KNEE}
    assert set(schemas) == set(documented)
    for name, schema in schemas.items():
        found = [(f.name, SQL_TYPES[str(f.type)]) for f in schema]
        assert found == documented[name], name
    assert set(tables) == set(metrics.TABLES)  # compute gives every table, no other


def test_the_tables_come_back_in_their_schemas(computed):
    for name, table in computed.items():
        assert table.schema == metrics.TABLES[name], name


def test_a_directory_without_event_logs_is_refused_by_name(spark, tmp_path: Path):
    with pytest.raises(ValueError, match=r"no events\.parquet below it"):
        metrics.Events.load(spark, tmp_path)


@keeps("docs/pipeline.md", "`metrics.store(metrics.Events.load(spark, DIR), OUT)` is `qsg metrics`")
def test_store_commits_each_table_through_spark_and_it_reads_back_as_compute_gives(
    spark, runs_dir: Path, computed, tmp_path: Path
):
    logs = tmp_path / "logs"
    for name in ("a", "b", "c"):
        (logs / name).mkdir(parents=True)
        shutil.copy(runs_dir / "small" / "events.parquet", logs / name / "events.parquet")
    out = tmp_path / "metrics"
    metrics.store(metrics.Events.load(spark, logs), out)
    shutil.rmtree(logs / "c")  # fewer runs the second time: no row of the first is left
    metrics.store(metrics.Events.load(spark, logs), out)
    for name in metrics.TABLES:
        assert (out / name / "_SUCCESS").exists(), name  # the driver's commit finished it
    assert sorted(p.name for p in out.iterdir()) == sorted(metrics.TABLES)  # no staging left
    stored = metrics.read(out)
    assert set(stored) == set(metrics.TABLES)
    for name, table in computed.items():
        assert stored[name].schema.equals(metrics.TABLES[name]), name
        want = [{**r, "run": run} for run in ("a", "b") for r in table.to_pylist()]
        assert stored[name].to_pylist() == want, name
    # Spark reads each table back with the documented columns, in order.
    assert (
        metrics.load(spark, str(out / "latency"), metrics.TABLES["latency"]).columns
        == metrics.TABLES["latency"].names
    )


@keeps("docs/pipeline.md", "is written `run=b%2Fc`, as Spark escapes it")
@keeps("docs/pipeline.md", "a table with no rows has no directory (only `_SUCCESS`)")
@keeps(
    "docs/pipeline.md",
    "reads a run named `007` as the number 7 unless told (qsg's sessions set "
    "`spark.sql.sources.partitionColumnTypeInference.enabled=false`; `metrics.load` gives"
    " the schema)",
)
def test_each_runs_rows_of_a_table_are_the_partition_directory_named_by_the_run(
    spark, runs_dir: Path, computed, tmp_path: Path
):
    import pyarrow.parquet as pq

    logs = tmp_path / "logs"
    for name in ("007", "b/c"):  # a name that looks like a number; one with a slash
        (logs / name).mkdir(parents=True)
        shutil.copy(runs_dir / "small" / "events.parquet", logs / name / "events.parquet")
    out = tmp_path / "metrics"
    metrics.store(metrics.Events.load(spark, logs), out)
    empty = [n for n, t in computed.items() if t.num_rows == 0]
    for name in metrics.TABLES:
        found = sorted(p.name for p in (out / name).iterdir() if p.is_dir())
        assert found == ([] if name in empty else ["run=007", "run=b%2Fc"]), name
    # The run is the directory, not a column of the parts (as partitionBy("run") lays it).
    (part,) = (out / "latency" / "run=b%2Fc").glob("part-*.parquet")
    assert "run" not in pq.read_schema(part).names
    # Read back whole by pyarrow here, by Spark anywhere: the run a string, "007" kept.
    stored = metrics.read(out)
    for name, table in computed.items():
        want = [{**r, "run": run} for run in ("007", "b/c") for r in table.to_pylist()]
        assert stored[name].to_pylist() == want, name
    runs = metrics.load(spark, str(out / "runs"), metrics.TABLES["runs"]).toArrow()
    assert sorted(runs["run"].to_pylist()) == ["007", "b/c"]
    assert sorted(r["run"] for r in spark.read.parquet(str(out / "runs")).collect()) == [
        "007",
        "b/c",
    ]  # the session's partitions are not typed by their look
    # write lays out tables the driver holds as Spark does, and read reads them the same.
    metrics.write(stored, tmp_path / "again")
    for name in metrics.TABLES:
        assert sorted(
            p.name for p in (tmp_path / "again" / name).iterdir() if p.is_dir()
        ) == sorted(p.name for p in (out / name).iterdir() if p.is_dir()), name
    assert metrics.read(tmp_path / "again") == stored


@keeps("docs/pipeline.md", "`errorifexists` refuses, naming the first, before any is written.")
def test_store_in_mode_errorifexists_refuses_existing_tables_and_writes_none(
    spark, runs_dir: Path, tmp_path: Path
):
    out = tmp_path / "metrics"
    (out / "faults").mkdir(parents=True)  # one table of the fifteen is there already
    with pytest.raises(metrics.JobError, match=r"/faults already exists \(mode errorifexists\)$"):
        metrics.store(metrics.Events.load(spark, runs_dir), out, mode="errorifexists")
    assert [p.name for p in out.iterdir()] == ["faults"]


@keeps(
    "docs/pipeline.md",
    "A failure on an executor (a run that cannot be read, a worker without qsg) ends the "
    "command with one line naming the run and the cause, exit code 1, and no table half "
    "written.",
)
def test_a_run_that_cannot_be_read_fails_the_job_naming_it_before_any_table_is_written(
    spark, runs_dir: Path, tmp_path: Path
):
    logs = tmp_path / "logs"
    shutil.copytree(runs_dir / "small", logs / "good")
    (logs / "torn").mkdir()
    (logs / "torn" / "events.parquet").write_bytes(b"PAR1 cut short")
    out = tmp_path / "metrics"
    with pytest.raises(
        metrics.JobError,
        match=r"^run torn: ValueError: .*torn/events\.parquet: "
        r"not a readable Parquet event log",
    ):
        metrics.store(metrics.Events.load(spark, logs), out)
    assert not out.exists()


@given(st.lists(st.integers(0, 10**6), max_size=30), st.integers(1, 8))
@keeps(
    "docs/pipeline.md",
    "are dealt to as many tasks as Spark runs at once, largest first, each to the task "
    "holding least",
)
def test_runs_are_dealt_largest_first_each_to_the_task_holding_least(sizes, hands):
    dealt = metrics.deal(sizes, hands)
    assert sorted(i for hand in dealt for i in hand) == list(range(len(sizes)))
    assert len(dealt) == min(hands, len(sizes)) and all(dealt)
    loads = [sum(sizes[i] for i in hand) for hand in dealt]
    # Each hand's smallest run came last to it, when it held least: without that run it
    # holds no more than the hand holding least at the end.
    for hand, load in zip(dealt, loads, strict=True):
        assert load - min(sizes[i] for i in hand) <= min(loads)


@keeps(
    "docs/pipeline.md",
    "so a table is either all there (with `_SUCCESS`) or not at all, either way.",
)
def test_a_fault_mid_write_through_hadoops_filesystem_leaves_no_partial_table(spark, tmp_path):
    from qsg.commands.pipeline import frames

    def second_part_fails(batches):
        from pyspark import TaskContext

        yield from batches  # its rows go to the task's file first
        if TaskContext.get().partitionId() == 1:
            raise OSError("disk gone mid-write")

    torn = spark.range(0, 1000, 1, 2).mapInArrow(second_part_fails, "id long")
    out = (tmp_path / "tables").as_uri()  # file:///...: written by Hadoop's FileSystem API
    assert out.startswith("file:///")
    with pytest.raises(frames.JobError, match=r"^OSError: disk gone mid-write$"):
        frames.write_tables(spark, {"torn": torn}, out)
    # Spark's output committer: neither task's part reached the table, nor _SUCCESS.
    left = [p.name for p in (tmp_path / "tables").rglob("*") if p.is_file()]
    assert not [n for n in left if n.startswith(("part-", "_SUCCESS"))], left


@keeps(
    "docs/pipeline.md",
    "when any failed, the staging directory is deleted and no table is touched (nor `OUT` made)",
)
def test_a_task_failing_after_staging_its_parts_leaves_the_tables_as_they_were(spark, tmp_path):
    # The tasks write their parts into the job's staging directory; only the driver's
    # commit, once every task succeeded, moves them: a failed job leaves no part.
    import pyarrow as pa

    from qsg.commands.pipeline import frames
    from qsg.commands.pipeline.staging import Stage, partition_dir

    schema = pa.schema([("run", pa.string()), ("x", pa.int64())])
    out = tmp_path / "tables"
    metrics.write({"t": pa.table({"run": ["old"], "x": [7]})}, out)  # there before the job
    before = sorted(p.relative_to(out) for p in out.rglob("*"))

    def task(row):
        yield "t", row["run"], pa.table({"run": [row["run"]], "x": [1]}, schema=schema)
        if row["run"] == "b":  # its part is staged: then the task fails
            raise OSError("disk gone mid-write")

    stage = Stage.begin(to_uri(out), ["t"], "overwrite")
    assert stage is not None
    dealt = frames.dealt(
        spark, [{"run": "a"}, {"run": "b"}], pa.schema([("run", pa.string())]), [1, 1], hands=2
    )
    with pytest.raises(frames.JobError, match=r"^OSError: disk gone mid-write$"):
        frames.settle(frames.packed(dealt, task, {"t": schema}, stage=stage.uri), persist=False)
    staged = local_path(stage.table("t"))
    assert (staged / partition_dir("b") / "part-00000.parquet").exists()  # written, not committed
    stage.discard()
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before
    assert metrics.read_table(out / "t").to_pylist() == [{"run": "old", "x": 7}]


@keeps(
    "docs/pipeline.md",
    "when any failed, the staging directory is deleted and no table is touched (nor `OUT` made)",
)
def test_a_job_refused_or_failed_leaves_no_directory_it_made(tmp_path):
    from qsg.commands.pipeline.staging import Stage

    out = to_uri(tmp_path / "new" / "metrics")
    stage = Stage.begin(out, ["latency"], "errorifexists")
    assert stage is not None and (tmp_path / "new" / "metrics" / "_temporary").is_dir()
    stage.discard()  # as a failed job does: OUT was not there, so it goes too
    assert [p.name for p in (tmp_path / "new").iterdir()] == []


@pytest.mark.parametrize(
    ("location", "uri"),
    [
        ("runs", "file://{cwd}/runs"),
        ("file:/data/runs", "file:///data/runs"),
        ("s3a://bucket/runs/", "s3a://bucket/runs"),
        ("abfss://c@acct.dfs.core.windows.net/runs", "abfss://c@acct.dfs.core.windows.net/runs"),
    ],
)
@keeps(
    "docs/pipeline.md",
    "A relative path is the driver's (it is made absolute before Spark sees it).",
)
def test_a_path_option_becomes_an_absolute_uri_on_the_driver(location, uri, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert to_uri(location) == uri.format(cwd=tmp_path.resolve())


@keeps("README.md", "every directory may be a URI that Spark's Hadoop FileSystem reaches")
def test_runs_below_a_uri_are_listed_by_spark_as_a_local_walk_finds_them(spark, runs_dir, tmp_path):
    from qsg.commands.pipeline.runs import list_runs

    logs = tmp_path / "logs"
    for name in ("a", "b/c"):
        (logs / name).mkdir(parents=True)
        shutil.copy(runs_dir / "small" / "events.parquet", logs / name / "events.parquet")
    walked = list_runs(spark, logs)
    # As Spark lists an s3a:// or hdfs:// URI: through Hadoop's FileSystem.
    listed = list_runs(spark, logs, by_spark=True)
    assert [r.run for r in walked] == ["a", "b/c"]
    assert [(r.run, r.uri, r.size) for r in listed] == [(r.run, r.uri, r.size) for r in walked]


def _mounted(spark: Any, directory: Path) -> str:
    """``directory`` as a ``viewfs://`` URI: Hadoop's ViewFs, a mount table over it (a
    table of its own, so that no FileSystem cached by another test answers)."""
    table = f"qsg{uuid.uuid4().hex[:12]}"
    hadoop = spark.sparkContext._jsc.hadoopConfiguration()
    hadoop.set(f"fs.viewfs.mounttable.{table}.link./logs", directory.as_uri())
    return f"viewfs://{table}/logs"


@keeps(
    "docs/pipeline.md",
    "Tested on Hadoop's ViewFs, a mount table over local directories that Spark reaches "
    "and pyarrow does not: the same tables as the local runs, in and out",
)
def test_runs_on_a_filesystem_only_spark_reaches_are_read_by_spark_into_the_same_tables(
    spark, runs_dir, tmp_path
):
    # Runs are read "on any filesystem Spark reaches" (issue 33): viewfs:// is one Spark
    # reaches and pyarrow does not (as abfss:// or hdfs:// without libhdfs), so the logs
    # come to the tasks through Spark's binaryFile source, and the tables are the same.
    from qsg.commands.pipeline.where import arrow_opens

    logs = tmp_path / "logs"
    for name in ("a", "b/c"):
        (logs / name).mkdir(parents=True)
        shutil.copy(runs_dir / "small" / "events.parquet", logs / name / "events.parquet")
    uri = _mounted(spark, logs)
    assert not arrow_opens(uri)
    by_spark = metrics.Events.load(spark, uri)
    assert by_spark.through_spark and [r.run for r in by_spark.runs] == ["a", "b/c"]
    by_pyarrow = metrics.Events.load(spark, logs)
    assert not by_pyarrow.through_spark
    assert metrics.compute(by_spark) == metrics.compute(by_pyarrow)
    stored = metrics.store(by_spark, tmp_path / "tables")  # staged by the tasks as ever
    assert metrics.read(local_path(stored)) == metrics.compute(by_pyarrow)


@keeps(
    "docs/pipeline.md",
    "For a URI pyarrow cannot open (`abfss://`; `hdfs://` without libhdfs) the job hands "
    "its rows on in the wide DataFrame instead",
)
def test_tables_for_a_filesystem_only_spark_reaches_are_written_by_spark_whole(
    spark, runs_dir, tmp_path
):
    # Out to viewfs:// too: pyarrow cannot stage there, so Spark's DataFrameWriter writes
    # each table (its committer: _SUCCESS once whole), the same rows as a local store.
    logs = tmp_path / "logs"
    (logs / "a").mkdir(parents=True)
    shutil.copy(runs_dir / "small" / "events.parquet", logs / "a" / "events.parquet")
    (tmp_path / "out").mkdir()
    runs, out = _mounted(spark, logs), _mounted(spark, tmp_path / "out") + "/tables"
    assert metrics.store(metrics.Events.load(spark, runs), out) == out
    expected = metrics.compute(metrics.Events.load(spark, logs))
    for name in ("latency", "throughput", "runs"):
        assert (tmp_path / "out" / "tables" / name / "_SUCCESS").exists()
        written = metrics.load(spark, f"{out}/{name}", metrics.TABLES[name]).toArrow()
        assert sorted(map(repr, written.to_pylist())) == sorted(
            map(repr, expected[name].to_pylist())
        )


@pytest.mark.parametrize("is_sweep", [True, False])
@keeps(
    "docs/pipeline.md",
    "so that its runs keep their points' names, `p001-s1`, and the tables recomputed "
    "there, with another `--interval` say, still match the sweep's `points` and `knee`",
)
def test_metrics_of_a_sweeps_directory_name_its_runs_as_its_points_are_named(
    spark, runs_dir, tmp_path, is_sweep
):
    # A sweep's OUT holds runs/POINT/ and its points and knee name each point p001-s1:
    # tables recomputed there (another --interval, say) keep those names, so that the
    # report still joins them. Any other directory names its runs by their paths below it.
    out = tmp_path / "cap"
    for point in ("p001-s1", "p002-s1"):
        (out / "runs" / point).mkdir(parents=True)
        shutil.copy(runs_dir / "small" / "events.parquet", out / "runs" / point)
    if is_sweep:
        (out / "sweep.json").write_text("{}\n")
    done = CliRunner().invoke(main, ["metrics", str(out), "--interval", "2"])
    assert done.exit_code == 0, done.output
    parts = sorted(p.name for p in (out / "metrics" / "runs").iterdir() if p.is_dir())
    named = ["p001-s1", "p002-s1"] if is_sweep else ["runs/p001-s1", "runs/p002-s1"]
    assert parts == [f"run={n.replace('/', '%2F')}" for n in named]


def test_a_filesystem_spark_cannot_reach_is_one_line_naming_the_java_cause(spark, tmp_path):
    # py4j's first line names the call ("An error occurred while calling o45.load."):
    # the line a user reads is the Java exception below it, its class's simple name.
    from qsg.commands.pipeline.frames import one_line
    from qsg.commands.pipeline.runs import list_runs

    for uri, said in [
        ("foo://x/runs", 'UnsupportedFileSystemException: No FileSystem for scheme "foo"'),
        (
            f"viewfs://qsg{uuid.uuid4().hex[:12]}/runs",  # a ViewFs with no mount table
            "IOException: ViewFs: Cannot initialize: Empty Mount table in config for viewfs://",
        ),
    ]:
        with pytest.raises(Exception, match="An error occurred while calling") as raised:
            list_runs(spark, uri)
        assert one_line(raised.value).startswith(said)


def test_a_wrapped_java_error_is_named_by_its_innermost_cause():
    from qsg.commands.pipeline.frames import one_line

    text = (
        "Error while instantiating 'org.apache.spark.sql.internal.SessionStateBuilder':\n"
        ": java.lang.reflect.InvocationTargetException\n"
        "\tat jdk.internal.reflect.X.newInstance(X.java:1)\n"
        'Caused by: java.lang.NumberFormatException: For input string: "abc"\n'
        "\tat java.lang.Integer.parseInt(Integer.java:2)\n"
    )
    assert one_line(RuntimeError(text)) == 'NumberFormatException: For input string: "abc"'
    assert one_line(RuntimeError("Spark's own first line\n: java.io.IOException: x")) == (
        "Spark's own first line"  # a first line that says something is kept
    )


def test_a_log_spark_read_that_is_not_parquet_fails_the_job_naming_its_run(spark, tmp_path):
    logs = tmp_path / "logs"
    (logs / "torn").mkdir(parents=True)
    (logs / "torn" / "events.parquet").write_bytes(b"PAR1 cut short")
    with pytest.raises(
        metrics.JobError,
        match=r"^run torn: ValueError: viewfs://qsg\w+/logs/torn/events\.parquet: "
        r"not a readable Parquet event log",
    ):
        metrics.compute(metrics.Events.load(spark, _mounted(spark, logs)))


@keeps(
    "docs/pipeline.md",
    "takes the runs below every directory it matches, each named below the pattern's fixed part",
)
def test_runs_below_a_glob_are_named_below_its_fixed_part_walked_or_listed_by_spark(
    spark, runs_dir, tmp_path
):
    # Issue 33: DIR is "a directory or a glob". runs/day-* takes day-1's and day-2's runs
    # (named day-1/a, day-2/b/c), not other/'s; Spark's listing (an s3a:// or hdfs://
    # pattern's) finds the same runs under the same names.
    from qsg.commands.pipeline.runs import list_runs

    logs = tmp_path / "logs"
    for name in ("day-1/a", "day-2/b/c", "other/d"):
        (logs / name).mkdir(parents=True)
        shutil.copy(runs_dir / "small" / "events.parquet", logs / name / "events.parquet")
    walked = list_runs(spark, logs / "day-*")
    listed = list_runs(spark, logs / "day-*", by_spark=True)
    assert [r.run for r in walked] == ["day-1/a", "day-2/b/c"]
    assert [(r.run, r.uri, r.size) for r in listed] == [(r.run, r.uri, r.size) for r in walked]
    assert [r.run for r in list_runs(spark, logs / "day-[2]" / "b")] == ["day-2/b/c"]
    with pytest.raises(ValueError, match=r"nights-\*: no events\.parquet below what it matches"):
        list_runs(spark, logs / "nights-*")
    # A directory that exists as written is that directory, whatever its name holds.
    odd = tmp_path / "runs[1]"
    shutil.copytree(logs / "day-1", odd / "day-1")
    assert [r.run for r in list_runs(spark, odd)] == ["day-1/a"]


@keeps(
    "docs/pipeline.md", "A pattern names no one directory, so `qsg metrics` needs `--out` with it"
)
def test_qsg_metrics_of_a_glob_writes_its_runs_tables_where_told(runs_dir, tmp_path):
    logs = tmp_path / "logs"
    for name in ("day-1/a", "day-2/a", "other/a"):
        (logs / name).mkdir(parents=True)
        shutil.copy(runs_dir / "small" / "events.parquet", logs / name / "events.parquet")
    told = CliRunner().invoke(main, ["metrics", str(logs / "day-*"), "--master", "local[2]"])
    assert told.exit_code == 1 and "is a pattern: say where the tables go (--out DIR)" in (
        told.output
    )
    done = CliRunner().invoke(
        main,
        ["metrics", str(logs / "day-*"), "--out", str(tmp_path / "m"), "--master", "local[2]"],
    )
    assert done.exit_code == 0, done.output
    assert sorted(metrics.read(tmp_path / "m")["runs"]["run"].to_pylist()) == ["day-1/a", "day-2/a"]
