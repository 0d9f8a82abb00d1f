"""Known bugs, switched on only by tests, to prove that the chaos checkers can fail.

A checker that never fails proves nothing. Each switch here breaks one MQ guarantee on
purpose, in the in-process store or lease board, so that a test can show the checker
meant to catch it does: ``DROP_ON_COMMIT`` (MQCMIT loses the first message put in the
unit of work), ``DELIVER_EXPIRED`` (MQGET returns a message whose expiry has passed
instead of discarding it) and ``SKIP_FENCING`` (a shared-queue scan under a stale
fencing token is accepted), ``LOSE_ON_CF_RECOVERY`` (the coupling facility's recovery
after a failure drops the persistent messages it should keep), ``RECOVER_SKIPS_LOG``
(RECOVER CFSTRUCT restores the last backup and skips the members' log since, so the
persistent messages put after the backup are lost and those got since come back),
``DUPLEX_FAILS_OVER_EMPTY`` (a duplexed structure that loses one of its facilities
carries on in an empty instance, as if it had not been duplexed at all).
``DUPLICATE_ON_CHANNEL_RECOVERY`` (a shared channel restarted on a survivor backs out
its batch in doubt that the receiver committed, and sends it again, as a wrong RESOLVE
CHANNEL ACTION(BACKOUT) would).
Nothing outside the tests (and ``bench/chaos_catches.py``, which counts how often a
random campaign catches each) turns one on; with ``ACTIVE`` empty every check costs one
set lookup, and only on a path already out of the common case.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

DROP_ON_COMMIT = "drop-on-commit"
DELIVER_EXPIRED = "deliver-expired"
SKIP_FENCING = "skip-fencing"
LOSE_ON_CF_RECOVERY = "lose-on-cf-recovery"
RECOVER_SKIPS_LOG = "recover-skips-log"
DUPLEX_FAILS_OVER_EMPTY = "duplex-fails-over-empty"
DUPLICATE_ON_CHANNEL_RECOVERY = "duplicate-on-channel-recovery"
KNOWN = frozenset(
    {
        DROP_ON_COMMIT,
        DELIVER_EXPIRED,
        SKIP_FENCING,
        LOSE_ON_CF_RECOVERY,
        RECOVER_SKIPS_LOG,
        DUPLEX_FAILS_OVER_EMPTY,
        DUPLICATE_ON_CHANNEL_RECOVERY,
    }
)

#: The bugs switched on now.
ACTIVE: set[str] = set()


@contextmanager
def injected(bug: str) -> Iterator[None]:
    """Switch ``bug`` on for the block (tests only)."""
    if bug not in KNOWN:
        raise ValueError(f"no known bug {bug!r}; known: {', '.join(sorted(KNOWN))}")
    ACTIVE.add(bug)
    try:
        yield
    finally:
        ACTIVE.discard(bug)


__all__ = [
    "ACTIVE",
    "DELIVER_EXPIRED",
    "DROP_ON_COMMIT",
    "DUPLEX_FAILS_OVER_EMPTY",
    "DUPLICATE_ON_CHANNEL_RECOVERY",
    "KNOWN",
    "LOSE_ON_CF_RECOVERY",
    "RECOVER_SKIPS_LOG",
    "SKIP_FENCING",
    "injected",
]
