"""The attribute table's channels against IBM's own list (issue 45): every keyword IBM MQ
for z/OS documents on DEFINE CHANNEL for a channel type (CHLTYPE SDR, SVR, RCVR, RQSTR,
SVRCONN, CLNTCONN) is accepted, shown by DISPLAY CHANNEL ... ALL and answered by PCF
Inquire Channel (MQINQ takes no channel); a keyword of another channel type is CSQ9001E.

The lists are copied by hand from IBM's "DEFINE CHANNEL" (the parameters of each channel
type that are valid on z/OS), not from the table, so that the table is checked against
them. LU 6.2's keywords are there too (TPNAME, MODENAME): IBM's z/OS takes them.
"""

from __future__ import annotations

import pytest
import trio

import qsg
from actors.clock import VirtualClock
from qsg import CMQC, GMO, MD, PMO, QMgr
from qsg import CMQCFC as F
from qsg.mqsc import commands, pcf_inquiries, status
from qsg.mqsc.pcf import Header, Message
from tests.worlds import qsg_and_qm3

# Every channel type's keywords, with a valid value.
_COMMON = {
    "DESCR": "'a channel'",
    "TRPTYPE": "TCP",
    "QSGDISP": "QMGR",
    "HBINT": "60",
    "CERTLABL": "MYLABEL",
    "COMPHDR": "SYSTEM",
    "COMPMSG": "ZLIBFAST",
    "KAINT": "AUTO",
    "MAXMSGL": "1000000",
    "RCVDATA": "R",
    "RCVEXIT": "RCVX",
    "SCYDATA": "S",
    "SCYEXIT": "SCYX",
    "SENDDATA": "D",
    "SENDEXIT": "SENDX",
    "SSLCIPH": "TLS_RSA_WITH_AES_256_CBC_SHA256",
    "SSLPEER": "'CN=PARTNER'",
}
_MESSAGE = {
    "BATCHSZ": "20",
    "DEFCDISP": "PRIVATE",
    "MCAUSER": "MQCHUSR",
    "MONCHL": "HIGH",
    "MSGDATA": "M",
    "MSGEXIT": "MSGX",
    "NPMSPEED": "NORMAL",
    "SEQWRAP": "999999",
    "SPLPROT": "PASSTHRU",
    "STATCHL": "HIGH",
    "USEDLQ": "NO",
}
_SENDING = {
    "CONNAME": "'partner(1414)'",
    "XMITQ": "QM2",
    "BATCHHB": "500",
    "BATCHINT": "100",
    "BATCHLIM": "1000",
    "CONVERT": "YES",
    "DISCINT": "0",
    "LOCLADDR": "'10.1.1.1'",
    "LONGRTY": "5",
    "LONGTMR": "600",
    "MCANAME": "' '",
    "MCATYPE": "THREAD",
    "MODENAME": "M1",
    "PASSWORD": "SECRET",
    "PROPCTL": "NONE",
    "SHORTRTY": "3",
    "SHORTTMR": "30",
    "TPNAME": "TP1",
    "USERID": "U1",
}
_RECEIVING = {"MRDATA": "X", "MREXIT": "MRX", "MRRTY": "3", "MRTMR": "500", "PUTAUT": "CTX"}
ZOS_CHANNEL_KEYWORDS: dict[str, dict[str, str]] = {
    "SDR": {**_COMMON, **_MESSAGE, **_SENDING},
    "SVR": {**_COMMON, **_MESSAGE, **_SENDING, "SSLCAUTH": "OPTIONAL"},
    "RCVR": {**_COMMON, **_MESSAGE, **_RECEIVING, "SSLCAUTH": "OPTIONAL"},
    "RQSTR": {
        **_COMMON,
        **_MESSAGE,
        **_RECEIVING,
        "CONNAME": "'partner(1414)'",
        "LOCLADDR": "'10.1.1.1'",
        "MCANAME": "' '",
        "MCATYPE": "THREAD",
        "MODENAME": "M1",
        "PASSWORD": "SECRET",
        "SSLCAUTH": "OPTIONAL",
        "TPNAME": "TP1",
        "USERID": "U1",
    },
    "SVRCONN": {
        **_COMMON,
        "DEFCDISP": "PRIVATE",
        "DISCINT": "0",
        "MAXINST": "100",
        "MAXINSTC": "10",
        "MCAUSER": "APPUSR",
        "MONCHL": "OFF",
        "PUTAUT": "ONLYMCA",
        "SHARECNV": "1",
        "SSLCAUTH": "OPTIONAL",
    },
    "CLNTCONN": {
        **_COMMON,
        "AFFINITY": "NONE",
        "CLNTWGHT": "5",
        "CONNAME": "'host(1414)'",
        "DEFRECON": "YES",
        "LOCLADDR": "'10.1.1.1'",
        "MODENAME": "M1",
        "PASSWORD": "SECRET",
        "QMNAME": "QM1",
        "SHARECNV": "0",
        "TPNAME": "TP1",
        "USERID": "U1",
    },
}
# A keyword of the channel types each type does not take, per IBM's same list.
NOT_FOR = {
    "SDR": ("SSLCAUTH", "OPTIONAL"),
    "SVR": ("SHARECNV", "2"),
    "RCVR": ("XMITQ", "QM2"),
    "RQSTR": ("DISCINT", "10"),
    "SVRCONN": ("BATCHSZ", "10"),
    "CLNTCONN": ("MCAUSER", "U"),
}
_REQUIRED = {"SDR": " XMITQ(QM2) CONNAME('partner(1414)')", "SVR": " XMITQ(QM2)"}


def _console(qm: QMgr, text: str) -> str:
    return commands.run(commands.parse(text), qm, lambda: status.take(qm, 0.0)).text


def _define(chltype: str, keyword: str, value: str) -> str:
    required = _REQUIRED.get(chltype, "") if keyword not in ("XMITQ", "CONNAME") else ""
    if chltype == "SDR" and keyword in ("XMITQ", "CONNAME"):
        required = " CONNAME('partner(1414)')" if keyword == "XMITQ" else " XMITQ(QM2)"
    if chltype == "SVR" and keyword == "CONNAME":
        required = " XMITQ(QM2)"
    return f"DEFINE CHANNEL(T.CH) CHLTYPE({chltype}){required} {keyword}({value})"


@pytest.mark.parametrize("chltype", list(ZOS_CHANNEL_KEYWORDS))
def test_every_channel_keyword_ibm_documents_for_z_os_is_accepted_and_shown_by_display_all(
    chltype: str,
) -> None:
    # "DEFINE CHANNEL": each parameter valid on z/OS for the channel type is taken, and
    # DISPLAY CHANNEL ... ALL shows it ("ALL: display all the parameters").
    refused, unshown = [], []
    for keyword, value in ZOS_CHANNEL_KEYWORDS[chltype].items():
        qm = QMgr("QM1")
        reply = _console(qm, _define(chltype, keyword, value))
        if "CSQ9022I" not in reply:
            refused.append(f"{keyword}: {reply.splitlines()[0]}")
            continue
        shown = _console(qm, "DISPLAY CHANNEL(T.CH) ALL").splitlines()[1]
        if f" {keyword}(" not in shown:
            unshown.append(keyword)
    assert (refused, unshown) == ([], [])


@pytest.mark.parametrize("chltype", list(ZOS_CHANNEL_KEYWORDS))
def test_display_channel_all_shows_only_the_keywords_of_the_channels_type(chltype: str) -> None:
    # A keyword IBM does not list for the type is not shown for it either.
    qm = QMgr("QM1")
    _console(qm, _define(chltype, "DESCR", "x"))
    shown = _console(qm, "DISPLAY CHANNEL(T.CH) ALL").splitlines()[1]
    keywords = {word.split("(")[0] for word in shown.split()[2:]}
    # ALTDATE and ALTTIME: shown for every channel ("DISPLAY CHANNEL"), set by no keyword.
    allowed = set(ZOS_CHANNEL_KEYWORDS[chltype]) | {"CHANNEL", "CHLTYPE", "ALTDATE", "ALTTIME"}
    assert keywords - allowed == set()


@pytest.mark.parametrize("chltype", list(ZOS_CHANNEL_KEYWORDS))
def test_pcf_inquire_channel_answers_every_attribute_of_the_channels_type(chltype: str) -> None:
    # "Inquire Channel": ChannelAttrs MQIACF_ALL answers each attribute by its identifier.
    qm = QMgr("QM1")
    words = " ".join(f"{k}({v})" for k, v in ZOS_CHANNEL_KEYWORDS[chltype].items())
    reply = _console(qm, f"DEFINE CHANNEL(T.CH) CHLTYPE({chltype}) {words}")
    assert "CSQ9022I" in reply, reply
    message = Message(
        Header(F.MQCFT_COMMAND, F.MQCMD_INQUIRE_CHANNEL),
        {F.MQCACH_CHANNEL_NAME: "T.CH", F.MQIACF_CHANNEL_ATTRS: [F.MQIACF_ALL]},
    )
    (answer,) = pcf_inquiries.inquire_channel(message, qm, status.take(qm, 0.0))
    parameters = dict(answer)
    assert parameters[F.MQIACH_CHANNEL_TYPE] == getattr(CMQC, f"MQCHT_{_MQCHT[chltype]}")
    if chltype in ("SVRCONN", "CLNTCONN"):
        assert parameters[F.MQIACH_SHARING_CONVERSATIONS] in (0, 1)
    else:
        assert parameters[F.MQIACH_BATCH_SIZE] == 20
    assert parameters[F.MQCACH_SSL_CIPHER_SPEC] == "TLS_RSA_WITH_AES_256_CBC_SHA256"


_MQCHT = {
    "SDR": "SENDER",
    "SVR": "SERVER",
    "RCVR": "RECEIVER",
    "RQSTR": "REQUESTER",
    "SVRCONN": "SVRCONN",
    "CLNTCONN": "CLNTCONN",
}


@pytest.mark.parametrize("chltype", list(NOT_FOR))
def test_a_keyword_of_another_channel_type_is_csq9001e_and_nothing_is_defined(
    chltype: str,
) -> None:
    # CSQ9001E: "it might not be applicable to the command being processed".
    qm = QMgr("QM1")
    keyword, value = NOT_FOR[chltype]
    reply = _console(qm, _define(chltype, keyword, value))
    assert reply.splitlines()[0] == f"CSQ9001E !QM1 '{keyword}' IS INVALID"
    assert "T.CH" not in qm.local.channels


def test_alter_of_a_keyword_the_channels_type_does_not_take_is_refused_and_changes_nothing() -> (
    None
):
    qm = QMgr("QM1")
    _console(qm, "DEFINE CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN) SHARECNV(1)")
    before = qm.local.channels["APP.SVRCONN"]
    reply = _console(qm, "ALTER CHANNEL(APP.SVRCONN) BATCHSZ(10)").splitlines()
    assert len(reply) == 2 and "BATCHSZ" in reply[0] and reply[1].startswith("CSQ9023E")
    assert qm.local.channels["APP.SVRCONN"] == before


def test_a_channel_value_out_of_range_is_refused_in_one_line_and_the_channel_is_unchanged() -> None:
    qm = QMgr("QM1")
    _console(qm, "DEFINE CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN)")
    before = qm.local.channels["APP.SVRCONN"]
    reply = _console(qm, "ALTER CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN) CLNTWGHT(5)")
    assert reply.splitlines()[0] == "CSQ9001E !QM1 'CLNTWGHT' IS INVALID"
    reply = _console(qm, "ALTER CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN) KAINT(100000)")
    lines = reply.splitlines()
    assert len(lines) == 2 and "KAINT(100000): 100000 is not in 0..99999" in lines[0]
    assert qm.local.channels["APP.SVRCONN"] == before


def test_a_svrconn_channel_is_kept_and_shown_and_never_started() -> None:
    # Client channels are not simulated: the definition is an MQSC file's, kept.
    qm = QMgr("QM1")
    _console(qm, "DEFINE CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN) MCAUSER('APPUSR') SHARECNV(1)")
    shown = _console(qm, "DISPLAY CHANNEL(APP.SVRCONN) CHLTYPE MCAUSER SHARECNV")
    assert "CHLTYPE(SVRCONN)" in shown and "MCAUSER(APPUSR)" in shown and "SHARECNV(1)" in shown
    never_ran = _console(qm, "DISPLAY CHSTATUS(APP.SVRCONN)").splitlines()[0]
    assert never_ran == "CSQM125I !QM1 CSQMDRTS CHSTATUS(APP.SVRCONN) WAS NOT FOUND"


@pytest.mark.parametrize(("chltype", "discint"), [("SDR", 6000), ("SVR", 6000), ("SVRCONN", 0)])
def test_a_channel_never_given_discint_shows_its_own_types_ibm_default(
    chltype: str, discint: int
) -> None:
    # "DEFINE CHANNEL": DISCINT(6000) in the sender's and server's syntax diagrams,
    # DISCINT(0) in the server-connection channel's; ALTER and LIKE keep it per type.
    qm = QMgr("QM1")
    _console(qm, _define(chltype, "DESCR", "x"))
    shown = _console(qm, "DISPLAY CHANNEL(T.CH) DISCINT").splitlines()[1]
    assert shown.endswith(f" DISCINT({discint})")
    _console(qm, "ALTER CHANNEL(T.CH) DISCINT(30)")
    assert _console(qm, "DISPLAY CHANNEL(T.CH) DISCINT").splitlines()[1].endswith(" DISCINT(30)")


def test_trptype_lu62_is_taken_as_ibm_mq_for_z_os_takes_it_and_pcf_carries_mqxpt_lu62() -> None:
    # "DEFINE CHANNEL": TRPTYPE(LU62 | TCP) on z/OS (NETBIOS and SPX are Windows'); PCF's
    # TransportType (MQIACH_XMIT_PROTOCOL_TYPE) is MQXPT_LU62.
    qm = QMgr("QM1")
    reply = _console(qm, _define("SDR", "TRPTYPE", "LU62"))
    assert "CSQ9022I" in reply, reply
    assert " TRPTYPE(LU62)" in _console(qm, "DISPLAY CHANNEL(T.CH) TRPTYPE")
    message = Message(
        Header(F.MQCFT_COMMAND, F.MQCMD_INQUIRE_CHANNEL),
        {F.MQCACH_CHANNEL_NAME: "T.CH", F.MQIACF_CHANNEL_ATTRS: [F.MQIACF_ALL]},
    )
    (answer,) = pcf_inquiries.inquire_channel(message, qm, status.take(qm, 0.0))
    assert dict(answer)[F.MQIACH_XMIT_PROTOCOL_TYPE] == CMQC.MQXPT_LU62
    lines = _console(qm, "ALTER CHANNEL(T.CH) CHLTYPE(SDR) TRPTYPE(NETBIOS)").splitlines()
    assert len(lines) == 2 and "'NETBIOS' is not one of TCP, LU62" in lines[0], lines
    assert " TRPTYPE(LU62)" in _console(qm, "DISPLAY CHANNEL(T.CH) TRPTYPE")


async def test_a_channel_of_trptype_lu62_carries_messages_on_the_simulated_network(
    virtual_clock: VirtualClock,
) -> None:
    # docs/mqsc.md: TRPTYPE(LU62) "either way the channel runs on the simulated network".
    topology = qsg_and_qm3()
    topology.mqsc("QM1", "ALTER CHANNEL(QM1.TO.QM3) CHLTYPE(SDR) TRPTYPE(LU62)")
    topology.mqsc("QM3", "ALTER CHANNEL(QM1.TO.QM3) CHLTYPE(RCVR) TRPTYPE(LU62)")
    async with qsg.start(topology, in_process=True) as world:
        qm1 = await world.connect("QM1")
        remote = await qm1.open("TO.QM3", CMQC.MQOO_OUTPUT)
        await remote.put(b"over LU 6.2", MD(), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT))
        await trio.sleep(30)
        qm3 = await world.connect("QM3")
        target = await qm3.open("APP.IN", CMQC.MQOO_INPUT_SHARED)
        got = await target.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT))
        assert got == b"over LU 6.2"
