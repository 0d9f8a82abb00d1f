"""More than one coupling facility: rebuild into the next, and duplexed structures (issue 48).

z/OS ("Coupling Facility failure"; "Handling failure of a coupling facility"; MQ's
planning page: "a duplexed structure survives a CF problem without interruption"):
a facility's loss moves a structure by rebuild into the next facility of its CFRM
preference list, its nonpersistent messages lost and its persistent ones recovered from
the log; a structure duplexed into two facilities carries on in the survivor with
nothing lost; with no facility left it has failed. A member that tolerates a loss of
connectivity (CFCONLOS TOLERATE) reconnects the same way. The rules are
``qsg.core.facilities``'s; every world test runs on both stores.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

import qsg
from actors.clock import VirtualClock
from actors.costs import Costs
from actors.topology import Topology
from actors.world import World
from qsg import CMQC, GMO, MD, PMO, MQMIError
from qsg.chaos.nemesis import draw, targets
from qsg.core.facilities import FAILED, KEPT, REBUILT, Move, Placement, check_preference
from qsg.core.objects import CFStructure
from qsg.scenario import load_scenario
from tests.claims import keeps

NO_SYNC = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
GET_NO_SYNC = GMO(Options=CMQC.MQGMO_NO_SYNCPOINT)
PERSISTENT = CMQC.MQPER_PERSISTENT
NONPERSISTENT = CMQC.MQPER_NOT_PERSISTENT


def _placement() -> Placement:
    placement = Placement(("CF01", "CF02"))
    placement.allocate(CFStructure("APP1", recover=True))
    placement.allocate(CFStructure("DUP1", recover=True, duplex=True))
    placement.allocate(CFStructure("LATE", preference=("CF02", "CF01")))
    return placement


def test_structures_go_to_their_first_preferred_facility_and_duplex_into_the_next() -> None:
    """z/OS allocates a structure "in the first coupling facility of its preference
    list", and a duplexed one's second instance in another."""
    placement = _placement()
    assert placement.facility_of("APP1") == "CF01"
    assert placement.facility_of("LATE") == "CF02"
    assert placement.duplexed("DUP1") and placement.secondary["DUP1"] == "CF02"
    assert not placement.duplexed("APP1")
    assert placement.structures_in("CF02") == ["DUP1", "LATE"]


@keeps(
    "docs/coupling-facility.md",
    "a duplexed structure drops duplexing and carries on in its other instance, with nothing lost;",
)
@keeps("docs/coupling-facility.md", "or else once the facility is back;")
@keeps(
    "docs/coupling-facility.md",
    "A structure is allocated in the first facility of its list that is there, and a "
    "duplexed one has a second instance in the next.",
)
def test_losing_a_facility_rebuilds_into_the_next_keeps_a_duplex_and_fails_with_none_left() -> None:
    """A facility's loss: rebuild into the next facility of the preference list; a
    duplexed structure drops duplexing and carries on; with no facility, failed; the
    facility's return reallocates the failed ones and duplexes again."""
    placement = _placement()
    assert placement.lose("CF01") == [Move("APP1", REBUILT, "CF02"), Move("DUP1", KEPT, "CF02")]
    assert not placement.duplexed("DUP1")
    assert placement.lose("CF02") == [
        Move("APP1", FAILED),
        Move("DUP1", FAILED),
        Move("LATE", FAILED),
    ]
    assert placement.restore("CF01") == ["APP1", "DUP1", "LATE"]
    assert placement.restore("CF02") == ["DUP1"]
    assert placement.duplexed("DUP1")


def test_a_tolerating_member_reconnects_by_rebuild_or_into_the_duplex_it_still_reaches() -> None:
    """CFCONLOS TOLERATE "reconnects, which reallocates the structure in another CF if
    one is available": the structures of the facility one member lost, as it sees them."""
    placement = _placement()
    moves = placement.reconnect(["APP1", "DUP1"], {"CF01"})
    assert moves == [Move("APP1", REBUILT, "CF02"), Move("DUP1", KEPT, "CF02")]
    assert placement.reconnect(["APP1"], {"CF01", "CF02"}) == [Move("APP1", FAILED)]
    assert placement.facility_of("APP1") == "CF02"  # failed for this member alone


@pytest.mark.parametrize(
    ("structure", "facilities", "words"),
    [
        (CFStructure("A", preference=("CF03",)), ("CF01", "CF02"), "names CF03, not a facility"),
        (CFStructure("A", preference=("CF01", "CF01")), ("CF01", "CF02"), "repeats a facility"),
        (CFStructure("A", duplex=True), ("CF01",), "duplex needs two coupling facilities"),
    ],
)
def test_a_preference_list_must_name_the_groups_facilities_and_a_duplex_needs_two(
    structure: CFStructure, facilities: tuple[str, ...], words: str
) -> None:
    with pytest.raises(ValueError, match=words):
        check_preference(structure, facilities)


def _topology(conlos: str = "TOLERATE") -> Topology:
    topology = Topology()
    topology.add_qsg("QSG1", members=["QM1", "QM2"])
    topology.facilities["QSG1"] = ("CF01", "CF02")
    topology.structures["QSG1"] = [
        CFStructure("APP1", recover=True, cf_conlos=CMQC.MQCFCONLOS_TOLERATE),
        CFStructure("DUP1", recover=True, duplex=True, cf_conlos=CMQC.MQCFCONLOS_TOLERATE),
    ]
    topology.mqsc(
        "QM1",
        f"""
        ALTER QMGR CFCONLOS({conlos})
        DEFINE QLOCAL(APP.ONE) QSGDISP(SHARED) CFSTRUCT(APP1)
        DEFINE QLOCAL(DUP.ONE) QSGDISP(SHARED) CFSTRUCT(DUP1)
        """,
        source="qm1.mqsc",
    )
    return topology


async def _fill(world: World, queue: str) -> None:
    out = await (await world.connect("QM1")).open(queue, CMQC.MQOO_OUTPUT)
    await out.put(b"persistent", MD(Persistence=PERSISTENT), NO_SYNC)
    await out.put(b"nonpersistent", MD(Persistence=NONPERSISTENT), NO_SYNC)


async def _drain(world: World, q_mgr: str, queue: str) -> list[bytes]:
    handle = await (await world.connect(q_mgr)).open(queue, CMQC.MQOO_INPUT_SHARED)
    got = []
    while True:
        try:
            got.append(await handle.get(None, MD(), GET_NO_SYNC))
        except MQMIError as error:
            if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
                raise
            return got


@keeps(
    "docs/coupling-facility.md",
    "any other structure in it is rebuilt into the next facility of its preference list: "
    "its persistent messages come back from the log, its nonpersistent ones are lost,",
)
@keeps(
    "docs/coupling-facility.md",
    "a structure with no facility left has failed (2373) until its facility is back, "
    "which recovers it as RECOVER CFSTRUCT would.",
)
async def test_a_facilitys_loss_rebuilds_its_structure_into_the_next_and_a_duplex_loses_nothing(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    """Losing CF01: APP1 is rebuilt into CF02 (its nonpersistent message lost, the
    persistent one recovered) and works at once; DUP1, duplexed into CF02, carries on
    with both messages; then losing CF02 too fails both (2373) until CF01 is back."""
    async with qsg.start(_topology(), faults=True, **cf_mode) as world:  # type: ignore[arg-type]
        await _fill(world, "APP.ONE")
        await _fill(world, "DUP.ONE")
        said = await world.facility_fail("CF01")
        assert said == "APP1 rebuilt in CF02; DUP1 kept in CF02"
        assert await _drain(world, "QM2", "APP.ONE") == [b"persistent"]
        assert await _drain(world, "QM2", "DUP.ONE") == [b"persistent", b"nonpersistent"]
        await _fill(world, "APP.ONE")
        await world.facility_fail("CF02")
        with pytest.raises(MQMIError) as caught:
            await _drain(world, "QM2", "APP.ONE")
        assert caught.value.reason == CMQC.MQRC_CF_STRUC_FAILED
        assert await world.facility_restore("CF01") == "CF01 holds APP1, DUP1 again"
        assert await _drain(world, "QM2", "APP.ONE") == [b"persistent"]


@keeps(
    "docs/coupling-facility.md",
    "whichever instance it lost (the one the members used or its second), it is duplexed "
    "again at once in a third facility of its list that is there",
)
async def test_a_duplex_that_loses_the_facility_the_members_use_is_duplexed_again_in_a_third(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    """DUPLEX(ENABLED) with three facilities: losing CF01, where the instance the members
    use is, leaves DUP1 in CF02 with nothing lost and duplexes it again into CF03 (a
    copy); losing CF02 next still loses nothing: DUP1 carries on in CF03."""
    topology = _topology()
    topology.facilities["QSG1"] = ("CF01", "CF02", "CF03")
    async with qsg.start(topology, faults=True, **cf_mode) as world:  # type: ignore[arg-type]
        await _fill(world, "DUP.ONE")
        assert "DUP1 kept in CF02" in await world.facility_fail("CF01")
        await _fill(world, "DUP.ONE")  # written to both of its instances now
        assert "DUP1 kept in CF03" in await world.facility_fail("CF02")
        assert await _drain(world, "QM2", "DUP.ONE") == [b"persistent", b"nonpersistent"] * 2


@keeps(
    "docs/coupling-facility.md",
    "A member that tolerates losing one facility reconnects the same way: into the other "
    "instance of a duplexed structure, or by a rebuild into a facility it still reaches;",
)
async def test_a_tolerating_member_that_loses_a_facility_rebuilds_into_the_other_and_goes_on(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    """CFCONLOS TOLERATE with a second facility: QM1 loses CF01; APP1 is rebuilt into
    CF02 (nonpersistent lost) and QM1's calls on it work, no 2345; the duplexed DUP1
    carries on in CF02 with nothing lost."""
    async with qsg.start(_topology(), faults=True, **cf_mode) as world:  # type: ignore[arg-type]
        await _fill(world, "APP.ONE")
        await _fill(world, "DUP.ONE")
        said = await world.cf_connectivity_loss("QM1", facility="CF01")
        assert said.endswith("APP1 rebuilt in CF02; DUP1 kept in CF02"), said
        assert await _drain(world, "QM1", "APP.ONE") == [b"persistent"]
        assert await _drain(world, "QM1", "DUP.ONE") == [b"persistent", b"nonpersistent"]


async def test_a_terminating_member_of_a_group_with_two_facilities_still_ends(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    """QMGR CFCONLOS(TERMINATE) governs the administration structure, in the group's
    first facility: losing CF01 ends the member, and its messages stay where they are."""
    async with qsg.start(_topology("TERMINATE"), faults=True, **cf_mode) as world:  # type: ignore[arg-type]
        await _fill(world, "APP.ONE")
        assert "TERMINATE" in await world.cf_connectivity_loss("QM1", facility="CF01")
        assert not world.qmgrs["QM1"].alive
        assert await _drain(world, "QM2", "APP.ONE") == [b"persistent", b"nonpersistent"]


@keeps(
    "docs/coupling-facility.md",
    "Duplexing has a model cost: a call on a queue of a duplexed structure is two CF "
    "accesses, charged `cf_access` each and counted twice",
)
async def test_duplexing_costs_a_second_cf_access_per_call_until_the_duplex_drops(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    """The cost of duplexing (a model cost: every write goes to both instances): a call
    on a duplexed structure's queue is two CF accesses, charged ``cf_access`` each and
    counted twice in the queue manager's statistics (the capacity figures'
    ``cf_accesses_per_second``); once a facility's loss drops the duplex, one again."""
    topology = _topology()
    topology.costs = Costs(cf_access=0.01)
    async with qsg.start(topology, faults=True, **cf_mode) as world:  # type: ignore[arg-type]
        conn = await world.connect("QM1")
        stats = world.qmgrs["QM1"].statistics

        async def cost_of_puts(queue: str) -> tuple[float, int]:
            out = await conn.open(queue, CMQC.MQOO_OUTPUT)
            began, accesses = trio.current_time(), stats.cf_accesses
            for _ in range(10):
                await out.put(b"x", MD(), NO_SYNC)
            return trio.current_time() - began, stats.cf_accesses - accesses

        simplex, duplex = await cost_of_puts("APP.ONE"), await cost_of_puts("DUP.ONE")
        assert simplex == (pytest.approx(0.1), 10)
        assert duplex == (pytest.approx(0.2), 20)
        await world.facility_fail("CF02")
        assert await cost_of_puts("DUP.ONE") == (pytest.approx(0.1), 10)


def test_the_nemesis_draws_facility_fail_only_with_two_facilities_and_cf_conlos_for_members() -> (
    None
):
    """docs/chaos.md: a QSG member can draw ``cf_conlos`` and a QSG that names two
    facilities ``facility_fail``; the lean scenario (one facility) offers no
    ``facility_fail``."""
    scenarios = Path(__file__).resolve().parent.parent / "scenarios"
    lean = targets(load_scenario(scenarios / "chaos-lean.toml"))
    two = targets(load_scenario(scenarios / "chaos-facilities.toml"))
    assert "facility_fail" not in lean.later_kinds() and "cf_conlos" in lean.later_kinds()
    assert {"facility_fail", "cf_conlos"} <= set(two.later_kinds())
    assert set(two.facilities) == {("QM1", "CF01"), ("QM1", "CF02")}
    drawn = [draw(two, seed, 30.0)[1] for seed in range(20)]
    actions = {f.action for faults in drawn for f in faults}
    assert {"facility_fail", "cf_connectivity_loss"} <= actions
    for faults in drawn:
        for fault in faults:
            if fault.action == "facility_fail":
                assert fault.facility in ("CF01", "CF02") and fault.duration is not None
