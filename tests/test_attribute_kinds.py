"""The kinds of attribute value (qsg/core/attributes/kinds.py), one rule per test: how
MQSC writes each, how DISPLAY shows it, how PCF and MQINQ carry it, and the one-line
problem a bad value gets, as IBM's MQSC reference bounds it ("DEFINE queues", "DEFINE
CHANNEL", "DEFINE CFSTRUCT", "DEFINE PROCESS", "DEFINE NAMELIST"). These rules need no
queue manager: each kind is checked alone.
"""

from __future__ import annotations

import pytest

from qsg import CMQC
from qsg.core.attributes.kinds import Choice, Names, Number, Numbered, Size, Text, quoted

# MAXDEPTH's range ("DEFINE QLOCAL": 0 through 999 999 999) and EXPRYINT's OFF.
_COUNT = Number(0, 999_999_999)
_EXPRYINT = Number(1, 99_999_999, {"OFF": 0})
_PUT = Choice({"ENABLED": 0, "DISABLED": 1})
_RECOVER = Choice({"NO": 0, "YES": 1}, stored={"NO": False, "YES": True})
_APPLTYPE = Numbered({"CICS": CMQC.MQAT_CICS, "MVS": CMQC.MQAT_ZOS})


def test_a_problem_quotes_a_value_of_up_to_40_characters_whole_and_cuts_a_longer_one() -> None:
    # docs/mqsc.md: every MQSC reply quotes at most the first 40 characters of a value.
    assert quoted("A" * 40) == repr("A" * 40)
    assert quoted("A" * 41) == f"{'A' * 40!r}... (41 characters)"
    assert quoted("B" * 1234, 12) == f"{'B' * 12!r}... (1,234 characters)"


def test_a_number_takes_ibms_range_inclusive_and_names_the_range_it_missed() -> None:
    assert _COUNT.parse("0", False) == 0
    assert _COUNT.parse("999999999", False) == 999_999_999
    with pytest.raises(ValueError, match=r"^1000000000 is not in 0\.\.999999999$"):
        _COUNT.parse("1000000000", False)
    with pytest.raises(ValueError, match=r"^0 is not in 1\.\.99999999$"):
        _EXPRYINT.parse("0", False)


def test_a_number_that_is_no_whole_number_or_past_any_mqlong_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match=r"^'-1' is not a whole number$"):
        _COUNT.parse("-1", False)
    with pytest.raises(ValueError, match=r"^'1\.5' is not a whole number$"):
        _COUNT.parse("1.5", False)
    # 18 digits are still read (and are out of range); 19 are refused unread.
    with pytest.raises(ValueError, match=r"^100000000000000000 is not in 0\.\.999999999$"):
        _COUNT.parse("1" + "0" * 17, False)
    with pytest.raises(
        ValueError, match=r"^'111111111111'\.\.\. \(19 characters\) is not in 0\.\.999999999$"
    ):
        _COUNT.parse("1" * 19, False)


def test_a_special_word_stands_for_its_number_unquoted_only_and_is_shown_and_carried_back() -> None:
    # "ALTER QMGR": EXPRYINT(OFF) is 0; 'OFF' in quotes is a string, no number.
    assert _EXPRYINT.parse("OFF", False) == 0
    with pytest.raises(ValueError, match=r"^'OFF' is not a whole number$"):
        _EXPRYINT.parse("OFF", True)
    assert _EXPRYINT.shown(0) == "OFF"
    assert _EXPRYINT.shown(30) == 30
    assert _EXPRYINT.text(0) == "OFF"
    assert _EXPRYINT.text(30) == "30"
    assert _EXPRYINT.wire("30") == 30


def test_a_number_takes_no_pcf_value_but_an_integer() -> None:
    assert _COUNT.text("30") is None
    assert _COUNT.text(True) is None
    assert _COUNT.text(7) == "7"
    assert (_COUNT.length, _COUNT.words) == (0, None)


def test_a_choice_takes_ibms_words_unquoted_and_names_them_all_when_refusing() -> None:
    # "DEFINE QLOCAL": PUT(ENABLED | DISABLED).
    assert _PUT.parse("DISABLED", False) == 1
    with pytest.raises(ValueError, match=r"^'OFF' is not one of ENABLED, DISABLED$"):
        _PUT.parse("OFF", False)
    with pytest.raises(ValueError, match=r"^'DISABLED' is not one of ENABLED, DISABLED$"):
        _PUT.parse("DISABLED", True)
    assert _PUT.words == {"ENABLED": 0, "DISABLED": 1}
    assert (_PUT.length, _PUT.bare, _PUT.stored) == (0, False, None)


def test_a_choice_kept_in_another_form_reads_shows_and_carries_ibms_constant() -> None:
    # "DEFINE CFSTRUCT": RECOVER(NO | YES), MQCFR_NO 0 and MQCFR_YES 1 in PCF; the record
    # keeps a bool.
    assert _RECOVER.parse("YES", False) is True
    assert _RECOVER.shown(True) == "YES"
    assert _RECOVER.wire(False) == 0
    assert _RECOVER.wire(True) == 1
    assert _RECOVER.record(1) is True
    assert _RECOVER.text(1) == "YES"
    with pytest.raises(ValueError, match=r"^'maybe' is not a value of NO, YES$"):
        _RECOVER.word("maybe")


def test_a_choice_takes_from_pcf_and_mqset_only_one_of_its_constants() -> None:
    assert _PUT.text(1) == "DISABLED"
    assert _PUT.text(2) is None
    assert _PUT.text("1") is None
    assert _PUT.record(0) == 0
    with pytest.raises(ValueError, match=r"^7 is not one of ENABLED, DISABLED$"):
        _PUT.record(7)


def test_a_name_is_an_mq_object_name_blank_for_none_and_trailing_blanks_dropped() -> None:
    # "Rules for naming IBM MQ objects": A-Z a-z 0-9 . / _ %, at most 48 for a queue.
    initq = Text(48, "INITQ queue")
    assert initq.parse("APP.INITQ  ", True) == "APP.INITQ"
    assert initq.parse("   ", True) == ""
    with pytest.raises(ValueError, match=r"^INITQ queue name 'APP-Q' has characters MQ does"):
        initq.parse("APP-Q", False)
    with pytest.raises(ValueError, match=r"^a CF structure name has 1 to 12 characters: "):
        Text(12, "CF structure").parse("A" * 13, False)


def test_a_string_keeps_its_blanks_and_takes_at_most_its_length() -> None:
    # "DEFINE QLOCAL": DESCR, up to 64 characters, as written.
    descr = Text(64)
    assert descr.parse(" work ", True) == " work "
    assert descr.parse("x" * 64, True) == "x" * 64
    with pytest.raises(ValueError, match=r"^longer than 64 characters$"):
        descr.parse("x" * 65, True)
    assert descr.shown("a") == "a"
    assert descr.wire("a") == "a"
    assert descr.text("a") == "a"
    assert descr.text(1) is None
    assert (descr.length, descr.name, descr.words) == (64, "", None)


def test_an_offload_size_is_written_in_k_and_carried_in_k_by_pcf_too() -> None:
    # "DEFINE CFSTRUCT": OFFLD1SZ(32K), 0K..64K; PCF's CFOffloadThresholdSize1 is a
    # string, "32K".
    size = Size()
    assert size.parse("32K", False) == 32
    with pytest.raises(ValueError, match=r"^'32K' is not a size in K \(0K\.\.64K\), such as 32K$"):
        size.parse("32K", True)
    assert size.shown(4) == "4K"
    assert size.wire(64) == "64K"
    assert size.text("16K") == "16K"
    assert size.text(16) is None
    assert (size.length, size.words) == (8, None)


def test_a_numbered_value_takes_a_name_in_any_case_or_a_number_and_shows_the_name() -> None:
    # "DEFINE PROCESS": APPLTYPE(CICS | ... | integer), a user's number up to 999 999 999.
    assert _APPLTYPE.parse("cics", False) == CMQC.MQAT_CICS
    assert _APPLTYPE.parse("65536", False) == 65536
    assert _APPLTYPE.parse("999999999", False) == 999_999_999
    with pytest.raises(ValueError, match=r"^1000000000 is not in 0\.\.999999999$"):
        _APPLTYPE.parse("1000000000", False)
    assert _APPLTYPE.shown(CMQC.MQAT_ZOS) == "MVS"
    assert _APPLTYPE.shown(65536) == 65536
    assert _APPLTYPE.wire(CMQC.MQAT_CICS) == CMQC.MQAT_CICS
    assert _APPLTYPE.text(65536) == "65536"
    assert _APPLTYPE.text("CICS") is None
    assert (_APPLTYPE.low, _APPLTYPE.length, _APPLTYPE.words) == (0, 0, None)


def test_names_are_comma_separated_mq_names_up_to_256_of_48_characters() -> None:
    # "DEFINE NAMELIST": NAMES(name, ...), at most 256 names of up to 48 characters;
    # NAMES() is an empty list.
    names = Names()
    assert names.parse(" APP.A , APP.B,,", False) == ("APP.A", "APP.B")
    assert names.parse("", False) == ()
    assert names.parse(",".join(["Q"] * 256), False) == ("Q",) * 256
    with pytest.raises(ValueError, match=r"^257 names: at most 256$"):
        names.parse(",".join(["Q"] * 257), False)
    assert names.parse("N" * 48, False) == ("N" * 48,)
    with pytest.raises(ValueError, match=r"^a name name has 1 to 48 characters: "):
        names.parse("N" * 49, False)
    with pytest.raises(ValueError, match=r"^a name name has 1 to 8 characters: 'NINECHARS'$"):
        Names(length=8).parse("A,NINECHARS", False)
    assert names.shown(("A", "B")) == "A,B"
    assert names.wire(("A", "B")) == "A,B"
    assert names.text("A,B") == "A,B"
    assert names.text(1) is None
    assert (names.most, names.length, names.words) == (256, 48, None)
