"""Starting a command as a terminal's shell starts a foreground job.

A test runner started in the background of a non-interactive shell (``pytest ... &``,
``nohup``) has SIGINT ignored, and an ignored signal stays ignored in every child
(POSIX: "If job control is disabled, asynchronous commands have SIGINT and SIGQUIT
ignored"). qsg keeps a SIGINT it was started ignoring ignored, as it should
(docs/edges.md), so a test that sends Ctrl-C's SIGINT starts its command with SIGINT as
an interactive shell leaves it for a foreground job: its default action, not blocked.
"""

from __future__ import annotations

import signal
from collections.abc import Callable


def foreground(then: Callable[[], object] | None = None) -> Callable[[], None]:
    """A ``preexec_fn``: SIGINT as a foreground job has it; then ``then()`` (a test's
    own change, e.g. SIGINT ignored on purpose)."""

    def preexec() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        if then is not None:
            then()

    return preexec
