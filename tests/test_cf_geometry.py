"""The CF structure's geometry has one home (issue 41): ``qsg.core.geometry``.

Both stores, the coupling facility's Lua scripts, the capacity sizing and the scenario
dry run count a structure by it, so each site must agree with it and with the others: a
structure filled through either store reports the same entries, elements and percent
full as the sizing predicts; the scripts compute percent full to the bit as Python does
and type none of the geometry's numbers; both stores key a message as it says.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from string import Template

import numpy as np
import pytest

from coupling import scripts
from coupling.codec import encode
from coupling.store import RedisStore
from coupling.transport import BlockingTransport
from qsg import MD
from qsg.core import geometry
from qsg.core.memstore import MemoryStore
from qsg.core.message import Message
from qsg.core.offload import first_reached, rules
from qsg.core.store import SELECT_ANY, MessageStore, Ordering, Syncpoint
from qsg.scenario.sizing import elements_of, usage_arrays
from tests.claims import keeps

KB = 1024
#: OFFLD1TH(50) OFFLD1SZ(1K), the others off: from half full, data over 1 KB goes to SMDS.
RULES = rules(5, [50, 80, 90], [1, 64, 64])


def _message(size: int, priority: int = 0) -> Message:
    return Message(MD(MsgId=b"m" * 24).get(), b"d" * size, 0.0, None, priority)


def _usage(store: MessageStore) -> tuple[int, int, float]:
    used = store.structure_usage("APP1")
    full = geometry.percent_full(
        used["entries"], used["elements"], used["max_entries"], used["max_elements"]
    )
    return used["entries"], used["elements"], full


@keeps(
    "docs/coupling-facility.md",
    "a structure filled through either store reports the entries, elements and percent full the "
    "sizing predicts",
)
def test_a_structure_filled_through_either_store_counts_as_the_geometry_and_the_sizing_say(
    redis_store: Callable[[], RedisStore],
) -> None:
    # SIZE 100 KB: 100 entries, 400 elements. Data lengths on each side of an element's
    # edge (56 bytes of data and 200 of control storage fill one), a 63 KB message that
    # takes the structure past OFFLD1TH(50), then messages the rule offloads (over 1 KB)
    # or keeps, and one over 63 KB (always offloaded).
    sizes = [0, 55, 56, 57, 312, 313, 1000, 63 * KB, 4000, 1000, 1025, 63 * KB + 1, 0]
    stores: list[MessageStore] = [MemoryStore(), redis_store()]
    for store in stores:
        store.define_structure("APP1", size_kb=100, cf_level=5, offload=RULES)
        store.create_queue("Q", Ordering.PRIORITY, "APP1")
    assert _usage(stores[0]) == (0, 0, 0.0)
    entries, used, full = 0, 0, 0.0
    for size in sizes:
        # The sizing's count of this message, at how full the structure is before it.
        entries, used = entries + 1, used + elements_of(size, full, RULES)
        full = geometry.percent_full(entries, used, 100, 400)
        for store in stores:
            store.put("Q", _message(size), None, 1000)
        assert [_usage(store) for store in stores] == [(entries, used, full)] * 2, size
    assert [store.smds_writes for store in stores] == [3, 3]  # 4000, 1025 and 63 KB + 1
    assert full > 50  # the rule applied
    for store in stores:
        for _ in range(5):
            store.get("Q", SELECT_ANY, 0.0, None, Syncpoint.NO, None, False)
    assert _usage(stores[0]) == _usage(stores[1])
    for store in stores:
        store.delete_queue("Q")
    assert [_usage(store) for store in stores] == [(0, 0, 0.0)] * 2


@keeps("docs/coupling-facility.md", "the scripts compute percent full to the bit as Python does")
def test_the_scripts_compute_percent_full_to_the_bit_as_the_geometry_does(
    cf_transport: BlockingTransport,
) -> None:
    # The offload rules compare percent full with OFFLDnTH in both stores (and
    # offload.first_reached finds the first count that reaches it): one bit apart, a
    # store would offload a message the other keeps. Counts around each threshold of
    # structures of many sizes, and random ones.
    script = scripts._script(  # the prelude's percent_full, alone
        "PERCENT",
        r"""
local out = {}
for i = 1, #ARGV, 4 do
  local full = percent_full(tonumber(ARGV[i]), tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2]),
                            tonumber(ARGV[i + 3]))
  out[#out + 1] = string.format('%.17g', full)
end
return out
""",
    )
    rng = random.Random(41)
    cases = []
    for size_kb in (1, 3, 7, 10, 99, 1000, 12345, geometry.MAX_SIZE_KB):
        most, room = geometry.max_entries(size_kb), geometry.max_elements(size_kb)
        for threshold in (1, 33, 50, 70, 80, 90, 99):
            entries, elements = first_reached(((threshold, 0),), most, room)
            for e in (int(entries) - 1, int(entries), int(entries) + 1):
                cases.append((max(e, 0), 0, most, room))
            for el in (int(elements) - 1, int(elements), int(elements) + 1):
                cases.append((0, max(el, 0), most, room))
        for _ in range(20):
            cases.append((rng.randrange(most + 1), rng.randrange(room + 1), most, room))
    args = [n for case in cases for n in case]
    answers = cf_transport.command("EVAL", script.source, 0, *args)
    assert [float(a) for a in answers] == [geometry.percent_full(*case) for case in cases]


@keeps(
    "docs/coupling-facility.md",
    "the put script's prelude has it as `has_room`, which `tests/test_cf_geometry.py` holds to "
    "the module's answer at and around every maximum",
)
def test_the_scripts_refuse_a_put_exactly_when_the_geometry_says_the_structure_is_full(
    cf_transport: BlockingTransport,
) -> None:
    # The structure-full rule (2192: full "if either all ENTRYs or all ELEMENTs are in
    # use") is geometry.has_room in process and the prelude's has_room in the put script:
    # the last entry and the last element are taken, one more is refused. Structures of
    # many sizes at and around their maxima, messages of 0 to 253 elements, and random
    # usage.
    script = scripts._script(  # the prelude's has_room, alone
        "HAS_ROOM",
        r"""
local out = {}
for i = 1, #ARGV, 5 do
  local a = {}
  for j = 0, 4 do a[j + 1] = tonumber(ARGV[i + j]) end
  out[#out + 1] = has_room(a[1], a[2], a[3], a[4], a[5]) and 1 or 0
end
return out
""",
    )
    rng = random.Random(42)
    cases = []
    for size_kb in (1, 2, 7, 64, 1000, geometry.MAX_SIZE_KB):
        most, room = geometry.max_entries(size_kb), geometry.max_elements(size_kb)
        for more in (1, 5, geometry.elements(63 * KB)):
            for entries in (0, most - 1, most, most + 1):
                for used in (0, room - more - 1, room - more, room - more + 1, room, room + 1):
                    cases.append((max(entries, 0), max(used, 0), more, most, room))
        for _ in range(20):
            more = geometry.elements(rng.randrange(63 * KB + 1))
            cases.append((rng.randrange(most + 2), rng.randrange(room + 2), more, most, room))
    args = [n for case in cases for n in case]
    answers = cf_transport.command("EVAL", script.source, 0, *args)
    assert [bool(a) for a in answers] == [geometry.has_room(*case) for case in cases]
    assert "has_room(entries, used, more, max_entries, max_elements)" in scripts.PUT.source


@keeps(
    "docs/coupling-facility.md",
    "(and the scripts' count of a message's elements to `geometry.elements`, for every width of "
    "record)",
)
def test_the_scripts_count_a_messages_elements_as_the_geometry_does(
    cf_transport: BlockingTransport,
) -> None:
    # A message's elements follow from its data's length alone, read by the script from
    # the head of the record the store encodes (each msgpack string width a body up to
    # 63 KB takes: fixraw, str8, raw16) and by the in-process store from the body; a
    # body over 63 KB is not in the record (offloaded), which leaves its control storage.
    script = scripts._script(
        "ELEMENTS",
        r"""
local out = {}
for i = 1, #ARGV do out[i] = elements(ARGV[i]) end
return out
""",
    )
    edges = (n * geometry.ELEMENT_BYTES - geometry.CONTROL_BYTES for n in (1, 2, 5, 100, 252))
    lengths = sorted(
        {0, 1, 31, 32, 255, 256, 63 * KB - 1, 63 * KB}
        | {edge + d for edge in edges for d in (-1, 0, 1)}
    )
    records = [encode(_message(n))[0] for n in [*lengths, 63 * KB + 1, 100 * KB]]
    answers = cf_transport.command("EVAL", script.source, 0, *records)
    wanted = [geometry.elements(n) for n in lengths]
    assert answers == [*wanted, geometry.CONTROL_ELEMENTS, geometry.CONTROL_ELEMENTS]


#: The geometry's numbers as a script could type them: an element's and the control
#: storage's bytes, the key's priority shift (bits and unit), the largest SIZE, and
#: elements per KB as a factor.
_TYPED = re.compile(
    rf"\b({geometry.ELEMENT_BYTES}|{geometry.CONTROL_BYTES}|{geometry.SEQ_BITS}|"
    rf"{2**geometry.SEQ_BITS}|{geometry.MAX_SIZE_KB})\b"
    rf"|\b{geometry.ELEMENTS_PER_KB} \*|\* {geometry.ELEMENTS_PER_KB}\b|<<"
)


def _substituted() -> set[str]:
    """The prelude's lines as its placeholders made them: where numbers come in."""
    lines = scripts._PRELUDE_TEMPLATE.template.splitlines()
    filled = [
        Template(line).substitute(scripts._SUBSTITUTIONS)
        for line in lines
        if re.search(r"\$[A-Z]", line)
    ]
    return {part for line in filled for part in line.splitlines()}


@pytest.mark.parametrize("script", scripts.ALL, ids=lambda s: s.name)
@keeps("docs/coupling-facility.md", "no script types a number of the geometry")
def test_no_script_types_a_number_of_the_geometry(script: scripts.Script) -> None:
    # Each number comes from qsg.core.geometry by substitution; typed again in Lua, it
    # would drift from the stores' and the sizing's when the model changes. (Comments
    # may name them.)
    substituted = _substituted()
    code = [
        line.split("--", 1)[0] for line in script.source.splitlines() if line not in substituted
    ]
    typed = [(line, _TYPED.search(line)) for line in code]
    assert [line for line, found in typed if found] == []
    # The percent-full arithmetic is written once, in the prelude's percent_full.
    assert sum("100 *" in line for line in code) == sum(
        "local function percent_full" in line for line in code
    )


def test_the_scripts_take_the_geometrys_numbers() -> None:
    assert f"local SHIFT = {2**geometry.SEQ_BITS}\n" in scripts.COUNT.source  # the key
    assert (  # a message's elements
        f"local ELEMENT, CONTROL = {geometry.ELEMENT_BYTES}, {geometry.CONTROL_BYTES}\n"
        in scripts.PUT.source
    )
    assert (  # what SIZE holds
        f"local ENTRIES_PER_KB, ELEMENTS_PER_KB = {geometry.ENTRIES_PER_KB}, "
        f"{geometry.ELEMENTS_PER_KB}\n" in scripts.DEFINE_STRUCTURE.source
    )


@pytest.mark.parametrize("ordering", list(Ordering))
@keeps(
    "docs/coupling-facility.md",
    "a message's key is `(9 - priority) << 40 | seq` on a priority queue and `seq` on a FIFO "
    "queue.",
)
def test_both_stores_key_a_message_by_its_priority_and_arrival_as_the_geometry_says(
    redis_store: Callable[[], RedisStore], ordering: Ordering
) -> None:
    # The key orders the queue (priority first on a priority queue, then arrival), and
    # the count of messages of a priority or more (triggering's) bisects by it.
    priorities = [3, 9, 0, 3, 7, 9, 1]
    for store in (MemoryStore(), redis_store()):
        store.create_queue("Q", ordering)
        for priority in priorities:
            store.put("Q", _message(1, priority), None, 1000)
        keys, after = [], None
        while (taken := store.browse("Q", after, SELECT_ANY, 0.0)).message is not None:
            message = taken.message
            keys.append(taken.position)
            assert taken.position == geometry.message_key(
                message.seq, message.priority, ordering is Ordering.PRIORITY
            )
            after = taken.position
        assert keys == sorted(keys) and len(keys) == len(priorities)
        for lowest in range(10):
            wanted = sum(1 for p in priorities if p >= lowest)
            assert store.depth_at_least("Q", lowest, committed_only=True) == wanted


def test_the_sizing_sizes_the_series_by_the_geometrys_percent_full() -> None:
    # sizing.usage_arrays works on numpy arrays; its percent full must be the geometry's,
    # bit for bit, or the summary and the metrics table would disagree with the stores.
    rng = random.Random(41)
    size_kb = 12_345
    times = np.arange(1.0, 501.0)
    entries = np.array([rng.randrange(size_kb + 1) for _ in times])
    puts = np.arange(0.0, 500.0)
    sizes = np.array([rng.randrange(8000) for _ in puts])
    used, full = usage_arrays(times, entries, puts, sizes, size_kb, RULES)
    most, room = geometry.max_entries(size_kb), geometry.max_elements(size_kb)
    assert full.tolist() == [
        geometry.percent_full(e, u, most, room)
        for e, u in zip(entries.tolist(), used.tolist(), strict=True)
    ]
