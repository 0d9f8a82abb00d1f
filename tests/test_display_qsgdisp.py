"""DISPLAY's QSGDISP selector over the dispositions qsg has (QMGR and SHARED), and LIKE,
which never copies a disposition.

IBM: "DISPLAY QUEUE" (QSGDISP: LIVE, the default, the objects defined QMGR or COPY and,
in a queue-sharing group, the shared queues; ALL those and GROUP; QMGR, COPY, GROUP,
SHARED exactly that disposition; PRIVATE, QMGR or COPY), "DEFINE queues" (LIKE: "The
disposition of the LIKE object is not copied"), and "Inquire Queue" (QSGDisposition).
"""

from __future__ import annotations

import re

import pytest

from qsg import CMQC
from qsg import CMQCFC as F
from qsg.core.objects import CFStructure
from qsg.core.qmgr import QMgr
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc import MQSCError, commands, load, status
from qsg.mqsc.pcf import Header, Message
from qsg.mqsc.pcf_inquiries import inquire_q_names


def member() -> QMgr:
    """QM1 of QSG1: its own APP.LOCAL and APP.MODEL, the group's APP.SHARED (defined
    from QM2), and not QM2's own APP.OTHER."""
    group = QueueSharingGroup("QSG1")
    qm1, qm2 = QMgr("QM1", qsg=group), QMgr("QM2", qsg=group)
    qm2.define_structure(CFStructure("APP1", recover=True))
    load(qm2, "DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1)\nDEFINE QLOCAL(APP.OTHER)")
    load(qm1, "DEFINE QLOCAL(APP.LOCAL)\nDEFINE QMODEL(APP.MODEL)")
    return qm1


def run(qm: QMgr, text: str) -> list[str]:
    return list(commands.run(commands.parse(text), qm, lambda: status.take(qm, 0.0)).lines)


def shown(qm: QMgr, text: str) -> list[tuple[str, str]]:
    """(name, QSGDISP) of each object a DISPLAY lists."""
    lines = [line for line in run(qm, text) if line.startswith("CSQM401I")]
    return [re.search(r"QUEUE\((\S+)\) TYPE\(\w+\) QSGDISP\((\w+)\)", x).groups() for x in lines]  # type: ignore[union-attr]


LOCAL, SHARED = ("APP.LOCAL", "QMGR"), ("APP.SHARED", "SHARED")


@pytest.mark.parametrize(
    ("selector", "expected"),
    [
        ("", [LOCAL, SHARED]),  # LIVE, the default
        (" QSGDISP(LIVE)", [LOCAL, SHARED]),
        (" QSGDISP(ALL)", [LOCAL, SHARED]),
        (" QSGDISP(QMGR)", [LOCAL]),
        (" QSGDISP(PRIVATE)", [LOCAL]),
        (" QSGDISP(SHARED)", [SHARED]),
    ],
)
def test_display_qlocal_with_qsgdisp_lists_the_members_own_queues_and_the_groups_shared_ones(
    selector: str, expected: list[tuple[str, str]]
) -> None:
    assert shown(member(), "DISPLAY QLOCAL(APP.*)" + selector) == expected


def test_qsgdisp_copy_or_group_finds_nothing_where_no_object_has_it() -> None:
    # qsg defines no GROUP objects and so no COPY objects: a generic name matches none.
    qm = member()
    for disposition in ("COPY", "GROUP"):
        lines = run(qm, f"DISPLAY QUEUE(*) QSGDISP({disposition})")
        assert lines[0] == "CSQM297I !QM1 CSQMDRTS NO QUEUE FOUND MATCHING REQUEST CRITERIA"
    # A specific name of another disposition is not found either.
    lines = run(qm, "DISPLAY QLOCAL(APP.SHARED) QSGDISP(QMGR)")
    assert lines[0] == "CSQM125I !QM1 CSQMDRTS QLOCAL(APP.SHARED) WAS NOT FOUND"
    assert shown(qm, "DISPLAY QUEUE(APP.*) TYPE(QMODEL) QSGDISP(QMGR)") == [("APP.MODEL", "QMGR")]


def test_a_qsgdisp_display_does_not_take_is_refused_in_one_line() -> None:
    qm = member()
    lines = run(qm, "DISPLAY QLOCAL(*) QSGDISP(EVERYWHERE)")
    assert lines[0] == "CSQ9001E !QM1 'QSGDISP(EVERYWHERE)' IS INVALID"
    assert lines[-1] == "CSQ9023E !QM1 CSQMDRTS ' DISPLAY QLOCAL' ABNORMAL COMPLETION"
    # QSGDISP chooses objects; it is not a WHERE keyword (DISPLAY QUEUE's usage notes).
    assert run(qm, "DISPLAY QLOCAL(*) WHERE(QSGDISP EQ SHARED)")[0].startswith("CSQ9")


def test_display_channel_takes_qsgdisp_and_its_channels_are_qmgr() -> None:
    qm = member()
    load(qm, "DEFINE CHANNEL(QM1.TO.QM3) CHLTYPE(SDR) CONNAME('h(1414)') XMITQ(QM3)")
    load(qm, "DEFINE QLOCAL(QM3) USAGE(XMITQ)")
    for disposition, found in (("ALL", 1), ("QMGR", 1), ("PRIVATE", 1), ("GROUP", 0)):
        lines = run(qm, f"DISPLAY CHANNEL(*) QSGDISP({disposition})")
        assert sum(line.startswith("CSQM406I") for line in lines) == found, lines
    assert run(qm, "DISPLAY CHANNEL(*) QSGDISP(SHARED)")[0] == (
        "CSQ9001E !QM1 'QSGDISP(SHARED)' IS INVALID"  # shared: local queues only
    )


def test_pcf_inquire_q_answers_the_qsgdisposition_asked_for() -> None:
    qm = member()

    def names(disposition: int) -> list[str]:
        asked = {CMQC.MQCA_Q_NAME: "APP.*", CMQC.MQIA_QSG_DISP: disposition}
        request = Message(Header(F.MQCFT_COMMAND, F.MQCMD_INQUIRE_Q_NAMES), asked)
        ((reply, _, _),) = inquire_q_names(request, qm, status.take(qm, 0.0))
        assert reply[0] == F.MQCACF_Q_NAMES
        return list(reply[1])  # type: ignore[arg-type]

    assert names(CMQC.MQQSGD_SHARED) == ["APP.SHARED"]
    assert names(CMQC.MQQSGD_Q_MGR) == ["APP.LOCAL", "APP.MODEL"]
    assert names(CMQC.MQQSGD_ALL) == ["APP.LOCAL", "APP.MODEL", "APP.SHARED"]


def test_like_never_copies_a_disposition() -> None:
    # "The disposition of the LIKE object is not copied to the object you are defining":
    # LIKE a shared queue makes a queue of this queue manager, unless QSGDISP says else.
    qm = member()
    load(qm, "DEFINE QLOCAL(APP.COPIED) LIKE(APP.SHARED) MAXDEPTH(7)")
    assert shown(qm, "DISPLAY QLOCAL(APP.COPIED)") == [("APP.COPIED", "QMGR")]
    copied = qm.queue("APP.COPIED")
    assert (copied.max_depth, copied.is_shared) == (7, False)
    assert qm.repository_of(copied) is qm.local
    load(qm, "DEFINE QLOCAL(APP.SHARED2) LIKE(APP.LOCAL) QSGDISP(SHARED) CFSTRUCT(APP1)")
    assert qm.queue("APP.SHARED2").is_shared


def test_a_like_that_names_no_queue_of_the_type_is_refused_and_defines_nothing() -> None:
    qm = member()
    with pytest.raises(MQSCError, match=r"LIKE\(APP\.NONE\) names no QLOCAL"):
        load(qm, "DEFINE QLOCAL(APP.X) LIKE(APP.NONE)")
    assert qm.find("APP.X") is None
