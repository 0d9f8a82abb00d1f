"""``qsg report DIR``: one self-contained HTML file of a run's, runs' or sweep's metrics.

It opens with the answers (``qsg.commands.pipeline.answer``): the knee per group of a sweep's
points with its confidence interval, each CF structure's peak and time to full, each
configuration's busiest member. Then the plots, plotly's (plotly.js inlined once, so
the file opens anywhere, offline; ``qsg.commands.pipeline.charts``): throughput and p99
against offered load with the knee (sweeps), and per configuration, as small
multiples of the median and 5-95% band across its seeds, latency CDFs, depth,
throughput, CF structure usage and processor utilisation over time; a timeline of
lease holders and faults; the raw tables last, folded. The tables come from
``DIR/metrics`` when a sweep or ``qsg metrics`` wrote them, else they are computed
from the runs under DIR: only aggregates reach the driver.
"""

from __future__ import annotations

import datetime as _dt
import html
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from qsg.commands.display import duration
from qsg.commands.pipeline import answer, charts, metrics
from qsg.commands.pipeline.frames import exists
from qsg.commands.pipeline.sweep import KNEE, POINTS
from qsg.commands.pipeline.where import child, is_glob, is_local, local_path, to_uri
from qsg.core import geometry

#: Tables shown as tables, with the columns shown.
SHOWN: dict[str, list[str]] = {
    "runs": ["run", "seed", "events", "end", "seconds", "put", "got", "throughput", "expired"],
    "latency": ["run", "scope", "queue", "q_mgr", "messages", "mean", "p50", "p90", "p99", "max"],
    "expiry": [
        "run",
        "scope",
        "queue",
        "discarded",
        "by_get",
        "by_browse",
        "by_scan",
        "overdue_mean",
        "held_byte_seconds",
    ],
    "failover_gaps": ["run", "role", "previous", "holder", "lost_at", "taken_at", "gap"],
    "recoveries": ["run", "recovery", "q_mgr", "failed", "failed_at", "time", "duration", "units"],
    "knee": ["group", "offered_load", "got", "latency_p99", "objective_p99", "meets", "knee"],
    "points": [
        "run",
        "group",
        "offered_load",
        "seed",
        "throughput",
        "latency_p50",
        "latency_p99",
        "error",
    ],
}
#: Columns in seconds, shown in ms or s to three significant digits (as ``qsg run``).
DURATIONS: dict[str, tuple[str, ...]] = {
    "latency": ("mean", "p50", "p90", "p99", "max"),
    "knee": ("latency_p99", "objective_p99"),
    "points": ("latency_p50", "latency_p99"),
}


def _tables(spark: Any, directory: str, interval: float) -> dict[str, pa.Table]:
    """The tables of ``DIR/metrics`` if a sweep or ``qsg metrics`` wrote them (a local
    directory read here; a URI through Spark), else computed from the runs below DIR."""
    stored = child(directory, "metrics")
    if is_local(stored):
        if (local_path(stored) / "runs").is_dir():
            return metrics.read(local_path(stored))
    elif exists(spark, child(stored, "runs")):
        schemas = {**metrics.TABLES, "points": POINTS, "knee": KNEE}
        return {
            name: _read(spark, child(stored, name), schema)
            for name, schema in schemas.items()
            if exists(spark, child(stored, name))
        }
    ev = metrics.Events.load(spark, directory, interval=interval)
    return metrics.compute(ev)


def _read(spark: Any, location: str, schema: pa.Schema) -> pa.Table:
    """A stored table through Spark (aggregates: small), in its schema and run order."""
    table = metrics.load(spark, location, schema).toArrow().cast(schema)
    if "run" in schema.names:
        table = table.take(pc.sort_indices(table["run"]))
    return table


def _rows(table: pa.Table, limit: int = 200_000, **match: Any) -> list[dict[str, Any]]:
    """The rows of ``table`` (the first ``limit``) whose columns have these values."""
    for column, value in match.items():
        table = table.filter(pc.equal(table[column], value))
    rows: list[dict[str, Any]] = table.slice(0, limit).to_pylist()
    return rows


def write_report(
    spark: Any, directory: str | Path, out: str | Path | None = None, *, interval: float = 1.0
) -> Path:
    """Render the report of ``directory`` (a path or URI) to the local file ``out``
    (default ``directory/report.html``, which needs ``directory`` local)."""
    directory = to_uri(directory)
    if out is None and (not is_local(directory) or is_glob(str(local_path(directory)))):
        raise ValueError(f"{directory}: not one local directory: say where the report goes")
    target = Path(out) if out is not None else local_path(directory) / "report.html"
    tables = _tables(spark, directory, interval)
    target.write_text(_page(directory, tables), encoding="utf-8")
    return target


def _has_rows(tables: dict[str, pa.Table], name: str) -> bool:
    return name in tables and tables[name].num_rows > 0


def figures(tables: dict[str, pa.Table]) -> list[tuple[str, charts.Chart]]:
    """The report's charts, titled, in the order shown (a chart only if some run has
    what it shows)."""
    configs = answer.configurations(tables)
    out = []
    if "points" in tables:
        out.append(
            ("Throughput and p99 against offered load", charts.load(tables, answer.knees(tables)))
        )
    out += [
        ("Latency CDF (first MQPUT to MQGET)", charts.latency_cdf(tables, configs)),
        ("Depth over time", charts.depth(tables, configs)),
        ("Throughput over time", charts.throughput(tables, configs)),
    ]
    if _has_rows(tables, "cf_usage"):
        out.append(("CF structure usage over time", charts.cf_usage(tables, configs)))
    if _has_rows(tables, "qmgr_statistics"):
        out.append(
            ("Utilisation over time: processors and channels", charts.utilisation(tables, configs))
        )
    out.append(("Lease holders and faults", charts.timeline(tables)))
    return out


def _interval(ci: dict[str, Any], unit: str = "") -> str:
    if ci["mean"] is None:
        return "–"
    if ci["half_width"] is None:
        return f"{ci['mean']:.4g}{unit} (n = {ci['n']})"
    return f"{ci['mean']:.4g} ± {ci['half_width']:.2g}{unit} (n = {ci['n']})"


def _knee_row(k: answer.Knee) -> list[str]:
    if k.bound == "below":
        pooled = f"below {k.tested[0]:g} (the lowest load tested is past the objective)"
    elif k.bound == "above":
        pooled = f"above {k.tested[1]:g} (every load tested meets the objective)"
    else:
        pooled = f"{k.load:.4g}"
    ci = _interval(k.interval, " msg/s")
    if k.censored:
        beyond = ", ".join(f"seed {s}: {b}" for s, b in sorted(k.censored.items()))
        ci = f"– (no knee within the loads tested for {beyond})"
    met = "–" if k.highest_met is None else f"{k.highest_met:g}"
    return [k.group or "all points", pooled, ci, met, duration(k.objective)]


def _time_to_full(s: answer.StructurePeak) -> str:
    """A structure's time to full as the planner reads it: when it filled, or how soon
    its run's trend reaches full and from when, at what rate; or why there is none."""
    if s.full_at is not None:
        return f"full at {s.full_at:g} s ({s.projected_run})"
    if s.time_to_full is not None:
        return (
            f"{duration(s.time_to_full)} after {s.time_to_full_at:g} s, at "
            f"{s.fill_rate:.3g}% a second ({s.projected_run})"
        )
    steepest = (
        f"; the steepest, {s.fill_rate:.3g}% a second ({s.projected_run})"
        if s.fill_rate is not None and s.fill_rate > 0
        else ""
    )
    return f"– (no run's trend reaches full within its horizon{steepest})"


def _structure_row(s: answer.StructurePeak) -> list[str]:
    ttf = _time_to_full(s)
    median = f"; median of {s.runs} runs {s.median_peak:.3g}%" if s.runs > 1 else ""
    return [
        f"{s.qsg}/{s.structure}",
        f"{s.size_kb:,}",
        f"{s.peak_percent_full:.3g}% at {s.high_water_time:g} s ({s.peak_run}){median}",
        f"{s.peak_entries:,} / {geometry.max_entries(s.size_kb):,}",
        f"{s.peak_elements:,} / {geometry.max_elements(s.size_kb):,}",
        ttf,
    ]


def _busiest_row(b: answer.Busiest) -> list[str]:
    ci = {k: (100 * v if isinstance(v, float) else v) for k, v in b.busy.items()}
    return [
        b.configuration,
        b.q_mgr,
        _interval(ci, "%"),
        f"{100 * b.peak:.3g}% at {b.peak_at:g} s ({b.peak_run})",
    ]


def _html_table(name: str, head: list[str], body: list[list[str]]) -> str:
    cells = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    lines = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in body
    )
    return f'<table class="summary answer" data-table="{name}"><tr>{cells}</tr>{lines}</table>'


def _intervals_html(tables: dict[str, pa.Table]) -> str:
    """A sweep's points with their figures as mean ± half-width over their seeds."""
    rows = answer.point_intervals(answer.rows(tables.get("points")))
    if not rows or max(len(r["seeds"]) for r in rows) < 2:
        return ""
    body = []
    for r in rows:
        line = [", ".join(f"{k}={v}" for k, v in r["params"].items()), f"{r['offered_load']:g}"]
        for name in answer.POINT_FIGURES:
            ci = r[name]
            shown = duration if name.startswith("latency") else (lambda v: f"{v:,.4g}")
            text = "–" if ci["mean"] is None else shown(ci["mean"])
            if ci["half_width"] is not None:
                text += f" ± {shown(ci['half_width'])}"
            line.append(f"{text} (n = {ci['n']})")
        body.append(line)
    head = ["point", "offered load", *[n.replace("_", " ") for n in answer.POINT_FIGURES]]
    return "<h3>points: mean ± 95% half-width over their seeds</h3>" + _html_table(
        "point-intervals", head, body
    )


def answer_html(tables: dict[str, pa.Table], configs: dict[str, list[str]]) -> str:
    """The report's opening: the knees, the structures' peaks, the busiest members."""
    parts = []
    knees = answer.knees(tables)
    if knees:
        parts.append(
            "<h3>The knee: the most load before p99 passes the objective</h3>"
            + _html_table(
                "answer-knee",
                [
                    "configuration",
                    "knee (pooled p99, msg/s)",
                    "95% interval across seeds",
                    "highest load tested that meets it",
                    "p99 objective",
                ],
                [_knee_row(k) for k in knees],
            )
            + "<p class='note'>Interpolated linearly between the highest load "
            "tested whose p99 (and every lower load's) meets the objective and "
            "the next load; the interval is Student t over each seed's own "
            "knee.</p>"
        )
    peaks = answer.structures(tables)
    if peaks:
        parts.append(
            "<h3>CF structures: how full, and how soon full</h3>"
            + _html_table(
                "answer-structures",
                [
                    "structure",
                    "SIZE (KB)",
                    "peak % full (high-water mark)",
                    "entries at peak / max",
                    "elements at peak / max",
                    "time to full",
                ],
                [_structure_row(s) for s in peaks],
            )
            + "<p class='note'>Time to full: the first sample a run found the structure "
            "full, else, from a run's last sample, the time its trend (the least-squares "
            "line of percent full over its samples) takes to reach 100%, shown only "
            "within the run's horizon (as long again as it was sampled); the soonest "
            "of the runs.</p>"
        )
    busy = answer.busiest(tables, configs)
    if busy:
        parts.append(
            "<h3>The busiest member's processors</h3>"
            + _html_table(
                "answer-busiest",
                [
                    "configuration",
                    "queue manager",
                    "busy over the run (95% interval across seeds)",
                    "busiest interval",
                ],
                [_busiest_row(b) for b in busy],
            )
        )
    if not parts:
        return ""
    return "<h2>The answer</h2>" + "".join(parts)


def _table_html(name: str, table: pa.Table) -> str:
    if name == "runs" and "seconds" in table.column_names:
        # A run's throughput, as the summary's and a sweep point's: gets a second
        # over the seconds its figures cover.
        per_second = pc.divide(pc.cast(table["got"], pa.float64()), table["seconds"])
        positive = pc.greater(table["seconds"], pa.scalar(0.0))
        table = table.append_column(
            "throughput", pc.if_else(positive, per_second, pa.scalar(None, pa.float64()))
        )
    columns = [c for c in SHOWN[name] if c in table.column_names]
    ordered = table.select(columns).sort_by([(c, "ascending") for c in columns[:3]])
    rows = _rows(ordered, limit=500)
    if not rows:
        return ""
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    durations = DURATIONS.get(name, ())
    body = "".join(
        "<tr>"
        + "".join(f"<td>{html.escape(_cell(r[c], c in durations))}</td>" for c in columns)
        + "</tr>"
        for r in rows
    )
    title = name.replace("_", " ")
    return (
        f'<h3>{title}</h3><table class="summary" data-table="{name}"><tr>{head}</tr>{body}</table>'
    )


def _cell(value: Any, is_duration: bool = False) -> str:
    if value is None:
        return "–"
    if is_duration and isinstance(value, int | float) and not isinstance(value, bool):
        return duration(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:,.4g}" if abs(value) < 1e4 else f"{value:,.0f}"
    return str(value)


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1200px; color: #222; }
h1 { font-size: 1.6em; } h2 { margin-top: 1.6em; border-bottom: 1px solid #ddd; }
table.summary { border-collapse: collapse; font-size: 0.85em; margin-bottom: 1em; }
table.summary td, table.summary th { border: 1px solid #ddd; padding: 3px 8px; text-align: right; }
table.summary th { background: #f4f6f8; }
.note { color: #666; font-size: 0.9em; }
"""


def _page(directory: str, tables: dict[str, pa.Table]) -> str:
    parts, drawn = [], 0
    for title, chart in figures(tables):
        div = ""
        if chart.figure.data:  # a chart with nothing to draw is its title and notes
            div = chart.figure.to_html(
                full_html=False,
                include_plotlyjs=drawn == 0,
                div_id=f"plot-{drawn}",
                config={"displaylogo": False},
            )
            drawn += 1
        notes = "".join(f"<p class='note'>{html.escape(n)}</p>" for n in chart.notes)
        parts.append(f"<h2>{html.escape(title)}</h2>{div}{notes}")
    raw = _intervals_html(tables) + "".join(_table_html(n, tables[n]) for n in SHOWN if n in tables)
    made = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    shown = str(local_path(directory)) if is_local(directory) else directory
    name = shown.rstrip("/").rsplit("/", 1)[-1]
    configs = answer.configurations(tables)
    return (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>qsg report: "
        f"{html.escape(name)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>qsg report: {html.escape(shown)}</h1>"
        f"<p class='note'>{tables['runs'].num_rows} run(s) in {len(configs)} configuration(s); "
        f"times are simulated seconds; made {made}.</p>"
        f"{answer_html(tables, configs)}{''.join(parts)}"
        f"<h2>Tables</h2><details id='raw'><summary>The summary tables, every run "
        f"(click to open)</summary>{raw}</details></body></html>"
    )


__all__ = ["answer_html", "figures", "write_report"]
