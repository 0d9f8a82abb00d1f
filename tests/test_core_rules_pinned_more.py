"""Rules-level tests of qsg/core modules whose rules the world-level tests cover (object
handles, channels, copies, facilities, geometry, the group repository, shared channels):
synchronous and fast, so that `./dev mutate` (tests in `[tool.mutmut]`'s selection) can
tell every mutant of these modules apart (issue 45). Each names the MQ rule or the doc
sentence it pins.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Sequence

import pytest

from qsg import CMQC, CMQCFC, MD, PMO, MQMIError, QMgr
from qsg.core import channels, copies, geometry, grouprepo, sharedchl
from qsg.core.facilities import FAILED, KEPT, REBUILT, Move, Placement, check_preference
from qsg.core.grouprepo import Definition, GroupRepository
from qsg.core.memstore import MemoryStore
from qsg.core.object_handle import OBJECT_TYPES, ObjectHandle
from qsg.core.objects import (
    AliasQueue,
    CFStructure,
    ChannelDefinition,
    NamelistDefinition,
    ProcessDefinition,
    QueueObject,
    RemoteQueue,
    StorageClass,
)
from qsg.core.queue import QueueDefinition
from qsg.core.repository import Repository
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc import load
from tests.helpers import refusal_detail


# ---- object_handle: MQOPEN of a namelist, a process or the queue manager ----------------
def _objects() -> QMgr:
    qm = QMgr("QM1")
    load(qm, "DEFINE NAMELIST(APP.NL) NAMES(APP.A,APP.B)\nDEFINE PROCESS(APP.P) APPLICID('CKTI')")
    return qm


def test_mqopen_of_a_namelist_process_or_qmgr_is_served_by_the_attribute_table_named_so() -> None:
    # "MQOPEN - Open object": ObjectType MQOT_NAMELIST, MQOT_PROCESS, MQOT_Q_MGR; each
    # is the attribute table's object type of that name.
    assert OBJECT_TYPES == {
        CMQC.MQOT_NAMELIST: "NAMELIST",
        CMQC.MQOT_PROCESS: "PROCESS",
        CMQC.MQOT_Q_MGR: "QMGR",
    }
    qm = _objects()
    assert ObjectHandle(qm, CMQC.MQOT_NAMELIST, "APP.NL", CMQC.MQOO_INQUIRE).kind == "NAMELIST"
    assert ObjectHandle(qm, CMQC.MQOT_PROCESS, "APP.P", CMQC.MQOO_INQUIRE).kind == "PROCESS"
    assert ObjectHandle(qm, CMQC.MQOT_Q_MGR, "", CMQC.MQOO_INQUIRE).kind == "QMGR"


def test_an_object_type_mqopen_of_an_object_handle_does_not_serve_is_mqrc_object_type_error() -> (
    None
):
    # MQRC_OBJECT_TYPE_ERROR (2043): a queue is opened by the queue's own handle.
    detail = refusal_detail(
        CMQC.MQCC_FAILED,
        CMQC.MQRC_OBJECT_TYPE_ERROR,
        ObjectHandle,
        _objects(),
        CMQC.MQOT_Q,
        "APP.Q",
        32,
    )
    assert detail == f"ObjectType {CMQC.MQOT_Q} is not opened here"


@pytest.mark.parametrize(
    "extra", [0, CMQC.MQOO_FAIL_IF_QUIESCING, CMQC.MQOO_ALTERNATE_USER_AUTHORITY]
)
def test_a_namelist_is_opened_with_mqoo_inquire_and_fail_if_quiescing_or_alternate_user(
    extra: int,
) -> None:
    # "MQOPEN - Open object": MQOO_INQUIRE, with MQOO_FAIL_IF_QUIESCING and
    # MQOO_ALTERNATE_USER_AUTHORITY beside it, are the options such an object takes.
    handle = ObjectHandle(_objects(), CMQC.MQOT_NAMELIST, "APP.NL", CMQC.MQOO_INQUIRE | extra)
    assert (handle.options, handle.open, handle.name) == (CMQC.MQOO_INQUIRE | extra, True, "APP.NL")


@pytest.mark.parametrize(
    "options",
    [
        0,
        CMQC.MQOO_FAIL_IF_QUIESCING,
        CMQC.MQOO_FAIL_IF_QUIESCING | CMQC.MQOO_ALTERNATE_USER_AUTHORITY,
        CMQC.MQOO_INQUIRE | CMQC.MQOO_SET,
        CMQC.MQOO_INQUIRE | CMQC.MQOO_OUTPUT,
        CMQC.MQOO_INQUIRE | CMQC.MQOO_BROWSE,
    ],
)
def test_any_option_but_inquire_and_its_two_companions_or_no_inquire_is_mqrc_options_error(
    options: int,
) -> None:
    # "MQOPEN - Open object": a namelist, process or queue manager takes MQOO_INQUIRE
    # only; anything else is MQRC_OPTIONS_ERROR (2046).
    detail = refusal_detail(
        CMQC.MQCC_FAILED,
        CMQC.MQRC_OPTIONS_ERROR,
        ObjectHandle,
        _objects(),
        CMQC.MQOT_PROCESS,
        "APP.P",
        options,
    )
    assert detail == f"a process is opened with MQOO_INQUIRE only (options {options:#x})"


def test_the_queue_manager_is_opened_by_its_own_name_or_blanks_and_no_other() -> None:
    # "Object descriptor, MQOD": ObjectName for MQOT_Q_MGR is blank or the name of the
    # queue manager connected to; another is MQRC_UNKNOWN_OBJECT_NAME (2085).
    qm = _objects()
    assert ObjectHandle(qm, CMQC.MQOT_Q_MGR, "", CMQC.MQOO_INQUIRE).name == "QM1"
    assert ObjectHandle(qm, CMQC.MQOT_Q_MGR, "QM1", CMQC.MQOO_INQUIRE).name == "QM1"
    detail = refusal_detail(
        CMQC.MQCC_FAILED,
        CMQC.MQRC_UNKNOWN_OBJECT_NAME,
        ObjectHandle,
        qm,
        CMQC.MQOT_Q_MGR,
        "QM2",
        32,
    )
    assert detail == "QM2 is not this queue manager (QM1)"


@pytest.mark.parametrize(
    ("object_type", "name", "what"),
    [
        (CMQC.MQOT_NAMELIST, "APP.NONE", "namelist"),
        (CMQC.MQOT_NAMELIST, "APP.P", "namelist"),
        (CMQC.MQOT_PROCESS, "APP.NONE", "process"),
        (CMQC.MQOT_PROCESS, "APP.NL", "process"),
    ],
)
def test_mqopen_of_a_namelist_or_process_that_is_not_defined_is_mqrc_unknown_object_name(
    object_type: int, name: str, what: str
) -> None:
    # MQRC_UNKNOWN_OBJECT_NAME (2085) at MQOPEN: each type is looked up among its own kind.
    detail = refusal_detail(
        CMQC.MQCC_FAILED,
        CMQC.MQRC_UNKNOWN_OBJECT_NAME,
        ObjectHandle,
        _objects(),
        object_type,
        name,
        32,
    )
    assert detail == f"no {what} {name} on QM1"


def test_mqinq_reads_each_objects_attributes_as_they_are_now_and_refuses_another_selector() -> None:
    # "MQINQ - Inquire object attributes": the selectors of the object's type, read
    # when asked (an ALTER after the open is seen); any other is MQRC_SELECTOR_ERROR.
    qm = _objects()
    namelist = ObjectHandle(qm, CMQC.MQOT_NAMELIST, "APP.NL", CMQC.MQOO_INQUIRE)
    process = ObjectHandle(qm, CMQC.MQOT_PROCESS, "APP.P", CMQC.MQOO_INQUIRE)
    qmgr = ObjectHandle(qm, CMQC.MQOT_Q_MGR, "", CMQC.MQOO_INQUIRE)
    assert namelist.inquire(CMQC.MQIA_NAME_COUNT) == 2
    assert process.inquire(CMQC.MQCA_APPL_ID).rstrip() == b"CKTI"  # type: ignore[union-attr]
    assert qmgr.inquire(CMQC.MQCA_Q_MGR_NAME).rstrip() == b"QM1"  # type: ignore[union-attr]
    load(qm, "ALTER NAMELIST(APP.NL) NAMES(APP.A)\nALTER PROCESS(APP.P) APPLICID('OTHER')")
    assert namelist.inquire(CMQC.MQIA_NAME_COUNT) == 1
    assert process.inquire(CMQC.MQCA_APPL_ID).rstrip() == b"OTHER"  # type: ignore[union-attr]
    for handle, selector, what in (
        (namelist, CMQC.MQCA_APPL_ID, "namelist APP.NL"),
        (process, CMQC.MQIA_NAME_COUNT, "process APP.P"),
        (qmgr, CMQC.MQIA_NAME_COUNT, "qmgr QM1"),
        (namelist, float(CMQC.MQIA_NAME_COUNT), "namelist APP.NL"),
    ):
        detail = refusal_detail(
            CMQC.MQCC_FAILED, CMQC.MQRC_SELECTOR_ERROR, handle.inquire, selector
        )
        assert detail == f"selector {selector!r} on {what}"


def test_mqset_of_a_namelist_process_or_qmgr_handle_is_mqrc_not_open_for_set() -> None:
    # These objects are opened for MQINQ only: MQSET is MQRC_NOT_OPEN_FOR_SET (2040).
    handle = ObjectHandle(_objects(), CMQC.MQOT_PROCESS, "APP.P", CMQC.MQOO_INQUIRE)
    detail = refusal_detail(
        CMQC.MQCC_FAILED, CMQC.MQRC_NOT_OPEN_FOR_SET, handle.set, CMQC.MQCA_APPL_ID, b"X"
    )
    assert detail == "process APP.P is open for MQINQ only"


def test_after_mqclose_every_call_on_the_object_handle_is_mqrc_hobj_error() -> None:
    # "MQCLOSE - Close object": the handle is no longer valid (MQRC_HOBJ_ERROR, 2019),
    # for MQINQ, MQSET and a second MQCLOSE alike.
    handle = ObjectHandle(_objects(), CMQC.MQOT_NAMELIST, "APP.NL", CMQC.MQOO_INQUIRE)
    handle.close()
    assert handle.open is False
    for call, args in (
        (handle.inquire, (CMQC.MQIA_NAME_COUNT,)),
        (handle.set, (CMQC.MQIA_NAME_COUNT, 1)),
        (handle.close, ()),
    ):
        assert (
            refusal_detail(CMQC.MQCC_FAILED, CMQC.MQRC_HOBJ_ERROR, call, *args)
            == "namelist APP.NL is closed"
        )


# ---- sharedchl: START CHANNEL's CHLDISP, the most suitable member, one instance ----------
def _conflict(call: object, *args: object) -> str:
    with pytest.raises(sharedchl.DispositionError) as caught:
        call(*args)  # type: ignore[operator]
    assert (caught.value.comp, caught.value.reason) == (
        CMQC.MQCC_FAILED,
        CMQCFC.MQRCCF_DISPOSITION_CONFLICT,
    )
    return caught.value.detail


PRIVATE, SHARED = CMQCFC.MQCHLD_PRIVATE, CMQCFC.MQCHLD_SHARED
FIXSHARED, DEFAULT = CMQCFC.MQCHLD_FIXSHARED, CMQCFC.MQCHLD_DEFAULT
SDR, RCVR = CMQC.MQCHT_SENDER, CMQC.MQCHT_RECEIVER


def test_chldisp_names_its_mqchld_value_and_default_is_the_channels_defcdisp() -> None:
    # "START CHANNEL", CHLDISP: DEFAULT, PRIVATE, SHARED, FIXSHARED (any case); DEFAULT
    # takes the channel's DEFCDISP; any other word is refused.
    assert sharedchl.DISPOSITIONS == {
        "DEFAULT": DEFAULT,
        "PRIVATE": PRIVATE,
        "SHARED": SHARED,
        "FIXSHARED": FIXSHARED,
    }
    assert sharedchl.NAMES == {
        DEFAULT: "DEFAULT",
        PRIVATE: "PRIVATE",
        SHARED: "SHARED",
        FIXSHARED: "FIXSHARED",
    }
    assert sharedchl.resolved("default", SHARED) == SHARED
    assert sharedchl.resolved("Private", SHARED) == PRIVATE
    assert sharedchl.resolved("FIXSHARED", PRIVATE) == FIXSHARED
    assert _conflict(sharedchl.resolved, "GROUP", PRIVATE) == (
        "CHLDISP(GROUP) is not DEFAULT, PRIVATE, SHARED or FIXSHARED"
    )


@pytest.mark.parametrize(
    ("channel_type", "conn_name", "disposition", "cmdscope", "xmitq_shared", "placed"),
    [
        (SDR, "host", PRIVATE, "", False, ("QM1", PRIVATE)),
        (SDR, "host", PRIVATE, " QM2 ", None, ("QM2", PRIVATE)),
        (RCVR, "", PRIVATE, "*", None, ("*", PRIVATE)),
        (SDR, "host", SHARED, "", True, ("?", SHARED)),
        (CMQC.MQCHT_SERVER, "host", SHARED, "  ", True, ("?", SHARED)),
        (CMQC.MQCHT_REQUESTER, "host", SHARED, "", None, ("?", SHARED)),
        (CMQC.MQCHT_SERVER, " ", SHARED, "", True, ("*", SHARED)),
        (RCVR, "", SHARED, "", None, ("*", SHARED)),
        (CMQC.MQCHT_SVRCONN, "", SHARED, "", None, ("*", SHARED)),
        (SDR, "host", FIXSHARED, "", True, ("QM1", FIXSHARED)),
        (SDR, "host", FIXSHARED, "QM2", True, ("QM2", FIXSHARED)),
    ],
)
def test_start_channel_runs_where_ibms_chldisp_by_cmdscope_table_says(
    channel_type: int,
    conn_name: str,
    disposition: int,
    cmdscope: str,
    xmitq_shared: bool | None,
    placed: tuple[str, int],
) -> None:
    # "START CHANNEL", CHLDISP: PRIVATE on the local, named or every member; SHARED on
    # the most suitable member ("?") for a sending channel with a CONNAME, on every
    # active member ("*") for a receiving one; FIXSHARED on the local or named member.
    got = sharedchl.placement(
        "TO.QM3", channel_type, conn_name, disposition, cmdscope, "QM1", xmitq_shared
    )
    assert (got.on, got.disposition) == placed


@pytest.mark.parametrize(
    ("channel_type", "conn_name", "disposition", "cmdscope", "xmitq_shared", "why"),
    [
        (
            SDR,
            "host",
            PRIVATE,
            "",
            True,
            "channel TO.QM3 has a shared transmission queue: it is a shared channel, start it "
            "CHLDISP(SHARED) or CHLDISP(FIXSHARED) (MQRCCF_DISPOSITION_CONFLICT 3211)",
        ),
        (
            CMQC.MQCHT_CLNTCONN,
            "host",
            SHARED,
            "",
            None,
            "CHLDISP(SHARED) is not allowed for channel TO.QM3's type",
        ),
        (
            CMQC.MQCHT_CLUSSDR,
            "host",
            FIXSHARED,
            "",
            None,
            "CHLDISP(FIXSHARED) is not allowed for channel TO.QM3's type",
        ),
        (
            SDR,
            "host",
            SHARED,
            "",
            False,
            "channel TO.QM3's transmission queue is not a shared queue: CHLDISP(SHARED) is the "
            "wrong disposition for it (MQRCCF_DISPOSITION_CONFLICT 3211)",
        ),
        (
            CMQC.MQCHT_REQUESTER,
            "",
            FIXSHARED,
            "",
            False,
            "channel TO.QM3's transmission queue is not a shared queue: CHLDISP(FIXSHARED) is "
            "the wrong disposition for it (MQRCCF_DISPOSITION_CONFLICT 3211)",
        ),
        (
            SDR,
            "host",
            SHARED,
            "QM2",
            True,
            "CHLDISP(SHARED) is not allowed with CMDSCOPE(QM2) (MQRCCF_DISPOSITION_CONFLICT 3211)",
        ),
        (
            RCVR,
            "",
            SHARED,
            "*",
            None,
            "CHLDISP(SHARED) is not allowed with CMDSCOPE(*) (MQRCCF_DISPOSITION_CONFLICT 3211)",
        ),
        (
            RCVR,
            "",
            FIXSHARED,
            "",
            None,
            "CHLDISP(FIXSHARED) is allowed only for a sender, server or requester with a "
            "CONNAME, not for channel TO.QM3 (MQRCCF_DISPOSITION_CONFLICT 3211)",
        ),
        (
            SDR,
            "  ",
            FIXSHARED,
            "",
            True,
            "CHLDISP(FIXSHARED) is allowed only for a sender, server or requester with a "
            "CONNAME, not for channel TO.QM3 (MQRCCF_DISPOSITION_CONFLICT 3211)",
        ),
        (
            SDR,
            "host",
            FIXSHARED,
            " * ",
            True,
            "CHLDISP(FIXSHARED) is not allowed with CMDSCOPE(*) (MQRCCF_DISPOSITION_CONFLICT 3211)",
        ),
        (
            SDR,
            "host",
            DEFAULT,
            "",
            True,
            "CHLDISP(DEFAULT) is not DEFAULT, PRIVATE, SHARED or FIXSHARED",
        ),
        (SDR, "host", 9, "", True, "CHLDISP(9) is not DEFAULT, PRIVATE, SHARED or FIXSHARED"),
    ],
)
def test_start_channel_outside_ibms_chldisp_table_is_mqrccf_disposition_conflict(
    channel_type: int,
    conn_name: str,
    disposition: int,
    cmdscope: str,
    xmitq_shared: bool | None,
    why: str,
) -> None:
    # "START CHANNEL": the combinations IBM's table leaves out, and a disposition the
    # transmission queue's sharing contradicts, are MQRCCF_DISPOSITION_CONFLICT (3211).
    assert (
        _conflict(
            sharedchl.placement,
            "TO.QM3",
            channel_type,
            conn_name,
            disposition,
            cmdscope,
            "QM1",
            xmitq_shared,
        )
        == why
    )


@pytest.mark.parametrize(
    ("disposition", "cmdscope", "xmitq_shared", "placed"),
    [
        (PRIVATE, "", False, ("QM1", PRIVATE)),
        (PRIVATE, " QM2 ", False, ("QM2", PRIVATE)),
        (SHARED, "", True, ("*", SHARED)),
        (SHARED, "QM1", True, ("*", SHARED)),
        (FIXSHARED, "", True, ("*", SHARED)),
    ],
)
def test_reset_and_resolve_channel_run_private_on_one_member_and_shared_on_all(
    disposition: int, cmdscope: str, xmitq_shared: bool, placed: tuple[str, int]
) -> None:
    # "RESET CHANNEL", "RESOLVE CHANNEL": PRIVATE on the local or named member; SHARED
    # "on all active queue managers"; a DEFCDISP of FIXSHARED is shared either way.
    got = sharedchl.group_placement("RESET", "TO.QM3", disposition, cmdscope, "QM1", xmitq_shared)
    assert (got.on, got.disposition) == placed


@pytest.mark.parametrize(
    ("disposition", "cmdscope", "xmitq_shared", "why"),
    [
        (
            PRIVATE,
            "",
            True,
            "channel TO.QM3 has a shared transmission queue: it is a shared channel, RESOLVE "
            "it CHLDISP(SHARED) (MQRCCF_DISPOSITION_CONFLICT 3211)",
        ),
        (
            PRIVATE,
            " * ",
            False,
            "RESOLVE CHANNEL is not allowed with CMDSCOPE(*) (MQRCCF_DISPOSITION_CONFLICT 3211)",
        ),
        (DEFAULT, "", True, "CHLDISP(DEFAULT) is not PRIVATE or SHARED"),
        (9, "", True, "CHLDISP(9) is not PRIVATE or SHARED"),
        (
            SHARED,
            "",
            False,
            "channel TO.QM3's transmission queue is not a shared queue: CHLDISP(SHARED) is the "
            "wrong disposition for it (MQRCCF_DISPOSITION_CONFLICT 3211)",
        ),
        (
            FIXSHARED,
            "QM2",
            True,
            "CHLDISP(SHARED) is not allowed with CMDSCOPE(QM2) (MQRCCF_DISPOSITION_CONFLICT 3211)",
        ),
    ],
)
def test_reset_or_resolve_channel_outside_ibms_tables_is_mqrccf_disposition_conflict(
    disposition: int, cmdscope: str, xmitq_shared: bool, why: str
) -> None:
    assert (
        _conflict(
            sharedchl.group_placement,
            "RESOLVE",
            "TO.QM3",
            disposition,
            cmdscope,
            "QM1",
            xmitq_shared,
        )
        == why
    )


def test_no_channel_initiator_able_to_start_a_channel_is_mqrccf_channel_initiator_error() -> None:
    error = sharedchl.no_channel_initiator("TO.QM3")
    assert isinstance(error, sharedchl.DispositionError)
    assert (error.comp, error.reason) == (CMQC.MQCC_FAILED, CMQCFC.MQRCCF_CHANNEL_INITIATOR_ERROR)
    assert error.detail == (
        "no channel initiator in the group can start channel TO.QM3 "
        "(MQRCCF_CHANNEL_INITIATOR_ERROR 3218)"
    )


class _Draw:
    """The run's random as ``most_suitable`` sees it: records the ties, takes the last."""

    def __init__(self) -> None:
        self.offered: list[list[str]] = []

    def choice(self, seq: Sequence[str]) -> str:
        self.offered.append(list(seq))
        return seq[-1]


def test_a_channel_initiators_load_is_active_over_maxchl_and_headroom_maxchl_less_active() -> None:
    # "Shared channels": channel load (active channels as a percentage of the most it
    # may run) and headroom (the most less the active); MAXCHL's z/OS default is 200.
    assert sharedchl.MAX_CHANNELS == 200
    chinit = sharedchl.ChinitLoad("QM1", 50)
    assert (chinit.maximum, chinit.load, chinit.headroom) == (200, 25.0, 150)
    assert sharedchl.ChinitLoad("QM1", 3, 4).load == 75.0
    assert sharedchl.ChinitLoad("QM1", 0, 0).load == 100.0


def test_a_shared_start_goes_to_the_lowest_load_then_most_headroom_then_a_seeded_draw() -> None:
    # "Shared channels", the load-balanced start: the lowest channel load, then the
    # largest headroom; qsg draws among members still tied (sorted, from the run's
    # random); a member at its most channels takes none; none at all is None (3218).
    draw = _Draw()
    load = sharedchl.ChinitLoad
    assert sharedchl.most_suitable([load("QM1", 10), load("QM2", 5)], draw) == "QM2"
    assert sharedchl.most_suitable([load("QM1", 1, 10), load("QM2", 2, 20)], draw) == "QM2"
    assert sharedchl.most_suitable([load("QM1", 4, 4), load("QM2", 200, 100)], draw) is None
    assert sharedchl.most_suitable([load("QM1", 0, 0), load("QM2", 9, 10)], draw) == "QM2"
    assert draw.offered == []
    assert sharedchl.most_suitable([load("QM3", 5), load("QM1", 5), load("QM2", 9)], draw) == "QM3"
    assert draw.offered == [["QM1", "QM3"]]
    assert sharedchl.most_suitable([], draw) is None


def test_one_instance_of_a_shared_channel_runs_in_the_group_and_its_owner_releases_it() -> None:
    # "Shared channels": the instance is claimed in the group's shared channel status;
    # a second start is refused with CSQX477E naming the owner; peer channel recovery
    # takes over a failed member's instance; only the owner's end releases it.
    status = sharedchl.MemoryChannelStatus()
    first = sharedchl.SharedInstance("TO.QM3", "QM1", SHARED, "QM3.XMIT", "host")
    assert status.claim(first) is None
    assert status.claim(sharedchl.SharedInstance("TO.QM3", "QM2", SHARED)) == first
    assert status.claim(sharedchl.SharedInstance("TO.QM3", "QM2", SHARED), "QM4") == first
    other = sharedchl.SharedInstance("TO.QM4", "QM2", FIXSHARED)
    assert status.claim(other) is None
    assert status.instances() == [first, other]
    taken = sharedchl.SharedInstance("TO.QM3", "QM2", SHARED)
    assert status.claim(taken, "QM1") is None and status.holder("TO.QM3") == taken
    assert status.release("TO.QM3", "QM1") is False
    assert status.release("TO.QM5", "QM1") is False
    assert status.release("TO.QM3", "QM2") is True
    assert status.holder("TO.QM3") is None and status.instances() == [other]


def test_csqx477e_and_csqm052i_read_as_ibm_writes_them() -> None:
    assert sharedchl.in_use_line("TO.QM3", "QM3.XMIT", "QM1") == (
        "CSQX477E Channel TO.QM3 is active, transmission queue QM3.XMIT in use on QM1"
    )
    assert sharedchl.recovery_line("QM1", 3, 1, 2) == (
        "CSQM052I CSQMPCRT Shared channel recovery completed for QM1, 3 channels found, "
        "1 FIXSHARED, 2 recovered"
    )


# ---- copies: a member's QSGDISP(COPY) objects -------------------------------------------
NO_SYNC = CMQC.MQPMO_NO_SYNCPOINT


def _member(name: str) -> QMgr:
    """A member of a group of its own: a COPY queue needs its queue manager in one."""
    return QMgr(name, qsg=QueueSharingGroup("QSG1"))


GROUP, COPY, QMGR_DISP = CMQC.MQQSGD_GROUP, CMQC.MQQSGD_COPY, CMQC.MQQSGD_Q_MGR


def _group_objects() -> dict[str, Definition]:
    return {
        "QUEUE": QueueDefinition("APP.Q", max_depth=77, qsg_disp=GROUP),
        "CHANNEL": ChannelDefinition("TO.QM3", CMQC.MQCHT_SENDER, "host", "QM3", qsg_disp=GROUP),
        "PROCESS": ProcessDefinition("APP.P", appl_id="CKTI", qsg_disp=GROUP),
        "NAMELIST": NamelistDefinition("APP.NL", names=("A", "B"), qsg_disp=GROUP),
        "STGCLASS": StorageClass("APPSC", page_set_id=3, qsg_disp=GROUP),
    }


def test_page_set_0_holds_queues_channels_processes_namelists_and_storage_classes() -> None:
    # "Managing group objects": DEFINE of each of these takes QSGDISP(GROUP) and COPY;
    # a CF structure is the group's alone and has no COPY.
    assert list(copies.PAGE_SET_0) == ["QUEUE", "CHANNEL", "PROCESS", "NAMELIST", "STGCLASS"]
    assert copies.WORDS == {QMGR_DISP: "QMGR", COPY: "COPY", GROUP: "GROUP", 2: "SHARED"}


def test_the_generated_define_replace_qsgdisp_copy_makes_each_objects_copy_on_the_member() -> None:
    # "Managing group objects": each member keeps a COPY of each GROUP object, made by
    # the generated DEFINE ... REPLACE QSGDISP(COPY); a second one replaces it.
    qm = _member("QM1")
    tables = {
        "QUEUE": qm.local.queues,
        "CHANNEL": qm.local.channels,
        "PROCESS": qm.local.processes,
        "NAMELIST": qm.local.namelists,
        "STGCLASS": qm.local.storage_classes,
    }
    for kind, group in _group_objects().items():
        copies.define_copy(qm, kind, group)
        assert tables[kind][group.name] == dataclasses.replace(group, qsg_disp=COPY)
        changed = dataclasses.replace(group, description="again")
        copies.define_copy(qm, kind, changed)
        assert tables[kind][group.name] == dataclasses.replace(changed, qsg_disp=COPY)
    assert not qm.local.status["APP.Q"].handles  # a queue copy is a queue of the member's


@pytest.mark.parametrize("kind", ["QUEUE", "CHANNEL", "PROCESS", "NAMELIST", "STGCLASS"])
def test_no_copy_is_made_over_the_members_own_qsgdisp_qmgr_object_of_the_name(kind: str) -> None:
    # Page set 0 holds one object of a name per type: a COPY is refused where the member
    # has a QSGDISP(QMGR) object of that name (our choice, docs/mqsc.md), unchanged.
    qm = _member("QM1")
    group = _group_objects()[kind]
    own = dataclasses.replace(group, qsg_disp=QMGR_DISP)
    copies.PAGE_SET_0[kind].define(qm, own)
    with pytest.raises(copies.CopySkippedError) as skipped:
        copies.define_copy(qm, kind, group)
    assert str(skipped.value) == f"QM1 has its own {group.name} of QSGDISP(QMGR)"
    assert copies.PAGE_SET_0[kind].objects(qm)[group.name] == own
    with pytest.raises(MQMIError) as refused:
        copies.delete_copy(qm, kind, group.name)
    assert refused.value.reason == CMQC.MQRC_UNKNOWN_OBJECT_NAME
    assert refused.value.detail == f"QM1 has no QSGDISP(COPY) object {group.name}"
    assert copies.PAGE_SET_0[kind].objects(qm)[group.name] == own


def test_an_open_copy_queue_is_refreshed_unless_its_usage_would_change() -> None:
    # "Managing group objects", skip rule (a): the refresh of a copy queue that is open
    # is skipped when it would change its USAGE; another change is made.
    qm = _member("QM1")
    group = QueueDefinition("APP.Q", qsg_disp=GROUP)
    copies.define_copy(qm, "QUEUE", group)
    qm.connect().open("APP.Q", CMQC.MQOO_INPUT_SHARED)
    deeper = dataclasses.replace(group, max_depth=9)
    copies.define_copy(qm, "QUEUE", deeper)
    assert qm.local.queues["APP.Q"].max_depth == 9
    xmitq = dataclasses.replace(group, usage=CMQC.MQUS_TRANSMISSION)
    with pytest.raises(copies.CopySkippedError) as skipped:
        copies.define_copy(qm, "QUEUE", xmitq)
    assert str(skipped.value) == "the copy of APP.Q is open and its USAGE would change"
    assert qm.local.queues["APP.Q"].usage == CMQC.MQUS_NORMAL


def test_a_closed_copy_queue_takes_a_new_usage_and_a_copy_of_a_new_type_replaces_the_old() -> None:
    # A copy that is not open takes any change; a GROUP queue redefined as another type
    # (a local queue become an alias) replaces the member's copy, the old one deleted.
    qm = _member("QM1")
    group = QueueDefinition("APP.Q", qsg_disp=GROUP)
    copies.define_copy(qm, "QUEUE", group)
    copies.define_copy(qm, "QUEUE", dataclasses.replace(group, usage=CMQC.MQUS_TRANSMISSION))
    assert qm.local.queues["APP.Q"].usage == CMQC.MQUS_TRANSMISSION
    alias = AliasQueue("APP.Q", target="APP.BASE", qsg_disp=GROUP)
    copies.define_copy(qm, "QUEUE", alias)
    assert qm.local.queues["APP.Q"] == dataclasses.replace(alias, qsg_disp=COPY)
    copies.define_copy(qm, "QUEUE", group)
    assert qm.local.queues["APP.Q"] == dataclasses.replace(group, qsg_disp=COPY)


@pytest.mark.parametrize("syncpoint", [False, True])
def test_a_copy_queue_that_holds_messages_is_not_deleted(syncpoint: bool) -> None:
    # "Managing group objects", skip rule (b): the copy queue holds messages (committed,
    # or put in a unit of work not yet ended), so its DELETE ... QSGDISP(COPY) is skipped.
    qm = _member("QM1")
    copies.define_copy(qm, "QUEUE", QueueDefinition("APP.Q", qsg_disp=GROUP))
    options = CMQC.MQPMO_SYNCPOINT if syncpoint else CMQC.MQPMO_NO_SYNCPOINT
    qm.connect().put1("APP.Q", b"m", MD(Version=2), PMO(Options=options), now=0.0)
    with pytest.raises(copies.CopySkippedError) as skipped:
        copies.delete_copy(qm, "QUEUE", "APP.Q")
    assert str(skipped.value) == "the copy of APP.Q holds messages"
    assert "APP.Q" in qm.local.queues


@pytest.mark.parametrize("kind", ["QUEUE", "CHANNEL", "PROCESS", "NAMELIST", "STGCLASS"])
def test_delete_qsgdisp_copy_removes_the_members_copy_and_then_finds_none(kind: str) -> None:
    # "DELETE ... QSGDISP(COPY)": the copy goes; a second is MQRC_UNKNOWN_OBJECT_NAME.
    qm = _member("QM1")
    group = _group_objects()[kind]
    copies.define_copy(qm, kind, group)
    copies.delete_copy(qm, kind, group.name)
    assert group.name not in copies.PAGE_SET_0[kind].objects(qm)
    with pytest.raises(MQMIError) as refused:
        copies.delete_copy(qm, kind, group.name)
    assert refused.value.reason == CMQC.MQRC_UNKNOWN_OBJECT_NAME


def test_an_empty_alias_or_model_copy_is_deleted_whatever_a_queue_of_its_name_holds() -> None:
    # Only a local queue holds messages: an alias or model copy is deleted.
    qm = _member("QM1")
    for record in (
        AliasQueue("APP.A", target="APP.Q", qsg_disp=GROUP),
        QueueDefinition(
            "APP.M",
            q_type=CMQC.MQQT_MODEL,
            definition_type=CMQC.MQQDT_TEMPORARY_DYNAMIC,
            qsg_disp=GROUP,
        ),
    ):
        copies.define_copy(qm, "QUEUE", record)
        copies.delete_copy(qm, "QUEUE", record.name)
        assert record.name not in qm.local.queues


def test_a_member_s_start_refreshes_every_copy_and_deletes_those_whose_group_object_went() -> None:
    # "Managing group objects": a member that was not active when a GROUP object
    # changed picks the change up at its next start; the skip rules keep a copy and the
    # refresh names it, KIND(name), with why; SHARED queues make no copies.
    qm = _member("QM1")
    repository = GroupRepository()
    for kind, group in _group_objects().items():
        repository.put(kind, group)
    repository.put("QUEUE", QueueDefinition("APP.FULL", qsg_disp=GROUP))
    repository.put("QUEUE", QueueDefinition("APP.SQ", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="S"))
    assert copies.refresh(qm, repository) == {}
    assert qm.local.processes["APP.P"].qsg_disp == COPY
    assert "APP.SQ" not in qm.local.queues
    qm.connect().put1("APP.FULL", b"m", MD(Version=2), PMO(Options=NO_SYNC), now=0.0)
    qm.local.processes["OWN.P"] = ProcessDefinition("OWN.P")
    repository.delete("QUEUE", "APP.FULL")
    repository.delete("NAMELIST", "APP.NL")
    repository.put("PROCESS", ProcessDefinition("APP.P", appl_id="NEW", qsg_disp=GROUP))
    repository.put("PROCESS", ProcessDefinition("OWN.P", qsg_disp=GROUP))
    assert copies.refresh(qm, repository) == {
        "QUEUE(APP.FULL)": "the copy of APP.FULL holds messages",
        "PROCESS(OWN.P)": "QM1 has its own OWN.P of QSGDISP(QMGR)",
    }
    assert qm.local.processes["APP.P"].appl_id == "NEW"
    assert qm.local.processes["OWN.P"].qsg_disp == QMGR_DISP
    assert "APP.NL" not in qm.local.namelists and "APP.FULL" in qm.local.queues


def test_a_refresh_names_a_copy_the_member_refuses_and_goes_on() -> None:
    # A copy the queue manager itself refuses (an open local copy queue it cannot delete
    # to make it a model queue, MQRC_OBJECT_IN_USE) is named with the refusal; the other
    # copies are still made.
    qm = _member("QM1")
    repository = GroupRepository()
    repository.put("QUEUE", QueueDefinition("APP.Q", qsg_disp=GROUP))
    copies.refresh(qm, repository)
    qm.connect().open("APP.Q", CMQC.MQOO_INPUT_SHARED)
    model = QueueDefinition(
        "APP.Q",
        q_type=CMQC.MQQT_MODEL,
        definition_type=CMQC.MQQDT_TEMPORARY_DYNAMIC,
        qsg_disp=GROUP,
    )
    repository.put("QUEUE", model)
    repository.put("PROCESS", ProcessDefinition("APP.P", qsg_disp=GROUP))
    skipped = copies.refresh(qm, repository)
    assert list(skipped) == ["QUEUE(APP.Q)"] and "MQRC_OBJECT_IN_USE" in skipped["QUEUE(APP.Q)"]
    assert "APP.P" in qm.local.processes
    repository.unavailable = "Db2 down"
    with pytest.raises(MQMIError) as refused:
        copies.refresh(qm, repository)
    assert refused.value.reason == CMQC.MQRC_DB2_NOT_AVAILABLE


def test_a_group_command_fans_its_copy_command_out_and_names_the_members_that_missed_it() -> None:
    # "Managing group objects": the generated command goes to every active member; a
    # member that refuses is named with why, the others go on.
    members = {"QM1": _member("QM1"), "QM2": QMgr("QM2")}
    members["QM2"].local.processes["APP.P"] = ProcessDefinition("APP.P")
    group = ProcessDefinition("APP.P", qsg_disp=GROUP)
    made = copies.fan_out(members, "PROCESS", "DEFINE PROCESS(APP.P) QSGDISP(COPY)", group)
    assert made == copies.Generated(
        "DEFINE PROCESS(APP.P) QSGDISP(COPY)",
        (("QM1", ""), ("QM2", "QM2 has its own APP.P of QSGDISP(QMGR)")),
    )
    assert made.missed == ("QM2",)
    assert members["QM1"].local.processes["APP.P"].qsg_disp == COPY
    gone = copies.fan_out(members, "PROCESS", "DELETE PROCESS(APP.P) QSGDISP(COPY)", "APP.P")
    assert gone.command == "DELETE PROCESS(APP.P) QSGDISP(COPY)"
    assert gone.outcomes == (
        ("QM1", ""),
        (
            "QM2",
            "MQCC_FAILED: MQRC_UNKNOWN_OBJECT_NAME (2085): QM2 has no QSGDISP(COPY) object APP.P",
        ),
    )
    assert "APP.P" not in members["QM1"].local.processes
    assert copies.Generated("X", (("QM1", ""),)).missed == ()


# ---- grouprepo: the group's shared repository (Db2's tables) ----------------------------
def test_the_repository_keeps_every_definition_record_in_one_table_per_object_type() -> None:
    # "Managing group objects": queues of every type share one namespace, as in MQ.
    assert grouprepo.KINDS == ("QUEUE", "CHANNEL", "PROCESS", "NAMELIST", "STGCLASS", "CFSTRUCT")
    assert {
        "QueueDefinition": QueueDefinition,
        "AliasQueue": AliasQueue,
        "RemoteQueue": RemoteQueue,
        "ChannelDefinition": ChannelDefinition,
        "ProcessDefinition": ProcessDefinition,
        "NamelistDefinition": NamelistDefinition,
        "StorageClass": StorageClass,
        "CFStructure": CFStructure,
    } == grouprepo.RECORDS


def test_a_row_is_its_records_class_and_fields_in_json_and_reads_back_with_tuples() -> None:
    # Rows are text, as the coupling facility's server keeps them: both stores answer
    # alike; JSON's lists are the records' tuples again, nested too.
    namelist = NamelistDefinition("APP.NL", names=("A", "B"), qsg_disp=GROUP)
    row = grouprepo.encode(namelist)
    assert json.loads(row) == {
        "record": "NamelistDefinition",
        "fields": json.loads(json.dumps(dataclasses.asdict(namelist))),
    }
    assert row == json.dumps(json.loads(row), sort_keys=True)
    assert grouprepo.decode(row) == namelist
    kept = QueueDefinition("APP.Q", kept=(("STGCLASS", "X"), ("CLUSTER", "C")), qsg_disp=GROUP)
    assert grouprepo.decode(grouprepo.encode(kept)) == kept


def test_the_in_process_store_keeps_rows_by_table_and_name() -> None:
    store = grouprepo.MemoryRepositoryStore()
    assert store.read("QUEUE", "A") is None and store.read_all("QUEUE") == {}
    store.write("QUEUE", "A", "row a")
    store.write("PROCESS", "A", "row p")
    store.write("QUEUE", "A", "row a2")
    assert (store.read("QUEUE", "A"), store.read("PROCESS", "A")) == ("row a2", "row p")
    everything = store.read_all("QUEUE")
    everything["B"] = "not kept"
    assert store.read_all("QUEUE") == {"A": "row a2"}
    assert store.remove("QUEUE", "A") is True
    assert store.remove("QUEUE", "A") is False and store.remove("CHANNEL", "A") is False
    assert store.read("QUEUE", "A") is None and store.read("PROCESS", "A") == "row p"


def test_the_repository_lists_a_tables_definitions_in_name_order_and_group_objects_alone() -> None:
    # "Managing group objects": GROUP objects are the ones each member copies; SHARED
    # queues are kept beside them, and a CF structure (no QSGDISP) is a group object.
    repository = grouprepo.GroupRepository()
    assert repository.unavailable == "" and repository.joining is False
    assert isinstance(repository.store, grouprepo.MemoryRepositoryStore)
    for name in ("C", "A", "B"):
        repository.put("QUEUE", QueueDefinition(name, qsg_disp=GROUP))
    shared = QueueDefinition("S", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")
    repository.put("QUEUE", shared)
    assert list(repository.all("QUEUE")) == ["A", "B", "C", "S"]
    assert list(repository.group_objects("QUEUE")) == ["A", "B", "C"]
    repository.put("CFSTRUCT", CFStructure("APP1"))
    assert repository.group_objects("CFSTRUCT") == {"APP1": CFStructure("APP1")}
    assert repository.get("QUEUE", "S") == shared and repository.get("QUEUE", "Z") is None
    assert repository.delete("QUEUE", "S") is True and repository.delete("QUEUE", "S") is False
    store = grouprepo.MemoryRepositoryStore()
    assert grouprepo.GroupRepository(store).store is store


def test_while_db2_is_unavailable_every_repository_call_is_mqrc_db2_not_available() -> None:
    # MQRC_DB2_NOT_AVAILABLE (2342) on each call, naming why; nothing changes.
    repository = grouprepo.GroupRepository()
    repository.put("PROCESS", ProcessDefinition("P", qsg_disp=GROUP))
    repository.unavailable = "repository_unavailable fault"
    for call, args in (
        (repository.check, ()),
        (repository.get, ("PROCESS", "P")),
        (repository.put, ("PROCESS", ProcessDefinition("Q", qsg_disp=GROUP))),
        (repository.delete, ("PROCESS", "P")),
        (repository.all, ("PROCESS",)),
        (repository.group_objects, ("PROCESS",)),
    ):
        assert refusal_detail(CMQC.MQCC_FAILED, CMQC.MQRC_DB2_NOT_AVAILABLE, call, *args) == (
            "the shared repository (Db2) is not available: repository_unavailable fault"
        )
    repository.unavailable = ""
    assert list(repository.all("PROCESS")) == ["P"]


# ---- geometry: a CF structure's entries and elements ------------------------------------
def test_a_structure_of_size_kb_holds_size_entries_and_four_times_size_elements() -> None:
    # "Planning your coupling facility and offload storage environment": list entries
    # and 256-byte elements; qsg's model: SIZE entries and 4 x SIZE elements.
    assert (geometry.ELEMENT_BYTES, geometry.CONTROL_BYTES) == (256, 200)
    assert (geometry.ENTRIES_PER_KB, geometry.ELEMENTS_PER_KB) == (1, 4)
    assert (geometry.max_entries(1024), geometry.max_elements(1024)) == (1024, 4096)
    assert (geometry.max_entries(0), geometry.max_elements(0)) == (0, 0)
    # Counts of entries and elements are whole numbers (DISPLAY CFSTATUS shows them so).
    assert type(geometry.max_entries(1024)) is int and type(geometry.max_elements(3)) is int


@pytest.mark.parametrize(
    ("data", "elements"), [(0, 1), (56, 1), (57, 2), (312, 2), (313, 3), (4096, 17)]
)
def test_a_message_takes_its_data_and_200_control_bytes_in_256_byte_elements(
    data: int, elements: int
) -> None:
    # Its data kept in the structure (none when offloaded) and CONTROL_BYTES of control
    # storage, rounded up to whole elements; an offloaded message takes one.
    assert geometry.elements(data) == elements
    assert geometry.CONTROL_ELEMENTS == 1


def test_a_structures_percent_full_is_the_fuller_of_its_entries_and_its_elements() -> None:
    # What the offload rules compare with OFFLDnTH; a structure with no maxima is empty.
    assert geometry.percent_full(10, 20, 100, 400) == 10.0
    assert geometry.percent_full(10, 200, 100, 400) == 50.0
    assert geometry.percent_full(3, 4, 0, 0) == 0.0
    assert geometry.percent_full(3, 100, 0, 400) == 25.0
    assert geometry.percent_full(30, 4, 100, 0) == 30.0


def test_a_structure_is_full_for_a_message_when_no_entry_or_too_few_elements_are_left() -> None:
    # "2192 (0890) (RC2192): MQRC_STORAGE_MEDIUM_FULL": full "if either all ENTRYs or
    # all ELEMENTs are in use"; the put that takes the last entry or element succeeds.
    assert geometry.has_room(99, 398, 2, 100, 400)
    assert not geometry.has_room(100, 0, 1, 100, 400)
    assert not geometry.has_room(0, 398, 3, 100, 400)
    assert geometry.has_room(0, 0, 400, 100, 400)


def test_a_message_key_orders_by_priority_then_arrival_and_holds_its_arrival_number() -> None:
    # A priority queue: (9 - priority) << 40 | seq, higher priorities first; a FIFO
    # queue: the arrival number alone; below 2**53, which a Lua number holds exactly.
    assert (geometry.SEQ_BITS, geometry.SEQ_MASK) == (40, 2**40 - 1)
    assert geometry.message_key(7, 9, True) == 7
    assert geometry.message_key(7, 0, True) == 9 * 2**40 + 7
    assert geometry.message_key(7, 0, False) == 7
    assert geometry.message_key(2**40 - 1, 0, True) < 2**53
    assert geometry.seq_of(geometry.message_key(12345, 4, True)) == 12345
    assert geometry.below_priority(4) == 6 * 2**40
    assert geometry.message_key(2**40 - 1, 4, True) < geometry.below_priority(4)
    assert geometry.message_key(0, 3, True) >= geometry.below_priority(4)
    assert geometry.MAX_SIZE_KB == 900_000_000


# ---- channels: sequence numbers under a SEQWRAP of the channel's, CHLAUTH's specificity --
def test_sequence_numbers_at_start_and_at_each_batch_wrap_at_the_channels_own_seqwrap() -> None:
    # "Sequence number wrap (SEQWRAP)": 100 to 999 999 999, the same at both ends; after
    # SEQWRAP comes 1 again, and 0 (nothing sent yet) is SEQWRAP, at start and at a batch.
    assert channels.check_batch(100, 1, wrap=100) is None
    assert channels.check_batch(99, 100, wrap=100) is None
    assert channels.check_batch(100, 101, wrap=100) == channels.Mismatch(101, 1)
    assert channels.at_start(0, 100, 0, wrap=100) is channels.Start.IN_SYNC
    assert channels.at_start(100, 0, 0, wrap=100) is channels.Start.IN_SYNC
    assert channels.at_start(50, 50, 0, wrap=100) is channels.Start.IN_SYNC
    assert channels.at_start(50, 50, 4, wrap=100) is channels.Start.COMMIT
    assert channels.at_start(99, 2, 3, wrap=100) is channels.Start.BACK_OUT
    assert channels.at_start(100, 50, 0, wrap=100) == channels.Mismatch(51, 1)
    assert channels.at_start(10, 100, 0, wrap=100) == channels.Mismatch(1, 11)
    assert channels.at_start(10, 1, 3, wrap=100) == channels.Mismatch(99, 11)


def test_a_chlauth_profile_has_at_most_20_characters_and_a_qmname_at_most_48() -> None:
    # "SET CHLAUTH": the profile is a channel name (20 characters), QMNAME a queue
    # manager name (48), each generic with asterisks.
    assert channels.QMgrMap("A" * 19 + "*", "Q" * 47 + "*").profile == "A" * 19 + "*"
    for profile, qmname, what in (("A" * 21, "QM1", "CHLAUTH"), ("A", "Q" * 49, "QMNAME")):
        with pytest.raises(ValueError, match=rf"^{what}\("):
            channels.QMgrMap(profile, qmname)


@pytest.mark.parametrize(
    ("records", "blocked"),
    [
        # The first asterisk decides, not the last: AB* is more specific than A*CDE*.
        ((("AB*", "NOACCESS"), ("A*CDE*", "CHANNEL")), True),
        ((("AB*", "CHANNEL"), ("A*CDE*", "NOACCESS")), False),
        # A profile that begins with an asterisk is the least specific of all.
        ((("*BCDEF", "NOACCESS"), ("AB*", "CHANNEL")), False),
        ((("*BCDEF", "CHANNEL"), ("A*", "NOACCESS")), True),
        # No asterisk: the profile is the channel's name, the most specific.
        ((("ABCDEF", "NOACCESS"), ("ABCDE*", "CHANNEL")), True),
    ],
)
def test_the_chlauth_record_with_the_most_specific_channel_profile_decides(
    records: tuple[tuple[str, str], ...], blocked: bool
) -> None:
    # "Channel authentication records": the most specific match is used; qsg ranks a
    # generic name by its first asterisk (the later, the more specific), then by the
    # characters that are not asterisks.
    maps = [channels.QMgrMap(p, "*", channels.UserSource(u)) for p, u in records]
    assert (channels.blocking(maps, "ABCDEF", "QM9") is not None) is blocked


def test_a_member_named_xxxx_holding_a_shared_channel_keeps_it_from_a_plain_claim() -> None:
    # One instance in the group: a claim that replaces no failed member takes nothing
    # from whichever member holds the channel, whatever its name.
    status = sharedchl.MemoryChannelStatus()
    held = sharedchl.SharedInstance("TO.QM3", "XXXX", SHARED)
    assert status.claim(held) is None
    assert status.claim(sharedchl.SharedInstance("TO.QM3", "QM2", SHARED)) == held
    assert status.holder("TO.QM3") == held


# ---- facilities: where a group's structures live among its coupling facilities ----------
def _three() -> Placement:
    placement = Placement(("CF01", "CF02", "CF03"))
    placement.allocate(CFStructure("APP1"))
    placement.allocate(CFStructure("DUP1", duplex=True))
    placement.allocate(CFStructure("DUP2", duplex=True, preference=("CF02", "CF01")))
    return placement


@pytest.mark.parametrize(
    ("facilities", "words"),
    [
        ((), "a group needs at least one coupling facility"),
        (("A", "A"), "a group names a coupling facility twice"),
    ],
)
def test_a_group_has_one_coupling_facility_or_more_each_named_once(
    facilities: tuple[str, ...], words: str
) -> None:
    with pytest.raises(ValueError, match=f"^{words}$"):
        Placement(facilities)


@pytest.mark.parametrize(
    ("structure", "words"),
    [
        (
            CFStructure("A", preference=("CF03",)),
            "CF structure A: its preference list names CF03, not a facility of the group "
            "(CF01, CF02)",
        ),
        (
            CFStructure("A", preference=("CF01",), duplex=True),
            "CF structure A: duplex needs two coupling facilities (the group has CF01, CF02)",
        ),
    ],
)
def test_a_preference_list_refused_names_the_groups_facilities(
    structure: CFStructure, words: str
) -> None:
    # The CFRM policy's PREFLIST names facilities of the group; DUPLEX(ENABLED) needs a
    # second facility in it.
    with pytest.raises(ValueError, match=f"^{re.escape(words)}$"):
        check_preference(structure, ("CF01", "CF02"))


def test_a_structure_allocated_again_stays_where_it_is_and_may_stop_being_duplexed() -> None:
    # DEFINE or ALTER CFSTRUCT of a structure already allocated: it stays in its
    # facility (also a failed one, until it is back); DUPLEX off is no longer duplexed
    # again; a structure no facility holds is in none ('').
    placement = _three()
    placement.allocate(CFStructure("DUP1"))
    assert "DUP1" not in placement.duplex and "DUP2" in placement.duplex
    placement.lose("CF01")
    assert placement.facility_of("APP1") == "CF02"
    placement.restore("CF01")
    placement.allocate(CFStructure("APP1"))
    assert placement.facility_of("APP1") == "CF02"
    placement.crash("CF02")
    placement.allocate(CFStructure("APP1"))
    assert placement.facility_of("APP1") == "CF02"
    assert placement.facility_of("NONE") == ""


def test_a_crashed_facility_keeps_its_structures_failed_there_and_a_duplex_goes_on_elsewhere() -> (
    None
):
    # "Coupling Facility failure", with nothing to rebuild into (the facility's server
    # died, to be restarted): a duplexed structure carries on in its other instance
    # (KEPT, duplexing dropped); any other stays where it is, FAILED, until it is back;
    # a later loss of that facility moves nothing out of it.
    placement = _three()
    assert placement.crash("CF01") == [
        Move("APP1", FAILED, "CF01"),
        Move("DUP1", KEPT, "CF02"),
        Move("DUP2", KEPT, "CF02"),
    ]
    assert "CF01" in placement.crashed and "CF01" not in placement.alive
    assert (placement.facility_of("APP1"), placement.facility_of("DUP1")) == ("CF01", "CF02")
    assert not placement.duplexed("DUP1") and not placement.duplexed("DUP2")
    assert placement.lose("CF01") == [Move("APP1", FAILED, "CF01")]
    assert placement.reconnect(["APP1"], {"CF01"}) == [Move("APP1", FAILED, "CF01")]
    assert placement.crash("CF03") == []


def test_a_facility_back_after_a_crash_is_a_facility_like_the_others_again() -> None:
    # Once back, its structures are rebuilt out of it when it is lost, as anywhere.
    placement = _three()
    placement.crash("CF01")
    assert placement.restore("CF01") == ["DUP1", "DUP2"]
    assert placement.crashed == set()
    assert placement.lose("CF01")[0] == Move("APP1", REBUILT, "CF02")


def test_a_restore_looks_past_a_structure_still_failed_in_another_crashed_facility() -> None:
    # A structure failed in its own crashed facility waits for it; the others are
    # duplexed again with the facility that is back.
    placement = _three()
    placement.allocate(CFStructure("BDUP", duplex=True, preference=("CF02", "CF03")))
    placement.crash("CF01")
    placement.lose("CF03")
    assert not placement.duplexed("BDUP")
    assert placement.restore("CF03") == ["BDUP", "DUP1"]
    assert placement.secondary["BDUP"] == "CF03"


def test_a_member_that_reaches_neither_instance_of_a_duplex_rebuilds_it_where_it_can() -> None:
    # CFCONLOS TOLERATE: a member that reaches neither instance reconnects by a rebuild
    # into a facility it reaches, duplexing dropped (no third facility it reaches).
    placement = _three()
    assert placement.reconnect(["DUP1"], {"CF01", "CF02"}) == [Move("DUP1", REBUILT, "CF03")]
    assert placement.facility_of("DUP1") == "CF03" and not placement.duplexed("DUP1")


def test_a_rebuilt_structure_without_duplex_gets_no_second_instance() -> None:
    placement = _three()
    assert placement.lose("CF01")[0] == Move("APP1", REBUILT, "CF02")
    assert not placement.duplexed("APP1")


def test_reduplex_names_only_the_structures_duplexed_again() -> None:
    # DUPLEX(ENABLED) after a link is back: the structures with a second instance now;
    # not those without duplex, already duplexed, or with no second facility.
    placement = _three()
    placement.allocate(CFStructure("ONE", duplex=True, preference=("CF01", "CF02")))
    assert placement.reduplex() == []
    placement.lose("CF02")
    assert placement.reduplex() == []
    assert placement.restore("CF02") == ["DUP2", "ONE"]


def test_a_facility_may_have_any_name_the_scenario_gives_it() -> None:
    # Nothing in the bookkeeping takes a name for "none": a facility named XXXX is one
    # like the others.
    placement = Placement(("XXXX", "CF02"))
    placement.allocate(CFStructure("APP1", preference=("CF02", "XXXX")))
    assert placement.crash("CF02") == [Move("APP1", FAILED, "CF02")]
    other = Placement(("CF01", "XXXX"))
    other.allocate(CFStructure("APP1"))
    other.lose("CF01")
    other.lose("XXXX")
    assert other.reconnect(["APP1"], set()) == [Move("APP1", FAILED)]
    assert other.restore("XXXX") == ["APP1"]


def test_a_facility_back_that_a_failed_structure_does_not_prefer_leaves_it_failed() -> None:
    # A structure is allocated only in a facility of its own preference list.
    placement = Placement(("CF01", "CF02", "CF03"))
    placement.allocate(CFStructure("ONLY1", preference=("CF01",)))
    assert placement.lose("CF01") == [Move("ONLY1", FAILED)]
    assert placement.restore("CF03") == []
    assert placement.facility_of("ONLY1") == ""
    assert placement.restore("CF01") == ["ONLY1"]


def test_an_open_copy_queue_is_not_made_an_alias_its_usage_would_go() -> None:
    # Skip rule (a): an alias has no USAGE, so an open local copy queue's USAGE would
    # change; the copy is left as it is.
    qm = _member("QM1")
    copies.define_copy(qm, "QUEUE", QueueDefinition("APP.Q", qsg_disp=GROUP))
    qm.connect().open("APP.Q", CMQC.MQOO_INPUT_SHARED)
    with pytest.raises(copies.CopySkippedError, match="open and its USAGE would change"):
        copies.define_copy(qm, "QUEUE", AliasQueue("APP.Q", target="X", qsg_disp=GROUP))
    assert isinstance(qm.local.queues["APP.Q"], QueueDefinition)


class _Refusing:
    """A member (``CopyHolder``) whose queue manager refuses a channel without a word."""

    def __init__(self) -> None:
        self.name = "QM9"
        self.local = Repository(MemoryStore())
        self.incarnation = 1

    def define(self, obj: QueueObject, *, replace: bool = False) -> QueueObject:
        return obj

    def delete_queue(self, name: str, *, purge: bool = False) -> None:
        pass

    def define_channel(self, channel: ChannelDefinition, *, replace: bool = False) -> None:
        raise ValueError()

    def define_process(self, process: ProcessDefinition, *, replace: bool = False) -> None:
        pass


def test_a_member_refusing_a_generated_command_without_a_word_is_named_with_the_refusal() -> None:
    # A missed member is always named with why: the refusal's class when it says nothing.
    channel = ChannelDefinition("TO.QM3", CMQC.MQCHT_SENDER, "host", "QM3", qsg_disp=GROUP)
    made = copies.fan_out({"QM9": _Refusing()}, "CHANNEL", "DEFINE CHANNEL(TO.QM3)", channel)
    assert made.outcomes == (("QM9", "ValueError"),) and made.missed == ("QM9",)


def test_a_structure_failed_in_a_crashed_facility_is_duplexed_again_only_once_it_is_back() -> None:
    # System-managed duplexing copies a structure's instance into a second facility: a
    # structure failed with its crashed facility has no instance to copy, so neither
    # DUPLEX(ENABLED) again (reduplex) nor a DEFINE again gives it a second instance
    # (fails before the fix: it got one, left behind in a facility lost after).
    placement = Placement(("CF01", "CF02", "CF03"))
    placement.allocate(CFStructure("DUP", duplex=True, preference=("CF01", "CF02")))
    placement.lose("CF02")
    assert placement.crash("CF01") == [Move("DUP", FAILED, "CF01")]
    placement.restore("CF02")
    assert placement.reduplex() == []
    placement.allocate(CFStructure("DUP", duplex=True, preference=("CF01", "CF02")))
    assert not placement.duplexed("DUP")
    placement.restore("CF01")
    assert placement.secondary["DUP"] == "CF02"  # back in its facility, duplexed again


def test_a_duplex_rebuilt_past_both_its_unreachable_instances_keeps_no_stale_second_one() -> None:
    # A member that reaches neither instance of a duplexed structure rebuilds it into a
    # facility it reaches: the old second instance is not its duplex any more, and with
    # no fourth facility nothing duplexes it again (fails if the rebuild keeps CF02).
    placement = Placement(("CF01", "CF02", "CF03"))
    placement.allocate(CFStructure("DUP", duplex=True))
    assert (placement.primary["DUP"], placement.secondary["DUP"]) == ("CF01", "CF02")
    moves = placement.reconnect(["DUP"], {"CF01", "CF02"})
    assert moves == [Move("DUP", REBUILT, "CF03")]
    assert placement.facility_of("DUP") == "CF03"
    assert not placement.duplexed("DUP")
    assert placement.structures_in("CF02") == []
