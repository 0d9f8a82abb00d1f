"""The embedded coupling-facility server: started by the project itself, a real
Redis-protocol server (never a mock), or the one QSG_REDIS_URL names."""

from __future__ import annotations

import socket
from urllib.parse import urlparse

import pytest

from coupling.server import URL_VARIABLE, EmbeddedServer, open_server


def ping(url: str) -> bytes:
    """PING in the Redis protocol over a plain socket: what the server answers."""
    address = urlparse(url)
    assert address.hostname and address.port
    with socket.create_connection((address.hostname, address.port), timeout=5) as sock:
        sock.sendall(b"*1\r\n$4\r\nPING\r\n")
        return sock.recv(64)


def test_without_a_url_a_private_server_is_started_and_stopped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(URL_VARIABLE, raising=False)
    with open_server() as url:
        assert url.startswith("redis://127.0.0.1:")
        assert ping(url) == b"+PONG\r\n"
    with pytest.raises(ConnectionRefusedError):
        ping(url)  # gone with the block


def test_qsg_redis_url_names_the_server_to_use_instead(monkeypatch: pytest.MonkeyPatch) -> None:
    server = EmbeddedServer()
    server.start()
    try:
        monkeypatch.setenv(URL_VARIABLE, server.url)
        with open_server() as url:
            assert url == server.url and ping(url) == b"+PONG\r\n"
        assert server.running  # not ours to stop
    finally:
        server.stop()


def test_an_embedded_server_can_be_killed_like_a_failed_coupling_facility() -> None:
    server = EmbeddedServer(persistent=True)
    server.start()
    url = server.url
    server.kill()
    assert not server.running
    with pytest.raises(ConnectionRefusedError):
        ping(url)
