"""The MQSC reader: a realistic definitions file, exact error places, and
hypothesis-made malformed input that must only ever give clean errors."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qsg import CMQC, OD, XQH, QMgr
from qsg.core.objects import AliasQueue, RemoteQueue
from qsg.core.queue import QueueDefinition
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc import MQSCError, load, parse
from tests.claims import keeps
from tests.helpers import ALL, get, put

DEFINITIONS = Path(__file__).parent.parent / "scenarios" / "qsg1-qm1.mqsc"
TEXT = DEFINITIONS.read_text()


def members() -> tuple[QMgr, QMgr]:
    group = QueueSharingGroup("QSG1")
    return QMgr("QM1", qsg=group), QMgr("QM2", qsg=group)


@keeps(
    "docs/objects.md",
    (
        "DEFINE/ALTER/DELETE of QLOCAL, QMODEL, QALIAS, QREMOTE, PROCESS, CFSTRUCT, CHANNEL, "
        "NAMELIST and STGCLASS "
        "(with REPLACE and LIKE, the usual abbreviations `DEF QL(...)`"
    ),
)
@keeps(
    "docs/objects.md",
    (
        "and ALTER QMGR (DESCR, EXPRYINT, DEADQ, DEFXMITQ, MAXUMSGS, TRIGINT, and the rest of "
        "z/OS's ALTER QMGR keywords, kept and shown: docs/mqsc.md)."
    ),
)
def test_a_realistic_definitions_file_defines_what_it_says() -> None:
    qm1, qm2 = members()
    commands = load(qm1, TEXT, DEFINITIONS.name)
    assert len(commands) == 18
    assert qm1.expiry_interval == 5 and qm1.def_xmit_q_name == "QM3"
    assert qm1.description == "Order entry, member 1 of QSG1"  # quoted: case kept
    assert qm1.rules.max_uncommitted_msgs == 10_000
    assert qm1.qsg is not None and qm1.qsg.shared.structures["APP1"].recover
    orders = qm2.queue("ORDERS.IN")  # shared: another member sees it
    assert orders.qsg_disp == CMQC.MQQSGD_SHARED and orders.cf_struct == "APP1"
    assert (orders.def_priority, orders.max_depth) == (4, 500_000)
    assert orders.index_type == CMQC.MQIT_MSG_ID
    assert orders.description == "Incoming orders, any member may serve them"
    audit = qm1.queue("AUDIT.EVENTS")  # continued with '-': from column 1 of the next line
    assert audit.def_persistence == CMQC.MQPER_NOT_PERSISTENT and audit.max_depth == 999_999_999
    pricing = qm1.queue("PRICING.CACHE")
    assert pricing.shareability == CMQC.MQQA_NOT_SHAREABLE
    assert pricing.def_input_open_option == CMQC.MQOO_INPUT_EXCLUSIVE
    assert qm2.find("PRICING.CACHE") is None  # private to QM1
    assert qm1.find("ORDERS") is not None and isinstance(qm1.find("ORDERS")[1], AliasQueue)  # type: ignore[index]
    pick = qm1.find("WAREHOUSE.PICK")
    # Its kept values hold only the dates DEFINE stamped (CRDATE, ALTDATE, ...).
    assert pick is not None and dataclasses.replace(pick[1], kept=()) == RemoteQueue(
        "WAREHOUSE.PICK", "PICK.REQUESTS", "QM3", "QM3", def_persistence=CMQC.MQPER_PERSISTENT
    )
    assert {k for k, _ in pick[1].kept} == {"CRDATE", "CRTIME", "ALTDATE", "ALTTIME"}
    model = qm1.find("ORDERS.SHARED.MODEL")
    assert model is not None and isinstance(model[1], QueueDefinition)
    assert model[1].definition_type == CMQC.MQQDT_SHARED_DYNAMIC
    sender = qm1.local.channels["QM1.TO.QM3"]
    assert sender.channel_type == CMQC.MQCHT_SENDER and sender.conn_name == "wh.example.com(1414)"


def test_the_loaded_definitions_work_for_applications() -> None:
    qm1, qm2 = members()
    load(qm1, TEXT, DEFINITIONS.name)
    put(qm1.connect().open("ORDERS", CMQC.MQOO_OUTPUT), b"order 1", 0.0)
    body, md = get(qm2.connect().open("ORDERS.IN", ALL), 1.0)
    assert body == b"order 1" and md.Priority == 5  # the alias's DEFPRTY, served by QM2
    put(qm1.connect().open("WAREHOUSE.PICK", CMQC.MQOO_OUTPUT), b"pick", 0.0)
    header = XQH.unpack(get(qm1.connect().open("QM3", ALL), 1.0)[0])
    assert header.RemoteQName.rstrip() == b"PICK.REQUESTS"
    od = OD(ObjectName=b"ORDERS.SHARED.MODEL", DynamicQName=b"REPLY.*")
    qm1.connect().open(od, ALL).close()
    assert qm2.find(od.ObjectName.decode()) is not None  # SHAREDYN: in the group


@pytest.mark.parametrize(
    ("text", "place", "message"),
    [
        ("DEFINE QLOCAL(A) MAXDEPTH(12x)", "1:27", "MAXDEPTH(12X): '12X' is not a whole number"),
        ("DEFINE QLOCAL(A) FOO(1)", "1:18", "'FOO' is not a keyword of DEFINE QLOCAL"),
        ("* c\n\nDEFINE QL(A) +\n  DEFPRTY(12)", "4:11", "DEFPRTY(12): 12 is not in 0..9"),
        ("DEF QL(A) MSGDLVSQ(RANDOM)", "1:20", "'RANDOM' is not one of PRIORITY, FIFO"),
        ("DEFINE QLOCAL(A) DESCR('x", "1:25", "DESCR: a quoted value has no closing quote"),
        ("DEFINE QLOCAL", "1:8", "QLOCAL needs a name: QLOCAL(name)"),
        ("DEFINE QLOCAL(A) -", "1:18", "the last command ends with a continuation character"),
        ("FROB QLOCAL(A)", "1:1", "unknown command 'FROB': DEFINE, ALTER or DELETE"),
        ("DEFINE QLOCAL(A) MAXDEPTH(1) MAXDEPTH(2)", "1:30", "MAXDEPTH is given twice"),
        ("DEFINE QLOCAL(A) REPLACE(1)", "1:18", "REPLACE takes no value"),
        ("DEFINE QLOCAL(A) MAXDEPTH", "1:18", "expected MAXDEPTH(value)"),
        ("DEFINE QLOCAL('a b')", "1:15", "has characters MQ does not allow"),
        ("DEFINE CHANNEL(X)", "1:8", "DEFINE CHANNEL needs CHLTYPE"),
        ("DEFINE QALIAS(X)", "1:8", "DEFINE QALIAS needs TARGET(queue)"),
        ("DEFINE QLOCAL(A) GET(ENABLED", "1:28", "GET: expected ')' to close the value"),
        (
            "DEFINE QLOCAL(A) DEFTYPE(TEMPDYN)",
            "1:18",
            "'DEFTYPE' is not a keyword of DEFINE QLOCAL",
        ),
        ("DEFINE CFSTRUCT(NAME.TOO.LONG1)", "1:17", "has 1 to 12 characters"),
        ("ALTER QMGR EXPRYINT(100000000)", "1:21", "100000000 is not in 1..99999999"),
        ("DEFINE QMGR(X)", "1:8", "ALTER QMGR, without a name"),
    ],
)
@keeps("docs/objects.md", "as `file:line:column: message`")
def test_a_bad_keyword_or_value_is_reported_at_its_line_and_column(
    text: str, place: str, message: str
) -> None:
    with pytest.raises(MQSCError) as caught:
        parse(text, "defs.mqsc")
    [problem] = caught.value.problems
    assert f"{problem.line}:{problem.column}" == place
    assert message in problem.message
    assert str(problem).startswith(f"defs.mqsc:{place}: ")


@pytest.mark.parametrize(
    ("text", "description"),
    [
        ("DEFINE QL(A) DESCR('two -\n   parts')", "two    parts"),  # '-': from column 1
        ("DEFINE QL(A) DESCR('two +\n   parts')", "two parts"),  # '+': from the first non-blank
        ("* DEFINE QL(B)\n  * indented comment\nDEFINE QL(A) DESCR('Mixed Case')", "Mixed Case"),
    ],
)
@keeps(
    "docs/objects.md",
    "Comments (`*`), continuation lines (`-` from column 1, `+` from the first non-blank)",
)
@keeps(
    "docs/mqsc.md",
    (
        "continued with a trailing `-` or `+`, `*` starts a comment, keywords in any case, quoted "
        "values keep theirs."
    ),
)
def test_continuation_characters_and_comments_follow_the_mqsc_rules(
    text: str, description: str
) -> None:
    qm = QMgr("QM1")
    load(qm, text)
    assert qm.queue("A").description == description and qm.find("B") is None


@keeps(
    "docs/objects.md",
    (
        "Every syntax or value problem of a file is reported at once, as `file:line:column: "
        "message`, and nothing is applied"
    ),
)
def test_every_problem_of_a_file_is_reported_and_nothing_is_applied() -> None:
    qm = QMgr("QM1")
    text = "DEFINE QLOCAL(GOOD)\nDEFINE QLOCAL(A) MAXDEPTH(-1)\nDEFINE QLOCAL(B) COLOUR(RED)\n"
    with pytest.raises(MQSCError) as caught:
        load(qm, text, "two.mqsc")
    assert [(p.line, p.column) for p in caught.value.problems] == [(2, 27), (3, 18)]
    assert qm.find("GOOD") is None


@keeps(
    "docs/objects.md",
    (
        "a command the queue manager refuses (a name already defined without REPLACE) stops the "
        "load at its line, the commands before it applied, as runmqsc would have."
    ),
)
def test_a_command_the_queue_manager_refuses_stops_the_load_at_its_line() -> None:
    qm = QMgr("QM1")
    text = "DEFINE QLOCAL(A)\n  DEFINE QLOCAL(A) MAXDEPTH(7)\nDEFINE QLOCAL(C)\n"
    with pytest.raises(MQSCError, match=r"^again\.mqsc:2:3: DEFINE QLOCAL: queue A is already"):
        load(qm, text, "again.mqsc")
    assert qm.find("A") is not None and qm.find("C") is None
    load(qm, "DEFINE QLOCAL(A) MAXDEPTH(7) REPLACE", "again.mqsc")
    assert qm.queue("A").max_depth == 7
    with pytest.raises(MQSCError, match="in no queue-sharing group"):
        load(qm, "DEFINE QLOCAL(S) QSGDISP(SHARED) CFSTRUCT(APP1)")


@keeps("README.md", "DEFINE, ALTER, DELETE, CLEAR QLOCAL and START/STOP CHANNEL act")
@keeps(
    "docs/objects.md",
    (
        "DEFINE/ALTER/DELETE of QLOCAL, QMODEL, QALIAS, QREMOTE, PROCESS, CFSTRUCT, CHANNEL, "
        "NAMELIST and STGCLASS "
        "(with REPLACE and LIKE, the usual abbreviations `DEF QL(...)`; LIKE never copies the "
        "disposition"
    ),
)
def test_alter_like_and_delete_change_what_is_defined() -> None:
    qm = QMgr("QM1")
    load(qm, "DEFINE QL(BASE) MAXDEPTH(9) DEFPRTY(3)\nDEFINE QL(COPY) LIKE(BASE) DEFPRTY(6)")
    assert (qm.queue("COPY").max_depth, qm.queue("COPY").def_priority) == (9, 6)
    load(qm, "ALTER QLOCAL(BASE) MAXDEPTH(20) PUT(DISABLED)")
    assert qm.queue("BASE").max_depth == 20 and qm.queue("BASE").inhibit_put == 1
    load(qm, "DELETE QLOCAL(COPY)")
    assert qm.find("COPY") is None
    with pytest.raises(MQSCError, match="there is no QALIAS\\(BASE\\) of QSGDISP\\(QMGR\\)"):
        load(qm, "ALTER QALIAS(BASE) DEFPRTY(1)")


# ---- malformed input, made by hypothesis -----------------------------------------------
_ALPHABET = "DEFINQLOCAMXPTRYSHGUW.*()'+-_ 019\n\t"


@st.composite
def damaged(draw: st.DrawFn) -> str:
    """The realistic file, or part of it, with random cuts, insertions and repeats."""
    lines = TEXT.splitlines(keepends=True)
    start = draw(st.integers(0, len(lines) - 1))
    text = "".join(lines[start : start + draw(st.integers(1, 12))])
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        edit = draw(st.sampled_from(["cut", "insert", "repeat"]))
        if edit == "cut":
            text = text[:at] + text[at + draw(st.integers(1, 12)) :]
        elif edit == "insert":
            text = text[:at] + draw(st.text(_ALPHABET, min_size=1, max_size=6)) + text[at:]
        else:
            text = text[:at] + text[max(0, at - 20) : at] + text[at:]
    return text


@settings(max_examples=300, deadline=None)
@given(st.one_of(damaged(), st.text(_ALPHABET, max_size=80), st.text(max_size=40)))
def test_malformed_mqsc_only_ever_gives_clean_errors(text: str) -> None:
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1"))
    problems = []
    try:
        load(qm, text, "fuzz.mqsc")
    except MQSCError as error:
        problems = error.problems
        assert problems, "an MQSCError names at least one problem"
    lines = text.split("\n")
    for problem in problems:
        assert problem.source == "fuzz.mqsc" and problem.message
        assert 1 <= problem.line <= len(lines)
        assert 1 <= problem.column <= max(1, len(lines[problem.line - 1]))


def test_a_line_of_nothing_but_a_continuation_character_is_no_command() -> None:
    # Found by the fuzz test above: "-" alone continues onto nothing.
    assert parse("-\n", "x.mqsc") == []
    assert [c.verb for c in parse("-\nDEFINE QLOCAL(A)\n", "x.mqsc")] == ["DEFINE"]


@keeps("docs/objects.md", "quoted values (`''` for a quote)")
def test_two_quotes_are_one_in_a_quoted_value_and_a_copy_needs_its_group_object() -> None:
    """DEFINE ... QSGDISP(COPY) is made from the GROUP object of the same name (MQSC
    Command Reference, DEFINE queues): without one there is nothing to copy."""
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1"))
    load(qm, "DEFINE QLOCAL(A) DESCR('it''s (here)')")
    assert qm.queue("A").description == "it's (here)"
    with pytest.raises(MQSCError, match=r"there is no QLOCAL\(G\) of QSGDISP\(GROUP\) to copy"):
        load(qm, "DEFINE QLOCAL(G) QSGDISP(COPY)")
    assert qm.find("G") is None
