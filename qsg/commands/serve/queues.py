"""IBM's version-1 queue resource: ``/ibmmq/rest/v1/admin/qmgr/{qmgr}/queue[/{queue}]``.

IBM's pages "/admin/qmgr/{qmgrName}/queue" (GET, POST, PATCH, DELETE), "Request body
attributes for queues" and "REST API and PCF equivalents for queues" describe it: a
queue is a JSON object with ``name`` and ``type`` and its attributes grouped in named
objects (``general``, ``storage``, ``trigger``, ``events``, ``applicationDefaults``,
``extended``, ``cluster``, ``queueSharingGroup``, ``dataCollection``, ``remote``,
``alias``, ``model``, ``dynamic``), its status in ``status``. ``FIELDS`` maps each
REST attribute to the MQSC keyword DISPLAY QUEUE shows and DEFINE/ALTER take, so the
resource is the same DISPLAY, DEFINE, ALTER and DELETE as MQSC's and PCF's
(``qsg.mqsc.display.select``, ``actors.admin.command``), spelt as IBM's JSON spells it.

- GET: ``attributes=`` (``*``, an object's name, or ``object.attribute``, comma
  separated), ``status=`` (``*``, ``status``, or ``status.attribute``), ``filter=``
  (``attribute:operator:value``, IBM's six operators), ``name=`` (a generic name),
  ``type=`` and ``queueSharingGroupDisposition=``.
- POST: creates the queue the body describes (``like=``, ``noReplace``,
  ``commandScope=``); 201.
- PATCH: changes the named queue's attributes the body gives (``commandScope=``,
  ``queueSharingGroupDisposition=``); 204.
- DELETE: ``purge``, ``commandScope=``, ``queueSharingGroupDisposition=``; 204.

A query parameter or a body attribute IBM's resource does not know, or a value it does
not take, is 400 with IBM's error body, before anything runs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from actors import admin as actor_admin
from qsg import CMQC, CMQCFC
from qsg.commands.serve import admin
from qsg.commands.serve.errors import Error, RestError, refuse
from qsg.commands.serve.messaging import read_body
from qsg.commands.serve.security import ADMIN, ADMIN_RO, USER, Principal, require
from qsg.commands.serve.service import Service
from qsg.mqsc import commands, display
from qsg.mqsc.attributes import Value
from qsg.mqsc.status import Snapshot

#: The largest POST or PATCH body (bytes): a queue's attributes come to a few KB.
MAX_QUEUE_BODY = 64 * 1024
#: The longest query parameter value read (an attribute list of every field fits).
MAX_QUERY_VALUE = 4096


@dataclass(frozen=True, slots=True)
class Field:
    """One REST attribute: ``rest`` (``storage.maximumDepth``), the MQSC ``keyword``
    (MAXDEPTH), and how a value goes between them: ``kind`` ``int`` or ``text``, a
    ``flag`` (a JSON boolean: ``true_word`` is the MQSC value or bare keyword for true,
    ``false_word`` for false) or a ``choice`` (``words``: MQSC value to REST value)."""

    rest: str
    keyword: str
    kind: str
    words: tuple[tuple[str, str], ...] = ()
    true_word: str = ""
    false_word: str = ""
    writable: bool = True

    @property
    def group(self) -> str:
        return self.rest.split(".", 1)[0]

    def to_rest(self, attrs: dict[str, Value]) -> tuple[bool, Any]:
        """The value in DISPLAY's attributes ``attrs``: (shown, value)."""
        if self.kind == "flag":
            if self.true_word in attrs:
                value = attrs[self.true_word]
                return True, value is None or value == self.true_word
            if self.false_word in attrs:
                value = attrs[self.false_word]
                return True, value is not None and value == self.true_word
            if self.keyword in attrs:
                return True, attrs[self.keyword] == self.true_word
            return False, None
        if self.keyword not in attrs:
            return False, None
        value = attrs[self.keyword]
        if self.kind == "choice":
            return True, dict(self.words).get(str(value), str(value).lower())
        if self.kind == "int":
            return True, value if isinstance(value, int) else int(str(value))
        return True, "" if value is None else str(value)

    def to_mqsc(self, value: object) -> str:
        """``value`` (JSON) as the MQSC word DEFINE and ALTER take; 400 if it is not one
        this attribute takes."""
        if self.kind == "flag":
            if not isinstance(value, bool):
                raise _bad_value(self.rest, value)
            word = self.true_word if value else self.false_word
            # a bare keyword (SHARE, NOSHARE) is written alone, a value in parentheses
            return word if self.keyword == self.true_word else f"{self.keyword}({word})"
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise _bad_value(self.rest, value)
            return f"{self.keyword}({value})"
        if self.kind == "choice":
            back = {rest: mqsc for mqsc, rest in self.words}
            if not isinstance(value, str) or value not in back:
                raise _bad_value(self.rest, value)
            return f"{self.keyword}({back[value]})"
        if not isinstance(value, str) or len(value) > 256:
            raise _bad_value(self.rest, value)
        return f"{self.keyword}('{value.replace(chr(39), chr(39) * 2)}')"


def _flag(rest: str, keyword: str, true_word: str, false_word: str) -> Field:
    return Field(rest, keyword, "flag", true_word=true_word, false_word=false_word)


def _choice(rest: str, keyword: str, *words: tuple[str, str], writable: bool = True) -> Field:
    return Field(rest, keyword, "choice", words=words, writable=writable)


_AS_QMGR = ("QMGR", "asQmgr")
_DYNAMIC = (
    ("PREDEFINED", "predefined"),
    ("PERMDYN", "permanentDynamic"),
    ("TEMPDYN", "temporaryDynamic"),
    ("SHAREDYN", "sharedDynamic"),
)
#: Every REST attribute of a queue, with its MQSC keyword. The names are IBM's ("REST
#: API and PCF equivalents for queues"); a bare MQSC keyword (SHARE/NOSHARE) is a flag.
FIELDS: tuple[Field, ...] = (
    Field("general.description", "DESCR", "text"),
    _flag("general.inhibitPut", "PUT", "DISABLED", "ENABLED"),
    _flag("general.inhibitGet", "GET", "DISABLED", "ENABLED"),
    _flag("general.isTransmissionQueue", "USAGE", "XMITQ", "NORMAL"),
    Field("storage.maximumDepth", "MAXDEPTH", "int"),
    Field("storage.maximumMessageLength", "MAXMSGL", "int"),
    _choice(
        "storage.messageDeliverySequence", "MSGDLVSQ", ("PRIORITY", "priority"), ("FIFO", "fifo")
    ),
    Field("storage.storageClass", "STGCLASS", "text"),
    _choice(
        "storage.indexType",
        "INDXTYPE",
        ("NONE", "none"),
        ("MSGID", "messageId"),
        ("CORRELID", "correlationId"),
        ("GROUPID", "groupId"),
        ("MSGTOKEN", "messageToken"),
    ),
    _flag("trigger.enabled", "TRIGGER", "TRIGGER", "NOTRIGGER"),
    _choice(
        "trigger.type",
        "TRIGTYPE",
        ("NONE", "none"),
        ("FIRST", "first"),
        ("EVERY", "every"),
        ("DEPTH", "depth"),
    ),
    Field("trigger.depth", "TRIGDPTH", "int"),
    Field("trigger.messagePriority", "TRIGMPRI", "int"),
    Field("trigger.data", "TRIGDATA", "text"),
    Field("trigger.initiationQueueName", "INITQ", "text"),
    Field("trigger.processName", "PROCESS", "text"),
    _flag("events.depth.highEnabled", "QDPHIEV", "ENABLED", "DISABLED"),
    Field("events.depth.highPercentage", "QDEPTHHI", "int"),
    _flag("events.depth.lowEnabled", "QDPLOEV", "ENABLED", "DISABLED"),
    Field("events.depth.lowPercentage", "QDEPTHLO", "int"),
    _flag("events.depth.fullEnabled", "QDPMAXEV", "ENABLED", "DISABLED"),
    Field("events.serviceInterval.duration", "QSVCINT", "int"),
    _flag("applicationDefaults.persistent", "DEFPSIST", "YES", "NO"),
    Field("applicationDefaults.priority", "DEFPRTY", "int"),
    _flag("applicationDefaults.sharedInput", "DEFSOPT", "SHARED", "EXCL"),
    _choice(
        "applicationDefaults.putResponse",
        "DEFPRESP",
        ("SYNC", "synchronous"),
        ("ASYNC", "asynchronous"),
    ),
    _choice(
        "applicationDefaults.readAhead",
        "DEFREADA",
        ("NO", "no"),
        ("YES", "yes"),
        ("DISABLED", "disabled"),
    ),
    _choice(
        "applicationDefaults.messagePropertyControl",
        "PROPCTL",
        ("COMPAT", "compatible"),
        ("NONE", "none"),
        ("ALL", "all"),
        ("FORCE", "force"),
        ("V6COMPAT", "version6Compatible"),
    ),
    _flag("extended.allowSharedInput", "SHARE", "SHARE", "NOSHARE"),
    _flag("extended.hardenGetBackout", "HARDENBO", "HARDENBO", "NOHARDENBO"),
    Field("extended.backoutRequeueQueueName", "BOQNAME", "text"),
    Field("extended.backoutThreshold", "BOTHRESH", "int"),
    Field("extended.retentionInterval", "RETINTVL", "int"),
    Field("cluster.name", "CLUSTER", "text"),
    Field("cluster.namelist", "CLUSNL", "text"),
    Field("cluster.workloadPriority", "CLWLPRTY", "int"),
    Field("cluster.workloadRank", "CLWLRANK", "int"),
    _choice("cluster.workloadQueueUse", "CLWLUSEQ", _AS_QMGR, ("ANY", "any"), ("LOCAL", "local")),
    Field("cluster.transmissionQueueForChannelName", "CLCHNAME", "text"),
    _choice(
        "queueSharingGroup.disposition",
        "QSGDISP",
        ("QMGR", "qmgr"),
        ("COPY", "copy"),
        ("GROUP", "group"),
        ("SHARED", "shared"),
    ),
    Field("queueSharingGroup.structureName", "CFSTRUCT", "text"),
    _choice("dataCollection.accounting", "ACCTQ", _AS_QMGR, ("ON", "on"), ("OFF", "off")),
    _choice(
        "dataCollection.monitoring",
        "MONQ",
        _AS_QMGR,
        ("OFF", "off"),
        ("LOW", "low"),
        ("MEDIUM", "medium"),
        ("HIGH", "high"),
    ),
    Field("remote.queueName", "RNAME", "text"),
    Field("remote.qmgrName", "RQMNAME", "text"),
    Field("remote.transmissionQueueName", "XMITQ", "text"),
    Field("alias.targetName", "TARGET", "text"),
    _choice("alias.targetType", "TARGTYPE", ("QUEUE", "queue"), ("TOPIC", "topic")),
    _choice("model.type", "DEFTYPE", *_DYNAMIC),
    _choice("dynamic.type", "DEFTYPE", *_DYNAMIC, writable=False),
)
BY_NAME = {f.rest: f for f in FIELDS}
GROUPS = frozenset(f.group for f in FIELDS)


@dataclass(frozen=True, slots=True)
class Status:
    """One ``status.`` attribute, read from the queue's view on this queue manager."""

    rest: str
    read: Callable[[dict[str, Value], int], int]


#: The status attributes: DISPLAY QSTATUS's CURDEPTH, IPPROCS and OPPROCS, and the
#: number of messages put or got in units of work not yet ended (z/OS's UNCOM says only
#: YES or NO; the REST API counts them).
STATUS: tuple[Status, ...] = (
    Status("status.currentDepth", lambda a, u: int(str(a.get("CURDEPTH", 0)))),
    Status("status.openInputCount", lambda a, u: int(str(a.get("IPPROCS", 0)))),
    Status("status.openOutputCount", lambda a, u: int(str(a.get("OPPROCS", 0)))),
    Status("status.uncommittedMessages", lambda a, u: u),
)
STATUS_BY_NAME = {s.rest: s for s in STATUS}
#: IBM's filter operators and what each asks of (shown, wanted).
OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "lessThan": lambda a, b: a < b,
    "greaterThan": lambda a, b: a > b,
    "lessThanOrEqualTo": lambda a, b: a <= b,
    "greaterThanOrEqualTo": lambda a, b: a >= b,
    "equalTo": lambda a, b: a == b,
    "notEqualTo": lambda a, b: a != b,
}
#: ``type=`` as DISPLAY QUEUE's TYPE(...), and the MQSC types back.
_QUEUE_TYPES = {
    "all": "ALL",
    "local": "QLOCAL",
    "alias": "QALIAS",
    "remote": "QREMOTE",
    "model": "QMODEL",
    "cluster": "QCLUSTER",
}
_TYPE_NAMES = {mqsc: rest for rest, mqsc in _QUEUE_TYPES.items() if rest != "all"}
_DISPOSITIONS = frozenset({"live", "all", "copy", "group", "private", "qmgr", "shared"})
_NAME = re.compile(r"[A-Za-z0-9._/%]{1,48}")
_GENERIC = re.compile(r"[A-Za-z0-9._/%]{0,47}\*?")
_SCOPE = re.compile(r"\*|[A-Za-z0-9._@$#]{1,4}")


# ---- GET ----------------------------------------------------------------------------
async def get(
    service: Service, request: Request, q_mgr: str, queue: str | None, who: Principal
) -> JSONResponse:
    """GET: the queues DISPLAY QUEUE finds, each ``name``, ``type`` and the attributes
    and status asked for; ``filter=`` keeps those whose attribute compares as asked."""
    require(who, ADMIN, ADMIN_RO, USER, what=f"display queues on {q_mgr}")
    service.qmgr(q_mgr)
    query = _query(
        request,
        {
            "type",
            "queueSharingGroupDisposition",
            "attributes",
            "status",
            "filter",
            "name",
            "commandScope",
        },
    )
    kind = _choice_param(query, "type", "all", _QUEUE_TYPES)
    disposition = _choice_param(
        query, "queueSharingGroupDisposition", "live", {d: d.upper() for d in _DISPOSITIONS}
    )
    fields = _attributes(query.get("attributes"))
    statuses = _statuses(query.get("status"))
    wanted = _filter(query.get("filter"))
    if "commandScope" in query:
        raise refuse(
            400,
            "MQWB0302E",
            "commandScope",
            query["commandScope"],
            detail=(
                "qsg's GET of the queue resource answers for the queue manager in the URL only; "
                "use the mqsc resource with a command scope."
            ),
        )
    name = query.get("name", "*") if queue is None else queue
    if queue is not None and "name" in query:
        raise refuse(400, "MQWB0302E", "name", query["name"], detail="The URL names the queue.")
    if not _GENERIC.fullmatch(name) or not name:
        raise refuse(400, "MQWB0302E", "name", name, detail="Not a queue name.")
    snap = await actor_admin.snapshot(service.world, q_mgr)
    shown = []
    if kind == "QCLUSTER":  # qsg's queue managers are in no cluster: none to show
        if queue is not None:
            raise _unknown_queue(queue, q_mgr)
        return JSONResponse({"queue": []})
    states = _statuses_of(snap)
    for found in _display(
        f"DISPLAY QUEUE({_quoted(name)}) TYPE({kind}) QSGDISP({disposition}) ALL", snap
    ):
        attrs = dict(found.attributes)
        status = states.get(found.name)
        if wanted is not None and not wanted(attrs, status):
            continue
        shown.append(_queue_json(found.name, attrs, fields, statuses, status))
    if queue is not None and not shown and wanted is None:
        raise _unknown_queue(queue, q_mgr)
    return JSONResponse({"queue": shown})


def _display(text: str, snap: Snapshot) -> list[display.Found]:
    parsed = commands.parse(text)
    if parsed.request is None:
        raise refuse(400, "MQWB0302E", "name", text, detail="Not a queue name.")
    return display.select(parsed.request, snap)


def _statuses_of(snap: Snapshot) -> dict[str, dict[str, int]]:
    """Each local queue's status on this queue manager, by name (DISPLAY QSTATUS, once
    for the request: alias, remote and model queues have none)."""
    request = commands.parse("DISPLAY QSTATUS(*) TYPE(QUEUE) ALL").request
    assert request is not None  # a constant command
    found = {}
    for each in display.select(request, snap):
        view = snap.queues[each.name]
        attrs = dict(each.attributes)
        found[each.name] = {s.rest: s.read(attrs, view.uncommitted) for s in STATUS}
    return found


def _queue_json(
    name: str,
    attrs: dict[str, Value],
    fields: list[Field],
    statuses: list[Status],
    status: dict[str, int] | None,
) -> dict[str, Any]:
    kind = _TYPE_NAMES.get(str(attrs.get("TYPE")), "local")
    body: dict[str, Any] = {"name": name, "type": kind}
    for each in fields:
        if each.rest == "model.type" and kind != "model":
            continue
        if each.rest == "dynamic.type" and (
            kind != "local" or attrs.get("DEFTYPE") == "PREDEFINED"
        ):
            continue
        present, value = each.to_rest(attrs)
        if present:
            _place(body, each.rest, value)
    if status is not None:
        for state in statuses:
            _place(body, state.rest, status[state.rest])
    return body


def _place(body: dict[str, Any], dotted: str, value: Any) -> None:
    *path, last = dotted.split(".")
    for part in path:
        body = body.setdefault(part, {})
    body[last] = value


def _attributes(value: str | None) -> list[Field]:
    """``attributes=``: ``*``, an object's name (``storage``), or ``object.attribute``,
    comma separated; none without it (IBM answers name and type alone)."""
    if value is None:
        return []
    chosen: dict[str, Field] = {}
    for part in value.split(","):
        part = part.strip()
        if part == "*":
            chosen.update((f.rest, f) for f in FIELDS)
        elif part in GROUPS:
            chosen.update((f.rest, f) for f in FIELDS if f.group == part)
        elif part in BY_NAME:
            chosen[part] = BY_NAME[part]
        else:
            raise refuse(
                400,
                "MQWB0302E",
                "attributes",
                part,
                detail=(
                    f"{_cut(part)!r} is not an attribute of a queue: an object (storage, "
                    "general, ...), object.attribute, or *."
                ),
            )
    return [f for f in FIELDS if f.rest in chosen]


def _statuses(value: str | None) -> list[Status]:
    """``status=``: ``*`` or ``status`` for all, or ``status.attribute``, comma separated."""
    if value is None:
        return []
    chosen = set()
    for part in value.split(","):
        part = part.strip()
        if part in ("*", "status"):
            chosen |= set(STATUS_BY_NAME)
        elif part in STATUS_BY_NAME:
            chosen.add(part)
        else:
            raise refuse(
                400,
                "MQWB0302E",
                "status",
                part,
                detail=(
                    f"{_cut(part)!r} is not a queue status attribute: "
                    + ", ".join(STATUS_BY_NAME)
                    + ", status or *."
                ),
            )
    return [s for s in STATUS if s.rest in chosen]


Filter = Callable[[dict[str, Value], dict[str, int] | None], bool]


def _filter(value: str | None) -> Filter | None:
    """``filter=attribute:operator:value`` (IBM's six operators); a text value may end
    in ``*``, with ``equalTo`` and ``notEqualTo`` only, to match a prefix. A queue
    without the attribute (a status of an alias queue) does not pass."""
    if value is None:
        return None
    parts = value.split(":", 2)
    if len(parts) != 3:
        raise refuse(
            400,
            "MQWB0302E",
            "filter",
            _cut(value),
            detail=("A filter is attribute:operator:value."),
        )
    name, operator, wanted = parts
    compare = OPERATORS.get(operator)
    if compare is None:
        raise refuse(
            400,
            "MQWB0302E",
            "filter",
            _cut(value),
            detail=(f"{_cut(operator)!r} is not an operator: " + ", ".join(OPERATORS) + "."),
        )
    if name in STATUS_BY_NAME:
        number = _number(wanted, value)

        def by_status(attrs: dict[str, Value], status: dict[str, int] | None) -> bool:
            return status is not None and compare(status[name], number)

        return by_status
    field = BY_NAME.get(name)
    if field is None:
        raise refuse(
            400,
            "MQWB0302E",
            "filter",
            _cut(value),
            detail=(f"{_cut(name)!r} is not an attribute of a queue."),
        )
    target: Any
    if field.kind == "int":
        target = _number(wanted, value)
    elif field.kind == "flag":
        if wanted not in ("true", "false") or operator not in ("equalTo", "notEqualTo"):
            raise refuse(
                400,
                "MQWB0302E",
                "filter",
                _cut(value),
                detail=(f"{name} is true or false, compared by equalTo or notEqualTo."),
            )
        target = wanted == "true"
    elif field.kind == "choice":
        if wanted not in {rest for _, rest in field.words} or operator not in (
            "equalTo",
            "notEqualTo",
        ):
            raise refuse(
                400,
                "MQWB0302E",
                "filter",
                _cut(value),
                detail=(
                    f"{name} is one of "
                    + ", ".join(r for _, r in field.words)
                    + ", compared by equalTo or notEqualTo."
                ),
            )
        target = wanted
    else:
        target = wanted
        if wanted.endswith("*"):
            if operator not in ("equalTo", "notEqualTo"):
                raise refuse(
                    400,
                    "MQWB0302E",
                    "filter",
                    _cut(value),
                    detail=("A value ending in * is compared by equalTo or notEqualTo."),
                )
            prefix = wanted[:-1]
            equal = operator == "equalTo"

            def by_prefix(attrs: dict[str, Value], status: dict[str, int] | None) -> bool:
                present, shown = field.to_rest(attrs)
                return present and str(shown).startswith(prefix) == equal

            return by_prefix

    def by_attribute(attrs: dict[str, Value], status: dict[str, int] | None) -> bool:
        present, shown = field.to_rest(attrs)
        if not present:
            return False
        try:
            return bool(compare(shown, target))
        except TypeError:
            return False

    return by_attribute


def _number(text: str, whole: str) -> int:
    if not re.fullmatch(r"-?\d{1,10}", text):
        raise refuse(
            400, "MQWB0302E", "filter", _cut(whole), detail=f"{_cut(text)!r} is not a number."
        )
    return int(text)


# ---- POST and PATCH ---------------------------------------------------------------------
async def create(service: Service, request: Request, q_mgr: str, who: Principal) -> Response:
    """POST: DEFINE of the queue the body describes; 201 once defined. ``like=`` copies
    an existing queue's attributes, ``noReplace`` refuses a queue that exists (IBM: "If
    this flag is not specified, the queue is replaced")."""
    require(who, ADMIN, what=f"create queues on {q_mgr}")
    service.qmgr(q_mgr)
    query = _query(request, {"like", "noReplace", "commandScope"})
    body = await _body(request)
    name = body.get("name")
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise refuse(
            400, "MQWB2004E", detail="The body needs name, a queue name of 1 to 48 characters."
        )
    kind = body.get("type", "local")
    if kind not in ("local", "alias", "remote", "model"):
        raise refuse(400, "MQWB2004E", detail="type is local, alias, remote or model.")
    words = [f"DEFINE {_QUEUE_TYPES[kind]}({_quoted(name)})", *_settings(body, kind)]
    like = query.get("like")
    if like is not None:
        if not _NAME.fullmatch(like):
            raise refuse(400, "MQWB0302E", "like", _cut(like))
        words.append(f"LIKE({_quoted(like)})")
    words.append("NOREPLACE" if "noReplace" in query else "REPLACE")
    text = _scoped(words, query)
    await _run(service, q_mgr, text)
    return Response(status_code=201)


async def change(
    service: Service, request: Request, q_mgr: str, queue: str, who: Principal
) -> Response:
    """PATCH: ALTER of the named queue, by its type, with the attributes the body
    gives; 204 once changed."""
    require(who, ADMIN, what=f"change queues on {q_mgr}")
    service.qmgr(q_mgr)
    query = _query(request, {"commandScope", "queueSharingGroupDisposition"})
    disposition = _choice_param(
        query,
        "queueSharingGroupDisposition",
        "qmgr",
        {d: d.upper() for d in ("qmgr", "copy", "group", "shared")},
    )
    body = await _body(request)
    found = _display(
        f"DISPLAY QUEUE({_quoted(queue)}) QSGDISP({disposition})",
        await actor_admin.snapshot(service.world, q_mgr),
    )
    if not found:
        raise _unknown_queue(queue, q_mgr)
    kind = _TYPE_NAMES.get(str(dict(found[0].attributes).get("TYPE")), "local")
    if body.get("name", queue) != queue or body.get("type", kind) != kind:
        raise refuse(400, "MQWB2004E", detail="PATCH cannot change a queue's name or type.")
    settings = _settings(body, kind)
    if "queueSharingGroup" in body:
        raise refuse(
            400,
            "MQWB2004E",
            detail=(
                "queueSharingGroup chooses a definition: "
                "give queueSharingGroupDisposition= instead."
            ),
        )
    words = [f"ALTER {_QUEUE_TYPES[kind]}({_quoted(queue)})", *settings]
    await _run(service, q_mgr, _scoped(words, query))
    return Response(status_code=204)


def _settings(body: dict[str, Any], kind: str) -> list[str]:
    """The body's attribute objects as MQSC words; 400 for a name the resource does not
    know, a value it does not take, or an object the queue's type does not have."""
    words: list[str] = []
    for key, value in body.items():
        if key in ("name", "type"):
            continue
        if key not in GROUPS or key == "dynamic":
            raise refuse(
                400, "MQWB2004E", detail=f"{_cut(key)!r} is not an attribute object of a queue."
            )
        if key in ("remote", "alias", "model") and key != kind:
            raise refuse(400, "MQWB2004E", detail=f"A {kind} queue has no {key} attributes.")
        words += _group_words(key, value)
    return words


def _group_words(prefix: str, value: object) -> list[str]:
    if not isinstance(value, dict):
        raise refuse(400, "MQWB2004E", detail=f"{prefix} must be a JSON object.")
    words: list[str] = []
    for key, inner in value.items():
        name = f"{prefix}.{key}"
        field = BY_NAME.get(name)
        if (
            field is None
            and isinstance(inner, dict)
            and any(f.rest.startswith(name + ".") for f in FIELDS)
        ):
            words += _group_words(name, inner)
            continue
        if field is None or not field.writable:
            raise refuse(
                400, "MQWB2004E", detail=f"{_cut(name)!r} is not an attribute a queue's body sets."
            )
        words.append(field.to_mqsc(inner))
    return words


def _scoped(words: list[str], query: dict[str, str]) -> str:
    scope = query.get("commandScope")
    if scope is not None:
        if not _SCOPE.fullmatch(scope):
            raise refuse(400, "MQWB0302E", "commandScope", _cut(scope))
        words.append(f"CMDSCOPE({scope})")
    return " ".join(words)


async def _run(service: Service, q_mgr: str, text: str) -> None:
    """The MQSC command on ``q_mgr``: a refusal is 500 with reason 3008 and the queue
    manager's reply; a command scope with members down is 500 naming them."""
    down = admin.down_members(service, q_mgr, text)
    reply = await actor_admin.command(service.world, q_mgr, text)
    if reply.failed:
        raise RestError(
            500,
            Error(
                "MQWB0004E",
                (str(CMQCFC.MQRCCF_COMMAND_FAILED), "MQRCCF_COMMAND_FAILED"),
                type="pcf",
                completion_code=2,
                reason_code=CMQCFC.MQRCCF_COMMAND_FAILED,
                detail=" ".join(reply.lines)[:2000],  # the reply, bounded
            ),
        )
    if down[0]:
        admin.answer([admin.reply_item(reply)], service, down)  # raises: 500


async def _body(request: Request) -> dict[str, Any]:
    raw = await read_body(request, MAX_QUEUE_BODY)
    try:
        body = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        raise refuse(400, "MQWB2004E", detail=f"Not JSON: {_cut(str(error))}.") from None
    if not isinstance(body, dict):
        raise refuse(400, "MQWB2004E", detail="The body must be a JSON object.")
    return body


# ---- DELETE -----------------------------------------------------------------------------
async def delete(
    service: Service, request: Request, q_mgr: str, queue: str, who: Principal
) -> Response:
    """DELETE: DELETE of the queue's type, with ``purge``, ``commandScope`` and
    ``queueSharingGroupDisposition`` as MQSC's PURGE, CMDSCOPE and QSGDISP; 204."""
    require(who, ADMIN, what=f"delete queues on {q_mgr}")
    service.qmgr(q_mgr)
    query = _query(
        request, {"purge", "commandScope", "queueSharingGroupDisposition", "keepAuthorityRecords"}
    )
    if "keepAuthorityRecords" in query:
        # IBM: not available on z/OS, whose queue managers qsg plays.
        raise refuse(
            400,
            "MQWB0302E",
            "keepAuthorityRecords",
            query["keepAuthorityRecords"],
            detail="keepAuthorityRecords is not available on z/OS.",
        )
    disposition = _choice_param(
        query,
        "queueSharingGroupDisposition",
        "qmgr",
        {d: d.upper() for d in ("qmgr", "copy", "group", "shared")},
    )
    found = _display(
        f"DISPLAY QUEUE({_quoted(queue)}) QSGDISP({disposition})",
        await actor_admin.snapshot(service.world, q_mgr),
    )
    if not found:
        raise _unknown_queue(queue, q_mgr)
    verb = str(dict(found[0].attributes).get("TYPE", "QLOCAL"))
    # qsg's DELETE finds the definition's disposition itself (its MQSC reader takes no
    # QSGDISP on DELETE): the disposition asked for chose the object above.
    words = [f"DELETE {verb}({_quoted(queue)})"]
    if "purge" in query and verb == "QLOCAL":
        words.append("PURGE")
    await _run(service, q_mgr, _scoped(words, query))
    return Response(status_code=204)


# ---- the query ----------------------------------------------------------------------------
def _query(request: Request, known: set[str]) -> dict[str, str]:
    """The request's query parameters, each once; 400 for one this method does not take."""
    query: dict[str, str] = {}
    for key, value in request.query_params.multi_items():
        if key not in known:
            raise refuse(
                400,
                "MQWB0302E",
                _cut(key),
                _cut(value),
                detail=(
                    f"{_cut(key)!r} is not a query parameter of this resource and method: "
                    + ", ".join(sorted(known))
                    + "."
                ),
            )
        if key in query:
            raise refuse(400, "MQWB0302E", key, _cut(value), detail=f"{key} is given twice.")
        if len(value) > MAX_QUERY_VALUE:
            raise refuse(400, "MQWB0302E", key, _cut(value), detail="The value is too long.")
        query[key] = value
    return query


def _choice_param(query: dict[str, str], name: str, default: str, choices: dict[str, str]) -> str:
    value = query.get(name, default)
    if value not in choices:
        raise refuse(400, "MQWB0302E", name, _cut(value))
    return choices[value]


def _quoted(name: str) -> str:
    return admin.quoted(name, keep_case=True)


def _cut(text: str) -> str:
    """A client's text as an error repeats it: 64 characters at most."""
    return text if len(text) <= 64 else text[:61] + "..."


def _bad_value(name: str, value: object) -> RestError:
    shown = _cut(json.dumps(value)) if not isinstance(value, str) else _cut(repr(value))
    return refuse(400, "MQWB2004E", detail=f"{shown} is not a value {name} takes.")


def _unknown_queue(queue: str, q_mgr: str) -> RestError:
    return RestError(
        404,
        Error(
            "MQWB0303E",
            type="pcf",
            completion_code=2,
            reason_code=CMQC.MQRC_UNKNOWN_OBJECT_NAME,
            detail=f"No queue {_cut(queue)} on {q_mgr}.",
        ),
    )


__all__ = ["FIELDS", "OPERATORS", "STATUS", "Field", "change", "create", "delete", "get"]
