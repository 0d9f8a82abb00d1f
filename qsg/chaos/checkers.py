"""The checkers of a chaos run: each judges the history and reports what it found.

In the spirit of Jepsen's total-queue checker, every verdict gives counts, fractions and
the MsgIds involved, not just a yes or no. ``SAFETY`` lists the checkers every run gets;
``liveness`` is added in liveness mode. A checker's ``ok`` is False only for a violation
of what MQ promises; facts that are allowed (an unknown put that did come out,
nonpersistent messages lost to a restart) are counted in ``info``. A checker that found
nothing to judge (no expiring message delivered, no group read, no member failed...)
is not exercised: not a violation, and not a pass either (``Verdict.status``).

``qsg exec --check``, ``qsg chaos`` and ``qsg chaos --processes`` judge with these same
checkers. A message still on a queue at the run's end (``Message.on_queue``, from the
run's final state) is neither lost nor left behind by a recovery; a message whose put
failed or was backed out is unexpected there as in a get.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from actors.config import UNDO
from actors.events import (
    ChannelStateChanged,
    ExpiryScanned,
    FaultInjected,
    LeaseChanged,
    OpCompleted,
    PeerRecovered,
    QMgrKilled,
    QMgrRestarted,
)
from actors.faults import target_of
from coupling.lease import EXPIRY_SCAN
from qsg import CMQC
from qsg.chaos.history import LOST, History, Message
from qsg.core.events import DeadLettered, ReportLost, ReportPut

#: Remaining expiry may exceed the exact remainder by this many tenths (MQ rounds up).
ROUNDING = 1
#: A verdict's status when the checker found a violation, and when it had nothing to judge.
VIOLATION, NOT_EXERCISED = "VIOLATION", "not exercised"


@dataclass(slots=True)
class Verdict:
    """One checker's finding: ``ok``, the ``counts`` that matter, the MsgIds (or other
    names) involved in a violation, and what is allowed but worth knowing (``info``).
    ``exercised``: the history held something for the checker to judge. ``notes``: lines
    to show whatever the status (what became of each fault, a store not read)."""

    name: str
    ok: bool
    counts: dict[str, int] = field(default_factory=dict)
    involved: list[str] = field(default_factory=list)
    info: dict[str, float] = field(default_factory=dict)
    exercised: bool = True
    notes: list[str] = field(default_factory=list)

    @property
    def status(self) -> str:
        """VIOLATION, NOT_EXERCISED (nothing to judge: no violation, and no pass either),
        or "ok"."""
        if not self.ok:
            return VIOLATION
        return "ok" if self.exercised else NOT_EXERCISED

    def summary(self) -> str:
        parts = [f"{k} {v}" for k, v in self.counts.items()]
        parts += [f"{k} {v:g}" for k, v in self.info.items()]
        return ", ".join(parts)


def _ids(messages: list[Message]) -> list[str]:
    return [_shown(m.msg_id) for m in messages]


def _shown(msg_id: bytes) -> str:
    """A MsgId as a verdict names it: as text when it is printable (a client's chosen
    one), else in hex (a queue manager's, "AMQ QM1 " and binary)."""
    text = msg_id.decode("ascii", "replace")
    return text if text.isprintable() else msg_id.hex()


def _fraction(part: int, whole: int) -> float:
    return round(part / whole, 6) if whole else 0.0


def check_facility(failure: str | None, failures: int) -> Verdict:
    """The run's coupling facility failed with no fault scheduled (``failure``: the
    run's one line saying so, ``RunResult.failure``): the run did not test what the
    campaign meant it to, so it is not a pass."""
    return Verdict(
        "facility",
        failure is None,
        {"unscheduled_failures": failures},
        [failure] if failure is not None else [],
    )


def check_queue(history: History) -> Verdict:
    """Jepsen's total queue: lost (acknowledged persistent, never delivered, never
    expired, not on a queue at the end, and not lost as MQ allows with a coupling
    facility that failed without recovery: ``History.lost_to_cf``; one whose queue the
    end could not read is counted as ``not_read``), unexpected
    (delivered or on a queue at the end, never attempted, or known not to have
    happened), duplicated (delivered twice, outside a backout), recovered (unknown put
    that came out), remaining (acknowledged, still on a queue at the end)."""
    msgs = list(history.messages.values())
    acked = [m for m in msgs if m.fate == "ok"]
    out = [m for m in msgs if m.final or m.maybe or m.on_queue]
    gone = [m for m in acked if not (m.final or m.maybe or m.discarded or m.on_queue)]
    to_cf = [m for m in gone if history.lost_to_cf(m)]
    unread = [m for m in gone if history.unread(m) and m not in to_cf]
    lost = [m for m in gone if m.persistent and m not in to_cf and m not in unread]
    gone_np = [m for m in gone if not m.persistent]
    phantoms = [m for m in out if m.fate == "failed"]
    duplicated = [m for m in msgs if len(m.final) > 1]
    recovered = [m for m in out if m.fate == "unknown"]
    remaining = [m for m in acked if m.on_queue]
    unexpected = len(history.strangers) + len(phantoms)
    involved = _ids(lost) + _ids(phantoms) + _ids(duplicated)
    involved += [_shown(msg_id) for msg_id, _ in history.strangers]
    stores = history.final.unread.values() if history.final is not None else ()
    return Verdict(
        "queue",
        not (lost or unexpected or duplicated),
        {
            "attempted": len(msgs),
            "acknowledged": len(acked),
            "lost": len(lost),
            "unexpected": unexpected,
            "duplicated": len(duplicated),
            "recovered": len(recovered),
            "remaining": len(remaining),
        },
        involved,
        {
            "lost_fraction": _fraction(len(lost), len(acked)),
            "nonpersistent_gone": len(gone_np),
            "lost_to_cf_failure": len(to_cf),
            "not_read": len(unread),
            "unknown": len([m for m in msgs if m.fate == "unknown"]),
        },
        exercised=bool(msgs),
        # Where the end could not read: what was there is neither lost nor remaining.
        notes=[f"not read at the end: {why}" for why in stores],
    )


def check_expiry(history: History) -> Verdict:
    """No message delivered after its expiry ran out (nor with Expiry 0 left); no
    remaining expiry seen greater than what was put less the time since."""
    expired, grew = [], []
    for m in history.messages.values():
        if m.expiry == CMQC.MQEI_UNLIMITED:
            if any(left != CMQC.MQEI_UNLIMITED for _, left in m.remaining):
                grew.append(m)
            continue
        deadline = m.started + m.expiry / 10
        # Judged at the get's invocation: the get happened no earlier (a wall clock's
        # completion comes later than the call itself).
        if any(d.invoked > deadline + 1e-9 or d.expiry == 0 for d in m.final + m.maybe):
            expired.append(m)
        if any(left > m.expiry - (t - m.started) * 10 + ROUNDING for t, left in m.remaining):
            grew.append(m)
    delivered = sum(1 for m in history.messages.values() if m.final)
    # Judged: a message put with an expiry that was delivered or seen on its way.
    judged = any(
        m.expiry != CMQC.MQEI_UNLIMITED and (m.remaining or m.final or m.maybe)
        for m in history.messages.values()
    )
    return Verdict(
        "expiry",
        not (expired or grew),
        {"expired_delivered": len(expired), "expiry_grew": len(grew)},
        _ids(expired) + _ids(grew),
        {"expired_fraction": _fraction(len(expired), delivered)},
        exercised=judged,
    )


def check_scans(history: History) -> Verdict:
    """Shared queues scanned by one member per lease epoch, never under a stale token.

    A scan is stale if a newer token had been granted at an earlier simulated time: a
    grant and a scan at the same instant were concurrent at the facility (on Redis the
    two calls can share a pipeline), and either order is allowed."""
    members = history.scopes.members if history.scopes else {}
    grants: dict[str, list[tuple[float, int]]] = defaultdict(list)  # QSG -> (time, token)
    scanners: dict[tuple[str, int], set[str]] = defaultdict(set)
    stale: list[str] = []
    scans = 0
    for event in history.events:
        if isinstance(event, LeaseChanged) and event.role == EXPIRY_SCAN:
            grants[members.get(event.q_mgr, "")].append((event.time, event.token))
        elif (
            isinstance(event, ExpiryScanned)
            and event.shared
            and (event.token or event.cause != "REFRESH")
        ):
            # (Left out: REFRESH QMGR TYPE(EXPIRY) by a member without the lease, with
            # no token: an explicit request, which the lease does not govern.)
            scans += 1
            qsg = members.get(event.q_mgr, "")
            scanners[qsg, event.token].add(event.q_mgr)
            before = max((t for when, t in grants[qsg] if when < event.time), default=0)
            if not event.token or event.token < before:
                stale.append(f"{event.q_mgr}@{event.time:g} token {event.token}")
    shared_epochs = [
        f"{qsg} token {t}: {', '.join(sorted(who))}"
        for (qsg, t), who in scanners.items()
        if len(who) > 1
    ]
    return Verdict(
        "scan-lease",
        not (stale or shared_epochs),
        {
            "shared_scans": scans,
            "epochs": len(scanners),
            "two_scanners": len(shared_epochs),
            "stale_token": len(stale),
        },
        shared_epochs + stale,
        exercised=scans > 0,
    )


def check_recovery(history: History) -> Verdict:
    """Every failed QSG member's units of work recovered (by a peer, or at its restart),
    and every message a failed or abandoned unit of work held came out again (was
    delivered after, in the history's order, or was on a queue at the end)."""
    members = set(history.scopes.members) if history.scopes else set()
    pending: dict[str, float] = {}
    failed = 0
    for event in history.events:
        if isinstance(event, QMgrKilled) and event.q_mgr in members:
            failed += 1
            pending.setdefault(event.q_mgr, event.time)
        elif isinstance(event, PeerRecovered):
            pending.pop(event.failed, None)
        elif isinstance(event, QMgrRestarted):
            pending.pop(event.q_mgr, None)
    stuck = [
        m
        for m in history.messages.values()
        if m.returned
        and (m.persistent or _shared(history, m))
        and not any(d.order > m.returned[-1].order for d in m.final + m.maybe)
        and not m.discarded
        and not m.on_queue
        and not history.unread(m)
        and not history.lost_to_cf(m)
    ]
    held = sum(1 for m in history.messages.values() if m.returned)
    return Verdict(
        "recovery",
        not (pending or stuck),
        {
            "failed_members": failed,
            "unrecovered_members": len(pending),
            "held_by_backed_out": held,
            "never_came_back": len(stuck),
        },
        sorted(pending) + _ids(stuck),
        exercised=bool(failed or held),
    )


def _shared(history: History, m: Message) -> bool:
    scopes = history.scopes
    return scopes is not None and scopes.scope(m.q_mgr, m.queue) != m.q_mgr


def check_groups(history: History) -> Verdict:
    """Each reader gets a group's messages in order: sequence numbers rising by one, a
    gap only where the missing message expired."""
    seen: dict[tuple[str, bytes], int] = {}
    broken: list[str] = []
    by_group: dict[bytes, dict[int, Message]] = defaultdict(dict)
    deliveries = []
    for m in history.messages.values():
        for d in m.final:
            if d.seq and d.group_id.strip(b"\0") and d.app != "drain":
                deliveries.append((d.time, d, m))
                by_group[d.group_id][d.seq] = m
    for _, d, _m in sorted(deliveries, key=lambda x: x[0]):
        key = (d.app, d.group_id)
        last = seen.get(key, 0)
        skipped = range(last + 1, d.seq)
        ok_gap = (
            all(s in by_group[d.group_id] and by_group[d.group_id][s].discarded for s in skipped)
            if last
            else True
        )
        if d.seq <= last or not ok_gap:
            broken.append(f"{d.app} group {d.group_id.hex()[:12]} seq {d.seq} after {last}")
        seen[key] = max(last, d.seq)
    return Verdict(
        "group-order",
        not broken,
        {"groups_read": len({g for _, g in seen}), "out_of_order": len(broken)},
        broken,
        exercised=bool(deliveries),
    )


def check_reports(history: History) -> Verdict:
    """One expiration report for every discarded message that asked for one; none for a
    message that was not discarded."""
    reports: Counter[bytes] = Counter()
    for event in history.events:
        # A report goes to its ReplyToQ, else to the dead-letter queue, else is lost.
        expiration = isinstance(event, ReportPut) and event.feedback == CMQC.MQFB_EXPIRATION
        elsewhere = isinstance(event, ReportLost | DeadLettered) and bool(event.original_msg_id)
        if expiration or elsewhere:
            reports[event.original_msg_id] += 1  # type: ignore[union-attr]
    missing, twice, unasked = [], [], []
    for m in history.messages.values():
        wanted = bool(m.report & CMQC.MQRO_EXPIRATION) and bool(m.discarded)
        count = reports.get(m.msg_id, 0)
        if wanted and count == 0:
            missing.append(m)
        elif count > 1 or len(m.discarded) > 1:
            twice.append(m)
        elif count and not m.discarded:
            unasked.append(m)
    asked = sum(1 for m in history.messages.values() if m.report & CMQC.MQRO_EXPIRATION)
    return Verdict(
        "expiry-reports",
        not (missing or twice or unasked),
        {
            "asked": asked,
            "reports": sum(reports.values()),
            "missing": len(missing),
            "duplicated": len(twice),
            "without_discard": len(unasked),
        },
        _ids(missing) + _ids(twice) + _ids(unasked),
        exercised=bool(asked or reports),
    )


def check_faults(history: History) -> Verdict:
    """Which of the run's scheduled faults (and their undoings, after a ``duration``)
    happened, which the world refused (and why), and which the run never reached (it
    ended first: a ``qsg exec`` run ends with its program). Not a judgement of MQ: it
    says what the run tested; not exercised when nothing was scheduled.

    Each scheduled action is matched, in time order, to the first unmatched
    ``FaultInjected`` of the same action and target at or after its time (the heal's
    own lifts, ``detail`` "heal", are not scheduled ones)."""
    origin = history.origin
    planned: list[tuple[float, str, str]] = []
    for fault in history.faults:
        planned.append((fault.at, fault.action, target_of(fault)))
        if fault.duration is not None:
            planned.append((fault.at + fault.duration, UNDO[fault.action], target_of(fault)))
    planned.sort(key=lambda p: p[0])
    injected = [
        e
        for e in history.events
        if isinstance(e, FaultInjected) and (e.detail != "heal" or e.action == "heal")
    ]
    used: set[int] = set()
    end = history.final.time if history.final is not None else _last_time(history)
    lines, tally = [], Counter[str]()
    for at, action, target in planned:
        found = next(
            (
                i
                for i, e in enumerate(injected)
                if i not in used
                and e.action == action
                and e.target == target
                and e.time >= origin + at - 1e-9
            ),
            None,
        )
        what = f"{action}{'' if target == 'CF' else ' ' + target} at {at:g} s"
        if found is None:
            tally["not_reached"] += 1
            lines.append(f"{what}: not reached (the run ended at {_seconds(end - origin)} s)")
            continue
        used.add(found)
        event = injected[found]
        if event.refused:
            tally["refused"] += 1
            lines.append(f"{what}: refused ({event.detail})")
        else:
            tally["happened"] += 1
            late = event.time - origin - at
            when = f" at {_seconds(at + late)} s" if late > 1e-3 else ""  # it waited
            lines.append(f"{what}: happened{when}")
    return Verdict(
        "faults",
        True,
        {
            "scheduled": len(planned),
            "happened": tally["happened"],
            "refused": tally["refused"],
            "not_reached": tally["not_reached"],
        },
        exercised=bool(planned),
        notes=lines,
    )


def _last_time(history: History) -> float:
    return history.events[-1].time if history.events else history.origin


def _seconds(t: float) -> str:
    """Seconds as a verdict shows them: to the millisecond, no trailing zeros."""
    return f"{round(t, 3):g}"


def check_liveness(history: History, healed: float, bound: float, expect: Expectations) -> Verdict:
    """Within ``bound`` seconds of ``healed``: every queue manager with applications
    served one successfully, every sender channel is RUNNING, and the QSG's shared
    queues were scanned (if a member has EXPRYINT)."""
    until = healed + bound
    served: set[str] = set()
    state: dict[str, str] = {}
    scanned: set[str] = set()
    for event in history.events:
        if event.time > until:
            break
        if isinstance(event, ChannelStateChanged) and event.channel in expect.senders.get(
            event.q_mgr, ()
        ):
            state[event.channel] = event.state
        if event.time < healed:
            continue
        # Served: MQ answered (a get with nothing to get, MQRC_NO_MSG_AVAILABLE, counts).
        if (
            isinstance(event, OpCompleted)
            and event.outcome != "unknown"
            and event.reason not in LOST
        ):
            served.add(event.q_mgr)
        elif isinstance(event, ExpiryScanned) and event.shared and event.cause != "REFRESH":
            scanned.add(history.scopes.members.get(event.q_mgr, "") if history.scopes else "")
    stalled = [f"queue manager {q}" for q in sorted(expect.busy - served)]
    stalled += [
        f"channel {c} ({state.get(c, 'RUNNING')})"
        for q, cs in expect.senders.items()
        for c in cs
        if state.get(c, "RUNNING") != "RUNNING"
    ]
    stalled += [f"expiry scan of {g}" for g in sorted(expect.scanning - scanned)]
    return Verdict("liveness", not stalled, {"stalled": len(stalled)}, stalled, {"bound_s": bound})


@dataclass(frozen=True, slots=True)
class Expectations:
    """What must make progress after a heal: queue managers with applications, sender
    channels (by owner), QSGs whose shared queues a member scans."""

    busy: frozenset[str]
    senders: dict[str, frozenset[str]]
    scanning: frozenset[str]


#: The checkers every chaos run gets.
SAFETY: tuple[Callable[[History], Verdict], ...] = (
    check_queue,
    check_expiry,
    check_scans,
    check_recovery,
    check_groups,
    check_reports,
    check_faults,
)


def check(history: History) -> list[Verdict]:
    """Every safety checker's verdict on ``history``."""
    return [checker(history) for checker in SAFETY]


def healed_at(history: History) -> float | None:
    """When the run's heal phase lifted the faults (its first heal event)."""
    for event in history.events:
        if isinstance(event, FaultInjected) and event.action == "heal":
            return event.time
    return None


__all__ = [
    "NOT_EXERCISED",
    "SAFETY",
    "VIOLATION",
    "Expectations",
    "Verdict",
    "check",
    "check_expiry",
    "check_faults",
    "check_groups",
    "check_liveness",
    "check_queue",
    "check_recovery",
    "check_reports",
    "check_scans",
    "healed_at",
]
