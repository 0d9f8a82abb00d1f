"""Serialized applications in a running world: connection tags before and after peer
recovery of a killed member, in process and on the coupling facility's server (issue 48).

IBM: 2271 MQRC_CONN_TAG_IN_USE "... or there is an unresolved unit of work that
references this connection tag"; "Shared queue recovery" (a surviving member backs out a
failed member's units of work on shared queues); 2350 MQRC_CONN_TAG_NOT_USABLE (recovery
"delayed pending recovery of the coupling facility").
"""

from __future__ import annotations

import pytest
import trio

import qsg
from actors.clock import VirtualClock
from actors.mqi import Connection
from actors.world import World
from qsg import CMQC, GMO, MD, PMO
from qsg.core.conntag import ConnectOptions
from qsg.core.errors import MQMIError
from tests.claims import keeps
from tests.worlds import qsg_and_qm3

TAG = b"ORDERS.IN.SERIAL"
SERIAL_QSG = ConnectOptions(options=CMQC.MQCNO_SERIALIZE_CONN_TAG_QSG, tag=TAG, space="JOB1")
SERIAL_QMGR = ConnectOptions(options=CMQC.MQCNO_SERIALIZE_CONN_TAG_Q_MGR, tag=TAG, space="JOB1")
NO_SYNC = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
IN = CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_OUTPUT


async def first_of(conn: Connection) -> bytes:
    queue = await conn.open("APP.SHARED", IN)
    return await queue.get(None, MD(), GMO(Options=CMQC.MQGMO_SYNCPOINT))


async def serialized_instance_holding_a_get(world: World) -> None:
    """On QM1: two orders on the shared queue, and the serialized instance's unit of
    work holding the first."""
    feeder = await (await world.connect("QM1")).open("APP.SHARED", IN)
    await feeder.put(b"order 1", MD(), NO_SYNC)
    await feeder.put(b"order 2", MD(), NO_SYNC)
    app = await world.connect("QM1", cno=SERIAL_QSG)
    assert await first_of(app) == b"order 1"
    await trio.sleep(1)


@keeps(
    "docs/pymqi.md",
    "a restarted instance gets 2271 meanwhile, and then finds the message it held back on the "
    "queue, first.",
)
async def test_a_serialized_instance_restarts_on_a_peer_after_recovery_and_gets_its_message_first(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    # The pattern serialized applications are for: the instance on a killed member is
    # restarted on a survivor, which accepts its tag once peer recovery has put the
    # in-flight message back, so it is processed first, in order.
    async with qsg.start(qsg_and_qm3(), **cf_mode) as world:  # type: ignore[arg-type]
        await serialized_instance_holding_a_get(world)
        with pytest.raises(MQMIError, match=r"\b2271\b"):
            await world.connect("QM2", cno=SERIAL_QSG)  # QM1's instance is active
        await world.kill("QM1")  # a surviving member runs peer recovery at once
        again = await world.connect("QM2", cno=SERIAL_QSG)
        assert await first_of(again) == b"order 1"


@keeps(
    "docs/mq-rules.md",
    "A failed member's tag is in use (2271) until peer recovery, or its restart, resolves its "
    "units of work; then the message it held is back, first.",
)
async def test_a_killed_members_tag_stays_in_use_until_its_restart_when_no_peer_recovers_it(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    # With no member running to recover it, the killed member's unit of work is
    # unresolved until it restarts: its tag is in use in the group (2271) meanwhile, but
    # not on another queue manager for MQCNO_SERIALIZE_CONN_TAG_Q_MGR.
    async with qsg.start(qsg_and_qm3(), **cf_mode) as world:  # type: ignore[arg-type]
        await serialized_instance_holding_a_get(world)
        await world.kill("QM2")
        await world.kill("QM1")  # nobody left to recover it
        await world.restart("QM2")
        with pytest.raises(MQMIError, match=r"\b2271\b"):
            await world.connect("QM2", cno=SERIAL_QSG)
        await (await world.connect("QM2", cno=SERIAL_QMGR)).disconnect()
        await world.restart("QM1")  # its restart resolves its own units of work
        again = await world.connect("QM2", cno=SERIAL_QSG)
        assert await first_of(again) == b"order 1"


@keeps(
    "docs/mq-rules.md",
    "While that recovery waits for the coupling facility the tag is not usable (2350).",
)
async def test_a_tag_whose_peer_recovery_waits_for_the_coupling_facility_is_not_usable(
    virtual_clock: VirtualClock,
) -> None:
    # QM2 has lost its link to the facility when QM1 is killed: peer recovery waits for
    # the facility, and the tag with it (2350); once the link is back, recovery runs and
    # the instance starts on QM2.
    async with qsg.start(qsg_and_qm3(), in_process=True, faults=True) as world:
        await serialized_instance_holding_a_get(world)
        await world.cf_unavailable("QM2")
        await world.kill("QM1")
        with pytest.raises(MQMIError, match=r"\b2350\b"):
            await world.connect("QM2", cno=SERIAL_QSG)
        await world.cf_available("QM2")
        again = await world.connect("QM2", cno=SERIAL_QSG)
        assert await first_of(again) == b"order 1"


@keeps(
    "docs/pymqi.md",
    "or the member it connects to cannot reach the facility where the group keeps its tags, "
    "the tag is not usable: MQRC_CONN_TAG_NOT_USABLE (2350).",
)
async def test_a_member_that_cannot_reach_the_facility_refuses_a_group_tag_with_2350(
    virtual_clock: VirtualClock,
) -> None:
    # QM2 cut from the facility: its connections may not serialize on the group's tags
    # (their uses cannot be known), while QM1, which still reaches it, may; with the
    # link back, QM2 may too.
    async with qsg.start(qsg_and_qm3(), in_process=True, faults=True) as world:
        await world.cf_unavailable("QM2")
        with pytest.raises(MQMIError, match=r"\b2350\b"):
            await world.connect("QM2", cno=SERIAL_QSG)
        first = await world.connect("QM1", cno=SERIAL_QSG)
        await first.disconnect()
        await world.cf_available("QM2")
        await world.connect("QM2", cno=SERIAL_QSG)
