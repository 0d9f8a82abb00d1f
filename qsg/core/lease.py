"""The lease rules: one member of a queue-sharing group holds a named role at a time.

A lease has a holder, a time it runs out (the simulator's) and a fencing token that
increases on every acquisition. The holder renews before the lease runs out and keeps
its token; once it has run out, any member (the old holder too) may take it, with a new
token. Work only the holder may do carries the token (``Fence``), and the store refuses
a token that is no longer current or whose lease has run out (``fence_holds``): a member
that paused past its lease, and still believes it holds it, is refused rather than
trusted.

Both stores keep leases by these rules: the in-process store in a dictionary
(``LocalLease``), the coupling facility on Redis in a hash its scripts update
(``coupling.lease``). docs/architecture.md ("The coupling facility on Redis") says why
a lease, and not the store's own locking, allots the expiry scan.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

#: The role whose holder scans the shared queues for expired messages.
EXPIRY_SCAN = "EXPIRY.SCAN"


@dataclass(frozen=True, slots=True)
class Fence:
    """A fencing token: the lease ``role`` was granted with ``token``. A scan of shared
    queues carries it, and the store refuses it once a later grant (or the lease's
    expiry) made it stale. ``at``: the holder's own clock when it checked the fence
    before its scan (``World.check_fence``), by which a store that checks it again (the
    facility's scan script, before each batch) judges the lease's expiry too, as the
    holder's check did; None: by the scan's time."""

    role: str
    token: int
    at: float | None = None


@dataclass(frozen=True, slots=True)
class Grant:
    """A lease held: by ``holder`` with ``token`` until ``expires``. ``acquired`` is
    False for a renewal; ``previous`` is who held it before a takeover (None if nobody)."""

    role: str
    holder: str
    token: int
    expires: float
    acquired: bool
    previous: str | None

    @property
    def fence(self) -> Fence:
        """What holder-only work carries, for the store to check."""
        return Fence(self.role, self.token)


@dataclass(frozen=True, slots=True)
class Refusal:
    """A lease another member holds, with ``token``, until ``expires``."""

    role: str
    holder: str
    token: int
    expires: float


class MemberLease(Protocol):
    """One member's view of the lease on a role (``LocalLease``, ``coupling.lease.Lease``)."""

    role: str
    member: str
    length: float

    def acquire(self, now: float) -> Grant | Refusal:
        """Take the lease if it is free or has run out, renew it if this member holds it;
        otherwise learn who holds it."""

    def release(self, grant: Grant) -> bool:
        """Give the lease up on a clean stop; False if it was no longer this grant's."""


def fence_holds(fence: Fence, token: int | None, expires: float | None, now: float) -> bool:
    """Whether ``fence`` is still good against its lease as it stands (``token``, and
    ``expires``: None for a lease given up or never taken): its token is the current one
    and the lease has not run out. The one rule of fencing, whichever store keeps the
    lease (the facility's scan script makes the same test, in Lua, before each batch).

    A lease given up keeps its token but has no expiry, so the grant given up is
    refused as one that ran out would be."""
    return token == fence.token and expires is not None and expires > now


def length_checked(role: str, length: float) -> float:
    """A lease's length, which must be positive (a programming error otherwise)."""
    if length <= 0:
        raise ValueError(f"lease {role}: its length must be positive, not {length}")
    return length


@dataclass(slots=True)
class Held:
    """A lease as the in-process store keeps it: ``holder`` is '' when nobody holds it."""

    holder: str = ""
    expires: float = 0.0
    token: int = 0

    def fence_holds(self, fence: Fence, now: float) -> bool:
        """``fence_holds`` against this lease (one given up has no expiry)."""
        return fence_holds(fence, self.token, self.expires if self.holder else None, now)


class LocalLease:
    """A member's lease kept in process (``held``): the facility's grants, renewals,
    takeovers and tokens."""

    def __init__(self, held: Held, role: str, member: str, length: float) -> None:
        self.role = role
        self.member = member
        self.length = length_checked(role, length)
        self._held = held

    def acquire(self, now: float) -> Grant | Refusal:
        held = self._held
        if held.holder and held.expires > now:
            if held.holder != self.member:
                return Refusal(self.role, held.holder, held.token, held.expires)
            held.expires = now + self.length
            return Grant(self.role, self.member, held.token, held.expires, False, self.member)
        previous = held.holder or None
        held.token += 1
        held.holder, held.expires = self.member, now + self.length
        return Grant(self.role, self.member, held.token, held.expires, True, previous)

    def release(self, grant: Grant) -> bool:
        held = self._held
        if held.holder != grant.holder or held.token != grant.token:
            return False
        held.holder, held.expires = "", 0.0
        return True


__all__ = [
    "EXPIRY_SCAN",
    "Fence",
    "Grant",
    "Held",
    "LocalLease",
    "MemberLease",
    "Refusal",
    "fence_holds",
    "length_checked",
]
