"""CMQC values, the structures' defaults and IBM's binary layouts (reference §1-§3)."""

from __future__ import annotations

import struct

import pytest

from qsg import CMQC, DLH, GMO, MD, OD, PMO, XQH, MQMIError
from qsg.core.layouts import pack_md, unpack_md
from tests.claims import keeps

# A sample of the reference table (IBM's values, as cmqc.h has them).
REFERENCE = {
    "MQRC_BACKED_OUT": 2003,
    "MQRC_CONNECTION_BROKEN": 2009,
    "MQRC_EXPIRY_ERROR": 2013,
    "MQRC_GET_INHIBITED": 2016,
    "MQRC_SYNCPOINT_LIMIT_REACHED": 2024,
    "MQRC_MSG_TOO_BIG_FOR_Q": 2030,
    "MQRC_NO_MSG_AVAILABLE": 2033,
    "MQRC_NO_MSG_UNDER_CURSOR": 2034,
    "MQRC_NOT_AUTHORIZED": 2035,
    "MQRC_OBJECT_IN_USE": 2042,
    "MQRC_PERSISTENT_NOT_ALLOWED": 2048,
    "MQRC_PRIORITY_ERROR": 2050,
    "MQRC_PUT_INHIBITED": 2051,
    "MQRC_Q_DELETED": 2052,
    "MQRC_Q_FULL": 2053,
    "MQRC_Q_NOT_EMPTY": 2055,
    "MQRC_TRUNCATED_MSG_FAILED": 2080,
    "MQRC_UNKNOWN_OBJECT_NAME": 2085,
    "MQRC_STORAGE_MEDIUM_FULL": 2192,
    "MQRC_INCOMPLETE_GROUP": 2241,
    "MQRC_MATCH_OPTIONS_ERROR": 2247,
    "MQRC_INCONSISTENT_BROWSE": 2259,
    "MQRC_CF_STRUC_IN_USE": 2346,
    "MQRC_WRONG_CF_LEVEL": 2366,
    "MQRC_CF_STRUC_FAILED": 2373,
    "MQRC_Q_INDEX_TYPE_ERROR": 2394,
    "MQCC_WARNING": 1,
    "MQEI_UNLIMITED": -1,
    "MQGMO_SYNCPOINT": 0x2,
    "MQGMO_BROWSE_FIRST": 0x10,
    "MQGMO_BROWSE_NEXT": 0x20,
    "MQGMO_MSG_UNDER_CURSOR": 0x100,
    "MQGMO_LOCK": 0x200,
    "MQGMO_LOGICAL_ORDER": 0x8000,
    "MQGMO_COMPLETE_MSG": 0x10000,
    "MQGMO_ALL_MSGS_AVAILABLE": 0x20000,
    "MQGMO_ALL_SEGMENTS_AVAILABLE": 0x40000,
    "MQMO_MATCH_GROUP_ID": 4,
    "MQMO_MATCH_MSG_SEQ_NUMBER": 8,
    "MQMO_MATCH_OFFSET": 0x10,
    "MQMF_SEGMENT": 2,
    "MQMF_LAST_SEGMENT": 4,
    "MQMF_MSG_IN_GROUP": 8,
    "MQMF_LAST_MSG_IN_GROUP": 0x10,
    "MQPMO_NEW_MSG_ID": 0x40,
    "MQPMO_NEW_CORREL_ID": 0x80,
    "MQPMO_LOGICAL_ORDER": 0x8000,
    "MQOO_INPUT_EXCLUSIVE": 4,
    "MQOO_BROWSE": 8,
    "MQOO_OUTPUT": 0x10,
    "MQCO_DELETE_PURGE": 2,
    "MQRO_EXPIRATION": 0x00200000,
    "MQRO_EXPIRATION_WITH_DATA": 0x00600000,
    "MQRO_EXPIRATION_WITH_FULL_DATA": 0x00E00000,
    "MQRO_DISCARD_MSG": 0x08000000,
    "MQFB_EXPIRATION": 258,
    "MQMT_REPORT": 4,
    "MQMT_DATAGRAM": 8,
    "MQPER_PERSISTENCE_AS_Q_DEF": 2,
    "MQMDS_FIFO": 1,
    "MQQDT_TEMPORARY_DYNAMIC": 3,
    "MQQDT_SHARED_DYNAMIC": 4,
    "MQQT_REMOTE": 6,
    "MQUS_TRANSMISSION": 1,
    "MQQSGD_SHARED": 2,
    "MQIT_GROUP_ID": 5,
    "MQIA_CURRENT_Q_DEPTH": 3,
    "MQIA_MAX_Q_DEPTH": 15,
    "MQIA_MAX_UNCOMMITTED_MSGS": 33,
    "MQIA_EXPIRY_INTERVAL": 39,
    "MQIA_INDEX_TYPE": 57,
    "MQIA_QSG_DISP": 63,
    "MQCA_Q_MGR_NAME": 2015,
    "MQCA_Q_NAME": 2016,
    "MQPRI_PRIORITY_AS_Q_DEF": -1,
    "MQFMT_XMIT_Q_HEADER": b"MQXMIT  ",
    "MQFMT_NONE": b"        ",
    "MQFMT_STRING": b"MQSTR   ",
    "MQMI_NONE": b"\0" * 24,
    # cmqc.h: #define MQGS_MSG_IN_GROUP 'G', a C character constant: its code, an int.
    "MQGS_MSG_IN_GROUP": ord("G"),
    "MQSS_LAST_SEGMENT": ord("L"),
    "MQMD_LENGTH_2": 364,
    "MQXQH_LENGTH_1": 428,
}


@pytest.mark.parametrize(("name", "value"), sorted(REFERENCE.items()))
def test_cmqc_holds_ibm_values_from_the_reference_table(name: str, value: object) -> None:
    assert getattr(CMQC, name) == value


@keeps(
    "docs/reason-codes.md",
    "fails with `qsg.MQMIError`, as pymqi does: `comp` is the completion code",
)
def test_an_error_names_its_reason_and_completion_code() -> None:
    error = MQMIError(CMQC.MQCC_FAILED, CMQC.MQRC_NO_MSG_AVAILABLE)
    assert str(error) == "MQCC_FAILED: MQRC_NO_MSG_AVAILABLE (2033)"
    assert (error.comp, error.reason) == (2, 2033)
    assert error.errorAsString() == "MQRC_NO_MSG_AVAILABLE"


def test_a_shared_reason_value_is_named_by_its_cf_mnemonic() -> None:
    assert "MQRC_STORAGE_MEDIUM_FULL (2192)" in str(MQMIError.failed(2192))


@keeps(
    "docs/rules.md",
    "**Structures** `MD`, `GMO`, `PMO`, `OD` with IBM's field names and defaults",
)
def test_structures_start_with_ibm_defaults() -> None:
    md, gmo, pmo, od = MD(), GMO(), PMO(), OD()
    assert (md.Version, md.MsgType, md.Expiry, md.Priority, md.Persistence) == (1, 8, -1, -1, 2)
    assert (md.MsgSeqNumber, md.OriginalLength, md.MsgId) == (1, -1, CMQC.MQMI_NONE)
    assert gmo.Options == CMQC.MQGMO_NO_WAIT
    assert gmo.MatchOptions == CMQC.MQMO_MATCH_MSG_ID | CMQC.MQMO_MATCH_CORREL_ID
    assert (pmo.Options, pmo.Timeout) == (CMQC.MQPMO_NONE, -1)
    assert (od.ObjectType, od.DynamicQName) == (CMQC.MQOT_Q, b"AMQ.*")


@keeps("docs/rules.md", "unknown field → `AttributeError`, `str` for bytes → `TypeError`")
def test_structures_refuse_unknown_fields_and_str_for_bytes_as_pymqi_does() -> None:
    with pytest.raises(AttributeError, match=r"^MD has no field 'Expire'$"):
        MD(Expire=5)
    with pytest.raises(TypeError, match=r"^MD.ReplyToQ is a character field: give bytes, not str$"):
        MD().ReplyToQ = "Q"  # type: ignore[assignment]
    md = MD()
    md["Priority"] = 4
    assert md.Priority == 4 and md.get()["Priority"] == 4


@pytest.mark.parametrize("how", ["keyword", "attribute"])
def test_an_mqlong_field_takes_an_int_that_fits_in_32_bits_and_nothing_else(how: str) -> None:
    # MQLONG is a 32-bit integer; pymqi packs it signed or unsigned, so both ranges fit.
    def give(value: object) -> MD:
        if how == "keyword":
            return MD(Priority=value)
        md = MD()
        md.Priority = value  # type: ignore[assignment]
        return md

    assert give(-(2**31)).Priority == -(2**31) and give(2**32 - 1).Priority == 2**32 - 1
    for value in (-(2**31) - 1, 2**32):
        with pytest.raises(ValueError, match=r"^MD.Priority=-?\d+ does not fit in an MQLONG$"):
            give(value)
    for value in (True, 4.0, "4"):
        with pytest.raises(TypeError, match=r"^MD.Priority is an MQLONG: give an int"):
            give(value)


@keeps(
    "docs/rules.md",
    "MQMD v1/v2 (324/364 bytes), MQXQH (428) and MQDLH (172) in IBM's binary layout",
)
def test_mqmd_packs_to_ibm_layout_of_324_and_364_bytes() -> None:
    md = MD(Expiry=600, Priority=4, MsgId=b"M" * 24, GroupId=b"G" * 24, MsgSeqNumber=7)
    v1, v2 = pack_md(md, version=1), pack_md(md, version=2)
    assert (len(v1), len(v2)) == (324, 364)
    assert v2[:4] == b"MD  " and struct.unpack_from("<i", v2, 16)[0] == 600  # Expiry at 16
    assert v2[48:72] == b"M" * 24 and v2[324:348] == b"G" * 24  # MsgId at 48, GroupId at 324
    assert struct.unpack_from("<i", v2, 348)[0] == 7  # MsgSeqNumber at 348
    back = unpack_md(v2)
    assert (back.Expiry, back.Priority, back.MsgSeqNumber, back.Version) == (600, 4, 7, 2)
    assert unpack_md(v1).Version == 1 and unpack_md(v1).GroupId == CMQC.MQGI_NONE


def test_mqmd_packs_big_endian_when_the_encoding_says_normal() -> None:
    data = pack_md(MD(Expiry=600), version=1, encoding=CMQC.MQENC_INTEGER_NORMAL)
    assert struct.unpack_from(">i", data, 16)[0] == 600


@keeps(
    "docs/rules.md",
    "MQMD v1/v2 (324/364 bytes), MQXQH (428) and MQDLH (172) in IBM's binary layout",
)
def test_mqxqh_is_428_bytes_with_the_v1_mqmd_at_offset_104() -> None:
    data = XQH(b"APP.IN", b"QM3", MD(Expiry=50)).pack()
    assert len(data) == 428 and data[:4] == b"XQH "
    assert data[8:56].rstrip() == b"APP.IN" and data[56:104].rstrip() == b"QM3"
    assert data[104:108] == b"MD  " and struct.unpack_from("<i", data, 120)[0] == 50
    xqh = XQH.unpack(data)
    assert (xqh.RemoteQName.rstrip(), xqh.MsgDesc.Expiry) == (b"APP.IN", 50)


@keeps(
    "docs/rules.md",
    "MQMD v1/v2 (324/364 bytes), MQXQH (428) and MQDLH (172) in IBM's binary layout",
)
def test_mqdlh_is_172_bytes_and_round_trips() -> None:
    dlh = DLH(2085, b"NOWHERE", b"QM1", CMQC.MQENC_NATIVE, 1208, CMQC.MQFMT_STRING)
    data = dlh.pack()
    assert len(data) == 172 and data[:4] == b"DLH "
    assert DLH.unpack(data).Reason == 2085
