"""A lean driver JVM for ``qsg chaos`` on a local master: Spark up in a third of the time.

A local campaign's Spark is one JVM (driver and executor) that schedules tasks and
moves a few thousand small rows: it needs Spark's classes loaded fast, not its hot
loops compiled well. So, for a local master only (a cluster's driver and executors
are not ours to tune), two options of the JVM (Oracle's "Java Virtual Machine Guide",
chapters "Class Data Sharing" and "HotSpot Virtual Machine Performance Enhancements"):

- ``-XX:TieredStopAtLevel=1``: the quick compiler (C1) only, none of C2's work;
- an AppCDS archive of the classes Spark loads (``-XX:SharedArchiveFile=``), mapped
  instead of read, verified and parsed from Spark's jars at every start. Java 17 makes
  one at exit (``-XX:ArchiveClassesAtExit=``): the first campaign writes it (about
  150 MB, some 15 s as its JVM exits), the next ones start from it. One per Spark, Java
  and Spark home, in ``$QSG_CACHE_DIR`` (default ``~/.cache/qsg``).

Measured on 2 cores (a session and a first job): 12.8 s as Spark ships, 4.2 s lean.

An archive is made under a lock (two campaigns starting together: the second runs
without one), into ``NAME.part``, moved into place once ``java -Xshare:on -version``
maps it (``sound``: a truncated archive crashes the JVM that maps it, SIGBUS). One
that fails is deleted and made again; a ``.part`` left by a maker that died is checked
the same way. An archive whose size and time are not those checked (``NAME.ok``) is
checked again.
``spark.driver.extraJavaOptions`` given in ``--conf`` or ``spark-defaults.conf`` wins:
then qsg adds nothing.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from qsg.commands.pipeline.spark import JavaMissingError, check_java, java_path, spark_defaults

#: Where the archives go, if set (else ``~/.cache/qsg``).
CACHE_ENV = "QSG_CACHE_DIR"
#: The setting qsg's lean options go into, and that a user's own replaces.
DRIVER_OPTIONS = "spark.driver.extraJavaOptions"
#: C1 only: Spark's driver schedules, it does not crunch.
TIERED = "-XX:TieredStopAtLevel=1"
#: The archive's own warnings (classes it cannot hold: signed jars, old bytecode) unsaid:
#: they would land on stdout, which is the JSON alone under ``--json``.
QUIET = "-Xlog:cds*=error"
#: Seconds a JVM has to write its archive as it exits.
DUMP_SECONDS = 600


@dataclass
class LeanJvm:
    """The driver JVM's options for one start, and the archive its exit writes, if any.

    ``making``: this start writes that archive as its JVM exits (``finish`` waits for it,
    checks it and moves it into place); its lock is held until then.
    """

    options: str = ""
    making: Path | None = None
    java: str = "java"
    _lock: IO[bytes] | None = field(default=None, repr=False)

    def finish(self, spark: Any) -> Path | None:
        """If this start makes the archive: stop ``spark``, let its JVM exit and write it,
        check it, move it into place. The archive made (None if none or it failed)."""
        if self.making is None:
            return None
        try:
            _stop_jvm(spark)
            made = _adopt(self.java, _part(self.making), self.making)
        except (OSError, subprocess.SubprocessError):  # the campaign's report comes first
            return None
        finally:
            self.release()
        return self.making if made else None

    def release(self) -> None:
        """Let another campaign make the archive (the lock goes; idempotent)."""
        if self._lock is not None:
            self._lock.close()
            self._lock = None


def cache_dir() -> Path:
    """``$QSG_CACHE_DIR``, else ``~/.cache/qsg``."""
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "qsg")


def archive_name(spark_version: str, java_version: str, spark_home: str) -> str:
    """An archive holds one Spark's classes for one Java, from one place on disk (the
    class path is part of what a JVM checks before it maps an archive)."""
    where = hashlib.sha256(spark_home.encode()).hexdigest()[:10]
    return f"spark-{spark_version}-java{java_version}-{where}.jsa"


def lean_jvm(
    master: str | None,
    remote: str | None,
    conf: Iterable[str] = (),
    *,
    cache: Path | None = None,
) -> LeanJvm:
    """The lean options for a Spark about to start on ``master`` (nothing unless it is
    local, no ``--conf``/``spark-defaults.conf`` sets the driver's options, no Spark is
    running in this process, and Java is found)."""
    import pyspark
    from pyspark import SparkContext

    given = {setting.partition("=")[0].strip() for setting in conf}
    if (
        remote is not None
        or master is None
        or not master.startswith("local")
        or DRIVER_OPTIONS in given
        or DRIVER_OPTIONS in spark_defaults()
        or SparkContext._active_spark_context is not None
    ):
        return LeanJvm()
    java = java_path()
    try:
        version = check_java()
    except JavaMissingError:
        return LeanJvm()  # spark_session says so, in one line
    if java is None or not version:
        return LeanJvm()
    home = os.environ.get("SPARK_HOME") or str(Path(pyspark.__file__).parent)
    directory = cache or cache_dir()
    archive = directory / archive_name(pyspark.__version__, version, home)
    return archive_options(java, archive)


def archive_options(java: str, archive: Path) -> LeanJvm:
    """The options that map ``archive`` if it is there and sound; else, if no other
    campaign holds its lock, the options that make it (``LeanJvm.making``); else C1 only
    (also when the cache cannot be written: a campaign never fails for its cache).
    """
    if any(c.isspace() for c in str(archive)):  # Spark splits the options at blanks
        return LeanJvm(f"{TIERED} {QUIET}", java=java)
    try:
        return _archive_options(java, archive)
    except (OSError, subprocess.SubprocessError):
        return LeanJvm(f"{TIERED} {QUIET}", java=java)


def _archive_options(java: str, archive: Path) -> LeanJvm:
    if _checked(archive):
        return _mapping(java, archive)
    lock = _locked(archive)
    if lock is None:  # another campaign makes or checks it
        return LeanJvm(f"{TIERED} {QUIET}", java=java)
    if _adopt(java, archive, archive) or _adopt(java, _part(archive), archive):
        lock.close()
        return _mapping(java, archive)
    return LeanJvm(
        f"-XX:ArchiveClassesAtExit={_part(archive)} {TIERED} {QUIET}",
        making=archive,
        java=java,
        _lock=lock,
    )


def sound(java: str, archive: Path) -> bool:
    """Whether ``java`` maps ``archive`` whole. ``-Xshare:on`` makes any archive it
    cannot use an error (a bad header: exit 1; a truncated body: a crash, exit 134);
    ``-version`` runs without Spark's class path, so an archive that maps and only then
    finds the class path not its own ("shared class paths mismatch") is sound."""
    checks = ["-XX:ErrorFile=/dev/null", "-version"]  # no hs_err file where we are
    said = subprocess.run(
        [java, "-Xshare:on", f"-XX:SharedArchiveFile={archive}", *checks],
        capture_output=True,
        text=True,
        timeout=60,
    )
    mismatch = "shared class paths mismatch" in said.stdout + said.stderr
    return said.returncode == 0 or (said.returncode == 1 and mismatch)


def _mapping(java: str, archive: Path) -> LeanJvm:
    return LeanJvm(f"-XX:SharedArchiveFile={archive} {TIERED} {QUIET}", java=java)


def _part(archive: Path) -> Path:
    return archive.with_name(archive.name + ".part")


def _stamp(archive: Path) -> Path:
    return archive.with_name(archive.name + ".ok")


def _size_and_time(path: Path) -> str:
    found = path.stat()
    return f"{found.st_size} {found.st_mtime_ns}"


def _checked(archive: Path) -> bool:
    """Whether ``archive`` is the very file last checked sound (its size and time)."""
    try:
        return _stamp(archive).read_text() == _size_and_time(archive)
    except OSError:
        return False


def _adopt(java: str, found: Path, archive: Path) -> bool:
    """``found`` (the archive, or its ``.part``) as ``archive`` if sound, stamped; if not
    sound, deleted. Whether ``archive`` is now there. The caller holds the lock."""
    if not found.is_file():
        return False
    if not sound(java, found):
        found.unlink()
        return False
    os.replace(found, archive)
    _stamp(archive).write_text(_size_and_time(archive))
    return True


def _locked(archive: Path) -> IO[bytes] | None:
    """The archive's lock, held (None if another process holds it)."""
    archive.parent.mkdir(parents=True, exist_ok=True)
    lock = archive.with_name(archive.name + ".lock").open("ab")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        return None
    return lock


def _stop_jvm(spark: Any) -> None:
    """Stop ``spark`` and its JVM, and wait for the JVM to exit (writing its archive).
    PySpark's gateway JVM exits when its stdin closes (``PythonGatewayServer``)."""
    # PySpark's own handle on its JVM (no public one): this session's, never another's.
    gateway = getattr(getattr(spark, "sparkContext", None), "_gateway", None)
    spark.stop()
    process = getattr(gateway, "proc", None)
    if process is None:
        return
    if process.stdin is not None:
        process.stdin.close()
    process.wait(timeout=DUMP_SECONDS)


__all__ = [
    "CACHE_ENV",
    "DRIVER_OPTIONS",
    "LeanJvm",
    "archive_name",
    "archive_options",
    "cache_dir",
    "lean_jvm",
    "sound",
]
