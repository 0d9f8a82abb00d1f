"""``qsg chaos``: a campaign of seeded chaos runs, a table of verdicts, replay commands.

Each run's line shows its seed, the fault kinds its seed switched on and the outcome;
the table at the end gives, per checker, how many runs it passed and its counts summed
over the campaign. For each failing run it prints the one command that replays exactly
that run. Exit codes: 0 no violation, 1 a checker found one, 2 the scenario has problems.
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from qsg.chaos.campaign import MODES, Outcome, Plan, owns_server, run_one, run_seeds
from qsg.chaos.checkers import NOT_EXERCISED, VIOLATION, Verdict
from qsg.commands.options import SECONDS, redis_option
from qsg.commands.pipeline.command import on_spark
from qsg.scenario.errors import ScenarioError
from qsg.scenario.model import Scenario


@click.command()
@click.argument("scenario", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--runs",
    type=click.IntRange(min=1),
    default=30,
    show_default=True,
    help="How many seeded runs.",
)
@click.option(
    "--seed",
    type=int,
    default=1,
    show_default=True,
    help="The campaign's seed: it draws every run's own seed.",
)
@click.option(
    "--mode",
    type=click.Choice(MODES),
    default="safety",
    show_default=True,
    help="safety: transient faults, the safety checkers. liveness: faults that may "
    "last until the heal, and progress within --bound after it.",
)
@click.option(
    "--replay",
    type=int,
    default=None,
    metavar="RUN_SEED",
    help="Run only the run with this seed (as printed for a failure), verbosely.",
)
@click.option(
    "--bound",
    type=SECONDS,
    default=None,
    help="Seconds after the heal within which everything must make progress "
    "(default: the longest lease or channel retry, plus reconnect and slack).",
)
@click.option(
    "--on-redis",
    is_flag=True,
    help="Keep shared queues on the Redis server (embedded, or --redis) instead of "
    "in process; a replay then repeats the faults but not every interleaving.",
)
@redis_option(
    help="With --on-redis: the Redis server's URL (default: a private one).",
)
@click.option(
    "--processes",
    is_flag=True,
    help="Each queue manager an OS process on a shared wall clock, the CF on the "
    "Redis server, channels over loopback TCP; the nemesis SIGKILLs QSG "
    "members (safety mode; runs take the scenario's duration in real time).",
)
@click.option(
    "--rest",
    is_flag=True,
    help="With --processes: each member's process serves its own queue manager's REST "
    "API and console on a port of 127.0.0.1 (printed), as each mqweb serves its own.",
)
@click.option("--json", "as_json", is_flag=True, help="Print every run's verdicts as JSON.")
@on_spark
def chaos(
    scenario: Path,
    runs: int,
    seed: int,
    mode: str,
    replay: int | None,
    bound: float | None,
    on_redis: bool,
    redis_url: str | None,
    processes: bool,
    rest: bool,
    as_json: bool,
    master: str | None,
    remote: str | None,
    conf: tuple[str, ...],
) -> None:
    """Chaos-test SCENARIO: RUNS seeded runs under a random nemesis, judged by checkers.

    Every run draws its fault kinds (kill, pause, CF outage of one member or all, CF
    and channel latency spikes, channel breaks and stops, lease clock skew, REFRESH
    QMGR, the scan-lease holder stalled mid-scan past its lease) and their schedule
    from its seed; faults land in the first part of the run,
    then all are healed, the applications go on, a quiet period follows and a drain
    reads every queue to empty. The checkers then look for committed persistent
    messages lost, duplicates, messages never put, expired deliveries, expiry that
    grew, two expiry scanners in one lease epoch or a stale fencing token, failed
    members' units of work not recovered, group order broken, and expiration reports
    missing or duplicated; liveness mode adds progress within --bound after the heal.

    With --master or --remote the runs are one Spark job: each executor plays and
    judges its runs and sends back only their verdicts, while this process plays the
    first runs as Spark starts. On a local master Spark's JVM starts lean, from a class
    archive the first such campaign writes to $QSG_CACHE_DIR (default ~/.cache/qsg;
    docs/pipeline.md, "Chaos campaigns on Spark").
    """
    from qsg.commands.helpers import console as _console
    from qsg.commands.helpers import load_toml
    from qsg.commands.helpers import print_problems as _problems

    try:
        loaded = load_toml(scenario)
    except ScenarioError as error:
        _problems(error)
        sys.exit(2)
    console = _console(stderr=as_json)  # with --json, stdout is the JSON alone
    seeds = [replay] if replay is not None else run_seeds(seed, runs)
    if rest and not processes:
        raise click.BadParameter("--rest goes with --processes", param_hint="--rest")
    if processes:
        if mode != "safety":
            raise click.BadParameter("--processes runs safety mode only", param_hint="--mode")
        _processes(
            console, scenario, loaded, seeds, redis_url, as_json, replay is not None, rest=rest
        )
        return
    try:
        plan = Plan.of(loaded, bound, server=owns_server(redis_url, not on_redis))
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="SCENARIO") from error
    where = "Redis" if on_redis else "in process"
    console.print(
        f"[bold]{scenario}[/]: {len(seeds)} {mode} run(s), faults in the first "
        f"{plan.window:g} s, heal, bound {plan.bound:g} s; shared queues {where}"
    )
    if master is not None or remote is not None:
        _on_spark(
            console,
            scenario,
            loaded,
            seeds,
            mode,
            plan,
            redis_url,
            on_redis,
            as_json,
            master,
            remote,
            conf,
        )
        return
    outcomes: list[Outcome] = []
    for index, run_seed in enumerate(seeds, 1):
        outcome = run_one(
            loaded, run_seed, mode, plan=plan, redis_url=redis_url, in_process=not on_redis
        )
        outcomes.append(outcome)
        _line(console, index, len(seeds), outcome)
        if replay is not None:
            _verbose(console, outcome)
    _conclude(
        console,
        outcomes,
        as_json,
        "replay it with",
        lambda o: replay_command(scenario, o, on_redis),
    )


def _on_spark(
    console: Console,
    path: Path,
    loaded: Scenario,
    seeds: list[int],
    mode: str,
    plan: Plan,
    redis_url: str | None,
    on_redis: bool,
    as_json: bool,
    master: str | None,
    remote: str | None,
    conf: tuple[str, ...],
) -> None:
    """``qsg chaos --master/--remote``: the first seeds in a child while Spark starts
    (lean, on a local master), the rest as one Spark job; then the same report."""
    from qsg.commands.pipeline.chaos import Job, Raised, head_started, job_conf
    from qsg.commands.pipeline.command import run_job, start_spark
    from qsg.commands.pipeline.head_start import Claims, claims_on
    from qsg.commands.pipeline.jvm import LeanJvm, lean_jvm

    leans: list[LeanJvm] = []
    sessions: list[Any] = []

    def start() -> Any:  # while the child plays: the Java checks too
        leans.append(lean_jvm(master, remote, conf))
        settings = job_conf(master, remote, conf)  # the user's own settings win
        sessions.append(start_spark(master, remote, settings, leans[0].options))
        return sessions[0]

    job = Job(loaded, mode, plan, redis_url, not on_redis)

    def rest(spark: Any, indices: list[int], claims: Claims | None) -> dict[int, Outcome | Raised]:
        return job.played(spark, seeds, indices, claims)

    play = partial(
        run_one, loaded, mode=mode, plan=plan, redis_url=redis_url, in_process=not on_redis
    )
    # The child and the tasks share claims where they share a machine: a local master.
    local = remote is None and master is not None and master.startswith("local")
    with claims_on(local) as claims:
        played: list[Outcome] = run_job(lambda: head_started(seeds, play, start, rest, claims))
    # The lines as one text: the same output in about half the time of a print a line
    # (2,000 lines: 0.16-0.25 s against 0.30-0.39 s), here where the job is over.
    console.print("\n".join(_line_text(i, len(seeds), o) for i, o in enumerate(played, 1)))
    if leans and leans[0].making is not None:
        console.print(f"saving Spark's classes for a faster start (once): {leans[0].making}")
        leans[0].finish(sessions[0])
    _conclude(
        console,
        played,
        as_json,
        "replay it with",
        lambda o: replay_command(path, o, on_redis),
    )


def _line(console: Console, index: int, runs: int, outcome: Outcome) -> None:
    console.print(_line_text(index, runs, outcome))


def _line_text(index: int, runs: int, outcome: Outcome) -> str:
    mark = (
        "[green]ok[/]"
        if outcome.ok
        else "[bold red]FAIL[/] " + ", ".join(v.name for v in outcome.failed())
    )
    return (
        f"run {index:>4}/{runs}  seed {outcome.seed:>10}  "
        f"{len(outcome.faults) - 1:>2} faults  {','.join(outcome.kinds):<48} "
        f"{outcome.wall_seconds:5.1f} s  {mark}"
    )


def _conclude(
    console: Console,
    outcomes: list[Outcome],
    as_json: bool,
    how: str,
    command: Callable[[Outcome], str],
) -> None:
    """The verdict table (or JSON), each failure's replay command, and the exit status."""
    if as_json:
        click.echo(json.dumps([_as_json(o) for o in outcomes], indent=2))
    else:
        console.print(verdict_table(outcomes))
    failed = [o for o in outcomes if not o.ok]
    for outcome in failed:
        console.print(
            f"[bold red]seed {outcome.seed}[/] failed "
            f"{', '.join(v.name for v in outcome.failed())}; {how}:\n  " + command(outcome)
        )
        for line in (line for v in outcome.failed() if v.name == "facility" for line in v.involved):
            console.print(f"  [bold red]the run failed:[/] {escape(line)}")
    console.print(f"{len(outcomes) - len(failed)} of {len(outcomes)} runs without a violation")
    sys.exit(1 if failed else 0)


def replay_command(
    scenario: Path, outcome: Outcome, on_redis: bool, processes: bool = False
) -> str:
    """The command that runs exactly ``outcome``'s run again (across processes: the same
    kills, not the same interleaving)."""
    words = ["qsg", "chaos", str(scenario), "--mode", outcome.mode, "--replay", str(outcome.seed)]
    if on_redis:
        words.append("--on-redis")
    if processes:
        words.append("--processes")
    return shlex.join(words)


def _processes(
    console: Console,
    path: Path,
    loaded: Scenario,
    seeds: list[int],
    redis_url: str | None,
    as_json: bool,
    verbose: bool,
    *,
    rest: bool = False,
) -> None:
    """``qsg chaos --processes``: each run across OS processes, then the same report;
    with ``rest``, each member serving its REST API on a port said first."""
    from coupling.server import free_port
    from qsg.chaos import processes

    if loaded.run.clock != "wall":
        raise click.BadParameter(
            '--processes needs a scenario on the wall clock ([run] clock = "wall")',
            param_hint="SCENARIO",
        )
    console.print(
        f"[bold]{path}[/]: {len(seeds)} run(s) across processes, "
        f"{loaded.run.duration:g} s each in real time"
    )
    rest_ports = {q.name: free_port() for q in loaded.qmgrs} if rest else None
    for name, port in (rest_ports or {}).items():
        console.print(f"{name}: REST API on http://127.0.0.1:{port}/ibmmq/rest/v3/ (console at /)")
    outcomes = []
    for index, run_seed in enumerate(seeds, 1):
        outcome, run = processes.run_one(
            path,
            loaded,
            run_seed,
            redis_url=redis_url,
            rest_ports=rest_ports,
            member_module="qsg.commands.serve.member" if rest else processes.MEMBER_MODULE,
        )
        outcomes.append(outcome)
        mark = (
            "[green]ok[/]"
            if outcome.ok
            else "[bold red]FAIL[/] " + ", ".join(v.name for v in outcome.failed())
        )
        kills = ", ".join(f"{f.qmgr}@{f.at:g}s" for f in outcome.faults if f.action == "kill")
        console.print(
            f"run {index:>4}/{len(seeds)}  seed {run_seed:>10}  kills {kills:<36} "
            f"{outcome.wall_seconds:5.1f} s  {mark}"
            f"{tidy_run_directory(outcome, run.directory, keep=verbose)}"
        )
        if verbose:
            _verbose(console, outcome)
    _conclude(
        console,
        outcomes,
        as_json,
        "run its kills again with",
        lambda o: replay_command(path, o, True, processes=True),
    )


def tidy_run_directory(outcome: Outcome, directory: Path, *, keep: bool = False) -> str:
    """A run across processes leaves its processes' event and stderr files in a
    temporary directory: removed once the run passed (unless ``keep``: a replay), kept
    for a failed one. What to print about it (where it is, if kept)."""
    if outcome.ok and not keep:
        shutil.rmtree(directory)
        return ""
    return f"  files kept in {directory}"


def verdict_table(outcomes: list[Outcome]) -> Table:
    """Per checker: runs passed, failed and not exercised (nothing for the checker to
    judge), and its counts summed over the runs."""
    table = Table(title="chaos checkers", title_justify="left")
    columns = (
        "checker",
        "runs ok",
        "runs failed",
        "runs not exercised",
        "counts (summed over runs)",
    )
    for column in columns:
        table.add_column(column, justify="right" if column.startswith("runs") else "left")
    names: list[str] = []
    for o in outcomes:
        names += [v.name for v in o.verdicts if v.name not in names]
    for name in names:
        verdicts = [v for o in outcomes for v in o.verdicts if v.name == name]
        totals: Counter[str] = Counter()
        for v in verdicts:
            totals.update(v.counts)
        statuses = Counter(v.status for v in verdicts)
        failed = statuses[VIOLATION]
        table.add_row(
            name,
            str(statuses["ok"]),
            f"[bold red]{failed}[/]" if failed else "0",
            str(statuses[NOT_EXERCISED]),
            ", ".join(f"{k} {n:,}" for k, n in totals.items()),
        )
    return table


#: How a verdict's status is shown.
_MARKS = {
    "ok": "[green]ok[/]",
    VIOLATION: f"[bold red]{VIOLATION}[/]",
    NOT_EXERCISED: f"[yellow]{NOT_EXERCISED}[/]",
}


def _verbose(console: Console, outcome: Outcome) -> None:
    for fault in outcome.faults:
        console.print(f"  fault at {fault.at:>8.3f}: {_fault_text(fault)}")
    for v in outcome.verdicts:
        console.print(f"  {v.name:<15} {_MARKS[v.status]}  {v.summary()}")
        for name in v.notes + v.involved[:20]:
            console.print(f"      {name}")


def _fault_text(fault: object) -> str:
    fields = {k: getattr(fault, k) for k in ("action", "qmgr", "channel", "duration", "amount")}
    return " ".join(f"{k}={v}" for k, v in fields.items() if v not in ("", None, 0.0))


def _as_json(outcome: Outcome) -> dict[str, object]:
    def verdict(v: Verdict) -> dict[str, object]:
        return {
            "name": v.name,
            "ok": v.ok,
            "status": v.status,
            "counts": v.counts,
            "info": v.info,
            "involved": v.involved,
            "notes": v.notes,
        }

    return {
        "seed": outcome.seed,
        "mode": outcome.mode,
        "ok": outcome.ok,
        "kinds": outcome.kinds,
        "faults": [_fault_text(f) for f in outcome.faults],
        "events": outcome.events,
        "drained": outcome.drained,
        "verdicts": [verdict(v) for v in outcome.verdicts],
    }


__all__ = ["chaos", "replay_command", "tidy_run_directory", "verdict_table"]
