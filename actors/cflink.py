"""The world's link to its coupling facility: in process, or a Redis-protocol server.

The world asks its link for each QSG's store and for what a fault does to the facility;
it never asks which link it holds. The two differ where the facilities differ: a server
is reached by real I/O (``remote``: under the virtual clock by blocking calls from the
trio thread, ``coupling.direct``; under the wall clock through the trio transport,
which a queue manager's synchronous rules reach through greenback: ``bridged``), can be
cut off as a whole (``cut``: every call fails, the world's own too, as when the sysplex
loses its coupling facility), counts its connections, and its link dies with its server
(``drop``). In process there is no link to cut or drop: an outage there is the world's
``Reach``, which fails the members' calls only.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Protocol

import greenback
import trio

from coupling.chstatus import RedisChannelStatus
from coupling.cleanup import adelete_group, delete_group
from coupling.direct import DirectTransport
from coupling.repository import RedisRepositoryStore
from coupling.server import EmbeddedServer
from coupling.store import RedisStore
from coupling.trio_transport import TrioTransport
from qsg.core.grouprepo import MemoryRepositoryStore, RepositoryStore
from qsg.core.memstore import MemoryStore
from qsg.core.sharedchl import MemoryChannelStatus, SharedChannelStatus
from qsg.core.store import MessageStore

#: ``QSG_REDIS_URL_CF02``: the server of facility CF02 of a group with several (by
#: default each gets a private one).
FACILITY_URL_VARIABLE = "QSG_REDIS_URL"

#: Why ``cf_fail`` of a facility is refused where it has no server of the run's.
_NO_SERVER = (
    "failing a coupling facility's server needs the embedded servers the run starts "
    "itself (not in process, not QSG_REDIS_URL_<FACILITY>)"
)

#: Told of each failure of the facility a store call meets: QSG, reason code, why, and
#: whether the facility lost its structures.
OnFailure = Callable[[str, int, str, bool], None]


class CFLink(Protocol):
    """What the world uses of its coupling facility; see the module docstring."""

    #: The facility is a server: its calls are real I/O.
    remote: bool
    #: Its calls go through the trio transport, which the synchronous store reaches
    #: through greenback (the calling task needs a portal, and other tasks run while
    #: it waits); False when they block the trio thread (``coupling.direct``) or stay
    #: in process.
    bridged: bool

    @property
    def url(self) -> str:
        """The server's URL ('' in process)."""

    @property
    def connections(self) -> int:
        """How many times the link has connected to the facility (0 in process)."""

    @property
    def cut_off(self) -> str:
        """Why every call to the facility fails now ('' when none does)."""

    async def open(self, qsgs: Sequence[str], *, clear: bool) -> None:
        """Ready for the stores of ``qsgs``, emptied first if ``clear`` (a run's start)."""

    def store(self, qsg: str, on_failure: OnFailure) -> MessageStore:
        """``qsg``'s store in the facility; ``on_failure`` hears each failure it meets."""

    def facility_store(
        self, qsg: str, facility: str, admin: MessageStore, on_failure: OnFailure
    ) -> MessageStore:
        """A new store of ``qsg``'s coupling facility ``facility``, of a group with more
        than one (``admin``, the group's store, when the facilities share it)."""

    def repository_store(self, qsg: str) -> RepositoryStore:
        """Where ``qsg``'s shared repository (GROUP and SHARED definitions) is kept: in
        process, or on the facility's server under the group's keys."""

    def channel_status(self, qsg: str) -> SharedChannelStatus:
        """``qsg``'s shared channel status (who runs which shared channel)."""

    def lose_facility(self, qsg: str, facility: str) -> None:
        """``facility`` of ``qsg`` failed: its server, if it has one of its own, is killed."""

    def crash_facility(self, qsg: str, facility: str) -> None:
        """``cf_fail`` of ``facility``: its own server is killed (SIGKILL). Refused (a
        ValueError) for a facility with no server the run started."""

    def restart_facility(self, qsg: str, facility: str) -> tuple[str, bool]:
        """``cf_restart`` of ``facility``: its server starts again; its URL, and whether
        it read back its append-only file (``cf_persistent``)."""

    async def aclose(self) -> None:
        """The run ends: the links to the facilities' own servers closed, and the
        servers the link started stopped."""

    def cut(self, why: str) -> bool:
        """Fail every call to the facility (each facility's server of a group that
        names several too) with ``why`` ('' ends it); False if this link cannot be cut
        (in process)."""

    async def drop(self) -> None:
        """The facility's server died: the link goes with it (the next call connects
        again, to the restarted server)."""


class InProcess:
    """Shared queues in process: one ``MemoryStore`` per QSG."""

    remote = False
    bridged = False
    url = ""
    connections = 0
    cut_off = ""

    async def open(self, qsgs: Sequence[str], *, clear: bool) -> None:
        return None  # every store is made new, empty

    def store(self, qsg: str, on_failure: OnFailure) -> MessageStore:
        return MemoryStore()  # it never fails: nothing to tell

    def facility_store(
        self, qsg: str, facility: str, admin: MessageStore, on_failure: OnFailure
    ) -> MessageStore:
        return MemoryStore()  # each facility its own, empty when it comes (back)

    def repository_store(self, qsg: str) -> RepositoryStore:
        return MemoryRepositoryStore()

    def channel_status(self, qsg: str) -> SharedChannelStatus:
        return MemoryChannelStatus()

    def lose_facility(self, qsg: str, facility: str) -> None:
        return None  # the router no longer calls its store: it is gone all the same

    def crash_facility(self, qsg: str, facility: str) -> None:
        raise ValueError(_NO_SERVER)

    def restart_facility(self, qsg: str, facility: str) -> tuple[str, bool]:
        raise ValueError(_NO_SERVER)

    async def aclose(self) -> None:
        return None

    def cut(self, why: str) -> bool:
        return False

    async def drop(self) -> None:
        return None


#: A connection to a facility's own server: blocking, or through trio.
Transport = TrioTransport | DirectTransport


class OnServer:
    """Shared queues on a Redis-protocol server, through one transport: a blocking one
    under the virtual clock, the trio transport under the wall clock (``actors.world``).

    The facilities' own servers are reached the same way: with the trio transport, each
    through one of its own in ``nursery`` (which its reader and writer tasks live in),
    given to ``watch`` (a virtual clock's, which stands still while it is busy) first."""

    remote = True

    def __init__(
        self,
        transport: Transport,
        nursery: trio.Nursery | None = None,
        watch: Callable[[TrioTransport], object] | None = None,
        *,
        persistent: bool = False,
    ) -> None:
        self.transport = transport
        #: The facilities' own servers keep an append-only file (``cf_persistent``).
        self.persistent = persistent
        self.bridged = isinstance(transport, TrioTransport)
        if self.bridged and nursery is None:
            raise ValueError("the trio transport's facilities need a nursery")
        self._nursery = nursery
        self._watch = watch
        #: A member joining a group other processes run (not a run's start): the
        #: facilities' servers are the ones the run named, and what they hold is theirs.
        self._joining = False
        #: Each facility's own server (None: one of the user's, named by
        #: ``QSG_REDIS_URL_<FACILITY>``) and the connection to it.
        self._facilities: dict[tuple[str, str], tuple[EmbeddedServer | None, Transport]] = {}

    @property
    def url(self) -> str:
        return self.transport.url

    @property
    def connections(self) -> int:
        return self.transport.connections

    @property
    def cut_off(self) -> str:
        return self.transport.unavailable

    async def open(self, qsgs: Sequence[str], *, clear: bool) -> None:
        # The stores' calls are synchronous (the rules layer's): through the trio
        # transport they are made through greenback, whose portal the task needs first.
        if self.bridged:
            await greenback.ensure_portal()
        self._joining = not clear
        for name in qsgs if clear else ():
            await adelete_group(self.transport, name)

    def store(self, qsg: str, on_failure: OnFailure) -> MessageStore:
        store = RedisStore(self.transport, qsg)

        def failed(reason: int, why: str, structures_lost: bool) -> None:
            on_failure(qsg, reason, why, structures_lost)

        store.on_failure = failed
        return store

    def facility_store(
        self, qsg: str, facility: str, admin: MessageStore, on_failure: OnFailure
    ) -> MessageStore:
        """Each facility its own server: the one ``QSG_REDIS_URL_<FACILITY>`` names (the
        group's keys there emptied first, unless the member joins a running group),
        else a private one started now, empty. A member joining a running group (a
        process of ``qsg chaos --processes``) needs the server named: a private one
        would be its alone."""
        self._stop((qsg, facility))
        variable = f"{FACILITY_URL_VARIABLE}_{facility}"
        url = os.environ.get(variable)
        server = None
        if url is None:
            if self._joining:
                raise ValueError(
                    f"coupling facility {facility} of QSG {qsg}: a member joining a running "
                    f"group reaches it at the server {variable} names, and it names none"
                )
            server = EmbeddedServer(persistent=self.persistent)
            server.start()
            url = server.url
        transport = self._connect(url)
        transport.unavailable = self.transport.unavailable  # cut off with the rest
        if server is None and not self._joining:
            delete_group(transport, qsg)
        self._facilities[(qsg, facility)] = (server, transport)
        store = RedisStore(transport, qsg)

        def failed(reason: int, why: str, structures_lost: bool) -> None:
            on_failure(qsg, reason, why, structures_lost)

        store.on_failure = failed
        return store

    def _connect(self, url: str) -> Transport:
        """A connection to a facility's own server, of the link's kind: through trio it
        connects at its first call (from a task with a greenback portal)."""
        if self._nursery is None:
            return DirectTransport(url)
        transport = TrioTransport(url, self._nursery)
        if self._watch is not None:
            self._watch(transport)
        return transport

    def lose_facility(self, qsg: str, facility: str) -> None:
        held = self._facilities.get((qsg, facility))
        if held is not None and held[0] is not None:
            held[1].close()
            held[0].kill()  # the facility's server dies: SIGKILL, nothing saved

    def crash_facility(self, qsg: str, facility: str) -> None:
        server, transport = self._own(qsg, facility)
        if not server.running:
            raise ValueError(f"coupling facility {facility} of QSG {qsg} has already failed")
        transport.close()
        server.kill()

    def restart_facility(self, qsg: str, facility: str) -> tuple[str, bool]:
        server, _ = self._own(qsg, facility)
        if server.running:
            raise ValueError(f"coupling facility {facility} of QSG {qsg} has not failed")
        server.restart()
        return server.url, server.persistent

    def _own(self, qsg: str, facility: str) -> tuple[EmbeddedServer, Transport]:
        server, transport = self._facilities.get((qsg, facility), (None, None))
        if server is None or transport is None:
            raise ValueError(_NO_SERVER)
        return server, transport

    def _stop(self, which: tuple[str, str]) -> None:
        held = self._facilities.pop(which, None)
        if held is not None:
            held[1].close()
            if held[0] is not None:
                held[0].stop()

    async def aclose(self) -> None:
        for which in list(self._facilities):
            server, transport = self._facilities.pop(which)
            await transport.aclose()
            if server is not None:
                server.stop()

    def repository_store(self, qsg: str) -> RepositoryStore:
        return RedisRepositoryStore(self.transport, qsg)

    def channel_status(self, qsg: str) -> SharedChannelStatus:
        return RedisChannelStatus(self.transport, qsg)

    def cut(self, why: str) -> bool:
        # Every server of the groups': the group's own and each facility's.
        self.transport.unavailable = why
        for _, transport in self._facilities.values():
            transport.unavailable = why
        return True

    async def drop(self) -> None:
        await self.transport.aclose()


def _conforms(in_process: InProcess, on_server: OnServer) -> tuple[CFLink, CFLink]:
    return in_process, on_server  # mypy --strict checks here that both are CFLinks


__all__ = ["CFLink", "InProcess", "OnFailure", "OnServer"]
