"""Serialized applications: MQCONNX's connection tag in the rules layer (issue 48).

IBM, "MQCNO - Connect options" (the MQCNO_*_CONN_TAG_* options), "ConnTag (MQBYTE128) on
IBM MQ for z/OS", and the reason codes 2271 MQRC_CONN_TAG_IN_USE and 2350
MQRC_CONN_TAG_NOT_USABLE. Every test runs on both stores (``each_store``): the group's
uses of a tag are kept in its coupling facility, in process or on the server.
"""

from __future__ import annotations

import dataclasses

import pytest

from qsg import CMQC, QMgr
from qsg.core.conntag import ConnectOptions
from qsg.core.errors import MQMIError
from qsg.core.objects import CFStructure
from qsg.core.sharing import QueueSharingGroup
from tests.claims import keeps
from tests.helpers import ALL, get, put

pytestmark = pytest.mark.usefixtures("each_store")

TAG = b"PAYROLL.INSTANCE.1"
SERIAL_QMGR = CMQC.MQCNO_SERIALIZE_CONN_TAG_Q_MGR
SERIAL_QSG = CMQC.MQCNO_SERIALIZE_CONN_TAG_QSG
RESTRICT_QMGR = CMQC.MQCNO_RESTRICT_CONN_TAG_Q_MGR
RESTRICT_QSG = CMQC.MQCNO_RESTRICT_CONN_TAG_QSG


def group() -> tuple[QMgr, QMgr]:
    """QM1 and QM2 of QSG1, sharing queue Q on structure APP1."""
    qsg = QueueSharingGroup("QSG1")
    qm1, qm2 = QMgr("QM1", qsg=qsg), QMgr("QM2", qsg=qsg)
    qm1.define_structure(CFStructure("APP1", size_kb=1000))
    qm1.define_queue("Q", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")
    return qm1, qm2


def cno(
    option: int, tag: bytes = TAG, space: str = "JOB1", *, client: bool = False
) -> ConnectOptions:
    return ConnectOptions(options=option, tag=tag, space=space, client=client)


def refused(reason: int) -> pytest.RaisesContext[MQMIError]:
    return pytest.raises(MQMIError, match=rf"\b{reason}\b")


@keeps(
    "docs/mq-rules.md",
    "MQCNO_SERIALIZE_CONN_TAG_QSG: 2271 while the tag is in use anywhere in the group; MQDISC "
    "frees it.",
)
def test_serialize_qsg_refuses_the_tag_anywhere_in_the_group_while_in_use_with_2271() -> None:
    # MQCNO_SERIALIZE_CONN_TAG_QSG: "If the connection tag is already in use in the
    # queue-sharing group, the MQCONNX call fails with reason code MQRC_CONN_TAG_IN_USE."
    qm1, qm2 = group()
    first = qm1.connect(cno=cno(SERIAL_QSG))
    with refused(CMQC.MQRC_CONN_TAG_IN_USE):
        qm2.connect(cno=cno(SERIAL_QSG))
    with refused(CMQC.MQRC_CONN_TAG_IN_USE):
        qm1.connect(cno=cno(SERIAL_QSG))
    first.disconnect()  # "The tag ceases to be valid when the application ... issues MQDISC"
    qm2.connect(cno=cno(SERIAL_QSG))


@keeps(
    "docs/mq-rules.md",
    "MQCNO_SERIALIZE_CONN_TAG_Q_MGR is not affected by the tag elsewhere in the group.",
)
@keeps(
    "docs/pymqi.md",
    "while it is in use on that queue manager; its use on another member does not matter.",
)
def test_serialize_qmgr_is_not_affected_by_the_tag_elsewhere_in_the_group() -> None:
    # MQCNO_SERIALIZE_CONN_TAG_Q_MGR: "The outcome of the call is not affected by use of
    # the connection tag elsewhere in the queue-sharing group"; a QSG request is.
    qm1, qm2 = group()
    qm1.connect(cno=cno(SERIAL_QMGR))
    qm2.connect(cno=cno(SERIAL_QMGR))
    with refused(CMQC.MQRC_CONN_TAG_IN_USE):
        qm1.connect(cno=cno(SERIAL_QMGR))
    with refused(CMQC.MQRC_CONN_TAG_IN_USE):
        qm2.connect(cno=cno(SERIAL_QSG))
    qm2.connect(cno=cno(SERIAL_QMGR, b"ANOTHER.TAG"))


@keeps(
    "docs/mq-rules.md", "RESTRICT shares the tag only within one processing scope and queue manager"
)
def test_restrict_shares_the_tag_only_within_one_processing_scope_and_queue_manager() -> None:
    # MQCNO_RESTRICT_CONN_TAG_Q_MGR / _QSG: shared use when "the requesting application is
    # running in the same processing scope as the existing user" (and, for _QSG, "is
    # connected to the same queue manager"); otherwise MQRC_CONN_TAG_IN_USE.
    qm1, qm2 = group()
    qm1.connect(cno=cno(RESTRICT_QSG))
    qm1.connect(cno=cno(RESTRICT_QSG))
    qm1.connect(cno=cno(RESTRICT_QMGR))
    with refused(CMQC.MQRC_CONN_TAG_IN_USE):
        qm1.connect(cno=cno(RESTRICT_QSG, space="JOB2"))
    with refused(CMQC.MQRC_CONN_TAG_IN_USE):
        qm2.connect(cno=cno(RESTRICT_QSG))  # same scope, another queue manager
    with refused(CMQC.MQRC_CONN_TAG_IN_USE):
        qm1.connect(cno=cno(SERIAL_QMGR))  # exclusive use asked of a shared tag


@keeps("docs/mq-rules.md", "and is not allowed for a client (2046).")
@keeps("docs/pymqi.md", "refused with MQRC_OPTIONS_ERROR (2046) for a client connection.")
def test_restrict_is_not_allowed_for_a_client_application() -> None:
    # "If the application using the connection tag is a client application,
    # MQCNO_RESTRICT_CONN_TAG_Q_MGR is not allowed" (and _QSG likewise).
    qm1, _ = group()
    for option in (RESTRICT_QMGR, RESTRICT_QSG):
        with refused(CMQC.MQRC_OPTIONS_ERROR):
            qm1.connect(cno=cno(option, client=True))
    qm1.connect(cno=cno(SERIAL_QSG, client=True))


@keeps("docs/pymqi.md", "More than one tag option is MQRC_OPTIONS_ERROR (2046)")
def test_more_than_one_connection_tag_option_is_an_options_error() -> None:
    qm1, _ = group()
    with refused(CMQC.MQRC_OPTIONS_ERROR):
        qm1.connect(cno=cno(SERIAL_QSG | SERIAL_QMGR))
    qm1.connect(cno=cno(SERIAL_QSG))  # the refused call left no use behind


@pytest.mark.parametrize("tag", [b"MQ.TAG", b"mq.tag", b"Mq", b"\xd4\xd8TAG", b"\x94\x98"])
@keeps(
    "docs/mq-rules.md",
    "Tags beginning MQ (any case, ASCII or EBCDIC) are reserved for IBM products (qsg: 2139).",
)
@keeps("docs/pymqi.md", "qsg refuses the MQCNO with MQRC_CNO_ERROR (2139).")
def test_a_tag_beginning_mq_in_any_case_ascii_or_ebcdic_is_refused_and_not_kept(tag: bytes) -> None:
    # "ConnTag (MQBYTE128) on IBM MQ for z/OS": "Connection tag values beginning with MQ in
    # upper, lower, or mixed case in either ASCII or EBCDIC are reserved for use by IBM
    # products." IBM names no reason code for one; qsg refuses the MQCNO (2139).
    qm1, qm2 = group()
    with pytest.raises(MQMIError, match=r"2139.*reserved for IBM products"):
        qm1.connect(cno=cno(SERIAL_QSG, tag))
    assert not qm1.connections
    qm2.connect(cno=cno(SERIAL_QSG, b"M" + tag[2:]))


@keeps(
    "docs/mq-rules.md",
    "A failed member's tag is in use (2271) until peer recovery, or its restart, resolves its "
    "units of work; then the message it held is back, first.",
)
@keeps(
    "docs/pymqi.md",
    "A tag stays in use after its member fails, until peer recovery (or the member's restart, "
    "when no peer ran it) has resolved that member's units of work",
)
def test_a_units_of_work_tag_of_a_failed_member_is_in_use_until_peer_recovery_ends_it() -> None:
    # 2271: "... or there is an unresolved unit of work that references this connection
    # tag". QM1 fails with a get in flight under the tag: its tag stays in use in the
    # group (not for a Q_MGR request on QM2) until QM2's peer recovery backs the unit out;
    # then the instance restarts on QM2 and finds its message back on the queue, first.
    qm1, qm2 = group()
    h = qm1.connect().open("Q", ALL)
    put(h, b"first", 0.0)
    put(h, b"second", 0.0)
    app = qm1.connect(cno=cno(SERIAL_QSG))
    assert get(app.open("Q", ALL), 0.0, CMQC.MQGMO_SYNCPOINT)[0] == b"first"
    # QM1 fails here: nothing of it runs any more (no MQDISC, no backout).
    with refused(CMQC.MQRC_CONN_TAG_IN_USE):
        qm2.connect(cno=cno(SERIAL_QSG))
    qm2.connect(cno=cno(SERIAL_QMGR)).disconnect()
    assert qm2.recover_peer("QM1", qm1.incarnation).ran
    again = qm2.connect(cno=cno(SERIAL_QSG))
    assert get(again.open("Q", ALL), 0.0, CMQC.MQGMO_SYNCPOINT)[0] == b"first"


def test_a_failed_members_restart_ends_the_tags_of_its_earlier_life() -> None:
    # Without a peer, the failed member's own restart resolves its units of work.
    qm1, qm2 = group()
    qm1.connect(cno=cno(SERIAL_QSG))
    qm1.restart(incarnation=1)
    qm2.connect(cno=cno(SERIAL_QSG))


@keeps("docs/pymqi.md", "While that recovery waits for the coupling facility")
def test_a_tag_whose_recovery_waits_for_the_coupling_facility_is_not_usable_2350() -> None:
    # 2350: "the connection tag ... is being used by the queue manager for recovery
    # processing, and this processing is delayed pending recovery of the coupling facility".
    qm1, qm2 = group()
    qm1.connect(cno=cno(SERIAL_QMGR))
    delayed = {("QM1", qm1.incarnation)}
    with refused(CMQC.MQRC_CONN_TAG_NOT_USABLE):
        qm2.connect(cno=cno(SERIAL_QSG), delayed=delayed)
    qm2.connect(cno=cno(SERIAL_QMGR), delayed=delayed)  # elsewhere in the group: no matter


def test_a_queue_manager_in_no_group_serializes_its_own_tags() -> None:
    qm = QMgr("QM9")
    qm.connect(cno=cno(SERIAL_QSG))
    with refused(CMQC.MQRC_CONN_TAG_IN_USE):
        qm.connect(cno=cno(SERIAL_QMGR))


def test_a_tag_with_no_tag_option_or_no_tag_is_not_serialized() -> None:
    # ConnTag is used with the MQCNO_*_CONN_TAG_* options; MQCT_NONE is "no tag".
    qm1, _ = group()
    qm1.connect(cno=cno(CMQC.MQCNO_NONE))
    qm1.connect(cno=cno(CMQC.MQCNO_NONE))
    qm1.connect(cno=cno(SERIAL_QSG, CMQC.MQCT_NONE))
    qm1.connect(cno=cno(SERIAL_QSG, CMQC.MQCT_NONE))


@keeps("docs/pymqi.md", "and so is a tag option on a queue manager not on z/OS.")
def test_the_connection_tag_options_are_for_z_os_queue_managers_only() -> None:
    # "This connection option is supported on z/OS only."
    qm = QMgr("QM9", platform=CMQC.MQPL_UNIX)
    with refused(CMQC.MQRC_OPTIONS_ERROR):
        qm.connect(cno=cno(SERIAL_QMGR))


def test_each_store_adds_a_use_only_while_the_tag_is_as_it_was_read() -> None:
    # The rule is decided on what was read; the claim is refused (nothing written) if
    # another use came or went since, in process as in the facility's script.
    qm1, qm2 = group()
    registry = qm1.tag_registry
    seen = registry.conn_tags(TAG)
    assert seen.uses == ()
    qm2.connect(cno=cno(SERIAL_QMGR))
    use = dataclasses.replace(registry.conn_tags(TAG).uses[0], q_mgr="QM1", connection=99)
    assert not registry.claim_conn_tag(use, seen.version)
    assert [u.q_mgr for u in registry.conn_tags(TAG).uses] == ["QM2"]
    assert registry.claim_conn_tag(use, registry.conn_tags(TAG).version)
    assert sorted(u.q_mgr for u in registry.conn_tags(TAG).uses) == ["QM1", "QM2"]
    assert registry.release_conn_tags("QM1", 1) == 1
    assert registry.release_conn_tags("QM1", 1) == 0
    assert [u.q_mgr for u in registry.conn_tags(TAG).uses] == ["QM2"]


def test_connections_sharing_a_restricted_tag_are_each_a_use_of_it_until_each_ends() -> None:
    # MQCNO_RESTRICT_CONN_TAG_QSG: connections of one address space share the tag; each
    # is its own use (by its connection), so the tag is free only when the last ends.
    qm1, qm2 = group()
    qm1.connect()
    first, second = qm1.connect(cno=cno(RESTRICT_QSG)), qm1.connect(cno=cno(RESTRICT_QSG))
    uses = qm1.tag_registry.conn_tags(TAG).uses
    assert [use.connection for use in uses] == [first.number, second.number] == [2, 3]
    first.disconnect()
    with refused(CMQC.MQRC_CONN_TAG_IN_USE):
        qm2.connect(cno=cno(SERIAL_QSG))
    second.disconnect()
    qm2.connect(cno=cno(SERIAL_QSG))
