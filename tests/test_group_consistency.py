"""A group or logical message is all in one unit of work or all outside, and all
persistent or all nonpersistent: MQRC_INCONSISTENT_UOW (2245) for MQPUT and MQGET,
MQRC_INCONSISTENT_PERSISTENCE (2185) for MQPUT (IBM MQ reason codes 2245 and 2185: with
LOGICAL_ORDER "the call fails"; without it, right after a call with it, "the call
succeeds with completion code MQCC_WARNING")."""

from __future__ import annotations

import pytest

from qsg import CMQC, GMO, MD, PMO, MQMIError, QMgr
from qsg.core.handle import Handle
from tests.claims import keeps
from tests.helpers import ALL

IN, LAST = CMQC.MQMF_MSG_IN_GROUP, CMQC.MQMF_LAST_MSG_IN_GROUP
SEG, LAST_SEG = CMQC.MQMF_SEGMENT, CMQC.MQMF_LAST_SEGMENT
LOGICAL_PUT = CMQC.MQPMO_LOGICAL_ORDER
LOGICAL_GET = CMQC.MQGMO_LOGICAL_ORDER
NP, P = CMQC.MQPER_NOT_PERSISTENT, CMQC.MQPER_PERSISTENT


@pytest.fixture
def h() -> Handle:
    qm = QMgr("QM1")
    qm.define_queue("Q", msg_delivery_sequence=CMQC.MQMDS_FIFO)
    return qm.connect().open("Q", ALL)


def put(h: Handle, body: bytes, flags: int, options: int, persistence: int = NP) -> MD:
    md = MD(Version=2, MsgFlags=flags, Persistence=persistence)
    h.put(body, md, PMO(Options=options), now=0.0)
    return md


def depth(h: Handle) -> int:
    return int(h.inquire(CMQC.MQIA_CURRENT_Q_DEPTH))


@keeps(
    "docs/rules.md",
    (
        "with LOGICAL_ORDER a call that breaks this fails (`MQRC_INCONSISTENT_UOW` 2245, "
        "`MQRC_INCONSISTENT_PERSISTENCE` 2185) and changes nothing"
    ),
)
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_INCONSISTENT_UOW | MQPUT or MQGET with LOGICAL_ORDER whose unit-of-work choice "
        "(given or defaulted; SYNCPOINT_IF_PERSISTENT judged by the group's persistence) differs "
        "from its group's: fails, nothing changed; without LOGICAL_ORDER right after a call with "
        "it, on a message of the group: warning, done"
    ),
)
def test_a_logical_order_put_that_leaves_the_unit_of_work_mid_group_fails_with_2245(
    h: Handle,
) -> None:
    # 2245: the MQPMO_SYNCPOINT choice "is not consistent with the current group and
    # segment information"; with MQPMO_LOGICAL_ORDER "the call fails".
    put(h, b"1", IN, LOGICAL_PUT | CMQC.MQPMO_SYNCPOINT)
    state = h.state.put_group
    with pytest.raises(MQMIError) as failed:
        put(h, b"2", LAST, LOGICAL_PUT | CMQC.MQPMO_NO_SYNCPOINT)
    assert (failed.value.comp, failed.value.reason) == (CMQC.MQCC_FAILED, 2245)
    assert h.state.put_group == state  # nothing changed: the group goes on as before
    assert h.conn.uow.count == 1
    put(h, b"2", LAST, LOGICAL_PUT | CMQC.MQPMO_SYNCPOINT)
    h.conn.commit()
    assert depth(h) == 2


def test_a_logical_order_put_with_the_default_syncpoint_counts_as_its_platforms_choice() -> None:
    # "the value specified or defaulted": on z/OS the default is in syncpoint, so a
    # group begun with MQPMO_NO_SYNCPOINT cannot go on with neither option.
    qm = QMgr("QM1")
    qm.define_queue("Q")
    h = qm.connect().open("Q", ALL)
    put(h, b"1", IN, LOGICAL_PUT | CMQC.MQPMO_NO_SYNCPOINT)
    with pytest.raises(MQMIError, match="MQRC_INCONSISTENT_UOW"):
        put(h, b"2", LAST, LOGICAL_PUT)


@keeps(
    "docs/rules.md",
    "without it, right after a call with it, the call completes with the same reason as a warning.",
)
@keeps("docs/rules.md", "a warning carries it as `error.done`")
def test_a_put_without_logical_order_after_one_with_it_warns_2245_and_puts(h: Handle) -> None:
    # 2245: "If the current call does not specify MQPMO_LOGICAL_ORDER, but the previous
    # MQPUT call for the queue handle did, the call succeeds with MQCC_WARNING".
    first = put(h, b"1", IN, LOGICAL_PUT | CMQC.MQPMO_NO_SYNCPOINT)
    md = MD(Version=2, MsgFlags=LAST, GroupId=first.GroupId, MsgSeqNumber=2)
    with pytest.raises(MQMIError) as warned:
        h.put(b"2", md, PMO(Options=CMQC.MQPMO_SYNCPOINT), now=0.0)
    assert (warned.value.comp, warned.value.reason) == (CMQC.MQCC_WARNING, 2245)
    assert warned.value.done is not None and warned.value.done.in_uow
    assert h.conn.uow.count == 1  # the message was put, in the unit of work
    h.conn.commit()
    assert depth(h) == 2


def test_a_put_without_logical_order_after_a_put_without_it_does_not_warn(h: Handle) -> None:
    first = put(h, b"1", IN, CMQC.MQPMO_NO_SYNCPOINT)
    md = MD(Version=2, MsgFlags=LAST, GroupId=first.GroupId, MsgSeqNumber=2)
    h.put(b"2", md, PMO(Options=CMQC.MQPMO_SYNCPOINT), now=0.0)  # no warning
    h.conn.commit()
    assert depth(h) == 2


@keeps(
    "docs/rules.md",
    (
        "with LOGICAL_ORDER a call that breaks this fails (`MQRC_INCONSISTENT_UOW` 2245, "
        "`MQRC_INCONSISTENT_PERSISTENCE` 2185) and changes nothing"
    ),
)
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_INCONSISTENT_PERSISTENCE | MQPUT with LOGICAL_ORDER whose persistence (given or "
        "defaulted) differs from its group's or logical message's: fails, nothing put; without "
        "LOGICAL_ORDER right after a put with it: warning, put"
    ),
)
def test_a_logical_order_put_whose_persistence_differs_within_a_group_fails_with_2185(
    h: Handle,
) -> None:
    # 2185: "All messages in a group and all segments in a logical message must have
    # the same value for persistence"; with MQPMO_LOGICAL_ORDER the call fails.
    put(h, b"1", IN, LOGICAL_PUT | CMQC.MQPMO_NO_SYNCPOINT, P)
    state = h.state.put_group
    with pytest.raises(MQMIError) as failed:
        put(h, b"2", LAST, LOGICAL_PUT | CMQC.MQPMO_NO_SYNCPOINT, NP)
    assert (failed.value.comp, failed.value.reason) == (CMQC.MQCC_FAILED, 2185)
    assert h.state.put_group == state and depth(h) == 1
    put(h, b"2", LAST, LOGICAL_PUT | CMQC.MQPMO_NO_SYNCPOINT, P)
    assert depth(h) == 2


def test_persistence_as_the_queues_default_is_compared_as_resolved_within_a_segmented_message() -> (
    None
):
    # "the value specified or defaulted for the Persistence field": AS_Q_DEF on a
    # DEFPSIST(YES) queue is persistent, like an explicit MQPER_PERSISTENT.
    qm = QMgr("QM1")
    qm.define_queue("Q", def_persistence=CMQC.MQPER_PERSISTENT)
    h = qm.connect().open("Q", ALL)
    options = LOGICAL_PUT | CMQC.MQPMO_NO_SYNCPOINT
    put(h, b"s1", SEG, options, CMQC.MQPER_PERSISTENCE_AS_Q_DEF)
    put(h, b"s2", SEG, options, P)  # the same persistence: accepted
    with pytest.raises(MQMIError, match="MQRC_INCONSISTENT_PERSISTENCE"):
        put(h, b"s3", LAST_SEG, options, NP)


@keeps(
    "docs/rules.md",
    "without it, right after a call with it, the call completes with the same reason as a warning.",
)
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_INCONSISTENT_PERSISTENCE | MQPUT with LOGICAL_ORDER whose persistence (given or "
        "defaulted) differs from its group's or logical message's: fails, nothing put; without "
        "LOGICAL_ORDER right after a put with it: warning, put"
    ),
)
def test_a_put_without_logical_order_whose_persistence_differs_warns_2185(h: Handle) -> None:
    first = put(h, b"1", IN, LOGICAL_PUT | CMQC.MQPMO_NO_SYNCPOINT, P)
    md = MD(Version=2, MsgFlags=LAST, GroupId=first.GroupId, MsgSeqNumber=2, Persistence=NP)
    with pytest.raises(MQMIError) as warned:
        h.put(b"2", md, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    assert (warned.value.comp, warned.value.reason) == (CMQC.MQCC_WARNING, 2185)
    assert depth(h) == 2


def test_a_message_not_in_a_group_after_a_logical_order_put_does_not_warn(h: Handle) -> None:
    # The rule is about "a message in a group or a segment of a logical message".
    put(h, b"1", IN, LOGICAL_PUT | CMQC.MQPMO_NO_SYNCPOINT)
    h.put(b"alone", MD(), PMO(Options=CMQC.MQPMO_SYNCPOINT), now=0.0)
    assert h.conn.uow.count == 1


def put_group(h: Handle, persistence: int = NP) -> None:
    options = LOGICAL_PUT | CMQC.MQPMO_NO_SYNCPOINT
    for flags in (IN, IN, LAST):
        put(h, b"m", flags, options, persistence)


def get(h: Handle, options: int) -> bytes:
    return h.get(None, MD(Version=2), GMO(Version=2, Options=options), now=0.0)


@keeps(
    "docs/rules.md",
    (
        "with LOGICAL_ORDER a call that breaks this fails (`MQRC_INCONSISTENT_UOW` 2245, "
        "`MQRC_INCONSISTENT_PERSISTENCE` 2185) and changes nothing"
    ),
)
def test_a_logical_order_get_that_leaves_the_unit_of_work_mid_group_fails_with_2245(
    h: Handle,
) -> None:
    # 2245, MQGET: with MQGMO_LOGICAL_ORDER the call fails, and nothing is got.
    put_group(h)
    get(h, LOGICAL_GET | CMQC.MQGMO_SYNCPOINT)
    state = h.state.get_group
    with pytest.raises(MQMIError) as failed:
        get(h, LOGICAL_GET | CMQC.MQGMO_NO_SYNCPOINT)
    assert (failed.value.comp, failed.value.reason) == (CMQC.MQCC_FAILED, 2245)
    assert h.state.get_group == state and depth(h) == 2
    get(h, LOGICAL_GET | CMQC.MQGMO_SYNCPOINT)
    assert h.conn.uow.count == 2


@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_INCONSISTENT_UOW | MQPUT or MQGET with LOGICAL_ORDER whose unit-of-work choice "
        "(given or defaulted; SYNCPOINT_IF_PERSISTENT judged by the group's persistence) differs "
        "from its group's: fails, nothing changed; without LOGICAL_ORDER right after a call with "
        "it, on a message of the group: warning, done"
    ),
)
def test_syncpoint_if_persistent_mid_group_is_judged_by_the_groups_persistence(
    h: Handle,
) -> None:
    # SYNCPOINT_IF_PERSISTENT on a nonpersistent group is outside the unit of work:
    # consistent with NO_SYNCPOINT, inconsistent with SYNCPOINT.
    put_group(h, NP)
    get(h, LOGICAL_GET | CMQC.MQGMO_NO_SYNCPOINT)
    get(h, LOGICAL_GET | CMQC.MQGMO_SYNCPOINT_IF_PERSISTENT)
    with pytest.raises(MQMIError, match="MQRC_INCONSISTENT_UOW"):
        get(h, LOGICAL_GET | CMQC.MQGMO_SYNCPOINT)
    assert depth(h) == 1 and h.conn.uow.count == 0


@keeps(
    "docs/rules.md",
    "without it, right after a call with it, the call completes with the same reason as a warning.",
)
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_INCONSISTENT_UOW | MQPUT or MQGET with LOGICAL_ORDER whose unit-of-work choice "
        "(given or defaulted; SYNCPOINT_IF_PERSISTENT judged by the group's persistence) differs "
        "from its group's: fails, nothing changed; without LOGICAL_ORDER right after a call with "
        "it, on a message of the group: warning, done"
    ),
)
def test_a_get_without_logical_order_after_one_with_it_warns_2245_and_returns_the_message(
    h: Handle,
) -> None:
    # 2245: "If the current call does not specify MQGMO_LOGICAL_ORDER, but the previous
    # MQGET call for the queue handle did, the call succeeds with MQCC_WARNING."
    put_group(h)
    get(h, LOGICAL_GET | CMQC.MQGMO_NO_SYNCPOINT)
    with pytest.raises(MQMIError) as warned:
        get(h, CMQC.MQGMO_SYNCPOINT)
    assert (warned.value.comp, warned.value.reason) == (CMQC.MQCC_WARNING, 2245)
    assert warned.value.message == b"m"
    assert warned.value.done is not None and warned.value.done.in_uow
    assert depth(h) == 1 and h.conn.uow.count == 1


def test_a_consistent_get_without_logical_order_after_one_with_it_does_not_warn(
    h: Handle,
) -> None:
    put_group(h)
    get(h, LOGICAL_GET | CMQC.MQGMO_NO_SYNCPOINT)
    assert get(h, CMQC.MQGMO_NO_SYNCPOINT) == b"m"
