"""The history of a chaos run: every client operation as an invocation and a completion.

In the manner of Jepsen, a client records what it asked for before asking
(``OpInvoked``), and what came back (``OpCompleted``): "ok", "fail" when MQ answered with
a reason code that says the call did nothing, or "unknown" when the call was cut off by a
fault (MQRC_CONNECTION_BROKEN, MQRC_CF_STRUC_FAILED, or the task cancelled mid-call):
such a put, get or commit may or may not have happened, and a checker must allow both.
A put names its MsgId before the put (the client chooses it: ``World.new_msg_id``), so
an unknown put can still be recognised if its message comes out.

A task's call is recorded around its await (``recorded``); a built-in application's
call, a program's instruction (``actors.program``), is recorded around its ``yield``
(``recording``), so that the virtual clock can make it as a task would: the invocation
when the call is made, the completion when its result (or error) comes back.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

import trio

from actors import program
from actors.events import EventLog, OpCompleted, OpInvoked
from actors.program import Call, Program
from qsg import CMQC
from qsg.core.errors import MQMIError
from qsg.core.structs import MD

T = TypeVar("T")

#: Reasons after which the outcome of the call is not known.
UNKNOWN = frozenset({CMQC.MQRC_CONNECTION_BROKEN, CMQC.MQRC_CF_STRUC_FAILED})


@dataclass(frozen=True, slots=True)
class FinalState:
    """What the queues hold when a run ends (``World.final_state``), read without MQGET:
    where each message is (MsgId to "QM1 APP.LOCAL" or "QSG1 APP.ORDERS"), counting what
    backing out every unit of work in flight would leave (``MessageStore.contents``),
    and the stores that could not be read (a QSG's coupling facility, down or cut off at
    the end), each with why. A message there is not lost: it is still on a queue (or on
    its queue manager's page sets, if that one is down)."""

    time: float
    places: dict[bytes, str] = field(default_factory=dict)
    unread: dict[str, str] = field(default_factory=dict)  # owner (QSG, queue manager) -> why


class HistoryKeeper(Protocol):
    """What recording uses of the world: whether it keeps a history, and the event
    stream the history goes into."""

    @property
    def history(self) -> bool: ...
    @property
    def events(self) -> EventLog: ...


async def recorded(
    world: HistoryKeeper,
    call: Callable[[], Awaitable[T]],
    *,
    q_mgr: str,
    app: str,
    op: str,
    queue: str,
    md: MD | None = None,
    syncpoint: bool = False,
) -> T:
    """``await call()``, recorded in the history when the world keeps one. ``md`` is the
    put's descriptor (read before the call) or the get's (read after it)."""
    if not world.history:
        return await call()
    emit = world.events.emit
    emit(_invoked(trio.current_time(), q_mgr, app, op, queue, md, syncpoint))
    try:
        result = await call()
    except MQMIError as error:
        emit(_failed(trio.current_time(), q_mgr, app, op, queue, error))
        raise
    except BaseException:  # cancelled mid-call: it may have happened
        emit(OpCompleted(trio.current_time(), q_mgr, app, op, queue, "unknown"))
        raise
    emit(_completed(trio.current_time(), q_mgr, app, op, queue, md))
    return result


def recording(
    world: HistoryKeeper,
    work: Call[T] | Program[T],
    *,
    q_mgr: str,
    app: str,
    op: str,
    queue: str,
    md: MD | None = None,
    syncpoint: bool = False,
) -> Program[T]:
    """The program of ``work`` (an MQI call, or a program of them), recorded in the
    history as ``recorded`` records a task's call: made by a task or by the clock, the
    same events at the same times."""
    emit = world.events.emit
    emit(_invoked(program.now(), q_mgr, app, op, queue, md, syncpoint))
    try:
        if isinstance(work, Call):
            result: T = yield work
        else:
            result = yield from work
    except MQMIError as error:
        emit(_failed(program.now(), q_mgr, app, op, queue, error))
        raise
    except BaseException:  # cancelled mid-call: it may have happened
        emit(OpCompleted(program.now(), q_mgr, app, op, queue, "unknown"))
        raise
    emit(_completed(program.now(), q_mgr, app, op, queue, md))
    return result


def _invoked(
    now: float, q_mgr: str, app: str, op: str, queue: str, md: MD | None, syncpoint: bool
) -> OpInvoked:
    put = op == "put" and md is not None
    return OpInvoked(
        now,
        q_mgr,
        app,
        op,
        queue,
        md.MsgId if put and md is not None else b"",
        put and md is not None and md.Persistence == CMQC.MQPER_PERSISTENT,
        md.Expiry if put and md is not None else -1,
        md.Report if put and md is not None else 0,
        syncpoint,
    )


def _failed(now: float, q_mgr: str, app: str, op: str, queue: str, error: MQMIError) -> OpCompleted:
    outcome = "unknown" if error.reason in UNKNOWN else "fail"
    return OpCompleted(now, q_mgr, app, op, queue, outcome, error.reason)


def _completed(now: float, q_mgr: str, app: str, op: str, queue: str, md: MD | None) -> OpCompleted:
    if md is None:
        return OpCompleted(now, q_mgr, app, op, queue, "ok")
    return OpCompleted(
        now,
        q_mgr,
        app,
        op,
        queue,
        "ok",
        0,
        md.MsgId,
        md.Expiry,
        md.GroupId,
        md.MsgSeqNumber,
        md.BackoutCount,
    )


__all__ = ["UNKNOWN", "FinalState", "HistoryKeeper", "recorded", "recording"]
