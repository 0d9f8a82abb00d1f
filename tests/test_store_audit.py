"""Each store audits its derived state against what it is derived from (issue 41).

A store keeps counters and indexes beside its messages (a queue's depth, its locks and
their count, the units of work and what they hold, the expiry and group indexes, a CF
structure's entries and elements in use) so that a call need not count. ``audit``
recounts them from the messages; here each store, holding a bit of everything, audits
clean, and each piece of derived state corrupted directly is named by the audit.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

import qsg
from actors.clock import VirtualClock
from actors.world import AUDIT_VARIABLE
from coupling import keys
from coupling.store import RedisStore
from qsg import CMQC, GMO, MD, PMO, QMgr
from qsg.core.memstore import MemoryStore
from qsg.core.objects import CFStructure
from qsg.core.sharing import QueueSharingGroup
from qsg.core.store import MessageStore
from tests.claims import keeps
from tests.helpers import ALL, get, put
from tests.worlds import qsg_and_qm3

#: The group of the grouped message.
GROUP = b"G" * 24


@pytest.fixture(params=["memory", "redis"])
def store(request: pytest.FixtureRequest) -> MessageStore:
    """A QSG's store holding a bit of everything on shared queue Q of structure APP1:
    messages plain (the first, locked by a browse), expiring, grouped and offloaded
    (70 KB); an uncommitted put; an uncommitted get of a message backed out once."""
    if request.param == "redis":
        made: Callable[[], RedisStore] = request.getfixturevalue("redis_store")
        shared: MessageStore = made()
    else:
        shared = MemoryStore()
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1", store=shared))
    qm.define_structure(CFStructure("APP1", size_kb=1000))
    qm.define_queue("Q", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")
    h = qm.connect().open("Q", ALL)
    put(h, b"backed out", 0.0, Priority=9)
    backer = qm.connect()
    get(backer.open("Q", ALL), 0.0, CMQC.MQGMO_SYNCPOINT)
    backer.backout()  # BackoutCount 1
    put(h, b"plain", 0.0, Priority=5)
    put(h, b"expiring", 0.0, Expiry=1000)
    flags = CMQC.MQMF_LAST_MSG_IN_GROUP
    put(h, b"grouped", 0.0, Version=CMQC.MQMD_VERSION_2, GroupId=GROUP, MsgFlags=flags)
    put(h, b"o" * 70 * 1024, 0.0)  # offloaded: over 63 KB
    put(h, b"last", 0.0)
    uncommitted = put(qm.connect().open("Q", ALL), b"uncommitted", 0.0, CMQC.MQPMO_SYNCPOINT)
    get(qm.connect().open("Q", ALL), 0.0, CMQC.MQGMO_SYNCPOINT)  # holds the backed out one
    browser = qm.connect().open("Q", ALL)
    browser.get(None, MD(), GMO(Options=CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_LOCK), now=0.0)
    request.node.qm = qm  # keep the queue manager (and its handles) alive for the test
    request.node.uncommitted = uncommitted.MsgId
    return shared


def test_a_store_holding_a_bit_of_everything_audits_clean(store: MessageStore) -> None:
    assert store.audit() == []
    assert store.depth("Q") == 6 and store.uncommitted("Q") == 2
    assert store.smds_writes == 1


def test_a_stores_contents_are_what_backing_out_every_unit_of_work_would_leave(
    store: MessageStore, request: pytest.FixtureRequest
) -> None:
    """A run's final state (``MessageStore.contents``): the message an uncommitted get
    holds and the one a browse locked are still on the queue; the uncommitted put is
    not. Reading changes nothing."""
    contents = store.contents("Q")
    assert len(contents) == len(set(contents)) == 6
    assert request.node.uncommitted not in contents
    assert (store.depth("Q"), store.uncommitted("Q"), store.audit()) == (6, 2, [])
    qm = request.node.qm
    got = [get(qm.connect().open("Q", ALL), 0.0)[1].MsgId for _ in range(4)]  # the unlocked
    assert set(got) < set(contents)


# ---- the same derived state in both stores ------------------------------------------
def _memory(store: MessageStore) -> tuple[Any, Any]:
    assert isinstance(store, MemoryStore)
    return store._queues["Q"], store._structures["APP1"]


def _redis(store: MessageStore) -> tuple[Callable[..., Any], str, str]:
    assert isinstance(store, RedisStore)
    prefix = keys.queue_prefix(store.qsg, "APP1", "Q")
    return store.transport.command, prefix, keys.structure_key(store.qsg, "APP1")


def _first(store: MessageStore, suffix: str) -> bytes:
    """A field of one of the queue's hashes in the coupling facility."""
    command, prefix, _ = _redis(store)
    fields: list[bytes] = command("HKEYS", prefix + suffix)
    return fields[0]


def _key(store: MessageStore, body: bytes) -> int:
    """The key of the message with ``body`` (in process)."""
    q, _ = _memory(store)
    return next(key for key, msg in q.msgs.items() if msg.body == body)


def _depth(store: MessageStore) -> None:
    if isinstance(store, MemoryStore):
        _memory(store)[0].depth += 1
    else:
        command, prefix, _ = _redis(store)
        command("HINCRBY", prefix + "h", "depth", 1)


def _usage(store: MessageStore) -> None:
    if isinstance(store, MemoryStore):
        _memory(store)[1].elements += 3
    else:
        command, _, structure = _redis(store)
        command("HINCRBY", structure, "use", 3)


def _lock(store: MessageStore) -> None:
    if isinstance(store, MemoryStore):
        _memory(store)[0].locks[12345] = "a handle"
    else:
        command, prefix, _ = _redis(store)
        command("HSET", prefix + "l", 12345, "QM1/9/a handle")


def _unit_of_work(store: MessageStore) -> None:
    if isinstance(store, MemoryStore):
        store._uows.clear()
    else:
        command, _, _ = _redis(store)
        for uow in command("KEYS", keys.group_prefix(store.qsg) + "uow:*"):
            command("DEL", uow)


def _expiry_index(store: MessageStore) -> None:
    if isinstance(store, MemoryStore):
        _memory(store)[0].expiry.clear()
    else:
        command, prefix, _ = _redis(store)
        command("DEL", prefix + "x")


def _group_index(store: MessageStore) -> None:
    if isinstance(store, MemoryStore):
        _memory(store)[0].groups.clear()
    else:
        command, prefix, _ = _redis(store)
        command("DEL", prefix + "g")


@pytest.mark.parametrize(
    ("corrupt", "named"),
    [
        pytest.param(
            _depth, r"queue Q: depth 7, but 5 visible messages and 1 uncommitted puts", id="depth"
        ),
        pytest.param(
            _usage,
            r"CF structure APP1: 7 entries and (\d+) elements in use, but its queues' "
            r"messages take 7 and (\d+)",
            id="structure usage",
        ),
        pytest.param(
            _lock, r"queue Q: a lock names message 12345, which is not stored", id="locks"
        ),
        pytest.param(
            _unit_of_work,
            r"queue Q: message \d+ is held for unit of work .+, which has no entry for it",
            id="units of work",
        ),
        pytest.param(
            _expiry_index,
            r"queue Q: message \d+ expires at 100(\.0)?, which the expiry index lacks",
            id="expiry index",
        ),
        pytest.param(
            _group_index,
            r"queue Q: message \d+ of a group is not in the group index",
            id="group index",
        ),
    ],
)
@keeps(
    "docs/coupling-facility.md",
    "`MessageStore.audit()` recounts them from the messages and answers one line per "
    "disagreement, naming the queue or structure and both figures (none: consistent)",
)
def test_the_audit_names_each_piece_of_derived_state_corrupted(
    store: MessageStore, corrupt: Callable[[MessageStore], None], named: str
) -> None:
    corrupt(store)
    found = [line for line in store.audit() if re.fullmatch(named, line)]
    assert found, store.audit()
    if corrupt is _usage:  # three elements too many, by the messages' own count
        match = re.fullmatch(named, found[0])
        assert match is not None and int(match[1]) == int(match[2]) + 3


# ---- what one store keeps and the other works out ---------------------------------------
def test_the_in_process_audit_names_a_messages_stale_charge_and_a_miscounted_order() -> None:
    store = MemoryStore()
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1", store=store))
    qm.define_structure(CFStructure("APP1", size_kb=10))
    qm.define_queue("Q", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")
    h = qm.connect().open("Q", ALL)
    for body in (b"a" * 300, b"b", b"c"):
        put(h, body, 0.0)
    assert store.audit() == []
    q, _ = _memory(store)
    q.charged[_key(store, b"a" * 300)] = 1  # it takes 2: 300 bytes and 200 of control
    q.order._in_sorted += 1
    assert store.audit() == [
        "queue Q: its visible order counts 4 keys in its sorted part, which holds 3",
        f"queue Q: message {_key(store, b'a' * 300)} is charged 1 elements, and takes 2",
        "CF structure APP1: 3 entries and 4 elements in use, but its queues' messages take 3 and 3",
    ]


def test_the_facility_audit_names_miscounted_locks_backouts_arrivals_and_maxima(
    redis_store: Callable[[], RedisStore],
) -> None:
    store = redis_store()
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1", store=store))
    qm.define_structure(CFStructure("APP1", size_kb=10))
    qm.define_queue("Q", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")
    h = qm.connect().open("Q", ALL)
    put(h, b"a", 0.0)
    assert store.audit() == []
    command, prefix, structure = _redis(store)
    command("HINCRBY", prefix + "h", "nlock", 1)
    command("HINCRBY", prefix + "h", "nback", 2)
    command("HSET", prefix + "h", "seq", 0)
    command("HSET", structure, "size_kb", 11)
    assert store.audit() == [
        "queue Q: message 9895604649985 is numbered 1, past the last number 0",
        "queue Q: nlock 1, but 0 locks",
        "queue Q: nback 2, but 0 backout counts",
        "CF structure APP1: maxima 100000000040, but SIZE 11 holds 11 entries and 44 elements",
    ]


# ---- at a world's end ------------------------------------------------------------------
@keeps(
    "docs/coupling-facility.md",
    "a world that ends cleanly audits its queue managers' stores and its facilities and fails "
    "with an `AssertionError` naming what it found",
)
async def test_a_world_whose_facility_went_wrong_fails_at_its_end_naming_it(
    virtual_clock: VirtualClock, cf_mode: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(AUDIT_VARIABLE, "1")  # as the suite sets it for every world

    async def a_world_whose_depth_drifts() -> None:
        async with qsg.start(qsg_and_qm3(), **cf_mode) as world:  # type: ignore[arg-type]
            conn = await world.connect("QM1")
            q = await conn.open("APP.SHARED", CMQC.MQOO_OUTPUT)
            await q.put(b"one", MD(), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT))
            facility = world.cf_stores["QSG1"]
            if isinstance(facility, MemoryStore):
                facility._queues["APP.SHARED"].depth += 1
            else:
                assert isinstance(facility, RedisStore)
                prefix = keys.queue_prefix(facility.qsg, "APP1", "APP.SHARED")
                facility.transport.command("HINCRBY", prefix + "h", "depth", 1)

    with pytest.raises(AssertionError) as failed:
        await a_world_whose_depth_drifts()
    assert str(failed.value) == (
        "the world's stores disagree with what they hold at its end:\n"
        "QSG1's coupling facility: queue APP.SHARED: depth 2, but 1 visible messages and 0 "
        "uncommitted puts"
    )


async def test_a_world_audits_nothing_at_its_end_unless_asked(
    virtual_clock: VirtualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(AUDIT_VARIABLE)
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        store = world.cf_stores["QSG1"]
        assert isinstance(store, MemoryStore)
        store._structures["APP1"].entries += 1
    assert world.audit() == [
        "QSG1's coupling facility: CF structure APP1: 1 entries and 0 elements in use, but "
        "its queues' messages take 0 and 0"
    ]
