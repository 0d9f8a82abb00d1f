"""A simulated day: three queue managers, one message a second, played to the end."""

from __future__ import annotations

import pytest
import trio

import qsg
from actors.events import ChannelDelivered, MessageGot, MessagePut
from actors.world import World
from qsg import CMQC, GMO, MD, PMO
from tests.worlds import qsg_and_qm3

DAY = int(__import__("os").environ.get("QSG_DAY", 24 * 3600))


async def _producer(world: World) -> None:
    """One message a second from QM1: even seconds to the shared queue, odd ones across
    the channel to QM3; each lives ten minutes."""
    conn = await world.connect("QM1")
    shared = await conn.open("APP.SHARED", CMQC.MQOO_OUTPUT)
    remote = await conn.open("TO.QM3", CMQC.MQOO_OUTPUT)
    pmo = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
    for second in range(DAY):
        target = shared if second % 2 == 0 else remote
        await target.put(b"%d" % second, MD(Expiry=6000), pmo)
        await trio.sleep(1)


async def _consumer(world: World, q_mgr: str, queue: str, got: list[int]) -> None:
    conn = await world.connect(q_mgr)
    q = await conn.open(queue, CMQC.MQOO_INPUT_SHARED)
    gmo = GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, WaitInterval=60_000)
    while True:
        md = MD()
        body = await q.get(None, md, gmo)
        assert 0 < md.Expiry <= 6000  # never an expired message, always some life left
        got.append(int(body))


@pytest.mark.slow
def test_three_queue_managers_play_a_simulated_day_at_one_message_a_second_to_the_end() -> None:
    async def main() -> tuple[list[int], list[int], float, World]:
        shared_got: list[int] = []
        remote_got: list[int] = []
        async with qsg.start(qsg_and_qm3(), in_process=True, keep_events=False) as world:
            counts = {"put": 0, "get": 0, "delivered": 0}
            seen = world.events.subscribe()

            async def count() -> None:
                async for event in seen:
                    if isinstance(event, MessagePut | MessageGot | ChannelDelivered):
                        counts[event.kind] += 1

            async with trio.open_nursery() as nursery:
                nursery.start_soon(count)
                nursery.start_soon(_consumer, world, "QM2", "APP.SHARED", shared_got)
                nursery.start_soon(_consumer, world, "QM3", "APP.IN", remote_got)
                await _producer(world)
                await trio.sleep(10)  # the last messages arrive
                nursery.cancel_scope.cancel()
            end = trio.current_time()
        assert counts == {"put": DAY, "get": DAY, "delivered": DAY // 2}
        return shared_got, remote_got, end, world

    shared_got, remote_got, end, world = qsg.run(main)
    assert shared_got == list(range(0, DAY, 2))
    assert remote_got == list(range(1, DAY, 2))
    assert end == DAY + 10
    assert world.events.history == []  # keep_events=False: subscribers only
