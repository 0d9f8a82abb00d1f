"""A pymqi consumer that moves poison messages to the queue's backout queue.

    python poison.py QMGR [QUEUE]

It gets messages from QUEUE (default APP.WORK) in units of work and processes each: a
record longer than 4 KB is one it cannot process, so it backs the unit of work out and
MQ puts the message back with its BackoutCount raised. The queue manager itself does
nothing about a message that keeps coming back ("BackoutThreshold (MQLONG)": apart from
allowing its value to be queried, the queue manager takes no action on it), so the
program does what IBM MQ classes for JMS do: it reads the queue's backout threshold
(BOTHRESH, MQIA_BACKOUT_THRESHOLD) and backout requeue queue (BOQNAME,
MQCA_BACKOUT_REQ_Q_NAME) with MQINQ, and once a message's BackoutCount reaches the
threshold it puts it to that queue in the same unit of work as the get, and commits.
It ends when the queue has been empty for 10 seconds. Nothing in it knows about qsg:
run it with `qsg exec scenarios/exec-poison.toml --virtual -- python
scenarios/programs/poison.py QM1`.
"""

import sys
import time

import pymqi
from pymqi import CMQC

LONGEST = 4096  # the longest record the application can process
IDLE = 10.0  # seconds of an empty queue before the consumer ends


def main():
    q_mgr_name = sys.argv[1]
    queue_name = sys.argv[2] if len(sys.argv) > 2 else "APP.WORK"
    qmgr = pymqi.connect(q_mgr_name)
    queue = pymqi.Queue(qmgr, queue_name, CMQC.MQOO_INPUT_AS_Q_DEF | CMQC.MQOO_INQUIRE)
    threshold = queue.inquire(CMQC.MQIA_BACKOUT_THRESHOLD)
    requeue = queue.inquire(CMQC.MQCA_BACKOUT_REQ_Q_NAME).strip().decode()
    print(f"{queue_name}: BOTHRESH({threshold}) BOQNAME({requeue})", flush=True)
    backout_queue = pymqi.Queue(qmgr, requeue, CMQC.MQOO_OUTPUT) if requeue else None
    gmo = pymqi.GMO(
        Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_SYNCPOINT | CMQC.MQGMO_FAIL_IF_QUIESCING,
        WaitInterval=2000,
    )
    processed = moved = 0
    last = time.time()
    while time.time() - last < IDLE:
        md = pymqi.MD()
        try:
            body = queue.get(None, md, gmo)
        except pymqi.MQMIError as error:
            if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
                raise
            continue
        last = time.time()
        if backout_queue is not None and threshold and md.BackoutCount >= threshold:
            # Moved in the unit of work of the get: both happen, or neither.
            backout_queue.put(body, md, pymqi.PMO(Options=CMQC.MQPMO_SYNCPOINT))
            qmgr.commit()
            moved += 1
            print(
                f"moved a {len(body)}-byte message to {requeue} after {md.BackoutCount} backouts",
                flush=True,
            )
        elif len(body) > LONGEST:
            qmgr.backout()
            print(
                f"cannot process a {len(body)}-byte record: backed out "
                f"(BackoutCount was {md.BackoutCount})",
                flush=True,
            )
        else:
            qmgr.commit()
            processed += 1
    queue.close()
    if backout_queue is not None:
        backout_queue.close()
    qmgr.disconnect()
    print(f"done: {processed} processed, {moved} moved to {requeue}", flush=True)


if __name__ == "__main__":
    main()
