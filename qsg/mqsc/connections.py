"""DISPLAY CONN: a queue manager's connections and their handles, as the rules layer
knows them (``qsg.core.connection``).

A ``ConnectionView`` is one connection at the command's moment: who connected (USERID,
APPLTAG), its connection tag and the one MQCNO option qsg keeps (the tag's), whether its
unit of work has anything in it, and its open handles. ``candidates`` turns them into
DISPLAY's records, one per connection for TYPE(CONN), one per handle for TYPE(HANDLE),
both for TYPE(ALL) (IBM: "DISPLAY CONN"). The connection identifier is 24 bytes, as on
z/OS: EXTCONN its first 16 (``CSQC``, the queue manager's name and its incarnation),
CONN its last 8 (the connection's number); MQSC shows both in hex.

The unit of work's fields come from the connection's own (``qsg.core.uow``): UOWSTATE,
UOWSTDA/UOWSTTI when its first MQPUT or MQGET was made, UOWLOGDA/UOWLOGTI when it first
wrote to the log (its first persistent message), QMURID its unit-of-recovery identifier
(16 hex digits, as z/OS shows an 8-byte log RBA; zeros with no unit of work), URTYPE
QMGR (qsg has no external coordinator); dates and times are the simulated clock's, from
the queue manager's epoch. A handle's HSTATE is ACTIVE while an MQGET with MQGMO_WAIT
waits on it (IBM: "this condition can arise when an MQGET WAIT call is in progress").

What qsg does not know is not shown: ASID (no address spaces), CHANNEL and CONNAME (an
application's connection is not tied to a channel), ASTATE (no asynchronous consumers).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

from qsg import CMQC
from qsg.core.connection import Connection
from qsg.core.handle import Handle
from qsg.core.qmgr import QMgr

#: One record's attributes, as ``qsg.mqsc.attributes`` has them (not imported: that
#: module reads the snapshot, which holds these views).
Attributes = list[tuple[str, str | int | None]]
#: QSGDISP's words by MQQSGD_*.
QSGDISP = {
    CMQC.MQQSGD_Q_MGR: "QMGR",
    CMQC.MQQSGD_SHARED: "SHARED",
    CMQC.MQQSGD_GROUP: "GROUP",
    CMQC.MQQSGD_COPY: "COPY",
}
#: The reply message of DISPLAY CONN (IBM's CSQM201I).
MESSAGE = "CSQM201I"
#: TYPE(...) DISPLAY CONN takes, CONN the default; * is ALL.
TYPES = ("CONN", "HANDLE", "ALL", "*")
#: The MQCNO options a connection keeps: those of its connection tag.
TAG_OPTIONS = {
    CMQC.MQCNO_SERIALIZE_CONN_TAG_Q_MGR: "MQCNO_SERIALIZE_CONN_TAG_Q_MGR",
    CMQC.MQCNO_SERIALIZE_CONN_TAG_QSG: "MQCNO_SERIALIZE_CONN_TAG_QSG",
    CMQC.MQCNO_RESTRICT_CONN_TAG_Q_MGR: "MQCNO_RESTRICT_CONN_TAG_Q_MGR",
    CMQC.MQCNO_RESTRICT_CONN_TAG_QSG: "MQCNO_RESTRICT_CONN_TAG_QSG",
}


@dataclass(frozen=True, slots=True)
class HandleOnConnection:
    """One open handle of a connection (DISPLAY CONN TYPE(HANDLE))."""

    object_name: str  # the object opened: an alias's name, not its target's
    qsg_disp: int  # the queue's MQQSGD_*
    options: int  # the MQOO_* it is open with (MQOO_INPUT_AS_Q_DEF resolved)
    active: bool = False  # HSTATE(ACTIVE): an MQGET with MQGMO_WAIT is waiting on it


@dataclass(frozen=True, slots=True)
class ConnectionView:
    """One connection of a queue manager at the command's moment."""

    connection_id: bytes  # 24 bytes: EXTCONN (16) then CONN (8)
    user: str
    appl_tag: str
    in_unit_of_work: bool  # UOWSTATE(ACTIVE): puts or gets not yet committed
    tag: bytes  # the connection tag (MQCNO ConnTag) without its trailing zeros; b"" for none
    options: int  # the connection tag's MQCNO option; MQCNO_NONE without one
    handles: tuple[HandleOnConnection, ...] = ()
    started: tuple[str, str] = ("", "")  # UOWSTDA, UOWSTTI: its unit of work's start
    logged: tuple[str, str] = ("", "")  # UOWLOGDA, UOWLOGTI: its first log write
    recovery_id: bytes = bytes(8)  # QMURID: the unit of recovery's 8 bytes; zeros for none

    @property
    def conn(self) -> str:
        return self.connection_id[16:].hex().upper()

    @property
    def extconn(self) -> str:
        return self.connection_id[:16].hex().upper()


def connection_id(q_mgr: str, incarnation: int, number: int) -> bytes:
    """The 24-byte identifier of connection ``number`` of ``q_mgr`` in its life
    ``incarnation``."""
    prefix = b"CSQC" + q_mgr.encode()[:8].ljust(8) + (incarnation % 2**32).to_bytes(4, "big")
    return prefix + (number % 2**64).to_bytes(8, "big")


def open_connections(qm: QMgr) -> tuple[ConnectionView, ...]:
    """The connections of ``qm`` that are still connected, in the order they came."""
    return tuple(_view(qm, conn) for conn in qm.connections.values() if conn.connected)


def _view(qm: QMgr, conn: Connection) -> ConnectionView:
    use, uow = conn.tag_use, conn.uow
    return ConnectionView(
        connection_id(qm.name, qm.incarnation, conn.number),
        conn.user,
        conn.identity.appl_name.decode(errors="replace").rstrip(),
        uow.started_at is not None,
        use.tag if use is not None else b"",
        use.option if use is not None else CMQC.MQCNO_NONE,
        tuple(_handle(h) for h in conn.handles if h.open),
        date_and_time(qm.epoch, uow.started_at),
        date_and_time(qm.epoch, uow.logged_at),
        (uow.recovery_id % 2**64).to_bytes(8, "big"),
    )


def _handle(handle: Handle) -> HandleOnConnection:
    definition = handle.repository.queues[handle.queue]
    name = handle.opened.name if handle.opened is not None else handle.name
    return HandleOnConnection(name, definition.qsg_disp, handle.options, handle.waiting > 0)


def date_and_time(epoch: datetime, at: float | None) -> tuple[str, str]:
    """A simulated time as z/OS's displays show a date and a time: yyyy-mm-dd and
    hh.mm.ss, ``at`` seconds after the queue manager's ``epoch``; blanks for None."""
    if at is None:
        return "", ""
    moment = epoch + timedelta(seconds=at)
    return moment.strftime("%Y-%m-%d"), moment.strftime("%H.%M.%S")


# ---- DISPLAY CONN ------------------------------------------------------------------
def candidates(
    kind: str, connections: tuple[ConnectionView, ...]
) -> Iterator[tuple[str, str, Attributes]]:
    """DISPLAY CONN's records for TYPE(``kind``) ("" is CONN): (message, CONN, attributes)."""
    for view in connections:
        if kind in ("", "CONN", "ALL", "*"):
            yield MESSAGE, view.conn, connection(view)
        if kind in ("HANDLE", "ALL", "*"):
            for handle in view.handles:
                yield MESSAGE, view.conn, handle_attributes(view, handle)


def connection(view: ConnectionView) -> Attributes:
    """TYPE(CONN): the connection's own attributes."""
    return [
        ("CONN", view.conn),
        ("EXTCONN", view.extconn),
        ("TYPE", "CONN"),
        ("APPLTAG", view.appl_tag),
        ("APPLTYPE", "USER"),
        ("CONNOPTS", connect_options(view.options)),
        ("CONNTAG", view.tag.decode(errors="replace")),
        ("QMURID", view.recovery_id.hex().upper()),
        ("UOWLOGDA", view.logged[0]),
        ("UOWLOGTI", view.logged[1]),
        ("UOWSTATE", "ACTIVE" if view.in_unit_of_work else "NONE"),
        ("UOWSTDA", view.started[0]),
        ("UOWSTTI", view.started[1]),
        ("URTYPE", "QMGR"),
        ("USERID", view.user),
    ]


def handle_attributes(view: ConnectionView, handle: HandleOnConnection) -> Attributes:
    """TYPE(HANDLE): one open handle of the connection."""
    return [
        ("CONN", view.conn),
        ("EXTCONN", view.extconn),
        ("TYPE", "HANDLE"),
        ("HSTATE", "ACTIVE" if handle.active else "INACTIVE"),
        ("OBJNAME", handle.object_name),
        ("OBJTYPE", "QUEUE"),
        ("OPENOPTS", open_options(handle.options)),
        ("QSGDISP", QSGDISP[handle.qsg_disp]),
    ]


def connect_options(options: int) -> str:
    """CONNOPTS as MQSC lists it: the MQCNO names, comma-separated."""
    names = [name for bit, name in TAG_OPTIONS.items() if options & bit]
    return ",".join(names) or "MQCNO_NONE"


def open_options(options: int) -> str:
    """OPENOPTS as MQSC lists it: the MQOO names in the order of their bits."""
    return ",".join(name for bit, name in _OPEN_OPTIONS if options & bit)


#: Each MQOO_* bit and its name (MQOO_RESOLVE_LOCAL_Q, not its topic twin).
_OPEN_OPTIONS = sorted(
    (value, name)
    for name, value in vars(CMQC).items()
    if name.startswith("MQOO_")
    and isinstance(value, int)
    and value > 0
    and value & (value - 1) == 0
    and name != "MQOO_RESOLVE_LOCAL_TOPIC"
)
#: The keywords DISPLAY CONN shows (and WHERE may test).
KEYWORDS = frozenset(
    k
    for attrs in (
        connection(ConnectionView(bytes(24), "", "", False, b"", 0)),
        handle_attributes(
            ConnectionView(bytes(24), "", "", False, b"", 0), HandleOnConnection("", 0, 0)
        ),
    )
    for k, _ in attrs
)

__all__ = [
    "KEYWORDS",
    "MESSAGE",
    "TYPES",
    "ConnectionView",
    "HandleOnConnection",
    "candidates",
    "connect_options",
    "connection",
    "connection_id",
    "date_and_time",
    "handle_attributes",
    "open_connections",
    "open_options",
]
