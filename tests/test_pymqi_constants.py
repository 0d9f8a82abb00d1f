"""The facade's constant modules and errors, as pymqi's (its ``CMQC``, ``CMQCFC``,
``CMQXC``, ``CMQZC`` and ``MQMIError``), with IBM's values (docs/pymqi.md, "Structures
and constants")."""

from __future__ import annotations

import importlib
import struct

import pytest

import qsg
from qsg import CMQC as RULES
from qsg.pymqi import CMQC, CMQCFC, CMQXC, CMQZC
from qsg.pymqi.errors import Error, MQMIError, PYIFError, from_core
from tests.claims import keeps

# IBM's header gives a one-character MQCHAR as a C character constant, an int; pymqi's CMQC
# holds it as ord(): GMO.GroupStatus packs as a signed char and comes back an int, and
# pymqi programs compare it with these. qsg.CMQC holds the same objects
# (tests/test_ibm_constants.py).
AS_ORD = {
    "MQGS_NOT_IN_GROUP": " ",
    "MQGS_MSG_IN_GROUP": "G",
    "MQGS_LAST_MSG_IN_GROUP": "L",
    "MQSS_NOT_A_SEGMENT": " ",
    "MQSS_SEGMENT": "S",
    "MQSS_LAST_SEGMENT": "L",
    "MQSEG_INHIBITED": " ",
    "MQSEG_ALLOWED": "A",
}


@pytest.mark.parametrize(("name", "char"), sorted(AS_ORD.items()))
@keeps(
    "docs/constants.md",
    "A one-character `MQCHAR` (`MQGS_*`, `MQSS_*`, `MQSEG_*`) is its character's code, an `int`",
)
def test_group_and_segment_status_are_the_integers_pymqi_defines(name: str, char: str) -> None:
    # IBM: "MQGMO - Get-message options", GroupStatus is an MQCHAR; pymqi keeps its ord().
    assert getattr(CMQC, name) == ord(char)
    assert getattr(RULES, name) is getattr(CMQC, name)
    assert (CMQC.MQGS_MSG_IN_GROUP, CMQC.MQGS_LAST_MSG_IN_GROUP) == (71, 76)


# IBM's values, from IBM's documentation of each constant (and /reference tables of
# pymqi's examples): a sample across the four modules, written out by hand.
IBM = {
    (CMQC, "MQCC_FAILED"): 2,
    (CMQC, "MQCC_WARNING"): 1,
    (CMQC, "MQRC_NO_MSG_AVAILABLE"): 2033,
    (CMQC, "MQRC_UNKNOWN_OBJECT_NAME"): 2085,
    (CMQC, "MQRC_ALREADY_CONNECTED"): 2002,
    (CMQC, "MQRC_HOST_NOT_AVAILABLE"): 2538,
    (CMQC, "MQRC_Q_MGR_NAME_ERROR"): 2058,
    (CMQC, "MQRC_Q_MGR_NOT_AVAILABLE"): 2059,
    (CMQC, "MQRC_CONNECTION_BROKEN"): 2009,
    (CMQC, "MQRC_NOT_CONVERTED"): 2119,
    (CMQC, "MQGMO_WAIT"): 0x1,
    (CMQC, "MQGMO_NO_SYNCPOINT"): 0x4,
    (CMQC, "MQGMO_FAIL_IF_QUIESCING"): 0x2000,
    (CMQC, "MQGMO_PROPERTIES_IN_HANDLE"): 0x08000000,
    (CMQC, "MQGMO_CURRENT_VERSION"): 4,
    (CMQC, "MQMD_CURRENT_VERSION"): 2,
    (CMQC, "MQPMO_NO_SYNCPOINT"): 0x4,
    (CMQC, "MQPMO_FAIL_IF_QUIESCING"): 0x2000,
    (CMQC, "MQPMO_VERSION_3"): 3,
    (CMQC, "MQMO_MATCH_CORREL_ID"): 2,
    (CMQC, "MQOO_INPUT_SHARED"): 0x2,
    (CMQC, "MQOO_INPUT_EXCLUSIVE"): 0x4,
    (CMQC, "MQOO_OUTPUT"): 0x10,
    (CMQC, "MQOO_ALTERNATE_USER_AUTHORITY"): 0x1000,
    (CMQC, "MQOO_RESOLVE_NAMES"): 0x10000,
    (CMQC, "MQCO_KEEP_SUB"): 4,
    (CMQC, "MQMT_REQUEST"): 1,
    (CMQC, "MQOT_Q"): 1,
    (CMQC, "MQQT_LOCAL"): 1,
    (CMQC, "MQQT_MODEL"): 2,
    (CMQC, "MQIA_CURRENT_Q_DEPTH"): 3,
    (CMQC, "MQIA_MAX_Q_DEPTH"): 15,
    (CMQC, "MQIA_Q_TYPE"): 20,
    (CMQC, "MQIA_PLATFORM"): 32,
    (CMQC, "MQCA_Q_NAME"): 2016,
    (CMQC, "MQCA_Q_DESC"): 2013,
    (CMQC, "MQPL_ZOS"): 1,
    (CMQC, "MQPL_UNIX"): 3,
    (CMQC, "MQCHT_CLNTCONN"): 6,
    (CMQC, "MQXPT_TCP"): 2,
    (CMQC, "MQSO_CREATE"): 2,
    (CMQC, "MQSO_RESUME"): 4,
    (CMQC, "MQSO_DURABLE"): 8,
    (CMQC, "MQSO_MANAGED"): 0x20,
    (CMQC, "MQCNO_HANDLE_SHARE_BLOCK"): 0x40,
    (CMQC, "MQCNO_HANDLE_SHARE_NO_BLOCK"): 0x80,
    (CMQC, "MQCNO_CLIENT_BINDING"): 0x800,
    (CMQC, "MQTYPE_STRING"): 1024,
    (CMQC, "MQCSP_AUTH_USER_ID_AND_PWD"): 1,
    (CMQC, "MQRL_UNDEFINED"): -1,
    (CMQC, "MQENC_NATIVE"): 0x222,
    (CMQC, "MQCCSI_APPL"): -3,
    (CMQC, "MQFMT_STRING"): b"MQSTR   ",
    (CMQC, "MQFMT_RF_HEADER_2"): b"MQHRF2  ",
    (CMQC, "MQRFH_STRUC_ID"): b"RFH ",
    (CMQC, "MQRFH_STRUC_LENGTH_FIXED_2"): 36,
    (CMQC, "MQMI_NONE"): b"\0" * 24,
    (CMQC, "MQCI_NONE"): b"\0" * 24,
    (CMQC, "MQGI_NONE"): b"\0" * 24,
    (CMQCFC, "MQCMD_INQUIRE_Q_MGR"): 2,
    (CMQCFC, "MQCMD_INQUIRE_Q"): 13,
    (CMQCFC, "MQCMD_PING_Q_MGR"): 40,
    (CMQCFC, "MQCACH_CHANNEL_NAME"): 3501,
    (CMQCFC, "MQIACH_CHANNEL_TYPE"): 1511,
    (CMQCFC, "MQIACF_Q_ATTRS"): 1002,
    (CMQCFC, "MQRCCF_CFH_TYPE_ERROR"): 3001,
    (CMQCFC, "MQRCCF_OBJECT_ALREADY_EXISTS"): 4001,
    (CMQXC, "MQCHT_SVRCONN"): 7,
    (CMQXC, "MQCOMPRESS_ZLIBHIGH"): 4,
    (CMQXC, "MQCD_VERSION_6"): 6,
    (CMQXC, "MQCD_VERSION_11"): 11,
    (CMQZC, "MQZAO_CONNECT"): 1,
    (CMQZC, "MQZAO_BROWSE"): 2,
}


@pytest.mark.parametrize(
    ("module", "name", "value"),
    [(m, n, v) for (m, n), v in IBM.items()],
    ids=[f"{m.__name__.rsplit('.', 1)[1]}.{n}" for m, n in IBM],
)
@keeps(
    "docs/constants.md",
    (
        "the `*_CURRENT_VERSION`, `*_CURRENT_LENGTH`, `*_LAST_USED` values and "
        "`MQCMDL_CURRENT_LEVEL` are MQ 9.2.5's"
    ),
)
@keeps("README.md", "Names, options and reason codes are IBM's, with IBM's numbers")
def test_a_sample_of_constants_holds_ibms_values(module: object, name: str, value: object) -> None:
    assert getattr(module, name) == value


# Every constant pymqi's documented examples name (its examples/ and examples.rst).
USED_BY_PYMQI_EXAMPLES = [
    "CMQC.MQCA_Q_DESC",
    "CMQC.MQCA_Q_NAME",
    "CMQC.MQCC_FAILED",
    "CMQC.MQCC_WARNING",
    "CMQC.MQCHT_CLNTCONN",
    "CMQC.MQCI_NONE",
    "CMQC.MQCNO_HANDLE_SHARE_BLOCK",
    "CMQC.MQCNO_HANDLE_SHARE_NO_BLOCK",
    "CMQC.MQCO_KEEP_SUB",
    "CMQC.MQGI_NONE",
    "CMQC.MQGMO_CURRENT_VERSION",
    "CMQC.MQGMO_FAIL_IF_QUIESCING",
    "CMQC.MQGMO_NO_SYNCPOINT",
    "CMQC.MQGMO_PROPERTIES_IN_HANDLE",
    "CMQC.MQGMO_VERSION_2",
    "CMQC.MQGMO_WAIT",
    "CMQC.MQIA_CURRENT_Q_DEPTH",
    "CMQC.MQIA_MAX_Q_DEPTH",
    "CMQC.MQIA_Q_TYPE",
    "CMQC.MQMD_CURRENT_VERSION",
    "CMQC.MQMI_NONE",
    "CMQC.MQMO_MATCH_CORREL_ID",
    "CMQC.MQMT_REQUEST",
    "CMQC.MQOO_ALTERNATE_USER_AUTHORITY",
    "CMQC.MQOO_INPUT_EXCLUSIVE",
    "CMQC.MQOO_INPUT_SHARED",
    "CMQC.MQOO_OUTPUT",
    "CMQC.MQOT_Q",
    "CMQC.MQPMO_FAIL_IF_QUIESCING",
    "CMQC.MQPMO_NO_SYNCPOINT",
    "CMQC.MQPMO_VERSION_3",
    "CMQC.MQQT_LOCAL",
    "CMQC.MQQT_MODEL",
    "CMQC.MQRC_ALREADY_CONNECTED",
    "CMQC.MQRC_HOST_NOT_AVAILABLE",
    "CMQC.MQRC_NO_MSG_AVAILABLE",
    "CMQC.MQRC_UNKNOWN_OBJECT_NAME",
    "CMQC.MQSO_CREATE",
    "CMQC.MQSO_DURABLE",
    "CMQC.MQSO_MANAGED",
    "CMQC.MQSO_RESUME",
    "CMQC.MQTYPE_STRING",
    "CMQC.MQXPT_TCP",
    "CMQCFC.MQAUTH_BROWSE",
    "CMQCFC.MQCACF_AUTH_PROFILE_NAME",
    "CMQCFC.MQCACF_GROUP_ENTITY_NAMES",
    "CMQCFC.MQCACH_CHANNEL_NAME",
    "CMQCFC.MQIACF_AUTH_ADD_AUTHS",
    "CMQCFC.MQIACF_OBJECT_TYPE",
    "CMQCFC.MQIACF_Q_ATTRS",
    "CMQCFC.MQIACH_CHANNEL_TYPE",
    "CMQXC.MQCHT_SVRCONN",
    "CMQXC.MQCOMPRESS_ZLIBHIGH",
]


@pytest.mark.parametrize("qualified", USED_BY_PYMQI_EXAMPLES)
def test_every_constant_pymqis_examples_name_is_there(qualified: str) -> None:
    module, name = qualified.split(".")
    assert isinstance(getattr(importlib.import_module(f"qsg.pymqi.{module}"), name), (int, bytes))


@keeps(
    "docs/constants.md",
    (
        "(what `from pymqi import CMQC`, `import pymqi.CMQC` and `import ibmmq` find under `qsg "
        "exec`, docs/pymqi.md)"
    ),
)
def test_the_modules_import_as_pymqi_programs_import_them() -> None:
    import qsg.pymqi.CMQC  # the spellings under test, inside the test

    by_from = importlib.import_module("qsg.pymqi").CMQC
    assert qsg.pymqi.CMQC is by_from is CMQC
    assert qsg.pymqi.CMQC.MQGMO_WAIT == 1


@keeps(
    "docs/pymqi.md",
    "`MQPL_NATIVE` is `MQPL_UNIX` (3, not 11), `MQAT_DEFAULT` is `MQAT_UNIX` (6, not 11)",
)
@keeps(
    "docs/constants.md",
    (
        "`MQPL_NATIVE` is `MQPL_UNIX` (3, not Windows's 11), `MQAT_DEFAULT` is `MQAT_UNIX` (6, not "
        "11), `MQ_MCA_USER_ID_LENGTH` is 12 (not 64)."
    ),
)
def test_platform_dependent_values_are_those_of_ibms_header_on_linux() -> None:
    # pymqi generated its CMQC on Windows (MQPL_NATIVE 11, MQAT_DEFAULT 11, a 64-byte
    # MCA user id); qsg's programs run on Linux, where IBM's cmqc.h says otherwise.
    assert CMQC.MQPL_NATIVE == CMQC.MQPL_UNIX == 3
    assert CMQC.MQAT_DEFAULT == CMQC.MQAT_UNIX == 6
    assert CMQC.MQ_MCA_USER_ID_LENGTH == 12


@keeps(
    "docs/pymqi.md",
    "lengths that depend on the pointer size (`MQOD_LENGTH_4`, `MQCD_LENGTH_12`, ...) keep "
    "IBM's 64-bit and 32-bit values",
)
@keeps("docs/constants.md", "lengths of structures that hold pointers are the 64-bit header's.")
def test_structure_lengths_follow_the_pointer_size_as_ibms_header_does() -> None:
    od4, cd12 = (424, 1992) if struct.calcsize("P") == 8 else (400, 1944)
    assert (od4, cd12) == (CMQC.MQOD_LENGTH_4, CMQXC.MQCD_LENGTH_12)
    assert CMQC.MQMD_LENGTH_2 == 364  # no pointers: one length everywhere


@keeps(
    "docs/constants.md",
    (
        "A name pymqi lacks (added in MQ 9.3 and 9.4: `MQOO_RESOLVE_NAMES`, `MQCD_VERSION_13`, the "
        "9.4 PCF selectors...) is added at the end of its module"
    ),
)
def test_names_of_mq_94_that_pymqi_lacks_are_added_from_ibms_own_package() -> None:
    assert CMQC.MQOO_RESOLVE_NAMES == 0x00010000
    assert CMQXC.MQCD_VERSION_13 == 13


# ---- MQMIError, as pymqi prints and compares it ---------------------------------


@keeps("docs/pymqi.md", "`MQI Error. Comp: 2, Reason 2033: FAILED: MQRC_NO_MSG_AVAILABLE`")
def test_an_mqmierror_prints_as_pymqi_prints_it() -> None:
    error = MQMIError(CMQC.MQCC_FAILED, CMQC.MQRC_NO_MSG_AVAILABLE)
    assert str(error) == "MQI Error. Comp: 2, Reason 2033: FAILED: MQRC_NO_MSG_AVAILABLE"
    assert (error.comp, error.reason) == (2, 2033)
    assert error.errorAsString() == error.error_as_string() == "FAILED: MQRC_NO_MSG_AVAILABLE"


def test_a_warning_an_ok_and_an_unknown_reason_are_worded_as_pymqi_words_them() -> None:
    assert MQMIError(1, 2079).errorAsString() == "WARNING: MQRC_TRUNCATED_MSG_ACCEPTED"
    assert MQMIError(0, 0).errorAsString() == "OK"
    assert MQMIError(2, 1999).errorAsString() == "FAILED: Error code 1999 not defined"


@keeps("docs/pymqi.md", "(2192 is `MQRC_PAGESET_FULL`)")
def test_a_reason_with_two_names_is_named_as_pymqis_table_names_it() -> None:
    # pymqi's table keeps the later of two names for one value (PAGESET_FULL, 2192).
    assert MQMIError(2, 2192).errorAsString() == "FAILED: MQRC_PAGESET_FULL"
    # A PCF reason comes from CMQCFC, as in pymqi.
    assert MQMIError(2, 3001).errorAsString() == "FAILED: MQRCCF_CFH_TYPE_ERROR"


def test_an_mqmierror_carries_the_keywords_it_is_given() -> None:
    error = MQMIError(2, CMQC.MQRC_TRUNCATED_MSG_FAILED, message=b"abc", original_length=10)
    assert (error.message, error.original_length) == (b"abc", 10)
    assert error.get("original_length") == 10


@keeps(
    "docs/pymqi.md",
    "so `except pymqi.MQMIError` and `except qsg.MQMIError` both catch what the facade raises",
)
def test_the_facades_error_is_caught_as_pymqis_and_as_qsgs() -> None:
    with pytest.raises(qsg.MQMIError):
        raise MQMIError(2, 2033)
    with pytest.raises(Error):
        raise MQMIError(2, 2033)


def test_an_error_of_the_async_api_becomes_the_facades_with_its_codes_and_details() -> None:
    core = qsg.MQMIError(CMQC.MQCC_WARNING, CMQC.MQRC_TRUNCATED_MSG_ACCEPTED, "short buffer")
    core.original_length, core.message = 100, b"part"
    converted = from_core(core)
    assert type(converted) is MQMIError
    assert (converted.comp, converted.reason) == (1, 2079)
    assert (converted.original_length, converted.message) == (100, b"part")
    assert from_core(converted) is converted


@keeps("docs/pymqi.md", "(`str()` is `PYMQI Error: not open`)")
def test_pyiferror_prints_as_pymqi_prints_it() -> None:
    error = PYIFError("not open")
    assert str(error) == "PYMQI Error: not open"
    assert error.error == "not open"
    assert isinstance(error, Error)
    assert not isinstance(error, MQMIError)
