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

Nothing a request does ends it. A command that fails inside the queue manager is
answered (CSQ9023E, or MQRCCF_COMMAND_FAILED in PCF) and recorded (``admin.failed``).
When its MQGET fails (its own queue made GET(DISABLED), by PCF or MQSC), it says so once
in the log (CSQN203I with the reason) and tries again every ``RETRY_INTERVAL`` seconds,
as MQ's reason code 2016 advises ("retry the operation later"): once gets are allowed
again it serves what was put meanwhile.
"""

from __future__ import annotations

from typing import Protocol

from actors import admin, clock
from actors.events import MessagePut, WorldEvent
from actors.mqi import Connection
from actors.qmgr import QueueManager
from qsg import CMQC
from qsg import CMQCFC as F
from qsg.core.errors import MQMIError
from qsg.core.objects import AliasQueue
from qsg.core.qmgr import QMgr
from qsg.core.queue import QueueDefinition
from qsg.core.structs import GMO, MD, OD, PMO
from qsg.mqsc import pcf_commands, pcf_scope
from qsg.mqsc.commands import Reply

COMMAND_INPUT = "SYSTEM.COMMAND.INPUT"
ADMIN_QUEUE = "SYSTEM.ADMIN.COMMAND.QUEUE"
REPLY_MODEL = "SYSTEM.COMMAND.REPLY.MODEL"
#: Simulated seconds between the command server's tries of an MQGET that failed.
RETRY_INTERVAL = 1.0


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
    failing = 0  # the reason the last MQGET failed with, while it fails
    while True:
        md = MD()
        gmo = GMO(
            Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, WaitInterval=CMQC.MQWI_UNLIMITED
        )
        try:
            body = await queue.get(None, md, gmo)
        except MQMIError as error:
            if error.reason != failing:
                admin.log.error(
                    "%s: CSQN203I API COMPLETION CODE=%d, REASON CODE=%d (MQGET of %s): "
                    "the command server tries again every %g s",
                    qm.name,
                    error.comp,
                    error.reason,
                    COMMAND_INPUT,
                    RETRY_INTERVAL,
                )
                failing = error.reason
            await clock.sleep(RETRY_INTERVAL)
            continue
        failing = 0
        await _answer(qm, world, conn, md, body)


async def _answer(
    qm: QueueManager, world: Commanded, conn: Connection, md: MD, body: bytes
) -> None:
    if md.Format == CMQC.MQFMT_STRING:
        reply = await admin.command(world, qm.name, body.decode("utf-8", "replace"))
        bodies = [(line.encode(), CMQC.MQFMT_STRING) for line in _counted(reply)]
    else:
        first = pcf_scope.set_ids(md.MsgId, 1)[0]
        try:
            scope = pcf_scope.command_scope(body, md.Encoding)
            if scope and scope != qm.name:
                replies = await _scoped(qm, world, body, md, scope)
            else:
                replies = await _process(qm, world, body, md.Encoding, first)
        except Exception as error:  # a defect: answered and recorded, the server goes on
            admin.failed(world, qm.name, pcf_commands.describe(body, md.Encoding), error)
            replies = [pcf_commands.command_failed(body, md.Encoding, qm.name, first)]
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


async def _process(
    qm: QueueManager,
    world: Commanded,
    body: bytes,
    encoding: int,
    response_id: bytes,
    *,
    scoped: bool = False,
) -> list[bytes]:
    """One queue manager's replies to a PCF request, what the world does after it
    done (``admin.structure_commanded``)."""
    snapshot = await admin.snapshot(world, qm.name)

    def run(now: float) -> list[bytes]:
        return pcf_commands.process(
            body, encoding, qm.rules, snapshot, response_id=response_id, scoped=scoped
        )

    replies = await qm.dispatch(run, system=True)
    admin.defined(world)  # a DEFINE of SYSTEM.QSG.TRANSMIT.QUEUE: its agents start
    changed = pcf_commands.structure_changed(body, encoding, replies)
    if changed is not None:
        await admin.structure_commanded(world, qm, *changed)
    return replies


async def _scoped(
    qm: QueueManager, world: Commanded, body: bytes, md: MD, scope: str
) -> list[bytes]:
    """The response sets to a PCF request whose CommandScope (``scope``: "*" or a
    member's name) is not ``qm`` alone (``qsg.mqsc.pcf_scope``): run on each member it
    names that is active, as the MQSC console's CMDSCOPE runs (``admin.command``)."""
    encoding, group = md.Encoding, qm.rules.qsg
    first = pcf_scope.set_ids(md.MsgId, 1)[0]
    wrong = pcf_scope.scope_error(body, encoding, scope)
    if wrong is not None:  # a CommandScope the command does not take: sent nowhere
        return pcf_scope.refused(body, encoding, qm.name, first, wrong)
    if group is None:
        return pcf_scope.refused(body, encoding, qm.name, first, F.MQRCCF_Q_MGR_NOT_IN_QSG)
    if pcf_scope.conflict(body, encoding):
        return pcf_scope.refused(body, encoding, qm.name, first, F.MQRCCF_DISPOSITION_CONFLICT)
    members = [m for m in group.members if m in world.qmgrs]
    active = [m for m in members if admin.responding(world.qmgrs[m])]
    if scope != "*" and scope not in active:
        return pcf_scope.refused(body, encoding, qm.name, first, CMQC.MQRC_Q_MGR_NOT_AVAILABLE)
    targets = active if scope == "*" else [scope]
    ids = pcf_scope.set_ids(md.MsgId, len(targets) + 2)
    request = pcf_scope.extended(body, encoding)
    sets = {
        member: await _process(
            world.qmgrs[member], world, request, encoding, ids[1 + number], scoped=True
        )
        for number, member in enumerate(targets)
    }
    return pcf_scope.gathered(request, encoding, qm.name, ids, sets)


def _counted(reply: Reply) -> list[str]:
    """A reply's lines as the command server sends them to a program, set by set, each
    after its CSQN205I count (IBM, "Interpreting the reply messages from the command
    server"): "If the RETURN= value is 00000000 and the REASON= value is 00000004, the
    set of reply messages is incomplete": a command sent with CMDSCOPE answers a set
    per block (``Reply.sets``: CSQN137I, each member's, the CSQN122I or CSQN123E that
    ends it), REASON=00000004 on all but the last."""
    sets = reply.sets()
    out: list[str] = []
    for number, lines in enumerate(sets, start=1):
        code = "0000000C" if reply.failed and number == len(sets) else "00000000"
        reason = "00000000" if number == len(sets) else "00000004"
        out.append(f"CSQN205I   COUNT={len(lines) + 1:>8}, RETURN={code}, REASON={reason}")
        out += lines
    return out


__all__ = [
    "ADMIN_QUEUE",
    "COMMAND_INPUT",
    "REPLY_MODEL",
    "RETRY_INTERVAL",
    "Starter",
    "define_queues",
    "serve",
]
