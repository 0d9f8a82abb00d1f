"""Serialized applications through the pymqi facade: MQCONNX with ``ibmmq``'s CNO and
its ConnTag (issue 48), as a program run by ``qsg exec`` spells it::

    cno = pymqi.CNO(Options=CMQC.MQCNO_SERIALIZE_CONN_TAG_QSG, ConnTag=b"PAYROLL.1")
    qmgr = pymqi.QueueManager(None)
    qmgr.connect_with_options("QSG1", cno=cno)
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

import qsg
from actors.world import World
from qsg import pymqi
from qsg.chaos import checkers, history
from qsg.commands.exec.command import run_exec
from qsg.commands.exec.program import parse_command
from qsg.commands.exec.runner import facade_bound
from qsg.pymqi import CMQC
from qsg.scenario import load_scenario
from tests.claims import keeps
from tests.worlds import qsg_and_qm3

T = TypeVar("T")
ROOT = Path(__file__).resolve().parent.parent
TAG = b"PAYROLL.1"


def in_world(body: Callable[[World], T]) -> T:
    async def main() -> T:
        async with (
            qsg.start(qsg_and_qm3(), in_process=True, seed=3) as world,
            facade_bound(world, virtual=True),
        ):
            return body(world)

    return qsg.run(main)


def connected(name: str, option: int, tag: bytes = TAG, **cno: int) -> pymqi.QueueManager:
    qmgr = pymqi.QueueManager(None)
    qmgr.connect_with_options(name, cno=pymqi.CNO(Options=option, ConnTag=tag, **cno))
    return qmgr


def reason_of(call: Callable[[], object]) -> int:
    with pytest.raises(pymqi.MQMIError) as raised:
        call()
    assert raised.value.comp == CMQC.MQCC_FAILED
    return int(raised.value.reason)


@keeps(
    "docs/pymqi.md", "MQCNO_SERIALIZE_CONN_TAG_QSG: 2271 while it is in use anywhere in the group."
)
def test_a_second_instance_with_the_serialized_tag_is_refused_until_the_first_disconnects() -> None:
    # MQCNO_SERIALIZE_CONN_TAG_QSG through ibmmq's cno: 2271 on any member meanwhile.
    def body(world: World) -> list[int]:
        first = connected("QM1", CMQC.MQCNO_SERIALIZE_CONN_TAG_QSG)
        reasons = [reason_of(lambda: connected("QM2", CMQC.MQCNO_SERIALIZE_CONN_TAG_QSG))]
        first.disconnect()
        connected("QM2", CMQC.MQCNO_SERIALIZE_CONN_TAG_QSG).disconnect()
        return reasons

    assert in_world(body) == [CMQC.MQRC_CONN_TAG_IN_USE]


@keeps(
    "docs/pymqi.md",
    "shared with the program's own connections to the same queue manager (a program is one "
    "processing scope, as an MVS address space is)",
)
def test_a_programs_connections_share_a_restricted_tag_on_one_queue_manager() -> None:
    # A program is one processing scope: RESTRICT lets its connections share the tag on
    # the queue manager the first used, not on another member.
    def body(world: World) -> int:
        connected("QM1", CMQC.MQCNO_RESTRICT_CONN_TAG_QSG)
        connected("QM1", CMQC.MQCNO_RESTRICT_CONN_TAG_QSG)
        return reason_of(lambda: connected("QM2", CMQC.MQCNO_RESTRICT_CONN_TAG_QSG))

    assert in_world(body) == CMQC.MQRC_CONN_TAG_IN_USE


@keeps("docs/pymqi.md", "More than one tag option is MQRC_OPTIONS_ERROR (2046)")
def test_the_bad_connect_options_are_refused_with_their_reason_codes() -> None:
    # A tag beginning MQ (reserved for IBM products): 2139; RESTRICT as a client: 2046.
    def body(world: World) -> list[int]:
        client = pymqi.QueueManager(None)
        cd = pymqi.CD(ChannelName=b"SYSTEM.DEF.SVRCONN", ConnectionName=b"QM1")
        restricted = pymqi.CNO(Options=CMQC.MQCNO_RESTRICT_CONN_TAG_Q_MGR, ConnTag=TAG)
        return [
            reason_of(lambda: connected("QM1", CMQC.MQCNO_SERIALIZE_CONN_TAG_QSG, b"MQ.TAG")),
            reason_of(lambda: client.connect_with_options("QM1", cd=cd, cno=restricted)),
        ]

    assert in_world(body) == [CMQC.MQRC_CNO_ERROR, CMQC.MQRC_OPTIONS_ERROR]


@keeps(
    "docs/pymqi.md",
    "its ConnTag from Version 3 on (pymqi 1.12's `opts` carries no tag, so a tag option there "
    "serializes nothing; nor does the tag MQCT_NONE).",
)
def test_the_conn_tag_of_a_cno_before_version_3_is_ignored_and_pymqis_opts_carry_none() -> None:
    # "This field is ignored if Version is less than MQCNO_VERSION_3"; pymqi 1.12's
    # ``opts`` has no ConnTag, so a tag option there serializes nothing.
    def body(world: World) -> None:
        for _ in range(2):
            connected("QM1", CMQC.MQCNO_SERIALIZE_CONN_TAG_QSG, Version=CMQC.MQCNO_VERSION_2)
            qmgr = pymqi.QueueManager(None)
            qmgr.connect_with_options("QM1", opts=CMQC.MQCNO_SERIALIZE_CONN_TAG_QSG)

    in_world(body)


@keeps(
    "docs/pymqi.md",
    "its second instance is refused, and after QM1 is killed under it the tag is held until "
    "QM2's peer recovery ends",
)
def test_the_serialized_program_waits_for_its_tag_after_its_member_dies_and_loses_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """scenarios/programs/serialized.py under scenarios/exec-failover.toml: its second
    instance is refused while it runs; QM1 is killed at 21.5 s under it; connecting
    again by QSG1's name its tag is still held (2271) until QM2's peer recovery has
    resolved QM1's unit of work, a second later it is on QM2, and the chaos checkers
    find every order delivered once."""
    scenario = load_scenario(ROOT / "scenarios" / "exec-failover.toml")
    program = ROOT / "scenarios" / "programs" / "serialized.py"
    command = parse_command(["python", str(program), "QM1", "QSG1", "ORDERS.1"])
    outcome, result = run_exec(scenario, command, virtual=True, check=True)
    assert outcome.exit_status == 0 and not outcome.stopped
    in_use = "MQI Error. Comp: 2, Reason 2271: FAILED: MQRC_CONN_TAG_IN_USE"
    assert capsys.readouterr().out.splitlines() == [
        "connected to QM1 with tag ORDERS.1",
        f"a second instance is refused: {in_use}",
        "lost the queue manager after 107 messages: "
        "MQI Error. Comp: 2, Reason 2009: FAILED: MQRC_CONNECTION_BROKEN",
        f"tag held: {in_use}",
        "connected to QM2 with tag ORDERS.1",
        "done: 299 messages committed",
    ]
    verdicts = {v.name: v for v in checkers.check(history.read(result.events, result.scopes))}
    assert all(v.ok for v in verdicts.values()), verdicts
    queue = verdicts["queue"].counts
    assert (queue["acknowledged"], queue["lost"], queue["duplicated"]) == (299, 0, 0)
