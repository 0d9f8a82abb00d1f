"""The messaging REST API: ``/ibmmq/rest/vN/messaging/qmgr/{qmgr}/queue/{queue}/message``.

POST puts the request's body as a message (MQPUT1), DELETE gets the next message
(MQGET), GET browses the first one (MQGET with MQGMO_BROWSE_FIRST), each through the
world's MQI (``actors.mqi``) as a connection of the request's user: shared queues,
Expiry, MAXDEPTH, authority checks, a killed or paused queue manager and the fault
schedule apply as to any application, and in a world that keeps a history the calls
are recorded as a pymqi program's are (``qsg.pymqi.history``). IBM's pages: "POST
/messaging/qmgr/{qmgrName}/queue/{queueName}/message", "DELETE ..." and "GET ...".

Text bodies only, as IBM: the request's Content-Type is one of IBM's five text types,
in UTF-8, and the message is MQSTR (CodedCharSetId 1208); a message that is not MQSTR
(nor a JMS TextMessage: an MQRFH2 before MQSTR) is not taken from the queue. REST API
v3 adds ``ibm-mq-md-priority`` and the user properties ``ibm-mq-usr-NAME``, carried as
IBM carries them, in an MQRFH2 header's ``usr`` folder (a JMS TextMessage).

Times: a client's milliseconds (``ibm-mq-md-expiry``, ``wait``) are real ones; under
``--speed X`` the world's clock runs X times faster, so they are multiplied by X on
the way in, and an Expiry is divided by X on the way out.
"""

from __future__ import annotations

import math
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from xml.dom.minidom import Element, Text, parseString
from xml.parsers.expat import ExpatError
from xml.sax.saxutils import escape as xml_escape

from starlette.requests import Request
from starlette.responses import Response

from actors.mqi import Connection
from qsg import CMQC
from qsg.commands.serve.errors import RestError, mq_failure, refuse
from qsg.commands.serve.security import USER, Principal, require
from qsg.commands.serve.service import MAX_BODY, Service
from qsg.core.errors import MQMIError
from qsg.core.structs import GMO, MD, PMO
from qsg.pymqi import history
from qsg.pymqi.errors import PYIFError
from qsg.pymqi.rfh2 import RFH2

#: The media types IBM's messaging API takes (and gives back).
TEXT_TYPES = frozenset(
    {"text/plain", "text/html", "text/xml", "application/json", "application/xml"}
)
_HEX_ID = re.compile(r"[0-9A-Fa-f]{48}")
#: A user property's name: a Java identifier, as JMS property names are.
_PROPERTY = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_USR_PREFIX = "ibm-mq-usr-"
#: The JMS body type of a JMS TextMessage, in the MQRFH2's ``mcd`` folder.
_MCD = b"<mcd><Msd>jms_text</Msd></mcd>"


@dataclass(frozen=True, slots=True)
class Target:
    """The resource a request names: its API version, queue manager and queue (both
    URL-decoded, as IBM says names with ``/``, ``.`` or ``%`` are sent)."""

    version: int
    q_mgr: str
    queue: str


async def put(service: Service, request: Request, target: Target, who: Principal) -> Response:
    """POST: the body put to the queue; 201 with ``ibm-mq-md-messageId``."""
    require(who, USER, what=f"put to {target.queue}")
    service.qmgr(target.q_mgr)
    _check_content_type(request)
    body = await read_body(request)
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise refuse(
            400, "MQWB0305E", "other than utf-8", detail="The body is not UTF-8."
        ) from None
    md = _descriptor(request, target, service)
    properties = _user_properties(request, target)
    data: bytes = text.encode("utf-8")
    if properties:  # a JMS TextMessage: the properties in an MQRFH2's usr folder
        md.Format = CMQC.MQFMT_RF_HEADER_2
        data = _rfh2(properties) + data
    pmo = PMO(
        Options=CMQC.MQPMO_NO_SYNCPOINT | CMQC.MQPMO_NEW_MSG_ID | CMQC.MQPMO_FAIL_IF_QUIESCING
    )
    async with _connected(service, target, who) as conn:
        try:
            await history.put(
                conn, target.queue, lambda: conn.put1(target.queue, data, md, pmo), md, pmo
            )
        except MQMIError as error:
            raise mq_failure(error, target.q_mgr) from None
    return Response(status_code=201, headers={"ibm-mq-md-messageId": _id_out(md.MsgId, target)})


async def get(service: Service, request: Request, target: Target, who: Principal) -> Response:
    """DELETE: the next message (matching ``messageId`` / ``correlationId``), waiting up
    to ``wait`` milliseconds; 200 with its body and headers, 204 if none came."""
    require(who, USER, what=f"get from {target.queue}")
    return await _take(service, request, target, who, browse=False)


async def browse(service: Service, request: Request, target: Target, who: Principal) -> Response:
    """GET: the first message, browsed (left on the queue)."""
    require(who, USER, what=f"browse from {target.queue}")
    return await _take(service, request, target, who, browse=True)


async def _take(
    service: Service, request: Request, target: Target, who: Principal, *, browse: bool
) -> Response:
    service.qmgr(target.q_mgr)
    md = MD()
    gmo = GMO(Options=CMQC.MQGMO_FAIL_IF_QUIESCING | CMQC.MQGMO_CONVERT)
    gmo.MatchOptions = CMQC.MQMO_NONE
    params = request.query_params
    unknown = set(params) - {"messageId", "correlationId", "wait"}
    if unknown:
        name = sorted(unknown)[0]
        raise refuse(400, "MQWB0302E", name, params[name], detail="No such query parameter.")
    if "messageId" in params:
        md.MsgId = _id_in("messageId", params["messageId"], target, strict=True)
        gmo.MatchOptions |= CMQC.MQMO_MATCH_MSG_ID
    if "correlationId" in params:
        md.CorrelId = _id_in("correlationId", params["correlationId"], target, strict=False)
        gmo.MatchOptions |= CMQC.MQMO_MATCH_CORREL_ID
    if "wait" in params:
        wait = _count("wait", params["wait"])
        if wait > 0:
            gmo.Options |= CMQC.MQGMO_WAIT
            gmo.WaitInterval = service.simulated_ms(wait)
    # A destructive get runs in syncpoint, so that a message that is no text is put
    # back (backed out) instead of lost, as IBM leaves such a message on the queue.
    gmo.Options |= CMQC.MQGMO_BROWSE_FIRST if browse else CMQC.MQGMO_SYNCPOINT
    opened = CMQC.MQOO_BROWSE if browse else CMQC.MQOO_INPUT_AS_Q_DEF
    async with _connected(service, target, who) as conn:
        try:
            queue = await conn.open(target.queue, opened | CMQC.MQOO_FAIL_IF_QUIESCING)
            data = await history.get(conn, target.queue, lambda: queue.get(None, md, gmo), md, gmo)
        except MQMIError as error:
            if error.reason == CMQC.MQRC_NO_MSG_AVAILABLE:
                return Response(status_code=204)
            raise mq_failure(error, target.q_mgr) from None
        try:
            text, properties = _text_of(data, md)
        except RestError:
            if not browse:
                await history.end_unit_of_work(conn, commit=False)
            raise
        if not browse:
            await history.end_unit_of_work(conn, commit=True)
    headers = _headers_out(md, properties, target, service)
    return Response(text, status_code=200, headers=headers, media_type="text/plain;charset=utf-8")


class _Connection:
    """MQCONN for one request as its user, MQDISC at the end (a queue manager that
    died meanwhile has ended the connection itself)."""

    def __init__(self, service: Service, target: Target, who: Principal) -> None:
        self.service, self.target, self.who = service, target, who
        self.conn: Connection | None = None

    async def __aenter__(self) -> Connection:
        qm = self.service.qmgr(self.target.q_mgr)
        if not qm.alive:
            raise refuse(503, "MQWB0300E", self.target.q_mgr, self.service.host)
        try:
            self.conn = await self.service.world.connect(self.target.q_mgr, user=self.who.name)
        except MQMIError as error:
            raise mq_failure(error, self.target.q_mgr) from None
        return self.conn

    async def __aexit__(self, *exc: object) -> None:
        conn = self.conn
        if conn is None or not conn.conn.connected:
            return
        try:
            await history.disconnect(conn)
        except MQMIError as error:
            if error.reason not in (CMQC.MQRC_CONNECTION_BROKEN, CMQC.MQRC_Q_MGR_NOT_AVAILABLE):
                raise


def _connected(service: Service, target: Target, who: Principal) -> _Connection:
    return _Connection(service, target, who)


async def read_body(request: Request, limit: int = MAX_BODY) -> bytes:
    """The request's body, at most ``limit`` bytes: a longer one is refused (413) as
    soon as it passes the limit, without reading the rest."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise refuse(413, "MQWB2004E", detail=f"The body is over {limit} bytes.")
    chunks: list[bytes] = []
    size = 0
    stream: AsyncIterator[bytes] = request.stream()
    async for chunk in stream:
        size += len(chunk)
        if size > limit:
            raise refuse(413, "MQWB2004E", detail=f"The body is over {limit} bytes.")
        chunks.append(chunk)
    return b"".join(chunks)


def _check_content_type(request: Request) -> None:
    """IBM's five text types, in UTF-8 (assumed when no charset is given)."""
    given = request.headers.get("content-type")
    if given is None:
        raise refuse(415, "MQWB0306E")
    media, *parameters = (part.strip() for part in given.split(";"))
    if media.lower() not in TEXT_TYPES:
        raise refuse(415, "MQWB0306E")
    for parameter in parameters:
        key, _, value = parameter.partition("=")
        if key.strip().lower() == "charset":
            charset = value.strip().strip('"')
            if charset.lower() not in ("utf-8", "utf8"):
                raise refuse(415, "MQWB0305E", charset)


def _descriptor(request: Request, target: Target, service: Service) -> MD:
    """The MQMD of a put, from IBM's request headers."""
    headers = request.headers
    md = MD(
        Format=CMQC.MQFMT_STRING,
        CodedCharSetId=1208,
        # IBM: nonpersistent unless the request says persistent, whatever DEFPSIST.
        Persistence=CMQC.MQPER_NOT_PERSISTENT,
    )
    persistence = headers.get("ibm-mq-md-persistence")
    if persistence is not None:
        wanted = {"persistent": CMQC.MQPER_PERSISTENT, "nonpersistent": CMQC.MQPER_NOT_PERSISTENT}
        if persistence.lower() not in wanted:
            raise refuse(400, "MQWB0302E", "ibm-mq-md-persistence", persistence)
        md.Persistence = wanted[persistence.lower()]
    expiry = headers.get("ibm-mq-md-expiry")
    if expiry is not None and expiry.lower() != "unlimited":
        ms = _count("ibm-mq-md-expiry", expiry)
        if ms == 0:
            raise refuse(400, "MQWB0302E", "ibm-mq-md-expiry", expiry)
        # Expiry is in tenths of a (simulated) second: at least one.
        md.Expiry = max(1, math.ceil(service.simulated_ms(ms) / 100))
    correlation = headers.get("ibm-mq-md-correlationId")
    if correlation is not None:
        md.CorrelId = _id_in("ibm-mq-md-correlationId", correlation, target, strict=False)
    reply_to = headers.get("ibm-mq-md-replyTo")
    if reply_to is not None:
        queue, _, q_mgr = reply_to.partition("@")
        if not queue or len(queue) > 48 or len(q_mgr) > 48:
            raise refuse(400, "MQWB0302E", "ibm-mq-md-replyTo", reply_to)
        md.ReplyToQ = queue.encode()
        md.ReplyToQMgr = q_mgr.encode()
    priority = headers.get("ibm-mq-md-priority")
    if priority is not None and target.version >= 3:
        if not (priority.isdigit() and 0 <= int(priority) <= 9):
            raise refuse(400, "MQWB0302E", "ibm-mq-md-priority", priority)
        md.Priority = int(priority)
    return md


def _user_properties(request: Request, target: Target) -> dict[str, str]:
    """v3's ``ibm-mq-usr-NAME: value`` headers (none before v3)."""
    if target.version < 3:
        return {}
    properties: dict[str, str] = {}
    for key, value in request.headers.items():
        if not key.lower().startswith(_USR_PREFIX):
            continue
        name = key[len(_USR_PREFIX) :]
        if not _PROPERTY.fullmatch(name):
            raise refuse(400, "MQWB0302E", key, value)
        properties[name] = value
    return properties


def _rfh2(properties: dict[str, str]) -> bytes:
    """An MQRFH2 (before an MQSTR body) with the ``mcd`` and ``usr`` folders."""
    usr = "".join(f"<{name}>{xml_escape(value)}</{name}>" for name, value in properties.items())
    header = RFH2()
    header["Format"] = CMQC.MQFMT_STRING
    header["CodedCharSetId"] = 1208
    header["NameValueCCSID"] = 1208
    header.add_folder(_MCD)
    header.add_folder(f"<usr>{usr}</usr>".encode())
    return header.pack()


def _text_of(data: bytes, md: MD) -> tuple[str, dict[str, str]]:
    """A message's text (and user properties, for a JMS TextMessage); 500 with
    MQWB0303E for one that is no text (IBM leaves it on the queue)."""
    properties: dict[str, str] = {}
    body = data
    fmt = md.Format
    if fmt == CMQC.MQFMT_RF_HEADER_2:
        header = RFH2()
        try:
            header.unpack(data, md.Encoding)
        except PYIFError as error:
            raise _not_text(f"its MQRFH2 cannot be read ({error})") from None
        body = data[header["StrucLength"] :]
        fmt = header["Format"]
        properties = _usr(header)
    if fmt != CMQC.MQFMT_STRING:
        shown = fmt.decode(errors="replace").strip() or "MQFMT_NONE"
        raise _not_text(f"its Format is {shown}, not MQSTR")
    try:
        return body.decode("utf-8"), properties
    except UnicodeDecodeError:
        raise _not_text("its data is not UTF-8") from None


def _usr(header: RFH2) -> dict[str, str]:
    """The ``usr`` folder's properties (an element each), if the header has one."""
    folder = header.__dict__.get("usr")
    if not isinstance(folder, bytes):
        return {}
    text = folder.rstrip(b" \0").decode("utf-8", errors="replace")
    try:
        root = parseString(text).documentElement
    except ExpatError:
        return {}
    found: dict[str, str] = {}
    if root is None:
        return found
    for child in root.childNodes:
        if isinstance(child, Element):
            found[child.tagName] = "".join(n.data for n in child.childNodes if isinstance(n, Text))
    return found


def _not_text(why: str) -> RestError:
    return refuse(500, "MQWB0303E", detail=f"The message is not a text message: {why}.")


def _headers_out(
    md: MD, properties: dict[str, str], target: Target, service: Service
) -> dict[str, str]:
    headers = {
        "ibm-mq-md-messageId": _id_out(md.MsgId, target),
        "ibm-mq-md-persistence": (
            "persistent" if md.Persistence == CMQC.MQPER_PERSISTENT else "nonPersistent"
        ),
        "ibm-mq-md-expiry": (
            "unlimited"
            if md.Expiry == CMQC.MQEI_UNLIMITED
            else str(service.real_ms(md.Expiry * 100))
        ),
    }
    if md.CorrelId != CMQC.MQCI_NONE:
        headers["ibm-mq-md-correlationId"] = _id_out(md.CorrelId, target)
    reply_q = md.ReplyToQ.rstrip(b" \0").decode(errors="replace")
    if reply_q:
        reply_qm = md.ReplyToQMgr.rstrip(b" \0").decode(errors="replace")
        headers["ibm-mq-md-replyTo"] = f"{reply_q}@{reply_qm}" if reply_qm else reply_q
    if target.version >= 3:
        headers["ibm-mq-md-priority"] = str(md.Priority)
        for name, value in properties.items():
            headers[f"{_USR_PREFIX}{name}"] = value
    return headers


def _id_out(value: bytes, target: Target) -> str:
    """A MsgId or CorrelId as the version's headers give it: 48 hex digits, with
    ``ID:`` before them from v3 on."""
    hexed = value.hex()
    return f"ID:{hexed}" if target.version >= 3 else hexed


def _id_in(name: str, value: str, target: Target, *, strict: bool) -> bytes:
    """A MsgId or CorrelId from a header or a query parameter: 48 hex digits (``ID:``
    before them from v3 on); v3 also takes a correlation id of the application's own,
    up to 24 bytes of text, padded with nulls (qsg keeps it in CorrelId)."""
    given = value
    if target.version >= 3:
        if value.startswith("ID:"):
            given = value[3:]
        elif not strict:
            raw = value.encode()
            if not raw or len(raw) > 24:
                raise refuse(400, "MQWB0302E", name, value)
            return raw.ljust(24, b"\0")
        else:
            raise refuse(400, "MQWB0302E", name, value)
    if not _HEX_ID.fullmatch(given):
        raise refuse(400, "MQWB0302E", name, value)
    return bytes.fromhex(given)


def _count(name: str, value: str) -> int:
    """A whole number of milliseconds, 0 or more."""
    if not value.isdigit() or len(value) > 12:
        raise refuse(400, "MQWB0302E", name, value)
    return int(value)


__all__ = ["TEXT_TYPES", "Target", "browse", "get", "put", "read_body"]
