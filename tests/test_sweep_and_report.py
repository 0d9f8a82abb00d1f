"""``qsg sweep`` and ``qsg report``: a sweep file's points, its 12-point sweep on
``local[2]`` (3 loads x 2 member counts x 2 seeds, each point a Spark task with its own
embedded coupling-facility server), the knee, and the report in a real browser."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from qsg.commands.cli import main
from qsg.commands.pipeline.sweep_file import load_sweep
from qsg.scenario.errors import ScenarioError
from tests.browser import load
from tests.claims import keeps
from tests.test_pipeline import _documented

SCENARIOS = Path(__file__).parent.parent / "scenarios"
SWEEP = SCENARIOS / "sweep-capacity.toml"


@keeps(
    "README.md",
    "A sweep varies a base scenario (rates, member counts, CF access time, any key; seeds)",
)
@keeps("docs/pipeline.md", "every combination runs once per seed")
def test_a_sweep_has_a_point_per_combination_and_seed():
    sweep = load_sweep(SWEEP)
    assert len(sweep.points) == 12
    assert {p.seed for p in sweep.points} == {1, 2}
    four = next(
        p
        for p in sweep.points
        if p.params["qsg.QSG1.members"] == 4 and p.params["workload.*.rate"] == 60
    )
    # Two members more, named like the first, each with copies of QM1's applications.
    assert four.members == 4 and four.offered_load == 4 * 60
    assert 'members = [\n    "QM1",\n    "QM2",\n    "QM3",\n    "QM4",\n]' in four.text
    assert 'name = "entry.QM3"' in four.text and 'name = "fulfil.QM4"' in four.text
    assert four.group == "qsg.QSG1.members=4"  # rates are the load axis, not a group


@keeps(
    "docs/pipeline.md",
    "`replications = N` (instead of `seeds`) plays N seeds from the base scenario's "
    "`[run] seed` on",
)
def test_replications_play_that_many_seeds_a_point_from_the_first_seed(tmp_path):
    sweep = tmp_path / "r.toml"
    sweep.write_text(
        f'scenario = "{SCENARIOS / "sweep-base.toml"}"\nreplications = 3\n'
        "objective = { p99 = 0.1 }\n"
        '[vary]\n"workload.*.rate" = [10, 20]\n'
    )
    loaded = load_sweep(sweep)
    # The base scenario's [run] seed is 1: seeds 1, 2 and 3, each point three times.
    assert loaded.seeds == [1, 2, 3]
    assert [p.run for p in loaded.points] == [f"p00{i}-s{s}" for i in (1, 2) for s in (1, 2, 3)]
    assert load_sweep(SWEEP, replications=4).seeds == [1, 2, 3, 4]  # from its seeds' first


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("seeds = [1]\nreplications = 2\n", r"r\.toml:3: replications: give seeds or replications"),
        ("replications = 0\n", r"r\.toml:2: replications: replications must be an integer from 1"),
    ],
)
def test_bad_replications_are_refused_at_their_line(tmp_path, text, message):
    sweep = tmp_path / "r.toml"
    sweep.write_text(
        f'scenario = "{SCENARIOS / "sweep-base.toml"}"\n{text}'
        'objective = { p99 = 0.1 }\n[vary]\n"workload.*.rate" = [10]\n'
    )
    with pytest.raises(ScenarioError, match=message):
        load_sweep(sweep)


@keeps(
    "docs/pipeline.md",
    "a problem is reported with the sweep file's line (for a parameter that names nothing)",
)
def test_a_sweep_naming_what_the_scenario_lacks_is_refused_at_its_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(
        f'scenario = "{SCENARIOS / "sweep-base.toml"}"\n'
        "objective = { p99 = 0.1 }\n"
        "[vary]\n"
        '"workload.nosuch.rate" = [1, 2]\n'
    )
    with pytest.raises(
        ScenarioError,
        match=r"bad\.toml:4: vary\.workload\.nosuch\.rate: "
        r"no workload named nosuch in the scenario$",
    ):
        load_sweep(bad)


@keeps(
    "docs/pipeline.md",
    "or the point's name and parameters (for a value the scenario refuses). Exit code 2, "
    "nothing started.",
)
def test_a_sweep_point_the_scenario_checks_refuse_is_reported_before_anything_runs(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(
        f'scenario = "{SCENARIOS / "sweep-base.toml"}"\n'
        "objective = { p99 = 0.1 }\n"
        "[vary]\n"
        '"workload.*.rate" = [10, -1]\n'
    )
    with pytest.raises(
        ScenarioError,
        match=r"point p002-s0 \(workload\.\*\.rate=-1\):\d+: "
        r"workload\[0\]\.rate: ",
    ):
        load_sweep(bad)
    result = CliRunner().invoke(main, ["sweep", str(bad), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and not (tmp_path / "o").exists()


@keeps(
    "README.md",
    "The report opens with the answers (the knee with its 95% interval, each "
    "structure's peak and time to full, the busiest member), then the charts.",
)
@keeps("README.md", "the highest load whose p99 latency meets the objective")
@keeps(
    "docs/pipeline.md",
    "the highest offered load whose p99 latency (pooled over the seeds, on the "
    "objective's queue, else every queue) stays within the objective, every lower load "
    "meeting it too",
)
def test_a_twelve_point_sweep_finds_the_knee_and_reports_it(spark, tmp_path):
    out = tmp_path / "sweep"
    result = CliRunner().invoke(
        main, ["sweep", str(SWEEP), "--out", str(out), "--master", "local[2]"]
    )
    assert result.exit_code == 0, result.output
    points = [r.asDict() for r in spark.read.parquet(str(out / "metrics" / "points")).collect()]
    assert len(points) == 12
    assert all(r["got"] > 0 and r["latency_p99"] is not None for r in points)
    # Throughput follows the offered load below saturation (within 10%: Poisson noise).
    for r in points:
        assert r["throughput"] == pytest.approx(r["offered_load"], rel=0.1), r
    knee = [r.asDict() for r in spark.read.parquet(str(out / "metrics" / "knee")).collect()]
    groups = {r["group"] for r in knee}
    assert groups == {"qsg.QSG1.members=2", "qsg.QSG1.members=4"}
    for group in groups:
        rows = sorted((r for r in knee if r["group"] == group), key=lambda r: r["offered_load"])
        assert [r["offered_load"] for r in rows] == (
            [40.0, 120.0, 180.0] if group.endswith("2") else [80.0, 240.0, 360.0]
        )
        # The knee is the highest load that, with every load below it, meets the objective.
        meeting = [r for r in rows if r["meets"]]
        marked = [r for r in rows if r["knee"]]
        assert len(marked) <= 1
        prefix = 0
        while prefix < len(rows) and rows[prefix]["meets"]:
            prefix += 1
        assert marked == ([rows[prefix - 1]] if prefix else [])
        assert all(r["latency_p99"] <= 0.1 for r in meeting)
    # p99 grows with the load (M/M/2N nearer saturation).
    p99 = {r["offered_load"]: r["latency_p99"] for r in knee}
    assert p99[40.0] < p99[180.0] and p99[80.0] < p99[360.0]
    documented = _documented()
    for name in ("points", "knee"):
        columns = spark.read.parquet(str(out / "metrics" / name)).columns
        assert columns == [c for c, _ in documented[name]], name  # Spark reads them back
    described = json.loads((out / "sweep.json").read_text())
    assert described["points"] == 12
    # Each of the 6 points' figures over its 2 seeds (Student t with 1 degree of freedom).
    assert len(described["intervals"]) == 6
    assert all(
        r["throughput"]["n"] == 2 and r["throughput"]["half_width"] is not None
        for r in described["intervals"]
    )
    assert "mean ± 95% half-width over 2 seeds" in result.output
    assert len(list((out / "runs").glob("*/events.parquet"))) == 12

    seen = load(out / "report.html", screenshot=tmp_path / "report.png")
    assert seen.errors == []
    # load, latency CDF, depth, throughput, CF structure usage, utilisation, timeline
    assert seen.plots == seen.drawn == 7
    assert all(n > 0 for n in seen.paths), seen.paths
    assert seen.traces >= 12
    assert {"answer-knee", "answer-structures", "answer-busiest", "runs", "latency", "knee"} <= set(
        seen.tables
    )


def test_the_report_of_one_run_loads_in_a_browser_with_its_plots(tmp_path):
    run = tmp_path / "run"
    small = Path(__file__).parent / "data" / "pipeline-small.toml"
    assert (
        CliRunner().invoke(main, ["run", str(small), "--out", str(run), "--no-progress"]).exit_code
        == 0
    )
    result = CliRunner().invoke(main, ["report", str(run), "--master", "local[2]"])
    assert result.exit_code == 0, result.output
    seen = load(run / "report.html")
    assert seen.errors == []
    assert seen.plots == seen.drawn == 6  # no sweep: no load plot
    assert {"runs", "latency", "expiry", "failover_gaps", "recoveries"} <= set(seen.tables)


def test_a_report_of_a_directory_without_runs_says_so(tmp_path):
    result = CliRunner().invoke(main, ["report", str(tmp_path), "--master", "local[2]"])
    assert result.exit_code == 1
    assert "no events.parquet below it" in result.output


@pytest.mark.parametrize("command", ["metrics", "report"])
def test_a_directory_with_no_runs_is_named_before_spark_starts(
    command: str, tmp_path: Path
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "qsg.commands.cli", command, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done
    assert f"{tmp_path}: no events.parquet below it" in done.stderr
    assert "setLogLevel" not in done.stderr  # Spark's first words: it never started


def test_spark_says_nothing_at_start_up(tmp_path: Path) -> None:
    # Its INFO and WARN lines and "Setting default log level" are noise to a qsg user;
    # errors would still show (qsg/commands/pipeline/log4j2.properties).
    run = tmp_path / "run"
    small = Path(__file__).parent / "data" / "pipeline-small.toml"
    assert (
        CliRunner().invoke(main, ["run", str(small), "--out", str(run), "--no-progress"]).exit_code
        == 0
    )
    done = subprocess.run(
        [sys.executable, "-m", "qsg.commands.cli", "metrics", str(run), "--master", "local[1]"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done
    assert "tables written" in done.stdout
    noise = [line for line in done.stderr.splitlines() if "incubator" not in line]
    assert noise == [], noise


@pytest.mark.slow
@keeps("docs/pipeline.md", "any other is refused in one line before Spark starts")
def test_a_sweep_out_pyarrow_cannot_write_is_named_before_spark_starts(tmp_path: Path) -> None:
    # Each task writes its point's run with pyarrow: an OUT only Spark reaches (Hadoop's
    # viewfs://, here) would fail every point after playing it; it is refused first.
    out = "viewfs://qsgnowhere/sweeps/cap"
    done = subprocess.run(
        [sys.executable, "-m", "qsg.commands.cli", "sweep", str(SWEEP), "--out", out],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done
    assert f"{out}: pyarrow cannot open it" in done.stderr
    assert "write each point's run with pyarrow" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "setLogLevel" not in done.stderr  # Spark's first words: it never started


@keeps("docs/pipeline.md", "any other is refused in one line before Spark starts")
def test_run_sweep_refuses_an_out_pyarrow_cannot_write_before_playing_a_point(
    spark, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from qsg.commands.pipeline import sweep as sweeping

    played: list[str] = []
    monkeypatch.setattr(sweeping, "play_point", lambda point, *_: played.append(point.run))
    with pytest.raises(ValueError, match=r"^viewfs://qsgnowhere/x: pyarrow cannot open it"):
        sweeping.run_sweep(spark, load_sweep(SWEEP), "viewfs://qsgnowhere/x")
    assert played == []


@keeps(
    "docs/pipeline.md",
    "A test plays a 200-point sweep and checks that the only rows Spark hands the driver "
    "are the 200 results.",
)
def test_a_200_point_sweep_brings_the_driver_a_row_per_point_and_no_events(
    spark, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pyspark.sql.classic.dataframe import DataFrame

    from qsg.commands.pipeline.frames import RESULT
    from qsg.commands.pipeline.sweep import run_sweep

    tiny = tmp_path / "tiny.toml"
    rates = ", ".join(str(r) for r in range(1, 101))
    # In process: what is pinned is the rows that come back to the driver, the same
    # whichever store a point plays on, and 200 points each starting an embedded
    # coupling-facility server cost some 0.2 s of a core each (measured: 0.17-0.32 s a
    # one-second point on its server, 0.06 s in process).
    tiny.write_text(
        f'scenario = "{SCENARIOS / "sweep-base.toml"}"\nduration = 1\n'
        f"seeds = [1, 2]\nobjective = {{ p99 = 0.1 }}\n[vary]\n"
        f'"workload.*.rate" = [{rates}]\n"run.in_process" = [true]\n'
    )
    sweep = load_sweep(tiny)
    assert len(sweep.points) == 200
    collected: list[tuple[list[str], list[Any]]] = []
    for method in ("collect", "toArrow", "toPandas", "toLocalIterator", "take", "tail"):
        original = getattr(DataFrame, method)

        def spy(self: Any, *args: Any, _original: Any = original, **kwargs: Any) -> Any:
            got = _original(self, *args, **kwargs)
            collected.append((self.columns, got))
            return got

        monkeypatch.setattr(DataFrame, method, spy)
    swept = run_sweep(spark, sweep, tmp_path / "out")
    assert not [r for r in swept.results if r.error]
    assert swept.points.num_rows == 200
    # Spark handed the driver one result row a point: no table, no latency, no event.
    (columns, rows), *others = collected
    assert columns == ["table", "run", "part"] and others == []
    assert len(rows) == 200 and {r["table"] for r in rows} == {RESULT}
    assert max(len(r["part"]) for r in rows) < 200  # a point's result: a line of JSON


@keeps(
    "docs/pipeline.md",
    "A point that fails is a row of `points` with its error, and is named on the "
    "terminal; the others are kept (exit code 1).",
)
def test_a_point_that_fails_on_its_executor_is_a_row_with_its_error_and_the_rest_are_kept(
    spark, tmp_path: Path
) -> None:
    # Issue 33: "A point that fails is a row with its error, not a lost job." Point
    # p002-s1's run directory cannot be made (a file holds its name): its executor's
    # work fails there, the other points play, and the sweep says so and exits 1.
    sweep = tmp_path / "three.toml"
    sweep.write_text(
        f'scenario = "{SCENARIOS / "sweep-base.toml"}"\nduration = 2\n'
        'seeds = [1]\nobjective = { p99 = 0.1 }\n[vary]\n"workload.*.rate" = [5, 10, 15]\n'
    )
    out = tmp_path / "out"
    (out / "runs").mkdir(parents=True)
    (out / "runs" / "p002-s1").write_text("not a directory")
    result = CliRunner().invoke(
        main, ["sweep", str(sweep), "--out", str(out), "--master", "local[2]"]
    )
    assert result.exit_code == 1, result.output
    failed = [line for line in result.output.splitlines() if "failed" in line]
    assert len(failed) == 1 and failed[0].startswith("point p002-s1 failed: FileExistsError")
    points = {
        r["run"]: r.asDict() for r in spark.read.parquet(str(out / "metrics" / "points")).collect()
    }
    assert sorted(points) == ["p001-s1", "p002-s1", "p003-s1"]
    assert points["p002-s1"]["error"].startswith("FileExistsError")
    assert points["p002-s1"]["got"] in (None, 0)
    for kept in ("p001-s1", "p003-s1"):
        assert points[kept]["error"] is None and points[kept]["got"] > 0
        assert (out / "runs" / kept / "events.parquet").exists()


@keeps("docs/pipeline.md", "DIR may be a URI; the report is written locally")
def test_a_report_of_a_file_uri_is_the_report_of_its_path(spark, tmp_path: Path) -> None:
    # Issue 33: every path option accepts a URI; the report reads from one. A file://
    # URI is the same directory as its path, and so the same report.
    run = tmp_path / "run"
    small = Path(__file__).parent / "data" / "pipeline-small.toml"
    done = CliRunner().invoke(main, ["run", str(small), "--out", str(run), "--no-progress"])
    assert done.exit_code == 0, done.output
    pages = {}
    for name, where in (("path", str(run)), ("uri", run.as_uri())):
        page = tmp_path / f"{name}.html"
        result = CliRunner().invoke(
            main, ["report", where, "--out", str(page), "--master", "local[2]"]
        )
        assert result.exit_code == 0, result.output
        pages[name] = page.read_text().split("<h2>Tables</h2>", 1)[1]
    assert pages["uri"] == pages["path"] and "<table" in pages["uri"]


@keeps("docs/pipeline.md", "Points are dealt to tasks by their expected cost")
def test_a_points_expected_cost_is_its_messages_and_samples_so_the_heavy_ones_are_dealt_apart():
    # docs/pipeline.md: points are dealt to tasks by (offered load + members) x duration.
    from qsg.commands.pipeline.frames import deal
    from qsg.commands.pipeline.sweep import expected_cost

    points = {p.run: p for p in load_sweep(SWEEP).points}
    costs = {run: expected_cost(p) for run, p in points.items()}
    for run, p in points.items():
        duration = float(tomllib.loads(p.text).get("run", {}).get("duration", 60))
        assert costs[run] == round((p.offered_load + p.members) * duration)
    heaviest = sorted(costs, key=costs.__getitem__)[-2:]
    runs = list(costs)
    hands = deal([costs[r] for r in runs], 2)
    assert [runs.index(r) in hands[0] for r in heaviest].count(True) == 1  # one each
