"""The program's MQI calls in a chaos run's history (``qsg exec --check``).

When the world keeps a history (``World.history``), the scenario's applications record
each put, get, commit and backout as an invocation and a completion, so that the chaos
checkers can judge what became of every message. The program's calls are recorded the
same way, each connection as one application (``pymqi QM1#3``: its queue manager and
connection number), so that a pymqi consumer's gets count as deliveries and its
commits as their end; MQDISC counts as the commit it makes.

A put names its MsgId before the call when the program chose one; when the queue
manager makes it (MQMI_NONE, the usual case), the invocation is recorded once the put
has returned it. A put that fails without a MsgId records only the failure (which, for
a lost connection, abandons the unit of work, as it does for the scenario's own
applications). The persistence recorded is the MD's; a put with
MQPER_PERSISTENCE_AS_Q_DEF is persistent or not as the queue's DEFPSIST makes it, which
the history reads from the put's ``MessagePut`` event (``qsg.chaos.history``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

import trio

from actors.events import OpCompleted, OpInvoked
from actors.history import UNKNOWN, recorded
from qsg.core import engine
from qsg.core.errors import MQMIError
from qsg.core.store import Syncpoint
from qsg.core.structs import GMO, MD, PMO
from qsg.pymqi import CMQC

if TYPE_CHECKING:
    from actors.mqi import Connection

T = TypeVar("T")

_BROWSE = CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_BROWSE_NEXT | CMQC.MQGMO_BROWSE_MSG_UNDER_CURSOR


def app_name(conn: Connection) -> str:
    """The application a connection is in the history."""
    return f"pymqi {conn.q_mgr_name}#{conn.conn.number}"


async def put(
    conn: Connection, queue: str, call: Callable[[], Awaitable[T]], md: MD, pmo: PMO
) -> T:
    """``call()`` (an MQPUT or MQPUT1 of ``md``), recorded if the world keeps a history."""
    world = conn.qm.world
    if not world.history:
        return await call()
    platform = conn.qm.rules.rules.platform
    syncpoint = engine.put_in_syncpoint(pmo.Options, platform)
    q_mgr, app = conn.q_mgr_name, app_name(conn)
    if md.MsgId != CMQC.MQMI_NONE:
        return await recorded(
            world, call, q_mgr=q_mgr, app=app, op="put", queue=queue, md=md, syncpoint=syncpoint
        )
    emit = world.events.emit
    try:
        result = await call()
    except MQMIError as error:
        now = trio.current_time()
        emit(OpInvoked(now, q_mgr, app, "put", queue, syncpoint=syncpoint))
        outcome = "unknown" if error.reason in UNKNOWN else "fail"
        emit(OpCompleted(now, q_mgr, app, "put", queue, outcome, error.reason))
        raise
    now = trio.current_time()
    persistent = md.Persistence == CMQC.MQPER_PERSISTENT
    emit(
        OpInvoked(
            now, q_mgr, app, "put", queue, md.MsgId, persistent, md.Expiry, md.Report, syncpoint
        )
    )
    emit(OpCompleted(now, q_mgr, app, "put", queue, "ok"))
    return result


async def get(
    conn: Connection, queue: str, call: Callable[[], Awaitable[T]], md: MD, gmo: GMO
) -> T:
    """``call()`` (an MQGET into ``md``), recorded if the world keeps a history; a
    browse is not a delivery and is not recorded."""
    world = conn.qm.world
    if not world.history or gmo.Options & _BROWSE:
        return await call()
    platform = conn.qm.rules.rules.platform
    syncpoint = engine.get_syncpoint(gmo.Options, platform) is not Syncpoint.NO
    return await recorded(
        world,
        call,
        q_mgr=conn.q_mgr_name,
        app=app_name(conn),
        op="get",
        queue=queue,
        md=md,
        syncpoint=syncpoint,
    )


async def end_unit_of_work(conn: Connection, *, commit: bool) -> None:
    """MQCMIT or MQBACK, recorded if the world keeps a history."""
    await _ending(conn, conn.commit if commit else conn.backout, commit=commit)


async def disconnect(conn: Connection) -> None:
    """MQDISC, recorded if the world keeps a history as the commit it makes: for a unit
    of work the queue manager coordinates, MQDISC issues MQCMIT on the application's
    behalf ("MQDISC - Disconnect queue manager"), so what the program put in syncpoint
    is acknowledged (and what it got is delivered) though it never called MQCMIT."""
    await _ending(conn, conn.disconnect, commit=True)


async def _ending(conn: Connection, call: Callable[[], Awaitable[None]], *, commit: bool) -> None:
    world = conn.qm.world
    # A unit of work with nothing in it ends with nothing to record (a connection that
    # only administered, PCFExecute's, has nothing in the history).
    if not world.history or not conn.conn.uow.stores:
        await call()
        return
    await recorded(
        world,
        call,
        q_mgr=conn.q_mgr_name,
        app=app_name(conn),
        op="commit" if commit else "backout",
        queue="",
    )


__all__ = ["app_name", "disconnect", "end_unit_of_work", "get", "put"]
