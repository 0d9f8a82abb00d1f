"""Utilisation: a queue manager's processors busy as the cost model charges them.

The rule (docs/capacity.md, "Utilisation"): every application MQI call costs its
queue manager ``cpu_per_call`` processor seconds (plus ``cf_access`` on a shared queue)
on one of its ``cpus`` processors; the statistics count the calls by verb at each
interval (SMF 115's message manager statistics), and the summary's ``cpu_busy`` is the
processor seconds over the seconds times the processors. Validated against theory: a
queue manager serving λ calls a second of S seconds each on c processors is busy
λ·S/c of the time. A channel's sending MCA is one server (c = 1) whose service is a
batch's cycle (its trip, with each message's MQXQH, and the confirmation back): its
``busy`` is the batches' cycles over the run, λ·S when each batch is one message.
"""

from __future__ import annotations

import pytest

from actors.events import QMgrStatistics
from qsg import CMQC
from qsg.scenario import parse_scenario
from qsg.scenario.play import run_scenario
from tests.claims import keeps

BUSY = """\
[run]
duration = 200
seed = 4
in_process = true
sample_interval = 10
{warmup}

[model]
cpu_per_call = 0.02
cpus = 4
cf_access = 0.005

[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = "DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(999999)"

[qsg.QSG1.structures.APP1]
size_kb = 65536

[[workload]]
type = "putter"
qmgr = "QM1"
queue = "APP.SHARED"
apps = 3
rate = 20
"""


@keeps("README.md", "processor utilisation per queue manager")
def test_utilisation_is_lambda_times_s_over_c():
    # Three putters at 20 a second on QM1, each MQPUT 0.02 s of processor and 0.005 s of
    # CF access. A putter waits for its put before drawing the next gap, so each puts
    # 1 / (1/20 + 0.025) = 13.3 a second: lambda = 40 calls a second, S = 0.025 s,
    # c = 4: busy 40 x 0.025 / 4 = 0.25 (three MQCONNs and MQOPENs besides).
    result = run_scenario(parse_scenario(BUSY.format(warmup="")))
    row = result.summary.qmgr("QM1")
    puts = row["put"]
    assert row["mqput_per_second"] == pytest.approx(puts / 200)
    assert row["mqput_per_second"] == pytest.approx(40, rel=0.05)  # Poisson: ~8,000 puts
    assert row["mqopen_per_second"] == pytest.approx(3 / 200)
    assert row["cf_accesses_per_second"] == pytest.approx(puts / 200)  # MQOPEN: none
    assert row["other_per_second"] == pytest.approx(3 / 200)  # the MQCONNs
    assert row["cpu_busy"] == pytest.approx((puts * 0.025 + 6 * 0.02) / (200 * 4))
    assert row["cpu_busy"] == pytest.approx(40 * 0.025 / 4, rel=0.05)


@keeps(
    "docs/events.md",
    "`qmgr-statistics` | `QMgrStatistics` | a queue manager's work over the last `interval` "
    "s, at each sample",
)
def test_statistics_come_every_interval_and_a_warm_up_leaves_the_first_out():
    result = run_scenario(parse_scenario(BUSY.format(warmup="warmup = 50")))
    records = [e for e in result.events if isinstance(e, QMgrStatistics) and e.q_mgr == "QM1"]
    assert [r.time for r in records[:3]] == [0.0, 10.0, 20.0]
    assert sum(r.interval for r in records) == pytest.approx(200)
    row = result.summary.qmgr("QM1")
    kept = [r for r in records if r.time >= 50]
    assert row["mqput_per_second"] == pytest.approx(
        sum(r.mqput for r in kept) / sum(r.interval for r in kept)
    )
    assert row["mqopen_per_second"] == 0  # the MQOPENs were in the warm-up


CHANNEL = """\
[run]
duration = 100
seed = 2
in_process = true

[model]
channel_latency = 0.1
channel_bandwidth = 1_000_000

[qmgr.QM1]
mqsc = "DEFINE QREMOTE(TO.QM2) RNAME(APP.IN) RQMNAME(QM2) XMITQ(QM2)"

[qmgr.QM2]
mqsc = "DEFINE QLOCAL(APP.IN) MAXDEPTH(100000)"

[[channel]]
name = "QM1.TO.QM2"
from = "QM1"
to = "QM2"

[[workload]]
type = "putter"
qmgr = "QM1"
queue = "TO.QM2"
rate = {rate}
arrival = "{arrival}"
size = 10000
"""


def test_a_channels_busy_fraction_is_lambda_times_its_batch_time():
    # One message every 0.5 s; a batch takes its trip (0.1 s, and 10,000 bytes with
    # their 428-byte MQXQH at 1 MB/s) and the confirmation's trip back (0.1 s): S =
    # 0.210428 s, each batch one message (the next arrives after it is done), one
    # sending MCA (c = 1): busy = lambda x S / c = 2 x 0.210428.
    service = 0.2 + (10_000 + CMQC.MQXQH_LENGTH_1) / 1_000_000
    result = run_scenario(parse_scenario(CHANNEL.format(rate=2, arrival="constant")))
    (row,) = result.summary.channels
    assert row["average_batch_size"] == 1.0
    assert row["batches"] == pytest.approx(200, abs=2)
    assert row["busy"] == pytest.approx(row["batches"] * service / 100, rel=1e-6)
    assert row["busy"] == pytest.approx(2 * service / 1, rel=0.01)


def test_a_busy_channel_batches_what_arrived_during_the_batch_before():
    # Poisson arrivals at 8 a second and a 0.21 s batch cycle: messages wait while a
    # batch is out and go together in the next, so there are fewer batches than
    # messages, and the MCA is busy less than 8 x 0.21 (a batch of n costs one cycle).
    result = run_scenario(parse_scenario(CHANNEL.format(rate=8, arrival="poisson")))
    (row,) = result.summary.channels
    assert row["average_batch_size"] == pytest.approx(row["messages"] / row["batches"])
    assert row["average_batch_size"] > 1.2
    # Each batch's cycle is 0.2 s plus its bytes at 1 MB/s (each message's with its MQXQH).
    each = (10_000 + CMQC.MQXQH_LENGTH_1) / 1_000_000
    cycle = (0.2 * row["batches"] + each * row["messages"]) / 100
    assert row["busy"] == pytest.approx(cycle, rel=0.01)
