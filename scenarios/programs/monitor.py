"""A queue and channel monitor, written with pymqi's PCFExecute as an MQ team writes one.

    python monitor.py QMGR [PATTERN] [POLLS] [INTERVAL]

Every INTERVAL seconds (default 10), POLLS times (default 5), it asks QMGR's command
server for the local queues matching PATTERN (default *) with their depth and MAXDEPTH
(MQCMD_INQUIRE_Q), and prints a line for each one holding messages (SYSTEM.* queues
aside), with its open handles (MQCMD_INQUIRE_Q_STATUS); then the status of each of its
channels (MQCMD_INQUIRE_CHANNEL_STATUS). A queue 80% full gets its MAXDEPTH doubled
(MQCMD_CHANGE_Q). Nothing in it knows about
qsg: run it with
`qsg exec scenarios/exec-monitor.toml --virtual -- python scenarios/programs/monitor.py QM1`.
"""

import sys
import time

import pymqi
from pymqi import CMQC, CMQCFC

STATUS = {
    CMQCFC.MQCHS_RUNNING: "RUNNING",
    CMQCFC.MQCHS_STOPPED: "STOPPED",
    CMQCFC.MQCHS_RETRYING: "RETRYING",
    CMQCFC.MQCHS_BINDING: "BINDING",
    CMQCFC.MQCHS_STARTING: "STARTING",
    CMQCFC.MQCHS_INACTIVE: "INACTIVE",
}


def text(value):
    return value.strip().decode()


def queues(pcf, pattern):
    """(name, depth, maxdepth) of each local queue matching ``pattern``."""
    try:
        replies = pcf.MQCMD_INQUIRE_Q(
            {
                CMQC.MQCA_Q_NAME: pattern,
                CMQC.MQIA_Q_TYPE: CMQC.MQQT_LOCAL,
                # As IBM's metrics code asks a z/OS queue manager: the shared queues too
                # (the PCF default, MQQSGD_LIVE, may leave them out).
                CMQC.MQIA_QSG_DISP: CMQC.MQQSGD_ALL,
                CMQCFC.MQIACF_Q_ATTRS: [CMQC.MQIA_CURRENT_Q_DEPTH, CMQC.MQIA_MAX_Q_DEPTH],
                # A z/OS queue manager lists shared queues only when asked: PCF's
                # default (MQQSGD_LIVE) is its own and COPY queues.
                CMQC.MQIA_QSG_DISP: CMQC.MQQSGD_ALL,
            }
        )
    except pymqi.MQMIError as error:
        if error.reason == CMQC.MQRC_UNKNOWN_OBJECT_NAME:
            return []
        raise
    return [
        (text(q[CMQC.MQCA_Q_NAME]), q[CMQC.MQIA_CURRENT_Q_DEPTH], q[CMQC.MQIA_MAX_Q_DEPTH])
        for q in replies
        if CMQC.MQCA_Q_NAME in q  # a z/OS queue manager's last reply is a summary: no queue
    ]


def handles(pcf, name):
    """(input, output) handles open on the queue ``name``."""
    status = pcf.MQCMD_INQUIRE_Q_STATUS({CMQC.MQCA_Q_NAME: name})
    return status[0][CMQC.MQIA_OPEN_INPUT_COUNT], status[0][CMQC.MQIA_OPEN_OUTPUT_COUNT]


def channels(pcf):
    try:
        replies = pcf.MQCMD_INQUIRE_CHANNEL_STATUS({CMQCFC.MQCACH_CHANNEL_NAME: "*"})
    except pymqi.MQMIError as error:
        if error.reason == CMQCFC.MQRCCF_CHL_STATUS_NOT_FOUND:
            return []
        raise
    return [
        (text(c[CMQCFC.MQCACH_CHANNEL_NAME]), STATUS.get(c[CMQCFC.MQIACH_CHANNEL_STATUS], "?"))
        for c in replies
        if CMQCFC.MQCACH_CHANNEL_NAME in c
    ]


def main():
    name = sys.argv[1]
    pattern = sys.argv[2] if len(sys.argv) > 2 else "*"
    polls = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    interval = float(sys.argv[4]) if len(sys.argv) > 4 else 10.0
    qmgr = pymqi.connect(name)
    pcf = pymqi.PCFExecute(qmgr)
    start = time.monotonic()
    for _ in range(polls):
        time.sleep(interval)
        at = round(time.monotonic() - start)
        for queue, depth, maxdepth in queues(pcf, pattern):
            if depth == 0 or queue.startswith("SYSTEM."):
                continue
            inputs, outputs = handles(pcf, queue)
            line = f"{at}s {queue} depth {depth}/{maxdepth}"
            line += f", open for input {inputs}, output {outputs}"
            if depth >= 0.8 * maxdepth:
                pcf.MQCMD_CHANGE_Q(
                    {
                        CMQC.MQCA_Q_NAME: queue,
                        CMQC.MQIA_Q_TYPE: CMQC.MQQT_LOCAL,
                        CMQC.MQIA_MAX_Q_DEPTH: 2 * maxdepth,
                    }
                )
                line += f": MAXDEPTH raised to {2 * maxdepth}"
            print(line, flush=True)
        for channel, status in channels(pcf):
            print(f"{at}s channel {channel} {status}", flush=True)
    pcf.disconnect()
    qmgr.disconnect()


if __name__ == "__main__":
    main()
