"""A serialized application: one instance at a time in the queue-sharing group.

    python serialized.py QMGR GROUP TAG [QUEUE]

It connects to QMGR with MQCONNX, ``ibmmq``'s CNO carrying the connection tag TAG and
MQCNO_SERIALIZE_CONN_TAG_QSG, so that no other instance with that tag runs anywhere in
the group meanwhile: a second instance it starts itself is refused with
MQRC_CONN_TAG_IN_USE (2271). It gets messages from QUEUE (default APP.ORDERS), one unit
of work each. When its queue manager goes away it connects again by the group's name
with the same tag: while the failed member's unit of work is unresolved the tag is in
use (2271), or not usable while that recovery waits for the coupling facility (2350),
and it tries again a second later; once peer recovery has put the message it held back
on the queue, it carries on there, that message first. It ends when the queue has been
empty for 10 seconds. Run it with `qsg exec scenarios/exec-failover.toml --virtual --
python scenarios/programs/serialized.py QM1 QSG1 ORDERS.1`.
"""

import sys
import time

import pymqi

LOST = {
    pymqi.CMQC.MQRC_CONNECTION_BROKEN,
    pymqi.CMQC.MQRC_Q_MGR_NOT_AVAILABLE,
    pymqi.CMQC.MQRC_Q_MGR_QUIESCING,
    pymqi.CMQC.MQRC_Q_MGR_STOPPING,
}
WAIT = {pymqi.CMQC.MQRC_CONN_TAG_IN_USE, pymqi.CMQC.MQRC_CONN_TAG_NOT_USABLE}
IDLE = 10.0  # seconds of an empty queue before the instance ends


def connect(name, tag):
    """MQCONNX with the tag, serialized in the whole queue-sharing group."""
    cno = pymqi.CNO(Options=pymqi.CMQC.MQCNO_SERIALIZE_CONN_TAG_QSG, ConnTag=tag)
    qmgr = pymqi.QueueManager(None)
    qmgr.connect_with_options(name, cno=cno)
    return qmgr


def reconnect(group, tag):
    """Connect by the group's name again, waiting while the tag is held."""
    while True:
        try:
            return connect(group, tag)
        except pymqi.MQMIError as error:
            if error.reason not in WAIT:
                raise
            print(f"tag held: {error}", flush=True)
            time.sleep(1)


def main():
    first, group, tag = sys.argv[1], sys.argv[2], sys.argv[3].encode()
    queue_name = sys.argv[4] if len(sys.argv) > 4 else "APP.ORDERS"
    qmgr = connect(first, tag)
    print(f"connected to {first} with tag {tag.decode()}", flush=True)
    try:
        connect(group, tag)
    except pymqi.MQMIError as error:
        print(f"a second instance is refused: {error}", flush=True)
    queue = pymqi.Queue(qmgr, queue_name, pymqi.CMQC.MQOO_INPUT_SHARED)
    gmo = pymqi.GMO(Options=pymqi.CMQC.MQGMO_WAIT | pymqi.CMQC.MQGMO_SYNCPOINT, WaitInterval=2000)
    committed, last = 0, time.time()
    while time.time() - last < IDLE:
        try:
            queue.get(None, pymqi.MD(), gmo)
            qmgr.commit()
            committed += 1
            last = time.time()
        except pymqi.MQMIError as error:
            if error.reason == pymqi.CMQC.MQRC_NO_MSG_AVAILABLE:
                continue
            if error.reason not in LOST:
                raise
            print(f"lost the queue manager after {committed} messages: {error}", flush=True)
            qmgr = reconnect(group, tag)
            where = qmgr.inquire(pymqi.CMQC.MQCA_Q_MGR_NAME).strip().decode()
            print(f"connected to {where} with tag {tag.decode()}", flush=True)
            queue = pymqi.Queue(qmgr, queue_name, pymqi.CMQC.MQOO_INPUT_SHARED)
    queue.close()
    qmgr.disconnect()
    print(f"done: {committed} messages committed", flush=True)


if __name__ == "__main__":
    main()
