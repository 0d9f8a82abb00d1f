"""The live console's view of the world: one JSON state, taken on demand, and the
stream of states the page reads (server-sent events).

The state holds both clocks (simulated seconds since the run began, real seconds since
the server started, and ``--speed``), each queue manager's state (running, paused,
killed) and QSG, the depth of every application queue (a QSG's shared queues once, as
the group's), each CF structure's fill and time to full, each channel's state, the
scenario's fault schedule (the faults to come, and those done with what the world made
of them), and the latest notable events (faults, kills and restarts, channel states, CF
failures, expiry-scan leases, application errors). Depths are read through the queue
managers' dispatchers as the run's own depth samples are (``qsg.scenario.play``), so a
paused member's queues are simply not read until it is back.

A structure's time to full is the run summary's (``qsg.scenario.sizing.projection``):
the least-squares trend of its percent full over the samples the console took (one a
simulated second at most, the last ``_SAMPLES``), projected from the last, and given
only where it fills within as long again as those samples span. A fault, a kill or a
restart is pushed to the page as it happens, not at the next half second.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import time
from collections import deque
from collections.abc import AsyncIterator, Sequence
from functools import partial
from typing import Any

import trio

from actors.config import UNDO, Fault
from actors.events import (
    ApplicationError,
    CFFailed,
    ChannelStateChanged,
    FaultInjected,
    LeaseChanged,
    QMgrKilled,
    QMgrRestarted,
    WorldEvent,
)
from actors.world import World
from qsg.core import geometry
from qsg.core.errors import MQMIError
from qsg.scenario.play import application_queue
from qsg.scenario.sizing import projection

#: The events the console lists, newest last, at most ``_KEPT`` of them.
NOTABLE = (
    FaultInjected,
    QMgrKilled,
    QMgrRestarted,
    ChannelStateChanged,
    CFFailed,
    LeaseChanged,
    ApplicationError,
)
_KEPT = 50
#: How often the stream sends a state (real seconds), and at once on these events.
EVERY = 0.5
PUSHED = (FaultInjected, QMgrKilled, QMgrRestarted, CFFailed)
#: The fill samples kept per structure for its time to full, one a simulated second at most.
_SAMPLES = 240
#: The faults to come and those done that the state lists, at most.
_SCHEDULE_SHOWN = 50


class Live:
    """The console's books: the notable events since the server started, and the
    real time it started at."""

    def __init__(
        self, world: World, speed: float, duration: float, faults: Sequence[Fault] = ()
    ) -> None:
        self.world = world
        self.speed = speed
        self.duration = duration
        self.began = time.monotonic()
        self.start = trio.current_time()
        self.events: deque[dict[str, Any]] = deque(maxlen=_KEPT)
        #: The scenario's faults and their undoings, by time: what is still to come.
        self.schedule = schedule(faults)
        #: The faults done (FaultInjected), newest last.
        self.done: deque[dict[str, Any]] = deque(maxlen=_SCHEDULE_SHOWN)
        self.trend = FillTrend()
        self._news = trio.Event()
        world.events.listen(self._saw, *NOTABLE)

    def _saw(self, event: WorldEvent) -> None:
        record: dict[str, Any] = {"kind": event.kind}
        for each in dataclasses.fields(event):
            value = getattr(event, each.name)
            record[each.name] = value.hex() if isinstance(value, bytes) else value
        record["time"] = round(event.time - self.start, 3)
        self.events.append(record)
        if isinstance(event, FaultInjected):
            self.done.append(
                {
                    "time": record["time"],
                    "action": event.action,
                    "target": event.target,
                    "refused": event.refused,
                    "detail": event.detail,
                }
            )
        if isinstance(event, PUSHED):
            self._news.set()

    async def state(self) -> dict[str, Any]:
        """The world now."""
        world = self.world
        qmgrs = []
        for name, qm in sorted(world.qmgrs.items()):
            if not qm.alive:
                state = "killed"
            elif qm.paused is not None:
                state = "paused"
            else:
                state = "running"
            qmgrs.append({"name": name, "state": state, "qsg": qm.rules.qsg_name or ""})
        queues: list[dict[str, Any]] = []
        structures: list[dict[str, Any]] = []
        channels: list[dict[str, Any]] = []
        seen_groups: set[str] = set()
        for name, qm in sorted(world.qmgrs.items()):
            for channel, definition in sorted(qm.rules.local.channels.items()):
                view = world.channel_board.view(name, definition)
                channels.append(
                    {"qmgr": name, "name": channel, "state": view.status, "messages": view.messages}
                )
            if not qm.alive or qm.paused is not None:
                continue
            repos = [(name, qm.rules.local, False)]
            group = qm.rules.qsg
            if group is not None and group.name not in seen_groups:
                seen_groups.add(group.name)
                repos.append((group.name, group.shared, True))
                # The coupling facility unreachable now: no fill shown this time.
                with contextlib.suppress(MQMIError):
                    structures += await qm.dispatch(
                        partial(_structures, group.name, group.shared), system=True
                    )
            for owner, repo, shared in repos:
                names = sorted(n for n in repo.status if application_queue(n))

                def depths(now: float, repo: Any = repo, names: list[str] = names) -> list[int]:
                    return [repo.store.depth(n) for n in names]

                try:
                    found = await qm.dispatch(depths, system=True)
                except MQMIError:  # the coupling facility is unreachable now
                    continue
                for queue, depth in zip(names, found, strict=True):
                    maxdepth = getattr(repo.queues.get(queue), "max_depth", None)
                    queues.append(
                        {
                            "owner": owner,
                            "name": queue,
                            "shared": shared,
                            "depth": depth,
                            "maxdepth": maxdepth,
                        }
                    )
        now = round(trio.current_time() - self.start, 3)
        for structure in structures:
            key = (structure["qsg"], structure["name"])
            structure.update(self.trend.seen(key, now, structure["percent_full"]))
        return {
            "simulated": now,
            "wall": round(time.monotonic() - self.began, 3),
            "speed": self.speed,
            "duration": self.duration,
            "qmgrs": qmgrs,
            "queues": queues,
            "structures": structures,
            "channels": channels,
            "faults": {
                "upcoming": [f for f in self.schedule if f["time"] > now][:_SCHEDULE_SHOWN],
                "past": list(self.done),
            },
            "events": list(self.events),
        }

    async def stream(self) -> AsyncIterator[str]:
        """Server-sent events: a state every ``EVERY`` real seconds, and one at once
        when a fault, a kill, a restart or a CF failure happens."""
        while True:
            yield f"data: {json.dumps(await self.state(), default=str)}\n\n"
            news = self._news
            with trio.move_on_after(EVERY * self.speed):  # trio's clock is the simulated one
                await news.wait()
            if news.is_set() and news is self._news:
                self._news = trio.Event()  # the next one pushes again


class FillTrend:
    """Each structure's fill samples (simulated seconds, percent full), one a simulated
    second at most and the last ``_SAMPLES``, and the trend they give."""

    def __init__(self) -> None:
        self.samples: dict[tuple[str, str], deque[tuple[float, float]]] = {}

    def seen(self, key: tuple[str, str], now: float, percent: float) -> dict[str, Any]:
        """The structure ``key`` ``percent`` full at ``now``: its fill rate (percent a
        second) and time to full (simulated seconds; None: not filling within the
        horizon), and when it was full if it filled, as ``sizing.projection`` gives
        them from the samples so far and this one."""
        kept = self.samples.setdefault(key, deque(maxlen=_SAMPLES))
        if not kept or now - kept[-1][0] >= 1.0:
            kept.append((now, percent))
        ahead = projection([t for t, _ in kept], [p for _, p in kept])
        return {
            "fill_rate": None if ahead.fill_rate is None else round(ahead.fill_rate, 6),
            "time_to_full": None if ahead.time_to_full is None else round(ahead.time_to_full, 1),
            "full_at": ahead.full_at,
        }


def schedule(faults: Sequence[Fault]) -> list[dict[str, Any]]:
    """The scenario's faults and, for one with a ``duration``, its undoing, by time:
    ``{"time", "action", "target"}`` (the target a queue manager, a channel, a
    structure, or ``CF``)."""
    out = []
    for fault in faults:
        target = fault.qmgr or fault.channel or fault.structure or "CF"
        out.append({"time": fault.at, "action": fault.action, "target": target})
        if fault.duration is not None and fault.action in UNDO:
            out.append(
                {"time": fault.at + fault.duration, "action": UNDO[fault.action], "target": target}
            )
    return sorted(out, key=lambda f: f["time"])


def _structures(group: str, shared: Any, now: float) -> list[dict[str, Any]]:
    found = []
    for name in sorted(shared.structures):
        usage = shared.store.structure_usage(name)
        most = usage.get("max_entries") or 0
        fill = usage.get("entries", 0) / most if most else 0.0
        percent = geometry.percent_full(
            usage.get("entries", 0),
            usage.get("elements", 0),
            most,
            usage.get("max_elements") or 0,
        )
        found.append(
            {
                "qsg": group,
                "name": name,
                "entries": usage.get("entries", 0),
                "max_entries": most,
                "fill": round(fill, 4),
                "percent_full": round(percent, 4),
            }
        )
    return found


__all__ = ["EVERY", "NOTABLE", "PUSHED", "FillTrend", "Live", "schedule"]
