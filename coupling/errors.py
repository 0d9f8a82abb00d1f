"""What the coupling facility's server can do to a call, and the reason code each earns.

Two kinds of failure reach the store from a transport:

``CFConnectionError``
    No answer: the link broke, the server did not answer within the reply timeout, or
    it could not be reached at all. The call's outcome is unknown (it may have run).
``CFRefusedError``
    The server answered that it would not run the call (it ran nothing): it is out of
    memory, or it was still loading its data when the loading timeout ran out.

The store turns them into the reason codes a z/OS application gets from a shared queue
(docs/coupling-facility.md has the table, and why each code):

- a server that is gone, silent or unreachable is the structure failing: every member
  of the group reaches its structures through that one server, so losing it is a
  total loss of connectivity, which MQ handles as a structure failure:
  MQRC_CF_STRUC_FAILED (2373) ("2373 (0945) (RC2373): MQRC_CF_STRUC_FAILED": "the
  coupling-facility structure used for the shared queue had failed");
- a server at its ``maxmemory`` is a full coupling facility: MQRC_STORAGE_MEDIUM_FULL
  (2192) ("2192 (0890) (RC2192): MQRC_STORAGE_MEDIUM_FULL": "a coupling-facility
  structure is full ... a coupling-facility is full");
- a server still loading its data after the loading timeout is a structure that is not
  yet usable, a temporary state: MQRC_CF_STRUC_IN_USE (2346) ("2346 (092A) (RC2346):
  MQRC_CF_STRUC_IN_USE": "the coupling-facility structure ... is unavailable ...
  Typically, this is a temporary problem: wait for a while then retry").
"""

from __future__ import annotations

from qsg import CMQC
from qsg.core.errors import QSGError


class CFConnectionError(QSGError, ConnectionError):
    """The coupling facility did not answer: the server is gone, silent or unreachable,
    or the link broke (a ``ConnectionError``, as a socket's would be).

    The call's outcome is unknown (it may have run before the link broke)."""


class CFRefusedError(CFConnectionError):
    """The server refused the call before running any of it; ``reason`` is the MQ
    reason code a shared-queue call gets for it.

    A subclass of ``CFConnectionError`` so that a caller that only knows "the facility
    failed" handles it too (it need not know that nothing ran)."""

    def __init__(self, reason: int, why: str) -> None:
        super().__init__(why)
        self.reason = reason


#: The reason codes a call gets when the facility failed it (``coupling.errors``): a
#: system task that meets one waits for the facility rather than ending its world.
FACILITY_REASONS = frozenset(
    {
        CMQC.MQRC_CF_STRUC_FAILED,
        CMQC.MQRC_CF_STRUC_IN_USE,
        CMQC.MQRC_STORAGE_MEDIUM_FULL,
    }
)

#: The prefix of the server's error reply for a write refused at ``maxmemory``.
OOM = "OOM"
#: The prefix of the server's error reply while it loads its data (its append-only file).
LOADING = "LOADING"


def refusal(reply: str) -> CFRefusedError | None:
    """The refusal an error reply from the server means, if it is one a shared-queue
    call can meet in a healthy run (anything else is a fault of the simulator or of the
    server's set-up, and stays a plain error)."""
    if reply.startswith(OOM):
        return CFRefusedError(
            CMQC.MQRC_STORAGE_MEDIUM_FULL,
            "the coupling facility is full: its server is at its maxmemory and refuses writes",
        )
    return None


def still_loading(seconds: float) -> CFRefusedError:
    """The refusal once the server has been loading its data for longer than the
    loading timeout."""
    return CFRefusedError(
        CMQC.MQRC_CF_STRUC_IN_USE,
        f"the coupling facility's server was still loading its data after {seconds:g} s "
        "(loading_timeout)",
    )


__all__ = [
    "FACILITY_REASONS",
    "LOADING",
    "OOM",
    "CFConnectionError",
    "CFRefusedError",
    "refusal",
    "still_loading",
]
