"""pymqi's Queue opened on a namelist, a process definition or the queue manager (an
OD whose ObjectType says so), as pymqi programs inquire them: MQINQ of MQCA_NAMES and
MQIA_NAME_COUNT, of a process's APPLICID, of the queue manager's attributes; what IBM's
"MQOPEN - Open object" and "MQINQ - Inquire object attributes" refuse, refused with
their reason codes (issue 45).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import pytest

import qsg
from actors.topology import Topology
from actors.world import World
from qsg import pymqi
from qsg.commands.exec.runner import facade_bound
from qsg.pymqi import CMQC
from tests.claims import keeps

T = TypeVar("T")


def _in_world(body: Callable[[World], T]) -> T:
    topology = Topology()
    topology.add_qmgr("QM1")
    topology.mqsc(
        "QM1",
        "DEFINE NAMELIST(APP.NL) NAMES(APP.A,APP.B) NLTYPE(QUEUE)\n"
        "DEFINE PROCESS(APP.P) APPLICID('CKTI')\n"
        "ALTER QMGR MAXHANDS(300)",
    )

    async def main() -> T:
        async with (
            qsg.start(topology, in_process=True) as world,
            facade_bound(world, virtual=True),
        ):
            return body(world)

    return qsg.run(main)


def _od(object_type: int, name: bytes = b"") -> pymqi.OD:
    return pymqi.OD(ObjectType=object_type, ObjectName=name)


@keeps(
    "docs/mqsc.md",
    "A pymqi program opens one as pymqi does, a `pymqi.Queue` of an OD whose ObjectType says which",
)
def test_a_pymqi_program_inquires_a_namelists_names_and_count() -> None:
    def body(world: World) -> tuple[object, object, object]:
        qmgr = pymqi.connect("QM1")
        namelist = pymqi.Queue(qmgr, _od(CMQC.MQOT_NAMELIST, b"APP.NL"), CMQC.MQOO_INQUIRE)
        names = namelist.inquire(CMQC.MQCA_NAMES)
        count = namelist.inquire(CMQC.MQIA_NAME_COUNT)
        namelist.close()
        process = pymqi.Queue(qmgr, _od(CMQC.MQOT_PROCESS, b"APP.P"))  # opened at inquire
        applicid = process.inquire(CMQC.MQCA_APPL_ID)
        return names, count, applicid

    names, count, applicid = _in_world(body)
    assert names == b"APP.A".ljust(48) + b"APP.B".ljust(48)
    assert count == 2
    assert bytes(applicid).rstrip() == b"CKTI"


def test_the_queue_manager_opened_as_an_object_answers_its_attributes() -> None:
    def body(world: World) -> object:
        qmgr = pymqi.connect("QM1")
        opened = pymqi.Queue(qmgr, _od(CMQC.MQOT_Q_MGR), CMQC.MQOO_INQUIRE)
        return opened.inquire(CMQC.MQIA_MAX_HANDLES)

    assert _in_world(body) == 300


@pytest.mark.parametrize(
    ("call", "reason"),
    [
        ("put", CMQC.MQRC_NOT_OPEN_FOR_OUTPUT),
        ("get", CMQC.MQRC_NOT_OPEN_FOR_INPUT),
        ("set", CMQC.MQRC_NOT_OPEN_FOR_SET),
        ("selector", CMQC.MQRC_SELECTOR_ERROR),
        ("open_for_set", CMQC.MQRC_OPTIONS_ERROR),
    ],
)
@keeps(
    "docs/mqsc.md",
    "an MQPUT or MQGET on it is MQRC_NOT_OPEN_FOR_OUTPUT 2039 or MQRC_NOT_OPEN_FOR_INPUT 2037.",
)
def test_what_a_namelists_handle_cannot_do_is_ibms_reason_code(call: str, reason: int) -> None:
    # MQPUT and MQGET on a handle opened for MQINQ only: 2039, 2037; MQSET 2040; a queue's
    # selector on a namelist 2067; MQOPEN of a namelist for set 2046.
    def body(world: World) -> int:
        qmgr = pymqi.connect("QM1")
        od = _od(CMQC.MQOT_NAMELIST, b"APP.NL")
        try:
            if call == "open_for_set":
                pymqi.Queue(qmgr, od, CMQC.MQOO_SET)
            namelist = pymqi.Queue(qmgr, od, CMQC.MQOO_INQUIRE)
            if call == "put":
                namelist.put(b"x")
            elif call == "get":
                namelist.get()
            elif call == "set":
                namelist.set(CMQC.MQIA_NAMELIST_TYPE, CMQC.MQNT_Q)
            else:
                namelist.inquire(CMQC.MQIA_MAX_Q_DEPTH)
        except pymqi.MQMIError as error:
            return int(error.reason)
        return 0

    assert _in_world(body) == reason
