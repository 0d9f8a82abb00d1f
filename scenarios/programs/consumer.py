"""A pymqi consumer that survives the loss of its queue manager.

    python consumer.py QMGR GROUP [QUEUE]

It connects to QMGR and gets messages from QUEUE (default APP.ORDERS) in units of
work, committing every 5. When its queue manager goes away (MQRC_CONNECTION_BROKEN,
MQRC_Q_MGR_NOT_AVAILABLE...) the unit of work in flight is lost with the connection
(MQ backs it out), and it connects again by the queue-sharing group's name GROUP,
which z/OS group attach resolves to a member that is running. It ends when the queue
has been empty for 10 seconds. Nothing in it knows about qsg: run it with
`qsg exec scenarios/exec-failover.toml --virtual -- python scenarios/programs/consumer.py QM1 QSG1`.
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
BATCH = 5
IDLE = 10.0  # seconds of an empty queue before the consumer ends


def connect(name):
    qmgr = pymqi.connect(name)
    where = qmgr.inquire(pymqi.CMQC.MQCA_Q_MGR_NAME).strip().decode()
    print(f"connected to {where} (asked for {name})", flush=True)
    return qmgr


def main():
    first, group = sys.argv[1], sys.argv[2]
    queue_name = sys.argv[3] if len(sys.argv) > 3 else "APP.ORDERS"
    qmgr = connect(first)
    queue = pymqi.Queue(qmgr, queue_name, pymqi.CMQC.MQOO_INPUT_SHARED)
    gmo = pymqi.GMO(
        Options=pymqi.CMQC.MQGMO_WAIT
        | pymqi.CMQC.MQGMO_SYNCPOINT
        | pymqi.CMQC.MQGMO_FAIL_IF_QUIESCING,
        WaitInterval=2000,
    )
    got = committed = in_unit = 0
    last = time.time()
    while time.time() - last < IDLE:
        try:
            queue.get(None, pymqi.MD(), gmo)
            got += 1
            in_unit += 1
            last = time.time()
            if in_unit == BATCH:
                qmgr.commit()
                committed += in_unit
                in_unit = 0
        except pymqi.MQMIError as error:
            if error.reason == pymqi.CMQC.MQRC_NO_MSG_AVAILABLE:
                if in_unit:
                    qmgr.commit()
                    committed += in_unit
                    in_unit = 0
                continue
            if error.reason not in LOST:
                raise
            print(
                f"lost the queue manager: {error} after {got} messages; "
                f"{in_unit} uncommitted go back to the queue",
                flush=True,
            )
            in_unit = 0
            qmgr = connect(group)
            queue = pymqi.Queue(qmgr, queue_name, pymqi.CMQC.MQOO_INPUT_SHARED)
    queue.close()
    qmgr.disconnect()
    print(f"done: {committed} messages committed", flush=True)


if __name__ == "__main__":
    main()
