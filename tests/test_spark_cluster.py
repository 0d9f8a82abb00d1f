"""docs/pipeline.md's standalone cluster works as written: a master and a worker started
with ``spark-class`` from the pyspark wheel (it has no sbin scripts), and ``qsg metrics
--master spark://...`` runs its job's tasks on that worker. Slow: two JVMs and a job.

Spark, "Spark Standalone Mode": a master (``org.apache.spark.deploy.master.Master``)
and workers (``org.apache.spark.deploy.worker.Worker MASTER-URL``) started by hand.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.test_event_log import SMALL

BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(port: int, process: subprocess.Popen[bytes], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert process.poll() is None, f"the daemon ended with {process.returncode}"
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(1)
    pytest.fail(f"nothing listened on {port} within {seconds:g} s")


@pytest.mark.slow
def test_qsg_metrics_runs_on_a_standalone_master_and_worker_from_the_wheel(
    tmp_path: Path,
) -> None:
    scenario = tmp_path / "small.toml"
    scenario.write_text(SMALL.replace("duration = 20", "duration = 5"))
    subprocess.run([str(BIN / "qsg"), "run", str(scenario), "--no-progress", "--out",
                    str(tmp_path / "runs" / "small")], check=True, capture_output=True,
                   timeout=600)  # fmt: skip
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
           "SPARK_LOG_DIR": str(tmp_path / "logs"), "SPARK_WORKER_DIR": str(tmp_path / "work")}
    port, work = free_port(), tmp_path / "work"
    master_url = f"spark://127.0.0.1:{port}"
    daemons: list[subprocess.Popen[bytes]] = []
    try:
        master = subprocess.Popen(["spark-class", "org.apache.spark.deploy.master.Master",
                                   "--host", "127.0.0.1", "--port", str(port),
                                   "--webui-port", str(free_port())], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        daemons.append(master)
        wait_for(port, master, 600)
        daemons.append(subprocess.Popen(
            ["spark-class", "org.apache.spark.deploy.worker.Worker", master_url, "--cores", "1",
             "--memory", "1g", "--work-dir", str(work), "--webui-port", str(free_port())],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        ))  # fmt: skip
        done = subprocess.run([str(BIN / "qsg"), "metrics", str(tmp_path / "runs"), "--master",
                               master_url], env=env, capture_output=True, text=True,
                              timeout=1800)  # fmt: skip
        assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
        assert "tables written" in done.stdout
        assert list(work.glob("app-*/*/stderr")), "no executor of the job ran on the worker"
        assert (tmp_path / "runs" / "metrics" / "latency").is_dir()
    finally:
        for daemon in reversed(daemons):
            daemon.terminate()
            daemon.wait(timeout=60)
