"""Channel faults act on the end that owns the channel, validation checks that end has
it, and a fault the world refuses at run time is a warning when it happens and fails
``qsg run`` unless the scenario expected it.

IBM MQ, "STOP CHANNEL" and "START CHANNEL" (MQSC commands): they are commands of the
sending end of a sender-receiver pair; the receiver of the same name cannot be started.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import trio

from actors.events import FaultInjected
from qsg.scenario import ScenarioError, parse_scenario
from qsg.scenario.model import Fault
from qsg.scenario.play import run_scenario
from tests.claims import keeps

# QM1, the receiver, comes first: a lookup by name alone would find its RCVR first.
CHANNEL = """\
description = "a channel stopped for five seconds"

[run]
duration = 20
in_process = true

[qmgr.QM1]
mqsc = "DEFINE QLOCAL(APP.IN)"

[qmgr.QM4]
mqsc = "DEFINE QREMOTE(TO.QM1) RNAME(APP.IN) RQMNAME(QM1) XMITQ(QM1)"

[[channel]]
name = "QM4.TO.QM1"
from = "QM4"
to = "QM1"

[[workload]]
type = "putter"
qmgr = "QM4"
queue = "TO.QM1"
rate = 5

[[workload]]
type = "getter"
qmgr = "QM1"
queue = "APP.IN"

[[fault]]
at = 5
action = "stop_channel"
channel = "QM4.TO.QM1"
duration = 5
"""

#: A second STOP CHANNEL while it is stopped: the dry run cannot know, the world refuses.
TWICE = (
    CHANNEL.replace("duration = 5\n", "")
    + """
[[fault]]
at = 6
action = "stop_channel"
channel = "QM4.TO.QM1"
"""
)


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def problems(text: str) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, "s.toml")
    return [str(p) for p in caught.value.problems]


def test_a_channel_fault_without_qmgr_acts_on_the_queue_manager_with_the_sender() -> None:
    result = run_scenario(parse_scenario(CHANNEL, "s.toml"))
    faults = [
        (f.time, f.action, f.q_mgr, f.detail) for f in result.events if isinstance(f, FaultInjected)
    ]
    assert faults == [(5.0, "stop_channel", "QM4", ""), (10.0, "start_channel", "QM4", "")]
    assert result.refused == []


def test_validate_refuses_a_channel_fault_naming_only_a_receiver() -> None:
    text = CHANNEL.replace('channel = "QM4.TO.QM1"', 'channel = "QM4.TO.QM1"\nqmgr = "QM1"')
    line = line_of(text, 'channel = "QM4.TO.QM1"')
    message = "fault[0].channel: QM1 has no sender channel QM4.TO.QM1"
    assert problems(text) == [f"s.toml:{line}: {message}"]


@keeps(
    "docs/scenarios.md",
    "`qsg validate` checks that queue manager has it (and suggests the nearest sender "
    "channel's name)",
)
def test_a_misspelt_channel_name_is_refused_once_with_the_nearest_sender_suggested() -> None:
    # Its fault and the undoing of it (duration) name the same channel: one problem.
    text = CHANNEL.replace('channel = "QM4.TO.QM1"', 'channel = "QM4.TO.QM2"')
    line = line_of(text, "QM4.TO.QM2")
    assert problems(text) == [
        f"s.toml:{line}: fault[0].channel: no queue manager has a sender channel QM4.TO.QM2 "
        "(did you mean QM4.TO.QM1?)"
    ]


def test_a_channel_only_received_somewhere_is_named_as_such() -> None:
    text = CHANNEL.replace('channel = "QM4.TO.QM1"', 'channel = "QM1.TO.QM4"') + (
        '\n[qmgr.QM5]\nmqsc = "DEFINE CHANNEL(QM1.TO.QM4) CHLTYPE(RCVR)"\n'
    )
    (found,) = problems(text)
    line = line_of(text, 'channel = "QM1.TO.QM4"')
    assert found == (
        f"s.toml:{line}: fault[0].channel: no queue manager has a sender channel "
        "QM1.TO.QM4 (QM5 has only its receiver; a channel fault acts on the "
        "sending end)"
    )


def test_a_refused_fault_is_told_when_it_happens_and_listed_as_refused() -> None:
    told: list[tuple[float, float, str]] = []

    def on_refused(event: FaultInjected, fault: Fault) -> None:
        told.append((trio.current_time(), event.time, event.detail))

    result = run_scenario(parse_scenario(TWICE, "s.toml"), on_refused=on_refused)
    assert told == [(6.0, 6.0, "channel QM4.TO.QM1 of QM4 is not running")]
    assert [(e.time, e.action) for e in result.refused] == [(6.0, "stop_channel")]
    rows = [(f["action"], f["refused"]) for f in result.summary.faults]
    assert rows == [("stop_channel", False), ("stop_channel", True)]


def test_a_fault_marked_expected_is_refused_without_failing_the_run() -> None:
    result = run_scenario(parse_scenario(TWICE + "expected = true\n", "s.toml"))
    assert result.refused == []
    assert [f["refused"] for f in result.summary.faults] == [False, True]


def qsg_run(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "qsg.commands.cli", "run", str(path), "--no-progress"],
        capture_output=True,
        text=True,
        timeout=300,
    )


@keeps("docs/scenarios.md", "`qsg run` prints a warning line when it happens")
def test_qsg_run_warns_of_a_refused_fault_and_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "twice.toml"
    path.write_text(TWICE)
    done = qsg_run(path)
    assert done.returncode == 1, done
    warning = (
        "warning: stop_channel QM4.TO.QM1 at 6.0 s was refused: channel QM4.TO.QM1 of "
        "QM4 is not running"
    )
    assert warning in done.stderr
    # The warning comes as it happens, before the summary's tables.
    assert "Queues" in done.stdout
    assert done.stderr.strip().splitlines()[-1] == (
        "1 fault was refused (see the warnings above); mark a fault `expected = true` if the "
        "scenario means it"
    )


@keeps(
    "docs/scenarios.md",
    "exits 1 at the end unless the fault has `expected = true` (then a note, and exit 0).",
)
def test_qsg_run_notes_an_expected_refusal_and_exits_0(tmp_path: Path) -> None:
    path = tmp_path / "twice.toml"
    path.write_text(TWICE + "expected = true\n")
    done = qsg_run(path)
    assert done.returncode == 0, done
    assert "note: stop_channel QM4.TO.QM1 at 6.0 s was refused (expected)" in done.stderr
    assert "warning" not in done.stderr
