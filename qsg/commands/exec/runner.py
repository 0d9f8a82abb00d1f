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
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import greenback
import trio

from actors.clock import current_virtual_clock
from actors.world import World
from qsg import CMQC
from qsg.commands.exec import program as programs
from qsg.commands.exec import threads
from qsg.commands.exec.clocks import program_clock
from qsg.commands.exec.imports import pymqi_aliases
from qsg.core.errors import MQMIError
from qsg.pymqi import bridge
from qsg.pymqi import history as pymqi_history

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
        world,
        trio.lowlevel.current_trio_token(),
        threading.get_ident(),
        trio.lowlevel.current_task(),
        clock=clock,
        random=random.Random(f"qsg exec group attach {world.seed}"),
    )
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
            nursery.start_soon(threads.forget_when_ended, binding, thread)

        binding.threads.on_running = join_later
        if clock is not None:
            clock.watch(binding.threads)
        try:
            with (
                pymqi_aliases(),
                program_clock(binding, virtual=virtual),
                threads.tracking(binding),
            ):
                try:
                    outcome.exit_status = programs.run(program)
                except trio.Cancelled:
                    outcome.stopped = True
                    raise
                finally:
                    # The task runs qsg's code from here: a thread it starts (trio's
                    # worker for the join below) is not the program's.
                    binding.task = None
                await threads.join_threads(binding)
            await _end_connections(binding, commit=outcome.exit_status == 0)
        finally:
            binding.threads.stop()
            if clock is not None:
                clock.unwatch(binding.threads)
            nursery.cancel_scope.cancel()


async def _end_connections(binding: bridge.Binding, *, commit: bool) -> None:
    """The connections the program left open end as at program end without MQDISC."""
    with trio.move_on_after(_CLEAN_UP) as scope:
        scope.shield = True
        for conn in list(binding.connections):
            if not conn.conn.connected:
                continue
            try:  # in the history as the program's own MQBACK and MQDISC would be
                if not commit:
                    await pymqi_history.end_unit_of_work(conn, commit=False)
                await pymqi_history.disconnect(conn)
            except MQMIError as error:
                if error.reason not in (CMQC.MQRC_CONNECTION_BROKEN, CMQC.MQRC_Q_MGR_NOT_AVAILABLE):
                    raise
    binding.connections.clear()


__all__ = ["Outcome", "facade_bound", "run_program"]
