"""Chaos testing (issue 8): the nemesis, the history, the checkers, the campaign.

The checkers are proven able to fail: each known bug behind the test-only switch
(``qsg.core.bugs``) makes the checker meant for it report a violation, and the same run
without the bug reports none. docs/chaos.md, "The checkers": no committed
message lost or duplicated, no expired message delivered, exactly one queue manager
scanning shared queues for expiry at any time.
"""

from __future__ import annotations

import dataclasses
from functools import partial
from pathlib import Path

import pytest
import trio

import actors.runtime
import qsg
from actors.clock import VirtualClock
from actors.events import (
    CFRecovered,
    ChannelStateChanged,
    FaultInjected,
    LeaseChanged,
    MessagePut,
    OpCompleted,
    OpInvoked,
    PeerRecovered,
    QMgrKilled,
    QMgrRestarted,
    WorldEvent,
)
from actors.topology import Topology
from qsg import CMQC
from qsg.chaos import checkers, history
from qsg.chaos.campaign import Outcome, Plan, chaos_scenario, expectations, run_one, run_seeds
from qsg.chaos.nemesis import LATER, LATER_ACTIONS, Targets, draw, targets
from qsg.core import bugs
from qsg.core.events import Discarded, ReportPut
from qsg.scenario import load_scenario
from qsg.scenario.model import Fault, Scenario
from qsg.scenario.play import play
from qsg.scenario.summary import Scopes
from tests.claims import keeps

SCENARIO = Path(__file__).parent.parent / "scenarios" / "chaos-qsg.toml"
#: A run seed whose faults include kills and CF outages (and so unknown outcomes).
SEED = 695425565


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario(SCENARIO)


def verdict(outcome_verdicts: list[checkers.Verdict], name: str) -> checkers.Verdict:
    (found,) = [v for v in outcome_verdicts if v.name == name]
    return found


# ---- the checkers catch the bugs they exist for -------------------------------------------
@keeps("README.md", "nothing committed lost or duplicated")
@pytest.mark.slow
@keeps(
    "docs/chaos.md",
    "an acknowledged (committed) persistent message never delivered nor expired, and not on a "
    "queue at the end (lost)",
)
def test_a_message_dropped_at_commit_is_caught_as_lost(scenario: Scenario) -> None:
    clean = run_one(scenario, SEED)
    assert verdict(clean.verdicts, "queue").ok
    with bugs.injected(bugs.DROP_ON_COMMIT):
        broken = run_one(scenario, SEED)
    queue = verdict(broken.verdicts, "queue")
    assert not queue.ok and queue.counts["lost"] > 0
    assert len(queue.involved) >= queue.counts["lost"]  # the MsgIds are named
    assert queue.info["lost_fraction"] > 0


@keeps("README.md", "no expired message delivered")
@pytest.mark.slow
@keeps("docs/chaos.md", "a message delivered after its expiry ran out")
def test_an_expired_message_delivered_is_caught(scenario: Scenario) -> None:
    # "Expiry (MQLONG)": an expired message is never returned by MQGET.
    clean = run_one(scenario, SEED)
    assert verdict(clean.verdicts, "expiry").ok
    with bugs.injected(bugs.DELIVER_EXPIRED):
        broken = run_one(scenario, SEED)
    expiry = verdict(broken.verdicts, "expiry")
    assert not expiry.ok and expiry.counts["expired_delivered"] > 0
    assert expiry.involved


def _skewed_holder() -> Topology:
    """QM1 (EXPRYINT 100: a 200 s lease) starts first and takes the expiry-scan lease;
    QM2 (EXPRYINT 5) tries for it every 5 s."""
    topology = Topology()
    topology.add_qsg("QSG1", members=["QM1", "QM2"])
    topology.mqsc(
        "QM1",
        """
        ALTER QMGR EXPRYINT(100)
        DEFINE CFSTRUCT(APP1)
        DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1)
    """,
    )
    topology.mqsc("QM2", "ALTER QMGR EXPRYINT(5)")
    return topology


async def _stale_refresh() -> list[qsg.events.WorldEvent]:
    """QM1's lease clock runs 1000 s behind: at its renewal (t=100) it grants itself a
    lease that has, by everyone else's clock, long run out; QM2 takes it over (t=105)
    with a new token, while QM1 still believes its grant good until its next renewal at
    t=200. A REFRESH QMGR TYPE(EXPIRY) on QM1 at t=150 then scans under a stale token."""
    async with qsg.start(_skewed_holder(), in_process=True, faults=True) as world:
        world.skew("QM1", -1000.0)
        await trio.sleep(150)
        await world.refresh_expiry("QM1")
        return list(world.events.history)


SCOPES = Scopes({"QM1": "QSG1", "QM2": "QSG1"}, {"QSG1": ["APP.SHARED"]})


@keeps("README.md", "one expiry scanner at a time")
@keeps(
    "docs/chaos.md",
    "two queue managers scanning shared queues under one lease token, or a scan under a stale "
    "token",
)
def test_a_stale_fencing_token_is_refused_and_a_skipped_check_is_caught(
    virtual_clock: VirtualClock,
) -> None:
    # docs/architecture.md: a scan carries its token and the facility refuses a stale one.
    events = trio.run(_stale_refresh, clock=virtual_clock)
    holders = [(e.q_mgr, e.token) for e in events if isinstance(e, LeaseChanged)]
    assert holders[:2] == [("QM1", 1), ("QM2", 2)]
    assert checkers.check_scans(history.read(events, SCOPES)).ok

    with bugs.injected(bugs.SKIP_FENCING):
        events = trio.run(_stale_refresh, clock=VirtualClock())
    scans = checkers.check_scans(history.read(events, SCOPES))
    assert not scans.ok and scans.counts["stale_token"] == 1
    assert scans.involved == ["QM1@150 token 1"]


def test_a_switch_names_only_known_bugs() -> None:
    with (
        pytest.raises(ValueError, match="no known bug 'lose-everything'"),
        bugs.injected("lose-everything"),
    ):
        pass
    assert not bugs.ACTIVE


# ---- the history ------------------------------------------------------------------------
def _op(
    t: float, app: str, op: str, outcome: str = "ok", msg_id: bytes = b"", reason: int = 0
) -> OpCompleted:
    return OpCompleted(t, "QM1", app, op, "Q", outcome, reason, msg_id)


@keeps("docs/chaos.md", "An unknown-outcome put that came out is counted as recovered")
@keeps(
    "docs/chaos.md",
    "a message delivered, or on a queue at the end, that was never put or whose unit of work was "
    "backed out (unexpected)",
)
def test_history_judges_units_of_work_and_unknown_outcomes() -> None:
    a, b, c = b"A" * 24, b"B" * 24, b"C" * 24
    events = [
        # A: put in a unit of work whose MQCMIT was cut off: unknown; it came out.
        OpInvoked(1, "QM1", "p", "put", "Q", a, True, -1, 0, True),
        _op(1, "p", "put"),
        OpInvoked(2, "QM1", "p", "commit", "Q"),
        _op(2, "p", "commit", "unknown", reason=2009),
        # B: put in a unit of work the application abandoned after a lost connection.
        OpInvoked(3, "QM1", "p", "put", "Q", b, True, -1, 0, True),
        _op(3, "p", "put"),
        OpInvoked(4, "QM1", "p", "put", "Q", c, True, -1, 0, True),
        _op(4, "p", "put", "unknown", reason=CMQC.MQRC_CONNECTION_BROKEN),
        OpInvoked(5, "QM1", "drain", "get", "Q"),
        _op(5, "drain", "get", msg_id=a),
    ]
    h = history.read(events)
    assert (h.messages[a].fate, h.messages[b].fate, h.messages[c].fate) == (
        "unknown",
        "failed",
        "failed",
    )
    queue = checkers.check_queue(h)
    assert queue.ok and queue.counts["recovered"] == 1 and queue.counts["acknowledged"] == 0
    # B coming out after all would be a message that never was: unexpected.
    events += [OpInvoked(6, "QM1", "drain", "get", "Q"), _op(6, "drain", "get", msg_id=b)]
    queue = checkers.check_queue(history.read(events))
    assert not queue.ok and queue.counts["unexpected"] == 1


@keeps("README.md", "nothing committed lost or duplicated")
@keeps("docs/chaos.md", "delivered twice outside a backout (duplicated)")
def test_a_message_delivered_twice_outside_a_backout_is_duplicated() -> None:
    a = b"A" * 24
    events = [
        OpInvoked(1, "QM1", "p", "put", "Q", a, True, -1, 0, False),
        _op(1, "p", "put"),
        MessagePut(1, "QM1", "Q", a, 10, True, False, -1),
        # A get in a unit of work backed out, then got again: one delivery.
        OpInvoked(2, "QM1", "g", "get", "Q", syncpoint=True),
        _op(2, "g", "get", msg_id=a),
        OpInvoked(3, "QM1", "g", "backout", "Q"),
        _op(3, "g", "backout"),
        OpInvoked(4, "QM1", "g", "get", "Q"),
        _op(4, "g", "get", msg_id=a),
    ]
    assert checkers.check_queue(history.read(events)).ok
    events += [OpInvoked(5, "QM1", "h", "get", "Q"), _op(5, "h", "get", msg_id=a)]
    queue = checkers.check_queue(history.read(events))
    assert not queue.ok and queue.counts["duplicated"] == 1


@keeps("docs/chaos.md", "a remaining Expiry greater than what was put less the time since")
def test_remaining_expiry_that_grew_is_caught() -> None:
    # "Expiry (MQLONG)": the remaining lifetime only decreases.
    a = b"A" * 24
    put = [OpInvoked(0, "QM1", "p", "put", "Q", a, True, 100, 0, False), _op(0, "p", "put")]
    got = OpCompleted(5, "QM1", "g", "get", "Q", "ok", 0, a, 50)
    assert checkers.check_expiry(history.read([*put, got])).ok
    grew = dataclasses.replace(got, expiry=80)  # 10 s put, 5 s on: 8 s left cannot be
    expiry = checkers.check_expiry(history.read([*put, grew]))
    assert not expiry.ok and expiry.counts["expiry_grew"] == 1


@keeps("README.md", "groups read in order")
@keeps("docs/chaos.md", "a reader got a group's messages out of order")
def test_group_order_broken_for_a_reader_is_caught() -> None:
    group = b"G" * 24
    events: list[qsg.events.WorldEvent] = []
    for seq, msg_id in ((1, b"1" * 24), (3, b"3" * 24), (2, b"2" * 24)):
        events += [
            OpInvoked(seq, "QM1", "p", "put", "Q", msg_id, True, -1, 0, False),
            _op(seq, "p", "put"),
        ]
    for t, seq in ((10, 1), (11, 3), (12, 2)):
        events.append(
            OpCompleted(t, "QM1", "r", "get", "Q", "ok", 0, b"%d" % seq * 24, -1, group, seq)
        )
    groups = checkers.check_groups(history.read(events))
    assert not groups.ok and groups.counts["out_of_order"] == 2  # 3 skips 2; 2 after 3


@keeps(
    "docs/chaos.md",
    "a failed QSG member whose units of work no peer (nor its restart) recovered",
)
def test_a_failed_member_no_peer_nor_its_restart_recovered_is_a_recovery_violation() -> None:
    scopes = Scopes(members={"QM1": "QSG1", "QM2": "QSG1"}, shared={"QSG1": ["Q"]})
    killed: list[qsg.events.WorldEvent] = [QMgrKilled(5.0, "QM1")]
    unrecovered = checkers.check_recovery(history.read(killed, scopes))
    assert not unrecovered.ok and unrecovered.counts["unrecovered_members"] == 1
    assert unrecovered.involved == ["QM1"]
    for recovered in (PeerRecovered(5.0, "QM2", "QM1", 0), QMgrRestarted(9.0, "QM1", 2)):
        verdict = checkers.check_recovery(history.read([*killed, recovered], scopes))
        assert verdict.ok and verdict.counts["unrecovered_members"] == 0, recovered


@keeps(
    "docs/chaos.md",
    "after is the history's order, since a backed-out get and the get that takes the message "
    "again can share one instant of the virtual clock",
)
def test_a_message_backed_out_and_got_again_at_the_same_instant_came_back() -> None:
    """ "every message a failed or abandoned unit of work held came out again (was
    delivered after ...)": after is the history's order, not a later clock reading. On
    the virtual clock a get whose unit of work MQCMIT backs out (MQRC_BACKED_OUT, 2003,
    a CF structure having failed under it) and the get that takes the message again
    can share one instant; the message came back all the same."""
    scopes = Scopes(members={"QM1": "QSG1", "QM2": "QSG1"}, shared={"QSG1": ["Q"]})
    a = b"A" * 24
    events: list[qsg.events.WorldEvent] = [
        OpInvoked(1, "QM1", "p", "put", "Q", a, True, -1, 0, False),
        _op(1, "p", "put", msg_id=a),
        MessagePut(1, "QM1", "Q", a, 10, True, False, -1),
        OpInvoked(5, "QM1", "g", "get", "Q", syncpoint=True),
        _op(5, "g", "get", msg_id=a),
        OpInvoked(5, "QM1", "g", "commit", "Q"),
        _op(5, "g", "commit", "fail", reason=CMQC.MQRC_BACKED_OUT),
        OpInvoked(5, "QM1", "g", "get", "Q", syncpoint=True),
        _op(5, "g", "get", msg_id=a),
        OpInvoked(5, "QM1", "g", "commit", "Q"),
        _op(5, "g", "commit"),
    ]
    recovery = checkers.check_recovery(history.read(events, scopes))
    assert recovery.ok and recovery.counts["held_by_backed_out"] == 1, recovery
    # Without the second get it never came back: that is still caught.
    recovery = checkers.check_recovery(history.read(events[:7], scopes))
    assert not recovery.ok and recovery.counts["never_came_back"] == 1


@keeps(
    "docs/chaos.md",
    "an expired message that asked for MQRO_EXPIRATION without exactly one report",
)
def test_an_expired_message_that_asked_for_a_report_needs_exactly_one() -> None:
    a = b"A" * 24
    put: list[qsg.events.WorldEvent] = [
        OpInvoked(0, "QM1", "p", "put", "Q", a, False, 10, CMQC.MQRO_EXPIRATION, False),
        _op(0, "p", "put", msg_id=a),
        Discarded(2.0, "QM1", "Q", a, "scan"),
    ]
    report = ReportPut(2.0, "QM1", "REPLY.Q", b"R" * 24, a, CMQC.MQFB_EXPIRATION)
    missing = checkers.check_reports(history.read(put))
    assert not missing.ok and missing.counts["missing"] == 1
    assert checkers.check_reports(history.read([*put, report])).ok
    twice = checkers.check_reports(history.read([*put, report, report]))
    assert not twice.ok and twice.counts["duplicated"] == 1


@keeps("README.md", "exactly one report for each expired message that asked for one")
def test_an_expiration_report_missing_or_made_twice_is_caught() -> None:
    # MQRO_EXPIRATION: the queue manager that discards the expired message makes one
    # report (MQFB_EXPIRATION) for it; a message that did not ask gets none to count.
    asked, plain = b"A" * 24, b"B" * 24
    events: list[qsg.events.WorldEvent] = [
        OpInvoked(0, "QM1", "p", "put", "Q", asked, False, 10, CMQC.MQRO_EXPIRATION, False),
        _op(0, "p", "put"),
        OpInvoked(0, "QM1", "p", "put", "Q", plain, False, 10, 0, False),
        _op(0, "p", "put"),
        Discarded(2, "QM1", "Q", asked, "scan"),
        Discarded(2, "QM1", "Q", plain, "scan"),
    ]
    report = ReportPut(2, "QM1", "REPLY", b"R" * 24, asked, CMQC.MQFB_EXPIRATION)
    once = checkers.check_reports(history.read([*events, report]))
    assert once.ok and once.counts["asked"] == once.counts["reports"] == 1
    missing = checkers.check_reports(history.read(events))
    assert not missing.ok and missing.counts["missing"] == 1
    again = dataclasses.replace(report, msg_id=b"S" * 24)
    twice = checkers.check_reports(history.read([*events, report, again]))
    assert not twice.ok and twice.counts["duplicated"] == 1


# ---- the nemesis ---------------------------------------------------------------------------
@keeps(
    "docs/chaos.md",
    "Each run draws its own **fault kinds** from its seed (swarm testing: every kind is on or "
    "off per run)",
)
@keeps("docs/chaos.md", "Faults land in the first part of the run (the window)")
@keeps("README.md", "in each seeded run a nemesis injects faults drawn from the seed")
def test_each_run_seed_draws_its_own_fault_kinds_within_the_window(scenario: Scenario) -> None:
    t = targets(scenario)
    drawn = [draw(t, seed, 50.0) for seed in run_seeds(3, 20)]
    assert len({tuple(kinds) for kinds, _ in drawn}) > 5  # swarm: the mix varies
    for kinds, faults in drawn:
        assert kinds and faults
        for f in faults:
            assert 0 <= f.at < 50 and (f.duration is None or f.at + f.duration <= 50)
    assert draw(t, 42, 50.0) == draw(t, 42, 50.0)


def test_kinds_added_later_leave_every_earlier_schedule_as_it_was(scenario: Scenario) -> None:
    # A seed named in a regression test replays the faults it always had: the later
    # kinds come from a stream of their own and only add faults.
    t = targets(scenario)

    class NoLater(Targets):  # the same targets, before any later kind was added
        def later_kinds(self) -> list[str]:
            return []

    without = NoLater(**{f.name: getattr(t, f.name) for f in dataclasses.fields(t)})
    assert without.kinds() == t.kinds() and not without.later_kinds()
    for seed in run_seeds(4, 40):
        kinds, faults = draw(t, seed, 49.0)
        earlier = tuple(f for f in faults if f.action not in LATER_ACTIONS)
        assert draw(without, seed, 49.0) == ([k for k in kinds if k not in LATER], earlier)


@keeps("docs/scenarios.md", "or says that no member held the lease")
@keeps("docs/chaos.md", "stall the expiry-scan lease holder mid-scan past its lease")
@keeps("docs/edges.md", "for 1.1 to 2 lease lengths.")
def test_a_stall_scan_outlasts_the_lease_and_names_no_member(scenario: Scenario) -> None:
    t = targets(scenario)
    stalls = [
        f for seed in run_seeds(6, 40) for f in draw(t, seed, 49.0)[1] if f.action == "stall_scan"
    ]
    assert stalls and all(f.qmgr == "" and f.duration is None for f in stalls)
    assert all(1.1 * t.lease <= f.amount <= 2 * t.lease for f in stalls)


@pytest.mark.slow
@keeps("docs/edges.md", "random campaigns catch that bug too, not only a targeted test.")
def test_a_random_campaign_catches_skipped_fencing(scenario: Scenario) -> None:
    # docs/architecture.md: a scan carries its token and the facility refuses a stale one. The first
    # run of campaign seed 1 that draws stall_scan: clean without the bug, caught with it.
    plan = Plan.of(scenario)
    seed = next(
        s for s in run_seeds(1, 30) if "stall_scan" in draw(plan.targets, s, plan.window)[0]
    )
    clean = run_one(scenario, seed, plan=plan)
    assert clean.ok, [(v.name, v.involved[:3]) for v in clean.failed()]
    with bugs.injected(bugs.SKIP_FENCING):
        broken = run_one(scenario, seed, plan=plan)
    scans = verdict(broken.verdicts, "scan-lease")
    assert not scans.ok and scans.counts["stale_token"] > 0
    assert [v.name for v in broken.failed()] == ["scan-lease"]


@keeps("docs/scenarios.md", "Needs a QSG; the `fault` event's")
@keeps(
    "docs/edges.md",
    'In a scenario file it is `action = "stall_scan"` with `amount` (seconds)',
)
def test_stall_scan_in_a_scenario_needs_a_qsg_and_an_amount() -> None:
    from qsg.scenario import ScenarioError, parse_scenario

    base = (
        '[run]\nduration = 60\n[qmgr.QM1]\nmqsc = "DEFINE QLOCAL(APP.Q)"\n'
        '[[fault]]\nat = 5\naction = "stall_scan"\n'
    )
    for extra, problem in (
        ("", "fault.0..amount: must be above 0"),
        ("amount = 20\n", "stall_scan: the scenario has no QSG"),
    ):
        with pytest.raises(ScenarioError, match=problem):
            parse_scenario(base + extra, "s.toml")


# ---- campaigns ------------------------------------------------------------------------------
@pytest.mark.slow
def test_a_ci_sized_campaign_finds_no_violation(scenario: Scenario) -> None:
    plan = Plan.of(scenario)
    failed = []
    kinds: set[str] = set()
    # 12 seeds: every kind of fault is drawn by the 6th (2026-11-28), twice over here;
    # the long campaigns are the README's and bench/RESULTS.md's.
    for seed in run_seeds(2026, 12):
        outcome = run_one(scenario, seed, plan=plan)
        kinds.update(outcome.kinds)
        failed += [(seed, v.name, v.involved[:3]) for v in outcome.failed()]
    assert failed == []
    # Every kind was exercised (stall_scan among them, the fault that tests fencing).
    assert kinds == set(plan.targets.kinds()) | set(plan.targets.later_kinds())


@keeps("README.md", "`--mode liveness` checks progress after the heal")
@pytest.mark.slow
def test_a_liveness_campaign_makes_progress_after_the_heal(scenario: Scenario) -> None:
    for seed in run_seeds(11, 4):
        outcome = run_one(scenario, seed, "liveness")
        assert outcome.ok, [(v.name, v.involved) for v in outcome.failed()]
        assert verdict(outcome.verdicts, "liveness").counts["stalled"] == 0


@pytest.mark.slow
@keeps("docs/chaos.md", "a sender channel not RUNNING")
def test_liveness_catches_a_channel_left_stopped(scenario: Scenario) -> None:
    plan = Plan.of(scenario)
    stop = Fault(5.0, "stop_channel", qmgr="QM1", channel="QM1.TO.QM4")
    for heal, stalled in ((False, ["channel QM1.TO.QM4 (STOPPED)"]), (True, [])):
        faults = (stop, Fault(plan.window, "heal")) if heal else (stop,)
        run = dataclasses.replace(scenario, faults=faults)
        result = actors.runtime.run(partial(play, run, history=True))
        live = checkers.check_liveness(
            history.read(result.events, result.scopes),
            plan.window,
            plan.bound,
            expectations(scenario, plan),
        )
        assert live.involved == stalled
        states = [
            e.state
            for e in result.events
            # The sender's states (the receiving end, on QM4, ends INACTIVE after it).
            if isinstance(e, ChannelStateChanged) and e.channel == "QM1.TO.QM4" and e.q_mgr == "QM1"
        ]
        assert states[-1] == ("RUNNING" if heal else "STOPPED")


@keeps("README.md", "one seed draws every random choice of a run")
@pytest.mark.slow
@keeps(
    "docs/chaos.md",
    "a run's seed draws its faults and seeds the world, so a replay in process gives the "
    "identical history",
)
def test_a_run_seed_replays_to_the_identical_history(scenario: Scenario) -> None:
    first = run_one(scenario, SEED, keep=True)
    again = run_one(scenario, SEED, keep=True)
    assert first.result is not None and again.result is not None
    assert first.result.events == again.result.events
    assert any(isinstance(e, FaultInjected) for e in first.result.events)
    assert any(isinstance(e, OpCompleted) and e.outcome == "unknown" for e in first.result.events)


@keeps("README.md", "after the heal and a drain checkers judge the history")
@pytest.mark.slow
@keeps(
    "docs/chaos.md",
    "at its end every fault is lifted (the **heal**), the applications go on, a **quiet** period "
    "lets channels and scans catch up, and a **drain** reads every queue it can to empty.",
)
@keeps(
    "docs/scenarios.md", "lift every fault at once (what a chaos run does at the end of its window)"
)
def test_a_chaos_run_ends_with_heal_quiet_and_drain(scenario: Scenario) -> None:
    plan = Plan.of(scenario)
    _, chaotic = chaos_scenario(scenario, plan, SEED, "safety")
    assert chaotic.faults[-1] == Fault(plan.window, "heal")
    assert chaotic.run.seed == SEED and chaotic.run.in_process
    outcome = run_one(scenario, SEED, keep=True)
    assert outcome.result is not None
    drains = [e for e in outcome.result.events if isinstance(e, OpCompleted) and e.app == "drain"]
    assert drains and min(e.time for e in drains) >= scenario.run.duration + plan.quiet
    assert outcome.drained == sum(e.outcome == "ok" for e in drains)


@keeps("README.md", "A failing run prints the one command that replays it.")
@pytest.mark.slow
@keeps("docs/chaos.md", "A failing run prints the one command that replays it")
def test_qsg_chaos_prints_the_table_and_for_a_failure_the_replay_command() -> None:
    from click.testing import CliRunner

    from qsg.commands.cli import main

    runner = CliRunner()
    done = runner.invoke(main, ["chaos", str(SCENARIO), "--runs", "2", "--seed", "5"])
    assert done.exit_code == 0, done.output
    assert "chaos checkers" in done.output and "2 of 2 runs without a violation" in done.output
    with bugs.injected(bugs.DROP_ON_COMMIT):
        failed = runner.invoke(main, ["chaos", str(SCENARIO), "--replay", str(SEED)])
    assert failed.exit_code == 1
    assert f"seed {SEED} failed queue" in failed.output
    assert f"qsg chaos {SCENARIO} --mode safety --replay {SEED}" in failed.output
    assert "VIOLATION" in failed.output  # a replay shows every verdict and the MsgIds


@keeps(
    "docs/chaos.md",
    "the replay command carries `--mode`, `--on-redis` and `--processes` as the failing run "
    "had them.",
)
def test_the_replay_command_carries_the_flags_that_chose_the_runs_faults() -> None:
    from qsg.commands.chaos import replay_command

    outcome = Outcome(7, "liveness", [], (), [], 0, 0, 0.0)
    base = f"qsg chaos {SCENARIO} --mode liveness --replay 7"
    assert replay_command(SCENARIO, outcome, on_redis=False) == base
    assert replay_command(SCENARIO, outcome, on_redis=True) == base + " --on-redis"
    assert replay_command(SCENARIO, outcome, False, processes=True) == base + " --processes"


def test_qsg_chaos_refuses_a_scenario_too_short_for_its_bound(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from qsg.commands.cli import main

    short = tmp_path / "short.toml"
    short.write_text(SCENARIO.read_text().replace("duration = 120", "duration = 60"))
    done = CliRunner().invoke(main, ["chaos", str(short)])
    assert done.exit_code == 2
    assert "too short for a chaos run whose recovery bound is 71 s" in done.output


@pytest.mark.slow
def test_a_chaos_run_on_the_redis_coupling_facility_finds_no_violation(
    scenario: Scenario, cf_url: str
) -> None:
    # The same nemesis with shared queues, leases and per-member outages on a real server.
    outcome = run_one(scenario, SEED, redis_url=cf_url, in_process=False)
    assert outcome.ok, [(v.name, v.involved[:3]) for v in outcome.failed()]
    assert {"cf_member", "cf_all", "skew"} <= set(outcome.kinds)


#: A run seed whose faults on Redis include failing the CF's server (with pause, cf_all,
#: break_channel and stop_channel).
CF_FAIL_SEED = 1634154403


@keeps("README.md", "`--on-redis` plays on the Redis coupling facility (its server killed too)")
@pytest.mark.slow
@keeps(
    "docs/chaos.md",
    "`--on-redis` with the server the run starts itself adds the facility's own failure "
    "(`cf_fail`)",
)
def test_a_chaos_run_that_kills_the_cf_server_loses_no_persistent_message(
    scenario: Scenario, monkeypatch: pytest.MonkeyPatch
) -> None:
    # IBM, "Managing shared queues": on CF failure persistent messages are recoverable
    # (RECOVER(YES)); the scenario's server keeps an append-only file.
    monkeypatch.delenv("QSG_REDIS_URL", raising=False)  # the run starts its own server
    clean = run_one(scenario, CF_FAIL_SEED, in_process=False, keep=True)
    assert "cf_fail" in clean.kinds
    assert clean.result is not None
    assert any(isinstance(e, CFRecovered) for e in clean.result.events)
    assert clean.ok, [(v.name, v.involved[:3]) for v in clean.failed()]
    with bugs.injected(bugs.LOSE_ON_CF_RECOVERY):
        broken = run_one(scenario, CF_FAIL_SEED, in_process=False)
    queue = verdict(broken.verdicts, "queue")
    assert not queue.ok and queue.counts["lost"] > 0


@keeps(
    "docs/chaos.md",
    "unless a CF failure could not recover it (a RECOVER(NO) structure, or a server without its "
    "state: counted as `lost_to_cf_failure`)",
)
def test_messages_a_cf_failure_could_not_recover_are_lost_as_mq_allows_not_a_violation() -> None:
    # IBM, "DEFINE CFSTRUCT": only RECOVER(YES) structures can be recovered.
    scopes = Scopes(members={"QM1": "QSG1"}, shared={"QSG1": ["APP.WORK"]})

    def events(recovered: bool) -> list[WorldEvent]:
        return [
            OpInvoked(1.0, "QM1", "app", "put", "APP.WORK", b"M1", persistent=True),
            OpCompleted(1.0, "QM1", "app", "put", "APP.WORK", "ok"),
            CFRecovered(5.0, "", "QSG1", "APP1", "APP.WORK", recovered, 1, 0),
        ]

    lost = checkers.check_queue(history.read(events(recovered=True), scopes))
    assert not lost.ok and lost.counts["lost"] == 1  # it should have been recovered
    excused = checkers.check_queue(history.read(events(recovered=False), scopes))
    assert excused.ok and excused.info["lost_to_cf_failure"] == 1


#: Runs of the 500-run campaigns that once found a bug, with what it was.
FOUND = {
    # QM2's lease clock runs 4.4 s behind while another member holds the lease: QM2 must
    # retry when its own clock reaches the lease's end, not in the instant the holder's
    # lease ran out (which, in virtual time, spun for ever without time passing).
    1391386804: "skew",
    # QM4 paused with a batch in flight; the channel stopped and started meanwhile, so a
    # second receiving agent got the batch again: both put it when QM4 woke (a
    # duplicate). A receiver now confirms a batch already committed without putting it.
    200436842: "pause",
}


@pytest.mark.parametrize("seed", sorted(FOUND))
@pytest.mark.slow
def test_a_run_that_once_found_a_bug_passes(scenario: Scenario, seed: int) -> None:
    # A regression may be a hang: then the process stops with every thread's stack.
    import faulthandler

    faulthandler.dump_traceback_later(300, exit=True)
    try:
        outcome = run_one(scenario, seed)
    finally:
        faulthandler.cancel_dump_traceback_later()
    assert FOUND[seed] in outcome.kinds
    assert outcome.ok, [(v.name, v.involved[:3]) for v in outcome.failed()]
