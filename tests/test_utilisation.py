"""Utilisation: a queue manager's processors busy as the cost model charges them.

The rule (docs/capacity.md, "Utilisation"): every application MQI call costs its
queue manager ``cpu_per_call`` processor seconds (plus ``cf_access`` on a shared queue)
on one of its ``cpus`` processors; the statistics count the calls by verb at each
interval (SMF 115's message manager statistics), and the summary's ``cpu_busy`` is the
processor seconds over the seconds times the processors. Validated against theory: a
queue manager serving λ calls a second of S seconds each on c processors is busy
λ·S/c of the time.
"""

from __future__ import annotations

import pytest

from actors.events import QMgrStatistics
from qsg.scenario import parse_scenario
from qsg.scenario.play import run_scenario

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
