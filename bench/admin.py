"""The administrator's view, as ratios measured in one invocation (issue 28).

A two-member QSG in process with ``--queues`` local queues on QM1 and a tenth as many
shared ones, a few messages on each. Interleaved repetitions, medians, wall time:

1. DISPLAY QSTATUS(*) ALL through the MQSC processor (``actors.admin.command``).
2. The same question in PCF: MQCMD_INQUIRE_Q_STATUS of ``*`` put to
   SYSTEM.ADMIN.COMMAND.QUEUE, every reply got back (one message a queue).
3. The reference: one MQPUT and MQGET pair on a queue of the same queue manager.

It prints each per operation and per queue shown, and two ratios. DISPLAY per queue /
pair: what a look at one queue costs beside one application put and get; target <= 1.
PCF per queue / (DISPLAY per queue + pair): PCF answers with a message a queue, which
the tool gets, so a reply can cost no less than the DISPLAY's work plus one put and one
get; the ratio is what the PCF codec and the command server add; target <= 1.5.

    ./dev bench admin                 # 200 queues, 7 repetitions
    ./dev bench admin --queues 1000 --repeat 5
"""

from __future__ import annotations

import argparse
import statistics
import struct
import time

import qsg
from actors import admin
from actors.world import World
from qsg import CMQC, GMO, MD, OD, PMO

NO_SYNC = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)


def topology(queues: int) -> qsg.Topology:
    top = qsg.Topology()
    top.add_qsg("BNCH", members=["QM1", "QM2"])
    lines = ["DEFINE CFSTRUCT(APP1)"]
    lines += [f"DEFINE QLOCAL(APP.LOCAL.{i:05d})" for i in range(queues)]
    lines += [
        f"DEFINE QLOCAL(APP.SHARED.{i:05d}) QSGDISP(SHARED) CFSTRUCT(APP1)"
        for i in range(max(1, queues // 10))
    ]
    top.mqsc("QM1", "\n".join(lines))
    return top


def inquire_q_status() -> bytes:
    """MQCMD_INQUIRE_Q_STATUS (41) of QName '*', little-endian (MQENC_NATIVE)."""
    name = b"*   "
    return (
        struct.pack("<9i", 1, 36, 1, 41, 1, 1, 0, 0, 1)
        + struct.pack("<5i", 4, 20 + len(name), 2016, 0, 1)
        + name
    )


async def measure(queues: int, repeat: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"display": [], "pcf": [], "pair": []}
    async with qsg.start(topology(queues), in_process=True, keep_events=False) as world:
        conn = await world.connect("QM1")
        for name in list(world.qmgrs["QM1"].rules.queues)[:50]:
            await conn.put1(name, b"x" * 100, MD(), NO_SYNC)
        work = await conn.open("APP.LOCAL.00000", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
        model = OD(ObjectName=b"SYSTEM.DEFAULT.MODEL.QUEUE", DynamicQName=b"BENCH.*")
        replies = await conn.open(model, CMQC.MQOO_INPUT_EXCLUSIVE)
        shown = 0
        for _ in range(repeat):
            began = time.perf_counter()
            reply = await admin.command(world, "QM1", "DISPLAY QSTATUS(*) ALL")
            times["display"].append(time.perf_counter() - began)
            shown = sum(1 for line in reply.lines if line.startswith("CSQM420I"))
            began = time.perf_counter()
            got = await pcf_round_trip(world, conn, replies)
            times["pcf"].append(time.perf_counter() - began)
            assert got == shown, (got, shown)
            began = time.perf_counter()
            for _ in range(100):
                await work.put(b"y" * 100, MD(), NO_SYNC)
                await work.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT))
            times["pair"].append((time.perf_counter() - began) / 100)
        times["shown"] = [float(shown)]
    return times


async def pcf_round_trip(world: World, conn: object, replies: object) -> int:
    """Put the inquiry, get every reply; the number of replies."""
    from actors.mqi import Connection, Queue

    assert isinstance(conn, Connection)
    assert isinstance(replies, Queue)
    md = MD(
        Format=CMQC.MQFMT_ADMIN,
        MsgType=CMQC.MQMT_REQUEST,
        ReplyToQ=replies.name.encode(),
        Encoding=0x222,
    )
    await conn.put1("SYSTEM.ADMIN.COMMAND.QUEUE", inquire_q_status(), md, NO_SYNC)
    count = 0
    gmo = GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, WaitInterval=5000)
    while True:
        body = await replies.get(None, MD(), gmo)
        count += 1
        if struct.unpack_from("<i", body, 20)[0] == 1:  # MQCFH Control: MQCFC_LAST
            return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queues", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    times = qsg.run(lambda: measure(args.queues, args.repeat))
    shown = int(times["shown"][0])
    display, pcf, pair = (statistics.median(times[k]) for k in ("display", "pcf", "pair"))
    print(
        f"qsg admin benchmark: {shown} queues shown, {args.repeat} interleaved repetitions, medians"
    )
    print(
        f"  DISPLAY QSTATUS(*) ALL        {display * 1e3:9.2f} ms  "
        f"({display / shown * 1e6:.1f} us a queue)"
    )
    print(
        f"  PCF INQUIRE_Q_STATUS *        {pcf * 1e3:9.2f} ms  ({pcf / shown * 1e6:.1f} us a queue)"
    )
    print(f"  MQPUT+MQGET pair (reference)  {pair * 1e6:9.1f} us")
    print(f"  ratio DISPLAY per queue / pair   {display / shown / pair:6.2f}   (target <= 1)")
    floor = display / shown + pair
    print(
        f"  ratio PCF per queue / (DISPLAY per queue + pair) {pcf / shown / floor:6.2f}   "
        "(target <= 1.5)"
    )


if __name__ == "__main__":
    main()
