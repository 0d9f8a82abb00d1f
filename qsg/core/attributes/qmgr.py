"""The rest of the queue manager's attributes: every keyword z/OS's ALTER QMGR takes
that qsg keeps and shows without effect, and what DISPLAY QMGR shows that no command
sets (CMDLEVEL, CPILEVEL, MAXPRTY, ...).

Keywords, values, ranges and defaults are those of IBM's "ALTER QMGR (alter queue
manager settings)" for z/OS (a keyword marked there "Not valid on z/OS", such as
ACCTINT, CCSID, CHAD or STATMQI, is not a row: z/OS answers it CSQ9001E); the
parameter identifiers are those of "Change Queue Manager" and "Inquire Queue Manager
(Response)" (cmqc.h, cmqcfc.h), which are also MQINQ's selectors on a queue manager
("Attributes for the queue manager"). CCSID is shown, not set: "Not valid on z/OS" for
ALTER QMGR, where the system parameters give it.
"""

from __future__ import annotations

from typing import Any

from qsg import CMQC
from qsg import CMQCFC as F
from qsg.core.attributes.attribute import QMGR, Attribute, row
from qsg.core.attributes.kinds import Choice, Kind, Number, Text

_QM = frozenset({QMGR})
_COUNT = Number(0, 999_999_999)
_CHANNELS = Number(1, 9999)

_ONOFF = {"DISABLED": F.MQEVR_DISABLED, "ENABLED": F.MQEVR_ENABLED}
_EVENT = Choice(_ONOFF)
_RECORDING = Choice(
    {
        "DISABLED": CMQC.MQRECORDING_DISABLED,
        "MSG": CMQC.MQRECORDING_MSG,
        "QUEUE": CMQC.MQRECORDING_Q,
    }
)
_MONITORING = {
    "OFF": CMQC.MQMON_OFF,
    "NONE": CMQC.MQMON_NONE,
    "LOW": CMQC.MQMON_LOW,
    "MEDIUM": CMQC.MQMON_MEDIUM,
    "HIGH": CMQC.MQMON_HIGH,
}
_CLUSTER_MONITORING = {
    "QMGR": CMQC.MQMON_Q_MGR,
    "OFF": CMQC.MQMON_OFF,
    "LOW": CMQC.MQMON_LOW,
    "MEDIUM": CMQC.MQMON_MEDIUM,
    "HIGH": CMQC.MQMON_HIGH,
}

_NO_CHINIT = "the channel initiator's address spaces, tasks and tuning are not simulated"
_NO_CLUSTERS = "clusters are not simulated: channels are defined by hand"
_NO_PUBSUB = "publish/subscribe is not simulated"
_NO_TLS = "TLS is not simulated (the simulated network is trusted)"
_NO_SNA = "LU 6.2 is not simulated: the channels use TCP"
_NO_TCP = "the simulated network is in process: no TCP/IP stack, ports or DNS"
_NO_MONITORING = "online monitoring and statistics data are not collected"
_NO_EVENT = "qsg raises no such event (docs/mq-events.md lists the ones it raises)"
_NO_SECURITY = "security is qsg's own authority table (docs/security.md), not RACF"
_NO_RECORDING = "activity and trace-route reports are not generated"
_NO_ADOPT = "a channel's partner never dies unseen: no orphaned MCA to adopt"


def _kept(keyword: str, kind: Kind, default: Any, parameter: int, why: str) -> Attribute:
    """A row ALTER QMGR takes, DISPLAY QMGR and PCF show and MQINQ reads ("Attributes for
    the queue manager": "To determine the value of this attribute, use the MQIA_...
    selector with the MQINQ call"), kept without effect."""
    return row(keyword, kind, _QM, default, parameter=parameter, inquire=True, why=why)


def _fixed(keyword: str, kind: Kind, default: Any, parameter: int, effect: str) -> Attribute:
    """A row DISPLAY QMGR shows and MQINQ reads, which no command sets."""
    return row(
        keyword,
        kind,
        _QM,
        default,
        role="fixed",
        parameter=parameter,
        inquire=True,
        effect=effect,
    )


Q_MGR_KEPT: tuple[Attribute, ...] = (
    _kept(
        "ACCTQ",
        Choice({"OFF": CMQC.MQMON_OFF, "ON": CMQC.MQMON_ON, "NONE": CMQC.MQMON_NONE}),
        CMQC.MQMON_OFF,
        CMQC.MQIA_ACCOUNTING_Q,
        "accounting data are not collected",
    ),
    _kept("ACTCHL", _CHANNELS, 200, CMQC.MQIA_ACTIVE_CHANNELS, _NO_CHINIT),
    _kept(
        "ACTIVREC", _RECORDING, CMQC.MQRECORDING_MSG, CMQC.MQIA_ACTIVITY_RECORDING, _NO_RECORDING
    ),
    _kept(
        "ADOPTCHK",
        Choice(
            {
                "ALL": CMQC.MQADOPT_CHECK_ALL,
                "NETADDR": CMQC.MQADOPT_CHECK_NET_ADDR,
                "NONE": CMQC.MQADOPT_CHECK_NONE,
                "QMNAME": CMQC.MQADOPT_CHECK_Q_MGR_NAME,
            }
        ),
        CMQC.MQADOPT_CHECK_ALL,
        CMQC.MQIA_ADOPTNEWMCA_CHECK,
        _NO_ADOPT,
    ),
    _kept(
        "ADOPTMCA",
        Choice({"ALL": CMQC.MQADOPT_TYPE_ALL, "NO": CMQC.MQADOPT_TYPE_NO}),
        CMQC.MQADOPT_TYPE_ALL,
        CMQC.MQIA_ADOPTNEWMCA_TYPE,
        _NO_ADOPT,
    ),
    _kept(
        "BRIDGEEV",
        _EVENT,
        F.MQEVR_DISABLED,
        CMQC.MQIA_BRIDGE_EVENT,
        "the IMS bridge is not simulated",
    ),
    _kept("CERTLABL", Text(64), "", CMQC.MQCA_CERT_LABEL, _NO_TLS),
    _kept("CERTQSGL", Text(64), "", CMQC.MQCA_QSG_CERT_LABEL, _NO_TLS),
    _kept("CHADEXIT", Text(8), "", CMQC.MQCA_CHANNEL_AUTO_DEF_EXIT, "channel exits are not run"),
    _kept("CHIADAPS", Number(0, 9999), 8, CMQC.MQIA_CHINIT_ADAPTERS, _NO_CHINIT),
    _kept("CHIDISPS", _CHANNELS, 5, CMQC.MQIA_CHINIT_DISPATCHERS, _NO_CHINIT),
    _kept("CHISERVP", Text(32), "", CMQC.MQCA_CHINIT_SERVICE_PARM, _NO_CHINIT),
    _kept(
        "CHLAUTH",
        Choice({"DISABLED": F.MQCHLA_DISABLED, "ENABLED": F.MQCHLA_ENABLED}),
        F.MQCHLA_ENABLED,
        CMQC.MQIA_CHLAUTH_RECORDS,
        "qsg's SET CHLAUTH TYPE(QMGRMAP) records apply whatever the switch says",
    ),
    _kept("CLWLDATA", Text(32), "", CMQC.MQCA_CLUSTER_WORKLOAD_DATA, _NO_CLUSTERS),
    _kept("CLWLEXIT", Text(8), "", CMQC.MQCA_CLUSTER_WORKLOAD_EXIT, _NO_CLUSTERS),
    _kept("CLWLLEN", Number(0, 999_999_999), 100, CMQC.MQIA_CLUSTER_WORKLOAD_LENGTH, _NO_CLUSTERS),
    _kept(
        "CLWLMRUC", Number(1, 999_999_999), 999_999_999, CMQC.MQIA_CLWL_MRU_CHANNELS, _NO_CLUSTERS
    ),
    _kept(
        "CLWLUSEQ",
        Choice({"LOCAL": CMQC.MQCLWL_USEQ_LOCAL, "ANY": CMQC.MQCLWL_USEQ_ANY}),
        CMQC.MQCLWL_USEQ_LOCAL,
        CMQC.MQIA_CLWL_USEQ,
        _NO_CLUSTERS,
    ),
    _kept(
        "CMDEV",
        Choice({**_ONOFF, "NODISPLAY": F.MQEVR_NO_DISPLAY}),
        F.MQEVR_DISABLED,
        CMQC.MQIA_COMMAND_EVENT,
        _NO_EVENT,
    ),
    _kept("CONFIGEV", _EVENT, F.MQEVR_DISABLED, CMQC.MQIA_CONFIGURATION_EVENT, _NO_EVENT),
    _kept("CONNAUTH", Text(48), "", CMQC.MQCA_CONN_AUTH, _NO_SECURITY),
    _kept("CUSTOM", Text(128), "", CMQC.MQCA_CUSTOM, "reserved by IBM for new attributes"),
    _kept(
        "DEFCLXQ",
        Choice({"SCTQ": F.MQCLXQ_SCTQ, "CHANNEL": F.MQCLXQ_CHANNEL}),
        F.MQCLXQ_SCTQ,
        CMQC.MQIA_DEF_CLUSTER_XMIT_Q_TYPE,
        _NO_CLUSTERS,
    ),
    _kept("DNSGROUP", Text(18), "", CMQC.MQCA_DNS_GROUP, _NO_TCP),
    _kept("DNSWLM", Choice({"NO": CMQC.MQDNSWLM_NO}), CMQC.MQDNSWLM_NO, CMQC.MQIA_DNS_WLM, _NO_TCP),
    _kept(
        "GROUPUR",
        Choice({"DISABLED": F.MQGUR_DISABLED, "ENABLED": F.MQGUR_ENABLED}),
        F.MQGUR_DISABLED,
        CMQC.MQIA_GROUP_UR,
        "group units of recovery (XA clients) are not simulated",
    ),
    _kept(
        "IPADDRV",
        Choice({"IPV4": CMQC.MQIPADDR_IPV4, "IPV6": CMQC.MQIPADDR_IPV6}),
        CMQC.MQIPADDR_IPV4,
        CMQC.MQIA_IP_ADDRESS_VERSION,
        _NO_TCP,
    ),
    _kept("LSTRTMR", Number(5, 9999), 60, CMQC.MQIA_LISTENER_TIMER, _NO_TCP),
    _kept("LUGROUP", Text(8), "", CMQC.MQCA_LU_GROUP_NAME, _NO_SNA),
    _kept("LUNAME", Text(8), "", CMQC.MQCA_LU_NAME, _NO_SNA),
    _kept("LU62ARM", Text(2), "", CMQC.MQCA_LU62_ARM_SUFFIX, _NO_SNA),
    _kept("LU62CHL", Number(0, 9999), 200, CMQC.MQIA_LU62_CHANNELS, _NO_SNA),
    _kept(
        "MARKINT",
        Number(0, 999_999_999, {"NOLIMIT": CMQC.MQMMBI_UNLIMITED}),
        5000,
        CMQC.MQIA_MSG_MARK_BROWSE_INTERVAL,
        "browse with mark (MQGMO_MARK_BROWSE_*) is not simulated",
    ),
    _kept("MAXCHL", _CHANNELS, 200, CMQC.MQIA_MAX_CHANNELS, _NO_CHINIT),
    _kept(
        "MAXHANDS",
        Number(0, 999_999_999),
        256,
        CMQC.MQIA_MAX_HANDLES,
        "a connection may hold any number of handles",
    ),
    _kept(
        "MAXPROPL",
        Number(0, 104_857_600, {"NOLIMIT": CMQC.MQPROP_UNRESTRICTED_LENGTH}),
        CMQC.MQPROP_UNRESTRICTED_LENGTH,
        CMQC.MQIA_MAX_PROPERTIES_LENGTH,
        "message properties are not simulated",
    ),
    _kept(
        "MONACLS",
        Choice(_CLUSTER_MONITORING),
        CMQC.MQMON_Q_MGR,
        CMQC.MQIA_MONITORING_AUTO_CLUSSDR,
        _NO_MONITORING,
    ),
    _kept(
        "MONCHL", Choice(_MONITORING), CMQC.MQMON_OFF, CMQC.MQIA_MONITORING_CHANNEL, _NO_MONITORING
    ),
    _kept("MONQ", Choice(_MONITORING), CMQC.MQMON_OFF, CMQC.MQIA_MONITORING_Q, _NO_MONITORING),
    _kept("OPORTMAX", Number(0, 65535), 0, CMQC.MQIA_OUTBOUND_PORT_MAX, _NO_TCP),
    _kept("OPORTMIN", Number(0, 65535), 0, CMQC.MQIA_OUTBOUND_PORT_MIN, _NO_TCP),
    _kept("PARENT", Text(48), "", CMQC.MQCA_PARENT, _NO_PUBSUB),
    _kept(
        "PSCLUS",
        Choice({"ENABLED": CMQC.MQPSCLUS_ENABLED, "DISABLED": CMQC.MQPSCLUS_DISABLED}),
        CMQC.MQPSCLUS_ENABLED,
        CMQC.MQIA_PUBSUB_CLUSTER,
        _NO_PUBSUB,
    ),
    _kept(
        "PSMODE",
        Choice(
            {
                "COMPAT": CMQC.MQPSM_COMPAT,
                "DISABLED": CMQC.MQPSM_DISABLED,
                "ENABLED": CMQC.MQPSM_ENABLED,
            }
        ),
        CMQC.MQPSM_ENABLED,
        CMQC.MQIA_PUBSUB_MODE,
        _NO_PUBSUB,
    ),
    _kept(
        "PSNPMSG",
        Choice({"DISCARD": F.MQUNDELIVERED_DISCARD, "KEEP": F.MQUNDELIVERED_KEEP}),
        F.MQUNDELIVERED_DISCARD,
        CMQC.MQIA_PUBSUB_NP_MSG,
        _NO_PUBSUB,
    ),
    _kept(
        "PSNPRES",
        Choice(
            {
                "NORMAL": F.MQUNDELIVERED_NORMAL,
                "SAFE": F.MQUNDELIVERED_SAFE,
                "DISCARD": F.MQUNDELIVERED_DISCARD,
                "KEEP": F.MQUNDELIVERED_KEEP,
            }
        ),
        F.MQUNDELIVERED_NORMAL,
        CMQC.MQIA_PUBSUB_NP_RESP,
        _NO_PUBSUB,
    ),
    _kept("PSRTYCNT", _COUNT, 5, CMQC.MQIA_PUBSUB_MAXMSG_RETRY_COUNT, _NO_PUBSUB),
    _kept(
        "PSSYNCPT",
        Choice({"IFPER": F.MQSYNCPOINT_IFPER, "YES": F.MQSYNCPOINT_YES}),
        F.MQSYNCPOINT_IFPER,
        CMQC.MQIA_PUBSUB_SYNC_PT,
        _NO_PUBSUB,
    ),
    _kept("RCVTIME", Number(0, 1000), 0, CMQC.MQIA_RECEIVE_TIMEOUT, _NO_CHINIT),
    _kept("RCVTMIN", Number(0, 3600), 0, CMQC.MQIA_RECEIVE_TIMEOUT_MIN, _NO_CHINIT),
    _kept(
        "RCVTTYPE",
        Choice(
            {
                "MULTIPLY": CMQC.MQRCVTIME_MULTIPLY,
                "ADD": CMQC.MQRCVTIME_ADD,
                "EQUAL": CMQC.MQRCVTIME_EQUAL,
            }
        ),
        CMQC.MQRCVTIME_MULTIPLY,
        CMQC.MQIA_RECEIVE_TIMEOUT_TYPE,
        "a channel's receive timeout is its HBINT (docs/channels.md)",
    ),
    _kept("REMOTEEV", _EVENT, F.MQEVR_DISABLED, CMQC.MQIA_REMOTE_EVENT, _NO_EVENT),
    _kept("REPOS", Text(48), "", CMQC.MQCA_REPOSITORY_NAME, _NO_CLUSTERS),
    _kept("REPOSNL", Text(48), "", CMQC.MQCA_REPOSITORY_NAMELIST, _NO_CLUSTERS),
    _kept(
        "REVDNS",
        Choice({"ENABLED": F.MQRDNS_ENABLED, "DISABLED": F.MQRDNS_DISABLED}),
        F.MQRDNS_ENABLED,
        CMQC.MQIA_REVERSE_DNS_LOOKUP,
        _NO_TCP,
    ),
    _kept(
        "ROUTEREC", _RECORDING, CMQC.MQRECORDING_MSG, CMQC.MQIA_TRACE_ROUTE_RECORDING, _NO_RECORDING
    ),
    _kept(
        "SCYCASE",
        Choice({"UPPER": CMQC.MQSCYC_UPPER, "MIXED": CMQC.MQSCYC_MIXED}),
        CMQC.MQSCYC_UPPER,
        CMQC.MQIA_SECURITY_CASE,
        _NO_SECURITY,
    ),
    _kept("SSLCRLNL", Text(48), "", CMQC.MQCA_SSL_CRL_NAMELIST, _NO_TLS),
    _kept("SSLEV", _EVENT, F.MQEVR_DISABLED, CMQC.MQIA_SSL_EVENT, _NO_TLS),
    _kept(
        "SSLFIPS",
        Choice({"NO": CMQC.MQSSL_FIPS_NO, "YES": CMQC.MQSSL_FIPS_YES}),
        CMQC.MQSSL_FIPS_NO,
        CMQC.MQIA_SSL_FIPS_REQUIRED,
        _NO_TLS,
    ),
    _kept("SSLKEYR", Text(256), "", CMQC.MQCA_SSL_KEY_REPOSITORY, _NO_TLS),
    _kept("SSLRKEYC", Number(0, 999_999_999), 0, CMQC.MQIA_SSL_RESET_COUNT, _NO_TLS),
    _kept("SSLTASKS", Number(0, 9999), 0, CMQC.MQIA_SSL_TASKS, _NO_TLS),
    _kept(
        "STATACLS",
        Choice(_CLUSTER_MONITORING),
        CMQC.MQMON_Q_MGR,
        CMQC.MQIA_STATISTICS_AUTO_CLUSSDR,
        _NO_MONITORING,
    ),
    _kept(
        "STATCHL",
        Choice(_MONITORING),
        CMQC.MQMON_OFF,
        CMQC.MQIA_STATISTICS_CHANNEL,
        _NO_MONITORING,
    ),
    # "QueueStatistics (MQLONG)" of the queue manager: MQMON_NONE "is the default value".
    _kept(
        "STATQ",
        Choice(
            {"NONE": CMQC.MQMON_NONE, "OFF": CMQC.MQMON_OFF, "ON": CMQC.MQMON_ON},
        ),
        CMQC.MQMON_NONE,
        CMQC.MQIA_STATISTICS_Q,
        "queue statistics (z/OS's SMF 115 subtype 216 records) are not collected",
    ),
    _kept(
        "STRSTPEV",
        Choice({"ENABLED": F.MQEVR_ENABLED, "DISABLED": F.MQEVR_DISABLED}),
        F.MQEVR_ENABLED,
        CMQC.MQIA_START_STOP_EVENT,
        _NO_EVENT,
    ),
    # "ALTER QMGR": SUITEB(NONE | 128_BIT | 192_BIT | 128_BIT,192_BIT); MQINQ answers the
    # MQ_SUITE_B_* values of the strengths given, added together.
    _kept(
        "SUITEB",
        Choice(
            {
                "NONE": CMQC.MQ_SUITE_B_NONE,
                "128_BIT": CMQC.MQ_SUITE_B_128_BIT,
                "192_BIT": CMQC.MQ_SUITE_B_192_BIT,
                "128_BIT,192_BIT": CMQC.MQ_SUITE_B_128_BIT | CMQC.MQ_SUITE_B_192_BIT,
                "192_BIT,128_BIT": CMQC.MQ_SUITE_B_128_BIT | CMQC.MQ_SUITE_B_192_BIT,
            }
        ),
        CMQC.MQ_SUITE_B_NONE,
        CMQC.MQIA_SUITE_B_STRENGTH,
        _NO_TLS,
    ),
    _kept("TCPCHL", Number(0, 9999), 200, CMQC.MQIA_TCP_CHANNELS, _NO_TCP),
    _kept(
        "TCPKEEP",
        Choice({"NO": CMQC.MQTCPKEEP_NO, "YES": CMQC.MQTCPKEEP_YES}),
        CMQC.MQTCPKEEP_NO,
        CMQC.MQIA_TCP_KEEP_ALIVE,
        _NO_TCP,
    ),
    _kept("TCPNAME", Text(8), "TCPIP", CMQC.MQCA_TCP_NAME, _NO_TCP),
    _kept(
        "TCPSTACK",
        Choice({"SINGLE": CMQC.MQTCPSTACK_SINGLE, "MULTIPLE": CMQC.MQTCPSTACK_MULTIPLE}),
        CMQC.MQTCPSTACK_SINGLE,
        CMQC.MQIA_TCP_STACK_TYPE,
        _NO_TCP,
    ),
    _kept(
        "TRAXSTR",
        Choice({"YES": CMQC.MQTRAXSTR_YES, "NO": CMQC.MQTRAXSTR_NO}),
        CMQC.MQTRAXSTR_YES,
        CMQC.MQIA_CHINIT_TRACE_AUTO_START,
        _NO_CHINIT,
    ),
    _kept("TRAXTBL", Number(2, 2048), 2, CMQC.MQIA_CHINIT_TRACE_TABLE_SIZE, _NO_CHINIT),
    _kept(
        "TREELIFE",
        Number(0, 604_000),
        1800,
        CMQC.MQIA_TREE_LIFE_TIME,
        _NO_PUBSUB,
    ),
)

#: What DISPLAY QMGR shows and MQINQ reads that no command sets: z/OS's values.
Q_MGR_FIXED: tuple[Attribute, ...] = (
    _fixed("CCSID", Number(1, 65535), 500, CMQC.MQIA_CODED_CHAR_SET_ID, "500: EBCDIC, z/OS's"),
    _fixed("CMDLEVEL", Number(0, 999), 940, CMQC.MQIA_COMMAND_LEVEL, "940: IBM MQ 9.4"),
    _fixed("CPILEVEL", Number(0, 999), 100, CMQC.MQIA_CPI_LEVEL, "reserved by IBM: 100"),
    # "DISPLAY QMGR": ADVCAP, SPLCAP and VERSION carry no "Not valid on z/OS" note.
    _fixed(
        "ADVCAP",
        Choice({"ENABLED": CMQC.MQCAP_SUPPORTED, "DISABLED": CMQC.MQCAP_NOT_SUPPORTED}),
        CMQC.MQCAP_NOT_SUPPORTED,
        CMQC.MQIA_ADVANCED_CAPABILITY,
        "DISABLED: no IBM MQ Advanced for z/OS VUE capabilities are simulated",
    ),
    _fixed(
        "SPLCAP",
        Choice({"ENABLED": CMQC.MQCAP_SUPPORTED, "DISABLED": CMQC.MQCAP_NOT_SUPPORTED}),
        CMQC.MQCAP_NOT_SUPPORTED,
        CMQC.MQIA_PROT_POLICY_CAPABILITY,
        "DISABLED: Advanced Message Security is not simulated",
    ),
    _fixed("VERSION", Text(8), "09040000", CMQC.MQCA_VERSION, "09040000: IBM MQ 9.4.0, VVRRMMFF"),
    # "DISPLAY QMGR": XRCAP, whether MQ Telemetry is supported, has no z/OS note either.
    _fixed(
        "XRCAP",
        Choice({"YES": CMQC.MQCAP_SUPPORTED, "NO": CMQC.MQCAP_NOT_SUPPORTED}),
        CMQC.MQCAP_NOT_SUPPORTED,
        CMQC.MQIA_XR_CAPABILITY,
        "NO: MQ Telemetry (MQTT channels) is not simulated",
    ),
    _fixed("MAXPRTY", Number(0, 9), 9, CMQC.MQIA_MAX_PRIORITY, "9: priorities 0..9"),
    _fixed(
        "SYNCPT",
        Choice({"SYNCPT": CMQC.MQSP_AVAILABLE}, bare=True),
        CMQC.MQSP_AVAILABLE,
        CMQC.MQIA_SYNCPOINT,
        "units of work are available (docs/rules.md)",
    ),
)

#: DISPLAY QMGR's groups of attributes ("DISPLAY QMGR (display queue manager
#: settings)": SYSTEM, EVENT, CHINIT, CLUSTER, PUBSUB), each a word that asks for them all.
DISPLAY_GROUPS: dict[str, tuple[str, ...]] = {
    "SYSTEM": (
        *("ACCTQ", "ACTIVREC", "ALTDATE", "ALTTIME", "CCSID", "CFCONLOS", "CMDLEVEL"),
        *("COMMANDQ", "CONNAUTH", "CPILEVEL", "CUSTOM", "DEADQ", "DESCR", "EXPRYINT"),
        *("GROUPUR", "MARKINT", "MAXHANDS", "MAXMSGL", "MAXPROPL", "MAXPRTY", "MAXUMSGS"),
        *("MONQ", "PLATFORM", "QMNAME", "QSGNAME", "ROUTEREC", "SCYCASE", "SQQMNAME"),
        *("SPLCAP", "STATQ", "SYNCPT", "TRIGINT", "VERSION", "XRCAP", "ADVCAP"),
    ),
    "EVENT": (
        *("AUTHOREV", "BRIDGEEV", "CHLEV", "CMDEV", "CONFIGEV", "INHIBTEV", "LOCALEV"),
        *("PERFMEV", "REMOTEEV", "SSLEV", "STRSTPEV"),
    ),
    "CHINIT": (
        *("ACTCHL", "ADOPTCHK", "ADOPTMCA", "CERTLABL", "CERTQSGL", "CHADEXIT", "CHIADAPS"),
        *("CHIDISPS", "CHISERVP", "CHLAUTH", "CHLEV", "DEADQ", "DEFXMITQ", "DNSGROUP"),
        *("DNSWLM", "IGQ", "IGQAUT", "IGQUSER", "IPADDRV", "LSTRTMR", "LUGROUP", "LUNAME"),
        *("LU62ARM", "LU62CHL", "MAXCHL", "MONACLS", "MONCHL", "OPORTMAX", "OPORTMIN"),
        *("RCVTIME", "RCVTMIN", "RCVTTYPE", "REVDNS", "SSLCRLNL", "SSLEV", "SSLFIPS"),
        *("SSLKEYR", "SSLRKEYC", "SSLTASKS", "STATACLS", "STATCHL", "TCPCHL", "TCPKEEP"),
        *("SUITEB", "TCPNAME", "TCPSTACK", "TRAXSTR", "TRAXTBL"),
    ),
    "CLUSTER": (
        *("CLWLDATA", "CLWLEXIT", "CLWLLEN", "CLWLMRUC", "CLWLUSEQ", "DEFCLXQ", "REPOS"),
        "REPOSNL",
    ),
    "PUBSUB": (
        *("PARENT", "PSCLUS", "PSMODE", "PSNPMSG", "PSNPRES", "PSRTYCNT", "PSSYNCPT"),
        "TREELIFE",
    ),
}

__all__ = ["DISPLAY_GROUPS", "Q_MGR_FIXED", "Q_MGR_KEPT"]
