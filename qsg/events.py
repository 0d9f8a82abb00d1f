"""The event stream's records, for users: ``qsg.events.MessagePut``, ``LeaseChanged``...

They are defined in ``actors.events`` (and the rules layer's own in ``qsg.core.events``);
this module gathers them under the public name.
"""

from __future__ import annotations

from actors.events import (
    ChannelBatch,
    ChannelDelivered,
    ChannelStateChanged,
    EventLog,
    ExpiredInTransit,
    ExpiryScanned,
    LeaseChanged,
    MessageGot,
    MessagePut,
    PeerRecovered,
    QMgrKilled,
    QMgrRestarted,
    UnitOfWorkEnded,
    WorldEvent,
    kind_of,
)
from qsg.core.events import DeadLettered, Discarded, ReportLost, ReportPut, TriggerMessagePut

__all__ = [
    "ChannelBatch", "ChannelDelivered", "ChannelStateChanged", "DeadLettered", "Discarded",
    "EventLog", "ExpiredInTransit", "ExpiryScanned", "LeaseChanged", "MessageGot",
    "MessagePut", "PeerRecovered", "QMgrKilled", "QMgrRestarted", "ReportLost", "ReportPut",
    "TriggerMessagePut", "UnitOfWorkEnded", "WorldEvent", "kind_of",
]  # fmt: skip
