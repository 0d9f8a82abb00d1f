"""One behaviour on every path (issue 42): every shipped scenario, and a hypothesis family
of small ones, played in process and on the coupling facility's server, with
clock-driven and with task-driven applications, under the same seed, must come out the
same (``tests/differential.py`` says exactly what is compared, and where simultaneous
events may legitimately be ordered differently).

``./dev test`` plays each shipped scenario shortened (past its first fault) and a few
generated ones; the ``slow`` tests play each shipped scenario longer and a larger family:
in ``./dev test`` the longest for a stretch of each (``Shipped.ci``: capacity-day.toml's
first hour, with its kill moved from 10:00 to 0:30) and a sweep at its busiest points, and under
``QSG_SOAK=1`` (tests/soak.py) each for its whole duration (capacity-day.toml for its first
13 hours: through the outage, the restart and the backlog) and every point.
bench/RESULTS.md ("Issue 42: the differential test") keeps the sizes and times and what
the test found.
"""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, note, settings

from actors import drive
from actors.events import (
    ApplicationError,
    CFFailed,
    DepthSampled,
    ExpiryScanned,
    FaultInjected,
)
from qsg import CMQC
from qsg.chaos.campaign import Plan, chaos_scenario, run_seeds
from qsg.commands.pipeline.sweep_file import load_sweep
from qsg.core.memstore import MemoryStore
from qsg.scenario import load_scenario
from qsg.scenario.load import parse_scenario
from qsg.scenario.model import Scenario
from tests.claims import keeps
from tests.differential import (
    IN_PROCESS_CLOCK,
    IN_PROCESS_TASKS,
    SERVER_CLOCK,
    SERVER_TASKS,
    Tie,
    judge,
    play_paths,
)
from tests.small_scenarios import small_scenarios
from tests.soak import sized

SCENARIOS = Path(__file__).parent.parent / "scenarios"

# ---- the shipped scenarios' ties ---------------------------------------------------------
EXPIRY_SCAN_TAKEOVER = Tie(
    "QM2 and QM3 both scan every 5 s from the start (EXPRYINT(5)): once the killed QM1's "
    "lease has run out, which of the two takes it over is which of two scans at one instant "
    "goes first, and the holder's row counts the messages its scans discard",
    frozenset({"lease holders", "members"}),
    events_agree=False,
)
COMPETING_GETTERS = Tie(
    "QM3's two `workers` and QM2's `workers2` all begin to wait on APP.WORK at 0 s: which is "
    "first in line is the order of their start at that instant, and from the first message on "
    "which member gets which message, and so when each commits and waits, differs (and with "
    "it the trend fitted to the structure's samples)",
    frozenset({"members", "latency", "calls", "structure trends"}),
    events_agree=False,
)
PUTS_TOGETHER = Tie(
    "at 0.5 s two applications of QM1 put at one instant (order-entry to APP.ORDERS, and "
    "the put that the channel QM1.TO.QM3 carries): whichever goes first takes the lower "
    "message id, so the two ids swap between the ways of driving",
    events_agree=False,
)
WORKERS_TOGETHER = Tie(
    "QM3's two `workers` (a fixed service time, 0.05 s) take two messages at one instant and "
    "commit together: which commits first, and so which waiting gets a commit wakes before "
    "they have anything to get, is the order of simultaneous events (a member's MQGET attempts "
    "differ by one or two)",
    frozenset({"calls"}),
    events_agree=False,
)
#: A kill wakes every waiting get twice at its instant: with the kill, and with the peer
#: recovery that follows it. A task-driven getter tries again between the two and after
#: the second; a clock-driven one, resumed by the clock once no task is ready, once after
#: both: one MQRC_NO_MSG_AVAILABLE attempt less, which the statistics count as an MQGET.
KILL_WAKES_TWICE = Tie(
    "a kill wakes each waiting get twice at its instant (the kill, then the peer recovery): "
    "a task-driven getter tries between the two, a clock-driven one only after both",
    frozenset({"calls"}),
)
CUT_OFF_RETRY_TOGETHER = Tie(
    "a member cut off from the facility (cf_unavailable) fails its applications' calls on "
    "shared queues; those that failed at one instant reconnect and try again together a "
    "second later, so which connects first (its connection number) and whether a get tries "
    "once more before the facility is back are the order of simultaneous steps (a generated "
    "scenario: connection 22 or 21 at one commit, one MQGET more on the clock)",
    frozenset({"calls"}),
    events_agree=False,
)


#: A constant model cost makes ties common (docs/speed.md): calls admitted at one instant
#: with the same cost fall due together.
COSTED_STEPS_TOGETHER = Tie(
    "a waiting get woken by a commit and the get whose discards put the expiration reports "
    "it waits for are admitted at one instant and, costing the same, make their steps at one "
    "instant: whichever goes first, the waiting get finds its report or tries again a call's "
    "cost later (MQGET attempts, processor seconds, a few gets' times)",
    frozenset({"calls", "latency"}),
    events_agree=False,
)
COSTED_GETTERS_RACE = Tie(
    "with a model cost, getters on QM1 and QM2 (settle-qm1, settle-qm2) make their steps at "
    "one instant and take each other's messages, and the runs part ways (each application's "
    "draws come from the run's one random stream)",
    diverges=True,
)
REQUESTERS_TOGETHER = Tie(
    "the four pricing-client requesters start at 0 s and send together; with a model cost "
    "their calls fall due together, whose request each server takes is the order of "
    "simultaneous steps, and the runs part ways",
    diverges=True,
)


@dataclasses.dataclass(frozen=True)
class Shipped:
    """How the test plays a shipped scenario: ``fast``, the simulated seconds of it in
    ``./dev test`` (past its first fault, where it has one); ``full``, in the slow test
    under ``QSG_SOAK=1`` (None: its own duration); ``ci``, in the slow test otherwise
    (None: as ``full``); ``ties``, its simultaneous events that order differently."""

    fast: float
    full: float | None = None
    ties: tuple[Tie, ...] = ()
    ci: float | None = None
    #: In the slow test but not soaking: the scenario's faults moved earlier, the first
    #: at this time (None: where the scenario has them), so that ``ci`` seconds reach
    #: into the fault without playing the hours before it. What is compared is the
    #: paths against each other, which the shift leaves as it was.
    ci_first_fault: float | None = None

    @property
    def slow(self) -> float | None:
        """The seconds the slow test plays: the whole (``full``) only when soaking."""
        return sized(self.full if self.ci is None else self.ci, self.full)

    def shifted(self, scenario: Scenario) -> Scenario:
        """``scenario`` with its faults moved as ``ci_first_fault`` says (not when
        soaking)."""
        first = sized(self.ci_first_fault, None)
        if first is None or not scenario.faults:
            return scenario
        earlier = min(f.at for f in scenario.faults) - first
        faults = tuple(dataclasses.replace(f, at=f.at - earlier) for f in scenario.faults)
        return dataclasses.replace(scenario, faults=faults)


SHIPPED: dict[str, Shipped] = {
    "capacity-day.toml": Shipped(700, 13 * 3600, ci=3600, ci_first_fault=1800),
    "capacity.toml": Shipped(4, ties=(COSTED_GETTERS_RACE,), ci=60),
    "cf-connectivity.toml": Shipped(30),
    "chaos-lean.toml": Shipped(40),
    "chaos-facilities.toml": Shipped(15),
    "chaos-processes.toml": Shipped(8, ties=(COMPETING_GETTERS,)),
    "chaos-qsg.toml": Shipped(15, ties=(WORKERS_TOGETHER,)),
    "chaos-shared.toml": Shipped(20),
    "exec-failover.toml": Shipped(55, ties=(KILL_WAKES_TWICE,)),
    "exec-events.toml": Shipped(40),
    "exec-monitor.toml": Shipped(60, ties=(PUTS_TOGETHER,)),
    "exec-poison.toml": Shipped(20),
    "exec-qsg.toml": Shipped(60),
    "expiry-scan-failover.toml": Shipped(52, ties=(EXPIRY_SCAN_TAKEOVER, KILL_WAKES_TWICE)),
    "igq.toml": Shipped(45),
    "mm1-impatience.toml": Shipped(200, ci=1000),
    "mmc-erlang-c.toml": Shipped(200, ci=2000),
    "remote-queue-expiry.toml": Shipped(65),
    "request-reply.toml": Shipped(6, ties=(REQUESTERS_TOGETHER,), ci=30),
    # In CI an hour is ten minutes: past the kill at 120 s and the restart at 180 s by
    # seven minutes of the recovered group (the hour itself under QSG_SOAK=1).
    "serve-qsg.toml": Shipped(130, ci=600),
    "shared-channel-failover.toml": Shipped(50),
    "shared-queue-expiry.toml": Shipped(30, ties=(COSTED_STEPS_TOGETHER,)),
    "structure-failure.toml": Shipped(35),
    "sweep-base.toml": Shipped(5),
    # A sweep file: its points are scenarios (sweep-base.toml varied), played as such.
    "sweep-capacity.toml": Shipped(3),
}


def _shipped() -> list[str]:
    return sorted(p.name for p in SCENARIOS.glob("*.toml"))


def _scenarios(name: str, seconds: float | None, every_point: bool) -> list[Scenario]:
    """The shipped ``name`` (a sweep file: its busiest point, or with ``every_point``
    each of its points of its first seed), ``seconds`` long (None: as shipped)."""
    path = SCENARIOS / name
    if name == "sweep-capacity.toml":
        points = load_sweep(path).points
        if every_point:  # each load and member count once (a second seed is a replication)
            points = [p for p in points if p.seed == points[0].seed]
            # In ./dev test the busiest load of each member count; soaking, every load.
            busiest = {
                p.members: p for p in sorted(points, key=lambda p: (p.offered_load, p.members))
            }
            points = sized(list(busiest.values()), points)
        else:
            points = [max(points, key=lambda p: (p.offered_load, p.members))]
        played = [parse_scenario(p.text, f"{name} {p.run}", base=SCENARIOS) for p in points]
    else:
        played = [load_scenario(path)]
    if seconds is None:
        return played
    return [
        dataclasses.replace(s, run=dataclasses.replace(s.run, duration=seconds)) for s in played
    ]


@keeps(
    "docs/development.md",
    "A new file in `scenarios/` needs its line in the test's `SHIPPED` table.",
)
def test_every_shipped_scenario_has_its_place_in_the_differential_test() -> None:
    # A new scenario in scenarios/ is played on every path too: it needs its fast length
    # (and its ties, if it has any) here.
    assert sorted(SHIPPED) == _shipped()


@pytest.mark.parametrize("name", sorted(SHIPPED))
@keeps(
    "docs/speed.md",
    "`tests/test_differential_paths.py` plays every shipped scenario both ways, in "
    "process and on the server, and says where simultaneous events may order differently",
)
def test_a_shipped_scenario_comes_out_the_same_on_every_path(name: str, cf_url: str) -> None:
    shipped = SHIPPED[name]
    for scenario in _scenarios(name, shipped.fast, every_point=False):
        assert judge(play_paths(scenario, cf_url), shipped.ties) == []


def test_at_ci_size_the_days_kill_is_moved_into_the_stretch_played_and_keeps_its_length() -> None:
    shipped = SHIPPED["capacity-day.toml"]
    (day,) = _scenarios("capacity-day.toml", shipped.slow, every_point=True)
    (kill,) = shipped.shifted(day).faults
    (shipped_kill,) = day.faults
    slow = shipped.slow
    assert slow is not None and kill.at < slow  # the stretch reaches into the outage
    assert (kill.action, kill.duration) == (shipped_kill.action, shipped_kill.duration)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_a_shipped_scenario_played_in_full_comes_out_the_same_on_every_path(
    name: str, cf_url: str
) -> None:
    shipped = SHIPPED[name]
    for scenario in _scenarios(name, shipped.slow, every_point=True):
        assert judge(play_paths(shipped.shifted(scenario), cf_url), shipped.ties) == []


# ---- the chaos targets under their nemesis ----------------------------------------------
def _chaotic(name: str, runs: int) -> list[Scenario]:
    """The chaos target ``name`` with the faults ``qsg chaos --seed 1`` draws for its first
    ``runs`` runs (every kind the nemesis has but failing the server, which the test's
    shared server cannot take)."""
    base = load_scenario(SCENARIOS / name)
    plan = Plan.of(base)
    return [chaos_scenario(base, plan, seed, "safety")[1] for seed in run_seeds(1, runs)]


# Under the nemesis the clock and the tasks meet ties everywhere (members scanning at one
# instant, getters racing), which decide different leases and different messages: only
# the stores are compared, each way of driving on both, event for event.
STORES = ((IN_PROCESS_CLOCK, SERVER_CLOCK), (IN_PROCESS_TASKS, SERVER_TASKS))


@pytest.mark.parametrize("driving", [0, 1], ids=["clock-driven", "task-driven"])
def test_a_chaos_run_comes_out_the_same_in_process_and_on_the_server(
    driving: int, cf_url: str
) -> None:
    for scenario in _chaotic("chaos-lean.toml", 2):
        assert judge(play_paths(scenario, cf_url, paths=STORES[driving])) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", ["chaos-lean.toml", "chaos-qsg.toml"])
def test_many_chaos_runs_come_out_the_same_in_process_and_on_the_server(
    name: str, cf_url: str
) -> None:
    for scenario in _chaotic(name, sized(3, 8)):
        for paths in STORES:
            assert judge(play_paths(scenario, cf_url, paths=paths)) == []


# ---- the generated family ----------------------------------------------------------------
def _judged(text: str, cf_url: str) -> list[str]:
    note(text)
    scenario = parse_scenario(text, "<generated>")
    actions = {f.action for f in scenario.faults}
    ties = ((KILL_WAKES_TWICE,) if "kill" in actions else ()) + (
        (CUT_OFF_RETRY_TOGETHER,) if "cf_unavailable" in actions else ()
    )
    return judge(play_paths(scenario, cf_url), ties)


# In ./dev test a failing example is reported as found (the scenario's text, noted):
# shrinking one takes minutes; the slow test shrinks.
@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
)
@given(text=small_scenarios())
def test_small_generated_scenarios_come_out_the_same_on_every_path(text: str, cf_url: str) -> None:
    assert _judged(text, cf_url) == []


@pytest.mark.slow
@settings(max_examples=sized(50, 120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=small_scenarios())
def test_many_small_generated_scenarios_come_out_the_same_on_every_path(
    text: str, cf_url: str
) -> None:
    assert _judged(text, cf_url) == []


@pytest.mark.slow
@settings(max_examples=sized(20, 40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=small_scenarios(limits=True))
def test_generated_scenarios_at_a_structures_limits_come_out_the_same_on_every_path(
    text: str, cf_url: str
) -> None:
    assert _judged(text, cf_url) == []


#: The issue's structure: SIZE 64 KB holds 64 messages; 1 KB messages, nothing gets them.
NEAR_FULL = """
description = "a 64 KB structure filled"
[run]
duration = 40
seed = 3
[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = "DEFINE QLOCAL(APP.ORDERS) QSGDISP(SHARED) CFSTRUCT(SMALL) MAXDEPTH(999999)"
[qsg.QSG1.structures.SMALL]
size_kb = 64
cflevel = 5
[[workload]]
name = "orders"
type = "putter"
qmgr = "QM1"
queue = "APP.ORDERS"
rate = 4
size = 1024
[[workload]]
name = "few"
type = "getter"
qmgr = "QM2"
queue = "APP.ORDERS"
start = 30.5
stop = 35.5
"""


def test_a_structure_filled_to_its_size_refuses_the_same_puts_with_2192_on_every_path(
    cf_url: str,
) -> None:
    # "2192 (0890) (RC2192): MQRC_STORAGE_MEDIUM_FULL": "a coupling-facility structure is
    # full". The server refuses the 65th message; in process it must too.
    runs = play_paths(parse_scenario(NEAR_FULL, "<near full>"), cf_url)
    refused = [
        e
        for e in runs[SERVER_CLOCK].events
        if isinstance(e, ApplicationError) and e.reason == CMQC.MQRC_STORAGE_MEDIUM_FULL
    ]
    assert refused  # the structure did fill on the server
    assert judge(runs) == []


# ---- what the differential test found ------------------------------------------------------
#: Every member loses the coupling facility for 5 s (cf_unavailable with no qmgr).
EVERYONE_CUT_OFF = """
description = "the coupling facility unreachable from every member"
[run]
duration = 30
seed = 5
[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = "DEFINE QLOCAL(APP.WORK) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(999999)"
[qsg.QSG1.structures.APP1]
[[workload]]
name = "in"
type = "putter"
qmgr = "QM1"
queue = "APP.WORK"
rate = 5
[[workload]]
name = "out"
type = "getter"
qmgr = "QM2"
queue = "APP.WORK"
service = { dist = "exponential", mean = 0.1 }
[[fault]]
at = 10.31
action = "cf_unavailable"
duration = 5
"""


@keeps(
    "docs/coupling-facility.md",
    "A `cf_unavailable` of every member is that failure from the instant it begins, whether the "
    "shared queues are on a server or in process",
)
def test_a_coupling_facility_cut_off_from_every_member_is_one_scheduled_failure_on_every_path(
    cf_url: str,
) -> None:
    # docs/coupling-facility.md, "What the run says": "Every failure of the facility is one
    # cf-failure event ... scheduled, true when a fault of the scenario explains it
    # (cf_fail not yet restarted, cf_unavailable)". On the server the first call that met
    # the cut made one; in process there was none, and the summary's cf_failures said 0.
    runs = play_paths(parse_scenario(EVERYONE_CUT_OFF, "<cut off>"), cf_url)
    for played in runs.values():
        (failure,) = [e for e in played.events if isinstance(e, CFFailed)]
        assert failure.scheduled and failure.reason == CMQC.MQRC_CF_STRUC_FAILED
        (cut,) = [
            e
            for e in played.events
            if isinstance(e, FaultInjected) and e.action == "cf_unavailable"
        ]
        assert failure.time == cut.time  # the failure begins with the fault
        assert played.result.summary.totals["cf_failures"] == 1
    assert judge(runs) == []


# ---- the test's own teeth ------------------------------------------------------------------
#: One member, a shared and a private queue, units of work, expiry and a pause: nothing
#: simultaneous, every path must agree to the event.
PLAIN = """
description = "a plain scenario"
[run]
duration = 20
seed = 9
sample_interval = 1.37
[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = "DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(999999)"
[qsg.QSG1.structures.APP1]
[qmgr.QM1]
expryint = 3
mqsc = "DEFINE QLOCAL(APP.LOCAL) MAXDEPTH(999999)"
[qmgr.QM2]
[[workload]]
name = "in"
type = "putter"
qmgr = "QM1"
queue = "APP.SHARED"
rate = 6
syncpoint = 3
expiry = 15
start = 0.11
stop = 18.3
[[workload]]
name = "out"
type = "getter"
qmgr = "QM2"
queue = "APP.SHARED"
service = { dist = "exponential", mean = 0.2 }
start = 0.12
stop = 18.4
[[workload]]
name = "local"
type = "putter"
qmgr = "QM1"
queue = "APP.LOCAL"
rate = 2
expiry = 20
start = 0.13
stop = 18.5
[[fault]]
at = 6.31
action = "pause"
qmgr = "QM2"
duration = 2.47
"""


def test_a_rule_broken_on_one_store_is_a_difference_the_test_names(
    cf_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The in-process store's expiry scan finds nothing to discard (the server's Lua scan
    # still does): the test must say so, by the aspects a user would see it in.
    plain = parse_scenario(PLAIN, "<plain>")
    assert judge(play_paths(plain, cf_url, paths=(IN_PROCESS_CLOCK, SERVER_CLOCK))) == []
    monkeypatch.setattr(MemoryStore, "scan", lambda self, queue, now, fence=None: [])
    found = judge(play_paths(plain, cf_url, paths=(IN_PROCESS_CLOCK, SERVER_CLOCK)))
    assert any(
        line.startswith("in process, clock-driven / on the server, clock-driven: queues:")
        for line in found
    )
    assert any("the first difference is event" in line for line in found)


def test_a_step_the_clock_makes_differently_from_the_task_is_a_difference_the_test_names(
    cf_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The clock's service times run a millisecond long (a driven application's delay
    # armed late): the tasks' run does not, and the test must see it.
    plain = parse_scenario(PLAIN, "<plain>")
    paths = (IN_PROCESS_CLOCK, IN_PROCESS_TASKS)
    assert judge(play_paths(plain, cf_url, paths=paths)) == []
    at = drive.Drive._at
    monkeypatch.setattr(drive.Drive, "_at", lambda self, when: at(self, when + 0.001))
    found = judge(play_paths(plain, cf_url, paths=paths))
    assert any("latency:" in line for line in found)
    assert any("instant" in line for line in found)


#: QM2 puts to a queue nothing gets from, while QM1 is paused for 10 s.
PAUSED_NEIGHBOUR = """
description = "one member paused, the other's queue filling"
[run]
duration = 20
seed = 2
[qmgr.QM1]
mqsc = "DEFINE QLOCAL(APP.IDLE)"
[qmgr.QM2]
mqsc = "DEFINE QLOCAL(APP.FILLING) MAXDEPTH(999999)"
[[workload]]
name = "filler"
type = "putter"
qmgr = "QM2"
queue = "APP.FILLING"
rate = 10
[[fault]]
at = 4.31
action = "pause"
qmgr = "QM1"
duration = 10
"""


def test_a_paused_member_holds_back_no_depth_sample_of_the_others(cf_url: str) -> None:
    # A paused queue manager answers nothing ("every call it would run waits"): the depth
    # sampler waited for it, so every member's samples during the pause were one sample,
    # read at the resume under the time the sample began (out of time order in the event
    # log, and, with calls resumed at that instant, a depth that depended on which ran
    # first). Like a killed member, a paused one is left out of the samples it cannot
    # answer; the others are sampled at their times.
    runs = play_paths(parse_scenario(PAUSED_NEIGHBOUR, "<paused>"), cf_url)
    for played in runs.values():
        events = played.events
        assert all(a.time <= b.time for a, b in itertools.pairwise(events))
        filling = [e for e in events if isinstance(e, DepthSampled) and e.queue == "APP.FILLING"]
        assert [e.time for e in filling if 4 < e.time < 15] == [
            5.0,
            6.0,
            7.0,
            8.0,
            9.0,
            10.0,
            11.0,
            12.0,
            13.0,
            14.0,
        ]
        idle = [e.time for e in events if isinstance(e, DepthSampled) and e.queue == "APP.IDLE"]
        assert not [t for t in idle if 4.31 < t < 14.31]
    assert judge(runs) == []


#: QM1 holds the expiry-scan lease (10 s: twice EXPRYINT) and its lease clock runs 12 s
#: behind from 12.31 s to 22.31 s; messages expire after 2 s, and nothing gets them.
SKEWED_SCANNER = """
description = "the scan lease holder's clock behind by more than its lease"
[run]
duration = 30
seed = 4
[qsg.QSG1]
members = ["QM1"]
mqsc = "DEFINE QLOCAL(APP.AUDIT) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(999999)"
[qsg.QSG1.structures.APP1]
[qmgr.QM1]
expryint = 5
[[workload]]
name = "audit"
type = "putter"
qmgr = "QM1"
queue = "APP.AUDIT"
rate = 3
expiry = 20
[[fault]]
at = 12.31
action = "skew"
qmgr = "QM1"
amount = -12
duration = 10
"""


@keeps(
    "docs/scenarios.md",
    "the member's clock runs `amount` seconds off for its lease: it renews, judges its "
    "own grant and fences its scans by it (message times stay the sysplex's)",
)
def test_a_member_whose_lease_clock_runs_behind_fences_its_scans_by_it_on_every_path(
    cf_url: str,
) -> None:
    # docs/scenarios.md, skew: "the member's clock runs amount seconds off for its lease:
    # it renews, judges its own grant and fences its scans by it (message times stay the
    # sysplex's)". In process the scan's fence was judged by the member's clock; on the
    # server the scan script judged it again by the sysplex's, and refused the scans of a
    # holder whose renewal, by its own clock, ran out before the sysplex's now.
    runs = play_paths(parse_scenario(SKEWED_SCANNER, "<skewed>"), cf_url)
    for played in runs.values():
        scans = [
            e.time for e in played.events if isinstance(e, ExpiryScanned) and e.shared and e.token
        ]
        assert [t for t in scans if 12.31 < t < 22.31] == [15.0, 20.0]
    assert judge(runs) == []


#: QM2 is killed, the facility is cut off from every member, and QM2's restart comes
#: while it still is: the restart (its peer recovery needs the facility) is refused.
RESTART_CUT_OFF = """
description = "a restart while the coupling facility is cut off from every member"
[run]
duration = 12
seed = 6
[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = "DEFINE QLOCAL(APP.WORK) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(999999)"
[qsg.QSG1.structures.APP1]
[[workload]]
name = "in"
type = "putter"
qmgr = "QM1"
queue = "APP.WORK"
rate = 4
[[fault]]
at = 2.41
action = "kill"
qmgr = "QM2"
duration = 3.47
[[fault]]
at = 3.31
action = "cf_unavailable"
duration = 4.47
expected = true
"""


def test_a_fault_refused_for_want_of_the_facility_says_why_in_the_same_words_on_every_path(
    cf_url: str,
) -> None:
    # A refused fault's detail is what qsg run prints and the Faults table shows. The
    # restart refused while every member is cut off said "the coupling facility is
    # unavailable" in process and "the CF of QSG QSG1 is unreachable: the coupling
    # facility is unavailable" on the server.
    runs = play_paths(parse_scenario(RESTART_CUT_OFF, "<restart cut off>"), cf_url)
    for played in runs.values():
        (restart,) = [
            e for e in played.events if isinstance(e, FaultInjected) and e.action == "restart"
        ]
        assert restart.refused
        assert restart.detail.endswith(
            "(2373): the CF of QSG QSG1 is unreachable: the coupling facility is unavailable"
        )
    assert judge(runs) == []


#: QM1 loses its link at 3.41 s; the facility is cut off from everyone at 4.31 s, while
#: QM1's own outage ends at 4.88 s, and everyone's at 5.78 s.
OUTAGES_OVERLAP = """
description = "one member's outage ends inside everyone's"
[run]
duration = 10
seed = 8
[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = "DEFINE QLOCAL(APP.WORK) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(999999)"
[qsg.QSG1.structures.APP1]
[[workload]]
name = "in"
type = "putter"
qmgr = "QM2"
queue = "APP.WORK"
rate = 6
[[workload]]
name = "out"
type = "getter"
qmgr = "QM1"
queue = "APP.WORK"
service = { dist = "exponential", mean = 0.05 }
[[fault]]
at = 3.41
action = "cf_unavailable"
qmgr = "QM1"
duration = 1.47
[[fault]]
at = 4.31
action = "cf_unavailable"
duration = 1.47
"""


def test_one_members_outage_ending_inside_everyones_does_not_end_the_facilitys_failure(
    cf_url: str,
) -> None:
    # "Every failure of the facility is one cf-failure event" (docs/coupling-facility.md).
    # QM1's link coming back ended the failure's record while every member was still cut
    # off, so on the server the next call made it a second failure (cf_failures 2); in
    # process there was one.
    runs = play_paths(parse_scenario(OUTAGES_OVERLAP, "<overlap>"), cf_url)
    for played in runs.values():
        assert [e.time for e in played.events if isinstance(e, CFFailed)] == [4.31]
        assert played.result.summary.totals["cf_failures"] == 1
    assert judge(runs) == []
