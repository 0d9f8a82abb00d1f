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
from actors.topology import Topology
from qsg import CMQC
from qsg.core.structs import MD, PMO

NO_SYNC = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)


def three_members() -> Topology:
    topology = Topology()
    topology.add_qsg("QSG1", members=["QM1", "QM2", "QM3"])
    return topology


def copy_of(world: qsg.World, q_mgr: str, name: str) -> object | None:
    """``q_mgr``'s page-set-0 queue ``name`` if it is a COPY."""
    obj = world.qmgrs[q_mgr].rules.local.queues.get(name)
    return obj if obj is not None and obj.qsg_disp == CMQC.MQQSGD_COPY else None


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
async def test_a_disposition_a_command_cannot_take_is_one_refusal_and_defines_nothing(
    virtual_clock: VirtualClock, command: str, line: str
) -> None:
    """MQRCCF_DISPOSITION_CONFLICT (3211): "the value is not allowed for ... that
    disposition"; a COPY needs its GROUP object."""
    async with qsg.start(three_members(), in_process=True) as world:
        reply = await admin.command(world, "QM1", command)
        assert reply.failed and reply.lines[0] == line
        assert world.qmgrs["QM1"].rules.find("X") is None
