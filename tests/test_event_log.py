"""The event log as Parquet: one schema with a column per event field, and a run's log,
read back, gives the same events and the same summary; the ``qsg`` command writes it."""

from __future__ import annotations

import dataclasses
import json
import typing
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from click.testing import CliRunner

from actors.events import OpCompleted, OpInvoked, WorldEvent
from qsg.commands.cli import main
from qsg.scenario import eventlog, parse_scenario
from qsg.scenario.play import run_scenario
from qsg.scenario.summary import Scopes, Summary, percentile, summarise
from tests.claims import keeps

SMALL = """\
description = "a small in-process run for the event log"

[run]
duration = 20
seed = 4
in_process = true

[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = "DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1)"

[qsg.QSG1.structures.APP1]
size_kb = 4096

[qmgr.QM1]
expryint = 2
mqsc = "DEFINE QLOCAL(APP.REPORTS)"

[[workload]]
type = "putter"
qmgr = "QM1"
queue = "APP.SHARED"
rate = 10
expiry = 15
report = ["expiration"]
reply_to = "APP.REPORTS"

[[workload]]
type = "getter"
qmgr = "QM2"
queue = "APP.SHARED"
service = 0.2
"""


@keeps(
    "docs/events.md",
    "every other field of any record is a column of its own, null in the rows of records "
    "without it. A column means the same thing, with the same type, in every record that has "
    "it.",
)
def test_every_field_of_every_event_record_is_a_column_of_one_type() -> None:
    records = typing.get_args(WorldEvent)
    assert len(eventlog.RECORDS) == len(records)
    for cls in records:
        for f in dataclasses.fields(cls):
            assert f.name in eventlog.SCHEMA.names, (cls.__name__, f.name)
    assert eventlog.SCHEMA.names[:4] == ["kind", "time", "q_mgr", "queue"]


@keeps(
    "docs/events.md",
    "every event of the run, one row each, in the order they happened, in **one table with one "
    "schema**",
)
@keeps("docs/events.md", "so a summary can be recomputed from the file alone")
@keeps("docs/events.md", "`time` is written BYTE_STREAM_SPLIT and `msg_id` DELTA_BYTE_ARRAY")
def test_a_runs_log_read_back_gives_the_same_events_and_summary(tmp_path: Path) -> None:
    result = run_scenario(parse_scenario(SMALL, "small.toml"))
    assert {type(e).__name__ for e in result.events} >= {
        "MessagePut",
        "MessageGot",
        "Discarded",
        "ReportPut",
        "DepthSampled",
        "ExpiryScanned",
    }
    path = tmp_path / "events.parquet"
    eventlog.write(path, result.events, result.scopes, seed=result.seed)
    events, scopes = eventlog.read(path)
    assert events == result.events
    assert scopes == result.scopes
    assert summarise(events, scopes) == result.summary
    table = pq.read_table(path)
    assert table.schema.metadata[b"qsg.seed"] == b"4"
    assert table.num_rows == len(result.events)
    # The time and the MsgIds in their own encodings (smaller, and quicker to read).
    group = pq.ParquetFile(path).metadata.row_group(0)
    used = {
        group.column(i).path_in_schema: group.column(i).encodings for i in range(group.num_columns)
    }
    assert "BYTE_STREAM_SPLIT" in used["time"] and "DELTA_BYTE_ARRAY" in used["msg_id"]
    assert table.schema.field("msg_id").type == pa.binary(24)  # every MsgId MQ's 24 bytes


@keeps("docs/events.md", "`qsg run SCENARIO --out DIR` writes `DIR/events.parquet`")
def test_qsg_run_out_writes_the_scenario_seed_summary_and_events(tmp_path: Path) -> None:
    scenario = tmp_path / "small.toml"
    scenario.write_text(SMALL)
    out = tmp_path / "run"
    done = CliRunner().invoke(
        main, ["run", str(scenario), "--out", str(out), "--seed", "9", "--no-progress"]
    )
    assert done.exit_code == 0, done.output
    assert sorted(p.name for p in out.iterdir()) == [
        "events.parquet",
        "run.json",
        "scenario.toml",
        "summary.json",
    ]
    assert (out / "scenario.toml").read_text() == SMALL
    assert json.loads((out / "run.json").read_text())["seed"] == 9
    written = json.loads((out / "summary.json").read_text())
    events, scopes = eventlog.read(out / "events.parquet")
    again = json.loads(json.dumps(summarise(events, scopes).to_json()))
    assert again == written
    assert "Queues" in done.output and "APP.SHARED" in done.output


def test_the_help_of_qsg_and_each_command_is_complete() -> None:
    runner = CliRunner()
    top = runner.invoke(main, ["--help"]).output
    assert "run " in top and "validate " in top and "scenario" in top.lower()
    run_help = runner.invoke(main, ["run", "--help"]).output
    for option in ("--redis", "--out", "--seed", "--duration", "--progress", "--json"):
        assert option in run_help
    assert "QSG_REDIS_URL" in run_help
    assert "FILE:LINE: KEY: MESSAGE" in runner.invoke(main, ["validate", "--help"]).output


def test_percentiles_are_nearest_rank() -> None:
    values = [0.5, 0.1, 0.4, 0.2, 0.3]
    assert percentile(values, 50) == 0.3
    assert percentile(values, 99) == 0.5
    assert percentile(values, 1) == 0.1
    assert percentile([], 50) is None


def test_a_summary_counts_what_hand_made_events_say() -> None:
    from actors.events import DepthSampled, MessageGot, MessagePut
    from qsg.core.events import Discarded, ReportPut

    events = [
        MessagePut(0.0, "QM1", "Q", b"a", 10, False, False, 50),
        MessagePut(1.0, "QM1", "Q", b"b", 10, False, False, 50),
        MessagePut(1.0, "QM2", "L", b"c", 10, False, False, -1),
        MessageGot(2.5, "QM2", "Q", b"a", 10, False, False, 25),
        DepthSampled(3.0, "QM1", "Q", 1, True),
        Discarded(6.0, "QM2", "Q", b"b", "scan"),
        ReportPut(6.0, "QM2", "Q", b"r", b"b", 258),
    ]
    summary = summarise(events, Scopes({"QM1": "QSG1", "QM2": "QSG1"}, {"QSG1": ["Q"]}))
    shared = summary.queue("QSG1", "Q")
    assert (shared["put"], shared["got"], shared["expired"], shared["reports"]) == (3, 1, 1, 1)
    assert (shared["latency_p50"], shared["peak_depth"]) == (2.5, 1)
    assert summary.queue("QM2", "L")["put"] == 1
    assert summary.qmgr("QM2")["got"] == 1 and summary.qmgr("QM1")["put"] == 2
    assert Summary.from_json(summary.to_json()) == summary


def test_docs_events_md_lists_every_kind_and_column() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "events.md").read_text()
    for kind in eventlog.RECORDS:
        assert f"| `{kind}` |" in doc, kind
    for column, kind in eventlog.COLUMNS.items():
        assert f"| `{column}` | {kind} |" in doc, column


@keeps("docs/events.md", "so the column is fixed-size binary")
@keeps(
    "docs/events.md",
    "an event without one (the `invoke` of a get) has null there, and `eventlog.read` gives "
    'back `b""`',
)
@keeps(
    "docs/events.md",
    "A log in which some `invoke` names a MsgId of another length (an application's descriptor "
    "before MQ padded it) keeps the column variable-length.",
)
def test_msg_ids_are_24_bytes_fixed_an_empty_one_null_and_both_read_back(tmp_path: Path) -> None:
    mq_id = b"AMQ QM1         " + (7).to_bytes(8, "big")
    events: list[WorldEvent] = [
        OpInvoked(1.0, "QM1", "app", "get", "Q"),  # a get names no MsgId: b""
        OpCompleted(2.0, "QM1", "app", "get", "Q", "ok", 0, mq_id),
    ]
    path = tmp_path / "events.parquet"
    eventlog.write(path, events, Scopes())
    column = pq.read_table(path)["msg_id"]
    assert column.type == pa.binary(24) and column.to_pylist() == [None, mq_id]
    assert eventlog.read(path)[0] == events
    # An application's MsgId before MQ padded it: the column keeps every byte as it was.
    odd = [OpInvoked(1.0, "QM1", "app", "put", "Q", b"ABC"), *events]
    eventlog.write(path, odd, Scopes())
    assert pq.read_table(path)["msg_id"].type == pa.binary()
    assert eventlog.read(path)[0] == odd


@keeps(
    "docs/events.md",
    "The file's metadata holds `qsg.schema_version`, `qsg.seed` and `qsg.scopes` (JSON: which "
    "queue manager is in which QSG, and each QSG's shared queues)",
)
@keeps("docs/events.md", "It is zstd-compressed")
@keeps(
    "docs/events.md",
    "Schema version 2; version 1 (variable-length `msg_id`) logs read the same.",
)
@keeps(
    "docs/events.md",
    "To write a table of the log's schema yourself, use `eventlog.write_table(table, path)`.",
)
def test_the_logs_metadata_compression_and_a_version_1_log(tmp_path: Path) -> None:
    mq_id = b"AMQ QM1         " + (1).to_bytes(8, "big")
    events: list[WorldEvent] = [OpInvoked(1.0, "QM1", "app", "put", "Q", mq_id)]
    scopes = Scopes({"QSG1": ["QM1", "QM2"]}, {"QSG1": ["APP.SHARED"]})
    path = tmp_path / "events.parquet"
    eventlog.write(path, events, scopes, seed=11)
    metadata = pq.read_table(path).schema.metadata
    assert metadata[b"qsg.schema_version"] == b"2" and metadata[b"qsg.seed"] == b"11"
    assert json.loads(metadata[b"qsg.scopes"])["members"] == {"QSG1": ["QM1", "QM2"]}
    group = pq.ParquetFile(path).metadata.row_group(0)
    assert {group.column(i).compression for i in range(group.num_columns)} == {"ZSTD"}
    # A version-1 log: msg_id variable-length binary, written before the fixed column.
    table = eventlog.to_table(events, scopes)
    old = table.set_column(
        table.schema.get_field_index("msg_id"),
        pa.field("msg_id", pa.binary()),
        table["msg_id"].cast(pa.binary()),
    ).replace_schema_metadata({**metadata, b"qsg.schema_version": b"1"})
    eventlog.write_table(old, path)
    assert pq.read_table(path)["msg_id"].type == pa.binary()
    assert eventlog.read(path) == (events, scopes)
