"""The intra-group queuing agent of a member's life: ``qsg.core.igq_agent``'s batches,
run in the queue manager's nursery.

IBM starts one IGQ agent with every member ("Getting started with intra-group
queuing": "always started at queue manager initialization", so inbound delivery works
whatever the member's IGQ attribute says). Here a member runs one in each life when its
group defines SYSTEM.QSG.TRANSMIT.QUEUE as the life starts (a world without IGQ runs no
agent at all). The agent delivers the messages for its member, a batch at a time, then
rests until something is put on the group's queue (as a function the queue's next
notification calls, not as a parked task: ``_arm``); messages for a member that is down
wait there for that member's own agent (no member delivers another's). A batch the
rules send into retry (the queue with the wrong attributes, GET(DISABLED), a persistent
message neither put nor dead-lettered) is tried again after IBM's fixed intervals: 10
times every 60 s, then every 1200 s. Its deliveries are ``delivered`` events and its
states ``channel-state`` events and its committed batches ``batch`` events (the
delivering member as their ``q_mgr``), all under the name SYSTEM.QSG.TRANSMIT.QUEUE.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

import trio

from actors import clock, wire
from actors.events import ChannelBatch, ChannelDelivered, ChannelStateChanged, EventLog
from actors.reach import CALLER
from actors.signals import Signals
from qsg.core import igq
from qsg.core.errors import QSGError
from qsg.core.igq_agent import Agent, Batch
from qsg.core.qmgr import QMgr
from qsg.core.store import MessageStore

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


def start(qm: AgentQueueManager, nursery: trio.Nursery) -> None:
    """Start the agent of this life of ``qm`` (``wanted`` said it runs one) in its
    ``nursery``."""
    _state(qm, "RUNNING", "CSQM050I Intra-group queuing agent starting")
    _arm(qm, nursery, Agent(qm.rules))


def _arm(qm: AgentQueueManager, nursery: trio.Nursery, agent: Agent, *, look: bool = True) -> None:
    """Run the agent's batches as a task when there may be work: at once if the group's
    queue holds anything, else at the first notification that leaves something there.
    An idle agent is no task, not even a parked one: every commit on the group's
    structures notifies its queue, and a task woken then (to find nothing) is one more
    in the run queue's shuffled batch of that instant, which reorders the ties of
    everything else in a run that never uses intra-group queuing. A member bridged to
    others (whose puts notify nobody here) runs it as a task throughout. An agent whose
    batch just found nothing for it does not ``look``: what is left there is for other
    members, and would start it again at once, for ever."""
    rules = qm.rules
    assert rules.qsg is not None  # ``wanted`` said so
    store = rules.qsg.shared.store
    if qm.bridged or (look and not _surely_empty(qm.name, store)):
        nursery.start_soon(run_agent, qm, nursery, agent)
        return
    incarnation = rules.incarnation

    def notified() -> None:
        if qm.alive and qm.rules.incarnation == incarnation:  # the same life
            _arm(qm, nursery, agent)

    qm.world.signals.on_notify(store, igq.IGQ_XMITQ, notified)


def _surely_empty(member: str, store: MessageStore) -> bool:
    """Whether the group's queue holds nothing (its depth counts uncommitted puts; a
    get backed out notifies), asked as ``member`` (``CALLER``): a member that cannot
    reach the facility is refused in process as on a server. A store that cannot say
    (the facility unreachable or failed, the queue's structure lost) leaves it to a
    batch, which meets the failure as it always did."""
    caller = CALLER.set(member)
    try:
        return store.depth(igq.IGQ_XMITQ) == 0
    except (QSGError, KeyError):
        return False
    finally:
        CALLER.reset(caller)


async def run_agent(qm: AgentQueueManager, nursery: trio.Nursery, agent: Agent) -> None:
    """``agent``'s batches, until one leaves nothing more to do (then it waits as
    ``_arm`` says, its connection kept) or the life ends."""
    rules = qm.rules
    assert rules.qsg is not None  # ``wanted`` said so
    store = rules.qsg.shared.store
    attempt = 0
    idle = False
    try:
        while True:
            batch = await qm.dispatch(agent.batch, system=True)
            _delivered(qm, batch)
            if batch.retry:
                if batch.refused:  # "an error message is issued", as a channel's agent does
                    wire.log.error("%s: %s", qm.name, batch.retry)
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
                if not qm.bridged:
                    idle = True
                    _arm(qm, nursery, agent, look=False)  # a task again at the next put
                    return
                now = trio.current_time()
                await qm.world.signals.wait(store, igq.IGQ_XMITQ, now + _LOOK_AGAIN)
    finally:
        if qm.alive and not idle:  # stopped, not killed: a batch not committed goes back
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


__all__ = ["AgentNetwork", "AgentQueueManager", "run_agent", "start", "wanted"]
