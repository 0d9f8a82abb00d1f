"""PCF requests are data, never MQSC text: a name or a value is what its MQCFST holds,
whatever characters it has, and a name is checked as MQ checks a name.

IBM's "Rules for naming IBM MQ objects": 1 to 48 characters (20 for a channel) of A-Z
a-z 0-9 . / _ %. A PCF request whose name breaks them is refused with
MQRCCF_OBJECT_NAME_ERROR (4008, "an object name was specified using characters that
are not valid"), or MQRCCF_CFST_STRING_LENGTH_ERR (3011) when it is longer than the
parameter's maximum; nothing is created. Requests are built with IBM's numbers and
``struct``; the queue manager is the rules layer's (no event loop).
"""

from __future__ import annotations

import struct

from qsg.core.qmgr import QMgr
from qsg.mqsc import load
from qsg.mqsc.pcf_commands import process
from qsg.mqsc.status import take
from tests.claims import keeps

MQCMD_CHANGE_Q, MQCMD_COPY_Q, MQCMD_CREATE_Q, MQCMD_DELETE_Q = 8, 10, 11, 12
MQCA_Q_NAME, MQCA_Q_DESC, MQIA_Q_TYPE, MQIA_MAX_Q_DEPTH = 2016, 2013, 20, 15
MQCACF_FROM_Q_NAME, MQCACF_TO_Q_NAME, MQIACF_PARAMETER_ID = 3001, 3002, 1012
MQQT_LOCAL, MQCC_FAILED = 1, 2
MQRCCF_OBJECT_NAME_ERROR, MQRCCF_CFST_STRING_LENGTH_ERR = 4008, 3011
NATIVE = 0x222


def cfin(parameter: int, value: int) -> bytes:
    return struct.pack("<4i", 3, 16, parameter, value)


def cfst(parameter: int, text: str) -> bytes:
    data = text.encode("latin-1")
    padded = data + b" " * (-len(data) % 4)
    return struct.pack("<5i", 4, 20 + len(padded), parameter, 0, len(data)) + padded


def ask(qm: QMgr, command: int, *parameters: bytes) -> tuple[int, int, dict[int, int]]:
    """(CompCode, Reason, the MQCFIN parameters) of the one reply to a request."""
    data = struct.pack("<9i", 1, 36, 1, command, 1, 1, 0, 0, len(parameters))
    (reply,) = process(data + b"".join(parameters), NATIVE, qm, take(qm, 0.0))
    header = struct.unpack_from("<9i", reply)
    integers, at = {}, 36
    for _ in range(header[8]):
        kind, length, parameter, value = struct.unpack_from("<4i", reply, at)
        if kind == 3:
            integers[parameter] = value
        at += length
    return header[6], header[7], integers


def a_queue_manager() -> QMgr:
    qm = QMgr("QM1")
    load(qm, "DEFINE QLOCAL(TEST.1) MAXDEPTH(77) DESCR('the template')")
    return qm


@keeps(
    "docs/security.md",
    (
        "PCF requests become command objects, never MQSC text, and every name is validated as an "
        "MQ name, so a name cannot smuggle in MQSC"
    ),
)
@keeps(
    "docs/mqsc.md",
    "so a name or a value is data whatever characters it holds, and cannot carry MQSC of its own.",
)
def test_a_queue_name_that_smuggles_mqsc_is_refused_as_an_object_name_error() -> None:
    # "B1') LIKE('TEST.1" was pasted into DEFINE QLOCAL('...') and made B1, a copy of
    # TEST.1, answered with CC 0.
    qm = a_queue_manager()
    name = "B1') LIKE('TEST.1"
    reply = ask(qm, MQCMD_CREATE_Q, cfst(MQCA_Q_NAME, name), cfin(MQIA_Q_TYPE, MQQT_LOCAL))
    assert reply == (MQCC_FAILED, MQRCCF_OBJECT_NAME_ERROR, {MQIACF_PARAMETER_ID: MQCA_Q_NAME})
    assert qm.find("B1") is None and qm.find(name) is None
    assert sorted(qm.local.queues) == sorted(a_queue_manager().local.queues)


@keeps(
    "docs/edges.md",
    "PCF requests are built as command objects, never as MQSC text, and names are checked as MQ "
    "names",
)
@keeps(
    "docs/mqsc.md",
    (
        "a longer one is MQRCCF_CFST_STRING_LENGTH_ERR (3011), one with another character (a "
        "blank, a quote, a parenthesis), or none, is MQRCCF_OBJECT_NAME_ERROR (4008), each with "
        "MQIACF_PARAMETER_ID naming the parameter, and nothing is created."
    ),
)
def test_names_are_checked_as_mq_names_in_every_queue_command() -> None:
    qm = a_queue_manager()
    local = cfin(MQIA_Q_TYPE, MQQT_LOCAL)
    too_long = "Q" * 49
    assert ask(qm, MQCMD_CREATE_Q, cfst(MQCA_Q_NAME, too_long), local)[:2] == (
        MQCC_FAILED,
        MQRCCF_CFST_STRING_LENGTH_ERR,
    )
    for bad in ("", "A B", "Q*", "caf\xe9", "X')"):
        for command, parameters in (
            (MQCMD_CREATE_Q, [cfst(MQCA_Q_NAME, bad), local]),
            (MQCMD_CHANGE_Q, [cfst(MQCA_Q_NAME, bad), local]),
            (MQCMD_DELETE_Q, [cfst(MQCA_Q_NAME, bad)]),
            (
                MQCMD_COPY_Q,
                [cfst(MQCACF_FROM_Q_NAME, "TEST.1"), cfst(MQCACF_TO_Q_NAME, bad), local],
            ),
        ):
            assert ask(qm, command, *parameters)[:2] == (MQCC_FAILED, MQRCCF_OBJECT_NAME_ERROR), (
                command,
                bad,
            )
    # Every character MQ allows, lower case and % / _ included, is a name.
    fine = "a.b/c_d%E9"
    assert ask(qm, MQCMD_CREATE_Q, cfst(MQCA_Q_NAME, fine), local)[:2] == (0, 0)
    assert qm.find(fine) is not None


@keeps(
    "docs/mqsc.md",
    (
        "a PCF CREATE_Q is run as the DEFINE it stands for, built from the request's values as a "
        "command object: never written out as MQSC text, so a name or a value is data whatever "
        "characters it holds, and cannot carry MQSC of its own."
    ),
)
def test_a_string_value_is_kept_as_given_quotes_and_parentheses_included() -> None:
    qm = a_queue_manager()
    text = "it's (a) test') MAXDEPTH(1) LIKE('TEST.1"
    reply = ask(
        qm,
        MQCMD_CREATE_Q,
        cfst(MQCA_Q_NAME, "APP.NOTES"),
        cfin(MQIA_Q_TYPE, MQQT_LOCAL),
        cfst(MQCA_Q_DESC, text),
    )
    assert reply[:2] == (0, 0)
    found = qm.find("APP.NOTES")
    assert found is not None
    assert (found[1].description, found[1].max_depth) == (text, 5000)
    copied = ask(
        qm,
        MQCMD_COPY_Q,
        cfst(MQCACF_FROM_Q_NAME, "TEST.1"),
        cfst(MQCACF_TO_Q_NAME, "TEST.2"),
        cfin(MQIA_Q_TYPE, MQQT_LOCAL),
        cfin(MQIA_MAX_Q_DEPTH, 3),
    )
    assert copied[:2] == (0, 0)
    copy = qm.find("TEST.2")
    assert copy is not None and (copy[1].description, copy[1].max_depth) == ("the template", 3)
