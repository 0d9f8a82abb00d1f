"""The lease election: one member of a queue-sharing group holds a named role at a time.

A lease is a hash in the coupling facility (``coupling.keys.lease_key``): its holder,
when it runs out in the simulator's time, and a fencing token that increases on every
acquisition. The holder renews before the lease runs out and keeps its token; once it
has run out, any member (the old holder too) may take it, with a new token. Work only
the holder may do carries the token (``fence``), and the facility's scripts refuse a
token that is no longer current or whose lease has run out: a member that paused past
its lease, and still believes it holds it, is refused rather than trusted.

The role is a name, so any single-member duty can use it: the expiry scan of shared
queues (``EXPIRY_SCAN``), and whatever else needs one member of the group at a time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from coupling import keys, scripts
from coupling.transport import Transport
from qsg.core.store import Fence, StaleFenceError

#: The role whose holder scans the shared queues for expired messages.
EXPIRY_SCAN = "EXPIRY.SCAN"


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
        """What holder-only work carries, for the facility to check."""
        return Fence(self.role, self.token)


@dataclass(frozen=True, slots=True)
class Refusal:
    """A lease another member holds, with ``token``, until ``expires``."""

    role: str
    holder: str
    token: int
    expires: float


class Lease:
    """One member's view of the lease on ``role`` in QSG ``qsg``; ``length`` is how long
    (simulated seconds) a grant or renewal lasts. ``on_token`` hears every token this
    member sees (the highest is what a facility that lost its state restarts above)."""

    def __init__(
        self, transport: Transport, qsg: str, role: str, member: str, length: float,
        on_token: Callable[[str, int], None] | None = None,
    ) -> None:  # fmt: skip
        if length <= 0:
            raise ValueError(f"lease {role}: its length must be positive, not {length}")
        self.transport = transport
        self.role = role
        self.member = member
        self.length = length
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
                self.role, self.member, int(reply[1]), now + self.length,
                reply[2] == b"acquired", previous,
            )  # fmt: skip
        return Refusal(self.role, reply[2].decode(), int(reply[1]), float(reply[3]))

    def release(self, grant: Grant) -> bool:
        """Give the lease up on a clean stop; False if it was no longer this grant's."""
        reply = self.transport.run(scripts.LEASE_RELEASE, [self._key], [grant.holder, grant.token])
        return bool(reply[0])


def check_held(transport: Transport, qsg: str, fence: Fence, now: float) -> None:
    """Refuse ``fence`` (``StaleFenceError``) unless its token is still the current one
    of its lease in ``qsg`` and the lease has not run out: what the scan script checks
    before each batch, for work that may reach no script at all (a scan that finds
    nothing worth scanning must still not be a scan under a stale token)."""
    token, expires = transport.command("HMGET", keys.lease_key(qsg, fence.role),
                                       "token", "expires")  # fmt: skip
    current = None if token is None else int(token)
    if current != fence.token or expires is None or float(expires) <= now:
        raise StaleFenceError(fence, current)


@dataclass(slots=True)
class _Held:
    holder: str = ""
    expires: float = 0.0
    token: int = 0


@dataclass(slots=True)
class LeaseBoard:
    """The leases of queue-sharing groups whose shared queues are in process: the same
    rules as the facility's scripts, kept in a dictionary (one process, one board)."""

    leases: dict[tuple[str, str], _Held] = field(default_factory=dict)

    def current(self, qsg: str, fence: Fence, now: float) -> bool:
        """Whether ``fence`` is still the current token of its lease in ``qsg`` and the
        lease has not run out: the check the facility's scan script makes."""
        held = self.leases.get((qsg, fence.role))
        return (
            held is not None
            and held.token == fence.token
            and bool(held.holder)
            and (held.expires > now)
        )


class LocalLease:
    """``Lease`` on a ``LeaseBoard``: the same grants, renewals, takeovers and tokens."""

    def __init__(self, board: LeaseBoard, qsg: str, role: str, member: str, length: float) -> None:
        if length <= 0:
            raise ValueError(f"lease {role}: its length must be positive, not {length}")
        self.role = role
        self.member = member
        self.length = length
        self._held = board.leases.setdefault((qsg, role), _Held())

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
