"""Interrupts (issue 43): a terminal's Ctrl-C (SIGINT to the command's whole process
group) or SIGTERM ends every command in one line, ``interrupted (SIGNAL)``, with the
shells' status for it (130, 143: 128 + the signal's number, as bash reports a command
a signal ended), never trio's exception groups; ``--out`` keeps what the run did, its
run.json ``interrupted``; the embedded coupling facility's server, in a session of its
own, hears nothing of the terminal's Ctrl-C and is stopped by its owner (docs/edges.md,
"Interrupts").

Each sends a real signal to a real ``qsg`` process the test starts in a process group of
its own (as a terminal runs a command), once the run is under way.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from coupling.server import URL_VARIABLE, EmbeddedServer
from tests.claims import keeps
from tests.terminal import foreground

ROOT = Path(__file__).resolve().parent.parent
BOUND = 120  # wall seconds for a command to start, or to end once signalled

#: A QSG whose shared queue lives on the embedded server, for longer than any test waits.
LONG = """
description = "payments on a shared queue, for as long as it takes to interrupt"
[run]
duration = 1000000
seed = 1
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
rate = 50
[[workload]]
name = "payee"
type = "getter"
qmgr = "QM2"
queue = "APP.PAYMENTS"
"""

#: A program that puts and sleeps until it is stopped.
LOOPING = """
import time, pymqi
q = pymqi.Queue(pymqi.connect("QM1"), "TEST.1")
print("started", flush=True)
while True:
    q.put(b"x")
    time.sleep(0.01)
"""


def long_scenario(tmp_path: Path) -> Path:
    path = tmp_path / "long.toml"
    path.write_text(LONG)
    return path


#: The commands a test started: any still running when it ends is killed, group and all.
_started: list[subprocess.Popen[str]] = []


@pytest.fixture(autouse=True)
def _no_command_left_running() -> Iterator[None]:
    yield
    while _started:
        process = _started.pop()
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()


def qsg(*args: str, **popen: object) -> subprocess.Popen[str]:
    """``qsg ARGS`` in a process group of its own (a terminal's foreground job), with
    the embedded server (no QSG_REDIS_URL)."""
    env = {k: v for k, v in os.environ.items() if k != URL_VARIABLE}
    then = popen.pop("preexec_fn", None)
    process: subprocess.Popen[str] = subprocess.Popen(
        [sys.executable, "-c", "from qsg.commands.cli import main; main()", *args],
        cwd=ROOT,
        env=env,
        text=True,
        stdin=subprocess.PIPE,  # left open: a console waits on it
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=foreground(then),  # type: ignore[arg-type]
        **popen,
    )
    _started.append(process)
    return process


def until(ready: Callable[[], bool], process: subprocess.Popen[str]) -> None:
    """Wait until ``ready()`` (the run is under way), the process still running."""
    deadline = time.monotonic() + BOUND
    while not ready():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the command never got under way"
        time.sleep(0.1)


def journal_written(out: Path) -> Callable[[], bool]:
    """The run's first events are in its journal (written a few kilobytes at a time)."""

    def ready() -> bool:
        journal = out / "events.journal"
        return journal.exists() and journal.stat().st_size > 0

    return ready


def interrupt(process: subprocess.Popen[str], sig: signal.Signals) -> tuple[int, str, str]:
    """``sig`` to the process's whole group (Ctrl-C's way); its status and output."""
    os.killpg(process.pid, sig)
    try:
        out, err = process.communicate(timeout=BOUND)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise
    return process.returncode, out, err


def servers_of(pid: int) -> list[tuple[int, Path]]:
    """The embedded servers process ``pid`` started: each one's process id and private
    directory (where its socket is: the server's title, which replaces its command
    line, names it, ``valkey-server unixsocket:DIR/cf.sock``)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            title = (entry / "cmdline").read_bytes().decode(errors="replace")
        except (OSError, IndexError, ValueError):
            continue
        if parent == pid and "valkey-server" in title and "unixsocket:" in title:
            socket = title.split("unixsocket:", 1)[1].split()[0].rstrip("\0")
            found.append((int(entry.name), Path(socket).parent))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


# ---- qsg run ------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize(("sig", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
@keeps(
    "docs/edges.md",
    "With `--out` the line says where the run is (`interrupted (SIGINT): what the run did until "
    "then is in DIR/`), and run.json says `interrupted`",
)
def test_qsg_run_interrupted_ends_in_one_line_and_keeps_the_events_so_far(
    tmp_path: Path, sig: signal.Signals, status: int
) -> None:
    out = tmp_path / "run"
    run = qsg("run", str(long_scenario(tmp_path)), "--no-progress", "--out", str(out))
    until(journal_written(out), run)
    ((server_pid, server),) = servers_of(run.pid)
    code, _, err = interrupt(run, sig)
    assert code == status
    assert err == f"interrupted ({sig.name}): what the run did until then is in {out}/\n"
    record = json.loads((out / "run.json").read_text())
    assert record["status"] == "interrupted" and record["error"] == [f"interrupted ({sig.name})"]
    assert record["events"] == pq.read_table(out / "events.parquet").num_rows > 0
    assert not (out / "events.journal").exists()
    # The server heard nothing of the Ctrl-C (the run did not end in "the coupling
    # facility failed ... 2373"); its owner stopped it, and removed its directory.
    assert not alive(server_pid) and not server.exists()


@pytest.mark.slow
@keeps("docs/edges.md", "| SIGINT (Ctrl-C) | `interrupted (SIGINT)` | 130 |")
def test_qsg_run_interrupted_without_out_says_so_in_one_line(tmp_path: Path) -> None:
    run = qsg("run", str(long_scenario(tmp_path)))
    assert run.stdout is not None
    until(lambda: bool(servers_of(run.pid)), run)
    time.sleep(2)  # the run itself under way
    code, _, err = interrupt(run, signal.SIGINT)
    assert (code, err) == (130, "interrupted (SIGINT)\n")


@pytest.mark.slow
@keeps(
    "docs/edges.md",
    "A command started with SIGINT ignored (a shell script's background job) keeps ignoring it "
    "and still ends on SIGTERM.",
)
def test_sigterm_ends_a_command_started_with_sigint_ignored_which_stays_ignored(
    tmp_path: Path,
) -> None:
    """A background job of a shell script starts with SIGINT ignored; `kill` (SIGTERM)
    must still end it, in order."""
    out = tmp_path / "run"
    ignoring = lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)  # noqa: E731
    run = qsg(
        "run",
        str(long_scenario(tmp_path)),
        "--no-progress",
        "--out",
        str(out),
        preexec_fn=ignoring,
    )
    until(journal_written(out), run)
    os.killpg(run.pid, signal.SIGINT)
    time.sleep(1)
    assert run.poll() is None  # ignored, as it was asked to be
    code, _, err = interrupt(run, signal.SIGTERM)
    assert code == 143 and err.startswith("interrupted (SIGTERM)")
    assert json.loads((out / "run.json").read_text())["status"] == "interrupted"


@pytest.mark.slow
@keeps(
    "docs/edges.md",
    "on Linux it dies with the process that started it, however that process ends (the "
    "parent-death signal, `prctl(PR_SET_PDEATHSIG)`), SIGKILL included. A directory such an "
    "owner left is removed by the next embedded server's start",
)
def test_the_embedded_server_of_a_qsg_run_killed_outright_goes_with_it(tmp_path: Path) -> None:
    run = qsg("run", str(long_scenario(tmp_path)), "--no-progress")
    until(lambda: bool(servers_of(run.pid)), run)
    ((server_pid, server),) = servers_of(run.pid)
    run.kill()  # SIGKILL: nothing of qsg's runs
    run.communicate(timeout=BOUND)
    deadline = time.monotonic() + 10
    while alive(server_pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(server_pid)  # the parent-death signal
    next_one = EmbeddedServer()
    next_one.start()  # the next start sweeps what the killed run left
    next_one.stop()
    assert not server.exists()


# ---- qsg exec -----------------------------------------------------------------------------
@pytest.mark.slow
@keeps(
    "docs/edges.md",
    "Under `qsg exec` the Ctrl-C reaches the program first, as under Python: a "
    "`KeyboardInterrupt` it may catch; if it does not, its traceback (its own frames) comes "
    "before the line.",
)
@keeps("docs/pymqi.md", "`interrupted (SIGINT)` on standard error, exit status 130")
def test_qsg_exec_interrupted_prints_the_programs_traceback_then_one_line(
    tmp_path: Path,
) -> None:
    out, program = tmp_path / "run", tmp_path / "looping.py"
    program.write_text(LOOPING)
    scenario = ROOT / "scenarios" / "exec-qsg.toml"
    run = qsg("exec", str(scenario), "--quiet", "--out", str(out), "--", "python", str(program))
    assert run.stdout is not None
    assert run.stdout.readline() == "started\n"
    time.sleep(1)
    code, _, err = interrupt(run, signal.SIGINT)
    assert code == 130
    assert err.endswith(f"interrupted (SIGINT): what the run did until then is in {out}/\n")
    # A Ctrl-C that lands in the program's own code is printed as Python prints it there,
    # its frames only; one that lands in qsg's machinery (the program waiting in a
    # call) is not the program's to print.
    traceback = err.removesuffix(err.splitlines()[-1] + "\n")
    assert traceback in (
        "",
        f'Traceback (most recent call last):\n  File "{program}", '
        "line 7, in <module>\n    time.sleep(0.01)\nKeyboardInterrupt\n",
    )
    assert json.loads((out / "run.json").read_text())["status"] == "interrupted"


@pytest.mark.slow
@keeps("docs/edges.md", "| SIGTERM | `interrupted (SIGTERM)` | 143 |")
@keeps("docs/pymqi.md", "SIGTERM ends it likewise without a traceback (exit status 143)")
def test_qsg_exec_terminated_ends_in_one_line(tmp_path: Path) -> None:
    program = tmp_path / "looping.py"
    program.write_text(LOOPING)
    scenario = ROOT / "scenarios" / "exec-qsg.toml"
    run = qsg("exec", str(scenario), "--quiet", "--", "python", str(program))
    assert run.stdout is not None
    assert run.stdout.readline() == "started\n"
    code, _, err = interrupt(run, signal.SIGTERM)
    assert (code, err) == (143, "interrupted (SIGTERM)\n")  # Python prints nothing either


#: A program that takes every KeyboardInterrupt and goes on: a run that cannot end.
STUBBORN = """
import time, pymqi
q = pymqi.Queue(pymqi.connect("QM1"), "TEST.1")
print("started", flush=True)
while True:
    try:
        q.put(b"x")
        time.sleep(0.01)
    except KeyboardInterrupt:
        pass
"""


@pytest.mark.slow
@pytest.mark.parametrize(("sig", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
@keeps(
    "docs/edges.md",
    "A run that cannot end after the signal (a program that takes every `KeyboardInterrupt` "
    "and goes on, a clean-up that waits for what never comes) is ended "
    "`QSG_INTERRUPT_GRACE` seconds after it (20 by default)",
)
def test_a_run_that_cannot_end_is_ended_by_the_watchdog_after_its_grace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sig: signal.Signals, status: int
) -> None:
    """The chaos-facilities campaign (seed 48, run 135) hung in a shielded clean-up and
    SIGTERM did not end it: every command must end on SIGINT and SIGTERM."""
    program = tmp_path / "stubborn.py"
    program.write_text(STUBBORN)
    monkeypatch.setenv("QSG_INTERRUPT_GRACE", "1")
    scenario = ROOT / "scenarios" / "exec-qsg.toml"
    run = qsg("exec", str(scenario), "--quiet", "--", "python", str(program))
    assert run.stdout is not None
    assert run.stdout.readline() == "started\n"
    code, _, err = interrupt(run, sig)
    line = f"interrupted ({sig.name}): the run did not end within 1 s of the signal; ended"
    assert (code, err.splitlines()[-1]) == (status, f"{line} without its clean-up")


# ---- qsg mqsc and qsg chaos ----------------------------------------------------------------
@pytest.mark.slow
@keeps(
    "docs/edges.md",
    "Every command (`run`, `exec`, `mqsc`, `chaos`, `sweep`, `metrics`, `report`, `validate`...) "
    "takes both the same way",
)
@keeps("docs/mqsc.md", "130 (143) interrupted by SIGINT (SIGTERM)")
@pytest.mark.parametrize(("sig", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_qsg_mqsc_interrupted_at_its_console_ends_in_one_line(
    tmp_path: Path, sig: signal.Signals, status: int
) -> None:
    scenario = ROOT / "scenarios" / "shared-queue-expiry.toml"
    console = qsg("mqsc", str(scenario), "QM1", "--at", "5")
    assert console.stdout is not None
    assert console.stdout.readline().startswith("Starting MQSC for queue manager QM1")
    code, _, err = interrupt(console, sig)
    assert (code, err) == (status, f"interrupted ({sig.name})\n")


@pytest.mark.slow
@keeps("docs/edges.md", "`qsg chaos --processes` kills its member processes on every way out")
def test_qsg_chaos_interrupted_between_or_during_runs_ends_in_one_line() -> None:
    scenario = ROOT / "scenarios" / "chaos-lean.toml"
    campaign = qsg("chaos", str(scenario), "--runs", "50", "--on-redis")
    assert campaign.stdout is not None
    campaign.stdout.readline()  # the headline
    assert campaign.stdout.readline().startswith("run    1/50")
    code, _, err = interrupt(campaign, signal.SIGINT)
    assert (code, err) == (130, "interrupted (SIGINT)\n")


# ---- qsg sweep ------------------------------------------------------------------------------
def session_processes(session: int) -> list[int]:
    """The processes still in ``session`` (the command, its JVM, Spark's Python workers,
    their embedded servers would be: each server is in a session of its own, but is the
    child of a worker that is)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and alive(int(entry.name)):
            try:
                if os.getsid(int(entry.name)) == session:
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.mark.slow
@keeps(
    "docs/edges.md",
    "`qsg sweep` ends its Spark driver, whose JVM ends with it, and the points' servers with "
    "their workers.",
)
def test_qsg_sweep_interrupted_ends_in_one_line_and_leaves_no_process(tmp_path: Path) -> None:
    sweep = qsg("sweep", str(ROOT / "scenarios" / "sweep-capacity.toml"), "--out", str(tmp_path))
    assert sweep.stdout is not None
    assert "points on" in sweep.stdout.readline()  # Spark is up, the points' job starts
    time.sleep(5)
    workers = session_processes(sweep.pid)
    servers = [pid for worker in workers for pid, _ in servers_of(worker)]
    code, _, err = interrupt(sweep, signal.SIGINT)
    assert code == 130
    # PySpark's handler and py4j's logged tracebacks are gone; the JVM's own start-up
    # warning may come first.
    assert err.endswith("\ninterrupted (SIGINT)\n") and "Traceback" not in err
    deadline = time.monotonic() + 30
    while (session_processes(sweep.pid) or any(map(alive, servers))) and (
        time.monotonic() < deadline
    ):
        time.sleep(0.2)
    assert session_processes(sweep.pid) == [] and not any(map(alive, servers))
