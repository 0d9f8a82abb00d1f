"""Queue manager events: inhibit and local events on SYSTEM.ADMIN.QMGR.EVENT.

IBM: "Queue manager events", "Put Inhibited", "Get Inhibited", "Unknown Object Name".
With INHIBTEV(ENABLED), an MQPUT or MQPUT1 refused with MQRC_PUT_INHIBITED (2051) and an
MQGET refused with MQRC_GET_INHIBITED (2016) each put an event message of the same
reason; with LOCALEV(ENABLED), an MQOPEN or MQPUT1 of a queue the queue manager does not
know, refused with MQRC_UNKNOWN_OBJECT_NAME (2085), puts one. The event data is QMgrName,
QName (as the application's object descriptor named it), ApplType and ApplName of the
application whose call failed. Authority events are a distributed platforms' event (IBM:
"Authority (on Multiplatforms only)"): a z/OS queue manager generates none, so AUTHOREV
is shown only (DISABLED: z/OS refuses ENABLED). The message's layout is
``qsg.core.eventmsg``'s; an event queue that is not there loses the event.
"""

from __future__ import annotations

from typing import Protocol

from qsg import CMQC, CMQCFC
from qsg.core import eventmsg
from qsg.core.engine import PutIdentity, QMgrRules
from qsg.core.errors import MQMIError
from qsg.core.events import Event, EventMessagePut
from qsg.core.structs import MD

#: The switch each reason's event needs, by the queue manager attribute's name.
SWITCHES = {
    CMQC.MQRC_PUT_INHIBITED: "inhibit_event",
    CMQC.MQRC_GET_INHIBITED: "inhibit_event",
    CMQC.MQRC_UNKNOWN_OBJECT_NAME: "local_event",
}


class EventingQueueManager(Protocol):
    """What the queue manager events use of a queue manager (``QMgr``)."""

    @property
    def name(self) -> str: ...
    @property
    def rules(self) -> QMgrRules: ...

    inhibit_event: int  # INHIBTEV
    local_event: int  # LOCALEV

    def put_system(self, queue: str, md: MD, body: bytes, now: float) -> str: ...
    def emit(self, event: Event) -> None: ...


def refused(
    qm: EventingQueueManager, error: MQMIError, queue: str, who: PutIdentity, now: float
) -> None:
    """An application's call on ``queue`` failed with ``error``: the queue manager event
    it is, when its switch is on."""
    switch = SWITCHES.get(error.reason)
    if switch is None or getattr(qm, switch) != CMQCFC.MQEVR_ENABLED:
        return
    platform = qm.rules.platform
    data = eventmsg.body(
        CMQCFC.MQCMD_Q_MGR_EVENT,
        error.reason,
        [
            (CMQC.MQCA_Q_MGR_NAME, qm.name, 48),
            (CMQC.MQCA_Q_NAME, queue, 48),
            (CMQC.MQIA_APPL_TYPE, who.appl_type),
            (CMQCFC.MQCACF_APPL_NAME, who.appl_name.decode(errors="replace"), 28),
        ],
        platform,
    )
    md = eventmsg.descriptor(qm.name, platform)
    try:
        put = qm.put_system(eventmsg.QMGR_EVENT_QUEUE, md, data, now)
    except MQMIError:
        return
    qm.emit(EventMessagePut(now, qm.name, put, md.MsgId, error.reason, queue))


__all__ = ["SWITCHES", "EventingQueueManager", "refused"]
