"""pymqi's ``QueueManager`` and ``connect``, reaching the simulated queue managers.

Which queue manager a connection reaches (``attach``):

- ``conn_info`` (a CONNAME: ``host(port)``, or a comma-separated list of them, tried in
  order as an MQ client does) that names a scenario queue manager's listener reaches
  that queue manager; the queue manager name given with it must then be that one's, its
  QSG's, or blank (otherwise MQRC_Q_MGR_NAME_ERROR, as a client gets from a listener of
  another queue manager). A CONNAME naming no listener of the scenario is passed over,
  so pymqi's examples (``127.0.0.1(1414)``) run unchanged by queue-manager name.
- a queue manager's name reaches it;
- a queue-sharing group's name attaches to one of its active members, as z/OS group
  attach does: a member picked at random among those running, with a generator seeded
  from the run's seed (the same seed, the same choice);
- anything else is MQRC_Q_MGR_NAME_ERROR (2058); blank with no listener matched is
  MQRC_HOST_NOT_AVAILABLE (2538), as a client finds nothing at the address. A queue
  manager that is down is MQRC_Q_MGR_NOT_AVAILABLE (2059); a QSG with no member running
  too.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Coroutine
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from qsg.core import structs as core
from qsg.core.conname import parse_conname
from qsg.core.conntag import ConnectOptions
from qsg.core.errors import MQMIError as CoreError
from qsg.pymqi import CMQC, bridge, convert, history, structs, unsupported
from qsg.pymqi.bridge import failed
from qsg.pymqi.errors import MQMIError, PYIFError
from qsg.pymqi.qmgr_attributes import qmgr_attribute

if TYPE_CHECKING:
    from actors.mqi import Connection
    from actors.qmgr import QueueManager as QueueManagerActor
    from actors.world import World

T = TypeVar("T")

#: The processing scope (z/OS: the address space) of the program's connections, which
#: MQCNO_RESTRICT_CONN_TAG_* lets share a connection tag.
PROGRAM_SCOPE = "qsg exec program"
#: pymqi's defaults for a ``str`` message: encoded so, and marked with this CCSID.
BYTES_ENCODING = "utf8"
DEFAULT_CCSID = core.CCSID_UTF8


def _text(value: str | bytes | None) -> str:
    if value is None:
        return ""
    if isinstance(value, bytes):
        value = value.decode("ascii", "replace")
    return value.strip(" \x00")


def choose(world: World, binding: bridge.Binding, name: str, conn_info: str) -> QueueManagerActor:
    """The queue manager a connect with ``name`` (and ``conn_info``) reaches; see the
    module's docstring."""
    matched = _by_conname(world, conn_info) if conn_info else None
    if matched is not None:
        if name and name not in (matched.name, matched.rules.qsg_name):
            raise failed(
                CMQC.MQRC_Q_MGR_NAME_ERROR,
                f"{conn_info} is {matched.name}'s listener, not {name}'s",
            )
        return matched
    if not name:
        raise failed(
            CMQC.MQRC_HOST_NOT_AVAILABLE if conn_info else CMQC.MQRC_Q_MGR_NAME_ERROR,
            f"no queue manager of the scenario listens at {conn_info}"
            if conn_info
            else "no default queue manager in a simulated world: name one",
        )
    if name in world.qmgrs:
        return world.qmgrs[name]
    if name in world.qsgs:
        members = [world.qmgrs[m] for m in world.qsgs[name].members if m in world.qmgrs]
        running = [qm for qm in members if qm.alive]
        if not running:
            raise failed(
                CMQC.MQRC_Q_MGR_NOT_AVAILABLE, f"no member of queue-sharing group {name} is running"
            )
        return binding.random.choice(running)
    raise failed(
        CMQC.MQRC_Q_MGR_NAME_ERROR,
        f"no queue manager or queue-sharing group {name} in the scenario",
    )


def _alive(conn: Connection) -> bool:
    """Whether ``conn`` still reaches the life of its queue manager it was made in."""
    return conn.qm.alive and conn.incarnation == conn.qm.incarnation


def _by_conname(world: World, conn_info: str) -> QueueManagerActor | None:
    for entry in conn_info.split(","):
        try:
            where = parse_conname(entry)
        except ValueError:
            raise failed(
                CMQC.MQRC_HOST_NOT_AVAILABLE, f"CONNAME {entry.strip()!r} is not host(port)"
            ) from None
        for qm in world.qmgrs.values():
            if qm.listener is not None and _same_address(qm.listener, where):
                return qm
    return None


def _same_address(listener: tuple[str, int], where: tuple[str, int]) -> bool:
    local = {"127.0.0.1", "localhost", "::1"}
    host, port = listener
    if port != where[1]:
        return False
    return host == where[0] or (host in local and where[0] in local)


def _connect_options(opts: int, cno: structs.CNO | None, *, client: bool) -> ConnectOptions:
    """What MQCONNX serializes by: ``ibmmq``'s ``cno`` (its Options, and its ConnTag
    from Version 3 on, as MQ reads it), else pymqi's ``opts`` with no tag. Every
    connection of the program is in one processing scope, its process."""
    if cno is None:
        return ConnectOptions(options=opts, client=client, space=PROGRAM_SCOPE)
    tag = cno.ConnTag.encode() if isinstance(cno.ConnTag, str) else bytes(cno.ConnTag)
    if cno.Version < CMQC.MQCNO_VERSION_3:
        tag = CMQC.MQCT_NONE  # "This field is ignored if Version is less than 3"
    return ConnectOptions(options=cno.Options, tag=tag, client=client, space=PROGRAM_SCOPE)


class QueueManager:
    """pymqi's ``QueueManager``: connected at once to ``name`` unless it is None (then
    by ``connect``, ``connect_with_options`` or ``connect_tcp_client``)."""

    def __init__(
        self,
        name: str | bytes | None = "",
        disconnect_on_exit: bool = True,
        bytes_encoding: str = BYTES_ENCODING,
        default_ccsid: int = DEFAULT_CCSID,
    ) -> None:
        self._conn: Connection | None = None
        self._bound: bridge.Binding | None = None  # the run its connection is in
        self._name = name
        self._client = False  # connected as a client (through a channel)
        self._thread: threading.Thread | None = None
        self.disconnect_on_exit = disconnect_on_exit
        self.bytes_encoding = bytes_encoding
        self.default_ccsid = default_ccsid
        if name is not None:
            self.connect(name)

    # ---- connecting --------------------------------------------------------------------
    def connect(self, name: str | bytes) -> None:
        """MQCONN to ``name`` (a queue manager's or a queue-sharing group's)."""
        self._connect(_text(name), "", client=False)

    def connect_with_options(self, name: str | bytes, *args: Any, **kwargs: Any) -> None:
        """MQCONNX: ``opts`` (MQCNO_*), ``cd`` (a CD whose ConnectionName is used),
        ``sco``, ``user`` and ``password``; the old form ``(name, cd[, sco])`` too; and
        ``ibmmq``'s ``cno`` (a CNO, whose Options are taken instead of ``opts``, as
        ``ibmmq`` does, and whose ConnTag a MQCNO_*_CONN_TAG_* option serializes by:
        ``qsg.core.conntag``) and ``csp`` (a CSP, whose user and password are taken
        instead of ``user`` and ``password``)."""
        if args:
            if len(args) > 2:
                raise TypeError(f"Invalid options: {args}")
            kwargs["cd"] = args[0]
            if len(args) == 2:
                kwargs["sco"] = args[1]
        user, password = kwargs.get("user"), kwargs.get("password")
        cno, csp = kwargs.get("cno"), kwargs.get("csp")
        if cno is not None and not isinstance(cno, structs.CNO):
            raise TypeError("cno must be an instance of CNO")
        if csp is not None:
            if not isinstance(csp, structs.CSP):
                raise TypeError("csp must be an instance of CSP")
            user, password = csp.CSPUserId, csp.CSPPassword
        if user:
            if password is None:
                raise ValueError("Password must not be None if user is provided")
            if not (isinstance(user, str | bytes) and isinstance(password, str | bytes)):
                raise ValueError("Both user and password must be instances of str or bytes")
        cd = kwargs.get("cd")
        for packed in (cd, kwargs.get("sco"), cno, csp):
            if packed is not None:
                packed.pack()  # pymqi packs them for MQCONNX: its errors come here
        conn_info = _text(getattr(cd, "ConnectionName", b"")) if cd is not None else ""
        self._connect(
            _text(name),
            conn_info,
            client=cd is not None,
            user=_text(user) or None,
            cno=_connect_options(kwargs.get("opts", CMQC.MQCNO_NONE), cno, client=cd is not None),
        )

    connectWithOptions = connect_with_options

    def connect_tcp_client(
        self,
        name: str | bytes,
        cd: Any,
        channel: str | bytes,
        conn_name: str | bytes,
        user: str | bytes | None = None,
        password: str | bytes | None = None,
        **kwargs: Any,
    ) -> None:
        """MQCONNX as a TCP client through ``channel`` to ``conn_name`` (host(port));
        ``ibmmq``'s ``cno``, ``csp`` and ``sco`` keywords go to ``connect_with_options``."""
        cd.ChannelName = _as_bytes(channel)
        cd.ConnectionName = _as_bytes(conn_name)
        cd.ChannelType = CMQC.MQCHT_CLNTCONN
        cd.TransportType = CMQC.MQXPT_TCP
        self.connect_with_options(name, user=user, password=password, cd=cd, **kwargs)

    connectTCPClient = connect_tcp_client

    def _connect(
        self,
        name: str,
        conn_info: str,
        *,
        client: bool,
        user: str | None = None,
        cno: ConnectOptions | None = None,
    ) -> None:
        if self._conn is not None and self._conn.conn.connected:
            # A second MQCONN on a connected handle: MQ answers with the same
            # connection and this warning (pymqi raises it).
            raise MQMIError(CMQC.MQCC_WARNING, CMQC.MQRC_ALREADY_CONNECTED)
        binding = bridge.binding()
        thread = threading.current_thread()
        in_thread = threading.get_ident() != binding.trio_thread
        attached = (threading.get_ident(), name)
        earlier = binding.group_attached.get(attached)
        if earlier is not None and earlier in binding.connections and _alive(earlier):
            # Group attach again from the thread attached already (z/OS batch: one
            # connection a task): MQCC_WARNING, "The Hconn parameter returned has the
            # same value as was returned for the previous MQCONN or MQCONNX call"
            # (2002). pymqi's MQCONNX keeps that handle before it raises; MQCONN not.
            if cno is not None:
                self._conn, self._bound, self._name = earlier, binding, earlier.q_mgr_name
                self._client, self._thread = client, thread if in_thread else None
            raise MQMIError(CMQC.MQCC_WARNING, CMQC.MQRC_ALREADY_CONNECTED)

        async def attach() -> Connection:
            world = binding.world
            qm = choose(world, binding, name, conn_info)
            conn = await world.connect(qm.name, user, cno=cno)
            binding.connections.add(conn)
            if in_thread:
                binding.threads.connected(thread, +1)
            return conn

        self._conn = bridge.call_on(binding, attach)
        self._bound = binding
        if name in binding.world.qsgs and name not in binding.world.qmgrs:
            binding.group_attached[attached] = self._conn
        self._name = self._conn.q_mgr_name
        self._client = client
        self._thread = thread if in_thread else None

    def disconnect(self) -> None:
        """MQDISC."""
        conn = self._connected()
        thread = self._thread
        binding = bridge.binding()

        async def disc() -> None:
            binding.connections.discard(conn)
            if thread is not None:
                binding.threads.connected(thread, -1)
            try:
                await history.disconnect(conn)
            except CoreError as error:
                if error.reason != CMQC.MQRC_CONNECTION_BROKEN:
                    raise
                # The queue manager is gone: the connection is over all the same.

        self._conn = None
        self._call(disc)

    def get_handle(self) -> int:
        """The connection handle (Hconn)."""
        return self._connected().conn.number

    getHandle = get_handle

    # ---- units of work -----------------------------------------------------------------
    def begin(self) -> None:
        """MQBEGIN. z/OS and client connections have no queue-manager-coordinated global
        unit of work: MQRC_ENVIRONMENT_ERROR. A distributed queue manager in bindings
        mode with no external resource manager registered starts the unit of work and
        warns MQRC_NO_EXTERNAL_PARTICIPANTS, which pymqi raises."""
        conn = self._connected()
        platform = conn.qm.rules.rules.platform
        if platform == CMQC.MQPL_ZOS or self._client:
            raise failed(
                CMQC.MQRC_ENVIRONMENT_ERROR,
                "MQBEGIN is for distributed queue managers in bindings mode",
            )
        self._call(_checked, conn)
        raise MQMIError(CMQC.MQCC_WARNING, CMQC.MQRC_NO_EXTERNAL_PARTICIPANTS)

    def commit(self) -> None:
        """MQCMIT."""
        self._call(partial(history.end_unit_of_work, self._connected(), commit=True))

    def backout(self) -> None:
        """MQBACK."""
        self._call(partial(history.end_unit_of_work, self._connected(), commit=False))

    # ---- MQPUT1 and MQINQ ----------------------------------------------------------------
    def put1(self, qDesc: str | bytes | Any, msg: bytes | str, *opts: Any) -> None:
        """MQPUT1 of ``msg`` to the queue ``qDesc`` (a name or an OD), with an MD and a
        PMO (both optional; output fields are written back)."""
        md, pmo = common_q_args(*opts)
        msg = self.encode_message(msg, md)
        core_md = convert.to_core(md, core.MD)
        core_pmo = convert.to_core(pmo, core.PMO) if pmo is not None else core.PMO()
        target = make_q_desc(qDesc)
        core_od = convert.to_core(target, core.OD)
        conn = self._connected()
        put = partial(conn.put1, core_od, msg, core_md, core_pmo)
        # The history's label only: a name that is not text names no queue, and the
        # call itself fails with MQRC_UNKNOWN_OBJECT_NAME, as MQOPEN of it does.
        name = core_od.ObjectName.rstrip(b" \x00").decode(errors="replace")
        self._call(history.put, conn, name, put, core_md, core_pmo)
        convert.write_back(core_md, md)
        if pmo is not None:
            convert.write_back(core_pmo, pmo)
        convert.write_back(core_od, target)

    def inquire(self, attribute: int) -> int | bytes:
        """MQINQ of a queue-manager attribute (MQIA_PLATFORM, MQCA_Q_MGR_NAME, ...)."""
        conn = self._connected()

        async def inq() -> int | bytes:
            await _checked(conn)
            return qmgr_attribute(conn.qm.rules, attribute)

        return self._call(inq)

    # ---- what is not simulated (qsg.pymqi.unsupported) ---------------------------------
    def cb(self, **kwargs: Any) -> None:
        """``ibmmq``'s MQCB: MQRC_FUNCTION_NOT_SUPPORTED (asynchronous consume)."""
        self._connected()
        raise unsupported.async_consume("MQCB")

    def ctl(self, operation: int, ctlo: Any = None) -> None:
        """``ibmmq``'s MQCTL: MQRC_FUNCTION_NOT_SUPPORTED (asynchronous consume)."""
        self._connected()
        raise unsupported.async_consume("MQCTL")

    def stat(self, status_type: int) -> None:
        """``ibmmq``'s MQSTAT: MQRC_FUNCTION_NOT_SUPPORTED."""
        self._connected()
        raise unsupported.status()

    @property
    def is_connected(self) -> bool:
        """Whether the connection is up (pymqi pings the queue manager)."""
        conn = self._conn
        if conn is None:
            return False
        try:
            self._call(_checked, conn)
        except MQMIError:
            return False
        return True

    # ---- for Queue ---------------------------------------------------------------------
    def _call(self, fn: Callable[..., Coroutine[Any, Any, T]], *args: Any) -> T:
        """``fn(*args)`` in the world of this connection's run."""
        bound = self._bound
        return bridge.call_on(bound, fn, *args) if bound is not None else bridge.call(fn, *args)

    def _connected(self) -> Connection:
        if self._conn is None:
            raise PYIFError("not connected")
        return self._conn

    def encode_message(self, msg: object, md: Any) -> bytes:
        """pymqi's handling of a message body: bytes as they are; a ``str`` encoded with
        ``bytes_encoding``, the MD marked with ``default_ccsid`` and MQFMT_STRING;
        anything else its TypeError."""
        if isinstance(msg, bytes):
            return msg
        if isinstance(msg, str):
            md.CodedCharSetId = self.default_ccsid
            md.Format = CMQC.MQFMT_STRING
            return msg.encode(self.bytes_encoding)
        raise TypeError(f"Message type is {type(msg)}. Convert to bytes.")

    def __repr__(self) -> str:
        state = "connected" if self._conn is not None else "not connected"
        return f"<qsg.pymqi.QueueManager {self._name!r} {state}>"


async def _checked(conn: Connection) -> None:
    """MQRC_CONNECTION_BROKEN if ``conn``'s queue manager died (or restarted) since."""
    await conn._call(lambda now: None)


def _as_bytes(value: str | bytes) -> bytes:
    return value.encode("ascii") if isinstance(value, str) else value


def make_q_desc(qDescOrString: Any) -> Any:
    """An OD for a queue name (pymqi's ``make_q_desc``); an OD as it is."""
    if isinstance(qDescOrString, str | bytes):
        return new_od(ObjectName=_as_bytes(qDescOrString))
    return qDescOrString


def common_q_args(*opts: Any) -> tuple[Any, Any]:
    """pymqi's optional (MD, options) pair of put, get and put1: a new MD if none."""
    if len(opts) > 2:
        raise TypeError("Too many args")
    md = opts[0] if opts else None
    options = opts[1] if len(opts) == 2 else None
    return (new_md() if md is None else md), options


def new_md() -> Any:
    return structs.MD()


def new_od(**fields: Any) -> Any:
    return structs.OD(**fields)


def connect(
    queue_manager: str | bytes | None,
    channel: str | bytes | None = None,
    conn_info: str | bytes | None = None,
    user: str | bytes | None = None,
    password: str | bytes | None = None,
    disconnect_on_exit: bool = True,
    bytes_encoding: str = BYTES_ENCODING,
    default_ccsid: int = DEFAULT_CCSID,
    *,
    cd: Any = None,
    cno: Any = None,
    csp: Any = None,
    sco: Any = None,
) -> QueueManager:
    """pymqi's ``connect``: as a client when ``channel`` and ``conn_info`` are given,
    else in bindings mode to ``queue_manager``; with ``ibmmq``'s keywords ``cd``,
    ``cno``, ``csp`` and ``sco``, an MQCONNX with them."""
    extra = {k: v for k, v in {"cno": cno, "csp": csp, "sco": sco}.items() if v is not None}
    if channel and conn_info:
        qmgr = QueueManager(None, disconnect_on_exit, bytes_encoding, default_ccsid)
        qmgr.connect_tcp_client(
            queue_manager or "", cd or structs.CD(), channel, conn_info, user, password, **extra
        )
        return qmgr
    if queue_manager and (extra or cd is not None):
        qmgr = QueueManager(None, disconnect_on_exit, bytes_encoding, default_ccsid)
        if cd is not None:
            extra["cd"] = cd
        qmgr.connect_with_options(queue_manager, user=user, password=password, **extra)
        return qmgr
    if queue_manager:
        return QueueManager(queue_manager, disconnect_on_exit, bytes_encoding, default_ccsid)
    raise TypeError(f"Invalid arguments: {[queue_manager, channel, conn_info, user, password]!r}")


__all__ = ["QueueManager", "choose", "common_q_args", "connect", "make_q_desc"]
