"""Which shared-queue messages are offloaded from the coupling facility: IBM's rules.

A CF structure keeps a message's data in its list entry's elements unless the message
is offloaded (to shared message data sets, SMDS, or to Db2, as the structure's OFFLOAD
says); an offloaded message keeps only its control information in the structure. IBM
("DEFINE CFSTRUCT", "Specifying offload options for shared messages"):

- a message over 63 KB is always offloaded (it needs CFLEVEL(4) or more);
- at CFLEVEL(5) three rules, OFFLD1TH/OFFLD1SZ, OFFLD2TH/OFFLD2SZ and OFFLD3TH/OFFLD3SZ,
  also offload a smaller message: rule n applies once the structure's usage (of its
  entries or of its elements, whichever is fuller) has reached OFFLDnTH per cent, and
  then offloads every message larger than OFFLDnSZ. The defaults are 70%/32K, 80%/4K
  and 90%/0K; a size of 64K switches a rule off (every larger message is offloaded
  anyway). Below CFLEVEL(5) the rules are kept but not applied.

This is the one home of the decision: both stores (in process and the coupling
facility's Lua put script) apply ``offloaded`` to the usage they hold at put time, and
capacity sizing applies it to the usage it projects.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from qsg.core.geometry import percent_full

#: The CF entry limit: a message whose data is longer is always offloaded.
ALWAYS_OFFLOADED = 63 * 1024
#: The lowest CFLEVEL whose structures take a message over 63 KB: below it, MQPUT of
#: one fails with MQRC_WRONG_CF_LEVEL (2366) and changes nothing (both stores).
LARGE_MESSAGE_CF_LEVEL = 4
#: OFFLDnSZ's range, in KB: 0K to 64K (64K: the rule never offloads anything).
LARGEST_SIZE_KB = 64
#: IBM's default rules, as (OFFLDnTH per cent, OFFLDnSZ in KB).
DEFAULT_RULES: tuple[tuple[int, int], ...] = ((70, 32), (80, 4), (90, 0))

#: A rule as the stores apply it: (threshold in per cent, size in bytes).
Rule = tuple[int, int]


def rules(cf_level: int, thresholds: Sequence[int], sizes_kb: Sequence[int]) -> tuple[Rule, ...]:
    """A structure's offload rules as the stores apply them, lowest threshold first:
    none below CFLEVEL(5), and none for a rule whose size is 64K (switched off)."""
    if cf_level < 5:
        return ()
    kept = [
        (threshold, size * 1024)
        for threshold, size in zip(thresholds, sizes_kb, strict=True)
        if size < LARGEST_SIZE_KB
    ]
    return tuple(sorted(kept))


def offloaded(size: int, full: float, applied: Sequence[Rule]) -> bool:
    """Whether a message with ``size`` bytes of data, put while its structure is
    ``full`` per cent full, is offloaded under ``applied`` (``rules``)."""
    return size > offload_limit(full, applied)


def offload_limit(full: float, applied: Sequence[Rule]) -> int:
    """The largest data kept in the structure at ``full`` per cent: over 63 KB always
    offloaded, else over the smallest OFFLDnSZ whose OFFLDnTH is reached (a sizing of
    many puts compares their sizes with it at once)."""
    return min([ALWAYS_OFFLOADED, *(limit for threshold, limit in applied if full >= threshold)])


def first_reached(
    applied: Sequence[Rule], max_entries: int, max_elements: int
) -> tuple[float, float]:
    """The fewest entries in use, and the fewest elements, at which a structure with these
    maxima is ``full`` enough for the lowest OFFLDnTH of ``applied`` (``math.inf``: never).
    Below both, no rule applies and ``offload_limit`` is ALWAYS_OFFLOADED, so a put need
    not work out how full the structure is. Found with ``geometry.percent_full`` itself (fullness
    is the fuller of the two, each rising with its count), so the shortcut agrees with
    the rules to the last bit of the floating-point arithmetic."""
    if not applied:
        return math.inf, math.inf
    lowest = min(threshold for threshold, _ in applied)

    def fewest(full: Callable[[int], float], maximum: int) -> float:
        if full(0) >= lowest:
            return 0
        if not maximum:
            return math.inf  # this count makes nothing full
        # Just below the exact answer, then up to the first count the rules call full.
        count = max(0, lowest * maximum // 100 - 1)
        while full(count) < lowest:
            count += 1
        return count

    return (
        fewest(lambda entries: percent_full(entries, 0, max_entries, 0), max_entries),
        fewest(lambda elements: percent_full(0, elements, 0, max_elements), max_elements),
    )


def parse_size(text: str) -> int:
    """OFFLDnSZ as MQSC and PCF write it, ``32K`` (or a bare ``32``), in KB; ValueError
    naming what is wrong otherwise."""
    value = text.strip().upper()
    number = value[:-1] if value.endswith("K") else value
    if not number.isdigit():
        raise ValueError(f"{text!r} is not a size in K (0K..64K), such as 32K")
    kb = int(number)
    if kb > LARGEST_SIZE_KB:
        raise ValueError(f"{text!r} is not in 0K..64K")
    return kb


def format_size(kb: int) -> str:
    """OFFLDnSZ as DISPLAY CFSTRUCT shows it: ``32K``."""
    return f"{kb}K"


def check_rules(name: str, thresholds: Sequence[int], sizes_kb: Sequence[int]) -> None:
    """ValueError unless every OFFLDnTH is 0..100 and every OFFLDnSZ 0..64 KB."""
    for n, (threshold, size) in enumerate(zip(thresholds, sizes_kb, strict=True), 1):
        if not 0 <= threshold <= 100:
            raise ValueError(f"CF structure {name}: OFFLD{n}TH must be 0..100, not {threshold}")
        if not 0 <= size <= LARGEST_SIZE_KB:
            raise ValueError(f"CF structure {name}: OFFLD{n}SZ must be 0K..64K, not {size}K")


__all__ = [
    "ALWAYS_OFFLOADED",
    "DEFAULT_RULES",
    "LARGEST_SIZE_KB",
    "LARGE_MESSAGE_CF_LEVEL",
    "Rule",
    "check_rules",
    "first_reached",
    "format_size",
    "offload_limit",
    "offloaded",
    "parse_size",
    "rules",
]
