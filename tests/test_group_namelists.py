"""GROUP and COPY namelists and storage classes on a live three-member queue-sharing
group, and CF structures, which are group objects without a QSGDISP.

IBM: "DEFINE NAMELIST" and "DEFINE STGCLASS" take QSGDISP(QMGR | COPY | GROUP) and their
ALTER and DELETE also PRIVATE, as the queues' table ("Managing group objects": a GROUP
object is kept once in the shared repository, each member keeps a COPY, refreshed when it
starts); "DEFINE CFSTRUCT", "ALTER CFSTRUCT" and "DISPLAY CFSTRUCT" have no QSGDISP
keyword (a CF structure's definition is the group's, in Db2).
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
from qsg.core.qmgr import QMgr
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc import load
from qsg.mqsc.errors import MQSCError
from tests.claims import keeps


def three_members() -> Topology:
    topology = Topology()
    topology.add_qsg("QSG1", members=["QM1", "QM2", "QM3"])
    return topology


def dispositions(world: qsg.World, q_mgr: str, kind: str, name: str) -> int | None:
    """The disposition of ``q_mgr``'s page-set-0 namelist or storage class ``name``."""
    local = world.qmgrs[q_mgr].rules.local
    found = (local.namelists if kind == "NAMELIST" else local.storage_classes).get(name)
    return None if found is None else found.qsg_disp


def listed(reply: tuple[str, ...]) -> list[tuple[str, str]]:
    """(name, QSGDISP) of each namelist or storage class a DISPLAY reply lists."""
    found = []
    for line in reply:
        if line.startswith(("CSQM408I", "CSQM410I")):
            words = dict(w.rstrip(")").split("(", 1) for w in line.split() if "(" in w)
            found.append((words.get("NAMELIST") or words["STGCLASS"], words["QSGDISP"]))
    return found


@keeps(
    "docs/mqsc.md",
    "Namelists and storage classes take QSGDISP as queues, channels and processes do",
)
async def test_group_namelists_and_storage_classes_are_copied_to_each_member_and_refreshed(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    """ "DEFINE NAMELIST", "DEFINE STGCLASS": GROUP writes the repository and sends
    ``DEFINE ... REPLACE QSGDISP(COPY)`` to every active member; a member that was down
    gets its copies (and loses the deleted ones) when it starts ("Managing group
    objects")."""
    async with qsg.start(three_members(), **cf_mode) as world:  # type: ignore[arg-type]
        define = "DEFINE NAMELIST(GONE) NAMES(A.Q) QSGDISP(GROUP)"
        assert not (await admin.command(world, "QM1", define)).failed
        await world.kill("QM3")
        reply = await admin.command(world, "QM1", "DEFINE STGCLASS(SC1) PSID(3) QSGDISP(GROUP)")
        assert reply.lines[0] == (
            "CSQN138I !QM1 'DEFINE STGCLASS(SC1) REPLACE QSGDISP(COPY)' COMMAND GENERATED "
            "FOR CMDSCOPE(*), SENT TO 2"
        )
        await admin.command(world, "QM2", "DEFINE NAMELIST(NL) NAMES(A.Q,B.Q) QSGDISP(GROUP)")
        await admin.command(world, "QM2", "ALTER STGCLASS(SC1) PSID(4) QSGDISP(GROUP)")
        await admin.command(world, "QM1", "DELETE NAMELIST(GONE) QSGDISP(GROUP)")
        copy = CMQC.MQQSGD_COPY
        for member in ("QM1", "QM2"):
            assert dispositions(world, member, "NAMELIST", "NL") == copy
            assert world.qmgrs[member].rules.local.storage_classes["SC1"].page_set_id == 4
            assert dispositions(world, member, "NAMELIST", "GONE") is None
        assert dispositions(world, "QM3", "STGCLASS", "SC1") is None
        assert dispositions(world, "QM3", "NAMELIST", "GONE") == copy
        await world.restart("QM3")
        local = world.qmgrs["QM3"].rules.local
        assert local.namelists["NL"].names == ("A.Q", "B.Q")
        assert local.namelists["NL"].qsg_disp == copy
        assert local.storage_classes["SC1"].page_set_id == 4
        assert local.storage_classes["SC1"].qsg_disp == copy
        assert "GONE" not in local.namelists


@pytest.mark.parametrize(
    ("selector", "expected"),
    [
        ("", [("NL.GROUP", "COPY"), ("NL.OWN", "QMGR")]),
        (" QSGDISP(ALL)", [("NL.GROUP", "COPY"), ("NL.GROUP", "GROUP"), ("NL.OWN", "QMGR")]),
        (" QSGDISP(GROUP)", [("NL.GROUP", "GROUP")]),
        (" QSGDISP(COPY)", [("NL.GROUP", "COPY")]),
        (" QSGDISP(PRIVATE)", [("NL.GROUP", "COPY"), ("NL.OWN", "QMGR")]),
        (" QSGDISP(QMGR)", [("NL.OWN", "QMGR")]),
    ],
)
@keeps(
    "docs/mqsc.md",
    "DISPLAY NAMELIST and DISPLAY STGCLASS take QSGDISP(LIVE | ALL | QMGR | COPY | GROUP | "
    "PRIVATE)",
)
async def test_display_namelist_lists_each_disposition_the_qsgdisp_value_selects(
    virtual_clock: VirtualClock, selector: str, expected: list[tuple[str, str]]
) -> None:
    """ "DISPLAY NAMELIST", QSGDISP: LIVE (the default) is QMGR and COPY, ALL adds the
    GROUP objects (a name is listed twice), PRIVATE is QMGR or COPY."""
    topology = three_members()
    topology.mqsc("QM1", "DEFINE NAMELIST(NL.OWN)\nDEFINE NAMELIST(NL.GROUP) QSGDISP(GROUP)\n")
    async with qsg.start(topology, in_process=True) as world:
        reply = await admin.command(world, "QM1", "DISPLAY NAMELIST(NL.*)" + selector)
        assert listed(reply.lines) == expected


@pytest.mark.parametrize(
    ("command", "line"),
    [
        (
            "DEFINE STGCLASS(SC2) QSGDISP(PRIVATE)",
            "CSQM090E !QM1 CSQMMSGP STGCLASS(SC2): MQCC_FAILED: MQRCCF_DISPOSITION_CONFLICT "
            "(3211): QSGDISP(PRIVATE): DEFINE takes QMGR, COPY, GROUP or SHARED",
        ),
        (
            "DEFINE NAMELIST(SC2) QSGDISP(SHARED)",
            "CSQM090E !QM1 CSQMMSGP NAMELIST(SC2): MQCC_FAILED: MQRCCF_DISPOSITION_CONFLICT "
            "(3211): QSGDISP(SHARED): only a local queue can be shared, not a NAMELIST",
        ),
        (
            "DEFINE STGCLASS(SC2) QSGDISP(COPY)",
            "CSQM125I !QM1 CSQMMSGP STGCLASS(SC2) WAS NOT FOUND",
        ),
        ("DEFINE CFSTRUCT(SC2) QSGDISP(GROUP)", "CSQ9001E !QM1 'QSGDISP' IS INVALID"),
        ("ALTER CFSTRUCT(SC2) QSGDISP(QMGR)", "CSQ9001E !QM1 'QSGDISP' IS INVALID"),
        ("DISPLAY CFSTRUCT(*) QSGDISP(ALL)", "CSQ9001E !QM1 'QSGDISP' IS INVALID"),
    ],
)
@keeps(
    "docs/mqsc.md",
    "A CF structure is a group object by nature: DEFINE, ALTER, DELETE and DISPLAY CFSTRUCT "
    "take no QSGDISP (CSQ9001E), as IBM's syntax has none",
)
async def test_a_disposition_a_namelist_storage_class_or_structure_cannot_take_is_refused(
    virtual_clock: VirtualClock, command: str, line: str
) -> None:
    """MQRCCF_DISPOSITION_CONFLICT (3211) for PRIVATE on DEFINE and SHARED on anything but
    a local queue; a COPY needs its GROUP object; CFSTRUCT has no QSGDISP keyword, so
    z/OS's syntax check refuses it (CSQ9001E). Nothing is defined."""
    async with qsg.start(three_members(), in_process=True) as world:
        reply = await admin.command(world, "QM1", command)
        assert reply.failed and reply.lines[0] == line
        local = world.qmgrs["QM1"].rules.local
        assert "SC2" not in local.storage_classes and "SC2" not in local.namelists
        group = world.qmgrs["QM1"].rules.qsg
        assert group is not None and "SC2" not in group.shared.structures


async def test_a_group_namelist_needs_the_repository_and_a_member_keeps_its_copy_without_it(
    virtual_clock: VirtualClock,
) -> None:
    """MQRC_DB2_NOT_AVAILABLE (2342) while the repository is down, for a GROUP namelist
    as for a queue; a member that starts then keeps the copies it had."""
    topology = three_members()
    topology.mqsc("QM1", "DEFINE NAMELIST(NL.GROUP) QSGDISP(GROUP)\n")
    async with qsg.start(topology, in_process=True) as world:
        await inject(world, "repository_unavailable", Fault(0.0, "repository_unavailable"))
        reply = await admin.command(world, "QM1", "DEFINE STGCLASS(SC1) QSGDISP(GROUP)")
        assert reply.failed and reply.lines == (
            "CSQ5003A !QM1 CSQ5CONN CONNECTION TO DB2 PENDING, NO ACTIVE DB2",
            "CSQM090E !QM1 CSQMMSGP STGCLASS(SC1): MQRC_DB2_NOT_AVAILABLE (2342)",
            "CSQ9023E !QM1 CSQMMSGP ' DEFINE STGCLASS' ABNORMAL COMPLETION",
        )
        every = await admin.command(world, "QM2", "DISPLAY NAMELIST(*) QSGDISP(GROUP)")
        assert every.failed and "MQRC_DB2_NOT_AVAILABLE (2342)" in every.lines[1]
        await world.kill("QM3")
        await world.restart("QM3")
        assert dispositions(world, "QM3", "NAMELIST", "NL.GROUP") == CMQC.MQQSGD_COPY
        assert all(dispositions(world, m, "STGCLASS", "SC1") is None for m in world.qmgrs)


def test_copy_and_private_act_on_a_members_own_namelist_and_a_refresh_undoes_a_copys_alter() -> (
    None
):
    """IBM's table ("ALTER NAMELIST", "DELETE NAMELIST"): COPY acts on this member's copy
    only, a local override lost at the next refresh; PRIVATE on its QMGR or COPY object;
    QMGR never on a copy. "DEFINE NAMELIST": LIKE never copies the disposition."""
    group = QueueSharingGroup("QSG1")
    qm1, qm2 = QMgr("QM1", qsg=group), QMgr("QM2", qsg=group)
    group.active.update({"QM1": qm1, "QM2": qm2})
    load(qm1, "DEFINE NAMELIST(NL) NAMES(A) QSGDISP(GROUP)\n")
    load(qm2, "ALTER NAMELIST(NL) NAMES(B) QSGDISP(COPY)\n")
    assert qm2.local.namelists["NL"].names == ("B",)
    assert qm1.local.namelists["NL"].names == ("A",)
    with pytest.raises(MQSCError, match="there is no NAMELIST\\(NL\\) of QSGDISP\\(QMGR\\)"):
        load(qm2, "ALTER NAMELIST(NL) NAMES(C) QSGDISP(QMGR)\n")
    load(qm2, "DEFINE NAMELIST(MINE) LIKE(NL)\n")
    assert qm2.local.namelists["MINE"].qsg_disp == CMQC.MQQSGD_Q_MGR
    assert qm2.local.namelists["MINE"].names == ("B",)
    qm2.refresh_copies()  # the member's start: the copy is the GROUP object's again
    assert qm2.local.namelists["NL"].names == ("A",)
    load(qm2, "DELETE NAMELIST(NL) QSGDISP(PRIVATE)\nDELETE NAMELIST(MINE) QSGDISP(PRIVATE)\n")
    assert not qm2.local.namelists
    assert group.repository.get("NAMELIST", "NL") is not None  # the GROUP object stays
