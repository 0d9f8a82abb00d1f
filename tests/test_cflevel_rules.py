"""DEFINE and ALTER CFSTRUCT refuse attributes the structure's CFLEVEL does not have.

IBM MQ for z/OS ("DEFINE CFSTRUCT", "ALTER CFSTRUCT"; ../shared/reference/qsg-depth.md
section 5): RECOVER(YES) needs CFLEVEL(3), the level that holds persistent messages;
CFCONLOS and RECAUTO are CFLEVEL(5) attributes, "CFCONLOS on a structure below
CFLEVEL(5) -> PCF MQRCCF_PARM_CONFLICT". Their defaults (RECOVER(NO), CFCONLOS(ASQMGR),
RECAUTO(YES)) stand at any level. A refusal is one CSQM090E line naming
MQRCCF_PARM_CONFLICT (3203), the structure unchanged.
"""

from __future__ import annotations

import pytest

from qsg import CMQCFC as F
from qsg import MQMIError, QMgr
from qsg.core import cfstate
from qsg.core.memstore import MemoryStore
from qsg.core.objects import CFStructure
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc import commands
from qsg.mqsc.errors import MQSCError
from qsg.mqsc.reader import load
from qsg.mqsc.status import take
from qsg.scenario import ScenarioError
from qsg.scenario.load import parse_scenario
from tests.claims import keeps


def _qm() -> QMgr:
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1", store=MemoryStore()))
    assert not _run(qm, "DEFINE CFSTRUCT(OLD) CFLEVEL(4)").failed
    return qm


def _run(qm: QMgr, text: str) -> commands.Reply:
    return commands.run(commands.parse(text), qm, lambda: take(qm, qm.time))


@keeps(
    "docs/coupling-facility.md",
    "RECOVER(YES) needs CFLEVEL(3) or more, CFCONLOS other than ASQMGR and RECAUTO(NO) need "
    "CFLEVEL(5)",
)
@pytest.mark.parametrize(
    ("text", "why"),
    [
        (
            "DEFINE CFSTRUCT(NEW) CFLEVEL(4) CFCONLOS(TOLERATE)",
            "CFSTRUCT(NEW): MQCC_FAILED: MQRCCF_PARM_CONFLICT (3203): CFCONLOS(TOLERATE) "
            "needs CFLEVEL(5), not CFLEVEL(4)",
        ),
        (
            "DEFINE CFSTRUCT(NEW) CFLEVEL(3) RECAUTO(NO)",
            "CFSTRUCT(NEW): MQCC_FAILED: MQRCCF_PARM_CONFLICT (3203): RECAUTO(NO) "
            "needs CFLEVEL(5), not CFLEVEL(3)",
        ),
        (
            "DEFINE CFSTRUCT(NEW) CFLEVEL(2) RECOVER(YES)",
            "CFSTRUCT(NEW): MQCC_FAILED: MQRCCF_PARM_CONFLICT (3203): RECOVER(YES) "
            "needs CFLEVEL(3), not CFLEVEL(2)",
        ),
        (
            "ALTER CFSTRUCT(OLD) CFCONLOS(TERMINATE)",
            "CFSTRUCT(OLD): MQCC_FAILED: MQRCCF_PARM_CONFLICT (3203): CFCONLOS(TERMINATE) "
            "needs CFLEVEL(5), not CFLEVEL(4)",
        ),
        (
            "ALTER CFSTRUCT(TOL) CFLEVEL(4)",
            "CFSTRUCT(TOL): MQCC_FAILED: MQRCCF_PARM_CONFLICT (3203): CFCONLOS(TOLERATE) "
            "needs CFLEVEL(5), not CFLEVEL(4)",
        ),
    ],
)
def test_an_attribute_above_the_structures_cflevel_is_refused_in_one_csqm090e_line(
    text: str, why: str
) -> None:
    """ "CFCONLOS on a structure below CFLEVEL(5) -> PCF MQRCCF_PARM_CONFLICT"
    (qsg-depth.md section 5), RECAUTO likewise a CFLEVEL(5) attribute, and CFLEVEL(3)
    "required if you want to use persistent messages on shared queues (if RECOVER(YES)
    is set)" ("DEFINE CFSTRUCT"): the command is refused, the structure unchanged, on
    DEFINE as on an ALTER of the attribute or of the level under it."""
    qm = _qm()
    assert not _run(qm, "DEFINE CFSTRUCT(TOL) CFCONLOS(TOLERATE)").failed
    assert qm.qsg is not None
    before = dict(qm.qsg.shared.structures)
    reply = _run(qm, text)
    assert reply.failed
    assert reply.lines == (
        f"CSQM090E !QM1 CSQMMSGP {why}",
        f"CSQ9023E !QM1 CSQMMSGP ' {text.split('(')[0].rsplit(' ', 1)[0]} CFSTRUCT' "
        "ABNORMAL COMPLETION",
    )
    assert qm.qsg.shared.structures == before


def test_the_defaults_of_cfconlos_recauto_and_recover_stand_at_any_cflevel() -> None:
    """ASQMGR, RECAUTO(YES) and RECOVER(NO) are the defaults IBM gives every structure:
    a structure of CFLEVEL(1) to (4) may be defined and altered with them."""
    qm = _qm()
    for level in (1, 2, 3, 4):
        text = f"DEFINE CFSTRUCT(L{level}) CFLEVEL({level}) CFCONLOS(ASQMGR) RECAUTO(YES)"
        assert not _run(qm, text).failed, text
        assert not _run(qm, f"ALTER CFSTRUCT(L{level}) RECOVER(NO)").failed
    assert not _run(qm, "DEFINE CFSTRUCT(L3R) CFLEVEL(3) RECOVER(YES)").failed
    assert not _run(qm, "ALTER CFSTRUCT(OLD) CFLEVEL(5) CFCONLOS(TOLERATE) RECAUTO(NO)").failed


@keeps(
    "docs/coupling-facility.md",
    "A command that breaks this, an ALTER of CFLEVEL under what the structure has included, "
    "is refused in one CSQM090E line naming MQRCCF_PARM_CONFLICT (3203), the structure "
    "unchanged; a scenario's structure keys are held to the same rules.",
)
def test_the_refusal_carries_mqrccf_parm_conflict_for_a_program() -> None:
    """The refusal's cause is MQRCCF_PARM_CONFLICT (3203), the reason a PCF reply to
    the change gives (``qsg.mqsc.pcf_changes``), and a scenario's structure keys are
    held to the same rules."""
    qm = _qm()
    with pytest.raises(MQSCError, match=r"CFCONLOS\(TOLERATE\) needs CFLEVEL\(5\)") as refused:
        load(qm, "ALTER CFSTRUCT(OLD) CFCONLOS(TOLERATE)")
    assert isinstance(refused.value.__cause__, MQMIError)
    assert refused.value.__cause__.reason == F.MQRCCF_PARM_CONFLICT == 3203
    assert cfstate.cflevel_conflict(CFStructure("S", cf_level=2, recover=True)) == (
        "RECOVER(YES) needs CFLEVEL(3), not CFLEVEL(2)"
    )
    assert cfstate.cflevel_conflict(CFStructure("S", cf_level=1)) is None
    text = '[qsg.QSG1]\nmembers = ["QM1"]\n[qsg.QSG1.structures.OLD]\ncflevel = 4\n'
    with pytest.raises(ScenarioError, match=r"CFCONLOS\(TOLERATE\) needs CFLEVEL\(5\)"):
        parse_scenario(text + 'cfconlos = "TOLERATE"\n[qmgr.QM1]\n')
