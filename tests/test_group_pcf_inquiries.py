"""PCF Inquire Channel, Inquire Process, Inquire Namelist and Inquire Storage Class with
QSGDisposition, and the QSGDisposition each reply carries, in PCF bytes through the
command server's door (``pcf_commands.process``), read back with struct alone.

IBM: "Inquire Channel" and "Inquire Process" take QSGDisposition (MQIA_QSG_DISP):
MQQSGD_LIVE (the default: objects defined QMGR or COPY), MQQSGD_ALL (adds GROUP),
MQQSGD_Q_MGR, MQQSGD_COPY, MQQSGD_GROUP, MQQSGD_PRIVATE; on z/OS their responses
always carry the object's name and its QSGDisposition ("Inquire Channel (Response)",
"Inquire Process (Response)").
"""

from __future__ import annotations

import pytest

from qsg import CMQC
from qsg import CMQCFC as F
from qsg.core.qmgr import QMgr
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc import load, pcf_commands, status
from qsg.mqsc.pcf import Header, encode
from tests.claims import keeps
from tests.test_pcf_command_server import parse

ENCODING = CMQC.MQENC_INTEGER_REVERSED
MQSC = """
DEFINE CHANNEL(CH.OWN) CHLTYPE(RCVR)
DEFINE CHANNEL(CH.GROUP) CHLTYPE(RCVR) QSGDISP(GROUP)
DEFINE PROCESS(PR.OWN)
DEFINE PROCESS(PR.GROUP) QSGDISP(GROUP)
DEFINE NAMELIST(PR.OWN)
DEFINE NAMELIST(PR.GROUP) QSGDISP(GROUP)
"""
#: Each inquiry: its command, the parameter naming the object, the generic name, and
#: the attribute selector list's parameter.
INQUIRIES = {
    "channel": (F.MQCMD_INQUIRE_CHANNEL, F.MQCACH_CHANNEL_NAME, "CH.*", F.MQIACF_CHANNEL_ATTRS),
    "process": (F.MQCMD_INQUIRE_PROCESS, CMQC.MQCA_PROCESS_NAME, "PR.*", F.MQIACF_PROCESS_ATTRS),
    "namelist": (
        F.MQCMD_INQUIRE_NAMELIST,
        CMQC.MQCA_NAMELIST_NAME,
        "PR.*",
        F.MQIACF_NAMELIST_ATTRS,
    ),
}


def member() -> QMgr:
    group = QueueSharingGroup("QSG1")
    qm1, qm2 = QMgr("QM1", qsg=group), QMgr("QM2", qsg=group)
    group.active.update({"QM1": qm1, "QM2": qm2})
    load(qm1, MQSC)
    return qm1


def inquire(qm: QMgr, kind: str, *more: tuple[int, object]) -> list[tuple[list, dict]]:
    """The replies (header, parameters) to the inquiry ``kind`` with ``more`` parameters."""
    command, parameter, name, _ = INQUIRIES[kind]
    request = encode(Header(F.MQCFT_COMMAND, command), [(parameter, name), *more], ENCODING)
    return [parse(r) for r in pcf_commands.process(request, ENCODING, qm, status.take(qm, 0.0))]


def listed(qm: QMgr, kind: str, *more: tuple[int, object]) -> list[tuple[str, int]]:
    """(name, QSGDisposition) of each object an inquiry answers."""
    parameter = INQUIRIES[kind][1]
    out = []
    for header, parameters in inquire(qm, kind, *more):
        assert header[6:8] == (CMQC.MQCC_OK, CMQC.MQRC_NONE), header
        out.append((str(parameters[parameter]).strip(), parameters[CMQC.MQIA_QSG_DISP]))
    return out


COPY, GROUP, QMGR = CMQC.MQQSGD_COPY, CMQC.MQQSGD_GROUP, CMQC.MQQSGD_Q_MGR


@pytest.mark.parametrize("kind", list(INQUIRIES))
@pytest.mark.parametrize(
    ("disposition", "expected"),
    [
        (None, [(".GROUP", COPY), (".OWN", QMGR)]),
        (CMQC.MQQSGD_LIVE, [(".GROUP", COPY), (".OWN", QMGR)]),
        (CMQC.MQQSGD_ALL, [(".GROUP", COPY), (".GROUP", GROUP), (".OWN", QMGR)]),
        (CMQC.MQQSGD_Q_MGR, [(".OWN", QMGR)]),
        (CMQC.MQQSGD_COPY, [(".GROUP", COPY)]),
        (CMQC.MQQSGD_GROUP, [(".GROUP", GROUP)]),
        (CMQC.MQQSGD_PRIVATE, [(".GROUP", COPY), (".OWN", QMGR)]),
    ],
)
@keeps(
    "docs/mqsc.md",
    "PCF Inquire Channel, Inquire Process, Inquire Namelist and Inquire Storage Class take "
    "QSGDisposition as DISPLAY takes QSGDISP",
)
def test_pcf_inquiries_of_channels_processes_and_namelists_select_by_qsgdisposition(
    kind: str, disposition: int | None, expected: list[tuple[str, int]]
) -> None:
    """ "Inquire Channel", "Inquire Process", "Inquire Namelist": QSGDisposition selects
    as DISPLAY's QSGDISP does (LIVE the default, ALL adding GROUP, PRIVATE QMGR or
    COPY); each reply names its object's disposition."""
    more = [] if disposition is None else [(CMQC.MQIA_QSG_DISP, disposition)]
    prefix = INQUIRIES[kind][2].rstrip("*").rstrip(".")
    assert listed(member(), kind, *more) == [(prefix + s, d) for s, d in expected]


@pytest.mark.parametrize("kind", list(INQUIRIES))
@keeps("docs/mqsc.md", "every reply carries the object's QSGDisposition, asked for or not")
def test_each_reply_carries_qsgdisposition_when_other_attributes_are_asked_for(kind: str) -> None:
    """ "Inquire Channel (Response)", "Inquire Process (Response)": on z/OS the name and
    QSGDisposition are always returned, whatever the attribute list asks for."""
    selectors = (INQUIRIES[kind][3], [CMQC.MQCA_ALTERATION_DATE])
    replies = inquire(member(), kind, selectors)
    assert [p[CMQC.MQIA_QSG_DISP] for _, p in replies] == [COPY, QMGR]


@pytest.mark.parametrize("kind", list(INQUIRIES))
def test_qsgdisposition_shared_is_a_queues_only_and_is_refused_for_other_objects(
    kind: str,
) -> None:
    """MQQSGD_SHARED is not among Inquire Channel's or Inquire Process's values: the
    request is refused naming MQIA_QSG_DISP, nothing listed."""
    ((header, parameters),) = inquire(member(), kind, (CMQC.MQIA_QSG_DISP, CMQC.MQQSGD_SHARED))
    assert header[6:8] == (CMQC.MQCC_FAILED, F.MQRCCF_CFIN_PARM_ID_ERROR)
    assert parameters[F.MQIACF_PARAMETER_ID] == CMQC.MQIA_QSG_DISP


def test_pcf_create_and_delete_storage_class_take_qsgdisposition() -> None:
    """Create Storage Class with QSGDisposition GROUP copies it to every active member;
    Delete Storage Class with QSGDisposition GROUP removes the copies."""
    qm = member()
    group = qm.qsg
    assert group is not None

    def ask(command: int, disposition: int) -> None:
        request = encode(
            Header(F.MQCFT_COMMAND, command),
            [(CMQC.MQCA_STORAGE_CLASS, "SC1"), (CMQC.MQIA_QSG_DISP, disposition)],
            ENCODING,
        )
        ((header, _),) = map(parse, pcf_commands.process(request, ENCODING, qm, status.take(qm, 0)))
        assert header[6:8] == (CMQC.MQCC_OK, CMQC.MQRC_NONE), header

    ask(F.MQCMD_CREATE_STG_CLASS, GROUP)
    assert {m.local.storage_classes["SC1"].qsg_disp for m in group.active.values()} == {COPY}
    ask(F.MQCMD_DELETE_STG_CLASS, GROUP)
    assert all("SC1" not in m.local.storage_classes for m in group.active.values())
