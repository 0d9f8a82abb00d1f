"""A partner queue manager in another process, for the TCP channel tests.

``python -m tests.partner N`` starts a world with QM3 listening for channels on a free
port of 127.0.0.1, prints its CONNAME as the first line, then prints each of the first
N messages that arrive on APP.IN as a JSON line (body, Expiry, PutApplName), and ends when
its standard input does: the test closes it once its sender has had every batch
confirmed (ending at the last message would race the receiver's confirmation of it).
"""

from __future__ import annotations

import json
import sys

import trio

import qsg
from qsg import CMQC, GMO, MD

MQSC = """
DEFINE QLOCAL(APP.IN)
DEFINE CHANNEL(QM1.TO.QM3) CHLTYPE(RCVR) TRPTYPE(TCP)
"""


async def main(count: int) -> None:
    topology = qsg.Topology()
    topology.add_qmgr("QM3", listener=0)
    topology.mqsc("QM3", MQSC, source="tests/partner.py")
    async with qsg.start(topology, in_process=True) as world:
        print(world.conname("QM3"), flush=True)
        conn = await world.connect("QM3")
        q = await conn.open("APP.IN", CMQC.MQOO_INPUT_SHARED)
        # An unlimited wait: nothing here knows when the other process will send.
        gmo = GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, WaitInterval=-1)
        for _ in range(count):
            md = MD()
            body = await q.get(None, md, gmo)
            line = {"body": body.decode(), "expiry": md.Expiry, "at": trio.current_time()}
            print(json.dumps(line), flush=True)
        await trio.to_thread.run_sync(sys.stdin.read)


if __name__ == "__main__":
    qsg.run(main, int(sys.argv[1]))
