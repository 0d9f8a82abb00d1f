"""A CF structure fills, in process as on the coupling facility (issue 42).

IBM, "2192 (0890) (RC2192): MQRC_STORAGE_MEDIUM_FULL": "A coupling-facility structure
is full ... if either all ENTRYs or all ELEMENTs are in use"; the MQPUT that finds no
room fails and leaves nothing behind. "DEFINE CFSTRUCT": a message over 63 KB needs
CFLEVEL(4) (MQRC_WRONG_CF_LEVEL, 2366, below it), and at CFLEVEL(5) OFFLDnTH/OFFLDnSZ
offload smaller ones as the structure fills. The rule is ``qsg.core.geometry``'s
(``has_room``), applied by both stores: the in-process store and the coupling
facility's put script must refuse the same put and report the same usage, and a run with
``in_process = true`` must end as the same run on the server does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from actors.events import ApplicationError, MessagePut
from coupling.store import RedisStore
from qsg import CMQC, MQMIError, QMgr
from qsg.core import geometry
from qsg.core.memstore import MemoryStore
from qsg.core.objects import CFStructure
from qsg.core.sharing import QueueSharingGroup
from qsg.core.store import MessageStore
from qsg.scenario import parse_scenario
from qsg.scenario.play import run_scenario
from tests.claims import keeps
from tests.helpers import ALL, get, put

KB = 1024
SHARED = {"qsg_disp": CMQC.MQQSGD_SHARED, "cf_struct": "APP1"}


@pytest.fixture(params=["in-process", "server"])
def store(request: pytest.FixtureRequest) -> MessageStore:
    """The QSG's shared store: the in-process one, or the coupling facility's."""
    if request.param == "server":
        make: Callable[[], RedisStore] = request.getfixturevalue("redis_store")
        return make()
    return MemoryStore()


def _member(store: MessageStore, size_kb: int, cf_level: int) -> QMgr:
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1", store=store))
    qm.define_structure(CFStructure("APP1", size_kb=size_kb, cf_level=cf_level))
    qm.define_queue("Q", max_depth=100_000, **SHARED)
    return qm


def _fill(qm: QMgr, body: bytes, most: int = 1000) -> tuple[int, int]:
    """Put ``body`` until a put is refused: the number of the refused put and its reason."""
    h = qm.connect().open("Q", ALL)
    for n in range(1, most + 1):
        try:
            put(h, body, 0.0)
        except MQMIError as error:
            return n, error.reason
    raise AssertionError(f"{most} puts and the structure never filled")


def _usage(store: MessageStore) -> tuple[int, int, float]:
    used = store.structure_usage("APP1")
    return (
        used["entries"],
        used["elements"],
        geometry.percent_full(
            used["entries"], used["elements"], used["max_entries"], used["max_elements"]
        ),
    )


@keeps(
    "docs/capacity.md",
    "a structure is full, and MQPUT gets MQRC_STORAGE_MEDIUM_FULL, when either runs out",
)
@keeps("docs/scenarios.md", "a full structure is MQRC_STORAGE_MEDIUM_FULL (2192)")
def test_at_cflevel_5_a_64_kb_structure_refuses_the_65th_1_kb_message_with_2192(
    store: MessageStore,
) -> None:
    # SIZE 64 KB: 64 entries, 256 elements; a 1 KB message and its control storage take
    # 5. IBM's default OFFLD3TH(90) OFFLD3SZ(0K): the 47th message is put at 89.8% full
    # (230 elements) and kept whole, and from 91.8% every message is offloaded and keeps
    # one element; the 64 entries run out first: the 65th put is refused, at 100% full.
    qm = _member(store, size_kb=64, cf_level=5)
    assert _fill(qm, b"x" * KB) == (65, CMQC.MQRC_STORAGE_MEDIUM_FULL)
    assert _usage(store) == (64, 47 * 5 + 17, 100.0)
    assert qm.depth("Q") == 64  # the refused put left nothing behind
    assert store.smds_writes == 17
    assert store.audit() == []


def test_at_cflevel_4_no_rule_offloads_and_the_elements_run_out_at_the_52nd_message(
    store: MessageStore,
) -> None:
    # CFLEVEL(4) keeps the rules but applies none ("DEFINE CFSTRUCT"): 51 messages of 5
    # elements take 255 of 256; the 52nd needs 5 more and is refused.
    qm = _member(store, size_kb=64, cf_level=4)
    assert _fill(qm, b"x" * KB) == (52, CMQC.MQRC_STORAGE_MEDIUM_FULL)
    assert _usage(store) == (51, 255, 100 * 255 / 256)
    assert store.smds_writes == 0


def test_a_full_structure_takes_a_message_again_once_one_is_got(store: MessageStore) -> None:
    qm = _member(store, size_kb=8, cf_level=4)  # 8 entries, 32 elements: 6 messages
    assert _fill(qm, b"x" * KB) == (7, CMQC.MQRC_STORAGE_MEDIUM_FULL)
    h = qm.connect().open("Q", ALL)
    get(h, 0.0)
    put(h, b"x" * KB, 0.0)
    with pytest.raises(MQMIError) as full:
        put(h, b"x" * KB, 0.0)
    assert full.value.reason == CMQC.MQRC_STORAGE_MEDIUM_FULL
    assert "APP1" in str(full.value)  # the error names the structure that is full
    assert _usage(store)[:2] == (6, 30)


@keeps(
    "docs/coupling-facility.md",
    "a put in syncpoint takes its room at once, and a backout gives it back",
)
def test_a_put_in_syncpoint_takes_its_room_at_once_and_a_backout_gives_it_back(
    store: MessageStore,
) -> None:
    # An uncommitted put is in the structure already (CURDEPTH counts it too): the
    # structure is full for every other put until it is backed out.
    qm = _member(store, size_kb=4, cf_level=4)  # 4 entries, 16 elements: 3 x 5
    conn = qm.connect()
    h = conn.open("Q", ALL)
    for _ in range(3):
        put(h, b"x" * KB, 0.0, CMQC.MQPMO_SYNCPOINT)
    with pytest.raises(MQMIError) as full:
        put(qm.connect().open("Q", ALL), b"x" * KB, 0.0)
    assert full.value.reason == CMQC.MQRC_STORAGE_MEDIUM_FULL
    conn.backout()
    assert _usage(store)[:2] == (0, 0)
    put(h, b"x" * KB, 0.0)


@keeps("docs/capacity.md", "or more: MQRC_WRONG_CF_LEVEL, 2366, otherwise")
@pytest.mark.parametrize("cf_level", [1, 2, 3])
def test_below_cflevel_4_a_message_over_63_kb_is_refused_with_2366(
    store: MessageStore, cf_level: int
) -> None:
    # "DEFINE CFSTRUCT": CFLEVEL(4) is needed for messages over 63 KB; below it MQPUT
    # fails with MQRC_WRONG_CF_LEVEL (2366) and the structure is unchanged.
    qm = _member(store, size_kb=1024, cf_level=cf_level)
    h = qm.connect().open("Q", ALL)
    put(h, b"x" * 63 * KB, 0.0)  # 63 KB exactly still fits a CF entry
    with pytest.raises(MQMIError) as wrong:
        put(h, b"x" * (63 * KB + 1), 0.0)
    assert wrong.value.reason == CMQC.MQRC_WRONG_CF_LEVEL
    assert "CFLEVEL" in str(wrong.value)
    assert _usage(store)[:2] == (1, geometry.elements(63 * KB))
    assert store.smds_writes == 0


def test_a_message_over_63_kb_is_refused_when_the_structure_has_no_entry_left(
    store: MessageStore,
) -> None:
    # An offloaded message still takes an entry and its control storage's element.
    qm = _member(store, size_kb=2, cf_level=5)  # 2 entries
    h = qm.connect().open("Q", ALL)
    put(h, b"s", 0.0)
    put(h, b"b" * 70 * KB, 0.0)
    with pytest.raises(MQMIError) as full:
        put(h, b"b" * 70 * KB, 0.0)
    assert full.value.reason == CMQC.MQRC_STORAGE_MEDIUM_FULL
    assert store.smds_writes == 1  # the refused one was written nowhere
    assert _usage(store)[:2] == (2, 2 * geometry.CONTROL_ELEMENTS)


# ---- the scenario, in process and on the server ------------------------------
SCENARIO = """\
description = "a 64 KB structure fills"

[run]
duration = 30
seed = 1
in_process = {in_process}

[qsg.QSG1]
members = ["QM1"]
mqsc = "DEFINE QLOCAL(APP.Q) QSGDISP(SHARED) CFSTRUCT(SMALL) MAXDEPTH(100000)"

[qsg.QSG1.structures.SMALL]
size_kb = 64
cflevel = {cf_level}

[[workload]]
name = "filler"
type = "putter"
qmgr = "QM1"
queue = "APP.Q"
rate = 10
arrival = "constant"
size = 1024
"""


@keeps(
    "docs/capacity.md",
    "(`geometry.has_room`: in process as on the Redis coupling facility, the same put)",
)
@pytest.mark.parametrize(("cf_level", "fits"), [(4, 51), (5, 64)])
def test_a_run_in_process_fills_the_structure_as_the_same_run_on_the_server_does(
    cf_url: str, cf_level: int, fits: int
) -> None:
    # The run: 1 KB messages, 10 a second, for 30 s, to a 64 KB structure. On
    # the server the put after the last that fits is refused with 2192, and so is every
    # one after it; in process it must be the same, put by put, and the queue's row
    # counts the errors as the queue manager's and the application's do.
    outcomes = []
    for in_process in ("true", "false"):
        text = SCENARIO.format(in_process=in_process, cf_level=cf_level)
        result = run_scenario(parse_scenario(text), redis_url=cf_url)
        puts = [e.time for e in result.events if isinstance(e, MessagePut)]
        errors = [(e.time, e.reason) for e in result.events if isinstance(e, ApplicationError)]
        row = result.summary.queue("QSG1", "APP.Q")
        (app,) = result.summary.applications
        outcomes.append((puts, errors))
        assert len(puts) == fits, in_process
        assert errors and Counter(r for _, r in errors) == {2192: len(errors)}
        assert min(t for t, _ in errors) > max(puts)  # every put after the last that fit
        assert row["errors"] == app["errors"] == len(errors), in_process
        assert row["error_reasons"] == app["error_reasons"]
        assert result.summary.qmgr("QM1")["errors"] == len(errors)
    assert outcomes[0] == outcomes[1]
