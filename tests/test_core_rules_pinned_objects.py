"""Rules-level tests of the definitions' own checks (qsg/core/queue.py, objects.py and
structs.py's field check): IBM's ranges at both ends, the names, and the exact error text,
synchronous and fast, so that `./dev mutate` (tests in `[tool.mutmut]`'s selection) can tell
every mutant of these checks apart (issue 45). Each names the MQ rule it pins.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from qsg import CMQC, GMO
from qsg.core.objects import ChannelDefinition, NamelistDefinition, StorageClass
from qsg.core.queue import QueueDefinition, check_name


def _raises(message: str) -> pytest.RaisesExc[ValueError]:
    return pytest.raises(ValueError, match=f"^{re.escape(message)}$")


def _queue(**kw: Any) -> QueueDefinition:
    return QueueDefinition("Q", **kw)


# ---- queue.check_name: the quoted name and the characters listed ------------------------
def test_an_object_name_error_quotes_a_name_of_40_characters_whole_and_cuts_a_longer_one() -> None:
    # docs/mqsc.md: every MQSC reply quotes at most the first 40 characters of a value.
    forty = "A" * 39 + "!"
    with _raises(f"queue name {forty!r} has characters MQ does not allow: ['!']"):
        check_name(forty, "queue")
    forty_one = "A" * 40 + "!"
    with _raises(
        f"queue name {'A' * 40!r}... (41 characters) has characters MQ does not allow: ['!']"
    ):
        check_name(forty_one, "queue")


def test_an_object_name_error_lists_at_most_ten_of_the_characters_mq_does_not_allow() -> None:
    # "Rules for naming IBM MQ objects": A-Z a-z 0-9 . / _ % only.
    bad = "!#$&()*+,-:"  # eleven characters outside the set
    with _raises(f"queue name {'Q' + bad!r} has characters MQ does not allow: {sorted(bad)[:10]}"):
        check_name("Q" + bad, "queue")


# ---- QueueDefinition: DEFINE QLOCAL's ranges ------------------------------------------
@pytest.mark.parametrize(
    ("field", "keyword", "high"),
    [
        ("backout_threshold", "BOTHRESH", 999_999_999),
        ("retention_interval", "RETINTVL", 999_999_999),
        ("q_service_interval", "QSVCINT", 999_999_999),
    ],
)
def test_a_queue_takes_bothresh_retintvl_and_qsvcint_from_0_to_999999999(
    field: str, keyword: str, high: int
) -> None:
    # "DEFINE QLOCAL": BOTHRESH, RETINTVL and QSVCINT are each "in the range zero
    # through 999 999 999".
    assert getattr(_queue(**{field: 0}), field) == 0
    assert getattr(_queue(**{field: high}), field) == high
    for wrong in (-1, high + 1):
        with _raises(f"queue Q: {keyword} must be 0..999999999"):
            _queue(**{field: wrong})


@pytest.mark.parametrize(
    ("field", "keyword"),
    [("q_depth_high_limit", "QDEPTHHI"), ("q_depth_low_limit", "QDEPTHLO")],
)
def test_a_queue_takes_qdepthhi_and_qdepthlo_from_0_to_100_percent(
    field: str, keyword: str
) -> None:
    # "DEFINE QLOCAL": QDEPTHHI and QDEPTHLO are percentages of MAXDEPTH, 0 through 100.
    assert getattr(_queue(**{field: 0}), field) == 0
    assert getattr(_queue(**{field: 100}), field) == 100
    for wrong in (-1, 101):
        with _raises(f"queue Q: {keyword} must be 0..100, not {wrong}"):
            _queue(**{field: wrong})


def test_a_queue_names_its_boqname_in_the_error_of_a_bad_backout_queue_name() -> None:
    # "DEFINE QLOCAL": BOQNAME is a queue name, under the rules of naming MQ objects.
    with _raises("BOQNAME queue name 'BO!' has characters MQ does not allow: ['!']"):
        QueueDefinition("Q", backout_requeue_name="BO!")
    assert QueueDefinition("Q", backout_requeue_name="BO.Q").backout_requeue_name == "BO.Q"


def test_a_queue_takes_only_hardenbo_or_nohardenbo() -> None:
    # "DEFINE QLOCAL": HARDENBO or NOHARDENBO.
    with _raises("queue Q: HARDENBO or NOHARDENBO, not 7"):
        QueueDefinition("Q", harden_get_backout=7)


# ---- ChannelDefinition, NamelistDefinition, StorageClass -------------------------------
def test_a_channel_takes_hbint_from_0_to_999999_seconds() -> None:
    # "DEFINE CHANNEL": HBINT "in the range 0 through 999 999".
    for good in (0, 999_999):
        chl = ChannelDefinition("C", CMQC.MQCHT_RECEIVER, heartbeat_interval=good)
        assert chl.heartbeat_interval == good
    for wrong in (-1, 1_000_000):
        with _raises("channel C: HBINT must be 0..999999"):
            ChannelDefinition("C", CMQC.MQCHT_RECEIVER, heartbeat_interval=wrong)


def test_a_namelist_holds_at_most_256_names_and_says_namelist_of_a_bad_name() -> None:
    # "DEFINE NAMELIST": NAMES, "a list of up to 256 names"; the namelist's own name
    # follows the rules of naming MQ objects.
    names = tuple(f"Q{i}" for i in range(256))
    assert NamelistDefinition("NL", names=names).name_count == 256
    with _raises("namelist NL: NAMES holds at most 256 names"):
        NamelistDefinition("NL", names=(*names, "Q256"))
    with _raises("namelist name 'N!' has characters MQ does not allow: ['!']"):
        NamelistDefinition("N!")


_STGCLASS_NAME = "a storage class name has 1 to 8 characters, A-Z then A-Z or 0-9: {!r}"


@pytest.mark.parametrize("name", ["A", "A1", "ABCDEFGH", "S0000001"])
def test_a_storage_class_name_of_1_to_8_characters_a_to_z_then_a_to_z_or_0_to_9_is_taken(
    name: str,
) -> None:
    # "DEFINE STGCLASS": "one through eight characters", the first alphabetic (A-Z),
    # the rest A-Z or 0-9.
    assert StorageClass(name).name == name


@pytest.mark.parametrize("name", ["", "ABCDEFGHI", "1ABC", "A-B", "abc", "Abc", "a1"])
def test_a_storage_class_name_outside_ibms_rule_is_refused_quoted(name: str) -> None:
    # "DEFINE STGCLASS": the same rule, refused with the name quoted.
    with _raises(_STGCLASS_NAME.format(name)):
        StorageClass(name)


def test_a_storage_class_takes_psid_from_0_to_99() -> None:
    # "DEFINE STGCLASS": PSID "in the range 00 through 99".
    assert StorageClass("S", page_set_id=0).page_set_id == 0
    assert StorageClass("S", page_set_id=99).page_set_id == 99
    for wrong in (-1, 100):
        with _raises("storage class S: PSID must be 0..99"):
            StorageClass("S", page_set_id=wrong)


@pytest.mark.parametrize(
    ("kept", "taken"),
    [
        ((), True),
        ((("XCFGNAME", "GROUP1"), ("XCFMNAME", "MEMBER1")), True),
        ((("XCFGNAME", " "), ("XCFMNAME", "")), True),
        ((("XCFGNAME", "GROUP1"),), False),
        ((("XCFMNAME", "MEMBER1"),), False),
        ((("XCFGNAME", "GROUP1"), ("XCFMNAME", " ")), False),
    ],
)
def test_a_storage_class_has_xcfgname_and_xcfmname_both_blank_or_both_set(
    kept: tuple[tuple[str, str], ...], taken: bool
) -> None:
    # "DEFINE STGCLASS": "The resultant values of XCFGNAME and XCFMNAME must either both
    # be blank or both be nonblank."
    if taken:
        assert StorageClass("S", kept=kept).kept == kept
    else:
        with _raises("storage class S: XCFGNAME and XCFMNAME are both blank or both set"):
            StorageClass("S", kept=kept)


# ---- structs._check: an MQCHAR field -------------------------------------------------
def test_an_mqchar_field_takes_a_code_from_minus_128_to_255() -> None:
    # "MQGMO - Get-message options": GroupStatus is an MQCHAR; pymqi holds it as a signed
    # char or the byte's unsigned code.
    for good in (-128, 0, ord("G"), 255):
        assert GMO(GroupStatus=good).GroupStatus == good
    for wrong in (-129, 256):
        with _raises(f"GMO.GroupStatus={wrong} is not a character's code"):
            GMO(GroupStatus=wrong)


@pytest.mark.parametrize("value", [True, "G", b"G", 1.0])
def test_an_mqchar_field_refuses_anything_but_an_int_code(value: object) -> None:
    # "MQGMO - Get-message options": an MQCHAR is one character, given as its code.
    message = (
        "GMO.GroupStatus is one MQCHAR, held as its character's code: give an int "
        f"(e.g. CMQC.MQSEG_ALLOWED, ord('A')), not {value!r}"
    )
    with pytest.raises(TypeError, match=f"^{re.escape(message)}$"):
        GMO(GroupStatus=value)
