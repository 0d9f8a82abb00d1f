"""The rules of a message channel that are not about one MQI call: its message sequence
numbers, what the receiving MCA makes of a put's completion code, and which partner
queue managers may start it (channel authentication's QMGRMAP records).

Sequence numbers ("Channel message sequence numbering"): the sending MCA numbers each
message it takes off the transmission queue one more than the last, so its current
sequence number is the number of the last message sent; after SEQWRAP comes 1 again
("Sequence number wrap (SEQWRAP)": 100 to 999 999 999, the same at both ends). Each end
keeps the number of the last message of its last batch (SYSTEM.CHANNEL.SYNCQ), and the
numbers are compared when the channel starts and at every batch. Where they disagree,
the receiver ends the channel with AMQ9526E "Message sequence number error for channel"
("The local and remote queue managers do not agree on the next message sequence number.
A message with sequence number X has been sent when sequence number Y was expected."):
the batch is neither put nor confirmed, so nothing is lost or duplicated.

Channel authentication ("Blocking access from a remote queue manager"): ``SET
CHLAUTH(generic-channel-name) TYPE(QMGRMAP) QMNAME(generic-partner-qmgr-name)
USERSRC(NOACCESS)`` keeps a partner from starting the channels the profile names; a
more specific record with USERSRC(CHANNEL) or USERSRC(MAP) lets one in. A channel no
record matches is let in, as in MQ (its default records are for SYSTEM.* channels and
privileged users, neither of which qsg has).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from qsg import CMQC
from qsg.core.errors import MQMIError

#: SEQWRAP's default, and its largest value.
DEFAULT_SEQWRAP = 999_999_999


# ---- message sequence numbers ------------------------------------------------------------
def following(number: int, count: int = 1, wrap: int = DEFAULT_SEQWRAP) -> int:
    """The sequence number ``count`` messages after ``number`` (before, if negative):
    after ``wrap`` comes 1, and 0 (nothing sent yet) counts as ``wrap``."""
    return (number + count - 1) % wrap + 1


@dataclass(frozen=True, slots=True)
class Mismatch:
    """AMQ9526E's two numbers: the message ``sent`` when ``expected`` was due."""

    sent: int
    expected: int

    def line(self, channel: str, remote: str) -> str:
        """AMQ9526E as the receiving end writes it."""
        return (
            f"AMQ9526E: Message sequence number error for channel '{channel}': a message "
            f"with sequence number {self.sent} has been sent when sequence number "
            f"{self.expected} was expected (remote host {remote}); nothing of it was put"
        )


def check_batch(committed: int, first: int, wrap: int = DEFAULT_SEQWRAP) -> Mismatch | None:
    """A batch whose first message is numbered ``first``, at a receiver whose last
    committed message is ``committed``: None if it is the next, else the mismatch."""
    expected = following(committed, 1, wrap)
    return None if first == expected else Mismatch(first, expected)


class Start(enum.Enum):
    """How a channel's start settles the two ends' sequence numbers."""

    IN_SYNC = "in sync"  # nothing in doubt, both ends at the same number
    COMMIT = "commit"  # the batch in doubt was committed by the receiver
    BACK_OUT = "back out"  # it was not: the sender backs it out and sends it again


def at_start(
    committed: int, sent: int, in_doubt: int, wrap: int = DEFAULT_SEQWRAP
) -> Start | Mismatch:
    """The channel's start, from the receiver's last committed number, the sender's
    last sent and the number of messages of its batch in doubt (0: none): the batch in
    doubt is committed if the receiver committed its last message, backed out if the
    receiver is at the message before it; any other pair of numbers is AMQ9526E. 0
    (nothing sent yet) and ``wrap`` are the same number: a new channel's first batch,
    backed out, leaves its sender at the number before 1, which ``following`` makes
    ``wrap``, and its receiver still at 0."""
    if following(committed, 0, wrap) == following(sent, 0, wrap):
        return Start.COMMIT if in_doubt else Start.IN_SYNC
    if in_doubt and following(committed, in_doubt, wrap) == sent:
        return Start.BACK_OUT
    first = following(sent, 1 - in_doubt, wrap) if in_doubt else following(sent, 1, wrap)
    return Mismatch(first, following(committed, 1, wrap))


def negotiated_batch_size(ours: int, theirs: int) -> int:
    """The batch size two ends agree: the lower of their BATCHSZ ("Batch size (BATCHSZ)":
    "the lower of the two values is used")."""
    return min(ours, theirs)


# ---- the receiving MCA's puts ------------------------------------------------------------
def put_completed(error: MQMIError) -> bool:
    """Whether an MQPUT that raised ``error`` stored its message anyway: a call that
    completes with MQCC_WARNING did what it was asked (MQRC_PRIORITY_EXCEEDS_MAXIMUM:
    "the message is accepted by the queue manager"). The receiving MCA delivers such a
    message as any other; only MQCC_FAILED sends it to the dead-letter queue."""
    return error.comp == CMQC.MQCC_WARNING


# ---- channel authentication: QMGRMAP records ---------------------------------------------
class UserSource(enum.Enum):
    """USERSRC of a CHLAUTH record: NOACCESS blocks the channel; MAP and CHANNEL let it
    in (which user it then runs under is not modelled)."""

    MAP = "MAP"
    NOACCESS = "NOACCESS"
    CHANNEL = "CHANNEL"


_GENERIC = re.compile(r"[A-Za-z0-9._/%*]{1,48}")


@dataclass(frozen=True, slots=True)
class QMgrMap:
    """SET CHLAUTH(``profile``) TYPE(QMGRMAP) QMNAME(``qmname``) USERSRC(``usersrc``):
    both names may hold ``*`` anywhere, standing for any characters."""

    profile: str
    qmname: str
    usersrc: UserSource = UserSource.CHANNEL

    def __post_init__(self) -> None:
        for value, what, longest in ((self.profile, "CHLAUTH", 20), (self.qmname, "QMNAME", 48)):
            if not _GENERIC.fullmatch(value) or len(value) > longest:
                raise ValueError(
                    f"{what}({value!r}): 1 to {longest} of A-Z a-z 0-9 . / _ % and * (generic)"
                )

    def matches(self, channel: str, q_mgr: str) -> bool:
        return bool(_pattern(self.profile).fullmatch(channel)) and bool(
            _pattern(self.qmname).fullmatch(q_mgr)
        )


@cache
def _pattern(generic: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in generic.split("*")))


def _specificity(generic: str) -> tuple[int, int]:
    """How specific a generic name is: its first asterisk the later, then the more
    characters that are not asterisks, the more specific."""
    star = generic.find("*")
    return (len(generic) if star < 0 else star, len(generic.replace("*", "")))


def blocking(records: Iterable[QMgrMap], channel: str, q_mgr: str) -> QMgrMap | None:
    """The record that blocks queue manager ``q_mgr`` from starting ``channel``, or None
    if it may: of the records that match, the one with the most specific channel
    profile, then the most specific QMNAME, decides ("Channel authentication records":
    the most specific match is used)."""
    found = [r for r in records if r.matches(channel, q_mgr)]
    if not found:
        return None
    chosen = max(found, key=lambda r: (_specificity(r.profile), _specificity(r.qmname)))
    return chosen if chosen.usersrc is UserSource.NOACCESS else None


def blocked_line(channel: str, remote: str, q_mgr: str) -> str:
    """AMQ9777E as the receiving end writes it."""
    return (
        f"AMQ9777E: Channel was blocked: the inbound channel '{channel}' was blocked from "
        f"address '{remote}' because the active values of the channel matched a record "
        f"configured with USERSRC(NOACCESS); the active values of the channel were "
        f"'QMNAME({q_mgr})'"
    )


__all__ = [
    "DEFAULT_SEQWRAP",
    "Mismatch",
    "QMgrMap",
    "Start",
    "UserSource",
    "at_start",
    "blocked_line",
    "blocking",
    "check_batch",
    "following",
    "negotiated_batch_size",
    "put_completed",
]
