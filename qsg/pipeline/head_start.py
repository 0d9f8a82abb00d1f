"""The driver's own core at work while Spark starts: a child plays the first seeds.

Spark takes seconds to start (its JVM, then its Python workers), during which the
driver's core would wait. ``HeadStart`` forks a child (``nice`` 19: Spark's start
comes first) that plays the campaign's seeds in order and sends each outcome back
as it ends; a thread of the driver reads them as they come (a pipe holds only so
much). ``stop`` asks the child to stop after its current run, waits for it, and
returns the outcomes it finished: always the first ``k`` seeds, in order, so that the
job plays ``seeds[k:]`` and every seed is played once. A run that raises in the child,
or a child that dies, ends its share there: the seeds it did not finish are the job's
(where a run that raises is named, as any run on Spark is).

The child is forked before Spark starts, while the driver has no threads (a fork
copies only the thread that forks), and plays with what the driver has imported.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import sys
import threading
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any, Generic, TypeVar

T = TypeVar("T")
#: The child's last word: it stopped (asked to, or out of seeds, or a run raised).
_END = b""


class HeadStart(Generic[T]):
    """``play(seed)`` of ``seeds``' first ones, in a child process, until ``stop``."""

    def __init__(self, play: Callable[[int], T], seeds: Sequence[int]) -> None:
        self._play = play
        self._seeds = list(seeds)
        self._done: list[T] = []
        self._context = multiprocessing.get_context("fork")
        self._stopping = self._context.Event()
        self._child: Any = None
        self._reader: threading.Thread | None = None

    def start(self) -> None:
        """Fork the child and start reading what it sends (nothing if no seeds)."""
        if not self._seeds:
            return
        # What the driver printed stays printed once (a child flushes its copy at exit).
        sys.stdout.flush()
        sys.stderr.flush()
        ours, theirs = self._context.Pipe(duplex=False)
        self._child = self._context.Process(
            target=_child, args=(self._play, self._seeds, self._stopping, theirs), daemon=True
        )
        self._child.start()
        theirs.close()  # the child's end: its exit is our end of file
        self._reader = threading.Thread(target=self._read, args=(ours,), name="head-start")
        self._reader.start()

    def stop(self) -> list[T]:
        """Stop the child after its current run; the outcomes of the seeds it finished,
        the first ones, in order."""
        if self._child is None:
            return []
        self.request_stop()
        assert self._reader is not None
        self._reader.join()
        self._child.join()
        return list(self._done)

    def request_stop(self) -> None:
        """Ask the child to stop after its current run (``stop`` asks, then waits)."""
        self._stopping.set()

    def _read(self, pipe: Connection) -> None:
        with pipe:
            while True:
                try:
                    message = pipe.recv_bytes()
                except EOFError:  # the child died: what it finished is kept
                    return
                if message == _END:
                    return
                self._done.append(pickle.loads(message))


def _child(play: Callable[[int], Any], seeds: list[int], stopping: Any, pipe: Connection) -> None:
    os.nice(19)
    with pipe:
        for seed in seeds:
            if stopping.is_set():
                break
            try:
                outcome = play(seed)
            except Exception:  # its seed is the job's, which names the error
                break
            pipe.send_bytes(pickle.dumps(outcome))
        pipe.send_bytes(_END)


__all__ = ["HeadStart"]
