"""What the actors are told to do: the applications to run and the faults to inject.

The scenario layer (``qsg.scenario``) reads these from a scenario file and builds them;
the actors own them, so that nothing in ``actors`` reads the scenario's model (the
layers run down only: docs/architecture.md). Every record is frozen; names are MQ's.
``docs/scenarios.md`` documents the file keys they come from.
"""

from __future__ import annotations

from dataclasses import dataclass

from actors.arrivals import RateProfile
from actors.dist import Distribution, Fixed

ONE_KB = Fixed(1024)
AT_ONCE = Fixed(0.0)


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
    #                      stall_scan: seconds the holder stalls; rogue_partner: the
    #                      forged batch's number from the sender's last (0 replays it)
    #: The world may refuse it (a kill of a queue manager a chaos step already took
    #: down): ``qsg run`` then notes it without failing the run.
    expected: bool = False
    #: structure_fail, structure_recover: the CF structure (RESET / RECOVER CFSTRUCT);
    #: cf_connectivity_loss: the one structure lost (optional).
    structure: str = ""
    #: facility_fail, facility_restore, and cf_connectivity_loss (optional): a
    #: coupling facility of the QSG (``qsg.core.facilities``).
    facility: str = ""


#: What a fault can do, and what it needs named ("qmgr?": a queue manager, optional).
ACTIONS: dict[str, str] = {
    "kill": "qmgr",
    "restart": "qmgr",
    "pause": "qmgr",
    "resume": "qmgr",
    "stop_channel": "channel",
    "start_channel": "channel",
    "break_channel": "channel",
    # A peer starts the channel at its receiver as its sender, its batch numbered
    # ``amount`` from the sender's last message (0 replays it, 2 or more skip).
    "rogue_partner": "channel",
    # A member's channel initiator: STOP CHINIT (SHARED(RESTART)), or its failure; its
    # shared sending channels restart on other members; START CHINIT undoes either.
    "stop_chinit": "qmgr",
    "kill_chinit": "qmgr",
    "start_chinit": "qmgr",
    # A member's group listener (INDISP(GROUP)) stops taking connections to the
    # group's address; start_listener starts it again.
    "stop_listener": "qmgr",
    "start_listener": "qmgr",
    "cf_unavailable": "qmgr?",
    "cf_available": "qmgr?",
    # The group's shared repository (Db2 on z/OS) goes down, and comes back.
    "repository_unavailable": "",
    "repository_available": "",
    "cf_fail": "",
    "cf_restart": "",
    # One CF structure fails (RESET CFSTRUCT ACTION(FAIL)); RECOVER CFSTRUCT undoes it.
    "structure_fail": "structure",
    "structure_recover": "structure",
    # One member loses connectivity to a structure, a facility, or (neither named) its
    # group's first facility; CFCONLOS says whether it ends (qsg.core.conlos).
    "cf_connectivity_loss": "qmgr",
    "cf_connectivity_restored": "qmgr",
    # A coupling facility of several is lost to every member (its structures move).
    "facility_fail": "facility",
    "facility_restore": "facility",
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
    "kill": "restart",
    "pause": "resume",
    "stop_channel": "start_channel",
    "stop_chinit": "start_chinit",
    "kill_chinit": "start_chinit",
    "stop_listener": "start_listener",
    "cf_unavailable": "cf_available",
    "repository_unavailable": "repository_available",
    "cf_fail": "cf_restart",
    "structure_fail": "structure_recover",
    "cf_connectivity_loss": "cf_connectivity_restored",
    "facility_fail": "facility_restore",
    "slow_cf": "normal_cf",
    "slow_channels": "normal_channels",
    "skew": "unskew",
}
#: Actions on the coupling facility (and the shared repository): they need a QSG.
CF_ACTIONS = frozenset(
    {
        "cf_unavailable",
        "cf_available",
        "repository_unavailable",
        "repository_available",
        "slow_cf",
        "normal_cf",
        "cf_fail",
        "cf_restart",
        "structure_fail",
        "structure_recover",
        "cf_connectivity_loss",
        "cf_connectivity_restored",
        "facility_fail",
        "facility_restore",
    }
)
#: Actions on the coupling facility's server process: they need the embedded one.
SERVER_ACTIONS = frozenset({"cf_fail", "cf_restart"})


__all__ = [
    "ACTIONS",
    "AT_ONCE",
    "CF_ACTIONS",
    "ONE_KB",
    "SERVER_ACTIONS",
    "UNDO",
    "Fault",
    "Workload",
]
