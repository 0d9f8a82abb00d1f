"""Name resolution: what MQOPEN's ObjectName and ObjectQMgrName come to.

IBM's rules (Application Programming, "Name resolution"): ObjectQMgrName is resolved
first. Blank, the local queue manager's name or (z/OS) its QSG's name means a local
name: a local queue, a model (a dynamic queue is made of it), an alias (to its base
queue) or the local definition of a remote queue. Another name is a queue-manager
alias (a remote definition with RNAME blank), or a transmission queue of that name, or
else the default transmission queue. A queue resolved to a transmission queue can only
be opened for output and inquire; input, browse or set need a local queue.

Intra-group queuing (``igq.py``): with IGQ(ENABLED), a remote queue manager that is
another member of the group is reached through SYSTEM.QSG.TRANSMIT.QUEUE in preference
to any other transmission queue. SQQMNAME(IGNORE) opens a shared queue named at
another member of the group as the local shared queue it is ("SharedQMgrName").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from qsg import CMQC
from qsg.core import igq
from qsg.core.errors import MQMIError
from qsg.core.objects import AliasQueue, QueueObject, RemoteQueue
from qsg.core.queue import QueueDefinition
from qsg.core.repository import Repository

_LOCAL_ONLY = (
    CMQC.MQOO_INPUT_AS_Q_DEF
    | CMQC.MQOO_INPUT_SHARED
    | CMQC.MQOO_INPUT_EXCLUSIVE
    | CMQC.MQOO_BROWSE
    | CMQC.MQOO_SET
)


class Directory(igq.GroupDirectory, Protocol):
    """What resolution asks of a queue manager: IGQ's questions, its QSG's name, its
    DEFXMITQ and its SQQMNAME."""

    @property
    def qsg_name(self) -> str: ...
    @property
    def def_xmit_q_name(self) -> str: ...
    @property
    def shared_q_q_mgr_name(self) -> int: ...

    def object_not_unique(self, name: str) -> bool:
        """Whether ``name`` is both one of its own queues and its group's shared queue."""


@dataclass(frozen=True, slots=True)
class Resolution:
    """Where an open ends up.

    ``queue`` is the local queue the handle works on: the queue itself, an alias's base
    queue, the transmission queue of a remote one, or a model (``model`` True: the
    caller makes the dynamic queue). ``opened`` is the definition named (what MQINQ
    reports) and ``via`` the alias or remote definition whose defaults a put takes;
    ``remote`` is (RNAME, RQMNAME) when messages go to the transmission queue wrapped.
    ``igq``: the transmission queue is SYSTEM.QSG.TRANSMIT.QUEUE, and ``conventional``
    the one the ordinary rules give (None if none), for a message too long for IGQ.
    """

    repository: Repository
    queue: QueueDefinition
    opened: QueueObject | None
    via: AliasQueue | RemoteQueue | None = None
    remote: tuple[str, str] | None = None
    model: bool = False
    igq: bool = False
    conventional: tuple[Repository, QueueDefinition] | None = None


def resolve(qm: Directory, name: str, q_mgr_name: str, options: int) -> Resolution:
    """Resolve ObjectName ``name`` at ObjectQMgrName ``q_mgr_name`` for MQOO ``options``."""
    if q_mgr_name in ("", qm.name) or (qm.qsg_name and q_mgr_name == qm.qsg_name):
        return _local_name(qm, name, options)
    if qm.shared_q_q_mgr_name == CMQC.MQSQQM_IGNORE and qm.group_member(q_mgr_name):
        # "SharedQMgrName": IGNORE opens a shared queue of the group here, whichever
        # member is named, saving the transmission queue's put and get.
        found = qm.find(name)
        if found is not None and isinstance(found[1], QueueDefinition) and found[1].is_shared:
            return _local_name(qm, name, options)
    found = qm.find(q_mgr_name)
    obj = found[1] if found else None
    if isinstance(obj, RemoteQueue):
        if not obj.is_q_mgr_alias:
            raise MQMIError.failed(
                CMQC.MQRC_UNKNOWN_REMOTE_Q_MGR,
                f"ObjectQMgrName {q_mgr_name} is a remote queue, not a queue-manager alias",
            )
        target = obj.remote_q_mgr_name or qm.name
        if target == qm.name:
            return _local_name(qm, name, options)
        return _to_remote(qm, obj.xmit_q_name, obj, (name, target), options, opened=None)
    return _to_remote(qm, "", None, (name, q_mgr_name), options, opened=None)


def _local_name(qm: Directory, name: str, options: int) -> Resolution:
    if qm.object_not_unique(name):
        # "DEFINE queues": a shared queue defined while a member has a private queue of
        # the name; an MQOPEN of it there fails until one of them is deleted.
        raise MQMIError.failed(
            CMQC.MQRC_OBJECT_NOT_UNIQUE,
            f"{name} is both a queue of {qm.name} and a shared queue of its group",
        )
    found = qm.find(name)
    if found is None:
        raise MQMIError.failed(CMQC.MQRC_UNKNOWN_OBJECT_NAME, f"no queue {name} on {qm.name}")
    repo, obj = found
    if isinstance(obj, QueueDefinition):
        return Resolution(repo, obj, obj, model=obj.q_type == CMQC.MQQT_MODEL)
    if isinstance(obj, RemoteQueue):
        return _remote_definition(qm, obj, obj, options)
    base = qm.find(obj.target)
    if base is None:
        raise MQMIError.failed(
            CMQC.MQRC_UNKNOWN_ALIAS_BASE_Q, f"alias {name}: its TARGET {obj.target} is not defined"
        )
    base_repo, base_obj = base
    if isinstance(base_obj, RemoteQueue):
        return _remote_definition(qm, base_obj, obj, options, via=obj)
    if isinstance(base_obj, AliasQueue) or base_obj.q_type != CMQC.MQQT_LOCAL:
        raise MQMIError.failed(
            CMQC.MQRC_ALIAS_BASE_Q_TYPE_ERROR,
            f"alias {name}: its TARGET {obj.target} is not a local or remote queue",
        )
    return Resolution(base_repo, base_obj, obj, via=obj)


def _remote_definition(
    qm: Directory,
    rdef: RemoteQueue,
    opened: QueueObject,
    options: int,
    via: AliasQueue | None = None,
) -> Resolution:
    if rdef.is_q_mgr_alias:
        raise MQMIError.failed(
            CMQC.MQRC_REMOTE_Q_NAME_ERROR,
            f"{rdef.name} is a queue-manager alias (RNAME blank), not a queue to open",
        )
    target = rdef.remote_q_mgr_name
    if target in ("", qm.name):
        raise MQMIError.failed(
            CMQC.MQRC_UNKNOWN_REMOTE_Q_MGR,
            f"remote queue {rdef.name}: RQMNAME names no remote queue manager",
        )
    return _to_remote(
        qm, rdef.xmit_q_name, via or rdef, (rdef.remote_name, target), options, opened
    )


def _to_remote(
    qm: Directory,
    named: str,
    via: AliasQueue | RemoteQueue | None,
    remote: tuple[str, str],
    options: int,
    opened: QueueObject | None,
) -> Resolution:
    """The transmission queue toward ``remote`` (RNAME, RQMNAME): the group's with IGQ
    (``igq.route``), else the one ``named`` or the ordinary rules give."""
    group = igq.route(qm, remote[1])
    conventional: tuple[Repository, QueueDefinition] | None = None
    if group is None:
        xmit = _transmission_queue(qm, remote[1], named)
    else:
        xmit = group
        try:  # the ordinary route, for a message too long for IGQ; there may be none
            conventional = _transmission_queue(qm, remote[1], named)
        except MQMIError:
            conventional = None
    if options & _LOCAL_ONLY:
        raise MQMIError.failed(
            CMQC.MQRC_OPTION_NOT_VALID_FOR_TYPE,
            f"queue {remote[0]} at {remote[1]} is remote: open it for output or inquire only",
        )
    if opened is None and options & CMQC.MQOO_INQUIRE:
        raise MQMIError.failed(
            CMQC.MQRC_OPTION_NOT_VALID_FOR_TYPE,
            f"queue {remote[0]} at {remote[1]} has no local definition to inquire on",
        )
    return Resolution(
        xmit[0],
        xmit[1],
        opened,
        via=via,
        remote=remote,
        igq=group is not None,
        conventional=conventional,
    )


def _transmission_queue(
    qm: Directory, remote_q_mgr: str, named: str
) -> tuple[Repository, QueueDefinition]:
    """The transmission queue toward ``remote_q_mgr``: the one named, else the queue of
    the queue manager's name, else the default transmission queue (DEFXMITQ)."""
    if named:
        found = qm.find(named)
        if found is None:
            raise MQMIError.failed(CMQC.MQRC_UNKNOWN_XMIT_Q, f"XMITQ {named} is not defined")
        return _check_xmit(found, CMQC.MQRC_XMIT_Q_TYPE_ERROR, CMQC.MQRC_XMIT_Q_USAGE_ERROR)
    found = qm.find(remote_q_mgr)
    if found is not None and isinstance(found[1], QueueDefinition):
        return _check_xmit(found, CMQC.MQRC_XMIT_Q_TYPE_ERROR, CMQC.MQRC_XMIT_Q_USAGE_ERROR)
    default = qm.def_xmit_q_name
    if not default:
        raise MQMIError.failed(
            CMQC.MQRC_UNKNOWN_REMOTE_Q_MGR,
            f"no route to queue manager {remote_q_mgr}: no transmission queue of that name"
            " and no DEFXMITQ",
        )
    found = qm.find(default)
    if found is None:
        raise MQMIError.failed(CMQC.MQRC_UNKNOWN_DEF_XMIT_Q, f"DEFXMITQ {default} is not defined")
    return _check_xmit(found, CMQC.MQRC_DEF_XMIT_Q_TYPE_ERROR, CMQC.MQRC_DEF_XMIT_Q_USAGE_ERROR)


def _check_xmit(
    found: tuple[Repository, QueueObject], type_error: int, usage_error: int
) -> tuple[Repository, QueueDefinition]:
    repo, obj = found
    if not isinstance(obj, QueueDefinition) or obj.q_type != CMQC.MQQT_LOCAL:
        raise MQMIError.failed(type_error, f"{obj.name} is not a local queue")
    if not obj.is_transmission_queue:
        raise MQMIError.failed(usage_error, f"{obj.name} is not a USAGE(XMITQ) queue")
    return repo, obj
