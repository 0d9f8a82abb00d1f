"""Message channel agents: a sender on one queue manager, a receiver on its partner; a
server (the sender's agent, started by a command or by its requester) and a requester
(which asks its partner to start, then receives as a receiver does), as IBM pairs them
(``qsg.core.chltypes``).

The sender gets MQXQH-wrapped messages from its transmission queue in batches of up to
BATCHSZ (in syncpoint), ships them msgpack-framed over a stream to the receiver, and
commits only when the receiver has committed the batch: a channel that breaks mid-batch
neither loses nor duplicates a message. Each side keeps its sequence numbers where MQ
keeps them (SYSTEM.CHANNEL.SYNCQ, ``QueueManager.syncq``, surviving restarts), and a
sender whose batch is in doubt asks the receiver at the next start whether it committed.

Each message carries a message sequence number (``qsg.core.channels``): the sender's
hello says its last and how many are in doubt, and the receiver refuses a start whose
numbers do not agree with its own, and ends the channel at a batch that is not the next
(AMQ9526E), putting nothing of it. A receiving queue manager runs one agent a channel: a
hello for a channel already running is refused (AMQ9514E), as is one from a partner
queue manager its channel authentication records block (AMQ9777E).

The receiver unwraps each MQXQH and puts the message to its destination with its
remaining lifetime: both Expiry fields were decremented on the transmission queue (by the
get), and the time in transit is taken off here. A message whose lifetime ran out on the
way is discarded with its expiration report. A put that completes with a warning stored
its message; one that fails goes to the dead-letter queue behind an MQDLH, keeping its
remaining expiry; one that cannot go there either backs out its batch and stops the
channel, the message left on the sender's transmission queue (docs/channels.md).

A channel's partner is what its CONNAME names: a queue manager of the same world, reached
through an in-process stream pair (``trio.testing.memory_stream_pair``), or
``host(port)`` — a queue manager in another process whose listener accepts TCP
connections there (``Topology.add_qmgr(..., listener=port)``). The frames are the same
on both. Over TCP the sender's simulated time stands still while it connects and while
a batch awaits its confirmation (real I/O in flight, as for the coupling facility), and
each message travels with its age rather than a time stamp: the two processes' clocks
are not the same clock.

No wait on the partner is unbounded (docs/channels.md). Connecting and the channel's
start (the sender's hello answered by the receiver's status) take at most the queue
manager's connect timeout; from then on each end waits at most the receive timeout that
the agreed heartbeat interval (HBINT) gives, and a sender with nothing to send keeps the
link alive with a heartbeat flow every HBINT, answered by the receiver. A partner that
answers nothing for that long ends the channel with an AMQ9259E line: the sender retries
as after any broken link (RETRYING, then STOPPED), the receiver's agent ends (INACTIVE).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol, TypeVar

import trio
import trio.testing

from actors import clock, wire
from actors.costs import Costs
from actors.events import (
    ChannelBatch,
    ChannelDelivered,
    ChannelStateChanged,
    EventLog,
    ExpiredInTransit,
)
from actors.signals import Signals
from actors.wire import (
    ChannelBrokenError,
    ChannelEndedError,
    ChannelTimeoutError,
    Frames,
    real_io,
)
from coupling.errors import FACILITY_REASONS
from coupling.wallclock import WallTimeoutError, within
from qsg import CMQC, CMQCFC
from qsg.core import bugs, channels, chlevents, chltypes, conntag, expiry, sharedsync
from qsg.core.conname import DEFAULT_PORT, parse_conname
from qsg.core.errors import MQMIError, QSGError, reason_name
from qsg.core.layouts import XQH, read_inner_expiry
from qsg.core.message import Message
from qsg.core.objects import ChannelDefinition
from qsg.core.qmgr import QMgr
from qsg.core.structs import GMO, MD, OD, PMO, name_of

T = TypeVar("T")


@dataclass(slots=True)
class ChannelSync:
    """What MQ keeps in SYSTEM.CHANNEL.SYNCQ for one channel, surviving restarts: the
    sender's message sequence number (of the last message it sent: 0 before the first)
    and the MsgIds of its batch in doubt, whose last message that number is; the
    receiver's sequence number of the last message it committed."""

    sequence: int = 0
    in_doubt: list[bytes] | None = None
    committed: int = 0
    #: RESET CHANNEL on the sending end: the partner is told at the next start (the
    #: hello says so) and takes the sender's number as its own ("RESET CHANNEL").
    reset: bool = False


class SharedSync:
    """A shared channel's ``ChannelSync`` kept on SYSTEM.QSG.CHANNEL.SYNCQ
    (``qsg.core.sharedsync``), through the sending agent's open ``handle``."""

    def __init__(self, handle: Any, channel: str, receiving: bool = False) -> None:
        self.handle = handle
        self.channel = channel
        #: The receiving end of a shared inbound channel: its record is the sequence
        #: number it committed (``ChannelSync.committed``).
        self.receiving = receiving

    def load(self, now: float) -> ChannelSync:
        record = sharedsync.read(self.handle, self.channel, now, self.receiving)
        if self.receiving:
            return ChannelSync(committed=record.sequence)
        doubt = None if record.in_doubt is None else list(record.in_doubt)
        return ChannelSync(record.sequence, doubt, reset=record.reset)

    def save(self, sync: ChannelSync, now: float, *, syncpoint: bool = False) -> None:
        """Write ``sync`` as the record: at once, or (``syncpoint``) in the agent's unit
        of work, to be committed with its batch."""
        if self.receiving:
            record = sharedsync.SyncRecord(sync.committed)
        else:
            doubt = None if sync.in_doubt is None else tuple(sync.in_doubt)
            record = sharedsync.SyncRecord(sync.sequence, doubt, sync.reset)
        sharedsync.write(self.handle, self.channel, record, now, self.receiving, syncpoint)


def _keep(keeper: SharedSync | None, sync: ChannelSync, now: float) -> None:
    """Write ``sync`` where a shared channel keeps it (a private one's is in memory)."""
    if keeper is not None:
        keeper.save(sync, now)


class ChannelNetwork(Protocol):
    """What a channel agent uses of the world around its queue manager (``World``): the
    partners a CONNAME can name in process, the network's costs, the signals that wake
    a getter, and the event stream."""

    @property
    def qmgrs(self) -> Mapping[str, ChannelQueueManager]: ...
    @property
    def costs(self) -> Costs: ...
    @property
    def signals(self) -> Signals: ...
    @property
    def events(self) -> EventLog: ...
    @property
    def stopping(self) -> bool: ...

    def group_partner(self, conn_name: str) -> ChannelQueueManager | None:
        """The member a connection to ``conn_name`` reaches when it names a
        queue-sharing group's address (a group listener's choice); None when it names
        no group; ``ChannelBrokenError`` when no member listens for the group."""
        ...

    async def requested(self, q_mgr: str, channel: str, link: Frames | None) -> trio.Event:
        """A requester asked ``q_mgr`` to start its ``channel``: a server's agent starts
        on ``link`` (the requester's connection), a sender's (``link`` None) calls the
        requester back; shared or private by its transmission queue. The event its
        agent sets as it ends; ``ValueError`` (AMQ9514E, CSQX477E) or an ``MQMIError``
        when it cannot start."""
        ...


class ChannelQueueManager(Protocol):
    """What a channel agent uses of the queue manager it runs in (``QueueManager``), at
    either end: its rules, its dispatcher and the nursery of its life, whether it is
    alive or paused, its connect timeout, its SYSTEM.CHANNEL.SYNCQ, its senders'
    network links and its running receiving agents."""

    @property
    def name(self) -> str: ...
    @property
    def rules(self) -> QMgr: ...
    @property
    def world(self) -> ChannelNetwork: ...
    @property
    def alive(self) -> bool: ...
    @property
    def paused(self) -> trio.Event | None: ...
    @property
    def nursery(self) -> trio.Nursery: ...
    @property
    def connect_timeout(self) -> float: ...
    @property
    def syncq(self) -> dict[str, ChannelSync]: ...
    @property
    def links(self) -> dict[str, trio.abc.Stream]: ...
    @property
    def receivers(self) -> dict[str, str]: ...
    @property
    def inbound(self) -> set[trio.CancelScope]: ...
    @property
    def chinit(self) -> bool: ...

    #: Whether it reaches the coupling facility on a server (``CFLink.bridged``), which
    #: members in other processes may share.
    bridged: bool

    async def dispatch(self, call: Callable[[float], T], *, system: bool = False) -> T: ...


_GET_FIRST = CMQC.MQGMO_WAIT | CMQC.MQGMO_SYNCPOINT
_GET_MORE = CMQC.MQGMO_NO_WAIT | CMQC.MQGMO_SYNCPOINT

#: How often a shared channel's sending agent with nothing to send looks at its shared
#: transmission queue again when its queue manager reaches the facility on a server
#: (seconds; a model choice, as the IGQ agent's): a put by a member in another process
#: (``qsg chaos --processes``) wakes nobody here, and its message would otherwise wait
#: for the heartbeat (HBINT, 300 s by default).
LOOK_AGAIN = 1.0


def _state(qm: ChannelQueueManager, channel: str, state: str, detail: str = "") -> None:
    qm.world.events.emit(ChannelStateChanged(trio.current_time(), qm.name, channel, state, detail))


class EventingQueueManager(Protocol):
    """What channel events use of a queue manager (``actors.qmgr.QueueManager``)."""

    @property
    def rules(self) -> QMgr: ...
    @property
    def alive(self) -> bool: ...

    def dispatch_now(
        self, call: Callable[[float], T], now: float, shared: int, verb: str | None
    ) -> T: ...


def channel_events(qmgrs: Mapping[str, EventingQueueManager]) -> Callable[[object], None]:
    """The listener of the agents' state changes (``ChannelStateChanged``, from here, from
    STOP CHANNEL and from an agent ended abnormally) that puts their channel events
    (``qsg.core.chlevents``) where the queue manager's CHLEV is not DISABLED. The IGQ
    agent's changes name no channel definition and are no channel events."""

    def heard(event: object) -> None:
        if not isinstance(event, ChannelStateChanged):
            return
        qm = qmgrs.get(event.q_mgr)
        if qm is None or not qm.alive or qm.rules.channel_event == CMQCFC.MQEVR_DISABLED:
            return
        definition = qm.rules.local.channels.get(event.channel)
        if definition is None:
            return
        rules = qm.rules

        def changed(now: float) -> None:
            chlevents.state_changed(rules, definition, event.state, event.detail, now)

        qm.dispatch_now(changed, event.time, False, None)

    return heard


# ---- the sender --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Agreed:
    """What the two ends of a started channel agreed: the heartbeat interval (seconds,
    0 for none) and the batch size."""

    hbint: int
    batch_size: int


async def run_sender(
    qm: ChannelQueueManager,
    definition: ChannelDefinition,
    *,
    shared: bool = False,
    recovering: bool = False,
    link: Frames | None = None,
) -> None:
    """The sending MCA of ``definition`` (a sender, or a server) for this life of
    ``qm``: connect, resynchronise, send batches. A server a requester started
    (``link``, the requester's connection) says its hello over that connection first;
    when it breaks, a server without a CONNAME ends (INACTIVE: only its requester can
    start it again), one with a CONNAME calls the requester as a sender would. When
    the partner cannot be reached or the link breaks, retry after SHORTTMR (SHORTRTY
    times), then LONGTMR (LONGRTY times), then stop; when the receiver ends the
    channel for a message it can neither put nor dead-letter, stop.
    A ``shared`` channel keeps its sync record on SYSTEM.QSG.CHANNEL.SYNCQ
    (``SharedSync``), so that an instance started on another member (``recovering``
    one a failed member ran) carries on from it, once its connection is serialized
    (``_serialized``)."""
    if shared:
        serialized = await _serialized(qm, definition)
        if serialized is None:
            return
        conn = serialized
    else:
        conn = await qm.dispatch(
            lambda now: qm.rules.connect(appl_name=definition.name), system=True
        )
    keeper: SharedSync | None = None
    try:
        xmitq = await qm.dispatch(
            lambda now: conn.open(definition.xmit_q_name, CMQC.MQOO_INPUT_EXCLUSIVE), system=True
        )
        if shared:  # its record is on the group's SYSTEM.QSG.CHANNEL.SYNCQ
            handle = await qm.dispatch(
                lambda now: conn.open(sharedsync.SYNCQ, sharedsync.OPEN_OPTIONS), system=True
            )
            keeper = SharedSync(handle, definition.name)
            sync = await qm.dispatch(keeper.load, system=True)
        else:
            sync = qm.syncq.setdefault(definition.name, ChannelSync())
    except BaseException:
        # Ended before it bound (its queues out of reach, say): its connection ends, and
        # with it the connection tag it serialized by, or no later start could run.
        with trio.CancelScope(shield=True):
            await _let_go(qm, conn)
        raise
    if trio.current_effective_deadline() != -math.inf:
        # Not if STOP CHANNEL came while it bound (its scope cancelled, the steps above
        # not checkpoints): the channel is STOPPED, and a BINDING after it would show
        # it enabled to DISPLAY CHSTATUS and to its requester's request.
        _state(qm, definition.name, "BINDING")
    attempt = 0
    frames: Frames | None = None
    try:
        while True:
            try:
                if link is not None:  # the requester's connection: the hello goes on it
                    frames, link = link, None
                    frames.limit = wire.FRAME_LIMIT
                    await _hello(qm, definition, sync, frames)
                else:
                    frames = await _connect(qm, definition, sync)
                qm.links[definition.name] = frames.stream
                agreed = await _resynchronise(
                    qm, sync, conn, xmitq, frames, definition, keeper, recovering
                )
                frames.timeout = wire.receive_timeout(agreed.hbint)
                attempt = 0
                _state(qm, definition.name, "RUNNING")
                while True:
                    await _send_batch(qm, definition, sync, conn, xmitq, frames, agreed, keeper)
            except ChannelBrokenError as error:
                qm.links.pop(definition.name, None)
                if frames is not None:  # the link given up on goes now, so that the
                    # partner's agent of it ends and the retry is not refused as a second
                    # instance of the channel (AMQ9514E) until its receive timeout.
                    await trio.aclose_forcefully(frames.stream)
                    frames = None
                ended = isinstance(error, ChannelEndedError)

                def broken(now: float, ended: bool = ended) -> None:
                    if ended:  # the receiver backed the batch out before it said so
                        back = -len(sync.in_doubt or ())
                        sync.sequence = channels.following(sync.sequence, back)
                        sync.in_doubt = None
                        _keep(keeper, sync, now)
                    if sync.in_doubt is None:  # nothing sent for good: the batch goes back
                        conn.backout()

                await qm.dispatch(broken, system=True)
                why = str(error)
                if isinstance(error, ChannelTimeoutError):
                    why = wire.timeout_line(definition.name, definition.conn_name, error)
                    wire.log.error("%s: %s", qm.name, why)
                elif isinstance(error, wire.ProtocolError):  # as a receiver's agent does
                    why = wire.protocol_error_line(definition.name, definition.conn_name, why)
                    wire.log.error("%s: %s", qm.name, why)
                if isinstance(error, ChannelEndedError) and error.stop:
                    _state(qm, definition.name, "STOPPED", why)
                    return
                if not chltypes.callers(definition.channel_type, definition.conn_name):
                    _state(qm, definition.name, "INACTIVE", why)  # its requester restarts it
                    return
                attempt += 1
                wait = definition.retry_interval(attempt)
                if wait is None:
                    _state(qm, definition.name, "STOPPED", f"retries exhausted: {why}")
                    return
                _state(qm, definition.name, "RETRYING", why)
                await clock.sleep(wait)
    finally:
        with trio.CancelScope(shield=True):
            if frames is not None:
                if qm.alive:  # stopped, not killed: the close flow ends the partner's
                    # agent normally (its Channel Stopped is MQRQ_CHANNEL_STOPPED_OK).
                    with trio.move_on_after(qm.connect_timeout), suppress(ChannelBrokenError):
                        await frames.send({"t": "close"})
                await trio.aclose_forcefully(frames.stream)
            # Stopped, not killed: the agent's connection ends and its gets go back to
            # the transmission queue; a batch in doubt is settled at the next start.
            await _let_go(qm, conn)


async def _serialized(qm: ChannelQueueManager, definition: ChannelDefinition) -> Any | None:
    """The connection of a shared channel's sending MCA, serialized by its connection
    tag (IBM, "Channels and serialization": MCAs that process messages on shared queues
    "serialize their access to these queues by issuing the MQCONNX API call", so that a
    channel restarted elsewhere processes no committed message ahead of those peer
    recovery is still restoring). Refused while a failed member's life holds the tag,
    the channel says why and retries at its retry intervals (RETRYING), and stops once
    they are exhausted (None)."""
    attempt = 0
    while True:
        try:
            return await qm.dispatch(
                lambda now: qm.rules.connect_agent(
                    "CHL", definition.name, appl_name=definition.name
                ),
                system=True,
            )
        except conntag.NotSerializedError as refused:
            why = refused.line
        wire.log.error("%s: %s", qm.name, why)
        attempt += 1
        wait = definition.retry_interval(attempt)
        if wait is None:
            _state(qm, definition.name, "STOPPED", f"retries exhausted: {why}")
            return None
        _state(qm, definition.name, "RETRYING", why)
        await clock.sleep(wait)


#: Seconds between an ending agent's attempts to back its gets out while the coupling
#: facility is out of its queue manager's reach (a model choice).
LET_GO_RETRY = 1.0


async def _let_go(qm: ChannelQueueManager, conn: Any) -> None:
    """End the agent's connection: its unit of work backed out, its handles closed. With
    its transmission queue shared and the coupling facility out of reach, that fails;
    it is tried again until it succeeds (the gets stay locked meanwhile, and its open
    handle keeps the next instance out, as the serialization of a shared channel with
    its recovery does), unless the queue manager ends first or the world stops. The
    connection tag a shared channel's agent serialized by is freed in the registry
    then, or, if that is out of reach, by ``_release_later`` (the agent's end waits
    for nothing more)."""
    while qm.alive and not qm.world.stopping:
        try:
            await qm.dispatch(lambda now: conn.terminate(), system=True)
        except MQMIError as error:
            if error.reason not in FACILITY_REASONS:
                raise
            await clock.sleep(LET_GO_RETRY)
            continue
        if qm.rules.tags_unreleased:
            qm.nursery.start_soon(_release_later, qm)
        return


async def _release_later(qm: ChannelQueueManager) -> None:
    """Tell the registry, once it is in reach again, of the connection tags whose
    release found it out of reach: until then no other member could start the
    channel (chaos-shared.toml seed 1009883195 kept it stopped for good)."""
    while qm.alive and not qm.world.stopping:
        await clock.sleep(LET_GO_RETRY)
        if await qm.dispatch(lambda now: qm.rules.release_pending(), system=True):
            return


async def _connect(
    qm: ChannelQueueManager, definition: ChannelDefinition, sync: ChannelSync
) -> Frames:
    """The link to the partner, the hello sent: the start (the receiver's status) is
    awaited within the connect timeout. The hello carries what the receiver checks the
    start against: the sequence number of the last message sent and how many of them
    are in doubt."""
    frames = await _dial(qm, definition)
    await _hello(qm, definition, sync, frames)
    return frames


async def _dial(qm: ChannelQueueManager, definition: ChannelDefinition) -> Frames:
    """The link to the partner CONNAME names (a queue manager of the world, a group's
    address, or ``host(port)``), its waits bounded by the connect timeout."""
    partner = qm.world.qmgrs.get(definition.conn_name)
    group = None if partner is not None else qm.world.group_partner(definition.conn_name)
    if group is not None:  # through the group listener: a shared inbound channel
        frames = await _connect_in_process(group, definition, shared=True)
    elif partner is None:
        frames = await _connect_tcp(definition.conn_name, qm.connect_timeout)
    else:
        frames = await _connect_in_process(partner, definition)
    frames.timeout = qm.connect_timeout
    return frames


async def _hello(
    qm: ChannelQueueManager, definition: ChannelDefinition, sync: ChannelSync, frames: Frames
) -> None:
    """Say the hello on ``frames``: the caller's channel and type, and what the receiver
    checks the start against."""
    hello = {
        "t": "hello",
        "channel": definition.name,
        "from": qm.name,
        "hbint": definition.heartbeat_interval,
        "batchsz": definition.batch_size,
        "seq": sync.sequence,
        "doubt": len(sync.in_doubt or ()),
        **({"reset": True} if sync.reset else {}),
        **({"type": "SVR"} if definition.channel_type == CMQC.MQCHT_SERVER else {}),
    }
    try:
        await frames.send(hello)
    except BaseException:  # killed or stopped before it said hello: the link goes now,
        # not at the partner's connect timeout (its agent would wait for the hello).
        await trio.aclose_forcefully(frames.stream)
        raise


async def _connect_tcp(conn_name: str, seconds: float) -> Frames:
    """A partner in another process, at CONNAME host(port), within ``seconds``
    of wall time; a connect that fails is AMQ9202E ("Remote host not available, retry
    later"), as a channel writes it."""
    try:
        host, port = parse_conname(conn_name)
    except ValueError as error:
        raise ChannelBrokenError(str(error)) from None

    async def connect() -> trio.SocketStream:
        return await trio.open_tcp_stream(host, port)

    try:
        with real_io():
            stream = await within(seconds, connect)
    except WallTimeoutError:
        raise ChannelBrokenError(
            f"AMQ9202E: Remote host '{conn_name}' not available, retry later "
            f"(no connection within {seconds:g} s, the connect timeout)"
        ) from None
    except OSError as error:
        raise ChannelBrokenError(f"CONNAME({conn_name}): {error}") from error
    return Frames(stream, remote=True)


async def _connect_in_process(
    partner: ChannelQueueManager, definition: ChannelDefinition, *, shared: bool = False
) -> Frames:
    if not partner.alive:
        raise ChannelBrokenError(f"{definition.conn_name} is not running")
    ours, theirs = trio.testing.memory_stream_pair()
    try:
        partner.nursery.start_soon(partial(run_receiver, partner, theirs, shared=shared))
    except RuntimeError as error:  # its life is ending (the nursery is closing)
        raise ChannelBrokenError(f"{definition.conn_name} is stopping") from error
    return Frames(ours)


async def _resynchronise(
    qm: ChannelQueueManager,
    sync: ChannelSync,
    conn: Any,
    xmitq: Any,
    frames: Frames,
    definition: ChannelDefinition,
    keeper: SharedSync | None = None,
    recovering: bool = False,
) -> _Agreed:
    """Settle a batch left in doubt: commit it if the receiver committed it, else back
    it out. After a restart (or peer recovery, for a shared channel restarted on
    another member) its gets were already backed out, so a batch the receiver did
    commit is taken off the transmission queue again by MsgId. Returns what the
    receiver agreed (this end's values where it said none)."""
    answer = wire.status(await frames.reply())
    hbint = definition.heartbeat_interval if answer.hbint is None else answer.hbint
    theirs = definition.batch_size if answer.batch_size is None else answer.batch_size
    agreed = _Agreed(hbint, channels.negotiated_batch_size(definition.batch_size, theirs))
    if sync.reset:  # the partner took the reset number: it is told once

        def told(now: float) -> None:
            sync.reset = False
            _keep(keeper, sync, now)

        await qm.dispatch(told, system=True)
    msg_ids = sync.in_doubt or []
    start = channels.at_start(answer.committed, sync.sequence, len(msg_ids))
    if isinstance(start, channels.Mismatch):  # a receiver checks this before it answers
        raise ChannelBrokenError(start.line(definition.name, definition.conn_name))
    if start is channels.Start.IN_SYNC:
        return agreed
    delivered = start is channels.Start.COMMIT
    if delivered and recovering and bugs.DUPLICATE_ON_CHANNEL_RECOVERY in bugs.ACTIVE:
        delivered = False  # the bug: the recovered instance sends its batch again

    def settle(now: float) -> None:
        if conn.uow.count:  # this life's gets are still held: end them
            conn.commit() if delivered else conn.backout()
        elif delivered:
            _remove(xmitq, msg_ids, now)
        sync.sequence = answer.committed
        sync.in_doubt = None
        _keep(keeper, sync, now)

    await qm.dispatch(settle, system=True)
    return agreed


def _remove(xmitq: Any, msg_ids: list[bytes], now: float) -> None:
    """Take a delivered batch's messages off the transmission queue, by MsgId."""
    for msg_id in msg_ids:
        gmo = GMO(Options=CMQC.MQGMO_NO_SYNCPOINT, MatchOptions=CMQC.MQMO_MATCH_MSG_ID)
        try:
            xmitq.get(None, MD(MsgId=msg_id), gmo, now=now)
        except MQMIError as error:
            if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
                raise


async def _send_batch(
    qm: ChannelQueueManager,
    definition: ChannelDefinition,
    sync: ChannelSync,
    conn: Any,
    xmitq: Any,
    frames: Frames,
    agreed: _Agreed,
    keeper: SharedSync | None = None,
) -> None:
    world = qm.world
    store = xmitq.repository.store
    batch: list[dict[str, Any]] = []
    beat: float | None = None  # when the heartbeat is due (nothing to send till then)
    while len(batch) < agreed.batch_size:
        md = MD()
        gmo = GMO(Options=_GET_MORE if batch else _GET_FIRST)

        def get(now: float, md: MD = md, gmo: GMO = gmo) -> bytes:
            return xmitq.get(None, md, gmo, now=now)  # type: ignore[no-any-return]

        try:
            data = await qm.dispatch(get, system=True)
        except MQMIError as error:
            if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
                raise
            if batch:
                break
            # A put by another process wakes no one: a shared one looks again meanwhile,
            # the heartbeat due HBINT after it found nothing first.
            looking = keeper is not None and qm.bridged
            if beat is None or not looking:
                hbint = agreed.hbint
                beat = trio.current_time() + hbint if hbint else math.inf
            look = min(beat, trio.current_time() + LOOK_AGAIN) if looking else beat
            await world.signals.wait(store, xmitq.queue, look)
            if trio.current_time() >= beat:  # nothing to send for HBINT
                await _heartbeat(qm, frames)
                beat = None
            continue
        batch.append({"md": md.get(), "data": data, "at": trio.current_time()})
    size = sum(len(m["data"]) for m in batch)
    began = batch[0]["at"]
    transit = world.costs.transit(size)
    if transit:
        await clock.sleep(transit)
    # Each message is numbered one more than the last ("Channel message sequence
    # numbering"); the batch goes with its first number and is confirmed by its last.
    first = channels.following(sync.sequence)
    last = channels.following(sync.sequence, len(batch))
    # The batch and its end-of-batch flow travel together: once sent, it is in doubt
    # (a shared channel's record says so on SYSTEM.QSG.CHANNEL.SYNCQ before it goes).
    sync.in_doubt = [m["md"]["MsgId"] for m in batch]
    sync.sequence = last
    if keeper is not None:
        await qm.dispatch(partial(_keep, keeper, sync), system=True)
    sent = trio.current_time()
    for message in batch:  # its age: how long since it left the transmission queue
        message["age"] = sent - message.pop("at")
    await frames.send({"t": "batch", "seq": first, "messages": batch})
    wire.confirmed(await frames.reply(), last)

    def commit(now: float) -> None:  # the batch and its record, in one unit of work
        sync.in_doubt = None
        if keeper is not None:
            keeper.save(sync, now, syncpoint=True)
        conn.commit()

    await qm.dispatch(commit, system=True)
    now = trio.current_time()
    world.events.emit(
        ChannelBatch(now, qm.name, definition.name, last, len(batch), size, now - began)
    )


async def _heartbeat(qm: ChannelQueueManager, frames: Frames) -> None:
    """A heartbeat flow, answered by the receiver: the link is alive. A paused queue
    manager (stopped, as under SIGSTOP) sends none until it wakes."""
    while qm.paused is not None:
        await qm.paused.wait()
    await frames.send({"t": "heartbeat"})
    wire.heartbeat(await frames.reply())


# ---- a rogue partner (the chaos fault) ----------------------------------------------------
async def rogue_partner(
    qm: ChannelQueueManager, definition: ChannelDefinition, offset: int, conn_name: str = ""
) -> str:
    """A peer that starts ``qm``'s sender channel ``definition`` at its partner, as the
    channel (its name, ``qm``'s name, the sender's own sequence number), and sends one
    batch numbered ``offset`` from the last message the sender sent: 0 replays it, a
    negative number goes back, 2 or more skips ahead. It reaches the partner as the real
    sender does, or at ``conn_name`` (the partner's listener) over TCP. The answer, as a
    line: the start refused (AMQ9514E while the real channel runs, AMQ9526E when the
    numbers disagree), the batch refused (AMQ9526E), or "ACCEPTED", which no offset
    but 1 may get: its forged message would be put."""
    sync = qm.syncq.get(definition.name, ChannelSync())
    first = (sync.sequence + offset) % (channels.DEFAULT_SEQWRAP + 1)
    partner = qm.world.qmgrs.get(definition.conn_name)
    try:
        if conn_name or partner is None:
            frames = await _connect_tcp(conn_name or definition.conn_name, qm.connect_timeout)
        else:
            frames = await _connect_in_process(partner, definition)
    except ChannelBrokenError as error:
        return f"no partner to reach: {error}"
    frames.timeout = qm.connect_timeout
    data = XQH(b"ROGUE.PARTNER", definition.conn_name.encode()[:48], MD()).pack() + b"rogue"
    hello = {"t": "hello", "channel": definition.name, "from": qm.name, "seq": sync.sequence}
    forged = {"t": "batch", "seq": first, "messages": [{"md": {}, "data": data, "age": 0}]}
    try:
        await frames.send(hello)
        answer = await frames.reply()
        if answer.get("t") != "status":
            return f"start refused: {answer.get('reason', answer.get('t'))}"
        await frames.send(forged)
        answer = await frames.reply()
    except ChannelBrokenError as error:
        return f"batch {first} refused: the partner closed the link ({error})"
    finally:
        await trio.aclose_forcefully(frames.stream)
    if answer.get("t") == "ok":
        return f"ACCEPTED batch {first} (the sender's last was {sync.sequence})"
    return f"batch {first} refused: {answer.get('reason', answer.get('t'))}"


# ---- the receiver ------------------------------------------------------------------------
async def run_receiver(
    qm: ChannelQueueManager, stream: trio.abc.Stream, *, shared: bool = False
) -> None:
    """The receiving MCA for one connection from a sender (through the listener, from
    anyone). The start is refused for a partner channel authentication blocks
    (AMQ9777E), for a channel already running here (AMQ9514E) and for sequence numbers
    that do not agree (AMQ9526E). A flow the protocol does not allow, a batch out of
    sequence, or a message that can be neither put nor dead-lettered ends this
    connection with its error line; nothing else. A ``shared`` one came through the
    group listener: its committed sequence number is on SYSTEM.QSG.CHANNEL.SYNCQ, so
    that its sender, reconnecting to another member, finds it there."""
    scope = trio.CancelScope()  # its channel initiator's end ends it
    qm.inbound.add(scope)
    try:
        with scope:
            await _receive(qm, stream, shared)
    finally:
        qm.inbound.discard(scope)
        await trio.aclose_forcefully(stream)


async def _receive(
    qm: ChannelQueueManager,
    stream: trio.abc.Stream,
    shared: bool,
    *,
    frames: Frames | None = None,
    said: dict[str, Any] | None = None,
    requester: str = "",
) -> None:
    """The receiving MCA on one connection: a sender's or a server's hello (``said``,
    if it was read already), or a requester's request (``_requested``). ``requester``:
    the requester channel of this queue manager whose connection this is (its server's
    hello is due on it)."""
    frames = frames or Frames(stream, limit=wire.HELLO_LIMIT, timeout=qm.connect_timeout)
    name = ""
    running = False
    conn = None
    try:
        frame = said or await frames.receive()
        if frame["t"] == "request" and not requester:
            await _requested(qm, frames, wire.request(frame))
            return
        hello = wire.hello(frame)
        name = hello.channel
        if requester and name != requester:
            raise wire.ProtocolError(f"a hello for {name} on requester {requester}'s connection")
        definition = qm.rules.local.channels.get(name)
        if not qm.chinit:
            await frames.send(
                {"t": "refused", "reason": f"the channel initiator of {qm.name} is not active"}
            )
            return
        if definition is None:
            await frames.send({"t": "refused", "reason": f"no RCVR channel {name} on {qm.name}"})
            return
        if not chltypes.suitable(hello.channel_type, definition.channel_type):
            line = chltypes.unsuitable_line(
                name, hello.channel_type, definition.channel_type, qm.name
            )
            wire.log.error("%s: %s", qm.name, line)
            await frames.send({"t": "refused", "reason": line})
            return
        remote = frames.peer or "its sender"
        keeper: SharedSync | None = None
        if shared:  # serialized as a shared sender's agent is (``_serialized``)
            try:
                mca = await qm.dispatch(
                    lambda now: qm.rules.connect_agent("CHL", name, appl_name=name), system=True
                )
            except conntag.NotSerializedError as refused:
                wire.log.error("%s: %s", qm.name, refused.line)
                await frames.send({"t": "refused", "reason": refused.line})
                return
            conn = mca
            handle = await qm.dispatch(
                lambda now: mca.open(sharedsync.SYNCQ, sharedsync.OPEN_OPTIONS), system=True
            )
            keeper = SharedSync(handle, name, receiving=True)
            sync = await qm.dispatch(keeper.load, system=True)
        else:
            sync = qm.syncq.setdefault(name, ChannelSync())
        if hello.reset and name not in qm.receivers:  # RESET CHANNEL at the sending end
            sync.committed = hello.sequence
            if keeper is not None:
                await qm.dispatch(partial(keeper.save, sync), system=True)
        refusal = _refusal(qm, hello, remote, sync)
        if refusal is not None:
            wire.log.error("%s: %s", qm.name, refusal)
            if requester:  # the requester's agent ends with it: it does not retry
                _state(qm, name, "STOPPED", refusal)
            await frames.send({"t": "refused", "reason": refusal})
            return
        # Invariant: one receiving agent a channel; checked and taken with no await
        # between, so two hellos cannot both pass.
        qm.receivers[name] = remote
        running = True
        ours = definition.heartbeat_interval
        hbint = wire.negotiated_hbint(ours, ours if hello.hbint is None else hello.hbint)
        theirs = definition.batch_size if hello.batch_size is None else hello.batch_size
        batch_size = channels.negotiated_batch_size(definition.batch_size, theirs)
        answer = {"t": "status", "committed": sync.committed, "hbint": hbint, "batchsz": batch_size}
        await frames.send(answer)
        frames.limit = wire.frame_limit(batch_size, qm.rules.rules.max_msg_length)
        frames.timeout = wire.receive_timeout(hbint)
        if conn is None:
            conn = await qm.dispatch(lambda now: qm.rules.connect(appl_name=name), system=True)
        _state(qm, name, "RUNNING")
        while True:
            frame = await frames.receive()
            if frame["t"] == "close":  # the sender ended the channel: so does this end
                _state(qm, name, "INACTIVE")
                return
            if frame["t"] == "heartbeat":  # answered as the queue manager can
                while qm.paused is not None:
                    await qm.paused.wait()
                await frames.send({"t": "heartbeat"})
                continue
            first, messages = wire.batch(frame, batch_size)
            arrived = trio.current_time()
            for message in messages:  # when it left the transmission queue
                message["at"] = arrived - message.pop("age")
            ended = await _deliver(qm, name, remote, conn, messages, sync, first, keeper)
            if ended is not None:  # the batch was backed out: the channel ends
                line, stop = ended
                _ended(qm, name, line)
                await frames.send({"t": "error", "reason": line, "stop": stop})
                return
            confirm = qm.world.costs.channel_latency  # the confirmation's trip back
            if confirm:
                await clock.sleep(confirm)
            await frames.send({"t": "ok", "seq": sync.committed})
    except wire.ProtocolError as error:
        _ended(qm, name, wire.protocol_error_line(name, frames.peer or "its sender", str(error)))
    except ChannelTimeoutError as error:
        _ended(qm, name, wire.timeout_line(name, frames.peer or "its sender", error))
    except ChannelBrokenError as error:
        # The link went without the sender's close: this end ends on an error (the
        # sender resynchronises when it comes back).
        if running:
            _ended(qm, name, closed_line(name, frames.peer or "its sender", str(error)))
    except MQMIError as error:  # a shared one's sync record out of reach: this agent ends
        if not shared:
            raise
        _ended(qm, name, f"AMQ9999E: Channel '{name}' ended abnormally: {error}")
    finally:
        if running:
            del qm.receivers[name]
        if shared and conn is not None:  # its connection tag goes with its connection
            with trio.CancelScope(shield=True):
                await _let_go(qm, conn)


async def _requested(qm: ChannelQueueManager, frames: Frames, request: wire.Request) -> None:
    """A requester asked this queue manager to start its channel (IBM, "Requester-server
    channel"): a server's agent starts and sends on this connection, which is closed
    when the agent ends; a sender's is started to call the requester back, and this
    connection ends with ``callback``. Refused, in one line: no such channel here
    (AMQ9520E), a type a requester cannot start (AMQ9547E), a partner channel
    authentication blocks (AMQ9777E), a channel that runs already (AMQ9514E,
    CSQX477E)."""
    name = request.channel
    remote = frames.peer or "its requester"
    definition = qm.rules.local.channels.get(name)
    refusal = None
    if not qm.chinit:
        refusal = f"the channel initiator of {qm.name} is not active"
    elif definition is None:
        refusal = f"AMQ9520E: Channel '{name}' not defined remotely (none on {qm.name})"
    elif not chltypes.suitable(CMQC.MQCHT_REQUESTER, definition.channel_type):
        refusal = chltypes.unsuitable_line(
            name, CMQC.MQCHT_REQUESTER, definition.channel_type, qm.name
        )
    elif channels.blocking(qm.rules.channel_auth, name, request.q_mgr) is not None:
        refusal = channels.blocked_line(name, remote, request.q_mgr)
    if refusal is None:
        assert definition is not None
        callback = definition.channel_type == CMQC.MQCHT_SENDER
        try:
            ended = await qm.world.requested(qm.name, name, None if callback else frames)
        except (ValueError, MQMIError) as error:
            refusal = str(error)
        else:
            if callback:  # the sender calls the requester back on a connection of its own
                await frames.send({"t": "callback"})
                return
            # The server's agent has the connection now; the listener closes it when
            # this handler returns (trio's serve_tcp), so this waits for the agent's end.
            await ended.wait()
            return
    wire.log.error("%s: %s", qm.name, refusal)
    await frames.send({"t": "refused", "reason": refusal})


# ---- the requester -----------------------------------------------------------------------
async def run_requester(qm: ChannelQueueManager, definition: ChannelDefinition) -> None:
    """The requester's MCA (CHLTYPE(RQSTR)): call the partner at CONNAME and ask it to
    start the channel (REQUESTING). A server answers with its hello on this connection,
    and this agent receives from it as a receiver does; a sender answers ``callback``
    and calls back (its hello starts a receiving agent here, as any inbound channel's).
    A requester does not retry (SHORTRTY and LONGRTY are a sender's and a server's): a
    partner out of reach, or a refusal, ends it STOPPED with the line that says why; a
    connection that ends, INACTIVE, as a receiving agent ends."""
    name = definition.name
    _state(qm, name, "REQUESTING")
    frames: Frames | None = None
    try:
        try:
            frames = await _dial(qm, definition)
            await frames.send({"t": "request", "channel": name, "from": qm.name})
            answer = await frames.reply()
        except ChannelBrokenError as error:
            why = str(error)
            if isinstance(error, ChannelTimeoutError):
                why = wire.timeout_line(name, definition.conn_name, error)
            wire.log.error("%s: %s", qm.name, why)
            _state(qm, name, "STOPPED", why)
            return
        if answer["t"] == "callback":
            return  # the sender's hello starts this end's receiving agent
        if answer["t"] != "hello":
            why = str(answer.get("reason", f"a {answer['t']} flow where the start was due"))
            wire.log.error("%s: %s", qm.name, why)
            _state(qm, name, "STOPPED", why)
            return
        await _receive(qm, frames.stream, False, frames=frames, said=answer, requester=name)
    finally:
        if frames is not None:
            await trio.aclose_forcefully(frames.stream)


def _refusal(
    qm: ChannelQueueManager, hello: wire.Hello, remote: str, sync: ChannelSync
) -> str | None:
    """Why the channel may not start, as the line the receiving end writes; None if it
    may: a partner queue manager blocked by channel authentication (AMQ9777E), an
    instance of the channel already running (AMQ9514E, "Channel is in use"), or
    sequence numbers that do not agree (AMQ9526E)."""
    if channels.blocking(qm.rules.channel_auth, hello.channel, hello.q_mgr) is not None:
        return channels.blocked_line(hello.channel, remote, hello.q_mgr)
    if hello.channel in qm.receivers:
        return in_use_line(hello.channel, f"running for {qm.receivers[hello.channel]}")
    start = channels.at_start(sync.committed, hello.sequence, hello.in_doubt)
    if isinstance(start, channels.Mismatch):
        return start.line(hello.channel, remote)
    return None


def in_use_line(channel: str, why: str) -> str:
    """AMQ9514E, "Channel is in use": "The requested operation failed because channel
    ... is currently active"."""
    return f"AMQ9514E: Channel '{channel}' is in use: it is currently active ({why})"


def closed_line(channel: str, remote: str, why: str) -> str:
    """AMQ9209E, "Connection to host ... for channel ... closed": the link to the
    partner ended without the channel's close flow."""
    return f"AMQ9209E: Connection to host '{remote}' for channel '{channel}' closed: {why}"


def _ended(qm: ChannelQueueManager, channel: str, line: str) -> None:
    """A receiving agent ended by an error: its line in the log and in the events."""
    wire.log.error("%s: %s", qm.name, line)
    _state(qm, channel, "INACTIVE", line)


class _UndeliverableError(QSGError, RuntimeError):
    """A message the receiver could neither put nor dead-letter: its batch is backed
    out and the channel stops, the message left on the sender's transmission queue."""


async def _deliver(
    qm: ChannelQueueManager,
    channel: str,
    remote: str,
    conn: Any,
    batch: list[dict[str, Any]],
    sync: ChannelSync,
    first: int,
    keeper: SharedSync | None = None,
) -> tuple[str, bool] | None:
    """Check a batch's sequence number, put it to its destinations and commit it, as
    one step of the queue manager (so no kill can land inside it); then record it
    committed. A batch out of sequence (AMQ9526E, the channel retries) or with a
    message neither put nor dead-lettered (the channel stops) is backed out: then the
    line that says why, and whether the channel stops."""
    delivered: list[ChannelDelivered | ExpiredInTransit] = []
    touched: list[tuple[Any, str]] = []

    def deliver(now: float) -> tuple[str, bool] | None:
        if keeper is not None:
            # A shared inbound channel checks the batch against the group's record, not
            # this instance's memory: an instance on another member may have committed
            # since (this one paused with the batch in hand, its sender moved on).
            try:
                sync.committed = keeper.load(now).committed
            except MQMIError as error:
                return f"AMQ9999E: Channel '{channel}' ended abnormally: {error}", False
        mismatch = channels.check_batch(sync.committed, first)
        if mismatch is not None:
            return mismatch.line(channel, remote), False
        try:
            if keeper is not None:  # a shared inbound channel's record, in the batch's
                # unit of work, first: if it cannot be written, nothing is put (nor
                # dead-lettered, which happens outside the unit of work)
                last = channels.following(first, len(batch) - 1)
                keeper.save(ChannelSync(committed=last), now, syncpoint=True)
            for message in batch:
                outcome = _put_one(qm, channel, conn, message, now)
                if isinstance(outcome, tuple):
                    touched.append(outcome[0])
                    delivered.append(outcome[1])
                elif outcome is not None:
                    delivered.append(outcome)
        except _UndeliverableError as error:  # the batch goes back, and stays there
            conn.backout()
            touched.clear()
            delivered.clear()
            return str(error), True
        except MQMIError as error:  # its sync record cannot be written: nothing is put
            if keeper is None:
                raise
            conn.backout()
            touched.clear()
            delivered.clear()
            return (
                f"AMQ9999E: Channel '{channel}' ended abnormally, its batch backed out: {error}",
                False,
            )
        conn.commit()
        sync.committed = channels.following(first, len(batch) - 1)
        return None

    ended = await qm.dispatch(deliver, system=True)
    for event in delivered:
        qm.world.events.emit(event)
    for store, queue in touched:
        qm.world.signals.notify(store, queue)
    return ended


def _put_one(
    qm: ChannelQueueManager, channel: str, conn: Any, message: dict[str, Any], now: float
) -> tuple[tuple[Any, str], ChannelDelivered] | ExpiredInTransit | None:
    """Unwrap one message and put it where its MQXQH says, or discard or dead-letter it."""
    outer: MD = message["md"]  # checked by wire.batch, as the data's MQXQH
    data: bytes = message["data"]
    header = XQH.unpack(data, outer.Encoding)
    md = header.MsgDesc
    body = data[CMQC.MQXQH_LENGTH_1 :]
    inner = read_inner_expiry(data, outer.Encoding)
    if inner is not None and inner != CMQC.MQEI_UNLIMITED:
        left = expiry.remaining(expiry.expires_at(message["at"], inner), now)
        if left <= 0:  # its lifetime ran out on the way
            msg = Message(md.get(), body, message["at"], message["at"], 0)
            qm.rules.discarded(_name(header.RemoteQName), [msg], "transit", now)
            return ExpiredInTransit(now, qm.name, channel, md.MsgId)
        md.Expiry = left
    target = _name(header.RemoteQName)
    target_qmgr = _name(header.RemoteQMgrName)
    od = OD(ObjectName=target.encode("latin-1"), ObjectQMgrName=target_qmgr.encode("latin-1"))
    try:
        handle = conn.open(od, CMQC.MQOO_OUTPUT | CMQC.MQOO_SET_ALL_CONTEXT)
        try:
            _put(handle, body, md, now)
        finally:
            handle.close()
    except MQMIError as error:  # MQCC_FAILED: to the dead-letter queue, behind an MQDLH
        if qm.rules.dead_letter(md, body, error.reason, target, target_qmgr, now):
            return None
        raise _UndeliverableError(_undeliverable_line(qm, channel, target, error)) from None
    delivered = ChannelDelivered(
        now, qm.name, channel, handle.queue, md.MsgId, len(body), md.Expiry
    )
    return (handle.repository.store, handle.queue), delivered


def _put(handle: Any, body: bytes, md: MD, now: float) -> None:
    """The MCA's MQPUT: a put that completes with a warning stored its message
    (``channels.put_completed``), and is delivered as any other."""
    pmo = PMO(Options=CMQC.MQPMO_SYNCPOINT | CMQC.MQPMO_SET_ALL_CONTEXT)
    try:
        handle.put(body, md, pmo, now=now)
    except MQMIError as error:
        if not channels.put_completed(error):
            raise


def _undeliverable_line(
    qm: ChannelQueueManager, channel: str, target: str, error: MQMIError
) -> str:
    """Why the channel stops: no dead-letter queue (AMQ9565E, "No dead-letter queue
    defined"), or one the message could not be put to either (AMQ9999E, "Channel
    program ended abnormally")."""
    why = f"a message could not be put to {target} ({reason_name(error.reason)} ({error.reason}))"
    dlq = qm.rules.dead_letter_queue
    if not dlq:
        return (
            f"AMQ9565E: No dead-letter queue defined for queue manager '{qm.name}': "
            f"channel '{channel}' stops, its batch backed out: {why}"
        )
    return (
        f"AMQ9999E: Channel '{channel}' ended abnormally, its batch backed out: {why}, "
        f"nor to the dead-letter queue {dlq}"
    )


def _name(field: bytes) -> str:
    """A name from an MQXQH, byte for byte (latin-1): one that is not a valid MQ name
    fails to resolve and its message is dead-lettered, as any unknown destination."""
    return name_of(field).decode("latin-1")


__all__ = [
    "DEFAULT_PORT",
    "ChannelBrokenError",
    "ChannelEndedError",
    "ChannelNetwork",
    "ChannelQueueManager",
    "ChannelSync",
    "in_use_line",
    "parse_conname",
    "rogue_partner",
    "run_receiver",
    "run_requester",
    "run_sender",
]
