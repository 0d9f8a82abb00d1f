"""Built-in putters and getters driven by the virtual clock's timers (actors.drive).

While nothing can make an MQI call wait, the clock makes a built-in application's calls
itself, without a task switch per message; the moment something can (a pause, a kill, a
cost, a coupling-facility outage), the application's task takes over, and gives the
calls back to the clock when it can. Either way the application is the same MQ program:
the same seed gives the same events, call for call, as tasks alone give.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import trio

from actors import clock, drive
from actors.clock import VirtualClock
from actors.events import (
    ApplicationError,
    Discarded,
    EventLog,
    MessageGot,
    MessagePut,
    QMgrStatistics,
    ReplyReceived,
    ReportPut,
    WorldEvent,
)
from actors.mqi import Put
from actors.program import Next, Program
from actors.signals import Signals
from qsg import CMQC
from qsg.core.memstore import MemoryStore
from qsg.scenario import load_scenario
from qsg.scenario.load import parse_scenario
from qsg.scenario.model import Scenario
from qsg.scenario.play import play, run_scenario
from tests.claims import keeps

SCENARIOS = Path(__file__).parent.parent / "scenarios"

#: A QSG under faults that hand the applications to their tasks and back: a pause, a
#: kill and restart, a coupling-facility outage of one member, a slow CF (a cost).
#: Units of work, expiry, priorities, a count, getters competing for each message.
FAULTED = """
description = "driven applications under faults"
[run]
duration = 120
seed = 7
in_process = true
[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = '''
DEFINE CFSTRUCT(APP1) CFLEVEL(5)
DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(999999)
'''
[qmgr.QM1]
[qmgr.QM2]
[[workload]]
name = "entry"
type = "putter"
qmgr = "QM1"
queue = "APP.SHARED"
apps = 2
rate = 20
syncpoint = 4
expiry = 30
priority = { dist = "choice", values = [9, 4, 0], weights = [1, 6, 3] }
[[workload]]
name = "counted"
type = "putter"
qmgr = "QM2"
queue = "APP.SHARED"
rate = 5
count = 300
[[workload]]
name = "work"
type = "getter"
qmgr = "QM2"
queue = "APP.SHARED"
apps = 3
syncpoint = 5
wait = 700
service = { dist = "exponential", mean = 0.1 }
[[workload]]
name = "more-work"
type = "getter"
qmgr = "QM1"
queue = "APP.SHARED"
stop = 100
service = { dist = "exponential", mean = 0.05 }
[[fault]]
at = 10
action = "pause"
qmgr = "QM2"
duration = 3
[[fault]]
at = 30
action = "kill"
qmgr = "QM1"
duration = 10
[[fault]]
at = 55
action = "cf_unavailable"
qmgr = "QM2"
duration = 5
[[fault]]
at = 80
action = "slow_cf"
amount = 0.01
duration = 10
"""


#: Groups put and read in logical order, in units of work, with syncpoint gets; expiry
#: and uniform arrivals: one putter and one getter per queue, so no two calls race.
GROUPS = """
description = "driven applications: groups in logical order"
[run]
duration = 300
seed = 11
in_process = true
[qmgr.QM1]
mqsc = '''
DEFINE QLOCAL(APP.GROUPS) INDXTYPE(GROUPID) MAXDEPTH(999999)
DEFINE QLOCAL(APP.BATCH) MAXDEPTH(999999)
'''
[[workload]]
name = "grouped"
type = "putter"
qmgr = "QM1"
queue = "APP.GROUPS"
rate = 10
group_size = 3
syncpoint = 6
size = { dist = "uniform", min = 10, max = 5000 }
[[workload]]
name = "groups"
type = "getter"
qmgr = "QM1"
queue = "APP.GROUPS"
logical_order = true
syncpoint = 3
service = { dist = "exponential", mean = 0.08 }
[[workload]]
name = "batches"
type = "putter"
qmgr = "QM1"
queue = "APP.BATCH"
rate = 4
arrival = "uniform"
count = 500
expiry = 5
[[workload]]
name = "batch"
type = "getter"
qmgr = "QM1"
queue = "APP.BATCH"
wait = 300
start = 20
service = { dist = "exponential", mean = 0.3 }
"""


#: Every hand-over of the clock-driven path with nothing left to chance: units of work on
#: both sides (syncpoint), model costs that come and go (a slow CF: the calls go to the
#: tasks and come back), a pause, a member's coupling-facility outage (its calls fail
#: with MQRC_CF_STRUC_FAILED, its applications rest and reconnect), a putter's count,
#: shared and local queues. One application per queue end, faults and stops at instants
#: nothing else falls on, a WaitInterval that does not divide the sampling interval: no
#: two things are due at one instant, so the scheduler never has a choice to make and a
#: run's events are the same in either path to the byte. (A kill wakes every waiting get
#: in the world at the instant of the peer recovery it starts: a tie, which
#: ``FAULTED`` below covers.)
WITHOUT_TIES = """
description = "driven applications: every hand-over, no ties"
[run]
duration = 200
in_process = true
sample_interval = 10
[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = '''
DEFINE CFSTRUCT(APP1) CFLEVEL(5)
DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(999999)
'''
[qmgr.QM1]
mqsc = "DEFINE QLOCAL(APP.LOCAL) MAXDEPTH(999999)"
[qmgr.QM2]
[[workload]]
name = "in"
type = "putter"
qmgr = "QM1"
queue = "APP.SHARED"
rate = 8
syncpoint = 3
stop = 191
[[workload]]
name = "out"
type = "getter"
qmgr = "QM2"
queue = "APP.SHARED"
syncpoint = 4
wait = 731
stop = 192
service = { dist = "exponential", mean = 0.05 }
[[workload]]
name = "local-in"
type = "putter"
qmgr = "QM1"
queue = "APP.LOCAL"
rate = 3
count = 400
stop = 193
[[workload]]
name = "local-out"
type = "getter"
qmgr = "QM1"
queue = "APP.LOCAL"
stop = 194
service = { dist = "exponential", mean = 0.2 }
[[fault]]
at = 20.3
action = "slow_cf"
amount = 0.01
duration = 15
[[fault]]
at = 60.3
action = "pause"
qmgr = "QM2"
duration = 4
[[fault]]
at = 150.3
action = "cf_unavailable"
qmgr = "QM2"
duration = 6
"""


def _events(
    scenario: Scenario,
    monkeypatch: pytest.MonkeyPatch,
    *,
    driven: bool,
) -> list[WorldEvent]:
    """The run's events; those of one instant in a fixed order (which of two calls at
    the same simulated instant goes first is the scheduler's choice, for tasks and
    timers alike: each is deterministic, not the same)."""
    with monkeypatch.context() as patch:
        if not driven:
            patch.setattr(drive, "KINDS", frozenset())  # no kind is driven: tasks alone
        events = list(run_scenario(scenario).events)
    return sorted(events, key=lambda e: (e.time, repr(e)))


def _shortened(name: str, seconds: float) -> Scenario:
    """A shipped scenario, shorter, in process (on Redis the clock drives nothing)."""
    scenario = load_scenario(SCENARIOS / name)
    assert isinstance(scenario, Scenario)
    run = dataclasses.replace(scenario.run, duration=seconds, in_process=True)
    return dataclasses.replace(scenario, run=run)


@pytest.mark.slow
@pytest.mark.parametrize(
    "scenario",
    [
        _shortened("mmc-erlang-c.toml", 300),
        _shortened("mm1-impatience.toml", 600),
        parse_scenario(GROUPS, "<groups>"),
    ],
    ids=["mmc-erlang-c", "mm1-impatience", "groups"],
)
@keeps(
    "docs/speed.md",
    "The MQ semantics are the same whichever path a call takes: the same seed gives the "
    "same events",
)
@keeps(
    "docs/speed.md",
    "either way it makes the same calls, in the same order, with the same random draws",
)
def test_clock_driven_applications_make_the_same_events_as_tasks(
    scenario: Scenario, monkeypatch: pytest.MonkeyPatch
) -> None:
    driven = _events(scenario, monkeypatch, driven=True)
    assert any(isinstance(e, MessageGot) for e in driven)
    assert driven == _events(scenario, monkeypatch, driven=False)


def _messages(events: list[WorldEvent]) -> Counter[tuple[str, str, str, bytes, str]]:
    """Which messages were put, got, discarded and reported, where and by whom: each
    such event without its time."""
    kinds = (MessagePut, MessageGot, Discarded, ReportPut)
    return Counter(
        (type(e).__name__, e.q_mgr, e.queue, e.msg_id, getattr(e, "app", ""))
        for e in events
        if isinstance(e, kinds)
    )


@pytest.mark.slow
def test_with_constant_costs_clock_and_tasks_put_and_get_the_same_messages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A constant cost a call (shared-queue-expiry.toml: 200 us of CPU, 50 us of CF) makes
    # two calls admitted at one instant fall due at one instant: which goes first is the
    # scheduler's choice, deterministic on each path but not the same (the clock's
    # timers first come first served, trio's ready tasks in an order drawn from the
    # seed). A getter whose attempt came first finds nothing and tries again one call's
    # cost later. So the paths agree on the MQ outcome, not on each event's time: the
    # same messages put, got, discarded and reported, each by the same queue manager on
    # the same queue and application.
    scenario = _shortened("shared-queue-expiry.toml", 120)
    driven = _events(scenario, monkeypatch, driven=True)
    tasks = _events(scenario, monkeypatch, driven=False)
    assert sum(isinstance(e, ReportPut) for e in driven) > 10
    assert _messages(driven) == _messages(tasks)


@pytest.mark.slow
@keeps(
    "docs/speed.md",
    "A task's call goes through the same admission and sleeps until the same times.",
)
def test_with_costs_units_of_work_and_faults_clock_and_tasks_make_the_same_events_to_the_byte(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One program, two ways of scheduling it (actors.program): the clock's timers while
    # nothing can make a call wait, the task through the dispatcher otherwise. With no
    # ties, a run must be the same event stream, in the same order, in both.
    scenario = parse_scenario(WITHOUT_TIES, "<without ties>")
    stretches = [0]
    drive_from = drive.Drive.drive

    async def counted(self: drive.Drive, program: Program[Any], step: Next) -> drive.Drive:
        stretches[0] += 1
        return await drive_from(self, program, step)

    monkeypatch.setattr(drive.Drive, "drive", counted)
    for seed in (1, 2, 3, 4, 5, 6):
        with monkeypatch.context() as patch:
            patch.setattr(drive, "KINDS", frozenset())
            tasks = run_scenario(scenario, seed=seed).events
        assert stretches[0] == 0
        driven = run_scenario(scenario, seed=seed).events
        # The clock drove each of the four applications, the slow CF's cost included
        # (a cost is a time the clock keeps, issue 44), and took QM2's getter back
        # after its pause and its outage.
        assert stretches[0] >= 4 + 2, stretches
        stretches[0] = 0
        reasons = {e.reason for e in driven if isinstance(e, ApplicationError)}
        assert CMQC.MQRC_CF_STRUC_FAILED in reasons, seed
        assert [repr(e) for e in driven] == [repr(e) for e in tasks], seed


@pytest.mark.slow
@keeps(
    "docs/speed.md",
    "When the conditions hold again, the task hands the application back to the clock.",
)
def test_applications_handed_between_clock_and_task_by_faults_carry_on_as_tasks_do(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A pause, a kill, a CF outage and a cost each hand the calls to the tasks (MQ's
    # failures included) and back. Getters woken together by a commit race for its
    # messages, and which wins is the scheduler's choice: the runs differ in detail,
    # each repeats exactly, and each serves the same load through the same faults.
    scenario = parse_scenario(FAULTED, "<faulted>")
    driven = _events(scenario, monkeypatch, driven=True)
    assert driven == _events(scenario, monkeypatch, driven=True)
    tasks = _events(scenario, monkeypatch, driven=False)
    reasons = {e.reason for e in driven if isinstance(e, ApplicationError)}
    assert reasons == {e.reason for e in tasks if isinstance(e, ApplicationError)}
    assert {CMQC.MQRC_CONNECTION_BROKEN, CMQC.MQRC_CF_STRUC_FAILED} <= reasons
    for kind in (MessagePut, MessageGot):
        ours, theirs = (sum(isinstance(e, kind) for e in run) for run in (driven, tasks))
        assert abs(ours - theirs) <= 0.03 * theirs, (kind.__name__, ours, theirs)
    # Each member's getters are back at work after each fault ends.
    for q_mgr, back in (("QM2", 13), ("QM1", 40), ("QM2", 60), ("QM1", 90), ("QM2", 90)):
        assert any(
            isinstance(e, MessageGot) and e.q_mgr == q_mgr and back < e.time < back + 2
            for e in driven
        ), (q_mgr, back)


class _Steps(trio.abc.Instrument):
    def __init__(self) -> None:
        self.steps = 0

    def before_task_step(self, task: trio.lowlevel.Task) -> None:
        self.steps += 1


@keeps("docs/speed.md", "Then the application's task parks once and the clock runs its program")
def test_a_clock_driven_mmc_queue_takes_far_fewer_task_steps_than_messages() -> None:
    scenario = _shortened("mmc-erlang-c.toml", 300)
    steps = _Steps()

    async def main() -> int:
        result = await play(scenario)
        return sum(isinstance(e, MessagePut) for e in result.events)

    puts = trio.run(main, clock=VirtualClock(), instruments=[steps])
    assert puts > 5000
    # A task per application would take at least two steps a message (the putter's and
    # the getter's); driven by the clock, only start-up, sampling and the end take any.
    assert steps.steps < puts / 10


def test_a_waiter_whose_wait_ran_out_cannot_take_a_later_getters_wake_up() -> None:
    # One new message wakes one plain waiter (signals.py). A plain waiter kept waiting by
    # one notification and timed out later must leave the waiting list it is on now,
    # else the next notification goes to it, and a getter waiting since then sleeps on
    # to the end of its WaitInterval with a message on its queue.
    signals, store = Signals(), MemoryStore()
    woke: dict[str, float] = {}

    async def waiter(name: str, start: float, deadline: float) -> None:
        await clock.sleep_until(start)
        await signals.wait(store, "Q", deadline, plain=True)
        woke[name] = trio.current_time()

    async def notifier() -> None:
        for at in (0.5, 3.0):
            await clock.sleep_until(at)
            signals.notify(store, "Q")

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(waiter, "first", 0.0, 10.0)
            nursery.start_soon(waiter, "timed-out", 0.1, 1.0)
            nursery.start_soon(waiter, "later", 2.0, 10.0)
            nursery.start_soon(notifier)

    trio.run(main, clock=VirtualClock())
    assert woke == {"first": 0.5, "timed-out": 1.0, "later": 3.0}


def test_a_failure_inside_a_clock_driven_step_ends_the_run_as_a_task_failure_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A timer must not raise into trio's loop: the step's exception goes to the
    # application's task, and the world ends with it (nothing fails quietly).
    calls = [0]
    step = Put.__call__

    def failing(self: Put, now: float) -> None:
        calls[0] += 1
        if calls[0] == 50:
            raise RuntimeError("a bug in the put")
        step(self, now)

    monkeypatch.setattr(Put, "__call__", failing)
    with pytest.RaisesGroup(RuntimeError, allow_unwrapped=True, flatten_subgroups=True):
        run_scenario(_shortened("mmc-erlang-c.toml", 60))
    assert calls[0] == 50


@keeps(
    "docs/speed.md",
    "called only for the event classes they read, not for every message's put and get",
)
def test_a_listener_of_some_kinds_hears_only_events_of_those_classes_in_order() -> None:
    # EventLog.listen: the world's books that read a few kinds of event (the channel
    # status board, the command server's starter) are not called for every message.
    log = EventLog()
    heard: list[WorldEvent] = []
    everything: list[WorldEvent] = []
    log.listen(heard.append, MessageGot, ApplicationError)
    log.listeners.append(everything.append)
    put = MessagePut(1.0, "QM1", "Q", b"1", 10, False, False, -1)
    got = MessageGot(2.0, "QM1", "Q", b"1", 10, False, False, -1, False)
    error = ApplicationError(3.0, "QM1", "app#1", "Q", CMQC.MQRC_NO_MSG_AVAILABLE)
    for event in (put, got, error):
        log.emit(event)
    assert heard == [got, error]
    assert everything == [put, got, error]
    assert log.history == [put, got, error]


@pytest.mark.slow
@keeps(
    "docs/speed.md",
    'A scenario\'s built-in applications (`[[workload]]` `type = "putter"`, `"getter"`, '
    '`"requester"` or `"server"`) are MQ programs',
)
def test_requesters_and_servers_are_driven_by_the_clock_and_answer_as_tasks_do(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # request-reply.toml: requesters on temporary dynamic reply queues, servers replying
    # with MQPUT1 (across a channel from QM2), model costs on. Every built-in kind is
    # the clock's to drive (issue 44). Servers woken at one instant race for a request,
    # and which wins is each path's scheduler's choice (see the tests above); the run's
    # one random number generator then hands the next draws to other applications, so
    # the two runs are the same workload, not the same events. What is compared: every
    # request answered on both paths, as many requests within 10% (a Poisson count of
    # about 800 moves by 3.5% at one standard deviation), the median round trip within
    # 10%.
    scenario = _shortened("request-reply.toml", 20)
    kinds: list[str] = []
    drive_from = drive.Drive.drive

    async def counted(self: drive.Drive, program: Program[Any], step: Next) -> drive.Drive:
        kinds.append(self.app.w.kind)
        return await drive_from(self, program, step)

    with monkeypatch.context() as patch:
        patch.setattr(drive.Drive, "drive", counted)
        driven = _events(scenario, monkeypatch, driven=True)
    assert {"requester", "server"} <= set(kinds)
    tasks = _events(scenario, monkeypatch, driven=False)
    trips = []
    for run in (driven, tasks):
        replies = [e for e in run if isinstance(e, ReplyReceived)]
        requests = sum(isinstance(e, MessagePut) and e.queue == "APP.PRICE.REQUESTS" for e in run)
        assert requests > 500
        assert 0 <= requests - len(replies) <= 4  # at most one in flight a requester at the end
        assert all(e.round_trip is not None for e in replies)
        trips.append(sorted(e.round_trip or 0.0 for e in replies))
    assert abs(len(trips[0]) - len(trips[1])) <= 0.1 * len(trips[1])
    medians = [t[len(t) // 2] for t in trips]
    assert abs(medians[0] - medians[1]) <= 0.1 * medians[1], medians


#: Getters idle most of the time on a shared queue, every MQI call charged: half of their
#: attempts find the queue empty.
COSTED_IDLE_GETTERS = """
description = "costed getters, mostly idle"
[run]
duration = 20
seed = 3
in_process = true
[model]
cpu_per_call = 0.00002
cf_access = 0.00001
[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = '''
DEFINE CFSTRUCT(APP1) CFLEVEL(5)
DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(999999)
'''
[[workload]]
name = "in"
type = "putter"
qmgr = "QM1"
queue = "APP.SHARED"
rate = 50
[[workload]]
name = "out"
type = "getter"
qmgr = "QM2"
queue = "APP.SHARED"
apps = 2
service = 0.001
"""


def test_a_costed_attempt_that_can_only_fail_is_charged_and_counted_without_a_look_at_the_queue(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # docs/speed.md, "Model costs are times the clock keeps": every MQGET attempt of a
    # waiting get is charged a call's processor time and counted as an MQGET (QMSTGET),
    # found message or not. One that the world's signals say must find nothing
    # (MQRC_NO_MSG_AVAILABLE, 2033) is charged and counted all the same, but the store is
    # not asked (on a server, a round trip less).
    looked = Counter[str]()
    receive = MemoryStore.get

    def counting(self: MemoryStore, *args: Any, **kwargs: Any) -> Any:
        looked["get"] += 1
        return receive(self, *args, **kwargs)

    scenario = parse_scenario(COSTED_IDLE_GETTERS, "<costed idle getters>")
    with monkeypatch.context() as patch:
        patch.setattr(MemoryStore, "get", counting)
        events = list(run_scenario(scenario).events)
    got = sum(isinstance(e, MessageGot) for e in events)
    mqgets = sum(e.mqget for e in events if isinstance(e, QMgrStatistics) and e.q_mgr == "QM2")
    assert got > 500
    # Every attempt counted: each message's, and at least one empty one a message (the
    # getters are idle when it comes).
    assert mqgets >= 2 * got
    assert looked["get"] < mqgets - got / 2
