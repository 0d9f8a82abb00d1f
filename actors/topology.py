"""A topology: the queue managers of a world, their queue-sharing groups and their
objects, defined in MQSC as administrators keep them.

MQSC text is parsed when it is added, so a syntax error is reported at once with its
``source:line:column``; it is applied, in the order added, when the world starts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from actors.costs import Costs
from qsg.core.conname import parse_conname
from qsg.core.events import EventSink
from qsg.core.objects import CFStructure
from qsg.core.qmgr import QMgr
from qsg.core.queue import check_name
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc.reader import Command, apply, parse


@dataclass(slots=True)
class QMgrSpec:
    """One queue manager of a topology: its QSG (if any), options for ``QMgr`` and the
    MQSC commands that define its objects."""

    name: str
    qsg: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    commands: list[Command] = field(default_factory=list)
    listener: tuple[str, int] | None = None  # (host, port) of its TCP channel listener
    #: Seconds a channel may take to connect and start (None: the default, 30).
    connect_timeout: float | None = None
    #: The host its group listener's TCP port binds, in a run of members in separate
    #: processes (``actors.groupaddress``); None: the group's address is in process.
    group_host: str | None = None


class Topology:
    """Queue managers, queue-sharing groups and definitions; ``costs`` are the model's.

    ``add_qsg("QSG1", members=["QM1", "QM2"])`` makes two members sharing QSG1's CF
    structures; ``add_qmgr("QM3")`` a queue manager outside any QSG; ``mqsc("QM1",
    text)`` its definitions. Queue managers reach each other over channels whose
    CONNAME is the partner queue manager's name, or ``host(port)`` of a listener.
    """

    def __init__(self, costs: Costs | None = None) -> None:
        self.costs = costs if costs is not None else Costs()
        self.qmgrs: dict[str, QMgrSpec] = {}
        self.qsgs: dict[str, list[str]] = {}
        #: CF structures of each QSG with their CFRM SIZE (not an MQSC attribute), defined
        #: before any MQSC runs.
        self.structures: dict[str, list[CFStructure]] = {}
        #: Each QSG's coupling facilities, if it names more than the default one
        #: (``qsg.core.facilities``): a structure's ``preference`` names them.
        self.facilities: dict[str, tuple[str, ...]] = {}

    def add_qsg(self, name: str, members: list[str], **options: Any) -> None:
        """A queue-sharing group and its members (each a new queue manager)."""
        check_name(name, "queue-sharing group", longest=4)
        if name in self.qsgs:
            raise ValueError(f"queue-sharing group {name} is already in the topology")
        if not members:
            raise ValueError(f"queue-sharing group {name} needs at least one member")
        self.qsgs[name] = []
        for member in members:
            self.add_qmgr(member, qsg=name, **options)

    def add_qmgr(
        self,
        name: str,
        *,
        qsg: str | None = None,
        listener: int | str | None = None,
        connect_timeout: float | None = None,
        **options: Any,
    ) -> None:
        """A queue manager; ``options`` are ``qsg.QMgr``'s (``platform``, ``authority``,
        ``enforce_max_expiry``...). ``listener`` gives it a TCP channel listener, so
        senders in other processes reach it at CONNAME('host(port)'): a port on
        127.0.0.1 (0: any free one, see ``World.conname``), or ``"host(port)"``.
        ``connect_timeout``: seconds its channels may take to connect and start, as
        sender or receiver (30 unless given; docs/channels.md)."""
        check_name(name, "queue manager")
        if connect_timeout is not None and not 0 < connect_timeout < float("inf"):
            raise ValueError(f"queue manager {name}: connect_timeout must be a positive number")
        where: tuple[str, int] | None = None
        if isinstance(listener, int):
            where = ("127.0.0.1", listener)
        elif listener is not None:
            where = parse_conname(listener)
        if name in self.qmgrs:
            raise ValueError(f"queue manager {name} is already in the topology")
        if qsg is not None and qsg not in self.qsgs:
            raise ValueError(f"queue manager {name}: no queue-sharing group {qsg} (add_qsg first)")
        self.qmgrs[name] = QMgrSpec(
            name, qsg, dict(options), listener=where, connect_timeout=connect_timeout
        )
        if qsg is not None:
            self.qsgs[qsg].append(name)

    def mqsc(self, q_mgr: str, text: str, *, source: str | None = None) -> None:
        """MQSC commands for ``q_mgr``, run at start in the order given. Shared objects
        (QSGDISP(SHARED), CFSTRUCT) defined through one member are every member's."""
        spec = self.qmgrs.get(q_mgr)
        if spec is None:
            raise ValueError(f"MQSC for {q_mgr}: no such queue manager in the topology")
        spec.commands += parse(text, source or f"<mqsc for {q_mgr}>")

    def cf_structure(self, qsg: str, structure: CFStructure) -> None:
        """A CF structure of ``qsg`` with its size (``CFStructure.size_kb``, the CFRM
        policy's SIZE, which MQSC cannot say)."""
        if qsg not in self.qsgs:
            raise ValueError(f"CF structure {structure.name}: no queue-sharing group {qsg}")
        self.structures.setdefault(qsg, []).append(structure)

    def build(
        self,
        groups: dict[str, QueueSharingGroup],
        on_event: EventSink | None = None,
    ) -> dict[str, QMgr]:
        """The rules-layer queue managers of this topology, joined to ``groups`` (one per
        QSG, holding its store), with their structures and MQSC applied; MQSCError names
        the first command refused."""
        qmgrs: dict[str, QMgr] = {}
        for spec in self.qmgrs.values():
            group = groups[spec.qsg] if spec.qsg is not None else None
            qmgrs[spec.name] = QMgr(spec.name, qsg=group, on_event=on_event, **spec.options)
        for qsg, structures in self.structures.items():
            first = qmgrs[self.qsgs[qsg][0]]
            for structure in structures:
                first.define_structure(structure)
        for spec in self.qmgrs.values():
            apply(qmgrs[spec.name], spec.commands)
        return qmgrs


__all__ = ["QMgrSpec", "Topology"]
