"""The two Expiry fields of a message that carries an MQXQH ("Expiry (MQLONG)" note 9)."""

from __future__ import annotations

import pytest

from qsg import CMQC, MD, PMO, XQH, MQMIError, QMgr
from qsg.core import xmitq
from qsg.core.layouts import read_inner_expiry
from tests.claims import keeps
from tests.helpers import ALL, get, open_queue, put

# The contract suite: each test runs on the in-process store and on the coupling facility's.
pytestmark = pytest.mark.usefixtures("each_store")


XMIT = CMQC.MQFMT_XMIT_Q_HEADER


@pytest.fixture
def qm() -> QMgr:
    qm = QMgr("QM1")
    qm.define_queue("QM3", usage=CMQC.MQUS_TRANSMISSION)
    qm.define_queue("NORMAL")
    return qm


def wrapped(expiry: int, inner: int | None = None) -> bytes:
    return XQH(b"APP.IN", b"QM3", MD(Expiry=expiry if inner is None else inner)).pack() + b"data"


@keeps(
    "docs/mq-rules.md",
    (
        "A message carrying an MQXQH has two Expiry fields: a put to a remote queue sets both "
        "equal; a get from any queue decrements both; discard goes by the outer one, and an inner "
        "one that ran out reads zero; a direct put to a transmission queue needs "
        "MQFMT_XMIT_Q_HEADER and a valid, agreeing MQXQH (note 9)."
    ),
)
@keeps(
    "docs/objects.md",
    (
        "A put to a remote queue goes on its transmission queue inside an MQXQH whose two Expiry "
        "fields are equal"
    ),
)
def test_a_put_to_a_remote_queue_wraps_the_data_with_both_expiry_fields_equal() -> None:
    # "the queue manager places the message initially on a local transmission queue, and
    # prefixes the application message data with an MQXQH structure. The queue manager
    # sets the values of the two Expiry fields to be the same as that specified".
    outer, data = xmitq.wrap(MD(Expiry=600), b"payload", "APP.IN", "QM3")
    assert outer.Format == XMIT and outer.Expiry == 600
    assert read_inner_expiry(data, outer.Encoding) == 600 and data[428:] == b"payload"


@keeps(
    "docs/mq-rules.md",
    (
        "A message carrying an MQXQH has two Expiry fields: a put to a remote queue sets both "
        "equal; a get from any queue decrements both; discard goes by the outer one, and an inner "
        "one that ran out reads zero; a direct put to a transmission queue needs "
        "MQFMT_XMIT_Q_HEADER and a valid, agreeing MQXQH (note 9)."
    ),
)
def test_a_get_from_any_queue_decrements_both_expiry_fields(qm: QMgr) -> None:
    # "When a message with a Format name of MQFMT_XMIT_Q_HEADER is retrieved from a queue
    # (whether this is a normal or a transmission queue), the queue manager decrements
    # both these Expiry fields with the time spent waiting on the queue."
    for queue in ("QM3", "NORMAL"):
        outer, data = xmitq.wrap(MD(Expiry=600), b"payload", "APP.IN", "QM3")
        h = open_queue(qm, queue)
        h.put(data, outer, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0)
        body, md = get(h, 20.0)
        assert md.Expiry == 400 and read_inner_expiry(body, md.Encoding) == 400


def test_short_xqh_format_data_on_a_normal_queue_is_no_error(qm: QMgr) -> None:
    # "No error is raised if the message data is not long enough to include the Expiry
    # field in the MQXQH."
    h = open_queue(qm, "NORMAL")
    put(h, b"short", 0.0, Format=XMIT, Expiry=100)
    body, md = get(h, 1.0)
    assert body == b"short" and md.Expiry == 90


@keeps(
    "docs/mq-rules.md",
    (
        "A message carrying an MQXQH has two Expiry fields: a put to a remote queue sets both "
        "equal; a get from any queue decrements both; discard goes by the outer one, and an inner "
        "one that ran out reads zero; a direct put to a transmission queue needs "
        "MQFMT_XMIT_Q_HEADER and a valid, agreeing MQXQH (note 9)."
    ),
)
def test_discard_goes_by_the_outer_expiry_and_an_inner_one_that_ran_out_reads_zero(
    qm: QMgr,
) -> None:
    # "The queue manager uses the Expiry field in the separate message descriptor ... to
    # test whether the message is eligible for discarding." ... "If the initial values of
    # the two Expiry fields are different ... the Expiry field in the MQXQH is set to zero."
    h = open_queue(qm, "NORMAL")
    put(h, wrapped(600, inner=50), 0.0, Format=XMIT, Expiry=600)
    body, md = get(h, 10.0)
    assert md.Expiry == 500 and read_inner_expiry(body, md.Encoding) == 0
    put(h, wrapped(50, inner=600), 0.0, Format=XMIT, Expiry=50)
    with pytest.raises(MQMIError, match=r"MQRC_NO_MSG_AVAILABLE"):
        get(h, 10.0)  # the outer ran out: discarded although the inner had time left


@keeps(
    "docs/reason-codes.md",
    "MQRC_XQH_ERROR | a direct put to a transmission queue without a valid MQXQH",
)
def test_a_direct_put_to_a_transmission_queue_needs_the_xqh_format_and_an_mqxqh(
    qm: QMgr,
) -> None:
    # "If an application puts a message directly on a local transmission queue, the message
    # data must already begin with an MQXQH structure, and the format name must be
    # MQFMT_XMIT_Q_HEADER." (z/OS and distributed; IBM i does not enforce it.)
    h = qm.connect().open("QM3", ALL)
    with pytest.raises(MQMIError, match=r"MQRC_XQH_ERROR \(2260\).*MQFMT_XMIT_Q_HEADER"):
        put(h, wrapped(100), 0.0, Format=CMQC.MQFMT_STRING, Expiry=100)
    with pytest.raises(MQMIError, match=r"MQRC_XQH_ERROR \(2260\).*too short"):
        put(h, b"XQH " + b"\0" * 10, 0.0, Format=XMIT, Expiry=100)
    with pytest.raises(MQMIError, match=r"MQRC_XQH_ERROR \(2260\).*not a version-1 MQXQH"):
        put(h, b"NOPE" + wrapped(100)[4:], 0.0, Format=XMIT, Expiry=100)
    put(h, wrapped(100), 0.0, Format=XMIT, Expiry=100)
    assert qm.depth("QM3") == 1


@keeps(
    "docs/mq-rules.md",
    (
        "A message carrying an MQXQH has two Expiry fields: a put to a remote queue sets both "
        "equal; a get from any queue decrements both; discard goes by the outer one, and an inner "
        "one that ran out reads zero; a direct put to a transmission queue needs "
        "MQFMT_XMIT_Q_HEADER and a valid, agreeing MQXQH (note 9)."
    ),
)
def test_a_direct_put_to_a_transmission_queue_checks_the_inner_expiry_and_its_agreement(
    qm: QMgr,
) -> None:
    # "(The queue manager checks that the Expiry field within the MQXQH contains a valid
    # value ...)" and "if the expiry value in the message descriptor written to the
    # transmission queue is inconsistent with the value in the embedded message
    # descriptor, an expiry error rejection occurs."
    h = qm.connect().open("QM3", ALL)
    with pytest.raises(MQMIError, match=r"MQRC_EXPIRY_ERROR \(2013\).*MQXQH.MsgDesc.Expiry=0"):
        put(h, wrapped(100, inner=0), 0.0, Format=XMIT, Expiry=100)
    with pytest.raises(MQMIError, match=r"MQRC_EXPIRY_ERROR \(2013\).*disagrees"):
        put(h, wrapped(100, inner=90), 0.0, Format=XMIT, Expiry=100)
    assert qm.depth("QM3") == 0
