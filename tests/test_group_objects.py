"""GROUP and COPY objects on a live three-member queue-sharing group, with the shared
repository in process and on the coupling facility's server.

IBM: "Managing group objects" (a GROUP object is kept once in the shared repository; each
member has a COPY, made by the generated ``DEFINE ... REPLACE QSGDISP(COPY)`` on every
active member, and every COPY is refreshed when a member starts, but for two skip
rules); MQSC Command Reference, DEFINE/ALTER/DELETE queues, channels and processes
(QSGDISP; "the group delete stands even if a generated COPY delete fails").
"""

from __future__ import annotations

import pytest

import qsg
from actors import admin
from actors.clock import VirtualClock
from actors.config import Fault
from actors.faults import inject
from actors.topology import Topology
from qsg import CMQC
from qsg import CMQCFC as F
from qsg.core.qmgr import QMgr
from qsg.core.sharing import QueueSharingGroup
from qsg.core.structs import MD, PMO
from qsg.mqsc import status
from qsg.mqsc.pcf import Header, Message, PCFError
from qsg.mqsc.pcf_changes import create_q, delete_q
from qsg.mqsc.pcf_inquiries import inquire_q_names
from tests.claims import keeps

NO_SYNC = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)


def three_members() -> Topology:
    topology = Topology()
    topology.add_qsg("QSG1", members=["QM1", "QM2", "QM3"])
    return topology


def copy_of(world: qsg.World, q_mgr: str, name: str) -> object | None:
    """``q_mgr``'s page-set-0 queue ``name`` if it is a COPY."""
    obj = world.qmgrs[q_mgr].rules.local.queues.get(name)
    return obj if obj is not None and obj.qsg_disp == CMQC.MQQSGD_COPY else None


@keeps(
    "docs/mqsc.md",
    "A member that starts (`restart`) refreshes every COPY from the repository: a copy is "
    "made for each GROUP object, changed ones are replaced, and copies whose GROUP object "
    "is gone are deleted",
)
@keeps(
    "docs/mqsc.md",
    "`GROUP` writes the repository, then sends `DEFINE <type>(name) REPLACE QSGDISP(COPY)` "
    "(for a channel with its CHLTYPE) to every active member, the one it was entered on too",
)
async def test_group_objects_changed_while_a_member_is_down_are_refreshed_at_its_start(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    """Copies for members that were not active "are created when that member starts"
    ("Managing group objects"), for an added, a changed and a deleted GROUP object."""
    async with qsg.start(three_members(), **cf_mode) as world:  # type: ignore[arg-type]
        await admin.command(world, "QM1", "DEFINE QLOCAL(GONE) QSGDISP(GROUP)")
        assert copy_of(world, "QM3", "GONE") is not None
        await world.kill("QM3")
        reply = await admin.command(world, "QM1", "DEFINE QLOCAL(G) MAXDEPTH(7) QSGDISP(GROUP)")
        assert not reply.failed
        assert reply.lines[0] == (
            "CSQN138I !QM1 'DEFINE QLOCAL(G) REPLACE QSGDISP(COPY)' COMMAND GENERATED FOR "
            "CMDSCOPE(*), SENT TO 2"
        )
        assert reply.lines[-2:] == (
            "CSQN122I !QM1 'DEFINE QLOCAL' COMMAND FOR CMDSCOPE(*) NORMAL COMPLETION",
            "CSQ9022I !QM1 CSQMMSGP ' DEFINE QLOCAL' NORMAL COMPLETION",
        )
        await admin.command(world, "QM2", "ALTER QLOCAL(G) MAXDEPTH(9) QSGDISP(GROUP)")
        await admin.command(world, "QM2", "DEFINE CHANNEL(TO.X) CHLTYPE(RCVR) QSGDISP(GROUP)")
        await admin.command(world, "QM1", "DEFINE PROCESS(P1) APPLICID('run') QSGDISP(GROUP)")
        await admin.command(world, "QM2", "DELETE QLOCAL(GONE) QSGDISP(GROUP)")
        for member in ("QM1", "QM2"):
            assert world.qmgrs[member].rules.local.queues["G"].max_depth == 9
            assert copy_of(world, member, "GONE") is None
        assert copy_of(world, "QM3", "G") is None and copy_of(world, "QM3", "GONE") is not None
        await world.restart("QM3")
        rules = world.qmgrs["QM3"].rules
        assert rules.local.queues["G"].max_depth == 9
        assert rules.local.queues["G"].qsg_disp == CMQC.MQQSGD_COPY
        assert copy_of(world, "QM3", "GONE") is None
        assert rules.local.channels["TO.X"].qsg_disp == CMQC.MQQSGD_COPY
        assert rules.local.processes["P1"].appl_id == "run"


@keeps(
    "docs/mqsc.md",
    "A COPY queue's messages are that member's own: a put on QM2 is not seen on QM1.",
)
@keeps(
    "docs/mqsc.md",
    "a copy queue that holds messages is not deleted (IBM's two skip rules)",
)
@keeps(
    "docs/mqsc.md",
    "then `CSQN122I ... NORMAL COMPLETION`, or ABNORMAL when a member did not get (or lose) "
    "its copy, whose CSQM090E says why.",
)
async def test_a_copy_queue_holds_its_own_members_messages_and_the_group_delete_stands(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    """A COPY queue's messages are on that member's page set, seen only there (Morag's
    Quirks #15); DELETE ... QSGDISP(GROUP) "stands even if a generated COPY delete
    fails", and a copy holding messages is kept at a refresh that would delete it."""
    async with qsg.start(three_members(), **cf_mode) as world:  # type: ignore[arg-type]
        await admin.command(world, "QM1", "DEFINE QLOCAL(G) QSGDISP(GROUP)")
        conn = await world.connect("QM2")
        queue = await conn.open("G", CMQC.MQOO_OUTPUT)
        await queue.put(b"mine", MD(Persistence=CMQC.MQPER_PERSISTENT), NO_SYNC)
        await queue.close()
        assert world.qmgrs["QM2"].rules.depth("G") == 1
        assert world.qmgrs["QM1"].rules.depth("G") == 0
        reply = await admin.command(world, "QM1", "DELETE QLOCAL(G) QSGDISP(GROUP)")
        assert not reply.failed
        assert "CSQN122I !QM1 'DELETE QLOCAL' COMMAND FOR CMDSCOPE(*) ABNORMAL COMPLETION" in (
            reply.lines
        )
        refused = [line for line in reply.lines if line.startswith("CSQM090E")]
        assert refused == ["CSQM090E !QM2 CSQMUQLC the copy of G holds messages"]
        assert copy_of(world, "QM1", "G") is None and copy_of(world, "QM3", "G") is None
        assert copy_of(world, "QM2", "G") is not None
        rules = world.qmgrs["QM2"].rules
        assert rules.qsg is not None and rules.qsg.repository.get("QUEUE", "G") is None
        await world.kill("QM2")
        await world.restart("QM2")  # skip rule (b): it holds messages, it stays
        assert copy_of(world, "QM2", "G") is not None and rules.depth("G") == 1


@keeps("docs/mqsc.md", "except that a copy queue that is open keeps its USAGE")
async def test_a_copy_open_on_a_member_keeps_its_usage_when_the_group_object_changes_it(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    """Skip rule (a) of "Managing group objects": the copy queue is open and the refresh
    would change its USAGE; the other members' copies change."""
    async with qsg.start(three_members(), **cf_mode) as world:  # type: ignore[arg-type]
        await admin.command(world, "QM1", "DEFINE QLOCAL(G) QSGDISP(GROUP)")
        conn = await world.connect("QM3")
        await conn.open("G", CMQC.MQOO_INPUT_SHARED)
        reply = await admin.command(world, "QM1", "ALTER QLOCAL(G) USAGE(XMITQ) QSGDISP(GROUP)")
        assert "CSQM090E !QM3 CSQMMSGP the copy of G is open and its USAGE would change" in (
            reply.lines
        )
        usage = {m: world.qmgrs[m].rules.local.queues["G"].usage for m in ("QM1", "QM2", "QM3")}
        assert usage == {
            "QM1": CMQC.MQUS_TRANSMISSION,
            "QM2": CMQC.MQUS_TRANSMISSION,
            "QM3": CMQC.MQUS_NORMAL,
        }


@pytest.mark.parametrize(
    ("command", "line"),
    [
        (
            "DEFINE QLOCAL(X) QSGDISP(PRIVATE)",
            "CSQM090E !QM1 CSQMMSGP QLOCAL(X): MQCC_FAILED: MQRCCF_DISPOSITION_CONFLICT (3211): "
            "QSGDISP(PRIVATE): DEFINE takes QMGR, COPY, GROUP or SHARED",
        ),
        (
            "DEFINE QALIAS(X) TARGET(Y) QSGDISP(SHARED)",
            "CSQM090E !QM1 CSQMMSGP QALIAS(X): MQCC_FAILED: MQRCCF_DISPOSITION_CONFLICT (3211): "
            "QSGDISP(SHARED): only a local queue can be shared, not a QALIAS",
        ),
        (
            "DEFINE QLOCAL(X) QSGDISP(COPY)",
            "CSQM125I !QM1 CSQMMSGP QLOCAL(X) WAS NOT FOUND",
        ),
    ],
)
@keeps(
    "docs/mqsc.md",
    "A disposition a command cannot take (PRIVATE on DEFINE, SHARED on anything but a local "
    "queue) is refused with MQRCCF_DISPOSITION_CONFLICT (3211)",
)
async def test_a_disposition_a_command_cannot_take_is_one_refusal_and_defines_nothing(
    virtual_clock: VirtualClock, command: str, line: str
) -> None:
    """MQRCCF_DISPOSITION_CONFLICT (3211): "the value is not allowed for ... that
    disposition"; a COPY needs its GROUP object."""
    async with qsg.start(three_members(), in_process=True) as world:
        reply = await admin.command(world, "QM1", command)
        assert reply.failed and reply.lines[0] == line
        assert world.qmgrs["QM1"].rules.find("X") is None


def three_with_shared() -> Topology:
    topology = three_members()
    topology.mqsc(
        "QM1",
        "DEFINE CFSTRUCT(APP1)\n"
        "DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1)\n"
        "DEFINE QLOCAL(APP.OWN)\n"
        "DEFINE QLOCAL(APP.GROUP) QSGDISP(GROUP)\n"
        "DEFINE PROCESS(APP.PROC) QSGDISP(GROUP)\n",
    )
    return topology


def listed(reply: tuple[str, ...]) -> list[tuple[str, str]]:
    """(name, QSGDISP) of each object a DISPLAY reply lists."""
    found = []
    for line in reply:
        words = dict(w.rstrip(")").split("(", 1) for w in line.split() if "(" in w)
        if line.startswith(("CSQM401I", "CSQM407I")):
            found.append((words.get("QUEUE") or words["PROCESS"], words["QSGDISP"]))
    return found


@pytest.mark.parametrize(
    ("selector", "expected"),
    [
        ("", [("APP.GROUP", "COPY"), ("APP.OWN", "QMGR"), ("APP.SHARED", "SHARED")]),
        (
            " QSGDISP(ALL)",
            [
                ("APP.GROUP", "COPY"),
                ("APP.GROUP", "GROUP"),
                ("APP.OWN", "QMGR"),
                ("APP.SHARED", "SHARED"),
            ],
        ),
        (" QSGDISP(GROUP)", [("APP.GROUP", "GROUP")]),
        (" QSGDISP(COPY)", [("APP.GROUP", "COPY")]),
        (" QSGDISP(PRIVATE)", [("APP.GROUP", "COPY"), ("APP.OWN", "QMGR")]),
        (" QSGDISP(QMGR)", [("APP.OWN", "QMGR")]),
        (" QSGDISP(SHARED)", [("APP.SHARED", "SHARED")]),
    ],
)
@keeps(
    "docs/mqsc.md",
    "`ALL` adds the GROUP objects of the group's repository (so a name with a COPY is listed "
    "twice, once per disposition)",
)
async def test_display_queue_lists_each_disposition_the_qsgdisp_value_selects(
    virtual_clock: VirtualClock, cf_mode: dict[str, object], selector: str, expected: list
) -> None:
    """ "DISPLAY QUEUE", QSGDISP: LIVE (the default) is QMGR and COPY and, in a QSG, the
    shared queues; ALL adds the GROUP objects (one name can be listed twice); PRIVATE is
    QMGR or COPY; the others exactly that disposition."""
    async with qsg.start(three_with_shared(), **cf_mode) as world:  # type: ignore[arg-type]
        reply = await admin.command(world, "QM1", "DISPLAY QLOCAL(APP.*)" + selector)
        assert listed(reply.lines) == expected


async def test_display_process_shows_group_objects_for_all_and_copies_by_default(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(three_with_shared(), in_process=True) as world:
        live = await admin.command(world, "QM3", "DISPLAY PROCESS(*)")
        assert listed(live.lines) == [("APP.PROC", "COPY")]
        every = await admin.command(world, "QM3", "DISPLAY PROCESS(*) QSGDISP(ALL)")
        assert listed(every.lines) == [("APP.PROC", "COPY"), ("APP.PROC", "GROUP")]


@keeps(
    "docs/mqsc.md",
    "but PCF's default, MQQSGD_LIVE, is the QMGR and COPY objects only: a shared queue is "
    "listed for MQQSGD_ALL or MQQSGD_SHARED",
)
async def test_pcf_inquire_q_names_leaves_shared_queues_out_unless_asked_for_all(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    """ "Inquire Queue": MQQSGD_LIVE, PCF's default, is the objects defined MQQSGD_Q_MGR or
    MQQSGD_COPY; MQQSGD_ALL adds GROUP and SHARED (IBM's metrics code asks for it to see
    a z/OS QSG's shared queues). Each name is listed with its own disposition."""
    async with qsg.start(three_with_shared(), **cf_mode) as world:  # type: ignore[arg-type]
        rules = world.qmgrs["QM1"].rules

        def names(**asked: int) -> list[tuple[str, int]]:
            parameters: dict[int, object] = {CMQC.MQCA_Q_NAME: "APP.*"}
            if asked:
                parameters[CMQC.MQIA_QSG_DISP] = asked["disposition"]
            request = Message(Header(F.MQCFT_COMMAND, F.MQCMD_INQUIRE_Q_NAMES), parameters)
            ((_, found), _, (_, disps)) = inquire_q_names(request, rules, status.take(rules, 0.0))[
                0
            ]
            return list(zip(found, disps, strict=True))  # type: ignore[arg-type]

        copy, group = CMQC.MQQSGD_COPY, CMQC.MQQSGD_GROUP
        assert names() == [("APP.GROUP", copy), ("APP.OWN", CMQC.MQQSGD_Q_MGR)]
        assert names(disposition=CMQC.MQQSGD_ALL) == [
            ("APP.GROUP", copy),
            ("APP.GROUP", group),
            ("APP.OWN", CMQC.MQQSGD_Q_MGR),
            ("APP.SHARED", CMQC.MQQSGD_SHARED),
        ]


async def test_mqinq_qsg_disp_answers_qmgr_copy_or_shared(
    virtual_clock: VirtualClock,
) -> None:
    """ "QSGDisp (MQLONG)": MQINQ answers MQQSGD_Q_MGR, MQQSGD_COPY or MQQSGD_SHARED; an
    application opens a GROUP object's COPY, never the GROUP object."""
    async with qsg.start(three_with_shared(), in_process=True) as world:
        conn = await world.connect("QM1")
        found = {}
        for name in ("APP.OWN", "APP.GROUP", "APP.SHARED"):
            queue = await conn.open(name, CMQC.MQOO_INQUIRE)
            found[name] = await queue.inquire(CMQC.MQIA_QSG_DISP)
        assert found == {
            "APP.OWN": CMQC.MQQSGD_Q_MGR,
            "APP.GROUP": CMQC.MQQSGD_COPY,
            "APP.SHARED": CMQC.MQQSGD_SHARED,
        }


@keeps(
    "docs/mqsc.md",
    "an MQOPEN of the name on that member then fails with MQRC_OBJECT_NOT_UNIQUE (2343) until "
    "one of them is deleted",
)
async def test_mqopen_of_a_name_that_is_a_private_and_a_shared_queue_is_2343(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    """ "DEFINE queues": a shared queue can be defined while another member has a queue of
    that name; an MQOPEN of it there fails with MQRC_OBJECT_NOT_UNIQUE (2343) until one
    of them is deleted (DELETE QLOCAL(Q) QSGDISP(QMGR))."""
    async with qsg.start(three_with_shared(), **cf_mode) as world:  # type: ignore[arg-type]
        await admin.command(world, "QM2", "DEFINE QLOCAL(TWICE)")
        define = "DEFINE QLOCAL(TWICE) QSGDISP(SHARED) CFSTRUCT(APP1)"
        assert not (await admin.command(world, "QM1", define)).failed
        conn = await world.connect("QM2")
        with pytest.raises(qsg.MQMIError) as refused:
            await conn.open("TWICE", CMQC.MQOO_OUTPUT)
        assert refused.value.reason == CMQC.MQRC_OBJECT_NOT_UNIQUE
        await (await (await world.connect("QM1")).open("TWICE", CMQC.MQOO_OUTPUT)).close()
        assert not (await admin.command(world, "QM2", "DELETE QLOCAL(TWICE) QSGDISP(QMGR)")).failed
        queue = await conn.open("TWICE", CMQC.MQOO_OUTPUT | CMQC.MQOO_INQUIRE)
        assert (await queue.inquire(CMQC.MQIA_QSG_DISP)) == CMQC.MQQSGD_SHARED


@keeps(
    "docs/scenarios.md",
    "Puts and gets on the queues the members know go on, shared ones included.",
)
@keeps(
    "docs/mqsc.md",
    "`CSQ5003A ... NO ACTIVE DB2`, then `CSQM090E` naming the object and the reason.",
)
async def test_while_the_repository_is_unavailable_what_needs_it_fails_with_2342_and_work_goes_on(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    """MQRC_DB2_NOT_AVAILABLE (2342): a GROUP or SHARED definition, DISPLAY of GROUP
    objects and a member's refresh at start need Db2; puts and gets on the shared and
    COPY queues the members know go on ("Db2 manager messages (CSQ5...)")."""
    async with qsg.start(three_with_shared(), **cf_mode) as world:  # type: ignore[arg-type]
        down = await inject(world, "repository_unavailable", Fault(0.0, "repository_unavailable"))
        assert not down.refused
        reply = await admin.command(world, "QM1", "DEFINE QLOCAL(NEW) QSGDISP(GROUP)")
        assert reply.failed and reply.lines == (
            "CSQ5003A !QM1 CSQ5CONN CONNECTION TO DB2 PENDING, NO ACTIVE DB2",
            "CSQM090E !QM1 CSQMMSGP QLOCAL(NEW): MQRC_DB2_NOT_AVAILABLE (2342)",
            "CSQ9023E !QM1 CSQMMSGP ' DEFINE QLOCAL' ABNORMAL COMPLETION",
        )
        shared = "DEFINE QLOCAL(NEW.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1)"
        assert (await admin.command(world, "QM1", shared)).failed
        every = await admin.command(world, "QM1", "DISPLAY QLOCAL(*) QSGDISP(ALL)")
        assert every.failed and "MQRC_DB2_NOT_AVAILABLE (2342)" in every.lines[1]
        assert not (await admin.command(world, "QM1", "DISPLAY QLOCAL(APP.*)")).failed
        assert all(world.qmgrs[m].rules.find(n) is None for m in world.qmgrs for n in ("NEW",))
        for name in ("APP.SHARED", "APP.GROUP"):
            queue = await (await world.connect("QM2")).open(name, CMQC.MQOO_OUTPUT)
            await queue.put(b"still", MD(), NO_SYNC)
        await world.kill("QM3")
        await world.restart("QM3")  # no refresh without Db2: its copy stays as it was
        assert copy_of(world, "QM3", "APP.GROUP") is not None
        await inject(world, "repository_available", Fault(0.0, "repository_available"))
        assert not (await admin.command(world, "QM1", "DEFINE QLOCAL(NEW) QSGDISP(GROUP)")).failed
        assert copy_of(world, "QM3", "NEW") is not None


def test_pcf_create_and_delete_queue_take_qsgdisposition_and_a_bad_one_is_3211() -> None:
    """PCF Create Queue / Delete Queue with QSGDisposition, as their MQSC: GROUP defines
    every member's COPY, a GROUP delete removes them; MQQSGD_PRIVATE on Create is
    MQRCCF_DISPOSITION_CONFLICT (3211), defining nothing."""
    group = QueueSharingGroup("QSG1")
    qm1, qm2 = QMgr("QM1", qsg=group), QMgr("QM2", qsg=group)

    def ask(command: int, disposition: int) -> None:
        parameters = {
            CMQC.MQCA_Q_NAME: "G",
            CMQC.MQIA_Q_TYPE: CMQC.MQQT_LOCAL,
            CMQC.MQIA_QSG_DISP: disposition,
        }
        handler = create_q if command == F.MQCMD_CREATE_Q else delete_q
        handler(Message(Header(F.MQCFT_COMMAND, command), parameters), qm1, status.take(qm1, 0.0))

    ask(F.MQCMD_CREATE_Q, CMQC.MQQSGD_GROUP)
    assert qm2.local.queues["G"].qsg_disp == CMQC.MQQSGD_COPY
    ask(F.MQCMD_DELETE_Q, CMQC.MQQSGD_GROUP)
    assert "G" not in qm1.local.queues and "G" not in qm2.local.queues
    with pytest.raises(PCFError) as refused:
        ask(F.MQCMD_CREATE_Q, CMQC.MQQSGD_PRIVATE)
    assert refused.value.reason == F.MQRCCF_DISPOSITION_CONFLICT
    assert qm1.find("G") is None
