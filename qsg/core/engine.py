"""The queue engine: MQPUT and MQGET rules over the store primitives.

Every MQ rule of putting and getting lives here, once, for local and shared queues
alike; a store only keeps order, visibility and depth. Synchronous and I/O-free: the
caller passes ``now`` (the simulator's time, in seconds).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from qsg import CMQC
from qsg.core import expiry, groups, igq, platforms, xmitq
from qsg.core.errors import MQMIError
from qsg.core.groups import GroupPosition, HandleState
from qsg.core.message import Message
from qsg.core.outcome import Done
from qsg.core.outcome import done as decided
from qsg.core.queue import QueueDefinition
from qsg.core.store import MATCH_ANY, SELECT_ANY, Match, MessageStore, Select, Syncpoint, Taken
from qsg.core.structs import GMO, MD, MD_KINDS, PMO

if TYPE_CHECKING:
    from qsg.core.objects import CFStructure
    from qsg.core.uow import UnitOfWork

# Identifiers are compared byte for byte, so a short one is NUL-padded to its length.
_IDENTIFIERS = tuple(
    (name, kind[1])
    for name, kind in MD_KINDS.items()
    if not isinstance(kind, str) and kind[0] == "b"
)
assert dict(_IDENTIFIERS) == {"MsgId": 24, "CorrelId": 24, "AccountingToken": 32, "GroupId": 24}
_CONTEXT = (
    "UserIdentifier",
    "AccountingToken",
    "ApplIdentityData",
    "PutApplType",
    "PutApplName",
    "PutDate",
    "PutTime",
    "ApplOriginData",
)
_NO_CONTEXT = {name: MD._defaults[name] for name in _CONTEXT}
_MAX_PRIORITY = 9
# A version-1 MQMD has no group fields: what MQPUT stores for them.
_NOT_IN_GROUP = {
    "GroupId": CMQC.MQGI_NONE,
    "MsgSeqNumber": 1,
    "Offset": 0,
    "MsgFlags": CMQC.MQMF_NONE,
}
_NONE = CMQC.MQMI_NONE  # == MQCI_NONE == MQGI_NONE
_VALID_MSG_TYPES = frozenset(
    (CMQC.MQMT_REQUEST, CMQC.MQMT_REPLY, CMQC.MQMT_REPORT, CMQC.MQMT_DATAGRAM)
)
# Report options that ask for a message back, so need somewhere to send it.
_NEEDS_REPLY_TO = (
    CMQC.MQRO_EXPIRATION
    | CMQC.MQRO_EXCEPTION
    | CMQC.MQRO_COA
    | CMQC.MQRO_COD
    | CMQC.MQRO_PAN
    | CMQC.MQRO_NAN
)
_ALL_MATCH_OPTIONS = (
    CMQC.MQMO_MATCH_MSG_ID
    | CMQC.MQMO_MATCH_CORREL_ID
    | CMQC.MQMO_MATCH_GROUP_ID
    | CMQC.MQMO_MATCH_MSG_SEQ_NUMBER
    | CMQC.MQMO_MATCH_OFFSET
    | CMQC.MQMO_MATCH_MSG_TOKEN
)
_BROWSE_OPTIONS = (
    CMQC.MQGMO_BROWSE_FIRST
    | CMQC.MQGMO_BROWSE_NEXT
    | CMQC.MQGMO_BROWSE_MSG_UNDER_CURSOR
    | CMQC.MQGMO_MSG_UNDER_CURSOR
)
_SEGMENT_OPTIONS = CMQC.MQGMO_COMPLETE_MSG | CMQC.MQGMO_ALL_SEGMENTS_AVAILABLE
# Options with which a destructive get selects more than the first message it may see.
_SELECTING_GET_OPTIONS = (
    CMQC.MQGMO_MSG_UNDER_CURSOR
    | CMQC.MQGMO_LOGICAL_ORDER
    | CMQC.MQGMO_ALL_MSGS_AVAILABLE
    | _SEGMENT_OPTIONS
)
# Options z/OS allows on a shared queue only with INDXTYPE(GROUPID).
_NEEDS_GROUP_INDEX = (
    CMQC.MQGMO_LOGICAL_ORDER
    | CMQC.MQGMO_ALL_MSGS_AVAILABLE
    | CMQC.MQGMO_ALL_SEGMENTS_AVAILABLE
    | CMQC.MQGMO_COMPLETE_MSG
)


class PutDefaults(Protocol):
    """What a put takes from the first definition on its resolution path."""

    @property
    def name(self) -> str: ...
    @property
    def def_priority(self) -> int: ...
    @property
    def def_persistence(self) -> int: ...
    @property
    def inhibit_put(self) -> int: ...


@dataclass(frozen=True, slots=True)
class PutIdentity:
    """Who is putting: the identity part of the default context MQ fills in."""

    user: bytes
    appl_name: bytes
    appl_type: int


@dataclass(frozen=True, slots=True)
class QMgrRules:
    """The queue-manager attributes the engine consults on every call."""

    name: str
    platform: int  # MQPL_ZOS: syncpoint is the default for put and get
    max_uncommitted_msgs: int  # MAXUMSGS
    max_msg_length: int  # the queue manager's MAXMSGL
    enforce_max_expiry: bool  # AMQ_ENFORCE_MAX_EXPIRY_ERROR
    new_msg_id: Callable[[], bytes]
    stamp: Callable[[float], tuple[bytes, bytes]]  # simulated time -> PutDate, PutTime


# ---- MQPUT ---------------------------------------------------------------------------
def put(
    rules: QMgrRules,
    store: MessageStore,
    qdef: QueueDefinition,
    body: bytes,
    md: MD,
    pmo: PMO,
    uow: UnitOfWork | None,
    identity: PutIdentity,
    now: float,
    state: HandleState | None = None,
    *,
    via: PutDefaults | None = None,
    remote: tuple[str, str] | None = None,
    stored: Callable[[Message, bool], None] | None = None,
    structures: Mapping[str, CFStructure] | None = None,
) -> Done:
    """MQPUT to a local queue: validate, store, and write the output fields back; what
    it decided comes back as ``Done``.

    ``uow`` is the connection's unit of work, used when the put is in syncpoint.
    ``via`` is the first definition on the resolution path when it is not ``qdef`` (an
    alias or a remote queue): its DEFPRTY and DEFPSIST apply, and its PUT(DISABLED).
    ``remote`` is (RNAME, RQMNAME) when ``qdef`` is the transmission queue towards a
    remote queue: the message is stored wrapped in an MQXQH ("Expiry (MQLONG)" note 9).
    ``stored`` is told of the message once it is on the queue, and whether the put is
    in syncpoint (the queue manager's trigger check). ``structures`` are the CF
    structures a shared ``qdef`` may be on: a persistent message needs one of
    RECOVER(YES). Completes with
    MQMIError(MQCC_WARNING, ...) after storing the message, as pymqi raises for
    warnings: MQRC_INCONSISTENT_UOW or MQRC_INCONSISTENT_PERSISTENCE for a message of a
    group put without LOGICAL_ORDER right after a put with it, disagreeing with the
    group (the reason code pages of 2245 and 2185), else MQRC_PRIORITY_EXCEEDS_MAXIMUM
    for a Priority above 9.
    """
    options = pmo.Options
    if options & CMQC.MQPMO_SYNCPOINT and options & CMQC.MQPMO_NO_SYNCPOINT:
        raise MQMIError.failed(
            CMQC.MQRC_OPTIONS_ERROR, "MQPMO_SYNCPOINT and MQPMO_NO_SYNCPOINT together"
        )
    logical = bool(options & CMQC.MQPMO_LOGICAL_ORDER)
    if logical and state is None:
        raise MQMIError.failed(
            CMQC.MQRC_OPTIONS_ERROR, "MQPMO_LOGICAL_ORDER needs an open handle (not MQPUT1)"
        )
    check_descriptor(md, rules.enforce_max_expiry)
    defaults = qdef if via is None else via
    priority = md.Priority
    if priority == CMQC.MQPRI_PRIORITY_AS_Q_DEF:
        priority = defaults.def_priority
    persistence = md.Persistence
    if persistence == CMQC.MQPER_PERSISTENCE_AS_Q_DEF:
        persistence = defaults.def_persistence
    if via is not None and via.inhibit_put == CMQC.MQQA_PUT_INHIBITED:
        raise MQMIError.failed(CMQC.MQRC_PUT_INHIBITED, f"puts are inhibited on {via.name}")
    if qdef.inhibit_put == CMQC.MQQA_PUT_INHIBITED:
        raise MQMIError.failed(CMQC.MQRC_PUT_INHIBITED, f"puts are inhibited on {qdef.name}")
    if persistence == CMQC.MQPER_PERSISTENT:
        _check_persistent_allowed(qdef, structures)
    length = len(body) + (CMQC.MQXQH_LENGTH_1 if remote is not None else 0)
    if length > qdef.max_msg_length:
        raise MQMIError.failed(
            CMQC.MQRC_MSG_TOO_BIG_FOR_Q,
            f"{length} bytes is over MAXMSGL {qdef.max_msg_length} of {qdef.name}",
        )
    if len(body) > rules.max_msg_length:
        raise MQMIError.failed(
            CMQC.MQRC_MSG_TOO_BIG_FOR_Q_MGR,
            f"{len(body)} bytes is over the queue manager's MAXMSGL {rules.max_msg_length}",
        )
    if qdef.is_transmission_queue and remote is None:
        xmitq.check_direct_put(md, body, enforce_max=rules.enforce_max_expiry)
    in_uow = put_in_syncpoint(options, rules.platform)
    if in_uow:
        if uow is None:
            raise MQMIError.failed(CMQC.MQRC_SYNCPOINT_NOT_AVAILABLE, "no unit of work here")
        _count_in_uow(uow, rules)

    desc: dict[str, Any] = md.__dict__.copy()
    if (  # _IDENTIFIERS, spelled out: the common put has every identifier at full length
        len(desc["MsgId"]) != 24
        or len(desc["CorrelId"]) != 24
        or len(desc["GroupId"]) != 24
        or len(desc["AccountingToken"]) != 32
    ):
        for name, length in _IDENTIFIERS:
            desc[name] = desc[name].ljust(length, b"\x00")
    if options & CMQC.MQPMO_NEW_MSG_ID or desc["MsgId"] == CMQC.MQMI_NONE:
        desc["MsgId"] = rules.new_msg_id()
    if options & CMQC.MQPMO_NEW_CORREL_ID:
        desc["CorrelId"] = rules.new_msg_id()
    desc["Persistence"] = persistence
    desc["Priority"] = priority
    desc["BackoutCount"] = 0
    persistent = persistence == CMQC.MQPER_PERSISTENT
    _set_group_fields(desc, md.Version, logical, state, in_uow, persistent, rules)
    warning = (  # _inconsistent_put's first test, inlined: the common put calls nothing
        None
        if logical or state is None or not state.put_logical
        else _inconsistent_put(desc, state, in_uow, persistent)
    )
    _set_context(desc, options, identity, rules.stamp(now))
    if (
        desc["ReplyToQ"]
        and desc["ReplyToQ"].strip(b" \x00")
        and not desc["ReplyToQMgr"].strip(b" \x00")
    ):
        desc["ReplyToQMgr"] = rules.name.encode()
    # What is stored: on a transmission queue, the outer descriptor of the wrapped
    # message (IGQ's addresses the destination member's agent). The application's own
    # descriptor, ``desc``, gives MQPUT's output fields below, as on any other put.
    stored_desc = desc
    if remote is not None:
        stored_desc, body = xmitq.wrap_descriptor(desc, body, *remote)
        if qdef.name == igq.IGQ_XMITQ:  # for the destination member's agent
            igq.address(stored_desc, remote[1], rules.name)
    message = Message(  # desc, body, put_time, expires_at, priority
        stored_desc,
        bytes(body),
        now,
        expiry.expires_at(now, md.Expiry),
        priority if priority < _MAX_PRIORITY else _MAX_PRIORITY,
    )
    store.put(qdef.name, message, uow.id if in_uow and uow else None, qdef.max_depth, rules.name)
    if in_uow and uow is not None:
        uow.add(store, now, persistent)
    if state is not None:
        grouped = desc["MsgFlags"] & groups.GROUPING
        state.put_group = groups.after(desc, len(body), in_uow) if grouped else None
        state.put_logical = logical

    # MQPUT's output fields: the identifiers, the group fields and the context.
    fields = md.__dict__
    fields["MsgId"] = desc["MsgId"]
    fields["CorrelId"] = desc["CorrelId"]
    if md.Version >= CMQC.MQMD_VERSION_2:
        fields["GroupId"] = desc["GroupId"]
        fields["MsgSeqNumber"] = desc["MsgSeqNumber"]
        fields["Offset"] = desc["Offset"]
    for name in _CONTEXT:
        fields[name] = desc[name]
    fields["ReplyToQMgr"] = desc["ReplyToQMgr"]
    resolved = (qdef.name, rules.name) if remote is None else remote
    out = pmo.__dict__
    out["ResolvedQName"] = _ENCODED.get(resolved[0]) or _encoded(resolved[0])
    out["ResolvedQMgrName"] = _ENCODED.get(resolved[1]) or _encoded(resolved[1])
    if stored is not None:
        stored(message, in_uow)
    done = decided(in_uow, persistent)
    if warning is None and priority > _MAX_PRIORITY:
        warning = MQMIError(
            CMQC.MQCC_WARNING,
            CMQC.MQRC_PRIORITY_EXCEEDS_MAXIMUM,
            f"Priority {priority} was put at the maximum, {_MAX_PRIORITY}",
        )
    if warning is not None:
        warning.done = done
        raise warning
    return done


def _inconsistent_put(
    desc: dict[str, Any], state: HandleState | None, in_uow: bool, persistent: bool
) -> MQMIError | None:
    """The warning for a put without LOGICAL_ORDER right after one with it, of a message
    of a group or logical message, that disagrees with the handle's group position
    about the unit of work (2245) or persistence (2185); None when there is none."""
    if state is None or not state.put_logical or not desc["MsgFlags"] & groups.GROUPING:
        return None
    position = state.put_group
    if position is None:
        return None
    if position.syncpoint != in_uow:
        return MQMIError(
            CMQC.MQCC_WARNING,
            CMQC.MQRC_INCONSISTENT_UOW,
            "put in and outside the unit of work within one group or logical message",
        )
    if position.persistent != persistent:
        return MQMIError(
            CMQC.MQCC_WARNING,
            CMQC.MQRC_INCONSISTENT_PERSISTENCE,
            "persistent and nonpersistent messages within one group or logical message",
        )
    return None


def check_descriptor(md: MD, enforce_max_expiry: bool) -> None:
    """The MQMD checks of MQPUT and MQPUT1 that do not depend on the queue."""
    lifetime = md.Expiry
    if (lifetime <= 0 and lifetime != CMQC.MQEI_UNLIMITED) or (
        enforce_max_expiry and lifetime > expiry.MAX_EXPIRY
    ):  # what check_expiry refuses (the common put has nothing to refuse: no call)
        expiry.check_expiry(lifetime, enforce_max=enforce_max_expiry)
    if md.Priority < CMQC.MQPRI_PRIORITY_AS_Q_DEF:
        raise MQMIError.failed(CMQC.MQRC_PRIORITY_ERROR, f"MQMD.Priority={md.Priority}")
    if md.Persistence not in (
        CMQC.MQPER_NOT_PERSISTENT,
        CMQC.MQPER_PERSISTENT,
        CMQC.MQPER_PERSISTENCE_AS_Q_DEF,
    ):
        raise MQMIError.failed(CMQC.MQRC_PERSISTENCE_ERROR, f"MQMD.Persistence={md.Persistence}")
    if md.MsgType not in _VALID_MSG_TYPES and not (
        CMQC.MQMT_APPL_FIRST <= md.MsgType <= 999_999_999
    ):
        raise MQMIError.failed(CMQC.MQRC_MSG_TYPE_ERROR, f"MQMD.MsgType={md.MsgType}")
    if not md.ReplyToQ.strip(b" \x00") and (
        md.MsgType == CMQC.MQMT_REQUEST or md.Report & _NEEDS_REPLY_TO
    ):
        raise MQMIError.failed(
            CMQC.MQRC_MISSING_REPLY_TO_Q,
            "a request, or a message asking for reports, needs MQMD.ReplyToQ",
        )


def _set_group_fields(
    desc: dict[str, Any],
    version: int,
    logical: bool,
    state: HandleState | None,
    in_uow: bool,
    persistent: bool,
    rules: QMgrRules,
) -> None:
    """GroupId, MsgSeqNumber and Offset as MQPUT stores them.

    A version-1 MQMD has no group fields: the message is not in a group. With
    MQPMO_LOGICAL_ORDER the queue manager assigns all three from the handle's position
    (a new GroupId for a new group); without it the application's values stand and a
    null GroupId is generated for the first item of a group.
    """
    if version < CMQC.MQMD_VERSION_2:
        desc.update(_NOT_IN_GROUP)
        return
    flags = desc["MsgFlags"]
    if flags & CMQC.MQMF_REJECT_UNSUP_MASK & ~groups.KNOWN_FLAGS:
        raise MQMIError.failed(CMQC.MQRC_MSG_FLAGS_ERROR, f"MQMD.MsgFlags={flags:#x}")
    if desc["MsgSeqNumber"] < 1:
        raise MQMIError.failed(
            CMQC.MQRC_MSG_SEQ_NUMBER_ERROR, f"MQMD.MsgSeqNumber={desc['MsgSeqNumber']}"
        )
    if desc["Offset"] < 0:
        raise MQMIError.failed(CMQC.MQRC_OFFSET_ERROR, f"MQMD.Offset={desc['Offset']}")
    if not logical:
        if flags & groups.GROUPING and desc["GroupId"] == CMQC.MQGI_NONE:
            desc["GroupId"] = rules.new_msg_id()
        return
    assert state is not None
    position = state.put_group
    if position is None:
        grouped = bool(flags & groups.GROUPING)
        desc["GroupId"] = rules.new_msg_id() if grouped else CMQC.MQGI_NONE
        desc["MsgSeqNumber"], desc["Offset"] = 1, 0
        return
    if position.in_group and not flags & groups.IN_GROUP:
        raise MQMIError.failed(
            CMQC.MQRC_INCOMPLETE_GROUP, "the handle's group is not complete: put its next message"
        )
    if position.in_logical_message and not flags & groups.SEGMENTED:
        raise MQMIError.failed(
            CMQC.MQRC_INCOMPLETE_MSG, "the logical message is not complete: put its next segment"
        )
    # MQRC_INCONSISTENT_UOW (2245) and MQRC_INCONSISTENT_PERSISTENCE (2185): with
    # LOGICAL_ORDER "the call fails" when the syncpoint choice, given or defaulted, or
    # the persistence, given or defaulted, disagrees with the group's.
    if position.syncpoint != in_uow:
        raise MQMIError.failed(
            CMQC.MQRC_INCONSISTENT_UOW,
            "a group put in logical order must be all in syncpoint or all outside",
        )
    if position.persistent != persistent:
        raise MQMIError.failed(
            CMQC.MQRC_INCONSISTENT_PERSISTENCE,
            "a group put in logical order must be all persistent or all nonpersistent",
        )
    desc["GroupId"] = position.group_id
    desc["MsgSeqNumber"], desc["Offset"] = position.msg_seq_number, position.offset


def _check_persistent_allowed(
    qdef: QueueDefinition, structures: Mapping[str, CFStructure] | None
) -> None:
    """MQRC_PERSISTENT_NOT_ALLOWED (2048) for a persistent message on a temporary dynamic
    queue, or on a shared queue whose CF structure is RECOVER(NO): "On z/OS, you cannot
    put persistent messages to a shared queue if the CFSTRUCT that the queue uses is
    defined with RECOVER(NO)" (the reason code's page)."""
    if qdef.is_temporary_dynamic:
        raise MQMIError.failed(
            CMQC.MQRC_PERSISTENT_NOT_ALLOWED,
            f"{qdef.name} is a temporary dynamic queue: it holds nonpersistent messages only",
        )
    if qdef.is_shared and structures is not None:
        structure = structures.get(qdef.cf_struct)
        if structure is not None and not structure.recover:
            raise MQMIError.failed(
                CMQC.MQRC_PERSISTENT_NOT_ALLOWED,
                f"{qdef.name} is a shared queue on CF structure {qdef.cf_struct}, which is "
                "RECOVER(NO): it holds nonpersistent messages only",
            )


def put_in_syncpoint(options: int, platform: int) -> bool:
    if options & CMQC.MQPMO_SYNCPOINT:
        return True
    if options & CMQC.MQPMO_NO_SYNCPOINT:
        return False
    return platforms.syncpoint_by_default(platform)


def _set_context(
    desc: dict[str, Any], options: int, identity: PutIdentity, stamp: tuple[bytes, bytes]
) -> None:
    if options & (CMQC.MQPMO_SET_ALL_CONTEXT | CMQC.MQPMO_PASS_ALL_CONTEXT):
        return  # the application's own context fields stand
    if options & CMQC.MQPMO_NO_CONTEXT:
        desc.update(_NO_CONTEXT)
        return
    if not options & (CMQC.MQPMO_SET_IDENTITY_CONTEXT | CMQC.MQPMO_PASS_IDENTITY_CONTEXT):
        desc["UserIdentifier"] = identity.user
        desc["AccountingToken"] = CMQC.MQACT_NONE
        desc["ApplIdentityData"] = b""
    desc["PutApplType"] = identity.appl_type
    desc["PutApplName"] = identity.appl_name
    desc["PutDate"], desc["PutTime"] = stamp
    desc["ApplOriginData"] = b""


def _count_in_uow(uow: UnitOfWork, rules: QMgrRules) -> None:
    if uow.count >= rules.max_uncommitted_msgs:
        raise MQMIError.failed(
            CMQC.MQRC_SYNCPOINT_LIMIT_REACHED,
            f"the unit of work already holds MAXUMSGS={rules.max_uncommitted_msgs} messages",
        )


# ---- MQGET ---------------------------------------------------------------------------
def get(
    rules: QMgrRules,
    store: MessageStore,
    qdef: QueueDefinition,
    md: MD,
    gmo: GMO,
    max_length: int | None,
    uow: UnitOfWork | None,
    state: HandleState,
    handle: object,
    now: float,
) -> tuple[Taken, MQMIError | None, Done | None]:
    """MQGET (or browse) from a local queue, without the output fields.

    ``state`` is the handle's remembered position (browse cursor, groups); ``handle``
    identifies it for locks. Returns the store's answer (the message or None, the
    expired messages discarded on the way, the key it was at), the error to raise once
    those discards are accounted for (discards happen whatever the outcome, outside any
    unit of work, so they must never be lost to an exception), and, when a message came
    back, what was decided for it (``Done``). The error is MQCC_FAILED, or a warning to
    raise with the message (MQRC_INCONSISTENT_UOW). ``finish_get`` then sets the output
    fields and raises what MQ raises.
    """
    options = gmo.Options
    # Only unusual options need the full check; the common get skips it, and a waiting
    # get checks only its WaitInterval.
    browse = False
    if options & _CHECKED_GET_OPTIONS:
        browse = _check_get_options(gmo)
    elif options & CMQC.MQGMO_WAIT:
        _check_wait_interval(gmo)
    if qdef.inhibit_get == CMQC.MQQA_GET_INHIBITED:
        raise MQMIError.failed(CMQC.MQRC_GET_INHIBITED, f"gets are inhibited on {qdef.name}")
    if options & _NEEDS_GROUP_INDEX and (
        qdef.qsg_disp == CMQC.MQQSGD_SHARED
        and qdef.index_type != CMQC.MQIT_GROUP_ID
        and platforms.checks_index_type(rules.platform)
    ):
        raise MQMIError.failed(
            CMQC.MQRC_Q_INDEX_TYPE_ERROR,
            f"{qdef.name} needs INDXTYPE(GROUPID) for logical order and group options",
        )
    if options & CMQC.MQGMO_UNLOCK and not browse:
        store.unlock(qdef.name, handle)
        state.locked = None
        return Taken(None, ()), None, None
    if browse:
        taken, error = _browse(store, qdef, md, gmo, state, handle, now)
        seen = taken.message
        return taken, error, None if seen is None else decided(False, seen.persistent)
    if (
        not options & _SELECTING_GET_OPTIONS
        and state.locked is None
        and match_of(md, gmo) is MATCH_ANY
    ):
        select = SELECT_ANY  # what _select_for_get decides for the common get
    else:
        select = _select_for_get(md, gmo, state, handle)
    syncpoint = get_syncpoint(options, rules.platform)
    logical = bool(options & CMQC.MQGMO_LOGICAL_ORDER)
    position = state.get_group
    if (
        logical
        and position is not None
        and _in_uow(syncpoint, position.persistent) != (position.syncpoint)
    ):
        # MQRC_INCONSISTENT_UOW (2245): "If the current call specifies
        # MQGMO_LOGICAL_ORDER, the call fails" (nothing is got).
        raise MQMIError.failed(
            CMQC.MQRC_INCONSISTENT_UOW,
            "a group got in logical order must be all in syncpoint or all outside",
        )
    if syncpoint is not Syncpoint.NO:
        if uow is None:
            raise MQMIError.failed(CMQC.MQRC_SYNCPOINT_NOT_AVAILABLE, "no unit of work here")
        _count_in_uow(uow, rules)
    taken = store.get(
        qdef.name,
        select,
        now,
        uow.id if uow is not None else None,
        syncpoint,
        max_length,
        bool(options & CMQC.MQGMO_ACCEPT_TRUNCATED_MSG),
        rules.name,
    )
    msg = taken.message
    if msg is None:
        return taken, _explain_missing(store, qdef, select, gmo, handle, now), None
    if taken.too_long:
        return taken, None, None
    persistent = msg.persistent
    in_uow = _in_uow(syncpoint, persistent)
    if uow is not None and in_uow:
        uow.add(store, now, persistent)
    if select.key is not None:
        state.locked = None
    grouped = msg.desc["MsgFlags"] & groups.GROUPING
    warning = None
    if (
        not logical
        and state.get_logical
        and grouped
        and position is not None
        and (position.syncpoint != in_uow)
    ):
        # 2245: "If the current call does not specify MQGMO_LOGICAL_ORDER, but the
        # previous MQGET call for the queue handle did, the call succeeds with
        # completion code MQCC_WARNING."
        warning = MQMIError(
            CMQC.MQCC_WARNING,
            CMQC.MQRC_INCONSISTENT_UOW,
            "got in and outside the unit of work within one group or logical message",
        )
    state.get_group = groups.after(msg.desc, len(msg.body), in_uow) if grouped else None
    state.get_logical = logical
    return taken, warning, decided(in_uow, persistent)


def _in_uow(syncpoint: Syncpoint, persistent: bool) -> bool:
    """Whether a get with this syncpoint choice takes a message (persistent or not) in
    the unit of work."""
    return syncpoint is Syncpoint.YES or (syncpoint is Syncpoint.IF_PERSISTENT and persistent)


def _select_for_get(md: MD, gmo: GMO, state: HandleState, handle: object) -> Select:
    """Which message a destructive MQGET may take."""
    options = gmo.Options
    if options & CMQC.MQGMO_MSG_UNDER_CURSOR:
        if state.browse_position is None:
            raise MQMIError.failed(CMQC.MQRC_NO_MSG_UNDER_CURSOR, "no browse cursor yet")
        return Select(key=state.browse_position, handle=handle)
    match = match_of(md, gmo)
    whole = bool(options & CMQC.MQGMO_ALL_MSGS_AVAILABLE)
    if options & CMQC.MQGMO_LOGICAL_ORDER:
        select = _logical_select(match, state.get_group, whole, handle)
    elif (
        match is MATCH_ANY
        and not options & _SEGMENT_OPTIONS
        and not whole
        and (state.locked is None)
    ):
        return SELECT_ANY  # others' locks hide messages from this handle as from anyone
    else:
        select = Select(match, whole_group=whole, handle=handle)
    if options & _SEGMENT_OPTIONS:
        # Like ALL_MSGS_AVAILABLE for groups, ALL_SEGMENTS_AVAILABLE decides whether to
        # start a logical message, not whether to go on with one already begun.
        inside = state.get_group is not None and state.get_group.in_logical_message
        select = dataclasses.replace(
            select,
            whole_message=bool(options & CMQC.MQGMO_ALL_SEGMENTS_AVAILABLE) and not inside,
            complete=bool(options & CMQC.MQGMO_COMPLETE_MSG),
        )
    return select


def _logical_select(
    match: Match, position: GroupPosition | None, whole: bool, handle: object
) -> Select:
    """In logical order: inside a group only its next item; outside, only first items.

    ALL_MSGS_AVAILABLE counts only for the first message of a group (IBM: "the
    option is ignored for subsequent messages within the group").
    """
    if position is None:
        return Select(match, first_items=True, whole_group=whole, handle=handle)
    nxt = Match(
        match.msg_id,
        match.correl_id,
        position.group_id,
        position.msg_seq_number,
        position.offset,
    )
    return Select(nxt, handle=handle)


def _explain_missing(
    store: MessageStore,
    qdef: QueueDefinition,
    select: Select,
    gmo: GMO,
    handle: object,
    now: float,
) -> MQMIError | None:
    """The reason MQ gives when a cursor or a group's next item is not there.

    MQRC_NO_MSG_UNDER_CURSOR for a message under the cursor that is gone (or expired,
    "Expiry (MQLONG)" note 6); MQRC_MATCH_OPTIONS_ERROR when in a group the next item is
    there but the MsgId/CorrelId asked for differ. Otherwise the caller's
    MQRC_NO_MSG_AVAILABLE stands (None).
    """
    if select.key is not None:
        return MQMIError.failed(
            CMQC.MQRC_NO_MSG_UNDER_CURSOR, "the message under the cursor is no longer there"
        )
    match = select.match
    if (
        gmo.Options & CMQC.MQGMO_LOGICAL_ORDER
        and match.group_id is not None
        and (match.msg_id is not None or match.correl_id is not None)
    ):
        peek = Match(None, None, match.group_id, match.msg_seq_number, match.offset)
        if store.browse(qdef.name, None, Select(peek, handle=handle), now).message is not None:
            return MQMIError.failed(
                CMQC.MQRC_MATCH_OPTIONS_ERROR,
                "in a group, MsgId/CorrelId must match the group's next message",
            )
    return None


def _browse(
    store: MessageStore,
    qdef: QueueDefinition,
    md: MD,
    gmo: GMO,
    state: HandleState,
    handle: object,
    now: float,
) -> tuple[Taken, MQMIError | None]:
    """BROWSE_FIRST, BROWSE_NEXT and BROWSE_MSG_UNDER_CURSOR, with their own group state.

    The seed: BROWSE_NEXT must agree with its BROWSE_FIRST about LOGICAL_ORDER
    (MQRC_INCONSISTENT_BROWSE); BROWSE_FIRST forgets the browse group state; in logical
    order a cursor never enters a group whose first item is absent, but once inside a
    group goes on even if the first item is removed.
    """
    options = gmo.Options
    logical = bool(options & CMQC.MQGMO_LOGICAL_ORDER)
    if options & CMQC.MQGMO_BROWSE_MSG_UNDER_CURSOR:
        if state.browse_position is None:
            raise MQMIError.failed(CMQC.MQRC_NO_MSG_UNDER_CURSOR, "no browse cursor yet")
        select = Select(key=state.browse_position, handle=handle)
        taken = store.browse(qdef.name, None, select, now)
        if taken.message is None:
            return taken, _explain_missing(store, qdef, select, gmo, handle, now)
        if options & CMQC.MQGMO_LOCK:
            store.lock(qdef.name, state.browse_position, handle)
            state.locked = state.browse_position
        return taken, None
    first = bool(options & CMQC.MQGMO_BROWSE_FIRST) or state.browse_logical is None
    if first:
        state.browse_logical = logical
        state.browse_group = None
        state.browse_anchor = None
        after = None
    else:
        if logical != state.browse_logical:
            raise MQMIError.failed(
                CMQC.MQRC_INCONSISTENT_BROWSE,
                "BROWSE_NEXT must use LOGICAL_ORDER exactly when its BROWSE_FIRST did",
            )
        after = state.browse_anchor if logical else state.browse_position
    match = match_of(md, gmo)
    whole = bool(options & CMQC.MQGMO_ALL_MSGS_AVAILABLE)
    if logical:
        select = _logical_select(match, state.browse_group, whole, handle)
        if select.match.group_id is not None and state.browse_group is not None:
            after = None  # the group's next item, wherever it stands
    else:
        select = Select(match, whole_group=whole, handle=handle)
    if options & _SEGMENT_OPTIONS:
        select = dataclasses.replace(
            select, whole_message=True, complete=bool(options & CMQC.MQGMO_COMPLETE_MSG)
        )
    taken = store.browse(qdef.name, after, select, now)
    msg = taken.message
    if msg is None or taken.position is None:
        return taken, None
    state.browse_position = taken.position
    state.browse_group = groups.after(msg.desc, len(msg.body))
    if logical and groups.is_first_item(msg.desc):
        state.browse_anchor = taken.position
    if options & CMQC.MQGMO_LOCK:
        store.lock(qdef.name, taken.position, handle)
        state.locked = taken.position
    return taken, None


def finish_get(
    taken: Taken, md: MD, gmo: GMO, max_length: int | None, qdef: QueueDefinition, now: float
) -> bytes:
    """Set MQGET's output fields from what the store returned, and raise what MQ raises.

    The MQMD is the stored one with ``Expiry`` the remaining lifetime (always > 0 or
    MQEI_UNLIMITED for a returned message) and both Expiry fields of an MQXQH
    decremented.
    """
    msg = taken.message
    if msg is None:
        raise MQMIError.failed(CMQC.MQRC_NO_MSG_AVAILABLE, f"no matching message on {qdef.name}")
    fields = md.__dict__
    msg.to_md(md)
    if msg.expires_at is not None:
        left = expiry.remaining(msg.expires_at, now)
        # The store judged the message unexpired; a boundary rounding must not return 0.
        fields["Expiry"] = left if left != 0 else 1
    body = msg.body
    if fields["Format"] == CMQC.MQFMT_XMIT_Q_HEADER:
        body = xmitq.decrement_inner(body, fields["Encoding"], msg.put_time, now)
    flags = fields["MsgFlags"]
    out = gmo.__dict__
    if flags & groups.GROUPING:
        out["GroupStatus"] = groups.group_status(flags)
        out["SegmentStatus"] = groups.segment_status(flags)
    else:
        out["GroupStatus"] = CMQC.MQGS_NOT_IN_GROUP
        out["SegmentStatus"] = CMQC.MQSS_NOT_A_SEGMENT
    out["ResolvedQName"] = _ENCODED.get(qdef.name) or _encoded(qdef.name)
    out["ReturnedLength"] = len(body) if max_length is None else min(len(body), max_length)
    if taken.too_long:
        error = MQMIError(
            CMQC.MQCC_FAILED,
            CMQC.MQRC_TRUNCATED_MSG_FAILED,
            f"the message is {len(body)} bytes, the buffer {max_length}",
        )
        error.original_length = len(body)
        raise error
    if max_length is not None and len(body) > max_length:
        warning = MQMIError(
            CMQC.MQCC_WARNING,
            CMQC.MQRC_TRUNCATED_MSG_ACCEPTED,
            f"{len(body)} bytes truncated to {max_length}",
        )
        warning.message = body[:max_length]
        warning.original_length = len(body)
        raise warning
    return body


def match_of(md: MD, gmo: GMO) -> Match:
    """What an MQGET selects on, from MatchOptions and the MQMD's input fields.

    A version-1 MQGMO has no MatchOptions: MsgId and CorrelId are matched when not
    null, which is what MQMO_MATCH_MSG_ID + MQMO_MATCH_CORREL_ID (pymqi's default)
    does. A null MsgId or CorrelId matches any.
    """
    if gmo.Version == CMQC.MQGMO_VERSION_1 and md.MsgId == _NONE and md.CorrelId == _NONE:
        return MATCH_ANY  # the common case, pymqi's defaults
    if gmo.Version >= CMQC.MQGMO_VERSION_2:
        options = gmo.MatchOptions
        if options & ~_ALL_MATCH_OPTIONS:
            raise MQMIError.failed(CMQC.MQRC_MATCH_OPTIONS_ERROR, f"MatchOptions={options:#x}")
        if options & CMQC.MQMO_MATCH_MSG_TOKEN:
            raise MQMIError.failed(
                CMQC.MQRC_MATCH_OPTIONS_ERROR, "MQMO_MATCH_MSG_TOKEN is not supported"
            )
    else:
        options = CMQC.MQMO_MATCH_MSG_ID | CMQC.MQMO_MATCH_CORREL_ID
    msg_id = correl_id = group_id = None
    seq = offset = None
    # A short identifier is NUL-padded first: b"" is the null identifier, matching any.
    if options & CMQC.MQMO_MATCH_MSG_ID:
        msg_id = _identifier(md.MsgId)
    if options & CMQC.MQMO_MATCH_CORREL_ID:
        correl_id = _identifier(md.CorrelId)
    if options & CMQC.MQMO_MATCH_GROUP_ID:
        group_id = _identifier(md.GroupId)
    if options & CMQC.MQMO_MATCH_MSG_SEQ_NUMBER:
        seq = md.MsgSeqNumber
    if options & CMQC.MQMO_MATCH_OFFSET:
        offset = md.Offset
    if msg_id is None and correl_id is None and group_id is None and seq is None and offset is None:
        return MATCH_ANY
    return Match(msg_id, correl_id, group_id, seq, offset)


_CHECKED_GET_OPTIONS = (
    _BROWSE_OPTIONS
    | CMQC.MQGMO_SYNCPOINT_IF_PERSISTENT
    | CMQC.MQGMO_SYNCPOINT
    | CMQC.MQGMO_LOCK
    | CMQC.MQGMO_UNLOCK
)


def _identifier(value: bytes) -> bytes | None:
    """A MsgId, CorrelId or GroupId to match on: None for the null identifier."""
    padded = value.ljust(24, b"\x00")
    return None if padded == _NONE else padded


def _check_get_options(gmo: GMO) -> bool:
    """Refuse option combinations MQ refuses; True for a browse."""
    options = gmo.Options
    if options & CMQC.MQGMO_SYNCPOINT and options & CMQC.MQGMO_NO_SYNCPOINT:
        raise MQMIError.failed(
            CMQC.MQRC_OPTIONS_ERROR, "MQGMO_SYNCPOINT and MQGMO_NO_SYNCPOINT together"
        )
    browse_options = options & _BROWSE_OPTIONS
    if browse_options & (browse_options - 1):
        raise MQMIError.failed(CMQC.MQRC_OPTIONS_ERROR, "more than one browse option")
    if options & CMQC.MQGMO_LOCK and options & CMQC.MQGMO_UNLOCK:
        raise MQMIError.failed(CMQC.MQRC_OPTIONS_ERROR, "MQGMO_LOCK and MQGMO_UNLOCK together")
    if options & CMQC.MQGMO_LOCK and not browse_options & ~CMQC.MQGMO_MSG_UNDER_CURSOR:
        raise MQMIError.failed(CMQC.MQRC_OPTIONS_ERROR, "MQGMO_LOCK is for a browse")
    browse = bool(browse_options & ~CMQC.MQGMO_MSG_UNDER_CURSOR)
    if browse and options & (CMQC.MQGMO_SYNCPOINT | CMQC.MQGMO_SYNCPOINT_IF_PERSISTENT):
        raise MQMIError.failed(CMQC.MQRC_OPTIONS_ERROR, "a browse cannot be in syncpoint")
    if options & CMQC.MQGMO_WAIT:
        _check_wait_interval(gmo)
    return browse


def _check_wait_interval(gmo: GMO) -> None:
    if gmo.WaitInterval < 0 and gmo.WaitInterval != CMQC.MQWI_UNLIMITED:
        raise MQMIError.failed(CMQC.MQRC_WAIT_INTERVAL_ERROR, f"WaitInterval={gmo.WaitInterval}")


_ENCODED: dict[str, bytes] = {}


def _encoded(name: str) -> bytes:
    """A queue or queue manager name as an output field holds it, each encoded once
    (a run's names are few; dynamic queues' can be many: the table then starts again)."""
    encoded = _ENCODED.get(name)
    if encoded is None:
        if len(_ENCODED) >= 4096:
            _ENCODED.clear()
        encoded = _ENCODED[name] = name.encode()
    return encoded


def get_syncpoint(options: int, platform: int) -> Syncpoint:
    if options & CMQC.MQGMO_SYNCPOINT:
        return Syncpoint.YES
    if options & CMQC.MQGMO_NO_SYNCPOINT:
        return Syncpoint.NO
    if options & CMQC.MQGMO_SYNCPOINT_IF_PERSISTENT:
        return Syncpoint.IF_PERSISTENT
    return Syncpoint.YES if platforms.syncpoint_by_default(platform) else Syncpoint.NO
