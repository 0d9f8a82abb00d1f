"""What docs/pymqi.md says a program does not get fails as the guide says (issue 42:
"Where the docs say something is not simulated, the facade's error says the same").

The guide's table "What a program does not get" is read here row by row: each name in
its first column is exercised the ways a program uses it, and each must fail with the
reason code of the row's second column, its ``detail`` saying what is not simulated,
never with an AttributeError. The table and ``qsg.pymqi.unsupported`` list the same
names, so a feature the guide calls unsupported cannot quietly work, or fail otherwise.
The sentences around the table (client reconnection, TLS, connection authentication)
are held too.
"""

from __future__ import annotations

import importlib
import re
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

import qsg
from actors.world import World
from qsg import pymqi
from qsg.commands.exec.runner import facade_bound
from qsg.pymqi import CMQC, CMQCFC, bridge, unsupported
from tests.claims import keeps
from tests.worlds import qsg_and_qm3

T = TypeVar("T")
ROOT = Path(__file__).resolve().parent.parent
GUIDE = (ROOT / "docs" / "pymqi.md").read_text()


def in_world(body: Callable[[World], T]) -> T:
    async def main() -> T:
        async with (
            qsg.start(qsg_and_qm3(), in_process=True, seed=7) as world,
            facade_bound(world, virtual=True),
        ):
            return body(world)

    return qsg.run(main)


def table() -> list[tuple[list[str], int]]:
    """(the names of the first column, the reason code of the second) of each row of
    the guide's table under "What a program does not get"."""
    section = GUIDE.split("## What a program does not get", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    out = []
    for row in rows:
        first, second = row.split(" | ")[:2]
        reason = re.search(r"\((\d{4})\)", second)
        assert reason is not None, row
        out.append((re.findall(r"`([A-Z][\w.]*)`", first), int(reason[1])))
    return out


#: Each way a program meets what the guide's table names (q: a connected QueueManager).
USES: dict[str, list[Callable[[Any], object]]] = {
    "Topic": [
        lambda q: pymqi.Topic(q, topic_string=b"prices/", open_opts=CMQC.MQOO_OUTPUT),
        lambda q: pymqi.Topic(q, topic_string=b"prices/").open(),
        lambda q: pymqi.Topic(q, topic_string=b"prices/").pub(b"42"),
        lambda q: pymqi.Topic(q, topic_string=b"prices/").sub(),
    ],
    "Subscription": [
        lambda q: pymqi.Subscription(q).sub(topic_string=b"prices/"),
        lambda q: pymqi.Subscription(q, sub_desc=pymqi.SD()),
        lambda q: pymqi.Subscription(q).get(),
    ],
    "MessageHandle": [lambda q: pymqi.MessageHandle(q)],
    "QueueManager.cb": [lambda q: q.cb(operation=CMQC.MQOP_REGISTER)],
    "QueueManager.ctl": [lambda q: q.ctl(CMQC.MQOP_START, None)],
    "Queue.cb": [lambda q: pymqi.Queue(q, "APP.REPLIES").cb(operation=CMQC.MQOP_REGISTER)],
    "QueueManager.stat": [lambda q: q.stat(CMQC.MQSTAT_TYPE_ASYNC_ERROR)],
}


def test_the_guides_table_names_what_the_unsupported_module_holds() -> None:
    named = {name for names, _ in table() for name in names}
    assert named == set(USES)
    classes = {name for name in unsupported.__all__ if name[0].isupper()}
    assert {name.split(".")[0] for name in named} - {"QueueManager", "Queue"} == classes
    assert "PCFExecute" not in named  # it works (tests/test_pymqi_pcf.py)


@pytest.mark.parametrize(
    ("name", "use", "reason"),
    [
        pytest.param(name, use, reason, id=f"{name}-{i}")
        for names, reason in table()
        for name in names
        for i, use in enumerate(USES.get(name, []))
    ],
)
@keeps(
    "docs/pymqi.md",
    "What the simulator does not model fails as a queue manager without the feature fails, "
    "with `MQMIError` and IBM's reason code, never `AttributeError`",
)
@keeps("docs/pymqi.md", "Each error's `detail` says what is not simulated")
def test_each_use_of_what_is_not_simulated_fails_with_the_guides_reason_code(
    name: str, use: Callable[[Any], object], reason: int
) -> None:
    def body(world: World) -> pymqi.MQMIError:
        qmgr = pymqi.connect("QM1")
        with pytest.raises(pymqi.MQMIError) as raised:
            use(qmgr)
        return raised.value

    error = in_world(body)
    assert (error.comp, error.reason) == (CMQC.MQCC_FAILED, reason), name
    assert "not simulated" in error.detail, name


@keeps(
    "docs/pymqi.md",
    "MQCNO_RECONNECT is accepted, and the connection breaks with MQRC_CONNECTION_BROKEN when "
    "its queue manager goes",
)
def test_a_reconnectable_connection_is_broken_when_its_queue_manager_dies() -> None:
    # docs/pymqi.md: "client reconnection (MQCNO_RECONNECT: a program reconnects
    # itself...)": the option is taken, and the connection breaks as any other.
    def body(world: World) -> int:
        qmgr = pymqi.QueueManager(None)
        qmgr.connect_with_options("QM1", cno=pymqi.CNO(Options=CMQC.MQCNO_RECONNECT))
        bridge.call(world.kill, "QM1")
        with pytest.raises(pymqi.MQMIError) as raised:
            qmgr.inquire(CMQC.MQIA_PLATFORM)
        return raised.value.reason

    assert in_world(body) == CMQC.MQRC_CONNECTION_BROKEN


@keeps(
    "docs/pymqi.md",
    "the user is the connection's identity for authority checks; the password is not checked",
)
@keeps(
    "docs/security.md",
    (
        "the user is the connection's identity for authority checks; the password itself is not "
        "verified"
    ),
)
def test_the_user_of_a_csp_is_the_connections_identity_and_its_password_is_not_checked() -> None:
    # docs/pymqi.md: "connection authentication (the user is the connection's identity
    # for authority checks; the password is not checked)"; ibmmq's connect takes a CSP
    # (its dis_queues example: ``mq.connect(qm, channel, conn_info, csp=csp)``).
    def body(world: World) -> list[bytes]:
        csp = pymqi.CSP(CSPUserId=b"admin", CSPPassword=b"not the password")
        qmgr = pymqi.connect("QM1", csp=csp, cno=pymqi.CNO())
        reader = pymqi.Queue(qmgr, "APP.REPLIES", CMQC.MQOO_INPUT_SHARED)
        pcf = pymqi.PCFExecute(qmgr)
        handles = pcf.MQCMD_INQUIRE_Q_STATUS(
            {CMQC.MQCA_Q_NAME: b"APP.REPLIES", CMQCFC.MQIACF_Q_STATUS_TYPE: CMQCFC.MQIACF_Q_HANDLE}
        )
        reader.close()
        # The handles' replies; z/OS's summary, last, carries only the response's ids.
        user = CMQCFC.MQCACF_USER_IDENTIFIER
        return [h[user].strip() for h in handles if user in h]

    assert in_world(body) == [b"admin"]


@keeps("docs/pymqi.md", "anything else there `ibmmq`'s `TypeError`")
def test_a_csp_or_cno_of_another_type_is_ibmmqs_type_error() -> None:
    def body(world: World) -> None:
        qmgr = pymqi.QueueManager(None)
        with pytest.raises(TypeError, match=r"^csp must be an instance of CSP$"):
            qmgr.connect_with_options("QM1", csp=pymqi.CD())
        with pytest.raises(TypeError, match=r"^cno must be an instance of CNO$"):
            qmgr.connect_with_options("QM1", cno=pymqi.CSP())

    in_world(body)


@keeps("docs/pymqi.md", "TLS (an SCO is packed and checked, never used)")
def test_an_sco_is_packed_and_checked_and_the_connection_made_without_tls() -> None:
    # docs/pymqi.md: "TLS (an SCO is packed and checked, never used)".
    def body(world: World) -> bool:
        qmgr = pymqi.QueueManager(None)
        with pytest.raises(struct.error, match=r"^'i' format requires "):
            qmgr.connect_with_options("QM3", pymqi.CD(), pymqi.SCO(KeyResetCount=2**40))
        qmgr.connect_with_options("QM3", pymqi.CD(), pymqi.SCO(KeyRepository=b"/var/mqm/key"))
        return qmgr.is_connected

    assert in_world(body)


@keeps(
    "docs/pymqi.md",
    "`ibmmq` encodes a `str` given for a character field; qsg raises pymqi's `TypeError`;",
)
@keeps(
    "docs/pymqi.md",
    "`ibmmq` names reserved fields `_StrucId`, `_Reserved1`; its `GMO()` defaults to version 4; "
    "qsg keeps pymqi's `StrucId`, `Reserved1` and version 1;",
)
@keeps(
    "docs/pymqi.md",
    "`ibmmq` names an RFH2 folder that is not well-formed XML (a Java program's, say) by its "
    "first tag; qsg raises pymqi's `PYIFError`;",
)
@keeps("docs/pymqi.md", "`ibmmq`'s `CMQSTRC` module (constant-to-name tables) is not there.")
@keeps(
    "docs/pymqi.md",
    "`ibmmq` prints `MQI Error. Comp 2, Reason 2033: ...` (no colon after Comp) and "
    "`PYIBMMQ Error: ...`; qsg prints pymqi's words;",
)
def test_where_ibmmq_and_pymqi_differ_the_module_is_pymqi() -> None:
    with pytest.raises(TypeError, match=r"^Python 3 style string \(unicode\) found"):
        pymqi.MD(PutApplName="a str")
    gmo = pymqi.GMO()
    assert gmo.Version == 1 and gmo.StrucId == b"GMO " and gmo.Reserved1 == b" "
    assert not hasattr(gmo, "_StrucId") and not hasattr(gmo, "_Reserved1")
    with pytest.raises(pymqi.PYIFError, match="XML Folder not well formed"):
        pymqi.RFH2().add_folder(b"<usr><a>1</usr>")
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("qsg.pymqi.CMQSTRC")
    error = pymqi.MQMIError(CMQC.MQCC_FAILED, CMQC.MQRC_NO_MSG_AVAILABLE)
    assert str(error).startswith("MQI Error. Comp: 2, Reason 2033: ")
    assert str(pymqi.PYIFError("x")) == "PYMQI Error: x"
