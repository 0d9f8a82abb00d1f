"""What the coupling facility's server can do to a call, and the reason code each earns.

Two kinds of failure reach the store from a transport:

``CFConnectionError``
    No answer: the link broke, the server did not answer within the reply timeout, or
    it could not be reached at all. The call's outcome is unknown (it may have run).
``CFRefusedError``
    The server answered that it would not run the call (it ran nothing): it is out of
    memory, or it was in a transient state (loading its data, busy with a long script,
    a read-only replica...) for longer than the loading timeout.

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
- a server in a transient state (``TRANSIENT``: loading its data, busy with a script,
  a replica that takes no writes or has lost its primary, a cluster moving keys) for
  longer than the loading timeout is a structure that is not usable for now, a
  temporary state: MQRC_CF_STRUC_IN_USE (2346) ("2346 (092A) (RC2346):
  MQRC_CF_STRUC_IN_USE": "the coupling-facility structure ... is unavailable ...
  Typically, this is a temporary problem: wait for a while then retry").

A server in a transient state ran nothing of the call, so the transports send it again
until the state passes, within the bound ``Unavailability`` keeps.
"""

from __future__ import annotations

from collections.abc import Iterator

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


class CFCutOffError(CFConnectionError):
    """The facility is cut off from every member by a fault of the run
    (``cf_unavailable`` of all, on a server: the transport's ``unavailable``); nothing
    was sent."""


def cut_off(qsg: str, why: str) -> str:
    """What a call of QSG ``qsg`` is told when the facility is cut off from every member
    (``why``): the same words in process and on a server, and in the failure's
    ``cf-failure`` event."""
    return f"the CF of QSG {qsg} is unreachable: {why}"


#: The reason codes a call gets when the facility failed it (``coupling.errors``): a
#: system task that meets one waits for the facility rather than ending its world.
FACILITY_REASONS = frozenset(
    {
        CMQC.MQRC_CF_STRUC_FAILED,
        CMQC.MQRC_CF_STRUC_IN_USE,
        CMQC.MQRC_STORAGE_MEDIUM_FULL,
        CMQC.MQRC_CF_NOT_AVAILABLE,  # this member lost connectivity (CFCONLOS TOLERATE)
    }
)

#: The prefix of the server's error reply for a write refused at ``maxmemory``.
OOM = "OOM"
#: The prefix of the server's error reply while it loads its data (its append-only file).
LOADING = "LOADING"

#: The error replies (by their first word) of a server in a state that passes, in which
#: it runs nothing of a call it refuses, and what each says of the server.
TRANSIENT = {
    LOADING: "still loading its data",
    # A script of someone else's has run past busy-reply-threshold (SCRIPT KILL ends it).
    "BUSY": "busy running a script",
    # A replica (REPLICAOF; a primary demoted by a failover) refuses writes, and every
    # script of qsg's writes.
    "READONLY": "a read-only replica",
    # A replica that lost its primary, with replica-serve-stale-data no.
    "MASTERDOWN": "a replica whose link with its primary is down",
    # A cluster moving the keys of one call between nodes.
    "TRYAGAIN": "moving keys between its nodes",
}


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


def transient(reply: str) -> str | None:
    """The transient state (a key of ``TRANSIENT``) an error reply says the server is
    in, if it says one (``BUSY``, not ``BUSYKEY``: the reply's whole first word)."""
    state = reply.split(" ", 1)[0]
    return state if state in TRANSIENT else None


def unavailable(state: str, seconds: float) -> CFRefusedError:
    """The refusal once the server has been in transient ``state`` for longer than
    the loading timeout (``seconds``)."""
    what = TRANSIENT[state] if state == LOADING else f"{TRANSIENT[state]} ({state})"
    return CFRefusedError(
        CMQC.MQRC_CF_STRUC_IN_USE,
        f"the coupling facility's server was {what} after {seconds:g} s (loading_timeout)",
    )


#: The longest wait between two sendings of a refused call (``pauses``).
LONGEST_PAUSE = 0.5


class Unavailability:
    """How long the calls of one connection wait for a server in a transient state.

    A call that meets one is sent again after a pause (``pauses``), for as long as the
    state has lasted less than ``timeout`` seconds since a call first met it; then it
    fails with MQRC_CF_STRUC_IN_USE, and so does every call that meets the state after
    it, at once, rather than each waiting the whole timeout again. The state has passed
    once a call it refused gets through (``passed``), or once no call has met it for
    longer than the timeout and than a waiting call's longest pause."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.since: float | None = None
        self._last = 0.0

    def met(self, state: str, now: float) -> None:
        """A call met ``state`` at ``now`` (wall seconds): returns if it may wait and be
        sent again; ``CFRefusedError`` (2346) if the state has lasted too long."""
        if self.since is None or now - self._last > max(self.timeout, 2 * LONGEST_PAUSE):
            self.since = now
        self._last = now
        if now - self.since >= self.timeout:
            raise unavailable(state, self.timeout)

    def passed(self) -> None:
        """A call the state refused got through: the next one starts a new wait."""
        self.since = None


def pauses() -> Iterator[float]:
    """The waits between the sendings of one refused call: 10 ms, doubling up to half
    a second (a state that passes quickly costs little; a long one, a call every half
    second)."""
    pause = 0.01
    while True:
        yield pause
        pause = min(pause * 2, LONGEST_PAUSE)


__all__ = [
    "FACILITY_REASONS",
    "LOADING",
    "OOM",
    "TRANSIENT",
    "CFConnectionError",
    "CFRefusedError",
    "Unavailability",
    "pauses",
    "refusal",
    "transient",
    "unavailable",
]
