"""``qsg metrics``, ``qsg sweep``, ``qsg report`` and ``qsg chaos`` on a real Spark
standalone cluster (a master and two one-core workers on 127.0.0.1) and over Spark
Connect (a server on ``local[2]``), both started from the pyspark package's own
scripts: the same tables (and verdicts) as ``local[2]`` in this process. Paths are
given relative, as a user types them: the driver resolves them (each executor's
working directory is its own). A run that cannot be read is one line naming it, not an
executor's traceback."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from qsg.commands.cli import main, write_run
from qsg.commands.pipeline import metrics
from qsg.scenario import load_scenario
from qsg.scenario.play import run_scenario
from tests.claims import keeps
from tests.spark_cluster import connect_server, standalone

pytestmark = pytest.mark.slow

SMALL = Path(__file__).parent / "data" / "pipeline-small.toml"
BASE = Path(__file__).parent.parent / "scenarios" / "sweep-base.toml"
CHAOS = Path(__file__).parent.parent / "scenarios" / "chaos-lean.toml"


def qsg(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "qsg.commands.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=1800,
    )


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two runs of the small scenario (seeds 11 and 12), one nested a level deeper."""
    out = tmp_path_factory.mktemp("runs")
    scenario = load_scenario(SMALL)
    write_run(out / "a", SMALL, run_scenario(scenario))
    write_run(out / "b" / "c", SMALL, run_scenario(scenario, seed=12))
    return out


@pytest.fixture(scope="module")
def sweep_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four short points: two loads x two member counts, one seed. In process: a seed
    then repeats its run exactly, so each member's share of a shared queue's gets is the
    same wherever the point is played (on a Redis server it depends on which member's
    request reaches the server first, and the per-member tables differ run to run)."""
    path = tmp_path_factory.mktemp("sweep") / "tiny.toml"
    path.write_text(
        f'scenario = "{BASE}"\nduration = 5\nseeds = [3]\n'
        'objective = { p99 = 0.1, queue = "APP.ORDERS" }\n[vary]\n'
        '"workload.*.rate" = [20, 90]\n"qsg.QSG1.members" = [2, 3]\n'
        '"run.in_process" = [true]\n'
    )
    return path


@pytest.fixture(scope="module")
def local(
    spark: Any, runs: Path, sweep_file: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    """What local[2] gives: the runs' tables, the sweep's tables, the runs' report. The
    commands run in this process, on its ``local[2]`` session (the suite's ``spark``):
    two JVM start-ups fewer than as child processes, and the same commands."""
    work = tmp_path_factory.mktemp("local")
    sweep = ["sweep", str(sweep_file), "--out", str(work / "sweep"), "--no-report"]
    swept = CliRunner().invoke(main, [*sweep, "--master", "local[2]"])
    assert swept.exit_code == 0, swept.output
    reported = CliRunner().invoke(
        main, ["report", str(runs), "--out", str(work / "report.html"), "--master", "local[2]"]
    )
    assert reported.exit_code == 0, reported.output
    return {
        "tables": metrics.compute(metrics.Events.load(spark, runs)),
        "sweep": metrics.read(work / "sweep" / "metrics"),
        "report": _summary(work / "report.html"),
    }


CAMPAIGN = ["chaos", str(CHAOS), "--runs", "6", "--seed", "3", "--json"]


@pytest.fixture(scope="module")
def local_campaign(tmp_path_factory: pytest.TempPathFactory) -> subprocess.CompletedProcess[str]:
    """The campaign played locally, once for both Sparks."""
    local = qsg(*CAMPAIGN, cwd=tmp_path_factory.mktemp("campaign"))
    assert local.returncode in (0, 1), local.stderr
    return local


#: Where each Spark keeps its logs (and the standalone workers their work directories).
LOGS: dict[str, Path] = {}


@pytest.fixture(scope="module", params=["standalone", "connect"])
def spark_at(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[str]]:
    """The options that name the Spark: ``--master spark://...`` or ``--remote sc://...``."""
    logs = tmp_path_factory.mktemp(request.param)
    LOGS[request.param] = logs
    if request.param == "standalone":
        with standalone(logs) as url:
            yield ["--master", url]
    else:
        with connect_server(logs) as url:
            yield ["--remote", url]


def _summary(report: Path) -> str:
    """The report's summary tables (what follows its "Tables" heading, folded)."""
    return report.read_text().split("<h2>Tables</h2>", 1)[1]


def _rows(tables: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    return {name: table.to_pylist() for name, table in tables.items()}


@keeps("README.md", "`--master URL` for a cluster, `--remote sc://...` for Spark Connect")
@keeps(
    "docs/pipeline.md",
    "The same commands, tables and exit codes hold on every one of these; the tests run "
    "them on `local[2]`, on a standalone master with two workers and on a Spark Connect "
    "server, and compare the tables.",
)
@keeps(
    "docs/pipeline.md",
    "`SPARK_REMOTE` in the environment does the same when neither option is given (an "
    "option given wins over it)",
)
def test_qsg_metrics_there_gives_the_local_tables_named_by_an_option_or_spark_remote(
    spark_at, runs, local, tmp_path
):
    # docs/pipeline.md, "Where Spark is": SPARK_REMOTE names a Spark Connect server when
    # neither --master nor --remote is given; an option on the command line wins. One
    # launch a Spark pins both: the Connect server named by the environment alone (every
    # other test here names it with --remote), and --master winning over a SPARK_REMOTE
    # where nobody listens.
    shutil.copytree(runs, tmp_path / "runs")
    if spark_at[0] == "--remote":
        words, remote = [], spark_at[1]
    else:
        words, remote = spark_at, "sc://127.0.0.1:9"
    done = subprocess.run(
        [sys.executable, "-m", "qsg.commands.cli", "metrics", "runs", "--out", "out", *words],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=1800,
        env={**os.environ, "SPARK_REMOTE": remote},
    )
    assert done.returncode == 0, done.stderr
    assert "2 run(s); 15 tables written to file:///" in done.stdout
    assert _rows(metrics.read(tmp_path / "out")) == _rows(local["tables"])
    if spark_at[0] == "--master":  # docs/pipeline.md's cluster: the job ran on its workers
        ran = list(LOGS["standalone"].glob("work*/app-*/*/stderr"))
        assert ran, "no executor of the job ran on a worker"


@keeps(
    "docs/pipeline.md",
    "The same commands, tables and exit codes hold on every one of these; the tests run "
    "them on `local[2]`, on a standalone master with two workers and on a Spark Connect "
    "server, and compare the tables.",
)
def test_qsg_sweep_there_gives_the_local_points_and_knee(spark_at, sweep_file, local, tmp_path):
    done = qsg("sweep", str(sweep_file), "--out", "sweep", "--no-report", *spark_at, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    there = metrics.read(tmp_path / "sweep" / "metrics")
    assert set(there) == set(local["sweep"])
    for name in ("points", "knee", "latency", "runs"):
        assert there[name].to_pylist() == local["sweep"][name].to_pylist(), name
    assert len(list((tmp_path / "sweep" / "runs").glob("*/events.parquet"))) == 4


@keeps("README.md", "`--master URL` for a cluster, `--remote sc://...` for Spark Connect")
def test_qsg_report_there_shows_the_local_summary_tables(spark_at, runs, local, tmp_path):
    done = qsg("report", str(runs), "--out", "report.html", *spark_at, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert _summary(tmp_path / "report.html") == local["report"]


@keeps(
    "docs/pipeline.md",
    "plays a chaos campaign's seeded runs as one Spark job: each executor plays and "
    "judges its runs exactly as a local campaign does",
)
def test_qsg_chaos_there_gives_the_local_campaigns_verdicts(spark_at, local_campaign, tmp_path):
    # Neither is a local master: the driver's child stops when Spark is up (no claims),
    # the JVMs are Spark's own (no lean options), and the job's rows come back over
    # Spark Connect as over a classic session.
    there = qsg(*CAMPAIGN, *spark_at, cwd=tmp_path)
    assert there.returncode == local_campaign.returncode, there.stderr
    assert json.loads(there.stdout) == json.loads(local_campaign.stdout)
    assert "saving Spark's classes" not in there.stderr


@keeps(
    "docs/pipeline.md",
    "A failure on an executor (a run that cannot be read, a worker without qsg) ends the "
    "command with one line naming the run and the cause, exit code 1, and no table half "
    "written.",
)
def test_a_run_an_executor_cannot_read_is_one_line_naming_it(spark_at, runs, tmp_path):
    shutil.copytree(runs, tmp_path / "runs")
    (tmp_path / "runs" / "torn").mkdir()
    (tmp_path / "runs" / "torn" / "events.parquet").write_bytes(b"PAR1 cut short")
    done = qsg("metrics", "runs", *spark_at, cwd=tmp_path)
    assert done.returncode == 1
    # The JVM's own banner (the incubating vector module) is not qsg's to silence.
    (line,) = [x for x in done.stderr.strip().splitlines() if "incubator" not in x]
    assert re.match(
        r"^error run torn: ValueError: file:///.*/runs/torn/events\.parquet: "
        r"not a readable Parquet event log",
        line,
    ), line
    assert not (tmp_path / "runs" / "metrics").exists()
