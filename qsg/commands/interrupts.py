"""What SIGINT and SIGTERM do to a ``qsg`` command: it ends, in one line, with a status
of its own.

A terminal's Ctrl-C is SIGINT to every process of the command's process group; ``kill``,
a service manager or a CI runner's timeout send SIGTERM. Either way the command stops
what it is doing, lets the run end in order (the world's queue managers, the embedded
coupling facility's server, ``--out``'s directory written with ``"status":
"interrupted"``) and ends with one line on standard error, ``interrupted (SIGINT)``, and
the shells' exit status for it, 128 plus the signal's number: 130 for SIGINT, 143 for
SIGTERM (docs/edges.md, "Interrupts").

SIGINT is Python's KeyboardInterrupt. Inside a run trio takes it: raised at once in
code that may take it, else delivered to the run's main task at its next checkpoint;
the run's nurseries then end, and it comes out wrapped in exception groups (``of``
finds it there). SIGTERM goes the same way: its handler hands it to SIGINT's handler of
the moment (trio's while a run is on), so both end a run alike. A command started with
SIGINT ignored (a background job of a shell script) keeps ignoring it, and still ends
on SIGTERM.

A run that cannot end (a clean-up waiting for what will never come) must not outlive
its interrupt: from the first SIGINT or SIGTERM the command has ``QSG_INTERRUPT_GRACE``
seconds (20 by default) to end; then a watchdog thread writes the line, says that the
clean-up was not done, kills the command's child processes and ends the process with the
same status. SIGINT's handler during a run is trio's: ``actors.runtime`` tells the
watchdog of it (``runtime.interrupt_hooks``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import NoReturn

from rich.console import Console
from rich.markup import escape

from actors import runtime

#: The signal that interrupted the command, once one has (None: a KeyboardInterrupt
#: of no signal's, which is taken as SIGINT's).
_received: list[signal.Signals] = []
#: Seconds an interrupted command has to end before the watchdog ends it.
GRACE_VARIABLE = "QSG_INTERRUPT_GRACE"
DEFAULT_GRACE = 20.0
#: Set when the command's block ends: its watchdog, if one runs, has nothing to do.
_ended = threading.Event()
_watching = threading.Lock()


@contextmanager
def taken() -> Iterator[None]:
    """SIGTERM taken as SIGINT is, for the block (a command's run; from the main thread
    only), and the handlers as they were after it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _received.clear()
    _ended.clear()
    runtime.interrupt_hooks.append(_on_sigint)
    before_int, before_term = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    ignored = before_int is signal.SIG_IGN
    if ignored:
        # Ignored, SIGINT stays ignored (blocked: never delivered); but its handler is
        # Python's again, so that trio installs its own for a run and SIGTERM has
        # that one to go through.
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        yield
    finally:
        _ended.set()
        runtime.interrupt_hooks.remove(_on_sigint)
        signal.signal(signal.SIGTERM, before_term)
        if ignored:
            signal.signal(signal.SIGINT, before_int)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _on_sigint() -> None:
    _watch(signal.SIGINT)


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    _received.append(signal.SIGTERM)
    _watch(signal.SIGTERM)
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler) and handler is not signal.default_int_handler:
        handler(signal.SIGINT, frame)  # trio's, during a run: it knows when it may raise
    else:
        raise KeyboardInterrupt


def _watch(signum: signal.Signals) -> None:
    """Start the watchdog, once: the command ends within its grace, or is ended."""
    if not _watching.acquire(blocking=False):
        return
    grace = _grace()
    thread = threading.Thread(target=_overdue, args=(signum, grace), daemon=True)
    thread.start()


def _grace() -> float:
    text = os.environ.get(GRACE_VARIABLE, "")
    try:
        grace = float(text) if text else DEFAULT_GRACE
    except ValueError:
        grace = DEFAULT_GRACE  # a bad value must not stop an interrupt
    return grace if grace > 0 else DEFAULT_GRACE


def _overdue(signum: signal.Signals, grace: float) -> None:
    try:
        if _ended.wait(grace):
            return
        sys.stderr.write(
            f"interrupted ({signum.name}): the run did not end within {grace:g} s of the "
            "signal; ended without its clean-up\n"
        )
        sys.stderr.flush()
        sys.stdout.flush()
        for child in _children():
            with contextlib.suppress(OSError):  # gone already
                os.kill(child, signal.SIGKILL)
    finally:
        if not _ended.is_set():
            os._exit(128 + int(signum))
        _watching.release()


def _children() -> list[int]:
    """This process's child processes (Linux's /proc; none found elsewhere)."""
    found: list[int] = []
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/self/task/{task}/children") as listed:
                found += [int(pid) for pid in listed.read().split()]
        except OSError:
            continue
    return found


def of(error: BaseException) -> bool:
    """``error`` is an interrupt: a KeyboardInterrupt, an exception group (trio's
    nurseries) with one among what it holds, or an error raised while one was being
    handled (a library's clean-up failing as the interrupt unwinds it: py4j's call to a
    JVM whose connection the interrupt closed). Not a command's own exit (SystemExit)
    on the way out of one."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, SystemExit):  # the command ended itself (``end``, too)
            return False
        if isinstance(error, KeyboardInterrupt):
            return True
        if isinstance(error, BaseExceptionGroup) and any(of(e) for e in error.exceptions):
            return True
        error = error.__context__  # type: ignore[assignment]
    return False


def received() -> signal.Signals:
    """The signal that interrupted the command (SIGINT for a KeyboardInterrupt of no
    signal's)."""
    return _received[-1] if _received else signal.SIGINT


def exit_status() -> int:
    """The command's exit status once interrupted: 128 + the signal's number."""
    return 128 + int(received())


def end(note: str = "") -> NoReturn:
    """End the interrupted command: its one line on standard error (``note`` after it,
    e.g. where the run's directory is), and its exit status."""
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    line = f"interrupted ({received().name})"
    err.print(escape(f"{line}: {note}" if note else line))
    sys.exit(exit_status())


__all__ = ["end", "exit_status", "of", "received", "taken"]
