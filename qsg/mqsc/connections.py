"""DISPLAY CONN: a queue manager's connections and their handles, as the rules layer
knows them (``qsg.core.connection``).

A ``ConnectionView`` is one connection at the command's moment: who connected (USERID,
APPLTAG), its connection tag and the one MQCNO option qsg keeps (the tag's), whether its
unit of work has anything in it, and its open handles. ``candidates`` turns them into
DISPLAY's records, one per connection for TYPE(CONN), one per handle for TYPE(HANDLE),
both for TYPE(ALL) (IBM: "DISPLAY CONN"). The connection identifier is 24 bytes, as on
z/OS: EXTCONN its first 16 (``CSQC``, the queue manager's name and its incarnation),
CONN its last 8 (the connection's number); MQSC shows both in hex.

What qsg does not know is not shown: ASID (no address spaces), CHANNEL and CONNAME (an
application's connection is not tied to a channel), QMURID, UOWSTDA/UOWSTTI and UOWLOG
(a unit of work has no start time nor log), HSTATE and ASTATE (no call is in progress
between the calls the command server sees; no asynchronous consumers).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

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
    use = conn.tag_use
    return ConnectionView(
        connection_id(qm.name, qm.incarnation, conn.number),
        conn.user,
        conn.identity.appl_name.decode(errors="replace").rstrip(),
        conn.uow.count > 0 or bool(conn.uow.stores),
        use.tag if use is not None else b"",
        use.option if use is not None else CMQC.MQCNO_NONE,
        tuple(_handle(h) for h in conn.handles if h.open),
    )


def _handle(handle: Handle) -> HandleOnConnection:
    definition = handle.repository.queues[handle.queue]
    name = handle.opened.name if handle.opened is not None else handle.name
    return HandleOnConnection(name, definition.qsg_disp, handle.options)


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
        ("UOWSTATE", "ACTIVE" if view.in_unit_of_work else "NONE"),
        ("URTYPE", "QMGR"),
        ("USERID", view.user),
    ]


def handle_attributes(view: ConnectionView, handle: HandleOnConnection) -> Attributes:
    """TYPE(HANDLE): one open handle of the connection."""
    return [
        ("CONN", view.conn),
        ("EXTCONN", view.extconn),
        ("TYPE", "HANDLE"),
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
    "handle_attributes",
    "open_connections",
    "open_options",
]
