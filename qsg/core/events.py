"""What the rules layer tells the world: a closed set of frozen event records.

The actors layer (a later issue) widens the set with puts, gets, channel transfers and
lease changes; these are the ones the rules layer itself causes outside any call's
return value: discards, reports, dead-lettering and trigger messages.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class Discarded:
    """An expired message was discarded (by a get, a browse or an expiry scan)."""

    kind: ClassVar[str] = "discard"
    time: float
    q_mgr: str
    queue: str
    msg_id: bytes
    by: str  # "get", "browse" or "scan"


@dataclass(frozen=True, slots=True)
class ReportPut:
    """A report message was put to its destination queue."""

    kind: ClassVar[str] = "report"
    time: float
    q_mgr: str
    queue: str
    msg_id: bytes
    original_msg_id: bytes
    feedback: int


@dataclass(frozen=True, slots=True)
class DeadLettered:
    """A message went to the dead-letter queue, with the reason it could not be put."""

    kind: ClassVar[str] = "dead-letter"
    time: float
    q_mgr: str
    queue: str
    msg_id: bytes
    reason: int
    original_msg_id: bytes = b""  # a report's: the message it reports on


@dataclass(frozen=True, slots=True)
class ReportLost:
    """A report could be put neither where it was going nor to the dead-letter queue."""

    kind: ClassVar[str] = "report-lost"
    time: float
    q_mgr: str
    queue: str
    original_msg_id: bytes
    reason: int


@dataclass(frozen=True, slots=True)
class TriggerMessagePut:
    """A trigger message for ``app_queue`` was put to the initiation queue ``queue``."""

    kind: ClassVar[str] = "trigger"
    time: float
    q_mgr: str
    queue: str
    msg_id: bytes
    app_queue: str
    trigger_type: int  # MQTT_FIRST, MQTT_EVERY or MQTT_DEPTH


@dataclass(frozen=True, slots=True)
class EventMessagePut:
    """An MQ event message was put to the event queue ``queue`` (SYSTEM.ADMIN.PERFM.EVENT,
    ...QMGR.EVENT or ...CHANNEL.EVENT): ``reason`` names the event (MQRC_Q_DEPTH_HIGH,
    MQRC_PUT_INHIBITED, MQRC_CHANNEL_STARTED, ...), ``object_name`` the queue or channel
    it is about."""

    kind: ClassVar[str] = "mq-event"
    time: float
    q_mgr: str
    queue: str
    msg_id: bytes
    reason: int
    object_name: str


Event = Discarded | ReportPut | DeadLettered | ReportLost | TriggerMessagePut | EventMessagePut
EventSink = Callable[[Event], None]
