"""The driver's own core at work while Spark starts: a child plays the first seeds.

Spark takes seconds to start (its JVM, then its Python workers), during which the
driver's core would wait. ``HeadStart`` forks a child (``nice`` 19: Spark's start
comes first) that plays the campaign's seeds in order and sends each outcome back
as it ends; a thread of the driver reads them as they come (a pipe holds only so
much). ``stop`` asks the child to stop after its current run, waits for it, and
returns the outcomes it finished: always the first ``k`` seeds, in order. A run that
raises in the child, or a child that dies, ends its share there.

Where the child and the job's tasks share a filesystem (a local master), they share
``Claims`` too: a file per seed, made with ``O_EXCL`` by whoever plays that seed
first. The job is then given the seeds from the child's place when Spark came up, and
the child plays on, through the job's own start (its Python workers), until a task
claims a seed the child wants next: from then on the tasks have the cores. Every seed
is played once; a seed the child claimed and did not finish (its run raised, or it
died) is played again by the job, where an error is named.

The child is forked before Spark starts, while the driver has no threads (a fork
copies only the thread that forks), and plays with what the driver has imported.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import shutil
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Generic, TypeVar

from coupling import forks

T = TypeVar("T")
#: The child's last word: it stopped (asked to, or out of seeds, or a run raised).
_END = b""


@dataclass(frozen=True, slots=True)
class Claims:
    """Who plays which seed of a campaign: the first to make the seed's file (by its
    index in the campaign) in ``directory``, which every player sees."""

    directory: str

    def claim(self, index: int) -> bool:
        """Whether the caller now holds seed ``index`` (False: another player does)."""
        try:
            made = os.open(os.path.join(self.directory, str(index)), _EXCLUSIVE, 0o600)
        except FileExistsError:
            return False
        os.close(made)
        return True


_EXCLUSIVE = os.O_CREAT | os.O_EXCL | os.O_WRONLY


@contextmanager
def claims_on(local: bool) -> Iterator[Claims | None]:
    """Claims in a private temporary directory if the players share this machine
    (``local``: a local master), removed after; else None."""
    if not local:
        yield None
        return
    directory = tempfile.mkdtemp(prefix="qsg-claims-")
    try:
        yield Claims(directory)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


class HeadStart(Generic[T]):
    """``play(seed)`` of ``seeds``' first ones, in a child process, until ``stop`` (or,
    given ``claims``, until another player claims the seed it wants next)."""

    def __init__(
        self, play: Callable[[int], T], seeds: Sequence[int], claims: Claims | None = None
    ) -> None:
        self._play = play
        self._claims = claims
        self._seeds = list(seeds)
        self._done: list[T] = []
        self._context = multiprocessing.get_context("fork")
        self._stopping = self._context.Event()
        self._child: Any = None
        self._reader: threading.Thread | None = None
        self._failed: BaseException | None = None  # the reader's, raised by stop

    def start(self) -> None:
        """Fork the child and start reading what it sends (nothing if no seeds)."""
        if not self._seeds:
            return
        # What the driver printed stays printed once (a child flushes its copy at exit).
        sys.stdout.flush()
        sys.stderr.flush()
        ours, theirs = self._context.Pipe(duplex=False)
        self._child = self._context.Process(
            target=_child,
            args=(self._play, self._seeds, self._claims, self._stopping, theirs),
            daemon=True,
        )
        with forks.deferred():  # a Ctrl-C during the fork is not lost (coupling.forks)
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
        if self._failed is not None:  # nobody reads the child any more: it may be stuck
            self._child.kill()
            self._child.join()
            raise self._failed
        self._child.join()
        return list(self._done)

    def finished(self) -> int:
        """How many seeds the child has finished so far (it may be playing the next)."""
        return len(self._done)

    def request_stop(self) -> None:
        """Ask the child to stop after its current run (``stop`` asks, then waits)."""
        self._stopping.set()

    def _read(self, pipe: Connection) -> None:
        try:
            with pipe:
                while True:
                    try:
                        message = pipe.recv_bytes()
                    except EOFError:  # the child died: what it finished is kept
                        return
                    if message == _END:
                        return
                    self._done.append(pickle.loads(message))
        except BaseException as error:  # the driver hears of it in stop()
            self._failed = error


def _child(
    play: Callable[[int], Any],
    seeds: list[int],
    claims: Claims | None,
    stopping: Any,
    pipe: Connection,
) -> None:
    os.nice(19)
    with pipe:
        for index, seed in enumerate(seeds):
            if stopping.is_set() or (claims is not None and not claims.claim(index)):
                break
            try:
                outcome = play(seed)
            except Exception:  # its seed is the job's, which names the error
                break
            pipe.send_bytes(pickle.dumps(outcome))
        pipe.send_bytes(_END)


__all__ = ["Claims", "HeadStart", "claims_on"]
