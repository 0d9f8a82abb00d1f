"""A hypothesis family of small scenarios for the differential test (issue 42).

Each is a scenario file's text, checked by the project's own loader like any user's:
one QSG of one to three members; one to three application queues, each shared (in the
structure APP1, CFLEVEL 3 to 5, RECOVER(YES) or not: persistent puts only where it is)
or private to one member; on each a putter and, most of the time, a getter, with units
of work (syncpoint), Expiry with expiration reports to a shared reply queue, groups read
in logical order, priorities, persistence, a count, bodies from empty to 8 KB (and over
63 KB where the structure's CFLEVEL takes them: below CFLEVEL(4) ``qsg validate``
refuses the scenario, MQRC_WRONG_CF_LEVEL); an EXPRYINT; and up to two faults: a
pause, a kill and restart, a member's or everyone's coupling facility outage, a slow CF,
REFRESH QMGR TYPE(EXPIRY).

``limits``: a structure at its limit instead: SIZE 32 to 96 KB, which the first queue
(shared, put to at 5 to 22 messages a second and never got from) fills.

Nothing in them is simultaneous, so that the clock-driven and the task-driven runs make
the same events, instant for instant (``tests/differential.py``): one application at
each end of a queue, each starting and stopping at its own instant, none at the run's
end; arrivals and services drawn from continuous distributions; faults and their ends,
and the depth samples, at instants nothing else falls on; a kill or a pause only of a
member that runs at most one application (its calls, held back, go on when it comes
back: two would go on at the same instant) and no scan; a slow CF (a model cost) only
where no member runs two applications on shared queues (a commit wakes every waiting get
of the facility at its instant, and with a cost their calls queue for the processor in
the order they were admitted); EXPRYINT on one member at most (two members' scans could
fall on one instant and race for the expiry-scan lease).
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

#: Seconds a generated scenario runs.
DURATION = 24.0
#: The depth sampling interval: none of its instants is a fault's, a scan's or a stop's.
SAMPLE = 1.37


@dataclass(frozen=True)
class _Queue:
    name: str
    shared: bool
    putter: str  # the putting member (a private queue's own)
    getter: str | None  # the getting member, if the queue has a getter
    grouped: bool  # messages put in groups and got in logical order (INDXTYPE(GROUPID))


@st.composite
def small_scenarios(draw: st.DrawFn, limits: bool = False) -> str:
    """A scenario file's text (see the module docstring)."""
    members = [f"QM{n}" for n in range(1, draw(st.integers(1, 3)) + 1)]
    cflevel = draw(st.integers(3, 5))
    recover = draw(st.booleans())  # RECOVER(YES): persistent messages on its queues too
    queues = [
        _queue(draw, n, members, filling=limits and n == 0) for n in range(draw(st.integers(1, 3)))
    ]
    scanner = draw(st.none() | st.sampled_from(members))
    lines = [
        'description = "a generated scenario"',
        "[run]",
        f"duration = {DURATION}",
        f"seed = {draw(st.integers(0, 2**16))}",
        f"sample_interval = {SAMPLE}",
        "[qsg.QSG1]",
        "members = [" + ", ".join(f'"{m}"' for m in members) + "]",
        "mqsc = '''",
        "DEFINE QLOCAL(APP.REPLIES) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(999999)",
        *(_define(q) for q in queues if q.shared),
        "'''",
        "[qsg.QSG1.structures.APP1]",
        f"size_kb = {draw(st.integers(32, 96)) if limits else 65536}",
        f"cflevel = {cflevel}",
        f"recover = {str(recover).lower()}",
    ]
    for member in members:
        lines.append(f"[qmgr.{member}]")
        if member == scanner:
            lines.append(f"expryint = {draw(st.integers(2, 7))}")
        private = [_define(q) for q in queues if not q.shared and q.putter == member]
        if private:
            lines += ["mqsc = '''", *private, "'''"]
    # Each application its own start and stop: no two at one instant, none at the end.
    instant = 0
    for n, q in enumerate(queues):
        instant += 1
        persistent = recover or not q.shared  # else MQRC_PERSISTENT_NOT_ALLOWED (2048)
        lines += _putter(
            draw, q, instant, filling=limits and n == 0, large=cflevel >= 4, persistent=persistent
        )
        if q.getter is not None:
            instant += 1
            lines += _getter(draw, q, instant)
    apps = {
        m: sum(q.putter == m for q in queues) + sum(q.getter == m for q in queues) for m in members
    }
    alone = [m for m in members if apps[m] <= 1 and m != scanner]
    shared = [sum(q.shared and m in (q.putter, q.getter) for q in queues) for m in members]
    for n in range(draw(st.integers(0, 2))):
        lines += _fault(draw, members, alone, n, costed=max(shared) <= 1)
    return "\n".join(lines) + "\n"


def _queue(draw: st.DrawFn, n: int, members: list[str], *, filling: bool) -> _Queue:
    shared = filling or draw(st.booleans())
    putter = draw(st.sampled_from(members))
    if filling:  # nothing takes its messages away: the structure fills
        getter = None
    elif shared:
        getter = draw(st.none() | st.sampled_from(members))
    else:
        getter = draw(st.none() | st.just(putter))
    grouped = not filling and draw(st.integers(0, 3)) == 0
    return _Queue(f"APP.Q{n + 1}", shared, putter, getter, grouped)


def _define(q: _Queue) -> str:
    shared = " QSGDISP(SHARED) CFSTRUCT(APP1)" if q.shared else ""
    index = " INDXTYPE(GROUPID)" if q.grouped else ""
    return f"DEFINE QLOCAL({q.name}){shared} MAXDEPTH(999999){index}"


def _start_stop(instant: int) -> list[str]:
    return [f"start = {0.1 + 0.013 * instant:.3f}", f"stop = {DURATION - 1 - 0.017 * instant:.3f}"]


def _putter(
    draw: st.DrawFn, q: _Queue, instant: int, *, filling: bool, large: bool, persistent: bool
) -> list[str]:
    rate = draw(st.sampled_from([2.5, 4.0, 7.0, 11.0]))
    lines = [
        "[[workload]]",
        f'name = "put{q.name[-1]}"',
        'type = "putter"',
        f'qmgr = "{q.putter}"',
        f'queue = "{q.name}"',
        f"rate = {rate * 2 if filling else rate}",
        f'arrival = "{draw(st.sampled_from(["poisson", "uniform"]))}"',
        *_start_stop(instant),
    ]
    syncpoint = draw(st.sampled_from([0, 0, 2, 3, 5]))
    if syncpoint:
        lines.append(f"syncpoint = {syncpoint}")
    if q.grouped:
        lines.append(f"group_size = {draw(st.integers(2, 4))}")
    size = "small" if filling else draw(st.sampled_from(["small", "fixed", *(["large"] * large)]))
    if size == "small":
        lines.append('size = { dist = "uniform", min = 0, max = 3000 }')
    elif size == "large":  # over 63 KB: offloaded, or refused below CFLEVEL(4)
        lines.append('size = { dist = "choice", values = [500, 70000], weights = [9, 1] }')
    else:
        lines.append(f"size = {draw(st.integers(0, 8000))}")
    if draw(st.booleans()):
        lines.append('priority = { dist = "choice", values = [0, 4, 9] }')
    persistence = draw(
        st.sampled_from(["persistent", "nonpersistent", "as_q_def"][not persistent :])
    )
    lines.append(f'persistence = "{persistence}"')
    if draw(st.booleans()):
        lines.append(f"expiry = {draw(st.integers(5, 60))}")
        if draw(st.booleans()):
            lines += [
                'report = ["expiration"]',
                'reply_to = "APP.REPLIES"',
                'reply_to_qmgr = "QSG1"',
            ]
    if not filling and draw(st.integers(0, 4)) == 0:
        lines.append(f"count = {draw(st.integers(1, 40))}")
    return lines


def _getter(draw: st.DrawFn, q: _Queue, instant: int) -> list[str]:
    mean = draw(st.sampled_from([0.02, 0.1, 0.3]))
    lines = [
        "[[workload]]",
        f'name = "get{q.name[-1]}"',
        'type = "getter"',
        f'qmgr = "{q.getter}"',
        f'queue = "{q.name}"',
        f'service = {{ dist = "exponential", mean = {mean} }}',
        *_start_stop(instant),
    ]
    syncpoint = draw(st.sampled_from([0, 0, 2, 4]))
    if syncpoint:
        lines.append(f"syncpoint = {syncpoint}")
    if draw(st.booleans()):
        lines.append(f"wait = {draw(st.integers(50, 3000))}")
    if q.grouped:
        lines.append("logical_order = true")
    return lines


def _fault(
    draw: st.DrawFn, members: list[str], alone: list[str], n: int, *, costed: bool
) -> list[str]:
    """Fault ``n``, at an instant of its own, its end too (hundredths no other falls on:
    .31 and .41 for the starts, .78 and .88 for the ends). ``costed``: it may be a slow
    CF (a model cost): no member runs two applications on shared queues, whose calls,
    admitted at one instant by a commit that wakes both, would queue for its processor
    in either order."""
    at = draw(st.integers(2, int(DURATION) - 6)) + 0.31 + 0.1 * n
    duration = draw(st.integers(1, 5)) + 0.47
    kinds = ["cf_unavailable", "cf_unavailable_all", "refresh_expiry", *["slow_cf"] * costed]
    kind = draw(st.sampled_from([*kinds, "pause", "kill"] if alone else kinds))
    lines = ["[[fault]]", f"at = {at:.2f}"]
    if kind == "slow_cf":
        lines += ['action = "slow_cf"', f"amount = {draw(st.sampled_from([0.003, 0.02]))}"]
    elif kind == "cf_unavailable_all":
        lines += ['action = "cf_unavailable"']
    elif kind == "cf_unavailable":
        lines += ['action = "cf_unavailable"', f'qmgr = "{draw(st.sampled_from(members))}"']
    elif kind == "refresh_expiry":
        return [*lines, 'action = "refresh_expiry"', f'qmgr = "{draw(st.sampled_from(members))}"']
    else:
        member = draw(st.sampled_from(alone))
        alone.remove(member)  # one kill or pause a member: two could overlap
        lines += [f'action = "{kind}"', f'qmgr = "{member}"']
    return [*lines, f"duration = {duration:.2f}"]


__all__ = ["DURATION", "SAMPLE", "small_scenarios"]
