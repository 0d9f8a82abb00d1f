"""The world and the HTTP server in one trio run.

hypercorn (its trio worker) serves the Starlette application of ``app``; it runs as
the scenario's ``program`` (``qsg.scenario.play``), so the run ends when the server
does (Ctrl-C, SIGTERM) or, at the scenario's duration, the server is cancelled with
the run. The listening sockets and the TLS context are made before the run starts, so
that a port in use or a certificate that cannot be read is one line at the command
line, not a failure inside the run.

hypercorn's timeouts run on trio's clock, which ``--speed`` makes simulated: each is
given in simulated seconds (real seconds times the speed) so that it lasts as long in
real time as hypercorn means it to.

With ``--tls-ca`` the server asks each TLS client for a certificate and verifies one
that is given against those CAs (IBM: "Using client certificate authentication with the
REST API and IBM MQ Console"); a connection's verified certificate is put in its ASGI
state (``PEER_CERTIFICATE``) for ``security`` to map to a user. hypercorn 0.18 hands the
application no TLS peer certificate, so its trio TCP server is given one that does
(``_CertifiedTCPServer``), for the time the server runs.
"""

from __future__ import annotations

import contextlib
import signal
import ssl
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import hypercorn.trio.run
import trio
from hypercorn.config import Config, Sockets
from hypercorn.trio.run import worker_serve
from hypercorn.trio.tcp_server import TCPServer
from hypercorn.typing import ConnectionState
from hypercorn.utils import wrap_app

from actors.config import Fault
from actors.world import World
from qsg.commands.serve.app import make_app
from qsg.commands.serve.live import Live
from qsg.commands.serve.security import PEER_CERTIFICATE, Security, User
from qsg.commands.serve.service import Service
from qsg.core.errors import QSGError

#: hypercorn's timeouts, in real seconds (``Config``'s defaults, and a read timeout so
#: that a half-open connection does not hold a task for ever: five minutes without a
#: byte from the client, longer than any ``wait`` a client means to make).
_TIMEOUTS = {
    "keep_alive_timeout": 5.0,
    "read_timeout": 300.0,
    "ssl_handshake_timeout": 10.0,
    "graceful_timeout": 1.0,
    "startup_timeout": 60.0,
    "shutdown_timeout": 10.0,
}


class ServeError(QSGError, OSError):
    """The server cannot start: the message says why (a port in use, a certificate
    that cannot be read)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """What ``qsg serve`` was asked for."""

    host: str = "127.0.0.1"
    port: int = 9443
    speed: float = 1.0
    users: dict[str, User] | None = None
    tls_cert: Path | None = None
    tls_key: Path | None = None
    #: CAs whose client certificates authenticate (mutual TLS); None: none asked for.
    tls_ca: Path | None = None

    @property
    def tls(self) -> bool:
        return self.tls_cert is not None


@dataclass(slots=True)
class Listening:
    """The server's bound sockets and configuration, made before the run."""

    config: Config
    sockets: Sockets

    @property
    def urls(self) -> list[str]:
        scheme = "https" if self.config.ssl_enabled else "http"
        found = []
        for sock in (*self.sockets.secure_sockets, *self.sockets.insecure_sockets):
            host, port = sock.getsockname()[:2]
            shown = f"[{host}]" if ":" in host else host
            found.append(f"{scheme}://{shown}:{port}")
        return found

    def close(self) -> None:
        for sock in (*self.sockets.secure_sockets, *self.sockets.insecure_sockets):
            sock.close()


def listen(settings: Settings) -> Listening:
    """Bind ``settings``' host and port (and load its certificate); ``ServeError`` if
    that cannot be done."""
    config = Config()
    config.bind = [
        f"[{settings.host}]:{settings.port}"
        if ":" in settings.host
        else f"{settings.host}:{settings.port}"
    ]
    config.loglevel = "WARNING"
    config.accesslog = None
    config.alpn_protocols = ["http/1.1"]
    for name, seconds in _TIMEOUTS.items():
        setattr(config, name, seconds * settings.speed)
    if settings.tls_cert is not None:
        config.certfile = str(settings.tls_cert)
        config.keyfile = str(settings.tls_key) if settings.tls_key is not None else None
        try:
            config.create_ssl_context()
        except (OSError, ssl.SSLError) as error:
            raise ServeError(f"cannot use the certificate {settings.tls_cert}: {error}") from None
        if settings.tls_ca is not None:
            # Asked for, not required: a client without one authenticates as before.
            config.ca_certs = str(settings.tls_ca)
            config.verify_mode = ssl.CERT_OPTIONAL
            try:
                config.create_ssl_context()
            except (OSError, ssl.SSLError) as error:
                raise ServeError(
                    f"cannot use the CA certificates {settings.tls_ca}: {error}"
                ) from None
    try:
        sockets = config.create_sockets()
    except OSError as error:
        where = f"{settings.host}:{settings.port}"
        raise ServeError(f"cannot listen on {where}: {error.strerror or error}") from None
    for sock in (*sockets.secure_sockets, *sockets.insecure_sockets):
        sock.listen(config.backlog)
    return Listening(config, sockets)


def program(
    listening: Listening,
    settings: Settings,
    duration: float,
    on_started: Callable[[list[str]], None],
    on_signal: Callable[[signal.Signals], None],
    faults: Sequence[Fault] = (),
) -> Callable[[World], Awaitable[None]]:
    """The scenario's program: serve until SIGINT or SIGTERM (``on_signal`` hears
    which; then return: the run ends in order), or until cancelled at the scenario's
    end. ``faults``, the scenario's, are the console's fault schedule."""

    async def serve(world: World) -> None:
        service = Service(
            world,
            Security(settings.users, secure=settings.tls),
            speed=settings.speed,
            host=settings.host,
        )
        app = make_app(service, Live(world, settings.speed, duration, faults))
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:

            async def stopped() -> None:
                async for received in signals:
                    on_signal(signal.Signals(received))
                    return

            # Starlette's ASGI types are its own, the same protocol as hypercorn's.
            wrapped = wrap_app(app, listening.config.wsgi_max_body_size, None)  # type: ignore[arg-type]
            async with trio.open_nursery() as nursery:
                urls = await nursery.start(_serve, wrapped, listening, stopped)
                on_started(urls)

    return serve


async def _serve(
    app: object,
    listening: Listening,
    stopped: Callable[[], Awaitable[None]],
    *,
    task_status: trio.TaskStatus[list[str]] = trio.TASK_STATUS_IGNORED,
) -> None:
    certified = listening.config.verify_mode is not None
    with _tcp_server(_CertifiedTCPServer) if certified else contextlib.nullcontext():
        await worker_serve(
            app,  # type: ignore[arg-type]
            listening.config,
            sockets=listening.sockets,
            shutdown_trigger=stopped,
            task_status=task_status,
        )


class _CertifiedTCPServer(TCPServer):
    """hypercorn's trio TCP server, with the TLS client's verified certificate (None
    without one) in the connection's ASGI state, where every request's scope finds it."""

    async def run(self) -> None:
        peer = None
        stream: Any = self.stream
        if isinstance(stream, trio.SSLStream):
            # A handshake that fails here fails again in hypercorn's own run, which then
            # ends the connection as it does any failed handshake.
            with contextlib.suppress(trio.BrokenResourceError, trio.TooSlowError):
                with trio.fail_after(self.config.ssl_handshake_timeout):
                    await stream.do_handshake()
                peer = stream.getpeercert() or None
        self.state = ConnectionState({**self.state, PEER_CERTIFICATE: peer})
        await super().run()


@contextlib.contextmanager
def _tcp_server(server: type[TCPServer]) -> Iterator[None]:
    """hypercorn's trio worker serving each connection with ``server``, for the block."""
    names = vars(hypercorn.trio.run)  # the name worker_serve looks its server up by
    was = names["TCPServer"]
    names["TCPServer"] = server
    try:
        yield
    finally:
        names["TCPServer"] = was


__all__ = ["Listening", "ServeError", "Settings", "listen", "program"]
