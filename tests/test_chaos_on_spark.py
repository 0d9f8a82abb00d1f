"""``qsg chaos --master`` (issue 33): a campaign's runs as one Spark job, each run played
and judged on an executor, give the verdicts a local campaign gives (a run is its
seed's), and the driver prints the same table and replay commands. The seeds go to
tasks in chunks that shrink, so that the cores finish together; the first seeds are
played by a child of the driver while Spark starts; every seed is played once."""

from __future__ import annotations

import json
import os
import pickle
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from qsg.chaos.campaign import run_seeds
from qsg.commands.cli import main
from qsg.commands.pipeline.chaos import (
    INTERPRETED,
    Raised,
    by_index,
    chunks,
    each_chunk,
    head_started,
    in_seed_order,
    job_conf,
)
from qsg.commands.pipeline.frames import JobError
from qsg.commands.pipeline.head_start import Claims, HeadStart, claims_on
from qsg.commands.pipeline.spark import parse_conf
from qsg.commands.pipeline.worker_daemon import DAEMON_SETTING, MODULE
from tests.claims import keeps

LEAN = Path(__file__).parent.parent / "scenarios" / "chaos-lean.toml"


def _verdicts(text: str) -> list[dict[str, object]]:
    return json.loads(text)  # type: ignore[no-any-return]


def _lines(text: str) -> list[str]:
    """A campaign's line a run, its wall seconds (which vary) left out."""
    return [
        re.sub(r" +\d+\.\d s ", " ", line) for line in text.splitlines() if line.startswith("run ")
    ]


def _on_spark(words: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "qsg.commands.cli", *words, "--master", "local[2]"],
        capture_output=True,
        text=True,
        timeout=1800,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent), **env},
    )


#: The campaign every launch here plays: chaos-lean's runs take about a second each (a
#: chaos-qsg run some ten), and what these tests pin is that a run played on an executor
#: is its seed's run played locally, whatever the scenario; six runs leave the driver's
#: child some seeds and the job the rest.
CAMPAIGN = ["chaos", str(LEAN), "--runs", "6", "--seed", "3", "--json"]
#: The daemon's list of modules to import ahead, with one it cannot import.
NO_SUCH = {"QSG_WORKER_PRELOAD": "qsg.no_such_module"}


@pytest.fixture(scope="module")
def campaigns(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The campaign played locally, then twice on a local master sharing one cache: the
    first makes the lean JVM's class archive as its JVM exits, the second starts from
    it, its workers' daemon told to import a module that does not exist (one launch
    for two tests: the archive is the driver's, the preload the workers')."""
    where = tmp_path_factory.mktemp("campaigns")
    local = CliRunner().invoke(main, CAMPAIGN)
    assert local.exit_code in (0, 1), local.output
    cache = {"QSG_CACHE_DIR": str(where / "cache")}
    first = _on_spark(CAMPAIGN, where, cache)
    made = sorted(p.name for p in (where / "cache").iterdir())
    again = _on_spark(CAMPAIGN, where, {**cache, **NO_SUCH})
    return {"local": local, "first": first, "made": made, "again": again, "cache": cache}


@keeps("README.md", "`--master URL` plays the runs as a Spark job")
@pytest.mark.slow
@keeps("docs/chaos.md", "plays the runs as one Spark job and prints the same verdicts")
def test_a_campaign_on_spark_gives_the_local_campaigns_verdicts_first_and_with_its_archive(
    campaigns: dict[str, Any],
) -> None:
    # The first campaign on a local master makes the lean JVM's class archive as its JVM
    # exits; the second starts from it. Both give the local campaign's verdicts, table.
    local, first, again = campaigns["local"], campaigns["first"], campaigns["again"]
    assert first.returncode == local.exit_code, first.stderr
    assert _verdicts(first.stdout) == _verdicts(local.stdout)  # stdout: the JSON alone
    assert "runs without a violation" in first.stderr  # the same table and summary
    assert _lines(first.stderr) == _lines(local.stderr) != []  # and the same lines
    assert "saving Spark's classes" in first.stderr
    made = campaigns["made"]
    assert [m for m in made if m.endswith((".jsa", ".ok"))] == [made[0], made[0] + ".ok"]
    assert again.returncode == local.exit_code, again.stderr
    assert _verdicts(again.stdout) == _verdicts(local.stdout)
    assert "saving Spark's classes" not in again.stderr


@pytest.mark.slow
def test_workers_whose_daemon_could_not_import_the_run_path_still_play_every_seed(
    campaigns: dict[str, Any],
) -> None:
    # The daemon (qsg.commands.pipeline.worker_daemon) imports a run's modules ahead of the
    # workers; one it cannot import is the workers' own to import, as without it. The
    # second launch of the campaigns above (its driver started from the archive: this
    # test is of the workers, which the archive does not touch).
    local, done = campaigns["local"], campaigns["again"]
    assert done.returncode == local.exit_code, done.stderr
    assert _verdicts(done.stdout) == _verdicts(local.stdout)
    said = [line for line in done.stderr.splitlines() if "not imported ahead" in line]
    assert said == [
        "qsg worker daemon: not imported ahead: qsg.no_such_module: "
        "ModuleNotFoundError: No module named 'qsg.no_such_module'"
    ]
    assert "Traceback" not in done.stderr


@pytest.mark.slow
@keeps(
    "docs/pipeline.md",
    "the driver puts them in seed order, and a run that raised is one line naming its "
    "seed (exit 1)",
)
def test_a_run_that_raises_on_an_executor_is_one_line_naming_its_seed(
    campaigns: dict[str, Any], tmp_path: Path
) -> None:
    # Nothing listens on port 1: every run raises (in the driver's child first, which
    # leaves its seeds to Spark, where the first is named). Its driver starts from the
    # archive the campaigns above made (an archive of its own would cost its dump as the
    # JVM exits, some 15 s of a core, and pin nothing this test is about).
    words = ["chaos", str(LEAN), "--runs", "3", "--on-redis", "--redis", "redis://127.0.0.1:1"]
    done = _on_spark(words, tmp_path, campaigns["cache"])
    assert done.returncode == 1
    first = run_seeds(1, 3)[0]
    lines = [line for line in done.stderr.splitlines() if line.startswith("error")]
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"error seed {first}: CFConnectionError: cannot reach")
    assert lines[0].endswith("(and 2 more runs failed)")
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_each_chunks_rows_come_back_once_in_chunk_order(spark: Any) -> None:
    # One task a chunk (mapInArrow over spark.range): every row of every chunk, in
    # chunk order, whatever a chunk yields (none when other players claimed its seeds).
    def rows_of(chunk: int) -> list[dict[str, Any]]:
        return [
            {"index": 10 * chunk + k, "outcome": bytes([chunk]), "error": None}
            for k in range((chunk + 1) % 3)  # chunk 2: its seeds claimed by others, no rows
        ] + ([{"index": 999, "outcome": None, "error": "E: 5"}] if chunk == 5 else [])

    expected = [row for chunk in range(7) for row in rows_of(chunk)]
    assert each_chunk(spark, 7, rows_of) == expected


def _compilations(spark: Any) -> int:
    """How many classes Spark's code generation has compiled in this JVM (Janino)."""
    metrics = spark.sparkContext._jvm.org.apache.spark.metrics.source.CodegenMetrics
    return int(metrics.METRIC_COMPILATION_TIME().getCount())


@pytest.mark.slow
@pytest.mark.parametrize("interpreted", [True, False])
@keeps(
    "docs/pipeline.md",
    "a test counts Janino's compilations in the job with and without the settings",
)
def test_a_campaigns_job_is_interpreted_with_its_settings_and_compiled_without(
    spark: Any, interpreted: bool
) -> None:
    # The campaign's plan is a few dozen rows: Spark's code generation (Janino) costs
    # more than it saves, so job_conf turns it off. Without the settings the same job
    # compiles (the control: a count in the plan no other test uses, so nothing cached).
    settings = dict(s.split("=", 1) for s in INTERPRETED)
    before = {key: spark.conf.get(key) for key in settings}
    count = 11 + int(interpreted)

    def rows_of(chunk: int) -> list[dict[str, Any]]:
        return [{"index": chunk, "outcome": b"x", "error": None}]

    try:
        if interpreted:
            for key, value in settings.items():
                spark.conf.set(key, value)
        compiled = _compilations(spark)
        rows = each_chunk(spark, count, lambda c: rows_of(c * 7919 % count))
        compiled = _compilations(spark) - compiled
    finally:
        for key, value in before.items():
            spark.conf.set(key, value)
    assert sorted(r["index"] for r in rows) == list(range(count))
    assert (compiled == 0) is interpreted


@keeps("docs/pipeline.md", "on any master, under your own `--conf`, which wins")
def test_a_campaigns_spark_interprets_its_plan_and_the_users_own_settings_win() -> None:
    on_local = parse_conf(job_conf("local[2]", None))
    assert on_local[DAEMON_SETTING] == MODULE
    assert on_local["spark.sql.codegen.factoryMode"] == "NO_CODEGEN"
    assert on_local["spark.sql.codegen.wholeStage"] == "false"
    over_connect = parse_conf(job_conf(None, "sc://localhost:15002"))
    assert DAEMON_SETTING not in over_connect
    assert over_connect["spark.sql.codegen.factoryMode"] == "NO_CODEGEN"
    mine = ("spark.sql.codegen.wholeStage=true", "spark.sql.codegen.factoryMode=FALLBACK")
    theirs = parse_conf(job_conf("local[2]", None, mine))
    assert theirs["spark.sql.codegen.wholeStage"] == "true"
    assert theirs["spark.sql.codegen.factoryMode"] == "FALLBACK"


@pytest.mark.parametrize(("count", "cores"), [(2000, 2), (200, 2), (7, 4), (1, 2), (64, 1)])
@keeps(
    "docs/pipeline.md",
    "Each chunk is about what remains over twice the cores, at least one seed (guided "
    "self-scheduling)",
)
def test_the_chunks_shrink_and_cover_every_seed_once_in_order(count: int, cores: int) -> None:
    cut = chunks(count, cores)
    assert [i for chunk in cut for i in chunk] == list(range(count))
    sizes = [len(chunk) for chunk in cut]
    assert sizes == sorted(sizes, reverse=True)
    assert min(sizes) == 1
    # Each about what remains over twice the cores: no core is left a long last task.
    assert sizes[0] == -(-count // (2 * cores))


@keeps(
    "docs/pipeline.md",
    "2,000 seeds on 2 cores are 500, 375, 282, 211, ... 2, 1, 1, 1, 1: 24 tasks.",
)
def test_two_thousand_seeds_on_two_cores_are_a_few_dozen_tasks() -> None:
    sizes = [len(c) for c in chunks(2000, 2)]
    assert sizes[:4] == [500, 375, 282, 211]
    assert 15 <= len(sizes) <= 30


@keeps(
    "docs/pipeline.md",
    "the driver puts them in seed order, and a run that raised is one line naming its "
    "seed (exit 1)",
)
def test_the_jobs_rows_come_back_in_seed_order_whatever_order_they_arrive_in() -> None:
    seeds = [11, 22, 33]
    rows: list[dict[str, Any]] = [
        {"index": i, "outcome": pickle.dumps(f"run {s}"), "error": None}
        for i, s in enumerate(seeds)
    ]
    assert in_seed_order(seeds, by_index(rows[::-1])) == ["run 11", "run 22", "run 33"]


def test_the_first_seed_whose_run_raised_is_named_and_the_others_counted() -> None:
    rows: list[dict[str, Any]] = [
        {"index": 2, "outcome": None, "error": "ValueError: late"},
        {"index": 0, "outcome": pickle.dumps("fine"), "error": None},
        {"index": 1, "outcome": None, "error": "KeyError: 'QM9'"},
    ]
    played = by_index(rows)
    assert played[1] == Raised("KeyError: 'QM9'")
    with pytest.raises(JobError, match=r"^seed 22: KeyError: 'QM9' \(and 1 more runs failed\)$"):
        in_seed_order([11, 22, 33], played)


def test_a_campaign_that_lost_a_seeds_outcome_is_an_error_not_a_short_table() -> None:
    with pytest.raises(JobError, match=r"^the job gave 1 of 2 runs' outcomes$"):
        in_seed_order([11, 22], {1: "fine"})


class _Played:
    """A stand-in for a run: each seed played appends a line to a file (the child's
    runs are in another process), and the outcome is the seed's."""

    def __init__(self, log: Path, raises_at: int | None = None) -> None:
        self.log = log
        self.raises_at = raises_at

    def __call__(self, seed: int) -> int:
        if seed == self.raises_at:
            with self.log.open("a") as log:
                log.write("raised\n")
            raise RuntimeError(f"seed {seed} cannot be played")
        with self.log.open("a") as log:
            log.write(f"{seed}\n")
        return seed * 10

    def lines(self) -> list[str]:
        return self.log.read_text().split() if self.log.exists() else []


def _after(played: _Played, lines: int) -> None:
    """Spark 'starts' once the child has played ``lines`` seeds (polled: the child is
    another process; no assertion on how long it takes)."""
    while len(played.lines()) < lines:
        time.sleep(0.005)


class _Job:
    """A stand-in for the Spark job: plays the seeds at the indices it is given (those
    it can claim, given claims), and notes what it was given and what it played."""

    def __init__(self, seeds: list[int], before: Callable[[], None] = lambda: None) -> None:
        self.seeds = seeds
        self.before = before
        self.given: list[tuple[list[int], bool]] = []
        self.played: list[int] = []

    def __call__(self, spark: object, indices: list[int], claims: Claims | None) -> dict[int, int]:
        assert spark == "spark"
        self.given.append((indices, claims is not None))
        self.before()
        mine = [i for i in indices if claims is None or claims.claim(i)]
        self.played += mine
        return {i: self.seeds[i] * 10 for i in mine}


@pytest.mark.parametrize("ready_after", [0, 1, 5, 20])
@keeps(
    "docs/pipeline.md",
    "Either way every seed is played once, and the lines, table and replay commands are "
    "those of the seeds in order, whoever played them.",
)
def test_the_childs_seeds_and_the_jobs_are_every_seed_once_in_order_whenever_spark_is_ready(
    tmp_path: Path, ready_after: int
) -> None:
    seeds = list(range(100, 140))
    played = _Played(tmp_path / "played")
    job = _Job(seeds)

    def start() -> str:
        _after(played, ready_after)
        return "spark"

    assert head_started(seeds, played, start, job) == [s * 10 for s in seeds]
    [(later, claimed)] = job.given
    assert not claimed
    child = seeds[: len(seeds) - len(later)]
    assert later == list(range(len(child), len(seeds)))
    # The child stopped after the run it was in: it played exactly its share, in order.
    assert played.lines() == [str(s) for s in child]
    assert ready_after <= len(child) <= len(seeds) // 2  # Spark plays the last half at least


@pytest.mark.parametrize("ready_after", [0, 3])
@keeps(
    "docs/pipeline.md",
    "a file per seed in a private temporary directory, made with `O_EXCL` by whoever "
    "plays that seed first",
)
def test_with_claims_the_child_plays_on_until_the_job_claims_and_every_seed_is_played_once(
    tmp_path: Path, ready_after: int
) -> None:
    seeds = list(range(100, 140))
    played = _Played(tmp_path / "played")
    # The job's tasks start some runs after Spark is up: the child plays on meanwhile.
    job = _Job(seeds, before=lambda: _after(played, ready_after + 3))

    def start() -> str:
        _after(played, ready_after)
        return "spark"

    with claims_on(True) as claims:
        assert head_started(seeds, played, start, job, claims) == [s * 10 for s in seeds]
        assert claims is not None
        directory = Path(claims.directory)
        assert sorted(int(p.name) for p in directory.iterdir()) == list(range(len(seeds)))
    assert not directory.exists()
    [(later, claimed)] = job.given
    assert claimed
    assert later == list(range(later[0], len(seeds)))
    child = [int(line) for line in played.lines()]
    assert len(child) >= ready_after + 3  # on past Spark's start, into the job's
    assert child == seeds[: len(child)]  # the first ones, in order
    assert later[0] <= len(child)  # the job starts where the child was when Spark was up
    assert sorted(child + [seeds[i] for i in job.played]) == seeds  # each once


@keeps(
    "docs/pipeline.md",
    "A run that raises in the child, or a child that dies, leaves the seed it took to a "
    "second small job",
)
def test_a_child_whose_run_raises_leaves_that_seed_and_the_rest_to_spark(tmp_path: Path) -> None:
    seeds = list(range(100, 140))
    played = _Played(tmp_path / "played", raises_at=103)
    job = _Job(seeds)

    def start() -> str:
        _after(played, 4)  # 100, 101, 102, then the run that raised
        return "spark"

    assert head_started(seeds, played, start, job) == [s * 10 for s in seeds]
    assert job.given == [(list(range(3, 40)), False)]


def test_with_claims_a_seed_the_child_took_and_did_not_finish_is_played_by_a_second_job(
    tmp_path: Path,
) -> None:
    seeds = list(range(100, 140))
    played = _Played(tmp_path / "played", raises_at=103)
    job = _Job(seeds)

    def start() -> str:
        _after(played, 4)  # it claimed 103 (index 3), and its run raised
        return "spark"

    with claims_on(True) as claims:
        assert head_started(seeds, played, start, job, claims) == [s * 10 for s in seeds]
    [(later, claimed), again] = job.given
    # The job is given the seeds from the child's place as the driver last heard it.
    assert claimed and later == list(range(later[0], 40)) and later[0] <= 3
    assert again == ([3], False)  # seed 103, claimed by the child: named there if it raises


@keeps(
    "docs/pipeline.md",
    "A run that raises in the child, or a child that dies, leaves the seed it took to a "
    "second small job",
)
def test_a_child_that_dies_leaves_its_seeds_to_spark(tmp_path: Path) -> None:
    seeds = list(range(100, 140))
    log = tmp_path / "played"

    def dies(seed: int) -> int:
        if seed == 102:
            os._exit(3)  # killed mid-run, as by the OOM killer
        with log.open("a") as f:
            f.write(f"{seed}\n")
        return seed * 10

    def start() -> str:
        while not log.exists() or len(log.read_text().split()) < 2:
            time.sleep(0.005)
        return "spark"

    for local in (False, True):
        log.unlink(missing_ok=True)
        with claims_on(local) as claims:
            assert head_started(seeds, dies, start, _Job(seeds), claims) == [s * 10 for s in seeds]


def test_spark_plays_every_seed_if_it_is_ready_before_the_child_finishes_one() -> None:
    seeds = [1, 2, 3, 4]
    assert head_started(seeds, lambda s: s * 10, lambda: "spark", _Job(seeds)) == [10, 20, 30, 40]


@keeps(
    "docs/pipeline.md",
    "the driver asks the child to stop after the run it is in, keeps the outcomes it "
    "finished (always the first `k` seeds), and the job plays the rest",
)
def test_the_child_stops_after_the_run_it_is_in_and_that_run_is_kept(tmp_path: Path) -> None:
    log = tmp_path / "played"

    def gated(seed: int) -> int:
        with log.open("a") as f:
            f.write(f"start-{seed}\n")
        if seed == 103:  # the run in progress when Spark is ready
            while not (tmp_path / "go").exists():
                time.sleep(0.005)
        return seed * 10

    head = HeadStart(gated, list(range(100, 120)))
    head.start()
    while "start-103" not in (log.read_text().split() if log.exists() else []):
        time.sleep(0.005)
    head.request_stop()
    (tmp_path / "go").touch()
    assert head.stop() == [1000, 1010, 1020, 1030]
    assert log.read_text().split()[-1] == "start-103"


@keeps(
    "docs/pipeline.md",
    "a file per seed in a private temporary directory, made with `O_EXCL` by whoever "
    "plays that seed first",
)
def test_a_seed_is_claimed_once_whoever_asks_first(tmp_path: Path) -> None:
    claims = Claims(str(tmp_path))
    assert claims.claim(7)
    assert not claims.claim(7)
    assert claims.claim(8)


class _Unreadable:
    """An outcome the driver cannot unpickle (as if the child's qsg were another)."""

    def __reduce__(self) -> tuple[object, tuple[()]]:
        return (_refuse, ())


def _refuse() -> None:
    raise RuntimeError("this outcome cannot be read here")


def test_an_outcome_the_driver_cannot_read_is_raised_by_stop_not_lost_in_a_thread(
    tmp_path: Path,
) -> None:
    log = tmp_path / "played"

    def unreadable(seed: int) -> _Unreadable:
        log.write_text("played")  # then its outcome is sent, whenever stop is asked
        return _Unreadable()

    head = HeadStart(unreadable, [1, 2, 3])
    head.start()
    while not log.exists():
        time.sleep(0.005)
    with pytest.raises(RuntimeError, match=r"^this outcome cannot be read here$"):
        head.stop()
