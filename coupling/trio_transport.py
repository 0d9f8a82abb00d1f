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
"""

from __future__ import annotations

import ssl
from collections import deque
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import greenback
import hiredis
import trio
from valkey.connection import SSLConnection, UnixDomainSocketConnection

from coupling.scripts import ALL, Script
from coupling.server import url_options
from coupling.transport import Arg, CFConnectionError


def _frame(args: Sequence[Arg]) -> bytes:
    """One command in RESP: an array of bulk strings (hiredis packs it in C: 4 us for a
    put's script call here, against 10 in Python)."""
    # hiredis's stub types the tuple as one item long (it takes any length) and leaves
    # the result untyped (bytes).
    packed: bytes = hiredis.pack_command(tuple(args))  # type: ignore[arg-type]
    return packed


class _Call:
    __slots__ = ("done", "reply")

    def __init__(self) -> None:
        self.done = trio.Event()
        self.reply: Any = None


class _Link:
    """One connection: its stream, its reply parser and the calls awaiting replies."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.reader = hiredis.Reader()
        self.waiting: deque[_Call] = deque()
        self.outbox: list[bytes] = []
        self.queued = trio.Event()  # set when the outbox has something to send
        self.broken: BaseException | None = None

    def fail(self, error: BaseException) -> None:
        self.broken = error
        while self.waiting:
            call = self.waiting.popleft()
            call.reply = CFConnectionError(f"the link to the coupling facility broke: {error}")
            call.done.set()


class TrioTransport:
    """A connection to the server for trio tasks; open it with ``TrioTransport.open``."""

    def __init__(self, url: str, nursery: trio.Nursery) -> None:
        self.url = url
        self._options = url_options(url)
        self._nursery = nursery
        self._link: _Link | None = None
        self._connecting = trio.Lock()
        self._connects = 0  # connections being made (real I/O in flight)
        #: Set, the coupling facility is unavailable to this connection (a simulated
        #: outage): every call fails at once with this text and nothing reaches the
        #: server, so nothing can have happened.
        self.unavailable = ""

    @classmethod
    @asynccontextmanager
    async def open(cls, url: str) -> AsyncIterator[TrioTransport]:
        """Connect (log in, select the database, register every script) for the block."""
        async with trio.open_nursery() as nursery:
            transport = cls(url, nursery)
            try:
                await transport._ensure_link()
                yield transport
            finally:
                await transport.aclose()
                nursery.cancel_scope.cancel()

    @property
    def busy(self) -> bool:
        """A request awaits its reply (or a connection is being made): the virtual
        clock does not move meanwhile."""
        link = self._link
        return self._connects > 0 or (link is not None and bool(link.waiting))

    # ---- calls ------------------------------------------------------------------------
    async def arun(self, script: Script, keys: Sequence[str], args: Sequence[Arg]) -> Any:
        return await self.acommand("EVALSHA", script.sha, len(keys), *keys, *args)

    async def acommand(self, *args: Arg) -> Any:
        if self.unavailable:
            raise CFConnectionError(self.unavailable)
        link = await self._ensure_link()
        reply = await self._call(link, _frame(args))
        if isinstance(reply, hiredis.ReplyError) and str(reply).startswith("NOSCRIPT"):
            await self._register(link)  # the server lost its scripts: nothing ran
            reply = await self._call(link, _frame(args))
        if isinstance(reply, hiredis.ReplyError):
            raise RuntimeError(f"the coupling facility refused {args[0]!r}: {reply}")
        return reply

    def run(self, script: Script, keys: Sequence[str], args: Sequence[Arg]) -> Any:
        """The synchronous form, from a task with a greenback portal."""
        return greenback.await_(self.arun(script, keys, args))

    def command(self, *args: Arg) -> Any:
        return greenback.await_(self.acommand(*args))

    async def _call(self, link: _Link, frame: bytes) -> Any:
        if link.broken is not None:
            raise CFConnectionError(f"the link to the coupling facility broke: {link.broken}")
        call = _Call()
        link.waiting.append(call)
        link.outbox.append(frame)
        link.queued.set()
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
                finally:
                    self._connects -= 1
            return self._link

    async def _connect(self) -> _Link:
        options = self._options
        cls = options.get("connection_class")
        try:
            if cls is UnixDomainSocketConnection:
                stream: trio.abc.Stream = await trio.open_unix_socket(options["path"])
            else:
                stream = await trio.open_tcp_stream(
                    options.get("host", "localhost"), options.get("port", 6379)
                )
                if cls is SSLConnection:
                    context = ssl.create_default_context()
                    stream = trio.SSLStream(
                        stream, context, server_hostname=options.get("host", "localhost")
                    )
        except OSError as error:
            raise CFConnectionError(f"cannot reach the coupling facility: {error}") from error
        link = _Link(stream)
        self._nursery.start_soon(self._read, link)
        self._nursery.start_soon(self._write, link)
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
        for script in ALL:
            await self._call(link, _frame(["SCRIPT", "LOAD", script.source]))

    async def aclose(self) -> None:
        link, self._link = self._link, None
        if link is not None:
            link.fail(trio.ClosedResourceError("closed"))
            await link.stream.aclose()

    def close(self) -> None:
        greenback.await_(self.aclose())
