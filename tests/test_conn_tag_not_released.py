"""MQRC_CONN_TAG_NOT_RELEASED (2344): MQDISC cannot release a tag its syncpoint manager's
unit of work still holds (issue 48).

IBM ("MQDISC", reason code 2344): "in a CICS, IMS or RRS application with an active unit
of recovery associated with the tag, MQDISC cannot release it" (a warning). The tag
stays in use (MQRC_CONN_TAG_IN_USE, 2271, to another instance) until the syncpoint
manager commits or backs the unit out; a queue manager's own (batch) application's
MQDISC commits and frees the tag as before. Each test runs on both stores.
"""

from __future__ import annotations

import pytest

from qsg import CMQC
from qsg.core.conntag import ConnectOptions
from qsg.core.errors import MQMIError
from tests.helpers import ALL, get, put
from tests.test_conn_tags import SERIAL_QSG, TAG, group, refused

pytestmark = pytest.mark.usefixtures("each_store")


def _rrs(space: str = "JOB1") -> ConnectOptions:
    return ConnectOptions(options=SERIAL_QSG, tag=TAG, space=space, syncpoint_manager=True)


def test_mqdisc_with_the_syncpoint_managers_unit_active_warns_2344_and_keeps_the_tag() -> None:
    """MQDISC of an RRS application with a unit of recovery active under its tag: the
    warning 2344; the tag is still in use anywhere in the group (2271) and the unit's
    put is not committed, until the syncpoint manager commits it; then the tag is free
    and the message there."""
    qm1, qm2 = group()
    conn = qm1.connect(cno=_rrs())
    put(conn.open("Q", ALL), b"in the unit", 0.0, CMQC.MQPMO_SYNCPOINT)
    with pytest.raises(MQMIError) as caught:
        conn.disconnect()
    assert (caught.value.comp, caught.value.reason) == (
        CMQC.MQCC_WARNING,
        CMQC.MQRC_CONN_TAG_NOT_RELEASED,
    )
    with refused(CMQC.MQRC_CONN_TAG_IN_USE):
        qm2.connect(cno=_rrs("JOB2"))
    reader = qm2.connect().open("Q", ALL)
    with refused(CMQC.MQRC_NO_MSG_AVAILABLE):
        get(reader, 1.0)
    conn.resolve(commit=True)
    assert get(reader, 2.0)[0] == b"in the unit"
    qm2.connect(cno=_rrs("JOB2")).disconnect()


def test_a_unit_the_syncpoint_manager_backs_out_frees_the_tag_and_the_put_is_gone() -> None:
    qm1, qm2 = group()
    conn = qm1.connect(cno=_rrs())
    put(conn.open("Q", ALL), b"backed out", 0.0, CMQC.MQPMO_SYNCPOINT)
    with refused(CMQC.MQRC_CONN_TAG_NOT_RELEASED):
        conn.disconnect()
    conn.resolve(commit=False)
    qm2.connect(cno=_rrs("JOB2"))
    with refused(CMQC.MQRC_NO_MSG_AVAILABLE):
        get(qm2.connect().open("Q", ALL), 1.0)


def test_without_a_unit_active_or_a_syncpoint_manager_mqdisc_releases_the_tag_at_once() -> None:
    """No warning where IBM gives none: an RRS application with no unit of recovery
    active, and a batch application (whose MQDISC commits), both free the tag."""
    qm1, qm2 = group()
    qm1.connect(cno=_rrs()).disconnect()
    qm2.connect(cno=_rrs("JOB2")).disconnect()
    batch = qm1.connect(cno=ConnectOptions(options=SERIAL_QSG, tag=TAG, space="JOB3"))
    put(batch.open("Q", ALL), b"committed by MQDISC", 0.0, CMQC.MQPMO_SYNCPOINT)
    batch.disconnect()
    qm2.connect(cno=_rrs("JOB2"))
    assert get(qm2.connect().open("Q", ALL), 1.0)[0] == b"committed by MQDISC"


def test_a_queue_manager_failing_under_an_unresolved_unit_backs_it_out() -> None:
    """The queue manager ends with the unit still unresolved: it is backed out (peer
    recovery then frees the tag, as for any unit of its failed life)."""
    qm1, qm2 = group()
    conn = qm1.connect(cno=_rrs())
    put(conn.open("Q", ALL), b"lost with the unit", 0.0, CMQC.MQPMO_SYNCPOINT)
    with refused(CMQC.MQRC_CONN_TAG_NOT_RELEASED):
        conn.disconnect()
    conn.sever()
    assert not conn.unresolved
    with refused(CMQC.MQRC_NO_MSG_AVAILABLE):
        get(qm2.connect().open("Q", ALL), 1.0)
