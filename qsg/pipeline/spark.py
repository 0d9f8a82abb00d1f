"""The Spark session the pipeline runs on: ``local[*]`` unless told otherwise.

One builder for every entry point (``qsg metrics``, ``qsg sweep``, ``qsg report``, the
tests and the benchmark), so they all get the same settings: no web UI, few shuffle
partitions (the tables are small next to what Spark is sized for), UTC, quiet logs
(errors only, from the JVM's start: ``log4j2.properties`` beside this module), and
the workers' Python the driver's own (a cluster's workers need the same one installed:
see the README).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

DEFAULT_MASTER = "local[*]"
#: The driver's logging: errors only (see the file).
_LOG4J = Path(__file__).with_name("log4j2.properties")


def spark_session(master: str = DEFAULT_MASTER, *, app: str = "qsg",
                  shuffle_partitions: int | None = None) -> Any:  # fmt: skip
    """A SparkSession on ``master`` (any Spark master URL), started if need be.

    ``shuffle_partitions`` defaults to twice the cores of a ``local[N]`` master (8
    otherwise): the metrics' shuffles are of runs and queues, not of billions of rows.
    """
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    if SparkSession.getActiveSession() is None:
        check_java()

    if shuffle_partitions is None:
        shuffle_partitions = 2 * _local_cores(master) if master.startswith("local") else 8
    session = (
        SparkSession.builder.master(master).appName(app)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", str(shuffle_partitions))
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.adaptive.enabled", "true")
        # Each sweep point is one task: never let Spark run one twice on its own.
        .config("spark.task.maxFailures", "1")
        .config("spark.speculation", "false")
        # Quiet from the start: setLogLevel below comes after the JVM's start-up lines.
        .config("spark.driver.extraJavaOptions", f"-Dlog4j2.configurationFile={_LOG4J}")
        .getOrCreate()
    )  # fmt: skip
    session.sparkContext.setLogLevel("ERROR")
    return session


class JavaMissingError(RuntimeError):
    """No Java 17 or newer to start Spark with: the message says what was found."""


#: The oldest Java the pinned Spark runs on.
JAVA_NEEDED = 17


def check_java() -> None:
    """Raise ``JavaMissingError`` unless the Java Spark would start (``$JAVA_HOME/bin/java``,
    else ``java`` on PATH) is version 17 or newer: without it PySpark fails with a
    traceback about its gateway."""
    needs = f"the Spark pipeline needs Java {JAVA_NEEDED} or newer"
    home = os.environ.get("JAVA_HOME")
    java = str(Path(home) / "bin" / "java") if home else shutil.which("java")
    if java is None or not Path(java).exists():
        where = f"JAVA_HOME is {home}, with no bin/java" if home else (
            "no java on PATH and JAVA_HOME is not set")
        raise JavaMissingError(f"{needs}: {where}")
    try:
        said = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise JavaMissingError(f"{needs}: {java} -version: {error}") from None
    found = re.search(r'version "(\d+)(?:\.(\d+))?', said.stderr + said.stdout)
    if found is None:
        return  # an unusual banner: let Spark try
    major = int(found[2]) if found[1] == "1" and found[2] else int(found[1])  # "1.8" is 8
    if major < JAVA_NEEDED:
        raise JavaMissingError(f"{needs}; {java} is Java {major}")


def _local_cores(master: str) -> int:
    inside = master[len("local") :].strip("[]").split(",")[0]
    if inside in ("", "*"):
        return os.cpu_count() or 1
    return max(1, int(inside))


__all__ = ["DEFAULT_MASTER", "JavaMissingError", "check_java", "spark_session"]
