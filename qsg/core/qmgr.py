"""A queue manager in the rules layer: its queues, connections, handles and reports.

Synchronous and I/O-free: each call takes ``now``. The actors layer wraps one of these
per simulated queue manager; tests and benchmarks drive it directly.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator
from datetime import UTC, datetime
from fnmatch import fnmatchcase
from typing import Any

from qsg import CMQC
from qsg.core import engine
from qsg.core.engine import PutIdentity, QMgrRules
from qsg.core.errors import MQMIError
from qsg.core.events import DeadLettered, Discarded, Event, EventSink, ReportLost, ReportPut
from qsg.core.groups import HandleState
from qsg.core.layouts import DLH
from qsg.core.memstore import MemoryStore
from qsg.core.message import Message
from qsg.core.queue import QueueDefinition
from qsg.core.reports import Report, expiration_report
from qsg.core.stamp import PutStamp
from qsg.core.store import MessageStore
from qsg.core.structs import GMO, MD, OD, PMO, name_of
from qsg.core.uow import UnitOfWork

DEFAULT_DLQ = "SYSTEM.DEAD.LETTER.QUEUE"
#: Simulated time 0 is this moment, for PutDate and PutTime.
DEFAULT_EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
_INPUT = CMQC.MQOO_INPUT_AS_Q_DEF | CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_INPUT_EXCLUSIVE
_BROWSE = (
    CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_BROWSE_NEXT | CMQC.MQGMO_BROWSE_MSG_UNDER_CURSOR
)
_ACCESS = _INPUT | CMQC.MQOO_BROWSE | CMQC.MQOO_OUTPUT | CMQC.MQOO_INQUIRE | CMQC.MQOO_SET


class QMgr:
    """A queue manager's rules: queues over a message store, and the MQI on them.

    ``enforce_max_expiry`` is IBM's AMQ_ENFORCE_MAX_EXPIRY_ERROR (off unless asked for,
    as in MQ). ``platform`` MQPL_ZOS makes syncpoint the default for put and get.
    """

    def __init__(
        self,
        name: str,
        *,
        store: MessageStore | None = None,
        platform: int = CMQC.MQPL_ZOS,
        max_uncommitted_msgs: int = 10_000,
        max_msg_length: int = 104_857_600,
        enforce_max_expiry: bool = False,
        dead_letter_queue: str | None = DEFAULT_DLQ,
        epoch: datetime = DEFAULT_EPOCH,
        incarnation: int = 0,
        on_event: EventSink | None = None,
    ) -> None:
        if not 1 <= len(name) <= 48:
            raise ValueError(f"a queue manager name has 1 to 48 characters: {name!r}")
        self.name = name
        self.store: MessageStore = store if store is not None else MemoryStore()
        self.epoch = epoch
        self.on_event = on_event
        self.queues: dict[str, QueueDefinition] = {}
        self.dead_letter_queue = dead_letter_queue
        ids = itertools.count(incarnation << 40)
        prefix = b"AMQ " + name.encode()[:12].ljust(12)
        self.rules = QMgrRules(
            name=name,
            platform=platform,
            max_uncommitted_msgs=max_uncommitted_msgs,
            max_msg_length=max_msg_length,
            enforce_max_expiry=enforce_max_expiry,
            new_msg_id=lambda: prefix + next(ids).to_bytes(8, "big"),
            stamp=PutStamp(epoch),
        )
        self._connections = itertools.count(1)
        self._identity = PutIdentity(b"", name.encode()[:28], CMQC.MQAT_QMGR)
        if dead_letter_queue:
            self.define_queue(dead_letter_queue, max_depth=999_999_999)

    # ---- objects --------------------------------------------------------------
    def define_queue(self, name: str, **attributes: Any) -> QueueDefinition:
        """DEFINE QLOCAL: a local queue with the attributes of ``QueueDefinition``."""
        if name in self.queues:
            raise MQMIError.failed(CMQC.MQRC_OBJECT_IN_USE, f"queue {name} is already defined")
        qdef = QueueDefinition(name=name, **attributes)
        self.store.create_queue(name, qdef.ordering)
        self.queues[name] = qdef
        return qdef

    def alter_queue(self, name: str, **attributes: Any) -> QueueDefinition:
        """ALTER QLOCAL: change attributes (not the delivery sequence of a full queue)."""
        qdef = dataclasses.replace(self.queue(name), **attributes)
        self.queues[name] = qdef
        return qdef

    def queue(self, name: str) -> QueueDefinition:
        try:
            return self.queues[name]
        except KeyError:
            raise MQMIError.failed(
                CMQC.MQRC_UNKNOWN_OBJECT_NAME, f"no queue {name} on {self.name}"
            ) from None

    def depth(self, name: str) -> int:
        return self.store.depth(self.queue(name).name)

    # ---- connections ----------------------------------------------------------
    def connect(self, user: str = "qsg", appl_name: str = "qsg") -> Connection:
        """MQCONN: a connection with its own unit of work."""
        return Connection(self, next(self._connections), user, appl_name)

    # ---- expiry: discards, reports, scans -------------------------------------
    def discarded(self, queue: str, messages: list[Message], by: str, now: float) -> None:
        """Account for expired messages a get, browse or scan removed: events and reports.

        The report is put now, outside any unit of work (expiry-mqmd.txt notes 3 and 4).
        """
        for msg in messages:
            self._emit(Discarded(now, self.name, queue, msg.msg_id, by))
            report = expiration_report(
                msg, q_mgr_name=self.name, new_msg_id=self.rules.new_msg_id
            )
            if report is not None:
                self.send_report(report, msg.msg_id, now)

    def send_report(self, report: Report, original_msg_id: bytes, now: float) -> None:
        """Put a report to its ReplyToQ, else to the dead-letter queue, never in a UOW."""
        dest, dest_qmgr = report.reply_to_q, report.reply_to_q_mgr
        reason = CMQC.MQRC_UNKNOWN_REMOTE_Q_MGR
        if dest_qmgr in ("", self.name):
            try:
                self._put_system(dest, report.md, report.body, now)
            except MQMIError as error:
                reason = error.reason
            else:
                self._emit(
                    ReportPut(
                        now, self.name, dest, report.md.MsgId, original_msg_id, report.md.Feedback
                    )
                )
                return
        if not self.dead_letter(report.md, report.body, reason, dest, dest_qmgr, now):
            self._emit(ReportLost(now, self.name, dest, original_msg_id, reason))

    def dead_letter(
        self, md: MD, body: bytes, reason: int, dest_q: str, dest_q_mgr: str, now: float
    ) -> bool:
        """Put a message to the dead-letter queue behind an MQDLH; False if that failed.

        The descriptor keeps the remaining Expiry it has, which goes on decrementing on
        the dead-letter queue (expiry-mqmd.txt note 7).
        """
        if not self.dead_letter_queue:
            return False
        header = DLH(
            Reason=reason,
            DestQName=dest_q.encode(),
            DestQMgrName=(dest_q_mgr or self.name).encode(),
            Encoding=md.Encoding,
            CodedCharSetId=md.CodedCharSetId,
            Format=md.Format,
            PutApplName=self.name.encode()[:28],
        )
        dl_md = MD(**md.get())
        dl_md.Format = CMQC.MQFMT_DEAD_LETTER_HEADER
        try:
            self._put_system(self.dead_letter_queue, dl_md, header.pack(md.Encoding) + body, now)
        except MQMIError:
            return False
        self._emit(DeadLettered(now, self.name, self.dead_letter_queue, md.MsgId, reason))
        return True

    def _put_system(self, queue: str, md: MD, body: bytes, now: float) -> None:
        """A put the queue manager makes itself: its own context, outside any UOW."""
        pmo = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT | CMQC.MQPMO_SET_ALL_CONTEXT)
        if not md.PutDate.strip():
            md.PutDate, md.PutTime = self.rules.stamp(now)
        qdef = self.queue(queue)
        engine.put(self.rules, self.store, qdef, body, md, pmo, None, self._identity, now)

    def worth_scanning(self, now: float) -> Iterator[str]:
        """The queues whose expired messages a scan would discard now."""
        return (name for name in self.queues if self.store.worth_scanning(name, now))

    def scan_expired(self, now: float, pattern: str = "*") -> int:
        """Discard expired messages from the queues worth scanning that match ``pattern``.

        EXPRYINT's periodic scan (pattern ``*``) and REFRESH QMGR TYPE(EXPIRY)
        NAME(pattern). Costs what expired, not the depth. Returns how many were discarded.
        """
        total = 0
        for name in [n for n in self.worth_scanning(now) if fnmatchcase(n, pattern)]:
            gone = self.store.scan(name, now)
            self.discarded(name, gone, "scan", now)
            total += len(gone)
        return total

    def _emit(self, event: Event) -> None:
        if self.on_event is not None:
            self.on_event(event)


class Connection:
    """MQCONN's connection handle: opens queues and owns one unit of work."""

    def __init__(self, qmgr: QMgr, number: int, user: str, appl_name: str) -> None:
        self.qmgr = qmgr
        self.identity = PutIdentity(user.encode()[:12], appl_name.encode()[:28], CMQC.MQAT_UNIX)
        self.uow = UnitOfWork((qmgr.name, number))
        self.connected = True

    def open(self, target: str | bytes | OD, options: int) -> Handle:
        """MQOPEN a local queue by name (or OD) with MQOO_* options."""
        self._check_connected()
        if isinstance(target, OD):
            name = name_of(target.ObjectName).decode()
        else:
            name = name_of(target.encode() if isinstance(target, str) else target).decode()
        if not options & _ACCESS:
            raise MQMIError.failed(
                CMQC.MQRC_OPTIONS_ERROR,
                "open needs an input, browse, output, inquire or set option",
            )
        input_options = options & _INPUT
        if input_options & (input_options - 1):
            raise MQMIError.failed(CMQC.MQRC_OPTIONS_ERROR, "more than one MQOO_INPUT_* option")
        qdef = self.qmgr.queue(name)
        if isinstance(target, OD):
            target.ResolvedQName = qdef.name.encode()
            target.ResolvedQMgrName = self.qmgr.name.encode()
        return Handle(self, qdef.name, options)

    def put1(
        self, target: str | bytes | OD, body: bytes, md: MD | None, pmo: PMO | None, *, now: float
    ) -> None:
        """MQPUT1: open for output, put one message, close.

        MQPUT1 keeps no handle, so no group position: MQPMO_LOGICAL_ORDER is refused.
        """
        if pmo is not None and pmo.Options & CMQC.MQPMO_LOGICAL_ORDER:
            raise MQMIError.failed(
                CMQC.MQRC_OPTIONS_ERROR, "MQPMO_LOGICAL_ORDER needs an open handle (not MQPUT1)"
            )
        handle = self.open(target, CMQC.MQOO_OUTPUT)
        try:
            handle.put(body, md, pmo, now=now)
        finally:
            handle.close()

    def commit(self) -> None:
        """MQCMIT: uncommitted puts become visible, uncommitted gets are gone for good."""
        self._check_connected()
        self.uow.commit()

    def backout(self) -> None:
        """MQBACK: uncommitted puts vanish; uncommitted gets return with BackoutCount + 1."""
        self._check_connected()
        self.uow.backout()

    def disconnect(self) -> None:
        """MQDISC: a normal end commits the unit of work, as MQ does."""
        if self.connected:
            self.uow.commit()
            self.connected = False

    def _check_connected(self) -> None:
        if not self.connected:
            raise MQMIError.failed(CMQC.MQRC_HCONN_ERROR, "the connection is disconnected")



class Handle:
    """MQOPEN's object handle on a local queue: put, get, browse, inquire, set, close."""

    def __init__(self, conn: Connection, queue: str, options: int) -> None:
        self.conn = conn
        self.name = queue
        self.options = options
        self.open = True
        self.state = HandleState()

    def put(
        self, body: bytes | str, md: MD | None = None, pmo: PMO | None = None, *, now: float
    ) -> None:
        """MQPUT. A ``str`` is sent as UTF-8 with MQFMT_STRING, as pymqi does."""
        self._check(CMQC.MQOO_OUTPUT, CMQC.MQRC_NOT_OPEN_FOR_OUTPUT)
        md = MD() if md is None else md
        if isinstance(body, str):
            body = body.encode()
            md.Format, md.CodedCharSetId = CMQC.MQFMT_STRING, CMQC.MQCCSI_UTF8
        qm = self.conn.qmgr
        engine.put(
            qm.rules,
            qm.store,
            qm.queue(self.name),
            body,
            md,
            PMO() if pmo is None else pmo,
            self.conn.uow,
            self.conn.identity,
            now,
            self.state,
        )

    def get(
        self, max_length: int | None = None, md: MD | None = None, gmo: GMO | None = None,
        *, now: float,
    ) -> bytes:  # fmt: skip
        """MQGET (a browse with MQGMO_BROWSE_*). ``max_length`` None takes any length."""
        md = MD() if md is None else md
        gmo = GMO() if gmo is None else gmo
        browse = gmo.Options & _BROWSE
        if browse:
            self._check(CMQC.MQOO_BROWSE, CMQC.MQRC_NOT_OPEN_FOR_BROWSE)
        else:
            self._check(_INPUT, CMQC.MQRC_NOT_OPEN_FOR_INPUT)
        qm = self.conn.qmgr
        qdef = qm.queue(self.name)
        taken, error = engine.get(
            qm.rules, qm.store, qdef, md, gmo, max_length, self.conn.uow, self.state, self, now
        )
        if taken.discarded:
            qm.discarded(self.name, list(taken.discarded), "browse" if browse else "get", now)
        if error is not None:
            raise error
        if gmo.Options & CMQC.MQGMO_UNLOCK and not browse:
            return b""
        return engine.finish_get(taken, md, gmo, max_length, qdef, now)

    def inquire(self, selector: int) -> int | bytes:
        """MQINQ of one attribute: MQIA_* gives an int, MQCA_* blank-padded bytes."""
        self._check(CMQC.MQOO_INQUIRE, CMQC.MQRC_NOT_OPEN_FOR_INQUIRE)
        qm = self.conn.qmgr
        qdef = qm.queue(self.name)
        if selector == CMQC.MQIA_CURRENT_Q_DEPTH:
            return qm.store.depth(self.name)
        values: dict[int, int | bytes] = {
            CMQC.MQIA_MAX_Q_DEPTH: qdef.max_depth,
            CMQC.MQIA_MAX_MSG_LENGTH: qdef.max_msg_length,
            CMQC.MQIA_DEF_PRIORITY: qdef.def_priority,
            CMQC.MQIA_DEF_PERSISTENCE: qdef.def_persistence,
            CMQC.MQIA_INHIBIT_GET: qdef.inhibit_get,
            CMQC.MQIA_INHIBIT_PUT: qdef.inhibit_put,
            CMQC.MQIA_MSG_DELIVERY_SEQUENCE: qdef.msg_delivery_sequence,
            CMQC.MQIA_USAGE: qdef.usage,
            CMQC.MQIA_INDEX_TYPE: qdef.index_type,
            CMQC.MQIA_QSG_DISP: qdef.qsg_disp,
            CMQC.MQIA_Q_TYPE: CMQC.MQQT_LOCAL,
            CMQC.MQIA_DEFINITION_TYPE: qdef.definition_type,
            CMQC.MQIA_MAX_UNCOMMITTED_MSGS: qm.rules.max_uncommitted_msgs,
            CMQC.MQCA_Q_NAME: qdef.name.encode().ljust(48),
            CMQC.MQCA_Q_MGR_NAME: qm.name.encode().ljust(48),
        }
        try:
            return values[selector]
        except KeyError:
            raise MQMIError.failed(CMQC.MQRC_SELECTOR_ERROR, f"selector {selector}") from None

    def set(self, selector: int, value: int) -> None:
        """MQSET: MQIA_INHIBIT_PUT or MQIA_INHIBIT_GET."""
        self._check(CMQC.MQOO_SET, CMQC.MQRC_NOT_OPEN_FOR_SET)
        fields = {CMQC.MQIA_INHIBIT_PUT: "inhibit_put", CMQC.MQIA_INHIBIT_GET: "inhibit_get"}
        if selector not in fields:
            raise MQMIError.failed(CMQC.MQRC_SELECTOR_ERROR, f"MQSET selector {selector}")
        if value not in (0, 1):
            raise MQMIError.failed(CMQC.MQRC_SELECTOR_ERROR, f"inhibit value {value}")
        self.conn.qmgr.alter_queue(self.name, **{fields[selector]: value})

    def close(self, options: int = CMQC.MQCO_NONE) -> None:
        """MQCLOSE."""
        if not self.open:
            raise MQMIError.failed(CMQC.MQRC_HOBJ_ERROR, f"{self.name} is already closed")
        self.open = False
        if self.state.locked is not None:
            self.conn.qmgr.store.unlock(self.name, self)
        if self.state.put_group is not None and self.state.put_group.in_group:
            raise MQMIError(
                CMQC.MQCC_WARNING,
                CMQC.MQRC_INCOMPLETE_GROUP,
                f"{self.name} closed with a message group not completed",
            )

    def _check(self, needed: int, reason: int) -> None:
        if self.open and self.conn.connected and self.options & needed:
            return
        if not self.open:
            raise MQMIError.failed(CMQC.MQRC_HOBJ_ERROR, f"{self.name} is closed")
        self.conn._check_connected()
        if not self.options & needed:
            raise MQMIError.failed(reason, f"{self.name} was not opened for that")


__all__ = ["Connection", "Handle", "QMgr"]
