"""Event messages as IBM lays them out: an MQMD of format MQFMT_EVENT over a PCF header
(MQCFH of type MQCFT_EVENT) and its parameters, MQCFST strings and MQCFIN integers.

IBM's "Event message format", "Event message MQMD (message descriptor)" and "Event
message MQCFH (PCF header)": MsgType MQMT_DATAGRAM, Format MQFMT_EVENT, Expiry
unlimited, the queue's default priority and persistence, PutApplType MQAT_QMGR and the
queue manager's name as PutApplName; in the header MsgSeqNumber 1, Control MQCFC_LAST,
CompCode MQCC_WARNING, and the event's reason code. The message is in the encoding and
character set of the queue manager's platform: on z/OS integers are big-endian
(MQENC_NATIVE there is 785: MQENC_INTEGER_NORMAL, MQENC_DECIMAL_NORMAL,
MQENC_FLOAT_S390) and strings EBCDIC (CCSID 500, z/OS's default queue-manager CCSID);
elsewhere x86's MQENC_NATIVE (546, little-endian) and ISO 8859-1 (819).
"""

from __future__ import annotations

import struct

from qsg import CMQC, CMQCFC
from qsg.core import platforms
from qsg.core.structs import MD

PERFM_EVENT_QUEUE = "SYSTEM.ADMIN.PERFM.EVENT"
QMGR_EVENT_QUEUE = "SYSTEM.ADMIN.QMGR.EVENT"
CHANNEL_EVENT_QUEUE = "SYSTEM.ADMIN.CHANNEL.EVENT"
#: The queues no performance event is generated for (IBM: "Performance events": "They
#: are not generated for the event queues themselves").
EVENT_QUEUES = frozenset({PERFM_EVENT_QUEUE, QMGR_EVENT_QUEUE, CHANNEL_EVENT_QUEUE})

#: z/OS's native encoding: integers and packed decimals big-endian, System/390 floats.
ZOS_ENCODING = CMQC.MQENC_INTEGER_NORMAL | CMQC.MQENC_DECIMAL_NORMAL | CMQC.MQENC_FLOAT_S390
#: The character sets event messages are written in, and Python's codec for each.
CODECS = {500: "cp500", 819: "latin-1"}

#: One parameter: its identifier, and an int (MQCFIN) or a str (MQCFST) with the length
#: MQ pads it to (MQ_Q_MGR_NAME_LENGTH, MQ_Q_NAME_LENGTH, ...).
Parameter = tuple[int, int] | tuple[int, str, int]


def encoding(platform: int) -> int:
    """The MQMD Encoding of messages a queue manager on ``platform`` builds."""
    return ZOS_ENCODING if platforms.is_zos(platform) else CMQC.MQENC_NATIVE


def ccsid(platform: int) -> int:
    """The CodedCharSetId of messages a queue manager on ``platform`` builds."""
    return 500 if platforms.is_zos(platform) else 819


def body(command: int, reason: int, parameters: list[Parameter], platform: int) -> bytes:
    """The PCF part of an event message: MQCFH, then each parameter in order."""
    order = (
        ">" if encoding(platform) & CMQC.MQENC_INTEGER_MASK == CMQC.MQENC_INTEGER_NORMAL else "<"
    )
    chars = ccsid(platform)
    header = struct.pack(
        order + "9i",
        CMQCFC.MQCFT_EVENT,
        CMQCFC.MQCFH_STRUC_LENGTH,
        CMQCFC.MQCFH_VERSION_1,
        command,
        1,  # MsgSeqNumber
        CMQCFC.MQCFC_LAST,
        CMQC.MQCC_WARNING,
        reason,
        len(parameters),
    )
    parts = [header]
    for parameter in parameters:
        if len(parameter) == 2:
            parts.append(
                struct.pack(
                    order + "4i",
                    CMQCFC.MQCFT_INTEGER,
                    CMQCFC.MQCFIN_STRUC_LENGTH,
                    parameter[0],
                    parameter[1],
                )
            )
            continue
        identifier, value, length = parameter
        text = value.encode(CODECS[chars], "replace")[:length].ljust(
            length, " ".encode(CODECS[chars])
        )
        padded = text + b"\x00" * (-len(text) % 4)
        parts.append(
            struct.pack(
                order + "5i",
                CMQCFC.MQCFT_STRING,
                CMQCFC.MQCFST_STRUC_LENGTH_FIXED + len(padded),
                identifier,
                chars,
                len(text),
            )
            + padded
        )
    return b"".join(parts)


def descriptor(q_mgr_name: str, platform: int, correl_id: bytes = CMQC.MQCI_NONE) -> MD:
    """The MQMD of an event message from queue manager ``q_mgr_name``."""
    return MD(
        MsgType=CMQC.MQMT_DATAGRAM,
        Format=CMQC.MQFMT_EVENT,
        Encoding=encoding(platform),
        CodedCharSetId=ccsid(platform),
        Expiry=CMQC.MQEI_UNLIMITED,
        Priority=CMQC.MQPRI_PRIORITY_AS_Q_DEF,
        Persistence=CMQC.MQPER_PERSISTENCE_AS_Q_DEF,
        CorrelId=correl_id,
        PutApplType=CMQC.MQAT_QMGR,
        PutApplName=q_mgr_name.encode()[:28],
    )


__all__ = [
    "CHANNEL_EVENT_QUEUE",
    "CODECS",
    "EVENT_QUEUES",
    "PERFM_EVENT_QUEUE",
    "QMGR_EVENT_QUEUE",
    "ZOS_ENCODING",
    "Parameter",
    "body",
    "ccsid",
    "descriptor",
    "encoding",
]
