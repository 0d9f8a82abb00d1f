"""What a queue manager's command processor reads: a snapshot of its objects and their
status at one moment of simulated time.

DISPLAY and the PCF inquiries answer from a ``Snapshot`` taken at the command's virtual
time, so that one command sees one consistent state (as MQ's command processor does,
holding its latches while it builds the reply). ``take`` builds it from a rules-layer
``QMgr``; what the rules layer does not know (a channel agent's state, which members of
the QSG are up, how full a CF structure is) comes in from the caller, the actors.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from qsg import CMQC
from qsg.core import attributes as table
from qsg.core import cfstate, copies, geometry
from qsg.core.errors import MQMIError
from qsg.core.handle import Handle
from qsg.core.objects import (
    CFStructure,
    ChannelDefinition,
    NamelistDefinition,
    ProcessDefinition,
    QueueObject,
    StorageClass,
)
from qsg.core.qmgr import QMgr
from qsg.core.queue import QueueDefinition
from qsg.mqsc.connections import ConnectionView, open_connections
from qsg.mqsc.connections import date_and_time as _stamp


@dataclass(frozen=True, slots=True)
class HandleView:
    """One open handle of a queue (DISPLAY QSTATUS TYPE(HANDLE))."""

    queue: str
    q_mgr: str
    connection: int
    user: str
    appl_tag: str
    options: int  # the MQOO_* it was opened with

    @property
    def input(self) -> str:
        """OPENTYPE's input part as MQSC spells it: SHARED, EXCL or NO."""
        if self.options & CMQC.MQOO_INPUT_EXCLUSIVE:
            return "EXCL"
        if self.options & (CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_INPUT_AS_Q_DEF):
            return "SHARED"
        return "NO"


@dataclass(frozen=True, slots=True)
class QueueView:
    """A queue's definition and, for a local queue, its status on this queue manager."""

    obj: QueueObject
    depth: int = 0  # CURDEPTH
    uncommitted: int = 0  # UNCOM: puts and gets in units of work not yet ended
    handles: tuple[HandleView, ...] = ()

    @property
    def local(self) -> bool:
        return isinstance(self.obj, QueueDefinition) and self.obj.q_type == CMQC.MQQT_LOCAL

    @property
    def ipprocs(self) -> int:
        return sum(1 for h in self.handles if h.input != "NO")

    @property
    def opprocs(self) -> int:
        return sum(1 for h in self.handles if h.options & CMQC.MQOO_OUTPUT)


@dataclass(frozen=True, slots=True)
class ChannelView:
    """A channel's definition and its agent's status (INACTIVE when no agent ran)."""

    definition: ChannelDefinition
    status: str = "INACTIVE"  # RUNNING, RETRYING, STOPPED, BINDING, INACTIVE
    messages: int = 0  # MSGS: messages sent (or received) since the channel started
    batches: int = 0  # BATCHES
    detail: str = ""  # why it stopped or retries
    #: CHLDISP: PRIVATE, or SHARED / FIXSHARED for a shared channel's instance, which
    #: any member shows with QMNAME, the member that runs it.
    disposition: str = "PRIVATE"
    q_mgr: str = ""


@dataclass(frozen=True, slots=True)
class StructureView:
    """A CF application structure and its use (DISPLAY CFSTATUS TYPE(SUMMARY))."""

    definition: CFStructure
    status: str = "ACTIVE"  # ACTIVE, FAILED
    entries: int = 0
    max_entries: int = 0
    elements: int = 0
    max_elements: int = 0
    #: Its failure, backup and log (``qsg.core.cfstate``), the dates and times of its
    #: failure and backup as MQSC writes them ("" for none), and the QSG's members, whose
    #: logs a recovery reads.
    state: cfstate.StructureStatus | None = None
    failed: tuple[str, str] = ("", "")
    backed_up: tuple[str, str] = ("", "")
    members: tuple[str, ...] = ()
    #: The members whose connection to the structure has failed while it has not
    #: (a loss of connectivity they tolerate), with the date and time of each loss.
    connections_failed: Mapping[str, tuple[str, str]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One queue manager's objects and status at simulated time ``time``."""

    q_mgr: str
    qsg: str
    time: float
    platform: int
    attributes: Mapping[str, object]  # the queue manager's own: DESCR, DEADQ, ...
    queues: Mapping[str, QueueView]
    channels: Mapping[str, ChannelView]
    structures: Mapping[str, StructureView] = field(default_factory=dict)
    #: The QSG's members in order and their state (ACTIVE or FAILED); empty outside one.
    members: Mapping[str, str] = field(default_factory=dict)
    #: Its connections and their open handles (DISPLAY CONN).
    connections: tuple[ConnectionView, ...] = ()
    #: The queue manager's process definitions (DISPLAY PROCESS), by name.
    processes: Mapping[str, ProcessDefinition] = field(default_factory=dict)
    #: Its namelists and storage classes (DISPLAY NAMELIST, DISPLAY STGCLASS), by name.
    namelists: Mapping[str, NamelistDefinition] = field(default_factory=dict)
    storage_classes: Mapping[str, StorageClass] = field(default_factory=dict)
    #: The group's QSGDISP(GROUP) objects in its shared repository, by table (QUEUE,
    #: CHANNEL, PROCESS) and name: what DISPLAY ... QSGDISP(ALL | GROUP) adds. None when
    #: the repository is unavailable (MQRC_DB2_NOT_AVAILABLE); empty outside a QSG.
    group: Mapping[str, Mapping[str, Any]] | None = field(default_factory=dict)


#: A CF structure's use: entries, elements, max_entries, max_elements.
Usage = Callable[[str], Mapping[str, int]]


def take(
    qm: QMgr,
    now: float,
    *,
    channels: Mapping[str, ChannelView] | None = None,
    members: Mapping[str, str] | None = None,
    usage: Usage | None = None,
    connections_lost: Mapping[str, Mapping[str, float]] | None = None,
) -> Snapshot:
    """The snapshot of ``qm`` at ``now``. ``channels``: the agents' status by channel
    name (a channel missing from it is INACTIVE); ``members``: the QSG's members and
    their state; ``usage``: how full each CF structure is (None: unknown, all 0);
    ``connections_lost``: by structure, the members that lost connectivity to it and
    when. A coupling facility that cannot be reached leaves its queues' depths at 0 and
    its structures FAILED; a structure this member lost connectivity to leaves its
    queues' depths at 0 and the structure as it is."""
    queues: dict[str, QueueView] = {}
    failed = False
    for repo in qm.repositories:
        for name, obj in sorted(repo.queues.items()):
            if not (isinstance(obj, QueueDefinition) and obj.q_type == CMQC.MQQT_LOCAL):
                queues[name] = QueueView(obj)
                continue
            status = repo.status[name]
            handles = tuple(
                _handle(name, h, options)
                for h, options in status.handles.items()
                if _owner(h) in ("", qm.name)
            )
            try:
                depth, uncommitted = repo.store.depth(name), repo.store.uncommitted(name)
            except MQMIError as error:  # the facility, or this queue's structure, failed
                depth, uncommitted = 0, 0
                # One structure's failure is that structure's status, not the facility's;
                # this member's loss of connectivity to it (2345) is its connection's.
                lost_link = error.reason == CMQC.MQRC_CF_NOT_AVAILABLE
                failed = failed or not (lost_link or name in repo.store.failed_queues)
            queues[name] = QueueView(obj, depth, uncommitted, handles)
    structures: dict[str, StructureView] = {}
    lost = connections_lost or {}
    if qm.qsg is not None:
        group = tuple(qm.qsg.members)
        for name, definition in sorted(qm.qsg.shared.structures.items()):
            view = _structure(definition, usage, failed)
            view = dataclasses.replace(
                view,
                connections_failed={
                    member: _stamp(qm.epoch, at) for member, at in lost.get(name, {}).items()
                },
            )
            try:
                state = qm.qsg.shared.store.structure_status(name)
            except (MQMIError, ValueError):  # out of reach, or not in this store yet
                state = None
            if state is not None:
                view = dataclasses.replace(
                    view,
                    status=state.status if view.status == "ACTIVE" else view.status,
                    state=state,
                    failed=_stamp(qm.epoch, state.failed_at),
                    backed_up=_stamp(qm.epoch, state.backup_at),
                    members=group,
                )
            structures[name] = view
    given = channels or {}
    views = {
        name: given.get(name, ChannelView(definition))
        for name, definition in sorted(qm.local.channels.items())
    }
    # The queue manager's own attributes, as the attribute table reads them.
    attributes = {a.keyword: table.read(qm, a) for a in table.TABLE["QMGR"]}
    return Snapshot(
        qm.name,
        qm.qsg_name,
        now,
        qm.rules.platform,
        attributes,
        queues,
        views,
        structures,
        dict(members or {}),
        open_connections(qm),
        dict(sorted(qm.local.processes.items())),
        dict(sorted(qm.local.namelists.items())),
        dict(sorted(qm.local.storage_classes.items())),
        _group_objects(qm),
    )


def _group_objects(qm: QMgr) -> dict[str, dict[str, Any]] | None:
    """The QSG's GROUP objects by table, or None while its repository is unavailable."""
    if qm.qsg is None:
        return {}
    try:
        return {kind: qm.qsg.repository.group_objects(kind) for kind in copies.PAGE_SET_0}
    except MQMIError as error:
        if error.reason != CMQC.MQRC_DB2_NOT_AVAILABLE:
            raise
        return None


def _structure(definition: CFStructure, usage: Usage | None, failed: bool) -> StructureView:
    most = geometry.max_entries(definition.size_kb)
    room = geometry.max_elements(definition.size_kb)
    if failed:
        return StructureView(definition, "FAILED", max_entries=most, max_elements=room)
    if usage is None:
        return StructureView(definition, max_entries=most, max_elements=room)
    try:
        used = usage(definition.name)
    except MQMIError:
        return StructureView(definition, "FAILED")
    return StructureView(
        definition,
        "ACTIVE",
        used.get("entries", 0),
        used.get("max_entries", 0),
        used.get("elements", 0),
        used.get("max_elements", 0),
    )


def _owner(handle: Hashable) -> str:
    """The queue manager a handle was opened through ("" for another kind of opener)."""
    return handle.conn.qmgr.name if isinstance(handle, Handle) else ""


def _handle(queue: str, handle: Hashable, options: int) -> HandleView:
    if not isinstance(handle, Handle):
        return HandleView(queue, "", 0, "", "", options)
    conn = handle.conn
    tag = conn.identity.appl_name.decode(errors="replace").rstrip()
    # The user the open was checked for: the connection's, or the alternate user id.
    return HandleView(queue, conn.qmgr.name, conn.number, handle.user, tag, options)


__all__ = [
    "ChannelView",
    "HandleView",
    "QueueView",
    "Snapshot",
    "StructureView",
    "Usage",
    "take",
]
