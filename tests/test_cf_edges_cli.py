"""``qsg run`` against a coupling facility that misbehaves (issue 26): whatever the
server does, the command ends within a bound, exits 1 and says why in one line, never
a traceback, never the server's password. A run that reached its end but whose
facility failed with no fault scheduled is not a success either.

Each runs the real command in a subprocess (its timeout is the bound) against a real
server the test starts; the URL goes by QSG_REDIS_URL, as a user should pass a
password.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from coupling import keys
from coupling.server import URL_VARIABLE, EmbeddedServer, free_port
from coupling.transport import BlockingTransport
from tests.claims import keeps

ROOT = Path(__file__).resolve().parent.parent
BOUND = 120  # wall seconds for one command (a loaded machine; it takes a few)

SCENARIO = """
description = "payments on one shared queue"
[run]
duration = {duration}
seed = 1
clock = "{clock}"
[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = "DEFINE QLOCAL(APP.PAYMENTS) QSGDISP(SHARED) CFSTRUCT(APP1)"
[qsg.QSG1.structures.APP1]
size_kb = 1048576
cflevel = 5
[[workload]]
name = "payer"
type = "putter"
qmgr = "QM1"
queue = "APP.PAYMENTS"
rate = {rate}
size = 4096
"""


def scenario(
    tmp_path: Path, *, duration: float = 20, clock: str = "virtual", rate: int = 50
) -> Path:
    path = tmp_path / "payments.toml"
    path.write_text(SCENARIO.format(duration=duration, clock=clock, rate=rate))
    return path


def start_run(path: Path, url: str, out: Path | None = None) -> subprocess.Popen[str]:
    command = [
        sys.executable,
        "-c",
        "from qsg.commands.cli import main; main()",
        "run",
        str(path),
        "--no-progress",
    ]
    if out is not None:
        command += ["--out", str(out)]
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env={**os.environ, URL_VARIABLE: url},
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def ended(run: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = run.communicate(timeout=BOUND)
    return run.returncode, out, err


def the_one_line(err: str) -> str:
    """The run's failure line: exactly one, and no traceback anywhere."""
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith("the run failed:")]
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.slow
@keeps(
    "docs/coupling-facility.md",
    "accepts and never answers, or stops answering mid-run | MQRC_CF_STRUC_FAILED (2373) after "
    "`socket_timeout`",
)
def test_a_silent_server_ends_the_run_with_one_line(silent_port: int, tmp_path: Path) -> None:
    url = f"redis://127.0.0.1:{silent_port}/0?socket_timeout=1&socket_connect_timeout=1"
    code, _, err = ended(start_run(scenario(tmp_path), url))
    assert code == 1
    assert the_one_line(err) == (
        f"the run failed: CFConnectionError: the coupling facility at 127.0.0.1:{silent_port}"
        " did not answer within 1 s (socket_timeout)"
    )


@pytest.mark.slow
@keeps(
    "docs/coupling-facility.md",
    "a server that cannot be reached fails the run with exit code 1 and one line saying so.",
)
def test_a_server_nobody_listens_for_ends_the_run_with_one_line(tmp_path: Path) -> None:
    port = free_port()  # nothing listens there
    code, _, err = ended(start_run(scenario(tmp_path), f"redis://qsg:s3cret@127.0.0.1:{port}/0"))
    assert code == 1
    line = the_one_line(err)
    unreachable = f"cannot reach the coupling facility at 127.0.0.1:{port}:"
    assert line.startswith(f"the run failed: CFConnectionError: {unreachable}")
    assert "s3cret" not in err


@pytest.mark.slow
def test_rediss_to_a_server_without_tls_ends_the_run_with_one_line(
    tcp_server: EmbeddedServer,
    tmp_path: Path,
) -> None:
    url = tcp_server.url.replace("redis://", "rediss://") + "?socket_connect_timeout=2"
    code, out, err = ended(start_run(scenario(tmp_path), url))
    assert code == 1
    line = the_one_line(err)
    assert line.startswith("the run failed: CFConnectionError: ")
    assert "TLS handshake" in line
    assert tcp_server.password not in out + err


@pytest.mark.slow
@keeps(
    "docs/coupling-facility.md",
    "The summary's Faults table shows each unscheduled one as `cf_failed`",
)
@keeps(
    "docs/coupling-facility.md",
    "The URL's password never appears in a message, a summary, `run.json` or the event log",
)
def test_a_full_server_makes_puts_fail_with_2192_and_the_run_exit_1(
    tcp_server: EmbeddedServer,
    tmp_path: Path,
) -> None:
    admin = BlockingTransport(tcp_server.url)
    used = int(admin.command("INFO", "memory")["used_memory"])
    admin.command("CONFIG", "SET", "maxmemory-policy", "noeviction")
    admin.command("CONFIG", "SET", "maxmemory", used + 1024 * 1024)
    out_dir = tmp_path / "out"
    code, out, err = ended(start_run(scenario(tmp_path, rate=200), tcp_server.url, out_dir))
    admin.command("CONFIG", "SET", "maxmemory", 0)
    admin.close()
    assert code == 1
    line = the_one_line(err)
    assert "no fault was scheduled: reason 2192: " in line
    assert "maxmemory" in line
    assert "cf_failed" in out  # the summary's faults table shows it
    written = "".join(p.read_text(errors="replace") for p in out_dir.glob("*.json"))
    events = pq.read_table(out_dir / "events.parquet")
    texts = [str(v) for c in events.columns if pa.types.is_string(c.type) for v in c.to_pylist()]
    assert any("maxmemory" in text for text in texts)  # the cf-failure event is there
    assert all(tcp_server.password not in text for text in [out, err, written, *texts])


def wait_for_the_run(server: EmbeddedServer, run: subprocess.Popen[str]) -> None:
    """Until the run has defined its structure on ``server`` (it is under way)."""
    admin = BlockingTransport(server.url)
    deadline = time.monotonic() + BOUND
    while not admin.command("EXISTS", keys.structure_key("QSG1", "APP1")):
        assert run.poll() is None and time.monotonic() < deadline, "the run never started"
        time.sleep(0.05)
    admin.close()
    time.sleep(0.5)  # a little of the run on the whole server


@pytest.mark.slow
@keeps(
    "docs/coupling-facility.md",
    "A run in which the facility failed and no fault was scheduled is not a success",
)
def test_the_server_killed_mid_run_makes_the_run_exit_1_with_one_line(
    tcp_server: EmbeddedServer,
    tmp_path: Path,
) -> None:
    run = start_run(scenario(tmp_path, duration=4, clock="wall"), tcp_server.url)
    wait_for_the_run(tcp_server, run)
    tcp_server.kill()
    code, out, err = ended(run)
    assert code == 1
    line = the_one_line(err)
    assert "the coupling facility failed at" in line
    assert "no fault was scheduled: reason 2373: " in line
    assert tcp_server.password not in out + err
    tcp_server.restart()  # for the fixture's stop


@keeps(
    "docs/scenarios.md",
    "1 with one line for a run that failed, or whose coupling facility failed with no "
    "fault scheduled to explain it",
)
@pytest.mark.slow
def test_the_server_restarted_empty_mid_run_is_recovered_and_the_run_exits_1(
    tcp_server: EmbeddedServer,
    tmp_path: Path,
) -> None:
    run = start_run(scenario(tmp_path, duration=5, clock="wall"), tcp_server.url)
    wait_for_the_run(tcp_server, run)
    tcp_server.kill()
    tcp_server.restart()
    code, out, err = ended(run)
    assert code == 1, err
    assert "no fault was scheduled: reason 2373: " in the_one_line(err)
    assert "KeyError" not in out + err
    admin = BlockingTransport(tcp_server.url)  # recovered: the run used it again after
    assert admin.command("EXISTS", keys.structure_key("QSG1", "APP1"))
    admin.close()


class _StartedError(Exception):
    """Raised by the recording Popen: the test has what it wanted."""


@keeps(
    "docs/coupling-facility.md",
    "qsg's own child processes (`qsg chaos --processes`'s members) get the URL by their "
    "environment, never on their command line.",
)
def test_chaos_processes_pass_the_url_by_environment_never_on_the_command_line(
    tcp_server: EmbeddedServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A member's command line is visible to every user of the machine (ps); its
    # environment only to its owner.
    from qsg.chaos import processes
    from qsg.scenario import load_scenario

    seen: list[tuple[list[str], dict[str, str]]] = []

    def recording_popen(command: list[str], **options: object) -> object:
        env = options.get("env")
        assert isinstance(env, dict)
        seen.append((command, env))
        raise _StartedError

    monkeypatch.setattr(processes.subprocess, "Popen", recording_popen)
    path = ROOT / "scenarios" / "chaos-processes.toml"
    with pytest.raises(_StartedError):
        processes.run_processes(
            path, load_scenario(path), 1, [], redis_url=tcp_server.url, directory=tmp_path
        )
    ((command, env),) = seen
    assert all(tcp_server.password not in part for part in command)
    assert env[URL_VARIABLE] == tcp_server.url
