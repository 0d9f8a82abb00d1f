"""A run that fails still writes what it has to ``--out`` (issue 26): the scenario,
run.json naming the error, and events.parquet with the events before the failure; the
events are journalled as they happen, so even a process killed outright leaves them."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from actors.events import MessagePut
from qsg.scenario import eventlog
from qsg.scenario.load import load_scenario
from qsg.scenario.recording import JOURNAL, read_journal, salvage
from tests.claims import keeps

ROOT = Path(__file__).resolve().parent.parent

FAILS_AT_5 = '''
"""Puts a message every second, then fails at t=5."""
import trio
import qsg
from qsg import CMQC, MD, PMO

DURATION = 60
IN_PROCESS = True
topology = qsg.Topology()
topology.add_qmgr("QM1")
topology.mqsc("QM1", "DEFINE QLOCAL(APP.Q)")


async def main(world):
    conn = await world.connect("QM1")
    q = await conn.open("APP.Q", CMQC.MQOO_OUTPUT)
    for n in range(60):
        if trio.current_time() >= 5:
            raise RuntimeError("the application gave up at t=5")
        await q.put(b"m%d" % n, MD(), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT))
        await trio.sleep(1)
'''


def qsg_run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "qsg.commands.cli", "run", *args, "--no-progress"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )


@keeps("docs/edges.md", "A failed run prints each error on one line and where its history went")
@keeps("docs/edges.md", "`events.parquet` then holds the events up to the failure")
@keeps(
    "docs/scenarios.md",
    "If `main` raises, the run fails: `qsg run` prints the error in one line, exits 1, "
    "and `--out` still gets the scenario, run.json naming the error and the events up to "
    "the failure",
)
def test_a_run_that_fails_at_t5_leaves_its_scenario_error_and_events(tmp_path: Path) -> None:
    script = tmp_path / "fails.py"
    script.write_text(FAILS_AT_5)
    out = tmp_path / "out"
    done = qsg_run(str(script), "--out", str(out))
    assert done.returncode == 1, done
    assert "the run failed: RuntimeError: the application gave up at t=5" in done.stderr
    assert "Traceback" not in done.stderr
    assert f"what the run did before it failed is in {out}/" in done.stderr
    run = json.loads((out / "run.json").read_text())
    assert run["status"] == "failed"
    assert run["error"] == ["RuntimeError: the application gave up at t=5"]
    assert (out / "scenario.py").read_text() == FAILS_AT_5
    assert not (out / JOURNAL).exists() and not (out / "summary.json").exists()
    events, scopes = eventlog.read(out / "events.parquet")
    puts = [e for e in events if isinstance(e, MessagePut)]
    assert [e.time for e in puts] == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert run["events"] == len(events) and max(e.time for e in events) <= 5.0
    assert scopes.members == {}


@keeps(
    "docs/edges.md",
    "at the end, however it ends: `events.parquet` and `run.json` with its `status`, and the "
    "journal removed.",
)
def test_a_run_that_ends_well_leaves_no_journal_and_says_ok(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = qsg_run("scenarios/mm1-impatience.toml", "--out", str(out), "--duration", "5")
    assert done.returncode == 0, done
    run = json.loads((out / "run.json").read_text())
    assert run["status"] == "ok" and run["events"] > 0
    assert not (out / JOURNAL).exists() and (out / "summary.json").exists()
    assert len(eventlog.read(out / "events.parquet")[0]) == run["events"]


LONG = """
[run]
duration = 100000000
in_process = true

[qmgr.QM1]
mqsc = "DEFINE QLOCAL(APP.Q) MAXDEPTH(999999999)"

[[workload]]
type = "putter"
qmgr = "QM1"
queue = "APP.Q"
rate = 100
"""


@pytest.mark.slow
@keeps(
    "docs/edges.md",
    'its directory keeps `"status": "running"` and `events.journal`, whose events up to the '
    "last few kilobytes before the kill can be read back and written as `events.parquet`",
)
def test_a_killed_run_leaves_its_journal_which_salvage_makes_an_event_log(
    tmp_path: Path,
) -> None:
    path = tmp_path / "long.toml"
    path.write_text(LONG)
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "qsg.commands.cli",
            "run",
            str(path),
            "--out",
            str(out),
            "--no-progress",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        journal = out / JOURNAL
        deadline = time.monotonic() + 120  # a bound against a hang, not a timing claim
        while not (journal.exists() and journal.stat().st_size > 100_000):
            assert proc.poll() is None, "the run ended before it was killed"
            assert time.monotonic() < deadline, "the journal never grew"
            time.sleep(0.1)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
    assert json.loads((out / "run.json").read_text())["status"] == "running"
    events = read_journal(journal)
    puts = [e for e in events if isinstance(e, MessagePut)]
    assert len(puts) > 100  # the journal held what happened up to the kill
    assert salvage(out, load_scenario(path)) == len(events)
    assert len(eventlog.read(out / "events.parquet")[0]) == len(events)


@keeps(
    "docs/edges.md",
    "whose events up to the last few kilobytes before the kill can be read back",
)
def test_a_journal_cut_mid_record_gives_the_records_before_the_cut(tmp_path: Path) -> None:
    from qsg.scenario.recording import _record

    events = [
        MessagePut(float(n), "QM1", "APP.Q", b"%024d" % n, 10, False, False, -1) for n in range(3)
    ]
    data = b"".join(_record(e) for e in events)
    path = tmp_path / JOURNAL
    path.write_bytes(data[:-7])
    assert read_journal(path) == events[:2]


@pytest.mark.parametrize("kept", ["events.parquet", "summary.json"])
def test_an_earlier_runs_files_do_not_survive_a_failed_run(tmp_path: Path, kept: str) -> None:
    script = tmp_path / "fails.py"
    script.write_text(FAILS_AT_5)
    out = tmp_path / "out"
    out.mkdir()
    (out / kept).write_text("from an earlier run")
    assert qsg_run(str(script), "--out", str(out)).returncode == 1
    assert (out / kept).exists() == (kept == "events.parquet")  # the failed run's own
    if kept == "events.parquet":
        assert eventlog.read(out / kept)[0]


def test_a_run_written_where_its_scenario_already_is_keeps_it(tmp_path: Path) -> None:
    # Replaying a recorded run into its own directory: the copy is the file itself.
    out = tmp_path / "out"
    out.mkdir()
    scenario = out / "scenario.toml"
    scenario.write_text((ROOT / "scenarios" / "mm1-impatience.toml").read_text())
    done = qsg_run(str(scenario), "--out", str(out), "--duration", "2")
    assert done.returncode == 0, done
    assert json.loads((out / "run.json").read_text())["status"] == "ok"
