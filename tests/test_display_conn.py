"""DISPLAY CONN and PCF Inquire Connection: a queue manager's connections and their
handles, as the rules layer knows them.

IBM: "DISPLAY CONN" (TYPE(CONN), TYPE(HANDLE), TYPE(ALL) or TYPE(*); CONN is the last 8
bytes of the 24-byte connection identifier, EXTCONN the first 16; UOWSTATE NONE or
ACTIVE; handle attributes OBJNAME, OBJTYPE, OPENOPTS, QSGDISP) and "Inquire Connection"
(ConnectionId or GenericConnectionId, ConnInfoType MQIACF_CONN_INFO_CONN / _HANDLE /
_ALL; nothing found is MQRCCF_NONE_FOUND).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from actors.world import World
from qsg import CMQC, MD, PMO, pymqi
from qsg import CMQCFC as F
from qsg.core.conntag import ConnectOptions
from qsg.core.qmgr import QMgr
from qsg.mqsc import commands, load, status
from qsg.mqsc.pcf import Header, Message, PCFError, Value, encode
from qsg.mqsc.pcf_commands import process
from qsg.mqsc.pcf_connections import inquire_connection
from qsg.pymqi._pcf_messages import unpack
from tests.claims import keeps
from tests.test_pymqi_pcf import in_world


def busy() -> QMgr:
    """QM1 with two connections: APP1 with an input handle and an uncommitted put;
    APP2, tagged, with nothing open."""
    qm = QMgr("QM1")
    load(qm, "DEFINE QLOCAL(APP.IN)\nDEFINE QLOCAL(APP.OUT)")
    first = qm.connect("ALICE", "APP1")
    first.open("APP.IN", CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_FAIL_IF_QUIESCING)
    out = first.open("APP.OUT", CMQC.MQOO_OUTPUT)
    out.put(b"in a unit of work", MD(), PMO(Options=CMQC.MQPMO_SYNCPOINT), now=0.0)
    cno = ConnectOptions(CMQC.MQCNO_SERIALIZE_CONN_TAG_Q_MGR, b"ORDERS")
    qm.connect("BOB", "APP2", cno=cno)
    return qm


def run(qm: QMgr, text: str) -> list[str]:
    return list(commands.run(commands.parse(text), qm, lambda: status.take(qm, 0.0)).lines)


def value(line: str, keyword: str) -> str:
    match = re.search(rf"\b{keyword}\(('(?:[^']|'')*'|[^)]*)\)", line)
    assert match is not None, f"{keyword} not in {line}"
    return match[1].strip("'")


@keeps(
    "docs/mqsc.md",
    "UOWSTATE (ACTIVE while puts or gets in its unit of work are not committed, else NONE)",
)
@keeps("docs/mqsc.md", "`EXTCONN` its first 16 bytes in hex")
def test_display_conn_lists_each_connection_with_its_user_appltag_and_unit_of_work() -> None:
    lines = run(busy(), "DISPLAY CONN(*) ALL")
    conns = [line for line in lines if line.startswith("CSQM201I")]
    assert len(conns) == 2
    by_tag = {value(line, "APPLTAG"): line for line in conns}
    app1, app2 = by_tag["APP1"], by_tag["APP2"]
    assert value(app1, "TYPE") == "CONN"
    assert value(app1, "USERID") == "ALICE"
    assert value(app1, "UOWSTATE") == "ACTIVE"  # the put in syncpoint is not committed
    assert value(app2, "UOWSTATE") == "NONE"
    assert value(app2, "CONNTAG") == "ORDERS"
    assert "MQCNO_SERIALIZE_CONN_TAG_Q_MGR" in value(app2, "CONNOPTS")
    # CONN is 8 bytes in hex, EXTCONN 16: together the 24-byte connection identifier.
    assert re.fullmatch(r"[0-9A-F]{16}", value(app1, "CONN"))
    assert re.fullmatch(r"[0-9A-F]{32}", value(app1, "EXTCONN"))
    assert lines[-1].startswith("CSQ9022I")


@keeps("docs/mqsc.md", "TYPE(HANDLE): one line per open handle")
def test_display_conn_type_handle_lists_each_open_handle_with_its_options() -> None:
    lines = run(busy(), "DIS CONN(*) TYPE(HANDLE) ALL")
    handles = [line for line in lines if line.startswith("CSQM201I")]
    by_name = {value(line, "OBJNAME"): line for line in handles}
    assert set(by_name) == {"APP.IN", "APP.OUT"}
    assert value(by_name["APP.IN"], "TYPE") == "HANDLE"
    assert value(by_name["APP.IN"], "OBJTYPE") == "QUEUE"
    assert value(by_name["APP.IN"], "QSGDISP") == "QMGR"
    assert value(by_name["APP.IN"], "OPENOPTS") == "MQOO_INPUT_SHARED,MQOO_FAIL_IF_QUIESCING"


@keeps("docs/mqsc.md", "TYPE(ALL) or TYPE(*): each connection's line, then its handles'.")
def test_display_conn_type_all_shows_the_connection_then_its_handles() -> None:
    qm = busy()
    conn = value(next(x for x in run(qm, "DIS CONN(*)") if "APP1" in x or "CONN(" in x), "CONN")
    lines = [x for x in run(qm, f"DIS CONN({conn}) TYPE(ALL)") if x.startswith("CSQM201I")]
    assert [value(x, "TYPE") for x in lines] == ["CONN", "HANDLE", "HANDLE"]


@keeps("docs/mqsc.md", "a CONN not there is `CSQM125I ... CONN(...) WAS NOT FOUND`.")
def test_display_conn_of_a_connection_that_is_not_there_is_csqm125i() -> None:
    lines = run(busy(), "DISPLAY CONN(00000000000000FF)")
    assert lines[0].endswith("CONN(00000000000000FF) WAS NOT FOUND")
    assert lines[-1].startswith("CSQ9023E")


@keeps("docs/mqsc.md", "Another TYPE is `CSQ9001E 'TYPE(...)' IS INVALID`")
def test_display_conn_refuses_a_type_ibm_does_not_list_in_one_line() -> None:
    lines = run(busy(), "DISPLAY CONN(*) TYPE(QUEUE)")
    assert lines[0] == "CSQ9001E !QM1 'TYPE(QUEUE)' IS INVALID"
    assert lines[-1].startswith("CSQ9023E")


def inquire(qm: QMgr, parameters: dict[int, object]) -> list[dict[int, object]]:
    request = Message(Header(F.MQCFT_COMMAND, F.MQCMD_INQUIRE_CONNECTION), parameters)  # type: ignore[arg-type]
    return [dict(reply) for reply in inquire_connection(request, qm, status.take(qm, 0.0))]


def test_inquire_connection_answers_each_connection_with_ibm_parameter_identifiers() -> None:
    replies = inquire(busy(), {F.MQBACF_GENERIC_CONNECTION_ID: b""})
    assert len(replies) == 2
    for reply in replies:
        assert len(reply[F.MQBACF_CONNECTION_ID]) == 24  # type: ignore[arg-type]
        assert reply[F.MQIACF_CONN_INFO_TYPE] == F.MQIACF_CONN_INFO_CONN
    tags = {r[F.MQCACF_APPL_TAG]: r for r in replies}
    assert tags["APP1"][F.MQIACF_UOW_STATE] == F.MQUOWST_ACTIVE
    assert tags["APP2"][F.MQCACF_USER_IDENTIFIER] == "BOB"
    assert tags["APP2"][F.MQBACF_CONN_TAG] == b"ORDERS".ljust(128, b"\0")


def test_inquire_connection_by_its_id_and_handle_info_names_the_open_queues() -> None:
    qm = busy()
    (first, _) = inquire(qm, {F.MQBACF_GENERIC_CONNECTION_ID: b""})
    connection_id = first[F.MQBACF_CONNECTION_ID]
    asked = {
        F.MQBACF_CONNECTION_ID: connection_id,
        F.MQIACF_CONN_INFO_TYPE: F.MQIACF_CONN_INFO_HANDLE,
    }
    replies = inquire(qm, asked)
    assert {r[F.MQCACF_OBJECT_NAME] for r in replies} == {"APP.IN", "APP.OUT"}
    by_name = {r[F.MQCACF_OBJECT_NAME]: r for r in replies}
    assert by_name["APP.OUT"][F.MQIACF_OPEN_OPTIONS] == CMQC.MQOO_OUTPUT
    assert by_name["APP.OUT"][F.MQIACF_OBJECT_TYPE] == CMQC.MQOT_Q
    assert all(r[F.MQBACF_CONNECTION_ID] == connection_id for r in replies)


def test_inquire_connection_of_an_unknown_id_is_mqrccf_none_found() -> None:
    with pytest.raises(PCFError, match=r"^no connection matches \(reason 3200\)$"):
        inquire(busy(), {F.MQBACF_CONNECTION_ID: b"\xff" * 24})


def test_inquire_connection_without_an_id_is_mqrccf_parm_count_too_small() -> None:
    with pytest.raises(PCFError, match=r"GenericConnectionId is required \(reason 3019\)$"):
        inquire(busy(), {})


def test_the_command_server_answers_inquire_connection_in_ibm_pcf_layout() -> None:
    """Through the command server's codec, as pymqi's PCFExecute reads the replies."""
    qm = busy()
    asked: list[tuple[int, Value]] = [
        (F.MQBACF_GENERIC_CONNECTION_ID, b""),
        (F.MQIACF_CONN_INFO_TYPE, F.MQIACF_CONN_INFO_ALL),
    ]
    header = Header(F.MQCFT_COMMAND, F.MQCMD_INQUIRE_CONNECTION)
    request = encode(header, asked, CMQC.MQENC_NATIVE)
    answers = process(request, CMQC.MQENC_NATIVE, qm, status.take(qm, 0.0))
    replies = [unpack(answer) for answer in answers]
    assert [cfh.CompCode for _, cfh in replies] == [CMQC.MQCC_OK] * 4  # 2 connections, 2 handles
    assert replies[-1][1].Control == F.MQCFC_LAST
    names = [r.get(F.MQCACF_OBJECT_NAME, b"").strip() for r, _ in replies]
    assert names == [b"", b"APP.IN", b"APP.OUT", b""]  # each connection, then its handles
    tags = [r[F.MQBACF_CONN_TAG] for r, _ in replies if F.MQBACF_CONN_TAG in r]
    assert [t.rstrip(b"\0") for t in tags] == [b"", b"ORDERS"]


def test_pymqi_pcfexecute_inquires_the_connections_of_a_running_queue_manager() -> None:
    """pymqi's own way (a ByteString GenericConnectionId of zero length: every
    connection), through QM1's command server in a started world."""

    def body(world: World) -> list[dict[int, Any]]:
        qmgr = pymqi.connect("QM1")
        reader = pymqi.Queue(qmgr, "APP.REPLIES", CMQC.MQOO_INPUT_SHARED)
        pcf = pymqi.PCFExecute(qmgr)
        replies = pcf.MQCMD_INQUIRE_CONNECTION(
            {
                F.MQBACF_GENERIC_CONNECTION_ID: pymqi.ByteString(b""),
                F.MQIACF_CONN_INFO_TYPE: F.MQIACF_CONN_INFO_HANDLE,
            }
        )
        reader.close()
        return replies

    replies = in_world(body)
    opened = [r[F.MQCACF_OBJECT_NAME].strip() for r in replies if F.MQCACF_OBJECT_NAME in r]
    assert b"APP.REPLIES" in opened  # the program's own handle
    assert b"QM3" in opened  # the sender channel's agent holds its transmission queue
    assert set(replies[-1]) == {F.MQBACF_RESPONSE_ID, F.MQCACF_RESPONSE_Q_MGR_NAME}  # summary
