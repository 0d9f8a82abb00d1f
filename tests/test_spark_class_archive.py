"""The lean driver JVM of ``qsg chaos`` on a local master (issue 33): Spark's classes in
an AppCDS archive, made once under a lock, never mapped half-written (a truncated
archive crashes the JVM that maps it), and a user's own driver options left alone
(``qsg.commands.pipeline.jvm``)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from pyspark import SparkContext

from qsg.commands.pipeline import jvm
from qsg.commands.pipeline.jvm import TIERED, archive_options, lean_jvm, sound
from qsg.commands.pipeline.spark import java_path
from tests.claims import keeps


def fake_java(tmp_path: Path) -> str:
    """A java that says it is 17, counts the archives it is asked to map (``checks``),
    and crashes as a JVM does (exit 134) on an archive holding ``half``."""
    java = tmp_path / "bin" / "java"
    java.parent.mkdir(parents=True)
    java.write_text(
        "#!/bin/sh\n"
        'for a in "$@"; do case $a in -XX:SharedArchiveFile=*)\n'
        f"  echo x >> {tmp_path}/checks\n"
        '  grep -q half "${a#*=}" && exit 134;; esac; done\n'
        "echo 'openjdk version \"17.0.15\" 2025-04-15' >&2\n"
    )
    java.chmod(0o755)
    return str(java)


def checks(tmp_path: Path) -> int:
    found = tmp_path / "checks"
    return len(found.read_text().split()) if found.exists() else 0


class _Spark:
    """A session that has no JVM of its own to wait for."""

    stopped = False

    def stop(self) -> None:
        self.stopped = True


@keeps(
    "docs/pipeline.md",
    "It is made under a lock (a second campaign starting meanwhile runs without it)",
)
def test_the_archive_is_made_once_under_its_lock_and_a_second_start_meanwhile_goes_without(
    tmp_path: Path,
) -> None:
    java, archive = fake_java(tmp_path), tmp_path / "cache" / "spark.jsa"
    first = archive_options(java, archive)
    assert first.making == archive
    assert first.options == f"-XX:ArchiveClassesAtExit={archive}.part {TIERED} {jvm.QUIET}"
    second = archive_options(java, archive)  # another campaign, while the first runs
    assert second.making is None
    assert second.options == f"{TIERED} {jvm.QUIET}"
    archive.with_name("spark.jsa.part").write_text("sound")  # the first JVM's exit writes it
    spark = _Spark()
    assert first.finish(spark) == archive
    assert spark.stopped
    assert archive.read_text() == "sound"
    assert not archive.with_name("spark.jsa.part").exists()
    third = archive_options(java, archive)
    assert third.making is None
    assert third.options == f"-XX:SharedArchiveFile={archive} {TIERED} {jvm.QUIET}"


@keeps(
    "docs/pipeline.md",
    "The check is remembered (`.ok`: the archive's size and time) and made again if the "
    "file changes.",
)
def test_a_checked_archive_is_not_checked_again_until_it_changes(tmp_path: Path) -> None:
    java, archive = fake_java(tmp_path), tmp_path / "spark.jsa"
    archive.write_text("sound")
    assert "SharedArchiveFile" in archive_options(java, archive).options
    assert checks(tmp_path) == 1
    assert "SharedArchiveFile" in archive_options(java, archive).options
    assert checks(tmp_path) == 1  # its size and time are those checked: mapped at once
    archive.write_text("half, overwritten")
    remade = archive_options(java, archive)
    assert checks(tmp_path) == 2
    assert remade.making == archive
    assert not archive.exists()


@keeps(
    "docs/pipeline.md",
    "so one that fails the check, or a `.part` left by a campaign that was killed, is "
    "deleted and made again",
)
def test_a_half_written_archive_is_deleted_and_made_again(tmp_path: Path) -> None:
    java, archive = fake_java(tmp_path), tmp_path / "spark.jsa"
    archive.write_text("half")
    again = archive_options(java, archive)
    assert not archive.exists()
    assert again.making == archive
    assert again.options.startswith(f"-XX:ArchiveClassesAtExit={archive}.part ")


@pytest.mark.parametrize(("left", "adopted"), [("half", False), ("sound", True)])
@keeps(
    "docs/pipeline.md",
    "so one that fails the check, or a `.part` left by a campaign that was killed, is "
    "deleted and made again",
)
def test_a_part_left_by_a_maker_that_died_is_adopted_if_sound_and_deleted_if_not(
    tmp_path: Path, left: str, adopted: bool
) -> None:
    java, archive = fake_java(tmp_path), tmp_path / "spark.jsa"
    part = tmp_path / "spark.jsa.part"
    part.write_text(left)
    found = archive_options(java, archive)
    assert not part.exists()
    assert archive.exists() is adopted
    assert (found.making is None) is adopted


def test_a_made_archive_that_is_not_sound_is_deleted_not_kept(tmp_path: Path) -> None:
    java, archive = fake_java(tmp_path), tmp_path / "spark.jsa"
    making = archive_options(java, archive)
    archive.with_name("spark.jsa.part").write_text("half")  # the JVM died mid-write
    assert making.finish(_Spark()) is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bin", "checks", "spark.jsa.lock"]
    assert archive_options(java, archive).making == archive  # the lock was let go


def test_java_itself_refuses_a_truncated_archive_and_maps_a_whole_one(tmp_path: Path) -> None:
    java = java_path()
    assert java is not None
    whole = tmp_path / "whole.jsa"
    subprocess.run(
        [java, f"-XX:ArchiveClassesAtExit={whole}", "-Xlog:cds*=error", "-version"],
        capture_output=True,
        check=True,
        timeout=120,
    )
    assert sound(java, whole)
    data = whole.read_bytes()
    for size in (100, 1000, len(data) // 2):  # a header cut short; regions cut short
        cut = tmp_path / f"cut-{size}.jsa"
        cut.write_bytes(data[:size])
        assert not sound(java, cut), size
    garbage = tmp_path / "garbage.jsa"
    garbage.write_bytes(bytes(range(256)) * 64)
    assert not sound(java, garbage)
    assert not list(Path.cwd().glob("hs_err_pid*.log"))


@pytest.fixture
def no_spark_running(monkeypatch: pytest.MonkeyPatch) -> None:
    """As in a fresh ``qsg chaos`` (the suite's own Spark may be up in this process)."""
    monkeypatch.setattr(SparkContext, "_active_spark_context", None)
    monkeypatch.delenv("SPARK_CONF_DIR", raising=False)
    monkeypatch.delenv("SPARK_HOME", raising=False)


@pytest.mark.usefixtures("no_spark_running")
@keeps(
    "docs/pipeline.md",
    "`qsg chaos` starts it with `-XX:TieredStopAtLevel=1` (the quick compiler only)",
)
def test_a_local_master_gets_the_lean_jvm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JAVA_HOME", str(Path(fake_java(tmp_path)).parent.parent))
    lean = lean_jvm("local[2]", None, ["spark.executor.memory=2g"], cache=tmp_path / "cache")
    assert lean.making is not None
    assert lean.making.parent == tmp_path / "cache"
    assert lean.making.name.startswith("spark-") and "-java17.0.15-" in lean.making.name
    lean.release()


@pytest.mark.usefixtures("no_spark_running")
@pytest.mark.parametrize(
    ("master", "remote", "conf"),
    [
        ("local[2]", None, ["spark.driver.extraJavaOptions=-Dmine=1"]),
        ("spark://head:7077", None, []),
        (None, "sc://head:15002", []),
    ],
)
@keeps(
    "docs/pipeline.md",
    "a `spark.driver.extraJavaOptions` of your own (`--conf` or `spark-defaults.conf`) "
    "replaces them, and a cluster's or Spark Connect's JVMs are not touched",
)
def test_a_users_driver_options_or_a_spark_not_local_get_nothing_from_qsg(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    master: str | None,
    remote: str | None,
    conf: list[str],
) -> None:
    monkeypatch.setenv("JAVA_HOME", str(Path(fake_java(tmp_path)).parent.parent))
    lean = lean_jvm(master, remote, conf, cache=tmp_path / "cache")
    assert lean.options == ""
    assert lean.making is None
    assert not (tmp_path / "cache").exists()  # no lock taken, nothing made


@pytest.mark.usefixtures("no_spark_running")
@keeps(
    "docs/pipeline.md",
    "a `spark.driver.extraJavaOptions` of your own (`--conf` or `spark-defaults.conf`) "
    "replaces them",
)
def test_driver_options_in_spark_defaults_conf_are_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JAVA_HOME", str(Path(fake_java(tmp_path)).parent.parent))
    (tmp_path / "spark-defaults.conf").write_text("spark.driver.extraJavaOptions -Dmine=1\n")
    monkeypatch.setenv("SPARK_CONF_DIR", str(tmp_path))
    assert lean_jvm("local[2]", None, [], cache=tmp_path / "cache").options == ""


@keeps("docs/pipeline.md", "into `$QSG_CACHE_DIR` (default `~/.cache/qsg`)")
def test_a_cache_dir_comes_from_qsg_cache_dir_else_the_users_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("QSG_CACHE_DIR", str(tmp_path))
    assert jvm.cache_dir() == tmp_path
    monkeypatch.delenv("QSG_CACHE_DIR")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert jvm.cache_dir() == tmp_path / "home" / ".cache" / "qsg"


def test_a_cache_that_cannot_be_written_costs_the_archive_not_the_campaign(tmp_path: Path) -> None:
    java = fake_java(tmp_path)
    (tmp_path / "cache").write_text("a file where the cache directory would be")
    lean = archive_options(java, tmp_path / "cache" / "spark.jsa")
    assert lean.making is None
    assert lean.options == f"{TIERED} {jvm.QUIET}"
