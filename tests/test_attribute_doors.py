"""The attribute table's functions (qsg/core/attributes/__init__.py), each door's rule
alone: the keywords DEFINE takes, a channel type's keywords, a record's value and IBM's
default, the dates a change sets, MQINQ's answers and padding, the selectors MQINQ and
MQSET take, and the values MQSET turns into a record's (IBM: "MQINQ - Inquire object
attributes", "MQSET - Set object attributes", "DEFINE CHANNEL", "DEFINE queues").
"""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

from qsg import CMQC
from qsg.core import attributes as table
from qsg.core.attributes.attribute import row
from qsg.core.attributes.kinds import Number
from qsg.core.objects import ChannelDefinition, NamelistDefinition
from qsg.core.queue import QueueDefinition


def _row(object_type: str, keyword: str) -> table.Attribute:
    (found,) = [a for a in table.TABLE[object_type] if a.keyword == keyword]
    return found


def test_define_takes_a_keyword_its_synonyms_and_bare_words_but_no_shown_only_row() -> None:
    # "DEFINE QALIAS": TARGET, or TARGQ; "DEFINE QLOCAL": SHARE / NOSHARE written alone.
    alias = table.keywords("QALIAS")
    assert alias["TARGQ"] is alias["TARGET"]
    local = table.keywords("QLOCAL")
    assert local["NOSHARE"] is local["SHARE"] is _row("QLOCAL", "SHARE")
    assert local["HARDENBO"] is local["NOHARDENBO"]
    assert "CURDEPTH" not in local and "CRDATE" not in local and "TYPE" not in local
    assert "TARGET" not in local
    assert "PUT" in local and "DISABLED" not in local and "FIFO" not in local


def test_a_channels_keywords_are_its_chltypes_and_a_record_of_another_type_is_none() -> None:
    # "DEFINE CHANNEL": BATCHSZ for message channels, SHARECNV for client channels.
    sender = ChannelDefinition("TO.QM2", CMQC.MQCHT_SENDER, "qm2(1414)", "QM2")
    svrconn = ChannelDefinition("APP.SVRCONN", CMQC.MQCHT_SVRCONN)
    assert table.channel_type(sender) == "SDR"
    assert table.channel_type(QueueDefinition("Q")) == ""
    assert table.applies(_row("CHANNEL", "BATCHSZ"), sender)
    assert not table.applies(_row("CHANNEL", "BATCHSZ"), svrconn)
    assert table.applies(_row("CHANNEL", "DESCR"), svrconn)
    assert table.not_for("SVRCONN", ["BATCHSZ", "DESCR", "SHARECNV", "NOSUCH"]) == ["BATCHSZ"]
    assert table.not_for("SDR", ["BATCHSZ", "XMITQ"]) == []


def test_a_value_never_set_reads_as_ibms_default_for_the_record_and_its_channel_type() -> None:
    # "DEFINE CHANNEL": DISCINT(6000) for a sender, DISCINT(0) for a SVRCONN.
    discint = _row("CHANNEL", "DISCINT")
    sender = ChannelDefinition("TO.QM2", CMQC.MQCHT_SENDER, "qm2(1414)", "QM2")
    svrconn = ChannelDefinition("APP.SVRCONN", CMQC.MQCHT_SVRCONN)
    assert table.read(sender, discint) == 6000
    assert table.read(svrconn, discint) == 0
    assert table.read(QueueDefinition("Q"), _row("QLOCAL", "MAXDEPTH")) == 5000
    acctq = _row("QLOCAL", "ACCTQ")
    assert table.read(QueueDefinition("Q", kept=(("ACCTQ", CMQC.MQMON_ON),)), acctq) == 1
    assert table.read(QueueDefinition("Q"), acctq) == CMQC.MQMON_Q_MGR
    # A record that keeps no values (no ``kept``) reads IBM's default for every such row.
    assert table.read(SimpleNamespace(), acctq) == CMQC.MQMON_Q_MGR


def test_changed_sets_a_field_or_a_kept_value_and_leaves_the_record_it_was_given() -> None:
    q = QueueDefinition("Q")
    deeper = table.changed(q, _row("QLOCAL", "MAXDEPTH"), 10)
    assert (deeper.max_depth, q.max_depth) == (10, 5000)
    acct = table.changed(q, _row("QLOCAL", "ACCTQ"), CMQC.MQMON_OFF)
    assert acct.kept == (("ACCTQ", CMQC.MQMON_OFF),) and q.kept == ()
    assert table.kept((("B", 1), ("A", 2)), {"B": 3, "C": 4}) == (("A", 2), ("B", 3), ("C", 4))


def test_define_sets_all_four_dates_and_alter_only_the_alteration_pair() -> None:
    # "DISPLAY QUEUE": CRDATE and ALTDATE as yyyy-mm-dd, CRTIME and ALTTIME as hh.mm.ss.
    epoch = datetime(2026, 11, 28, 23, 59, 0, tzinfo=UTC)
    assert table.stamps(epoch, 61.0, created=True) == {
        "ALTDATE": "2026-11-29",
        "ALTTIME": "00.00.01",
        "CRDATE": "2026-11-29",
        "CRTIME": "00.00.01",
    }
    assert table.stamps(epoch, 1.0, created=False) == {
        "ALTDATE": "2026-11-28",
        "ALTTIME": "23.59.01",
    }


def test_mqinq_pads_a_string_to_mqs_length_cuts_a_longer_one_and_pads_each_name() -> None:
    # MQINQ returns MQCHAR fields blank-padded; a namelist's names one after another.
    assert table.padded(_row("QLOCAL", "DESCR"), "app") == b"app".ljust(64)
    assert table.padded(_row("QLOCAL", "DESCR"), "x" * 70) == b"x" * 64
    assert table.padded(_row("QLOCAL", "MAXDEPTH"), 10) == 10
    names = table.padded(_row("NAMELIST", "NAMES"), ("A.Q", "B.Q"))
    assert names == b"A.Q".ljust(48) + b"B.Q".ljust(48)


def test_mqinq_answers_every_row_it_may_read_and_a_status_only_when_the_caller_knows_it() -> None:
    q = QueueDefinition("APP.Q", max_depth=7)
    answers = table.inquired(q, "QLOCAL", {"CURDEPTH": 3})
    assert answers[CMQC.MQIA_MAX_Q_DEPTH] == 7
    assert answers[CMQC.MQIA_CURRENT_Q_DEPTH] == 3
    assert answers[CMQC.MQCA_Q_NAME] == b"APP.Q".ljust(48)
    assert CMQC.MQIA_OPEN_INPUT_COUNT not in answers  # IPPROCS: no status given
    assert answers[CMQC.MQCA_CREATION_DATE] == b"".ljust(12)  # rows after it still read
    # "MQINQ": the performance event attributes are not inquirable on z/OS.
    assert CMQC.MQIA_Q_DEPTH_HIGH_EVENT not in answers


def test_mqset_selectors_are_the_few_ibm_lets_mqset_change_mqinq_takes_more() -> None:
    # "MQSET": InhibitGet, InhibitPut, the trigger attributes (and on z/OS no others).
    settable = table.selectors(["QLOCAL"], settable=True)
    assert CMQC.MQIA_INHIBIT_PUT in settable and CMQC.MQCA_TRIGGER_DATA in settable
    assert CMQC.MQIA_MAX_Q_DEPTH not in settable
    assert settable[CMQC.MQIA_INHIBIT_PUT] is _row("QLOCAL", "PUT")
    inquirable = table.selectors(["QLOCAL"])
    assert CMQC.MQIA_MAX_Q_DEPTH in inquirable and CMQC.MQIA_Q_DEPTH_HIGH_EVENT not in inquirable
    assert CMQC.MQCA_BASE_Q_NAME not in inquirable
    assert CMQC.MQCA_BASE_Q_NAME in table.selectors(["QLOCAL", "QALIAS"])
    assert table.queue_type(CMQC.MQQT_ALIAS) == "QALIAS"


def test_mqset_takes_a_value_of_the_attributes_kind_and_refuses_another() -> None:
    # MQSET's MQRC_CHAR_ATTR_LENGTH_ERROR (a string too long), MQRC_TRIGGER_TYPE_ERROR (a
    # value of no constant): the caller answers a.set_error for each ValueError.
    trigdata = _row("QLOCAL", "TRIGDATA")
    assert table.mqset_value(trigdata, b"go  \x00") == "go"
    assert table.mqset_value(trigdata, b"x" * 64) == "x" * 64
    with pytest.raises(ValueError, match=r"^TRIGDATA: at most 64 bytes$"):
        table.mqset_value(trigdata, b"x" * 65)
    with pytest.raises(ValueError, match=r"^TRIGDATA: at most 64 bytes$"):
        table.mqset_value(trigdata, 1)
    trigtype = _row("QLOCAL", "TRIGTYPE")
    assert table.mqset_value(trigtype, CMQC.MQTT_EVERY) == CMQC.MQTT_EVERY
    with pytest.raises(ValueError, match=r"^TRIGTYPE: an integer attribute$"):
        table.mqset_value(trigtype, b"EVERY")
    with pytest.raises(ValueError, match=r"^TRIGTYPE: an integer attribute$"):
        table.mqset_value(trigtype, True)
    with pytest.raises(ValueError, match=r"^9 is not one of NONE, FIRST, EVERY, DEPTH$"):
        table.mqset_value(trigtype, 9)
    trigdpth = _row("QLOCAL", "TRIGDPTH")
    assert table.mqset_value(trigdpth, 5) == 5
    with pytest.raises(ValueError, match=r"^0 is not in 1\.\.999999999$"):
        table.mqset_value(trigdpth, 0)
    # A special word comes back through MQSC's reading unquoted: EXPRYINT's 0 is OFF.
    assert table.mqset_value(_row("QMGR", "EXPRYINT"), 0) == 0
    # A kind with no integer form (OFFLD1SZ is "32K" in PCF too) takes no MQSET integer.
    with pytest.raises(ValueError, match=r"^OFFLD1SZ: 32$"):
        table.mqset_value(_row("CFSTRUCT", "OFFLD1SZ"), 32)


def test_a_namelists_names_are_read_from_its_record() -> None:
    nl = NamelistDefinition("APP.NL", names=("A", "B"))
    assert table.read(nl, _row("NAMELIST", "NAMES")) == ("A", "B")
    assert table.read(nl, _row("NAMELIST", "NAMCOUNT")) == 2


def test_a_row_knows_where_it_is_shown_whether_given_set_or_bare_and_each_types_default() -> None:
    # "DEFINE QMODEL": DEFTYPE, shown on a local queue too; CURDEPTH is status, not given.
    discint = _row("CHANNEL", "DISCINT")
    assert (discint.default_for("SVRCONN"), discint.default_for("SDR")) == (0, 6000)
    assert discint.default_for("") == 6000
    assert _row("QMODEL", "DEFTYPE").displayed_on == {"QMODEL", "QLOCAL"}
    assert (_row("QLOCAL", "MAXDEPTH").given, _row("QLOCAL", "CURDEPTH").given) == (True, False)
    assert (_row("QLOCAL", "PUT").settable, _row("QLOCAL", "MAXDEPTH").settable) == (True, False)
    assert (_row("QLOCAL", "SHARE").bare, _row("QLOCAL", "PUT").bare) == (True, False)
    made = row("X", Number(0, 1), frozenset({"QLOCAL"}), 1, field="x", effect="e")
    assert (made.keyword, made.default, made.field, made.effect) == ("X", 1, "x", "e")
    assert made.objects == {"QLOCAL"} and made.kind == Number(0, 1)


def test_alter_qmgrs_kept_rows_are_given_and_inquired_and_its_fixed_rows_only_shown() -> None:
    # "Attributes for the queue manager": MQINQ reads each; "ALTER QMGR" sets the kept
    # ones, no command the fixed ones (CMDLEVEL). The rows are built at import, so the
    # helpers are checked here directly (mutation testing cannot see an import's calls).
    from qsg.core.attributes.qmgr import _fixed, _kept

    qm = frozenset({"QMGR"})
    assert _kept("X", Number(0, 1), 1, 7, "why") == row(
        "X", Number(0, 1), qm, 1, parameter=7, inquire=True, why="why"
    )
    assert _fixed("Y", Number(0, 1), 0, 8, "shown") == row(
        "Y", Number(0, 1), qm, 0, role="fixed", parameter=8, inquire=True, effect="shown"
    )
