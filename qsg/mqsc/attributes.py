"""Each object of a snapshot as DISPLAY shows it: MQSC attribute names and values.

An object becomes an ordered list of ``(KEYWORD, value)``: the value as MQSC spells it
(``QLOCAL``, ``SHARED``, ``ENABLED``, a number), or None for a keyword shown bare
(``SHARE``, ``NOTRIGGER``). The identifying keywords come first and are always shown;
the others when asked for by name or by ALL. The same lists serve WHERE filtering, so a
filter compares what the administrator would see.
"""

from __future__ import annotations

from qsg import CMQC
from qsg.core.objects import AliasQueue, RemoteQueue
from qsg.core.offload import format_size
from qsg.core.queue import QueueDefinition
from qsg.mqsc.status import ChannelView, HandleView, QueueView, Snapshot, StructureView

Value = str | int | None
Attributes = list[tuple[str, Value]]

QSGDISP = {
    CMQC.MQQSGD_Q_MGR: "QMGR",
    CMQC.MQQSGD_SHARED: "SHARED",
    CMQC.MQQSGD_GROUP: "GROUP",
    CMQC.MQQSGD_COPY: "COPY",
}
QUEUE_TYPES = {
    CMQC.MQQT_LOCAL: "QLOCAL",
    CMQC.MQQT_MODEL: "QMODEL",
    CMQC.MQQT_ALIAS: "QALIAS",
    CMQC.MQQT_REMOTE: "QREMOTE",
}
CHANNEL_TYPES = {
    CMQC.MQCHT_SENDER: "SDR",
    CMQC.MQCHT_SERVER: "SVR",
    CMQC.MQCHT_RECEIVER: "RCVR",
    CMQC.MQCHT_REQUESTER: "RQSTR",
}
_DEFTYPE = {
    CMQC.MQQDT_PREDEFINED: "PREDEFINED",
    CMQC.MQQDT_PERMANENT_DYNAMIC: "PERMDYN",
    CMQC.MQQDT_TEMPORARY_DYNAMIC: "TEMPDYN",
    CMQC.MQQDT_SHARED_DYNAMIC: "SHAREDYN",
}
_INDXTYPE = {
    CMQC.MQIT_NONE: "NONE",
    CMQC.MQIT_MSG_ID: "MSGID",
    CMQC.MQIT_CORREL_ID: "CORRELID",
    CMQC.MQIT_GROUP_ID: "GROUPID",
    CMQC.MQIT_MSG_TOKEN: "MSGTOKEN",
}
_TRIGTYPE = {
    CMQC.MQTT_NONE: "NONE",
    CMQC.MQTT_FIRST: "FIRST",
    CMQC.MQTT_EVERY: "EVERY",
    CMQC.MQTT_DEPTH: "DEPTH",
}


def _enabled(inhibited: int) -> str:
    return "DISABLED" if inhibited else "ENABLED"


_QSVCIEV = {0: "NONE", 1: "HIGH", 2: "OK"}  # MQQSIE_*


def _event(switch: object) -> str:
    """An event switch (MQEVR_ENABLED 1, MQEVR_DISABLED 0) as MQSC shows it."""
    return "ENABLED" if switch == 1 else "DISABLED"


def _yes(flag: bool) -> str:
    return "YES" if flag else "NO"


def queue(view: QueueView) -> Attributes:
    """DISPLAY QUEUE: QUEUE, TYPE and QSGDISP first, then the type's own attributes."""
    obj = view.obj
    out: Attributes = [
        ("QUEUE", obj.name),
        ("TYPE", QUEUE_TYPES[obj.q_type]),
        ("QSGDISP", QSGDISP[obj.qsg_disp]),
    ]
    if isinstance(obj, QueueDefinition):
        out += [("CFSTRUCT", obj.cf_struct)]
    out += [
        ("DESCR", obj.description),
        ("PUT", _enabled(obj.inhibit_put)),
        ("DEFPRTY", obj.def_priority),
        ("DEFPSIST", _yes(obj.def_persistence == CMQC.MQPER_PERSISTENT)),
    ]
    if isinstance(obj, AliasQueue):
        out += [("GET", _enabled(obj.inhibit_get)), ("TARGET", obj.target), ("TARGTYPE", "QUEUE")]
    elif isinstance(obj, RemoteQueue):
        out += [
            ("RNAME", obj.remote_name),
            ("RQMNAME", obj.remote_q_mgr_name),
            ("XMITQ", obj.xmit_q_name),
        ]
    else:
        out += [
            ("GET", _enabled(obj.inhibit_get)),
            ("MAXDEPTH", obj.max_depth),
            ("MAXMSGL", obj.max_msg_length),
            ("MSGDLVSQ", "FIFO" if obj.msg_delivery_sequence == CMQC.MQMDS_FIFO else "PRIORITY"),
            ("USAGE", "XMITQ" if obj.is_transmission_queue else "NORMAL"),
            ("INDXTYPE", _INDXTYPE[obj.index_type]),
            ("DEFTYPE", _DEFTYPE[obj.definition_type]),
            ("SHARE" if obj.shareability == CMQC.MQQA_SHAREABLE else "NOSHARE", None),
            (
                "DEFSOPT",
                "EXCL" if obj.def_input_open_option == CMQC.MQOO_INPUT_EXCLUSIVE else "SHARED",
            ),
            ("TRIGGER" if obj.trigger_control == CMQC.MQTC_ON else "NOTRIGGER", None),
            ("TRIGTYPE", _TRIGTYPE[obj.trigger_type]),
            ("TRIGDPTH", obj.trigger_depth),
            ("TRIGMPRI", obj.trigger_msg_priority),
            ("TRIGDATA", obj.trigger_data),
            ("PROCESS", obj.process_name),
            ("INITQ", obj.initiation_q_name),
            ("BOTHRESH", obj.backout_threshold),
            ("BOQNAME", obj.backout_requeue_name),
            (
                "HARDENBO"
                if obj.harden_get_backout == CMQC.MQQA_BACKOUT_HARDENED
                else "NOHARDENBO",
                None,
            ),
            ("RETINTVL", obj.retention_interval),
            ("QDEPTHHI", obj.q_depth_high_limit),
            ("QDEPTHLO", obj.q_depth_low_limit),
            ("QDPHIEV", _event(obj.q_depth_high_event)),
            ("QDPLOEV", _event(obj.q_depth_low_event)),
            ("QDPMAXEV", _event(obj.q_depth_max_event)),
            ("QSVCINT", obj.q_service_interval),
            ("QSVCIEV", _QSVCIEV[obj.q_service_interval_event]),
        ]
        if view.local:
            out += [("CURDEPTH", view.depth), ("IPPROCS", view.ipprocs), ("OPPROCS", view.opprocs)]
    return out


def queue_status(view: QueueView) -> Attributes:
    """DISPLAY QSTATUS TYPE(QUEUE): the queue's status on this queue manager. UNCOM is
    YES or NO, as z/OS gives it."""
    return [
        ("QSTATUS", view.obj.name),
        ("TYPE", "QUEUE"),
        ("QSGDISP", QSGDISP[view.obj.qsg_disp]),
        ("CURDEPTH", view.depth),
        ("IPPROCS", view.ipprocs),
        ("OPPROCS", view.opprocs),
        ("UNCOM", _yes(view.uncommitted > 0)),
    ]


def handle_status(view: QueueView, handle: HandleView) -> Attributes:
    """DISPLAY QSTATUS TYPE(HANDLE): one open handle of the queue."""
    options = handle.options
    return [
        ("QSTATUS", view.obj.name),
        ("TYPE", "HANDLE"),
        ("QSGDISP", QSGDISP[view.obj.qsg_disp]),
        ("APPLTAG", handle.appl_tag),
        ("APPLTYPE", "USER"),
        ("CONN", f"{handle.connection:016X}"),
        ("USERID", handle.user),
        ("INPUT", handle.input),
        ("OUTPUT", _yes(bool(options & CMQC.MQOO_OUTPUT))),
        ("BROWSE", _yes(bool(options & CMQC.MQOO_BROWSE))),
        ("INQUIRE", _yes(bool(options & CMQC.MQOO_INQUIRE))),
        ("SET", _yes(bool(options & CMQC.MQOO_SET))),
    ]


def channel(view: ChannelView) -> Attributes:
    """DISPLAY CHANNEL."""
    d = view.definition
    return [
        ("CHANNEL", d.name),
        ("CHLTYPE", CHANNEL_TYPES[d.channel_type]),
        ("QSGDISP", "QMGR"),
        ("TRPTYPE", "TCP"),
        ("DESCR", d.description),
        ("CONNAME", d.conn_name),
        ("XMITQ", d.xmit_q_name),
        ("BATCHSZ", d.batch_size),
        ("SHORTRTY", d.short_retry_count),
        ("SHORTTMR", d.short_retry_interval),
        ("LONGRTY", d.long_retry_count),
        ("LONGTMR", d.long_retry_interval),
        ("HBINT", d.heartbeat_interval),
    ]


def channel_status(view: ChannelView) -> Attributes:
    """DISPLAY CHSTATUS: the current status of a channel instance."""
    d = view.definition
    return [
        ("CHSTATUS", d.name),
        ("CHLDISP", "PRIVATE"),
        ("XMITQ", d.xmit_q_name),
        ("CONNAME", d.conn_name),
        ("CURRENT", None),
        ("CHLTYPE", CHANNEL_TYPES[d.channel_type]),
        ("STATUS", view.status),
        ("STOPREQ", "NO"),
        ("MSGS", view.messages),
        ("BATCHES", view.batches),
        ("BATCHSZ", d.batch_size),
    ]


def qmgr(snapshot: Snapshot) -> Attributes:
    """DISPLAY QMGR. EXPRYINT is OFF or seconds; COMMANDQ is z/OS's command input queue."""
    a = snapshot.attributes
    expiry = a.get("EXPRYINT") or 0
    return [
        ("QMNAME", snapshot.q_mgr),
        ("QSGNAME", snapshot.qsg),
        ("PLATFORM", "MVS" if snapshot.platform == CMQC.MQPL_ZOS else "UNIX"),
        ("COMMANDQ", "SYSTEM.COMMAND.INPUT"),
        ("DESCR", str(a.get("DESCR", ""))),
        ("DEADQ", str(a.get("DEADQ", ""))),
        ("DEFXMITQ", str(a.get("DEFXMITQ", ""))),
        ("EXPRYINT", int(str(expiry)) if expiry else "OFF"),
        ("MAXUMSGS", _int(a.get("MAXUMSGS"))),
        ("MAXMSGL", _int(a.get("MAXMSGL"))),
        ("TRIGINT", _int(a.get("TRIGINT"))),
        ("PERFMEV", _event(a.get("PERFMEV"))),
        ("INHIBTEV", _event(a.get("INHIBTEV"))),
        ("LOCALEV", _event(a.get("LOCALEV"))),
        ("AUTHOREV", _event(a.get("AUTHOREV"))),
        ("CHLEV", _event(a.get("CHLEV"))),
        ("IGQ", str(a.get("IGQ", "DISABLED"))),
        ("IGQAUT", str(a.get("IGQAUT", "DEF"))),
        ("IGQUSER", str(a.get("IGQUSER", ""))),
        ("SQQMNAME", str(a.get("SQQMNAME", "USE"))),
    ]


def _int(value: object) -> int:
    return int(str(value)) if value is not None else 0


def cf_structure(view: StructureView) -> Attributes:
    """DISPLAY CFSTRUCT, with the offload rules as MQSC writes them (``OFFLD1SZ(32K)``)."""
    d = view.definition
    return [
        ("CFSTRUCT", d.name),
        ("CFLEVEL", d.cf_level),
        ("DESCR", d.description),
        ("RECOVER", _yes(d.recover)),
        ("RECAUTO", _yes(d.recauto)),
        ("OFFLOAD", d.offload),
        ("OFFLD1TH", d.offload_threshold1),
        ("OFFLD1SZ", format_size(d.offload_size1)),
        ("OFFLD2TH", d.offload_threshold2),
        ("OFFLD2SZ", format_size(d.offload_size2)),
        ("OFFLD3TH", d.offload_threshold3),
        ("OFFLD3SZ", format_size(d.offload_size3)),
    ]


def cf_status(view: StructureView, kind: str = "SUMMARY") -> list[Attributes]:
    """DISPLAY CFSTATUS TYPE(SUMMARY | CONNECT | BACKUP | SMDS): one answer for SUMMARY
    and BACKUP, one per member for CONNECT and SMDS (SMDS only with OFFLOAD(SMDS)).
    SUMMARY: SIZEMAX is the structure's size in KB, SIZEUSED the share of its elements
    in use (per cent); ENTSMAX and ENTSUSED count entries (one a message); ELEMMAX and
    ELEMUSED, the elements, are this simulator's own. STATUS is ACTIVE or FAILED;
    BACKUP's is NONE until a BACKUP CFSTRUCT; LOGQMGRS names the members whose logs a
    recovery reads, and LOGRECS (this simulator's) how many records, once it failed."""
    name = view.definition.name
    state = view.state
    fail_date, fail_time = view.failed
    head: Attributes = [("CFSTATUS", name), ("TYPE", kind)]
    if kind == "CONNECT":
        status = "FAILED" if view.status == "FAILED" else "ACTIVE"
        return [
            [
                *head,
                ("QMNAME", member),
                ("STATUS", status),
                ("FAILDATE", fail_date),
                ("FAILTIME", fail_time),
            ]
            for member in view.members
        ]
    if kind == "SMDS":
        if view.definition.offload != "SMDS" or view.definition.cf_level < 5:
            return []
        status = "FAILED" if view.status == "FAILED" else "ACTIVE"
        return [
            [*head, ("SMDS", member), ("STATUS", status), ("ACCESS", "ENABLED")]
            for member in view.members
        ]
    if kind == "BACKUP":
        backup_date, backup_time = view.backed_up
        status = view.status
        if status != "FAILED" and (state is None or state.backup_at is None):
            status = "NONE"
        size = state.backup_bytes if state is not None else 0
        return [
            [
                *head,
                ("STATUS", status),
                ("BKUPDATE", backup_date),
                ("BKUPTIME", backup_time),
                ("BKUPSIZE", -(-size // (1024 * 1024))),
                ("BKUPMSGS", state.backup_messages if state is not None else 0),
                ("LOGQMGRS", ",".join(view.members)),
                ("LOGRECS", state.log_records if state is not None else 0),
                ("FAILDATE", fail_date),
                ("FAILTIME", fail_time),
            ]
        ]
    used = view.elements * 100 // view.max_elements if view.max_elements else 0
    return [
        [
            *head,
            ("CFTYPE", "APPL"),
            ("STATUS", view.status),
            ("SIZEMAX", view.definition.size_kb),
            ("SIZEUSED", used),
            ("ENTSMAX", view.max_entries),
            ("ENTSUSED", view.entries),
            ("ELEMMAX", view.max_elements),
            ("ELEMUSED", view.elements),
            ("FAILDATE", fail_date),
            ("FAILTIME", fail_time),
        ]
    ]


__all__ = [
    "CHANNEL_TYPES",
    "QSGDISP",
    "QUEUE_TYPES",
    "Attributes",
    "Value",
    "cf_status",
    "cf_structure",
    "channel",
    "channel_status",
    "handle_status",
    "qmgr",
    "queue",
    "queue_status",
]
