"""The command server: each queue manager's task that serves its command input queue.

As on z/OS, a queue manager's command server reads SYSTEM.COMMAND.INPUT, which
SYSTEM.ADMIN.COMMAND.QUEUE (the name PCF tools use on every platform) is an alias of. A
request in PCF (MQFMT_ADMIN) is answered in PCF (``qsg.mqsc.pcf``), one reply message per
object, the last with MQCFC_LAST; a request in MQSC text (MQFMT_STRING) is answered
with the reply's lines, one message each, after a CSQN205I count. Replies go to the
request's ReplyToQ and ReplyToQMgr with the request's MsgId as their CorrelId.

A queue manager's command server starts with the first message put to its command
input queue (``Starter`` watches the event stream for it) and then serves that life of
the queue manager: a world nobody administers has no command server task, so its runs
and their event logs are what they were before the command server existed. Its work,
like any command's, costs no simulated time beyond the MQI calls' own.
"""

from __future__ import annotations

from typing import Protocol

from actors import admin
from actors.events import MessagePut, WorldEvent
from actors.mqi import Connection
from actors.qmgr import QueueManager
from qsg import CMQC
from qsg.core.errors import MQMIError
from qsg.core.objects import AliasQueue
from qsg.core.qmgr import QMgr
from qsg.core.queue import QueueDefinition
from qsg.core.structs import GMO, MD, OD, PMO
from qsg.mqsc import pcf_commands

COMMAND_INPUT = "SYSTEM.COMMAND.INPUT"
ADMIN_QUEUE = "SYSTEM.ADMIN.COMMAND.QUEUE"
REPLY_MODEL = "SYSTEM.COMMAND.REPLY.MODEL"


def define_queues(qm: QMgr) -> None:
    """The command server's queues, as z/OS's CSQ4INSG defines them, unless the
    topology defined them already."""
    if qm.find(COMMAND_INPUT) is None:
        qm.define(QueueDefinition(COMMAND_INPUT, max_depth=999_999_999))
    if qm.find(ADMIN_QUEUE) is None:
        qm.define(AliasQueue(ADMIN_QUEUE, COMMAND_INPUT))
    if qm.find(REPLY_MODEL) is None:
        qm.define(
            QueueDefinition(
                REPLY_MODEL, q_type=CMQC.MQQT_MODEL, definition_type=CMQC.MQQDT_TEMPORARY_DYNAMIC
            )
        )


class Commanded(admin.Administered, Protocol):
    """What a command server uses of its world: what the administration of a queue
    manager reads (``admin.Administered``) and MQCONN, for its own connection."""

    async def connect(self, q_mgr: str, user: str | None = None) -> Connection: ...


class Starter:
    """Starts each queue manager's command server, once a life, when a message is put to
    its command input queue (an ``EventLog`` listener), in ``world``."""

    def __init__(self, world: Commanded) -> None:
        self.world = world
        self.qmgrs = world.qmgrs
        self._started: dict[str, int] = {}  # queue manager -> the life it serves

    def saw(self, event: WorldEvent) -> None:
        if isinstance(event, MessagePut) and event.queue == COMMAND_INPUT:
            qm = self.qmgrs.get(event.q_mgr)
            if qm is not None:
                self._start(qm)

    def restarted(self, qm: QueueManager) -> None:
        """A new life of ``qm``: commands left on its queue are served now."""
        if qm.rules.local.store.depth(COMMAND_INPUT):
            self._start(qm)

    def _start(self, qm: QueueManager) -> None:
        if not qm.alive or self._started.get(qm.name) == qm.incarnation:
            return
        self._started[qm.name] = qm.incarnation
        qm.nursery.start_soon(serve, qm, self.world)


async def serve(qm: QueueManager, world: Commanded) -> None:
    """Serve ``qm``'s command input queue, in ``world``, for this life of the queue
    manager."""
    conn = await world.connect(qm.name, user="CSQ9CMDS")
    queue = await conn.open(COMMAND_INPUT, CMQC.MQOO_INPUT_SHARED)
    while True:
        md = MD()
        gmo = GMO(
            Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, WaitInterval=CMQC.MQWI_UNLIMITED
        )
        body = await queue.get(None, md, gmo)
        await _answer(qm, world, conn, md, body)


async def _answer(
    qm: QueueManager, world: Commanded, conn: Connection, md: MD, body: bytes
) -> None:
    if md.Format == CMQC.MQFMT_STRING:
        reply = await admin.command(world, qm.name, body.decode("utf-8", "replace"))
        count = len(reply.lines) + 1
        code = "0000000C" if reply.failed else "00000000"
        head = f"CSQN205I   COUNT={count:>6}, RETURN={code}, REASON=00000000"
        bodies = [(head.encode(), CMQC.MQFMT_STRING)]
        bodies += [(line.encode(), CMQC.MQFMT_STRING) for line in reply.lines]
    else:
        snapshot = await admin.snapshot(world, qm.name)
        replies = await qm.dispatch(
            lambda now: pcf_commands.process(body, md.Encoding, qm.rules, snapshot), system=True
        )
        bodies = [(reply, CMQC.MQFMT_ADMIN) for reply in replies]
    if not md.ReplyToQ.strip(b" \0"):
        return  # nowhere to answer: the command ran, its reply is dropped, as MQ does
    # MQRO_PASS_DISCARD_AND_EXPIRY (pymqi's PCFExecute asks for it): a reply lives no
    # longer than what was left of the request's Expiry.
    passed = md.Report & CMQC.MQRO_PASS_DISCARD_AND_EXPIRY
    expiry = md.Expiry if passed else CMQC.MQEI_UNLIMITED
    try:
        target = await conn.open(
            OD(ObjectName=md.ReplyToQ, ObjectQMgrName=md.ReplyToQMgr), CMQC.MQOO_OUTPUT
        )
        try:
            for data, fmt in bodies:
                reply_md = MD(
                    MsgType=CMQC.MQMT_REPLY,
                    Format=fmt,
                    CorrelId=md.MsgId,
                    Encoding=md.Encoding,
                    Persistence=md.Persistence,
                    Priority=md.Priority,
                    Expiry=expiry,
                )
                await target.put(data, reply_md, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT))
        finally:
            await target.close()
    except MQMIError:
        return  # the reply queue is gone or full: the reply is lost, not the server


__all__ = ["ADMIN_QUEUE", "COMMAND_INPUT", "REPLY_MODEL", "Starter", "define_queues", "serve"]
