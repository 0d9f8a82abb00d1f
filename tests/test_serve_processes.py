"""``qsg chaos --processes --rest``: each member's OS process serves its own queue
manager's REST API, as each mqweb serves its own queue managers, and a SIGKILLed
member's new life serves the same port again."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from coupling.server import free_port
from qsg.chaos import processes
from qsg.scenario import load_scenario
from tests.claims import keeps
from tests.serving import ROOT

SCENARIO = """
description = "REST across processes"
[run]
duration = 40
seed = 1
clock = "wall"

[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = "DEFINE QLOCAL(DEV.QUEUE.1) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(1000)"

[qsg.QSG1.structures.APP1]
recover = true

[qmgr.QM1]
[qmgr.QM2]
"""
CSRF = {"ibm-mq-rest-csrf-token": ""}


def _answers(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/ibmmq/rest/v1/admin/qmgr", timeout=2).is_success
    except httpx.HTTPError:
        return False


def _until(condition: Callable[[], bool], seconds: float, failed: list[BaseException]) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert not failed, failed
        assert time.monotonic() < deadline, f"not within {seconds} s"
        time.sleep(0.1)


@keeps("docs/chaos.md", "each member's process serves its own queue manager's REST API")
@keeps("docs/chaos.md", "the new life of a killed member serves the same port again")
@keeps("docs/rest.md", "each member's process serves the REST API of its own queue manager alone")
@keeps("docs/chaos.md", "a request there for another member is 404 (MQWB0009E)")
@keeps("docs/chaos.md", "A message put through one member's port can be got through another's")
def test_each_member_process_serves_its_own_rest_api_and_serves_again_after_a_sigkill(
    tmp_path: Path,
) -> None:
    path = tmp_path / "rest-processes.toml"
    path.write_text(SCENARIO)
    scenario = load_scenario(path)
    ports = {"QM1": free_port(), "QM2": free_port()}
    kills = [processes.Kill(20.0, "QM2", 4.0)]  # late: a loaded machine starts slowly
    done: list[processes.ProcessRun] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            done.append(
                processes.run_processes(
                    path,
                    scenario,
                    1,
                    kills,
                    directory=tmp_path / "run",
                    rest_ports=ports,
                    member_module="qsg.commands.serve.member",
                )
            )
        except BaseException as error:  # re-raised in the test's thread
            failed.append(error)

    (tmp_path / "run").mkdir()
    coordinator = threading.Thread(target=run)
    coordinator.start()
    try:
        _until(lambda: _answers(ports["QM1"]) and _answers(ports["QM2"]), 60, failed)
        one = httpx.get(f"http://127.0.0.1:{ports['QM1']}/ibmmq/rest/v1/admin/qmgr").json()
        assert one == {"qmgr": [{"name": "QM1", "state": "running"}]}  # its own only
        other = httpx.get(f"http://127.0.0.1:{ports['QM1']}/ibmmq/rest/v1/admin/qmgr/QM2")
        assert other.status_code == 404 and other.json()["error"][0]["msgId"] == "MQWB0009E"
        put = httpx.post(
            f"http://127.0.0.1:{ports['QM1']}/ibmmq/rest/v3/messaging/qmgr/QM1/queue/DEV.QUEUE.1/message",
            headers={**CSRF, "Content-Type": "text/plain"},
            content="across processes",
        )
        assert put.status_code == 201, put.text
        got = httpx.delete(
            f"http://127.0.0.1:{ports['QM2']}/ibmmq/rest/v3/messaging/qmgr/QM2/queue/DEV.QUEUE.1/message",
            params={"wait": "2000"},
            headers=CSRF,
            timeout=10,
        )
        assert got.status_code == 200 and got.text == "across processes"  # one CF, two processes
        _until(lambda: not _answers(ports["QM2"]), 60, failed)  # the kill takes it down
        _until(lambda: _answers(ports["QM2"]), 60, failed)  # its next life serves the port
        assert _answers(ports["QM1"])  # never down
    finally:
        coordinator.join(120)
    assert not failed, failed
    (result,) = done
    assert [e.kind for e in result.events if e.kind in ("kill", "restart")] == ["kill", "restart"]
    assert all(code == 0 for code in result.exits.values()), result.exits


@keeps("docs/chaos.md", "the command prints each member's port on 127.0.0.1 first")
def test_qsg_chaos_processes_rest_prints_each_members_port_and_serves_it(tmp_path: Path) -> None:
    """The command as a user runs it: a run without kills (too short for one)."""
    path = tmp_path / "short.toml"
    path.write_text(SCENARIO.replace("duration = 40", "duration = 16"))
    command = [sys.executable, "-m", "qsg.commands.cli", "chaos", str(path), "--processes"]
    with subprocess.Popen(
        [*command, "--rest", "--runs", "1", "--seed", "3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"},
    ) as process:
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(3)]
        ports = dict(
            re.findall(r"^(QM\d): REST API on http://127\.0\.0\.1:(\d+)/", "".join(lines), re.M)
        )
        assert set(ports) == {"QM1", "QM2"}, lines
        _until(lambda: _answers(int(ports["QM1"])), 60, [])
        rest = process.stdout.read()
        assert process.wait(120) == 0, rest


def test_rest_needs_processes(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from qsg.commands.cli import main

    path = tmp_path / "s.toml"
    path.write_text(SCENARIO)
    result = CliRunner().invoke(main, ["chaos", str(path), "--rest"])
    assert result.exit_code == 2 and "--rest goes with --processes" in result.output


@pytest.mark.parametrize("port", [0])
def test_a_member_without_a_rest_port_serves_nothing(port: int) -> None:
    from qsg.commands.serve.member import serving

    layout = processes.Layout("x.toml", "QM1", "", 0.0, 1.0, 1, 1, {}, "x", rest_port=port)
    assert serving(layout) is None
