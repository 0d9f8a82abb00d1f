"""The commands a user runs: the demo and the engine benchmark (no timing asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return done.stdout


def test_the_demo_runs_and_shows_expiry_at_work() -> None:
    out = run("-m", "qsg.commands.demo")
    assert "MQFB_EXPIRATION" in out and "MQRC_EXPIRY_ERROR (2013)" in out
    assert "outer Expiry 175, MQXQH Expiry 175" in out


def test_the_engine_benchmark_prints_each_of_its_ratios() -> None:
    out = run("-m", "bench.engine", "--quick")  # as ./dev bench engine runs it
    assert "ratio engine / SimPy" in out and "ratio big / small depth" in out
    assert "ratio logical / FIFO" in out
