"""The intra-group queuing agent of a member's life: ``qsg.core.igq_agent``'s batches,
run in the queue manager's nursery.

IBM starts one IGQ agent with every member ("Getting started with intra-group
queuing": "always started at queue manager initialization", so inbound delivery works
whatever the member's IGQ attribute says). Here a member runs one in each life when its
group defines SYSTEM.QSG.TRANSMIT.QUEUE as the life starts (a world without IGQ runs no
agent at all). The agent delivers the messages for its member, a batch at a time, then
sleeps until something is put on the group's queue; messages for a member that is down
wait there for that member's own agent (no member delivers another's). A batch the
rules send into retry (the queue with the wrong attributes, GET(DISABLED), a persistent
message neither put nor dead-lettered) is tried again after IBM's fixed intervals: 10
times every 60 s, then every 1200 s. Its deliveries are ``delivered`` events and its
states ``channel-state`` events and its committed batches ``batch`` events (the
delivering member as their ``q_mgr``), all under the name SYSTEM.QSG.TRANSMIT.QUEUE.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Protocol, TypeVar

import trio

from actors import clock
from actors.events import ChannelBatch, ChannelDelivered, ChannelStateChanged, EventLog
from actors.signals import Signals
from qsg.core import igq
from qsg.core.igq_agent import Agent, Batch
from qsg.core.qmgr import QMgr

T = TypeVar("T")

#: How often an agent whose wake-ups may be missed looks again (seconds): under the
#: wall clock a put can land while it stands between its batch and its wait, and a
#: member in another process notifies nobody here.
_LOOK_AGAIN = 1.0


class AgentNetwork(Protocol):
    """What the agent uses of the world (``World``): the signals that wake it and the
    event stream."""

    @property
    def signals(self) -> Signals: ...
    @property
    def events(self) -> EventLog: ...


class AgentQueueManager(Protocol):
    """What the agent uses of its queue manager (``QueueManager``)."""

    @property
    def name(self) -> str: ...
    @property
    def rules(self) -> QMgr: ...
    @property
    def world(self) -> AgentNetwork: ...
    @property
    def alive(self) -> bool: ...
    @property
    def bridged(self) -> bool: ...

    async def dispatch(self, call: Callable[[float], T], *, system: bool = False) -> T: ...


def wanted(rules: QMgr) -> bool:
    """Whether a life of ``rules``' queue manager runs an IGQ agent: a member of a
    group that defines SYSTEM.QSG.TRANSMIT.QUEUE."""
    return rules.qsg is not None and igq.IGQ_XMITQ in rules.qsg.shared.queues


async def run_agent(qm: AgentQueueManager) -> None:
    """The agent of this life of ``qm``, until the life ends."""
    rules = qm.rules
    assert rules.qsg is not None  # ``wanted`` said so
    store = rules.qsg.shared.store
    agent = Agent(rules)
    attempt = 0
    _state(qm, "RUNNING", "CSQM050I Intra-group queuing agent starting")
    try:
        while True:
            batch = await qm.dispatch(agent.batch, system=True)
            _delivered(qm, batch)
            if batch.retry:
                attempt += 1
                wait = igq.retry_interval(attempt)
                if wait is None:
                    _state(
                        qm, "STOPPED", f"CSQM051I Intra-group queuing agent stopping: {batch.retry}"
                    )
                    return
                _state(qm, "RETRYING", batch.retry)
                await clock.sleep(wait)
                continue
            if attempt:
                attempt = 0
                _state(qm, "RUNNING", "")
            if not batch.full:
                now = trio.current_time()
                deadline = now + _LOOK_AGAIN if qm.bridged else math.inf
                await qm.world.signals.wait(store, igq.IGQ_XMITQ, deadline)
    finally:
        if qm.alive:  # stopped, not killed: a batch not committed goes back
            with trio.CancelScope(shield=True):
                await qm.dispatch(lambda now: agent.end(), system=True)


def _delivered(qm: AgentQueueManager, batch: Batch) -> None:
    now = trio.current_time()
    events, signals = qm.world.events, qm.world.signals
    for done in batch.delivered:
        events.emit(
            ChannelDelivered(
                now, qm.name, igq.IGQ_XMITQ, done.queue, done.msg_id, done.length, done.expiry
            )
        )
        signals.notify(done.store, done.queue)
    if batch.delivered:  # the batch, committed (no sequence number: IGQ keeps none)
        size = sum(done.length for done in batch.delivered)
        events.emit(ChannelBatch(now, qm.name, igq.IGQ_XMITQ, 0, len(batch.delivered), size))


def _state(qm: AgentQueueManager, state: str, detail: str) -> None:
    now = trio.current_time()
    qm.world.events.emit(ChannelStateChanged(now, qm.name, igq.IGQ_XMITQ, state, detail))


__all__ = ["AgentNetwork", "AgentQueueManager", "run_agent", "wanted"]
