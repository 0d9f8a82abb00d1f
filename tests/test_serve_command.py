"""``qsg serve`` at the command line: one line for bad input (never a traceback), the
clocks of ``--speed``, and Ctrl-C ending the run in order with its summary."""

from __future__ import annotations

import signal
import socket
import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner, Result

from qsg.commands.cli import main
from tests.claims import keeps
from tests.serving import serving

SCENARIO = """
description = "qsg serve's command tests"
[run]
duration = 3600
seed = 3
in_process = true

[qmgr.QM1]
mqsc = "DEFINE QLOCAL(DEV.QUEUE.1)"

[[workload]]
name = "orders"
type = "putter"
qmgr = "QM1"
queue = "DEV.QUEUE.1"
rate = 20
"""


def serve(*args: str) -> Result:
    """``qsg serve ARGS`` in process (what it refuses, it refuses before any run)."""
    return CliRunner().invoke(main, ["serve", *args])


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    path = tmp_path / "serve.toml"
    path.write_text(SCENARIO)
    return path


@pytest.mark.parametrize(
    ("users", "expected"),
    [
        ("[users.a]\npassword = 'p'\nrole = 'Boss'\n", "'Boss' is not a role"),
        ("[users.a]\nrole = 'MQWebAdmin'\n", "password must be a non-empty string"),
        ("[users.a]\npassword = 'p'\nrole = 'MQWebUser'\ncolour = 1\n", "unknown key 'colour'"),
        ("users = [", "not TOML"),
        ("[other]\n", "unknown key 'other'"),
    ],
)
def test_a_users_file_qsg_cannot_use_is_one_line_and_exit_2(
    scenario: Path, tmp_path: Path, users: str, expected: str
) -> None:
    file = tmp_path / "users.toml"
    file.write_text(users)
    done = serve(str(scenario), "--users", str(file), "--port", "0")
    assert done.exit_code == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0] and str(file) in lines[0]


@keeps(
    "docs/rest.md", "or the port cannot be listened on, each said in one line and nothing started"
)
def test_a_port_in_use_is_one_line_and_exit_2(scenario: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = serve(str(scenario), "--port", str(port))
    assert done.exit_code == 2
    assert done.stderr.strip().splitlines() == [
        f"qsg serve: cannot listen on 127.0.0.1:{port}: Address already in use"
    ]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--tls-cert", "x.pem"], "--tls-cert and --tls-key go together"),
        (["--speed", "0"], "must be a number above 0"),
        (["--speed", "nan"], "must be a number above 0"),
        (["--port", "70000"], "70000"),
    ],
)
def test_bad_options_are_one_line_each(scenario: Path, args: list[str], expected: str) -> None:
    done = serve(str(scenario), *args)
    assert done.exit_code == 2
    assert expected in done.stderr and "Traceback" not in done.stderr


def test_a_certificate_that_cannot_be_read_is_one_line(scenario: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.pem"
    bad.write_text("not a certificate")
    done = serve(str(scenario), "--port", "0", "--tls-cert", str(bad), "--tls-key", str(bad))
    assert done.exit_code == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"qsg serve: cannot use the certificate {bad}")


def test_a_scenario_with_problems_is_refused_as_qsg_run_refuses_it(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("[run]\nduration = -1\n")
    done = serve(str(path))
    assert done.exit_code == 2
    assert "broken.toml" in done.stderr and "Traceback" not in done.stderr


@keeps("docs/rest.md", "X simulated seconds for each real second")
def test_speed_runs_simulated_time_that_many_times_faster_than_real_time(scenario: Path) -> None:
    with serving(scenario, "--speed", "20") as server:
        first = httpx.get(f"{server.url}/console/state").json()
        time.sleep(1.0)
        second = httpx.get(f"{server.url}/console/state").json()
    simulated = second["simulated"] - first["simulated"]
    real = second["wall"] - first["wall"]
    assert second["speed"] == 20
    assert simulated == pytest.approx(20 * real, rel=0.2)


@keeps(
    "docs/rest.md", "then the run ends in order and its summary is printed, as `qsg run` prints it."
)
def test_ctrl_c_ends_the_run_in_order_with_its_summary_then_one_line_and_status_130(
    scenario: Path,
) -> None:
    with serving(scenario) as server:
        url = f"{server.url}/ibmmq/rest/v2/messaging/qmgr/QM1/queue/DEV.QUEUE.1/message"
        headers = {"ibm-mq-rest-csrf-token": "", "Content-Type": "text/plain"}
        assert httpx.post(url, headers=headers, content="before the end").status_code == 201
        server.process.send_signal(signal.SIGINT)
        status = server.process.wait(60)
        output = server.output()
    assert status == 130, output
    assert "Traceback" not in output
    assert "DEV.QUEUE.1" in output  # the summary's queue table
    assert output.rstrip().splitlines()[-1] == "interrupted (SIGINT)"


@keeps(
    "docs/rest.md",
    "or until the scenario's duration (`--duration` to change it) has passed in simulated time",
)
def test_the_run_ends_at_the_scenarios_duration_and_the_server_with_it(scenario: Path) -> None:
    with serving(scenario, "--duration", "2") as server:
        status = server.process.wait(60)
        output = server.output()
    assert status == 0, output
    assert "Traceback" not in output
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{server.url}/console/state")
