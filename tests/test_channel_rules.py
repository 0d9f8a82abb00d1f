"""The channel rules of the rules layer (``qsg.core.channels``): no event loop, no I/O.

Sequence numbers from "Channel message sequence numbering" and "Sequence number wrap
(SEQWRAP)"; the receiving MCA's reading of a completion code from MQPUT's "Priority";
QMGRMAP records from "Blocking access from a remote queue manager".
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qsg import CMQC, MQMIError
from qsg.core.channels import (
    DEFAULT_SEQWRAP,
    Mismatch,
    QMgrMap,
    Start,
    UserSource,
    at_start,
    blocking,
    check_batch,
    following,
    negotiated_batch_size,
    put_completed,
)
from tests.claims import keeps


@keeps(
    "docs/channels.md",
    "numbers each message it takes off the transmission queue, one more than the last, from 1 "
    "up to SEQWRAP",
)
def test_sequence_numbers_count_up_by_one_and_wrap_to_1_after_seqwrap() -> None:
    # "When this value is reached, sequence numbers wrap to start again at 1."
    assert following(0) == 1
    assert following(41, 10) == 51
    assert following(DEFAULT_SEQWRAP) == 1
    assert following(DEFAULT_SEQWRAP - 1, 3) == 2
    assert following(2, -3, wrap=100) == 99
    assert following(99, 2, wrap=100) == 1


@given(
    number=st.integers(1, DEFAULT_SEQWRAP),
    count=st.integers(0, 9999),
    wrap=st.sampled_from([100, 1000, DEFAULT_SEQWRAP]),
)
def test_counting_back_undoes_counting_on_within_the_wrap(
    number: int, count: int, wrap: int
) -> None:
    number = following(number, 0, wrap)
    assert following(following(number, count, wrap), -count, wrap) == number
    assert 1 <= following(number, count, wrap) <= wrap


@keeps(
    "docs/channels.md",
    "**at every batch**: its first message must be numbered one more than the receiver's last.",
)
def test_a_batch_is_in_sequence_only_when_its_first_message_is_the_next() -> None:
    assert check_batch(41, 42) is None
    assert check_batch(DEFAULT_SEQWRAP, 1) is None
    assert check_batch(41, 41) == Mismatch(41, 42)  # a replay
    assert check_batch(41, 2**62) == Mismatch(2**62, 42)  # a skip
    assert check_batch(0, 0) == Mismatch(0, 1)


@pytest.mark.parametrize(
    ("committed", "sent", "in_doubt", "start"),
    [
        (0, 0, 0, Start.IN_SYNC),  # a new channel
        (50, 50, 0, Start.IN_SYNC),
        (50, 50, 10, Start.COMMIT),  # the receiver committed the batch in doubt
        (40, 50, 10, Start.BACK_OUT),  # it did not
        (DEFAULT_SEQWRAP - 2, 5, 7, Start.BACK_OUT),  # a batch in doubt across the wrap
        (45, 50, 10, Mismatch(41, 46)),  # the receiver is in the middle of the batch
        (0, 50, 0, Mismatch(51, 1)),  # the receiver lost its synchronisation data
        (60, 50, 0, Mismatch(51, 61)),
        # A new channel's first batch backed out: the sender counted back from 1 to the
        # wrap, the receiver is still at 0 (nothing yet); the same number.
        (0, DEFAULT_SEQWRAP, 0, Start.IN_SYNC),
        (DEFAULT_SEQWRAP, 0, 0, Start.IN_SYNC),
    ],
)
@keeps(
    "docs/channels.md",
    "The receiver's number must be the sender's (all committed: a batch in doubt is then "
    "committed) or the number before the batch in doubt (not committed: the sender backs it "
    "out and sends it again)",
)
@keeps(
    "docs/mq-rules.md",
    (
        "Channel sequence numbers count messages and wrap after SEQWRAP; at the start both ends "
        "agree, or a batch in doubt is settled; a batch that is not the next ends the channel with "
        "AMQ9526E, nothing put or lost."
    ),
)
def test_the_start_settles_a_batch_in_doubt_or_finds_the_numbers_disagree(
    committed: int, sent: int, in_doubt: int, start: Start | Mismatch
) -> None:
    # The sequence number and LUWID "are used during channel start-up to ensure that
    # both ends of the link agree on which messages have been transferred successfully".
    assert at_start(committed, sent, in_doubt) == start


@keeps(
    "docs/channels.md",
    "Anything else is a message sequence number error, and the receiving end writes a line "
    "modelled on AMQ9526E",
)
def test_the_amq9526e_line_says_what_was_sent_and_what_was_expected() -> None:
    line = Mismatch(2**62, 2).line("QM1.TO.QM3", "127.0.0.1(4000)")
    assert line.startswith("AMQ9526E: Message sequence number error for channel 'QM1.TO.QM3': ")
    assert f"sequence number {2**62} has been sent when sequence number 2 was expected" in line


@keeps("docs/channels.md", "The two ends agree the lower of their BATCHSZ")
def test_the_batch_size_agreed_is_the_lower_of_the_two() -> None:
    assert negotiated_batch_size(50, 10) == negotiated_batch_size(10, 50) == 10


@keeps("docs/channels.md", "a put that completes with **MQCC_WARNING** stored its message")
def test_a_put_that_completes_with_a_warning_stored_its_message_and_a_failed_one_did_not() -> None:
    warning = MQMIError(CMQC.MQCC_WARNING, CMQC.MQRC_PRIORITY_EXCEEDS_MAXIMUM)
    assert put_completed(warning)
    assert not put_completed(MQMIError.failed(CMQC.MQRC_UNKNOWN_OBJECT_NAME))


# ---- QMGRMAP --------------------------------------------------------------------------
BACKSTOP = QMgrMap("*", "*", UserSource.NOACCESS)


@keeps("docs/channels.md", "A channel no record matches is let in, as in MQ.")
def test_with_no_record_that_matches_every_partner_is_let_in() -> None:
    assert blocking([], "QM1.TO.QM3", "QM9") is None
    assert blocking([QMgrMap("OTHER.*", "*", UserSource.NOACCESS)], "QM1.TO.QM3", "QM9") is None


@keeps(
    "docs/channels.md",
    "Of the records that match, the one with the most specific channel profile decides, then "
    "the most specific QMNAME (the later its first `*`, the more specific)",
)
@keeps(
    "docs/mq-rules.md",
    (
        "A QMGRMAP record with USERSRC(NOACCESS) blocks a partner queue manager (AMQ9777E); the "
        "most specific record decides."
    ),
)
def test_the_most_specific_channel_profile_decides_then_the_most_specific_qmname() -> None:
    records = [
        BACKSTOP,
        QMgrMap("QM1.TO.*", "QM1", UserSource.CHANNEL),
        QMgrMap("QM1.TO.QM3", "QM*", UserSource.MAP),
        QMgrMap("QM1.TO.QM3", "QM9", UserSource.NOACCESS),
    ]
    assert blocking(records, "QM1.TO.QM3", "QM1") is None  # QM* on the exact profile
    assert blocking(records, "QM1.TO.QM3", "QM9") == records[3]  # QM9 beats QM*
    assert blocking(records, "QM1.TO.QM3", "ZZ") == BACKSTOP  # no QMNAME on the exact one
    assert blocking(records, "QM1.TO.QM4", "QM1") is None
    assert blocking(records, "QM2.TO.QM3", "QM2") == BACKSTOP


@keeps("docs/channels.md", "Both names may hold `*` anywhere.")
def test_an_asterisk_matches_any_characters_anywhere_and_nothing_else_is_special() -> None:
    record = QMgrMap("A*.TO.*B", "Q%M*", UserSource.NOACCESS)
    assert blocking([record], "A1.TO.XB", "Q%M1") == record
    assert blocking([record], "A1.TO.XB", "QXM1") is None
    assert blocking([QMgrMap("A.B", "*", UserSource.NOACCESS)], "AXB", "Q") is None


@pytest.mark.parametrize(
    ("profile", "qmname"),
    [("", "*"), ("X" * 21, "*"), ("A B", "*"), ("C", "Q" * 49), ("C", "Q'1")],
)
def test_a_qmgrmap_record_with_a_name_mq_refuses_is_a_clear_error(
    profile: str, qmname: str
) -> None:
    with pytest.raises(ValueError, match=r"^(CHLAUTH|QMNAME)\("):
        QMgrMap(profile, qmname)
