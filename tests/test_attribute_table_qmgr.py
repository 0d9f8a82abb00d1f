"""The attribute table's queue manager, CF structures, namelists and storage classes
against IBM's own lists (issue 45): every keyword IBM MQ for z/OS documents is accepted,
shown by DISPLAY, answered by PCF by its parameter identifier and, where IBM's MQINQ
takes the selector, by MQINQ; a keyword of another platform or a value out of range is
one CSQ9 line (or a CSQM090E) and changes nothing.

The lists are copied by hand from IBM's "ALTER QMGR (alter queue manager settings)"
(the parameters without "Not valid on z/OS"), "DISPLAY QMGR (display queue manager
settings)", "ALTER CFSTRUCT (alter CF application structure) on z/OS", "DEFINE NAMELIST",
"DEFINE STGCLASS (define storage class to page set mapping) on z/OS", "Change Queue
Manager", "Inquire Namelist (Response)" and "Inquire Storage Class (Response)", not from
the table, so that the table is checked against them.
"""

from __future__ import annotations

import pytest

from qsg import CMQC, CMQCFC, OD, MQMIError, QMgr
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc import commands, load, pcf_changes, pcf_inquiries, status
from qsg.mqsc.pcf import Header, Message
from qsg.pymqi.qmgr_attributes import qmgr_attribute
from tests.claims import keeps

# ALTER QMGR on z/OS: a valid value for each keyword and its PCF parameter identifier
# ("Change Queue Manager"). DEADQ, DEFXMITQ and the others with behaviour are pinned
# elsewhere; these are the ones issue 45 found missing.
ZOS_QMGR_KEYWORDS: dict[str, tuple[str, int]] = {
    "ACCTQ": ("ON", CMQC.MQIA_ACCOUNTING_Q),
    "ACTCHL": ("150", CMQC.MQIA_ACTIVE_CHANNELS),
    "ACTIVREC": ("QUEUE", CMQC.MQIA_ACTIVITY_RECORDING),
    "ADOPTCHK": ("QMNAME", CMQC.MQIA_ADOPTNEWMCA_CHECK),
    "ADOPTMCA": ("NO", CMQC.MQIA_ADOPTNEWMCA_TYPE),
    "BRIDGEEV": ("ENABLED", CMQC.MQIA_BRIDGE_EVENT),
    "CERTLABL": ("MYCERT", CMQC.MQCA_CERT_LABEL),
    "CERTQSGL": ("QSGCERT", CMQC.MQCA_QSG_CERT_LABEL),
    "CFCONLOS": ("TOLERATE", CMQC.MQIA_QMGR_CFCONLOS),
    "CHADEXIT": ("CHADX", CMQC.MQCA_CHANNEL_AUTO_DEF_EXIT),
    "CHIADAPS": ("10", CMQC.MQIA_CHINIT_ADAPTERS),
    "CHIDISPS": ("7", CMQC.MQIA_CHINIT_DISPATCHERS),
    "CHISERVP": ("PARM", CMQC.MQCA_CHINIT_SERVICE_PARM),
    "CHLAUTH": ("DISABLED", CMQC.MQIA_CHLAUTH_RECORDS),
    "CLWLDATA": ("DATA", CMQC.MQCA_CLUSTER_WORKLOAD_DATA),
    "CLWLEXIT": ("CLWLX", CMQC.MQCA_CLUSTER_WORKLOAD_EXIT),
    "CLWLLEN": ("200", CMQC.MQIA_CLUSTER_WORKLOAD_LENGTH),
    "CLWLMRUC": ("10", CMQC.MQIA_CLWL_MRU_CHANNELS),
    "CLWLUSEQ": ("ANY", CMQC.MQIA_CLWL_USEQ),
    "CMDEV": ("NODISPLAY", CMQC.MQIA_COMMAND_EVENT),
    "CONFIGEV": ("ENABLED", CMQC.MQIA_CONFIGURATION_EVENT),
    "CONNAUTH": ("APP.AUTHINFO", CMQC.MQCA_CONN_AUTH),
    "CUSTOM": ("X", CMQC.MQCA_CUSTOM),
    "DEFCLXQ": ("CHANNEL", CMQC.MQIA_DEF_CLUSTER_XMIT_Q_TYPE),
    "DNSGROUP": ("GRP", CMQC.MQCA_DNS_GROUP),
    "DNSWLM": ("NO", CMQC.MQIA_DNS_WLM),
    "GROUPUR": ("ENABLED", CMQC.MQIA_GROUP_UR),
    "IPADDRV": ("IPV6", CMQC.MQIA_IP_ADDRESS_VERSION),
    "LSTRTMR": ("30", CMQC.MQIA_LISTENER_TIMER),
    "LUGROUP": ("LUG", CMQC.MQCA_LU_GROUP_NAME),
    "LUNAME": ("LU1", CMQC.MQCA_LU_NAME),
    "LU62ARM": ("01", CMQC.MQCA_LU62_ARM_SUFFIX),
    "LU62CHL": ("20", CMQC.MQIA_LU62_CHANNELS),
    "MARKINT": ("NOLIMIT", CMQC.MQIA_MSG_MARK_BROWSE_INTERVAL),
    "MAXCHL": ("300", CMQC.MQIA_MAX_CHANNELS),
    "MAXHANDS": ("512", CMQC.MQIA_MAX_HANDLES),
    "MAXPROPL": ("1024", CMQC.MQIA_MAX_PROPERTIES_LENGTH),
    "MONACLS": ("HIGH", CMQC.MQIA_MONITORING_AUTO_CLUSSDR),
    "MONCHL": ("LOW", CMQC.MQIA_MONITORING_CHANNEL),
    "MONQ": ("MEDIUM", CMQC.MQIA_MONITORING_Q),
    "OPORTMAX": ("2000", CMQC.MQIA_OUTBOUND_PORT_MAX),
    "OPORTMIN": ("1000", CMQC.MQIA_OUTBOUND_PORT_MIN),
    "PARENT": ("QM9", CMQC.MQCA_PARENT),
    "PSCLUS": ("DISABLED", CMQC.MQIA_PUBSUB_CLUSTER),
    "PSMODE": ("COMPAT", CMQC.MQIA_PUBSUB_MODE),
    "PSNPMSG": ("KEEP", CMQC.MQIA_PUBSUB_NP_MSG),
    "PSNPRES": ("SAFE", CMQC.MQIA_PUBSUB_NP_RESP),
    "PSRTYCNT": ("3", CMQC.MQIA_PUBSUB_MAXMSG_RETRY_COUNT),
    "PSSYNCPT": ("YES", CMQC.MQIA_PUBSUB_SYNC_PT),
    "RCVTIME": ("2", CMQC.MQIA_RECEIVE_TIMEOUT),
    "RCVTMIN": ("60", CMQC.MQIA_RECEIVE_TIMEOUT_MIN),
    "RCVTTYPE": ("ADD", CMQC.MQIA_RECEIVE_TIMEOUT_TYPE),
    "REMOTEEV": ("ENABLED", CMQC.MQIA_REMOTE_EVENT),
    "REPOS": ("CL1", CMQC.MQCA_REPOSITORY_NAME),
    "REPOSNL": ("CL.NL", CMQC.MQCA_REPOSITORY_NAMELIST),
    "REVDNS": ("DISABLED", CMQC.MQIA_REVERSE_DNS_LOOKUP),
    "ROUTEREC": ("DISABLED", CMQC.MQIA_TRACE_ROUTE_RECORDING),
    "SCYCASE": ("MIXED", CMQC.MQIA_SECURITY_CASE),
    "SSLCRLNL": ("CRL.NL", CMQC.MQCA_SSL_CRL_NAMELIST),
    "SSLEV": ("ENABLED", CMQC.MQIA_SSL_EVENT),
    "SSLFIPS": ("YES", CMQC.MQIA_SSL_FIPS_REQUIRED),
    "SSLKEYR": ("KEYRING", CMQC.MQCA_SSL_KEY_REPOSITORY),
    "SSLRKEYC": ("1000", CMQC.MQIA_SSL_RESET_COUNT),
    "SSLTASKS": ("5", CMQC.MQIA_SSL_TASKS),
    "STATACLS": ("LOW", CMQC.MQIA_STATISTICS_AUTO_CLUSSDR),
    "STATCHL": ("HIGH", CMQC.MQIA_STATISTICS_CHANNEL),
    "STATQ": ("ON", CMQC.MQIA_STATISTICS_Q),
    "STRSTPEV": ("DISABLED", CMQC.MQIA_START_STOP_EVENT),
    "SUITEB": ("128_BIT", CMQC.MQIA_SUITE_B_STRENGTH),
    "TCPCHL": ("100", CMQC.MQIA_TCP_CHANNELS),
    "TCPKEEP": ("YES", CMQC.MQIA_TCP_KEEP_ALIVE),
    "TCPNAME": ("TCPIP2", CMQC.MQCA_TCP_NAME),
    "TCPSTACK": ("MULTIPLE", CMQC.MQIA_TCP_STACK_TYPE),
    "TRAXSTR": ("NO", CMQC.MQIA_CHINIT_TRACE_AUTO_START),
    "TRAXTBL": ("20", CMQC.MQIA_CHINIT_TRACE_TABLE_SIZE),
    "TREELIFE": ("600", CMQC.MQIA_TREE_LIFE_TIME),
}
# The queue manager attributes MQINQ reads on z/OS ("Attributes for the queue manager"),
# among those above, and the value each has after ALTER QMGR gave the value above.
MQINQ_ON_ZOS = {
    "ACTCHL": 150,
    "ADOPTCHK": CMQC.MQADOPT_CHECK_Q_MGR_NAME,
    "CHIADAPS": 10,
    "CLWLLEN": 200,
    "IPADDRV": CMQC.MQIPADDR_IPV6,
    "MAXHANDS": 512,
    "PSMODE": CMQC.MQPSM_COMPAT,
    "TCPNAME": b"TCPIP2  ",
    "TRAXTBL": 20,
    "TREELIFE": 600,
}
# "Not valid on z/OS" in ALTER QMGR's syntax diagram.
DISTRIBUTED_ONLY = {
    "ACCTCONO": "ENABLED",
    "ACCTINT": "1800",
    "ACCTMQI": "ON",
    "ACTVCONO": "ENABLED",
    "ACTVTRC": "ON",
    "CCSID": "819",
    "CHAD": "ENABLED",
    "CHADEV": "ENABLED",
    "IMGINTVL": "60",
    "IMGRCOVO": "YES",
    "IMGSCHED": "AUTO",
    "LOGGEREV": "ENABLED",
    "MAXMSGL": "4194304",
    "SCHINIT": "QMGR",
    "STATINT": "1800",
    "STATMQI": "ON",
}
# ALTER CFSTRUCT on z/OS, every keyword (OFFLD2SZ and the others like it: one of each).
ZOS_CFSTRUCT_KEYWORDS = {
    "CFCONLOS": "TOLERATE",
    "CFLEVEL": "5",
    "DESCR": "'app structure'",
    "DSBLOCK": "1M",
    "DSBUFS": "200",
    "DSEXPAND": "NO",
    "DSGROUP": "MQ.SMDS.*",
    "OFFLD1SZ": "16K",
    "OFFLD1TH": "60",
    "OFFLOAD": "DB2",
    "RECAUTO": "NO",
    "RECOVER": "YES",
}
ZOS_NAMELIST_KEYWORDS = {
    "DESCR": "'queues of the app'",
    "NAMES": "APP.A, APP.B",
    "NLTYPE": "QUEUE",
    "QSGDISP": "QMGR",
}
ZOS_STGCLASS_KEYWORDS = {
    "DESCR": "'remote queues'",
    "PASSTKTA": "APPL1",
    "PSID": "3",
    "QSGDISP": "QMGR",
}


def _console(qm: QMgr, text: str) -> str:
    return commands.run(commands.parse(text), qm, lambda: status.take(qm, qm.time)).text


def _shown(text: str) -> str:
    """The one object line of a DISPLAY's reply."""
    return text.splitlines()[1]


def _pcf(command: int, parameters: dict[int, object]) -> Message:
    return Message(Header(CMQCFC.MQCFT_COMMAND, command), parameters)  # type: ignore[arg-type]


@pytest.mark.parametrize("keyword", sorted(ZOS_QMGR_KEYWORDS))
def test_every_alter_qmgr_keyword_ibm_documents_for_z_os_is_taken_shown_and_answered_by_pcf(
    keyword: str,
) -> None:
    # "ALTER QMGR": the keyword is taken; "DISPLAY QMGR" shows it with the value given;
    # "Inquire Queue Manager (Response)" carries it under IBM's parameter identifier.
    qm = QMgr("QM1")
    value, parameter = ZOS_QMGR_KEYWORDS[keyword]
    reply = _console(qm, f"ALTER QMGR {keyword}({value})")
    assert reply.splitlines()[-1].startswith("CSQ9022I"), reply
    assert f" {keyword}({value})" in _shown(_console(qm, f"DISPLAY QMGR {keyword}"))
    message = _pcf(CMQCFC.MQCMD_INQUIRE_Q_MGR, {})
    (answer,) = pcf_inquiries.inquire_q_mgr(message, qm, status.take(qm, 0.0))
    assert parameter in dict(answer)


def test_mqinq_of_the_queue_manager_answers_every_selector_of_the_list() -> None:
    # "Attributes for the queue manager": each page ends "To determine the value of this
    # attribute, use the MQIA_... (MQCA_...) selector with the MQINQ call".
    qm = QMgr("QM1")
    unanswered = []
    for keyword, (_, selector) in ZOS_QMGR_KEYWORDS.items():
        try:
            qmgr_attribute(qm, selector)
        except MQMIError:
            unanswered.append(keyword)
    assert unanswered == []


@pytest.mark.parametrize("keyword", sorted(MQINQ_ON_ZOS))
def test_mqinq_of_the_queue_manager_reads_what_alter_qmgr_set(keyword: str) -> None:
    # "Attributes for the queue manager": MQINQ on a queue manager handle (pymqi's
    # QueueManager.inquire) answers these selectors on z/OS.
    qm = QMgr("QM1")
    value, selector = ZOS_QMGR_KEYWORDS[keyword]
    load(qm, f"ALTER QMGR {keyword}({value})")
    assert qmgr_attribute(qm, selector) == MQINQ_ON_ZOS[keyword]


@keeps(
    "docs/mqsc.md",
    """a keyword marked "Not valid on z/OS" (ACCTINT, CCSID, CHAD, STATMQI, ...) is CSQ9001E.""",
)
@pytest.mark.parametrize("keyword", sorted(DISTRIBUTED_ONLY))
def test_an_alter_qmgr_keyword_not_valid_on_z_os_is_csq9001e_and_changes_nothing(
    keyword: str,
) -> None:
    # CSQ9001E "'keyword' IS INVALID": z/OS does not take the Multiplatforms' keywords.
    qm = QMgr("QM1")
    before = _console(qm, "DISPLAY QMGR")
    lines = _console(qm, f"ALTER QMGR {keyword}({DISTRIBUTED_ONLY[keyword]})").splitlines()
    assert lines == [
        f"CSQ9001E !QM1 '{keyword}' IS INVALID",
        "CSQ9023E !QM1 CSQMMSGP ' ALTER QMGR' ABNORMAL COMPLETION",
    ]
    assert _console(qm, "DISPLAY QMGR") == before


def test_an_alter_qmgr_value_out_of_ibms_range_is_one_line_and_changes_nothing() -> None:
    # ACTCHL: "a value in the range 1 through 9999"; TRAXTBL: 2 through 2048.
    qm = QMgr("QM1")
    before = _console(qm, "DISPLAY QMGR")
    for text, problem in [
        ("ALTER QMGR ACTCHL(10000)", "ACTCHL(10000): 10000 is not in 1..9999"),
        ("ALTER QMGR TRAXTBL(1)", "TRAXTBL(1): 1 is not in 2..2048"),
        ("ALTER QMGR SCYCASE(LOWER)", "SCYCASE(LOWER): 'LOWER' is not one of UPPER, MIXED"),
    ]:
        lines = _console(qm, text).splitlines()
        assert len(lines) == 2 and problem in lines[0], lines
        assert lines[1].startswith("CSQ9023E")
    assert _console(qm, "DISPLAY QMGR") == before


def test_display_qmgr_shows_z_os_fixed_values_that_no_command_sets() -> None:
    # "DISPLAY QMGR": CMDLEVEL, CPILEVEL, MAXPRTY and SYNCPT (shown bare) are the queue
    # manager's; ALTER QMGR CMDLEVEL(...) is no keyword (CSQ9001E).
    qm = QMgr("QM1")
    shown = _shown(_console(qm, "DISPLAY QMGR"))
    for word in ("CMDLEVEL(940)", "CPILEVEL(100)", "MAXPRTY(9)", " SYNCPT "):
        assert word in shown
    assert _console(qm, "ALTER QMGR CMDLEVEL(800)").startswith("CSQ9001E !QM1 'CMDLEVEL'")
    assert qmgr_attribute(qm, CMQC.MQIA_SYNCPOINT) == CMQC.MQSP_AVAILABLE


def test_pcf_change_queue_manager_sets_a_kept_attribute_by_its_parameter_identifier() -> None:
    # "Change Queue Manager": MaxChannels (MQIA_MAX_CHANNELS), as ALTER QMGR MAXCHL.
    qm = QMgr("QM1")
    message = _pcf(CMQCFC.MQCMD_CHANGE_Q_MGR, {CMQC.MQIA_MAX_CHANNELS: 400})
    pcf_changes.change_q_mgr(message, qm, status.take(qm, 0.0))
    assert "MAXCHL(400)" in _shown(_console(qm, "DISPLAY QMGR MAXCHL"))


def test_every_alter_cfstruct_keyword_ibm_documents_is_taken_and_shown_by_display_cfstruct() -> (
    None
):
    # "ALTER CFSTRUCT (alter CF application structure) on z/OS": each keyword is taken
    # and "DISPLAY CFSTRUCT" shows it with the value given.
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1"))
    load(qm, "DEFINE CFSTRUCT(APP1) CFLEVEL(5)")
    for keyword, value in ZOS_CFSTRUCT_KEYWORDS.items():
        reply = _console(qm, f"ALTER CFSTRUCT(APP1) {keyword}({value})")
        assert reply.splitlines()[-1].startswith("CSQ9022I"), (keyword, reply)
    shown = _shown(_console(qm, "DISPLAY CFSTRUCT(APP1) ALL"))
    missing = [k for k, v in ZOS_CFSTRUCT_KEYWORDS.items() if f" {k}({v})" not in f" {shown}"]
    assert missing == []
    message = _pcf(CMQCFC.MQCMD_INQUIRE_CF_STRUC, {CMQC.MQCA_CF_STRUC_NAME: "APP1"})
    (answer,) = pcf_inquiries.inquire_cf_struc(message, qm, status.take(qm, 0.0))
    assert dict(answer)[CMQC.MQIA_CF_CFCONLOS] == CMQC.MQCFCONLOS_TOLERATE
    assert dict(answer)[CMQC.MQIA_CF_SMDS_BUFFERS] == 200
    assert dict(answer)[CMQCFC.MQIACF_CF_SMDS_BLOCK_SIZE] == CMQC.MQDSB_1M


def test_a_cfstruct_value_out_of_range_is_refused_and_the_structure_is_unchanged() -> None:
    # DSBUFS: "in the range 1 through 9999"; DSBLOCK: 8K, 16K, ... 1M only.
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1"))
    load(qm, "DEFINE CFSTRUCT(APP1) DSBUFS(50)")
    assert qm.qsg is not None
    before = qm.qsg.shared.structures["APP1"]
    for text in ("ALTER CFSTRUCT(APP1) DSBUFS(0)", "ALTER CFSTRUCT(APP1) DSBLOCK(2M)"):
        lines = _console(qm, text).splitlines()
        assert len(lines) == 2 and lines[1].startswith("CSQ9023E"), lines
    assert qm.qsg.shared.structures["APP1"] == before


def test_a_namelist_takes_every_keyword_ibm_documents_and_display_and_pcf_show_it() -> None:
    # "DEFINE NAMELIST": NAMES, NLTYPE, DESCR, QSGDISP; "DISPLAY NAMELIST" shows them and
    # NAMCOUNT; "Inquire Namelist (Response)": Names is an MQCFSL, NameCount an MQCFIN.
    qm = QMgr("QM1")
    words = " ".join(f"{k}({v})" for k, v in ZOS_NAMELIST_KEYWORDS.items())
    assert "CSQ9022I" in _console(qm, f"DEFINE NAMELIST(APP.NL) {words}")
    shown = _shown(_console(qm, "DISPLAY NAMELIST(APP.NL) ALL"))
    assert shown.startswith("CSQM408I !QM1 NAMELIST(APP.NL) QSGDISP(QMGR) ")
    for part in ("NLTYPE(QUEUE)", "NAMCOUNT(2)", "DESCR('queues of the app')", "NAMES("):
        assert part in shown
    message = _pcf(
        CMQCFC.MQCMD_INQUIRE_NAMELIST,
        {CMQC.MQCA_NAMELIST_NAME: "APP.*", CMQCFC.MQIACF_NAMELIST_ATTRS: [CMQCFC.MQIACF_ALL]},
    )
    (answer,) = pcf_inquiries.inquire_namelist(message, qm, status.take(qm, 0.0))
    assert dict(answer)[CMQC.MQCA_NAMES] == ["APP.A", "APP.B"]
    assert dict(answer)[CMQC.MQIA_NAME_COUNT] == 2
    assert dict(answer)[CMQC.MQIA_NAMELIST_TYPE] == CMQC.MQNT_Q


@keeps("docs/mqsc.md", "PCF creates, changes, deletes and inquires them")
def test_pcf_creates_changes_and_deletes_a_namelist_with_names_as_a_string_list() -> None:
    # "Change, Copy, and Create Namelist": Names (MQCFSL, MQCA_NAMES).
    qm = QMgr("QM1")
    create = {CMQC.MQCA_NAMELIST_NAME: "APP.NL", CMQC.MQCA_NAMES: ["A.Q", "B.Q", "C.Q"]}
    pcf_changes.create_namelist(
        _pcf(CMQCFC.MQCMD_CREATE_NAMELIST, create), qm, status.take(qm, 0.0)
    )
    assert qm.local.namelists["APP.NL"].names == ("A.Q", "B.Q", "C.Q")
    change = {CMQC.MQCA_NAMELIST_NAME: "APP.NL", CMQC.MQCA_NAMELIST_DESC: "three"}
    pcf_changes.change_namelist(
        _pcf(CMQCFC.MQCMD_CHANGE_NAMELIST, change), qm, status.take(qm, 0.0)
    )
    assert qm.local.namelists["APP.NL"].description == "three"
    delete = {CMQC.MQCA_NAMELIST_NAME: "APP.NL"}
    pcf_changes.delete_namelist(
        _pcf(CMQCFC.MQCMD_DELETE_NAMELIST, delete), qm, status.take(qm, 0.0)
    )
    assert "APP.NL" not in qm.local.namelists


@keeps("docs/mqsc.md", "Namelists (`DEFINE NAMELIST(name) NAMES(A.Q,B.Q)`, up to 256 names)")
def test_a_bad_namelist_is_refused_in_one_line_and_the_namelist_is_unchanged() -> None:
    # At most 256 names ("DEFINE NAMELIST"); MAXDEPTH is no namelist keyword (CSQ9001E).
    qm = QMgr("QM1")
    load(qm, "DEFINE NAMELIST(APP.NL) NAMES(A.Q)")
    before = qm.local.namelists["APP.NL"]
    many = ",".join(f"Q{i}" for i in range(257))
    lines = _console(qm, f"ALTER NAMELIST(APP.NL) NAMES({many})").splitlines()
    assert len(lines) == 2 and "257 names: at most 256" in lines[0]
    assert _console(qm, "ALTER NAMELIST(APP.NL) MAXDEPTH(5)").startswith(
        "CSQ9001E !QM1 'MAXDEPTH' IS INVALID"
    )
    assert qm.local.namelists["APP.NL"] == before
    assert "CSQM095I" in _console(qm, "DEFINE NAMELIST(APP.NL)")


@keeps(
    "docs/mqsc.md",
    "A local queue's STGCLASS names a storage class (SYSTEM by default), kept and shown, "
    "not checked against the defined ones",
)
def test_a_storage_class_takes_every_keyword_ibm_documents_and_a_queue_names_it() -> None:
    # "DEFINE STGCLASS": PSID, DESCR, PASSTKTA, XCFGNAME and XCFMNAME (together), QSGDISP;
    # "Inquire Storage Class (Response)": PageSetId and QSGDisposition always returned.
    qm = QMgr("QM1")
    words = " ".join(f"{k}({v})" for k, v in ZOS_STGCLASS_KEYWORDS.items())
    load(qm, f"DEFINE STC(REMOTE) {words} XCFGNAME(GRP) XCFMNAME(MEMBER1)")
    shown = _shown(_console(qm, "DISPLAY STGCLASS(*) ALL"))
    assert shown.startswith("CSQM410I !QM1 STGCLASS(REMOTE) QSGDISP(QMGR) PSID(3) ")
    for part in ("PASSTKTA(APPL1)", "XCFGNAME(GRP)", "XCFMNAME(MEMBER1)", "DESCR("):
        assert part in shown
    message = _pcf(CMQCFC.MQCMD_INQUIRE_STG_CLASS, {CMQC.MQCA_STORAGE_CLASS: "REMOTE"})
    (answer,) = pcf_inquiries.inquire_stg_class(message, qm, status.take(qm, 0.0))
    assert dict(answer)[CMQC.MQIA_PAGESET_ID] == 3
    load(qm, "DEFINE QLOCAL(APP.Q) STGCLASS(REMOTE)\nDEFINE QLOCAL(APP.D)")
    h = qm.connect().open("APP.Q", CMQC.MQOO_INQUIRE)
    assert h.inquire(CMQC.MQCA_STORAGE_CLASS) == b"REMOTE  "
    assert "STGCLASS(SYSTEM)" in _shown(_console(qm, "DISPLAY QLOCAL(APP.D) STGCLASS"))
    assert "CSQ9022I" in _console(qm, "DEFINE QLOCAL(APP.U) STGCLASS(NOSUCH)")


def test_a_bad_storage_class_is_refused_and_changes_nothing() -> None:
    # PSID out of 0..99 (CSQI002I's rule); XCFGNAME without XCFMNAME ("must either both
    # be blank or both be nonblank").
    qm = QMgr("QM1")
    load(qm, "DEFINE STGCLASS(REMOTE) PSID(3)")
    before = qm.local.storage_classes["REMOTE"]
    lines = _console(qm, "ALTER STGCLASS(REMOTE) PSID(100)").splitlines()
    assert "PSID(100): 100 is not in 0..99" in lines[0] and lines[1].startswith("CSQ9023E")
    lines = _console(qm, "ALTER STGCLASS(REMOTE) XCFGNAME(GRP)").splitlines()
    assert "XCFGNAME and XCFMNAME are both blank or both set" in lines[0]
    assert qm.local.storage_classes["REMOTE"] == before


@keeps(
    "docs/mqsc.md",
    "Every object shows when it was last changed, ALTDATE and ALTTIME, and a queue when it "
    "was made, CRDATE and CRTIME: dates as yyyy-mm-dd and times as hh.mm.ss, read from the "
    "run's one simulated clock (its epoch plus the virtual time of the DEFINE or ALTER), "
    "never from the wall clock; a queue manager's ALTDATE is the run's start until an "
    "ALTER QMGR.",
)
@keeps("docs/mqsc.md", "No command sets them (`DEFINE QLOCAL(A) CRDATE(...)` is CSQ9001E).")
def test_dates_come_from_the_runs_clock_define_sets_all_four_and_alter_moves_alt_only() -> None:
    # CRDATE/CRTIME: when the queue was created; ALTDATE/ALTTIME: when it was last
    # altered ("DISPLAY QUEUE"), yyyy-mm-dd and hh.mm.ss, by the simulated clock.
    qm = QMgr("QM1")
    qm.time = 3600.0 + 61.0  # 01.01.01 on the epoch's day
    load(qm, "DEFINE QLOCAL(APP.Q)\nDEFINE PROCESS(APP.P)\nDEFINE NAMELIST(APP.NL)")
    qm.time = 86_400.0 + 7200.0  # the next day, 02.00.00
    load(qm, "ALTER QLOCAL(APP.Q) MAXDEPTH(10)\nALTER QMGR DESCR('changed')")
    queue = _shown(_console(qm, "DISPLAY QLOCAL(APP.Q) CRDATE CRTIME ALTDATE ALTTIME"))
    assert queue.endswith(
        "CRDATE(2026-01-01) CRTIME(01.01.01) ALTDATE(2026-01-02) ALTTIME(02.00.00)"
    )
    process = _shown(_console(qm, "DISPLAY PROCESS(APP.P) ALTDATE ALTTIME"))
    assert process.endswith("ALTDATE(2026-01-01) ALTTIME(01.01.01)")
    assert "ALTDATE(2026-01-02) ALTTIME(02.00.00)" in _shown(_console(qm, "DISPLAY QMGR"))
    h = qm.connect().open("APP.Q", CMQC.MQOO_INQUIRE)
    assert h.inquire(CMQC.MQCA_CREATION_DATE) == b"2026-01-01  "
    assert _console(qm, "ALTER QLOCAL(APP.Q) CRDATE(2020-01-01)").startswith(
        "CSQ9001E !QM1 'CRDATE' IS INVALID"
    )


def test_a_dynamic_queue_is_created_when_mqopen_makes_it_not_when_its_model_was() -> None:
    # MQOPEN of a model queue creates a local queue ("Dynamic queues"): its CRDATE and
    # CRTIME are the open's, by the run's clock, not the model's DEFINE's.
    qm = QMgr("QM1")
    load(qm, "DEFINE QMODEL(APP.MODEL) DEFTYPE(PERMDYN)")
    qm.time = 86_400.0 * 2 + 45.0  # two days on, 00.00.45
    od = OD(ObjectName=b"APP.MODEL", DynamicQName=b"APP.DYN.*")
    h = qm.connect().open(od, CMQC.MQOO_INQUIRE)
    assert h.inquire(CMQC.MQCA_CREATION_DATE) == b"2026-01-03  "
    assert h.inquire(CMQC.MQCA_CREATION_TIME) == b"00.00.45"
    model = _shown(_console(qm, "DISPLAY QMODEL(APP.MODEL) CRDATE"))
    assert model.endswith(" CRDATE(2026-01-01)")


def test_the_command_server_creates_and_inquires_a_namelist_in_pcf_bytes() -> None:
    # The whole door: a Create Namelist request with Names as an MQCFSL, then Inquire
    # Namelist, read back with struct alone (tests/test_pcf_command_server.parse).
    from qsg.mqsc import pcf_commands
    from qsg.mqsc.pcf import encode
    from tests.test_pcf_command_server import parse

    qm = QMgr("QM1")
    encoding = CMQC.MQENC_INTEGER_REVERSED
    create = encode(
        Header(CMQCFC.MQCFT_COMMAND, CMQCFC.MQCMD_CREATE_NAMELIST),
        [(CMQC.MQCA_NAMELIST_NAME, "APP.NL"), (CMQC.MQCA_NAMES, ["A.Q", "B.Q"])],
        encoding,
    )
    (done,) = pcf_commands.process(create, encoding, qm, status.take(qm, 0.0))
    assert parse(done)[0][6:8] == (CMQC.MQCC_OK, CMQC.MQRC_NONE)
    inquire = encode(
        Header(CMQCFC.MQCFT_COMMAND, CMQCFC.MQCMD_INQUIRE_NAMELIST),
        [(CMQC.MQCA_NAMELIST_NAME, "APP.*")],
        encoding,
    )
    (answer,) = pcf_commands.process(inquire, encoding, qm, status.take(qm, 0.0))
    parameters = parse(answer)[1]
    assert parameters[CMQC.MQCA_NAMES] == ["A.Q", "B.Q"]
    assert parameters[CMQC.MQIA_NAME_COUNT] == 2
    assert parameters[CMQC.MQCA_ALTERATION_DATE] == "2026-01-01"


@keeps(
    "docs/objects.md",
    (
        "DEFINE/ALTER/DELETE of QLOCAL, QMODEL, QALIAS, QREMOTE, PROCESS, CFSTRUCT, CHANNEL, "
        "NAMELIST and STGCLASS "
        "(with REPLACE and LIKE, the usual abbreviations `DEF QL(...)`"
    ),
)
@keeps(
    "docs/objects.md",
    (
        "and ALTER QMGR (DESCR, EXPRYINT, DEADQ, DEFXMITQ, MAXUMSGS, TRIGINT, and the rest of "
        "z/OS's ALTER QMGR keywords, kept and shown: docs/mqsc.md)."
    ),
)
def test_namelists_and_storage_classes_take_define_like_replace_alter_and_delete() -> None:
    # "DEFINE NAMELIST" (synonym DEF NL) and "DEFINE STGCLASS" (DEF STC): LIKE copies the
    # other's attributes, REPLACE replaces, DELETE removes; ALTER QMGR takes MAXCHL.
    qm = QMgr("QM1")
    load(
        qm,
        "DEF NL(APP.A) NAMES(Q1,Q2) NLTYPE(QUEUE)\n"
        "DEF NL(APP.B) LIKE(APP.A) DESCR('copy')\n"
        "DEF NL(APP.A) NAMES(Q3) REPLACE\n"
        "DEF STC(GOLD) PSID(4)\n"
        "DEF STC(SILVER) LIKE(GOLD)\n"
        "ALT STC(SILVER) PSID(5)\n"
        "DELETE STGCLASS(GOLD)\n"
        "ALTER QMGR MAXCHL(300) DESCR('members')",
    )
    assert qm.local.namelists["APP.B"].names == ("Q1", "Q2")
    assert qm.local.namelists["APP.B"].namelist_type == CMQC.MQNT_Q
    assert qm.local.namelists["APP.A"].names == ("Q3",)
    assert list(qm.local.storage_classes) == ["SILVER"]
    assert qm.local.storage_classes["SILVER"].page_set_id == 5
    assert qm.description == "members" and "MAXCHL(300)" in _console(qm, "DIS QMGR MAXCHL")


@keeps(
    "docs/mqsc.md",
    "DISPLAY QMGR also takes IBM's groups SYSTEM, EVENT, CHINIT, CLUSTER and PUBSUB",
)
def test_display_qmgr_takes_ibms_groups_of_attributes() -> None:
    # "DISPLAY QMGR": EVENT shows the event control attributes, CLUSTER and PUBSUB theirs,
    # each with QMNAME; another word is CSQ9001E.
    qm = QMgr("QM1")
    event = _shown(_console(qm, "DISPLAY QMGR EVENT"))
    words = {w.split("(")[0] for w in event.split()[2:]}
    assert words == {
        *("QMNAME", "AUTHOREV", "BRIDGEEV", "CHLEV", "CMDEV", "CONFIGEV", "INHIBTEV"),
        *("LOCALEV", "PERFMEV", "REMOTEEV", "SSLEV", "STRSTPEV"),
    }
    cluster = _shown(_console(qm, "DISPLAY QMGR CLUSTER"))
    assert "CLWLLEN(100)" in cluster and "PERFMEV" not in cluster
    assert "TREELIFE(1800)" in _shown(_console(qm, "DISPLAY QMGR PUBSUB"))
    assert _console(qm, "DISPLAY QMGR SECURITY").startswith("CSQ9001E !QM1 'SECURITY' IS INVALID")


def test_mqinq_of_an_open_namelist_answers_its_names_count_and_type() -> None:
    # "MQINQ - Inquire object attributes": a namelist's MQCA_NAMES (each name padded to
    # MQ_OBJECT_NAME_LENGTH, one after another), MQIA_NAME_COUNT, MQIA_NAMELIST_TYPE; a
    # later ALTER is seen through the same handle.
    qm = QMgr("QM1")
    load(qm, "DEFINE NAMELIST(APP.NL) NAMES(A.Q,B.Q) NLTYPE(QUEUE)")
    h = qm.connect().open_object(
        OD(ObjectType=CMQC.MQOT_NAMELIST, ObjectName=b"APP.NL"), CMQC.MQOO_INQUIRE
    )
    assert h.inquire(CMQC.MQCA_NAMES) == b"A.Q".ljust(48) + b"B.Q".ljust(48)
    assert h.inquire(CMQC.MQIA_NAME_COUNT) == 2
    assert h.inquire(CMQC.MQIA_NAMELIST_TYPE) == CMQC.MQNT_Q
    load(qm, "ALTER NAMELIST(APP.NL) NAMES(C.Q)")
    assert h.inquire(CMQC.MQIA_NAME_COUNT) == 1


def test_mqinq_of_an_open_process_and_of_the_queue_manager_reads_the_table() -> None:
    # A process definition's APPLICID; the queue manager's (ObjectName blank) MAXHANDS.
    qm = QMgr("QM1")
    load(qm, "DEFINE PROCESS(APP.P) APPLICID('CKTI')\nALTER QMGR MAXHANDS(300)")
    process = qm.connect().open_object(
        OD(ObjectType=CMQC.MQOT_PROCESS, ObjectName=b"APP.P"), CMQC.MQOO_INQUIRE
    )
    assert process.inquire(CMQC.MQCA_APPL_ID).rstrip() == b"CKTI"
    q_mgr = qm.connect().open_object(OD(ObjectType=CMQC.MQOT_Q_MGR), CMQC.MQOO_INQUIRE)
    assert q_mgr.inquire(CMQC.MQIA_MAX_HANDLES) == 300
    assert q_mgr.inquire(CMQC.MQCA_Q_MGR_NAME) == b"QM1".ljust(48)


@pytest.mark.parametrize(
    ("object_type", "name", "options", "reason"),
    [
        (CMQC.MQOT_NAMELIST, b"NO.SUCH", CMQC.MQOO_INQUIRE, "MQRC_UNKNOWN_OBJECT_NAME"),
        (CMQC.MQOT_NAMELIST, b"APP.NL", CMQC.MQOO_OUTPUT, "MQRC_OPTIONS_ERROR"),
        (CMQC.MQOT_PROCESS, b"APP.P", CMQC.MQOO_INQUIRE | CMQC.MQOO_SET, "MQRC_OPTIONS_ERROR"),
        (CMQC.MQOT_Q_MGR, b"QM9", CMQC.MQOO_INQUIRE, "MQRC_UNKNOWN_OBJECT_NAME"),
        (CMQC.MQOT_TOPIC, b"APP.T", CMQC.MQOO_INQUIRE, "MQRC_OBJECT_TYPE_ERROR"),
    ],
)
def test_mqopen_of_a_namelist_process_or_queue_manager_refuses_what_ibm_refuses(
    object_type: int, name: bytes, options: int, reason: str
) -> None:
    # "MQOPEN - Open object": such an object is opened for MQOO_INQUIRE only; an unknown
    # name is MQRC_UNKNOWN_OBJECT_NAME (2085).
    qm = QMgr("QM1")
    load(qm, "DEFINE NAMELIST(APP.NL)\nDEFINE PROCESS(APP.P)")
    od = OD(ObjectType=object_type, ObjectName=name)
    with pytest.raises(MQMIError, match=rf"{reason} \("):
        qm.connect().open_object(od, options)


@keeps(
    "docs/mqsc.md",
    "a selector of another type of object is MQRC_SELECTOR_ERROR 2067, MQSET "
    "MQRC_NOT_OPEN_FOR_SET 2040.",
)
def test_mqinq_of_another_objects_selector_is_2067_and_mqset_is_2040() -> None:
    # "MQINQ": a selector not valid for the type of object is MQRC_SELECTOR_ERROR; MQSET
    # on a handle not opened for set is MQRC_NOT_OPEN_FOR_SET; after MQCLOSE, 2019.
    qm = QMgr("QM1")
    load(qm, "DEFINE NAMELIST(APP.NL)")
    h = qm.connect().open_object(
        OD(ObjectType=CMQC.MQOT_NAMELIST, ObjectName=b"APP.NL"), CMQC.MQOO_INQUIRE
    )
    with pytest.raises(MQMIError, match=r"MQRC_SELECTOR_ERROR \(2067\)"):
        h.inquire(CMQC.MQIA_MAX_Q_DEPTH)
    with pytest.raises(MQMIError, match=r"MQRC_NOT_OPEN_FOR_SET \(2040\)"):
        h.set(CMQC.MQIA_NAMELIST_TYPE, CMQC.MQNT_Q)
    h.close()
    with pytest.raises(MQMIError, match=r"MQRC_HOBJ_ERROR \(2019\)"):
        h.inquire(CMQC.MQIA_NAME_COUNT)


def test_pcf_copy_namelist_and_copy_storage_class_define_like_the_source() -> None:
    # "Change, Copy, and Create Namelist" / "... Storage Class": FromNamelistName and
    # ToNamelistName (MQCACF_FROM_/TO_NAMELIST_NAME), FromStorageClassName and
    # ToStorageClassName; the attributes given change the copy.
    qm = QMgr("QM1")
    load(qm, "DEFINE NAMELIST(APP.NL) NAMES(A.Q,B.Q)\nDEFINE STGCLASS(GOLD) PSID(4)")
    copy = {
        CMQCFC.MQCACF_FROM_NAMELIST_NAME: "APP.NL",
        CMQCFC.MQCACF_TO_NAMELIST_NAME: "APP.NL2",
        CMQC.MQCA_NAMELIST_DESC: "copied",
    }
    pcf_changes.copy_namelist(_pcf(CMQCFC.MQCMD_COPY_NAMELIST, copy), qm, status.take(qm, 0.0))
    assert qm.local.namelists["APP.NL2"].names == ("A.Q", "B.Q")
    assert qm.local.namelists["APP.NL2"].description == "copied"
    copy = {CMQCFC.MQCACF_FROM_STORAGE_CLASS: "GOLD", CMQCFC.MQCACF_TO_STORAGE_CLASS: "GOLD2"}
    pcf_changes.copy_stg_class(_pcf(CMQCFC.MQCMD_COPY_STG_CLASS, copy), qm, status.take(qm, 0.0))
    assert qm.local.storage_classes["GOLD2"].page_set_id == 4


def test_suiteb_takes_ibms_strengths_alone_and_together_and_refuses_another() -> None:
    # "ALTER QMGR": SUITEB(NONE | 128_BIT | 192_BIT | 128_BIT,192_BIT), "Valid on z/OS";
    # MQINQ's MQIA_SUITE_B_STRENGTH answers MQ_SUITE_B_128_BIT (2), MQ_SUITE_B_192_BIT (4).
    qm = QMgr("QM1")
    assert _shown(_console(qm, "DISPLAY QMGR SUITEB")).endswith(" SUITEB(NONE)")
    load(qm, "ALTER QMGR SUITEB(128_BIT,192_BIT)")
    both = " SUITEB('128_BIT,192_BIT')"  # quoted, as qsg's DISPLAY quotes a comma's value
    assert _shown(_console(qm, "DISPLAY QMGR SUITEB")).endswith(both)
    assert qmgr_attribute(qm, CMQC.MQIA_SUITE_B_STRENGTH) == (
        CMQC.MQ_SUITE_B_128_BIT | CMQC.MQ_SUITE_B_192_BIT
    )
    lines = _console(qm, "ALTER QMGR SUITEB(256_BIT)").splitlines()
    assert len(lines) == 2 and "SUITEB(256_BIT)" in lines[0] and lines[1].startswith("CSQ9023E")
    assert _shown(_console(qm, "DISPLAY QMGR SUITEB")).endswith(both)


def test_display_qmgr_shows_version_and_the_capabilities_z_os_shows_and_alter_takes_none() -> None:
    # "DISPLAY QMGR (display queue manager settings)": ADVCAP, SPLCAP and VERSION are
    # queue manager system attributes with no "Not valid on z/OS" note; VERSION is
    # VVRRMMFF (9.4.0.0 with CMDLEVEL 940). No AMS and no Advanced VUE: both DISABLED.
    qm = QMgr("QM1")
    shown = _shown(_console(qm, "DISPLAY QMGR ADVCAP SPLCAP VERSION"))
    assert shown.endswith(" ADVCAP(DISABLED) SPLCAP(DISABLED) VERSION(09040000)"), shown
    assert qmgr_attribute(qm, CMQC.MQCA_VERSION) == b"09040000"
    assert qmgr_attribute(qm, CMQC.MQIA_PROT_POLICY_CAPABILITY) == CMQC.MQCAP_NOT_SUPPORTED
    assert _console(qm, "ALTER QMGR VERSION(09030000)").startswith("CSQ9001E !QM1 'VERSION'")
