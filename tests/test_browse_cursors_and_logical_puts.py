"""Browse cursors, locks, and puts in logical order (IBM: "Logical and physical ordering";
"Expiry (MQLONG)" note 6)."""

from __future__ import annotations

import pytest

from qsg import CMQC, GMO, MD, PMO, MQMIError, QMgr
from qsg.core.handle import Handle
from tests.claims import keeps
from tests.helpers import ALL, get_or_none, put
from tests.test_groups_logical_order import IN, LAST, LAST_SEG, SEG, put_item

BROWSE_FIRST, BROWSE_NEXT = CMQC.MQGMO_BROWSE_FIRST, CMQC.MQGMO_BROWSE_NEXT
# The contract suite: each test runs on the in-process store and on the coupling facility's.
pytestmark = pytest.mark.usefixtures("each_store")


UNDER = CMQC.MQGMO_MSG_UNDER_CURSOR | CMQC.MQGMO_NO_SYNCPOINT


@pytest.fixture
def qm() -> QMgr:
    qm = QMgr("QM1")
    qm.define_queue("Q", msg_delivery_sequence=CMQC.MQMDS_FIFO)
    return qm


# ---- cursors and locks -----------------------------------------------------------------
@keeps("docs/rules.md", "`BROWSE_MSG_UNDER_CURSOR`, `MSG_UNDER_CURSOR`")
def test_msg_under_cursor_gets_the_message_the_browse_cursor_is_on(qm: QMgr) -> None:
    h = qm.connect().open("Q", ALL)
    for body in (b"a", b"b", b"c"):
        put(h, body, 0.0)
    get_or_none(h, 1.0, BROWSE_FIRST)
    get_or_none(h, 1.0, BROWSE_NEXT)
    got = get_or_none(h, 1.0, CMQC.MQGMO_BROWSE_MSG_UNDER_CURSOR)
    assert got is not None and got[0] == b"b"
    got = get_or_none(h, 1.0, UNDER)
    assert got is not None and got[0] == b"b" and qm.depth("Q") == 2


@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_NO_MSG_UNDER_CURSOR | MSG_UNDER_CURSOR / BROWSE_MSG_UNDER_CURSOR with no browse "
        "cursor, or its message gone"
    ),
)
def test_msg_under_cursor_fails_when_the_message_was_taken_meanwhile(qm: QMgr) -> None:
    h = qm.connect().open("Q", ALL)
    put(h, b"a", 0.0)
    get_or_none(h, 1.0, BROWSE_FIRST)
    get_or_none(qm.connect().open("Q", ALL), 1.0)  # another application takes it
    with pytest.raises(MQMIError, match=r"MQRC_NO_MSG_UNDER_CURSOR \(2034\)"):
        get_or_none(h, 1.0, UNDER)


@keeps("docs/rules.md", "a lock hides the message from other handles")
def test_a_locked_message_is_hidden_from_other_handles_until_unlocked(qm: QMgr) -> None:
    h = qm.connect().open("Q", ALL)
    put(h, b"locked", 0.0)
    put(h, b"free", 0.0)
    get_or_none(h, 1.0, BROWSE_FIRST | CMQC.MQGMO_LOCK)
    other = qm.connect().open("Q", ALL)
    got = get_or_none(other, 1.0, BROWSE_FIRST)
    assert got is not None and got[0] == b"free"
    h.get(None, MD(), GMO(Options=CMQC.MQGMO_UNLOCK), now=1.0)
    got = get_or_none(other, 1.0, BROWSE_FIRST)
    assert got is not None and got[0] == b"locked"


def test_a_get_passes_over_a_message_another_handle_locked_and_leaves_it_there(
    qm: QMgr,
) -> None:
    # MQGMO_LOCK: the locked message "is not available to other handles"; a get by
    # another handle takes the next one, and the locked one stays for its locker.
    h = qm.connect().open("Q", ALL)
    for body in (b"locked", b"free", b"last"):
        put(h, body, 0.0)
    get_or_none(h, 1.0, BROWSE_FIRST | CMQC.MQGMO_LOCK)
    other = qm.connect().open("Q", ALL)
    got = get_or_none(other, 1.0)
    assert got is not None and got[0] == b"free"
    h.get(None, MD(), GMO(Options=CMQC.MQGMO_UNLOCK), now=1.0)
    assert [get_or_none(other, 1.0)[0] for _ in range(2)] == [b"locked", b"last"]  # type: ignore[index]
    assert qm.depth("Q") == 0


def test_the_locking_handle_gets_its_locked_message_under_the_cursor(qm: QMgr) -> None:
    h = qm.connect().open("Q", ALL)
    put(h, b"mine", 0.0)
    get_or_none(h, 1.0, BROWSE_FIRST | CMQC.MQGMO_LOCK)
    assert get_or_none(qm.connect().open("Q", ALL), 1.0) is None
    got = get_or_none(h, 1.0, UNDER)
    assert got is not None and got[0] == b"mine"


@keeps(
    "docs/mq-rules.md",
    (
        "A nearly expired message got in a unit of work that is backed out may expire before it is "
        "got again (note 5); a locked one gives MQRC_NO_MSG_UNDER_CURSOR (note 6)."
    ),
)
@keeps("docs/rules.md", "a locked message that expires gives `MQRC_NO_MSG_UNDER_CURSOR`")
def test_a_locked_message_that_expires_gives_no_msg_under_cursor(qm: QMgr) -> None:
    # Note 6: "If a nearly-expired message is locked by an MQGET call with MQGMO_LOCK, the
    # message might become eligible to be discarded before it can be retrieved by an
    # MQGET call with MQGMO_MSG_UNDER_CURSOR; reason code MQRC_NO_MSG_UNDER_CURSOR is
    # returned on this subsequent MQGET call if that happens."
    h = qm.connect().open("Q", ALL)
    put(h, b"nearly", 0.0, Expiry=10)
    got = get_or_none(h, 0.5, BROWSE_FIRST | CMQC.MQGMO_LOCK)
    assert got is not None and got[1].Expiry == 5
    with pytest.raises(MQMIError, match=r"MQRC_NO_MSG_UNDER_CURSOR \(2034\)"):
        get_or_none(h, 2.0, UNDER)
    assert qm.depth("Q") == 0  # and it was discarded


def test_closing_a_handle_releases_its_lock(qm: QMgr) -> None:
    h = qm.connect().open("Q", ALL)
    put(h, b"x", 0.0)
    get_or_none(h, 1.0, BROWSE_FIRST | CMQC.MQGMO_LOCK)
    h.close()
    assert get_or_none(qm.connect().open("Q", ALL), 1.0) is not None


# ---- the browse infinite loop and its remedy ----------------------------------------
def v2(options: int, match: int) -> GMO:
    return GMO(Version=CMQC.MQGMO_VERSION_2, Options=options, MatchOptions=match)


def hazard_queue(qm: QMgr) -> Handle:
    """Group X whose last message precedes its first on the queue, then group Y."""
    h = qm.connect().open("Q", ALL)
    x = put_item(h, b"X2", LAST, seq=2).GroupId
    put_item(h, b"X1", IN, x, seq=1)
    y = put_item(h, b"Y1", IN).GroupId
    put_item(h, b"Y2", LAST, y, seq=2)
    return h


@keeps(
    "docs/mq-rules.md",
    "Browsing past a group's end without logical order can loop; two handles avoid it.",
)
def test_browsing_past_a_group_end_without_logical_order_can_loop_forever(qm: QMgr) -> None:
    # Seed: "if the last message in the group happens to precede the first message in the
    # group on the queue, using MQGMO_BROWSE_NEXT to browse beyond the end of the group,
    # specifying MQMO_MATCH_MSG_SEQ_NUMBER with MsgSeqNumber set to 1 ... would return
    # again the first message in the group already browsed."
    h = hazard_queue(qm)
    seen = []
    options = BROWSE_FIRST
    for _ in range(6):  # a naive reader: first message, then the rest of its group, ...
        first = MD(Version=2, MsgSeqNumber=1)
        h.get(None, first, v2(options, CMQC.MQMO_MATCH_MSG_SEQ_NUMBER), now=1.0)
        seen.append(first.GroupId)
        rest = MD(Version=2, GroupId=first.GroupId, MsgSeqNumber=2)
        h.get(
            None,
            rest,
            v2(BROWSE_FIRST, CMQC.MQMO_MATCH_GROUP_ID | CMQC.MQMO_MATCH_MSG_SEQ_NUMBER),
            now=1.0,
        )
        options = BROWSE_NEXT  # "the first message of the next group"
    assert len(set(seen)) == 1  # group X again and again: group Y is never reached


@keeps(
    "docs/mq-rules.md",
    "Browsing past a group's end without logical order can loop; two handles avoid it.",
)
def test_two_browse_handles_avoid_the_loop_as_the_seed_recommends(qm: QMgr) -> None:
    # Seed: "Use the first handle to browse only the first message in each group. Use the
    # second handle to browse only the messages within a specific group. ... Do not use
    # the MQGMO_BROWSE_NEXT browse beyond the end of a group."
    h = hazard_queue(qm)
    firsts, inside = h, qm.connect().open("Q", ALL)
    groups: list[list[bytes]] = []
    options = BROWSE_FIRST
    while True:
        first = MD(Version=2, MsgSeqNumber=1)
        try:
            firsts.get(None, first, v2(options, CMQC.MQMO_MATCH_MSG_SEQ_NUMBER), now=1.0)
        except MQMIError as error:
            if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
                raise
            break
        options = BROWSE_NEXT
        members, seq, status = [], 1, CMQC.MQGS_MSG_IN_GROUP
        while status == CMQC.MQGS_MSG_IN_GROUP:
            md = MD(Version=2, GroupId=first.GroupId, MsgSeqNumber=seq)
            gmo = v2(BROWSE_FIRST, CMQC.MQMO_MATCH_GROUP_ID | CMQC.MQMO_MATCH_MSG_SEQ_NUMBER)
            members.append(inside.get(None, md, gmo, now=1.0))
            status, seq = gmo.GroupStatus, seq + 1
        groups.append(members)
    assert groups == [[b"X1", b"X2"], [b"Y1", b"Y2"]]


# ---- MQPMO_LOGICAL_ORDER ---------------------------------------------------------------
def logical_put(h: Handle, body: bytes, flags: int, options: int = CMQC.MQPMO_NO_SYNCPOINT) -> MD:
    md = MD(Version=2, MsgFlags=flags)
    h.put(body, md, PMO(Options=options | CMQC.MQPMO_LOGICAL_ORDER), now=0.0)
    return md


@keeps("docs/rules.md", "`MQPMO_LOGICAL_ORDER` (the queue manager assigns the group fields;")
def test_logical_order_puts_get_their_group_fields_from_the_queue_manager(qm: QMgr) -> None:
    # MQMD.GroupId: "If MQPMO_LOGICAL_ORDER is specified, the queue manager automatically
    # generates a unique group identifier for the first message in the group ... and uses
    # that group identifier for the remaining messages".
    h = qm.connect().open("Q", ALL)
    mds = [logical_put(h, b"1", IN), logical_put(h, b"2", IN), logical_put(h, b"3", LAST)]
    assert len({md.GroupId for md in mds}) == 1 and mds[0].GroupId != CMQC.MQGI_NONE
    assert [md.MsgSeqNumber for md in mds] == [1, 2, 3]
    nxt = logical_put(h, b"again", IN)
    assert nxt.GroupId != mds[0].GroupId and nxt.MsgSeqNumber == 1


def test_logical_order_puts_give_segments_their_offsets(qm: QMgr) -> None:
    h = qm.connect().open("Q", ALL)
    offsets = [
        logical_put(h, body, flags).Offset
        for body, flags in [(b"abc", SEG), (b"de", SEG), (b"f", LAST_SEG)]
    ]
    assert offsets == [0, 3, 5]


@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_INCOMPLETE_GROUP | MQPUT with LOGICAL_ORDER of a message not in the handle's "
        "incomplete group; (warning) MQCLOSE with a group not completed"
    ),
)
def test_a_message_outside_the_group_cannot_be_put_in_logical_order_mid_group(
    qm: QMgr,
) -> None:
    h = qm.connect().open("Q", ALL)
    logical_put(h, b"1", IN)
    with pytest.raises(MQMIError, match=r"MQRC_INCOMPLETE_GROUP \(2241\)"):
        logical_put(h, b"stray", 0)


def test_a_group_put_in_logical_order_keeps_to_one_syncpoint_choice(qm: QMgr) -> None:
    h = qm.connect().open("Q", ALL)
    logical_put(h, b"1", IN, CMQC.MQPMO_SYNCPOINT)
    with pytest.raises(MQMIError, match=r"MQRC_INCONSISTENT_UOW \(2245\)"):
        logical_put(h, b"2", IN, CMQC.MQPMO_NO_SYNCPOINT)


@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_OPTIONS_ERROR | options not valid or not valid together (MQOPEN, MQPUT, MQGET, "
        "MQCLOSE); LOGICAL_ORDER on MQPUT1"
    ),
)
def test_put1_cannot_use_logical_order(qm: QMgr) -> None:
    with pytest.raises(MQMIError, match=r"MQRC_OPTIONS_ERROR \(2046\)"):
        qm.connect().put1(
            "Q", b"x", MD(Version=2, MsgFlags=IN), PMO(Options=CMQC.MQPMO_LOGICAL_ORDER), now=0.0
        )


@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_INCOMPLETE_GROUP | MQPUT with LOGICAL_ORDER of a message not in the handle's "
        "incomplete group; (warning) MQCLOSE with a group not completed"
    ),
)
def test_closing_a_handle_mid_group_warns_of_the_incomplete_group(qm: QMgr) -> None:
    h = qm.connect().open("Q", ALL)
    logical_put(h, b"1", IN)
    with pytest.raises(MQMIError, match=r"MQRC_INCOMPLETE_GROUP \(2241\)") as info:
        h.close()
    assert info.value.comp == CMQC.MQCC_WARNING and not h.open


@keeps("docs/rules.md", "an MQMD needs `Version=2` for them, as in MQ")
def test_a_version_1_md_has_no_group(qm: QMgr) -> None:
    h = qm.connect().open("Q", ALL)
    md = MD(Version=1, MsgFlags=IN, MsgSeqNumber=5)
    h.put(b"x", md, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    got = get_or_none(h, 1.0)
    assert got is not None and (got[1].MsgFlags, got[1].MsgSeqNumber) == (0, 1)


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("MsgFlags", 0x20, "MQRC_MSG_FLAGS_ERROR"),
        ("MsgSeqNumber", 0, "MQRC_MSG_SEQ_NUMBER_ERROR"),
        ("Offset", -1, "MQRC_OFFSET_ERROR"),
    ],
)
def test_bad_group_fields_are_refused_with_their_reason_codes(
    qm: QMgr, field: str, value: int, reason: str
) -> None:
    h = qm.connect().open("Q", ALL)
    with pytest.raises(MQMIError, match=reason):
        h.put(b"x", MD(Version=2, **{field: value}), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
