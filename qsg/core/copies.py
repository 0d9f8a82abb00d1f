"""A member's QSGDISP(COPY) objects: made from the group's GROUP objects, refreshed when
the member starts.

IBM ("Managing group objects"; "DEFINE queues", QSGDISP): a GROUP object lives once, in
the shared repository; each member keeps a COPY on its own page set 0, next to its
QSGDISP(QMGR) objects, made by the generated ``DEFINE ... REPLACE QSGDISP(COPY)`` and
removed by ``DELETE ... QSGDISP(COPY)``. A COPY queue's messages are that member's own.
A member that was not active when a GROUP object changed picks the change up at its
next start, when it refreshes every COPY from the repository, except that the refresh
of one copy is skipped when

(a) the copy queue is open and the refresh would change its USAGE, or
(b) the copy queue holds messages and the refresh would delete it.

Page set 0 holds one object of a name per object type: qsg refuses a COPY where the
member has a QSGDISP(QMGR) object of that name, and a QMGR object where it has a COPY
(**UNVERIFIED**: IBM's text on that clash, believed CSQM095I "ALREADY EXISTS", could
not be retrieved; this is our choice, docs/mqsc.md says so).

The object types are the rows of ``PAGE_SET_0``: queues, channels, processes,
namelists and storage classes (IBM's DEFINE of each takes QSGDISP(GROUP) and COPY).
CF structures are not among them: a CF structure is a group object by nature, kept
once in the shared repository, and its commands take no QSGDISP ("DEFINE CFSTRUCT").
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any, Protocol

from qsg import CMQC
from qsg.core.errors import MQMIError, QSGError
from qsg.core.grouprepo import Definition, GroupRepository
from qsg.core.objects import ChannelDefinition, ProcessDefinition, QueueObject
from qsg.core.queue import QueueDefinition
from qsg.core.repository import Repository


class CopyHolder(Protocol):
    """What this module uses of a member (``qsg.core.qmgr.QMgr``)."""

    @property
    def name(self) -> str: ...
    @property
    def local(self) -> Repository: ...
    @property
    def incarnation(self) -> int: ...

    def define(self, obj: QueueObject, *, replace: bool = False) -> QueueObject: ...
    def delete_queue(self, name: str, *, purge: bool = False) -> None: ...
    def define_channel(self, channel: ChannelDefinition, *, replace: bool = False) -> None: ...
    def define_process(self, process: ProcessDefinition, *, replace: bool = False) -> None: ...


@dataclass(frozen=True, slots=True)
class Table:
    """One object type on page set 0: its objects by name, how one is defined (with
    REPLACE) and deleted."""

    objects: Callable[[CopyHolder], MutableMapping[str, Any]]
    define: Callable[[CopyHolder, Definition], None]
    delete: Callable[[CopyHolder, str], None]


def _define_queue(qm: CopyHolder, obj: Definition) -> None:
    qm.define(obj, replace=True)


def _delete_from(
    objects: Callable[[CopyHolder], MutableMapping[str, Any]], qm: CopyHolder, name: str
) -> None:
    """DELETE ... of an object a table only keeps (a channel, process, namelist or
    storage class): its entry goes."""
    del objects(qm)[name]


def _channels(qm: CopyHolder) -> MutableMapping[str, Any]:
    return qm.local.channels


def _processes(qm: CopyHolder) -> MutableMapping[str, Any]:
    return qm.local.processes


def _namelists(qm: CopyHolder) -> MutableMapping[str, Any]:
    return qm.local.namelists


def _storage_classes(qm: CopyHolder) -> MutableMapping[str, Any]:
    return qm.local.storage_classes


def _store_in(
    objects: Callable[[CopyHolder], MutableMapping[str, Any]], qm: CopyHolder, obj: Definition
) -> None:
    """DEFINE ... REPLACE of an object the queue manager only keeps (a namelist, a
    storage class): nothing else reads it, so it is its table's entry."""
    objects(qm)[obj.name] = obj


#: The object types a member keeps on page set 0 that can be GROUP and COPY, by the
#: repository's table (``qsg.core.grouprepo.KINDS``). Their deletions and plain
#: definitions are partials of module functions, not closures made here at import, so
#: each call runs the function as it is then (which `./dev mutate` needs to mutate it).
PAGE_SET_0: dict[str, Table] = {
    "QUEUE": Table(
        lambda qm: qm.local.queues,
        _define_queue,
        lambda qm, name: qm.delete_queue(name),
    ),
    "CHANNEL": Table(
        _channels,
        lambda qm, obj: qm.define_channel(obj, replace=True),
        functools.partial(_delete_from, _channels),
    ),
    "PROCESS": Table(
        _processes,
        lambda qm, obj: qm.define_process(obj, replace=True),
        functools.partial(_delete_from, _processes),
    ),
    "NAMELIST": Table(
        _namelists,
        functools.partial(_store_in, _namelists),
        functools.partial(_delete_from, _namelists),
    ),
    "STGCLASS": Table(
        _storage_classes,
        functools.partial(_store_in, _storage_classes),
        functools.partial(_delete_from, _storage_classes),
    ),
}

#: The word MQSC writes for each QSGDISP value.
WORDS = {
    CMQC.MQQSGD_Q_MGR: "QMGR",
    CMQC.MQQSGD_COPY: "COPY",
    CMQC.MQQSGD_GROUP: "GROUP",
    CMQC.MQQSGD_SHARED: "SHARED",
}


class CopySkippedError(QSGError, ValueError):
    """A copy left as it was: ``why`` (IBM's skip rules, or the member's own object)."""


def define_copy(qm: CopyHolder, kind: str, group: Definition) -> None:
    """``DEFINE <type>(name) REPLACE QSGDISP(COPY)`` on ``qm``, from the GROUP object
    ``group``. CopySkippedError when skip rule (a) holds or a QMGR object has the name;
    the queue manager's own refusal (ValueError, MQMIError) otherwise."""
    table = PAGE_SET_0[kind]
    copy = dataclasses.replace(group, qsg_disp=CMQC.MQQSGD_COPY)
    old = table.objects(qm).get(group.name)
    if old is not None and old.qsg_disp != CMQC.MQQSGD_COPY:
        raise CopySkippedError(
            f"{qm.name} has its own {group.name} of QSGDISP({WORDS[old.qsg_disp]})"
        )
    if old is not None and kind == "QUEUE":
        if _open(qm, old) and getattr(old, "usage", None) != getattr(copy, "usage", None):
            raise CopySkippedError(f"the copy of {group.name} is open and its USAGE would change")
        if old.q_type != copy.q_type:
            delete_copy(qm, kind, old.name)  # a new type: the old copy goes first
    table.define(qm, copy)


def delete_copy(qm: CopyHolder, kind: str, name: str) -> None:
    """``DELETE <type>(name) QSGDISP(COPY)`` on ``qm``: MQRC_UNKNOWN_OBJECT_NAME if it
    has no copy of ``name``; CopySkippedError when skip rule (b) holds (the copy queue holds
    messages); the queue manager's own refusal (an open queue) otherwise."""
    table = PAGE_SET_0[kind]
    old = table.objects(qm).get(name)
    if old is None or old.qsg_disp != CMQC.MQQSGD_COPY:
        raise MQMIError.failed(
            CMQC.MQRC_UNKNOWN_OBJECT_NAME, f"{qm.name} has no QSGDISP(COPY) object {name}"
        )
    if kind == "QUEUE" and _holds_messages(qm, old):
        raise CopySkippedError(f"the copy of {name} holds messages")
    table.delete(qm, name)


def refresh(qm: CopyHolder, repository: GroupRepository) -> dict[str, str]:
    """A member's start: every COPY made again from its GROUP object, and every COPY
    whose GROUP object is gone deleted, but for the copies the skip rules keep. Returns
    what was skipped and why, by ``KIND(name)``. MQRC_DB2_NOT_AVAILABLE when the
    repository cannot be read (nothing changed then)."""
    groups = {kind: repository.group_objects(kind) for kind in PAGE_SET_0}
    skipped: dict[str, str] = {}
    for kind, table in PAGE_SET_0.items():
        for name, group in groups[kind].items():
            try:
                define_copy(qm, kind, group)
            except (CopySkippedError, ValueError, MQMIError) as why:
                skipped[f"{kind}({name})"] = str(why)
        for name, obj in list(table.objects(qm).items()):
            if obj.qsg_disp == CMQC.MQQSGD_COPY and name not in groups[kind]:
                try:
                    delete_copy(qm, kind, name)
                except (CopySkippedError, ValueError, MQMIError) as why:
                    skipped[f"{kind}({name})"] = str(why)
    return skipped


@dataclass(frozen=True, slots=True)
class Generated:
    """The commands a GROUP command generated: ``command`` sent to each active member,
    and each one's outcome ('' done, or why not), in member order."""

    command: str
    outcomes: tuple[tuple[str, str], ...]

    @property
    def missed(self) -> tuple[str, ...]:
        """The members that did not get (or lose) their copy."""
        return tuple(member for member, why in self.outcomes if why)


def fan_out(
    members: Mapping[str, CopyHolder], kind: str, command: str, group: Definition | str
) -> Generated:
    """Send the generated COPY command to every active member: ``DEFINE ... REPLACE
    QSGDISP(COPY)`` from the GROUP object ``group``, or ``DELETE ... QSGDISP(COPY)`` of
    the object named ``group``. A member that refuses is named, the others go on."""
    outcomes: list[tuple[str, str]] = []
    for name, member in members.items():
        try:
            if isinstance(group, str):
                delete_copy(member, kind, group)
            else:
                define_copy(member, kind, group)
            outcomes.append((name, ""))
        except (CopySkippedError, ValueError, MQMIError) as why:
            outcomes.append((name, str(why) or type(why).__name__))
    return Generated(command, tuple(outcomes))


def _open(qm: CopyHolder, obj: Definition) -> bool:
    status = qm.local.status.get(obj.name)
    return status is not None and bool(status.handles)


def _holds_messages(qm: CopyHolder, obj: Definition) -> bool:
    if not isinstance(obj, QueueDefinition) or obj.q_type != CMQC.MQQT_LOCAL:
        return False
    return bool(qm.local.store.depth(obj.name) or qm.local.store.uncommitted(obj.name))


__all__ = [
    "PAGE_SET_0",
    "WORDS",
    "CopyHolder",
    "CopySkippedError",
    "Generated",
    "Table",
    "define_copy",
    "delete_copy",
    "fan_out",
    "refresh",
]
