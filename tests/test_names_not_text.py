"""An object name that is not text is a name MQ knows nothing of: MQPUT1 of it, as
MQOPEN of it, fails with MQRC_UNKNOWN_OBJECT_NAME (2085), never a UnicodeDecodeError.

MQ's names are characters of a coded character set ("Rules for naming IBM MQ objects");
bytes that no name could be made of (0xFF 0xFE are not UTF-8) name no object.
"""

from __future__ import annotations

import pytest

import qsg
from actors.clock import VirtualClock
from actors.world import World
from qsg import CMQC, pymqi
from qsg.pymqi import CMQC as PYMQI_CMQC
from tests.claims import keeps
from tests.test_pymqi_facade import in_world, raises_reason
from tests.worlds import qsg_and_qm3

NOT_TEXT = b"APP.\xff\xfe"


@keeps(
    "docs/edges.md",
    'An MQOPEN or an MQPUT1 of a name that is not text (bytes such as `b"APP.\\xff\\xfe"`, '
    "through the facade too) is MQRC_UNKNOWN_OBJECT_NAME.",
)
@keeps(
    "docs/security.md",
    "an object name that is not text names no object: MQRC_UNKNOWN_OBJECT_NAME, 2085",
)
def test_pymqi_put1_and_open_of_a_name_that_is_not_text_are_2085() -> None:
    def body(world: World) -> None:
        qmgr = pymqi.connect("QM3")
        with raises_reason(PYMQI_CMQC.MQRC_UNKNOWN_OBJECT_NAME):
            qmgr.put1(NOT_TEXT, b"x")
        with raises_reason(PYMQI_CMQC.MQRC_UNKNOWN_OBJECT_NAME):
            pymqi.Queue(qmgr, NOT_TEXT).put(b"x")
        od = pymqi.OD(ObjectName=NOT_TEXT)
        with raises_reason(PYMQI_CMQC.MQRC_UNKNOWN_OBJECT_NAME):
            qmgr.put1(od, b"x")

    in_world(body)


@keeps("docs/edges.md", "An MQOPEN or an MQPUT1 of a name that is not text")
@keeps(
    "docs/security.md",
    "an object name that is not text names no object: MQRC_UNKNOWN_OBJECT_NAME, 2085",
)
async def test_the_mqi_put1_of_a_name_that_is_not_text_is_2085(virtual_clock: VirtualClock) -> None:
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        conn = await world.connect("QM1")
        for target in (NOT_TEXT, qsg.OD(ObjectName=NOT_TEXT)):
            with pytest.raises(qsg.MQMIError) as raised:
                await conn.put1(target, b"x", qsg.MD(), qsg.PMO())
            assert raised.value.reason == CMQC.MQRC_UNKNOWN_OBJECT_NAME
        with pytest.raises(qsg.MQMIError) as raised:
            await conn.open(qsg.OD(ObjectName=NOT_TEXT), CMQC.MQOO_OUTPUT)
        assert raised.value.reason == CMQC.MQRC_UNKNOWN_OBJECT_NAME
