"""The facade's MQI structures as pymqi's: fields, defaults, versions, binary layouts,
type checks and MQRFH2 (docs/pymqi.md, "Structures and constants"). Lengths and field
versions are IBM's, from "MQMD - Message descriptor", "MQGMO - Get-message options",
"MQPMO - Put-message options", "MQOD - Object descriptor", "MQCD - Channel definition",
"MQSCO - SSL/TLS configuration options" and "MQRFH2 - Rules and formatting header 2"."""

from __future__ import annotations

import re
import struct
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import qsg
from qsg import QMgr
from qsg.core import structs as core
from qsg.pymqi import CMQC, CMQXC
from qsg.pymqi._opts import to_string
from qsg.pymqi.errors import PYIFError
from qsg.pymqi.rfh2 import rfh2_get_headers, rfh2_put_body
from qsg.pymqi.structs import (
    CD,
    CMHO,
    CNO,
    CSP,
    DLH,
    GMO,
    IMPO,
    MD,
    MDE,
    OD,
    PD,
    PMO,
    RFH2,
    SCO,
    SD,
    SMPO,
    SRO,
    TM,
    TMC2,
    XQH,
    MQOpts,
    cd,
    gmo,
    md,
    od,
    pmo,
    sco,
)
from tests.claims import keeps

ALL_STRUCTURES = [
    MD,
    GMO,
    PMO,
    OD,
    CD,
    SCO,
    CSP,
    CNO,
    SD,
    SRO,
    CMHO,
    PD,
    SMPO,
    IMPO,
    TM,
    TMC2,
    XQH,
    DLH,
    MDE,
]
UNICODE = (
    r"^Python 3 style string \(unicode\) found but not allowed here: `{}`\. Convert to bytes\.$"
)

# ---- fields and defaults ------------------------------------------------------------


@keeps(
    "docs/pymqi.md",
    "`MD()` is a version-1 datagram, Expiry unlimited, priority and persistence as the queue's",
)
def test_md_defaults_are_ibms_mqmd_default() -> None:
    m = MD()
    assert (m.StrucId, m.Version, m.Report, m.MsgType) == (b"MD  ", 1, 0, CMQC.MQMT_DATAGRAM)
    assert (m.Expiry, m.Feedback, m.Encoding, m.CodedCharSetId) == (-1, 0, 0x222, 0)
    assert (m.Format, m.Priority, m.Persistence) == (CMQC.MQFMT_NONE, -1, 2)
    assert (m.MsgId, m.CorrelId, m.GroupId) == (b"\0" * 24,) * 3
    assert (m.BackoutCount, m.PutApplType, m.MsgSeqNumber, m.Offset) == (0, 0, 1, 0)
    assert (m.MsgFlags, m.OriginalLength, m.ReplyToQ) == (0, -1, b"")
    assert list(m.get()) == list(core.MD_FIELDS)  # IBM's order, the rules layer's names


def test_gmo_pmo_and_od_defaults_are_pymqis() -> None:
    g = GMO()
    assert (g.StrucId, g.Version, g.Options, g.WaitInterval) == (b"GMO ", 1, 0, 0)
    assert g.MatchOptions == CMQC.MQMO_MATCH_MSG_ID | CMQC.MQMO_MATCH_CORREL_ID
    assert (g.GroupStatus, g.SegmentStatus, g.Segmentation) == (32, 32, 32)
    assert (g.Reserved1, g.ReturnedLength, g.MsgHandle) == (b" ", -1, 0)
    p = PMO()
    assert (p.StrucId, p.Version, p.Options, p.Timeout, p.Context) == (b"PMO ", 1, 0, -1, 0)
    assert (p.RecsPresent, p.OriginalMsgHandle, p.NewMsgHandle, p.Action) == (0, 0, 0, 0)
    o = OD()
    assert (o.StrucId, o.Version, o.ObjectType, o.DynamicQName) == (b"OD  ", 1, 1, b"AMQ.*")
    assert (o.ObjectName, o.ObjectStringVSPtr, o.ObjectStringVSLength) == (b"", 0, 0)


@keeps("docs/pymqi.md", "`CD()` a version-6 client-connection channel over TCP")
def test_cd_is_a_tcp_client_connection_of_version_6_as_pymqis() -> None:
    c = CD()
    assert (c.Version, c.ChannelType, c.TransportType) == (6, CMQC.MQCHT_CLNTCONN, CMQC.MQXPT_TCP)
    assert (c.MaxMsgLength, c.HeartbeatInterval, c.SharingConversations) == (4194304, 300, 10)
    assert (c.KeepAliveInterval, c.StrucLength) == (-1, CMQXC.MQCD_CURRENT_LENGTH)
    assert c.MsgCompList == [0] + 15 * [-1]
    c.MsgCompList[0] = CMQXC.MQCOMPRESS_ZLIBHIGH
    assert CD().MsgCompList[0] == 0  # each structure has its own list


def test_sco_csp_and_the_small_structures_have_ibms_ids_and_versions() -> None:
    assert (SCO().StrucId, SCO().Version, SCO().EncryptionPolicySuiteB) == (
        b"SCO ",
        5,
        [1, 0, 0, 0],
    )
    assert (CSP().StrucId, CSP().AuthenticationType) == (b"CSP ", CMQC.MQCSP_AUTH_NONE)
    assert (CMHO().StrucId, CMHO().Options) == (b"CMHO", CMQC.MQCMHO_DEFAULT_VALIDATION)
    assert (SD().StrucId, SD().Options, SD().SubExpiry) == (b"SD  ", CMQC.MQSO_NON_DURABLE, -1)
    assert (SRO().Options, PD().Support, SMPO().Options) == (
        CMQC.MQSRO_FAIL_IF_QUIESCING,
        CMQC.MQPD_SUPPORT_OPTIONAL,
        CMQC.MQSMPO_SET_FIRST,
    )
    assert (IMPO().Options, TM().StrucId, TMC2().Version) == (
        CMQC.MQIMPO_INQ_FIRST,
        b"TM  ",
        b"   2",
    )
    assert XQH().StrucId == b"XQH "


@keeps(
    "docs/pymqi.md",
    'fields by IBM\'s names, as attributes (`md.MsgId`), items (`md["MsgId"]`), constructor '
    "keywords (`MD(Priority=5)`) and `set(**kw)`",
)
def test_fields_are_attributes_items_keywords_and_set() -> None:
    m = MD(Priority=5, Expiry=600)
    m["CorrelId"] = b"C" * 24
    m.set(ReplyToQ=b"REPLIES", Persistence=CMQC.MQPER_PERSISTENT)
    m.MsgType = CMQC.MQMT_REQUEST
    assert (m["Priority"], m.Expiry, m.CorrelId, m.ReplyToQ) == (5, 600, b"C" * 24, b"REPLIES")
    assert m.get()["Persistence"] == 1 and m.get()["MsgType"] == CMQC.MQMT_REQUEST


def test_pymqis_lower_case_names_are_the_same_classes() -> None:
    assert (md, gmo, pmo, od, cd, sco) == (MD, GMO, PMO, OD, CD, SCO)


def test_the_async_api_takes_the_facades_md_gmo_pmo_and_od() -> None:
    assert all(issubclass(a, b) for a, b in [(MD, qsg.MD), (GMO, qsg.GMO), (PMO, qsg.PMO)])
    assert issubclass(OD, qsg.OD)
    assert all(issubclass(s, MQOpts) for s in ALL_STRUCTURES)


def test_a_facade_get_reports_group_status_as_pymqi_does() -> None:
    # The rules layer writes IBM's MQCHAR; a pymqi program reads it as pymqi's int.
    qm = QMgr("QM1")
    qm.define_queue("Q", msg_delivery_sequence=CMQC.MQMDS_FIFO)
    h = qm.connect().open(OD(ObjectName=b"Q"), CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_OUTPUT)
    first = MD(Version=2, MsgFlags=CMQC.MQMF_MSG_IN_GROUP)
    h.put(b"one", first, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    last = MD(
        Version=2, MsgFlags=CMQC.MQMF_LAST_MSG_IN_GROUP, GroupId=first.GroupId, MsgSeqNumber=2
    )
    pmo_ = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
    h.put(b"two", last, pmo_, now=0.0)
    assert pmo_.ResolvedQName == b"Q" and len(first.MsgId) == 24
    options = CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_LOGICAL_ORDER
    statuses = []
    for _ in range(2):
        g = GMO(Version=2, Options=options)
        assert h.get(None, MD(Version=2), g, now=1.0) in (b"one", b"two")
        statuses.append((g.GroupStatus, g.SegmentStatus, g.get()["GroupStatus"]))
    assert statuses == [
        (CMQC.MQGS_MSG_IN_GROUP, CMQC.MQSS_NOT_A_SEGMENT, 71),
        (CMQC.MQGS_LAST_MSG_IN_GROUP, CMQC.MQSS_NOT_A_SEGMENT, 76),
    ]
    assert len(GMO(Version=2, Options=options).pack()) == CMQC.MQGMO_CURRENT_LENGTH


def test_group_status_takes_pymqis_int_or_ibms_character() -> None:
    g = GMO(Segmentation=CMQC.MQSEG_ALLOWED)
    assert g.Segmentation == ord("A") == g.get()["Segmentation"]
    g.GroupStatus = b"L"
    assert g.GroupStatus == CMQC.MQGS_LAST_MSG_IN_GROUP
    assert GMO().unpack(GMO(SegmentStatus=-1).pack()).SegmentStatus == -1  # a signed char
    with pytest.raises(struct.error):
        GMO(GroupStatus=200).pack()  # beyond pymqi's "b": its struct.pack refuses it too


# ---- binary layouts -------------------------------------------------------------


@pytest.mark.parametrize(
    ("cls", "length"),
    [
        (MD, CMQC.MQMD_LENGTH_2),
        (GMO, CMQC.MQGMO_LENGTH_4),
        (PMO, CMQC.MQPMO_LENGTH_3),
        (OD, CMQC.MQOD_LENGTH_4),
        (CD, CMQXC.MQCD_LENGTH_12),
        (SCO, CMQC.MQSCO_LENGTH_5),
        (CSP, CMQC.MQCSP_LENGTH_1),
        (SD, CMQC.MQSD_LENGTH_1),
        (SRO, CMQC.MQSRO_LENGTH_1),
        (CMHO, CMQC.MQCMHO_LENGTH_1),
        (PD, CMQC.MQPD_LENGTH_1),
        (SMPO, CMQC.MQSMPO_LENGTH_1),
        (IMPO, CMQC.MQIMPO_LENGTH_1),
        (TM, CMQC.MQTM_LENGTH_1),
        (TMC2, CMQC.MQTMC2_LENGTH_2),
        (XQH, CMQC.MQXQH_LENGTH_1 - CMQC.MQMD_LENGTH_1),
        (DLH, CMQC.MQDLH_LENGTH_1),
        (MDE, CMQC.MQMDE_LENGTH_2),
        (CNO, CMQC.MQCNO_LENGTH_8),
    ],
    ids=lambda v: v.__name__ if isinstance(v, type) else str(v),
)
def test_pack_gives_ibms_length_of_the_newest_version_pymqi_packs(cls: Any, length: int) -> None:
    # pymqi packs every field whatever Version says; the queue manager reads Version's.
    assert len(cls().pack()) == cls().get_length() == length
    assert len(cls(Version=1).pack()) == length if cls is not TMC2 else True


# The first field of each version (IBM's field tables mark each field's version).
VERSION_STARTS: dict[Any, dict[int, str]] = {
    MD: {2: "GroupId"},
    GMO: {2: "MatchOptions", 3: "MsgToken", 4: "Reserved2"},
    PMO: {2: "RecsPresent", 3: "OriginalMsgHandle"},
    OD: {2: "RecsPresent", 3: "AlternateSecurityId", 4: "ObjectStringVSPtr"},
    SCO: {
        2: "KeyResetCount",
        3: "EncryptionPolicySuiteB",
        4: "CertificateValPolicy",
        5: "CertificateLabel",
    },
    CNO: {
        2: "ClientConnOffset",
        3: "ConnTag",
        4: "SSLConfigPtr",
        5: "ConnectionId",
        6: "CCDTUrlPtr",
        7: "ApplName",
        8: "BalanceParmsPtr",
    },
    CD: {
        2: "UserIdentifier",
        3: "MsgRetryExit",
        4: "HeartbeatInterval",
        5: "ClusterPtr",
        6: "LongMCAUserIdLength",
        7: "SSLCipherSpec",
        8: "HdrCompList",
        9: "SharingConversations",
        10: "BatchDataLimit",
        11: "CertificateLabel",
        12: "SPLProtection",
    },
}


def offset_of(cls: Any, name: str) -> int:
    """Where ``name`` starts in ``cls().pack()``, C's alignment included."""
    names = [n for n, _, _ in cls._layout]
    prefix = "".join(f for _, f, _ in cls._layout[: names.index(name)])
    fmt = cls._layout[names.index(name)][1]
    return struct.calcsize(prefix + "0" + fmt[-1])


def ibm_length(cls: Any, version: int) -> int:
    prefix = {
        MD: "MQMD",
        GMO: "MQGMO",
        PMO: "MQPMO",
        OD: "MQOD",
        SCO: "MQSCO",
        CD: "MQCD",
        CNO: "MQCNO",
    }[cls]
    module = CMQXC if cls is CD else CMQC
    value: int = getattr(module, f"{prefix}_LENGTH_{version}", None) or getattr(
        CMQC, f"{prefix}_LENGTH_{version}"
    )
    return value


@pytest.mark.parametrize(
    ("cls", "version"),
    [(cls, v) for cls, starts in VERSION_STARTS.items() for v in starts],
    ids=lambda v: v.__name__ if isinstance(v, type) else f"v{v - 1}",
)
def test_the_fields_of_each_version_end_at_ibms_length_for_it(cls: Any, version: int) -> None:
    # MQMD version 1 is 324 bytes, MQGMO's are 72, 80, 100 and 112, and so on: the next
    # version's first field starts where IBM's length for the previous one ends (C rounds a
    # structure that holds pointers up to 8 bytes).
    name = VERSION_STARTS[cls][version]
    start = offset_of(cls, name)
    before = "".join(f for n, f, _ in cls._layout[: [n for n, _, _ in cls._layout].index(name)])
    align = 8 if re.search("[Pq]", before) else 4
    assert -(-start // align) * align == ibm_length(cls, version - 1)


@keeps("docs/pymqi.md", "a 324-byte version-1 MQMD leaves the version-2 fields zero")
def test_a_version_1_md_read_from_324_bytes_keeps_the_version_2_defaults_at_zero() -> None:
    data = MD(Version=1, Priority=7, MsgId=b"M" * 24).pack()[: CMQC.MQMD_LENGTH_1]
    m = MD().unpack(data)
    assert (m.Version, m.Priority, m.MsgId) == (1, 7, b"M" * 24)
    assert (m.GroupId, m.MsgSeqNumber, m.OriginalLength) == (b"\0" * 24, 0, 0)


def test_pack_is_native_byte_order_and_nul_pads_characters_as_pymqi() -> None:
    data = MD(Priority=0x01020304, ReplyToQ=b"RQ").pack()
    assert data[:8] == b"MD  " + struct.pack("=i", 1)
    assert data[40:44] == struct.pack("=i", 0x01020304)  # Priority, after Format
    assert data[100:148] == b"RQ" + b"\0" * 46  # ReplyToQ, NUL-padded by struct


@keeps("docs/pymqi.md", "a longer one is `struct.error`, as in pymqi")
def test_unpack_of_a_buffer_longer_than_the_structure_is_structs_error_as_in_pymqi() -> None:
    with pytest.raises(struct.error):
        MD().unpack(b"\0" * (CMQC.MQMD_LENGTH_2 + 1))


def value_for(fmt: str, default: Any) -> st.SearchStrategy[Any]:
    size = int(fmt[:-1]) if fmt[:-1] else 1
    if fmt == "i":
        return st.integers(-(2**31), 2**31 - 1)
    if fmt == "q":
        return st.integers(-(2**63), 2**63 - 1)
    if fmt == "P":
        return st.integers(0, 2 ** (8 * struct.calcsize("P")) - 1)
    if fmt == "c":
        return st.binary(min_size=1, max_size=1)
    if fmt.endswith("s"):
        return st.binary(max_size=size)
    assert isinstance(default, list)
    return st.lists(st.integers(-(2**31), 2**31 - 1), min_size=size, max_size=size)


# GMO's GroupStatus, SegmentStatus and Segmentation: pymqi packs them with struct's "b",
# a signed char, and reads them back as ints.
AS_INT = {"GroupStatus", "SegmentStatus", "Segmentation"}


def fields_of(cls: Any) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {
            n: st.integers(-128, 127) if cls is GMO and n in AS_INT else value_for(f, d)
            for n, f, d in cls._layout
        }
    )


@pytest.mark.parametrize(
    "cls", [MD, GMO, PMO, OD, CD, SCO, CNO, SD, IMPO, TM, TMC2, DLH, MDE], ids=str
)
@settings(deadline=None)  # the machine is shared: time is no part of the rule
@given(data=st.data())
def test_unpack_of_pack_gives_every_field_back(cls: Any, data: st.DataObject) -> None:
    values = data.draw(fields_of(cls))
    original = cls(**values)
    packed = original.pack()
    copy = cls().unpack(packed)
    assert copy.pack() == packed
    for name, fmt, _ in cls._layout:
        want = values[name]
        if fmt.endswith("s"):  # struct NUL-pads characters to the field's length
            want = want.ljust(int(fmt[:-1]), b"\0")
        assert copy[name] == want, name


def test_the_rules_layers_binary_headers_read_back_in_the_facades_structures() -> None:
    # Two implementations of IBM's layouts agree: qsg's own MQDLH, MQXQH and MQMD (blank-
    # padded, as a queue manager writes them) read through the facade's DLH, XQH and MD.
    dlh = qsg.DLH(2053, b"Q1", b"QM1", 0x222, 1208, CMQC.MQFMT_STRING, PutApplName=b"qsg")
    read = DLH().unpack(dlh.pack())
    assert (read.Reason, read.DestQName.rstrip(b" "), read.Format) == (2053, b"Q1", b"MQSTR   ")
    assert (read.CodedCharSetId, read.PutApplName.rstrip()) == (1208, b"qsg")
    inner = qsg.MD(Priority=4, MsgId=b"M" * 24, ReplyToQ=b"R")
    data = qsg.XQH(b"RQ", b"QM2", inner).pack() + b"body"
    head = XQH().get_header(data)  # ibmmq's helpers, as its hdr_browse example uses them
    assert (head.RemoteQName.rstrip(b" "), head.RemoteQMgrName.rstrip(b" ")) == (b"RQ", b"QM2")
    m = XQH().get_embedded_md(data)
    assert (m.Version, m.Priority, m.MsgId, m.ReplyToQ) == (1, 4, b"M" * 24, b"R".ljust(48))
    assert m.GroupId == b"\0" * 24 and m.OriginalLength == 0  # no version-2 fields in an XQH


@keeps("docs/pymqi.md", "a structure's `to_string()` (its character fields as `str`, for printing")
def test_to_string_decodes_the_character_fields_for_printing_as_ibmmq_does() -> None:
    # ibmmq's dlq_browse example: DLH().get_header(msg) then print(dlh.to_string()).
    msg = DLH(Reason=2053, DestQName=b"Q1", PutApplName=b"app\0junk", PutDate=b"\xff").pack()
    dlh = DLH().get_header(msg + b"body")
    assert dlh.to_string() is dlh
    assert (dlh.Reason, dlh.DestQName, dlh.PutApplName) == (2053, "Q1", "app")
    assert dlh.PutDate == b"\xff" + b"\0" * 7  # bytes that do not decode stay bytes
    m = MD(MsgId=b"ID", ReplyToQ=b"R  ").to_string()
    assert (m.MsgId, m.ReplyToQ) == (b"ID", "R")  # MsgId holds bytes: left as it is
    assert (to_string(b"QM1 \0\0"), to_string(5)) == ("QM1", 5)


@keeps(
    "docs/pymqi.md",
    "A program that defines a structure pymqi lacks does it as pymqi documents, and it packs "
    "the same way",
)
def test_a_program_defines_its_own_structure_on_mqopts_as_pymqi_documents() -> None:
    class Pair(MQOpts):
        def __init__(self, **kw: Any) -> None:
            self.note = "kept"  # a plain attribute, as pymqi lets a subclass keep
            super().__init__(
                [["StrucId", b"PAIR", "4s"], ["Version", 1, "i"], ["Values", [0, 0], "i", 2]],
                **kw,
            )

    p = Pair(Version=2)
    p.Values = [7, -1]
    assert len(p.pack()) == 16 and p.get() == {"StrucId": b"PAIR", "Version": 2, "Values": [7, -1]}
    back = Pair().unpack(p.pack())
    assert (back.Version, back.Values, back.note) == (2, [7, -1], "kept")
    with pytest.raises(AttributeError, match=r"^'Pair' object has no attribute 'Versoin'$"):
        p.set(Versoin=3)
    with pytest.raises(TypeError, match=UNICODE.format("x")):
        Pair(StrucId="x")
    p.Values = [1, "y"]
    with pytest.raises(TypeError, match=UNICODE.format("y")):
        p.pack()
    one = MQOpts([["Only", 5, "i"]])
    assert one.unpack(struct.pack("=i", 9)).get() == {"Only": 9} and len(one.pack()) == 4
    assert isinstance(p, qsg.core.structs.MQOpts) and Pair().Values is not Pair().Values


# ---- types and names, as pymqi checks them -------------------------------------------


@pytest.mark.parametrize(
    "assign",
    [
        lambda: MD(MsgId="ABC"),
        lambda: MD().set(MsgId="ABC"),
        lambda: MD().__setitem__("MsgId", "ABC"),
        lambda: setattr(MD(), "MsgId", "ABC"),
        lambda: OD(ObjectName="ABC"),
        lambda: CD(ChannelName="ABC"),
        lambda: MD().unpack("ABC"),  # type: ignore[arg-type]
    ],
)
def test_a_str_where_bytes_belong_is_pymqis_type_error(assign: Any) -> None:
    with pytest.raises(TypeError, match=UNICODE.format("ABC")):
        assign()


@pytest.mark.parametrize("cls", ALL_STRUCTURES, ids=lambda c: c.__name__)
@keeps("docs/pymqi.md", "A field the structure does not have: `AttributeError`")
def test_an_unknown_field_name_is_an_attribute_error(cls: Any) -> None:
    name = cls.__name__
    message = rf"^'{name}' object has no attribute 'Persistance'$"
    with pytest.raises(AttributeError, match=message):
        cls(Persistance=1)
    with pytest.raises(AttributeError, match=message):
        cls()["Persistance"]
    with pytest.raises(AttributeError, match=message):
        cls().Persistance = 1  # a misspelt field is refused, never quietly kept


@keeps("docs/pymqi.md", "fails in `pack()` with `struct.error`")
def test_an_integer_out_of_an_mqlongs_range_fails_in_pack_with_structs_error() -> None:
    # pymqi accepts any value when set and hands it to struct.pack on the MQ call.
    m = MD(Priority=2**31)
    with pytest.raises(struct.error, match="format requires -2147483648 <= number <= 2147483647"):
        m.pack()
    with pytest.raises(struct.error):
        GMO(Options=1.5).pack()


@keeps("docs/pymqi.md", "Bytes longer than their field are cut to its length when set")
def test_bytes_longer_than_their_field_are_cut_to_it_as_pymqis_pack_cuts_them() -> None:
    m = MD(MsgId=b"I" * 30, ReplyToQ=b"Q" * 60)
    assert (m.MsgId, m.ReplyToQ) == (b"I" * 24, b"Q" * 48)
    assert m.pack()[48:72] == b"I" * 24


@keeps(
    "docs/pymqi.md",
    "`str()` lists the fields one a line, `repr()` is the packed bytes, as pymqi's",
)
def test_a_structure_prints_its_fields_and_reprs_as_its_packed_bytes_as_pymqi() -> None:
    text = str(SRO(NumPubs=3))
    assert text == "StrucId: b'SRO '\nVersion: 1\nOptions: 8192\nNumPubs: 3"
    assert repr(CMHO()) == str(CMHO().pack())


def test_an_mqcharv_points_at_the_string_set_for_it() -> None:
    o = OD(Version=CMQC.MQOD_VERSION_4)
    o.set_vs("ObjectString", "price/fruit/apples")
    assert o.ObjectStringVSLength == 18 and o.ObjectStringVSPtr != 0
    assert o.get_vs("ObjectString") == b"price/fruit/apples"
    assert OD().get_vs("ObjectString") is None
    with pytest.raises(TypeError, match=UNICODE.format("x")):
        o.set_vs("SelectionString", "x")


def test_a_csp_packs_its_user_and_password_lengths() -> None:
    c = CSP(AuthenticationType=CMQC.MQCSP_AUTH_USER_ID_AND_PWD, CSPUserId=b"app")
    c.CSPPassword = b"passw0rd"
    values = struct.unpack("4s i i 4s P i i 8s P i i", c.pack())
    assert values[2] == 1 and values[6] == 3 and values[10] == 8
    assert c.CSPUserId == b"app"


# ---- MQRFH2 ---------------------------------------------------------------------------

MCD = b"<mcd><Msd>jms_text</Msd></mcd>"  # 30 bytes: padded to 32
JMS = b"<jms><Dst>queue:///Q1</Dst><Pri>4</Pri></jms>"  # 45 bytes: padded to 48


def test_rfh2_defaults_are_the_fixed_36_bytes_of_version_2() -> None:
    r = RFH2()
    assert list(r.get()) == [
        "StrucId",
        "Version",
        "StrucLength",
        "Encoding",
        "CodedCharSetId",
        "Format",
        "Flags",
        "NameValueCCSID",
    ]
    assert (r.StrucId, r.Version, r.Format) == (b"RFH ", 2, CMQC.MQFMT_NONE)
    assert len(r.pack()) == CMQC.MQRFH_STRUC_LENGTH_FIXED_2 == 36


@keeps("docs/pymqi.md", "pads it with blanks to a multiple of 4 bytes")
def test_add_folder_pads_the_folder_to_four_bytes_and_counts_it_in_struclength() -> None:
    r = RFH2()
    r.add_folder(MCD)
    r.add_folder(JMS)
    assert (r.mcdLength, r.mcd) == (32, MCD + b"  ")
    assert (r.jmsLength, r.jms) == (48, JMS + b"   ")
    assert r.StrucLength == 36 + 4 + 32 + 4 + 48 == len(r.pack())
    assert list(r.get())[8:] == ["mcdLength", "mcd", "jmsLength", "jms"]


def test_an_rfh2_packed_in_either_byte_order_unpacks_to_the_same_header() -> None:
    r = RFH2(Format=CMQC.MQFMT_STRING, CodedCharSetId=1208, NameValueCCSID=1208)
    r.add_folder(MCD)
    little, big = r.pack(), r.pack(CMQC.MQENC_INTEGER_NORMAL + 0x110)  # 273
    assert big[4:8] == b"\0\0\0\2" and little[4:8] == struct.pack("=i", 2)
    for data, encoding in [(little, None), (big, None), (big, 273), (little, 546)]:
        assert RFH2().unpack(data, encoding).get() == r.get()


@settings(deadline=None)
@given(
    folders=st.lists(
        st.tuples(
            st.from_regex(r"[a-z][a-zA-Z0-9]{0,10}", fullmatch=True),
            st.text(alphabet="abcdefgh 0123456789", max_size=40),
        ),
        max_size=4,
        unique_by=lambda f: f[0],
    ),
)
def test_rfh2_folders_survive_pack_and_unpack(folders: list[tuple[str, str]]) -> None:
    r = RFH2()
    for name, text in folders:
        r.add_folder(f"<{name}><v>{text}</v></{name}>".encode())
    back = RFH2().unpack(r.pack() + b"body")
    assert back.get() == r.get()
    assert back.StrucLength % 4 == 0


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            b"XXXX" + b"\0" * 40,
            r"^PYMQI Error: RFH2 - StrucId not MQRFH_STRUC_ID\. Value: b'XXXX'$",
        ),
        (
            b"RFH \2\0\0\0",
            r"^PYMQI Error: RFH2 - Buffer too short\. Should be 36\+ bytes instead of 8$",
        ),
        (
            RFH2(StrucLength=100).pack() + b"x",
            r"^PYMQI Error: RFH2 - Buffer too short\. Expected: 100 Buffer Length: 37$",
        ),
        (RFH2(StrucLength=-4).pack(), r'^PYMQI Error: RFH2 - "StrucLength" is negative\.'),
        (
            RFH2(StrucLength=48).pack() + struct.pack("=i", 8) + b"<a></b> ",
            r"^PYMQI Error: RFH2 - XML Folder not well formed\. Exception: mismatched tag",
        ),
    ],
    ids=["struc id", "fixed part short", "folders short", "negative length", "bad xml"],
)
@keeps("docs/pymqi.md", "Malformed data raises pymqi's `PYIFError`")
def test_a_malformed_rfh2_is_pymqis_pyiferror(data: bytes, message: str) -> None:
    with pytest.raises(PYIFError, match=message):
        RFH2().unpack(data)


def test_add_folder_refuses_xml_that_is_not_well_formed() -> None:
    with pytest.raises(PYIFError, match="XML Folder not well formed"):
        RFH2().add_folder(b"<usr><a>1</usr>")
    with pytest.raises(TypeError, match=UNICODE.format("<usr/>")):
        RFH2().add_folder("<usr/>")  # type: ignore[arg-type]


@keeps(
    "docs/pymqi.md",
    "puts `h1` packed in `md.Encoding`, `h2` in the `Encoding` `h1` declares, then `msg`",
)
def test_put_rfh2s_data_chains_the_headers_in_the_encodings_they_declare() -> None:
    # put_rfh2(msg, md, pmo, [h1, h2]): h1 in the MD's Encoding, h2 in the one h1 declares;
    # the Format fields are the program's to chain, as in pymqi.
    first = RFH2(Format=CMQC.MQFMT_RF_HEADER_2, Encoding=273)
    first.add_folder(MCD)
    second = RFH2(Format=CMQC.MQFMT_STRING)
    second.add_folder(JMS)
    m = MD(Format=CMQC.MQFMT_RF_HEADER_2)
    data = rfh2_put_body(b"hello", m, [first, second])
    assert data == first.pack() + second.pack(273) + b"hello"
    assert data[first.StrucLength + 4 : first.StrucLength + 8] == b"\0\0\0\2"  # big-endian
    headers: list[RFH2] = []
    assert rfh2_get_headers(data, m, headers) == b"hello"
    assert [h.get() for h in headers] == [first.get(), second.get()]


def test_get_rfh2_parses_nothing_when_the_format_is_not_an_rfh2() -> None:
    headers: list[RFH2] = []
    assert rfh2_get_headers(b"RFH plain", MD(Format=CMQC.MQFMT_STRING), headers) == b"RFH plain"
    assert headers == []
    assert rfh2_put_body(b"x", None, None) == b"x"


def test_the_rfh2_calls_want_a_list_as_pymqis_do() -> None:
    with pytest.raises(TypeError, match=r"^Third item of opts should be a list\.$"):
        rfh2_put_body(b"x", MD(), RFH2())
    with pytest.raises(TypeError, match=r"^Third item of opts should be a list\.$"):
        rfh2_get_headers(b"x", MD(), (RFH2(),))
    with pytest.raises(AttributeError, match=r"^get_opts cannot be None if passed\.$"):
        rfh2_get_headers(b"x", MD(), None)
    with pytest.raises(TypeError, match=UNICODE.format("text")):
        rfh2_put_body("text", MD(), [])  # type: ignore[arg-type]
