"""``qsg report DIR``: one self-contained HTML file of a run's, runs' or sweep's metrics.

The plots are plotly's (plotly.js inlined once, so the file opens anywhere, offline):
depth over time, latency CDFs, throughput over time, throughput and p99 against
offered load with the knee marked (sweeps), and a timeline of lease holders and
faults; then the summary tables. The tables come from ``DIR/metrics`` when a sweep or
``qsg metrics`` wrote them, else they are computed from the runs under DIR. Only small
aggregates reach the driver: a plot shows at most ``MAX_TRACES`` series.
"""

from __future__ import annotations

import datetime as _dt
import html
from collections import defaultdict
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from qsg.display import duration
from qsg.pipeline import metrics
from qsg.pipeline.frames import exists
from qsg.pipeline.sweep import KNEE, POINTS
from qsg.pipeline.where import child, is_local, local_path, to_uri

MAX_TRACES = 12
#: Tables shown as tables, with the columns shown.
SHOWN: dict[str, list[str]] = {
    "runs": ["run", "seed", "events", "end", "put", "got", "expired"],
    "latency": ["run", "scope", "queue", "q_mgr", "messages", "mean", "p50", "p90", "p99", "max"],
    "expiry": ["run", "scope", "queue", "discarded", "by_get", "by_browse", "by_scan",
               "overdue_mean", "held_byte_seconds"],
    "failover_gaps": ["run", "role", "previous", "holder", "lost_at", "taken_at", "gap"],
    "recoveries": ["run", "recovery", "q_mgr", "failed", "failed_at", "time", "duration", "units"],
    "knee": ["group", "offered_load", "got", "latency_p99", "objective_p99", "meets", "knee"],
}  # fmt: skip
#: Columns in seconds, shown in ms or s to three significant digits (as ``qsg run``).
DURATIONS: dict[str, tuple[str, ...]] = {
    "latency": ("mean", "p50", "p90", "p99", "max"),
    "knee": ("latency_p99", "objective_p99"),
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
        return {name: _read(spark, child(stored, name), schema)
                for name, schema in schemas.items() if exists(spark, child(stored, name))}
    ev = metrics.Events.load(spark, directory, interval=interval)
    return metrics.compute(ev)


def _read(spark: Any, location: str, schema: pa.Schema) -> pa.Table:
    """A stored table through Spark (aggregates: small), in its schema and run order."""
    table = spark.read.parquet(location).toArrow().select(schema.names).cast(schema)
    if "run" in schema.names:
        table = table.take(pc.sort_indices(table["run"]))
    return table


def _rows(table: pa.Table, limit: int = 200_000, **match: Any) -> list[dict[str, Any]]:
    """The rows of ``table`` (the first ``limit``) whose columns have these values."""
    for column, value in match.items():
        table = table.filter(pc.equal(table[column], value))
    rows: list[dict[str, Any]] = table.slice(0, limit).to_pylist()
    return rows


def write_report(spark: Any, directory: str | Path, out: str | Path | None = None, *,
                 interval: float = 1.0) -> Path:  # fmt: skip
    """Render the report of ``directory`` (a path or URI) to the local file ``out``
    (default ``directory/report.html``, which needs ``directory`` local)."""
    directory = to_uri(directory)
    if out is None and not is_local(directory):
        raise ValueError(f"{directory}: not local: say where the report goes (--out FILE)")
    target = Path(out) if out is not None else local_path(directory) / "report.html"
    tables = _tables(spark, directory, interval)
    figures = [
        ("Depth over time", _depth(tables)),
        ("Latency CDF (first MQPUT to MQGET)", _latency_cdf(tables)),
        ("Throughput over time", _throughput(tables)),
    ]
    if "points" in tables:
        figures.append(("Throughput and p99 against offered load", _load(tables)))
    figures.append(("Lease holders and faults", _timeline(tables)))
    target.write_text(_page(directory, figures, tables), encoding="utf-8")
    return target


def _go() -> Any:
    import plotly.graph_objects as go

    return go


def _layout(fig: Any, x: str, y: str) -> Any:
    margin = {"l": 60, "r": 20, "t": 30, "b": 50}
    fig.update_layout(template="plotly_white", height=420, margin=margin,
                      xaxis_title=x, yaxis_title=y, legend={"font": {"size": 11}})  # fmt: skip
    return fig


def _top(series: dict[Any, list[Any]], weight: dict[Any, float]) -> list[Any]:
    return sorted(series, key=lambda k: (-weight.get(k, 0), str(k)))[:MAX_TRACES]


def _label(key: tuple[str, str, str], runs: int) -> str:
    run, scope, queue = key
    name = f"{scope}/{queue}"
    return f"{run}: {name}" if runs > 1 else name


def _run_count(tables: dict[str, pa.Table]) -> int:
    return int(tables["runs"].num_rows)


def _depth(tables: dict[str, pa.Table]) -> Any:
    go = _go()
    rows = _rows(tables["depth"].select(["run", "scope", "queue", "time", "depth"]))
    series: dict[tuple[str, str, str], list[tuple[float, int]]] = defaultdict(list)
    peak: dict[Any, float] = defaultdict(float)
    for r in rows:
        key = (r["run"], r["scope"], r["queue"])
        series[key].append((r["time"], r["depth"]))
        peak[key] = max(peak[key], r["depth"])
    fig = go.Figure()
    runs = _run_count(tables)
    for key in _top(series, peak):
        if not peak[key]:
            continue
        points = sorted(series[key])
        fig.add_trace(go.Scatter(x=[p[0] for p in points], y=[p[1] for p in points],
                                 mode="lines", name=_label(key, runs)))  # fmt: skip
    return _layout(fig, "simulated seconds", "CURDEPTH")


def _latency_cdf(tables: dict[str, pa.Table]) -> Any:
    go = _go()
    rows = _rows(tables["latency_cdf"])
    sizes = {(r["run"], r["scope"], r["queue"]): r["messages"]
             for r in _rows(tables["latency"], q_mgr="*")}  # fmt: skip
    series: dict[tuple[str, str, str], list[tuple[float, float]]] = defaultdict(list)
    for r in rows:
        series[(r["run"], r["scope"], r["queue"])].append((r["latency"], r["p"]))
    fig = go.Figure()
    runs = _run_count(tables)
    for key in _top(series, sizes):
        points = sorted(series[key], key=lambda p: p[1])
        fig.add_trace(go.Scatter(x=[p[0] for p in points], y=[p[1] for p in points],
                                 mode="lines", line_shape="hv",
                                 name=_label(key, runs)))  # fmt: skip
    return _layout(fig, "latency (simulated seconds)", "fraction of messages")


def _throughput(tables: dict[str, pa.Table]) -> Any:
    go = _go()
    keys = ["run", "scope", "queue", "t", "interval"]
    per = tables["throughput"].group_by(keys).aggregate([("got", "sum")])
    rows = _rows(per.rename_columns([*keys, "got"]))
    series: dict[tuple[str, str, str], list[tuple[float, float]]] = defaultdict(list)
    total: dict[Any, float] = defaultdict(float)
    for r in rows:
        key = (r["run"], r["scope"], r["queue"])
        series[key].append((r["t"], r["got"] / r["interval"]))
        total[key] += r["got"]
    fig = go.Figure()
    runs = _run_count(tables)
    for key in _top(series, total):
        if not total[key]:
            continue
        points = _filled(series[key], rows[0]["interval"])
        fig.add_trace(go.Scatter(x=[p[0] for p in points], y=[p[1] for p in points],
                                 mode="lines", name=_label(key, runs)))  # fmt: skip
    return _layout(fig, "simulated seconds", "messages got per second")


def _filled(points: list[tuple[float, float]], interval: float) -> list[tuple[float, float]]:
    """The buckets with no event in them, as zero (the table only has the others)."""
    have = {round(t / interval): v for t, v in points}
    first, last = min(have), max(have)
    return [(i * interval, have.get(i, 0.0)) for i in range(first, last + 1)]


def _load(tables: dict[str, pa.Table]) -> Any:
    """Throughput (mean over seeds) and pooled p99 against offered load, per group, the
    knee marked."""
    go = _go()
    from plotly.subplots import make_subplots

    points = _rows(tables["points"])
    knee = _rows(tables["knee"])
    fig = make_subplots(rows=1, cols=2, subplot_titles=("throughput", "p99 latency"))
    groups = sorted({p["group"] for p in points})
    for i, group in enumerate(groups):
        label = group or "all points"
        mine = [p for p in points if p["group"] == group and p["throughput"] is not None]
        by_load: dict[float, list[float]] = defaultdict(list)
        for p in mine:
            by_load[p["offered_load"]].append(p["throughput"])
        loads = sorted(by_load)
        colour = _colour(i)
        fig.add_trace(go.Scatter(x=loads, y=[sum(by_load[x]) / len(by_load[x]) for x in loads],
                                 mode="lines+markers", name=label, legendgroup=label,
                                 line={"color": colour}), row=1, col=1)  # fmt: skip
        rows = sorted((k for k in knee if k["group"] == group), key=lambda k: k["offered_load"])
        fig.add_trace(go.Scatter(x=[k["offered_load"] for k in rows],
                                 y=[k["latency_p99"] for k in rows], mode="lines+markers",
                                 name=f"{label} p99", legendgroup=label, showlegend=False,
                                 line={"color": colour}), row=1, col=2)  # fmt: skip
        for k in rows:
            if k["knee"]:
                fig.add_trace(go.Scatter(
                    x=[k["offered_load"]], y=[k["latency_p99"]], mode="markers+text",
                    marker={"symbol": "star", "size": 16, "color": colour},
                    text=["knee"], textposition="top center", name=f"{label}: knee",
                    legendgroup=label), row=1, col=2)  # fmt: skip
    if knee:
        fig.add_hline(y=knee[0]["objective_p99"], line_dash="dash", line_color="#c0392b",
                      annotation_text="objective", row=1, col=2)  # fmt: skip
    fig.update_xaxes(title_text="offered load (messages/s)")
    fig.update_yaxes(title_text="messages got per second", row=1, col=1)
    fig.update_yaxes(title_text="seconds", row=1, col=2)
    fig.update_layout(template="plotly_white", height=440, margin={"t": 40})
    return fig


def _colour(i: int) -> str:
    palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2"]
    return palette[i % len(palette)]


def _timeline(tables: dict[str, pa.Table]) -> Any:
    """Lease holders as bars from each acquisition to the next (or the run's end), faults
    as markers, per run (the first few runs that have either)."""
    go = _go()
    ends = {r["run"]: r["end"] or 0.0 for r in _rows(tables["runs"])}
    leases = sorted(_rows(tables["leases"]), key=lambda r: (r["run"], r["role"], r["time"]))
    faults = _rows(tables["faults"])
    runs = sorted({r["run"] for r in leases} | {f["run"] for f in faults})[:4]
    fig = go.Figure()
    holders: dict[str, int] = {}
    for run in runs:
        mine = [r for r in leases if r["run"] == run]
        for i, r in enumerate(mine):
            later = [n for n in mine[i + 1 :] if n["role"] == r["role"]]
            end = later[0]["time"] if later else ends.get(run, r["time"])
            holder = r["holder"]
            first = holder not in holders
            holders.setdefault(holder, len(holders))
            fig.add_trace(go.Bar(
                y=[f"{run}: {r['role']}" if len(runs) > 1 else r["role"]],
                x=[max(end - r["time"], 1e-9)], base=[r["time"]], orientation="h",
                name=holder, legendgroup=holder, showlegend=first,
                marker={"color": _colour(holders[holder])},
                text=[f"{holder} (token {r['token']})"], textposition="inside",
                hovertemplate=f"{holder} holds {r['role']} from %{{base:.1f}} s<extra></extra>",
            ))  # fmt: skip
        shown = [f for f in faults if f["run"] == run]
        if shown:
            fig.add_trace(go.Scatter(
                x=[f["time"] for f in shown],
                y=[f"{run}: faults" if len(runs) > 1 else "faults"] * len(shown),
                mode="markers+text", marker={"symbol": "x", "size": 12, "color": "#c0392b"},
                text=[f"{f['action']} {f['target']}" for f in shown], textposition="top center",
                name="fault", showlegend=False,
            ))  # fmt: skip
    fig.update_layout(barmode="overlay")
    fig.update_yaxes(automargin=True)
    return _layout(fig, "simulated seconds", "")


def _table_html(name: str, table: pa.Table) -> str:
    columns = [c for c in SHOWN[name] if c in table.column_names]
    ordered = table.select(columns).sort_by([(c, "ascending") for c in columns[:3]])
    rows = _rows(ordered, limit=500)
    if not rows:
        return ""
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    durations = DURATIONS.get(name, ())
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(_cell(r[c], c in durations))}</td>" for c in columns)
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


def _page(directory: str, figures: list[tuple[str, Any]], tables: dict[str, pa.Table]) -> str:
    parts = []
    for i, (title, fig) in enumerate(figures):
        div = fig.to_html(full_html=False, include_plotlyjs=(i == 0), div_id=f"plot-{i}",
                          config={"displaylogo": False})  # fmt: skip
        parts.append(f"<h2>{html.escape(title)}</h2>{div}")
    summary = "".join(_table_html(n, tables[n]) for n in SHOWN if n in tables)
    made = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    shown = str(local_path(directory)) if is_local(directory) else directory
    name = shown.rstrip("/").rsplit("/", 1)[-1]
    return (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>qsg report: "
        f"{html.escape(name)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>qsg report: {html.escape(shown)}</h1>"
        f"<p class='note'>{_run_count(tables)} run(s); times are simulated seconds; "
        f"made {made}.</p>{''.join(parts)}<h2>Summary</h2>{summary}</body></html>"
    )


__all__ = ["MAX_TRACES", "write_report"]
