"""The channel commands on shared channels beyond MQSC START and STOP: PCF Start
Channel and Stop Channel with ChannelDisposition through the command server, DISPLAY
CHSTATUS SHORT and its CHLDISP selection, PING, RESET and RESOLVE CHANNEL with CHLDISP,
and the triggered start of a shared sender (IBM MQ for z/OS: "Start Channel", "Stop
Channel", "DISPLAY CHSTATUS", "Transmission queues and triggering channels in queue
sharing groups")."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
import trio

import qsg
from actors.admin import command
from actors.clock import VirtualClock
from actors.events import ChannelBatch, ChannelDelivered, ChannelStateChanged
from actors.world import World
from qsg import CMQC, MD, pymqi
from qsg.chaos.nemesis import targets
from qsg.commands.exec.runner import facade_bound
from qsg.pymqi import CMQCFC
from qsg.scenario import load_scenario
from tests.claims import keeps
from tests.test_shared_channels import NO_SYNC, drain, owner, put_persistent, shared_sender

T = TypeVar("T")
ROOT = Path(__file__).resolve().parent.parent


def in_shared_world(body: Callable[[World], T]) -> T:
    """``body(world)`` as a program's synchronous pymqi code, in QSG1 (QM1, QM2) whose
    sender QSG.TO.QM3 has the shared transmission queue QM3.XMITQ."""

    async def main() -> T:
        async with (
            qsg.start(shared_sender(), in_process=True, seed=3) as world,
            facade_bound(world, virtual=True),
        ):
            return body(world)

    return qsg.run(main)


def refused(call: Callable[[], object]) -> int:
    """The reason code PCFExecute raises for ``call``."""
    with pytest.raises(pymqi.MQMIError) as raised:
        call()
    return int(raised.value.reason)


@keeps(
    "docs/channels.md",
    "PCF Start Channel and Stop Channel take ChannelDisposition (MQIACH_CHANNEL_DISP)",
)
@keeps(
    "docs/channels.md",
    "refused while the channel runs (IN USE, MQRCCF_CHANNEL_IN_USE)",
)
def test_pcf_start_and_stop_channel_with_channel_disposition_do_what_mqsc_chldisp_does() -> None:
    # "Start Channel" (PCF): ChannelDisposition MQCHLD_FIXSHARED runs it shared on the
    # queue manager CommandScope names; MQCHLD_SHARED with a CommandScope, or
    # MQCHLD_PRIVATE for a sender whose transmission queue is shared, is 3211.
    def body(world: World) -> dict[str, object]:
        pcf = pymqi.PCFExecute(pymqi.connect("QM1"))
        name = {CMQCFC.MQCACH_CHANNEL_NAME: b"QSG.TO.QM3"}
        seen: dict[str, object] = {"first": owner(world)}
        pcf.MQCMD_STOP_CHANNEL({**name, CMQCFC.MQIACH_CHANNEL_DISP: CMQCFC.MQCHLD_SHARED})
        seen["stopped"] = world.qsgs["QSG1"].channel_status.holder("QSG.TO.QM3")
        pcf.MQCMD_START_CHANNEL(
            {
                **name,
                CMQCFC.MQIACH_CHANNEL_DISP: CMQCFC.MQCHLD_FIXSHARED,
                CMQCFC.MQCACF_COMMAND_SCOPE: b"QM2",
            }
        )
        held = world.qsgs["QSG1"].channel_status.holder("QSG.TO.QM3")
        seen["fixed"] = None if held is None else (held.owner, held.disposition)
        seen["shared+scope"] = refused(
            lambda: pcf.MQCMD_START_CHANNEL(
                {
                    **name,
                    CMQCFC.MQIACH_CHANNEL_DISP: CMQCFC.MQCHLD_SHARED,
                    CMQCFC.MQCACF_COMMAND_SCOPE: b"QM2",
                }
            )
        )
        seen["private"] = refused(
            lambda: pcf.MQCMD_START_CHANNEL(
                {**name, CMQCFC.MQIACH_CHANNEL_DISP: CMQCFC.MQCHLD_PRIVATE}
            )
        )
        seen["second"] = refused(
            lambda: pcf.MQCMD_START_CHANNEL(
                {**name, CMQCFC.MQIACH_CHANNEL_DISP: CMQCFC.MQCHLD_FIXSHARED}
            )
        )
        resolve = {**name, CMQCFC.MQIACH_IN_DOUBT: CMQCFC.MQIDO_COMMIT}
        for verb, args in (("PING", name), ("RESET", name), ("RESOLVE", resolve)):
            command = getattr(pcf, f"MQCMD_{verb}_CHANNEL")
            seen[verb] = refused(lambda command=command, args=args: command(args))  # it runs
        seen["unknown"] = refused(
            lambda: pcf.MQCMD_START_CHANNEL({CMQCFC.MQCACH_CHANNEL_NAME: b"NO.SUCH"})
        )
        seen["stop fixshared"] = refused(
            lambda: pcf.MQCMD_STOP_CHANNEL(
                {**name, CMQCFC.MQIACH_CHANNEL_DISP: CMQCFC.MQCHLD_FIXSHARED}
            )
        )
        return seen

    seen = in_shared_world(body)
    assert seen["stopped"] is None
    assert seen["fixed"] == ("QM2", CMQCFC.MQCHLD_FIXSHARED)
    assert seen["shared+scope"] == CMQCFC.MQRCCF_DISPOSITION_CONFLICT
    assert seen["private"] == CMQCFC.MQRCCF_DISPOSITION_CONFLICT
    assert seen["second"] == CMQCFC.MQRCCF_CHANNEL_IN_USE  # CSQX477E: it runs on QM2
    assert [seen[verb] for verb in ("PING", "RESET", "RESOLVE")] == [
        CMQCFC.MQRCCF_CHANNEL_IN_USE
    ] * 3
    assert seen["unknown"] == CMQCFC.MQRCCF_CHANNEL_NOT_FOUND
    assert seen["stop fixshared"] == CMQCFC.MQRCCF_PARM_VALUE_ERROR


def chstatus(lines: tuple[str, ...]) -> list[str]:
    """The channels a DISPLAY CHSTATUS reply names, in order."""
    return [line.split("CHSTATUS(")[1].split(")")[0] for line in lines if "CHSTATUS(" in line]


@keeps(
    "docs/channels.md",
    "CHLDISP(ALL) (the default), CHLDISP(PRIVATE) or CHLDISP(SHARED) (SHARED and "
    "FIXSHARED instances)",
)
async def test_display_chstatus_selects_by_chldisp_and_by_current_saved_or_short(
    virtual_clock: VirtualClock,
) -> None:
    # "DISPLAY CHSTATUS", tables 1 to 3: CHLDISP(PRIVATE | SHARED | ALL) x CURRENT,
    # SAVED, SHORT; SHORT is the group's view, CURRENT the local queue manager's.
    async with qsg.start(shared_sender(), seed=3, in_process=True) as world:
        await trio.sleep(1)
        running = owner(world)
        await world.stop_channel(running, "QSG.TO.QM3")
        await world.start_channel("QM2", "QSG.TO.QM3", chldisp="FIXSHARED")
        await trio.sleep(1)
        shown: dict[str, list[str]] = {}
        for on, text in [
            ("QM1", "DISPLAY CHSTATUS(*)"),
            ("QM1", "DISPLAY CHSTATUS(*) SHORT"),
            ("QM1", "DISPLAY CHSTATUS(*) SHORT CHLDISP(SHARED)"),
            ("QM1", "DISPLAY CHSTATUS(*) CHLDISP(PRIVATE)"),
            ("QM2", "DISPLAY CHSTATUS(*) CHLDISP(SHARED)"),
            ("QM2", "DISPLAY CHSTATUS(*) CHLDISP(PRIVATE)"),
        ]:
            reply = await command(world, on, text)
            shown[f"{on} {text}"] = chstatus(reply.lines)
        short = await command(world, "QM1", "DISPLAY CHSTATUS(QSG.TO.QM3) SHORT")
        saved = await command(world, "QM1", "DISPLAY CHSTATUS(QSG.PRIVATE) SAVED")
        wrong = await command(world, "QM1", "DISPLAY CHSTATUS(*) CHLDISP(FIXSHARED)")
    assert shown["QM1 DISPLAY CHSTATUS(*)"] == ["QSG.PRIVATE"]  # QSG.TO.QM3 runs on QM2
    assert shown["QM1 DISPLAY CHSTATUS(*) SHORT"] == ["QSG.PRIVATE", "QSG.TO.QM3"]
    assert shown["QM1 DISPLAY CHSTATUS(*) SHORT CHLDISP(SHARED)"] == ["QSG.TO.QM3"]
    assert shown["QM1 DISPLAY CHSTATUS(*) CHLDISP(PRIVATE)"] == ["QSG.PRIVATE"]
    assert shown["QM2 DISPLAY CHSTATUS(*) CHLDISP(SHARED)"] == ["QSG.TO.QM3"]
    assert shown["QM2 DISPLAY CHSTATUS(*) CHLDISP(PRIVATE)"] == []
    (line,) = [line for line in short.lines if "CHSTATUS(" in line]
    assert "CHLDISP(FIXSHARED)" in line and "SHORT" in line and "QMNAME(QM2)" in line, line
    assert "MSGS(" not in line, line  # the short status: STATUS and QMNAME
    (kept,) = [line for line in saved.lines if "CHSTATUS(" in line]
    assert "SAVED" in kept and "STATUS(RUNNING)" in kept, kept
    assert "MSGS(" not in kept, kept  # the common status fields alone
    assert wrong.failed and "'CHLDISP(FIXSHARED)' IS INVALID" in wrong.lines[0], wrong.lines


@keeps(
    "docs/channels.md", "PING, RESET and RESOLVE CHANNEL take CHLDISP and CMDSCOPE by IBM's tables"
)
async def test_ping_channel_by_chldisp_refuses_a_running_channel_and_names_an_absent_partner(
    virtual_clock: VirtualClock,
) -> None:
    # "PING CHANNEL": "not valid if the channel is running"; CHLDISP(SHARED) pings "on
    # the most suitable queue manager in the group", CMDSCOPE blank only.
    async with qsg.start(shared_sender(), seed=3, in_process=True) as world:
        await trio.sleep(1)
        running = await command(world, "QM2", "PING CHANNEL(QSG.TO.QM3) CHLDISP(SHARED)")
        await world.stop_channel("QM1", "QSG.TO.QM3")
        pinged = await command(world, "QM2", "PING CHANNEL(QSG.TO.QM3) CHLDISP(SHARED)")
        scoped = await command(
            world, "QM1", "PING CHANNEL(QSG.TO.QM3) CHLDISP(SHARED) CMDSCOPE(QM2)"
        )
        busy = await command(world, "QM1", "PING CHANNEL(QSG.PRIVATE)")
        await world.stop_channel("QM1", "QSG.PRIVATE")
        await world.kill("QM3")
        await trio.sleep(1)
        absent = await command(world, "QM1", "PING CHANNEL(QSG.TO.QM3) CHLDISP(FIXSHARED)")
        private = await command(world, "QM1", "PING CHANNEL(QSG.PRIVATE) DATALEN(64)")
        short = await command(world, "QM1", "PING CHANNEL(QSG.PRIVATE) DATALEN(8)")
    assert running.failed and "IN USE" in running.lines[0] and "CSQX477E" in running.lines[0]
    assert not pinged.failed and pinged.lines[0].startswith("CSQM134I"), pinged.lines
    assert scoped.failed and "3211" in scoped.lines[0], scoped.lines
    assert absent.failed and "AMQ9202E" in absent.lines[0], absent.lines
    assert busy.failed and "IN USE (IT IS RUNNING)" in busy.lines[0], busy.lines
    assert private.failed and "AMQ9202E" in private.lines[0], private.lines
    assert short.failed and short.lines[0].endswith("'DATALEN' IS INVALID"), short.lines


@keeps(
    "docs/channels.md",
    "RESOLVE CHANNEL ACTION(COMMIT) takes the batch in doubt off the transmission queue",
)
async def test_resolve_channel_commit_of_a_shared_senders_batch_in_doubt_delivers_each_once(
    virtual_clock: VirtualClock,
) -> None:
    # "RESOLVE CHANNEL": COMMIT, "the messages are committed, that is, they are deleted
    # from the transmission queue"; CHLDISP(SHARED) resolves the group's sync record
    # from any member. RESET is refused while a batch is in doubt (our reading).
    async with qsg.start(shared_sender(), seed=3, in_process=True) as world:
        first = owner(world)
        other = "QM2" if first == "QM1" else "QM1"
        bodies = await put_persistent(world, other, 30)
        world.slow(channel_latency=5.0)
        delivered = trio.Event()
        count = [0]

        def heard(event: object) -> None:
            count[0] += 1
            if count[0] == 10:
                delivered.set()

        world.events.listen(heard, ChannelDelivered)
        await delivered.wait()
        await world.stop_chinit(first, restart=False)  # the batch stays in doubt
        world.slow(channel_latency=0.0)
        reset = await command(world, other, "RESET CHANNEL(QSG.TO.QM3) CHLDISP(SHARED)")
        everywhere = await command(
            world, other, "RESOLVE CHANNEL(QSG.TO.QM3) ACTION(COMMIT) CMDSCOPE(*)"
        )
        resolved = await command(
            world, other, "RESOLVE CHANNEL(QSG.TO.QM3) ACTION(COMMIT) CHLDISP(SHARED)"
        )
        await world.start_channel(other, "QSG.TO.QM3")
        busy = await command(
            world, other, "RESOLVE CHANNEL(QSG.TO.QM3) ACTION(BACKOUT) CHLDISP(SHARED)"
        )
        got = await drain(world)
    assert reset.failed and "MQRCCF_CHANNEL_INDOUBT 4025" in reset.lines[0], reset.lines
    assert everywhere.failed and "3211" in " ".join(everywhere.lines), everywhere.lines
    assert not resolved.failed, resolved.lines
    assert busy.failed and "IN USE" in busy.lines[0], busy.lines
    assert sorted(got) == bodies  # each once: the committed batch was not sent again


@keeps("docs/channels.md", "the partner takes that number when the channel next starts")
async def test_reset_channel_seqnum_is_taken_by_the_partner_at_the_next_start(
    virtual_clock: VirtualClock,
) -> None:
    # "RESET CHANNEL": "the new message sequence number"; the partner is reset when
    # the channel next starts, so the batch is not refused (AMQ9526E).
    async with qsg.start(shared_sender(), seed=3, in_process=True) as world:
        define = "DEFINE QREMOTE(VIA.PRIVATE) RNAME(APP.IN) RQMNAME(QM3) XMITQ(PRIVATE.XMITQ)"
        assert not (await command(world, "QM1", define)).failed
        await world.stop_channel("QM1", "QSG.PRIVATE")
        await trio.sleep(1)
        scoped = await command(world, "QM1", "RESET CHANNEL(QSG.PRIVATE) CMDSCOPE(*)")
        shared = await command(world, "QM1", "RESET CHANNEL(QSG.PRIVATE) CHLDISP(SHARED)")
        fixed = await command(world, "QM1", "RESOLVE CHANNEL(QSG.PRIVATE) CHLDISP(FIXSHARED)")
        reset = await command(world, "QM1", "RESET CHANNEL(QSG.PRIVATE) SEQNUM(500)")
        await world.start_channel("QM1", "QSG.PRIVATE")
        conn = await world.connect("QM1")
        out = await conn.open("VIA.PRIVATE", CMQC.MQOO_OUTPUT)
        for number in range(3):
            await out.put(b"r%d" % number, MD(Persistence=CMQC.MQPER_PERSISTENT), NO_SYNC)
        got = await drain(world)
        batches = [b for b in world.events.of(ChannelBatch) if b.channel == "QSG.PRIVATE"]
    assert scoped.failed and "CMDSCOPE(*)" in scoped.lines[0], scoped.lines
    assert shared.failed and "NOT A SHARED QUEUE" in shared.lines[0], shared.lines
    assert fixed.failed and fixed.lines[0].endswith("'CHLDISP' IS INVALID"), fixed.lines
    assert not reset.failed, reset.lines
    assert sorted(got) == [b"r0", b"r1", b"r2"]
    assert batches and batches[0].sequence == 499 + batches[0].messages


@keeps(
    "docs/channels.md",
    "A triggered shared transmission queue starts its channel once, by a load-balanced start",
)
async def test_a_triggered_shared_xmitq_starts_its_channel_once_on_the_most_suitable_member(
    virtual_clock: VirtualClock,
) -> None:
    # "Transmission queues and triggering channels in queue sharing groups": the
    # channel is started "with a load-balanced start", "always CHLDISP(SHARED)"; the
    # other channel initiators' starts "fail safely".
    members = ("QM1", "QM2", "QM4")
    topology = shared_sender(members=members)
    for member in members:
        topology.mqsc(member, "DEFINE QLOCAL(SYSTEM.CHANNEL.INITQ)", source=f"{member}-initq")
    topology.mqsc(
        "QM1",
        "ALTER QLOCAL(QM3.XMITQ) QSGDISP(SHARED) TRIGGER TRIGTYPE(FIRST) "
        "INITQ(SYSTEM.CHANNEL.INITQ) TRIGDATA(QSG.TO.QM3)",
        source="trigger",
    )
    async with qsg.start(topology, seed=3, in_process=True) as world:
        first = owner(world)
        assert first != "QM1"  # QM1 runs the private QSG.PRIVATE: the busier member
        await world.stop_chinit(first, restart=False)  # SHARED(STOP): it is INACTIVE
        assert world.qsgs["QSG1"].channel_status.holder("QSG.TO.QM3") is None
        started = len(world.events.of(ChannelStateChanged))
        bodies = await put_persistent(world, "QM1", 5)  # the trigger message is QM1's
        got = await drain(world)
        running = [
            e.q_mgr
            for e in world.events.of(ChannelStateChanged)[started:]
            if e.channel == "QSG.TO.QM3" and e.state == "RUNNING" and e.q_mgr in members
        ]
        now_owner = owner(world)
        await world.stop_channel("QM1", "QSG.TO.QM3")
        await trio.sleep(1)
        await put_persistent(world, "QM1", 1)
        await trio.sleep(5)
        stopped = world.qsgs["QSG1"].channel_status.holder("QSG.TO.QM3")
    spare = next(m for m in members if m not in (first, "QM1"))
    assert now_owner == spare, now_owner
    assert running == [spare], running  # one start, on the least loaded
    assert sorted(got) == bodies
    assert stopped is None  # a STOPPED channel is not started by a trigger


@keeps(
    "docs/chaos.md",
    "a shared channel out to it that two members can run, and intra-group queuing between "
    "two members",
)
def test_the_chaos_target_has_a_shared_sender_on_two_members_and_igq() -> None:
    # The campaign's channel initiator faults need a shared channel to move.
    scenario = load_scenario(ROOT / "scenarios" / "chaos-qsg.toml")
    text = (ROOT / "scenarios" / "chaos-qsg.toml").read_text()
    assert set(targets(scenario).shared) == {"QM2", "QM3"}
    assert "DEFINE QLOCAL(SYSTEM.QSG.TRANSMIT.QUEUE) QSGDISP(SHARED)" in text
    assert "ALTER QMGR IGQ(ENABLED)" in text


@keeps(
    "docs/channels.md",
    "PCF Inquire Channel Status selects the same way with ChannelInstanceType",
)
def test_pcf_inquire_channel_status_short_shows_the_shared_instance_and_its_owner() -> None:
    # "Inquire Channel Status": ChannelInstanceType MQOT_SHORT_CHANNEL (z/OS) and
    # ChannelDisposition select as DISPLAY CHSTATUS SHORT CHLDISP(SHARED) does.
    def body(world: World) -> tuple[str, list[dict[int, object]], int]:
        running = owner(world)
        other = "QM2" if running == "QM1" else "QM1"
        pcf = pymqi.PCFExecute(pymqi.connect(other))
        found = pcf.MQCMD_INQUIRE_CHANNEL_STATUS(
            {
                CMQCFC.MQCACH_CHANNEL_NAME: b"*",
                CMQCFC.MQIACH_CHANNEL_INSTANCE_TYPE: CMQC.MQOT_SHORT_CHANNEL,
                CMQCFC.MQIACH_CHANNEL_DISP: CMQCFC.MQCHLD_SHARED,
            }
        )
        wrong = refused(
            lambda: pcf.MQCMD_INQUIRE_CHANNEL_STATUS(
                {
                    CMQCFC.MQCACH_CHANNEL_NAME: b"*",
                    CMQCFC.MQIACH_CHANNEL_DISP: CMQCFC.MQCHLD_FIXSHARED,
                }
            )
        )
        return running, [r for r in found if CMQCFC.MQCACH_CHANNEL_NAME in r], wrong

    running, found, wrong = in_shared_world(body)
    (shared,) = found
    assert shared[CMQCFC.MQCACH_CHANNEL_NAME].strip() == b"QSG.TO.QM3"
    assert shared[CMQCFC.MQIACH_CHANNEL_DISP] == CMQCFC.MQCHLD_SHARED
    assert shared[CMQCFC.MQIACH_CHANNEL_INSTANCE_TYPE] == CMQC.MQOT_SHORT_CHANNEL
    assert shared[CMQC.MQCA_Q_MGR_NAME].strip() == running.encode()
    assert wrong == CMQCFC.MQRCCF_PARM_VALUE_ERROR
