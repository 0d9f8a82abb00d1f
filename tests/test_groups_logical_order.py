"""Groups, segments and logical order (IBM: "Logical and physical ordering")."""

from __future__ import annotations

import pytest

from qsg import CMQC, GMO, MD, PMO, MQMIError, QMgr
from qsg.core.handle import Handle
from qsg.core.objects import CFStructure
from qsg.core.sharing import QueueSharingGroup
from tests.claims import keeps
from tests.helpers import ALL, get_or_none

IN, LAST = CMQC.MQMF_MSG_IN_GROUP, CMQC.MQMF_LAST_MSG_IN_GROUP
SEG, LAST_SEG = CMQC.MQMF_SEGMENT, CMQC.MQMF_LAST_SEGMENT
# The contract suite: each test runs on the in-process store and on the coupling facility's.
pytestmark = pytest.mark.usefixtures("each_store")


NO_SYNC = CMQC.MQPMO_NO_SYNCPOINT
LOGICAL = CMQC.MQGMO_LOGICAL_ORDER


@pytest.fixture
def qm() -> QMgr:
    qm = QMgr("QM1")
    qm.define_queue("Q", msg_delivery_sequence=CMQC.MQMDS_FIFO)
    return qm


def put_item(
    h: Handle,
    body: bytes,
    flags: int = 0,
    group: bytes = CMQC.MQGI_NONE,
    seq: int = 1,
    offset: int = 0,
    options: int = NO_SYNC,
    now: float = 0.0,
) -> MD:
    """Put one physical message with explicit group fields (not in logical order)."""
    md = MD(Version=2, MsgFlags=flags, GroupId=group, MsgSeqNumber=seq, Offset=offset)
    h.put(body, md, PMO(Options=options), now=now)
    return md


def seed_example(h: Handle) -> None:
    """IBM's example's physical order: A, Y1, Z2, Y2, Y3s1, Y3s2, Z1, B."""
    put_item(h, b"A")
    y = put_item(h, b"Y1", IN).GroupId
    z = put_item(h, b"Z2", LAST, seq=2).GroupId
    put_item(h, b"Y2", IN, y, seq=2)
    put_item(h, b"Y3s1", LAST | SEG, y, seq=3)
    put_item(h, b"Y3s2", LAST | LAST_SEG, y, seq=3, offset=4)
    put_item(h, b"Z1", IN, z, seq=1)
    put_item(h, b"B")


def read_all(h: Handle, options: int, now: float = 1.0) -> list[bytes]:
    bodies = []
    while (got := get_or_none(h, now, options)) is not None:
        bodies.append(got[0])
    return bodies


def browse_all(h: Handle, logical: bool) -> list[bytes]:
    extra = LOGICAL if logical else 0
    bodies = []
    options = CMQC.MQGMO_BROWSE_FIRST | extra
    while (got := get_or_none(h, 1.0, options)) is not None:
        bodies.append(got[0])
        options = CMQC.MQGMO_BROWSE_NEXT | extra
    return bodies


LOGICAL_ORDER = [b"A", b"Y1", b"Y2", b"Y3s1", b"Y3s2", b"Z1", b"Z2", b"B"]
PHYSICAL_ORDER = [b"A", b"Y1", b"Z2", b"Y2", b"Y3s1", b"Y3s2", b"Z1", b"B"]


@keeps(
    "docs/mq-rules.md",
    (
        "With MQGMO_LOGICAL_ORDER messages come by group, MsgSeqNumber and Offset; without it, in "
        "physical order."
    ),
)
def test_the_seeds_worked_example_gets_in_logical_order(qm: QMgr) -> None:
    # Seed, "Logical and physical ordering": logical order A, Y1, Y2, Y3s1, Y3s2, Z1, Z2, B
    # for the physical order A, Y1, Z2, Y2, Y3s1, Y3s2, Z1, B.
    h = qm.connect().open("Q", ALL)
    seed_example(h)
    assert read_all(h, CMQC.MQGMO_NO_SYNCPOINT | LOGICAL) == LOGICAL_ORDER


@keeps(
    "docs/mq-rules.md",
    (
        "With MQGMO_LOGICAL_ORDER messages come by group, MsgSeqNumber and Offset; without it, in "
        "physical order."
    ),
)
def test_the_seeds_worked_example_gets_in_physical_order_without_logical_order(
    qm: QMgr,
) -> None:
    h = qm.connect().open("Q", ALL)
    seed_example(h)
    assert read_all(h, CMQC.MQGMO_NO_SYNCPOINT) == PHYSICAL_ORDER


def test_the_seeds_worked_example_browses_in_logical_and_in_physical_order(qm: QMgr) -> None:
    h = qm.connect().open("Q", ALL)
    seed_example(h)
    assert browse_all(h, logical=True) == LOGICAL_ORDER
    assert browse_all(h, logical=False) == PHYSICAL_ORDER
    assert qm.depth("Q") == 8


def test_group_and_segment_status_describe_each_item(qm: QMgr) -> None:
    h = qm.connect().open("Q", ALL)
    seed_example(h)
    statuses = []
    while True:
        gmo = GMO(Options=CMQC.MQGMO_NO_SYNCPOINT | LOGICAL)
        try:
            h.get(None, MD(), gmo, now=1.0)
        except MQMIError:
            break
        # Each an MQCHAR, held as its character's code (CMQC.MQGS_MSG_IN_GROUP == ord("G")).
        statuses.append(chr(gmo.GroupStatus) + chr(gmo.SegmentStatus))
    assert statuses == ["  ", "G ", "G ", "LS", "LL", "G ", "L ", "  "]


@keeps("docs/mq-rules.md", "Logical order never enters a group whose first item is absent.")
def test_logical_order_never_enters_a_group_whose_first_item_is_absent(qm: QMgr) -> None:
    # Seed: "Initially though, you can never move into a group using MQGMO_LOGICAL_ORDER
    # where the first item is not present."
    h = qm.connect().open("Q", ALL)
    w = put_item(h, b"W1", IN).GroupId
    put_item(h, b"W2", LAST, w, seq=2)
    put_item(h, b"C")
    other = qm.connect().open("Q", ALL)  # another application takes W1
    other.get(None, MD(MsgId=b""), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0)
    assert browse_all(h, logical=True) == [b"C"]
    assert read_all(h, CMQC.MQGMO_NO_SYNCPOINT | LOGICAL) == [b"C"]
    assert qm.depth("Q") == 1  # W2 stays: no logical reader will enter its group
    got = get_or_none(other, 1.0, CMQC.MQGMO_NO_SYNCPOINT | LOGICAL)
    assert got is not None and got[0] == b"W2"  # but the handle inside the group goes on


@keeps(
    "docs/rules.md",
    "a reader never enters a group whose first item is gone, but one inside it goes on",
)
def test_a_browse_cursor_inside_a_group_goes_on_after_its_first_item_is_removed(
    qm: QMgr,
) -> None:
    # Seed: "Once the browse cursor is within a group, it can continue within the same
    # group, even if the first message is removed."
    h = qm.connect().open("Q", ALL)
    first = put_item(h, b"V1", IN)
    put_item(h, b"V2", IN, first.GroupId, seq=2)
    put_item(h, b"V3", LAST, first.GroupId, seq=3)
    assert get_or_none(h, 1.0, CMQC.MQGMO_BROWSE_FIRST | LOGICAL) is not None
    other = qm.connect().open("Q", ALL)
    other.get(None, MD(MsgId=first.MsgId), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=1.0)
    got = get_or_none(h, 1.0, CMQC.MQGMO_BROWSE_NEXT | LOGICAL)
    assert got is not None and got[0] == b"V2"


@pytest.mark.parametrize("first_logical", [True, False])
@keeps("docs/rules.md", "`MQRC_INCONSISTENT_BROWSE`")
@keeps(
    "docs/reason-codes.md",
    "MQRC_INCONSISTENT_BROWSE | BROWSE_NEXT with LOGICAL_ORDER other than its BROWSE_FIRST's",
)
def test_browse_next_must_agree_with_browse_first_about_logical_order(
    qm: QMgr, first_logical: bool
) -> None:
    # Seed: "If you issue an MQGET call with MQGMO_BROWSE_FIRST and MQGMO_LOGICAL_ORDER,
    # subsequent MQGET calls with MQGMO_BROWSE_NEXT must also specify this option.
    # Conversely ... neither must the following MQGETs with MQGMO_BROWSE_NEXT."
    h = qm.connect().open("Q", ALL)
    seed_example(h)
    get_or_none(h, 1.0, CMQC.MQGMO_BROWSE_FIRST | (LOGICAL if first_logical else 0))
    with pytest.raises(MQMIError, match=r"MQRC_INCONSISTENT_BROWSE \(2259\)"):
        get_or_none(h, 1.0, CMQC.MQGMO_BROWSE_NEXT | (0 if first_logical else LOGICAL))


@keeps("docs/rules.md", "with the browse group state kept apart from the get's")
def test_browse_state_is_kept_apart_from_destructive_get_state(qm: QMgr) -> None:
    # Seed: "The group and segment information that the queue manager retains for MQGET
    # calls that browse messages on the queue is separate from [that] for MQGET calls
    # that remove messages from the queue."
    h = qm.connect().open("Q", ALL)
    seed_example(h)
    for _ in range(2):  # browse A and Y1: the browse is now inside group Y
        get_or_none(h, 1.0, (CMQC.MQGMO_BROWSE_NEXT) | LOGICAL)
    got = get_or_none(h, 1.0, CMQC.MQGMO_NO_SYNCPOINT | LOGICAL)
    assert got is not None and got[0] == b"A"  # the get is in no group: it starts at A
    got = get_or_none(h, 1.0, CMQC.MQGMO_BROWSE_NEXT | LOGICAL)
    assert got is not None and got[0] == b"Y2"


@keeps(
    "docs/mq-rules.md",
    (
        "MQGMO_ALL_MSGS_AVAILABLE, ALL_SEGMENTS_AVAILABLE and COMPLETE_MSG wait for whole groups "
        "and logical messages."
    ),
)
def test_all_msgs_available_waits_for_the_whole_group_but_only_for_its_first_message(
    qm: QMgr,
) -> None:
    # Seed: "MQGMO_ALL_MSGS_AVAILABLE is therefore specified for the first message in the
    # group; the option is ignored for subsequent messages within the group."
    writer = qm.connect()
    w = writer.open("Q", ALL)
    g = put_item(w, b"G1", IN).GroupId
    put_item(w, b"G2", IN, g, seq=2)
    put_item(w, b"G3", LAST, g, seq=3, options=CMQC.MQPMO_SYNCPOINT)
    put_item(w, b"solo")
    r = qm.connect().open("Q", ALL)
    options = CMQC.MQGMO_NO_SYNCPOINT | LOGICAL | CMQC.MQGMO_ALL_MSGS_AVAILABLE
    got = get_or_none(r, 1.0, options)
    assert got is not None and got[0] == b"solo"  # the group is not all there yet
    writer.commit()
    assert read_all(r, options) == [b"G1", b"G2", b"G3"]


@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_MATCH_OPTIONS_ERROR | MatchOptions not valid; in a group in logical order, a "
        "MsgId/CorrelId that does not match its next message"
    ),
)
def test_logical_order_in_a_group_refuses_a_msgid_that_is_not_the_next_message(
    qm: QMgr,
) -> None:
    # MatchOptions: "If there is a current group ... only the next message in the group
    # is eligible ... the call fails with reason code MQRC_MATCH_OPTIONS_ERROR" when the
    # fields asked for differ.
    h = qm.connect().open("Q", ALL)
    g = put_item(h, b"1", IN).GroupId
    put_item(h, b"2", LAST, g, seq=2)
    get_or_none(h, 1.0, CMQC.MQGMO_NO_SYNCPOINT | LOGICAL)
    with pytest.raises(MQMIError, match=r"MQRC_MATCH_OPTIONS_ERROR \(2247\)"):
        h.get(
            None,
            MD(MsgId=b"SOMETHING-ELSE"),
            GMO(Options=LOGICAL | CMQC.MQGMO_NO_SYNCPOINT),
            now=1.0,
        )


@keeps(
    "docs/rules.md",
    (
        "a shared queue (`qsg_disp=MQQSGD_SHARED`) needs `index_type=MQIT_GROUP_ID` for these "
        "options, as on z/OS (`MQRC_Q_INDEX_TYPE_ERROR`)."
    ),
)
def test_logical_order_on_a_shared_queue_needs_a_groupid_index() -> None:
    # z/OS: LOGICAL_ORDER, ALL_MSGS_AVAILABLE, ALL_SEGMENTS_AVAILABLE or COMPLETE_MSG on a
    # queue not indexed by GROUPID fail with MQRC_Q_INDEX_TYPE_ERROR.
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1"))
    qm.define_structure(CFStructure("APP1"))
    shared = {"qsg_disp": CMQC.MQQSGD_SHARED, "cf_struct": "APP1"}
    qm.define_queue("SHARED.PLAIN", **shared)
    qm.define_queue("SHARED.GROUPS", index_type=CMQC.MQIT_GROUP_ID, **shared)
    plain = qm.connect().open("SHARED.PLAIN", ALL)
    with pytest.raises(MQMIError, match=r"MQRC_Q_INDEX_TYPE_ERROR \(2394\)"):
        get_or_none(plain, 0.0, CMQC.MQGMO_NO_SYNCPOINT | LOGICAL)
    assert get_or_none(qm.connect().open("SHARED.GROUPS", ALL), 0.0, LOGICAL) is None


@keeps(
    "docs/mq-rules.md",
    (
        "MQGMO_ALL_MSGS_AVAILABLE, ALL_SEGMENTS_AVAILABLE and COMPLETE_MSG wait for whole groups "
        "and logical messages."
    ),
)
def test_complete_msg_joins_the_segments_of_a_logical_message(qm: QMgr) -> None:
    h = qm.connect().open("Q", ALL)
    first = put_item(h, b"abc", SEG)
    put_item(h, b"defg", SEG, first.GroupId, offset=3)
    gmo = CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_COMPLETE_MSG
    assert get_or_none(h, 1.0, gmo) is None  # the last segment is not there yet
    put_item(h, b"hi", LAST_SEG, first.GroupId, offset=7)
    got = get_or_none(h, 1.0, gmo)
    assert got is not None and got[0] == b"abcdefghi"
    assert got[1].MsgFlags & (SEG | LAST_SEG) == 0 and qm.depth("Q") == 0


def test_all_segments_available_returns_segments_only_of_a_whole_logical_message(
    qm: QMgr,
) -> None:
    h = qm.connect().open("Q", ALL)
    first = put_item(h, b"ab", SEG)
    gmo = CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_ALL_SEGMENTS_AVAILABLE
    assert get_or_none(h, 1.0, gmo) is None
    put_item(h, b"cd", LAST_SEG, first.GroupId, offset=2)
    assert read_all(h, gmo) == [b"ab", b"cd"]


@keeps("docs/rules.md", "match by GroupId, MsgSeqNumber and Offset")
def test_get_matches_by_group_id_msg_seq_number_and_offset(qm: QMgr) -> None:
    # MatchOptions: MQMO_MATCH_GROUP_ID, MQMO_MATCH_MSG_SEQ_NUMBER, MQMO_MATCH_OFFSET.
    h = qm.connect().open("Q", ALL)
    first = put_item(h, b"s0", SEG)
    put_item(h, b"s1", SEG, first.GroupId, offset=2)
    put_item(h, b"s2", LAST_SEG, first.GroupId, offset=4)
    md = MD(Version=2, GroupId=first.GroupId, MsgSeqNumber=1, Offset=4)
    gmo = GMO(
        Version=2,
        Options=CMQC.MQGMO_NO_SYNCPOINT,
        MatchOptions=CMQC.MQMO_MATCH_GROUP_ID
        | CMQC.MQMO_MATCH_MSG_SEQ_NUMBER
        | CMQC.MQMO_MATCH_OFFSET,
    )
    assert h.get(None, md, gmo, now=1.0) == b"s2"
    assert gmo.SegmentStatus == CMQC.MQSS_LAST_SEGMENT
