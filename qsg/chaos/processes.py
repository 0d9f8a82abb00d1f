"""Multi-process chaos: every queue manager an OS process, a kill a real SIGKILL.

The coordinator (``run_processes``) starts the coupling facility's server (or uses
``QSG_REDIS_URL``) and, for a group that names several facilities, each facility's own
server (or uses ``QSG_REDIS_URL_<FACILITY>``), which every member process reaches by its
environment; then one process per queue manager of the scenario
(``python -m qsg.chaos.processes member LAYOUT``). Each process runs just its queue
manager (``open_world(only=...)``), joins the shared coupling facility, listens for
channels on a loopback port the coordinator chose (senders' CONNAMEs point there), and
runs the scenario's applications of its queue manager on a wall clock every process
shares (``actors.clock.SharedClock``), so Expiry and lease times mean the same
everywhere. QSG members hold member leases (``actors.membership``): that is how a peer
learns of a SIGKILL and recovers the dead life's units of work.

Each process writes every event as it happens to its own file (one msgpack record per
event, one write each: what a SIGKILL cuts off is at most the event being written). At
the end the coordinator merges the files by time, closes the operations each killed
life left in flight as unknown (MQRC_CONNECTION_BROKEN at the kill), and the same
checkers as in process judge the history.

Queue managers' local queues live in their process's memory: a killed process loses
them, as a queue manager without its page sets would. So the nemesis kills only QSG
members that own no channel (``killable``); their applications must use shared queues.

A member process may also serve its own queue manager's REST API, as each mqweb
serves its own queue managers: ``rest_ports`` names a port per member, and
``member_module`` a module whose ``member`` entry point gives ``member_main`` the
program that serves it (``qsg.commands.serve.member``: the serving code lives above
this layer, so it is handed in, never imported here). The program runs in the member's
trio run beside its applications, and ends with its life (its SIGKILL included).
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

import msgpack
import trio

from actors.cflink import FACILITY_URL_VARIABLE
from actors.events import (
    EventLog,
    FaultInjected,
    OpCompleted,
    OpInvoked,
    QMgrKilled,
    WorldEvent,
    kind_of,
)
from actors.facility import failure_line
from actors.membership import ROLE
from actors.topology import Topology
from coupling import keys
from coupling.cleanup import delete_group
from coupling.lease import EXPIRY_SCAN
from coupling.server import URL_VARIABLE, EmbeddedServer, configured_url, free_port
from coupling.transport import BlockingTransport
from qsg import CMQC
from qsg.chaos import checkers, history
from qsg.chaos.campaign import Outcome
from qsg.chaos.checkers import Verdict
from qsg.core.sharing import QueueSharingGroup
from qsg.scenario.eventlog import RECORDS
from qsg.scenario.model import Fault, Scenario
from qsg.scenario.play import structures
from qsg.scenario.summary import Scopes

if TYPE_CHECKING:
    from actors.world import World

#: A member's extra program (its REST API), run in its world beside its applications.
Program = Callable[["World"], Awaitable[None]]
#: The module started as each member process (``python -m MODULE member LAYOUT``).
MEMBER_MODULE = "qsg.chaos.processes"

#: Seconds a member lease lasts (renewed every third): how soon a peer sees a SIGKILL.
MEMBER_LEASE = 3.0
#: Seconds between starting the processes and the run's time 0 (they import and connect).
STARTUP = 5.0
#: After the applications stop, before each process drains its queues.
QUIET = 4.0


@dataclass(frozen=True, slots=True)
class Kill:
    """SIGKILL ``qmgr``'s process at ``at`` (run seconds), a new life ``downtime`` later.
    An empty ``qmgr``: whichever member holds the expiry-scan lease then."""

    at: float
    qmgr: str = ""
    downtime: float = 6.0


@dataclass(slots=True)
class _Life:
    q_mgr: str
    life: int
    process: subprocess.Popen[bytes]
    events: Path
    killed_at: float | None = None


@dataclass(slots=True)
class Layout:
    """What a member process needs (passed to it as JSON, its ``redis_url`` by the
    environment)."""

    scenario: str
    q_mgr: str
    redis_url: str
    epoch: float
    end: float
    seed: int
    life: int
    ports: dict[str, int]
    events: str
    lease: float = MEMBER_LEASE
    quiet: float = QUIET
    #: The port this member's REST API listens on (127.0.0.1); 0: it serves none.
    rest_port: int = 0
    #: The port of each group's address (``actors.groupaddress``), by QSG: the groups
    #: some channel's CONNAME names (``named_groups``).
    groups: dict[str, int] = field(default_factory=dict)


# ---- the event files ------------------------------------------------------------------
def writer(file: BinaryIO) -> Callable[[WorldEvent], None]:
    """An ``EventLog`` sink writing each event to ``file`` in one write."""

    def sink(event: WorldEvent) -> None:
        fields = [getattr(event, f.name) for f in dataclasses.fields(event)]
        file.write(msgpack.packb([kind_of(event), *fields], use_bin_type=True))

    return sink


def read_events(path: Path) -> list[WorldEvent]:
    """The events of one file (a record cut off by a kill is left out)."""
    unpacker = msgpack.Unpacker(raw=False)
    unpacker.feed(path.read_bytes())
    return [RECORDS[kind](*fields) for kind, *fields in unpacker]


def close_in_flight(events: list[WorldEvent], at: float) -> list[WorldEvent]:
    """A killed life's operations still in flight at ``at``: each completes unknown, with
    MQRC_CONNECTION_BROKEN (its connection broke with the process)."""
    open_ops: dict[str, OpInvoked] = {}
    for event in events:
        if isinstance(event, OpInvoked):
            open_ops[event.app] = event
        elif isinstance(event, OpCompleted):
            open_ops.pop(event.app, None)
    return [
        OpCompleted(at, op.q_mgr, op.app, op.op, op.queue, "unknown", CMQC.MQRC_CONNECTION_BROKEN)
        for op in open_ops.values()
    ]


# ---- one member process -----------------------------------------------------------------
def process_topology(
    scenario: Scenario, ports: dict[str, int], groups: dict[str, int] | None = None
) -> Topology:
    """The scenario's topology with each receiving queue manager listening on its port
    and each CONNAME naming it pointing there; a CONNAME naming a group in ``groups``
    points at that group's address, whose members take its connections on group ports
    of their own (``actors.groupaddress``)."""
    topology = scenario.topology
    to = {**ports, **(groups or {})}
    for name, port in ports.items():
        topology.qmgrs[name].listener = ("127.0.0.1", port)
    for spec in topology.qmgrs.values():
        if spec.qsg in (groups or {}):
            spec.group_host = "127.0.0.1"
        spec.commands = [
            dataclasses.replace(
                c,
                attributes={
                    **c.attributes,
                    "conn_name": f"127.0.0.1({to[c.attributes['conn_name']]})",
                },
            )
            if c.object_type == "CHANNEL" and c.attributes.get("conn_name") in to
            else c
            for c in spec.commands
        ]
    return topology


def called(scenario: Scenario) -> list[str]:
    """The queue managers some channel of the scenario calls: each one a CONNAME names
    (a sender's, a fully qualified server's, a requester's; a ``[[channel]]`` table's
    sender among them). Each listens on a port of its own, which those CONNAMEs are
    pointed at (``process_topology``)."""
    names = set(scenario.topology.qmgrs)
    return sorted(
        {
            c.attributes["conn_name"]
            for spec in scenario.topology.qmgrs.values()
            for c in spec.commands
            if c.object_type == "CHANNEL" and c.attributes.get("conn_name") in names
        }
    )


def named_groups(scenario: Scenario) -> list[str]:
    """The groups some channel's CONNAME names, a sender's, a server's or a requester's
    (their address must listen: a requester's request reaches a member's group port
    through it as a sender's hello does)."""
    names = {q.name for q in scenario.qsgs}
    return sorted(
        {
            c.attributes["conn_name"]
            for spec in scenario.topology.qmgrs.values()
            for c in spec.commands
            if c.object_type == "CHANNEL" and c.attributes.get("conn_name") in names
        }
    )


async def member(layout: Layout, file: BinaryIO, program: Program | None = None) -> str | None:
    """One queue manager's life, from its start to its drain (or its SIGKILL); its events
    go to ``file`` (unbuffered); ``program`` (its REST API) runs beside its applications
    until the life ends. Returns why the life failed though it ran to its end (its
    coupling facility failed unscheduled), or None."""
    from actors import membership
    from actors.groupaddress import published
    from actors.workload import run_workloads
    from actors.world import open_world
    from qsg.chaos.campaign import drain
    from qsg.scenario.load import load_scenario
    from qsg.scenario.play import run_commands

    scenario = load_scenario(Path(layout.scenario))
    topology = process_topology(scenario, layout.ports, layout.groups)
    name, life = layout.q_mgr, layout.life
    events = EventLog(keep=False, sink=writer(file))

    def fenced(why: str) -> None:
        now = trio.current_time()
        events.emit(FaultInjected(now, name, "fenced", name, why))
        os._exit(70)  # at once: peers may already be recovering this life's work

    async with open_world(
        topology,
        redis_url=layout.redis_url,
        seed=layout.seed + life,
        only=name,
        history=True,
        events=events,
    ) as world:
        world.msg_id_stem = f"{name[:3]:_<3}{life % 1000:03d}".encode()
        qm = world.qmgrs[name]
        lease = grant = None
        async with trio.open_nursery() as nursery:
            if qm.rules.qsg is not None:
                lease, grant = await membership.join(world, qm, layout.lease)
                nursery.start_soon(membership.keep, qm, lease, grant, fenced)
                nursery.start_soon(membership.watch, world, qm, layout.lease)
                if await published(world.link, qm):  # an earlier life's group listener
                    await world.start_listener(name)  # starts again, as CSQINPX would
            # Its [[at]] commands: all in its first life, those still due in a later one.
            due = tuple(
                c
                for c in scenario.commands
                if c.qmgr == name and (life == 1 or c.at > trio.current_time())
            )
            nursery.start_soon(run_commands, world, due, 0.0)
            if program is not None:
                nursery.start_soon(program, world)
            apps = tuple(
                w if life == 1 else dataclasses.replace(w, label=f"{w.label}@{life}")
                for w in scenario.workloads
                if w.qmgr == name
            )
            await run_workloads(world, apps, 0.0, layout.end)
            await trio.sleep_until(layout.end + layout.quiet)
            await drain(world, app=f"drain@{name}.{life}")
            if lease is not None and grant is not None:
                await membership.leave(qm, lease, grant)
            nursery.cancel_scope.cancel()
    # Its coupling facility failed with no fault scheduled (the coordinator kills
    # members, never the facility): the member's life is not a success.
    return failure_line(world.watch.unscheduled) if world.watch is not None else None


def member_main(argv: list[str], serving: Callable[[Layout], Program | None] | None = None) -> None:
    """A member process: ``argv`` the layout (JSON); ``serving`` gives the program that
    serves its REST API (made before the run: a port in use is said at once)."""
    from actors.clock import SharedClock

    # The URL (its password with it) comes by the environment, never the command line,
    # which any user of the machine can read (ps).
    layout = Layout(**json.loads(argv[0]), redis_url=os.environ.pop(URL_VARIABLE, ""))
    program = serving(layout) if serving is not None else None
    with open(layout.events, "ab", buffering=0) as file:  # every event one write
        failure = trio.run(member, layout, file, program, clock=SharedClock(layout.epoch))
    if failure is not None:  # one line on its stderr (the run's files keep it), exit 1
        print(f"{layout.q_mgr}: the run failed: {failure}", file=sys.stderr, flush=True)
        sys.exit(1)


# ---- the coordinator --------------------------------------------------------------------
def killable(scenario: Scenario) -> list[str]:
    """QSG members that own no channel: a SIGKILL loses nothing in their memory that a
    checker would call lost (their applications use shared queues). A channel's ends are
    the queue manager that defines it with a CONNAME naming another (``called``) and
    that one: a ``[[channel]]`` table's, and a requester-server pair's."""
    names = set(scenario.topology.qmgrs)
    ends = {
        end
        for spec in scenario.topology.qmgrs.values()
        for c in spec.commands
        if c.object_type == "CHANNEL" and c.attributes.get("conn_name") in names
        for end in (spec.name, c.attributes["conn_name"])
    }
    return [m for q in scenario.qsgs for m in q.members if m not in ends]


def draw_kills(scenario: Scenario, seed: int, window: float) -> list[Kill]:
    """One to three kills in ``window``, each of a killable member or of the scan-lease
    holder, far enough apart that each life has started before the next kill."""
    rng = random.Random(seed)
    targets = ["", *killable(scenario)]
    kills, at = [], rng.uniform(2.0, 6.0)
    for _ in range(rng.randint(1, 3)):
        if at > window:
            break
        downtime = round(rng.uniform(1.0, 2 * MEMBER_LEASE), 2)
        kills.append(Kill(round(at, 2), rng.choice(targets), downtime))
        at += downtime + MEMBER_LEASE + rng.uniform(2.0, 6.0)
    return kills


def scopes_of(scenario: Scenario) -> Scopes:
    """Which queue manager is in which QSG, and each QSG's shared queues."""
    groups = {q.name: QueueSharingGroup(q.name) for q in scenario.qsgs}
    scenario.topology.build(groups)
    members = {m: q.name for q in scenario.qsgs for m in q.members}
    shared = {n: sorted(g.shared.queues) for n, g in groups.items()}
    return Scopes(members, shared, {n: structures(g.shared) for n, g in groups.items()})


@dataclass(slots=True)
class ProcessRun:
    """What a multi-process run left: the merged history and where its files are."""

    events: list[WorldEvent]
    scopes: Scopes
    directory: Path
    exits: dict[str, int] = field(default_factory=dict)


def run_processes(
    path: Path,
    scenario: Scenario,
    seed: int,
    kills: list[Kill],
    *,
    redis_url: str | None = None,
    directory: Path | None = None,
    rest_ports: dict[str, int] | None = None,
    member_module: str = MEMBER_MODULE,
) -> ProcessRun:
    """One multi-process run of ``scenario`` with ``kills``; see the module docstring.
    ``rest_ports``: each member's REST port, served by ``member_module``'s members."""
    directory = directory or Path(tempfile.mkdtemp(prefix="qsg-processes-"))
    url, server = redis_url or configured_url(), None
    started: list[EmbeddedServer] = []
    if url is None:
        server = EmbeddedServer()
        server.start()
        started.append(server)
        url = server.url
    try:
        facilities = {}
        for facility in own_facilities(scenario):
            named = os.environ.get(f"{FACILITY_URL_VARIABLE}_{facility}")
            if named is None:
                started.append(EmbeddedServer())
                started[-1].start()
                named = started[-1].url
            facilities[facility] = named
        rest = (rest_ports or {}, member_module)
        return _coordinate(path, scenario, seed, kills, url, directory, rest, facilities)
    finally:
        for each in started:
            each.stop()


def own_facilities(scenario: Scenario) -> list[str]:
    """The coupling facilities that are servers of their own: those of each QSG that
    names several (``actors.cflink``), each name once (groups share a facility's server,
    each under its own keys)."""
    return sorted({f for q in scenario.qsgs if len(q.facilities) > 1 for f in q.facilities})


def _coordinate(
    path: Path,
    scenario: Scenario,
    seed: int,
    kills: list[Kill],
    url: str,
    directory: Path,
    rest: tuple[dict[str, int], str] = ({}, MEMBER_MODULE),
    facilities: dict[str, str] | None = None,
) -> ProcessRun:
    """The run itself; ``facilities``: the URL of each facility's own server, which
    every member reaches (``QSG_REDIS_URL_<FACILITY>`` in its environment)."""
    transport = BlockingTransport(url)
    for group in scenario.qsgs:  # a run starts with an empty coupling facility
        delete_group(transport, group.name)
    servers = {f"{FACILITY_URL_VARIABLE}_{f}": u for f, u in (facilities or {}).items()}
    for facility_url in servers.values():  # and its facilities' servers empty too
        each = BlockingTransport(facility_url)
        for group in scenario.qsgs:
            delete_group(each, group.name)
        each.close()
    ports = {name: free_port() for name in called(scenario)}
    groups = {qsg: free_port() for qsg in named_groups(scenario)}
    epoch = time.time() + STARTUP
    end = scenario.run.duration
    mine = open(directory / "coordinator.events", "ab", buffering=0)  # noqa: SIM115
    log = EventLog(keep=True, sink=writer(mine))
    lives: dict[str, _Life] = {}
    dead: list[_Life] = []
    latest: dict[str, int] = {}

    def now() -> float:
        return time.time() - epoch

    def start(q_mgr: str, life: int) -> None:
        events = directory / f"{q_mgr}.{life}.events"
        rest_ports, module = rest
        layout = Layout(
            str(path),
            q_mgr,
            url,
            epoch,
            end,
            seed,
            life,
            ports,
            str(events),
            rest_port=rest_ports.get(q_mgr, 0),
            groups=groups,
        )
        given = dataclasses.asdict(layout)
        # The URLs, not on the command line: ps shows it.
        secret = {URL_VARIABLE: given.pop("redis_url"), **servers}
        command = [sys.executable, "-m", module, "member", json.dumps(given)]
        stderr = open(directory / f"{q_mgr}.{life}.stderr", "wb")  # noqa: SIM115
        process = subprocess.Popen(command, stderr=stderr, env={**os.environ, **secret})
        lives[q_mgr] = _Life(q_mgr, life, process, events)
        latest[q_mgr] = life

    # The groups' addresses first, then channel partners, listening before their
    # senders try (a sender that finds no listener waits its SHORTTMR, a minute by
    # default).
    addresses = [
        _start_address(directory, url, epoch, seed, scenario, q, p) for q, p in groups.items()
    ]
    for name in ports:
        start(name, 1)
    for name, port in ports.items():
        _await_listener(port, lives[name])
    for q in scenario.qmgrs:
        if q.name not in lives:
            start(q.name, 1)
    for name, port in rest[0].items():  # each member's REST API up before time 0
        if name in lives:
            _await_listener(port, lives[name])
    pending = sorted(kills, key=lambda k: k.at)
    restarts: list[tuple[float, str]] = []
    try:
        while pending or restarts:
            due = min([k.at for k in pending[:1]] + [t for t, _ in restarts])
            time.sleep(max(0.0, due - now()))
            if restarts and restarts[0][0] <= now():
                _, q_mgr = restarts.pop(0)
                start(q_mgr, latest[q_mgr] + 1)
                log.emit(FaultInjected(now(), q_mgr, "restart", q_mgr))
                continue
            kill = pending.pop(0)
            target = kill.qmgr or _scan_holder(transport, scenario) or killable(scenario)[0]
            if target not in lives:  # still down from an earlier kill
                log.emit(FaultInjected(now(), target, "kill", target, "it is not running"))
                continue
            if not _kill_when_up(transport, scenario, lives[target], log, now):
                continue
            victim = lives.pop(target)
            dead.append(victim)
            assert victim.killed_at is not None
            restarts.append((victim.killed_at + kill.downtime, target))
            restarts.sort()
        deadline = time.time() + (end - now()) + QUIET + 60.0
        exits = {}
        for name, life_ in lives.items():
            try:
                exits[name] = life_.process.wait(timeout=max(1.0, deadline - time.time()))
            except subprocess.TimeoutExpired:
                life_.process.kill()
                exits[name] = life_.process.wait()
    finally:
        for life_ in [*lives.values(), *addresses]:
            if life_.process.poll() is None:
                life_.process.kill()
                life_.process.wait()
        mine.close()
        transport.close()
    merged: list[tuple[float, int, int, WorldEvent]] = []
    files = [(lf.events, lf.killed_at) for lf in [*dead, *lives.values()]]
    for order, (events_path, killed_at) in enumerate(files):
        found = read_events(events_path) if events_path.exists() else []
        if killed_at is not None:
            found += close_in_flight(found, killed_at)
        merged += [(e.time, order, i, e) for i, e in enumerate(found)]
    merged += [(e.time, len(files), i, e) for i, e in enumerate(log.history)]
    merged.sort(key=lambda item: item[:3])
    return ProcessRun([e for *_, e in merged], scopes_of(scenario), directory, exits)


def _start_address(
    directory: Path, url: str, epoch: float, seed: int, scenario: Scenario, qsg: str, port: int
) -> _Life:
    """The process of ``qsg``'s address (``actors.groupaddress``), listening on ``port``
    once this returns; its standard error in the run's directory."""
    members = next(list(q.members) for q in scenario.qsgs if q.name == qsg)
    given = {"qsg": qsg, "members": members, "port": port, "epoch": epoch, "seed": seed}
    command = [sys.executable, "-m", MEMBER_MODULE, "address", json.dumps(given)]
    stderr = open(directory / f"{qsg}.address.stderr", "wb")  # noqa: SIM115
    process = subprocess.Popen(command, stderr=stderr, env={**os.environ, URL_VARIABLE: url})
    life = _Life(qsg, 1, process, directory / f"{qsg}.address.events")
    _await_listener(port, life)
    return life


def address_main(argv: list[str]) -> None:
    """The process of a group's address: ``argv`` its QSG, members, port, the run's
    epoch and seed (JSON); it runs until it is killed. Each connection goes to a member
    by the policy in process (``qsg.core.groupaddress``), drawn from a random seeded
    with the run's seed and the group's name."""
    from actors.clock import SharedClock
    from actors.groupaddress import listening_on_server, serve_address
    from coupling.trio_transport import TrioTransport

    given = json.loads(argv[0])
    url = os.environ.pop(URL_VARIABLE, "")
    qsg, members = given["qsg"], given["members"]
    rng = random.Random(f"{given['seed']}/{qsg}")

    async def address() -> None:
        async with TrioTransport.open(url) as transport:
            listening = listening_on_server(transport, qsg, members)
            await serve_address(qsg, "127.0.0.1", given["port"], listening, rng)

    trio.run(address, clock=SharedClock(given["epoch"]))


def _await_listener(port: int, life: _Life, timeout: float = 60.0) -> None:
    """Wait until ``life``'s channel listener accepts connections on ``port``."""
    give_up = time.time() + timeout
    while time.time() < give_up:
        if life.process.poll() is not None:
            code, log = life.process.returncode, life.events.with_suffix(".stderr")
            raise RuntimeError(f"{life.q_mgr} ended before listening (exit {code}; see {log})")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1.0):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{life.q_mgr} did not listen on port {port} within {timeout:g} s")


def _kill_when_up(
    transport: BlockingTransport,
    scenario: Scenario,
    life: _Life,
    log: EventLog,
    now: Callable[[], float],
) -> bool:
    """SIGKILL ``life`` once it is up, with its ``fault`` and ``qmgr-killed`` events;
    False, with a ``fault`` event saying "it never came up", if it ended or never did."""
    # A life killed before it joined its QSG was never up: nobody could recover it, and
    # the recovery checker would wait for that in vain. Kill lives only.
    if not _await_up(transport, scenario, life):
        log.emit(FaultInjected(now(), life.q_mgr, "kill", life.q_mgr, "it never came up"))
        return False
    life.process.send_signal(signal.SIGKILL)
    life.process.wait()
    life.killed_at = now()
    log.emit(FaultInjected(life.killed_at, life.q_mgr, "kill", life.q_mgr))
    log.emit(QMgrKilled(life.killed_at, life.q_mgr))
    return True


def _await_up(
    transport: BlockingTransport, scenario: Scenario, life: _Life, timeout: float = STARTUP + 60.0
) -> bool:
    """Wait until ``life`` is up: a QSG member holds its member lease (the holder is
    its process), another queue manager is running. False if it ended or never did."""
    group = next((q.name for q in scenario.qsgs if life.q_mgr in q.members), None)
    if group is None:
        return life.process.poll() is None
    key, me = keys.lease_key(group, ROLE.format(life.q_mgr)), f"{life.q_mgr}@{life.process.pid}"
    give_up = time.time() + timeout
    while time.time() < give_up and life.process.poll() is None:
        holder = transport.command("HGET", key, "holder")
        if holder is not None and holder.decode() == me:
            return True
        time.sleep(0.05)
    return False


def _scan_holder(transport: BlockingTransport, scenario: Scenario) -> str:
    """The member holding the expiry-scan lease now, if it may be killed."""
    for group in scenario.qsgs:
        holder = transport.command("HGET", keys.lease_key(group.name, EXPIRY_SCAN), "holder")
        if holder and holder.decode() in killable(scenario):
            return str(holder.decode())
    return ""


def judge(run: ProcessRun) -> list[Verdict]:
    """The safety checkers on the merged history, and whether every process ended well
    and drained its queues."""
    # Each process drained its own queues before it ended (there is no final state to
    # read across processes), and the kills are the coordinator's, named only as they
    # land (a scan-lease holder's): the run's line prints them, not the faults checker.
    verdicts = [
        v for v in checkers.check(history.read(run.events, run.scopes)) if v.name != "faults"
    ]
    failed = {q: code for q, code in run.exits.items() if code != 0}
    named = [f"{q} exit {c}{_last_line(run.directory, q)}" for q, c in sorted(failed.items())]
    verdicts.append(Verdict("processes", not failed, {"failed_exits": len(failed)}, named))
    return verdicts


def _last_line(directory: Path, q_mgr: str) -> str:
    """': ' and the last line its latest life wrote to stderr (what it said as it
    ended), or '' if it wrote nothing."""
    files = sorted(
        directory.glob(f"{q_mgr}.*.stderr"),
        key=lambda p: int(p.name.removesuffix(".stderr").rsplit(".", 1)[1]),
    )
    if not files:
        return ""
    lines = files[-1].read_text(errors="replace").strip().splitlines()
    return f": {lines[-1]}" if lines else ""


def run_one(
    path: Path,
    scenario: Scenario,
    seed: int,
    *,
    redis_url: str | None = None,
    kills: list[Kill] | None = None,
    rest_ports: dict[str, int] | None = None,
    member_module: str = MEMBER_MODULE,
) -> tuple[Outcome, ProcessRun]:
    """One judged multi-process run with ``seed``'s kills (or the ones given); with
    ``rest_ports``, each member serving its REST API (``run_processes``)."""
    began = time.perf_counter()
    window = scenario.run.duration - 2 * MEMBER_LEASE - 10.0
    if kills is None:
        kills = draw_kills(scenario, seed, window)
    run = run_processes(
        path,
        scenario,
        seed,
        kills,
        redis_url=redis_url,
        rest_ports=rest_ports,
        member_module=member_module,
    )
    verdicts = judge(run)
    drained = sum(
        1
        for e in run.events
        if isinstance(e, OpCompleted) and e.app.startswith("drain@") and e.outcome == "ok"
    )
    faults = tuple(
        Fault(k.at, "kill", qmgr=k.qmgr or "(scan-lease holder)", duration=k.downtime)
        for k in kills
    )
    outcome = Outcome(
        seed,
        "safety",
        ["kill"],
        (*faults, Fault(window, "heal")),
        verdicts,
        len(run.events),
        drained,
        time.perf_counter() - began,
    )
    return outcome, run


if __name__ == "__main__" and sys.argv[1:2] == ["member"]:
    member_main(sys.argv[2:])
if __name__ == "__main__" and sys.argv[1:2] == ["address"]:
    address_main(sys.argv[2:])


__all__ = [
    "MEMBER_MODULE",
    "Kill",
    "Layout",
    "ProcessRun",
    "address_main",
    "called",
    "draw_kills",
    "judge",
    "killable",
    "member",
    "member_main",
    "named_groups",
    "process_topology",
    "run_one",
    "run_processes",
]
