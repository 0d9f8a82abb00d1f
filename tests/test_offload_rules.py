"""Offload rules of a CF structure, as IBM defines them for CFLEVEL(5) (issue 32).

IBM ("DEFINE CFSTRUCT", "Specifying offload options for shared messages"): a message
over 63 KB is always offloaded; at CFLEVEL(5) rule n (OFFLDnTH, OFFLDnSZ) also offloads a
message larger than OFFLDnSZ once the structure's usage (entries or elements, the fuller)
has reached OFFLDnTH per cent; the defaults are 70%/32K, 80%/4K and 90%/0K; an offloaded
message keeps only its control information in the structure. Each store test runs on the
in-process store and on the coupling facility's (a real server the suite starts).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coupling.store import RedisStore
from qsg import CMQC, QMgr
from qsg.core.geometry import percent_full
from qsg.core.memstore import MemoryStore, _Structure
from qsg.core.message import Message
from qsg.core.objects import CFStructure
from qsg.core.offload import (
    DEFAULT_RULES,
    first_reached,
    offloaded,
    parse_size,
    rules,
)
from qsg.core.sharing import QueueSharingGroup
from qsg.core.store import MessageStore, Ordering
from qsg.mqsc import attributes, commands, pcf_names, status
from qsg.mqsc.display import Found
from qsg.mqsc.errors import MQSCError
from qsg.mqsc.pcf_inquiries import _as_parameters
from qsg.mqsc.reader import load
from qsg.mqsc.status import StructureView
from qsg.scenario.sizing import elements_of
from tests.claims import keeps
from tests.helpers import ALL, get, put

KB = 1024
SHARED = {"qsg_disp": CMQC.MQQSGD_SHARED, "cf_struct": "APP1", "max_depth": 1000}
APPLIED = rules(5, [t for t, _ in DEFAULT_RULES], [s for _, s in DEFAULT_RULES])


# ---- the rule itself -----------------------------------------------------------------
@keeps("docs/capacity.md", "| 1 | 70 | 32K | from 70% full, messages larger than 32 KB |")
@keeps("docs/coupling-facility.md", "IBM's defaults 70%/32K, 80%/4K, 90%/0K")
def test_the_defaults_are_ibms_70_percent_32k_80_percent_4k_and_90_percent_0k() -> None:
    s = CFStructure("APP1")
    assert (s.cf_level, s.offload) == (5, "SMDS")
    assert s.offload_thresholds == (70, 80, 90) and s.offload_sizes == (32, 4, 0)
    assert s.offload_rules == ((70, 32 * KB), (80, 4 * KB), (90, 0))


def test_a_40_kb_message_is_offloaded_once_the_structure_is_70_percent_full() -> None:
    assert not offloaded(40 * KB, 69.99, APPLIED)
    assert offloaded(40 * KB, 70.0, APPLIED)
    assert not offloaded(32 * KB, 75.0, APPLIED)  # OFFLD1SZ(32K): larger than 32 KB only


def test_a_5_kb_message_at_80_percent_and_any_message_at_90_percent() -> None:
    assert not offloaded(5 * KB, 79.9, APPLIED) and offloaded(5 * KB, 80.0, APPLIED)
    assert not offloaded(1, 89.9, APPLIED) and offloaded(1, 90.0, APPLIED)


@keeps("docs/capacity.md", "a message with more than 63 KB of data is always offloaded")
def test_a_message_over_63_kb_is_always_offloaded_and_cflevel_4_applies_no_rules() -> None:
    assert offloaded(63 * KB + 1, 0.0, ()) and not offloaded(63 * KB, 99.0, ())
    assert CFStructure("APP1", cf_level=4).offload_rules == ()


@keeps("docs/capacity.md", "a size of 64K switches a rule off")
def test_a_64k_size_switches_a_rule_off() -> None:
    assert rules(5, [70, 80, 90], [64, 4, 64]) == ((80, 4 * KB),)


@keeps("docs/capacity.md", "the fuller of its entries and its elements")
@keeps(
    "docs/coupling-facility.md",
    "a structure's percent full is the fuller of its entries and its elements",
)
def test_usage_is_the_fuller_of_entries_and_elements() -> None:
    assert percent_full(10, 300, 100, 400) == pytest.approx(75.0)
    assert percent_full(90, 0, 100, 400) == pytest.approx(90.0)


def test_sizing_keeps_an_offloaded_body_out_of_the_structure() -> None:
    assert elements_of(40 * KB, 69.0, APPLIED) == 161
    assert elements_of(40 * KB, 70.0, APPLIED) == 1  # control information only


# ---- MQSC and PCF --------------------------------------------------------------------
def _qm(store: MessageStore | None = None) -> QMgr:
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1", store=store or MemoryStore()))
    load(qm, "DEFINE CFSTRUCT(APP1)")
    return qm


def _structure(qm: QMgr) -> CFStructure:
    assert qm.qsg is not None
    return qm.qsg.shared.structures["APP1"]


@keeps("docs/capacity.md", "Set them with DEFINE or ALTER CFSTRUCT")
def test_define_and_alter_cfstruct_take_the_rules_in_mqsc_syntax() -> None:
    qm = _qm()
    load(qm, "ALTER CFSTRUCT(APP1) OFFLD1TH(60) OFFLD1SZ(16K) OFFLD2SZ(8K) OFFLD3TH(95)")
    s = _structure(qm)
    assert s.offload_thresholds == (60, 80, 95) and s.offload_sizes == (16, 8, 0)


@keeps("docs/capacity.md", "OFFLDnTH is 0 to 100, OFFLDnSZ 0K to 64K written with its K")
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ALTER CFSTRUCT(APP1) OFFLD1TH(101)", "101 is not in 0..100"),
        ("ALTER CFSTRUCT(APP1) OFFLD1SZ(65K)", "'65K' is not in 0K..64K"),
        ("ALTER CFSTRUCT(APP1) OFFLD2SZ(4M)", "'4M' is not a size in K"),
        ("ALTER CFSTRUCT(APP1) OFFLD3SZ('4K')", "is not a size in K"),
        ("DEFINE CFSTRUCT(OLD) CFLEVEL(4) OFFLD1TH(50)", "OFFLD1TH needs CFLEVEL(5)"),
    ],
)
def test_a_bad_offload_rule_is_refused_with_mqscs_error(text: str, message: str) -> None:
    qm = _qm()
    with pytest.raises(MQSCError, match=r"<mqsc>:1:\d+: ") as refused:
        load(qm, text)
    assert message in str(refused.value)
    assert _structure(qm).offload_sizes == (32, 4, 0)  # nothing applied


@keeps("docs/capacity.md", "DISPLAY CFSTRUCT shows them")
def test_display_cfstruct_and_pcf_show_the_rules() -> None:
    qm = _qm()
    load(qm, "ALTER CFSTRUCT(APP1) OFFLD2SZ(8K)")
    shown = attributes.cf_structure(StructureView(_structure(qm)))
    assert [kv for kv in shown if kv[0].startswith("OFFLD")] == [
        ("OFFLD1TH", 70),
        ("OFFLD1SZ", "32K"),
        ("OFFLD2TH", 80),
        ("OFFLD2SZ", "8K"),
        ("OFFLD3TH", 90),
        ("OFFLD3SZ", "0K"),
    ]
    pcf = dict(_as_parameters(pcf_names.CFSTRUCT, Found("", "APP1", shown)))
    assert pcf[CMQC.MQIA_CF_OFFLOAD_THRESHOLD1] == 70 == pcf[225]  # IBM's numbers
    assert pcf[3180] == "8K" and pcf[227] == 90  # MQCACF_CF_OFFLOAD_SIZE2, ..._THRESHOLD3


def test_the_console_alters_a_rule_and_display_cfstruct_shows_it() -> None:
    qm = _qm()

    def console(text: str) -> str:
        return commands.run(commands.parse(text), qm, lambda: status.take(qm, 0.0)).text

    assert "CSQ9022I" in console("ALTER CFSTRUCT(APP1) OFFLD1TH(65) OFFLD1SZ(16K)")
    shown = console("DISPLAY CFSTRUCT(APP1) ALL")
    for rule in ("OFFLD1TH(65)", "OFFLD1SZ(16K)", "OFFLD2TH(80)", "OFFLD2SZ(4K)", "OFFLD3SZ(0K)"):
        assert rule in shown
    refused = console("ALTER CFSTRUCT(APP1) OFFLD2SZ(99K)")
    assert "CSQ9017E" in refused and "OFFLD2SZ(99K): '99K' is not in 0K..64K" in refused


def test_a_size_reads_as_ibm_writes_it() -> None:
    assert parse_size("32K") == 32 and parse_size("0k") == 0 and parse_size("64") == 64


# ---- the stores apply it -------------------------------------------------------------
@pytest.fixture(params=["memory", "redis"])
def make_store(request: pytest.FixtureRequest) -> Callable[[], MessageStore]:
    if request.param == "redis":
        make: Callable[[], MessageStore] = request.getfixturevalue("redis_store")
        return make
    return MemoryStore


class Probe:
    """A structure of 100 entries (and 400 elements) with a fill queue and a probe queue:
    empty fill messages (never offloaded) set how full it is by entries; a probe message
    is put, seen offloaded or not, and got back whole."""

    def __init__(self, store: MessageStore, mqsc: str = "") -> None:
        self.qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1", store=store))
        self.store = store
        load(self.qm, "DEFINE CFSTRUCT(APP1) " + mqsc)
        self.qm.define_structure(
            CFStructure("APP1", size_kb=100, **_fields(_structure(self.qm))), replace=True
        )
        self.qm.define_queue("FILL", **SHARED)  # type: ignore[arg-type]
        self.qm.define_queue("PROBE", **SHARED)  # type: ignore[arg-type]
        conn = self.qm.connect()
        self.fill, self.probe = conn.open("FILL", ALL), conn.open("PROBE", ALL)
        self.depth = 0

    def fill_to(self, percent: int) -> None:
        while self.depth < percent:
            put(self.fill, b"", 0.0)
            self.depth += 1

    def offloads(self, size: int) -> bool:
        body = bytes(i % 251 for i in range(size))
        writes, reads = self.store.smds_writes, self.store.smds_reads
        put(self.probe, body, 0.0)
        wrote = self.store.smds_writes - writes
        assert get(self.probe, 0.0)[0] == body  # whole, offloaded or not
        assert self.store.smds_reads - reads == wrote  # read back from SMDS if written
        return bool(wrote)


def _fields(s: CFStructure) -> dict[str, int]:
    return {
        "cf_level": s.cf_level,
        "offload_threshold1": s.offload_threshold1,
        "offload_size1": s.offload_size1,
        "offload_threshold2": s.offload_threshold2,
        "offload_size2": s.offload_size2,
        "offload_threshold3": s.offload_threshold3,
        "offload_size3": s.offload_size3,
    }


@keeps(
    "docs/coupling-facility.md",
    "At CFLEVEL(5) the structure's offload rules (OFFLD1TH/OFFLD1SZ ... OFFLD3TH/OFFLD3SZ, IBM's "
    "defaults 70%/32K, 80%/4K, 90%/0K) offload smaller messages once it is that full.",
)
@keeps(
    "docs/mq-rules.md",
    (
        "At CFLEVEL(5), rule n offloads a message larger than OFFLDnSZ once the structure (entries "
        "or elements, the fuller) is OFFLDnTH% full; defaults 70%/32K, 80%/4K, 90%/0K; CFLEVEL(4) "
        "applies only the 63 KB rule; an offloaded message keeps only its control information in "
        "the structure."
    ),
)
def test_a_store_offloads_40_kb_from_70_percent_5_kb_from_80_and_any_size_from_90(
    make_store: Callable[[], MessageStore],
) -> None:
    p = Probe(make_store())
    p.fill_to(69)
    assert not p.offloads(40 * KB)
    p.fill_to(70)
    assert p.offloads(40 * KB) and not p.offloads(5 * KB)
    p.fill_to(80)
    assert p.offloads(5 * KB) and not p.offloads(KB)
    p.fill_to(89)
    assert not p.offloads(KB)
    p.fill_to(90)
    assert p.offloads(KB) and p.offloads(1)


@keeps(
    "docs/capacity.md",
    "a structure altered down to CFLEVEL(4) keeps them without applying them (only the 63 KB rule)",
)
@keeps(
    "docs/mq-rules.md",
    (
        "At CFLEVEL(5), rule n offloads a message larger than OFFLDnSZ once the structure (entries "
        "or elements, the fuller) is OFFLDnTH% full; defaults 70%/32K, 80%/4K, 90%/0K; CFLEVEL(4) "
        "applies only the 63 KB rule; an offloaded message keeps only its control information in "
        "the structure."
    ),
)
def test_cflevel_4_keeps_only_the_63_kb_rule(make_store: Callable[[], MessageStore]) -> None:
    p = Probe(make_store(), "CFLEVEL(4)")
    p.fill_to(95)
    assert not p.offloads(40 * KB) and not p.offloads(63 * KB)
    assert p.offloads(63 * KB + 1)


def test_alter_offld2sz_changes_the_decision(make_store: Callable[[], MessageStore]) -> None:
    p = Probe(make_store())
    p.fill_to(85)
    assert p.offloads(5 * KB)
    load(p.qm, "ALTER CFSTRUCT(APP1) OFFLD2SZ(8K)")
    assert not p.offloads(5 * KB) and p.offloads(9 * KB)


@keeps("docs/capacity.md", "only the control storage, the message's control information, stays")
@keeps(
    "docs/mq-rules.md",
    (
        "At CFLEVEL(5), rule n offloads a message larger than OFFLDnSZ once the structure (entries "
        "or elements, the fuller) is OFFLDnTH% full; defaults 70%/32K, 80%/4K, 90%/0K; CFLEVEL(4) "
        "applies only the 63 KB rule; an offloaded message keeps only its control information in "
        "the structure."
    ),
)
def test_an_offloaded_message_keeps_only_control_information_in_the_structure(
    make_store: Callable[[], MessageStore],
) -> None:
    p = Probe(make_store())
    p.fill_to(90)
    before = p.store.structure_usage("APP1")
    put(p.probe, b"x" * 20 * KB, 0.0)
    after = p.store.structure_usage("APP1")
    assert after["entries"] == before["entries"] + 1
    assert after["elements"] - before["elements"] <= 2  # not the 80 elements of its data
    get(p.probe, 0.0)
    assert p.store.structure_usage("APP1") == before


@keeps(
    "docs/capacity.md",
    "applied in one place (`qsg/core/offload.py`) by both stores at the moment of the put",
)
def test_the_redis_store_and_the_in_process_store_make_the_same_decisions(
    redis_store: Callable[[], RedisStore],
) -> None:
    sizes = [0, 1, 4 * KB, 4 * KB + 1, 32 * KB, 32 * KB + 1, 40 * KB, 63 * KB, 63 * KB + 1]
    decisions: dict[str, list[bool]] = {}
    for kind, store in (("memory", MemoryStore()), ("redis", redis_store())):
        p = Probe(store, "OFFLD1TH(30) OFFLD2TH(55)")
        seen = decisions[kind] = []
        for level in range(0, 100, 5):
            p.fill_to(level)
            seen += [p.offloads(size) for size in sizes]
    applied = rules(5, [30, 55, 90], [32, 4, 0])
    expected = [offloaded(s, float(level), applied) for level in range(0, 100, 5) for s in sizes]
    assert decisions["memory"] == decisions["redis"] == expected


@pytest.mark.parametrize(
    ("attributes", "refusal"),
    [
        ({"offload_threshold1": -1}, "OFFLD1TH must be 0..100, not -1"),
        ({"offload_threshold2": 101}, "OFFLD2TH must be 0..100, not 101"),
        ({"offload_size3": 65}, "OFFLD3SZ must be 0K..64K, not 65K"),
        ({"offload_size1": -1}, "OFFLD1SZ must be 0K..64K, not -1K"),
    ],
)
def test_a_structure_refuses_an_offload_rule_out_of_range_naming_it(
    attributes: dict[str, int], refusal: str
) -> None:
    # DEFINE CFSTRUCT: OFFLDnTH is a percentage 0-100 and OFFLDnSZ 0K-64K; the refusal
    # names the structure and the rule, numbered as MQSC numbers them.
    with pytest.raises(ValueError, match=f"^CF structure APP1: {refusal}$"):
        CFStructure("APP1", **attributes)  # type: ignore[arg-type]


def test_the_ends_of_each_offload_range_are_accepted() -> None:
    # 0 and 100 per cent, 0K and 64K (64K: the rule never offloads) are all valid.
    s = CFStructure("APP1", offload_threshold1=0, offload_threshold2=100, offload_size1=64)
    assert s.offload_thresholds == (0, 100, 90) and s.offload_sizes == (64, 4, 0)


def test_a_structure_with_no_maxima_yet_counts_as_empty() -> None:
    assert percent_full(0, 0, 0, 0) == 0.0


# ---- the in-process store's accounting (the facility's: test_coupling_facility.py) ----
def _shared(qm: QMgr) -> MemoryStore:
    load(qm, "DEFINE QLOCAL(Q) QSGDISP(SHARED) CFSTRUCT(APP1)")
    assert qm.qsg is not None
    store = qm.qsg.shared.store
    assert isinstance(store, MemoryStore)
    return store


def test_a_browse_of_an_offloaded_message_is_an_smds_read_and_of_one_in_the_cf_none() -> None:
    # An offloaded message's data lies in the SMDS: reading it, for a browse as for a
    # get, is an SMDS access; a message kept whole in the structure needs none.
    qm = _qm()
    store = _shared(qm)
    h = qm.connect().open("Q", ALL)
    put(h, b"x" * (70 * KB), 0.0)  # over 63 KB: always offloaded
    put(h, b"y" * KB, 0.0)
    browse = CMQC.MQGMO_BROWSE_FIRST
    assert len(get(h, 0.0, browse)[0]) == 70 * KB and store.smds_reads == 1
    assert get(h, 0.0, CMQC.MQGMO_BROWSE_NEXT)[0] == b"y" * KB and store.smds_reads == 1


def test_deleting_a_shared_queue_gives_its_structure_back_its_entries_and_elements() -> None:
    qm = _qm()
    store = _shared(qm)
    h = qm.connect().open("Q", ALL)
    put(h, b"x" * KB, 0.0)
    put(h, b"y" * KB, 0.0)
    assert store.structure_usage("APP1")["entries"] == 2
    h.close()
    qm.delete_queue("Q", purge=True)
    usage = store.structure_usage("APP1")
    assert (usage["entries"], usage["elements"]) == (0, 0)


def test_elements_alone_can_make_a_structure_full_enough_to_offload() -> None:
    # SIZE 10 KB: 10 entries and 40 elements. Three messages of 2,300 bytes (10 elements
    # each with their 200 bytes of control storage) use 30% of the entries but 75% of the
    # elements: past OFFLD1TH(70) with OFFLD1SZ(0K), the fourth message is offloaded, by
    # the rules the structure was defined with.
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1", store=MemoryStore()))
    qm.define_structure(CFStructure("APP1", size_kb=10, offload_size1=0))
    store = _shared(qm)
    h = qm.connect().open("Q", ALL)
    for _ in range(3):
        put(h, b"x" * 2300, 0.0)
    assert store.smds_writes == 0
    assert store.structure_usage("APP1")["elements"] == 30
    put(h, b"x" * 2300, 0.0)
    assert store.smds_writes == 1


def test_an_unknown_structure_s_usage_is_all_zeros() -> None:
    assert MemoryStore().structure_usage("NONE") == {
        "entries": 0,
        "elements": 0,
        "max_entries": 0,
        "max_elements": 0,
    }


@settings(max_examples=400, deadline=None)
@given(
    thresholds=st.lists(st.integers(0, 100), min_size=1, max_size=3),
    size_kb=st.integers(0, 5000),
    entries=st.integers(0, 6000),
    elements=st.integers(0, 24000),
)
@keeps(
    "docs/speed.md",
    "so a put below them skips the rules and agrees with them to the last bit (a property"
    " test checks each bound and one short of it)",
)
def test_below_the_first_threshold_reached_no_rule_applies_and_from_it_one_does(
    thresholds: list[int], size_kb: int, entries: int, elements: int
) -> None:
    """ "rule n applies once the structure's usage ... has reached OFFLDnTH per cent": the
    put's shortcut (``first_reached``: the fewest entries and elements at which the lowest
    OFFLDnTH is reached) says a rule may apply exactly when ``percent_full`` says so."""
    applied = tuple((threshold, 0) for threshold in thresholds)
    fewest_entries, fewest_elements = first_reached(applied, size_kb, 4 * size_kb)
    full = percent_full(entries, elements, size_kb, 4 * size_kb)
    reached = entries >= fewest_entries or elements >= fewest_elements
    assert reached == (full >= min(thresholds))
    assert reached == offloaded(1, full, applied)
    structure = _Structure("APP1", size_kb, 5, applied, entries, elements)
    assert structure.rules_may_apply() == reached
    # At each bound and one short of it (where the shortcut could be off by one).
    for count in (fewest_entries, fewest_elements):
        if count == math.inf:
            continue
        for entries, elements in ((count, 0), (0, count), (count - 1, 0), (0, count - 1)):
            if entries < 0 or elements < 0:
                continue
            full = percent_full(int(entries), int(elements), size_kb, 4 * size_kb)
            structure = _Structure("APP1", size_kb, 5, applied, int(entries), int(elements))
            assert structure.rules_may_apply() == (full >= min(thresholds))


def test_a_store_with_rules_offloads_from_the_first_threshold_and_not_one_entry_before() -> None:
    """The shortcut in the store's put: at 69.9% of a 1,000-entry structure a 40 KB message
    stays in the CF, at 70% (the 700th entry in use) it is offloaded (OFFLD1TH 70, 32K)."""
    store = MemoryStore()
    store.define_structure("APP1", size_kb=1000, cf_level=5, offload=DEFAULT_RULES)
    store.create_queue("Q", Ordering.FIFO, structure="APP1")

    def put(size: int) -> None:
        message = Message(
            {"GroupId": CMQC.MQGI_NONE, "Persistence": CMQC.MQPER_NOT_PERSISTENT},
            b"x" * size,
            0.0,
            None,
            0,
        )
        store.put("Q", message, None, 10**9)

    for _ in range(699):
        put(10)
    put(40 * KB)
    assert store.smds_writes == 0
    put(40 * KB)
    assert store.smds_writes == 1
