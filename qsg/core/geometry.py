"""A CF structure's geometry as qsg models it: the one home of its numbers.

IBM ("Planning your coupling facility and offload storage environment", IBM MQ for
z/OS): a coupling-facility list structure holds list entries and 256-byte elements; MQ
keeps a shared-queue message as one entry and as many elements as it needs, and a
structure is full (MQPUT gets MQRC_STORAGE_MEDIUM_FULL, 2192) when all its entries or
all its elements are in use. The model:

- a structure of SIZE KB (``CFStructure.size_kb``, the CFRM policy's SIZE) holds SIZE
  entries and 4 x SIZE elements (``max_entries``, ``max_elements``);
- a message takes one entry and ``elements(data)`` elements: the bytes of its data kept
  in the structure (none when it is offloaded, ``qsg.core.offload``) and CONTROL_BYTES
  of control storage (its descriptor, put time, expiry and priority), in elements of
  ELEMENT_BYTES. The count depends on the data's length alone, not on how a store
  encodes the message, so every store and the sizing count alike;
- a structure's percent full is the fuller of its entries and its elements
  (``percent_full``): what the offload rules compare with OFFLDnTH;
- a structure is full for a message when it has no entry left or too few elements for
  it (``has_room``): the put is refused with MQRC_STORAGE_MEDIUM_FULL and changes
  nothing. The put that takes the last entry or the last element succeeds. The message's
  elements are counted after the offload rules decided (an offloaded message needs only
  CONTROL_ELEMENTS), so a structure at CFLEVEL(5) with OFFLD3SZ(0K) runs out of entries,
  not elements;
- a message's key orders its queue (``message_key``): ``(9 - priority) << SEQ_BITS |
  seq`` on a priority queue, ``seq`` (its arrival number) on a FIFO queue; below 2^53, so
  that a Lua number and a sorted-set score hold it exactly.

Who uses it: both stores (``qsg.core.memstore``; ``coupling.store`` and the Lua scripts
of ``coupling.scripts``, which get these numbers substituted when they are built, and
whose ``elements``, ``percent_full`` and ``has_room`` are held to these by
tests/test_cf_geometry.py), the capacity sizing (``qsg.scenario.sizing``), the scenario
dry run, DISPLAY CFSTATUS, the pipeline's tables and report, and the benchmarks.
"""

from __future__ import annotations

#: Bytes one list-structure element holds.
ELEMENT_BYTES = 256
#: Bytes of control storage a message takes in its structure besides its data: its
#: descriptor (the MQMD fields that differ from the default), put time, expiry and
#: priority. All an offloaded message keeps in the structure.
CONTROL_BYTES = 200
#: List entries per KB of SIZE: one entry per message.
ENTRIES_PER_KB = 1
#: Elements per KB of SIZE.
ELEMENTS_PER_KB = 4
#: The largest SIZE the simulator models (about 858 GB): the coupling facility's store
#: keeps a structure's usage as one 64-bit counter of entries x 10^10 + elements
#: (``coupling.scripts``), which holds SIZE entries exactly up to here.
MAX_SIZE_KB = 900_000_000

#: Bits of a message key below its priority: the arrival number's.
SEQ_BITS = 40
#: The arrival number's bits of a message key.
SEQ_MASK = (1 << SEQ_BITS) - 1


def max_entries(size_kb: int) -> int:
    """The list entries a structure of ``size_kb`` holds: the most messages it can keep."""
    return size_kb * ENTRIES_PER_KB


def max_elements(size_kb: int) -> int:
    """The elements a structure of ``size_kb`` holds."""
    return size_kb * ELEMENTS_PER_KB


def elements(data: int) -> int:
    """The elements a message takes with ``data`` bytes of data in the structure (0 for
    an offloaded message: its control storage alone)."""
    return -(-(data + CONTROL_BYTES) // ELEMENT_BYTES)


#: The elements of an offloaded message: its control storage only.
CONTROL_ELEMENTS = elements(0)


def percent_full(entries: int, elements: int, max_entries: int, max_elements: int) -> float:
    """How full a structure is, in per cent: of its entries or of its elements, whichever
    is fuller (a structure is full when either runs out)."""
    used = 0.0
    if max_entries:
        used = entries / max_entries
    if max_elements:
        used = max(used, elements / max_elements)
    return 100.0 * used


def has_room(entries: int, elements: int, more: int, max_entries: int, max_elements: int) -> bool:
    """Whether a structure with ``entries`` and ``elements`` in use, of these maxima,
    takes one more message of ``more`` elements: an entry and ``more`` elements are
    free. IBM, "2192 (0890) (RC2192): MQRC_STORAGE_MEDIUM_FULL": full "if either all
    ENTRYs or all ELEMENTs are in use"."""
    return entries < max_entries and elements + more <= max_elements


def message_key(seq: int, priority: int, by_priority: bool) -> int:
    """The key of message number ``seq`` of ``priority`` on its queue: higher priorities
    first on a priority queue (``by_priority``), then arrival order."""
    if by_priority:
        return (9 - priority) << SEQ_BITS | seq
    return seq


def seq_of(key: int) -> int:
    """The arrival number a message key holds."""
    return key & SEQ_MASK


def below_priority(lowest: int) -> int:
    """On a priority queue, the first key of a message of lower priority than ``lowest``:
    the keys of priority ``lowest`` or higher are all less."""
    return (10 - lowest) << SEQ_BITS


__all__ = [
    "CONTROL_BYTES",
    "CONTROL_ELEMENTS",
    "ELEMENTS_PER_KB",
    "ELEMENT_BYTES",
    "ENTRIES_PER_KB",
    "MAX_SIZE_KB",
    "SEQ_BITS",
    "SEQ_MASK",
    "below_priority",
    "elements",
    "has_room",
    "max_elements",
    "max_entries",
    "message_key",
    "percent_full",
    "seq_of",
]
