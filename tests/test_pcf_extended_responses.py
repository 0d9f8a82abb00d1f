"""z/OS's extended PCF responses and CommandScope, read as bytes from IBM's layouts.

Requests are built with ``struct`` from IBM's "PCF structures" (MQCFH nine MQLONGs;
MQCFST Type, StrucLength, Parameter, CodedCharSetId, StringLength, String; MQCFIN Type,
StrucLength, Parameter, Value) and IBM's numbers written out; the replies are parsed the
same way (MQCFBS: Type, StrucLength, Parameter, StringLength, String), never with the
project's encoder. What they pin is IBM's "Extended responses" ("Each set of responses
comprises one or more messages, numbered sequentially from 1 in the MsgSeqNumber field
... The Control field of the last (or only) response in each set has the value
MQCFC_LAST"; "Extended responses have at least two parameter structures":
MQBACF_RESPONSE_ID and MQCACF_RESPONSE_Q_MGR_NAME; MQBACF_RESPONSE_SET announces a set)
and "Extended responses to commands using CommandScope" (an initial set from the
receiving queue manager with MQIACF_COMMAND_INFO MQCMDI_CMDSCOPE_ACCEPTED and
MQIACF_CMDSCOPE_Q_MGR_COUNT, a set per queue manager the command is directed to, and a
final set from the receiving queue manager with the overall MQCFT_XR_SUMMARY).
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import pytest

import qsg
from actors import admin
from actors.clock import VirtualClock
from actors.world import World
from qsg import CMQC, GMO, MD, OD, PMO
from qsg import pymqi as facade
from qsg.commands.exec.command import run_exec
from qsg.commands.exec.program import parse_command
from qsg.commands.exec.runner import facade_bound
from qsg.scenario import load_scenario
from tests.claims import keeps
from tests.test_cmdscope import MEMBERS, three_members

ROOT = Path(__file__).resolve().parent.parent
# IBM's numbers (cmqcfc.h, cmqc.h), written out on purpose.
MQCFT_COMMAND, MQCFT_INTEGER, MQCFT_STRING, MQCFT_BYTE_STRING = 1, 3, 4, 9
MQCFT_COMMAND_XR, MQCFT_XR_MSG, MQCFT_XR_ITEM, MQCFT_XR_SUMMARY = 16, 17, 18, 19
MQCFC_LAST, MQCFC_NOT_LAST = 1, 0
MQCMD_CREATE_Q, MQCMD_INQUIRE_Q = 11, 13
MQCA_Q_NAME, MQIA_Q_TYPE, MQIA_QSG_DISP, MQCA_CF_STRUC_NAME = 2016, 20, 63, 2039
MQIACF_PARAMETER_ID, MQIACF_COMMAND_INFO, MQIACF_CMDSCOPE_Q_MGR_COUNT = 1012, 1120, 1121
MQCACF_RESPONSE_Q_MGR_NAME, MQCACF_COMMAND_SCOPE = 3070, 3080
MQBACF_RESPONSE_SET, MQBACF_RESPONSE_ID = 7003, 7004
MQCMDI_CMDSCOPE_ACCEPTED, MQCMDI_CMDSCOPE_COMPLETED = 1, 3
MQQT_LOCAL, MQQSGD_SHARED = 1, 2
MQRC_Q_MGR_NOT_AVAILABLE, MQRCCF_Q_MGR_NOT_IN_QSG, MQRCCF_DISPOSITION_CONFLICT = 2059, 3212, 3211
NATIVE = 0x222  # MQENC_NATIVE on x86: integers little-endian

Parameters = list[tuple[int, Any]]  # in order: a parameter may come more than once
Reply = tuple[tuple[int, ...], Parameters]


def cfst(parameter: int, text: str) -> bytes:
    data = text.encode()
    padded = data + b" " * (-len(data) % 4)
    return struct.pack("<5i", MQCFT_STRING, 20 + len(padded), parameter, 0, len(data)) + padded


def cfin(parameter: int, value: int) -> bytes:
    return struct.pack("<4i", MQCFT_INTEGER, 16, parameter, value)


def request(command: int, *parameters: bytes, kind: int = MQCFT_COMMAND_XR) -> bytes:
    header = struct.pack("<9i", kind, 36, 3, command, 1, MQCFC_LAST, 0, 0, len(parameters))
    return header + b"".join(parameters)


def parse(data: bytes) -> Reply:
    """(MQCFH fields, parameters in order), read with struct alone."""
    header = struct.unpack_from("<9i", data)
    assert header[1] == 36
    at, params = 36, []
    for _ in range(header[8]):
        kind, length, parameter = struct.unpack_from("<3i", data, at)
        if kind == MQCFT_INTEGER:
            params.append((parameter, struct.unpack_from("<i", data, at + 12)[0]))
        elif kind == MQCFT_STRING:
            size = struct.unpack_from("<i", data, at + 16)[0]
            params.append((parameter, data[at + 20 : at + 20 + size].decode().rstrip(" ")))
        elif kind == MQCFT_BYTE_STRING:
            size = struct.unpack_from("<i", data, at + 12)[0]
            params.append((parameter, data[at + 16 : at + 16 + size]))
        elif kind in (5, 6):  # MQCFIL, MQCFSL: not looked into here
            params.append((parameter, None))
        else:
            raise AssertionError(f"unknown structure type {kind}")
        assert length % 4 == 0
        at += length
    assert at == len(data), "bytes after the last parameter"
    return header, params


def one(params: Parameters, parameter: int) -> Any:
    (value,) = [v for p, v in params if p == parameter]
    return value


async def ask(world: World, q_mgr: str, data: bytes) -> list[Reply]:
    """Put ``data`` to ``q_mgr``'s command queue and read every reply that comes (the
    command server answers at the simulated moment it reads a request: a second of
    simulated time with nothing more means nothing more is coming)."""
    conn = await world.connect(q_mgr)
    model = OD(ObjectName=b"SYSTEM.DEFAULT.MODEL.QUEUE", DynamicQName=b"PCF.XR.*")
    replies = await conn.open(model, CMQC.MQOO_INPUT_EXCLUSIVE)
    md = MD(
        Format=CMQC.MQFMT_ADMIN,
        MsgType=CMQC.MQMT_REQUEST,
        ReplyToQ=replies.name.encode(),
        Encoding=NATIVE,
    )
    await conn.put1("SYSTEM.ADMIN.COMMAND.QUEUE", data, md, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT))
    out: list[Reply] = []
    while True:
        got = MD(CorrelId=md.MsgId)
        try:
            body = await replies.get(
                None,
                got,
                GMO(
                    Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT,
                    WaitInterval=1000,
                    MatchOptions=CMQC.MQMO_MATCH_CORREL_ID,
                ),
            )
        except qsg.MQMIError as error:
            if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
                raise
            return out
        out.append(parse(body))


@keeps(
    "docs/mqsc.md",
    'each starting with the two parameters IBM\'s "Extended responses" puts in every one',
)
@keeps(
    "docs/mqsc.md",
    "A CommandScope (MQCACF_COMMAND_SCOPE) of `*` or of another member runs the command on",
)
async def test_command_scope_star_is_answered_a_set_per_member_between_the_receivers_sets(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(three_members(), in_process=True) as world:
        await admin.command(world, "QM1", "DEFINE QLOCAL(APP.EACH) CMDSCOPE(*)")
        await admin.command(world, "QM3", "DEFINE QLOCAL(APP.EXTRA)")
        data = request(
            MQCMD_INQUIRE_Q,
            cfst(MQCA_Q_NAME, "APP.*"),
            cfin(MQIA_Q_TYPE, MQQT_LOCAL),
            cfst(MQCACF_COMMAND_SCOPE, "*"),
        )
        replies = await ask(world, "QM2", data)
    # (Type, MsgSeqNumber, Control, CompCode, Reason) of every reply, set by set.
    shape = [(h[0], h[4], h[5], h[6], h[7]) for h, _ in replies]
    xr_item, xr_sum = MQCFT_XR_ITEM, MQCFT_XR_SUMMARY
    assert shape == [
        (MQCFT_XR_MSG, 1, MQCFC_LAST, 0, 0),  # QM2 accepted it
        (xr_item, 1, MQCFC_NOT_LAST, 0, 0),  # QM1: APP.EACH
        (xr_sum, 2, MQCFC_LAST, 0, 0),
        (xr_item, 1, MQCFC_NOT_LAST, 0, 0),  # QM2: APP.EACH
        (xr_sum, 2, MQCFC_LAST, 0, 0),
        (xr_item, 1, MQCFC_NOT_LAST, 0, 0),  # QM3: APP.EACH, APP.EXTRA
        (xr_item, 2, MQCFC_NOT_LAST, 0, 0),
        (xr_sum, 3, MQCFC_LAST, 0, 0),
        (MQCFT_XR_MSG, 1, MQCFC_NOT_LAST, 0, 0),  # QM2: all done
        (xr_sum, 2, MQCFC_LAST, 0, 0),
    ]
    assert {h[3] for h, _ in replies} == {MQCMD_INQUIRE_Q}
    # Every reply: its set's identifier (24 bytes) and the queue manager of the set.
    ids = [one(p, MQBACF_RESPONSE_ID) for _, p in replies]
    by = [one(p, MQCACF_RESPONSE_Q_MGR_NAME) for _, p in replies]
    assert {len(i) for i in ids} == {24}
    assert by == ["QM2", "QM1", "QM1", "QM2", "QM2", "QM3", "QM3", "QM3", "QM2", "QM2"]
    first = replies[0][1]
    assert one(first, MQIACF_COMMAND_INFO) == MQCMDI_CMDSCOPE_ACCEPTED
    assert one(first, MQIACF_CMDSCOPE_Q_MGR_COUNT) == len(MEMBERS)
    announced = [v for p, v in first if p == MQBACF_RESPONSE_SET]
    # The sets to come are those announced, each with one identifier of its own.
    assert announced == [ids[1], ids[3], ids[5], ids[8]]
    assert len(set(announced) | {ids[0]}) == 5
    assert ids[1] == ids[2] and ids[5] == ids[6] == ids[7] and ids[8] == ids[9]
    assert one(replies[8][1], MQIACF_COMMAND_INFO) == MQCMDI_CMDSCOPE_COMPLETED
    names = [one(p, MQCA_Q_NAME) for h, p in replies if h[0] == MQCFT_XR_ITEM]
    assert names == ["APP.EACH", "APP.EACH", "APP.EACH", "APP.EXTRA"]


@keeps(
    "docs/mqsc.md",
    "A CommandScope on a queue manager outside a QSG is MQRCCF_Q_MGR_NOT_IN_QSG (3212)",
)
async def test_a_command_scope_that_cannot_be_sent_is_one_failed_summary_naming_it(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(three_members(), in_process=True) as world:
        await world.kill("QM3")
        asked = cfst(MQCA_Q_NAME, "*")
        refusals = {
            "inactive": await ask(
                world, "QM1", request(MQCMD_INQUIRE_Q, asked, cfst(MQCACF_COMMAND_SCOPE, "QM3"))
            ),
            "outside": await ask(
                world, "QM4", request(MQCMD_INQUIRE_Q, asked, cfst(MQCACF_COMMAND_SCOPE, "*"))
            ),
            "shared": await ask(
                world,
                "QM1",
                request(
                    MQCMD_CREATE_Q,
                    cfst(MQCA_Q_NAME, "APP.S"),
                    cfin(MQIA_Q_TYPE, MQQT_LOCAL),
                    cfin(MQIA_QSG_DISP, MQQSGD_SHARED),
                    cfst(MQCA_CF_STRUC_NAME, "APP1"),
                    cfst(MQCACF_COMMAND_SCOPE, "*"),
                ),
            ),
        }
        assert world.qmgrs["QM1"].rules.find("APP.S") is None
    reasons = {
        "inactive": MQRC_Q_MGR_NOT_AVAILABLE,
        "outside": MQRCCF_Q_MGR_NOT_IN_QSG,
        "shared": MQRCCF_DISPOSITION_CONFLICT,
    }
    for what, replies in refusals.items():
        ((header, params),) = replies
        assert (header[0], header[4], header[5], header[6], header[7]) == (
            MQCFT_XR_SUMMARY,
            1,
            MQCFC_LAST,
            CMQC.MQCC_FAILED,
            reasons[what],
        ), what
        assert one(params, MQIACF_PARAMETER_ID) == MQCACF_COMMAND_SCOPE


async def test_a_member_whose_inquiry_fails_fails_the_overall_summary(
    virtual_clock: VirtualClock,
) -> None:
    # "If the Inquire command fails ... a summary response ... with a CompCode value of
    # MQCC_FAILED, and a Reason field value of MQRCCF_COMMAND_FAILED."
    async with qsg.start(three_members(), in_process=True) as world:
        await admin.command(world, "QM2", "DEFINE QLOCAL(APP.ONLY.QM2)")
        data = request(
            MQCMD_INQUIRE_Q, cfst(MQCA_Q_NAME, "APP.ONLY.QM2"), cfst(MQCACF_COMMAND_SCOPE, "*")
        )
        replies = await ask(world, "QM1", data)
    summaries = [(one(p, MQCACF_RESPONSE_Q_MGR_NAME), h[6], h[7]) for h, p in replies if h[0] == 19]
    assert summaries == [
        ("QM1", CMQC.MQCC_FAILED, CMQC.MQRC_UNKNOWN_OBJECT_NAME),
        ("QM2", 0, 0),
        ("QM3", CMQC.MQCC_FAILED, CMQC.MQRC_UNKNOWN_OBJECT_NAME),
        ("QM1", CMQC.MQCC_FAILED, 3008),  # overall: MQRCCF_COMMAND_FAILED
    ]


def in_group(body: Any) -> Any:
    async def main() -> Any:
        async with (
            qsg.start(three_members(), in_process=True, seed=7) as world,
            facade_bound(world, virtual=True),
        ):
            await admin.command(world, "QM1", "DEFINE QLOCAL(APP.EACH) CMDSCOPE(*)")
            return body(world)

    return qsg.run(main)


@keeps(
    "docs/pymqi.md",
    "A command with a CommandScope is read set after set until the set that says "
    "MQCMDI_CMDSCOPE_COMPLETED ends",
)
def test_pcfexecute_on_a_z_os_member_reads_every_members_set_and_leaves_nothing_behind() -> None:
    def body(world: World) -> tuple[list[Any], list[Any], int]:
        qmgr = facade.connect("QM2")
        pcf = facade.PCFExecute(qmgr)
        scope = {facade.CMQCFC.MQCACF_COMMAND_SCOPE: b"*"}
        asked = {facade.CMQC.MQCA_Q_NAME: b"APP.EACH", **scope}
        every = pcf.MQCMD_INQUIRE_Q(asked)
        responses: list[Any] = []
        pcf.MQCMD_INQUIRE_Q(asked, responses=responses)
        assert pcf.reply_queue_name is not None
        looking = facade.Queue(qmgr, pcf.reply_queue_name, facade.CMQC.MQOO_INQUIRE)
        left = looking.inquire(facade.CMQC.MQIA_CURRENT_Q_DEPTH)
        return every, responses, left

    every, responses, left = in_group(body)
    name, by = facade.CMQC.MQCA_Q_NAME, facade.CMQCFC.MQCACF_RESPONSE_Q_MGR_NAME
    # pymqi's list: every reply's dict, the XR messages and summaries among them.
    assert len(every) == 1 + 3 * 2 + 2
    assert [(r[by].strip(), r[name].strip()) for r in every if name in r] == [
        (b"QM1", b"APP.EACH"),
        (b"QM2", b"APP.EACH"),
        (b"QM3", b"APP.EACH"),
    ]
    # ibmmq's responses=[]: the items alone, with their CFHs.
    assert [(cfh.Type, p[by].strip()) for p, cfh in responses] == [
        (MQCFT_XR_ITEM, b"QM1"),
        (MQCFT_XR_ITEM, b"QM2"),
        (MQCFT_XR_ITEM, b"QM3"),
    ]
    assert left == 0  # every set read to its MQCFC_LAST


@keeps(
    "docs/pymqi.md",
    "asks a z/OS queue-sharing group for its queues as IBM's metrics code does",
)
def test_a_program_asking_with_qsgdisposition_all_gets_the_shared_queues(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # IBM's mqmetric (discover.go) sends MQIA_QSG_DISP=MQQSGD_ALL to z/OS because shared
    # queues are not returned unless asked for; "Inquire Queue": QSGDisposition LIVE "is
    # the default value if the parameter is not specified", ALL is QMGR and COPY "and,
    # for queues, SHARED". The program connects by the group's name.
    scenario = load_scenario(ROOT / "scenarios" / "exec-monitor.toml")
    program = parse_command(
        ["python", str(ROOT / "scenarios" / "programs" / "qsg_queues.py"), "QSG1", "*"]
    )
    outcome, _ = run_exec(scenario, program, virtual=True)
    assert outcome.exit_status == 0 and not outcome.stopped
    found = {}
    for line in capsys.readouterr().out.splitlines():
        head, _, listed = line.partition(": ")
        where, _, label = head.partition(" QSGDisposition ")
        found[label] = set(listed.split(", "))
    assert where in ("QM1", "QM2")
    assert "APP.ORDERS SHARED" in found["ALL"]  # the group's shared queue
    assert "SYSTEM.COMMAND.INPUT QMGR" in found["ALL"]  # and the member's own
    assert found["default"] == found["LIVE"]  # the PCF default is LIVE
    assert found["LIVE"] <= found["ALL"]
