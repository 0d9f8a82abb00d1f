"""``qsg exec``: a pymqi program run unchanged inside a simulated QSG (issue 25).

The programs under tests/programs are pymqi's documented examples; each runs here
under ``qsg exec`` on scenarios/exec-qsg.toml (two z/OS members of QSG1 and a Linux
QM3), and what it did is read back from the run's event log.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from actors.events import MessagePut
from qsg.cli import main
from qsg.exec.command import run_exec
from qsg.exec.program import CommandError, Program, parse_command
from qsg.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "tests" / "programs"
SCENARIO = ROOT / "scenarios" / "exec-qsg.toml"


def program(name: str, *args: str) -> Program:
    return parse_command(["python", str(PROGRAMS / name), *args])


def test_a_put_by_pymqis_example_program_is_a_message_on_the_shared_queue() -> None:
    outcome, result = run_exec(load_scenario(SCENARIO), program("put_message.py"), virtual=True)
    assert outcome.exit_status == 0 and not outcome.stopped
    puts = [e for e in result.events if isinstance(e, MessagePut) and e.queue == "TEST.1"]
    assert [(p.q_mgr, p.size) for p in puts] == [("QM1", len(b"Hello from Python!"))]


def test_qsg_exec_prints_the_programs_output_and_exits_with_its_status() -> None:
    runner = CliRunner()
    code = (
        "import pymqi, sys; q = pymqi.connect('QM3');"
        " print('platform', q.inquire(pymqi.CMQC.MQIA_PLATFORM)); sys.exit(3)"
    )
    result = runner.invoke(main, ["exec", str(SCENARIO), "--virtual", "--quiet", "--",
                                  "python", "-c", code])
    assert result.exit_code == 3, result.output
    assert "platform 3" in result.stdout


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ([], r"^no program given: after --, give python PROGRAM\.py"),
        (["ruby", "app.rb"], r"^'ruby' is not a Python interpreter"),
        (["python", "-X", "dev", "app.py"], r"^python option -X is not supported"),
        (["python", "no/such/app.py"], r"^can't open file 'no/such/app.py'"),
    ],
)
def test_a_command_that_is_not_a_python_program_is_refused_in_one_line(
    command: list[str], message: str
) -> None:
    with pytest.raises(CommandError, match=message):
        parse_command(command)


def test_the_cli_refuses_another_command_with_exit_status_2() -> None:
    result = CliRunner().invoke(main, ["exec", str(SCENARIO), "--", "node", "app.js"])
    assert result.exit_code == 2
    assert "is not a Python interpreter" in result.output
