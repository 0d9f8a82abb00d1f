"""The attribute table's process definitions against IBM's own list (issue 45): every
keyword IBM MQ for z/OS documents on DEFINE PROCESS is accepted and shown by DISPLAY
PROCESS ... ALL (DISPLAY PROCESS answers as z/OS's does: generic names, named
attributes, WHERE); bad input is one CSQ9 line and changes nothing.

The list is copied by hand from IBM's "DEFINE PROCESS" (z/OS), not from the table.
"""

from __future__ import annotations

import pytest

from qsg import QMgr
from qsg.mqsc import commands, status

ZOS_PROCESS_KEYWORDS = {
    "APPLICID": "'CKTI'",
    "APPLTYPE": "CICS",
    "DESCR": "'starts the transaction'",
    "ENVRDATA": "'env'",
    "QSGDISP": "QMGR",
    "USERDATA": "'user data'",
}


def _console(qm: QMgr, text: str) -> str:
    return commands.run(commands.parse(text), qm, lambda: status.take(qm, 0.0)).text


@pytest.mark.parametrize("keyword", sorted(ZOS_PROCESS_KEYWORDS))
def test_every_process_keyword_ibm_documents_for_z_os_is_accepted_and_shown_by_display_all(
    keyword: str,
) -> None:
    qm = QMgr("QM1")
    value = ZOS_PROCESS_KEYWORDS[keyword]
    assert "CSQ9022I" in _console(qm, f"DEFINE PROCESS(APP.PROC) {keyword}({value})")
    shown = _console(qm, "DISPLAY PROCESS(APP.PROC) ALL").splitlines()
    assert shown[0] == "CSQM293I !QM1 CSQMDRTC 1 PROCESS FOUND MATCHING REQUEST CRITERIA"
    assert f" {keyword}(" in shown[1]


def test_display_process_takes_a_generic_name_named_attributes_and_where() -> None:
    # "DISPLAY PROCESS": a trailing asterisk, requested attributes, WHERE(APPLTYPE EQ CICS).
    qm = QMgr("QM1")
    _console(qm, "DEFINE PROCESS(APP.CICS) APPLTYPE(CICS) APPLICID('CKTI')")
    _console(qm, "DEFINE PROCESS(APP.BATCH) APPLTYPE(MVS) APPLICID('JOB1')")
    _console(qm, "DEFINE PROCESS(OTHER) APPLTYPE(CICS)")
    lines = _console(qm, "DISPLAY PROCESS(APP.*) APPLICID").splitlines()
    assert lines[1:3] == [  # QSGDISP is in every reply, as QUEUE's and CHANNEL's
        "CSQM407I !QM1 PROCESS(APP.BATCH) QSGDISP(QMGR) APPLICID(JOB1)",
        "CSQM407I !QM1 PROCESS(APP.CICS) QSGDISP(QMGR) APPLICID(CKTI)",
    ]
    where = _console(qm, "DIS PRO(*) WHERE(APPLTYPE EQ CICS)").splitlines()
    assert [line.split()[2] for line in where[1:-1]] == ["PROCESS(APP.CICS)", "PROCESS(OTHER)"]
    missing = _console(qm, "DISPLAY PROCESS(NONE)").splitlines()[0]
    assert missing == "CSQM125I !QM1 CSQMDRTS PROCESS(NONE) WAS NOT FOUND"


def test_a_bad_process_keyword_or_value_is_one_line_and_changes_nothing() -> None:
    qm = QMgr("QM1")
    _console(qm, "DEFINE PROCESS(APP.PROC) APPLICID('CKTI')")
    before = qm.local.processes["APP.PROC"]
    unknown = _console(qm, "ALTER PROCESS(APP.PROC) MAXDEPTH(5)").splitlines()
    assert unknown[0] == "CSQ9001E !QM1 'MAXDEPTH' IS INVALID"
    too_long = _console(qm, f"ALTER PROCESS(APP.PROC) ENVRDATA('{'x' * 129}')").splitlines()
    assert "ENVRDATA" in too_long[0] and too_long[1].startswith("CSQ9023E")
    assert qm.local.processes["APP.PROC"] == before
