"""DISPLAY: which objects of a snapshot answer a request, and which of their attributes.

A ``Request`` is what an administrator asked for, whether it came as MQSC text
(``DISPLAY QLOCAL(APP.*) CURDEPTH WHERE(CURDEPTH GT 10)``) or as a PCF inquiry: an
object type, a name (generic with a trailing ``*``), ALL or named attributes, a WHERE
condition, a TYPE, and the CMDSCOPE the processor spreads it over. ``select`` answers it
from one queue manager's ``Snapshot`` with ``Found`` records: the reply message id
(CSQM4nnI) and the attributes to show, in MQSC's names. The MQSC console formats them
as lines, the PCF command server as parameters: one implementation for both.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from operator import ge, gt, le, lt

from qsg import CMQC
from qsg.core import attributes
from qsg.core.attributes.qmgr import DISPLAY_GROUPS
from qsg.core.errors import MQMIError, QSGError
from qsg.core.objects import (
    AliasQueue,
    CFStructure,
    ChannelDefinition,
    NamelistDefinition,
    ProcessDefinition,
    RemoteQueue,
    StorageClass,
)
from qsg.core.queue import QueueDefinition
from qsg.mqsc import attributes as A
from qsg.mqsc import connections
from qsg.mqsc.status import ChannelView, HandleView, QueueView, Snapshot, StructureView

#: DISPLAY's object types and their synonyms.
OBJECTS = {
    "QUEUE": "QUEUE",
    "Q": "QUEUE",
    "QLOCAL": "QLOCAL",
    "QL": "QLOCAL",
    "QMODEL": "QMODEL",
    "QM": "QMODEL",
    "QALIAS": "QALIAS",
    "QA": "QALIAS",
    "QREMOTE": "QREMOTE",
    "QR": "QREMOTE",
    "QSTATUS": "QSTATUS",
    "QS": "QSTATUS",
    "CHANNEL": "CHANNEL",
    "CHL": "CHANNEL",
    "CHSTATUS": "CHSTATUS",
    "CHS": "CHSTATUS",
    "QMGR": "QMGR",
    "CFSTRUCT": "CFSTRUCT",
    "CFSTATUS": "CFSTATUS",
    "PROCESS": "PROCESS",
    "PRO": "PROCESS",
    "GROUP": "GROUP",
    "CONN": "CONN",
    "NAMELIST": "NAMELIST",
    "NL": "NAMELIST",
    "STGCLASS": "STGCLASS",
    "STC": "STGCLASS",
}
#: The object types DISPLAY names without a value in parentheses.
UNNAMED = frozenset({"QMGR", "GROUP"})
#: The reply message of each object type (CSQM401I and CSQM409I are IBM's own).
MESSAGES = {
    "QUEUE": "CSQM401I",
    "CHANNEL": "CSQM406I",
    "PROCESS": "CSQM407I",
    "QMGR": "CSQM409I",
    "QSTATUS": "CSQM420I",
    "HANDLE": "CSQM421I",
    "CHSTATUS": "CSQM422I",
    "CFSTRUCT": "CSQM440I",
    "CFSTATUS": "CSQM442I",
    "CONN": connections.MESSAGE,
    # CSQM408I and CSQM410I: the numbers qsg gives namelists and storage classes.
    "NAMELIST": "CSQM408I",
    "STGCLASS": "CSQM410I",
}
#: TYPE(...) each object type takes, the first being the default.
TYPES = {
    "QUEUE": ("ALL", "QLOCAL", "QMODEL", "QALIAS", "QREMOTE"),
    "QSTATUS": ("QUEUE", "HANDLE"),
    "CFSTATUS": ("SUMMARY", "CONNECT", "BACKUP", "SMDS"),
    "CONN": connections.TYPES,
}
OPERATORS = ("LT", "GT", "EQ", "NE", "LE", "GE", "LK", "NL")
#: QSGDISP(...) as DISPLAY takes it, per family: the dispositions each value selects
#: (IBM: "DISPLAY QUEUE", "DISPLAY CHANNEL", "DISPLAY PROCESS", "DISPLAY NAMELIST",
#: "DISPLAY STGCLASS"). LIVE, the default, is
#: QMGR and COPY and, in MQSC's DISPLAY QUEUE, the shared queues; ALL adds GROUP;
#: PRIVATE is QMGR or COPY. PCF's Inquire Queue reads its default, MQQSGD_LIVE, without
#: the shared queues ("Inquire Queue": "MQQSGD_LIVE ... defined as MQQSGD_Q_MGR or
#: MQQSGD_COPY"; IBM's metrics code asks for MQQSGD_ALL to see them): ``PCF_LIVE``.
PCF_LIVE = "LIVE(PCF)"
_OBJECTS = {
    "LIVE": frozenset({"QMGR", "COPY"}),
    "ALL": frozenset({"QMGR", "COPY", "GROUP"}),
    "PRIVATE": frozenset({"QMGR", "COPY"}),
    PCF_LIVE: frozenset({"QMGR", "COPY"}),
    **{d: frozenset({d}) for d in ("QMGR", "COPY", "GROUP")},
}
DISPOSITIONS: dict[str, dict[str, frozenset[str]]] = {
    "QUEUE": {
        **_OBJECTS,
        "LIVE": frozenset({"QMGR", "COPY", "SHARED"}),
        "ALL": frozenset({"QMGR", "COPY", "GROUP", "SHARED"}),
        "SHARED": frozenset({"SHARED"}),
    },
    "CHANNEL": _OBJECTS,
    "PROCESS": _OBJECTS,
    "NAMELIST": _OBJECTS,
    "STGCLASS": _OBJECTS,
}
#: The displays IBM's syntax gives no CMDSCOPE ("DISPLAY CFSTRUCT", "DISPLAY CFSTATUS"):
#: a CF structure is the group's, the same seen from every member. CMDSCOPE there is
#: CSQ9001E, as any keyword a display does not take.
_UNSCOPED = frozenset({"CFSTRUCT", "CFSTATUS"})
#: What WHERE cannot filter on: how an object is chosen, not what it shows.
_NOT_FILTERS = frozenset({"QSGDISP", "CMDSCOPE"})
#: Keywords shown bare, and the keyword their filter reads (SHARE and NOSHARE are one):
#: the attribute table's bare rows, and DISPLAY CHSTATUS's CURRENT.
_BARE = {
    **{word: a.keyword for a in attributes.ROWS if a.bare for word in a.kind.words or ()},
    "CURRENT": "CURRENT",
}


class DisplayError(QSGError, ValueError):
    """A DISPLAY that cannot be answered: ``message`` is the CSQ9/CSQM message id,
    ``text`` what follows it."""

    def __init__(self, message: str, text: str) -> None:
        super().__init__(f"{message} {text}")
        self.message = message
        self.text = text


@dataclass(frozen=True, slots=True)
class Where:
    """WHERE(keyword operator value)."""

    keyword: str
    operator: str
    value: str

    def __call__(self, attrs: A.Attributes) -> bool:
        shown = dict(attrs)
        keyword = self.keyword
        if keyword in _BARE:  # WHERE(SHARE EQ YES): is SHARE shown (not NOSHARE)?
            have = _yes(keyword in shown)
            return _compare(have, self.operator, self.value)
        if keyword not in shown:
            return False  # an object of a type without it is not displayed
        return _compare(shown[keyword], self.operator, self.value)


@dataclass(frozen=True, slots=True)
class Request:
    """One DISPLAY, from MQSC or PCF."""

    object_type: str  # QUEUE, QLOCAL, ..., QSTATUS, CHANNEL, CHSTATUS, QMGR, ...
    name: str = "*"
    everything: bool = False  # ALL
    wanted: tuple[str, ...] = ()  # named attributes
    where: Where | None = None
    type: str = ""  # TYPE(...); "" for the default
    cmdscope: str = ""  # "", "*" or a queue manager's name
    selectors: tuple[tuple[str, str], ...] = field(default=())  # e.g. CFSTRUCT(APP*)
    qsgdisp: str = "LIVE"  # QSGDISP(...): which dispositions (``DISPOSITIONS``)

    @property
    def verb(self) -> str:
        """The command as CSQ9022I quotes it: ``DISPLAY QUEUE``."""
        return f"DISPLAY {self.object_type}"

    @property
    def kind(self) -> str:
        """Which family of objects: QUEUE for QLOCAL and the other queue types."""
        return "QUEUE" if self.object_type in A.QUEUE_TYPES.values() else self.object_type

    @property
    def generic(self) -> bool:
        return self.name.endswith("*")


@dataclass(frozen=True, slots=True)
class Found:
    """One object of a reply: its message id, name and the attributes shown."""

    message: str
    name: str
    attributes: A.Attributes


def parse(words: list[tuple[str, str | None, bool]]) -> Request:
    """A DISPLAY command from its words after the verb, each (WORD, value or None,
    quoted). DisplayError for a word DISPLAY does not take."""
    if not words:
        raise DisplayError("CSQ9010E", "REQUIRED PARAMETER 'object type' IS MISSING")
    head, value, _ = words[0]
    object_type = OBJECTS.get(head)
    if object_type is None:
        raise DisplayError("CSQ9001E", f"'{head}' IS INVALID")
    if object_type in UNNAMED:
        if value is not None:
            raise DisplayError("CSQ9001E", f"'{head}({value})' IS INVALID")
        name = "*"
    elif not value:
        raise DisplayError("CSQ9010E", f"REQUIRED PARAMETER '{head}' IS MISSING")
    else:
        name = value
    known = KEYWORDS[_kind(object_type)]
    everything, where, kind_type, cmdscope = False, None, "", ""
    wanted: list[str] = []
    qsgdisp = "LIVE"
    selectors: list[tuple[str, str]] = []
    seen: set[str] = set()
    for word, val, _quoted in words[1:]:
        if word in seen:
            raise DisplayError("CSQ9000E", f"'{word}' APPEARS MORE THAN ONCE")
        seen.add(word)
        if word == "ALL" and val is None:
            everything = True
        elif word == "WHERE" and val is not None:
            where = _where(val, known)
        elif word == "CMDSCOPE" and val is not None and object_type not in _UNSCOPED:
            cmdscope = val
        elif word == "TYPE" and val is not None and _kind(object_type) in TYPES:
            if val not in TYPES[_kind(object_type)]:
                raise DisplayError("CSQ9001E", f"'TYPE({val})' IS INVALID")
            kind_type = val
        elif word == "QSGDISP" and val is not None and _kind(object_type) in DISPOSITIONS:
            if val not in DISPOSITIONS[_kind(object_type)]:
                raise DisplayError("CSQ9001E", f"'QSGDISP({val})' IS INVALID")
            qsgdisp = val
        elif object_type == "QMGR" and val is None and word in DISPLAY_GROUPS:
            wanted.extend(DISPLAY_GROUPS[word])  # DISPLAY QMGR EVENT: the event switches
        elif word in known or word in _BARE:
            if val is None:
                wanted.append(_BARE.get(word, word))
            else:
                selectors.append((word, val))
        else:
            raise DisplayError("CSQ9001E", f"'{word}' IS INVALID")
    return Request(
        object_type,
        name,
        everything,
        tuple(wanted),
        where,
        kind_type,
        cmdscope,
        tuple(selectors),
        qsgdisp,
    )


def _kind(object_type: str) -> str:
    return "QUEUE" if object_type in A.QUEUE_TYPES.values() else object_type


_CONDITION = re.compile(r"^\s*(\w+)\s+(\w+)\s+(.*?)\s*$", re.DOTALL)


def _where(text: str, known: frozenset[str]) -> Where:
    match = _CONDITION.match(text)
    if match is None:
        raise DisplayError("CSQ9011E", f"'WHERE({text})' IS NOT A VALID FILTER")
    keyword, operator, value = match[1].upper(), match[2].upper(), match[3]
    if (keyword not in known and keyword not in _BARE) or keyword in _NOT_FILTERS:
        raise DisplayError("CSQ9001E", f"'{keyword}' IS INVALID")
    if operator not in OPERATORS:
        raise DisplayError("CSQ9011E", f"'{operator}' IS NOT A VALID OPERATOR")
    if len(value) >= 2 and value[0] == value[-1] == "'":
        value = value[1:-1].replace("''", "'")
    else:
        value = value.upper()
    return Where(_BARE.get(keyword, keyword), operator, value)


def _yes(flag: bool) -> str:
    return "YES" if flag else "NO"


def _compare(shown: A.Value, operator: str, wanted: str) -> bool:
    if operator in ("LK", "NL") or (wanted.endswith("*") and operator in ("EQ", "NE")):
        hit = fnmatchcase(str(shown if shown is not None else ""), wanted)
        return hit if operator in ("LK", "EQ") else not hit
    left: int | str = "" if shown is None else shown
    right: int | str = wanted
    if isinstance(left, int):
        try:
            right = int(wanted)
        except ValueError:
            return False
    else:
        left = str(left)
    if operator == "EQ":
        return left == right
    if operator == "NE":
        return left != right
    if isinstance(left, str) or isinstance(right, str):  # ordering compares numbers only
        left, right = str(left), str(right)
    return bool(_ORDER[operator](left, right))


#: WHERE's ordering operators.
_ORDER = {"LT": lt, "GT": gt, "LE": le, "GE": ge}


# ---- answering ---------------------------------------------------------------------
def select(request: Request, snapshot: Snapshot) -> list[Found]:
    """The objects of ``snapshot`` that answer ``request``, in name order."""
    kind = request.kind
    dispositions = DISPOSITIONS.get(kind, {}).get(request.qsgdisp)
    if dispositions is not None and "GROUP" in dispositions and snapshot.group is None:
        raise MQMIError.failed(
            CMQC.MQRC_DB2_NOT_AVAILABLE, "QSGDISP(GROUP) objects are in the shared repository"
        )
    found: list[Found] = []
    for message, name, attrs in _candidates(request, snapshot):
        if not fnmatchcase(name, request.name) and request.object_type not in UNNAMED:
            continue
        if dispositions is not None and dict(attrs).get("QSGDISP") not in dispositions:
            continue
        if request.where is not None and not request.where(attrs):
            continue
        if any(not _compare(dict(attrs).get(k), "EQ", v) for k, v in request.selectors):
            continue
        found.append(Found(message, name, _shown(request, kind, attrs)))
    return sorted(found, key=lambda f: f.name)  # a member's own and shared objects mixed


def _shown(request: Request, kind: str, attrs: A.Attributes) -> A.Attributes:
    """What is shown: the identifying keywords, then ALL or those asked for (and the
    WHERE keyword); a status display with nothing named shows everything."""
    fixed = FIXED[kind] if kind != "QSTATUS" else 3
    everything = request.everything or (kind in _ALL_BY_DEFAULT and not request.wanted)
    if everything:
        return attrs
    wanted = set(request.wanted)
    if request.where is not None:
        wanted.add(request.where.keyword)
    wanted |= {k for k, _ in request.selectors}
    return attrs[:fixed] + [
        (k, v) for k, v in attrs[fixed:] if k in wanted or _BARE.get(k) in wanted
    ]


def _candidates(request: Request, snap: Snapshot) -> Iterable[tuple[str, str, A.Attributes]]:
    kind, message = request.kind, MESSAGES.get(request.kind, "")
    if kind == "QUEUE":
        wanted = request.object_type if request.object_type != "QUEUE" else request.type or "ALL"
        group = (snap.group or {}).get("QUEUE", {})
        views = [*snap.queues.values(), *(QueueView(obj) for obj in group.values())]
        for view in views:
            if wanted == "ALL" or A.QUEUE_TYPES[view.obj.q_type] == wanted:
                yield message, view.obj.name, A.queue(view)
    elif kind == "QSTATUS":
        for name, view in snap.queues.items():
            if not view.local:
                continue  # an alias or remote queue has no status
            if request.type == "HANDLE":
                for handle in view.handles:
                    yield MESSAGES["HANDLE"], name, A.handle_status(view, handle)
            else:
                yield message, name, A.queue_status(view)
    elif kind == "CHANNEL":
        for name, channel in snap.channels.items():
            yield message, name, A.channel(channel)
        for name, obj in (snap.group or {}).get("CHANNEL", {}).items():
            yield message, name, A.channel(ChannelView(obj))
    elif kind == "CHSTATUS":
        for name, channel in snap.channels.items():
            if channel.status != "INACTIVE":  # a channel that never ran has no status
                yield message, name, A.channel_status(channel)
    elif kind == "QMGR":
        yield message, snap.q_mgr, A.qmgr(snap)
    elif kind == "CFSTRUCT":
        for name, structure in snap.structures.items():
            yield message, name, A.cf_structure(structure)
    elif kind == "CFSTATUS":
        for name, structure in snap.structures.items():
            for answer in A.cf_status(structure, request.type or "SUMMARY"):
                yield message, name, answer
    elif kind == "CONN":
        yield from connections.candidates(request.type, snap.connections)
    elif kind == "PROCESS":
        for name, process in snap.processes.items():
            yield message, name, A.process(process)
        for name, obj in (snap.group or {}).get("PROCESS", {}).items():
            yield message, name, A.process(obj)
    elif kind in ("NAMELIST", "STGCLASS"):
        known = snap.namelists if kind == "NAMELIST" else snap.storage_classes
        for name, record in known.items():
            yield message, name, A.shown(record, kind)
        for name, record in (snap.group or {}).get(kind, {}).items():
            yield message, name, A.shown(record, kind)


def _keywords(*lists: A.Attributes) -> frozenset[str]:
    words = {k for attrs in lists for k, _ in attrs}
    return frozenset(words | {_BARE.get(w, w) for w in words})


def _samples() -> dict[str, frozenset[str]]:
    local = QueueView(QueueDefinition("X"))
    channel = ChannelView(ChannelDefinition("X", 1, xmit_q_name="X"))
    channels = [
        ChannelView(ChannelDefinition("X", chltype, xmit_q_name="X")) for chltype in A.CHANNEL_TYPES
    ]
    structure = StructureView(CFStructure("X"))
    snap = Snapshot("X", "", 0.0, 0, {}, {}, {})
    return {
        "QUEUE": _keywords(
            A.queue(local),
            A.queue(QueueView(AliasQueue("X", "Y"))),
            A.queue(QueueView(RemoteQueue("X"))),
        ),
        "QSTATUS": _keywords(A.queue_status(local), A.handle_status(local, _SAMPLE_HANDLE)),
        "CHANNEL": _keywords(*(A.channel(view) for view in channels)),
        "CHSTATUS": _keywords(A.channel_status(channel)),
        "QMGR": _keywords(A.qmgr(snap)),
        "CFSTRUCT": _keywords(A.cf_structure(structure)),
        "CFSTATUS": _keywords(
            *(
                a
                for kind in TYPES["CFSTATUS"]
                for a in A.cf_status(
                    dataclasses.replace(structure, members=("X",)),
                    kind,
                )
            )
        ),
        "PROCESS": _keywords(A.process(ProcessDefinition("X"))),
        "NAMELIST": _keywords(A.shown(NamelistDefinition("X"), "NAMELIST")),
        "STGCLASS": _keywords(A.shown(StorageClass("X"), "STGCLASS")),
        "GROUP": frozenset(),
        "CONN": connections.KEYWORDS,
    }


_SAMPLE_HANDLE = HandleView("X", "", 0, "", "", 0)
#: The attribute keywords each object type displays (and WHERE may test).
KEYWORDS: dict[str, frozenset[str]] = _samples()
#: How many leading keywords identify an object and are always shown.
FIXED = {
    "QUEUE": 3,
    "QSTATUS": 3,
    "CHANNEL": 3,
    "CHSTATUS": 2,
    "QMGR": 1,
    "CFSTRUCT": 1,
    "CFSTATUS": 2,
    "PROCESS": 2,  # PROCESS and QSGDISP
    "NAMELIST": 2,
    "STGCLASS": 3,
    "GROUP": 0,
    "CONN": 3,
}
#: What shows every attribute when none is named: status displays, and DISPLAY QMGR.
_ALL_BY_DEFAULT = frozenset({"QSTATUS", "CHSTATUS", "CFSTATUS", "QMGR"})


# ---- as MQSC prints them -----------------------------------------------------------
def render(attrs: A.Attributes) -> str:
    """``QUEUE(APP.IN) TYPE(QLOCAL) SHARE CURDEPTH(3)``: quoted where MQSC would need it."""
    return " ".join(k if v is None else f"{k}({_text(v)})" for k, v in attrs)


def _text(value: str | int) -> str:
    text = str(value)
    if isinstance(value, str) and value and (set(text) & set(" '(),") or text != text.upper()):
        return "'" + text.replace("'", "''") + "'"
    return text


__all__ = [
    "DISPOSITIONS",
    "FIXED",
    "KEYWORDS",
    "MESSAGES",
    "OBJECTS",
    "OPERATORS",
    "DisplayError",
    "Found",
    "Request",
    "Where",
    "parse",
    "render",
    "select",
]
