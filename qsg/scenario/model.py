"""A scenario, checked and ready to play: what ``qsg.load_scenario`` returns.

Every record is frozen; names are MQ's. ``docs/scenarios.md`` documents the file format
these come from, key by key. The records the actors play (``Workload``, ``Fault``, and
the faults' vocabulary) are the actors' own (``actors.config``): the scenario layer
builds them, and names them here too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from actors.config import ACTIONS, CF_ACTIONS, SERVER_ACTIONS, UNDO, Fault, Workload
from actors.costs import Costs
from actors.topology import Topology
from qsg.core.objects import CFStructure
from qsg.mqsc.reader import Command
from qsg.scenario import system
from qsg.scenario.system import STRUCTURE

NO_COSTS = Costs()

#: The longest run, in seconds (about 31 years): a float still tells simulated instants
#: a tenth of a microsecond apart there (an MQI call's costs are microseconds), and
#: deadlines a run computes from it stay finite. ``[run] duration``, ``--duration`` and
#: ``qsg mqsc --at`` are held to it.
MAX_DURATION = 1e9


@dataclass(frozen=True, slots=True)
class RunSettings:
    """``[run]``: how long, which seed, which clock, how often depths are sampled."""

    duration: float
    seed: int = 0
    clock: str = "virtual"  # or "wall"
    sample_interval: float = 1.0
    in_process: bool = False  # shared queues in process instead of on Redis
    #: The embedded CF server keeps an append-only file: after cf_fail and cf_restart,
    #: RECOVER(YES) structures get their persistent messages back.
    cf_persistent: bool = False
    #: Simulated seconds at the start left out of every statistic of the summary.
    warmup: float = 0.0


@dataclass(frozen=True, slots=True)
class QSGSpec:
    """``[qsg.NAME]``: a queue-sharing group, its members, CF structures and the
    definitions of its shared objects."""

    name: str
    members: tuple[str, ...]
    structures: tuple[CFStructure, ...] = ()
    commands: tuple[Command, ...] = ()
    #: Its coupling facilities (``facilities``; empty: one, ``CF01``).
    facilities: tuple[str, ...] = ()
    #: ``system_objects``: IBM's CSQ4INSS objects defined first (``qsg.scenario.system``).
    system_objects: bool = True


@dataclass(frozen=True, slots=True)
class QMgrSettings:
    """``[qmgr.NAME]``: a queue manager's platform and definitions (EXPRYINT among them,
    as an ALTER QMGR command), and the port of its TCP listener, if it has one."""

    name: str
    qsg: str | None = None
    platform: int = 0  # MQPL_ZOS unless a scenario says otherwise
    commands: tuple[Command, ...] = ()
    listener: int | None = None  # a port on 127.0.0.1
    connect_timeout: float | None = None  # seconds its channels may take to start


@dataclass(frozen=True, slots=True)
class ChannelSpec:
    """``[[channel]]``: a sender channel on ``from_qmgr`` and its receiver on ``to_qmgr``."""

    name: str
    from_qmgr: str
    to_qmgr: str
    xmitq: str
    batch_size: int = 50


@dataclass(frozen=True, slots=True)
class AtCommand:
    """``[[at]]``: at simulated time ``at``, the MQSC command ``mqsc`` on ``qmgr``; its
    reply goes to the event log (a ``CommandRun``) and the run's summary."""

    at: float
    qmgr: str
    mqsc: str


@dataclass(frozen=True, slots=True)
class Scenario:
    """A scenario file, checked: ``topology`` builds the world it describes."""

    path: Path | None
    description: str
    run: RunSettings
    costs: Costs = NO_COSTS
    qsgs: tuple[QSGSpec, ...] = ()
    qmgrs: tuple[QMgrSettings, ...] = ()
    channels: tuple[ChannelSpec, ...] = ()
    workloads: tuple[Workload, ...] = ()
    faults: tuple[Fault, ...] = ()
    commands: tuple[AtCommand, ...] = ()  # [[at]]: MQSC at a time
    text: str = field(default="", repr=False)  # the file as read

    @property
    def topology(self) -> Topology:
        """A new ``qsg.Topology`` of this scenario (its MQSC already parsed)."""
        topology = Topology(costs=self.costs)
        for qsg in self.qsgs:
            topology.qsgs[qsg.name] = []
            topology.structures[qsg.name] = list(qsg.structures)
            if qsg.facilities:
                topology.facilities[qsg.name] = qsg.facilities
            if qsg.system_objects and all(s.name != STRUCTURE.name for s in qsg.structures):
                topology.structures[qsg.name].insert(0, STRUCTURE)
        for qm in self.qmgrs:
            topology.add_qmgr(
                qm.name,
                qsg=qm.qsg,
                platform=qm.platform,
                listener=qm.listener,
                connect_timeout=qm.connect_timeout,
            )
        for qsg in self.qsgs:  # shared definitions through the first member
            if qsg.system_objects:
                members = (m for m in self.qmgrs if m.qsg == qsg.name)
                own = [*qsg.commands, *(c for m in members for c in m.commands)]
                topology.qmgrs[qsg.members[0]].commands += system.commands(own)
            topology.qmgrs[qsg.members[0]].commands += qsg.commands
        for qm in self.qmgrs:
            topology.qmgrs[qm.name].commands += qm.commands
        return topology


__all__ = [
    "ACTIONS",
    "CF_ACTIONS",
    "SERVER_ACTIONS",
    "UNDO",
    "AtCommand",
    "ChannelSpec",
    "Fault",
    "QMgrSettings",
    "QSGSpec",
    "RunSettings",
    "Scenario",
    "Workload",
]
