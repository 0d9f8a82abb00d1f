"""``qsg mqsc``, the runmqsc of the simulator, and the scenario's ``[[at]]`` MQSC entries.

runmqsc reads commands one by one, reports each command's failure without ending, and
counts the commands that failed (its exit status is 10 when one did). The console holds
simulated time still while it waits for its administrator. One test drives the real
command through a pseudo-terminal, as an administrator types at it.
"""

from __future__ import annotations

import io
import os
import sys
import threading
from pathlib import Path

import pexpect
import pytest
import trio
import trio.lowlevel

import qsg
from actors.clock import VirtualClock
from actors.events import CommandRun, MessagePut
from qsg.commands.console import Lines, Tally, file_lines, session
from qsg.scenario import ScenarioError
from qsg.scenario.load import parse_scenario
from qsg.scenario.play import run_scenario
from tests.claims import keeps
from tests.worlds import qsg_and_qm3

ROOT = Path(__file__).parent.parent
QSG_COMMAND = str(Path(sys.executable).parent / "qsg")

SCENARIO = """
description = "a QSG an administrator looks into"
[run]
duration = 20
seed = 3
in_process = true   # the same seed, the same interleaving (on Redis, I/O decides ties)
[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = "DEFINE QLOCAL(APP.ORDERS) QSGDISP(SHARED) CFSTRUCT(APP1)"
[qsg.QSG1.structures.APP1]
size_kb = 1024
[[workload]]
name = "orders"
type = "putter"
qmgr = "QM1"
queue = "APP.ORDERS"
rate = 2
arrival = "constant"
persistence = "nonpersistent"
[[at]]
at = 5
qmgr = "QM2"
mqsc = "DISPLAY QLOCAL(APP.ORDERS) CURDEPTH"
[[at]]
at = 6
qmgr = "QM1"
mqsc = "DISPLAY QLOCAL(NO.SUCH.QUEUE)"
"""


@keeps(
    "docs/mqsc.md",
    "from a file or a pipe it echoes each command with its number, as runmqsc does",
)
@keeps("docs/mqsc.md", "At the end it counts the commands read and those that failed.")
@keeps(
    "docs/mqsc.md",
    (
        "Commands follow MQSC's rules: one per line, continued with a trailing `-` or `+`, `*` "
        "starts a comment"
    ),
)
async def test_a_session_reports_failures_without_ending_and_counts_them_as_runmqsc_does(
    virtual_clock: VirtualClock,
) -> None:
    script = io.StringIO(
        "* a comment line, then a command continued on the next line\n"
        "DEFINE QLOCAL(APP.NEW) -\n"
        "       MAXDEPTH(9)\n"
        "DISPLAY QLOCAL(APP.NEW) MAXDEPTH\n"
        "DISPLAY QLOCAL(APP.NEW) NOSUCHWORD\n"
        "FROB QLOCAL(X)\n"
        "DISPLAY QLOCAL(APP.NEW) CURDEPTH\n"
        "end\n"
        "DISPLAY QMGR\n"
    )
    out, tally = io.StringIO(), Tally()
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        await session(world, "QM1", file_lines(script), out, tally)
    text = out.getvalue()
    assert (tally.read, tally.failed) == (5, 2)
    assert "     1 : DEFINE QLOCAL(APP.NEW) MAXDEPTH(9)\n" in text
    assert "CSQM401I !QM1 QUEUE(APP.NEW) TYPE(QLOCAL) QSGDISP(QMGR) MAXDEPTH(9)\n" in text
    assert "CSQ9001E !QM1 'NOSUCHWORD' IS INVALID\n" in text
    assert "CSQ9001E !QM1 'FROB' IS INVALID\n" in text
    assert "CURDEPTH(0)" in text  # the command after the failures ran
    assert "QMNAME" not in text  # nothing after end
    assert text.endswith("5 MQSC commands read.\n2 commands could not be processed.\n")


@keeps(
    "README.md",
    "While the console waits for you, simulated time stands still, so what you see is "
    "the state at that instant.",
)
@keeps(
    "docs/mqsc.md",
    "The console goes further: while it waits for the next command, simulated time stands still",
)
async def test_simulated_time_stands_still_while_the_console_waits_for_its_administrator(
    virtual_clock: VirtualClock,
) -> None:
    # The world has timers due (the expiry scan every 5 s, channel retries): an idle
    # trio loop on the virtual clock would jump to them. A console that waits holds it.
    typed = threading.Event()

    def slow_typist() -> str | None:
        typed.wait(timeout=10)
        return None

    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        await trio.sleep(1)
        before = trio.current_time()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(Lines(slow_typist, echo=False).next)
            await trio.lowlevel.checkpoint()  # the read is under way in its thread
            await trio.to_thread.run_sync(typed.wait, 0.3)  # wall time passes
            typed.set()
        assert world.qmgrs["QM1"].alive
        assert trio.current_time() == before


@keeps(
    "docs/scenarios.md",
    "Each command is an `mqsc` event (its `response` is the reply's lines) and a row "
    "of the summary's `commands`",
)
@keeps(
    "docs/mqsc.md",
    "an MQSC command at a moment of the run, its reply in the event log and the run's summary",
)
@keeps(
    "docs/mqsc.md",
    (
        "A command runs at the simulated instant it is entered and takes no simulated time: it "
        "reads one snapshot of the queue manager"
    ),
)
def test_at_entries_run_mqsc_at_their_time_into_the_event_log_and_the_summary() -> None:
    scenario = parse_scenario(SCENARIO, "admin.toml")
    result = run_scenario(scenario, redis_url=None)
    runs = [e for e in result.events if isinstance(e, CommandRun)]
    assert [(e.time, e.q_mgr, e.completed) for e in runs] == [
        (5.0, "QM2", True),
        (6.0, "QM1", False),
    ]
    # QM2 put nothing and got nothing: the depth it shows is every put QM1 made before
    # the command ran (nobody gets from APP.ORDERS).
    puts_before = sum(
        1 for e in result.events[: result.events.index(runs[0])] if isinstance(e, MessagePut)
    )
    assert puts_before == 10
    assert f"QUEUE(APP.ORDERS) TYPE(QLOCAL) QSGDISP(SHARED) CURDEPTH({puts_before})" in (
        runs[0].response
    )
    assert "CSQM125I !QM1 CSQMDRTS QLOCAL(NO.SUCH.QUEUE) WAS NOT FOUND" in runs[1].response
    assert [(c["q_mgr"], c["completed"]) for c in result.summary.commands] == [
        ("QM2", True),
        ("QM1", False),
    ]


@keeps(
    "docs/scenarios.md",
    "The command's syntax is checked when the scenario is read (a CSQ9 message at the "
    "entry's line)",
)
def test_an_at_entry_with_a_bad_command_is_a_scenario_problem_with_its_line() -> None:
    bad = SCENARIO.replace('"DISPLAY QLOCAL(NO.SUCH.QUEUE)"', '"DISPLAY QLOCAL(X) BOGUS"')
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(bad, "admin.toml")
    (problem,) = caught.value.problems
    assert str(problem).startswith("admin.toml:")
    assert "CSQ9001E 'BOGUS' IS INVALID" in str(problem)


@keeps("docs/mqsc.md", "At a terminal the console prompts `QM1>` with line editing and history")
@keeps("docs/mqsc.md", "10 one or more failed (runmqsc's codes)")
def test_qsg_mqsc_at_a_terminal_defines_displays_reports_a_bad_command_and_ends(
    tmp_path: Path,
) -> None:
    scenario = tmp_path / "admin.toml"
    scenario.write_text(SCENARIO)
    env = dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm", COLUMNS="200")
    child = pexpect.spawn(
        QSG_COMMAND,
        ["mqsc", str(scenario), "QM1", "--at", "3"],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(40, 200),
    )
    try:
        child.expect("Starting MQSC for queue manager QM1 at simulated time 3 s.")
        child.expect("QM1>")
        child.sendline("DEFINE QLOCAL(APP.TERMINAL) DESCR('typed at a terminal')")
        child.expect(r"CSQ9022I !QM1 CSQMMSGP ' DEFINE QLOCAL' NORMAL COMPLETION")
        child.expect("QM1>")
        child.sendline("DISPLAY QLOCAL(APP.*) CURDEPTH")
        child.expect(r"QUEUE\(APP.ORDERS\) TYPE\(QLOCAL\) QSGDISP\(SHARED\) CURDEPTH\(6\)")
        child.expect(r"QUEUE\(APP.TERMINAL\) TYPE\(QLOCAL\) QSGDISP\(QMGR\) CURDEPTH\(0\)")
        child.expect("QM1>")
        child.send("\x1b[A")  # the up arrow brings the last command back (history)
        child.sendline("")
        child.expect(r"QUEUE\(APP.ORDERS\) TYPE\(QLOCAL\) QSGDISP\(SHARED\) CURDEPTH\(6\)")
        child.expect("QM1>")
        child.sendline("DISPLAY QLOCAL(APP.ORDERS) CURDEPHT")
        child.expect(r"CSQ9001E !QM1 'CURDEPHT' IS INVALID")
        child.expect("QM1>")
        child.sendline("end")
        child.expect("4 MQSC commands read.")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 10  # one command failed


@keeps("docs/mqsc.md", "Scenarios on the wall clock cannot be held and are refused.")
@keeps(
    "docs/mqsc.md",
    (
        "20 the console could not start (no such queue manager, a wall-clock scenario), 2 the "
        "scenario has problems"
    ),
)
def test_qsg_mqsc_says_in_one_line_why_it_cannot_start(tmp_path: Path) -> None:
    # runmqsc's 20: the console could not start; 2: the scenario has problems.
    from click.testing import CliRunner

    from qsg.commands.cli import main

    scenario = tmp_path / "admin.toml"
    scenario.write_text(SCENARIO)
    runner = CliRunner()
    unknown = runner.invoke(main, ["mqsc", str(scenario), "QM9"], input="end\n")
    assert unknown.exit_code == 20
    assert unknown.output == f"qsg mqsc: no queue manager QM9 in {scenario} (it has QM1, QM2)\n"
    wall = tmp_path / "wall.toml"
    wall.write_text(SCENARIO.replace("seed = 3", 'seed = 3\nclock = "wall"'))
    on_the_wall = runner.invoke(main, ["mqsc", str(wall), "QM1"], input="end\n")
    assert on_the_wall.exit_code == 20
    assert "runs on the wall clock, which a console cannot hold still" in on_the_wall.output
    negative = runner.invoke(main, ["mqsc", str(scenario), "QM1", "--at", "-1"])
    assert negative.exit_code == 2 and "-1 is not a number of seconds from 0 on" in negative.output
    broken = tmp_path / "broken.toml"
    broken.write_text(SCENARIO.replace("at = 5", "at = 500"))
    problems = runner.invoke(main, ["mqsc", str(broken), "QM1"], input="end\n")
    assert problems.exit_code == 2 and "is after the run ends" in problems.output


@keeps("README.md", "From a script, `qsg mqsc SCENARIO QM1 < cmds.mqsc`")
@keeps("docs/mqsc.md", "Exit status: 0 every command ran")
@keeps(
    "docs/mqsc.md",
    (
        "`--at SECONDS` (run to that simulated second first, within the scenario's duration; "
        "default 0)"
    ),
)
@keeps(
    "README.md",
    "it plays a scenario to `--at` seconds and opens a console on one of its queue managers",
)
def test_qsg_mqsc_from_a_script_exits_0_when_every_command_ran(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from qsg.commands.cli import main

    scenario = tmp_path / "admin.toml"
    scenario.write_text(SCENARIO)
    done = CliRunner().invoke(
        main,
        ["mqsc", str(scenario), "QM2", "--at", "2.5"],
        input="DIS QLOCAL(APP.ORDERS) CURDEPTH\n",
    )
    assert done.exit_code == 0, done.output
    assert "Starting MQSC for queue manager QM2 at simulated time 2.5 s." in done.output
    assert "CURDEPTH(5)" in done.output  # puts at 0.5, 1.0, ... 2.5
    assert done.output.endswith("1 MQSC command read.\nAll valid MQSC commands were processed.\n")


@keeps("README.md", "exits 10 when a command failed, as runmqsc does")
def test_qsg_mqsc_from_a_script_exits_10_when_a_command_failed(tmp_path: Path) -> None:
    # runmqsc's exit status 10: the file was read to its end, and one or more of its
    # commands failed (here the second: no such queue). The others still ran.
    from click.testing import CliRunner

    from qsg.commands.cli import main

    scenario = tmp_path / "admin.toml"
    scenario.write_text(SCENARIO)
    done = CliRunner().invoke(
        main,
        ["mqsc", str(scenario), "QM2", "--at", "2.5"],
        input="DIS QLOCAL(APP.ORDERS) CURDEPTH\nCLEAR QLOCAL(NO.SUCH.QUEUE)\n"
        "DEFINE QLOCAL(APP.AFTER)\n",
    )
    assert done.exit_code == 10, done.output
    assert "CURDEPTH(5)" in done.output and "QLOCAL(APP.AFTER)" in done.output
    assert "3 MQSC commands read." in done.output
