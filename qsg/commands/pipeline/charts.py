"""The report's charts that stay readable with many runs (plotly figures).

A chart over time or over a distribution shows, per configuration (``qsg.commands.pipeline
.answer.configurations``: a sweep point's seeds, or one run), the median across the
configuration's runs and the band from their 5th to 95th percentile, one small
panel a configuration (at most ``MAX_PANELS``), each panel's series (queues,
structures, queue managers) at most ``MAX_SERIES``, the others named in a note. So
every run is in every chart, as part of its configuration's band, or the note says
which are left out and why.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from qsg.commands.pipeline.answer import Knee, full_intervals, rows
from qsg.core import geometry

MAX_PANELS = 12
MAX_SERIES = 6
COLUMNS = 3
#: A series: for each x, the value of each run that has one there.
Series = dict[float, list[float]]


@dataclass
class Chart:
    """A figure and the notes that go under it (what it leaves out, and why)."""

    figure: Any
    notes: list[str] = field(default_factory=list)


def colour(i: int) -> str:
    palette = [
        "#1f77b4",
        "#ff7f0e",
        "#2ca02c",
        "#d62728",
        "#9467bd",
        "#8c564b",
        "#e377c2",
        "#17becf",
        "#bcbd22",
        "#7f7f7f",
    ]
    return palette[i % len(palette)]


def _rgba(hex_colour: str, alpha: float) -> str:
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha})"


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values``, linear between order statistics (numpy's
    default): the band's edges."""
    ordered = sorted(values)
    at = q * (len(ordered) - 1)
    low = math.floor(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def band(series: Series) -> tuple[list[float], list[float], list[float], list[float]]:
    """The x values, and at each the median, 5th and 95th percentile across runs."""
    xs = sorted(series)
    return (
        xs,
        [quantile(series[x], 0.5) for x in xs],
        [quantile(series[x], 0.05) for x in xs],
        [quantile(series[x], 0.95) for x in xs],
    )


def band_traces(
    series: Series, name: str, hue: str, *, shown: bool, runs: int, transpose: bool = False
) -> list[Any]:
    """The median line and, across two runs or more, the 5-95% band as a filled
    polygon (``transpose``: the series' x values are plotted on y, as a CDF is)."""
    import plotly.graph_objects as go

    xs, mid, low, high = band(series)
    out = []
    if runs > 1:
        edge_x, edge_y = xs + xs[::-1], high + low[::-1]
        if transpose:
            edge_x, edge_y = edge_y, edge_x
        out.append(
            go.Scatter(
                x=edge_x,
                y=edge_y,
                fill="toself",
                mode="lines",
                line={"width": 0},
                fillcolor=_rgba(hue, 0.2),
                hoverinfo="skip",
                legendgroup=name,
                showlegend=False,
                name=f"{name} 5-95%",
            )
        )
    line_x, line_y = (mid, xs) if transpose else (xs, mid)
    label = f"{name} (median of {runs})" if runs > 1 and shown else name
    out.append(
        go.Scatter(
            x=line_x,
            y=line_y,
            mode="lines",
            line={"color": hue, "width": 1.6},
            name=label,
            legendgroup=name,
            showlegend=shown,
        )
    )
    return out


Gather = Callable[[list[str]], dict[str, Series]]


def panels(
    configs: dict[str, list[str]],
    gather: Gather,
    weight: Callable[[Series], float],
    x: str,
    y: str,
    what: str,
    *,
    transpose: bool = False,
) -> Chart:
    """Small multiples: a panel a configuration (``gather(runs)``: its series by name),
    each series' median and band; at most ``MAX_PANELS`` panels and ``MAX_SERIES``
    series a panel (the heaviest by ``weight``), the rest named in the chart's notes
    (``transpose``: each series' x values are drawn up the y axis)."""
    from plotly.subplots import make_subplots

    shown = list(configs)[:MAX_PANELS]
    cols = min(COLUMNS, max(1, len(shown)))
    lines = max(1, math.ceil(len(shown) / cols))
    titles = [f"{c} ({len(configs[c])} run{'s' if len(configs[c]) != 1 else ''})" for c in shown]
    # One scale for every panel: configurations are compared by eye.
    fig = make_subplots(
        rows=lines,
        cols=cols,
        subplot_titles=titles or None,
        shared_xaxes="all",
        shared_yaxes="all",
        horizontal_spacing=0.04,
        vertical_spacing=min(0.12, 0.3 / lines),
    )
    hues: dict[str, str] = {}
    notes: list[str] = []
    dropped: set[str] = set()
    for i, config in enumerate(shown):
        series = {k: v for k, v in gather(configs[config]).items() if v}
        kept = sorted(series, key=lambda k: (-weight(series[k]), k))[:MAX_SERIES]
        dropped.update(set(series) - set(kept))
        for name in sorted(kept):
            first = name not in hues
            hue = hues.setdefault(name, colour(len(hues)))
            for trace in band_traces(
                series[name], name, hue, shown=first, runs=len(configs[config]), transpose=transpose
            ):
                fig.add_trace(trace, row=i // cols + 1, col=i % cols + 1)
    if len(configs) > len(shown):
        left = list(configs)[len(shown) :]
        notes.append(
            f"{len(left)} configuration(s) of {len(configs)} not shown (at most "
            f"{MAX_PANELS} panels): {', '.join(left[:20])}"
            f"{' ...' if len(left) > 20 else ''}"
        )
    if dropped:
        notes.append(
            f"{what} left out (at most {MAX_SERIES} a panel, the largest kept): "
            f"{', '.join(sorted(dropped))}"
        )
    fig.update_annotations(font_size=12)  # the panels' titles
    fig.update_xaxes(title_text=x, row=lines)
    fig.update_yaxes(title_text=y, col=1)
    fig.update_layout(
        template="plotly_white",
        height=max(320, 280 * lines),
        margin={"l": 60, "r": 20, "t": 40, "b": 50},
        legend={"font": {"size": 11}},
    )
    if not fig.data:
        notes.append(f"nothing to show: no run has any {what} with a value above 0")
    return Chart(fig, notes)


class _ByRun:
    """A table's rows by run, only the runs of the panels shown, taken out of Arrow
    once (each panel then reads its own runs': a 200-point sweep's time series are
    a million rows)."""

    def __init__(self, table: pa.Table | None, configs: dict[str, list[str]]) -> None:
        self.rows: dict[str, list[dict[str, Any]]] = defaultdict(list)
        if table is None or not table.num_rows:
            return
        wanted = [run for c in list(configs)[:MAX_PANELS] for run in configs[c]]
        table = table.filter(pc.is_in(table["run"], value_set=pa.array(wanted, pa.string())))
        for r in table.to_pylist():
            self.rows[r["run"]].append(r)

    def of(self, runs: Iterable[str]) -> list[dict[str, Any]]:
        return [r for run in runs for r in self.rows.get(run, ())]


def _peak(series: Series) -> float:
    return max((max(v) for v in series.values()), default=0.0)


def _total(series: Series) -> float:
    return sum(sum(v) for v in series.values())


def depth(tables: dict[str, pa.Table], configs: dict[str, list[str]]) -> Chart:
    """CURDEPTH over time, per queue."""

    by = _ByRun(tables.get("depth"), configs)

    def gather(runs: list[str]) -> dict[str, Series]:
        out: dict[str, Series] = defaultdict(lambda: defaultdict(list))
        for r in by.of(runs):
            out[f"{r['scope']}/{r['queue']}"][r["time"]].append(r["depth"])
        return {k: v for k, v in out.items() if _peak(v) > 0}

    return panels(configs, gather, _peak, "simulated seconds", "CURDEPTH", "queues")


def throughput(tables: dict[str, pa.Table], configs: dict[str, list[str]]) -> Chart:
    """Messages got a second, per queue (a bucket with no get in a run counts 0)."""

    by = _ByRun(tables.get("throughput"), configs)
    step = next((r[0]["interval"] for r in by.rows.values()), 1.0)

    def gather(runs: list[str]) -> dict[str, Series]:
        got: dict[str, dict[str, dict[float, float]]] = defaultdict(lambda: defaultdict(dict))
        span: dict[str, tuple[float, float]] = {}
        for r in by.of(runs):
            per = got[f"{r['scope']}/{r['queue']}"][r["run"]]
            per[r["t"]] = per.get(r["t"], 0.0) + r["got"] / r["interval"]
            low, high = span.get(r["run"], (r["t"], r["t"]))
            span[r["run"]] = (min(low, r["t"]), max(high, r["t"]))
        out: dict[str, Series] = {}
        for name, by_run in got.items():
            series: Series = defaultdict(list)
            for run in runs:
                if run not in span:
                    continue
                low, high = span[run]
                have = by_run.get(run, {})
                for i in range(round(low / step), round(high / step) + 1):
                    series[i * step].append(have.get(i * step, 0.0))
            if _total(series) > 0:
                out[name] = series
        return out

    return panels(configs, gather, _total, "simulated seconds", "messages got per second", "queues")


def latency_cdf(tables: dict[str, pa.Table], configs: dict[str, list[str]]) -> Chart:
    """The latency distribution per queue: at each percentile, the median latency
    across runs and the band (the CDF drawn latency across, fraction up)."""

    by = _ByRun(tables.get("latency_cdf"), configs)

    def gather(runs: list[str]) -> dict[str, Series]:
        out: dict[str, Series] = defaultdict(lambda: defaultdict(list))
        for r in by.of(runs):
            out[f"{r['scope']}/{r['queue']}"][r["p"]].append(r["latency"])
        return out

    # The queues kept in a crowded panel: the slowest (their largest latency).
    return panels(
        configs,
        gather,
        _peak,
        "latency (simulated seconds)",
        "fraction of messages",
        "queues",
        transpose=True,
    )


def cf_usage(tables: dict[str, pa.Table], configs: dict[str, list[str]]) -> Chart:
    """Each CF structure's entries and elements in use, as percent of what its SIZE
    holds (``qsg.core.geometry``), 100% marked: a full structure refuses MQPUT with
    MQRC_STORAGE_MEDIUM_FULL (2192)."""

    by = _ByRun(tables.get("cf_usage"), configs)

    def gather(runs: list[str]) -> dict[str, Series]:
        out: dict[str, Series] = defaultdict(lambda: defaultdict(list))
        for r in by.of(runs):
            name = f"{r['qsg']}/{r['structure']}"
            most = geometry.max_entries(r["size_kb"])
            out[f"{name} entries"][r["time"]].append(100 * r["entries"] / most)
            if r.get("elements") is not None:
                out[f"{name} elements"][r["time"]].append(100 * r["elements"] / r["max_elements"])
        return out

    chart = panels(configs, gather, _peak, "simulated seconds", "% of SIZE in use", "structures")
    if chart.figure.data:
        chart.figure.add_hline(
            y=100, line_dash="dash", line_color="#c0392b", annotation_text="full (2192)"
        )
    return chart


def utilisation(tables: dict[str, pa.Table], configs: dict[str, list[str]]) -> Chart:
    """Each queue manager's processor busy percent at each full statistics interval
    (``answer.full_intervals``: a partial one's few calls make no rate), and each
    channel's sender busy percent in each time bucket it committed batches in."""
    stats = tables.get("qmgr_statistics")
    if stats is not None and stats.num_rows:
        stats = stats.filter(full_intervals(stats))
    statistics, channels = _ByRun(stats, configs), _ByRun(tables.get("channels"), configs)

    def gather(runs: list[str]) -> dict[str, Series]:
        out: dict[str, Series] = defaultdict(lambda: defaultdict(list))
        for r in statistics.of(runs):
            if r["cpu_busy"] is not None:
                out[r["q_mgr"]][r["time"]].append(100 * r["cpu_busy"])
        for r in channels.of(runs):
            if r.get("busy_seconds") is not None:  # a table from before it was counted
                out[f"channel {r['channel']}"][r["t"]].append(
                    100 * r["busy_seconds"] / r["interval"]
                )
        return out

    return panels(
        configs, gather, _total, "simulated seconds", "busy %", "queue managers and channels"
    )


def load(tables: dict[str, pa.Table], knees: list[Knee]) -> Chart:
    """Throughput and p99 against offered load per group: the median over the seeds
    and their 5-95% band; the objective, and the knee interpolated with its 95%
    interval across seeds."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    points = [p for p in rows(tables.get("points")) if not p.get("error")]
    fig = make_subplots(rows=1, cols=2, subplot_titles=("throughput", "p99 latency"))
    groups = sorted({p["group"] or "" for p in points})
    seeds = len({p["seed"] for p in points})
    for i, group in enumerate(groups):
        label, hue = group or "all points", colour(i)
        got: Series = defaultdict(list)
        p99: Series = defaultdict(list)
        for p in points:
            if (p["group"] or "") == group:
                if p["throughput"] is not None:
                    got[p["offered_load"]].append(p["throughput"])
                if p["latency_p99"] is not None:
                    p99[p["offered_load"]].append(p["latency_p99"])
        for col, series in ((1, got), (2, p99)):
            if series:
                for trace in band_traces(series, label, hue, shown=col == 1, runs=seeds):
                    trace.mode = "lines+markers" if trace.fill != "toself" else "lines"
                    fig.add_trace(trace, row=1, col=col)
        knee = next((k for k in knees if k.group == group), None)
        if knee is not None and knee.load is not None:
            ci = knee.interval
            error = (
                {"type": "data", "array": [ci["half_width"]], "visible": True}
                if ci["half_width"] is not None
                else None
            )
            where = f"{'at least ' if knee.bound == 'above' else ''}{knee.load:.4g}"
            fig.add_trace(
                go.Scatter(
                    x=[knee.load if ci["mean"] is None else ci["mean"]],
                    y=[knee.objective],
                    error_x=error,
                    mode="markers+text",
                    text=[f"knee {where}"],
                    textposition="top center",
                    legendgroup=label,
                    showlegend=False,
                    marker={"symbol": "star", "size": 14, "color": hue},
                    name=f"{label}: knee",
                ),
                row=1,
                col=2,
            )
    if knees:
        fig.add_hline(
            y=knees[0].objective,
            line_dash="dash",
            line_color="#c0392b",
            annotation_text="objective",
            row=1,
            col=2,
        )
    fig.update_xaxes(title_text="offered load (messages/s)")
    fig.update_yaxes(title_text="messages got per second", row=1, col=1)
    fig.update_yaxes(title_text="seconds", row=1, col=2)
    fig.update_layout(template="plotly_white", height=440, margin={"t": 40})
    return Chart(fig)


MAX_TIMELINE_RUNS = 30


def timeline(tables: dict[str, pa.Table]) -> Chart:
    """Lease holders as bars from each acquisition to the next (or the run's end),
    faults as markers: a row per run and role, every run that has either (up to
    ``MAX_TIMELINE_RUNS``; the note names those left out and the runs with neither)."""
    import plotly.graph_objects as go

    all_runs = sorted(r["run"] for r in rows(tables.get("runs")))
    ends = {r["run"]: r["end"] or 0.0 for r in rows(tables.get("runs"))}
    leases = sorted(rows(tables.get("leases")), key=lambda r: (r["run"], r["role"], r["time"]))
    faults = rows(tables.get("faults"))
    having = sorted({r["run"] for r in leases} | {f["run"] for f in faults})
    runs = having[:MAX_TIMELINE_RUNS]
    notes = []
    quiet = [r for r in all_runs if r not in having]
    if not having:
        notes.append("no lease changed hands and no fault was injected in any run")
    elif quiet:
        notes.append(
            f"{len(quiet)} run(s) with no lease change or fault, so no row: "
            f"{', '.join(quiet[:20])}{' ...' if len(quiet) > 20 else ''}"
        )
    if len(having) > len(runs):
        notes.append(
            f"{len(having) - len(runs)} run(s) left out (at most "
            f"{MAX_TIMELINE_RUNS}): {', '.join(having[len(runs) :][:20])}"
        )
    fig = go.Figure()
    holders: dict[str, int] = {}
    lanes = 0
    for run in runs:
        mine = [r for r in leases if r["run"] == run]
        lanes += len({r["role"] for r in mine}) + any(f["run"] == run for f in faults)
        for i, r in enumerate(mine):
            later = [n for n in mine[i + 1 :] if n["role"] == r["role"]]
            end = later[0]["time"] if later else ends.get(run, r["time"])
            holder = r["holder"]
            first = holder not in holders
            holders.setdefault(holder, len(holders))
            fig.add_trace(
                go.Bar(
                    y=[f"{run}: {r['role']}" if len(all_runs) > 1 else r["role"]],
                    x=[max(end - r["time"], 1e-9)],
                    base=[r["time"]],
                    orientation="h",
                    name=holder,
                    legendgroup=holder,
                    showlegend=first,
                    marker={"color": colour(holders[holder])},
                    text=[f"{holder} (token {r['token']})"],
                    textposition="inside",
                    hovertemplate=f"{holder} holds {r['role']} from %{{base:.1f}} s<extra></extra>",
                )
            )
        shown = [f for f in faults if f["run"] == run]
        if shown:
            fig.add_trace(
                go.Scatter(
                    x=[f["time"] for f in shown],
                    y=[f"{run}: faults" if len(all_runs) > 1 else "faults"] * len(shown),
                    mode="markers+text",
                    marker={"symbol": "x", "size": 12, "color": "#c0392b"},
                    text=[f"{f['action']} {f['target']}" for f in shown],
                    textposition="top center",
                    name="fault",
                    showlegend=False,
                )
            )
    fig.update_layout(
        barmode="overlay",
        template="plotly_white",
        height=max(300, 60 + 28 * lanes),
        margin={"l": 60, "r": 20, "t": 30, "b": 50},
    )
    fig.update_yaxes(automargin=True)
    fig.update_xaxes(title_text="simulated seconds")
    return Chart(fig, notes)


__all__ = [
    "MAX_PANELS",
    "MAX_SERIES",
    "MAX_TIMELINE_RUNS",
    "Chart",
    "band",
    "band_traces",
    "cf_usage",
    "colour",
    "depth",
    "latency_cdf",
    "load",
    "panels",
    "quantile",
    "throughput",
    "timeline",
    "utilisation",
]
