"""A channel's frames on the wire, and nothing believed before it is checked.

Sender and receiver exchange msgpack frames: the sender's ``hello`` (its channel, queue
manager, heartbeat interval, batch size and message sequence number, and how many
messages of its last batch are in doubt), the receiver's ``status`` (the sequence number
of the last message it committed, and what the two ends agreed) or ``refused``, each
``batch`` of messages (numbered by its first message) and the receiver's ``ok`` (by its
last), or its ``error``: the batch backed out and the channel ended. A channel
listener's port is open to anything that connects, so every frame is checked before use:
bytes that are not msgpack, a frame bigger than its limit, a count or length bigger than
the flow can hold, a frame of the wrong kind or shape, or a message whose data does not
start with an MQXQH (version 1, holding an MQMD) is a ``ProtocolError``. It ends that
connection only, with the error line a channel initiator writes for it, AMQ9504E "A
protocol error was detected for channel" (IBM MQ messages, AMQ9xxx; CSQX504E "Local
protocol error" on z/OS); the listener and its queue manager go on, and a real sender
retries.

The limits, checked before anything is built from the bytes: until the sender has named
its channel a frame may hold ``HELLO_LIMIT`` bytes; after that what a batch of the
agreed size can hold (``frame_limit``, at most ``FRAME_LIMIT``). Inside a frame, msgpack
is held to what a flow can carry (``MAX_BATCH`` messages, a descriptor's fields, names
and reasons of ``MAX_TEXT`` characters), so a header announcing more is refused at once,
never waited for or allocated.

Every wait on the partner is bounded (``Frames.timeout``): a partner that stops answering
ends the channel with ``ChannelTimeoutError``, modelled on AMQ9259E "Connection timed out
from host" (CSQX259E on z/OS). How long is MQ's receive timeout, reckoned from the heartbeat
interval the two ends agreed (``receive_timeout``); the start of a channel is bounded by
the queue manager's connect timeout. Over TCP the bounds are wall-clock seconds (the
simulated clock stands still while a partner in another process answers, and the two
processes' clocks are not one clock); in process they are simulated seconds.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any

import msgpack
import trio

from actors.clock import current_virtual_clock
from coupling.wallclock import WallTimeoutError, within
from qsg import CMQC
from qsg.core.channels import DEFAULT_SEQWRAP
from qsg.core.errors import QSGError
from qsg.core.layouts import XQH_MSGDESC_OFFSET, byte_order
from qsg.core.structs import MD

#: The most a frame may hold before the sender has said which channel it is.
HELLO_LIMIT = 64 * 1024
#: The most any frame may hold (a batch: BATCHSZ messages and their descriptors).
FRAME_LIMIT = 1 << 30
#: BATCHSZ's largest value: no batch holds more messages.
MAX_BATCH = 9999
#: The longest text a flow carries: names, and the reason of a refusal or an error.
MAX_TEXT = 4096
#: The most fields a map of a flow has (an MQMD has 29).
MAX_FIELDS = 64
#: What one message of a batch may take on the wire beyond its data (descriptor, age).
MESSAGE_OVERHEAD = 4096
#: How long (seconds) connecting to a partner and starting the channel may take, unless
#: the queue manager says otherwise (``Topology.add_qmgr(..., connect_timeout=)``): the
#: part of qm.ini's TCP stanza ``Connect_Timeout`` that qsg models.
CONNECT_TIMEOUT = 30.0
#: HBINT's default (seconds), and the largest heartbeat interval MQ accepts.
DEFAULT_HBINT = 300
MAX_HBINT = 999_999
#: Where the channel initiator's error lines go (and so, with no handler configured,
#: to standard error): one line per connection ended.
log = logging.getLogger("qsg.channels")


class ChannelBrokenError(QSGError, ConnectionError):
    """The partner went away or refused the channel."""


class ProtocolError(ChannelBrokenError):
    """The partner sent what the channel protocol does not allow."""


class ChannelEndedError(ChannelBrokenError):
    """The partner ended the channel with an error flow, having backed out the batch in
    flight (its ``reason`` is the message). ``stop``: the channel is stopped, not
    retried (a message that can be neither put nor dead-lettered, "Dead-letter queues")."""

    def __init__(self, reason: str, *, stop: bool = False) -> None:
        super().__init__(reason)
        self.stop = stop


class ChannelTimeoutError(ChannelBrokenError, TimeoutError):
    """The partner took nothing, or sent nothing, for longer than the bound: ``seconds``
    and what was awaited (``doing``: "received" or "sent")."""

    def __init__(self, seconds: float, doing: str) -> None:
        super().__init__(f"nothing {doing} for {seconds:g} s")
        self.seconds = seconds
        self.doing = doing


def negotiated_hbint(ours: int, theirs: int) -> int:
    """The heartbeat interval two ends of a channel agree: the larger of the two, or 0
    (no heartbeats) when either end says 0 ("HeartbeatInterval (MQLONG)", MQCD)."""
    return 0 if not ours or not theirs else max(ours, theirs)


def receive_timeout(hbint: int) -> float | None:
    """How long a channel waits for its partner once the heartbeat interval is agreed:
    twice HBINT below 60 seconds, HBINT plus 60 seconds from there ("Checking that the
    other end of the channel is still available", receive timeout); None (no bound) for
    HBINT(0), as in MQ, where only TCP keepalive would end such a channel."""
    if hbint <= 0:
        return None
    return 2.0 * hbint if hbint < 60 else hbint + 60.0


def timeout_line(channel: str, host: str, error: ChannelTimeoutError) -> str:
    """AMQ9259E as a channel initiator writes it: the channel, the partner, and what
    the wait was for."""
    return (
        f"AMQ9259E: Connection timed out from host '{host}' for channel '{channel or '?'}': {error}"
    )


def protocol_error_line(channel: str, remote: str, problem: str) -> str:
    """AMQ9504E as a channel initiator writes it, naming the channel (or, before the
    sender named one, '?'), the remote end and what was wrong."""
    return (
        f"AMQ9504E: A protocol error was detected for channel '{channel or '?'}' "
        f"from {remote}: {problem}"
    )


class _RealIO:
    """A source of real I/O for the virtual clock: busy while it exists."""

    busy = True


@contextmanager
def real_io() -> Iterator[None]:
    """Simulated time stands still inside: a partner in another process is answering."""
    clock = current_virtual_clock()
    if clock is None:
        yield
        return
    source = _RealIO()
    clock.watch(source)
    try:
        yield
    finally:
        clock.unwatch(source)


class Frames:
    """msgpack frames over a byte stream; ``remote`` when the partner is in another
    process (so waiting for its reply is real I/O). ``limit`` is the most one frame may
    hold; a receiver raises it from ``HELLO_LIMIT`` once the channel is known.
    ``timeout``: the most a send or a receive may take (None: no bound), in wall seconds
    over a TCP socket, in simulated seconds over an in-process stream."""

    def __init__(
        self,
        stream: trio.abc.Stream,
        *,
        remote: bool = False,
        limit: int = FRAME_LIMIT,
        timeout: float | None = None,
    ) -> None:
        self.stream = stream
        self.remote = remote
        self.limit = limit
        self.timeout = timeout
        self.wall = isinstance(stream, trio.SocketStream)
        # Each container and string is held to what a flow can carry: a header that
        # announces more is refused as it is read, before its contents arrive.
        self._unpacker = msgpack.Unpacker(
            raw=False,
            max_buffer_size=FRAME_LIMIT,
            max_str_len=MAX_TEXT,
            max_bin_len=FRAME_LIMIT,
            max_array_len=MAX_BATCH,
            max_map_len=MAX_FIELDS,
            max_ext_len=0,
        )
        self._fed = 0  # bytes fed to the unpacker; ``tell()`` is how many it consumed

    @property
    def peer(self) -> str:
        """The remote end as MQ names it, ``host(port)``; '' for an in-process stream."""
        socket = getattr(self.stream, "socket", None)
        if socket is None:
            return ""
        try:
            host, port = socket.getpeername()[:2]
        except OSError:
            return ""
        return f"{host}({port})"

    async def reply(self) -> dict[str, Any]:
        """The partner's answer to what was just sent."""
        if not self.remote:
            return await self.receive()
        with real_io():
            return await self.receive()

    async def send(self, frame: dict[str, Any]) -> None:
        """Send ``frame``; ``ChannelTimeoutError`` if the partner takes none of it within
        ``timeout`` (over TCP: an in-process stream never holds a sender back). To a
        partner in another process it is real I/O: simulated time stands still meanwhile."""
        data = msgpack.packb(frame, use_bin_type=True)

        async def send_all() -> None:
            try:
                await self.stream.send_all(data)
            except (trio.BrokenResourceError, trio.ClosedResourceError) as error:
                raise ChannelBrokenError(str(error)) from error

        if self.timeout is None or not self.wall:
            await send_all()
            return
        try:
            with real_io() if self.remote else nullcontext():
                await within(self.timeout, send_all)
        except WallTimeoutError:
            raise ChannelTimeoutError(self.timeout, "sent") from None

    async def receive(self) -> dict[str, Any]:
        """The next frame: a map with a string ``t``, else a ``ProtocolError``;
        ``ChannelTimeoutError`` if none comes within ``timeout``."""
        timeout = self.timeout
        if timeout is None:
            return await self._receive()
        if self.wall:
            try:
                return await within(timeout, self._receive)
            except WallTimeoutError:
                raise ChannelTimeoutError(timeout, "received") from None
        with trio.move_on_after(timeout):
            return await self._receive()
        raise ChannelTimeoutError(timeout, "received")

    async def _receive(self) -> dict[str, Any]:
        while True:
            try:
                for frame in self._unpacker:
                    if not isinstance(frame, dict) or not isinstance(frame.get("t"), str):
                        raise ProtocolError(f"a frame that is not a channel flow: {_show(frame)}")
                    return frame
            except (ValueError, msgpack.UnpackException) as error:
                why = str(error) or type(error).__name__
                raise ProtocolError(f"bytes that are not a frame ({why})") from None
            try:
                data = await self.stream.receive_some(1 << 16)
            except (trio.BrokenResourceError, trio.ClosedResourceError) as error:
                raise ChannelBrokenError(str(error)) from error
            if not data:
                raise ChannelBrokenError("the partner closed the channel")
            pending = self._fed - self._unpacker.tell() + len(data)
            if pending > self.limit:
                raise ProtocolError(f"a frame of more than {self.limit} bytes")
            self._unpacker.feed(data)
            self._fed += len(data)


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _field(frame: dict[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    value = frame.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ProtocolError(f"{frame['t']} flow: {name} is {_show(value)}")
    return value


# ---- each flow, checked ------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Hello:
    """The sender's first flow: its channel and queue manager; its HBINT and BATCHSZ
    (None if it said none); the sequence number of the last message it sent (0: none
    yet) and how many messages of its last batch are in doubt (0: none)."""

    channel: str
    q_mgr: str
    hbint: int | None
    batch_size: int | None
    sequence: int
    in_doubt: int
    reset: bool = False  # a RESET CHANNEL at the sending end: take its number
    #: The caller's channel type (MQCHT_SENDER or MQCHT_SERVER): a hello that says
    #: none is a sender's.
    channel_type: int = CMQC.MQCHT_SENDER


#: The channel types a hello may say its caller is ("type"), by CHLTYPE's word.
_HELLO_TYPES = {"SDR": CMQC.MQCHT_SENDER, "SVR": CMQC.MQCHT_SERVER}


def hello(frame: dict[str, Any]) -> Hello:
    """The sender's first flow, checked."""
    if frame["t"] != "hello":
        raise ProtocolError(f"a {_show(frame['t'])} flow where the channel start was due")
    channel = _field(frame, "channel", str)
    sender = _field(frame, "from", str)
    if not 0 < len(channel) <= 20 or len(sender) > 48:
        raise ProtocolError(f"hello flow: channel {_show(channel)} from {_show(sender)}")
    hbint = _hbint(frame) if "hbint" in frame else None
    batch_size = _batch_size(frame) if "batchsz" in frame else None
    sequence = _sequence(frame, "seq")
    in_doubt = _field(frame, "doubt", int) if "doubt" in frame else 0
    if not 0 <= in_doubt <= MAX_BATCH:
        raise ProtocolError(f"hello flow: {in_doubt} messages in doubt")
    reset = frame.get("reset", False)
    if not isinstance(reset, bool):
        raise ProtocolError(f"hello flow: reset is {_show(reset)}")
    said = frame.get("type", "SDR")
    kind = _HELLO_TYPES.get(said) if isinstance(said, str) else None
    if kind is None:
        raise ProtocolError(f"hello flow: channel type {_show(said)}")
    return Hello(channel, sender, hbint, batch_size, sequence, in_doubt, reset, kind)


@dataclass(frozen=True, slots=True)
class Request:
    """A requester's first flow: its channel and queue manager. The partner's server
    answers with its hello over the same connection; its sender with ``callback``
    (it calls the requester back); anything else with ``refused``."""

    channel: str
    q_mgr: str


def request(frame: dict[str, Any]) -> Request:
    """A requester's first flow, checked."""
    channel = _field(frame, "channel", str)
    requester = _field(frame, "from", str)
    if not 0 < len(channel) <= 20 or len(requester) > 48:
        raise ProtocolError(f"request flow: channel {_show(channel)} from {_show(requester)}")
    return Request(channel, requester)


def _sequence(frame: dict[str, Any], name: str) -> int:
    """A message sequence number: 0 to SEQWRAP's largest value."""
    number: int = _field(frame, name, int)
    if not 0 <= number <= DEFAULT_SEQWRAP:
        raise ProtocolError(f"{frame['t']} flow: sequence number {number}")
    return number


def _batch_size(frame: dict[str, Any]) -> int:
    size: int = _field(frame, "batchsz", int)
    if not 1 <= size <= MAX_BATCH:
        raise ProtocolError(f"{frame['t']} flow: batch size {size}")
    return size


@dataclass(frozen=True, slots=True)
class Status:
    """The receiver's answer to the hello: the sequence number of the last message it
    committed, and the heartbeat interval and batch size agreed (None if it said none)."""

    committed: int
    hbint: int | None
    batch_size: int | None


def status(frame: dict[str, Any]) -> Status:
    """The receiver's answer to the hello, checked. A refusal is the channel refused (not
    a protocol error): the sender retries."""
    if frame["t"] == "refused":
        raise ChannelBrokenError(_reason(frame, "the receiver refused"))
    if frame["t"] != "status":
        raise ProtocolError(f"a {_show(frame['t'])} flow where the channel status was due")
    committed = _sequence(frame, "committed")
    hbint = _hbint(frame) if "hbint" in frame else None
    batch_size = _batch_size(frame) if "batchsz" in frame else None
    return Status(committed, hbint, batch_size)


def _reason(frame: dict[str, Any], otherwise: str) -> str:
    reason = frame.get("reason")
    return reason if isinstance(reason, str) else otherwise


def _hbint(frame: dict[str, Any]) -> int:
    hbint: int = _field(frame, "hbint", int)
    if not 0 <= hbint <= MAX_HBINT:
        raise ProtocolError(f"{frame['t']} flow: hbint {hbint}")
    return hbint


def heartbeat(frame: dict[str, Any]) -> None:
    """The receiver's answer to a heartbeat flow: a heartbeat."""
    if frame["t"] != "heartbeat":
        raise ProtocolError(f"a {_show(frame['t'])} flow where a heartbeat was due")


def confirmed(frame: dict[str, Any], last: int) -> None:
    """The receiver's confirmation of the batch whose last message is numbered ``last``;
    its error flow (the batch backed out, the channel ended) is ``ChannelEndedError``."""
    if frame["t"] == "error":
        stop = frame.get("stop")
        raise ChannelEndedError(_reason(frame, "the receiver ended the channel"), stop=stop is True)
    if frame["t"] != "ok" or frame.get("seq") != last:
        raise ProtocolError(f"the receiver did not confirm message {last}: {_show(frame)}")


def batch(frame: dict[str, Any], most: int = MAX_BATCH) -> tuple[int, list[dict[str, Any]]]:
    """A batch of at most ``most`` messages (the batch size agreed): the sequence number
    of its first message (any number: whether it is the next is the receiver's check,
    AMQ9526E) and its messages, each with ``md`` (the transmission queue's descriptor, as
    an MD), ``data`` (MQXQH and body) and ``age`` (seconds since it left the transmission
    queue)."""
    if frame["t"] != "batch":
        raise ProtocolError(f"a {_show(frame['t'])} flow where a batch was due")
    first: int = _field(frame, "seq", int)
    messages = _field(frame, "messages", list)
    if not 0 < len(messages) <= most:
        raise ProtocolError(f"batch flow: {len(messages)} messages, where 1 to {most} are agreed")
    return first, [_message(m) for m in messages]


def _message(message: object) -> dict[str, Any]:
    if not isinstance(message, dict):
        raise ProtocolError(f"batch flow: a message that is {_show(message)}")
    fields = message.get("md")
    data = message.get("data")
    age = message.get("age")
    if not isinstance(fields, dict) or not isinstance(data, bytes):
        raise ProtocolError("batch flow: a message without its descriptor and data")
    if not isinstance(age, int | float) or isinstance(age, bool) or not 0 <= age < math.inf:
        raise ProtocolError(f"batch flow: a message whose age is {_show(age)}")
    try:
        md = MD(**fields)
    except (AttributeError, TypeError, ValueError) as error:
        raise ProtocolError(f"batch flow: a descriptor MQ refuses ({error})") from None
    _check_xqh(data, md.Encoding)
    return {"md": md, "data": data, "age": age}


def _check_xqh(data: bytes, encoding: int) -> None:
    """The message's data holds an MQXQH, version 1, around an MQMD: what the receiver
    reads of it is there before it reads it."""
    if len(data) < CMQC.MQXQH_LENGTH_1 or data[:4] != CMQC.MQXQH_STRUC_ID:
        raise ProtocolError("batch flow: a message whose data does not start with an MQXQH")
    version = int.from_bytes(data[4:8], "big" if byte_order(encoding) == ">" else "little")
    if version != CMQC.MQXQH_VERSION_1:
        raise ProtocolError(f"batch flow: an MQXQH of version {version}")
    if data[XQH_MSGDESC_OFFSET : XQH_MSGDESC_OFFSET + 4] != CMQC.MQMD_STRUC_ID:
        raise ProtocolError("batch flow: an MQXQH whose MsgDesc is not an MQMD")


def frame_limit(batch_size: int, max_msg_length: int) -> int:
    """The most a frame of a channel may hold once it is started: a batch of
    ``batch_size`` messages of up to ``max_msg_length`` bytes (the queue manager's
    MAXMSGL) behind their MQXQH, and no more than ``FRAME_LIMIT``."""
    message = CMQC.MQXQH_LENGTH_1 + max_msg_length + MESSAGE_OVERHEAD
    return min(FRAME_LIMIT, batch_size * message + HELLO_LIMIT)


__all__ = [
    "CONNECT_TIMEOUT",
    "DEFAULT_HBINT",
    "FRAME_LIMIT",
    "HELLO_LIMIT",
    "MAX_BATCH",
    "MAX_FIELDS",
    "MAX_HBINT",
    "MAX_TEXT",
    "MESSAGE_OVERHEAD",
    "ChannelBrokenError",
    "ChannelEndedError",
    "ChannelTimeoutError",
    "Frames",
    "Hello",
    "ProtocolError",
    "Request",
    "Status",
    "batch",
    "confirmed",
    "frame_limit",
    "heartbeat",
    "hello",
    "log",
    "negotiated_hbint",
    "protocol_error_line",
    "real_io",
    "receive_timeout",
    "request",
    "status",
    "timeout_line",
]
