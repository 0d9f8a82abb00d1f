"""The coupling facility over a blocking socket, called straight from the trio thread.

Under the simulator's virtual clock simulated time stands still while a call to the
facility awaits its reply, so nothing in the world can move during it: the trio
transport's writer and reader tasks, the greenback bridge and the passes of trio's loop
between them bought nothing but their cost (about 55% of a world message's wall time on
Valkey). ``DirectTransport`` sends each call on a plain socket and reads its reply
before returning, in the caller's own frame: a world message is then its scripts' round
trips and the rules' work around them. It is the world's transport under the virtual
clock (``actors.world``); under the wall clock a blocking call would hold every other
task back for its round trip (and for a whole ``socket_timeout`` when the server is
silent), so the world keeps the trio transport there.

It keeps what the trio transport promises (``coupling.trio_transport``): commands are
framed and replies parsed by hiredis; a call is never sent twice (a broken link fails
the call with ``CFConnectionError``, its outcome unknown, and the next call connects
again); a refusal that ran nothing is sent again (NOSCRIPT once its scripts are
registered; a transient state such as LOADING or BUSY once it has passed, within
``loading_timeout``); every wait is bounded in wall seconds by the URL's
``socket_connect_timeout`` (connecting, TLS handshake included) and ``socket_timeout``
(a call, its write included), the defaults of ``coupling.link``; ``unavailable`` fails
every call at once, nothing sent.
"""

from __future__ import annotations

import socket
import ssl
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any

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

#: Bytes read from the socket at a time (a reply of a batch of messages may be larger:
#: it is read in as many pieces as it takes).
_CHUNK = 1 << 16


def _frame(args: Sequence[Arg]) -> bytes:
    """One command in RESP, packed by hiredis."""
    # hiredis's stub types the tuple as one item long (it takes any length).
    packed: bytes = hiredis.pack_command(tuple(args))  # type: ignore[arg-type]
    return packed


class _Link:
    """One connected socket and its reply parser."""

    __slots__ = ("reader", "sock")

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.reader = hiredis.Reader()

    def call(self, frame: bytes, timeout: float) -> Any:
        """Send ``frame`` and read its one reply, within ``timeout`` wall seconds in all
        (the write included), else ``TimeoutError`` (the socket's, or this bound's: the
        reply came in pieces, each in time, but not all of it); an error reply comes back
        as ``hiredis.ReplyError``."""
        sock, reader = self.sock, self.reader
        deadline = time.monotonic() + timeout
        sock.settimeout(timeout)
        sock.sendall(frame)
        while (reply := reader.gets()) is False:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            sock.settimeout(left)
            data = sock.recv(_CHUNK)
            if not data:
                raise CFConnectionError(
                    "the link to the coupling facility broke: the server closed the connection"
                )
            reader.feed(data)
        return reply

    def close(self) -> None:
        with suppress(OSError):
            self.sock.close()


class DirectTransport:
    """A blocking connection to the server, for the trio thread (``open``, or
    ``DirectTransport(url)`` and ``close``). See the module's docstring."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._options = url_options(url)  # a clear ValueError for a URL naming no server
        self.settings = LinkSettings.from_options(
            self._options, tls=self._options.get("connection_class") is SSLConnection
        )
        self._where = where(self._options)
        self._link: _Link | None = None
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
    @contextmanager
    def open(cls, url: str) -> Iterator[DirectTransport]:
        """Connected (logged in, its database selected, every script registered) for
        the block; ``CFConnectionError`` if the server cannot be reached."""
        transport = cls(url)
        transport._ensure_link()
        try:
            yield transport
        finally:
            transport.close()

    @property
    def busy(self) -> bool:
        """Never: a call holds the trio thread until its reply, so no task and no clock
        runs while one is in flight (``actors.clock``'s I/O sources)."""
        return False

    # ---- calls ------------------------------------------------------------------------
    def run(self, script: Script, keys: Sequence[str], args: Sequence[Arg]) -> Any:
        """EVALSHA ``script``: its reply, as the server sent it (bulk strings as bytes)."""
        return self.command("EVALSHA", script.sha, len(keys), *keys, *args)

    def command(self, *args: Arg) -> Any:
        """One command, its reply; ``CFConnectionError`` (or ``CFRefusedError``) when the
        facility failed it."""
        if self.unavailable:
            raise CFCutOffError(self.unavailable)
        frame = _frame(args)
        reply = self._call(self._ensure_link(), frame)
        if isinstance(reply, hiredis.ReplyError):
            return self._after_refusal(args, frame, reply)
        return reply

    async def arun(self, script: Script, keys: Sequence[str], args: Sequence[Arg]) -> Any:
        """``run`` for a task: the call blocks, then the task checkpoints (as any trio
        call that does I/O would)."""
        reply = self.run(script, keys, args)
        await trio.lowlevel.checkpoint()
        return reply

    async def acommand(self, *args: Arg) -> Any:
        reply = self.command(*args)
        await trio.lowlevel.checkpoint()
        return reply

    def _after_refusal(self, args: Sequence[Arg], frame: bytes, reply: Any) -> Any:
        """As the trio transport's: a refusal that ran nothing is sent again once the
        scripts are registered again (NOSCRIPT) or the server's transient state has
        passed (LOADING, BUSY, READONLY...: ``coupling.errors.TRANSIENT``, within the
        loading timeout; the thread sleeps meanwhile, simulated time standing still as
        during any call); any other refusal raised."""
        waits = pauses()
        registered = waited = False
        while isinstance(reply, hiredis.ReplyError):
            text = str(reply)
            if text.startswith("NOSCRIPT") and not registered:
                registered = True
                self._register(self._ensure_link())
            elif (state := transient(text)) is not None:
                self.unavailability.met(state, time.monotonic())
                registered, waited = False, True  # a server that loaded has no scripts yet
                self.loading_waits += 1
                time.sleep(next(waits))
            else:
                refused = refusal(text)
                if refused is not None:
                    raise refused
                raise RuntimeError(f"the coupling facility refused {args[0]!r}: {text}")
            reply = self._call(self._ensure_link(), frame)
        if waited:
            self.unavailability.passed()
        return reply

    def _call(self, link: _Link, frame: bytes) -> Any:
        """One round trip on ``link``; a link that fails is closed and forgotten (the
        next call connects again), the call failing with ``CFConnectionError``."""
        timeout = self.settings.reply_timeout
        try:
            return link.call(frame, timeout)
        except TimeoutError:  # socket.timeout is TimeoutError (3.10+); before OSError
            self._drop(link)
            raise CFConnectionError(
                f"the coupling facility at {self._where} did not answer within "
                f"{timeout:g} s (socket_timeout)"
            ) from None
        except CFConnectionError:
            self._drop(link)
            raise
        except (OSError, ssl.SSLError) as error:
            self._drop(link)
            raise CFConnectionError(f"the link to the coupling facility broke: {error}") from error
        except hiredis.ProtocolError as error:
            self._drop(link)
            raise CFConnectionError(
                f"the coupling facility's reply was garbled: {error}"
            ) from error

    def _drop(self, link: _Link) -> None:
        link.close()
        if self._link is link:
            self._link = None

    # ---- connecting -------------------------------------------------------------------
    def _ensure_link(self) -> _Link:
        link = self._link
        if link is None:
            link = self._link = self._connect()
            self.connections += 1
        return link

    def _open_socket(self) -> socket.socket:
        """The connection, its TLS handshake done, within the connect timeout."""
        settings, options = self.settings, self._options
        timeout = settings.connect_timeout
        deadline = time.monotonic() + timeout
        sock: socket.socket | None = None
        try:
            if options.get("connection_class") is UnixDomainSocketConnection:
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                sock.settimeout(timeout)
                sock.connect(options["path"])
            else:
                host = options.get("host", "localhost")
                sock = socket.create_connection((host, options.get("port", 6379)), timeout)
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                if settings.tls is not None:
                    sock.settimeout(max(deadline - time.monotonic(), 0.001))
                    sock = settings.tls.wrap_socket(sock, server_hostname=host)
            return sock
        except TimeoutError:
            if sock is not None:
                sock.close()
            raise CFConnectionError(
                f"the coupling facility at {self._where} did not accept the connection"
                f"{' and TLS handshake' if settings.tls else ''} within "
                f"{timeout:g} s (socket_connect_timeout)"
            ) from None
        except ssl.SSLError as error:  # before OSError: an SSLError is one
            if sock is not None:
                sock.close()
            raise CFConnectionError(
                f"the TLS handshake with the coupling facility at {self._where} failed: {error}"
            ) from error
        except OSError as error:
            if sock is not None:
                sock.close()
            raise CFConnectionError(
                f"cannot reach the coupling facility at {self._where}: {error}"
            ) from error

    def _connect(self) -> _Link:
        options = self._options
        link = _Link(self._open_socket())
        try:
            login: list[Arg] = []
            if options.get("password"):
                login = ["AUTH", options.get("username") or "default", options["password"]]
            for command in (login, ["SELECT", options.get("db", 0)]):
                if command:
                    reply = self._call(link, _frame(command))
                    if isinstance(reply, hiredis.ReplyError):
                        raise CFConnectionError(
                            f"the coupling facility refused {command[0]!s}: {reply}"
                        )
            self._register(link)
        except BaseException:
            link.close()
            raise
        return link

    def _register(self, link: _Link) -> None:
        """SCRIPT LOAD every script, in one round trip (each is sent once, whatever the
        replies). A server in a transient state refuses (LOADING, BUSY...): left for
        later, when a script call meets NOSCRIPT."""
        frames = b"".join(_frame(("SCRIPT", "LOAD", s.source)) for s in ALL)
        replies = [self._call(link, frames)]
        replies += [self._call(link, b"") for _ in ALL[1:]]  # the others, in order
        for reply in replies:
            if isinstance(reply, hiredis.ReplyError):
                if transient(str(reply)) is not None:
                    return
                raise RuntimeError(f"the coupling facility refused SCRIPT LOAD: {reply}")

    def close(self) -> None:
        link, self._link = self._link, None
        if link is not None:
            link.close()

    async def aclose(self) -> None:
        self.close()


__all__ = ["DirectTransport"]
