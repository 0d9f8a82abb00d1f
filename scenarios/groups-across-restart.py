"""Message groups across units of work, with a queue-manager restart in the middle.

What it shows: the pattern of IBM's "Putting and getting a group
that spans units of work", run against a live queue manager. An application puts a
group of 12 persistent messages on APP.GROUPS in units of work of 4 (MQPMO_LOGICAL_ORDER
| MQPMO_SYNCPOINT) and, in each unit of work, replaces its status (GroupId and
MsgSeqNumber of its last put) on the STATUS queue. QM1 is killed at t=10, in the middle
of the third unit of work: the queue manager backs that unit of work out at its restart
(t=15), so the group's first 8 messages and the status after message 8 are committed,
and the 9th is gone. The application starts again with IBM's restart processing:
it reads the status, puts message 9 with the GroupId and MsgSeqNumber from it (not in
logical order: the queue manager has no group state for it any more), and goes on in
logical order. A reader then gets the group with MQGMO_LOGICAL_ORDER.

What to look for: the script prints the group as read, 1 to 12 in order under one
GroupId, and STATUS empty at the end; the summary shows 12 messages got from APP.GROUPS
(one put backed out by the restart: put 13, got 12), one kill and one restart.
"""

from __future__ import annotations

import struct

import trio

import qsg
from actors.mqi import Queue
from actors.world import World
from qsg import CMQC, GMO, MD, PMO, MQMIError

TOTAL, PER_UOW = 12, 4
# At most: the run ends when main returns (at about 19 s, the group read back), and
# is cut off here only if main were still running.
DURATION = 120
SEED = 1
IN_PROCESS = True  # one queue manager, no coupling facility needed

topology = qsg.Topology()
topology.add_qmgr("QM1")
topology.mqsc(
    "QM1",
    """
    DEFINE QLOCAL(APP.GROUPS) DEFPSIST(YES) MSGDLVSQ(FIFO)
    DEFINE QLOCAL(STATUS) DEFPSIST(YES)
""",
)
IN_GROUP, LAST = CMQC.MQMF_MSG_IN_GROUP, CMQC.MQMF_LAST_MSG_IN_GROUP
SYNC = CMQC.MQPMO_SYNCPOINT


def status_info(md: MD) -> bytes:
    return md.GroupId + struct.pack(">i", md.MsgSeqNumber)


async def get_or_none(queue: Queue, md: MD | None = None) -> bytes | None:
    """MQGET in syncpoint without waiting; None for MQRC_NO_MSG_AVAILABLE."""
    try:
        return await queue.get(None, md or MD(), GMO(Options=CMQC.MQGMO_SYNCPOINT))
    except MQMIError as error:
        if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
            raise
        return None


async def put_group(world: World) -> str:
    """IBM's put side with its restart processing; one message a second. Returns
    how it ended: "complete", or the reason a kill broke it off."""
    conn = await world.connect("QM1")
    app = await conn.open("APP.GROUPS", CMQC.MQOO_OUTPUT)
    status = await conn.open("STATUS", CMQC.MQOO_INPUT_AS_Q_DEF | CMQC.MQOO_OUTPUT)
    try:
        # Restart processing: MQGET (StatusInfo from the STATUS queue) in syncpoint.
        found = await get_or_none(status)
        resume = (found[:24], struct.unpack(">i", found[24:28])[0]) if found else None
        seq = resume[1] + 1 if resume else 1
        status_held = found is not None
        uow = 0
        while seq <= TOTAL:
            uow += 1
            md = MD()
            for s in range(seq, min(seq + PER_UOW, TOTAL + 1)):
                await trio.sleep(1.0)
                flags = LAST if s == TOTAL else IN_GROUP
                if resume and s == resume[1] + 1:
                    # "MQPMO_LOGICAL_ORDER cannot be used for the first put": set GroupId
                    # and MsgSeqNumber from the status message.
                    md = MD(Version=2, GroupId=resume[0], MsgSeqNumber=s, MsgFlags=flags)
                    await app.put(b"m%d" % s, md, PMO(Options=SYNC))
                else:
                    md = MD(Version=2, MsgFlags=flags)
                    await app.put(b"m%d" % s, md, PMO(Options=SYNC | CMQC.MQPMO_LOGICAL_ORDER))
                seq = s + 1
            if (not status_held and uow > 1) or (resume and uow > 1):
                await get_or_none(status)  # the old status, in this unit of work
            if seq <= TOTAL:
                await status.put(status_info(md), MD(), PMO(Options=SYNC))
            status_held = False
            await conn.commit()
    except MQMIError as error:
        return f"broken off: {error}"
    await conn.disconnect()
    return "complete"


async def main(world: World) -> None:
    async with trio.open_nursery() as nursery:
        outcome: list[str] = []

        async def first_attempt() -> None:
            outcome.append(await put_group(world))

        nursery.start_soon(first_attempt)
        await trio.sleep_until(10.0)  # in the third unit of work (messages 9 to 12)
        await world.kill("QM1")
    print("first attempt:", outcome[0])
    await trio.sleep_until(15.0)
    await world.restart("QM1")  # backs the third unit of work out
    print("second attempt:", await put_group(world))

    conn = await world.connect("QM1")
    reader = await conn.open("APP.GROUPS", CMQC.MQOO_INPUT_AS_Q_DEF)
    bodies, group_ids = [], set()
    while True:
        md = MD(Version=2)
        gmo = GMO(Version=2, Options=CMQC.MQGMO_LOGICAL_ORDER | CMQC.MQGMO_NO_SYNCPOINT)
        try:
            bodies.append((await reader.get(None, md, gmo)).decode())
        except MQMIError as error:
            if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
                raise
            break
        group_ids.add(md.GroupId)
    status_depth = await (await conn.open("STATUS", CMQC.MQOO_INQUIRE)).inquire(
        CMQC.MQIA_CURRENT_Q_DEPTH
    )
    print("group as read:", " ".join(bodies), f"({len(group_ids)} GroupId)")
    print("STATUS depth:", status_depth)
    if bodies != [f"m{s}" for s in range(1, TOTAL + 1)] or len(group_ids) != 1 or status_depth:
        raise AssertionError("the group is not whole: IBM's pattern was broken")


if __name__ == "__main__":  # also runs on its own: python scenarios/groups-across-restart.py

    async def standalone() -> None:
        async with qsg.start(topology, seed=SEED, in_process=True) as world:
            await main(world)

    qsg.run(standalone)
