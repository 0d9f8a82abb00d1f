"""Rules-level tests of small qsg/core modules (connection tags, expiry, units of work,
the order of keys, reports, the group's stores, triggering, channel events): synchronous
and fast, so that `./dev mutate` (tests in `[tool.mutmut]`'s selection) can tell every
mutant of these modules apart (issue 45). Each names the MQ rule or the doc sentence it
pins.
"""

from __future__ import annotations

import dataclasses

import pytest

from qsg import CMQC, CMQCFC, MD, MQMIError, QMgr
from qsg.core import cfstate, conntag, memstore
from qsg.core.conntag import ConnectOptions, TagUse, TagUses
from qsg.core.errors import reason_name
from qsg.core.expiry import MAX_EXPIRY, check_expiry
from qsg.core.grouprepo import GroupRepository
from qsg.core.layouts import DLH
from qsg.core.message import Message
from qsg.core.objects import CFStructure
from qsg.core.order import Order
from qsg.core.reports import Report, exception_report
from qsg.core.sharedchl import MemoryChannelStatus
from qsg.core.sharing import QueueSharingGroup
from qsg.core.uow import prepare as uow_prepare
from qsg.mqsc import load
from tests.helpers import get, open_queue, put
from tests.test_core_rules_pinned_events import channel, channel_qmgr, channel_reasons


# ---- conntag: MQ's own agents' tags, and a shared channel's operations in recovery -------
def test_an_agent_connects_restricted_group_wide_with_an_mq_tag_from_its_address_space() -> None:
    # "Channels and serialization", "The intra-group queuing agent and Serialization":
    # the agents "serialize access to shared queues by issuing the MQCONNX API call".
    assert conntag.agent_options("CHL", "TO.QM2", "QM1", CMQC.MQPL_ZOS) == ConnectOptions(
        options=CMQC.MQCNO_RESTRICT_CONN_TAG_QSG,
        tag=b"MQCHL.TO.QM2",
        space="QM1CHIN",
        product=True,
    )
    assert conntag.agent_options("IGQ", "QM1", "QM1", CMQC.MQPL_ZOS) == ConnectOptions(
        options=CMQC.MQCNO_RESTRICT_CONN_TAG_QSG, tag=b"MQIGQ.QM1", space="QM1MSTR", product=True
    )


def test_an_agent_off_z_os_does_not_serialize() -> None:
    # "ConnTag (MQBYTE128) on IBM MQ for z/OS": connection tags are z/OS's only.
    assert conntag.agent_options("CHL", "TO.QM2", "QM1", CMQC.MQPL_UNIX) is None


def test_an_agent_kept_out_says_whether_recovery_is_in_progress_or_the_tag_is_unusable() -> None:
    # "Channels and serialization": "an error message indicating that recovery is in progress".
    in_use = MQMIError.failed(CMQC.MQRC_CONN_TAG_IN_USE)
    not_usable = MQMIError.failed(CMQC.MQRC_CONN_TAG_NOT_USABLE)
    assert conntag.not_yet(in_use) == "shared queue peer recovery is in progress"
    assert conntag.not_yet(not_usable) == "its connection tag is not usable now"


class _Registry:
    def __init__(self, uses: tuple[TagUse, ...] = (), error: int | None = None) -> None:
        self.uses = uses
        self.error = error
        self.asked: list[bytes] = []

    def conn_tags(self, tag: bytes) -> TagUses:
        self.asked.append(tag)
        if self.error is not None:
            raise MQMIError.failed(self.error, "the registry")
        return TagUses(1, self.uses)

    def claim_conn_tag(self, use: TagUse, version: int) -> bool:  # pragma: no cover
        raise AssertionError("recovering claims nothing")


def _use(q_mgr: str, life: int) -> TagUse:
    return TagUse(b"MQCHL.C", q_mgr, life, 1, CMQC.MQCNO_RESTRICT_CONN_TAG_QSG, q_mgr + "CHIN")


def test_a_shared_channel_operation_waits_while_a_failed_life_still_uses_its_tag() -> None:
    # "Channels and serialization": "An attempt to RESOLVE, PING, or DELETE a channel can
    # fail for the same reason" as a start while peer recovery is in progress.
    registry = _Registry((_use("QM1", 2), _use("QM2", 1)))
    refused = conntag.recovering(registry, b"MQCHL.C\0\0", {("QM1", 2)})
    assert registry.asked == [b"MQCHL.C"]
    assert refused is not None
    assert (refused.comp, refused.reason, refused.detail) == (
        CMQC.MQCC_FAILED,
        CMQC.MQRC_CONN_TAG_IN_USE,
        "shared queue peer recovery of QM2 is in progress",
    )


def test_a_shared_channel_operation_finds_the_tag_not_usable_while_recovery_waits_for_the_cf() -> (
    None
):
    # "MQCONNX": MQRC_CONN_TAG_NOT_USABLE (2350) while recovery waits for the facility.
    registry = _Registry((_use("QM1", 2), _use("QM2", 1)))
    refused = conntag.recovering(registry, b"MQCHL.C", {("QM1", 2)}, {("QM2", 1)})
    assert refused is not None
    assert (refused.comp, refused.reason, refused.detail) == (
        CMQC.MQCC_FAILED,
        CMQC.MQRC_CONN_TAG_NOT_USABLE,
        "shared queue peer recovery of QM2 waits for the coupling facility",
    )


def test_a_shared_channel_operation_goes_on_when_only_running_lives_use_its_tag() -> None:
    registry = _Registry((_use("QM1", 2), _use("QM2", 3)))
    assert conntag.recovering(registry, b"MQCHL.C", {("QM1", 2), ("QM2", 3)}) is None
    assert conntag.recovering(_Registry(), b"MQCHL.C", set()) is None


def test_a_registry_out_of_reach_refuses_no_shared_channel_operation_other_errors_pass() -> None:
    for reason in (
        CMQC.MQRC_CF_STRUC_FAILED,
        CMQC.MQRC_CF_NOT_AVAILABLE,
        CMQC.MQRC_CF_STRUC_IN_USE,
    ):
        assert conntag.recovering(_Registry(error=reason), b"MQCHL.C", set()) is None
    with pytest.raises(MQMIError) as caught:
        conntag.recovering(_Registry(error=CMQC.MQRC_STORAGE_NOT_AVAILABLE), b"MQCHL.C", set())
    assert caught.value.reason == CMQC.MQRC_STORAGE_NOT_AVAILABLE


# ---- cfstate: CFLEVEL of a structure's definition, RECOVER TYPE(PURGE) --------------------
def test_recover_yes_stands_at_cflevel_3_and_needs_it() -> None:
    # "DEFINE CFSTRUCT": RECOVER(YES) needs CFLEVEL(3), the level that holds persistent
    # messages.
    assert cfstate.cflevel_conflict(CFStructure("APP1", cf_level=3, recover=True)) is None
    assert (
        cfstate.cflevel_conflict(CFStructure("APP1", cf_level=2, recover=True))
        == "RECOVER(YES) needs CFLEVEL(3), not CFLEVEL(2)"
    )


def test_cfconlos_other_than_asqmgr_below_cflevel_5_is_named_in_its_conflict() -> None:
    # "DEFINE CFSTRUCT": CFCONLOS is a CFLEVEL(5) attribute (MQRCCF_PARM_CONFLICT below).
    definition = CFStructure("APP1", cf_level=4, cf_conlos=CMQC.MQCFCONLOS_TOLERATE)
    assert (
        cfstate.cflevel_conflict(definition)
        == "CFCONLOS(TOLERATE) needs CFLEVEL(5), not CFLEVEL(4)"
    )


def test_recover_type_purge_of_a_failed_recover_no_structure_reallocates_it() -> None:
    # "RECOVER CFSTRUCT": TYPE(PURGE) needs no backup, so RECOVER(NO) does not refuse it.
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1"))
    qm.define_structure(CFStructure("APP1", recover=False))
    load(qm, "DEFINE QLOCAL(ORDERS) QSGDISP(SHARED) CFSTRUCT(APP1)")
    put(open_queue(qm, "ORDERS"), b"order", 1.0)
    assert qm.qsg is not None
    shared = qm.qsg.shared
    shared.store.fail_structure("APP1", 2.0)
    got = cfstate.recover(shared, "APP1", True, 2)
    assert (got.name, got.from_backup, got.from_log, got.purged) == ("APP1", 0, 0, True)


# ---- chlevents: a requester that has not started yet ----------------------------------
def test_requesting_is_no_channel_event_and_does_not_end_the_started_instance() -> None:
    # IBM, "Channel Stopped": issued only by an instance that issued Channel Started;
    # REQUESTING, like BINDING, is on the way to RUNNING, not an end.
    qm, _ = channel_qmgr()
    channel(qm, "TO.QM3", "RUNNING")
    channel(qm, "TO.QM3", "REQUESTING")
    assert channel_reasons(qm) == [(CMQC.MQRC_CHANNEL_STARTED, None)]
    channel(qm, "TO.QM3", "INACTIVE")
    assert channel_reasons(qm) == [(CMQC.MQRC_CHANNEL_STOPPED, CMQCFC.MQRQ_CHANNEL_STOPPED_OK)]


# ---- errors: a PCF reason's name --------------------------------------------------------
def test_a_pcf_reason_is_named_by_its_cmqcfc_mnemonic() -> None:
    # cmqcfc.h: MQRCCF_DISPOSITION_CONFLICT is 3211.
    assert reason_name(3211) == "MQRCCF_DISPOSITION_CONFLICT"
    assert reason_name(2033) == "MQRC_NO_MSG_AVAILABLE"
    assert reason_name(99999) == "MQRC_UNKNOWN_99999"


# ---- expiry: MQMD.Expiry's bounds -------------------------------------------------------
def test_an_expiry_of_one_tenth_of_a_second_is_allowed() -> None:
    # "Expiry (MQLONG)": a value greater than zero, or MQEI_UNLIMITED.
    check_expiry(1, enforce_max=True)
    with pytest.raises(MQMIError) as zero:
        check_expiry(0, enforce_max=False)
    assert (zero.value.reason, zero.value.detail) == (
        CMQC.MQRC_EXPIRY_ERROR,
        "MQMD.Expiry=0: must be > 0 or MQEI_UNLIMITED (-1)",
    )


def test_the_maximum_expiry_is_allowed_and_above_it_only_an_enforcing_qmgr_refuses() -> None:
    # "Expiry (MQLONG)" note 1: 999 999 999 is the most, refused above only where the
    # queue manager enforces it (AMQ_ENFORCE_MAX_EXPIRY_ERROR).
    check_expiry(MAX_EXPIRY, enforce_max=True)
    check_expiry(MAX_EXPIRY + 1, enforce_max=False)
    with pytest.raises(MQMIError) as above:
        check_expiry(MAX_EXPIRY + 1, enforce_max=True)
    assert (above.value.reason, above.value.detail) == (
        CMQC.MQRC_EXPIRY_ERROR,
        "MQMD.Expiry=1000000000: above the maximum 999999999",
    )


# ---- memstore: a put record holds the message as put --------------------------------------
def test_a_put_record_holds_the_message_with_backout_count_zero() -> None:
    # "BackoutCount (MQLONG)": a count of the times the message was backed out; the put
    # record is of the message as it was put, before any backout.
    msg = Message(MD().get(), b"x", 0.0, None, 0, backout_count=3)
    as_put = memstore._as_put(msg)
    assert as_put.backout_count == 0
    assert dataclasses.replace(as_put, backout_count=3) == msg


# ---- order: its audit of its own bookkeeping --------------------------------------------
def test_an_orders_audit_names_each_broken_invariant() -> None:
    order = Order()
    assert order.audit() == []
    order._sorted.add(5)  # counted nowhere
    order._tail.extend([5, 5])
    assert order.audit() == [
        "counts 0 keys in its sorted part, which holds 1",
        "has a tail that is not ascending: [5, 5]",
        "has tail key 5 not above its sorted keys (5)",
    ]


# ---- uow: who is asked before a commit ---------------------------------------------------
class _Store:
    def __init__(self, name: str, commit_may_refuse: bool, why: str | None = None) -> None:
        self.name, self.commit_may_refuse, self.why = name, commit_may_refuse, why
        self.asked: list[tuple[str, object]] = []

    def backed_out(self, uow: object) -> str | None:
        self.asked.append(("backed_out", uow))
        return self.why

    def prepare(self, uow: object) -> str | None:
        self.asked.append(("prepare", uow))
        return self.why


def test_the_first_store_is_asked_backed_out_and_a_later_refusing_one_prepare() -> None:
    # The first store's refusal at its commit backs out everything with nothing
    # committed; a later one's would come after the first had committed.
    first = _Store("CF", True)
    second = _Store("LOCAL", False)
    third = _Store("CF2", True, "the structure failed")
    uow = ("QM1", 7)
    assert uow_prepare([first, second, third], uow) == "the structure failed"  # type: ignore[list-item, arg-type]
    assert first.asked == [("backed_out", uow)]
    assert second.asked == [("backed_out", uow)]
    assert third.asked == [("prepare", uow)]


# ---- qmgr.send_report and reports.exception_report ----------------------------------------
def test_a_report_that_cannot_reach_its_reply_to_qmgr_is_dead_lettered_naming_that_qmgr() -> None:
    # "MQDLH - Dead-letter header": DestQMgrName is the queue manager the message was
    # going to, here the report's ReplyToQMgr (QM9, which QM1 cannot reach: 2087).
    qm = QMgr("QM1")
    report = Report("REPLY.Q", "QM9", MD(MsgType=CMQC.MQMT_REPORT), b"data")
    qm.send_report(report, b"orig", 1.0)
    body, md = get(open_queue(qm, "SYSTEM.DEAD.LETTER.QUEUE", CMQC.MQOO_INPUT_SHARED), 1.0)
    assert md.Format == CMQC.MQFMT_DEAD_LETTER_HEADER
    header = DLH.unpack(body)
    assert (header.Reason, header.DestQName, header.DestQMgrName) == (
        CMQC.MQRC_UNKNOWN_REMOTE_Q_MGR,
        b"REPLY.Q".ljust(48),
        b"QM9".ljust(48),
    )
    assert body.endswith(b"data")


def test_an_exception_report_carries_the_data_its_report_option_asks_for() -> None:
    # "Report (MQLONG)": MQRO_EXCEPTION_WITH_DATA, the first 100 bytes;
    # MQRO_EXCEPTION_WITH_FULL_DATA, all of the message; MQRO_EXCEPTION, none.
    body = bytes(range(150))

    def report(option: int) -> bytes:
        original = MD(Report=option, ReplyToQ=b"REPLY.Q", MsgId=b"M" * 24)
        got = exception_report(
            original, body, CMQC.MQRC_Q_FULL, q_mgr_name="QM1", new_msg_id=lambda: b"N" * 24
        )
        assert got is not None
        assert got.md.Feedback == CMQC.MQRC_Q_FULL
        return got.body

    assert report(CMQC.MQRO_EXCEPTION_WITH_FULL_DATA) == body
    assert report(CMQC.MQRO_EXCEPTION_WITH_DATA) == body[:100]
    assert report(CMQC.MQRO_EXCEPTION) == b""


# ---- sharing: the group's stores as given, else its own -----------------------------------
def test_a_group_keeps_the_repository_and_channel_status_it_is_given() -> None:
    repository, status = GroupRepository(), MemoryChannelStatus()
    group = QueueSharingGroup("QSG1", repository=repository, channel_status=status)
    assert group.repository is repository
    assert group.channel_status is status


def test_a_group_given_no_repository_or_channel_status_makes_its_own() -> None:
    group = QueueSharingGroup("QSG1")
    assert isinstance(group.repository, GroupRepository)
    assert isinstance(group.channel_status, MemoryChannelStatus)


# ---- trigger: TRIGTYPE(DEPTH) turns triggering off ----------------------------------------
def test_a_depth_trigger_sets_the_queues_trigger_control_to_mqtc_off() -> None:
    # "Conditions for a trigger event": with TRIGTYPE(DEPTH) the queue manager disables
    # triggering (TriggerControl MQTC_OFF) once it has fired.
    qm = QMgr("QM1")
    load(
        qm,
        "DEFINE PROCESS(APP.PROC) APPLICID('/opt/app/server')\nDEFINE QLOCAL(APP.INITQ)\n"
        "DEFINE QLOCAL(APP.Q) TRIGGER TRIGTYPE(DEPTH) TRIGDPTH(2) PROCESS(APP.PROC) "
        "INITQ(APP.INITQ)",
    )
    open_queue(qm, "APP.INITQ", CMQC.MQOO_INPUT_SHARED)  # a trigger monitor
    app = open_queue(qm, "APP.Q", CMQC.MQOO_OUTPUT)
    put(app, b"1", 0.0)
    assert qm.queue("APP.Q").trigger_control == CMQC.MQTC_ON
    put(app, b"2", 0.0)
    assert qm.queue("APP.Q").trigger_control == CMQC.MQTC_OFF
