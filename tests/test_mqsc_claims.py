"""Promises of docs/mqsc.md no other test held (issue 42, "Every claim kept"): the CSQ9
syntax messages, a specific name not found, what the console refuses because it is not
simulated, the command queues and when the command server starts, and how the console
ends."""

from __future__ import annotations

import io
from pathlib import Path

import trio
from click.testing import CliRunner

import qsg
from actors import admin
from actors.clock import VirtualClock
from actors.world import World
from qsg import CMQC, MD, PMO
from qsg.commands.cli import main
from qsg.commands.console import Tally, file_lines, session
from tests.claims import keeps
from tests.test_mqsc_console import SCENARIO
from tests.test_pcf_command_server import MQCMD_PING_Q_MGR, admin_of, request
from tests.worlds import qsg_and_qm3


async def lines_of(world: World, text: str) -> tuple[bool, tuple[str, ...]]:
    reply = await admin.command(world, "QM1", text)
    return reply.failed, reply.lines


@keeps(
    "docs/mqsc.md",
    "Syntax errors are CSQ9 messages (CSQ9000E a keyword given twice, CSQ9001E an unknown "
    "keyword or verb, CSQ9002E unbalanced parentheses, CSQ9003E unbalanced quotes).",
)
async def test_syntax_errors_are_csq9000e_to_csq9003e_and_end_abnormally(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        for text, first in [
            ("DISPLAY QLOCAL(APP.SHARED) DESCR DESCR", "CSQ9000E !QM1 'DESCR' APPEARS MORE"),
            ("DISPLAY QLOCAL(APP.SHARED) COLOUR", "CSQ9001E !QM1 'COLOUR' IS INVALID"),
            ("FROB QLOCAL(APP.SHARED)", "CSQ9001E !QM1 'FROB' IS INVALID"),
            ("DISPLAY QLOCAL(APP.SHARED", "CSQ9002E !QM1 UNBALANCED PARENTHESES"),
            ("DISPLAY QLOCAL('APP.SHARED)", "CSQ9003E !QM1 'QLOCAL' PARAMETER CONTAINS UNBAL"),
        ]:
            failed, lines = await lines_of(world, text)
            assert failed and lines[0].startswith(first), (text, lines)
            assert lines[-1].startswith("CSQ9023E !QM1") and "ABNORMAL COMPLETION" in lines[-1]


@keeps(
    "docs/mqsc.md",
    "a specific name that is not there gives CSQM125I, CSQM090E and `CSQ9023E ... ABNORMAL "
    "COMPLETION`",
)
@keeps("docs/mqsc.md", "A generic name matching nothing gives CSQM297I and completes normally")
async def test_a_specific_name_not_there_fails_and_a_generic_one_matching_nothing_does_not(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        failed, lines = await lines_of(world, "DISPLAY QLOCAL(NO.SUCH)")
        assert failed and [line.split()[0] for line in lines] == [
            "CSQM125I",
            "CSQM090E",
            "CSQ9023E",
        ]
        failed, lines = await lines_of(world, "DISPLAY QLOCAL(NO.SUCH.*)")
        assert not failed and [line.split()[0] for line in lines] == ["CSQM297I", "CSQ9022I"]


@keeps("docs/mqsc.md", "each refused as an unknown keyword, CSQ9001E, and CSQ9023E.")
@keeps(
    "docs/mqsc.md",
    "Channel commands on receivers (CSQM090E ... IS NOT A SENDER CHANNEL).",
)
@keeps("docs/mqsc.md", "START CMDSERV and STOP CMDSERV (CSQ9001E)")
async def test_what_the_console_does_not_simulate_is_refused_with_csq9001e(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        for text, word in [
            ("DISPLAY AUTHINFO(*)", "AUTHINFO"),
            ("DISPLAY THREAD(*)", "THREAD"),
            ("DISPLAY QSTATUS(APP.SHARED) QTIME", "QTIME"),
            ("DISPLAY CHSTATUS(*) MONITOR", "MONITOR"),
            ("STOP CHANNEL(QM1.TO.QM3) MODE(FORCE)", "MODE"),
            ("STOP CHANNEL(QM1.TO.QM3) STATUS(INACTIVE)", "STATUS"),
            ("START CMDSERV", "CMDSERV"),
            ("STOP CMDSERV", "CMDSERV"),
        ]:
            failed, lines = await lines_of(world, text)
            assert failed and lines[0] == f"CSQ9001E !QM1 '{word}' IS INVALID", (text, lines)
            assert lines[-1].startswith("CSQ9023E !QM1")
        receiver = await admin.command(world, "QM3", "START CHANNEL(QM1.TO.QM3)")
        assert receiver.failed and receiver.lines[0] == (
            "CSQM090E !QM3 CSQMSCHL CHANNEL(QM1.TO.QM3) IS NOT A SENDER CHANNEL"
        )


async def test_start_and_stop_cmdserv_end_naming_the_command_given_not_a_channel_command(
    virtual_clock: VirtualClock,
) -> None:
    # CSQ9023E names the command that ended abnormally, as it was entered.
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        for text in ("START CMDSERV", "STOP CMDSERV", "STOP QMGR"):
            failed, lines = await lines_of(world, text)
            assert failed and lines[-1].endswith(f"' {text}' ABNORMAL COMPLETION"), lines
        _, lines = await lines_of(world, "START CHANNEL(NO.SUCH)")
        assert lines[-1].endswith("' START CHANNEL' ABNORMAL COMPLETION")


@keeps(
    "docs/mqsc.md",
    "Each queue manager has z/OS's command queues: `SYSTEM.COMMAND.INPUT`, "
    "`SYSTEM.ADMIN.COMMAND.QUEUE` (an alias of it, the name PCF tools use everywhere) and the "
    "model `SYSTEM.COMMAND.REPLY.MODEL`. Its command server starts when the first message is "
    "put there",
)
async def test_the_command_queues_are_defined_and_the_server_opens_its_queue_at_the_first_request(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        _, alias = await lines_of(world, "DISPLAY QUEUE(SYSTEM.ADMIN.COMMAND.QUEUE) TARGET")
        assert "TYPE(QALIAS) QSGDISP(QMGR) TARGET(SYSTEM.COMMAND.INPUT)" in alias[1]
        _, model = await lines_of(world, "DISPLAY QMODEL(SYSTEM.COMMAND.REPLY.MODEL)")
        assert "QUEUE(SYSTEM.COMMAND.REPLY.MODEL) TYPE(QMODEL)" in model[1]
        status = "DISPLAY QSTATUS(SYSTEM.COMMAND.INPUT) IPPROCS"
        await trio.sleep(10)
        assert "IPPROCS(0)" in (await lines_of(world, status))[1][1]  # no server yet
        async with admin_of(world, "QM1") as pcf:
            [(header, _)] = await pcf.ask(request(MQCMD_PING_Q_MGR))
            assert header[6:8] == (0, 0)
        assert "IPPROCS(1)" in (await lines_of(world, status))[1][1]  # the server's handle


@keeps("docs/mqsc.md", "`end` (or `exit`, `quit`, or the end of the input) ends the console")
async def test_end_exit_quit_or_the_end_of_the_input_end_the_console(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        for text in (
            f"DISPLAY QMGR EXPRYINT\n{last}\nDISPLAY QMGR DEADQ\n"
            for last in ("end", "EXIT", "quit")
        ):
            script = io.StringIO(text)
            out, tally = io.StringIO(), Tally()
            await session(world, "QM1", file_lines(script), out, tally)
            assert tally.read == 1 and "DEADQ" not in out.getvalue(), text
        out, tally = io.StringIO(), Tally()
        await session(world, "QM1", file_lines(io.StringIO("DISPLAY QMGR EXPRYINT\n")), out, tally)
        assert out.getvalue().endswith(
            "1 MQSC command read.\nAll valid MQSC commands were processed.\n"
        )


@keeps(
    "docs/mqsc.md",
    "2 the scenario has problems or `--at` is after the scenario's end",
)
def test_qsg_mqsc_at_a_time_after_the_scenarios_end_exits_2(tmp_path: Path) -> None:
    scenario = tmp_path / "admin.toml"
    scenario.write_text(SCENARIO)  # duration = 20
    late = CliRunner().invoke(main, ["mqsc", str(scenario), "QM1", "--at", "21"], input="end\n")
    assert late.exit_code == 2, late.output
    assert "21 s is after the scenario's end (20 s)" in late.output


@keeps(
    "docs/mqsc.md",
    "every message of a local (or shared) queue gone; refused while it is open or has "
    "uncommitted work",
)
async def test_clear_qlocal_empties_a_queue_but_not_one_open_or_with_uncommitted_work(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        conn = await world.connect("QM2")
        shared = await conn.open("APP.SHARED", CMQC.MQOO_OUTPUT)
        for _ in range(3):
            await shared.put(b"m", MD(), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT))
        failed, lines = await lines_of(world, "CLEAR QLOCAL(APP.SHARED)")
        assert failed and lines[-1].startswith("CSQ9023E"), lines  # QM2 has it open
        await shared.put(b"u", MD(), PMO(Options=CMQC.MQPMO_SYNCPOINT))
        await shared.close()
        failed, lines = await lines_of(world, "CLEAR QLOCAL(APP.SHARED)")
        assert failed, lines  # closed, but a unit of work holds a put
        await conn.commit()
        assert (await lines_of(world, "CLEAR QLOCAL(APP.SHARED)"))[0] is False
        _, depth = await lines_of(world, "DISPLAY QLOCAL(APP.SHARED) CURDEPTH")
        assert "CURDEPTH(0)" in depth[1]
