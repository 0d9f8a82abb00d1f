"""The PCF command server, spoken to as a monitoring tool speaks to it: bytes.

Every request here is built byte by byte with ``struct`` from IBM's layouts ("PCF
structures": MQCFH is nine MQLONGs; MQCFIN Type, StrucLength, Parameter, Value; MQCFST
Type, StrucLength, Parameter, CodedCharSetId, StringLength, String padded to 4; MQCFIL
Type, StrucLength, Parameter, Count, Values), with IBM's numbers written out (not the
project's encoder or constants), put to SYSTEM.ADMIN.COMMAND.QUEUE, and the replies are
parsed the same way. Integers are little-endian: MQENC_NATIVE (0x222) on x86.
"""

from __future__ import annotations

import struct
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import trio
import trio.lowlevel

import qsg
from actors.clock import VirtualClock
from actors.mqi import Connection, Queue
from actors.world import World
from qsg import CMQC, GMO, MD, OD, PMO
from tests.claims import keeps
from tests.test_mqsc_display import busy_world

# IBM's numbers (cmqcfc.h, cmqc.h), written out on purpose.
MQCFT_COMMAND, MQCFT_RESPONSE, MQCFT_INTEGER, MQCFT_STRING = 1, 2, 3, 4
MQCFT_INTEGER_LIST, MQCFT_STRING_LIST, MQCFT_BYTE_STRING = 5, 6, 9
MQCFT_COMMAND_XR, MQCFT_XR_ITEM, MQCFT_XR_SUMMARY = 16, 18, 19
MQRO_PASS_DISCARD_AND_EXPIRY = 0x4000
MQCFC_LAST, MQCFC_NOT_LAST = 1, 0
MQCMD_INQUIRE_Q_MGR, MQCMD_CHANGE_Q, MQCMD_CLEAR_Q, MQCMD_COPY_Q = 2, 8, 9, 10
MQCMD_CREATE_Q, MQCMD_DELETE_Q, MQCMD_INQUIRE_Q, MQCMD_INQUIRE_Q_NAMES = 11, 12, 13, 18
MQCMD_INQUIRE_CHANNEL, MQCMD_PING_Q_MGR = 25, 40
MQCMD_INQUIRE_Q_STATUS, MQCMD_INQUIRE_CHANNEL_STATUS = 41, 42
MQCMD_INQUIRE_CF_STRUC, MQCMD_INQUIRE_CF_STRUC_STATUS = 115, 116
MQCA_Q_NAME, MQCA_Q_MGR_NAME, MQCA_QSG_NAME, MQCA_CF_STRUC_NAME = 2016, 2015, 2040, 2039
MQIA_CURRENT_Q_DEPTH, MQIA_Q_TYPE, MQIA_MAX_Q_DEPTH, MQIA_QSG_DISP = 3, 20, 15, 63
MQIA_OPEN_INPUT_COUNT, MQIA_OPEN_OUTPUT_COUNT, MQIA_EXPIRY_INTERVAL = 17, 18, 39
MQIACF_Q_ATTRS, MQIACF_ALL, MQIACF_PARAMETER_ID, MQIACF_REPLACE = 1002, 1009, 1012, 1006
MQIACF_Q_STATUS_TYPE, MQIACF_Q_HANDLE, MQIACF_OPEN_INPUT_TYPE = 1103, 1104, 1098
MQIACF_CF_STRUC_STATUS, MQIACF_CF_STRUC_ENTRIES_MAX, MQIACF_CF_STRUC_ENTRIES_USED = 1130, 1142, 1143
MQCACF_FROM_Q_NAME, MQCACF_TO_Q_NAME, MQCACF_Q_NAMES = 3001, 3002, 3011
MQBACF_CONNECTION_ID = 7006
MQCACH_CHANNEL_NAME, MQIACH_CHANNEL_TYPE, MQIACH_CHANNEL_STATUS = 3501, 1511, 1527
MQQT_LOCAL, MQQT_ALIAS, MQQSGD_SHARED, MQQSO_SHARED, MQCHS_STOPPED = 1, 3, 2, 1, 6
MQCFSTATUS_ACTIVE, MQCHT_SENDER, MQRP_NO = 1, 1, 0
MQRC_UNKNOWN_OBJECT_NAME = 2085
MQRCCF_CFH_TYPE_ERROR, MQRCCF_CFH_LENGTH_ERROR, MQRCCF_CFH_PARM_COUNT_ERROR = 3001, 3002, 3006
MQRCCF_CFH_COMMAND_ERROR, MQRCCF_CFIN_LENGTH_ERROR, MQRCCF_CFIN_PARM_ID_ERROR = 3007, 3009, 3014
MQRCCF_MSG_LENGTH_ERROR, MQRCCF_PARM_COUNT_TOO_SMALL = 3016, 3019
MQRCCF_OBJECT_ALREADY_EXISTS = 4001
NATIVE = 0x222
NO_SYNC = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)


def cfh(command: int, count: int, *, kind: int = MQCFT_COMMAND, length: int = 36) -> bytes:
    return struct.pack("<9i", kind, length, 1, command, 1, MQCFC_LAST, 0, 0, count)


def cfin(parameter: int, value: int) -> bytes:
    return struct.pack("<4i", MQCFT_INTEGER, 16, parameter, value)


def cfst(parameter: int, text: str) -> bytes:
    data = text.encode()
    padded = data + b" " * (-len(data) % 4)
    return struct.pack("<5i", MQCFT_STRING, 20 + len(padded), parameter, 0, len(data)) + padded


def cfil(parameter: int, values: list[int]) -> bytes:
    n = len(values)
    return struct.pack(f"<4i{n}i", MQCFT_INTEGER_LIST, 16 + 4 * n, parameter, n, *values)


def request(command: int, *parameters: bytes) -> bytes:
    return cfh(command, len(parameters)) + b"".join(parameters)


Reply = tuple[tuple[int, ...], dict[int, object]]


def parse(data: bytes) -> Reply:
    """(MQCFH fields, parameters by identifier), read with struct alone."""
    header = struct.unpack_from("<9i", data)
    assert header[0] in (MQCFT_RESPONSE, MQCFT_XR_ITEM, MQCFT_XR_SUMMARY) and header[1] == 36
    at, params = 36, {}
    for _ in range(header[8]):
        kind, length, parameter = struct.unpack_from("<3i", data, at)
        if kind == MQCFT_INTEGER:
            params[parameter] = struct.unpack_from("<i", data, at + 12)[0]
        elif kind == MQCFT_STRING:
            size = struct.unpack_from("<i", data, at + 16)[0]
            params[parameter] = data[at + 20 : at + 20 + size].decode().rstrip(" ")
        elif kind == MQCFT_INTEGER_LIST:
            count = struct.unpack_from("<i", data, at + 12)[0]
            params[parameter] = list(struct.unpack_from(f"<{count}i", data, at + 16))
        elif kind == MQCFT_STRING_LIST:
            count, size = struct.unpack_from("<2i", data, at + 16)
            params[parameter] = [
                data[at + 24 + i * size : at + 24 + (i + 1) * size].decode().rstrip(" ")
                for i in range(count)
            ]
        elif kind == MQCFT_BYTE_STRING:
            size = struct.unpack_from("<i", data, at + 12)[0]
            params[parameter] = data[at + 16 : at + 16 + size]
        else:
            raise AssertionError(f"unknown structure type {kind}")
        assert length % 4 == 0
        at += length
    assert at == len(data), "bytes after the last parameter"
    return header, params


class Admin:
    """A monitoring tool's connection: a reply queue, and requests as raw bytes."""

    def __init__(self, conn: Connection, replies: Queue) -> None:
        self.conn, self.replies = conn, replies

    async def ask(
        self, data: bytes, fmt: bytes = CMQC.MQFMT_ADMIN, **md_fields: int
    ) -> list[Reply]:
        md = MD(
            Format=fmt,
            MsgType=CMQC.MQMT_REQUEST,
            ReplyToQ=self.replies.name.encode(),
            Encoding=NATIVE,
            **md_fields,
        )
        self.expiries: list[int] = []
        await self.conn.put1("SYSTEM.ADMIN.COMMAND.QUEUE", data, md, NO_SYNC)
        out = []
        while True:
            got = MD(CorrelId=md.MsgId)
            body = await self.replies.get(
                None,
                got,
                GMO(
                    Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT,
                    WaitInterval=5000,
                    MatchOptions=CMQC.MQMO_MATCH_CORREL_ID,
                ),
            )
            if fmt == CMQC.MQFMT_STRING:
                out.append(((), {0: body.decode()}))
                if body.startswith((b"CSQ9022I", b"CSQ9023E")):
                    return out
                continue
            assert got.Format == CMQC.MQFMT_ADMIN and got.MsgType == CMQC.MQMT_REPLY
            self.expiries.append(got.Expiry)
            reply = parse(body)
            out.append(reply)
            if reply[0][5] == MQCFC_LAST:
                return out


@asynccontextmanager
async def admin_of(world: World, q_mgr: str) -> AsyncIterator[Admin]:
    conn = await world.connect(q_mgr)
    model = OD(ObjectName=b"SYSTEM.DEFAULT.MODEL.QUEUE", DynamicQName=b"PCF.REPLY.*")
    replies = await conn.open(model, CMQC.MQOO_INPUT_EXCLUSIVE)
    yield Admin(conn, replies)


@keeps(
    "docs/mq-rules.md",
    (
        "An inquiry is answered one message per object, the last with MQCFC_LAST; a malformed "
        "request gets its MQRCCF reason and the server goes on."
    ),
)
@keeps(
    "docs/mqsc.md",
    (
        "each reply with the request's MsgId as CorrelId, to its ReplyToQ and ReplyToQMgr, "
        "MsgSeqNumber counting from 1, the last with `MQCFC_LAST`."
    ),
)
@keeps("docs/mqsc.md", "Nothing matching an inquiry is MQRC_UNKNOWN_OBJECT_NAME (2085)")
async def test_inquire_q_answers_one_message_per_queue_the_last_with_mqcfc_last(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    async with busy_world(cf_mode) as world, admin_of(world, "QM1") as admin:
        replies = await admin.ask(
            request(
                MQCMD_INQUIRE_Q,
                cfst(MQCA_Q_NAME, "APP.S*"),
                cfil(MQIACF_Q_ATTRS, [MQIA_CURRENT_Q_DEPTH, MQIA_QSG_DISP]),
                # PCF's default (MQQSGD_LIVE) leaves the shared queues out: ALL has them.
                cfin(MQIA_QSG_DISP, -1),
            )
        )
        assert [(h[3], h[4], h[5], h[6], h[7]) for h, _ in replies] == [
            (MQCMD_INQUIRE_Q, 1, MQCFC_NOT_LAST, 0, 0),
            (MQCMD_INQUIRE_Q, 2, MQCFC_LAST, 0, 0),
        ]
        assert [p for _, p in replies] == [
            {
                MQCA_Q_NAME: "APP.SHARED",
                MQIA_Q_TYPE: MQQT_LOCAL,
                MQIA_QSG_DISP: MQQSGD_SHARED,
                MQIA_CURRENT_Q_DEPTH: 3,
            },
            {
                MQCA_Q_NAME: "APP.SMALL",
                MQIA_Q_TYPE: MQQT_LOCAL,
                MQIA_QSG_DISP: MQQSGD_SHARED,
                MQIA_CURRENT_Q_DEPTH: 3,
            },
        ]
        alias = await admin.ask(
            request(MQCMD_INQUIRE_Q, cfst(MQCA_Q_NAME, "APP.*"), cfin(MQIA_Q_TYPE, MQQT_ALIAS))
        )
        assert [p[MQCA_Q_NAME] for _, p in alias] == ["APP.ALIAS"]
        none = await admin.ask(request(MQCMD_INQUIRE_Q, cfst(MQCA_Q_NAME, "NO.SUCH.Q")))
        assert [(h[6], h[7]) for h, _ in none] == [(CMQC.MQCC_FAILED, MQRC_UNKNOWN_OBJECT_NAME)]


async def test_status_inquiries_see_handles_channels_structures_and_the_queue_manager(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    async with busy_world(cf_mode) as world:
        async with admin_of(world, "QM2") as admin:
            (status,) = await admin.ask(
                request(MQCMD_INQUIRE_Q_STATUS, cfst(MQCA_Q_NAME, "APP.SHARED"))
            )
            assert (
                status[1][MQIA_CURRENT_Q_DEPTH],
                status[1][MQIA_OPEN_INPUT_COUNT],
                status[1][MQIA_OPEN_OUTPUT_COUNT],
            ) == (3, 1, 0)
            (handle,) = await admin.ask(
                request(
                    MQCMD_INQUIRE_Q_STATUS,
                    cfst(MQCA_Q_NAME, "APP.SHARED"),
                    cfin(MQIACF_Q_STATUS_TYPE, MQIACF_Q_HANDLE),
                )
            )
            assert handle[1][MQIACF_OPEN_INPUT_TYPE] == MQQSO_SHARED
            connection_id = handle[1][MQBACF_CONNECTION_ID]  # an MQCFBS
            assert isinstance(connection_id, bytes) and len(connection_id) == 24
            (qmgr,) = await admin.ask(request(MQCMD_INQUIRE_Q_MGR, cfil(1001, [MQIACF_ALL])))
            assert (qmgr[1][MQCA_Q_MGR_NAME], qmgr[1][MQCA_QSG_NAME]) == ("QM2", "QSG1")
            assert qmgr[1][MQIA_EXPIRY_INTERVAL] == 0
            (cf,) = await admin.ask(
                request(MQCMD_INQUIRE_CF_STRUC_STATUS, cfst(MQCA_CF_STRUC_NAME, "SMALL"))
            )
            assert (
                cf[1][MQIACF_CF_STRUC_STATUS],
                cf[1][MQIACF_CF_STRUC_ENTRIES_MAX],
                cf[1][MQIACF_CF_STRUC_ENTRIES_USED],
            ) == (MQCFSTATUS_ACTIVE, 4, 3)
            structures = await admin.ask(
                request(MQCMD_INQUIRE_CF_STRUC, cfst(MQCA_CF_STRUC_NAME, "*"))
            )
            assert [p[MQCA_CF_STRUC_NAME] for _, p in structures] == ["APP1", "SMALL"]
        async with admin_of(world, "QM1") as admin:
            (channel,) = await admin.ask(
                request(MQCMD_INQUIRE_CHANNEL, cfst(MQCACH_CHANNEL_NAME, "*"))
            )
            assert (channel[1][MQCACH_CHANNEL_NAME], channel[1][MQIACH_CHANNEL_TYPE]) == (
                "QM1.TO.QM3",
                MQCHT_SENDER,
            )
            channel_name = cfst(MQCACH_CHANNEL_NAME, "QM1.TO.QM3")
            (state,) = await admin.ask(request(MQCMD_INQUIRE_CHANNEL_STATUS, channel_name))
            assert state[1][MQIACH_CHANNEL_STATUS] == MQCHS_STOPPED
            every = cfin(MQIA_QSG_DISP, -1)  # MQQSGD_ALL: with the shared queues
            names_of = request(MQCMD_INQUIRE_Q_NAMES, cfst(MQCA_Q_NAME, "APP.*"), every)
            (names,) = await admin.ask(names_of)
            assert names[1][MQCACF_Q_NAMES] == [
                "APP.ALIAS",
                "APP.MODEL",
                "APP.REPLIES",
                "APP.SHARED",
                "APP.SMALL",
            ]


@keeps(
    "docs/mqsc.md",
    (
        "One of type `MQCFT_COMMAND_XR` (what z/OS expects, and what pymqi's `PCFExecute` sends) "
        "is answered as z/OS answers it, in a set of extended responses: one `MQCFT_XR_ITEM` per "
        "object, then an "
        "`MQCFT_XR_SUMMARY` carrying the command's completion code and reason"
    ),
)
@keeps(
    "docs/mqsc.md",
    (
        "With `MQRO_PASS_DISCARD_AND_EXPIRY` in the request's Report (as `PCFExecute` sets it), "
        "the replies carry the request's remaining Expiry."
    ),
)
async def test_a_command_xr_as_pymqi_sends_it_is_answered_as_z_os_answers_it(
    virtual_clock: VirtualClock,
) -> None:
    # pymqi's PCFExecute: MQCFH Version 3, Type MQCFT_COMMAND_XR, Expiry and
    # MQRO_PASS_DISCARD_AND_EXPIRY. z/OS answers an MQCFT_XR_ITEM per object and ends
    # with an MQCFT_XR_SUMMARY (MQCFC_LAST); replies keep the request's Expiry.
    async with busy_world({"in_process": True}) as world, admin_of(world, "QM1") as admin:
        head = struct.pack("<9i", MQCFT_COMMAND_XR, 36, 3, MQCMD_INQUIRE_Q, 1, MQCFC_LAST, 0, 0, 2)
        every = cfin(MQIA_QSG_DISP, -1)  # MQQSGD_ALL: with the shared queues
        replies = await admin.ask(
            head + cfst(MQCA_Q_NAME, "APP.S*") + every,
            Expiry=50,
            Report=MQRO_PASS_DISCARD_AND_EXPIRY,
        )
        assert [(h[0], h[4], h[5]) for h, _ in replies] == [
            (MQCFT_XR_ITEM, 1, MQCFC_NOT_LAST),
            (MQCFT_XR_ITEM, 2, MQCFC_NOT_LAST),
            (MQCFT_XR_SUMMARY, 3, MQCFC_LAST),
        ]
        assert [p.get(MQCA_Q_NAME) for _, p in replies] == ["APP.SHARED", "APP.SMALL", None]
        assert all(0 < e <= 50 for e in admin.expiries)
        bad = await admin.ask(
            struct.pack("<9i", MQCFT_COMMAND_XR, 36, 3, MQCMD_INQUIRE_Q, 1, MQCFC_LAST, 0, 0, 0)
        )
        assert [(h[0], h[6], h[7]) for h, _ in bad] == [
            (MQCFT_XR_SUMMARY, CMQC.MQCC_FAILED, MQRCCF_PARM_COUNT_TOO_SMALL)
        ]


@keeps(
    "docs/mqsc.md",
    (
        "A change the queue manager refuses is MQRCCF_OBJECT_ALREADY_EXISTS, "
        "MQRCCF_OBJECT_WRONG_TYPE, MQRCCF_OBJECT_OPEN, MQRC_UNKNOWN_OBJECT_NAME, MQRC_Q_NOT_EMPTY "
        "or MQRCCF_ATTR_VALUE_ERROR."
    ),
)
async def test_create_change_copy_clear_and_delete_a_queue_over_pcf(
    virtual_clock: VirtualClock,
) -> None:
    async with busy_world({"in_process": True}) as world, admin_of(world, "QM1") as admin:
        ok = [(0, 0)]

        async def do(data: bytes) -> list[tuple[int, int]]:
            return [(h[6], h[7]) for h, _ in await admin.ask(data)]

        name = cfst(MQCA_Q_NAME, "APP.PCF")
        assert (
            await do(
                request(
                    MQCMD_CREATE_Q, name, cfin(MQIA_Q_TYPE, MQQT_LOCAL), cfin(MQIA_MAX_Q_DEPTH, 7)
                )
            )
            == ok
        )
        assert await do(
            request(
                MQCMD_CREATE_Q, name, cfin(MQIA_Q_TYPE, MQQT_LOCAL), cfin(MQIACF_REPLACE, MQRP_NO)
            )
        ) == [(CMQC.MQCC_FAILED, MQRCCF_OBJECT_ALREADY_EXISTS)]
        assert (
            await do(
                request(
                    MQCMD_CHANGE_Q, name, cfin(MQIA_Q_TYPE, MQQT_LOCAL), cfin(MQIA_MAX_Q_DEPTH, 9)
                )
            )
            == ok
        )
        assert (
            await do(
                request(
                    MQCMD_COPY_Q,
                    cfst(MQCACF_FROM_Q_NAME, "APP.PCF"),
                    cfst(MQCACF_TO_Q_NAME, "APP.PCF.COPY"),
                    cfin(MQIA_Q_TYPE, MQQT_LOCAL),
                )
            )
            == ok
        )
        (copy,) = await admin.ask(
            request(
                MQCMD_INQUIRE_Q,
                cfst(MQCA_Q_NAME, "APP.PCF.COPY"),
                cfil(MQIACF_Q_ATTRS, [MQIA_MAX_Q_DEPTH]),
            )
        )
        assert copy[1][MQIA_MAX_Q_DEPTH] == 9
        for _ in range(4):
            await admin.conn.put1("APP.PCF", b"x", MD(), NO_SYNC)
        assert world.qmgrs["QM1"].rules.depth("APP.PCF") == 4
        assert await do(request(MQCMD_CLEAR_Q, name)) == ok
        assert world.qmgrs["QM1"].rules.depth("APP.PCF") == 0
        assert await do(request(MQCMD_DELETE_Q, name)) == ok
        assert world.qmgrs["QM1"].rules.find("APP.PCF") is None
        assert await do(request(MQCMD_DELETE_Q, name)) == [
            (CMQC.MQCC_FAILED, MQRC_UNKNOWN_OBJECT_NAME)
        ]


@keeps(
    "docs/mq-rules.md",
    (
        "An inquiry is answered one message per object, the last with MQCFC_LAST; a malformed "
        "request gets its MQRCCF reason and the server goes on."
    ),
)
@keeps(
    "docs/mqsc.md",
    (
        "A request that is not well-formed is answered with one response of MQCC_FAILED and the "
        "reason a queue manager gives, never a failure of the queue manager"
    ),
)
async def test_malformed_requests_get_the_mqrccf_reason_and_the_server_keeps_serving(
    virtual_clock: VirtualClock,
) -> None:
    # IBM's "PCF reason codes": the command server answers a bad request with
    # MQCC_FAILED and the reason; it does not stop.
    async with qsg.start(_topology(), in_process=True) as world, admin_of(world, "QM1") as admin:

        async def reason(data: bytes) -> tuple[int, int, dict[int, object]]:
            ((header, params),) = await admin.ask(data)
            return header[6], header[7], params

        failed = CMQC.MQCC_FAILED
        assert await reason(cfh(MQCMD_PING_Q_MGR, 0, kind=MQCFT_RESPONSE)) == (
            failed,
            MQRCCF_CFH_TYPE_ERROR,
            {},
        )
        assert (await reason(cfh(MQCMD_PING_Q_MGR, 0, length=40)))[1] == MQRCCF_CFH_LENGTH_ERROR
        assert (await reason(cfh(MQCMD_INQUIRE_Q, 2) + cfst(MQCA_Q_NAME, "*")))[1] == (
            MQRCCF_CFH_PARM_COUNT_ERROR
        )
        assert (await reason(cfh(9999, 0)))[1] == MQRCCF_CFH_COMMAND_ERROR
        long_cfin = struct.pack("<5i", MQCFT_INTEGER, 20, MQIA_Q_TYPE, 1, 0)
        assert (await reason(cfh(MQCMD_INQUIRE_Q, 1) + long_cfin))[1] == MQRCCF_CFIN_LENGTH_ERROR
        assert (await reason(b"not pcf"))[1] == MQRCCF_MSG_LENGTH_ERROR
        assert await reason(request(MQCMD_INQUIRE_Q, cfst(MQCA_Q_NAME, "*"), cfin(4242, 1))) == (
            failed,
            MQRCCF_CFIN_PARM_ID_ERROR,
            {MQIACF_PARAMETER_ID: 4242},
        )
        assert (await reason(request(MQCMD_INQUIRE_Q)))[1] == MQRCCF_PARM_COUNT_TOO_SMALL
        assert await reason(request(MQCMD_PING_Q_MGR)) == (0, 0, {})


@keeps(
    "docs/mqsc.md",
    (
        "A request in MQSC text (Format `MQSTR`), as z/OS's command server also takes, is answered "
        "with a `CSQN205I COUNT=n, RETURN=..., REASON=...` message and then one message per reply "
        "line."
    ),
)
async def test_an_mqsc_command_in_a_string_message_is_answered_line_by_line(
    virtual_clock: VirtualClock,
) -> None:
    # z/OS's command server also takes MQSC text: CSQN205I first, then a message a line.
    async with qsg.start(_topology(), in_process=True) as world, admin_of(world, "QM1") as admin:
        replies = await admin.ask(b"DISPLAY QLOCAL(APP.SHARED) CURDEPTH", CMQC.MQFMT_STRING)
        lines = [str(p[0]) for _, p in replies]
        # IBM: COUNT is 8 bytes, right-justified, from position 18; RETURN from 35.
        assert lines[0].startswith("CSQN205I   COUNT=       4, RETURN=00000000")
        assert lines[2] == (
            "CSQM401I !QM1 QUEUE(APP.SHARED) TYPE(QLOCAL) QSGDISP(SHARED) CURDEPTH(0)"
        )
        assert lines[3] == "CSQ9022I !QM1 CSQMDRTS ' DISPLAY QLOCAL' NORMAL COMPLETION"
        await trio.lowlevel.checkpoint()


def _topology() -> qsg.Topology:
    from tests.worlds import qsg_and_qm3

    return qsg_and_qm3()


MQCACF_COMMAND_SCOPE, MQCFT_INTEGER_FILTER = 3080, 13
MQRCCF_CFH_CONTROL_ERROR, MQRCCF_COMMAND_FAILED, MQRCCF_STRUCTURE_TYPE_ERROR = 3005, 3008, 3013
MQRCCF_CHL_STATUS_NOT_FOUND, MQRCCF_CHANNEL_NOT_FOUND = 3065, 4032


@keeps(
    "docs/mqsc.md",
    "A request of type `MQCFT_COMMAND` is answered as the distributed platforms answer it: "
    "one `MQCFT_RESPONSE` per object.",
)
@keeps(
    "docs/mqsc.md",
    "Nothing matching an inquiry is MQRC_UNKNOWN_OBJECT_NAME (2085), or "
    "MQRCCF_CHANNEL_NOT_FOUND / MQRCCF_CHL_STATUS_NOT_FOUND for channels.",
)
async def test_a_command_gets_a_response_per_object_and_no_channel_found_its_own_reason(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(_topology(), in_process=True) as world, admin_of(world, "QM1") as admin:
        replies = await admin.ask(request(MQCMD_INQUIRE_Q, cfst(MQCA_Q_NAME, "SYSTEM.COMMAND.*")))
        assert [(h[0], p[MQCA_Q_NAME]) for h, p in replies] == [
            (MQCFT_RESPONSE, "SYSTEM.COMMAND.INPUT"),
            (MQCFT_RESPONSE, "SYSTEM.COMMAND.REPLY.MODEL"),
        ]
        for command, reason in [
            (MQCMD_INQUIRE_CHANNEL, MQRCCF_CHANNEL_NOT_FOUND),
            (MQCMD_INQUIRE_CHANNEL_STATUS, MQRCCF_CHL_STATUS_NOT_FOUND),
        ]:
            (none,) = await admin.ask(request(command, cfst(MQCACH_CHANNEL_NAME, "NO.SUCH.*")))
            assert (none[0][0], none[0][6], none[0][7]) == (
                MQCFT_RESPONSE,
                CMQC.MQCC_FAILED,
                reason,
            )


@keeps(
    "docs/mqsc.md",
    "several messages: answered MQRCCF_STRUCTURE_TYPE_ERROR and MQRCCF_CFH_CONTROL_ERROR.",
)
async def test_what_pcf_does_not_simulate_is_answered_with_its_reason_and_the_server_goes_on(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(_topology(), in_process=True) as world, admin_of(world, "QM1") as admin:

        async def answer(data: bytes) -> tuple[int, int, dict[int, object]]:
            ((header, params),) = await admin.ask(data)
            return header[6], header[7], params

        name = cfst(MQCA_Q_NAME, "APP.*")
        failed = CMQC.MQCC_FAILED
        own = await admin.ask(request(MQCMD_INQUIRE_Q, name, cfst(MQCACF_COMMAND_SCOPE, "QM1")))
        assert own and all(h[6:8] == (0, 0) for h, _ in own)
        integer_filter = struct.pack("<5i", MQCFT_INTEGER_FILTER, 20, MQIA_CURRENT_Q_DEPTH, 2, 5)
        assert (await answer(request(MQCMD_INQUIRE_Q, name, integer_filter)))[:2] == (
            failed,
            MQRCCF_STRUCTURE_TYPE_ERROR,
        )
        first_of_several = struct.pack(
            "<9i", MQCFT_COMMAND, 36, 1, MQCMD_PING_Q_MGR, 1, MQCFC_NOT_LAST, 0, 0, 0
        )
        assert (await answer(first_of_several))[:2] == (failed, MQRCCF_CFH_CONTROL_ERROR)
        assert await answer(request(MQCMD_PING_Q_MGR)) == (0, 0, {})
