"""The routes: IBM's REST API under ``/ibmmq/rest/v1``, ``v2`` and ``v3``, and the live
console at ``/``.

The REST API's paths are read from the request's raw path and each segment URL-decoded
on its own, so a queue or queue manager name holding ``/`` (sent as ``%2F``), ``.`` or
``%`` is one name, as IBM's pages say to send them. Every REST answer that is an error
is IBM's error body (``errors``); an unexpected failure inside a handler is answered
500 with MQWB0000E and logged with its traceback (logger ``qsg.serve``): the run goes on.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from importlib import resources
from urllib.parse import unquote

import trio
from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from qsg.commands.serve import admin, messaging, queues
from qsg.commands.serve.errors import RestError, refuse
from qsg.commands.serve.live import Live
from qsg.commands.serve.messaging import Target, read_body
from qsg.commands.serve.security import (
    CSRF_HEADER,
    TOKEN_COOKIE,
    TOKEN_LIFETIME,
    Principal,
    Security,
    check_csrf,
)
from qsg.commands.serve.service import Service

log = logging.getLogger("qsg.serve")

VERSIONS = {"v1": 1, "v2": 2, "v3": 3}
_PREFIX = "/ibmmq/rest/"
#: The most bytes a request's headers may come to (hypercorn's h11_max_incomplete_size).
MAX_HEADERS = 16 * 1024
_ALL_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]

Handler = Callable[[Principal], Awaitable[Response]]


def make_app(service: Service, live: Live) -> ASGIApp:
    """The ASGI application of ``service`` (and its console, ``live``)."""

    async def rest(request: Request) -> Response:
        try:
            return await _rest(service, request)
        except RestError as error:
            return error.response()
        except ClientDisconnect:  # the client went while its body came: no one to answer
            return Response(status_code=400)
        except Exception as error:  # a defect: answered and logged, the run goes on
            log.error("%s %s failed", request.method, request.url.path, exc_info=error)
            return refuse(500, "MQWB0000E", type(error).__name__).response()

    async def page(request: Request) -> Response:
        try:
            service.security.authenticate(request)
        except RestError as error:
            return error.response()
        html = resources.files("qsg.commands.serve").joinpath("console.html").read_text()
        return HTMLResponse(html)

    async def state(request: Request) -> Response:
        try:
            service.security.authenticate(request)
        except RestError as error:
            return error.response()
        return JSONResponse(await live.state())

    async def events(request: Request) -> Response:
        try:
            service.security.authenticate(request)
        except RestError as error:
            return error.response()
        return StreamingResponse(
            live.stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"}
        )

    async def no_resource(request: Request, exc: Exception) -> Response:
        # A URL outside the routes (or a method a console route does not take): IBM's
        # error body all the same.
        if getattr(exc, "status_code", 404) == 405:
            return refuse(405, "MQWB2005E", request.method, request.url.path).response()
        return _not_found(request.url.path).response()

    app = Starlette(
        exception_handlers={404: no_resource, 405: no_resource},
        routes=[
            Route("/", page),
            Route("/console/state", state),
            Route("/console/events", events),
            Route("/ibmmq/rest/{rest:path}", rest, methods=_ALL_METHODS),
        ],
    )
    return _BoundedHeaders(app)


class _BoundedHeaders:
    """Refuses a request whose headers come to more than ``MAX_HEADERS`` bytes (431,
    IBM's error body) before the application sees it. hypercorn (h11) bounds only
    headers that arrive in pieces; a client that sends them in one write is bounded
    here. Every other request goes on with its body read before its answer
    (``_drained``)."""

    def __init__(self, app: Starlette) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        send = _to_a_closing_connection(send)
        if scope["type"] == "http":
            size = sum(len(name) + len(value) + 4 for name, value in scope["headers"])
            if size > MAX_HEADERS:
                error = refuse(
                    431,
                    "MQWB0000E",
                    "RequestHeaderFieldsTooLarge",
                    detail=f"The request's headers are {size} bytes, over {MAX_HEADERS}.",
                )
                error.headers["Connection"] = "close"
                await error.response()(scope, receive, send)
                return
            if _has_body(scope):
                await self.app(scope, *_drained(receive, send))
                return
        await self.app(scope, receive, send)


#: What trio raises when an answer is sent on a connection the server is already ending:
#: hypercorn's own task, on a timeout or a malformed next request, is sending or has
#: closed it (BusyResourceError: "another task is currently sending data").
_CONNECTION_ENDING = (trio.BusyResourceError, trio.BrokenResourceError, trio.ClosedResourceError)


def _to_a_closing_connection(send: Send) -> Send:
    """``send`` that drops what it cannot send on a connection being ended under it: the
    client will not get that answer whatever the application does, and the request's
    work is done (a message got is got, as when IBM's client goes away mid-answer).
    Without it the race with hypercorn's own task ends the request in a traceback."""

    async def guarded(message: Message) -> None:
        try:
            await send(message)
        except _CONNECTION_ENDING:
            log.debug("an answer was dropped: the connection was being ended")

    return guarded


def _has_body(scope: Scope) -> bool:
    """Whether the request says a body follows (a Content-Length above 0, or chunks): only
    then can its answer come before the body was read. A GET without one (the console's
    event stream) is passed through untouched."""
    for name, value in scope["headers"]:
        if name == b"content-length":
            return value.strip() not in (b"", b"0")
        if name == b"transfer-encoding":
            return True
    return False


def _drained(receive: Receive, send: Send) -> tuple[Receive, Send]:
    """``receive`` and ``send`` for a request whose answer may come before its body was
    read (an error found from the URL or the headers alone): the rest of the body is read
    before the answer starts, so that the connection stays in step and a client's next
    request on it is answered (h11 otherwise ends such a connection without a word, and
    the client's next request meets "Server disconnected"). An answer that closes the
    connection (``Connection: close``, as for a body over the limit) reads nothing more."""
    more = True

    async def tracked() -> Message:
        nonlocal more
        message = await receive()
        more = message["type"] == "http.request" and bool(message.get("more_body", False))
        return message

    async def answer(message: Message) -> None:
        if message["type"] == "http.response.start" and more:
            closing = any(
                name.lower() == b"connection" and value.lower() == b"close"
                for name, value in message.get("headers", [])
            )
            while more and not closing:
                await tracked()
        await send(message)

    return tracked, answer


async def _rest(service: Service, request: Request) -> Response:
    raw = request.scope.get("raw_path") or request.url.path.encode()
    path = raw.decode("latin-1").partition("?")[0]
    segments = [unquote(s) for s in path[len(_PREFIX) :].split("/")]
    version = VERSIONS.get(segments[0]) if segments else None
    if version is None:
        raise _not_found(path)
    route = segments[1:]
    method = request.method
    handlers = _handlers(service, request, version, route)
    if handlers is None:
        raise _not_found(path)
    handler = handlers.get(method)
    if handler is None:
        raise refuse(405, "MQWB2005E", method, path)
    if route == ["login"] and method == "POST":
        return await _login(service, request)
    who = service.security.authenticate(request)
    check_csrf(request)
    return await handler(who)


def _handlers(
    service: Service, request: Request, version: int, route: list[str]
) -> dict[str, Handler] | None:
    """The handlers, by method, of the resource ``route`` names; None if no resource."""
    match route:
        case ["login"]:
            return {
                "POST": lambda who: _login(service, request),
                "GET": lambda who: _whoami(who),
                "DELETE": lambda who: _logout(service, request),
            }
        case ["messaging", "qmgr", q_mgr, "queue", queue, "message"] if q_mgr and queue:
            target = Target(version, q_mgr, queue)
            return {
                "POST": lambda who: messaging.put(service, request, target, who),
                "DELETE": lambda who: messaging.get(service, request, target, who),
                "GET": lambda who: messaging.browse(service, request, target, who),
            }
        case ["admin", "action", "qmgr", q_mgr, "mqsc"] if q_mgr:
            return {"POST": lambda who: admin.mqsc(service, request, q_mgr, who)}
        case ["admin", "qmgr"]:
            return {"GET": lambda who: _ready(admin.qmgr_states(service, None, who))}
        case ["admin", "qmgr", q_mgr, "queue"] if q_mgr and version == 1:
            # IBM: "available only in version 1 of the REST API"
            return {
                "GET": lambda who: queues.get(service, request, q_mgr, None, who),
                "POST": lambda who: queues.create(service, request, q_mgr, who),
            }
        case ["admin", "qmgr", q_mgr, "queue", queue] if q_mgr and queue and version == 1:
            return {
                "GET": lambda who: queues.get(service, request, q_mgr, queue, who),
                "PATCH": lambda who: queues.change(service, request, q_mgr, queue, who),
                "DELETE": lambda who: queues.delete(service, request, q_mgr, queue, who),
            }
        case ["admin", "qmgr", q_mgr] if q_mgr:
            return {"GET": lambda who: _ready(admin.qmgr_states(service, q_mgr, who))}
        case ["admin", "installation"]:
            return {"GET": lambda who: _ready(admin.installation(who))}
    return None


async def _ready(response: Response) -> Response:
    return response


async def _login(service: Service, request: Request) -> Response:
    """POST /login: ``{"username", "password"}``; 204 with the ``LtpaToken2`` cookie."""
    import json

    raw = await read_body(request, 16 * 1024)
    try:
        body = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise refuse(400, "MQWB2004E") from None
    if not isinstance(body, dict) or not all(
        isinstance(body.get(k), str) for k in ("username", "password")
    ):
        raise refuse(400, "MQWB2004E", detail="The body needs username and password.")
    security: Security = service.security
    if security.users is None:  # an open server: everyone is in already
        return Response(status_code=204)
    user = security.check(body["username"], body["password"])
    if user is None:
        raise refuse(401, "MQWB0104E")
    response = Response(status_code=204)
    response.set_cookie(
        TOKEN_COOKIE,
        security.login(user),
        max_age=int(TOKEN_LIFETIME),
        path="/",
        secure=security.secure,
        httponly=True,
        samesite="strict",
    )
    return response


async def _whoami(who: Principal) -> Response:
    """GET /login: the user, its roles and how it authenticated."""
    mechanism = {
        "basic": "basic",
        "token": "ltpaToken",
        "certificate": "clientCertificate",
        "none": "none",
    }[who.mechanism]
    return JSONResponse(
        {
            "user": [
                {"name": who.name, "role": sorted(who.roles), "authenticationMechanism": mechanism}
            ]
        }
    )


async def _logout(service: Service, request: Request) -> Response:
    """DELETE /login: the token ends; 204 and the cookie deleted."""
    service.security.logout(request)
    response = Response(status_code=204)
    response.delete_cookie(TOKEN_COOKIE, path="/")
    return response


def _not_found(path: str) -> RestError:
    return refuse(404, "MQWB0000E", f"no REST API resource {path}")


__all__ = ["CSRF_HEADER", "VERSIONS", "make_app"]
