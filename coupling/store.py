"""The coupling facility's message store: the store primitives over Redis.

``RedisStore`` implements ``qsg.core.store.MessageStore`` with one Lua script per atomic
primitive (``coupling.scripts``), so the queue engine runs unchanged on shared queues,
and every member of the queue-sharing group that talks to the same server sees the same
queues. The common put and the common get (with the expiry discards it owes) are one
round trip each; a depth or uncommitted count is one plain read.

Beyond the primitives, the facility owns what only it can: CF structure limits
(MQRC_STORAGE_MEDIUM_FULL when entries or elements run out, MQRC_WRONG_CF_LEVEL for a
message over 63 KB below CFLEVEL(4), offload of such messages), units of work named
by (queue manager, connection) so that peer recovery can find a failed member's
(``recover``), and the fencing of expiry scans by lease tokens (``coupling.lease``).
A lost connection is MQRC_CF_STRUC_FAILED at the API; committed messages stay on the
server. So is a facility that no longer holds the queues the store created (its server
restarted empty: the structures are gone until RECOVER CFSTRUCT); a full server is
MQRC_STORAGE_MEDIUM_FULL and one still loading its data MQRC_CF_STRUC_IN_USE
(``coupling.errors``). Each such failure is also told to ``on_failure``, which the world
uses to account for the facility's failures in the run.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, cast

import msgpack

from coupling import keys, scripts
from coupling.codec import decode, encode
from coupling.errors import CFConnectionError, CFCutOffError, CFRefusedError, cut_off
from coupling.lease import Lease, check_held
from coupling.transport import Transport
from qsg import CMQC
from qsg.core import cfstate, geometry
from qsg.core.conntag import TagUse, TagUses
from qsg.core.errors import MQMIError
from qsg.core.message import Message, joined
from qsg.core.offload import LARGE_MESSAGE_CF_LEVEL, Rule
from qsg.core.reports import wants_expiration_report
from qsg.core.store import (
    MATCH_ANY,
    Expired,
    Fence,
    MessageStore,
    Ordering,
    Recovery,
    Select,
    StaleFenceError,
    Syncpoint,
    Taken,
    UowId,
)

#: The structure of queues created without one (a store used as a queue manager's own).
NO_STRUCTURE = "-"
#: How many expired messages one scan script discards before handing back.
SCAN_BATCH = 1000
_NO_GROUP = CMQC.MQGI_NONE


class RedisStore:
    """The store primitives on a Redis-protocol server, for one queue-sharing group.

    Several ``RedisStore`` objects (one per member, each with its own transport) over
    the same ``qsg`` name share every queue, as members share a coupling facility.
    """

    #: A CF structure's failure under a unit of work is learnt by its commit (``commit``).
    commit_may_refuse = True

    def __init__(self, transport: Transport, qsg: str) -> None:
        self.transport = transport
        self.qsg = qsg
        self._prefixes: dict[str, str] = {}  # queue -> key prefix
        self._structures: dict[str, str] = {}  # key prefix -> structure name
        self._defined: set[str] = set()  # structures defined through this store
        #: The queues of failed structures this store knows of (failed through it, or
        #: met failed by a call), each with its structure, and their key prefixes.
        self._failed_q: dict[str, str] = {}
        self._failed_prefixes: dict[str, str] = {}
        self._queues_key = keys.queues_key(qsg)
        #: Bumped at each failure of the facility (``failed``): a unit of work that began
        #: in an earlier epoch was backed out by the facility's recovery.
        self.epoch = 0
        self._began: dict[str, int] = {}  # unit of work with entries -> its epoch
        #: Told of every failure of the facility a call meets: its reason code, why, and
        #: whether the facility lost its structures (its server restarted empty).
        self.on_failure: Callable[[int, str, bool], None] | None = None
        #: Accesses to shared message data sets by this member: offloaded messages it
        #: put (written) and got or browsed (read), for the model's SMDS costs.
        self.smds_writes = self.smds_reads = 0

    # ---- structures and queues --------------------------------------------------
    def define_structure(
        self, name: str, *, size_kb: int, cf_level: int, offload: tuple[Rule, ...] = ()
    ) -> None:
        """A CF structure of SIZE ``size_kb`` (what it holds: ``qsg.core.geometry``),
        and the offload rules its puts apply (``qsg.core.offload``, lowest threshold
        first, as the put script expects them).

        Redefining keeps what the structure holds and its usage."""
        key = keys.structure_key(self.qsg, name)
        rules = ",".join(f"{threshold}:{size}" for threshold, size in sorted(offload))
        self._run(scripts.DEFINE_STRUCTURE, [key], [name, cf_level, size_kb, rules])
        self._defined.add(name)

    def create_queue(self, queue: str, ordering: Ordering, structure: str | None = None) -> None:
        """A shared queue on ``structure``; another member's existing queue is joined."""
        struc = structure or NO_STRUCTURE
        prefix = keys.queue_prefix(self.qsg, struc, queue)
        accounting = keys.structure_key(self.qsg, struc) if structure else ""
        status, *rest = self._run(
            scripts.CREATE_QUEUE, [prefix, self._queues_key], [ordering.value, accounting]
        )
        if status != scripts.OK:
            raise ValueError(
                f"queue {queue!r} already exists in the coupling facility with "
                f"{Ordering(rest[0]).name} order"
            )
        self._prefixes[queue] = prefix
        self._structures[prefix] = struc

    def delete_queue(self, queue: str) -> None:
        prefix = self._prefix(queue)
        self._run(scripts.DELETE_QUEUE, [prefix, self._queues_key], [])
        del self._prefixes[queue]
        del self._structures[prefix]

    def depth(self, queue: str) -> int:
        return int(self._command("HGET", self._prefix(queue) + "h", "depth") or 0)

    def depth_at_least(self, queue: str, lowest_priority: int, committed_only: bool) -> int:
        if not committed_only and not lowest_priority:
            return self.depth(queue)
        reply = self._run(
            scripts.COUNT, [self._prefix(queue)], [lowest_priority, "1" if committed_only else ""]
        )
        if reply[0] == scripts.NO_QUEUE:
            raise self._gone(queue)
        return int(reply[1])

    def uncommitted(self, queue: str) -> int:
        return int(self._command("HLEN", self._prefix(queue) + "u"))

    def contents(self, queue: str) -> list[bytes]:
        reply = self._run(scripts.CONTENTS, [self._prefix(queue)], [])
        if reply[0] != scripts.OK:
            raise self._gone(queue)
        return [bytes(msg_id) for msg_id in reply[1:]]

    # ---- put and get ----------------------------------------------------------
    def put(
        self, queue: str, msg: Message, uow: UowId | None, max_depth: int, member: str = ""
    ) -> None:
        record, offloaded = encode(msg)
        token = "" if uow is None else keys.uow_token(uow)
        desc = msg.desc
        group_id = desc["GroupId"]
        group = (
            f"{group_id.hex()}:{desc['MsgSeqNumber']}:{desc['Offset']}"
            if group_id != _NO_GROUP
            else ""
        )
        scanned_by_id = msg.expires_at is not None and not wants_expiration_report(desc["Report"])
        reply = self._run(
            scripts.PUT,
            [self._prefix(queue), *self._uow_keys(token)],
            _trimmed(
                [
                    record,
                    token,
                    max_depth,
                    "" if msg.expires_at is None else repr(msg.expires_at),
                    msg.priority,
                    group,
                    offloaded or "",
                    # What a scan needs of a message that owes no expiration report.
                    msg.msg_id if scanned_by_id else "",
                    # Whose log a persistent put goes into (qsg.core.cflog), after a
                    # mark: a member may be unnamed (a store's own tests).
                    "L" + member if msg.persistent else "",
                ]
            ),
        )
        status = reply[0]
        if status == scripts.OK:
            msg.seq = geometry.seq_of(int(reply[1]))
            if len(reply) > 2:  # its data went to the structure's SMDS
                self.smds_writes += 1
            if token:
                self._began.setdefault(token, self.epoch)
            return
        if status == scripts.FULL:
            raise MQMIError.failed(
                CMQC.MQRC_Q_FULL, f"queue {queue} is at its MAXDEPTH of {max_depth}"
            )
        if status == scripts.STORAGE_FULL:
            raise MQMIError.failed(
                CMQC.MQRC_STORAGE_MEDIUM_FULL,
                f"CF structure {reply[1].decode()} is full (all its entries or elements are in"
                f" use); putting to {queue}",
            )
        if status == scripts.CF_LEVEL:
            raise MQMIError.failed(
                CMQC.MQRC_WRONG_CF_LEVEL,
                f"a message of {len(msg.body)} bytes is over 63 KB: CF structure "
                f"{reply[2].decode()} of {queue} is CFLEVEL({reply[1]}), "
                f"{LARGE_MESSAGE_CF_LEVEL} or more is needed",
            )
        raise self._gone(queue)

    def get(
        self,
        queue: str,
        select: Select,
        now: float,
        uow: UowId | None,
        syncpoint: Syncpoint,
        max_length: int | None,
        accept_truncated: bool,
        member: str = "",
    ) -> Taken:
        token = "" if uow is None else keys.uow_token(uow)
        # A get outside syncpoint names no unit of work to the script (the script's
        # ``in_uow`` is false for it whatever the token): two keys and the token fewer
        # for the server to make into strings, the common planner's get.
        taken = self._get(
            queue,
            select,
            now,
            token if syncpoint is not Syncpoint.NO else "",
            syncpoint.value,
            max_length,
            accept_truncated,
            False,
            None,
            member,
        )
        if token and taken.message is not None and not taken.too_long:
            self._began.setdefault(token, self.epoch)  # (at most one entry too many)
        return taken

    def browse(self, queue: str, after: int | None, select: Select, now: float) -> Taken:
        return self._get(queue, select, now, "", 0, None, True, True, after, "")

    def _get(
        self,
        queue: str,
        select: Select,
        now: float,
        token: str,
        syncpoint: int,
        max_length: int | None,
        accept_truncated: bool,
        browse: bool,
        after: int | None,
        member: str,
    ) -> Taken:
        handle = "" if select.handle is None else self.handle_token(select.handle)
        reply = self._run(
            scripts.GET,
            [self._prefix(queue), *self._uow_keys(token)],
            _trimmed(
                [
                    repr(now),
                    token,
                    syncpoint,
                    -1 if max_length is None else max_length,
                    "1" if accept_truncated else "",
                    "1" if browse else "",
                    "" if after is None else after,
                    _selection(select),
                    handle,
                    member,
                ]
            ),
        )
        if reply[0] != scripts.OK:
            raise self._gone(queue)
        _, found, too_long, parts, gone = reply
        discarded = _messages(gone)
        if found is None:
            return Taken(None, discarded, False, after)
        pieces = _messages(parts)
        msg = pieces[0] if len(pieces) == 1 else joined(pieces)
        if not too_long:
            self.smds_reads += sum(1 for data in parts[2::4] if data)
        return Taken(msg, discarded, bool(too_long), int(found))

    # ---- browse locks -----------------------------------------------------------
    def lock(self, queue: str, key: int, handle: Hashable) -> None:
        self._run(scripts.LOCK, [self._prefix(queue)], [key, self.handle_token(handle)])

    def unlock(self, queue: str, handle: Hashable) -> None:
        self._run(scripts.LOCK, [self._prefix(queue)], ["", self.handle_token(handle)])

    @staticmethod
    def handle_token(handle: Hashable) -> str:
        """A handle's name in the facility: ``QM1/3/...``, its queue manager first, so
        peer recovery can release a failed member's locks."""
        token = getattr(handle, "store_token", None)
        return token if isinstance(token, str) else f"?/{id(handle):x}"

    # ---- units of work --------------------------------------------------------
    def commit(self, uow: UowId) -> None:
        """Commit ``uow``; MQRC_BACKED_OUT, nothing committed, if a CF structure it had
        work on failed meanwhile: the failure marked it in the facility (whichever
        member's RESET failed the structure), and the commit script reads the mark, at
        no cost of a round trip."""
        token = keys.uow_token(uow)
        reply = self._run(
            scripts.COMMIT, [*self._uow_keys(token), keys.lost_uows_key(self.qsg)], [token]
        )
        self._began.pop(token, None)
        if reply[0] == scripts.BACKED_OUT:
            raise MQMIError.failed(CMQC.MQRC_BACKED_OUT, _lost_why(reply[1]))

    def backout(self, uow: UowId) -> None:
        token = keys.uow_token(uow)
        self._run(scripts.BACKOUT, [*self._uow_keys(token), keys.lost_uows_key(self.qsg)], [token])
        self._began.pop(token, None)

    def backed_out(self, uow: UowId) -> str | None:
        """Why ``uow`` can no longer commit, if it cannot: the facility failed while it
        was in flight, and its recovery backed it out. Asked before any store commits.
        (A CF structure's failure under it is learnt by the commit itself: ``commit``.)"""
        began = self._began.get(keys.uow_token(uow))
        if began is None or began == self.epoch:
            return None
        return (
            f"the coupling facility of QSG {self.qsg} failed while the unit of work was "
            "in flight: its recovery backed it out"
        )

    def prepare(self, uow: UowId) -> str | None:
        """Why ``uow`` cannot commit here: ``backed_out``, or the mark a structure's
        failure (or a member's lost link to it) left in the facility, read and kept for
        the commit or backout that follows (one round trip more than a lone commit)."""
        why = self.backed_out(uow)
        if why is not None:
            return why
        mark = self._command("HGET", keys.lost_uows_key(self.qsg), keys.uow_token(uow))
        return None if mark is None else _lost_why(mark)

    def failed(self) -> None:
        """The facility failed (its server is gone): units of work in flight cannot
        commit any more (``backed_out``)."""
        self.epoch += 1

    def recover(self, failed: str, incarnation: int, by: str) -> Recovery:
        """Peer recovery of ``failed`` (in its life ``incarnation``), run by member ``by``:
        back out its in-flight units of work (gets return with BackoutCount + 1, puts
        vanish) and release its locks. Exactly one caller per failed life runs it; the
        others learn who did. A restarted member calls it for itself."""
        reply = self._run(
            scripts.RECOVER,
            [
                keys.recovery_key(self.qsg, failed, incarnation),
                keys.uows_key(self.qsg, failed),
                self._queues_key,
                keys.group_prefix(self.qsg),
            ],
            [failed, by],
        )
        if reply[0] == 1:
            return Recovery(failed, by, True, reply[1], reply[2], reply[3])
        return Recovery(failed, reply[1].decode(), False)

    def recover_failure(
        self, members: Sequence[str], keep: dict[str, bool], floors: dict[str, int]
    ) -> tuple[int, dict[str, int]]:
        """RECOVER CFSTRUCT after the facility failed (every queue created here first):
        back out the ``members``' units of work in flight, release every lock, keep on
        each queue its persistent messages if ``keep`` says so and nothing otherwise,
        and raise each lease's token to at least its floor (``floors``: lease key to
        token). Answers the units backed out and the messages lost per queue."""
        names = list(keep)
        args: list[Any] = [len(members), *members, len(names)]
        for name in names:
            args += [self._prefix(name), "1" if keep[name] else ""]
        for key, token in floors.items():
            args += [key, token]
        reply = self._run(scripts.CF_RECOVER, [keys.group_prefix(self.qsg), self._queues_key], args)
        return int(reply[0]), {n: int(v) for n, v in zip(names, reply[1:], strict=True)}

    def lose_nonpersistent(self) -> int:
        """A member's restart loses nothing here: the facility keeps the nonpersistent
        messages of shared queues while it runs."""
        return 0

    def forget_backout_counts(self, queue: str) -> None:
        # Two commands, not a script: the queue manager is restarting and nothing else
        # works on its queue meanwhile (``nback`` counts the entries of ``b``).
        prefix = self._prefix(queue)
        self._command("DEL", prefix + "b")
        self._command("HSET", prefix + "h", "nback", 0)

    def in_flight(self, q_mgr: str) -> int:
        """How many units of work ``q_mgr`` has with uncommitted work on shared queues."""
        return int(self._command("SCARD", keys.uows_key(self.qsg, q_mgr)))

    # ---- connection tags (qsg.core.conntag; the layout is coupling.keys') -------
    def conn_tags(self, tag: bytes) -> TagUses:
        found = self._command("HGETALL", keys.conn_tag_key(self.qsg, tag))
        version, uses = 0, []
        for name, value in found.items() if isinstance(found, dict) else _pairs(found):
            field, held = name.decode(), value.decode()
            if field == "#":
                version = int(held)
                continue
            q_mgr, life, connection = field.rsplit("/", 2)
            option, space = held.split("/", 1)
            uses.append(TagUse(tag, q_mgr, int(life), int(connection), int(option), space))
        return TagUses(version, tuple(uses))

    def claim_conn_tag(self, use: TagUse, version: int) -> bool:
        reply = self._run(
            scripts.CONN_TAG_CLAIM,
            [keys.conn_tag_key(self.qsg, use.tag), keys.conn_tags_key(self.qsg, use.q_mgr)],
            [version, _use_field(use), f"{use.option}/{use.space}", use.tag.hex()],
        )
        return bool(reply)

    def release_conn_tag(self, use: TagUse) -> None:
        self._run(
            scripts.CONN_TAG_RELEASE, [keys.conn_tag_key(self.qsg, use.tag)], [_use_field(use)]
        )

    def release_conn_tags(self, q_mgr: str, before: int) -> int:
        return int(
            self._run(
                scripts.CONN_TAG_END_LIVES,
                [keys.conn_tags_key(self.qsg, q_mgr)],
                [keys.conn_tag_key(self.qsg, b""), q_mgr, before],
            )
        )

    # ---- expiry scan ----------------------------------------------------------
    def worth_scanning(self, queue: str, now: float) -> bool:
        return int(self._command("ZCOUNT", self._prefix(queue) + "x", "-inf", repr(now))) > 0

    def scan(self, queue: str, now: float, fence: Fence | None = None) -> list[Expired]:
        """Discard the committed expired messages, a batch per round trip; with ``fence``,
        each batch first proves the lease is still held with that token. A message that
        asks for no expiration report comes back by its MsgId alone (its record is not
        read); within each batch, those come after the ones that come back whole."""
        lease = "" if fence is None else keys.lease_key(self.qsg, fence.role)
        token = "" if fence is None else str(fence.token)
        # The lease's expiry is judged by the holder's clock when it checked the fence
        # (a member's lease clock may be skewed); message times are the scan's ``now``.
        fenced_at = repr(now if fence is None or fence.at is None else fence.at)
        gone: list[Expired] = []
        while True:
            reply = self._run(
                scripts.SCAN,
                [self._prefix(queue), lease],
                [repr(now), token, SCAN_BATCH, fenced_at],
            )
            if reply[0] == scripts.STALE_TOKEN:
                assert fence is not None
                current = None if reply[1] is None else int(reply[1])
                raise StaleFenceError(fence, current, gone)  # what went before is gone
            if reply[0] != scripts.OK:
                raise self._gone(queue)
            gone.extend(Expired(msg.msg_id, msg) for msg in _messages(reply[2]))
            gone.extend(Expired(msg_id, None) for msg_id in reply[3])
            if not reply[1]:
                return gone

    # ---- leases ---------------------------------------------------------------
    def lease(
        self,
        role: str,
        member: str,
        length: float,
        on_token: Callable[[str, int], None] | None = None,
    ) -> Lease:
        """``member``'s lease on ``role`` in this QSG (``coupling.lease``)."""
        return Lease(self.transport, self.qsg, role, member, length, on_token=on_token)

    def check_fence(self, fence: Fence, now: float) -> None:
        try:
            check_held(self.transport, self.qsg, fence, now)
        except CFConnectionError as error:
            raise MQMIError.failed(CMQC.MQRC_CF_STRUC_FAILED, str(error)) from None

    # ---- structures -------------------------------------------------------------
    def structure_usage(self, name: str) -> dict[str, int]:
        """A structure's entries and elements in use and their maxima."""
        use, max_entries, max_elements = self._command(
            "HMGET", keys.structure_key(self.qsg, name), "use", "max_entries", "max_elements"
        )
        # One counter, entries x 10^10 + elements (coupling.scripts: a get frees both in
        # one call).
        entries, elements = divmod(int(use or 0), scripts.USAGE_BASE)
        return {
            "entries": entries,
            "elements": elements,
            "max_entries": int(max_entries or 0),
            "max_elements": int(max_elements or 0),
        }

    # ---- one structure's failure, backup and recovery (qsg.core.cfstate) -----------
    @property
    def failed_queues(self) -> dict[str, str]:
        """The queues of failed structures this store knows of, with their structure:
        the ones failed through it, and those a call met failed (another process's
        member failed it). MQOPEN looks here first; a call learns the rest."""
        return self._failed_q

    def fail_structure(self, name: str, now: float) -> int:
        members = self._members()
        reply = self._run(
            scripts.STRUCTURE_FAIL,
            [keys.structure_key(self.qsg, name), self._queues_key, keys.group_prefix(self.qsg)],
            [repr(now), *members],
        )
        if reply[0] != scripts.OK:
            raise ValueError(f"CF structure {name} has already failed")
        self._forget_queues(name)
        return int(reply[1])

    def disconnect_structure(self, member: str, name: str) -> tuple[int, int]:
        reply = self._run(
            scripts.STRUCTURE_DISCONNECT,
            [keys.structure_key(self.qsg, name), self._queues_key, keys.group_prefix(self.qsg)],
            [member],
        )
        return int(reply[1]), int(reply[2])

    def backup_structure(self, name: str, now: float, exclint: float) -> cfstate.StructureStatus:
        reply = self._run(
            scripts.STRUCTURE_BACKUP,
            [keys.structure_key(self.qsg, name), self._queues_key],
            [repr(now), repr(float(exclint))],
        )
        if reply[0] != scripts.OK:
            raise ValueError(f"CF structure {name} has failed: it cannot be backed up")
        return self.structure_status(name)

    def recover_structure(self, name: str, purge: bool) -> tuple[int, int, int]:
        reply = self._run(
            scripts.STRUCTURE_RECOVER,
            [keys.structure_key(self.qsg, name), self._queues_key],
            ["1" if purge else "", "1" if cfstate.replays_log() else ""],
        )
        if reply[0] != scripts.OK:
            raise ValueError(f"CF structure {name} has not failed")
        self._restore_queues(name)
        return int(reply[1]), int(reply[2]), int(reply[3])

    def structure_status(self, name: str) -> cfstate.StructureStatus:
        failed, lost, backup_at, backup_n, backup_bytes = self._command(
            "HMGET",
            keys.structure_key(self.qsg, name),
            "failed",
            "lost",
            "backup_at",
            "backup_n",
            "backup_bytes",
        )
        written = self._command("HGETALL", keys.log_key(self.qsg, name) + "n")
        pairs = written.items() if isinstance(written, dict) else _pairs(written)
        records = {bytes(m).decode(): int(n) for m, n in pairs}
        return cfstate.StructureStatus(
            name,
            cfstate.ACTIVE if failed is None else cfstate.FAILED,
            None if failed is None else float(failed),
            None if backup_at is None else float(backup_at),
            int(backup_n or 0),
            int(backup_bytes or 0),
            sum(records.values()),
            int(lost or 0),
            tuple(sorted(m for m, n in records.items() if n)),
        )

    def export_structure(self, name: str) -> object:
        """Every key of the structure's namespace (``coupling.keys``: its definition,
        queues, messages, backup and log), as DUMP gives it, for ``import_structure``
        on another facility's server."""
        image: list[tuple[bytes, bytes]] = []
        for key in self._structure_keys(name):
            dumped = self._command("DUMP", key)
            if dumped is not None:
                image.append((key, bytes(dumped)))
        return image

    def import_structure(self, name: str, image: object) -> None:
        """The structure's namespace made what ``image`` holds (RESTORE), its queues
        usable here or, for a failed structure, failed here as they were there."""
        restored = cast(list[tuple[bytes, bytes]], image)
        members = self._members()
        self._run(
            scripts.STRUCTURE_LOSE_UOWS,
            [keys.structure_key(self.qsg, name), keys.group_prefix(self.qsg)],
            [name, *members],
        )
        stale = self._structure_keys(name)
        if stale:
            self._command("UNLINK", *stale)
        for key, dumped in restored:
            self._command("RESTORE", key, 0, dumped, "REPLACE")
        root = keys.structure_key(self.qsg, name)
        failed = bool(self._command("HEXISTS", root, "failed"))
        if failed:
            prefixes = [bytes(p).decode() for p in self._command("HKEYS", root + "qs")]
        else:
            prefixes = sorted(
                {k.decode()[:-1] for k, _ in restored if k.decode().startswith(root + "q:")}
            )
            if prefixes:
                self._command("SADD", self._queues_key, *prefixes)
        for queue in [q for q, p in self._prefixes.items() if self._structures.get(p) == name]:
            del self._prefixes[queue]
        for queue in [q for q, s in self._failed_q.items() if s == name]:
            del self._failed_q[queue], self._failed_prefixes[queue]
        for prefix in prefixes:
            queue = keys.queue_name(prefix)
            self._structures[prefix] = name
            if failed:
                self._failed_q[queue], self._failed_prefixes[queue] = name, prefix
            else:
                self._prefixes[queue] = prefix
        self._defined.add(name)

    def _structure_keys(self, name: str) -> list[bytes]:
        """The keys of the structure's namespace (SCAN, a batch per call)."""
        root = keys.structure_key(self.qsg, name)
        found: list[bytes] = [root.encode()] if self._command("EXISTS", root) else []
        # The members' logs are outside the namespace (its failure leaves them) but are
        # the structure's all the same: a rebuild elsewhere recovers from them.
        log = keys.log_key(self.qsg, name)
        found += [(log + s).encode() for s in "pgn" if self._command("EXISTS", log + s)]
        cursor: Any = 0
        while True:
            cursor, batch = self._command("SCAN", cursor, "MATCH", root + "*", "COUNT", 1000)
            found += [bytes(k) for k in batch if bytes(k) != root.encode()]
            if int(cursor) == 0:
                return sorted(set(found))

    def _members(self) -> list[str]:
        """Every queue manager with units of work in the facility (their sets' names),
        and those this store began units for, sorted."""
        pattern = keys.uows_key(self.qsg, "*")
        found = self._command("KEYS", pattern)
        named = {bytes(k).decode().rsplit(":", 1)[-1] for k in found}
        return sorted(named | {keys.owner_of(t) for t in self._began})

    def _forget_queues(self, structure: str) -> None:
        """This store's queues of the failed ``structure`` are out of use: each call on
        one is MQRC_CF_STRUC_FAILED (``_prefix``)."""
        for queue, prefix in list(self._prefixes.items()):
            if self._structures.get(prefix) == structure:
                del self._prefixes[queue]
                self._failed_q[queue] = structure
                self._failed_prefixes[queue] = prefix

    def _restore_queues(self, structure: str) -> None:
        for queue in [q for q, s in self._failed_q.items() if s == structure]:
            del self._failed_q[queue]
            self._prefixes[queue] = self._failed_prefixes.pop(queue)

    # ---- invariants -----------------------------------------------------------------
    def audit(self) -> list[str]:
        """What is wrong with the facility's derived state for this QSG (every queue of
        the group, whichever member created it, and its structures), recounted in one
        atomic script (``scripts.AUDIT``); see ``MessageStore.audit``."""
        defined = [keys.structure_key(self.qsg, name) for name in sorted(self._defined)]
        reply = self._run(scripts.AUDIT, [self._queues_key, keys.group_prefix(self.qsg)], defined)
        return [
            f"queue {keys.queue_name(where.decode())}: {problem.decode()}"
            if where
            else problem.decode()
            for where, problem in zip(reply[::2], reply[1::2], strict=True)
        ]

    # ---- plumbing -----------------------------------------------------------------
    def _prefix(self, queue: str) -> str:
        try:
            return self._prefixes[queue]
        except KeyError:
            structure = self._failed_q.get(queue)
            if structure is None:
                raise KeyError(queue) from None
        # Its structure failed: recovered since by another store (member) of the group?
        key = keys.structure_key(self.qsg, structure)
        if self._command("HEXISTS", key, "failed"):
            raise cfstate.failed_error(structure, queue)
        self._restore_queues(structure)
        return self._prefixes[queue]

    def _uow_keys(self, token: str) -> list[str]:
        if not token:
            return []  # outside syncpoint the scripts name no unit of work (fewer arguments)
        return [keys.uow_key(self.qsg, token), keys.uows_key(self.qsg, keys.owner_of(token))]

    def _run(self, script: scripts.Script, key_names: Sequence[str], args: Sequence[Any]) -> Any:
        try:
            return self.transport.run(script, key_names, args)
        except CFConnectionError as error:
            raise self._failed(key_names, error) from error

    def _command(self, *args: Any) -> Any:
        try:
            return self.transport.command(*args)
        except CFConnectionError as error:
            raise self._failed(args[1:2], error) from error

    def _failed(self, key_names: Sequence[str], error: CFConnectionError) -> MQMIError:
        # A script names the queue's prefix; a plain command one of its keys (prefix + a
        # one-letter suffix).
        key = str(key_names[0]) if key_names else ""
        where = self._structures.get(key) or self._structures.get(key[:-1])
        name = f"CF structure {where}" if where and where != NO_STRUCTURE else "the CF"
        if isinstance(error, CFRefusedError):
            return self._tell(error.reason, f"{name} of QSG {self.qsg}: {error}")
        if isinstance(error, CFCutOffError):  # the whole facility, whatever the call
            return self._tell(CMQC.MQRC_CF_STRUC_FAILED, cut_off(self.qsg, str(error)))
        return self._tell(
            CMQC.MQRC_CF_STRUC_FAILED, f"{name} of QSG {self.qsg} is unreachable: {error}"
        )

    def _gone(self, queue: str) -> Exception:
        """A script found no queue ``queue``, which this store created: another member
        deleted it (KeyError, as for any unknown queue), or the facility lost its
        structure (its server restarted without its data): MQRC_CF_STRUC_FAILED, until
        the structure is recovered."""
        prefix = self._prefixes.get(queue)
        if prefix is None:
            return KeyError(queue)
        struc = self._structures.get(prefix, NO_STRUCTURE)
        held = keys.structure_key(self.qsg, struc) if struc != NO_STRUCTURE else self._queues_key
        if struc != NO_STRUCTURE and self._command("HEXISTS", held, "failed"):
            self._forget_queues(struc)  # another member failed it: learnt here
            return cfstate.failed_error(struc, queue)
        if int(self._command("EXISTS", held)):
            if not int(self._command("EXISTS", prefix + "h")):
                return KeyError(queue)  # the structure is there: the queue alone was deleted
            # The queue is there again: the facility lost it after the script ran and was
            # recovered before these questions (a call through the trio transport waits
            # on each, and the watch's recovery may run meanwhile). The call met that
            # failure, which whoever found it lost has told.
            return MQMIError.failed(
                CMQC.MQRC_CF_STRUC_FAILED,
                f"CF structure {struc} of QSG {self.qsg} failed and was recovered during "
                f"the call on queue {queue}",
            )
        named = f"CF structure {struc}" if struc != NO_STRUCTURE else "the CF"
        return self._tell(
            CMQC.MQRC_CF_STRUC_FAILED,
            (
                f"{named} of QSG {self.qsg} has failed: the coupling facility no longer holds "
                f"it or queue {queue} (its server restarted without its data?)"
            ),
            lost=True,
        )

    def _tell(self, reason: int, why: str, *, lost: bool = False) -> MQMIError:
        if self.on_failure is not None:
            self.on_failure(reason, why, lost)
        return MQMIError.failed(reason, why)


def _lost_why(mark: bytes) -> str:
    """Why a unit of work marked lost cannot commit. The mark is the structure ('APP1':
    it failed) or 'APP1/QM1' (the member lost connectivity to it:
    ``disconnect_structure``)."""
    structure, _, member = bytes(mark).decode().partition("/")
    if member:
        return (
            f"{member} lost connectivity to CF structure {structure} while the unit of "
            "work had work on it: peer recovery backed that work out"
        )
    return f"CF structure {structure} failed while the unit of work had work on it"


def _use_field(use: TagUse) -> str:
    return f"{use.q_mgr}/{use.life}/{use.connection}"


def _pairs(flat: Sequence[Any]) -> list[tuple[Any, Any]]:
    """A flat HGETALL reply (RESP2) as its field and value pairs."""
    return list(zip(flat[::2], flat[1::2], strict=True))


def _trimmed(args: list[Any]) -> list[Any]:
    """A script's ARGV without its trailing empty strings, which the PUT and GET scripts
    read as empty: every argument costs the server a string made and freed, and the
    common put and get leave most of theirs empty."""
    end = len(args)
    while end and (args[end - 1] == "" or args[end - 1] == b""):
        end -= 1
    return args[:end]


def _selection(select: Select) -> bytes:
    """ARGV[8] of the GET script: empty for "any message", else the msgpack selection."""
    match = select.match
    if (
        match is MATCH_ANY
        and select.key is None
        and not (select.first_items or select.whole_group)
        and not (select.whole_message or select.complete)
    ):
        return b""
    group_hex = None if match.group_id is None else match.group_id.hex()
    packed: bytes = msgpack.packb(
        [
            match.msg_id,
            match.correl_id,
            match.group_id,
            group_hex,
            match.msg_seq_number,
            match.offset,
            select.first_items,
            select.whole_group,
            select.whole_message,
            select.complete,
            None if select.key is None else str(select.key),
        ],
        use_bin_type=False,  # Lua's cmsgpack reads raw strings, not bin
    )
    return packed


def _messages(flat: list[Any]) -> list[Message]:
    """Messages from the scripts' flat (key, record, offloaded body, BackoutCount) items."""
    return [
        decode(int(flat[i]), flat[i + 1], flat[i + 2], int(flat[i + 3]))
        for i in range(0, len(flat), 4)
    ]


def _conforms(store: RedisStore) -> MessageStore:
    return store  # mypy --strict checks here that RedisStore is a MessageStore
