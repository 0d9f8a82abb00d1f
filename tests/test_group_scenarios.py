"""GROUP objects in a scenario's QSG ``mqsc``, and the objects IBM's sample CSQ4INSS
defines for every QSG (SYSTEM.QSG.CHANNEL.SYNCQ, SYSTEM.QSG.TRANSMIT.QUEUE,
SYSTEM.QSG.UR.RESOLUTION.QUEUE on CSQSYSAPPL), there by default and overridable."""

from __future__ import annotations

import pytest

import qsg
from actors.clock import VirtualClock
from qsg import CMQC
from qsg.core.sharing import QueueSharingGroup
from qsg.scenario import ScenarioError, parse_scenario
from tests.claims import keeps

SCENARIO = """
[run]
duration = 10

[qsg.QSG1]
members = ["QM1", "QM2", "QM3"]
mqsc = '''
DEFINE QLOCAL(APP.EVERYWHERE) MAXDEPTH(42) QSGDISP(GROUP)
DEFINE CHANNEL(IN.FROM.OUTSIDE) CHLTYPE(RCVR) QSGDISP(GROUP)
'''
"""
SYSTEM = (
    "SYSTEM.QSG.CHANNEL.SYNCQ",
    "SYSTEM.QSG.TRANSMIT.QUEUE",
    "SYSTEM.QSG.UR.RESOLUTION.QUEUE",
)


@keeps(
    "docs/scenarios.md",
    "A QSG's `mqsc` may define GROUP objects: each member gets its COPY at the start.",
)
async def test_group_objects_in_a_qsgs_mqsc_give_every_member_its_copy(
    virtual_clock: VirtualClock,
) -> None:
    scenario = parse_scenario(SCENARIO, "group.toml")
    async with qsg.start(scenario.topology, in_process=True) as world:
        for name in ("QM1", "QM2", "QM3"):
            rules = world.qmgrs[name].rules
            queue = rules.local.queues["APP.EVERYWHERE"]
            assert (queue.qsg_disp, queue.max_depth) == (CMQC.MQQSGD_COPY, 42)
            assert rules.local.channels["IN.FROM.OUTSIDE"].qsg_disp == CMQC.MQQSGD_COPY


@keeps(
    "docs/scenarios.md",
    "Every QSG of a scenario has, unless it says `system_objects = false`, the objects IBM's "
    "sample CSQ4INSS defines for a group:",
)
def test_every_qsg_has_the_csq4inss_shared_queues_on_csqsysappl_by_default() -> None:
    topology = parse_scenario(SCENARIO, "group.toml").topology
    assert [s.name for s in topology.structures["QSG1"]] == ["CSQSYSAPPL"]
    assert topology.structures["QSG1"][0].recover
    built = topology.build({"QSG1": QueueSharingGroup("QSG1")})
    shared = built["QM2"].qsg.shared.queues  # type: ignore[union-attr]
    assert all(shared[name].cf_struct == "CSQSYSAPPL" for name in SYSTEM)
    assert shared["SYSTEM.QSG.TRANSMIT.QUEUE"].usage == CMQC.MQUS_TRANSMISSION
    assert shared["SYSTEM.QSG.TRANSMIT.QUEUE"].index_type == CMQC.MQIT_CORREL_ID
    assert shared["SYSTEM.QSG.CHANNEL.SYNCQ"].index_type == CMQC.MQIT_MSG_ID


@keeps(
    "docs/scenarios.md",
    "a scenario that defines one of them itself (in the QSG's or a member's `mqsc`) has its "
    "own instead",
)
def test_a_scenarios_own_definition_or_structure_overrides_the_default_one() -> None:
    own = SCENARIO[:-4] + (
        "DEFINE QLOCAL(SYSTEM.QSG.CHANNEL.SYNCQ) QSGDISP(SHARED) CFSTRUCT(CSQSYSAPPL) MAXDEPTH(7)\n"
        "'''\n[qsg.QSG1.structures.CSQSYSAPPL]\nsize_kb = 1024\nrecover = true\n"
    )
    topology = parse_scenario(own, "own.toml").topology
    assert [(s.name, s.size_kb) for s in topology.structures["QSG1"]] == [("CSQSYSAPPL", 1024)]
    built = topology.build({"QSG1": QueueSharingGroup("QSG1")})
    shared = built["QM1"].qsg.shared.queues  # type: ignore[union-attr]
    assert shared["SYSTEM.QSG.CHANNEL.SYNCQ"].max_depth == 7
    assert "SYSTEM.QSG.TRANSMIT.QUEUE" in shared


@keeps("docs/scenarios.md", "`system_objects = false` leaves them all out")
def test_system_objects_false_leaves_them_out_and_a_wrong_value_is_one_problem() -> None:
    off = SCENARIO.replace(
        'members = ["QM1", "QM2", "QM3"]', 'members = ["QM1"]\nsystem_objects = false'
    )
    topology = parse_scenario(off, "off.toml").topology
    assert topology.structures["QSG1"] == []
    built = topology.build({"QSG1": QueueSharingGroup("QSG1")})
    assert not any(n.startswith("SYSTEM.QSG") for n in built["QM1"].qsg.shared.queues)  # type: ignore[union-attr]
    wrong = SCENARIO.replace(
        'members = ["QM1", "QM2", "QM3"]', 'members = ["QM1"]\nsystem_objects = "no"'
    )
    with pytest.raises(ScenarioError, match=r"wrong\.toml:\d+: qsg\.QSG1\.system_objects: "):
        parse_scenario(wrong, "wrong.toml")
