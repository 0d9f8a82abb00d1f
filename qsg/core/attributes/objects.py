"""The attributes of channels, CF structures, processes and the queue manager.

Rows are in the order DISPLAY shows them. Keywords, ranges and defaults are those of
IBM's "DEFINE CHANNEL", "DEFINE CFSTRUCT", "DEFINE PROCESS" and "ALTER QMGR" for z/OS;
the identifiers are IBM's cmqc.h and cmqcfc.h.
"""

from __future__ import annotations

from qsg import CMQC
from qsg import CMQCFC as F
from qsg.core.attributes.attribute import CFSTRUCT, CHANNEL, PROCESS, QMGR, Attribute, row
from qsg.core.attributes.kinds import Choice, Number, Numbered, Size, Text

_ONE = frozenset
_CH = _ONE({CHANNEL})
_CF = _ONE({CFSTRUCT})
_PR = _ONE({PROCESS})
_QM = _ONE({QMGR})
_COUNT = Number(0, 999_999_999)

CHLTYPE = Choice(
    {
        "SDR": CMQC.MQCHT_SENDER,
        "SVR": CMQC.MQCHT_SERVER,
        "RCVR": CMQC.MQCHT_RECEIVER,
        "RQSTR": CMQC.MQCHT_REQUESTER,
    }
)
APPLTYPE = Numbered(
    {
        "CICS": CMQC.MQAT_CICS,
        "MVS": CMQC.MQAT_ZOS,
        "IMS": CMQC.MQAT_IMS,
        "UNIX": CMQC.MQAT_UNIX,
        "WINDOWS": 9,
        "WINDOWSNT": 11,
        "OS400": 8,
    }
)
_RECOVER = Choice({"NO": CMQC.MQCFR_NO, "YES": CMQC.MQCFR_YES}, stored={"NO": False, "YES": True})
_OFFLOAD = Choice(
    {"SMDS": CMQC.MQCFOFFLD_SMDS, "DB2": CMQC.MQCFOFFLD_DB2}, stored={"SMDS": "SMDS", "DB2": "DB2"}
)
_PLATFORM = Choice({"MVS": CMQC.MQPL_ZOS, "UNIX": CMQC.MQPL_UNIX, "WINDOWSNT": 11})

# fmt: off
CHANNELS: tuple[Attribute, ...] = (
    row("CHANNEL", Text(20, "channel"), _CH, "", field="name", role="name",
        parameter=F.MQCACH_CHANNEL_NAME, effect="the channel's name"),
    row("CHLTYPE", CHLTYPE, _CH, None, field="channel_type",
        parameter=F.MQIACH_CHANNEL_TYPE, effect="which end of a message channel it is"),
    row("QSGDISP", Choice({"QMGR": CMQC.MQQSGD_Q_MGR}), _CH, CMQC.MQQSGD_Q_MGR,
        role="fixed", parameter=CMQC.MQIA_QSG_DISP, effect="a member's own channel"),
    row("TRPTYPE", Choice({"TCP": CMQC.MQXPT_TCP}), _CH, CMQC.MQXPT_TCP,
        parameter=F.MQIACH_XMIT_PROTOCOL_TYPE, effect="TCP: the simulated network"),
    row("DESCR", Text(64), _CH, "", field="description", parameter=F.MQCACH_DESC,
        effect="shown"),
    row("CONNAME", Text(264), _CH, "", field="conn_name",
        parameter=F.MQCACH_CONNECTION_NAME, effect="the partner's address"),
    row("XMITQ", Text(48, "XMITQ queue"), _CH, "", field="xmit_q_name",
        parameter=F.MQCACH_XMIT_Q_NAME, effect="the transmission queue a sender serves"),
    row("BATCHSZ", Number(1, 9999), _CH, 50, field="batch_size",
        parameter=F.MQIACH_BATCH_SIZE, effect="messages per batch"),
    row("SHORTRTY", _COUNT, _CH, 10, field="short_retry_count",
        parameter=F.MQIACH_SHORT_RETRY, effect="retries SHORTTMR apart"),
    row("SHORTTMR", _COUNT, _CH, 60, field="short_retry_interval",
        parameter=F.MQIACH_SHORT_TIMER, effect="seconds between short retries"),
    row("LONGRTY", _COUNT, _CH, 999_999_999, field="long_retry_count",
        parameter=F.MQIACH_LONG_RETRY, effect="retries LONGTMR apart, after the short ones"),
    row("LONGTMR", _COUNT, _CH, 1200, field="long_retry_interval",
        parameter=F.MQIACH_LONG_TIMER, effect="seconds between long retries"),
    row("HBINT", Number(0, 999_999), _CH, 300, field="heartbeat_interval",
        parameter=F.MQIACH_HB_INTERVAL, effect="heartbeats and the receive timeout"),
)

CF_STRUCTURES: tuple[Attribute, ...] = (
    row("CFSTRUCT", Text(12, "CF structure"), _CF, "", field="name", role="name",
        parameter=CMQC.MQCA_CF_STRUC_NAME, effect="the structure's name"),
    row("CFLEVEL", Number(1, 5), _CF, 5, field="cf_level", parameter=CMQC.MQIA_CF_LEVEL,
        effect="3: persistent messages; 4: messages over 63 KB; 5: offload rules"),
    row("DESCR", Text(64), _CF, "", field="description", parameter=CMQC.MQCA_CF_STRUC_DESC,
        effect="shown"),
    row("RECOVER", _RECOVER, _CF, False, field="recover", parameter=CMQC.MQIA_CF_RECOVER,
        effect="YES: persistent messages are recoverable"),
    row("OFFLOAD", _OFFLOAD, _CF, "SMDS", field="offload", parameter=CMQC.MQIA_CF_OFFLOAD,
        effect="where large messages go (docs/capacity.md)"),
    row("OFFLD1TH", Number(0, 100), _CF, 70, field="offload_threshold1",
        parameter=CMQC.MQIA_CF_OFFLOAD_THRESHOLD1, effect="the first offload rule"),
    row("OFFLD1SZ", Size(), _CF, 32, field="offload_size1",
        parameter=F.MQCACF_CF_OFFLOAD_SIZE1, effect="the first offload rule"),
    row("OFFLD2TH", Number(0, 100), _CF, 80, field="offload_threshold2",
        parameter=CMQC.MQIA_CF_OFFLOAD_THRESHOLD2, effect="the second offload rule"),
    row("OFFLD2SZ", Size(), _CF, 4, field="offload_size2",
        parameter=F.MQCACF_CF_OFFLOAD_SIZE2, effect="the second offload rule"),
    row("OFFLD3TH", Number(0, 100), _CF, 90, field="offload_threshold3",
        parameter=CMQC.MQIA_CF_OFFLOAD_THRESHOLD3, effect="the third offload rule"),
    row("OFFLD3SZ", Size(), _CF, 0, field="offload_size3",
        parameter=F.MQCACF_CF_OFFLOAD_SIZE3, effect="the third offload rule"),
)

PROCESSES: tuple[Attribute, ...] = (
    row("PROCESS", Text(48, "process"), _PR, "", field="name", role="name",
        parameter=CMQC.MQCA_PROCESS_NAME, inquire=True, effect="the process's name"),
    row("DESCR", Text(64), _PR, "", field="description", parameter=CMQC.MQCA_PROCESS_DESC,
        inquire=True, effect="shown"),
    row("APPLTYPE", APPLTYPE, _PR, CMQC.MQAT_ZOS, field="appl_type",
        parameter=CMQC.MQIA_APPL_TYPE, inquire=True, effect="copied into the MQTM"),
    row("APPLICID", Text(256), _PR, "", field="appl_id", parameter=CMQC.MQCA_APPL_ID,
        inquire=True, effect="copied into the MQTM"),
    row("ENVRDATA", Text(128), _PR, "", field="env_data", parameter=CMQC.MQCA_ENV_DATA,
        inquire=True, effect="copied into the MQTM"),
    row("USERDATA", Text(128), _PR, "", field="user_data", parameter=CMQC.MQCA_USER_DATA,
        inquire=True, effect="copied into the MQTM"),
)

Q_MGR: tuple[Attribute, ...] = (
    row("QMNAME", Text(48, "queue manager"), _QM, "", field="name", role="name",
        parameter=CMQC.MQCA_Q_MGR_NAME, inquire=True, effect="the queue manager's name"),
    row("QSGNAME", Text(4), _QM, "", field="qsg_name", role="fixed",
        parameter=CMQC.MQCA_QSG_NAME, inquire=True, effect="its queue-sharing group"),
    row("PLATFORM", _PLATFORM, _QM, CMQC.MQPL_ZOS, field="rules.platform", role="fixed",
        parameter=CMQC.MQIA_PLATFORM, inquire=True,
        effect="MVS: z/OS's rules (docs/rules.md)"),
    row("COMMANDQ", Text(48), _QM, "SYSTEM.COMMAND.INPUT", role="fixed",
        parameter=CMQC.MQCA_COMMAND_INPUT_Q_NAME, inquire=True,
        effect="where the command server reads"),
    row("DESCR", Text(64), _QM, "", field="description", parameter=CMQC.MQCA_Q_MGR_DESC,
        inquire=True, effect="shown and inquired"),
    row("DEADQ", Text(48, "DEADQ queue"), _QM, "", field="dead_letter_queue",
        parameter=CMQC.MQCA_DEAD_LETTER_Q_NAME, inquire=True,
        effect="where undeliverable messages go"),
    row("DEFXMITQ", Text(48, "DEFXMITQ queue"), _QM, "", field="def_xmit_q_name",
        parameter=CMQC.MQCA_DEF_XMIT_Q_NAME, inquire=True,
        effect="the transmission queue for a queue manager with no route of its own"),
    row("EXPRYINT", Number(1, 99_999_999, {"OFF": 0}), _QM, 0, field="expiry_interval",
        parameter=CMQC.MQIA_EXPIRY_INTERVAL, inquire=True,
        effect="seconds between scans for expired messages"),
    row("MAXUMSGS", Number(1, 999_999_999), _QM, 10_000,
        field="rules.max_uncommitted_msgs", parameter=CMQC.MQIA_MAX_UNCOMMITTED_MSGS,
        inquire=True, effect="MQRC_SYNCPOINT_LIMIT_REACHED (2024) past it"),
    row("MAXMSGL", Number(0, 104_857_600), _QM, 104_857_600, field="rules.max_msg_length",
        role="fixed", parameter=CMQC.MQIA_MAX_MSG_LENGTH, inquire=True,
        effect="the longest message (fixed at 100 MB on z/OS)"),
    row("TRIGINT", _COUNT, _QM, 999_999_999, field="trigger_interval",
        parameter=CMQC.MQIA_TRIGGER_INTERVAL, inquire=True,
        effect="milliseconds before a FIRST trigger is repeated"),
)
# fmt: on

__all__ = ["APPLTYPE", "CF_STRUCTURES", "CHANNELS", "CHLTYPE", "PROCESSES", "Q_MGR"]
