"""PCF Start, Stop, Ping, Reset and Resolve Channel, read as the MQSC commands they
stand for.

A channel command changes what the actors run (an agent starts or ends on the member
IBM's CHLDISP x CMDSCOPE table gives), so the command server does not answer it on the
MQSC processor alone: ``read`` turns the request into the ``Parsed`` START or STOP
CHANNEL the console would make (ChannelName, ChannelDisposition as CHLDISP,
CommandScope as CMDSCOPE), the actors run that (``actors.admin.channel_outcome``), and
``answered`` makes the reply from its outcome: OK, or MQCC_FAILED with the reason the
refusal names (MQRCCF_DISPOSITION_CONFLICT 3211, MQRCCF_CHANNEL_INITIATOR_ERROR 3218,
MQRCCF_CHANNEL_IN_USE 4031, MQRCCF_CHANNEL_NOT_FOUND 4032 ...). IBM, "Start Channel"
and "Stop Channel" (PCF): ChannelDisposition (MQIACH_CHANNEL_DISP) takes MQCHLD_DEFAULT,
MQCHLD_PRIVATE, MQCHLD_SHARED and MQCHLD_FIXSHARED on Start and Ping; MQCHLD_DEFAULT,
PRIVATE and SHARED on Stop, Reset and Resolve.
"""

from __future__ import annotations

from qsg import CMQCFC as F
from qsg.core.qmgr import QMgr
from qsg.core.sharedchl import NAMES
from qsg.mqsc.commands import Parsed
from qsg.mqsc.pcf import Message, PCFError, decode
from qsg.mqsc.pcf_commands import NO_RESPONSE_ID, kind_and_command, process
from qsg.mqsc.pcf_parameters import Parameters, Reply, object_name
from qsg.mqsc.status import Snapshot

#: The channel commands served this way, and their MQSC verbs.
VERBS = {
    F.MQCMD_START_CHANNEL: "START",
    F.MQCMD_STOP_CHANNEL: "STOP",
    F.MQCMD_PING_CHANNEL: "PING",
    F.MQCMD_RESET_CHANNEL: "RESET",
    F.MQCMD_RESOLVE_CHANNEL: "RESOLVE",
}
#: The ChannelDisposition values each command takes (IBM's "Start Channel", "Stop
#: Channel": FIXSHARED is a start's only).
_DISPOSITIONS = {
    F.MQCMD_START_CHANNEL: (
        F.MQCHLD_DEFAULT,
        F.MQCHLD_PRIVATE,
        F.MQCHLD_SHARED,
        F.MQCHLD_FIXSHARED,
    ),
    F.MQCMD_STOP_CHANNEL: (F.MQCHLD_DEFAULT, F.MQCHLD_PRIVATE, F.MQCHLD_SHARED),
    F.MQCMD_PING_CHANNEL: (
        F.MQCHLD_DEFAULT,
        F.MQCHLD_PRIVATE,
        F.MQCHLD_SHARED,
        F.MQCHLD_FIXSHARED,
    ),
    F.MQCMD_RESET_CHANNEL: (F.MQCHLD_DEFAULT, F.MQCHLD_PRIVATE, F.MQCHLD_SHARED),
    F.MQCMD_RESOLVE_CHANNEL: (F.MQCHLD_DEFAULT, F.MQCHLD_PRIVATE, F.MQCHLD_SHARED),
}


def is_channel_command(data: bytes, encoding: int) -> bool:
    """Whether the request is one of the channel commands served here."""
    return kind_and_command(data, encoding)[1] in VERBS


def read(data: bytes, encoding: int) -> Parsed:
    """The MQSC START or STOP CHANNEL a PCF request stands for; ``PCFError`` for one
    that is not well formed, names a parameter the command does not take, or gives a
    ChannelDisposition it does not allow (MQRCCF_PARM_VALUE_ERROR, naming it)."""
    message = decode(data, encoding)
    command = message.header.command
    p = Parameters(message)
    channel = object_name(
        p.string(F.MQCACH_CHANNEL_NAME, required=True), F.MQCACH_CHANNEL_NAME, "channel", 20
    )
    disposition = p.integer(F.MQIACH_CHANNEL_DISP)
    scope = (p.string(F.MQCACF_COMMAND_SCOPE) or "").strip().upper()
    option = _option(command, p)
    p.done()
    chldisp = ""
    if disposition is not None:
        if disposition not in _DISPOSITIONS[command]:
            raise PCFError(
                F.MQRCCF_PARM_VALUE_ERROR,
                f"ChannelDisposition {disposition} is not one the command takes",
                F.MQIACH_CHANNEL_DISP,
            )
        chldisp = NAMES[disposition]
    verb = f"{VERBS[command]} CHANNEL"
    return Parsed(verb, channel=channel, chldisp=chldisp, cmdscope=scope, option=option)


def _option(command: int, p: Parameters) -> str:
    """PING's DataCount (16-32768, else MQRCCF_PING_DATA_COUNT_ERROR), RESET's
    MsgSeqNumber (1-999999999, else MQRCCF_PARM_VALUE_ERROR), RESOLVE's InDoubt
    (required: MQIDO_COMMIT or MQIDO_BACKOUT, else MQRCCF_INDOUBT_VALUE_ERROR), as
    the MQSC keyword's value."""
    if command == F.MQCMD_PING_CHANNEL:
        count = p.integer(F.MQIACH_DATA_COUNT)
        if count is not None and not 16 <= count <= 32768:
            raise PCFError(
                F.MQRCCF_PING_DATA_COUNT_ERROR, f"DataCount {count}", F.MQIACH_DATA_COUNT
            )
        return "" if count is None else str(count)
    if command == F.MQCMD_RESET_CHANNEL:
        number = p.integer(F.MQIACH_MSG_SEQUENCE_NUMBER)
        if number is not None and not 1 <= number <= 999_999_999:
            raise PCFError(
                F.MQRCCF_PARM_VALUE_ERROR, f"MsgSeqNumber {number}", F.MQIACH_MSG_SEQUENCE_NUMBER
            )
        return "" if number is None else str(number)
    if command == F.MQCMD_RESOLVE_CHANNEL:
        action = p.integer(F.MQIACH_IN_DOUBT, required=True)
        names = {F.MQIDO_COMMIT: "COMMIT", F.MQIDO_BACKOUT: "BACKOUT"}
        if action not in names:
            raise PCFError(F.MQRCCF_INDOUBT_VALUE_ERROR, f"InDoubt {action}", F.MQIACH_IN_DOUBT)
        return names[action]
    return ""


def answered(
    data: bytes,
    encoding: int,
    qm: QMgr,
    snapshot: Snapshot,
    refused: PCFError | None,
    *,
    response_id: bytes = NO_RESPONSE_ID,
) -> list[bytes]:
    """The reply to a channel command the actors ran (or ``read`` refused): OK, or
    MQCC_FAILED with ``refused``'s reason (and the parameter it names). In the shape
    the request's type asks for (an extended response set to MQCFT_COMMAND_XR)."""

    def outcome(message: Message, rules: QMgr, snap: Snapshot) -> Reply:
        if refused is not None:
            raise refused
        return [[]]

    return process(data, encoding, qm, snapshot, response_id=response_id, handler=outcome)


__all__ = ["VERBS", "answered", "is_channel_command", "read"]
