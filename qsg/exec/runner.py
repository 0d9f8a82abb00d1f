"""A program as one more task of the world's trio run (``qsg exec``'s core).

``run_program`` binds the facade to the world, gives the task a greenback portal (the
program's synchronous calls await the world through it), switches on the ``pymqi`` /
``ibmmq`` import aliases, the program's clock and the tracking of the threads it
starts, runs the program, and undoes all of it. When the program ends by itself, it
waits for the program's non-daemon threads (as the interpreter does at exit), and
then ends the connections the program left open as MQ ends those of a program that
ends without MQDISC: committed if the program ended normally, backed out if it
ended with an uncaught exception. At the scenario's duration the task is cancelled
instead: the program's pending or next call raises trio's ``Cancelled`` (not an
``Exception``: ``except Exception`` does not catch it, ``finally`` blocks run), its
threads' calls end with ``SystemExit``, and ``Outcome.stopped`` says so.
"""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from functools import partial

import greenback
import trio

from actors.clock import current_virtual_clock
from actors.world import World
from qsg import CMQC
from qsg.core.errors import MQMIError
from qsg.exec import program as programs
from qsg.exec.clocks import program_clock
from qsg.exec.imports import pymqi_aliases
from qsg.pymqi import bridge

#: How long ending the connections a program left open may take (simulated or real
#: seconds): a queue manager paused at the end must not hold the run.
_CLEAN_UP = 5.0


@dataclass(slots=True)
class Outcome:
    """How the program ended: its exit status, and whether the scenario's duration
    stopped it first."""

    exit_status: int = 0
    stopped: bool = False


@asynccontextmanager
async def facade_bound(world: World, *, virtual: bool = False) -> AsyncIterator[bridge.Binding]:
    """``qsg.pymqi`` reaches ``world`` from the current task for the block: synchronous
    pymqi code run in this task (or in threads it starts) calls the world. ``virtual``:
    the run is on the virtual clock, and the program's clock follows it."""
    clock = current_virtual_clock() if virtual else None
    if virtual and clock is None:
        raise RuntimeError("--virtual needs the run on the virtual clock")
    await greenback.ensure_portal()
    binding = bridge.Binding(
        world, trio.lowlevel.current_trio_token(), threading.get_ident(),
        trio.lowlevel.current_task(), clock=clock,
        random=random.Random(f"qsg exec group attach {world.seed}"),
    )  # fmt: skip
    bridge.bind(binding)
    try:
        yield binding
    finally:
        bridge.unbind()


async def run_program(
    world: World, program: programs.Program, outcome: Outcome, *, virtual: bool
) -> None:
    """Run ``program`` in ``world`` (inside its trio run); see the module's docstring."""
    async with facade_bound(world, virtual=virtual) as binding, trio.open_nursery() as nursery:
        clock = binding.clock

        def join_later(thread: threading.Thread) -> None:
            nursery.start_soon(_forget_when_ended, binding, thread)

        binding.threads.on_first = join_later
        if clock is not None:
            clock.watch(binding.threads)
        try:
            with pymqi_aliases(), program_clock(binding, virtual=virtual), \
                    _tracking_threads(binding):  # fmt: skip
                try:
                    outcome.exit_status = programs.run(program)
                except trio.Cancelled:
                    outcome.stopped = True
                    raise
                finally:
                    # The task runs qsg's code from here: a thread it starts (trio's
                    # worker for the join below) is not the program's.
                    binding.task = None
                await _join_threads(binding)
            await _end_connections(binding, commit=outcome.exit_status == 0)
        finally:
            binding.threads.stop()
            if clock is not None:
                clock.unwatch(binding.threads)
            nursery.cancel_scope.cancel()


async def _forget_when_ended(binding: bridge.Binding, thread: threading.Thread) -> None:
    """Waits (in a worker thread) for a program thread to end, so the clock stops
    waiting for it however it ended."""
    await trio.to_thread.run_sync(thread.join, abandon_on_cancel=True)
    binding.threads.forget(thread)


async def _join_threads(binding: bridge.Binding) -> None:
    """The program's non-daemon threads run to their end, as at interpreter exit."""
    while True:
        alive = [t for t in list(binding.threads.started) if t.is_alive() and not t.daemon]
        if not alive:
            return
        await trio.to_thread.run_sync(alive[0].join, abandon_on_cancel=True)


async def _end_connections(binding: bridge.Binding, *, commit: bool) -> None:
    """The connections the program left open end as at program end without MQDISC."""
    with trio.move_on_after(_CLEAN_UP) as scope:
        scope.shield = True
        for conn in list(binding.connections):
            if not conn.conn.connected:
                continue
            try:
                if not commit:
                    await conn.backout()
                await conn.disconnect()
            except MQMIError as error:
                if error.reason not in (CMQC.MQRC_CONNECTION_BROKEN,
                                        CMQC.MQRC_Q_MGR_NOT_AVAILABLE):  # fmt: skip
                    raise
    binding.connections.clear()


@contextmanager
def _tracking_threads(binding: bridge.Binding) -> Iterator[None]:
    """Threads started by the program's code are the program's (and so are the
    threads they start). The program's task joining one waits in trio (a worker
    thread joins it), so that the world, and the joined thread's calls into it, go on."""
    real_start, real_join = threading.Thread.start, threading.Thread.join

    def start(self: threading.Thread) -> None:
        if not binding.program_context():
            return real_start(self)
        binding.threads.started.add(self)
        real_start(self)
        # It holds simulated time from its first instruction, as the program's task does.
        if threading.get_ident() == binding.trio_thread:
            binding.threads.register(self)
        else:
            trio.from_thread.run_sync(binding.threads.register, self, trio_token=binding.token)
        return None

    def join(self: threading.Thread, timeout: float | None = None) -> None:
        if threading.get_ident() != binding.trio_thread or not binding.program_context():
            return real_join(self, timeout)

        async def joined() -> None:
            await trio.to_thread.run_sync(partial(real_join, self, timeout),
                                          abandon_on_cancel=True)  # fmt: skip

        bridge.call(joined)
        return None

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
    threading.excepthook = hook
    try:
        yield
    finally:
        threading.Thread.start = real_start  # type: ignore[method-assign]
        threading.Thread.join = real_join  # type: ignore[method-assign]
        threading.excepthook = real_hook


__all__ = ["Outcome", "facade_bound", "run_program"]
