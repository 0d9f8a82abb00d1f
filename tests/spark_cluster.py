"""Real Spark for the cluster tests, started from the pyspark package's own scripts and
bound to 127.0.0.1: a standalone master with two one-core workers, and a Spark Connect
server. Each is a process group of its own, stopped (and waited for) at the end."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pyspark

SPARK_HOME = Path(pyspark.__file__).parent
#: Seconds a master, worker or server has to come up (a loaded 2-core machine is slow).
START = 240


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _env(log_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        SPARK_HOME=str(SPARK_HOME),
        PYSPARK_PYTHON=sys.executable,
        SPARK_LOCAL_IP="127.0.0.1",
        SPARK_LOG_DIR=str(log_dir),
        SPARK_WORKER_DIR=str(log_dir / "work"),
        # The master's and workers' own JVMs (not the driver's nor the executors'): they
        # register, schedule and launch, so C1 alone starts them sooner (qsg's lean
        # driver does the same, qsg.commands.pipeline.jvm).
        SPARK_DAEMON_JAVA_OPTS="-XX:TieredStopAtLevel=1",
    )
    return env


@contextmanager
def _process(args: list[str], log: Path, env: dict[str, str]) -> Iterator[subprocess.Popen[bytes]]:
    with log.open("wb") as out:
        process = subprocess.Popen(
            args, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
    try:
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def _wait(ready: object, what: str, log: Path, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + START
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited {process.returncode}: {log.read_text()[-2000:]}")
        try:
            if ready():  # type: ignore[operator]
                return
        except OSError:
            pass
        time.sleep(1)
    raise RuntimeError(f"{what} not ready after {START} s: {log.read_text()[-2000:]}")


@contextmanager
def standalone(log_dir: Path, workers: int = 2) -> Iterator[str]:
    """A standalone master and ``workers`` one-core workers; yields the master's URL."""
    log_dir.mkdir(parents=True, exist_ok=True)
    env = _env(log_dir)
    port, ui = free_port(), free_port()
    spark_class = str(SPARK_HOME / "bin" / "spark-class")
    url = f"spark://127.0.0.1:{port}"
    with ExitStack() as stack:
        args = [
            spark_class,
            "org.apache.spark.deploy.master.Master",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--webui-port",
            str(ui),
        ]
        master = stack.enter_context(_process(args, log_dir / "master.log", env))

        def alive() -> int:
            with urllib.request.urlopen(f"http://127.0.0.1:{ui}/json/", timeout=5) as r:
                return int(json.load(r).get("aliveworkers", 0))

        _wait(lambda: alive() >= 0, "the master", log_dir / "master.log", master)
        # The workers start together (each JVM's start-up is most of its wait), then
        # the master is asked until it counts them all.
        started: list[tuple[Path, subprocess.Popen[bytes]]] = []
        for i in range(workers):
            log = log_dir / f"worker{i}.log"
            worker = stack.enter_context(
                _process(
                    [
                        spark_class,
                        "org.apache.spark.deploy.worker.Worker",
                        url,
                        "--host",
                        "127.0.0.1",
                        "--cores",
                        "1",
                        "--memory",
                        "1g",
                        "--webui-port",
                        str(free_port()),
                        "--work-dir",
                        str(log_dir / f"work{i}"),
                    ],
                    log,
                    env,
                )
            )
            started.append((log, worker))
        for i, (log, worker) in enumerate(started):
            _wait(lambda: alive() >= workers, f"worker {i}", log, worker)
        yield url


@contextmanager
def connect_server(log_dir: Path) -> Iterator[str]:
    """A Spark Connect server on ``local[2]``; yields its ``sc://`` URL."""
    log_dir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    log = log_dir / "connect.log"
    args = [
        str(SPARK_HOME / "bin" / "spark-submit"),
        "--class",
        "org.apache.spark.sql.connect.service.SparkConnectServer",
        "--master",
        "local[2]",
        "--conf",
        "spark.connect.grpc.binding.address=127.0.0.1",
        "--conf",
        f"spark.connect.grpc.binding.port={port}",
        "--conf",
        "spark.ui.enabled=false",
        "--conf",
        "spark.task.maxFailures=1",
        "--conf",
        f"spark.pyspark.python={sys.executable}",
        "spark-internal",
    ]
    with _process(args, log, _env(log_dir)) as server:

        def listening() -> bool:
            with socket.create_connection(("127.0.0.1", port), timeout=2):
                return True

        _wait(listening, "the Spark Connect server", log, server)
        yield f"sc://127.0.0.1:{port}"
