"""Serialized applications: MQCONNX's connection tag on z/OS.

An application instance connects with a tag of its own (MQCNO ``ConnTag``) and one of the
MQCNO_*_CONN_TAG_* options, so that a second instance, or the same one restarted on
another member, is refused while the first still uses the tag or a unit of work of it
is unresolved (IBM, "MQCNO - Connect options" and "ConnTag (MQBYTE128) on IBM MQ for
z/OS"). Here is the rule of which use of a tag excludes which (``refusal``), synchronous;
the uses themselves are kept where every member sees them, by the store's connection-tag
registry (``MessageStore.conn_tags``): the group's coupling facility for a member of a
queue-sharing group, its own store for a queue manager in none.

- MQCNO_SERIALIZE_CONN_TAG_Q_MGR: exclusive use on this queue manager; a use of the tag
  elsewhere in the group does not matter.
- MQCNO_SERIALIZE_CONN_TAG_QSG: exclusive use in the whole group.
- MQCNO_RESTRICT_CONN_TAG_Q_MGR / _QSG: shared use, but only with users in the same
  processing scope (an MVS address space) connected to the same queue manager; not for a
  client application.

Otherwise MQRC_CONN_TAG_IN_USE (2271), also while the user was a member that failed and
whose units of work peer recovery (or its restart) has not yet resolved; and
MQRC_CONN_TAG_NOT_USABLE (2350) while that recovery waits for the coupling facility.
An application whose units of work a syncpoint manager owns (RRS, CICS, IMS:
``ConnectOptions.syncpoint_manager``) that issues MQDISC with one active under its tag
gets the warning MQRC_CONN_TAG_NOT_RELEASED (2344): the tag stays in use until the
syncpoint manager resolves the unit (``Connection.resolve``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from qsg import CMQC
from qsg.core.errors import MQMIError

#: The four options, of which a connection names one at most.
TAG_OPTIONS = (
    CMQC.MQCNO_SERIALIZE_CONN_TAG_Q_MGR
    | CMQC.MQCNO_SERIALIZE_CONN_TAG_QSG
    | CMQC.MQCNO_RESTRICT_CONN_TAG_Q_MGR
    | CMQC.MQCNO_RESTRICT_CONN_TAG_QSG
)
_GROUP_WIDE = CMQC.MQCNO_SERIALIZE_CONN_TAG_QSG | CMQC.MQCNO_RESTRICT_CONN_TAG_QSG
_SHARED = CMQC.MQCNO_RESTRICT_CONN_TAG_Q_MGR | CMQC.MQCNO_RESTRICT_CONN_TAG_QSG
_NAMES = {
    CMQC.MQCNO_SERIALIZE_CONN_TAG_Q_MGR: "MQCNO_SERIALIZE_CONN_TAG_Q_MGR",
    CMQC.MQCNO_SERIALIZE_CONN_TAG_QSG: "MQCNO_SERIALIZE_CONN_TAG_QSG",
    CMQC.MQCNO_RESTRICT_CONN_TAG_Q_MGR: "MQCNO_RESTRICT_CONN_TAG_Q_MGR",
    CMQC.MQCNO_RESTRICT_CONN_TAG_QSG: "MQCNO_RESTRICT_CONN_TAG_QSG",
}
#: "MQ" in upper, lower or mixed case, in ASCII and in EBCDIC (M X'D4'/X'94', Q X'D8'/X'98').
_RESERVED = {bytes((m, q)) for m in b"Mm\xd4\x94" for q in b"Qq\xd8\x98"}
#: The reason codes a store answers when the facility cannot be reached.
_FACILITY = frozenset(
    {CMQC.MQRC_CF_STRUC_FAILED, CMQC.MQRC_CF_NOT_AVAILABLE, CMQC.MQRC_CF_STRUC_IN_USE}
)
#: How often a claim is tried again when another member changed the tag meanwhile.
_CLAIM_TRIES = 100


@dataclass(frozen=True, slots=True)
class ConnectOptions:
    """What of MQCONNX's MQCNO the queue manager serializes by: its ``Options``, its
    ``ConnTag`` (used only with a Version 3 MQCNO or later: the caller passes MQCT_NONE
    otherwise), whether the application is a ``client``, and its processing ``space``
    (the MVS address space it runs in: a program's connections share one)."""

    options: int = CMQC.MQCNO_NONE
    tag: bytes = CMQC.MQCT_NONE
    client: bool = False
    space: str = ""
    #: Its units of work belong to a syncpoint manager (RRS, CICS or IMS), not to the
    #: queue manager: MQDISC does not commit them, and with one active under a tag it
    #: cannot release the tag (MQRC_CONN_TAG_NOT_RELEASED, 2344) until it is resolved.
    syncpoint_manager: bool = False
    #: The connection is IBM MQ's own (a channel initiator's MCA, an IGQ agent), which
    #: may use the tags IBM reserves for its products (those beginning "MQ").
    product: bool = False


@dataclass(frozen=True, slots=True)
class TagUse:
    """One use of connection tag ``tag``: by connection ``connection`` of ``q_mgr`` in its
    life ``life``, under ``option`` (one of ``TAG_OPTIONS``), from processing scope
    ``space``. ``tag`` is the 128 bytes of MQBYTE128 without their trailing zeros."""

    tag: bytes
    q_mgr: str
    life: int
    connection: int
    option: int
    space: str

    @property
    def group_wide(self) -> bool:
        return bool(self.option & _GROUP_WIDE)

    @property
    def shared(self) -> bool:
        return bool(self.option & _SHARED)


class TagUses(NamedTuple):
    """The uses of one tag a registry keeps, and the tag's ``version``: a count of its
    changes, which a claim names to be refused if the tag changed since it was read."""

    version: int
    uses: tuple[TagUse, ...]


def requested(
    cno: ConnectOptions, q_mgr: str, life: int, connection: int, platform: int
) -> TagUse | None:
    """The use of a tag MQCONNX with ``cno`` asks of ``q_mgr`` (None: no tag option, or
    the tag MQCT_NONE), checked: MQRC_OPTIONS_ERROR for more than one tag option, for a
    queue manager not on z/OS, and for RESTRICT from a client; MQRC_CNO_ERROR for a tag
    beginning "MQ", which IBM reserves for its own products (it documents no reason
    code for one: qsg refuses the MQCNO that carries it)."""
    option = cno.options & TAG_OPTIONS
    if not option:
        return None
    if option & (option - 1):
        named = " and ".join(n for bit, n in _NAMES.items() if option & bit)
        raise MQMIError.failed(
            CMQC.MQRC_OPTIONS_ERROR, f"one connection-tag option at most, not {named}"
        )
    if platform != CMQC.MQPL_ZOS:
        raise MQMIError.failed(
            CMQC.MQRC_OPTIONS_ERROR, f"{_NAMES[option]} is for z/OS queue managers only"
        )
    if cno.client and option & _SHARED:
        raise MQMIError.failed(
            CMQC.MQRC_OPTIONS_ERROR, f"{_NAMES[option]} is not allowed for a client application"
        )
    tag = normal_tag(cno.tag)
    if not tag:
        return None  # MQCT_NONE: no tag, nothing to serialize
    if tag[:2] in _RESERVED and not cno.product:
        raise MQMIError.failed(
            CMQC.MQRC_CNO_ERROR,
            f"ConnTag {tag[:16]!r} begins with MQ: connection tags beginning with MQ (in any "
            "case, ASCII or EBCDIC) are reserved for IBM products",
        )
    return TagUse(tag, q_mgr, life, connection, option, cno.space)


def normal_tag(tag: bytes) -> bytes:
    """ConnTag as a registry keys it: MQBYTE128 (longer is cut, shorter padded with
    zeros), its trailing zeros dropped, so that b"A" and b"A\\0" are one tag."""
    return bytes(tag[: CMQC.MQ_CONN_TAG_LENGTH]).rstrip(b"\x00")


#: The reason codes with which serializing refuses a tag now but may grant it later
#: (its holder's units of work still unresolved, or their recovery waiting for the
#: coupling facility): an agent of MQ's own goes into retry on them.
NOT_YET = frozenset({CMQC.MQRC_CONN_TAG_IN_USE, CMQC.MQRC_CONN_TAG_NOT_USABLE})


#: The address space each kind of agent runs in (z/OS's ssidMSTR, ssidCHIN).
_AGENT_SPACES = {"IGQ": "MSTR", "CHL": "CHIN"}
#: How each kind of agent is named in the line that says why it may not start.
_AGENT_NAMES = {"IGQ": "the IGQ agent of {}", "CHL": "channel {}"}


def not_yet(error: MQMIError) -> str:
    """Why one of ``NOT_YET``'s refusals keeps an agent out, in a few words."""
    if error.reason == CMQC.MQRC_CONN_TAG_IN_USE:
        return "shared queue peer recovery is in progress"
    return "its connection tag is not usable now"


class NotSerializedError(MQMIError):
    """One of MQ's own agents on shared queues may not serialize its access to them now
    (``agent_options``; one of ``NOT_YET``'s refusals, whose completion and reason code
    it keeps): ``line`` is "an error message indicating that recovery is in progress"
    (IBM, "Channels and serialization" and "The intra-group queuing agent and
    Serialization", which give no message number), which the agent logs before it goes
    into retry, whatever kind of agent it is."""

    def __init__(self, kind: str, name: str, refusal: MQMIError) -> None:
        super().__init__(refusal.comp, refusal.reason, refusal.detail)
        agent = _AGENT_NAMES[kind].format(name)
        self.line = (
            f"{agent} cannot serialize its access to shared queues: {not_yet(refusal)} ({refusal})"
        )


def agent_options(kind: str, name: str, q_mgr: str, platform: int) -> ConnectOptions | None:
    """How one of MQ's own agents on shared queues of ``q_mgr`` connects (IBM, "Channels
    and serialization", "The intra-group queuing agent and Serialization": they
    "serialize access to shared queues by issuing the MQCONNX API call"), with a tag of
    ``kind`` ("CHL" for a shared channel's MCA, "IGQ" for a member's IGQ agent) and
    ``name`` (the channel, or the member), in the "MQ" space IBM keeps for its products,
    which no application can take. MQCNO_RESTRICT_CONN_TAG_QSG, from the address space
    the agent runs in: agents of one life of the member share it, and any other use in
    the group, a failed life whose units of work are unresolved above all, keeps them
    out. IBM does not say which tags and option its agents use: these are qsg's own.
    None (no serializing) off z/OS, which has neither connection tags nor shared queues."""
    if platform != CMQC.MQPL_ZOS:
        return None
    return ConnectOptions(
        options=CMQC.MQCNO_RESTRICT_CONN_TAG_QSG,
        tag=f"MQ{kind}.{name}".encode(),
        space=f"{q_mgr}{_AGENT_SPACES[kind]}",
        product=True,
    )


def recovering(
    registry: Registry,
    tag: bytes,
    running: Collection[tuple[str, int]],
    delayed: Collection[tuple[str, int]] = (),
) -> MQMIError | None:
    """Why an operation on a shared channel whose agents serialize by ``tag``
    (``agent_options``) must wait: a life of a member that is not ``running`` (queue
    manager, life) still uses the tag, a failed life whose units of work peer recovery
    has not resolved: MQRC_CONN_TAG_IN_USE (2271), or MQRC_CONN_TAG_NOT_USABLE (2350)
    when that life's recovery waits for the coupling facility (``delayed``). None when
    no such use. IBM ("Channels and serialization"): "An attempt to RESOLVE, PING, or
    DELETE a channel can fail for the same reason" as a start, "an error message
    indicating that recovery is in progress"; it names neither message nor reason
    code, so the reason is the one the serializing MQCONNX would have had (our choice).
    A registry out of reach refuses nothing here: what needs the facility fails on its
    own, and a private channel's operations do not."""
    try:
        uses = registry.conn_tags(normal_tag(tag)).uses
    except MQMIError as error:
        if error.reason not in _FACILITY:
            raise
        return None
    for use in uses:
        life = (use.q_mgr, use.life)
        if life in running:
            continue
        if life in delayed:
            return MQMIError.failed(
                CMQC.MQRC_CONN_TAG_NOT_USABLE,
                f"shared queue peer recovery of {use.q_mgr} waits for the coupling facility",
            )
        return MQMIError.failed(
            CMQC.MQRC_CONN_TAG_IN_USE,
            f"shared queue peer recovery of {use.q_mgr} is in progress",
        )
    return None


def refusal(
    request: TagUse, uses: Iterable[TagUse], delayed: Collection[tuple[str, int]]
) -> MQMIError | None:
    """Why ``request`` may not use its tag beside ``uses`` (None: it may).

    A use counts if it is on the requester's queue manager, or anywhere in the group for
    a group-wide request. It excludes the request unless both are RESTRICT, from one
    processing scope, on one queue manager in one life. A use by a life of a member in
    ``delayed`` (its recovery waits for the coupling facility) makes the tag not usable
    (2350); any other, in use (2271)."""
    in_use: TagUse | None = None
    for use in uses:
        if not request.group_wide and use.q_mgr != request.q_mgr:
            continue  # "not affected by use of the connection tag elsewhere in the QSG"
        if (use.q_mgr, use.life) in delayed:
            return MQMIError.failed(
                CMQC.MQRC_CONN_TAG_NOT_USABLE,
                f"connection tag {request.tag!r} is held by the recovery of {use.q_mgr}, "
                "which waits for the coupling facility",
            )
        sharing = (
            request.shared
            and use.shared
            and use.space == request.space
            and (use.q_mgr, use.life) == (request.q_mgr, request.life)
        )
        if not sharing and in_use is None:
            in_use = use
    if in_use is None:
        return None
    return MQMIError.failed(
        CMQC.MQRC_CONN_TAG_IN_USE,
        f"connection tag {request.tag!r} is in use on {in_use.q_mgr} "
        f"({_NAMES[in_use.option]}), or a unit of work of it is unresolved",
    )


class Registry(Protocol):
    """What serializing asks of a store (``MessageStore``'s connection-tag part)."""

    def conn_tags(self, tag: bytes) -> TagUses: ...
    def claim_conn_tag(self, use: TagUse, version: int) -> bool: ...


def claim(registry: Registry, request: TagUse, delayed: Collection[tuple[str, int]]) -> None:
    """Add ``request`` to ``registry`` if ``refusal`` allows it beside the uses there, or
    raise the refusal. A facility that cannot be reached makes the tag not usable
    (2350): the group's uses of it cannot be known."""
    try:
        for _ in range(_CLAIM_TRIES):
            seen = registry.conn_tags(request.tag)
            refused = refusal(request, seen.uses, delayed)
            if refused is not None:
                raise refused
            if registry.claim_conn_tag(request, seen.version):
                return
    except MQMIError as error:
        if error.reason not in _FACILITY:
            raise
        raise MQMIError.failed(
            CMQC.MQRC_CONN_TAG_NOT_USABLE,
            f"connection tag {request.tag!r} cannot be serialized: {error}",
        ) from None
    raise MQMIError.failed(
        CMQC.MQRC_CONN_TAG_IN_USE,
        f"connection tag {request.tag!r} changed {_CLAIM_TRIES} times while it was claimed",
    )


__all__ = [
    "NOT_YET",
    "TAG_OPTIONS",
    "ConnectOptions",
    "NotSerializedError",
    "TagUse",
    "TagUses",
    "agent_options",
    "claim",
    "normal_tag",
    "not_yet",
    "recovering",
    "refusal",
    "requested",
]
