"""The rules of shared channels in a queue-sharing group (IBM MQ for z/OS): which
channels are shared, where START CHANNEL puts one (CHLDISP x CMDSCOPE), which member is
"most suitable", one instance in the group, and what peer channel recovery reports.

A sending channel is shared when its transmission queue is a shared queue, private
otherwise; the QSGDISP of its definition has nothing to do with it ("Message channel
agents for queue sharing groups"). START CHANNEL's CHLDISP says how an instance runs:
PRIVATE on the member that runs it, SHARED on the most suitable member of the group
(a "load-balanced start"), FIXSHARED shared but pinned to one member. DEFAULT takes the
channel's DEFCDISP. The combinations IBM allows with CMDSCOPE are ``placement``'s; the
others are refused with MQRCCF_DISPOSITION_CONFLICT (3211), "The CommandScope and ...
ChannelDisposition parameter values are incompatible", as is a shared start of a
sender whose transmission queue is not shared, or a private one of a sender whose
transmission queue is ("The action requested for a channel cannot be performed because
it has the wrong disposition"; refusing the private start is our reading).

"Most suitable" (``most_suitable``): IBM names the two measures, each channel
initiator's channel load (active channels as a percentage of the most it may run) and
its headroom (the most minus the active), and not how they are weighed. qsg takes the
lowest load, then the largest headroom, then a draw from the run's seeded random
among the members still tied: the same seed starts the same channel on the same member.
No member that can take the channel: MQRCCF_CHANNEL_INITIATOR_ERROR (3218).

One instance of a shared channel runs in the group: its instance is claimed in the
group's shared channel status (``SharedChannelStatus``) before its agent starts, and a
second start is refused with CSQX477E. The status names the member that runs it
(QMNAME in DISPLAY CHSTATUS), so any member can display it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from qsg import CMQC, CMQCFC
from qsg.core.errors import MQMIError

#: The dispositions as START CHANNEL names them, and their MQCHLD_* values.
DISPOSITIONS = {
    "DEFAULT": CMQCFC.MQCHLD_DEFAULT,
    "PRIVATE": CMQCFC.MQCHLD_PRIVATE,
    "SHARED": CMQCFC.MQCHLD_SHARED,
    "FIXSHARED": CMQCFC.MQCHLD_FIXSHARED,
}
NAMES = {value: name for name, value in DISPOSITIONS.items()}

#: The most channels a channel initiator runs at once: z/OS's MAXCHL default (200).
#: qsg does not model MAXCHL as an attribute; every member has this many.
MAX_CHANNELS = 200

_SENDING = frozenset({CMQC.MQCHT_SENDER, CMQC.MQCHT_SERVER, CMQC.MQCHT_REQUESTER})
_RECEIVING = frozenset({CMQC.MQCHT_RECEIVER, CMQC.MQCHT_SVRCONN})


class DispositionError(MQMIError):
    """A START or STOP CHANNEL whose CHLDISP the channel or the CMDSCOPE does not allow
    (MQRCCF_DISPOSITION_CONFLICT, 3211), or that no member can take (3218)."""


def conflict(text: str) -> DispositionError:
    return DispositionError(CMQC.MQCC_FAILED, CMQCFC.MQRCCF_DISPOSITION_CONFLICT, text)


def no_channel_initiator(channel: str) -> DispositionError:
    """MQRCCF_CHANNEL_INITIATOR_ERROR (3218): no member's channel initiator can start
    the channel (none running, or all at their most channels)."""
    return DispositionError(
        CMQC.MQCC_FAILED,
        CMQCFC.MQRCCF_CHANNEL_INITIATOR_ERROR,
        f"no channel initiator in the group can start channel {channel} "
        f"(MQRCCF_CHANNEL_INITIATOR_ERROR 3218)",
    )


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a START CHANNEL runs the channel: ``on`` a member (the local or the
    named one), on ``"*"`` every active member, or on ``"?"`` the most suitable one;
    as PRIVATE, SHARED or FIXSHARED (``disposition``, an MQCHLD_* value)."""

    on: str
    disposition: int


def resolved(chldisp: str, defcdisp: int) -> int:
    """CHLDISP as an MQCHLD_* value: DEFAULT is the channel's DEFCDISP."""
    try:
        value = DISPOSITIONS[chldisp.upper()]
    except KeyError:
        raise conflict(f"CHLDISP({chldisp}) is not DEFAULT, PRIVATE, SHARED or FIXSHARED") from None
    return defcdisp if value == CMQCFC.MQCHLD_DEFAULT else value


def placement(
    channel: str,
    channel_type: int,
    conn_name: str,
    disposition: int,
    cmdscope: str,
    here: str,
    xmitq_shared: bool | None,
) -> Placement:
    """Where START CHANNEL(``channel``) CHLDISP(``disposition``) CMDSCOPE(``cmdscope``)
    entered on ``here`` runs the channel, by IBM's table ("START CHANNEL", CHLDISP):

    - PRIVATE: on the local member, the named one, or every active member (``*``);
    - SHARED, a sender, server or requester with a CONNAME: on the most suitable
      member, CMDSCOPE blank only; a receiver, server-connection or server without a
      CONNAME: on every active member, CMDSCOPE blank only;
    - FIXSHARED, a sender, server or requester with a CONNAME: on the local or the
      named member, not ``*``; no other type.

    ``xmitq_shared`` is whether a sending channel's transmission queue is shared (None
    for a receiving one): a shared start of a sender whose queue is private, or a
    private one of a sender whose queue is shared, has the wrong disposition. Every
    refusal is 3211 (``DispositionError``)."""
    name = NAMES.get(disposition, str(disposition))
    scope = cmdscope.strip()
    sending = channel_type in _SENDING and bool(conn_name.strip())
    if disposition == CMQCFC.MQCHLD_PRIVATE:
        if xmitq_shared:
            raise conflict(
                f"channel {channel} has a shared transmission queue: it is a shared channel, "
                f"start it CHLDISP(SHARED) or CHLDISP(FIXSHARED) (MQRCCF_DISPOSITION_CONFLICT 3211)"
            )
        return Placement(scope or here, disposition)
    if channel_type not in _SENDING | _RECEIVING:
        raise conflict(f"CHLDISP({name}) is not allowed for channel {channel}'s type")
    if channel_type in _SENDING and xmitq_shared is False:
        raise conflict(
            f"channel {channel}'s transmission queue is not a shared queue: CHLDISP({name}) "
            f"is the wrong disposition for it (MQRCCF_DISPOSITION_CONFLICT 3211)"
        )
    if disposition == CMQCFC.MQCHLD_SHARED:
        if scope:
            raise conflict(
                f"CHLDISP(SHARED) is not allowed with CMDSCOPE({scope}) "
                f"(MQRCCF_DISPOSITION_CONFLICT 3211)"
            )
        return Placement("?" if sending else "*", disposition)
    if disposition == CMQCFC.MQCHLD_FIXSHARED:
        if not sending:
            raise conflict(
                f"CHLDISP(FIXSHARED) is allowed only for a sender, server or requester "
                f"with a CONNAME, not for channel {channel} (MQRCCF_DISPOSITION_CONFLICT 3211)"
            )
        if scope == "*":
            raise conflict(
                "CHLDISP(FIXSHARED) is not allowed with CMDSCOPE(*) "
                "(MQRCCF_DISPOSITION_CONFLICT 3211)"
            )
        return Placement(scope or here, disposition)
    raise conflict(f"CHLDISP({name}) is not DEFAULT, PRIVATE, SHARED or FIXSHARED")


def group_placement(
    verb: str,
    channel: str,
    disposition: int,
    cmdscope: str,
    here: str,
    xmitq_shared: bool,
) -> Placement:
    """Where RESET or RESOLVE CHANNEL (``verb``) of a sending channel runs, by IBM's
    tables ("RESET CHANNEL", "RESOLVE CHANNEL"): PRIVATE on the local or the named
    member (not ``*``); SHARED "on all active queue managers" (``"*"``), CMDSCOPE
    blank or the local member only. FIXSHARED (a DEFCDISP's) is taken as SHARED: the
    channel is shared either way. A private command on a sender whose transmission
    queue is shared, or a shared one on one whose queue is not, has the wrong
    disposition, as for START CHANNEL. Every refusal is 3211."""
    scope = cmdscope.strip()
    if disposition == CMQCFC.MQCHLD_FIXSHARED:
        disposition = CMQCFC.MQCHLD_SHARED
    if disposition == CMQCFC.MQCHLD_PRIVATE:
        if xmitq_shared:
            raise conflict(
                f"channel {channel} has a shared transmission queue: it is a shared channel, "
                f"{verb} it CHLDISP(SHARED) (MQRCCF_DISPOSITION_CONFLICT 3211)"
            )
        if scope == "*":
            raise conflict(
                f"{verb} CHANNEL is not allowed with CMDSCOPE(*) (MQRCCF_DISPOSITION_CONFLICT 3211)"
            )
        return Placement(scope or here, disposition)
    if disposition != CMQCFC.MQCHLD_SHARED:
        raise conflict(f"CHLDISP({NAMES.get(disposition, disposition)}) is not PRIVATE or SHARED")
    if not xmitq_shared:
        raise conflict(
            f"channel {channel}'s transmission queue is not a shared queue: CHLDISP(SHARED) "
            f"is the wrong disposition for it (MQRCCF_DISPOSITION_CONFLICT 3211)"
        )
    if scope and scope != here:
        raise conflict(
            f"CHLDISP(SHARED) is not allowed with CMDSCOPE({scope}) "
            f"(MQRCCF_DISPOSITION_CONFLICT 3211)"
        )
    return Placement("*", disposition)


# ---- the load-balanced start -------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ChinitLoad:
    """One member's channel initiator as a load-balanced start sees it: its active
    channels and the most it may run."""

    q_mgr: str
    active: int
    maximum: int = MAX_CHANNELS

    @property
    def load(self) -> float:
        """Channel load: active channels as a percentage of the most allowed."""
        return 100.0 * self.active / self.maximum if self.maximum else 100.0

    @property
    def headroom(self) -> int:
        """Headroom: the most allowed minus the active."""
        return self.maximum - self.active


class Draw(Protocol):
    """What ``most_suitable`` needs of the run's seeded random (``random.Random``): the
    rules layer draws, but never makes a random stream of its own."""

    def choice(self, seq: Sequence[str]) -> str: ...


def most_suitable(chinits: Sequence[ChinitLoad], rng: Draw) -> str | None:
    """The member a SHARED start goes to: of the channel initiators with headroom, the
    lowest channel load, then the largest headroom, then a draw from ``rng`` among the
    ties (the run's seeded random: the same seed, the same member). None when no
    channel initiator can take one more channel (3218 for the caller)."""
    open_ = [c for c in chinits if c.headroom > 0]
    if not open_:
        return None
    best = min((c.load, -c.headroom) for c in open_)
    tied = sorted(c.q_mgr for c in open_ if (c.load, -c.headroom) == best)
    return tied[0] if len(tied) == 1 else rng.choice(tied)


# ---- the group's shared channel status ---------------------------------------------------
@dataclass(frozen=True, slots=True)
class SharedInstance:
    """The one running instance of a shared channel in the group: the member that owns
    it (QMNAME), and whether it was started SHARED or FIXSHARED."""

    channel: str
    owner: str
    disposition: int
    xmitq: str = ""
    conn_name: str = ""


class SharedChannelStatus(Protocol):
    """The group's shared channel status: IBM keeps it in Db2 with the group's objects;
    qsg keeps it in process (``MemoryChannelStatus``) or on the coupling facility's
    server (``coupling.chstatus.RedisChannelStatus``). It says only who runs which
    shared channel; the agent's state (RUNNING, RETRYING) is the owner's to show.
    (This could move into the group's shared repository when it has one store for
    every group object: it is kept behind this Protocol for that.)"""

    def claim(self, instance: SharedInstance, replacing: str = "") -> SharedInstance | None:
        """Take ``instance``'s channel for its owner: None if taken, else the instance
        that holds it (the start is refused, CSQX477E). One held by ``replacing`` (a
        failed member whose channels are being recovered) is taken over. Atomic in the
        group."""
        ...

    def release(self, channel: str, owner: str) -> bool:
        """The channel's instance on ``owner`` ended: its status goes; False if
        ``owner`` did not hold it."""
        ...

    def holder(self, channel: str) -> SharedInstance | None: ...

    def instances(self) -> list[SharedInstance]:
        """Every shared channel instance of the group, by channel name."""
        ...


class MemoryChannelStatus:
    """The shared channel status in process."""

    def __init__(self) -> None:
        self._held: dict[str, SharedInstance] = {}

    def claim(self, instance: SharedInstance, replacing: str = "") -> SharedInstance | None:
        held = self._held.get(instance.channel)
        if held is not None and (not replacing or held.owner != replacing):
            return held
        self._held[instance.channel] = instance
        return None

    def release(self, channel: str, owner: str) -> bool:
        held = self._held.get(channel)
        if held is None or held.owner != owner:
            return False
        del self._held[channel]
        return True

    def holder(self, channel: str) -> SharedInstance | None:
        return self._held.get(channel)

    def instances(self) -> list[SharedInstance]:
        return [self._held[name] for name in sorted(self._held)]


def in_use_line(channel: str, xmitq: str, owner: str) -> str:
    """CSQX477E, a second instance of a shared channel: "Channel channel-name is
    active, transmission queue queue-name in use on qmgr"."""
    return f"CSQX477E Channel {channel} is active, transmission queue {xmitq} in use on {owner}"


def recovery_line(failed: str, found: int, fixshared: int, recovered: int) -> str:
    """CSQM052I, the end of peer channel recovery: "Shared channel recovery completed
    for qmgr-name, n channels found, p FIXSHARED, r recovered"."""
    return (
        f"CSQM052I CSQMPCRT Shared channel recovery completed for {failed}, "
        f"{found} channels found, {fixshared} FIXSHARED, {recovered} recovered"
    )


__all__ = [
    "DISPOSITIONS",
    "MAX_CHANNELS",
    "NAMES",
    "ChinitLoad",
    "DispositionError",
    "MemoryChannelStatus",
    "Placement",
    "SharedChannelStatus",
    "SharedInstance",
    "conflict",
    "group_placement",
    "in_use_line",
    "most_suitable",
    "no_channel_initiator",
    "placement",
    "recovery_line",
    "resolved",
]
