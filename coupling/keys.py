"""Every key the coupling facility uses, in one place.

One namespace per queue-sharing group (``qsg:{QSG1}:``) and, inside it, one per CF
structure (``qsg:{QSG1}:s:APP1:``); a shared queue's keys hang off its structure's
namespace (``qsg:{QSG1}:s:APP1:q:PAYROLL.IN:``) so that everything a structure holds
can be found, measured or failed together. The braces make the QSG name a Redis Cluster
hash tag: a group's keys would stay in one slot, as Lua scripts need.

A queue's keys (suffixes appended to its prefix):

- ``h`` hash: ``seq`` (arrival counter), ``depth`` (CURDEPTH), ``k`` (the ordering,
  ``0`` priority or ``1`` FIFO, followed by its structure's accounting key, none for a
  queue without one: one field where a script would read two), ``nlock`` and ``nback``
  (entries in ``l`` and ``b``, so the common paths skip them when empty);
- ``o`` sorted set: the visible messages, member and score both the message key;
- ``m`` hash: message key → the msgpack record (``coupling.codec``), or, for a message
  with fixed attributes, ``#``, their length, ``:``, the attributes and the record (a
  record never starts with ``#``). The attributes are ``expires;group-field;offloaded;
  msgid``: expiry time, group-index field, ``1`` for an offloaded body, and the MsgId of
  an expiring message that asks for no expiration report (what a scan hands back
  instead of the record). Most messages have none: then the common get and put never
  touch ``x``, ``f`` or ``g``, and a get reads a message in one call;
- ``f`` hash: message key → the body of an offloaded message (over 63 KB);
- ``x`` sorted set: the expiry index, message key scored by its expiry time;
- ``u`` hash: message key → ``P:`` or ``G:`` (an uncommitted put or get) and the unit
  of work holding it;
- ``b`` hash: message key → BackoutCount, for messages backed out at least once;
- ``l`` hash: message key → the handle that locked it (MQGMO_LOCK);
- ``g`` hash: ``groupid-hex:MsgSeqNumber:Offset`` → message key (the group index).

A CF structure's key (``structure_key``) is a hash: ``name``, ``cflevel``, ``size_kb``,
``max_entries``, ``max_elements``, and its usage and maxima as one number each, ``use`` and
``max``: entries x 10^10 + elements (a put counts both in one ``HINCRBY``, a get frees
both in one), and ``offld``, its CFLEVEL(5) offload rules (``threshold:bytes,...``,
lowest threshold first; absent when it has none), which the put reads with ``use`` and
``max`` and applies only once the structure is as full as the lowest threshold: the data
of a message they offload goes to the queue's ``f`` hash, as an offloaded body always
does, and its record keeps only its control information.
"""

from __future__ import annotations

from collections.abc import Hashable


def group_prefix(qsg: str) -> str:
    """Everything of one queue-sharing group."""
    return f"qsg:{{{qsg}}}:"


def structure_key(qsg: str, structure: str) -> str:
    """A CF structure's definition and accounting (a hash), and its namespace's root."""
    return f"{group_prefix(qsg)}s:{structure}:"


def log_key(qsg: str, structure: str) -> str:
    """The prefix of the members' logs of a CF structure since its backup
    (``qsg.core.cflog``): beside the structure's namespace, not in it, so that its
    failure leaves them. ``p`` hash: place (queue prefix and message key) -> put record;
    ``g`` hash: place -> the member that got that backed-up message; ``n`` hash: member
    -> log records it wrote since the backup. (The scripts make it from the structure's
    key: ``log_of`` in ``coupling.scripts``.)"""
    return f"{structure_key(qsg, structure)[:-1]}#log:"


def queue_prefix(qsg: str, structure: str, queue: str) -> str:
    """The prefix of a shared queue's keys; see the module docstring for the suffixes."""
    return f"{structure_key(qsg, structure)}q:{queue}:"


def queue_name(prefix: str) -> str:
    """The queue whose keys start with ``prefix`` (``queue_prefix``'s inverse)."""
    return prefix.rsplit(":q:", 1)[-1].removesuffix(":")


def queues_key(qsg: str) -> str:
    """A set of every shared queue's prefix: what peer recovery walks for locks."""
    return f"{group_prefix(qsg)}queues"


def uow_key(qsg: str, uow: str) -> str:
    """A unit of work's entries, in order: ``P|prefix|key`` (put) or ``G|...`` (get)."""
    return f"{group_prefix(qsg)}uow:{uow}"


def uows_key(qsg: str, q_mgr: str) -> str:
    """A set of one queue manager's units of work with entries: what peer recovery backs out."""
    return f"{group_prefix(qsg)}uows:{q_mgr}"


def recovery_key(qsg: str, q_mgr: str, incarnation: int) -> str:
    """Who recovered one life of a queue manager (set once: exactly one member does)."""
    return f"{group_prefix(qsg)}recovery:{q_mgr}:{incarnation}"


def lost_uows_key(qsg: str) -> str:
    """A hash of the units of work a CF structure's failure took work from (token ->
    the structure): they cannot commit (``RedisStore.backed_out``)."""
    return f"{group_prefix(qsg)}lostuow"


def lease_key(qsg: str, role: str) -> str:
    """A lease: hash of ``holder``, ``expires`` (simulated time) and ``token``."""
    return f"{group_prefix(qsg)}lease:{role}"


def group_listeners_key(qsg: str) -> str:
    """The group ports of the members that take connections to the group's address (a
    hash: member -> ``host(port)``; ``actors.groupaddress``)."""
    return f"{group_prefix(qsg)}grouplisteners"


def uow_token(uow: Hashable) -> str:
    """A unit of work's name in the facility: ``QM1/7`` for (queue manager, connection).

    The queue manager comes first, so peer recovery finds a failed member's units."""
    if isinstance(uow, tuple):
        return "/".join(str(part) for part in uow)
    return str(uow)


def owner_of(uow: str) -> str:
    """The queue manager a unit of work (or a lock owner) token belongs to."""
    return uow.split("/", 1)[0]


def repository_key(qsg: str, kind: str) -> str:
    """A table of the group's shared repository (``qsg.core.grouprepo``), a hash: object
    name -> its definition's row (JSON). ``kind`` is the table: QUEUE, CHANNEL, ..."""
    return f"{group_prefix(qsg)}r:{kind}"


def conn_tag_key(qsg: str, tag: bytes) -> str:
    """A connection tag's uses (a hash): ``#`` its version (a count of its changes, never
    reset), and per use ``q_mgr/life/connection`` → ``option/space`` (the processing
    scope). The tag is written in hexadecimal, its trailing zeros dropped."""
    return f"{group_prefix(qsg)}tag:{tag.hex()}"


def conn_tags_key(qsg: str, q_mgr: str) -> str:
    """A set of the tags (hexadecimal) a queue manager has used: what the end of its
    lives (peer recovery, its restart) walks. It may name tags no longer used."""
    return f"{group_prefix(qsg)}tags:{q_mgr}"
