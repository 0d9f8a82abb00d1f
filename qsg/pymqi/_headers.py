"""The message headers a program reads from or puts in front of message data.

Exports ``TM`` and ``TMC2`` (trigger messages), ``DLH`` (the dead-letter header) and
``MDE`` (the message-descriptor extension); ``XQH``, which holds an MQMD, is with ``MD``
in ``qsg.pymqi.structs``. pymqi has the first two; ``DLH`` and ``MDE`` are IBM's ``ibmmq`` package's
(a pymqi program defines its own DLH on ``MQOpts``, which works too). qsg's dead-letter
queue holds messages with IBM's MQDLH in front, so ``DLH().unpack(msg[:172])`` reads why
a message is there.
"""

from __future__ import annotations

from qsg.pymqi import CMQC
from qsg.pymqi._opts import MQLONG, MQOpts

L = MQLONG


class TM(MQOpts):
    """MQTM, the trigger message (IBM: "MQTM - Trigger message")."""

    _layout = (
        ("StrucId", "4s", CMQC.MQTM_STRUC_ID),
        ("Version", L, CMQC.MQTM_VERSION_1),
        ("QName", "48s", b""),
        ("ProcessName", "48s", b""),
        ("TriggerData", "64s", b""),
        ("ApplType", L, 0),
        ("ApplId", "256s", b""),
        ("EnvData", "128s", b""),
        ("UserData", "128s", b""),
    )


class TMC2(MQOpts):
    """MQTMC2, the trigger message in characters (IBM: "MQTMC2 - Trigger message 2
    (character format)"): every field, even the version, is characters."""

    _layout = (
        ("StrucId", "4s", CMQC.MQTMC_STRUC_ID),
        ("Version", "4s", CMQC.MQTMC_VERSION_2),
        ("QName", "48s", b""),
        ("ProcessName", "48s", b""),
        ("TriggerData", "64s", b""),
        ("ApplType", "4s", b""),
        ("ApplId", "256s", b""),
        ("EnvData", "128s", b""),
        ("UserData", "128s", b""),
        ("QMgrName", "48s", b""),
    )


class DLH(MQOpts):
    """MQDLH, the dead-letter header (IBM: "MQDLH - Dead-letter header")."""

    def get_header(self, buf: bytes) -> DLH:
        """``ibmmq``'s: this header read from the front of a whole message."""
        self.unpack(buf[: CMQC.MQDLH_LENGTH_1])
        return self

    _layout = (
        ("StrucId", "4s", CMQC.MQDLH_STRUC_ID),
        ("Version", L, CMQC.MQDLH_VERSION_1),
        ("Reason", L, CMQC.MQRC_NONE),
        ("DestQName", "48s", b""),
        ("DestQMgrName", "48s", b""),
        ("Encoding", L, 0),
        ("CodedCharSetId", L, CMQC.MQCCSI_UNDEFINED),
        ("Format", "8s", CMQC.MQFMT_NONE),
        ("PutApplType", L, 0),
        ("PutApplName", "28s", b""),
        ("PutDate", "8s", b""),
        ("PutTime", "8s", b""),
    )


class MDE(MQOpts):
    """MQMDE, the message-descriptor extension (IBM: "MQMDE - Message descriptor
    extension"): the version-2 MQMD fields after a version-1 MQMD."""

    _layout = (
        ("StrucId", "4s", CMQC.MQMDE_STRUC_ID),
        ("Version", L, CMQC.MQMDE_VERSION_2),
        ("StrucLength", L, CMQC.MQMDE_LENGTH_2),
        ("Encoding", L, CMQC.MQENC_NATIVE),
        ("CodedCharSetId", L, CMQC.MQCCSI_Q_MGR),
        ("Format", "8s", CMQC.MQFMT_NONE),
        ("Flags", L, CMQC.MQMDEF_NONE),
        ("GroupId", "24s", CMQC.MQGI_NONE),
        ("MsgSeqNumber", L, 1),
        ("Offset", L, 0),
        ("MsgFlags", L, CMQC.MQMF_NONE),
        ("OriginalLength", L, CMQC.MQOL_UNDEFINED),
    )
