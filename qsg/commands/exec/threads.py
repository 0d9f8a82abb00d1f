"""The program's threads under ``qsg exec``.

A thread the program starts (``threading.Thread.start`` called by its code, or by a
thread of its own) is the program's: its pymqi calls reach the world through
``trio.from_thread`` and, under ``--virtual``, it holds simulated time while it computes
(``qsg.pymqi.bridge.Threads``). The program's task must never block the trio thread
waiting for one of them, since a thread's call needs that thread to run: ``tracking``
makes the waits a program's task does on its threads wait in trio instead, while the
world goes on. These are ``Thread.join`` and ``threading.Condition.wait``, under which
``Event.wait``, ``queue.Queue.get``, a ``concurrent.futures`` future's ``result`` (and
so ``ThreadPoolExecutor.map``), ``Barrier`` and ``Semaphore`` wait. A bare
``Lock.acquire`` held by a thread is not covered. It also prints an exception that
ends a program thread as Python prints it, with the program's frames.
"""

from __future__ import annotations

import contextlib
import math
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import trio

from qsg.commands.exec import program as programs
from qsg.pymqi import bridge


async def forget_when_ended(binding: bridge.Binding, thread: threading.Thread) -> None:
    """Waits (in a worker thread) for a program thread to end, so the clock stops
    waiting for it however it ended."""
    await trio.to_thread.run_sync(thread.join, abandon_on_cancel=True)
    binding.threads.forget(thread)


async def join_threads(binding: bridge.Binding) -> None:
    """The program's non-daemon threads run to their end, as at interpreter exit."""
    while True:
        alive = [t for t in list(binding.threads.started) if t.is_alive() and not t.daemon]
        if not alive:
            return
        await trio.to_thread.run_sync(alive[0].join, abandon_on_cancel=True)


@contextmanager
def tracking(binding: bridge.Binding) -> Iterator[None]:
    """Threads started by the program's code are the program's (and so are the
    threads they start); the program's task joining one, or waiting on a condition,
    waits in trio (see the module's docstring)."""
    real_start, real_join = threading.Thread.start, threading.Thread.join
    real_wait = threading.Condition.wait

    def in_program_task() -> bool:
        return threading.get_ident() == binding.trio_thread and binding.program_context()

    def start(self: threading.Thread) -> None:
        if not binding.program_context():
            return real_start(self)
        binding.threads.started.add(self)
        # It holds simulated time from its first instruction, as the program's task
        # does: registered before it starts (Thread.start itself waits for it to run,
        # a wait in trio, where the clock could otherwise jump meanwhile).
        in_trio = threading.get_ident() == binding.trio_thread
        _in_trio(binding, in_trio, binding.threads.register, self)
        try:
            real_start(self)
        except BaseException:
            _in_trio(binding, in_trio, binding.threads.forget, self)
            raise
        _in_trio(binding, in_trio, binding.threads.running, self)
        return None

    def join(self: threading.Thread, timeout: float | None = None) -> None:
        if not in_program_task():
            return real_join(self, timeout)

        async def joined() -> None:
            # The timeout is the program's clock's (simulated seconds under --virtual),
            # as its time.sleep is; the worker thread's join has none of its own.
            binding.threads.joined.add(self)
            try:
                with trio.move_on_after(math.inf if timeout is None else max(timeout, 0.0)):
                    await trio.to_thread.run_sync(real_join, self, abandon_on_cancel=True)
            finally:
                binding.threads.joined.discard(self)

        bridge.call(joined)
        return None

    def wait(self: threading.Condition, timeout: float | None = None) -> bool:
        if not in_program_task():
            return real_wait(self, timeout)
        return _wait_in_trio(self, timeout)

    real_hook = threading.excepthook

    def hook(args: threading.ExceptHookArgs) -> None:
        """An exception that ends a program thread, printed as Python prints it (the
        program's frames); SystemExit ends a thread quietly, as in Python."""
        if args.thread not in binding.threads.started:
            real_hook(args)
            return None
        if args.exc_type is not None and issubclass(args.exc_type, SystemExit):
            return None
        name = args.thread.name if args.thread is not None else "?"
        print(f"Exception in thread {name}:", file=sys.stderr)
        if args.exc_value is not None:
            programs.print_program_error(args.exc_value)
        return None

    threading.Thread.start = start  # type: ignore[method-assign]
    threading.Thread.join = join  # type: ignore[method-assign]
    threading.Condition.wait = wait  # type: ignore[method-assign]
    threading.excepthook = hook
    try:
        yield
    finally:
        threading.Thread.start = real_start  # type: ignore[method-assign]
        threading.Thread.join = real_join  # type: ignore[method-assign]
        threading.Condition.wait = real_wait  # type: ignore[method-assign]
        threading.excepthook = real_hook


def _in_trio(binding: bridge.Binding, in_trio: bool, fn: Any, thread: threading.Thread) -> None:
    """``fn(thread)`` in the trio thread (the thread records are the clock's)."""
    if in_trio:
        fn(thread)
    else:
        trio.from_thread.run_sync(fn, thread, trio_token=binding.token)


def _wait_in_trio(condition: Any, timeout: float | None) -> bool:
    """``Condition.wait`` as CPython does it (a waiter lock that ``notify`` releases),
    but with the wait for the waiter done by a trio worker thread and the timeout kept
    by trio's clock (simulated time under ``--virtual``): the program's task waits in
    trio, and the threads it waits for reach the world meanwhile."""
    if not condition._is_owned():
        raise RuntimeError("cannot wait on un-acquired lock")
    waiter = threading.Lock()
    waiter.acquire()
    condition._waiters.append(waiter)
    saved = condition._release_save()
    got = False
    binding = bridge.current()
    if binding is not None:
        binding.threads.waits[waiter] = condition
    try:
        got = bridge.call(_acquired, waiter, timeout)
        return got
    finally:
        if binding is not None:
            binding.threads.waits.pop(waiter, None)
        condition._acquire_restore(saved)
        if not got:
            with contextlib.suppress(ValueError):
                condition._waiters.remove(waiter)


async def _acquired(waiter: Any, seconds: float | None) -> bool:
    """Whether ``waiter`` was released (by ``notify``) within ``seconds``."""
    with trio.move_on_after(math.inf if seconds is None else max(seconds, 0.0)):
        await trio.to_thread.run_sync(waiter.acquire, abandon_on_cancel=True)
        return True
    # Timed out: free the worker thread still waiting for the waiter (a notify that
    # comes now finds it gone from the condition's waiters, as in CPython).
    with contextlib.suppress(RuntimeError):
        waiter.release()
    return False


__all__ = ["forget_when_ended", "join_threads", "tracking"]
