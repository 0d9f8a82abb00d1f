"""The keywords each MQSC command takes, and what their values may be.

A keyword maps to the field of the definition record it sets (``QueueDefinition``,
``AliasQueue``, ``RemoteQueue``, ``CFStructure``, ``ChannelDefinition``, or the queue
manager's own attributes) and to a parser that turns the text into the field's value or
raises ``ValueError`` saying what was wrong. Values and ranges are IBM's (MQSC
reference, z/OS where platforms differ).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from qsg import CMQC
from qsg.core.offload import parse_size
from qsg.core.queue import MAX_MSG_LENGTH, check_name
from qsg.mqsc.errors import shown

Parse = Callable[[str, bool], Any]


@dataclass(frozen=True, slots=True)
class Keyword:
    field: str
    parse: Parse


def name(longest: int = 48, what: str = "object") -> Parse:
    def parse(value: str, quoted: bool) -> str:
        check_name(value, what, longest)
        return value

    return parse


def integer(low: int, high: int, *, off: int | None = None) -> Parse:
    def parse(value: str, quoted: bool) -> int | None:
        if off is not None and value == "OFF":
            return None
        if not value.isdigit():
            raise ValueError(f"{shown(value)} is not a whole number")
        if len(value) > 18:  # past any MQLONG, and past what int() converts quickly
            raise ValueError(f"{shown(value, 12)} is not in {low}..{high}")
        number = int(value)
        if not low <= number <= high:
            raise ValueError(f"{number} is not in {low}..{high}")
        return number

    return parse


def choice(**choices: Any) -> Parse:
    def parse(value: str, quoted: bool) -> Any:
        if quoted or value not in choices:
            raise ValueError(f"{shown(value)} is not one of {', '.join(choices)}")
        return choices[value]

    return parse


def offload_size(value: str, quoted: bool) -> int:
    """OFFLDnSZ: a size in K, 0K..64K (``32K``), as KB."""
    if quoted:
        raise ValueError(f"{shown(value)} is not a size in K (0K..64K), such as 32K")
    return parse_size(value)


def text(longest: int) -> Parse:
    def parse(value: str, quoted: bool) -> str:
        if len(value) > longest:
            raise ValueError(f"longer than {longest} characters")
        return value

    return parse


_ENABLED = {"ENABLED": 0, "DISABLED": 1}  # MQQA_*_ALLOWED / MQQA_*_INHIBITED
_COMMON_QUEUE = {
    "DESCR": Keyword("description", text(64)),
    "PUT": Keyword("inhibit_put", choice(**_ENABLED)),
    "DEFPRTY": Keyword("def_priority", integer(0, 9)),
    "DEFPSIST": Keyword(
        "def_persistence", choice(NO=CMQC.MQPER_NOT_PERSISTENT, YES=CMQC.MQPER_PERSISTENT)
    ),
    "QSGDISP": Keyword(
        "qsg_disp",
        choice(
            QMGR=CMQC.MQQSGD_Q_MGR,
            SHARED=CMQC.MQQSGD_SHARED,
            GROUP=CMQC.MQQSGD_GROUP,
            COPY=CMQC.MQQSGD_COPY,
        ),
    ),
}
_LOCAL_QUEUE = {
    **_COMMON_QUEUE,
    "GET": Keyword("inhibit_get", choice(**_ENABLED)),
    "MSGDLVSQ": Keyword(
        "msg_delivery_sequence", choice(PRIORITY=CMQC.MQMDS_PRIORITY, FIFO=CMQC.MQMDS_FIFO)
    ),
    "MAXDEPTH": Keyword("max_depth", integer(0, 999_999_999)),
    "MAXMSGL": Keyword("max_msg_length", integer(0, MAX_MSG_LENGTH)),
    "INDXTYPE": Keyword(
        "index_type",
        choice(
            NONE=CMQC.MQIT_NONE,
            MSGID=CMQC.MQIT_MSG_ID,
            CORRELID=CMQC.MQIT_CORREL_ID,
            GROUPID=CMQC.MQIT_GROUP_ID,
            MSGTOKEN=CMQC.MQIT_MSG_TOKEN,
        ),
    ),
    "USAGE": Keyword("usage", choice(NORMAL=CMQC.MQUS_NORMAL, XMITQ=CMQC.MQUS_TRANSMISSION)),
    "CFSTRUCT": Keyword("cf_struct", name(12, "CF structure")),
    "DEFSOPT": Keyword(
        "def_input_open_option",
        choice(SHARED=CMQC.MQOO_INPUT_SHARED, EXCL=CMQC.MQOO_INPUT_EXCLUSIVE),
    ),
}
_EVENT = {"ENABLED": 1, "DISABLED": 0}  # MQEVR_ENABLED / MQEVR_DISABLED
_LOCAL_QUEUE.update(
    {
        # Performance events (IBM: "DEFINE queues", QDEPTHHI ... QSVCINT).
        "QDEPTHHI": Keyword("q_depth_high_limit", integer(0, 100)),
        "QDEPTHLO": Keyword("q_depth_low_limit", integer(0, 100)),
        "QDPHIEV": Keyword("q_depth_high_event", choice(**_EVENT)),
        "QDPLOEV": Keyword("q_depth_low_event", choice(**_EVENT)),
        "QDPMAXEV": Keyword("q_depth_max_event", choice(**_EVENT)),
        "QSVCINT": Keyword("q_service_interval", integer(0, 999_999_999)),
        "QSVCIEV": Keyword("q_service_interval_event", choice(NONE=0, HIGH=1, OK=2)),
        "TRIGTYPE": Keyword(
            "trigger_type",
            choice(
                NONE=CMQC.MQTT_NONE,
                FIRST=CMQC.MQTT_FIRST,
                EVERY=CMQC.MQTT_EVERY,
                DEPTH=CMQC.MQTT_DEPTH,
            ),
        ),
        "TRIGDPTH": Keyword("trigger_depth", integer(1, 999_999_999)),
        "TRIGMPRI": Keyword("trigger_msg_priority", integer(0, 9)),
        "TRIGDATA": Keyword("trigger_data", text(64)),
        "PROCESS": Keyword("process_name", name(48, "PROCESS")),
        "INITQ": Keyword("initiation_q_name", name(48, "INITQ queue")),
        "BOTHRESH": Keyword("backout_threshold", integer(0, 999_999_999)),
        "BOQNAME": Keyword("backout_requeue_name", name(48, "BOQNAME queue")),
        "RETINTVL": Keyword("retention_interval", integer(0, 999_999_999)),
    }
)
#: Keywords written bare: the field and value they set.
FLAGS: dict[str, tuple[str, Any]] = {
    "SHARE": ("shareability", CMQC.MQQA_SHAREABLE),
    "NOSHARE": ("shareability", CMQC.MQQA_NOT_SHAREABLE),
    "TRIGGER": ("trigger_control", CMQC.MQTC_ON),
    "NOTRIGGER": ("trigger_control", CMQC.MQTC_OFF),
    "HARDENBO": ("harden_get_backout", CMQC.MQQA_BACKOUT_HARDENED),
    "NOHARDENBO": ("harden_get_backout", CMQC.MQQA_BACKOUT_NOT_HARDENED),
}
_APPL_TYPES = {
    "CICS": CMQC.MQAT_CICS,
    "MVS": CMQC.MQAT_ZOS,
    "IMS": CMQC.MQAT_IMS,
    "UNIX": CMQC.MQAT_UNIX,
    "WINDOWS": 9,
    "WINDOWSNT": 11,
    "OS400": 8,
}


def appl_type(value: str, quoted: bool) -> int:
    """APPLTYPE: a platform's name, or a number (0..65535 IBM's, 65536..999999999 yours)."""
    if value.upper() in _APPL_TYPES:
        return _APPL_TYPES[value.upper()]
    return integer(0, 999_999_999)(value, quoted)  # type: ignore[no-any-return]


QLOCAL = _LOCAL_QUEUE
QMODEL = {
    **_LOCAL_QUEUE,
    "DEFTYPE": Keyword(
        "definition_type",
        choice(
            TEMPDYN=CMQC.MQQDT_TEMPORARY_DYNAMIC,
            PERMDYN=CMQC.MQQDT_PERMANENT_DYNAMIC,
            SHAREDYN=CMQC.MQQDT_SHARED_DYNAMIC,
        ),
    ),
}
QALIAS = {
    **_COMMON_QUEUE,
    "GET": Keyword("inhibit_get", choice(**_ENABLED)),
    "TARGET": Keyword("target", name(48, "TARGET queue")),
    "TARGQ": Keyword("target", name(48, "TARGQ queue")),
    "TARGTYPE": Keyword("", choice(QUEUE=None)),
}
QREMOTE = {
    **_COMMON_QUEUE,
    "RNAME": Keyword("remote_name", name(48, "RNAME queue")),
    "RQMNAME": Keyword("remote_q_mgr_name", name(48, "RQMNAME queue manager")),
    "XMITQ": Keyword("xmit_q_name", name(48, "XMITQ queue")),
}
CFSTRUCT = {
    "DESCR": Keyword("description", text(64)),
    "CFLEVEL": Keyword("cf_level", integer(1, 5)),
    "RECOVER": Keyword("recover", choice(NO=False, YES=True)),
    "RECAUTO": Keyword("recauto", choice(NO=False, YES=True)),
    "OFFLOAD": Keyword("offload", choice(SMDS="SMDS", DB2="DB2")),
    # The offload rules (CFLEVEL(5)): OFFLDnTH a per cent 0..100, OFFLDnSZ 0K..64K.
    "OFFLD1TH": Keyword("offload_threshold1", integer(0, 100)),
    "OFFLD1SZ": Keyword("offload_size1", offload_size),
    "OFFLD2TH": Keyword("offload_threshold2", integer(0, 100)),
    "OFFLD2SZ": Keyword("offload_size2", offload_size),
    "OFFLD3TH": Keyword("offload_threshold3", integer(0, 100)),
    "OFFLD3SZ": Keyword("offload_size3", offload_size),
}
CHANNEL = {
    "DESCR": Keyword("description", text(64)),
    "CHLTYPE": Keyword(
        "channel_type",
        choice(
            SDR=CMQC.MQCHT_SENDER,
            SVR=CMQC.MQCHT_SERVER,
            RCVR=CMQC.MQCHT_RECEIVER,
            RQSTR=CMQC.MQCHT_REQUESTER,
        ),
    ),
    "CONNAME": Keyword("conn_name", text(264)),
    "XMITQ": Keyword("xmit_q_name", name(48, "XMITQ queue")),
    "BATCHSZ": Keyword("batch_size", integer(1, 9999)),
    "SHORTRTY": Keyword("short_retry_count", integer(0, 999_999_999)),
    "SHORTTMR": Keyword("short_retry_interval", integer(0, 999_999_999)),
    "LONGRTY": Keyword("long_retry_count", integer(0, 999_999_999)),
    "LONGTMR": Keyword("long_retry_interval", integer(0, 999_999_999)),
    "HBINT": Keyword("heartbeat_interval", integer(0, 999_999)),
    "TRPTYPE": Keyword("", choice(TCP=None)),
}
PROCESS = {
    "DESCR": Keyword("description", text(64)),
    "APPLTYPE": Keyword("appl_type", appl_type),
    "APPLICID": Keyword("appl_id", text(256)),
    "ENVRDATA": Keyword("env_data", text(128)),
    "USERDATA": Keyword("user_data", text(128)),
}
QMGR = {
    "DESCR": Keyword("description", text(64)),
    "TRIGINT": Keyword("trigger_interval", integer(0, 999_999_999)),
    "EXPRYINT": Keyword("expiry_interval", integer(1, 99_999_999, off=0)),
    "DEADQ": Keyword("dead_letter_queue", name(48, "DEADQ queue")),
    "DEFXMITQ": Keyword("def_xmit_q_name", name(48, "DEFXMITQ queue")),
    "MAXUMSGS": Keyword("max_uncommitted_msgs", integer(1, 999_999_999)),
    # The event switches (IBM: "ALTER QMGR").
    "PERFMEV": Keyword("performance_event", choice(**_EVENT)),
    "INHIBTEV": Keyword("inhibit_event", choice(**_EVENT)),
    "LOCALEV": Keyword("local_event", choice(**_EVENT)),
    "AUTHOREV": Keyword("authority_event", choice(**_EVENT)),
    "CHLEV": Keyword("channel_event", choice(**_EVENT)),
    # Intra-group queuing (qsg/core/igq.py): IGQ(ENABLED) switches outbound use on.
    "IGQ": Keyword("intra_group_queuing", choice(ENABLED=True, DISABLED=False)),
    "IGQAUT": Keyword(
        "igq_put_authority",
        choice(
            DEF=CMQC.MQIGQPA_DEFAULT,
            CTX=CMQC.MQIGQPA_CONTEXT,
            ONLYIGQ=CMQC.MQIGQPA_ONLY_IGQ,
            ALTIGQ=CMQC.MQIGQPA_ALTERNATE_OR_IGQ,
        ),
    ),
    "IGQUSER": Keyword("igq_user_id", text(12)),
    "SQQMNAME": Keyword(
        "shared_q_q_mgr_name", choice(USE=CMQC.MQSQQM_USE, IGNORE=CMQC.MQSQQM_IGNORE)
    ),
}

#: Object types and their abbreviations, as MQSC accepts them.
OBJECT_TYPES = {
    "QLOCAL": "QLOCAL",
    "QL": "QLOCAL",
    "QMODEL": "QMODEL",
    "QM": "QMODEL",
    "QALIAS": "QALIAS",
    "QA": "QALIAS",
    "QREMOTE": "QREMOTE",
    "QR": "QREMOTE",
    "CFSTRUCT": "CFSTRUCT",
    "CHANNEL": "CHANNEL",
    "CHL": "CHANNEL",
    "PROCESS": "PROCESS",
    "PRO": "PROCESS",
    "QMGR": "QMGR",
}
VERBS = {"DEFINE": "DEFINE", "DEF": "DEFINE", "ALTER": "ALTER", "ALT": "ALTER", "DELETE": "DELETE"}
KEYWORDS: dict[str, dict[str, Keyword]] = {
    "QLOCAL": QLOCAL,
    "QMODEL": QMODEL,
    "QALIAS": QALIAS,
    "QREMOTE": QREMOTE,
    "CFSTRUCT": CFSTRUCT,
    "CHANNEL": CHANNEL,
    "PROCESS": PROCESS,
    "QMGR": QMGR,
}
#: How long each type's name may be.
NAME_LENGTHS = {"CFSTRUCT": 12, "CHANNEL": 20}
