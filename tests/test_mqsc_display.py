"""MQSC DISPLAY against a live two-member QSG, as an administrator reads it.

The world has done some work before each look: puts and gets on a shared queue from
both members, an open handle on each, uncommitted work, a sender channel stopped, a CF
structure nearly full. Every DISPLAY of issue 28 is checked on its values (IBM's MQSC
command reference, "DISPLAY QUEUE", "DISPLAY QSTATUS", "DISPLAY CHSTATUS", "DISPLAY
CFSTATUS", "DISPLAY GROUP"), with generic names, WHERE and CMDSCOPE(*) answering from
each member as z/OS does. ``cf_mode`` runs each test with shared queues in process and on
the Redis server.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import trio

import qsg
from actors import admin
from actors.clock import VirtualClock
from actors.topology import Topology
from actors.world import World
from qsg import CMQC, MD, PMO
from qsg.core.objects import CFStructure
from tests.claims import keeps
from tests.worlds import QM1_DEFINITIONS, QM3_DEFINITIONS

NO_SYNC = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
EXTRA = """
    DEFINE QLOCAL(APP.SMALL) QSGDISP(SHARED) CFSTRUCT(SMALL) DESCR('nearly full')
    DEFINE QALIAS(APP.ALIAS) TARGET(APP.REPLIES)
    DEFINE QMODEL(APP.MODEL) DEFTYPE(PERMDYN)
"""


def topology() -> Topology:
    t = Topology()
    t.add_qsg("QSG1", members=["QM1", "QM2"])
    t.add_qmgr("QM3")
    t.cf_structure("QSG1", CFStructure("SMALL", size_kb=4))  # 4 entries, 16 elements
    t.mqsc("QM1", QM1_DEFINITIONS + EXTRA)
    t.mqsc("QM3", QM3_DEFINITIONS)
    return t


@asynccontextmanager
async def busy_world(cf_mode: dict[str, object]) -> AsyncIterator[World]:
    """The world after its work; the handles stay open while the test looks."""
    async with qsg.start(topology(), **cf_mode) as world:  # type: ignore[arg-type]
        qm1, qm2 = await world.connect("QM1"), await world.connect("QM2")
        out = await qm1.open("APP.SHARED", CMQC.MQOO_OUTPUT)
        for i in range(5):
            await out.put(b"order %d" % i, MD(), NO_SYNC)
        into = await qm2.open("APP.SHARED", CMQC.MQOO_INPUT_SHARED)
        for _ in range(2):
            await into.get(None, MD(), qsg.GMO(Options=CMQC.MQGMO_NO_SYNCPOINT))
        small = await qm1.open("APP.SMALL", CMQC.MQOO_OUTPUT)
        for _ in range(3):
            await small.put(b"x" * 100, MD(), NO_SYNC)
        await small.close()
        local = await qm1.open("APP.REPLIES", CMQC.MQOO_OUTPUT)
        await local.put(b"in doubt", MD(), PMO(Options=CMQC.MQPMO_SYNCPOINT))
        await local.close()
        await trio.sleep(1)  # the sender channel has started and bound
        await world.stop_channel("QM1", "QM1.TO.QM3")
        yield world


async def run(world: World, q_mgr: str, text: str) -> list[str]:
    reply = await admin.command(world, q_mgr, text)
    return list(reply.lines)


def objects(lines: list[str], message: str = "CSQM4") -> list[str]:
    return [line for line in lines if line.startswith(message)]


def value(line: str, keyword: str) -> str:
    match = re.search(rf"(?<![A-Z]){keyword}\(([^)]*)\)", line)
    assert match is not None, f"{keyword} not in {line}"
    return match[1]


@keeps(
    "docs/mqsc.md",
    "CSQM401I (queues) and CSQM409I (the queue manager) are IBM's message numbers",
)
async def test_display_qlocal_shows_curdepth_after_puts_on_one_member_and_gets_on_the_other(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    # DISPLAY QUEUE: QUEUE, TYPE and QSGDISP always; CURDEPTH when asked for.
    async with busy_world(cf_mode) as world:
        lines = await run(world, "QM1", "DISPLAY QLOCAL(APP.SHARED) CURDEPTH")
        assert objects(lines) == [
            "CSQM401I !QM1 QUEUE(APP.SHARED) TYPE(QLOCAL) QSGDISP(SHARED) CURDEPTH(3)"
        ]
        assert lines[-1] == "CSQ9022I !QM1 CSQMDRTS ' DISPLAY QLOCAL' NORMAL COMPLETION"


@keeps(
    "docs/mqsc.md",
    (
        "on a QSG member `CMDSCOPE(*)` or `CMDSCOPE(qmgr)`: the command goes to those members and "
        "each answers for itself, as on z/OS."
    ),
)
@keeps(
    "docs/mqsc.md",
    (
        "With CMDSCOPE, CSQN137I says where the command went, CSQN121I heads each member's reply, "
        "and CSQN122I ends it"
    ),
)
async def test_cmdscope_star_answers_from_each_member_with_its_own_view(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    # z/OS: CMDSCOPE(*) sends the command to every active member; each answers for
    # itself (CSQN121I), the shared depth the same, the handles its own.
    async with busy_world(cf_mode) as world:
        lines = await run(world, "QM1", "DIS QSTATUS(APP.SHARED) CMDSCOPE(*)")
        assert lines[0] == (
            "CSQN137I !QM1 'DISPLAY QSTATUS' COMMAND ACCEPTED FOR CMDSCOPE(*), SENT TO 2"
        )
        assert "CSQN121I !QM1 'DISPLAY QSTATUS' COMMAND RESPONSES FROM QM2" in lines
        found = objects(lines, "CSQM420I")
        assert [line.split()[1] for line in found] == ["!QM1", "!QM2"]
        assert [value(line, "CURDEPTH") for line in found] == ["3", "3"]
        assert [(value(line, "IPPROCS"), value(line, "OPPROCS")) for line in found] == [
            ("0", "1"),
            ("1", "0"),
        ]
        assert lines[-1].endswith("'DISPLAY QSTATUS' COMMAND FOR CMDSCOPE(*) NORMAL COMPLETION")
        one = await run(world, "QM1", "DIS QLOCAL(APP.REPLIES) CMDSCOPE(QM2)")
        assert "CSQM125I !QM2 CSQMDRTS QLOCAL(APP.REPLIES) WAS NOT FOUND" in one  # QM1's own


@keeps(
    "README.md",
    "DISPLAY QUEUE, QSTATUS, CHANNEL, CHSTATUS, QMGR, CFSTRUCT, CFSTATUS and GROUP "
    "answer as on z/OS",
)
async def test_display_qstatus_shows_uncommitted_work_as_z_os_does(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    # DISPLAY QSTATUS on z/OS: UNCOM(YES) while a unit of work holds puts or gets.
    async with busy_world(cf_mode) as world:
        lines = objects(await run(world, "QM1", "DIS QS(APP.*) UNCOM CURDEPTH"))
        by_name = {value(line, "QSTATUS"): line for line in lines}
        assert value(by_name["APP.REPLIES"], "UNCOM") == "YES"
        assert value(by_name["APP.SHARED"], "UNCOM") == "NO"
        assert value(by_name["APP.SMALL"], "CURDEPTH") == "3"
        assert "APP.ALIAS" not in by_name  # an alias has no status


@keeps("docs/mqsc.md", "CSQM420I and CSQM421I queue and handle status")
async def test_display_qstatus_type_handle_lists_the_open_handles_of_this_member(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    async with busy_world(cf_mode) as world:
        on_qm2 = objects(await run(world, "QM2", "DIS QSTATUS(APP.SHARED) TYPE(HANDLE) ALL"))
        assert len(on_qm2) == 1
        handle = on_qm2[0]
        assert handle.startswith("CSQM421I !QM2 QSTATUS(APP.SHARED) TYPE(HANDLE)")
        assert (value(handle, "INPUT"), value(handle, "OUTPUT")) == ("SHARED", "NO")
        on_qm1 = objects(await run(world, "QM1", "DIS QSTATUS(APP.SHARED) TYPE(HANDLE)"))
        assert [(value(h, "INPUT"), value(h, "OUTPUT")) for h in on_qm1] == [("NO", "YES")]


@keeps(
    "README.md",
    "DISPLAY QUEUE, QSTATUS, CHANNEL, CHSTATUS, QMGR, CFSTRUCT, CFSTATUS and GROUP "
    "answer as on z/OS",
)
async def test_display_chstatus_shows_the_stopped_channel_and_display_channel_its_definition(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    async with busy_world(cf_mode) as world:
        status = objects(await run(world, "QM1", "DIS CHSTATUS(*)"))
        assert len(status) == 1
        assert value(status[0], "CHSTATUS") == "QM1.TO.QM3"
        assert (value(status[0], "STATUS"), value(status[0], "CHLTYPE")) == ("STOPPED", "SDR")
        definition = objects(await run(world, "QM1", "DIS CHANNEL(QM1.*) ALL"))
        assert [
            (value(d, "CHLTYPE"), value(d, "XMITQ"), value(d, "BATCHSZ")) for d in definition
        ] == [("SDR", "QM3", "10")]
        receiver = objects(await run(world, "QM3", "DIS CHANNEL(*) CHLTYPE"))
        assert value(receiver[0], "CHLTYPE") == "RCVR"


@keeps(
    "README.md",
    "DISPLAY QUEUE, QSTATUS, CHANNEL, CHSTATUS, QMGR, CFSTRUCT, CFSTATUS and GROUP "
    "answer as on z/OS",
)
async def test_display_cfstatus_shows_a_structure_nearly_full(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    # DISPLAY CFSTATUS TYPE(SUMMARY): entries used and max, the structure's status.
    async with busy_world(cf_mode) as world:
        lines = objects(await run(world, "QM2", "DIS CFSTATUS(SMALL) TYPE(SUMMARY)"))
        assert len(lines) == 1
        small = lines[0]
        assert (value(small, "STATUS"), value(small, "ENTSMAX"), value(small, "ENTSUSED")) == (
            "ACTIVE",
            "4",
            "3",
        )
        assert 0 < int(value(small, "ELEMUSED")) <= int(value(small, "ELEMMAX")) == 16
        structure = objects(await run(world, "QM1", "DIS CFSTRUCT(*) ALL"))
        assert [value(s, "CFSTRUCT") for s in structure] == ["APP1", "SMALL"]


@keeps(
    "README.md",
    "DISPLAY QUEUE, QSTATUS, CHANNEL, CHSTATUS, QMGR, CFSTRUCT, CFSTATUS and GROUP "
    "answer as on z/OS",
)
@keeps("docs/mqsc.md", "the QSG's members and whether each is ACTIVE or FAILED")
async def test_display_qmgr_and_display_group_and_a_failed_member(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    async with busy_world(cf_mode) as world:
        qmgr = objects(await run(world, "QM1", "DIS QMGR"))[0]
        assert (value(qmgr, "QMNAME"), value(qmgr, "QSGNAME"), value(qmgr, "EXPRYINT")) == (
            "QM1",
            "QSG1",
            "5",
        )
        assert value(objects(await run(world, "QM2", "DIS QMGR EXPRYINT"))[0], "EXPRYINT") == "OFF"
        await world.kill("QM2")
        group = await run(world, "QM1", "DIS GROUP")
        assert [line.split()[::3] for line in group if line.startswith(" QM")] == [
            ["QM1", "ACTIVE"],
            ["QM2", "FAILED"],
        ]
        # CMDSCOPE(*) "is passed to every active queue manager" (IBM): QM2 is not.
        scoped = await run(world, "QM1", "DIS QLOCAL(APP.SHARED) CMDSCOPE(*)")
        assert scoped[0].endswith("COMMAND ACCEPTED FOR CMDSCOPE(*), SENT TO 1")
        assert not any("RESPONSES FROM QM2" in line for line in scoped)
        assert scoped[-1].endswith("NORMAL COMPLETION")


@keeps(
    "docs/mqsc.md",
    (
        "`WHERE(keyword operator value)` with the operators `LT GT EQ NE LE GE LK NL` (a trailing "
        "`*` on a value is generic; a quoted value keeps its case)"
    ),
)
@keeps("docs/mqsc.md", "DISPLAY takes what IBM's takes: a specific or generic name (`APP.*`, `*`)")
async def test_generic_names_types_and_where_filter_which_objects_are_shown(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    # DISPLAY QUEUE: a trailing * matches zero or more characters; WHERE(keyword op
    # value) keeps the objects that satisfy it, and shows the keyword it tests.
    async with busy_world(cf_mode) as world:
        names = [value(line, "QUEUE") for line in objects(await run(world, "QM1", "DIS Q(APP.*)"))]
        assert names == ["APP.ALIAS", "APP.MODEL", "APP.REPLIES", "APP.SHARED", "APP.SMALL"]
        deep = objects(await run(world, "QM1", "DIS QL(*) WHERE(CURDEPTH GE 3)"))
        assert [(value(d, "QUEUE"), value(d, "CURDEPTH")) for d in deep] == [
            ("APP.SHARED", "3"),
            ("APP.SMALL", "3"),
        ]
        described = objects(await run(world, "QM1", "DIS Q(*) WHERE(DESCR LK 'nearly*')"))
        assert [value(d, "QUEUE") for d in described] == ["APP.SMALL"]
        aliases = objects(await run(world, "QM1", "DIS QUEUE(APP.*) TYPE(QALIAS) TARGET"))
        assert aliases == [
            "CSQM401I !QM1 QUEUE(APP.ALIAS) TYPE(QALIAS) QSGDISP(QMGR) TARGET(APP.REPLIES)"
        ]
        # QSGDISP chooses by disposition; it is no WHERE keyword ("DISPLAY QUEUE").
        shared = objects(await run(world, "QM1", "DIS QL(*) QSGDISP(SHARED)"))
        assert [value(s, "QUEUE") for s in shared] == ["APP.SHARED", "APP.SMALL"]
        none = await run(world, "QM1", "DIS QL(NO.SUCH.*)")
        assert none[0] == "CSQM297I !QM1 CSQMDRTS NO QLOCAL FOUND MATCHING REQUEST CRITERIA"


@keeps("docs/mqsc.md", "What the queue manager cannot do is a reply with its reason and CSQ9023E.")
async def test_errors_are_reported_as_mqsc_reports_them_and_the_queue_manager_goes_on(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    # CSQ9001E for an unknown keyword; CSQM125I for an object that is not there;
    # CSQ9023E ends each; the next command runs as usual.
    async with busy_world(cf_mode) as world:
        bad = await admin.command(world, "QM1", "DISPLAY QLOCAL(APP.SHARED) CURDEPHT")
        assert bad.failed
        assert bad.lines == (
            "CSQ9001E !QM1 'CURDEPHT' IS INVALID",
            "CSQ9023E !QM1 CSQMDRTS ' DISPLAY QLOCAL' ABNORMAL COMPLETION",
        )
        missing = await admin.command(world, "QM1", "DISPLAY QLOCAL(NO.SUCH.QUEUE)")
        assert missing.failed and missing.lines[0] == (
            "CSQM125I !QM1 CSQMDRTS QLOCAL(NO.SUCH.QUEUE) WAS NOT FOUND"
        )
        defined = await admin.command(world, "QM1", "DEFINE QLOCAL(APP.NEW) MAXDEPTH(7)")
        assert not defined.failed
        shown = objects(await run(world, "QM1", "DIS QL(APP.NEW) MAXDEPTH"))
        assert value(shown[0], "MAXDEPTH") == "7"
        twice = await admin.command(world, "QM1", "DEFINE QLOCAL(APP.NEW)")
        assert twice.lines[0] == "CSQM095I !QM1 CSQMMSGP QLOCAL(APP.NEW) ALREADY EXISTS"


async def test_a_member_that_lost_the_coupling_facility_shows_its_structures_failed(
    virtual_clock: VirtualClock,
) -> None:
    # A member whose CF link failed cannot read the structure: its CFSTATUS says FAILED
    # (and its shared queues' depths are unknown to it), the other member's ACTIVE.
    async with qsg.start(topology(), in_process=True, faults=True) as world:
        await world.cf_unavailable("QM2")
        lost = objects(await run(world, "QM2", "DIS CFSTATUS(*)"))
        kept = objects(await run(world, "QM1", "DIS CFSTATUS(*)"))
        assert [value(line, "STATUS") for line in lost] == ["FAILED", "FAILED"]
        assert [value(line, "STATUS") for line in kept] == ["ACTIVE", "ACTIVE"]


async def test_display_qmodel_qalias_and_qremote_show_each_type_its_own_attributes(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    async with busy_world(cf_mode) as world:
        (model,) = objects(await run(world, "QM1", "DIS QMODEL(APP.*) DEFTYPE MAXDEPTH"))
        assert model == (
            "CSQM401I !QM1 QUEUE(APP.MODEL) TYPE(QMODEL) QSGDISP(QMGR) "
            "MAXDEPTH(5000) DEFTYPE(PERMDYN)"
        )
        (alias,) = objects(await run(world, "QM1", "DIS QA(APP.ALIAS) ALL"))
        assert (value(alias, "TARGET"), value(alias, "TARGTYPE"), value(alias, "GET")) == (
            "APP.REPLIES",
            "QUEUE",
            "ENABLED",
        )
        remotes = objects(await run(world, "QM1", "DIS QR(TO.*) RNAME RQMNAME XMITQ"))
        assert remotes == [
            "CSQM401I !QM1 QUEUE(TO.NOWHERE) TYPE(QREMOTE) QSGDISP(QMGR) RNAME(NO.SUCH.QUEUE) "
            "RQMNAME(QM3) XMITQ(QM3)",
            "CSQM401I !QM1 QUEUE(TO.QM3) TYPE(QREMOTE) QSGDISP(QMGR) RNAME(APP.IN) "
            "RQMNAME(QM3) XMITQ(QM3)",
        ]
        # A keyword another type has is no match for this one: WHERE on RNAME shows
        # remote queues only, as MQ leaves out the types the keyword does not apply to.
        where = objects(await run(world, "QM1", "DIS Q(*) WHERE(RNAME EQ APP.IN)"))
        assert [value(w, "QUEUE") for w in where] == ["TO.QM3"]


@keeps("README.md", "DEFINE, ALTER, DELETE, CLEAR QLOCAL and START/STOP CHANNEL act")
@keeps(
    "docs/mqsc.md",
    (
        "a sender channel's agent starts, or ends with the channel STOPPED (CSQM134I ... COMMAND "
        "ACCEPTED)"
    ),
)
async def test_start_and_stop_channel_from_the_console_show_in_display_chstatus(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    # START CHANNEL / STOP CHANNEL: CSQM134I COMMAND ACCEPTED, then the agent's state.
    async with busy_world(cf_mode) as world:
        start = await run(world, "QM1", "START CHANNEL(QM1.TO.QM3)")
        assert start[0] == "CSQM134I !QM1 CSQMSCHL START CHANNEL(QM1.TO.QM3) COMMAND ACCEPTED"
        await trio.sleep(1)
        (running,) = objects(await run(world, "QM1", "DIS CHSTATUS(QM1.TO.QM3) STATUS"))
        assert value(running, "STATUS") == "RUNNING"
        assert not (await admin.command(world, "QM1", "STOP CHANNEL(QM1.TO.QM3)")).failed
        (stopped,) = objects(await run(world, "QM1", "DIS CHSTATUS(QM1.TO.QM3) STATUS"))
        assert value(stopped, "STATUS") == "STOPPED"
        again = await admin.command(world, "QM1", "STOP CHANNEL(QM1.TO.QM3)")
        assert again.failed and "NOT RUNNING" in again.lines[0]
        unknown = await admin.command(world, "QM1", "STOP CHANNEL(NO.SUCH)")
        assert unknown.lines[0] == "CSQM090E !QM1 CSQMSCHL CHANNEL(NO.SUCH) WAS NOT FOUND"
