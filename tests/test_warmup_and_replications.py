"""Warm-up and replications: a run's start-up left out of its statistics, and N seeds'
figures as a mean with its 95% confidence interval (Student t).

The rules (docs/capacity.md): ``[run] warmup = S`` keeps every event of the first S
simulated seconds out of the summary's statistics (it stays in the event log; a
latency counts only for a message put after S); ``qsg run --replications N`` plays
seeds seed..seed+N-1 and gives each figure as ``{"mean", "half_width", "n"}``, the
half-width t(0.975, n-1)·s/√n; ``--precision P`` stops once every half-width is within
P of its mean. Validated against theory: the intervals of an M/M/1 queue's mean wait
cover Erlang C's exact value about 95% of the time.
"""

from __future__ import annotations

import json
import math
import statistics
from typing import Any

import pytest
from click.testing import CliRunner

from actors.events import FaultInjected, MessageGot, MessagePut
from qsg.commands.cli import main
from qsg.commands.pipeline.theory import mmc_mean_wait
from qsg.commands.replicate import combine, interval, precise, replicate, t975
from qsg.scenario import ScenarioError, parse_scenario
from qsg.scenario.play import run_scenario
from qsg.scenario.summary import Scopes, summarise
from tests.claims import keeps

MM1 = """\
[run]
duration = {duration}
warmup = {warmup}
seed = 1
in_process = true
sample_interval = 1000

[qmgr.QM1]
mqsc = "DEFINE QLOCAL(APP.WORK) MAXDEPTH(100000)"

[[workload]]
type = "putter"
qmgr = "QM1"
queue = "APP.WORK"
rate = 5

[[workload]]
type = "getter"
qmgr = "QM1"
queue = "APP.WORK"
service = {{ dist = "exponential", mean = 0.1 }}
"""


def _put(time: float, msg_id: bytes) -> MessagePut:
    return MessagePut(time, "QM1", "Q", msg_id, 10, False, False, -1)


def _got(time: float, msg_id: bytes) -> MessageGot:
    return MessageGot(time, "QM1", "Q", msg_id, 10, False, False, -1)


@keeps("docs/capacity.md", "`[run] warmup = S` leaves the first S simulated seconds")
@keeps("README.md", "a warm-up left out of every figure")
@keeps(
    "docs/scenarios.md",
    "simulated seconds at the start left out of every statistic of the summary (the "
    "events stay in the log)",
)
def test_a_warm_up_leaves_its_events_out_of_every_statistic_but_not_out_of_the_record():
    events = [
        _put(1.0, b"a"),
        _got(4.0, b"a"),  # both in the warm-up
        _put(5.0, b"b"),
        _got(12.0, b"b"),  # put in it: got counted, its latency not
        _put(11.0, b"c"),
        _got(11.5, b"c"),  # after it: counted, latency 0.5
        FaultInjected(2.0, "kill", "QM1", "QM1", "", False),
    ]
    summary = summarise(events, Scopes(), since=10.0, warmup=10.0)
    (row,) = summary.queues
    assert (row["put"], row["got"], row["latency_mean"]) == (1, 2, 0.5)
    assert summary.totals["warmup"] == 10.0 and summary.totals["put"] == 1
    assert [f["time"] for f in summary.faults] == [2.0]  # the record keeps the fault
    everything = summarise(events, Scopes())
    assert everything.queues[0]["put"] == 3 and "warmup" not in everything.totals


def test_a_warm_up_that_lasts_the_whole_run_is_a_problem_at_its_line():
    with pytest.raises(
        ScenarioError,
        match=r"^<scenario>:3: run\.warmup: the warm-up \(50 s\) "
        r"must end before the run does \(duration 50\)$",
    ):
        parse_scenario(MM1.format(duration=50, warmup=50))


def test_a_played_warm_up_keeps_its_events_in_the_log():
    result = run_scenario(parse_scenario(MM1.format(duration=20, warmup=10)))
    early = [e for e in result.events if isinstance(e, MessagePut) and e.time < 10]
    late = [e for e in result.events if isinstance(e, MessagePut) and e.time >= 10]
    assert early and result.summary.totals["put"] == len(late)


def test_students_t_has_the_tables_values():
    assert (t975(1), t975(4), t975(30)) == (12.706, 2.776, 2.042)
    assert t975(60) == 2.000 and t975(50) == pytest.approx(2.009, abs=0.002)
    assert 1.960 < t975(10_000) < 1.961


@keeps("docs/capacity.md", "(Student's t, s the replications' standard deviation")
def test_an_interval_is_the_mean_and_t_times_the_standard_error():
    got = interval([1.0, 2.0, 3.0, 6.0])
    assert got["mean"] == 3.0 and got["n"] == 4
    assert got["half_width"] == pytest.approx(3.182 * statistics.stdev([1, 2, 3, 6]) / 2)
    assert interval([5.0]) == {"mean": 5.0, "half_width": None, "n": 1}


def test_replications_are_matched_by_name_and_a_missing_figure_lowers_n():
    runs: list[dict[str, Any]] = [
        {
            "queues": [{"scope": "QM1", "queue": "A", "shared": False, "got": got, "p99": p99}],
            "qmgrs": [],
            "channels": [],
            "requesters": [],
            "applications": [],
            "faults": [],
            "leases": [{"holder": "QM1"}],
            "totals": {"put": got},
        }
        for got, p99 in ((10, 1.0), (20, None), (30, 3.0))
    ]
    runs[1]["queues"].insert(
        0, {"scope": "QM2", "queue": "A", "shared": False, "got": 7, "p99": 0.5}
    )
    combined = combine(runs)
    a = next(r for r in combined["queues"] if r["scope"] == "QM1")
    assert a["got"] == interval([10.0, 20.0, 30.0])
    assert a["p99"] == interval([1.0, 3.0])
    assert combined["totals"]["put"]["n"] == 3 and "leases" not in combined


def test_precision_is_reached_only_when_every_figure_is_within_it():
    close = combine([{"totals": {"put": v, "got": 5}} for v in (100, 101, 99)])
    assert precise(close, 0.05)
    assert not precise(close, 0.01)
    wide = combine([{"totals": {"put": 100, "got": v}} for v in (1, 9, 5)])
    assert not precise(wide, 0.05)


def test_a_figure_no_replication_has_does_not_hold_precision_back():
    # A structure that filled in no replication has no ``full_at`` in any (n = 0):
    # there is nothing to estimate, so --precision stops on the figures there are.
    rows = [
        {"qsg": "QSG1", "structure": "S1", "peak_percent_full": v, "full_at": None}
        for v in (10.0, 10.1, 9.9)
    ]
    combined = combine([{"totals": {"put": 100}, "structures": [r]} for r in rows])
    assert combined["structures"][0]["full_at"]["n"] == 0
    assert precise(combined, 0.05)


def _play_mm1(seed: int) -> tuple[dict[str, Any], str | None]:
    result = run_scenario(parse_scenario(MM1.format(duration=150, warmup=10)), seed=seed)
    return result.summary.to_json(), None


@keeps(
    "docs/capacity.md",
    "`tests/test_warmup_and_replications.py` runs 100 independent experiments of four",
)
@pytest.mark.slow
def test_replications_intervals_cover_the_exact_erlang_c_wait_about_95_percent_of_the_time():
    # 100 independent experiments, each 4 replications of a short M/M/1 (rho = 0.5,
    # Wq = 0.1 s): an exact 95% interval covers 95 of them (binomial sd 2.2); with the
    # normal's 1.96 instead of t(0.975, 3) = 3.18 it would cover about 85.
    exact = mmc_mean_wait(1, 5.0, 10.0)
    covered = 0
    for experiment in range(100):
        done = replicate(_play_mm1, 1000 + 4 * experiment, 4, workers=1)
        (row,) = [r for r in done.summary["queues"] if r["queue"] == "APP.WORK"]
        wait = row["latency_mean"]
        covered += abs(wait["mean"] - exact) <= wait["half_width"]
    assert 89 <= covered <= 100, covered


@keeps("README.md", "`--replications N` seeds with each figure as mean ± 95% half-width")
def test_qsg_run_replications_prints_each_figure_as_mean_half_width_and_n(tmp_path):
    path = tmp_path / "mm1.toml"
    path.write_text(MM1.format(duration=30, warmup=5))
    done = CliRunner().invoke(main, ["run", str(path), "--replications", "3", "--json"])
    assert done.exit_code == 0, done.output
    summary = json.loads(done.stdout)
    assert summary["replications"] == 3
    (row,) = [r for r in summary["queues"] if r["queue"] == "APP.WORK"]
    assert set(row["got"]) == {"mean", "half_width", "n"} and row["got"]["n"] == 3
    assert row["got"]["half_width"] > 0 and math.isfinite(row["latency_p99"]["mean"])


@keeps("docs/capacity.md", "stops as soon as every figure's half-width is within 5% of its mean")
def test_qsg_run_precision_stops_once_every_figure_is_precise_enough(tmp_path):
    path = tmp_path / "mm1.toml"
    # Constant arrivals and service: every seed gives the same figures, precise at once.
    text = MM1.format(duration=30, warmup=5).replace("rate = 5", 'rate = 5\narrival = "constant"')
    path.write_text(text.replace('{ dist = "exponential", mean = 0.1 }', "0.1"))
    done = CliRunner().invoke(
        main, ["run", str(path), "--replications", "40", "--precision", "0.5", "--json"]
    )
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["replications"] < 40


def test_precision_without_replications_is_one_line():
    done = CliRunner().invoke(main, ["run", "scenarios/mmc-erlang-c.toml", "--precision", "0.1"])
    assert done.exit_code == 2
    assert "--precision needs --replications N (the most to play)" in done.output


@keeps(
    "docs/capacity.md",
    "On a named server (`QSG_REDIS_URL`), each replication plays on a logical database of "
    "its own, its seed modulo 16, and at most 16 play at once",
)
def test_replications_on_a_named_server_each_play_on_a_database_of_their_own(tmp_path, monkeypatch):
    # A group's keys are named by the group alone: two replications at once on one
    # database deleted each other's queues (CI, a KeyError from the IGQ agent).
    import qsg.commands.replicate as replicate_module

    played: dict[int, str | None] = {}

    class Ran:
        summary = type("S", (), {"to_json": staticmethod(lambda: {})})()

        def failure(self) -> None:
            return None

    def run(loaded: Any, redis_url: str | None, seed: int) -> Ran:
        played[seed] = redis_url
        return Ran()

    monkeypatch.setattr(replicate_module, "run_scenario", run)
    monkeypatch.setattr(replicate_module, "refusals_line", lambda result: None)
    path = tmp_path / "s.toml"
    path.write_text(MM1.format(duration=10, warmup=0))
    for seed in range(5, 5 + 16):
        replicate_module.play_file(str(path), None, "redis://127.0.0.1:6400/0", seed)
    replicate_module.play_file(str(path), None, None, 99)
    urls = [played[seed] for seed in range(5, 5 + 16)]
    assert len(set(urls)) == 16
    assert all(url is not None and url.startswith("redis://127.0.0.1:6400/") for url in urls)
    assert played[5] == "redis://127.0.0.1:6400/5" and played[16] == "redis://127.0.0.1:6400/0"
    assert played[99] is None  # no server named: each starts its own
