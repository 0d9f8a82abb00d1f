"""Playing a scenario: its world started, its applications and faults run for its
duration, depths sampled, progress reported, and the events summarised at the end.

``play`` is async (inside ``qsg.run``); ``run_scenario`` is the whole thing from a
synchronous caller (the ``qsg run`` command), in virtual time unless the scenario asks
for the wall clock. A scenario may also be a Python script (``load_script``): it defines
``topology`` and ``async def main(world)``, and optionally ``DURATION``, ``SEED``,
``IN_PROCESS``; ``main`` runs in the started world instead of workloads and faults.
"""

from __future__ import annotations

import contextlib
import math
import runpy
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import trio

from actors import admin, clock
from actors.events import (
    CFFailed,
    CommandRun,
    DepthSampled,
    EventLog,
    FaultInjected,
    WorldEvent,
    kind_of,
)
from actors.facility import failure_line
from actors.faults import OnRefused, play_faults
from actors.history import FinalState
from actors.topology import Topology
from actors.workload import run_workloads
from actors.world import World, open_world
from qsg.core.errors import MQMIError
from qsg.core.repository import Repository
from qsg.scenario.errors import ScenarioError, ScenarioProblem
from qsg.scenario.model import AtCommand, Fault, RunSettings, Scenario
from qsg.scenario.summary import Scopes, Summary, summarise


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a run is: simulated ``now`` of ``duration``, and counts of events so far."""

    now: float
    duration: float
    counts: dict[str, int]


@dataclass(slots=True)
class ScriptScenario:
    """A scenario written in Python against the public API."""

    path: Path
    description: str
    run: RunSettings
    topology: Topology
    main: Callable[[World], Awaitable[Any]]
    text: str = ""


@dataclass(slots=True)
class RunResult:
    """What a run leaves: its events, which queues were shared, and the summary."""

    scenario: Scenario | ScriptScenario
    seed: int
    events: list[WorldEvent]
    scopes: Scopes
    summary: Summary
    wall_seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    #: The coupling facility's failures that no fault of the scenario scheduled.
    cf_failures: list[CFFailed] = field(default_factory=list)
    #: Faults the world refused that the scenario did not mark ``expected``: the run
    #: did not do what its file says (``qsg run`` exits 1).
    refused: list[FaultInjected] = field(default_factory=list)
    #: ``[run] warmup``: its seconds and the event time it ends at (None: no warm-up).
    warmup: tuple[float, float] | None = None
    #: The event time the run started at (its time 0: faults' ``at`` count from it).
    start: float = 0.0
    #: What the queues held at the end, for a run that kept a history (the chaos
    #: checkers judge loss by it: ``actors.history.FinalState``).
    final: FinalState | None = None

    def failure(self) -> str | None:
        """Why the run is not a success though it ran to its end, in one line (None if
        it is one): its coupling facility failed and no fault was scheduled."""
        return failure_line(self.cf_failures)


def load_script(path: str | Path) -> ScriptScenario:
    """A Python scenario: the script is run as a module (not as ``__main__``)."""
    path = Path(path)
    try:
        namespace = runpy.run_path(str(path), run_name="qsg_scenario")
    except Exception as error:  # the script's own failure: name it, with its place
        raise ScenarioError(
            [ScenarioProblem(str(path), 1, "", f"the script failed: {error!r}")]
        ) from error
    problems = []
    topology = namespace.get("topology")
    if callable(topology):
        topology = topology()
    if not isinstance(topology, Topology):
        problems.append("it defines no 'topology' (a qsg.Topology, or a function making one)")
    main = namespace.get("main")
    if not callable(main):
        problems.append("it defines no 'async def main(world)'")
    duration = namespace.get("DURATION", 0.0)
    if problems:
        raise ScenarioError([ScenarioProblem(str(path), 1, "", p) for p in problems])
    assert isinstance(topology, Topology)
    assert main is not None
    run = RunSettings(
        float(duration),
        int(namespace.get("SEED", 0)),
        in_process=bool(namespace.get("IN_PROCESS", False)),
    )
    description = (namespace.get("__doc__") or "").strip()
    return ScriptScenario(path, description, run, topology, main, path.read_text("utf-8"))


async def play(
    scenario: Scenario | ScriptScenario,
    *,
    redis_url: str | None = None,
    seed: int | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    progress_every: float | None = None,
    history: bool = False,
    epilogue: Callable[[World], Awaitable[None]] | None = None,
    program: Callable[[World], Awaitable[None]] | None = None,
    events: EventLog | None = None,
    on_refused: OnRefused | None = None,
    console: tuple[float, Callable[[World], Awaitable[None]]] | None = None,
) -> RunResult:
    """Play ``scenario`` (inside ``qsg.run``) and summarise it; ``seed`` overrides its own.

    ``history``: the applications record every operation (invoke and completion),
    and what the queues hold at the end is read (``RunResult.final``);
    ``epilogue`` runs in the world once the scenario's duration is over (a chaos run's
    heal, quiet period and drain). ``program`` runs alongside the scenario (``qsg
    exec``'s program): the run ends when it returns, or at the duration, when it is
    cancelled. ``events`` is the log to use (a caller that must keep the events of a run
    that fails passes its own: ``qsg.scenario.recording``); ``on_refused`` hears of each fault the
    world refuses, when it does. ``console``: (seconds, coroutine) runs the
    coroutine at that simulated second of the run (``qsg mqsc`` keeps it within the
    duration), and the run ends when it returns (``qsg mqsc``)."""
    run = scenario.run
    refused: list[FaultInjected] = []

    def refused_fault(event: FaultInjected, fault: Fault) -> None:
        if not fault.expected:
            refused.append(event)
        if on_refused is not None:
            on_refused(event, fault)

    seed = run.seed if seed is None else seed
    topology = scenario.topology
    began = time.perf_counter()
    faults = bool(getattr(scenario, "faults", ()))
    async with open_world(
        topology,
        redis_url=redis_url,
        seed=seed,
        in_process=run.in_process,
        faults=faults,
        history=history,
        cf_persistent=run.cf_persistent,
        events=events,
    ) as world:
        start = trio.current_time()
        for qm in world.qmgrs.values():  # the statistics' first interval starts here
            qm.statistics.take(start, qm.name, world.costs.cpus)
        duration = run.duration
        every = progress_every or (duration / 200 if duration else 1.0)
        tally = _Tally(world)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_sample_depths, world, run.sample_interval)
            if on_progress is not None:
                nursery.start_soon(_report, tally, start, duration, every, on_progress)
            with trio.CancelScope() as body:
                done = trio.Event()
                if console is not None:
                    nursery.start_soon(_console, world, start + console[0], console[1], body, done)
                if isinstance(scenario, Scenario) and scenario.commands:
                    nursery.start_soon(run_commands, world, scenario.commands, start)
                await _body(world, scenario, start, duration, program, refused_fault)
                if console is not None:
                    await done.wait()
            if epilogue is not None:
                await epilogue(world)
            # The last sample is of the end state: taken once simulated time has moved
            # past the end, so that whatever was due at the end instant (another
            # member's expiry scan, say) has happened, its reply from the facility in.
            end = trio.current_time()
            await trio.sleep_until(math.nextafter(end, math.inf))
            await _sample_once(world, end)
            final = world.final_state() if history else None
            nursery.cancel_scope.cancel()
        if on_progress is not None:
            elapsed = trio.current_time() - start
            on_progress(Progress(elapsed, duration or elapsed, tally.counts()))
        scopes = _scopes(world)
        happened = list(world.events.history)
        failures = world.watch.unscheduled
    summary = summarise(happened, scopes, since=start + run.warmup, warmup=run.warmup)
    wall = time.perf_counter() - began
    return RunResult(
        scenario,
        seed,
        happened,
        scopes,
        summary,
        wall,
        cf_failures=failures,
        refused=refused,
        warmup=(run.warmup, start + run.warmup) if run.warmup else None,
        start=start,
        final=final,
    )


async def _alongside(
    program: Callable[[World], Awaitable[None]] | None,
    world: World,
    beside: Callable[[World], Awaitable[Any]],
) -> None:
    """``beside(world)``; with a program, until the program returns (``beside`` is
    then cancelled, if it still runs)."""
    if program is None:
        await beside(world)
        return
    async with trio.open_nursery() as nursery:
        nursery.start_soon(beside, world)
        await program(world)
        nursery.cancel_scope.cancel()


async def _body(
    world: World,
    scenario: Scenario | ScriptScenario,
    start: float,
    duration: float,
    program: Callable[[World], Awaitable[None]] | None,
    on_refused: OnRefused,
) -> None:
    if isinstance(scenario, ScriptScenario):
        with trio.move_on_at(start + duration) if duration else contextlib.nullcontext():
            await _alongside(program, world, scenario.main)
        return
    # The applications stop by themselves at their stop (committing what they hold);
    # faults, and their undoing, end with the run.
    async with trio.open_nursery() as inner:
        end = start + duration
        inner.start_soon(run_workloads, world, scenario.workloads, start, end)
        with trio.move_on_at(start + duration):
            if program is None:
                await play_faults(world, scenario.faults, start, on_refused)
                await trio.sleep_until(start + duration)
            else:
                await _alongside(
                    program,
                    world,
                    partial(
                        play_faults, faults=scenario.faults, origin=start, on_refused=on_refused
                    ),
                )
        if program is not None:
            inner.cancel_scope.cancel()  # the program's end is the run's


async def _console(
    world: World,
    at: float,
    console: Callable[[World], Awaitable[None]],
    body: trio.CancelScope,
    done: trio.Event,
) -> None:
    """Run ``console`` at simulated time ``at`` (once everything else due then has
    run), then end the run's body."""
    await clock.sleep_until(at, late=True)
    try:
        await console(world)
    finally:
        done.set()
        body.cancel()


async def run_commands(world: World, commands: tuple[AtCommand, ...], start: float) -> None:
    """``[[at]]``: each MQSC command at its time, its reply into the event log."""
    for entry in sorted(commands, key=lambda c: c.at):
        await clock.sleep_until(start + entry.at, late=True)  # it sees what happened then
        reply = await admin.command(world, entry.qmgr, entry.mqsc)
        world.events.emit(
            CommandRun(trio.current_time(), entry.qmgr, entry.mqsc, reply.text, not reply.failed)
        )


def run_scenario(
    scenario: Scenario | ScriptScenario,
    *,
    redis_url: str | None = None,
    seed: int | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    program: Callable[[World], Awaitable[None]] | None = None,
    events: EventLog | None = None,
    on_refused: OnRefused | None = None,
    console: tuple[float, Callable[[World], Awaitable[None]]] | None = None,
) -> RunResult:
    """``play`` from synchronous code, on the clock the scenario asks for."""
    from actors.runtime import run as run_trio

    async def main() -> RunResult:
        return await play(
            scenario,
            redis_url=redis_url,
            seed=seed,
            on_progress=on_progress,
            program=program,
            events=events,
            on_refused=on_refused,
            console=console,
        )

    return run_trio(main, wall_clock=scenario.run.clock == "wall")


class _Tally:
    """Counts of events by kind, kept up as the history grows (read when reporting)."""

    def __init__(self, world: World) -> None:
        self.history = world.events.history
        self.seen = 0
        self.totals: Counter[str] = Counter()

    def counts(self) -> dict[str, int]:
        history = self.history
        for event in history[self.seen :]:
            self.totals[kind_of(event)] += 1
        self.seen = len(history)
        return dict(self.totals)


async def _report(
    tally: _Tally,
    start: float,
    duration: float,
    every: float,
    on_progress: Callable[[Progress], None],
) -> None:
    while True:
        on_progress(Progress(trio.current_time() - start, duration, tally.counts()))
        await trio.sleep(every)


async def _sample_depths(world: World, interval: float) -> None:
    """CURDEPTH of every application queue every ``interval`` simulated seconds."""
    while True:
        await _sample_once(world)
        await trio.sleep(interval)


async def _sample_once(world: World, now: float | None = None) -> None:
    """A DepthSampled event per application queue, at ``now`` (the current time)."""
    now = trio.current_time() if now is None else now
    for qm in list(world.qmgrs.values()):  # every member's interval, up or down
        world.events.emit(qm.statistics.take(now, qm.name, world.costs.cpus))
    sampled: set[str] = set()
    for qm in list(world.qmgrs.values()):
        # A down or paused member answers nothing (a paused one's calls wait): its own
        # queues go unsampled until it is back, and its QSG's shared queues are sampled
        # by the next member up. (Waiting on it stalled every queue's sampling.)
        if not qm.alive or qm.paused is not None:
            continue
        repos = [(qm.rules.local, False)]
        group = qm.rules.qsg
        if group is not None and group.name not in sampled:
            sampled.add(group.name)
            repos.append((group.shared, True))
        for repo, shared in repos:
            names = [n for n in repo.status if application_queue(n)]

            def depths(now: float, repo: Any = repo, names: list[str] = names) -> list[int]:
                return [repo.store.depth(n) for n in names]

            try:
                found = await qm.dispatch(depths, system=True)
            except MQMIError:  # the coupling facility is unreachable: no sample this time
                continue
            for name, depth in zip(names, found, strict=True):
                world.events.emit(DepthSampled(now, qm.name, name, depth, shared))


def application_queue(name: str, dlq: str | None = "SYSTEM.DEAD.LETTER.QUEUE") -> bool:
    """Application queues and the dead-letter queue ``dlq``; not MQ's other SYSTEM
    queues (what a run samples and a chaos run drains)."""
    return not name.startswith("SYSTEM.") or name == dlq


def _scopes(world: World) -> Scopes:
    members = {name: qm.rules.qsg_name for name, qm in world.qmgrs.items() if qm.rules.qsg}
    shared = {name: sorted(group.shared.queues) for name, group in world.qsgs.items()}
    cf = {name: structures(group.shared) for name, group in world.qsgs.items()}
    return Scopes(members, shared, cf)


def structures(shared: Repository) -> dict[str, dict[str, Any]]:
    """A QSG's CF structures: SIZE, the offload rules applied and the shared queues in
    each (for ``Scopes``)."""
    out: dict[str, dict[str, Any]] = {
        name: {"size_kb": s.size_kb, "rules": [list(r) for r in s.offload_rules], "queues": []}
        for name, s in sorted(shared.structures.items())
    }
    for name, obj in sorted(shared.queues.items()):
        structure = getattr(obj, "cf_struct", "")
        if structure in out:
            out[structure]["queues"].append(name)
    return out


__all__ = [
    "Progress",
    "RunResult",
    "ScriptScenario",
    "application_queue",
    "load_script",
    "play",
    "run_commands",
    "run_scenario",
    "structures",
]
