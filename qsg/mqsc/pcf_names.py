"""MQSC's attribute keywords as PCF parameters, and back.

DISPLAY's attributes (``qsg.mqsc.attributes``) name each value as MQSC spells it; a PCF
reply carries the same value as a parameter: an MQCFIN of an MQIA_*/MQIACF_* identifier
with the MQ constant (``TYPE(QLOCAL)`` is MQIA_Q_TYPE = MQQT_LOCAL), or an MQCFST of an
MQCA_* identifier, blank-padded to MQ's length for that field. One table per object
family serves the replies of the inquiries, the attribute selectors they take (QAttrs,
ChannelAttrs, ...), and the attributes CREATE_Q and CHANGE_Q are given.
"""

from __future__ import annotations

from dataclasses import dataclass

from qsg import CMQC
from qsg import CMQCFC as F
from qsg.core import cfstate

_ENABLED = {"ENABLED": CMQC.MQQA_PUT_ALLOWED, "DISABLED": CMQC.MQQA_PUT_INHIBITED}
_YES = {"NO": 0, "YES": 1}
_EVENT = {"ENABLED": F.MQEVR_ENABLED, "DISABLED": F.MQEVR_DISABLED}


@dataclass(frozen=True, slots=True)
class Name:
    """An MQSC keyword's PCF parameter: its identifier, and either the values of an
    enumeration (MQSC word to MQ constant), or the padded length of a string (0 for an
    integer)."""

    parameter: int
    values: dict[str, int] | None = None
    length: int = 0
    binary: bool = False  # an MQCFBS of ``length`` bytes (MQSC shows it in hex)
    listed: bool = False  # an MQCFSL of names ``length`` long (MQSC: comma-separated)

    @property
    def string(self) -> bool:
        return self.length > 0 and not self.binary


def _s(parameter: int, length: int) -> Name:
    return Name(parameter, length=length)


def _i(parameter: int, values: dict[str, int] | None = None) -> Name:
    return Name(parameter, values)


_QSGDISP = {
    "QMGR": CMQC.MQQSGD_Q_MGR,
    "COPY": CMQC.MQQSGD_COPY,
    "SHARED": CMQC.MQQSGD_SHARED,
    "GROUP": CMQC.MQQSGD_GROUP,
}
_QTYPE = {
    "QLOCAL": CMQC.MQQT_LOCAL,
    "QMODEL": CMQC.MQQT_MODEL,
    "QALIAS": CMQC.MQQT_ALIAS,
    "QREMOTE": CMQC.MQQT_REMOTE,
}
QUEUE: dict[str, Name] = {
    "QUEUE": _s(CMQC.MQCA_Q_NAME, 48),
    "TYPE": _i(CMQC.MQIA_Q_TYPE, _QTYPE),
    "QSGDISP": _i(CMQC.MQIA_QSG_DISP, _QSGDISP),
    "CFSTRUCT": _s(CMQC.MQCA_CF_STRUC_NAME, 12),
    "DESCR": _s(CMQC.MQCA_Q_DESC, 64),
    "PUT": _i(CMQC.MQIA_INHIBIT_PUT, _ENABLED),
    "GET": _i(CMQC.MQIA_INHIBIT_GET, _ENABLED),
    "DEFPRTY": _i(CMQC.MQIA_DEF_PRIORITY),
    "DEFPSIST": _i(CMQC.MQIA_DEF_PERSISTENCE, _YES),
    "TARGET": _s(CMQC.MQCA_BASE_Q_NAME, 48),
    "TARGTYPE": _i(CMQC.MQIA_BASE_TYPE, {"QUEUE": CMQC.MQOT_Q}),
    "RNAME": _s(CMQC.MQCA_REMOTE_Q_NAME, 48),
    "RQMNAME": _s(CMQC.MQCA_REMOTE_Q_MGR_NAME, 48),
    "XMITQ": _s(CMQC.MQCA_XMIT_Q_NAME, 48),
    "MAXDEPTH": _i(CMQC.MQIA_MAX_Q_DEPTH),
    "MAXMSGL": _i(CMQC.MQIA_MAX_MSG_LENGTH),
    "MSGDLVSQ": _i(
        CMQC.MQIA_MSG_DELIVERY_SEQUENCE, {"PRIORITY": CMQC.MQMDS_PRIORITY, "FIFO": CMQC.MQMDS_FIFO}
    ),
    "USAGE": _i(CMQC.MQIA_USAGE, {"NORMAL": CMQC.MQUS_NORMAL, "XMITQ": CMQC.MQUS_TRANSMISSION}),
    "INDXTYPE": _i(
        CMQC.MQIA_INDEX_TYPE,
        {
            "NONE": CMQC.MQIT_NONE,
            "MSGID": CMQC.MQIT_MSG_ID,
            "CORRELID": CMQC.MQIT_CORREL_ID,
            "GROUPID": CMQC.MQIT_GROUP_ID,
            "MSGTOKEN": CMQC.MQIT_MSG_TOKEN,
        },
    ),
    "DEFTYPE": _i(
        CMQC.MQIA_DEFINITION_TYPE,
        {
            "PREDEFINED": CMQC.MQQDT_PREDEFINED,
            "PERMDYN": CMQC.MQQDT_PERMANENT_DYNAMIC,
            "TEMPDYN": CMQC.MQQDT_TEMPORARY_DYNAMIC,
            "SHAREDYN": CMQC.MQQDT_SHARED_DYNAMIC,
        },
    ),
    "SHARE": _i(
        CMQC.MQIA_SHAREABILITY, {"SHARE": CMQC.MQQA_SHAREABLE, "NOSHARE": CMQC.MQQA_NOT_SHAREABLE}
    ),
    "DEFSOPT": _i(
        CMQC.MQIA_DEF_INPUT_OPEN_OPTION,
        {"SHARED": CMQC.MQOO_INPUT_SHARED, "EXCL": CMQC.MQOO_INPUT_EXCLUSIVE},
    ),
    "TRIGGER": _i(CMQC.MQIA_TRIGGER_CONTROL, {"TRIGGER": CMQC.MQTC_ON, "NOTRIGGER": CMQC.MQTC_OFF}),
    "TRIGTYPE": _i(
        CMQC.MQIA_TRIGGER_TYPE,
        {
            "NONE": CMQC.MQTT_NONE,
            "FIRST": CMQC.MQTT_FIRST,
            "EVERY": CMQC.MQTT_EVERY,
            "DEPTH": CMQC.MQTT_DEPTH,
        },
    ),
    "TRIGDPTH": _i(CMQC.MQIA_TRIGGER_DEPTH),
    "TRIGMPRI": _i(CMQC.MQIA_TRIGGER_MSG_PRIORITY),
    "TRIGDATA": _s(CMQC.MQCA_TRIGGER_DATA, 64),
    "PROCESS": _s(CMQC.MQCA_PROCESS_NAME, 48),
    "INITQ": _s(CMQC.MQCA_INITIATION_Q_NAME, 48),
    "QDEPTHHI": _i(CMQC.MQIA_Q_DEPTH_HIGH_LIMIT),
    "QDEPTHLO": _i(CMQC.MQIA_Q_DEPTH_LOW_LIMIT),
    "QDPHIEV": _i(CMQC.MQIA_Q_DEPTH_HIGH_EVENT, _EVENT),
    "QDPLOEV": _i(CMQC.MQIA_Q_DEPTH_LOW_EVENT, _EVENT),
    "QDPMAXEV": _i(CMQC.MQIA_Q_DEPTH_MAX_EVENT, _EVENT),
    "QSVCINT": _i(CMQC.MQIA_Q_SERVICE_INTERVAL),
    "QSVCIEV": _i(
        CMQC.MQIA_Q_SERVICE_INTERVAL_EVENT,
        {"NONE": F.MQQSIE_NONE, "HIGH": F.MQQSIE_HIGH, "OK": F.MQQSIE_OK},
    ),
    "CURDEPTH": _i(CMQC.MQIA_CURRENT_Q_DEPTH),
    "IPPROCS": _i(CMQC.MQIA_OPEN_INPUT_COUNT),
    "OPPROCS": _i(CMQC.MQIA_OPEN_OUTPUT_COUNT),
}
QSTATUS: dict[str, Name] = {
    "QSTATUS": _s(CMQC.MQCA_Q_NAME, 48),
    "TYPE": _i(F.MQIACF_Q_STATUS_TYPE, {"QUEUE": F.MQIACF_Q_STATUS, "HANDLE": F.MQIACF_Q_HANDLE}),
    "QSGDISP": QUEUE["QSGDISP"],
    "CURDEPTH": QUEUE["CURDEPTH"],
    "IPPROCS": QUEUE["IPPROCS"],
    "OPPROCS": QUEUE["OPPROCS"],
    "UNCOM": _i(F.MQIACF_UNCOMMITTED_MSGS, {"NO": F.MQQSUM_NO, "YES": F.MQQSUM_YES}),
    "APPLTAG": _s(F.MQCACF_APPL_TAG, 28),
    "USERID": _s(F.MQCACF_USER_IDENTIFIER, 12),
    "CONN": Name(F.MQBACF_CONNECTION_ID, length=24, binary=True),
    "INPUT": _i(
        F.MQIACF_OPEN_INPUT_TYPE,
        {"NO": F.MQQSO_NO, "SHARED": F.MQQSO_SHARED, "EXCL": F.MQQSO_EXCLUSIVE},
    ),
    "OUTPUT": _i(F.MQIACF_OPEN_OUTPUT, _YES),
    "BROWSE": _i(F.MQIACF_OPEN_BROWSE, _YES),
    "INQUIRE": _i(F.MQIACF_OPEN_INQUIRE, _YES),
    "SET": _i(F.MQIACF_OPEN_SET, _YES),
}
_CHLTYPE = {
    "SDR": CMQC.MQCHT_SENDER,
    "SVR": CMQC.MQCHT_SERVER,
    "RCVR": CMQC.MQCHT_RECEIVER,
    "RQSTR": CMQC.MQCHT_REQUESTER,
}
CHANNEL: dict[str, Name] = {
    "CHANNEL": _s(F.MQCACH_CHANNEL_NAME, 20),
    "CHLTYPE": _i(F.MQIACH_CHANNEL_TYPE, _CHLTYPE),
    "QSGDISP": QUEUE["QSGDISP"],
    "TRPTYPE": _i(F.MQIACH_XMIT_PROTOCOL_TYPE, {"TCP": CMQC.MQXPT_TCP}),
    "DESCR": _s(F.MQCACH_DESC, 64),
    "CONNAME": _s(F.MQCACH_CONNECTION_NAME, 264),
    "XMITQ": _s(F.MQCACH_XMIT_Q_NAME, 48),
    "BATCHSZ": _i(F.MQIACH_BATCH_SIZE),
    "SHORTRTY": _i(F.MQIACH_SHORT_RETRY),
    "SHORTTMR": _i(F.MQIACH_SHORT_TIMER),
    "LONGRTY": _i(F.MQIACH_LONG_RETRY),
    "LONGTMR": _i(F.MQIACH_LONG_TIMER),
    "HBINT": _i(F.MQIACH_HB_INTERVAL),
}
CHSTATUS: dict[str, Name] = {
    "CHSTATUS": CHANNEL["CHANNEL"],
    "CHLDISP": _i(F.MQIACH_CHANNEL_DISP, {"PRIVATE": F.MQCHLD_PRIVATE}),
    "XMITQ": CHANNEL["XMITQ"],
    "CONNAME": CHANNEL["CONNAME"],
    "CURRENT": _i(F.MQIACH_CHANNEL_INSTANCE_TYPE, {"CURRENT": CMQC.MQOT_CURRENT_CHANNEL}),
    "CHLTYPE": CHANNEL["CHLTYPE"],
    "STATUS": _i(
        F.MQIACH_CHANNEL_STATUS,
        {
            "INACTIVE": F.MQCHS_INACTIVE,
            "BINDING": F.MQCHS_BINDING,
            "STARTING": F.MQCHS_STARTING,
            "RUNNING": F.MQCHS_RUNNING,
            "STOPPING": F.MQCHS_STOPPING,
            "RETRYING": F.MQCHS_RETRYING,
            "STOPPED": F.MQCHS_STOPPED,
        },
    ),
    "STOPREQ": _i(F.MQIACH_STOP_REQUESTED, {"NO": F.MQCHSR_STOP_NOT_REQUESTED}),
    "MSGS": _i(F.MQIACH_MSGS),
    "BATCHES": _i(F.MQIACH_BATCHES),
    "BATCHSZ": CHANNEL["BATCHSZ"],
}
QMGR: dict[str, Name] = {
    "QMNAME": _s(CMQC.MQCA_Q_MGR_NAME, 48),
    "QSGNAME": _s(CMQC.MQCA_QSG_NAME, 4),
    "PLATFORM": _i(CMQC.MQIA_PLATFORM, {"MVS": CMQC.MQPL_ZOS, "UNIX": CMQC.MQPL_UNIX}),
    "COMMANDQ": _s(CMQC.MQCA_COMMAND_INPUT_Q_NAME, 48),
    "DESCR": _s(CMQC.MQCA_Q_MGR_DESC, 64),
    "DEADQ": _s(CMQC.MQCA_DEAD_LETTER_Q_NAME, 48),
    "DEFXMITQ": _s(CMQC.MQCA_DEF_XMIT_Q_NAME, 48),
    "EXPRYINT": _i(CMQC.MQIA_EXPIRY_INTERVAL, {"OFF": 0}),
    "MAXUMSGS": _i(CMQC.MQIA_MAX_UNCOMMITTED_MSGS),
    "MAXMSGL": _i(CMQC.MQIA_MAX_MSG_LENGTH),
    "TRIGINT": _i(CMQC.MQIA_TRIGGER_INTERVAL),
    "PERFMEV": _i(CMQC.MQIA_PERFORMANCE_EVENT, _EVENT),
    "INHIBTEV": _i(CMQC.MQIA_INHIBIT_EVENT, _EVENT),
    "LOCALEV": _i(CMQC.MQIA_LOCAL_EVENT, _EVENT),
    "AUTHOREV": _i(CMQC.MQIA_AUTHORITY_EVENT, _EVENT),
    "CHLEV": _i(CMQC.MQIA_CHANNEL_EVENT, _EVENT),
    "IGQ": _i(
        CMQC.MQIA_INTRA_GROUP_QUEUING,
        {"DISABLED": CMQC.MQIGQ_DISABLED, "ENABLED": CMQC.MQIGQ_ENABLED},
    ),
    "IGQAUT": _i(
        CMQC.MQIA_IGQ_PUT_AUTHORITY,
        {
            "DEF": CMQC.MQIGQPA_DEFAULT,
            "CTX": CMQC.MQIGQPA_CONTEXT,
            "ONLYIGQ": CMQC.MQIGQPA_ONLY_IGQ,
            "ALTIGQ": CMQC.MQIGQPA_ALTERNATE_OR_IGQ,
        },
    ),
    "IGQUSER": _s(CMQC.MQCA_IGQ_USER_ID, 12),
    "SQQMNAME": _i(
        CMQC.MQIA_SHARED_Q_Q_MGR_NAME, {"USE": CMQC.MQSQQM_USE, "IGNORE": CMQC.MQSQQM_IGNORE}
    ),
}
CFSTRUCT: dict[str, Name] = {
    "CFSTRUCT": _s(CMQC.MQCA_CF_STRUC_NAME, 12),
    "CFLEVEL": _i(CMQC.MQIA_CF_LEVEL),
    "DESCR": _s(CMQC.MQCA_CF_STRUC_DESC, 64),
    "RECOVER": _i(CMQC.MQIA_CF_RECOVER, {"NO": CMQC.MQCFR_NO, "YES": CMQC.MQCFR_YES}),
    "OFFLOAD": _i(CMQC.MQIA_CF_OFFLOAD, {"SMDS": CMQC.MQCFOFFLD_SMDS, "DB2": CMQC.MQCFOFFLD_DB2}),
    "OFFLD1TH": _i(CMQC.MQIA_CF_OFFLOAD_THRESHOLD1),
    "OFFLD2TH": _i(CMQC.MQIA_CF_OFFLOAD_THRESHOLD2),
    "OFFLD3TH": _i(CMQC.MQIA_CF_OFFLOAD_THRESHOLD3),
    # OffloadSize1..3 are MQCFSTs ("32K"), as IBM's Change CF Structure gives them.
    "OFFLD1SZ": _s(F.MQCACF_CF_OFFLOAD_SIZE1, 8),
    "OFFLD2SZ": _s(F.MQCACF_CF_OFFLOAD_SIZE2, 8),
    "OFFLD3SZ": _s(F.MQCACF_CF_OFFLOAD_SIZE3, 8),
}
#: DISPLAY CFSTATUS's TYPE words as Inquire CF Structure Status's StatusType.
CF_STATUS_TYPES = {
    "SUMMARY": F.MQIACF_CF_STATUS_SUMMARY,
    "CONNECT": F.MQIACF_CF_STATUS_CONNECT,
    "BACKUP": F.MQIACF_CF_STATUS_BACKUP,
    "SMDS": F.MQIACF_CF_STATUS_SMDS,
}
CFSTATUS: dict[str, Name] = {
    "CFSTATUS": CFSTRUCT["CFSTRUCT"],
    "TYPE": _i(F.MQIACF_CF_STATUS_TYPE, CF_STATUS_TYPES),
    "CFTYPE": _i(F.MQIACF_CF_STRUC_TYPE, {"APPL": F.MQCFTYPE_APPL}),
    "STATUS": _i(F.MQIACF_CF_STRUC_STATUS, dict(cfstate.STATUS_VALUES)),
    "SIZEMAX": _i(F.MQIACF_CF_STRUC_SIZE_MAX),
    "SIZEUSED": _i(F.MQIACF_CF_STRUC_SIZE_USED),
    "ENTSMAX": _i(F.MQIACF_CF_STRUC_ENTRIES_MAX),
    "ENTSUSED": _i(F.MQIACF_CF_STRUC_ENTRIES_USED),
    # TYPE(CONNECT), TYPE(BACKUP) and TYPE(SMDS) (IBM's "Inquire CF Structure Status
    # (Response)"): dates as yyyy-mm-dd (MQ_DATE_LENGTH 12), times hh.mm.ss (8).
    "QMNAME": _s(CMQC.MQCA_Q_MGR_NAME, 48),
    "FAILDATE": _s(F.MQCACF_FAIL_DATE, 12),
    "FAILTIME": _s(F.MQCACF_FAIL_TIME, 8),
    "BKUPDATE": _s(F.MQCACF_BACKUP_DATE, 12),
    "BKUPTIME": _s(F.MQCACF_BACKUP_TIME, 8),
    "BKUPSIZE": _i(F.MQIACF_CF_STRUC_BACKUP_SIZE),
    "LOGQMGRS": Name(F.MQCACF_CF_STRUC_LOG_Q_MGRS, length=48, listed=True),
    "SMDS": _s(F.MQCACF_CF_SMDS, 48),
    "ACCESS": _i(
        F.MQIACF_CF_STRUC_ACCESS,
        {
            "ENABLED": F.MQCFACCESS_ENABLED,
            "SUSPENDED": F.MQCFACCESS_SUSPENDED,
            "DISABLED": F.MQCFACCESS_DISABLED,
        },
    ),
}
#: The table of each DISPLAY family.
FAMILIES = {
    "QUEUE": QUEUE,
    "QSTATUS": QSTATUS,
    "CHANNEL": CHANNEL,
    "CHSTATUS": CHSTATUS,
    "QMGR": QMGR,
    "CFSTRUCT": CFSTRUCT,
    "CFSTATUS": CFSTATUS,
}
#: A bare keyword's table entry (NOSHARE is the SHARE entry's other value).
BARE = {
    "SHARE": "SHARE",
    "NOSHARE": "SHARE",
    "TRIGGER": "TRIGGER",
    "NOTRIGGER": "TRIGGER",
    "CURRENT": "CURRENT",
}


def keyword_of(family: str, parameter: int) -> str | None:
    """The MQSC keyword a parameter identifier stands for in ``family``."""
    for keyword, name in FAMILIES[family].items():
        if name.parameter == parameter:
            return keyword
    return None


__all__ = ["BARE", "FAMILIES", "Name", "keyword_of"]
