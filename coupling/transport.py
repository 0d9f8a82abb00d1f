"""How the store reaches the server: a transport runs scripts and plain commands.

``BlockingTransport`` is a synchronous client (valkey-py): the rules-layer tests, the
MQSC-driven demo and any caller without an event loop use it. ``coupling.trio_transport``
runs the same scripts from trio tasks. Both register every script once (SCRIPT LOAD on
connect, and again only if the server answers NOSCRIPT, which means it did not run the
call), and neither ever retries a call that may have run: a put whose answer was lost
may have happened, and sending it again could put it twice. Such a call fails with
``CFConnectionError``, which the store turns into MQRC_CF_STRUC_FAILED.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import valkey
from valkey.backoff import NoBackoff
from valkey.retry import Retry

from coupling.scripts import ALL, Script
from coupling.server import url_options

Arg = str | bytes | int | float


class CFConnectionError(Exception):
    """The coupling facility did not answer: the server is gone or the link broke.

    The call's outcome is unknown (it may have run before the link broke)."""


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
        url_options(url)  # a clear error for a URL that names no server
        self.url = url
        self._client = valkey.Valkey.from_url(url, retry=Retry(NoBackoff(), 0))
        self._loaded = False

    def _load(self) -> None:
        for script in ALL:
            self._client.script_load(script.source)
        self._loaded = True

    def run(self, script: Script, keys: Sequence[str], args: Sequence[Arg]) -> Any:
        try:
            if not self._loaded:
                self._load()
            try:
                return self._client.execute_command("EVALSHA", script.sha, len(keys), *keys, *args)  # type: ignore[no-untyped-call]
            except valkey.exceptions.NoScriptError:
                self._load()  # the server lost its scripts (a restart): nothing ran
                return self._client.execute_command("EVALSHA", script.sha, len(keys), *keys, *args)  # type: ignore[no-untyped-call]
        except (valkey.exceptions.ConnectionError, valkey.exceptions.TimeoutError) as error:
            self._loaded = False
            raise CFConnectionError(str(error)) from error

    def command(self, *args: Arg) -> Any:
        try:
            return self._client.execute_command(*args)  # type: ignore[no-untyped-call]
        except (valkey.exceptions.ConnectionError, valkey.exceptions.TimeoutError) as error:
            self._loaded = False
            raise CFConnectionError(str(error)) from error

    def close(self) -> None:
        self._client.close()  # type: ignore[no-untyped-call]
