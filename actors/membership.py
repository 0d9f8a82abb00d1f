"""Member liveness across processes: a lease per QSG member, and peer recovery when one
lapses.

In one process the world sees a queue manager fail (``World.kill``) and a peer recovers
its units of work at once. A queue manager in another OS process killed with SIGKILL
tells nobody. So each member holds a lease on its own role ``MEMBER.<name>``
(``coupling.lease``) in the coupling facility, renewed at a third of its length; the
grant's token names the life. Every member watches the others' leases: one that ran out
without being given up is a failed life, and every watcher attempts its peer recovery,
as z/OS members all do; the facility's claim (``RedisStore.recover``) lets exactly one
succeed. A restarted member waits for its previous life's lease to run out, recovers
that life itself if no peer has, and only then lets its applications in, so that its new
units of work (named by queue manager and connection, as the old ones were) are never
taken for the old life's. A member that finds its own lease gone (it stalled past it)
ends its process at once: its peers may already have backed out its work, as z/OS
partitions a member out of the sysplex before peer recovery. It finds out at its next
renewal, not before each call: a process stalled past its lease (not killed) could make
a call or two on waking before it ends. The nemesis kills; it does not stall.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Protocol

import trio

from actors import clock
from actors.cflink import CFLink, OnServer
from actors.events import EventLog, QMgrRestarted
from actors.qmgr import QueueManager
from coupling import keys
from coupling.lease import Grant, Refusal
from coupling.transport import CFConnectionError
from qsg.core.errors import MQMIError
from qsg.core.lease import MemberLease
from qsg.core.store import MessageStore

#: The lease role of one member's liveness.
ROLE = "MEMBER.{}"


class Sysplex(Protocol):
    """What membership uses of the world, as z/OS members use their sysplex: each QSG's
    store in the coupling facility (where the member leases are), the link to it
    (whose server a watcher reads the leases from), and the event stream."""

    @property
    def cf_stores(self) -> Mapping[str, MessageStore]: ...
    @property
    def link(self) -> CFLink: ...
    @property
    def events(self) -> EventLog: ...
    async def recover_channels_of(self, q_mgr: str, failed: str) -> None: ...


def _lease(world: Sysplex, qm: QueueManager, length: float) -> MemberLease:
    qsg = qm.rules.qsg_name
    assert qsg is not None
    # The holder is this process, not the name: a new life must not renew the old one's.
    holder = f"{qm.name}@{os.getpid()}"
    return world.cf_stores[qsg].lease(ROLE.format(qm.name), holder, length)


async def join(world: Sysplex, qm: QueueManager, length: float) -> tuple[MemberLease, Grant]:
    """Take ``qm``'s member lease for this life, once its previous life's has run out,
    and see that life recovered (by a peer, or here). The grant's token is the life."""
    lease = _lease(world, qm, length)
    while True:
        answer = await qm.dispatch(lease.acquire, system=True)
        if isinstance(answer, Grant):
            break
        assert isinstance(answer, Refusal)
        await clock.sleep_until(answer.expires + 0.01)  # the old life's lease runs out
    if answer.token > 1:  # an earlier life failed, or stopped: recover it if nobody has
        await qm.recover_peer(qm.name, answer.token - 1)
        world.events.emit(QMgrRestarted(trio.current_time(), qm.name, answer.token))
    return lease, answer


async def keep(
    qm: QueueManager, lease: MemberLease, grant: Grant, lost: Callable[[str], None]
) -> None:
    """Renew the member lease at a third of its length; ``lost(why)`` if it is gone."""
    while True:
        await clock.sleep(lease.length / 3)
        try:
            answer = await qm.dispatch(lease.acquire, system=True)
        except (MQMIError, CFConnectionError):
            if trio.current_time() >= grant.expires:
                lost(f"{qm.name} could not renew its member lease before it ran out")
            continue
        if not isinstance(answer, Grant) or answer.token != grant.token:
            lost(f"{qm.name} lost its member lease (life {grant.token}): peers recover it")
            return
        grant = answer


async def watch(world: Sysplex, qm: QueueManager, length: float) -> None:
    """Every half lease, look at the other members' leases; recover each life whose
    lease ran out without being given up (every watcher tries; one succeeds)."""
    assert isinstance(world.link, OnServer), "members in processes of their own share a server"
    assert qm.rules.qsg is not None
    group = qm.rules.qsg
    seen: set[tuple[str, int]] = set()
    while True:
        await clock.sleep(length / 2)
        for member in group.members:
            if member == qm.name:
                continue
            key = keys.lease_key(group.name, ROLE.format(member))
            try:
                holder, expires, token = await world.link.transport.acommand(
                    "HMGET", key, "holder", "expires", "token"
                )
            except CFConnectionError:
                break  # the facility is unreachable: look again later
            if not holder or token is None or float(expires) > trio.current_time():
                continue
            life = (member, int(token))
            if life not in seen:
                try:
                    await qm.recover_peer(member, int(token))
                    # Then its shared channels, as z/OS restarts them after shared-queue
                    # peer recovery ("Shared channel recovery").
                    await world.recover_channels_of(qm.name, member)
                except MQMIError:
                    continue  # the facility went away meanwhile: try again next time
                seen.add(life)


async def leave(qm: QueueManager, lease: MemberLease, grant: Grant) -> None:
    """Give the member lease up at a clean stop: peers must not recover a clean end."""
    await qm.dispatch(lambda now: lease.release(grant), system=True)


__all__ = ["ROLE", "Sysplex", "join", "keep", "leave", "watch"]
