"""The coupling facility's server itself fails and restarts (the real process, SIGKILL).

IBM ("Managing shared queues", "DEFINE CFSTRUCT"): "On CF failure nonpersistent messages
are lost; persistent ones are recoverable with BACKUP/RECOVER CFSTRUCT", and "Only CF
structures with RECOVER(YES) ... can be backed up and recovered".
While the facility is down, calls on shared queues fail with MQRC_CF_STRUC_FAILED
(2373). The server's append-only file plays
the part of the backups and logs: without it nothing can be recovered. Units of work in
flight at the failure are backed out (MQCMIT answers MQRC_BACKED_OUT, 2003), and fencing
tokens keep increasing even when the facility forgot every lease.
"""

from __future__ import annotations

import pytest
import trio

import qsg
from actors.clock import VirtualClock
from actors.events import CFRecovered, FaultInjected, LeaseChanged
from actors.mqi import Handle
from actors.topology import Topology
from actors.world import World
from qsg import CMQC, GMO, MD, PMO, MQMIError
from qsg.scenario import ScenarioError, parse_scenario
from tests.claims import keeps

SYNC, NO_SYNC = PMO(Options=CMQC.MQPMO_SYNCPOINT), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
GET = GMO(Options=CMQC.MQGMO_NO_SYNCPOINT)

DEFINITIONS = """
    ALTER QMGR EXPRYINT(5)
    DEFINE CFSTRUCT(KEPT) CFLEVEL(5) RECOVER(YES)
    DEFINE CFSTRUCT(SCRATCH) CFLEVEL(5) RECOVER(NO)
    DEFINE QLOCAL(APP.KEPT) QSGDISP(SHARED) CFSTRUCT(KEPT)
    DEFINE QLOCAL(APP.SCRATCH) QSGDISP(SHARED) CFSTRUCT(SCRATCH)
"""


def two_structures() -> Topology:
    topology = Topology()
    topology.add_qsg("QSG1", members=["QM1", "QM2"])
    topology.mqsc("QM1", DEFINITIONS, source="qm1.mqsc")
    return topology


async def _fill(world: World) -> tuple[Handle, Handle]:
    conn = await world.connect("QM1")
    opts = CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED
    kept, scratch = await conn.open("APP.KEPT", opts), await conn.open("APP.SCRATCH", opts)
    await kept.put(b"persistent", MD(Persistence=CMQC.MQPER_PERSISTENT), NO_SYNC)
    # "you cannot put persistent messages to a shared queue if the CFSTRUCT that the
    # queue uses is defined with RECOVER(NO)" (MQRC_PERSISTENT_NOT_ALLOWED, 2048).
    with pytest.raises(MQMIError) as refused:
        await scratch.put(b"persistent", MD(Persistence=CMQC.MQPER_PERSISTENT), NO_SYNC)
    assert refused.value.reason == CMQC.MQRC_PERSISTENT_NOT_ALLOWED
    await kept.put(b"nonpersistent", MD(Persistence=CMQC.MQPER_NOT_PERSISTENT), NO_SYNC)
    for body in (b"nonpersistent", b"nonpersistent too"):
        await scratch.put(body, MD(Persistence=CMQC.MQPER_NOT_PERSISTENT), NO_SYNC)
    return kept, scratch


async def _drain(q: Handle) -> list[bytes]:
    """Every message on ``q`` (until MQRC_NO_MSG_AVAILABLE)."""
    bodies = []
    while (body := await _get(q)) is not None:
        bodies.append(body)
    return bodies


async def _get(q: Handle) -> bytes | None:
    try:
        return await q.get(None, MD(), GET)
    except MQMIError as error:
        if error.reason == CMQC.MQRC_NO_MSG_AVAILABLE:
            return None
        raise


@keeps(
    "docs/mq-rules.md",
    (
        "Losing the facility is MQRC_CF_STRUC_FAILED at the API; committed messages survive; a "
        "unit of work in flight is backed out. Only RECOVER(YES) structures keep persistent "
        "messages through a failure."
    ),
)
@keeps(
    "docs/scenarios.md",
    "nonpersistent messages lost, and persistent ones kept on structures with `recover = "
    "true` (RECOVER(YES)) when the server kept its state",
)
@keeps("docs/scenarios.md", "Meanwhile calls on shared queues fail with MQRC_CF_STRUC_FAILED.")
@keeps(
    "docs/events.md",
    "`cf-recovery` | `CFRecovered` | coupling facility back after `cf_fail`: a `structure` "
    "of `qsg` recovered",
)
async def test_a_recoverable_structure_keeps_its_persistent_messages_through_a_cf_failure(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(two_structures(), cf_persistent=True) as world:
        kept, scratch = await _fill(world)
        await world.cf_fail()
        with pytest.raises(MQMIError) as down:
            await kept.put(b"while down", MD(), NO_SYNC)
        assert down.value.reason == CMQC.MQRC_CF_STRUC_FAILED
        await trio.sleep(3)
        await world.cf_restart()
        assert await _drain(kept) == [b"persistent"]  # nonpersistent messages are lost
        assert await _drain(scratch) == []  # RECOVER(NO): nothing comes back
        recovered = {e.structure: e for e in world.events.of(CFRecovered)}
        assert (recovered["KEPT"].recovered, recovered["KEPT"].lost) == (True, 1)
        assert (recovered["SCRATCH"].recovered, recovered["SCRATCH"].lost) == (False, 2)
        await kept.put(b"after", MD(), NO_SYNC)  # the facility is in use again
        assert await _drain(kept) == [b"after"]


@keeps(
    "docs/scenarios.md",
    "otherwise the structure comes back empty. Queue and structure definitions are "
    "the group's and come back regardless",
)
async def test_without_its_state_the_restarted_cf_has_the_queues_but_no_messages(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(two_structures(), cf_persistent=False) as world:
        kept, _ = await _fill(world)
        await world.cf_fail()
        await world.cf_restart()
        assert await _drain(kept) == []
        (recovered,) = [e for e in world.events.of(CFRecovered) if e.structure == "KEPT"]
        assert not recovered.recovered
        await kept.put(b"after", MD(), NO_SYNC)  # definitions are the group's, not the CF's
        assert await _drain(kept) == [b"after"]


@keeps(
    "docs/scenarios.md",
    "units of work in flight at the failure are backed out (their MQCMIT answers "
    "MQRC_BACKED_OUT, 2003)",
)
@keeps(
    "docs/coupling-facility.md",
    "units of work in flight can no longer commit (MQRC_BACKED_OUT at MQCMIT), as after the "
    "`cf_fail` fault",
)
@keeps(
    "docs/mq-rules.md",
    (
        "Losing the facility is MQRC_CF_STRUC_FAILED at the API; committed messages survive; a "
        "unit of work in flight is backed out. Only RECOVER(YES) structures keep persistent "
        "messages through a failure."
    ),
)
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_BACKED_OUT | MQCMIT of a unit of work that the coupling facility lost (it failed "
        "while the unit of work was in flight): backed out in every store"
    ),
)
async def test_a_unit_of_work_in_flight_at_a_cf_failure_is_backed_out_and_cannot_commit(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(two_structures(), cf_persistent=True) as world:
        await _fill(world)
        worker = await world.connect("QM2")
        q = await worker.open("APP.KEPT", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
        md = MD()
        assert await q.get(None, md, GMO(Options=CMQC.MQGMO_SYNCPOINT)) == b"persistent"
        await q.put(b"uncommitted", MD(Persistence=CMQC.MQPER_PERSISTENT), SYNC)
        await world.cf_fail()
        await world.cf_restart()
        with pytest.raises(MQMIError) as refused:
            await worker.commit()
        assert refused.value.reason == CMQC.MQRC_BACKED_OUT
        back = MD()
        assert await q.get(None, back, GET) == b"persistent"  # the get was backed out
        assert back.BackoutCount == 1
        assert await _drain(q) == []  # and the put vanished
        await q.put(b"next unit", MD(), SYNC)
        await worker.commit()  # the connection goes on with a new unit of work
        assert await _drain(q) == [b"next unit"]


@keeps("docs/scenarios.md", "fencing tokens keep increasing")
@keeps("docs/events.md", "`lease` | `LeaseChanged` | member took a lease")
async def test_fencing_tokens_keep_increasing_after_the_cf_forgot_its_leases(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(two_structures(), cf_persistent=False) as world:
        await trio.sleep(1)
        before = max(e.token for e in world.events.of(LeaseChanged))
        await world.cf_fail()
        await trio.sleep(30)  # the holder cannot renew: its lease runs out meanwhile
        await world.cf_restart()
        await trio.sleep(30)
        after = [e.token for e in world.events.of(LeaseChanged)]
        assert after[-1] > before
        assert after == sorted(set(after))  # every grant a new, higher token


@keeps(
    "docs/scenarios.md",
    "the embedded CF server keeps an append-only file, so that after a `cf_fail` fault "
    "RECOVER(YES) structures get their persistent messages back",
)
@keeps("docs/scenarios.md", "A `cf-recovery` event per structure says what was kept.")
def test_a_cf_failure_in_a_scenario_is_undone_by_its_duration_and_reported() -> None:
    from qsg.scenario.play import run_scenario

    text = """
[run]
duration = 20
cf_persistent = true
[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = "DEFINE QLOCAL(APP.WORK) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)"
[qsg.QSG1.structures.APP1]
recover = true
[[workload]]
name = "orders"
type = "putter"
qmgr = "QM1"
queue = "APP.WORK"
rate = 5
[[fault]]
at = 5
action = "cf_fail"
duration = 2
"""
    result = run_scenario(parse_scenario(text, "cf.toml"))
    faults = [(e.action, e.time, e.detail) for e in result.events if isinstance(e, FaultInjected)]
    assert faults == [("cf_fail", 5, ""), ("cf_restart", 7, "")]
    # One per structure: APP1's, and CSQSYSAPPL's (every QSG's, docs/scenarios.md).
    events = [e for e in result.events if isinstance(e, CFRecovered)]
    assert sorted(e.structure for e in events) == ["APP1", "CSQSYSAPPL"]
    (recovered,) = [e for e in events if e.structure == "APP1"]
    assert recovered.recovered and recovered.lost == 0  # persistent messages: all kept


@keeps(
    "docs/scenarios.md",
    "Needs the server the run starts itself: not `in_process`, no `QSG_REDIS_URL`.",
)
def test_a_cf_failure_needs_the_cf_server_so_an_in_process_scenario_is_refused() -> None:
    text = """
[run]
duration = 10
in_process = true
[qsg.QSG1]
members = ["QM1"]
mqsc = "DEFINE QLOCAL(APP.WORK) QSGDISP(SHARED) CFSTRUCT(APP1)"
[qsg.QSG1.structures.APP1]
[[fault]]
at = 1
action = "cf_fail"
"""
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, "cf.toml")
    assert str(caught.value).startswith("cf.toml:11: fault[0].action: cf_fail")
    assert "in_process" in str(caught.value)


@keeps(
    "docs/scenarios.md",
    "Needs the server the run starts itself: not `in_process`, no `QSG_REDIS_URL`.",
)
async def test_failing_a_cf_the_run_did_not_start_is_refused_with_the_reason(
    virtual_clock: VirtualClock, cf_url: str
) -> None:
    async with qsg.start(two_structures(), redis_url=cf_url) as world:
        with pytest.raises(ValueError, match="embedded server"):
            await world.cf_fail()
