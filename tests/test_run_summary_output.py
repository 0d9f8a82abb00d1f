"""What ``qsg run`` shows a person agrees with its summary.json and reads at a glance:
errors by reason code with IBM's name, per queue manager and per application; the same
rows in the tables as in the JSON; latencies in ms or s to three significant digits;
times from the run's start on the wall clock too; channel messages still in flight.

IBM MQ, "Reason codes" (API completion and reason codes): each MQRC_ has its number
(MQRC_STORAGE_MEDIUM_FULL is 2192).
"""

from __future__ import annotations

import pytest
from rich.console import Console

from actors.events import ChannelBatch, ChannelDelivered, LeaseChanged
from qsg.commands.display import duration, reasons
from qsg.commands.run_view import print_summary
from qsg.scenario import parse_scenario
from qsg.scenario.play import RunResult, run_scenario
from qsg.scenario.summary import Scopes, summarise
from tests.claims import keeps
from tests.test_event_log import SMALL

#: A structure of 8 KB (32 elements) holds six 1 KB messages; nobody gets them.
FULL = """\
[run]
duration = 5
seed = 3

[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = "DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1)"

[qsg.QSG1.structures.APP1]
size_kb = 8

[[workload]]
name = "orders"
type = "putter"
qmgr = "QM1"
queue = "APP.SHARED"
rate = 20
arrival = "constant"
"""


def shown(result: RunResult) -> str:
    console = Console(record=True, width=250, highlight=False)
    print_summary(console, result)
    return console.export_text()


def table_rows(text: str, title: str) -> list[list[str]]:
    """The data rows of the table titled ``title`` in ``text``, cell by cell."""
    lines = [line.rstrip() for line in text.splitlines()]
    start = lines.index(title)
    rows = []
    for line in lines[start + 4 :]:
        if not line.startswith("│"):
            break
        rows.append([cell.strip() for cell in line.strip("│").split("│")])
    return rows


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (None, "-"),
        (0.0, "0 ms"),
        (0.141, "141 ms"),
        (0.0025, "2.50 ms"),
        (0.00012345, "0.123 ms"),
        (0.49, "490 ms"),
        (0.99949, "999 ms"),
        (0.9996, "1.00 s"),
        (1.234, "1.23 s"),
        (12.345, "12.3 s"),
        (123.45, "123 s"),
        (999.6, "1,000 s"),
        (4321.0, "4,321 s"),
    ],
)
@keeps(
    "docs/scenarios.md",
    "Latencies and other durations are shown in milliseconds or seconds to three "
    "significant digits",
)
def test_a_latency_is_shown_in_ms_or_s_to_three_significant_digits(
    seconds: float | None, text: str
) -> None:
    assert duration(seconds) == text


@pytest.mark.parametrize("in_process", [False, True], ids=["server", "in-process"])
@keeps("README.md", "errors by reason code with IBM's name")
@keeps(
    "docs/scenarios.md",
    "Errors are shown by reason code with IBM's name, per queue manager and, in an "
    '"Application errors" table, per workload',
)
def test_errors_are_counted_by_reason_code_per_queue_queue_manager_and_application(
    cf_url: str, in_process: bool
) -> None:
    # On either path (issue 42: in process the structure never filled, and the queue's
    # row counted no error while its queue manager's and application's did).
    text = FULL.replace("seed = 3\n", f"seed = 3\nin_process = {str(in_process).lower()}\n")
    result = run_scenario(parse_scenario(text, "full.toml"), redis_url=cf_url)
    summary = result.summary
    (reason,) = summary.qmgr("QM1")["error_reasons"]
    count = summary.qmgr("QM1")["errors"]
    assert reason == {"reason": 2192, "name": "MQRC_STORAGE_MEDIUM_FULL", "count": count}
    assert count > 50  # 20 a second for 5 s, six of them fitted
    assert summary.applications == [
        {
            "workload": "orders",
            "q_mgr": "QM1",
            "queue": "APP.SHARED",
            "errors": count,
            "error_reasons": [reason],
        }
    ]
    queue = summary.queue("QSG1", "APP.SHARED")
    assert (queue["errors"], queue["error_reasons"]) == (count, [reason])
    text = shown(result)
    want = f"2192 STORAGE_MEDIUM_FULL × {count:,}"
    assert want in table_rows(text, "Queue managers")[0]
    assert table_rows(text, "Application errors") == [
        ["orders", "QM1", "APP.SHARED", f"{count:,}", want]
    ]


def test_reasons_are_listed_most_frequent_first_one_a_line() -> None:
    rows = [
        {"reason": 2009, "name": "MQRC_CONNECTION_BROKEN", "count": 1_200},
        {"reason": 2059, "name": "MQRC_Q_MGR_NOT_AVAILABLE", "count": 3},
    ]
    assert reasons(rows) == "2009 CONNECTION_BROKEN × 1,200\n2059 Q_MGR_NOT_AVAILABLE × 3"


@keeps(
    "docs/scenarios.md",
    "A queue where nothing happened (a dead-letter queue nobody used) has no row, in the "
    "tables as in `summary.json`.",
)
def test_the_tables_have_exactly_the_rows_of_the_summary_json() -> None:
    result = run_scenario(parse_scenario(SMALL, "small.toml"))
    summary = result.summary
    text = shown(result)
    queues = [(row["scope"], row["queue"]) for row in summary.queues]
    assert [tuple(row[:2]) for row in table_rows(text, "Queues")] == queues
    assert [row[0] for row in table_rows(text, "Queue managers")] == ["QM1", "QM2"]
    assert [row["q_mgr"] for row in summary.qmgrs] == ["QM1", "QM2"]
    # Both dead-letter queues were sampled; only QM2's was used: its row is in both,
    # QM1's in neither.
    assert ("QM2", "SYSTEM.DEAD.LETTER.QUEUE") in queues
    assert ("QM1", "SYSTEM.DEAD.LETTER.QUEUE") not in queues
    assert ("QSG1", "APP.SHARED") in queues and ("QM1", "APP.REPORTS") in queues


@keeps(
    "docs/scenarios.md",
    "A queue manager's peak depth is of its local queues (the column says `peak local depth`)",
)
def test_latencies_in_the_tables_carry_their_unit_and_peak_depth_says_local() -> None:
    result = run_scenario(parse_scenario(SMALL, "small.toml"))
    text = shown(result)
    row = result.summary.queue("QSG1", "APP.SHARED")
    (shared,) = [r for r in table_rows(text, "Queues") if r[:2] == ["QSG1", "APP.SHARED"]]
    assert shared[-2:] == [duration(row["latency_p50"]), duration(row["latency_p99"])]
    assert shared[-1].endswith((" ms", " s"))
    lines = [line.rstrip() for line in text.splitlines()]
    header = lines[lines.index("Queue managers") + 2]
    assert "peak local depth" in header
    assert "peak_local_depth" in result.summary.qmgrs[0]


@keeps("docs/scenarios.md", "Times count from the run's start on either clock")
def test_a_wall_clock_run_reports_times_from_its_start() -> None:
    small = SMALL.replace("duration = 20", 'duration = 1.5\nclock = "wall"')
    result = run_scenario(parse_scenario(small, "wall.toml"))
    assert 1.5 <= result.summary.totals["end"] < 5
    assert min(e.time for e in result.events) < 0.5
    leases = [e.time for e in result.events if isinstance(e, LeaseChanged)]
    assert leases and all(0 <= t < 1.5 for t in leases)
    last = shown(result).strip().splitlines()[-1]
    assert last.startswith(f"seed 4; {result.summary.totals['end']:.1f} s in ")


@keeps(
    "docs/scenarios.md",
    "`in flight at end`: messages the receiver had delivered whose batch the sender had "
    "not yet seen confirmed when the run ended, which is why `messages` can be less than "
    "`delivered`",
)
def test_a_channel_row_counts_what_was_delivered_but_not_yet_confirmed() -> None:
    # The receiver delivers a batch of 3 and commits; the run ends before the sender
    # hears the confirmation: 3 delivered, 0 in confirmed batches.
    delivered = [
        ChannelDelivered(1.0, "QM3", "QM1.TO.QM3", "APP.IN", b"%024d" % n, 10, -1) for n in range(3)
    ]
    summary = summarise([ChannelBatch(0.5, "QM1", "QM1.TO.QM3", 1, 2, 20), *delivered], Scopes())
    (row,) = summary.channels
    assert (row["messages"], row["delivered"], row["in_flight_at_end"]) == (2, 3, 1)


def test_the_reports_latency_tables_show_ms_or_s_too() -> None:
    import pyarrow as pa

    from qsg.commands.pipeline.report import _table_html

    latency = pa.table(
        {
            "run": ["r"],
            "scope": ["QSG1"],
            "queue": ["Q"],
            "q_mgr": ["*"],
            "messages": [10],
            "mean": [0.2],
            "p50": [0.141],
            "p90": [0.3],
            "p99": [1.234],
            "max": [2.0],
        }
    )
    html = _table_html("latency", latency)
    assert "<td>141 ms</td>" in html and "<td>1.23 s</td>" in html and "<td>10</td>" in html
