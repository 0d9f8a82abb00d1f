"""A keyword given twice is CSQ9000E, on every command (docs/mqsc.md: "Syntax errors are
CSQ9 messages (CSQ9000E a keyword given twice, ..."): RESET, BACKUP and RECOVER CFSTRUCT
and the channel, channel initiator and listener commands read their keywords themselves,
and took the last of two, so that `RECOVER CFSTRUCT(APP1) TYPE(NORMAL) TYPE(PURGE)`
emptied the structure it was meant to recover."""

from __future__ import annotations

import pytest

from qsg import CMQC, QMgr
from qsg.core import cfstate
from qsg.core.memstore import MemoryStore
from qsg.core.objects import CFStructure
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc import commands
from qsg.mqsc.status import take
from tests.claims import keeps
from tests.helpers import ALL, drain, put


def _mqsc(qm: QMgr, text: str) -> commands.Reply:
    return commands.run(commands.parse(text), qm, lambda: take(qm, qm.time))


@keeps("docs/mqsc.md", "CSQ9000E a keyword given twice")
def test_recover_cfstruct_with_type_given_twice_is_csq9000e_and_the_structure_stays_failed() -> (
    None
):
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1", store=MemoryStore()))
    qm.define_structure(CFStructure("APP1", cf_level=5, recover=True))
    qm.define_queue("Q.APP1", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1", max_depth=10)
    put(qm.connect().open("Q.APP1", ALL), b"kept", 0.0, Persistence=CMQC.MQPER_PERSISTENT)
    assert not _mqsc(qm, "RESET CFSTRUCT(APP1) ACTION(FAIL)").failed
    twice = _mqsc(qm, "RECOVER CFSTRUCT(APP1) TYPE(NORMAL) TYPE(PURGE)")
    assert twice.failed
    assert twice.lines[0] == "CSQ9000E !QM1 'TYPE' APPEARS MORE THAN ONCE"
    assert qm.qsg is not None
    assert qm.qsg.shared.store.structure_status("APP1").status == cfstate.FAILED
    assert not _mqsc(qm, "RECOVER CFSTRUCT(APP1) TYPE(NORMAL)").failed
    assert drain(qm.connect().open("Q.APP1", ALL), 1.0) == [b"kept"]


@keeps("docs/mqsc.md", "CSQ9000E a keyword given twice")
@pytest.mark.parametrize(
    ("text", "keyword"),
    [
        ("RESET CFSTRUCT(APP1) ACTION(FAIL) ACTION(FAIL)", "ACTION"),
        ("BACKUP CFSTRUCT(APP1) EXCLINT(30) EXCLINT(60)", "EXCLINT"),
        ("BACKUP CFSTRUCT(APP1) CMDSCOPE(QM1) CMDSCOPE(QM2)", "CMDSCOPE"),
        ("START CHANNEL(TO.QM2) CHLDISP(PRIVATE) CHLDISP(SHARED)", "CHLDISP"),
        ("RESET CHANNEL(TO.QM2) SEQNUM(1) SEQNUM(2)", "SEQNUM"),
        ("RESOLVE CHANNEL(TO.QM2) ACTION(COMMIT) ACTION(BACKOUT)", "ACTION"),
        ("STOP CHINIT SHARED(STOP) SHARED(RESTART)", "SHARED"),
        ("START LISTENER TRPTYPE(TCP) INDISP(QMGR) INDISP(GROUP)", "INDISP"),
    ],
)
def test_each_command_refuses_a_keyword_given_twice_with_csq9000e(text: str, keyword: str) -> None:
    assert commands.parse(text).error == ("CSQ9000E", f"'{keyword}' APPEARS MORE THAN ONCE")


def test_backup_cfstruct_exclint_beyond_an_mqlong_is_refused_as_pcfs_excludeinterval_is() -> None:
    # ExcludeInterval is an MQCFIN in PCF (an MQLONG); MQSC's EXCLINT is the same integer.
    parsed = commands.parse("BACKUP CFSTRUCT(APP1) EXCLINT(999999999999999999999)")
    assert parsed.error == ("CSQ9001E", "'EXCLINT(999999999999999999999)' IS INVALID")
    # Within an MQLONG it is still held to ExcludeInterval's 30 through 600.
    assert commands.parse("BACKUP CFSTRUCT(APP1) EXCLINT(600)").error is None
    assert commands.parse("BACKUP CFSTRUCT(APP1) EXCLINT(2147483647)").error == (
        "CSQ9001E",
        "'EXCLINT(2147483647)' IS INVALID",
    )


@keeps(
    "docs/mqsc.md",
    "A keyword and its negation given together (SHARE NOSHARE, HARDENBO NOHARDENBO, "
    "REPLACE NOREPLACE) are one keyword given twice: the command is refused rather than "
    "read with the last winning.",
)
@pytest.mark.parametrize(
    ("text", "second"),
    [
        ("DEFINE QLOCAL(APP.X) SHARE NOSHARE", "NOSHARE"),
        ("DEFINE QLOCAL(APP.X) NOHARDENBO MAXDEPTH(5) HARDENBO", "HARDENBO"),
        ("DEFINE QLOCAL(APP.X) NOTRIGGER TRIGGER", "TRIGGER"),
        ("DEFINE QLOCAL(APP.X) REPLACE NOREPLACE", "NOREPLACE"),
        ("ALTER QLOCAL(APP.Q) TRIGGER NOTRIGGER", "NOTRIGGER"),
    ],
)
def test_a_keyword_and_its_negation_together_is_csq9000e_and_nothing_changes(
    text: str, second: str
) -> None:
    """IBM's generalized command preprocessor refuses a keyword that "appears more than
    once in the command" (CSQ9000E), and NOSHARE is SHARE negated: the command is
    refused, not read with the last of the two winning, and the queue is unchanged."""
    qm = QMgr("QM1")
    assert not _mqsc(qm, "DEFINE QLOCAL(APP.Q) NOTRIGGER").failed
    reply = _mqsc(qm, text)
    assert reply.failed
    assert reply.lines[0] == f"CSQ9000E !QM1 '{second}' APPEARS MORE THAN ONCE"
    assert "APP.X" not in qm.local.queues
    trigger = qm.local.queues["APP.Q"].trigger_control  # type: ignore[union-attr]
    assert trigger == CMQC.MQTC_OFF
