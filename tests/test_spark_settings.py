"""Where Spark is and how it is set: ``--master``, ``--remote``, ``--conf KEY=VALUE`` and
``spark-defaults.conf`` (read as spark-submit reads it: a Java properties file)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from qsg.commands.cli import main
from qsg.commands.pipeline.spark import check_master, check_remote, parse_conf, spark_defaults
from tests.claims import keeps

LEAN = Path(__file__).parent.parent / "scenarios" / "chaos-lean.toml"


@keeps(
    "docs/pipeline.md",
    "a Spark setting, repeatable (`--conf spark.executor.memory=2g`); set over everything else",
)
def test_conf_settings_are_key_equals_value_and_the_value_may_hold_equals_signs():
    assert parse_conf(["spark.executor.memory=2g", "spark.a.b=x=y", "spark.empty="]) == {
        "spark.executor.memory": "2g",
        "spark.a.b": "x=y",
        "spark.empty": "",
    }


@pytest.mark.parametrize("setting", ["spark.executor.memory", "=2g"])
def test_a_conf_setting_without_a_key_and_value_is_refused_by_name(setting):
    with pytest.raises(ValueError, match=rf"^--conf {setting}: expected KEY=VALUE"):
        parse_conf([setting])


@keeps(
    "docs/pipeline.md", "read as spark-submit reads it (`$SPARK_CONF_DIR`, else `$SPARK_HOME/conf`)"
)
def test_spark_defaults_conf_is_read_from_spark_conf_dir_as_spark_submit_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    (tmp_path / "spark-defaults.conf").write_text(
        "# a comment\n"
        "spark.sql.shuffle.partitions   64\n"
        "spark.executor.memory=4g\n"
        "spark.ui.enabled: true\n"
        "\n"
    )
    monkeypatch.setenv("SPARK_CONF_DIR", str(tmp_path))
    assert spark_defaults() == {
        "spark.sql.shuffle.partitions": "64",
        "spark.executor.memory": "4g",
        "spark.ui.enabled": "true",
    }
    monkeypatch.setenv("SPARK_CONF_DIR", str(tmp_path / "none"))
    assert spark_defaults() == {}


def test_a_bad_conf_or_two_sparks_is_one_line_before_spark_starts(tmp_path: Path):
    run = tmp_path / "run"
    small = Path(__file__).parent / "data" / "pipeline-small.toml"
    assert (
        CliRunner().invoke(main, ["run", str(small), "--out", str(run), "--no-progress"]).exit_code
        == 0
    )
    bad = CliRunner().invoke(main, ["metrics", str(run), "--conf", "spark.executor.memory"])
    assert bad.exit_code == 1
    assert bad.output.strip() == (
        "error --conf spark.executor.memory: expected KEY=VALUE (spark.executor.memory=2g)"
    )
    both = CliRunner().invoke(
        main, ["report", str(run), "--master", "local[1]", "--remote", "sc://localhost:15002"]
    )
    assert both.exit_code == 1
    assert both.output.strip() == "error --master and --remote name two Sparks: give one"


@keeps(
    "docs/pipeline.md",
    "a key set there wins over qsg's own defaults (no UI, UTC, shuffle partitions, one "
    "attempt per task)",
)
def test_spark_defaults_conf_wins_over_qsgs_settings_and_conf_wins_over_both(tmp_path: Path):
    # spark-submit reads $SPARK_CONF_DIR/spark-defaults.conf; qsg's own settings give way
    # to it, and a --conf given on the command line is set last, over everything. In a
    # process of its own: a session, once made, is every later getOrCreate's.
    (tmp_path / "spark-defaults.conf").write_text(
        "spark.sql.shuffle.partitions 5\nspark.sql.session.timeZone Europe/Paris\n"
    )
    program = (
        "from qsg.commands.pipeline.spark import parse_conf, spark_session\n"
        "s = spark_session('local[1]', conf=parse_conf(['spark.sql.session.timeZone=Asia/Tokyo',"
        " 'spark.sql.ansi.enabled=false']))\n"
        "keys = ['spark.sql.shuffle.partitions', 'spark.sql.session.timeZone',"
        " 'spark.sql.ansi.enabled', 'spark.ui.showConsoleProgress']\n"
        "print(*[s.conf.get(k) for k in keys])\n"
        "s.stop()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "SPARK_CONF_DIR": str(tmp_path)},
        cwd=Path(__file__).parent.parent,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    # shuffle partitions: the file's 5 over qsg's 2; the time zone: --conf over the file;
    # a setting neither names: qsg's own (no progress bar).
    assert done.stdout.split() == ["5", "Asia/Tokyo", "false", "false"]


@pytest.mark.parametrize("master", ["lcoal[2]", "local[x]", "local[0]", "localhost:7077", "spark"])
@pytest.mark.parametrize("command", ["metrics", "chaos"])
@keeps(
    "docs/pipeline.md",
    "anything else Spark's master URLs do not take (`lcoal[2]`, `local[x]`) is a usage "
    "error naming it, before anything starts",
)
def test_a_master_spark_would_not_take_is_a_usage_error_naming_it(
    master: str, command: str, tmp_path: Path
):
    # Spark's "Master URLs": else its JVM prints a Java stack trace, then PySpark says
    # the gateway exited (or qsg's own int() of local[x] fails).
    target = str(tmp_path) if command == "metrics" else str(LEAN)
    done = CliRunner().invoke(main, [command, target, "--master", master])
    assert done.exit_code == 2
    assert f"{master}: not a Spark master URL" in done.output


@pytest.mark.parametrize(
    "master",
    [
        "local",
        "local[2]",
        "local[*]",
        "local[2,3]",
        "local[*,4]",
        "local-cluster[2,1,1024]",
        "spark://127.0.0.1:7077",
        "spark://a:7077,b:7077",
        "yarn",
        "k8s://https://10.0.0.1:6443",
    ],
)
@keeps(
    "docs/pipeline.md",
    "a Spark master: `local[N]`, `spark://host:7077`, `yarn`, `k8s://...` (default `local[*]`)",
)
def test_every_kind_of_master_url_spark_takes_is_taken(master: str):
    check_master(master)


@keeps("docs/pipeline.md", "A URL not `sc://...` is a usage error")
def test_a_remote_that_is_not_an_sc_url_is_a_usage_error(tmp_path: Path):
    # PySpark would take "localhost:15002" for a local master and start a JVM.
    done = CliRunner().invoke(main, ["metrics", str(tmp_path), "--remote", "localhost:15002"])
    assert done.exit_code == 2
    assert "localhost:15002: a Spark Connect URL is sc://HOST:PORT" in done.output


@keeps(
    "docs/pipeline.md",
    "a port that refuses, or does not answer the HTTP/2 preface (as a gRPC server does at"
    " once) within 10 s, is one line (`cannot reach Spark Connect at ...`)",
)
def test_a_connect_server_that_refuses_is_one_line_not_minutes_of_retries(tmp_path: Path):
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    run = _small_run(tmp_path)
    url = f"sc://127.0.0.1:{port}"
    done = CliRunner().invoke(main, ["metrics", str(run), "--remote", url])
    assert done.exit_code == 1
    assert done.output.strip().startswith(f"error cannot reach Spark Connect at {url}: ")
    assert len(done.output.strip().splitlines()) == 1


@keeps(
    "docs/pipeline.md",
    "a port that refuses, or does not answer the HTTP/2 preface (as a gRPC server does at"
    " once) within 10 s, is one line (`cannot reach Spark Connect at ...`)",
)
def test_a_connect_server_that_accepts_and_never_answers_is_one_line_after_its_seconds(
    silent_port: int,
):
    # A port that takes the connection and says nothing back (a wrong service, a hung
    # server): PySpark's client would retry for ten minutes; a gRPC server answers the
    # HTTP/2 preface with its SETTINGS at once (the cluster tests start a real one).
    url = f"sc://127.0.0.1:{silent_port}"
    with pytest.raises(ValueError, match=rf"^cannot reach Spark Connect at {url}: no answer"):
        check_remote(url, seconds=0.5)


def test_a_report_of_a_directory_holding_only_stored_tables_is_not_refused_as_runless(
    tmp_path: Path,
):
    from qsg.commands.pipeline.command import _check_runs

    (tmp_path / "nov" / "metrics" / "runs").mkdir(parents=True)  # qsg metrics --out nov/metrics
    _check_runs(str(tmp_path / "nov"), stored=True)  # qsg report nov: read what is stored
    with pytest.raises(SystemExit):
        _check_runs(str(tmp_path / "nov"))  # qsg metrics nov: no run to compute from


def test_a_report_out_in_a_missing_directory_is_one_line_before_spark_starts(tmp_path: Path):
    run = _small_run(tmp_path)
    done = CliRunner().invoke(main, ["report", str(run), "--out", str(tmp_path / "no" / "r.html")])
    assert done.exit_code == 1
    assert (
        done.output.strip()
        == f"error --out {tmp_path / 'no' / 'r.html'}: no directory {tmp_path / 'no'}"
    )


def test_metrics_out_that_is_a_file_is_one_line_before_spark_starts(tmp_path: Path):
    run = _small_run(tmp_path)
    (tmp_path / "capacity.toml").write_text("")
    done = CliRunner().invoke(main, ["metrics", str(run), "--out", str(tmp_path / "capacity.toml")])
    assert done.exit_code == 1
    assert done.output.strip() == (
        f"error --out {tmp_path / 'capacity.toml'}: a file, not a directory for the tables"
    )


def _small_run(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    small = Path(__file__).parent / "data" / "pipeline-small.toml"
    played = CliRunner().invoke(main, ["run", str(small), "--out", str(run), "--no-progress"])
    assert played.exit_code == 0
    return run
