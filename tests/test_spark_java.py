"""The Spark pipeline's one prerequisite outside Python, Java 17 or newer: without it the
pipeline's commands say so in one line instead of PySpark's gateway traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from qsg.commands.cli import main
from qsg.commands.pipeline.spark import JavaMissingError, check_java
from tests.claims import keeps


def fake_java(tmp_path: Path, banner: str) -> Path:
    """A JAVA_HOME whose java prints ``banner`` as ``java -version`` does (on stderr)."""
    java = tmp_path / "bin" / "java"
    java.parent.mkdir(parents=True)
    java.write_text(f"#!/bin/sh\necho '{banner}' >&2\n")
    java.chmod(0o755)
    return tmp_path


@pytest.mark.parametrize(
    ("banner", "major"),
    [
        ('java version "1.8.0_292"', 8),
        ('openjdk version "11.0.2" 2019-01-15', 11),
    ],
)
@keeps("docs/pipeline.md", "Java 17 or newer is the one prerequisite of a local Spark.")
def test_a_java_older_than_17_is_named_with_its_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, banner: str, major: int
) -> None:
    monkeypatch.setenv("JAVA_HOME", str(fake_java(tmp_path, banner)))
    with pytest.raises(JavaMissingError, match=f"needs Java 17 or newer; .* is Java {major}$"):
        check_java()


def test_java_17_or_newer_passes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for version in ("17.0.15", "21"):
        home = fake_java(tmp_path / version, f'openjdk version "{version}" 2025-04-15')
        monkeypatch.setenv("JAVA_HOME", str(home))
        check_java()


def test_no_java_at_all_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(JavaMissingError, match="no java on PATH and JAVA_HOME is not set"):
        check_java()


@keeps("README.md", "without Java they say so in one line and exit 1")
def test_qsg_metrics_without_java_exits_1_in_one_line(tmp_path: Path) -> None:
    env = {"PATH": str(Path(sys.executable).parent), "JAVA_HOME": str(tmp_path / "none")}
    run = tmp_path / "run"
    small = Path(__file__).parent / "data" / "pipeline-small.toml"
    assert (
        CliRunner().invoke(main, ["run", str(small), "--out", str(run), "--no-progress"]).exit_code
        == 0
    )
    done = subprocess.run(
        [sys.executable, "-m", "qsg.commands.cli", "metrics", str(run)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 1, done
    assert done.stderr.strip().splitlines() == [
        f"error the Spark pipeline needs Java 17 or newer: JAVA_HOME is {tmp_path / 'none'},"
        " with no bin/java"
    ]
