"""Operator commands as an administrator in a hurry types them, against a running QSG:
sequences of MQSC commands (DEFINE, ALTER, DELETE, START and STOP CHANNEL, CLEAR,
DISPLAY with CMDSCOPE) that redefine transmission queues, channels, the command queue
and the dead-letter queue under the applications' feet, and PCF requests of the same
kinds put to the command server. Whatever the sequence, every command is answered (an
error reply at worst), no command fails inside the queue manager (no ``command-failed``
event), and every queue manager is still up at the end: no command ends the world.

The default run is short (``./dev test``); ``-m slow`` runs the long one.
"""

from __future__ import annotations

import contextlib
import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import qsg
from actors import admin
from actors.events import CommandFailed
from actors.world import World
from qsg import CMQC, MD, PMO
from tests.claims import keeps
from tests.worlds import qsg_and_qm3

#: Commands that change what a running channel, its transmission queue, the command
#: server and the applications rely on.
MQSC = [
    "ALTER CHANNEL(QM1.TO.QM3) CHLTYPE(SDR) XMITQ(NOPE)",
    "ALTER CHANNEL(QM1.TO.QM3) CHLTYPE(SDR) XMITQ(QM3)",
    "ALTER CHANNEL(QM1.TO.QM3) CHLTYPE(SDR) XMITQ(APP.REPLIES)",
    "ALTER CHANNEL(QM1.TO.QM3) CHLTYPE(SDR) CONNAME('QM9')",
    "ALTER CHANNEL(QM1.TO.QM3) CHLTYPE(SDR) CONNAME('QM3')",
    "DEFINE CHANNEL(QM1.TO.QM3) CHLTYPE(SDR) CONNAME('QM3') XMITQ(QM3) REPLACE",
    "DELETE CHANNEL(QM1.TO.QM3)",
    "STOP CHANNEL(QM1.TO.QM3)",
    "START CHANNEL(QM1.TO.QM3)",
    "DELETE QLOCAL(QM3)",
    "DEFINE QLOCAL(QM3) USAGE(XMITQ) REPLACE",
    "DEFINE QLOCAL(QM3) QSGDISP(SHARED) CFSTRUCT(APP1) USAGE(XMITQ) REPLACE",
    "ALTER QLOCAL(QM3) GET(DISABLED)",
    "ALTER QLOCAL(QM3) GET(ENABLED)",
    "ALTER QLOCAL(QM3) PUT(DISABLED)",
    "ALTER QLOCAL(QM3) USAGE(NORMAL)",
    "ALTER QLOCAL(QM3) MAXDEPTH(0)",
    "CLEAR QLOCAL(QM3)",
    "ALTER QLOCAL(SYSTEM.COMMAND.INPUT) GET(DISABLED)",
    "ALTER QLOCAL(SYSTEM.COMMAND.INPUT) GET(ENABLED)",
    "DELETE QLOCAL(SYSTEM.COMMAND.INPUT)",
    "ALTER QLOCAL(APP.SHARED) GET(DISABLED)",
    "DELETE QLOCAL(APP.SHARED) PURGE",
    "ALTER QMGR DEADQ(APP.REPLIES)",
    "ALTER QMGR EXPRYINT(1)",
    "DELETE CFSTRUCT(APP1)",
    "DISPLAY CHSTATUS(*) CMDSCOPE(*)",
    "DISPLAY QSTATUS(*) TYPE(HANDLE) CMDSCOPE(*)",
    "DISPLAY CFSTATUS(*)",
]
QM3_MQSC = [
    "DELETE QLOCAL(APP.IN)",
    "DEFINE QLOCAL(APP.IN) REPLACE",
    "ALTER QLOCAL(APP.IN) PUT(DISABLED)",
    "DELETE CHANNEL(QM1.TO.QM3)",
    "DEFINE CHANNEL(QM1.TO.QM3) CHLTYPE(RCVR) REPLACE",
    "DEFINE QLOCAL(DLQ) REPLACE",
    "ALTER QMGR DEADQ(DLQ)",
]
PCF_CHANGE_Q, PCF_DELETE_Q, PCF_CLEAR_Q = 8, 12, 9


def pcf(command: int, name: str, *integers: tuple[int, int]) -> bytes:
    text = name.encode()
    text += b" " * (-len(text) % 4)
    parameters = [struct.pack("<5i", 4, 20 + len(text), 2016, 0, len(name.encode())) + text]
    parameters += [struct.pack("<4i", 3, 16, p, v) for p, v in integers]
    head = struct.pack("<9i", 1, 36, 1, command, 1, 1, 0, 0, len(parameters))
    return head + b"".join(parameters)


PCF = [
    pcf(PCF_CHANGE_Q, "SYSTEM.COMMAND.INPUT", (20, 1), (CMQC.MQIA_INHIBIT_GET, 1)),
    pcf(PCF_CHANGE_Q, "QM3", (20, 1), (CMQC.MQIA_USAGE, 0)),
    pcf(PCF_DELETE_Q, "QM3"),
    pcf(PCF_CLEAR_Q, "QM3"),
    pcf(PCF_CHANGE_Q, "QM3", (20, 1), (CMQC.MQIA_INHIBIT_GET, 1)),
]

#: The channel's own commands, drawn more often: a stopped channel whose transmission
#: queue went away, started again, ended every queue manager.
CHANNEL = [
    "STOP CHANNEL(QM1.TO.QM3)",
    "START CHANNEL(QM1.TO.QM3)",
    "DELETE QLOCAL(QM3)",
    "ALTER CHANNEL(QM1.TO.QM3) CHLTYPE(SDR) XMITQ(NOPE)",
    "DEFINE QLOCAL(QM3) USAGE(XMITQ) REPLACE",
]
Step = tuple[str, str | bytes]
STEPS = st.one_of(
    st.tuples(st.just("QM1"), st.sampled_from(CHANNEL)),
    st.tuples(st.sampled_from(["QM1", "QM2"]), st.sampled_from(MQSC)),
    st.tuples(st.just("QM3"), st.sampled_from(QM3_MQSC)),
    st.tuples(st.sampled_from(["QM1", "QM2"]), st.sampled_from(PCF)),
    st.tuples(st.just("put"), st.sampled_from(["TO.QM3", "TO.NOWHERE", "APP.SHARED"])),
)


async def play(world: World, steps: list[Step]) -> list[CommandFailed]:
    failures: list[CommandFailed] = []
    world.events.listen(failures.append, CommandFailed)
    app = await world.connect("QM1")
    for who, what in steps:
        if who == "put":
            with contextlib.suppress(qsg.MQMIError):  # refused: inhibited, full, gone
                await app.put1(str(what), b"x", MD(Persistence=1), PMO())
        elif isinstance(what, bytes):
            admin_conn = await world.connect(who)
            md = MD(Format=CMQC.MQFMT_ADMIN, MsgType=CMQC.MQMT_REQUEST, Encoding=0x222)
            # No reply is awaited (the command server may be waiting for gets to be
            # allowed again); the command queue itself may be inhibited or gone.
            with contextlib.suppress(qsg.MQMIError):
                await admin_conn.put1("SYSTEM.ADMIN.COMMAND.QUEUE", what, md, PMO())
        else:
            reply = await admin.command(world, who, what)
            assert reply.lines and reply.lines[-1].startswith(("CSQ9022I", "CSQ9023E", "CSQN122I"))
        await qsg.sleep(1.5)
    await qsg.sleep(30)
    assert all(qm.alive for qm in world.qmgrs.values())
    return failures


def run(steps: list[Step]) -> None:
    async def main() -> list[CommandFailed]:
        async with qsg.start(qsg_and_qm3(), in_process=True) as world:
            return await play(world, steps)

    assert qsg.run(main) == []


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(STEPS, min_size=1, max_size=25))
@keeps("docs/security.md", "No command, from a console, PCF or a scenario, can end the run")
@keeps(
    "docs/mqsc.md",
    "No command ends the queue manager or the run, whatever console it comes from",
)
def test_no_sequence_of_operator_commands_ends_the_world(steps: list[Step]) -> None:
    run(steps)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(STEPS, min_size=1, max_size=60))
def test_no_long_sequence_of_operator_commands_ends_the_world(steps: list[Step]) -> None:
    run(steps)
