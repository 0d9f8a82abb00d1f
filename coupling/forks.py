"""A fork that no Ctrl-C can make the command lose.

Forking from Python (``os.fork``, ``multiprocessing``'s fork context, or ``subprocess``
with a ``preexec_fn``) runs the functions registered with ``os.register_at_fork`` in
the parent after the fork; the ``logging`` module registers one that releases its lock.
A SIGINT whose handler raises (trio's, during a run: KeyboardInterrupt in code that may
take it) and that lands in one of those functions is an error Python cannot raise
anywhere: it prints "Exception ignored in: <function _releaseLock ...>" and drops it. The
interrupt is lost, and the command goes on as if nobody had pressed Ctrl-C (a chaos
campaign kept playing its runs).

``deferred`` holds SIGINT and SIGTERM for the length of a fork: their Python handlers
are swapped for one that notes the signal, and each signal noted is raised again once
the handlers are back, where the handler may raise.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

#: The signals a command ends on (qsg.commands.interrupts).
_HELD = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def deferred() -> Iterator[None]:
    """SIGINT and SIGTERM held for the block, and delivered after it (main thread only:
    Python runs signal handlers there alone, so no other thread's fork can lose one)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    noted: list[int] = []

    def note(signum: int, frame: FrameType | None) -> None:
        noted.append(signum)

    before = {}
    for held in _HELD:
        handler = signal.getsignal(held)
        if callable(handler):  # a Python handler: SIG_DFL and SIG_IGN stay as they are
            before[held] = handler
            signal.signal(held, note)
    try:
        yield
    finally:
        for held, handler in before.items():
            signal.signal(held, handler)
        for signum in dict.fromkeys(noted):
            signal.raise_signal(signum)


__all__ = ["deferred"]
