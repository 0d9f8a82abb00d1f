"""Shared channels in a running world, in process and on the coupling facility's
server: a sender whose transmission queue is shared runs once in the group, moves to a
survivor when its member is killed (with a batch in doubt at the kill, every
persistent message arrives once), a FIXSHARED one does not move, and any member shows
its status (IBM MQ for z/OS, "Shared channels", "Starting a shared channel", "Shared
channel recovery", "Synchronization queue for queue sharing groups")."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

import qsg
from actors.admin import command
from actors.clock import VirtualClock
from actors.events import ChannelBatch, ChannelDelivered, ChannelRecovered, ChannelStateChanged
from actors.topology import Topology
from actors.world import World
from qsg import CMQC, GMO, MD, PMO
from qsg.core import bugs
from tests.claims import keeps

NO_SYNC = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
GROUP = """
    DEFINE CFSTRUCT(CSQSYSAPPL) CFLEVEL(5) RECOVER(YES)
    DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES)
    DEFINE QLOCAL(SYSTEM.QSG.CHANNEL.SYNCQ) QSGDISP(SHARED) CFSTRUCT(CSQSYSAPPL) +
           INDXTYPE(MSGID)
    DEFINE QLOCAL(QM3.XMITQ) QSGDISP(SHARED) CFSTRUCT(APP1) USAGE(XMITQ)
    DEFINE QLOCAL(PRIVATE.XMITQ) USAGE(XMITQ)
    DEFINE CHANNEL(QSG.PRIVATE) CHLTYPE(SDR) CONNAME('QM3') XMITQ(PRIVATE.XMITQ)
"""
MEMBER = """
    DEFINE QREMOTE(TO.QM3) RNAME(APP.IN) RQMNAME(QM3) XMITQ(QM3.XMITQ)
    DEFINE CHANNEL(QSG.TO.QM3) CHLTYPE(SDR) CONNAME('QM3') XMITQ(QM3.XMITQ) BATCHSZ(10) +
           DEFCDISP(SHARED)
"""


def shared_sender(*, members: tuple[str, ...] = ("QM1", "QM2")) -> Topology:
    """QSG1 of ``members``, each defining the sender QSG.TO.QM3 whose transmission
    queue QM3.XMITQ is shared (the first also the private sender QSG.PRIVATE); QM3
    outside the group receives."""
    topology = Topology()
    topology.add_qsg("QSG1", members=list(members))
    topology.add_qmgr("QM3")
    topology.mqsc(members[0], GROUP + MEMBER, source="group")
    for member in members[1:]:
        topology.mqsc(member, MEMBER, source=member.lower())
    topology.mqsc(
        "QM3",
        "DEFINE QLOCAL(APP.IN)\nDEFINE CHANNEL(QSG.TO.QM3) CHLTYPE(RCVR)\n"
        "DEFINE CHANNEL(QSG.PRIVATE) CHLTYPE(RCVR)",
        source="qm3",
    )
    return topology


def owner(world: World) -> str:
    held = world.qsgs["QSG1"].channel_status.holder("QSG.TO.QM3")
    assert held is not None
    return held.owner


async def put_persistent(world: World, q_mgr: str, count: int) -> list[bytes]:
    conn = await world.connect(q_mgr)
    out = await conn.open("TO.QM3", CMQC.MQOO_OUTPUT)
    bodies = [b"m%03d" % i for i in range(count)]
    for body in bodies:
        await out.put(body, MD(Persistence=CMQC.MQPER_PERSISTENT), NO_SYNC)
    return bodies


async def drain(world: World) -> list[bytes]:
    conn = await world.connect("QM3")
    app_in = await conn.open("APP.IN", CMQC.MQOO_INPUT_SHARED)
    got = []
    gmo = GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, WaitInterval=120_000)
    while True:
        try:
            got.append(await app_in.get(None, MD(), gmo))
        except qsg.MQMIError as error:
            if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
                raise
            return got


async def kill_with_a_batch_in_doubt(world: World) -> str:
    """Kill the member running QSG.TO.QM3 once QM3 has committed its first batch and
    before the confirmation reaches the sender (the channel's latency holds it on the
    way): the batch is in doubt at the sender when it dies."""
    world.slow(channel_latency=5.0)
    running = owner(world)
    delivered = trio.Event()
    count = [0]

    def heard(event: object) -> None:
        count[0] += 1
        if count[0] == 10:  # the first batch, put and committed at QM3
            delivered.set()

    world.events.listen(heard, ChannelDelivered)
    await delivered.wait()
    assert world.events.of(ChannelBatch) == []  # delivered, not yet confirmed
    await world.kill(running)
    world.slow(channel_latency=0.0)
    return running


@keeps(
    "docs/channels.md",
    "a survivor restarts each SHARED sending channel the failed member ran on the most "
    "suitable member",
)
async def test_a_shared_sender_moves_to_the_survivor_with_a_batch_in_doubt_and_all_arrive_once(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    # "Shared channel recovery": a queue manager fails, the others do peer recovery; the
    # sync record on SYSTEM.QSG.CHANNEL.SYNCQ lets the new instance settle its batch.
    async with qsg.start(shared_sender(), seed=3, **cf_mode) as world:  # type: ignore[arg-type]
        first = owner(world)
        survivor = "QM2" if first == "QM1" else "QM1"
        bodies = await put_persistent(world, survivor, 30)
        assert await kill_with_a_batch_in_doubt(world) == first
        assert owner(world) == survivor
        got = await drain(world)
        assert sorted(got) == bodies  # each once: nothing lost, nothing twice
        (recovery,) = world.events.of(ChannelRecovered)
        assert (recovery.q_mgr, recovery.failed, recovery.restarted) == (survivor, first, 1)
        assert recovery.line.startswith("CSQM052I CSQMPCRT Shared channel recovery completed")
        assert recovery.line.endswith(f"for {first}, 1 channels found, 0 FIXSHARED, 1 recovered")


async def test_the_duplicate_on_channel_recovery_bug_sends_the_batch_in_doubt_twice(
    virtual_clock: VirtualClock,
) -> None:
    # The switch the chaos campaign must catch: the recovered instance backs out the
    # batch QM3 committed and sends it again, as a wrong RESOLVE ACTION(BACKOUT) would.
    with bugs.injected(bugs.DUPLICATE_ON_CHANNEL_RECOVERY):
        async with qsg.start(shared_sender(), seed=3, in_process=True) as world:
            bodies = await put_persistent(world, "QM1", 30)
            await kill_with_a_batch_in_doubt(world)
            got = await drain(world)
    assert len(got) == 40 and set(got) == set(bodies)


@keeps("docs/channels.md", "A FIXSHARED instance does not move")
async def test_a_fixshared_channel_does_not_move_and_restarts_with_its_member(
    virtual_clock: VirtualClock,
) -> None:
    # "Starting a shared channel": FIXSHARED is "not recovered by any other active
    # channel initiator"; only the same one, when it restarts.
    async with qsg.start(shared_sender(), seed=3, in_process=True) as world:
        first = owner(world)
        await world.stop_channel(first, "QSG.TO.QM3")
        assert world.qsgs["QSG1"].channel_status.holder("QSG.TO.QM3") is None
        assert await world.start_channel("QM2", "QSG.TO.QM3", chldisp="FIXSHARED") == ["QM2"]
        await put_persistent(world, "QM1", 5)
        await world.kill("QM2")
        (recovery,) = world.events.of(ChannelRecovered)
        assert (recovery.found, recovery.fixshared, recovery.restarted) == (1, 1, 0)
        assert owner(world) == "QM2"  # held for its own member
        await world.restart("QM2")
        assert len(await drain(world)) == 5
        assert owner(world) == "QM2"


@keeps("docs/channels.md", "Any member shows a shared channel's status")
async def test_display_chstatus_of_a_shared_channel_from_any_member_names_its_owner(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    # DISPLAY CHSTATUS SHORT, "the status of the queue sharing group": "QMNAME ... the
    # queue manager that owns the channel instance"; CURRENT (Table 1): "current shared
    # channels on the local queue manager", so only the member that runs it.
    async with qsg.start(shared_sender(), seed=3, **cf_mode) as world:  # type: ignore[arg-type]
        await trio.sleep(1)
        running = owner(world)
        other = "QM2" if running == "QM1" else "QM1"
        for member in ("QM1", "QM2"):
            reply = await command(world, member, "DISPLAY CHSTATUS(QSG.TO.QM3) SHORT")
            text = " ".join(reply.lines)
            assert "CHLDISP(SHARED)" in text and f"QMNAME({running})" in text, text
            assert "STATUS(RUNNING)" in text and " SHORT " in text, text
        here = await command(world, running, "DISPLAY CHSTATUS(QSG.TO.QM3)")
        assert "CURRENT" in " ".join(here.lines) and "MSGS(" in " ".join(here.lines)
        elsewhere = await command(world, other, "DISPLAY CHSTATUS(QSG.TO.QM3) CURRENT")
        assert elsewhere.lines[0].startswith("CSQM125I"), elsewhere.lines  # not found there


async def test_a_second_instance_of_a_shared_channel_is_refused_with_csqx477e(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(shared_sender(), seed=3, in_process=True) as world:
        running = owner(world)
        other = "QM2" if running == "QM1" else "QM1"
        reply = await command(world, other, "START CHANNEL(QSG.TO.QM3) CHLDISP(FIXSHARED)")
        assert reply.failed
        assert (
            f"CSQX477E CHANNEL QSG.TO.QM3 IS ACTIVE, TRANSMISSION QUEUE QM3.XMITQ IN USE ON "
            f"{running}" in reply.lines[0]
        ), reply.lines


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (
            "START CHANNEL(QSG.PRIVATE) CHLDISP(SHARED)",
            "TRANSMISSION QUEUE IS NOT A SHARED QUEUE",
        ),
        ("START CHANNEL(QSG.TO.QM3) CHLDISP(PRIVATE)", "HAS A SHARED TRANSMISSION QUEUE"),
        (
            "START CHANNEL(QSG.TO.QM3) CHLDISP(SHARED) CMDSCOPE(QM2)",
            "CHLDISP(SHARED) IS NOT ALLOWED WITH CMDSCOPE(QM2)",
        ),
        (
            "START CHANNEL(QSG.TO.QM3) CHLDISP(FIXSHARED) CMDSCOPE(*)",
            "CHLDISP(FIXSHARED) IS NOT ALLOWED WITH CMDSCOPE(*)",
        ),
        (  # on QM3, whose QSG.TO.QM3 is the receiver
            "START CHANNEL(QSG.TO.QM3) CHLDISP(FIXSHARED)",
            "ALLOWED ONLY FOR A SENDER, SERVER OR REQUESTER WITH A CONNAME, NOT FOR CHANNEL "
            "QSG.TO.QM3 (MQRCCF_DISPOSITION_CONFLICT 3211)",
        ),
    ],
)
async def test_a_chldisp_the_channel_or_cmdscope_does_not_allow_is_one_line_with_3211(
    virtual_clock: VirtualClock, text: str, why: str
) -> None:
    # MQRCCF_DISPOSITION_CONFLICT: "The CommandScope and ... ChannelDisposition parameter
    # values are incompatible", or "the wrong disposition" for the channel.
    async with qsg.start(shared_sender(), seed=3, in_process=True) as world:
        on = "QM3" if "NOT FOR CHANNEL" in why else "QM1"  # QM3: the receiving end
        reply = await command(world, on, text)
        assert reply.failed
        (line,) = [line for line in reply.lines if line.startswith("CSQM090E")]
        assert why in line and "3211" in line, reply.lines


async def test_a_shared_start_with_no_channel_initiator_running_is_3218(
    virtual_clock: VirtualClock,
) -> None:
    # MQRCCF_CHANNEL_INITIATOR_ERROR: no channel initiator can take the channel.
    async with qsg.start(shared_sender(), seed=3, in_process=True) as world:
        await world.stop_chinit("QM1", restart=False)
        await world.stop_chinit("QM2", restart=False)
        reply = await command(world, "QM1", "START CHANNEL(QSG.TO.QM3) CHLDISP(SHARED)")
        assert reply.failed and "3218" in " ".join(reply.lines), reply.lines


async def test_stop_chinit_shared_restart_moves_the_channel_and_stop_leaves_it_inactive(
    virtual_clock: VirtualClock,
) -> None:
    # STOP CHINIT SHARED(RESTART): "shared sending channels ... restarted by other
    # members"; SHARED(STOP): they become INACTIVE.
    async with qsg.start(shared_sender(), seed=3, in_process=True) as world:
        first = owner(world)
        other = "QM2" if first == "QM1" else "QM1"
        reply = await command(world, first, "STOP CHINIT SHARED(RESTART)")
        assert not reply.failed, reply.lines
        assert owner(world) == other
        await world.start_chinit(first)
        await world.stop_chinit(other, restart=False)
        assert world.qsgs["QSG1"].channel_status.holder("QSG.TO.QM3") is None
        await put_persistent(world, first, 3)
        await world.start_channel(first, "QSG.TO.QM3")  # DEFCDISP(SHARED): load-balanced
        assert owner(world) == first
        assert len(await drain(world)) == 3


def test_the_shipped_failover_scenario_moves_the_channel_twice_and_delivers_each_message_once(
    cf_url: str,
) -> None:
    # scenarios/shared-channel-failover.toml: what its header says to look for.
    from collections import Counter
    from pathlib import Path

    from actors.events import ChannelStateChanged, MessageGot
    from qsg.scenario import load_scenario
    from qsg.scenario.play import run_scenario

    path = Path(__file__).parent.parent / "scenarios" / "shared-channel-failover.toml"
    result = run_scenario(load_scenario(path), redis_url=cf_url)
    running = [
        e.q_mgr
        for e in result.events
        if isinstance(e, ChannelStateChanged)
        and e.channel == "QSG.TO.QM3"
        and e.state == "RUNNING"
        and e.q_mgr != "QM3"  # the receiving end's
    ]
    assert running == ["QM2", "QM1", "QM2"]
    recoveries = [e for e in result.events if isinstance(e, ChannelRecovered)]
    assert [(e.q_mgr, e.failed) for e in recoveries] == [("QM1", "QM2"), ("QM2", "QM1")]
    got = Counter(
        e.msg_id for e in result.events if isinstance(e, MessageGot) and e.queue == "APP.IN"
    )
    assert got and max(got.values()) == 1
    put = result.summary.queue("QSG1", "QM3.XMITQ")["put"]
    assert put - 5 <= len(got) <= put


def group_listeners() -> Topology:
    """QSG1 of QM1 and QM2, each with the receiver QM3.TO.QSG1 and a group listener;
    QM3 outside sends to CONNAME('QSG1'), the group's address, to the shared queue
    APP.SHARED."""
    topology = Topology()
    topology.add_qsg("QSG1", members=["QM1", "QM2"])
    topology.add_qmgr("QM3")
    receiver = "DEFINE CHANNEL(QM3.TO.QSG1) CHLTYPE(RCVR)"
    topology.mqsc(
        "QM1",
        """
        DEFINE CFSTRUCT(CSQSYSAPPL) CFLEVEL(5) RECOVER(YES)
        DEFINE QLOCAL(SYSTEM.QSG.CHANNEL.SYNCQ) QSGDISP(SHARED) CFSTRUCT(CSQSYSAPPL) +
               INDXTYPE(MSGID)
        DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(CSQSYSAPPL)
        """
        + receiver,
        source="qm1",
    )
    topology.mqsc("QM2", receiver, source="qm2")
    topology.mqsc(
        "QM3",
        """
        DEFINE QLOCAL(QSG1) USAGE(XMITQ)
        DEFINE QREMOTE(TO.QSG1) RNAME(APP.SHARED) RQMNAME(QSG1) XMITQ(QSG1)
        DEFINE CHANNEL(QM3.TO.QSG1) CHLTYPE(SDR) CONNAME('QSG1') XMITQ(QSG1) BATCHSZ(10) +
               SHORTTMR(5)
        """,
        source="qm3",
    )
    return topology


@keeps(
    "docs/channels.md",
    "An inbound channel through it is shared: its receiving end keeps the sequence "
    "number it committed on SYSTEM.QSG.CHANNEL.SYNCQ",
)
async def test_inbound_through_the_group_listener_survives_a_members_death(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    # "Inbound: a receiving channel is shared if it ... arrived through the group
    # listener"; its sync record on the shared SYNCQ lets it restart on another member.
    async with qsg.start(group_listeners(), seed=4, **cf_mode) as world:  # type: ignore[arg-type]
        for member in ("QM1", "QM2"):
            reply = await command(world, member, "START LISTENER TRPTYPE(TCP) INDISP(GROUP)")
            assert not reply.failed, reply.lines
        conn = await world.connect("QM3")
        out = await conn.open("TO.QSG1", CMQC.MQOO_OUTPUT)
        persistent = MD(Persistence=CMQC.MQPER_PERSISTENT)
        for i in range(20):
            await out.put(b"a%02d" % i, persistent, NO_SYNC)
        await trio.sleep(30)
        taking = "QM1" if world.qmgrs["QM1"].receivers else "QM2"
        await world.kill(taking)
        for i in range(20):
            await out.put(b"b%02d" % i, persistent, NO_SYNC)
        await trio.sleep(60)
        survivor = "QM2" if taking == "QM1" else "QM1"
        assert "QM3.TO.QSG1" in world.qmgrs[survivor].receivers
        member = await world.connect(survivor)
        shared = await member.open("APP.SHARED", CMQC.MQOO_INPUT_SHARED)
        got = []
        gmo = GMO(Options=CMQC.MQGMO_NO_WAIT | CMQC.MQGMO_NO_SYNCPOINT)
        while True:
            try:
                got.append(await shared.get(None, MD(), gmo))
            except qsg.MQMIError as error:
                if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
                    raise
                break
        assert sorted(got) == sorted(
            [b"a%02d" % i for i in range(20)] + [b"b%02d" % i for i in range(20)]
        )


async def test_the_group_listener_needs_the_shared_syncq_and_a_group(
    virtual_clock: VirtualClock,
) -> None:
    # "The group listener will not start unless SYSTEM.QSG.CHANNEL.SYNCQ is available".
    topology = Topology()
    topology.add_qsg("QSG1", members=["QM1", "QM2"])
    topology.add_qmgr("QM9")
    async with qsg.start(topology, seed=3, in_process=True) as world:
        reply = await command(world, "QM2", "START LISTENER TRPTYPE(TCP) INDISP(GROUP)")
        assert reply.failed
        assert reply.lines == (
            "CSQM090E !QM2 CSQXCRPS THE GROUP LISTENER OF QM2 CANNOT START: THE SHARED QUEUE "
            "SYSTEM.QSG.CHANNEL.SYNCQ IS NOT DEFINED IN QSG1",
        )
        reply = await command(world, "QM9", "START LISTENER TRPTYPE(TCP) INDISP(GROUP)")
        assert reply.failed and "VALID ONLY IN A QUEUE-SHARING GROUP" in reply.lines[0]


async def test_a_conname_naming_a_group_nobody_listens_for_retries_with_amq9202e(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(group_listeners(), seed=4, in_process=True) as world:
        await trio.sleep(1)
        states = [
            e
            for e in world.events.of(ChannelStateChanged)
            if e.channel == "QM3.TO.QSG1" and e.state == "RETRYING"
        ]
        assert states[0].detail == (
            "AMQ9202E: Remote host 'QSG1' not available, retry later (no member of QSG1 has "
            "a group listener running, INDISP(GROUP))"
        )


def test_a_receiver_paused_with_a_batch_in_hand_puts_nothing_its_successor_committed() -> None:
    # Chaos run 219531152 of scenarios/chaos-shared.toml: QM1's receiving instance of
    # the shared inbound channel is paused holding a batch; its sender reconnects
    # through the group listener to QM2, which commits the batch; when QM1 wakes, its
    # instance must check the batch against the group's sync record (AMQ9526E), not
    # its own memory, or the batch is put twice.
    from pathlib import Path

    from qsg.chaos.campaign import run_one
    from qsg.scenario import load_scenario

    path = Path(__file__).parent.parent / "scenarios" / "chaos-shared.toml"
    outcome = run_one(load_scenario(path), 219531152)
    assert outcome.ok, outcome.failed()


@keeps(
    "docs/channels.md",
    "STOP CHANNEL of a shared channel stops it wherever it runs, from any member, even "
    "one whose owner is down",
)
async def test_stop_channel_of_a_shared_channel_works_from_any_member_even_with_its_owner_down(
    virtual_clock: VirtualClock,
) -> None:
    # "Starting a shared channel": FIXSHARED "can be stopped from any queue manager in
    # the queue sharing group ... even if the channel initiator on which it was started
    # is not running".
    async with qsg.start(shared_sender(), seed=3, in_process=True) as world:
        running = owner(world)
        other = "QM2" if running == "QM1" else "QM1"
        reply = await command(world, other, "STOP CHANNEL(QSG.TO.QM3)")
        assert not reply.failed, reply.lines
        assert world.qsgs["QSG1"].channel_status.holder("QSG.TO.QM3") is None
        assert world.qmgrs[running].channels["QSG.TO.QM3"].ended.is_set()
        await world.start_channel(other, "QSG.TO.QM3", chldisp="FIXSHARED")
        await world.kill(other)
        assert owner(world) == other  # FIXSHARED: held for its member
        reply = await command(world, running, "STOP CHANNEL(QSG.TO.QM3)")
        assert not reply.failed, reply.lines
        assert world.qsgs["QSG1"].channel_status.holder("QSG.TO.QM3") is None


def test_a_conname_naming_a_group_nobody_listens_for_is_one_line_at_validation(
    tmp_path: Path,
) -> None:
    # scenarios/chaos-shared.toml without its [[at]] START LISTENER INDISP(GROUP).
    import re
    import subprocess
    import sys

    text = (Path(__file__).parent.parent / "scenarios" / "chaos-shared.toml").read_text()
    text = re.sub(r'\[\[at\]\]\nat = 0\nqmgr = "QM[12]"\nmqsc = "START LISTENER[^\n]*"\n', "", text)
    scenario = tmp_path / "nobody-listens.toml"
    scenario.write_text(text)
    done = subprocess.run(
        [sys.executable, "-m", "qsg.commands.cli", "validate", str(scenario)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0
    said = " ".join((done.stderr + done.stdout).split())  # as wrapped for the terminal
    assert "nobody-listens.toml:63: mqsc CHANNEL(QM3.TO.QSG1): channel QM3.TO.QSG1 of QM3: " in said
    assert (
        "CONNAME('QSG1') names the group QSG1, which nobody listens for (no [[at]] starts a "
        "LISTENER INDISP(GROUP) on its members)" in said
    ), said


async def test_a_shared_status_out_of_reach_stops_no_command_and_ends_no_world(
    virtual_clock: VirtualClock, cf_url: str
) -> None:
    # "Shared status failure": a state change that cannot reach the status does not
    # happen, and the queue managers go on (chaos run 1063938750 on Redis: STOP CHINIT
    # with the facility cut off ended the world with CFCutOffError).
    async with qsg.start(shared_sender(), seed=3, redis_url=cf_url) as world:
        running = owner(world)
        await world.cf_unavailable()
        await world.stop_chinit(running)  # its claims stay: the status is out of reach
        reply = await command(world, running, "DISPLAY CHSTATUS(QSG.TO.QM3)")
        # Answered: the agent's own status, or none (its MQCONNX, serialized by its
        # connection tag in the facility, never got through: CSQM125I).
        assert not reply.failed or "WAS NOT FOUND" in reply.lines[0], reply.lines
        await world.cf_available()
        await world.start_chinit(running)  # takes its own claim back
        assert owner(world) == running
