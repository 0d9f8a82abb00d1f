"""A scenario, checked and ready to play: what ``qsg.load_scenario`` returns.

Every record is frozen; names are MQ's. ``docs/scenarios.md`` documents the file format
these come from, key by key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from actors.arrivals import RateProfile
from actors.costs import Costs
from qsg.core.objects import CFStructure
from qsg.mqsc.reader import Command
from qsg.scenario.dist import Distribution, Fixed
from qsg.topology import Topology

ONE_KB = Fixed(1024)
AT_ONCE = Fixed(0.0)
NO_COSTS = Costs()


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
class Workload:
    """``[[workload]]``: ``apps`` instances of one application on one queue manager.

    ``kind`` is "putter", "getter", "requester" (puts requests, waits for each reply on
    its own temporary dynamic queue) or "server" (gets requests and replies to their
    ReplyToQ). Times are simulated seconds, except ``wait`` and ``timeout``
    (milliseconds, as WaitInterval is) and ``expiry`` (tenths of a second, as Expiry is).
    """

    label: str
    kind: str
    qmgr: str
    queue: str
    apps: int = 1
    start: float = 0.0
    stop: float | None = None  # the end of the run
    # Putters and requesters:
    rate: float = 0.0  # messages per second per application (with a profile: its peak)
    #: A load shape (``rate = { profile = ... }`` or ``{ file = ... }``, or a ``burst``):
    #: the rate over the run's time; None: ``rate`` throughout.
    profile: RateProfile | None = None
    arrival: str = "poisson"  # or "constant" or "uniform"
    count: int | None = None  # messages per application, then it stops putting
    size: Distribution = ONE_KB
    priority: Distribution | None = None  # None: MQPRI_PRIORITY_AS_Q_DEF
    expiry: int = -1  # MQEI_UNLIMITED
    persistence: int = 2  # MQPER_PERSISTENCE_AS_Q_DEF
    report: int = 0  # MQRO_* options
    reply_to: str = ""
    reply_to_qmgr: str = ""
    group_size: int = 0  # above 1: groups of this many messages, in logical order
    # Every kind:
    syncpoint: int = 0  # commit every this many messages (0: no syncpoint)
    # Getters and servers:
    service: Distribution = AT_ONCE  # time to process one message
    wait: int = 5000  # WaitInterval of each MQGET
    logical_order: bool = False
    # Requesters:
    reply_model: str = "SYSTEM.DEFAULT.MODEL.QUEUE"
    reply_name: str = "REPLY.*"
    timeout: int = 10_000  # how long a requester waits for its reply


@dataclass(frozen=True, slots=True)
class Fault:
    """``[[fault]]``: at simulated time ``at``, one of ``ACTIONS`` on its target."""

    at: float
    action: str
    qmgr: str = ""  # cf_unavailable/cf_available: one member's link (all if empty)
    channel: str = ""
    duration: float | None = None  # an action of UNDO: undone after this long
    amount: float = 0.0  # slow_cf, slow_channels: extra seconds; skew: seconds ahead;
    #                      stall_scan: seconds the holder stalls
    #: The world may refuse it (a kill of a queue manager a chaos step already took
    #: down): ``qsg run`` then notes it without failing the run.
    expected: bool = False


@dataclass(frozen=True, slots=True)
class AtCommand:
    """``[[at]]``: at simulated time ``at``, the MQSC command ``mqsc`` on ``qmgr``; its
    reply goes to the event log (a ``CommandRun``) and the run's summary."""

    at: float
    qmgr: str
    mqsc: str


#: What a fault can do, and what it needs named ("qmgr?": a queue manager, optional).
ACTIONS: dict[str, str] = {
    "kill": "qmgr",
    "restart": "qmgr",
    "pause": "qmgr",
    "resume": "qmgr",
    "stop_channel": "channel",
    "start_channel": "channel",
    "break_channel": "channel",
    "cf_unavailable": "qmgr?",
    "cf_available": "qmgr?",
    "cf_fail": "",
    "cf_restart": "",
    "slow_cf": "amount",
    "normal_cf": "",
    "slow_channels": "amount",
    "normal_channels": "",
    "skew": "qmgr",
    "unskew": "qmgr",
    "refresh_expiry": "qmgr",
    # The expiry-scan lease holder (or qmgr) stalls mid-scan for ``amount`` seconds.
    "stall_scan": "amount",
    "heal": "",
}
#: The faults a ``duration`` undoes, and what undoes them.
UNDO = {
    "kill": "restart", "pause": "resume", "stop_channel": "start_channel",
    "cf_unavailable": "cf_available", "cf_fail": "cf_restart", "slow_cf": "normal_cf",
    "slow_channels": "normal_channels", "skew": "unskew",
}  # fmt: skip
#: Actions on the coupling facility: they need a QSG.
CF_ACTIONS = frozenset({"cf_unavailable", "cf_available", "slow_cf", "normal_cf",
                        "cf_fail", "cf_restart"})  # fmt: skip
#: Actions on the coupling facility's server process: they need the embedded one.
SERVER_ACTIONS = frozenset({"cf_fail", "cf_restart"})


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
        for qm in self.qmgrs:
            topology.add_qmgr(qm.name, qsg=qm.qsg, platform=qm.platform, listener=qm.listener,
                              connect_timeout=qm.connect_timeout)  # fmt: skip
        for qsg in self.qsgs:  # shared definitions through the first member
            topology.qmgrs[qsg.members[0]].commands += qsg.commands
        for qm in self.qmgrs:
            topology.qmgrs[qm.name].commands += qm.commands
        return topology


__all__ = [
    "ACTIONS", "CF_ACTIONS", "SERVER_ACTIONS", "UNDO", "AtCommand", "ChannelSpec", "Fault",
    "QMgrSettings", "QSGSpec", "RunSettings", "Scenario", "Workload",
]  # fmt: skip
