"""A job's tables staged and committed on an object store (issue 33: "every path option
accepts a URI ... a failed job leaves no half-written table"), against a real S3 server
on a loopback port (moto's, which speaks S3's HTTP API) reached as ``s3a://``.

An object store has keys, not directories: pyarrow's S3 filesystem refuses to move a
"directory" (the prefix of many keys), so the commit moves a table's parts one by one
and writes its ``_SUCCESS`` after them (``qsg.commands.pipeline.staging``)."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pyarrow import fs

from qsg.commands.pipeline.staging import Stage, TableExistsError, put
from tests.claims import keeps

BUCKET = "qsg-tables"
OUT = f"s3a://{BUCKET}/sweeps/day1/metrics"


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[fs.S3FileSystem]:
    """An S3 server with an empty bucket; pyarrow pointed at it by the usual AWS
    environment variables, as a user points it at theirs."""
    from moto.server import ThreadedMotoServer

    # Port 0: the server binds a free port itself and says which (no other test's
    # server can take it between a choice and a bind).
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    port = server.get_host_and_port()[1]
    # moto keeps its buckets in the process: each test starts from none.
    urllib.request.urlopen(
        urllib.request.Request(f"http://127.0.0.1:{port}/moto-api/reset", method="POST")
    ).close()
    for name, value in {
        "AWS_ACCESS_KEY_ID": "qsg",
        "AWS_SECRET_ACCESS_KEY": "qsg",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}",
    }.items():
        monkeypatch.setenv(name, value)
    store = fs.S3FileSystem(
        endpoint_override=f"127.0.0.1:{port}", scheme="http", allow_bucket_creation=True
    )
    store.create_dir(BUCKET)
    try:
        yield store
    finally:
        server.stop()


def _keys(store: fs.S3FileSystem) -> list[str]:
    found = store.get_file_info(fs.FileSelector(BUCKET, recursive=True))
    return sorted(i.path[len(BUCKET) + 1 :] for i in found if i.type == fs.FileType.File)


def _stage_runs(stage: Stage, table: str, runs: dict[str, int]) -> None:
    for run, x in runs.items():
        put(stage.uri, table, run, pa.table({"run": [run], "x": [x]}))


def _rows(store: fs.S3FileSystem, table: str) -> list[tuple[str, int]]:
    read = pq.read_table(
        f"{BUCKET}/sweeps/day1/metrics/{table}", filesystem=store, partitioning="hive"
    )
    return sorted(zip(read["run"].to_pylist(), read["x"].to_pylist(), strict=True))


@keeps("README.md", "every directory may be a URI such as `s3a://`")
@keeps(
    "docs/pipeline.md",
    "its parts are moved one key at a time and its `_SUCCESS` written after them, so a "
    "reader that sees `_SUCCESS` sees the whole table",
)
def test_a_job_staged_on_s3_is_committed_whole_with_each_tables_success_marker(
    s3: fs.S3FileSystem,
) -> None:
    stage = Stage.begin(OUT, ["latency", "runs"], "overwrite")
    assert stage is not None
    _stage_runs(stage, "latency", {"r1": 1, "r2": 2})
    _stage_runs(stage, "runs", {"r1": 10})
    stage.commit()
    stage.discard()
    assert _keys(s3) == [
        "sweeps/day1/metrics/latency/_SUCCESS",
        "sweeps/day1/metrics/latency/run=r1/part-00000.parquet",
        "sweeps/day1/metrics/latency/run=r2/part-00000.parquet",
        "sweeps/day1/metrics/runs/_SUCCESS",
        "sweeps/day1/metrics/runs/run=r1/part-00000.parquet",
    ]
    assert _rows(s3, "latency") == [("r1", 1), ("r2", 2)]


@keeps(
    "docs/pipeline.md",
    "when any failed, the staging directory is deleted and no table is touched (nor `OUT` made)",
)
def test_overwrite_on_s3_replaces_the_old_table_and_a_failed_job_leaves_it_untouched(
    s3: fs.S3FileSystem,
) -> None:
    first = Stage.begin(OUT, ["latency"], "overwrite")
    assert first is not None
    _stage_runs(first, "latency", {"old": 1})
    first.commit()
    first.discard()
    # A job whose tasks staged their parts and then failed: no commit, only discard.
    failed = Stage.begin(OUT, ["latency"], "overwrite")
    assert failed is not None
    _stage_runs(failed, "latency", {"half": 2})
    failed.discard()
    assert _rows(s3, "latency") == [("old", 1)]
    assert not any("_temporary" in key for key in _keys(s3))
    # The next job that succeeds replaces the table whole.
    second = Stage.begin(OUT, ["latency"], "overwrite")
    assert second is not None
    _stage_runs(second, "latency", {"new": 3})
    second.commit()
    second.discard()
    assert _rows(s3, "latency") == [("new", 3)]
    assert _keys(s3) == [
        "sweeps/day1/metrics/latency/_SUCCESS",
        "sweeps/day1/metrics/latency/run=new/part-00000.parquet",
    ]


@keeps("docs/pipeline.md", "`errorifexists` refuses, naming the first, before any is written.")
def test_errorifexists_on_s3_refuses_before_anything_is_staged(s3: fs.S3FileSystem) -> None:
    first = Stage.begin(OUT, ["latency"], "overwrite")
    assert first is not None
    _stage_runs(first, "latency", {"r1": 1})
    first.commit()
    first.discard()
    before = _keys(s3)
    with pytest.raises(TableExistsError, match=r"metrics/latency already exists"):
        Stage.begin(OUT, ["latency"], "errorifexists")
    assert _keys(s3) == before
