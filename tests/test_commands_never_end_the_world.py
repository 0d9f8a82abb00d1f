"""No operator command ends the world: from the console (``qsg mqsc``), a scenario's
``[[at]]``, the command server's MQSC or PCF messages, the worst a command gets is an
error reply, and the run goes on.

On z/OS a command the queue manager cannot carry out is answered with its reason and
``CSQ9023E ... ABNORMAL COMPLETION`` (PCF: MQCC_FAILED and an MQRCCF_* reason); the
queue manager does not end. An unexpected failure inside a command (a defect of the
simulator) is answered the same way (CSQ9023E, MQRCCF_COMMAND_FAILED), logged with its
traceback and recorded as a ``command-failed`` event.
"""

from __future__ import annotations

import logging

import pytest
import trio

import qsg
from actors import admin
from actors.clock import VirtualClock
from actors.events import ChannelStateChanged, CommandFailed
from qsg.mqsc import commands
from tests.claims import keeps
from tests.test_pcf_command_server import admin_of, cfin, cfst, request
from tests.worlds import qsg_and_qm3

MQCMD_CHANGE_Q, MQCMD_INQUIRE_Q, MQCMD_PING_Q_MGR = 8, 13, 40
MQCA_Q_NAME, MQIA_Q_TYPE, MQIA_INHIBIT_GET = 2016, 20, 9
MQQT_LOCAL, MQQA_GET_INHIBITED = 1, 1
MQCC_FAILED, MQRCCF_COMMAND_FAILED = 2, 3008


@keeps(
    "docs/edges.md",
    "START CHANNEL of a sender whose XMITQ is missing or not a transmission queue | CSQM090E and "
    "CSQ9023E; the run goes on",
)
@keeps(
    "docs/mqsc.md",
    (
        "START is refused (CSQM090E, CSQ9023E) when the channel's XMITQ is not there "
        "(MQRC_UNKNOWN_OBJECT_NAME) or is not a local queue of USAGE(XMITQ) (MQRCCF_NOT_XMIT_Q)"
    ),
)
async def test_start_channel_of_a_sender_whose_xmitq_is_missing_is_an_error_reply(
    virtual_clock: VirtualClock,
) -> None:
    # The run failed with "MQMIError ... 2085" and every queue manager ended.
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        define = "DEFINE CHANNEL(BAD.SDR) CHLTYPE(SDR) CONNAME('QM3') XMITQ(NO.SUCH.XQ)"
        assert not (await admin.command(world, "QM1", define)).failed
        reply = await admin.command(world, "QM1", "START CHANNEL(BAD.SDR)")
        assert reply.failed
        assert reply.lines == (
            "CSQM090E !QM1 CSQMSCHL CHANNEL(BAD.SDR) XMITQ(NO.SUCH.XQ) "
            "WAS NOT FOUND (MQRC_UNKNOWN_OBJECT_NAME 2085)",
            "CSQ9023E !QM1 CSQMSCHL ' START CHANNEL' ABNORMAL COMPLETION",
        )
        # XMITQ naming a queue that is not a transmission queue: MQRCCF_NOT_XMIT_Q's case.
        await admin.command(world, "QM1", "ALTER CHANNEL(BAD.SDR) CHLTYPE(SDR) XMITQ(APP.REPLIES)")
        reply = await admin.command(world, "QM1", "START CHANNEL(BAD.SDR)")
        assert reply.failed and "IS NOT A TRANSMISSION QUEUE" in reply.lines[0]
        await trio.sleep(30)
        assert all(qm.alive for qm in world.qmgrs.values())
        assert not (await admin.command(world, "QM1", "DISPLAY QMGR")).failed


@keeps(
    "docs/edges.md",
    'the channel ends STOPPED with an AMQ9999E line ("ended abnormally") in the log and its '
    "`channel-state` event; the queue manager goes on",
)
async def test_a_sender_started_another_way_whose_xmitq_is_gone_stops_and_the_run_goes_on(
    virtual_clock: VirtualClock, caplog: pytest.LogCaptureFixture
) -> None:
    # A fault's start_channel, a restart's start of every sender: no command to refuse
    # it, the agent itself finds the queue missing. It ends as an MCA ends on an MQ
    # error (AMQ9999E, "ended abnormally"): STOPPED, with the reason.
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        seen: list[ChannelStateChanged] = []
        world.events.listen(seen.append, ChannelStateChanged)
        await admin.command(
            world, "QM1", "DEFINE CHANNEL(BAD.SDR) CHLTYPE(SDR) CONNAME('QM3') XMITQ(NO.SUCH.XQ)"
        )
        with caplog.at_level(logging.ERROR):
            await world.start_channel("QM1", "BAD.SDR")
            await trio.sleep(10)
        assert all(qm.alive for qm in world.qmgrs.values())
        last = [e for e in seen if e.channel == "BAD.SDR"][-1]
        assert last.state == "STOPPED" and "2085" in last.detail
        assert "AMQ9999E" in caplog.text and "BAD.SDR" in caplog.text


@keeps(
    "docs/edges.md",
    "answered OK; the command server logs CSQN203I once and retries every second until gets are "
    "allowed again",
)
@keeps(
    "docs/mqsc.md",
    (
        "The command server outlives what is done to its own queue. Made GET(DISABLED), by PCF "
        "CHANGE_Q or by MQSC, its MQGET fails with MQRC_GET_INHIBITED (2016)"
    ),
)
@keeps(
    "docs/mqsc.md",
    (
        "once gets are allowed again (`ALTER QLOCAL(SYSTEM.COMMAND.INPUT) GET(ENABLED)` from the "
        "console or an `[[at]]`) it serves the requests put meanwhile."
    ),
)
async def test_get_disabled_on_the_command_queue_over_pcf_is_answered_and_the_server_waits(
    virtual_clock: VirtualClock,
) -> None:
    # The command server answered CC 0, its next MQGET failed with 2016 and the run
    # ended. As MQ's reason 2016 says ("retry the operation later"), it waits until
    # gets are allowed again, then serves what was put meanwhile.
    async with qsg.start(qsg_and_qm3(), in_process=True) as world, admin_of(world, "QM1") as pcf:
        disable = request(
            MQCMD_CHANGE_Q,
            cfst(MQCA_Q_NAME, "SYSTEM.COMMAND.INPUT"),
            cfin(MQIA_Q_TYPE, MQQT_LOCAL),
            cfin(MQIA_INHIBIT_GET, MQQA_GET_INHIBITED),
        )
        ((header, _),) = await pcf.ask(disable)
        assert (header[6], header[7]) == (0, 0)
        await trio.sleep(30)
        assert all(qm.alive for qm in world.qmgrs.values())
        # A request put now waits on the queue; the console enables gets again.
        async with trio.open_nursery() as nursery:
            answers: list[object] = []

            async def ping() -> None:
                answers.extend(await pcf.ask(request(MQCMD_PING_Q_MGR)))

            nursery.start_soon(ping)
            await trio.sleep(2)
            assert not answers
            enable = "ALTER QLOCAL(SYSTEM.COMMAND.INPUT) GET(ENABLED)"
            assert not (await admin.command(world, "QM1", enable)).failed
        assert [(h[6], h[7]) for h, _ in answers] == [(0, 0)]  # type: ignore[index]


@keeps(
    "docs/edges.md",
    "CSQ9017E and CSQ9023E (PCF: MQRCCF_COMMAND_FAILED), its traceback in the log "
    "(`qsg.commands`) and in a `command-failed` event; the run goes on",
)
@keeps(
    "docs/security.md",
    (
        "No command, from a console, PCF or a scenario, can end the run: at worst it is an error "
        "reply (CSQ9023E / MQRCCF_COMMAND_FAILED) with its traceback in the run's record"
    ),
)
@keeps(
    "docs/mqsc.md",
    (
        "A failure inside the queue manager that MQ would not give (a defect of the simulator) is "
        "answered `CSQ9017E ... FAILURE WHILE PROCESSING THE COMMAND: <the error>` and CSQ9023E, "
        "logged with its traceback (Python logger `qsg.commands`, at ERROR) and recorded as a "
        "`command-failed` event in the run's event log ([events.md](events.md)); the run goes on."
    ),
)
@keeps(
    "docs/mqsc.md",
    "answered MQCC_FAILED, MQRCCF_COMMAND_FAILED (3008), and recorded as the console's are",
)
async def test_an_unexpected_failure_inside_a_command_is_csq9023e_and_recorded(
    virtual_clock: VirtualClock,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # A defect of the simulator, planted: DISPLAY's answer raises. The console gets
    # CSQ9023E, PCF MQRCCF_COMMAND_FAILED; the traceback is logged and in the run's
    # event log; the queue managers go on.
    def broken(*args: object, **kwargs: object) -> commands.Reply:
        raise ZeroDivisionError("a planted defect")

    async with qsg.start(qsg_and_qm3(), in_process=True) as world, admin_of(world, "QM1") as pcf:
        failures: list[CommandFailed] = []
        world.events.listen(failures.append, CommandFailed)
        monkeypatch.setattr(commands, "answer", broken)
        monkeypatch.setattr("qsg.mqsc.pcf_inquiries.display.select", broken)
        with caplog.at_level(logging.ERROR):
            reply = await admin.command(world, "QM1", "DISPLAY QLOCAL(APP.SHARED)")
            ((header, _),) = await pcf.ask(request(MQCMD_INQUIRE_Q, cfst(MQCA_Q_NAME, "*")))
        assert reply.failed
        assert reply.lines[0].startswith(
            "CSQ9017E !QM1 FAILURE WHILE PROCESSING THE COMMAND: "
        ) and reply.lines[0].endswith("a planted defect"), reply.lines
        assert reply.lines[-1] == "CSQ9023E !QM1 CSQMDRTS ' DISPLAY QLOCAL' ABNORMAL COMPLETION"
        assert (header[6], header[7]) == (MQCC_FAILED, MQRCCF_COMMAND_FAILED)
        assert [f.command for f in failures] == [
            "DISPLAY QLOCAL(APP.SHARED)",
            "PCF MQCMD_INQUIRE_Q (13)",
        ]
        assert all("ZeroDivisionError: a planted defect" in f.detail for f in failures)
        assert all("Traceback" in f.detail for f in failures)
        assert caplog.text.count("ZeroDivisionError: a planted defect") == 2
        monkeypatch.undo()
        await trio.sleep(10)
        assert all(qm.alive for qm in world.qmgrs.values())
        assert not (await admin.command(world, "QM1", "DISPLAY QLOCAL(APP.SHARED)")).failed
        ((header, _),) = await pcf.ask(request(MQCMD_PING_Q_MGR))
        assert (header[6], header[7]) == (0, 0)
