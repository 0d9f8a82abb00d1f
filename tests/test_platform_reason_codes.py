"""Reason codes by platform: what IBM documents for z/OS only, a z/OS queue manager
returns and a distributed one does not (IBM MQ reason codes 2201, 2394; the MQPMO and
MQGMO syncpoint defaults). Also: the name of a logically deleted dynamic queue stays
taken until its last handle closes (IBM MQ, MQCLOSE usage notes on dynamic queues)."""

from __future__ import annotations

import pytest

from qsg import CMQC, GMO, MD, OD, PMO, MQMIError, QMgr
from qsg.core import platforms
from qsg.core.handle import Handle
from qsg.core.objects import CFStructure
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc import MQSCError, load
from tests.claims import keeps
from tests.helpers import ALL

NAME = b"APP.REPLY.FIXED"
DISTRIBUTED = (CMQC.MQPL_UNIX, CMQC.MQPL_WINDOWS_NT)


def deleted_but_open(qm: QMgr) -> Handle:
    """A temporary dynamic queue named NAME whose creator closed it (so it is logically
    deleted) while another handle still has it open."""
    creator = qm.connect().open(
        OD(ObjectName=b"SYSTEM.DEFAULT.MODEL.QUEUE", DynamicQName=NAME), ALL
    )
    other = qm.connect().open(NAME.decode(), CMQC.MQOO_OUTPUT)
    creator.close()
    assert qm.find(NAME.decode()) is not None  # logically deleted only
    return other


def create_again(qm: QMgr) -> None:
    qm.connect().open(OD(ObjectName=b"SYSTEM.DEFAULT.MODEL.QUEUE", DynamicQName=NAME), ALL)


@keeps(
    "docs/mq-rules.md",
    "A dynamic queue named like a deleted but still open one: 2201 on z/OS, 2100 elsewhere.",
)
@keeps(
    "docs/rules.md",
    (
        "a name still held by a logically deleted dynamic queue that is open gives "
        "`MQRC_NAME_IN_USE` (2201) on z/OS and `MQRC_OBJECT_ALREADY_EXISTS` (2100) elsewhere"
    ),
)
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_NAME_IN_USE | MQOPEN of a model queue, or DEFINE, naming a queue logically deleted "
        "but still open; the name is free once its last handle closes"
    ),
)
@keeps(
    "docs/reason-codes.md",
    (
        "2201 MQRC_NAME_IN_USE | MQOPEN of a model queue (or DEFINE) naming a queue that is "
        "logically deleted but still open | 2100 MQRC_OBJECT_ALREADY_EXISTS"
    ),
)
def test_on_z_os_a_dynamic_queue_named_like_a_deleted_but_open_one_fails_with_2201() -> None:
    # 2201 MQRC_NAME_IN_USE: "The existing queue is one that is logically deleted, but
    # for which there are still one or more open handles ... only on z/OS."
    qm = QMgr("QM1")
    deleted_but_open(qm)
    with pytest.raises(MQMIError) as refused:
        create_again(qm)
    assert (refused.value.comp, refused.value.reason) == (CMQC.MQCC_FAILED, 2201)
    assert refused.value.detail.startswith(f"{NAME.decode()} is a deleted dynamic queue")


@pytest.mark.parametrize("platform", DISTRIBUTED)
@keeps(
    "docs/mq-rules.md",
    "A dynamic queue named like a deleted but still open one: 2201 on z/OS, 2100 elsewhere.",
)
@keeps(
    "docs/rules.md",
    (
        "a name still held by a logically deleted dynamic queue that is open gives "
        "`MQRC_NAME_IN_USE` (2201) on z/OS and `MQRC_OBJECT_ALREADY_EXISTS` (2100) elsewhere"
    ),
)
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_OBJECT_ALREADY_EXISTS | MQOPEN of a model queue naming a queue that exists (on a "
        "distributed platform, also one logically deleted but open)"
    ),
)
@keeps(
    "docs/reason-codes.md",
    (
        "2201 MQRC_NAME_IN_USE | MQOPEN of a model queue (or DEFINE) naming a queue that is "
        "logically deleted but still open | 2100 MQRC_OBJECT_ALREADY_EXISTS"
    ),
)
def test_on_a_distributed_platform_the_same_open_fails_with_2100(platform: int) -> None:
    # 2201 occurs only on z/OS; elsewhere the name is taken: MQRC_OBJECT_ALREADY_EXISTS.
    qm = QMgr("QM1", platform=platform)
    deleted_but_open(qm)
    with pytest.raises(MQMIError) as refused:
        create_again(qm)
    assert refused.value.reason == CMQC.MQRC_OBJECT_ALREADY_EXISTS


@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_NAME_IN_USE | MQOPEN of a model queue, or DEFINE, naming a queue logically deleted "
        "but still open; the name is free once its last handle closes"
    ),
)
def test_the_name_is_free_again_once_the_last_handle_closes() -> None:
    qm = QMgr("QM1")
    deleted_but_open(qm).close()
    assert qm.find(NAME.decode()) is None
    create_again(qm)
    assert qm.find(NAME.decode()) is not None


def test_a_queue_whose_name_still_exists_fails_with_2100_whatever_the_platform() -> None:
    qm = QMgr("QM1")
    qm.define_queue(NAME.decode())
    with pytest.raises(MQMIError) as refused:
        create_again(qm)
    assert refused.value.reason == CMQC.MQRC_OBJECT_ALREADY_EXISTS


@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_NAME_IN_USE | MQOPEN of a model queue, or DEFINE, naming a queue logically deleted "
        "but still open; the name is free once its last handle closes"
    ),
)
def test_defining_a_queue_named_like_a_deleted_but_open_one_fails_with_2201() -> None:
    qm = QMgr("QM1")
    deleted_but_open(qm)
    with pytest.raises(MQMIError, match=r"MQRC_NAME_IN_USE \(2201\)"):
        qm.define_queue(NAME.decode())
    with pytest.raises(MQSCError, match=r"MQRC_NAME_IN_USE \(2201\)"):
        load(qm, f"DEFINE QLOCAL({NAME.decode()}) REPLACE")


def shared_queue(platform: int) -> QMgr:
    qm = QMgr("QM1", platform=platform, qsg=QueueSharingGroup("QSG1"))
    qm.define_structure(CFStructure("APP1"))
    qm.define_queue("APP.SHARED", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")
    return qm


@keeps(
    "docs/mq-rules.md",
    "Group options on a shared queue need INDXTYPE(GROUPID) (2394, z/OS only).",
)
@keeps("docs/rules.md", "`MQRC_Q_INDEX_TYPE_ERROR` (2394) is z/OS's only.")
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_Q_INDEX_TYPE_ERROR | MQGET with a group option on a shared queue without "
        "INDXTYPE(GROUPID)"
    ),
)
def test_group_options_on_a_shared_queue_not_indexed_by_groupid_fail_with_2394_on_z_os() -> None:
    # 2394 MQRC_Q_INDEX_TYPE_ERROR: "These options require the queue to have an
    # IndexType of MQIT_GROUP_ID ... only on z/OS."
    h = shared_queue(CMQC.MQPL_ZOS).connect().open("APP.SHARED", ALL)
    h.put(b"m", MD(), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    with pytest.raises(MQMIError, match=r"MQRC_Q_INDEX_TYPE_ERROR \(2394\)"):
        h.get(None, MD(), GMO(Options=CMQC.MQGMO_ALL_MSGS_AVAILABLE), now=0.0)


@keeps(
    "docs/reason-codes.md",
    (
        "2394 MQRC_Q_INDEX_TYPE_ERROR | MQGET with LOGICAL_ORDER, ALL_MSGS_AVAILABLE, "
        "ALL_SEGMENTS_AVAILABLE or COMPLETE_MSG on a shared queue without INDXTYPE(GROUPID) | not "
        "returned"
    ),
)
def test_the_index_type_rule_is_z_os_only() -> None:
    assert platforms.checks_index_type(CMQC.MQPL_ZOS)
    assert not any(platforms.checks_index_type(p) for p in DISTRIBUTED)
    h = shared_queue(CMQC.MQPL_UNIX).connect().open("APP.SHARED", ALL)
    h.put(b"m", MD(), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    options = CMQC.MQGMO_ALL_MSGS_AVAILABLE | CMQC.MQGMO_NO_SYNCPOINT
    assert h.get(None, MD(), GMO(Options=options), now=0.0) == b"m"


def test_a_plain_get_on_a_distributed_queue_manager_is_outside_syncpoint() -> None:
    # MQGMO_SYNCPOINT: with neither SYNCPOINT nor NO_SYNCPOINT the get is outside a
    # unit of work on the distributed platforms (and inside one on z/OS).
    for platform, in_uow in ((CMQC.MQPL_UNIX, False), (CMQC.MQPL_ZOS, True)):
        qm = QMgr("QM1", platform=platform)
        qm.define_queue("Q")
        h = qm.connect().open("Q", ALL)
        h.put(b"m", MD(), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
        body, done = h.receive(None, MD(), GMO(), now=0.0)
        assert body == b"m" and done is not None and done.in_uow is in_uow
        assert h.conn.uow.count == int(in_uow)
        h.conn.backout()
        assert h.inquire(CMQC.MQIA_CURRENT_Q_DEPTH) == int(in_uow)


@pytest.mark.parametrize(
    ("platform", "reason"),
    [(CMQC.MQPL_ZOS, CMQC.MQRC_Q_DELETED), (CMQC.MQPL_UNIX, CMQC.MQRC_UNKNOWN_OBJECT_NAME)],
)
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_Q_DELETED | a call on a handle to a dynamic queue deleted since; on z/OS also MQOPEN "
        'or MQPUT1 of a logically deleted one (elsewhere 2085: "the deleted queue cannot be '
        'accessed by applications")'
    ),
)
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_UNKNOWN_OBJECT_NAME | a queue that is not defined (on a distributed platform, also "
        "one logically deleted)"
    ),
)
@keeps(
    "docs/reason-codes.md",
    (
        "2052 MQRC_Q_DELETED at MQOPEN | MQOPEN or MQPUT1 of a dynamic queue that is logically "
        "deleted | 2085 MQRC_UNKNOWN_OBJECT_NAME"
    ),
)
def test_opening_a_logically_deleted_dynamic_queue_fails_as_its_platform_says(
    platform: int, reason: int
) -> None:
    # 2052 MQRC_Q_DELETED: "On z/OS, this can also occur with the MQOPEN and MQPUT1
    # calls if a dynamic queue is being opened, but the queue is in a logically-deleted
    # state"; elsewhere the deleted queue "cannot be accessed by applications" (MQCLOSE).
    qm = QMgr("QM1", platform=platform)
    deleted_but_open(qm)
    with pytest.raises(MQMIError) as refused:
        qm.connect().open(NAME.decode(), CMQC.MQOO_OUTPUT)
    assert refused.value.reason == reason
    with pytest.raises(MQMIError) as refused:
        qm.connect().put1(NAME.decode(), b"m", MD(), PMO(), now=0.0)
    assert refused.value.reason == reason
