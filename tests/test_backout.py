"""BOTHRESH, BOQNAME and HARDENBO: the backout count, and what the queue manager leaves
to the application.

IBM's topics: "BackoutThreshold (MQLONG)" ("Apart from allowing its value to be queried,
the queue manager takes no action based on the value of this attribute"),
"BackoutRequeueQName (MQCHAR48)", "BackoutCount (MQLONG)" and "Messages that are backed
out" (on z/OS the backout count of a shared queue always survives a restart of the
queue manager; of a private queue only with HardenGetBackout MQQA_BACKOUT_HARDENED).
"""

from __future__ import annotations

import pytest
import trio

import qsg
from actors.clock import VirtualClock
from actors.topology import Topology
from qsg import CMQC, GMO, MD, MQMIError, QMgr
from qsg.core.objects import CFStructure
from qsg.core.queue import QueueDefinition
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc import MQSCError, commands, load, status
from tests.helpers import ALL, NO_SYNC_PUT, get, put

SYNC = CMQC.MQGMO_SYNCPOINT
PERSISTENT = CMQC.MQPER_PERSISTENT


def display(qm: QMgr, text: str) -> str:
    return commands.run(commands.parse(text), qm, lambda: status.take(qm, 0.0)).text


def backed_out(qm: QMgr, queue: str, times: int) -> int:
    """Get the first message of ``queue`` under syncpoint and back it out ``times``
    times; the BackoutCount the last get saw."""
    conn = qm.connect()
    h = conn.open(queue, CMQC.MQOO_INPUT_SHARED)
    count = -1
    for i in range(times):
        count = get(h, float(i), SYNC)[1].BackoutCount
        conn.backout()
    h.close()
    return count


def test_bothresh_boqname_and_hardenbo_are_defined_in_mqsc_and_read_by_mqinq() -> None:
    # "To determine the value of this attribute, use the MQIA_BACKOUT_THRESHOLD selector
    # with the MQINQ call" (BackoutThreshold), MQCA_BACKOUT_REQ_Q_NAME for
    # BackoutRequeueQName, MQIA_HARDEN_GET_BACKOUT for HardenGetBackout.
    qm = QMgr("QM1")
    load(qm, "DEFINE QLOCAL(APP.WORK) BOTHRESH(3) BOQNAME(APP.BACKOUT) NOHARDENBO")
    h = qm.connect().open("APP.WORK", CMQC.MQOO_INQUIRE)
    assert h.inquire(CMQC.MQIA_BACKOUT_THRESHOLD) == 3
    assert h.inquire(CMQC.MQCA_BACKOUT_REQ_Q_NAME) == b"APP.BACKOUT".ljust(48)
    assert h.inquire(CMQC.MQIA_HARDEN_GET_BACKOUT) == CMQC.MQQA_BACKOUT_NOT_HARDENED
    load(qm, "ALTER QLOCAL(APP.WORK) BOTHRESH(5) HARDENBO")
    assert h.inquire(CMQC.MQIA_BACKOUT_THRESHOLD) == 5
    assert h.inquire(CMQC.MQIA_HARDEN_GET_BACKOUT) == CMQC.MQQA_BACKOUT_HARDENED
    shown = display(qm, "DISPLAY QLOCAL(APP.WORK) BOTHRESH BOQNAME HARDENBO")
    assert "BOTHRESH(5) BOQNAME(APP.BACKOUT) HARDENBO" in shown
    # A new queue: BOTHRESH(0), BOQNAME(' '), as DEFINE QLOCAL's defaults.
    load(qm, "DEFINE QLOCAL(APP.PLAIN)")
    plain = qm.connect().open("APP.PLAIN", CMQC.MQOO_INQUIRE)
    assert plain.inquire(CMQC.MQIA_BACKOUT_THRESHOLD) == 0
    assert plain.inquire(CMQC.MQCA_BACKOUT_REQ_Q_NAME) == b" " * 48


def test_a_dynamic_queue_takes_bothresh_and_boqname_from_its_model() -> None:
    qm = QMgr("QM1")
    load(qm, "DEFINE QMODEL(APP.MODEL) DEFTYPE(PERMDYN) BOTHRESH(2) BOQNAME(APP.BACKOUT)")
    h = qm.connect().open("APP.MODEL", CMQC.MQOO_INPUT_EXCLUSIVE | CMQC.MQOO_INQUIRE)
    assert h.inquire(CMQC.MQIA_BACKOUT_THRESHOLD) == 2
    assert h.inquire(CMQC.MQCA_BACKOUT_REQ_Q_NAME) == b"APP.BACKOUT".ljust(48)


def test_the_queue_manager_takes_no_action_on_the_backout_threshold() -> None:
    # BackoutThreshold: "the queue manager takes no action based on the value": the
    # message stays where it is past the threshold, the count goes on, nothing is moved.
    qm = QMgr("QM1")
    load(qm, "DEFINE QLOCAL(APP.WORK) BOTHRESH(2) BOQNAME(APP.BACKOUT)\nDEFINE QLOCAL(APP.BACKOUT)")
    put(qm.connect().open("APP.WORK", CMQC.MQOO_OUTPUT), b"poison", 0.0)
    assert backed_out(qm, "APP.WORK", 5) == 4
    assert (qm.depth("APP.WORK"), qm.depth("APP.BACKOUT")) == (1, 0)
    assert get(qm.connect().open("APP.WORK", ALL), 9.0)[1].BackoutCount == 5


def test_browse_does_not_count_as_a_backout() -> None:
    # BackoutCount: "The count excludes MQGET calls that specify any of the MQGMO_BROWSE_*
    # options."
    qm = QMgr("QM1")
    qm.define_queue("Q")
    conn = qm.connect()
    h = conn.open("Q", ALL)
    put(h, b"m", 0.0)
    for _ in range(3):
        assert get(h, 1.0, CMQC.MQGMO_BROWSE_FIRST)[1].BackoutCount == 0
    conn.backout()
    assert get(h, 2.0, SYNC)[1].BackoutCount == 0


def _in_flight_at_restart(qm: QMgr, queue: str) -> None:
    """Two backouts, then a third get in flight when the queue manager goes down."""
    put(qm.connect().open(queue, CMQC.MQOO_OUTPUT), b"poison", 0.0, Persistence=PERSISTENT)
    assert backed_out(qm, queue, 2) == 1
    conn = qm.connect()
    assert get(conn.open(queue, CMQC.MQOO_INPUT_SHARED), 5.0, SYNC)[1].BackoutCount == 2


@pytest.mark.usefixtures("each_store")
def test_a_hardened_backout_count_survives_a_restart_of_the_queue_manager() -> None:
    # "to ensure that the backout count for private queues survives restarts of the
    # queue manager, set the HardenGetBackout attribute to MQQA_BACKOUT_HARDENED": the
    # count is hardened when the message is got, so the get in flight counts too.
    qm = QMgr("QM1")
    load(qm, "DEFINE QLOCAL(APP.WORK) HARDENBO")
    _in_flight_at_restart(qm, "APP.WORK")
    qm.restart(incarnation=1)
    assert get(qm.connect().open("APP.WORK", ALL), 9.0)[1].BackoutCount == 3


@pytest.mark.usefixtures("each_store")
def test_a_count_not_hardened_is_lost_at_a_restart_of_the_queue_manager() -> None:
    # "otherwise, if the queue manager has to restart, it does not maintain an accurate
    # backout count for each message": qsg forgets it (the message comes back with 0),
    # while the messages' other fields and their order are kept.
    qm = QMgr("QM1")
    load(
        qm,
        """
        DEFINE QLOCAL(APP.WORK) NOHARDENBO
        DEFINE QLOCAL(APP.KEPT) HARDENBO
        DEFINE QMODEL(APP.MODEL) DEFTYPE(PERMDYN) NOHARDENBO
        DEFINE QALIAS(APP.ALIAS) TARGET(APP.WORK)
        """,
    )
    _in_flight_at_restart(qm, "APP.WORK")
    _in_flight_at_restart(qm, "APP.KEPT")
    qm.restart(incarnation=1)
    body, md = get(qm.connect().open("APP.WORK", ALL), 9.0)
    assert (body, md.BackoutCount, md.Persistence) == (b"poison", 0, CMQC.MQPER_PERSISTENT)
    assert get(qm.connect().open("APP.KEPT", ALL), 9.0)[1].BackoutCount == 3


def test_a_backout_count_not_hardened_still_counts_while_the_queue_manager_runs() -> None:
    qm = QMgr("QM1")
    load(qm, "DEFINE QLOCAL(APP.WORK) NOHARDENBO")
    put(qm.connect().open("APP.WORK", CMQC.MQOO_OUTPUT), b"m", 0.0)
    assert backed_out(qm, "APP.WORK", 4) == 3


@pytest.mark.usefixtures("each_store")
def test_the_backout_count_of_a_shared_queue_always_survives_a_restart() -> None:
    # "For shared queues, the backout count always survives restarts of the queue
    # manager": it is kept with the message in the coupling facility, NOHARDENBO or not.
    group = QueueSharingGroup("QSG1")
    qm1, qm2 = QMgr("QM1", qsg=group), QMgr("QM2", qsg=group)
    qm1.define_structure(CFStructure("APP1", recover=True))
    load(qm1, "DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1) NOHARDENBO")
    _in_flight_at_restart(qm1, "APP.SHARED")
    qm1.restart(incarnation=1)
    assert get(qm2.connect().open("APP.SHARED", ALL), 9.0)[1].BackoutCount == 3


def test_on_z_os_the_backout_count_returned_is_never_greater_than_255() -> None:
    # BackoutCount: "On z/OS, a value of 255 means that the message has been backed out
    # 255 or more times; the value returned is never greater than 255."
    for platform, most in ((CMQC.MQPL_ZOS, 255), (CMQC.MQPL_UNIX, 300)):
        qm = QMgr("QM1", platform=platform)
        qm.define_queue("Q")
        put(qm.connect().open("Q", CMQC.MQOO_OUTPUT), b"m", 0.0, CMQC.MQPMO_NO_SYNCPOINT)
        backed_out(qm, "Q", 300)
        assert get(qm.connect().open("Q", ALL), 9.0, SYNC)[1].BackoutCount == most


@pytest.mark.parametrize(
    ("command", "problem"),
    [
        ("DEFINE QLOCAL(Q) BOTHRESH(1000000000)", r"BOTHRESH.*not in 0\.\.999999999"),
        ("DEFINE QLOCAL(Q) BOTHRESH(-1)", r"BOTHRESH.*not a whole number"),
        ("DEFINE QLOCAL(Q) BOQNAME('A B')", r"BOQNAME.*characters MQ does not allow"),
        ("DEFINE QLOCAL(Q) BOQNAME(" + "X" * 49 + ")", r"BOQNAME.*1 to 48 characters"),
        ("DEFINE QALIAS(Q) TARGET(T) BOTHRESH(3)", r"'BOTHRESH' is not a keyword"),
        ("DEFINE QALIAS(Q) TARGET(T) HARDENBO", r"HARDENBO"),
        ("DEFINE QREMOTE(Q) RNAME(T) BOQNAME(X)", r"'BOQNAME' is not a keyword"),
    ],
)
def test_a_bad_backout_attribute_is_refused_in_one_line_and_nothing_is_defined(
    command: str, problem: str
) -> None:
    qm = QMgr("QM1")
    with pytest.raises(MQSCError, match=problem) as refused:
        load(qm, command)
    assert len(str(refused.value).splitlines()) == 1
    assert qm.find("Q") is None


def test_mqset_of_a_backout_attribute_is_a_selector_error_and_changes_nothing() -> None:
    # MQSET sets InhibitGet, InhibitPut and the trigger attributes only ("Setting queue
    # attributes"); another selector "is for an attribute that cannot be set":
    # MQRC_SELECTOR_ERROR (2067).
    qm = QMgr("QM1")
    load(qm, "DEFINE QLOCAL(Q) BOTHRESH(3) BOQNAME(B)")
    h = qm.connect().open("Q", CMQC.MQOO_SET | CMQC.MQOO_INQUIRE)
    for selector, value in (
        (CMQC.MQIA_BACKOUT_THRESHOLD, 9),
        (CMQC.MQIA_HARDEN_GET_BACKOUT, 0),
        (CMQC.MQCA_BACKOUT_REQ_Q_NAME, b"OTHER"),
    ):
        with pytest.raises(MQMIError, match=r"^MQCC_FAILED: MQRC_SELECTOR_ERROR \(2067\)"):
            h.set(selector, value)
    assert h.inquire(CMQC.MQIA_BACKOUT_THRESHOLD) == 3
    assert h.inquire(CMQC.MQCA_BACKOUT_REQ_Q_NAME) == b"B".ljust(48)


def test_mqinq_of_a_backout_attribute_of_an_alias_is_not_for_its_type() -> None:
    # BackoutThreshold and BackoutRequeueQName apply to local and model queues only.
    qm = QMgr("QM1")
    load(qm, "DEFINE QLOCAL(Q) BOTHRESH(3)\nDEFINE QALIAS(A) TARGET(Q)")
    alias = qm.connect().open("A", CMQC.MQOO_INQUIRE)
    for selector in (CMQC.MQIA_BACKOUT_THRESHOLD, CMQC.MQCA_BACKOUT_REQ_Q_NAME):
        with pytest.raises(MQMIError, match=r"MQRC_SELECTOR_NOT_FOR_TYPE \(2068\)"):
            alias.inquire(selector)


@pytest.mark.parametrize(
    ("attributes", "problem"),
    [
        ({"backout_threshold": -1}, r"^queue Q: BOTHRESH must be 0\.\.999999999$"),
        ({"backout_threshold": 1_000_000_000}, r"^queue Q: BOTHRESH must be 0\.\.999999999$"),
        ({"backout_requeue_name": "A B"}, r"^BOQNAME queue name 'A B' has characters"),
        ({"harden_get_backout": 2}, r"^queue Q: HARDENBO or NOHARDENBO, not 2$"),
        ({"retention_interval": -1}, r"^queue Q: RETINTVL must be 0\.\.999999999$"),
        ({"retention_interval": 1_000_000_000}, r"^queue Q: RETINTVL must be 0\.\.999999999$"),
    ],
)
def test_a_queue_definition_in_python_refuses_backout_attributes_mq_would_not_take(
    attributes: dict[str, object], problem: str
) -> None:
    with pytest.raises(ValueError, match=problem):
        QueueDefinition("Q", **attributes)  # type: ignore[arg-type]
    edge = QueueDefinition("Q", backout_threshold=999_999_999, retention_interval=0)
    assert (edge.backout_threshold, edge.retention_interval) == (999_999_999, 0)


async def test_a_killed_and_restarted_member_keeps_only_the_hardened_counts(
    virtual_clock: VirtualClock,
) -> None:
    # The world's kill and restart (a new life of QM1): the in-flight get is backed out
    # at the restart, and the counts of NOHARDENBO queues are not kept.
    topology = Topology()
    topology.add_qmgr("QM1")
    topology.mqsc("QM1", "DEFINE QLOCAL(APP.KEPT) HARDENBO\nDEFINE QLOCAL(APP.LOST) NOHARDENBO")
    async with qsg.start(topology, in_process=True) as world:
        conn = await world.connect("QM1")
        for name in ("APP.KEPT", "APP.LOST"):
            q = await conn.open(name, CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
            await q.put(b"poison", MD(Persistence=CMQC.MQPER_PERSISTENT), NO_SYNC_PUT)
            for _ in range(2):
                await q.get(None, MD(), GMO(Options=SYNC))
                await conn.backout()
            await q.get(None, MD(), GMO(Options=SYNC))  # in flight at the kill
        await world.kill("QM1")
        await trio.sleep(1)
        await world.restart("QM1")
        conn = await world.connect("QM1")
        counts = {}
        for name in ("APP.KEPT", "APP.LOST"):
            md = MD()
            await (await conn.open(name, CMQC.MQOO_INPUT_SHARED)).get(None, md, GMO())
            counts[name] = md.BackoutCount
        assert counts == {"APP.KEPT": 3, "APP.LOST": 0}
