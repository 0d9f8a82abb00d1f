"""Every command that plays a run says when its coupling facility failed and no fault was
scheduled, in one line, and exits non-zero (issue 26): ``qsg chaos`` (a run so failed
fails the ``facility`` check), ``qsg exec`` and ``qsg sweep`` (a point so failed is a
failed point), as ``qsg run`` does (tests/test_cf_edges_cli.py).

The failure is real: a server the test starts, at its maxmemory, refuses the run's puts
(MQRC_STORAGE_MEDIUM_FULL, 2192); the URL goes by QSG_REDIS_URL.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from coupling.server import URL_VARIABLE, EmbeddedServer
from coupling.transport import BlockingTransport
from qsg.chaos.checkers import check_facility
from qsg.chaos.processes import ProcessRun, judge
from qsg.scenario.summary import Scopes
from tests.claims import keeps

ROOT = Path(__file__).resolve().parent.parent
BOUND = 180  # wall seconds for one command on a loaded machine (each takes a few)

#: Long enough for a chaos run (its recovery bound is 11 s: faults in the first 19 s).
SCENARIO = """
[run]
duration = 30
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
rate = 200
size = 4096
"""


@pytest.fixture
def full_server(tcp_server: EmbeddedServer) -> Iterator[EmbeddedServer]:
    """A server with 1 MiB left before its maxmemory, which evicts nothing."""
    admin = BlockingTransport(tcp_server.url)
    used = int(admin.command("INFO", "memory")["used_memory"])
    admin.command("CONFIG", "SET", "maxmemory-policy", "noeviction")
    admin.command("CONFIG", "SET", "maxmemory", used + 1024 * 1024)
    yield tcp_server
    admin.command("CONFIG", "SET", "maxmemory", 0)
    admin.close()


def qsg_command(*args: str, url: str) -> tuple[int, str, str]:
    run = subprocess.run(
        [sys.executable, "-c", "from qsg.commands.cli import main; main()", *args],
        cwd=ROOT,
        env={**os.environ, URL_VARIABLE: url},
        text=True,
        capture_output=True,
        timeout=BOUND,
    )
    return run.returncode, run.stdout, run.stderr


def failure_lines(text: str) -> list[str]:
    assert "Traceback" not in text, text  # the whole of it: a worker's own traceback too
    return [line.strip() for line in text.splitlines() if "the run failed:" in line]


@pytest.mark.slow
@keeps("docs/coupling-facility.md", "the run fails the `facility` check")
def test_qsg_chaos_on_a_full_facility_fails_the_facility_check_and_exits_1(
    full_server: EmbeddedServer, tmp_path: Path
) -> None:
    path = tmp_path / "payments.toml"
    path.write_text(SCENARIO)
    code, out, err = qsg_command(
        "chaos", str(path), "--on-redis", "--runs", "1", url=full_server.url
    )
    assert code == 1, out + err
    (line,) = failure_lines(out)
    assert "no fault was scheduled: reason 2192: " in line
    assert "failed facility" in out
    assert full_server.password not in out + err


@pytest.mark.slow
@keeps(
    "docs/coupling-facility.md",
    "the line on standard error; the program ran to its end as usual",
)
def test_qsg_exec_on_a_full_facility_exits_1_with_one_line_though_the_program_ended_well(
    full_server: EmbeddedServer, tmp_path: Path
) -> None:
    path = tmp_path / "payments.toml"
    path.write_text(SCENARIO.replace("duration = 30", "duration = 3"))
    program = "import time; time.sleep(2); print('done')"  # while the payer puts
    code, out, err = qsg_command(
        "exec",
        str(path),
        "--virtual",
        "--out",
        str(tmp_path / "run"),
        "--",
        "python",
        "-c",
        program,
        url=full_server.url,
    )
    assert code == 1, err
    assert out == "done\n"
    (line,) = failure_lines(err)
    assert line.startswith("the run failed: the coupling facility failed at ")
    assert "no fault was scheduled: reason 2192: " in line
    written = json.loads((tmp_path / "run" / "run.json").read_text())
    assert written["status"] == "failed" and written["error"] == [
        line.removeprefix("the run failed: ")
    ]


@pytest.mark.slow
@keeps(
    "docs/coupling-facility.md",
    "`qsg run --replications N` | each such replication's seed and line | 1",
)
def test_qsg_run_replications_on_a_full_facility_name_each_seed_and_line_and_exit_1(
    full_server: EmbeddedServer, tmp_path: Path
) -> None:
    path = tmp_path / "payments.toml"
    path.write_text(SCENARIO.replace("duration = 30", "duration = 3"))
    code, out, err = qsg_command("run", str(path), "--replications", "2", url=full_server.url)
    assert code == 1, out + err
    lines = failure_lines(err)
    assert [line.split(":", 2)[1] for line in lines] == [" seed 1", " seed 2"], err
    assert all("the coupling facility failed at " in line for line in lines)
    assert all("no fault was scheduled: reason 2192: " in line for line in lines)


@pytest.mark.slow
@keeps("docs/coupling-facility.md", "its run is written below `--out` all the same")
def test_a_sweep_point_whose_facility_failed_is_a_failed_point_its_run_kept(
    full_server: EmbeddedServer, tmp_path: Path
) -> None:
    # qsg sweep prints each failed point's error on one line and exits 1
    # (qsg/commands/pipeline/command.py); the point's run is written all the same.
    from qsg.commands.pipeline.sweep import play_point
    from qsg.commands.pipeline.sweep_file import Point

    text = SCENARIO.replace("duration = 30", "duration = 3")
    point = Point("p0", {"rate": 200}, 1, text, 200.0, 2)
    result = play_point(point, tmp_path / "p0", full_server.url)
    assert result.error.startswith("the coupling facility failed at ")
    assert "no fault was scheduled: reason 2192: " in result.error
    assert (tmp_path / "p0" / "events.parquet").exists()
    assert json.loads((tmp_path / "p0" / "run.json").read_text())["status"] == "failed"


@keeps(
    "docs/scenarios.md",
    "`qsg run` exits 0 for a run that played to its end with its coupling facility whole",
)
@keeps("docs/chaos.md", "the run's coupling facility failed with no fault scheduled to explain it")
def test_a_run_with_no_unscheduled_facility_failure_passes_the_facility_check() -> None:
    assert check_facility(None, 0).ok
    failed = check_facility("the coupling facility failed at 1.000 s and ...", 2)
    assert not failed.ok and failed.counts == {"unscheduled_failures": 2}
    assert failed.involved == ["the coupling facility failed at 1.000 s and ..."]


@keeps(
    "docs/coupling-facility.md",
    "the member that met the failure writes the line to its stderr file and exits 1",
)
@keeps("docs/chaos.md", "a queue manager's process exited with an error (named with its line)")
def test_a_member_process_that_failed_is_named_with_the_last_line_it_wrote(
    tmp_path: Path,
) -> None:
    # qsg chaos --processes: a member whose facility failed unscheduled writes its one
    # line to its stderr file and exits 1; the processes check names it with that line.
    (tmp_path / "QM.A.1.stderr").write_text("an earlier life's line\n")
    (tmp_path / "QM.A.2.stderr").write_text(
        "warming up\nQM.A: the run failed: the coupling facility failed at 3.000 s ...\n"
    )
    run = ProcessRun([], Scopes({}, {}), tmp_path, exits={"QM.A": 1, "QM2": 0, "QM3": -9})
    (verdict,) = [v for v in judge(run) if v.name == "processes"]
    assert not verdict.ok
    assert verdict.involved == [
        "QM.A exit 1: QM.A: the run failed: the coupling facility failed at 3.000 s ...",
        "QM3 exit -9",
    ]


@keeps(
    "docs/coupling-facility.md",
    "From the API, `RunResult.failure()` gives that line (None for a success), and "
    "`RunResult.cf_failures` the events.",
)
@keeps(
    "docs/coupling-facility.md",
    "the application errors are counted in the queue managers' `errors` column like any other.",
)
@keeps(
    "docs/events.md",
    "`cf-failure` | `CFFailed` | coupling facility of `qsg` failed as a call met it: "
    "`reason` the call got",
)
def test_the_api_gives_the_failure_line_and_events_and_the_summary_counts_the_errors(
    full_server: EmbeddedServer, cf_url: str
) -> None:
    from actors.events import ApplicationError, CFFailed
    from qsg.scenario import parse_scenario
    from qsg.scenario.play import run_scenario

    scenario = parse_scenario(SCENARIO.replace("duration = 30", "duration = 3"), "full.toml")
    failed = run_scenario(scenario, redis_url=full_server.url)
    line = failed.failure()
    assert line is not None and line.startswith("the coupling facility failed at ")
    assert "no fault was scheduled: reason 2192: " in line
    assert failed.cf_failures == [e for e in failed.events if isinstance(e, CFFailed)] != []
    refused = [e for e in failed.events if isinstance(e, ApplicationError)]
    assert refused and {e.reason for e in refused} == {2192}
    assert failed.summary.qmgr("QM1")["errors"] == len(refused)
    ok = run_scenario(scenario, redis_url=cf_url)  # the suite's server, with room to spare
    assert ok.failure() is None and ok.cf_failures == []
