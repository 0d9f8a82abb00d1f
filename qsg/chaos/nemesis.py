"""The nemesis: a random fault schedule for one chaos run, drawn from the run's seed.

Swarm testing: rather than every fault kind at a fixed rate in every run, each run's
seed first draws which kinds are on (each with even odds, at least one), then how many
of each and when, where and for how long. Runs that leave a kind out explore
interleavings a blanket schedule would drown. The faults are the scenario format's
(``qsg.scenario.model.Fault``), so a drawn schedule can be pasted into a scenario file.

Kinds added after the first campaigns (``LATER``) are drawn from a stream of their own
(the run's seed, salted): a seed that leaves them out keeps the schedule it always had,
so a run seed named in a regression test or in bench/RESULTS.md replays as before.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from qsg import CMQC
from qsg.core.sharing import QueueSharingGroup
from qsg.scenario.model import Fault, Scenario

#: Every kind of fault the nemesis knows, with what it does.
KINDS: dict[str, str] = {
    "kill": "kill a queue manager (restarted after a while)",
    "pause": "pause a queue manager past its lease",
    "cf_member": "one member loses its CF link",
    "cf_all": "the coupling facility is unavailable to all",
    "cf_fail": "the CF's server process killed, restarted later, recovered (in a QSG "
    "with several facilities, the group's own server or one facility's)",
    "slow_cf": "CF access latency spike",
    "break_channel": "break a channel's link mid-batch",
    "stop_channel": "STOP CHANNEL, START CHANNEL later",
    "slow_channels": "channel latency spike",
    "skew": "skew a member's lease clock",
    "refresh": "REFRESH QMGR TYPE(EXPIRY) on a member",
    "stall_scan": "the expiry-scan lease holder stalls mid-scan past its lease, then scans",
    "rogue_partner": "a peer starts a channel at its receiver as its sender, and replays "
    "or skips message sequence numbers",
    "structure_fail": "one CF structure fails (RESET CFSTRUCT ACTION(FAIL)), RECOVER "
    "CFSTRUCT later (or RECAUTO, or the next MQOPEN of a RECOVER(NO) one)",
    "cf_conlos": "one member loses connectivity to a CF structure or facility (its "
    "CFCONLOS ends it or it tolerates the loss), back later",
    "facility_fail": "one of a QSG's coupling facilities fails for every member (its "
    "structures rebuilt elsewhere, or carried on by their duplex), restored later",
    "stop_chinit": "STOP CHINIT SHARED(RESTART) on a member running shared channels, "
    "START CHINIT later",
    "kill_chinit": "a member's channel initiator fails, START CHINIT later",
    "stop_listener": "a member's group listener stops, starts again later",
}
#: Kinds drawn from their own stream (see the module's docstring), in the order drawn.
LATER = (
    "stall_scan",
    "rogue_partner",
    "structure_fail",
    "cf_conlos",
    "facility_fail",
    "stop_chinit",
    "kill_chinit",
    "stop_listener",
)
#: The fault actions the ``LATER`` kinds schedule.
LATER_ACTIONS = frozenset(
    {
        "stall_scan",
        "rogue_partner",
        "structure_fail",
        "cf_connectivity_loss",
        "facility_fail",
        "stop_chinit",
        "kill_chinit",
        "stop_listener",
    }
)
#: How far from the sender's last message a rogue partner numbers its batch: replays
#: (0 and back) and skips (2 and on, to the far side of the wrap); never 1, the next.
ROGUE_OFFSETS = (0, -1, -5, 2, 3, 10, 10**8)
#: Kinds that may last until the heal in liveness mode (no duration).
LASTING = frozenset({"kill", "pause", "cf_member", "cf_all", "cf_fail", "stop_channel"})


@dataclass(frozen=True, slots=True)
class Targets:
    """What in a scenario can be hit, and the times that bound recovery."""

    qmgrs: tuple[str, ...]
    members: tuple[str, ...]  # QSG members
    senders: tuple[tuple[str, str], ...]  # (queue manager, sender channel)
    lease: float  # the longest expiry-scan lease (2 x EXPRYINT), 0 if none
    retry: float  # the longest first retry interval (SHORTTMR) of a sender channel
    scanning: tuple[str, ...]  # QSGs with a member that scans (EXPRYINT set)
    server: bool = False  # the run starts the CF's server itself: it can fail it
    structures: tuple[str, ...] = ()  # CF structures at CFLEVEL(5): RESET can fail them
    #: (a member, one of its QSG's facilities) for each QSG with several facilities.
    facilities: tuple[tuple[str, str], ...] = ()
    #: (a member, a structure or facility of its QSG it can lose connectivity to).
    links: tuple[tuple[str, str, str], ...] = ()
    #: Members that define a shared sender channel (its transmission queue shared):
    #: their channel initiator can stop or fail. A shared sender is not among
    #: ``senders``: it runs on one member or another, so a fault aimed at one
    #: member's instance would miss it.
    shared: tuple[str, ...] = ()
    #: Members whose scenario starts a group listener (INDISP(GROUP)).
    listening: tuple[str, ...] = ()

    def kinds(self) -> list[str]:
        """The kinds this scenario offers a target for."""
        kinds = ["kill", "pause"] if self.qmgrs else []
        if self.members:
            kinds += ["cf_member", "cf_all", "slow_cf", "skew", "refresh"]
            kinds += ["cf_fail"] if self.server else []
        if self.senders:
            kinds += ["break_channel", "stop_channel", "slow_channels"]
        return kinds

    def later_kinds(self) -> list[str]:
        """The ``LATER`` kinds this scenario offers a target for: a stall needs a QSG
        with a member that scans, so that there is a lease to hold and to lose; a rogue
        partner needs a sender channel to pass for."""
        kinds = ["stall_scan"] if self.scanning and self.lease else []
        kinds += ["rogue_partner"] if self.senders else []
        kinds += ["structure_fail"] if self.structures else []
        kinds += ["cf_conlos"] if self.links else []
        kinds += ["facility_fail"] if self.facilities else []
        kinds += ["stop_chinit", "kill_chinit"] if self.shared else []
        return kinds + (["stop_listener"] if len(self.listening) > 1 else [])


def targets(scenario: Scenario, *, server: bool = False) -> Targets:
    """The targets of ``scenario``, from its topology built in process (as ``check``);
    ``server``: the runs start the CF's server themselves (on Redis, no URL given)."""
    groups = {q.name: QueueSharingGroup(q.name) for q in scenario.qsgs}
    qmgrs = scenario.topology.build(groups)
    members = tuple(m for q in scenario.qsgs for m in q.members)
    senders, retry, shared = [], 0.0, []
    for name, qm in qmgrs.items():
        for channel in qm.local.channels.values():
            if channel.channel_type == CMQC.MQCHT_SENDER:
                retry = max(retry, float(channel.retry_interval(1) or 0))
                if qm.qsg is not None and channel.xmit_q_name in qm.qsg.shared.queues:
                    shared.append(name)
                else:
                    senders.append((name, channel.name))
    listening = sorted(
        {
            step.qmgr
            for step in scenario.commands
            if "INDISP(GROUP)" in step.mqsc.upper().replace(" ", "")
        }
    )
    intervals = [qmgrs[m].expiry_interval or 0 for m in members]
    scanning = tuple(
        q.name for q in scenario.qsgs if any(qmgrs[m].expiry_interval for m in q.members)
    )
    facilities = tuple(
        (q.members[0], f) for q in scenario.qsgs if len(q.facilities) > 1 for f in q.facilities
    )
    links = tuple(
        (m, name, "")
        for q in scenario.qsgs
        for m in q.members
        for name, structure in sorted(groups[q.name].shared.structures.items())
        if structure.cf_level >= 5
    ) + tuple((m, "", f) for q in scenario.qsgs for m in q.members for f in q.facilities)
    return Targets(
        tuple(qmgrs),
        members,
        tuple(senders),
        2.0 * max(intervals, default=0),
        retry,
        scanning,
        server and bool(members),
        tuple(
            name
            for group in groups.values()
            for name, structure in sorted(group.shared.structures.items())
            if structure.cf_level >= 5
        ),
        facilities,
        links,
        tuple(sorted(set(shared))),
        tuple(listening),
    )


def draw(
    targets: Targets,
    seed: int,
    window: float,
    *,
    lasting: bool = False,
) -> tuple[list[str], tuple[Fault, ...]]:
    """The kinds switched on and the faults of one run, all within ``window`` seconds.

    Every fault is undone inside the window (transient), except, with ``lasting``, some
    of the ``LASTING`` kinds, which the heal at the window's end lifts."""
    rng = random.Random(seed)
    offered = targets.kinds()
    kinds = [k for k in offered if rng.random() < 0.5] or [rng.choice(offered)]
    faults: list[Fault] = []
    for kind in kinds:
        for _ in range(rng.randint(1, 4)):
            at = round(rng.uniform(0.0, window * 0.9), 3)
            longest = max(0.5, min(window / 4, window - at - 0.001))
            duration: float | None = round(rng.uniform(min(0.5, longest), longest), 3)
            if lasting and kind in LASTING and rng.random() < 0.5:
                duration = None
            faults.append(_fault(kind, rng, targets, at, duration))
    later = random.Random(f"{seed}:later")
    for kind in targets.later_kinds():
        # Each kind from a stream of its own: one added later leaves the draws of the
        # kinds before it as they were.
        if kind != "stall_scan":
            later = random.Random(f"{seed}:later:{kind}")
        if later.random() < 0.5:
            kinds.append(kind)
            for _ in range(later.randint(1, 2)):
                at = round(later.uniform(0.0, window * 0.9), 3)
                # The kinds that last a while are cut to end inside the window.
                left = round(window - at - 0.001, 3)
                faults.append(_fault(kind, later, targets, at, left))
    return kinds, tuple(sorted(faults, key=lambda f: f.at))


def _within(lasts: float, longest: float | None) -> float:
    """A fault's own length cut to the longest the window leaves it (``draw``'s
    ``duration``): every transient fault is undone inside the window."""
    return lasts if longest is None else min(lasts, longest)


def _fault(kind: str, rng: random.Random, t: Targets, at: float, duration: float | None) -> Fault:
    if kind in ("kill", "pause"):
        return Fault(at, kind, qmgr=rng.choice(t.qmgrs), duration=duration)
    if kind in ("cf_member", "cf_all"):
        member = rng.choice(t.members) if kind == "cf_member" else ""
        return Fault(at, "cf_unavailable", qmgr=member, duration=duration)
    if kind == "cf_fail":
        # With several facilities, the group's own server or one facility's (a draw
        # only then: other scenarios' schedules stay as they were).
        member, facility = rng.choice((("", ""), *t.facilities)) if t.facilities else ("", "")
        return Fault(at, "cf_fail", qmgr=member, facility=facility, duration=duration)
    if kind == "slow_cf":
        return Fault(at, "slow_cf", duration=duration, amount=round(rng.uniform(0.001, 0.05), 4))
    if kind == "slow_channels":
        amount = round(rng.uniform(0.05, 1.0), 3)
        return Fault(at, "slow_channels", duration=duration, amount=amount)
    if kind in ("break_channel", "stop_channel"):
        q_mgr, channel = rng.choice(t.senders)
        return Fault(
            at,
            kind,
            qmgr=q_mgr,
            channel=channel,
            duration=duration if kind == "stop_channel" else None,
        )
    if kind == "skew":
        spread = max(1.0, 2 * t.lease)
        amount = round(rng.uniform(-spread, spread), 3)
        return Fault(at, "skew", qmgr=rng.choice(t.members), duration=duration, amount=amount)
    if kind == "refresh":
        return Fault(at, "refresh_expiry", qmgr=rng.choice(t.members))
    if kind == "stall_scan":  # past the lease, so that a peer takes it over meanwhile
        return Fault(at, "stall_scan", amount=round(rng.uniform(1.1 * t.lease, 2 * t.lease), 3))
    if kind == "structure_fail":  # always recovered within the run: RECOVER CFSTRUCT
        lasts = round(rng.uniform(0.5, 5.0), 3)
        return Fault(at, "structure_fail", structure=rng.choice(t.structures), duration=lasts)
    if kind == "cf_conlos":  # always back within the run
        member, structure, facility = rng.choice(t.links)
        lasts = round(rng.uniform(0.5, 5.0), 3)
        return Fault(
            at,
            "cf_connectivity_loss",
            qmgr=member,
            structure=structure,
            facility=facility,
            duration=lasts,
        )
    if kind == "facility_fail":
        member, facility = rng.choice(t.facilities)
        lasts = round(rng.uniform(0.5, 5.0), 3)
        return Fault(at, "facility_fail", qmgr=member, facility=facility, duration=lasts)
    if kind in ("stop_chinit", "kill_chinit"):  # START CHINIT within the window
        lasts = _within(round(rng.uniform(0.5, 10.0), 3), duration)
        return Fault(at, kind, qmgr=rng.choice(t.shared), duration=lasts)
    if kind == "stop_listener":
        lasts = _within(round(rng.uniform(0.5, 10.0), 3), duration)
        return Fault(at, kind, qmgr=rng.choice(t.listening), duration=lasts)
    if kind == "rogue_partner":
        q_mgr, channel = rng.choice(t.senders)
        offset = rng.choice(ROGUE_OFFSETS)
        return Fault(at, "rogue_partner", qmgr=q_mgr, channel=channel, amount=offset)
    raise AssertionError(kind)


__all__ = [
    "KINDS",
    "LASTING",
    "LATER",
    "LATER_ACTIONS",
    "ROGUE_OFFSETS",
    "Targets",
    "draw",
    "targets",
]
