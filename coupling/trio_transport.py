"""The coupling facility from trio: the same scripts, over a trio stream, pipelined.

Every call a task makes is framed in RESP and queued; a writer task sends everything
queued in one write, so concurrent members' calls share round trips without waiting for
each other (automatic pipelining). A reader task parses replies with hiredis and hands
each to its caller in order; both live in the transport's nursery. Redis answers a
connection's commands in the order sent, so order is enough.

The store primitives are synchronous (the rules layer calls them), so ``run`` and
``command`` reach the event loop through greenback: a trio task that called
``await greenback.ensure_portal()`` may call them, and they suspend that task, not the
loop, while the server answers. ``arun`` and ``acommand`` are the async forms.

As with the blocking transport, a call is never sent twice: if the link breaks, every
call in flight fails with ``CFConnectionError`` (its outcome unknown) and the next call
connects again.

Every wait is bounded in real seconds (``coupling.link``: the URL's
``socket_connect_timeout``, ``socket_timeout`` and ``loading_timeout``): connecting (TLS
handshake included) runs under a wall-clock deadline, and a watchdog task per link fails
the link when its oldest call has waited longer than the reply timeout, so a server that
accepts and never answers ends in ``CFConnectionError``, not a hang. A server in a
transient state (LOADING, BUSY, READONLY...: ``coupling.errors.TRANSIENT``) ran nothing:
the call is sent again until the state has passed, within the loading timeout.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import greenback
import hiredis
import trio
from valkey.connection import SSLConnection, UnixDomainSocketConnection

from coupling.errors import (
    CFConnectionError,
    CFCutOffError,
    Unavailability,
    pauses,
    refusal,
    transient,
)
from coupling.link import LinkSettings
from coupling.scripts import ALL, Script
from coupling.server import url_options, where
from coupling.transport import Arg
from coupling.wallclock import WallTimeoutError, sleep_wall, within


def _frame(args: Sequence[Arg]) -> bytes:
    """One command in RESP: an array of bulk strings (hiredis packs it in C: 4 us for a
    put's script call here, against 10 in Python)."""
    # hiredis's stub types the tuple as one item long (it takes any length) and leaves
    # the result untyped (bytes).
    packed: bytes = hiredis.pack_command(tuple(args))  # type: ignore[arg-type]
    return packed


class _Call:
    __slots__ = ("done", "reply", "since")

    def __init__(self) -> None:
        self.done = trio.Event()
        self.reply: Any = None
        self.since = time.monotonic()  # wall time: the reply timeout counts from here


class _Link:
    """One connection: its stream, its reply parser and the calls awaiting replies."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.reader = hiredis.Reader()
        self.waiting: deque[_Call] = deque()
        self.outbox: list[bytes] = []
        self.queued = trio.Event()  # set when the outbox has something to send
        self.broken: CFConnectionError | None = None
        #: Set while the watchdog waits for a call to watch; cleared by the next call.
        self.idle: trio.Event | None = None
        self.stop = threading.Event()  # ends the watchdog's wall-clock sleep

    def fail(self, error: BaseException) -> None:
        if self.broken is None:
            self.broken = (
                error
                if isinstance(error, CFConnectionError)
                else CFConnectionError(f"the link to the coupling facility broke: {error}")
            )
        self.stop.set()
        while self.waiting:
            call = self.waiting.popleft()
            call.reply = CFConnectionError(str(self.broken))  # each raised in its own task
            call.done.set()


class TrioTransport:
    """A connection to the server for trio tasks; open it with ``TrioTransport.open``."""

    def __init__(self, url: str, nursery: trio.Nursery) -> None:
        self.url = url
        self._options = url_options(url)
        self.settings = LinkSettings.from_options(
            self._options, tls=self._options.get("connection_class") is SSLConnection
        )
        self._where = where(self._options)
        self._nursery = nursery
        self._link: _Link | None = None
        self._connecting = trio.Lock()
        self._connects = 0  # connections being made (real I/O in flight)
        self._loading = 0  # calls waiting for the server to finish loading (likewise)
        #: How many times a connection was made: a new one ends a failure of the link.
        self.connections = 0
        #: How many times a call waited for a server in a transient state (LOADING...).
        self.loading_waits = 0
        #: How long calls wait for a server in a transient state.
        self.unavailability = Unavailability(self.settings.loading_timeout)
        #: Set, the coupling facility is unavailable to this connection (a simulated
        #: outage): every call fails at once with this text and nothing reaches the
        #: server, so nothing can have happened.
        self.unavailable = ""

    @classmethod
    @asynccontextmanager
    async def open(
        cls, url: str, *, watch: Callable[[TrioTransport], object] | None = None
    ) -> AsyncIterator[TrioTransport]:
        """Connect (log in, select the database, register every script) for the block.

        ``watch`` is given the transport before it connects: a virtual clock's ``watch``,
        so that simulated time stands still from the first byte on (it would otherwise
        jump to the next timer while the connection is being made)."""
        url_options(url)  # a wrong URL: a plain ValueError, before any nursery opens
        failure: CFConnectionError | None = None
        async with trio.open_nursery() as nursery:
            transport = cls(url, nursery)
            if watch is not None:
                watch(transport)
            try:
                await transport._ensure_link()
            except CFConnectionError as error:  # raised alone, not in the nursery's group
                failure = error
                nursery.cancel_scope.cancel()
            if failure is None:
                try:
                    yield transport
                finally:
                    await transport.aclose()
                    nursery.cancel_scope.cancel()
        if failure is not None:
            raise failure

    @property
    def busy(self) -> bool:
        """A request awaits its reply (or a connection is being made): the virtual
        clock does not move meanwhile."""
        link = self._link
        busy = self._connects > 0 or self._loading > 0
        return busy or (link is not None and bool(link.waiting))

    # ---- calls ------------------------------------------------------------------------
    async def arun(self, script: Script, keys: Sequence[str], args: Sequence[Arg]) -> Any:
        return await self.acommand("EVALSHA", script.sha, len(keys), *keys, *args)

    async def acommand(self, *args: Arg) -> Any:
        if self.unavailable:
            raise CFCutOffError(self.unavailable)
        frame = _frame(args)
        link = await self._ensure_link()
        reply = await self._call(link, frame)
        if not isinstance(reply, hiredis.ReplyError):
            return reply
        return await self._after_refusal(args, frame, reply)

    async def _after_refusal(self, args: Sequence[Arg], frame: bytes, reply: Any) -> Any:
        """A call the server refused (it ran nothing): sent again once its scripts are
        registered again (NOSCRIPT: it restarted), or once its transient state has passed
        (LOADING, BUSY, READONLY...: ``coupling.errors.TRANSIENT``, within the loading
        timeout); else the refusal raised."""
        waits = pauses()
        registered = waited = False
        while isinstance(reply, hiredis.ReplyError):
            text = str(reply)
            if text.startswith("NOSCRIPT") and not registered:
                registered = True
                await self._register(await self._ensure_link())
            elif (state := transient(text)) is not None:
                self.unavailability.met(state, time.monotonic())
                registered, waited = False, True  # a server that loaded has no scripts yet
                self.loading_waits += 1
                self._loading += 1  # real time passes; simulated time stands still
                try:
                    await sleep_wall(next(waits))
                finally:
                    self._loading -= 1
            else:
                refused = refusal(text)
                if refused is not None:
                    raise refused
                raise RuntimeError(f"the coupling facility refused {args[0]!r}: {text}")
            reply = await self._call(await self._ensure_link(), frame)
        if waited:
            self.unavailability.passed()
        return reply

    def run(self, script: Script, keys: Sequence[str], args: Sequence[Arg]) -> Any:
        """The synchronous form, from a task with a greenback portal."""
        return greenback.await_(self.arun(script, keys, args))

    def command(self, *args: Arg) -> Any:
        return greenback.await_(self.acommand(*args))

    async def _call(self, link: _Link, frame: bytes) -> Any:
        if link.broken is not None:
            raise CFConnectionError(str(link.broken))
        call = _Call()
        link.waiting.append(call)
        link.outbox.append(frame)
        link.queued.set()
        if link.idle is not None:  # the watchdog has a call to watch again
            link.idle.set()
            link.idle = None
        await call.done.wait()
        if isinstance(call.reply, CFConnectionError):
            raise call.reply
        return call.reply

    async def _write(self, link: _Link) -> None:
        """Send everything queued, in order, in one write. The writer runs after the tasks
        that were ready with it, so the calls they made meanwhile share that write."""
        try:
            while True:
                await link.queued.wait()
                link.queued = trio.Event()
                data = b"".join(link.outbox)
                link.outbox.clear()
                await link.stream.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as error:
            self._drop(link, error)

    async def _read(self, link: _Link) -> None:
        reader, waiting = link.reader, link.waiting
        try:
            while True:
                data = await link.stream.receive_some(1 << 16)
                if not data:
                    raise trio.BrokenResourceError("the server closed the connection")
                reader.feed(bytes(data))
                while (reply := reader.gets()) is not False:
                    call = waiting.popleft()
                    call.reply = reply
                    call.done.set()
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as error:
            self._drop(link, error)

    async def _watch(self, link: _Link) -> None:
        """The reply timeout: when the oldest call in flight has waited longer than
        ``socket_timeout`` (real seconds, its write included), the link is failed and
        closed, and every call on it fails. Asleep (in a worker thread) only while a
        call is in flight."""
        timeout = self.settings.reply_timeout
        while link.broken is None:
            if not link.waiting:
                link.idle = trio.Event()
                await link.idle.wait()
                continue
            left = link.waiting[0].since + timeout - time.monotonic()
            if left > 0:
                await sleep_wall(left, link.stop)
                continue
            self._drop(
                link,
                CFConnectionError(
                    f"the coupling facility at {self._where} did not answer within "
                    f"{timeout:g} s (socket_timeout)"
                ),
            )
            await trio.aclose_forcefully(link.stream)

    def _drop(self, link: _Link, error: BaseException) -> None:
        link.fail(error)
        if self._link is link:
            self._link = None

    # ---- connecting -------------------------------------------------------------------
    async def _ensure_link(self) -> _Link:
        link = self._link
        if link is not None:
            return link
        async with self._connecting:
            if self._link is None:
                self._connects += 1
                try:
                    self._link = await self._connect()
                    self.connections += 1
                finally:
                    self._connects -= 1
            return self._link

    async def _open_stream(self) -> trio.abc.Stream:
        """The connection, its TLS handshake done: within the connect timeout."""
        settings = self.settings
        try:
            return await within(settings.connect_timeout, self._open_stream_unbounded)
        except WallTimeoutError:
            raise CFConnectionError(
                f"the coupling facility at {self._where} did not accept the connection"
                f"{' and TLS handshake' if settings.tls else ''} within "
                f"{settings.connect_timeout:g} s (socket_connect_timeout)"
            ) from None
        except OSError as error:
            raise CFConnectionError(
                f"cannot reach the coupling facility at {self._where}: {error}"
            ) from error
        except trio.BrokenResourceError as error:  # the TLS handshake failed
            cause = error.__cause__ or error
            raise CFConnectionError(
                f"the TLS handshake with the coupling facility at {self._where} failed: {cause}"
            ) from error

    async def _open_stream_unbounded(self) -> trio.abc.Stream:
        options = self._options
        if options.get("connection_class") is UnixDomainSocketConnection:
            return await trio.open_unix_socket(options["path"])
        host = options.get("host", "localhost")
        stream: trio.abc.Stream = await trio.open_tcp_stream(host, options.get("port", 6379))
        if self.settings.tls is None:
            return stream
        secured = trio.SSLStream(stream, self.settings.tls, server_hostname=host)
        try:
            await secured.do_handshake()
        except BaseException:
            await trio.aclose_forcefully(stream)
            raise
        return secured

    async def _connect(self) -> _Link:
        options = self._options
        link = _Link(await self._open_stream())
        self._nursery.start_soon(self._read, link)
        self._nursery.start_soon(self._write, link)
        self._nursery.start_soon(self._watch, link)
        login: list[Arg] = []
        if options.get("password"):
            login = ["AUTH", options.get("username") or "default", options["password"]]
        for command in (login, ["SELECT", options.get("db", 0)]):
            if command:
                reply = await self._call(link, _frame(command))
                if isinstance(reply, hiredis.ReplyError):
                    self._drop(link, reply)
                    refused = f"the coupling facility refused {command[0]!s}: {reply}"
                    raise CFConnectionError(refused)
        await self._register(link)
        return link

    async def _register(self, link: _Link) -> None:
        """SCRIPT LOAD every script. A server in a transient state refuses (LOADING,
        BUSY...): left for later, when a script call meets NOSCRIPT."""
        for script in ALL:
            reply = await self._call(link, _frame(["SCRIPT", "LOAD", script.source]))
            if isinstance(reply, hiredis.ReplyError):
                if transient(str(reply)) is not None:
                    return
                raise RuntimeError(f"the coupling facility refused SCRIPT LOAD: {reply}")

    async def aclose(self) -> None:
        link, self._link = self._link, None
        if link is not None:
            link.fail(CFConnectionError("the link to the coupling facility was closed"))
            await link.stream.aclose()

    def close(self) -> None:
        greenback.await_(self.aclose())
