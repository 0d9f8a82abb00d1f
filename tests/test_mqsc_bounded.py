"""MQSC text bounded before it is built on: one command is at most
``qsg.mqsc.lexer.MAX_COMMAND_LENGTH`` characters (continuations joined), and a problem
quotes at most the start of the value at fault.

A command is a few hundred characters, a long one (a namelist of 256 names) some
thousands. The reader kept every character's place, so one command of 4 MB (a message
to the command server, a line of a file) took 800 MiB and minutes; and the reply to a
value too long copied the whole value into its CSQ9017E line.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from qsg import QMgr
from qsg.mqsc import MQSCError, commands, load, parse
from qsg.mqsc.lexer import MAX_COMMAND_LENGTH
from tests.bounds import memory_bound
from tests.claims import keeps


@keeps(
    "docs/edges.md",
    "an MQSC command longer than 32,768 characters (a line of a file, a message to the command "
    "server) | CSQ9017E at once",
)
@keeps(
    "docs/mqsc.md",
    (
        "A command longer than 32,768 characters (continuations joined: qsg's own bound, far past "
        "any real command) is refused at once with `CSQ9017E ... FAILURE WHILE PROCESSING THE "
        "COMMAND: LONGER THAN 32,768 CHARACTERS`"
    ),
)
def test_a_command_longer_than_the_bound_is_refused_at_once() -> None:
    huge = "DEFINE QLOCAL(A) DESCR(" + "x" * 4_000_000 + ")"
    started = time.monotonic()
    with memory_bound(128 << 20):
        parsed = commands.parse(huge)
    assert time.monotonic() - started < 2
    assert parsed.error == (
        "CSQ9017E",
        f"FAILURE WHILE PROCESSING THE COMMAND: LONGER THAN {MAX_COMMAND_LENGTH:,} CHARACTERS",
    )


def test_a_file_with_an_overlong_command_names_its_line_and_reads_the_rest() -> None:
    text = "DEFINE QLOCAL(A) -\n" + ("DESCR('" + "y" * 40_000 + "') -\n") * 30 + "\n"
    text += "DEFINE QLOCAL(B) DESCR(oops\n"
    with memory_bound(128 << 20), pytest.raises(MQSCError) as raised:
        parse(text, "big.mqsc")
    problems = raised.value.problems
    assert (problems[0].line, problems[0].message) == (
        1,
        f"a command longer than {MAX_COMMAND_LENGTH:,} characters",
    )
    assert problems[1].line == 33  # the next command is read, its own problem found


@keeps("docs/edges.md", "a reply quotes at most 40 characters of a value")
def test_a_problem_quotes_a_value_cut_short() -> None:
    value = "z" * 10_000
    with pytest.raises(MQSCError) as raised:
        load(QMgr("QM1"), f"DEFINE QLOCAL(A) DESCR('{value}') MAXDEPTH({'9' * 5000})")
    messages = [p.message for p in raised.value.problems]
    assert len(messages) == 2 and all(len(m) < 160 for m in messages), messages
    reply = commands.run(commands.parse(f"DEFINE QLOCAL('{value}')"), QMgr("QM1"), lambda: None)  # type: ignore[arg-type, return-value]
    assert reply.failed and all(len(line) < 200 for line in reply.lines), reply.lines


@keeps(
    "docs/edges.md",
    "that line's command refused with CSQ9017E and its echo cut; a line still without end after "
    "16 MiB ends the input (exit 10)",
)
@keeps(
    "docs/mqsc.md",
    (
        "a line longer than the longest command, 32,768 characters, is refused with CSQ9017E and "
        "its echo cut; one still without end after 16 MiB, as from `/dev/zero`, ends the input"
    ),
)
def test_qsg_mqsc_reading_a_script_without_end_refuses_its_line_and_ends(tmp_path: Path) -> None:
    # qsg mqsc S QM1 < /dev/zero read one line until memory ran out.
    scenario = tmp_path / "s.toml"
    scenario.write_text(
        'description = "a queue manager"\n[run]\nduration = 5\n[qmgr.QM1]\n'
        'mqsc = "DEFINE QLOCAL(APP.IN)"\n'
    )
    with open("/dev/zero", "rb") as zero:
        done = subprocess.run(
            [sys.executable, "-m", "qsg.commands.cli", "mqsc", str(scenario), "QM1"],
            stdin=zero,
            capture_output=True,
            timeout=120,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30)),
        )
    out = done.stdout.decode("utf-8", "replace")
    assert done.returncode == 10, (done.returncode, done.stderr[-2000:])
    assert f"LONGER THAN {MAX_COMMAND_LENGTH:,} CHARACTERS" in out
    assert len(out) < 2000  # the echo of the command is cut too
    assert out.endswith("1 MQSC command read.\n1 command could not be processed.\n")
