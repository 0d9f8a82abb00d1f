"""A world that keeps no history makes the records of a message's put and get only
for whoever would hear them (``EventLog.wanted``): a subscriber, a sink, a listener of
that kind of event on that queue. Nothing else about the MQI call changes, and the
command server, which starts on a put to its input queue, still starts."""

from __future__ import annotations

import trio

import qsg
from actors.clock import VirtualClock
from actors.events import EventLog, MessageGot, MessagePut, UnitOfWorkEnded, WorldEvent
from qsg import CMQC, GMO, MD, PMO
from tests.claims import keeps
from tests.test_pcf_command_server import MQCMD_PING_Q_MGR, admin_of, request
from tests.worlds import qsg_and_qm3

NO_SYNC = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
GET_NO_SYNC = GMO(Options=CMQC.MQGMO_NO_SYNCPOINT)


def _put(queue: str) -> MessagePut:
    return MessagePut(1.0, "QM1", queue, b"M" * 24, 10, False, False, -1, "app")


@keeps("docs/speed.md", "A long run with `keep_events=False` and nobody watching makes none")
def test_a_log_that_keeps_nothing_and_that_nobody_hears_wants_no_record_of_a_put() -> None:
    log = EventLog(keep=False)
    assert not log.wanted(MessagePut, "APP.LOCAL")
    assert not log.wanted(MessageGot, "APP.LOCAL")
    assert EventLog(keep=True).wanted(MessagePut, "APP.LOCAL")
    assert EventLog(keep=False, sink=lambda event: None).wanted(MessagePut, "APP.LOCAL")
    log.subscribe()
    assert log.wanted(MessageGot, "APP.LOCAL")


@keeps(
    "docs/speed.md",
    "listens to that queue's puts only, so it does not make every other put's record wanted",
)
def test_a_listener_of_one_queue_hears_that_queues_puts_only() -> None:
    log = EventLog(keep=False)
    heard: list[WorldEvent] = []
    log.listen(heard.append, MessagePut, queue="SYSTEM.COMMAND.INPUT")
    assert log.wanted(MessagePut, "SYSTEM.COMMAND.INPUT")
    assert not log.wanted(MessagePut, "APP.LOCAL")
    assert not log.wanted(MessageGot, "SYSTEM.COMMAND.INPUT")
    log.emit(_put("APP.LOCAL"))
    log.emit(_put("SYSTEM.COMMAND.INPUT"))
    log.emit(UnitOfWorkEnded(1.0, "QM1", 1, True))
    assert [e.queue for e in heard if isinstance(e, MessagePut)] == ["SYSTEM.COMMAND.INPUT"]
    assert len(heard) == 1
    log.listen(heard.append, MessagePut)  # a listener of every queue's puts
    assert log.wanted(MessagePut, "APP.LOCAL")


@keeps("docs/world.md", "(`keep_events=False` keeps none)")
async def test_a_subscriber_of_a_world_that_keeps_no_history_sees_every_put_and_get(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(qsg_and_qm3(), in_process=True, keep_events=False) as world:
        seen = world.events.subscribe()
        conn = await world.connect("QM1")
        q = await conn.open("APP.SHARED", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
        for n in range(3):
            await q.put(b"m%d" % n, MD(), NO_SYNC)
        for _ in range(3):
            await q.get(None, MD(), GET_NO_SYNC)
        assert world.events.history == []
        kinds = []
        while True:
            try:
                kinds.append(type(seen.receive_nowait()).__name__)
            except trio.WouldBlock:
                break
        assert [k for k in kinds if k in ("MessagePut", "MessageGot")] == ["MessagePut"] * 3 + [
            "MessageGot"
        ] * 3


@keeps(
    "docs/speed.md",
    "the command server, which starts when a command is put to SYSTEM.COMMAND.INPUT",
)
async def test_the_command_server_answers_in_a_world_that_keeps_no_history(
    virtual_clock: VirtualClock,
) -> None:
    # The command server starts when a command is put to its input queue: it hears that
    # put through a listener of that queue, wanted even when nothing else is.
    async with (
        qsg.start(qsg_and_qm3(), in_process=True, keep_events=False) as world,
        admin_of(world, "QM1") as admin,
    ):
        replies = await admin.ask(request(MQCMD_PING_Q_MGR))
        assert [(h[3], h[6]) for h, _ in replies] == [(MQCMD_PING_Q_MGR, 0)]
