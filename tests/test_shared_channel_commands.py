"""The channel commands on shared channels beyond MQSC START and STOP: PCF Start
Channel and Stop Channel with ChannelDisposition through the command server, DISPLAY
CHSTATUS SHORT and its CHLDISP selection, PING, RESET and RESOLVE CHANNEL with CHLDISP,
and the triggered start of a shared sender (IBM MQ for z/OS: "Start Channel", "Stop
Channel", "DISPLAY CHSTATUS", "Transmission queues and triggering channels in queue
sharing groups")."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import pytest
import trio

import qsg
from actors.admin import command
from actors.clock import VirtualClock
from actors.world import World
from qsg import pymqi
from qsg.commands.exec.runner import facade_bound
from qsg.pymqi import CMQCFC
from tests.claims import keeps
from tests.test_shared_channels import owner, shared_sender

T = TypeVar("T")


def in_shared_world(body: Callable[[World], T]) -> T:
    """``body(world)`` as a program's synchronous pymqi code, in QSG1 (QM1, QM2) whose
    sender QSG.TO.QM3 has the shared transmission queue QM3.XMITQ."""

    async def main() -> T:
        async with (
            qsg.start(shared_sender(), in_process=True, seed=3) as world,
            facade_bound(world, virtual=True),
        ):
            return body(world)

    return qsg.run(main)


def refused(call: Callable[[], object]) -> int:
    """The reason code PCFExecute raises for ``call``."""
    with pytest.raises(pymqi.MQMIError) as raised:
        call()
    return int(raised.value.reason)


@keeps(
    "docs/channels.md",
    "PCF Start Channel and Stop Channel take ChannelDisposition (MQIACH_CHANNEL_DISP)",
)
def test_pcf_start_and_stop_channel_with_channel_disposition_do_what_mqsc_chldisp_does() -> None:
    # "Start Channel" (PCF): ChannelDisposition MQCHLD_FIXSHARED runs it shared on the
    # queue manager CommandScope names; MQCHLD_SHARED with a CommandScope, or
    # MQCHLD_PRIVATE for a sender whose transmission queue is shared, is 3211.
    def body(world: World) -> dict[str, object]:
        pcf = pymqi.PCFExecute(pymqi.connect("QM1"))
        name = {CMQCFC.MQCACH_CHANNEL_NAME: b"QSG.TO.QM3"}
        seen: dict[str, object] = {"first": owner(world)}
        pcf.MQCMD_STOP_CHANNEL({**name, CMQCFC.MQIACH_CHANNEL_DISP: CMQCFC.MQCHLD_SHARED})
        seen["stopped"] = world.qsgs["QSG1"].channel_status.holder("QSG.TO.QM3")
        pcf.MQCMD_START_CHANNEL(
            {
                **name,
                CMQCFC.MQIACH_CHANNEL_DISP: CMQCFC.MQCHLD_FIXSHARED,
                CMQCFC.MQCACF_COMMAND_SCOPE: b"QM2",
            }
        )
        held = world.qsgs["QSG1"].channel_status.holder("QSG.TO.QM3")
        seen["fixed"] = None if held is None else (held.owner, held.disposition)
        seen["shared+scope"] = refused(
            lambda: pcf.MQCMD_START_CHANNEL(
                {
                    **name,
                    CMQCFC.MQIACH_CHANNEL_DISP: CMQCFC.MQCHLD_SHARED,
                    CMQCFC.MQCACF_COMMAND_SCOPE: b"QM2",
                }
            )
        )
        seen["private"] = refused(
            lambda: pcf.MQCMD_START_CHANNEL(
                {**name, CMQCFC.MQIACH_CHANNEL_DISP: CMQCFC.MQCHLD_PRIVATE}
            )
        )
        seen["second"] = refused(
            lambda: pcf.MQCMD_START_CHANNEL(
                {**name, CMQCFC.MQIACH_CHANNEL_DISP: CMQCFC.MQCHLD_FIXSHARED}
            )
        )
        seen["unknown"] = refused(
            lambda: pcf.MQCMD_START_CHANNEL({CMQCFC.MQCACH_CHANNEL_NAME: b"NO.SUCH"})
        )
        seen["stop fixshared"] = refused(
            lambda: pcf.MQCMD_STOP_CHANNEL(
                {**name, CMQCFC.MQIACH_CHANNEL_DISP: CMQCFC.MQCHLD_FIXSHARED}
            )
        )
        return seen

    seen = in_shared_world(body)
    assert seen["stopped"] is None
    assert seen["fixed"] == ("QM2", CMQCFC.MQCHLD_FIXSHARED)
    assert seen["shared+scope"] == CMQCFC.MQRCCF_DISPOSITION_CONFLICT
    assert seen["private"] == CMQCFC.MQRCCF_DISPOSITION_CONFLICT
    assert seen["second"] == CMQCFC.MQRCCF_CHANNEL_IN_USE  # CSQX477E: it runs on QM2
    assert seen["unknown"] == CMQCFC.MQRCCF_CHANNEL_NOT_FOUND
    assert seen["stop fixshared"] == CMQCFC.MQRCCF_PARM_VALUE_ERROR


def chstatus(lines: tuple[str, ...]) -> list[str]:
    """The channels a DISPLAY CHSTATUS reply names, in order."""
    return [line.split("CHSTATUS(")[1].split(")")[0] for line in lines if "CHSTATUS(" in line]


@keeps(
    "docs/channels.md",
    "CHLDISP(ALL) (the default), CHLDISP(PRIVATE) or CHLDISP(SHARED) (SHARED and "
    "FIXSHARED instances)",
)
async def test_display_chstatus_selects_by_chldisp_and_by_current_saved_or_short(
    virtual_clock: VirtualClock,
) -> None:
    # "DISPLAY CHSTATUS", tables 1 to 3: CHLDISP(PRIVATE | SHARED | ALL) x CURRENT,
    # SAVED, SHORT; SHORT is the group's view, CURRENT the local queue manager's.
    async with qsg.start(shared_sender(), seed=3, in_process=True) as world:
        await trio.sleep(1)
        running = owner(world)
        await world.stop_channel(running, "QSG.TO.QM3")
        await world.start_channel("QM2", "QSG.TO.QM3", chldisp="FIXSHARED")
        await trio.sleep(1)
        shown: dict[str, list[str]] = {}
        for on, text in [
            ("QM1", "DISPLAY CHSTATUS(*)"),
            ("QM1", "DISPLAY CHSTATUS(*) SHORT"),
            ("QM1", "DISPLAY CHSTATUS(*) SHORT CHLDISP(SHARED)"),
            ("QM1", "DISPLAY CHSTATUS(*) CHLDISP(PRIVATE)"),
            ("QM2", "DISPLAY CHSTATUS(*) CHLDISP(SHARED)"),
            ("QM2", "DISPLAY CHSTATUS(*) CHLDISP(PRIVATE)"),
        ]:
            reply = await command(world, on, text)
            shown[f"{on} {text}"] = chstatus(reply.lines)
        short = await command(world, "QM1", "DISPLAY CHSTATUS(QSG.TO.QM3) SHORT")
        saved = await command(world, "QM1", "DISPLAY CHSTATUS(QSG.PRIVATE) SAVED")
        wrong = await command(world, "QM1", "DISPLAY CHSTATUS(*) CHLDISP(FIXSHARED)")
    assert shown["QM1 DISPLAY CHSTATUS(*)"] == ["QSG.PRIVATE"]  # QSG.TO.QM3 runs on QM2
    assert shown["QM1 DISPLAY CHSTATUS(*) SHORT"] == ["QSG.PRIVATE", "QSG.TO.QM3"]
    assert shown["QM1 DISPLAY CHSTATUS(*) SHORT CHLDISP(SHARED)"] == ["QSG.TO.QM3"]
    assert shown["QM1 DISPLAY CHSTATUS(*) CHLDISP(PRIVATE)"] == ["QSG.PRIVATE"]
    assert shown["QM2 DISPLAY CHSTATUS(*) CHLDISP(SHARED)"] == ["QSG.TO.QM3"]
    assert shown["QM2 DISPLAY CHSTATUS(*) CHLDISP(PRIVATE)"] == []
    (line,) = [line for line in short.lines if "CHSTATUS(" in line]
    assert "CHLDISP(FIXSHARED)" in line and "SHORT" in line and "QMNAME(QM2)" in line, line
    assert "MSGS(" not in line, line  # the short status: STATUS and QMNAME
    (kept,) = [line for line in saved.lines if "CHSTATUS(" in line]
    assert "SAVED" in kept and "STATUS(RUNNING)" in kept, kept
    assert "MSGS(" not in kept, kept  # the common status fields alone
    assert wrong.failed and "'CHLDISP(FIXSHARED)' IS INVALID" in wrong.lines[0], wrong.lines
