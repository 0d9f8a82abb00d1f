"""Per-class figures: each application's own messages on a queue several share.

Applications of several classes (message size, priority, persistence, the getters'
service time) share one queue; the queue's row pools them. Here each workload gets a
row of its own per queue it used, in the role it had there:

- ``put``: the messages it put (each message's first MQPUT, by its connection's
  user: the workload's name), their mean size and persistent fraction, and the
  latency from that put to the message's MQGET by anyone: what its class of message
  waits;
- ``get``: the messages it got (browses not counted), their mean size and persistent
  fraction, and their latency from their first MQPUT: what its getters served.

A warm-up counts as in the summary: puts and gets from ``since`` on, and a latency
only for a message put from ``since`` on.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from actors.events import MessageGot, MessagePut, WorldEvent


@dataclass(slots=True)
class Class:
    """One class's messages on one queue: how many, their bytes, how many persistent,
    and their latencies (first MQPUT to MQGET)."""

    messages: int = 0
    bytes: int = 0
    persistent: int = 0
    latencies: list[float] = field(default_factory=list)

    def count(self, size: int, persistent: bool) -> None:
        self.messages += 1
        self.bytes += size
        self.persistent += persistent


Key = tuple[str, str, str, str]  # role, workload, scope, queue


def tally(
    events: Iterable[WorldEvent],
    scope: Mapping[tuple[str, str], str],
    since: float = -math.inf,
) -> dict[Key, Class]:
    """Each class's messages and latencies (``scope[q_mgr, queue]``: a queue's scope),
    in the order to show them: by queue, its putters before its getters."""
    classes: dict[Key, Class] = defaultdict(Class)
    put_by: dict[bytes, tuple[float, Key | None]] = {}
    for e in events:
        if isinstance(e, MessagePut):
            if e.msg_id in put_by:  # not its first MQPUT (a backed-out one put again)
                continue
            key = ("put", e.app, scope[e.q_mgr, e.queue], e.queue) if e.app else None
            put_by[e.msg_id] = (e.time, key)
            if key is not None and e.time >= since:
                put = classes[key]  # ``Class.count``, inline: this runs for every message
                put.messages += 1
                put.bytes += e.size
                put.persistent += e.persistent
        elif isinstance(e, MessageGot) and not e.browse and e.time >= since:
            began, putter = put_by.get(e.msg_id, (None, None))
            waited = None if began is None or began < since else e.time - began
            if e.app:
                got = classes[("get", e.app, scope[e.q_mgr, e.queue], e.queue)]
                got.messages += 1
                got.bytes += e.size
                got.persistent += e.persistent
                if waited is not None:
                    got.latencies.append(waited)
            if putter is not None and waited is not None:
                classes[putter].latencies.append(waited)
    order = sorted(classes, key=lambda k: (k[2], k[3], k[0] != "put", k[1]))
    return {k: classes[k] for k in order}


def shared_by_several(rows: list[dict[str, Any]]) -> bool:
    """Whether some queue has several workloads in one role (several classes)."""
    seen: dict[tuple[str, str, str], int] = defaultdict(int)
    for r in rows:
        seen[(r["scope"], r["queue"], r["role"])] += 1
    return any(n > 1 for n in seen.values())


__all__ = ["Class", "Key", "shared_by_several", "tally"]
