"""Triggering: when a queue manager writes a trigger message, and what it holds.

IBM's conditions for a trigger event, as this module numbers them:

1. a message is put on a queue (or one of the standing occasions below);
2. its priority is TRIGMPRI or more;
3. the number of messages on the queue of TRIGMPRI or more was before it: 0 for
   TRIGTYPE(FIRST), anything for EVERY, TRIGDPTH - 1 for DEPTH. A local queue counts
   committed and uncommitted messages, a shared queue committed ones only; expired
   messages not yet discarded count "for all purposes, including depth triggering"
   ("Expiry (MQLONG)" note 2);
4. for FIRST and DEPTH, nobody has the queue open for input (IPPROCS is 0);
5. PROCESS names a defined process (a transmission queue may leave it blank);
6. INITQ names a local queue of this queue manager ...
7. ... that allows gets ...
8. ... and that a trigger monitor has open for input;
9. TRIGGER (TriggerControl MQTC_ON);
10. TRIGTYPE is not NONE.

FIRST also fires on a queue that was not empty when TRIGINT milliseconds have passed
since the last trigger message for it. After a DEPTH trigger the queue manager turns
triggering off (NOTRIGGER) until someone turns it on again. Besides a put, a standing
condition (enough messages, nobody serving) makes a trigger message for FIRST and
DEPTH when the last input handle of the queue closes, when triggering is turned on by
MQSET or ALTER, and when a trigger monitor opens the initiation queue.

A trigger message is a nonpersistent datagram of format MQFMT_TRIGGER holding an MQTM,
always with MQEI_UNLIMITED expiry ("Expiry (MQLONG)" note 8), at the initiation queue's
default priority. Caused by a put in syncpoint, it is part of that unit of work and
made available when the unit of work ends, committed or backed out. A trigger message
that cannot be put goes to the dead-letter queue.
"""

from __future__ import annotations

import dataclasses
from functools import partial
from typing import Protocol

from qsg import CMQC
from qsg.core.errors import MQMIError
from qsg.core.events import Event, TriggerMessagePut
from qsg.core.layouts import TM
from qsg.core.message import Message
from qsg.core.objects import ProcessDefinition, QueueObject
from qsg.core.queue import QueueDefinition
from qsg.core.repository import Repository
from qsg.core.structs import INPUT_OPTIONS, MD
from qsg.core.uow import UnitOfWork

_SERVED_BY_ONE = (CMQC.MQTT_FIRST, CMQC.MQTT_DEPTH)  # condition 4 applies


class TriggeringQueueManager(Protocol):
    """What triggering uses of the queue manager whose queue triggers (``QMgr``): its
    queues and processes, TRIGINT and when each queue last triggered, and the puts it
    makes itself (the trigger message, else a dead letter)."""

    @property
    def name(self) -> str: ...
    @property
    def time(self) -> float: ...
    @property
    def trigger_interval(self) -> int: ...
    @property
    def last_trigger(self) -> dict[str, float]: ...
    @property
    def local(self) -> Repository: ...
    @property
    def repositories(self) -> tuple[Repository, ...]: ...

    def find(self, name: str) -> tuple[Repository, QueueObject] | None: ...
    def define(self, obj: QueueObject, *, replace: bool = False) -> QueueObject: ...
    def put_system(self, queue: str, md: MD, body: bytes, now: float) -> str: ...
    def dead_letter(
        self, md: MD, body: bytes, reason: int, dest_q: str, dest_q_mgr: str, now: float
    ) -> bool: ...
    def emit(self, event: Event) -> None: ...


def triggered(qdef: QueueDefinition) -> bool:
    """Conditions 9 and 10: the queue is set to trigger at all."""
    return qdef.trigger_control == CMQC.MQTC_ON and qdef.trigger_type != CMQC.MQTT_NONE


def trigger_count(repo: Repository, qdef: QueueDefinition) -> int:
    """Condition 3's count: messages of TRIGMPRI or more, committed only on a shared queue."""
    return repo.store.depth_at_least(qdef.name, qdef.trigger_msg_priority, qdef.is_shared)


def input_count(repo: Repository, queue: str) -> int:
    """IPPROCS: the handles that have ``queue`` open to get from it."""
    return sum(1 for options in repo.status[queue].handles.values() if options & INPUT_OPTIONS)


def after_put(
    qm: TriggeringQueueManager,
    repo: Repository,
    qdef: QueueDefinition,
    msg: Message,
    uow: UnitOfWork | None,
    now: float,
) -> None:
    """A message is on ``qdef`` (``uow``: put in that unit of work): a trigger event?"""
    if msg.priority < qdef.trigger_msg_priority:  # condition 2
        return
    if uow is not None and qdef.is_shared:
        # A shared queue counts committed messages: its check waits for the commit, and
        # sees all of the unit of work's arrivals on the queue at once.
        counter = uow.notes.get((id(repo), qdef.name))
        if counter is None:
            counter = uow.notes[id(repo), qdef.name] = [0]
            uow.at_end.append((False, lambda: _after_commit(qm, repo, qdef.name, counter[0])))
        counter[0] += 1
        return
    after = trigger_count(repo, qdef)
    _arrivals(qm, repo, qdef, after - 1, after, 1, uow, now)


def _after_commit(qm: TriggeringQueueManager, repo: Repository, name: str, arrivals: int) -> None:
    qdef = repo.queues.get(name)
    if not isinstance(qdef, QueueDefinition) or not triggered(qdef):
        return  # deleted, or triggering turned off since the put
    after = trigger_count(repo, qdef)
    _arrivals(qm, repo, qdef, after - arrivals, after, arrivals, None, qm.time)


def _arrivals(
    qm: TriggeringQueueManager,
    repo: Repository,
    qdef: QueueDefinition,
    before: int,
    after: int,
    arrivals: int,
    uow: UnitOfWork | None,
    now: float,
) -> None:
    """``arrivals`` messages took the count from ``before`` to ``after`` (condition 3)."""
    kind = qdef.trigger_type
    if kind == CMQC.MQTT_FIRST:
        elapsed = now - qm.last_trigger.get(qdef.name, -float("inf"))
        fires = 1 if before <= 0 or elapsed * 1000 >= qm.trigger_interval else 0
    elif kind == CMQC.MQTT_EVERY:
        fires = arrivals
    else:
        fires = 1 if before < qdef.trigger_depth <= after else 0
    if fires:
        fire(qm, repo, qdef, now, uow=uow, times=fires)


def standing(
    qm: TriggeringQueueManager, repo: Repository, qdef: QueueDefinition, now: float
) -> bool:
    """The occasions without a put: for FIRST and DEPTH, if enough messages are waiting
    and conditions 4 to 10 hold, write a trigger message. True if one was written."""
    if not triggered(qdef) or qdef.trigger_type not in _SERVED_BY_ONE:
        return False
    needed = qdef.trigger_depth if qdef.trigger_type == CMQC.MQTT_DEPTH else 1
    if trigger_count(repo, qdef) < needed:
        return False
    return fire(qm, repo, qdef, now)


def initiation_queue_opened(qm: TriggeringQueueManager, initq: str, now: float) -> None:
    """A trigger monitor opened ``initq`` for input: one trigger message for each queue
    it serves whose conditions stand (a restarted queue manager's queues, or trigger
    messages lost)."""
    for repo in qm.repositories:
        for qdef in list(repo.queues.values()):
            if (
                isinstance(qdef, QueueDefinition)
                and qdef.q_type == CMQC.MQQT_LOCAL
                and qdef.initiation_q_name == initq
            ):
                standing(qm, repo, qdef, now)


def fire(
    qm: TriggeringQueueManager,
    repo: Repository,
    qdef: QueueDefinition,
    now: float,
    *,
    uow: UnitOfWork | None = None,
    times: int = 1,
) -> bool:
    """Write the trigger message(s) if conditions 4 to 10 hold; True if written."""
    if not triggered(qdef):
        return False
    if qdef.trigger_type in _SERVED_BY_ONE and input_count(repo, qdef.name):
        return False  # condition 4: a server is already at work
    process = qm.local.processes.get(qdef.process_name) if qdef.process_name else None
    if process is None and (qdef.process_name or not qdef.is_transmission_queue):
        return False  # condition 5: a transmission queue may name no process
    initq = _initiation_queue(qm, qdef)
    if initq is None:
        return False
    md, body = trigger_message(qdef, process)
    qm.last_trigger[qdef.name] = now
    if qdef.trigger_type == CMQC.MQTT_DEPTH:  # off until turned on again
        qm.define(dataclasses.replace(qdef, trigger_control=CMQC.MQTC_OFF), replace=True)
    for _ in range(times):
        copy = MD(**md.get())
        if uow is None:
            _deliver(qm, initq, qdef, copy, body, now)
        else:  # part of the unit of work: available when it ends, whichever way
            uow.count += 1
            uow.at_end.append((True, partial(_deliver, qm, initq, qdef, copy, body, now)))
    return True


def _initiation_queue(qm: TriggeringQueueManager, qdef: QueueDefinition) -> str | None:
    """Conditions 6 to 8: a local initiation queue that allows gets and is served."""
    if not qdef.initiation_q_name:
        return None
    found = qm.find(qdef.initiation_q_name)
    if found is None:
        return None
    repo, initq = found
    if not isinstance(initq, QueueDefinition) or initq.q_type != CMQC.MQQT_LOCAL:
        return None
    if initq.inhibit_get == CMQC.MQQA_GET_INHIBITED or not input_count(repo, initq.name):
        return None
    return initq.name


def trigger_message(qdef: QueueDefinition, process: ProcessDefinition | None) -> tuple[MD, bytes]:
    """The trigger message for ``qdef``: its MQMD and its MQTM (``process`` None: the
    process fields blank, for a transmission queue that names none)."""
    tm = TM(QName=qdef.name.encode(), TriggerData=qdef.trigger_data.encode())
    if process is not None:
        tm = dataclasses.replace(
            tm,
            ProcessName=process.name.encode(),
            ApplType=process.appl_type,
            ApplId=process.appl_id.encode(),
            EnvData=process.env_data.encode(),
            UserData=process.user_data.encode(),
        )
    md = MD(
        Format=CMQC.MQFMT_TRIGGER,
        MsgType=CMQC.MQMT_DATAGRAM,
        Expiry=CMQC.MQEI_UNLIMITED,  # "Expiry (MQLONG)" note 8
        Persistence=CMQC.MQPER_NOT_PERSISTENT,
        Priority=CMQC.MQPRI_PRIORITY_AS_Q_DEF,
        PutApplType=CMQC.MQAT_QMGR,
    )
    return md, tm.pack(md.Encoding)


def _deliver(
    qm: TriggeringQueueManager, initq: str, qdef: QueueDefinition, md: MD, body: bytes, now: float
) -> None:
    md.PutApplName = qm.name.encode()[:28]
    try:
        qm.put_system(initq, md, body, now)
    except MQMIError as error:
        qm.dead_letter(md, body, error.reason, initq, qm.name, now)
        return
    qm.emit(TriggerMessagePut(now, qm.name, initq, md.MsgId, qdef.name, qdef.trigger_type))


__all__ = [
    "TriggeringQueueManager",
    "after_put",
    "fire",
    "initiation_queue_opened",
    "standing",
    "trigger_count",
    "trigger_message",
    "triggered",
]
