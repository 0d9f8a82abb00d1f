"""The live console's view of the world: one JSON state, taken on demand, and the
stream of states the page reads (server-sent events).

The state holds both clocks (simulated seconds since the run began, real seconds since
the server started, and ``--speed``), each queue manager's state (running, paused,
killed) and QSG, the depth of every application queue (a QSG's shared queues once, as
the group's), each CF structure's fill, each channel's state, and the latest notable
events (faults, kills and restarts, channel states, CF failures, expiry-scan leases,
application errors). Depths are read through the queue managers' dispatchers as the
run's own depth samples are (``qsg.scenario.play``), so a paused member's queues are
simply not read until it is back.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import time
from collections import deque
from collections.abc import AsyncIterator
from functools import partial
from typing import Any

import trio

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
from qsg.core.errors import MQMIError
from qsg.scenario.play import application_queue

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
#: How often the stream sends a state (real seconds).
EVERY = 0.5


class Live:
    """The console's books: the notable events since the server started, and the
    real time it started at."""

    def __init__(self, world: World, speed: float, duration: float) -> None:
        self.world = world
        self.speed = speed
        self.duration = duration
        self.began = time.monotonic()
        self.start = trio.current_time()
        self.events: deque[dict[str, Any]] = deque(maxlen=_KEPT)
        world.events.listen(self._saw, *NOTABLE)

    def _saw(self, event: WorldEvent) -> None:
        record: dict[str, Any] = {"kind": event.kind}
        for each in dataclasses.fields(event):
            value = getattr(event, each.name)
            record[each.name] = value.hex() if isinstance(value, bytes) else value
        record["time"] = round(event.time - self.start, 3)
        self.events.append(record)

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
        return {
            "simulated": round(trio.current_time() - self.start, 3),
            "wall": round(time.monotonic() - self.began, 3),
            "speed": self.speed,
            "duration": self.duration,
            "qmgrs": qmgrs,
            "queues": queues,
            "structures": structures,
            "channels": channels,
            "events": list(self.events),
        }

    async def stream(self) -> AsyncIterator[str]:
        """Server-sent events: a state every ``EVERY`` real seconds."""
        while True:
            yield f"data: {json.dumps(await self.state(), default=str)}\n\n"
            await trio.sleep(EVERY * self.speed)  # trio's clock is the simulated one


def _structures(group: str, shared: Any, now: float) -> list[dict[str, Any]]:
    found = []
    for name in sorted(shared.structures):
        usage = shared.store.structure_usage(name)
        most = usage.get("max_entries") or 0
        fill = usage.get("entries", 0) / most if most else 0.0
        found.append(
            {
                "qsg": group,
                "name": name,
                "entries": usage.get("entries", 0),
                "max_entries": most,
                "fill": round(fill, 4),
            }
        )
    return found


__all__ = ["EVERY", "NOTABLE", "Live"]
