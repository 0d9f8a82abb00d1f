"""Groups that span units of work, with a STATUS queue and restart processing.

IBM's "Putting and getting a group that spans units of work":
IBM's put-side and get-side pseudo-code, run as written, interrupted before the
commit of each unit of work (the application ends abnormally, so the queue manager backs
its unit of work out) and restarted with IBM's restart processing.
"""

from __future__ import annotations

import struct

import pytest

from qsg import CMQC, GMO, MD, PMO, QMgr
from tests.claims import keeps
from tests.helpers import get_or_none

TOTAL, PUT_UOW, GET_UOW = 9, 3, 4
IN, LAST = CMQC.MQMF_MSG_IN_GROUP, CMQC.MQMF_LAST_MSG_IN_GROUP
# The contract suite: each test runs on the in-process store and on the coupling facility's.
pytestmark = pytest.mark.usefixtures("each_store")


SYNC = CMQC.MQPMO_SYNCPOINT
INPUT_OUTPUT = CMQC.MQOO_INPUT_AS_Q_DEF | CMQC.MQOO_OUTPUT


class AbnormalEndError(Exception):
    """The application ended before committing its unit of work."""


def status_info(md: MD) -> bytes:
    return md.GroupId + struct.pack(">i", md.MsgSeqNumber)


def read_status(data: bytes) -> tuple[bytes, int]:
    return data[:24], struct.unpack(">i", data[24:28])[0]


@pytest.fixture
def qm() -> QMgr:
    qm = QMgr("QM1")
    qm.define_queue("APP", msg_delivery_sequence=CMQC.MQMDS_FIFO)
    qm.define_queue("STATUS")
    return qm


# ---- the putting application ---------------------------------------------------------
def putter(qm: QMgr, crash_in_uow: int | None) -> None:
    """IBM's put side, restart processing first; raises AbnormalEndError mid-way if told."""
    conn = qm.connect()
    app, status = conn.open("APP", CMQC.MQOO_OUTPUT), conn.open("STATUS", INPUT_OUTPUT)
    try:
        # Restart processing: MQGET (StatusInfo from STATUS queue) in syncpoint.
        found = get_or_none(status, 0.0, CMQC.MQGMO_SYNCPOINT)
        resume = read_status(found[0]) if found else None
        seq = resume[1] + 1 if resume else 1
        status_held = found is not None  # the status message is already in this UOW
        uow = 0
        while seq <= TOTAL:
            uow += 1
            last_md = MD()
            for s in range(seq, min(seq + PUT_UOW, TOTAL + 1)):
                flags = LAST if s == TOTAL else IN
                if resume and s == resume[1] + 1:
                    # "Set GroupId, MsgSeqNumber in MQMD to values from Status message";
                    # MQPMO_LOGICAL_ORDER cannot be used for this first put.
                    last_md = MD(Version=2, GroupId=resume[0], MsgSeqNumber=s, MsgFlags=flags)
                    app.put(b"m%d" % s, last_md, PMO(Options=SYNC), now=0.0)
                else:
                    last_md = MD(Version=2, MsgFlags=flags)
                    app.put(
                        b"m%d" % s, last_md, PMO(Options=SYNC | CMQC.MQPMO_LOGICAL_ORDER), now=0.0
                    )
                seq = s + 1
            if (not status_held and uow > 1) or (resume and uow > 1):
                get_or_none(status, 0.0, CMQC.MQGMO_SYNCPOINT)  # the old status
            if seq <= TOTAL:
                status.put(status_info(last_md), MD(), PMO(Options=SYNC), now=0.0)
            status_held = False
            if uow == crash_in_uow:
                raise AbnormalEndError
            conn.commit()
    except AbnormalEndError:
        conn.backout()  # abnormal end: the queue manager backs the unit of work out
        return
    conn.disconnect()


@pytest.mark.parametrize("crashes", [[], [1], [2], [3], [2, 1], [1, 2], [3, 1]])
@keeps(
    "docs/mq-rules.md",
    (
        "A group put or got across units of work is whole, and processed once, after every "
        "interruption."
    ),
)
def test_a_group_put_across_units_of_work_is_whole_after_every_interruption(
    qm: QMgr, crashes: list[int]
) -> None:
    # Seed: "If all the units of work have been committed, the entire group has been put
    # successfully, and the STATUS queue is empty. If not, the group must be resumed at
    # the point indicated by the status information."
    for crash in crashes:
        putter(qm, crash)
    putter(qm, None)
    reader = qm.connect().open("APP", CMQC.MQOO_INPUT_AS_Q_DEF)
    bodies, group_ids = [], set()
    while (got := get_or_none(reader, 1.0, CMQC.MQGMO_LOGICAL_ORDER)) is not None:
        bodies.append(got[0])
        group_ids.add(got[1].GroupId)
    assert bodies == [b"m%d" % s for s in range(1, TOTAL + 1)]
    assert len(group_ids) == 1 and qm.depth("STATUS") == 0


# ---- the getting application -----------------------------------------------------------
def put_group(qm: QMgr) -> None:
    h = qm.connect().open("APP", CMQC.MQOO_OUTPUT)
    for s in range(1, TOTAL + 1):
        h.put(
            b"m%d" % s,
            MD(Version=2, MsgFlags=LAST if s == TOTAL else IN),
            PMO(Options=CMQC.MQPMO_LOGICAL_ORDER | CMQC.MQPMO_NO_SYNCPOINT),
            now=0.0,
        )


def getter(qm: QMgr, processed: list[bytes], crash_in_uow: int | None) -> None:
    """IBM's get side with its restart processing; ``processed`` receives the bodies
    of committed units of work only."""
    conn = qm.connect()
    app, status = conn.open("APP", CMQC.MQOO_INPUT_AS_Q_DEF), conn.open("STATUS", INPUT_OUTPUT)
    uow_bodies: list[bytes] = []
    uow = 0

    def get(gmo: GMO, md: MD) -> bytes:
        body = app.get(None, md, gmo, now=1.0)
        uow_bodies.append(body)
        return body

    try:
        found = get_or_none(status, 1.0, CMQC.MQGMO_SYNCPOINT)
        gmo = GMO(Version=CMQC.MQGMO_VERSION_2)
        msgs = 0
        if found is not None:
            # "The next message on the group must be retrieved by matching the sequence
            # number and group id with those retrieved from the status information."
            group_id, seq = read_status(found[0])
            gmo.Options = CMQC.MQGMO_COMPLETE_MSG | CMQC.MQGMO_SYNCPOINT
            gmo.MatchOptions = CMQC.MQMO_MATCH_GROUP_ID | CMQC.MQMO_MATCH_MSG_SEQ_NUMBER
            last = MD(Version=2, GroupId=group_id, MsgSeqNumber=seq + 1)
            get(gmo, last)
            msgs = 1
        group_status = gmo.GroupStatus if found else CMQC.MQGS_MSG_IN_GROUP
        status_in_uow = found is not None
        while group_status == CMQC.MQGS_MSG_IN_GROUP:
            gmo = GMO(
                Version=CMQC.MQGMO_VERSION_2,
                MatchOptions=CMQC.MQMO_NONE,
                Options=CMQC.MQGMO_COMPLETE_MSG | CMQC.MQGMO_SYNCPOINT | CMQC.MQGMO_LOGICAL_ORDER,
            )
            while msgs < GET_UOW:
                last = MD(Version=2)
                get(gmo, last)
                msgs += 1
                if gmo.GroupStatus != CMQC.MQGS_MSG_IN_GROUP:
                    break
            group_status = gmo.GroupStatus
            if not status_in_uow:
                get_or_none(status, 1.0, CMQC.MQGMO_SYNCPOINT)  # the old status, if any
            if group_status == CMQC.MQGS_MSG_IN_GROUP:
                status.put(status_info(last), MD(), PMO(Options=SYNC), now=1.0)
            uow += 1
            status_in_uow = False
            if uow == crash_in_uow:
                raise AbnormalEndError
            conn.commit()
            processed.extend(uow_bodies)
            uow_bodies.clear()
            msgs = 0
        if msgs > 0:  # "Come here if there was only 1 message in the group"
            uow += 1
            if uow == crash_in_uow:
                raise AbnormalEndError
            conn.commit()
            processed.extend(uow_bodies)
    except AbnormalEndError:
        conn.backout()
        return
    conn.disconnect()


@pytest.mark.parametrize("crashes", [[], [1], [2], [3], [2, 1], [1, 1], [3, 1]])
@keeps(
    "docs/mq-rules.md",
    (
        "A group put or got across units of work is whole, and processed once, after every "
        "interruption."
    ),
)
def test_a_group_got_across_units_of_work_is_processed_once_after_every_interruption(
    qm: QMgr, crashes: list[int]
) -> None:
    # Seed: "If all of the units of work have been committed, then the entire group has
    # been retrieved successfully, and the STATUS queue is empty. If not, then the group
    # must be resumed at the point indicated by the status information."
    put_group(qm)
    processed: list[bytes] = []
    for crash in crashes:
        getter(qm, processed, crash)
    getter(qm, processed, None)
    assert processed == [b"m%d" % s for s in range(1, TOTAL + 1)]
    assert qm.depth("APP") == 0 and qm.depth("STATUS") == 0
