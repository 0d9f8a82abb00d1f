"""How numbers are shown to a person: latencies with a unit, reason codes with a name.

The JSON a run writes keeps plain values (seconds as floats, reason codes as numbers);
the tables of ``qsg run`` and the pipeline's report show them through these functions,
so the two never disagree on a value, only on its spelling.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

#: Significant digits of a latency: enough to compare two runs, few enough to read.
DIGITS = 3


def _significant(value: float) -> str:
    """``value`` (> 0) to ``DIGITS`` significant digits, without an exponent."""
    decimals = max(0, DIGITS - 1 - math.floor(math.log10(value)))
    return f"{value:.{decimals}f}"


def duration(seconds: float | None) -> str:
    """A latency or a duration: ``141 ms``, ``2.50 ms``, ``1.23 s``; ``-`` for none.

    Below a second in milliseconds, else in seconds, to three significant digits (a
    value that rounds to 1,000 ms is shown as ``1.00 s``; one of 1,000 s or more keeps
    its whole seconds)."""
    if seconds is None or (isinstance(seconds, float) and math.isnan(seconds)):
        return "-"
    if seconds == 0:
        return "0 ms"
    sign = "-" if seconds < 0 else ""
    magnitude = abs(seconds)
    if magnitude < 1:
        shown = _significant(magnitude * 1000)
        if float(shown) < 1000:
            return f"{sign}{shown} ms"
        magnitude = 1.0
    shown = _significant(magnitude)
    if float(shown) >= 10**DIGITS:
        return f"{sign}{magnitude:,.0f} s"
    return f"{sign}{shown} s"


def reasons(counts: Iterable[Mapping[str, Any]]) -> str:
    """Errors by reason code, one per line: ``2192 STORAGE_MEDIUM_FULL × 1,936``."""
    lines = []
    for row in counts:
        name = str(row["name"]).removeprefix("MQRC_")
        lines.append(f"{row['reason']} {name} × {row['count']:,}")
    return "\n".join(lines) or "-"


__all__ = ["DIGITS", "duration", "reasons"]
