"""The queues of a z/OS queue-sharing group, asked for in PCF as IBM's metrics code asks.

    python qsg_queues.py QMGR_OR_GROUP [PATTERN]

IBM's own monitoring library (ibm-messaging/mq-golang, ``mqmetric/discover.go``) asks a
z/OS queue manager for its queues with QSGDisposition MQQSGD_ALL on MQCMD_INQUIRE_Q_NAMES,
because, its comment says, shared queues are not returned unless explicitly asked for.
This script asks three ways (QSGDisposition ALL, LIVE, and none: the PCF default) and
prints, for each, the local queues found with their disposition (MQIA_QSG_DISP, which
every z/OS Inquire Queue response carries). Nothing in it knows about qsg: run it with
`qsg exec scenarios/exec-monitor.toml --virtual -- python scenarios/programs/qsg_queues.py QSG1`.
"""

import sys

import pymqi
from pymqi import CMQC, CMQCFC

DISPOSITIONS = {
    CMQC.MQQSGD_Q_MGR: "QMGR",
    CMQC.MQQSGD_COPY: "COPY",
    CMQC.MQQSGD_SHARED: "SHARED",
    CMQC.MQQSGD_GROUP: "GROUP",
}
ASKED = {"ALL": CMQC.MQQSGD_ALL, "LIVE": CMQC.MQQSGD_LIVE, "default": None}


def local_queues(pcf, pattern, disposition):
    """(name, disposition) of each local queue ``pattern`` matches, asked with
    QSGDisposition ``disposition`` (None: not given)."""
    asked = {
        CMQC.MQCA_Q_NAME: pattern,
        CMQC.MQIA_Q_TYPE: CMQC.MQQT_LOCAL,
        CMQCFC.MQIACF_Q_ATTRS: [CMQC.MQIA_QSG_DISP],
    }
    if disposition is not None:
        asked[CMQC.MQIA_QSG_DISP] = disposition
    try:
        replies = pcf.MQCMD_INQUIRE_Q(asked)
    except pymqi.MQMIError as error:
        if error.reason == CMQC.MQRC_UNKNOWN_OBJECT_NAME:
            return []
        raise
    return sorted(
        (q[CMQC.MQCA_Q_NAME].strip().decode(), DISPOSITIONS.get(q[CMQC.MQIA_QSG_DISP], "?"))
        for q in replies
        if CMQC.MQCA_Q_NAME in q  # z/OS ends the set with a summary, no queue in it
    )


def main():
    name = sys.argv[1]
    pattern = sys.argv[2] if len(sys.argv) > 2 else "APP.*"
    qmgr = pymqi.connect(name)
    where = qmgr.inquire(CMQC.MQCA_Q_MGR_NAME).strip().decode()
    pcf = pymqi.PCFExecute(qmgr)
    for label, disposition in ASKED.items():
        found = local_queues(pcf, pattern, disposition)
        shown = ", ".join(f"{queue} {disp}" for queue, disp in found) or "none"
        print(f"{where} QSGDisposition {label}: {shown}", flush=True)
    pcf.disconnect()
    qmgr.disconnect()


if __name__ == "__main__":
    main()
