"""Channel events on SYSTEM.ADMIN.CHANNEL.EVENT, switched by the queue manager's CHLEV.

IBM: "Channel events", "Channel Started", "Channel Stopped", "Channel Stopped By User",
"ChannelEvent (MQLONG)". The actors say when a channel agent's state changes
(``actors.events.ChannelStateChanged``); ``state_changed`` decides the event:

- RUNNING: the instance started, MQRC_CHANNEL_STARTED (2282) with QMgrName, ChannelName,
  XmitQName (a sender's or server's only) and ConnectionName.
- A stop of an instance that had started (IBM: "only issued if the channel instance
  previously issued a channel started event"): MQRC_CHANNEL_STOPPED (2283) with its
  ReasonQualifier, MQRQ_CHANNEL_STOPPED_RETRY into retry, _DISABLED into STOPPED,
  _ERROR when it ended on an error, _OK when it ended cleanly.
- STOP CHANNEL: MQRC_CHANNEL_STOPPED_BY_USER (2279) with MQRQ_CHANNEL_STOPPED_DISABLED.

CHLEV(ENABLED) generates them all; CHLEV(EXCEPTION) all but Channel Started and the
stop with MQRQ_CHANNEL_STOPPED_OK; CHLEV(DISABLED), the default, none. The message's
layout is ``qsg.core.eventmsg``'s; an event queue that is not there loses the event.
"""

from __future__ import annotations

from typing import Protocol

from qsg import CMQC, CMQCFC
from qsg.core import eventmsg
from qsg.core.engine import QMgrRules
from qsg.core.errors import MQMIError
from qsg.core.events import Event, EventMessagePut
from qsg.core.objects import ChannelDefinition
from qsg.core.structs import MD

#: The detail the actors give a state change made by STOP CHANNEL.
STOP_CHANNEL = "STOP CHANNEL"
#: The channel types whose events name their transmission queue (IBM: XmitQName is
#: "Returned: For sender, server, cluster-sender, and cluster-receiver channels only").
_SENDING = frozenset({CMQC.MQCHT_SENDER, CMQC.MQCHT_SERVER})
#: The ReasonQualifier of a stop into each state, for a stop with no error.
_INTO = {
    "RETRYING": CMQCFC.MQRQ_CHANNEL_STOPPED_RETRY,
    "STOPPED": CMQCFC.MQRQ_CHANNEL_STOPPED_DISABLED,
}


class ChannelEventingQueueManager(Protocol):
    """What channel events use of a queue manager (``QMgr``)."""

    @property
    def name(self) -> str: ...
    @property
    def rules(self) -> QMgrRules: ...

    channel_event: int  # CHLEV
    #: The channels whose running instance put a Channel Started event.
    channels_started: set[str]

    def put_system(self, queue: str, md: MD, body: bytes, now: float) -> str: ...
    def emit(self, event: Event) -> None: ...


def state_changed(
    qm: ChannelEventingQueueManager,
    definition: ChannelDefinition,
    state: str,
    detail: str,
    now: float,
) -> None:
    """The agent of ``definition`` entered ``state`` (RUNNING, RETRYING, STOPPED,
    INACTIVE, BINDING) for the reason ``detail`` ("" for none): the channel event it is,
    when CHLEV switches it on."""
    if qm.channel_event == CMQCFC.MQEVR_DISABLED:
        return
    name = definition.name
    if state == "RUNNING":
        qm.channels_started.add(name)
        if qm.channel_event == CMQCFC.MQEVR_ENABLED:
            _put(qm, definition, CMQC.MQRC_CHANNEL_STARTED, None, now)
        return
    if state in ("BINDING", "REQUESTING"):  # not started yet: no event
        return
    had_started = name in qm.channels_started
    qm.channels_started.discard(name)
    if detail == STOP_CHANNEL:
        reason, qualifier = CMQC.MQRC_CHANNEL_STOPPED_BY_USER, CMQCFC.MQRQ_CHANNEL_STOPPED_DISABLED
    elif not had_started:
        return
    elif state in _INTO:
        reason, qualifier = CMQC.MQRC_CHANNEL_STOPPED, _INTO[state]
    elif detail:
        reason, qualifier = CMQC.MQRC_CHANNEL_STOPPED, CMQCFC.MQRQ_CHANNEL_STOPPED_ERROR
    else:
        reason, qualifier = CMQC.MQRC_CHANNEL_STOPPED, CMQCFC.MQRQ_CHANNEL_STOPPED_OK
        if qm.channel_event != CMQCFC.MQEVR_ENABLED:
            return  # not an exception
    _put(qm, definition, reason, qualifier, now)


def _put(
    qm: ChannelEventingQueueManager,
    definition: ChannelDefinition,
    reason: int,
    qualifier: int | None,
    now: float,
) -> None:
    parameters: list[eventmsg.Parameter] = [(CMQC.MQCA_Q_MGR_NAME, qm.name, 48)]
    if qualifier is not None:
        parameters.append((CMQCFC.MQIACF_REASON_QUALIFIER, qualifier))
    parameters.append((CMQCFC.MQCACH_CHANNEL_NAME, definition.name, 20))
    if reason != CMQC.MQRC_CHANNEL_STOPPED_BY_USER:
        if definition.channel_type in _SENDING:
            parameters.append((CMQCFC.MQCACH_XMIT_Q_NAME, definition.xmit_q_name, 48))
        if definition.conn_name:
            parameters.append((CMQCFC.MQCACH_CONNECTION_NAME, definition.conn_name, 264))
    platform = qm.rules.platform
    data = eventmsg.body(CMQCFC.MQCMD_CHANNEL_EVENT, reason, parameters, platform)
    md = eventmsg.descriptor(qm.name, platform)
    try:
        put = qm.put_system(eventmsg.CHANNEL_EVENT_QUEUE, md, data, now)
    except MQMIError:
        return
    qm.emit(EventMessagePut(now, qm.name, put, md.MsgId, reason, definition.name))


__all__ = ["STOP_CHANNEL", "ChannelEventingQueueManager", "state_changed"]
