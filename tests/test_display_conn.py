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
from datetime import UTC, datetime
from typing import Any

import pytest
import trio

import qsg
from actors.world import World
from qsg import CMQC, GMO, MD, PMO, MQMIError, pymqi
from qsg import CMQCFC as F
from qsg.core.connection import Connection
from qsg.core.conntag import ConnectOptions
from qsg.core.handle import Handle
from qsg.core.qmgr import QMgr
from qsg.mqsc import commands, load, status
from qsg.mqsc.pcf import Header, Message, PCFError, Value, encode
from qsg.mqsc.pcf_commands import process
from qsg.mqsc.pcf_connections import inquire_connection
from qsg.pymqi._pcf_messages import unpack
from tests.claims import keeps
from tests.test_pymqi_pcf import in_world
from tests.worlds import qsg_and_qm3


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


# ---- the unit of work's fields and HSTATE ---------------------------------------------
EPOCH = datetime(2026, 3, 1, 9, 0, 0, tzinfo=UTC)


def conn_line(qm: QMgr, tag: str) -> str:
    lines = run(qm, "DISPLAY CONN(*) ALL")
    return next(x for x in lines if x.startswith("CSQM201I") and f"APPLTAG({tag})" in x)


def uow_fields(qm: QMgr, tag: str) -> dict[str, str]:
    line = conn_line(qm, tag)
    keys = ("UOWSTATE", "UOWSTDA", "UOWSTTI", "UOWLOGDA", "UOWLOGTI", "QMURID", "URTYPE")
    return {k: value(line, k) for k in keys}


def worker() -> tuple[QMgr, Connection, Handle]:
    qm = QMgr("QM1", epoch=EPOCH)
    load(qm, "DEFINE QLOCAL(APP.WORK)")
    conn = qm.connect("ALICE", "WORKER")
    return qm, conn, conn.open("APP.WORK", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)


def in_syncpoint(handle: Handle, now: float, persistence: int) -> None:
    md = MD(Persistence=persistence)
    handle.put(b"work", md, PMO(Options=CMQC.MQPMO_SYNCPOINT), now=now)


@keeps(
    "docs/mqsc.md",
    "UOWSTDA and UOWSTTI (when its first put or get in syncpoint was made; blank without a "
    "unit of work)",
)
@keeps(
    "docs/mqsc.md",
    "UOWLOGDA and UOWLOGTI (when the unit of work first wrote to the log: its first "
    "persistent message put or got; blank until then)",
)
@keeps(
    "docs/mqsc.md",
    "A date is yyyy-mm-dd and a time hh.mm.ss, of the simulated clock counted from the queue "
    "manager's epoch.",
)
def test_display_conn_shows_when_the_unit_of_work_started_and_first_wrote_to_the_log() -> None:
    # IBM, "DISPLAY CONN": UOWSTDA/UOWSTTI "the date/time that the unit of work associated
    # with this connection was started"; UOWLOGDA/UOWLOGTI "the date/time that the
    # transaction associated with the current connection first wrote to the log".
    qm, conn, handle = worker()
    blank = {"UOWSTATE": "NONE", "UOWSTDA": "", "UOWSTTI": "", "UOWLOGDA": "", "UOWLOGTI": ""}
    assert uow_fields(qm, "WORKER").items() >= blank.items()
    in_syncpoint(handle, 65.0, CMQC.MQPER_NOT_PERSISTENT)  # 09.01.05: starts it, no log
    fields = uow_fields(qm, "WORKER")
    assert (fields["UOWSTATE"], fields["UOWSTDA"], fields["UOWSTTI"]) == (
        "ACTIVE",
        "2026-03-01",
        "09.01.05",
    )
    assert (fields["UOWLOGDA"], fields["UOWLOGTI"]) == ("", "")
    in_syncpoint(handle, 130.0, CMQC.MQPER_PERSISTENT)  # 09.02.10: its first log write
    in_syncpoint(handle, 200.0, CMQC.MQPER_PERSISTENT)  # logged again: the first stays
    fields = uow_fields(qm, "WORKER")
    assert (fields["UOWSTDA"], fields["UOWSTTI"]) == ("2026-03-01", "09.01.05")
    assert (fields["UOWLOGDA"], fields["UOWLOGTI"]) == ("2026-03-01", "09.02.10")
    conn.commit()
    assert uow_fields(qm, "WORKER").items() >= blank.items()
    # The next unit of work, a day later, starts with a get of the nonpersistent
    # message, and first writes to the log with a get of a persistent one.
    gmo = GMO(Options=CMQC.MQGMO_SYNCPOINT)
    handle.get(None, MD(), gmo, now=86400.0 + 5.0)
    fields = uow_fields(qm, "WORKER")
    assert (fields["UOWSTDA"], fields["UOWSTTI"]) == ("2026-03-02", "09.00.05")
    assert (fields["UOWLOGDA"], fields["UOWLOGTI"]) == ("", "")
    handle.get(None, MD(), gmo, now=86400.0 + 10.0)
    fields = uow_fields(qm, "WORKER")
    assert (fields["UOWSTDA"], fields["UOWSTTI"]) == ("2026-03-02", "09.00.05")
    assert (fields["UOWLOGDA"], fields["UOWLOGTI"]) == ("2026-03-02", "09.00.10")
    conn.backout()
    assert uow_fields(qm, "WORKER").items() >= blank.items()


@keeps(
    "docs/mqsc.md",
    "QMURID (the unit of recovery of its unit of work: a number the queue manager gives each "
    "unit of work when it starts, never the same twice, shown in 16 hex digits as z/OS shows "
    "its 8-byte log RBA; zeros without a unit of work)",
)
def test_qmurid_names_each_unit_of_work_once_and_is_zeros_without_one() -> None:
    # IBM, "DISPLAY CONN": QMURID "the queue manager unit of recovery identifier. On
    # z/OS, this is an 8-byte log RBA, displayed as 16 hexadecimal characters"; URTYPE
    # QMGR: "the associated identifier is in QMURID".
    qm, conn, handle = worker()
    other = qm.connect("BOB", "OTHER")
    other_handle = other.open("APP.WORK", CMQC.MQOO_OUTPUT)
    assert value(conn_line(qm, "WORKER"), "QMURID") == "0" * 16
    seen = []
    for now in (1.0, 2.0, 3.0):
        in_syncpoint(handle, now, CMQC.MQPER_NOT_PERSISTENT)
        in_syncpoint(other_handle, now, CMQC.MQPER_NOT_PERSISTENT)
        fields = uow_fields(qm, "WORKER")
        assert fields["URTYPE"] == "QMGR"
        seen += [fields["QMURID"], value(conn_line(qm, "OTHER"), "QMURID")]
        conn.commit()
        other.backout()
    assert all(re.fullmatch(r"[0-9A-F]{16}", urid) and int(urid, 16) for urid in seen)
    assert len(set(seen)) == 6  # never the same twice, across connections
    # Within one unit of work it stays: a second put does not renumber it.
    in_syncpoint(handle, 4.0, CMQC.MQPER_NOT_PERSISTENT)
    first = value(conn_line(qm, "WORKER"), "QMURID")
    in_syncpoint(handle, 5.0, CMQC.MQPER_NOT_PERSISTENT)
    assert value(conn_line(qm, "WORKER"), "QMURID") == first


def test_a_restarted_queue_managers_units_of_recovery_do_not_repeat_its_earlier_lifes() -> None:
    # z/OS's log RBA only grows: a unit of recovery of the queue manager's next life has
    # an identifier none of the last had.
    urids = []
    for incarnation in (0, 1):
        qm = QMgr("QM1", incarnation=incarnation)
        load(qm, "DEFINE QLOCAL(APP.WORK)")
        handle = qm.connect("ALICE", "WORKER").open("APP.WORK", CMQC.MQOO_OUTPUT)
        in_syncpoint(handle, 1.0, CMQC.MQPER_NOT_PERSISTENT)
        urids.append(int(value(conn_line(qm, "WORKER"), "QMURID"), 16))
    assert urids[1] > urids[0]


def test_inquire_connection_answers_the_unit_of_works_dates_and_qmgr_uow_id() -> None:
    # IBM, "Inquire Connection (Response)": QMgrUOWId (MQBACF_Q_MGR_UOW_ID),
    # UOWLogStartDate/Time, UOWStartDate/Time (MQCACF_UOW_*), UOWState, UOWType.
    qm, conn, handle = worker()
    in_syncpoint(handle, 3661.0, CMQC.MQPER_PERSISTENT)  # 10.01.01
    (reply,) = inquire(qm, {F.MQBACF_GENERIC_CONNECTION_ID: b""})[-1:]
    urid = value(conn_line(qm, "WORKER"), "QMURID")
    assert reply[F.MQBACF_Q_MGR_UOW_ID] == bytes.fromhex(urid)
    assert reply[F.MQCACF_UOW_START_DATE] == reply[F.MQCACF_UOW_LOG_START_DATE] == "2026-03-01"
    assert reply[F.MQCACF_UOW_START_TIME] == reply[F.MQCACF_UOW_LOG_START_TIME] == "10.01.01"
    assert reply[F.MQIACF_UOW_STATE] == F.MQUOWST_ACTIVE
    assert reply[F.MQIACF_UOW_TYPE] == F.MQUOWT_Q_MGR
    conn.commit()
    (reply,) = inquire(qm, {F.MQBACF_GENERIC_CONNECTION_ID: b""})[-1:]
    assert reply[F.MQBACF_Q_MGR_UOW_ID] == bytes(8)
    assert reply[F.MQCACF_UOW_START_DATE] == reply[F.MQCACF_UOW_LOG_START_TIME] == ""
    assert reply[F.MQIACF_UOW_STATE] == F.MQUOWST_NONE


def test_the_command_server_pads_the_unit_of_works_dates_and_times_as_ibm_does() -> None:
    # MQ_DATE_LENGTH 12 and MQ_TIME_LENGTH 8: the MQCFST strings of Inquire Connection.
    qm, _, handle = worker()
    in_syncpoint(handle, 1.0, CMQC.MQPER_PERSISTENT)
    asked: list[tuple[int, Value]] = [(F.MQBACF_GENERIC_CONNECTION_ID, b"")]
    header = Header(F.MQCFT_COMMAND, F.MQCMD_INQUIRE_CONNECTION)
    answers = process(
        encode(header, asked, CMQC.MQENC_NATIVE), CMQC.MQENC_NATIVE, qm, status.take(qm, 0.0)
    )
    reply, _ = unpack(answers[-1])
    assert reply[F.MQCACF_UOW_START_DATE] == b"2026-03-01".ljust(12)
    assert reply[F.MQCACF_UOW_LOG_START_TIME] == b"09.00.01"
    assert len(reply[F.MQBACF_Q_MGR_UOW_ID]) == 8


@keeps(
    "docs/mqsc.md",
    "HSTATE (ACTIVE while an MQGET with MQGMO_WAIT waits on the handle, else INACTIVE)",
)
def test_hstate_is_active_while_an_mqget_wait_is_in_progress_on_the_handle() -> None:
    # IBM, "DISPLAY CONN": HSTATE ACTIVE, "an API call from a connection is currently in
    # progress for this object. For a queue, this condition can arise when an MQGET WAIT
    # call is in progress"; INACTIVE otherwise. The same in PCF (MQIACF_HANDLE_STATE).

    async def main() -> tuple[list[str], list[str], list[int]]:
        async with qsg.start(qsg_and_qm3(), in_process=True) as world:
            conn = await world.connect("QM1")
            queue = await conn.open("APP.REPLIES", CMQC.MQOO_INPUT_SHARED)
            rules = world.qmgrs["QM1"].rules

            def hstates() -> list[str]:
                lines = run(rules, "DISPLAY CONN(*) TYPE(HANDLE) ALL")
                return [value(x, "HSTATE") for x in lines if "OBJNAME(APP.REPLIES)" in x]

            async def waiting_get() -> None:
                gmo = GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, WaitInterval=10_000)
                with pytest.raises(MQMIError) as nothing:
                    await queue.get(None, MD(), gmo)
                assert nothing.value.reason == CMQC.MQRC_NO_MSG_AVAILABLE

            before = hstates()
            async with trio.open_nursery() as nursery:
                nursery.start_soon(waiting_get)
                await trio.sleep(1)
                during = hstates()
                asked = {
                    F.MQBACF_GENERIC_CONNECTION_ID: b"",
                    F.MQIACF_CONN_INFO_TYPE: F.MQIACF_CONN_INFO_HANDLE,
                }
                pcf = [
                    r[F.MQIACF_HANDLE_STATE]
                    for r in inquire(rules, asked)
                    if r[F.MQCACF_OBJECT_NAME] == "APP.REPLIES"
                ]
            return before + hstates(), during, pcf  # type: ignore[return-value]

    not_waiting, during, pcf = qsg.run(main)
    assert not_waiting == ["INACTIVE", "INACTIVE"]  # before the get, and after it ended
    assert during == ["ACTIVE"]
    assert pcf == [F.MQHSTATE_ACTIVE]
