"""No wait on a channel's partner is unbounded (issue 26; docs/channels.md).

IBM, "Checking that the other end of the channel is still available": a sender with
nothing to send passes a heartbeat flow every HBINT, and a channel that receives nothing
for its receive timeout (twice HBINT below 60 seconds, HBINT plus 60 from there) ends,
AMQ9259E "Connection timed out from host" (CSQX259E on z/OS). A sender then retries as
after any broken link (RETRYING, STOPPED once SHORTRTY and LONGRTY are spent); a
receiving agent ends. Connecting and the channel's start are bounded by the queue
manager's connect timeout (qm.ini's TCP Connect_Timeout). Over TCP the bounds are wall
seconds, so the silent partners here are real sockets and each test takes a second or two.
"""

from __future__ import annotations

import logging
import socket
from pathlib import Path

import msgpack
import pytest
import trio

import qsg
from actors.clock import VirtualClock
from actors.events import ChannelDelivered, ChannelStateChanged
from actors.wire import negotiated_hbint, receive_timeout
from coupling.wallclock import within
from qsg import CMQC, GMO, MD, PMO
from qsg.chaos.campaign import run_one
from qsg.mqsc.errors import MQSCError
from qsg.scenario import ScenarioError, load_scenario, parse_scenario
from tests.claims import keeps

NO_SYNC = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
#: The most any test here may take in wall seconds, though its bounds are 1 or 2 seconds.
BOUND = 30.0


def sender(
    conname: str,
    *,
    hbint: int = 1,
    retries: str = "SHORTRTY(0) LONGRTY(0)",
    connect_timeout: float = 1.0,
) -> qsg.Topology:
    top = qsg.Topology()
    top.add_qmgr("QM1", connect_timeout=connect_timeout)
    top.mqsc(
        "QM1",
        f"""
        DEFINE QLOCAL(QM3) USAGE(XMITQ)
        DEFINE QREMOTE(TO.QM3) RNAME(APP.IN) RQMNAME(QM3) XMITQ(QM3)
        DEFINE CHANNEL(QM1.TO.QM3) CHLTYPE(SDR) TRPTYPE(TCP) CONNAME('{conname}') +
               XMITQ(QM3) HBINT({hbint}) {retries} SHORTTMR(5)
    """,
    )
    return top


def free_port() -> int:
    with socket.socket() as probe:  # a port nobody uses, for a listener
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def states(world: qsg.World) -> list[tuple[str, str]]:
    return [(e.state, e.detail) for e in world.events.of(ChannelStateChanged) if e.q_mgr == "QM1"]


@pytest.mark.parametrize(
    ("ours", "theirs", "agreed", "timeout"),
    [
        (300, 300, 300, 360.0),
        (1, 30, 30, 60.0),
        (59, 5, 59, 118.0),
        (60, 1, 60, 120.0),
        (0, 300, 0, None),
        (300, 0, 0, None),
    ],
)
@keeps(
    "docs/channels.md",
    "At the channel's start the two ends agree on the larger of their two values, or on 0 if "
    "either says 0",
)
@keeps(
    "docs/channels.md",
    "twice HBINT when HBINT is under 60 seconds, HBINT plus 60 seconds from there",
)
@keeps("docs/channels.md", "HBINT(0) sends no heartbeats and sets no receive timeout")
@keeps(
    "docs/mq-rules.md",
    (
        "The heartbeat interval agreed is the larger of both ends' HBINT, or none if either is 0; "
        "a channel waits for its partner twice HBINT below 60 s, HBINT + 60 s from there, then "
        "ends (AMQ9259E)."
    ),
)
def test_the_agreed_heartbeat_is_the_larger_unless_either_is_off_and_gives_the_receive_timeout(
    ours: int, theirs: int, agreed: int, timeout: float | None
) -> None:
    # "HeartbeatInterval (MQLONG)": the larger of both sides' values, unless either is 0;
    # the receive timeout is twice HBINT below 60 s, HBINT + 60 s from 60 s.
    assert negotiated_hbint(ours, theirs) == agreed
    assert receive_timeout(agreed) == timeout


@keeps(
    "docs/edges.md",
    "A partner that stops answering altogether (a listener that accepts and says nothing, a "
    "paused or hung queue manager) ends the channel too",
)
@keeps(
    "docs/channels.md",
    "| the channel's start: the sender's first flow answered by the receiver's status | the "
    "same connect timeout, at both ends |",
)
@keeps("docs/channels.md", "to the Python logger `qsg.channels` at ERROR")
@keeps("docs/channels.md", 'then `STOPPED` ("retries exhausted: AMQ9259E ...")')
@keeps(
    "docs/channels.md",
    "a sender to a real TCP listener that accepts and never answers stops with AMQ9259E after "
    "its 1-second connect timeout",
)
@keeps(
    "docs/mq-rules.md",
    (
        "The heartbeat interval agreed is the larger of both ends' HBINT, or none if either is 0; "
        "a channel waits for its partner twice HBINT below 60 s, HBINT + 60 s from there, then "
        "ends (AMQ9259E)."
    ),
)
async def test_a_partner_that_accepts_and_never_answers_ends_the_start_with_amq9259e(
    virtual_clock: VirtualClock, silent_port: int, caplog: pytest.LogCaptureFixture
) -> None:
    conname = f"127.0.0.1({silent_port})"

    async def run() -> list[tuple[str, str]]:
        async with qsg.start(sender(conname), in_process=True) as world:
            await trio.sleep(1)
            return states(world)

    found = await within(BOUND, run)
    assert [state for state, _ in found] == ["BINDING", "STOPPED"]
    line = (
        f"AMQ9259E: Connection timed out from host '{conname}' for channel "
        f"'QM1.TO.QM3': nothing received for 1 s"
    )
    assert found[1][1] == f"retries exhausted: {line}"
    assert f"QM1: {line}" in [r.getMessage() for r in caplog.records if r.name == "qsg.channels"]


@keeps(
    "docs/channels.md",
    "| connecting to the partner's listener (TCP) | the queue manager's connect timeout |",
)
@keeps(
    "docs/channels.md",
    "A connect that does not complete within the connect timeout is a retry too, with a line "
    "modelled on AMQ9202E",
)
async def test_a_connect_that_never_completes_is_given_up_after_the_connect_timeout(
    virtual_clock: VirtualClock,
) -> None:
    # A listener whose backlog is full: the kernel drops further SYNs, so a connect to
    # it neither completes nor fails, as to a host that has gone from the network.
    with socket.create_server(("127.0.0.1", 0), backlog=0) as full:
        port = full.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port)):  # fills the backlog

            async def run() -> list[tuple[str, str]]:
                async with qsg.start(sender(f"127.0.0.1({port})"), in_process=True) as world:
                    await trio.sleep(1)
                    return states(world)

            found = await within(BOUND, run)
    assert [state for state, _ in found] == ["BINDING", "STOPPED"]
    assert found[1][1] == (
        f"retries exhausted: AMQ9202E: Remote host '127.0.0.1({port})' not available, "
        "retry later (no connection within 1 s, the connect timeout)"
    )


@keeps(
    "docs/channels.md",
    "| every flow once the channel runs, both ways (a batch, its confirmation, a heartbeat) | "
    "the receive timeout the agreed HBINT gives |",
)
@keeps("docs/channels.md", "Over TCP the bounds are **wall-clock seconds**.")
@keeps(
    "docs/channels.md",
    "the channel goes to `RETRYING` (the line is its `channel-state` event's `detail`)",
)
@keeps(
    "docs/channels.md",
    "A batch that was sent and not confirmed stays in doubt and is settled with the receiver "
    "at the next start: nothing is lost or duplicated.",
)
@keeps(
    "docs/channels.md",
    "A sender that gives up on a link closes it, so that its partner's agent of that link ends "
    "and the retry is not refused by it.",
)
@keeps(
    "docs/channels.md",
    "a receiver paused mid-batch past its 2-second receive timeout makes the sender retry, and "
    "the message arrives once when it resumes",
)
async def test_a_receiver_paused_past_the_receive_timeout_ends_the_batch_then_it_resumes(
    virtual_clock: VirtualClock,
) -> None:
    # QM3 listens on TCP; QM1 sends to it by CONNAME. HBINT(1) both ends: a 2 s receive
    # timeout. QM3 paused mid-batch answers nothing: the sender gives up on the batch
    # (in doubt), retries, and once QM3 is back the message arrives once.
    port = free_port()
    top = sender(f"127.0.0.1({port})", retries="SHORTRTY(10)")
    top.add_qmgr("QM3", listener=port)
    top.mqsc("QM3", "DEFINE QLOCAL(APP.IN)\nDEFINE CHANNEL(QM1.TO.QM3) CHLTYPE(RCVR) HBINT(1)")

    async def run() -> None:
        async with qsg.start(top, in_process=True, faults=True) as world:
            await trio.sleep(1)
            await world.pause("QM3")
            conn = await world.connect("QM1")
            remote = await conn.open("TO.QM3", CMQC.MQOO_OUTPUT)
            await remote.put(b"once", MD(), NO_SYNC)
            events = world.events.subscribe()
            async for event in events:
                if isinstance(event, ChannelStateChanged) and event.state == "RETRYING":
                    break
            await world.resume("QM3")
            qm3 = await world.connect("QM3")
            target = await qm3.open("APP.IN", CMQC.MQOO_INPUT_SHARED)
            wait = GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, WaitInterval=60_000)
            assert await target.get(None, MD(), wait) == b"once"
            await trio.sleep(30)
            with pytest.raises(qsg.MQMIError, match="2033"):
                await target.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT))
            retrying = [d for s, d in states(world) if s == "RETRYING"]
            assert retrying[0].startswith("AMQ9259E: Connection timed out from host '127.0.0.1(")
            assert retrying[0].endswith("for channel 'QM1.TO.QM3': nothing received for 2 s")
            assert len(world.events.of(ChannelDelivered)) == 1

    await within(BOUND, run)


@keeps("docs/channels.md", "(`?` when the sender never named its channel")
@keeps(
    "docs/channels.md",
    "**The receiving agent** ends that connection only (state `INACTIVE`, the line as "
    "`detail`); the listener and the queue manager go on",
)
@keeps(
    "docs/channels.md",
    "a listener closes a connection that never names its channel (connect timeout) and one "
    "that goes silent after the start (receive timeout), and lives on",
)
async def test_a_listener_closes_a_connection_that_stays_silent_with_amq9259e(
    virtual_clock: VirtualClock, caplog: pytest.LogCaptureFixture
) -> None:
    # One client never names its channel (bounded by QM3's connect timeout, 1 s); another
    # starts RCVR channel QM1.TO.QM3 (HBINT 1) and then sends nothing (bounded by its
    # receive timeout, 2 s). Each connection is closed; QM3 lives on.
    top = qsg.Topology()
    top.add_qmgr("QM3", listener=0, connect_timeout=1.0)
    top.mqsc("QM3", "DEFINE QLOCAL(APP.IN)\nDEFINE CHANNEL(QM1.TO.QM3) CHLTYPE(RCVR) HBINT(1)")

    def silent(port: int, hello: bool) -> bytes:
        with socket.create_connection(("127.0.0.1", port), timeout=BOUND) as client:
            if hello:
                flow = {"t": "hello", "channel": "QM1.TO.QM3", "from": "QM1", "hbint": 1}
                flow["seq"] = 0  # the last message it sent: none yet
                client.sendall(msgpack.packb(flow))
            received = b""
            while chunk := client.recv(4096):  # until the listener closes the connection
                received += chunk
            return received

    async def run() -> None:
        async with qsg.start(top, in_process=True) as world:
            port = int(world.conname("QM3").split("(")[1][:-1])
            answers: dict[bool, bytes] = {}

            async def client(hello: bool) -> None:
                answers[hello] = await trio.to_thread.run_sync(silent, port, hello)

            async with trio.open_nursery() as nursery:
                nursery.start_soon(client, False)
                nursery.start_soon(client, True)
            assert answers[False] == b""
            status = {"t": "status", "committed": 0, "hbint": 1, "batchsz": 50}
            assert msgpack.unpackb(answers[True]) == status
            assert world.qmgrs["QM3"].alive
            ended = [e for e in world.events.of(ChannelStateChanged) if e.state == "INACTIVE"]
            lines = sorted((e.detail for e in ended), key=lambda line: line[-3:])  # 1 s, 2 s
            assert [line.split(": ", 1)[0] for line in lines] == ["AMQ9259E"] * 2
            assert lines[0].endswith("for channel '?': nothing received for 1 s")
            assert lines[1].endswith("for channel 'QM1.TO.QM3': nothing received for 2 s")

    with caplog.at_level(logging.ERROR, logger="qsg.channels"):
        await within(BOUND, run)
    assert len([r for r in caplog.records if "AMQ9259E" in r.getMessage()]) == 2


# ---- in process: simulated seconds -------------------------------------------------------
def in_process_pair(hbint: int) -> qsg.Topology:
    top = qsg.Topology()
    top.add_qmgr("QM1")
    top.add_qmgr("QM3")
    top.mqsc(
        "QM1",
        f"""
        DEFINE QLOCAL(QM3) USAGE(XMITQ)
        DEFINE QREMOTE(TO.QM3) RNAME(APP.IN) RQMNAME(QM3) XMITQ(QM3)
        DEFINE CHANNEL(QM1.TO.QM3) CHLTYPE(SDR) CONNAME(QM3) XMITQ(QM3) HBINT({hbint}) +
               SHORTTMR(5)
    """,
    )
    top.mqsc(
        "QM3", f"DEFINE QLOCAL(APP.IN)\nDEFINE CHANNEL(QM1.TO.QM3) CHLTYPE(RCVR) HBINT({hbint})"
    )
    return top


@keeps(
    "docs/channels.md",
    "a sender with nothing on its transmission queue for HBINT seconds sends a **heartbeat "
    "flow**, and the receiver answers it",
)
@keeps("docs/channels.md", "an idle channel's heartbeats cost no wall time")
@keeps("docs/channels.md", "in process, an idle channel stays up for 100 s on heartbeats every 5 s")
async def test_an_idle_channel_keeps_its_link_alive_with_heartbeats(
    virtual_clock: VirtualClock,
) -> None:
    # HBINT(5): a 10 s receive timeout. A channel idle for 100 s stays RUNNING: the
    # sender's heartbeat every 5 s, answered, keeps both ends from timing out.
    async with qsg.start(in_process_pair(5), in_process=True) as world:
        await trio.sleep(100)
        changes = [(e.q_mgr, e.state) for e in world.events.of(ChannelStateChanged)]
        assert sorted(changes) == [("QM1", "BINDING"), ("QM1", "RUNNING"), ("QM3", "RUNNING")]


@keeps(
    "docs/channels.md", "A paused queue manager (as under SIGSTOP) neither sends nor answers one"
)
@keeps(
    "docs/channels.md",
    "In process, the bounds are **simulated seconds** like every other time of the run",
)
@keeps("docs/channels.md", "HBINT(5) 10")
@keeps(
    "docs/channels.md",
    "a receiver whose sender is paused past the receive timeout ends at the simulated second "
    "MQ's rule gives",
)
async def test_a_sender_paused_past_the_receive_timeout_is_timed_out_by_its_receiver(
    virtual_clock: VirtualClock,
) -> None:
    # A paused queue manager sends no heartbeat: after 10 s without one the receiving
    # agent ends with AMQ9259E; when QM1 wakes, its heartbeat finds the link gone and the
    # channel retries after SHORTTMR, and delivers what was put meanwhile.
    async with qsg.start(in_process_pair(5), in_process=True, faults=True) as world:
        await trio.sleep(1)
        await world.pause("QM1")
        await trio.sleep(30)
        ended = [e for e in world.events.of(ChannelStateChanged) if e.q_mgr == "QM3"]
        # Its last flow was the channel's start at 0: nothing since, so it ends at 10.
        assert [(e.time, e.state) for e in ended][-1] == (10.0, "INACTIVE")
        assert ended[-1].detail == (
            "AMQ9259E: Connection timed out from host 'its sender' "
            "for channel 'QM1.TO.QM3': nothing received for 10 s"
        )
        await world.resume("QM1")
        conn = await world.connect("QM1")
        remote = await conn.open("TO.QM3", CMQC.MQOO_OUTPUT)
        await remote.put(b"after", MD(), NO_SYNC)
        await trio.sleep(10)
        assert len(world.events.of(ChannelDelivered)) == 1
        sender_states = [e.state for e in world.events.of(ChannelStateChanged) if e.q_mgr == "QM1"]
        assert sender_states[-2:] == ["RETRYING", "RUNNING"]


@keeps(
    "docs/channels.md",
    "`Topology.add_qmgr(name, connect_timeout=S)`; in a scenario, `[qmgr.NAME] connect_timeout "
    "= S`",
)
@keeps(
    "docs/scenarios.md", "seconds its channels may take to connect and start, as sender or receiver"
)
def test_a_scenario_sets_a_queue_managers_connect_timeout_in_seconds_above_0() -> None:
    base = "[run]\nduration = 10\n[qmgr.QM1]\n"
    topology = parse_scenario(base + "connect_timeout = 2.5\n", "s.toml").topology
    assert topology.qmgrs["QM1"].connect_timeout == 2.5
    assert parse_scenario(base, "s.toml").topology.qmgrs["QM1"].connect_timeout is None
    with pytest.raises(ScenarioError, match=r"qmgr\.QM1\.connect_timeout: must be above 0"):
        parse_scenario(base + "connect_timeout = 0\n", "s.toml")


@keeps("docs/channels.md", "**HBINT** is a channel attribute, 0 to 999,999 seconds, 300 by default")
def test_hbint_is_a_channel_attribute_of_0_to_999999_seconds() -> None:
    # "DEFINE CHANNEL", HBINT: 0 through 999 999 seconds, 300 by default.
    top = in_process_pair(0)
    top.mqsc("QM3", "DEFINE CHANNEL(X) CHLTYPE(RCVR)")
    built = top.build({})
    assert built["QM1"].local.channels["QM1.TO.QM3"].heartbeat_interval == 0
    assert built["QM3"].local.channels["X"].heartbeat_interval == 300
    bad = qsg.Topology()
    bad.add_qmgr("QM1")
    with pytest.raises(MQSCError, match=r"HBINT\(1000000\): 1000000 is not in 0\.\.999999"):
        bad.mqsc("QM1", "DEFINE CHANNEL(X) CHLTYPE(RCVR) HBINT(1000000)")


@pytest.mark.slow
def test_a_sender_killed_before_its_hello_leaves_no_receiver_waiting_for_it() -> None:
    # Campaign seed 1's run 107 (bench/RESULTS.md, issue 26): QM1 restarted and was
    # killed at the same instant, its channel's in-process link made but its hello not
    # sent; QM4's receiving agent waited for the hello until its connect timeout and
    # ended with AMQ9259E. The link now goes with the sender that never spoke on it.
    scenario = load_scenario(
        Path(__file__).resolve().parent.parent / "scenarios" / "chaos-qsg.toml"
    )
    outcome = run_one(scenario, 1817195120, keep=True)
    assert outcome.ok and outcome.result is not None
    timed_out = [
        e
        for e in outcome.result.events
        if isinstance(e, ChannelStateChanged) and "AMQ9259E" in e.detail
    ]
    assert timed_out == []
