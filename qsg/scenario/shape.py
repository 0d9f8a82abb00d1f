"""Reading a workload's load shape: ``rate`` as a number, a profile or a file, and ``burst``.

- ``rate = 20``: twenty messages a second per application, throughout.
- ``rate = { profile = [[0, 20], [3600, 120], [7200, 40]], shape = "step" }``: points
  of (simulated seconds since the run began, messages a second), the first at 0, times
  increasing; ``shape`` "step" (held to the next point, the default) or "linear".
- ``rate = { file = "day.csv", shape = "linear" }``: the points from a CSV file of two
  columns, time and rate (found from the scenario's folder; a header line and lines
  starting ``#`` are skipped), as an SMF 116-style curve of hourly rates would be.
- ``burst = { at = 600, for = 60, factor = 5 }``: the rate times 5 from 600 s for 60 s.

Every problem is noted with its place: the scenario's line and key, or the CSV file's
own line.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path
from typing import Any

from actors.arrivals import SHAPES, Burst, RateProfile, constant
from qsg.scenario import files
from qsg.scenario.errors import ScenarioProblem
from qsg.scenario.locate import Path as KeyPath
from qsg.scenario.reader import Reader, shown

RATE_TABLE = ("profile", "file", "shape")
BURST = ("at", "for", "factor")


def read_rate(
    r: Reader,
    p: KeyPath,
    table: dict[str, Any],
    base: Path,
) -> tuple[float, RateProfile | None]:
    """``rate`` and ``burst`` of the workload ``table`` at ``p``: the rate (a profile's
    peak) and the profile (None for a constant rate without a burst)."""
    value = table.get("rate")
    points: list[tuple[float, float]] | None = None
    shape = "step"
    if isinstance(value, dict):
        rp = (*p, "rate")
        r.table(rp, value, RATE_TABLE)
        shape = r.take(rp, value, "shape", "str", "step")
        if not r.one_of((*rp, "shape"), shape, SHAPES):
            shape = "step"
        if ("profile" in value) == ("file" in value):
            r.problem(
                rp,
                "give one of 'profile' (an array of [time, rate]) or 'file' (a CSV "
                "file of time,rate lines)",
            )
            return 1.0, None
        if "profile" in value:
            points = _points(r, (*rp, "profile"), value["profile"])
        else:
            name = r.take(rp, value, "file", "str", "", required=True)
            points = _csv(r, base / name) if name else None
        if points is None:
            return 1.0, None
        rate = max(rate for _, rate in points)
    else:
        rate = r.take(p, table, "rate", "number", None, required=True)
        if rate is None or not r.at_least((*p, "rate"), rate, 0, above=True):
            return 1.0, None
    burst = _burst(r, (*p, "burst"), table["burst"]) if "burst" in table else None
    if points is None:
        return float(rate), None if burst is None else constant(float(rate), burst)
    profile = RateProfile(tuple(t for t, _ in points), tuple(v for _, v in points), shape, burst)
    return profile.peak(), profile


def _points(r: Reader, p: KeyPath, value: Any) -> list[tuple[float, float]] | None:
    if not isinstance(value, list) or not value:
        r.problem(p, f"expected a non-empty array of [time, rate] pairs, found {shown(value)}")
        return None
    points: list[tuple[float, float]] = []
    for i, pair in enumerate(value):
        if not (isinstance(pair, list) and len(pair) == 2 and all(_number(v) for v in pair)):
            r.problem((*p, i), f"expected [time, rate], two finite numbers, found {shown(pair)}")
            return None
        points.append((float(pair[0]), float(pair[1])))
    problem = _bad(points, [i for i in range(len(points))])
    if problem is not None:
        i, message = problem
        r.problem((*p, i), message)
        return None
    return points


def _csv(r: Reader, path: Path) -> list[tuple[float, float]] | None:
    """The points of a CSV file of time,rate lines; a problem at the file's own line."""
    where = str(path)
    try:
        text = files.read_text(path)
    except (OSError, UnicodeDecodeError) as error:
        r.problems.append(ScenarioProblem(where, 1, "", f"cannot read: {error}"))
        return None
    points: list[tuple[float, float]] = []
    lines: list[int] = []
    first = True
    rows = csv.reader(text.splitlines())
    while True:
        try:
            row = next(rows)
        except StopIteration:
            break
        except csv.Error as error:  # a field over the csv module's limit, a NUL...
            r.problems.append(ScenarioProblem(where, rows.line_num, "", f"not a CSV line: {error}"))
            return None
        number = rows.line_num
        if not row or not "".join(row).strip() or row[0].lstrip().startswith("#"):
            continue
        header, first = first, False
        # Said by its place and, at most, its offending cell, cut short: never the line,
        # which in a file that is not a rate file may be anything (a line of a password
        # file, say).
        wrong = _row_problem(row)
        if wrong:
            if header:
                continue  # "time,rate" or the like
            r.problems.append(ScenarioProblem(where, number, "", wrong))
            return None
        time, rate = float(row[0]), float(row[1])
        if not (math.isfinite(time) and math.isfinite(rate)):
            r.problems.append(ScenarioProblem(where, number, "", "expected finite numbers"))
            return None
        points.append((time, rate))
        lines.append(number)
    if not points:
        r.problems.append(ScenarioProblem(where, 1, "", "no time,rate lines in the file"))
        return None
    problem = _bad(points, lines)
    if problem is not None:
        line, message = problem
        r.problems.append(ScenarioProblem(where, line, "", message))
        return None
    return points


def _row_problem(row: list[str]) -> str:
    """What is wrong with a row of a rate file ("" if it is two numbers)."""
    if len(row) != 2:
        return f"expected two cells, time and rate, found {len(row)}"
    for name, cell in zip(("time", "rate"), row, strict=True):
        try:
            float(cell)
        except ValueError:
            text = cell.strip()
            shown_cell = text if len(text) <= 20 else text[:17] + "..."
            return f"{name} {shown_cell!r} is not a number"
    return ""


def _bad(points: list[tuple[float, float]], places: list[int]) -> tuple[int, str] | None:
    """The first thing wrong with a profile's points, at its place (index or line)."""
    if points[0][0] != 0:
        return places[0], f"the first point must be at time 0, found {points[0][0]:g}"
    for (before, _), (time, _), place in zip(points, points[1:], places[1:], strict=False):
        if time <= before:
            return place, f"times must increase: {time:g} after {before:g}"
    for (_, rate), place in zip(points, places, strict=True):
        if rate < 0:
            return place, f"a rate must be at least 0, found {rate:g}"
    if not any(rate > 0 for _, rate in points):
        return places[0], "every rate is 0: the workload would put nothing"
    return None


def _burst(r: Reader, p: KeyPath, value: Any) -> Burst | None:
    if not isinstance(value, dict):
        r.problem(p, f"expected a table {{ at, for, factor }}, found {shown(value)}")
        return None
    r.table(p, value, BURST)
    at = r.take(p, value, "at", "number", None, required=True)
    length = r.take(p, value, "for", "number", None, required=True)
    factor = r.take(p, value, "factor", "number", None, required=True)
    if at is None or length is None or factor is None:
        return None
    ok = r.at_least((*p, "at"), at, 0)
    ok &= r.at_least((*p, "for"), length, 0, above=True)
    ok &= r.at_least((*p, "factor"), factor, 0)
    return Burst(float(at), float(length), float(factor)) if ok else None


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


__all__ = ["read_rate"]
