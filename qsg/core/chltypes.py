"""The message channel types and which of them make a channel together (IBM MQ,
"Channel definitions", "Requester-server channel", "Message channels").

A message channel has a definition at each end, of one of four types: sender (SDR)
and server (SVR) take messages off a transmission queue and send them; receiver (RCVR)
and requester (RQSTR) put what arrives. The end that starts the channel is the caller:

- a **sender** calls a receiver, or a requester (the "callback" of a requester-sender
  pair);
- a **server** with a CONNAME ("fully qualified") calls a receiver or a requester, as a
  sender does; a server without one cannot call anything: "A fully qualified server can
  either be started by a requester, or can initiate a communication with a requester";
- a **requester** calls a server, which then sends it the messages of its transmission
  queue over that connection ("The requester requests the server at the other end of
  the channel to start. The server sends messages to the requester"), or a sender,
  which ends that connection and calls the requester back (a requester-sender pair).

Any other pair is refused by the end that was called, with the line IBM's channel
initiator writes for it, AMQ9547E "Type of remote channel not suitable for action
requested" (CSQX547E on z/OS). A channel started with no CONNAME when it must call is
refused with MQRCCF_MISSING_CONN_NAME (4061), "Connection name parameter required but
missing": a requester always needs one, a server needs one to be started by a command.
"""

from __future__ import annotations

from qsg import CMQC, CMQCFC
from qsg.core.errors import MQMIError, QSGError

#: The MQSC words of the message channel types, by MQCHT_* value.
WORDS = {
    CMQC.MQCHT_SENDER: "SDR",
    CMQC.MQCHT_SERVER: "SVR",
    CMQC.MQCHT_RECEIVER: "RCVR",
    CMQC.MQCHT_REQUESTER: "RQSTR",
}
TYPES = {word: value for value, word in WORDS.items()}

#: The types whose agent takes messages off a transmission queue and sends them.
SENDING = frozenset({CMQC.MQCHT_SENDER, CMQC.MQCHT_SERVER})

#: Which types a caller of each type may reach: a hello (SDR, SVR) starts a RCVR or a
#: RQSTR; a requester's request starts a SVR or (callback) a SDR.
PARTNERS = {
    CMQC.MQCHT_SENDER: frozenset({CMQC.MQCHT_RECEIVER, CMQC.MQCHT_REQUESTER}),
    CMQC.MQCHT_SERVER: frozenset({CMQC.MQCHT_RECEIVER, CMQC.MQCHT_REQUESTER}),
    CMQC.MQCHT_REQUESTER: frozenset({CMQC.MQCHT_SERVER, CMQC.MQCHT_SENDER}),
}


class ChannelInUseError(QSGError, ValueError):
    """A channel command refused because an instance of the channel runs (IN USE;
    PCF's MQRCCF_CHANNEL_IN_USE, 4031)."""


def word(channel_type: int) -> str:
    """CHLTYPE's word for an MQCHT_* value (the number itself for another type)."""
    return WORDS.get(channel_type, str(channel_type))


def sending(channel_type: int) -> bool:
    """Whether an agent of this type sends from a transmission queue (SDR, SVR)."""
    return channel_type in SENDING


def suitable(caller: int, called: int) -> bool:
    """Whether a channel whose caller is of type ``caller`` may start the definition of
    type ``called`` at the other end (``PARTNERS``)."""
    return called in PARTNERS.get(caller, frozenset())


def unsuitable_line(channel: str, caller: int, called: int, q_mgr: str) -> str:
    """AMQ9547E as the called end writes it: the channel, both types, and what the
    caller's type may reach."""
    allowed = " or ".join(sorted(word(t) for t in PARTNERS.get(caller, frozenset())))
    return (
        f"AMQ9547E: Type of remote channel not suitable for action requested: channel "
        f"'{channel}' is a {word(called)} on {q_mgr}, and a {word(caller)} channel's "
        f"partner must be a {allowed or 'channel of another type'}"
    )


def missing_conn_name(channel: str, channel_type: int) -> MQMIError:
    """START CHANNEL of a requester, or of a server, without a CONNAME: it cannot call
    its partner (MQRCCF_MISSING_CONN_NAME, 4061). A server without one "can only be
    started by a requester"."""
    if channel_type == CMQC.MQCHT_SERVER:
        why = (
            f"server channel {channel} has no CONNAME: it is not fully qualified and can "
            f"only be started by its requester"
        )
    else:
        kind = "requester" if channel_type == CMQC.MQCHT_REQUESTER else word(channel_type)
        why = f"{kind} channel {channel} has no CONNAME to call"
    return MQMIError(CMQC.MQCC_FAILED, CMQCFC.MQRCCF_MISSING_CONN_NAME, why)


def not_available_line(channel: str, q_mgr: str) -> str:
    """AMQ9558E as a requester's end writes it when the channel it asked for is STOPPED
    at its partner ("Remote Channel is not currently available": "This could be because
    the channel is disabled"): a stopped channel is started again only by an operator
    ("Channel errors": "Channels that are in STOPPED state need operator intervention
    before they can restart")."""
    return (
        f"AMQ9558E: Remote Channel is not currently available: the channel program ended "
        f"because the channel '{channel}' is not currently available on the remote system "
        f"(it is STOPPED on {q_mgr}; START CHANNEL there enables it)"
    )


def not_for_type(verb: str, channel_type: int) -> tuple[str, int] | None:
    """Why PING or RESOLVE CHANNEL (``verb``) refuses a receiving channel, and the PCF
    reason code that says it; None for another verb. PING: "A ping operation can only
    be issued for a sender or server channel. If the local channel is a receiver
    channel, you must issue the ping from a remote queue manager"
    (MQRCCF_PING_ERROR, 4030); RESOLVE "can be used only for sender (SDR), server
    (SVR), and cluster-sender (CLUSSDR) channels" (MQRCCF_CHANNEL_TYPE_ERROR, 3034,
    "the command ... cannot be used with that type of channel")."""
    kind = {CMQC.MQCHT_RECEIVER: "receiver", CMQC.MQCHT_REQUESTER: "requester"}.get(
        channel_type, word(channel_type)
    )
    if verb == "PING":
        reason, name = CMQCFC.MQRCCF_PING_ERROR, "MQRCCF_PING_ERROR"
        why = "a ping can only be issued for a sender or server channel: ping it from its partner"
    elif verb == "RESOLVE":
        reason, name = CMQCFC.MQRCCF_CHANNEL_TYPE_ERROR, "MQRCCF_CHANNEL_TYPE_ERROR"
        why = "RESOLVE CHANNEL is only for a sender or server channel"
    else:
        return None
    return f"is a {kind} channel: {why} ({name} {reason})", reason


def callers(channel_type: int, conn_name: str) -> bool:
    """Whether START CHANNEL makes a channel of this type call its partner: a sender,
    a requester or a server with a CONNAME. (A sender without one is started, and
    retries with the line that says its CONNAME is wrong, as qsg always did; DEFINE
    does not require it.)"""
    if channel_type in (CMQC.MQCHT_SERVER, CMQC.MQCHT_REQUESTER):
        return bool(conn_name.strip())
    return channel_type == CMQC.MQCHT_SENDER


__all__ = [
    "PARTNERS",
    "SENDING",
    "TYPES",
    "WORDS",
    "ChannelInUseError",
    "callers",
    "missing_conn_name",
    "not_available_line",
    "not_for_type",
    "sending",
    "suitable",
    "unsuitable_line",
    "word",
]
