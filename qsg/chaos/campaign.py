"""Chaos campaigns: seeded runs of a scenario under a random nemesis, judged by checkers.

One run: the scenario's applications run for its duration while the nemesis's faults
(``qsg.chaos.nemesis``) land in the first part of it, the *window*; at the window's end
every fault is lifted (the heal), the applications go on until the scenario's end, then
a quiet period lets channels and scans catch up, and a drain reads every queue it can to
empty; what it cannot (a queue in use exclusively, or GET(DISABLED)) stays, and the run's
final state (read from the stores at its end) counts it, so that "lost" is decidable.
The checkers (``qsg.chaos.checkers``) judge the history.

A run is named by its own seed: it draws the faults and seeds the world, so ``replay``
of that seed, in process, gives the identical history. A campaign's run seeds are drawn
from the campaign's seed.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial

import trio

from actors.history import recorded
from actors.mqi import Connection, Queue
from actors.workload import RECONNECT
from actors.world import World
from coupling.server import configured_url
from qsg import CMQC
from qsg.chaos import checkers, history
from qsg.chaos.checkers import Expectations, Verdict
from qsg.chaos.nemesis import Targets, draw, targets
from qsg.core.errors import MQMIError
from qsg.core.structs import GMO, MD
from qsg.scenario.model import Fault, Scenario
from qsg.scenario.play import RunResult, application_queue, play

MODES = ("safety", "liveness")
#: Seconds beyond the slowest recovery (a lease running out, a channel's first retry,
#: an application's reconnect) that the liveness bound allows by default.
SLACK = 10.0


@dataclass(frozen=True, slots=True)
class Plan:
    """How every run of a campaign on a scenario is laid out in simulated seconds."""

    targets: Targets
    window: float  # faults land in [0, window); the heal comes at its end
    bound: float  # after the heal, progress within this long (liveness)
    quiet: float  # after the scenario's end, before the drain

    @classmethod
    def of(
        cls,
        scenario: Scenario,
        bound: float | None = None,
        *,
        server: bool = False,
    ) -> Plan:
        """``server``: the runs start the CF's server themselves, so the nemesis may
        fail it (``owns_server``)."""
        t = targets(scenario, server=server)
        if bound is None:
            bound = max(t.lease, t.retry) + RECONNECT + SLACK
        duration = scenario.run.duration
        window = duration - bound
        if window < duration / 3:
            raise ValueError(
                f"the scenario runs {duration:g} s: too short for a chaos run whose recovery "
                f"bound is {bound:g} s (it needs at least {1.5 * bound:g} s: the faults' "
                f"window, then the bound with the faults healed)"
            )
        return cls(t, window, bound, bound)


@dataclass(slots=True)
class Outcome:
    """One run of a campaign: its seed, the fault kinds it drew, and the verdicts."""

    seed: int
    mode: str
    kinds: list[str]
    faults: tuple[Fault, ...]
    verdicts: list[Verdict]
    events: int
    drained: int
    wall_seconds: float
    result: RunResult | None = None

    @property
    def ok(self) -> bool:
        return all(v.ok for v in self.verdicts)

    def failed(self) -> list[Verdict]:
        return [v for v in self.verdicts if not v.ok]


def owns_server(redis_url: str | None, in_process: bool) -> bool:
    """Whether runs start the CF's server themselves (on Redis, with no URL given)."""
    return not in_process and redis_url is None and configured_url() is None


def run_seeds(seed: int, runs: int) -> list[int]:
    """The seeds of a campaign's runs, drawn from the campaign's ``seed``."""
    rng = random.Random(seed)
    return [rng.randrange(1, 2**31) for _ in range(runs)]


def chaos_scenario(
    scenario: Scenario, plan: Plan, seed: int, mode: str, *, in_process: bool = True
) -> tuple[list[str], Scenario]:
    """``scenario`` with the faults of run ``seed`` (and the heal) in place of its own."""
    if mode not in MODES:
        raise ValueError(f"mode {mode!r}: it is one of {', '.join(MODES)}")
    kinds, faults = draw(plan.targets, seed, plan.window, lasting=mode == "liveness")
    run = dataclasses.replace(scenario.run, seed=seed, in_process=in_process)
    faults += (Fault(plan.window, "heal"),)
    return kinds, dataclasses.replace(scenario, run=run, faults=faults)


@dataclass(slots=True)
class Drained:
    """What a drain got: how many messages, and the queues it had to leave (each with
    MQ's reason: one it could not open, or whose gets are inhibited). What it left is
    still there: the run's final state counts it (``RunResult.final``)."""

    messages: int = 0
    left: list[str] = dataclasses.field(default_factory=list)


async def drain(world: World, app: str = "drain") -> Drained:
    """Read every queue to empty through the MQI (shared ones once), each get in the
    history as the application ``app``."""
    done: set[str] = set()
    drained = Drained()
    for name, qm in world.qmgrs.items():
        if not qm.alive:
            continue
        conn = await world.connect(name, user="drain")
        repos = [qm.rules.local]
        group = qm.rules.qsg
        if group is not None and group.name not in done:
            done.add(group.name)
            repos.append(group.shared)
        dlq = qm.rules.dead_letter_queue
        for repo in repos:
            for queue_name in sorted(repo.status):
                if application_queue(queue_name, dlq):
                    await _drain_queue(world, conn, name, queue_name, app, drained)
    return drained


async def _drain_queue(
    world: World, conn: Connection, q_mgr: str, name: str, app: str, drained: Drained
) -> None:
    try:
        queue = await conn.open(name, CMQC.MQOO_INPUT_SHARED)
        while await _drain_one(world, queue, q_mgr, name, app):
            drained.messages += 1
    except MQMIError as error:  # in use exclusively (a requester's reply queue), gone,
        # or GET(DISABLED): what is left there, the final state counts
        drained.left.append(f"{q_mgr} {name}: {error}")


async def _drain_one(world: World, queue: Queue, q_mgr: str, name: str, app: str) -> bool:
    """One get of the drain: whether it got a message."""
    md = MD()
    gmo = GMO(Options=CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_NO_WAIT)
    try:
        await recorded(
            world,
            partial(queue.get, None, md, gmo),
            q_mgr=q_mgr,
            app=app,
            op="get",
            queue=name,
            md=md,
        )
    except MQMIError as error:
        if error.reason == CMQC.MQRC_NO_MSG_AVAILABLE:
            return False
        raise
    return True


def expectations(scenario: Scenario, plan: Plan) -> Expectations:
    """What must make progress after the heal: queue managers whose applications are
    still at work then, every sender channel, every QSG with a scanning member."""
    after = plan.window + plan.bound
    busy = frozenset(
        w.qmgr
        for w in scenario.workloads
        if w.start < plan.window and (w.stop is None or w.stop >= after)
    )
    senders: dict[str, set[str]] = {}
    for q_mgr, channel in plan.targets.senders:
        senders.setdefault(q_mgr, set()).add(channel)
    return Expectations(
        busy, {q: frozenset(c) for q, c in senders.items()}, frozenset(plan.targets.scanning)
    )


def run_one(
    scenario: Scenario,
    seed: int,
    mode: str = "safety",
    *,
    plan: Plan | None = None,
    redis_url: str | None = None,
    in_process: bool = True,
    keep: bool = False,
) -> Outcome:
    """One chaos run of ``scenario`` with seed ``seed``, judged."""
    from actors.runtime import run as run_trio

    plan = plan or Plan.of(scenario, server=owns_server(redis_url, in_process))
    kinds, chaotic = chaos_scenario(scenario, plan, seed, mode, in_process=in_process)
    drained = Drained()
    stuck = False

    async def epilogue(world: World) -> None:
        nonlocal drained, stuck
        await trio.sleep(plan.quiet)
        # A drain that cannot finish (a queue manager that never came back) is a finding,
        # not a hang: it gets the bound, in simulated time.
        with trio.move_on_after(plan.bound) as scope:
            drained = await drain(world)
        stuck = scope.cancelled_caught

    async def main() -> RunResult:
        return await play(chaotic, redis_url=redis_url, history=True, epilogue=epilogue)

    began = time.perf_counter()
    result = run_trio(main)
    verdicts = judge(result, mode, plan, scenario)
    verdicts.append(
        Verdict(
            "drain",
            not stuck,
            {"drained": drained.messages, "stuck": int(stuck), "queues_left": len(drained.left)},
            notes=drained.left,
        )
    )
    verdicts.append(checkers.check_facility(result.failure(), len(result.cf_failures)))
    return Outcome(
        seed,
        mode,
        kinds,
        chaotic.faults,
        verdicts,
        len(result.events),
        drained.messages,
        time.perf_counter() - began,
        result if keep else None,
    )


def judge(result: RunResult, mode: str, plan: Plan, scenario: Scenario) -> list[Verdict]:
    """The safety checkers' verdicts on a run, and in liveness mode the liveness one."""
    h = history.of_run(result)
    verdicts = checkers.check(h)
    if mode == "liveness":
        healed = checkers.healed_at(h)
        assert healed is not None
        verdicts.append(
            checkers.check_liveness(h, healed, plan.bound, expectations(scenario, plan))
        )
    return verdicts


def campaign(
    scenario: Scenario,
    runs: int,
    seed: int,
    mode: str = "safety",
    *,
    bound: float | None = None,
    redis_url: str | None = None,
    in_process: bool = True,
) -> Iterator[Outcome]:
    """The ``runs`` runs of a campaign, one after another, as each ends."""
    plan = Plan.of(scenario, bound, server=owns_server(redis_url, in_process))
    for run_seed in run_seeds(seed, runs):
        yield run_one(
            scenario, run_seed, mode, plan=plan, redis_url=redis_url, in_process=in_process
        )


__all__ = [
    "MODES",
    "Drained",
    "Outcome",
    "Plan",
    "campaign",
    "chaos_scenario",
    "drain",
    "judge",
    "run_one",
    "run_seeds",
]
