"""qsg.pymqi in pymqi's own test style (issue 25): connection, put/get round trips, MD
fields after a get, every error path with its reason code, inquire and set.

Each test's body is synchronous pymqi code, run in a world (QSG1 of QM1 and QM2 on
z/OS, QM3 on Linux with a client listener) through ``qsg.commands.exec.runner.facade_bound``,
as a program under ``qsg exec`` runs. Reason codes are IBM's ("IBM MQ reason codes");
pymqi's behaviour is that of its public documentation and its ``__init__.py``.
"""

from __future__ import annotations

import datetime
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
import trio

import qsg
from actors.topology import Topology
from actors.world import World
from qsg import pymqi
from qsg.commands.exec.clocks import program_clock
from qsg.commands.exec.imports import pymqi_aliases
from qsg.commands.exec.runner import facade_bound
from qsg.pymqi import CMQC, bridge
from tests.claims import keeps

T = TypeVar("T")
QUEUE = "TEST.1"
PYMQI_DOC = (Path(__file__).resolve().parent.parent / "docs" / "pymqi.md").read_text()
MESSAGE = b"Hello from Python!"


def topology() -> Topology:
    t = Topology()
    t.add_qsg("QSG1", members=["QM1", "QM2"])
    t.mqsc("QM1", f"DEFINE CFSTRUCT(APP1)\nDEFINE QLOCAL({QUEUE}) QSGDISP(SHARED) CFSTRUCT(APP1)")
    t.add_qmgr("QM3", platform=CMQC.MQPL_UNIX, listener=0)
    t.mqsc("QM3", f"DEFINE QLOCAL({QUEUE})")
    return t


def attach_and_detach(name: str) -> str:
    """The queue manager ``connect(name)`` reached, disconnected again (a thread has one
    connection by a group's name at a time: MQRC_ALREADY_CONNECTED otherwise)."""
    qmgr = pymqi.connect(name)
    reached = bytes(qmgr.inquire(CMQC.MQCA_Q_MGR_NAME)).strip().decode()
    qmgr.disconnect()
    return reached


def in_world(body: Callable[[World], T], *, seed: int = 0) -> T:
    """``body(world)`` as a program's synchronous code, in a started world."""

    async def main() -> T:
        async with (
            qsg.start(topology(), in_process=True, seed=seed) as world,
            facade_bound(world, virtual=True),
        ):
            return body(world)

    return qsg.run(main)


def raises_reason(
    reason: int, comp: int = CMQC.MQCC_FAILED
) -> pytest.RaisesContext[pymqi.MQMIError]:
    names = {v: k for k, v in vars(CMQC).items() if k.startswith("MQRC_")}
    prefix = "FAILED" if comp == CMQC.MQCC_FAILED else "WARNING"
    return pytest.raises(
        pymqi.MQMIError,
        match=rf"^MQI Error\. Comp: {comp}, Reason {reason}: {prefix}: {names[reason]}$",
    )


class TestQueueManager:
    """pymqi's QueueManager and connect (its test_queue_manager.py's ground)."""

    @keeps("docs/pymqi.md", "A queue manager's name reaches it.")
    def test_connect_by_name_reaches_that_queue_manager(self) -> None:
        def body(world: World) -> bytes:
            qmgr = pymqi.connect("QM2")
            assert qmgr.is_connected and isinstance(qmgr.get_handle(), int)
            return bytes(qmgr.inquire(CMQC.MQCA_Q_MGR_NAME))

        assert in_world(body) == b"QM2".ljust(48)

    @keeps(
        "README.md",
        '`connect("QSG1")` attaches to a running member, as z/OS group attach does',
    )
    @keeps(
        "docs/pymqi.md",
        "A queue-sharing group's name attaches to one of its running members, as z/OS group "
        "attach does",
    )
    def test_connect_by_a_qsg_name_attaches_to_a_running_member_chosen_by_the_seed(self) -> None:
        def body(world: World) -> tuple[str, ...]:
            return tuple(attach_and_detach("QSG1") for _ in range(12))

        first, again = in_world(body, seed=1), in_world(body, seed=1)
        assert first == again and set(first) == {"QM1", "QM2"}  # seeded, and both used

    @keeps(
        "README.md",
        '`connect("QSG1")` attaches to a running member, as z/OS group attach does',
    )
    @keeps("docs/pymqi.md", "a member picked at random among those running")
    def test_group_attach_skips_a_member_that_is_down(self) -> None:
        def body(world: World) -> set[bytes]:
            bridge.call(world.kill, "QM1")
            return {attach_and_detach("QSG1") for _ in range(8)}

        assert in_world(body) == {"QM2"}

    @keeps(
        "docs/pymqi.md",
        "A thread connected by the group's name that connects by it again (MQCONN or MQCONNX) "
        "is answered MQCC_WARNING, MQRC_ALREADY_CONNECTED (2002)",
    )
    def test_a_second_group_attach_from_the_same_thread_is_already_connected(self) -> None:
        # 2002 MQRC_ALREADY_CONNECTED: "On z/OS, this reason code occurs for batch and IMS
        # applications"; "The Hconn parameter returned has the same value as was returned
        # for the previous MQCONN or MQCONNX call". pymqi raises the warning; its MQCONNX
        # has kept the handle, its MQCONN not.
        def body(world: World) -> tuple[int, int | None, str, str, str]:
            first = pymqi.connect("QSG1")
            with pytest.raises(pymqi.MQMIError) as again:
                pymqi.QueueManager("QSG1")
            assert (again.value.comp, again.value.reason) == (
                CMQC.MQCC_WARNING,
                CMQC.MQRC_ALREADY_CONNECTED,
            )
            connx = pymqi.QueueManager(None)
            with pytest.raises(pymqi.MQMIError):
                connx.connect_with_options("QSG1", opts=CMQC.MQCNO_NONE)
            same = connx.get_handle()
            member = bytes(first.inquire(CMQC.MQCA_Q_MGR_NAME)).strip().decode()
            by_name = pymqi.connect(member)  # another name: a connection of its own
            other = bytes(by_name.inquire(CMQC.MQCA_Q_MGR_NAME)).strip().decode()
            handle = first.get_handle()
            first.disconnect()
            after = attach_and_detach("QSG1")  # the first is gone: attaching again works
            return handle, same, member, other, after

        first, same, member, other, after = in_world(body, seed=3)
        assert same == first
        assert other == member and after in ("QM1", "QM2")

    @keeps(
        "docs/pymqi.md",
        "MQCONNX with the group's name (`connect_with_options`) attaches the same way",
    )
    def test_mqconnx_and_a_client_by_the_group_name_attach_to_a_member(self) -> None:
        def body(world: World) -> str:
            connx = pymqi.QueueManager(None)
            connx.connect_with_options("QSG1", opts=CMQC.MQCNO_NONE)
            reached = bytes(connx.inquire(CMQC.MQCA_Q_MGR_NAME)).strip().decode()
            connx.disconnect()
            bridge.call(world.kill, "QM1")
            bridge.call(world.kill, "QM2")
            with raises_reason(CMQC.MQRC_Q_MGR_NOT_AVAILABLE):
                pymqi.QueueManager(None).connect_with_options("QSG1")
            return reached

        assert in_world(body) in ("QM1", "QM2")

    @keeps(
        "docs/pymqi.md",
        "that names a scenario queue manager's listener reaches that queue manager",
    )
    def test_a_client_connection_reaches_the_queue_manager_whose_listener_its_conname_names(
        self,
    ) -> None:
        def body(world: World) -> bytes:
            conn_name = world.conname("QM3")
            qmgr = pymqi.connect("QM3", "DEV.APP.SVRCONN", conn_name, "app", "password")
            blank = pymqi.QueueManager(None)
            blank.connect_tcp_client("", pymqi.CD(), "DEV.APP.SVRCONN", conn_name)
            assert blank.inquire(CMQC.MQCA_Q_MGR_NAME) == qmgr.inquire(CMQC.MQCA_Q_MGR_NAME)
            return bytes(qmgr.inquire(CMQC.MQCA_Q_MGR_NAME))

        assert in_world(body) == b"QM3".ljust(48)

    @keeps(
        "docs/pymqi.md",
        "the queue manager name given with it must be that one's, its QSG's or blank, else "
        "MQRC_Q_MGR_NAME_ERROR (2058)",
    )
    def test_another_queue_managers_name_at_a_listener_is_2058(self) -> None:
        def body(world: World) -> None:
            with raises_reason(CMQC.MQRC_Q_MGR_NAME_ERROR):
                pymqi.connect("QM1", "DEV.APP.SVRCONN", world.conname("QM3"))

        in_world(body)

    @keeps(
        "docs/pymqi.md",
        "a blank name with a CONNAME that names no listener is MQRC_HOST_NOT_AVAILABLE (2538)",
    )
    def test_no_name_and_no_listener_at_the_conname_is_2538(self) -> None:
        def body(world: World) -> None:
            with raises_reason(CMQC.MQRC_HOST_NOT_AVAILABLE):
                pymqi.connect("", "DEV.APP.SVRCONN", "192.0.2.1(1414)")

        in_world(body)

    @keeps("docs/pymqi.md", "Anything else is MQRC_Q_MGR_NAME_ERROR (2058)")
    @keeps(
        "docs/reason-codes.md",
        "MQRC_Q_MGR_NAME_ERROR | a queue manager the world does not have",
    )
    def test_an_unknown_queue_manager_is_2058(self) -> None:
        def body(world: World) -> None:
            with raises_reason(CMQC.MQRC_Q_MGR_NAME_ERROR):
                pymqi.connect("QM9")

        in_world(body)

    @keeps(
        "docs/pymqi.md",
        "A queue manager that is down is MQRC_Q_MGR_NOT_AVAILABLE (2059) at connect; once a "
        "connection's queue manager is killed (or restarted since), every call on it is "
        "MQRC_CONNECTION_BROKEN (2009).",
    )
    @keeps(
        "docs/reason-codes.md",
        (
            "MQRC_CONNECTION_BROKEN | a call on a connection whose queue manager was killed or "
            "restarted since"
        ),
    )
    @keeps(
        "docs/reason-codes.md",
        "MQRC_Q_MGR_NOT_AVAILABLE | MQCONN to a queue manager that is not running",
    )
    def test_a_killed_queue_manager_is_2059_at_connect_and_2009_on_its_connections(self) -> None:
        def body(world: World) -> None:
            qmgr = pymqi.connect("QM1")
            queue = pymqi.Queue(qmgr, QUEUE)
            bridge.call(world.kill, "QM1")
            with raises_reason(CMQC.MQRC_Q_MGR_NOT_AVAILABLE):
                pymqi.connect("QM1")
            with raises_reason(CMQC.MQRC_CONNECTION_BROKEN):
                queue.put(MESSAGE)
            with raises_reason(CMQC.MQRC_CONNECTION_BROKEN):
                qmgr.commit()
            assert not qmgr.is_connected
            bridge.call(world.restart, "QM1")  # a new life: the old connection stays broken
            with raises_reason(CMQC.MQRC_CONNECTION_BROKEN):
                qmgr.inquire(CMQC.MQIA_PLATFORM)

        in_world(body)

    def test_a_second_connect_on_a_connected_handle_warns_2002(self) -> None:
        def body(world: World) -> None:
            qmgr = pymqi.connect("QM1")
            with raises_reason(CMQC.MQRC_ALREADY_CONNECTED, CMQC.MQCC_WARNING):
                qmgr.connect("QM1")

        in_world(body)

    @keeps("docs/pymqi.md", "`PYIFError('not connected')` when not connected")
    def test_disconnect_twice_and_calls_after_it_are_pyiferror_not_connected(self) -> None:
        def body(world: World) -> None:
            qmgr = pymqi.connect("QM1")
            qmgr.disconnect()
            assert not qmgr.is_connected
            for call in (qmgr.disconnect, qmgr.commit, qmgr.get_handle):
                with pytest.raises(pymqi.PYIFError, match=r"^PYMQI Error: not connected$"):
                    call()

        in_world(body)

    @keeps("docs/pymqi.md", "`TypeError` with neither a name nor both")
    def test_connect_without_a_name_or_a_channel_is_pymqis_typeerror(self) -> None:
        with pytest.raises(
            TypeError, match=r"^Invalid arguments: \[None, None, None, None, None\]$"
        ):
            pymqi.connect(None)

    def test_outside_qsg_exec_there_is_no_queue_manager_2059(self) -> None:
        with raises_reason(CMQC.MQRC_Q_MGR_NOT_AVAILABLE):
            pymqi.connect("QM1")

    @pytest.mark.parametrize(
        ("q_mgr", "selector", "value"),
        [
            ("QM1", CMQC.MQIA_PLATFORM, CMQC.MQPL_ZOS),
            ("QM3", CMQC.MQIA_PLATFORM, CMQC.MQPL_UNIX),
            ("QM2", CMQC.MQCA_QSG_NAME, b"QSG1"),
            ("QM3", CMQC.MQCA_QSG_NAME, b"    "),
            ("QM1", CMQC.MQCA_DEAD_LETTER_Q_NAME, b"SYSTEM.DEAD.LETTER.QUEUE".ljust(48)),
            ("QM1", CMQC.MQIA_SYNCPOINT, CMQC.MQSP_AVAILABLE),
            ("QM1", CMQC.MQIA_MAX_PRIORITY, 9),
        ],
    )
    @keeps("docs/pymqi.md", "MQCA_Q_MGR_NAME, MQCA_QSG_NAME, MQCA_Q_MGR_DESC")
    def test_inquire_answers_the_queue_managers_attributes(
        self, q_mgr: str, selector: int, value: int | bytes
    ) -> None:
        assert in_world(lambda world: pymqi.connect(q_mgr).inquire(selector)) == value

    @keeps(
        "docs/pymqi.md",
        "MQCA_DEAD_LETTER_Q_NAME, MQCA_DEF_XMIT_Q_NAME (blank-padded bytes), MQIA_PLATFORM, "
        "MQIA_COMMAND_LEVEL (940), MQIA_MAX_UNCOMMITTED_MSGS, MQIA_MAX_MSG_LENGTH, "
        "MQIA_MAX_PRIORITY, MQIA_SYNCPOINT, MQIA_CODED_CHAR_SET_ID (500 on z/OS, 1208 elsewhere), "
        "MQIA_TRIGGER_INTERVAL, MQIA_EXPIRY_INTERVAL",
    )
    def test_inquire_answers_every_selector_the_doc_lists(self) -> None:
        row = next(
            line for line in PYMQI_DOC.splitlines() if "| MQINQ of the queue manager |" in line
        )
        listed = re.findall(r"\b(MQ(?:CA|IA)_[A-Z_]+)\b", row.split("another object")[0])
        assert len(listed) == 14

        def body(world: World) -> dict[str, list[object]]:
            return {
                q_mgr: [pymqi.connect(q_mgr).inquire(getattr(CMQC, name)) for name in listed]
                for q_mgr in ("QM1", "QM3")
            }

        lengths = {
            "MQCA_Q_MGR_NAME": CMQC.MQ_Q_MGR_NAME_LENGTH,
            "MQCA_QSG_NAME": CMQC.MQ_QSG_NAME_LENGTH,
            "MQCA_Q_MGR_DESC": CMQC.MQ_Q_MGR_DESC_LENGTH,
            "MQCA_DEAD_LETTER_Q_NAME": CMQC.MQ_Q_NAME_LENGTH,
            "MQCA_DEF_XMIT_Q_NAME": CMQC.MQ_Q_NAME_LENGTH,
        }
        answers = in_world(body)
        for q_mgr, values in answers.items():
            found = dict(zip(listed, values, strict=True))
            for name, value in found.items():  # strings as blank-padded bytes of MQ's length
                if name.startswith("MQCA_"):
                    assert isinstance(value, bytes) and len(value) == lengths[name], (name, value)
                else:
                    assert isinstance(value, int), (name, value)
            assert found["MQIA_COMMAND_LEVEL"] == 940
            ccsid = 500 if q_mgr == "QM1" else 1208  # QM1 on z/OS, QM3 on Unix
            assert found["MQIA_CODED_CHAR_SET_ID"] == ccsid

    @pytest.mark.parametrize(
        ("selector", "reason"),
        [
            (CMQC.MQIA_CURRENT_Q_DEPTH, CMQC.MQRC_SELECTOR_ERROR),
            (99999, CMQC.MQRC_SELECTOR_ERROR),
        ],
    )
    @keeps(
        "docs/pymqi.md",
        "another object's selector, or one MQ does not have, is MQRC_SELECTOR_ERROR (2067)",
    )
    def test_inquire_of_a_selector_a_queue_manager_lacks_fails(
        self, selector: int, reason: int
    ) -> None:
        def body(world: World) -> None:
            with raises_reason(reason):
                pymqi.connect("QM1").inquire(selector)

        in_world(body)

    @keeps(
        "docs/pymqi.md",
        "MQRC_ENVIRONMENT_ERROR (2012) on z/OS and for a client connection; on a distributed "
        "queue manager in bindings mode the unit of work starts and "
        "MQRC_NO_EXTERNAL_PARTICIPANTS (2121) is raised as the warning it is",
    )
    def test_begin_is_2012_on_zos_and_warns_2121_on_a_distributed_queue_manager(self) -> None:
        def body(world: World) -> None:
            with raises_reason(CMQC.MQRC_ENVIRONMENT_ERROR):
                pymqi.connect("QM1").begin()
            with raises_reason(CMQC.MQRC_NO_EXTERNAL_PARTICIPANTS, CMQC.MQCC_WARNING):
                pymqi.connect("QM3").begin()

        in_world(body)


class TestQueue:
    """pymqi's Queue (its test_base_api.py's ground): round trips, MD after a get, errors."""

    def test_put_and_get_round_trip_with_the_md_mq_filled_in(self) -> None:
        def body(world: World) -> tuple[bytes, pymqi.MD, pymqi.MD]:
            qmgr = pymqi.connect("QM3")
            put_md = pymqi.MD(Priority=7, ReplyToQ=b"REPLY.Q", CorrelId=b"C" * 24)
            pymqi.Queue(qmgr, QUEUE).put(MESSAGE, put_md)
            get_md = pymqi.MD()
            return pymqi.Queue(qmgr, QUEUE).get(None, get_md), put_md, get_md

        body_got, put_md, get_md = in_world(body)
        assert body_got == MESSAGE
        assert get_md.MsgId == put_md.MsgId and get_md.MsgId.startswith(b"AMQ QM3")
        assert (get_md.Priority, get_md.CorrelId) == (7, b"C" * 24)
        assert get_md.ReplyToQ.strip() == b"REPLY.Q" and get_md.ReplyToQMgr.strip() == b"QM3"
        assert get_md.PutApplName.strip() and len(get_md.PutDate) == 8

    @keeps(
        "docs/pymqi.md",
        "a `str` message is encoded with `bytes_encoding` and marked `default_ccsid` and "
        "MQFMT_STRING, as pymqi does",
    )
    def test_a_str_message_is_sent_as_utf8_with_ccsid_1208_and_mqstr(self) -> None:
        def body(world: World) -> tuple[bytes, pymqi.MD]:
            qmgr = pymqi.connect("QM3")
            pymqi.Queue(qmgr, QUEUE).put("Grüße")
            md = pymqi.MD()
            return pymqi.Queue(qmgr, QUEUE).get(None, md), md

        got, md = in_world(body)
        assert got == "Grüße".encode() and md.CodedCharSetId == 1208
        assert md.Format == CMQC.MQFMT_STRING

    @keeps("docs/pymqi.md", "anything else but bytes is pymqi's `TypeError`")
    def test_a_message_neither_bytes_nor_str_is_pymqis_typeerror(self) -> None:
        def body(world: World) -> None:
            with pytest.raises(
                TypeError, match=r"^Message type is <class 'int'>\. Convert to bytes\.$"
            ):
                pymqi.Queue(pymqi.connect("QM3"), QUEUE).put(42)  # type: ignore[arg-type]

        in_world(body)

    def test_a_str_in_a_structure_is_pymqis_typeerror_at_the_call(self) -> None:
        def body(world: World) -> None:
            with pytest.raises(TypeError, match=r"^Python 3 style string \(unicode\) found"):
                pymqi.Queue(pymqi.connect("QM3"), QUEUE).set(CMQC.MQIA_INHIBIT_PUT, "1")  # type: ignore[arg-type]

        in_world(body)

    @keeps("docs/pymqi.md", "output fields are written back into the program's structures")
    def test_put1_puts_one_message_and_writes_the_msgid_back(self) -> None:
        def body(world: World) -> tuple[bytes, bytes]:
            qmgr = pymqi.connect("QM3")
            md = pymqi.MD()
            qmgr.put1(QUEUE, MESSAGE, md)
            got = pymqi.MD()
            pymqi.Queue(qmgr, QUEUE).get(None, got)
            return md.MsgId, got.MsgId

        put_id, got_id = in_world(body)
        assert put_id == got_id != CMQC.MQMI_NONE

    def test_an_empty_queue_is_2033_and_a_wait_ends_after_its_interval(self) -> None:
        def body(world: World) -> float:
            queue = pymqi.Queue(pymqi.connect("QM3"), QUEUE)
            with raises_reason(CMQC.MQRC_NO_MSG_AVAILABLE):
                queue.get()
            gmo = pymqi.GMO(Options=CMQC.MQGMO_WAIT, WaitInterval=1500)
            began = trio.current_time()
            with raises_reason(CMQC.MQRC_NO_MSG_AVAILABLE):
                queue.get(None, pymqi.MD(), gmo)
            return trio.current_time() - began

        assert in_world(body) == pytest.approx(1.5)

    @keeps(
        "docs/pymqi.md",
        "a shorter one gives MQRC_TRUNCATED_MSG_FAILED (2080) with `original_length`",
    )
    def test_a_message_longer_than_max_length_is_2080_with_its_length(self) -> None:
        def body(world: World) -> pymqi.MQMIError:
            qmgr = pymqi.connect("QM3")
            pymqi.Queue(qmgr, QUEUE).put(MESSAGE)
            with raises_reason(CMQC.MQRC_TRUNCATED_MSG_FAILED) as caught:
                pymqi.Queue(qmgr, QUEUE).get(5)
            return caught.value

        assert in_world(body).original_length == len(MESSAGE)

    def test_an_unknown_queue_is_2085(self) -> None:
        def body(world: World) -> None:
            with raises_reason(CMQC.MQRC_UNKNOWN_OBJECT_NAME):
                pymqi.Queue(pymqi.connect("QM1"), "NO.SUCH.QUEUE", CMQC.MQOO_OUTPUT)

        in_world(body)

    def test_a_put_on_a_queue_opened_for_input_is_2039_and_a_get_on_one_for_output_2037(
        self,
    ) -> None:
        def body(world: World) -> None:
            qmgr = pymqi.connect("QM1")
            queue = pymqi.Queue(qmgr, QUEUE, CMQC.MQOO_INPUT_SHARED)
            with raises_reason(CMQC.MQRC_NOT_OPEN_FOR_OUTPUT):
                queue.put(MESSAGE)
            putter = pymqi.Queue(qmgr, QUEUE)
            putter.put(MESSAGE)  # the deferred open was for output, as pymqi's is
            with raises_reason(CMQC.MQRC_NOT_OPEN_FOR_INPUT):
                putter.get()

        in_world(body)

    @keeps("docs/pymqi.md", "`PYIFError('not open')` when not open")
    def test_open_close_misuse_is_pyiferror(self) -> None:
        def body(world: World) -> None:
            qmgr = pymqi.connect("QM1")
            with pytest.raises(pymqi.PYIFError, match=r"^PYMQI Error: not open$"):
                pymqi.Queue(qmgr, QUEUE).close()
            queue = pymqi.Queue(qmgr, QUEUE, CMQC.MQOO_OUTPUT)
            with pytest.raises(pymqi.PYIFError, match=r"^PYMQI Error: The Queue is already open$"):
                queue.open(QUEUE, CMQC.MQOO_OUTPUT)
            with pytest.raises(pymqi.PYIFError, match=r"Queue Descriptor has not been set"):
                pymqi.Queue(qmgr).put(MESSAGE)
            queue.close()
            with pytest.raises(TypeError, match=r"^Too many args$"):
                pymqi.Queue(qmgr, QUEUE, CMQC.MQOO_OUTPUT, 1)

        in_world(body)

    @keeps(
        "docs/pymqi.md",
        "with a descriptor only, at the first put (MQOO_OUTPUT), get (MQOO_INPUT_AS_Q_DEF), "
        "inquire (MQOO_INQUIRE) or set (MQOO_SET), as pymqi defers it",
    )
    def test_inquire_and_set_through_a_deferred_open(self) -> None:
        def body(world: World) -> tuple[int | bytes, int | bytes]:
            qmgr = pymqi.connect("QM1")
            pymqi.Queue(qmgr, QUEUE).put(
                MESSAGE, pymqi.MD(), pymqi.PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
            )
            depth = pymqi.Queue(qmgr, QUEUE).inquire(CMQC.MQIA_CURRENT_Q_DEPTH)
            pymqi.Queue(qmgr, QUEUE).set(CMQC.MQIA_INHIBIT_PUT, CMQC.MQQA_PUT_INHIBITED)
            with raises_reason(CMQC.MQRC_PUT_INHIBITED):
                pymqi.Queue(qmgr, QUEUE).put(MESSAGE)
            return depth, pymqi.Queue(qmgr, QUEUE).inquire(CMQC.MQCA_Q_NAME)

        depth, name = in_world(body)
        assert depth == 1 and name == QUEUE.encode().ljust(48)

    @keeps("docs/pymqi.md", "a model queue's generated name is written into the OD")
    def test_a_dynamic_queue_writes_its_generated_name_back_into_the_od(self) -> None:
        def body(world: World) -> bytes:
            od = pymqi.OD(ObjectName=b"SYSTEM.DEFAULT.MODEL.QUEUE", DynamicQName=b"MY.REPLIES.*")
            pymqi.Queue(pymqi.connect("QM1"), od, CMQC.MQOO_INPUT_EXCLUSIVE)
            return bytes(od.ObjectName)

        assert in_world(body).startswith(b"MY.REPLIES.")


class TestRFH2:
    """put_rfh2 / get_rfh2's argument checks, as pymqi's."""

    def test_the_headers_must_be_a_list_and_get_rfh2s_not_none(self) -> None:
        def body(world: World) -> None:
            queue = pymqi.Queue(pymqi.connect("QM3"), QUEUE)
            with pytest.raises(TypeError, match=r"^Third item of opts should be a list\.$"):
                queue.put_rfh2(MESSAGE, pymqi.MD(), pymqi.PMO(), pymqi.RFH2())
            with pytest.raises(TypeError, match=r"^Python 3 style string \(unicode\) found"):
                queue.put_rfh2("text", pymqi.MD(), pymqi.PMO(), [])  # type: ignore[arg-type]
            with pytest.raises(AttributeError, match=r"^get_opts cannot be None if passed\.$"):
                queue.get_rfh2(None, pymqi.MD(), pymqi.GMO(), None)

        in_world(body)


class TestPlatforms:
    """The connected queue manager's platform decides what the program leaves unsaid."""

    @keeps(
        "docs/pymqi.md",
        "on z/OS an MQPUT, MQPUT1 or MQGET with neither SYNCPOINT nor NO_SYNCPOINT is inside a "
        "unit of work",
    )
    def test_on_zos_a_put_without_syncpoint_options_is_invisible_until_commit(self) -> None:
        def body(world: World) -> list[str]:
            seen = []
            for name in ("QM1", "QM3"):
                writer = pymqi.connect(name)
                pymqi.Queue(writer, QUEUE).put(MESSAGE)  # no MQPMO_(NO_)SYNCPOINT
                reader = pymqi.Queue(pymqi.connect(name), QUEUE)
                try:
                    reader.get()
                    seen.append(f"{name} at once")
                except pymqi.MQMIError as error:
                    seen.append(f"{name}: {error.reason}")
                    writer.commit()
                    reader.get()
                    seen.append(f"{name} after commit")
            return seen

        assert in_world(body) == ["QM1: 2033", "QM1 after commit", "QM3 at once"]


class TestUnsupported:
    """What the simulator does not model fails with a reason code, never AttributeError."""

    def test_publish_subscribe_is_2531_a_message_handle_2298(self) -> None:
        def body(world: World) -> None:
            qmgr = pymqi.connect("QM1")
            with raises_reason(CMQC.MQRC_PUBSUB_INHIBITED):
                pymqi.Topic(qmgr, topic_string="prices/", open_opts=CMQC.MQOO_OUTPUT)
            with raises_reason(CMQC.MQRC_PUBSUB_INHIBITED):
                pymqi.Subscription(qmgr).sub()
            with raises_reason(CMQC.MQRC_FUNCTION_NOT_SUPPORTED):
                pymqi.MessageHandle(qmgr)

        in_world(body)


class TestImportsAndClocks:
    """``import pymqi`` / ``ibmmq`` resolve to the facade; the program's clock."""

    @keeps("docs/pymqi.md", "A real pymqi installed in the environment is not found meanwhile")
    def test_a_pymqi_installed_on_the_path_is_not_found_while_the_program_runs(
        self, tmp_path: Path
    ) -> None:
        installed = tmp_path / "pymqi"
        installed.mkdir()
        (installed / "__init__.py").write_text("REAL = True\n")
        sys.path.insert(0, str(tmp_path))
        try:
            with pymqi_aliases():
                import pymqi as aliased  # type: ignore[import-not-found]

                assert aliased is pymqi_module() and not hasattr(aliased, "REAL")
            import pymqi as real  # type: ignore[import-not-found]

            assert real.REAL  # after the run, the environment's own again
        finally:
            sys.path.remove(str(tmp_path))
            sys.modules.pop("pymqi", None)

    @keeps(
        "docs/pymqi.md",
        "so `import pymqi`, `import ibmmq as pymqi`, `from pymqi import CMQC` and `import "
        "pymqi.CMQC` all give qsg's",
    )
    @keeps("README.md", "its `import pymqi` is qsg's")
    def test_pymqi_and_ibmmq_and_their_submodules_are_the_facade_for_the_run_only(
        self, tmp_path: object
    ) -> None:
        fake = type(sys)("pymqi")  # a "real" pymqi already imported: set aside, put back
        sys.modules["pymqi"] = fake
        try:
            with pymqi_aliases():
                import ibmmq  # type: ignore[import-not-found]
                import pymqi as aliased  # type: ignore[import-not-found]
                import pymqi.CMQC  # type: ignore[import-not-found]
                from ibmmq import CMQCFC  # type: ignore[import-not-found]

                assert aliased is ibmmq is pymqi_module()
                assert aliased.CMQC is CMQC and CMQCFC is pymqi.CMQCFC
            assert sys.modules["pymqi"] is fake and "ibmmq" not in sys.modules
        finally:
            del sys.modules["pymqi"]

    @keeps(
        "README.md",
        "`--virtual` runs the program in simulated time too (its `time.sleep`, clocks",
    )
    @keeps("docs/pymqi.md", "qsg's own code in the same process keeps real time")
    def test_under_virtual_time_the_programs_clocks_follow_the_simulation_and_qsgs_do_not(
        self,
    ) -> None:
        def body(world: World) -> tuple[float, float, float, float]:
            binding = bridge.binding()
            with program_clock(binding, virtual=True):
                wall, sim = time.time(), trio.current_time()
                now = datetime.datetime.now()
                time.sleep(3600)  # an hour of the program's life
                slept = time.time() - wall
                moved = trio.current_time() - sim
                dated = (datetime.datetime.now() - now).total_seconds()
                binding.in_facade += 1  # qsg's own code in the program's task
                try:
                    real = abs(time.time() - (wall - sim + trio.current_time()))
                finally:
                    binding.in_facade -= 1
            return slept, moved, dated, real

        slept, moved, dated, real = in_world(body)
        assert slept == moved == 3600 and dated == pytest.approx(3600, abs=1e-3)
        assert real > 3000  # qsg's machinery kept the real clock


def pymqi_module() -> object:
    return sys.modules["qsg.pymqi"]


class TestOnRedis:
    """The facade over shared queues on the Redis coupling facility: the store awaits the
    server inside a facade call, greenback nested in greenback."""

    def test_a_put_on_one_member_is_got_on_the_other_through_the_facility(
        self, cf_url: str
    ) -> None:
        async def main() -> tuple[bytes, str]:
            async with (
                qsg.start(topology(), redis_url=cf_url) as world,
                facade_bound(world, virtual=True),
            ):
                pmo = pymqi.PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
                pymqi.Queue(pymqi.connect("QM1"), QUEUE).put(MESSAGE, pymqi.MD(), pmo)
                md = pymqi.MD()
                gmo = pymqi.GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, WaitInterval=100)
                body = pymqi.Queue(pymqi.connect("QM2"), QUEUE).get(None, md, gmo)
                return body, md.PutApplName.strip().decode()

        body, _ = qsg.run(main)
        assert body == MESSAGE


class TestGroups:
    """GroupStatus and SegmentStatus come back as pymqi returns them: integers."""

    @keeps(
        "docs/pymqi.md",
        "after a get of the last message of a group, `gmo.GroupStatus == "
        'CMQC.MQGS_LAST_MSG_IN_GROUP` (76, `ord("L")`)',
    )
    def test_a_group_read_in_logical_order_reports_its_status_as_pymqis_ints(self) -> None:
        def body(world: World) -> list[tuple[bytes, int, int]]:
            qmgr = pymqi.connect("QM3")
            put = pymqi.Queue(qmgr, QUEUE)
            pmo = pymqi.PMO(Options=CMQC.MQPMO_LOGICAL_ORDER | CMQC.MQPMO_NO_SYNCPOINT)
            for flags, text in (
                (CMQC.MQMF_MSG_IN_GROUP, b"one"),
                (CMQC.MQMF_LAST_MSG_IN_GROUP, b"two"),
            ):
                put.put(text, pymqi.MD(Version=CMQC.MQMD_VERSION_2, MsgFlags=flags), pmo)
            get = pymqi.Queue(qmgr, QUEUE)
            gmo = pymqi.GMO(
                Version=CMQC.MQGMO_VERSION_2,
                Options=CMQC.MQGMO_LOGICAL_ORDER | CMQC.MQGMO_NO_SYNCPOINT,
            )
            out = []
            for _ in range(2):
                md = pymqi.MD(Version=CMQC.MQMD_VERSION_2)
                text = get.get(None, md, gmo)
                out.append((text, gmo.GroupStatus, gmo.SegmentStatus))
            return out

        assert in_world(body) == [
            (b"one", CMQC.MQGS_MSG_IN_GROUP, CMQC.MQSS_NOT_A_SEGMENT),
            (b"two", CMQC.MQGS_LAST_MSG_IN_GROUP, CMQC.MQSS_NOT_A_SEGMENT),
        ]
        assert ord("L") == CMQC.MQGS_LAST_MSG_IN_GROUP  # an int, as in pymqi
