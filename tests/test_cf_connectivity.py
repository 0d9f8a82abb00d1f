"""A member loses connectivity to a CF structure: CFCONLOS TERMINATE or TOLERATE (issue 48).

IBM MQ for z/OS ("DEFINE CFSTRUCT", "ALTER QMGR", MQRC_CF_NOT_AVAILABLE; IBM's
developer article "How should you set CFCONLOS and RECAUTO?"): with TERMINATE the member
that lost connectivity ends and its peers recover its units of work; with TOLERATE it
keeps running, its private queues work, and every call on the lost structure's queues
gets MQRC_CF_NOT_AVAILABLE (2345) until it reconnects. ASQMGR takes the queue
manager's CFCONLOS. The rules are ``qsg.core.conlos``'s; every world test runs on the
in-process store and on the coupling facility's server.
"""

from __future__ import annotations

import pytest
import trio

import qsg
from actors import admin
from actors.clock import VirtualClock
from actors.config import Fault
from actors.faults import inject
from actors.topology import Topology
from qsg import CMQC, GMO, MD, PMO, MQMIError, QMgr
from qsg import CMQCFC as F
from qsg.core import conlos
from qsg.core.memstore import MemoryStore
from qsg.core.objects import CFStructure
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc import commands
from qsg.mqsc.connections import date_and_time
from qsg.mqsc.pcf import Header, encode
from qsg.mqsc.pcf_commands import process
from qsg.mqsc.status import take
from tests.claims import keeps
from tests.test_pcf_command_server import NATIVE, parse

NO_SYNC = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
GET_NO_SYNC = GMO(Options=CMQC.MQGMO_NO_SYNCPOINT)


def _topology(structure_conlos: str, q_mgr_conlos: str = "TERMINATE") -> Topology:
    topology = Topology()
    topology.add_qsg("QSG1", members=["QM1", "QM2"])
    for member in ("QM1", "QM2"):
        topology.mqsc(member, f"ALTER QMGR CFCONLOS({q_mgr_conlos})", source=f"{member}.mqsc")
    topology.mqsc(
        "QM1",
        f"""
        DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES) CFCONLOS({structure_conlos})
        DEFINE CFSTRUCT(APP2) CFLEVEL(5) RECOVER(YES) CFCONLOS(TOLERATE)
        DEFINE QLOCAL(APP.ONE) QSGDISP(SHARED) CFSTRUCT(APP1)
        DEFINE QLOCAL(APP.TWO) QSGDISP(SHARED) CFSTRUCT(APP2)
        DEFINE QLOCAL(MINE)
        """,
        source="qm1.structures.mqsc",
    )
    return topology


@keeps(
    "docs/coupling-facility.md",
    "ASQMGR (a structure's default) takes the queue manager's CFCONLOS (TERMINATE by "
    "default). Below CFLEVEL(5) a structure has no CFCONLOS behaviour: losing it ends the "
    "member.",
)
def test_cfconlos_asqmgr_takes_the_queue_managers_and_below_cflevel_5_the_member_ends() -> None:
    """ "ASQMGR = use the queue manager's CFCONLOS"; CFCONLOS is a CFLEVEL(5) attribute,
    so a structure below it ends the member whatever it says."""
    tolerate, terminate = CMQC.MQCFCONLOS_TOLERATE, CMQC.MQCFCONLOS_TERMINATE
    asqmgr = CFStructure("A", cf_level=5)
    assert conlos.action(asqmgr, tolerate) == tolerate
    assert conlos.action(asqmgr, terminate) == terminate
    own = CFStructure("B", cf_level=5, cf_conlos=tolerate)
    assert conlos.action(own, terminate) == tolerate
    old = CFStructure("C", cf_level=4, cf_conlos=tolerate)
    assert conlos.action(old, tolerate) == terminate
    # The administration structure (a whole facility's loss) follows the QMGR's.
    assert conlos.terminates([own], terminate, admin_structure=True)
    assert not conlos.terminates([own], tolerate, admin_structure=True)


@keeps(
    "docs/coupling-facility.md",
    "TOLERATE keeps the member running: its private queues and the structures it still "
    "reaches work, and every call on the lost structure's queues gets "
    "MQRC_CF_NOT_AVAILABLE (2345) until the link is back.",
)
async def test_tolerate_keeps_the_member_running_with_2345_on_the_lost_structure_only(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    """TOLERATE: the member "keeps running when it loses connectivity to the structure";
    a call on its queues gets MQRC_CF_NOT_AVAILABLE (2345), its private queues and the
    structures it still reaches work, other members are untouched, and once the link is
    back the member reconnects and its calls work again."""
    async with qsg.start(_topology("TOLERATE"), faults=True, **cf_mode) as world:  # type: ignore[arg-type]
        conn = await world.connect("QM1")
        one = await conn.open("APP.ONE", CMQC.MQOO_OUTPUT)
        two = await conn.open("APP.TWO", CMQC.MQOO_OUTPUT)
        mine = await conn.open("MINE", CMQC.MQOO_OUTPUT)
        await one.put(b"before", MD(), NO_SYNC)
        said = await world.cf_connectivity_loss("QM1", "APP1")
        assert "TOLERATE" in said
        assert world.qmgrs["QM1"].alive
        with pytest.raises(MQMIError) as caught:
            await one.put(b"lost", MD(), NO_SYNC)
        assert caught.value.reason == CMQC.MQRC_CF_NOT_AVAILABLE
        assert "APP1" in str(caught.value)
        await two.put(b"other structure", MD(), NO_SYNC)
        await mine.put(b"private", MD(), NO_SYNC)
        other = await (await world.connect("QM2")).open("APP.ONE", CMQC.MQOO_INPUT_AS_Q_DEF)
        assert await other.get(None, MD(), GET_NO_SYNC) == b"before"
        assert not await world.cf_connectivity_restored("QM1", "APP1")
        await one.put(b"back", MD(), NO_SYNC)
        assert await other.get(None, MD(), GET_NO_SYNC) == b"back"


@keeps(
    "docs/coupling-facility.md",
    "TERMINATE ends the member; a peer backs out its units of work in flight, and its "
    "applications get MQRC_CONNECTION_BROKEN. When the link is back the member is started "
    "again.",
)
async def test_terminate_ends_the_member_and_a_peer_backs_out_its_unit_of_work(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    """TERMINATE: the member that lost connectivity ends ("the members that lost
    connectivity end, so clients and channels move to members that still have it"), and
    peer recovery backs out its unit of work in flight; the link's return restarts it."""
    async with qsg.start(_topology("TERMINATE"), faults=True, **cf_mode) as world:  # type: ignore[arg-type]
        conn = await world.connect("QM1")
        one = await conn.open("APP.ONE", CMQC.MQOO_OUTPUT)
        await one.put(b"committed", MD(), NO_SYNC)
        await one.put(b"in flight", MD(), PMO(Options=CMQC.MQPMO_SYNCPOINT))
        event = await inject(
            world,
            "cf_connectivity_loss",
            Fault(1.0, "cf_connectivity_loss", "QM1", structure="APP1"),
        )
        assert "ended (CFCONLOS TERMINATE)" in event.detail, event
        assert not world.qmgrs["QM1"].alive
        assert world.qmgrs["QM2"].alive
        with pytest.raises(MQMIError) as broken:
            await one.put(b"after", MD(), NO_SYNC)
        assert broken.value.reason == CMQC.MQRC_CONNECTION_BROKEN
        other = await (await world.connect("QM2")).open("APP.ONE", CMQC.MQOO_INPUT_AS_Q_DEF)
        assert await other.get(None, MD(), GET_NO_SYNC) == b"committed"
        with pytest.raises(MQMIError) as caught:
            await other.get(None, MD(), GET_NO_SYNC)
        assert caught.value.reason == CMQC.MQRC_NO_MSG_AVAILABLE
        back = await inject(
            world,
            "cf_connectivity_restored",
            Fault(2.0, "cf_connectivity_restored", "QM1", structure="APP1"),
        )
        assert back.detail == "QM1 restarted"
        assert world.qmgrs["QM1"].alive


async def test_asqmgr_follows_the_queue_managers_cfconlos(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    """CFCONLOS(ASQMGR) on the structure: the queue manager's own CFCONLOS decides
    (ALTER QMGR CFCONLOS(TOLERATE) keeps it running)."""
    topology = _topology("ASQMGR", q_mgr_conlos="TOLERATE")
    async with qsg.start(topology, faults=True, **cf_mode) as world:  # type: ignore[arg-type]
        assert "TOLERATE" in await world.cf_connectivity_loss("QM1", "APP1")
        assert world.qmgrs["QM1"].alive
    async with qsg.start(_topology("ASQMGR"), faults=True, **cf_mode) as world:  # type: ignore[arg-type]
        assert "TERMINATE" in await world.cf_connectivity_loss("QM1", "APP1")
        assert not world.qmgrs["QM1"].alive


@keeps(
    "docs/coupling-facility.md",
    "Losing the group's first facility loses the administration structure too, which the "
    "queue manager's CFCONLOS alone governs: with ALTER QMGR CFCONLOS(TERMINATE) the member "
    "ends even if every application structure tolerates the loss.",
)
async def test_losing_the_whole_facility_follows_the_qmgrs_cfconlos_for_the_admin_structure(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    """The queue manager's CFCONLOS "also governs loss of the admin structure": a member
    that loses its group's facility (no structure named) ends under QMGR
    CFCONLOS(TERMINATE) even though every application structure tolerates it."""
    topology = _topology("TOLERATE")
    async with qsg.start(topology, faults=True, **cf_mode) as world:  # type: ignore[arg-type]
        assert "TERMINATE" in await world.cf_connectivity_loss("QM1")
        assert not world.qmgrs["QM1"].alive
    async with qsg.start(_topology("TOLERATE", "TOLERATE"), faults=True, **cf_mode) as world:  # type: ignore[arg-type]
        assert "TOLERATE" in await world.cf_connectivity_loss("QM1")
        conn = await world.connect("QM1")
        for queue in ("APP.ONE", "APP.TWO"):
            handle = await conn.open(queue, CMQC.MQOO_OUTPUT)
            with pytest.raises(MQMIError) as caught:
                await handle.put(b"x", MD(), NO_SYNC)
            assert caught.value.reason == CMQC.MQRC_CF_NOT_AVAILABLE
        await (await conn.open("MINE", CMQC.MQOO_OUTPUT)).put(b"private", MD(), NO_SYNC)


def test_mqsc_defines_and_displays_cfconlos_on_the_structure_and_the_queue_manager() -> None:
    """DEFINE CFSTRUCT ... CFCONLOS(TOLERATE) and ALTER QMGR CFCONLOS(TOLERATE), as IBM's
    "DEFINE CFSTRUCT" and "ALTER QMGR" spell them; DISPLAY shows each."""
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1", store=MemoryStore()))

    def run(text: str) -> commands.Reply:
        return commands.run(commands.parse(text), qm, lambda: take(qm, qm.time))

    assert not run("DEFINE CFSTRUCT(APP1) CFLEVEL(5) CFCONLOS(TOLERATE)").failed
    assert "CFCONLOS(TOLERATE)" in run("DISPLAY CFSTRUCT(APP1) ALL").text
    assert qm.qsg is not None
    assert qm.qsg.shared.structures["APP1"].cf_conlos == CMQC.MQCFCONLOS_TOLERATE
    assert "CFCONLOS(TERMINATE)" in run("DISPLAY QMGR CFCONLOS").text
    assert not run("ALTER QMGR CFCONLOS(TOLERATE)").failed
    assert qm.cf_conlos == CMQC.MQCFCONLOS_TOLERATE
    assert run("ALTER QMGR CFCONLOS(ASQMGR)").failed  # only a structure's may be ASQMGR


@keeps(
    "docs/coupling-facility.md",
    "The application's next call on the structure's queues gets 2345, its calls on other "
    "queues still work, and its MQCMIT answers MQRC_BACKED_OUT (2003) with the whole unit "
    "of work backed out, its private queues' part too.",
)
@keeps(
    "docs/coupling-facility.md",
    "A unit of work that already had work on the lost structure loses that work at once",
)
async def test_tolerate_backs_out_a_unit_of_work_already_holding_work_on_the_lost_structure(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    """IBM, "Shared queue recovery": a lost CF link "is also detected as an abnormal
    termination of the connection between the queue manager and the coupling facility
    structures involved", and the peers still connected recover that connection's units
    of work. A member that tolerates the loss keeps running, but the part of a unit of
    work it already had on the lost structure is backed out there at once (the get
    comes back for a peer, the uncommitted put is gone); the application's next call on
    the structure gets MQRC_CF_NOT_AVAILABLE (2345), a call on a private queue works (on
    z/OS no MQPUT or MQGET gets MQRC_BACKED_OUT), and MQCMIT answers MQRC_BACKED_OUT
    (2003) with the whole unit backed out, its private work too. Its handles' browse
    locks there are released, and another member's unit of work is untouched."""
    sync, get_sync = PMO(Options=CMQC.MQPMO_SYNCPOINT), GMO(Options=CMQC.MQGMO_SYNCPOINT)
    async with qsg.start(_topology("TOLERATE"), faults=True, **cf_mode) as world:  # type: ignore[arg-type]
        conn = await world.connect("QM1")
        both = CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED
        one = await conn.open("APP.ONE", both | CMQC.MQOO_BROWSE)
        mine = await conn.open("MINE", both)
        await one.put(b"taken", MD(), NO_SYNC)
        assert await one.get(None, MD(), get_sync) == b"taken"
        await one.put(b"locked", MD(), NO_SYNC)
        lock = GMO(Options=CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_LOCK)
        assert await one.get(None, MD(), lock) == b"locked"
        await one.put(b"in flight", MD(), sync)
        await mine.put(b"private", MD(), sync)
        theirs = await world.connect("QM2")
        peer = await theirs.open("APP.ONE", CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_OUTPUT)
        await peer.put(b"peer's", MD(), sync)
        said = await world.cf_connectivity_loss("QM1", "APP1")
        assert "TOLERATE" in said and "1 unit of work backed out" in said, said
        await theirs.commit()  # another member's unit of work on the structure goes on
        md = MD()
        assert await peer.get(None, md, GET_NO_SYNC) == b"taken"  # backed out at the loss
        assert md.BackoutCount == 1
        assert await peer.get(None, MD(), GET_NO_SYNC) == b"locked"  # its lock released
        assert await peer.get(None, MD(), GET_NO_SYNC) == b"peer's"
        with pytest.raises(MQMIError) as empty:
            await peer.get(None, MD(), GET_NO_SYNC)
        assert empty.value.reason == CMQC.MQRC_NO_MSG_AVAILABLE  # the put never was
        with pytest.raises(MQMIError) as next_call:
            await one.put(b"next", MD(), sync)
        assert next_call.value.reason == CMQC.MQRC_CF_NOT_AVAILABLE
        await mine.put(b"private too", MD(), sync)
        with pytest.raises(MQMIError) as commit:
            await conn.commit()
        assert commit.value.reason == CMQC.MQRC_BACKED_OUT
        assert "APP1" in str(commit.value)
        with pytest.raises(MQMIError) as gone:
            await mine.get(None, MD(), GET_NO_SYNC)
        assert gone.value.reason == CMQC.MQRC_NO_MSG_AVAILABLE
        # The connection's next unit of work is a new one: it commits.
        await mine.put(b"after", MD(), sync)
        await conn.commit()
        assert await mine.get(None, MD(), GET_NO_SYNC) == b"after"


@keeps(
    "docs/coupling-facility.md",
    "An MQDISC in its place ends the connection all the same, with MQRC_BACKED_OUT as a "
    "warning (MQCC_WARNING).",
)
async def test_mqdisc_of_a_unit_of_work_the_lost_link_backed_out_ends_the_connection_with_2003(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    """MQDISC commits a unit of work; when the commit fails and the unit is backed out,
    MQDISC answers MQRC_BACKED_OUT (2003) "with MQCC_WARNING" (IBM, "2003
    (07D3) (RC2003): MQRC_BACKED_OUT", and MQDISC's reason codes): the connection ends
    all the same, and a later call on it is MQRC_HCONN_ERROR (2018)."""
    async with qsg.start(_topology("TOLERATE"), faults=True, **cf_mode) as world:  # type: ignore[arg-type]
        conn = await world.connect("QM1")
        one = await conn.open("APP.ONE", CMQC.MQOO_OUTPUT)
        await one.put(b"in flight", MD(), PMO(Options=CMQC.MQPMO_SYNCPOINT))
        await world.cf_connectivity_loss("QM1", "APP1")
        with pytest.raises(MQMIError) as disc:
            await conn.disconnect()
        assert (disc.value.comp, disc.value.reason) == (CMQC.MQCC_WARNING, CMQC.MQRC_BACKED_OUT)
        with pytest.raises(MQMIError) as after:
            await conn.open("MINE", CMQC.MQOO_OUTPUT)
        assert after.value.reason == CMQC.MQRC_HCONN_ERROR


@keeps(
    "docs/coupling-facility.md",
    "CONNECT a line per member, FAILED for a member that lost connectivity to the "
    "structure, with the date and time it lost it",
)
async def test_display_cfstatus_connect_shows_a_member_that_lost_its_link_failed(
    virtual_clock: VirtualClock,
) -> None:
    """IBM's "DISPLAY CFSTATUS": TYPE(CONNECT) is "connection status information for each
    queue manager", its STATUS FAILED when "the queue manager connection to this
    structure has failed", with FAILDATE and FAILTIME of that loss; TYPE(SUMMARY) is the
    structure's own status, ACTIVE while it has not failed, whichever member asks. The
    same in PCF: Inquire CF Structure Status, StatusType MQIACF_CF_STATUS_CONNECT."""
    async with qsg.start(_topology("TOLERATE"), faults=True, in_process=True) as world:
        await trio.sleep(5)
        lost_at = trio.current_time()
        assert "TOLERATE" in await world.cf_connectivity_loss("QM2", "APP1")
        await trio.sleep(2)
        fail_date, fail_time = date_and_time(world.qmgrs["QM1"].rules.epoch, lost_at)
        for asker in ("QM1", "QM2"):
            reply = await admin.command(world, asker, "DISPLAY CFSTATUS(APP1) TYPE(CONNECT)")
            qm1, qm2 = (line for line in reply.lines if "QMNAME(" in line)
            assert "QMNAME(QM1) STATUS(ACTIVE) FAILDATE() FAILTIME()" in qm1, qm1
            assert (
                f"QMNAME(QM2) STATUS(FAILED) FAILDATE({fail_date}) FAILTIME({fail_time})" in qm2
            ), qm2
            summary = await admin.command(world, asker, "DISPLAY CFSTATUS(*) TYPE(SUMMARY)")
            shown = [line for line in summary.lines if "CFSTATUS(" in line]
            assert len(shown) == 2 and all("STATUS(ACTIVE)" in line for line in shown), shown
            rules = world.qmgrs[asker].rules
            request = encode(
                Header(F.MQCFT_COMMAND, F.MQCMD_INQUIRE_CF_STRUC_STATUS),
                [
                    (CMQC.MQCA_CF_STRUC_NAME, "APP1"),
                    (F.MQIACF_CF_STATUS_TYPE, F.MQIACF_CF_STATUS_CONNECT),
                ],
                NATIVE,
            )
            snapshot = await admin.snapshot(world, asker)
            replies = [parse(r)[1] for r in process(request, NATIVE, rules, snapshot)]
            assert [
                (r[CMQC.MQCA_Q_MGR_NAME], r[F.MQIACF_CF_STRUC_STATUS], r[F.MQCACF_FAIL_TIME])
                for r in replies
            ] == [("QM1", F.MQCFSTATUS_ACTIVE, ""), ("QM2", F.MQCFSTATUS_FAILED, fail_time)]
        assert not await world.cf_connectivity_restored("QM2", "APP1")
        reply = await admin.command(world, "QM1", "DISPLAY CFSTATUS(APP1) TYPE(CONNECT)")
        assert [line for line in reply.lines if "STATUS(FAILED)" in line] == []
