"""Commands as data (issue 43: "PCF and REST requests turned into command objects, never
into MQSC text"): ``commands.parse_words`` makes a command from its words, checked as a
command read from text is, with no name or value read as MQSC."""

from __future__ import annotations

from qsg.core.qmgr import QMgr
from qsg.mqsc import commands, load
from qsg.mqsc.status import take
from tests.claims import keeps

INJECTED = "B1') LIKE('TEST.1"


@keeps("docs/security.md", "So do the REST API's JSON commands and queue requests")
def test_a_name_holding_mqsc_is_one_name_and_adds_no_keyword() -> None:
    parsed = commands.parse_words([("DEFINE", None, False), ("QLOCAL", INJECTED, True)])
    assert parsed.commands == () and parsed.error is not None
    assert "characters MQ does not allow" in parsed.error[1]


def test_a_value_holding_quotes_and_parentheses_is_kept_as_given() -> None:
    qm = QMgr("QM1")
    load(qm, "DEFINE QLOCAL(TEST.1) MAXDEPTH(7)")
    parsed = commands.parse_words(
        [
            ("DEFINE", None, False),
            ("QLOCAL", "App.Queue", True),
            ("DESCR", "it's (odd) LIKE('TEST.1')", True),
        ]
    )
    reply = commands.run(parsed, qm, lambda: take(qm, 0.0))
    assert not reply.failed, reply.lines
    queue = qm.queue("App.Queue")
    assert queue.description == "it's (odd) LIKE('TEST.1')"
    assert queue.max_depth != 7  # nothing was copied from TEST.1


def test_words_are_checked_as_a_command_read_from_text_is() -> None:
    unknown = commands.parse_words(
        [("DEFINE", None, False), ("QLOCAL", "Q", True), ("COLOUR", "RED", False)]
    )
    assert unknown.error is not None and "COLOUR" in unknown.error[1]
    display = commands.parse_words([("DISPLAY", None, False), ("QLOCAL", "X) TYPE(QALIAS", True)])
    assert display.request is not None and display.request.name == "X) TYPE(QALIAS"
    assert commands.parse_words([]).error == ("CSQ9001E", "NO COMMAND")
