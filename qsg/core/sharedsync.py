"""A shared channel's synchronization record on SYSTEM.QSG.CHANNEL.SYNCQ.

A private channel keeps its sequence number and its batch in doubt in its queue
manager's SYSTEM.CHANNEL.SYNCQ; a shared one keeps them on the shared queue
SYSTEM.QSG.CHANNEL.SYNCQ, "which is what lets a shared channel restart on another
member" ("Synchronization queue for queue sharing groups"): the instance a survivor
restarts reads the record the failed one wrote, says the same numbers in its hello,
and settles the batch in doubt with its partner as the first instance would have.

The record is one persistent message per sending channel, its MsgId ``SYNC`` and the
channel's name (IBM defines the queue INDXTYPE(MSGID) for such gets), its data the
sequence number of the last message sent and the MsgIds of the batch in doubt. The
sender replaces it outside syncpoint before a batch goes (it is in doubt from then on)
and inside the batch's unit of work when the batch is confirmed; the receiving end of
a shared inbound channel, inside the unit of work that puts the batch. Either way the
get of the old record and the put of the new are one step of the queue manager. Its layout is
qsg's own; IBM does not document its sync records.
"""

from __future__ import annotations

from dataclasses import dataclass

from qsg import CMQC
from qsg.core.errors import MQMIError
from qsg.core.handle import Handle
from qsg.core.structs import GMO, MD, PMO

#: The shared queue of the shared channels' sync records (IBM's name).
SYNCQ = "SYSTEM.QSG.CHANNEL.SYNCQ"
#: The options the sending agent opens it with.
OPEN_OPTIONS = CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_OUTPUT | CMQC.MQOO_BROWSE


@dataclass(frozen=True, slots=True)
class SyncRecord:
    """A sending channel's sequence number and its batch in doubt (None: none); and
    whether a RESET CHANNEL is yet to be told to its partner at the next start."""

    sequence: int = 0
    in_doubt: tuple[bytes, ...] | None = None
    reset: bool = False

    def encode(self) -> bytes:
        doubt = "-" if self.in_doubt is None else ",".join(m.hex() for m in self.in_doubt)
        return f"{self.sequence};{doubt}{';R' if self.reset else ''}".encode("ascii")

    @classmethod
    def decode(cls, data: bytes) -> SyncRecord:
        sequence, _, rest = data.decode("ascii").partition(";")
        doubt, _, reset = rest.partition(";")
        if doubt == "-":
            return cls(int(sequence), reset=reset == "R")
        ids = tuple(bytes.fromhex(m) for m in doubt.split(",") if m)
        return cls(int(sequence), ids, reset == "R")


def record_id(channel: str, receiving: bool = False) -> bytes:
    """The MsgId of ``channel``'s record: ``SYNC`` (``SYNR`` for the receiving end of
    a shared inbound channel, whose record is the sequence number it committed) and
    the channel's name (at most 20 characters), padded to the MsgId's 24 bytes."""
    stem = "SYNR" if receiving else "SYNC"
    return (stem + channel).encode("latin-1").ljust(CMQC.MQ_MSG_ID_LENGTH, b" ")


def _by_id(channel: str, options: int, receiving: bool) -> tuple[MD, GMO]:
    md = MD(MsgId=record_id(channel, receiving))
    return md, GMO(Options=options, MatchOptions=CMQC.MQMO_MATCH_MSG_ID)


def read(syncq: Handle, channel: str, now: float, receiving: bool = False) -> SyncRecord:
    """``channel``'s record (a new one if it has none yet), browsed."""
    options = CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_NO_SYNCPOINT
    md, gmo = _by_id(channel, options, receiving)
    try:
        return SyncRecord.decode(syncq.get(None, md, gmo, now=now))
    except MQMIError as error:
        if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
            raise
        return SyncRecord()


def write(
    syncq: Handle,
    channel: str,
    record: SyncRecord,
    now: float,
    receiving: bool = False,
    syncpoint: bool = False,
) -> None:
    """Replace ``channel``'s record with ``record``: outside syncpoint, or with
    ``syncpoint`` in the unit of work of the batch it records (committed or backed
    out with it)."""
    md, gmo = _by_id(
        channel, CMQC.MQGMO_SYNCPOINT if syncpoint else CMQC.MQGMO_NO_SYNCPOINT, receiving
    )
    try:
        syncq.get(None, md, gmo, now=now)
    except MQMIError as error:
        if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
            raise
    out = MD(MsgId=record_id(channel, receiving), Persistence=CMQC.MQPER_PERSISTENT)
    put = CMQC.MQPMO_SYNCPOINT if syncpoint else CMQC.MQPMO_NO_SYNCPOINT
    syncq.put(record.encode(), out, PMO(Options=put), now=now)


__all__ = ["OPEN_OPTIONS", "SYNCQ", "SyncRecord", "read", "record_id", "write"]
