"""The queue attributes: DEFINE / ALTER / DISPLAY QLOCAL, QMODEL, QALIAS and QREMOTE,
the PCF parameters of Create, Change and Inquire Queue, MQINQ and MQSET of a queue.

Rows are in the order DISPLAY QUEUE shows them. Keywords, ranges and defaults are those
of IBM's "DEFINE queues" and "ALTER queues" for z/OS; the identifiers are IBM's cmqc.h.
"""

from __future__ import annotations

from qsg import CMQC
from qsg import CMQCFC as F
from qsg.core.attributes.attribute import (
    LOCAL,
    QALIAS,
    QLOCAL,
    QMODEL,
    QREMOTE,
    QUEUES,
    Attribute,
    row,
)
from qsg.core.attributes.kinds import Choice, Number, Text
from qsg.core.queue import MAX_MSG_LENGTH

_ENABLED = {"ENABLED": 0, "DISABLED": 1}  # MQQA_*_ALLOWED / MQQA_*_INHIBITED
_ONE = frozenset
#: The whole-number range most MQSC counts take (MQLONG's positive values IBM allows).
_COUNT = Number(0, 999_999_999)

QSGDISP = Choice(
    {
        "QMGR": CMQC.MQQSGD_Q_MGR,
        "COPY": CMQC.MQQSGD_COPY,
        "SHARED": CMQC.MQQSGD_SHARED,
        "GROUP": CMQC.MQQSGD_GROUP,
    }
)
Q_TYPE = Choice(
    {
        "QLOCAL": CMQC.MQQT_LOCAL,
        "QMODEL": CMQC.MQQT_MODEL,
        "QALIAS": CMQC.MQQT_ALIAS,
        "QREMOTE": CMQC.MQQT_REMOTE,
    }
)
_INDXTYPE = Choice(
    {
        "NONE": CMQC.MQIT_NONE,
        "MSGID": CMQC.MQIT_MSG_ID,
        "CORRELID": CMQC.MQIT_CORREL_ID,
        "GROUPID": CMQC.MQIT_GROUP_ID,
        "MSGTOKEN": CMQC.MQIT_MSG_TOKEN,
    }
)
_DEFTYPE = Choice(
    {
        "PREDEFINED": CMQC.MQQDT_PREDEFINED,
        "PERMDYN": CMQC.MQQDT_PERMANENT_DYNAMIC,
        "TEMPDYN": CMQC.MQQDT_TEMPORARY_DYNAMIC,
        "SHAREDYN": CMQC.MQQDT_SHARED_DYNAMIC,
    }
)
_TRIGTYPE = Choice(
    {
        "NONE": CMQC.MQTT_NONE,
        "FIRST": CMQC.MQTT_FIRST,
        "EVERY": CMQC.MQTT_EVERY,
        "DEPTH": CMQC.MQTT_DEPTH,
    }
)
_PERSISTENCE = Choice({"NO": CMQC.MQPER_NOT_PERSISTENT, "YES": CMQC.MQPER_PERSISTENT})
_SEQUENCE = Choice({"PRIORITY": CMQC.MQMDS_PRIORITY, "FIFO": CMQC.MQMDS_FIFO})
_USAGE = Choice({"NORMAL": CMQC.MQUS_NORMAL, "XMITQ": CMQC.MQUS_TRANSMISSION})
_SHARE = Choice({"SHARE": CMQC.MQQA_SHAREABLE, "NOSHARE": CMQC.MQQA_NOT_SHAREABLE}, bare=True)
_DEFSOPT = Choice({"SHARED": CMQC.MQOO_INPUT_SHARED, "EXCL": CMQC.MQOO_INPUT_EXCLUSIVE})
_TRIGGER = Choice({"TRIGGER": CMQC.MQTC_ON, "NOTRIGGER": CMQC.MQTC_OFF}, bare=True)
_HARDENBO = Choice(
    {"HARDENBO": CMQC.MQQA_BACKOUT_HARDENED, "NOHARDENBO": CMQC.MQQA_BACKOUT_NOT_HARDENED},
    bare=True,
)
_MONITOR = Choice({"QMGR": CMQC.MQMON_Q_MGR, "OFF": CMQC.MQMON_OFF, "ON": CMQC.MQMON_ON})
_MONITOR_LEVEL = Choice(
    {
        "QMGR": CMQC.MQMON_Q_MGR,
        "OFF": CMQC.MQMON_OFF,
        "LOW": CMQC.MQMON_LOW,
        "MEDIUM": CMQC.MQMON_MEDIUM,
        "HIGH": CMQC.MQMON_HIGH,
    }
)
_CLWLUSEQ = Choice(
    {
        "QMGR": CMQC.MQCLWL_USEQ_AS_Q_MGR,
        "ANY": CMQC.MQCLWL_USEQ_ANY,
        "LOCAL": CMQC.MQCLWL_USEQ_LOCAL,
    }
)
_DEFBIND = Choice(
    {
        "OPEN": CMQC.MQBND_BIND_ON_OPEN,
        "NOTFIXED": CMQC.MQBND_BIND_NOT_FIXED,
        "GROUP": CMQC.MQBND_BIND_ON_GROUP,
    }
)
_DEFPRESP = Choice({"SYNC": CMQC.MQPRT_SYNC_RESPONSE, "ASYNC": CMQC.MQPRT_ASYNC_RESPONSE})
_DEFREADA = Choice(
    {"NO": CMQC.MQREADA_NO, "YES": CMQC.MQREADA_YES, "DISABLED": CMQC.MQREADA_DISABLED}
)
_PROPCTL = Choice(
    {
        "COMPAT": CMQC.MQPROP_COMPATIBILITY,
        "NONE": CMQC.MQPROP_NONE,
        "ALL": CMQC.MQPROP_ALL,
        "FORCE": CMQC.MQPROP_FORCE_MQRFH2,
        "V6COMPAT": CMQC.MQPROP_V6COMPAT,
    }
)
_EVENT = Choice({"ENABLED": F.MQEVR_ENABLED, "DISABLED": F.MQEVR_DISABLED})
_QSVCIEV = Choice({"NONE": F.MQQSIE_NONE, "HIGH": F.MQQSIE_HIGH, "OK": F.MQQSIE_OK})
_STRMQOS = Choice({"BESTEF": CMQC.MQST_BEST_EFFORT, "MUSTDUP": CMQC.MQST_MUST_DUP})
_Q3 = frozenset({QLOCAL, QALIAS, QREMOTE})
_NO_CLUSTERS = "clusters are not simulated (the queue-sharing group is)"
# IBM: MQINQ of the performance event attributes is not supported on z/OS ("MQINQ").
_PERFM = " with PERFMEV(ENABLED) (docs/mq-events.md); not inquirable with MQINQ on z/OS"
_NO_SMF = "accounting data (SMF) is not collected"

QUEUE: tuple[Attribute, ...] = (
    row(
        "QUEUE",
        Text(48, "queue"),
        QUEUES,
        "",
        field="name",
        role="name",
        parameter=CMQC.MQCA_Q_NAME,
        inquire=True,
        effect="the queue's name",
    ),
    row(
        "TYPE",
        Q_TYPE,
        QUEUES,
        CMQC.MQQT_LOCAL,
        field="q_type",
        role="fixed",
        parameter=CMQC.MQIA_Q_TYPE,
        inquire=True,
        effect="the type of queue",
    ),
    row(
        "QSGDISP",
        QSGDISP,
        QUEUES,
        CMQC.MQQSGD_Q_MGR,
        field="qsg_disp",
        parameter=CMQC.MQIA_QSG_DISP,
        inquire=True,
        effect="QMGR: the member's own queue; SHARED: a shared queue on a CF structure",
    ),
    row(
        "CFSTRUCT",
        Text(12, "CF structure"),
        LOCAL,
        "",
        field="cf_struct",
        parameter=CMQC.MQCA_CF_STRUC_NAME,
        inquire=True,
        effect="the CF structure a shared queue's messages are kept in",
    ),
    row(
        "DESCR",
        Text(64),
        QUEUES,
        "",
        field="description",
        parameter=CMQC.MQCA_Q_DESC,
        inquire=True,
        effect="shown and inquired",
    ),
    row(
        "PUT",
        Choice(_ENABLED),
        QUEUES,
        0,
        field="inhibit_put",
        parameter=CMQC.MQIA_INHIBIT_PUT,
        inquire=True,
        set_error=CMQC.MQRC_INHIBIT_VALUE_ERROR,
        effect="DISABLED: MQPUT and MQPUT1 fail with MQRC_PUT_INHIBITED (2051)",
    ),
    row(
        "DEFPRTY",
        Number(0, 9),
        QUEUES,
        0,
        field="def_priority",
        parameter=CMQC.MQIA_DEF_PRIORITY,
        inquire=True,
        effect="the priority of a message put with MQPRI_PRIORITY_AS_Q_DEF",
    ),
    row(
        "DEFPSIST",
        _PERSISTENCE,
        QUEUES,
        CMQC.MQPER_NOT_PERSISTENT,
        field="def_persistence",
        parameter=CMQC.MQIA_DEF_PERSISTENCE,
        inquire=True,
        effect="the persistence of a message put with MQPER_PERSISTENCE_AS_Q_DEF",
    ),
    row(
        "GET",
        Choice(_ENABLED),
        LOCAL | {QALIAS},
        0,
        field="inhibit_get",
        parameter=CMQC.MQIA_INHIBIT_GET,
        inquire=True,
        set_error=CMQC.MQRC_INHIBIT_VALUE_ERROR,
        effect="DISABLED: MQGET fails with MQRC_GET_INHIBITED (2016)",
    ),
    row(
        "TARGET",
        Text(48, "TARGET queue"),
        _ONE({QALIAS}),
        None,
        field="target",
        synonyms=("TARGQ",),
        parameter=CMQC.MQCA_BASE_Q_NAME,
        inquire=True,
        effect="the queue an alias resolves to",
    ),
    row(
        "TARGTYPE",
        # IBM's TARGTYPE(TOPIC) names a topic object: qsg has none to name.
        Choice(
            {"QUEUE": CMQC.MQOT_Q},
            refused={"TOPIC": "is not simulated (qsg has no topics: an alias names a queue)"},
        ),
        _ONE({QALIAS}),
        CMQC.MQOT_Q,
        parameter=CMQC.MQIA_BASE_TYPE,
        inquire=True,
        effect="QUEUE only: an alias of a queue (topics are not simulated)",
    ),
    row(
        "RNAME",
        Text(48, "RNAME queue"),
        _ONE({QREMOTE}),
        "",
        field="remote_name",
        parameter=CMQC.MQCA_REMOTE_Q_NAME,
        inquire=True,
        effect="the queue's name at the remote queue manager; blank: a queue-manager alias",
    ),
    row(
        "RQMNAME",
        Text(48, "RQMNAME queue manager"),
        _ONE({QREMOTE}),
        "",
        field="remote_q_mgr_name",
        parameter=CMQC.MQCA_REMOTE_Q_MGR_NAME,
        inquire=True,
        effect="the remote queue manager",
    ),
    row(
        "XMITQ",
        Text(48, "XMITQ queue"),
        _ONE({QREMOTE}),
        "",
        field="xmit_q_name",
        parameter=CMQC.MQCA_XMIT_Q_NAME,
        inquire=True,
        effect="the transmission queue a put through the definition goes to",
    ),
    row(
        "MAXDEPTH",
        _COUNT,
        LOCAL,
        5000,
        field="max_depth",
        parameter=CMQC.MQIA_MAX_Q_DEPTH,
        inquire=True,
        effect="a put to a full queue fails with MQRC_Q_FULL (2053)",
    ),
    row(
        "MAXMSGL",
        Number(0, MAX_MSG_LENGTH),
        LOCAL,
        4_194_304,
        field="max_msg_length",
        parameter=CMQC.MQIA_MAX_MSG_LENGTH,
        inquire=True,
        effect="a longer message fails with MQRC_MSG_TOO_BIG_FOR_Q (2030)",
    ),
    row(
        "MSGDLVSQ",
        _SEQUENCE,
        LOCAL,
        CMQC.MQMDS_PRIORITY,
        field="msg_delivery_sequence",
        parameter=CMQC.MQIA_MSG_DELIVERY_SEQUENCE,
        inquire=True,
        effect="the order MQGET takes messages in",
    ),
    row(
        "USAGE",
        _USAGE,
        LOCAL,
        CMQC.MQUS_NORMAL,
        field="usage",
        parameter=CMQC.MQIA_USAGE,
        inquire=True,
        effect="XMITQ: a transmission queue a sender channel serves",
    ),
    row(
        "INDXTYPE",
        _INDXTYPE,
        LOCAL,
        CMQC.MQIT_NONE,
        field="index_type",
        parameter=CMQC.MQIA_INDEX_TYPE,
        inquire=True,
        effect="checked as z/OS checks it for shared queues and message groups",
    ),
    row(
        "DEFTYPE",
        _DEFTYPE,
        _ONE({QMODEL}),
        CMQC.MQQDT_TEMPORARY_DYNAMIC,
        field="definition_type",
        shown_on=_ONE({QLOCAL}),
        parameter=CMQC.MQIA_DEFINITION_TYPE,
        inquire=True,
        effect="the kind of dynamic queue MQOPEN of the model makes",
    ),
    row(
        "SHARE",
        _SHARE,
        LOCAL,
        CMQC.MQQA_SHAREABLE,
        field="shareability",
        parameter=CMQC.MQIA_SHAREABILITY,
        inquire=True,
        effect="NOSHARE: one input handle at a time",
    ),
    row(
        "DEFSOPT",
        _DEFSOPT,
        LOCAL,
        CMQC.MQOO_INPUT_EXCLUSIVE,
        field="def_input_open_option",
        parameter=CMQC.MQIA_DEF_INPUT_OPEN_OPTION,
        inquire=True,
        effect="what MQOO_INPUT_AS_Q_DEF opens with",
    ),
    row(
        "TRIGGER",
        _TRIGGER,
        LOCAL,
        CMQC.MQTC_OFF,
        field="trigger_control",
        parameter=CMQC.MQIA_TRIGGER_CONTROL,
        inquire=True,
        set_error=CMQC.MQRC_TRIGGER_CONTROL_ERROR,
        effect="trigger messages on INITQ (docs/triggering.md)",
    ),
    row(
        "TRIGTYPE",
        _TRIGTYPE,
        LOCAL,
        CMQC.MQTT_FIRST,
        field="trigger_type",
        parameter=CMQC.MQIA_TRIGGER_TYPE,
        inquire=True,
        set_error=CMQC.MQRC_TRIGGER_TYPE_ERROR,
        effect="when a trigger message is written",
    ),
    row(
        "TRIGDPTH",
        Number(1, 999_999_999),
        LOCAL,
        1,
        field="trigger_depth",
        parameter=CMQC.MQIA_TRIGGER_DEPTH,
        inquire=True,
        set_error=CMQC.MQRC_TRIGGER_DEPTH_ERROR,
        effect="TRIGTYPE(DEPTH)'s depth",
    ),
    row(
        "TRIGMPRI",
        Number(0, 9),
        LOCAL,
        0,
        field="trigger_msg_priority",
        parameter=CMQC.MQIA_TRIGGER_MSG_PRIORITY,
        inquire=True,
        set_error=CMQC.MQRC_TRIGGER_MSG_PRIORITY_ERR,
        effect="the lowest priority that counts for triggering",
    ),
    row(
        "TRIGDATA",
        Text(64),
        LOCAL,
        "",
        field="trigger_data",
        parameter=CMQC.MQCA_TRIGGER_DATA,
        inquire=True,
        set_error=CMQC.MQRC_CHAR_ATTR_LENGTH_ERROR,
        effect="copied into the MQTM",
    ),
    row(
        "PROCESS",
        Text(48, "PROCESS"),
        LOCAL,
        "",
        field="process_name",
        parameter=CMQC.MQCA_PROCESS_NAME,
        inquire=True,
        effect="the process definition copied into the MQTM",
    ),
    row(
        "INITQ",
        Text(48, "INITQ queue"),
        LOCAL,
        "",
        field="initiation_q_name",
        parameter=CMQC.MQCA_INITIATION_Q_NAME,
        inquire=True,
        effect="where trigger messages go",
    ),
    row(
        "ACCTQ",
        _MONITOR,
        LOCAL,
        CMQC.MQMON_Q_MGR,
        parameter=CMQC.MQIA_ACCOUNTING_Q,
        inquire=True,
        why=_NO_SMF,
    ),
    row(
        "BOQNAME",
        Text(48, "BOQNAME queue"),
        LOCAL,
        "",
        field="backout_requeue_name",
        parameter=CMQC.MQCA_BACKOUT_REQ_Q_NAME,
        inquire=True,
        effect="read with MQINQ: where an application moves a message backed out too often",
    ),
    row(
        "BOTHRESH",
        _COUNT,
        LOCAL,
        0,
        field="backout_threshold",
        parameter=CMQC.MQIA_BACKOUT_THRESHOLD,
        inquire=True,
        effect="read with MQINQ: the BackoutCount at which an application moves a message",
    ),
    row(
        "HARDENBO",
        _HARDENBO,
        LOCAL,
        CMQC.MQQA_BACKOUT_NOT_HARDENED,
        field="harden_get_backout",
        parameter=CMQC.MQIA_HARDEN_GET_BACKOUT,
        inquire=True,
        effect="whether BackoutCount survives a restart",
    ),
    row(
        "CAPEXPRY",
        Number(1, 999_999_999, {"NOLIMIT": -1}),
        QUEUES,
        -1,
        parameter=CMQC.MQIA_CAP_EXPIRY,
        why="a message keeps the Expiry it was put with: expiry caps are not applied",
    ),
    row(
        "CLCHNAME",
        Text(48),
        _ONE({QLOCAL}),
        "",
        parameter=CMQC.MQCA_CLUS_CHL_NAME,
        why=_NO_CLUSTERS,
    ),
    row(
        "CLUSNL",
        Text(48, "CLUSNL namelist"),
        _Q3,
        "",
        parameter=CMQC.MQCA_CLUSTER_NAMELIST,
        inquire=True,
        why=_NO_CLUSTERS,
    ),
    row(
        "CLUSTER",
        Text(48, "CLUSTER"),
        _Q3,
        "",
        parameter=CMQC.MQCA_CLUSTER_NAME,
        inquire=True,
        why=_NO_CLUSTERS,
    ),
    row(
        "CLWLPRTY",
        Number(0, 9),
        _Q3,
        0,
        parameter=CMQC.MQIA_CLWL_Q_PRIORITY,
        inquire=True,
        why=_NO_CLUSTERS,
    ),
    row(
        "CLWLRANK",
        Number(0, 9),
        _Q3,
        0,
        parameter=CMQC.MQIA_CLWL_Q_RANK,
        inquire=True,
        why=_NO_CLUSTERS,
    ),
    row(
        "CLWLUSEQ",
        _CLWLUSEQ,
        _ONE({QLOCAL}),
        CMQC.MQCLWL_USEQ_AS_Q_MGR,
        parameter=CMQC.MQIA_CLWL_USEQ,
        inquire=True,
        why=_NO_CLUSTERS,
    ),
    row(
        "CUSTOM",
        Text(128),
        QUEUES,
        "",
        parameter=CMQC.MQCA_CUSTOM,
        inquire=True,
        why="IBM's place for attributes not yet given keywords of their own",
    ),
    row(
        "DEFBIND",
        _DEFBIND,
        _Q3,
        CMQC.MQBND_BIND_ON_OPEN,
        parameter=CMQC.MQIA_DEF_BIND,
        inquire=True,
        why=_NO_CLUSTERS,
    ),
    row(
        "DEFPRESP",
        _DEFPRESP,
        QUEUES,
        CMQC.MQPRT_SYNC_RESPONSE,
        parameter=CMQC.MQIA_DEF_PUT_RESPONSE_TYPE,
        inquire=True,
        why="every put answers at once: asynchronous put responses are not simulated",
    ),
    row(
        "DEFREADA",
        _DEFREADA,
        LOCAL | {QALIAS},
        CMQC.MQREADA_NO,
        parameter=CMQC.MQIA_DEF_READ_AHEAD,
        inquire=True,
        why="read ahead is a client's buffering; client channels are not simulated",
    ),
    row(
        "MONQ",
        _MONITOR_LEVEL,
        LOCAL,
        CMQC.MQMON_Q_MGR,
        parameter=CMQC.MQIA_MONITORING_Q,
        why="online monitoring data (QTIME, MSGAGE) are not collected",
    ),
    row(
        "PROPCTL",
        _PROPCTL,
        LOCAL | {QALIAS},
        CMQC.MQPROP_COMPATIBILITY,
        parameter=CMQC.MQIA_PROPERTY_CONTROL,
        inquire=True,
        why="message properties are not simulated",
    ),
    row(
        "QDEPTHHI",
        Number(0, 100),
        LOCAL,
        80,
        field="q_depth_high_limit",
        parameter=CMQC.MQIA_Q_DEPTH_HIGH_LIMIT,
        effect=f"the per cent of MAXDEPTH a Queue Depth High event fires at{_PERFM}",
    ),
    row(
        "QDEPTHLO",
        Number(0, 100),
        LOCAL,
        20,
        field="q_depth_low_limit",
        parameter=CMQC.MQIA_Q_DEPTH_LOW_LIMIT,
        effect=f"the per cent of MAXDEPTH a Queue Depth Low event fires at{_PERFM}",
    ),
    row(
        "QDPHIEV",
        _EVENT,
        LOCAL,
        F.MQEVR_DISABLED,
        field="q_depth_high_event",
        parameter=CMQC.MQIA_Q_DEPTH_HIGH_EVENT,
        effect=f"Queue Depth High events on SYSTEM.ADMIN.PERFM.EVENT{_PERFM}",
    ),
    row(
        "QDPLOEV",
        _EVENT,
        LOCAL,
        F.MQEVR_DISABLED,
        field="q_depth_low_event",
        parameter=CMQC.MQIA_Q_DEPTH_LOW_EVENT,
        effect=f"Queue Depth Low events on SYSTEM.ADMIN.PERFM.EVENT{_PERFM}",
    ),
    row(
        "QDPMAXEV",
        _EVENT,
        LOCAL,
        F.MQEVR_ENABLED,
        field="q_depth_max_event",
        parameter=CMQC.MQIA_Q_DEPTH_MAX_EVENT,
        effect=f"Queue Full events on SYSTEM.ADMIN.PERFM.EVENT{_PERFM}",
    ),
    row(
        "QSVCIEV",
        _QSVCIEV,
        LOCAL,
        F.MQQSIE_NONE,
        field="q_service_interval_event",
        parameter=CMQC.MQIA_Q_SERVICE_INTERVAL_EVENT,
        effect=f"Queue Service Interval High or OK events{_PERFM}",
    ),
    row(
        "QSVCINT",
        _COUNT,
        LOCAL,
        999_999_999,
        field="q_service_interval",
        parameter=CMQC.MQIA_Q_SERVICE_INTERVAL,
        effect=f"milliseconds the service interval events measure against{_PERFM}",
    ),
    row(
        "RETINTVL",
        _COUNT,
        LOCAL,
        999_999_999,
        field="retention_interval",
        parameter=CMQC.MQIA_RETENTION_INTERVAL,
        inquire=True,
        effect="read with MQINQ only: IBM's queue manager takes no action on it",
    ),
    row(
        "STGCLASS",
        Text(8, "STGCLASS storage class"),
        LOCAL,
        "SYSTEM",
        parameter=CMQC.MQCA_STORAGE_CLASS,
        inquire=True,
        why="the storage class (DEFINE STGCLASS) names a page set, and qsg keeps messages "
        "in its store, memory or Valkey, not in page sets and buffer pools",
    ),
    row(
        "STREAMQ",
        Text(48, "STREAMQ queue"),
        LOCAL,
        "",
        parameter=CMQC.MQCA_STREAM_QUEUE_NAME,
        why="streaming queues are not simulated",
    ),
    row(
        "STRMQOS",
        _STRMQOS,
        LOCAL,
        CMQC.MQST_BEST_EFFORT,
        parameter=CMQC.MQIA_STREAM_QUEUE_QOS,
        why="streaming queues are not simulated",
    ),
    row(
        "STATQ",
        _MONITOR,
        LOCAL,
        CMQC.MQMON_Q_MGR,
        parameter=CMQC.MQIA_STATISTICS_Q,
        why="queue statistics (z/OS's SMF 115 subtype 216 records) are not collected",
    ),
    row(
        "CURDEPTH",
        _COUNT,
        _ONE({QLOCAL}),
        0,
        role="status",
        parameter=CMQC.MQIA_CURRENT_Q_DEPTH,
        inquire=True,
        effect="the messages on the queue",
    ),
    row(
        "IPPROCS",
        _COUNT,
        _ONE({QLOCAL}),
        0,
        role="status",
        parameter=CMQC.MQIA_OPEN_INPUT_COUNT,
        inquire=True,
        effect="handles open for input",
    ),
    row(
        "OPPROCS",
        _COUNT,
        _ONE({QLOCAL}),
        0,
        role="status",
        parameter=CMQC.MQIA_OPEN_OUTPUT_COUNT,
        inquire=True,
        effect="handles open for output",
    ),
)

__all__ = ["QSGDISP", "QUEUE", "Q_TYPE"]
