"""``qsg exec`` at its edges (issue 43): ``--out`` written as the run goes, whatever
the program's end, its run.json saying how the program ended; a program's
KeyboardInterrupt printed as Python prints it; programs that fork (``os.fork``,
``multiprocessing``) run as they would under Python, never hanging the run. And the
command line's impossible numbers and paths: a usage error (exit status 2), before
anything starts.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from coupling.server import URL_VARIABLE
from tests.claims import keeps

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "exec-qsg.toml"
BOUND = 120  # wall seconds for a command (a hang is a failure, not a stuck suite)


def qsg(*args: str) -> subprocess.CompletedProcess[str]:
    """``qsg ARGS`` to its end, within the bound (then killed with every process it
    started: a forked child that ran on in the simulator, say)."""
    env = {k: v for k, v in os.environ.items() if k != URL_VARIABLE}
    command = [sys.executable, "-c", "from qsg.commands.cli import main; main()", *args]
    with subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    ) as process:
        try:
            out, err = process.communicate(timeout=BOUND)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise
    return subprocess.CompletedProcess(command, process.returncode, out, err)


def exec_program(tmp_path: Path, source: str, *options: str) -> subprocess.CompletedProcess[str]:
    program = tmp_path / "app.py"
    program.write_text(source)
    return qsg("exec", str(SCENARIO), "--quiet", *options, "--", "python", str(program))


# ---- --out, as the run goes -----------------------------------------------------------------
@keeps("docs/edges.md", "`failed` (with `the program ended with exit status N`) otherwise.")
@keeps(
    "docs/pymqi.md",
    "run.json has the program's `exit_status`, and its `status` is `ok` only for 0",
)
def test_exec_out_of_a_program_that_exits_1_is_a_failed_run_with_its_exit_status(
    tmp_path: Path,
) -> None:
    out = tmp_path / "run"
    ended = exec_program(
        tmp_path,
        "import sys, pymqi\npymqi.Queue(pymqi.connect('QM1'), 'TEST.1').put(b'x')\nsys.exit(1)\n",
        "--virtual",
        "--out",
        str(out),
    )
    assert ended.returncode == 1, ended.stderr
    record = json.loads((out / "run.json").read_text())
    assert (record["status"], record["exit_status"]) == ("failed", 1)
    assert record["error"] == ["the program ended with exit status 1"]
    assert pq.read_table(out / "events.parquet").num_rows == record["events"] > 0


@keeps(
    "docs/edges.md",
    "its run.json has the program's `exit_status` too: `ok` only when the program ended with 0",
)
def test_exec_out_of_a_program_that_ends_well_is_ok_with_exit_status_0(tmp_path: Path) -> None:
    out = tmp_path / "run"
    ended = exec_program(tmp_path, "import pymqi\npymqi.connect('QM1')\n", "--out", str(out))
    assert ended.returncode == 0, ended.stderr
    record = json.loads((out / "run.json").read_text())
    assert (record["status"], record["exit_status"]) == ("ok", 0)
    assert {p.name for p in out.iterdir()} == {
        "scenario.toml",
        "run.json",
        "summary.json",
        "events.parquet",
    }


@keeps("docs/edges.md", "a `KeyboardInterrupt` it may catch")
def test_a_program_raising_keyboardinterrupt_gets_its_own_frames_and_the_run_is_kept(
    tmp_path: Path,
) -> None:
    out = tmp_path / "run"
    source = (
        "import pymqi\npymqi.connect('QM1')\ndef stop():\n    raise KeyboardInterrupt\nstop()\n"
    )
    ended = exec_program(tmp_path, source, "--virtual", "--out", str(out))
    program = tmp_path / "app.py"
    assert ended.returncode == 130  # as Python's, for a KeyboardInterrupt it did not catch
    assert ended.stderr == (
        "Traceback (most recent call last):\n"
        f'  File "{program}", line 5, in <module>\n'
        "    stop()\n"
        f'  File "{program}", line 4, in stop\n'
        "    raise KeyboardInterrupt\n"
        "KeyboardInterrupt\n"
        f"interrupted (SIGINT): what the run did until then is in {out}/\n"
    )
    assert json.loads((out / "run.json").read_text())["status"] == "interrupted"


# ---- programs that fork -------------------------------------------------------------------------
FORKING = """
import os, sys, pymqi
q = pymqi.Queue(pymqi.connect("QM1"), "TEST.1")
pid = os.fork()
if pid == 0:  # the child: a process of its own, outside the simulated QSG
    try:
        q.put(b"from the child")
    except pymqi.MQMIError as error:
        print("child put", error.reason, flush=True)
    try:
        pymqi.connect("QM1")
    except pymqi.MQMIError as error:
        print("child connect", error.reason, flush=True)
    sys.exit(7)  # back into qsg exec's frames: it must end here, not run the world
_, status = os.waitpid(pid, 0)
q.put(b"from the parent")
print("child status", os.waitstatus_to_exitcode(status))
"""


@pytest.mark.slow
@pytest.mark.parametrize("clock", ["--virtual", "--seed=1"])
@keeps("docs/pymqi.md", "an MQCONN with MQRC_Q_MGR_NOT_AVAILABLE (2059)")
@keeps("docs/pymqi.md", "a call on a connection the parent made fails with MQRC_HCONN_ERROR")
@keeps(
    "docs/pymqi.md",
    "A child that returns from the program's code ends there, with the status its end gives "
    "(as the forked interpreter would), rather than running on in the simulator.",
)
def test_a_forked_child_has_no_queue_manager_and_ends_as_python_would(
    tmp_path: Path, clock: str
) -> None:
    ended = exec_program(tmp_path, FORKING, clock)
    assert ended.returncode == 0, ended.stderr
    # The parent's connection is not the child's (MQRC_HCONN_ERROR); the child reaches
    # no queue manager (MQRC_Q_MGR_NOT_AVAILABLE); it ends with its own status.
    assert ended.stdout.splitlines() == ["child put 2018", "child connect 2059", "child status 7"]


FORKED_CLOCK = """
import os, threading, time
time.sleep(300)  # simulated minutes: the parent's clock is 300 s on
simulated = time.time()
pid = os.fork()
if pid == 0:
    start = time.monotonic()
    t = threading.Thread(target=time.sleep, args=(0.2,))
    t.start()
    t.join()
    print("child real", simulated - time.time() > 250, time.monotonic() - start >= 0.2, flush=True)
    os._exit(0)
os.waitpid(pid, 0)
print("parent simulated", round(time.time() - simulated) == 0)
"""


@pytest.mark.slow
@keeps("docs/pymqi.md", "and its clock and threads are Python's own.")
def test_under_virtual_a_forked_child_reads_the_real_clock_and_its_thread_sleeps_real_time(
    tmp_path: Path,
) -> None:
    ended = exec_program(tmp_path, FORKED_CLOCK, "--virtual")
    assert ended.returncode == 0, ended.stderr
    assert ended.stdout.splitlines() == ["child real True True", "parent simulated True"]


POOL = """
import multiprocessing, time

def square(x):
    return x * x

if __name__ == "__main__":
    with multiprocessing.Pool(2) as pool:
        print(pool.map(square, range(5)), flush=True)
    began = time.monotonic()
    print("closed", time.monotonic() > began)
"""


@pytest.mark.slow
@pytest.mark.parametrize("clock", ["--virtual", "--seed=1"])
@keeps("docs/pymqi.md", "`multiprocessing.Pool`'s close polls its queue with a zero timeout so")
@keeps("docs/pymqi.md", "then ends, as on a real clock, instead of spinning at one instant.")
def test_a_multiprocessing_pool_runs_and_closes_on_either_clock(tmp_path: Path, clock: str) -> None:
    """Pool.terminate polls its queue with a zero timeout until the clock passes the
    deadline: under --virtual the program's clock must still move on at each reading."""
    ended = exec_program(tmp_path, POOL, clock)
    assert ended.returncode == 0, ended.stderr
    assert ended.stdout == "[0, 1, 4, 9, 16]\nclosed True\n"


# ---- impossible numbers and paths ---------------------------------------------------------------
@pytest.mark.parametrize("out", ["/dev/null", "/proc/nope/run"])
@pytest.mark.parametrize("command", ["run", "exec"])
@keeps(
    "docs/edges.md",
    "`cannot write the run to 'PATH': it is not a directory` (or the system's reason)",
)
def test_an_out_that_cannot_be_a_directory_is_a_usage_error(command: str, out: str) -> None:
    args = ["--out", out, "--duration", "1"]
    if command == "exec":
        args += ["--", "python", "-c", "pass"]
    ended = qsg(command, str(SCENARIO), *args)
    assert ended.returncode == 2
    assert f"Error: Invalid value for '--out': cannot write the run to '{out}'" in ended.stderr
    assert "Traceback" not in ended.stderr


@pytest.mark.parametrize("duration", ["1e308", "inf", "2e9"])
@keeps(
    "docs/edges.md",
    "A value no run can use is a usage error, exit status 2, before anything starts: click's "
    "`Error: Invalid value for '--OPTION': ...`, never a traceback.",
)
def test_a_duration_past_the_longest_run_is_a_usage_error(duration: str) -> None:
    ended = qsg("run", str(SCENARIO), "--duration", duration)
    assert ended.returncode == 2
    assert "Error: Invalid value for '--duration'" in ended.stderr
    assert "Traceback" not in ended.stderr and "OverflowError" not in ended.stderr


@keeps("docs/edges.md", "`[run] duration` likewise, as a scenario problem")
def test_a_scenarios_own_duration_past_the_longest_run_is_a_problem(tmp_path: Path) -> None:
    scenario = tmp_path / "forever.toml"
    scenario.write_text("[run]\nduration = 1e308\n[qmgr.QM1]\n")
    ended = qsg("validate", str(scenario))
    assert ended.returncode == 2
    assert f"{scenario}:2: run.duration: must be at most 1e+09 s, found 1e+308" in ended.stderr


@keeps("docs/edges.md", "`qsg mqsc --at` below 0, or after the scenario's end")
def test_a_console_opened_after_the_scenarios_end_is_a_usage_error() -> None:
    ended = qsg("mqsc", str(ROOT / "scenarios" / "shared-queue-expiry.toml"), "QM1", "--at", "5e6")
    assert ended.returncode == 2
    assert "Error: Invalid value for '--at': 5e+06 s is after the scenario's end (120 s)" in (
        ended.stderr
    )
