"""Promises of docs/rules.md and docs/objects.md about the rules layer that no other test
held (issue 42, "Every claim kept"): what a put returns, what a queue-manager start does
to the connections of before, and a queue manager without object authority."""

from __future__ import annotations

import pytest

from qsg import CMQC, MD, OD, PMO, MQMIError, QMgr
from qsg.core.outcome import Done
from tests.claims import keeps
from tests.helpers import ALL, get, put


@keeps(
    "docs/rules.md",
    "A handle's `put` returns what the queue manager decided (`Done`: in the unit of work "
    "or not, persistent or not)",
)
def test_a_put_returns_whether_it_was_in_the_unit_of_work_and_persistent() -> None:
    # MQPER_PERSISTENCE_AS_Q_DEF is resolved from DEFPSIST, and a put with neither
    # syncpoint option is in the unit of work on z/OS: the Done says so, not the options.
    qm = QMgr("QM1")
    qm.define_queue("Q", def_persistence=CMQC.MQPER_PERSISTENT)
    h = qm.connect().open("Q", ALL)
    as_q_def = MD(Persistence=CMQC.MQPER_PERSISTENCE_AS_Q_DEF)
    assert h.put(b"a", as_q_def, PMO(), now=0.0) == Done(True, True)
    plain = MD(Persistence=CMQC.MQPER_NOT_PERSISTENT)
    assert h.put(b"b", plain, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0) == Done(False, False)


@keeps(
    "docs/objects.md",
    "`QMgr.restart()` is a queue-manager start: earlier connections are gone without close "
    "processing, their units of work backed out, temporary dynamic queues deleted.",
)
def test_a_restart_backs_out_the_units_of_work_of_the_connections_of_before() -> None:
    qm = QMgr("QM1")
    # HARDENBO: the backout count survives the restart (with NOHARDENBO, z/OS's default,
    # a private queue's count starts again at 0: tests/test_backout.py).
    qm.define_queue("Q", harden_get_backout=CMQC.MQQA_BACKOUT_HARDENED)
    h = qm.connect().open("Q", ALL)
    put(h, b"committed", 0.0)
    put(h, b"uncommitted put", 0.0, CMQC.MQPMO_SYNCPOINT)
    assert get(h, 0.0, CMQC.MQGMO_SYNCPOINT)[0] == b"committed"  # an uncommitted get
    replies = qm.connect().open(
        OD(ObjectName=b"SYSTEM.DEFAULT.MODEL.QUEUE", DynamicQName=b"TEMP.*"),
        CMQC.MQOO_INPUT_EXCLUSIVE,
    )
    temporary = replies.queue
    qm.restart()
    after = qm.connect().open("Q", ALL)
    md = MD()
    assert get(after, 1.0, md=md)[0] == b"committed"  # the get backed out: back on the queue
    assert md.BackoutCount == 1
    with pytest.raises(MQMIError, match=r"MQRC_NO_MSG_AVAILABLE \(2033\)"):
        get(after, 1.0)  # the uncommitted put backed out: gone
    assert qm.find(temporary) is None


@keeps("docs/objects.md", "Without an `Authority` everyone may do everything.")
@keeps(
    "docs/security.md",
    "Object authority is off unless the queue manager is given an `Authority`",
)
def test_without_an_authority_any_user_opens_for_anything_and_deletes_a_permanent_queue() -> None:
    qm = QMgr("QM1")
    qm.define_queue("APP.Q")
    stranger = qm.connect(user="stranger")
    h = stranger.open("APP.Q", ALL | CMQC.MQOO_SET)
    put(h, b"m", 0.0)
    h.set(CMQC.MQIA_INHIBIT_PUT, CMQC.MQQA_PUT_INHIBITED)
    # Another user's permanent dynamic queue: deleting it needs `dlt` when authority is on.
    qm.define_queue(
        "PERM.MODEL", q_type=CMQC.MQQT_MODEL, definition_type=CMQC.MQQDT_PERMANENT_DYNAMIC
    )
    od = OD(ObjectName=b"PERM.MODEL", DynamicQName=b"OWNED.*")
    qm.connect(user="owner").open(od, CMQC.MQOO_INPUT_SHARED).close()
    name = od.ObjectName.rstrip(b" \0").decode()
    stranger.open(name, CMQC.MQOO_INPUT_SHARED).close(CMQC.MQCO_DELETE)
    assert qm.find(name) is None
    alternate = OD(ObjectName=b"APP.Q", AlternateUserId=b"someone")
    stranger.open(alternate, CMQC.MQOO_INQUIRE | CMQC.MQOO_ALTERNATE_USER_AUTHORITY).close()


@keeps(
    "docs/security.md",
    "an alternate user id that is not text is no user: MQRC_NOT_AUTHORIZED, 2035",
)
def test_an_alternate_user_id_that_is_not_text_is_not_authorized() -> None:
    qm = QMgr("QM1")
    qm.define_queue("Q")
    alternate = OD(ObjectName=b"Q", AlternateUserId=b"\xff\xfe\x80user")
    with pytest.raises(MQMIError, match=r"MQRC_NOT_AUTHORIZED \(2035\)"):
        qm.connect().open(alternate, CMQC.MQOO_INQUIRE | CMQC.MQOO_ALTERNATE_USER_AUTHORITY)
