"""``pymqi.PCFExecute`` against the simulated queue managers' command servers, as a
monitoring script uses it (issue 42: it was a stub that raised MQRC_UNKNOWN_OBJECT_NAME
while README.md and docs/mqsc.md said PCFExecute works).

Each test's body is synchronous pymqi code in a started world (QSG1 of QM1 and QM2 on
z/OS, QM3 outside it reached by the sender channel QM1.TO.QM3: tests/worlds.py), run
as a program under ``qsg exec`` runs (``facade_bound``, virtual clock). What PCFExecute
does is pymqi 1.12's: a request of type MQCFT_COMMAND_XR put to
SYSTEM.ADMIN.COMMAND.QUEUE with its ReplyToQ a temporary dynamic queue made from
SYSTEM.DEFAULT.MODEL.QUEUE (PYMQPCF.*), the replies got by CorrelId until MQCFC_LAST,
each one a dict keyed by parameter identifier; a reply whose CompCode is not MQCC_OK is
pymqi's MQMIError with the reply's Reason (IBM: "PCF responses in IBM MQ", "Extended
responses": a z/OS queue manager ends each set with an MQCFT_XR_SUMMARY, which pymqi
returns as a dict of MQBACF_RESPONSE_ID and MQCACF_RESPONSE_Q_MGR_NAME, the two
parameters every extended response carries).
"""

from __future__ import annotations

import dataclasses
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
import trio

import qsg
from actors.events import MessagePut, OpInvoked
from actors.world import World
from qsg import pymqi
from qsg.commands.exec.command import run_exec
from qsg.commands.exec.program import parse_command
from qsg.commands.exec.runner import facade_bound
from qsg.pymqi import CMQC, CMQCFC
from qsg.scenario import load_scenario
from tests.claims import keeps
from tests.worlds import qsg_and_qm3

T = TypeVar("T")
ROOT = Path(__file__).resolve().parent.parent
NO_SYNC = CMQC.MQPMO_NO_SYNCPOINT


def in_world(body: Callable[[World], T]) -> T:
    """``body(world)`` as a program's synchronous code, in a started world."""

    async def main() -> T:
        async with (
            qsg.start(qsg_and_qm3(), in_process=True, seed=42) as world,
            facade_bound(world, virtual=True),
        ):
            return body(world)

    return qsg.run(main)


def put(qmgr: Any, queue: str, count: int) -> None:
    q = pymqi.Queue(qmgr, queue)
    for i in range(count):
        q.put(b"order %d" % i, pymqi.MD(), pymqi.PMO(Options=NO_SYNC))
    q.close()


def pcf_error(reason: int, name: str) -> Any:
    """pymqi's MQMIError for a failed PCF reply, as pymqi prints it."""
    return pytest.raises(
        pymqi.MQMIError, match=rf"^MQI Error\. Comp: 2, Reason {reason}: FAILED: {name}$"
    )


def names(replies: list[dict[int, Any]], key: int = CMQC.MQCA_Q_NAME) -> list[bytes]:
    return [r[key].strip() for r in replies if key in r]


# ---- the monitoring script's questions ------------------------------------------------


@keeps(
    "docs/pymqi.md",
    "The z/OS queue managers answer with an item per object and then a summary, which comes "
    "back as a dict of the two parameters every extended response",
)
@keeps(
    "docs/mqsc.md",
    (
        "(so `PCFExecute` returns a dictionary per object and one for the summary that holds "
        "only those two, as against a real z/OS queue manager)"
    ),
)
def test_inquire_q_answers_each_matching_queue_with_its_depth_and_a_summary_last() -> None:
    # "PCF responses": a generic name is answered object by object; "Extended
    # responses": a z/OS queue manager ends the set with MQCFT_XR_SUMMARY, and "extended
    # responses have at least two parameter structures": MQBACF_RESPONSE_ID and
    # MQCACF_RESPONSE_Q_MGR_NAME.
    def body(world: World) -> list[dict[int, Any]]:
        qmgr = pymqi.connect("QM1")
        put(qmgr, "APP.SHARED", 3)
        pcf = pymqi.PCFExecute(qmgr)
        # As IBM's metrics code asks a z/OS queue manager: MQQSGD_ALL, or PCF's default
        # (MQQSGD_LIVE) leaves the shared queues out.
        everything = {CMQC.MQIA_QSG_DISP: CMQC.MQQSGD_ALL}
        return pcf.MQCMD_INQUIRE_Q(
            {CMQC.MQCA_Q_NAME: b"APP.*", CMQC.MQIA_Q_TYPE: CMQC.MQQT_LOCAL, **everything}
        )

    replies = in_world(body)
    assert names(replies) == [b"APP.REPLIES", b"APP.SHARED"]
    depths = {
        r[CMQC.MQCA_Q_NAME].strip(): r[CMQC.MQIA_CURRENT_Q_DEPTH]
        for r in replies
        if CMQC.MQCA_Q_NAME in r
    }
    assert depths == {b"APP.REPLIES": 0, b"APP.SHARED": 3}
    assert set(replies[-1]) == {CMQCFC.MQBACF_RESPONSE_ID, CMQCFC.MQCACF_RESPONSE_Q_MGR_NAME}
    assert replies[-1][CMQCFC.MQCACF_RESPONSE_Q_MGR_NAME] == b"QM1".ljust(48)
    assert {len(r[CMQCFC.MQBACF_RESPONSE_ID]) for r in replies} == {24}  # one set, one id
    assert len({r[CMQCFC.MQBACF_RESPONSE_ID] for r in replies}) == 1
    shared = replies[1]
    # Strings come back as bytes padded to MQ's lengths, integers as ints (pymqi's).
    assert shared[CMQC.MQCA_Q_NAME] == b"APP.SHARED".ljust(48)
    assert shared[CMQC.MQIA_QSG_DISP] == CMQC.MQQSGD_SHARED
    assert shared[CMQC.MQCA_CF_STRUC_NAME].strip() == b"APP1"


def test_inquire_q_status_counts_messages_and_open_handles() -> None:
    def body(world: World) -> list[dict[int, Any]]:
        qmgr = pymqi.connect("QM1")
        put(qmgr, "APP.REPLIES", 2)
        reader = pymqi.Queue(qmgr, "APP.REPLIES", CMQC.MQOO_INPUT_SHARED)
        pcf = pymqi.PCFExecute(qmgr)
        status = pcf.MQCMD_INQUIRE_Q_STATUS(
            {
                CMQC.MQCA_Q_NAME: b"APP.REPLIES",
                CMQCFC.MQIACF_Q_STATUS_ATTRS: [CMQCFC.MQIACF_ALL],
            }
        )
        reader.close()
        return status

    status = in_world(body)
    assert len(status) == 2 and CMQC.MQCA_Q_NAME not in status[-1]  # the summary
    assert status[0][CMQC.MQIA_CURRENT_Q_DEPTH] == 2
    assert status[0][CMQC.MQIA_OPEN_INPUT_COUNT] == 1


def test_inquire_channel_and_its_status_by_a_generic_name() -> None:
    def body(world: World) -> tuple[list[dict[int, Any]], list[dict[int, Any]]]:
        pcf = pymqi.PCFExecute(pymqi.connect("QM1"))
        channels = pcf.MQCMD_INQUIRE_CHANNEL({CMQCFC.MQCACH_CHANNEL_NAME: b"*"})
        # A single int for an ..._ATTRS parameter goes as a one-value MQCFIL, as pymqi
        # sends it ("backward compatibility for MQAI behaviour").
        statuses = pcf.MQCMD_INQUIRE_CHANNEL_STATUS(
            {
                CMQCFC.MQCACH_CHANNEL_NAME: b"QM1.*",
                CMQCFC.MQIACH_CHANNEL_INSTANCE_ATTRS: CMQCFC.MQIACF_ALL,
            }
        )
        return channels, statuses

    channels, statuses = in_world(body)
    assert names(channels, CMQCFC.MQCACH_CHANNEL_NAME) == [b"QM1.TO.QM3"]
    assert channels[0][CMQCFC.MQIACH_CHANNEL_TYPE] == CMQC.MQCHT_SENDER
    assert channels[0][CMQCFC.MQCACH_XMIT_Q_NAME].strip() == b"QM3"
    assert names(statuses, CMQCFC.MQCACH_CHANNEL_NAME) == [b"QM1.TO.QM3"]
    assert CMQCFC.MQIACH_CHANNEL_STATUS in statuses[0]


def test_change_q_alters_the_queue_the_program_then_inquires_with_mqinq() -> None:
    def body(world: World) -> tuple[list[dict[int, Any]], int | bytes, list[dict[int, Any]]]:
        qmgr = pymqi.connect("QM1")
        pcf = pymqi.PCFExecute(qmgr)
        changed = pcf.MQCMD_CHANGE_Q(
            {
                CMQC.MQCA_Q_NAME: "APP.REPLIES",  # a str is encoded, as pymqi does
                CMQC.MQIA_Q_TYPE: CMQC.MQQT_LOCAL,
                CMQC.MQIA_MAX_Q_DEPTH: 10,
                CMQC.MQCA_Q_DESC: b"replies to QM1",
            }
        )
        depth = pymqi.Queue(qmgr, "APP.REPLIES").inquire(CMQC.MQIA_MAX_Q_DEPTH)
        after = pcf.MQCMD_INQUIRE_Q(
            {CMQC.MQCA_Q_NAME: b"APP.REPLIES", CMQCFC.MQIACF_Q_ATTRS: [CMQC.MQCA_Q_DESC]}
        )
        return changed, depth, after

    changed, depth, after = in_world(body)
    # z/OS: the summary alone, which says which set and which queue manager it is
    assert [set(r) for r in changed] == [
        {CMQCFC.MQBACF_RESPONSE_ID, CMQCFC.MQCACF_RESPONSE_Q_MGR_NAME}
    ]
    assert depth == 10
    assert after[0][CMQC.MQCA_Q_DESC].strip() == b"replies to QM1"


@keeps("docs/pymqi.md", "`parameters` may instead be a list of PCF structures")
def test_parameters_as_a_list_of_pcf_structures_as_ibmmqs_dis_queues_example_builds_them() -> None:
    def body(world: World) -> list[dict[int, Any]]:
        pcf = pymqi.PCFExecute(pymqi.connect("QM1"))
        return pcf.MQCMD_INQUIRE_Q(
            [
                pymqi.CFST(Parameter=CMQC.MQCA_Q_NAME, String=b"TO.*"),
                pymqi.CFIN(Parameter=CMQC.MQIA_Q_TYPE, Value=CMQC.MQQT_REMOTE),
                pymqi.CFIL(Parameter=CMQCFC.MQIACF_Q_ATTRS, Values=[CMQC.MQCA_REMOTE_Q_NAME]),
            ]
        )

    replies = in_world(body)
    assert names(replies) == [b"TO.NOWHERE", b"TO.QM3"]
    assert [r[CMQC.MQCA_REMOTE_Q_NAME].strip() for r in replies if CMQC.MQCA_Q_NAME in r] == [
        b"NO.SUCH.QUEUE",
        b"APP.IN",
    ]


@keeps(
    "docs/pymqi.md",
    "The request goes to `command_queue_name` (SYSTEM.ADMIN.COMMAND.QUEUE), outside syncpoint, "
    "with Format MQADMIN",
)
def test_the_pcf_messages_go_to_the_command_queue_with_pymqis_descriptor() -> None:
    def body(world: World) -> tuple[list[MessagePut], bytes]:
        seen: list[MessagePut] = []
        world.events.listen(seen.append, MessagePut)
        pcf = pymqi.PCFExecute(pymqi.connect("QM2"))
        pcf.MQCMD_PING_Q_MGR()
        return seen, pcf.reply_queue_name

    seen, reply_queue = in_world(body)
    request, reply = [p for p in seen if p.q_mgr == "QM2"][:2]
    assert (request.queue, request.size) == ("SYSTEM.COMMAND.INPUT", CMQCFC.MQCFH_STRUC_LENGTH)
    # Expiry: the 5000 ms wait in tenths of a second; the reply keeps what is left of
    # it (MQRO_PASS_DISCARD_AND_EXPIRY), no simulated time having passed.
    assert (request.expiry, reply.expiry, request.syncpoint) == (50, 50, False)
    assert reply_queue.startswith(b"PYMQPCF.") and reply.queue == reply_queue.decode()


# ---- failures, as pymqi raises them ---------------------------------------------------


@keeps("docs/pymqi.md", "(2085 when nothing matches an inquiry)")
def test_a_name_nothing_matches_is_mqrc_unknown_object_name() -> None:
    # docs/mqsc.md: "Nothing matching an inquiry is MQRC_UNKNOWN_OBJECT_NAME (2085)";
    # ibmmq's dis_queues example catches exactly this.
    def body(world: World) -> None:
        pcf = pymqi.PCFExecute(pymqi.connect("QM1"))
        with pcf_error(CMQC.MQRC_UNKNOWN_OBJECT_NAME, "MQRC_UNKNOWN_OBJECT_NAME"):
            pcf.MQCMD_INQUIRE_Q({CMQC.MQCA_Q_NAME: b"NO.SUCH.*"})
        with pcf_error(CMQCFC.MQRCCF_CHANNEL_NOT_FOUND, "MQRCCF_CHANNEL_NOT_FOUND"):
            pcf.MQCMD_INQUIRE_CHANNEL({CMQCFC.MQCACH_CHANNEL_NAME: b"NONE.*"})

    in_world(body)


@keeps(
    "docs/pymqi.md",
    "3014 `MQRCCF_CFIN_PARM_ID_ERROR` for a parameter the command does not take",
)
def test_a_parameter_the_command_does_not_take_is_the_pcf_reason_code() -> None:
    def body(world: World) -> None:
        pcf = pymqi.PCFExecute(pymqi.connect("QM1"))
        with pcf_error(CMQCFC.MQRCCF_CFIN_PARM_ID_ERROR, "MQRCCF_CFIN_PARM_ID_ERROR") as raised:
            pcf.MQCMD_INQUIRE_Q({CMQC.MQCA_Q_NAME: b"*", CMQC.MQIA_MAX_Q_DEPTH: 5})
        assert raised.value.detail == (
            "MQCMD_INQUIRE_Q: the command server's reply has Reason 3014,"
            " about parameter 15 (MQIA_MAX_Q_DEPTH)"
        )
        with pcf_error(CMQCFC.MQRCCF_PARM_COUNT_TOO_SMALL, "MQRCCF_PARM_COUNT_TOO_SMALL"):
            pcf.MQCMD_INQUIRE_Q()  # QName is required
        with pcf_error(CMQCFC.MQRCCF_OBJECT_ALREADY_EXISTS, "MQRCCF_OBJECT_ALREADY_EXISTS"):
            pcf.MQCMD_CREATE_Q({CMQC.MQCA_Q_NAME: b"APP.REPLIES", CMQC.MQIA_Q_TYPE: 1})

    in_world(body)


@keeps("docs/pymqi.md", "and raises the first failed reply's error only once all replies are read")
def test_the_responses_keyword_returns_replies_and_their_headers_then_raises_as_ibmmq() -> None:
    # ibmmq's dis_queues_extended example: replies as (parameters, CFH) pairs, the
    # XR summary left out, the first failed reply raised after them.
    def body(world: World) -> tuple[list[Any], list[Any], int]:
        pcf = pymqi.PCFExecute(pymqi.connect("QM1"))
        good: list[Any] = []
        everything = {CMQC.MQIA_QSG_DISP: CMQC.MQQSGD_ALL}
        pcf.MQCMD_INQUIRE_Q({CMQC.MQCA_Q_NAME: b"APP.*", **everything}, responses=good)
        bad: list[Any] = [("left", "over")]
        try:
            pcf.MQCMD_INQUIRE_Q({CMQC.MQCA_Q_NAME: b"NONE.*"}, responses=bad)
        except pymqi.MQMIError as error:
            return good, bad, error.reason
        raise AssertionError("no error raised")

    good, bad, reason = in_world(body)
    assert [r[CMQC.MQCA_Q_NAME].strip() for r, _ in good] == [b"APP.REPLIES", b"APP.SHARED"]
    assert all(cfh.Type == CMQCFC.MQCFT_XR_ITEM and cfh.Reason == 0 for _, cfh in good)
    assert bad == [] and reason == CMQC.MQRC_UNKNOWN_OBJECT_NAME


@keeps("docs/pymqi.md", "MQRC_NO_MSG_AVAILABLE (2033) if none comes")
def test_a_command_server_that_does_not_answer_is_2033_after_the_response_wait_interval() -> None:
    # pymqi waits response_wait_interval milliseconds for each reply (MQGMO_WAIT), then
    # raises the MQGET's MQRC_NO_MSG_AVAILABLE; here nothing reads the "command queue".
    def body(world: World) -> float:
        pcf = pymqi.PCFExecute(
            pymqi.connect("QM1"), command_queue_name=b"APP.REPLIES", response_wait_interval=1500
        )
        start = trio.current_time()
        with pytest.raises(pymqi.MQMIError) as raised:
            pcf.MQCMD_PING_Q_MGR()
        assert raised.value.reason == CMQC.MQRC_NO_MSG_AVAILABLE
        return trio.current_time() - start

    assert in_world(body) == pytest.approx(1.5)


@keeps("docs/pymqi.md", "A name that is no MQCMD_ of `CMQCFC` is an `AttributeError`")
def test_a_name_that_is_no_pcf_command_is_an_attribute_error_naming_it() -> None:
    def body(world: World) -> None:
        pcf = pymqi.PCFExecute(pymqi.connect("QM1"))
        with pytest.raises(AttributeError, match=r"MQCMD_INQUIRE_QUEUES"):
            pcf.MQCMD_INQUIRE_QUEUES  # noqa: B018
        with pytest.raises(TypeError, match=r"^PCF parameter 2016: 1\.5 is not"):
            pcf.MQCMD_INQUIRE_Q({CMQC.MQCA_Q_NAME: 1.5})

    in_world(body)


# ---- its connection and reply queue ---------------------------------------------------


@keeps("README.md", "pymqi's `PCFExecute` among them under `qsg exec`")
@keeps(
    "docs/pymqi.md",
    "`disconnect()` closes it, which deletes it (and a PCFExecute that connected itself, given "
    "a name, disconnects too)",
)
def test_pcfexecute_given_a_name_connects_itself_and_disconnect_deletes_its_reply_queue() -> None:
    def body(world: World) -> tuple[list[bytes], bool, int]:
        pcf = pymqi.PCFExecute("QM2")
        reply_queue = pcf.reply_queue_name
        listed = pcf.MQCMD_INQUIRE_Q_NAMES({CMQC.MQCA_Q_NAME: b"PYMQPCF.*"})
        pcf.disconnect()
        watcher = pymqi.PCFExecute(pymqi.connect("QM2"))
        found = watcher.MQCMD_INQUIRE_Q_NAMES({CMQC.MQCA_Q_NAME: reply_queue})
        return (
            [n.strip() for n in listed[0][CMQCFC.MQCACF_Q_NAMES]],
            pcf.is_connected,
            len(found[0][CMQCFC.MQCACF_Q_NAMES]),
        )

    listed, connected, left = in_world(body)
    assert len(listed) == 1 and listed[0].startswith(b"PYMQPCF.")
    assert not connected and left == 0


@keeps(
    "docs/pymqi.md",
    "`PCFExecute.unpack(message)` reads a reply as (dict, `CFH`), and `stringify_keys` names a "
    "dict's keys",
)
def test_unpack_reads_a_reply_as_pymqi_does_and_stringify_keys_names_them() -> None:
    reply = (
        struct.pack("=9i", CMQCFC.MQCFT_RESPONSE, 36, 1, CMQCFC.MQCMD_INQUIRE_Q, 1, 1, 0, 0, 3)
        + struct.pack("=5i", CMQCFC.MQCFT_STRING, 20 + 48, CMQC.MQCA_Q_NAME, 0, 48)
        + b"Q1".ljust(48)
        + struct.pack("=4i", CMQCFC.MQCFT_INTEGER, 16, CMQC.MQIA_CURRENT_Q_DEPTH, 7)
        + struct.pack("=6i", CMQCFC.MQCFT_INTEGER_LIST, 24, CMQCFC.MQIACF_Q_ATTRS, 2, 3, 4)
    )
    parameters, cfh = pymqi.PCFExecute.unpack(reply)
    assert parameters == {
        CMQC.MQCA_Q_NAME: b"Q1".ljust(48),
        CMQC.MQIA_CURRENT_Q_DEPTH: 7,
        CMQCFC.MQIACF_Q_ATTRS: [3, 4],
    }
    assert (cfh.Command, cfh.Control, cfh.ParameterCount) == (CMQCFC.MQCMD_INQUIRE_Q, 1, 3)
    assert pymqi.PCFExecute.stringify_keys(parameters) == {
        "MQCA_Q_NAME": b"Q1".ljust(48),
        "MQIA_CURRENT_Q_DEPTH": 7,
        "MQIACF_Q_ATTRS": [3, 4],
    }
    failed = bytearray(reply)
    failed[24:32] = struct.pack("=2i", CMQC.MQCC_FAILED, CMQCFC.MQRCCF_COMMAND_FAILED)
    with pcf_error(CMQCFC.MQRCCF_COMMAND_FAILED, "MQRCCF_COMMAND_FAILED"):
        pymqi.PCFExecute.unpack(bytes(failed))


# ---- the PCF structures -----------------------------------------------------------------


def test_the_pcf_structures_pack_to_ibms_layouts_padded_to_four_bytes() -> None:
    # IBM's "PCF structures": MQCFST is Type, StrucLength, Parameter, CodedCharSetId,
    # StringLength, String; MQCFSL adds Count before StringLength; MQCFIL is Type,
    # StrucLength, Parameter, Count, Values. Each StrucLength is a multiple of 4.
    cfst = pymqi.CFST(Parameter=CMQC.MQCA_Q_NAME, String=b"Q1.X")
    assert cfst.pack() == struct.pack("=5i", 4, 24, 2016, 0, 4) + b"Q1.X"
    odd = pymqi.CFST(Parameter=CMQC.MQCA_Q_NAME, String=b"Q1")
    assert odd.pack() == struct.pack("=5i", 4, 24, 2016, 0, 2) + b"Q1\0\0"
    cfil = pymqi.CFIL(Parameter=CMQCFC.MQIACF_Q_ATTRS, Values=[3, 2016])
    assert cfil.pack() == struct.pack("=6i", 5, 24, 1002, 2, 3, 2016)
    cfsl = pymqi.CFSL(Parameter=CMQCFC.MQCACF_Q_NAMES, Strings=[b"A", b"BCDE"])
    assert cfsl.pack() == struct.pack("=6i", 6, 32, 3011, 0, 2, 4) + b"A\0\0\0BCDE"
    cfbs = pymqi.CFBS(Parameter=CMQCFC.MQBACF_CONNECTION_ID, String=b"\x01" * 24)
    assert len(cfbs.pack()) == cfbs.StrucLength == 40
    header = pymqi.CFH(Command=CMQCFC.MQCMD_INQUIRE_Q, ParameterCount=2)
    assert header.pack() == struct.pack("=9i", 1, 36, 1, 13, 1, 1, 0, 0, 2)
    back = pymqi.CFSL(StringLength=4, Count=2).unpack(cfsl.pack())
    assert back.Strings == [b"A\0\0\0", b"BCDE"]
    with pytest.raises(AttributeError, match=r"^'CFST' object has no attribute 'Parametre'$"):
        cfst.Parametre = 1


def test_a_programs_own_structure_may_hold_an_array_of_strings_as_pymqi_lets_it() -> None:
    # pymqi's MQOpts: [name, default, format, count], the format repeated count times.
    names = pymqi.MQOpts([["Count", 2, "i"], ["Names", [b"AB", b"CD"], "4s", 2]])
    assert names.pack() == struct.pack("=i", 2) + b"AB\0\0CD\0\0"
    assert names.unpack(struct.pack("=i", 2) + b"WXYZQRST").Names == [b"WXYZ", b"QRST"]


# ---- a monitoring script under qsg exec ----------------------------------------------------


@pytest.mark.parametrize("store", ["in-process", "server"])
@keeps("docs/mqsc.md", "(a pymqi program's `PCFExecute` under `qsg exec` speaks to it")
def test_a_monitoring_script_under_qsg_exec_sees_depths_grow_a_channel_stop_and_alters_a_queue(
    store: str, request: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]
) -> None:
    # scenarios/exec-monitor.toml: 10 puts a second to APP.ORDERS (MAXDEPTH 500), 2 to
    # QM3 over QM1.TO.QM3, stopped at 25 s; scenarios/programs/monitor.py polls QM1's
    # command server every 10 s, and with --check its PCF traffic is not in the history
    # of the program's messages (its queues carry administration). The script sees the
    # same with the shared queue in process and on the coupling facility's server.
    scenario = load_scenario(ROOT / "scenarios" / "exec-monitor.toml")
    redis_url = None
    if store == "server":
        redis_url = request.getfixturevalue("cf_url")
        run = dataclasses.replace(scenario.run, in_process=False)
        scenario = dataclasses.replace(scenario, run=run)
    monitor = parse_command(["python", str(ROOT / "scenarios" / "programs" / "monitor.py"), "QM1"])
    outcome, result = run_exec(scenario, monitor, virtual=True, check=True, redis_url=redis_url)
    assert outcome.exit_status == 0 and not outcome.stopped
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == [
        "10s APP.ORDERS depth 100/500, open for input 0, output 1",
        "10s channel QM1.TO.QM3 RUNNING",
    ]
    assert "30s channel QM1.TO.QM3 STOPPED" in lines
    assert "40s QM3 depth 30/5000, open for input 0, output 1" in lines
    assert lines[-3] == (
        "50s APP.ORDERS depth 499/500, open for input 0, output 1: MAXDEPTH raised to 1000"
    )
    recorded = {(e.app, e.queue) for e in result.events if isinstance(e, OpInvoked)}
    assert recorded and not any(app.startswith("pymqi ") for app, _ in recorded)


@keeps("docs/pymqi.md", "with MQRCCF_STRUCTURE_TYPE_ERROR (3013)")
def test_a_filter_is_answered_as_a_structure_the_command_server_does_not_take() -> None:
    # docs/pymqi.md, "PCF commands": "Not simulated: the filters ... answered ... with
    # MQRCCF_STRUCTURE_TYPE_ERROR (3013)"; pymqi sends them as MQCFIF/MQCFSF.
    def body(world: World) -> None:
        pcf = pymqi.PCFExecute(pymqi.connect("QM1"))
        deep = pymqi.Filter(CMQC.MQIA_CURRENT_Q_DEPTH).greater(10)
        assert isinstance(deep.structure(), pymqi.CFIF)
        with pcf_error(CMQCFC.MQRCCF_STRUCTURE_TYPE_ERROR, "MQRCCF_STRUCTURE_TYPE_ERROR"):
            pcf.MQCMD_INQUIRE_Q({CMQC.MQCA_Q_NAME: b"*"}, [deep])
        described = pymqi.Filter(CMQC.MQCA_Q_DESC).like(b"orders*")
        with pcf_error(CMQCFC.MQRCCF_STRUCTURE_TYPE_ERROR, "MQRCCF_STRUCTURE_TYPE_ERROR"):
            pcf.MQCMD_INQUIRE_Q({CMQC.MQCA_Q_NAME: b"*"}, [described])

    in_world(body)


@keeps(
    "docs/pymqi.md",
    "Not simulated: the filters (`pymqi.Filter(...).greater(10)`, MQCFIF, MQCFSF and MQCFBF), "
    "which the command server answers as any structure it does not take, with "
    "MQRCCF_STRUCTURE_TYPE_ERROR (3013); the other commands",
)
@keeps(
    "docs/pymqi.md",
    "Each fails with its reason code, and the error's `detail` says what is not simulated.",
)
def test_what_pcf_does_not_simulate_fails_with_an_error_whose_detail_says_so() -> None:
    # Issue 42: "Where the docs say something is not simulated, the facade's error says
    # the same." A PCF reply carries no text; the facade names what is not simulated.
    def body(world: World) -> list[tuple[int, str]]:
        pcf = pymqi.PCFExecute(pymqi.connect("QM1"))
        failures = []
        deep = pymqi.Filter(CMQC.MQIA_CURRENT_Q_DEPTH).greater(10)
        requests = [
            lambda: pcf.MQCMD_INQUIRE_Q({CMQC.MQCA_Q_NAME: b"*"}, [deep]),
            lambda: pcf.MQCMD_INQUIRE_TOPIC({CMQC.MQCA_TOPIC_NAME: b"*"}),
        ]
        for request in requests:
            with pytest.raises(pymqi.MQMIError) as failed:
                request()
            failures.append((failed.value.reason, failed.value.detail))
        # A failure that is no gap of the simulator says nothing of the kind.
        with pytest.raises(pymqi.MQMIError) as missing:
            pcf.MQCMD_INQUIRE_Q({CMQC.MQCA_Q_NAME: b"NO.SUCH.QUEUE"})
        failures.append((missing.value.reason, missing.value.detail))
        return failures

    [filtered, topic, missing] = in_world(body)
    assert filtered == (
        CMQCFC.MQRCCF_STRUCTURE_TYPE_ERROR,
        "PCF filters (MQCFIF, MQCFSF, MQCFBF) are not simulated",
    )
    assert topic[0] == CMQCFC.MQRCCF_CFH_COMMAND_ERROR
    assert topic[1].startswith("MQCMD_INQUIRE_TOPIC is not simulated")
    assert missing[0] == CMQC.MQRC_UNKNOWN_OBJECT_NAME and "not simulated" not in missing[1]


def test_a_failed_reply_to_a_request_the_server_could_not_read_names_the_command_sent() -> None:
    # A request whose structures the command server cannot read is answered with
    # MQCMD_NONE in the reply's Command (it never learnt which command it was); the
    # facade built the request, so its error names the command it sent, with the
    # responses keyword (ibmmq's) too.
    def body(world: World) -> list[str]:
        pcf = pymqi.PCFExecute(pymqi.connect("QM1"))
        unreadable = [
            pymqi.CFST(Parameter=CMQC.MQCA_Q_NAME, String=b"*"),
            pymqi.CFIN64(Parameter=CMQC.MQIA_MAX_Q_DEPTH, Value=5),
        ]
        details = []
        for kwargs in ({}, {"responses": []}):
            with pcf_error(CMQCFC.MQRCCF_STRUCTURE_TYPE_ERROR, "MQRCCF_STRUCTURE_TYPE_ERROR") as e:
                pcf.MQCMD_INQUIRE_Q(unreadable, **kwargs)
            details.append(e.value.detail)
        return details

    assert in_world(body) == ["MQCMD_INQUIRE_Q: the command server's reply has Reason 3013"] * 2
