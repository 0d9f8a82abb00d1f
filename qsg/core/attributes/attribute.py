"""One row of the attribute table: an attribute of one or more object types, and how
each door of the queue manager meets it.

An ``Attribute`` names its MQSC keyword (and synonyms), the object types whose DEFINE
and ALTER take it, the kind of value and IBM's default, the record field that holds it
(empty: the record keeps it among its ``kept`` values, with no effect in qsg), its PCF
parameter identifier (MQIA_* / MQCA_* / MQIACH_* / MQCACH_*, which is also MQINQ's and
MQSET's selector where IBM allows those), and for docs/mqsc.md what it does in qsg or
why a simulation keeps it without effect.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from qsg.core.attributes.kinds import Kind

#: The object types of the table, as MQSC names them.
QLOCAL, QMODEL, QALIAS, QREMOTE = "QLOCAL", "QMODEL", "QALIAS", "QREMOTE"
CHANNEL, QMGR, CFSTRUCT, PROCESS = "CHANNEL", "QMGR", "CFSTRUCT", "PROCESS"
NAMELIST, STGCLASS = "NAMELIST", "STGCLASS"
LOCAL = frozenset({QLOCAL, QMODEL})
QUEUES = frozenset({QLOCAL, QMODEL, QALIAS, QREMOTE})
OBJECT_TYPES: tuple[str, ...] = (QLOCAL, QMODEL, QALIAS, QREMOTE, CHANNEL, QMGR, CFSTRUCT)
OBJECT_TYPES += (PROCESS, NAMELIST, STGCLASS)

#: What a row is: an attribute DEFINE and ALTER take (""), the object's name ("name"),
#: shown but not given (TYPE, PLATFORM: "fixed"), or the object's status, which the
#: caller knows and the definition does not (CURDEPTH: "status").
ROLES = ("", "name", "fixed", "status")
#: The words of a "kept and shown" attribute's doc entry.
KEPT = "kept and shown; no effect in a simulation"


@dataclass(frozen=True, slots=True)
class Attribute:
    keyword: str
    kind: Kind
    objects: frozenset[str]
    default: Any = None
    field: str = ""  # the record's field; "" the record's ``kept`` values
    parameter: int = 0  # PCF parameter identifier, MQINQ and MQSET selector
    inquire: bool = False  # MQINQ answers it (on the object types it is shown on)
    set_error: int = 0  # MQSET changes it; the reason code for a value out of range
    shown_on: frozenset[str] = frozenset()  # more object types DISPLAY shows it on
    synonyms: tuple[str, ...] = ()  # other keywords for it (TARGQ for TARGET)
    role: str = ""
    channel_types: frozenset[str] = frozenset()  # CHLTYPEs that take it (empty: all)
    effect: str = ""  # what it does in qsg ("": kept and shown)
    why: str = ""  # why it has no effect in a simulation
    #: IBM's default where a channel type's differs from ``default``: (CHLTYPE, value)
    #: pairs ("DEFINE CHANNEL": DISCINT(6000) for a sender, DISCINT(0) for a SVRCONN).
    type_defaults: tuple[tuple[str, Any], ...] = ()
    #: The words a channel type takes where IBM limits them per type: (CHLTYPE, words)
    #: pairs (SPLPROT: REMOVE on a sender or server, ASPOLICY on a receiver or requester).
    type_values: tuple[tuple[str, frozenset[str]], ...] = ()

    def default_for(self, chltype: str) -> Any:
        """IBM's default for a channel of CHLTYPE ``chltype`` ("" for another object)."""
        return dict(self.type_defaults).get(chltype, self.default)

    @property
    def displayed_on(self) -> frozenset[str]:
        return self.objects | self.shown_on

    @property
    def given(self) -> bool:
        """Whether DEFINE and ALTER take it."""
        return self.role == ""

    @property
    def settable(self) -> bool:
        return self.set_error != 0

    @property
    def bare(self) -> bool:
        """Written alone (SHARE / NOSHARE), not as KEYWORD(value)."""
        return bool(getattr(self.kind, "bare", False))


def row(keyword: str, kind: Kind, objects: frozenset[str], default: Any, **more: Any) -> Attribute:
    """One row: the keyword, its kind, the object types that take it, IBM's default."""
    return Attribute(keyword, kind, objects, default, **more)


__all__ = [
    "CFSTRUCT",
    "CHANNEL",
    "KEPT",
    "LOCAL",
    "NAMELIST",
    "OBJECT_TYPES",
    "PROCESS",
    "QALIAS",
    "QLOCAL",
    "QMGR",
    "QMODEL",
    "QREMOTE",
    "QUEUES",
    "ROLES",
    "STGCLASS",
    "Attribute",
    "row",
]
