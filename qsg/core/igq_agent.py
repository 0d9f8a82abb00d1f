"""The intra-group queuing agent's batch: what one member's IGQ agent does with the
messages other members put for it on SYSTEM.QSG.TRANSMIT.QUEUE.

IBM MQ for z/OS, "Intra-group queuing messages", "Undelivered/unprocessed messages"
and "Report messages - Intra Group Queuing": the agent gets nonpersistent messages
outside syncpoint and persistent ones inside it, as its own syncpoint coordinator, in
batches of 50 (committed at 50 or when no message for it is left). A message it cannot
put to its destination is discarded if it asked for MQRO_DISCARD_MSG, else put to this
(the destination) queue manager's dead-letter queue behind an MQDLH; when that fails
too, a persistent message backs the batch out and the agent enters retry, and a
nonpersistent one is discarded. An exception report the message asked for goes to
its ReplyToQ (or the dead-letter queue), with the message's persistence. Who is
checked for the put is IGQAUT's table (``igq.checked_users``).

Synchronous and I/O-free like every rule; ``actors/igq.py`` runs it in a member's life.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from qsg import CMQC
from qsg.core import conntag, igq
from qsg.core.connection import Connection
from qsg.core.errors import MQMIError
from qsg.core.events import Discarded
from qsg.core.handle import Handle
from qsg.core.layouts import XQH
from qsg.core.qmgr import QMgr
from qsg.core.reports import exception_report
from qsg.core.store import MessageStore
from qsg.core.structs import GMO, MD, OD, PMO, name_of

_GET = CMQC.MQGMO_NO_WAIT | CMQC.MQGMO_SYNCPOINT_IF_PERSISTENT | CMQC.MQGMO_FAIL_IF_QUIESCING
_OPEN_DESTINATION = CMQC.MQOO_OUTPUT | CMQC.MQOO_SET_ALL_CONTEXT
#: The agent acts as the queue manager, whose own user ID is never checked.
AGENT_APPL_NAME = "IGQ AGENT"


@dataclass(frozen=True, slots=True)
class Delivered:
    """A message the agent put to its destination queue (``store`` holds it)."""

    queue: str
    msg_id: bytes
    length: int
    persistent: bool
    expiry: int  # the remaining Expiry it was put with
    store: MessageStore = field(compare=False)


@dataclass(frozen=True, slots=True)
class Batch:
    """What one batch did: the messages delivered (committed), whether the batch was
    full (more may wait), and ``retry``: why the agent must enter its retry state (the
    batch, if any, backed out), or "" when all went well."""

    delivered: list[Delivered]
    full: bool = False
    retry: str = ""
    #: The retry is its serialization refused (``conntag.NotSerializedError``), which
    #: the agent logs as a shared channel's agent logs it.
    refused: bool = False


class _RetryError(MQMIError):
    """A persistent message neither delivered nor dead-lettered: the batch goes back."""


class Agent:
    """One member's IGQ agent: its connection to its queue manager and its batches."""

    def __init__(self, qm: QMgr) -> None:
        self.qm = qm
        self.conn: Connection | None = None

    def batch(self, now: float) -> Batch:
        """Deliver up to ``igq.BATCH_SIZE`` messages for this member and commit."""
        qm = self.qm
        found = qm.find(igq.IGQ_XMITQ)
        if found is None:
            return Batch([], retry=f"{igq.IGQ_XMITQ} is not defined")
        if not igq.usable(found[1]):
            return Batch(
                [],
                retry=f"{igq.IGQ_XMITQ} is not a shared USAGE(XMITQ) queue with INDXTYPE(CORRELID)",
            )
        if self.conn is None or not self.conn.connected:
            # It serializes its access to the shared queues by its connection tag, as a
            # shared channel's MCA does ("The intra-group queuing agent and
            # Serialization"): while the peer recovery of an earlier life of its member
            # still holds the tag, it retries.
            try:
                self.conn = qm.connect_agent(
                    "IGQ", qm.name, user=_own_user(qm), appl_name=AGENT_APPL_NAME
                )
            except conntag.NotSerializedError as refused:
                return Batch([], retry=refused.line, refused=True)
        conn = self.conn
        try:
            xmitq = conn.open(igq.IGQ_XMITQ, CMQC.MQOO_INPUT_SHARED)
        except MQMIError as error:  # its structure failed, say: the agent retries
            return Batch([], retry=f"{igq.IGQ_XMITQ} cannot be opened: {error}")
        delivered: list[Delivered] = []
        try:
            while len(delivered) < igq.BATCH_SIZE:
                outer = MD(CorrelId=igq.correl_id(qm.name))
                gmo = GMO(Options=_GET, MatchOptions=CMQC.MQMO_MATCH_CORREL_ID)
                try:
                    data = xmitq.get(None, outer, gmo, now=now)
                except MQMIError as error:
                    if error.reason == CMQC.MQRC_NO_MSG_AVAILABLE:
                        break
                    raise
                done = self._deliver(outer, data, now)
                if done is not None:
                    delivered.append(done)
        except MQMIError as error:
            conn.backout()
            return Batch([], retry=f"{error} (its persistent messages backed out)")
        finally:
            xmitq.close()
        conn.commit()
        return Batch(delivered, full=len(delivered) == igq.BATCH_SIZE)

    def _deliver(self, outer: MD, data: bytes, now: float) -> Delivered | None:
        """Put one message where its MQXQH says, or discard or dead-letter it."""
        header = XQH.unpack(data, outer.Encoding)
        md = header.MsgDesc
        body = data[CMQC.MQXQH_LENGTH_1 :]
        target = name_of(header.RemoteQName).decode("latin-1")
        persistent = md.Persistence == CMQC.MQPER_PERSISTENT
        sender = name_of(outer.UserIdentifier).decode("latin-1")
        try:
            handle = self._open(target, sender, md)
            try:
                options = CMQC.MQPMO_SYNCPOINT if persistent else CMQC.MQPMO_NO_SYNCPOINT
                handle.put(body, md, PMO(Options=options | CMQC.MQPMO_SET_ALL_CONTEXT), now=now)
            except MQMIError as error:
                if error.comp != CMQC.MQCC_WARNING:  # a warning: the message is there
                    raise
            finally:
                handle.close()
        except MQMIError as error:
            self._undelivered(md, body, target, error.reason, persistent, now)
            return None
        return Delivered(
            handle.queue, md.MsgId, len(body), persistent, md.Expiry, handle.repository.store
        )

    def _open(self, target: str, sender: str, md: MD) -> Handle:
        """The destination opened as IGQAUT says: MQRC_NOT_AUTHORIZED when a user ID the
        table names may not put to it."""
        qm = self.qm
        alternate = name_of(md.UserIdentifier).decode("latin-1")
        for user in igq.checked_users(qm.igq_put_authority, sender, qm.igq_user_id, alternate):
            if not qm.authorized(user, target, "put"):
                raise MQMIError.failed(
                    CMQC.MQRC_NOT_AUTHORIZED, f"IGQAUT: user {user} may not put to {target}"
                )
        assert self.conn is not None
        od = OD(ObjectName=target.encode("latin-1"), ObjectQMgrName=qm.name.encode())
        return self.conn.open(od, _OPEN_DESTINATION)

    def _undelivered(
        self, md: MD, body: bytes, target: str, reason: int, persistent: bool, now: float
    ) -> None:
        """A message its destination refused: report, then discard or dead-letter it;
        a persistent one that cannot be dead-lettered raises ``_RetryError``."""
        qm = self.qm
        report = exception_report(
            md, body, reason, q_mgr_name=qm.name, new_msg_id=qm.rules.new_msg_id
        )
        if report is not None:
            qm.send_report(report, md.MsgId, now)
        if md.Report & CMQC.MQRO_DISCARD_MSG:
            qm.emit(Discarded(now, qm.name, target, md.MsgId, "igq"))
            return
        if qm.dead_letter(md, body, reason, target, qm.name, now):
            return
        if persistent:
            raise _RetryError(
                CMQC.MQCC_FAILED,
                reason,
                f"a persistent message for {target} could be neither put nor dead-lettered",
            )
        qm.emit(Discarded(now, qm.name, target, md.MsgId, "igq"))

    def end(self) -> None:
        """The agent stops with its queue manager: a batch not committed goes back."""
        if self.conn is not None:
            self.conn.terminate()
            self.conn = None


def _own_user(qm: QMgr) -> str:
    """The queue manager's own user ID, which no authority check refuses."""
    if qm.authority is None:
        return qm.name
    return sorted(qm.authority.superusers)[0]


__all__ = ["AGENT_APPL_NAME", "Agent", "Batch", "Delivered"]
