"""The administrative REST API: MQSC over HTTP, and the queue managers' state.

``POST /ibmmq/rest/vN/admin/action/qmgr/{qmgr}/mqsc`` (IBM: "POST - plain text MQSC
command" and "POST - JSON formatted command") takes a JSON body of one of two types:

- ``runCommand``: ``{"type": "runCommand", "parameters": {"command": "DISPLAY ..."}}``,
  the MQSC text run as ``qsg mqsc`` and a scenario's ``[[at]]`` commands run it
  (``actors.admin.command``), answered with the reply's lines in ``text``;
- ``runCommandJSON``: ``command``, ``qualifier``, ``name``, ``parameters``,
  ``responseParameters`` (and ``commandScope``), made into the same command as data
  (``commands.parse_words``: never MQSC text, so no name or value can add a keyword); a
  DISPLAY is answered with one ``commandResponse`` item per object found, its
  ``parameters`` the attributes DISPLAY shows (``qsg.mqsc.display.select``, the one
  implementation behind MQSC, PCF and REST), named in lower case as IBM's replies name
  them.

Each item has a ``completionCode`` and ``reasonCode`` (0 and 0; 2 and 3008,
MQRCCF_COMMAND_FAILED, for a command the queue manager refused), and the body the
``overallCompletionCode`` and ``overallReasonCode``. A command with a command scope
over QSG members some of which are not active answers HTTP 500, with an ``error``
element (``qmgrName``) for each of those and a ``success`` element for each member
that answered ("REST API error handling", "Errors with queue sharing groups").

``GET /admin/qmgr[/{qmgr}]`` gives each queue manager's name and state (``running``;
``endedUnexpectedly`` once killed) and ``GET /admin/installation`` the installation.
"""

from __future__ import annotations

import json
import re
from importlib import metadata
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from actors import admin
from qsg import CMQC, CMQCFC
from qsg.commands.serve.errors import Error, RestError, refuse
from qsg.commands.serve.messaging import read_body
from qsg.commands.serve.security import ADMIN, ADMIN_RO, USER, Principal, require
from qsg.commands.serve.service import Service
from qsg.core.attributes import OBJECT_TYPES, keywords
from qsg.core.attributes.kinds import Text
from qsg.mqsc import commands, display
from qsg.mqsc.attributes import Value
from qsg.mqsc.commands import Reply

#: The largest administrative request body (bytes): an MQSC command is at most 32 KB.
MAX_COMMAND_BODY = 64 * 1024
#: Characters an MQSC value may have unquoted (anything else is quoted).
_PLAIN = re.compile(r"[A-Za-z0-9._/%*&#@$-]+")
#: MQSC attributes whose values are text kept as given (case and all): quoted. The
#: attribute table's text attributes of every object type (names, descriptions, exit
#: data, SSLPEER, ...), and LIKE's object name.
_TEXT_ATTRIBUTES = frozenset(
    keyword
    for object_type in OBJECT_TYPES
    for keyword, attribute in keywords(object_type).items()
    if isinstance(attribute.kind, Text)
) | {"LIKE"}
#: runCommandJSON cannot express these (IBM: "use runCommand"): DISPLAY GROUP among them.
_NOT_JSON = frozenset({"ARCHIVE", "CHINIT", "GROUP", "LOG", "SECURITY", "SYSTEM", "THREAD"})
_FAILED = (2, CMQCFC.MQRCCF_COMMAND_FAILED)


async def mqsc(service: Service, request: Request, q_mgr: str, who: Principal) -> JSONResponse:
    """POST .../admin/action/qmgr/{qmgr}/mqsc."""
    require(who, ADMIN, ADMIN_RO, USER, what=f"run commands on {q_mgr}")
    service.qmgr(q_mgr)
    raw = await read_body(request, MAX_COMMAND_BODY)
    try:
        body = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise refuse(400, "MQWB2004E", detail=f"Not JSON: {error}.") from None
    if not isinstance(body, dict):
        raise refuse(400, "MQWB2004E", detail="The body must be a JSON object.")
    kind = body.get("type")
    if kind == "runCommand":
        text = _run_command_text(body)
        _authorize(who, commands.parse(text), q_mgr)
        down = down_members(service, q_mgr, commands.parse(text))
        reply = await admin.command(service.world, q_mgr, text)
        item = {
            "completionCode": _FAILED[0] if reply.failed else 0,
            "reasonCode": _FAILED[1] if reply.failed else 0,
            "text": list(reply.lines),
        }
        return answer([item], service, down)
    if kind == "runCommandJSON":
        parsed = _run_command_json(body)
        _authorize(who, parsed, q_mgr)
        if parsed.request is not None and parsed.error is None:
            return await _display(service, q_mgr, parsed.request)
        down = down_members(service, q_mgr, parsed)
        reply = await admin.command(service.world, q_mgr, parsed)
        return answer([reply_item(reply)], service, down)
    raise refuse(400, "MQWB2004E", detail="type must be runCommand or runCommandJSON.")


def qmgr_states(service: Service, name: str | None, who: Principal) -> JSONResponse:
    """GET /admin/qmgr[/{qmgr}]: each queue manager's name and state."""
    require(who, ADMIN, ADMIN_RO, USER, what="display queue managers")
    names = sorted(service.world.qmgrs) if name is None else [service.qmgr(name).name]
    shown = []
    for each in names:
        qm = service.world.qmgrs[each]
        state = "running" if qm.alive else "endedUnexpectedly"
        shown.append({"name": each, "state": state})
    return JSONResponse({"qmgr": shown})


def installation(who: Principal) -> JSONResponse:
    """GET /admin/installation: the one installation, qsg's."""
    require(who, ADMIN, ADMIN_RO, USER, what="display the installation")
    try:
        version = metadata.version("qsg")
    except metadata.PackageNotFoundError:
        version = "0"
    return JSONResponse({"installation": [{"name": "qsg", "version": version, "platform": "zos"}]})


def _run_command_text(body: dict[str, Any]) -> str:
    parameters = body.get("parameters")
    command = parameters.get("command") if isinstance(parameters, dict) else None
    if not isinstance(command, str) or not command.strip():
        raise refuse(400, "MQWB2004E", detail="runCommand needs parameters.command, MQSC text.")
    return command


def _run_command_json(body: dict[str, Any]) -> commands.Parsed:
    """runCommandJSON's fields as one command, made as data (``commands.parse_words``):
    no name or value is written into MQSC text, so none can add a keyword."""
    known = {
        "type",
        "command",
        "qualifier",
        "name",
        "parameters",
        "responseParameters",
        "commandScope",
    }
    extra = set(body) - known
    if extra:
        raise refuse(400, "MQWB2004E", detail=f"Unknown field {sorted(extra)[0]!r}.")
    command, qualifier = body.get("command"), body.get("qualifier")
    if not isinstance(command, str) or not _PLAIN.fullmatch(command):
        raise refuse(400, "MQWB2004E", detail="command must be an MQSC verb (display, define...).")
    if not isinstance(qualifier, str) or not _PLAIN.fullmatch(qualifier):
        raise refuse(400, "MQWB2004E", detail="qualifier must be an MQSC object (qlocal...).")
    verb, noun = command.upper(), qualifier.upper()
    if verb in ("DISPLAY", "DIS") and noun in _NOT_JSON:
        raise refuse(400, "MQWB2004E", detail=f"DISPLAY {noun} needs runCommand.")
    name = body.get("name")
    if name is not None and (not isinstance(name, str) or not name):
        raise refuse(400, "MQWB2004E", detail="name must be a non-empty string.")
    words: list[Word] = [(verb, None, False), (noun, name, name is not None)]
    parameters = body.get("parameters", {})
    if not isinstance(parameters, dict):
        raise refuse(400, "MQWB2004E", detail="parameters must be a JSON object.")
    for key, value in parameters.items():
        words.append(parameter_word(key, value))
    scope = body.get("commandScope")
    if scope is not None:
        if not isinstance(scope, str) or not _PLAIN.fullmatch(scope):
            raise refuse(400, "MQWB2004E", detail="commandScope must be * or a member's name.")
        words.append(("CMDSCOPE", scope, False))
    wanted = body.get("responseParameters")
    if wanted is not None:
        if not isinstance(wanted, list) or not all(
            isinstance(w, str) and _PLAIN.fullmatch(w) for w in wanted
        ):
            raise refuse(400, "MQWB2004E", detail="responseParameters must be attribute names.")
        words += [("ALL" if w.lower() == "all" else w.upper(), None, False) for w in wanted]
    return commands.parse_words(words)


#: A command's word as data: (keyword, value or None for a bare keyword, quoted: the
#: value keeps its case and blanks), as ``commands.parse_words`` takes it.
Word = tuple[str, str | None, bool]


def parameter_word(key: object, value: object) -> Word:
    """One attribute of a request as a command's word (400 if it cannot be one)."""
    if not isinstance(key, str) or not _PLAIN.fullmatch(key):
        raise refuse(400, "MQWB2004E", detail=f"{key!r} is not an attribute name.")
    keyword = key.upper()
    if isinstance(value, bool):  # a keyword given bare: SHARE, or NOSHARE for false
        return (keyword if value else f"NO{keyword}", None, False)
    if isinstance(value, int):
        return (keyword, str(value), False)
    if isinstance(value, str):
        return value_word(keyword, value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        if any("," in v or "'" in v for v in value):
            raise refuse(400, "MQWB2004E", detail=f"A value of {key} holds a comma or a quote.")
        return (keyword, ",".join(value), True)
    raise refuse(400, "MQWB2004E", detail=f"The value of {key} is not a string or a number.")


def value_word(keyword: str, value: str) -> Word:
    """``KEYWORD(value)`` as data: a text attribute's value kept as given (quoted), any
    other folded to upper case, as MQSC folds a bare word."""
    if keyword in _TEXT_ATTRIBUTES:
        return (keyword, value, True)
    return (keyword, value.upper(), not _PLAIN.fullmatch(value))


def _authorize(who: Principal, parsed: commands.Parsed, q_mgr: str) -> None:
    """MQWebAdmin runs any command; MQWebAdminRO and MQWebUser only DISPLAY (qsg has
    no command authority records to judge a user's other commands by)."""
    if who.has(ADMIN):
        return
    if parsed.request is None:
        raise refuse(403, "MQWB0103E", f" to change {q_mgr}")


async def _display(service: Service, q_mgr: str, request: display.Request) -> JSONResponse:
    """A DISPLAY as runCommandJSON answers it: an item per object found, per member."""
    world = service.world
    qm = world.qmgrs[q_mgr]
    targets = [q_mgr]
    scope = request.cmdscope
    if scope:
        group = qm.rules.qsg
        members = list(group.members) if group is not None else []
        if (scope != "*" and scope not in members) or not members:
            raise refuse(400, "MQWB2004E", detail=f"{scope} is not a member of a QSG of {q_mgr}.")
        targets = members if scope == "*" else [scope]
    items: list[dict[str, Any]] = []
    down: list[str] = []
    for member in targets:
        peer = world.qmgrs.get(member)
        if peer is None or not admin.responding(peer):
            down.append(member)
            continue
        found = display.select(request, await admin.snapshot(world, member))
        for each in found:
            parameters = _parameters(each.attributes)
            if scope:
                parameters.setdefault("qmgr", member)
            items.append({"completionCode": 0, "reasonCode": 0, "parameters": parameters})
    if not items and not down and not (request.generic or request.object_type in display.UNNAMED):
        reply = commands.answer(request, await admin.snapshot(world, q_mgr))
        items.append(reply_item(reply))
    return answer(items, service, (down, [m for m in targets if m not in down]))


def _parameters(attributes: list[tuple[str, Value]]) -> dict[str, str | int]:
    """DISPLAY's attributes as runCommandJSON names them: lower case; a bare keyword as
    ``yes`` (SHARE) or, for its NO form, the keyword without NO and ``no``."""
    parameters: dict[str, str | int] = {}
    for keyword, value in attributes:
        if value is None:
            if keyword.startswith("NO") and len(keyword) > 2:
                parameters[keyword[2:].lower()] = "no"
            else:
                parameters[keyword.lower()] = "yes"
        else:
            parameters[keyword.lower()] = value
    return parameters


def reply_item(reply: Reply) -> dict[str, Any]:
    if reply.failed:
        return {
            "completionCode": _FAILED[0],
            "reasonCode": _FAILED[1],
            "message": list(reply.lines),
        }
    return {"completionCode": 0, "reasonCode": 0, "message": list(reply.lines)}


def answer(
    items: list[dict[str, Any]],
    service: Service,
    scope: tuple[list[str], list[str]] = ([], []),
) -> JSONResponse:
    """The reply body; with members of the command scope not active (``scope``: those
    down, those that answered), HTTP 500 with an ``error`` element for each of those
    and a ``success`` element for each of these, beside the replies."""
    failed = any(item["completionCode"] for item in items)
    body = {
        "commandResponse": items,
        "overallCompletionCode": _FAILED[0] if failed else 0,
        "overallReasonCode": _FAILED[1] if failed else 0,
    }
    down, answered = scope
    if not down:
        return JSONResponse(body)
    errors = [
        Error(
            "MQWB0300E",
            (member, service.host),
            type="pcf",
            completion_code=2,
            reason_code=CMQC.MQRC_Q_MGR_NOT_AVAILABLE,
            qmgr_name=member,
        )
        for member in down
    ]
    success = [{"qmgrName": member} for member in answered]
    raise RestError(500, *errors, extra={"success": success, **body})


def down_members(
    service: Service, q_mgr: str, parsed: commands.Parsed
) -> tuple[list[str], list[str]]:
    """The members a command's scope names that are not active, and the others."""
    scope = commands.scope(parsed)
    group = service.world.qmgrs[q_mgr].rules.qsg
    if not scope or group is None:
        return [], []
    targets = list(group.members) if scope == "*" else [scope]
    targets = [m for m in targets if m in group.members]
    down = [m for m in targets if not admin.responding(service.world.qmgrs[m])]
    return down, [m for m in targets if m not in down]


__all__ = [
    "Word",
    "answer",
    "down_members",
    "installation",
    "mqsc",
    "parameter_word",
    "qmgr_states",
    "reply_item",
    "value_word",
]
