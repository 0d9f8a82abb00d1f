"""MQOPEN's object handle: put, get, browse, inquire, set and close on the queue an
open resolved to, with dynamic-queue deletion at close (IBM: "Dynamic queues")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from qsg import CMQC
from qsg.core import attributes, engine, igq, mqlong, perfevents, qmgrevents, trigger
from qsg.core.engine import PutIdentity, QMgrRules
from qsg.core.errors import MQMIError
from qsg.core.groups import HandleState
from qsg.core.message import Message
from qsg.core.objects import AliasQueue, RemoteQueue, queue_attributes
from qsg.core.outcome import Done
from qsg.core.queue import QueueDefinition
from qsg.core.repository import Repository
from qsg.core.resolve import Resolution
from qsg.core.structs import CCSID_UTF8, GMO, INPUT_OPTIONS, MD, PMO
from qsg.core.trigger import TriggeringQueueManager
from qsg.core.uow import UnitOfWork

_BROWSE = CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_BROWSE_NEXT | CMQC.MQGMO_BROWSE_MSG_UNDER_CURSOR
_DELETE = CMQC.MQCO_DELETE | CMQC.MQCO_DELETE_PURGE
_CLOSE_OPTIONS = _DELETE | CMQC.MQCO_KEEP_SUB | CMQC.MQCO_REMOVE_SUB | CMQC.MQCO_QUIESCE
# Every selector some queue type answers: MQINQ of another type is MQRC_SELECTOR_NOT_FOR_TYPE.
_QUEUE_SELECTORS = frozenset(
    attributes.selectors(attributes.QUEUES).keys()
    | {CMQC.MQCA_Q_MGR_NAME, CMQC.MQIA_MAX_UNCOMMITTED_MSGS}
)
# The selectors MQSET changes on some type of queue (IBM: "MQSET"), and their rows.
_SETTABLE = attributes.selectors(attributes.QUEUES, settable=True)
_MOST_BACKOUTS_SHOWN = 255  # BackoutCount on z/OS


class HandleQueueManager(
    TriggeringQueueManager,
    perfevents.PerformanceQueueManager,
    qmgrevents.EventingQueueManager,
    igq.GroupDirectory,
    Protocol,
):
    """What a handle uses of the queue manager its connection is to (``QMgr``): the
    rules a put or get goes by, its clock (set to each call's ``now``), its objects
    and their authority, and what follows a call (discards, triggering, deletion,
    performance events). The trigger rules' part is there too: a handle's close can
    fire a trigger."""

    time: float

    @property
    def qsg(self) -> perfevents.EventGroup | None: ...

    @property
    def rules(self) -> QMgrRules: ...

    def trigger_check(
        self, repo: Repository, qdef: QueueDefinition, uow: UnitOfWork | None, now: float
    ) -> Callable[[Message, bool], None] | None: ...
    def discarded(self, queue: str, messages: list[Message], by: str, now: float) -> None: ...
    def triggering_changed(self, old: QueueDefinition, new: QueueDefinition) -> None: ...
    def authorized(self, user: str, name: str, operation: str) -> bool: ...
    def reap(self) -> None: ...


class HandleOwner(Protocol):
    """What a handle uses of the connection it was opened on (``Connection``): its queue
    manager, its unit of work and put identity, whether it is still connected, and its
    list of open handles (a closed handle leaves it)."""

    @property
    def qmgr(self) -> HandleQueueManager: ...
    @property
    def number(self) -> int: ...
    @property
    def uow(self) -> UnitOfWork: ...
    @property
    def identity(self) -> PutIdentity: ...
    @property
    def connected(self) -> bool: ...
    @property
    def handles(self) -> list[Handle]: ...

    def check_connected(self) -> None: ...


class Handle:
    """An open queue. ``name`` is the resolved queue name (a dynamic queue's generated
    name, an alias's base queue, a remote queue's name at its queue manager)."""

    def __init__(self, conn: HandleOwner, res: Resolution, options: int, user: str) -> None:
        self.conn = conn
        self.repository = res.repository
        self.queue = res.queue.name  # the local queue worked on (a transmission queue too)
        self.name = res.remote[0] if res.remote else self.queue
        self.opened = res.opened
        self.via = res.via
        self.remote = res.remote
        self.status = res.repository.status[self.queue]
        self.options = options
        self.user = user  # the user the open was checked for
        self.open = True
        #: MQGET calls with MQGMO_WAIT waiting on it now (the actors count them):
        #: DISPLAY CONN's HSTATE(ACTIVE), "an MQGET WAIT call is in progress".
        self.waiting = 0
        self.state = HandleState()
        #: What the handle's last MQPUT that completed with MQCC_OK decided (MQPUT1
        #: returns its closed handle: this says how its put went).
        self.done: Done | None = None
        #: The handle's name in a shared store (its locks): queue manager first, so that
        #: peer recovery can release a failed member's.
        self.store_token = f"{conn.qmgr.name}/{conn.number}/{id(self):x}"
        #: Toward another member of the group: IGQ's state at open (``igq.path_state``),
        #: which a put compares with its own (MQRC_OBJECT_CHANGED); else None.
        self.igq_seen = (
            igq.path_state(conn.qmgr)
            if res.remote is not None and conn.qmgr.group_member(res.remote[1])
            else None
        )
        #: The ordinary transmission queue, for a message too long for IGQ.
        self.conventional = res.conventional if res.igq else None

    # ---- MQPUT ----------------------------------------------------------------
    def put(
        self, body: bytes | str, md: MD | None = None, pmo: PMO | None = None, *, now: float
    ) -> Done:
        """MQPUT. A ``str`` is sent as UTF-8 with MQFMT_STRING, as pymqi does. Returns
        what the put decided (in the unit of work or not, persistent or not); a warning
        carries it as ``MQMIError.done``."""
        self._check(CMQC.MQOO_OUTPUT, CMQC.MQRC_NOT_OPEN_FOR_OUTPUT)
        md = MD() if md is None else md
        pmo = PMO() if pmo is None else pmo
        mqlong.check_put(md, pmo)
        if type(body) is not bytes:
            body = _buffer(body, md)
        qm = self.conn.qmgr
        qm.time = now
        repository = self.repository
        qdef: QueueDefinition = repository.queues[self.queue]  # type: ignore[assignment]
        if self.igq_seen is not None:
            repository, qdef = self._igq_route(qm, repository, qdef, len(body))
        self.done = None
        try:
            self.done = engine.put(
                qm.rules,
                repository.store,
                qdef,
                body,
                md,
                pmo,
                self.conn.uow,
                self.conn.identity,
                now,
                self.state,
                via=None if self.via is None else self._current_via(),
                remote=self.remote,
                # The trigger check's hook, only for a queue that triggers at all (what
                # ``trigger_check`` decides first): the common put calls nothing.
                stored=qm.trigger_check(repository, qdef, self.conn.uow, now)
                if qdef.trigger_control == CMQC.MQTC_ON
                else None,
                structures=repository.structures,
            )
        except MQMIError as error:
            if qm.performance_event:
                perfevents.put_refused(qm, repository, qdef, error, now, qm.qsg)
            if error.reason == CMQC.MQRC_PUT_INHIBITED:
                qmgrevents.refused(qm, error, self._od_name, self.conn.identity, now)
            raise
        if qm.performance_event:  # PERFMEV(DISABLED), the usual case, pays one test
            perfevents.after_put(qm, repository, qdef, now, qm.qsg)
        return self.done

    @property
    def _od_name(self) -> str:
        """The queue as the application's object descriptor named it (an alias's name,
        not its base queue's)."""
        return self.opened.name if self.opened is not None else self.name

    def _igq_route(
        self, qm: HandleQueueManager, repository: Repository, qdef: QueueDefinition, length: int
    ) -> tuple[Repository, QueueDefinition]:
        """A put toward another member: MQRC_OBJECT_CHANGED (2041) when IGQ was switched,
        or SYSTEM.QSG.TRANSMIT.QUEUE redefined, since the open ("Specific properties of
        intra-group queuing"); a message too long for IGQ takes the ordinary route."""
        if igq.path_state(qm) != self.igq_seen:
            raise MQMIError.failed(
                CMQC.MQRC_OBJECT_CHANGED,
                f"{self.name}: IGQ or {igq.IGQ_XMITQ} changed since the MQOPEN; close and reopen",
            )
        if self.conventional is None or igq.fits(length, qdef):
            return repository, qdef
        return self.conventional

    def _current_via(self) -> AliasQueue | RemoteQueue | None:
        """The alias or remote definition as it is now: ALTER applies to open handles."""
        if self.via is None:
            return None
        found = self.conn.qmgr.find(self.via.name)
        obj = found[1] if found else None
        return obj if isinstance(obj, AliasQueue | RemoteQueue) else self.via

    # ---- MQGET ----------------------------------------------------------------
    def get(
        self,
        max_length: int | None = None,
        md: MD | None = None,
        gmo: GMO | None = None,
        *,
        now: float,
    ) -> bytes:
        """MQGET (a browse with MQGMO_BROWSE_*). ``max_length`` None takes any length."""
        return self.receive(max_length, md, gmo, now=now)[0]

    def receive(
        self,
        max_length: int | None = None,
        md: MD | None = None,
        gmo: GMO | None = None,
        *,
        now: float,
    ) -> tuple[bytes, Done | None]:
        """MQGET as ``get``, with what it decided for the message (in the unit of work or
        not, persistent or not; None for MQGMO_UNLOCK, which returns none). A warning
        carries it as ``MQMIError.done``, and the data as ``MQMIError.message``."""
        if max_length is not None and (type(max_length) is not int or max_length < 0):
            raise MQMIError.failed(
                CMQC.MQRC_BUFFER_LENGTH_ERROR,
                f"the buffer length must be a whole number of bytes, 0 or more: {max_length!r}",
            )
        md = MD() if md is None else md
        gmo = GMO() if gmo is None else gmo
        mqlong.check_get(md, gmo)
        browse = gmo.Options & _BROWSE
        if browse:
            self._check(CMQC.MQOO_BROWSE, CMQC.MQRC_NOT_OPEN_FOR_BROWSE)
        else:
            self._check(INPUT_OPTIONS, CMQC.MQRC_NOT_OPEN_FOR_INPUT)
        if self.via is not None:
            via = self._current_via()
            if isinstance(via, AliasQueue) and via.inhibit_get == CMQC.MQQA_GET_INHIBITED:
                refusal = MQMIError.failed(
                    CMQC.MQRC_GET_INHIBITED, f"gets are inhibited on {via.name}"
                )
                qmgrevents.refused(self.conn.qmgr, refusal, self._od_name, self.conn.identity, now)
                raise refusal
        qm = self.conn.qmgr
        qm.time = now
        store = self.repository.store
        qdef: QueueDefinition = self.repository.queues[self.queue]  # type: ignore[assignment]
        try:
            taken, error, done = engine.get(
                qm.rules, store, qdef, md, gmo, max_length, self.conn.uow, self.state, self, now
            )
        except MQMIError as refusal:
            if refusal.reason == CMQC.MQRC_GET_INHIBITED:
                qmgrevents.refused(qm, refusal, self._od_name, self.conn.identity, now)
            raise
        if taken.discarded:
            qm.discarded(self.queue, list(taken.discarded), "browse" if browse else "get", now)
        if qm.performance_event and not browse and (taken.message or taken.discarded):
            got = taken.message is not None and not taken.too_long
            perfevents.after_get(qm, self.repository, qdef, got, now, qm.qsg)
        if error is not None and error.comp == CMQC.MQCC_FAILED:
            raise error
        if gmo.Options & CMQC.MQGMO_UNLOCK and not browse:
            return b"", None
        try:
            body = engine.finish_get(taken, md, gmo, max_length, qdef, now)
        except MQMIError as truncated:
            truncated.done = done if truncated.comp == CMQC.MQCC_WARNING else None
            raise
        finally:
            # "On z/OS, a value of 255 means that the message has been backed out 255 or
            # more times; the value returned is never greater than 255" (BackoutCount).
            if md.BackoutCount > _MOST_BACKOUTS_SHOWN and qm.rules.platform == CMQC.MQPL_ZOS:
                md.BackoutCount = _MOST_BACKOUTS_SHOWN
        if error is not None:  # a warning: the message is the caller's all the same
            error.message, error.done = body, done
            raise error
        return body, done

    # ---- MQINQ and MQSET ------------------------------------------------------
    def inquire(self, selector: int) -> int | bytes:
        """MQINQ of one attribute of the object opened (an alias's own, not its base's):
        MQIA_* gives an int, MQCA_* blank-padded bytes."""
        self._check(CMQC.MQOO_INQUIRE, CMQC.MQRC_NOT_OPEN_FOR_INQUIRE)
        qm = self.conn.qmgr
        opened = self._current_opened()
        values = queue_attributes(opened, qm.name)
        if isinstance(opened, QueueDefinition):
            values[CMQC.MQIA_CURRENT_Q_DEPTH] = self.repository.store.depth(self.queue)
            values[CMQC.MQIA_OPEN_INPUT_COUNT] = sum(
                1 for o in self.status.handles.values() if o & INPUT_OPTIONS
            )
            values[CMQC.MQIA_OPEN_OUTPUT_COUNT] = sum(
                1 for o in self.status.handles.values() if o & CMQC.MQOO_OUTPUT
            )
        values[CMQC.MQIA_MAX_UNCOMMITTED_MSGS] = qm.rules.max_uncommitted_msgs
        try:
            return values[selector]
        except KeyError:
            detail = f"selector {selector} on {opened.name}"
            if selector in _QUEUE_SELECTORS:
                # "The call completes with MQCC_WARNING" (2068): MQINQ did its work, the
                # attribute is not applicable to this type of queue.
                raise MQMIError(
                    CMQC.MQCC_WARNING, CMQC.MQRC_SELECTOR_NOT_FOR_TYPE, detail
                ) from None
            raise MQMIError.failed(CMQC.MQRC_SELECTOR_ERROR, detail) from None

    def set(self, selector: int, value: int | bytes) -> None:
        """MQSET of the object opened: the attributes IBM lets MQSET change (the table's
        settable rows: MQIA_INHIBIT_PUT, MQIA_INHIBIT_GET, and a local queue's
        triggering). A value MQ refuses is the row's reason code (MQRC_INHIBIT_VALUE_ERROR,
        MQRC_TRIGGER_*_ERROR, MQRC_CHAR_ATTR_LENGTH_ERROR); a selector MQSET never
        changes, or one of another type of queue, MQRC_SELECTOR_ERROR (2067: "not
        applicable to the type of object ... set"; 2068 is MQINQ's alone). Triggering
        turned on while its conditions already stand writes a trigger message."""
        self._check(CMQC.MQOO_SET, CMQC.MQRC_NOT_OPEN_FOR_SET)
        row = _SETTABLE.get(selector) if type(selector) is int else None
        if row is None:
            raise MQMIError.failed(CMQC.MQRC_SELECTOR_ERROR, f"MQSET selector {selector!r}")
        try:
            new = attributes.mqset_value(row, value)
        except ValueError:
            raise MQMIError.failed(
                row.set_error, f"MQSET of selector {selector} to {value!r}"
            ) from None
        opened = self._current_opened()
        if attributes.queue_type(opened.q_type) not in row.objects:
            raise MQMIError.failed(
                CMQC.MQRC_SELECTOR_ERROR, f"selector {selector} on {opened.name}"
            )
        changed = attributes.changed(opened, row, new)
        qm = self.conn.qmgr
        qm.define(changed, replace=True)
        if isinstance(opened, QueueDefinition) and isinstance(changed, QueueDefinition):
            qm.triggering_changed(opened, changed)

    def _current_opened(self) -> QueueDefinition | AliasQueue | RemoteQueue:
        if self.opened is None:  # a queue at another queue manager, not inquirable
            raise MQMIError.failed(CMQC.MQRC_NOT_OPEN_FOR_INQUIRE, f"{self.name} is remote")
        found = self.conn.qmgr.find(self.opened.name)
        return found[1] if found else self.opened

    # ---- MQCLOSE --------------------------------------------------------------
    def close(self, options: int = CMQC.MQCO_NONE) -> None:
        """MQCLOSE, deleting a dynamic queue as IBM's "Dynamic queues" says.

        The creating handle's close deletes a temporary dynamic queue whatever the
        options. MQCO_DELETE / MQCO_DELETE_PURGE delete a permanent dynamic queue: the
        first fails with MQRC_Q_NOT_EMPTY if any message (committed or not) is on it,
        both if uncommitted gets or puts are outstanding; a handle other than the
        creating one needs authority to delete. A failed close leaves the handle open.
        A queue still in use is only logically deleted.
        """
        if not self.open:
            raise MQMIError.failed(CMQC.MQRC_HOBJ_ERROR, f"{self.name} is already closed")
        if options & ~_CLOSE_OPTIONS or (options & _DELETE) == _DELETE:
            raise MQMIError.failed(CMQC.MQRC_OPTIONS_ERROR, f"MQCLOSE options {options:#x}")
        delete = self._deletes(options)
        self.release()
        if delete:
            self.status.logically_deleted = True
            self.repository.deleting.add(self.queue)
        if self.status.logically_deleted:
            self.conn.qmgr.reap()  # the last user gone: deleted physically
        position = self.state.put_group
        if position is not None:
            # MQRC_INCOMPLETE_GROUP (2241): "If there is an incomplete logical message as
            # well as an incomplete message group, reason code MQRC_INCOMPLETE_MSG is
            # returned in preference".
            incomplete = "logical message" if position.in_logical_message else "message group"
            raise MQMIError(
                CMQC.MQCC_WARNING,
                CMQC.MQRC_INCOMPLETE_MSG
                if position.in_logical_message
                else CMQC.MQRC_INCOMPLETE_GROUP,
                f"{self.name} closed with a {incomplete} not completed",
            )

    def _deletes(self, options: int) -> bool:
        """Whether this close deletes the queue; MQMIError when it must fail instead."""
        qdef = self.repository.local(self.queue)
        creator = self.status.creator is self
        if qdef.is_temporary_dynamic and creator:
            return True  # every close option is treated as MQCO_NONE, which deletes
        if not options & _DELETE or self.status.logically_deleted:
            return False
        if qdef.definition_type not in (
            CMQC.MQQDT_PERMANENT_DYNAMIC,
            CMQC.MQQDT_SHARED_DYNAMIC,
        ):
            raise MQMIError.failed(
                CMQC.MQRC_OPTION_NOT_VALID_FOR_TYPE,
                f"{self.queue} is not a permanent dynamic queue this handle may delete",
            )
        if not creator and not self.conn.qmgr.authorized(self.user, self.queue, "dlt"):
            raise MQMIError.failed(
                CMQC.MQRC_NOT_AUTHORIZED, f"user {self.user} may not delete {self.queue}"
            )
        store = self.repository.store
        if store.uncommitted(self.queue):
            raise MQMIError.failed(
                CMQC.MQRC_Q_NOT_EMPTY, f"{self.queue} has uncommitted gets or puts outstanding"
            )
        if options & CMQC.MQCO_DELETE and store.depth(self.queue):
            raise MQMIError.failed(
                CMQC.MQRC_Q_NOT_EMPTY,
                f"{self.queue} still holds {store.depth(self.queue)} messages (MQCO_DELETE)",
            )
        return True

    def release(self) -> None:
        """Close with MQCO_NONE without the checks: the end of the handle's life.

        A temporary dynamic queue goes when its creating handle does."""
        self.open = False
        if self.state.locked is not None:
            self.repository.store.unlock(self.queue, self)
        self.status.handles.pop(self, None)
        self.conn.handles.remove(self)
        if self.options & INPUT_OPTIONS and not trigger.input_count(self.repository, self.queue):
            # The last server of the queue is gone: messages that arrived meanwhile
            # would wait for ever without a new trigger message.
            qdef = self.repository.queues[self.queue]
            if isinstance(qdef, QueueDefinition) and trigger.triggered(qdef):
                trigger.standing(self.conn.qmgr, self.repository, qdef, self.conn.qmgr.time)
        if self.status.creator is self:
            self.status.creator = None
            if self.repository.local(self.queue).is_temporary_dynamic:
                self.status.logically_deleted = True
                self.repository.deleting.add(self.queue)

    def _check(self, needed: int, reason: int) -> None:
        if self.open and self.conn.connected and self.options & needed:
            if self.status.logically_deleted:
                raise MQMIError.failed(
                    CMQC.MQRC_Q_DELETED, f"dynamic queue {self.queue} has been deleted"
                )
            return
        if not self.open:
            raise MQMIError.failed(CMQC.MQRC_HOBJ_ERROR, f"{self.name} is closed")
        self.conn.check_connected()
        raise MQMIError.failed(reason, f"{self.name} was not opened for that")


def _buffer(body: object, md: MD) -> bytes:
    """The bytes of a body that is not ``bytes``: a ``str`` as UTF-8 with MQFMT_STRING,
    as pymqi sends it; any other buffer as its bytes; else MQRC_BUFFER_ERROR."""
    if isinstance(body, str):
        md.Format, md.CodedCharSetId = CMQC.MQFMT_STRING, CCSID_UTF8
        return body.encode()
    if isinstance(body, bytes | bytearray | memoryview):  # a bytes subclass included
        return bytes(body)
    raise MQMIError.failed(
        CMQC.MQRC_BUFFER_ERROR, f"the message must be bytes or str, not {type(body).__name__}"
    )


__all__ = ["Handle", "HandleOwner", "HandleQueueManager"]
