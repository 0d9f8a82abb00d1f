"""Triggering in the running world: a trigger monitor waiting on its initiation queue
is woken by the trigger message at the simulated moment the trigger event happens, and
starts a server for the queue (qsg/core/trigger.py; "Expiry (MQLONG)" note 8)."""

from __future__ import annotations

import pytest
import trio

import qsg
from actors.clock import VirtualClock
from qsg import CMQC, GMO, MD, PMO, MQMIError
from qsg.core.layouts import TM
from qsg.events import TriggerMessagePut

TOPOLOGY_MQSC = """
DEFINE PROCESS(APP.SERVER) APPLTYPE(UNIX) APPLICID('app-server')
DEFINE QLOCAL(APP.INITQ)
DEFINE QLOCAL(APP.REQUESTS) TRIGGER TRIGTYPE(FIRST) PROCESS(APP.SERVER) INITQ(APP.INITQ)
"""


def topology() -> qsg.Topology:
    top = qsg.Topology()
    top.add_qmgr("QM1")
    top.mqsc("QM1", TOPOLOGY_MQSC)
    return top


async def test_a_trigger_monitor_starts_a_server_for_each_burst_of_requests(
    virtual_clock: VirtualClock,
) -> None:
    served: list[tuple[float, bytes]] = []
    started: list[float] = []
    async with qsg.start(topology(), in_process=True) as world:

        async def serve(tm: TM) -> None:
            """The triggered application: drains its queue, then ends."""
            started.append(trio.current_time())
            conn = await world.connect("QM1")
            q = await conn.open(tm.QName.rstrip().decode(), CMQC.MQOO_INPUT_SHARED)
            gmo = GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, WaitInterval=1000)
            while True:
                try:
                    body = await q.get(None, MD(), gmo)
                    served.append((trio.current_time(), body))
                except MQMIError as error:
                    if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
                        raise
                    break
            await q.close()
            await conn.disconnect()

        async def trigger_monitor(nursery: trio.Nursery) -> None:
            conn = await world.connect("QM1")
            initq = await conn.open("APP.INITQ", CMQC.MQOO_INPUT_SHARED)
            gmo = GMO(
                Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT,
                WaitInterval=CMQC.MQWI_UNLIMITED,
            )
            while True:
                md = MD()
                body = await initq.get(None, md, gmo)
                assert md.Format == CMQC.MQFMT_TRIGGER
                assert md.Expiry == CMQC.MQEI_UNLIMITED  # "Expiry (MQLONG)" note 8
                nursery.start_soon(serve, TM.unpack(body))

        async with trio.open_nursery() as nursery:
            nursery.start_soon(trigger_monitor, nursery)
            await trio.sleep(1)
            app = await world.connect("QM1")
            requests = await app.open("APP.REQUESTS", CMQC.MQOO_OUTPUT)
            no_sync = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
            for n in range(3):  # a burst at 10 s: one trigger message
                await trio.sleep_until(10 + n * 0.1)
                await requests.put(b"burst one %d" % n, MD(Expiry=600), no_sync)
            await trio.sleep_until(30)  # the server ended at 11.2 s: the queue is empty
            await requests.put(b"burst two", MD(), no_sync)
            await trio.sleep_until(40)
            nursery.cancel_scope.cancel()
        triggers = world.events.of(TriggerMessagePut)
    assert started == [10.0, 30.0]
    assert [t for t, _ in served] == [10.0, 10.1, pytest.approx(10.2), 30.0]
    assert [(e.time, e.queue, e.app_queue) for e in triggers] == [
        (10.0, "APP.INITQ", "APP.REQUESTS"),
        (30.0, "APP.INITQ", "APP.REQUESTS"),
    ]
