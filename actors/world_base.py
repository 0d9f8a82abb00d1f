"""What every part of the running world shares: its state and its look-ups.

``World`` (``actors.world``) is one class in three modules, one per job, each a base of
the next: this state (``WorldBase``), coupling-facility recovery and leases
(``actors.world_cf``), fault injection (``actors.world_faults``), and the API a
scenario uses (``actors.world``). A reader finds each job's methods in its own module;
a caller sees one ``World``.
"""

from __future__ import annotations

import itertools
import random
from typing import TYPE_CHECKING

import trio

from actors.cflink import CFLink
from actors.costs import Costs
from actors.events import EventLog, ExpiryScanned
from actors.expiry import ScanningQueueManager
from actors.qmgr import QueueManager
from actors.reach import Reach
from actors.signals import Signals
from actors.topology import Topology
from coupling.server import EmbeddedServer
from qsg import CMQC
from qsg.core.errors import MQMIError
from qsg.core.events import DeadLettered, Event, EventMessagePut, ReportPut, TriggerMessagePut
from qsg.core.facilities import Placement
from qsg.core.router import Router
from qsg.core.sharing import QueueSharingGroup
from qsg.core.store import MessageStore

if TYPE_CHECKING:
    from actors.admin import ChannelBoard
    from actors.command_server import Starter
    from actors.facility import FacilityWatch


class WorldBase:
    """The world's state; ``World`` adds the parts that are handed the whole world."""

    #: The facility's failures, scheduled or not (only a server fails on its own).
    watch: FacilityWatch
    #: Each channel agent's state and traffic, for DISPLAY CHSTATUS.
    channel_board: ChannelBoard
    #: Starts a queue manager's command server when a command first arrives.
    command_servers: Starter

    def __init__(
        self,
        topology: Topology,
        *,
        seed: int,
        events: EventLog,
        link: CFLink,
        faults: bool = False,
        history: bool = False,
        server: EmbeddedServer | None = None,
    ) -> None:
        self.topology = topology
        #: The model costs now (a latency spike raises them for a while) and as set.
        self.costs: Costs = topology.costs
        self.base_costs: Costs = topology.costs
        #: Who can reach the coupling facility, when the world takes CF outage faults.
        self.reach: Reach | None = Reach() if faults else None
        #: Applications record every operation as invoke and completion (chaos runs).
        self.history = history
        self._msg_ids = itertools.count(1)
        #: The first 6 bytes of the MsgIds clients choose (unique per process and life
        #: when queue managers run in separate processes).
        self.msg_id_stem = b"QSGMSG"
        self._extra = {"cf_access": 0.0, "channel_latency": 0.0}
        self.seed = seed
        self.random = random.Random(seed)
        self.events = events
        self.signals = Signals()
        #: The coupling facility: in process, or on a server (``remote``).
        self.link = link
        self.remote = link.remote
        #: The coupling facility's server, when the world started it (it can fail it).
        self.server = server
        #: The highest fencing token seen per lease key: a facility that comes back
        #: without its state restarts its tokens above these.
        self.tokens: dict[str, int] = {}
        self.stopping = False
        self.qsgs: dict[str, QueueSharingGroup] = {}
        #: Each QSG's store in its coupling facility, as the world itself calls it (the
        #: groups' own are guarded by ``reach``).
        self.cf_stores: dict[str, MessageStore] = {}
        self.qmgrs: dict[str, QueueManager] = {}
        self._nursery: trio.Nursery | None = None
        #: Failed lives whose peer recovery could not reach the coupling facility.
        self._unrecovered: set[tuple[str, int]] = set()
        self._cf_failed_by_fault = False  # cf_fail killed the server; cf_restart not yet
        #: Where each QSG's structures are allocated among its facilities (each its
        #: router's ``placement``).
        self.placements: dict[str, Placement] = {}
        #: Each QSG's router over its facilities' stores (``qsg.core.router``): the
        #: group's store when it has more than one facility, and with one what moves
        #: a structure's content all the same.
        self.routers: dict[str, Router] = {}
        #: Members a loss of connectivity ended (CFCONLOS TERMINATE), restarted when
        #: their link is back.
        self._conlos_ended: set[str] = set()
        #: The facilities each member has lost connectivity to (and tolerates).
        self._cut_facilities: dict[str, set[str]] = {}
        #: (QSG, facility) whose own server ``cf_fail`` killed: back at its restart.
        self._crashed: set[tuple[str, str]] = set()

    # ---- for the actors ---------------------------------------------------------------
    def rules_event(self, event: Event) -> None:
        """What a queue manager's rules report: into the event stream; and a message the
        queue manager put itself (a report, a dead letter, a trigger message, an event
        message) wakes the getters waiting on its queue, such as a trigger monitor."""
        self.events.emit(event)
        if isinstance(event, ReportPut | DeadLettered | TriggerMessagePut | EventMessagePut):
            found = self.qmgrs[event.q_mgr].rules.find(event.queue)
            if found is not None:
                self.signals.notify(found[0].store, event.queue)

    def note_scan(
        self,
        qm: ScanningQueueManager,
        *,
        shared: bool,
        pattern: str,
        discarded: int,
        cause: str,
        token: int = 0,
    ) -> None:
        now = trio.current_time()
        self.events.emit(ExpiryScanned(now, qm.name, shared, pattern, discarded, cause, token))

    def _qm(self, name: str) -> QueueManager:
        qm = self.qmgrs.get(name)
        if qm is None:
            raise MQMIError.failed(
                CMQC.MQRC_Q_MGR_NAME_ERROR, f"no queue manager {name} in this world"
            )
        return qm

    def _running(self, name: str) -> QueueManager:
        qm = self._qm(name)
        if not qm.alive:
            raise qm.unavailable()
        return qm

    def _peers(self, qm: QueueManager) -> list[QueueManager]:
        group = qm.rules.qsg
        if group is None:
            return []
        return [self.qmgrs[m] for m in group.members if m != qm.name]


__all__ = ["WorldBase"]
