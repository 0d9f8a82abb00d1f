"""The Spark session the pipeline runs on: ``local[*]`` unless told otherwise.

One builder for every entry point (``qsg metrics``, ``qsg sweep``, ``qsg report``, the
tests and the benchmark), so they all get the same settings: no web UI, few shuffle
partitions (the tables are small next to what Spark is sized for), UTC, quiet logs
(errors only, from the JVM's start: ``log4j2.properties`` beside this module), and
the workers' Python the driver's own (a cluster's workers need the same one installed:
docs/pipeline.md, "On a cluster").
"""

from __future__ import annotations

import functools
import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from qsg.core.errors import QSGError

DEFAULT_MASTER = "local[*]"
#: The driver's logging: errors only (see the file).
_LOG4J = Path(__file__).with_name("log4j2.properties")


def spark_session(
    master: str | None = None,
    *,
    remote: str | None = None,
    conf: Mapping[str, str] | None = None,
    app: str = "qsg",
    shuffle_partitions: int | None = None,
    java_options: str = "",
) -> Any:
    """A SparkSession on ``master`` (any Spark master URL; ``local[*]`` if neither it
    nor ``remote`` is given), or a Spark Connect session on ``remote``
    (``sc://host:port``; ``SPARK_REMOTE`` when neither is given), started if need be.

    ``conf`` (``--conf k=v``) is set last, over everything. qsg's own settings give way
    to ``spark-defaults.conf`` (``$SPARK_CONF_DIR`` or ``$SPARK_HOME/conf``), which
    spark-submit reads as usual. ``shuffle_partitions`` defaults to twice the cores of
    a ``local[N]`` master (8 otherwise): the shuffles are of runs and points, not of
    billions of rows. ``java_options`` go into the driver JVM's options after qsg's own
    (``qsg.commands.pipeline.jvm``: a lean JVM for a local ``qsg chaos``), and give way with them.
    """
    conf = dict(conf or {})
    if master is None and remote is None:
        remote = os.environ.get("SPARK_REMOTE") or None
    if remote is not None:
        return _connect(remote, conf, app, shuffle_partitions)
    master = master or DEFAULT_MASTER
    check_master(master)
    # A master named on the command line wins over SPARK_REMOTE in the environment, as
    # an option wins over a variable; PySpark itself would refuse the two together
    # (CANNOT_CONFIGURE_SPARK_CONNECT_MASTER).
    os.environ.pop("SPARK_REMOTE", None)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    if SparkSession.getActiveSession() is None:
        check_java()

    if shuffle_partitions is None:
        shuffle_partitions = 2 * _local_cores(master) if master.startswith("local") else 8
    log4j = f"-Dlog4j2.configurationFile={_LOG4J}"
    ours = {
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.shuffle.partitions": str(shuffle_partitions),
        "spark.sql.session.timeZone": "UTC",
        "spark.sql.adaptive.enabled": "true",
        # A table's partition directories (run=NAME) name runs: strings, even "007".
        "spark.sql.sources.partitionColumnTypeInference.enabled": "false",
        # Each run or sweep point is one task's: never let Spark run one twice on its own.
        "spark.task.maxFailures": "1",
        "spark.speculation": "false",
        # Quiet from the start: setLogLevel below comes after the JVM's start-up lines.
        "spark.driver.extraJavaOptions": " ".join(filter(None, [log4j, java_options])),
    }
    builder = SparkSession.builder.master(master).appName(app)
    defaults = spark_defaults()
    for key, value in ours.items():
        if key not in defaults:
            builder = builder.config(key, value)
    for key, value in conf.items():
        builder = builder.config(key, value)
    session = _keeping_sigint(builder.getOrCreate)
    session.sparkContext.setLogLevel("ERROR")
    return session


def _keeping_sigint(create: Callable[[], Any]) -> Any:
    """``create()``, SIGINT's handler left as it was. PySpark's SparkContext takes SIGINT
    for its own handler, which calls the JVM (to cancel every job) from inside the
    call the driver was making: py4j then logs its reentrant read's tracebacks, and
    Ctrl-C came out as forty lines instead of qsg's one (``qsg.commands.interrupts``).
    With Python's handler back, the driver's call ends in KeyboardInterrupt, the command
    ends, and the JVM (which ignores SIGINT) ends with the driver, its tasks with it."""
    # py4j logs the first two on the root logger, the last on its own (a logger's
    # filters see only what is logged on it, not what its children pass up).
    for logger in (logging.getLogger(), logging.getLogger("py4j.clientserver")):
        if _QUIET_INTERRUPT not in logger.filters:
            logger.addFilter(_QUIET_INTERRUPT)
    if threading.current_thread() is not threading.main_thread():
        return create()
    before = signal.getsignal(signal.SIGINT)
    session = create()
    signal.signal(signal.SIGINT, before)
    return session


def end_driver_jvm(seconds: float = 10.0) -> None:
    """End this process's Spark driver JVM, if PySpark started one, and wait for it: an
    interrupted command says its one line last, and a JVM still ending would write its
    tasks' ERROR stack traces to the same terminal after it (it ignores SIGINT, and
    ends only when it notices the driver is gone)."""
    pyspark = sys.modules.get("pyspark")
    if pyspark is None:
        return
    gateway = getattr(pyspark.SparkContext, "_gateway", None)
    process = getattr(gateway, "proc", None)
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class _QuietInterrupt(logging.Filter):
    """py4j logs a KeyboardInterrupt met during a call to the JVM, and the failure of
    the call after it on the link the interrupt closed, tracebacks and all, on the root
    logger: qsg tells of the interrupt itself, in one line (and of a call that failed
    otherwise, in one line too: the error reaches its caller all the same)."""

    QUIET = frozenset(
        {
            "KeyboardInterrupt while sending command.",
            "Exception while sending command.",
            # the link to a JVM the interrupt ended, closed as the driver ends
            "Exception occurred while shutting down connection",
        }
    )

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.msg in self.QUIET and f"{os.sep}py4j{os.sep}" in record.pathname)


_QUIET_INTERRUPT = _QuietInterrupt()


#: A master URL Spark takes (its "Master URLs" in "Submitting Applications"): local,
#: local[N], local[*], local[N,F], local-cluster[N,C,M], spark://, yarn, k8s://.
_MASTER = re.compile(
    r"local(\[(\*|[1-9]\d*)(,[1-9]\d*)?\])?|local-cluster\[\d+,\d+,\d+\]"
    r"|spark://\S+|yarn|k8s://\S+"
)
#: Seconds to wait for a Spark Connect server's port to accept a connection.
CONNECT_SECONDS = 10.0


def check_master(master: str) -> None:
    """ValueError naming ``master`` unless Spark takes it as a master URL (before its
    JVM starts: else a Java stack trace and a gateway error say it)."""
    if not _MASTER.fullmatch(master):
        raise ValueError(
            f"--master {master}: not a Spark master URL "
            "(local, local[N], local[*], spark://HOST:PORT, yarn, k8s://URL)"
        )


#: What an HTTP/2 client says first (RFC 9113, "HTTP/2 Connection Preface"): the
#: preface, then an empty SETTINGS frame. A gRPC server (Spark Connect's) answers with
#: its own SETTINGS frame at once.
_HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])


def check_remote_url(remote: str) -> None:
    """ValueError naming ``remote`` unless it is an ``sc://HOST[:PORT]`` URL."""
    parts = urlsplit(remote)
    if parts.scheme != "sc" or not parts.hostname:
        raise ValueError(f"--remote {remote}: a Spark Connect URL is sc://HOST:PORT")


def check_remote(remote: str, seconds: float = CONNECT_SECONDS) -> None:
    """ValueError naming ``remote`` unless it is an ``sc://HOST[:PORT]`` URL whose port
    (15002 unless given) accepts a connection and answers HTTP/2 within ``seconds``
    (over TLS, ``use_ssl=true`` or a ``token``: accepts). The Connect client itself
    retries a server that refuses or stays silent for ten minutes, saying nothing."""
    check_remote_url(remote)
    parts = urlsplit(remote)
    tls = any(p in remote.lower() for p in (";use_ssl=true", ";token="))
    try:
        port = parts.port or 15002
        with socket.create_connection((parts.hostname, port), timeout=seconds) as server:
            if not tls:
                server.sendall(_HTTP2_PREFACE)
                if not server.recv(9):
                    raise ConnectionError("it closed the connection (not a gRPC server?)")
    except (OSError, ValueError) as error:
        why = str(error) or "unreachable"
        if isinstance(error, TimeoutError):
            why = f"no answer within {seconds:g} s"
        raise ValueError(f"cannot reach Spark Connect at {remote}: {why}") from None


def _connect(remote: str, conf: dict[str, str], app: str, shuffle_partitions: int | None) -> Any:
    """A Spark Connect session: only runtime SQL settings can be set from here (the
    server was started with the rest)."""
    from pyspark.sql import SparkSession

    check_remote(remote)

    builder = SparkSession.builder.remote(remote).appName(app)
    ours = {
        "spark.sql.session.timeZone": "UTC",
        "spark.sql.sources.partitionColumnTypeInference.enabled": "false",
    }
    if shuffle_partitions is not None:
        ours["spark.sql.shuffle.partitions"] = str(shuffle_partitions)
    for key, value in {**ours, **conf}.items():
        builder = builder.config(key, value)
    return builder.getOrCreate()


def spark_defaults() -> dict[str, str]:
    """The settings of ``spark-defaults.conf`` (``$SPARK_CONF_DIR``, else
    ``$SPARK_HOME/conf``): a key, blanks, its value, a line each; ``#`` comments."""
    where = os.environ.get("SPARK_CONF_DIR") or (
        str(Path(os.environ["SPARK_HOME"]) / "conf") if os.environ.get("SPARK_HOME") else ""
    )
    path = Path(where) / "spark-defaults.conf" if where else None
    if path is None or not path.is_file():
        return {}
    found: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        setting = _PROPERTY.match(line.strip())
        if setting and not setting[1].startswith(("#", "!")):
            found[setting[1]] = setting[2].strip()
    return found


#: A line of a Java properties file (as Spark reads spark-defaults.conf): the key, then
#: ``=``, ``:`` or blanks, then the value.
_PROPERTY = re.compile(r"^([^\s=:]+)\s*[=:\s]\s*(.*)$")


def parse_conf(settings: Iterable[str]) -> dict[str, str]:
    """``--conf`` values, ``KEY=VALUE`` each, as a dict (ValueError naming the first
    that is not)."""
    found: dict[str, str] = {}
    for setting in settings:
        key, equals, value = setting.partition("=")
        if not equals or not key.strip():
            raise ValueError(f"--conf {setting}: expected KEY=VALUE (spark.executor.memory=2g)")
        found[key.strip()] = value
    return found


def is_connect(spark: Any) -> bool:
    """Whether ``spark`` is a Spark Connect session (no SparkContext, no JVM here)."""
    return type(spark).__module__.startswith("pyspark.sql.connect")


def parallelism(spark: Any) -> int:
    """How many tasks Spark runs at once: the cores of a classic session's executors;
    over Spark Connect, the server's ``spark.default.parallelism`` if set, else its
    shuffle partitions."""
    if not is_connect(spark):
        return int(spark.sparkContext.defaultParallelism)
    for key in ("spark.default.parallelism", "spark.sql.shuffle.partitions"):
        value = spark.conf.get(key, None)
        if value:
            return max(1, int(value))
    return 2


class JavaMissingError(QSGError, RuntimeError):
    """No Java 17 or newer to start Spark with: the message says what was found."""


#: The oldest Java the pinned Spark runs on.
JAVA_NEEDED = 17


def java_path() -> str | None:
    """The java Spark would start: ``$JAVA_HOME/bin/java``, else ``java`` on PATH (None if
    there is none)."""
    home = os.environ.get("JAVA_HOME")
    java = str(Path(home) / "bin" / "java") if home else shutil.which("java")
    return java if java is not None and Path(java).exists() else None


def check_java() -> str:
    """Java's version (``17.0.15``; empty for an unusual banner); ``JavaMissingError``
    unless the Java Spark would start (``java_path``) is version 17 or newer: without it
    PySpark fails with a traceback about its gateway."""
    needs = f"the Spark pipeline needs Java {JAVA_NEEDED} or newer"
    home = os.environ.get("JAVA_HOME")
    java = java_path()
    if java is None:
        where = (
            f"JAVA_HOME is {home}, with no bin/java"
            if home
            else ("no java on PATH and JAVA_HOME is not set")
        )
        raise JavaMissingError(f"{needs}: {where}")
    try:
        banner = _banner(java)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise JavaMissingError(f"{needs}: {java} -version: {error}") from None
    found = re.search(r'version "((\d+)(?:\.(\d+))?[^"]*)"', banner)
    if found is None:
        return ""  # an unusual banner: let Spark try
    major = int(found[3]) if found[2] == "1" and found[3] else int(found[2])  # "1.8" is 8
    if major < JAVA_NEEDED:
        raise JavaMissingError(f"{needs}; {java} is Java {major}")
    return found[1]


@functools.lru_cache(maxsize=8)
def _banner(java: str) -> str:
    """``java -version``'s words, asked once per java a process (``qsg chaos`` on a local
    master asks twice: for the lean JVM's archive name, then before Spark starts)."""
    said = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=60)
    return said.stderr + said.stdout


def _local_cores(master: str) -> int:
    inside = master[len("local") :].strip("[]").split(",")[0]
    if inside in ("", "*"):
        return os.cpu_count() or 1
    return max(1, int(inside))


__all__ = [
    "DEFAULT_MASTER",
    "JavaMissingError",
    "check_java",
    "check_master",
    "check_remote",
    "check_remote_url",
    "is_connect",
    "java_path",
    "parallelism",
    "parse_conf",
    "spark_defaults",
    "spark_session",
]
