"""One scenario played on every path, and what the paths must agree on (issue 42).

A scenario can take four paths through qsg, the same MQ program scheduled differently:

- its shared queues **in process** (``[run] in_process = true``: ``MemoryStore``) or on
  the **coupling facility's server** (the suite's embedded Valkey: ``RedisStore`` and
  the Lua scripts);
- its built-in putters and getters **driven by the clock** while nothing can make their
  calls wait (``actors.drive``, the default), or run by **their tasks alone** (no kind
  of application driven: ``drive.KINDS`` empty, as ``tests/test_driven_applications.py``
  forces it).

``play_on`` plays a scenario on one path, keeping its events, its summary and the end
state its stores hold (``end_state``). Two comparisons judge the paths:

- **The events** (``same_events``): the event streams, record for record. In process
  and on the server, under the same driving, the calls are made in the same order, so
  the streams are equal in order. The clock and the tasks may order the records of one
  simulated instant differently (which of two things due at one instant goes first is
  a scheduling choice, deterministic either way: docs/speed.md), so there each
  instant's records are compared as a set, in a fixed order; and the queue managers'
  statistics records are compared as each member's totals (``outcome``'s ``calls``),
  since an MQI call made at a sampling instant is counted in the interval before or
  after it by that same choice.
- **The MQ outcome** (``outcome``): what a user reads of a run, aspect by aspect:
  per queue the messages put, got, expired (by scan and by get), reports, dead-lettered
  and errors by reason code, and the peak depth; per queue manager and per workload the
  same; MQI calls by verb; latencies; what each fault did (``FaultInjected`` and the
  kills, restarts, peer recoveries and facility failures it caused); lease holders;
  CF structure usage, peak and at the end, and apart from it its trend (fill rate, time
  to full: ``structure trends``); channels, requesters, commands; and the
  depth, uncommitted messages and structure usage the stores hold at the end.

Where a scenario has simultaneous events whose order changes what happens after them
(two getters woken together race for one message), the clock and the tasks are compared
on the outcome, leaving out only the aspects that such a race decides (``Tie``: why, and
which aspects; whether the events still agree instant by instant). The stores are never
excused: in process and on the server, each way of driving, must agree to the event.

Every run is on the virtual clock (a scenario that asks for the wall clock is played on
the virtual one: on the wall clock a run does not repeat), and paths that are the same
code are played once (``play_paths``).
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

import pytest

from actors import drive
from actors.events import (
    ApplicationError,
    CFFailed,
    CFRecovered,
    FaultInjected,
    PeerRecovered,
    QMgrKilled,
    QMgrRestarted,
    QMgrStatistics,
    WorldEvent,
)
from actors.program import Next, Program
from actors.runtime import run as run_trio
from actors.statistics import VERBS
from actors.world import World
from qsg.core.errors import MQMIError
from qsg.core.events import Discarded
from qsg.scenario.model import Scenario
from qsg.scenario.play import RunResult, application_queue, play


@dataclass(frozen=True, slots=True)
class Path:
    """A way through qsg: shared queues in process or on the server; applications
    driven by the clock where it can, or by their tasks alone."""

    in_process: bool
    clock: bool

    @property
    def name(self) -> str:
        store = "in process" if self.in_process else "on the server"
        return f"{store}, {'clock-driven' if self.clock else 'task-driven'}"


IN_PROCESS_CLOCK = Path(in_process=True, clock=True)
IN_PROCESS_TASKS = Path(in_process=True, clock=False)
SERVER_CLOCK = Path(in_process=False, clock=True)
SERVER_TASKS = Path(in_process=False, clock=False)
PATHS = (IN_PROCESS_CLOCK, IN_PROCESS_TASKS, SERVER_CLOCK, SERVER_TASKS)


@dataclass(slots=True)
class Played:
    """A scenario's run on one path."""

    path: Path
    result: RunResult
    #: What the stores hold at the end (``end_state``).
    end: dict[str, Any]
    #: Stretches of the run the clock drove an application (0: the clock drove none,
    #: and the run is the task-driven one, call for call).
    stretches: int
    wall: float

    @property
    def events(self) -> list[WorldEvent]:
        return self.result.events


@contextmanager
def driving(clock: bool) -> Iterator[list[int]]:
    """Applications driven by the clock where it can (``clock``) or by their tasks alone;
    yields a one-item list that counts the stretches the clock drove."""
    stretches = [0]
    drive_from = drive.Drive.drive

    async def counted(self: drive.Drive, program: Program[Any], step: Next) -> drive.Drive:
        stretches[0] += 1
        return await drive_from(self, program, step)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(drive.Drive, "drive", counted)
        if not clock:
            patch.setattr(drive, "KINDS", frozenset())  # no kind is driven: tasks alone
        yield stretches


def play_on(scenario: Scenario, path: Path, cf_url: str, seed: int | None = None) -> Played:
    """``scenario`` played on ``path`` under the virtual clock (the server's path on the
    suite's server at ``cf_url``), with ``seed`` (None: its own)."""
    run = dataclasses.replace(scenario.run, in_process=path.in_process, clock="virtual")
    scenario = dataclasses.replace(scenario, run=run)
    end: dict[str, Any] = {}

    async def keep_end_state(world: World) -> None:
        end.update(await end_state(world))

    async def main() -> RunResult:
        return await play(
            scenario,
            redis_url=None if path.in_process else cf_url,
            seed=seed,
            epilogue=keep_end_state,
        )

    began = time.perf_counter()
    with driving(path.clock) as stretches:
        result = run_trio(main)
    return Played(path, result, end, stretches[0], time.perf_counter() - began)


async def end_state(world: World) -> dict[str, Any]:
    """Each application queue's depth and uncommitted messages and each CF structure's
    usage, as the stores hold them when the scenario's duration is over (read through a
    queue manager that is up and reaches its store; a store none reaches says so)."""
    state: dict[str, Any] = {}
    for name, qm in sorted(world.qmgrs.items()):
        repos = [(name, qm.rules.local)]
        group = qm.rules.qsg
        if group is not None and not isinstance(state.get(group.name), dict):
            repos.append((group.name, group.shared))
        for scope, repo in repos:
            if not qm.alive or qm.paused is not None:  # (a paused one's calls would wait)
                state.setdefault(scope, f"{name} is {'down' if not qm.alive else 'paused'}")
                continue

            def read(now: float, repo: Any = repo) -> dict[str, Any]:
                store = repo.store
                queues = {
                    q: (store.depth(q), store.uncommitted(q))
                    for q in sorted(repo.status)
                    if application_queue(q)
                }
                usage = {s: store.structure_usage(s) for s in sorted(repo.structures)}
                return {"queues": queues, "structures": usage}

            try:
                state[scope] = await qm.dispatch(read, system=True)
            except MQMIError as error:
                state.setdefault(scope, f"unreachable from {name}: {error.reason}")
    return state


# ---- the outcome ------------------------------------------------------------------------
#: The aspects of ``outcome``, each compared as a whole.
ASPECTS = (
    "queues",
    "latency",
    "members",
    "calls",
    "applications",
    "faults",
    "leases",
    "lease holders",
    "structures",
    "structure trends",
    "channels",
    "requesters",
    "commands",
    "totals",
    "end",
)
_QUEUE = ("put", "got", "expired", "reports", "dead_lettered", "errors", "peak_depth")
_MEMBER = (*_QUEUE[:-1], "peak_local_depth")
_LATENCY = ("latency_mean", "latency_p50", "latency_p99")
#: A structure's trend, fitted to its usage samples (``qsg.scenario.sizing``).
_TREND = ("fill_rate", "time_to_full", "time_to_full_at", "full_at")
#: What a fault did: the records of each fault and of the failures and recoveries it
#: caused.
_FAULT_RECORDS = (FaultInjected, QMgrKilled, QMgrRestarted, PeerRecovered, CFFailed, CFRecovered)


def outcome(played: Played) -> dict[str, Any]:
    """The MQ outcome of a run, by aspect (``ASPECTS``; the module docstring)."""
    s = played.result.summary
    events = played.events
    expired_by: Counter[tuple[str, str, str]] = Counter()
    scope = played.result.scopes.scope
    for e in events:
        if isinstance(e, Discarded):
            expired_by[scope(e.q_mgr, e.queue), e.queue, e.by] += 1
    queues = {
        f"{r['scope']}/{r['queue']}": {
            **{k: r[k] for k in _QUEUE},
            "error_reasons": _reasons(r["error_reasons"]),
        }
        for r in s.queues
    }
    for (where, queue, by), count in expired_by.items():
        queues.setdefault(f"{where}/{queue}", {})[f"expired_by_{by}"] = count
    calls: dict[str, Counter[str]] = {}
    for e in events:
        if isinstance(e, QMgrStatistics):
            made = calls.setdefault(e.q_mgr, Counter())
            for verb in (*VERBS, "cf_accesses", "smds_writes", "smds_reads", "cpu_seconds"):
                made[verb] += getattr(e, verb)
    return {
        "queues": queues,
        "latency": {
            "queues": {f"{r['scope']}/{r['queue']}": [r[k] for k in _LATENCY] for r in s.queues},
            "members": {r["q_mgr"]: [r[k] for k in _LATENCY] for r in s.qmgrs},
            "classes": {_class(c): [c[k] for k in _LATENCY] for c in s.classes},
            "requesters": {
                r["workload"]: [r["round_trip_p50"], r["round_trip_p99"]] for r in s.requesters
            },
        },
        "members": {
            "qmgrs": {
                r["q_mgr"]: {
                    **{k: r[k] for k in _MEMBER},
                    "error_reasons": _reasons(r["error_reasons"]),
                }
                for r in s.qmgrs
            },
            "classes": {
                _class(c): [c["messages"], c["size_mean"], c["persistent"]] for c in s.classes
            },
        },
        "calls": {name: dict(sorted(made.items())) for name, made in sorted(calls.items())},
        "applications": {
            f"{a['workload']}@{a['q_mgr']}/{a['queue']}": _reasons(a["error_reasons"])
            for a in s.applications
        },
        "faults": [_record(e) for e in events if isinstance(e, _FAULT_RECORDS)],
        "leases": [[lease["time"], lease["role"], lease["token"]] for lease in s.leases],
        "lease holders": [[lease["holder"], lease["previous"]] for lease in s.leases],
        # A structure's peaks, apart from its trend (the fill rate and time to full
        # fitted to its samples), which moves with when each message was got.
        "structures": [{k: v for k, v in r.items() if k not in _TREND} for r in s.structures],
        "structure trends": [{k: r.get(k) for k in _TREND} for r in s.structures],
        "channels": [
            {k: v for k, v in c.items() if k not in ("busy", "busy_seconds")} for c in s.channels
        ],
        "requesters": [
            {k: r[k] for k in ("workload", "requests", "replies", "timeouts")} for r in s.requesters
        ],
        "commands": s.commands,
        "totals": s.totals,
        "end": played.end,
    }


def _reasons(rows: list[dict[str, Any]]) -> dict[int, int]:
    return {row["reason"]: row["count"] for row in rows}


def _class(row: dict[str, Any]) -> str:
    return f"{row['role']}:{row['workload']}@{row['scope']}/{row['queue']}"


def _record(event: WorldEvent) -> tuple[Any, ...]:
    return (type(event).__name__, *(getattr(event, f.name) for f in dataclasses.fields(event)))


# ---- the comparisons -------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Tie:
    """Simultaneous events in a scenario whose order (a scheduling choice: the clock's
    and the tasks' differ) changes what follows: ``why``, and the outcome ``aspects``
    it decides, left out of the clock-versus-tasks comparison (the rest must agree);
    ``events_agree``: the event streams still agree, instant by instant. ``diverges``:
    after it the runs part ways altogether (every application draws from the run's one
    random stream, in the order the calls are made, so a tie that swaps two draws moves
    every later one): the clock and the tasks are then two samples of one system, and
    compared as such (``as_samples``), not aspect by aspect."""

    why: str
    aspects: frozenset[str] = field(default_factory=frozenset)
    events_agree: bool = True
    diverges: bool = False


#: The totals two samples of one system must agree on, and how closely: within 5% of
#: the larger, or 10 messages (a short run's counts are small).
SAMPLED = ("put", "got", "expired", "reports", "dead_lettered", "delivered")
SAMPLE_TOLERANCE = (0.05, 10)


def as_samples(a: Played, b: Played) -> list[str]:
    """How two runs that parted ways after a tie differ as samples of one system: the
    faults must be the same (each fault's time, action, target, and whether the world
    refused it), the reason codes the applications met the same, and each ``SAMPLED``
    total within ``SAMPLE_TOLERANCE``."""
    found = []
    faults = [
        [(e.time, e.action, e.target, e.refused) for e in p.events if isinstance(e, FaultInjected)]
        for p in (a, b)
    ]
    if faults[0] != faults[1]:
        found.append(f"faults: {faults[0]} != {faults[1]}")
    reasons = [{e.reason for e in p.events if isinstance(e, ApplicationError)} for p in (a, b)]
    if reasons[0] != reasons[1]:
        found.append(f"reason codes: {sorted(reasons[0])} != {sorted(reasons[1])}")
    share, least = SAMPLE_TOLERANCE
    totals = [p.result.summary.totals for p in (a, b)]
    for name in SAMPLED:
        ours, theirs = (t.get(name, 0) for t in totals)
        if abs(ours - theirs) > max(least, share * max(ours, theirs)):
            found.append(f"totals: {name}: {ours} != {theirs}, more than {share:.0%} apart")
    return found


def each_instant(events: list[WorldEvent]) -> list[list[str]]:
    """The records of each simulated instant in a fixed order (their reprs sorted), the
    queue managers' statistics left out (``outcome``'s ``calls`` compares their totals).
    (Records are gathered by their time first: one stamped with the instant its work
    began may come after a later instant's, as a paused member's depth sample did.)"""
    kept = sorted((e for e in events if not isinstance(e, QMgrStatistics)), key=_time)
    return [sorted(repr(e) for e in instant) for _, instant in groupby(kept, key=_time)]


def _time(event: WorldEvent) -> float:
    return event.time


def same_events(a: Played, b: Played) -> list[str]:
    """How the event streams of ``a`` and ``b`` differ (none: they agree): in order when
    both ran under the same driving, else instant by instant (the module docstring)."""
    if a.path.clock == b.path.clock:
        ours, theirs = [repr(e) for e in a.events], [repr(e) for e in b.events]
        if ours == theirs:
            return []
        at = next(
            (n for n, (x, y) in enumerate(zip(ours, theirs, strict=False)) if x != y),
            min(len(ours), len(theirs)),
        )
        return [
            f"{len(ours)} and {len(theirs)} events; the first difference is event {at}:",
            f"  {a.path.name}: {ours[at] if at < len(ours) else '(none)'}",
            f"  {b.path.name}: {theirs[at] if at < len(theirs) else '(none)'}",
        ]
    ours_by, theirs_by = each_instant(a.events), each_instant(b.events)
    if ours_by == theirs_by:
        return []
    for n, (x, y) in enumerate(zip(ours_by, theirs_by, strict=False)):
        if x != y:
            only_a = sorted((Counter(x) - Counter(y)).elements())[:3]
            only_b = sorted((Counter(y) - Counter(x)).elements())[:3]
            return [
                f"instant {n} differs; only {a.path.name}: {only_a}",
                f"  only {b.path.name}: {only_b}",
            ]
    return [f"{len(ours_by)} and {len(theirs_by)} instants with events"]


def differences(a: Played, b: Played, leave_out: frozenset[str] = frozenset()) -> list[str]:
    """The aspects of the outcome on which ``a`` and ``b`` differ, but ``leave_out``'s,
    each with its first few differing values."""
    ours, theirs = outcome(a), outcome(b)
    found = []
    for aspect in ASPECTS:
        if aspect in leave_out or ours[aspect] == theirs[aspect]:
            continue
        found.append(f"{aspect}: " + "; ".join(_leaves(ours[aspect], theirs[aspect])[:4]))
    return found


def _leaves(a: Any, b: Any, where: str = "") -> list[str]:
    """Where two nested values differ, as 'key.key: a != b'."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for key in sorted(set(a) | set(b), key=str):
            out += _leaves(a.get(key), b.get(key), f"{where}.{key}" if where else str(key))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        out = []
        for n, (x, y) in enumerate(zip(a, b, strict=True)):
            out += _leaves(x, y, f"{where}[{n}]")
        return out
    if a == b:
        return []
    return [f"{where or '.'}: {a!r} != {b!r}"]


def judge(runs: dict[Path, Played], ties: tuple[Tie, ...] = ()) -> list[str]:
    """Every disagreement among a scenario's runs (a path not in ``runs`` was the same
    code as one that is): in process against on the server, event for event and on the
    whole outcome; the clock against the tasks, event for event (each instant's records
    as a set) unless one of the scenario's ``ties`` says they differ, and on the outcome
    but the aspects the ties decide; or, after a tie that ``diverges``, as two samples
    (``as_samples``)."""
    leave_out = frozenset().union(*(t.aspects for t in ties))
    instants = all(t.events_agree for t in ties)
    diverge = any(t.diverges for t in ties)
    found: list[str] = []
    pairs: list[tuple[Path, Path, frozenset[str], bool]] = [
        (IN_PROCESS_CLOCK, SERVER_CLOCK, frozenset(), True),
        (IN_PROCESS_TASKS, SERVER_TASKS, frozenset(), True),
        (IN_PROCESS_CLOCK, IN_PROCESS_TASKS, leave_out, instants),
        (SERVER_CLOCK, SERVER_TASKS, leave_out, instants),
    ]
    for a, b, left_out, events in pairs:
        if a not in runs or b not in runs:
            continue
        if diverge and a.clock != b.clock:
            problems = as_samples(runs[a], runs[b])
        else:
            problems = differences(runs[a], runs[b], left_out)
            if events:
                problems += same_events(runs[a], runs[b])
        found += [f"{a.name} / {b.name}: {p}" for p in problems]
    return found


def play_paths(
    scenario: Scenario,
    cf_url: str,
    seed: int | None = None,
    paths: tuple[Path, ...] = PATHS,
    when: Callable[[Played], None] | None = None,
) -> dict[Path, Played]:
    """``scenario`` on each of ``paths`` that is not the same code as one already played:
    without a QSG the server's paths are the in-process ones (no facility is opened), and
    when the clock drove no application (a model that charges every call, requesters and
    servers only) the task-driven path is the clock's, call for call."""
    runs: dict[Path, Played] = {}
    for path in paths:
        if not path.in_process and not scenario.topology.qsgs:
            continue
        clocked = runs.get(dataclasses.replace(path, clock=True))
        if not path.clock and clocked is not None and clocked.stretches == 0:
            continue
        runs[path] = played = play_on(scenario, path, cf_url, seed)
        if when is not None:
            when(played)
    return runs


__all__ = [
    "ASPECTS",
    "IN_PROCESS_CLOCK",
    "IN_PROCESS_TASKS",
    "PATHS",
    "SERVER_CLOCK",
    "SERVER_TASKS",
    "Path",
    "Played",
    "Tie",
    "differences",
    "driving",
    "end_state",
    "judge",
    "outcome",
    "play_on",
    "play_paths",
    "same_events",
]
