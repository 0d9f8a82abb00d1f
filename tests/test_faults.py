"""The faults a scenario schedules: the coupling facility unavailable and back, and the
fault injector reporting what the world refused instead of ending the run.

IBM ("2373 MQRC_CF_STRUC_FAILED"): losing the facility gives MQRC_CF_STRUC_FAILED at the API and
loses nothing committed; peer recovery of a failed member runs when a peer can reach the
structure again.
"""

from __future__ import annotations

import pytest
import trio

import qsg
from actors.clock import VirtualClock
from actors.costs import Costs
from actors.events import (
    ApplicationError,
    ChannelDelivered,
    ChannelStateChanged,
    ExpiryScanned,
    FaultInjected,
    LeaseChanged,
    MessageGot,
    PeerRecovered,
)
from actors.faults import inject
from qsg import CMQC, GMO, MD, PMO, MQMIError
from qsg.scenario import ScenarioError, parse_scenario
from qsg.scenario.model import Fault
from qsg.scenario.play import run_scenario
from tests.claims import keeps
from tests.worlds import qsg_and_qm3

SYNC, NO_SYNC = PMO(Options=CMQC.MQPMO_SYNCPOINT), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)


@keeps("docs/scenarios.md", "queues fail with MQRC_CF_STRUC_FAILED (2373) and reach nothing")
async def test_an_unavailable_cf_fails_shared_calls_with_2373_and_loses_nothing_committed(
    virtual_clock: VirtualClock, cf_url: str
) -> None:
    async with qsg.start(qsg_and_qm3(), redis_url=cf_url) as world:
        conn = await world.connect("QM1")
        q = await conn.open("APP.SHARED", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_AS_Q_DEF)
        for n in range(3):
            await q.put(b"kept %d" % n, MD(), SYNC)
        await conn.commit()
        await world.cf_unavailable()
        for call in (
            lambda: q.put(b"lost", MD(), NO_SYNC),
            lambda: q.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT)),
        ):
            with pytest.raises(MQMIError) as caught:
                await call()
            assert caught.value.reason == CMQC.MQRC_CF_STRUC_FAILED
        await trio.sleep(12)  # scans and lease renewals fail meanwhile; nothing crashes
        local = await (await world.connect("QM3")).open("APP.IN", CMQC.MQOO_OUTPUT)
        await local.put(b"local queues still work", MD(), NO_SYNC)
        await world.cf_available()
        bodies = [await q.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT)) for _ in range(3)]
        assert sorted(bodies) == [b"kept 0", b"kept 1", b"kept 2"]
        assert any(e.shared for e in world.events.of(ExpiryScanned))  # scans resumed


@keeps("docs/scenarios.md", "peer recovery that could not run runs when it is back")
async def test_a_member_killed_while_the_cf_is_unavailable_is_recovered_when_it_returns(
    virtual_clock: VirtualClock, cf_url: str
) -> None:
    async with qsg.start(qsg_and_qm3(), redis_url=cf_url) as world:
        conn = await world.connect("QM1")
        q = await conn.open("APP.SHARED", CMQC.MQOO_OUTPUT)
        await q.put(b"in flight", MD(), SYNC)  # uncommitted when QM1 fails
        await world.cf_unavailable()
        await world.kill("QM1")
        assert world.events.of(PeerRecovered) == []  # QM2 cannot reach the structure
        await trio.sleep(5)
        await world.cf_available()
        (recovered,) = world.events.of(PeerRecovered)
        assert (recovered.q_mgr, recovered.failed, recovered.units) == ("QM2", "QM1", 1)
        assert recovered.time == 5
        depth = await (
            await (await world.connect("QM2")).open("APP.SHARED", CMQC.MQOO_INQUIRE)
        ).inquire(CMQC.MQIA_CURRENT_Q_DEPTH)
        assert depth == 0  # the uncommitted put vanished


@keeps("docs/scenarios.md", "is reported in its `detail`, and the run goes on")
async def test_a_fault_the_world_refuses_is_reported_and_the_run_goes_on(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        await inject(world, "restart", Fault(0.0, "restart", qmgr="QM1"))  # it is running
        # Started without faults=True: no outage can be simulated in process.
        await inject(world, "cf_unavailable", Fault(0.0, "cf_unavailable"))
        first, second = world.events.of(FaultInjected)
        assert first.detail == "queue manager QM1 is already running"
        assert "needs a world started with faults=True" in second.detail
        await world.connect("QM1")  # the world is still up


OUTAGE = """\
[run]
duration = 40
seed = 8

[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = "DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)"

[qsg.QSG1.structures.APP1]
size_kb = 8192
recover = true

[qmgr.QM1]
expryint = 2

[[workload]]
type = "putter"
qmgr = "QM1"
queue = "APP.SHARED"
rate = 5
arrival = "constant"

[[workload]]
type = "getter"
qmgr = "QM2"
queue = "APP.SHARED"

[[fault]]
at = 10
action = "cf_unavailable"
duration = 10
"""


def test_a_scheduled_cf_outage_makes_applications_fail_and_resume(cf_url: str) -> None:
    scenario = parse_scenario(OUTAGE, "outage.toml")
    result = run_scenario(scenario, redis_url=cf_url)
    errors = [e for e in result.events if isinstance(e, ApplicationError)]
    assert errors and {e.reason for e in errors} == {CMQC.MQRC_CF_STRUC_FAILED}
    assert all(10 <= e.time <= 20 for e in errors)
    faults = [(f["time"], f["action"], f["detail"]) for f in result.summary.faults]
    assert faults == [(10.0, "cf_unavailable", ""), (20.0, "cf_available", "")]
    row = result.summary.queue("QSG1", "APP.SHARED")
    # Puts before and after the outage all arrive: 5 a second for 30 of the 40 seconds.
    assert 140 <= row["put"] <= 160 and row["got"] == row["put"]


@keeps("docs/scenarios.md", "Works with the shared queues on Redis and in process.")
def test_a_cf_outage_in_process_makes_applications_fail_and_resume_as_on_redis() -> None:
    # The same outage with the shared queues in process: the world is guarded instead.
    scenario = parse_scenario(OUTAGE.replace("seed = 8", "seed = 8\nin_process = true"), "o.toml")
    result = run_scenario(scenario)
    errors = [e for e in result.events if isinstance(e, ApplicationError)]
    assert errors and {e.reason for e in errors} == {CMQC.MQRC_CF_STRUC_FAILED}
    assert all(10 <= e.time <= 20 for e in errors)
    row = result.summary.queue("QSG1", "APP.SHARED")
    assert 140 <= row["put"] <= 160 and row["got"] == row["put"]


@keeps(
    "docs/scenarios.md",
    "the coupling facility is unreachable from one member (`qmgr`: its CF link "
    "failed) or from every member",
)
@keeps(
    "docs/coupling-facility.md",
    "one member's lost link is not a failure of the facility: its calls fail, the others' do not",
)
def test_one_members_cf_outage_fails_only_that_members_calls() -> None:
    # z/OS: one LPAR's CF link fails; the other members carry on with the structure.
    text = OUTAGE.replace("seed = 8", "seed = 8\nin_process = true").replace(
        'action = "cf_unavailable"', 'action = "cf_unavailable"\nqmgr = "QM1"'
    )
    text += '[[workload]]\ntype = "putter"\nqmgr = "QM2"\nqueue = "APP.SHARED"\nrate = 5\n'
    result = run_scenario(parse_scenario(text, "o.toml"))
    errors = [e for e in result.events if isinstance(e, ApplicationError)]
    assert errors and {(e.q_mgr, e.reason) for e in errors} == {("QM1", CMQC.MQRC_CF_STRUC_FAILED)}
    gets = [e for e in result.events if isinstance(e, MessageGot) and 12 < e.time < 19]
    assert gets  # QM2 still puts to and gets from the structure during QM1's outage
    row = result.summary.queue("QSG1", "APP.SHARED")
    assert row["got"] == row["put"]


def test_a_cf_outage_of_a_queue_manager_outside_any_qsg_is_refused_before_it_starts() -> None:
    text = OUTAGE.replace('action = "cf_unavailable"', 'action = "cf_unavailable"\nqmgr = "QM9"')
    with pytest.raises(ScenarioError, match=r"fault\[0\]\.qmgr: no queue manager QM9"):
        parse_scenario(text, "o.toml")


@keeps(
    "docs/scenarios.md",
    "the queue manager stops as under SIGSTOP: every call it would run waits (applications' too)",
)
async def test_an_application_call_on_a_paused_queue_manager_waits_until_it_resumes(
    virtual_clock: VirtualClock,
) -> None:
    # A connection made before the pause: its MQPUT neither fails nor runs while the
    # queue manager is stopped, and completes at the resume, as a SIGSTOPped process's
    # caller would see it.
    async with qsg.start(qsg_and_qm3(), in_process=True, faults=True) as world:
        conn = await world.connect("QM3")
        queue = await conn.open("APP.IN", CMQC.MQOO_OUTPUT)
        await world.pause("QM3")
        paused_at = trio.current_time()
        done: list[float] = []

        async def put() -> None:
            await queue.put(b"x", MD(), NO_SYNC)
            done.append(trio.current_time() - paused_at)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(put)
            await trio.sleep(5)
            assert done == []  # still waiting, five simulated seconds on
            await world.resume("QM3")
        assert done == [5]


@keeps(
    "docs/scenarios.md",
    "a scan under a lease that ran out meanwhile is refused by its fencing token",
)
@keeps("docs/scenarios.md", "its scanner stops renewing its lease")
async def test_a_paused_lease_holder_loses_the_scan_to_a_peer_and_wakes_fenced(
    virtual_clock: VirtualClock,
) -> None:
    # docs/mq-rules.md: exactly one queue manager scans shared queues; a member that paused
    # past its lease wakes to find it taken, and scans nothing under the old token.
    async with qsg.start(qsg_and_qm3(), in_process=True, faults=True) as world:
        await trio.sleep(1)
        await world.pause("QM1")  # the holder (EXPRYINT 5: a 10 s lease)
        conn = await world.connect("QM2")  # QM2 still serves its applications
        await (await conn.open("APP.SHARED", CMQC.MQOO_OUTPUT)).put(b"x", MD(Expiry=10), PMO())
        await conn.commit()
        await trio.sleep(30)
        await world.resume("QM1")
        await trio.sleep(20)
        holders = [(e.q_mgr, e.token) for e in world.events.of(LeaseChanged)]
        assert holders == [("QM1", 1), ("QM2", 2)]
        scans = [(e.q_mgr, e.token) for e in world.events.of(ExpiryScanned) if e.shared]
        assert ("QM2", 2) in scans and all(token == 1 for q, token in scans if q == "QM1")
        assert (
            max(e.time for e in world.events.of(ExpiryScanned) if e.shared and e.q_mgr == "QM1")
            < 10
        )


@keeps(
    "docs/scenarios.md",
    "the sender goes RETRYING, reconnects after SHORTTMR and resynchronises",
)
async def test_a_broken_channel_link_retries_and_loses_nothing(
    virtual_clock: VirtualClock,
) -> None:
    # A break mid-batch: the batch in doubt is resolved when the channel comes back.
    costs = Costs(channel_latency=0.5)
    async with qsg.start(qsg_and_qm3(costs), in_process=True) as world:
        conn = await world.connect("QM1")
        remote = await conn.open("TO.QM3", CMQC.MQOO_OUTPUT)
        for _ in range(20):
            await remote.put(b"m", MD(Persistence=CMQC.MQPER_PERSISTENT), PMO())
        await conn.commit()
        await trio.sleep(0.7)  # a batch is on its way
        await world.break_channel("QM1", "QM1.TO.QM3")
        await trio.sleep(200)  # SHORTTMR is 60 s
        states = [e.state for e in world.events.of(ChannelStateChanged) if e.q_mgr == "QM1"]
        assert "RETRYING" in states and states[-1] == "RUNNING"
        got = await (await (await world.connect("QM3")).open("APP.IN", CMQC.MQOO_INQUIRE)).inquire(
            CMQC.MQIA_CURRENT_Q_DEPTH
        )
        assert got == 20
        delivered = [e.msg_id for e in world.events.of(ChannelDelivered)]
        assert len(delivered) == len(set(delivered)) == 20
