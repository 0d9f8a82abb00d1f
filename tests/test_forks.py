"""A Ctrl-C that lands while qsg forks is not lost (coupling.forks).

Found in a loaded full run: ``qsg chaos --on-redis`` interrupted by SIGINT printed
"Exception ignored in: <function _releaseLock ...> KeyboardInterrupt" and played on: the
signal had landed in the ``logging`` module's after-fork function of the embedded
server's start, where Python drops an exception it cannot raise."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from types import FrameType

import pytest

from coupling import forks
from coupling.server import EmbeddedServer
from tests.claims import keeps

#: Armed by a test: the next fork of this process sends it SIGINT from the parent's
#: after-fork functions (registered once for the worker's life, inert unless armed).
_ARMED: list[bool] = []


def _interrupt_after_fork() -> None:
    if _ARMED:
        _ARMED.clear()
        os.kill(os.getpid(), signal.SIGINT)


os.register_at_fork(after_in_parent=_interrupt_after_fork)


def _raise(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt  # as trio's handler does, in code that may take it


@pytest.fixture
def raising_sigint() -> Iterator[None]:
    before = signal.signal(signal.SIGINT, _raise)
    try:
        yield
    finally:
        _ARMED.clear()
        signal.signal(signal.SIGINT, before)


@keeps(
    "docs/edges.md",
    "A Ctrl-C that arrives while qsg starts a process (the embedded server, a campaign's "
    "head start, a replication's worker) is taken once the process has started, never lost",
)
def test_a_sigint_during_the_embedded_servers_fork_interrupts_its_start(
    raising_sigint: None, capfd: pytest.CaptureFixture[str]
) -> None:
    server = EmbeddedServer()
    _ARMED.append(True)
    try:
        with pytest.raises(KeyboardInterrupt):
            server.start()
    finally:
        server.stop()
    assert not _ARMED  # the fork happened, and sent its signal
    assert "Exception ignored" not in capfd.readouterr().err
    assert server.pid is None  # the server started is not left behind


def _signalled_inside(reached: list[bool]) -> None:
    with forks.deferred():
        os.kill(os.getpid(), signal.SIGINT)
        reached.append(True)  # the handler has not run yet


def test_a_signal_held_by_deferred_is_delivered_as_the_block_ends(raising_sigint: None) -> None:
    reached: list[bool] = []
    with pytest.raises(KeyboardInterrupt):
        _signalled_inside(reached)
    assert reached == [True]
    assert signal.getsignal(signal.SIGINT) is _raise  # the handler is back
