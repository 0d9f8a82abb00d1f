"""The CF structure, sized: usage over time, the high-water mark, time to full, outages.

The rule (docs/capacity.md, "The CF structure, sized"): a message takes one entry and
one 256-byte element per 256 bytes of its record (its body up to 63 KB, plus about 200
bytes of descriptor); SIZE KB hold SIZE entries and 4 x SIZE elements (the model's
accounting, as the coupling facility's list structures count: IBM MQ "Planning your
coupling facility and offload storage environment"). Validated against the real
accounting of the Redis coupling facility: a structure fed at a known net rate fills
at the time predicted, and is refused with MQRC_STORAGE_MEDIUM_FULL (2192) then.
"""

from __future__ import annotations

import numpy as np
import pytest

from actors.events import ApplicationError, DepthSampled, FaultInjected, MessagePut
from qsg import CMQC
from qsg.scenario import parse_scenario
from qsg.scenario.play import run_scenario
from qsg.scenario.sizing import elements_of, series, sized, usage_arrays
from qsg.scenario.summary import Scopes
from tests.claims import keeps

SCOPES = Scopes(
    {"QM1": "QSG1", "QM2": "QSG1"},
    {"QSG1": ["Q"]},
    {"QSG1": {"APP1": {"size_kb": 100, "queues": ["Q"]}}},
)


@keeps(
    "docs/capacity.md",
    "a message takes one element per 256 bytes of its body plus 200 bytes of control storage",
)
def test_a_message_takes_an_element_per_256_bytes_of_its_record_and_an_offloaded_body_none():
    assert elements_of(0) == 1
    assert elements_of(1024) == 5  # 1,224 bytes of record
    assert elements_of(63 * 1024) == 253
    assert elements_of(64 * 1024) == 1  # offloaded: only the descriptor is in the CF


def _filling() -> list[object]:
    # 1 KB messages (5 elements each); 10 more every 10 s: SIZE 100 KB holds 100 entries
    # and 400 elements, so the elements run out first, at 80 messages (80 s).
    events: list[object] = [MessagePut(0.0, "QM1", "Q", b"m", 1024, False, False, -1)]
    events += [DepthSampled(float(t), "QM2", "Q", t, True) for t in range(0, 61, 10)]
    events.insert(2, FaultInjected(5.0, "QM1", "kill", "QM1"))
    events.append(FaultInjected(55.0, "QM1", "restart", "QM1"))
    return events


@keeps("docs/capacity.md", "its trend and its time to full")
def test_usage_over_time_gives_percent_full_and_the_time_to_full_at_the_net_rate():
    usage = series(_filling(), SCOPES)[("QSG1", "APP1")]  # type: ignore[arg-type]
    last = usage[-1]
    assert (last.time, last.entries, last.elements) == (60.0, 60, 300)
    assert last.percent_full == pytest.approx(75.0)  # elements: 300 of 400
    assert last.time_to_full == pytest.approx(20.0)  # 100 left at 12.5% per 10 s
    assert usage[0].time_to_full is None


@keeps(
    "README.md",
    "each CF structure's peak use against its SIZE and how long it lasts through an outage",
)
def test_the_summary_gives_the_peak_and_how_long_an_outage_would_last():
    (row,) = sized(_filling(), SCOPES)  # type: ignore[arg-type]
    assert (row["peak_entries"], row["peak_elements"], row["high_water_time"]) == (60, 300, 60.0)
    assert row["max_entries"] == 100 and row["max_elements"] == 400
    (outage,) = row["outages"]
    assert (outage["action"], outage["at"], outage["until"]) == ("kill", 5.0, 55.0)
    # Samples 10..50 s inside it: 1.25% a second, from 12.5% at 10 s: full at 80 s,
    # 75 s after the kill began.
    assert outage["fill_rate"] == pytest.approx(1.25)
    assert outage["lasts"] == pytest.approx(75.0) and outage["full_at"] is None
    # Its trend over the run: 1.25% a second, 75% at 60 s: full 20 s after its last
    # sample, within the run's horizon (60 s more), so the summary gives it.
    assert row["fill_rate"] == pytest.approx(1.25) and row["full_at"] is None
    assert (row["time_to_full"], row["time_to_full_at"]) == (pytest.approx(20.0), 60.0)


FILL = """\
[run]
duration = 220
seed = 1
sample_interval = 2

[qsg.SZQ]
members = ["QM1"]
mqsc = "DEFINE QLOCAL(APP.FILL) QSGDISP(SHARED) CFSTRUCT(FILL) MAXDEPTH(999999)"

[qsg.SZQ.structures.FILL]
size_kb = 2000

[[workload]]
type = "putter"
qmgr = "QM1"
queue = "APP.FILL"
rate = 10
arrival = "constant"
size = 1024
"""


#: The offload rules switched off (a size of 64K), so only the 63 KB rule applies.
NO_RULES = 'mqsc = """DEFINE QLOCAL(APP.FILL) QSGDISP(SHARED) CFSTRUCT(FILL) MAXDEPTH(999999)\n' + (
    'ALTER CFSTRUCT(FILL) OFFLD1SZ(64K) OFFLD2SZ(64K) OFFLD3SZ(64K)"""'
)


@keeps(
    "docs/capacity.md",
    "with the offload rules switched off, the facility's first 2192 and qsg's "
    "predicted full are both at 160 s",
)
def test_a_structure_fed_at_a_known_net_rate_fills_at_the_predicted_time(cf_url: str):
    # 2,000 KB: 2,000 entries and 8,000 elements; 1 KB messages take 5 elements each, so
    # 1,600 messages fill it: at 10 a second, at 160 s. The real facility's own
    # accounting refuses the next put with MQRC_STORAGE_MEDIUM_FULL; qsg's sizing says
    # full at the same time, within 3%. (No offload rules here: see the next test.)
    text = FILL.replace(FILL.splitlines()[7], NO_RULES)
    result = run_scenario(parse_scenario(text), redis_url=cf_url)
    refused = [
        e
        for e in result.events
        if isinstance(e, ApplicationError) and e.reason == CMQC.MQRC_STORAGE_MEDIUM_FULL
    ]
    assert refused, "the facility never filled"
    assert refused[0].time == pytest.approx(160.0, rel=0.03)
    (row,) = result.summary.structures
    assert row["peak_percent_full"] >= 99.0
    assert row["high_water_time"] == pytest.approx(160.0, rel=0.03)
    early = series(result.events, result.scopes)[("SZQ", "FILL")]
    at_100 = next(u for u in early if u.time >= 100)
    assert at_100.time + at_100.time_to_full == pytest.approx(160.0, rel=0.03)  # type: ignore[operator]


@keeps("docs/capacity.md", "with IBM's default rules both are at 200 s")
def test_with_ibms_default_rules_the_same_feed_lasts_until_the_entries_run_out(cf_url: str):
    # OFFLD3TH(90) OFFLD3SZ(0K), IBM's default: from 90% full (7,200 elements, 1,440
    # messages, 144 s) every message is offloaded and keeps only its control
    # information in the structure (one element): the 2,000 entries run out instead,
    # at 200 s. The facility refuses then, and qsg's sizing puts the high-water mark there.
    result = run_scenario(parse_scenario(FILL), redis_url=cf_url)
    refused = [
        e
        for e in result.events
        if isinstance(e, ApplicationError) and e.reason == CMQC.MQRC_STORAGE_MEDIUM_FULL
    ]
    assert refused[0].time == pytest.approx(200.0, rel=0.03)
    (row,) = result.summary.structures
    assert row["peak_percent_full"] >= 99.0
    assert row["high_water_time"] == pytest.approx(200.0, rel=0.03)


def test_an_offload_threshold_of_0_offloads_from_the_first_put_even_with_one_sample() -> None:
    # OFFLDnTH(0) is reached at once: every put before the first depth sample is already
    # offloaded (its control information only, one element), not sized whole.
    puts = np.array([1.0, 2.0, 3.0]), np.array([1024, 1024, 1024])
    offloaded, _ = usage_arrays(np.array([10.0]), np.array([3]), *puts, 100, ((0, 0),))
    whole, _ = usage_arrays(np.array([10.0]), np.array([3]), *puts, 100, ())
    assert (offloaded.tolist(), whole.tolist()) == ([3], [15])
