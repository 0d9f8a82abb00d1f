"""Load shapes: a workload's rate as a profile, a file or a burst, and arrivals that follow it.

The rule (docs/scenarios.md, "Load shapes"): the rate at t simulated seconds into the
run is the profile's (held to the next point for "step", interpolated for "linear", the
last held to the end), times a burst's factor inside the burst; Poisson arrivals are a
non-homogeneous Poisson process of that rate (thinning), constant and uniform arrivals
the homogeneous process in operational time. Validated against theory: counts per
interval are the integral of the rate, and an M(t)/M/c queue whose rate steps up
settles at the new rate's Erlang C wait.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from actors.arrivals import Burst, RateProfile, gap
from actors.events import MessageGot, MessagePut
from qsg.commands.pipeline.theory import mmc_mean_wait
from qsg.scenario import ScenarioError, load_scenario, parse_scenario
from qsg.scenario.play import run_scenario
from tests.claims import keeps

DAY = RateProfile(
    (0.0, 100.0, 200.0, 300.0), (2.0, 10.0, 0.0, 5.0), "linear", Burst(250.0, 20.0, 4.0)
)


def test_a_step_profile_holds_each_rate_until_the_next_point():
    step = RateProfile((0.0, 10.0), (3.0, 7.0))
    assert [step.rate_at(t) for t in (0, 9.99, 10, 1e9)] == [3.0, 3.0, 7.0, 7.0]


def test_a_linear_profile_interpolates_and_a_burst_multiplies():
    assert DAY.rate_at(50) == pytest.approx(6.0)
    assert DAY.rate_at(260) == pytest.approx(4 * 3.0)  # 0 -> 5 over 200..300, times 4
    assert DAY.rate_at(270) == pytest.approx(3.5)  # the burst is over
    assert DAY.rate_at(5000) == 5.0
    assert DAY.peak() == pytest.approx(4 * 3.5)  # approached as the burst ends


def test_the_expected_count_is_the_integral_of_the_rate():
    # 0..100: 2 -> 10 (600); 100..200: 10 -> 0 (500); 200..250: 0 -> 2.5 (62.5);
    # the burst 250..270: 2.5 -> 3.5 times 4 (240); 270..300: 3.5 -> 5 (127.5).
    assert DAY.expected(0, 300) == pytest.approx(600 + 500 + 62.5 + 240 + 127.5)
    assert DAY.expected(300, 400) == pytest.approx(500)


def _arrivals(profile: RateProfile, arrival: str, end: float, seed: int = 7) -> list[float]:
    rng, now, out = random.Random(seed), 0.0, []
    while True:
        now += gap(profile, arrival, now, rng)
        if now >= end:
            return out
        out.append(now)


@keeps(
    "docs/capacity.md",
    "a non-homogeneous Poisson process, by thinning (Lewis and Shedler 1979)",
)
@pytest.mark.parametrize("shape", ["step", "linear"])
def test_poisson_arrivals_per_interval_match_the_profile(shape: str):
    profile = RateProfile(DAY.times, DAY.rates, shape, DAY.burst)
    times = _arrivals(profile, "poisson", 400)
    for repetition in range(1, 30):  # 30 independent days, counted per 10 s
        times += [t + 400 * repetition for t in _arrivals(profile, "poisson", 400, repetition)]
    for start in range(0, 400, 10):
        expected = 30 * profile.expected(start, start + 10)
        got = sum(1 for t in times if start <= t % 400 < start + 10)
        # A Poisson count: within 4.5 standard deviations (a false alarm about 1 in 10^5).
        assert abs(got - expected) <= 4.5 * math.sqrt(expected) + 1, (start, got, expected)


@keeps("docs/capacity.md", "the next message when ∫λ since the last reaches 1")
def test_constant_arrivals_at_a_varying_rate_come_one_per_unit_of_expected_count():
    times = _arrivals(DAY, "constant", 400)
    for start in range(0, 400, 10):
        got = sum(1 for t in times if start <= t < start + 10)
        assert abs(got - DAY.expected(start, start + 10)) <= 1, start
    assert len(times) == math.floor(DAY.expected(0, 400))


@keeps(
    "docs/capacity.md",
    "the next message when ∫λ since the last reaches a draw uniform on [0, 2]",
)
def test_uniform_arrivals_at_a_varying_rate_average_the_profile():
    times = _arrivals(DAY, "uniform", 20_000)
    assert len(times) == pytest.approx(DAY.expected(0, 20_000), rel=0.02)


def test_a_rate_that_falls_to_zero_for_good_puts_no_more():
    ends = RateProfile((0.0, 5.0), (1.0, 0.0))
    for arrival in ("poisson", "constant", "uniform"):
        assert gap(ends, arrival, 6.0, random.Random(1)) == math.inf


SCENARIO = """\
[run]
duration = 100
in_process = true

[qmgr.QM1]
mqsc = "DEFINE QLOCAL(APP.WORK)"

[[workload]]
type = "putter"
qmgr = "QM1"
queue = "APP.WORK"
{rate}
"""


@keeps("README.md", "load that follows the day (a rate profile, a CSV of hourly rates, bursts)")
def test_a_profile_and_a_burst_are_read_from_the_scenario():
    text = SCENARIO.format(
        rate='rate = { profile = [[0, 2], [50, 8]], shape = "linear" }\n'
        "burst = { at = 10, for = 5, factor = 3 }"
    )
    (w,) = parse_scenario(text).workloads
    assert w.profile == RateProfile((0.0, 50.0), (2.0, 8.0), "linear", Burst(10.0, 5.0, 3.0))
    assert w.rate == pytest.approx(3 * 3.8)  # the peak: the burst, as it ends at 15 s


def test_a_burst_on_a_constant_rate_is_a_profile():
    (w,) = parse_scenario(
        SCENARIO.format(rate="rate = 4\nburst = { at = 1, for = 2, factor = 5 }")
    ).workloads
    assert w.profile is not None and w.profile.rate_at(2) == 20 and w.profile.rate_at(3) == 4


@pytest.mark.parametrize(
    ("rate", "expected"),
    [
        (
            "rate = { profile = [[5, 2]] }",
            ":12: workload[0].rate.profile[0]: the first point must be at time 0, found 5",
        ),
        (
            "rate = { profile = [[0, 2], [10, 3], [10, 4]] }",
            ":12: workload[0].rate.profile[2]: times must increase: 10 after 10",
        ),
        (
            "rate = { profile = [[0, 2], [10, -3]] }",
            ":12: workload[0].rate.profile[1]: a rate must be at least 0, found -3",
        ),
        (
            "rate = { profile = [[0, 0]] }",
            ":12: workload[0].rate.profile[0]: every rate is 0: the workload would put nothing",
        ),
        (
            'rate = { profile = [[0, "x"]] }',
            ":12: workload[0].rate.profile[0]: expected [time, rate], two finite numbers, "
            "found array [0, 'x']",
        ),
        (
            'rate = { profile = [[0, 1]], shape = "smooth" }',
            ":12: workload[0].rate.shape: must be one of 'step', 'linear', found 'smooth'",
        ),
        (
            'rate = { profile = [[0, 1]], file = "d.csv" }',
            ":12: workload[0].rate: give one of 'profile' (an array of [time, rate]) or 'file'",
        ),
        (
            "rate = 3\nburst = { at = 1, for = 0, factor = 2 }",
            ":13: workload[0].burst.for: must be above 0, found 0",
        ),
        (
            "rate = 3\nburst = { at = 1, factor = 2 }",
            ":13: workload[0].burst: missing key 'for' (a number)",
        ),
    ],
)
def test_a_bad_profile_is_named_by_file_line_and_key(rate: str, expected: str, tmp_path: Path):
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO.format(rate=rate))
    with pytest.raises(ScenarioError) as raised:
        load_scenario(path)
    assert str(raised.value).startswith(f"{path}{expected}"), str(raised.value)


def test_a_rate_file_is_read_with_its_header_and_comments(tmp_path: Path):
    (tmp_path / "day.csv").write_text("# hourly, from SMF 116\ntime,rate\n0,20\n3600,120\n")
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO.format(rate='rate = { file = "day.csv" }'))
    (w,) = load_scenario(path).workloads
    assert w.profile == RateProfile((0.0, 3600.0), (20.0, 120.0), "step")


@keeps("docs/capacity.md", "A bad line is reported at the CSV file's own line")
def test_a_bad_line_of_a_rate_file_is_named_by_the_files_own_line(tmp_path: Path):
    (tmp_path / "day.csv").write_text("time,rate\n0,20\n3600,lots\n")
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO.format(rate='rate = { file = "day.csv" }'))
    with pytest.raises(
        ScenarioError,
        match=r"day\.csv:3: rate 'lots' is not a number$",
    ):
        load_scenario(path)


def test_a_missing_rate_file_is_one_problem(tmp_path: Path):
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO.format(rate='rate = { file = "none.csv" }'))
    with pytest.raises(ScenarioError, match=r"none\.csv:1: cannot read: "):
        load_scenario(path)


STEP = """\
[run]
duration = {duration}
seed = {seed}
in_process = true
sample_interval = 100

[qmgr.QM1]
mqsc = "DEFINE QLOCAL(APP.WORK) MAXDEPTH(100000)"

[[workload]]
type = "putter"
qmgr = "QM1"
queue = "APP.WORK"
rate = {{ profile = [[0, 12], [{step}, 21]] }}

[[workload]]
type = "getter"
qmgr = "QM1"
queue = "APP.WORK"
apps = 3
service = {{ dist = "exponential", mean = 0.1 }}
"""


@keeps("docs/capacity.md", "an M(t)/M/3 queue whose rate")
@pytest.mark.slow
def test_an_mtmc_queue_reaches_the_new_erlang_c_wait_after_a_step_in_rate():
    # M(t)/M/3, mu = 10: the rate steps from 12 (rho 0.4) to 21 (rho 0.7) at 200 s. After
    # a transient of 100 s (the queue's relaxation time at rho 0.7 is a few seconds), the
    # mean wait is Erlang C's at 21, within 7% (about 60,000 messages); before the step,
    # Erlang C's at 12.
    step, settle, duration = 200, 100, 3200
    result = run_scenario(parse_scenario(STEP.format(duration=duration, seed=3, step=step)))
    put = {e.msg_id: e.time for e in result.events if isinstance(e, MessagePut)}
    waits = [
        (put[e.msg_id], e.time - put[e.msg_id])
        for e in result.events
        if isinstance(e, MessageGot) and not e.browse
    ]
    before = [w for t, w in waits if 20 <= t < step]
    after = [w for t, w in waits if step + settle <= t < duration - 10]
    assert len(after) > 55_000
    assert sum(after) / len(after) == pytest.approx(mmc_mean_wait(3, 21.0, 10.0), rel=0.07)
    assert sum(before) / len(before) < mmc_mean_wait(3, 21.0, 10.0) / 3
    assert sum(before) / len(before) == pytest.approx(mmc_mean_wait(3, 12.0, 10.0), rel=0.5)
