"""What a chaos run's history says happened to each message a client put.

The history (``OpInvoked``/``OpCompleted`` events, with the run's other events) is read
once, in order, into a ``Message`` per MsgId a client chose. A put's fate is "ok" (it is
acknowledged: put outside syncpoint, or its unit of work committed), "unknown" (the put
or its commit was cut off by a fault), or "failed" (MQ refused it, or its unit of work
was backed out or abandoned after a fault: it can never become visible). A delivery is
"final" when the get was outside syncpoint or its unit of work committed, "maybe" when
that commit's outcome is unknown; a get whose unit of work was backed out returned the
message to its queue. A run's final state (``actors.history.FinalState``: what the queues
held at the end, read without MQGET) says which messages were still on a queue then
(``Message.on_queue``): those are not lost. The checkers (``qsg.chaos.checkers``) judge
these facts.

A message's persistence is the one the queue manager resolved: a put with
MQPER_PERSISTENCE_AS_Q_DEF takes its queue's DEFPSIST, which the put's ``MessagePut``
event carries. (A pymqi program's put whose MsgId the queue manager made is recorded
once the put has returned it: its ``MessagePut`` comes first, and is kept until then.)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from actors.config import Fault
from actors.events import (
    CFRecovered,
    ChannelDelivered,
    ExpiredInTransit,
    MessagePut,
    OpCompleted,
    OpInvoked,
    WorldEvent,
)
from actors.history import FinalState
from actors.workload import LOST  # after these an application abandons its unit of work
from qsg.core.events import DeadLettered, Discarded, ReportPut, TriggerMessagePut
from qsg.scenario.model import Scenario
from qsg.scenario.play import RunResult
from qsg.scenario.summary import Scopes


@dataclass(frozen=True, slots=True)
class Delivery:
    """A get that returned the message: when, to whom, with what remaining Expiry.
    ``invoked`` is when the get began: the get happened between it and ``time`` (on a
    wall clock the two differ), so what must hold for certain is judged at ``invoked``.
    ``order`` is the get's place in the history: on the virtual clock a get backed out
    and the get that takes the message again may share one ``time``, never one place."""

    time: float
    app: str
    q_mgr: str
    queue: str
    expiry: int
    group_id: bytes
    seq: int
    invoked: float
    order: int = 0


@dataclass(slots=True)
class Message:
    """One MsgId a client put, and everything the history says of it."""

    msg_id: bytes
    app: str
    q_mgr: str
    queue: str
    invoked: float
    persistent: bool
    expiry: int
    report: int
    fate: str = "pending"  # then "ok", "unknown" or "failed"
    put_time: float | None = None  # when the queue manager put it (MessagePut)
    final: list[Delivery] = field(default_factory=list)
    maybe: list[Delivery] = field(default_factory=list)
    returned: list[Delivery] = field(default_factory=list)  # gets backed out
    discarded: list[float] = field(default_factory=list)  # expired: discard times
    remaining: list[tuple[float, int]] = field(default_factory=list)  # (time, Expiry seen)
    on_queue: str = ""  # where it was at the run's end ("QM1 Q"; "": nowhere, or not read)

    @property
    def started(self) -> float:
        """When its expiry started: the put itself, else (never seen) its invocation."""
        return self.invoked if self.put_time is None else self.put_time


@dataclass(slots=True)
class _Uow:
    puts: list[Message] = field(default_factory=list)
    gets: list[tuple[Message | None, Delivery]] = field(default_factory=list)


@dataclass(slots=True)
class History:
    """The messages of a run by MsgId, with what else the checkers need."""

    messages: dict[bytes, Message] = field(default_factory=dict)
    #: Deliveries of MsgIds no client put (nor the queue manager made: reports...).
    strangers: list[tuple[bytes, Delivery]] = field(default_factory=list)
    #: MsgIds the queue managers made themselves: reports, trigger messages.
    system: set[bytes] = field(default_factory=set)
    events: list[WorldEvent] = field(default_factory=list)
    #: Which queues are shared (a message held on one survives its member's failure).
    scopes: Scopes | None = None
    #: The coupling facility's recoveries after failures (RECOVER CFSTRUCT).
    cf_recoveries: list[CFRecovered] = field(default_factory=list)
    #: What the queues held at the end (None: not read, as across processes).
    final: FinalState | None = None
    #: The faults the run scheduled, and its time 0 (their ``at`` counts from it).
    faults: tuple[Fault, ...] = ()
    origin: float = 0.0

    def of(self, fate: str) -> list[Message]:
        return [m for m in self.messages.values() if m.fate == fate]

    def unread(self, m: Message) -> bool:
        """Whether ``m``'s queue is in a store the run's end could not read (a QSG's
        coupling facility down or cut off then): where it is, nobody can say."""
        final, scopes = self.final, self.scopes
        if final is None or not final.unread:
            return False
        owner = scopes.scope(m.q_mgr, m.queue) if scopes is not None else m.q_mgr
        return owner in final.unread or m.q_mgr in final.unread

    def lost_to_cf(self, m: Message) -> bool:
        """Whether ``m`` may have been lost, as MQ allows, when the coupling facility
        failed: it was on a shared queue of the failed facility before it came back,
        not yet delivered for good, and nonpersistent or on a structure whose
        persistent messages could not be recovered."""
        scopes = self.scopes
        if scopes is None or scopes.scope(m.q_mgr, m.queue) == m.q_mgr:
            return False
        for cf in self.cf_recoveries:
            if (
                cf.qsg == scopes.members.get(m.q_mgr)
                and m.queue in cf.queues.split(",")
                and m.started < cf.time
                and not any(d.time < cf.time for d in m.final)
                and (not m.persistent or not cf.recovered)
            ):
                return True
        return False


def of_run(result: RunResult) -> History:
    """The history of a played run: its events, with what its queues held at the end
    and the faults it scheduled (what ``qsg exec --check`` and ``qsg chaos`` judge)."""
    scenario = result.scenario
    faults = scenario.faults if isinstance(scenario, Scenario) else ()
    return read(
        result.events, result.scopes, final=result.final, faults=faults, origin=result.start
    )


def read(
    events: Iterable[WorldEvent],
    scopes: Scopes | None = None,
    *,
    final: FinalState | None = None,
    faults: tuple[Fault, ...] = (),
    origin: float = 0.0,
) -> History:
    """The history of a run from its events, in the order they happened; ``final``:
    what its queues held at the end; ``faults``: its schedule, from ``origin``."""
    history = History(events=list(events), scopes=scopes, final=final, faults=faults, origin=origin)
    messages, uows = history.messages, dict[str, _Uow]()
    invoked: dict[str, OpInvoked] = {}  # the operation each app has in flight
    # The queue manager's put of a MsgId no client had named yet (a pymqi put whose
    # MsgId the queue manager made is recorded after it: ``qsg.pymqi.history``).
    early: dict[bytes, MessagePut] = {}

    def end(app: str, committed: bool | None) -> None:
        """The app's unit of work ends: committed (True), unknown (None), else gone."""
        uow = uows.pop(app, None)
        if uow is None:
            return
        for msg in uow.puts:
            msg.fate = "ok" if committed else "unknown" if committed is None else "failed"
        for got, delivery in uow.gets:
            if got is None:
                continue
            if committed:
                got.final.append(delivery)
            elif committed is None:
                got.maybe.append(delivery)
            else:
                got.returned.append(delivery)

    for order, event in enumerate(history.events):
        if isinstance(event, OpInvoked):
            invoked[event.app] = event
            if event.op == "put" and event.msg_id:
                msg = Message(
                    event.msg_id,
                    event.app,
                    event.q_mgr,
                    event.queue,
                    event.time,
                    event.persistent,
                    event.expiry,
                    event.report,
                )
                messages.setdefault(event.msg_id, msg)
                before = early.pop(event.msg_id, None)
                if before is not None:
                    msg.put_time, msg.persistent = before.time, before.persistent
                if event.syncpoint:
                    uows.setdefault(event.app, _Uow()).puts.append(msg)
        elif isinstance(event, OpCompleted):
            began = invoked.pop(event.app, None)
            syncpoint = began is not None and began.syncpoint
            if event.op == "put" and began is not None and began.msg_id:
                msg = messages[began.msg_id]
                if event.outcome != "ok":
                    if syncpoint and msg in uows.get(event.app, _Uow()).puts:
                        uows[event.app].puts.remove(msg)
                    # A put cut off inside a unit of work that the application then
                    # abandons (a lost connection) can never be committed.
                    abandoned = syncpoint and event.reason in LOST
                    unknown = event.outcome == "unknown" and not abandoned
                    msg.fate = "unknown" if unknown else "failed"
                elif not syncpoint:
                    msg.fate = "ok"
            elif event.op == "get" and event.outcome == "ok":
                delivery = Delivery(
                    event.time,
                    event.app,
                    event.q_mgr,
                    event.queue,
                    event.expiry,
                    event.group_id,
                    event.seq,
                    event.time if began is None else began.time,
                    order,
                )
                found = messages.get(event.msg_id)
                if found is None and event.msg_id not in history.system:
                    history.strangers.append((event.msg_id, delivery))
                if found is not None:
                    found.remaining.append((delivery.invoked, event.expiry))
                if syncpoint:
                    uows.setdefault(event.app, _Uow()).gets.append((found, delivery))
                elif found is not None:
                    found.final.append(delivery)
            elif event.op == "commit":
                end(
                    event.app,
                    True
                    if event.outcome == "ok"
                    else None
                    if event.outcome == "unknown"
                    else False,
                )
            elif event.op == "backout":
                end(event.app, False)
            if event.outcome != "ok" and event.reason in LOST and event.op != "commit":
                end(event.app, False)  # the application abandons its unit of work
        elif isinstance(event, CFRecovered):
            history.cf_recoveries.append(event)
        elif isinstance(event, MessagePut):
            put = messages.get(event.msg_id)
            if put is None:
                early[event.msg_id] = event
            elif put.put_time is None:
                put.put_time = event.time
                put.persistent = event.persistent  # as the queue manager resolved it
        elif isinstance(event, Discarded | ExpiredInTransit):
            gone = messages.get(event.msg_id)
            if gone is not None:
                gone.discarded.append(event.time)
        elif isinstance(event, ChannelDelivered):
            moved = messages.get(event.msg_id)
            if moved is not None:
                moved.remaining.append((event.time, event.expiry))
        elif (
            isinstance(event, ReportPut | TriggerMessagePut | DeadLettered)
            and event.msg_id not in messages
        ):  # a dead letter keeps a client's MsgId
            history.system.add(event.msg_id)
    for app in list(uows):  # a unit of work still open at the end was never committed
        end(app, False)
    if final is not None:
        for msg in messages.values():
            msg.on_queue = final.places.get(msg.msg_id, "")
    return history


__all__ = ["LOST", "Delivery", "History", "Message", "of_run", "read"]
