"""The lease election: one member of a queue-sharing group holds a named role at a time.

A lease is a hash in the coupling facility (``coupling.keys.lease_key``): its holder,
when it runs out in the simulator's time, and a fencing token that increases on every
acquisition. The holder renews before the lease runs out and keeps its token; once it
has run out, any member (the old holder too) may take it, with a new token. Work only
the holder may do carries the token (``fence``), and the facility's scripts refuse a
token that is no longer current or whose lease has run out: a member that paused past
its lease, and still believes it holds it, is refused rather than trusted.

The rules (grants, tokens, what a fence must satisfy) are ``qsg.core.lease``'s, which
the in-process store keeps too. The role is a name, so any single-member duty can use
it: the expiry scan of shared queues (``EXPIRY_SCAN``), and whatever else needs one
member of the group at a time.
"""

from __future__ import annotations

from collections.abc import Callable

from coupling import keys, scripts
from coupling.transport import Transport
from qsg.core.lease import (
    EXPIRY_SCAN,
    Fence,
    Grant,
    Refusal,
    fence_holds,
    length_checked,
)
from qsg.core.store import StaleFenceError


class Lease:
    """One member's view of the lease on ``role`` in QSG ``qsg``; ``length`` is how long
    (simulated seconds) a grant or renewal lasts. ``on_token`` hears every token this
    member sees (the highest is what a facility that lost its state restarts above)."""

    def __init__(
        self,
        transport: Transport,
        qsg: str,
        role: str,
        member: str,
        length: float,
        on_token: Callable[[str, int], None] | None = None,
    ) -> None:
        self.transport = transport
        self.role = role
        self.member = member
        self.length = length_checked(role, length)
        self._key = keys.lease_key(qsg, role)
        self._on_token = on_token

    def acquire(self, now: float) -> Grant | Refusal:
        """Take the lease if it is free or has run out, renew it if this member holds it;
        otherwise learn who holds it."""
        reply = self.transport.run(
            scripts.LEASE_ACQUIRE, [self._key], [self.member, repr(now), repr(self.length)]
        )
        if self._on_token is not None:
            self._on_token(self._key, int(reply[1]))
        if reply[0] == 1:
            previous = reply[3].decode() if reply[3] else None
            return Grant(
                self.role,
                self.member,
                int(reply[1]),
                now + self.length,
                reply[2] == b"acquired",
                previous,
            )
        return Refusal(self.role, reply[2].decode(), int(reply[1]), float(reply[3]))

    def release(self, grant: Grant) -> bool:
        """Give the lease up on a clean stop; False if it was no longer this grant's."""
        reply = self.transport.run(scripts.LEASE_RELEASE, [self._key], [grant.holder, grant.token])
        return bool(reply[0])


def check_held(transport: Transport, qsg: str, fence: Fence, now: float) -> None:
    """Refuse ``fence`` (``StaleFenceError``) unless it still holds its lease in ``qsg``
    (``fence_holds``, the rule the scan script applies before each batch), for work that
    may reach no script at all (a scan that finds nothing worth scanning must still not
    be a scan under a stale token)."""
    token, expires = transport.command("HMGET", keys.lease_key(qsg, fence.role), "token", "expires")
    current = None if token is None else int(token)
    if not fence_holds(fence, current, None if expires is None else float(expires), now):
        raise StaleFenceError(fence, current)


__all__ = ["EXPIRY_SCAN", "Grant", "Lease", "Refusal", "check_held"]
