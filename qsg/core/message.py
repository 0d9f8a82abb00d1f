"""A message as a store holds it: its descriptor, its data and its place in time."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from qsg import CMQC
from qsg.core.structs import MD

_SEGMENTED = CMQC.MQMF_SEGMENT | CMQC.MQMF_LAST_SEGMENT


@dataclass(slots=True)
class Message:
    """One physical message on a queue.

    ``desc`` is the MQMD as put (after MsgId generation and the AS_Q_DEF defaults were
    resolved), IBM field name to value: copied from and into an ``MD`` in one step, and
    msgpack-able as it is. ``priority`` is the level it is queued at (capped at 9, while the
    descriptor keeps what the application asked for). ``seq`` is the arrival number the
    store gives it: equal priorities are retrieved in arrival order, not commit order.
    """

    desc: dict[str, Any]
    body: bytes
    put_time: float
    expires_at: float | None
    priority: int
    seq: int = 0
    backout_count: int = 0

    @property
    def msg_id(self) -> bytes:
        return self.desc["MsgId"]  # type: ignore[no-any-return]

    @property
    def correl_id(self) -> bytes:
        return self.desc["CorrelId"]  # type: ignore[no-any-return]

    @property
    def persistent(self) -> bool:
        return bool(self.desc["Persistence"] == 1)

    def to_md(self, md: MD) -> None:
        """Write this message's descriptor into ``md`` (MQGET's output fields)."""
        fields = md.__dict__
        version = fields["Version"]  # MQ never changes the caller's structure version
        fields.update(self.desc)
        fields["Version"] = version
        fields["BackoutCount"] = self.backout_count


def joined(parts: list[Message]) -> Message:
    """A segmented logical message made whole (MQGMO_COMPLETE_MSG): the first segment's
    descriptor without the segment flags, the last one's LAST_MSG_IN_GROUP, every body."""
    first, last = parts[0], parts[-1]
    desc = dict(first.desc)
    flags = desc["MsgFlags"] & ~_SEGMENTED
    desc["MsgFlags"] = flags | (last.desc["MsgFlags"] & CMQC.MQMF_LAST_MSG_IN_GROUP)
    body = b"".join(part.body for part in parts)
    return Message(
        desc, body, first.put_time, first.expires_at, first.priority, first.seq, first.backout_count
    )
