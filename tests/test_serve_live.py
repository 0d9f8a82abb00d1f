"""The live console's books without a browser: a structure's time to full from the
fill samples (the run summary's projection), the fault schedule, and a fault pushed to
the page as it happens."""

from __future__ import annotations

import time
from typing import Any

import pytest
import trio

from actors.config import Fault
from actors.events import FaultInjected
from qsg.commands.serve.live import EVERY, FillTrend, Live, schedule
from tests.claims import keeps


@keeps("docs/rest.md", "A structure's time to full is the run summary's")
def test_a_structure_filling_steadily_has_the_time_its_trend_takes_to_reach_100() -> None:
    trend = FillTrend()
    seen: dict[str, Any] = {}
    for second in range(0, 31):
        seen = trend.seen(("QSG1", "APP1"), float(second), 2.0 * second)  # 2% a second
    assert seen["fill_rate"] == pytest.approx(2.0)
    assert seen["time_to_full"] == pytest.approx(20.0)  # 60% now, 40% to go at 2%/s


@keeps(
    "docs/rest.md",
    "shown only where the trend fills it within as long again as the samples span",
)
def test_a_structure_not_filling_or_too_slowly_has_no_time_to_full() -> None:
    trend = FillTrend()
    for second in range(0, 11):
        flat = trend.seen(("QSG1", "FLAT"), float(second), 5.0)
        slow = trend.seen(("QSG1", "SLOW"), float(second), 0.1 * second)
    assert flat["time_to_full"] is None
    assert slow["time_to_full"] is None  # 999 s to go, seen for 10 s: beyond the horizon


@keeps("docs/rest.md", "(one a simulated second, the last 240)")
def test_samples_are_one_a_simulated_second_at_most() -> None:
    trend = FillTrend()
    for tenth in range(0, 50):
        trend.seen(("QSG1", "APP1"), tenth / 10, 1.0)
    assert len(trend.samples[("QSG1", "APP1")]) == 5
    for second in range(5, 400):
        trend.seen(("QSG1", "APP1"), float(second), 1.0)
    assert len(trend.samples[("QSG1", "APP1")]) == 240


def test_the_schedule_lists_each_fault_and_the_undoing_its_duration_brings() -> None:
    faults = [
        Fault(at=120, action="kill", qmgr="QM2", duration=60),
        Fault(at=10, action="structure_fail", structure="APP1"),
        Fault(at=50, action="cf_fail"),
    ]
    assert schedule(faults) == [
        {"time": 10, "action": "structure_fail", "target": "APP1"},
        {"time": 50, "action": "cf_fail", "target": "CF"},
        {"time": 120, "action": "kill", "target": "QM2"},
        {"time": 180, "action": "restart", "target": "QM2"},
    ]


class _Events:
    def __init__(self) -> None:
        self.heard: list[Any] = []

    def listen(self, callback: Any, *kinds: type) -> None:
        self.heard.append(callback)


class _World:
    def __init__(self) -> None:
        self.events = _Events()
        self.qmgrs: dict[str, Any] = {}


@keeps("docs/rest.md", "a fault, a kill, a restart or a CF failure is pushed as it happens")
async def test_a_fault_is_pushed_to_the_page_at_once_not_at_the_next_tick() -> None:
    world = _World()
    live = Live(world, speed=100.0, duration=3600, faults=[Fault(at=5, action="cf_fail")])  # type: ignore[arg-type]
    stream = live.stream()
    first = await stream.__anext__()
    assert '"upcoming": [{"time": 5' in first
    began = time.monotonic()
    async with trio.open_nursery() as nursery:

        async def fault() -> None:
            await trio.sleep(0.05)
            for heard in world.events.heard:
                heard(FaultInjected(trio.current_time(), "", "cf_fail", "CF"))

        nursery.start_soon(fault)
        second = await stream.__anext__()
    assert time.monotonic() - began < EVERY * 100 / 10  # long before the next tick
    assert '"action": "cf_fail", "target": "CF", "refused": false' in second
    await stream.aclose()
