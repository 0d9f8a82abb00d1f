"""One run's tables in Arrow (qsg/commands/pipeline/run_tables.py), without Spark: logs small
enough to work out by hand, written with the event log's own writer.

The rules pinned are the run summary's (qsg/scenario/summary.py), which the pipeline
shares: latency runs from a message's first MQPUT anywhere to each MQGET that returned
it (browses not counted); percentiles are nearest-rank; a failover gap runs from the
old holder's failure, while it held the lease, to the takeover.
"""

from __future__ import annotations

import math
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

from actors.events import ChannelDelivered, LeaseChanged, MessageGot, MessagePut, QMgrKilled
from qsg.commands.pipeline import run_tables as rt
from qsg.commands.pipeline.runs import find_runs
from qsg.scenario import eventlog, parse_scenario
from qsg.scenario.play import run_scenario
from qsg.scenario.sizing import elements_of, series
from qsg.scenario.summary import Scopes, percentile
from tests.claims import keeps


def _run(tmp_path: Path, events: list[object], scopes: Scopes | None = None) -> rt.RunEvents:
    (tmp_path / "r").mkdir(exist_ok=True)
    eventlog.write(tmp_path / "r" / "events.parquet", events, scopes or Scopes(), seed=7)  # type: ignore[arg-type]
    (run,) = find_runs(tmp_path)
    return rt.RunEvents(run, rt.read_events(run))


def _put(t: float, msg: bytes, q_mgr: str = "QM1", queue: str = "Q") -> MessagePut:
    return MessagePut(t, q_mgr, queue, msg, 100, False, False, -1)


def _got(
    t: float, msg: bytes, q_mgr: str = "QM1", queue: str = "Q", browse: bool = False
) -> MessageGot:
    return MessageGot(t, q_mgr, queue, msg, 100, False, browse, -1)


@keeps(
    "docs/scenarios.md",
    "from a message's first MQPUT anywhere to its MQGET, nearest-rank percentiles",
)
def test_latency_counts_from_the_first_mqput_anywhere_and_not_from_a_later_one(tmp_path):
    ev = _run(
        tmp_path,
        [
            _put(1.0, b"A", queue="XMITQ"),  # to a remote queue: the transmission queue
            ChannelDelivered(3.0, "QM2", "QM1.TO.QM2", "Q", b"A", 100, -1),
            _got(5.0, b"A", q_mgr="QM2"),
            _put(6.0, b"B"),
            _got(6.5, b"B", browse=True),
            _got(7.0, b"B"),
            _got(8.0, b"C"),  # its put is not in the log: no latency
        ],
    )
    lat = rt.latencies(rt.Messages.of(ev)).to_pylist()
    assert [(r["q_mgr"], r["latency"]) for r in lat] == [("QM1", 1.0), ("QM2", 4.0)]
    assert rt.runs(ev, rt.Messages.of(ev)).to_pylist()[0]["got"] == 3  # the browse is not


@keeps("docs/scenarios.md", "a table per queue (a shared queue once, under its QSG)")
@keeps("README.md", "a shared queue once, under its QSG")
def test_a_shared_queue_is_its_qsgs_whichever_member_touched_it(tmp_path):
    scopes = Scopes({"QM1": "QSG1", "QM2": "QSG1"}, {"QSG1": ["SHARED"]})
    ev = _run(
        tmp_path,
        [
            _put(0.0, b"A", "QM1", "SHARED"),
            _got(2.0, b"A", "QM2", "SHARED"),
            _put(0.0, b"B", "QM1", "LOCAL"),
            _got(1.0, b"B", "QM1", "LOCAL"),
        ],
        scopes,
    )
    rows = {
        (r["scope"], r["queue"], r["q_mgr"]): r["p50"]
        for r in rt.latency(ev, rt.latencies(rt.Messages.of(ev))).to_pylist()
    }
    assert rows == {
        ("QSG1", "SHARED", "QM2"): 2.0,
        ("QSG1", "SHARED", "*"): 2.0,
        ("QM1", "LOCAL", "QM1"): 1.0,
        ("QM1", "LOCAL", "*"): 1.0,
    }


@given(
    st.lists(st.floats(0, 1e6, allow_nan=False), min_size=1, max_size=60),
    st.sampled_from(rt.CDF_POINTS),
)
def test_nearest_rank_percentiles_are_the_run_summarys(values, p):
    ascending = pa.array(sorted(values), pa.float64())
    assert rt.nearest_rank(ascending, p) == percentile(values, p * 100)


def test_each_group_gets_its_own_nearest_rank_percentiles(tmp_path):
    events: list[object] = []
    for i in range(1, 11):  # QA: latencies 1..10; QB: 100, 200, 300
        events += [_put(0.0, b"a%d" % i, queue="QA"), _got(float(i), b"a%d" % i, queue="QA")]
    for i in (3, 1, 2):
        events += [_put(0.0, b"b%d" % i, queue="QB"), _got(100.0 * i, b"b%d" % i, queue="QB")]
    ev = _run(tmp_path, events)
    rows = {
        r["queue"]: r
        for r in rt.latency(ev, rt.latencies(rt.Messages.of(ev))).to_pylist()
        if r["q_mgr"] == "*"
    }
    assert [rows["QA"][k] for k in ("messages", "p50", "p90", "p99", "max")] == [10, 5, 9, 10, 10]
    assert [rows["QB"][k] for k in ("messages", "p50", "p90", "max")] == [3, 200, 300, 300]
    assert rows["QB"]["mean"] == 200.0


@keeps(
    "docs/pipeline.md",
    "the old holder's failure (kill, pause, loss of the CF) after it took the lease; null"
    " if it stopped cleanly",
)
def test_a_takeover_after_a_failure_outside_the_old_holders_tenure_has_no_gap(tmp_path):
    ev = _run(
        tmp_path,
        [
            LeaseChanged(0.0, "QM1", "EXPIRY.SCAN", 1, None),
            QMgrKilled(10.0, "QM1"),  # QM1 dies holding it: QM2 takes over 4 s later
            LeaseChanged(14.0, "QM2", "EXPIRY.SCAN", 2, "QM1"),
            LeaseChanged(20.0, "QM1", "EXPIRY.SCAN", 3, "QM2"),  # QM2 stops cleanly
            LeaseChanged(30.0, "QM2", "EXPIRY.SCAN", 4, "QM1"),  # QM1's kill was before
        ],
    )
    gaps = [
        (r["taken_at"], r["previous"], r["lost_at"], r["gap"])
        for r in rt.failover_gaps(ev).to_pylist()
    ]
    assert gaps == [(14.0, "QM1", 10.0, 4.0), (20.0, "QM2", None, None), (30.0, "QM1", None, None)]


def test_a_column_with_no_value_in_the_log_comes_back_as_nulls_of_its_type(tmp_path):
    ev = _run(tmp_path, [_put(1.0, b"A"), _got(2.0, b"A")])  # no faults, no channels
    for name in ("action", "channel", "units", "depth", "shared", "lost"):
        column = ev.events[name]
        column.validate(full=True)
        assert column.null_count == ev.events.num_rows
        assert column.type in (eventlog.COLUMNS[name], pa.dictionary(pa.int32(), pa.string()))
    assert rt.faults(ev).num_rows == 0 and rt.faults(ev).schema == rt.SCHEMAS["faults"]


def test_a_log_without_some_column_is_read_with_that_column_null(tmp_path):
    (tmp_path / "r").mkdir()
    table = eventlog.to_table([_put(1.0, b"A"), _got(3.0, b"A")], Scopes())
    kept = table.select([c for c in table.column_names if c not in ("detail", "failed")])
    pq.write_table(kept, tmp_path / "r" / "events.parquet")
    (run,) = find_runs(tmp_path)
    tables = rt.run_tables(run)
    assert tables["latency"].to_pylist()[0]["p50"] == 2.0
    assert tables["recoveries"].num_rows == 0


@given(st.lists(st.floats(allow_nan=False), max_size=40))
def test_time_keys_group_by_exactly_their_own_value(times):
    table = pa.table(
        {
            "time": pa.array(times + times, pa.float64()),
            "n": pa.array([1] * (2 * len(times)), pa.int64()),
        }
    )
    grouped = rt._group(table, ["time"], [("n", "sum")], ["n"]).to_pylist()
    want: dict[float, int] = {}
    for t in times:  # -0.0 and 0.0 are one value, but two keys; both count 2 apiece
        want[t] = want.get(t, 0) + 2
    found = {}
    for r in grouped:
        found[r["time"]] = found.get(r["time"], 0) + r["n"]
    assert found == want


def test_the_tables_are_the_schemas_even_for_an_empty_log(tmp_path):
    tables = rt.tables_of(_run(tmp_path, []))
    assert list(tables) == list(rt.SCHEMAS)
    for name, table in tables.items():
        assert table.schema == rt.SCHEMAS[name], name
    assert tables["runs"].to_pylist()[0]["events"] == 0


@pytest.mark.parametrize("interval", [0.0, -1.0])
def test_a_time_bucket_of_zero_or_less_is_refused_by_value(tmp_path, interval):
    (tmp_path / "r").mkdir()
    eventlog.write(tmp_path / "r" / "events.parquet", [], Scopes())
    (run,) = find_runs(tmp_path)
    with pytest.raises(ValueError, match="above 0 s"):
        rt.RunEvents(run, rt.read_events(run), interval)


# MsgIds as a queue manager makes them (qsg/core/qmgr.py): "AMQ ", 12 bytes of name,
# an 8-byte counter; and a few that are not 24 bytes, which the key cannot take.
_MSG_IDS = st.one_of(
    st.builds(
        lambda q, n: b"AMQ " + q.ljust(12) + n.to_bytes(8, "big"),
        st.sampled_from([b"QM1", b"QM2", b"QMLONGNAME12"]),
        st.integers(0, 40),
    ),
    st.binary(min_size=24, max_size=24),
)


_OR_NONE = st.one_of(_MSG_IDS, _MSG_IDS, st.none())  # a null now and then


@given(st.lists(_OR_NONE, max_size=30), st.lists(_OR_NONE, max_size=30), st.booleans())
def test_each_msg_id_is_matched_to_its_first_occurrence_and_a_null_to_none(puts, probe, odd):
    if odd:  # one value of another length: no integer key, the bytes are looked up
        puts = [*puts, b"short"]
    expected = [puts.index(m) if m is not None and m in puts else None for m in probe]
    skip = b"X" * 24  # each array a slice of a longer one, as filters and takes give
    for kind in [pa.binary()] + ([] if odd else [pa.binary(24)]):  # schema 1, schema 2
        values, wanted = (pa.array([skip, *v], kind).slice(1) for v in (puts, probe))
        assert rt.first_index(wanted, values).to_pylist() == expected


def _word(value: int) -> bytes:
    return (value % 2**64).to_bytes(8, "little")


def test_msg_ids_whose_keys_collide_are_told_apart_by_their_bytes():
    # key = (w0 * MIX + w1) * MIX + w2 (mod 2**64): (0, 0, x) and (0, 1, x - MIX) collide.
    mix, x = rt._MIX.as_py(), 12345
    a, b = _word(0) + _word(0) + _word(x), _word(0) + _word(1) + _word(x - mix)
    keys = rt._key(pa.array([a, b], pa.binary()))
    assert keys is not None and keys[0] == keys[1]  # the premise: the same key
    assert rt.first_index(
        pa.array([b, a], pa.binary()), pa.array([a], pa.binary())
    ).to_pylist() == [None, 0]


_MOVES = st.lists(
    st.tuples(
        st.sampled_from(["put", "get"]),
        st.floats(0, 50),
        st.sampled_from(["QM1", "QM2", "QM3"]),
        st.sampled_from(["Q", "SHARED", "OTHER"]),
    ),
    max_size=40,
)


@given(_MOVES, st.sampled_from([0.5, 1.0, 7.0]))
def test_throughput_on_a_packed_key_counts_what_grouping_by_each_column_counts(moves, interval):
    table = pa.table(
        {
            "scope": pa.array([m[2] for m in moves], pa.string()).dictionary_encode(),
            "queue": pa.array([m[3] for m in moves], pa.string()).dictionary_encode(),
            "q_mgr": pa.array([m[2] for m in moves], pa.string()).dictionary_encode(),
            "time": pa.array([m[1] for m in moves], pa.float64()),
        }
    )
    got = pa.array([m[0] == "get" for m in moves])
    packed = rt._tally(table, ["scope", "queue", "q_mgr"], interval, got)
    want: dict[tuple[object, ...], list[int]] = {}
    for kind, t, q_mgr, queue in moves:
        counts = want.setdefault((q_mgr, queue, q_mgr, math.floor(t / interval) * interval), [0, 0])
        counts[kind == "get"] += 1
    if not moves:
        assert packed is None  # nothing to pack: the grouping path says there is nothing
        return
    assert packed is not None
    found = {
        (r["scope"], r["queue"], r["q_mgr"], r["t"]): [r["put"], r["got"]]
        for r in packed.to_pylist()
    }
    assert found == want
    keys = [(r["scope"], r["queue"], r["q_mgr"], r["t"]) for r in packed.to_pylist()]
    assert len(keys) == len(set(keys))  # one row a group


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["QA", "QB", "QC"]),
            st.sampled_from(["QM1", "QM2"]),
            st.floats(0, 1e4, allow_nan=False),
        ),
        max_size=60,
    )
)
def test_each_groups_quantiles_are_the_nearest_rank_of_its_own_latencies(gets):
    gets = sorted(gets, key=lambda g: g[2])  # as latencies() gives them: by latency
    lat = pa.table(
        {
            "queue": pa.array([g[0] for g in gets], pa.string()).dictionary_encode(),
            "q_mgr": pa.array([g[1] for g in gets], pa.string()).dictionary_encode(),
            "latency": pa.array([g[2] for g in gets], pa.float64()),
        }
    )
    points = [0.01, 0.5, 0.9, 0.99, 1.0]
    found = {
        (r["queue"], r["q_mgr"]): r
        for r in rt._quantiles(lat, ["queue", "q_mgr"], points).to_pylist()
    }
    groups: dict[tuple[str, str], list[float]] = {}
    for queue, q_mgr, latency in gets:
        groups.setdefault((queue, q_mgr), []).append(latency)
    assert set(found) == set(groups)
    for group, values in groups.items():
        row = found[group]
        assert row["messages"] == len(values)
        assert row["mean"] == pytest.approx(sum(values) / len(values))
        assert [row[f"q{i}"] for i in range(len(points))] == [
            percentile(values, p * 100) for p in points
        ]


def test_a_log_without_msg_ids_reads_them_as_nulls_of_their_fixed_size(tmp_path):
    (tmp_path / "r").mkdir()
    table = eventlog.to_table([_put(1.0, b"A" * 24), _got(3.0, b"A" * 24)], Scopes())
    pq.write_table(table.drop_columns(["msg_id"]), tmp_path / "r" / "events.parquet")
    (run,) = find_runs(tmp_path)
    column = rt.read_events(run)["msg_id"]
    column.validate(full=True)
    assert column.type == pa.binary(24) and column.null_count == 2
    assert rt.run_tables(run)["latency"].num_rows == 0  # nothing to match a get to


#: A structure of 100 KB (100 entries, 400 elements) fed a 40 KB message a second at
#: CFLEVEL(5) with IBM's default rules: two messages (161 elements each) make it 80.5%
#: full, past OFFLD1TH(70) OFFLD1SZ(32K), so from the third on each body is offloaded.
OFFLOADING = """\
[run]
duration = 8
seed = 1
sample_interval = 1

[qsg.OFQ]
members = ["QM1"]
mqsc = "DEFINE QLOCAL(APP.OFF) QSGDISP(SHARED) CFSTRUCT(OFF) MAXDEPTH(999999)"

[qsg.OFQ.structures.OFF]
size_kb = 100

[[workload]]
type = "putter"
qmgr = "QM1"
queue = "APP.OFF"
rate = 1
arrival = "constant"
size = 40960
"""


def test_cf_usage_gives_the_summarys_elements_and_percent_full_under_the_offload_rules(tmp_path):
    # CFLEVEL(5)'s OFFLDnTH/OFFLDnSZ rules, per put, at the previous sample's fullness:
    # the metrics table and the run's summary size a structure by the one accounting.
    result = run_scenario(parse_scenario(OFFLOADING))
    ev = _run(tmp_path, list(result.events), result.scopes)
    table = sorted(
        (r["time"], r["entries"], r["elements"], r["percent_full"])
        for r in rt.cf_usage(ev).to_pylist()
    )
    summary = [
        (u.time, u.entries, u.elements, u.percent_full)
        for u in series(result.events, result.scopes)[("OFQ", "OFF")]
    ]
    assert table == summary
    assert max(r[3] for r in table) > 70.0  # it passed OFFLD1TH, so the rules applied
    assert table[-1][2] < table[-1][1] * elements_of(40960)  # offloaded bodies are not in it
