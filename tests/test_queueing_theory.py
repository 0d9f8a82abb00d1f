"""Model validation: the simulator, through the Spark pipeline, against queueing theory.

A planner trusts the numbers when the simulator reproduces what theory knows exactly:
an M/M/c queue's mean wait (Erlang C) and an M/M/1 queue with impatience, the
impatience being the messages' Expiry (an expired message is discarded when a getter
reaches it, taking no service). Both scenarios are shipped (scenarios/mmc-erlang-c.toml,
scenarios/mm1-impatience.toml) and run in process, so their seeds repeat exactly.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from qsg.commands.cli import write_run
from qsg.commands.pipeline import metrics
from qsg.commands.pipeline.theory import erlang_c, mm1_abandonment, mmc_mean_wait
from qsg.scenario import load_scenario
from qsg.scenario.play import run_scenario
from tests.claims import keeps

SCENARIOS = Path(__file__).parent.parent / "scenarios"
TOLERANCE = 0.05


def test_erlang_c_gives_the_textbook_waits():
    assert mmc_mean_wait(1, 0.8, 1.0) == pytest.approx(4.0)  # M/M/1: rho / (mu - lambda)
    assert mmc_mean_wait(3, 2.4, 1.0) == pytest.approx(1.0787, abs=1e-4)
    assert erlang_c(1, 0.5, 1.0) == pytest.approx(0.5)  # M/M/1: P(wait) = rho


def test_erlang_c_refuses_an_unstable_queue():
    with pytest.raises(ValueError, match=r"unstable at utilisation 1\.000"):
        erlang_c(2, 2.0, 1.0)


def test_impatience_has_the_limits_theory_says():
    # No patience at all: an arrival leaves iff the server is busy (M/M/1/1): rho/(1+rho).
    assert mm1_abandonment(0.5, 1.0, 0.0) == pytest.approx(0.5 / 1.5)
    # Endless patience: none leaves a stable queue; 1 - 1/rho leave an overloaded one.
    assert mm1_abandonment(0.5, 1.0, 1e3) == pytest.approx(0.0, abs=1e-12)
    assert mm1_abandonment(1.25, 1.0, 1e3) == pytest.approx(1 - 1 / 1.25)
    # At rho = 1 the closed form's limit joins its neighbours.
    assert mm1_abandonment(1.0, 1.0, 2.0) == pytest.approx(
        mm1_abandonment(1.0001, 1.0, 2.0), rel=1e-3
    )


def _played(name: str, out: Path, spark: Any) -> dict[str, Any]:
    path = SCENARIOS / name
    write_run(out / "run", path, run_scenario(load_scenario(path)))
    tables = metrics.compute(metrics.Events.load(spark, out))
    return {name: tables[name].to_pylist() for name in ("runs", "latency", "expiry")}


@keeps(
    "docs/pipeline.md",
    "tests/test_queueing_theory.py runs both scenarios through the pipeline and holds "
    "them within 5%",
)
def test_an_mmc_queue_waits_as_long_as_erlang_c_says(spark, tmp_path):
    tables = _played("mmc-erlang-c.toml", tmp_path, spark)
    (row,) = [r for r in tables["latency"] if r["queue"] == "APP.WORK" and r["q_mgr"] == "*"]
    expected = mmc_mean_wait(3, 21.0, 10.0)
    assert row["messages"] > 160_000
    assert math.isclose(row["mean"], expected, rel_tol=TOLERANCE), (row["mean"], expected)


@keeps(
    "docs/pipeline.md",
    "tests/test_queueing_theory.py runs both scenarios through the pipeline and holds "
    "them within 5%",
)
def test_messages_expire_unserved_as_often_as_impatient_mm1_customers_abandon(spark, tmp_path):
    tables = _played("mm1-impatience.toml", tmp_path, spark)
    (run,) = tables["runs"]
    (expired,) = [r for r in tables["expiry"] if r["queue"] == "APP.WORK"]
    assert expired["by_get"] == expired["discarded"]  # no scan: the getter's MQGETs did it
    fraction = expired["discarded"] / run["put"]
    expected = mm1_abandonment(12.5, 10.0, 0.5)
    assert run["put"] > 45_000
    assert math.isclose(fraction, expected, rel_tol=TOLERANCE), (fraction, expected)
