"""``qsg serve`` under a bounded load on 127.0.0.1 (bench/rest_load.py's, smaller):
concurrent clients put and get over HTTP through two members of a QSG, and every
message put is got exactly once."""

from __future__ import annotations

from pathlib import Path

from bench.rest_load import SCENARIO, rest_load
from tests.serving import serving


def test_concurrent_rest_puts_and_gets_lose_and_duplicate_nothing(tmp_path: Path) -> None:
    scenario = tmp_path / "load.toml"
    scenario.write_text(SCENARIO)
    with serving(scenario) as server:
        figures = rest_load(server.url, clients=4, messages=25)
    assert len(figures.put_bodies) == 100
    assert figures.lost == set()
    assert figures.duplicated == []
    assert sorted(figures.got_bodies) == sorted(figures.put_bodies)
