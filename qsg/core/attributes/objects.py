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
from qsg.ibm import CMQXC as X

_ONE = frozenset
_CH = _ONE({CHANNEL})
_CF = _ONE({CFSTRUCT})
_PR = _ONE({PROCESS})
_QM = _ONE({QMGR})
_COUNT = Number(0, 999_999_999)
#: A channel's or process's QSGDISP as its definition keeps it (SHARED is for queues).
_QSGDISP = Choice({"QMGR": CMQC.MQQSGD_Q_MGR, "COPY": CMQC.MQQSGD_COPY, "GROUP": CMQC.MQQSGD_GROUP})

CHLTYPE = Choice(
    {
        "SDR": CMQC.MQCHT_SENDER,
        "SVR": CMQC.MQCHT_SERVER,
        "RCVR": CMQC.MQCHT_RECEIVER,
        "RQSTR": CMQC.MQCHT_REQUESTER,
        "SVRCONN": CMQC.MQCHT_SVRCONN,
        "CLNTCONN": CMQC.MQCHT_CLNTCONN,
    }
)
# The channel types (CHLTYPE) each channel attribute is for, as "DEFINE CHANNEL" lists
# them for z/OS ("Channel parameters by channel type").
_SDR, _SVR, _RCVR, _RQSTR = "SDR", "SVR", "RCVR", "RQSTR"
_SENDING = frozenset({_SDR, _SVR})
_MESSAGE = frozenset({_SDR, _SVR, _RCVR, _RQSTR})
_CALLING = frozenset({_SDR, _SVR, _RQSTR, "CLNTCONN"})  # the ends that connect out
_MR = frozenset({_RCVR, _RQSTR})  # the ends that put what arrives
_NOT_CLIENT = _MESSAGE | {"SVRCONN"}
_CLIENT = frozenset({"SVRCONN", "CLNTCONN"})
_NO_EXITS = "channel exits are not run: the simulated channels call none"
_NO_TLS = "TLS on channels is not simulated (the simulated network is trusted)"
_NO_CLIENTS = "client channels are not simulated: applications connect in process"
_NO_SNA = "LU 6.2 is not simulated: TRPTYPE is TCP"
_NO_MONITORING = "online monitoring data (channel statistics) are not collected"
_NO_COMPRESSION = "the simulated network carries messages as they are"
_NO_TUNING = "channel batching is by BATCHSZ alone in qsg"
_YESNO = {"NO": 0, "YES": 1}
_NOT_ON_Z_OS = "is not valid on z/OS"
_EVENT = Choice({"ENABLED": F.MQEVR_ENABLED, "DISABLED": F.MQEVR_DISABLED})
# CHLEV also takes EXCEPTION: only the channel events that report an error.
_CHLEV = Choice(
    {"ENABLED": F.MQEVR_ENABLED, "DISABLED": F.MQEVR_DISABLED, "EXCEPTION": F.MQEVR_EXCEPTION}
)
_IGQ = Choice(
    {"ENABLED": CMQC.MQIGQ_ENABLED, "DISABLED": CMQC.MQIGQ_DISABLED},
    stored={"ENABLED": True, "DISABLED": False},
)
_IGQAUT = Choice(
    {
        "DEF": CMQC.MQIGQPA_DEFAULT,
        "CTX": CMQC.MQIGQPA_CONTEXT,
        "ONLYIGQ": CMQC.MQIGQPA_ONLY_IGQ,
        "ALTIGQ": CMQC.MQIGQPA_ALTERNATE_OR_IGQ,
    }
)
_CFCONLOS = {"TERMINATE": CMQC.MQCFCONLOS_TERMINATE, "TOLERATE": CMQC.MQCFCONLOS_TOLERATE}
_SQQMNAME = Choice({"USE": CMQC.MQSQQM_USE, "IGNORE": CMQC.MQSQQM_IGNORE})
_COMPHDR = Choice({"NONE": X.MQCOMPRESS_NONE, "SYSTEM": X.MQCOMPRESS_SYSTEM})
_COMPMSG = Choice(
    {
        "NONE": X.MQCOMPRESS_NONE,
        "RLE": X.MQCOMPRESS_RLE,
        "ZLIBFAST": X.MQCOMPRESS_ZLIBFAST,
        "ZLIBHIGH": X.MQCOMPRESS_ZLIBHIGH,
        "ANY": X.MQCOMPRESS_ANY,
    }
)
_DEFCDISP = Choice(
    {"PRIVATE": F.MQCHLD_PRIVATE, "FIXSHARED": F.MQCHLD_FIXSHARED, "SHARED": F.MQCHLD_SHARED}
)
_MONCHL = Choice(
    {
        "QMGR": CMQC.MQMON_Q_MGR,
        "OFF": CMQC.MQMON_OFF,
        "LOW": CMQC.MQMON_LOW,
        "MEDIUM": CMQC.MQMON_MEDIUM,
        "HIGH": CMQC.MQMON_HIGH,
    }
)
_PUTAUT = Choice(
    {
        "DEF": X.MQPA_DEFAULT,
        "CTX": X.MQPA_CONTEXT,
        "ONLYMCA": X.MQPA_ONLY_MCA,
        "ALTMCA": X.MQPA_ALTERNATE_OR_MCA,
    }
)
_CHANNEL_PROPCTL = Choice(
    {"COMPAT": CMQC.MQPROP_COMPATIBILITY, "NONE": CMQC.MQPROP_NONE, "ALL": CMQC.MQPROP_ALL}
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
_DSBLOCK = Choice(
    {
        "8K": CMQC.MQDSB_8K,
        "16K": CMQC.MQDSB_16K,
        "32K": CMQC.MQDSB_32K,
        "64K": CMQC.MQDSB_64K,
        "128K": CMQC.MQDSB_128K,
        "256K": CMQC.MQDSB_256K,
        "512K": CMQC.MQDSB_512K,
        "1M": CMQC.MQDSB_1M,
    }
)
_NO_DATA_SETS = "shared message data sets are the store's own: no VSAM data sets"
_PLATFORM = Choice({"MVS": CMQC.MQPL_ZOS, "UNIX": CMQC.MQPL_UNIX, "WINDOWSNT": 11})

CHANNELS: tuple[Attribute, ...] = (
    row(
        "CHANNEL",
        Text(20, "channel"),
        _CH,
        "",
        field="name",
        role="name",
        parameter=F.MQCACH_CHANNEL_NAME,
        effect="the channel's name",
    ),
    row(
        "CHLTYPE",
        CHLTYPE,
        _CH,
        None,
        field="channel_type",
        parameter=F.MQIACH_CHANNEL_TYPE,
        effect="which end of a message channel it is; a SVRCONN or CLNTCONN channel is "
        "kept and shown, never started (client channels are not simulated)",
    ),
    row(
        "QSGDISP",
        _QSGDISP,
        _CH,
        CMQC.MQQSGD_Q_MGR,
        field="qsg_disp",
        parameter=CMQC.MQIA_QSG_DISP,
        effect="QMGR: a member's own channel; GROUP: kept in the shared repository, "
        "COPY: a member's copy of a GROUP channel (qsg.core.copies)",
    ),
    row(
        "TRPTYPE",
        # "DEFINE CHANNEL": TRPTYPE(LU62 | TCP) on z/OS.
        Choice({"TCP": CMQC.MQXPT_TCP, "LU62": CMQC.MQXPT_LU62}),
        _CH,
        CMQC.MQXPT_TCP,
        parameter=F.MQIACH_XMIT_PROTOCOL_TYPE,
        effect="TCP or LU62: either way the channel runs on the simulated network "
        "(LU 6.2 itself is not simulated)",
    ),
    row("DESCR", Text(64), _CH, "", field="description", parameter=F.MQCACH_DESC, effect="shown"),
    row(
        "CONNAME",
        Text(264),
        _CH,
        "",
        field="conn_name",
        parameter=F.MQCACH_CONNECTION_NAME,
        channel_types=_CALLING,
        effect="the partner's address",
    ),
    row(
        "XMITQ",
        Text(48, "XMITQ queue"),
        _CH,
        "",
        field="xmit_q_name",
        parameter=F.MQCACH_XMIT_Q_NAME,
        channel_types=_SENDING,
        effect="the transmission queue a sender serves",
    ),
    row(
        "BATCHSZ",
        Number(1, 9999),
        _CH,
        50,
        field="batch_size",
        parameter=F.MQIACH_BATCH_SIZE,
        channel_types=_MESSAGE,
        effect="messages per batch",
    ),
    row(
        "SHORTRTY",
        _COUNT,
        _CH,
        10,
        field="short_retry_count",
        parameter=F.MQIACH_SHORT_RETRY,
        channel_types=_SENDING,
        effect="retries SHORTTMR apart",
    ),
    row(
        "SHORTTMR",
        _COUNT,
        _CH,
        60,
        field="short_retry_interval",
        parameter=F.MQIACH_SHORT_TIMER,
        channel_types=_SENDING,
        effect="seconds between short retries",
    ),
    row(
        "LONGRTY",
        _COUNT,
        _CH,
        999_999_999,
        field="long_retry_count",
        parameter=F.MQIACH_LONG_RETRY,
        channel_types=_SENDING,
        effect="retries LONGTMR apart, after the short ones",
    ),
    row(
        "LONGTMR",
        _COUNT,
        _CH,
        1200,
        field="long_retry_interval",
        parameter=F.MQIACH_LONG_TIMER,
        channel_types=_SENDING,
        effect="seconds between long retries",
    ),
    row(
        "HBINT",
        Number(0, 999_999),
        _CH,
        300,
        field="heartbeat_interval",
        parameter=F.MQIACH_HB_INTERVAL,
        effect="heartbeats and the receive timeout",
    ),
    row(
        "AFFINITY",
        Choice({"PREFERRED": X.MQCAFTY_PREFERRED, "NONE": X.MQCAFTY_NONE}),
        _CH,
        X.MQCAFTY_PREFERRED,
        parameter=F.MQIACH_CONNECTION_AFFINITY,
        channel_types=_ONE({"CLNTCONN"}),
        why=_NO_CLIENTS,
    ),
    row(
        "BATCHHB",
        _COUNT,
        _CH,
        0,
        parameter=F.MQIACH_BATCH_HB,
        channel_types=_SENDING,
        why="a batch is sent at once: the partner is checked by HBINT's heartbeats",
    ),
    row(
        "BATCHINT",
        _COUNT,
        _CH,
        0,
        parameter=F.MQIACH_BATCH_INTERVAL,
        channel_types=_SENDING,
        why=_NO_TUNING,
    ),
    row(
        "BATCHLIM",
        Number(0, 999_999),
        _CH,
        5000,
        parameter=F.MQIACH_BATCH_DATA_LIMIT,
        channel_types=_SENDING,
        why=_NO_TUNING,
    ),
    row("CERTLABL", Text(64), _CH, "", parameter=CMQC.MQCA_CERT_LABEL, why=_NO_TLS),
    row(
        "CLNTWGHT",
        Number(0, 99),
        _CH,
        0,
        parameter=F.MQIACH_CLIENT_CHANNEL_WEIGHT,
        channel_types=_ONE({"CLNTCONN"}),
        why=_NO_CLIENTS,
    ),
    row(
        "COMPHDR",
        _COMPHDR,
        _CH,
        X.MQCOMPRESS_NONE,
        parameter=F.MQIACH_HDR_COMPRESSION,
        why=_NO_COMPRESSION,
    ),
    row(
        "COMPMSG",
        _COMPMSG,
        _CH,
        X.MQCOMPRESS_NONE,
        parameter=F.MQIACH_MSG_COMPRESSION,
        why=_NO_COMPRESSION,
    ),
    row(
        "CONVERT",
        Choice(_YESNO),
        _CH,
        0,
        parameter=F.MQIACH_DATA_CONVERSION,
        channel_types=_SENDING,
        why="the members share one encoding: nothing is converted",
    ),
    row(
        "DEFCDISP",
        _DEFCDISP,
        _CH,
        F.MQCHLD_PRIVATE,
        parameter=F.MQIACH_DEF_CHANNEL_DISP,
        channel_types=_NOT_CLIENT,
        effect="what START CHANNEL CHLDISP(DEFAULT) means (docs/channels.md)",
    ),
    row(
        "DEFRECON",
        Choice(
            {
                "NO": X.MQRCN_NO,
                "YES": X.MQRCN_YES,
                "QMGR": X.MQRCN_Q_MGR,
                "DISABLED": X.MQRCN_DISABLED,
            }
        ),
        _CH,
        X.MQRCN_NO,
        parameter=F.MQIACH_DEF_RECONNECT,
        channel_types=_ONE({"CLNTCONN"}),
        why=_NO_CLIENTS,
    ),
    row(
        "DISCINT",
        Number(0, 999_999),
        _CH,
        6000,
        parameter=F.MQIACH_DISC_INTERVAL,
        channel_types=_SENDING | {"SVRCONN"},
        type_defaults=(("SVRCONN", 0),),  # "Server-connection channel": DISCINT(0)
        why="a started channel stays running until STOP CHANNEL or a failure",
    ),
    row(
        "KAINT",
        Number(0, 99_999, {"AUTO": -1}),
        _CH,
        -1,
        parameter=F.MQIACH_KEEP_ALIVE_INTERVAL,
        why="TCP keepalive is not simulated",
    ),
    row(
        "LOCLADDR",
        Text(48),
        _CH,
        "",
        parameter=F.MQCACH_LOCAL_ADDRESS,
        channel_types=_CALLING,
        why="the simulated network has no local addresses",
    ),
    row(
        "MAXINST",
        _COUNT,
        _CH,
        999_999_999,
        parameter=F.MQIACH_MAX_INSTANCES,
        channel_types=_ONE({"SVRCONN"}),
        why=_NO_CLIENTS,
    ),
    row(
        "MAXINSTC",
        _COUNT,
        _CH,
        999_999_999,
        parameter=F.MQIACH_MAX_INSTS_PER_CLIENT,
        channel_types=_ONE({"SVRCONN"}),
        why=_NO_CLIENTS,
    ),
    row(
        "MAXMSGL",
        Number(0, 104_857_600),
        _CH,
        4_194_304,
        parameter=F.MQIACH_MAX_MSG_LENGTH,
        why="a message channel carries any message its queues take",
    ),
    row(
        "MCANAME",
        Text(20),
        _CH,
        "",
        parameter=F.MQCACH_MCA_NAME,
        channel_types=_ONE({_SDR, _SVR, _RQSTR}),
        why="reserved by IBM: no effect on z/OS",
    ),
    row(
        "MCATYPE",
        Choice({"PROCESS": X.MQMCAT_PROCESS, "THREAD": X.MQMCAT_THREAD}),
        _CH,
        X.MQMCAT_PROCESS,
        parameter=F.MQIACH_MCA_TYPE,
        channel_types=_ONE({_SDR, _SVR, _RQSTR}),
        why="the channel initiator's tasks are not simulated",
    ),
    row(
        "MCAUSER",
        Text(64),
        _CH,
        "",
        parameter=F.MQCACH_MCA_USER_ID,
        channel_types=_NOT_CLIENT,
        why="a receiving channel puts as the queue manager",
    ),
    row(
        "MODENAME",
        Text(8),
        _CH,
        "",
        parameter=F.MQCACH_MODE_NAME,
        channel_types=_CALLING,
        why=_NO_SNA,
    ),
    row(
        "MONCHL",
        _MONCHL,
        _CH,
        CMQC.MQMON_Q_MGR,
        parameter=CMQC.MQIA_MONITORING_CHANNEL,
        channel_types=_NOT_CLIENT,
        why=_NO_MONITORING,
    ),
    row(
        "MRDATA",
        Text(32),
        _CH,
        "",
        parameter=F.MQCACH_MR_EXIT_USER_DATA,
        channel_types=_MR,
        why=_NO_EXITS,
    ),
    row(
        "MREXIT",
        Text(8),
        _CH,
        "",
        parameter=F.MQCACH_MR_EXIT_NAME,
        channel_types=_MR,
        why=_NO_EXITS,
    ),
    row(
        "MRRTY",
        _COUNT,
        _CH,
        10,
        parameter=F.MQIACH_MR_COUNT,
        channel_types=_MR,
        why="a message that cannot be put goes to the dead-letter queue at once",
    ),
    row(
        "MRTMR",
        _COUNT,
        _CH,
        1000,
        parameter=F.MQIACH_MR_INTERVAL,
        channel_types=_MR,
        why="a message that cannot be put goes to the dead-letter queue at once",
    ),
    row(
        "MSGDATA",
        Text(32),
        _CH,
        "",
        parameter=F.MQCACH_MSG_EXIT_USER_DATA,
        channel_types=_MESSAGE,
        why=_NO_EXITS,
    ),
    row(
        "MSGEXIT",
        Text(8),
        _CH,
        "",
        parameter=F.MQCACH_MSG_EXIT_NAME,
        channel_types=_MESSAGE,
        why=_NO_EXITS,
    ),
    row(
        "NPMSPEED",
        Choice({"FAST": X.MQNPMS_FAST, "NORMAL": X.MQNPMS_NORMAL}),
        _CH,
        X.MQNPMS_FAST,
        parameter=F.MQIACH_NPM_SPEED,
        channel_types=_MESSAGE,
        why="every message goes in its batch's unit of work",
    ),
    row(
        "PASSWORD",
        Text(12),
        _CH,
        "",
        parameter=F.MQCACH_PASSWORD,
        channel_types=_CALLING,
        why=_NO_SNA,
    ),
    row(
        "PROPCTL",
        _CHANNEL_PROPCTL,
        _CH,
        CMQC.MQPROP_COMPATIBILITY,
        parameter=CMQC.MQIA_PROPERTY_CONTROL,
        channel_types=_SENDING,
        why="message properties are not simulated",
    ),
    row(
        "PUTAUT",
        _PUTAUT,
        _CH,
        X.MQPA_DEFAULT,
        parameter=F.MQIACH_PUT_AUTHORITY,
        channel_types=_MR | {"SVRCONN"},
        why="a receiving channel puts as the queue manager",
    ),
    row(
        "QMNAME",
        Text(48),
        _CH,
        "",
        parameter=CMQC.MQCA_Q_MGR_NAME,
        channel_types=_ONE({"CLNTCONN"}),
        why=_NO_CLIENTS,
    ),
    row("RCVDATA", Text(32), _CH, "", parameter=F.MQCACH_RCV_EXIT_USER_DATA, why=_NO_EXITS),
    row("RCVEXIT", Text(8), _CH, "", parameter=F.MQCACH_RCV_EXIT_NAME, why=_NO_EXITS),
    row("SCYDATA", Text(32), _CH, "", parameter=F.MQCACH_SEC_EXIT_USER_DATA, why=_NO_EXITS),
    row("SCYEXIT", Text(8), _CH, "", parameter=F.MQCACH_SEC_EXIT_NAME, why=_NO_EXITS),
    row("SENDDATA", Text(32), _CH, "", parameter=F.MQCACH_SEND_EXIT_USER_DATA, why=_NO_EXITS),
    row("SENDEXIT", Text(8), _CH, "", parameter=F.MQCACH_SEND_EXIT_NAME, why=_NO_EXITS),
    row(
        "SEQWRAP",
        Number(100, 999_999_999),
        _CH,
        999_999_999,
        parameter=F.MQIACH_SEQUENCE_NUMBER_WRAP,
        channel_types=_MESSAGE,
        why="sequence numbers wrap at IBM's default, 999999999",
    ),
    row(
        "SHARECNV",
        _COUNT,
        _CH,
        10,
        parameter=F.MQIACH_SHARING_CONVERSATIONS,
        channel_types=_CLIENT,
        why=_NO_CLIENTS,
    ),
    row(
        "SSLCAUTH",
        Choice({"REQUIRED": X.MQSCA_REQUIRED, "OPTIONAL": X.MQSCA_OPTIONAL}),
        _CH,
        X.MQSCA_REQUIRED,
        parameter=F.MQIACH_SSL_CLIENT_AUTH,
        channel_types=_ONE({_SVR, _RCVR, _RQSTR, "SVRCONN"}),
        why=_NO_TLS,
    ),
    row("SSLCIPH", Text(32), _CH, "", parameter=F.MQCACH_SSL_CIPHER_SPEC, why=_NO_TLS),
    row("SSLPEER", Text(1024), _CH, "", parameter=F.MQCACH_SSL_PEER_NAME, why=_NO_TLS),
    row(
        "SPLPROT",
        # "AMS interception on server-to-server message channels" (z/OS): PASSTHRU for
        # the four message channel types, REMOVE for the sending ends, ASPOLICY for the
        # receiving ends.
        Choice(
            {"PASSTHRU": X.MQSPL_PASSTHRU, "REMOVE": X.MQSPL_REMOVE, "ASPOLICY": X.MQSPL_AS_POLICY}
        ),
        _CH,
        X.MQSPL_PASSTHRU,
        parameter=F.MQIACH_SPL_PROTECTION,
        channel_types=_MESSAGE,
        type_values=(
            (_SDR, frozenset({"PASSTHRU", "REMOVE"})),
            (_SVR, frozenset({"PASSTHRU", "REMOVE"})),
            (_RCVR, frozenset({"PASSTHRU", "ASPOLICY"})),
            (_RQSTR, frozenset({"PASSTHRU", "ASPOLICY"})),
        ),
        why="Advanced Message Security is not simulated: messages carry no AMS protection; "
        "REMOVE is for SDR and SVR only, ASPOLICY for RCVR and RQSTR only",
    ),
    row(
        "STATCHL",
        _MONCHL,
        _CH,
        CMQC.MQMON_Q_MGR,
        parameter=CMQC.MQIA_STATISTICS_CHANNEL,
        channel_types=_MESSAGE,
        why="channel statistics (z/OS's SMF 115 subtype 231 records) are not collected",
    ),
    row(
        "TPNAME", Text(64), _CH, "", parameter=F.MQCACH_TP_NAME, channel_types=_CALLING, why=_NO_SNA
    ),
    row(
        "USEDLQ",
        Choice(_YESNO),
        _CH,
        1,
        parameter=CMQC.MQIA_USE_DEAD_LETTER_Q,
        channel_types=_MESSAGE,
        why="qsg's channels always use the dead-letter queue, as YES does",
    ),
    row(
        "USERID", Text(12), _CH, "", parameter=F.MQCACH_USER_ID, channel_types=_CALLING, why=_NO_SNA
    ),
)

CF_STRUCTURES: tuple[Attribute, ...] = (
    row(
        "CFSTRUCT",
        Text(12, "CF structure"),
        _CF,
        "",
        field="name",
        role="name",
        parameter=CMQC.MQCA_CF_STRUC_NAME,
        effect="the structure's name",
    ),
    row(
        "CFLEVEL",
        Number(1, 5),
        _CF,
        5,
        field="cf_level",
        parameter=CMQC.MQIA_CF_LEVEL,
        effect="3: persistent messages; 4: messages over 63 KB; 5: offload rules",
    ),
    row(
        "DESCR",
        Text(64),
        _CF,
        "",
        field="description",
        parameter=CMQC.MQCA_CF_STRUC_DESC,
        effect="shown",
    ),
    row(
        "RECOVER",
        _RECOVER,
        _CF,
        False,
        field="recover",
        parameter=CMQC.MQIA_CF_RECOVER,
        effect="YES: persistent messages are recoverable",
    ),
    row(
        "RECAUTO",
        _RECOVER,  # MQRECAUTO_NO 0 and _YES 1, as MQCFR_NO and _YES
        _CF,
        True,  # IBM's "DEFINE CFSTRUCT": RECAUTO(YES) is the default
        field="recauto",
        parameter=CMQC.MQIA_CF_RECAUTO,
        effect="YES: a failed structure is recovered without RECOVER CFSTRUCT "
        "(docs/coupling-facility.md)",
    ),
    row(
        "CFCONLOS",
        Choice({**_CFCONLOS, "ASQMGR": CMQC.MQCFCONLOS_ASQMGR}),
        _CF,
        CMQC.MQCFCONLOS_ASQMGR,
        field="cf_conlos",
        parameter=CMQC.MQIA_CF_CFCONLOS,
        effect="what a member that loses connectivity to it does: TERMINATE ends it, "
        "TOLERATE keeps it running (docs/coupling-facility.md)",
    ),
    row(
        "OFFLOAD",
        _OFFLOAD,
        _CF,
        "SMDS",
        field="offload",
        parameter=CMQC.MQIA_CF_OFFLOAD,
        effect="where large messages go (docs/capacity.md)",
    ),
    row(
        "OFFLD1TH",
        Number(0, 100),
        _CF,
        70,
        field="offload_threshold1",
        parameter=CMQC.MQIA_CF_OFFLOAD_THRESHOLD1,
        effect="the first offload rule",
    ),
    row(
        "OFFLD1SZ",
        Size(),
        _CF,
        32,
        field="offload_size1",
        parameter=F.MQCACF_CF_OFFLOAD_SIZE1,
        effect="the first offload rule",
    ),
    row(
        "OFFLD2TH",
        Number(0, 100),
        _CF,
        80,
        field="offload_threshold2",
        parameter=CMQC.MQIA_CF_OFFLOAD_THRESHOLD2,
        effect="the second offload rule",
    ),
    row(
        "OFFLD2SZ",
        Size(),
        _CF,
        4,
        field="offload_size2",
        parameter=F.MQCACF_CF_OFFLOAD_SIZE2,
        effect="the second offload rule",
    ),
    row(
        "OFFLD3TH",
        Number(0, 100),
        _CF,
        90,
        field="offload_threshold3",
        parameter=CMQC.MQIA_CF_OFFLOAD_THRESHOLD3,
        effect="the third offload rule",
    ),
    row(
        "OFFLD3SZ",
        Size(),
        _CF,
        0,
        field="offload_size3",
        parameter=F.MQCACF_CF_OFFLOAD_SIZE3,
        effect="the third offload rule",
    ),
    # The shared message data sets (OFFLOAD(SMDS)): qsg keeps offloaded messages in its
    # store, not in VSAM data sets, so their names, blocks and buffers change nothing.
    row(
        "DSGROUP",
        Text(44),
        _CF,
        "",
        parameter=F.MQCACF_CF_SMDS_GENERIC_NAME,
        why=_NO_DATA_SETS,
    ),
    row(
        "DSBLOCK",
        _DSBLOCK,
        _CF,
        CMQC.MQDSB_256K,
        parameter=F.MQIACF_CF_SMDS_BLOCK_SIZE,
        why=_NO_DATA_SETS,
    ),
    row(
        "DSBUFS", Number(1, 9999), _CF, 100, parameter=CMQC.MQIA_CF_SMDS_BUFFERS, why=_NO_DATA_SETS
    ),
    row(
        "DSEXPAND",
        Choice({"YES": CMQC.MQDSE_YES, "NO": CMQC.MQDSE_NO}),
        _CF,
        CMQC.MQDSE_YES,
        parameter=F.MQIACF_CF_SMDS_EXPAND,
        why=_NO_DATA_SETS,
    ),
)

PROCESSES: tuple[Attribute, ...] = (
    row(
        "PROCESS",
        Text(48, "process"),
        _PR,
        "",
        field="name",
        role="name",
        parameter=CMQC.MQCA_PROCESS_NAME,
        inquire=True,
        effect="the process's name",
    ),
    row(
        "QSGDISP",
        _QSGDISP,
        _PR,
        CMQC.MQQSGD_Q_MGR,
        field="qsg_disp",
        parameter=CMQC.MQIA_QSG_DISP,
        effect="QMGR: a member's own process; GROUP: kept in the shared repository, "
        "COPY: a member's copy of a GROUP process (qsg.core.copies)",
    ),
    row(
        "DESCR",
        Text(64),
        _PR,
        "",
        field="description",
        parameter=CMQC.MQCA_PROCESS_DESC,
        inquire=True,
        effect="shown",
    ),
    row(
        "APPLTYPE",
        APPLTYPE,
        _PR,
        CMQC.MQAT_ZOS,
        field="appl_type",
        parameter=CMQC.MQIA_APPL_TYPE,
        inquire=True,
        effect="copied into the MQTM",
    ),
    row(
        "APPLICID",
        Text(256),
        _PR,
        "",
        field="appl_id",
        parameter=CMQC.MQCA_APPL_ID,
        inquire=True,
        effect="copied into the MQTM",
    ),
    row(
        "ENVRDATA",
        Text(128),
        _PR,
        "",
        field="env_data",
        parameter=CMQC.MQCA_ENV_DATA,
        inquire=True,
        effect="copied into the MQTM",
    ),
    row(
        "USERDATA",
        Text(128),
        _PR,
        "",
        field="user_data",
        parameter=CMQC.MQCA_USER_DATA,
        inquire=True,
        effect="copied into the MQTM",
    ),
)

Q_MGR: tuple[Attribute, ...] = (
    row(
        "QMNAME",
        Text(48, "queue manager"),
        _QM,
        "",
        field="name",
        role="name",
        parameter=CMQC.MQCA_Q_MGR_NAME,
        inquire=True,
        effect="the queue manager's name",
    ),
    row(
        "QSGNAME",
        Text(4),
        _QM,
        "",
        field="qsg_name",
        role="fixed",
        parameter=CMQC.MQCA_QSG_NAME,
        inquire=True,
        effect="its queue-sharing group",
    ),
    row(
        "PLATFORM",
        _PLATFORM,
        _QM,
        CMQC.MQPL_ZOS,
        field="rules.platform",
        role="fixed",
        parameter=CMQC.MQIA_PLATFORM,
        inquire=True,
        effect="MVS: z/OS's rules (docs/rules.md)",
    ),
    row(
        "COMMANDQ",
        Text(48),
        _QM,
        "SYSTEM.COMMAND.INPUT",
        role="fixed",
        parameter=CMQC.MQCA_COMMAND_INPUT_Q_NAME,
        inquire=True,
        effect="where the command server reads",
    ),
    row(
        "DESCR",
        Text(64),
        _QM,
        "",
        field="description",
        parameter=CMQC.MQCA_Q_MGR_DESC,
        inquire=True,
        effect="shown and inquired",
    ),
    row(
        "DEADQ",
        Text(48, "DEADQ queue"),
        _QM,
        "",
        field="dead_letter_queue",
        parameter=CMQC.MQCA_DEAD_LETTER_Q_NAME,
        inquire=True,
        effect="where undeliverable messages go",
    ),
    row(
        "DEFXMITQ",
        Text(48, "DEFXMITQ queue"),
        _QM,
        "",
        field="def_xmit_q_name",
        parameter=CMQC.MQCA_DEF_XMIT_Q_NAME,
        inquire=True,
        effect="the transmission queue for a queue manager with no route of its own",
    ),
    row(
        "EXPRYINT",
        Number(1, 99_999_999, {"OFF": 0}),
        _QM,
        0,
        field="expiry_interval",
        parameter=CMQC.MQIA_EXPIRY_INTERVAL,
        inquire=True,
        effect="seconds between scans for expired messages",
    ),
    row(
        "MAXUMSGS",
        Number(1, 999_999_999),
        _QM,
        10_000,
        field="rules.max_uncommitted_msgs",
        parameter=CMQC.MQIA_MAX_UNCOMMITTED_MSGS,
        inquire=True,
        effect="MQRC_SYNCPOINT_LIMIT_REACHED (2024) past it",
    ),
    row(
        "MAXMSGL",
        Number(0, 104_857_600),
        _QM,
        104_857_600,
        field="rules.max_msg_length",
        role="fixed",
        parameter=CMQC.MQIA_MAX_MSG_LENGTH,
        inquire=True,
        effect="the longest message (fixed at 100 MB on z/OS)",
    ),
    row(
        "TRIGINT",
        _COUNT,
        _QM,
        999_999_999,
        field="trigger_interval",
        parameter=CMQC.MQIA_TRIGGER_INTERVAL,
        inquire=True,
        effect="milliseconds before a FIRST trigger is repeated",
    ),
    row(
        "PERFMEV",
        _EVENT,
        _QM,
        F.MQEVR_DISABLED,
        field="performance_event",
        parameter=CMQC.MQIA_PERFORMANCE_EVENT,
        inquire=True,
        effect="ENABLED: queue depth and service interval events (docs/mq-events.md)",
    ),
    row(
        "INHIBTEV",
        _EVENT,
        _QM,
        F.MQEVR_DISABLED,
        field="inhibit_event",
        parameter=CMQC.MQIA_INHIBIT_EVENT,
        inquire=True,
        effect="ENABLED: Put and Get Inhibited events on SYSTEM.ADMIN.QMGR.EVENT",
    ),
    row(
        "LOCALEV",
        _EVENT,
        _QM,
        F.MQEVR_DISABLED,
        field="local_event",
        parameter=CMQC.MQIA_LOCAL_EVENT,
        inquire=True,
        effect="ENABLED: Unknown Object Name events on SYSTEM.ADMIN.QMGR.EVENT",
    ),
    row(
        "AUTHOREV",
        # "ALTER QMGR": AUTHOREV(DISABLED | ENABLED), ENABLED noted "Not valid on z/OS".
        Choice(
            {"DISABLED": F.MQEVR_DISABLED},
            refused={
                "ENABLED": _NOT_ON_Z_OS + " (authority events are the distributed platforms')"
            },
        ),
        _QM,
        F.MQEVR_DISABLED,
        field="authority_event",
        parameter=CMQC.MQIA_AUTHORITY_EVENT,
        inquire=True,
        why="IBM issues authority events on Multiplatforms only: z/OS takes DISABLED, "
        "and ENABLED is refused",
    ),
    row(
        "CHLEV",
        _CHLEV,
        _QM,
        F.MQEVR_DISABLED,
        field="channel_event",
        parameter=CMQC.MQIA_CHANNEL_EVENT,
        inquire=True,
        effect="ENABLED: Channel Started and Stopped events on SYSTEM.ADMIN.CHANNEL.EVENT; "
        "EXCEPTION: only the stops that report an error (docs/mq-events.md)",
    ),
    row(
        "IGQ",
        _IGQ,
        _QM,
        False,
        field="intra_group_queuing",
        parameter=CMQC.MQIA_INTRA_GROUP_QUEUING,
        inquire=True,
        effect="ENABLED: puts for another member go by SYSTEM.QSG.TRANSMIT.QUEUE "
        "(docs/channels.md)",
    ),
    row(
        "IGQAUT",
        _IGQAUT,
        _QM,
        CMQC.MQIGQPA_DEFAULT,
        field="igq_put_authority",
        parameter=CMQC.MQIA_IGQ_PUT_AUTHORITY,
        inquire=True,
        effect="whose authority the IGQ agent's put is checked with (docs/channels.md)",
    ),
    row(
        "IGQUSER",
        Text(12),
        _QM,
        "",
        field="igq_user_id",
        parameter=CMQC.MQCA_IGQ_USER_ID,
        inquire=True,
        effect="the user ID IGQAUT names (blank: the receiving queue manager's own)",
    ),
    row(
        "SQQMNAME",
        _SQQMNAME,
        _QM,
        CMQC.MQSQQM_USE,
        field="shared_q_q_mgr_name",
        parameter=CMQC.MQIA_SHARED_Q_Q_MGR_NAME,
        inquire=True,
        effect="USE: an MQOPEN of a shared queue naming another member goes by it; "
        "IGNORE: opened directly",
    ),
    # IBM's "ALTER QMGR (alter queue manager settings)" lists CFCONLOS(TERMINATE |
    # TOLERATE) without a default (an ALTER shows none), and neither "Change Queue
    # Manager" nor "Coupling facility structure properties" gives one: TERMINATE, what a
    # member did on losing the administration structure before CFCONLOS came (MQ 7.1),
    # is taken as a new queue manager's; not confirmed by IBM's text (bench/RESULTS.md).
    row(
        "CFCONLOS",
        Choice(_CFCONLOS),
        _QM,
        CMQC.MQCFCONLOS_TERMINATE,
        field="cf_conlos",
        parameter=CMQC.MQIA_QMGR_CFCONLOS,
        inquire=True,
        effect="what it does on losing connectivity to the administration structure, and "
        "to a structure of CFCONLOS(ASQMGR) (docs/coupling-facility.md)",
    ),
)

__all__ = ["APPLTYPE", "CF_STRUCTURES", "CHANNELS", "CHLTYPE", "PROCESSES", "Q_MGR"]
