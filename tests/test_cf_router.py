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
from pathlib import Path

import pytest
import trio

import qsg
from actors.clock import VirtualClock
from actors.config import Fault
from actors.events import CFRecovered, FaultInjected
from actors.faults import inject
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
    "and its backup and the members' logs since are moved with it into the next facility, "
    "where RECOVER CFSTRUCT rebuilds it.",
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
    "Under the wall clock (a scenario's `clock = \"wall\"`) each facility's server is reached "
    "through a trio transport of its own, by the same router.",
)
async def test_under_the_wall_clock_each_facility_is_a_server_of_its_own_too(
    cf_url: str,
) -> None:
    """Under the wall clock (``--wall-clock``; the trio transport) each facility is its
    own server as under the virtual clock, through the same router: losing CF01 kills
    its server and plays as it does in process."""
    async with qsg.start(_world_topology(), faults=True, redis_url=cf_url) as world:
        assert world.link.bridged
        router = world.routers["QSG1"]
        cf01, cf02 = router.store_of("CF01"), router.store_of("CF02")
        assert isinstance(cf01, RedisStore) and isinstance(cf02, RedisStore)
        assert len({cf01.transport.url, cf02.transport.url, cf_url}) == 3
    assert await _facility_loss({"redis_url": cf_url}) == await _facility_loss({"in_process": True})


async def test_a_scenario_s_facility_fault_under_the_wall_clock_moves_the_structures(
    cf_url: str,
) -> None:
    """A ``[[fault]]`` runs in a task of its own: under the wall clock the router's
    store calls it makes go through the trio transport, which needs the task's greenback
    portal (the fault ended the run with greenback's RuntimeError before)."""
    fault = Fault(0.0, "facility_fail", qmgr="QM1", facility="CF01")
    async with qsg.start(_world_topology(), faults=True, redis_url=cf_url) as world:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(inject, world, "facility_fail", fault)
        (event,) = world.events.of(FaultInjected)
        assert not event.refused
        assert event.detail == "APP1 rebuilt in CF02; DUP1 kept in CF02"


FACILITIES_ACROSS_PROCESSES = """
[run]
duration = 12
seed = 1
clock = "wall"

[qsg.QSG1]
members = ["QM1", "QM2"]
facilities = ["CF01", "CF02"]
mqsc = "DEFINE QLOCAL(APP.WORK) QSGDISP(SHARED) CFSTRUCT(DUP1) DEFPSIST(YES) MAXDEPTH(100000)"

[qsg.QSG1.structures.DUP1]
recover = true
duplex = true

[[workload]]
name = "orders"
type = "putter"
qmgr = "QM1"
queue = "APP.WORK"
rate = 10
syncpoint = 2

[[workload]]
name = "workers"
type = "getter"
qmgr = "QM2"
queue = "APP.WORK"
syncpoint = 2
"""


@pytest.mark.slow
@keeps(
    "docs/coupling-facility.md",
    "`qsg chaos --processes` starts each facility's server beside the group's (or takes the "
    "one `QSG_REDIS_URL_CF02` names) and gives every member process its URL; a member that "
    "starts again joins the running group and empties nothing.",
)
def test_across_processes_every_member_reaches_each_facility_s_own_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``qsg chaos --processes``: the coordinator starts each facility's own server
    beside the group's, and every member process (a SIGKILLed one's next life included,
    which joins without emptying it) reaches each one: the duplexed structure is in
    both facilities' servers, and the checkers find nothing lost."""
    from qsg.chaos import processes
    from qsg.scenario import load_scenario

    held: dict[str, bool] = {}  # each server the run started: did it hold QSG1's queues

    class Probed(EmbeddedServer):
        def stop(self) -> None:
            if self.running:  # stopped once by the run, again at exit
                probe = BlockingTransport(self.url)
                held[self.url] = probe.command("EXISTS", "qsg:{QSG1}:queues") == 1
                probe.close()
            super().stop()

    monkeypatch.setattr(processes, "EmbeddedServer", Probed)
    monkeypatch.delenv("QSG_REDIS_URL", raising=False)
    path = tmp_path / "facilities.toml"
    path.write_text(FACILITIES_ACROSS_PROCESSES)
    kills = [processes.Kill(3.0, "QM2", 2.0)]
    run = processes.run_processes(path, load_scenario(path), 1, kills, directory=tmp_path)
    verdicts = processes.judge(run)
    assert all(v.ok for v in verdicts), [(v.name, v.involved[:3]) for v in verdicts]
    # Stopped in the order started: the group's (its queues are in no structure of
    # it), then CF01's and CF02's, each with DUP1's instance.
    assert list(held.values()) == [False, True, True], held


def test_across_processes_a_facility_named_by_its_url_variable_is_that_server(
    tmp_path: Path, tcp_server: EmbeddedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``QSG_REDIS_URL_CF02`` set, every member process is given that server for
    CF02 (by its environment, as the group's URL is) and a private one for CF01."""
    from qsg.chaos import processes
    from qsg.scenario import load_scenario

    given: list[dict[str, str]] = []

    class StartedError(Exception):
        pass

    real = processes.subprocess.Popen

    def popen(command: list[str], **options: object) -> object:
        if "member" not in command:  # CF01's private server starting
            return real(command, **options)  # type: ignore[call-overload]
        env = options["env"]
        assert isinstance(env, dict)
        given.append(env)
        raise StartedError

    monkeypatch.setattr(processes.subprocess, "Popen", popen)
    monkeypatch.setenv("QSG_REDIS_URL_CF02", tcp_server.url)
    monkeypatch.delenv("QSG_REDIS_URL_CF01", raising=False)
    path = tmp_path / "facilities.toml"
    path.write_text(FACILITIES_ACROSS_PROCESSES)
    with pytest.raises(StartedError):
        processes.run_processes(path, load_scenario(path), 1, [], directory=tmp_path)
    (env,) = given
    assert env["QSG_REDIS_URL_CF02"] == tcp_server.url
    assert env["QSG_REDIS_URL_CF01"] not in (tcp_server.url, env["QSG_REDIS_URL"])


@pytest.mark.parametrize("joining", [False, True])
def test_a_member_joining_a_running_group_copies_no_duplexed_instance_over_another(
    joining: bool,
) -> None:
    """A process that joins a running group (a member's next life) finds both instances
    of a duplexed structure kept alike by the other members: allocating it must not
    copy the first over the second, erasing what they wrote there meanwhile. A run's
    start (not joining) copies the first, as a facility that comes back is copied."""
    from qsg.core.facilities import Placement
    from qsg.core.memstore import MemoryStore
    from qsg.core.router import Router

    cf01, cf02 = MemoryStore(), MemoryStore()
    for store in (cf01, cf02):
        store.define_structure("DUP1", size_kb=1024, cf_level=5)
        store.create_queue("DUP.ONE", Ordering.PRIORITY, "DUP1")
    cf02.put("DUP.ONE", _message(b"written-by-a-peer"), None, 100)
    router = Router(
        Placement(("CF01", "CF02")),
        {"CF01": cf01, "CF02": cf02},
        MemoryStore(),
        lambda name: CFStructure(name, duplex=True),
        joining=joining,
    )
    router.define_structure("DUP1", size_kb=1024, cf_level=5)
    assert cf02.depth("DUP.ONE") == (1 if joining else 0)


def _three_structures() -> Topology:
    topology = _world_topology()
    topology.structures["QSG1"].append(CFStructure("APP2", recover=True, preference=("CF02",)))
    topology.mqsc(
        "QM1", "DEFINE QLOCAL(APP.TWO) QSGDISP(SHARED) CFSTRUCT(APP2)", source="app2.mqsc"
    )
    return topology


@keeps(
    "docs/coupling-facility.md",
    "`cf_fail` and `cf_restart` name a `facility` in a group with several.",
)
@keeps(
    "docs/coupling-facility.md",
    "`cf_fail` then kills that facility's own server (SIGKILL) and nothing rebuilds its "
    "structures elsewhere: a duplexed structure carries on in its other instance, and any "
    "other structure there has failed (MQRC_CF_STRUC_FAILED, 2373) while the other "
    "facility's structures go on.",
)
@keeps(
    "docs/coupling-facility.md",
    "`cf_restart` starts the server again and, before any member uses it, recovers the "
    "structures that failed there from what the server kept: their persistent messages on "
    "RECOVER(YES) structures with `cf_persistent = true`, nothing otherwise.",
)
@keeps("docs/coupling-facility.md", "A facility's `cf_fail` leaves those up;")
@keeps(
    "docs/scenarios.md",
    "With a `facility` (a group that names several), that facility's own server fails and "
    "restarts, and the other facility's structures go on",
)
async def test_cf_fail_of_one_facility_kills_its_server_alone_and_cf_restart_recovers_it(
    virtual_clock: VirtualClock, cf_url: str
) -> None:
    """A coupling facility's failure, one facility of several ("Coupling Facility
    failure"): its structures' calls get MQRC_CF_STRUC_FAILED (2373) while the other
    facility's structures go on, a duplexed structure carries on in its other instance
    with nothing lost, and the group's server (tags, leases, repository) stays up. Its
    restart recovers its structures from the server's file: persistent messages back,
    nonpersistent ones lost."""
    async with qsg.start(
        _three_structures(), faults=True, redis_url=cf_url, cf_persistent=True
    ) as world:
        for queue in ("APP.ONE", "APP.TWO", "DUP.ONE"):
            await _put_both(world, queue)
        router = world.routers["QSG1"]
        cf01 = router.store_of("CF01")
        assert isinstance(cf01, RedisStore)
        await world.cf_fail("CF01")
        probe = BlockingTransport(cf01.transport.url)
        with pytest.raises(CFConnectionError):
            probe.command("PING")
        probe.close()
        qm2 = await world.connect("QM2")
        queue = await qm2.open("APP.ONE", CMQC.MQOO_INPUT_SHARED)
        with pytest.raises(MQMIError) as failed:
            await queue.get(None, MD(), qsg.GMO(Options=CMQC.MQGMO_NO_SYNCPOINT))
        assert failed.value.reason == CMQC.MQRC_CF_STRUC_FAILED
        assert world.qmgrs["QM2"].rules.depth("APP.TWO") == 2  # CF02's structure goes on
        assert world.qmgrs["QM2"].rules.depth("DUP.ONE") == 2  # kept in CF02
        assert router.admin.conn_tags(b"TAG").uses == ()  # the group's server answers
        await world.cf_restart("CF01")
        assert world.qmgrs["QM2"].rules.depth("APP.ONE") == 1  # the persistent one
        recovered = [(e.structure, e.recovered, e.lost) for e in world.events.of(CFRecovered)]
        assert ("APP1", True, 1) in recovered
        await _put_both(world, "DUP.ONE")  # duplexed into CF01 again
        assert cf01.depth("DUP.ONE") == 4


@keeps("docs/coupling-facility.md", "A chaos run's heal restarts it the same way.")
async def test_a_cf_fail_fault_names_a_facility_and_the_heal_brings_it_back(
    virtual_clock: VirtualClock, cf_url: str
) -> None:
    """``[[fault]] action = "cf_fail"`` with a ``facility``: that facility's server
    fails (the fault's detail says what became of its structures), and a chaos run's
    heal restarts and recovers it as ``cf_restart`` would."""
    fault = Fault(0.0, "cf_fail", facility="CF02")
    async with qsg.start(
        _three_structures(), faults=True, redis_url=cf_url, cf_persistent=True
    ) as world:
        await _put_both(world, "APP.TWO")
        failed = await inject(world, "cf_fail", fault)
        assert (failed.refused, failed.detail) == (False, "APP2 failed in CF02; DUP1 kept in CF01")
        assert await world.restore_connectivity() == ["QSG1 CF02"]
        assert world.qmgrs["QM2"].rules.depth("APP.TWO") == 1


async def test_cf_fail_of_a_facility_in_process_is_refused(virtual_clock: VirtualClock) -> None:
    """In process a facility is no server to kill: the fault is refused, saying so."""
    fault = Fault(0.0, "cf_fail", facility="CF02")
    async with qsg.start(_three_structures(), faults=True, in_process=True) as world:
        event = await inject(world, "cf_fail", fault)
        assert event.refused and "embedded servers the run starts" in event.detail


@keeps(
    "docs/coupling-facility.md",
    "`cf_fail` naming no facility kills that server alone, and the facilities' structures "
    "go on while the connection tags fail (2373) until `cf_restart`",
)
async def test_cf_fail_of_the_group_s_own_server_leaves_the_facilities_structures_going(
    virtual_clock: VirtualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With several facilities the group's own server holds no structure: what z/OS
    keeps in the administration structure (connection tags), XCF (leases) and Db2 (the
    repository). ``cf_fail`` naming no facility kills it, and the facilities' structures
    go on; connection tags fail (2373) until ``cf_restart``."""
    monkeypatch.delenv("QSG_REDIS_URL", raising=False)  # the run's own server
    async with qsg.start(_three_structures(), faults=True, cf_persistent=True) as world:
        await world.cf_fail()
        await _put_both(world, "APP.ONE")
        assert world.qmgrs["QM2"].rules.depth("APP.ONE") == 2
        with pytest.raises(MQMIError) as failed:
            world.routers["QSG1"].conn_tags(b"TAG")
        assert failed.value.reason == CMQC.MQRC_CF_STRUC_FAILED
        await world.cf_restart()
        assert world.routers["QSG1"].conn_tags(b"TAG").uses == ()
        assert world.qmgrs["QM2"].rules.depth("APP.ONE") == 2


async def test_a_facility_lost_while_the_group_s_server_is_down_is_refused_unchanged(
    virtual_clock: VirtualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A structure that loses its last facility waits in the group's own server; while
    that server is down (``cf_fail``) the loss cannot be taken, and is refused with why,
    the placement unchanged (chaos-facilities --on-redis seed 1636350347: the loss
    raised 2373 half done, and a later get met a queue no store knew, KeyError)."""
    monkeypatch.delenv("QSG_REDIS_URL", raising=False)  # the run's own server
    async with qsg.start(_world_topology(), faults=True) as world:
        await world.facility_fail("CF01")
        await world.cf_fail()
        placement = world.placements["QSG1"]
        before = (dict(placement.primary), set(placement.alive))
        with pytest.raises(ValueError, match="the group's own server is down"):
            await world.facility_fail("CF02")
        assert (placement.primary, placement.alive) == before
        await world.cf_restart()
        assert await world.facility_fail("CF02") == "APP1 failed; DUP1 failed"


@keeps(
    "docs/chaos.md",
    "On the server, a `cf_fail` in a QSG that names several facilities kills the group's own "
    "server or one facility's, drawn among them.",
)
def test_the_nemesis_fails_the_group_s_server_or_one_facility_s_where_there_are_several() -> None:
    """On the server the nemesis's ``cf_fail`` picks, in a QSG with several facilities,
    the group's own server or one facility's; elsewhere it draws as it did."""
    from qsg.chaos import nemesis
    from qsg.scenario import load_scenario

    root = Path(__file__).parent.parent / "scenarios"
    several = nemesis.targets(load_scenario(root / "chaos-facilities.toml"), server=True)
    named = {
        f.facility
        for seed in range(60)
        for f in nemesis.draw(several, seed, 25.0)[1]
        if f.action == "cf_fail"
    }
    assert named == {"", "CF01", "CF02"}
    one = nemesis.targets(load_scenario(root / "chaos-processes.toml"), server=True)
    assert {f.facility for s in range(20) for f in nemesis.draw(one, s, 25.0)[1]} == {""}


@pytest.mark.parametrize("mode", ["in_process", "on_server"])
async def test_a_facility_unavailable_to_every_member_is_so_for_each_facility_s_server(
    virtual_clock: VirtualClock, cf_url: str, mode: str
) -> None:
    """``cf_unavailable`` to every member: calls on shared queues fail with
    MQRC_CF_STRUC_FAILED (2373) and reach nothing, whichever facility holds the
    structure, on each facility's own server as in process; ``cf_available`` ends it."""
    cf_mode = {"in_process": True} if mode == "in_process" else {"redis_url": cf_url}
    async with qsg.start(_world_topology(), faults=True, **cf_mode) as world:  # type: ignore[arg-type]
        await _put_both(world, "APP.ONE")
        queue = await (await world.connect("QM2")).open("APP.ONE", CMQC.MQOO_INPUT_SHARED)
        await world.cf_unavailable()
        with pytest.raises(MQMIError) as failed:
            await queue.get(None, MD(), qsg.GMO(Options=CMQC.MQGMO_NO_SYNCPOINT))
        assert failed.value.reason == CMQC.MQRC_CF_STRUC_FAILED
        await world.cf_available()
        assert await queue.get(None, MD(), qsg.GMO(Options=CMQC.MQGMO_NO_SYNCPOINT))


@keeps(
    "docs/coupling-facility.md",
    "qsg keeps a structure's backup and the members' logs in the facility's own server, so "
    "without its file they go with it, and the `cf-recovery` event says the structure was "
    "not recovered.",
)
async def test_a_facility_s_server_restarted_without_its_file_brings_back_nothing(
    virtual_clock: VirtualClock, cf_url: str
) -> None:
    """Without ``cf_persistent`` the facility's server comes back empty: the backup
    went with it, and its structures come back empty, said so (not recovered)."""
    async with qsg.start(_three_structures(), faults=True, redis_url=cf_url) as world:
        await _put_both(world, "APP.ONE")
        backup = world.routers["QSG1"].backup_structure("APP1", trio.current_time(), 0.0)
        assert backup.backup_messages == 1  # BACKUP CFSTRUCT EXCLINT(0): the persistent one
        await world.cf_fail("CF01")
        await world.cf_restart("CF01")
        assert world.qmgrs["QM2"].rules.depth("APP.ONE") == 0
        recovered = [(e.structure, e.recovered) for e in world.events.of(CFRecovered)]
        assert ("APP1", False) in recovered


async def test_a_facility_back_leaves_the_structures_failed_in_another_crashed_one_there(
    virtual_clock: VirtualClock, cf_url: str
) -> None:
    """Both facilities fail (``cf_fail``), CF02 then CF01; CF02 back must not take CF01's
    failed structure (its messages are in CF01's server, back later): chaos-facilities
    --on-redis seed 355712518 moved it into CF02, and the run hung at its end."""
    async with qsg.start(
        _three_structures(), faults=True, redis_url=cf_url, cf_persistent=True
    ) as world:
        await _put_both(world, "APP.ONE")
        await world.cf_fail("CF02")
        await world.cf_fail("CF01")
        assert await world.cf_restart("CF02") == "CF02 holds APP2 again"
        assert world.placements["QSG1"].primary["APP1"] == "CF01"
        await world.cf_restart("CF01")
        assert world.qmgrs["QM2"].rules.depth("APP.ONE") == 1


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
