"""The embedded coupling-facility server: started by the project itself, a real
Redis-protocol server (never a mock), locked to a random password, or the one
QSG_REDIS_URL names."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
import valkey

from coupling.server import URL_VARIABLE, EmbeddedServer, open_server


def ping(url: str) -> bool:
    return bool(valkey.Valkey.from_url(url, socket_timeout=5).ping())


def raw(path: Path, frame: bytes) -> bytes:
    """A command over the unix socket without logging in: what the server answers."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(5)
        sock.connect(str(path))
        sock.sendall(frame)
        return sock.recv(256)


def test_without_a_url_a_private_server_is_started_and_stopped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(URL_VARIABLE, raising=False)
    with open_server() as url:
        assert url.startswith("unix://qsg:")
        assert ping(url)
    with pytest.raises(valkey.exceptions.ConnectionError):
        ping(url)  # gone with the block


def test_the_private_server_answers_only_the_qsg_user_with_its_password() -> None:
    server = EmbeddedServer()
    server.start()
    try:
        assert raw(server.socket_path, b"*1\r\n$4\r\nPING\r\n") == b"+PONG\r\n"
        refused = raw(server.socket_path, b"*2\r\n$3\r\nGET\r\n$1\r\nk\r\n")
        assert refused.startswith(b"-NOPERM")
        wrong = server.url.replace(server.password, "not-the-password")
        with pytest.raises(valkey.exceptions.AuthenticationError):
            ping(wrong)
        assert ping(server.url)
    finally:
        server.stop()


def test_the_private_server_can_listen_on_loopback_instead() -> None:
    server = EmbeddedServer(tcp=True)
    server.start()
    try:
        assert server.url.startswith("redis://qsg:") and "@127.0.0.1:" in server.url
        assert ping(server.url)
    finally:
        server.stop()


def test_qsg_redis_url_names_the_server_to_use_instead(monkeypatch: pytest.MonkeyPatch) -> None:
    server = EmbeddedServer()
    server.start()
    try:
        monkeypatch.setenv(URL_VARIABLE, server.url)
        with open_server() as url:
            assert url == server.url and ping(url)
        assert server.running  # not ours to stop
    finally:
        server.stop()


def test_an_embedded_server_can_be_killed_like_a_failed_coupling_facility() -> None:
    server = EmbeddedServer(persistent=True)
    server.start()
    url = server.url
    server.kill()
    assert not server.running
    with pytest.raises(valkey.exceptions.ConnectionError):
        ping(url)
