"""What a new user meets before their own scenario: ``./dev qsg``, the files git should
not see, the shipped MQSC file's header, what a Python scenario's DURATION means, and
chaos across processes cleaning up after itself with replay commands that carry the
flags a seed's schedule depends on."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import trio

import qsg
from qsg.chaos.campaign import Outcome
from qsg.chaos.checkers import Verdict
from qsg.commands.chaos import replay_command, tidy_run_directory
from qsg.scenario import parse_scenario
from qsg.scenario.play import load_script, run_scenario
from tests.claims import keeps

ROOT = Path(__file__).resolve().parent.parent


def test_dev_qsg_passes_its_arguments_to_qsg() -> None:
    done = subprocess.run(
        [str(ROOT / "dev"), "qsg", "--version"], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done
    assert done.stdout.strip() == "qsg, version 0.1.0"


def test_dev_names_its_qsg_job_in_its_usage() -> None:
    done = subprocess.run(
        [str(ROOT / "dev"), "nothing"], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 2
    assert "usage: ./dev {run|qsg ARGS...|test|lint|bench NAME|mutate [MODULE...]}" in done.stderr


@pytest.mark.parametrize("path", ["runs/cap/summary.json", "sweeps/cap/report.html"])
def test_git_ignores_what_the_documented_commands_write(path: str) -> None:
    done = subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT, timeout=60)
    assert done.returncode == 0, f"{path} is not ignored"


def test_the_shipped_mqsc_file_loads_as_its_header_says() -> None:
    header = (ROOT / "scenarios" / "qsg1-qm1.mqsc").read_text().split("\n\n")[0]
    assert 'mqsc_file = "qsg1-qm1.mqsc" under [qmgr.QM1]' in " ".join(
        line.lstrip("* ") for line in header.splitlines()
    )
    text = (
        '[run]\nduration = 5\n[qsg.QSG1]\nmembers = ["QM1", "QM2"]\n'
        '[qmgr.QM1]\nmqsc_file = "qsg1-qm1.mqsc"\n[qmgr.QM3]\n'
    )
    scenario = parse_scenario(text, "header.toml", base=ROOT / "scenarios")
    assert "ORDERS.IN" in {c.name for qm in scenario.qmgrs for c in qm.commands}


SCRIPT = '''
"""main sleeps {sleep} s; DURATION {duration}."""
import trio
import qsg

DURATION = {duration}
IN_PROCESS = True
topology = qsg.Topology()
topology.add_qmgr("QM1")


async def main(world):
    await trio.sleep({sleep})
'''


@keeps(
    "docs/scenarios.md",
    "The run lasts until `main` returns; `DURATION` (simulated seconds) is a limit",
)
@pytest.mark.parametrize(("sleep", "duration", "end"), [(5, 60, 5.0), (100, 10, 10.0), (7, 0, 7.0)])
def test_a_python_scenario_runs_until_main_returns_or_duration_whichever_first(
    sleep: float, duration: float, end: float, tmp_path: Path
) -> None:
    # docs/scenarios.md: "DURATION is a limit"; the shipped script's 120 ends at ~19 s.
    path = tmp_path / "script.py"
    path.write_text(SCRIPT.format(sleep=sleep, duration=duration))
    result = run_scenario(load_script(path))
    assert result.summary.totals["end"] == pytest.approx(end, abs=1.5)
    docs = " ".join((ROOT / "docs" / "scenarios.md").read_text().split())
    assert "`DURATION` (simulated seconds) is a limit" in docs


@keeps("docs/scenarios.md", "the shipped script's `DURATION = 120` ends at about 19 s")
def test_the_shipped_python_scenario_says_why_it_ends_before_its_duration() -> None:
    script = load_script(ROOT / "scenarios" / "groups-across-restart.py")
    result = run_scenario(script)
    assert result.summary.totals["end"] < script.run.duration
    assert "the run ends when main returns" in script.text


def outcome(ok: bool) -> Outcome:
    return Outcome(7, "safety", ["kill"], (), [Verdict("queue", ok)], 0, 0, 0.0)


def test_a_passed_process_runs_files_are_removed_and_a_failed_ones_kept_and_named(
    tmp_path: Path,
) -> None:
    passed, failed = tmp_path / "passed", tmp_path / "failed"
    for directory in (passed, failed):
        directory.mkdir()
        (directory / "QM1.1.events").write_bytes(b"x")
    assert tidy_run_directory(outcome(True), passed) == ""
    assert not passed.exists()
    assert tidy_run_directory(outcome(False), failed) == f"  files kept in {failed}"
    assert (failed / "QM1.1.events").exists()
    assert tidy_run_directory(outcome(True), failed, keep=True) == f"  files kept in {failed}"


@pytest.mark.parametrize(
    ("on_redis", "processes", "flags"),
    [
        (False, False, []),
        (True, False, ["--on-redis"]),
        (True, True, ["--on-redis", "--processes"]),
    ],
)
def test_the_replay_command_carries_the_flags_the_schedule_depends_on(
    on_redis: bool, processes: bool, flags: list[str]
) -> None:
    command = replay_command(
        Path("scenarios/chaos-qsg.toml"), outcome(False), on_redis, processes=processes
    )
    words = ["qsg", "chaos", "scenarios/chaos-qsg.toml", "--mode", "safety", "--replay", "7"]
    assert command.split() == [*words, *flags]
    guide = " ".join((ROOT / "docs" / "chaos.md").read_text().split())
    assert "the replay command carries `--mode`, `--on-redis` and `--processes`" in guide


def test_qsg_run_on_the_wall_clock_starts_at_zero() -> None:
    async def main() -> float:
        return trio.current_time()

    assert 0 <= qsg.run(main, wall_clock=True) < 1.0
