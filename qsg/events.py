"""The event stream's records, for users: ``qsg.events.MessagePut``, ``LeaseChanged``...

They are defined in ``actors.events`` (and the rules layer's own in ``qsg.core.events``);
this module gathers them under the public name.
"""

from __future__ import annotations

from actors.events import (
    ApplicationError,
    CFRecovered,
    ChannelBatch,
    ChannelDelivered,
    ChannelStateChanged,
    DepthSampled,
    EventLog,
    ExpiredInTransit,
    ExpiryScanned,
    FaultInjected,
    LeaseChanged,
    MessageGot,
    MessagePut,
    OpCompleted,
    OpInvoked,
    PeerRecovered,
    QMgrKilled,
    QMgrRestarted,
    ReplyReceived,
    UnitOfWorkEnded,
    WorldEvent,
    kind_of,
)
from qsg.core.events import DeadLettered, Discarded, ReportLost, ReportPut, TriggerMessagePut

__all__ = [
    "ApplicationError",
    "CFRecovered",
    "ChannelBatch",
    "ChannelDelivered",
    "ChannelStateChanged",
    "DeadLettered",
    "DepthSampled",
    "Discarded",
    "EventLog",
    "ExpiredInTransit",
    "ExpiryScanned",
    "FaultInjected",
    "LeaseChanged",
    "MessageGot",
    "MessagePut",
    "OpCompleted",
    "OpInvoked",
    "PeerRecovered",
    "QMgrKilled",
    "QMgrRestarted",
    "ReplyReceived",
    "ReportLost",
    "ReportPut",
    "TriggerMessagePut",
    "UnitOfWorkEnded",
    "WorldEvent",
    "kind_of",
]
