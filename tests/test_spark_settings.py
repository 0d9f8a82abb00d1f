"""Where Spark is and how it is set: ``--master``, ``--remote``, ``--conf KEY=VALUE`` and
``spark-defaults.conf`` (read as spark-submit reads it: a Java properties file)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from qsg.cli import main
from qsg.pipeline.spark import parse_conf, spark_defaults


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


def test_spark_defaults_conf_wins_over_qsgs_settings_and_conf_wins_over_both(tmp_path: Path):
    # spark-submit reads $SPARK_CONF_DIR/spark-defaults.conf; qsg's own settings give way
    # to it, and a --conf given on the command line is set last, over everything. In a
    # process of its own: a session, once made, is every later getOrCreate's.
    (tmp_path / "spark-defaults.conf").write_text(
        "spark.sql.shuffle.partitions 5\nspark.sql.session.timeZone Europe/Paris\n"
    )
    program = (
        "from qsg.pipeline.spark import parse_conf, spark_session\n"
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
