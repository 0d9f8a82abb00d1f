"""The planner's report (qsg/commands/pipeline/answer.py, charts.py, report.py): the answers it
opens with, worked out by hand from small tables in the metrics' own schemas, the
charts' bands across seeds with every run in them, and, in a real browser, every
chart drawn.

The rules pinned: the knee is interpolated linearly between the highest tested load
that meets the p99 objective (with every lower one) and the next; its interval is
Student t over the seeds' own knees (Law, *Simulation Modeling and Analysis*, ch. 9),
none when a seed's knee is outside the loads tested; a band is the 5th to 95th
percentile across a configuration's runs, and a chart names what it leaves out.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from click.testing import CliRunner

from actors.statistics import VERBS
from qsg.commands.cli import main
from qsg.commands.pipeline import answer, charts, metrics
from qsg.commands.pipeline import run_tables as rt
from qsg.commands.pipeline.report import answer_html, write_report
from qsg.commands.pipeline.runs import find_runs
from qsg.commands.pipeline.sweep import KNEE, POINTS
from qsg.commands.replicate import interval
from tests.claims import keeps

SCENARIOS = Path(__file__).parent.parent / "scenarios"
SCHEMAS = {**rt.SCHEMAS, "points": POINTS, "knee": KNEE}


def _table(name: str, rows: list[dict[str, Any]]) -> pa.Table:
    schema = SCHEMAS[name]
    return pa.Table.from_pylist([{c: r.get(c) for c in schema.names} for r in rows], schema)


def _sweep(
    p99: dict[int, list[float]],
    loads: list[float],
    objective: float = 0.1,
) -> dict[str, pa.Table]:
    """Points of one group, a seed's p99 at each load, and the knee table pooled as the
    seeds' mean (the pooling does not matter to the interpolation)."""
    points, runs = [], []
    for seed, values in p99.items():
        for i, (load, value) in enumerate(zip(loads, values, strict=True)):
            run = f"p{i:03d}-s{seed}"
            runs.append({"run": run, "seed": seed})
            points.append(
                {
                    "run": run,
                    "params": json.dumps({"rate": load}),
                    "group": "",
                    "seed": seed,
                    "offered_load": load,
                    "throughput": load,
                    "latency_p99": value,
                }
            )
    pooled = [sum(v[i] for v in p99.values()) / len(p99) for i in range(len(loads))]
    meets = [all(p <= objective for p in pooled[: i + 1]) for i in range(len(loads))]
    knee = [
        {
            "group": "",
            "offered_load": load,
            "latency_p99": p,
            "objective_p99": objective,
            "meets": m,
            "knee": m and (i + 1 == len(loads) or not meets[i + 1]),
        }
        for i, (load, p, m) in enumerate(zip(loads, pooled, meets, strict=True))
    ]
    return {
        "runs": _table("runs", runs),
        "points": _table("points", points),
        "knee": _table("knee", knee),
    }


@keeps("README.md", "the highest load whose p99 latency meets the objective")
def test_the_knee_is_interpolated_between_the_last_load_meeting_the_objective_and_the_next():
    # p99 0.05 at 100/s, 0.25 at 200/s: 0.1 is a quarter of the way, at 125/s.
    assert answer.crossing([(200.0, 0.25), (100.0, 0.05), (50.0, 0.01)], 0.1) == (125.0, "")
    # A load past the objective below one meeting it: the first one past it counts.
    assert answer.crossing([(50.0, 0.2), (100.0, 0.05)], 0.1) == (None, "below")
    assert answer.crossing([(50.0, 0.01), (100.0, 0.05)], 0.1) == (100.0, "above")
    # Nothing got at 200/s (no p99): the knee is put at the load below it.
    assert answer.crossing([(100.0, 0.05), (200.0, None)], 0.1) == (100.0, "")


def test_the_knees_interval_is_student_t_over_each_seeds_own_knee():
    tables = _sweep(
        {1: [0.01, 0.05, 0.25], 2: [0.01, 0.06, 0.16], 3: [0.02, 0.04, 0.10]}, [50.0, 100.0, 200.0]
    )
    (knee,) = answer.knees(tables)
    # Seed 1: 100 + 100 x 0.05/0.20 = 125; seed 2: 100 + 100 x 0.04/0.10 = 140; seed 3
    # meets it exactly at 200/s (its p99 0.10 is within it): every load meets, no knee.
    assert knee.seeds == {1: pytest.approx(125.0), 2: pytest.approx(140.0)}
    assert knee.censored == {3: "above"}
    assert knee.interval["half_width"] is None  # a seed without a knee: no interval
    # Pooled: 0.05 at 100/s, 0.17 at 200/s: 100 + 100 x 0.05/0.12.
    assert knee.load == pytest.approx(100 + 100 * 0.05 / 0.12)
    assert knee.highest_met == 100.0 and knee.tested == (50.0, 200.0)
    tables = _sweep(
        {1: [0.01, 0.05, 0.25], 2: [0.01, 0.06, 0.16], 3: [0.02, 0.04, 0.16]}, [50.0, 100.0, 200.0]
    )
    (knee,) = answer.knees(tables)
    assert knee.censored == {}
    assert knee.interval == pytest.approx(interval([125.0, 140.0, 100 + 100 * 0.06 / 0.12]))
    page = answer_html(tables, answer.configurations(tables))
    assert "±" in page and "knee" in page


def test_a_sweep_points_figures_are_intervals_over_its_seeds_leaving_failures_out():
    tables = _sweep({1: [0.01, 0.05], 2: [0.02, 0.07], 3: [0.03, 0.09]}, [50.0, 100.0])
    points = tables["points"].to_pylist()
    points[-1]["error"] = "RuntimeError: it broke"  # seed 3 at 100/s failed
    low, high = answer.point_intervals(points)
    assert (low["params"], low["offered_load"], low["seeds"]) == ({"rate": 50.0}, 50.0, [1, 2, 3])
    assert low["latency_p99"] == pytest.approx(interval([0.01, 0.02, 0.03]))
    assert high["seeds"] == [1, 2]
    assert high["latency_p99"] == pytest.approx(interval([0.05, 0.07]))
    assert high["throughput"] == pytest.approx(interval([100.0, 100.0]))


def _usage(run: str, samples: list[tuple[float, float]]) -> list[dict[str, Any]]:
    """A run's ``cf_usage`` rows of structure S1 (SIZE 1000 KB: 1,000 entries, 4,000
    elements) at (time, percent full), the elements the fuller."""
    return [
        {
            "run": run,
            "qsg": "QSG1",
            "structure": "S1",
            "time": time,
            "entries": round(percent * 10),
            "size_kb": 1000,
            "used": percent / 100,
            "elements": round(percent * 40),
            "max_elements": 4000,
            "percent_full": percent,
        }
        for time, percent in samples
    ]


def test_a_structures_peak_is_the_fullest_sample_of_any_run_and_time_to_full_the_soonest():
    # Run a rises 2% a second, 10% at 10 s to 50% at 30 s: its trend reaches full 25 s
    # after its last sample, within its horizon of 20 s more... no: 25 > 20, none.
    # Run b rises 3% a second, 20% at 0 s to 80% at 20 s: full 6.67 s after 20 s.
    usage = [
        *_usage("a", [(10.0, 10.0), (20.0, 30.0), (30.0, 50.0)]),
        *_usage("b", [(0.0, 20.0), (10.0, 50.0), (20.0, 80.0)]),
    ]
    (peak,) = answer.structures({"cf_usage": _table("cf_usage", usage)})
    assert (peak.peak_percent_full, peak.peak_run, peak.high_water_time) == (80.0, "b", 20.0)
    assert (peak.peak_entries, peak.peak_elements, peak.runs) == (800, 3200, 2)
    assert peak.median_peak == pytest.approx(65.0)
    assert peak.projected_run == "b" and peak.fill_rate == pytest.approx(3.0)
    assert peak.time_to_full == pytest.approx(20 / 3) and peak.time_to_full_at == 20.0
    assert peak.full_at is None
    # A run that filled comes first, at the sample it was full.
    usage += _usage("c", [(0.0, 60.0), (5.0, 100.0), (10.0, 90.0)])
    (peak,) = answer.structures({"cf_usage": _table("cf_usage", usage)})
    assert (peak.full_at, peak.projected_run, peak.time_to_full) == (5.0, "c", None)


def test_a_structure_that_rose_and_drained_again_has_no_time_to_full():
    # Issue 42: "Soonest time to full 13.1 s" for a structure that peaked at 12.4%. A
    # getter outage lifts it 2% a second for 6 s; it drains, and its trend over the
    # run is flat: no time to full, and the report says why. (The net rate between two
    # samples, the old figure, said 44 s.)
    samples = [(float(t), 0.0) for t in range(0, 20, 2)]
    samples += [(20.0, 0.4), (22.0, 4.4), (24.0, 8.4), (26.0, 12.4), (28.0, 1.0)]
    samples += [(float(t), 0.0) for t in range(30, 62, 2)]
    tables = {"cf_usage": _table("cf_usage", _usage("r", samples))}
    (peak,) = answer.structures(tables)
    assert peak.peak_percent_full == 12.4 and peak.time_to_full is None
    page = html.unescape(answer_html(tables, {"r": ["r"]}))
    assert "– (no run's trend reaches full within its horizon)" in page


def test_a_slow_rise_seen_for_20_seconds_is_not_projected_five_hours_ahead():
    # 0.005% a second for 20 s: the trend would fill it in 5.5 hours, 1,000 times as
    # long as the run watched it. Past the horizon: none, the steepest trend named.
    tables = {"cf_usage": _table("cf_usage", _usage("r", [(0.0, 0.0), (10.0, 0.05), (20.0, 0.1)]))}
    (peak,) = answer.structures(tables)
    assert peak.time_to_full is None and peak.fill_rate == pytest.approx(0.005)
    assert "the steepest, 0.005% a second (r)" in html.unescape(answer_html(tables, {"r": ["r"]}))


def _statistics(run: str, q_mgr: str, busy: list[float]) -> list[dict[str, Any]]:
    return [
        {
            "run": run,
            "q_mgr": q_mgr,
            "time": float(i + 1),
            "interval": 1.0,
            "cpus": 2,
            "cpu_seconds": 2 * b,
            "cpu_busy": b,
        }
        for i, b in enumerate(busy)
    ]


def test_the_busiest_member_is_the_one_with_most_processor_time_over_its_runs():
    stats = [
        *_statistics("r1", "QM1", [0.2, 0.4]),
        *_statistics("r1", "QM2", [0.5, 0.1]),
        *_statistics("r2", "QM1", [0.3, 0.5]),
        *_statistics("r2", "QM2", [0.1, 0.1]),
    ]
    tables = {"qmgr_statistics": _table("qmgr_statistics", stats)}
    (busy,) = answer.busiest(tables, {"both": ["r1", "r2"]})
    # QM1: 0.3 and 0.4 over the runs; QM2: 0.3 and 0.1.
    assert busy.q_mgr == "QM1"
    assert busy.busy == pytest.approx(interval([0.3, 0.4]))
    assert (busy.peak, busy.peak_at, busy.peak_run) == (0.5, 2.0, "r2")


def test_the_busiest_interval_is_a_full_statistics_interval_not_the_end_instant():
    # Issue 42: the end's statistics interval of 0.2 ms, one commit in it, read 100%.
    # SMF 115 records are of STATIME intervals; a partial one is no rate, and is left
    # out of the busiest interval (its processor seconds still count over the run).
    stats = _statistics("r", "QM1", [0.2, 0.4, 0.3])
    stats.append({**stats[-1], "time": 3.0002, "interval": 0.0002, "cpu_seconds": 0.0004})
    stats[-1]["cpu_busy"] = 1.0
    tables = {"qmgr_statistics": _table("qmgr_statistics", stats)}
    (busy,) = answer.busiest(tables, {"r": ["r"]})
    assert (busy.peak, busy.peak_at) == (0.4, 2.0)
    assert busy.busy["mean"] == pytest.approx((0.4 + 0.8 + 0.6 + 0.0004) / (2 * 3.0002))
    # The utilisation chart draws the full intervals only, too.
    (line,) = charts.utilisation(tables, {"r": ["r"]}).figure.data
    assert list(line.x) == [1.0, 2.0, 3.0]
    # An interval longer than the rest (a sample held up) is full, and the usual ones
    # stay full beside it.
    stats.insert(3, {**stats[2], "time": 6.0, "interval": 3.0, "cpu_seconds": 3.0})
    stats[3]["cpu_busy"] = 0.5
    (busy,) = answer.busiest({"qmgr_statistics": _table("qmgr_statistics", stats)}, {"r": ["r"]})
    assert (busy.peak, busy.peak_at) == (0.5, 6.0)
    stats[3].update(cpu_seconds=0.6, cpu_busy=0.1)
    (busy,) = answer.busiest({"qmgr_statistics": _table("qmgr_statistics", stats)}, {"r": ["r"]})
    assert (busy.peak, busy.peak_at) == (0.4, 2.0)


def test_a_sweeps_configurations_are_its_points_seeds_and_otherwise_each_run():
    tables = _sweep({1: [0.01, 0.2], 2: [0.01, 0.2]}, [50.0, 100.0])
    assert answer.configurations(tables) == {
        "rate=50": ["p000-s1", "p000-s2"],
        "rate=100": ["p001-s1", "p001-s2"],
    }
    alone = {"runs": _table("runs", [{"run": "x"}, {"run": "y"}])}
    assert answer.configurations(alone) == {"x": ["x"], "y": ["y"]}


def test_a_band_is_the_median_and_5_to_95_percent_of_every_run_at_each_time():
    assert charts.quantile([1.0, 2.0, 3.0, 4.0, 5.0], 0.5) == 3.0
    assert charts.quantile([0.0, 10.0], 0.05) == pytest.approx(0.5)
    depths = [
        {
            "run": run,
            "scope": "QSG1",
            "queue": "Q",
            "q_mgr": "QM1",
            "time": t,
            "depth": d * k,
            "shared": True,
        }
        for run, k in (("a", 1), ("b", 2), ("c", 3))
        for t, d in ((1.0, 10), (2.0, 20))
    ]
    tables = {"depth": _table("depth", depths)}
    chart = charts.depth(tables, {"abc": ["a", "b", "c"]})
    fill, line = chart.figure.data
    assert list(line.x) == [1.0, 2.0] and list(line.y) == [20.0, 40.0]  # the medians
    # The band's polygon: the 95th percentiles out, the 5th back.
    assert list(fill.y) == pytest.approx([29.0, 58.0, 22.0, 11.0])
    assert chart.notes == []


def test_a_chart_names_the_configurations_and_series_it_leaves_out():
    depths = [
        {
            "run": f"r{i:02d}",
            "scope": "QM1",
            "queue": f"Q{j}",
            "q_mgr": "QM1",
            "time": 1.0,
            "depth": 1 + j,
            "shared": False,
        }
        for i in range(charts.MAX_PANELS + 1)
        for j in range(charts.MAX_SERIES + 2)
    ]
    configs = {f"r{i:02d}": [f"r{i:02d}"] for i in range(charts.MAX_PANELS + 1)}
    chart = charts.depth({"depth": _table("depth", depths)}, configs)
    assert len(chart.figure.data) == charts.MAX_PANELS * charts.MAX_SERIES
    assert any(f"r{charts.MAX_PANELS:02d}" in n and "not shown" in n for n in chart.notes)
    assert any("QM1/Q0, QM1/Q1" in n for n in chart.notes)  # the shallowest two


def test_the_timeline_has_a_row_for_every_run_with_a_lease_or_fault_and_names_the_others():
    leases = [
        {"run": f"p{i:02d}", "time": 0.0, "role": "EXPIRY.SCAN", "holder": "QM1", "token": 1}
        for i in range(12)
    ]
    runs = [{"run": f"p{i:02d}", "end": 10.0} for i in range(13)]
    chart = charts.timeline(
        {
            "runs": _table("runs", runs),
            "leases": _table("leases", leases),
            "faults": _table("faults", []),
        }
    )
    assert {y for t in chart.figure.data for y in t.y} == {
        f"p{i:02d}: EXPIRY.SCAN" for i in range(12)
    }
    assert chart.notes == ["1 run(s) with no lease change or fault, so no row: p12"]


def _runs(tmp_path: Path, seeds: list[int]) -> Path:
    root = tmp_path / "runs"
    # The sweep's order queue near saturation (90% busy getters): it has a depth.
    base = tmp_path / "busy.toml"
    text = (SCENARIOS / "sweep-base.toml").read_text().replace("rate = 20", "rate = 90")
    base.write_text(text)
    for seed in seeds:
        done = CliRunner().invoke(
            main,
            [
                "run",
                str(base),
                "--seed",
                str(seed),
                "--duration",
                "3",
                "--out",
                str(root / f"s{seed}"),
                "--no-progress",
            ],
        )
        assert done.exit_code == 0, done.output
    return root


def test_the_tables_give_each_members_processor_busy_and_each_structures_elements(tmp_path):
    root = _runs(tmp_path, [1])
    (run,) = find_runs(root)
    made = rt.run_tables(run)
    summary = json.loads((root / "s1" / "summary.json").read_text())
    stats = made["qmgr_statistics"].to_pylist()
    for row in summary["qmgrs"]:  # the pipeline's busy fraction is the summary's
        mine = [s for s in stats if s["q_mgr"] == row["q_mgr"]]
        busy = sum(s["cpu_seconds"] for s in mine) / sum(s["interval"] * s["cpus"] for s in mine)
        assert busy == pytest.approx(row["cpu_busy"])
        calls = sum(s["calls_per_second"] * s["interval"] for s in mine if s["interval"])
        assert calls == pytest.approx(sum(s[v] for s in mine for v in VERBS))
    usage = made["cf_usage"].to_pylist()
    (sized,) = summary["structures"]
    assert max(u["entries"] for u in usage) == sized["peak_entries"]
    assert max(u["elements"] for u in usage) == sized["peak_elements"]
    assert max(u["percent_full"] for u in usage) == pytest.approx(sized["peak_percent_full"])


@pytest.mark.slow
def test_the_report_of_several_seeds_draws_every_chart_in_a_browser(tmp_path):
    from tests.browser import load

    root = _runs(tmp_path, [1, 2])
    parts = [rt.run_tables(r) for r in find_runs(root)]
    metrics.write(
        {n: pa.concat_tables([p[n] for p in parts]) for n in rt.SCHEMAS}, root / "metrics"
    )
    page = write_report(None, root)  # the stored tables: no Spark
    seen = load(page, screenshot=tmp_path / "report.png")
    assert seen.errors == []
    # latency CDF, depth, throughput, CF structure usage, utilisation, timeline
    assert seen.plots == seen.drawn == 6
    assert all(n > 0 for n in seen.paths), seen.paths  # every chart drew some data
    assert {"answer-structures", "answer-busiest", "runs"} <= set(seen.tables)
    assert (tmp_path / "report.png").stat().st_size > 0


def test_a_chart_with_nothing_to_draw_is_its_title_and_note_and_plotly_comes_once(tmp_path):
    # One run with throughput but no depth, no structure, no statistics, no lease.
    moves = [
        {
            "run": "r",
            "scope": "QM1",
            "queue": "Q",
            "q_mgr": "QM1",
            "t": float(t),
            "put": 2,
            "got": 2,
            "interval": 1.0,
        }
        for t in range(5)
    ]
    cdf = [
        {"run": "r", "scope": "QM1", "queue": "Q", "p": p, "latency": p / 10} for p in rt.CDF_POINTS
    ]
    tables = {name: _table(name, []) for name in rt.SCHEMAS}
    tables.update(
        runs=_table("runs", [{"run": "r", "seed": 1, "end": 5.0}]),
        throughput=_table("throughput", moves),
        latency_cdf=_table("latency_cdf", cdf),
    )
    metrics.write(tables, tmp_path / "metrics")
    page = write_report(None, tmp_path).read_text()
    assert page.count("window.PlotlyConfig") == 1  # plotly.js inlined once, with the first
    assert page.count('class="plotly-graph-div"') == 2  # the CDF and throughput
    assert "nothing to show: no run has any queues with a value above 0" in page
    assert "no lease changed hands and no fault was injected in any run" in page
