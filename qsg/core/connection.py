"""MQCONN's connection: MQOPEN (name resolution, dynamic queues, sharing, authority),
MQPUT1, the unit of work, and the end of the connection."""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Protocol

from qsg import CMQC
from qsg.core import attributes, cfstate, mqlong, platforms, qmgrevents, trigger
from qsg.core.authority import open_operations
from qsg.core.conntag import TagUse
from qsg.core.engine import PutIdentity
from qsg.core.errors import MQMIError
from qsg.core.handle import Handle, HandleQueueManager
from qsg.core.object_handle import ObjectHandle
from qsg.core.queue import QueueDefinition, check_name
from qsg.core.repository import QueueStatus, Repository
from qsg.core.resolve import Directory, Resolution, resolve
from qsg.core.structs import INPUT_OPTIONS, MD, OD, PMO, name_of
from qsg.core.uow import UnitOfWork

_ACCESS = INPUT_OPTIONS | CMQC.MQOO_BROWSE | CMQC.MQOO_OUTPUT | CMQC.MQOO_INQUIRE | CMQC.MQOO_SET
# MQ puts the asterisk of DynamicQName no later than here, so 15 characters are left.
_LAST_ASTERISK = 33


class ConnectionOwner(HandleQueueManager, Directory, Protocol):
    """What a connection uses of its queue manager (``QMgr``): what its handles use
    and what name resolution asks, and for MQOPEN of a model queue a free name and
    the definition of the dynamic queue; it leaves the queue manager's connections
    when it ends."""

    @property
    def connections(self) -> dict[int, Connection]: ...
    @property
    def epoch(self) -> datetime: ...
    @property
    def local(self) -> Repository: ...

    def new_dynamic_suffix(self) -> str: ...
    def new_recovery_id(self) -> int: ...
    def check_name_free(self, name: str) -> None: ...
    def repository_of(self, qdef: QueueDefinition) -> Repository: ...
    def release_tag(self, use: TagUse) -> None: ...


class Connection:
    """MQCONN's connection handle: opens queues and owns one unit of work."""

    def __init__(self, qmgr: ConnectionOwner, number: int, user: str, appl_name: str) -> None:
        self.qmgr = qmgr
        self.number = number
        self.user = user
        self.identity = PutIdentity(user.encode()[:12], appl_name.encode()[:28], CMQC.MQAT_UNIX)
        self.uow = UnitOfWork((qmgr.name, number), qmgr.new_recovery_id)
        self.handles: list[Handle] = []
        self.connected = True
        #: The connection tag it serializes by (MQCONNX with a MQCNO_*_CONN_TAG_* option).
        self.tag_use: TagUse | None = None
        #: Its units of work belong to a syncpoint manager (RRS, CICS, IMS): MQDISC
        #: does not commit them (``qsg.core.conntag``).
        self.syncpoint_manager = False
        #: MQDISC left its unit of work to the syncpoint manager, with its tag held.
        self.unresolved = False

    # ---- MQOPEN ---------------------------------------------------------------
    def open_object(self, od: OD, options: int) -> ObjectHandle:
        """MQOPEN of a namelist, a process definition or the queue manager (OD.ObjectType
        MQOT_NAMELIST, MQOT_PROCESS, MQOT_Q_MGR) for MQINQ (``qsg.core.object_handle``);
        the user needs inquire authority on it, as on a queue."""
        self.check_connected()
        _check_open_options(options)
        mqlong.check_od(od)
        name = _decoded(od.ObjectName, CMQC.MQRC_UNKNOWN_OBJECT_NAME)
        handle = ObjectHandle(self.qmgr, od.ObjectType, name, options)
        user = self._authority_user(options, od)
        for operation in open_operations(options):
            if not self.qmgr.authorized(user, handle.name, operation):
                raise MQMIError.failed(
                    CMQC.MQRC_NOT_AUTHORIZED, f"user {user} may not {operation} {handle.name}"
                )
        return handle

    def open(self, target: str | bytes | OD, options: int) -> Handle:
        """MQOPEN a queue by name (or OD) with MQOO_* options.

        With an OD, the resolved names are written back, and for a model queue the
        generated name of the dynamic queue is written to ``ObjectName``.
        """
        self.check_connected()
        od = target if isinstance(target, OD) else None
        if od is not None:
            mqlong.check_od(od)
            name = _decoded(od.ObjectName, CMQC.MQRC_UNKNOWN_OBJECT_NAME)
            q_mgr_name = _decoded(od.ObjectQMgrName, CMQC.MQRC_UNKNOWN_OBJECT_Q_MGR)
        elif isinstance(target, str | bytes):
            raw = target.encode() if isinstance(target, str) else target
            name, q_mgr_name = _decoded(raw, CMQC.MQRC_UNKNOWN_OBJECT_NAME), ""
        else:
            raise MQMIError.failed(
                CMQC.MQRC_OBJECT_NAME_ERROR,
                f"open a queue by its name (str or bytes) or an OD, not {type(target).__name__}",
            )
        _check_open_options(options)
        qm = self.qmgr
        user = self._authority_user(options, od)
        try:
            res = resolve(qm, name, q_mgr_name, options)
        except MQMIError as error:
            if error.reason == CMQC.MQRC_UNKNOWN_OBJECT_NAME:
                qmgrevents.refused(qm, error, name, self.identity, qm.time)
            raise
        checked = res.opened.name if res.opened is not None else res.queue.name
        for operation in open_operations(options):
            if not qm.authorized(user, checked, operation):
                raise MQMIError.failed(
                    CMQC.MQRC_NOT_AUTHORIZED, f"user {user} may not {operation} {checked}"
                )
        if res.model:
            res = self._create_dynamic(res, od, user)
        failed = res.repository.store.failed_queues
        if failed and res.queue.name in failed:  # its CF structure has failed
            _open_failed(res.repository, failed[res.queue.name], res.queue.name)
        status = res.repository.status[res.queue.name]
        if status.logically_deleted:
            raise MQMIError.failed(
                platforms.opening_deleted(qm.rules.platform),
                f"dynamic queue {res.queue.name} is logically deleted",
            )
        effective = _share(res.queue, status, options)
        handle = Handle(self, res, effective, user)
        first_server = effective & INPUT_OPTIONS and not trigger.input_count(
            res.repository, res.queue.name
        )
        status.handles[handle] = effective
        if res.model:
            status.creator = handle
        self.handles.append(handle)
        if od is not None:
            resolved = res.remote or (res.queue.name, qm.name)
            od.ResolvedQName = resolved[0].encode()
            od.ResolvedQMgrName = resolved[1].encode()
        if first_server:  # a trigger monitor starting on its initiation queue?
            trigger.initiation_queue_opened(qm, res.queue.name, qm.time)
        return handle

    def _authority_user(self, options: int, od: OD | None) -> str:
        """The user an open is checked for: the alternate user id with
        MQOO_ALTERNATE_USER_AUTHORITY (which the connection's user must be allowed)."""
        if not options & CMQC.MQOO_ALTERNATE_USER_AUTHORITY:
            return self.user
        # Bytes that are no text are no user the queue manager knows: not authorized.
        alternate = "" if od is None else _decoded(od.AlternateUserId, CMQC.MQRC_NOT_AUTHORIZED)
        if not alternate:
            raise MQMIError.failed(
                CMQC.MQRC_OPTIONS_ERROR, "MQOO_ALTERNATE_USER_AUTHORITY needs OD.AlternateUserId"
            )
        if not self.qmgr.authorized(self.user, self.qmgr.name, "altusr"):
            raise MQMIError.failed(
                CMQC.MQRC_NOT_AUTHORIZED, f"user {self.user} may not use alternate user ids"
            )
        return alternate

    def _create_dynamic(self, res: Resolution, od: OD | None, user: str) -> Resolution:
        """MQOPEN of a model queue: a local queue with the model's attributes, named from
        OD.DynamicQName, the name written back to OD.ObjectName."""
        qm = self.qmgr
        model = res.queue
        pattern = od.DynamicQName if od is not None else OD().DynamicQName
        name = dynamic_q_name(pattern, qm.new_dynamic_suffix())
        qm.check_name_free(name)
        shared = model.definition_type == CMQC.MQQDT_SHARED_DYNAMIC
        # A new queue: created now, by the run's clock, not when its model was.
        created = attributes.stamps(qm.epoch, qm.time, created=True)
        qdef = dataclasses.replace(
            model,
            name=name,
            q_type=CMQC.MQQT_LOCAL,
            qsg_disp=CMQC.MQQSGD_SHARED if shared else CMQC.MQQSGD_Q_MGR,
            kept=attributes.kept(model.kept, created),
        )
        qm.define(qdef)
        repo = qm.repository_of(qdef)
        repo.status[name].creator_user = user
        if od is not None:
            od.ObjectName = name.encode()
        return dataclasses.replace(res, repository=repo, queue=qdef, opened=qdef, model=True)

    # ---- MQPUT1 ---------------------------------------------------------------
    def put1(
        self,
        target: str | bytes | OD,
        body: bytes | str,
        md: MD | None,
        pmo: PMO | None,
        *,
        now: float,
    ) -> Handle:
        """MQPUT1: open for output, put one message, close. Returns the (closed) handle,
        which tells where the message went.

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
        return handle

    # ---- the unit of work and the end -----------------------------------------
    def commit(self) -> None:
        """MQCMIT: uncommitted puts become visible, uncommitted gets are gone for good."""
        self.check_connected()
        self.uow.commit()
        self.qmgr.reap()

    def backout(self) -> None:
        """MQBACK: uncommitted puts vanish; uncommitted gets return with BackoutCount + 1."""
        self.check_connected()
        self.uow.backout()
        self.qmgr.reap()

    def disconnect(self) -> None:
        """MQDISC: a normal end commits the unit of work, as MQ does, then closes every
        handle still open with MQCO_NONE (a temporary dynamic queue this connection
        created goes with it). An application whose syncpoint manager owns its units of
        work leaves an active one to it: with a connection tag the tag cannot be
        released, the warning MQRC_CONN_TAG_NOT_RELEASED (2344) ("MQDISC cannot release
        it"), until ``resolve``."""
        if not self.connected:
            return
        if self.syncpoint_manager and self.uow.stores and self.tag_use is not None:
            for handle in list(self.handles):
                handle.release()
            self.connected = False
            self.unresolved = True  # still the queue manager's, for its failure (sever)
            raise MQMIError(
                CMQC.MQCC_WARNING,
                CMQC.MQRC_CONN_TAG_NOT_RELEASED,
                "MQDISC with a unit of recovery of the syncpoint manager active: the "
                "connection tag stays in use until it is committed or backed out",
            )
        try:
            self.uow.commit()
        except MQMIError as error:
            if error.reason != CMQC.MQRC_BACKED_OUT:
                raise
            # The commit failed and the unit of work was backed out: MQDISC ends the
            # connection all the same, with MQRC_BACKED_OUT as a warning (IBM, 2003).
            self._end()
            raise MQMIError(CMQC.MQCC_WARNING, CMQC.MQRC_BACKED_OUT, error.detail) from None
        self._end()

    def resolve(self, commit: bool) -> None:
        """The syncpoint manager commits (or backs out) the unit of work MQDISC left it
        (SRRCMIT / SRRBACK under RRS): the connection tag is released then."""
        if not self.unresolved:
            raise ValueError("this connection left no unit of work to resolve")
        if commit:
            self.uow.commit()
        else:
            self.uow.backout()
        self.unresolved = False
        self._end()

    def terminate(self) -> None:
        """The application ended abnormally: its unit of work is backed out and its
        handles closed ("Dynamic queues": "when the application ... terminates"); one
        MQDISC left to its syncpoint manager is backed out too."""
        if self.connected or self.unresolved:
            self.unresolved = False
            self.uow.backout()
            self._end()

    def sever(self) -> None:
        """The queue manager went down under the connection: its unit of work is backed
        out and its handles are forgotten, with none of the close processing."""
        if self.connected or self.unresolved:
            self.unresolved = False
            self.uow.backout()
            for handle in self.handles:
                handle.open = False
                handle.status.handles.pop(handle, None)
            self.handles.clear()
            self.connected = False
            self.qmgr.connections.pop(self.number, None)

    def _end(self) -> None:
        for handle in list(self.handles):
            handle.release()
        self.connected = False
        self.qmgr.connections.pop(self.number, None)
        self.qmgr.reap()
        # "The tag ceases to be valid when the application terminates or issues the
        # MQDISC call"; not when the queue manager fails under it (``sever``): then peer
        # recovery, or its restart, ends it.
        if self.tag_use is not None:
            self.qmgr.release_tag(self.tag_use)

    def check_connected(self) -> None:
        if not self.connected:
            raise MQMIError.failed(CMQC.MQRC_HCONN_ERROR, "the connection is disconnected")


def _decoded(name: bytes, reason: int) -> str:
    """An object name as text; bytes that are no text name no object MQ could have."""
    try:
        return name_of(name).decode()
    except UnicodeDecodeError:
        raise MQMIError.failed(reason, f"{name!r} is not a name MQ knows") from None


def _open_failed(repository: Repository, structure: str, queue: str) -> None:
    """MQOPEN of ``queue`` on the failed CF ``structure``: a RECOVER(NO) structure is
    reallocated, empty, and the open goes on; otherwise MQRC_CF_STRUC_FAILED until the
    structure is recovered (``qsg.core.cfstate``)."""
    definition = repository.structures.get(structure)
    if definition is None or not cfstate.reallocated_by_open(definition):
        raise cfstate.failed_error(structure, queue)
    repository.store.recover_structure(structure, purge=True)


def _check_open_options(options: int) -> None:
    if type(options) is not int:
        raise MQMIError.failed(
            CMQC.MQRC_OPTIONS_ERROR, f"open options are MQOO_* flags (an int), not {options!r}"
        )
    if not options & _ACCESS:
        raise MQMIError.failed(
            CMQC.MQRC_OPTIONS_ERROR, "open needs an input, browse, output, inquire or set option"
        )
    input_options = options & INPUT_OPTIONS
    if input_options & (input_options - 1):
        raise MQMIError.failed(CMQC.MQRC_OPTIONS_ERROR, "more than one MQOO_INPUT_* option")


def _share(qdef: QueueDefinition, status: QueueStatus, options: int) -> int:
    """The open options with MQOO_INPUT_AS_Q_DEF made concrete, checked against the
    handles already open: an exclusive input open excludes every other input open.

    INPUT_AS_Q_DEF takes the queue's DEFSOPT; INPUT_SHARED on a NOSHARE queue is
    treated as INPUT_EXCLUSIVE. MQRC_OBJECT_IN_USE when the queue is not free.
    """
    wanted = options & INPUT_OPTIONS
    if not wanted:
        return options
    if wanted == CMQC.MQOO_INPUT_AS_Q_DEF:
        wanted = qdef.def_input_open_option
    if wanted == CMQC.MQOO_INPUT_SHARED and qdef.shareability == CMQC.MQQA_NOT_SHAREABLE:
        wanted = CMQC.MQOO_INPUT_EXCLUSIVE
    for other in status.handles.values():
        held = other & INPUT_OPTIONS
        if held and (wanted == CMQC.MQOO_INPUT_EXCLUSIVE or held == CMQC.MQOO_INPUT_EXCLUSIVE):
            raise MQMIError.failed(
                CMQC.MQRC_OBJECT_IN_USE,
                f"{qdef.name} is open for input "
                + ("exclusively" if held == CMQC.MQOO_INPUT_EXCLUSIVE else "by another handle"),
            )
    return (options & ~INPUT_OPTIONS) | wanted


def dynamic_q_name(pattern: bytes, suffix: str) -> str:
    """OD.DynamicQName made a queue name: a last-character ``*`` becomes ``suffix``.

    MQRC_DYNAMIC_Q_NAME_ERROR when it is blank, has characters a queue name cannot
    have, has an asterisk beyond the 33rd position, or characters after the asterisk.
    """
    text = pattern.split(b"\x00", 1)[0].rstrip(b" ").decode("ascii", "replace")
    star = text.find("*")
    problem = ""
    if not text:
        problem = "DynamicQName is blank"
    elif star >= _LAST_ASTERISK:
        problem = f"the asterisk of DynamicQName {text!r} is beyond position {_LAST_ASTERISK}"
    elif star >= 0 and star != len(text) - 1:
        problem = f"DynamicQName {text!r} has characters after its asterisk"
    if problem:
        raise MQMIError.failed(CMQC.MQRC_DYNAMIC_Q_NAME_ERROR, problem)
    name = text[:star] + suffix if star >= 0 else text
    name = name[:48]
    try:
        check_name(name, "dynamic queue")
    except ValueError as error:
        raise MQMIError.failed(CMQC.MQRC_DYNAMIC_Q_NAME_ERROR, str(error)) from None
    return name


__all__ = ["Connection", "ConnectionOwner", "dynamic_q_name"]
