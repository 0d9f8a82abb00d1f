"""How the store reaches the server: a transport runs scripts and plain commands.

``BlockingTransport`` is a synchronous client (valkey-py): the rules-layer tests, the
MQSC-driven demo and any caller without an event loop use it. ``coupling.trio_transport``
runs the same scripts from trio tasks. Both register every script once (SCRIPT LOAD on
connect, and again only if the server answers NOSCRIPT, which means it did not run the
call), and neither ever retries a call that may have run: a put whose answer was lost
may have happened, and sending it again could put it twice. Such a call fails with
``CFConnectionError``, which the store turns into MQRC_CF_STRUC_FAILED. A call the server
refused without running it is another matter: a server in a transient state (LOADING,
BUSY, READONLY...: ``coupling.errors.TRANSIENT``) is sent the call again until the state
has passed (within the URL's ``loading_timeout``), and a refusal with a reason of its own
(a full server) is a ``CFRefusedError`` (``coupling.errors``). Both transports bound every
wait by the URL's timeouts, with the defaults of ``coupling.link``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol

import valkey
from valkey.backoff import NoBackoff
from valkey.retry import Retry

from coupling.errors import (
    LOADING,
    OOM,
    CFConnectionError,
    CFRefusedError,
    Unavailability,
    pauses,
    refusal,
    transient,
)
from coupling.link import LinkSettings
from coupling.scripts import ALL, Script
from coupling.server import url_options

Arg = str | bytes | int | float


class Transport(Protocol):
    def run(self, script: Script, keys: Sequence[str], args: Sequence[Arg]) -> Any:
        """EVALSHA ``script``: its reply, as the server sent it (bulk strings as bytes)."""

    def command(self, *args: Arg) -> Any:
        """One plain command (a read that is atomic by itself)."""

    def close(self) -> None: ...


class BlockingTransport:
    """A synchronous connection, for callers without an event loop.

    ``url`` is a ``redis://``, ``rediss://`` (TLS) or ``unix://`` URL, credentials and
    database included, as valkey-py reads them."""

    def __init__(self, url: str) -> None:
        options = url_options(url)  # a clear error for a URL that names no server
        self.url = url
        tls = options.get("connection_class") is valkey.connection.SSLConnection
        self.settings = LinkSettings.from_options(options, tls=tls)
        options.pop("loading_timeout", None)  # qsg's own: valkey-py does not know it
        options.setdefault("socket_connect_timeout", self.settings.connect_timeout)
        options.setdefault("socket_timeout", self.settings.reply_timeout)
        context = self.settings.tls
        if context is not None and "ssl_check_hostname" not in options:  # as coupling.link
            options["ssl_check_hostname"] = context.check_hostname
        pool = valkey.ConnectionPool(retry=Retry(NoBackoff(), 0), **options)
        self._client = valkey.Valkey(connection_pool=pool)
        self._loaded = False
        #: How long calls wait for a server in a transient state.
        self.unavailability = Unavailability(self.settings.loading_timeout)

    def _load(self) -> None:
        for script in ALL:
            self._client.script_load(script.source)
        self._loaded = True

    def run(self, script: Script, keys: Sequence[str], args: Sequence[Arg]) -> Any:
        def call() -> Any:
            if not self._loaded:
                self._load()
            try:
                return self._client.execute_command("EVALSHA", script.sha, len(keys), *keys, *args)  # type: ignore[no-untyped-call]
            except valkey.exceptions.NoScriptError:
                self._load()  # the server lost its scripts (a restart): nothing ran
                return self._client.execute_command("EVALSHA", script.sha, len(keys), *keys, *args)  # type: ignore[no-untyped-call]

        return self._bounded(call)

    def command(self, *args: Arg) -> Any:
        return self._bounded(lambda: self._client.execute_command(*args))  # type: ignore[no-untyped-call]

    def _bounded(self, call: Callable[[], Any]) -> Any:
        """``call()``, sent again while the server is in a transient state (LOADING,
        BUSY, READONLY...: it ran nothing), within the loading timeout; the server's
        failures as ``coupling.errors`` has them."""
        waits = pauses()
        waited = False
        while True:
            try:
                reply = call()
                if waited:
                    self.unavailability.passed()
                return reply
            except valkey.exceptions.BusyLoadingError as error:  # LOADING, its word cut
                waited = self._wait(LOADING, error, waits)
            except (valkey.exceptions.ConnectionError, valkey.exceptions.TimeoutError) as error:
                self._loaded = False
                raise CFConnectionError(str(error)) from error
            except valkey.exceptions.OutOfMemoryError as error:  # valkey-py cut the "OOM"
                raise _refused(OOM) from error
            except valkey.exceptions.ReadOnlyError as error:  # READONLY, its word cut
                waited = self._wait("READONLY", error, waits)
            except valkey.exceptions.ResponseError as error:
                state = transient(str(error))
                if state is not None:
                    waited = self._wait(state, error, waits)
                    continue
                refused: CFRefusedError | None = refusal(str(error))
                if refused is None:
                    raise
                raise refused from error

    def _wait(self, state: str, error: Exception, waits: Iterator[float]) -> bool:
        """A call met transient ``state``: wait before it is sent again (True), or raise
        MQRC_CF_STRUC_IN_USE once the state has lasted the loading timeout."""
        self._loaded = False  # a server that loaded has no scripts yet
        try:
            self.unavailability.met(state, time.monotonic())
        except CFRefusedError as refused:
            raise refused from error
        time.sleep(next(waits))
        return True

    def close(self) -> None:
        self._client.close()  # type: ignore[no-untyped-call]


def _refused(reply: str) -> CFRefusedError:
    refused = refusal(reply)
    assert refused is not None
    return refused


__all__ = ["Arg", "BlockingTransport", "CFConnectionError", "Transport"]
