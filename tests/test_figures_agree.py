"""The headline figures agree wherever qsg gives them (issue 42).

A capacity planner reads the same run three ways: ``qsg run``'s summary (and the run's
``run.json``), the metrics tables (``qsg metrics``, ``qsg sweep``: what each Spark task
computes, and the sweep's ``points``), and ``qsg report``. Each figure below is worked
out here a fourth time, from ``events.parquet`` alone with pandas and numpy (none of
the pipeline's or the summary's code), by the definitions docs/capacity.md and
docs/pipeline.md give, and every path must say the same:

- **throughput**: MQGETs that returned a message (browses not counted) from the end of
  the warm-up on, over the seconds from the warm-up's end to the run's last event;
- **latency percentiles**: nearest rank, of the gets whose message was first put after
  the warm-up;
- **peak depth**: the highest depth sampled after the warm-up;
- **structure fill**: entries and elements at each sample (``docs/capacity.md``, "The
  CF structure, sized"), the peak and when; **time to full**: from the last sample, at
  the least-squares trend of percent full over the run's samples, shown only where that
  trend reaches full within the run's horizon (as many seconds again as the samples
  span); a structure that filled is full at its first sample at 100%;
- **busiest member**: the queue manager with the most processor seconds over
  (seconds x CPUs); its **busiest interval**: of the full statistics intervals (at
  least as long as the run's statistics interval, the length most of them have), the
  busiest; the end's interval of a fraction of a millisecond is left out, as a partial
  SMF interval is.

The run (tests/data/figures-agree.toml) has a warm-up, a structure that fills, one that
rises during a getter outage and drains, and an end-of-run interval of 0.24 ms in
which QM3's last commits make it 100% busy. The fast tests compare the summary and the
tables a Spark task computes (``run_tables``) with the report's answers as
``answer_html`` renders them; the slow one drives the commands themselves: ``qsg run
--out``, ``qsg metrics``, ``qsg sweep`` and ``qsg report``.
"""

from __future__ import annotations

import html
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from qsg.commands.cli import main
from qsg.commands.display import duration
from qsg.commands.pipeline import answer
from qsg.commands.pipeline.report import answer_html
from qsg.commands.pipeline.run_tables import run_tables
from qsg.commands.pipeline.runs import read_log
from qsg.scenario import load_scenario
from qsg.scenario.play import run_scenario
from qsg.scenario.recording import write_run
from tests.claims import keeps

SCENARIO = Path(__file__).parent / "data" / "figures-agree.toml"

#: docs/capacity.md, "The CF structure, sized": SIZE KB hold SIZE entries and 4 x SIZE
#: elements of 256 bytes; a message takes its data and 200 bytes of control storage.
ELEMENT_BYTES, CONTROL_BYTES, ELEMENTS_PER_KB = 256, 200, 4
#: docs/capacity.md, "Warm-up": the run's record, kept whenever it happened.
RECORD = ["lease", "fault", "cf-failure", "kill", "restart"]


@dataclass
class Figures:
    """The headline figures of one run, worked out from its event log."""

    seed: int
    events: int
    #: Events the figures read: from the warm-up's end on, and the run's record
    #: (leases, faults, kills, restarts, the facility's failures) before it.
    counted: int
    since: float
    end: float
    seconds: float
    got: dict[tuple[str, str], int]
    throughput: dict[tuple[str, str], float]
    total_throughput: float
    p50: dict[tuple[str, str], float]
    p99: dict[tuple[str, str], float]
    measured: dict[tuple[str, str], int]
    peak_depth: dict[tuple[str, str], int]
    structures: dict[str, dict[str, Any]] = field(default_factory=dict)
    busy: dict[str, float] = field(default_factory=dict)
    busiest: str = ""
    busiest_interval: tuple[float, float] = (0.0, 0.0)


def _nearest_rank(values: np.ndarray, p: float) -> float:
    ordered = np.sort(values)
    return float(ordered[max(1, math.ceil(p * len(ordered))) - 1])


def worked_out(log: Path) -> Figures:
    """Every headline figure of the run whose event log is ``log``, from its rows."""
    meta = pq.read_schema(log).metadata
    _, until = json.loads(meta[b"qsg.warmup"])
    scopes = json.loads(meta[b"qsg.scopes"])
    since = until if until is not None else 0.0
    e = pq.read_table(log).to_pandas()
    end = float(e["time"].max())
    seconds = end - since
    qsg_of = scopes["members"]

    def scope(q_mgr: str, queue: str) -> str:
        group = qsg_of.get(q_mgr)
        return group if group and queue in scopes["shared"].get(group, []) else q_mgr

    after = e[e["time"] >= since]
    gets = after[(after["kind"] == "get") & ~after["browse"].isin([True])]
    gets = gets.assign(scope=list(map(scope, gets["q_mgr"], gets["queue"])))
    got = gets.groupby(["scope", "queue"]).size()
    first_put = e[e["kind"].isin(["put", "delivered"])].groupby("msg_id")["time"].min()
    put_at = gets["msg_id"].map(first_put)
    measured = gets[put_at >= since].assign(latency=gets["time"] - put_at)
    by_queue = measured.groupby(["scope", "queue"])["latency"]
    depth = after[after["kind"] == "depth"]
    depth = depth.assign(scope=list(map(scope, depth["q_mgr"], depth["queue"])))
    figures = Figures(
        seed=int(meta[b"qsg.seed"]),
        events=len(e),
        counted=len(after) + int(e[e["time"] < since]["kind"].isin(RECORD).sum()),
        since=since,
        end=end,
        seconds=seconds,
        got={k: int(v) for k, v in got.items()},
        throughput={k: v / seconds for k, v in got.items()},
        total_throughput=len(gets) / seconds,
        p50={k: _nearest_rank(v.to_numpy(), 0.5) for k, v in by_queue},
        p99={k: _nearest_rank(v.to_numpy(), 0.99) for k, v in by_queue},
        measured={k: len(v) for k, v in by_queue},
        peak_depth={k: int(v) for k, v in depth.groupby(["scope", "queue"])["depth"].max().items()},
    )
    for qsg, structures in scopes["structures"].items():
        for name, info in structures.items():
            found = _structure(after, qsg, info)
            if found is not None:  # a structure never sampled (CSQSYSAPPL's SYSTEM queues)
                figures.structures[name] = found
    statistics = after[after["kind"] == "qmgr-statistics"]
    statistics = statistics.assign(capacity=statistics["interval"] * statistics["cpus"])
    sums = statistics.groupby("q_mgr")[["cpu_seconds", "capacity"]].sum()
    figures.busy = (sums["cpu_seconds"] / sums["capacity"]).to_dict()
    figures.busiest = max(figures.busy, key=lambda m: figures.busy[m])
    # The run's statistics interval: the length most intervals have (the longest of
    # those, at a tie); a shorter one is partial.
    lengths = statistics["interval"].round(9).value_counts()
    usual = max(lengths.index, key=lambda length: (lengths[length], length))
    full = statistics[statistics["interval"].round(9) >= usual]
    mine = full[full["q_mgr"] == figures.busiest]
    busy = mine["cpu_seconds"] / mine["capacity"]
    top = busy.idxmax()
    figures.busiest_interval = (float(busy[top]), float(mine.loc[top, "time"]))
    return figures


def _structure(after: pd.DataFrame, qsg: str, info: dict[str, Any]) -> dict[str, Any] | None:
    """A structure's usage at each sample after the warm-up, its peak, trend and time to
    full (no offload rule fires: the test's messages are 1 and 2 KB, below 90% full)."""
    queues, size_kb = info["queues"], info["size_kb"]
    samples = after[(after["kind"] == "depth") & after["shared"].isin([True])]
    samples = samples[samples["queue"].isin(queues)]
    # A queue sampled twice at one instant (the periodic sample and the end's): its last.
    entries = samples.groupby(["time", "queue"])["depth"].last().groupby("time").sum()
    puts = after[(after["kind"] == "put") & after["queue"].isin(queues)]
    # Members put to a QSG's shared queue: every put to these queues is the structure's.
    each = -(-(puts["size"].to_numpy() + CONTROL_BYTES) // ELEMENT_BYTES)
    put_times = puts["time"].to_numpy()
    one_kb = -(-(1024 + CONTROL_BYTES) // ELEMENT_BYTES)
    rows = []
    for time, count in entries.items():
        made = each[put_times <= time]
        mean = made.mean() if len(made) else one_kb
        used = int(np.rint(count * mean))
        full = 100 * max(count / size_kb, used / (ELEMENTS_PER_KB * size_kb))
        rows.append((float(time), int(count), used, full))
    if not rows:
        return None  # none of its queues was sampled: the summary has no row for it
    times = np.array([r[0] for r in rows])
    percent = np.array([r[3] for r in rows])
    peak = rows[int(np.argmax(percent))]
    slope = float(np.polyfit(times, percent, 1)[0])
    horizon = times[-1] - times[0]
    ttf = (100 - percent[-1]) / slope if slope > 0 else None
    filled = [t for t, p in zip(times, percent, strict=True) if p >= 100]
    return {
        "qsg": qsg,
        "peak_percent_full": peak[3],
        "high_water_time": peak[0],
        "peak_entries": peak[1],
        "peak_elements": peak[2],
        "fill_rate": slope,
        "time_to_full": ttf if ttf is not None and ttf <= horizon else None,
        "time_to_full_at": float(times[-1]) if ttf is not None and ttf <= horizon else None,
        "full_at": filled[0] if filled else None,
    }


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("figures") / "run"
    write_run(out, SCENARIO, run_scenario(load_scenario(SCENARIO)))
    return out


@pytest.fixture(scope="module")
def expected(run_dir: Path) -> Figures:
    figures = worked_out(run_dir / "events.parquet")
    # What the run is for: a warm-up, a structure filling within the horizon, one that
    # rose and drained, and the busiest member's last interval a partial one at 100%.
    assert figures.since == 10.0
    assert figures.structures["FILL"]["time_to_full"] is not None
    assert figures.structures["STEADY"]["peak_percent_full"] > 5
    assert figures.structures["STEADY"]["time_to_full"] is None
    assert max(s["peak_percent_full"] for s in figures.structures.values()) < 90
    assert figures.measured[("QSG1", "APP.FILL")] < figures.got[("QSG1", "APP.FILL")]
    return figures


def _approx(value: float | None) -> Any:
    return None if value is None else pytest.approx(value, rel=1e-9, abs=1e-12)


def test_the_summary_gives_the_figures_worked_out_from_the_event_log(run_dir, expected):
    summary = json.loads((run_dir / "summary.json").read_text())
    ran = json.loads((run_dir / "run.json").read_text())
    assert (ran["status"], ran["seed"], ran["events"]) == ("ok", expected.seed, expected.events)
    totals = summary["totals"]
    assert totals["end"] == expected.end and totals["warmup"] == expected.since
    assert totals["seconds"] == _approx(expected.seconds)
    assert totals["throughput"] == _approx(expected.total_throughput)
    for row in summary["queues"]:
        key = (row["scope"], row["queue"])
        assert row["got"] == expected.got[key], key
        assert row["throughput"] == _approx(expected.throughput[key]), key
        assert (row["latency_p50"], row["latency_p99"]) == (
            expected.p50[key],
            expected.p99[key],
        ), key
        assert row["peak_depth"] == expected.peak_depth[key], key
    for row in summary["structures"]:
        want = expected.structures[row["structure"]]
        for name, value in want.items():
            shown = row[name]
            assert shown == (_approx(value) if isinstance(value, float) else value), (
                row["structure"],
                name,
            )
    busy = {r["q_mgr"]: r["cpu_busy"] for r in summary["qmgrs"]}
    assert busy == {m: _approx(v) for m, v in expected.busy.items()}
    assert max(busy, key=lambda m: busy[m]) == expected.busiest


@pytest.fixture(scope="module")
def tables(run_dir: Path) -> dict[str, Any]:
    """The run's tables as a Spark task computes them (``qsg metrics``, ``qsg sweep``)."""
    return run_tables(read_log("run", run_dir / "events.parquet"))


def test_the_tables_a_spark_task_computes_give_the_same_figures(tables, expected):
    (runs,) = tables["runs"].to_pylist()
    assert (runs["end"], runs["warmup"]) == (expected.end, expected.since)
    # Where they differ, as docs/pipeline.md says: run.json counts every event of the
    # log, the runs table those the figures read.
    assert runs["events"] == expected.counted < expected.events
    assert runs["seconds"] == _approx(expected.seconds)
    assert runs["got"] == sum(expected.got.values())
    got = tables["throughput"].group_by(["scope", "queue"]).aggregate([("got", "sum")])
    per_second = {(r["scope"], r["queue"]): r["got_sum"] / runs["seconds"] for r in got.to_pylist()}
    assert per_second == {k: _approx(v) for k, v in expected.throughput.items() if v}
    for row in tables["latency"].to_pylist():
        if row["q_mgr"] == "*":
            key = (row["scope"], row["queue"])
            assert (row["messages"], row["p50"], row["p99"]) == (
                expected.measured[key],
                expected.p50[key],
                expected.p99[key],
            ), key
    depth = tables["depth"].group_by(["scope", "queue"]).aggregate([("depth", "max")])
    assert {(r["scope"], r["queue"]): r["depth_max"] for r in depth.to_pylist()} == (
        expected.peak_depth
    )


def test_the_reports_answers_from_those_tables_give_the_same_figures(tables, expected):
    configs = {"run": ["run"]}
    for peak in answer.structures(tables):
        want = expected.structures[peak.structure]
        assert peak.peak_percent_full == _approx(want["peak_percent_full"])
        assert (peak.high_water_time, peak.peak_entries, peak.peak_elements) == (
            want["high_water_time"],
            want["peak_entries"],
            want["peak_elements"],
        )
        assert peak.fill_rate == _approx(want["fill_rate"])
        assert peak.time_to_full == _approx(want["time_to_full"]), peak.structure
        assert peak.time_to_full_at == want["time_to_full_at"]
        assert peak.full_at == want["full_at"]
    (busiest,) = answer.busiest(tables, configs)
    assert busiest.q_mgr == expected.busiest
    assert busiest.busy["mean"] == _approx(expected.busy[expected.busiest])
    assert (busiest.peak, busiest.peak_at) == (
        _approx(expected.busiest_interval[0]),
        expected.busiest_interval[1],
    )
    shown = report_tables(answer_html(tables, configs))
    _check_report_answers(shown, expected, "run")


def report_tables(page: str) -> dict[str, list[list[str]]]:
    """Every table of a report page by its ``data-table`` name: its rows of cell texts
    (the header first)."""
    found = {}
    for name, body in re.findall(r'<table class="[^"]*" data-table="([^"]+)">(.*?)</table>', page):
        found[name] = [
            [html.unescape(c) for c in re.findall(r"<t[hd]>(.*?)</t[hd]>", row)]
            for row in re.findall(r"<tr>(.*?)</tr>", body)
        ]
    return found


def _check_report_answers(shown: dict[str, list[list[str]]], expected: Figures, run: str) -> None:
    """The report's answers say the expected figures, as it formats them."""
    head, *rows = shown["answer-structures"]
    assert len(rows) == len(expected.structures)
    for row in rows:
        cells = dict(zip(head, row, strict=True))
        want = expected.structures[cells["structure"].split("/")[-1]]
        peak = f"{want['peak_percent_full']:.3g}% at {want['high_water_time']:g} s ({run})"
        assert cells["peak % full (high-water mark)"].startswith(peak), cells
        assert cells["entries at peak / max"].startswith(f"{want['peak_entries']:,} / "), cells
        assert cells["elements at peak / max"].startswith(f"{want['peak_elements']:,} / "), cells
        ttf = cells["time to full"]
        if want["time_to_full"] is None:
            assert ttf.startswith("–"), cells
        else:
            projected = f"{duration(want['time_to_full'])} after {want['time_to_full_at']:g} s"
            assert ttf.startswith(projected), cells
            assert f"{want['fill_rate']:.3g}% a second" in ttf, cells
    head, *rows = shown["answer-busiest"]
    (row,) = rows
    cells = dict(zip(head, row, strict=True))
    assert cells["queue manager"] == expected.busiest
    assert cells["busy over the run (95% interval across seeds)"].startswith(
        f"{100 * expected.busy[expected.busiest]:.4g}%"
    )
    busy, at = expected.busiest_interval
    assert cells["busiest interval"] == f"{100 * busy:.3g}% at {at:g} s ({run})"


@pytest.mark.slow
@keeps(
    "docs/pipeline.md",
    "with a warm-up of a quarter of the run, dividing by the whole run would read 25% low",
)
def test_a_sweep_points_throughput_is_its_gets_after_the_warm_up_over_the_seconds_after_it(
    spark: Any,
) -> None:
    # Issue 42: "Sweep throughput is 25% low whenever there is a warm-up": the gets
    # after a 10 s warm-up were divided by the whole 40 s. A point's throughput is the
    # summary's: every MQGET after the warm-up (300 here, 100 of messages put during
    # it, which have no latency) over the 30 s from the warm-up's end to the last event.
    import pyarrow as pa

    from qsg.commands.pipeline.sweep import LATENCIES, POINT_ROWS, points_frame

    played = spark.createDataFrame(
        pa.Table.from_pylist(
            [{"run": "p", "seed": 1, "params": "{}", "group": "", "offered_load": 10.0}],
            schema=POINT_ROWS.append(pa.field("error", pa.string())),
        ).drop_columns(["text"])
    )
    runs = spark.createDataFrame(
        pa.table({"run": ["p"], "warmup": [10.0], "end": [40.0], "seconds": [30.0]})
    )
    latencies = [None] * 100 + [float(i) for i in range(1, 201)]
    lat = spark.createDataFrame(
        pa.table({"run": ["p"] * 300, "latency": latencies}, schema=LATENCIES)
    )
    (row,) = points_frame(played, runs, lat).collect()
    assert (row["got"], row["throughput"]) == (300, 10.0)
    # The percentiles are of the 200 gets measured (nearest rank: the 100th and 198th).
    assert (row["latency_p50"], row["latency_p99"]) == (100.0, 198.0)


def _invoke(*args: str) -> str:
    done = CliRunner().invoke(main, list(args))
    assert done.exit_code == 0, done.output
    return done.output


def _table(location: Path) -> list[dict[str, Any]]:
    """A metrics table as ``qsg metrics`` or ``qsg sweep`` wrote it (Parquet,
    partitioned by run), read with pyarrow."""
    table = pq.read_table(location)
    if "run" in table.column_names:
        table = table.set_column(
            table.column_names.index("run"), "run", table["run"].cast("string")
        )
    return table.to_pylist()


@pytest.mark.slow
def test_the_commands_say_the_figures_worked_out_from_the_event_log(
    spark: Any, tmp_path: Path
) -> None:
    """``qsg run --out``, ``qsg metrics``, ``qsg report`` and ``qsg sweep`` (with its
    report) on the same scenario: every headline figure as worked out from the logs."""
    runs = tmp_path / "runs"
    printed = _invoke("run", str(SCENARIO), "--out", str(runs / "one"), "--no-progress")
    expected = worked_out(runs / "one" / "events.parquet")
    summary = json.loads((runs / "one" / "summary.json").read_text())
    assert summary["totals"]["throughput"] == _approx(expected.total_throughput)
    assert f"throughput {expected.total_throughput:,.4g} MQGETs a second" in printed
    _invoke("metrics", str(runs), "--master", "local[2]")
    tables = {
        name: _table(runs / "metrics" / name) for name in ("runs", "throughput", "latency", "depth")
    }
    (run,) = tables["runs"]
    assert run["seconds"] == _approx(expected.seconds)
    for key, value in expected.throughput.items():
        got = sum(r["got"] for r in tables["throughput"] if (r["scope"], r["queue"]) == key)
        assert got / run["seconds"] == _approx(value), key
    for row in tables["latency"]:
        if row["q_mgr"] == "*":
            key = (row["scope"], row["queue"])
            assert (row["p50"], row["p99"]) == (expected.p50[key], expected.p99[key]), key
    for key, value in expected.peak_depth.items():
        assert max(r["depth"] for r in tables["depth"] if (r["scope"], r["queue"]) == key) == value
    _invoke("report", str(runs), "--master", "local[2]")
    shown = report_tables((runs / "report.html").read_text())
    _check_report_answers(shown, expected, "one")
    _check_report_tables(shown, expected, "one")
    # The depth chart (one run: its line is the run's samples) peaks at each shared
    # queue's peak depth (the members' empty dead-letter queues it leaves out).
    depth = report_charts((runs / "report.html").read_text())["Depth over time"]
    for queue in ("APP.FILL", "APP.STEADY"):
        (line,) = [d for d in depth if d.get("name") == f"QSG1/{queue}" and d["mode"] == "lines"]
        assert max(line["y"]) == expected.peak_depth[("QSG1", queue)], queue

    sweep = tmp_path / "one-point.toml"
    sweep.write_text(
        f'scenario = "{SCENARIO}"\nseeds = [7]\n'
        'objective = { p99 = 60, queue = "APP.FILL" }\n\n[vary]\n"workload.fill.rate" = [20]\n'
    )
    out = tmp_path / "sweep"
    _invoke("sweep", str(sweep), "--out", str(out), "--master", "local[2]")
    point = out / "runs" / "p001-s7"
    swept = worked_out(point / "events.parquet")
    fill = ("QSG1", "APP.FILL")
    (row,) = _table(out / "metrics" / "points")
    assert row["got"] == swept.got[fill]
    assert row["throughput"] == _approx(swept.throughput[fill])
    assert (row["latency_p50"], row["latency_p99"]) == (swept.p50[fill], swept.p99[fill])
    queues = json.loads((point / "summary.json").read_text())["queues"]
    queue = next(q for q in queues if q["queue"] == fill[1])
    assert queue["throughput"] == _approx(row["throughput"])
    shown = report_tables((out / "report.html").read_text())
    _check_report_answers(shown, swept, "p001-s7")
    head, *rows = shown["points"]
    (cells,) = [dict(zip(head, r, strict=True)) for r in rows]
    assert cells["throughput"] == f"{swept.throughput[fill]:,.4g}"
    assert (cells["latency_p50"], cells["latency_p99"]) == (
        duration(swept.p50[fill]),
        duration(swept.p99[fill]),
    )


def report_charts(page: str) -> dict[str, list[dict[str, Any]]]:
    """Every chart of a report page by its title: the traces plotly draws."""
    found = {}
    decoder = json.JSONDecoder()
    for title, div in re.findall(r"<h2>([^<]*)</h2>(.*?)(?=<h2>|$)", page, re.S):
        drawn = re.search(r'Plotly\.newPlot\(\s*"[^"]+",\s*', div)
        if drawn is not None:
            found[html.unescape(title)] = decoder.raw_decode(div, drawn.end())[0]
    return found


def _check_report_tables(shown: dict[str, list[list[str]]], expected: Figures, run: str) -> None:
    """The report's raw tables: the run's throughput, and each queue's percentiles."""
    head, *rows = shown["runs"]
    (cells,) = [dict(zip(head, r, strict=True)) for r in rows if r[0] == run]
    assert cells["throughput"] == f"{expected.total_throughput:,.4g}"
    head, *rows = shown["latency"]
    for r in rows:
        cells = dict(zip(head, r, strict=True))
        if cells["q_mgr"] == "*":
            key = (cells["scope"], cells["queue"])
            assert (cells["p50"], cells["p99"]) == (
                duration(expected.p50[key]),
                duration(expected.p99[key]),
            ), key
