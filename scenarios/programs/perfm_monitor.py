"""A performance event monitor, reading event messages byte by byte as IBM lays them out.

    python perfm_monitor.py QMGR [EVENTS] [WAIT]

It opens QMGR's SYSTEM.ADMIN.PERFM.EVENT and waits (MQGMO_WAIT) up to WAIT seconds
(default 60) for each event message; it reads the PCF header (MQCFH: nine MQLONGs) and
then each parameter structure (MQCFST strings, MQCFIN integers) at its offset, in the
byte order the message's Encoding names and the character set each MQCFST names, and
prints a line per event. It ends after EVENTS events (default: when WAIT passes with
none). A message that is no event message is skipped with a line saying why; an MQ error
ends it with one line and exit status 1. Nothing in it knows about qsg: run it with
`qsg exec scenarios/exec-events.toml --virtual -- python scenarios/programs/perfm_monitor.py QM1`.
IBM: "Event message format", "Event message MQCFH (PCF header)", "Queue Depth High".
"""

import struct
import sys
import time

import pymqi
from pymqi import CMQC, CMQCFC

EVENTS = {
    CMQC.MQRC_Q_DEPTH_HIGH: "Queue Depth High",
    CMQC.MQRC_Q_DEPTH_LOW: "Queue Depth Low",
    CMQC.MQRC_Q_FULL: "Queue Full",
    CMQC.MQRC_Q_SERVICE_INTERVAL_HIGH: "Queue Service Interval High",
    CMQC.MQRC_Q_SERVICE_INTERVAL_OK: "Queue Service Interval OK",
}
PARAMETERS = {
    CMQC.MQCA_Q_MGR_NAME: "QMgrName",
    CMQC.MQCA_BASE_Q_NAME: "QName",
    CMQC.MQIA_TIME_SINCE_RESET: "TimeSinceReset",
    CMQC.MQIA_HIGH_Q_DEPTH: "HighQDepth",
    CMQC.MQIA_MSG_ENQ_COUNT: "MsgEnqCount",
    CMQC.MQIA_MSG_DEQ_COUNT: "MsgDeqCount",
}
CODECS = {500: "cp500", 37: "cp037", 819: "latin-1", 1208: "utf-8"}
MQCFH_LENGTH = 36


class NotAnEventError(ValueError):
    """A message on the event queue that is no event message."""


def parse(md, data):
    """(Command, Reason, {parameter: value}) of an event message."""
    if md.Format != CMQC.MQFMT_EVENT:
        raise NotAnEventError(
            f"Format {md.Format.decode(errors='replace').strip()!r} is not MQEVENT"
        )
    integers = md.Encoding & CMQC.MQENC_INTEGER_MASK
    order = ">" if integers == CMQC.MQENC_INTEGER_NORMAL else "<"
    if len(data) < MQCFH_LENGTH:
        raise NotAnEventError(f"{len(data)} bytes: too short for an MQCFH")
    kind, length, _version, command, _seq, _control, _comp, reason, count = struct.unpack_from(
        order + "9i", data, 0
    )
    if kind != CMQCFC.MQCFT_EVENT or length != MQCFH_LENGTH:
        raise NotAnEventError(f"MQCFH Type {kind}, StrucLength {length}: not MQCFT_EVENT")
    values = {}
    at = MQCFH_LENGTH
    for _ in range(count):
        if at + 12 > len(data):
            raise NotAnEventError(f"ParameterCount {count}, but the data ends at byte {at}")
        ptype, plength, parameter = struct.unpack_from(order + "3i", data, at)
        if plength < 12 or at + plength > len(data):
            raise NotAnEventError(f"a parameter's StrucLength {plength} at byte {at}")
        if ptype == CMQCFC.MQCFT_INTEGER:
            (values[parameter],) = struct.unpack_from(order + "i", data, at + 12)
        elif ptype == CMQCFC.MQCFT_STRING:
            ccsid, size = struct.unpack_from(order + "2i", data, at + 12)
            raw = data[at + 20 : at + 20 + size]
            values[parameter] = raw.decode(CODECS.get(ccsid, "latin-1")).rstrip(" \0")
        at += plength  # a structure of another type is passed over by its length
    return command, reason, values


def describe(reason, values):
    name = EVENTS.get(reason, f"event {reason}")
    fields = " ".join(
        f"{label} {values[p]}" for p, label in PARAMETERS.items() if p in values and p > 100
    )
    counts = " ".join(
        f"{label} {values[p]}" for p, label in PARAMETERS.items() if p in values and p < 100
    )
    return f"{name} ({reason}): {fields}: {counts}"


def main():
    name = sys.argv[1]
    wanted = int(sys.argv[2]) if len(sys.argv) > 2 else None
    wait = float(sys.argv[3]) if len(sys.argv) > 3 else 60.0
    qmgr = pymqi.connect(name)
    queue = pymqi.Queue(qmgr, "SYSTEM.ADMIN.PERFM.EVENT", CMQC.MQOO_INPUT_SHARED)
    gmo = pymqi.GMO(
        Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_FAIL_IF_QUIESCING,
        WaitInterval=int(wait * 1000),
    )
    start = time.monotonic()
    seen = 0
    while wanted is None or seen < wanted:
        md = pymqi.MD()
        try:
            data = queue.get(None, md, gmo)
        except pymqi.MQMIError as error:
            if error.reason == CMQC.MQRC_NO_MSG_AVAILABLE:
                break
            raise
        at = round(time.monotonic() - start, 1)
        try:
            command, reason, values = parse(md, data)
        except NotAnEventError as why:
            print(f"{at}s skipped: {why}", flush=True)
            continue
        if command != CMQCFC.MQCMD_PERFM_EVENT:
            print(f"{at}s skipped: Command {command} is not MQCMD_PERFM_EVENT", flush=True)
            continue
        print(f"{at}s {describe(reason, values)}", flush=True)
        seen += 1
    queue.close()
    qmgr.disconnect()


if __name__ == "__main__":
    try:
        main()
    except pymqi.MQMIError as error:
        print(f"perfm_monitor: {error}", flush=True)
        sys.exit(1)
