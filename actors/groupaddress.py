"""The group's address over TCP: a real listening port for a queue-sharing group, in a
run of members in separate processes (``qsg chaos --processes``).

In process the world hands a connection to the group's address to a member itself
(``World.group_partner``). Across processes that is the job of a port of the group's
own, as Sysplex Distributor or a dynamic VIPA stands in front of the members' group
listeners on z/OS ("Defining a TCP connection for a queue sharing group"):

- **a member's group port.** A member whose queue manager has a ``group_host`` opens a
  TCP port of its own while it takes connections to its group's address
  (``QueueManager.takes_group_connections``: START LISTENER INDISP(GROUP), its channel
  initiator running) and publishes it in the coupling facility, in a hash of the
  group's (``keys.group_listeners_key``: member -> ``host(port)``). A connection to it
  starts a shared receiving agent (``channel.run_receiver(shared=True)``), as one the
  world hands over in process does. ``publish`` keeps the port and the hash in step
  with the member's state; a member that dies leaves its entry behind, and the
  address leaves it out by its member lease (``actors.membership``).
- **the address** (``serve_address``): for each connection it reads the members that
  publish a group port and hold a live member lease, draws one by
  ``qsg.core.groupaddress.choose`` (the policy in process, with a seeded random of its
  own), connects to that member's group port and passes the bytes both ways until
  either end closes. A member whose port refuses the connection (killed, its lease
  not yet lapsed) is left out and the draw is made again among the others; with none
  left, the sender is told AMQ9202E, the line it gets in process, and retries.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Mapping
from contextlib import suppress
from functools import partial

import trio

from actors import channel, wire
from actors.cflink import CFLink, OnServer
from actors.membership import ROLE
from actors.qmgr import QueueManager
from coupling import keys
from coupling.errors import CFConnectionError
from coupling.trio_transport import TrioTransport
from coupling.wallclock import WallTimeoutError, within
from qsg.core import groupaddress
from qsg.core.conname import parse_conname

#: The members taking connections to a group's address now: member -> ``host(port)``.
Listening = Callable[[], Awaitable[Mapping[str, str]]]


# ---- a member's group port ----------------------------------------------------------------
async def publish(link: CFLink, qm: QueueManager) -> None:
    """Open or close ``qm``'s group port, and publish it or take it back, as its state
    says (``takes_group_connections``). Nothing for a member with no ``group_host``."""
    if qm.group_host is None:
        return
    assert isinstance(link, OnServer), "members in processes of their own share a server"
    assert qm.rules.qsg_name is not None
    key = keys.group_listeners_key(qm.rules.qsg_name)
    if qm.takes_group_connections:
        if qm.group_port is None:
            qm.group_port = await qm.nursery.start(_serve_port, qm)
        await link.transport.acommand("HSET", key, qm.name, qm.group_port[1])
        return
    if qm.group_port is not None:
        qm.group_port[0].cancel()
        qm.group_port = None
    await link.transport.acommand("HDEL", key, qm.name)


async def published(link: CFLink, qm: QueueManager) -> bool:
    """Whether ``qm``'s group port is published: an earlier life of it started its group
    listener (which its next life starts again, as its CSQINPX commands would)."""
    if qm.group_host is None or qm.rules.qsg_name is None:
        return False
    assert isinstance(link, OnServer), "members in processes of their own share a server"
    key = keys.group_listeners_key(qm.rules.qsg_name)
    return bool(await link.transport.acommand("HEXISTS", key, qm.name))


async def _serve_port(
    qm: QueueManager, *, task_status: trio.TaskStatus[tuple[trio.CancelScope, str]]
) -> None:
    assert qm.group_host is not None
    with trio.CancelScope() as scope:
        receive = partial(channel.run_receiver, qm, shared=True)
        async with trio.open_nursery() as nursery:
            serve = partial(trio.serve_tcp, receive, 0, host=qm.group_host)
            listeners = await nursery.start(serve)
            port = listeners[0].socket.getsockname()[1]
            task_status.started((scope, f"{qm.group_host}({port})"))


# ---- the address --------------------------------------------------------------------------
def listening_on_server(transport: TrioTransport, qsg: str, members: list[str]) -> Listening:
    """The members of ``qsg`` that publish a group port and whose member lease is live
    (its ``expires`` ahead of the clock every process of the run shares)."""
    key = keys.group_listeners_key(qsg)

    async def listening() -> dict[str, str]:
        ports = await transport.acommand("HGETALL", key)
        found = {ports[i].decode(): ports[i + 1].decode() for i in range(0, len(ports), 2)}
        live = {}
        for member in members:
            if member not in found:
                continue
            lease = keys.lease_key(qsg, ROLE.format(member))
            holder, expires = await transport.acommand("HMGET", lease, "holder", "expires")
            if holder and expires is not None and float(expires) > trio.current_time():
                live[member] = found[member]
        return live

    return listening


async def serve_address(
    qsg: str,
    host: str,
    port: int,
    listening: Listening,
    rng: random.Random,
    *,
    connect_timeout: float = wire.CONNECT_TIMEOUT,
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> None:
    """The group's address: listen on ``host(port)`` (0: any free port, given to
    ``task_status``) and hand each connection to a member; see the module docstring."""
    hand = partial(_hand, qsg, listening, rng, connect_timeout)
    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(partial(trio.serve_tcp, hand, port, host=host))
        task_status.started(listeners[0].socket.getsockname()[1])


async def _hand(
    qsg: str,
    listening: Listening,
    rng: random.Random,
    connect_timeout: float,
    sender: trio.SocketStream,
) -> None:
    tried: set[str] = set()
    member: trio.SocketStream | None = None
    while member is None:
        try:
            found = await listening()
        except CFConnectionError as error:  # who listens is unknown: the sender retries
            why = f"AMQ9202E: Remote host '{qsg}' not available, retry later ({error})"
            await _refuse(sender, why, connect_timeout)
            return
        ports = {m: where for m, where in found.items() if m not in tried}
        chosen = groupaddress.choose(ports, rng)
        if chosen is None:
            await _refuse(sender, groupaddress.nobody_listens(qsg, qsg), connect_timeout)
            return
        host, port = parse_conname(ports[chosen])
        try:
            member = await within(connect_timeout, partial(trio.open_tcp_stream, host, port))
        except (OSError, WallTimeoutError):
            tried.add(chosen)  # it died since it published its port: draw again
    async with member, sender, trio.open_nursery() as nursery:
        nursery.start_soon(_pipe, sender, member, nursery.cancel_scope)
        nursery.start_soon(_pipe, member, sender, nursery.cancel_scope)


async def _pipe(source: trio.SocketStream, sink: trio.SocketStream, both: trio.CancelScope) -> None:
    """Pass ``source``'s bytes to ``sink`` until either end closes; then end both ways
    (the channel's ends see their link broken, as with a member that dies)."""
    with suppress(trio.BrokenResourceError, trio.ClosedResourceError):
        while data := await source.receive_some(1 << 16):
            await sink.send_all(data)
    both.cancel()


async def _refuse(sender: trio.SocketStream, why: str, connect_timeout: float) -> None:
    """Tell the sender, after its hello, that no member takes its connection, and why."""
    frames = wire.Frames(sender, timeout=connect_timeout)
    with suppress(wire.ChannelBrokenError):
        await frames.receive()
        await frames.send({"t": "refused", "reason": why})
    await trio.aclose_forcefully(sender)


__all__ = ["Listening", "listening_on_server", "publish", "published", "serve_address"]
