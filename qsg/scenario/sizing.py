"""The CF structures, sized: how full each got, when, and how long it lasts in an outage.

The accounting is the coupling facility's as qsg models it (``docs/capacity.md``, "The
CF structure, sized"; the numbers are ``qsg.core.geometry``'s, which both stores count
by): a message on a shared queue takes one list entry and the elements of its data
(unless it is offloaded) and its control storage; a structure of SIZE KB holds SIZE
entries and 4 x SIZE elements. Whether a body is offloaded is IBM's rule
(``qsg.core.offload``): over 63 KB always, and at CFLEVEL(5) by the structure's
OFFLDnTH/OFFLDnSZ rules, applied to how full the structure was at the previous sample.
Entries in use are the depths of the structure's queues at each depth sample
(``[run] sample_interval``); elements are entries times the mean elements of the
messages put to those queues so far.

From that series: the peak (entries, elements, percent full: the fuller of the two,
and when: the high-water mark); the run's trend and time to full (``projection``): the
least-squares slope of percent full over the samples, and from the last sample the
time that trend takes to reach 100%, given only where it does so within the run's
horizon (as many seconds again as the samples span: a trend seen for 20 s says nothing
of the next five hours, and a blip that drained again is no trend), or the time it
was full if it filled; and, for each fault with a duration (a kill, a pause, a CF link
lost...), how fast the structure filled while it lasted and how long the structure
lasted or, at that rate, would last. Each sample's own time to full, at the net rate
since the sample before (``Usage.time_to_full``), is in the series for a chart; it is
a derivative, not a forecast, and no headline figure uses it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

import numpy as np

from actors.events import DepthSampled, FaultInjected, MessagePut, WorldEvent
from qsg.core import geometry
from qsg.core.offload import ALWAYS_OFFLOADED, Rule, offload_limit, offloaded
from qsg.scenario.model import UNDO


def elements_of(size: int, full: float = 0.0, rules: Sequence[Rule] = ()) -> int:
    """The elements one message of ``size`` body bytes takes in the structure, put
    while it is ``full`` per cent full under offload ``rules`` (``qsg.core.offload``)."""
    return geometry.elements(0 if offloaded(size, full, rules) else size)


@dataclass(frozen=True, slots=True)
class Usage:
    """A structure at one depth sample."""

    time: float
    entries: int
    elements: int
    percent_full: float
    #: Seconds until full at the net rate since the previous sample (None: not rising):
    #: the sample's own derivative, for a chart (``projection`` is the run's forecast).
    time_to_full: float | None


@dataclass(frozen=True, slots=True)
class Projection:
    """Where a structure's usage was heading over a run, from its samples (``projection``)."""

    #: The trend: the least-squares slope of percent full against time over the
    #: samples, in percent a second (None: fewer than two instants sampled).
    fill_rate: float | None
    #: Seconds from the last sample until the trend reaches 100%, where it does so
    #: within the run's horizon (as long again as the samples span); else None.
    time_to_full: float | None
    #: The last sample's time, where ``time_to_full`` is projected from (None with it).
    time_to_full_at: float | None
    #: The first sample at 100% (it filled: MQPUT gets MQRC_STORAGE_MEDIUM_FULL, 2192).
    full_at: float | None


def projection(times: Sequence[float], percents: Sequence[float]) -> Projection:
    """A structure's trend and time to full from its usage at each sample (``times`` in
    order, ``percents`` full then): what the run's summary and ``qsg report`` give.

    A structure that filled is full at its first sample at 100% (a fact, not a
    forecast: no time to full). Otherwise, if the least-squares line of percent full
    over the samples rises, the time from the last sample until it gains the percent
    still free, given only if that is no longer than the samples span (the run's
    horizon): a steady state, a blip that drained again, or a rise too slow to fill
    within as long again as the run was watched, has none."""
    full_at = next((t for t, p in zip(times, percents, strict=True) if p >= 100), None)
    if len(times) < 2 or times[-1] <= times[0]:
        return Projection(None, None, None, full_at)
    x = np.asarray(times, dtype=float)
    y = np.asarray(percents, dtype=float)
    dx = x - x.mean()
    rate = float((dx * (y - y.mean())).sum() / (dx * dx).sum())
    horizon = float(x[-1] - x[0])
    if full_at is not None or rate <= 0 or (100 - y[-1]) / rate > horizon:
        return Projection(rate, None, None, full_at)
    return Projection(rate, float((100 - y[-1]) / rate), float(x[-1]), None)


def series(events: Iterable[WorldEvent], scopes: Any) -> dict[tuple[str, str], list[Usage]]:
    """Each structure's usage over time, keyed by (QSG, structure)."""
    where: dict[tuple[str, str], tuple[str, str]] = {}  # (qsg, queue) -> (qsg, structure)
    for qsg, structures in scopes.structures.items():
        for name, info in structures.items():
            for queue in info["queues"]:
                where[(qsg, queue)] = (qsg, name)
    if not where:
        return {}  # no shared queue: no event to read
    puts: dict[tuple[str, str], list[tuple[float, int]]] = defaultdict(list)  # (time, size)
    # (qsg, structure) -> time -> queue -> depth: a queue sampled twice at one instant
    # (the periodic sample and the end's) counts once.
    depth: dict[tuple[str, str], dict[float, dict[str, int]]] = defaultdict(
        lambda: defaultdict(dict)
    )
    for e in events:
        if isinstance(e, MessagePut):
            key = where.get((scopes.members.get(e.q_mgr, ""), e.queue))
            if key is not None:
                puts[key].append((e.time, e.size))
        elif isinstance(e, DepthSampled) and e.shared:
            key = where.get((scopes.members.get(e.q_mgr, ""), e.queue))
            if key is not None:
                depth[key][e.time][e.queue] = e.depth
    out: dict[tuple[str, str], list[Usage]] = {}
    for key, samples in sorted(depth.items()):
        info = scopes.structures[key[0]][key[1]]
        entries = [(time, sum(queues.values())) for time, queues in sorted(samples.items())]
        out[key] = usage(entries, puts.get(key, []), info["size_kb"], info.get("rules", ()))
    return out


def usage(
    samples: Sequence[tuple[float, int]],
    puts: Sequence[tuple[float, int]],
    size_kb: int,
    rules: Iterable[Sequence[int]] = (),
) -> list[Usage]:
    """One structure's usage at each of its depth ``samples`` ((time, entries), by
    time), from the ``puts`` to its queues ((time, body size), by time): the one
    accounting the run's summary and the metrics table ``cf_usage`` both give
    (``usage_arrays``), with the time to full at each sample."""
    pairs = np.asarray(puts, dtype=float).reshape(-1, 2)
    times = np.asarray([time for time, _ in samples], dtype=float)
    entries = np.asarray([count for _, count in samples], dtype=np.int64)
    elements, full = usage_arrays(
        times, entries, pairs[:, 0], pairs[:, 1].astype(np.int64), size_kb, rules
    )
    rows: list[Usage] = []
    for time, count, used, percent in zip(
        times.tolist(), entries.tolist(), elements.tolist(), full.tolist(), strict=True
    ):
        ttf = None
        if rows and time > rows[-1].time and percent > rows[-1].percent_full:
            rate = (percent - rows[-1].percent_full) / (time - rows[-1].time)
            ttf = max(0.0, (100 - percent) / rate)
        rows.append(Usage(time, count, used, percent, ttf))
    return rows


def usage_arrays(
    times: np.ndarray,
    entries: np.ndarray,
    put_times: np.ndarray,
    put_sizes: np.ndarray,
    size_kb: int,
    rules: Iterable[Sequence[int]] = (),
) -> tuple[np.ndarray, np.ndarray]:
    """Elements in use and per cent full at each sample (``times`` sorted, ``entries``
    the messages then), from the puts to the structure's queues (``put_times`` sorted).

    Each put's elements follow ``qsg.core.offload.offloaded`` at the fullness of the
    sample before it, and the mean elements of the puts so far size the entries. While
    no sample reaches the lowest OFFLDnTH, no rule fires and the whole series is a
    cumulative sum (offloading only lowers usage, so the series without rules bounds the
    one with them); past it, a step per sample."""
    applied: tuple[Rule, ...] = tuple((int(r[0]), int(r[1])) for r in rules)
    # geometry.elements of each body (kept in the structure), on the array at once.
    step = geometry.ELEMENT_BYTES
    kept = -((-(put_sizes + geometry.CONTROL_BYTES)) // step)
    control = geometry.CONTROL_ELEMENTS  # offloaded: its control storage only
    ends = np.searchsorted(put_times, times, side="right")
    plain = np.where(put_sizes > ALWAYS_OFFLOADED, control, kept)
    counted = np.concatenate(([0], np.cumsum(plain)))[ends]
    elements, full = _sized(entries, counted, ends, size_kb)
    lowest = min((threshold for threshold, _ in applied), default=None)
    # The puts before the first sample are decided at 0% full, the others at the sample
    # before them: an OFFLDnTH(0) fires from the start.
    if lowest is None or (lowest > 0 and not np.any(full[:-1] >= lowest)):
        return elements, full
    taken, count, total, percent = 0, 0, 0, 0.0
    for i, end in enumerate(ends.tolist()):
        if end > taken:
            limit = offload_limit(percent, applied)
            total += int(np.where(put_sizes[taken:end] > limit, control, kept[taken:end]).sum())
            count, taken = end, end
        used, fullness = _sized(entries[i : i + 1], np.array([total]), np.array([count]), size_kb)
        elements[i], full[i] = used[0], fullness[0]
        percent = float(fullness[0])
    return elements, full


def _sized(
    entries: np.ndarray, elements: np.ndarray, count: np.ndarray, size_kb: int
) -> tuple[np.ndarray, np.ndarray]:
    """The elements of ``entries`` messages at the mean of the ``count`` puts so far
    (a 1 KB message's before any), and the per cent full of entries or elements
    (``geometry.percent_full``, on the arrays: the same arithmetic, so the same bits)."""
    mean = np.where(count > 0, elements / np.maximum(count, 1), geometry.elements(1024))
    used = np.rint(entries * mean).astype(np.int64)  # round half to even, as round()
    most, room = geometry.max_entries(size_kb), geometry.max_elements(size_kb)
    full = 100.0 * np.maximum(entries / most, used / room)
    return used, full


_time = attrgetter("time")  # an event's time, without a Python call per event


def _outages(events: list[WorldEvent], end: float) -> list[tuple[FaultInjected, float]]:
    """Each fault with an undoing, and when it was undone (the run's end if never)."""
    out = []
    for i, e in enumerate(events):
        if isinstance(e, FaultInjected) and e.action in UNDO and not e.refused:
            undoings = (
                u.time
                for u in events[i + 1 :]
                if isinstance(u, FaultInjected)
                and u.action == UNDO[e.action]
                and u.target == e.target
            )
            undone = next(undoings, end)
            out.append((e, undone))
    return out


def sized(events: list[WorldEvent], scopes: Any) -> list[dict[str, Any]]:
    """The summary's ``structures`` rows: each structure's peak and its outages."""
    end = max(map(_time, events), default=0.0)
    faults = _outages(events, end)
    rows = []
    for (qsg, name), usage in series(events, scopes).items():
        size_kb = scopes.structures[qsg][name]["size_kb"]
        peak = max(usage, key=lambda u: u.percent_full)
        ahead = projection([u.time for u in usage], [u.percent_full for u in usage])
        rows.append(
            {
                "qsg": qsg,
                "structure": name,
                "size_kb": size_kb,
                "max_entries": geometry.max_entries(size_kb),
                "max_elements": geometry.max_elements(size_kb),
                "peak_entries": max(u.entries for u in usage),
                "peak_elements": max(u.elements for u in usage),
                "peak_percent_full": peak.percent_full,
                "high_water_time": peak.time,
                "fill_rate": ahead.fill_rate,
                "time_to_full": ahead.time_to_full,
                "time_to_full_at": ahead.time_to_full_at,
                "full_at": ahead.full_at,
                "outages": [_outage(usage, fault, undone) for fault, undone in faults],
            }
        )
    return rows


def _outage(usage: list[Usage], fault: FaultInjected, undone: float) -> dict[str, Any]:
    """How the structure fared while ``fault`` lasted: the fill rate (percent a second),
    and how long it lasted (it filled) or would have lasted at that rate."""
    during = [u for u in usage if fault.time <= u.time <= undone]
    row: dict[str, Any] = {
        "action": fault.action,
        "target": fault.target,
        "at": fault.time,
        "until": undone,
        "fill_rate": None,
        "full_at": None,
        "lasts": None,
    }
    if len(during) < 2:
        return row
    first, last = during[0], during[-1]
    rate = (last.percent_full - first.percent_full) / (last.time - first.time)
    row["fill_rate"] = rate
    full = next((u for u in during if u.percent_full >= 100), None)
    if full is not None:
        row["full_at"] = full.time
        row["lasts"] = full.time - fault.time
    elif rate > 0:
        row["lasts"] = (100 - first.percent_full) / rate + (first.time - fault.time)
    return row


__all__ = ["Projection", "Usage", "elements_of", "projection", "series", "sized", "usage"]
