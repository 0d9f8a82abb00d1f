"""Each coupling facility its own store (issue 48, "More than one facility").

A group with several facilities keeps each facility's structures in that facility's
store (its own in-process store, or its own server), and a router in front of them
(``qsg.core.router``) sends each call to the store of the facility holding the queue's
structure now. These tests hold the pieces: a unit of work spanning two refusing stores
commits in two phases, the router answers as one store, and a facility's loss moves
its structures the same way in process and on servers.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

import qsg
from actors.clock import VirtualClock
from actors.events import CFRecovered
from actors.topology import Topology
from actors.world import World
from coupling.errors import CFConnectionError
from coupling.server import EmbeddedServer
from coupling.store import RedisStore
from coupling.transport import BlockingTransport
from qsg import CMQC, MD, PMO
from qsg.core.errors import MQMIError
from qsg.core.facilities import Placement
from qsg.core.memstore import MemoryStore
from qsg.core.message import Message
from qsg.core.objects import CFStructure
from qsg.core.router import Router
from qsg.core.store import Ordering, Recovery
from qsg.core.uow import UnitOfWork
from tests.claims import keeps

NO_SYNC = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)


def _message(body: bytes, persistent: bool = True) -> Message:
    desc = {
        "MsgId": body.ljust(24, b"\0"),
        "CorrelId": b"\0" * 24,
        "GroupId": b"\0" * 24,
        "MsgSeqNumber": 1,
        "Offset": 0,
        "MsgFlags": 0,
        "Persistence": CMQC.MQPER_PERSISTENT if persistent else CMQC.MQPER_NOT_PERSISTENT,
    }
    return Message(desc, body, 0.0, None, 0)


def _structure_queue(store: RedisStore, structure: str, queue: str) -> None:
    store.define_structure(structure, size_kb=1024, cf_level=5)
    store.create_queue(queue, Ordering.PRIORITY, structure)


def test_a_unit_of_work_on_two_refusing_stores_commits_in_neither_when_the_second_lost_it(
    redis_store: Callable[[], RedisStore],
) -> None:
    """MQCMIT: MQRC_BACKED_OUT (2003) "the unit of work has been backed out", whole: with
    two facilities' stores in one unit of work, a structure's failure under the one
    committed second must not leave the first one's work committed alone."""
    first, second = redis_store(), redis_store()
    _structure_queue(first, "APP1", "Q1")
    _structure_queue(second, "APP2", "Q2")
    uow = UnitOfWork(("QM1", 1), lambda: 1)
    for store, queue in ((second, "Q2"), (first, "Q1")):
        store.put(queue, _message(b"m"), uow.id, 100)
        uow.add(store, 0.0, persistent=True)
    assert uow.stores == [first, second]  # the refusing stores, the last enlisted first
    second.fail_structure("APP2", 1.0)
    with pytest.raises(MQMIError, match=r"MQRC_BACKED_OUT \(2003\): CF structure APP2 failed"):
        uow.commit()
    assert first.depth("Q1") == 0


def _world_topology() -> Topology:
    topology = Topology()
    topology.add_qsg("QSG1", members=["QM1", "QM2"])
    topology.facilities["QSG1"] = ("CF01", "CF02")
    topology.structures["QSG1"] = [
        CFStructure("APP1", recover=True),
        CFStructure("DUP1", recover=True, duplex=True),
    ]
    topology.mqsc(
        "QM1",
        """
        DEFINE QLOCAL(APP.ONE) QSGDISP(SHARED) CFSTRUCT(APP1)
        DEFINE QLOCAL(DUP.ONE) QSGDISP(SHARED) CFSTRUCT(DUP1)
        """,
        source="qm1.mqsc",
    )
    return topology


async def _put_both(world: World, queue: str) -> None:
    out = await (await world.connect("QM1")).open(queue, CMQC.MQOO_OUTPUT)
    await out.put(b"persistent", MD(Persistence=CMQC.MQPER_PERSISTENT), NO_SYNC)
    await out.put(b"nonpersistent", MD(Persistence=CMQC.MQPER_NOT_PERSISTENT), NO_SYNC)


@keeps(
    "docs/coupling-facility.md",
    "Each facility of a group that names several has a store of its own: in process its own "
    "in-process store,",
)
@keeps(
    "docs/coupling-facility.md",
    "every call on a queue goes to the store of that facility, and a duplexed structure's "
    "writes go to both instances.",
)
async def test_in_process_each_facility_has_its_own_store_and_a_duplex_writes_to_both(
    virtual_clock: VirtualClock,
) -> None:
    """z/OS allocates a structure in one coupling facility, and a duplexed one's second
    instance in another, every write going to both: in process each facility is a store
    of its own, the group's administration store a third."""
    async with qsg.start(_world_topology(), faults=True, in_process=True) as world:
        await _put_both(world, "APP.ONE")
        await _put_both(world, "DUP.ONE")
        router = world.routers["QSG1"]
        cf01, cf02 = router.store_of("CF01"), router.store_of("CF02")
        assert len({id(cf01), id(cf02), id(router.admin)}) == 3
        assert cf01.depth("APP.ONE") == 2  # APP1 in CF01 only
        with pytest.raises(KeyError):
            cf02.depth("APP.ONE")
        assert cf01.depth("DUP.ONE") == cf02.depth("DUP.ONE") == 2  # both instances
        await world.facility_fail("CF01")
        assert router.store_of("CF02").depth("APP.ONE") == 1  # rebuilt: persistent one
        assert world.qmgrs["QM2"].rules.depth("DUP.ONE") == 2


async def _facility_loss(cf_mode: dict[str, object]) -> list[tuple[object, ...]]:
    async with qsg.start(_world_topology(), faults=True, **cf_mode) as world:  # type: ignore[arg-type]
        await _put_both(world, "APP.ONE")
        await _put_both(world, "DUP.ONE")
        said = [await world.facility_fail("CF01")]
        said.append(await world.facility_restore("CF01"))
        said.append(await world.facility_fail("CF02"))
        depths = [world.qmgrs["QM2"].rules.depth(q) for q in ("APP.ONE", "DUP.ONE")]
        recovered = [
            (e.structure, e.queues, e.recovered, e.lost) for e in world.events.of(CFRecovered)
        ]
        return [tuple(said), tuple(depths), tuple(recovered)]


@keeps(
    "docs/coupling-facility.md",
    "The router (`qsg/core/router.py`) is the one place that knows which facility holds a "
    "structure",
)
async def test_a_facility_loss_plays_the_same_in_process_and_on_the_server(
    virtual_clock: VirtualClock, cf_url: str
) -> None:
    """One behaviour, one place: the router moves a structure the same whichever
    stores are behind it, so losing CF01, getting it back and losing CF02 answers the
    same, leaves the same depths and the same cf-recovery events on both paths."""
    in_process = await _facility_loss({"in_process": True})
    on_server = await _facility_loss({"redis_url": cf_url})
    assert in_process == on_server
    said, depths, recovered = in_process
    assert said[0] == "APP1 rebuilt in CF02; DUP1 kept in CF02"
    assert depths == (1, 2)  # APP1 lost its nonpersistent message; DUP1 nothing
    assert ("APP1", "APP.ONE", True, 1) in recovered


@keeps(
    "docs/coupling-facility.md",
    "on a server its own server, a private one started for the run",
)
@keeps(
    "docs/coupling-facility.md",
    "What is no structure's (the shared repository, leases, connection tags) stays in the "
    "group's store, on the run's server.",
)
@keeps(
    "docs/coupling-facility.md",
    "`facility_fail` kills the facility's server.",
)
@keeps(
    "docs/coupling-facility.md",
    "and that backup and log are moved into the next facility, where RECOVER CFSTRUCT rebuilds it",
)
async def test_on_the_server_each_facility_is_a_server_of_its_own_that_its_loss_kills(
    virtual_clock: VirtualClock, cf_url: str
) -> None:
    """A facility's failure is its server's death: each facility of the group is its
    own server (the group's administration store on the run's), and ``facility_fail``
    kills CF01's, whose structures go on in CF02's."""
    async with qsg.start(_world_topology(), faults=True, redis_url=cf_url) as world:
        await _put_both(world, "APP.ONE")
        router = world.routers["QSG1"]
        cf01, cf02 = router.store_of("CF01"), router.store_of("CF02")
        assert isinstance(cf01, RedisStore) and isinstance(cf02, RedisStore)
        urls = {cf01.transport.url, cf02.transport.url, cf_url}
        assert len(urls) == 3
        await world.facility_fail("CF01")
        probe = BlockingTransport(cf01.transport.url)
        with pytest.raises(CFConnectionError):
            probe.command("PING")
        probe.close()
        assert cf02.depth("APP.ONE") == 1


@keeps(
    "docs/coupling-facility.md",
    "A facility that comes back is empty; a duplexed structure's second instance there is a "
    "copy of the first, taken once no unit of work has work on it.",
)
async def test_restoring_a_facility_that_is_there_leaves_its_server_and_duplex_alone(
    virtual_clock: VirtualClock, cf_url: str
) -> None:
    """A chaos run's heal restores every facility, some of them already back: such a
    restore must not replace the facility's server (a call to the duplexed structure's
    second instance then met a stopped server: an unscheduled 2373)."""
    async with qsg.start(_world_topology(), faults=True, redis_url=cf_url) as world:
        await world.facility_fail("CF01")
        await world.facility_restore("CF01")
        await _put_both(world, "DUP.ONE")
        assert await world.facility_restore("CF01") == "CF01 holds nothing again"
        await _put_both(world, "DUP.ONE")
        await world.facility_fail("CF02")
        assert world.qmgrs["QM2"].rules.depth("DUP.ONE") == 4


@keeps(
    "docs/coupling-facility.md",
    "or the one `QSG_REDIS_URL_CF02` names for facility CF02 (another server than the "
    "group's: qsg empties the group's keys there first).",
)
async def test_a_facility_named_by_its_url_variable_is_that_server_emptied_first(
    virtual_clock: VirtualClock,
    cf_url: str,
    tcp_server: EmbeddedServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``QSG_REDIS_URL_CF02`` names CF02's server: the group's structures in CF02 live
    there, and what an earlier run left of the group there is gone first."""
    leftover = BlockingTransport(tcp_server.url)
    leftover.command("SET", "qsg:{QSG1}:stale", "1")
    monkeypatch.setenv("QSG_REDIS_URL_CF02", tcp_server.url)
    async with qsg.start(_world_topology(), faults=True, redis_url=cf_url) as world:
        cf02 = world.routers["QSG1"].store_of("CF02")
        assert isinstance(cf02, RedisStore) and cf02.transport.url == tcp_server.url
        assert leftover.command("EXISTS", "qsg:{QSG1}:stale") == 0
        await _put_both(world, "DUP.ONE")
        assert cf02.depth("DUP.ONE") == 2
    leftover.close()


@keeps(
    "docs/coupling-facility.md",
    "a facility that fails during it leaves its part to the member that runs the recovery "
    "next, and that member reports it.",
)
def test_a_peer_recovery_a_facility_cut_short_is_reported_by_the_call_that_completes_it() -> None:
    """Peer recovery runs in each facility's store (on z/OS each structure's part is its
    own). If one facility's part fails (its server died during the call), the others'
    parts are done and claimed; the member that runs it again completes the rest, and
    its answer says it ran, with the units it backed out, so that its PeerRecovered
    event is emitted. (The administration store's claim, taken by the first attempt,
    answered "not run" and the completing call was never reported.)"""

    class _DiesOnce(MemoryStore):
        def __init__(self) -> None:
            super().__init__()
            self.dead = True

        def recover(self, failed: str, incarnation: int, by: str) -> Recovery:
            if self.dead:
                self.dead = False
                raise MQMIError.failed(CMQC.MQRC_CF_STRUC_FAILED, "the server died")
            return super().recover(failed, incarnation, by)

    cf02 = _DiesOnce()
    structure = CFStructure("APP1", recover=True, preference=("CF02", "CF01"))
    router = Router(
        Placement(("CF01", "CF02")),
        {"CF01": MemoryStore(), "CF02": cf02},
        MemoryStore(),
        {"APP1": structure}.get,
    )
    router.define_structure("APP1", size_kb=1024, cf_level=5)
    router.create_queue("Q", Ordering.FIFO, "APP1")
    router.put("Q", _message(b"in flight"), ("QM1", 1), 100)
    with pytest.raises(MQMIError):
        router.recover("QM1", 1, "QM2")
    again = router.recover("QM1", 1, "QM3")
    assert (again.ran, again.by, again.units) == (True, "QM3", 1)
    assert router.uncommitted("Q") == 0 and router.depth("Q") == 0
    assert router.recover("QM1", 1, "QM2").ran is False
