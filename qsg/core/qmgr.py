"""A queue manager in the rules layer: its objects, connections and reports.

Synchronous and I/O-free: each call takes ``now``. The actors layer wraps one of these
per simulated queue manager; tests and benchmarks drive it directly. Connections and
handles are in ``connection.py`` and ``handle.py``.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Collection, Iterable, Iterator
from datetime import UTC, datetime
from fnmatch import fnmatchcase
from typing import Any

from qsg import CMQC, CMQCFC
from qsg.core import conntag, copies, engine, platforms, trigger
from qsg.core.authority import Authority
from qsg.core.channels import QMgrMap
from qsg.core.connection import Connection
from qsg.core.conntag import ConnectOptions, TagUse
from qsg.core.engine import PutIdentity, QMgrRules
from qsg.core.errors import MQMIError
from qsg.core.events import DeadLettered, Discarded, Event, EventSink, ReportLost, ReportPut
from qsg.core.layouts import DLH
from qsg.core.memstore import MemoryStore
from qsg.core.message import Message
from qsg.core.objects import CFStructure, ChannelDefinition, ProcessDefinition, QueueObject
from qsg.core.perfevents import QueueStatistics
from qsg.core.queue import MAX_MSG_LENGTH, QueueDefinition, check_name
from qsg.core.reports import Report, expiration_report
from qsg.core.repository import Repository
from qsg.core.resolve import resolve
from qsg.core.sharing import QueueSharingGroup
from qsg.core.stamp import PutStamp
from qsg.core.store import Expired, Fence, MessageStore, Recovery, StaleFenceError
from qsg.core.structs import MD, PMO
from qsg.core.uow import UnitOfWork

DEFAULT_DLQ = "SYSTEM.DEAD.LETTER.QUEUE"
DEFAULT_MODEL = "SYSTEM.DEFAULT.MODEL.QUEUE"
#: Simulated time 0 is this moment, for PutDate and PutTime.
DEFAULT_EPOCH = datetime(2026, 1, 1, tzinfo=UTC)


class QMgr:
    """A queue manager's rules: its objects over a message store, and the MQI on them.

    ``enforce_max_expiry`` is IBM's AMQ_ENFORCE_MAX_EXPIRY_ERROR (off unless asked for,
    as in MQ). ``platform`` MQPL_ZOS makes syncpoint the default for put and get.
    ``qsg`` makes it a member of a queue-sharing group; ``authority`` turns security on
    (without it every user may do everything). Like every queue manager it has
    SYSTEM.DEFAULT.MODEL.QUEUE (temporary dynamic) and a dead-letter queue.
    """

    def __init__(
        self,
        name: str,
        *,
        store: MessageStore | None = None,
        platform: int = CMQC.MQPL_ZOS,
        max_uncommitted_msgs: int = 10_000,
        max_msg_length: int = MAX_MSG_LENGTH,
        enforce_max_expiry: bool = False,
        dead_letter_queue: str | None = DEFAULT_DLQ,
        def_xmit_q_name: str = "",
        qsg: QueueSharingGroup | None = None,
        authority: Authority | None = None,
        epoch: datetime = DEFAULT_EPOCH,
        incarnation: int = 0,
        on_event: EventSink | None = None,
        channel_auth: Iterable[QMgrMap] = (),
    ) -> None:
        check_name(name, "queue manager")
        self.name = name
        self.local = Repository(store if store is not None else MemoryStore())
        self.store: MessageStore = self.local.store
        self.qsg = qsg
        self.authority = authority
        self.epoch = epoch
        self.incarnation = incarnation
        self.on_event = on_event
        self.dead_letter_queue = dead_letter_queue
        self.def_xmit_q_name = def_xmit_q_name  # DEFXMITQ
        #: Its channel authentication records of TYPE(QMGRMAP) (SET CHLAUTH): which
        #: partner queue managers may start its receiving channels.
        self.channel_auth: list[QMgrMap] = list(channel_auth)
        self.expiry_interval: int | None = None  # EXPRYINT, seconds (None: OFF)
        #: IGQ(ENABLED): messages for other members go by SYSTEM.QSG.TRANSMIT.QUEUE
        #: (qsg/core/igq.py); its agent delivers inbound ones whatever this says.
        self.intra_group_queuing = False
        self.igq_put_authority = CMQC.MQIGQPA_DEFAULT  # IGQAUT
        self.igq_user_id = ""  # IGQUSER (blank: this queue manager's own user ID)
        self.shared_q_q_mgr_name = CMQC.MQSQQM_USE  # SQQMNAME
        #: CFCONLOS: on losing connectivity to a CF structure (ASQMGR's) or to the
        #: administration structure, end (TERMINATE, IBM's default) or carry on
        #: (``qsg.core.conlos``).
        self.cf_conlos = CMQC.MQCFCONLOS_TERMINATE
        self.description = ""  # DESCR
        #: ALTER QMGR's attributes kept without effect: keyword -> value
        #: (``qsg.core.attributes``); ALTDATE and ALTTIME from the run's start until an
        #: ALTER QMGR moves them.
        self.kept: dict[str, int | str] = {
            "ALTDATE": epoch.strftime("%Y-%m-%d"),
            "ALTTIME": epoch.strftime("%H.%M.%S"),
        }
        self.trigger_interval = 999_999_999  # TRIGINT, milliseconds
        # The event switches (IBM: "Controlling queue manager events", "Performance
        # events"): every one is DISABLED until ALTER QMGR enables it.
        self.performance_event = CMQCFC.MQEVR_DISABLED  # PERFMEV
        self.inhibit_event = CMQCFC.MQEVR_DISABLED  # INHIBTEV
        self.local_event = CMQCFC.MQEVR_DISABLED  # LOCALEV
        self.authority_event = CMQCFC.MQEVR_DISABLED  # AUTHOREV
        self.channel_event = CMQCFC.MQEVR_DISABLED  # CHLEV
        #: The channels whose running instance put a Channel Started event (chlevents).
        self.channels_started: set[str] = set()
        #: What performance events report, per queue, while PERFMEV is ENABLED.
        self.queue_statistics: dict[str, QueueStatistics] = {}
        self.statistics_since = 0.0  # its start, when statistics are reset
        #: When the last trigger message for each queue was written (TRIGINT's clock).
        self.last_trigger: dict[str, float] = {}
        #: The simulated time of the latest call that brought one: the calls that take
        #: none (MQOPEN, MQCLOSE, MQSET, MQCMIT) act at it; the world sets it per call.
        self.time = 0.0
        self._ids = itertools.count(incarnation << 40)
        prefix = b"AMQ " + name.encode()[:12].ljust(12)
        self.rules = QMgrRules(
            name=name,
            platform=platform,
            max_uncommitted_msgs=max_uncommitted_msgs,
            max_msg_length=max_msg_length,
            enforce_max_expiry=enforce_max_expiry,
            new_msg_id=lambda: prefix + next(self._ids).to_bytes(8, "big"),
            stamp=PutStamp(epoch),
        )
        self._connection_numbers = itertools.count(1)
        self._dynamic_numbers = itertools.count(1)
        self._recovery_numbers = itertools.count(1)
        self.connections: dict[int, Connection] = {}
        #: Tag uses whose release found the registry unreachable: released at its next use.
        self._unreleased: list[TagUse] = []
        self._identity = PutIdentity(b"", name.encode()[:28], CMQC.MQAT_QMGR)
        if qsg is not None:
            qsg.join(name)
            qsg.event_members[name] = self
            qsg.active[name] = self
        self.define(
            QueueDefinition(
                DEFAULT_MODEL,
                q_type=CMQC.MQQT_MODEL,
                definition_type=CMQC.MQQDT_TEMPORARY_DYNAMIC,
            )
        )
        if dead_letter_queue:
            self.define_queue(dead_letter_queue, max_depth=999_999_999)

    @property
    def qsg_name(self) -> str:
        return self.qsg.name if self.qsg is not None else ""

    def group_member(self, q_mgr_name: str) -> bool:
        """Whether ``q_mgr_name`` is a member of this queue manager's QSG (itself too)."""
        return self.qsg is not None and q_mgr_name in self.qsg.members

    @property
    def queues(self) -> dict[str, QueueDefinition]:
        """The local queues this queue manager can see, its own and its QSG's shared ones."""
        found = {}
        for repo in self.repositories:
            for name, obj in repo.queues.items():
                if isinstance(obj, QueueDefinition) and obj.q_type == CMQC.MQQT_LOCAL:
                    found[name] = obj
        return found

    @property
    def repositories(self) -> tuple[Repository, ...]:
        if self.qsg is None:
            return (self.local,)
        return (self.local, self.qsg.shared)

    # ---- objects --------------------------------------------------------------
    def define(self, obj: QueueObject, *, replace: bool = False) -> QueueObject:
        """DEFINE QLOCAL/QMODEL/QALIAS/QREMOTE (with REPLACE): an object of any queue type.

        A QSGDISP(SHARED) queue goes to the QSG's repository, on a CF structure defined
        there; its name must be free in both namespaces, as in MQ.
        """
        repo = self._home_of(obj)
        for other in self.repositories:
            if other is not repo and obj.name in other.queues:
                raise ValueError(f"queue {obj.name} is already defined with another QSGDISP")
        status = repo.status.get(obj.name)
        if status is not None and status.logically_deleted:
            self._refuse_deleted_name(obj.name)
        if isinstance(obj, QueueDefinition):
            self._check_structure(obj)
        shared = obj.qsg_disp == CMQC.MQQSGD_SHARED and self.qsg is not None
        if shared and self.qsg is not None:
            self.qsg.repository.check()  # a shared queue's definition is Db2's
        repo.add_queue(obj, replace=replace)
        if shared and self.qsg is not None:
            self.qsg.repository.put("QUEUE", obj)
        return obj

    def check_name_free(self, name: str) -> None:
        """MQOPEN of a model queue creating ``name``: MQRC_OBJECT_ALREADY_EXISTS if a
        queue has the name, MQRC_NAME_IN_USE (on z/OS) if that queue is logically
        deleted but still open."""
        found = self.find(name)
        if found is None:
            return
        status = found[0].status.get(name)
        if status is not None and status.logically_deleted:
            self._refuse_deleted_name(name)
        raise MQMIError.failed(
            CMQC.MQRC_OBJECT_ALREADY_EXISTS, f"a queue named {name} already exists"
        )

    def _refuse_deleted_name(self, name: str) -> None:
        """A logically deleted queue keeps its name until its last handle closes."""
        raise MQMIError.failed(
            platforms.name_in_use(self.rules.platform),
            f"{name} is a deleted dynamic queue still open: its name is free once the "
            "last handle to it closes",
        )

    def define_queue(self, name: str, **attributes: Any) -> QueueDefinition:
        """DEFINE QLOCAL: a local queue with the attributes of ``QueueDefinition``."""
        qdef = QueueDefinition(name=name, **attributes)
        self.define(qdef)
        return qdef

    def alter_queue(self, name: str, **attributes: Any) -> QueueDefinition:
        """ALTER QLOCAL: change attributes of a local queue. Triggering turned on (or
        changed) while its conditions already stand writes a trigger message."""
        old = self.queue(name)
        qdef = dataclasses.replace(old, **attributes)
        self.define(qdef, replace=True)
        self.triggering_changed(old, qdef)
        return qdef

    def triggering_changed(self, old: QueueDefinition, new: QueueDefinition) -> None:
        """MQSET or ALTER changed ``old`` into ``new``: IBM writes a trigger message when
        the new triggering criteria are already met."""
        if trigger.triggered(new) and _trigger_fields(old) != _trigger_fields(new):
            trigger.standing(self, self.repository_of(new), new, self.time)

    def trigger_check(
        self, repo: Repository, qdef: QueueDefinition, uow: UnitOfWork | None, now: float
    ) -> Callable[[Message, bool], None] | None:
        """The hook a put to ``qdef`` calls once its message is on the queue (None when
        the queue does not trigger: the common put pays nothing)."""
        self.time = now
        if not trigger.triggered(qdef):
            return None
        return lambda msg, in_uow: trigger.after_put(
            self, repo, qdef, msg, uow if in_uow else None, now
        )

    def define_structure(self, structure: CFStructure, *, replace: bool = False) -> None:
        """DEFINE CFSTRUCT: a CF application structure of this queue manager's QSG."""
        if self.qsg is None:
            raise ValueError(f"CFSTRUCT({structure.name}): {self.name} is in no QSG")
        known = self.qsg.shared.structures
        if structure.name in known and not replace:
            raise ValueError(f"CF structure {structure.name} is already defined")
        self.qsg.repository.check()  # a CF structure's definition is Db2's
        known[structure.name] = structure
        self.qsg.repository.put("CFSTRUCT", structure)
        self.qsg.shared.store.define_structure(
            structure.name,
            size_kb=structure.size_kb,
            cf_level=structure.cf_level,
            offload=structure.offload_rules,
        )

    def define_channel(self, channel: ChannelDefinition, *, replace: bool = False) -> None:
        """DEFINE CHANNEL: the definition a channel agent runs by."""
        if channel.name in self.local.channels and not replace:
            raise ValueError(f"channel {channel.name} is already defined")
        self.local.channels[channel.name] = channel

    def define_process(self, process: ProcessDefinition, *, replace: bool = False) -> None:
        """DEFINE PROCESS: what a trigger monitor starts for the queues naming it."""
        if process.name in self.local.processes and not replace:
            raise ValueError(f"process {process.name} is already defined")
        self.local.processes[process.name] = process

    def refresh_copies(self) -> dict[str, str]:
        """This member's start: its COPY objects refreshed from the group's repository
        (``qsg.core.copies.refresh``); what was skipped and why. It is active in its
        group again, where GROUP commands send their generated COPY commands."""
        if self.qsg is None:
            return {}
        self.qsg.active[self.name] = self
        return copies.refresh(self, self.qsg.repository)

    def delete_queue(self, name: str, *, purge: bool = False) -> None:
        """DELETE QLOCAL/QALIAS/...: refused while the queue is open or not empty."""
        found = self.find(name)
        if found is None:
            raise MQMIError.failed(CMQC.MQRC_UNKNOWN_OBJECT_NAME, f"no queue {name} on {self.name}")
        repo, obj = found
        if isinstance(obj, QueueDefinition) and obj.q_type == CMQC.MQQT_LOCAL:
            if repo.status[name].handles:
                raise MQMIError.failed(CMQC.MQRC_OBJECT_IN_USE, f"queue {name} is open")
            if repo.store.uncommitted(name) or (repo.store.depth(name) and not purge):
                raise MQMIError.failed(CMQC.MQRC_Q_NOT_EMPTY, f"queue {name} is not empty")
        if obj.qsg_disp == CMQC.MQQSGD_SHARED and self.qsg is not None:
            self.qsg.repository.delete("QUEUE", name)  # 2342 while Db2 is down
        repo.remove_queue(name)

    def find(self, name: str) -> tuple[Repository, QueueObject] | None:
        """The repository holding queue object ``name`` and its definition, if any."""
        for repo in self.repositories:
            obj = repo.queues.get(name)
            if obj is not None:
                return repo, obj
        return None

    def object_not_unique(self, name: str) -> bool:
        """Whether ``name`` is one of this member's own (QMGR or COPY) queue objects and
        also a shared queue of its group: MQOPEN's MQRC_OBJECT_NOT_UNIQUE (2343)."""
        return self.qsg is not None and name in self.local.queues and name in self.qsg.shared.queues

    def queue(self, name: str) -> QueueDefinition:
        """The local (or shared) queue ``name``; MQRC_UNKNOWN_OBJECT_NAME if none."""
        return self._located(name)[1]

    def _located(self, name: str) -> tuple[Repository, QueueDefinition]:
        """The local (or shared) queue ``name`` and the repository that holds it."""
        found = self.find(name)
        if found is None:
            raise MQMIError.failed(CMQC.MQRC_UNKNOWN_OBJECT_NAME, f"no queue {name} on {self.name}")
        return found[0], found[0].local(name)

    def repository_of(self, qdef: QueueDefinition) -> Repository:
        return self.qsg.shared if qdef.is_shared and self.qsg is not None else self.local

    def depth(self, name: str) -> int:
        return self._located(name)[0].store.depth(name)

    def new_dynamic_suffix(self) -> str:
        """Sixteen hex digits no other dynamic queue of this queue manager has had."""
        return f"{(self.incarnation << 40) | next(self._dynamic_numbers):016X}"

    def new_recovery_id(self) -> int:
        """A unit of work's unit-of-recovery identifier (DISPLAY CONN's QMURID): one no
        other unit of work of this queue manager has had, in this life or an earlier
        one (as z/OS's log RBA only grows), and never 0 (no unit of work)."""
        return (self.incarnation << 40) | next(self._recovery_numbers)

    def authorized(self, user: str, name: str, operation: str) -> bool:
        return self.authority is None or self.authority.allowed(user, name, operation)

    def _home_of(self, obj: QueueObject) -> Repository:
        if obj.qsg_disp == CMQC.MQQSGD_Q_MGR:
            return self.local
        if obj.qsg_disp == CMQC.MQQSGD_COPY:
            if self.qsg is None:
                raise ValueError(f"queue {obj.name}: {self.name} is in no queue-sharing group")
            return self.local  # a member's copy of a GROUP queue, on its own page set
        if obj.qsg_disp != CMQC.MQQSGD_SHARED:
            raise ValueError(f"queue {obj.name}: a GROUP object is kept in the shared repository")
        if not isinstance(obj, QueueDefinition) or obj.q_type != CMQC.MQQT_LOCAL:
            raise ValueError(f"queue {obj.name}: only a local queue can be QSGDISP(SHARED)")
        if self.qsg is None:
            raise ValueError(f"shared queue {obj.name}: {self.name} is in no queue-sharing group")
        return self.qsg.shared

    def _check_structure(self, qdef: QueueDefinition) -> None:
        shared = qdef.is_shared or qdef.definition_type == CMQC.MQQDT_SHARED_DYNAMIC
        if not shared:
            return
        if self.qsg is None:
            raise ValueError(f"queue {qdef.name}: {self.name} is in no queue-sharing group")
        if qdef.cf_struct not in self.qsg.shared.structures:
            raise ValueError(
                f"queue {qdef.name}: CFSTRUCT({qdef.cf_struct}) is not defined"
                f" in QSG {self.qsg.name}"
            )

    # ---- connections ----------------------------------------------------------
    def connect(
        self,
        user: str = "qsg",
        appl_name: str = "qsg",
        *,
        cno: ConnectOptions | None = None,
        delayed: Collection[tuple[str, int]] = (),
    ) -> Connection:
        """MQCONN (MQCONNX with ``cno``): a connection with its own unit of work, for
        ``user``. A connection tag option serializes it (``qsg.core.conntag``):
        ``delayed`` names the failed lives whose recovery waits for the coupling
        facility (their tags are not usable)."""
        number = next(self._connection_numbers)
        use = None
        if cno is not None:
            use = conntag.requested(cno, self.name, self.incarnation, number, self.rules.platform)
        if use is not None:
            self._release_unreleased()
            conntag.claim(self.tag_registry, use, delayed)
        conn = Connection(self, number, user, appl_name)
        conn.tag_use = use
        conn.syncpoint_manager = cno is not None and cno.syncpoint_manager
        self.connections[number] = conn
        return conn

    def connect_agent(
        self, kind: str, name: str, *, appl_name: str, user: str = "qsg"
    ) -> Connection:
        """The connection of one of MQ's own agents that work on shared queues (``kind``
        "CHL": a shared channel's MCA, ``name`` its channel; "IGQ": this member's IGQ
        agent, ``name`` the member), serialized by its connection tag
        (``conntag.agent_options``): while a failed life that used the tag has units of
        work peer recovery has not resolved, ``conntag.NotSerializedError`` (2271, or
        2350), and the agent goes into retry. One behaviour for every such agent (IBM,
        "Channels and serialization", "The intra-group queuing agent and
        Serialization")."""
        cno = conntag.agent_options(kind, name, self.name, self.rules.platform)
        try:
            return self.connect(user, appl_name, cno=cno)
        except MQMIError as error:
            if error.reason not in conntag.NOT_YET:
                raise
            raise conntag.NotSerializedError(kind, name, error) from None

    @property
    def tag_registry(self) -> MessageStore:
        """Where this queue manager's connection tags are kept: its group's coupling
        facility (every member serializes there), or its own store outside a group."""
        return self.qsg.shared.store if self.qsg is not None else self.local.store

    def release_tag(self, use: TagUse) -> None:
        """A connection serialized by ``use`` ended: the tag is free again. A registry
        that cannot be reached now is told at its next use by this queue manager."""
        self._unreleased.append(use)
        self._release_unreleased()

    @property
    def tags_unreleased(self) -> bool:
        """Some connection tag's release found the registry out of reach, and waits."""
        return bool(self._unreleased)

    def release_pending(self) -> bool:
        """Tell the registry of the connection tags whose release found it out of reach
        (``release_tag``); whether none is left waiting."""
        self._release_unreleased()
        return not self._unreleased

    def _release_unreleased(self) -> None:
        try:
            while self._unreleased:
                self.tag_registry.release_conn_tag(self._unreleased[0])
                self._unreleased.pop(0)
        except MQMIError:
            pass  # the facility is out of reach: the uses wait here for it

    def recover_peer(self, failed: str, incarnation: int) -> Recovery:
        """Peer recovery, by this member, of ``failed``'s life ``incarnation``: its units
        of work on shared queues backed out (``MessageStore.recover``), and then the
        connection tags of that life freed, their units of work being resolved."""
        assert self.qsg is not None, "peer recovery is by a member of a QSG"
        store = self.qsg.shared.store
        outcome = store.recover(failed, incarnation, self.name)
        store.release_conn_tags(failed, incarnation + 1)
        return outcome

    def forget_shared_handles(self) -> None:
        """This failed member's handles on the group's shared queues, forgotten once
        peer recovery has run: an input-exclusive open (a shared channel's on its
        transmission queue) no longer keeps the survivors out. Its connections are
        otherwise left for its restart (``restart``)."""
        if self.qsg is None:
            return
        shared = self.qsg.shared
        for conn in self.connections.values():
            for handle in conn.handles:
                if handle.repository is shared:
                    handle.status.handles.pop(handle, None)

    def reap(self) -> None:
        """Physically delete the logically deleted queues nobody uses any more."""
        for repo in self.repositories:
            if repo.deleting:
                repo.reap()

    def restart(self, incarnation: int | None = None) -> None:
        """Queue-manager start after a failure or stop: the connections of before are gone
        without close processing, their units of work backed out, and every temporary
        dynamic queue is deleted ("Dynamic queues": "deleted when the queue manager is
        started"). The BackoutCount of a NOHARDENBO queue's messages is 0 again. A new
        ``incarnation`` (a life of the queue manager) keeps the MsgIds and dynamic-queue
        names it generates apart from the earlier lives'."""
        # Its units of work of every earlier life are resolved now: their tags are free.
        self.tag_registry.release_conn_tags(self.name, self.incarnation + 1)
        if incarnation is not None:
            self.incarnation = incarnation
            self._ids = itertools.count(incarnation << 40)
            self._dynamic_numbers = itertools.count(1)
        self._recovery_numbers = itertools.count(1)
        for conn in list(self.connections.values()):
            conn.sever()
        self.channels_started.clear()  # the channel instances of the life before are gone
        # "Performance event statistics are reset when ... a queue manager stops and
        # restarts" (IBM: "Performance event statistics").
        self.queue_statistics.clear()
        self.statistics_since = self.time
        for name, obj in list(self.local.queues.items()):
            # A BackoutCount not hardened does not survive (IBM: "Messages that are backed
            # out"); a shared queue's is kept with the message in the coupling facility.
            if (
                isinstance(obj, QueueDefinition)
                and obj.q_type == CMQC.MQQT_LOCAL
                and obj.harden_get_backout == CMQC.MQQA_BACKOUT_NOT_HARDENED
            ):
                self.local.store.forget_backout_counts(name)
        for name, obj in list(self.local.queues.items()):
            # The dynamic queues, not the model queues they were made from.
            if (
                isinstance(obj, QueueDefinition)
                and obj.q_type == CMQC.MQQT_LOCAL
                and obj.is_temporary_dynamic
            ):
                self.local.remove_queue(name)

    # ---- expiry: discards, reports, scans -------------------------------------
    def discarded(self, queue: str, messages: list[Message], by: str, now: float) -> None:
        """Account for expired messages a get, browse or channel removed: events and reports.

        The report is put now, outside any unit of work ("Expiry (MQLONG)" notes 3, 4).
        """
        for msg in messages:
            self._discarded(queue, msg.msg_id, msg, by, now)

    def scanned(self, queue: str, expired: list[Expired], now: float) -> None:
        """Account for the messages an expiry scan discarded, as ``discarded`` does."""
        for item in expired:
            self._discarded(queue, item.msg_id, item.message, "scan", now)

    def _discarded(
        self, queue: str, msg_id: bytes, msg: Message | None, by: str, now: float
    ) -> None:
        # msg is None only for a scanned message whose Report asks for no expiration report.
        self.emit(Discarded(now, self.name, queue, msg_id, by))
        if msg is None:
            return
        report = expiration_report(msg, q_mgr_name=self.name, new_msg_id=self.rules.new_msg_id)
        if report is not None:
            self.send_report(report, msg_id, now)

    def send_report(self, report: Report, original_msg_id: bytes, now: float) -> None:
        """Put a report to its ReplyToQ, else to the dead-letter queue, never in a UOW."""
        dest, dest_qmgr = report.reply_to_q, report.reply_to_q_mgr
        try:
            queue = self.put_system(dest, report.md, report.body, now, q_mgr=dest_qmgr)
        except MQMIError as error:
            reason = error.reason
        else:
            self.emit(
                ReportPut(
                    now, self.name, queue, report.md.MsgId, original_msg_id, report.md.Feedback
                )
            )
            return
        if not self.dead_letter(
            report.md, report.body, reason, dest, dest_qmgr, now, original_msg_id=original_msg_id
        ):
            self.emit(ReportLost(now, self.name, dest, original_msg_id, reason))

    def dead_letter(
        self,
        md: MD,
        body: bytes,
        reason: int,
        dest_q: str,
        dest_q_mgr: str,
        now: float,
        *,
        original_msg_id: bytes = b"",
    ) -> bool:
        """Put a message to the dead-letter queue behind an MQDLH; False if that failed.
        ``original_msg_id``: for a report, the message it reports on.

        The descriptor keeps the remaining Expiry it has, which goes on decrementing on
        the dead-letter queue ("Expiry (MQLONG)" note 7).
        """
        if not self.dead_letter_queue:
            return False
        header = DLH(
            Reason=reason,
            DestQName=dest_q.encode(),
            DestQMgrName=(dest_q_mgr or self.name).encode(),
            Encoding=md.Encoding,
            CodedCharSetId=md.CodedCharSetId,
            Format=md.Format,
            PutApplName=self.name.encode()[:28],
        )
        dl_md = MD(**md.get())
        dl_md.Format = CMQC.MQFMT_DEAD_LETTER_HEADER
        try:
            self.put_system(self.dead_letter_queue, dl_md, header.pack(md.Encoding) + body, now)
        except MQMIError:  # a warning is not raised: the message is there
            return False
        self.emit(
            DeadLettered(now, self.name, self.dead_letter_queue, md.MsgId, reason, original_msg_id)
        )
        return True

    def put_system(self, queue: str, md: MD, body: bytes, now: float, *, q_mgr: str = "") -> str:
        """A put the queue manager makes itself: its own context, outside any UOW. With
        ``q_mgr`` naming another queue manager (a report's ReplyToQMgr), the name is
        resolved as an MQPUT1 would resolve it: to the shared queue for the QSG's name,
        else to a transmission queue, the message wrapped in an MQXQH. Returns the local
        queue the message went to."""
        pmo = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT | CMQC.MQPMO_SET_ALL_CONTEXT)
        if not md.PutDate.strip():
            md.PutDate, md.PutTime = self.rules.stamp(now)
        remote = None
        if q_mgr in ("", self.name):
            repo, qdef = self._located(queue)
        else:
            res = resolve(self, queue, q_mgr, CMQC.MQOO_OUTPUT)
            if res.model:
                raise MQMIError.failed(CMQC.MQRC_UNKNOWN_OBJECT_NAME, f"{queue} is a model queue")
            repo, qdef, remote = res.repository, res.queue, res.remote
        try:
            engine.put(
                self.rules,
                repo.store,
                qdef,
                body,
                md,
                pmo,
                None,
                self._identity,
                now,
                remote=remote,
                stored=self.trigger_check(repo, qdef, None, now),
                structures=repo.structures,
            )
        except MQMIError as error:
            # A put that completes with a warning (a Priority above 9 copied from the
            # message a report or dead letter is about) stored its message: the queue
            # manager has no caller to warn, and must not put it again elsewhere.
            if error.comp != CMQC.MQCC_WARNING:
                raise
        return qdef.name

    def worth_scanning(self, now: float, *, shared: bool = False) -> Iterator[str]:
        """The queues whose expired messages a scan would discard now: this queue
        manager's own, or (``shared``) its QSG's shared queues, which only the holder of
        the expiry-scan lease scans."""
        repo = self._scanned(shared)
        if repo is None:
            return iter(())
        return (name for name in list(repo.status) if repo.store.worth_scanning(name, now))

    def _scanned(self, shared: bool) -> Repository | None:
        if not shared:
            return self.local
        return self.qsg.shared if self.qsg is not None else None

    def scan_expired(
        self, now: float, pattern: str = "*", *, shared: bool = False, fence: Fence | None = None
    ) -> int:
        """Discard expired messages from the queues worth scanning that match ``pattern``.

        EXPRYINT's periodic scan (pattern ``*``) and REFRESH QMGR TYPE(EXPIRY)
        NAME(pattern). Costs what expired, not the depth. Returns how many were discarded.
        A scan of shared queues carries the scan lease's ``fence``; a store that keeps
        leases refuses a stale one (``StaleFenceError``), each batch before it discards
        anything: what earlier batches discarded is accounted for before the error goes
        on.
        """
        repo = self._scanned(shared)
        total = 0
        for name in [n for n in self.worth_scanning(now, shared=shared) if fnmatchcase(n, pattern)]:
            assert repo is not None  # there was something worth scanning
            try:
                gone = repo.store.scan(name, now, fence)
            except StaleFenceError as refused:
                # The lease was lost between two batches: what the first ones discarded
                # is gone all the same, and owes its events and reports.
                self.scanned(name, refused.discarded, now)
                raise
            self.scanned(name, gone, now)
            total += len(gone)
        return total

    def emit(self, event: Event) -> None:
        if self.on_event is not None:
            self.on_event(event)


def _trigger_fields(qdef: QueueDefinition) -> tuple[object, ...]:
    return (
        qdef.trigger_control,
        qdef.trigger_type,
        qdef.trigger_depth,
        qdef.trigger_msg_priority,
        qdef.initiation_q_name,
        qdef.process_name,
    )


__all__ = ["QMgr"]
