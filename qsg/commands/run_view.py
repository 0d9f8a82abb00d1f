"""What ``qsg run`` shows a person: a warning line when the world refuses a fault, as
it happens, and the summary tables at the end.

The tables show exactly the rows of the run's ``summary.json`` (the summary leaves out
queues where nothing happened; the tables hide nothing), latencies in milliseconds or
seconds to three significant digits, and errors by reason code with IBM's name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from actors.events import FaultInjected
from qsg.commands.display import duration, reasons
from qsg.scenario.classes import shared_by_several
from qsg.scenario.model import Fault
from qsg.scenario.play import RunResult
from qsg.scenario.summary import Summary

#: Columns shown as durations (seconds in the summary).
_DURATIONS = {
    "latency_p50",
    "latency_p99",
    "round_trip_p50",
    "round_trip_p99",
    "expiry_counted_mean",
    "elapsed_mean",
    "time",
}
_LEFT = {
    "queue",
    "scope",
    "channel",
    "from",
    "queue manager",
    "role",
    "holder",
    "previous",
    "action",
    "target",
    "detail",
    "workload",
    "errors by reason",
    "command",
    "completion",
    "response",
    "QSG",
    "structure",
}
_COUNTS = [
    ("put", "put"),
    ("got", "got"),
    ("expired", "expired"),
    ("reports", "reports"),
    ("dead_lettered", "DLQ"),
]
_LATENCY = [("latency_p50", "p50"), ("latency_p99", "p99")]


def refusal_warner(console: Console) -> Callable[[FaultInjected, Fault], None]:
    """What to tell ``console`` when the world refuses a fault: a warning (a note if the
    scenario marked the fault ``expected``), as it happens."""

    def warn(event: FaultInjected, fault: Fault) -> None:
        what = f"{event.action} {event.target} at {event.time:.1f} s was refused"
        if fault.expected:
            console.print(f"[dim]note: {escape(what)} (expected): {escape(event.detail)}[/]")
        else:
            console.print(f"[bold yellow]warning:[/] {escape(what)}: {escape(event.detail)}")

    return warn


def refusals_line(result: RunResult) -> str | None:
    """The run's last word when faults it did not expect were refused (None if none)."""
    count = len(result.refused)
    if not count:
        return None
    faults = "fault was" if count == 1 else "faults were"
    return (
        f"{count} {faults} refused (see the warnings above); mark a fault "
        "`expected = true` if the scenario means it"
    )


def _cell(key: str, value: Any) -> str:
    if key in _DURATIONS and (value is None or isinstance(value, int | float)):
        return duration(value) if key != "time" else f"{value:,.3f} s"
    if key == "error_reasons":
        return reasons(value or [])
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def table(title: str, rows: list[dict[str, Any]], columns: list[tuple[str, str]]) -> Table:
    """A titled table of ``rows``, one column per (key, header)."""
    out = Table(title=title, title_justify="left", title_style="bold")
    for _, header in columns:
        out.add_column(header, justify="left" if header in _LEFT else "right")
    for row in rows:
        out.add_row(*(_cell(key, row.get(key)) for key, _ in columns))
    return out


def print_summary(console: Console, result: RunResult) -> None:
    """The run's summary as tables."""
    summary: Summary = result.summary
    console.print(
        table(
            "Queues",
            summary.queues,
            [
                ("scope", "scope"),
                ("queue", "queue"),
                *_COUNTS,
                ("peak_depth", "peak depth"),
                *_LATENCY,
            ],
        )
    )
    console.print(
        table(
            "Queue managers",
            summary.qmgrs,
            [
                ("q_mgr", "queue manager"),
                *_COUNTS,
                ("peak_local_depth", "peak local depth"),
                *_LATENCY,
                ("errors", "errors"),
                ("error_reasons", "errors by reason"),
            ],
        )
    )
    busy = [
        {**r, "cpu_busy": f"{100 * r['cpu_busy']:.3g}%"} for r in summary.qmgrs if "cpu_busy" in r
    ]
    if busy:
        console.print(
            table(
                "Utilisation (per second, SMF 115 message manager statistics)",
                busy,
                [
                    ("q_mgr", "queue manager"),
                    ("cpu_busy", "CPU busy"),
                    ("mqput_per_second", "MQPUT"),
                    ("mqput1_per_second", "MQPUT1"),
                    ("mqget_per_second", "MQGET"),
                    ("mqcmit_per_second", "MQCMIT"),
                    ("mqopen_per_second", "MQOPEN"),
                    ("other_per_second", "other"),
                    ("cf_accesses_per_second", "CF accesses"),
                    ("smds_writes_per_second", "SMDS writes"),
                    ("smds_reads_per_second", "SMDS reads"),
                ],
            )
        )
    if shared_by_several(summary.classes):
        shown = [
            {
                **r,
                "size_mean": None if r["size_mean"] is None else round(r["size_mean"]),
                "persistent": None if r["persistent"] is None else f"{100 * r['persistent']:.3g}%",
            }
            for r in summary.classes
        ]
        console.print(
            table(
                "Classes (each workload's own messages on a queue)",
                shown,
                [
                    ("scope", "scope"),
                    ("queue", "queue"),
                    ("role", "role"),
                    ("workload", "workload"),
                    ("messages", "messages"),
                    ("size_mean", "mean size"),
                    ("persistent", "persistent"),
                    *_LATENCY,
                ],
            )
        )
    if summary.applications:
        console.print(
            table(
                "Application errors",
                summary.applications,
                [
                    ("workload", "workload"),
                    ("q_mgr", "queue manager"),
                    ("queue", "queue"),
                    ("errors", "errors"),
                    ("error_reasons", "errors by reason"),
                ],
            )
        )
    if summary.channels:
        columns = [
            ("channel", "channel"),
            ("sender", "from"),
            ("batches", "batches"),
            ("messages", "messages"),
            ("average_batch_size", "msgs/batch"),
            ("busy", "busy"),
            ("bytes", "bytes"),
            ("delivered", "delivered"),
            ("expired_in_transit", "expired in transit"),
            ("in_flight_at_end", "in flight at end"),
            ("expiry_counted_mean", "Expiry counted mean"),
            ("elapsed_mean", "elapsed mean"),
        ]
        shown = [
            {**r, "busy": None if r.get("busy") is None else f"{100 * r['busy']:.3g}%"}
            for r in summary.channels
        ]
        console.print(table("Channels", shown, columns))
        if any(row.get("in_flight_at_end") for row in summary.channels):
            console.print(
                "in flight at end: delivered by the receiver, its batch not yet "
                "confirmed to the sender (counted in messages once it is)"
            )
    if summary.leases:
        console.print(
            table(
                "Lease holders",
                summary.leases,
                [
                    ("time", "time"),
                    ("role", "role"),
                    ("holder", "holder"),
                    ("token", "token"),
                    ("previous", "previous"),
                ],
            )
        )
    if summary.requesters:
        columns = [
            ("workload", "workload"),
            ("requests", "requests"),
            ("replies", "replies"),
            ("timeouts", "timeouts"),
            ("round_trip_p50", "p50"),
            ("round_trip_p99", "p99"),
        ]
        console.print(table("Request/reply", summary.requesters, columns))
    if summary.structures:
        print_structures(console, summary.structures)
    if summary.faults:
        console.print(
            table(
                "Faults",
                summary.faults,
                [
                    ("time", "time"),
                    ("action", "action"),
                    ("target", "target"),
                    ("refused", "refused"),
                    ("detail", "detail"),
                ],
            )
        )
    if summary.commands:  # [[at]] MQSC
        rows = [
            dict(row, result="NORMAL" if row["completed"] else "ABNORMAL")
            for row in summary.commands
        ]
        console.print(
            table(
                "MQSC commands",
                rows,
                [
                    ("time", "time"),
                    ("q_mgr", "queue manager"),
                    ("command", "command"),
                    ("result", "completion"),
                    ("response", "response"),
                ],
            )
        )
    end = summary.totals.get("end", 0)
    # Times are from the run's start on either clock: a wall-clock run's 31 s took 31 s.
    ran = f"{end:.1f} s" if result.scenario.run.clock == "wall" else f"{end:.1f} simulated seconds"
    throughput = summary.totals.get("throughput")
    if throughput is not None:
        # The figures' seconds: after the warm-up (the sweep's and the report's too).
        after = " after the warm-up" if summary.totals.get("warmup") else ""
        console.print(
            f"throughput {throughput:,.4g} MQGETs a second over the "
            f"{summary.totals['seconds']:.1f} s{after}"
        )
    console.print(
        f"seed {result.seed}; {ran} in {result.wall_seconds:.1f} s; {len(result.events):,} events"
    )


def print_structures(console: Console, rows: list[dict[str, Any]]) -> None:
    """Each CF structure's peak and time to full; then each outage it rode out (or not)."""
    columns = [
        ("qsg", "QSG"),
        ("structure", "structure"),
        ("size_kb", "SIZE (KB)"),
        ("peak_entries", "peak entries"),
        ("peak_elements", "peak elements"),
        ("peak_percent_full", "peak % full"),
        ("high_water_time", "at"),
        ("fill_rate", "trend"),
        ("time_to_full", "time to full"),
    ]
    shown = [
        {
            **r,
            "high_water_time": f"{r['high_water_time']:.0f} s",
            "peak_percent_full": f"{r['peak_percent_full']:.1f}%",
            "fill_rate": None if r["fill_rate"] is None else f"{r['fill_rate']:+.3g}%/s",
            "time_to_full": _time_to_full(r),
        }
        for r in rows
    ]
    console.print(table("CF structures", shown, columns))
    console.print(
        "trend: % full a second, least squares over the samples; time to full: at that "
        "trend from the last sample, if within as long again as the run was sampled"
    )
    for r in rows:
        for o in r["outages"]:
            if o["full_at"] is not None:
                said = f"it was full at {o['full_at']:.0f} s, {_seconds(o['lasts'])} in"
            elif o["lasts"] is not None:
                said = f"at {o['fill_rate']:.4f}% a second it would last {_seconds(o['lasts'])}"
            else:
                said = "it did not fill"
            console.print(
                f"{escape(r['structure'])} during {escape(o['action'])} "
                f"{escape(o['target'])} ({o['at']:.0f} s to {o['until']:.0f} s): "
                f"{said}"
            )


def _time_to_full(row: dict[str, Any]) -> str:
    """When the structure filled, or how long after the run's last sample its trend
    reaches full (only within the run's horizon: ``qsg.scenario.sizing.projection``)."""
    if row["full_at"] is not None:
        return f"full at {row['full_at']:.0f} s"
    if row["time_to_full"] is not None:
        return f"{_seconds(row['time_to_full'])} after the end"
    return "-"


def _seconds(value: float | None) -> str:
    """A long duration as a planner reads it: 2 h 05 min, 12 min 30 s, 45 s."""
    if value is None:
        return "-"
    whole = round(value)
    hours, rest = divmod(whole, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes:02d} min"
    return f"{minutes} min {seconds:02d} s" if minutes else f"{seconds} s"


__all__ = ["print_structures", "print_summary", "refusal_warner", "refusals_line", "table"]
