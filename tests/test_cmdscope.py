"""CMDSCOPE on every MQSC command that takes it, against a live three-member QSG.

IBM's CMDSCOPE (the same text on DEFINE, ALTER, DELETE, CLEAR, START, STOP and DISPLAY):
"' ': the command runs on the queue manager on which it was entered"; "qmgr-name: the
command runs on the queue manager you specify, providing the queue manager is active
within the queue sharing group"; "*: the command runs on the local queue manager and is
also passed to every active queue manager in the queue sharing group"; and "CMDSCOPE
must be blank, or the local queue manager, if QSGDISP is set to GROUP". The reply is
gathered as z/OS gathers it ("Command server messages (CSQN...)"): CSQN137I, a block
per member headed by CSQN121I, CSQN122I (or CSQN123E); a program reading the command
server gets a set of messages per block, each after its CSQN205I count, REASON=00000004
while sets are still to come ("Interpreting the reply messages from the command
server").
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import qsg
from actors import admin
from actors.clock import VirtualClock
from actors.events import CommandRun
from actors.topology import Topology
from actors.world import World
from qsg import CMQC, GMO, MD, OD, PMO
from qsg.scenario.load import parse_scenario
from qsg.scenario.play import run_scenario
from tests.claims import keeps

MEMBERS = ("QM1", "QM2", "QM3")


def three_members() -> Topology:
    t = Topology()
    t.add_qsg("QSG1", members=list(MEMBERS))
    t.add_qmgr("QM4")  # outside any QSG
    t.mqsc("QM1", "DEFINE CFSTRUCT(APP1) CFLEVEL(5)")
    return t


@asynccontextmanager
async def group(cf_mode: dict[str, object]) -> AsyncIterator[World]:
    async with qsg.start(three_members(), **cf_mode) as world:  # type: ignore[arg-type]
        yield world


async def run(world: World, q_mgr: str, text: str) -> list[str]:
    return list((await admin.command(world, q_mgr, text)).lines)


def defined(world: World, name: str) -> list[str]:
    """The members on which a private queue ``name`` is defined."""
    return [m for m in MEMBERS if name in world.qmgrs[m].rules.local.queues]


@keeps(
    "docs/mqsc.md",
    "DEFINE, ALTER, DELETE, CLEAR QLOCAL, START CHANNEL and STOP CHANNEL take CMDSCOPE too",
)
async def test_define_with_cmdscope_star_defines_the_queue_on_every_active_member(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    # "*: ... passed to every active queue manager in the queue sharing group"
    async with group(cf_mode) as world:
        lines = await run(world, "QM1", "DEFINE QLOCAL(APP.EVERYWHERE) MAXDEPTH(7) CMDSCOPE(*)")
        assert lines[0] == (
            "CSQN137I !QM1 'DEFINE QLOCAL' COMMAND ACCEPTED FOR CMDSCOPE(*), SENT TO 3"
        )
        assert [line for line in lines if line.startswith("CSQN121I")] == [
            f"CSQN121I !QM1 'DEFINE QLOCAL' COMMAND RESPONSES FROM {m}" for m in MEMBERS
        ]
        assert [line.split()[1] for line in lines if line.startswith("CSQ9022I")] == [
            "!QM1",
            "!QM2",
            "!QM3",
        ]
        assert lines[-1] == (
            "CSQN122I !QM1 'DEFINE QLOCAL' COMMAND FOR CMDSCOPE(*) NORMAL COMPLETION"
        )
        assert defined(world, "APP.EVERYWHERE") == list(MEMBERS)
        assert world.qmgrs["QM3"].rules.local.queues["APP.EVERYWHERE"].max_depth == 7


async def test_alter_and_delete_with_cmdscope_of_another_member_change_only_that_member(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    # "qmgr-name: the command runs on the queue manager you specify"
    async with group(cf_mode) as world:
        await run(world, "QM1", "DEFINE QLOCAL(APP.Q) CMDSCOPE(*)")
        lines = await run(world, "QM1", "ALTER QLOCAL(APP.Q) MAXDEPTH(11) CMDSCOPE(QM2)")
        assert lines[0].endswith("COMMAND ACCEPTED FOR CMDSCOPE(QM2), SENT TO 1")
        assert lines[1] == "CSQN121I !QM1 'ALTER QLOCAL' COMMAND RESPONSES FROM QM2"
        assert lines[2] == "CSQ9022I !QM2 CSQMMSGP ' ALTER QLOCAL' NORMAL COMPLETION"
        depths = [world.qmgrs[m].rules.local.queues["APP.Q"].max_depth for m in MEMBERS]
        assert depths[1] == 11 and depths[0] == depths[2] != 11
        await run(world, "QM1", "DELETE QLOCAL(APP.Q) CMDSCOPE(QM3)")
        assert defined(world, "APP.Q") == ["QM1", "QM2"]


async def test_a_member_whose_command_fails_ends_the_reply_with_csqn123e(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    async with group(cf_mode) as world:
        await run(world, "QM2", "DEFINE QLOCAL(APP.ONLY.QM2)")
        reply = await admin.command(world, "QM1", "CLEAR QLOCAL(APP.ONLY.QM2) CMDSCOPE(*)")
        assert reply.failed
        assert "CSQM125I !QM1 CSQMUQLC QLOCAL(APP.ONLY.QM2) WAS NOT FOUND" in reply.lines
        assert "CSQ9022I !QM2 CSQMUQLC ' CLEAR QLOCAL' NORMAL COMPLETION" in reply.lines
        assert reply.lines[-1] == (
            "CSQN123E !QM1 'CLEAR QLOCAL' COMMAND FOR CMDSCOPE(*) ABNORMAL COMPLETION"
        )


@keeps(
    "docs/mqsc.md",
    "`CMDSCOPE(*)` goes to the members that are active (CSQN137I counts them)",
)
@keeps(
    "docs/mqsc.md",
    "a CMDSCOPE naming a member that is not active is refused with one line, CSQN135E",
)
async def test_cmdscope_naming_an_inactive_member_is_one_line_and_star_skips_it(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    async with group(cf_mode) as world:
        await world.kill("QM2")
        refused = await admin.command(world, "QM1", "DEFINE QLOCAL(APP.X) CMDSCOPE(QM2)")
        assert refused.failed
        assert refused.lines == (
            "CSQN135E !QM1 QUEUE MANAGER QM2 NOT ACTIVE IN QUEUE SHARING GROUP",
            "CSQ9023E !QM1 CSQMMSGP ' DEFINE QLOCAL' ABNORMAL COMPLETION",
        )
        stranger = await run(world, "QM1", "DISPLAY QLOCAL(*) CMDSCOPE(QM4)")
        assert stranger[0].startswith("CSQN135E !QM1 QUEUE MANAGER QM4 NOT ACTIVE")
        assert defined(world, "APP.X") == []  # nothing half-defined
        lines = await run(world, "QM1", "DEFINE QLOCAL(APP.X) CMDSCOPE(*)")
        assert lines[0].endswith("COMMAND ACCEPTED FOR CMDSCOPE(*), SENT TO 2")
        assert lines[-1].endswith("COMMAND FOR CMDSCOPE(*) NORMAL COMPLETION")
        assert "RESPONSES FROM QM2" not in "\n".join(lines)
        assert defined(world, "APP.X") == ["QM1", "QM3"]


@keeps(
    "docs/mqsc.md",
    "with QSGDISP(SHARED) or GROUP the command runs where it is entered (CSQN133E otherwise)",
)
async def test_cmdscope_outside_a_qsg_and_with_a_shared_disposition_is_refused(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    # "You can specify a queue manager name, other than the queue manager on which the
    # command was entered, only if you are using a queue sharing group environment";
    # "CMDSCOPE must be blank, or the local queue manager, if QSGDISP is set to GROUP".
    async with group(cf_mode) as world:
        alone = await run(world, "QM4", "DEFINE QLOCAL(APP.Y) CMDSCOPE(*)")
        assert alone == [
            "CSQN136E !QM4 NOT IN A QUEUE SHARING GROUP",
            "CSQ9023E !QM4 CSQMMSGP ' DEFINE QLOCAL' ABNORMAL COMPLETION",
        ]
        own = await run(world, "QM4", "DEFINE QLOCAL(APP.Y) CMDSCOPE(QM4)")
        assert own == ["CSQ9022I !QM4 CSQMMSGP ' DEFINE QLOCAL' NORMAL COMPLETION"]
        shared = "DEFINE QLOCAL(APP.S) QSGDISP(SHARED) CFSTRUCT(APP1) CMDSCOPE(*)"
        assert (await run(world, "QM1", shared))[0] == (
            "CSQN133E !QM1 CMDSCOPE NOT ALLOWED WITH DISPOSITION SHARED"
        )
        assert world.qmgrs["QM1"].rules.find("APP.S") is None
        twice = await run(world, "QM1", "DEFINE QLOCAL(APP.Z) CMDSCOPE(*) CMDSCOPE(QM1)")
        assert twice[0] == "CSQ9000E !QM1 'CMDSCOPE' APPEARS MORE THAN ONCE"


async def test_start_and_stop_channel_take_cmdscope(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    async with group(cf_mode) as world:
        lines = await run(world, "QM1", "STOP CHANNEL(NO.SUCH) CMDSCOPE(QM3)")
        assert lines[1] == "CSQN121I !QM1 'STOP CHANNEL' COMMAND RESPONSES FROM QM3"
        assert lines[2] == "CSQM090E !QM3 CSQMSCHL CHANNEL(NO.SUCH) WAS NOT FOUND"


@keeps(
    "docs/mqsc.md",
    "over the command server each block is a set of reply messages after its own CSQN205I",
)
async def test_the_command_server_answers_a_cmdscope_command_a_set_per_block(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    # "If the RETURN= value is 00000000 and the REASON= value is 00000004, the set of
    # reply messages is incomplete. After retrieving the replies indicated by the
    # CSQN205I message, issue a further MQGET call to wait for a further set of replies."
    async with group(cf_mode) as world:
        conn = await world.connect("QM2")
        model = OD(ObjectName=b"SYSTEM.DEFAULT.MODEL.QUEUE", DynamicQName=b"MQSC.REPLY.*")
        replies = await conn.open(model, CMQC.MQOO_INPUT_EXCLUSIVE)
        md = MD(Format=CMQC.MQFMT_STRING, MsgType=CMQC.MQMT_REQUEST, ReplyToQ=replies.name.encode())
        text = b"DEFINE QLOCAL(APP.VIA.SERVER) CMDSCOPE(*)"
        await conn.put1("SYSTEM.COMMAND.INPUT", text, md, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT))
        gmo = GMO(
            Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT,
            WaitInterval=5000,
            MatchOptions=CMQC.MQMO_MATCH_CORREL_ID,
        )
        sets: list[list[str]] = []
        while True:  # as IBM says a program reads them: count, then the rest of the set
            head = (await replies.get(None, MD(CorrelId=md.MsgId), gmo)).decode()
            assert head.startswith("CSQN205I")
            count, reason = int(head[17:25]), head[51:59]
            body = [
                (await replies.get(None, MD(CorrelId=md.MsgId), gmo)).decode()
                for _ in range(count - 1)
            ]
            sets.append([head[:9] + reason, *body])
            if reason == "00000000":
                break
        assert [s[0] for s in sets] == ["CSQN205I 00000004"] * 4 + ["CSQN205I 00000000"]
        assert sets[0][1].startswith("CSQN137I !QM2 'DEFINE QLOCAL' COMMAND ACCEPTED")
        assert [s[1] for s in sets[1:4]] == [
            f"CSQN121I !QM2 'DEFINE QLOCAL' COMMAND RESPONSES FROM {m}" for m in MEMBERS
        ]
        assert sets[4][1:] == [
            "CSQN122I !QM2 'DEFINE QLOCAL' COMMAND FOR CMDSCOPE(*) NORMAL COMPLETION"
        ]
        assert defined(world, "APP.VIA.SERVER") == list(MEMBERS)


SCENARIO = """
description = "an administrator's command for the whole group, at its time"
[run]
duration = 3
seed = 1
in_process = true
[qsg.QSG1]
members = ["QM1", "QM2", "QM3"]
[[at]]
at = 1
qmgr = "QM2"
mqsc = "DEFINE QLOCAL(APP.AT) CMDSCOPE(*)"
[[at]]
at = 2
qmgr = "QM1"
mqsc = "DISPLAY QLOCAL(APP.AT) CMDSCOPE(*)"
"""


def test_an_at_entry_with_cmdscope_star_runs_on_every_member() -> None:
    result = run_scenario(parse_scenario(SCENARIO, "cmdscope.toml"), redis_url=None)
    runs = [e for e in result.events if isinstance(e, CommandRun)]
    assert [e.completed for e in runs] == [True, True]
    assert runs[0].response.count("CSQ9022I") == 3
    shown = [line for line in runs[1].response.splitlines() if line.startswith("CSQM401I")]
    assert [line.split()[1] for line in shown] == ["!QM1", "!QM2", "!QM3"]
