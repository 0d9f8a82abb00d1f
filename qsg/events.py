"""The event stream's records, for users: ``qsg.events.MessagePut``, ``LeaseChanged``...

They are defined in ``actors.events`` (and the rules layer's own in ``qsg.core.events``);
this module gathers them under the public name: every record of ``WorldEvent`` (each
kind of docs/events.md), ``WorldEvent`` itself, ``EventLog`` and ``kind_of``
(tests/test_exports.py holds it to that).
"""

from __future__ import annotations

from actors.events import (
    ApplicationError,
    CFFailed,
    CFRecovered,
    ChannelBatch,
    ChannelDelivered,
    ChannelRecovered,
    ChannelStateChanged,
    CommandFailed,
    CommandRun,
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
    QMgrStatistics,
    ReplyReceived,
    UnitOfWorkEnded,
    WorldEvent,
    kind_of,
)
from qsg.core.events import (
    DeadLettered,
    Discarded,
    EventMessagePut,
    ReportLost,
    ReportPut,
    TriggerMessagePut,
)

__all__ = [
    "ApplicationError",
    "CFFailed",
    "CFRecovered",
    "ChannelBatch",
    "ChannelDelivered",
    "ChannelRecovered",
    "ChannelStateChanged",
    "CommandFailed",
    "CommandRun",
    "DeadLettered",
    "DepthSampled",
    "Discarded",
    "EventLog",
    "EventMessagePut",
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
    "QMgrStatistics",
    "ReplyReceived",
    "ReportLost",
    "ReportPut",
    "TriggerMessagePut",
    "UnitOfWorkEnded",
    "WorldEvent",
    "kind_of",
]
