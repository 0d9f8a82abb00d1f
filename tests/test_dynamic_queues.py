"""Dynamic queues: one test per bullet of the two property lists of
IBM's "Dynamic queues", then the naming rules of OD.DynamicQName."""

from __future__ import annotations

import pytest

from qsg import CMQC, MD, OD, PMO, MQMIError, QMgr
from qsg.core.authority import Authority
from qsg.core.connection import Connection
from qsg.core.handle import Handle
from qsg.core.objects import CFStructure
from qsg.core.queue import QueueDefinition
from qsg.core.sharing import QueueSharingGroup
from tests.claims import keeps
from tests.helpers import ALL, get, get_or_none, put

TEMP, PERM = "APP.TEMP.MODEL", "APP.PERM.MODEL"


# The contract suite: each test runs on the in-process store and on the coupling facility's.
pytestmark = pytest.mark.usefixtures("each_store")


@pytest.fixture
def qm() -> QMgr:
    qm = QMgr("QM1")
    for name, deftype in (
        (TEMP, CMQC.MQQDT_TEMPORARY_DYNAMIC),
        (PERM, CMQC.MQQDT_PERMANENT_DYNAMIC),
    ):
        qm.define(QueueDefinition(name, q_type=CMQC.MQQT_MODEL, definition_type=deftype))
    return qm


def create(conn: Connection, model: str, pattern: bytes = b"APP.REPLY.*") -> Handle:
    return conn.open(OD(ObjectName=model.encode(), DynamicQName=pattern), ALL)


def gone(qm: QMgr, name: str) -> bool:
    return qm.find(name) is None


# ---- Properties of temporary dynamic queues ------------------------------------------
@keeps(
    "docs/mq-rules.md",
    (
        "Temporary dynamic queues hold nonpersistent messages only, are not recoverable, cannot be "
        "shared, and are deleted when the creating application closes them or ends, and when the "
        "queue manager starts."
    ),
)
@keeps(
    "docs/objects.md",
    (
        "temporary dynamic queues (never shared, nonpersistent only, deleted when the creating "
        "handle closes or its connection ends and at queue-manager start, every close option of "
        "the creating handle treated as MQCO_NONE)"
    ),
)
def test_temporary_dynamic_queues_cannot_be_shared_queues() -> None:
    # "They cannot be shared queues, accessible from queue managers in a queue-sharing group."
    group = QueueSharingGroup("QSG1")
    qm1, qm2 = QMgr("QM1", qsg=group), QMgr("QM2", qsg=group)
    qm1.define_structure(CFStructure("APP1"))
    qm1.define(
        QueueDefinition(
            TEMP,
            q_type=CMQC.MQQT_MODEL,
            definition_type=CMQC.MQQDT_TEMPORARY_DYNAMIC,
            cf_struct="APP1",
        )
    )
    h = create(qm1.connect(), TEMP)
    assert h.inquire(CMQC.MQIA_QSG_DISP) == CMQC.MQQSGD_Q_MGR
    assert qm2.find(h.name) is None
    with pytest.raises(ValueError, match="never QSGDISP"):
        QueueDefinition(
            "M",
            q_type=CMQC.MQQT_MODEL,
            qsg_disp=CMQC.MQQSGD_SHARED,
            cf_struct="A",
            definition_type=CMQC.MQQDT_TEMPORARY_DYNAMIC,
        )


@pytest.mark.parametrize("via_queue_default", [False, True])
@keeps(
    "docs/mq-rules.md",
    (
        "Temporary dynamic queues hold nonpersistent messages only, are not recoverable, cannot be "
        "shared, and are deleted when the creating application closes them or ends, and when the "
        "queue manager starts."
    ),
)
@keeps(
    "docs/reason-codes.md",
    "MQRC_PERSISTENT_NOT_ALLOWED | a persistent message put to a temporary dynamic queue",
)
@keeps("docs/objects.md", "temporary dynamic queues (never shared, nonpersistent only,")
def test_temporary_dynamic_queues_hold_nonpersistent_messages_only(
    qm: QMgr, via_queue_default: bool
) -> None:
    # "They hold nonpersistent messages only."
    if via_queue_default:
        qm.define(
            QueueDefinition(
                TEMP,
                q_type=CMQC.MQQT_MODEL,
                definition_type=CMQC.MQQDT_TEMPORARY_DYNAMIC,
                def_persistence=CMQC.MQPER_PERSISTENT,
            ),
            replace=True,
        )
        persistence = CMQC.MQPER_PERSISTENCE_AS_Q_DEF
    else:
        persistence = CMQC.MQPER_PERSISTENT
    h = create(qm.connect(), TEMP)
    with pytest.raises(MQMIError, match=r"MQRC_PERSISTENT_NOT_ALLOWED \(2048\)"):
        put(h, b"p", 0.0, Persistence=persistence)
    put(h, b"n", 0.0, Persistence=CMQC.MQPER_NOT_PERSISTENT)
    assert qm.depth(h.name) == 1


def test_temporary_dynamic_queues_are_non_recoverable(qm: QMgr) -> None:
    # "They are non-recoverable." Committed messages on one are not recovered at restart.
    h = create(qm.connect(), TEMP)
    put(h, b"committed", 0.0)
    qm.restart()
    assert gone(qm, h.name)
    with pytest.raises(MQMIError, match=r"MQRC_UNKNOWN_OBJECT_NAME \(2085\)"):
        qm.connect().open(h.name, ALL)


@keeps(
    "docs/mq-rules.md",
    (
        "Temporary dynamic queues hold nonpersistent messages only, are not recoverable, cannot be "
        "shared, and are deleted when the creating application closes them or ends, and when the "
        "queue manager starts."
    ),
)
@keeps(
    "docs/objects.md",
    "deleted when the creating handle closes or its connection ends and at queue-manager start",
)
def test_temporary_dynamic_queues_are_deleted_when_the_queue_manager_is_started(
    qm: QMgr,
) -> None:
    # "They are deleted when the queue manager is started." Permanent ones stay.
    temp = create(qm.connect(), TEMP)
    perm = create(qm.connect(), PERM, b"APP.KEEP.*")
    qm.restart()
    assert gone(qm, temp.name) and not gone(qm, perm.name)


@pytest.mark.parametrize("how", ["close", "disconnect", "terminate"])
@keeps(
    "docs/mq-rules.md",
    (
        "Temporary dynamic queues hold nonpersistent messages only, are not recoverable, cannot be "
        "shared, and are deleted when the creating application closes them or ends, and when the "
        "queue manager starts."
    ),
)
@keeps(
    "docs/objects.md",
    "deleted when the creating handle closes or its connection ends and at queue-manager start",
)
def test_temporary_dynamic_queues_are_deleted_when_the_creating_application_closes_or_ends(
    qm: QMgr, how: str
) -> None:
    # "They are deleted when the application that issued the MQOPEN call that created the
    # queue closes the queue or terminates."
    conn = qm.connect()
    h = create(conn, TEMP)
    name = h.name
    other = qm.connect().open(name, CMQC.MQOO_OUTPUT)
    other.close()  # another application's close does not delete it
    assert not gone(qm, name)
    {"close": h.close, "disconnect": conn.disconnect, "terminate": conn.terminate}[how]()
    assert gone(qm, name)


def test_committed_messages_on_a_temporary_dynamic_queue_are_deleted_with_it(qm: QMgr) -> None:
    # "If there are any committed messages on the queue, they are deleted."
    h = create(qm.connect(), TEMP)
    for n in range(3):
        put(h, b"m%d" % n, 0.0)
    h.close()
    assert gone(qm, h.name)
    with pytest.raises(KeyError):
        qm.store.depth(h.name)  # the store holds no such queue: its messages went with it


@keeps(
    "docs/mq-rules.md",
    (
        "A queue with uncommitted work is logically deleted until that work ends; any other access "
        "than close then fails with MQRC_Q_DELETED."
    ),
)
@keeps(
    "docs/objects.md",
    "physical deletion when the last user closes and the last unit of work ends.",
)
def test_uncommitted_calls_leave_a_temporary_dynamic_queue_logically_deleted_until_they_end(
    qm: QMgr,
) -> None:
    # "If there are any uncommitted MQGET, MQPUT, or MQPUT1 calls outstanding against the
    # queue at this time, the queue is marked as being logically deleted, and is only
    # physically deleted (after these calls have been committed) ..."
    client = qm.connect()
    h = create(client, TEMP)
    server = qm.connect()
    server.put1(h.name, b"reply", MD(), PMO(Options=CMQC.MQPMO_SYNCPOINT), now=0.0)
    h.close()
    assert not gone(qm, h.name)  # logically deleted only
    with pytest.raises(MQMIError, match=r"MQRC_Q_DELETED \(2052\)"):
        qm.connect().open(h.name, ALL)
    server.commit()
    assert gone(qm, h.name)


def test_uncommitted_work_of_the_creator_keeps_the_queue_until_the_application_ends(
    qm: QMgr,
) -> None:
    # "... as part of close processing, or when the application terminates."
    client = qm.connect()
    h = create(client, TEMP)
    put(h, b"x", 0.0, options=CMQC.MQPMO_SYNCPOINT)
    h.close()
    assert not gone(qm, h.name)
    client.terminate()  # backs out, then the queue can go
    assert gone(qm, h.name)


def test_a_temporary_dynamic_queue_in_use_is_deleted_when_the_last_user_closes(qm: QMgr) -> None:
    # "If the queue is in use at this time (by the creating, or another application), the
    # queue is marked as being logically deleted, and is only physically deleted when
    # closed by the last application using the queue."
    h = create(qm.connect(), TEMP)
    other = qm.connect().open(h.name, CMQC.MQOO_OUTPUT)
    h.close()
    assert not gone(qm, h.name)
    other.close()
    assert gone(qm, h.name)


@keeps(
    "docs/mq-rules.md",
    (
        "A queue with uncommitted work is logically deleted until that work ends; any other access "
        "than close then fails with MQRC_Q_DELETED."
    ),
)
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_Q_DELETED | a call on a handle to a dynamic queue deleted since; on z/OS also MQOPEN "
        'or MQPUT1 of a logically deleted one (elsewhere 2085: "the deleted queue cannot be '
        'accessed by applications")'
    ),
)
@keeps(
    "docs/objects.md",
    (
        "logical deletion while in use or with uncommitted work (`MQRC_Q_DELETED` for everything "
        "but MQCLOSE)"
    ),
)
def test_access_to_a_logically_deleted_queue_other_than_close_fails_with_q_deleted(
    qm: QMgr,
) -> None:
    # "Attempts to access a logically deleted queue (other than to close it) fail with
    # reason code MQRC_Q_DELETED."
    h = create(qm.connect(), TEMP)
    other = qm.connect().open(h.name, ALL)
    h.close()
    calls = [
        lambda: put(other, b"x", 1.0),
        lambda: get(other, 1.0),
        lambda: other.inquire(CMQC.MQIA_CURRENT_Q_DEPTH),
        lambda: qm.connect().open(h.name, CMQC.MQOO_OUTPUT),
    ]
    for call in calls:
        with pytest.raises(MQMIError, match=r"MQRC_Q_DELETED \(2052\)"):
            call()
    other.close()  # close is the one call that works
    assert gone(qm, h.name)


@pytest.mark.parametrize("option", [CMQC.MQCO_NONE, CMQC.MQCO_DELETE, CMQC.MQCO_DELETE_PURGE])
@keeps("docs/objects.md", "every close option of the creating handle treated as MQCO_NONE")
def test_close_options_are_all_treated_as_none_for_the_creating_handle(
    qm: QMgr, option: int
) -> None:
    # "MQCO_NONE, MQCO_DELETE and MQCO_DELETE_PURGE are all treated as MQCO_NONE when
    # specified on an MQCLOSE call for the corresponding MQOPEN call that created the queue."
    # MQCO_DELETE would fail on a permanent dynamic queue holding a message; here it is
    # NONE, which deletes the temporary queue with its message.
    h = create(qm.connect(), TEMP)
    put(h, b"still here", 0.0)
    h.close(option)
    assert gone(qm, h.name)


def test_only_the_creating_handle_may_close_a_temporary_dynamic_queue_with_delete(
    qm: QMgr,
) -> None:
    # MQCLOSE: MQCO_DELETE deletes a temporary dynamic queue only for the handle that
    # created it; for any other handle MQRC_OPTION_NOT_VALID_FOR_TYPE.
    h = create(qm.connect(), TEMP)
    other = qm.connect().open(h.name, CMQC.MQOO_OUTPUT)
    with pytest.raises(MQMIError, match=r"MQRC_OPTION_NOT_VALID_FOR_TYPE \(2045\)"):
        other.close(CMQC.MQCO_DELETE)
    assert other.open and not gone(qm, h.name)


# ---- Properties of permanent dynamic queues ------------------------------------------
def test_permanent_dynamic_queues_hold_persistent_or_nonpersistent_messages(qm: QMgr) -> None:
    # "They hold persistent or nonpersistent messages."
    h = create(qm.connect(), PERM)
    put(h, b"p", 0.0, Persistence=CMQC.MQPER_PERSISTENT)
    put(h, b"n", 0.0, Persistence=CMQC.MQPER_NOT_PERSISTENT)
    assert qm.depth(h.name) == 2


def test_permanent_dynamic_queues_are_recoverable_in_the_event_of_system_failures(
    qm: QMgr,
) -> None:
    # "They are recoverable in the event of system failures." The queue and its committed
    # messages are there after a restart; the creator's uncommitted put is backed out.
    conn = qm.connect()
    h = create(conn, PERM)
    put(h, b"committed", 0.0, Persistence=CMQC.MQPER_PERSISTENT)
    put(h, b"in flight", 0.0, options=CMQC.MQPMO_SYNCPOINT, Persistence=CMQC.MQPER_PERSISTENT)
    qm.restart()
    again = qm.connect().open(h.name, ALL)
    assert get(again, 1.0)[0] == b"committed" and get_or_none(again, 1.0) is None


@pytest.mark.parametrize("option", [CMQC.MQCO_DELETE, CMQC.MQCO_DELETE_PURGE])
def test_permanent_dynamic_queues_are_deleted_by_any_application_closing_with_delete(
    qm: QMgr, option: int
) -> None:
    # "They are deleted when an application (not necessarily the one that issued the MQOPEN
    # call that created the queue) successfully closes the queue using the MQCO_DELETE or
    # MQCO_DELETE_PURGE option."
    h = create(qm.connect(), PERM)
    h.close()
    assert not gone(qm, h.name)  # MQCO_NONE keeps a permanent dynamic queue
    qm.connect().open(h.name, CMQC.MQOO_OUTPUT).close(option)
    assert gone(qm, h.name)


@keeps(
    "docs/mq-rules.md",
    (
        "Permanent dynamic queues are deleted by MQCO_DELETE (refused while messages are on them) "
        "or MQCO_DELETE_PURGE (refused while calls are uncommitted)."
    ),
)
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_Q_NOT_EMPTY | MQCLOSE with DELETE of a permanent dynamic queue with messages, or "
        "with uncommitted puts or gets"
    ),
)
@keeps(
    "docs/objects.md",
    (
        "permanent dynamic queues (MQCO_DELETE refused with `MQRC_Q_NOT_EMPTY` while any message "
        "is on it, MQCO_DELETE_PURGE while uncommitted work is)"
    ),
)
def test_close_with_delete_fails_while_messages_committed_or_not_are_on_the_queue(
    qm: QMgr,
) -> None:
    # "A close request with the MQCO_DELETE option fails if there are any messages
    # (committed or uncommitted) still on the queue."
    conn = qm.connect()
    h = create(conn, PERM)
    put(h, b"uncommitted", 0.0, options=CMQC.MQPMO_SYNCPOINT)
    with pytest.raises(MQMIError, match=r"MQRC_Q_NOT_EMPTY \(2055\)"):
        h.close(CMQC.MQCO_DELETE)
    conn.commit()
    with pytest.raises(MQMIError, match=r"MQRC_Q_NOT_EMPTY \(2055\)"):
        h.close(CMQC.MQCO_DELETE)
    assert h.open and not gone(qm, h.name)  # a failed close leaves the handle usable
    get(h, 1.0)
    h.close(CMQC.MQCO_DELETE)
    assert gone(qm, h.name)


@keeps(
    "docs/mq-rules.md",
    (
        "Permanent dynamic queues are deleted by MQCO_DELETE (refused while messages are on them) "
        "or MQCO_DELETE_PURGE (refused while calls are uncommitted)."
    ),
)
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_Q_NOT_EMPTY | MQCLOSE with DELETE of a permanent dynamic queue with messages, or "
        "with uncommitted puts or gets"
    ),
)
@keeps(
    "docs/objects.md",
    (
        "permanent dynamic queues (MQCO_DELETE refused with `MQRC_Q_NOT_EMPTY` while any message "
        "is on it, MQCO_DELETE_PURGE while uncommitted work is)"
    ),
)
def test_delete_purge_succeeds_with_committed_messages_but_not_with_uncommitted_calls(
    qm: QMgr,
) -> None:
    # "A close request with the MQCO_DELETE_PURGE option succeeds even if there are
    # committed messages on the queue (the messages being deleted as part of the close),
    # but fails if there are any uncommitted MQGET, MQPUT, or MQPUT1 calls outstanding."
    conn = qm.connect()
    h = create(conn, PERM)
    for n in range(2):
        put(h, b"m%d" % n, 0.0)
    get(h, 1.0, CMQC.MQGMO_SYNCPOINT)  # an uncommitted MQGET
    with pytest.raises(MQMIError, match=r"MQRC_Q_NOT_EMPTY \(2055\)"):
        h.close(CMQC.MQCO_DELETE_PURGE)
    conn.backout()
    other = qm.connect()
    other.put1(h.name, b"put1", MD(), PMO(Options=CMQC.MQPMO_SYNCPOINT), now=1.0)
    with pytest.raises(MQMIError, match=r"MQRC_Q_NOT_EMPTY \(2055\)"):
        h.close(CMQC.MQCO_DELETE_PURGE)  # an uncommitted MQPUT1 of another application
    other.commit()
    h.close(CMQC.MQCO_DELETE_PURGE)  # three committed messages, purged
    assert gone(qm, h.name)


@keeps(
    "docs/objects.md",
    "physical deletion when the last user closes and the last unit of work ends.",
)
def test_a_deleted_permanent_dynamic_queue_in_use_goes_when_the_last_user_closes(
    qm: QMgr,
) -> None:
    # "If the delete request is successful, but the queue happens to be in use (by the
    # creating, or another application), the queue is marked as being logically deleted
    # and is only physically deleted when closed by the last application using the queue."
    h = create(qm.connect(), PERM)
    other = qm.connect().open(h.name, ALL)
    h.close(CMQC.MQCO_DELETE)
    assert not gone(qm, h.name)
    with pytest.raises(MQMIError, match=r"MQRC_Q_DELETED \(2052\)"):
        put(other, b"late", 1.0)
    other.close()
    assert gone(qm, h.name)


@keeps(
    "docs/reason-codes.md",
    "MQRC_NOT_AUTHORIZED | the user may not open (or delete, or use an alternate user id)",
)
@keeps(
    "docs/objects.md",
    "only the creating handle or a user with `dlt` may delete a permanent dynamic queue.",
)
def test_permanent_dynamic_queues_are_deleted_only_by_authorized_users_or_the_creator() -> None:
    # "They are not deleted if closed by an application that is not authorized to delete
    # the queue, unless the closing application issued the MQOPEN call that created the
    # queue. Authorization checks are performed against the user identifier (or alternate
    # user identifier if MQOO_ALTERNATE_USER_AUTHORITY was specified) that was used to
    # validate the corresponding MQOPEN call."
    auth = Authority()
    for user in ("alice", "bob", "carol"):
        auth.grant(user, "*", "put", "get", "browse", "inq")
    auth.grant("carol", "APP.REPLY.*", "dlt")
    auth.grant("bob", "QM1", "altusr")
    qm = QMgr("QM1", authority=auth)
    qm.define(
        QueueDefinition(PERM, q_type=CMQC.MQQT_MODEL, definition_type=CMQC.MQQDT_PERMANENT_DYNAMIC)
    )

    # The creating handle may delete, though alice has no delete authority.
    created = create(qm.connect("alice"), PERM)
    created.close(CMQC.MQCO_DELETE)
    assert gone(qm, created.name)

    # Another handle of the same user may not; bob may not; carol may.
    created = create(qm.connect("alice"), PERM)
    name = created.name
    created.close()
    for user in ("alice", "bob"):
        h = qm.connect(user).open(name, CMQC.MQOO_OUTPUT)
        with pytest.raises(MQMIError, match=r"MQRC_NOT_AUTHORIZED \(2035\)"):
            h.close(CMQC.MQCO_DELETE)
        assert h.open and not gone(qm, name)
        h.close()

    # The check is against the user the MQOPEN was validated for: carol's id as the
    # alternate user counts only with MQOO_ALTERNATE_USER_AUTHORITY, which needs altusr.
    od = OD(ObjectName=name.encode(), AlternateUserId=b"carol")
    as_bob = qm.connect("bob").open(od, CMQC.MQOO_OUTPUT)
    with pytest.raises(MQMIError, match=r"MQRC_NOT_AUTHORIZED \(2035\)"):
        as_bob.close(CMQC.MQCO_DELETE)
    as_bob.close()
    with pytest.raises(MQMIError, match=r"MQRC_NOT_AUTHORIZED \(2035\)"):
        qm.connect("alice").open(od, CMQC.MQOO_OUTPUT | CMQC.MQOO_ALTERNATE_USER_AUTHORITY)
    as_carol = qm.connect("bob").open(od, CMQC.MQOO_OUTPUT | CMQC.MQOO_ALTERNATE_USER_AUTHORITY)
    as_carol.close(CMQC.MQCO_DELETE)
    assert gone(qm, name)


def test_permanent_dynamic_queues_can_be_deleted_in_the_same_way_as_a_normal_queue(
    qm: QMgr,
) -> None:
    # "They can be deleted in the same way as a normal queue." (DELETE QLOCAL)
    h = create(qm.connect(), PERM)
    put(h, b"m", 0.0)
    with pytest.raises(MQMIError, match=r"MQRC_OBJECT_IN_USE \(2042\)"):
        qm.delete_queue(h.name)
    h.close()
    with pytest.raises(MQMIError, match=r"MQRC_Q_NOT_EMPTY \(2055\)"):
        qm.delete_queue(h.name)
    qm.delete_queue(h.name, purge=True)
    assert gone(qm, h.name)


# ---- Creating dynamic queues ------------------------------------------------------------
@keeps(
    "docs/mq-rules.md",
    (
        "Opening a model queue makes a local queue with its attributes; a trailing `*` makes a "
        "unique name, written back."
    ),
)
@keeps("docs/objects.md", "`OD.DynamicQName` with a trailing `*`")
def test_a_trailing_asterisk_makes_a_unique_name_written_back_to_the_object_name(
    qm: QMgr,
) -> None:
    conn = qm.connect()
    od1 = OD(ObjectName=TEMP.encode(), DynamicQName=b"MY.REPLIES.*")
    od2 = OD(ObjectName=TEMP.encode(), DynamicQName=b"MY.REPLIES.*")
    h1, h2 = conn.open(od1, ALL), conn.open(od2, ALL)
    assert od1.ObjectName.startswith(b"MY.REPLIES.") and od1.ObjectName != od2.ObjectName
    assert h1.name == od1.ObjectName.decode() and h2.name == od2.ObjectName.decode()
    assert od1.ResolvedQName == od1.ObjectName
    assert h1.inquire(CMQC.MQIA_DEFINITION_TYPE) == CMQC.MQQDT_TEMPORARY_DYNAMIC
    assert h1.inquire(CMQC.MQIA_Q_TYPE) == CMQC.MQQT_LOCAL


def test_every_queue_manager_has_the_default_model_queue() -> None:
    h = QMgr("QM9").connect().open(OD(ObjectName=b"SYSTEM.DEFAULT.MODEL.QUEUE"), ALL)
    assert h.name.startswith("AMQ.") and len(h.name) == 20


@pytest.mark.parametrize(
    "pattern",
    [b"", b"   ", b"A*B", b"X" * 33 + b"*", b"BAD NAME.*", b"BAD-NAME*"],
)
@keeps(
    "docs/reason-codes.md",
    "MQRC_DYNAMIC_Q_NAME_ERROR | MQOPEN of a model queue with a DynamicQName that is not valid",
)
@keeps(
    "docs/objects.md",
    (
        "`OD.DynamicQName` with a trailing `*` (`MQRC_DYNAMIC_Q_NAME_ERROR`, "
        "`MQRC_OBJECT_ALREADY_EXISTS`)"
    ),
)
def test_a_dynamic_q_name_that_is_not_valid_gives_dynamic_q_name_error(
    qm: QMgr, pattern: bytes
) -> None:
    with pytest.raises(MQMIError, match=r"MQRC_DYNAMIC_Q_NAME_ERROR \(2011\)"):
        create(qm.connect(), TEMP, pattern)
    assert set(qm.queues) == {"SYSTEM.DEAD.LETTER.QUEUE"}  # nothing was created


@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_OBJECT_ALREADY_EXISTS | MQOPEN of a model queue naming a queue that exists (on a "
        "distributed platform, also one logically deleted but open)"
    ),
)
@keeps(
    "docs/objects.md",
    (
        "`OD.DynamicQName` with a trailing `*` (`MQRC_DYNAMIC_Q_NAME_ERROR`, "
        "`MQRC_OBJECT_ALREADY_EXISTS`)"
    ),
)
def test_a_dynamic_queue_name_already_taken_gives_object_already_exists(qm: QMgr) -> None:
    conn = qm.connect()
    create(conn, PERM, b"FIXED.NAME")
    with pytest.raises(MQMIError, match=r"MQRC_OBJECT_ALREADY_EXISTS \(2100\)"):
        create(conn, TEMP, b"FIXED.NAME")


@keeps("docs/objects.md", "SHAREDYN models make shared ones")
def test_a_shared_dynamic_model_makes_a_permanent_queue_every_member_sees() -> None:
    group = QueueSharingGroup("QSG1")
    qm1, qm2 = QMgr("QM1", qsg=group), QMgr("QM2", qsg=group)
    qm1.define_structure(CFStructure("APP1"))
    qm1.define(
        QueueDefinition(
            "SHARED.MODEL",
            q_type=CMQC.MQQT_MODEL,
            definition_type=CMQC.MQQDT_SHARED_DYNAMIC,
            cf_struct="APP1",
        )
    )
    h = create(qm1.connect(), "SHARED.MODEL", b"SHARED.REPLY.*")
    put(h, b"from QM1", 0.0)
    h.close()
    on_qm2 = qm2.connect().open(h.name, ALL)
    assert on_qm2.inquire(CMQC.MQIA_DEFINITION_TYPE) == CMQC.MQQDT_SHARED_DYNAMIC
    assert get(on_qm2, 1.0)[0] == b"from QM1"
    on_qm2.close(CMQC.MQCO_DELETE)
    assert qm1.find(h.name) is None
