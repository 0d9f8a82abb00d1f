"""The keywords each MQSC command takes, and what their values may be.

A keyword maps to the field of the definition record it sets (``QueueDefinition``,
``AliasQueue``, ``RemoteQueue``, ``CFStructure``, ``ChannelDefinition``, or the queue
manager's own attributes; none for an attribute kept without effect) and to a parser
that turns the text into the field's value or raises ``ValueError`` saying what was
wrong. All of it comes from the attribute table (``qsg.core.attributes``), whose values
and ranges are IBM's (MQSC reference, z/OS where platforms differ).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from qsg.core import attributes

Parse = Callable[[str, bool], Any]


@dataclass(frozen=True, slots=True)
class Keyword:
    """A keyword's record field ("" for an attribute kept without effect, under its
    ``keyword``) and the parser of its values."""

    field: str
    parse: Parse
    keyword: str = ""


def _keywords(object_type: str) -> dict[str, Keyword]:
    """The keywords of ``object_type`` with values, from the attribute table."""
    return {
        word: Keyword(a.field, a.kind.parse, a.keyword)
        for word, a in attributes.keywords(object_type).items()
        if not a.bare
    }


def _flags(object_type: str) -> dict[str, tuple[Keyword, Any]]:
    """The bare keywords of ``object_type`` (SHARE, NOSHARE): the keyword and value each sets."""
    return {
        word: (Keyword(a.field, a.kind.parse, a.keyword), a.kind.parse(word, False))
        for word, a in attributes.keywords(object_type).items()
        if a.bare
    }


QLOCAL = _keywords("QLOCAL")
QMODEL = _keywords("QMODEL")
QALIAS = _keywords("QALIAS")
QREMOTE = _keywords("QREMOTE")
CFSTRUCT = _keywords("CFSTRUCT")
CHANNEL = _keywords("CHANNEL")
PROCESS = _keywords("PROCESS")
QMGR = _keywords("QMGR")
NAMELIST = _keywords("NAMELIST")
STGCLASS = _keywords("STGCLASS")

#: Object types and their abbreviations, as MQSC accepts them.
OBJECT_TYPES = {
    "QLOCAL": "QLOCAL",
    "QL": "QLOCAL",
    "QMODEL": "QMODEL",
    "QM": "QMODEL",
    "QALIAS": "QALIAS",
    "QA": "QALIAS",
    "QREMOTE": "QREMOTE",
    "QR": "QREMOTE",
    "CFSTRUCT": "CFSTRUCT",
    "CHANNEL": "CHANNEL",
    "CHL": "CHANNEL",
    "PROCESS": "PROCESS",
    "PRO": "PROCESS",
    "QMGR": "QMGR",
    "NAMELIST": "NAMELIST",
    "NL": "NAMELIST",
    "STGCLASS": "STGCLASS",
    "STC": "STGCLASS",
}
VERBS = {"DEFINE": "DEFINE", "DEF": "DEFINE", "ALTER": "ALTER", "ALT": "ALTER", "DELETE": "DELETE"}
KEYWORDS: dict[str, dict[str, Keyword]] = {
    "QLOCAL": QLOCAL,
    "QMODEL": QMODEL,
    "QALIAS": QALIAS,
    "QREMOTE": QREMOTE,
    "CFSTRUCT": CFSTRUCT,
    "CHANNEL": CHANNEL,
    "PROCESS": PROCESS,
    "QMGR": QMGR,
    "NAMELIST": NAMELIST,
    "STGCLASS": STGCLASS,
}
#: The bare keywords each object type takes.
FLAGS: dict[str, dict[str, tuple[Keyword, Any]]] = {kind: _flags(kind) for kind in KEYWORDS}
#: How long each type's name may be.
NAME_LENGTHS = {"CFSTRUCT": 12, "CHANNEL": 20, "STGCLASS": 8}
