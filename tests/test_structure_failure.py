"""One CF structure fails; BACKUP and RECOVER CFSTRUCT bring it back (issue 48).

IBM MQ for z/OS ("Recovering shared queues", "Coupling Facility failure", "RESET
CFSTRUCT", "BACKUP CFSTRUCT", "RECOVER CFSTRUCT"): when a structure fails its
nonpersistent messages are lost and every call on its queues gets MQRC_CF_STRUC_FAILED
(2373) while the other structures go on; a RECOVER(NO) structure is "automatically
reallocated (empty) by the next MQOPEN"; a RECOVER(YES) one waits for RECOVER CFSTRUCT,
which rebuilds its persistent messages from the last backup plus every member's log
since (TYPE(PURGE): empty). The rules are ``qsg.core.cfstate``'s; each test runs on the
in-process store and on the coupling facility's server, and one plays both side by side.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Callable, Iterator

import pytest
import trio

import qsg
from actors import admin
from actors.clock import VirtualClock
from actors.events import CFRecovered
from actors.topology import Topology
from coupling import keys
from coupling.cleanup import delete_group
from coupling.server import EmbeddedServer
from coupling.store import RedisStore
from coupling.transport import BlockingTransport
from qsg import CMQC, GMO, MD, MQMIError, QMgr
from qsg import CMQCFC as F
from qsg.core import bugs, cfstate
from qsg.core.handle import Handle
from qsg.core.memstore import MemoryStore
from qsg.core.message import Message
from qsg.core.objects import CFStructure
from qsg.core.sharing import QueueSharingGroup
from qsg.core.store import MessageStore, Ordering, Select, Syncpoint
from qsg.mqsc import commands
from qsg.mqsc.pcf import Header, Value, encode
from qsg.mqsc.pcf_commands import process
from qsg.mqsc.status import take
from tests.claims import keeps
from tests.helpers import ALL, drain, get, put
from tests.test_pcf_command_server import parse

PERSISTENT = {"Persistence": CMQC.MQPER_PERSISTENT}
NONPERSISTENT = {"Persistence": CMQC.MQPER_NOT_PERSISTENT}


@pytest.fixture(params=["in-process", "server"])
def make_store(request: pytest.FixtureRequest) -> Callable[[], MessageStore]:
    """Makes the QSG's shared store: the in-process one, or the coupling facility's."""
    if request.param == "server":
        make: Callable[[], RedisStore] = request.getfixturevalue("redis_store")
        return make
    return MemoryStore


def _group(store: MessageStore, recover: bool = True, *names: str) -> QMgr:
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1", store=store))
    for structure in names or ("APP1",):
        qm.define_structure(CFStructure(structure, cf_level=5, recover=recover))
        qm.define_queue(
            f"Q.{structure}", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct=structure, max_depth=1000
        )
    return qm


def _second_member(store: MessageStore, qm1: QMgr, *names: str) -> QMgr:
    """QM2 of ``qm1``'s group: in process it shares the group's store; on the server it
    has a store of its own on the same facility, as a member in another process has."""
    if not isinstance(store, RedisStore):
        assert qm1.qsg is not None
        return QMgr("QM2", qsg=qm1.qsg)
    qm2 = QMgr("QM2", qsg=QueueSharingGroup("QSG1", store=RedisStore(store.transport, store.qsg)))
    for structure in names or ("APP1",):
        qm2.define_structure(CFStructure(structure, cf_level=5, recover=True))
        qm2.define_queue(
            f"Q.{structure}", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct=structure, max_depth=1000
        )
    return qm2


def _open(qm: QMgr, structure: str = "APP1") -> Handle:
    return qm.connect().open(f"Q.{structure}", ALL)


def _reason(call: Callable[[], object]) -> int:
    with pytest.raises(MQMIError) as caught:
        call()
    return caught.value.reason


@keeps(
    "docs/coupling-facility.md",
    "A structure never backed up recovers from the log since it was allocated.",
)
@keeps(
    "docs/coupling-facility.md",
    "fails one structure: its nonpersistent messages are lost, and every call on its "
    "queues, MQOPEN included, gets MQRC_CF_STRUC_FAILED (2373)",
)
def test_a_failed_structure_loses_its_nonpersistent_messages_and_every_call_gets_2373(
    make_store: Callable[[], MessageStore],
) -> None:
    """RESET CFSTRUCT ACTION(FAIL): "deletes all non-persistent messages, structure
    unusable until recovered"; MQRC_CF_STRUC_FAILED on every call, MQOPEN included."""
    store = make_store()
    qm = _group(store)
    h = _open(qm)
    put(h, b"p1", 0.0, **PERSISTENT)
    put(h, b"n1", 0.0, **NONPERSISTENT)
    put(h, b"n2", 0.0, **NONPERSISTENT)
    assert store.fail_structure("APP1", 5.0) == 2
    status = store.structure_status("APP1")
    assert (status.status, status.failed_at, status.lost) == (cfstate.FAILED, 5.0, 2)
    assert _reason(lambda: put(h, b"x", 6.0)) == CMQC.MQRC_CF_STRUC_FAILED
    assert _reason(lambda: drain(h, 6.0)) == CMQC.MQRC_CF_STRUC_FAILED
    assert _reason(lambda: _open(qm)) == CMQC.MQRC_CF_STRUC_FAILED
    store.recover_structure("APP1", purge=False)
    assert drain(_open(qm), 7.0) == [b"p1"]  # no backup: the log since allocation


@keeps(
    "docs/coupling-facility.md",
    "RECOVER rebuilds from that backup plus the members' log since: the persistent "
    "messages put since the backup and still there, less the backed-up ones got "
    "since.",
)
def test_recover_rebuilds_from_the_backup_plus_the_log_of_puts_and_gets_since(
    make_store: Callable[[], MessageStore],
) -> None:
    """RECOVER CFSTRUCT TYPE(NORMAL) reads the backup and "replays log records from every
    member that did MQPUT/MQGET on queues in the structure since the backup": a message
    got after the backup stays got, one put after it is back, order kept."""
    store = make_store()
    qm = _group(store)
    h = _open(qm)
    for body in (b"a", b"b", b"c"):
        put(h, body, 0.0, **PERSISTENT)
    backup = store.backup_structure("APP1", 100.0, cfstate.DEFAULT_EXCLINT)
    assert (backup.backup_at, backup.backup_messages, backup.backup_bytes) == (100.0, 3, 3)
    assert drain(h, 101.0)[:1] == [b"a"]  # drains a, b, c
    put(h, b"b", 102.0, **PERSISTENT)  # a new message with the same body
    put(h, b"d", 102.0, **PERSISTENT)
    put(h, b"gone", 102.0, **NONPERSISTENT)
    store.fail_structure("APP1", 103.0)
    assert store.structure_status("APP1").log_records == 5  # 3 gets, 2 puts
    restored = store.recover_structure("APP1", purge=False)
    assert restored == (0, 2, 5)  # nothing left of the backup; 2 from the log
    assert drain(_open(qm), 104.0) == [b"b", b"d"]
    assert store.audit() == []


@keeps(
    "docs/coupling-facility.md",
    "records the structure's committed persistent messages older than n seconds",
)
def test_exclint_leaves_the_youngest_messages_to_the_log(
    make_store: Callable[[], MessageStore],
) -> None:
    """BACKUP CFSTRUCT EXCLINT(n): only messages older than n seconds are backed up; the
    younger ones are recovered from the log all the same."""
    store = make_store()
    qm = _group(store)
    h = _open(qm)
    put(h, b"old", 0.0, **PERSISTENT)
    put(h, b"young", 95.0, **PERSISTENT)
    assert store.backup_structure("APP1", 100.0, 30).backup_messages == 1
    store.fail_structure("APP1", 110.0)
    assert store.recover_structure("APP1", purge=False) == (1, 1, 1)
    assert drain(_open(qm), 111.0) == [b"old", b"young"]


def test_the_bug_recover_skips_log_loses_what_was_put_after_the_backup(
    make_store: Callable[[], MessageStore],
) -> None:
    """The known bug ``recover-skips-log`` (a chaos campaign must catch it): RECOVER
    restores the backup alone, so a message put after it is lost and one got after it
    comes back."""
    store = make_store()
    qm = _group(store)
    h = _open(qm)
    put(h, b"before", 0.0, **PERSISTENT)
    store.backup_structure("APP1", 50.0, 0)
    drain(h, 51.0)
    put(h, b"after", 52.0, **PERSISTENT)
    store.fail_structure("APP1", 53.0)
    with bugs.injected(bugs.RECOVER_SKIPS_LOG):
        store.recover_structure("APP1", purge=False)
    assert drain(_open(qm), 54.0) == [b"before"]


@keeps(
    "docs/coupling-facility.md",
    "A RECOVER(NO) structure is reallocated, empty, by the next MQOPEN of one of its queues.",
)
def test_a_recover_no_structure_is_reallocated_empty_by_the_next_mqopen(
    make_store: Callable[[], MessageStore],
) -> None:
    """ "RECOVER(NO) structure ...: not recovered; automatically reallocated (empty) by
    the next MQOPEN of a queue that uses it; all messages lost." A handle opened before
    the failure still gets 2373 until that open."""
    store = make_store()
    qm = _group(store, recover=False)
    old = _open(qm)
    put(old, b"n", 0.0, **NONPERSISTENT)
    store.fail_structure("APP1", 1.0)
    assert _reason(lambda: put(old, b"x", 2.0)) == CMQC.MQRC_CF_STRUC_FAILED
    new = _open(qm)
    assert store.structure_status("APP1").status == cfstate.ACTIVE
    assert drain(new, 3.0) == []
    put(old, b"again", 4.0)  # the structure is back for every handle
    assert drain(new, 5.0) == [b"again"]


@keeps("docs/coupling-facility.md", "while the other structures go on")
def test_one_structure_failing_leaves_another_untouched(
    make_store: Callable[[], MessageStore],
) -> None:
    """ "Members keep working with private queues and other structures.\""""
    store = make_store()
    qm = _group(store, True, "APP1", "APP2")
    one, two = _open(qm, "APP1"), _open(qm, "APP2")
    put(two, b"kept", 0.0, **NONPERSISTENT)
    put(one, b"lost", 0.0, **NONPERSISTENT)
    store.fail_structure("APP1", 1.0)
    put(two, b"more", 2.0, **NONPERSISTENT)
    assert drain(two, 3.0) == [b"kept", b"more"]
    assert store.structure_status("APP2").status == cfstate.ACTIVE
    assert _reason(lambda: drain(one, 3.0)) == CMQC.MQRC_CF_STRUC_FAILED
    assert store.audit() == []


@keeps(
    "docs/coupling-facility.md",
    "A unit of work with work on it ends in MQRC_BACKED_OUT at MQCMIT, whichever member it runs on",
)
def test_a_unit_of_work_with_work_on_the_failed_structure_is_backed_out_at_mqcmit(
    make_store: Callable[[], MessageStore],
) -> None:
    """The failure takes the structure's part of every unit of work in flight: MQCMIT
    answers MQRC_BACKED_OUT, and the whole unit is backed out (its other queues too)."""
    store = make_store()
    qm = _group(store, True, "APP1", "APP2")
    conn = qm.connect()
    one, two = conn.open("Q.APP1", ALL), conn.open("Q.APP2", ALL)
    put(one, b"in flight", 0.0, CMQC.MQPMO_SYNCPOINT, **PERSISTENT)
    put(two, b"in flight too", 0.0, CMQC.MQPMO_SYNCPOINT, **PERSISTENT)
    store.fail_structure("APP1", 1.0)
    assert _reason(conn.commit) == CMQC.MQRC_BACKED_OUT
    assert drain(two, 2.0) == []
    store.recover_structure("APP1", purge=False)
    assert drain(conn.open("Q.APP1", ALL), 3.0) == []  # never committed, never logged


@keeps("docs/coupling-facility.md", "or `TYPE(PURGE)` (empty)")
def test_recover_type_purge_reallocates_the_structure_empty(
    make_store: Callable[[], MessageStore],
) -> None:
    """RECOVER CFSTRUCT TYPE(PURGE) "recovers to an empty structure (messages lost)"."""
    store = make_store()
    qm = _group(store)
    put(_open(qm), b"p", 0.0, **PERSISTENT)
    store.backup_structure("APP1", 10.0, 0)
    store.fail_structure("APP1", 11.0)
    assert store.recover_structure("APP1", purge=True) == (0, 0, 0)
    assert drain(_open(qm), 12.0) == []
    assert store.structure_status("APP1").backup_at is None


def test_the_stores_side_by_side_answer_alike_through_backup_failure_and_recovery(
    redis_store: Callable[[], RedisStore],
) -> None:
    """The same history through the in-process store and the coupling facility's: the
    same status, the same answers and the same messages after every step."""
    stores: list[MessageStore] = [MemoryStore(), redis_store()]
    groups = [_group(store, True, "APP1", "APP2") for store in stores]
    handles = [(_open(qm, "APP1"), _open(qm, "APP2")) for qm in groups]
    # QM2's unit of work on both structures: the failure of APP1, by QM1, takes it all.
    seconds = [
        _second_member(s, qm, "APP1", "APP2").connect()
        for s, qm in zip(stores, groups, strict=True)
    ]
    theirs = {id(s): c for s, c in zip(stores, seconds, strict=True)}
    in_flight = [(c.open("Q.APP1", ALL), c.open("Q.APP2", ALL)) for c in seconds]
    for one, two in in_flight:
        put(one, b"QM2 in flight", 1.0, CMQC.MQPMO_SYNCPOINT, **PERSISTENT)
        put(two, b"QM2 in flight too", 1.0, CMQC.MQPMO_SYNCPOINT, **PERSISTENT)

    def step(action: Callable[[MessageStore, tuple[Handle, Handle], QMgr], object]) -> None:
        answers = []
        for store, pair, qm in zip(stores, handles, groups, strict=True):
            try:
                answers.append(("ok", action(store, pair, qm)))
            except MQMIError as error:
                answers.append(("error", error.reason))
        assert answers[0] == answers[1]
        statuses = [s.structure_status("APP1") for s in stores]
        assert statuses[0] == statuses[1]

    for n in range(6):
        step(lambda s, p, qm, n=n: put(p[n % 2], b"m%d" % n, float(n), **PERSISTENT) and None)
    step(lambda s, p, qm: put(p[0], b"np", 6.0, **NONPERSISTENT) and None)
    step(lambda s, p, qm: s.backup_structure("APP1", 40.0, 30))
    step(lambda s, p, qm: drain(p[0], 41.0)[:1])
    # Work in syncpoint: logged at MQCMIT, not at MQBACK (both stores alike).
    units = {id(s): qm.connect() for s, qm in zip(stores, groups, strict=True)}
    queues = {key: c.open("Q.APP1", ALL) for key, c in units.items()}
    step(lambda s, p, qm: put(queues[id(s)], b"sp", 41.5, CMQC.MQPMO_SYNCPOINT, **PERSISTENT))
    step(lambda s, p, qm: units[id(s)].backout())
    step(lambda s, p, qm: put(queues[id(s)], b"sp2", 41.5, CMQC.MQPMO_SYNCPOINT, **PERSISTENT))
    step(lambda s, p, qm: units[id(s)].commit())
    step(lambda s, p, qm: get(queues[id(s)], 41.6, CMQC.MQGMO_SYNCPOINT)[0])
    step(lambda s, p, qm: units[id(s)].commit())
    step(lambda s, p, qm: put(p[0], b"late", 42.0, **PERSISTENT) and None)
    # 3 gets of backed-up messages, sp2's put and get (netted), late's put.
    assert [s.structure_status("APP1").log_records for s in stores] == [6, 6]
    assert [_log_held(s) for s in stores] == [4, 4]
    step(lambda s, p, qm: s.fail_structure("APP1", 43.0))
    step(lambda s, p, qm: theirs[id(s)].commit())  # MQRC_BACKED_OUT on both
    step(lambda s, p, qm: drain(p[1], 43.0))  # its APP2 put backed out with it
    step(lambda s, p, qm: put(p[0], b"refused", 44.0))
    step(lambda s, p, qm: drain(p[1], 44.0))
    step(lambda s, p, qm: s.recover_structure("APP1", purge=False))
    step(lambda s, p, qm: drain(_open(qm, "APP1"), 45.0))
    step(lambda s, p, qm: s.audit())


@keeps(
    "docs/coupling-facility.md",
    "BACKUP of a RECOVER(NO) or CFLEVEL below 3 structure (MQRCCF_CF_STRUC_ERROR "
    "3236, NOT_RECOVERABLE), RECOVER of a structure that has not failed (3236, "
    "NOT_FAILED)",
)
@pytest.mark.parametrize(
    ("check", "definition", "status", "reason", "cfstatus"),
    [
        (
            "backup",
            CFStructure("NOREC", recover=False),
            cfstate.StructureStatus("NOREC"),
            F.MQRCCF_CF_STRUC_ERROR,
            F.MQCFSTATUS_NOT_RECOVERABLE,
        ),
        (
            "backup",
            CFStructure("OLD", cf_level=2, recover=True),
            cfstate.StructureStatus("OLD"),
            F.MQRCCF_CF_STRUC_ERROR,
            F.MQCFSTATUS_NOT_RECOVERABLE,
        ),
        (
            "recover",
            CFStructure("FINE", recover=True),
            cfstate.StructureStatus("FINE"),
            F.MQRCCF_CF_STRUC_ERROR,
            F.MQCFSTATUS_NOT_FAILED,
        ),
        (
            "reset",
            CFStructure("LEVEL4", cf_level=4, recover=True),
            cfstate.StructureStatus("LEVEL4"),
            F.MQRCCF_CF_STRUC_ERROR,
            F.MQCFSTATUS_ACTIVE,
        ),
        (
            "reset",
            CFStructure("TWICE", recover=True),
            cfstate.StructureStatus("TWICE", cfstate.FAILED, 1.0),
            F.MQRCCF_CF_STRUC_ALREADY_FAILED,
            F.MQCFSTATUS_FAILED,
        ),
    ],
)
def test_backup_recover_and_reset_refuse_what_ibm_refuses_with_3236_and_its_status(
    check: str,
    definition: CFStructure,
    status: cfstate.StructureStatus,
    reason: int,
    cfstatus: int,
) -> None:
    """ "BACKUP CFSTRUCT ... fails for CFLEVEL < 3 or RECOVER(NO)"; RECOVER TYPE(NORMAL)
    "fails unless the structure ... is FAILED"; RESET CFSTRUCT needs CFLEVEL(5):
    MQRCCF_CF_STRUC_ERROR (3236) with the structure's status (MQIACF_CF_STRUC_STATUS)."""
    checks = {
        "backup": lambda: cfstate.check_backup(definition, status),
        "recover": lambda: cfstate.check_recover(definition, status, purge=False),
        "reset": lambda: cfstate.check_reset(definition, status),
    }
    with pytest.raises(cfstate.StructureError) as caught:
        checks[check]()
    assert (caught.value.reason, caught.value.status) == (reason, cfstatus)
    assert definition.name in str(caught.value)


def _mqsc(qm: QMgr, text: str) -> commands.Reply:
    return commands.run(commands.parse(text), qm, lambda: take(qm, qm.time))


@keeps("docs/coupling-facility.md", "STATUS (ACTIVE, FAILED; BACKUP's NONE before any backup)")
def test_mqsc_reset_backup_recover_and_display_cfstatus_of_every_type(
    make_store: Callable[[], MessageStore],
) -> None:
    """The MQSC commands: BACKUP CFSTRUCT, RESET CFSTRUCT ACTION(FAIL), DISPLAY CFSTATUS
    TYPE(SUMMARY | CONNECT | BACKUP | SMDS) with IBM's statuses, RECOVER CFSTRUCT; a
    refused command says why in one line and leaves the structure as it was."""
    store = make_store()
    qm = _group(store)
    put(_open(qm), b"p", 0.0, **PERSISTENT)
    backup = _mqsc(qm, "DISPLAY CFSTATUS(APP1) TYPE(BACKUP)")
    assert "STATUS(NONE)" in backup.text
    qm.time = 30.0  # the queue manager's clock: "p" is EXCLINT(30), IBM's least, old
    assert not _mqsc(qm, "BACKUP CFSTRUCT(APP1) EXCLINT(30)").failed
    assert "BKUPMSGS(1)" in _mqsc(qm, "DISPLAY CFSTATUS(APP1) TYPE(BACKUP)").text
    refused = _mqsc(qm, "RECOVER CFSTRUCT(APP1)")
    assert refused.failed and "NOT_FAILED" in refused.text and "3236" in refused.text
    assert not _mqsc(qm, "RESET CFSTRUCT(APP1) ACTION(FAIL)").failed
    for kind in ("SUMMARY", "CONNECT", "BACKUP"):
        shown = _mqsc(qm, f"DISPLAY CFSTATUS(APP1) TYPE({kind})").text
        assert "STATUS(FAILED)" in shown, kind
    assert "SMDS(QM1)" in _mqsc(qm, "DISPLAY CFSTATUS(APP1) TYPE(SMDS)").text
    again = _mqsc(qm, "RESET CFSTRUCT(APP1) ACTION(FAIL)")
    assert again.failed and str(F.MQRCCF_CF_STRUC_ALREADY_FAILED) in again.text
    assert _mqsc(qm, "BACKUP CFSTRUCT(APP1)").failed
    recovered = _mqsc(qm, "RECOVER CFSTRUCT(APP1) TYPE(NORMAL)")
    assert "1 messages from the backup" in recovered.text and "s by the model" in recovered.text
    assert "STATUS(ACTIVE)" in _mqsc(qm, "DISPLAY CFSTATUS(APP1)").text
    assert drain(_open(qm), 2.0) == [b"p"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("RESET CFSTRUCT(APP1)", "REQUIRED PARAMETER 'ACTION' IS MISSING"),
        ("RESET CFSTRUCT(APP1) ACTION(BOOM)", "'ACTION(BOOM)' IS INVALID"),
        ("BACKUP CFSTRUCT(APP1) EXCLINT(x)", "'EXCLINT(X)' IS INVALID"),
        ("RECOVER CFSTRUCT(APP1) TYPE(FAST)", "'TYPE(FAST)' IS INVALID"),
        ("RECOVER CFSTRUCT", "REQUIRED PARAMETER 'CFSTRUCT' IS MISSING"),
        ("BACKUP CFSTRUCT(NOREC)", "is RECOVER(NO)"),
        ("RESET CFSTRUCT(OLD) ACTION(FAIL)", "needs CFLEVEL(5)"),
        ("RECOVER CFSTRUCT(NOSUCH)", "is not defined"),
    ],
)
def test_bad_structure_commands_are_refused_in_one_line_naming_the_problem(
    text: str, words: str
) -> None:
    """Issue 48's bad input: a wrong or missing keyword is the CSQ9 message z/OS gives;
    BACKUP of a RECOVER(NO) structure, RESET below CFLEVEL(5) and RECOVER of a structure
    that is not there are MQRCCF_CF_STRUC_ERROR (3236) in one CSQM090E line naming it,
    and the structure is left as it was."""
    qm = _group(MemoryStore())
    qm.define_structure(CFStructure("NOREC", cf_level=5, recover=False))
    qm.define_structure(CFStructure("OLD", cf_level=4, recover=True))
    reply = _mqsc(qm, text)
    assert reply.failed
    assert words in reply.text
    assert qm.qsg is not None
    assert qm.qsg.shared.store.structure_status("APP1").status == cfstate.ACTIVE


# ---- in a running world: applications waiting on the structure's queues -------------


def _world_topology() -> Topology:
    topology = Topology()
    topology.add_qsg("QSG1", members=["QM1", "QM2"])
    topology.mqsc(
        "QM1",
        """
        DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES)
        DEFINE QLOCAL(APP.WORK) QSGDISP(SHARED) CFSTRUCT(APP1)
        """,
        source="qm1.mqsc",
    )
    return topology


def _waiting(seconds: float) -> GMO:
    return GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_SYNCPOINT, WaitInterval=round(seconds * 1000))


@keeps("docs/coupling-facility.md", "an MQGET waiting on one of them gets 2373 at the failure.")
@pytest.mark.parametrize("how", ["fault", "RESET CFSTRUCT"])
async def test_a_get_waiting_on_a_queue_whose_structure_fails_gets_2373_at_the_failure(
    virtual_clock: VirtualClock, cf_mode: dict[str, object], how: str
) -> None:
    """ "Every MQI call on its queues fails with MQRC_CF_STRUC_FAILED (2373)": an MQGET
    with MQGMO_WAIT already waiting when the structure fails (a fault, or the MQSC
    RESET CFSTRUCT ACTION(FAIL)) is such a call, and learns it then, rather than waiting
    out its interval (or for the recovery)."""
    async with qsg.start(_world_topology(), **cf_mode) as world:  # type: ignore[arg-type]
        q = await (await world.connect("QM2")).open("APP.WORK", CMQC.MQOO_INPUT_AS_Q_DEF)
        failed_at: list[float] = []

        async def fail_later() -> None:
            await trio.sleep(1)
            if how == "fault":
                await world.structure_fail("APP1")
            else:
                reply = await admin.command(world, "QM1", "RESET CFSTRUCT(APP1) ACTION(FAIL)")
                assert not reply.failed, reply.text
            failed_at.append(trio.current_time())

        async with trio.open_nursery() as nursery:
            nursery.start_soon(fail_later)
            with pytest.raises(MQMIError) as caught:
                await q.get(None, MD(), _waiting(30))
        assert caught.value.reason == CMQC.MQRC_CF_STRUC_FAILED
        assert trio.current_time() == pytest.approx(failed_at[0])


async def test_a_get_on_a_queue_found_empty_before_its_structure_failed_gets_2373_at_once(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    """A queue a get found empty before the failure is no longer known empty after it:
    the next MQGET with MQGMO_WAIT during the failure is MQRC_CF_STRUC_FAILED at once,
    not MQRC_NO_MSG_AVAILABLE at its interval's end (nor a message after RECOVER)."""
    async with qsg.start(_world_topology(), **cf_mode) as world:  # type: ignore[arg-type]
        q = await (await world.connect("QM2")).open("APP.WORK", CMQC.MQOO_INPUT_AS_Q_DEF)
        with pytest.raises(MQMIError) as empty:
            await q.get(None, MD(), _waiting(0.5))
        assert empty.value.reason == CMQC.MQRC_NO_MSG_AVAILABLE
        await world.structure_fail("APP1")
        began = trio.current_time()
        with pytest.raises(MQMIError) as caught:
            await q.get(None, MD(), _waiting(2))
        assert caught.value.reason == CMQC.MQRC_CF_STRUC_FAILED
        assert trio.current_time() == pytest.approx(began)


@keeps(
    "docs/coupling-facility.md",
    "on the server each member's store learns it from the facility at the commit, "
    "whatever member failed the structure.",
)
def test_a_member_that_did_not_fail_the_structure_has_its_unit_of_work_backed_out_too(
    make_store: Callable[[], MessageStore],
) -> None:
    """A structure's failure takes every member's work on it, not only the work of the
    member whose RESET failed it: QM2's MQCMIT answers MQRC_BACKED_OUT, its get comes back
    and its put is gone. On the server each member has a store of its own (as each
    process does), and QM2's learns of the failure from the facility alone."""
    store = make_store()
    qm1 = _group(store)
    qm2 = _second_member(store, qm1)
    put(_open(qm1), b"committed", 0.0, **PERSISTENT)
    conn = qm2.connect()
    h = conn.open("Q.APP1", ALL)
    assert get(h, 1.0, CMQC.MQGMO_SYNCPOINT)[0] == b"committed"
    put(h, b"in flight", 1.0, CMQC.MQPMO_SYNCPOINT, **PERSISTENT)
    store.fail_structure("APP1", 2.0)
    assert _reason(conn.commit) == CMQC.MQRC_BACKED_OUT
    store.recover_structure("APP1", purge=False)
    assert drain(_open(qm1), 3.0) == [b"committed"]


@keeps(
    "docs/coupling-facility.md",
    "(MQBACK ends it too; the connection's next unit of work is a new one.)",
)
def test_after_mqback_of_a_unit_of_work_the_failure_took_the_next_one_commits(
    make_store: Callable[[], MessageStore],
) -> None:
    """MQBACK ends the unit of work the failure took work from (as MQCMIT's 2003 does):
    the connection's next unit of work is a new one, and commits."""
    store = make_store()
    qm = _group(store, True, "APP1", "APP2")
    conn = qm.connect()
    one, two = conn.open("Q.APP1", ALL), conn.open("Q.APP2", ALL)
    put(one, b"lost", 0.0, CMQC.MQPMO_SYNCPOINT, **PERSISTENT)
    store.fail_structure("APP1", 1.0)
    conn.backout()
    put(two, b"next unit", 2.0, CMQC.MQPMO_SYNCPOINT, **PERSISTENT)
    conn.commit()
    assert drain(two, 3.0) == [b"next unit"]


# ---- PCF: Reset, Backup and Recover CF Structure -------------------------------------

NATIVE = 0x222


def _pcf(
    qm: QMgr, command: int, now: float, *parameters: tuple[int, Value]
) -> tuple[int, dict[int, int]]:
    """(Reason, the integer parameters) of the one reply to a PCF request at ``now``."""
    data = encode(Header(F.MQCFT_COMMAND, command), list(parameters), NATIVE)
    (reply,) = process(data, NATIVE, qm, take(qm, now))
    header = struct.unpack_from("<9i", reply)
    integers: dict[int, int] = {}
    at = F.MQCFH_STRUC_LENGTH
    for _ in range(header[8]):
        kind, length, parameter, value = struct.unpack_from("<4i", reply, at)
        if kind == F.MQCFT_INTEGER:
            integers[parameter] = value
        at += length
    return header[7], integers


@keeps(
    "docs/coupling-facility.md",
    "PCF: Backup CF Structure (MQCMD_BACKUP_CF_STRUC, ExcludeInterval).",
)
@keeps("docs/coupling-facility.md", "PCF: Recover CF Structure (MQCMD_RECOVER_CF_STRUC, Purge).")
@keeps(
    "docs/coupling-facility.md",
    "PCF: Reset CF Structure (MQCMD_RESET_CF_STRUC, Action MQACT_FAIL).",
)
def test_pcf_reset_backup_and_recover_cf_struc_act_as_their_mqsc(
    make_store: Callable[[], MessageStore],
) -> None:
    """Reset CF Structure (MQCMD_RESET_CF_STRUC, Action MQACT_FAIL), Backup CF Structure
    (MQCMD_BACKUP_CF_STRUC, ExcludeInterval) and Recover CF Structure
    (MQCMD_RECOVER_CF_STRUC, Purge MQPO_NO): the persistent messages come back from the
    backup plus the log; a refusal is MQRCCF_CF_STRUC_ERROR (3236) or
    MQRCCF_CF_STRUC_ALREADY_FAILED (3351) with MQIACF_CF_STRUC_STATUS."""
    store = make_store()
    qm = _group(store)
    name = (CMQC.MQCA_CF_STRUC_NAME, "APP1")
    put(_open(qm), b"before", 0.0, **PERSISTENT)
    # ExcludeInterval 30, IBM's least: "before" is 30 s old at the backup.
    backup = _pcf(qm, F.MQCMD_BACKUP_CF_STRUC, 30.0, name, (F.MQIACF_EXCLUDE_INTERVAL, 30))
    assert backup == (0, {})
    assert store.structure_status("APP1").backup_messages == 1
    put(_open(qm), b"after", 31.0, **PERSISTENT)
    refused = _pcf(qm, F.MQCMD_RECOVER_CF_STRUC, 31.0, name)
    assert refused == (
        F.MQRCCF_CF_STRUC_ERROR,
        {F.MQIACF_CF_STRUC_STATUS: F.MQCFSTATUS_NOT_FAILED},
    )
    assert _pcf(qm, F.MQCMD_RESET_CF_STRUC, 32.0, name, (F.MQIACF_ACTION, F.MQACT_FAIL))[0] == 0
    assert store.structure_status("APP1").failed
    again = _pcf(qm, F.MQCMD_RESET_CF_STRUC, 32.0, name, (F.MQIACF_ACTION, F.MQACT_FAIL))
    assert again == (
        F.MQRCCF_CF_STRUC_ALREADY_FAILED,
        {F.MQIACF_CF_STRUC_STATUS: F.MQCFSTATUS_FAILED},
    )
    recovered = _pcf(qm, F.MQCMD_RECOVER_CF_STRUC, 33.0, name, (F.MQIACF_PURGE, F.MQPO_NO))
    assert recovered == (0, {})
    assert drain(_open(qm), 34.0) == [b"before", b"after"]


@pytest.mark.parametrize(
    ("command", "parameters", "reason"),
    [
        (F.MQCMD_RESET_CF_STRUC, [(F.MQIACF_ACTION, 99)], F.MQRCCF_ACTION_VALUE_ERROR),
        (F.MQCMD_RESET_CF_STRUC, [], F.MQRCCF_PARM_COUNT_TOO_SMALL),
        (F.MQCMD_RECOVER_CF_STRUC, [(F.MQIACF_PURGE, 7)], F.MQRCCF_PURGE_VALUE_ERROR),
        (F.MQCMD_BACKUP_CF_STRUC, [(F.MQIACF_EXCLUDE_INTERVAL, -1)], F.MQRCCF_PARM_VALUE_ERROR),
    ],
)
def test_a_pcf_structure_command_with_a_bad_value_is_refused_naming_it(
    command: int, parameters: list[tuple[int, Value]], reason: int
) -> None:
    """Bad input over PCF: the reason IBM gives for the value, the structure unchanged."""
    store = MemoryStore()
    qm = _group(store)
    got, _ = _pcf(qm, command, 1.0, (CMQC.MQCA_CF_STRUC_NAME, "APP1"), *parameters)
    assert got == reason
    assert store.structure_status("APP1").status == cfstate.ACTIVE


def _status_replies(qm: QMgr, status_type: int) -> list[dict[int, object]]:
    """Each reply of Inquire CF Structure Status of APP1, its parameters decoded."""
    data = encode(
        Header(F.MQCFT_COMMAND, F.MQCMD_INQUIRE_CF_STRUC_STATUS),
        [(CMQC.MQCA_CF_STRUC_NAME, "APP1"), (F.MQIACF_CF_STATUS_TYPE, status_type)],
        NATIVE,
    )
    return [parse(reply)[1] for reply in process(data, NATIVE, qm, take(qm, 50.0))]


def test_pcf_inquire_cf_struc_status_answers_connect_and_backup_with_ibms_fields(
    make_store: Callable[[], MessageStore],
) -> None:
    """Inquire CF Structure Status (Response), StatusType MQIACF_CF_STATUS_CONNECT: one
    reply per member (QMgrName, CFStrucStatus, FailDate, FailTime); _BACKUP: the
    structure's CFStrucStatus, BackupDate, BackupTime, BackupSize (MB) and LogQMgrNames
    (an MQCFSL: the members whose logs hold records since the backup), as DISPLAY
    CFSTATUS TYPE(CONNECT | BACKUP) shows them."""
    store = make_store()
    qm = _group(store)
    qm2 = _second_member(store, qm)
    put(_open(qm), b"p", 0.0, **PERSISTENT)
    store.backup_structure("APP1", 40.0, 30)
    put(_open(qm2), b"after", 41.0, **PERSISTENT)  # only QM2's log has records since
    store.fail_structure("APP1", 45.0)
    connect = _status_replies(qm, F.MQIACF_CF_STATUS_CONNECT)
    assert qm.qsg is not None
    assert [r[CMQC.MQCA_Q_MGR_NAME] for r in connect] == list(qm.qsg.members)
    for reply in connect:
        assert reply[F.MQIACF_CF_STRUC_STATUS] == F.MQCFSTATUS_FAILED
        assert reply[F.MQIACF_CF_STATUS_TYPE] == F.MQIACF_CF_STATUS_CONNECT
        assert reply[F.MQCACF_FAIL_TIME]
    (backup,) = _status_replies(qm, F.MQIACF_CF_STATUS_BACKUP)
    assert backup[F.MQIACF_CF_STRUC_STATUS] == F.MQCFSTATUS_FAILED
    assert backup[F.MQIACF_CF_STRUC_BACKUP_SIZE] == 1
    assert backup[F.MQCACF_BACKUP_DATE] and backup[F.MQCACF_BACKUP_TIME]
    assert backup[F.MQCACF_CF_STRUC_LOG_Q_MGRS] == ["QM2"]


@keeps(
    "docs/coupling-facility.md",
    "(later, if the facility's server is down then: as soon as it is back)",
)
async def test_recauto_waits_out_a_coupling_facility_outage_and_then_recovers(
    virtual_clock: VirtualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RECAUTO(YES): the members recover a failed structure themselves. If the facility's
    server is down when the recovery is due, it is done once the server is back (the run
    goes on meanwhile), not lost, nor the end of the run."""
    monkeypatch.delenv("QSG_REDIS_URL", raising=False)  # a server the world can kill
    topology = _world_topology()
    topology.mqsc("QM1", "ALTER CFSTRUCT(APP1) RECAUTO(YES)", source="recauto.mqsc")
    async with qsg.start(topology, faults=True, cf_persistent=True) as world:
        store = world.qsgs["QSG1"].shared.store
        await world.structure_fail("APP1")
        await world.cf_fail()
        await trio.sleep(30)  # well past the recovery's modelled time
        await world.cf_restart()
        await trio.sleep(30)
        assert not store.structure_status("APP1").failed


@keeps(
    "docs/coupling-facility.md",
    "2 s to start, 0.5 s for each member's log opened, 0.1 ms per backed-up message "
    "restored and 0.5 ms per log record applied",
)
def test_a_recoverys_modelled_time_is_its_start_logs_messages_and_records() -> None:
    assert cfstate.recovery_seconds(0, 0, 0) == pytest.approx(2.0)
    assert cfstate.recovery_seconds(0, 0, 3) == pytest.approx(3.5)
    assert cfstate.recovery_seconds(10_000, 0, 0) == pytest.approx(3.0)
    assert cfstate.recovery_seconds(0, 2_000, 0) == pytest.approx(3.0)


@keeps(
    "docs/coupling-facility.md",
    "How long a recovery takes is a model cost, reported in RECOVER's reply (`... s by the model`)",
)
def test_recovers_reply_reports_the_modelled_time(make_store: Callable[[], MessageStore]) -> None:
    store = make_store()
    qm = _group(store)
    put(_open(qm), b"p", 0.0, **PERSISTENT)
    assert not _mqsc(qm, "RESET CFSTRUCT(APP1) ACTION(FAIL)").failed
    reply = _mqsc(qm, "RECOVER CFSTRUCT(APP1)")
    assert not reply.failed
    assert re.search(r"\b\d+(\.\d+)? s by the model", reply.text), reply.text


@keeps(
    "docs/coupling-facility.md",
    "A RECOVER CFSTRUCT from MQSC or PCF is a `cf-recovery` event naming the member that "
    "issued it, as a fault's or RECAUTO's recovery is.",
)
@pytest.mark.parametrize(("kind", "kept"), [("NORMAL", True), ("PURGE", False)])
async def test_mqsc_recover_cfstruct_is_a_cf_recovery_event_naming_its_queues_and_issuer(
    virtual_clock: VirtualClock, cf_mode: dict[str, object], kind: str, kept: bool
) -> None:
    """RECOVER CFSTRUCT from MQSC (IBM's console says it with CSQE messages, "Recovering
    shared queues") is a ``cf-recovery`` event, as a fault's or RECAUTO's recovery is:
    the member that issued it, the structure's queues, and whether its persistent
    messages were kept (TYPE(NORMAL)) or not (TYPE(PURGE))."""
    topology = _world_topology()
    topology.mqsc("QM1", "ALTER CFSTRUCT(APP1) RECAUTO(NO)", source="recauto.mqsc")
    async with qsg.start(topology, **cf_mode) as world:  # type: ignore[arg-type]
        failed = await admin.command(world, "QM1", "RESET CFSTRUCT(APP1) ACTION(FAIL)")
        assert not failed.failed, failed.text
        reply = await admin.command(world, "QM2", f"RECOVER CFSTRUCT(APP1) TYPE({kind})")
        assert not reply.failed, reply.text
        recovered = world.events.of(CFRecovered)
        assert [(e.q_mgr, e.structure, e.queues, e.recovered) for e in recovered] == [
            ("QM2", "APP1", "APP.WORK", kept)
        ]


@pytest.fixture(params=["in-process", "server"])
def two_facilities(request: pytest.FixtureRequest) -> Iterator[tuple[MessageStore, MessageStore]]:
    """The same group's store in two facilities: two in-process stores, or the group's
    namespace on two servers (as each facility's own server holds it)."""
    if request.param == "in-process":
        yield MemoryStore(), MemoryStore()
        return
    second: EmbeddedServer = request.getfixturevalue("tcp_server")
    transports = [
        BlockingTransport(request.getfixturevalue("cf_url")),
        BlockingTransport(second.url),
    ]
    yield RedisStore(transports[0], "TWOCF"), RedisStore(transports[1], "TWOCF")
    for transport in transports:
        delete_group(transport, "TWOCF")
        transport.close()


def test_an_import_over_a_unit_of_works_entries_backs_it_out_without_touching_the_image(
    two_facilities: tuple[MessageStore, MessageStore],
) -> None:
    """A rebuild replaces a store's instance of a structure with another's image (a
    duplexed structure's second instance, rebuilt into after a connectivity loss): a unit
    of work with work on the instance replaced lost it, as in a failure of the
    structure. MQCMIT answers MQRC_BACKED_OUT; the backout leaves the image alone. (The
    chaos-facilities campaign, seed 48, run 135: the backout raised KeyError.)"""

    def _message(body: bytes) -> Message:
        return Message(MD(Persistence=CMQC.MQPER_PERSISTENT).get(), body, 0.0, None, 0)

    source, target = two_facilities
    for store in (source, target):
        store.define_structure("S1", size_kb=1024, cf_level=5)
        store.create_queue("Q", Ordering.FIFO, "S1")
        store.put("Q", _message(b"committed"), None, 100)
    uow = ("QM2", 1)
    taken = target.get("Q", Select(), 0.0, uow, Syncpoint.YES, None, False)
    assert taken.message is not None
    source.fail_structure("S1", 1.0)
    target.import_structure("S1", source.export_structure("S1"))
    target.recover_structure("S1", purge=False)
    refusal = target.prepare(uow)
    assert refusal is not None and "CF structure S1 failed" in str(refusal)
    target.backout(uow)
    assert (target.depth("Q"), target.uncommitted("Q"), target.audit()) == (1, 0, [])


# ---- the members' logs (qsg.core.cflog) -------------------------------------------


def _log_held(store: MessageStore, name: str = "APP1") -> int:
    """The records the members' logs of ``name`` hold now (netted): what they take in
    memory, read from each store's own keeping of them."""
    if isinstance(store, RedisStore):
        log = keys.log_key(store.qsg, name)
        return int(store.transport.command("HLEN", log + "p")) + int(
            store.transport.command("HLEN", log + "g")
        )
    assert isinstance(store, MemoryStore)
    log = store._logs[name]  # the in-process store's keeping
    return len(log.puts) + len(log.gets)


@keeps(
    "docs/coupling-facility.md",
    "Each member logs its persistent puts and gets on the structure's queues as they are "
    "committed: outside syncpoint at the call, in syncpoint at MQCMIT; a backout writes "
    "nothing.",
)
@keeps(
    "docs/coupling-facility.md",
    "LOGQMGRS (the members whose logs hold records since the backup), and qsg's own "
    "BKUPMSGS and LOGRECS (the log records written since the backup)",
)
def test_each_member_logs_its_committed_persistent_puts_and_gets_as_they_are_made(
    make_store: Callable[[], MessageStore],
) -> None:
    """Recovering shared queues: "each queue manager logs its MQPUT and MQGET of
    persistent messages on shared queues". The log is written when the work is committed,
    not derived at the failure, so LOGRECS counts while the structure is active and a
    backed-out unit of work writes nothing. Fails before issue 48's log: no record
    while active."""
    store = make_store()
    qm1 = _group(store)
    qm2 = _second_member(store, qm1)
    one, c2 = _open(qm1), qm2.connect()
    two = c2.open("Q.APP1", ALL)
    put(one, b"np", 0.0, **NONPERSISTENT)  # no record: nonpersistent
    put(one, b"a", 0.0, **PERSISTENT)
    assert store.structure_status("APP1").log_records == 1
    put(two, b"b", 1.0, CMQC.MQPMO_SYNCPOINT, **PERSISTENT)
    assert store.structure_status("APP1").log_records == 1  # in syncpoint: not yet
    c2.backout()
    assert store.structure_status("APP1").log_records == 1  # backed out: nothing
    put(two, b"c", 2.0, CMQC.MQPMO_SYNCPOINT, **PERSISTENT)
    c2.commit()
    status = store.structure_status("APP1")
    assert (status.log_records, status.log_members) == (2, ("QM1", "QM2"))
    # A get in syncpoint backed out writes nothing; committed, it nets the put record.
    assert get(two, 3.0, CMQC.MQGMO_SYNCPOINT)[0] == b"np"
    assert get(two, 3.0, CMQC.MQGMO_SYNCPOINT)[0] == b"a"
    c2.backout()
    assert store.structure_status("APP1").log_records == 2
    assert get(two, 4.0, CMQC.MQGMO_SYNCPOINT)[0] == b"np"
    assert get(two, 4.0, CMQC.MQGMO_SYNCPOINT)[0] == b"a"
    c2.commit()
    assert store.structure_status("APP1").log_records == 3  # the nonpersistent get: none
    assert _log_held(store) == 1  # c's put record; a's put and get netted away
    assert store.audit() == []


@keeps(
    "docs/coupling-facility.md",
    "so the structure's failure leaves them whole",
)
@keeps(
    "docs/coupling-facility.md",
    "BACKUP CFSTRUCT truncates every member's log to the records after the backup's point: "
    "the puts of messages younger than EXCLINT stay in the log, not the backup.",
)
def test_the_log_survives_the_failure_and_recover_reads_backup_plus_every_members_log(
    make_store: Callable[[], MessageStore],
) -> None:
    """Messages put before and after the backup, got before and after it: BACKUP
    truncates the logs (EXCLINT's young messages stay in them); the failure leaves the
    logs as they were (LOGRECS and LOGQMGRS the same before and after); RECOVER rebuilds
    the backup less the gets plus the puts, from both members' logs, with neither
    member running. Fails before issue 48's log: LOGRECS was 0 until the failure."""
    store = make_store()
    qm1 = _group(store)
    qm2 = _second_member(store, qm1)
    one, two = _open(qm1), qm2.connect().open("Q.APP1", ALL)
    put(one, b"old got before", 0.0, **PERSISTENT)
    put(one, b"old got after", 0.0, **PERSISTENT)
    put(one, b"old kept", 0.0, **PERSISTENT)
    put(two, b"young", 95.0, **PERSISTENT)
    assert get(one, 96.0)[0] == b"old got before"  # before the backup: netted
    backup = store.backup_structure("APP1", 100.0, 30)
    assert backup.backup_messages == 2
    assert (backup.log_records, backup.log_members) == (1, ("QM2",))  # the young put
    assert get(two, 101.0)[0] == b"old got after"  # a get of a backed-up message: recorded
    put(one, b"after", 102.0, **PERSISTENT)
    put(two, b"after too", 102.0, **PERSISTENT)
    before = store.structure_status("APP1")
    assert (before.log_records, before.log_members) == (4, ("QM1", "QM2"))
    store.fail_structure("APP1", 103.0)
    failed = store.structure_status("APP1")
    assert (failed.log_records, failed.log_members) == (4, ("QM1", "QM2"))
    assert store.recover_structure("APP1", purge=False) == (1, 3, 4)
    assert drain(_open(qm1), 104.0) == [b"old kept", b"young", b"after", b"after too"]
    assert store.audit() == []


@keeps(
    "docs/coupling-facility.md",
    "The log is kept netted, so that it takes no more memory than the structure and its "
    "backup hold, however long the run",
)
def test_a_long_stream_of_puts_and_gets_leaves_the_log_as_small_as_the_structure(
    make_store: Callable[[], MessageStore],
) -> None:
    """The planner's hour puts and gets millions of persistent messages: the netted log
    holds a record per message still in the structure (or a backed-up one got), not
    one per call. Fails before issue 48's log: there was no log to hold."""
    store = make_store()
    qm = _group(store)
    h = _open(qm)
    put(h, b"backed up", 0.0, **PERSISTENT)
    store.backup_structure("APP1", 1.0, 0)
    for n in range(400):
        put(h, b"m%d" % n, 2.0, **PERSISTENT)
        get(h, 2.0)  # the oldest first: "backed up", then each m in turn
    assert store.depth("Q.APP1") == 1  # m399
    assert _log_held(store) == 2  # m399's put and "backed up"'s get
    assert store.structure_status("APP1").log_records == 800
    store.fail_structure("APP1", 3.0)
    assert store.recover_structure("APP1", purge=False) == (0, 1, 800)
    assert drain(_open(qm), 4.0) == [b"m399"]


@keeps("docs/coupling-facility.md", "A message that expires leaves the log without a record.")
def test_an_expired_message_leaves_the_log_without_a_record(
    make_store: Callable[[], MessageStore],
) -> None:
    """A persistent message discarded at its expiry ("Expiry (MQLONG)") needs no log
    record to stay gone: its put record goes, and the log stays netted."""
    store = make_store()
    qm = _group(store)
    h = _open(qm)
    put(h, b"short-lived", 0.0, Expiry=10, **PERSISTENT)  # 1 s, in tenths
    put(h, b"kept", 0.0, **PERSISTENT)
    assert _log_held(store) == 2
    assert get(h, 5.0)[0] == b"kept"  # the expired head discarded on the way
    assert _log_held(store) == 0
    store.fail_structure("APP1", 6.0)
    store.recover_structure("APP1", purge=False)
    assert drain(_open(qm), 7.0) == []


def test_recover_normal_keeps_backup_and_logs_for_a_second_failure_and_purge_forgets_them(
    make_store: Callable[[], MessageStore],
) -> None:
    """After RECOVER CFSTRUCT TYPE(NORMAL) the backup and the logs still describe the
    structure: a second failure before the next BACKUP rebuilds the same messages (a
    backed-up message got stays got). TYPE(PURGE) empties it and forgets both."""
    store = make_store()
    qm = _group(store)
    h = _open(qm)
    put(h, b"got", 0.0, **PERSISTENT)
    put(h, b"kept", 0.0, **PERSISTENT)
    store.backup_structure("APP1", 1.0, 0)
    assert get(h, 2.0)[0] == b"got"
    put(h, b"later", 3.0, **PERSISTENT)
    store.fail_structure("APP1", 4.0)
    store.recover_structure("APP1", purge=False)
    store.fail_structure("APP1", 5.0)
    assert store.recover_structure("APP1", purge=False) == (1, 1, 2)
    assert drain(_open(qm), 6.0) == [b"kept", b"later"]
    store.fail_structure("APP1", 7.0)
    store.recover_structure("APP1", purge=True)
    status = store.structure_status("APP1")
    assert (status.backup_at, status.log_records, status.log_members) == (None, 0, ())
    # ... and the purged structure's queues log into its new, empty log: the next
    # persistent put is its first record.
    put(h, b"after purge", 8.0, **PERSISTENT)
    status = store.structure_status("APP1")
    assert (status.log_records, status.log_members) == (1, ("QM1",))


def test_a_deleted_queues_messages_leave_the_log_and_recovery_skips_the_queue(
    make_store: Callable[[], MessageStore],
) -> None:
    """A shared queue deleted with its messages: their put records go with it (the log
    stays as small as the structure), and a recovery has nothing to put back there.
    (Fails without the deletion's netting: the record stays, and in process the
    recovery's restore meets no queue.)"""
    store = make_store()
    qm = _group(store)
    put(_open(qm), b"gone with its queue", 0.0, **PERSISTENT)
    store.delete_queue("Q.APP1")
    assert _log_held(store) == 0
    store.fail_structure("APP1", 1.0)
    assert store.recover_structure("APP1", purge=False) == (0, 0, 1)
    assert store.audit() == []


@keeps("docs/coupling-facility.md", "EXCLINT is 30 to 600 seconds")
@pytest.mark.parametrize("exclint", [0, 29, 601])
def test_exclint_outside_30_to_600_is_refused_in_mqsc_and_pcf(exclint: int) -> None:
    """IBM's "Backup CF Structure on z/OS": ExcludeInterval "must be in the range 30
    through 600. The default value is 30." MQSC's EXCLINT is the same value: out of it,
    CSQ9001E (MQSC) or MQRCCF_PARM_VALUE_ERROR naming MQIACF_EXCLUDE_INTERVAL (PCF),
    and no backup is taken."""
    qm = _group(MemoryStore())
    reply = _mqsc(qm, f"BACKUP CFSTRUCT(APP1) EXCLINT({exclint})")
    assert reply.failed and f"CSQ9001E !QM1 'EXCLINT({exclint})' IS INVALID" in reply.text
    name = (CMQC.MQCA_CF_STRUC_NAME, "APP1")
    refused = _pcf(qm, F.MQCMD_BACKUP_CF_STRUC, 40.0, name, (F.MQIACF_EXCLUDE_INTERVAL, exclint))
    assert refused[0] == F.MQRCCF_PARM_VALUE_ERROR
    assert qm.qsg is not None
    assert qm.qsg.shared.store.structure_status("APP1").backup_at is None
    for bound in (30, 600):
        assert _pcf(
            qm, F.MQCMD_BACKUP_CF_STRUC, 700.0, name, (F.MQIACF_EXCLUDE_INTERVAL, bound)
        ) == (
            0,
            {},
        )
        assert not _mqsc(qm, f"BACKUP CFSTRUCT(APP1) EXCLINT({bound})").failed
