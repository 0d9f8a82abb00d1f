"""``qsg serve`` started as a user starts it, for the REST API's tests: the command in
a subprocess on a free port, its URL read from the line it prints once it listens."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_URL = re.compile(r" on (https?://\S+?)[ ,]")
#: The users file of docs/rest.md's "Security" (one user of each of mqweb's roles), for
#: the tests that serve with ``--users``.
USERS = """
[users.mqadmin]
password = "mqadmin"
role = "MQWebAdmin"

[users.reader]
password = "reader"
role = "MQWebAdminRO"

[users.app]
password = "appPassword"
roles = ["MQWebUser"]
"""


@dataclass
class Server:
    """A running ``qsg serve``: its base URL and process."""

    url: str
    process: subprocess.Popen[str]
    log: Path

    def output(self) -> str:
        return self.log.read_text()


@contextmanager
def serving(scenario: Path, *args: str, timeout: float = 60.0) -> Iterator[Server]:
    """``qsg serve SCENARIO --port 0 ARGS`` until the block ends (then SIGINT, as a
    Ctrl-C, and the process waited for)."""
    log = scenario.with_suffix(".log")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "qsg.commands.cli", "serve", str(scenario), "--port", "0"]
    with log.open("w") as out:
        process = subprocess.Popen(
            [*command, *args], stdout=out, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT
        )
    try:
        deadline = time.monotonic() + timeout
        while True:
            found = _URL.search(log.read_text())
            if found:
                break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"qsg serve did not start:\n{log.read_text()}")
            time.sleep(0.1)
        yield Server(found.group(1), process, log)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


__all__ = ["USERS", "Server", "serving"]
