"""A message as a store holds it: its descriptor, its data and its place in time."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from qsg.core.structs import MD, MD_FIELDS

# Positions in a stored descriptor tuple (MQMD fields in IBM's order).
I_REPORT = MD_FIELDS.index("Report")
I_EXPIRY = MD_FIELDS.index("Expiry")
I_ENCODING = MD_FIELDS.index("Encoding")
I_FORMAT = MD_FIELDS.index("Format")
I_PRIORITY = MD_FIELDS.index("Priority")
I_PERSISTENCE = MD_FIELDS.index("Persistence")
I_MSG_ID = MD_FIELDS.index("MsgId")
I_CORREL_ID = MD_FIELDS.index("CorrelId")
I_BACKOUT_COUNT = MD_FIELDS.index("BackoutCount")
I_REPLY_TO_Q = MD_FIELDS.index("ReplyToQ")
I_REPLY_TO_Q_MGR = MD_FIELDS.index("ReplyToQMgr")
I_GROUP_ID = MD_FIELDS.index("GroupId")
I_MSG_SEQ_NUMBER = MD_FIELDS.index("MsgSeqNumber")
I_OFFSET = MD_FIELDS.index("Offset")


@dataclass(slots=True)
class Message:
    """One physical message on a queue.

    ``desc`` is the MQMD as put (after MsgId generation and the AS_Q_DEF defaults were
    resolved), a tuple in ``MD_FIELDS`` order so it packs compactly for the coupling
    facility. ``priority`` is the level it is queued at (capped at 9, while the
    descriptor keeps what the application asked for). ``seq`` is the arrival number the
    store gives it: equal priorities are retrieved in arrival order, not commit order.
    """

    desc: tuple[Any, ...]
    body: bytes
    put_time: float
    expires_at: float | None
    priority: int
    seq: int = 0
    backout_count: int = 0

    @property
    def msg_id(self) -> bytes:
        return self.desc[I_MSG_ID]  # type: ignore[no-any-return]

    @property
    def correl_id(self) -> bytes:
        return self.desc[I_CORREL_ID]  # type: ignore[no-any-return]

    @property
    def persistent(self) -> bool:
        return bool(self.desc[I_PERSISTENCE] == 1)

    def to_md(self, md: MD) -> None:
        """Write this message's descriptor into ``md`` (MQGET's output fields)."""
        for name, value in zip(MD_FIELDS, self.desc, strict=True):
            object.__setattr__(md, name, value)
        md.BackoutCount = self.backout_count
