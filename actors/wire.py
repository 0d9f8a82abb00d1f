"""A channel's frames on the wire, and nothing believed before it is checked.

Sender and receiver exchange msgpack frames: the sender's ``hello`` (its channel and
queue manager), the receiver's ``status`` (the last batch it committed) or ``refused``,
each ``batch`` of messages and the receiver's ``ok``. A channel listener's port is open
to anything that connects, so every frame is checked before use: bytes that are not
msgpack, a frame bigger than its limit, a frame of the wrong kind or shape, or a message
whose data does not start with an MQXQH, is a ``ProtocolError``. It ends that connection
only, with the error line a channel initiator writes for it, AMQ9504E "A protocol error
was detected for channel" (IBM MQ messages, AMQ9xxx; CSQX504E "Local protocol error" on
z/OS); the listener and its queue manager go on, and a real sender retries.

The limits: until the sender has named its channel a frame may hold ``HELLO_LIMIT``
bytes; after that ``FRAME_LIMIT`` (a batch of up to BATCHSZ messages).

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
from typing import Any

import msgpack
import trio

from actors.clock import current_virtual_clock
from coupling.wallclock import WallTimeoutError, within
from qsg import CMQC
from qsg.core.errors import QSGError
from qsg.core.structs import MD

#: The most a frame may hold before the sender has said which channel it is.
HELLO_LIMIT = 64 * 1024
#: The most any frame may hold (a batch: BATCHSZ messages and their descriptors).
FRAME_LIMIT = 1 << 30
#: BATCHSZ's largest value: no batch holds more messages.
MAX_BATCH = 9999
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
        self._unpacker = msgpack.Unpacker(raw=False, max_buffer_size=FRAME_LIMIT)
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
def hello(frame: dict[str, Any]) -> tuple[str, str, int | None]:
    """The sender's first flow: (its channel, its queue manager, its HBINT if it said)."""
    if frame["t"] != "hello":
        raise ProtocolError(f"a {_show(frame['t'])} flow where the channel start was due")
    channel = _field(frame, "channel", str)
    sender = _field(frame, "from", str)
    if not 0 < len(channel) <= 20 or len(sender) > 48:
        raise ProtocolError(f"hello flow: channel {_show(channel)} from {_show(sender)}")
    hbint = _hbint(frame) if "hbint" in frame else None
    return channel, sender, hbint


def status(frame: dict[str, Any]) -> tuple[int, int | None]:
    """The receiver's answer to the hello: the last batch it committed, and the
    heartbeat interval agreed (if it said). A refusal is the channel refused (not a
    protocol error): the sender retries."""
    if frame["t"] == "refused":
        reason = frame.get("reason")
        raise ChannelBrokenError(reason if isinstance(reason, str) else "the receiver refused")
    if frame["t"] != "status":
        raise ProtocolError(f"a {_show(frame['t'])} flow where the channel status was due")
    committed: int = _field(frame, "committed", int)
    if committed < 0:
        raise ProtocolError(f"status flow: committed {committed}")
    return committed, _hbint(frame) if "hbint" in frame else None


def _hbint(frame: dict[str, Any]) -> int:
    hbint: int = _field(frame, "hbint", int)
    if not 0 <= hbint <= MAX_HBINT:
        raise ProtocolError(f"{frame['t']} flow: hbint {hbint}")
    return hbint


def heartbeat(frame: dict[str, Any]) -> None:
    """The receiver's answer to a heartbeat flow: a heartbeat."""
    if frame["t"] != "heartbeat":
        raise ProtocolError(f"a {_show(frame['t'])} flow where a heartbeat was due")


def confirmed(frame: dict[str, Any], sequence: int) -> None:
    """The receiver's confirmation of batch ``sequence``."""
    if frame["t"] != "ok" or frame.get("seq") != sequence:
        raise ProtocolError(f"the receiver did not confirm batch {sequence}: {_show(frame)}")


def batch(frame: dict[str, Any]) -> tuple[int, list[dict[str, Any]]]:
    """A batch: its sequence number and its messages, each with ``md`` (the transmission
    queue's descriptor, as an MD), ``data`` (MQXQH and body) and ``age`` (seconds since
    it left the transmission queue)."""
    if frame["t"] != "batch":
        raise ProtocolError(f"a {_show(frame['t'])} flow where a batch was due")
    sequence = _field(frame, "seq", int)
    messages = _field(frame, "messages", list)
    if not 0 < sequence < 2**63 or not 0 < len(messages) <= MAX_BATCH:
        raise ProtocolError(f"batch flow: batch {sequence} of {len(messages)} messages")
    return sequence, [_message(m) for m in messages]


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
    if len(data) < CMQC.MQXQH_LENGTH_1 or data[:4] != CMQC.MQXQH_STRUC_ID:
        raise ProtocolError("batch flow: a message whose data does not start with an MQXQH")
    return {"md": md, "data": data, "age": age}


__all__ = [
    "CONNECT_TIMEOUT",
    "DEFAULT_HBINT",
    "FRAME_LIMIT",
    "HELLO_LIMIT",
    "MAX_BATCH",
    "MAX_HBINT",
    "ChannelBrokenError",
    "ChannelTimeoutError",
    "Frames",
    "ProtocolError",
    "batch",
    "confirmed",
    "heartbeat",
    "hello",
    "log",
    "negotiated_hbint",
    "protocol_error_line",
    "real_io",
    "receive_timeout",
    "status",
    "timeout_line",
]
