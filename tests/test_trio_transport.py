"""The coupling facility from trio tasks: the same store over the trio transport, with
members' calls pipelined on one connection, and a broken link failing only the calls
it cut (issue 5)."""

from __future__ import annotations

import greenback
import pytest
import trio

import coupling.store
from coupling.server import EmbeddedServer
from coupling.store import RedisStore
from coupling.transport import CFConnectionError
from coupling.trio_transport import TrioTransport
from qsg import CMQC, MQMIError, QMgr
from qsg.core.handle import Handle
from qsg.core.objects import CFStructure
from qsg.core.sharing import QueueSharingGroup
from tests.claims import keeps
from tests.helpers import ALL, drain, put


def shared_queue(transport: TrioTransport, name: str) -> tuple[RedisStore, Handle]:
    """Shared queue Q of a one-member QSG whose store is ``name`` on the facility, opened
    for everything."""
    store = RedisStore(transport, name)
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1", store=store))
    qm.define_structure(CFStructure("APP1"))
    qm.define_queue("Q", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")
    return store, qm.connect().open("Q", ALL)


@keeps(
    "docs/coupling-facility.md",
    "a task that has called `await greenback.ensure_portal()` runs the (synchronous) rules layer "
    "on it.",
)
async def test_a_queue_manager_runs_on_the_facility_from_a_trio_task(cf_url: str) -> None:
    async with TrioTransport.open(cf_url) as transport:
        await greenback.ensure_portal()  # the synchronous rules layer awaits through it
        store, h = shared_queue(transport, "TRIO1")
        for n in range(3):
            put(h, b"m%d" % n, 0.0, Priority=n)
        assert drain(h, 0.0) == [b"m2", b"m1", b"m0"]
        store.delete_queue("Q")


@keeps(
    "docs/coupling-facility.md",
    "`coupling.trio_transport.TrioTransport.open(url)` is the same connection for trio tasks, "
    "pipelining concurrent members' calls",
)
async def test_concurrent_calls_share_one_connection_and_each_gets_its_own_answer(
    cf_url: str,
) -> None:
    async with TrioTransport.open(cf_url) as transport:
        answers: dict[int, bytes] = {}

        async def echo(n: int) -> None:
            answers[n] = await transport.acommand("ECHO", b"call %d" % n)

        async with trio.open_nursery() as nursery:
            for n in range(200):
                nursery.start_soon(echo, n)
        assert answers == {n: b"call %d" % n for n in range(200)}


async def test_a_broken_link_fails_the_calls_in_flight_and_the_next_call_connects_again() -> None:
    server = EmbeddedServer(persistent=True)
    server.start()
    try:
        async with TrioTransport.open(server.url) as transport:
            await greenback.ensure_portal()
            store = RedisStore(transport, "TRIO2")
            store.define_structure("APP1", size_kb=1024, cf_level=5)
            qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1", store=store))
            qm.define_structure(CFStructure("APP1"))
            qm.define_queue("Q", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")
            h = qm.connect().open("Q", ALL)
            put(h, b"committed", 0.0)
            server.kill()
            with pytest.raises(MQMIError) as lost:
                put(h, b"during the outage", 0.0)
            assert lost.value.reason == CMQC.MQRC_CF_STRUC_FAILED
            with pytest.raises(CFConnectionError):
                await transport.acommand("PING")  # no server: the call fails, it does not hang
            server.start()
            assert drain(h, 0.0) == [b"committed"]  # reconnected; nothing committed lost
    finally:
        server.stop()


async def test_a_scan_in_batches_over_the_trio_transport_discards_every_expired_message(
    cf_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A scan goes batch by batch, each a round trip: every expired message comes back
    # exactly once, and the live one stays. Those whose Report asks for an expiration
    # report come back whole, the others by MsgId alone; each kind in expiry order.
    monkeypatch.setattr(coupling.store, "SCAN_BATCH", 3)
    async with TrioTransport.open(cf_url) as transport:
        await greenback.ensure_portal()
        store, h = shared_queue(transport, "TRIO3")
        reporting = {"Report": CMQC.MQRO_EXPIRATION, "ReplyToQ": b"REPLIES"}
        descs = [
            put(h, b"m%d" % n, 0.0, Expiry=10 + n, **(reporting if n % 2 else {}))
            for n in range(10)
        ]
        put(h, b"live", 0.0)
        gone = store.scan("Q", 5.0)
        assert sorted(e.msg_id for e in gone) == sorted(d.MsgId for d in descs)
        whole = [e.message.body for e in gone if e.message]
        assert whole == [b"m1", b"m3", b"m5", b"m7", b"m9"]
        by_id = [e.msg_id for e in gone if not e.message]
        assert by_id == [descs[n].MsgId for n in (0, 2, 4, 6, 8)]
        assert drain(h, 5.0) == [b"live"]
        store.delete_queue("Q")
