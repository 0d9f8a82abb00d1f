"""Untrusted numbers and bytes at the rules layer (issue 26): MQLONG range checks at the
MQI, and every binary layout length-checked.

An MQLONG is a signed 32-bit integer ("Elementary data types" in IBM's MQI reference);
the structures accept 0 to 2**32-1 as pymqi's do, but MQPUT, MQPUT1, MQGET and MQOPEN
refuse a field out of range with the reason code IBM gives for the field ("MQPUT - Put
message", "MQGET - Get message"). The layouts (MQMD, MQXQH, MQDLH, MQTM) refuse data
too short for them with their structure's reason code, never ``struct.error``.
"""

from __future__ import annotations

import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qsg import CMQC, GMO, MD, OD, PMO, XQH, MQMIError, QMgr
from qsg.core import mqlong
from qsg.core.layouts import DLH, TM, pack_md, unpack_md
from qsg.core.objects import RemoteQueue
from tests.claims import keeps
from tests.helpers import ALL

BIG = 3_000_000_000  # fits the structure (< 2**32), not an MQLONG


@pytest.fixture
def qm() -> QMgr:
    qm = QMgr("QM1")
    qm.define_queue("APP.LOCAL")
    qm.define_queue("QM3", usage=CMQC.MQUS_TRANSMISSION)
    qm.define(RemoteQueue("TO.QM3", remote_name="APP.IN", remote_q_mgr_name="QM3"))
    return qm


# ---- MQLONG fields at the MQI -------------------------------------------------------------
MD_FIELD_REASONS = [
    ("Expiry", CMQC.MQRC_EXPIRY_ERROR, 2013),
    ("Priority", CMQC.MQRC_PRIORITY_ERROR, 2050),
    ("Persistence", CMQC.MQRC_PERSISTENCE_ERROR, 2047),
    ("Report", CMQC.MQRC_REPORT_OPTIONS_ERROR, 2061),
    ("MsgType", CMQC.MQRC_MSG_TYPE_ERROR, 2029),
    ("Feedback", CMQC.MQRC_FEEDBACK_ERROR, 2014),
    ("MsgSeqNumber", CMQC.MQRC_MSG_SEQ_NUMBER_ERROR, 2250),
    ("Offset", CMQC.MQRC_OFFSET_ERROR, 2251),
    ("MsgFlags", CMQC.MQRC_MSG_FLAGS_ERROR, 2249),
    ("OriginalLength", CMQC.MQRC_ORIGINAL_LENGTH_ERROR, 2252),
    ("Encoding", CMQC.MQRC_MD_ERROR, 2026),
    ("CodedCharSetId", CMQC.MQRC_MD_ERROR, 2026),
    ("BackoutCount", CMQC.MQRC_MD_ERROR, 2026),
    ("PutApplType", CMQC.MQRC_MD_ERROR, 2026),
    ("Version", CMQC.MQRC_MD_ERROR, 2026),
]


@pytest.mark.parametrize(("field", "reason", "number"), MD_FIELD_REASONS)
@keeps(
    "docs/edges.md",
    "MQOPEN, MQPUT, MQPUT1 and MQGET refuse a field outside an MQLONG's range, before anything "
    "else, with the reason code IBM gives for that field",
)
@keeps(
    "docs/mq-rules.md",
    (
        "An MQLONG is a signed 32-bit integer: a field out of range is refused at the call with "
        "its structure's reason code."
    ),
)
def test_an_mqmd_integer_above_an_mqlong_is_refused_at_mqput_with_its_fields_reason(
    qm: QMgr, field: str, reason: int, number: int
) -> None:
    assert reason == number  # IBM's number, not only the name
    h = qm.connect().open("APP.LOCAL", CMQC.MQOO_OUTPUT)
    with pytest.raises(MQMIError, match=rf"\({number}\): MQMD\.{field}={BIG} is outside"):
        h.put(b"x", MD(**{field: BIG}), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    assert qm.depth("APP.LOCAL") == 0


@keeps(
    "docs/edges.md",
    "So `MD(Expiry=3_000_000_000)` fails at MQPUT with MQRC_EXPIRY_ERROR, instead of being "
    "stored and failing later when a channel packs the descriptor into an MQXQH.",
)
def test_expiry_of_three_billion_to_a_remote_queue_is_mqrc_expiry_error_not_struct_error(
    qm: QMgr,
) -> None:
    # The case: accepted, it failed later packing the MQXQH with struct.error.
    h = qm.connect().open("TO.QM3", CMQC.MQOO_OUTPUT)
    with pytest.raises(MQMIError) as caught:
        h.put(b"x", MD(Expiry=BIG), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    assert caught.value.reason == CMQC.MQRC_EXPIRY_ERROR
    with pytest.raises(MQMIError) as caught:
        qm.connect().put1("TO.QM3", b"x", MD(Expiry=BIG), None, now=0.0)
    assert caught.value.reason == CMQC.MQRC_EXPIRY_ERROR
    assert qm.depth("QM3") == 0


@keeps(
    "docs/edges.md",
    "qsg's structures (`MD`, `GMO`, `PMO`, `OD`) accept 0 to 2^32-1 as well, as pymqi's do",
)
def test_an_mqlong_below_minus_two_to_the_31_cannot_even_be_held() -> None:
    with pytest.raises(ValueError, match="does not fit in an MQLONG"):
        MD(Expiry=-(2**31) - 1)


def test_the_edges_of_an_mqlong_pass_the_range_check() -> None:
    for value in (mqlong.MQLONG_MIN, mqlong.MQLONG_MAX):
        mqlong.check_md(MD(Feedback=value, Encoding=value))
    with pytest.raises(MQMIError, match=r"MQRC_FEEDBACK_ERROR"):
        mqlong.check_md(MD(Feedback=mqlong.MQLONG_MAX + 1))


@pytest.mark.parametrize(
    ("field", "reason"),
    [
        ("Options", CMQC.MQRC_OPTIONS_ERROR),
        ("Context", CMQC.MQRC_CONTEXT_HANDLE_ERROR),
        ("Timeout", CMQC.MQRC_PMO_ERROR),
        ("KnownDestCount", CMQC.MQRC_PMO_ERROR),
        ("Version", CMQC.MQRC_PMO_ERROR),
    ],
)
@keeps("docs/edges.md", "| MQPMO | any other | MQRC_PMO_ERROR (2173) |")
def test_an_mqpmo_integer_out_of_range_is_refused_at_mqput(
    qm: QMgr, field: str, reason: int
) -> None:
    h = qm.connect().open("APP.LOCAL", CMQC.MQOO_OUTPUT)
    with pytest.raises(MQMIError) as caught:
        h.put(b"x", MD(), PMO(**{field: BIG}), now=0.0)
    assert caught.value.reason == reason and f"MQPMO.{field}" in str(caught.value)


@pytest.mark.parametrize(
    ("field", "reason"),
    [
        ("Options", CMQC.MQRC_OPTIONS_ERROR),
        ("WaitInterval", CMQC.MQRC_WAIT_INTERVAL_ERROR),
        ("Signal1", CMQC.MQRC_SIGNAL1_ERROR),
        ("MatchOptions", CMQC.MQRC_MATCH_OPTIONS_ERROR),
        ("MsgHandle", CMQC.MQRC_HMSG_ERROR),
        ("Signal2", CMQC.MQRC_GMO_ERROR),
        ("Version", CMQC.MQRC_GMO_ERROR),
    ],
)
@keeps("docs/edges.md", "| MQGMO | any other | MQRC_GMO_ERROR (2186) |")
def test_an_mqgmo_integer_out_of_range_is_refused_at_mqget(
    qm: QMgr, field: str, reason: int
) -> None:
    h = qm.connect().open("APP.LOCAL", ALL)
    h.put(b"kept", MD(), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    with pytest.raises(MQMIError) as caught:
        h.get(None, MD(), GMO(**{field: BIG}), now=0.0)
    assert caught.value.reason == reason
    assert qm.depth("APP.LOCAL") == 1  # nothing taken


def test_an_mqmd_match_field_out_of_range_is_refused_at_mqget(qm: QMgr) -> None:
    h = qm.connect().open("APP.LOCAL", ALL)
    with pytest.raises(MQMIError) as caught:
        h.get(None, MD(MsgSeqNumber=BIG), GMO(), now=0.0)
    assert caught.value.reason == CMQC.MQRC_MSG_SEQ_NUMBER_ERROR


@keeps("docs/edges.md", "| MQOD | ObjectType | MQRC_OBJECT_TYPE_ERROR (2043) |")
def test_an_mqod_object_type_out_of_range_is_refused_at_mqopen(qm: QMgr) -> None:
    od = OD(ObjectName=b"APP.LOCAL", ObjectType=BIG)
    with pytest.raises(MQMIError) as caught:
        qm.connect().open(od, CMQC.MQOO_OUTPUT)
    assert caught.value.reason == CMQC.MQRC_OBJECT_TYPE_ERROR


# ---- the binary layouts -------------------------------------------------------------------
def _xqh_with_inner_v2() -> bytes:
    """An MQXQH whose embedded MQMD (an MQMD1 layout) has Version 2 in its Version field."""
    data = bytearray(XQH(b"APP.IN", b"QM3", MD(Expiry=70, MsgId=b"M" * 24)).pack())
    struct.pack_into("<i", data, 104 + 4, CMQC.MQMD_VERSION_2)
    return bytes(data)


@keeps("docs/edges.md", "it is read as one even when its Version field says 2.")
def test_an_mqxqh_whose_inner_mqmd_claims_version_2_parses_as_the_mqmd1_it_holds() -> None:
    header = XQH.unpack(_xqh_with_inner_v2() + b"body")
    assert header.MsgDesc.Expiry == 70 and header.MsgDesc.MsgId == b"M" * 24
    assert header.MsgDesc.Version == CMQC.MQMD_VERSION_1  # the layout it is held in


@pytest.mark.parametrize(
    ("parse", "size", "reason"),
    [
        (XQH.unpack, CMQC.MQXQH_LENGTH_1, CMQC.MQRC_XQH_ERROR),
        (DLH.unpack, CMQC.MQDLH_LENGTH_1, CMQC.MQRC_DLH_ERROR),
        (TM.unpack, CMQC.MQTM_LENGTH_1, CMQC.MQRC_TM_ERROR),
        (unpack_md, CMQC.MQMD_LENGTH_1, CMQC.MQRC_MD_ERROR),
    ],
)
@keeps(
    "docs/edges.md",
    "Data too short for the layout is refused with the structure's own reason code, "
    "MQRC_MD_ERROR (2026), MQRC_XQH_ERROR (2260), MQRC_DLH_ERROR (2141) or MQRC_TM_ERROR (2265)",
)
def test_data_one_byte_short_of_a_layout_is_its_structures_error(
    parse: object, size: int, reason: int
) -> None:
    assert callable(parse)
    with pytest.raises(MQMIError) as caught:
        parse(b"\x00" * (size - 1))
    assert caught.value.reason == reason


@keeps("docs/edges.md", "or that claims version 2 in fewer than 364 bytes, is MQRC_MD_ERROR.")
def test_an_mqmd_claiming_version_2_in_324_bytes_is_mqrc_md_error() -> None:
    v1 = bytearray(pack_md(MD(), version=1))
    struct.pack_into("<i", v1, 4, 2)
    with pytest.raises(MQMIError, match=r"MQRC_MD_ERROR .*version-2 MQMD needs 364"):
        unpack_md(bytes(v1))
    struct.pack_into("<i", v1, 4, 7)
    with pytest.raises(MQMIError, match=r"MQRC_MD_ERROR .*MQMD.Version=7"):
        unpack_md(bytes(v1))


def test_an_mqmd_that_cannot_be_packed_is_mqrc_md_error() -> None:
    with pytest.raises(MQMIError, match=r"MQRC_MD_ERROR"):
        pack_md(MD(Expiry=BIG), version=1)


PARSERS = [XQH.unpack, DLH.unpack, TM.unpack, unpack_md]
DOCUMENTED = {CMQC.MQRC_XQH_ERROR, CMQC.MQRC_DLH_ERROR, CMQC.MQRC_TM_ERROR, CMQC.MQRC_MD_ERROR}


@given(
    data=st.binary(max_size=800),
    encoding=st.sampled_from([CMQC.MQENC_NATIVE, CMQC.MQENC_INTEGER_NORMAL, 0, -1]),
)
def test_the_header_parsers_raise_only_their_documented_errors_on_random_bytes(
    data: bytes, encoding: int
) -> None:
    reasons = []
    for parse in PARSERS:
        try:
            parse(data, encoding)
        except MQMIError as error:
            reasons.append(error.reason)
    assert set(reasons) <= DOCUMENTED


def test_a_field_set_back_in_range_makes_the_structure_usable_again(qm: QMgr) -> None:
    h = qm.connect().open("APP.LOCAL", CMQC.MQOO_OUTPUT)
    md = MD()
    md.Expiry = BIG  # the unsigned half, as pymqi allows: the structure holds it
    md["Priority"] = BIG
    with pytest.raises(MQMIError):
        h.put(b"x", md, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    md.Expiry, md.Priority = 600, 4
    h.put(b"x", md, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
    assert qm.depth("APP.LOCAL") == 1 and md.get()["Expiry"] == 600
    assert MD(Expiry=BIG) != MD() and MD(Expiry=600) == MD(Expiry=600)
